"""Judging a modified check: weakened, strengthened, expected value changed, or changed."""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping
from typing import Any

from provscore.evidence.constants import is_literal_code
from provscore.evidence.fixture_meaning import same_input
from provscore.evidence.model import EvidenceItem, EvidenceKind, Shape
from provscore.model import Modification
from provscore.provenance.bounded import (
    bound_verdict,
    count_verdict,
    doctest_flags_verdict,
    number,
    order_verdict,
    tolerance_arg_verdict,
)
from provscore.provenance.conditions import NO_DOMAINS, Domains
from provscore.provenance.model import FAMILY
from provscore.provenance.regex_meaning import literal_of, pattern_text
from provscore.provenance.rewrites import truth_to_membership, with_items_loops
from provscore.provenance.spelling import same_formatted
from provscore.provenance.type_checks import type_check_verdict
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class Strength:
    """The ``[strength]`` tables of rules/patterns.toml: how checks rank and which
    keywords loosen them."""

    groups: tuple[tuple[frozenset[str], ...], ...]  # per table, decreasing strength
    tolerance: frozenset[str]  # a larger value is a looser check
    precision: frozenset[str]  # a smaller value is a looser check
    narrowing: frozenset[str]  # dropping it loosens the check
    # What is known of condition subjects' values ([conditions]).
    domains: Domains = NO_DOMAINS
    # Methods whose places= and delta= are one tolerance (negated: wider is stronger).
    places_delta: frozenset[str] = frozenset()
    places_delta_negated: frozenset[str] = frozenset()
    exact_counts: frozenset[str] = frozenset()  # "method.keyword": absent is "at least once"
    reporting: frozenset[str] = frozenset()  # only what a failure reports
    upper_bounds: frozenset[str] = frozenset()  # a strategy's: larger draws more
    lower_bounds: frozenset[str] = frozenset()  # a strategy's: smaller draws more
    every_edit_hooks: frozenset[str] = frozenset()  # hooks any edit of which is PS204
    # Doctest option flags by effect on one example ([runner_options] doctest_flags_*):
    # (let more output match, make matching stricter, only change what a failure reports).
    doctest_flags: tuple[frozenset[str], frozenset[str], frozenset[str]] = \
        (frozenset(), frozenset(), frozenset())

    @classmethod
    def from_patterns(cls, section: Mapping[str, Any],
                      conditions: Mapping[str, Any] | None = None,
                      runner_options: Mapping[str, Any] | None = None) -> Strength:
        known = conditions or {}
        domains = Domains({str(k): tuple(_tuples(v)) for k, v in known.get("domains", {}).items()},
                          {str(k): (_tuple(v[0]), _tuple(v[1]))
                           for k, v in known.get("ranges", {}).items()})
        return cls(
            groups=tuple(tuple(frozenset(g) for g in section.get(table, []))
                         for table in ("unittest_groups", "mock_groups", "numpy_groups")),
            tolerance=frozenset(section.get("tolerance_keywords", [])),
            precision=frozenset(section.get("precision_keywords", [])),
            narrowing=frozenset(section.get("narrowing_keywords", [])),
            domains=domains,
            places_delta=frozenset(section.get("places_delta", [])),
            places_delta_negated=frozenset(section.get("places_delta_negated", [])),
            exact_counts=frozenset(section.get("exact_counts", [])),
            reporting=frozenset(section.get("reporting_keywords", [])),
            upper_bounds=frozenset(section.get("upper_bound_keywords", [])),
            lower_bounds=frozenset(section.get("lower_bound_keywords", [])),
            every_edit_hooks=frozenset(section.get("every_edit_hooks", [])),
            doctest_flags=tuple(frozenset((runner_options or {}).get(f"doctest_flags_{k}", []))
                                for k in ("loosen", "tighten", "report"))  # type: ignore[arg-type]
        )

    def rank(self, shape: Shape, kind: EvidenceKind) -> int | None:
        """0 for the strongest kind of check; None when the check has no rank."""
        if kind is EvidenceKind.ASSERT:
            if shape.op.startswith("truthy:"):
                return 3
            if shape.op in ("!=", "is not") and len(shape.operands) == 2 and \
                    is_literal_code(shape.operands[1]):
                return _ASSERT_RANK["not None"]  # excludes one value: weaker than truthiness
            return _ASSERT_RANK.get(shape.op)
        for table in self.groups:
            for rank, group in enumerate(table):
                if shape.op in group:
                    return rank
        return None


# Larger is weaker. `x is not None` is weaker than a truthiness check: False, 0 and ""
# pass it.
def _tuple(value: Any) -> Any:
    """TOML has arrays where Python conditions compare tuples."""
    return tuple(_tuple(v) for v in value) if isinstance(value, list) else value


def _tuples(values: list[Any]) -> list[Any]:
    return [_tuple(v) for v in values]


_ASSERT_RANK = {"==": 0, "is": 0, "cmp": 1, "in": 1, "not in": 1, "<": 1, ">": 1, "<=": 1,
                ">=": 1, "!=": 2, "is not": 2, "not": 3, "truthy": 3, "not None": 4}


_PRECISION_DEFAULTS: dict[str, float] = {"places": 7, "decimal": 7, "significant": 7,
                                         "max_examples": 100}
_BROAD_EXCEPTIONS = {"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"}


def _keyword_verdict(a: Shape, b: Shape, strength: Strength
                     ) -> tuple[Modification | None, str]:
    tolerance, precision, narrowing = strength.tolerance, strength.precision, strength.narrowing
    ka, kb = dict(a.keywords), dict(b.keywords)
    stronger = False
    scale = _places_delta_verdict(a, b, ka, kb, strength)
    if scale is not None and scale[0] is not None:
        if scale[0] is not Modification.STRENGTHENED:
            return scale
        stronger = True
    for key in sorted(set(ka) | set(kb)):
        base = key.rsplit(".", 1)[-1]
        va, vb = ka.get(key), kb.get(key)
        if va == vb or base in strength.reporting:
            continue
        if a.op == b.op == "strategy" and base in strength.upper_bounds | strength.lower_bounds:
            bound = bound_verdict(key, va, vb, upper=base in strength.upper_bounds)
            if bound[0] is not Modification.STRENGTHENED:
                return bound
            stronger = True
        elif base in tolerance:
            na, nb = _tolerance(key, va), _tolerance(key, vb)
            if na is None or nb is None:
                return Modification.CHANGED, f"tolerance {key} changed"
            if nb > na:
                return Modification.WEAKENED, f"tolerance {key} widened ({va} → {vb})"
            if nb < na:
                stronger = True
        elif base in precision:
            # An absent keyword means the library default (places=7, max_examples=100).
            default = _PRECISION_DEFAULTS.get(base)
            na = number(va) if va else default
            nb = number(vb) if vb else default
            if na is None or nb is None:
                return Modification.CHANGED, f"{key} changed ({va} → {vb})"
            if nb < na:
                return Modification.WEAKENED, \
                    f"{key} lowered ({va or f'default {na:g}'} → {vb or f'default {nb:g}'})"
            if nb > na:
                stronger = True
        elif base == "match":
            verdict = _match_verdict(va, vb)
            if verdict[0] is Modification.STRENGTHENED:
                stronger = True
            elif verdict[0] is not None:
                return verdict
        elif a.op == b.op and f"{a.op}.{key}" in strength.exact_counts:
            verdict = count_verdict(key, va, vb)
            if verdict[0] is not Modification.STRENGTHENED:
                return verdict
            stronger = True
        elif base in narrowing:
            if vb is None or vb == "False":
                return Modification.WEAKENED, f"{key}={va} dropped"
            if va is None:
                stronger = True
            else:
                return Modification.EXPECTED_CHANGED, f"{key} changed ({va} → {vb})"
        elif key == "approx" and vb is not None and va is None:
            return Modification.WEAKENED, "exact comparison became approximate"
        else:
            return Modification.CHANGED, f"keyword {key} changed"
    return (Modification.STRENGTHENED, "check narrowed") if stronger else (None, "")


def _tolerance(key: str, code: str | None) -> float | None:
    """A tolerance keyword's value; absent, its default: 0 for a check's own keyword,
    pytest.approx's for the rel= and abs= of an approx() inside it, unknown (None) for the
    keywords of another closeness call whose library the code does not say (a bare
    ``isclose``: math's or numpy's)."""
    if code is not None:
        return number(code)
    if not key.startswith("approx."):
        return 0.0
    return _APPROX_DEFAULTS.get(key)


_APPROX_DEFAULTS = {"approx.rel": 1e-6, "approx.abs": 1e-12}


def _checked(shape: Shape, strength: Strength) -> tuple[tuple[str, str], ...]:
    """A shape's keywords without those that only change what a failure reports."""
    return tuple(kv for kv in shape.keywords if kv[0].rsplit(".", 1)[-1] not in strength.reporting)


def _places_delta_verdict(a: Shape, b: Shape, ka: dict[str, str], kb: dict[str, str],
                          strength: Strength) -> tuple[Modification | None, str] | None:
    """places= and delta= of assertAlmostEqual compared on one scale: places=p allows a
    difference below 0.5 * 10**-p (p=7 when neither is given), delta=d up to d. Consumes
    the two keywords from ``ka``/``kb``; None when they did not change."""
    if a.op != b.op or a.op not in strength.places_delta | strength.places_delta_negated:
        return None
    if all(ka.get(k) == kb.get(k) for k in ("places", "delta")):
        return None
    if "delta" not in ka and "delta" not in kb and a.op in strength.places_delta:
        return None  # places alone: judged as the precision keyword it is
    ta, tb = _allowed_difference(ka), _allowed_difference(kb)
    if ta is None or tb is None:
        return None  # not literal numbers: judged keyword by keyword
    for k in ("places", "delta"):
        ka.pop(k, None)
        kb.pop(k, None)
    if math.isclose(ta, tb, rel_tol=1e-9):
        return None, ""  # places=2 → delta=0.005: the same check
    moved = f"({ta:g} → {tb:g})"
    wider = tb > ta
    if a.op in strength.places_delta_negated:  # assertNotAlmostEqual: wider is stronger
        return (Modification.STRENGTHENED, f"tolerance widened {moved}") if wider else \
            (Modification.WEAKENED, f"tolerance narrowed {moved} of a negated check")
    return (Modification.WEAKENED, f"tolerance widened {moved}") if wider else \
        (Modification.STRENGTHENED, f"tolerance narrowed {moved}")


def _allowed_difference(keywords: Mapping[str, str]) -> float | None:
    if "delta" in keywords:
        if "places" in keywords:
            return None  # unittest refuses both: a TypeError
        return number(keywords["delta"])
    places = number(keywords["places"]) if "places" in keywords else 7.0
    if places is None or not places.is_integer() or abs(places) > 300:
        return None
    return float(0.5 * 10.0 ** -places)


_MATCH_ANYTHING = {"", ".*", ".+", "(?s).*", "^.*$", ".*?", "[\\s\\S]*"}


def _match_verdict(va: str | None, vb: str | None) -> tuple[Modification | None, str]:
    """How a `match=` regex changed: dropped or match-anything is weaker; a pattern that
    contains the old one is stronger; one matching the same text (`"a b"` and
    `re.escape("a b")`) is the same check; anything else rewrote the expected message."""
    if vb is None:
        return Modification.WEAKENED, f"match={va} dropped"
    new = pattern_text(vb)
    if new is not None and new in _MATCH_ANYTHING:
        return Modification.WEAKENED, f"match={vb} accepts any message"
    if va is None:
        return Modification.STRENGTHENED, "match= added"
    old = pattern_text(va)
    if old is not None and new is not None:
        old_text, new_text = literal_of(old), literal_of(new)
        if old_text is not None and new_text is not None:
            old, new = old_text, new_text  # compared as the texts they look for
            if old == new:
                return None, "the same text matched"
        if old in new:
            return Modification.STRENGTHENED, "match narrowed"
        if new in old:
            return Modification.WEAKENED, f"match shortened ({va} → {vb})"
    return Modification.EXPECTED_CHANGED, f"match changed ({va} → {vb})"


def _input_verdict(pre: EvidenceItem, post: EvidenceItem, strength: Strength
                   ) -> tuple[Modification | None, str]:
    """A test input against its rewrite: the same is no change; a decorator that compares
    what the test makes (``image_comparison(..., tol=0.003)``, ``check_figures_equal(tol=
    ...)``) given only a tighter tolerance checks more; a fixture body that only does more
    provides what it did; anything else is a changed input."""
    a, b = pre.shape, post.shape
    same = same_input(a, b)  # keywords reordered, re-spelled, a fixture that only does more
    if same is not None:
        return None, same
    if pre.kind is post.kind and (a.op, a.operands, a.guards) == (b.op, b.operands, b.guards):
        tighter = _keyword_verdict(a, b, strength)
        given = {k for k, _ in a.keywords} ^ {k for k, _ in b.keywords}
        if tighter[0] is Modification.STRENGTHENED and given <= strength.tolerance and \
                all(k in strength.tolerance for k, v in a.keywords if (k, v) not in b.keywords):
            return tighter
    return Modification.CHANGED, "test input changed"


def compare(pre: EvidenceItem, post: EvidenceItem, strength: Strength
            ) -> tuple[Modification | None, str]:
    """Judge how an evidence item changed; undecidable changes are ``changed``.

    None means an equivalent rewrite: same strength, same operands, same keywords
    (``self.assertEqual(a, 1)`` → ``assert a == 1``).
    """
    a, b = pre.shape, post.shape
    if pre.kind is EvidenceKind.TEST_INPUT or post.kind is EvidenceKind.TEST_INPUT:
        return _input_verdict(pre, post, strength)
    if pre.kind is post.kind and same_formatted(pre.code, post.code, a.guards, b.guards):
        return None, "the same text formatted another way"
    if b.tautology and not a.tautology:
        return Modification.WEAKENED, "became a tautology"
    if loop_renamed(pre, post):  # `for items in ...` → `for case in ...`, the body following
        return None, "loop variable renamed"
    a = with_items_loops(a, b)  # `for v in d.values()` → `for k, v in d.items()`
    if a.guards != b.guards:
        loop = _loop_verdict(a.guards, b.guards)
        if loop is not None:
            return loop
        added = [g for g in b.guards if g not in a.guards]
        if added:
            return Modification.WEAKENED, f"now runs only when {' and '.join(added)}"
        if set(b.guards) < set(a.guards):
            return Modification.STRENGTHENED, "runs under fewer conditions"
        return Modification.CHANGED, "runs under different conditions"
    if pre.kind is EvidenceKind.PARAM_ROW:
        return Modification.EXPECTED_CHANGED, "parametrize row changed"
    if pre.kind is EvidenceKind.RAISES and post.kind is EvidenceKind.RAISES:
        wider = _wider_raises(a, b)
        if wider is not None:
            return wider
    typed = type_check_verdict(a, b) or truth_to_membership(a, b) or order_verdict(a, b) or \
        doctest_flags_verdict(a, b, strength.doctest_flags)
    if typed is not None:
        return typed
    if pre.kind is not post.kind and FAMILY[pre.kind] == FAMILY[post.kind]:
        ra, rb = strength.rank(a, pre.kind), strength.rank(b, post.kind)
        if ra is not None and rb is not None and rb > ra:
            return Modification.WEAKENED, f"{a.op} became {b.op}"
        if post.kind is EvidenceKind.HELPER_CALL or pre.kind is EvidenceKind.HELPER_CALL:
            return Modification.CHANGED, f"{a.op} became {b.op}"
    ra, rb = strength.rank(a, pre.kind), strength.rank(b, post.kind)
    if ra is not None and rb is not None and a.op != b.op:
        if rb > ra:
            return Modification.WEAKENED, f"{a.op} became {b.op}"
        if rb < ra:
            return Modification.STRENGTHENED, f"{a.op} became {b.op}"
    elif a.op != b.op and (ra is None) != (rb is None):
        return Modification.CHANGED, f"{a.op} became {b.op}"
    verdict, reason = _keyword_verdict(a, b, strength)
    if verdict is Modification.WEAKENED or verdict is Modification.CHANGED:
        return verdict, reason
    if verdict is None and a.op == b.op and a.operands == b.operands and \
            a.keywords != b.keywords and _checked(a, strength) == _checked(b, strength):
        return None, "only what a failure reports changed"
    if a.op == b.op and a.operands != b.operands:
        if pre.kind is EvidenceKind.RAISES and post.kind is EvidenceKind.RAISES and \
                set(b.operands) < set(a.operands):
            return Modification.STRENGTHENED, "fewer exception types accepted"
        rows = _check_args_verdict(a, b) or _table_verdict(a, b) or \
            tolerance_arg_verdict(a, b, strength.tolerance, strength.precision)
        if rows is not None:
            return rows
        if len(a.operands) == len(b.operands):
            diff = [(x, y) for x, y in zip(a.operands, b.operands, strict=True) if x != y]
            if len(diff) == 1 and (is_literal_code(diff[0][0]) or is_literal_code(diff[0][1])):
                return Modification.EXPECTED_CHANGED, \
                    f"expected value {diff[0][0]} became {diff[0][1]}"
        return Modification.CHANGED, "checked expression changed"
    if verdict is not None:
        return verdict, reason
    if a.op == b.op and a.keywords != b.keywords:
        return None, "the same check, its arguments spelled another way"
    if ra is not None and ra == rb and _same_operands(a, b):
        return None, f"{a.op} rewritten as {b.op}"
    if a.op != b.op:
        return Modification.CHANGED, f"{a.op} became {b.op}"
    return Modification.CHANGED, "changed"


# A helper's only-checking argument left at one of these adds no check.
_NO_CHECKS = frozenset({"None", "()", "{}", "[]"})


def _check_args_verdict(a: Shape, b: Shape) -> tuple[Modification, str] | None:
    """The same helper call but for the arguments of parameters that only add checks
    (``expected_attrs``): given where none was is stronger, dropped is weaker; None when
    anything else differs (or nothing does)."""
    if a.op != b.op or not b.check_args or a.check_args != b.check_args or \
            a.keywords != b.keywords:
        return None
    width = max(len(a.operands), len(b.operands))

    def at(ops: tuple[str, ...], i: int) -> str | None:
        return ops[i] if i < len(ops) and ops[i] not in _NO_CHECKS else None

    def given(ops: tuple[str, ...], i: int) -> str | None:
        return ops[i] if i < len(ops) else None

    if any(given(a.operands, i) != given(b.operands, i) for i in range(width)
           if i not in b.check_args):
        return None
    pairs = [(at(a.operands, i), at(b.operands, i)) for i in b.check_args]
    if all(x == y for x, y in pairs):
        return None
    if any(x is not None and y != x for x, y in pairs):
        return None  # dropped or rewritten: judged as any other operand change
    return Modification.STRENGTHENED, "an argument that only adds checks given"


def _wider_raises(a: Shape, b: Shape) -> tuple[Modification, str] | None:
    """An expected exception broadened, or more types accepted; None when neither."""
    broad_a = set(a.operands) & _BROAD_EXCEPTIONS
    broad_b = set(b.operands) & _BROAD_EXCEPTIONS
    if broad_b and not broad_a:
        return Modification.WEAKENED, f"expected exception broadened to {sorted(broad_b)[0]}"
    if a.operands != b.operands and set(a.operands) < set(b.operands):
        return Modification.WEAKENED, "more exception types accepted"
    return None


def _table_verdict(a: Shape, b: Shape) -> tuple[Modification | None, str] | None:
    """A helper call whose operands differ only in the tables the helper loops over row by
    row (Shape.tables): rows added are more cases, rows gone fewer; None when the tables
    are not literal sequences or anything else differs."""
    if not a.tables or a.tables != b.tables or len(a.operands) != len(b.operands) or \
            any(x != y for i, (x, y) in enumerate(zip(a.operands, b.operands, strict=True))
                if i not in a.tables):
        return None
    before, after = _rows(a), _rows(b)
    if before is None or after is None:
        return None
    lost = [r for r in before if r not in after]
    gained = [r for r in after if r not in before]
    if lost and gained:
        return Modification.CHANGED, "the helper's case table rows changed"
    if lost:
        return Modification.WEAKENED, f"{len(lost)} case table row(s) dropped"
    if gained:
        return Modification.STRENGTHENED, f"{len(gained)} case table row(s) added"
    return None, "the same case table rows"


def _rows(shape: Shape) -> list[tuple[Any, ...]] | None:
    columns: list[list[Any]] = []
    for i in shape.tables:
        try:
            value = ast.literal_eval(shape.operands[i])
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
        if not isinstance(value, list | tuple):
            return None
        columns.append(list(value))
    return list(zip(*columns, strict=False))  # zip() stops at the shortest, as the loop does


def loop_renamed(pre: EvidenceItem, post: EvidenceItem) -> bool:
    """The same check under loops whose variables were renamed one to one, the body
    following (``for value, output in items`` → ``for literal, expected in items``)."""
    renames = _loop_renames(pre.shape.guards, post.shape.guards)
    if not renames:
        return False
    guards = tuple(_renamed(g + ": pass", renames) for g in pre.shape.guards)
    code = _renamed(pre.code, renames)
    return code is not None and code == _renamed(post.code, {}) and None not in guards and \
        guards == tuple(_renamed(g + ": pass", {}) for g in post.shape.guards)


_ORDERING = frozenset({"sorted", "reversed", "list", "tuple"})


def iterated(guard: str) -> tuple[str, list[Any]] | None:
    """``for x in range(3)`` / ``for x in [1, 2]``: the loop target and the literal values
    it takes; None when the loop is over anything else."""
    if not guard.startswith("for ") or " in " not in guard:
        return None
    target, _, iterable = guard[4:].partition(" in ")
    try:
        node = ast.parse(iterable, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    # `map(Decimal, VALUES)`, `sorted(VALUES)`: the same wrapper on both sides iterates
    # over the values it is given, each once.
    while isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            not node.keywords and ((node.func.id == "map" and len(node.args) == 2) or
                                   (node.func.id in _ORDERING and len(node.args) == 1)):
        target = f"{target} <- {node.func.id}({', '.join(ast.unparse(a) for a in node.args[:-1])})"
        node = node.args[-1]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "range" and not node.keywords and 1 <= len(node.args) <= 3:
        try:
            bounds = [ast.literal_eval(x) for x in node.args]
        except (ValueError, SyntaxError, TypeError):
            return None
        if all(isinstance(v, int) and not isinstance(v, bool) for v in bounds):
            values = range(*bounds)
            return (target, list(values)) if len(values) <= 100_000 else None
        return None
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return _row_codes(target, node)
    return (target, list(value)) if isinstance(value, list | tuple | set | frozenset) else None


class RowCode(str):
    """A loop table's row that is not a literal (``(range(4), 3)``), kept as its code: the
    same code on both sides is the same row, so rows only added, dropped or reordered are
    read as such. It never equals a literal value: a row rewritten between a literal and an
    expression is lost on one side and gained on the other."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, RowCode) and str.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = str.__hash__


def _row_codes(target: str, node: ast.expr) -> tuple[str, list[Any]] | None:
    """A literal list, tuple or set display whose rows are not all literals: the rows as
    their code (a starred row stays one row: the same name splices the same values)."""
    if not isinstance(node, ast.List | ast.Tuple | ast.Set):
        return None
    return target, [RowCode(ast.unparse(e)) for e in node.elts]


def _loop_target(guard: str) -> ast.expr | None:
    if not guard.startswith("for "):
        return None
    try:
        stmt = ast.parse(guard + ": pass").body[0]
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return stmt.target if isinstance(stmt, ast.For) else None


def _loop_renames(before: tuple[str, ...], after: tuple[str, ...]) -> dict[str, str]:
    """Loop variables renamed one to one between two guard lists (else empty)."""
    if len(before) != len(after) or before == after:
        return {}
    out: dict[str, str] = {}
    for ga, gb in zip(before, after, strict=True):
        ta, tb = _loop_target(ga), _loop_target(gb)
        if ta is None or tb is None:
            continue
        na = [n.id for n in ast.walk(ta) if isinstance(n, ast.Name)]
        nb = [n.id for n in ast.walk(tb) if isinstance(n, ast.Name)]
        if len(na) != len(nb):
            return {}
        for x, y in zip(na, nb, strict=True):
            if out.setdefault(x, y) != y:
                return {}
    if len(set(out.values())) != len(out):
        return {}
    return {k: v for k, v in out.items() if k != v}


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(self.names.get(node.id, node.id), node.ctx)


def _renamed(code: str, names: dict[str, str]) -> str | None:
    """``code`` with names replaced, normalised by ast (None when it does not parse)."""
    try:
        tree = ast.parse(code.split("  # ", 1)[0].strip())
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return ast.unparse(_Rename(names).visit(tree))


def _loop_verdict(before: tuple[str, ...], after: tuple[str, ...]
                  ) -> tuple[Modification | None, str] | None:
    """Guards that differ only in the literal values a loop iterates over: fewer values is
    weaker, more is stronger (a test that checks every row checks more rows)."""
    if len(before) != len(after):
        return None
    fewer = more = False
    for ga, gb in zip(before, after, strict=True):
        if ga == gb:
            continue
        la, lb = iterated(ga), iterated(gb)
        if la is None or lb is None or la[0] != lb[0]:
            return None
        lost = any(v not in lb[1] for v in la[1])
        gained = any(v not in la[1] for v in lb[1])
        fewer, more = fewer or lost, more or gained
    if fewer and more:
        return Modification.CHANGED, "loops over other values"
    if fewer:
        return Modification.WEAKENED, "loops over fewer values"
    return (Modification.STRENGTHENED, "loops over more values") if more else (None, "")


def _same_operands(a: Shape, b: Shape) -> bool:
    # assertEqual(x, 1) and `assert x == 1` compare the same two operands.
    return sorted(a.operands) == sorted(b.operands)
