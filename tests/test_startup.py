"""Start-up (issue 12): a lint run of a patch with no Python file loads no classifier and
builds no call graph, yet still finds every data file a base test reads; the lazy package
exports resolve to what they name."""

from __future__ import annotations

import ast
import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests_support import GitRepo

from provscore.change import git as git_module
from provscore.change.git import Repo
from provscore.pipeline import ScoreRequest, score

BASE = {
    "pytest.ini": "[pytest]\ntestpaths = tests\n",
    "src/app.py": "def total(xs):\n    return sum(xs)\n",
    "tests/test_app.py": (
        "import json, pathlib, sys\nsys.path.insert(0, 'src')\nfrom app import total\n\n"
        "def test_total():\n    assert total([1, 2]) == 3\n\n"
        "def test_golden():\n"
        "    data = json.loads(pathlib.Path('docs/golden.json').read_text())\n"
        "    assert total(data['xs']) == data['sum']\n\n"
        "LISTED = ['docs/listed.json']  # named, never opened\n"),
    "docs/golden.json": '{"xs": [1, 2], "sum": 3}\n',
    "docs/listed.json": '{"xs": []}\n',
    "README.md": "hello\n",
}

# What a lint run of a docs patch must not import (relative to what Python itself loaded
# before provscore was imported).
HEAVY = ("libcst", "provscore.evidence.driver", "provscore.evidence.stage",
         "provscore.provenance.match", "provscore.results.junit", "defusedxml",
         "importlib.metadata", "concurrent.futures", "tabulate",
         # nor the call graph's build, resolution and analysis: no graph is built
         "provscore.callgraph.analysis", "provscore.callgraph.build",
         "provscore.callgraph.graph", "provscore.callgraph.resolve")


def _probe(repo: GitRepo, diff: Path, out: Path, *extra: str) -> tuple[int, list[str]]:
    probe = ("import sys\nbefore = set(sys.modules)\nfrom provscore.cli import main\n"
             f"rc = main(['score', '--repo', {str(repo.root)!r}, '--base', 'HEAD', '--diff', "
             f"{str(diff)!r}, '--format', 'json', '-o', {str(out)!r}, *{list(extra)!r}])\n"
             f"heavy = {HEAVY!r}\n"
             "new = set(sys.modules) - before\n"
             "print(rc, sorted(m for m in new for h in heavy"
             " if m == h or m.startswith(h + '.')))\n")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True, cwd=repo.root)
    rc, _, loaded = proc.stdout.strip().partition(" ")
    return int(rc), ast.literal_eval(loaded)


def test_a_lint_run_of_a_docs_patch_loads_no_classifier(repo: GitRepo, tmp_path: Path
                                                        ) -> None:
    repo.commit(BASE)
    diff = tmp_path / "p.diff"
    diff.write_bytes(repo.diff({"README.md": "hello again\n"}))
    out = tmp_path / "r.json"
    rc, loaded = _probe(repo, diff, out, "--static-only")
    report = json.loads(out.read_text())
    assert (rc, loaded) == (1, [])  # review (static only), and none of them
    assert report["decision"] == "review" and report["findings"] == []
    assert report["coverage"] is None  # no code to cover: the graph was not built


def test_the_same_patch_with_results_counts_the_base_corpus(repo: GitRepo, tmp_path: Path
                                                            ) -> None:
    repo.commit(BASE)
    patch = repo.diff({"README.md": "hello again\n"})
    junit = repo.off_tree_run(patch, tmp_path / "junit.xml")
    report = repo.score(patch, results=(junit,))
    assert report.coverage is not None
    assert (report.coverage.base_tests, report.coverage.base_tests_with_results) == (2, 2)
    assert report.coverage.symbols == ()


def test_a_lint_run_of_a_python_patch_keeps_its_coverage(repo: GitRepo) -> None:
    repo.commit(BASE)
    report = repo.score(repo.diff({"src/app.py": "def total(xs):\n    return sum(xs) + 0\n"}),
                        static_only=True)
    assert report.coverage is not None
    assert [r.symbol for r in report.coverage.symbols] == ["app:total"]
    assert report.coverage.symbols[0].tests_total == 2


@pytest.mark.parametrize(("edit", "codes"), [
    # A data file outside the fixture roots that a base test reads: its values are that
    # test's expected values.
    pytest.param({"docs/golden.json": '{"xs": [1, 2], "sum": 4}\n'}, ["PS108"],
                 id="golden-file-read-by-a-test"),
    # Named by a test, never opened: not an expected value (no finding at all).
    pytest.param({"docs/listed.json": '{"xs": [1]}\n'}, [], id="data-file-only-named"),
])
def test_a_lint_run_still_finds_data_files_base_tests_read(repo: GitRepo, edit: dict[str, str],
                                                           codes: list[str]) -> None:
    repo.commit(BASE)
    report = repo.score(repo.diff(edit), static_only=True)
    assert [f.code for f in report.findings if f.code.startswith("PS1")] == codes
    assert report.coverage is None


def test_one_search_finds_which_of_several_edited_data_files_base_tests_read(
        repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo.commit({**BASE, "tests/data/golden.json": '{"xs": [1, 2], "sum": 3}\n'})
    trace = tmp_path / "git-trace.txt"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    report = repo.score(repo.diff({"docs/golden.json": '{"xs": [1, 2], "sum": 4}\n',
                                   "tests/data/golden.json": '{"xs": [], "sum": 0}\n',
                                   "docs/listed.json": '{"xs": [1]}\n'}), static_only=True)
    # Both golden.json files carry the name the test opens (a basename is all a string
    # shows); listed.json is only named.
    assert sorted(f.location.path for f in report.findings
                  if f.code == "PS108" and f.location) == \
        ["docs/golden.json", "tests/data/golden.json"]
    greps = [line for line in trace.read_text().splitlines() if "built-in: git grep" in line]
    # One command per reading of the change (the fixture's agreement check reads it too).
    assert greps and all("-e golden.json -e listed.json" in line for line in greps)


def test_a_search_stopped_before_its_answer_leaves_no_git_running(repo: GitRepo) -> None:
    repo.commit({f"tests/test_{i}.py": "X = 'golden.json'\n" for i in range(3)})
    git = Repo(repo.root)
    job = git.start_grep("HEAD", ("golden.json", "other.txt"), ["tests/test_0.py"])
    procs = list(job._procs)
    job.close()
    assert procs and all(p.returncode is not None for p in procs)
    with git.start_grep("HEAD", ("golden.json", "missing.txt"),
                        [f"tests/test_{i}.py" for i in range(3)]) as job:
        assert sorted(job.result()) == [f"tests/test_{i}.py" for i in range(3)]
    with git.start_grep("HEAD", (), ["tests/test_0.py"]) as job:
        assert job.result() == []  # nothing to look for: git is not asked


def test_a_module_outside_the_tests_reading_the_file_does_not_make_it_expected(
        repo: GitRepo) -> None:
    repo.commit({**BASE, "src/loader.py": "import pathlib\n\n"
                 "def load():\n    return pathlib.Path('config.ini').read_text()\n",
                 "config.ini": "[a]\nb = 1\n"})
    report = repo.score(repo.diff({"config.ini": "[a]\nb = 2\n"}), static_only=True)
    assert not [f for f in report.findings if f.code == "PS108"]


def test_grep_reads_only_the_paths_it_is_given_in_chunks(repo: GitRepo,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    repo.commit({f"tests/test_{i}.py": ("X = 'golden.json'\n" if i % 2 else "X = 1\n")
                 for i in range(7)} | {"other.py": "X = 'golden.json'\n"})
    monkeypatch.setattr(git_module, "_GREP_PATHS", 2)  # four command lines for 7 paths
    git = Repo(repo.root)
    paths = [f"tests/test_{i}.py" for i in range(7)]
    assert sorted(git.grep_files("HEAD", "golden.json", paths)) == \
        ["tests/test_1.py", "tests/test_3.py", "tests/test_5.py"]
    assert git.grep_files("HEAD", "golden.json", []) == []
    assert git.grep_files("HEAD", "golden.json", ["other.py"]) == ["other.py"]


@pytest.mark.parametrize("package", ["provscore.evidence", "provscore.grader",
                                     "provscore.provenance", "provscore.results"])
def test_each_lazy_export_is_what_its_module_defines(package: str) -> None:
    module = importlib.import_module(package)
    exports: dict[str, str] = module._EXPORTS
    assert sorted(module.__all__) == sorted(exports) == dir(module)
    for name, sub in exports.items():
        assert getattr(module, name) is getattr(importlib.import_module(f"{package}.{sub}"),
                                                name)
    with pytest.raises(AttributeError, match="has no attribute 'missing'"):
        module.missing  # noqa: B018


def test_score_in_process_matches_the_lint_contract(repo: GitRepo) -> None:
    """The library call gives the same answer as the CLI: no coverage, no findings."""
    repo.commit(BASE)
    report = score(ScoreRequest(repo=repo.root, base="HEAD",
                                diff=repo.diff({"README.md": "bye\n"}), static_only=True))
    assert report.coverage is None and report.findings == ()


GLOBS = ("test_*.py", "*_test.py", "tests/*/check_?.py", "*.egg", ".*", "{arch}", "[!_]*.py",
         "*requirements*.txt", "requirements/*.txt", ".github/workflows/*", "a[bc]d", "x]y",
         "[", "*", "")
PATHS = ("test_a.py", "pkg/test_a.py", "a_test.py", "tests/x/check_1.py", "tests/x/check_12.py",
         "foo.egg", ".tox", "{arch}", "_private.py", "public.py", "dev-requirements.txt",
         "requirements/base.txt", ".github/workflows/ci.yml", ".github/workflows/a/b.yml",
         "abd", "acd", "aed", "x]y", "[", "", "TEST_A.PY", "Test_a.py", "a\nb", "tests/.hidden")


@pytest.mark.parametrize("k", [1, 2, 3])
def test_one_regex_matches_what_the_globs_match(k: int) -> None:
    import fnmatch
    import itertools

    from provscore.change.collection import any_glob

    for patterns in itertools.combinations(GLOBS, k):
        matcher = any_glob(patterns)
        for path in PATHS:
            assert bool(matcher.match(path)) == any(
                fnmatch.fnmatchcase(path, p) for p in patterns), (patterns, path)
    assert not any_glob(()).match("anything")


def test_test_files_are_matched_by_path_or_name_as_pytest_does() -> None:
    # _pytest.pathlib.fnmatch_ex: a glob with a "/" is matched as "*/" + glob against the
    # absolute path, any other against the file name.
    from provscore.change.collection import CollectionConfig

    config = CollectionConfig(python_files=("check_*.py", "suite/*_spec.py"),
                              unittest_files=("tests*.py",))
    assert [p for p in ("check_a.py", "pkg/check_a.py", "suite/a_spec.py", "pkg/suite/a_spec.py",
                        "a_spec.py", "pkg/tests_x.py", "test_a.py") if config.is_test_file(p)] \
        == ["check_a.py", "pkg/check_a.py", "suite/a_spec.py", "pkg/suite/a_spec.py",
            "pkg/tests_x.py"]  # a glob with a "/" matches the end of the path, as in pytest
    assert not CollectionConfig().is_collected("build/test_a.py")
    assert not CollectionConfig().is_collected("pkg/.venv/test_a.py")
    assert CollectionConfig().is_collected("pkg/tests/test_a.py")


def test_test_file_globs_agree_with_a_real_pytest_collection(tmp_path: Path) -> None:
    from provscore.change.collection import CollectionConfig

    files = ("check_a.py", "pkg/check_b.py", "suite/c_spec.py", "pkg/suite/d_spec.py",
             "e_spec.py", "pkg/other/f_spec.py", "test_g.py")
    for rel in files:
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text("def test_it():\n    pass\n")
    (tmp_path / "pytest.ini").write_text(
        "[pytest]\npython_files = check_*.py suite/*_spec.py\n")
    proc = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                           "-p", "no:cacheprovider", "-p", "no:randomly"],
                          cwd=tmp_path, capture_output=True, text=True, check=False)
    collected = sorted({line.split("::")[0] for line in proc.stdout.splitlines()
                        if "::" in line})
    config = CollectionConfig(python_files=("check_*.py", "suite/*_spec.py"))
    assert collected == sorted(f for f in files if config.is_collected(f)) == [
        "check_a.py", "pkg/check_b.py", "pkg/suite/d_spec.py", "suite/c_spec.py"]


def test_a_pinned_ref_names_the_commit_it_named_when_read(repo: GitRepo) -> None:
    repo.commit({"a.py": "A = 1\n"})
    first = Repo(repo.root)
    sha = first.resolve_base("HEAD")
    first.pin("HEAD", sha)
    repo.commit({"a.py": "A = 2\n"})
    assert first.resolve("HEAD") == first.resolve_base("HEAD") == sha
    assert Repo(repo.root).resolve("HEAD") != sha  # the ref moved; a new Repo sees it


def test_score_asks_git_for_the_base_once(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    diff = tmp_path / "p.diff"
    diff.write_bytes(repo.diff({"README.md": "hello again\n"}))
    trace = tmp_path / "trace.txt"
    subprocess.run([sys.executable, "-m", "provscore", "score", "--repo", str(repo.root),
                    "--base", "HEAD", "--diff", str(diff), "--static-only", "--no-cache",
                    "--format", "json", "-q", "-o", str(tmp_path / "r.json")],
                   env={**os.environ, "GIT_TRACE": str(trace)}, cwd=tmp_path, check=False,
                   capture_output=True)
    runs = [line for line in trace.read_text().splitlines() if "trace: built-in: git" in line]
    assert json.loads((tmp_path / "r.json").read_text())["decision"] == "review"
    assert sum("rev-parse --verify --quiet 'HEAD^{commit}'" in line for line in runs) == 1
