"""Swallowed failures: try/except, suppress() and context managers around evidence."""

from __future__ import annotations

import libcst as cst

from provscore.evidence.constants import constant_truth
from provscore.evidence.context import Collector, Context
from provscore.evidence.cst_names import dotted
from provscore.evidence.model import SuppressionKind
from provscore.evidence.suppressions.common import (
    Guard,
    is_skip_method_call,
    terminal,
)
from provscore.names import matches


class SwallowedCollector(Collector):
    """Evidence inside a try or with block that can swallow its failure."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.guards: list[Guard] = []
        # classes defined here whose __exit__ returns True: `with Cls():` swallows
        self._swallowing_classes: set[str] = set()

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if is_skip_method_call(ctx, node):
            return
        if ctx.frame.test_id is not None and not self._in_with_header(node):
            target = ctx.target()
            ctx.deferred.append(lambda: self._loose_suppressor(node, target))

    def _in_with_header(self, node: cst.Call) -> bool:
        return any(isinstance(g.node, cst.With) and any(i.item is node for i in g.node.items)
                   for g in self.guards[-1:])

    def _loose_suppressor(self, node: cst.Call, target: str) -> None:
        """suppress(AssertionError) entered without a `with` (ExitStack.enter_context)."""
        hit = self._swallowed_by(node)
        if hit and "raises" not in (dotted(node.func) or ""):
            self.ctx.suppress(SuppressionKind.SWALLOWED, node, target=target,
                              detail=f"suppress({hit}) entered outside a with block")

    def visit_Try(self, node: cst.Try) -> None:
        self.guards.append(Guard(node, self.ctx.seq, kind="try"))

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self.guards.append(Guard(node, self.ctx.seq, kind="try"))

    def visit_Else(self, node: cst.Else) -> None:
        # The try's body ends where its else starts.
        for g in reversed(self.guards):
            if g.kind == "try" and getattr(g.node, "orelse", None) is node:
                if g.body_end is None:
                    g.body_end = self.ctx.seq
                break

    def visit_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
        self._handler_seen(node)

    def leave_TryStar(self, node: cst.TryStar) -> None:
        self._leave_try(node)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self._handler_seen(node)

    def _handler_seen(self, node: cst.CSTNode) -> None:
        for g in reversed(self.guards):
            if g.kind == "try" and node in getattr(g.node, "handlers", ()):
                if g.body_end is None:
                    g.body_end = self.ctx.seq
                break

    def leave_Try(self, node: cst.Try) -> None:
        self._leave_try(node)

    def _leave_try(self, node: cst.Try | cst.TryStar) -> None:
        g = self.guards.pop()
        end = g.body_end if g.body_end is not None else self.ctx.seq
        if end <= g.start:
            return
        ctx, target = self.ctx, self.ctx.target()
        final = node.finalbody
        leaves = final is not None and isinstance(final.body, cst.IndentedBlock) and any(
            terminal(st) is not None for st in final.body.body)

        def check() -> None:
            if not ctx.evidence_between(g.start, end):
                return
            if leaves and final is not None:
                ctx.suppress(SuppressionKind.SWALLOWED, final, target=target,
                             detail="return/break in finally discards the failure")
            for handler in node.handlers:
                if not reraises(handler, ctx):
                    self._swallow(handler, target)
        ctx.post_checks.append(check)

    def _swallow(self, handler: cst.ExceptHandler | cst.ExceptStarHandler, target: str) -> None:
        ctx = self.ctx
        if handler.type is None:
            ctx.suppress(SuppressionKind.SWALLOWED, handler, detail="bare except", target=target)
            return
        types = handler.type.elements if isinstance(handler.type, cst.Tuple) else None
        exprs = [e.value for e in types] if types is not None else [handler.type]
        for expr in exprs:
            hit = swallowed_exception(ctx, expr)
            if hit:
                ctx.suppress(SuppressionKind.SWALLOWED, handler, detail=f"except {hit}",
                             target=target)
                return

    def visit_With(self, node: cst.With) -> None:
        self.guards.append(Guard(node, self.ctx.seq, kind="with"))

    def leave_With(self, node: cst.With) -> None:
        g = self.guards.pop()
        if self.ctx.seq <= g.start:
            return
        ctx, end, target = self.ctx, self.ctx.seq, self.ctx.target()
        # Calls in the `with` header are not the guarded body.
        header = sum(1 for _ in calls_in_header(node))

        def check() -> None:
            if ctx.evidence_between(g.start + header, end):
                self._with(node, target)
        ctx.post_checks.append(check)

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if isinstance(node.body, cst.IndentedBlock) and any(
                isinstance(st, cst.FunctionDef) and st.name.value == "__exit__" and
                returns_true(st) for st in node.body.body):
            self._swallowing_classes.add(node.name.value)

    def _with(self, node: cst.With, target: str) -> None:
        ctx = self.ctx
        for item in node.items:
            call = item.item
            if not isinstance(call, cst.Call):
                continue
            if isinstance(call.func, cst.Name) and call.func.value in self._swallowing_classes:
                ctx.suppress(SuppressionKind.SWALLOWED, item, target=target,
                             detail=f"{call.func.value}.__exit__ returns True")
                return
            hit = self._swallowed_by(call)
            if hit:
                ctx.suppress(SuppressionKind.SWALLOWED, item,
                             detail=f"{dotted(call.func)}({hit})", target=target)
                return

    def _swallowed_by(self, call: cst.Call) -> str | None:
        """The broad exception a suppress()/raises() call catches, if it catches one."""
        ctx = self.ctx
        if not matches(ctx.qualnames(call.func), ctx.tables.swallowing_calls) and \
                not (isinstance(call.func, cst.Attribute) and
                     call.func.attr.value in ("assertRaises", "suppress")):
            return None
        for arg in call.args:
            if arg.keyword is not None:
                continue
            values = arg.value.elements if isinstance(arg.value, cst.Tuple) else None
            exprs = [e.value for e in values] if values is not None else [arg.value]
            for expr in exprs:
                hit = swallowed_exception(ctx, expr)
                if hit:
                    return hit
        return None


def swallowed_exception(ctx: Context, expr: cst.BaseExpression) -> str | None:
    """The broad exception class ``expr`` names, if catching it catches a failed check:
    one of the table's, or a TestCase's ``failureException`` however reached
    (``self.failureException``, ``unittest.TestCase.failureException``): whatever a class
    sets it to is what its assert methods raise."""
    hit = matches(ctx.qualnames(expr), ctx.tables.swallowed_exceptions)
    if hit is None and isinstance(expr, cst.Attribute) and \
            expr.attr.value == "failureException":
        return f"{dotted(expr) or 'failureException'} (what assertions raise)"
    return hit


def returns_true(fn: cst.FunctionDef) -> bool:
    found = False

    class _R(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            nonlocal found
            if node.value is not None and constant_truth(node.value) is True:
                found = True

    fn.visit(_R())
    return found


def calls_in_header(node: cst.With) -> list[cst.Call]:
    found: list[cst.Call] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

    for item in node.items:
        item.visit(_Calls())
    return found


def reraises(handler: cst.ExceptHandler | cst.ExceptStarHandler, ctx: Context) -> bool:
    """Whether the handler always fails the test: an unconditional ``raise`` at its top
    level, or a top-level call of pytest.fail / self.fail. A raise behind an ``if``
    does not count: the handler can still swallow."""
    body = handler.body
    if not isinstance(body, cst.IndentedBlock):
        return False
    for stmt in body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Raise):
                return True
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
                func = small.value.func
                if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
                        func.value.value in ("self", "cls") and func.attr.value in ("fail",
                                                                                   "failTest"):
                    return True
                if ctx.qualnames(func) & {"pytest.fail", "_pytest.outcomes.fail"}:
                    return True
    return False
