"""What the suppression collectors share: guards, terminal statements, mark kinds."""

from __future__ import annotations

import libcst as cst

from provscore.evidence.context import Context
from provscore.evidence.cst_names import dotted, method_called
from provscore.evidence.model import SuppressionKind
from provscore.evidence.tables import Tables
from provscore.records import dataclass


@dataclass
class Guard:
    node: cst.CSTNode
    start: int
    body_end: int | None = None
    kind: str = ""
    detail: str = ""


def terminal(stmt: cst.BaseStatement) -> cst.CSTNode | None:
    """The return/raise/break/continue that makes the statements after ``stmt`` dead."""
    if isinstance(stmt, cst.SimpleStatementLine):
        for small in stmt.body:
            if isinstance(small, cst.Return | cst.Raise | cst.Break | cst.Continue):
                return small
    return None


def mark_kind(tables: Tables, names: set[str]) -> SuppressionKind | None:
    """A mark by name or through any attribute of it (pytest.mark.skip.with_args)."""
    for q in names:
        parts = q.split(".")
        for end in range(len(parts), 1, -1):
            prefix = ".".join(parts[:end])
            if prefix in tables.skip_marks:
                return SuppressionKind.SKIP_MARK
            if prefix in tables.xfail_marks:
                return SuppressionKind.XFAIL_MARK
    return None


def call_names(ctx: Context, node: cst.Call) -> set[str]:
    """Every qualified name a call may be: its callee's, and the whole call's when it
    spells a name (``getattr(pytest.mark, "skip")`` is ``pytest.mark.skip``)."""
    names = ctx.qualnames(node.func)
    if dotted(node) is not None:
        names |= ctx.qualnames(node)
    return names


def is_skip_method_call(ctx: Context, node: cst.Call) -> bool:
    """``x.skipTest(...)`` (or ``getattr(x, "skipTest")(...)``): reported as a runtime skip
    on sight, nothing else to look at."""
    return method_called(node) in ctx.tables.skip_methods
