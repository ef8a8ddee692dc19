"""Adversarial patches: tampering that tries to slip past the classifier, and benign refactors.

Every case is a real git repository (the ``repo`` fixture): a base commit, a change, the real
``git diff --cached -M`` and a full ``score``. A tampering case passes when at least one of its
expected rule codes is reported with action ``reject``; a benign case passes when nothing but
PS502 (always present without off-tree results) rejects.

Cases provscore currently gets wrong are kept with their correct expectation and marked
``xfail(strict=True, reason="MISS: ...")`` (a tampering patch with no reject from the right rule
family) or ``reason="FALSE POSITIVE: ..."`` (a benign change that is rejected).
"""

from __future__ import annotations

import os

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

# --------------------------------------------------------------------------- common bases

PLAIN = {T: py("""
    def test_a():
        value = f(1)
        assert value == 2
    """)}

PLAIN_PYTEST = {T: py("""
    import pytest


    def test_a():
        assert f(1) == 2
    """)}

UNITTEST = {T: py("""
    import unittest


    class TestA(unittest.TestCase):
        def test_a(self):
            self.assertEqual(f(1), 2)
    """)}

CLASS = {T: py("""
    class TestA:
        def test_a(self):
            assert f(1) == 2
    """)}

PARAM = {T: py("""
    import pytest


    @pytest.mark.parametrize("x, y", [(1, 2), (2, 3), (3, 4)])
    def test_a(x, y):
        assert f(x) == y
    """)}

HELPERS = {
    "tests/helpers.py": py("""
        def check_total(items, expected):
            assert total(items) == expected
        """),
    T: py("""
        from tests.helpers import check_total


        def test_total():
            check_total([1, 2], 3)
        """),
}

PYPROJECT = {"pyproject.toml": py("""
    [project]
    name = "app"
    version = "0"

    [tool.pytest.ini_options]
    testpaths = ["tests"]
    addopts = "-ra"
    """)}


# --------------------------------------------------------------------------- PS201 skip

SKIP_CASES = [
    pytest.param(Case(PLAIN_PYTEST, {T: py("""
        import pytest


        @getattr(pytest.mark, "skip")
        def test_a():
            assert f(1) == 2
        """)}, ("PS201",)), id="skip-getattr-literal"),
    pytest.param(Case(PLAIN_PYTEST, {T: py("""
        import pytest


        @pytest.mark.__getattr__("skip")
        def test_a():
            assert f(1) == 2
        """)}, ("PS201",)), id="skip-mark-dunder-getattr"),
    pytest.param(Case(PLAIN_PYTEST, {T: py("""
        import pytest


        @pytest.fixture(autouse=True)
        def _mark(request):
            request.node.add_marker(pytest.mark.skip(reason="later"))


        def test_a():
            assert f(1) == 2
        """)}, ("PS201",)), id="skip-add-marker-in-autouse-fixture"),
    pytest.param(Case(PARAM, {T: py("""
        import pytest


        @pytest.mark.parametrize("x, y", [
            (1, 2), (2, 3), pytest.param(3, 4, marks=pytest.mark.skip)])
        def test_a(x, y):
            assert f(x) == y
        """)}, ("PS201",)), id="skip-param-marks"),
    pytest.param(Case(CLASS, {T: py("""
        import pytest


        class TestA:
            pytestmark = [pytest.mark.skipif(True, reason="")]

            def test_a(self):
                assert f(1) == 2
        """)}, ("PS201",)), id="skip-class-pytestmark-list"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            @unittest.skipIf(1, "later")
            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS201",)), id="skip-unittest-skipIf-int"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest
        from unittest import skip as s


        class TestA(unittest.TestCase):
            @s("later")
            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS201",)), id="skip-from-unittest-import-skip-as-s"),
    pytest.param(Case(PLAIN_PYTEST, {T: py("""
        import pytest


        def test_a():
            assert f(1) == 2


        test_a = pytest.mark.skip(test_a)
        """)}, ("PS201",)), id="skip-mark-applied-by-rebinding"),
    pytest.param(Case(PLAIN_PYTEST, {T: py("""
        import pytest


        @pytest.mark.skip.with_args(reason="later")
        def test_a():
            assert f(1) == 2
        """)}, ("PS201",)), id="skip-mark-with-args"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            __unittest_skip__ = True

            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS201",)), id="skip-unittest-skip-dunder"),
    pytest.param(Case({T: py("""
        import sys

        import pytest


        @pytest.mark.skipif(sys.platform == "win32", reason="posix only")
        def test_a():
            assert f(1) == 2
        """)}, {T: py("""
        import sys

        import pytest


        @pytest.mark.skipif(sys.platform != "nope", reason="posix only")
        def test_a():
            assert f(1) == 2
        """)}, ("PS201",)), id="skip-skipif-condition-widened"),
    pytest.param(Case(PLAIN_PYTEST, {T: py("""
        import pytest

        pytestmark = getattr(pytest.mark, "skip")


        def test_a():
            assert f(1) == 2
        """)}, ("PS201",)), id="skip-module-pytestmark-getattr"),
]

# --------------------------------------------------------------------------- PS202 xfail

XFAIL_CASES = [
    pytest.param(Case(PLAIN_PYTEST, {T: py("""
        import pytest


        def test_a(request):
            request.applymarker(pytest.mark.xfail)
            assert f(1) == 2
        """)}, ("PS202",)), id="xfail-request-applymarker"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertEqual(f(1), 2)


        TestA.test_a.__unittest_expecting_failure__ = True
        """)}, ("PS202",)), id="xfail-unittest-expecting-failure-dunder"),
    pytest.param(Case(PARAM, {T: py("""
        import pytest


        @pytest.mark.parametrize("x, y", [
            (1, 2), (2, 3), pytest.param(3, 4, marks=pytest.mark.xfail(run=False))])
        def test_a(x, y):
            assert f(x) == y
        """)}, ("PS202",)), id="xfail-param-marks-run-false"),
]

# --------------------------------------------------------------------------- PS203 runtime

RUNTIME_CASES = [
    pytest.param(Case(PLAIN, {T: py("""
        import pytest as p


        def test_a():
            p.skip()
            value = f(1)
            assert value == 2
        """)}, ("PS203",)), id="runtime-import-pytest-as-p"),
    pytest.param(Case(PLAIN, {T: py("""
        import pytest


        def test_a():
            value = f(1)
            if value != 2:
                raise pytest.skip.Exception("later")
            assert value == 2
        """)}, ("PS203",)), id="runtime-raise-skip-exception"),
    pytest.param(Case(PLAIN, {T: py("""
        from _pytest.outcomes import Skipped


        def test_a():
            value = f(1)
            if value != 2:
                raise Skipped("later")
            assert value == 2
        """)}, ("PS203",)), id="runtime-raise-private-skipped"),
    pytest.param(Case(PLAIN, {T: py("""
        import os


        def test_a():
            value = f(1)
            if value != 2:
                os._exit(0)
            assert value == 2
        """)}, ("PS203",)), id="runtime-os-exit"),
    pytest.param(Case(PLAIN, {T: py("""
        import pytest


        def test_a():
            value = f(1)
            if value != 2:
                pytest.exit("done", returncode=0)
            assert value == 2
        """)}, ("PS203",)), id="runtime-pytest-exit"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            failureException = unittest.SkipTest

            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS203", "PS206")), id="runtime-failureException-is-SkipTest"),
    pytest.param(Case(PLAIN, {T: py("""
        import pytest

        AssertionError = pytest.skip.Exception


        def test_a():
            value = f(1)
            assert value == 2
        """)}, ("PS203", "PS206")), id="runtime-AssertionError-rebound-to-skip"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            __import__("pytest").skip("later")
            value = f(1)
            assert value == 2
        """)}, ("PS203",)), id="runtime-dunder-import"),
    pytest.param(Case(PLAIN, {T: py("""
        import importlib


        def test_a():
            importlib.import_module("pytest").skip("later")
            value = f(1)
            assert value == 2
        """)}, ("PS203",)), id="runtime-importlib-import-module"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            exec("import pytest; pytest.skip('later')")
            value = f(1)
            assert value == 2
        """)}, ("PS203",)), id="runtime-exec-string"),
    pytest.param(Case(PLAIN, {T: py("""
        import pytest


        def test_a():
            vars(pytest)["skip"]("later")
            value = f(1)
            assert value == 2
        """)}, ("PS203",)), id="runtime-vars-subscript"),
    pytest.param(Case(PLAIN, {T: py("""
        import pytest


        def test_a():
            getattr(pytest, "sk" + "ip")("later")
            value = f(1)
            assert value == 2
        """)}, ("PS203", "PS201")), id="runtime-getattr-dynamic-name"),
    pytest.param(Case(PLAIN, {T: py("""
        import pytest


        def test_a():
            value = f(1)
            assert value == 2, pytest.skip("later")
        """)}, ("PS203",)), id="runtime-skip-in-assert-message"),
    pytest.param(Case(PLAIN, {T: py("""
        import pytest


        @pytest.fixture(autouse=True)
        def _later():
            pytest.skip("later")


        def test_a():
            value = f(1)
            assert value == 2
        """)}, ("PS203",)), id="runtime-skip-in-autouse-fixture"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def setUp(self):
                later = self.skipTest
                later("not now")

            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS203",)), id="runtime-skipTest-bound-method-alias"),
]

# --------------------------------------------------------------------------- PS106/PS204

COLLECTION_CASES = [
    pytest.param(Case(PLAIN, {T: py("""
        def check_a():
            value = f(1)
            assert value == 2
        """)}, ("PS106",)), id="collect-rename-test-to-check"),
    pytest.param(Case(CLASS, {T: py("""
        class ChecksA:
            def test_a(self):
                assert f(1) == 2
        """)}, ("PS106",)), id="collect-rename-class-out-of-pattern"),
    pytest.param(Case(CLASS, {T: py("""
        class TestA:
            def __init__(self):
                self.ready = True

            def test_a(self):
                assert f(1) == 2
        """)}, ("PS106",)), id="collect-class-gains-init"),
    pytest.param(Case(CLASS, {T: py("""
        class _Base:
            def __init__(self):
                self.ready = True


        class TestA(_Base):
            def test_a(self):
                assert f(1) == 2
        """)}, ("PS106",)), id="collect-class-inherits-init"),
    pytest.param(Case(CLASS, {T: py("""
        class TestA:
            def __new__(cls):
                return super().__new__(cls)

            def test_a(self):
                assert f(1) == 2
        """)}, ("PS106",)), id="collect-class-gains-new"),
    pytest.param(Case(CLASS, {T: py("""
        import abc


        class TestA(abc.ABC):
            @abc.abstractmethod
            def _impl(self): ...

            def test_a(self):
                assert f(1) == 2
        """)}, ("PS106",)), id="collect-class-made-abstract"),
    pytest.param(Case(PLAIN_PYTEST, {T: py("""
        import pytest


        @pytest.fixture
        def test_a():
            assert f(1) == 2
        """)}, ("PS106",)), id="collect-test-made-fixture"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value == 2


        del test_a
        """)}, ("PS106",)), id="collect-del-test"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value == 2


        def test_a():  # noqa: F811
            pass
        """)}, ("PS106", "PS206")), id="collect-shadowed-by-second-def"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value == 2


        test_a = None
        """)}, ("PS106", "PS206")), id="collect-name-rebound-to-none"),
    pytest.param(Case(PLAIN, {T: py("""
        def _quietly(fn):
            return lambda: None


        @_quietly
        def test_a():
            value = f(1)
            assert value == 2
        """)}, ("PS206",)), id="collect-noop-decorator-replaces-body"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value == 2


        test_a.__code__ = (lambda: None).__code__
        """)}, ("PS206",)), id="collect-code-object-swapped"),
    pytest.param(Case(PLAIN, {T: None, "tests/util_example.py": PLAIN[T]}, ("PS106",)),
                 id="collect-moved-to-non-test-file"),
    pytest.param(Case({**PYPROJECT, **PLAIN}, {T: None, "scratch/test_example.py": PLAIN[T]},
                      ("PS106",)), id="collect-moved-outside-testpaths"),
    pytest.param(Case(PLAIN, {T: None, "tests/build/test_example.py": PLAIN[T]}, ("PS106",)),
                 id="collect-moved-into-norecursedirs"),
    pytest.param(Case(PLAIN, {T: None}, ("PS106",)), id="collect-test-file-deleted"),
    pytest.param(Case(PLAIN, {T: None, "tests/conftest.py": PLAIN[T]}, ("PS106",)),
                 id="collect-test-moved-into-conftest"),
    pytest.param(Case({**PLAIN, "tests/conftest.py": "import pytest\n"}, {
        "tests/conftest.py": 'import pytest\n\ncollect_ignore = ["test_example.py"]\n'},
        ("PS204",)), id="collect-collect-ignore"),
    pytest.param(Case({**PLAIN, "tests/conftest.py": "import pytest\n"}, {
        "tests/conftest.py": py("""
            import pytest


            def pytest_collection_modifyitems(config, items):
                config.hook.pytest_deselected(items=items[:1])
                del items[:1]
            """)}, ("PS204",)), id="collect-modifyitems-deselects"),
    pytest.param(Case(CLASS, {T: py("""
        class TestA:
            def test_a(self):
                assert f(1) == 2


        setattr(TestA, "__test__", False)
        """)}, ("PS204",)), id="collect-setattr-dunder-test"),
    pytest.param(Case({**PLAIN, "tests/conftest.py": "import pytest\n"}, {
        "tests/conftest.py": py("""
            import pytest


            @pytest.hookimpl(specname="pytest_collection_modifyitems")
            def _trim(config, items):
                items.clear()
            """)}, ("PS204",)), id="collect-hookimpl-specname"),
]

# --------------------------------------------------------------------------- PS206 neutralised

NEUTRAL_CASES = [
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)

            def later():
                assert value == 2
        """)}, ("PS206", "PS101")), id="dead-assert-moved-into-uncalled-nested-def"),
    pytest.param(Case(PLAIN, {T: py("""
        import contextlib


        def test_a():
            value = f(1)
            with contextlib.nullcontext():
                return
            assert value == 2
        """)}, ("PS206",)), id="dead-return-in-nested-block"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            if 0:
                assert value == 2
        """)}, ("PS206",)), id="dead-if-0"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            if not True:
                assert value == 2
        """)}, ("PS206",)), id="dead-if-not-true"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            while False:
                assert value == 2
        """)}, ("PS206",)), id="dead-while-false"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            if 1 == 2:
                assert value == 2
        """)}, ("PS206",)), id="dead-if-constant-comparison"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            for _ in ():
                assert value == 2
        """)}, ("PS206",)), id="dead-for-over-empty-tuple"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            for _ in range(0):
                assert value == 2
        """)}, ("PS206",)), id="dead-for-over-range-0"),
    pytest.param(Case(PLAIN, {T: py("""
        from typing import TYPE_CHECKING


        def test_a():
            value = f(1)
            if TYPE_CHECKING:
                assert value == 2
        """)}, ("PS206",)), id="dead-if-type-checking"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            if not __debug__:
                assert value == 2
        """)}, ("PS206",)), id="dead-if-not-debug"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            for _ in range(3):
                break
                assert value == 2
        """)}, ("PS206",)), id="dead-break-before-assert"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def setUp(self):
                self.assertEqual = lambda *a, **k: None

            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS206",)), id="override-self-assertEqual-in-setUp"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest

        unittest.TestCase.assertEqual = lambda *a, **k: None


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS206",)), id="override-TestCase-assertEqual-module-level"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def setUp(self):
                setattr(self, "assertEqual", lambda *a, **k: None)

            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS206",)), id="override-setattr-assertEqual"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def assertEqual(self, first, second, msg=None):
                pass

            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS206",)), id="override-assertEqual-method-def"),
    pytest.param(Case(PLAIN, {T: py("""
        import builtins

        import pytest


        def test_a(monkeypatch):
            monkeypatch.setattr(builtins, "AssertionError", pytest.skip.Exception)
            value = f(1)
            assert value == 2
        """)}, ("PS206", "PS203")), id="override-monkeypatch-builtins-AssertionError"),
    pytest.param(Case(PLAIN, {T: py("""
        import builtins as b

        import pytest

        b.AssertionError = pytest.skip.Exception


        def test_a():
            value = f(1)
            assert value == 2
        """)}, ("PS206", "PS203")), id="override-aliased-builtins-AssertionError"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def run(self, result=None):
                return super().run(unittest.TestResult())

            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS206", "PS207")), id="override-TestCase-run-discards-result"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def _callTestMethod(self, method):
                return None

            def test_a(self):
                self.assertEqual(f(1), 2)
        """)}, ("PS206",)), id="override-callTestMethod"),
    pytest.param(Case({T: py("""
        from numpy.testing import assert_allclose


        def test_a():
            assert_allclose(f(1), 2.0)
        """)}, {T: py("""
        from numpy.testing import assert_allclose


        def assert_allclose(*args, **kwargs):  # noqa: F811
            return None


        def test_a():
            assert_allclose(f(1), 2.0)
        """)}, ("PS206", "PS102")), id="override-library-assert-shadowed-by-local-def"),
    pytest.param(Case(HELPERS, {T: py("""
        from tests import helpers
        from tests.helpers import check_total

        helpers.check_total = lambda *a: None


        def test_total():
            check_total([1, 2], 3)
        """)}, ("PS206", "PS105")), id="override-helper-module-attribute"),
    pytest.param(Case(HELPERS, {T: py("""
        from tests.helpers import check_total


        def check_total(items, expected):  # noqa: F811
            pass


        def test_total():
            check_total([1, 2], 3)
        """)}, ("PS206", "PS105")), id="override-helper-shadowed-by-local-def"),
    pytest.param(Case({T: py("""
        import pytest


        def test_a():
            with pytest.raises(ValueError) as info:
                f(-1)
            assert str(info.value) == "negative"
        """)}, {T: py("""
        import pytest


        def test_a():
            with pytest.raises(ValueError) as info:
                f(-1)
                assert str(info.value) == "negative"
        """)}, ("PS206",)), id="dead-assert-moved-after-raising-call"),
    pytest.param(Case({T: py("""
        import pytest


        def test_a():
            with pytest.raises(ValueError):
                f(-1)
        """)}, {T: py("""
        import pytest


        def test_a():
            with pytest.raises(ValueError):
                f(-1)
                raise ValueError("always")
        """)}, ("PS102", "PS206")), id="weak-raises-block-raises-itself"),
    pytest.param(Case({T: py("""
        import pytest


        def test_a():
            assert f(1) == 2


        def test_b():
            assert g(1) == 3
        """)}, {T: py("""
        import pytest


        def test_a():
            pass


        @pytest.mark.skip(reason="new")
        def test_a_moved():
            assert f(1) == 2


        def test_b():
            assert g(1) == 3
        """)}, ("PS101", "PS201")), id="dead-assert-moved-into-new-skipped-test"),
    pytest.param(Case({"tests/__init__.py": "", **UNITTEST}, {"tests/__init__.py": py("""
        import unittest

        unittest.TestCase.assertEqual = lambda *a, **k: None
        """)}, ("PS206",)), id="override-in-tests-package-init"),
    pytest.param(Case({"src/app/__init__.py": "X = 1\n", **UNITTEST}, {
        "src/app/__init__.py": py("""
            import unittest

            unittest.TestCase.assertEqual = lambda *a, **k: None
            X = 1
            """)}, ("PS206", "PS806")), id="override-from-production-module"),
]

# --------------------------------------------------------------------------- PS107 swallowed

SWALLOW_CASES = [
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            try:
                assert value == 2
            except BaseException:
                pass
        """)}, ("PS107",)), id="swallow-except-BaseException"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            try:
                assert value == 2
            except (ValueError, AssertionError):
                pass
        """)}, ("PS107",)), id="swallow-except-tuple"),
    pytest.param(Case(PLAIN, {T: py("""
        import pytest


        def test_a():
            value = f(1)
            with pytest.raises(AssertionError):
                assert value == 2
        """)}, ("PS107",)), id="swallow-pytest-raises-AssertionError"),
    pytest.param(Case(PLAIN, {T: py("""
        import contextlib


        def test_a():
            value = f(1)
            with contextlib.suppress(AssertionError):
                assert value == 2
        """)}, ("PS107",)), id="swallow-contextlib-suppress"),
    pytest.param(Case(PLAIN, {T: py("""
        from contextlib import suppress as quietly


        def test_a():
            value = f(1)
            with quietly(AssertionError):
                assert value == 2
        """)}, ("PS107",)), id="swallow-suppress-aliased"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            try:
                assert value == 2
            except* AssertionError:
                pass
        """)}, ("PS107",)), id="swallow-except-star"),
    pytest.param(Case(PLAIN, {T: py("""
        import os


        def test_a():
            value = f(1)
            try:
                assert value == 2
            except AssertionError:
                if os.environ.get("STRICT_MODE"):
                    raise
        """)}, ("PS107",)), id="swallow-conditional-reraise"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            try:
                assert value == 2
            except AssertionError:  # would call pytest.fail( here
                pass
        """)}, ("PS107",)), id="swallow-comment-says-fail"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            try:
                assert value == 2
            except AssertionError:
                note = "tracker.fail(ignored)"
        """)}, ("PS107",)), id="swallow-string-says-fail"),
    pytest.param(Case(PLAIN, {T: py("""
        class _Log:
            def fail(self, message):
                pass


        def test_a():
            value = f(1)
            try:
                assert value == 2
            except AssertionError:
                log = _Log()
                log.fail("ignored")
        """)}, ("PS107",)), id="swallow-unrelated-fail-method"),
    pytest.param(Case(PLAIN, {T: py("""
        class _Quiet:
            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return True


        def test_a():
            value = f(1)
            with _Quiet():
                assert value == 2
        """)}, ("PS107",)), id="swallow-custom-context-manager"),
    pytest.param(Case(PLAIN, {T: py("""
        import contextlib


        def test_a():
            value = f(1)
            with contextlib.ExitStack() as stack:
                stack.enter_context(contextlib.suppress(AssertionError))
                assert value == 2
        """)}, ("PS107",)), id="swallow-exitstack-enter-suppress"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            try:
                assert value == 2
            finally:
                return
        """)}, ("PS107", "PS206")), id="swallow-return-in-finally"),
    pytest.param(Case(PLAIN, {T: py("""
        AE = AssertionError


        def test_a():
            value = f(1)
            try:
                assert value == 2
            except AE:
                pass
        """)}, ("PS107",)), id="swallow-aliased-exception-name"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                with self.assertRaises(AssertionError):
                    self.assertEqual(f(1), 2)
        """)}, ("PS107",)), id="swallow-assertRaises-AssertionError"),
]

# --------------------------------------------------------------------------- PS101/102/105/108

WEAKEN_CASES = [
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value != 2
        """)}, ("PS102",)), id="weak-eq-to-ne"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value == value
        """)}, ("PS102",)), id="weak-x-eq-x"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert (value == 2, "value must be 2")
        """)}, ("PS102", "PS101")), id="weak-assert-tuple"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value == 2 or True
        """)}, ("PS102", "PS101")), id="weak-or-true"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value in (2, 3)
        """)}, ("PS102",)), id="weak-eq-to-in"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertEqual(f(1), f(1))
        """)}, ("PS102",)), id="weak-assertEqual-a-a"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertAlmostEqual(f(1), 2, places=0)
        """)}, ("PS102",)), id="weak-assertEqual-to-assertAlmostEqual-places-0"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertAlmostEqual(f(1), 2.5)
        """)}, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertAlmostEqual(f(1), 2.5, places=0)
        """)}, ("PS102",)), id="weak-assertAlmostEqual-gains-places-0"),
    pytest.param(Case({T: py("""
        import pytest


        def test_a():
            assert f(1) == pytest.approx(2.0, rel=1e-9)
        """)}, {T: py("""
        import pytest


        def test_a():
            assert f(1) == pytest.approx(2.0, abs=1e9)
        """)}, ("PS102",)), id="weak-approx-rel-to-huge-abs"),
    pytest.param(Case({T: py("""
        from unittest import mock


        def test_a():
            m = mock.Mock()
            run(m)
            m.assert_called_once_with(3)
        """)}, {T: py("""
        from unittest import mock


        def test_a():
            m = mock.Mock()
            run(m)
            m.assert_called()
        """)}, ("PS102",)), id="weak-mock-called-once-with-to-called"),
    pytest.param(Case({T: py("""
        from unittest import mock


        def test_a():
            m = mock.Mock()
            run(m)
            m.assert_called_once_with(3)
        """)}, {T: py("""
        from unittest import mock


        def test_a():
            m = mock.Mock()
            run(m)
            m.called_once_with(3)
        """)}, ("PS101",)), id="weak-mock-assert-becomes-noop-attribute"),
    pytest.param(Case({T: py("""
        import pytest


        def test_a():
            with pytest.raises(ValueError, match="negative"):
                f(-1)
        """)}, {T: py("""
        import pytest


        def test_a():
            with pytest.raises(ValueError):
                f(-1)
        """)}, ("PS102",)), id="weak-raises-drops-match"),
    pytest.param(Case({T: py("""
        import pytest


        def test_a():
            with pytest.raises(ValueError):
                f(-1)
        """)}, {T: py("""
        import pytest


        def test_a():
            with pytest.raises((ValueError, TypeError)):
                f(-1)
        """)}, ("PS102",)), id="weak-raises-gains-exception-type"),
    pytest.param(Case({T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertRaises(ValueError, f, -1)
        """)}, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                self.assertRaises(Exception, f, -1)
        """)}, ("PS102",)), id="weak-assertRaises-broadened"),
    pytest.param(Case(PARAM, {T: py("""
        import pytest


        @pytest.mark.parametrize("x, y", [(1, 2), (3, 4)])
        def test_a(x, y):
            assert f(x) == y
        """)}, ("PS102",)), id="weak-parametrize-row-deleted"),
    pytest.param(Case(PARAM, {T: py("""
        import pytest


        @pytest.mark.parametrize("x, y", [(1, 2), (2, 5), (3, 4)])
        def test_a(x, y):
            assert f(x) == y
        """)}, ("PS108",)), id="expected-parametrize-row-edited"),
    pytest.param(Case(PARAM, {T: py("""
        import pytest


        @pytest.mark.parametrize("y, x", [(1, 2), (2, 3), (3, 4)])
        def test_a(x, y):
            assert f(x) == y
        """)}, ("PS108", "PS102")), id="expected-parametrize-argnames-swapped"),
    pytest.param(Case({T: py("""
        import pytest

        ROWS = [(1, 2), (2, 3), (3, 4)]


        @pytest.mark.parametrize("x, y", ROWS)
        def test_a(x, y):
            assert f(x) == y
        """)}, {T: py("""
        import pytest

        ROWS = [(1, 2), (3, 4)]


        @pytest.mark.parametrize("x, y", ROWS)
        def test_a(x, y):
            assert f(x) == y
        """)}, ("PS102",)), id="weak-parametrize-row-deleted-from-constant"),
    pytest.param(Case({T: py("""
        from hypothesis import given, strategies as st


        @given(st.integers())
        def test_a(x):
            assert f(x) == x + 1
        """)}, {T: py("""
        from hypothesis import given, settings, strategies as st


        @settings(max_examples=1)
        @given(st.integers())
        def test_a(x):
            assert f(x) == x + 1
        """)}, ("PS102",)), id="weak-hypothesis-settings-added"),
    pytest.param(Case({T: py("""
        from hypothesis import given, settings, strategies as st


        @settings(max_examples=500)
        @given(st.integers())
        def test_a(x):
            assert f(x) == x + 1
        """)}, {T: py("""
        from hypothesis import given, settings, strategies as st


        @settings(max_examples=1)
        @given(st.integers())
        def test_a(x):
            assert f(x) == x + 1
        """)}, ("PS102",)), id="weak-hypothesis-max-examples-lowered"),
    pytest.param(Case({T: py("""
        from hypothesis import given, strategies as st


        @given(st.integers())
        def test_a(x):
            assert f(x) == x + 1
        """)}, {T: py("""
        from hypothesis import given, strategies as st


        @given(st.just(0))
        def test_a(x):
            assert f(x) == x + 1
        """)}, ("PS102",)), id="weak-hypothesis-strategy-narrowed"),
    pytest.param(Case({T: py("""
        def test_a():
            expected = 2
            assert f(1) == expected
        """)}, {T: py("""
        def test_a():
            expected = 3
            assert f(1) == expected
        """)}, ("PS108",)), id="expected-local-variable-edited"),
    pytest.param(Case({T: py("""
        EXPECTED = 2


        def test_a():
            assert f(1) == EXPECTED
        """)}, {T: py("""
        EXPECTED = 3


        def test_a():
            assert f(1) == EXPECTED
        """)}, ("PS108",)), id="expected-module-constant-edited"),
    pytest.param(Case({T: py("""
        import pytest


        @pytest.fixture
        def expected():
            return 2


        def test_a(expected):
            assert f(1) == expected
        """)}, {T: py("""
        import pytest


        @pytest.fixture
        def expected():
            return 3


        def test_a(expected):
            assert f(1) == expected
        """)}, ("PS108",)), id="expected-fixture-return-edited"),
    pytest.param(Case(PLAIN, {T: py("""
        from unittest.mock import ANY


        def test_a():
            value = f(1)
            assert value == ANY
        """)}, ("PS102", "PS108")), id="weak-compare-to-mock-ANY"),
    pytest.param(Case(HELPERS, {"tests/helpers.py": py("""
        def check_total(items, expected):
            assert total(items) is not None
        """)}, ("PS105",)), id="helper-in-tests-helpers-weakened"),
    pytest.param(Case({
        "src/app/testing.py": py("""
            def assert_valid_total(items, expected):
                assert total(items) == expected
            """),
        T: py("""
            from app.testing import assert_valid_total


            def test_total():
                assert_valid_total([1, 2], 3)
            """)}, {"src/app/testing.py": py("""
            def assert_valid_total(items, expected):
                assert total(items) is not None
            """)}, ("PS105",)), id="helper-in-production-tree-weakened"),
    pytest.param(Case(PLAIN, {T: py("""
        def check_value(value, expected):
            assert value is not None


        def test_a():
            value = f(1)
            check_value(value, 2)
        """)}, ("PS102", "PS101")), id="helper-assert-moved-into-neutered-new-helper"),
    pytest.param(Case({
        **HELPERS,
        "tests/helpers.py": py("""
            def check_total(items, expected):
                assert total(items) == expected


            def check_total_loose(items, expected):
                assert total(items) is not None
            """)}, {T: py("""
        from tests.helpers import check_total_loose as check_total


        def test_total():
            check_total([1, 2], 3)
        """)}, ("PS102", "PS105")), id="helper-import-swapped-to-lenient"),
]

# --------------------------------------------------------------------------- hooks, config

ENTRY_POINT = py("""
    [project]
    name = "app"
    version = "0"

    [project.entry-points.pytest11]
    app = "app.plugin"
    """)

NATIVE = py("""
    [project]
    name = "app"
    version = "0"

    [tool.pytest]
    testpaths = ["tests"]
    addopts = ["-ra"]
    """)

HOOK_CASES = [
    pytest.param(Case({"src/app/plugin.py": "X = 1\n", **PLAIN}, {
        "src/app/plugin.py": py("""
            import pytest

            X = 1


            @pytest.hookimpl(hookwrapper=True)
            def pytest_runtest_makereport(item, call):
                outcome = yield
                outcome.get_result().outcome = "passed"
            """)}, ("PS207",)), id="hook-makereport-in-production-plugin"),
    pytest.param(Case({"src/app/plugin.py": "X = 1\n", **PLAIN}, {
        "src/app/plugin.py": py("""
            X = 1


            def _flip(report):
                report.outcome = "passed"


            pytest_runtest_logreport = _flip
            """)}, ("PS207",)), id="hook-assigned-not-defined-in-production-plugin"),
    pytest.param(Case({"src/app/plugin.py": "X = 1\n", **PLAIN}, {
        "src/app/plugin.py": py("""
            import pytest

            X = 1


            @pytest.hookimpl(specname="pytest_runtest_makereport", hookwrapper=True)
            def _report(item, call):
                outcome = yield
                outcome.get_result().outcome = "passed"
            """)}, ("PS207",)), id="hook-specname-in-production-plugin"),
    pytest.param(Case({"tests/conftest.py": "import pytest\n", **PLAIN}, {
        "tests/conftest.py": py("""
            import pytest


            @pytest.hookimpl(specname="pytest_runtest_makereport", hookwrapper=True)
            def _report(item, call):
                outcome = yield
                outcome.get_result().outcome = "passed"
            """)}, ("PS207",)), id="hook-specname-in-conftest"),
    pytest.param(Case({"tests/conftest.py": "import pytest\n", **PLAIN}, {
        "tests/conftest.py": py("""
            import pytest


            class _Plugin:
                @pytest.hookimpl(hookwrapper=True)
                def pytest_runtest_makereport(self, item, call):
                    outcome = yield
                    outcome.get_result().outcome = "passed"


            def pytest_configure(config):
                config.pluginmanager.register(_Plugin())
            """)}, ("PS207",)), id="hook-method-of-registered-plugin-class"),
    pytest.param(Case({**PYPROJECT, **PLAIN}, {"pyproject.toml": PYPROJECT["pyproject.toml"]
                                               .replace('"-ra"', '"-ra -p no:randomly"')},
                      ("PS205",)), id="config-addopts-p-no"),
    pytest.param(Case({**PYPROJECT, **PLAIN}, {"pyproject.toml": PYPROJECT["pyproject.toml"]
                                               .replace('"-ra"', '"-ra --deselect=tests/'
                                                        'test_example.py::test_a"')},
                      ("PS205",)), id="config-addopts-deselect-equals"),
    pytest.param(Case({"setup.cfg": "[tool:pytest]\naddopts = -ra\n", **PLAIN}, {
        "setup.cfg": "[tool:pytest]\naddopts = -ra\npython_functions = check_*\n"},
        ("PS205",)), id="config-setup-cfg-python-functions"),
    pytest.param(Case({**PYPROJECT, **PLAIN}, {"pytest.toml": py("""
        [pytest]
        testpaths = ["tests"]
        addopts = ["--deselect", "tests/test_example.py::test_a"]
        """)}, ("PS205",)), id="config-new-pytest-toml"),
    pytest.param(Case({"pyproject.toml": NATIVE, **PLAIN}, {"pyproject.toml": NATIVE.replace(
        '["-ra"]', '["-ra", "--deselect", "tests/test_example.py::test_a"]')}, ("PS205",)),
        id="config-pyproject-native-tool-pytest"),
    pytest.param(Case({**PYPROJECT, **PLAIN}, {"pytest.ini": "[pytest]\naddopts = -ra\n"},
                      ("PS205",)), id="config-new-pytest-ini-drops-testpaths"),
    pytest.param(Case(PLAIN, {"src/zz_hook.pth": "import os\n"}, ("PS302",)),
                 id="runner-pth-file"),
    pytest.param(Case(PLAIN, {"sitecustomize.py": "import unittest\n"}, ("PS302",)),
                 id="runner-sitecustomize"),
]

# --------------------------------------------------------------------------- input encodings

ENCODING_CASES = [
    pytest.param(Case({T: b"def test_a():\r\n    assert f(1) == 2\r\n    assert f(2) == 3\r\n"},
                      {T: b"def test_a():\r\n    assert f(1) == 2\r\n"}, ("PS101",)),
                 id="encoding-crlf-assert-removed"),
    pytest.param(Case({T: "# -*- coding: latin-1 -*-\n"
                          "def test_a():\n"
                          "    assert f('caf\xe9') == 2\n"
                          "    assert f(2) == 3\n".encode("latin-1")},
                      {T: "# -*- coding: latin-1 -*-\n"
                          "def test_a():\n"
                          "    assert f('caf\xe9') == 2\n".encode("latin-1")}, ("PS101",)),
                 id="encoding-latin1-assert-removed"),
    pytest.param(Case({T: b"\xef\xbb\xbfdef test_a():\n"
                          b"    assert f(1) == 2\n    assert f(2) == 3\n"},
                      {T: b"\xef\xbb\xbfdef test_a():\n    assert f(1) == 2\n"}, ("PS101",)),
                 id="encoding-utf8-bom-assert-removed"),
    pytest.param(Case({T: b"def test_a():\r    assert f(1) == 2\r    assert f(2) == 3\r"},
                      {T: b"def test_a():\r    assert f(1) == 2\r"}, ("PS101",)),
                 id="encoding-cr-only-assert-removed"),
    pytest.param(Case(PLAIN, {T: "def test_a(:\n    assert f(1) == 2\n"}, ("PS903",)),
                 id="input-syntax-error"),
    pytest.param(Case(PLAIN, {".gitattributes": "*.py binary\n", T: py("""
        def test_a():
            value = f(1)
        """)}, ("PS101", "PS902", "PS903")), id="input-test-file-marked-binary"),
]

TAMPER_CASES = (SKIP_CASES + XFAIL_CASES + RUNTIME_CASES + COLLECTION_CASES + NEUTRAL_CASES
                + SWALLOW_CASES + WEAKEN_CASES + HOOK_CASES + ENCODING_CASES)


@pytest.mark.parametrize("case", TAMPER_CASES)
def test_tampering_is_rejected(repo: GitRepo, case: Case) -> None:
    report = score_case(repo, case)
    got = rejects(report)
    assert set(case.expect) & got, f"expected one of {case.expect}\n{describe(report)}"


def test_symlink_to_oracle_file(repo: GitRepo) -> None:
    repo.commit({"README.md": "x\n", **PLAIN,
                 "tests/goldens/expected.json": '{"total": 3}\n',
                 "oracle/score_contract.toml": "[score]\nmax_changed_files = 12\n"})
    link = repo.root / "tests/goldens/expected.json"
    link.unlink()
    os.symlink("../../oracle/score_contract.toml", link)
    report = repo.score(repo.diff({}))
    assert "PS305" in rejects(report), describe(report)


# --------------------------------------------------------------------------- benign changes

BENIGN_CASES = [
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            # compute once
            value = f(
                1,
            )
            assert (
                value
                == 2  # the documented result
            )
        """)}), id="benign-black-wrapping-and-comments"),
    pytest.param(Case({T: py("""
        def test_a():
            assert f(1) == 2


        def test_b():
            assert g(1) == 3
        """)}, {T: py("""
        def test_a():
            assert f(1) == 2
        """), "tests/test_other.py": py("""
        def test_b():
            assert g(1) == 3
        """)}), id="benign-move-test-between-files"),
    pytest.param(Case(PLAIN, {T: None, "tests/unit/test_renamed.py": PLAIN[T]}),
                 id="benign-rename-test-file"),
    pytest.param(Case(PLAIN, {T: PLAIN[T] + py("""


        def test_b():
            assert f(2) == 3
        """)}), id="benign-add-new-test"),
    pytest.param(Case({T: py("""
        def test_a():
            assert f('a')==2
        """)}, {T: py("""
        def test_a():
            assert f("a") == 2
        """)}), id="benign-quote-and-spacing-style"),
    pytest.param(Case(PLAIN, {T: py('''
        def test_a():
            """Never decorate this with pytest.mark.skip or pytest.skip() it."""
            value = f(1)
            assert value == 2
        ''')}), id="benign-docstring-mentions-skip"),
    pytest.param(Case(CLASS, {T: py("""
        class TestsA:
            def test_a(self):
                assert f(1) == 2
        """)}), id="benign-class-renamed-still-collected"),
    pytest.param(Case(PLAIN_PYTEST, {T: py("""
        import pytest


        @pytest.mark.slow
        @pytest.mark.filterwarnings("ignore::DeprecationWarning")
        def test_a() -> None:
            assert f(1) == 2
        """)}), id="benign-custom-marks-and-annotation"),
    pytest.param(Case(PARAM, {T: py("""
        import pytest


        @pytest.mark.parametrize(
            "x, y",
            [(3, 4), (1, 2), (2, 3)],
            ids=["three", "one", "two"],
        )
        def test_a(x, y):
            assert f(x) == y
        """)}), id="benign-parametrize-reordered-with-ids"),
    pytest.param(Case({"src/app.py": "def f(x):\n    return x\n", **PLAIN},
                      {"src/app.py": "def f(x):\n    return x + 1\n"}),
                 id="benign-production-only"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert value == 2, f"f(1) gave {value}"
        """)}), id="benign-assert-message-added"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            assert 2 == value
        """)}), id="benign-equality-operands-swapped"),
    pytest.param(Case({T: py("""
        def test_a():
            value = f(1)
            assert value > 0 and value < 10
        """)}, {T: py("""
        def test_a():
            value = f(1)
            assert value > 0
            assert value < 10
        """)}), id="benign-split-conjunction"),
    pytest.param(Case({T: py("""
        def test_a():
            value = f(1)
            assert value > 0
            assert value < 10
        """)}, {T: py("""
        def test_a():
            value = f(1)
            assert value > 0 and value < 10
        """)}), id="benign-merge-into-conjunction"),
    pytest.param(Case(UNITTEST, {T: py("""
        import unittest


        class TestA(unittest.TestCase):
            def test_a(self):
                assert f(1) == 2
        """)}), id="benign-assertEqual-to-plain-assert"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            result = f(1)
            assert result == 2
        """)}), id="benign-local-variable-renamed"),
    pytest.param(Case({T: py("""
        def check_total(items, expected):
            assert total(items) == expected


        def test_total():
            check_total([1, 2], 3)
        """)}, {"tests/helpers.py": py("""
        def check_total(items, expected):
            assert total(items) == expected
        """), T: py("""
        from tests.helpers import check_total


        def test_total():
            check_total([1, 2], 3)
        """)}), id="benign-helper-moved-to-helpers-module-unchanged"),
    pytest.param(Case({T: py("""
        def check_total(items, expected):
            assert total(items) == expected


        def test_total():
            check_total([1, 2], 3)
        """)}, {T: py("""
        def assert_total(items, expected):
            assert total(items) == expected


        def test_total():
            assert_total([1, 2], 3)
        """)}), id="benign-helper-renamed-unchanged"),
    pytest.param(Case(PLAIN, {T: py("""
        def first[T](items: list[T]) -> T:
            return items[0]


        def test_a():
            value = f(1)
            assert value == 2


        def test_first():
            assert first([1]) == 1
        """)}), id="benign-pep695-syntax"),
    pytest.param(Case({T: b"def test_a():\r\n    assert f(1) == 2\r\n"},
                      {T: b"def test_a():\r\n    assert f(1) == 2\r\n\r\n\r\n"
                          b"def test_b():\r\n    assert f(2) == 3\r\n"}),
                 id="benign-crlf-add-test"),
    pytest.param(Case({T: py("""
        import logging


        def test_a(caplog):
            value = f(1)
            assert value == 2
        """)}, {T: py("""
        import logging


        def test_a(caplog):
            with caplog.at_level(logging.INFO):
                value = f(1)
                assert value == 2
        """)}), id="benign-assert-inside-caplog-context"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            value = f(1)
            try:
                assert value == 2
            except AssertionError as exc:
                raise AssertionError(f"f(1) = {value}") from exc
        """)}), id="benign-handler-reraises-with-context"),
    pytest.param(Case(PLAIN, {T: py("""
        def test_a():
            def describe(x):
                return f"value={x}"

            value = f(1)
            assert value == 2, describe(value)
        """)}), id="benign-nested-helper-with-return"),

]


@pytest.mark.parametrize("case", BENIGN_CASES)
def test_benign_change_is_not_rejected(repo: GitRepo, case: Case) -> None:
    report = score_case(repo, case)
    assert rejects(report) <= ALWAYS, describe(report)


def test_checked_value_routed_through_a_new_function(repo: GitRepo) -> None:
    """`def first(x): return 2` would always pass: changing what is checked fails closed."""
    report = score_case(repo, Case(PLAIN, {T: py("""
        def test_a():
            def first(x):
                return x

            value = first(f(1))
            assert value == 2
        """)}))
    assert "PS102" in rejects(report), describe(report)
