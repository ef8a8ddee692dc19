"""Assertions, framework assertion calls, properties and parametrize rows."""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from provscore.evidence.context import Collector, Context, Frame, RawCall, RawItem, callee
from provscore.evidence.cst_names import dotted
from provscore.evidence.fixture_inputs import fixture_frame
from provscore.evidence.model import EvidenceKind
from provscore.evidence.raised import read_try, read_with
from provscore.evidence.suppressions.hooks import assertion_name
from provscore.names import matches


class AssertionCollector(Collector):
    """Assertions, framework assertion calls, properties and parametrize rows."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self._tries = 0  # try statements the walk is inside

    def visit_Assert(self, node: cst.Assert) -> None:
        # `assert a and b` is two checks: splitting or merging them is no change.
        self.ctx.tick()
        for conj in conjuncts(node.test):
            self.ctx.add_item(EvidenceKind.ASSERT, conj, conj)

    def visit_Try(self, node: cst.Try) -> None:
        read_try(node, self.ctx)
        self._tries += 1

    def leave_Try(self, original_node: cst.Try) -> None:
        self._tries -= 1

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self._module_rebinding(node.name.value, node, self.ctx.frames[-2])

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        self._module_rebinding(node.name.value, node, self.ctx.frames[-2])

    def _module_rebinding(self, name: str, node: cst.CSTNode, scope: Frame) -> None:
        """A module-level def, class or assignment over a name the module imports
        (``from toolz import first`` then ``def first(seq): ...``): a test of the module that
        calls the name, or a helper that does, runs the stand-in, so it is an input of each
        of the module's tests like a patch of that name (evidence/driver.py gives it to
        them all: which helpers reach it is not followed, fail closed). A definition behind
        a condition or in a ``try`` (a compatibility fallback) is left alone; assertion and
        helper names are the hook collector's (PS206)."""
        ctx = self.ctx
        if scope.kind != "module" or self._tries or ctx.guards():
            return
        seq, t = ctx.seq, ctx.tables

        def judge() -> None:
            if ctx.aliases.is_imported(name) and not name.startswith("test") and \
                    not assertion_name(name) and not name.startswith(t.helper_name_prefixes):
                ctx.items.append(RawItem(EvidenceKind.TEST_INPUT, node, ctx.frames[0], node,
                                         seq, op="rebinds"))
        ctx.deferred.append(judge)

    def _module_attribute_rebinding(self, owner: cst.BaseExpression, attr: str,
                                    node: cst.CSTNode, scope: Frame) -> None:
        """A module-level ``humanize.fractional = ...`` (or ``setattr(humanize,
        "fractional", ...)``) in a test module: an attribute of a module or object it
        imports, rebound for every test of the module, each of whose inputs it is (like
        _module_rebinding: unconditional statements only; an assertion or helper name
        rebound is the hook collector's, PS206)."""
        ctx = self.ctx
        name = dotted(owner)
        if scope.kind != "module" or self._tries or ctx.guards() or name is None or \
                assertion_name(attr) or attr.startswith(ctx.tables.helper_name_prefixes):
            return
        root, seq = name.split(".", 1)[0], ctx.seq

        def judge() -> None:
            if ctx.aliases.is_imported(root):
                ctx.items.append(RawItem(EvidenceKind.TEST_INPUT, node, ctx.frames[0], node,
                                         seq, op="rebinds"))
        ctx.deferred.append(judge)

    def visit_With(self, node: cst.With) -> None:
        read_with(node, self.ctx)

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        ctx.tick()
        func = node.func
        if isinstance(func, cst.Attribute):
            attr = func.attr.value
            if attr in ctx.tables.mock_methods:
                ctx.add_item(EvidenceKind.MOCK, node, op=attr)
                return
            if attr in ctx.tables.checking_methods:
                ctx.add_item(EvidenceKind.LIBRARY, node, op=attr)
                return
            if attr in ctx.tables.unittest_methods and self._receiver_ok(func):
                ctx.add_item(EvidenceKind.UNITTEST, node, op=attr)
                return
            if attr in ctx.tables.test_input_methods and isinstance(func.value, cst.Name) and \
                    func.value.value in ("self", "cls") and _in_test(ctx.frame):
                ctx.items.append(RawItem(EvidenceKind.TEST_INPUT, node, ctx.frame, node,
                                         ctx.seq, op=attr, guards=ctx.guards()))
                return
        if isinstance(func, cst.Name) and func.value == "setattr" and len(node.args) == 3 and \
                isinstance(node.args[1].value, cst.SimpleString) and \
                not ctx.aliases.is_imported("setattr"):
            literal = node.args[1].value.evaluated_value
            if isinstance(literal, str):
                self._module_attribute_rebinding(node.args[0].value, literal, node, ctx.frame)
        # The rest need resolved names: decide after the traversal.
        frame, seq, guards = ctx.frame, ctx.seq, ctx.guards()
        ctx.deferred.append(lambda: self._classify_call(node, frame=frame, seq=seq,
                                                        guards=guards))
        if isinstance(func, cst.Name | cst.Attribute):
            name = func.value if isinstance(func, cst.Name) else func.attr.value
            ctx.calls.append(RawCall(name, node, ctx.frame, ctx.seq, guards))

    def visit_Assign(self, node: cst.Assign) -> None:
        ctx = self.ctx
        frame, seq, guards = ctx.frame, ctx.seq, ctx.guards()
        if frame.kind == "module" and len(node.targets) == 1 and \
                isinstance(node.targets[0].target, cst.Name) and isinstance(node.value, cst.Call):
            ctx.deferred.append(lambda: self._strategy(node.value, seq))
        pairs = [p for t in node.targets for p in _assigned_pairs(t.target, node.value)]
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                self._module_rebinding(t.target.value, node, frame)
            elif isinstance(t.target, cst.Attribute):
                self._module_attribute_rebinding(t.target.value, t.target.attr.value, node,
                                                 frame)
        # A rebinding of an imported name is read first, one input per name (its spelling
        # free to change); a patch by assignment covers what it does not (local objects).
        rebound_here: list[bool] = []
        self._rebound(node, [t.target for t in node.targets], rebound_here)
        if frame.kind == "func" and any(isinstance(t, cst.Attribute | cst.Subscript)
                                        for t, _ in pairs):

            def patched() -> None:
                if rebound_here:
                    return
                for target, value in pairs:
                    if self._patched(node, [target], value, frame, seq, guards):
                        return
            ctx.deferred.append(patched)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._rebound(node, [node.target])

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._rebound(node, [node.target])

    def _rebound(self, node: cst.BaseSmallStatement, targets: list[cst.BaseExpression],
                 recorded: list[bool] | None = None) -> None:
        """An attribute (or item) of an imported module or object assigned inside a test
        (``humanize.intcomma = str``, the save/assign/restore idiom): what the test runs
        under, like ``mock.patch`` of the same name. One input per name rebound, so saving
        the original in a local of another name, or in a statement of its own, is no
        change."""
        ctx = self.ctx
        frame = ctx.frame
        if not _in_test(frame) or frame.kind != "func":
            return
        rebound: list[tuple[cst.BaseExpression, str]] = []
        while targets:
            t = targets.pop()
            if isinstance(t, cst.Tuple | cst.List):
                targets += [e.value for e in t.elements]
            elif isinstance(t, cst.Attribute | cst.Subscript):
                name = dotted(t.value)
                if name is not None:
                    rebound.append((t, name.split(".", 1)[0]))
        if not rebound:
            return
        seq, guards = ctx.seq, ctx.guards()

        def judge() -> None:
            for target, root in reversed(rebound):
                if ctx.aliases.is_imported(root):
                    ctx.items.append(RawItem(EvidenceKind.TEST_INPUT, target, frame, target,
                                             seq, op="rebinds", guards=guards))
                    if recorded is not None:
                        recorded.append(True)
        ctx.deferred.append(judge)

    def _patched(self, node: cst.CSTNode, targets: Sequence[cst.BaseExpression],
                 value: cst.BaseExpression, frame: Frame, seq: int,
                 guards: tuple[tuple[cst.CSTNode, bool], ...]) -> bool:
        """A patch by assignment in a test or fixture, an input of the test like
        mock.patch.object: ``obj.method = Mock(...)`` (or ``setattr(obj, "method",
        Mock(...))``), or any value over an attribute whose original the function kept
        (``invoke = runner.invoke; runner.invoke = wrapper``: a wrapper replacing it).
        Configuring a mock (``m.child = Mock()`` on a mock made here) is not."""
        ctx = self.ctx
        owner = frame if _in_test(frame) else fixture_frame(frame)
        if owner is None:
            return False
        mock = isinstance(value, cst.Call) and \
            matches(ctx.qualnames(value.func), ctx.tables.mock_factories) is not None
        if not any(isinstance(t, cst.Attribute) and not ctx.local_mock(t.value, frame) and
                   (mock or (self._kept_original(t, frame) and
                             not self._restores(t, value, frame))) for t in targets) and \
                not any(self._registry_patch(t, value, mock, frame) for t in targets):
            return False
        ctx.items.append(RawItem(EvidenceKind.TEST_INPUT, node, owner, node, seq,
                                 op="setattr", guards=guards))
        return True

    def _registry_patch(self, target: cst.BaseExpression, value: cst.BaseExpression,
                        mock: bool, frame: Frame) -> bool:
        """``env.filters["center"] = lambda s, w: ...``: a function (or a mock) put into a
        mapping an object holds, where the code under test looks it up: a patch of that
        entry, like ``monkeypatch.setitem``. A plain local dict is no object's registry."""
        return isinstance(target, cst.Subscript) and \
            isinstance(target.value, cst.Attribute) and \
            not self.ctx.local_mock(target.value.value, frame) and \
            (mock or isinstance(value, cst.Lambda))

    def _kept_original(self, target: cst.Attribute, frame: Frame) -> bool:
        """Whether this function binds a local to what ``target`` held before."""
        spelled = dotted(target)
        return spelled is not None and any(
            v is not None and dotted(v) == spelled
            for values in frame.bindings.values() for v in values)

    def _restores(self, target: cst.Attribute, value: cst.BaseExpression, frame: Frame
                  ) -> bool:
        """``obj.attr = orig`` where ``orig`` holds what obj.attr held: putting it back."""
        if not isinstance(value, cst.Name):
            return False
        bound = frame.bindings.get(value.value, [])
        return bool(bound) and all(v is not None and dotted(v) == dotted(target) for v in bound)

    def _strategy(self, value: cst.BaseExpression, seq: int) -> None:
        """``list_of_attrs = st.lists(simple_attrs, max_size=3)`` at module level: the input
        space of every property drawing from it (``.map(...)``/``.filter(...)`` on one too)."""
        ctx = self.ctx
        inner: cst.BaseExpression = value
        while isinstance(inner, cst.Call) and isinstance(inner.func, cst.Attribute) and \
                isinstance(inner.func.value, cst.Call):
            inner = inner.func.value  # st.integers().map(f): the strategy is integers()
        if not isinstance(inner, cst.Call) or not any(
                q.startswith(m + ".") for q in ctx.qualnames(inner.func)
                for m in ctx.tables.strategy_modules):
            return
        ctx.items.append(RawItem(EvidenceKind.PROPERTY, value, ctx.frames[0], value, seq,
                                 op="strategy"))

    def _profile(self, node: cst.Call, seq: int) -> None:
        """``settings.register_profile(name, settings(max_examples=...))``: the settings of
        every property run under the profile, a check of the module (wherever it is
        registered) whose keywords are compared like a test's @settings."""
        ctx = self.ctx
        positional = [a.value for a in node.args if a.keyword is None]
        inner = positional[1] if len(positional) > 1 else None
        shape = inner if isinstance(inner, cst.Call) and \
            matches(ctx.qualnames(inner.func), ctx.tables.hypothesis_settings) else node
        ctx.items.append(RawItem(EvidenceKind.PROPERTY, node, ctx.frames[0], shape, seq,
                                 op="register_profile"))

    def _fixture_input(self, node: cst.Call, frame: Frame) -> bool:
        """``monkeypatch.setattr(...)`` on a fixture the test requests by that name."""
        name = dotted(node.func)
        if name is None or name not in self.ctx.tables.test_input_fixtures:
            return False
        fixture = name.split(".", 1)[0]
        cur: Frame | None = frame
        while cur is not None and cur.kind == "func":
            if isinstance(cur.node, cst.FunctionDef) and any(
                    p.name.value == fixture for p in cur.node.params.params):
                return True
            cur = cur.parent
        return False

    def _receiver_ok(self, func: cst.Attribute) -> bool:
        # self.assertX / cls.assertX / any_testcase.assertX; not pytest.fail etc.
        return func.attr.value != "fail" or (isinstance(func.value, cst.Name) and \
            func.value.value in ("self", "cls"))

    def _classify_call(self, node: cst.Call, *, frame: Frame, seq: int,
                       guards: tuple[tuple[cst.CSTNode, bool], ...] = ()) -> None:
        ctx = self.ctx
        aliased = _aliased_method(node.func, frame, ctx.tables.unittest_methods)
        if aliased is not None:  # `check = self.assertEqual if strict else ...; check(a, b)`
            ctx.items.append(RawItem(EvidenceKind.UNITTEST, node, frame, node, seq, op=aliased,
                                     guards=guards))
            for fr in (f for f in ctx.defs if f is frame):
                fr.evidence_count += 1
            ctx.consumed.add(id(node))
            return
        names = ctx.qualnames(node.func)
        if not names:
            return
        t = ctx.tables
        if names & {"setattr", "builtins.setattr"} and len(node.args) == 3 and \
                not any(a.keyword or a.star for a in node.args):
            name = node.args[1].value
            attr = name.evaluated_value if isinstance(name, cst.SimpleString) and \
                isinstance(name.evaluated_value, str) and name.evaluated_value.isidentifier() \
                else "_"  # a computed name: only a mock assigned through it is judged
            if self._patched(node, [cst.Attribute(node.args[0].value, cst.Name(attr))],
                             node.args[2].value, frame, seq, guards):
                return
        if matches(names, t.test_inputs) or self._fixture_input(node, frame):
            # In a fixture: an input of the tests it applies to (evidence/fixture_inputs.py).
            owner = frame if _in_test(frame) else fixture_frame(frame)
            if owner is not None:
                ctx.items.append(RawItem(EvidenceKind.TEST_INPUT, node, owner, node, seq,
                                         op=(dotted(node.func) or "").rsplit(".", 1)[-1],
                                         guards=guards))
                return
        if matches(names, t.hypothesis_profiles):
            self._profile(node, seq)
            return
        kind: EvidenceKind | None = None
        q = matches(names, t.pytest_calls)
        if q:
            if q.endswith("approx"):
                return  # approx modifies its comparison; it is part of that item's shape
            kind = EvidenceKind.FAIL if q.endswith("fail") else EvidenceKind.RAISES
        elif matches(names, t.assertion_helpers):
            kind = EvidenceKind.LIBRARY
        else:
            for n in names:
                last = n.rsplit(".", 1)[-1]
                if last.startswith("assert") and any(n.startswith(m + ".") or n.startswith(m)
                                                     for m in t.assert_modules):
                    kind = EvidenceKind.LIBRARY
                    break
            if kind is None and matches(names, t.expected_reads):
                lits = [a.value.evaluated_value for a in node.args
                        if isinstance(a.value, cst.SimpleString)]
                if frame.test_id is not None or frame.kind == "func":
                    detail = str(lits[0]) if lits else ""
                    ctx.items.append(RawItem(EvidenceKind.EXPECTED_READ, node, frame, node, seq,
                                             detail=detail))
                return
        if kind is not None:
            # pytest's own calls by what they resolve to (`from pytest import
            # deprecated_call as expect_deprecation` is deprecated_call).
            spelled = q if q else (dotted(node.func) or "")
            ctx.items.append(RawItem(kind, node, frame, node, seq,
                                     op=spelled.rsplit(".", 1)[-1], guards=guards))
            for fr in (f for f in ctx.defs if f is frame):
                fr.evidence_count += 1
            ctx.consumed.add(id(node))

    def visit_Decorator(self, node: cst.Decorator) -> None:
        ctx = self.ctx
        dec = node.decorator
        frame = ctx.frame
        ctx.deferred.append(lambda: self._classify_decorator(dec, frame))

    def _classify_decorator(self, dec: cst.BaseExpression, frame: Frame) -> None:
        ctx = self.ctx
        names = ctx.qualnames(callee(dec))
        t = ctx.tables
        if not isinstance(dec, cst.Call):
            # `cases = pytest.mark.parametrize(...)` then `@cases`: the rows live where the
            # mark was bound (module or class body).
            dec = _bound_once(frame, dec) or dec
        if matches(names, t.hypothesis_given):
            ctx.items.append(RawItem(EvidenceKind.PROPERTY, dec, frame, dec, 0, op="given"))
            frame.evidence_count += 1
        elif matches(names, t.hypothesis_example) and isinstance(dec, cst.Call):
            # An explicit example always runs: each one is a row of evidence.
            ctx.items.append(RawItem(EvidenceKind.PARAM_ROW, dec, frame, dec, 0, op="example"))
        elif matches(names, t.hypothesis_settings) and isinstance(dec, cst.Call):
            # max_examples & co. are part of the @given property's strength.
            frame.settings = dec
        elif matches(names, t.parametrize) and isinstance(dec, cst.Call):
            values = _parametrize_values(dec)
            if isinstance(values, cst.Name):  # rows kept in a module constant
                bound = ctx.frames[0].bindings.get(values.value, [])
                if len(bound) == 1 and bound[0] is not None:
                    values = bound[0]
            argnames = _parametrize_argnames(dec)
            # The argnames are part of every row: swapping "x, y" swaps input and expected.
            names_code = _argnames(argnames)
            indirect = _indirect(dec)
            for name in filter(None, names_code.split(",")):
                frame.parametrized[name] = indirect is None or name in indirect
            if isinstance(values, cst.List | cst.Tuple | cst.Set):
                for el in values.elements:
                    ctx.items.append(RawItem(EvidenceKind.PARAM_ROW, el.value, frame, el.value, 0,
                                             op="row", detail=names_code))
            elif values is not None:
                ctx.items.append(RawItem(EvidenceKind.PARAM_ROW, values, frame, values, 0,
                                         op="rows", detail=names_code))


def _assigned_pairs(target: cst.BaseExpression, value: cst.BaseExpression
                    ) -> list[tuple[cst.BaseExpression, cst.BaseExpression]]:
    """(target, value) of an assignment, element by element for ``a, b = x, y``."""
    if isinstance(target, cst.Tuple | cst.List) and isinstance(value, cst.Tuple | cst.List) \
            and len(target.elements) == len(value.elements) and not any(
                isinstance(e, cst.StarredElement) for e in (*target.elements, *value.elements)):
        return [p for t, v in zip(target.elements, value.elements, strict=True)
                for p in _assigned_pairs(t.value, v.value)]
    return [(target, value)]


def _aliased_method(func: cst.BaseExpression, frame: Frame, methods: frozenset[str]
                    ) -> str | None:
    """The assertion method a local name stands for: bound once in this function to
    ``self.assertX`` (or to ``self.assertX if c else self.assertY``, then the first)."""
    if not isinstance(func, cst.Name) or frame.kind != "func":
        return None
    values = frame.bindings.get(func.value, [])
    value = values[0] if len(values) == 1 else None
    branches = [value.body, value.orelse] if isinstance(value, cst.IfExp) else [value]
    found = [b.attr.value for b in branches if isinstance(b, cst.Attribute) and
             isinstance(b.value, cst.Name) and b.value.value in ("self", "cls") and
             b.attr.value in methods]
    return found[0] if found and len(found) == len(branches) else None


def _in_test(frame: Frame) -> bool:
    """A test, or a test class (whose inputs are each of its tests' inputs)."""
    return frame.test_id is not None or (frame.kind == "class" and frame.is_test_class)


def _bound_once(frame: Frame, dec: cst.BaseExpression) -> cst.Call | None:
    """The call a decorator name is bound to, once, in a scope around the decorated def."""
    if not isinstance(dec, cst.Name):
        return None
    scope = frame.parent
    while scope is not None:
        values = scope.bindings.get(dec.value)
        if values is not None:
            only = values[0] if len(values) == 1 else None
            return only if isinstance(only, cst.Call) else None
        scope = scope.parent
    return None


def _argnames(node: cst.BaseExpression | None) -> str:
    """"x, y", ("x", "y") and ["x","y"] are the same argnames: "x,y"."""
    if node is None:
        return ""
    if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
        return ",".join(n.strip() for n in node.evaluated_value.split(",") if n.strip())
    if isinstance(node, cst.Tuple | cst.List):
        names = [e.value.evaluated_value for e in node.elements
                 if isinstance(e.value, cst.SimpleString)]
        if len(names) == len(node.elements) and all(isinstance(n, str) for n in names):
            return ",".join(str(n).strip() for n in names)
    return cst.Module(body=[]).code_for_node(node)


def _indirect(call: cst.Call) -> frozenset[str] | None:
    """The argnames parametrize sends through their fixtures: ``indirect=["x"]``; None for
    all of them (``indirect=True``, or a value that is not a literal: read as indirect,
    so a fixture standing between row and test is never skipped)."""
    for a in call.args:
        if a.keyword is None or a.keyword.value != "indirect":
            continue
        value = a.value
        if isinstance(value, cst.Name) and value.value == "False":
            return frozenset()
        if isinstance(value, cst.List | cst.Tuple):
            names = [e.value.evaluated_value for e in value.elements
                     if isinstance(e.value, cst.SimpleString)]
            if len(names) == len(value.elements) and all(isinstance(n, str) for n in names):
                return frozenset(str(n) for n in names)
        return None
    return frozenset()


def _parametrize_argnames(call: cst.Call) -> cst.BaseExpression | None:
    for a in call.args:
        if a.keyword is not None and a.keyword.value == "argnames":
            return a.value
    positional = [a for a in call.args if a.keyword is None]
    return positional[0].value if positional else None


def _parametrize_values(call: cst.Call) -> cst.BaseExpression | None:
    positional = [a for a in call.args if a.keyword is None]
    for a in call.args:
        if a.keyword is not None and a.keyword.value == "argvalues":
            return a.value
    return positional[1].value if len(positional) > 1 else None


def conjuncts(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.And):
        return conjuncts(expr.left) + conjuncts(expr.right)
    return [expr]
