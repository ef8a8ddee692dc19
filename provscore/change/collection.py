"""pytest's collection rules (which files, classes and functions are tests), from base."""

from __future__ import annotations

import fnmatch
import functools
import posixpath
import re
from collections.abc import Iterable, Sequence
from dataclasses import field

from provscore.records import dataclass


@functools.lru_cache(maxsize=512)
def any_glob(patterns: tuple[str, ...]) -> re.Pattern[str]:
    """One regex that matches what any of ``patterns`` matches (``fnmatchcase``: git paths
    are case-sensitive): classifying every path of a large tree made the glob-by-glob
    calls a noticeable part of a run."""
    return re.compile("|".join(f"(?:{fnmatch.translate(p)})" for p in patterns) or "(?!)")


@functools.lru_cache(maxsize=128)
def _by_dir_and_name(patterns: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """pytest matches a ``python_files`` glob holding a ``/`` against the whole absolute
    path, as ``*/`` + the glob (so ``suite/*_spec.py`` matches ``pkg/suite/a_spec.py``), any
    other against the file name (``_pytest.pathlib.fnmatch_ex``)."""
    return (tuple(p if p.startswith("/") else "*/" + p for p in patterns if "/" in p),
            tuple(p for p in patterns if "/" not in p))


@dataclass(frozen=True, slots=True)
class CollectionConfig:
    """pytest's collection rules, read from base configuration."""

    python_files: tuple[str, ...] = ("test_*.py", "*_test.py")
    python_classes: tuple[str, ...] = ("Test",)
    python_functions: tuple[str, ...] = ("test",)
    testpaths: tuple[str, ...] = ()  # what a bare `pytest` collects (see is_collected)
    norecursedirs: tuple[str, ...] = ("*.egg", ".*", "_darcs", "build", "CVS", "dist",
                                      "node_modules", "venv", "{arch}")
    # unittest/Django discovery patterns, when base shows such a runner (or none at all).
    unittest_files: tuple[str, ...] = ()
    # Whether pytest runs base's tests (it is configured, a channel invokes it, or nothing
    # says which runner does): a plain Test* class is then a test class too.
    pytest_runs: bool = True
    # Settings modules the tests run with (named by base's runner channels): a runner
    # channel, like conftest.py.
    settings_files: tuple[str, ...] = ()
    # Tags the base's channels tell Django's runner to leave out (--exclude-tag).
    excluded_tags: tuple[str, ...] = ()
    # Directories the project's runner script never scans (runtests.py SUBDIRS_TO_SKIP).
    skipped_dirs: tuple[str, ...] = ()
    # Python files base's channels run that are no test modules (a suite builder that
    # setup.py's test command runs, change/suites.py): runner channels.
    run_files: tuple[str, ...] = ()
    # What a mark means on base: `xfail_strict` is the strictness of every xfail mark that
    # does not say `strict=` itself.
    xfail_strict: bool = False
    # Whether pytest collects the doctests of every module it reaches (--doctest-modules,
    # pytest-doctestplus's --doctest-plus or its ini doctest_plus = enabled): the examples
    # in a production module's docstrings are then tests (change/doctests.py).
    doctest_modules: bool = False
    # The warning categories base's filterwarnings / -W make errors (change/warning_filters.py):
    # a filterwarnings mark that ignores one of them lets a failing test pass.
    warning_errors: tuple[str, ...] = ()
    # Where base's tests live: each directory holding a base test file or conftest.py (None:
    # not known). A project configuration file (setup.cfg, pytest.ini, ...) is read by where
    # it lies: one outside all of them (a nested example project's) configures no test.
    # Not compared: what a file's evidence is does not depend on it (evidence/memo.py).
    test_dirs: tuple[str, ...] | None = field(default=None, compare=False)

    def is_collected(self, path: str) -> bool:
        """Whether this file holds tests pytest (with base's configuration) collects.

        ``testpaths`` is not consulted: it narrows what a bare ``pytest`` collects, not
        what is a test (``pytest path/to/test_x.py`` collects a test file anywhere), so a
        test file the patch writes outside it is still a test the patch wrote."""
        if not path.endswith(".py") or path.rsplit("/", 1)[-1] == "conftest.py":
            return False
        if not self.is_test_file(path):
            return False
        skipped = any_glob(self.norecursedirs).match
        return not any(skipped(d) for d in path.split("/")[:-1])

    def runs_by_default(self, path: str) -> bool:
        """Whether a bare ``pytest`` (or the project's runner script) reaches this path: it
        lies under ``testpaths`` and in no directory the runner script skips."""
        if any(path.startswith(d.rstrip("/") + "/") for d in self.skipped_dirs):
            return False
        return not self.testpaths or any(
            fnmatch.fnmatch(path, tp) or path.startswith(tp.rstrip("/") + "/") or path == tp
            for tp in self.testpaths)

    def configures_tests(self, directory: str) -> bool:
        """Whether a project configuration file in ``directory`` (``""``: the repository's
        root) can apply to base's tests. pytest reads the one it finds from the tests it is
        given upward, tox and pip the one where they run: the root, or a directory that
        holds (below it, or in it) tests or a ``testpaths`` entry. True when the test
        locations are not known."""
        if not directory or self.test_dirs is None:
            return True
        return any(d == directory or d.startswith(directory + "/") for d in self.test_dirs) \
            or any(_may_hold(directory, tp) for tp in self.testpaths)

    def is_test_file(self, path: str) -> bool:
        with_dir, by_name = _by_dir_and_name(self.python_files)
        return bool(any_glob(by_name + self.unittest_files).match(path.rsplit("/", 1)[-1])
                    or (with_dir and any_glob(with_dir).match("/" + path)))

    @staticmethod
    def _name_matches(name: str, patterns_: Sequence[str]) -> bool:
        for pat in patterns_:
            if any(ch in pat for ch in "*?["):
                if fnmatch.fnmatch(name, pat):
                    return True
            elif name.startswith(pat):
                return True
        return False

    def is_test_class(self, name: str) -> bool:
        return self._name_matches(name, self.python_classes)

    def is_test_function(self, name: str) -> bool:
        return self._name_matches(name, self.python_functions)


def _may_hold(directory: str, testpath: str) -> bool:
    """Whether ``directory`` is, or is above, a directory the ``testpaths`` entry (a glob)
    can name."""
    parts = [p for p in posixpath.normpath(testpath).strip("/").split("/") if p != "."]
    if "**" in parts:
        return True
    dirs = directory.split("/")
    return len(dirs) <= len(parts) and all(
        fnmatch.fnmatch(d, p) for d, p in zip(dirs, parts[:len(dirs)], strict=True))


def base_test_dirs(paths: Iterable[str], config: CollectionConfig) -> tuple[str, ...]:
    """The directories of base holding a test file or a conftest.py (``""``: the root)."""
    dirs = {path.rpartition("/")[0] for path in paths
            if path.endswith(".py") and (config.is_test_file(path) or
                                         path.rpartition("/")[2] == "conftest.py")}
    return tuple(sorted(dirs))
