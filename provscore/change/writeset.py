"""Stage: the write set — every touched path, classified by what it is for trust.

A path's role decides which rules apply: production code is what the patch is
supposed to change; tests, helpers and fixtures are evidence; runner channels
(conftest.py, pytest/tox/setup.cfg/pyproject sections, noxfile, sitecustomize,
``.pth``, dependency locks, CI workflows) can change what runs; anything under
the oracle dir is the oracle itself.
"""

from __future__ import annotations

import posixpath
from collections.abc import Sequence

from provscore.change.collection import CollectionConfig, any_glob
from provscore.change.diff import ChangeSet, FileChange
from provscore.change.runners import RUNNER_SCRIPTS
from provscore.model import PathRole
from provscore.records import dataclass

TEST_DIRS = frozenset({"tests", "test", "testing", "unittests", "unit_tests", "__tests__"})
FIXTURE_DIRS = frozenset({"fixtures", "goldens", "golden", "snapshots", "__snapshots__",
                          "expected", "testdata", "test_data", "data", "baseline", "baselines",
                          "cassettes", "approved"})
FIXTURE_SUFFIXES = (".snap", ".ambr", ".golden", ".expected", ".approved.txt", ".received.txt")

_DOC_NAMES = ("README", "CHANGELOG", "CHANGES", "LICENSE", "CONTRIBUTING", "NOTES", "TODO")
_DOC_SUFFIXES = (".md", ".rst", ".adoc")
_PLUMBING = frozenset({".gitignore", ".gitkeep", ".gitattributes", "py.typed", ".keep"})

RUNNER_NAMES = frozenset({
    "conftest.py", "pytest.ini", ".pytest.ini", "pytest.toml", ".pytest.toml", "tox.ini",
    "setup.cfg", "noxfile.py",
    "sitecustomize.py", "usercustomize.py", ".coveragerc", "poetry.lock", "uv.lock",
    "Pipfile", "Pipfile.lock", "pdm.lock", "pixi.lock", "conda-lock.yml", "environment.yml",
    ".gitlab-ci.yml", "azure-pipelines.yml", "Jenkinsfile", ".travis.yml",
    "bitbucket-pipelines.yml",
    "pytest_plugins.py", ".pre-commit-config.yaml", "Makefile", "makefile", "GNUmakefile",
    "justfile", "Justfile", "Taskfile.yml", "Taskfile.yaml", "setup.py", "pixi.toml"})
ROOT_ONLY_RUNNER_NAMES = frozenset({"manage.py", "runtests.py"})
# Runner scripts by path (change/runners.py reads how they run the tests); pyproject.toml
# is a runner channel only by its sections.
RUNNER_PATHS = frozenset(RUNNER_SCRIPTS) - {"pyproject.toml"}
RUNNER_GLOBS = ("*requirements*.txt", "requirements/*.txt", "*constraints*.txt", "*.pth",
                "*requirements*.in",
                ".github/workflows/*", ".circleci/*", ".ci/*", ".buildkite/*")
# Oracle inputs by name: wherever they sit in the repo, the patch must not write them.
ORACLE_NAMES = frozenset({"score_contract.toml", "fixtures.lock", "flake_freeze.json",
                          "flake_freeze.jsonl", "flake_ledger.jsonl", "removal_approvals.toml"})
# Files whose runner role depends on which section changed.
SECTIONED = frozenset({"pyproject.toml"})
# Project configuration read by where it lies (pytest from the tests it runs upward, tox,
# nox and pip where they run): a runner channel only where base's tests make it apply.
LOCATED_CONFIG_NAMES = frozenset({
    "setup.py", "setup.cfg", "pyproject.toml", "tox.ini", "pytest.ini", ".pytest.ini",
    "pytest.toml", ".pytest.toml", "noxfile.py"})


@dataclass(frozen=True, slots=True)
class WriteSetEntry:
    path: str
    role: PathRole
    status: str
    runner: bool  # a runner write channel (conftest, pytest config, ...)


@dataclass(frozen=True, slots=True)
class WriteSet:
    entries: tuple[WriteSetEntry, ...]

    def paths(self) -> tuple[str, ...]:
        return tuple(e.path for e in self.entries)


def in_test_dir(path: str) -> bool:
    """A path below a test directory (``tests/``, ``testing/``, ...)."""
    return any(part in TEST_DIRS for part in path.split("/")[:-1])


def is_fixture_path(path: str, fixture_roots: Sequence[str] = ()) -> bool:
    if any(path == r.rstrip("/") or path.startswith(r.rstrip("/") + "/") for r in fixture_roots):
        return True
    if path.endswith(".py"):
        return False
    if path.endswith(FIXTURE_SUFFIXES):
        return True
    parts = path.split("/")[:-1]
    if any(p in FIXTURE_DIRS for p in parts):
        return True
    # Elsewhere in a test dir, data files are fixtures; docs and repo plumbing are not. A
    # document beside the tests (tests/notes.rst) documents them; one in a directory below
    # (tests/roots/test-ifconfig/index.rst, a source tree the tests build) is their data.
    base = posixpath.basename(path)
    doc = base.endswith(_DOC_SUFFIXES) and (not parts or parts[-1] in TEST_DIRS)
    return in_test_dir(path) and not (base.upper().startswith(_DOC_NAMES) or doc or
                                       base in _PLUMBING)


def is_test_settings(path: str) -> bool:
    """A settings module for the tests by its name (``tests/settings.py``,
    ``test_settings.py``, ``settings_test.py``): what every test runs under."""
    base = posixpath.basename(path)
    return path.endswith(".py") and "settings" in base and (
        "test" in base.replace("settings", "") or in_test_dir(path))


def is_runner_path(path: str) -> bool:
    base = posixpath.basename(path)
    if path in RUNNER_PATHS:
        return True
    if base in ROOT_ONLY_RUNNER_NAMES:
        return path == base  # Django's manage.py runs the tests only at the repo root
    if base in RUNNER_NAMES:
        return True
    runner_glob = any_glob(RUNNER_GLOBS).match
    return bool(runner_glob(path) or runner_glob(base))


def nested_project_config(path: str, config: CollectionConfig) -> bool:
    """A project configuration file (setup.py, setup.cfg, pyproject.toml, tox.ini, ...) of
    a nested project (``examples/app/setup.py``): it lies where no test of base is, at or
    below it, so no run of base's tests reads it."""
    directory, _, name = path.rpartition("/")
    return name in LOCATED_CONFIG_NAMES and not config.configures_tests(directory)


def classify_path(path: str, config: CollectionConfig, *, oracle_prefixes: Sequence[str] = (),
                  fixture_roots: Sequence[str] = ()) -> PathRole:
    """The trust role of one path."""
    for prefix in oracle_prefixes:
        p = prefix.rstrip("/")
        if p and (path == p or path.startswith(p + "/")):
            return PathRole.ORACLE
    base = posixpath.basename(path)
    if base in ORACLE_NAMES:
        return PathRole.ORACLE
    if base == "conftest.py":
        return PathRole.CONFTEST
    if (is_runner_path(path) and not nested_project_config(path, config)) or \
            path in config.settings_files or path in config.run_files:
        return PathRole.RUNNER
    if path.endswith(".py"):
        if config.is_test_file(path):
            return PathRole.TEST
        if is_test_settings(path):
            return PathRole.RUNNER
        # Test utilities live in test dirs, or say so in their name (myapp/testing.py).
        if in_test_dir(path) or "test" in posixpath.basename(path):
            return PathRole.HELPER
        return PathRole.PRODUCTION
    if is_fixture_path(path, fixture_roots):
        return PathRole.FIXTURE
    if path.endswith((".pyi", ".pyx", ".pxd", ".c", ".h", ".cpp", ".rs", ".so")):
        return PathRole.PRODUCTION
    return PathRole.OTHER


def build_write_set(changes: ChangeSet, config: CollectionConfig, *,
                    oracle_prefixes: Sequence[str] = (), fixture_roots: Sequence[str] = (),
                    runner_sections_changed: frozenset[str] = frozenset()) -> WriteSet:
    """Classify every path the patch touches (both names of a rename)."""
    entries: list[WriteSetEntry] = []
    for change in changes.files:
        for path in change.paths:
            role = classify_path(path, config, oracle_prefixes=oracle_prefixes,
                                 fixture_roots=fixture_roots)
            runner = role in (PathRole.RUNNER, PathRole.CONFTEST) or \
                (posixpath.basename(path) in SECTIONED and path in runner_sections_changed
                 and not nested_project_config(path, config))
            if runner and role is PathRole.OTHER:
                role = PathRole.RUNNER
            entries.append(WriteSetEntry(path, role, _status(change, path), runner))
    return WriteSet(tuple(entries))


def _status(change: FileChange, path: str) -> str:
    if change.status.value == "renamed":
        return "renamed-from" if path == change.old_path else "renamed-to"
    return change.status.value
