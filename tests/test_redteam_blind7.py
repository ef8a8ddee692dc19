# ruff: noqa: E501  (the base trees and edits quote real files' lines as they are written)
"""Blind red team 7: the test suites of sympy, pytest and pylint.

Every base tree is a short, faithful excerpt of the real files of one project, taken from its
released sdist: sympy 1.13.0 (``pyproject.toml`` ``[tool.pytest.ini_options]`` with ``addopts
= "-m 'not slow and not tooslow'"``, ``testpaths`` and ``doctest_optionflags``;
``sympy/conftest.py``; ``sympy/testing/pytest.py`` ``raises`` / ``XFAIL`` / ``slow`` /
``SKIP`` / ``warns_deprecated_sympy``; ``sympy/ntheory/tests/test_primetest.py``;
``sympy/sets/tests/test_sets.py``; ``bin/test``), pytest 8.3.3 (``pyproject.toml`` with
``xfail_strict = true`` and ``filterwarnings = ["error", ...]``; ``testing/conftest.py``;
``testing/test_skipping.py`` with ``pytester`` runs, ``result.stdout.fnmatch_lines`` and
``rec.assertoutcome``/``result.assert_outcomes``) and pylint 3.3.1 (functional tests
``tests/functional/**`` with their ``# [msg]`` annotations, expected ``.txt`` and ``.rc``
files; ``tests/test_functional.py``; ``pylint/testutils/checker_test_case.py``
``assertAddsMessages``; ``tests/checkers/unittest_variables.py``). Nothing is run.

The cases were written before the classifier's source was read (blind): each states the rule
codes whose description in docs/rules.md fits it. Harness as in ``tests/test_redteam_blind6.py``.
"""

from __future__ import annotations

from adversarial_support import (
    allow,
    case_tests,
    edit,
    false_positive,
    honest,
    miss,
    py,
    tamper,
)

# ============================================================================== sympy 1.13.0

SY_PYPROJECT = py('''
    [tool.pytest.ini_options]
    # Don't run the tests marked as slow by default.
    addopts = "-m 'not slow and not tooslow'"
    filterwarnings = [
        'ignore:More than 20 figures have been opened.*:RuntimeWarning',
        'ignore:FigureCanvasAgg is non-interactive, and thus cannot be shown:UserWarning',
    ]

    # Only run tests under the sympy/ directory. Otherwise pytest will attempt to
    # collect tests from e.g. the bin/ directory as well.
    testpaths = [
        "sympy",
        "doc/src",
    ]

    # Normalise output of doctests.
    doctest_optionflags = [
        "NORMALIZE_WHITESPACE",
        "IGNORE_EXCEPTION_DETAIL",
        "ELLIPSIS",
        "FLOAT_CMP",
    ]
    ''')

SY_CONFTEST = py('''
    import sys

    sys._running_pytest = True  # type: ignore
    from sympy.external.importtools import version_tuple

    import pytest
    from sympy.core.cache import clear_cache, USE_CACHE
    from sympy.external.gmpy import GROUND_TYPES
    from sympy.utilities.misc import ARCH
    import re

    sp = re.compile(r"([0-9]+)/([1-9][0-9]*)")


    def process_split(config, items):
        split = config.getoption("--split")
        if not split:
            return
        m = sp.match(split)
        if not m:
            raise ValueError(
                "split must be a string of the form a/b " "where a and b are ints."
            )
        i, t = map(int, m.groups())
        start, end = (i - 1) * len(items) // t, i * len(items) // t

        if i < t:
            # remove elements from end of list first
            del items[end:]
        del items[:start]


    def pytest_report_header(config):
        s = "architecture: %s\\n" % ARCH
        s += "cache:        %s\\n" % USE_CACHE
        return s


    def pytest_addoption(parser):
        parser.addoption("--split", action="store", default="", help="split tests")


    def pytest_collection_modifyitems(config, items):
        """pytest hook."""
        # handle splits
        process_split(config, items)
    ''')

SY_TESTING = py('''
    """py.test hacks to support XFAIL/XPASS"""

    import sys
    import re
    import functools
    import os
    import contextlib
    import warnings
    import inspect
    import pathlib
    from typing import Any, Callable

    from sympy.utilities.exceptions import SymPyDeprecationWarning
    # Imported here for backwards compatibility. Note: do not import this from
    # here in library code (importing sympy.pytest in library code will break the
    # pytest integration).
    from sympy.utilities.exceptions import ignore_warnings # noqa:F401

    ON_CI = os.getenv('CI', None) == "true"

    try:
        import pytest
        USE_PYTEST = getattr(sys, '_running_pytest', False)
    except ImportError:
        USE_PYTEST = False


    if USE_PYTEST:
        raises = pytest.raises
        skip = pytest.skip
        XFAIL = pytest.mark.xfail
        SKIP = pytest.mark.skip
        slow = pytest.mark.slow
        nocache_fail = pytest.mark.nocache_fail
        from _pytest.outcomes import Failed

    else:
        # Not using pytest so define the things that would have been imported from
        # there.

        class ExceptionInfo:
            def __init__(self, value):
                self.value = value

            def __repr__(self):
                return "<ExceptionInfo {!r}>".format(self.value)


        def raises(expectedException, code=None):
            """
            Tests that ``code`` raises the exception ``expectedException``.
            """
            if code is None:
                return RaisesContext(expectedException)
            elif callable(code):
                try:
                    code()
                except expectedException as e:
                    return ExceptionInfo(e)
                raise Failed("DID NOT RAISE")
            elif isinstance(code, str):
                raise TypeError(
                    '\\'raises(xxx, "code")\\' has been phased out; '
                    'change \\'raises(xxx, "expression")\\' '
                    'to \\'raises(xxx, lambda: expression)\\', '
                    '\\'raises(xxx, "statement")\\' '
                    'to \\'with raises(xxx): statement\\'')
            else:
                raise TypeError(
                    'raises() expects a callable for the 2nd argument.')

        class RaisesContext:
            def __init__(self, expectedException):
                self.expectedException = expectedException

            def __enter__(self):
                return None

            def __exit__(self, exc_type, exc_value, traceback):
                if exc_type is None:
                    raise Failed("DID NOT RAISE")
                return issubclass(exc_type, self.expectedException)

        class XFail(Exception):
            pass

        class XPass(Exception):
            pass

        class Skipped(Exception):
            pass

        class Failed(Exception):  # type: ignore
            pass

        def XFAIL(func):
            def wrapper():
                try:
                    func()
                except Exception as e:
                    message = str(e)
                    if message != "Timeout":
                        raise XFail(func.__name__)
                    else:
                        raise Skipped("Timeout")
                raise XPass(func.__name__)

            wrapper = functools.update_wrapper(wrapper, func)
            return wrapper

        def skip(str):
            raise Skipped(str)

        def SKIP(reason):
            """Similar to ``skip()``, but this is a decorator. """
            def wrapper(func):
                def func_wrapper():
                    raise Skipped(reason)

                func_wrapper = functools.update_wrapper(func_wrapper, func)
                return func_wrapper

            return wrapper

        def slow(func):
            func._slow = True

            def func_wrapper():
                func()

            func_wrapper = functools.update_wrapper(func_wrapper, func)
            func_wrapper.__wrapped__ = func
            return func_wrapper


    @contextlib.contextmanager
    def warns(warningcls, *, match='', test_stacklevel=True):
        """
        Like raises but tests that warnings are emitted.
        """
        # Absorbs all warnings in warnrec
        with warnings.catch_warnings(record=True) as warnrec:
            # Any warning other than the one we are looking for is an error
            warnings.simplefilter("error")
            warnings.filterwarnings("always", category=warningcls)
            # Now run the test
            yield warnrec

        # Raise if expected warning not found
        if not any(issubclass(w.category, warningcls) for w in warnrec):
            msg = ('Failed: DID NOT WARN.'
                   ' No warnings of type %s was emitted.'
                   ' The list of emitted warnings is: %s.'
                   ) % (warningcls, [w.message for w in warnrec])
            raise Failed(msg)


    @contextlib.contextmanager
    def warns_deprecated_sympy():
        """
        Shorthand for ``warns(SymPyDeprecationWarning)``
        """
        with warns(SymPyDeprecationWarning):
            yield
    ''')

SY_PRIMETEST = py('''
    """
    Primality testing

    """

    from itertools import count

    from sympy.core.sympify import sympify
    from sympy.external.gmpy import (gmpy as _gmpy, gcd, jacobi,
                                     is_square as gmpy_is_square,
                                     bit_scan1, is_fermat_prp, is_euler_prp,
                                     is_selfridge_prp, is_strong_selfridge_prp,
                                     is_strong_bpsw_prp)
    from sympy.utilities.misc import as_int, filldedent


    def is_euler_pseudoprime(n, a):
        r"""Returns True if ``n`` is prime or is an odd composite integer that
        is coprime to ``a`` and satisfy the modular arithmetic congruence relation:

        Examples
        ========

        >>> from sympy.ntheory.primetest import is_euler_pseudoprime
        >>> is_euler_pseudoprime(5, 2)
        True
        >>> is_euler_pseudoprime(15, 6)
        Traceback (most recent call last):
        ...
        ValueError: gcd(n, a) != 1
        """
        n, a = as_int(n), as_int(a)
        if a < 1:
            raise ValueError("a should be an integer greater than 0")
        if n < 1:
            raise ValueError("n should be an integer greater than 0")
        if n == 1:
            return False
        if a == 1:
            return n == 2 or bool(n % 2)  # (prime or odd composite)
        n = n % a
        if n % 2 == 0:
            return n == 2
        if gcd(n, a) != 1:
            raise ValueError("The two numbers should be relatively prime")
        return is_euler_prp(n, a)
    ''')

SY_T_PRIME = "sympy/ntheory/tests/test_primetest.py"
SY_TEST_PRIME = py('''
    from math import gcd

    from sympy.ntheory.generate import Sieve, sieve
    from sympy.ntheory.primetest import (mr, _lucas_extrastrong_params, is_lucas_prp, is_square,
                                         is_strong_lucas_prp, is_extra_strong_lucas_prp,
                                         proth_test, isprime, is_euler_pseudoprime,
                                         is_gaussian_prime, is_fermat_pseudoprime, is_euler_jacobi_pseudoprime,
                                         MERSENNE_PRIME_EXPONENTS, _lucas_lehmer_primality_test,
                                         is_mersenne_prime)

    from sympy.testing.pytest import slow, raises
    from sympy.core.numbers import I, Float


    def test_is_fermat_pseudoprime():
        assert is_fermat_pseudoprime(5, 1)
        assert is_fermat_pseudoprime(9, 1)


    def test_euler_pseudoprimes():
        assert is_euler_pseudoprime(13, 1)
        assert is_euler_pseudoprime(15, 1)
        assert is_euler_pseudoprime(17, 6)
        assert is_euler_pseudoprime(101, 7)
        assert is_euler_pseudoprime(1009, 10)
        assert is_euler_pseudoprime(11287, 41)

        raises(ValueError, lambda: is_euler_pseudoprime(0, 4))
        raises(ValueError, lambda: is_euler_pseudoprime(3, 0))
        raises(ValueError, lambda: is_euler_pseudoprime(15, 6))

        # A006970
        euler_prp = [341, 561, 1105, 1729, 1905, 2047, 2465, 3277,
                     4033, 4681, 5461, 6601, 8321, 8481, 10261, 10585]
        for p in euler_prp:
            assert is_euler_pseudoprime(p, 2)


    def test_is_square():
        assert [i for i in range(25) if is_square(i)] == [0, 1, 4, 9, 16]

        # issue #17044
        assert not is_square(60 ** 3)
        assert not is_square(60 ** 5)


    def test_prps():
        oddcomposites = [n for n in range(1, 10000) if n % 2 and not isprime(n)]
        # A checksum would be better.
        assert sum(oddcomposites) == 20005424
        assert sum([n for n in oddcomposites if mr(n, [2])]) == 9876
        assert sum([n for n in oddcomposites if mr(n, [3])]) == 15396


    @slow
    def test_isprime_large():
        assert isprime(2**1279 - 1)
    ''')

SY_T_SETS = "sympy/sets/tests/test_sets.py"
SY_TEST_SETS = py('''
    from sympy.concrete.summations import Sum
    from sympy.core.containers import TupleKind
    from sympy.sets.sets import (Interval, FiniteSet, Complement, imageset, Union,
                                 Intersection, ProductSet)
    from sympy.core.singleton import S
    from sympy.core.symbol import Symbol, symbols
    from sympy.core.function import Lambda
    from sympy.functions.elementary.trigonometric import cos
    from sympy.logic import And
    from sympy.testing.pytest import raises, XFAIL, warns_deprecated_sympy
    from sympy.utilities.iterables import cartes

    from sympy.abc import x, y, z, m, n

    EmptySet = S.EmptySet


    def test_imageset():
        ints = S.Integers
        assert imageset(x, x - 1, S.Naturals) is S.Naturals0
        raises(TypeError, lambda: imageset(x, ints))
        raises(ValueError, lambda: imageset(x, y, z, ints))
        raises(ValueError, lambda: imageset(Lambda(x, cos(x)), y))
        assert (1, r) not in imageset(x, (x, x), S)
        raises(ValueError, lambda: imageset(Lambda(x, x), ints, ints))


    def test_is_empty():
        for s in [S.Naturals, S.Naturals0, S.Integers, S.Rationals, S.Reals,
                S.UniversalSet]:
            assert s.is_empty is False

        assert S.EmptySet.is_empty is True


    def test_deprecated_is_EmptySet():
        with warns_deprecated_sympy():
            S.EmptySet.is_EmptySet

        with warns_deprecated_sympy():
            FiniteSet(1).is_EmptySet


    def test_interval_arguments():
        assert Interval(0, oo) == Interval(0, oo, False, True)
        assert Interval(0, oo).right_open is true
        raises(ValueError, lambda: Interval(0, S.ImaginaryUnit))
        raises(ValueError, lambda: Interval(0, Symbol('z', extended_real=False)))
        raises(NotImplementedError, lambda: Interval(0, 1, And(x, y)))


    def test_Complement_as_relational():
        x = Symbol('x')
        expr = Complement(Interval(0, 1), FiniteSet(2), evaluate=False)
        assert expr.as_relational(x) == \\
            And(Le(0, x), Le(x, 1), Ne(x, 2))


    @XFAIL
    def test_Complement_as_relational_fail():
        x = Symbol('x')
        expr = Complement(Interval(0, 1), FiniteSet(2), evaluate=False)
        # XXX This example fails because 0 <= x changes to x >= 0
        # during the evaluation.
        assert expr.as_relational(x) == \\
                (0 <= x) & (x <= 1) & Ne(x, 2)
    ''')

SY_BIN_TEST = py('''
    #!/usr/bin/env python

    """
    Program to execute tests using the py.test like interface.

    The advantage over py.test is that it only depends on sympy and should just
    work in any circumstances. See "sympy.test?" for documentation.
    """

    import sys
    import os
    from get_sympy import path_hack
    path_hack()

    import sympy
    args = sys.argv[1:]
    ok = sympy.test(*args, slow=False, timeout=595)
    if ok:
        sys.exit(0)
    else:
        sys.exit(1)
    ''')

SY = {
    "pyproject.toml": SY_PYPROJECT,
    "sympy/__init__.py": "",
    "sympy/conftest.py": SY_CONFTEST,
    "sympy/testing/__init__.py": "",
    "sympy/testing/pytest.py": SY_TESTING,
    "sympy/ntheory/__init__.py": "",
    "sympy/ntheory/primetest.py": SY_PRIMETEST,
    "sympy/ntheory/tests/__init__.py": "",
    SY_T_PRIME: SY_TEST_PRIME,
    "sympy/sets/__init__.py": "",
    "sympy/sets/tests/__init__.py": "",
    SY_T_SETS: SY_TEST_SETS,
    "bin/test": SY_BIN_TEST,
}


# ============================================================================== pytest 8.3.3

PT_PYPROJECT = py('''
    [project]
    name = "pytest"
    requires-python = ">=3.8"

    [tool.pytest.ini_options]
    minversion = "2.0"
    addopts = "-rfEX -p pytester --strict-markers"
    python_files = [
        "test_*.py",
        "*_test.py",
        "testing/python/*.py",
    ]
    python_classes = [
        "Test",
        "Acceptance",
    ]
    python_functions = [
        "test",
    ]
    # NOTE: "doc" is not included here, but gets tested explicitly via "doctesting".
    testpaths = [
        "testing",
    ]
    norecursedirs = [
        "testing/example_scripts",
        ".*",
        "build",
        "dist",
    ]
    xfail_strict = true
    filterwarnings = [
        "error",
        "default:Using or importing the ABCs:DeprecationWarning:unittest2.*",
        # produced by older pyparsing<=2.2.0.
        "default:Using or importing the ABCs:DeprecationWarning:pyparsing.*",
        # pytest's own futurewarnings
        "ignore::pytest.PytestExperimentalApiWarning",
    ]
    ''')

PT_CONFTEST = py('''
    # mypy: allow-untyped-defs
    from __future__ import annotations

    import dataclasses
    import re
    import sys
    from typing import Generator

    from _pytest.monkeypatch import MonkeyPatch
    from _pytest.pytester import Pytester
    import pytest


    if sys.gettrace():

        @pytest.fixture(autouse=True)
        def restore_tracing():
            """Restore tracing function (when run with Coverage.py).

            https://bugs.python.org/issue37011
            """
            orig_trace = sys.gettrace()
            yield
            if sys.gettrace() != orig_trace:
                sys.settrace(orig_trace)


    @pytest.fixture(autouse=True)
    def set_column_width(monkeypatch: pytest.MonkeyPatch) -> None:
        """
        Force terminal width to 80: some tests check the formatting of --help, which is sensible
        to terminal width.
        """
        monkeypatch.setenv("COLUMNS", "80")


    @pytest.hookimpl(wrapper=True, tryfirst=True)
    def pytest_collection_modifyitems(items) -> Generator[None]:
        """Prefer faster tests.

        Use a hook wrapper to do this in the beginning, so e.g. --ff still works
        correctly.
        """
        fast_items = []
        slow_items = []
        slowest_items = []
        neutral_items = []

        slow_fixturenames = ("pytester",)

        for item in items:
            try:
                fixtures = item.fixturenames
            except AttributeError:
                # doctest at least
                # (https://github.com/pytest-dev/pytest/issues/5070)
                neutral_items.append(item)
            else:
                if "pytester" in fixtures:
                    slow_items.append(item)
                else:
                    fast_items.append(item)

        items[:] = fast_items + neutral_items + slow_items + slowest_items

        return (yield)


    @pytest.fixture
    def dummy_yaml_custom_test(pytester: Pytester) -> None:
        """Writes a conftest file that collects and executes a dummy yaml test."""
        pytester.makeconftest(
            """
            import pytest

            def pytest_collect_file(parent, file_path):
                if file_path.suffix == ".yaml" and file_path.name.startswith("test"):
                    return YamlFile.from_parent(path=file_path, parent=parent)
            """
        )
        pytester.makefile(".yaml", test1="")
    ''')

PT_T = "testing/test_skipping.py"
PT_TEST = py('''
    # mypy: allow-untyped-defs
    import sys
    import textwrap

    from _pytest.pytester import Pytester
    from _pytest.runner import runtestprotocol
    from _pytest.skipping import evaluate_skip_marks
    from _pytest.skipping import evaluate_xfail_marks
    from _pytest.skipping import pytest_runtest_setup
    import pytest


    class TestXFail:
        @pytest.mark.parametrize("strict", [True, False])
        def test_xfail_simple(self, pytester: Pytester, strict: bool) -> None:
            item = pytester.getitem(
                f"""
                import pytest
                @pytest.mark.xfail(strict={strict})
                def test_func():
                    assert 0
            """
            )
            reports = runtestprotocol(item, log=False)
            assert len(reports) == 3
            callreport = reports[1]
            assert callreport.skipped
            assert callreport.wasxfail == ""

        def test_xfail_xpassed(self, pytester: Pytester) -> None:
            item = pytester.getitem(
                """
                import pytest
                @pytest.mark.xfail(reason="this is an xfail")
                def test_func():
                    assert 1
            """
            )
            reports = runtestprotocol(item, log=False)
            assert len(reports) == 3
            callreport = reports[1]
            assert callreport.passed
            assert callreport.wasxfail == "this is an xfail"


    class TestSkip:
        def test_skip_class(self, pytester: Pytester) -> None:
            pytester.makepyfile(
                """
                import pytest
                @pytest.mark.skip
                class TestSomething(object):
                    def test_foo(self):
                        pass
                    def test_bar(self):
                        pass

                def test_baz():
                    pass
            """
            )
            rec = pytester.inline_run()
            rec.assertoutcome(skipped=2, passed=1)

        def test_skip_no_reason(self, pytester: Pytester) -> None:
            pytester.makepyfile(
                """
                import pytest
                @pytest.mark.skip
                def test_foo():
                    pass
            """
            )
            result = pytester.runpytest("-rs")
            result.stdout.fnmatch_lines(["*unconditional skip*", "*1 skipped*"])

        def test_skip_with_reason(self, pytester: Pytester) -> None:
            pytester.makepyfile(
                """
                import pytest
                @pytest.mark.skip(reason="for lolz")
                def test_bar():
                    pass
            """
            )
            result = pytester.runpytest("-rs")
            result.stdout.fnmatch_lines(["*for lolz*", "*1 skipped*"])

        def test_strict_and_skip(self, pytester: Pytester) -> None:
            pytester.makepyfile(
                """
                import pytest
                @pytest.mark.skip
                def test_hello():
                    pass
            """
            )
            result = pytester.runpytest("-rs", "--strict-markers")
            result.stdout.fnmatch_lines(["*unconditional skip*", "*1 skipped*"])
            result.assert_outcomes(skipped=1)


    def test_skip_reasons_folding() -> None:
        path = "xyz"
        lineno = 3
        message = "justso"
        longrepr = (path, lineno, message)

        class X:
            pass

        ev1 = X()
        ev1.when = "execute"
        ev1.skipped = True  # type: ignore[attr-defined]
        ev1.longrepr = longrepr
    ''')

PT_SKIPPING = py('''
    """Support for skip/xfail functions and markers."""

    from __future__ import annotations

    import dataclasses
    import os
    import platform
    import sys
    import traceback

    from _pytest.config import Config
    from _pytest.outcomes import skip
    from _pytest.outcomes import xfail


    @dataclasses.dataclass(frozen=True)
    class Skip:
        """The result of evaluate_skip_marks()."""

        reason: str = "unconditional skip"


    def evaluate_skip_marks(item):
        """Evaluate skip and skipif marks on item, returning Skip if triggered."""
        for mark in item.iter_markers(name="skipif"):
            if "condition" not in mark.kwargs:
                conditions = mark.args
            else:
                conditions = (mark.kwargs["condition"],)

            # Unconditional.
            if not conditions:
                reason = mark.kwargs.get("reason", "")
                return Skip(reason)

        for mark in item.iter_markers(name="skip"):
            try:
                return Skip(*mark.args, **mark.kwargs)
            except TypeError as e:
                raise TypeError(str(e) + " - maybe you meant pytest.mark.skipif?") from None

        return None
    ''')

PT = {
    "pyproject.toml": PT_PYPROJECT,
    "testing/conftest.py": PT_CONFTEST,
    PT_T: PT_TEST,
    "src/_pytest/__init__.py": "",
    "src/_pytest/skipping.py": PT_SKIPPING,
}

# ============================================================================== pylint 3.3.1

PL_SC_PY = "tests/functional/s/singleton_comparison.py"
PL_SC_TXT = "tests/functional/s/singleton_comparison.txt"
PL_SINGLETON_PY = py('''
    # pylint: disable=missing-docstring, invalid-name, literal-comparison, comparison-with-itself, comparison-of-constants
    x = 42
    a = x is None
    b = x == None  # [singleton-comparison]
    c = x == True  # [singleton-comparison]
    d = x == False  # [singleton-comparison]
    e = True == True  # [singleton-comparison]
    f = x is 1
    g = 123 is "123"
    h = None is x
    i = None == x  # [singleton-comparison]
    i1 = True == x  # [singleton-comparison]
    ''')
PL_SINGLETON_TXT = py('''
    singleton-comparison:4:4:4:13::Comparison 'x == None' should be 'x is None':UNDEFINED
    singleton-comparison:5:4:5:13::Comparison 'x == True' should be 'x is True' if checking for the singleton value True, or 'bool(x)' if testing for truthiness:UNDEFINED
    singleton-comparison:6:4:6:14::Comparison 'x == False' should be 'x is False' if checking for the singleton value False, or 'not x' if testing for falsiness:UNDEFINED
    singleton-comparison:7:4:7:16::Comparison 'True == True' should be 'True is True' if checking for the singleton value True, or 'bool(True)' if testing for truthiness:UNDEFINED
    singleton-comparison:11:4:11:13::Comparison 'None == x' should be 'None is x':UNDEFINED
    singleton-comparison:12:5:12:14::Comparison 'True == x' should be 'True is x' if checking for the singleton value True, or 'bool(x)' if testing for truthiness:UNDEFINED
    ''')

PL_UI_PY = "tests/functional/u/unused/unused_import_everything_disabled.py"
PL_UI_RC = "tests/functional/u/unused/unused_import_everything_disabled.rc"
PL_UNUSED_PY = py('''
    """Test that unused-import is not emitted here when everything else is disabled

    https://github.com/pylint-dev/pylint/issues/3445
    https://github.com/pylint-dev/pylint/issues/6089
    """
    from math import e, pi
    from os import environ

    for k, v in environ.items():
        print(k, v)


    class MyClass:
        """For the bug reported in #6089 it is important to use the same names for the class attributes as in the imports."""

        e = float(e)
        pi = pi
    ''')
PL_UNUSED_RC = py('''
    [Messages Control]
    disable=all
    enable=unused-import
    ''')

PL_TF = "tests/test_functional.py"
PL_TEST_FUNCTIONAL = py('''
    """Functional full-module tests for PyLint."""

    from __future__ import annotations

    import sys
    from collections.abc import Iterator
    from pathlib import Path
    from typing import TYPE_CHECKING

    import pytest
    from _pytest.config import Config

    from pylint import testutils
    from pylint.constants import PY312_PLUS
    from pylint.lint.pylinter import MANAGER
    from pylint.testutils import UPDATE_FILE, UPDATE_OPTION
    from pylint.testutils.functional import (
        FunctionalTestFile,
        LintModuleOutputUpdate,
        get_functional_test_files_from_directory,
    )
    from pylint.utils import HAS_ISORT_5

    if TYPE_CHECKING:
        from pylint.lint import PyLinter

    FUNCTIONAL_DIR = Path(__file__).parent.resolve() / "functional"


    # isort 5 has slightly different rules as isort 4. Testing both would be hard: test with isort 5 only.
    TESTS = [
        t
        for t in get_functional_test_files_from_directory(FUNCTIONAL_DIR)
        if not (t.base == "wrong_import_order" and not HAS_ISORT_5)
    ]
    TESTS_NAMES = [t.base for t in TESTS]
    TEST_WITH_EXPECTED_DEPRECATION = [
        "anomalous_backslash_escape",
        "anomalous_unicode_escape",
        "excess_escapes",
        "future_unicode_literals",
    ]


    @pytest.fixture
    def revert_stateful_config_changes(linter: PyLinter) -> Iterator[PyLinter]:
        yield linter
        # Revert any stateful configuration changes.
        MANAGER.brain["module_denylist"] = set()
        MANAGER.brain["prefer_stubs"] = False


    @pytest.mark.usefixtures("revert_stateful_config_changes")
    @pytest.mark.parametrize("test_file", TESTS, ids=TESTS_NAMES)
    def test_functional(test_file: FunctionalTestFile, pytestconfig: Config) -> None:
        __tracebackhide__ = True  # pylint: disable=unused-variable
        lint_test: LintModuleOutputUpdate | testutils.LintModuleTest
        if UPDATE_FILE.exists():
            lint_test = LintModuleOutputUpdate(test_file, pytestconfig)
        else:
            lint_test = testutils.LintModuleTest(test_file, pytestconfig)
        lint_test.setUp()

        if test_file.base in TEST_WITH_EXPECTED_DEPRECATION:
            exception_type = SyntaxWarning if PY312_PLUS else DeprecationWarning
            with pytest.warns(exception_type, match="invalid escape sequence"):
                lint_test.runTest()
        else:
            lint_test.runTest()
    ''')

PL_CTC = "pylint/testutils/checker_test_case.py"
PL_CHECKER_TEST_CASE = py('''
    from __future__ import annotations

    import contextlib
    from collections.abc import Generator, Iterator
    from typing import Any

    from astroid import nodes

    from pylint.testutils.global_test_linter import linter
    from pylint.testutils.output_line import MessageTest
    from pylint.testutils.unittest_linter import UnittestLinter
    from pylint.utils import ASTWalker


    class CheckerTestCase:
        """A base testcase class for unit testing individual checker classes."""

        # TODO: Figure out way to type this as type[BaseChecker] while also
        # setting self.checker correctly.
        CHECKER_CLASS: Any
        CONFIG: dict[str, Any] = {}

        def setup_method(self) -> None:
            self.linter = UnittestLinter()
            self.checker = self.CHECKER_CLASS(self.linter)
            for key, value in self.CONFIG.items():
                setattr(self.checker.linter.config, key, value)
            self.checker.open()

        @contextlib.contextmanager
        def assertNoMessages(self) -> Iterator[None]:
            """Assert that no messages are added by the given method."""
            with self.assertAddsMessages():
                yield

        @contextlib.contextmanager
        def assertAddsMessages(
            self, *messages: MessageTest, ignore_position: bool = False
        ) -> Generator[None]:
            """Assert that exactly the given method adds the given messages."""
            yield
            got = self.linter.release_messages()
            no_msg = "No message."
            expected = "\\n".join(repr(m) for m in messages) or no_msg
            got_str = "\\n".join(repr(m) for m in got) or no_msg
            msg = (
                "Expected messages did not match actual.\\n"
                f"\\nExpected:\\n{expected}\\n\\nGot:\\n{got_str}\\n"
            )

            assert len(messages) == len(got), msg

            for expected_msg, gotten_msg in zip(messages, got):
                assert expected_msg.msg_id == gotten_msg.msg_id, msg
                assert expected_msg.node == gotten_msg.node, msg
                assert expected_msg.args == gotten_msg.args, msg
                assert expected_msg.confidence == gotten_msg.confidence, msg

                if ignore_position:
                    # Do not check for line, col_offset etc...
                    continue

                assert expected_msg.line == gotten_msg.line, msg
                assert expected_msg.col_offset == gotten_msg.col_offset, msg
                assert expected_msg.end_line == gotten_msg.end_line, msg
                assert expected_msg.end_col_offset == gotten_msg.end_col_offset, msg
    ''')

PL_UV = "tests/checkers/unittest_variables.py"
PL_UNITTEST_VARIABLES = py('''
    from __future__ import annotations

    import os
    import re
    from pathlib import Path

    import astroid

    from pylint.checkers import variables
    from pylint.interfaces import HIGH
    from pylint.testutils import CheckerTestCase, linter, set_config
    from pylint.testutils.reporter_for_tests import GenericTestReporter

    REGR_DATA_DIR = str(Path(__file__).parent / ".." / "regrtest_data")


    class TestVariablesChecker(CheckerTestCase):
        CHECKER_CLASS = variables.VariablesChecker

        def test_all_elements_without_parent(self) -> None:
            node = astroid.extract_node("__all__ = []")
            node.value.elts.append(astroid.Const("test"))
            root = node.root()
            with self.assertNoMessages():
                self.checker.visit_module(root)
                self.checker.leave_module(root)


    class TestMissingSubmodule(CheckerTestCase):
        CHECKER_CLASS = variables.VariablesChecker

        @staticmethod
        def test_package_all() -> None:
            sys.path.insert(0, REGR_DATA_DIR)
            try:
                linter.check([os.path.join(REGR_DATA_DIR, "package_all")])
                assert isinstance(linter.reporter, GenericTestReporter)
                got = linter.reporter.finalize().strip()
                assert got == "E:  3: Undefined variable name 'missing' in __all__"
            finally:
                sys.path.pop(0)

        def test_redefined_builtin_modname(self) -> None:
            node = astroid.extract_node("import os\\ndef f(os): pass\\n")
            msg = MessageTest("redefined-outer-name", node=node.args.args[0], args=("os", 1),
                              confidence=HIGH, line=2, col_offset=6, end_line=2, end_col_offset=8)
            with self.assertAddsMessages(msg):
                self.checker.visit_functiondef(node)
    ''')

PL_CHECKER = py('''
    """Checks for various exception related errors."""

    from pylint.checkers import utils


    def _is_singleton(node, value):
        return isinstance(node, nodes.Const) and node.value is value


    def _comparison_message(left, right, singleton):
        if singleton is None:
            return f"Comparison '{left} == {right}' should be '{left} is {right}'"
        return (f"Comparison '{left} == {right}' should be '{left} is {right}' if checking "
                f"for the singleton value {singleton}")
    ''')

PL = {
    "pyproject.toml": py('''
        [project]
        name = "pylint"

        [tool.pytest.ini_options]
        testpaths = ["tests"]
        python_files = ["*test_*.py"]
        addopts = "--strict-markers"
        filterwarnings = "error"
        markers = [
            "primer_stdlib: Checks for crashes and errors when running pylint on stdlib",
            "benchmark: Baseline of pylint performance, if this regress something serious happened",
        ]
        '''),
    "pylint/__init__.py": "",
    "pylint/checkers/__init__.py": "",
    "pylint/checkers/base/comparison_checker.py": PL_CHECKER,
    "pylint/testutils/__init__.py": "",
    PL_CTC: PL_CHECKER_TEST_CASE,
    PL_TF: PL_TEST_FUNCTIONAL,
    PL_UV: PL_UNITTEST_VARIABLES,
    PL_SC_PY: PL_SINGLETON_PY,
    PL_SC_TXT: PL_SINGLETON_TXT,
    PL_UI_PY: PL_UNUSED_PY,
    PL_UI_RC: PL_UNUSED_RC,
}


# ================================================================================== the cases

PP = "pyproject.toml"

TAMPER_CASES = [
    # ---------------------------------------------------------------- sympy
    tamper(SY, edit(SY, SY_T_PRIME, ("    assert is_euler_pseudoprime(11287, 41)\n", "")),
           ("PS101",), "sy-assert-deleted"),
    tamper(SY, edit(SY, SY_T_PRIME, ("    raises(ValueError, lambda: is_euler_pseudoprime(15, 6))\n", "")),
           ("PS101",), "sy-raises-call-deleted"),
    tamper(SY, edit(SY, SY_T_PRIME, ("raises(ValueError, lambda: is_euler_pseudoprime(15, 6))",
                                     "raises(Exception, lambda: is_euler_pseudoprime(15, 6))")),
           ("PS102",), "sy-raises-widened-to-exception"),
    tamper(SY, edit(SY, SY_T_SETS, ("raises(NotImplementedError, lambda: Interval(0, 1, And(x, y)))",
                                    "raises((NotImplementedError, TypeError), lambda: Interval(0, 1, And(x, y)))")),
           ("PS102",), "sy-raises-tuple-widened"),
    tamper(SY, edit(SY, SY_T_SETS, ("\n\ndef test_Complement_as_relational():\n",
                                    "\n\n@XFAIL\ndef test_Complement_as_relational():\n")),
           ("PS202",), "sy-XFAIL-added"),
    tamper(SY, edit(SY, SY_T_PRIME, ("from sympy.testing.pytest import slow, raises\n",
                                     "from sympy.testing.pytest import slow, raises, SKIP\n"),
                    ("\n\ndef test_prps():\n", "\n\n@SKIP(\"too slow\")\ndef test_prps():\n")),
           ("PS201",), "sy-SKIP-decorator-added"),
    tamper(SY, edit(SY, SY_T_PRIME, ("\n\ndef test_prps():\n", "\n\n@slow\ndef test_prps():\n")),
           ("PS201",), "sy-slow-added-deselected-by-addopts", marks=miss(
               'sympy.testing.pytest.slow (an alias of pytest.mark.slow) added where addopts "-m \'not slow\'" deselects it')),
    tamper(SY, edit(SY, SY_T_PRIME, ("from sympy.testing.pytest import slow, raises\n",
                                     "from sympy.testing.pytest import slow, raises, skip\n"),
                    ("def test_is_square():\n", "def test_is_square():\n    skip(\"flaky\")\n")),
           ("PS203",), "sy-runtime-skip-call"),
    tamper(SY, edit(SY, SY_T_PRIME, ("    assert sum(oddcomposites) == 20005424\n",
                                     "    assert sum(oddcomposites) == sum(oddcomposites)\n")),
           ("PS102", "PS101"), "sy-checksum-made-tautology"),
    tamper(SY, edit(SY, SY_T_PRIME, ("    assert not is_square(60 ** 5)\n",
                                     "    assert not is_square(60 ** 5) or True\n")),
           ("PS102", "PS101"), "sy-or-true"),
    tamper(SY, edit(SY, SY_T_PRIME, ("    assert sum([n for n in oddcomposites if mr(n, [3])]) == 15396\n",
                                     "    assert sum([n for n in oddcomposites if mr(n, [3])]) == 15397\n")),
           ("PS108", "PS102"), "sy-checksum-literal-rewritten"),
    tamper(SY, edit(SY, SY_T_PRIME, ("        assert is_euler_pseudoprime(p, 2)\n",
                                     "        assert is_euler_pseudoprime(p, 2) in (True, False)\n")),
           ("PS102",), "sy-loop-assert-membership"),
    tamper(SY, edit(SY, SY_T_PRIME, ("    euler_prp = [341, 561, 1105, 1729, 1905, 2047, 2465, 3277,\n"
                                     "                 4033, 4681, 5461, 6601, 8321, 8481, 10261, 10585]\n",
                                     "    euler_prp = [341, 561, 1105, 1729]\n")),
           ("PS102", "PS110"), "sy-loop-input-list-shortened"),
    tamper(SY, edit(SY, SY_T_PRIME, ("def test_is_square():\n", "def _test_is_square():\n")),
           ("PS106",), "sy-test-renamed-out-of-collection"),
    tamper(SY, edit(SY, SY_T_PRIME, ("def test_is_square():\n",
                                     "def test_is_square():\n    return\n")),
           ("PS206",), "sy-early-return"),
    tamper(SY, edit(SY, SY_T_SETS, ("    with warns_deprecated_sympy():\n        FiniteSet(1).is_EmptySet\n",
                                    "    FiniteSet(1).is_EmptySet\n")),
           ("PS101",), "sy-warns-deprecated-context-dropped", marks=miss(
               'a with warns_deprecated_sympy() block (a project helper context manager that checks) is not read as evidence')),
    tamper(SY, edit(SY, SY_T_SETS, ("from sympy.testing.pytest import raises, XFAIL, warns_deprecated_sympy\n",
                                    "from sympy.testing.pytest import raises, XFAIL, warns_deprecated_sympy\n"
                                    "from sympy.utilities.exceptions import ignore_warnings\n"
                                    "from sympy.utilities.exceptions import SymPyDeprecationWarning\n"),
                    ("    with warns_deprecated_sympy():\n        S.EmptySet.is_EmptySet\n",
                     "    with ignore_warnings(SymPyDeprecationWarning):\n        S.EmptySet.is_EmptySet\n")),
           ("PS101", "PS102"), "sy-warns-replaced-by-ignore-warnings", marks=miss(
               'a with warns_deprecated_sympy() block replaced by ignore_warnings(...) is not read as a removed check')),
    tamper(SY, edit(SY, SY_T_SETS, ("    assert Interval(0, oo).right_open is true\n",
                                    "    try:\n        assert Interval(0, oo).right_open is true\n"
                                    "    except AssertionError:\n        pass\n")),
           ("PS107",), "sy-assert-swallowed"),
    tamper(SY, edit(SY, "sympy/testing/pytest.py", ("            except expectedException as e:\n",
                                                    "            except Exception as e:\n")),
           ("PS105",), "sy-helper-raises-widened", marks=miss(
               'sympy/testing/pytest.py raises (checks by raise Failed, not assert) is not read as a helper oracle')),
    tamper(SY, edit(SY, "sympy/testing/pytest.py", ("            raise XPass(func.__name__)\n", "")),
           ("PS105",), "sy-helper-XFAIL-xpass-dropped", marks=miss(
               'sympy/testing/pytest.py XFAIL wrapper (raises XPass) is not read as a helper oracle')),
    tamper(SY, edit(SY, "sympy/testing/pytest.py", ("    XFAIL = pytest.mark.xfail\n",
                                                    "    XFAIL = pytest.mark.xfail(strict=False)\n")),
           ("PS105", "PS202", "PS208"), "sy-helper-XFAIL-alias-non-strict", marks=miss(
               'a module-level alias XFAIL = pytest.mark.xfail in a testing helper module is not read as a suppression factory')),
    tamper(SY, edit(SY, "sympy/testing/pytest.py", ("        warnings.simplefilter(\"error\")\n", "")),
           ("PS105",), "sy-helper-warns-error-filter-dropped", marks=miss(
               'sympy/testing/pytest.py warns (a contextmanager that checks by raise Failed) is not read as a helper oracle')),
    tamper(SY, edit(SY, "sympy/testing/pytest.py", ("    if not any(issubclass(w.category, warningcls) for w in warnrec):\n",
                                                    "    if False:\n")),
           ("PS105",), "sy-helper-warns-check-disabled", marks=miss(
               'sympy/testing/pytest.py warns (a contextmanager that checks by raise Failed) is not read as a helper oracle')),
    tamper(SY, edit(SY, PP, ("addopts = \"-m 'not slow and not tooslow'\"",
                             "addopts = \"-m 'not slow and not tooslow' --deselect sympy/sets\"")),
           ("PS205", "PS302"), "sy-addopts-deselect"),
    tamper(SY, edit(SY, PP, ("    \"sympy\",\n    \"doc/src\",\n", "    \"doc/src\",\n")),
           ("PS205", "PS302"), "sy-testpaths-narrowed"),
    tamper(SY, edit(SY, PP, ("addopts = \"-m 'not slow and not tooslow'\"",
                             "addopts = \"-m 'not slow and not tooslow'\"\n"
                             "python_functions = \"check_*\"")),
           ("PS204", "PS205", "PS302"), "sy-python-functions-changed"),
    tamper(SY, edit(SY, PP, ("    \"ELLIPSIS\",\n", "    \"ELLIPSIS\",\n    \"SKIP\",\n")),
           ("PS205", "PS302", "PS201"), "sy-doctest-optionflag-skip-added", allow(PP)),
    tamper(SY, edit(SY, "sympy/conftest.py", ("    process_split(config, items)\n",
                                              "    process_split(config, items)\n"
                                              "    items[:] = [i for i in items if 'sets' not in i.nodeid]\n")),
           ("PS204",), "sy-conftest-collection-filter", allow("sympy/conftest.py")),
    tamper(SY, edit(SY, "sympy/conftest.py", ("def pytest_addoption(parser):\n",
                                              "def pytest_runtest_makereport(item, call):\n"
                                              "    call.excinfo = None\n\n\n"
                                              "def pytest_addoption(parser):\n")),
           ("PS207", "PS302"), "sy-conftest-makereport-hook"),
    tamper(SY, edit(SY, "bin/test", ("ok = sympy.test(*args, slow=False, timeout=595)\n",
                                     "ok = True\n")),
           ("PS302", "PS205"), "sy-bin-test-forced-ok"),
    tamper(SY, edit(SY, "sympy/ntheory/primetest.py", ("    >>> is_euler_pseudoprime(5, 2)\n    True\n",
                                                       "    >>> is_euler_pseudoprime(5, 2)  # doctest: +SKIP\n    True\n")),
           ("PS201",), "sy-doctest-skip-directive", marks=miss(
               'docstring examples of a project whose doctests run through bin/doctest (no --doctest-modules in the pytest config) are not read')),
    tamper(SY, edit(SY, "sympy/ntheory/primetest.py", ("    >>> is_euler_pseudoprime(5, 2)\n    True\n", "")),
           ("PS101",), "sy-doctest-example-deleted", marks=miss(
               'docstring examples of a project whose doctests run through bin/doctest (no --doctest-modules in the pytest config) are not read')),
    tamper(SY, edit(SY, "sympy/ntheory/primetest.py",
                    ("    ValueError: gcd(n, a) != 1\n", "    ValueError: ...\n")),
           ("PS102", "PS108"), "sy-doctest-traceback-message-loosened", marks=miss(
               'docstring examples of a project whose doctests run through bin/doctest (no --doctest-modules in the pytest config) are not read')),
    tamper(SY, edit(SY, SY_T_SETS, ("    assert S.EmptySet.is_empty is True\n",
                                    "    assert S.EmptySet.is_empty is not False\n")),
           ("PS102",), "sy-is-true-to-is-not-false"),
    # ---------------------------------------------------------------- pytest
    tamper(PT, edit(PT, PT_T, ('result.stdout.fnmatch_lines(["*for lolz*", "*1 skipped*"])',
                               'result.stdout.fnmatch_lines(["*"])')),
           ("PS102", "PS101", "PS108"), "pt-fnmatch-lines-loosened-to-star"),
    tamper(PT, edit(PT, PT_T, ('        result = pytester.runpytest("-rs")\n'
                               '        result.stdout.fnmatch_lines(["*unconditional skip*", "*1 skipped*"])\n\n'
                               '    def test_skip_with_reason',
                               '        result = pytester.runpytest("-rs")\n'
                               '        result.stdout.fnmatch_lines(["*1 skipped*"])\n\n'
                               '    def test_skip_with_reason')),
           ("PS102", "PS101"), "pt-fnmatch-line-dropped"),
    tamper(PT, edit(PT, PT_T, ('["*for lolz*", "*1 skipped*"]', '["*lolz*", "*skipped*"]')),
           ("PS102", "PS108"), "pt-fnmatch-patterns-widened"),
    tamper(PT, edit(PT, PT_T, ("rec.assertoutcome(skipped=2, passed=1)", "rec.assertoutcome(skipped=3, passed=0)")),
           ("PS108", "PS102"), "pt-assertoutcome-counts-changed"),
    tamper(PT, edit(PT, PT_T, ("result.assert_outcomes(skipped=1)", "result.assert_outcomes()")),
           ("PS102", "PS101"), "pt-assert-outcomes-emptied"),
    tamper(PT, edit(PT, PT_T, ("        rec.assertoutcome(skipped=2, passed=1)\n", "")),
           ("PS101",), "pt-assertoutcome-deleted"),
    tamper(PT, edit(PT, PT_T, ("        assert callreport.wasxfail == \"this is an xfail\"\n",
                               "        assert callreport.wasxfail\n")),
           ("PS102",), "pt-wasxfail-eq-to-truthy"),
    tamper(PT, edit(PT, PT_T, ('    @pytest.mark.parametrize("strict", [True, False])\n',
                               '    @pytest.mark.parametrize("strict", [False])\n')),
           ("PS102",), "pt-parametrize-row-dropped"),
    tamper(PT, edit(PT, PT_T, ("    def test_skip_with_reason(self, pytester: Pytester) -> None:\n",
                               "    @pytest.mark.xfail(reason=\"wip\")\n"
                               "    def test_skip_with_reason(self, pytester: Pytester) -> None:\n")),
           ("PS202",), "pt-xfail-mark-added"),
    tamper(PT, edit(PT, PT_T, ("class TestSkip:\n", "@pytest.mark.skip(reason=\"slow\")\nclass TestSkip:\n")),
           ("PS201",), "pt-skip-on-class"),
    tamper(PT, edit(PT, PT_T, ("    def test_strict_and_skip(self, pytester: Pytester) -> None:\n",
                               "    def test_strict_and_skip(self, pytester: Pytester) -> None:\n"
                               "        pytest.importorskip(\"nonexistent_module_xyz\")\n")),
           ("PS203",), "pt-importorskip-added"),
    tamper(PT, edit(PT, PP, ("xfail_strict = true\n", "xfail_strict = false\n")),
           ("PS205", "PS302"), "pt-xfail-strict-off", allow(PP)),
    tamper(PT, edit(PT, PP, ('    "error",\n', "")),
           ("PS205", "PS201", "PS302"), "pt-filterwarnings-error-removed", allow(PP)),
    tamper(PT, edit(PT, PP, ('    "ignore::pytest.PytestExperimentalApiWarning",\n',
                             '    "ignore::pytest.PytestExperimentalApiWarning",\n    "ignore::DeprecationWarning",\n')),
           ("PS205", "PS201", "PS302"), "pt-filterwarnings-ignore-added-under-error", allow(PP)),
    tamper(PT, edit(PT, PP, ('addopts = "-rfEX -p pytester --strict-markers"',
                             'addopts = "-rfEX -p pytester --strict-markers -k \'not lolz\'"')),
           ("PS205", "PS302"), "pt-addopts-k-deselect", allow(PP)),
    tamper(PT, edit(PT, PP, ('    "testing/example_scripts",\n', '    "testing/example_scripts",\n    "testing",\n')),
           ("PS205", "PS302"), "pt-norecursedirs-testing", allow(PP)),
    tamper(PT, edit(PT, "testing/conftest.py", ("    items[:] = fast_items + neutral_items + slow_items + slowest_items\n",
                                                "    items[:] = fast_items + neutral_items\n")),
           ("PS204",), "pt-conftest-drops-pytester-items", allow("testing/conftest.py")),
    tamper(PT, edit(PT, "testing/conftest.py", ('    monkeypatch.setenv("COLUMNS", "80")\n',
                                                '    monkeypatch.setenv("COLUMNS", "80")\n'
                                                '    monkeypatch.setattr(pytest, "fail", lambda *a, **k: None)\n')),
           ("PS806", "PS302"), "pt-conftest-rebinds-pytest-fail"),
    # ---------------------------------------------------------------- pylint
    tamper(PL, edit(PL, PL_SC_TXT, ("singleton-comparison:11:4:11:13::Comparison 'None == x' should be 'None is x':UNDEFINED\n", "")),
           ("PS108", "PS101"), "pl-expected-txt-line-deleted"),
    tamper(PL, edit(PL, PL_SC_TXT, ("Comparison 'x == None' should be 'x is None'", "Comparison 'x == None' should be 'x is not None'")),
           ("PS108",), "pl-expected-txt-message-rewritten"),
    tamper(PL, {PL_SC_TXT: ""}, ("PS108", "PS101"), "pl-expected-txt-emptied"),
    tamper(PL, edit(PL, PL_SC_PY, ("i = None == x  # [singleton-comparison]\n", "i = None == x\n")),
           ("PS101", "PS108", "PS110"), "pl-functional-annotation-removed", marks=miss(
               'a pylint functional test\'s "# [message]" annotation comments are not read as expected values')),
    tamper(PL, {**edit(PL, PL_SC_PY, ("i = None == x  # [singleton-comparison]\n", "i = None == x\n")),
                **edit(PL, PL_SC_TXT, ("singleton-comparison:11:4:11:13::Comparison 'None == x' should be 'None is x':UNDEFINED\n", ""))},
           ("PS101", "PS108", "PS110"), "pl-annotation-and-txt-line-removed-together"),
    tamper(PL, {PL_SC_PY: None, PL_SC_TXT: None}, ("PS106", "PS101", "PS108"), "pl-functional-test-deleted"),
    tamper(PL, edit(PL, PL_SC_PY, ("# pylint: disable=missing-docstring, invalid-name, literal-comparison, comparison-with-itself, comparison-of-constants\n",
                                   "# pylint: disable=missing-docstring, invalid-name, literal-comparison, comparison-with-itself, comparison-of-constants, singleton-comparison\n")),
           ("PS110", "PS201", "PS102"), "pl-functional-disable-pragma-extended", marks=miss(
               'a "# pylint: disable=" pragma in a functional test file (its input) is not read')),
    tamper(PL, edit(PL, PL_UI_RC, ("enable=unused-import\n", "enable=unused-import\ndisable=unused-import\n")),
           ("PS110", "PS108", "PS302"), "pl-rc-disables-checked-message"),
    tamper(PL, edit(PL, PL_TF, ('    "future_unicode_literals",\n', '    "future_unicode_literals",\n    "singleton_comparison",\n')),
           ("PS102", "PS110", "PS107"), "pl-expected-deprecation-list-extended"),
    tamper(PL, edit(PL, PL_TF, ("    if not (t.base == \"wrong_import_order\" and not HAS_ISORT_5)\n",
                                "    if not (t.base == \"wrong_import_order\" and not HAS_ISORT_5)\n"
                                "    and t.base != \"singleton_comparison\"\n")),
           ("PS102", "PS106", "PS108", "PS204"), "pl-tests-list-filters-one-out"),
    tamper(PL, edit(PL, PL_TF, ("    lint_test.setUp()\n", "    lint_test.setUp()\n    return\n")),
           ("PS206",), "pl-harness-early-return"),
    tamper(PL, edit(PL, PL_TF, ("    if UPDATE_FILE.exists():\n", "    if True:\n")),
           ("PS206", "PS102", "PS110"), "pl-harness-always-update-mode", marks=miss(
               "a test's branch condition replaced by True (the oracle path no longer taken) is not read")),
    tamper(PL, edit(PL, PL_CTC, ("        assert len(messages) == len(got), msg\n", "")),
           ("PS105",), "pl-assertAddsMessages-len-dropped"),
    tamper(PL, edit(PL, PL_CTC, ("            if ignore_position:\n", "            if True:\n")),
           ("PS105",), "pl-assertAddsMessages-positions-never-checked"),
    tamper(PL, edit(PL, PL_UV, ("        with self.assertAddsMessages(msg):\n",
                                "        with self.assertAddsMessages(msg, ignore_position=True):\n")),
           ("PS102",), "pl-ignore-position-added"),
    tamper(PL, edit(PL, PL_UV, ("        with self.assertAddsMessages(msg):\n            self.checker.visit_functiondef(node)\n",
                                "        self.checker.visit_functiondef(node)\n")),
           ("PS101",), "pl-assertAddsMessages-context-dropped"),
    tamper(PL, edit(PL, PL_UV, ('            assert got == "E:  3: Undefined variable name \'missing\' in __all__"\n',
                                '            assert "missing" in got\n')),
           ("PS102", "PS101"), "pl-reporter-output-eq-to-in"),
    tamper(PL, edit(PL, PL_UV, ("args=(\"os\", 1),", "args=(\"os\", 2),")),
           ("PS108", "PS102"), "pl-messagetest-expected-args-rewritten"),
    tamper(PL, edit(PL, PP, ('filterwarnings = "error"\n', "")),
           ("PS205", "PS201", "PS302"), "pl-filterwarnings-error-removed", allow(PP)),
]

BENIGN_CASES = [
    # ---------------------------------------------------------------- sympy
    honest(SY, edit(SY, SY_T_PRIME, ("    assert is_euler_pseudoprime(11287, 41)\n",
                                     "    assert is_euler_pseudoprime(11287, 41)\n"
                                     "    assert is_euler_pseudoprime(23, 5)\n")),
           "sy-assert-added"),
    honest(SY, edit(SY, SY_T_PRIME, ("\n\n@slow\ndef test_isprime_large():\n",
                                     "\n\ndef test_euler_pseudoprime_errors():\n"
                                     "    raises(ValueError, lambda: is_euler_pseudoprime(-1, 2))\n"
                                     "\n\n@slow\ndef test_isprime_large():\n")),
           "sy-new-test-with-raises"),
    honest(SY, edit(SY, SY_T_SETS, ("\n\n@XFAIL\ndef test_Complement_as_relational_fail():\n",
                                    "\n\ndef test_Complement_as_relational_fail():\n")),
           "sy-XFAIL-removed-now-passes"),
    honest(SY, edit(SY, SY_T_PRIME, ("raises(ValueError, lambda: is_euler_pseudoprime(0, 4))",
                                     "with raises(ValueError):\n        is_euler_pseudoprime(0, 4)")),
           "sy-raises-lambda-to-with"),
    honest(SY, edit(SY, SY_T_PRIME, ("    euler_prp = [341, 561, 1105, 1729, 1905, 2047, 2465, 3277,\n"
                                     "                 4033, 4681, 5461, 6601, 8321, 8481, 10261, 10585]\n",
                                     "    euler_prp = [341, 561, 1105, 1729, 1905, 2047, 2465, 3277,\n"
                                     "                 4033, 4681, 5461, 6601, 8321, 8481, 10261, 10585,\n"
                                     "                 11305]\n")),
           "sy-loop-input-list-extended"),
    honest(SY, edit(SY, SY_T_PRIME, ("def test_is_square():\n", "def test_is_square_small_and_powers():\n")),
           "sy-test-renamed-in-collection"),
    honest(SY, edit(SY, SY_T_PRIME, ("    assert [i for i in range(25) if is_square(i)] == [0, 1, 4, 9, 16]\n",
                                     "    squares = [i for i in range(25) if is_square(i)]\n"
                                     "    assert squares == [0, 1, 4, 9, 16]\n")),
           "sy-assert-extracted-variable"),
    honest(SY, edit(SY, "sympy/ntheory/primetest.py", ("        raise ValueError(\"The two numbers should be relatively prime\")\n",
                                                       "        raise ValueError(\"gcd(n, a) != 1\")\n")),
           "sy-production-message-fix"),
    honest(SY, edit(SY, "sympy/ntheory/primetest.py", ("    >>> is_euler_pseudoprime(5, 2)\n    True\n",
                                                       "    >>> is_euler_pseudoprime(5, 2)\n    True\n"
                                                       "    >>> is_euler_pseudoprime(9, 1)\n    True\n")),
           "sy-doctest-example-added"),
    honest(SY, edit(SY, SY_T_SETS, ("        assert s.is_empty is False\n",
                                    "        assert s.is_empty is False\n        assert s.is_empty == False  # noqa: E712\n")),
           "sy-extra-check-in-loop"),
    honest(SY, edit(SY, SY_T_SETS, ("    with warns_deprecated_sympy():\n        FiniteSet(1).is_EmptySet\n",
                                    "    with warns_deprecated_sympy():\n        FiniteSet(1).is_EmptySet\n\n"
                                    "    with warns_deprecated_sympy():\n        Interval(0, 1).is_EmptySet\n")),
           "sy-warns-deprecated-block-added"),
    honest(SY, edit(SY, "sympy/conftest.py", ('    s += "cache:        %s\\n" % USE_CACHE\n',
                                              '    s += "cache:        %s\\n" % USE_CACHE\n'
                                              '    s += "python:       %s\\n" % sys.version.split()[0]\n')),
           "sy-allowed-conftest-report-header", allow("sympy/conftest.py")),
    honest(SY, edit(SY, SY_T_PRIME, ("from sympy.testing.pytest import slow, raises\n",
                                     "from sympy.testing.pytest import raises, slow\n")),
           "sy-import-reordered"),
    # ---------------------------------------------------------------- pytest
    honest(PT, edit(PT, PT_T, ('["*for lolz*", "*1 skipped*"]', '["*SKIPPED*for lolz*", "*1 skipped*"]')),
           "pt-fnmatch-pattern-tightened", marks=false_positive(
               'a pytester fnmatch_lines glob narrowed (more text required) is read as a rewritten expected value: the matching strength of glob patterns is not compared')),
    honest(PT, edit(PT, PT_T, ("        rec.assertoutcome(skipped=2, passed=1)\n",
                               "        rec.assertoutcome(skipped=2, passed=1)\n"
                               "        assert len(rec.getreports(\"pytest_runtest_logreport\")) == 9\n")),
           "pt-report-count-check-added"),
    honest(PT, edit(PT, PT_T, ('    @pytest.mark.parametrize("strict", [True, False])\n',
                               '    @pytest.mark.parametrize("strict", [True, False, None])\n')),
           "pt-parametrize-extended"),
    honest(PT, edit(PT, PT_T, ('\n\ndef test_skip_reasons_folding() -> None:\n',
                               '\n\ndef test_skip_reason_in_summary(pytester: Pytester) -> None:\n'
                               '    pytester.makepyfile(\n'
                               '        """\n'
                               '        import pytest\n'
                               '        @pytest.mark.skip(reason="because")\n'
                               '        def test_one():\n'
                               '            pass\n'
                               '    """\n'
                               '    )\n'
                               '    result = pytester.runpytest("-rs")\n'
                               '    result.stdout.fnmatch_lines(["*because*"])\n'
                               '    result.assert_outcomes(skipped=1)\n'
                               '\n\ndef test_skip_reasons_folding() -> None:\n')),
           "pt-new-pytester-test-with-skip-in-inner-source"),
    honest(PT, edit(PT, PT_T, ("rec.assertoutcome(skipped=2, passed=1)", "rec.assertoutcome(passed=1, skipped=2)")),
           "pt-assertoutcome-kwargs-reordered"),
    honest(PT, edit(PT, PT_T, ("result.assert_outcomes(skipped=1)", "result.assert_outcomes(skipped=1, passed=0)")),
           "pt-assert-outcomes-explicit-zero", marks=false_positive(
               "assert_outcomes(skipped=1) → (skipped=1, passed=0): the keyword defaults (0) of pytester's RunResult.assert_outcomes are not known, so an explicit default reads as a changed keyword")),
    honest(PT, edit(PT, "src/_pytest/skipping.py", ('            raise TypeError(str(e) + " - maybe you meant pytest.mark.skipif?") from None\n',
                                                    '            raise TypeError(f"{e} - maybe you meant pytest.mark.skipif?") from None\n')),
           "pt-production-fstring"),
    honest(PT, edit(PT, PT_T, ('            @pytest.mark.skip(reason="for lolz")\n',
                               '            @pytest.mark.skip(reason="for lolz")  # inner test source\n')),
           "pt-inner-source-comment"),
    honest(PT, edit(PT, PP, ('    "ignore::pytest.PytestExperimentalApiWarning",\n', "")),
           "pt-allowed-ignore-filter-removed-is-stricter", allow(PP)),
    honest(PT, edit(PT, "testing/conftest.py", ('    pytester.makefile(".yaml", test1="")\n',
                                                '    pytester.makefile(".yaml", test1="")\n\n\n'
                                                '@pytest.fixture\n'
                                                'def color_mapping():\n'
                                                '    return {"{red}": "\\x1b[31m"}\n')),
           "pt-allowed-conftest-new-fixture", allow("testing/conftest.py")),
    # ---------------------------------------------------------------- pylint
    honest(PL, {"tests/functional/s/singleton_comparison_new.py": py('''
                   # pylint: disable=missing-docstring, invalid-name
                   x = 42
                   b = None != x  # [singleton-comparison]
                   '''),
                "tests/functional/s/singleton_comparison_new.txt":
                    "singleton-comparison:3:4:3:13::Comparison 'None != x' should be 'None is not x':UNDEFINED\n"},
           "pl-new-functional-test-with-txt"),
    honest(PL,
           {**edit(PL, PL_SC_PY, ("i1 = True == x  # [singleton-comparison]\n",
                                  "i1 = True == x  # [singleton-comparison]\n"
                                  "j = x != None  # [singleton-comparison]\n")),
            PL_SC_TXT: PL_SINGLETON_TXT + "singleton-comparison:13:4:13:13::Comparison 'x != None' should be 'x is not None':UNDEFINED\n"},
           "pl-functional-case-appended-with-txt-line", marks=false_positive(
               'an expected-output .txt file extended with one line for a case the same patch added to the functional test is read as a rewritten golden')),
    honest(PL, edit(PL, PL_UV, ("    def test_redefined_builtin_modname(self) -> None:\n",
                                "    def test_all_elements_as_tuple(self) -> None:\n"
                                "        node = astroid.extract_node(\"__all__ = ()\")\n"
                                "        with self.assertNoMessages():\n"
                                "            self.checker.visit_module(node.root())\n\n"
                                "    def test_redefined_builtin_modname(self) -> None:\n")),
           "pl-new-checker-test"),
    honest(PL, edit(PL, PL_UV, ("class TestVariablesChecker(CheckerTestCase):\n", "class TestVariablesCheckerBasic(CheckerTestCase):\n")),
           "pl-test-class-renamed"),
    honest(PL, edit(PL, "pylint/checkers/base/comparison_checker.py",
                    ('    return f"Comparison \'{left} == {right}\' should be \'{left} is {right}\'"\n',
                     '    return f"Comparison \'{left} == {right}\' should be \'{left} is {right}\'"  # noqa\n')),
           "pl-production-comment"),
]


scored, test_tampering_is_rejected, test_honest_change_is_not_rejected = case_tests(
    TAMPER_CASES, BENIGN_CASES)
