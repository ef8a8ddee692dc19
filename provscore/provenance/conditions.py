"""Deciding how a condition changed: narrower, wider, the same, or not decidable.

A skip's condition (``skipif(sys.version_info < (3, 8))``, the ``if`` around a
``pytest.skip()``) is judged by meaning, not by text: ``< (3, 8)`` → ``< (3, 7)`` skips in
fewer cases, ``cond`` → ``cond or other`` in more, ``not (a == b)`` is ``a != b``.

Each condition is read as a boolean formula over *atoms*. Comparisons of one subject with
literals (``==``, ``<``, ``in (...)``, ``is None``) are atoms over that subject's value;
the subject is evaluated at every point that can tell the literals apart (each literal,
and between, below and above them), so ``x < 3`` and ``x <= 2`` are related as integers
would be. Every other subexpression is a free boolean. Implication is checked over every
assignment: an implication that holds there holds in every real program state, so a
"narrower" or "wider" verdict is sound; what cannot be proven either way is ``None``.
"""

from __future__ import annotations

import ast
import enum
import itertools
import operator
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from provscore.records import dataclass

_MAX_ASSIGNMENTS = 4096


class Relation(enum.StrEnum):
    SAME = "same"
    NARROWER = "narrower"  # the new condition holds in fewer states (implies the old)
    WIDER = "wider"  # it holds in states where the old did not
    UNKNOWN = "unknown"  # the two speak of different things: no verdict


_ORDER: dict[type, Callable[[int, int], bool]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.eq, ast.IsNot: operator.ne}
_FLIP: dict[type, type] = {ast.Lt: ast.Gt, ast.Gt: ast.Lt, ast.LtE: ast.GtE, ast.GtE: ast.LtE,
                           ast.Eq: ast.Eq, ast.NotEq: ast.NotEq, ast.Is: ast.Is,
                           ast.IsNot: ast.IsNot}


@dataclass(frozen=True)
class _Compare:
    """``subject op literal`` (or ``subject in literals``)."""

    subject: str
    op: type
    literals: tuple[Any, ...]


def _literal(node: ast.expr) -> tuple[bool, Any]:
    try:
        return True, ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False, None


def _atom(node: ast.expr) -> _Compare | str:
    """A comparison of one subject with literals, or the expression's text (free atom)."""
    if isinstance(node, ast.Compare) and len(node.ops) == 1:
        op, left, right = type(node.ops[0]), node.left, node.comparators[0]
        ok_right, value = _literal(right)
        ok_left, lvalue = _literal(left)
        if op in (ast.In, ast.NotIn) and ok_right and isinstance(value, tuple | list | set
                                                                 | frozenset):
            return _Compare(ast.unparse(left), op, tuple(value))
        if op in _ORDER and ok_right and not ok_left:
            return _Compare(ast.unparse(left), op, (value,))
        if op in _ORDER and ok_left and not ok_right:
            return _Compare(ast.unparse(right), _FLIP[op], (lvalue,))
    return ast.unparse(node)


def _atoms(node: ast.expr) -> Iterator[_Compare | str]:
    if isinstance(node, ast.Constant):
        return  # a constant is no atom: its truth is known
    if isinstance(node, ast.BoolOp):
        for v in node.values:
            yield from _atoms(v)
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        yield from _atoms(node.operand)
    else:
        yield _atom(node)


def _points(literals: list[Any]) -> tuple[list[Any], bool]:
    """The distinct literals in order, and whether they can be ordered at all."""
    distinct: list[Any] = []
    for lit in literals:
        if not any(_same(lit, d) for d in distinct):
            distinct.append(lit)
    try:
        return sorted(distinct), True
    except TypeError:
        return distinct, False


def _same(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except Exception:  # an odd literal's __eq__: not the same point
        return False


def _evaluate(node: ast.expr, env: dict[_Compare | str, bool]) -> bool:
    if isinstance(node, ast.Constant):
        return bool(node.value)
    if isinstance(node, ast.BoolOp):
        values = (_evaluate(v, env) for v in node.values)
        return all(values) if isinstance(node.op, ast.And) else any(values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return not _evaluate(node.operand, env)
    return env[_atom(node)]


def _compare_at(atom: _Compare, point: int, order: list[Any]) -> bool:
    """The atom's truth when the subject is at ``point``: 2i is ``order[i]``, odd points
    lie between (or below, above) the literals."""
    index = [2 * next(i for i, o in enumerate(order) if _same(o, lit))
             for lit in atom.literals]
    if atom.op is ast.In:
        return point in index
    if atom.op is ast.NotIn:
        return point not in index
    return _ORDER[atom.op](point, index[0])


Env = dict[_Compare | str, bool]


@dataclass(frozen=True)
class Domains:
    """What is known of some subjects' values (rules/patterns.toml ``[conditions]``)."""

    values: Mapping[str, Sequence[Any]]  # the subject takes only these (and named literals)
    ranges: Mapping[str, tuple[Any, Any]]  # the subject lies in [low, high]


NO_DOMAINS = Domains({}, {})


def _assignments(a: ast.expr, b: ast.expr, domains: Domains) -> Iterator[Env] | None:
    """Every assignment of the atoms. A subject with a known domain (``sys.version_info[0]``
    is 2 or 3) takes only its domain's values and the literals the code names; one with a
    known range takes no value outside it."""
    atoms = list(dict.fromkeys([*_atoms(a), *_atoms(b)]))
    free = [x for x in atoms if isinstance(x, str)]
    by_subject: dict[str, list[_Compare]] = {}
    for x in atoms:
        if isinstance(x, _Compare):
            by_subject.setdefault(x.subject, []).append(x)
    axes: list[list[Env]] = []
    for subject, group in by_subject.items():
        domain = list(domains.values.get(subject, ()))
        bounds = domains.ranges.get(subject)
        order, ordered = _points([*domain, *(lit for x in group for lit in x.literals),
                                  *(bounds or ())])
        if not ordered and any(x.op not in (ast.Eq, ast.NotEq, ast.Is, ast.IsNot, ast.In,
                                            ast.NotIn) for x in group):
            return None  # literals of several types compared by order: leave it undecided
        named = range(0, 2 * len(order), 2)
        points: Sequence[int] = named if domain else \
            range(-1, 2 * len(order)) if ordered else [*named, -1]
        if bounds is not None and ordered:
            low, high = (2 * next(i for i, o in enumerate(order) if _same(o, b))
                         for b in bounds)
            points = [p for p in points if low <= p <= high]
        axes.append([{x: _compare_at(x, p, order) for x in group} for p in points])
    axes += [[{f: True}, {f: False}] for f in free]
    total = 1
    for axis in axes:
        total *= len(axis)
    if total > _MAX_ASSIGNMENTS:
        return None

    def gen() -> Iterator[Env]:
        for combo in itertools.product(*axes):
            env: Env = {}
            for part in combo:
                env.update(part)
            yield env
    return gen()


def _subjects(node: ast.expr) -> Iterator[str]:
    """What each atom of a condition speaks of: a compared subject, or a free atom's text."""
    for atom in _atoms(node):
        yield atom.subject if isinstance(atom, _Compare) else atom


def _parse(code: str) -> ast.expr | None:
    try:
        return ast.parse(code.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def relation(before: str, after: str, domains: Domains = NO_DOMAINS) -> Relation:
    """How the condition ``after`` relates to ``before`` (both Python expressions).
    ``domains``: what is known of some subjects' values (rules/patterns.toml)."""
    if before.strip() == after.strip():
        return Relation.SAME
    a, b = _parse(before), _parse(after)
    if a is None or b is None:
        return Relation.UNKNOWN
    envs = _assignments(a, b, domains)
    if envs is None:
        return Relation.UNKNOWN
    narrower = wider = True  # after ⇒ before; before ⇒ after
    newly = False  # a state where only the new condition holds
    for env in envs:
        va, vb = _evaluate(a, env), _evaluate(b, env)
        narrower &= not vb or va
        wider &= not va or vb
        newly |= vb and not va
    if narrower and wider:
        return Relation.SAME
    if narrower:
        return Relation.NARROWER
    # A state only the new condition holds in is real when it is made of values of the
    # subjects both conditions read; an unknown boolean that only one side mentions
    # (`p == "win32"` → `p.startswith("win")`) may never take the value that makes it.
    atoms_a, atoms_b = set(_subjects(a)), set(_subjects(b))
    related = bool(atoms_a & atoms_b) or not any(
        isinstance(x, str) for x in (*_atoms(a), *_atoms(b)))
    return Relation.WIDER if newly and (related or wider) else Relation.UNKNOWN
