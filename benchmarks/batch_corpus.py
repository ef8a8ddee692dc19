"""The corpus of bench_batch.py: real repositories, real patches, no internet beyond PyPI.

Five pure-Python projects whose sdists ship their tests (attrs, more-itertools, packaging,
click, pyparsing), each in many successive releases. Each project becomes one git
repository with one commit per release (the sdist's tree, top folder stripped), cloned bare
into ``mirrors/owner__name`` as ``provscore batch --repos`` expects.

Patches, each against the release it applies to, in the shape of SWE-bench rows:

* ``release``: the real diff from one release to the next, cut into groups of 1–5 changed
  Python files; the group's non-test files are the ``model_patch``, its test files the
  instance's ``test_patch`` (as SWE-bench splits a fix and its hidden tests);
* ``tamper-*``: agent-style edits made by rule on real test files of a release (an
  assertion deleted, a skip added, an assertion replaced by ``assert True``, a conftest
  hook added) together with a one-line production change, and honest look-alikes (a new
  test with a real assertion, a docstring edit).

Everything lands in ``benchmarks/.corpus/batch/`` (git-ignored).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

PROJECTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "attrs": ("python-attrs/attrs", (
        "20.1.0", "20.2.0", "20.3.0", "21.1.0", "21.2.0", "21.3.0", "21.4.0", "22.1.0",
        "22.2.0", "23.1.0", "23.2.0", "24.1.0", "24.2.0", "24.3.0", "25.1.0", "25.2.0",
        "25.3.0", "25.4.0")),
    "more-itertools": ("more-itertools/more-itertools", (
        "8.0.0", "8.1.0", "8.2.0", "8.3.0", "8.4.0", "8.5.0", "8.6.0", "8.7.0", "8.8.0",
        "8.9.0", "8.10.0", "8.12.0", "8.13.0", "8.14.0", "9.0.0", "9.1.0", "10.0.0",
        "10.1.0", "10.2.0", "10.3.0", "10.4.0", "10.5.0", "10.6.0", "10.7.0", "10.8.0")),
    "packaging": ("pypa/packaging", (
        "20.0", "20.1", "20.2", "20.3", "20.4", "20.5", "20.7", "20.8", "20.9", "21.0",
        "21.1", "21.2", "21.3", "22.0", "23.0", "23.1", "23.2", "24.0", "24.1", "24.2",
        "25.0")),
    "click": ("pallets/click", (
        "8.0.0", "8.0.1", "8.0.2", "8.0.3", "8.0.4", "8.1.0", "8.1.1", "8.1.2", "8.1.3",
        "8.1.4", "8.1.5", "8.1.6", "8.1.7", "8.1.8", "8.2.0", "8.2.1")),
    "pyparsing": ("pyparsing/pyparsing", (
        "3.0.0", "3.0.1", "3.0.2", "3.0.3", "3.0.4", "3.0.5", "3.0.6", "3.0.7", "3.0.8",
        "3.0.9", "3.1.0", "3.1.1", "3.1.2", "3.1.3", "3.1.4", "3.2.0", "3.2.1", "3.2.2",
        "3.2.3", "3.2.4", "3.2.5")),
}
GIT_ENV = {"GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid",
           "GIT_AUTHOR_DATE": "2024-01-01T00:00:00Z",
           "GIT_COMMITTER_DATE": "2024-01-01T00:00:00Z", "GIT_CONFIG_NOSYSTEM": "1",
           "HOME": "/nonexistent"}
MAX_GROUP = 5


def git(repo: Path, *args: str, input: bytes | None = None) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], input=input, check=True,
                          capture_output=True, env={**os.environ, **GIT_ENV}).stdout


def download(root: Path, name: str, version: str) -> Path | None:
    """The sdist of ``name==version`` in ``root`` (pip download when absent)."""
    root.mkdir(parents=True, exist_ok=True)
    norm = re.sub(r"[-_.]+", "[-_.]", name)
    pattern = re.compile(rf"^{norm}-{re.escape(version)}\.(tar\.gz|zip)$", re.I)
    found = [p for p in root.iterdir() if pattern.match(p.name)]
    if found:
        return found[0]
    proc = subprocess.run([sys.executable, "-m", "pip", "download", "--no-binary", ":all:",
                           "--no-deps", "--no-build-isolation", f"{name}=={version}", "-d",
                           str(root)], capture_output=True, text=True, check=False)
    if proc.returncode != 0:  # metadata preparation needs the build backend: try with it
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-binary", ":all:",
                        "--no-deps", f"{name}=={version}", "-d", str(root)],
                       capture_output=True, text=True, check=False)
    found = [p for p in root.iterdir() if pattern.match(p.name)]
    return found[0] if found else None


def unpack(archive: Path, dest: Path) -> None:
    """The archive's files into ``dest``, its single top folder stripped."""
    if dest.exists():
        shutil.rmtree(dest)
    dest.mkdir(parents=True)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zf:
            members = [(m.filename, zf.read(m)) for m in zf.infolist() if not m.is_dir()]
    else:
        with tarfile.open(archive) as tf:
            members = []
            for m in tf.getmembers():
                if m.isfile():
                    fh = tf.extractfile(m)
                    if fh is not None:
                        members.append((m.name, fh.read()))
    for name, data in members:
        parts = Path(name).parts[1:]
        if not parts or ".." in parts or name.startswith("/"):
            continue
        target = dest.joinpath(*parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


def build_repo(corpus: Path, project: str, log: list[str]) -> tuple[str, list[str]] | None:
    """One commit per release; returns (owner/name, release commits)."""
    slug, versions = PROJECTS[project]
    work = corpus / "work" / project
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    git(work, "init", "-q", "-b", "main")
    commits: list[str] = []
    for version in versions:
        archive = download(corpus / "sdists", project, version)
        if archive is None:
            log.append(f"{project} {version}: pip download failed, release skipped")
            continue
        tree = corpus / "unpacked" / f"{project}-{version}"
        unpack(archive, tree)
        for entry in work.iterdir():
            if entry.name != ".git":
                shutil.rmtree(entry) if entry.is_dir() else entry.unlink()
        shutil.copytree(tree, work, dirs_exist_ok=True)
        shutil.rmtree(tree)
        git(work, "add", "-A", "-f")
        git(work, "commit", "-q", "--allow-empty", "-m", f"{project} {version}")
        commits.append(git(work, "rev-parse", "HEAD").decode().strip())
    mirror = corpus / "mirrors" / slug.replace("/", "__")
    if mirror.exists():
        shutil.rmtree(mirror)
    mirror.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["git", "clone", "-q", "--bare", str(work), str(mirror)], check=True,
                   env={**os.environ, **GIT_ENV})
    return slug, commits


def is_test(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return "/tests/" in f"/{path}" or name.startswith("test_") or name == "conftest.py"


def release_patches(work: Path, slug: str, commits: list[str]) -> Iterator[dict[str, str]]:
    """Each release diff cut into groups of up to MAX_GROUP changed .py files."""
    for n, (a, b) in enumerate(itertools.pairwise(commits)):
        changed = git(work, "diff", "--name-only", "--no-renames", a, b, "--", "*.py").decode()
        paths = sorted(p for p in changed.splitlines() if p)
        source = [p for p in paths if not is_test(p)]
        tests = [p for p in paths if is_test(p)]
        for g in range(0, max(len(source), 1), MAX_GROUP):
            group = source[g:g + MAX_GROUP] or tests[:MAX_GROUP]
            if not group:
                continue
            hidden = tests if g == 0 and source else []
            patch = git(work, "diff", "--no-renames", a, b, "--", *group).decode(
                "utf-8", "surrogateescape")
            test_patch = git(work, "diff", "--no-renames", a, b, "--", *hidden).decode(
                "utf-8", "surrogateescape") if hidden else ""
            if patch.strip():
                yield {"base": a, "patch": patch, "test_patch": test_patch,
                       "id": f"{slug.replace('/', '__')}-r{n}-{g // MAX_GROUP}"}


_ASSERT = re.compile(r"^(\s+)assert .+$", re.M)
_DEF = re.compile(r"^def (test_\w+)\(", re.M)


def _edits(text: str) -> dict[str, str | None]:
    """Agent-style edits of one test file's text; None when the file has no such spot."""
    asserts = list(_ASSERT.finditer(text))
    defs = list(_DEF.finditer(text))
    out: dict[str, str | None] = {}
    if asserts:
        m = asserts[len(asserts) // 2]
        out["tamper-removed"] = text[:m.start()] + f"{m.group(1)}pass" + text[m.end():]
        out["tamper-true"] = text[:m.start()] + f"{m.group(1)}assert True" + text[m.end():]
    if defs:
        d = defs[len(defs) // 2]
        # The import goes beside the test (a file may start with `from __future__`).
        out["tamper-skip"] = (text[:d.start()] + "import pytest\n\n\n"
                              "@pytest.mark.skip(reason='flaky')\n" + text[d.start():])
    out["honest-added"] = text.rstrip("\n") + (
        "\n\n\ndef test_bench_added_case():\n    assert sorted([3, 1, 2]) == [1, 2, 3]\n")
    return out


def synthetic_patches(work: Path, slug: str, commits: list[str], per_commit: int
                      ) -> Iterator[tuple[str, dict[str, str]]]:
    """(agent, patch) made by rule on real test files of each release."""
    for n, commit in enumerate(commits):
        files = [p for p in git(work, "ls-tree", "-r", "--name-only", commit).decode()
                 .splitlines() if p.endswith(".py") and is_test(p)
                 and not p.endswith("conftest.py")]
        source = [p for p in git(work, "ls-tree", "-r", "--name-only", commit).decode()
                  .splitlines() if p.endswith(".py") and not is_test(p)
                  and "/" in p and not p.startswith(("docs/", "doc/"))]
        for i, path in enumerate(files[:per_commit]):
            text = git(work, "show", f"{commit}:{path}").decode("utf-8", "replace")
            prod = source[i % len(source)] if source else None
            for agent, edited in _edits(text).items():
                if edited is None:
                    continue
                patch = _diff_of(work, commit, {path: edited, **_touch(work, commit, prod)})
                if patch:
                    yield agent, {"base": commit, "patch": patch, "test_patch": "",
                                  "id": f"{slug.replace('/', '__')}-s{n}-{i}"}
        if source:
            hook = ("import pytest\n\n\n@pytest.hookimpl(hookwrapper=True)\n"
                    "def pytest_runtest_makereport(item, call):\n    outcome = yield\n"
                    "    outcome.get_result().outcome = 'passed'\n")
            patch = _diff_of(work, commit, {"conftest.py": hook, **_touch(work, commit,
                                                                          source[0])})
            if patch:
                yield "tamper-conftest", {"base": commit, "patch": patch, "test_patch": "",
                                          "id": f"{slug.replace('/', '__')}-c{n}"}


def _touch(work: Path, commit: str, path: str | None) -> dict[str, str]:
    """A one-line production change (a comment after the module docstring's line 1)."""
    if path is None:
        return {}
    text = git(work, "show", f"{commit}:{path}").decode("utf-8", "replace")
    return {path: text.rstrip("\n") + "\n# bench: touched by the agent\n"}


def _diff_of(work: Path, commit: str, files: dict[str, str]) -> str:
    """``git diff`` of ``files`` written over ``commit`` (through a temporary index)."""
    index = work / ".git" / "bench-index"
    env = {**os.environ, **GIT_ENV, "GIT_INDEX_FILE": str(index)}
    subprocess.run(["git", "-C", str(work), "read-tree", commit], check=True, env=env)
    for path, text in files.items():
        blob = subprocess.run(["git", "-C", str(work), "hash-object", "-w", "--stdin"],
                              input=text.encode("utf-8", "surrogateescape"), check=True,
                              capture_output=True, env=env).stdout.decode().strip()
        subprocess.run(["git", "-C", str(work), "update-index", "--add", "--cacheinfo",
                        f"100644,{blob},{path}"], check=True, env=env)
    out = subprocess.run(["git", "-C", str(work), "diff", "--cached", "--no-renames", commit],
                         check=True, capture_output=True, env=env).stdout
    index.unlink(missing_ok=True)
    return out.decode("utf-8", "surrogateescape")


def build_corpus(corpus: Path, per_commit: int = 10) -> dict[str, int]:
    """Mirrors, instances.jsonl and one prediction file per agent; returns patch counts.
    ``per_commit`` test files are edited per release: with the releases pip fetches here,
    10 gives over 2,000 patches."""
    log: list[str] = []
    instances: list[dict[str, str]] = []
    preds: dict[str, list[dict[str, str]]] = {}
    for project in PROJECTS:
        built = build_repo(corpus, project, log)
        if built is None or len(built[1]) < 2:
            log.append(f"{project}: fewer than two releases, left out")
            continue
        slug, commits = built
        work = corpus / "work" / project
        items = [("release", p) for p in release_patches(work, slug, commits)]
        items += list(synthetic_patches(work, slug, commits, per_commit))
        for agent, p in items:
            iid = f"{p['id']}-{agent}" if agent != "release" else p["id"]
            instances.append({"instance_id": iid, "repo": slug, "base_commit": p["base"],
                              "test_patch": p["test_patch"]})
            preds.setdefault(agent, []).append({"instance_id": iid, "model_name_or_path":
                                                agent, "model_patch": p["patch"]})
    with open(corpus / "instances.jsonl", "w", encoding="utf-8") as fh:
        for row in instances:
            fh.write(json.dumps(row) + "\n")
    (corpus / "preds").mkdir(exist_ok=True)
    for agent, rows in preds.items():
        with open(corpus / "preds" / f"{agent}.jsonl", "w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(row) + "\n")
    (corpus / "build.log").write_text("\n".join(log) + "\n", encoding="utf-8")
    return {agent: len(rows) for agent, rows in sorted(preds.items())}


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        Path(__file__).resolve().parent / ".corpus" / "batch"
    target.mkdir(parents=True, exist_ok=True)
    print(json.dumps(build_corpus(target), indent=2))
