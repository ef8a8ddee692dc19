"""Type checks compared by what they accept: ``isinstance(x, T)`` accepts T and its
subclasses, ``type(x) is T`` (or ``==``) only T itself, so the second is the stronger check
of the same subject and the same class, and the first the weaker."""

from __future__ import annotations

import ast

from provscore.evidence.constants import exact_type_subject, parse_expr, unparse
from provscore.evidence.model import Shape
from provscore.model import Modification

_EXACT_OPS = frozenset({"is", "=="})


def type_check_verdict(a: Shape, b: Shape) -> tuple[Modification, str] | None:
    """How a check changed between an isinstance check and an exact-type check of the same
    subject; None when the two are not one of each (or check different subjects)."""
    before, after = _read(a), _read(b)
    if before is None or after is None or before[0] == after[0] or \
            before[1] != after[1] or a.keywords != b.keywords:
        return None
    _, _, types_before = before
    _, _, types_after = after
    if before[0] == "isinstance":  # isinstance(x, S) → type(x) is T
        if types_after <= types_before:
            return Modification.STRENGTHENED, "isinstance became an exact type check"
        return Modification.CHANGED, "the checked type changed"
    return Modification.WEAKENED, "an exact type check became isinstance (subclasses pass)"


def _read(shape: Shape) -> tuple[str, str, frozenset[str]] | None:
    """("isinstance" | "exact", subject, the classes accepted as written)."""
    if shape.op == "truthy:isinstance" and len(shape.operands) == 1:
        call = parse_expr(shape.operands[0])
        if isinstance(call, ast.Call) and len(call.args) == 2 and not call.keywords:
            checked, classes = call.args
            elts = classes.elts if isinstance(classes, ast.Tuple) else [classes]
            if elts and not any(isinstance(e, ast.Starred) for e in elts):
                return "isinstance", unparse(checked), frozenset(unparse(e) for e in elts)
        return None
    if shape.op in _EXACT_OPS and len(shape.operands) == 2:
        subject = exact_type_subject(shape.operands[0])
        if subject is not None:
            return "exact", subject, frozenset({shape.operands[1]})
    return None
