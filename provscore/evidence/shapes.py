"""Shapes: what an evidence item checks, in comparable parts (to judge weakening)."""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterable

import libcst as cst

from provscore.evidence.constants import (
    UNKNOWN,
    exact_type_subject,
    is_literal_code,
    literal_truth,
    normalize,
    parse_expr,
    static_value,
    unparse,
)
from provscore.evidence.context import RawItem
from provscore.evidence.model import EvidenceKind, Shape
from provscore.evidence.positions import Spans
from provscore.evidence.tolerance import closeness

_APPROX_NAMES = {"approx", "isclose", "allclose", "assert_allclose", "assert_almost_equal",
                 "assert_array_almost_equal", "assertAlmostEqual"}


class Shaper:
    def __init__(self, module: cst.Module, spans: Spans | None = None) -> None:
        self.module = module
        self.spans = spans
        # id → (node, code): holding the node keeps its id from being reused by another
        # (temporary) node while the entry lives.
        self._raw: dict[int, tuple[cst.CSTNode, str]] = {}

    def raw(self, node: cst.CSTNode) -> str:
        """The node's source as written (generated once per node)."""
        hit = self._raw.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
        spans = self.spans
        key = id(node)
        if spans is not None and key in spans.starts and key in spans.ends:
            text = spans.text[spans.starts[key]:spans.ends[key]]
        else:
            text = self.module.code_for_node(node)
        self._raw[id(node)] = (node, text)
        return text

    def code(self, node: cst.CSTNode) -> str:
        return normalize(self.raw(node))

    def block(self, node: cst.CSTNode) -> str:
        """A statement's source from the start of its first line (so it dedents)."""
        spans = self.spans
        key = id(node)
        if spans is None or key not in spans.starts or key not in spans.ends:
            return self.module.code_for_node(node)
        start = spans.text.rfind("\n", 0, spans.starts[key]) + 1
        return spans.text[start:spans.ends[key]]

    def shape(self, raw: RawItem) -> Shape:
        """What the item checks. Built from the ``ast`` of its normalised code, so each
        item's source is generated once (libcst code generation is the expensive part)."""
        return self.shape_of(raw, self.code(raw.shape_node))

    def shape_of(self, raw: RawItem, code: str) -> Shape:
        """What the item checks, read from ``code`` (its call with arguments bound)."""
        settings = self.code(raw.frame.settings) \
            if raw.kind is EvidenceKind.PROPERTY and raw.frame.settings is not None else ""
        return _shape_of(raw.kind, raw.op, code, settings)


@functools.lru_cache(maxsize=32768)
def _shape_of(kind: EvidenceKind, op: str, text: str, settings: str) -> Shape:
    """Memoised by text: a patch's pre- and post-image share nearly every check."""
    expr = parse_expr(text)
    if kind is EvidenceKind.ASSERT and expr is not None:
        return assert_shape(expr)
    if isinstance(expr, ast.Call):
        op = op or (_ast_name(expr.func) or "call")
        # `*args` and `**options` at the call are part of it: what they hold is unknown.
        operands = tuple(unparse(a) for a in expr.args)
        kws = _ast_keywords(expr)
        if settings:
            settings_call = parse_expr(settings)
            if isinstance(settings_call, ast.Call):
                kws = tuple(sorted(kws + _ast_keywords(settings_call)))
        if kind is EvidenceKind.MOCK and isinstance(expr.func, ast.Attribute):
            subject = unparse(expr.func.value)
        elif kind in (EvidenceKind.UNITTEST, EvidenceKind.LIBRARY) and operands:
            subject = operands[0]
        elif kind is EvidenceKind.TEST_INPUT:
            # What it sets: the patched target, else the settings it overrides.
            subject = f"{op}({operands[0] if operands else ','.join(k for k, _ in kws)})"
            kws = tuple(sorted(kws))
        else:
            subject = op
        return Shape(op, operands, kws, tautology=_call_tautology(op, operands),
                     subject=subject)
    op = op or kind.value
    return Shape(op, (text,), subject=op)


def _ast_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _ast_keywords(call: ast.Call) -> tuple[tuple[str, str], ...]:
    """The call's own keywords, plus those of approx()/isclose() calls inside it (prefixed
    ``approx.``): a tolerance is a property of the comparison it modifies."""
    found = [(k.arg or "**", unparse(k.value)) for k in call.keywords]
    found += _approx_keywords(call.args)
    return tuple(sorted(found))


def _approx_keywords(nodes: Iterable[ast.AST]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for root in nodes:
        for sub in ast.walk(root):
            if isinstance(sub, ast.Call) and _ast_name(sub.func) in _APPROX_NAMES:
                found += [(f"approx.{k.arg}", unparse(k.value)) for k in sub.keywords
                          if k.arg is not None]
                found.append(("approx", "1"))
    return found


def _operand(node: ast.expr) -> str:
    """An operand without approx/isclose keywords: tolerances are compared as keywords
    (wider is weaker), not as a changed operand."""
    code = unparse(node)
    if not any(name in code for name in _APPROX_NAMES):
        return code
    try:  # a private copy: the keywords are removed in place
        tree = ast.parse(code, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    for sub in ast.walk(tree):
        if isinstance(sub, ast.Call) and _ast_name(sub.func) in _APPROX_NAMES:
            sub.keywords = []
    return unparse(tree)


_AST_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
                ast.GtE: ">=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
                ast.IsNot: "is not"}
_TRUTHY_CALLS = ("isinstance", "hasattr", "callable", "any", "all", "bool", "len")


def assert_shape(expr: ast.expr) -> Shape:
    """The shape of one asserted condition (one conjunct of an assert)."""
    taut = _ast_tautology(expr)
    close = closeness(expr)
    if close is not None:  # math.isclose(a, b), a == pytest.approx(b): a == b within ...
        actual, expected, tolerance = close
        return Shape("==", (actual, expected), tolerance, 1, taut, actual)
    kws = tuple(sorted(_approx_keywords([expr])))
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1:
        op = _AST_COMPARE.get(type(expr.ops[0]), "cmp")
        left, right = _operand(expr.left), _operand(expr.comparators[0])
        if op in ("is", "==") and exact_type_subject(right) is not None and \
                exact_type_subject(left) is None:
            left, right = right, left  # `T is type(x)` is `type(x) is T`
        typed = exact_type_subject(left) if op in ("is", "==") else None
        if typed is not None:  # what `type(x) is T` checks is x
            return Shape(op, (left, right), kws, 1, taut, typed)
        if op == "is not" and right == "None":
            return Shape("not None", (left,), kws, 1, taut, left)
        return Shape(op, (left, right), kws, 1, taut, left)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        inner = unparse(expr.operand)
        return Shape("not", (inner,), kws, 1, taut, inner)
    code = unparse(expr)
    if isinstance(expr, ast.Call) and _ast_name(expr.func) in _TRUTHY_CALLS:
        subject = unparse(expr.args[0]) if expr.args else code
        return Shape(f"truthy:{_ast_name(expr.func)}", (code,), kws, 1, taut, subject)
    return Shape("truthy", (code,), kws, 1, taut, code)


def _ast_tautology(expr: ast.expr) -> bool:
    """A condition that holds whatever the code does: a truthy constant, a non-empty tuple
    (`assert (x, "msg")`), `x or True`, `x == x`."""
    value = static_value(expr)
    if value is not UNKNOWN and bool(value):
        return True
    if isinstance(expr, ast.Tuple) and expr.elts:
        return True
    if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.Or):
        return any(_ast_tautology(v) for v in expr.values)
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and \
            isinstance(expr.ops[0], ast.Eq | ast.Is | ast.LtE | ast.GtE):
        return unparse(expr.left) == unparse(expr.comparators[0])
    return False


def operands_tautology(op: str, operands: tuple[str, ...]) -> bool:
    """Whether a check holds whatever the code does, read from its operands once locals
    are inlined: a literal compared with itself (``==``, ``is``, ``<=``, ``>=``, the
    equality assertions), a truthy literal. Two equal calls still run the code (``a =
    V("1"); b = V("1"); assert a == b`` checks ``__eq__``): only literals count."""
    if not operands or not all(is_literal_code(o) for o in operands):
        return False
    if op in ("==", "is", "<=", ">=") and len(operands) == 2:
        return operands[0] == operands[1]
    if op == "truthy" and len(operands) == 1:
        return literal_truth(operands[0]) is True
    return _call_tautology(op, operands)


_TRUE_WHEN_CONSTANT = {"assertTrue": True, "assert_": True, "failUnless": True,
                       "assertFalse": False, "failIf": False}


def _call_tautology(op: str, operands: tuple[str, ...]) -> bool:
    if op in _TRUE_WHEN_CONSTANT and operands:
        return literal_truth(operands[0]) is _TRUE_WHEN_CONSTANT[op]
    if op in ("assertEqual", "assertEquals", "assertIs", "assertCountEqual", "assertListEqual",
              "assertDictEqual", "assert_array_equal", "assert_equal", "assert_allclose",
              "assert_frame_equal", "assert_series_equal") and len(operands) >= 2:
        return operands[0] == operands[1]
    if op == "assertIsNotNone" and operands:
        return operands[0] not in ("None",) and literal_truth(operands[0]) is not None
    return False
