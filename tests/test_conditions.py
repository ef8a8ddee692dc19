"""How a condition changed, decided as formulas (provscore.provenance.conditions), and what
a suppression means under base's ini (provscore.provenance.skip_strength)."""

from __future__ import annotations

import pytest
from tests_support import SESSION

from provscore.change.warning_filters import error_categories, loosened
from provscore.evidence.model import Suppression, SuppressionKind
from provscore.model import Modification
from provscore.provenance.conditions import Relation, relation
from provscore.provenance.skip_strength import compare_suppressions

DOMAINS = SESSION.strength.domains


@pytest.mark.parametrize(("before", "after", "expect"), [
    ("sys.version_info < (3, 8)", "sys.version_info < (3, 7)", Relation.NARROWER),
    ("sys.version_info < (3, 8)", "sys.version_info < (3, 12)", Relation.WIDER),
    ("sys.version_info < (3, 8)", "sys.version_info <= (3, 7, 99)", Relation.NARROWER),
    ("x > 3", "3 < x", Relation.SAME),
    ("x > 3", "x >= 3", Relation.WIDER),
    ("not (x == 1)", "x != 1", Relation.SAME),
    ("x is None", "not x is not None", Relation.SAME),
    ("a", "a and b", Relation.NARROWER),
    ("a", "a or b", Relation.WIDER),
    ("a and b", "b and a", Relation.SAME),
    ("True", "a", Relation.NARROWER),
    ("a", "True", Relation.WIDER),
    ('p == "win32"', 'p in ("win32", "cygwin")', Relation.WIDER),
    ('p == "win32"', 'p != "win32"', Relation.WIDER),  # inverted: new states suppressed
    ('p == "win32"', 'p != "nope"', Relation.WIDER),
    ('p == "win32"', 'p.startswith("win")', Relation.UNKNOWN),  # different things
    ("a", "b", Relation.UNKNOWN),
    ("f(", "a", Relation.UNKNOWN),  # does not parse
])
def test_relation(before: str, after: str, expect: Relation) -> None:
    assert relation(before, after) is expect


@pytest.mark.parametrize(("before", "after", "expect"), [
    ("sys.version_info[0] == 3", "not sys.version_info[0] == 2", Relation.SAME),
    ("sys.version_info[0] == 3", "sys.version_info[0] >= 3", Relation.SAME),
    ('sys.platform == "win32"', "sys.version_info > (0,)", Relation.WIDER),  # always true
    ("sys.version_info >= (3, 0)", "sys.version_info >= (2, 0)", Relation.WIDER),
])
def test_known_domains(before: str, after: str, expect: Relation) -> None:
    assert relation(before, after, DOMAINS) is expect
    assert relation(before, after) is not Relation.SAME or expect is Relation.SAME


def test_too_many_states_is_no_verdict() -> None:
    before = " and ".join(f"x{i}" for i in range(14))
    assert relation(before, before + " and y") is Relation.UNKNOWN


# What base's ini and a mark's own keywords make a suppression mean
# (provscore.provenance.skip_strength, provscore.change.warning_filters).

def _sup(code: str, kind: SuppressionKind = SuppressionKind.XFAIL_MARK,
         guards: tuple[str, ...] = ()) -> Suppression:
    return Suppression(kind, "tests/test_a.py", "tests/test_a.py::test_a", code, 1, "", guards)


RUNTIME, COLLECT = SuppressionKind.RUNTIME_SKIP, SuppressionKind.COLLECTION_VARIABLE


@pytest.mark.parametrize(("before", "after", "kind", "xfail_strict", "expect"), [
    # an xfail without strict= is as strict as the ini's xfail_strict
    ("pytest.mark.xfail(c)", "pytest.mark.xfail(c, strict=False)", None, True,
     Modification.WEAKENED),
    ("pytest.mark.xfail(c)", "pytest.mark.xfail(c, strict=0)", None, True,
     Modification.WEAKENED),
    ("pytest.mark.xfail(c)", "pytest.mark.xfail(c, strict=1)", None, True, None),
    ("pytest.mark.xfail(c)", "pytest.mark.xfail(c, strict=False)", None, False, None),
    ("pytest.mark.xfail(c)", "pytest.mark.xfail(c, strict=True)", None, False,
     Modification.STRENGTHENED),
    ("pytest.mark.xfail(c, strict=S)", "pytest.mark.xfail(c, strict=T)", None, True,
     Modification.CHANGED),
    # importorskip: a required version skips wherever an older one is installed
    ('pytest.importorskip("np")', 'pytest.importorskip("np", "1.2")', RUNTIME, False,
     Modification.WEAKENED),
    ('pytest.importorskip("np", minversion="1.2")', 'pytest.importorskip("np", "1.10")',
     RUNTIME, False, Modification.WEAKENED),
    ('pytest.importorskip("np", minversion="1.10")', 'pytest.importorskip("np", "1.2")',
     RUNTIME, False, Modification.STRENGTHENED),
    ('pytest.importorskip("np", minversion="1.2")', 'pytest.importorskip("np")', RUNTIME,
     False, Modification.STRENGTHENED),
    ('pytest.importorskip("np", minversion="1.2")', 'pytest.importorskip("np", "1.2.0")',
     RUNTIME, False, None),
    ('pytest.importorskip("np", minversion="1.2")', 'pytest.importorskip("np", minversion=V)',
     RUNTIME, False, Modification.CHANGED),
    ('pytest.importorskip("np")', 'pytest.importorskip("scipy")', RUNTIME, False,
     Modification.CHANGED),
])
def test_mark_meaning(before: str, after: str, kind: SuppressionKind | None, xfail_strict: bool,
                      expect: Modification | None) -> None:
    sup_kind = kind or SuppressionKind.XFAIL_MARK
    verdict, _ = compare_suppressions(_sup(before, sup_kind), _sup(after, sup_kind),
                                      xfail_strict=xfail_strict)
    assert verdict is expect


@pytest.mark.parametrize(("before", "after", "expect"), [
    (("not (PY_3_10_PLUS)",), ("PY_3_10_PLUS",), Modification.WEAKENED),  # inverted
    (("not (PY_3_10_PLUS)",), (), Modification.WEAKENED),  # the guard dropped
    ((), ("not (PY_3_10_PLUS)",), Modification.STRENGTHENED),
    (("not PY_3_10_PLUS",), ("not (PY_3_10_PLUS)",), None),
    (("sys.platform == 'win32'",), ("os.name == 'nt'",), Modification.WEAKENED),  # new states
    (("HAS_NUMPY",), ("HAS_SCIPY",), Modification.CHANGED),  # two unknowns: no verdict
])
def test_the_same_collect_ignore_under_other_conditions(
        before: tuple[str, ...], after: tuple[str, ...], expect: Modification | None) -> None:
    code = 'collect_ignore.extend(["tests/test_pattern_matching.py"])'
    verdict, _ = compare_suppressions(_sup(code, COLLECT, before), _sup(code, COLLECT, after))
    assert verdict is expect


def test_warning_errors_come_from_the_ini_and_dash_w() -> None:
    assert error_categories(["error", "ignore::UserWarning"], ()) == ("Warning",)
    assert error_categories(["once::Warning"], ["-W", "error::DeprecationWarning",
                                                "-Werror::builtins.ResourceWarning"]) == \
        ("DeprecationWarning", "ResourceWarning")
    assert error_categories(["# error", "default"], ["--pythonwarnings=error:x:pkg.Custom"]) \
        == ("pkg.Custom",)


@pytest.mark.parametrize(("filters", "errors", "expect"), [
    (["ignore"], ("Warning",), "ignore"),
    (["error::DeprecationWarning"], ("Warning",), None),  # only adds failures
    (["ignore::UserWarning"], ("DeprecationWarning",), None),  # two built-ins never overlap
    (["default::pkg.MyWarning"], ("DeprecationWarning",), "default::pkg.MyWarning"),
    (["ignore"], (), None),  # nothing is an error on base
    ([None], ("Warning",), "a filter computed at run time"),
])
def test_a_filter_mark_loosens_only_what_base_makes_an_error(
        filters: list[str | None], errors: tuple[str, ...], expect: str | None) -> None:
    assert loosened(filters, errors) == expect
