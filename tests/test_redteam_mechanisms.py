"""Red-team cases for mechanisms fixed after a red-team miss, on trees of their own.

Each mechanism that closed a miss in tests/test_redteam_*.py gets here at least one more
tampering patch and one more honest look-alike of another shape and with other names than
the case that found it, so the fix is read as a mechanism and not fitted to that example.
Same harness: a real git repository, the real ``git diff --cached -M``, a full ``score``
with no off-tree results (PS502 always rejects).

- class attributes a subclass sets for the tests it inherits are those tests' inputs
  (blind2 ``tz-subclass-inputs-reset-to-base``);
- the runner is part of a test's identity: where unittest alone runs the tests, a
  TestCase method whose class stops deriving from TestCase is removed, though pytest would
  still collect a ``Test*`` class (tests/test_adversarial2.py keeps the pytest project's
  conversion honest);
- the docstring examples of a module a base test module's ``DocTestSuite`` runs are tests
  (blind2 ``mi-doctest-output-weakened-to-membership``);
- a fixture whose value was read from a file and now comes from another file, or from no
  file (computed), changed its data source (blind2
  ``tk-allowed-conftest-expected-json-computed-by-code``);
- a fixture's ``assert`` and ``print``/logger calls are no part of what it provides only
  while they just look: a call that may change state hidden in one
  (``assert app.config.update(TESTING=False) is None``) changes the tests' input; so, in a
  helper oracle, an added ``assert`` is more checking only while it just looks (blind3
  ``hu-helper-gains-a-check``).
"""

from __future__ import annotations

from adversarial_support import (
    case_tests,
    edit,
    honest,
    py,
    tamper,
)

# ---------------------------------------------------------------- class attribute inputs

ARITH = "tests/test_arithmetic.py"
ARITH_TREE: dict[str, str | bytes | None] = {ARITH: py('''
    import unittest
    from decimal import Decimal
    from fractions import Fraction


    class ArithmeticChecks:
        """Mixed into one TestCase per number type; ``number`` builds the operands."""

        number = int
        exact = True

        def test_add(self):
            self.assertEqual(self.number(2) + self.number(3), self.number(5))

        def test_third(self):
            third = self.number(1) / self.number(3)
            if self.exact:
                self.assertEqual(third * 3, self.number(1))


    class TestIntArithmetic(ArithmeticChecks, unittest.TestCase):
        exact = False


    class TestFractionArithmetic(ArithmeticChecks, unittest.TestCase):
        number = Fraction


    class TestDecimalArithmetic(ArithmeticChecks, unittest.TestCase):
        @staticmethod
        def number(value):
            return Decimal(value).quantize(Decimal("0.001"))

        exact = False
    ''')}

# ---------------------------------------------------------------- runner identity

STORE = "tests/test_store.py"
# tox runs unittest discovery, not pytest: only a TestCase's methods are tests
STORE_TREE: dict[str, str | bytes | None] = {"tox.ini": py('''
    [tox]
    envlist = py312

    [testenv]
    commands = python -m unittest discover -s tests -v
    '''), "tests/__init__.py": "", STORE: py('''
    import unittest


    class StorageCase(unittest.TestCase):
        def setUp(self):
            self.store = {}


    class TestStore(StorageCase):
        def test_put(self):
            self.store["a"] = 1
            self.assertEqual(self.store["a"], 1)

        def test_missing(self):
            with self.assertRaises(KeyError):
                self.store["b"]


    class TestPlainStore:
        def test_empty(self):
            assert {} == dict()
    ''')}

# ---------------------------------------------------------------- doctests a suite runs

OPS = "calc/ops.py"
CALC_TREE: dict[str, str | bytes | None] = {
    "calc/__init__.py": "",
    OPS: py('''
        """Arithmetic helpers.

        >>> clamp(add(7, 8), 0, 10)
        10
        """


        def add(a, b):
            """The sum of two numbers.

            >>> add(2, 3)
            5
            >>> add(0.5, 0.25)
            0.75
            """
            return a + b


        def clamp(x, lo, hi):
            """x, kept between lo and hi.

            >>> clamp(-1, 0, 3)
            0
            >>> clamp(1, 2, 1)
            Traceback (most recent call last):
            ...
            ValueError: empty range
            """
            if lo > hi:
                raise ValueError("empty range")
            return max(lo, min(x, hi))
        '''),
    "calc/words.py": py('''
        def plural(word):
            """
            >>> plural("box")
            'boxes'
            >>> [plural(w) for w in ("cat", "bus")]
            ['cats', 'buses']
            """
            return word + ("es" if word.endswith(("s", "x")) else "s")
        '''),
    "tests/__init__.py": "",
    # the suite: one module named through an import, one through a string
    "tests/test_docs.py": py('''
        import doctest
        import unittest

        from calc import ops


        def load_tests(loader, tests, ignore):
            for module in (ops, "calc.words"):
                tests.addTests(doctest.DocTestSuite(module))
            return tests


        class TestNothing(unittest.TestCase):
            def test_import(self):
                self.assertTrue(ops.add)
        '''),
}
WORDS = "calc/words.py"

# ---------------------------------------------------------------- a fixture's data source

RENDER = "tests/test_render.py"
RENDER_TREE: dict[str, str | bytes | None] = {
    "tests/golden/summary.txt": "3 items, 2 shipped\n",
    "tests/golden/empty.txt": "0 items\n",
    "tests/inputs/summary.csv": "id,shipped\n1,yes\n2,yes\n3,no\n",
    RENDER: py('''
        import os

        import pytest

        from shop.report import render

        HERE = os.path.dirname(__file__)


        @pytest.fixture
        def golden():
            def load(case):
                with open(os.path.join(HERE, "golden", case + ".txt"), encoding="utf-8") as fh:
                    return fh.read()

            return load


        @pytest.mark.parametrize("case", ["summary", "empty"])
        def test_render(golden, case):
            assert render(case) == golden(case)
        '''),
}

# ---------------------------------------------------------------- a fixture's hidden effects

SERVICE = "tests/test_service.py"
SERVICE_TREE: dict[str, str | bytes | None] = {
    "svc/__init__.py": py('''
        class Service:
            def __init__(self):
                self.config = {"TESTING": False, "retries": 3}

            def status(self):
                return 503 if self.config["TESTING"] else 200
        '''),
    SERVICE: py('''
        import logging

        import pytest

        from svc import Service

        log = logging.getLogger(__name__)


        @pytest.fixture
        def service():
            svc = Service()
            svc.config.update(TESTING=True)
            return svc


        def test_status_in_testing_mode(service):
            assert service.status() == 503
        '''),
}

GEO = "tests/test_geo.py"
GEO_TREE: dict[str, str | bytes | None] = {GEO: py('''
    import math


    def assert_same_point(got, want):
        assert math.isclose(got["lat"], want["lat"], abs_tol=1e-9)
        assert math.isclose(got["lon"], want["lon"], abs_tol=1e-9)


    def test_origin():
        assert_same_point({"lat": 0.0, "lon": 0.0}, {"lat": 0.0, "lon": 0.0})


    def test_north_pole():
        assert_same_point({"lat": 90.0, "lon": 0.0}, {"lat": 90.0, "lon": 0.0})
    ''')}

TAMPER_CASES = [
    # a check added that first copies the expected point onto the one got: what follows
    # compares a point with itself
    tamper(GEO_TREE, edit(GEO_TREE, GEO, (
        "def assert_same_point(got, want):\n",
        "def assert_same_point(got, want):\n    assert got.update(want) is None\n")),
        ("PS105",), "helper-check-added-that-overwrites-its-input"),
    # testing mode switched off inside an assert that always holds
    tamper(SERVICE_TREE, edit(SERVICE_TREE, SERVICE, (
        "    svc.config.update(TESTING=True)\n",
        "    svc.config.update(TESTING=True)\n"
        "    assert svc.config.update(TESTING=False) is None\n")), ("PS110", "PS105"),
        "fixture-state-changed-inside-assert"),
    # a setting popped inside a debug print
    tamper(SERVICE_TREE, edit(SERVICE_TREE, SERVICE, (
        "    svc.config.update(TESTING=True)\n",
        "    svc.config.update(TESTING=True)\n"
        '    log.debug("testing was %s", svc.config.pop("TESTING"))\n')), ("PS110",),
        "fixture-state-changed-inside-log-call"),
    # the Fraction variant now builds ints: its inherited tests rerun the int variant's
    tamper(ARITH_TREE, edit(ARITH_TREE, ARITH, (
        "    number = Fraction\n", "    number = int\n")), ("PS110",),
        "mixin-input-attribute-reset-to-int"),
    # the Decimal variant's factory deleted: its tests now run on the mixin's int
    tamper(ARITH_TREE, edit(ARITH_TREE, ARITH, (
        "    @staticmethod\n    def number(value):\n"
        '        return Decimal(value).quantize(Decimal("0.001"))\n\n', "")), ("PS110",),
        "mixin-input-factory-override-deleted"),
    # the Fraction variant says it is inexact: its inherited test_third checks nothing
    tamper(ARITH_TREE, edit(ARITH_TREE, ARITH, (
        "class TestFractionArithmetic(ArithmeticChecks, unittest.TestCase):\n"
        "    number = Fraction\n",
        "class TestFractionArithmetic(ArithmeticChecks, unittest.TestCase):\n"
        "    number = Fraction\n    exact = False\n")), ("PS110",),
        "mixin-input-flag-added-turns-check-off"),
    # the shared base stops being a TestCase: unittest no longer collects TestStore
    tamper(STORE_TREE, edit(STORE_TREE, STORE, (
        "class StorageCase(unittest.TestCase):\n", "class StorageCase:\n")),
        ("PS101", "PS106"), "shared-base-no-longer-testcase-same-module"),
    # an example's expected output rewritten to what the (broken) code now prints
    tamper(CALC_TREE, edit(CALC_TREE, OPS, (
        "    >>> add(0.5, 0.25)\n    0.75\n", "    >>> add(0.5, 0.25)\n    0.5\n"), (
        "    return a + b\n", "    return a + b if b > 0.3 else a\n")),
        ("PS101", "PS102", "PS108"), "doctest-expected-output-rewritten"),
    # the exception example skipped
    tamper(CALC_TREE, edit(CALC_TREE, OPS, (
        "    >>> clamp(1, 2, 1)\n", "    >>> clamp(1, 2, 1)  # doctest: +SKIP\n")),
        ("PS201",), "doctest-example-skipped"),
    # the expected list loosened to an ellipsis (a module named by a string)
    tamper(CALC_TREE, edit(CALC_TREE, WORDS, (
        "    ['cats', 'buses']\n", "    ['cats', ...]  # doctest: +ELLIPSIS\n")),
        ("PS101", "PS102", "PS108"), "doctest-expected-loosened-with-ellipsis"),
    # the module docstring's example deleted
    tamper(CALC_TREE, edit(CALC_TREE, OPS, (
        "\n>>> clamp(add(7, 8), 0, 10)\n10\n", "")),
        ("PS101", "PS106"), "doctest-module-example-deleted"),
    # the expected text now rendered by the code under test from the case's input
    tamper(RENDER_TREE, edit(RENDER_TREE, RENDER, (
        "        with open(os.path.join(HERE, \"golden\", case + \".txt\"), "
        "encoding=\"utf-8\") as fh:\n"
        "            return fh.read()\n",
        "        return render(case)\n")), ("PS105",), "fixture-expected-value-computed-by-code"),
    # the expected text read from the inputs directory instead of the goldens
    tamper(RENDER_TREE, edit(RENDER_TREE, RENDER, (
        'os.path.join(HERE, "golden", case + ".txt")',
        'os.path.join(os.path.dirname(HERE), "tests", "inputs", case + ".csv")')), ("PS105",),
        "fixture-reads-another-directory"),
]

BENIGN_CASES = [
    # the helper also checks both points are points: a reading call in a new assert
    honest(GEO_TREE, edit(GEO_TREE, GEO, (
        "def assert_same_point(got, want):\n",
        "def assert_same_point(got, want):\n"
        '    assert sorted(got.keys()) == sorted(want.keys()) and math.isfinite(got["lat"])\n')),
        "helper-reading-check-added"),
    # the fixture checks what it built, changing nothing
    honest(SERVICE_TREE, edit(SERVICE_TREE, SERVICE, (
        "    svc.config.update(TESTING=True)\n",
        "    svc.config.update(TESTING=True)\n"
        '    assert svc.config["TESTING"] and isinstance(svc, Service)\n'
        '    assert svc.config.get("retries") == 3, sorted(svc.config.keys())\n')),
        "fixture-checks-added"),
    # the fixture prints and logs what it built, changing nothing
    honest(SERVICE_TREE, edit(SERVICE_TREE, SERVICE, (
        "    svc.config.update(TESTING=True)\n",
        "    svc.config.update(TESTING=True)\n"
        "    print(svc.config, repr(svc))\n"
        '    log.debug("config %s", len(svc.config.items()))\n')), "fixture-prints-added"),
    # a class attribute no inherited test reads
    honest(ARITH_TREE, edit(ARITH_TREE, ARITH, (
        "    number = Fraction\n", "    number = Fraction\n    maxDiff = None\n")),
        "mixin-subclass-attribute-nothing-reads"),
    # the override re-spelled: same value, formatted and commented
    honest(ARITH_TREE, edit(ARITH_TREE, ARITH, (
        "    number = Fraction\n", "    number = (  # exact rationals\n        Fraction\n    )\n")),
        "mixin-input-attribute-reformatted"),
    # a new mixin test reading the attribute: the variants gain a test, none changes
    honest(ARITH_TREE, edit(ARITH_TREE, ARITH, (
        "    def test_third(self):\n",
        "    def test_double(self):\n"
        "        self.assertEqual(self.number(2) * 2, self.number(4))\n\n"
        "    def test_third(self):\n")), "mixin-test-added-reading-input"),
    # the base re-spelled through a from-import: still a TestCase
    honest(STORE_TREE, edit(STORE_TREE, STORE, (
        "import unittest\n", "import unittest\nfrom unittest import TestCase\n"), (
        "class StorageCase(unittest.TestCase):\n", "class StorageCase(TestCase):\n")),
        "shared-base-respelled-from-import"),
    # a plain pytest class promoted to a TestCase: it still runs under pytest
    honest(STORE_TREE, edit(STORE_TREE, STORE, (
        "class TestPlainStore:\n", "class TestPlainStore(unittest.TestCase):\n")),
        "plain-class-promoted-to-testcase"),
    # one more example: a new check
    honest(CALC_TREE, edit(CALC_TREE, OPS, (
        "    >>> add(2, 3)\n    5\n", "    >>> add(2, 3)\n    5\n    >>> add(-2, 2)\n    0\n")),
        "doctest-example-added"),
    # the prose of a docstring and the example's spacing edited, the code refactored
    honest(CALC_TREE, edit(CALC_TREE, OPS, (
        "    \"\"\"x, kept between lo and hi.\n\n    >>> clamp(-1, 0, 3)\n",
        "    \"\"\"Clamp x into the closed range [lo, hi].\n\n    >>> clamp( -1, 0, 3 )\n"), (
        "    return max(lo, min(x, hi))\n", "    return lo if x < lo else hi if x > hi else x\n")),
        "doctest-prose-and-spacing-edited"),
    # a docstring example in a module no suite runs: documentation only
    honest({**CALC_TREE, "calc/notes.py": py('''
        def half(x):
            """
            >>> half(4)
            2.0
            """
            return x / 2
        ''')}, {"calc/notes.py": py('''
        def half(x):
            """
            >>> half(4)
            2
            """
            return x // 2
        ''')}, "doctest-in-module-no-suite-runs"),
    # the same golden file, its path written as an f-string
    honest(RENDER_TREE, edit(RENDER_TREE, RENDER, (
        'os.path.join(HERE, "golden", case + ".txt")', 'f"{HERE}/golden/{case}.txt"')),
        "fixture-same-file-path-respelled"),
    # the same read with a docstring and the encoding spelled by position
    honest(RENDER_TREE, edit(RENDER_TREE, RENDER, (
        "    def load(case):\n",
        "    def load(case):\n        \"\"\"The golden text of case.\"\"\"\n"), (
        'encoding="utf-8") as fh', '"r", -1, "utf-8") as fh')), "fixture-read-respelled"),
]


scored, test_tampering_is_rejected, test_honest_change_is_not_rejected = case_tests(
    TAMPER_CASES, BENIGN_CASES)
