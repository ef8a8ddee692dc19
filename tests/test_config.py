"""Configuration from base ([tool.provscore], --config, --isolated, PROVSCORE_*), rule
selection (--select / --extend-select / --ignore) and what the contract keeps in force,
and the pre-commit hook on a repository's first commit: all through the real CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests_support import GitRepo

ROOT = Path(__file__).resolve().parents[1]
TEST_A = ("import pytest\n\n\ndef test_a():\n    assert f(1) == 2\n    assert f(2) == 3\n\n\n"
          "def test_b():\n    assert f(3) == 4\n")
# PS101 (assert f(2) == 3 removed), PS201 (a skip added); no results: PS502.
PATCHED_A = ("import pytest\n\n\ndef test_a():\n    assert f(1) == 2\n\n\n"
             "@pytest.mark.skip\ndef test_b():\n    assert f(3) == 4\n")
PYPROJECT = "[project]\nname = 'a'\n"
EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904"
ENV_KEYS = ("NO_COLOR", "FORCE_COLOR", "PROVSCORE_FORMAT", "PROVSCORE_FAIL_ON", "PROVSCORE_COLOR",
            "COLUMNS", "GITHUB_STEP_SUMMARY", "TERM")


def _base(repo: GitRepo, tool: str = "") -> str:
    return repo.commit({"tests/test_a.py": TEST_A, "src/a.py": "X = 1\n",
                        "pyproject.toml": PYPROJECT + tool})


def _run(*argv: str | Path, env: dict[str, str] | None = None,
         cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ENV_KEYS}
    # -P: the console script's safe path, so the working directory is never imported.
    return subprocess.run([sys.executable, "-P", "-m", "provscore", *map(str, argv)],
                          capture_output=True, text=True, env={**clean, **(env or {})},
                          check=False, cwd=cwd)


def _score(repo: GitRepo, patch: Path, *args: str | Path,
           env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return _run("score", "--repo", repo.root, "--base", "HEAD", "--diff", patch, *args,
                env=env)


def _json(proc: subprocess.CompletedProcess[str]) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(proc.stdout)
    return doc


def _patch(repo: GitRepo, tmp_path: Path, files: dict[str, str] | None = None) -> Path:
    patch = tmp_path / "agent.patch"
    patch.write_bytes(repo.diff(files or {"tests/test_a.py": PATCHED_A}))
    return patch


def _codes(doc: dict[str, Any]) -> list[str]:
    return [f["code"] for f in doc["findings"]]


# --------------------------------------------------------------------------- [tool.provscore]


def test_the_table_at_base_sets_the_defaults(repo: GitRepo, tmp_path: Path) -> None:
    base = _base(repo, '\n[tool.provscore]\nignore = ["PS201"]\nfail-on = "reject"\n'
                       'format = ["concise", "json:report.json"]\n')
    patch = _patch(repo, tmp_path)
    proc = _score(repo, patch)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stdout.splitlines()  # concise on stdout, from the table's format
    assert lines[0] == ("tests/test_a.py:1:1: PS101 assert removed from "
                        "tests/test_a.py::test_a: assert f(2) == 3 (line 6 on base)")
    assert not any("PS201" in line for line in lines)
    # json:report.json is relative to the directory of the pyproject.toml it came from.
    doc = json.loads((repo.root / "report.json").read_text())
    source = f"pyproject.toml at base {base[:12]}"
    assert doc["inputs"]["config"] == source
    assert doc["selection"] == {
        "select": ["ALL"], "extend_select": [], "ignore": ["PS201"], "sources": [source],
        "deselected": ["PS201"], "kept": [],
        "ignored_findings": [{"code": "PS201", "count": 1}]}
    assert _codes(doc) == ["PS101", "PS502"]


def test_a_patch_that_edits_the_table_changes_nothing_for_its_own_score(
        repo: GitRepo, tmp_path: Path) -> None:
    _base(repo)
    evasion = PYPROJECT + ('\n[tool.provscore]\nignore = ["PS1", "PS2", "PS5"]\n'
                           'fail-on = "reject"\nformat = "concise"\n')
    files = {"tests/test_a.py": PATCHED_A, "pyproject.toml": evasion}
    patch = _patch(repo, tmp_path, files)
    by_diff = _score(repo, patch, "--format", "json")
    # The same patch as commits, checked out: the working tree holds the edited table.
    repo.git("checkout", "-q", "-b", "agent")
    repo.commit(files, "agent")
    assert "[tool.provscore]" in (repo.root / "pyproject.toml").read_text()
    by_head = _run("score", "--repo", repo.root, "--base", "main", "--head", "agent",
                   "--format", "json")
    for proc in (by_diff, by_head):
        assert proc.returncode == 2, proc.stderr
        doc = _json(proc)
        assert doc["inputs"]["config"] is None
        assert doc["selection"]["ignore"] == [] and doc["selection"]["ignored_findings"] == []
        assert {"PS101", "PS201", "PS502"} <= set(_codes(doc))
    # Its own edit is not in force for the next patch either until it is on base: the
    # look-alike is the same table committed to base (test above), which does apply.


def test_the_closest_table_from_the_repo_dir_up_wins(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"pkg/pyproject.toml": '[tool.provscore]\nselect = ["PS2"]\n',
                 "pkg/tests/test_a.py": TEST_A, "pyproject.toml": PYPROJECT +
                 '[tool.provscore]\nselect = ["PS1"]\n'})
    patch = _patch(repo, tmp_path, {"pkg/tests/test_a.py": PATCHED_A})
    top = _score(repo, patch, "--format", "json")
    inner = _run("score", "--repo", repo.root / "pkg", "--base", "HEAD", "--diff", patch,
                 "--format", "json")
    assert _codes(_json(top)) == ["PS101"]
    assert _codes(_json(inner)) == ["PS201"]
    assert _json(inner)["inputs"]["config"].startswith("pkg/pyproject.toml at base ")


@pytest.mark.parametrize(("table", "message"), [
    ('fial-on = "reject"\n', "tool.provscore.fial-on: unknown key (did you mean fail-on?); "
     "known keys: oracle, format, select, extend-select, ignore, fail-on"),
    ('extend_select = ["PS1"]\n', "tool.provscore.extend_select: unknown key (did you mean "
     "extend-select?); known keys: oracle, format, select, extend-select, ignore, fail-on"),
    ('select = "PS1"\n', "tool.provscore.select: expected an array of strings, got str 'PS1'"),
    ('fail-on = "never"\n', "tool.provscore.fail-on: 'never' is not one of review, reject"),
    ('ignore = ["PS999"]\n', "tool.provscore.ignore: unknown rule code or prefix 'PS999' "
     "(did you mean PS904?); `provscore explain` lists the rules"),
    ('ignore = ["skip-added"]\n', "tool.provscore.ignore: unknown rule code or prefix "
     "'skip-added' (skip-added is the name of PS201; give the code); `provscore explain` "
     "lists the rules"),
    ('format = ["jsno:r.json"]\n', "tool.provscore.format: unknown format 'jsno' (did you "
     "mean json?); expected FMT or FMT:PATH with FMT one of concise, github, json, markdown, "
     "sarif, text"),
    ("select = [\n", None),
])
def test_a_bad_table_is_one_line_naming_the_file(repo: GitRepo, tmp_path: Path, table: str,
                                                 message: str | None) -> None:
    base = _base(repo, "\n[tool.provscore]\n" + table)
    patch = _patch(repo, tmp_path)
    proc = _score(repo, patch)
    prefix = f"provscore: error: pyproject.toml at base {base[:12]}: "
    assert proc.returncode == 3 and proc.stdout == ""
    assert proc.stderr.startswith(prefix) and proc.stderr.count("\n") == 1, proc.stderr
    if message is None:
        assert "malformed TOML" in proc.stderr and "--isolated skips" in proc.stderr
    else:
        assert proc.stderr == prefix + message + "\n"
    # --isolated reads no configuration at all: the same patch scores.
    isolated = _score(repo, patch, "--isolated", "--format", "json")
    assert isolated.returncode == 2 and _json(isolated)["inputs"]["config"] is None


def test_config_file_replaces_the_table_at_base(repo: GitRepo, tmp_path: Path) -> None:
    _base(repo, '\n[tool.provscore]\nselect = ["PS2"]\n')
    patch = _patch(repo, tmp_path)
    own = tmp_path / "provscore.toml"  # a file that is the table itself
    own.write_text('select = ["PS1"]\n')
    proc = _score(repo, patch, "--config", own, "--format", "json")
    doc = _json(proc)
    assert _codes(doc) == ["PS101"] and doc["inputs"]["config"] == str(own)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text("[project]\nname = 'x'\n")
    missing = _score(repo, patch, "--config", pyproject)
    assert (missing.returncode, missing.stderr) == (
        3, f"provscore: error: {pyproject}: no [tool.provscore] table\n")
    gone = _score(repo, patch, "--config", tmp_path / "nope.toml")
    assert gone.returncode == 3 and gone.stderr.startswith(
        f"provscore: error: {tmp_path / 'nope.toml'}: cannot read configuration: ")


def test_precedence_command_line_then_environment_then_table(repo: GitRepo,
                                                             tmp_path: Path) -> None:
    _base(repo, '\n[tool.provscore]\nfail-on = "reject"\nformat = "concise"\n')
    # Lint mode on a patch that only adds a test: the best decision is review.
    patch = _patch(repo, tmp_path, {"tests/test_new.py": "def test_n():\n    assert 1 + 1 == 2\n"})
    lint = ("--static-only",)
    table = _score(repo, patch, *lint)
    assert table.returncode == 0 and table.stdout.splitlines()[-1].startswith(
        "provscore: REVIEW")  # fail-on reject, concise: both from the table
    env = _score(repo, patch, *lint, env={"PROVSCORE_FAIL_ON": "review",
                                          "PROVSCORE_FORMAT": "json"})
    assert env.returncode == 1 and _json(env)["decision"] == "review"
    cli = _score(repo, patch, *lint, "--fail-on", "reject", "--format", "text",
                 env={"PROVSCORE_FAIL_ON": "review", "PROVSCORE_FORMAT": "json"})
    assert cli.returncode == 0 and cli.stdout.startswith("provscore: REVIEW")
    assert _score(repo, patch, *lint, "--exit-zero", "--fail-on", "review").returncode == 0
    bad = _score(repo, patch, env={"PROVSCORE_FAIL_ON": "always"})
    assert (bad.returncode, bad.stderr) == (
        3, "provscore: error: $PROVSCORE_FAIL_ON: 'always' is not one of review, reject\n")
    empty = _score(repo, patch, *lint, env={"PROVSCORE_FAIL_ON": "", "PROVSCORE_FORMAT": ""})
    assert empty.returncode == 0  # an empty variable counts as unset: the table's reject


def test_the_oracle_key_is_resolved_from_the_table_s_directory(repo: GitRepo,
                                                               tmp_path: Path) -> None:
    _base(repo, '\n[tool.provscore]\noracle = "../oracle"\n')
    oracle = repo.root.parent / "oracle"
    oracle.mkdir()
    (oracle / "score_contract.toml").write_text('[rules]\nrequired = ["PS201"]\n')
    patch = _patch(repo, tmp_path)
    doc = _json(_score(repo, patch, "--ignore", "PS2", "--format", "json"))
    assert doc["inputs"]["oracle"] == str(oracle)
    assert doc["selection"]["kept"] == [
        {"code": "PS201", "reason": "the contract requires it (rules.required)"}]


# --------------------------------------------------------------------------- rule selection


@pytest.mark.parametrize(("args", "found", "left_out"), [
    (["--select", "PS1"], ["PS101"], {"PS201": 1, "PS502": 1}),
    (["--select", "PS1,PS201"], ["PS201", "PS101"], {"PS502": 1}),
    (["--select", "PS1", "--select", "PS201"], ["PS201", "PS101"], {"PS502": 1}),
    (["--ignore", "PS2"], ["PS101", "PS502"], {"PS201": 1}),
    (["--ignore", "ps2"], ["PS101", "PS502"], {"PS201": 1}),  # codes are case-insensitive
    # ruff's rule: the more specific selector wins, whichever list it is in.
    (["--ignore", "PS2", "--extend-select", "PS201"], ["PS201", "PS101", "PS502"], {}),
    (["--select", "PS201", "--ignore", "PS20"], ["PS201"], {"PS101": 1, "PS502": 1}),
    (["--select", "PS2", "--ignore", "PS201"], [], {"PS101": 1, "PS201": 1, "PS502": 1}),
    (["--ignore", "ALL", "--extend-select", "PS5"], ["PS502"], {"PS101": 1, "PS201": 1}),
])
def test_select_ignore_extend_select(repo: GitRepo, tmp_path: Path, args: list[str],
                                     found: list[str], left_out: dict[str, int]) -> None:
    _base(repo)
    patch = _patch(repo, tmp_path)
    proc = _score(repo, patch, *args, "--format", "json")
    assert proc.returncode in (0, 1, 2), proc.stderr
    doc = _json(proc)
    assert _codes(doc) == found
    assert {r["code"]: r["count"] for r in doc["selection"]["ignored_findings"]} == left_out
    assert "--select" in doc["selection"]["sources"] or "--select" not in args


def test_a_gate_whose_rules_are_all_deselected_is_not_evaluated(repo: GitRepo,
                                                                tmp_path: Path) -> None:
    _base(repo)
    patch = _patch(repo, tmp_path)
    doc = _json(_score(repo, patch, "--ignore", "PS2", "--format", "json"))
    gate = next(g for g in doc["gates"] if g["name"] == "suppressions")
    assert gate["status"] == "not_evaluated"
    assert gate["note"] == "every rule of this gate is deselected by the rule selection"
    text = _score(repo, patch, "--ignore", "PS2", "--format", "text",
                  env={"COLUMNS": "200"}).stdout
    assert "Left out by the rule selection (--ignore): PS201 ×1" in text


@pytest.mark.parametrize(("args", "message"), [
    (["--ignore", "PS999"], "--ignore: unknown rule code or prefix 'PS999' (did you mean "
     "PS904?); `provscore explain` lists the rules"),
    (["--select", "XX"], "--select: unknown rule code or prefix 'XX'; `provscore explain` "
     "lists the rules"),
    (["--extend-select", "assertion-removed"], "--extend-select: unknown rule code or prefix "
     "'assertion-removed' (assertion-removed is the name of PS101; give the code); "
     "`provscore explain` lists the rules"),
])
def test_unknown_selectors_are_usage_errors(repo: GitRepo, tmp_path: Path, args: list[str],
                                            message: str) -> None:
    _base(repo)
    patch = _patch(repo, tmp_path)
    proc = _score(repo, patch, *args)
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, "", f"provscore: error: {message}\n")


def test_the_contract_forbids_ignoring_reject_rules(repo: GitRepo, tmp_path: Path) -> None:
    # The repository's own table ignores the rules this patch breaks; the oracle's contract
    # (which the patch cannot edit) says no reject rule may be turned off.
    _base(repo, '\n[tool.provscore]\nignore = ["PS1", "PS2"]\n')
    patch = _patch(repo, tmp_path)
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "score_contract.toml").write_text('[rules]\nrequired_actions = ["reject"]\n')
    proc = _score(repo, patch, "--oracle", oracle, "--ignore", "PS5", "--format", "json")
    assert proc.returncode == 2
    doc = _json(proc)
    assert _codes(doc) == ["PS201", "PS101", "PS502"]
    kept = {k["code"]: k["reason"] for k in doc["selection"]["kept"]}
    assert kept["PS101"] == kept["PS201"] == kept["PS502"] == \
        "the contract requires reject rules"
    assert "PS103" not in kept and "PS103" in doc["selection"]["deselected"]  # a penalty rule
    assert doc["selection"]["ignored_findings"] == []
    assert proc.stderr.splitlines() == [
        f"provscore: note: {code} is reported although deselected: the contract requires "
        "reject rules" for code in ("PS101", "PS201", "PS502")]
    # The honest look-alike: without that contract the repository's selection applies.
    (oracle / "score_contract.toml").write_text("")
    free = _json(_score(repo, patch, "--oracle", oracle, "--format", "json"))
    assert _codes(free) == ["PS502"]
    # A required code or prefix the registry does not know is the contract's error.
    (oracle / "score_contract.toml").write_text('[rules]\nrequired = ["PS77"]\n')
    bad = _score(repo, patch, "--oracle", oracle)
    assert bad.returncode == 3 and bad.stderr == (
        f"provscore: error: {oracle / 'score_contract.toml'}: rules.required: unknown rule "
        "code or prefix 'PS77' (did you mean PS807?); `provscore explain` lists the rules\n")


def test_input_rules_stay_in_force_whatever_the_selection(repo: GitRepo, tmp_path: Path) -> None:
    _base(repo)
    patch = tmp_path / "broken.patch"  # a hunk that does not apply to base: PS902
    patch.write_text("--- a/src/a.py\n+++ b/src/a.py\n@@ -1 +1 @@\n-Y = 2\n+Y = 3\n")
    proc = _score(repo, patch, "--select", "PS1", "--ignore", "PS9", "--format", "json")
    assert proc.returncode == 2
    doc = _json(proc)
    assert _codes(doc) == ["PS902"]
    assert {"code": "PS902", "reason": "an input rule (gate 1): always in force"} in \
        doc["selection"]["kept"]


# --------------------------------------------------------------------------- first commit


def test_pre_commit_on_a_repository_s_first_commit(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "fresh")  # `git init`, nothing committed: no HEAD
    repo.write({"src/calc.py": "def add(a, b):\n    return a + b\n",
                "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
                                      "    assert add(1, 2) == 3\n"})
    repo.git("add", "-A")
    hook = ("score", "--repo", ".", "--base", "HEAD", "--staged", "--static-only",
            "--fail-on", "reject")  # .pre-commit-hooks.yaml's entry, without -q
    proc = _run(*hook, "--format", "json", cwd=repo.root)
    assert proc.returncode == 0, proc.stderr
    doc = _json(proc)
    assert doc["decision"] == "review"  # lint mode: nothing can pass
    assert doc["inputs"]["base"] == EMPTY_TREE and doc["inputs"]["diff"] == "git diff --cached"
    assert [(w["path"], w["status"]) for w in doc["write_set"]] == [
        ("src/calc.py", "added"), ("tests/test_calc.py", "added")]
    assert _codes(doc) == ["PS103"]  # the first test is evidence the patch wrote
    quiet = _run(*hook, "-q", cwd=repo.root)
    assert (quiet.returncode, quiet.stderr) == (0, "")
    assert quiet.stdout.startswith("provscore: REVIEW")
    # Without --fail-on reject the review fails the hook, as on any later commit.
    strict = _run("score", "--repo", ".", "--base", "HEAD", "--staged", "--static-only",
                  "-q", cwd=repo.root)
    assert strict.returncode == 1 and strict.stdout.startswith("provscore: REVIEW")
    # Only HEAD may be unborn: any other missing revision is still an error.
    other = _run("score", "--repo", ".", "--base", "main", "--staged", cwd=repo.root)
    assert other.returncode == 3 and "unknown revision 'main'" in other.stderr
