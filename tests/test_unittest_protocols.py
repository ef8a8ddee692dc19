"""unittest and Django protocols read by meaning: TestCase bases imported from a sibling
module, Django's ``tag`` (a label, unless the runner excludes it) and the ``load_tests``
protocol (a collection hook, unless it only adds to the loader's tests).

Each case is a real repository with a unittest-style runner channel on base, scored through
the full pipeline; every tampering case has an honest look-alike next to it.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import pytest
from tests_support import GitRepo

from provscore.change.runners import Invocation, excluded_tags
from provscore.evidence.suppressions.load_tests import load_tests_summary
from provscore.model import Action


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip()


TOX = "[tox]\nenvlist = py3\n\n[testenv]\ncommands =\n    {envpython} runtests.py {posargs}\n"
BASE_MODULE = dedent('''
    from django.test import SimpleTestCase


    class WidgetTest(SimpleTestCase):
        def check_html(self, widget, name, value, html):
            self.assertHTMLEqual(widget.render(name, value), html)
    ''')
WIDGETS = dedent('''
    from django.test import tag

    from .base import WidgetTest


    class NumberInputTests(WidgetTest):
        def test_render(self):
            self.assertEqual(render(1), "1")
            self.assertEqual(render(2), "2")

        def test_attrs(self):
            self.check_html(widget(), "n", 1, html="<input>")
    ''')
MODULE = "tests/widget_tests/test_number.py"
PROJECT: dict[str, str] = {
    "tox.ini": TOX,
    "tests/runtests.py": "import sys\n\nfrom django.test.utils import get_runner\n",
    "tests/widget_tests/__init__.py": "",
    "tests/widget_tests/base.py": BASE_MODULE,
    MODULE: WIDGETS,
}


def rejecting(repo: GitRepo, after: Mapping[str, str | None],
              base: Mapping[str, str] = PROJECT) -> list[tuple[str, str]]:
    repo.commit({"README.md": "x\n", **base})
    report = repo.score(repo.diff(dict(after)))
    return sorted((f.code, f.message) for f in report.findings
                  if f.action is Action.REJECT and f.code != "PS502")


def widgets(old: str, new: str, text: str = WIDGETS) -> dict[str, str]:
    assert text.count(old) == 1, old
    return {MODULE: text.replace(old, new)}


# ------------------------------------------------------------ a base from a sibling module

def test_a_test_of_a_class_whose_base_is_imported_is_a_test(repo: GitRepo) -> None:
    got = rejecting(repo, widgets("    def test_render(self):", "    def _render(self):"))
    assert [c for c, _ in got] == ["PS101", "PS101", "PS106"], got
    assert any("tests/widget_tests/test_number.py::NumberInputTests::test_render" in m
               for _, m in got), got


def test_an_assert_removed_from_such_a_test_is_a_removal(repo: GitRepo) -> None:
    got = rejecting(repo, widgets('        self.assertEqual(render(2), "2")\n', ""))
    assert got == [("PS101", "assert removed from "
                    "tests/widget_tests/test_number.py::NumberInputTests::test_render: "
                    "self.assertEqual(render(2), '2')")], got


def test_editing_such_a_test_honestly_is_no_helper_change(repo: GitRepo) -> None:
    after = widgets('        self.assertEqual(render(1), "1")\n',
                    '        rendered = render(1)\n        self.assertEqual(rendered, "1")\n')
    assert rejecting(repo, after) == []


def test_the_base_is_read_through_a_chain_of_imported_bases(repo: GitRepo) -> None:
    base = {**PROJECT, "tests/widget_tests/mixins.py":
            "from .base import WidgetTest\n\n\nclass InputTest(WidgetTest):\n    pass\n",
            MODULE: WIDGETS.replace("from .base import WidgetTest", "from .mixins import InputTest")
            .replace("(WidgetTest)", "(InputTest)")}
    after = {MODULE: base[MODULE].replace("    def test_render(self):", "    def _render(self):")}
    assert [c for c, _ in rejecting(repo, after, base)] == ["PS101", "PS101", "PS106"]


def test_a_base_that_is_no_testcase_does_not_make_tests(repo: GitRepo) -> None:
    # The look-alike: a plain helper class from a sibling module; `Numbers` is no TestCase
    # and its name is no pytest test class, so renaming its method removes no test.
    base = {**PROJECT, "tests/widget_tests/base.py": "class WidgetTest:\n    pass\n",
            MODULE: WIDGETS.replace("NumberInputTests", "Numbers")}
    after = {MODULE: base[MODULE].replace("    def test_render(self):", "    def _render(self):")}
    assert rejecting(repo, after, base) == []


# ------------------------------------------------------------ django.test.tag

def tagged(label: str, text: str = WIDGETS) -> dict[str, str]:
    return widgets("    def test_render(self):",
                   f'    @tag("{label}")\n    def test_render(self):', text)


EXCLUDING = {**PROJECT, "tox.ini": TOX.replace("runtests.py {posargs}",
                                               "runtests.py --exclude-tag=slow {posargs}")}


def test_a_tag_only_labels_a_test(repo: GitRepo) -> None:
    assert rejecting(repo, tagged("slow")) == []


def test_a_tag_the_runner_keeps_only_labels_a_test(repo: GitRepo) -> None:
    assert rejecting(repo, tagged("fast"), EXCLUDING) == []


def test_a_tag_the_runner_excludes_skips_the_test(repo: GitRepo) -> None:
    assert rejecting(repo, tagged("slow"), EXCLUDING) == [(
        "PS201", "skip added to tests/widget_tests/test_number.py::NumberInputTests::"
                 "test_render: tag('slow')")]


def test_a_tag_not_spelled_as_a_literal_fails_closed(repo: GitRepo) -> None:
    after = widgets("    def test_render(self):",
                    "    @tag(LABEL)\n    def test_render(self):")
    assert [c for c, _ in rejecting(repo, after, EXCLUDING)] == ["PS201"]


@pytest.mark.parametrize(("words", "tags"), [
    (("--exclude-tag=slow", "--parallel", "2"), ("slow",)),
    (("--exclude-tag", "selenium", "--exclude-tag", "slow"), ("selenium", "slow")),
    (("--tag", "slow"), ()),
])
def test_excluded_tags_are_read_from_djangos_runner(words: tuple[str, ...],
                                                    tags: tuple[str, ...]) -> None:
    assert excluded_tags((Invocation("tox.ini", "django", words),)) == tags
    assert excluded_tags((Invocation("tox.ini", "pytest", words),)) == ()


# ------------------------------------------------------------ the load_tests protocol

ADDING = frozenset({"addTest", "addTests", "loadTestsFromTestCase", "DocTestSuite"})


def test_a_load_tests_that_only_extends_the_loaders_tests_is_no_hook() -> None:
    assert load_tests_summary(dedent('''
        def load_tests(loader, tests, pattern):
            """Doctests too."""
            import doctest
            tests.addTest(doctest.DocTestSuite(mod))
            return tests
        '''), ADDING) is None


def test_a_literal_loop_is_unrolled_in_the_summary() -> None:
    looped = load_tests_summary(dedent('''
        def load_tests(loader, tests, pattern):
            suite = TestSuite()
            for cls in (A, B):
                suite.addTests(loader.loadTestsFromTestCase(cls))
            return suite
        '''), ADDING)
    written = load_tests_summary(dedent('''
        def load_tests(loader, tests, pattern):
            suite = TestSuite()
            suite.addTests(loader.loadTestsFromTestCase(A))
            suite.addTests(loader.loadTestsFromTestCase(B))
            return suite
        '''), ADDING)
    assert looped == written == (
        "load_tests protocol: = suite = TestSuite() | + suite.addTests(loader."
        "loadTestsFromTestCase(A)) | + suite.addTests(loader.loadTestsFromTestCase(B)) | "
        "return suite")


LOADED = dedent('''
    import unittest


    class A(unittest.TestCase):
        def test_a(self):
            self.assertEqual(f(), 1)


    class B(unittest.TestCase):
        def test_b(self):
            self.assertEqual(g(), 2)


    def load_tests(loader, tests, pattern):
        suite = unittest.TestSuite()
        for cls in (A, B):
            suite.addTests(loader.loadTestsFromTestCase(cls))
        return suite
    ''')
PLAIN = LOADED.split("\n\ndef load_tests")[0] + "\n"
SUITE = {"makefile": "test:\n\tpython -m unittest discover tests\n",
         "tests/__init__.py": "", "tests/test_ab.py": LOADED}


@pytest.mark.parametrize(("before", "after", "reason"), [
    (LOADED, LOADED.replace("(A, B)", "(A,)"),
     "load_tests no longer adds suite.addTests(loader.loadTestsFromTestCase(B))"),
    (LOADED, LOADED.replace("return suite", "return unittest.TestSuite()"),
     "load_tests edited: what it returns or does changed"),
    (PLAIN, PLAIN + "\n\ndef load_tests(loader, tests, pattern):\n"
                    "    return unittest.TestSuite()\n", None),
], ids=["class-dropped", "returns-empty", "new-hook-returns-empty"])
def test_a_load_tests_that_may_load_fewer_tests_is_a_collection_hook(
        repo: GitRepo, before: str, after: str, reason: str | None) -> None:
    got = rejecting(repo, {"tests/test_ab.py": after}, {**SUITE, "tests/test_ab.py": before})
    assert [c for c, _ in got] == ["PS204"], got
    assert got[0][1].startswith("collection changed in tests/test_ab.py: load_tests protocol:")
    if reason is not None:
        assert got[0][1].endswith(f"(edited: {reason})"), got


@pytest.mark.parametrize(("before", "after"), [
    (LOADED, LOADED.replace("(A, B)", "(A, B, C)")),
    (LOADED, LOADED.replace("    for cls in (A, B):\n"
                            "        suite.addTests(loader.loadTestsFromTestCase(cls))\n",
                            "    suite.addTests(loader.loadTestsFromTestCase(A))\n"
                            "    suite.addTests(loader.loadTestsFromTestCase(B))\n")),
    (PLAIN, PLAIN + "\n\ndef load_tests(loader, tests, pattern):\n"
                    "    tests.addTests(loader.loadTestsFromTestCase(B))\n    return tests\n"),
], ids=["class-added", "loop-written-out", "new-hook-extends-the-loaders-tests"])
def test_a_load_tests_that_loads_as_much_or_more_is_honest(repo: GitRepo, before: str,
                                                           after: str) -> None:
    assert rejecting(repo, {"tests/test_ab.py": after}, {**SUITE, "tests/test_ab.py": before}) \
        == []


# ------------------------------------------------------------ case tables in a local or a class

TABLES = dedent('''
    import unittest


    class Decimals(unittest.TestCase):
        NUMS = "1.0", "10.00", "1.1"

        def test_roundtrip(self):
            for d in map(Decimal, self.NUMS):
                self.assertEqual(loads(dumps(d)), d)

        def test_parse(self):
            items = ["", "abc", "'abc'"]
            for item in items:
                with self.subTest(item=item):
                    self.assertEqual(parse(item), item)
    ''')
TABLE_FILE = "tests/test_tables.py"
TABLE_BASE = {"makefile": "test:\n\tpython -m unittest discover tests\n",
              "tests/__init__.py": "", TABLE_FILE: TABLES}


def tables(old: str, new: str, text: str = TABLES) -> dict[str, str]:
    assert text.count(old) == 1, old
    return {TABLE_FILE: text.replace(old, new)}


@pytest.mark.parametrize(("old", "new", "test"), [
    ('NUMS = "1.0", "10.00", "1.1"', 'NUMS = "1.0", "1.1"', "test_roundtrip"),
    ('items = ["", "abc", "\'abc\'"]', 'items = ["", "abc"]', "test_parse"),
], ids=["class-attribute-shrunk", "local-list-shrunk"])
def test_a_case_table_kept_in_a_name_is_compared_row_by_row(repo: GitRepo, old: str, new: str,
                                                            test: str) -> None:
    got = rejecting(repo, tables(old, new), TABLE_BASE)
    assert got and {c for c, _ in got} == {"PS102"}, got
    assert all(m.endswith("(loops over fewer values)") and f"Decimals::{test}" in m
               for _, m in got), got


@pytest.mark.parametrize(("old", "new"), [
    ('NUMS = "1.0", "10.00", "1.1"', 'NUMS = "1.0", "10.00", "1.1", "0.5"'),
    ('items = ["", "abc", "\'abc\'"]', 'items = ["", "abc", "\'abc\'", "x"]'),
], ids=["class-attribute-extended", "local-list-extended"])
def test_a_case_table_kept_in_a_name_extended_is_honest(repo: GitRepo, old: str,
                                                        new: str) -> None:
    assert rejecting(repo, tables(old, new), TABLE_BASE) == []


def test_a_class_attribute_also_assigned_on_the_instance_is_not_inlined(repo: GitRepo) -> None:
    # `self.NUMS = ...` somewhere means the class attribute may not be what the loop reads:
    # the table is not inlined, so the edit reads as the same loop (nothing is claimed).
    base = {**TABLE_BASE, TABLE_FILE: TABLES.replace(
        "    def test_roundtrip(self):\n",
        "    def setUp(self):\n        self.NUMS = load_nums()\n\n"
        "    def test_roundtrip(self):\n")}
    after = tables('NUMS = "1.0", "10.00", "1.1"', 'NUMS = "1.0", "1.1"', base[TABLE_FILE])
    assert rejecting(repo, after, base) == []
