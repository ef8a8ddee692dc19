"""Anchors: an item's identity across the patch, independent of local names and spelling.

One spelling per check (``self.assertEqual(a, b)`` is ``assert a == b``), names bound once
in the test inlined, the expected literal second, the conditions a check runs under
and the function a helper call reaches made part of it.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Callable
from dataclasses import replace

import libcst as cst

from provscore.evidence.calls import method_self_reads
from provscore.evidence.constants import is_literal_code, normalize, parse_expr, unparse
from provscore.evidence.context import Context, Frame, RawItem
from provscore.evidence.cst_names import dotted
from provscore.evidence.inheritance import class_chain
from provscore.evidence.inlining import named_fields, substitute
from provscore.evidence.model import EvidenceKind, Shape
from provscore.evidence.raised import RAISED
from provscore.evidence.shapes import Shaper, assert_shape, operands_tautology
from provscore.evidence.skip_helpers import FACTORY_MARK

_UNITTEST_AS_ASSERT: dict[str, tuple[str, int]] = {
    "assertEqual": ("{0} == {1}", 2), "assertEquals": ("{0} == {1}", 2),
    "failUnlessEqual": ("{0} == {1}", 2), "assertNotEqual": ("{0} != {1}", 2),
    "assertNotEquals": ("{0} != {1}", 2), "failIfEqual": ("{0} != {1}", 2),
    "assertTrue": ("{0}", 1), "assert_": ("{0}", 1), "failUnless": ("{0}", 1),
    "assertFalse": ("not {0}", 1), "failIf": ("not {0}", 1),
    "assertIs": ("{0} is {1}", 2), "assertIsNot": ("{0} is not {1}", 2),
    "assertIsNone": ("{0} is None", 1), "assertIsNotNone": ("{0} is not None", 1),
    "assertIn": ("{0} in {1}", 2), "assertNotIn": ("{0} not in {1}", 2),
    "assertIsInstance": ("isinstance({0}, {1})", 2),
    "assertNotIsInstance": ("not isinstance({0}, {1})", 2),
    "assertGreater": ("{0} > {1}", 2), "assertGreaterEqual": ("{0} >= {1}", 2),
    "assertLess": ("{0} < {1}", 2), "assertLessEqual": ("{0} <= {1}", 2),
}
_RAISES_METHODS = {"assertRaises": "raises", "failUnlessRaises": "raises",
                   "assertRaisesRegex": "raises", "assertRaisesRegexp": "raises",
                   "assertRaisesMessage": "raises", "assertWarns": "warns",
                   "assertWarnsRegex": "warns", "assertWarnsMessage": "warns"}

_DEPRECATION_WARNINGS: tuple[str, ...] = ("DeprecationWarning", "FutureWarning",
                                           "PendingDeprecationWarning")


def canonical(raw: RawItem, code: str) -> tuple[EvidenceKind, str, Shape] | None:
    """One spelling per check: unittest's assertEqual(a, b) is `assert a == b`, and
    self.assertRaises(E, f, x), `with pytest.raises(E)` and `raises(E)` are raises(E).
    Equal-strength conversions between the spellings are then no change. ``code`` is the
    call's normalised code with its arguments bound (binding.py)."""
    if not isinstance(raw.node, cst.Call):
        return None
    call = parse_expr(code)
    if not isinstance(call, ast.Call):
        return None
    args = [a for a in call.args if not isinstance(a, ast.Starred)]
    kwargs = {k.arg: k.value for k in call.keywords if k.arg is not None}
    op = raw.op
    if raw.kind is EvidenceKind.UNITTEST and op in _UNITTEST_AS_ASSERT:
        template, arity = _UNITTEST_AS_ASSERT[op]
        if len(args) < arity or set(kwargs) - {"msg"}:
            return None
        expr = parse_expr(template.format(*(f"({unparse(a)})" for a in args[:arity])))
        if expr is None:
            return None
        return EvidenceKind.ASSERT, normalize("assert " + unparse(expr)), assert_shape(expr)
    kind_name = _RAISES_METHODS.get(op) if raw.kind is EvidenceKind.UNITTEST else (
        op if raw.kind is EvidenceKind.RAISES and op in ("raises", "warns") else None)
    if raw.kind is EvidenceKind.RAISES and op == "deprecated_call":
        # deprecated_call() is warns() of its three classes (pytest's recwarn.py): narrowing
        # it to warns(DeprecationWarning) accepts fewer warnings, as for any warns().
        kind_name, names = "warns", _DEPRECATION_WARNINGS
    elif kind_name is None:
        return None
    else:
        exc = kwargs.get("expected_exception") or kwargs.get("expected_warning") or (
            args[0] if args else None)
        if exc is None:
            return None
        excs = exc.elts if isinstance(exc, ast.Tuple) else [exc]
        names = tuple(sorted(unparse(e) for e in excs))
    pattern = kwargs.get("match") or kwargs.get("expected_regex") or \
        kwargs.get("expected_message")
    if pattern is None and op.endswith(("Regex", "Regexp", "Message")) and len(args) > 1:
        pattern = args[1]  # Django's assertRaisesMessage(E, text): the text is the match
    keywords: tuple[tuple[str, str], ...] = ()
    text = f"{kind_name}({', '.join(names)})"
    if pattern is not None:
        keywords = (("match", unparse(pattern)),)
        text = f"{kind_name}({', '.join(names)}, match={unparse(pattern)})"
    return EvidenceKind.RAISES, text, Shape(kind_name, names, keywords, subject=kind_name)


def mock_spelling(kind: EvidenceKind, text: str) -> tuple[EvidenceKind, str, Shape] | None:
    """A plain assert about a mock's call record is that mock's assertion:
    ``assert m.called`` is ``m.assert_called()``, ``not m.called`` and ``m.call_count == 0``
    are ``assert_not_called``, ``m.call_count == 1`` is ``assert_called_once``,
    ``m.call_args == call(x)`` is ``assert_called_with(x)``; so switching between the
    spellings is judged by strength (``assertTrue(m.called)`` →
    ``m.assert_called_once_with(1)`` is stronger)."""
    if kind is not EvidenceKind.ASSERT or ("called" not in text and "call_" not in text):
        return None
    expr = parse_expr(text.removeprefix("assert ").split("  # ", 1)[0])
    if expr is None:
        return None
    found = _mock_check(expr)
    if found is None:
        return None
    subject, op, args = found
    code = f"{subject}.{op}({', '.join(args)})"
    return EvidenceKind.MOCK, code, Shape(op, args, subject=subject)


def _mock_check(expr: ast.expr) -> tuple[str, str, tuple[str, ...]] | None:
    negated = isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not)
    inner = expr.operand if isinstance(expr, ast.UnaryOp) and negated else expr
    if isinstance(inner, ast.Attribute) and inner.attr == "called":
        return unparse(inner.value), "assert_not_called" if negated else "assert_called", ()
    if negated or not isinstance(expr, ast.Compare) or len(expr.ops) != 1:
        return None
    left, op, right = expr.left, expr.ops[0], expr.comparators[0]
    if not isinstance(left, ast.Attribute):
        return None
    subject = unparse(left.value)
    if left.attr == "call_count" and isinstance(right, ast.Constant) and \
            isinstance(right.value, int) and not isinstance(right.value, bool):
        count = right.value
        if isinstance(op, ast.Eq):
            return subject, {0: "assert_not_called", 1: "assert_called_once"}.get(
                count, "assert_call_count"), (() if count in (0, 1) else (str(count),))
        if (isinstance(op, ast.Gt) and count == 0) or (isinstance(op, ast.GtE) and count == 1):
            return subject, "assert_called", ()
    if left.attr == "call_args" and isinstance(op, ast.Eq) and isinstance(right, ast.Call) and \
            isinstance(right.func, ast.Name | ast.Attribute) and \
            (right.func.id if isinstance(right.func, ast.Name) else right.func.attr) == "call":
        return subject, "assert_called_with", tuple(unparse(a) for a in right.args) + tuple(
            f"{k.arg}={unparse(k.value)}" for k in right.keywords if k.arg)
    return None


_SYMMETRIC = {"==", "!=", "is", "is not"}
_MAX_INLINE = 400
# A module-level string constant (a table of expected text) is inlined up to this long.
_MAX_CONSTANT = 4000


class Inliner:
    """Anchors that do not depend on local names: a name bound exactly once in the test
    (or a literal module constant) is replaced by what it is bound to. Renaming a local
    is then no change, and editing an expected value kept in a variable is visible."""

    def __init__(self, ctx: Context, shaper: Shaper) -> None:
        self.ctx, self.shaper = ctx, shaper
        self._cache: dict[int, dict[str, str]] = {}
        self._fixtures: dict[str, str]

    def _table(self, frame: Frame) -> dict[str, str]:
        key = id(frame)
        if key in self._cache:
            return self._cache[key]
        table: dict[str, str] = {}
        chain: list[Frame] = []
        cur: Frame | None = frame
        while cur is not None:
            if cur.kind in ("func", "module"):
                chain.append(cur)
            cur = cur.parent
        if self.ctx.frames[0] not in chain:
            chain.append(self.ctx.frames[0])
        seen: set[str] = set()
        constants: set[str] = set()
        fixtures = self._fixture_values()
        for fr in chain:  # innermost first: a local shadows a module constant
            for name, values in fr.bindings.items():
                if name in seen:
                    continue
                seen.add(name)
                if fr.is_test and name in fr.parametrized:
                    # A parametrized argument is its row's value, given directly or through
                    # the fixture of its name (indirect=): then what that fixture makes of
                    # request.param.
                    served = self._indirect_value(fr, name) if fr.parametrized[name] else None
                    if served is not None and served != name:
                        table[name] = served
                    continue
                if len(values) == 1 and values[0] is None and fr.is_test and name in fixtures:
                    # A test parameter served by a fixture of this module that returns one
                    # expression: moving setup into a fixture is no change.
                    table[name] = fixtures[name]
                    continue
                if len(values) != 1 or values[0] is None:
                    continue
                code = self.shaper.code(values[0])
                if fr.kind == "module":
                    folded = self._module_constant(name)
                    if folded is not None:
                        table[name] = folded
                        constants.add(name)
                    continue
                if len(code) > _MAX_INLINE or name in names_in(code):  # x = x + 1
                    continue
                table[name] = _copied(code) or code
        table.update(self._class_constants(frame))
        raised = {n: RAISED for fr in chain for n in self.ctx.raised.get(id(fr), ())
                  if len(fr.bindings.get(n.split(".", 1)[0], ())) == 1}
        if raised:  # `err = cm.exception` reads the caught exception, as `e` does
            table.update({k: substitute(v, raised) for k, v in table.items()})
            table.update(raised)
        _resolve_through(table, constants=frozenset(constants))
        self._cache[key] = table
        return table

    def _module_constant(self, name: str, depth: int = 4) -> str | None:
        """The literal a module-level name bound once stands for: its literal value, or
        one built from literals and other such names by ``+`` (``HTML_WARNINGS =
        ENV_WARNINGS + \"\"\"...\"\"\"``), folded to the literal. A table of expected text
        is an expected value however long (up to ``_MAX_CONSTANT``). None otherwise."""
        values = self.ctx.frames[0].bindings.get(name, [])
        if len(values) != 1 or values[0] is None or depth == 0:
            return None
        code = self.shaper.code(values[0])
        if len(code) > _MAX_CONSTANT:
            return None
        if is_literal_code(code):
            return code if len(code) <= _MAX_INLINE or _is_text(code) else None
        expr = parse_expr(code)
        if expr is None:
            return None
        value = _folded(expr, lambda n: self._module_constant(n, depth - 1))
        if not isinstance(value, str | bytes):
            return None
        folded = repr(value)
        return folded if len(folded) <= _MAX_CONSTANT else None

    def _class_constants(self, frame: Frame) -> dict[str, str]:
        """``self.NUMS`` / ``cls.NUMS`` of the class around ``frame`` (or a base of it in
        this module): a class attribute bound once to a literal and never assigned as an
        attribute anywhere in the module, so a case table kept there is compared."""
        cls: Frame | None = frame
        while cls is not None and cls.kind != "class":
            cls = cls.parent
        if cls is None:
            return {}
        out: dict[str, str] = {}
        for klass in class_chain(self.ctx, cls):
            if isinstance(klass, str):
                break  # a base from elsewhere may define the attribute first
            for name, values in klass.bindings.items():
                if name in out or name in self.ctx.attribute_writes or len(values) != 1 or \
                        values[0] is None:
                    continue
                code = self.shaper.code(values[0])
                if len(code) <= _MAX_INLINE and is_literal_code(code):
                    for receiver in ("self", "cls"):
                        out.setdefault(f"{receiver}.{name}", code)
        return out

    def _class_inputs(self, raw: RawItem) -> str:
        """The class attributes a helper method ``self`` reaches names (``self.default_kwargs``
        that assertMarkdownRenders renders every source with), as the test's class binds
        them in this module: what the call checks depends on them. "" when none is known."""
        func = raw.node.func if isinstance(raw.node, cst.Call) else None
        if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name) or \
                func.value.value != "self":
            return ""
        cls: Frame | None = raw.frame
        while cls is not None and cls.kind != "class":
            cls = cls.parent
        names = method_self_reads(self.ctx, cls, func.attr.value) if cls is not None else None
        if not names:
            return ""
        bound: dict[str, str] = {}
        for klass in class_chain(self.ctx, cls) if cls is not None else ():
            if isinstance(klass, str):
                break  # what a base from elsewhere binds is the same on both sides
            for name in names:
                values = klass.bindings.get(name, [])
                if name in bound or not values:
                    continue
                code = self.shaper.code(values[0]) if len(values) == 1 and \
                    values[0] is not None else "<rebound>"
                bound[name] = code if len(code) <= _MAX_INLINE else f"<{len(code)} chars>"
        return "; ".join(f"self.{n}={bound[n]}" for n in sorted(bound))

    def module_bindings(self) -> dict[str, str]:
        """Module-level names bound exactly once, to any expression, and module-level
        functions without parameters that return one expression (``"f()"``): what a
        skip condition reads is judged by what it means."""
        out: dict[str, str] = {}
        for name, values in self.ctx.frames[0].bindings.items():
            if len(values) == 1 and values[0] is not None:
                code = self.shaper.code(values[0])
                if len(code) <= _MAX_INLINE and name not in names_in(code):
                    out[name] = code
        for f in self.ctx.defs:
            if f.parent is not None and f.parent.kind == "module" and not f.is_test and \
                    not f.bindings and len(f.returns) == 1 and f.returns[0] is not None and \
                    isinstance(f.node, cst.FunctionDef) and not f.node.decorators:
                code = self.shaper.code(f.returns[0])
                if len(code) <= _MAX_INLINE:
                    out[f"{f.name}()"] = code
        return out

    def guard_text(self, node: cst.CSTNode, negated: bool, table: dict[str, str]) -> str:
        """A condition around a check or a suppression, as it reads."""
        return self._guard(node, negated, table)

    def _indirect_value(self, test: Frame, name: str) -> str | None:
        """What the module's fixture ``name`` returns for a row given to it indirectly, the
        row standing as ``name`` (``request.param`` → ``name``); None when no fixture of
        this module returns one expression built only from request.param and the test's
        own arguments (another fixture it requests is the value the test receives)."""
        fixture = next((f for f in self.ctx.defs if f.fixture and f.name == name and
                        f.parent is not None and f.parent.kind == "module" and
                        len(f.returns) == 1), None)
        returned = fixture.returns[0] if fixture is not None else None
        if fixture is None or returned is None or not isinstance(fixture.node, cst.FunctionDef):
            return None
        params = {p.name.value for p in fixture.node.params.params}
        code = substitute(self.shaper.code(returned), self._table(fixture))
        code = substitute(code, {"request.param": name})
        reads = names_in(code)
        if len(code) > _MAX_INLINE or reads & (set(fixture.bindings) - params) or \
                "request" in reads or not (reads & params) - {name} <= set(test.bindings):
            return None
        return code

    def _fixture_values(self) -> dict[str, str]:
        if not hasattr(self, "_fixtures"):
            self._fixtures = {}  # a fixture's own table below must not inline fixtures
            out: dict[str, str] = {}
            for f in self.ctx.defs:
                if f.fixture and f.parent is not None and f.parent.kind == "module" and \
                        len(f.returns) == 1 and f.returns[0] is not None:
                    # The fixture's own locals bound once are inlined first (`c =
                    # make(); return c` is `return make()`); a value still built from its
                    # locals or parameters means nothing in the test and is not inlined.
                    code = substitute(self.shaper.code(f.returns[0]), self._table(f))
                    if len(code) <= _MAX_INLINE and not names_in(code) & set(f.bindings):
                        out[f.name] = code
            self._fixtures = out
        return self._fixtures

    def anchor(self, raw: RawItem, text: str, shape: Shape) -> tuple[str, Shape]:
        table = self._table(raw.frame) if raw.kind is not EvidenceKind.PARAM_ROW else {}
        code = substitute(text, table) if table else text
        operands = tuple(substitute(o, table) for o in shape.operands) if table \
            else shape.operands
        subject = substitute(shape.subject, table) if table and shape.subject else shape.subject
        if ")[" in code:  # `captured[0]` is `captured.out` (a named tuple's field)
            fields = self.ctx.named_tuple
            code = named_fields(code, fields)
            operands = tuple(named_fields(o, fields) for o in operands)
            subject = named_fields(subject, fields) if subject else subject
        if raw.kind is EvidenceKind.ASSERT and shape.op in _SYMMETRIC and len(operands) == 2:
            # `2 == value` is `value == 2`: the expected literal goes second.
            left, right = operands
            if is_literal_code(left) and not is_literal_code(right):
                operands, subject = (right, left), right
                code = _swap_comparison(code)
        if raw.kind is EvidenceKind.PARAM_ROW and raw.detail:
            code = f"[{raw.detail}] {code}"
        if raw.kind is EvidenceKind.HELPER_CALL:
            # Which function a helper call reaches is part of the check.
            target = _call_target(self.ctx, raw.node)
            if target:
                code = f"{code} -> {target}"
            inputs = self._class_inputs(raw)
            if inputs:
                code = f"{code} @{inputs}"
        if raw.kind is EvidenceKind.TEST_INPUT and raw.detail.startswith(FACTORY_MARK):
            # A mark factory's call is the mark it returns: one more operand.
            returned = raw.detail.removeprefix(FACTORY_MARK)
            code = f"{code} -> {returned}"
            operands = (*operands, returned)
        if raw.kind is EvidenceKind.PROPERTY and raw.frame.settings is not None:
            code = f"{code} @{self.shaper.code(raw.frame.settings)}"
        guards = tuple(self._guard(node, negated, table) for node, negated in raw.guards)
        if guards:
            # The conditions a check runs under are part of it: wrapping an existing
            # assert in `if os.environ.get("CI"):` changes when it can fail.
            code = f"{code}  # under: {' and '.join(guards)}"
        # Operands that read as literals once locals are inlined (`out, err = "x", ""`
        # then `assert out == "x"`) may compare a value with itself.
        tautology = shape.tautology or (operands != shape.operands and
                                        operands_tautology(shape.op, operands))
        return code, replace(shape, operands=operands, subject=subject, guards=guards,
                             tautology=tautology)

    def _guard(self, node: cst.CSTNode, negated: bool, table: dict[str, str]) -> str:
        if isinstance(node, cst.For):
            # The iterable alone is an expression the table can inline into (a case list
            # bound once, a class attribute): the loop's values are then compared.
            iterable = self.shaper.code(node.iter)
            iterable = substitute(iterable, table) if table else iterable
            text = f"for {self.shaper.code(node.target)} in {iterable}"
            return f"not ({text})" if negated else text
        elif isinstance(node, cst.If | cst.While):
            text = self.shaper.code(node.test)
        else:
            text = self.shaper.code(node)
        text = substitute(text, table) if table else text
        return f"not ({text})" if negated else text


_COPIES = frozenset({"list", "dict", "set", "copy.copy", "copy.deepcopy"})


def _copied(code: str) -> str | None:
    """``x`` when ``code`` copies the name ``x`` (``list(x)``, ``x.copy()``, ``x[:]``,
    ``copy.copy(x)``): a check reading the copy reads the same values as one reading an
    alias of ``x`` (``args = test_args``) does."""
    expr = parse_expr(code)
    if isinstance(expr, ast.Call) and not expr.keywords:
        func = unparse(expr.func)
        if func in _COPIES and len(expr.args) == 1 and isinstance(expr.args[0], ast.Name):
            return expr.args[0].id
        if isinstance(expr.func, ast.Attribute) and expr.func.attr == "copy" and \
                not expr.args and isinstance(expr.func.value, ast.Name):
            return expr.func.value.id
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) and \
            isinstance(expr.slice, ast.Slice) and expr.slice.lower is None and \
            expr.slice.upper is None and expr.slice.step is None:
        return expr.value.id
    return None


def _is_text(code: str) -> bool:
    """A string or bytes literal (not a table of values: those stay within _MAX_INLINE)."""
    try:
        return isinstance(ast.literal_eval(code), str | bytes)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False


def _folded(expr: ast.expr, constant: Callable[[str], str | None]) -> object:
    """The value of a string expression made of literals, names ``constant`` knows (as
    literal code) and ``+``; None for anything else."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str | bytes):
        return expr.value
    if isinstance(expr, ast.Name):
        code = constant(expr.id)
        if code is None:
            return None
        try:
            return ast.literal_eval(code)
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    if isinstance(expr, ast.BinOp) and isinstance(expr.op, ast.Add):
        left, right = _folded(expr.left, constant), _folded(expr.right, constant)
        if isinstance(left, str) and isinstance(right, str):
            return left + right
        if isinstance(left, bytes) and isinstance(right, bytes):
            return left + right
    return None


def _resolve_through(table: dict[str, str], depth: int = 3,
                     constants: frozenset[str] = frozenset()) -> None:
    """Values that read other inlined names read what those stand for: ``form = F()``
    then ``rendered = form.render()`` is ``F().render()`` wherever ``rendered`` is used,
    as it was where ``form.render()`` was written out (extracting a local is no change)."""
    for _ in range(depth):
        changed = False
        for name, code in list(table.items()):
            others = {k: v for k, v in table.items() if k != name and k in names_in(code)}
            if not others:
                continue
            new = substitute(code, others)
            # A module constant inlined is as long as its text: the rest stays within bound.
            limit = _MAX_INLINE + sum(len(v) for k, v in others.items() if k in constants)
            if new != code and len(new) <= limit and name not in names_in(new):
                table[name] = new
                changed = True
        if not changed:
            return


@functools.lru_cache(maxsize=16384)
def names_in(code: str) -> frozenset[str]:
    """The names an expression reads (empty when it does not parse)."""
    try:
        tree = ast.parse(code, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    return frozenset(n.id for n in ast.walk(tree) if isinstance(n, ast.Name))


def _swap_comparison(code: str) -> str:
    """`assert 2 == f(x)` → `assert f(x) == 2` (the code keeps everything else)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    stmt = tree.body[0] if tree.body else None
    if isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Compare) and \
            len(stmt.test.comparators) == 1:
        cmp = stmt.test
        cmp.left, cmp.comparators[0] = cmp.comparators[0], cmp.left
        return unparse(tree)
    return code


def _call_target(ctx: Context, node: cst.CSTNode) -> str:
    """The function a helper call reaches when an import renames it
    (``import check_total_loose as check_total``); "" when the name is what it says."""
    if not isinstance(node, cst.Call):
        return ""
    name = dotted(node.func)
    if name is None or not ctx.aliases.imported(name.split(".", 1)[0]):
        return ""
    last = name.rsplit(".", 1)[-1]
    targets = sorted(q for q in ctx.aliases.resolve(name) if q.rsplit(".", 1)[-1] != last)
    return ",".join(targets)


# Patches that name their target as an object and an attribute, and their dotted-string
# spellings: monkeypatch.setattr(mod, "name", v) is monkeypatch.setattr("pkg.mod.name", v)
# (pytest's derive_importpath), mock.patch.object(mod, "name", ...) is
# mock.patch("pkg.mod.name", ...).
# op → (canonical op, fewest and most positional arguments).
_OBJECT_FORMS = {"setattr": ("setattr", 3, 3), "object": ("patch", 2, 99)}
_STRING_FORMS = {"setattr": (2, 2), "patch": (1, 99)}


def patch_target(ctx: Context, raw: RawItem, shape: Shape) -> Shape:
    """A test input's shape with a patch target in one spelling, the dotted string of the
    object the target names; the shape as it was when the object is not a dotted name
    that resolves, through the module's imports alone, to one qualified name."""
    ops = shape.operands
    if raw.kind is not EvidenceKind.TEST_INPUT or not isinstance(raw.node, cst.Call):
        return shape
    target = _string_literal(ops[0]) if ops else None
    if shape.op in _STRING_FORMS and target is not None and \
            _STRING_FORMS[shape.op][0] <= len(ops) <= _STRING_FORMS[shape.op][1]:
        if "." not in target:
            return shape
        op, rest = shape.op, ops[1:]
    elif shape.op in _OBJECT_FORMS and \
            _OBJECT_FORMS[shape.op][1] <= len(ops) <= _OBJECT_FORMS[shape.op][2]:
        name = _string_literal(ops[1])
        owner = _imported_object(ctx, raw)
        if name is None or owner is None or not name.isidentifier():
            return shape
        op, target, rest = _OBJECT_FORMS[shape.op][0], f"{owner}.{name}", ops[2:]
    else:
        return shape
    spelled = repr(target)
    return replace(shape, op=op, operands=(spelled, *rest), subject=f"{op}({spelled})")


def _string_literal(code: str) -> str | None:
    try:
        value = ast.literal_eval(code)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def _imported_object(ctx: Context, raw: RawItem) -> str | None:
    """The qualified name of the call's first argument when it is a dotted name whose head
    only an import binds (no parameter or local of an enclosing function shadows it)."""
    assert isinstance(raw.node, cst.Call)
    first = raw.node.args[0] if raw.node.args else None
    if first is None or first.keyword is not None or first.star:
        return None
    name = dotted(first.value)
    if name is None:
        return None
    head = name.split(".", 1)[0]
    frame: Frame | None = raw.frame
    while frame is not None:
        if frame.kind != "module" and head in frame.bindings:
            return None
        frame = frame.parent
    resolved = ctx.aliases.resolve(name)
    if not ctx.aliases.is_imported(head) or len(resolved) != 1:
        return None
    (qualified,) = resolved
    return qualified if not qualified.startswith(".") else None
