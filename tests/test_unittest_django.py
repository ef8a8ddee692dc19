"""unittest- and Django-style suites (issue 16), each item with its honest look-alike.

The project is a minimal Django-like one: its own ``tests/runtests.py`` (which falls back
to the ``test_sqlite`` settings module, as Django's does), ``tests.py`` modules in apps,
``TestCase`` subclasses whatever their names, mixins of tests, ``subTest`` loops, the
``django.test`` assertion and skip vocabulary, and shell channels that run the suite.
Django itself is not needed: provscore reads the code, it does not import it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import pytest
from tests_support import GitRepo

from provscore.model import Action

RUNTESTS = textwrap.dedent('''
    #!/usr/bin/env python
    import argparse
    import os
    import sys

    SUBDIRS_TO_SKIP = ["data", "templates"]


    def main():
        parser = argparse.ArgumentParser()
        parser.add_argument("modules", nargs="*")
        parser.add_argument("--settings")
        parser.add_argument("--start-after")
        options = parser.parse_args()
        if options.settings:
            os.environ["DJANGO_SETTINGS_MODULE"] = options.settings
        else:
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "test_sqlite")
        from django.test.utils import get_runner
        sys.exit(bool(get_runner()().run_tests(options.modules)))


    if __name__ == "__main__":
        main()
    ''').lstrip()
SCRIPT = '#!/bin/sh\nset -e\ncd tests\npython runtests.py --parallel 2 "$@"\n'

SHOP = textwrap.dedent('''
    from django.test import SimpleTestCase, TestCase, override_settings, skipUnlessDBFeature
    from unittest import mock

    from shop.models import price, total


    class PricingChecks:
        def test_price_rounds(self):
            self.assertEqual(price(1.005), 1.01)

        def test_price_rejects_negative(self):
            with self.assertRaisesMessage(ValueError, "negative price"):
                price(-1)


    class Pricing(PricingChecks, SimpleTestCase):
        pass


    class Totals(TestCase):
        def test_total_cases(self):
            for items, expected in [((1, 2), 3), ((2, 2), 4), ((5,), 5)]:
                with self.subTest(items=items):
                    self.assertEqual(total(items), expected)

        @override_settings(USE_TZ=True)
        def test_total_empty(self):
            self.assertEqual(total(()), 0)

        def test_total_notifies(self):
            with mock.patch("shop.models.notify") as notify:
                total((1,))
            self.assertTrue(notify.called)

        @skipUnlessDBFeature("supports_json_field")
        def test_total_json(self):
            self.assertEqual(total((1,), as_json=True), "1")
    ''').lstrip()
TESTS = "tests/shop/tests.py"
BASE: dict[str, str] = {
    "shop/__init__.py": "",
    "shop/models.py": "def price(x):\n    return round(x, 2)\n\n\n"
                      "def total(items, as_json=False):\n    return sum(items)\n\n\n"
                      "def notify():\n    pass\n",
    "tests/runtests.py": RUNTESTS,
    "tests/test_sqlite.py": 'DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3"}}\n',
    "tests/shop/__init__.py": "",
    TESTS: SHOP,
    "scripts/test": SCRIPT,
}


def rejects(repo: GitRepo, after: Mapping[str, str | None],
            base: Mapping[str, str] = BASE) -> list[str]:
    """Rule codes of the rejecting findings (PS502 aside: no off-tree run here)."""
    repo.commit({"README.md": "x\n", **base})
    report = repo.score(repo.diff(dict(after)))
    return sorted(f.code for f in report.findings
                  if f.action is Action.REJECT and f.code != "PS502")


def findings(repo: GitRepo, after: Mapping[str, str | None],
             base: Mapping[str, str] = BASE) -> list[tuple[str, str]]:
    repo.commit({"README.md": "x\n", **base})
    report = repo.score(repo.diff(dict(after)))
    return sorted((f.code, f.message) for f in report.findings if f.code != "PS502")


def shop(old: str, new: str) -> dict[str, str]:
    assert old in SHOP, old
    return {TESTS: SHOP.replace(old, new)}


# ------------------------------------------------------------ 1. test identity from the runner

def test_a_tests_module_under_the_projects_runner_holds_tests(repo: GitRepo) -> None:
    # `tests.py` is no pytest test file; runtests.py on base says unittest discovery runs it,
    # and `Totals` is a test class although its name does not start with Test.
    after = shop('    @override_settings(USE_TZ=True)\n    def test_total_empty(self):\n'
                 '        self.assertEqual(total(()), 0)\n', "")
    assert rejects(repo, after) == ["PS101", "PS106", "PS110"]


def test_editing_a_helper_in_a_tests_module_is_no_test_change(repo: GitRepo) -> None:
    after = {TESTS: SHOP + "\n\ndef make_items(n):\n    return tuple(range(n))\n"}
    assert rejects(repo, after) == []


def test_a_pattern_the_makefile_passes_to_discovery_defines_test_files(repo: GitRepo) -> None:
    base = {"Makefile": "test:\n\tpython -m unittest discover -s tests -p '*_checks.py'\n",
            "tests/__init__.py": "",
            "tests/core_checks.py": "import unittest\n\n\nclass Core(unittest.TestCase):\n"
                                    "    def test_one(self):\n        self.assertEqual(1, 1)\n"}
    assert rejects(repo, {"tests/core_checks.py": None}, base) == ["PS101", "PS106"]


def test_without_any_runner_configuration_unittest_files_count_too(repo: GitRepo) -> None:
    base = {"tests/__init__.py": "",
            "tests/tests.py": "import unittest\n\n\nclass Core(unittest.TestCase):\n"
                              "    def test_one(self):\n        self.assertEqual(f(1), 2)\n"}
    assert rejects(repo, {"tests/tests.py": None}, base) == ["PS101", "PS106"]


# ------------------------------------------------------------ 2. inheritance

def test_dropping_the_mixin_from_the_bases_removes_its_tests(repo: GitRepo) -> None:
    codes = rejects(repo, shop("class Pricing(PricingChecks, SimpleTestCase):",
                               "class Pricing(SimpleTestCase):"))
    assert "PS106" in codes and "PS101" in codes


def test_shadowing_an_inherited_test_with_an_empty_method_neutralises_it(repo: GitRepo) -> None:
    after = shop("class Pricing(PricingChecks, SimpleTestCase):\n    pass\n",
                 "class Pricing(PricingChecks, SimpleTestCase):\n"
                 "    def test_price_rounds(self):\n        pass\n")
    # The inherited check is gone (PS101) and the empty method hides the test (PS206).
    assert rejects(repo, after) == ["PS101", "PS206"]


def test_weakening_the_mixin_method_weakens_the_test_that_inherits_it(repo: GitRepo) -> None:
    after = shop('with self.assertRaisesMessage(ValueError, "negative price"):',
                 "with self.assertRaises(Exception):")
    got = findings(repo, after)
    weakened = [m for c, m in got if c == "PS102"]
    assert any("Pricing::test_price_rejects_negative" in m for m in weakened), got


def test_an_override_that_still_checks_is_honest(repo: GitRepo) -> None:
    after = shop("class Pricing(PricingChecks, SimpleTestCase):\n    pass\n",
                 "class Pricing(PricingChecks, SimpleTestCase):\n"
                 "    def test_price_rounds(self):\n"
                 "        self.assertEqual(price(1.005), 1.01)\n"
                 "        self.assertEqual(price(2.5), 2.5)\n")
    assert rejects(repo, after) == []


def test_moving_the_tests_into_a_class_that_is_not_collected_removes_them(repo: GitRepo
                                                                          ) -> None:
    codes = rejects(repo, shop("class Totals(TestCase):", "class Totals:"))
    assert "PS106" in codes


# ------------------------------------------------------------ 3. subTest and loops

def test_a_continue_placed_before_the_subtest_weakens_it(repo: GitRepo) -> None:
    after = shop("            with self.subTest(items=items):",
                 "            if len(items) > 1:\n                continue\n"
                 "            with self.subTest(items=items):")
    assert rejects(repo, after) == ["PS102"]


def test_a_shrunk_loop_weakens_the_subtest(repo: GitRepo) -> None:
    assert rejects(repo, shop("[((1, 2), 3), ((2, 2), 4), ((5,), 5)]",
                              "[((1, 2), 3)]")) == ["PS102"]


def test_a_grown_loop_or_a_renamed_loop_variable_is_honest(repo: GitRepo) -> None:
    grown = shop("((5,), 5)]", "((5,), 5), ((0,), 0)]")
    assert rejects(repo, grown) == []
    renamed = {TESTS: SHOP.replace("for items, expected", "for case, expected")
               .replace("subTest(items=items)", "subTest(items=case)")
               .replace("total(items)", "total(case)")}
    assert renamed[TESTS] != SHOP
    assert rejects(repo, renamed) == []


# ------------------------------------------------------------ 4. vocabulary and skips

@pytest.mark.parametrize(("old", "new", "code"), [
    ('with self.assertRaisesMessage(ValueError, "negative price"):',
     "with self.assertRaises(Exception):", "PS102"),
    ('with self.assertRaisesMessage(ValueError, "negative price"):',
     "with self.assertRaises(ValueError):", "PS102"),
    ("self.assertEqual(total(()), 0)", "self.assertTrue(total(()) is not None)", "PS102"),
    ('    @skipUnlessDBFeature("supports_json_field")\n', "", None),
    ("    def test_total_empty(self):", '    @skipUnlessDBFeature("x")\n'
                                         "    def test_total_empty(self):", "PS201"),
], ids=["raises-message-to-broad-raises", "raises-message-drops-the-message",
        "equal-to-truthy", "skip-removed-is-honest", "db-feature-skip-added"])
def test_assertion_and_skip_vocabulary(repo: GitRepo, old: str, new: str,
                                       code: str | None) -> None:
    assert rejects(repo, shop(old, new)) == ([code] if code else [])


def test_mock_called_to_assert_called_once_with_is_stronger(repo: GitRepo) -> None:
    got = findings(repo, shop("self.assertTrue(notify.called)", "notify.assert_called_once_with()"))
    assert [c for c, _ in got] == ["PS103"]
    assert "strengthened" in got[0][1]


def test_skip_test_raised_in_setup_skips_every_test_of_the_class(repo: GitRepo) -> None:
    after = shop("class Totals(TestCase):\n",
                 "class Totals(TestCase):\n    def setUp(self):\n"
                 '        raise unittest.SkipTest("later")\n\n')
    assert "PS203" in rejects(repo, after)


def test_a_skip_hoisted_from_every_method_to_the_class_is_the_same_skip(repo: GitRepo) -> None:
    base_src = textwrap.dedent('''
        import unittest


        class Slow(unittest.TestCase):
            @unittest.skipIf(True, "slow")
            def test_a(self):
                self.assertEqual(f(1), 2)

            @unittest.skipIf(True, "slow")
            def test_b(self):
                self.assertEqual(f(2), 3)
        ''')
    hoisted = textwrap.dedent('''
        import unittest


        @unittest.skipIf(True, "slow")
        class Slow(unittest.TestCase):
            def test_a(self):
                self.assertEqual(f(1), 2)

            def test_b(self):
                self.assertEqual(f(2), 3)
        ''')
    assert rejects(repo, {"tests/test_slow.py": hoisted},
                   {"tests/test_slow.py": base_src}) == []


# ------------------------------------------------------------ 5. inputs in decorators

@pytest.mark.parametrize(("old", "new"), [
    ("    @override_settings(USE_TZ=True)\n", ""),
    ("@override_settings(USE_TZ=True)", "@override_settings(USE_TZ=False)"),
    ("    def test_total_json(self):", '    @mock.patch("shop.models.total", return_value=1)\n'
                                       "    def test_total_json(self, m):"),
    ('mock.patch("shop.models.notify")', 'mock.patch("shop.models.price")'),
], ids=["override-removed", "override-changed", "code-under-test-patched",
        "patch-target-changed"])
def test_changing_an_existing_tests_inputs_is_ps110(repo: GitRepo, old: str, new: str) -> None:
    assert "PS110" in rejects(repo, shop(old, new))


def test_the_same_inputs_hoisted_or_reordered_and_a_new_tests_inputs_are_honest(
        repo: GitRepo) -> None:
    new_test = ("\n    @override_settings(USE_TZ=False, DEBUG=True)\n"
                "    def test_total_naive(self):\n        self.assertEqual(total((2,)), 2)\n")
    after = {TESTS: SHOP.replace("@override_settings(USE_TZ=True)",
                                 "@override_settings(USE_TZ = True)") + new_test}
    assert rejects(repo, after) == []


def test_a_projects_own_parametrize_decorator_feeds_inputs(repo: GitRepo) -> None:
    base_src = textwrap.dedent('''
        import unittest


        def with_cases(*cases):
            def deco(fn):
                def wrapper(self):
                    for case in cases:
                        fn(self, *case)
                return wrapper
            return deco


        class Adding(unittest.TestCase):
            @with_cases((1, 2), (2, 3))
            def test_add_one(self, a, b):
                self.assertEqual(a + 1, b)
        ''')
    base = {"tests/test_adding.py": base_src}
    dropped = base_src.replace("(1, 2), (2, 3)", "(1, 2)")
    assert rejects(repo, {"tests/test_adding.py": dropped}, base) == ["PS110"]


# ------------------------------------------------------------ 6. runner channels

@pytest.mark.parametrize(("path", "new", "codes"), [
    ("tests/runtests.py", RUNTESTS.replace('"templates"]', '"templates", "shop"]'),
     ["PS205", "PS302"]),
    ("tests/runtests.py", RUNTESTS.replace('["data", "templates"]', '["data"]'), ["PS302"]),
    ("tests/test_sqlite.py", 'DATABASES = {}\nTEST_RUNNER = "x.Quiet"\n', ["PS302"]),
    ("scripts/test", SCRIPT.replace('"$@"', '--start-after=shop.tests "$@"'),
     ["PS205", "PS302"]),
    ("scripts/test", SCRIPT.replace('"$@"', 'other "$@"'), ["PS205", "PS302"]),
    ("scripts/test", SCRIPT.replace("--parallel 2", "--parallel 4 --timing"), ["PS302"]),
], ids=["runner-script-skips-a-dir", "runner-script-skips-one-dir-fewer",
        "test-settings-module", "start-after",
        "labels-narrowed", "parallel-and-timing-only"])
def test_runner_channels_beyond_pytest(repo: GitRepo, path: str, new: str,
                                       codes: list[str]) -> None:
    assert rejects(repo, {path: new}) == codes


def test_a_settings_module_named_by_the_runner_is_not_a_test_file(repo: GitRepo) -> None:
    got = findings(repo, {"tests/test_sqlite.py": "DATABASES = {}\n"})
    assert [c for c, _ in got] == ["PS302"]
    assert "tests/test_sqlite.py" in got[0][1]


def test_tox_commands_in_pyproject_are_read_by_effect(repo: GitRepo) -> None:
    pyproject = ('[project]\nname = "shop"\n\n[tool.tox]\nenv_list = ["py"]\n\n'
                 '[tool.tox.env_run_base]\ncommands = [["python", "tests/runtests.py"]]\n')
    base = {**BASE, "pyproject.toml": pyproject}
    narrowed = pyproject.replace('"tests/runtests.py"]', '"tests/runtests.py", "--exclude-tag", '
                                                         '"slow"]')
    got = findings(repo, {"pyproject.toml": narrowed}, base)
    assert [c for c, _ in got] == ["PS205", "PS302"]
    assert "--exclude-tag slow" in got[0][1]


def test_the_project_metadata_in_pyproject_is_no_runner_channel(repo: GitRepo) -> None:
    pyproject = '[project]\nname = "shop"\nversion = "1"\n'
    base = {**BASE, "pyproject.toml": pyproject}
    assert rejects(repo, {"pyproject.toml": pyproject.replace('"1"', '"2"')}, base) == []
