"""Code normalisation and the constant evaluator.

``normalize`` makes formatting and comments no change; ``constant_truth`` decides
conditions that do not depend on the program (``if False:``, ``1 == 2``,
``TYPE_CHECKING``), so a test body under such a condition is known never to run.
"""

from __future__ import annotations

import ast
import functools
import operator
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import libcst as cst


def unparse(node: ast.AST) -> str:
    """``ast.unparse`` that never fails. Python 3.11 cannot write back an f-string whose
    expression holds a backslash (3.12 can), and a tree provscore built (a name inlined
    into an f-string) may hold one: then the node's dump stands in, as stable a key for
    comparing two images, if less readable."""
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):
        return ast.dump(node)


@functools.lru_cache(maxsize=65536)
def normalize(code: str) -> str:
    """Code without comments or formatting: reformatting is not a change."""
    text = code.strip()
    for candidate, mode in ((f"(\n{text}\n)", "eval"), (text, "exec")):
        try:
            tree = ast.parse(candidate, mode=mode)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        return unparse(tree)
    return " ".join(text.split())


def without_docstrings(code: str) -> str:
    """Statements with each def's and class's docstring dropped: documentation decides no
    check. A docstring holding a doctest (``>>>``) is a test and stays; code that does not
    parse is returned as it is."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    dropped = False
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and \
                len(node.body) > 1 and _is_docstring(node.body[0]):
            node.body = node.body[1:]
            dropped = True
    return unparse(tree) if dropped else code


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and \
        isinstance(stmt.value.value, str) and ">>>" not in stmt.value.value


_FALSY_LITERALS = {"False", "None", "0", "0.0", "''", '""', "()", "[]", "{}", "b''", "set()"}


def literal_truth(code: str) -> bool | None:
    """Truth value of a constant expression, None when it is not constant."""
    norm = normalize(code)
    if norm.startswith("not "):
        inner = literal_truth(norm[4:])
        return None if inner is None else not inner
    try:
        value = ast.literal_eval(norm)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return bool(value)


def constant_truth(expr: cst.BaseExpression) -> bool | None:
    """Truth of a condition that does not depend on the program: ``False``, ``0``,
    ``1 == 2``, ``not True``, ``TYPE_CHECKING``, ``not __debug__``; None when unknown."""
    import libcst as cst  # only the libcst walk asks; the ast helpers here must not load it
    if isinstance(expr, cst.Name | cst.Attribute | cst.Call | cst.Subscript) and not (
            isinstance(expr, cst.Name) and expr.value in STATIC_NAMES) and not (
            isinstance(expr, cst.Attribute) and expr.attr.value == "TYPE_CHECKING") and not (
            isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and
            expr.func.value == "range"):
        return None  # a plain name, attribute, call or subscript is never static
    return static_truth(cst.Module(body=[]).code_for_node(expr))


@functools.lru_cache(maxsize=4096)
def static_truth(code: str) -> bool | None:
    try:
        tree = ast.parse(f"(\n{code}\n)", mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    value = static_value(tree.body)
    return None if value is UNKNOWN else bool(value)


UNKNOWN = object()
STATIC_NAMES: dict[str, object] = {"True": True, "False": False, "None": None,
                                     "TYPE_CHECKING": False, "__debug__": True}
_COMPARE: dict[type, Callable[[Any, Any], object]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: operator.contains(b, a),
    ast.NotIn: lambda a, b: not operator.contains(b, a),
}
_ARITH: dict[type, Callable[[object, object], object]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


def static_value(node: ast.expr) -> object:
    """Value of an expression built only from literals and a few known constants."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return STATIC_NAMES.get(node.id, UNKNOWN)
    if isinstance(node, ast.Attribute) and node.attr == "TYPE_CHECKING":
        return False  # typing.TYPE_CHECKING
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return UNKNOWN if node.elts else ()  # only emptiness is static
    if isinstance(node, ast.Dict):
        return UNKNOWN if node.keys else {}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = static_value(node.operand)
        return UNKNOWN if inner is UNKNOWN else not inner
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = static_value(node.operand)
        return -inner if isinstance(inner, int | float) else UNKNOWN
    if isinstance(node, ast.BoolOp):
        values = [static_value(v) for v in node.values]
        if isinstance(node.op, ast.And):
            if any(v is not UNKNOWN and not v for v in values):
                return False
            return True if all(v is not UNKNOWN for v in values) else UNKNOWN
        if any(v is not UNKNOWN and v for v in values):
            return True
        return False if all(v is not UNKNOWN for v in values) else UNKNOWN
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        a, b = static_value(node.left), static_value(node.right)
        if isinstance(a, int | float) and isinstance(b, int | float):
            return _ARITH[type(node.op)](a, b)
        return UNKNOWN
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and \
            node.left.id == "__name__" and len(node.ops) == 1 and \
            isinstance(node.comparators[0], ast.Constant) and \
            node.comparators[0].value == "__main__":
        # Under pytest a test module is imported, never run as __main__.
        return isinstance(node.ops[0], ast.NotEq)
    if isinstance(node, ast.Compare):
        left = static_value(node.left)
        for op, comp in zip(node.ops, node.comparators, strict=True):
            right = static_value(comp)
            if left is UNKNOWN or right is UNKNOWN or type(op) not in _COMPARE:
                return UNKNOWN
            try:
                if not _COMPARE[type(op)](left, right):
                    return False
            except TypeError:
                return UNKNOWN
            left = right
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "range" and node.args and not node.keywords:
        ints = [v for v in (static_value(a) for a in node.args)
                if isinstance(v, int) and not isinstance(v, bool)]
        if len(ints) == len(node.args) <= 3:
            return range(*ints)
    return UNKNOWN


def is_literal_code(code: str | ast.expr) -> bool:
    """Whether code (or a parsed expression) is a Python literal (what an expected value
    usually is)."""
    try:
        ast.literal_eval(code)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


def parse_expr(code: str) -> ast.expr | None:
    """The expression ``code`` spells, or None when it does not parse."""
    # Not memoised: keeping thousands of ast trees alive makes every GC pass slower
    # than the parses it saves (measured: 2.6x -> 3.4x parse_module).
    try:
        return ast.parse(code, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def parse_function(code: str) -> ast.FunctionDef | None:
    """The one function definition ``code`` holds, or None (it does not parse, or holds
    anything else)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef):
        return None
    return tree.body[0]


def exact_type_subject(code: str) -> str | None:
    """``x`` of the code ``type(x)`` (None for anything else)."""
    call = parse_expr(code)
    if isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and \
            call.func.id == "type" and len(call.args) == 1 and not call.keywords and \
            not isinstance(call.args[0], ast.Starred):
        return unparse(call.args[0])
    return None


def without_literal_keyword(code: str, decorators: list[int], keyword: str) -> str:
    """A def's code with ``keyword=`` dropped from the calls of the decorators at these
    positions, where its value is a literal (a callable stays: it runs at collection)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]
    if not defs:
        return code
    dropped = False
    for i in decorators:
        call = defs[0].decorator_list[i] if i < len(defs[0].decorator_list) else None
        if not isinstance(call, ast.Call):
            continue
        kept = [k for k in call.keywords if k.arg != keyword or not is_literal_code(k.value)]
        dropped = dropped or len(kept) != len(call.keywords)
        call.keywords = kept
    return unparse(tree) if dropped else code
