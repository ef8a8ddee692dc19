"""Which signature an evidence call binds to (evidence/binding.py binds it)."""

from __future__ import annotations

import libcst as cst

from provscore.evidence.binding import Signature
from provscore.evidence.context import Context, Frame, RawItem
from provscore.evidence.inheritance import method_of
from provscore.evidence.model import EvidenceKind
from provscore.evidence.scope import still_bound


def call_signature(ctx: Context, raw: RawItem) -> Signature | None:
    """The signature an evidence call binds to: a framework assertion's from the table, a
    helper's from its def in this module (a function, or a method ``self`` reaches in
    this module's classes); None when it is not known."""
    if raw.kind is EvidenceKind.UNITTEST:
        return ctx.tables.signatures.get(raw.op)
    if raw.kind is not EvidenceKind.HELPER_CALL or not isinstance(raw.node, cst.Call):
        return None
    func = raw.node.func
    receiver = ""
    if isinstance(func, cst.Name):
        found = [f for f in ctx.defs if f.kind == "func" and f.name == func.value and
                 f.parent is ctx.frames[0]]
        target = found[0] if len(found) == 1 else None
    elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
            func.value.value in ("self", "cls"):
        receiver = func.value.value
        cls = _enclosing_class(raw.frame)
        target = method_of(ctx, cls, func.attr.value) if cls is not None else None
    else:
        return None
    if target is None or not isinstance(target.node, cst.FunctionDef) or \
            not still_bound(target) or ctx.aliases.imported(target.name):
        return None
    return _def_signature(target.node, receiver)


def _enclosing_class(frame: Frame) -> Frame | None:
    cur: Frame | None = frame
    while cur is not None and cur.kind != "class":
        cur = cur.parent
    return cur


def _def_signature(node: cst.FunctionDef, receiver: str) -> Signature | None:
    """Every positional parameter of a helper is an operand (what it checks is unknown);
    a decorator other than staticmethod/classmethod may change the signature: unknown."""
    decorators = {cst.Module(body=[]).code_for_node(d.decorator) for d in node.decorators}
    if decorators - {"staticmethod", "classmethod"}:
        return None
    if receiver:
        skip = "classmethod" in decorators or (receiver == "self" and not decorators)
        if receiver == "cls" and not decorators:
            return None  # `cls.method(obj, ...)`: whether obj is self is unknown
    else:
        skip = False
    sig = Signature.parse(cst.Module(body=[]).code_for_node(node.params), skip_first=skip)
    if sig is None:
        return None
    return Signature(sig.params, sum(p.positional for p in sig.params), sig.varargs,
                     sig.varkw)
