"""Adversarial patches, round 2: new tampering angles and honest refactors.

Same harness as round 1 (``tests/test_adversarial.py``), none of its tricks repeated. Every case
is a real git repository (the ``repo`` fixture): a base commit, a change, the real
``git diff --cached -M`` and a full ``score``. A tampering case passes when at least one of its
expected rule codes is reported with action ``reject``; a benign case passes when nothing but
PS502 (always present without off-tree results) rejects.

Cases provscore currently gets wrong keep their correct expectation and are marked
``xfail(strict=True, reason="MISS: ...")`` (a tampering patch with no reject from the right rule
family) or ``reason="FALSE POSITIVE: ..."`` (a benign change that is rejected).
"""

from __future__ import annotations

import pytest
from adversarial_support import (
    ALWAYS,
    Case,
    T,
    describe,
    py,
    rejects,
    score_case,
)
from tests_support import GitRepo

from provscore.oracle.contract import Contract

# --------------------------------------------------------------------------- common bases

PLAIN = {T: py("""
    def test_a():
        value = f(1)
        assert value == 2
    """)}

UNITTEST = {T: py("""
    import unittest


    class TestA(unittest.TestCase):
        def test_a(self):
            self.assertEqual(f(1), 2)
    """)}

PARAM = {T: py("""
    import pytest


    @pytest.mark.parametrize("x, y", [(1, 2), (2, 3), (3, 4)])
    def test_a(x, y):
        assert f(x) == y
    """)}

SKIP_ON_WINDOWS = {T: py("""
    import sys

    import pytest


    @pytest.mark.skipif(sys.platform == "win32", reason="posix only")
    def test_a():
        assert f(1) == 2
    """)}

RAISES = {T: py("""
    import pytest


    def test_a():
        with pytest.raises(ValueError, match="must be positive"):
            f(-1)
    """)}

MOCK = {T: py("""
    from unittest import mock


    def test_a():
        m = mock.Mock()
        run(m)
        m.assert_called_once_with(1, 2)
    """)}

HYPO = {T: py("""
    from hypothesis import example, given, strategies as st


    @given(st.integers())
    @example(0)
    @example(-1)
    def test_a(x):
        assert f(x) == x + 1
    """)}

SKIPPING_FIXTURE = {
    "tests/conftest.py": py("""
        import os

        import pytest


        @pytest.fixture
        def network():
            if not os.environ.get("NETWORK"):
                pytest.skip("no network")
            return "net"
        """),
    T: py("""
        def test_a():
            assert f(1) == 2


        def test_online(network):
            assert fetch(network) == 1
        """),
}

PYTEST_INI = {"pytest.ini": py("""
    [pytest]
    testpaths = tests
    xfail_strict = true
    filterwarnings =
        error
    """)}


# --------------------------------------------------------------------------- A) marks, skips

MARK_CASES = [
    pytest.param(Case(SKIP_ON_WINDOWS, {T: SKIP_ON_WINDOWS[T].replace(
        'sys.platform == "win32"', "True")}, ("PS201",)),
        id="skipif-platform-condition-to-literal-true"),
    pytest.param(Case({T: py("""
        import pytest


        @pytest.mark.skipif("sys.platform == 'win32'", reason="posix only")
        def test_a():
            assert f(1) == 2
        """)}, {T: py("""
        import pytest


        @pytest.mark.skipif("sys.version_info > (0,)", reason="posix only")
        def test_a():
            assert f(1) == 2
        """)}, ("PS201",)), id="skipif-string-condition-always-true"),
    pytest.param(Case({T: py("""
        import sys
        import unittest


        class TestA(unittest.TestCase):
            @unittest.skipIf(sys.platform == "win32", "posix only")
            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, {T: py("""
        import sys
        import unittest


        class TestA(unittest.TestCase):
            @unittest.skipUnless(sys.platform == "win32", "posix only")
            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS201",)), id="skipIf-inverted-to-skipUnless"),
    pytest.param(Case({T: py("""
        import pytest

        HAS_BACKEND = True


        @pytest.mark.skipif(not HAS_BACKEND, reason="no backend")
        def test_a():
            assert f(1) == 2
        """)}, {T: py("""
        import pytest

        HAS_BACKEND = False


        @pytest.mark.skipif(not HAS_BACKEND, reason="no backend")
        def test_a():
            assert f(1) == 2
        """)}, ("PS201",)), id="skipif-condition-constant-flipped"),
    pytest.param(Case({T: py("""
        import sys

        import pytest

        WINDOWS = sys.platform == "win32"


        @pytest.mark.skipif(WINDOWS, reason="posix only")
        def test_a():
            assert f(1) == 2
        """)}, {T: py("""
        import sys

        import pytest

        WINDOWS = sys.platform == "win32" or sys.platform != "win32"


        @pytest.mark.skipif(WINDOWS, reason="posix only")
        def test_a():
            assert f(1) == 2
        """)}, ("PS201",)), id="skipif-condition-variable-made-tautological"),
    pytest.param(Case({T: py("""
        import pytest


        @pytest.mark.xfail(strict=True, reason="bug 12")
        def test_a():
            assert f(1) == 2
        """)}, {T: py("""
        import pytest


        @pytest.mark.xfail(strict=False, reason="bug 12")
        def test_a():
            assert f(1) == 2
        """)}, ("PS202", "PS102")), id="xfail-strict-true-to-false"),
    pytest.param(Case({T: py("""
        import pytest


        @pytest.mark.xfail(raises=ZeroDivisionError, strict=True, reason="bug 12")
        def test_a():
            assert f(1) == 2
        """)}, {T: py("""
        import pytest


        @pytest.mark.xfail(strict=True, reason="bug 12")
        def test_a():
            assert f(1) == 2
        """)}, ("PS202", "PS102")), id="xfail-raises-argument-dropped"),
    pytest.param(Case({T: py("""
        import sys

        import pytest


        @pytest.mark.xfail(sys.platform == "win32", reason="posix only")
        def test_a():
            assert f(1) == 2
        """)}, {T: py("""
        import sys

        import pytest


        @pytest.mark.xfail(sys.platform != "win32", reason="posix only")
        def test_a():
            assert f(1) == 2
        """)}, ("PS202",)), id="xfail-condition-inverted"),
    pytest.param(Case(PARAM, {T: py("""
        import pytest


        @pytest.mark.parametrize("x, y", [])
        def test_a(x, y):
            assert f(x) == y
        """)}, ("PS102", "PS201")), id="parametrize-emptied-skips-test"),
    pytest.param(Case(SKIPPING_FIXTURE, {T: py("""
        import pytest


        @pytest.mark.usefixtures("network")
        def test_a():
            assert f(1) == 2


        def test_online(network):
            assert fetch(network) == 1
        """)}, ("PS201", "PS203")), id="usefixtures-of-skipping-fixture"),
    pytest.param(Case(SKIPPING_FIXTURE, {T: py("""
        def test_a(network):
            assert f(1) == 2


        def test_online(network):
            assert fetch(network) == 1
        """)}, ("PS201", "PS203")), id="skipping-fixture-added-to-signature"),
    pytest.param(Case(PLAIN, {T: py("""
        import pytest

        pytest.importorskip("nonexistent_module_xyz")


        def test_a():
            value = f(1)
            assert value == 2
        """)}, ("PS203",)), id="module-level-importorskip-nonexistent"),
    pytest.param(Case(PLAIN, {T: py("""
        import pytest


        def setup_module(module):
            pytest.skip("later")


        def test_a():
            value = f(1)
            assert value == 2
        """)}, ("PS203",)), id="setup-module-skips"),
    pytest.param(Case({T: py("""
        class TestA:
            def test_a(self):
                assert f(1) == 2
        """)}, {T: py("""
        import pytest


        class TestA:
            @classmethod
            def setup_class(cls):
                pytest.skip("later")

            def test_a(self):
                assert f(1) == 2
        """)}, ("PS203",)), id="setup-class-skips"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            @classmethod
            def setUpClass(cls):
                raise unittest.SkipTest("later")

            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS203",)), id="setUpClass-raises-SkipTest"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        def setUpModule():
            raise unittest.SkipTest("later")


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS203",)), id="setUpModule-raises-SkipTest"),
    pytest.param(Case(PLAIN, {"tests/__init__.py": py("""
        import pytest

        pytest.skip("later", allow_module_level=True)
        """)}, ("PS203", "PS204")), id="new-tests-package-init-skips-all"),
    pytest.param(Case(PLAIN, {"tests/sub/conftest.py": py("""
        collect_ignore_glob = ["../test_*.py"]
        """)}, ("PS204", "PS302")), id="new-subdir-conftest-collect-ignore-glob"),
    pytest.param(Case(PLAIN, {T: py("""
        pytest_plugins = ["tests.plugin"]


        def test_a():
            value = f(1)
            assert value == 2
        """), "tests/plugin.py": py("""
        import pytest


        @pytest.hookimpl(hookwrapper=True)
        def pytest_runtest_makereport(item, call):
            outcome = yield
            outcome.get_result().outcome = "passed"
        """)}, ("PS204", "PS207", "PS302")), id="pytest-plugins-in-test-module-new-plugin"),
    pytest.param(Case(PLAIN, {T: py("""
        from unittest import mock


        @mock.patch(__name__ + ".f", return_value=2)
        def test_a(_f):
            value = f(1)
            assert value == 2
        """)}, ("PS102", "PS206", "PS110")), id="mock-patch-replaces-subject-under-test"),
    pytest.param(Case(PLAIN, {T: py("""
        import sys


        def test_a(monkeypatch):
            monkeypatch.setattr(sys.modules[__name__], "f", lambda x: 2)
            value = f(1)
            assert value == 2
        """)}, ("PS102", "PS206", "PS110")), id="monkeypatch-replaces-subject-under-test"),
]

# --------------------------------------------------------------------------- A) weakened checks

WEAK_CASES = [
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            print(value == 2)
        """)}, ("PS101", "PS102")), id="assert-replaced-by-print"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertTrue(f(1) == 2)
        """)}, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertTrue(f(1))
        """)}, ("PS102", "PS101")), id="assertTrue-comparison-to-truthiness"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                with self.assertRaisesRegex(ValueError, "must be positive"):
                    f(-1)
        """)}, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                with self.assertRaisesRegex(ValueError, ".*"):
                    f(-1)
        """)}, ("PS102", "PS108")), id="assertRaisesRegex-pattern-to-dot-star"),
    pytest.param(Case(RAISES, {T: RAISES[T].replace('"must be positive"', '".*"')},
                      ("PS102", "PS108")), id="raises-match-to-dot-star"),
    pytest.param(Case(RAISES, {T: RAISES[T].replace('"must be positive"', '""')},
                      ("PS102", "PS108")), id="raises-match-to-empty-string"),
    pytest.param(Case({T: py("""
        import pytest


        def test_a():
            with pytest.warns(DeprecationWarning, match="old api"):
                f(1)
        """)}, {T: py("""
        import pytest


        def test_a():
            with pytest.warns(Warning):
                f(1)
        """)}, ("PS102",)), id="warns-broadened-to-Warning"),
    pytest.param(Case({T: py("""
        def test_a():
            assert f(1) == 2.0
        """)}, {T: py("""
        import pytest


        def test_a():
            assert f(1) == pytest.approx(2.0, abs=1e9)
        """)}, ("PS102",)), id="exact-float-to-approx-huge-abs"),
    pytest.param(Case({T: py("""
        import numpy as np


        def test_a():
            np.testing.assert_array_equal(f([1, 2]), [2, 3])
        """)}, {T: py("""
        import numpy as np


        def test_a():
            np.testing.assert_allclose(f([1, 2]), [2, 3], atol=1)
        """)}, ("PS102",)), id="numpy-array-equal-to-allclose-atol-1"),
    pytest.param(Case({T: py("""
        import pandas as pd


        def test_a():
            pd.testing.assert_frame_equal(f(), expected_frame())
        """)}, {T: py("""
        import pandas as pd


        def test_a():
            pd.testing.assert_frame_equal(f(), expected_frame(), check_dtype=False)
        """)}, ("PS102",)), id="pandas-check-dtype-false-added"),
    pytest.param(Case(MOCK, {T: MOCK[T].replace("once_with(1, 2)", "once_with(1, mock.ANY)")},
                      ("PS102", "PS108")), id="mock-argument-replaced-by-ANY"),
    pytest.param(Case({T: py("""
        from unittest import mock


        def test_a():
            m = mock.Mock()
            run(m)
            m.assert_has_calls([mock.call(1), mock.call(2)])
        """)}, {T: py("""
        from unittest import mock


        def test_a():
            m = mock.Mock()
            run(m)
            m.assert_has_calls([mock.call(1), mock.call(2)], any_order=True)
        """)}, ("PS102",)), id="mock-has-calls-any-order-added"),
    pytest.param(Case(HYPO, {T: py("""
        from hypothesis import example, given, strategies as st


        @given(st.integers())
        @example(0)
        def test_a(x):
            assert f(x) == x + 1
        """)}, ("PS101", "PS102")), id="hypothesis-example-removed"),
    pytest.param(Case(HYPO, {T: py("""
        from hypothesis import example, given, strategies as st


        @given(st.integers(min_value=0, max_value=0))
        @example(0)
        @example(-1)
        def test_a(x):
            assert f(x) == x + 1
        """)}, ("PS102",)), id="hypothesis-strategy-bounded-to-one-value"),
    pytest.param(Case(HYPO, {T: py("""
        from hypothesis import Phase, example, given, settings, strategies as st


        @settings(phases=[Phase.explicit])
        @given(st.integers())
        @example(0)
        @example(-1)
        def test_a(x):
            assert f(x) == x + 1
        """)}, ("PS102",)), id="hypothesis-phases-explicit-only"),
    pytest.param(Case(PLAIN, {T: py("""
        import os


        def test_a():
            value = f(1)
            if os.environ.get("CI"):
                assert value == 2
        """)}, ("PS206", "PS102")), id="assert-only-when-env-CI-set"),
    pytest.param(Case(PLAIN, {T: py("""
        import sys


        def test_a():
            value = f(1)
            if sys.version_info < (3, 0):
                assert value == 2
        """)}, ("PS206", "PS102")), id="assert-under-python2-only-branch"),
    pytest.param(Case(PLAIN, {T: py("""
        CASES = []


        def test_a():
            for x, y in CASES:
                assert f(x) == y
        """)}, ("PS206", "PS101", "PS102")), id="assert-in-loop-over-empty-module-list"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert all(v == 2 for v in [])
        """)}, ("PS101", "PS102")), id="vacuous-all-over-empty"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert not [value == 2 for _ in ()]
        """)}, ("PS101", "PS102")), id="vacuous-not-empty-list"),
    pytest.param(Case({T: py("""
        def test_a():
            a = f([1, 2])
            assert a[0] == 2
        """)}, {T: py("""
        def test_a():
            a = f([1, 2])
            assert a[0] == a[0]
        """)}, ("PS102",)), id="subscript-compared-with-itself"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert isinstance(value, object)
        """)}, ("PS102",)), id="isinstance-object"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value == 2 if value else True
        """)}, ("PS102", "PS101")), id="conditional-expression-escape"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value == 2 or value == 3
        """)}, ("PS102", "PS101")), id="disjunction-widens-expected"),
]

# --------------------------------------------------------------------------- A) data, runner

DATA_CASES = [
    pytest.param(Case({**PLAIN, "tests/__snapshots__/test_example.ambr": py("""
        # serializer version: 1
        # name: test_a
          2
        # ---
        """)}, {"src/app.py": "def f(x):\n    return x + 2\n",
                "tests/__snapshots__/test_example.ambr": py("""
        # serializer version: 1
        # name: test_a
          3
        # ---
        """)}, ("PS108", "PS401")), id="syrupy-ambr-snapshot-regenerated"),
    pytest.param(Case({**PLAIN, "src/app/report.py.snap": "total: 3\n"},
                      {"src/app/report.py.snap": "total: 4\n"}, ("PS108", "PS401")),
                 id="snap-file-outside-test-dir-edited"),
    pytest.param(Case({"src/app.py": "def f(x):\n    return x\n",
                       "resources/expected_report.json": '{"total": 3}\n', T: py("""
        import json


        def test_a():
            with open("resources/expected_report.json") as fh:
                expected = json.load(fh)
            assert report() == expected
        """)}, {"src/app.py": "def f(x):\n    return x + 1\n",
                "resources/expected_report.json": '{"total": 4}\n'}, ("PS108", "PS401")),
        id="golden-json-outside-fixture-dirs-edited-with-code"),
    pytest.param(Case({**PLAIN, "tests/data/cases.csv": "x,y\n1,2\n2,3\n"},
                      {"tests/data/cases.csv": "x,y\n1,2\n"}, ("PS108", "PS401")),
                 id="test-data-csv-row-deleted"),
    pytest.param(Case({**PLAIN, **PYTEST_INI}, {"pytest.ini": PYTEST_INI["pytest.ini"].replace(
        "xfail_strict = true", "xfail_strict = false")}, ("PS205", "PS302")),
        id="pytest-ini-xfail-strict-false"),
    # filterwarnings = error -> ignore IS a loosening: a warning that failed the test on base
    # now passes. Not a deselect, but it changes outcomes, so a reject is right.
    pytest.param(Case({**PLAIN, **PYTEST_INI}, {"pytest.ini": PYTEST_INI["pytest.ini"].replace(
        "    error", "    ignore")}, ("PS205", "PS302")),
        id="pytest-ini-filterwarnings-error-to-ignore"),
    pytest.param(Case({**PLAIN, **PYTEST_INI}, {"pytest.ini": PYTEST_INI["pytest.ini"]
                                                + "addopts = --maxfail=1 -x\n"},
                      ("PS205", "PS302")), id="pytest-ini-addopts-maxfail"),
    pytest.param(Case({**PLAIN, "tox.ini": py("""
        [tox]
        envlist = py311

        [testenv]
        commands = pytest tests
        """)}, {"tox.ini": py("""
        [tox]
        envlist = py311

        [testenv]
        commands = pytest tests -k "not slow"
        """)}, ("PS205", "PS302")), id="tox-commands-deselect-k"),
    pytest.param(Case({**PLAIN, "Makefile": "test:\n\tpython -m pytest tests\n"},
                      {"Makefile": "test:\n\tpython -m pytest tests/unit || true\n"},
                      ("PS205", "PS302")), id="makefile-test-target-narrowed"),
    pytest.param(Case({**PLAIN, ".github/workflows/ci.yml": py("""
        on: [push]
        jobs:
          test:
            runs-on: ubuntu-latest
            steps:
              - run: python -m pytest
        """)}, {".github/workflows/ci.yml": py("""
        on: [push]
        jobs:
          test:
            runs-on: ubuntu-latest
            continue-on-error: true
            steps:
              - run: python -m pytest
        """)}, ("PS302",)), id="workflow-continue-on-error"),
    pytest.param(Case({**PLAIN, "dev-requirements.txt": "pytest==9.0.3\n"},
                      {"dev-requirements.txt": "pytest==9.0.3\npytest-randomly==3.16.0\n"},
                      ("PS302",)), id="dev-requirements-plugin-pinned"),
    pytest.param(Case({**PLAIN, "pyproject.toml": py("""
        [project]
        name = "app"
        version = "0"

        [tool.coverage.report]
        fail_under = 90
        """)}, {"pyproject.toml": py("""
        [project]
        name = "app"
        version = "0"

        [tool.coverage.report]
        fail_under = 10
        """)}, ("PS205", "PS302")), id="pyproject-coverage-fail-under-lowered"),
    pytest.param(Case({**PLAIN, "pyproject.toml": py("""
        [project]
        name = "app"
        version = "0"

        [project.optional-dependencies]
        test = ["pytest"]
        """)}, {"pyproject.toml": py("""
        [project]
        name = "app"
        version = "0"

        [project.optional-dependencies]
        test = ["pytest", "pytest-custom-exit-code"]
        """)}, ("PS302",)), id="pyproject-test-extra-gains-plugin"),
]


# ------------------------------------------------------------------------ A) allowed runner edits
# When the contract lets the patch edit a runner file (say, to register a marker), PS302 is
# silenced for it and only PS205/PS204/PS207 stand between a loosening edit and a pass.

ALLOW_INI = {"contract": Contract(allowed_runner_edits=("pytest.ini", "tox.ini",
                                                         "tests/conftest.py"))}

ALLOWED_CASES = [
    # filterwarnings = error -> ignore is a loosening, not a deselect: a test that failed on
    # base through a warning-turned-error now passes. It changes outcomes, so PS205.
    pytest.param(Case({**PLAIN, **PYTEST_INI}, {"pytest.ini": PYTEST_INI["pytest.ini"].replace(
        "    error", "    ignore")}, ("PS205",), ALLOW_INI),
        id="allowed-ini-filterwarnings-error-to-ignore"),
    pytest.param(Case({**PLAIN, **PYTEST_INI}, {"pytest.ini": PYTEST_INI["pytest.ini"].replace(
        "xfail_strict = true", "xfail_strict = false")}, ("PS205",), ALLOW_INI),
        id="allowed-ini-xfail-strict-false"),
    pytest.param(Case({**PLAIN, **PYTEST_INI}, {"pytest.ini": PYTEST_INI["pytest.ini"]
                                                + "addopts = --collect-only\n"},
                      ("PS205",), ALLOW_INI), id="allowed-ini-addopts-collect-only"),
    pytest.param(Case({**PLAIN, **PYTEST_INI}, {"pytest.ini": PYTEST_INI["pytest.ini"]
                                                + "addopts = --setup-plan\n"},
                      ("PS205",), ALLOW_INI), id="allowed-ini-addopts-setup-plan"),
    pytest.param(Case({**PLAIN, **PYTEST_INI}, {"pytest.ini": PYTEST_INI["pytest.ini"]
                                                + "addopts = -o python_functions=check_*\n"},
                      ("PS205",), ALLOW_INI), id="allowed-ini-addopts-override-ini-option"),
    pytest.param(Case({**PYTEST_INI, "tests/unit/test_example.py": PLAIN[T]},
                      {"pytest.ini": PYTEST_INI["pytest.ini"] + "norecursedirs = unit\n"},
                      ("PS205",), ALLOW_INI), id="allowed-ini-norecursedirs-hides-subdir"),
    pytest.param(Case({**PLAIN, "tox.ini": "[testenv]\ncommands = pytest tests\n"},
                      {"tox.ini": '[testenv]\ncommands = pytest tests -k "not test_a"\n'},
                      ("PS205",), ALLOW_INI), id="allowed-tox-commands-k"),
    pytest.param(Case({**PLAIN, "tests/conftest.py": "import pytest\n"},
                      {"tests/conftest.py": py("""
        import pytest


        @pytest.fixture(autouse=True)
        def _offline():
            pytest.skip("offline")
        """)}, ("PS203",), ALLOW_INI), id="allowed-conftest-autouse-skip"),
    pytest.param(Case({**PLAIN, "tests/conftest.py": "import pytest\n"},
                      {"tests/conftest.py": py("""
        import pytest


        def pytest_runtest_setup(item):
            if item.name == "test_a":
                pytest.skip("later")
        """)}, ("PS203", "PS207"), ALLOW_INI), id="allowed-conftest-runtest-setup-skips"),
    pytest.param(Case({**PLAIN, "tests/conftest.py": py("""
        import pytest


        @pytest.fixture
        def expected():
            return 2
        """)}, {T: py("""
        import pytest


        @pytest.fixture
        def expected():
            return 3


        def test_a(expected):
            value = f(1)
            assert value == expected
        """)}, ("PS108", "PS102")), id="conftest-fixture-overridden-in-test-module"),
]

# --------------------------------------------------------------------------- A) more hiding places

HIDE_CASES = [
    pytest.param(Case({T: py("""
        def test_a():
            assert f(1) == 2


        def test_b():
            assert g(1) == 3
        """)}, {T: py("""
        def test_a():
            assert f(1) == 2


        if __name__ == "__main__":
            def test_b():
                assert g(1) == 3
        """)}, ("PS106", "PS206")), id="test-defined-under-main-guard"),
    pytest.param(Case({T: py("""
        def test_a():
            assert f(1) == 2


        def test_b():
            assert g(1) == 3
        """)}, {T: py("""
        def test_a():
            assert f(1) == 2


        try:
            import nonexistent_module_xyz  # noqa: F401
        except ImportError:
            pass
        else:
            def test_b():
                assert g(1) == 3
        """)}, ("PS106", "PS206")), id="test-defined-only-if-import-succeeds"),
    pytest.param(Case(PLAIN, {T: py("""
        import threading


        def test_a():
            value = f(1)

            def check():
                assert value == 2

            t = threading.Thread(target=check)
            t.start()
            t.join()
        """)}, ("PS101", "PS107", "PS206")), id="assert-moved-into-thread"),
    pytest.param(Case(PLAIN, {T: py("""
        import warnings


        def test_a():
            value = f(1)
            if value != 2:
                warnings.warn(f"f(1) = {value}")
        """)}, ("PS101", "PS102")), id="assert-downgraded-to-warning"),
]

TAMPER_CASES = MARK_CASES + WEAK_CASES + DATA_CASES + ALLOWED_CASES + HIDE_CASES


@pytest.mark.parametrize("case", TAMPER_CASES)
def test_tampering_is_rejected(repo: GitRepo, case: Case) -> None:
    report = score_case(repo, case)
    got = rejects(report)
    assert set(case.expect) & got, f"expected one of {case.expect}\n{describe(report)}"


# --------------------------------------------------------------------------- B) benign changes

BENIGN_CASES = [
    pytest.param(Case(PLAIN, {"tests/test_new_feature.py": py("""
        def test_new_feature():
            assert g(1) == 5
        """)}), id="new-test-file"),
    pytest.param(Case(PARAM, {T: PARAM[T].replace("(3, 4)]", "(3, 4), (4, 5), (10, 11)]")}),
                 id="parametrize-rows-added"),
    pytest.param(Case(PARAM, {T: PARAM[T].replace(
        "(3, 4)])", '(3, 4)], ids=["one", "two", "three"])')}), id="parametrize-ids-added"),
    pytest.param(Case({T: PARAM[T].replace("(3, 4)])", '(3, 4)], ids=["a", "b", "c"])')},
                      {T: PARAM[T].replace("(3, 4)])", '(3, 4)], ids=["one", "two", "c"])')}),
                 id="parametrize-ids-renamed"),
    pytest.param(Case(PARAM, {T: PARAM[T].replace("[(1, 2), (2, 3), (3, 4)]",
                                                  "((1, 2), (2, 3), (3, 4))")}),
                 id="parametrize-list-to-tuple"),
    pytest.param(Case(PARAM, {T: PARAM[T].replace('"x, y"', '("x", "y")')}),
                 id="parametrize-argnames-string-to-tuple"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertIn(f(1), {2, 3})
        """)}, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                assert f(1) in {2, 3}
        """)}), id="assertIn-to-plain-in"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertTrue(f(1))
        """)}, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                assert f(1)
        """)}), id="assertTrue-to-plain-assert"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertIsNone(f(1))
        """)}, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                assert f(1) is None
        """)}), id="assertIsNone-to-is-None"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertFalse(f(1))
        """)}, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                assert not f(1)
        """)}), id="assertFalse-to-assert-not"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertIsInstance(f(1), int)
        """)}, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                assert isinstance(f(1), int)
        """)}), id="assertIsInstance-to-isinstance"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertRaises(ValueError, f, -1)
        """)}, {T: py("""
        import unittest

        import pytest


        class TestA(unittest.TestCase):
            def test_a(self):
                with pytest.raises(ValueError):
                    f(-1)
        """)}), id="assertRaises-call-to-pytest-raises-block"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertEqual(2, f(1))
        """)}), id="assertEqual-arguments-swapped"),
    pytest.param(Case({T: py("""
        def test_a():
            value = f(1)
            assert value == 2, "f(1) should be 2"
        """)}, {T: py("""
        def test_a():
            value = f(1)
            assert value == 2, f"f(1) returned {value!r}, expected 2"
        """)}), id="assertion-message-changed"),
    pytest.param(Case({T: py("""
        def test_a():
            assert f(1) == 2


        def test_b():
            assert g(1) == 3


        def test_c():
            assert h(1) == 4
        """)}, {T: py("""
        def test_c():
            assert h(1) == 4


        def test_a():
            assert f(1) == 2


        def test_b():
            assert g(1) == 3
        """)}), id="tests-reordered"),
    pytest.param(Case(PLAIN, {T: py("""
        class TestF:
            def test_a(self):
                value = f(1)
                assert value == 2
        """)}), id="test-moved-into-class"),
    pytest.param(Case({T: py("""
        class TestF:
            def test_a(self):
                value = f(1)
                assert value == 2
        """)}, PLAIN), id="test-moved-out-of-class"),
    pytest.param(Case({T: py("""
        def test_a():
            data = load("x")
            assert f(data) == 2


        def test_b():
            data = load("x")
            assert g(data) == 3
        """)}, {T: py("""
        import pytest


        @pytest.fixture
        def data():
            return load("x")


        def test_a(data):
            assert f(data) == 2


        def test_b(data):
            assert g(data) == 3
        """)}), id="shared-setup-extracted-into-fixture"),
    pytest.param(Case({T: py("""
        def test_a(tmp_path):
            value = f(tmp_path, 1)
            assert value == 2
        """)}, {T: py("""
        from pathlib import Path


        def test_a(tmp_path: Path) -> None:
            value: int = f(tmp_path, 1)
            assert value == 2
        """)}), id="type-hints-added"),
    pytest.param(Case(PLAIN, {T: "from __future__ import annotations\n\n\n" + PLAIN[T]}),
                 id="future-annotations-added"),
    pytest.param(Case({T: py("""
        def test_a():
            assert f("a") == "b"
            assert g(x="c") == {"k": "v"}
        """)}, {T: py("""
        def test_a():
            assert f('a') == 'b'
            assert g(x='c') == {'k': 'v'}
        """)}), id="double-to-single-quotes"),
    pytest.param(Case({T: py("""
        import os,sys
        from app import (g,f)
        def test_a():
            assert f(1)==2
            assert g( [1,2,3] )=={'a':1,
                 'b':2}
        class TestB:
          def test_b(self):
            assert sys.platform and os.sep
        """)}, {T: py("""
        import os
        import sys

        from app import f, g


        def test_a():
            assert f(1) == 2
            assert g([1, 2, 3]) == {
                "a": 1,
                "b": 2,
            }


        class TestB:
            def test_b(self):
                assert sys.platform and os.sep
        """)}), id="whole-file-black-ruff-formatting"),
    pytest.param(Case(PLAIN, {T: py('''
        """Tests for f."""


        def test_a():
            """f(1) is 2, as documented."""
            value = f(1)
            assert value == 2
        ''')}), id="docstrings-added"),
    pytest.param(Case(PLAIN, {T: "import json\nimport os\nfrom app import f\n\n\n" + PLAIN[T]}),
                 id="imports-added"),
    pytest.param(Case({"src/app.py": "def f(x):\n    return x\n", **PLAIN},
                      {"src/app.py": "def f(x):\n    return x + 1\n",
                       "tests/test_f_more.py": py("""
                           def test_f_big():
                               assert f(100) == 101
                           """)}), id="production-fix-plus-new-test-file"),
    pytest.param(Case(PLAIN, {"tests/factories.py": py("""
        def make_order(n):
            return {"items": list(range(n))}
        """), "tests/test_orders.py": py("""
        from tests.factories import make_order


        def test_order_total():
            assert total(make_order(3)) == 3
        """)}), id="new-helper-module-for-new-tests"),
    pytest.param(Case({T: py("""
        def test_a():
            # TODO: skip this on windows once the path bug is understood
            value = f(1)
            assert value == 2
        """)}, {T: py("""
        def test_a():
            # no need to skip on windows any more: the path bug is fixed (pytest.skip removed)
            value = f(1)
            assert value == 2
        """)}), id="comment-mentioning-skip-updated"),
    pytest.param(Case({**PLAIN, "CHANGELOG.md": "# Changes\n"},
                      {"CHANGELOG.md": "# Changes\n\n- fix f(1)\n",
                       "README.md": "example\n\nRun `pytest -k slow` for slow tests.\n"}),
                 id="readme-and-changelog-edited"),
    pytest.param(Case({**PLAIN, "tests/README.md": "How to run the tests.\n"},
                      {"tests/README.md": "How to run the tests: `python -m pytest`.\n"}),
                 id="tests-readme-edited"),
    pytest.param(Case(PLAIN, {T: PLAIN[T] + py("""


        def test_rejects_negative():
            import pytest

            with pytest.raises(ValueError, match="negative"):
                f(-1)
        """)}), id="new-test-with-pytest-raises"),
    pytest.param(Case(PLAIN, {T: "import pytest\n\n\n" + PLAIN[T] + py("""


        @pytest.mark.slow
        def test_big():
            assert f(10**6) == 10**6 + 1
        """)}), id="slow-mark-on-new-test"),
    pytest.param(Case(PLAIN, {T: "import sys\n\nimport pytest\n\n\n" + PLAIN[T] + py("""


        @pytest.mark.skipif(sys.platform == "win32", reason="posix paths")
        def test_posix_path():
            assert f("/tmp") == "/tmp"
        """)}), id="platform-skipif-on-new-test"),
    pytest.param(Case(PLAIN, {T: py("""
        import json
        from pathlib import Path


        def test_a():
            value = f(1)
            assert value == 2


        def test_report():
            expected = json.loads(
                (Path(__file__).parent / "data" / "report.json").read_text())
            assert report() == expected
        """), "tests/data/report.json": '{"total": 3}\n'}), id="new-data-file-for-new-test"),
    pytest.param(Case(RAISES, {T: RAISES[T].replace('"must be positive"', '"x must be positive"')}),
                 id="raises-match-literal-lengthened"),
    pytest.param(Case({T: py("""
        import pytest


        def test_a():
            assert f(1) == pytest.approx(2.0, abs=1e-3)
        """)}, {T: py("""
        import pytest


        def test_a():
            assert f(1) == pytest.approx(2.0, abs=1e-9)
        """)}), id="approx-tolerance-tightened"),
    pytest.param(Case({T: py("""
        from unittest import mock


        def test_a():
            m = mock.Mock()
            run(m)
            m.assert_called_with(1, 2)
        """)}, MOCK), id="mock-assertion-strengthened"),
    pytest.param(Case({T: py("""
        import pytest


        @pytest.fixture
        def client():
            return make_client()


        def test_a(client):
            assert client.get("/") == 200
        """)}, {T: py("""
        import pytest


        @pytest.fixture
        def api_client():
            return make_client()


        def test_a(api_client):
            assert api_client.get("/") == 200
        """)}), id="fixture-renamed-with-its-uses"),
    pytest.param(Case(PLAIN, {T: py("""
        EXPECTED = 2


        def test_a():
            value = f(1)
            assert value == EXPECTED
        """)}), id="expected-literal-extracted-to-constant"),
    pytest.param(Case({T: py("""
        def test_a():
            assert f(1) == 2
            assert g(1) == 3
        """)}, {T: py("""
        def test_a():
            assert f(1) == 2


        def test_g():
            assert g(1) == 3
        """)}), id="test-split-in-two"),
    pytest.param(Case(UNITTEST, {T: py("""
        class TestA:
            def test_a(self):
                assert f(1) == 2
        """)}), id="unittest-class-to-plain-pytest-class"),
    pytest.param(Case({T: py("""
        import pytest


        def test_a():
            with pytest.raises(ValueError):
                f(-1)
        """)}, {T: py("""
        from pytest import raises


        def test_a():
            with raises(ValueError):
                f(-1)
        """)}), id="pytest-raises-imported-by-name"),
    pytest.param(Case(PLAIN, {T: "import pytest\n\npytestmark = pytest.mark.integration\n\n\n"
                                 + PLAIN[T]}), id="module-pytestmark-custom-mark"),
    pytest.param(Case({**PLAIN, **PYTEST_INI}, {"pytest.ini": PYTEST_INI["pytest.ini"]
                                                + "markers =\n    slow: slow tests\n"},
                      extra=ALLOW_INI), id="allowed-ini-marker-registered"),
    pytest.param(Case(PLAIN, {"tests/unit/__init__.py": "", "tests/unit/test_g.py": py("""
        def test_g():
            assert g(1) == 3
        """)}), id="new-test-subpackage-with-empty-init"),
    pytest.param(Case(UNITTEST, {T: UNITTEST[T].replace(
        "self.assertEqual(f(1), 2)", 'self.assertEqual(f(1), 2, msg="f(1) must be 2")')}),
        id="unittest-msg-added"),
]


@pytest.mark.parametrize("case", BENIGN_CASES)
def test_benign_change_is_not_rejected(repo: GitRepo, case: Case) -> None:
    report = score_case(repo, case)
    assert rejects(report) <= ALWAYS, describe(report)
