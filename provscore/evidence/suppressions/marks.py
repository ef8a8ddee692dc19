"""Skip and xfail marks, runtime skips, dynamic framework access."""

from __future__ import annotations

import libcst as cst

from provscore.change.warning_filters import loosened
from provscore.evidence.constants import constant_truth
from provscore.evidence.context import Collector, Context, callee
from provscore.evidence.cst_names import dotted, is_dynamic_getattr, method_called
from provscore.evidence.model import SuppressionKind
from provscore.evidence.suppressions.common import call_names, mark_kind
from provscore.names import matches


def skip_exceptions(ctx: Context) -> frozenset[str]:
    """Classes of this module that derive from a skip exception, directly or through each
    other (``class ResourceDenied(unittest.SkipTest)``): raising one skips the test."""
    found: set[str] = set()
    changed = True
    while changed:
        changed = False
        for cls in ctx.classes:
            if cls.name in found or cls.parent is None or cls.parent.kind != "module":
                continue
            if any(b in found or matches(ctx.aliases.resolve(b), ctx.tables.runtime_skips)
                   for b in cls.bases):
                found.add(cls.name)
                changed = True
    return frozenset(found)


class MarkCollector(Collector):
    """Skips, xfails and runtime skips in any spelling, resolved after the walk."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._skip_calls: set[int] = set()  # x.skipTest(...) already reported as a call
        # Values bound to a name (`skip = pytest.mark.skip`): a mark stored is not a mark
        # applied, only its uses apply it; a runtime skip *called* there still skips.
        self._bound: set[int] = set()
        self._skip_classes: frozenset[str] | None = None

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        func = node.func
        target = ctx.target()
        method = method_called(node)
        if method in ctx.tables.skip_methods:
            self._skip_calls.add(id(func))
            # In a setUp (no test around it), the conditions of the setUp decide too.
            ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, detail=method or "",
                         guards=ctx.guards() or ctx.def_guards())
            return
        taken = dotted(node) if isinstance(func, cst.Name) and func.value == "getattr" else None
        if id(node) not in self._skip_calls and taken is not None and \
                taken.rsplit(".", 1)[-1] in ctx.tables.skip_methods:
            # `later = getattr(self, "skipTest")`: taking the method is enough.
            ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, detail=taken)
            return
        if is_dynamic_getattr(node) or (isinstance(func, cst.Name) and func.value == "vars"
                                        and node.args):
            ctx.deferred.append(lambda: self._dynamic(node, target))
        frame = ctx.frame.qualname
        exits, guards = self._exits_end_the_run(), self._guards()
        ctx.deferred.append(lambda: self._call(node, target, frame, exits, guards))
        # `collect_ignore.append(...)` and friends
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
                func.value.value in ctx.tables.collection_variables:
            ctx.suppress(SuppressionKind.COLLECTION_VARIABLE, node, target=ctx.path,
                         guards=ctx.place_guards())

    def _warning_filter(self, node: cst.Call, target: str, frame: str) -> None:
        """``@pytest.mark.filterwarnings("ignore")`` where base's ini makes warnings errors:
        a warning that failed the test on base no longer does."""
        errors = self.ctx.config.warning_errors
        filters = [a.value.evaluated_value if isinstance(a.value, cst.SimpleString) and
                   isinstance(a.value.evaluated_value, str) else None
                   for a in node.args if a.keyword is None]
        loose = loosened(filters, errors)
        if loose is not None:
            self.ctx.suppress(SuppressionKind.WARNING_FILTER, node, target=target, frame=frame,
                              detail=f"{loose!r} under base's filterwarnings error for "
                                     f"{', '.join(errors)}")

    def _guards(self) -> tuple[tuple[cst.CSTNode, bool], ...]:
        """The conditions a skip here runs under: inside the test around it, else inside
        the function it sits in (a skip helper's ``if not has_speedups():``)."""
        return self.ctx.guards() or self.ctx.def_guards()

    def _dynamic(self, node: cst.Call, target: str) -> None:
        """getattr(pytest, name) / vars(unittest)[...]: a framework reached by a name
        nobody can read statically. Fail closed."""
        ctx = self.ctx
        base = ctx.qualnames(node.args[0].value)
        roots = ctx.tables.dynamic_modules
        if any(q.split(".", 1)[0] in roots for q in base):
            ctx.suppress(SuppressionKind.DYNAMIC, node, target=target,
                         detail="framework attribute reached dynamically")

    def _exits_end_the_run(self) -> bool:
        """Whether a process exit here ends collection: at import time of the module (not
        under a statically false ``if`` such as ``__name__ == "__main__"``), or anywhere in
        a conftest.py (its hooks and fixtures run in the session, outside any test)."""
        ctx = self.ctx
        if any(isinstance(c, cst.If) and constant_truth(c.test) is negated
               for c, negated, _ in ctx.conds):
            return False
        return ctx.path.rsplit("/", 1)[-1] == "conftest.py" or \
            all(fr.kind != "func" for fr in ctx.frames)

    def _call(self, node: cst.Call, target: str, frame: str = "", exits: bool = False,
              guards: tuple[tuple[cst.CSTNode, bool], ...] = ()) -> None:
        ctx = self.ctx
        if id(node) in ctx.consumed:
            return
        names = call_names(ctx, node)
        kind = mark_kind(ctx.tables, names)
        t = ctx.tables
        bound = id(node) in self._bound
        if kind is not None:
            ctx.consumed.add(id(node.func))
            if not bound:
                ctx.suppress(kind, node, target=target, frame=frame)
        elif matches(names, t.warning_filter_marks):
            if not bound:
                self._warning_filter(node, target, frame)
        elif matches(names, t.runtime_skips):
            # `s = getattr(pytest, "skip")` only takes the function; `np =
            # pytest.importorskip("numpy")` calls it.
            if not (bound and dotted(node) is not None):
                ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, target=target, frame=frame,
                             guards=guards)
        elif exits and matches(names, t.import_exits):
            ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, target=target, frame=frame,
                         detail="ends the test process before any test runs", guards=guards)
        elif bound:
            return  # `mod = importlib.import_module(name)`: the uses of mod are resolved
        elif matches(names, t.dynamic_calls):
            ctx.suppress(SuppressionKind.DYNAMIC, node, target=target, frame=frame,
                         detail="code built at run time cannot be classified")
        # a setattr() that rebinds a framework name is the hook collector's

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if node.attr.value in self.ctx.tables.skip_methods and id(node) not in self._skip_calls:
            # `later = self.skipTest; later(...)`: taking the method is enough.
            self.ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, detail=node.attr.value)
        name = dotted(node)
        if name is None:
            return True
        root = name.split(".", 1)[0]
        if root in self.ctx.tables.mark_roots or self.ctx.aliases.imported(root) or \
                self.ctx.aliases.star_modules:
            target = self.ctx.target()
            self.ctx.deferred.append(lambda: self._bare_mark(node, target))
        return False  # a pure dotted chain holds nothing else to visit

    def visit_Name(self, node: cst.Name) -> None:
        target = self.ctx.target()
        self.ctx.deferred.append(lambda: self._bare_mark(node, target))

    def _bare_mark(self, node: cst.Name | cst.Attribute, target: str) -> None:
        ctx = self.ctx
        if id(node) in ctx.consumed or id(node) in self._bound:
            return
        name = dotted(node)
        if name is None or (isinstance(node, cst.Name) and not ctx.aliases.imported(name)
                            and not ctx.aliases.star_modules):
            return
        # Runtime skips spelled as attributes (pytest.skip.Exception) are caught by
        # visit_Raise and visit_Call; only marks apply by mere mention.
        kind = mark_kind(ctx.tables, ctx.aliases.resolve(name))
        if kind is not None:
            ctx.suppress(kind, node, target=target)

    def visit_ImportAlias(self, node: cst.ImportAlias) -> None:
        # `from unittest import expectedFailure as xfail`: a name imported is no mark
        # applied; only its uses (a decorator, `pytestmark = xfail`) apply it.
        names: list[cst.CSTNode] = [node.name]
        if node.asname is not None:
            names.append(node.asname.name)
        while names:
            part = names.pop()
            self._bound.add(id(part))
            if isinstance(part, cst.Attribute):
                names += [part.value, part.attr]

    def visit_Raise(self, node: cst.Raise) -> None:
        if node.exc is None:
            return
        target = self.ctx.target()
        exc = node.exc
        frame = self.ctx.frame.qualname
        exits, guards = self._exits_end_the_run(), self._guards()
        self.ctx.deferred.append(lambda: self._raise(node, exc, target, frame, exits, guards))

    def _raise(self, node: cst.Raise, exc: cst.BaseExpression, target: str, frame: str,
               exits: bool, guards: tuple[tuple[cst.CSTNode, bool], ...]) -> None:
        ctx = self.ctx
        names = ctx.qualnames(callee(exc))
        if self._skip_classes is None:  # every class is known once the walk is done
            self._skip_classes = skip_exceptions(ctx)
        if matches(names, ctx.tables.runtime_skips) or dotted(callee(exc)) in self._skip_classes:
            ctx.consumed.add(id(exc))
            ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, target=target, frame=frame,
                         guards=guards)
        elif exits and matches(names, ctx.tables.import_exits):
            ctx.consumed.add(id(exc))
            ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, target=target, frame=frame,
                         detail="ends the test process before any test runs", guards=guards)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._bind(t.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._bind(node.target, node.value)

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Tuple | cst.List) and isinstance(value, cst.Tuple | cst.List) \
                and len(target.elements) == len(value.elements):
            for t, v in zip(target.elements, value.elements, strict=True):
                self._bind(t.value, v.value)
        elif isinstance(target, cst.Name):
            self._bound.add(id(target))
            # pytestmark applies what it is bound to, to every test of the module.
            if target.value != "pytestmark":
                self._bound.update((id(value), id(callee(value))))
