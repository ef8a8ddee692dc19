"""Red team of focused classification (evidence/focus.py): every patch must find exactly
what classifying the whole touched files finds.

Each case commits a test module to a real repository, takes the real ``git diff`` of one
edit and scores it twice through the pipeline, focused (the default) and with
``whole_files``; the findings (code, action, message, location, node id, anchor) must be
identical. Cases marked ``expect`` also assert the rule the whole-file run reports, so an
empty comparison cannot pass. Modules excerpted from real projects name the project and
version they come from (sdists from PyPI; nothing is fetched at test time).

The failing cases (no xfail: they are bugs) each sit next to an honest look-alike that
reaches the same evidence directly and passes.
"""

from __future__ import annotations

import ast
import random
import re
import textwrap
from dataclasses import dataclass, field

import pytest
from tests_support import GitRepo

from provscore.evidence.focus import focus_pair

PKG = "HAS_X = True\n\n\ndef f(x):\n    return x\n"
PATH = "tests/test_mod.py"

Finding = tuple[object, ...]


def _findings(repo: GitRepo, diff: bytes, whole: bool) -> list[Finding]:
    report = repo.score(diff, whole_files=whole)
    return [(f.code, f.action.value, f.message, f.location, f.node_id, f.anchor)
            for f in report.findings]


def _both(repo: GitRepo, pre: str | bytes, post: str | bytes
          ) -> tuple[list[Finding], list[Finding]]:
    """(focused, whole) findings of the patch turning ``pre`` into ``post``."""
    repo.commit({"pkg.py": PKG, PATH: pre})
    diff = repo.diff({PATH: post})
    return _findings(repo, diff, False), _findings(repo, diff, True)


@dataclass(frozen=True)
class Case:
    name: str
    pre: str
    post: str
    expect: tuple[str, ...] = field(default=())  # codes the whole-file run must report


def _case(name: str, pre: str, old: str, new: str, *expect: str) -> Case:
    pre = textwrap.dedent(pre)
    assert pre.count(old) == 1, (name, old)
    return Case(name, pre, pre.replace(old, new), expect)


def _engages(pre: str | bytes, post: str | bytes) -> bool:
    """Whether focusing leaves definitions out (else both runs classify whole files)."""
    a = pre.encode() if isinstance(pre, str) else pre
    b = post.encode() if isinstance(post, str) else post
    return focus_pair(a, b, ast.parse(a), ast.parse(b)) is not None


def _check(repo: GitRepo, case: Case, *, engages: bool = True) -> None:
    assert _engages(case.pre, case.post) is engages
    focused, whole = _both(repo, case.pre, case.post)
    assert set(case.expect) <= {f[0] for f in whole}, whole
    assert focused == whole


# --- Differences found: each fails on the current code, next to its look-alike ---------
#
# Mechanism A: focus keeps every module-level statement, but a name *bound* by an
# unchanged module-level statement that refers to a changed name (``slow =
# pytest.mark.skipif(SKIP)`` after ``SKIP`` changed) is not followed to the definitions
# that use it, so the decorated test is blanked and its new skip is never reported.

MARK_ALIAS = '''\
    import pytest
    import pkg

    SKIP = False
    slow = pytest.mark.skipif(SKIP, reason="slow")


    @slow
    def test_a():
        assert pkg.f(1) == 1


    def test_b():
        assert pkg.f(2) == 2
    '''

NO_NET = '''\
    import pytest
    import pkg


    def _no_net():
        return False


    slow = pytest.mark.skipif(_no_net(), reason="slow")


    @slow
    def test_a():
        assert pkg.f(1) == 1


    def test_b():
        assert pkg.f(2) == 2
    '''

UNITTEST_ALIAS = '''\
    import unittest
    import pkg

    NO_X = False
    requires_x = unittest.skipIf(NO_X, "needs x")


    class TestA(unittest.TestCase):
        @requires_x
        def test_a(self):
            self.assertEqual(pkg.f(1), 1)


    class TestB(unittest.TestCase):
        def test_b(self):
            self.assertEqual(pkg.f(2), 2)
    '''

XFAIL_CHAIN = '''\
    import pytest
    import pkg

    xfail_all = pytest.mark.xfail(False, reason="x")
    maybe = xfail_all


    @maybe
    def test_a():
        assert pkg.f(1) == 1


    def test_b():
        assert pkg.f(2) == 2
    '''

# The shape of attrs 23.2.0 tests/test_slots.py (``from attr._compat import PYPY`` and
# ``@pytest.mark.skipif(PYPY, ...)``) with the mark bound once at module level.
IMPORTED_FLAG = '''\
    import pytest
    from pkg import HAS_X, f

    needs_x = pytest.mark.skipif(not HAS_X, reason="needs x")


    @needs_x
    def test_a():
        assert f(1) == 1


    def test_b():
        assert f(2) == 2
    '''

CLASS_PYTESTMARK = '''\
    import pytest
    import pkg

    SKIP = False
    slow = pytest.mark.skipif(SKIP, reason="slow")


    class TestA:
        pytestmark = slow

        def test_a(self):
            assert pkg.f(1) == 1


    def test_b():
        assert pkg.f(2) == 2
    '''

STRICT = '''\
    import pytest
    import pkg

    STRICT = True
    flaky = pytest.mark.xfail(reason="flaky", strict=STRICT)


    @flaky
    def test_a():
        assert pkg.f(1) == 1


    def test_b():
        assert pkg.f(2) == 2
    '''

METHOD_CHAIN = '''\
    import pytest
    import pkg

    slow = pytest.mark.skipif(False, reason="slow")
    very_slow = slow


    class TestA:
        @very_slow
        def test_a(self):
            assert pkg.f(1) == 1


    def test_b():
        assert pkg.f(2) == 2
    '''

# Mechanism B: a left-out definition is blanked from the line of its first decorator's
# *expression*; a decorator whose expression starts below its ``@`` (parenthesised, or
# continued with a backslash) leaves the ``@`` line behind, so both blanked images stop
# parsing: PS903 on both sides instead of the real findings.
PAREN_DECORATOR = '''\
    import pytest
    import pkg


    @(
        pytest.mark.slow
    )
    def test_a():
        assert pkg.f(1) == 1


    def test_b():
        assert pkg.f(2) == 2
    '''

# Mechanism C: Python reads identifiers NFKC-normalised (``\uff33TRICT`` is ``STRICT``), and
# so does the whole-file classifier where it resolves a mark's constant; focus matches raw
# words, so the test that spells the constant in fullwidth letters is blanked.
NFKC = STRICT.replace('flaky = pytest.mark.xfail(reason="flaky", strict=STRICT)\n\n\n    @flaky',
                      '@pytest.mark.xfail(reason="flaky", strict=\uff33TRICT)')

FAILING = [
    _case("const-through-mark-alias", MARK_ALIAS, "SKIP = False", "SKIP = True", "PS201"),
    _case("def-through-mark-alias", NO_NET, "    return False\n", "    return True\n",
          "PS201"),
    _case("const-through-unittest-skipif-alias", UNITTEST_ALIAS, "NO_X = False",
          "NO_X = True", "PS201"),
    _case("xfail-through-alias-chain", XFAIL_CHAIN, "xfail(False", "xfail(True", "PS202"),
    _case("import-replaced-by-const-through-mark-alias", IMPORTED_FLAG,
          "from pkg import HAS_X, f\n", "from pkg import f\n\nHAS_X = False\n", "PS201"),
    _case("const-through-class-pytestmark-alias", CLASS_PYTESTMARK, "SKIP = False",
          "SKIP = True", "PS201"),
    _case("strict-off-through-const", STRICT, "STRICT = True", "STRICT = False", "PS202"),
    _case("skip-through-alias-chain-on-method", METHOD_CHAIN, "skipif(False",
          "skipif(True", "PS201"),
    _case("paren-decorator-on-unchanged-test", PAREN_DECORATOR,
          "assert pkg.f(2) == 2", "assert pkg.f(2) == 3", "PS108"),
    _case("backslash-decorator-on-unchanged-test",
          PAREN_DECORATOR.replace("@(\n        pytest.mark.slow\n    )\n",
                                  "@\\\n    pytest.mark.slow\n"),
          "assert pkg.f(2) == 2", "assert pkg.f(2) == 3", "PS108"),
    _case("nfkc-spelled-const-in-mark", NFKC, "STRICT = True", "STRICT = False", "PS202"),
]


def _direct(src: str, alias: str, mark: str) -> str:
    """``src`` with the decorator ``@alias`` spelled out as ``@mark`` (and the alias gone)."""
    out = re.sub(rf"^ *{re.escape(alias)} = .*\n", "", textwrap.dedent(src), flags=re.M)
    return out.replace(f"@{alias}\n", f"@{mark}\n").replace(f"= {alias}\n", f"= {mark}\n")


LOOKALIKES = [  # the same evidence reached by its own name: focus keeps the test
    _case("lookalike-const-in-mark", _direct(MARK_ALIAS, "slow",
                                              'pytest.mark.skipif(SKIP, reason="slow")'),
          "SKIP = False", "SKIP = True", "PS201"),
    _case("lookalike-def-in-mark", _direct(NO_NET, "slow",
                                            'pytest.mark.skipif(_no_net(), reason="slow")'),
          "    return False\n", "    return True\n", "PS201"),
    _case("lookalike-const-in-unittest-skipif",
          _direct(UNITTEST_ALIAS, "requires_x", 'unittest.skipIf(NO_X, "needs x")'),
          "NO_X = False", "NO_X = True", "PS201"),
    _case("lookalike-xfail-alias-edited", XFAIL_CHAIN.replace("@maybe", "@xfail_all"),
          "xfail(False", "xfail(True", "PS202"),
    _case("lookalike-imported-flag-in-mark",
          _direct(IMPORTED_FLAG, "needs_x", 'pytest.mark.skipif(not HAS_X, reason="needs x")'),
          "from pkg import HAS_X, f\n", "from pkg import f\n\nHAS_X = False\n", "PS201"),
    _case("lookalike-const-in-class-pytestmark",
          _direct(CLASS_PYTESTMARK, "slow", 'pytest.mark.skipif(SKIP, reason="slow")'),
          "SKIP = False", "SKIP = True", "PS201"),
    _case("lookalike-strict-const-in-mark",
          _direct(STRICT, "flaky", 'pytest.mark.xfail(reason="flaky", strict=STRICT)'),
          "STRICT = True", "STRICT = False", "PS202"),
    _case("lookalike-skip-alias-on-method", METHOD_CHAIN.replace("@very_slow", "@slow"),
          "skipif(False", "skipif(True", "PS201"),
    _case("lookalike-ascii-spelled-const-in-mark", NFKC.replace("\uff33TRICT", "STRICT"),
          "STRICT = True", "STRICT = False", "PS202"),
    _case("lookalike-one-line-decorator-on-unchanged-test",
          PAREN_DECORATOR.replace("@(\n        pytest.mark.slow\n    )\n",
                                  "@pytest.mark.slow\n"),
          "assert pkg.f(2) == 2", "assert pkg.f(2) == 3", "PS108"),
]


FAIL = {c.name: c for c in FAILING}


def test_diff_const_through_mark_alias(repo: GitRepo) -> None:
    """A: a changed constant reaches the test only through a module-level mark alias."""
    _check(repo, FAIL["const-through-mark-alias"])


def test_diff_def_through_mark_alias(repo: GitRepo) -> None:
    """A: a changed helper def reaches the test only through a module-level mark alias."""
    _check(repo, FAIL["def-through-mark-alias"])


def test_diff_const_through_unittest_skipif_alias(repo: GitRepo) -> None:
    """A: a changed constant reaches a unittest method through a skipIf alias."""
    _check(repo, FAIL["const-through-unittest-skipif-alias"])


def test_diff_xfail_through_alias_chain(repo: GitRepo) -> None:
    """A: a changed mark reaches the test through a second module-level alias."""
    _check(repo, FAIL["xfail-through-alias-chain"])


def test_diff_import_replaced_by_const_through_mark_alias(repo: GitRepo) -> None:
    """A: an import turned into a constant reaches the test through a mark alias."""
    _check(repo, FAIL["import-replaced-by-const-through-mark-alias"])


def test_diff_const_through_class_pytestmark_alias(repo: GitRepo) -> None:
    """A: a changed constant reaches a class's pytestmark through a mark alias."""
    _check(repo, FAIL["const-through-class-pytestmark-alias"])


def test_diff_strict_off_through_const(repo: GitRepo) -> None:
    """A: xfail strict turned off through a constant the mark alias reads."""
    _check(repo, FAIL["strict-off-through-const"])


def test_diff_skip_through_alias_chain_on_method(repo: GitRepo) -> None:
    """A: a changed mark reaches a method through a second module-level alias."""
    _check(repo, FAIL["skip-through-alias-chain-on-method"])


def test_diff_paren_decorator_on_unchanged_test(repo: GitRepo) -> None:
    """B: blanking leaves the '@(' line of a parenthesised decorator behind."""
    _check(repo, FAIL["paren-decorator-on-unchanged-test"])


def test_diff_nfkc_spelled_const_in_mark(repo: GitRepo) -> None:
    """C: focus matches raw words, Python and the classifier NFKC-normalised names."""
    _check(repo, FAIL["nfkc-spelled-const-in-mark"])


def test_diff_backslash_decorator_on_unchanged_test(repo: GitRepo) -> None:
    """B: blanking leaves the '@\\' line of a continued decorator behind."""
    _check(repo, FAIL["backslash-decorator-on-unchanged-test"])


@pytest.mark.parametrize("case", LOOKALIKES, ids=[c.name for c in LOOKALIKES])
def test_focus_lookalike(repo: GitRepo, case: Case) -> None:
    """Honest look-alikes of the differences: the same evidence, reached directly."""
    _check(repo, case)


# --- Guards: edits an agent or an adversary makes, where focus must (and does) agree ----

GETATTR_HELPER = '''\
    import pkg


    def check_val(x):
        assert pkg.f(x) == x


    def test_a():
        globals()["check_val"](1)


    def test_b():
        assert pkg.f(2) == 2
    '''

DECORATOR_DEF = '''\
    import pytest
    import pkg


    def slow(fn):
        return fn


    @slow
    def test_a():
        assert pkg.f(1) == 1


    def test_b():
        assert pkg.f(2) == 2
    '''

MIXIN = '''\
    import unittest
    import pkg


    class Checks:
        def test_one(self):
            self.assertEqual(pkg.f(1), 1)


    Base = Checks


    class TestThing(Checks, unittest.TestCase):
        pass


    def test_b():
        assert pkg.f(2) == 2
    '''

GENERATED = '''\
    import pkg


    def _make(n):
        def t():
            assert pkg.f(n) == n
        return t


    for _n in range(3):
        globals()["test_gen_%d" % _n] = _make(_n)


    class TestX:
        pass


    def _check(self):
        assert pkg.f(3) == 3


    setattr(TestX, "test_c", _check)


    def test_b():
        assert pkg.f(2) == 2
    '''

ALIASED_HELPER = '''\
    import pkg


    def check_close(a, b):
        assert a == b


    chk = check_close


    def test_a(check=check_close):
        chk(pkg.f(1), 1)
        check(pkg.f(1), 1)


    class TestS:
        checker = staticmethod(check_close)

        def test_s(self):
            self.checker(1, 1)


    def test_b():
        assert pkg.f(2) == 2
    '''

FIXTURES = '''\
    import pytest
    import pkg


    @pytest.fixture
    def env():
        yield


    @pytest.mark.usefixtures("env")
    def test_a():
        assert pkg.f(1) == 1


    def test_n(env):
        assert pkg.f(1) == 1


    auto = pytest.fixture(autouse=True)


    @auto
    def _auto_env():
        yield


    def test_b():
        assert pkg.f(2) == 2
    '''

REDEFINED = '''\
    import pkg


    def test_a():
        assert pkg.f(1) == 1


    def test_b():
        assert pkg.f(2) == 2


    def test_a():
        assert pkg.f(3) == 3
    '''

CONDITIONAL = '''\
    import sys
    import pkg


    def check(x):
        assert pkg.f(x) == x


    if sys.version_info >= (3,):
        def test_a():
            check(1)


    try:
        import json
    except ImportError:
        json = None
    else:
        def test_j():
            check(json.loads("1"))


    class TestOuter:
        class TestBase:
            def test_x(self):
                assert pkg.f(1) == 1


    class TestSub(TestOuter.TestBase):
        pass


    def test_b():
        assert pkg.f(2) == 2
    '''

UNITTEST_CLASSES = '''\
    import unittest
    import pkg


    class TestA(unittest.TestCase):
        @classmethod
        def setUpClass(cls):
            cls.v = 1

        def test_a(self):
            self.assertEqual(pkg.f(self.v), 1)


    class TestB(unittest.TestCase):
        def test_b(self):
            self.assertEqual(pkg.f(2), 2)
    '''

WRAPPER = '''\
    import functools
    import pkg


    def tolerant(fn):
        @functools.wraps(fn)
        def inner(*a):
            return fn(*a)
        return inner


    @tolerant
    def test_a():
        assert pkg.f(1) == 2


    def test_b():
        assert pkg.f(2) == 2
    '''

PLAIN = '''\
    from pkg import f


    class TestA:
        def test_a(self):
            assert f(1) == 1


    def test_b():
        assert f(2) == 2
    '''

GUARDS = [
    _case("getattr-helper-gutted", GETATTR_HELPER, "    assert pkg.f(x) == x\n",
          "    pkg.f(x)\n", "PS105"),
    _case("decorator-def-now-skips", DECORATOR_DEF, "    return fn\n",
          "    return pytest.mark.skip(reason='x')(fn)\n", "PS201"),
    _case("mixin-test-gutted", MIXIN, "        self.assertEqual(pkg.f(1), 1)\n",
          "        pkg.f(1)\n", "PS101"),
    _case("globals-generated-gutted", GENERATED, "        assert pkg.f(n) == n\n",
          "        pkg.f(n)\n", "PS101"),
    _case("setattr-method-gutted", GENERATED, "    assert pkg.f(3) == 3\n",
          "    pkg.f(3)\n", "PS105"),
    _case("aliased-helper-gutted", ALIASED_HELPER, "    assert a == b\n", "    pass\n",
          "PS105"),
    _case("usefixtures-fixture-skips", FIXTURES, "def env():\n    yield\n",
          "def env():\n    pytest.skip('x')\n    yield\n", "PS203"),
    _case("autouse-alias-fixture-skips", FIXTURES, "def _auto_env():\n    yield\n",
          "def _auto_env():\n    pytest.skip('x')\n    yield\n", "PS203"),
    _case("second-definition-gutted", REDEFINED, "    assert pkg.f(3) == 3\n", "    pass\n",
          "PS101"),
    _case("first-definition-grows", REDEFINED, "    assert pkg.f(1) == 1\n",
          "    assert pkg.f(1) == 1\n    assert pkg.f(0) == 0\n"),
    _case("helper-of-conditional-tests-gutted", CONDITIONAL, "    assert pkg.f(x) == x\n",
          "    pkg.f(x)\n", "PS105", "PS101"),
    _case("nested-base-gutted", CONDITIONAL, "            assert pkg.f(1) == 1\n",
          "            pkg.f(1)\n", "PS101"),
    _case("setupclass-skips", UNITTEST_CLASSES, "        cls.v = 1\n",
          "        raise unittest.SkipTest('x')\n", "PS203"),
    _case("wrapper-swallows", WRAPPER, "        return fn(*a)\n",
          "        try:\n            return fn(*a)\n"
          "        except AssertionError:\n            pass\n", "PS206"),
    _case("class-collection-off", PLAIN, "class TestA:\n",
          "class TestA:\n    __test__ = False\n\n", "PS204"),
    _case("test-rebound-by-class", PLAIN, "    assert f(2) == 2\n",
          "    assert f(2) == 2\n\n\nclass test_b:\n    pass\n", "PS106"),
]
DUPLICATES = '''\
    import pkg


    def test_a():
        assert pkg.f(1) == 1
        assert pkg.f(2) == 2


    def test_c():
        assert pkg.f(2) == 2


    class TestK:
        def test_k(self):
            assert pkg.f(1) == 1
    '''

GUARDS += [
    _case("side-effect-skip-bound-to-name", UNITTEST_CLASSES, "import pkg\n",
          "import pkg\n\n_ = unittest.skip('x') and __import__('pytest').skip(\n"
          "    'x', allow_module_level=True)\n", "PS203"),
    _case("asserts-overridden-by-bound-setattr", UNITTEST_CLASSES, "import pkg\n",
          "import pkg\n\n_ = setattr(unittest.TestCase, 'assertEqual', lambda *a: None)\n",
          "PS206"),
    _case("assert-removed-while-a-twin-stays", DUPLICATES,
          "    assert pkg.f(1) == 1\n    assert pkg.f(2) == 2\n", "    assert pkg.f(1) == 1\n",
          "PS101"),
    _case("class-renamed", DUPLICATES, "class TestK:", "class TestK2:"),
]
WHOLE = [  # changes focus cannot follow by names, or that every test reaches: whole files
    # an imported module's attribute rebound at import for every test (PS110 on each)
    _case("module-attribute-rebound-by-bound-setattr", PLAIN, "from pkg import f\n",
          "from pkg import f\nimport pkg\n\n_ = setattr(pkg, 'f', lambda x: x)\n", "PS110"),
    _case("import-aliased-away", PLAIN, "from pkg import f\n",
          "from pkg import f as g\n\n\ndef f(x):\n    return 1\n"),
    _case("module-del-of-test", PLAIN, "    assert f(2) == 2\n",
          "    assert f(2) == 2\n\n\ndel test_b\n", "PS106"),
    _case("load-tests-added", UNITTEST_CLASSES, "        self.assertEqual(pkg.f(2), 2)\n",
          "        self.assertEqual(pkg.f(2), 2)\n\n\ndef load_tests(loader, tests, p):\n"
          "    return unittest.TestSuite()\n"),
    _case("shadowing-def-after-tests", PLAIN, "    assert f(2) == 2\n",
          "    assert f(2) == 2\n\n\ndef f(x):\n    return x\n"),
    _case("autouse-fixture-skips", FIXTURES, "auto = pytest.fixture(autouse=True)\n",
          "auto = pytest.fixture(autouse=True)\npytest.skip('x', allow_module_level=True)\n"),
]


@pytest.mark.parametrize("case", GUARDS, ids=[c.name for c in GUARDS])
def test_focus_guard(repo: GitRepo, case: Case) -> None:
    _check(repo, case)


@pytest.mark.parametrize("case", WHOLE, ids=[c.name for c in WHOLE])
def test_focus_falls_back(repo: GitRepo, case: Case) -> None:
    _check(repo, case, engages=False)


# --- Real modules: excerpts (trimmed, otherwise verbatim) and a sweep of single edits ---

# more-itertools 10.2.0, tests/test_recipes.py (lines 1-36 and 1012-1036).
MORE_ITERTOOLS = '''\
from decimal import Decimal
from doctest import DocTestSuite
from sys import version_info
from unittest import TestCase, skipIf

import more_itertools as mi


def load_tests(loader, tests, ignore):
    # Add the doctests
    tests.addTests(DocTestSuite('more_itertools.recipes'))
    return tests


class TakeTests(TestCase):
    """Tests for ``take()``"""

    def test_simple_take(self):
        """Test basic usage"""
        t = mi.take(5, range(10))
        self.assertEqual(t, [0, 1, 2, 3, 4])

    def test_null_take(self):
        """Check the null case"""
        t = mi.take(0, range(10))
        self.assertEqual(t, [])

    def test_negative_take(self):
        """Make sure taking negative items results in a ValueError"""
        self.assertRaises(ValueError, lambda: mi.take(-3, range(10)))


class TransposeTests(TestCase):
    def test_empty(self):
        it = []
        actual = list(mi.transpose(it))
        expected = []
        self.assertEqual(actual, expected)

    def test_basic(self):
        it = [(10, 11, 12), (20, 21, 22), (30, 31, 32)]
        actual = list(mi.transpose(it))
        expected = [(10, 20, 30), (11, 21, 31), (12, 22, 32)]
        self.assertEqual(actual, expected)

    @skipIf(version_info[:2] < (3, 10), 'strict=True missing on 3.9')
    def test_incompatible_error(self):
        it = [(10, 11, 12, 13), (20, 21, 22), (30, 31, 32)]
        with self.assertRaises(ValueError):
            list(mi.transpose(it))
'''

# python-dateutil 2.9.0, tests/test_isoparser.py (lines 1-68): a generator helper, module
# lists extended between the tests that read them.
DATEUTIL = '''\
# -*- coding: utf-8 -*-
from __future__ import unicode_literals

from datetime import datetime, timedelta, date, time
import itertools as it

from dateutil import tz
from dateutil.tz import UTC
from dateutil.parser import isoparser, isoparse

import pytest
import six


def _generate_tzoffsets(limited):
    def _mkoffset(hmtuple, fmt):
        h, m = hmtuple
        m_td = (-1 if h < 0 else 1) * m

        tzo = tz.tzoffset(None, timedelta(hours=h, minutes=m_td))
        return tzo, fmt.format(h, m)

    out = []
    if not limited:
        # The subset that's just hours
        hm_out_h = [(h, 0) for h in (-23, -5, 0, 5, 23)]
        out.extend([_mkoffset(hm, '{:+03d}') for hm in hm_out_h])
    else:
        hm_out = [(-5, -0)]

    fmts = ['{:+03d}:{:02d}', '{:+03d}{:02d}']
    out += [_mkoffset(hm, fmt) for hm in hm_out for fmt in fmts]

    # Also add in UTC and naive
    out.append((UTC, 'Z'))
    out.append((None, ''))

    return out

FULL_TZOFFSETS = _generate_tzoffsets(False)
FULL_TZOFFSETS_AWARE = [x for x in FULL_TZOFFSETS if x[1]]
TZOFFSETS = _generate_tzoffsets(True)

DATES = [datetime(1996, 1, 1), datetime(2017, 1, 1)]
@pytest.mark.parametrize('dt', tuple(DATES))
def test_year_only(dt):
    dtstr = dt.strftime('%Y')

    assert isoparse(dtstr) == dt

DATES += [datetime(2000, 2, 1), datetime(2017, 4, 1)]
@pytest.mark.parametrize('dt', tuple(DATES))
def test_year_month(dt):
    fmt   = '%Y-%m'
    dtstr = dt.strftime(fmt)

    assert isoparse(dtstr) == dt

DATES += [datetime(2016, 2, 29), datetime(2018, 3, 15)]
YMD_FMTS = ('%Y%m%d', '%Y-%m-%d')
@pytest.mark.parametrize('dt', tuple(DATES))
@pytest.mark.parametrize('fmt', YMD_FMTS)
def test_year_month_day(dt, fmt):
    dtstr = dt.strftime(fmt)

    assert isoparse(dtstr) == dt
'''

# packaging 24.0, tests/test_version.py (lines 1-21, VERSIONS cut to 4 of 80, 84-104).
PACKAGING = '''\
# This file is dual licensed under the terms of the Apache License, Version
# 2.0, and the BSD License. See the LICENSE file in the root of this repository
# for complete details.

import itertools
import operator

import pretend
import pytest

from packaging.version import InvalidVersion, Version, parse


def test_parse():
    assert isinstance(parse("1.0"), Version)


def test_parse_raises():
    with pytest.raises(InvalidVersion):
        parse("lolwat")


# This list must be in the correct sorting order
VERSIONS = [
    # Implicit epoch of 0
    "1.0.dev456",
    "1.0a1",
    "1!1.2.r32+123456",
    "1!1.2.rev33+123456",
]


class TestVersion:
    @pytest.mark.parametrize("version", VERSIONS)
    def test_valid_versions(self, version):
        Version(version)

    @pytest.mark.parametrize(
        "version",
        [
            # Non sensical versions should be invalid
            "french toast",
            # Versions with invalid local versions
            "1.0+a+",
            "1.0++",
        ],
    )
    def test_invalid_versions(self, version):
        with pytest.raises(InvalidVersion):
            Version(version)
'''

# attrs 23.2.0, tests/test_slots.py (lines 1-27, 481-495, 719-732).
ATTRS = '''\
# SPDX-License-Identifier: MIT

"""
Unit tests for slots-related functionality.
"""
import functools
import pickle
import weakref

from unittest import mock

import pytest

import attr
import attrs

from attr._compat import PY_3_8_PLUS, PYPY


# Pympler doesn't work on PyPy.
try:
    from pympler.asizeof import asizeof

    has_pympler = True
except BaseException:  # Won't be an import error.  # noqa: BLE001
    has_pympler = False


@pytest.mark.skipif(PYPY, reason="__slots__ only block weakref on CPython")
def test_not_weakrefable():
    """
    Instance is not weak-referenceable when `weakref_slot=False` in CPython.
    """

    @attr.s(slots=True, weakref_slot=False)
    class C:
        pass

    c = C()

    with pytest.raises(TypeError):
        weakref.ref(c)


@pytest.mark.skipif(not PY_3_8_PLUS, reason="cached_property is 3.8+")
def test_slots_cached_property_allows_call():
    """
    cached_property in slotted class allows call.
    """

    @attr.s(slots=True)
    class A:
        x = attr.ib()

        @functools.cached_property
        def f(self):
            return self.x

    assert A(11).f == 11
'''

REAL = {"more-itertools": MORE_ITERTOOLS, "dateutil": DATEUTIL, "packaging": PACKAGING,
        "attrs": ATTRS}

REAL_EDITS = [  # hand-picked edits of the real modules: (module, name, old, new, expect)
    ("attrs", "pypy-flag-shadowed", "from attr._compat import PY_3_8_PLUS, PYPY\n",
     "from attr._compat import PY_3_8_PLUS\n\nPYPY = True\n", ("PS201",)),
    ("attrs", "assert-dropped", "    assert A(11).f == 11\n", "    A(11).f\n", ("PS101",)),
    ("dateutil", "generator-emptied", "    return out\n", "    return []\n", ()),
    ("dateutil", "dates-extension-dropped",
     "DATES += [datetime(2000, 2, 1), datetime(2017, 4, 1)]\n", "", ()),
    ("dateutil", "expected-rewritten", "    fmt   = '%Y-%m'\n", "    fmt   = '%Y'\n", ()),
    ("packaging", "versions-cut", '    "1.0a1",\n', "", ("PS102",)),
    ("packaging", "raises-dropped",
     '    with pytest.raises(InvalidVersion):\n        parse("lolwat")\n', '    parse("1.0")\n',
     ("PS101",)),
    ("more-itertools", "skip-condition-flipped", "version_info[:2] < (3, 10)",
     "version_info[:2] >= (3, 10)", ("PS201",)),
    ("more-itertools", "load-tests-gutted",
     "    tests.addTests(DocTestSuite('more_itertools.recipes'))\n", "", ()),
]


@pytest.mark.parametrize(("module", "name", "old", "new", "expect"), REAL_EDITS,
                         ids=[f"{m}-{n}" for m, n, *_ in REAL_EDITS])
def test_real_module_edit(repo: GitRepo, module: str, name: str, old: str, new: str,
                          expect: tuple[str, ...]) -> None:
    pre = REAL[module]
    assert pre.count(old) == 1, name
    focused, whole = _both(repo, pre, pre.replace(old, new))
    assert set(expect) <= {f[0] for f in whole}, whole
    assert focused == whole


def _defs(source: str) -> list[tuple[int, int]]:
    """(first, last) 0-based line spans of the module's top-level defs and classes."""
    spans = []
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            spans.append((first - 1, (node.end_lineno or node.lineno) - 1))
    return spans


def _random_edit(source: str, rng: random.Random) -> str | None:
    """One edit of a kind an agent makes, or None when it does not leave valid Python."""
    lines = source.splitlines(keepends=True)
    spans = _defs(source)
    kind = rng.choice(["delete-line", "swap-defs", "duplicate-def", "edit-number",
                       "drop-def"])
    first, last = rng.choice(spans)
    if kind == "delete-line" and last > first:
        del lines[rng.randint(first + 1, last)]
    elif kind == "swap-defs" and len(spans) > 1:
        k = rng.randrange(len(spans) - 1)
        (a0, a1), (b0, b1) = spans[k], spans[k + 1]
        lines[a0:b1 + 1] = lines[b0:b1 + 1] + lines[a1 + 1:b0] + lines[a0:a1 + 1]
    elif kind == "duplicate-def":
        lines += ["\n", "\n", *lines[first:last + 1]]
    elif kind == "edit-number":
        numbered = [k for k, ln in enumerate(lines) if re.search(r"\b\d+\b", ln)]
        k = rng.choice(numbered)
        lines[k] = re.sub(r"\b(\d+)\b", lambda m: str(int(m.group(1)) + 1), lines[k],
                          count=1)
    elif kind == "drop-def":
        del lines[first:last + 1]
    out = "".join(lines)
    try:
        ast.parse(out)
    except SyntaxError:
        return None
    return out if out != source else None


SWEEP_EDITS = 6  # per module; raise locally to search harder (each edit scores twice)


@pytest.mark.parametrize("module", sorted(REAL))
def test_random_single_edits_of_real_modules(repo: GitRepo, module: str) -> None:
    pre = REAL[module]
    repo.commit({"pkg.py": PKG, PATH: pre})
    rng = random.Random(f"focus-{module}")
    tried = 0
    while tried < SWEEP_EDITS:
        post = _random_edit(pre, rng)
        if post is None:
            continue
        tried += 1
        diff = repo.diff({PATH: post})
        assert _findings(repo, diff, False) == _findings(repo, diff, True), post
