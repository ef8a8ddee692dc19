"""The expected-exception idioms written without a raises block, and the caught exception.

``try: f() except E: ... else: self.fail(...)`` (or ``self.fail`` as the last statement of
the ``try`` body) checks what ``with self.assertRaises(E): f()`` checks: the ``fail`` call
is that raises check, so rewriting one idiom as the other is no change. The exception
caught is one value however it is reached: ``except E as e`` then ``e``,
``sys.exc_info()[1]`` in the handler, ``cm.exception`` after
``with self.assertRaises(E) as cm``, ``excinfo.value`` after
``with pytest.raises(E) as excinfo``; anchors read each of them as ``RAISED``.

A handler that would catch the ``fail`` itself (``except Exception`` around a ``fail`` in
the ``try`` body) checks nothing, and is not read as a raises check.
"""

from __future__ import annotations

import ast

import libcst as cst

from provscore.evidence.constants import parse_expr, unparse
from provscore.evidence.context import Context
from provscore.evidence.cst_names import dotted
from provscore.evidence.model import EvidenceKind, Shape

RAISED = "__raised__"  # what the anchors call the exception a check caught
_CATCHES_FAIL = {"Exception", "BaseException", "AssertionError", "builtins.Exception",
                 "builtins.BaseException", "builtins.AssertionError"}
_UNITTEST_RAISES = {"assertRaises", "assertRaisesRegex", "assertRaisesRegexp",
                    "assertRaisesMessage", "failUnlessRaises"}


def _fail_call(stmt: cst.BaseStatement, ctx: Context) -> cst.Call | None:
    """``self.fail(...)`` / ``pytest.fail(...)`` as a statement of its own."""
    if not isinstance(stmt, cst.SimpleStatementLine) or len(stmt.body) != 1:
        return None
    expr = stmt.body[0]
    call = expr.value if isinstance(expr, cst.Expr) else None
    if not isinstance(call, cst.Call):
        return None
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "fail" and \
            isinstance(func.value, cst.Name) and func.value.value in ("self", "cls"):
        return call
    return call if "pytest.fail" in ctx.qualnames(func) else None


def _statements(suite: cst.BaseSuite) -> list[cst.BaseStatement]:
    return list(suite.body) if isinstance(suite, cst.IndentedBlock) else []


def _catches_fail(kind: cst.BaseExpression) -> bool:
    names = kind.elements if isinstance(kind, cst.Tuple) else None
    parts = [e.value for e in names] if names is not None else [kind]
    return any((dotted(p) or "?") in _CATCHES_FAIL or dotted(p) is None or
               (dotted(p) or "").endswith(".failureException") for p in parts)


def read_try(node: cst.Try, ctx: Context) -> None:
    """Record the fail call of an expected-exception ``try`` and the names it binds to the
    caught exception (``ctx.fail_expects``, ``ctx.raised``)."""
    if len(node.handlers) != 1:
        return
    handler = node.handlers[0]
    kind = handler.type
    if kind is None:
        return
    fail: cst.Call | None = None
    orelse = _statements(node.orelse.body) if node.orelse is not None else []
    if len(orelse) == 1:
        fail = _fail_call(orelse[0], ctx)
    body = _statements(node.body)
    if fail is None and body and not _catches_fail(kind):
        fail = _fail_call(body[-1], ctx)
    if fail is None:
        return
    ctx.fail_expects[id(fail)] = kind
    names = ctx.raised.setdefault(id(ctx.frame), set())
    if handler.name is not None and isinstance(handler.name.name, cst.Name):
        names.add(handler.name.name.value)
    for stmt in _statements(handler.body):
        small = stmt.body[0] if isinstance(stmt, cst.SimpleStatementLine) and \
            len(stmt.body) == 1 else None
        if isinstance(small, cst.Assign) and len(small.targets) == 1 and \
                isinstance(small.targets[0].target, cst.Name) and \
                _is_exc_info_value(small.value, ctx):
            names.add(small.targets[0].target.value)


def _is_exc_info_value(value: cst.BaseExpression, ctx: Context) -> bool:
    """``sys.exc_info()[1]``."""
    if not isinstance(value, cst.Subscript) or len(value.slice) != 1:
        return False
    index = value.slice[0].slice
    call = value.value
    return isinstance(index, cst.Index) and isinstance(index.value, cst.Integer) and \
        index.value.value == "1" and isinstance(call, cst.Call) and not call.args and \
        "sys.exc_info" in ctx.qualnames(call.func)


def read_with(node: cst.With, ctx: Context) -> None:
    """``with self.assertRaises(E) as cm`` / ``with pytest.raises(E) as excinfo``: the
    caught exception is ``cm.exception`` / ``excinfo.value``."""
    for item in node.items:
        call, name = item.item, item.asname.name if item.asname is not None else None
        if not isinstance(call, cst.Call) or not isinstance(name, cst.Name):
            continue
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in _UNITTEST_RAISES:
            attr = "exception"
        elif "pytest.raises" in ctx.qualnames(func):
            attr = "value"
        else:
            continue
        ctx.raised.setdefault(id(ctx.frame), set()).add(f"{name.value}.{attr}")


def expected_by_fail(handler_type: str) -> tuple[EvidenceKind, str, Shape]:
    """The raises check an expected-exception ``try``'s fail call is (its handler's type)."""
    expr = parse_expr(handler_type)
    excs = expr.elts if isinstance(expr, ast.Tuple) else [expr] if expr is not None else []
    names = tuple(sorted(unparse(e) for e in excs)) or (handler_type,)
    return EvidenceKind.RAISES, f"raises({', '.join(names)})", \
        Shape("raises", names, subject="raises")
