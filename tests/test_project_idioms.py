"""Suppressions through a project's own helpers and options (issue 15), with look-alikes.

Each case is a real repository: a project testing package (sympy's ``skip``/``XFAIL``
style), a test-support helper that skips inside (pytest's ``symlink_or_skip`` style), and
runner options of each effect class.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import pytest
from tests_support import GitRepo

from provscore.model import Action

TESTING = textwrap.dedent('''
    import sys

    try:
        import pytest
        USE_PYTEST = True
    except ImportError:
        USE_PYTEST = False

    if USE_PYTEST:
        skip = pytest.skip
        XFAIL = pytest.mark.xfail
        SKIP = pytest.mark.skip
    else:
        def skip(msg):
            raise RuntimeError(msg)


    def requires_windows():
        if sys.platform != "win32":
            skip("windows only")


    def timed(func):
        import functools
        import time

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            start = time.time()
            result = func(*args, **kwargs)
            print(time.time() - start)
            return result
        return wrapper


    def labelled(label):
        def deco(func):
            func.label = label
            return func
        return deco


    def log_and_return(value):
        print(value)
        return value


    def swallowing(func):
        def wrapper(*args, **kwargs):
            try:
                func(*args, **kwargs)
            except Exception:
                pass
        return wrapper
    ''')
SUPPORT = textwrap.dedent('''
    import os
    import pytest


    def symlink_or_skip(src, dst):
        try:
            os.symlink(src, dst)
        except OSError as exc:
            pytest.skip(f"symlinks not supported: {exc}")
    ''')
T = "app/tests/test_core.py"
TEST = textwrap.dedent('''
    from app.testing.pytest import (XFAIL, SKIP, skip, requires_windows, timed, labelled,
                                    log_and_return, swallowing)
    from app.tests.support import symlink_or_skip


    def test_core(tmp_path):
        assert core(1) == 2
    ''')
BASE = {"app/__init__.py": "", "app/testing/__init__.py": "", "app/testing/pytest.py": TESTING,
        "app/tests/__init__.py": "", "app/tests/support.py": SUPPORT, T: TEST}


def rejecting(repo: GitRepo, after: Mapping[str, str], base: Mapping[str, str] = BASE
              ) -> list[str]:
    repo.commit({"README.md": "x\n", **base})
    report = repo.score(repo.diff(dict(after)))
    return sorted(f.code for f in report.findings
                  if f.action is Action.REJECT and f.code != "PS502")


def _body(line: str) -> str:
    return TEST.replace("def test_core(tmp_path):\n", f"def test_core(tmp_path):\n    {line}\n")


def _decorated(decorator: str) -> str:
    return TEST.replace("def test_core(tmp_path):\n", f"@{decorator}\ndef test_core(tmp_path):\n")


@pytest.mark.parametrize(("after", "code"), [
    (_body('skip("later")'), "PS203"),  # the package's alias of pytest.skip
    (_body("requires_windows()"), "PS203"),  # a helper that skips inside
    (_body('symlink_or_skip(tmp_path / "a", tmp_path / "b")'), "PS203"),  # test support
    (_decorated("XFAIL"), "PS202"),
    (_decorated('SKIP(reason="slow")'), "PS201"),
], ids=["skip-alias-called", "skipping-helper-called", "support-helper-skips-inside",
        "xfail-alias-applied", "skip-alias-applied"])
def test_a_projects_own_skip_helpers_are_suppressions(repo: GitRepo, after: str,
                                                      code: str) -> None:
    assert rejecting(repo, {T: after}) == [code]


@pytest.mark.parametrize("after", [
    _body("log_and_return(1)"),
    _decorated("timed"),
    _decorated('labelled("fast")'),
], ids=["helper-that-logs-and-returns", "decorator-that-times", "factory-that-labels"])
def test_helpers_that_do_not_skip_are_not_suppressions(repo: GitRepo, after: str) -> None:
    assert rejecting(repo, {T: after}) == []


def test_a_decorator_that_may_not_call_the_test_still_neutralises_it(repo: GitRepo) -> None:
    assert rejecting(repo, {T: _decorated("swallowing")}) == ["PS206"]


def test_a_local_skip_helper_called_by_an_existing_test(repo: GitRepo) -> None:
    base = {"tests/test_b.py": textwrap.dedent('''
        import sys
        import pytest


        def skip_on_ci():
            if "CI" in sys.argv:
                pytest.skip("ci")


        def test_b():
            assert g() == 1
        ''')}
    after = base["tests/test_b.py"].replace("def test_b():\n", "def test_b():\n    skip_on_ci()\n")
    assert rejecting(repo, {"tests/test_b.py": after}, base) == ["PS203"]


# ------------------------------------------------------------ options by effect

INI = "[pytest]\naddopts = -ra --doctest-modules --strict-markers\ntestpaths = tests src\n"
OPTIONS_BASE = {"pytest.ini": INI, "tests/test_a.py": "def test_a():\n    assert f() == 1\n"}


def _ps205(repo: GitRepo, ini: str) -> list[str]:
    repo.commit({"README.md": "x\n", **OPTIONS_BASE})
    report = repo.score(repo.diff({"pytest.ini": ini}))
    return [f.message.split(": ", 1)[1] for f in report.findings if f.code == "PS205"]


@pytest.mark.parametrize(("old", "new", "why"), [
    (" --doctest-modules", "", "removes --doctest-modules: collects fewer tests"),
    (" --strict-markers", "", "removes --strict-markers: counts fewer failures"),
    ("tests src", "tests", "testpaths: removes src (collects fewer tests)"),
    ("-ra", "-ra -k 'not slow'", "adds -k not slow: runs fewer tests"),
    ("-ra", "-ra -p no:randomly", "adds -p no:randomly: counts fewer failures"),
    ("-ra", "-ra --frobnicate", "adds --frobnicate (unknown effect)"),
], ids=["doctest-modules-dropped", "strict-markers-dropped", "testpaths-entry-dropped",
        "k-added", "plugin-disabled", "unknown-option"])
def test_options_that_collect_or_fail_less_are_ps205(repo: GitRepo, old: str, new: str,
                                                     why: str) -> None:
    assert _ps205(repo, INI.replace(old, new)) == [why]


@pytest.mark.parametrize(("old", "new"), [
    ("-ra", "-rfEX"), ("-ra", "-ra -q"), ("-ra", "-ra -vv"), ("-ra", "-ra --tb=short"),
    ("-ra", "-ra --color=yes --durations 10"), ("-ra", "-ra -p no:cacheprovider"),
    ("-ra", "-ra -W error"), ("tests src", "tests src docs"),
    ("testpaths", "markers =\n    slow: slow tests\ntestpaths"),
], ids=["report-chars", "quiet", "verbose", "traceback-style", "color-durations",
        "no-cacheprovider", "warnings-as-errors", "testpaths-entry-added", "marker-registered"])
def test_options_that_only_report_or_collect_more_are_no_loosening(repo: GitRepo, old: str,
                                                                   new: str) -> None:
    assert old in INI
    assert _ps205(repo, INI.replace(old, new)) == []


# ------------------------------------------------------------ over-flagging in new tests

NEW_CLASS = textwrap.dedent('''
    import unittest
    from unittest.mock import MagicMock


    class TestClient(unittest.TestCase):
        def setUp(self):
            self.session = MagicMock()
            self.session.assert_called_once = MagicMock()

        def test_retry(self):
            self.assertEqual(fetch(self.session), 1)
    ''')


def test_a_mock_attribute_in_a_new_test_class_is_no_neutralisation(repo: GitRepo) -> None:
    assert rejecting(repo, {"tests/test_new.py": NEW_CLASS},
                     {"tests/test_a.py": "def test_a():\n    assert f() == 1\n"}) == []


def test_the_same_in_an_existing_class_and_shared_state_still_reject(
        repo: GitRepo, tmp_path_factory: pytest.TempPathFactory) -> None:
    base = {"tests/test_new.py": NEW_CLASS.replace(
        "        self.session.assert_called_once = MagicMock()\n", "")}
    assert rejecting(repo, {"tests/test_new.py": NEW_CLASS}, base) == ["PS206"]
    other = GitRepo(tmp_path_factory.mktemp("shared") / "repo")
    shared = NEW_CLASS.replace("self.session.assert_called_once = MagicMock()",
                               "client.check_status = MagicMock()").replace(
        "import unittest\n", "import unittest\nimport app.client as client\n")
    assert rejecting(other, {"tests/test_new.py": shared},
                     {"tests/test_a.py": "def test_a():\n    assert f() == 1\n"}) == ["PS206"]
