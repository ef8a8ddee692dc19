"""How a condition changed, decided as formulas (provscore.provenance.conditions)."""

from __future__ import annotations

import pytest
from tests_support import SESSION

from provscore.provenance.conditions import Relation, relation

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
