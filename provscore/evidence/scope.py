"""Scopes, names and conditions: frames and pytest's test identity, aliases, bindings."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from provscore.evidence.constants import constant_truth
from provscore.evidence.context import Collector, Context, Frame, callee, sub_scope
from provscore.evidence.cst_names import bind_import, dotted
from provscore.evidence.model import SuppressionKind
from provscore.names import MODULE_LOADERS, matches


def _base_names(ctx: Context, node: cst.ClassDef) -> set[str]:
    out: set[str] = set()
    for arg in node.bases:
        out |= ctx.qualnames(arg.value)
        name = dotted(arg.value)
        if name:
            out.add(name)
    return out


def _imported_unittest_base(ctx: Context, node: cst.ClassDef) -> bool:
    """A base imported from another module (``from .base import WidgetTest``) that derives
    from TestCase there, directly or through its own bases: read from that module."""
    lookup = ctx.helper_lookup
    if lookup is None:
        return False
    for arg in node.bases:
        name = dotted(arg.value)
        if name is None or not ctx.aliases.imported(name.split(".", 1)[0]):
            continue
        if any(lookup.unittest_class(ctx.path, q) for q in sorted(ctx.qualnames(arg.value))):
            return True
    return False


class ScopeCollector(Collector):
    """Frames for classes and functions, and pytest's test identity rules."""

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        ctx = self.ctx
        parent = ctx.frame
        name = node.name.value
        qual = f"{parent.qualname}.{name}" if parent.qualname else name
        bases = _base_names(ctx, node)
        unittest_base = any(
            b.endswith("TestCase") or b.rsplit(".", 1)[-1] in ctx.unittest_classes
            for b in bases) or _imported_unittest_base(ctx, node)
        if unittest_base:
            ctx.unittest_classes.add(name)
        in_collectable = ctx.collect_tests and (parent.kind == "module" or parent.is_test_class)
        # pytest does not collect a Test* class with its own or an inherited __init__/__new__.
        has_init = isinstance(node.body, cst.IndentedBlock) and any(
            isinstance(s, cst.FunctionDef) and s.name.value in ("__init__", "__new__")
            for s in node.body.body)
        if has_init:
            ctx.init_classes.add(name)
        inherits_init = any(b.rsplit(".", 1)[-1] in ctx.init_classes for b in bases)
        if _is_abstract(ctx, node, bases):
            inherits_init = True  # pytest skips abstract classes (inspect.isabstract)
        is_test_class = in_collectable and (
            unittest_base or (ctx.config.is_test_class(name) and not has_init
                              and not inherits_init))
        node_id = f"{parent.node_id}::{name}" if parent.kind != "func" else parent.node_id
        ctx.order += 1
        _rebind(parent, name, ctx.order)
        scope = sub_scope(parent.test_scope, name) if parent.test_id else ""
        frame = Frame("class", name, qual, node_id, node, is_test_class=is_test_class,
                      is_unittest=unittest_base, test_id=parent.test_id, test_scope=scope,
                      parent=parent, order=ctx.order,
                      bases=tuple(d for d in (dotted(a.value) for a in node.bases) if d))
        ctx.frames.append(frame)
        ctx.classes.append(frame)

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.ctx.frames.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        ctx = self.ctx
        parent = ctx.frame
        name = node.name.value
        qual = f"{parent.qualname}.{name}" if parent.qualname else name
        if not ctx.collect_tests:
            is_test = False
        elif parent.kind == "module":
            is_test = ctx.config.is_test_function(name)
        elif parent.kind == "class" and parent.is_test_class:
            is_test = name.startswith("test") if parent.is_unittest \
                else ctx.config.is_test_function(name)
        else:
            is_test = False
        if parent.test_id is not None:
            is_test = False
        node_id = f"{parent.node_id}::{name}" if parent.kind != "func" else parent.node_id
        fixture = any(matches(ctx.qualnames(callee(d.decorator)), ctx.tables.fixture_decorators)
                      for d in node.decorators)
        is_test = is_test and not fixture  # a fixture is never collected as a test
        if is_test and parent.kind == "module" and (ctx.conds or ctx.try_depth_module):
            # Off in the body of a false `if`, or in the else branch of a true one.
            statically_off = any(
                constant_truth(c.test) is neg for c, neg, _ in ctx.conds
                if isinstance(c, cst.If))
            if statically_off:
                is_test = False  # e.g. defined under `if __name__ == "__main__":`
            else:
                ctx.suppress(SuppressionKind.DEAD_BRANCH, node.name, target=f"{ctx.path}::{name}",
                             detail="test defined only when a module-level condition holds")
        ctx.order += 1
        _rebind(parent, name, ctx.order)
        frame = Frame("func", name, qual, node_id if parent.kind != "func" else
                      f"{ctx.path}::{qual}", node, is_test=is_test, fixture=fixture,
                      test_id=node_id if is_test else parent.test_id,
                      test_scope="" if is_test else (
                          sub_scope(parent.test_scope, name) if parent.test_id else ""),
                      parent=parent, order=ctx.order)
        ctx.frames.append(frame)
        ctx.defs.append(frame)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        ctx = self.ctx
        frame = ctx.frames.pop()
        if frame.is_test and frame.return_seq is not None and frame.return_node is not None:
            start, end, node_ret = frame.return_seq, ctx.seq, frame.return_node

            def check() -> None:
                later = ctx.evidence_between(start, end, frame.node_id)
                if later:
                    ctx.suppress(SuppressionKind.EARLY_RETURN, node_ret,
                                 detail=f"{later} evidence item(s) after it",
                                 target=frame.node_id)
            ctx.post_checks.append(check)

    def visit_Return(self, node: cst.Return) -> None:
        frame = self.ctx.frame
        if frame.is_test and frame.return_seq is None:
            frame.return_seq = self.ctx.seq
            frame.return_node = node
        if frame.kind == "func":
            frame.returns.append(node.value)

    def visit_Yield(self, node: cst.Yield) -> None:
        if self.ctx.frame.kind == "func":
            self.ctx.frame.returns.append(None)  # a generator fixture: not inlinable

    # Re-binding a name in a module or class body hides an earlier test of that name.
    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._rebound(t.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._rebound(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._rebound(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._rebound(node.target)

    def _rebound(self, target: cst.BaseExpression) -> None:
        frame = self.ctx.frame
        if frame.kind == "func":
            return
        names = [target] if isinstance(target, cst.Name) else [
            e.value for e in target.elements if isinstance(e.value, cst.Name)
        ] if isinstance(target, cst.Tuple | cst.List) else []
        for n in names:
            if isinstance(n, cst.Name):
                self.ctx.order += 1
                _rebind(frame, n.value, self.ctx.order)


def _is_abstract(ctx: Context, node: cst.ClassDef, bases: set[str]) -> bool:
    abc_meta = bases & {"abc.ABC", "ABC"} or any(
        kw.keyword is not None and kw.keyword.value == "metaclass" and
        ctx.qualnames(kw.value) & {"abc.ABCMeta", "ABCMeta"} for kw in node.keywords)
    if not abc_meta or not isinstance(node.body, cst.IndentedBlock):
        return False
    return any(isinstance(st, cst.FunctionDef) and any(
        ctx.qualnames(callee(d.decorator)) & {"abc.abstractmethod", "abstractmethod"}
        for d in st.decorators) for st in node.body.body)


def _rebind(frame: Frame, name: str, order: int) -> None:
    frame.rebinds[name] = order


def _shadowed(frame: Frame) -> bool:
    """A def whose name its scope binds again later is not what pytest collects."""
    parent = frame.parent
    return parent is not None and parent.rebinds.get(frame.name, frame.order) > frame.order


def still_bound(frame: Frame) -> bool:
    """Neither the test nor any class around it was re-bound (``del``, ``= None``, a
    second ``def`` of the same name)."""
    cur: Frame | None = frame
    while cur is not None and cur.kind != "module":
        if _shadowed(cur):
            return False
        cur = cur.parent
    return True


class AliasCollector(Collector):
    """Names bound to other names: imports, and assignments of names, attribute chains,
    literal ``getattr``, calls (a mark factory's result) and literal module imports."""

    def visit_Import(self, node: cst.Import) -> None:
        bind_import(self.ctx.aliases, node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        bind_import(self.ctx.aliases, node)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._bind(t.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, node.value)

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Tuple | cst.List) and isinstance(value, cst.Tuple | cst.List) \
                and len(target.elements) == len(value.elements):
            for t, v in zip(target.elements, value.elements, strict=True):
                self._bind(t.value, v.value)
            return
        if not isinstance(target, cst.Name):
            return
        name = self._bound_name(value)
        if name is not None:
            self.ctx.aliases.bind(target.value, name)

    def _bound_name(self, value: cst.BaseExpression) -> str | None:
        """What ``x = value`` makes ``x`` stand for, as a dotted name."""
        spelled = dotted(value)  # a name, an attribute chain, getattr(pytest, "skip")
        if spelled is not None:
            return spelled
        if isinstance(value, cst.Call):
            module = _module_loaded(self.ctx, value)
            if module is not None:
                return module
        return dotted(callee(value))  # `skip = pytest.mark.skipif(...)`: the mark


def _module_loaded(ctx: Context, call: cst.Call) -> str | None:
    """``__import__("pytest")`` / ``importlib.import_module("pytest")``: the module the
    call returns, when it is named by a literal (imports seen so far resolve the loader)."""
    func = dotted(call.func)
    if func is None or not call.args or call.args[0].keyword is not None:
        return None
    arg = call.args[0].value
    if not isinstance(arg, cst.SimpleString) or not isinstance(arg.evaluated_value, str):
        return None
    module = arg.evaluated_value
    for loader in ctx.aliases.resolve(func):
        if loader in MODULE_LOADERS:
            top_only = MODULE_LOADERS[loader] and len(call.args) < 4  # no fromlist
            return module.split(".", 1)[0] if top_only else module
    return None


class ConditionCollector(Collector):
    """The conditions around each statement (if/elif/else, while, for, try at module level).

    A conditional early exit is a condition too: after ``if cond: continue`` (or ``break``,
    ``return``) the rest of the block runs only when ``not cond``; after hypothesis'
    ``assume(cond)`` (which discards every example where cond is false) only when cond."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._blocks: list[cst.IndentedBlock] = []
        # (block, condition node, negated): a condition that holds to the end of its block
        self._exits: list[tuple[cst.IndentedBlock, cst.CSTNode, bool]] = []

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._blocks.append(node)

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._blocks.pop()
        while self._exits and self._exits[-1][0] is node:
            _, cond, negated = self._exits.pop()
            conds = self.ctx.conds
            for i in range(len(conds) - 1, -1, -1):
                if conds[i][0] is cond and conds[i][1] is negated:
                    del conds[i]
                    break

    def leave_Expr(self, node: cst.Expr) -> None:
        ctx = self.ctx
        call = node.value
        if not isinstance(call, cst.Call) or not self._blocks or ctx.frame.kind != "func" or \
                not matches(ctx.qualnames(call.func), ctx.tables.hypothesis_assume):
            return
        cond = next((a.value for a in call.args if a.keyword is None or
                     a.keyword.value == "condition"), None)
        if cond is None or a_star(call):
            return
        self._exits.append((self._blocks[-1], cond, False))
        ctx.conds.append((cond, False, len(ctx.frames)))

    def visit_If(self, node: cst.If) -> None:
        ctx = self.ctx
        if ctx.conds and ctx.conds[-1][0] is not node and isinstance(ctx.conds[-1][0], cst.If) \
                and ctx.conds[-1][0].orelse is node:
            prev, _, depth = ctx.conds.pop()  # elif: the previous test is now false
            ctx.conds.append((prev, True, depth))
        ctx.conds.append((node, False, len(ctx.frames)))

    def visit_Else(self, node: cst.Else) -> None:
        ctx = self.ctx
        for i in range(len(ctx.conds) - 1, -1, -1):
            owner = ctx.conds[i][0]
            if getattr(owner, "orelse", None) is node:
                ctx.conds[i] = (owner, True, ctx.conds[i][2])
                break

    def leave_If(self, node: cst.If) -> None:
        ctx = self.ctx
        while ctx.conds and ctx.conds[-1][0] is not node:
            ctx.conds.pop()
        if ctx.conds:
            ctx.conds.pop()
        if node.orelse is None and self._blocks and ctx.frame.kind == "func" and \
                _only_exits(node.body):
            self._exits.append((self._blocks[-1], node, True))
            ctx.conds.append((node, True, len(ctx.frames)))

    def visit_While(self, node: cst.While) -> None:
        self.ctx.conds.append((node, False, len(self.ctx.frames)))

    def leave_While(self, node: cst.While) -> None:
        if self.ctx.conds and self.ctx.conds[-1][0] is node:
            self.ctx.conds.pop()

    def visit_For(self, node: cst.For) -> None:
        self.ctx.conds.append((node, False, len(self.ctx.frames)))

    def leave_For(self, node: cst.For) -> None:
        if self.ctx.conds and self.ctx.conds[-1][0] is node:
            self.ctx.conds.pop()

    def visit_Try(self, node: cst.Try) -> None:
        if self.ctx.frame.kind == "module":
            self.ctx.try_depth_module += 1

    def leave_Try(self, node: cst.Try) -> None:
        if self.ctx.frame.kind == "module":
            self.ctx.try_depth_module -= 1


def a_star(call: cst.Call) -> bool:
    """``f(*args)`` / ``f(**kw)``: which argument is which cannot be read."""
    return any(a.star for a in call.args)


def _only_exits(body: cst.BaseSuite) -> bool:
    """The block is one statement that leaves it: continue, break or return."""
    small: Sequence[cst.BaseSmallStatement] = ()
    if isinstance(body, cst.SimpleStatementSuite):
        small = body.body
    elif isinstance(body, cst.IndentedBlock) and len(body.body) == 1 and \
            isinstance(body.body[0], cst.SimpleStatementLine):
        small = body.body[0].body
    return len(small) == 1 and isinstance(small[0], cst.Continue | cst.Break | cst.Return)


# A name bound by unpacking a value that may be a named tuple: (frame, name, which of its
# bindings, the value, the name's position, how many names the target unpacks).
_Unpacked = tuple[Frame, str, int, cst.BaseExpression, int, int]


class BindingCollector(Collector):
    """What each name is bound to per scope (for anchors that survive renames)."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._unpacked: list[_Unpacked] = []

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        bindings = self.ctx.frame.bindings
        if isinstance(target, cst.Name):
            bindings.setdefault(target.value, []).append(value)
        elif isinstance(target, cst.Tuple | cst.List):
            # `a, b = x, y` binds a to x and b to y; from anything else, to what is unknown
            # (unless it is a named tuple: see finish).
            values = value.elements if isinstance(value, cst.Tuple | cst.List) else ()
            starred = any(isinstance(el, cst.StarredElement) for el in target.elements)
            pairwise = len(values) == len(target.elements) and not starred and not any(
                isinstance(el, cst.StarredElement) for el in values)
            for i, el in enumerate(target.elements):
                self._bind(el.value, values[i].value if pairwise else None)
                if isinstance(value, cst.Call | cst.Name) and not starred and \
                        isinstance(el.value, cst.Name):
                    name = el.value.value
                    self._unpacked.append((self.ctx.frame, name, len(bindings[name]) - 1,
                                           value, i, len(target.elements)))
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, None)
        elif isinstance(target, cst.Attribute):
            self.ctx.attribute_writes.add(target.attr.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._bind(t.target, node.value if len(node.targets) == 1 else None)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, None)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, None)

    def visit_AsName(self, node: cst.AsName) -> None:
        if isinstance(node.name, cst.Name | cst.Tuple | cst.List):
            self._bind(node.name, None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, None)

    def visit_Param(self, node: cst.Param) -> None:
        self._bind(node.name, None)

    def visit_Global(self, node: cst.Global) -> None:
        for n in node.names:
            self._bind(n.name, None)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        for n in node.names:
            self._bind(n.name, None)

    def finish(self) -> None:
        """``out, err = capsys.readouterr()`` binds ``out`` to ``capsys.readouterr().out``:
        a call known to return a named tuple of that many fields (or a name bound once to
        one), unpacked, is its fields, as ``captured.out`` reads them."""
        for frame, name, index, value, position, count in self._unpacked:
            fields = _named_tuple_fields(self.ctx, frame, value)
            if len(fields) == count and frame.bindings[name][index] is None:
                frame.bindings[name][index] = cst.Attribute(
                    value=value, attr=cst.Name(fields[position]))


def _named_tuple_fields(ctx: Context, frame: Frame, value: cst.BaseExpression
                        ) -> tuple[str, ...]:
    if isinstance(value, cst.Name):
        bound = frame.bindings.get(value.value, [])
        if len(bound) != 1 or not isinstance(bound[0], cst.Call):
            return ()
        value = bound[0]
    func = dotted(value.func) if isinstance(value, cst.Call) else None
    return ctx.named_tuple(func) if func else ()
