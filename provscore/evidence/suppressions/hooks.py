"""Collection and report hooks, assertion overrides, rebindings, wrapping decorators."""

from __future__ import annotations

import functools

import libcst as cst

from provscore.evidence.context import Collector, Context, Frame, callee
from provscore.evidence.cst_names import dotted
from provscore.evidence.model import SuppressionKind
from provscore.evidence.suppressions.common import (
    call_names,
    is_skip_method_call,
    mark_kind,
)
from provscore.evidence.suppressions.load_tests import (
    doctest_table_summary,
    load_tests_summary,
)
from provscore.names import matches


class HookCollector(Collector):
    """Hooks and overrides that change what is collected or how failures report."""

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        if is_skip_method_call(ctx, node):
            return
        target = ctx.target()
        ctx.deferred.append(lambda: self._call(node, target))

    def _call(self, node: cst.Call, target: str) -> None:
        """``setattr(obj, "assertEqual", ...)``, unless the call is a mark, a runtime
        skip or dynamic code (the mark collector reports those)."""
        ctx = self.ctx
        if id(node) in ctx.consumed:
            return
        names = call_names(ctx, node)
        t = ctx.tables
        if mark_kind(t, names) is not None or matches(names, t.runtime_skips) or \
                matches(names, t.dynamic_calls):
            return
        if (names & {"setattr", "builtins.setattr"} or
                (isinstance(node.func, cst.Attribute) and node.func.attr.value == "setattr")) \
                and len(node.args) >= 2:
            self._setattr(node, names, target)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._assigned(t.target, node)


    def _setattr(self, node: cst.Call, names: set[str], target: str) -> None:
        """setattr(obj, "assertEqual", ...) and monkeypatch.setattr(builtins, ...)."""
        ctx = self.ctx
        args = [a.value for a in node.args if a.keyword is None]
        literal = next((a.evaluated_value for a in args[:2] if isinstance(a, cst.SimpleString)
                        and isinstance(a.evaluated_value, str)), None)
        attr = literal.rsplit(".", 1)[-1] if literal else ""
        kind = self._rebinding_kind(attr) if attr else None
        reached = ctx.qualnames(args[0]) if args else set()
        if kind is None and (any(q.split(".", 1)[0] in ctx.tables.dynamic_modules
                                 for q in reached) or
                             (literal and literal.split(".", 1)[0] in
                              ctx.tables.dynamic_modules)):
            kind = SuppressionKind.ASSERT_OVERRIDE
        if kind is not None:
            ctx.suppress(kind, node, target=target, detail=f"rebinds {literal or 'a framework'}")

    def _rebinding_kind(self, name: str) -> SuppressionKind | None:
        t = self.ctx.tables
        if name in t.rebinding:
            return SuppressionKind(t.rebinding[name])
        if name in t.unittest_methods or name in t.mock_methods or assertion_name(name):
            return SuppressionKind.ASSERT_OVERRIDE
        return None

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._assigned(node.target, node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._assigned(node.target, node)

    def _assigned(self, target: cst.BaseExpression, node: cst.CSTNode) -> None:
        ctx = self.ctx
        t = ctx.tables
        in_func = ctx.frame.kind == "func"
        if isinstance(target, cst.Name):
            name = target.value
            kind = self._rebinding_kind(name) if name in t.rebinding else None
            value = node.value if isinstance(node, cst.Assign) else None
            if name == "__test__" and ctx.frame.kind == "module" and isinstance(value, cst.Dict):
                # doctest's table of extra tests, not pytest's flag: compared entry by entry
                ctx.suppress(SuppressionKind.COLLECTION_HOOK, node, target=ctx.path,
                             detail="doctest __test__ table",
                             code=doctest_table_summary(_entries(value)))
            elif kind is not None and (not in_func or name == "__test__"):
                ctx.suppress(kind, node, detail=f"rebinds {name}")
            elif not in_func and name in t.collection_hooks | t.report_hooks:
                kind = SuppressionKind.COLLECTION_HOOK if name in t.collection_hooks \
                    else SuppressionKind.REPORT_HOOK
                ctx.suppress(kind, node, target=ctx.path, detail=f"{name} bound by assignment")
            elif not in_func and self._shadows_import(name):
                ctx.suppress(SuppressionKind.ASSERT_OVERRIDE, node,
                             detail=f"re-binds imported {name}")
            elif name in t.collection_variables and ctx.frame.kind == "module":
                ctx.suppress(SuppressionKind.COLLECTION_VARIABLE, node, target=ctx.path,
                             guards=ctx.place_guards())
            elif ctx.frame.kind == "class" and (name in t.unittest_methods or
                                                name in t.mock_methods):
                ctx.suppress(SuppressionKind.ASSERT_OVERRIDE, node, detail=f"rebinds {name}")
        elif isinstance(target, cst.Attribute):
            attr = target.attr.value
            # obj.assertEqual = ..., builtins.AssertionError = ..., Cls.__unittest_skip__ = ...
            kind = self._rebinding_kind(attr)
            roots = {q.split(".", 1)[0] for q in ctx.qualnames(target.value)}
            # `m.child = ...` on a mock made here configures it: no framework is rebound.
            if kind is None and roots & t.dynamic_modules and \
                    not ctx.local_mock(target.value, ctx.frame):
                kind = SuppressionKind.ASSERT_OVERRIDE
            base = dotted(target.value)
            if kind is None and base and ctx.aliases.imported(base.split(".", 1)[0]) and \
                    attr.startswith(t.helper_name_prefixes):
                kind = SuppressionKind.ASSERT_OVERRIDE  # helpers.check_total = lambda *a: None
            if kind is not None:
                ctx.suppress(kind, node, detail=f"rebinds {dotted(target) or attr}")

    def _shadows_import(self, name: str) -> bool:
        """A module/class-level binding over an imported assertion or helper name."""
        if not self.ctx.aliases.is_imported(name):
            return False
        imported = self.ctx.aliases.imported(name)
        t = self.ctx.tables
        last = name.rsplit(".", 1)[-1]
        return assertion_name(last) or last.startswith(t.helper_name_prefixes) or any(
            q.split(".", 1)[0] in t.dynamic_modules or q in t.assertion_helpers or
            any(q.startswith(m) for m in t.assert_modules) for q in imported)

    # -- hooks, overrides ---------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        ctx = self.ctx
        t = ctx.tables
        # ScopeCollector has already pushed this def's frame: look at its parent.
        parent = ctx.frames[-2] if len(ctx.frames) >= 2 else ctx.frame
        if parent.kind == "func":
            return
        name = hook_name(node, ctx) or node.name.value
        if name in t.collection_hooks:
            ctx.suppress(SuppressionKind.COLLECTION_HOOK, node, target=ctx.path, detail=name)
        elif name == "load_tests" and parent.kind == "module" and ctx.config.unittest_files:
            summary = load_tests_summary(cst.Module(body=[]).code_for_node(node),
                                         t.load_tests_adding)
            if summary is not None:
                ctx.suppress(SuppressionKind.COLLECTION_HOOK, node, target=ctx.path,
                             detail="load_tests decides which of the module's tests run",
                             code=summary)
        elif name in t.report_hooks:
            ctx.suppress(SuppressionKind.REPORT_HOOK, node, target=ctx.path, detail=name)
        elif parent.kind == "class" and parent.is_unittest and (
                name in t.unittest_methods or name in t.runner_methods):
            ctx.suppress(SuppressionKind.ASSERT_OVERRIDE, node, target=parent.node_id,
                         detail=f"overrides TestCase.{name}")
        elif parent.kind == "class" and name in t.unittest_methods and assertion_name(name):
            # A mixin (no TestCase base of its own) overrides it in every TestCase that
            # derives from it, in this module or any other.
            ctx.suppress(SuppressionKind.ASSERT_OVERRIDE, node, target=parent.node_id,
                         detail=f"defines {name} over TestCase.{name} for the classes "
                                "deriving from it")
        elif parent.kind == "module" and self._shadows_import(name):
            ctx.suppress(SuppressionKind.ASSERT_OVERRIDE, node, target=ctx.path,
                         detail=f"re-defines imported {name}")
        frame = ctx.frame
        if frame.is_test:
            for dec in node.decorators:
                d = dec.decorator
                ctx.deferred.append(functools.partial(self._decorator, d, frame))

    def _decorator(self, dec: cst.BaseExpression, frame: Frame) -> None:
        """A decorator that is neither a mark nor known-safe may replace the test body."""
        ctx = self.ctx
        names = ctx.qualnames(callee(dec)) | ctx.qualnames(dec)
        t = ctx.tables
        if mark_kind(t, names) is not None or matches(names, t.hypothesis_given) or \
                matches(names, t.hypothesis_settings) or matches(names, t.parametrize):
            return
        if any(q.startswith(t.safe_decorators) for q in names):
            return
        if matches(names, t.label_decorators):
            self._label(dec, frame)
            return
        # A skip helper, a transparent decorator or neither (PS206): decided once the
        # module's own helpers are known (evidence/skip_helpers.py).
        ctx.unknown_decorators.append((dec, frame))


    def _label(self, dec: cst.BaseExpression, frame: Frame) -> None:
        """``@tag("slow")`` only labels the test, unless base's runner excludes a label it
        gives; a label that is not a literal, where the runner excludes some, may be one."""
        excluded = self.ctx.config.excluded_tags
        if not excluded:
            return
        args = dec.args if isinstance(dec, cst.Call) else ()
        labels = [a.value.evaluated_value if isinstance(a.value, cst.SimpleString) else None
                  for a in args]
        hit = sorted({str(x) for x in labels if x in excluded})
        if hit:
            detail = f"tagged {', '.join(hit)}, which the runner excludes (--exclude-tag)"
        elif None in labels or any(a.star for a in args) or not isinstance(dec, cst.Call):
            detail = f"a tag that may be one the runner excludes ({', '.join(excluded)})"
        else:
            return
        self.ctx.suppress(SuppressionKind.SKIP_MARK, dec, target=frame.node_id, detail=detail,
                          frame=frame.qualname)


def hook_name(node: cst.FunctionDef, ctx: Context) -> str | None:
    """``@pytest.hookimpl(specname="pytest_...")`` registers a hook under another name."""
    for dec in node.decorators:
        call = dec.decorator
        if isinstance(call, cst.Call):
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == "specname" and \
                        isinstance(arg.value, cst.SimpleString):
                    value = arg.value.evaluated_value
                    return value if isinstance(value, str) else None
    return None


def assertion_name(attr: str) -> bool:
    """assertFoo / assert_foo / fail*: names of assertion methods (not `assertion_count`)."""
    return attr.startswith("assert_") or (attr.startswith("assert") and attr[6:7].isupper())


def _entries(table: cst.Dict) -> list[str]:
    """Each entry of a dict display as written (``**other`` included, as it reads)."""
    empty = cst.Module(body=[])
    out: list[str] = []
    for el in table.elements:
        if isinstance(el, cst.DictElement):
            out.append(f"{empty.code_for_node(el.key)}: {empty.code_for_node(el.value)}")
        else:
            out.append(empty.code_for_node(el))
    return out
