"""Call arguments bound to parameter names (evidence/binding.py), unit and end to end.

A framework assertion binds to its row of ``[signatures]`` in rules/patterns.toml, a
project helper to its def; the canonical call has the operands by position, the options by
keyword, arguments at their literal default and message wording dropped. What cannot be
bound exactly keeps its spelling, so it still reads as a changed call.
"""

from __future__ import annotations

import ast
import textwrap

import pytest
from tests_support import GitRepo

from provscore.evidence.binding import (
    Signature,
    bound_code,
    signatures_from_table,
    with_sorted_keywords,
)
from provscore.model import Action
from provscore.registry.load import load_registry

SIGNATURES = signatures_from_table(load_registry().pattern("signatures"))


def canon(code: str, method: str | None = None, sig: Signature | None = None) -> str:
    if sig is None:
        assert method is not None
        sig = SIGNATURES[method]
    return bound_code(code, sig)


# ------------------------------------------------------------------ the binding itself

@pytest.mark.parametrize(("code", "expected"), [
    # a keyword at its default is the bare call
    ("self.assertContains(r, 'x', status_code=200)", "self.assertContains(r, 'x')"),
    ("self.assertContains(r, 'x', None, 200)", "self.assertContains(r, 'x')"),
    # a keyword away from its default stays, by keyword, in signature order
    ("self.assertContains(r, 'x', html=True, status_code=404)",
     "self.assertContains(r, 'x', status_code=404, html=True)"),
    ("self.assertContains(r, 'x', 2)", "self.assertContains(r, 'x', count=2)"),
    # an operand by keyword is the operand by position
    ("self.assertContains(text='x', response=r)", "self.assertContains(r, 'x')"),
    # message wording never decides the outcome
    ("self.assertContains(r, 'x', msg_prefix='page')", "self.assertContains(r, 'x')"),
])
def test_assertContains_binds_to_its_signature(code: str, expected: str) -> None:
    assert canon(code, "assertContains") == expected


def test_operands_with_defaults_are_filled_and_trimmed() -> None:
    # transform is the third operand of assertQuerySetEqual (operands = 3)
    assert canon("self.assertQuerySetEqual(qs, v, transform=f, ordered=False)",
                 "assertQuerySetEqual") == "self.assertQuerySetEqual(qs, v, f, ordered=False)"
    assert canon("self.assertQuerySetEqual(qs, v, None)",
                 "assertQuerySetEqual") == "self.assertQuerySetEqual(qs, v)"
    # assertTemplateUsed's operands have defaults; by keyword they are still operands
    assert canon("self.assertTemplateUsed(response=r, template_name='t.html', count=1)",
                 "assertTemplateUsed") == "self.assertTemplateUsed(r, 't.html', count=1)"


def test_a_default_that_is_no_literal_is_never_dropped() -> None:
    # assertQuerysetEqual's transform default differs between Django versions (UNKNOWN)
    assert canon("self.assertQuerysetEqual(qs, v, transform=None)",
                 "assertQuerysetEqual") == "self.assertQuerysetEqual(qs, v, None)"


def test_places_given_by_position_is_the_places_keyword() -> None:
    assert canon("self.assertAlmostEqual(a, b, 3)", "assertAlmostEqual") == \
        "self.assertAlmostEqual(a, b, places=3)"
    assert canon("self.assertAlmostEqual(a, b, delta=0.1, msg='m')", "assertAlmostEqual") == \
        "self.assertAlmostEqual(a, b, delta=0.1)"


def test_varargs_keep_every_positional_argument_in_place() -> None:
    assert canon("self.assertRaises(ValueError, f, 1, key=2)", "assertRaises") == \
        "self.assertRaises(ValueError, f, 1, key=2)"
    assert canon("self.assertRaises(ValueError, msg='why')", "assertRaises") == \
        "self.assertRaises(ValueError)"
    assert canon("self.assertNumQueries(2, f, 1, using='other')", "assertNumQueries") == \
        "self.assertNumQueries(2, f, 1, using='other')"
    assert canon("self.assertNumQueries(2, using='default')", "assertNumQueries") == \
        "self.assertNumQueries(2)"


@pytest.mark.parametrize("code", [
    "self.assertEqual(*args)",                       # unpacking at the call
    "self.assertEqual(a, b, **options)",
    "self.assertEqual(a, b, 'm', 'extra')",          # too many positional arguments
    "self.assertEqual(a, b, places=2)",              # a keyword the method does not take
    "self.assertEqual(a, first=b)",                  # a parameter given twice
    "self.assertEqual(a)",                           # a required operand missing
])
def test_a_call_that_cannot_be_bound_keeps_its_spelling(code: str) -> None:
    assert canon(code, "assertEqual") == code


def test_a_message_that_calls_something_is_kept() -> None:
    # Formatting is wording; any other call runs when the check runs and stays part of it.
    assert canon("self.assertEqual(a, b, msg='%s' % (a,))", "assertEqual") == \
        "self.assertEqual(a, b)"
    assert canon("self.assertEqual(a, b, msg=f'{a!r}'.format())", "assertEqual") == \
        "self.assertEqual(a, b)"
    assert canon("self.assertEqual(a, b, msg=record(a))", "assertEqual") == \
        "self.assertEqual(a, b, msg=record(a))"


def test_a_helper_binds_every_positional_parameter_as_an_operand() -> None:
    sig = Signature.parse("self, values, expected, method, flag=False, *, strict=True",
                          skip_first=True)
    assert sig is not None
    sig = Signature(sig.params, 4)
    assert canon("self.check(v, e, method='m')", sig=sig) == "self.check(v, e, 'm')"
    assert canon("self.check(v, e, 'm', flag=False, strict=True)", sig=sig) == \
        "self.check(v, e, 'm')"
    assert canon("self.check(v, e, 'm', strict=False)", sig=sig) == \
        "self.check(v, e, 'm', strict=False)"
    # no wording is known for a helper: its msg is an argument like any other
    assert canon("self.check(v, e, 'm', msg='x')", sig=sig) == "self.check(v, e, 'm', msg='x')"


def test_every_signature_row_parses_and_names_real_parameters() -> None:
    assert len(SIGNATURES) >= 70
    for name, sig in SIGNATURES.items():
        assert sig.operands <= len(sig.params), name
        assert all(p.name.isidentifier() for p in sig.params), name
    with pytest.raises(ValueError, match=r"\[signatures.methods\] bad: cannot parse"):
        signatures_from_table({"methods": {"bad": "a, b=, c"}})


def test_binding_output_is_valid_python() -> None:
    out = canon("self.assertContains(r, text='x', count=2, html=True)", "assertContains")
    assert isinstance(ast.parse(out, mode="eval").body, ast.Call)


# ------------------------------------------------------------------ end to end

SUITE = textwrap.dedent('''
    from django.test import SimpleTestCase


    class Pages(SimpleTestCase):
        def check_page(self, path, expected, status=200):
            response = self.client.get(path)
            self.assertEqual(response.status_code, status)
            self.assertContains(response, expected)

        def test_home(self):
            response = self.client.get("/")
            self.assertContains(response, "Welcome")

        def test_list(self):
            response = self.client.get("/list/")
            self.assertTemplateUsed(response, "list.html")

        def test_rows(self):
            self.assertQuerySetEqual(Row.objects.all(), [1, 2], lambda r: r.n, ordered=False)

        def test_mean(self):
            self.assertAlmostEqual(mean([1, 2]), 1.5, places=2)

        def test_not_mean(self):
            self.assertNotAlmostEqual(mean([1, 2]), 1.6, places=2)

        def test_about(self):
            self.check_page("/about/", "About us")
    ''').lstrip()
PATH = "tests/test_pages.py"


def rejecting(repo: GitRepo, old: str, new: str) -> list[tuple[str, str]]:
    assert SUITE.count(old) == 1, old
    repo.commit({"README.md": "x\n", PATH: SUITE})
    report = repo.score(repo.diff({PATH: SUITE.replace(old, new)}))
    return sorted((f.code, f.message) for f in report.findings
                  if f.action is Action.REJECT and f.code != "PS502")


@pytest.mark.parametrize(("old", "new"), [
    ('self.assertContains(response, "Welcome")',
     'self.assertContains(response, "Welcome", status_code=200, html=False)'),
    ('self.assertContains(response, "Welcome")',
     'self.assertContains(response=response, text="Welcome", msg_prefix="home")'),
    ("[1, 2], lambda r: r.n, ordered=False", "[1, 2], transform=lambda r: r.n, ordered=False"),
    ('self.check_page("/about/", "About us")', 'self.check_page("/about/", expected="About us")'),
    ('self.check_page("/about/", "About us")', 'self.check_page("/about/", "About us", 200)'),
    # a count where the bare call checks "at least once" pins more
    ('self.assertTemplateUsed(response, "list.html")',
     'self.assertTemplateUsed(response, "list.html", count=1)'),
    # places=2 allows 0.005: delta=0.001 is tighter, places=3 (0.0005) too
    ("1.5, places=2)", "1.5, delta=0.001)"),
    ("1.5, places=2)", "1.5, delta=0.005)"),
    # assertNotAlmostEqual: a wider tolerance is the stronger check
    ("1.6, places=2)", "1.6, places=1)"),
    # dropping places=2 falls back to places=7: tighter
    ("1.5, places=2)", "1.5)"),
], ids=["default-spelled-out", "operands-by-keyword", "transform-by-keyword",
        "helper-argument-by-keyword", "helper-default-by-position", "count-added",
        "places-to-tighter-delta", "places-to-equal-delta", "not-almost-wider",
        "places-dropped"])
def test_the_same_or_a_stronger_call_is_honest(repo: GitRepo, old: str, new: str) -> None:
    assert rejecting(repo, old, new) == []


@pytest.mark.parametrize(("old", "new", "finding"), [
    ('self.assertContains(response, "Welcome")',
     'self.assertContains(response, "Welcome", status_code=404)',
     ("PS102", "unittest_assert changed in tests/test_pages.py::Pages::test_home: "
      "self.assertContains(self.client.get('/'), 'Welcome') → self.assertContains(response, "
      "'Welcome', status_code=404) (keyword status_code changed)")),
    # count=0 is "never": another check, not a pinned count
    ('self.assertTemplateUsed(response, "list.html")',
     'self.assertTemplateUsed(response, "list.html", count=0)',
     ("PS108", "expected value rewritten in tests/test_pages.py::Pages::test_list: "
      "self.assertTemplateUsed(self.client.get('/list/'), 'list.html') → "
      "self.assertTemplateUsed(response, 'list.html', count=0) (count changed (None → 0))")),
    ("1.5, places=2)", "1.5, delta=0.01)",
     ("PS102", "unittest_assert weakened in tests/test_pages.py::Pages::test_mean: "
      "self.assertAlmostEqual(mean([1, 2]), 1.5, places=2) → self.assertAlmostEqual(mean([1, "
      "2]), 1.5, delta=0.01) (tolerance widened (0.005 → 0.01))")),
    ("1.6, places=2)", "1.6, places=3)",
     ("PS102", "unittest_assert weakened in tests/test_pages.py::Pages::test_not_mean: "
      "self.assertNotAlmostEqual(mean([1, 2]), 1.6, places=2) → self.assertNotAlmostEqual("
      "mean([1, 2]), 1.6, places=3) (tolerance narrowed (0.005 → 0.0005) of a negated "
      "check)")),
    ('self.check_page("/about/", "About us")',
     'self.check_page("/about/", "About us", status=404)',
     ("PS102", "helper_call changed in tests/test_pages.py::Pages::test_about: "
      "self.check_page('/about/', 'About us') → self.check_page('/about/', 'About us', "
      "status=404) (checked expression changed)")),
    ("[1, 2], lambda r: r.n, ordered=False", "[1, 2], transform=lambda r: r, ordered=False",
     ("PS102", "unittest_assert changed in tests/test_pages.py::Pages::test_rows: "
      "self.assertQuerySetEqual(Row.objects.all(), [1, 2], lambda r: r.n, ordered=False) → "
      "self.assertQuerySetEqual(Row.objects.all(), [1, 2], transform=lambda r: r, "
      "ordered=False) (checked expression changed)")),
], ids=["status-changed", "count-changed", "places-to-wider-delta", "not-almost-narrower",
        "helper-argument-changed", "transform-changed"])
def test_a_changed_call_is_still_judged(repo: GitRepo, old: str, new: str,
                                        finding: tuple[str, str]) -> None:
    assert rejecting(repo, old, new) == [finding]


def test_an_unbindable_call_fails_closed_as_a_changed_call(repo: GitRepo) -> None:
    # `**options` could hold anything: the call keeps its spelling and reads as changed.
    got = rejecting(repo, 'self.assertContains(response, "Welcome")',
                    'self.assertContains(response, "Welcome", **{"status_code": 200})')
    assert [c for c, _ in got] == ["PS102"], got


def test_keywords_of_a_call_without_a_known_signature_are_in_name_order() -> None:
    assert with_sorted_keywords("self.check(w, strict=True, html='x')") == \
        "self.check(w, html='x', strict=True)"
    assert with_sorted_keywords("self.check(w, html='x', **extra)") == \
        "self.check(w, html='x', **extra)"
    assert with_sorted_keywords("self.check(w, html='x')") == "self.check(w, html='x')"


def test_reordered_keywords_of_an_imported_helper_are_the_same_call(repo: GitRepo) -> None:
    base = {"tests/helpers.py": "def check_page(client, path, status=200, text=''):\n"
                                "    assert client.get(path).status_code == status\n",
            PATH: "from tests.helpers import check_page\n\n\n"
                  "def test_about(client):\n"
                  "    check_page(client, '/about/', text='About', status=200)\n"}
    repo.commit({"README.md": "x\n", **base})
    after = base[PATH].replace("text='About', status=200", "status=200, text='About'")
    report = repo.score(repo.diff({PATH: after}))
    assert [f.code for f in report.findings if f.action is Action.REJECT] == ["PS502"]


IMPORTED_BASE = {
    "tests/widget_tests/__init__.py": "",
    "tests/widget_tests/base.py": "from django.test import SimpleTestCase\n\n\n"
                                  "class WidgetTest(SimpleTestCase):\n"
                                  "    def check_html(self, widget, name, value, html='', "
                                  "strict=False):\n"
                                  "        self.assertHTMLEqual(widget.render(name, value), "
                                  "html)\n",
    "tests/widget_tests/test_input.py": "from .base import WidgetTest\n\n\n"
                                        "class InputTests(WidgetTest):\n"
                                        "    def test_render(self):\n"
                                        "        self.check_html(w, 'n', 'v', "
                                        "html='<input>')\n",
    "tests/runtests.py": "import sys\n",
}


@pytest.mark.parametrize(("new", "rejected"), [
    ("self.check_html(w, 'n', 'v', '<input>')", []),
    ("self.check_html(w, 'n', 'v', html='<input>', strict=False)", []),
    ("self.check_html(w, name='n', value='v', html='<input>')", []),
    ("self.check_html(w, 'n', 'v', html='<p>')", ["PS108"]),
], ids=["by-position", "default-spelled-out", "by-keyword", "expected-changed"])
def test_a_method_of_an_imported_base_binds_to_its_def_there(repo: GitRepo, new: str,
                                                             rejected: list[str]) -> None:
    repo.commit({"README.md": "x\n", **IMPORTED_BASE})
    path = "tests/widget_tests/test_input.py"
    after = IMPORTED_BASE[path].replace("self.check_html(w, 'n', 'v', html='<input>')", new)
    report = repo.score(repo.diff({path: after}))
    assert [f.code for f in report.findings
            if f.action is Action.REJECT and f.code != "PS502"] == rejected


HELPER_MODULE = textwrap.dedent('''
    import unittest


    class Checks(unittest.TestCase):
        def check_total(self, items, expected):
            self.assertEqual(sum(items), expected, msg="total of %r" % (items,))

        def test_totals(self):
            self.check_total([1, 2], 3)
    ''').lstrip()


@pytest.mark.parametrize(("old", "new", "codes"), [
    ('msg="total of %r" % (items,)', 'msg="sum of %r is wrong" % (items,)', []),
    ('msg="total of %r" % (items,)', 'msg="total of %r" % (items,), ', []),
    ("sum(items), expected", "sum(items), 3", ["PS105"]),
    ('msg="total of %r" % (items,)', "msg=record(items)", ["PS105"]),
], ids=["msg-reworded", "trailing-comma", "expected-replaced", "msg-calls-something"])
def test_a_helpers_failure_message_is_wording(repo: GitRepo, old: str, new: str,
                                              codes: list[str]) -> None:
    repo.commit({"README.md": "x\n", "tests/test_checks.py": HELPER_MODULE})
    report = repo.score(repo.diff({"tests/test_checks.py": HELPER_MODULE.replace(old, new)}))
    assert [f.code for f in report.findings
            if f.action is Action.REJECT and f.code != "PS502"] == codes
