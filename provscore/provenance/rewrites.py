"""Rewrites of a check whose strength its rank alone misjudges: a truth test become a
membership that admits what it rejected, a loop over values become one over items."""

from __future__ import annotations

import ast
from dataclasses import replace

from provscore.evidence.model import Shape
from provscore.model import Modification


def truth_to_membership(a: Shape, b: Shape) -> tuple[Modification, str] | None:
    """``assert not x`` → ``assert x in (True, False)``: a membership in literals ranks above
    a truth test, but it is weaker when a literal it admits is one the truth test rejected
    (a truthy one after ``not``, a falsy one after a bare truth test); None otherwise."""
    if a.op not in ("not", "truthy") or b.op != "in" or len(b.operands) != 2 or \
            b.operands[0] != a.operands[0]:
        return None
    try:
        values = ast.literal_eval(b.operands[1])
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not isinstance(values, tuple | list | set | frozenset):
        return None
    rejected = [v for v in values if bool(v) is (a.op == "not")]
    if not rejected:
        return None
    return Modification.WEAKENED, \
        f"{a.op} became in: {rejected[0]!r}, which the truth test rejected, now passes"


def same_values_iterated(before: tuple[str, ...], after: tuple[str, ...]) -> bool:
    """Guards that differ only where ``for v in E.values()`` became ``for k, v in
    E.items()``: the loop runs over the same values, each now with its key."""
    if len(before) != len(after):
        return False
    return all(ga == gb or _values_to_items(ga, gb) for ga, gb in zip(before, after, strict=True))


def _values_to_items(before: str, after: str) -> bool:
    try:
        pre, post = (ast.parse(g + ": pass").body[0] for g in (before, after))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if not isinstance(pre, ast.For) or not isinstance(post, ast.For) or \
            not isinstance(pre.target, ast.Name) or not isinstance(post.target, ast.Tuple) or \
            len(post.target.elts) != 2 or not all(isinstance(e, ast.Name)
                                                  for e in post.target.elts):
        return False
    key, value = post.target.elts
    assert isinstance(key, ast.Name) and isinstance(value, ast.Name)

    def method_of(node: ast.expr, name: str) -> ast.expr | None:
        if isinstance(node, ast.Call) and not node.args and not node.keywords and \
                isinstance(node.func, ast.Attribute) and node.func.attr == name:
            return node.func.value
        return None

    owner_pre, owner_post = method_of(pre.iter, "values"), method_of(post.iter, "items")
    return owner_pre is not None and owner_post is not None and \
        ast.dump(owner_pre) == ast.dump(owner_post) and value.id == pre.target.id and \
        key.id != value.id


def with_items_loops(before: Shape, after: Shape) -> Shape:
    """``before`` with ``after``'s guards when they differ only in loops over ``.values()``
    that became loops over ``.items()`` (see same_values_iterated)."""
    if before.guards != after.guards and same_values_iterated(before.guards, after.guards):
        return replace(before, guards=after.guards)
    return before
