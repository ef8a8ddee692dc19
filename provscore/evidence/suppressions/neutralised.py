"""Neutralised tests: evidence in branches and statements that never run."""

from __future__ import annotations

import libcst as cst

from provscore.evidence.constants import constant_truth
from provscore.evidence.context import Collector, Context
from provscore.evidence.model import SuppressionKind
from provscore.evidence.suppressions.common import Guard, terminal


class NeutralisedCollector(Collector):
    """Dead branches, unreachable statements and pytest.raises blocks that end early."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.guards: list[Guard] = []
        # first unreachable statement id → (its block, the terminal statement before it)
        self._dead: dict[int, tuple[cst.IndentedBlock, cst.CSTNode]] = {}
        self._dead_open: dict[int, tuple[int, cst.CSTNode]] = {}

    def visit_If(self, node: cst.If) -> None:
        self._mark_dead_start(node)
        if self.guards and self.guards[-1].node is not node and \
                isinstance(self.guards[-1].node, cst.If) and self.guards[-1].node.orelse is node:
            self.guards[-1].body_end = self.ctx.seq
        truth = constant_truth(node.test)
        self.guards.append(Guard(node, self.ctx.seq, kind="if",
                                  detail="" if truth is None else str(truth)))

    def visit_Else(self, node: cst.Else) -> None:
        for g in reversed(self.guards):
            if g.kind in ("if", "for") and getattr(g.node, "orelse", None) is node:
                if g.body_end is None:
                    g.body_end = self.ctx.seq
                if g.kind == "if" and g.detail == "True":
                    g.detail = "else-of-True"
                    g.start = self.ctx.seq
                    g.body_end = None
                break

    def leave_If(self, node: cst.If) -> None:
        g = self.guards.pop()
        end = g.body_end if g.body_end is not None else self.ctx.seq
        if g.detail in ("False", "else-of-True") and end > g.start:
            ctx, target = self.ctx, self.ctx.target()
            where = node.test if g.detail == "False" else node

            def check() -> None:
                if ctx.evidence_between(g.start, end):
                    ctx.suppress(SuppressionKind.DEAD_BRANCH, where, target=target,
                                 detail="evidence in a branch that never runs")
            ctx.post_checks.append(check)

    def visit_While(self, node: cst.While) -> None:
        self._mark_dead_start(node)
        if constant_truth(node.test) is False:
            self.guards.append(Guard(node, self.ctx.seq, kind="while"))

    def leave_While(self, node: cst.While) -> None:
        if self.guards and self.guards[-1].node is node:
            g = self.guards.pop()
            ctx, end, target = self.ctx, self.ctx.seq, self.ctx.target()

            def check() -> None:
                if ctx.evidence_between(g.start, end):
                    ctx.suppress(SuppressionKind.DEAD_BRANCH, node.test, target=target,
                                 detail="evidence in a loop that never runs")
            ctx.post_checks.append(check)

    def visit_For(self, node: cst.For) -> None:
        self._mark_dead_start(node)
        value = constant_truth(node.iter)
        self.guards.append(Guard(node, self.ctx.seq, kind="for",
                                  detail="False" if value is False else ""))

    def leave_For(self, node: cst.For) -> None:
        g = self.guards.pop()
        end = g.body_end if g.body_end is not None else self.ctx.seq
        if g.detail == "False" and end > g.start:
            ctx, target = self.ctx, self.ctx.target()

            def check() -> None:
                if ctx.evidence_between(g.start, end):
                    ctx.suppress(SuppressionKind.DEAD_BRANCH, node.iter, target=target,
                                 detail="evidence in a loop over nothing")
            ctx.post_checks.append(check)

    # -- unreachable statements after return / raise / break / continue -------
    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        body = list(node.body)
        for i, stmt in enumerate(body[:-1]):
            if terminal(stmt):
                if isinstance(terminal(stmt), cst.Return) and self.ctx.frame.is_test:
                    return  # an early return in a test body is reported as such
                self._dead[id(body[i + 1])] = (node, stmt)
                return

    def _mark_dead_start(self, node: cst.CSTNode) -> None:
        hit = self._dead.pop(id(node), None)
        if hit is not None:
            self._dead_open[id(hit[0])] = (self.ctx.seq, hit[1])

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        opened = self._dead_open.pop(id(node), None)
        if opened is None:
            return
        start, terminal = opened
        ctx, end, target = self.ctx, self.ctx.seq, self.ctx.target()

        def check() -> None:
            if ctx.evidence_between(start, end):
                ctx.suppress(SuppressionKind.DEAD_BRANCH, terminal, target=target,
                             detail="evidence after a statement that always leaves the block")
        ctx.post_checks.append(check)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._mark_dead_start(node)

    def visit_Try(self, node: cst.Try) -> None:
        self._mark_dead_start(node)

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self._mark_dead_start(node)

    def visit_With(self, node: cst.With) -> None:
        self._mark_dead_start(node)
        self._expected_exception_block(node)

    def _expected_exception_block(self, node: cst.With) -> None:
        """In ``with pytest.raises(E):`` only the first statement matters: what follows
        it never runs when it raises, and a block that raises E itself cannot fail."""
        ctx = self.ctx
        body = node.body
        if not isinstance(body, cst.IndentedBlock) or not body.body:
            return
        for item in node.items:
            call = item.item
            if not isinstance(call, cst.Call):
                continue
            expects = ctx.qualnames(call.func) & EXPECTS_EXCEPTION or (
                isinstance(call.func, cst.Attribute) and
                call.func.attr.value in ("assertRaises", "assertRaisesRegex"))
            if not expects:
                continue
            first = body.body[0]
            if any(isinstance(terminal(st), cst.Raise) for st in body.body):
                ctx.self_raising.add(id(call))
            if len(body.body) > 1 and id(body.body[1]) not in self._dead:
                self._dead[id(body.body[1])] = (body, first)
            return


EXPECTS_EXCEPTION = {"pytest.raises", "_pytest.python_api.raises",
                      "unittest.TestCase.assertRaises"}
