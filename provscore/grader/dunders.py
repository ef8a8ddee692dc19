"""PS801: comparison and truth methods that answer the same whatever they are asked.

A method ``__eq__`` (``__ne__``, ``__lt__``, ``__contains__``, ...) whose every return is
one constant, or that never reads the operand it is compared with, makes every assertion
that compares against the object pass (or fail) regardless of the value. ``__bool__``,
``__len__`` and ``__hash__`` are judged by their returns alone. A class is reported when
one of its answers makes assertions pass (:func:`subverts`), with all such methods.
``return NotImplemented`` is Python's "I cannot compare these": it defers to the other
operand and never counts. Definitions (``def``), class-level lambdas (``__eq__ = lambda
self, o: True``) and rebinding from outside (``Cls.__eq__ = ...``, ``setattr(Cls,
"__eq__", ...)``) all count.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from provscore.grader.model import Signal, SignalKind
from provscore.grader.scan import FileScan, Frame, own_names, own_returns
from provscore.grader.tables import GraderTables

Fn = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


def always_equal(scan: FileScan, tables: GraderTables) -> Iterator[Signal]:
    """Every candidate is judged with the other dunders of its class: a class is reported
    when one of them makes an assertion pass whatever is compared (see :func:`subverts`),
    and then with every constant dunder it has (``__hash__`` returning 0 beside an
    always-true ``__eq__``). A sentinel that is falsy, never equal or larger than anything
    (``__bool__`` → False, ``__eq__`` → False, ``__gt__`` → True) alone is honest."""
    found = list(_candidates(scan, tables))
    cheating = {owner for owner, name, verdict, _ in found if subverts(name, verdict)}
    for owner, _, _, signal in found:
        if owner in cheating:
            yield signal


def subverts(name: str, verdict: str) -> bool:
    """Whether this answer makes ``assert a == b`` or ``assert x in c`` pass, or ``assert
    a != b`` never fire, regardless of the value."""
    constant = verdict.removeprefix("always returns ") if verdict.startswith("always") \
        else None
    truthy = constant is not None and constant not in ("False", "0", "None", "''", "0.0")
    if name == "__cmp__":
        return constant == "0"
    if name in ("__eq__", "__contains__"):
        return constant is None or truthy
    if name == "__ne__":
        return constant is None or not truthy
    # `__bool__` always True alone is honest (Django's File and BoundField: an object is
    # truthy whatever its length); beside an always-equal `__eq__` it is reported with it.
    return False


def _candidates(scan: FileScan, tables: GraderTables
                ) -> Iterator[tuple[str, str, str, Signal]]:
    names = tables.comparison_dunders | tables.unary_dunders
    for fn, qual, frame in scan.events.defs:
        if isinstance(fn, ast.Lambda) or frame.kind != "class" or fn.name not in names:
            continue
        verdict = answer_of(fn, fn.name, tables)
        if verdict is not None:
            yield frame.qualname, fn.name, verdict, Signal(
                SignalKind.ALWAYS_EQUAL, scan.path, fn.lineno, qual, scan.snippet(fn),
                f"{fn.name} {verdict}", subject=frame.qualname)
    for target, value, stmt, frame in scan.events.assigns:
        name = _dunder_target(scan, target, frame)
        if name is None or name not in names or not isinstance(value, ast.Lambda):
            continue
        verdict = answer_of(value, name, tables)
        if verdict is not None:
            owner = frame.qualname if isinstance(target, ast.Name) else \
                (scan.spelling(target) or "").rsplit(".", 1)[0]
            yield owner, name, verdict, Signal(
                SignalKind.ALWAYS_EQUAL, scan.path, stmt.lineno,
                f"{owner}.{name}".lstrip("."), scan.snippet(stmt), f"{name} {verdict}",
                subject=owner)
    for call, frame in scan.events.calls:
        if "setattr" not in scan.qualnames(call.func, frame) or len(call.args) < 3:
            continue
        attr, value = call.args[1], call.args[2]
        if isinstance(attr, ast.Constant) and attr.value in names and \
                isinstance(value, ast.Lambda):
            verdict = answer_of(value, str(attr.value), tables)
            owner = scan.spelling(call.args[0]) or "?"
            if verdict is not None:
                yield owner, str(attr.value), verdict, Signal(
                    SignalKind.ALWAYS_EQUAL, scan.path, call.lineno,
                    f"{owner}.{attr.value}", scan.snippet(call),
                    f"{attr.value} {verdict}", subject=owner)


def _dunder_target(scan: FileScan, target: ast.expr, frame: Frame) -> str | None:
    """``__eq__ = ...`` in a class body, or ``Cls.__eq__ = ...`` anywhere."""
    if isinstance(target, ast.Name) and frame.kind == "class":
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return None


def answer_of(fn: Fn, name: str, tables: GraderTables) -> str | None:
    """How the method ignores what it is asked ("always returns True", "ignores the
    other operand other"), or None when its answer can depend on it."""
    returns = [_flatten(r) for r in own_returns(fn)]
    values = [v for group in returns for v in group if not _is_not_implemented(v)]
    if not values:
        return None  # only NotImplemented, or it raises: nothing is answered
    constants = {repr(v.value) if isinstance(v, ast.Constant) else "?" for v in values}
    if "?" not in constants and len(constants) == 1:
        return f"always returns {constants.pop()}"
    if name in tables.comparison_dunders:
        other = _other_operand(fn)
        if other is not None and other not in _read_names(fn):
            return f"ignores the other operand ({other})"
    return None


def _flatten(value: ast.expr | None) -> list[ast.expr]:
    """Every value a return may give: both arms of ``a if c else b``; None when bare."""
    if value is None:
        return [ast.Constant(None)]
    if isinstance(value, ast.IfExp):
        return _flatten(value.body) + _flatten(value.orelse)
    return [value]


def _is_not_implemented(value: ast.expr) -> bool:
    return (isinstance(value, ast.Name) and value.id == "NotImplemented") or \
        (isinstance(value, ast.Constant) and value.value is NotImplemented)


def _other_operand(fn: Fn) -> str | None:
    args = fn.args
    positional = [*args.posonlyargs, *args.args]
    if len(positional) >= 2:
        return positional[1].arg
    return args.vararg.arg if args.vararg is not None else None


def _read_names(fn: Fn) -> set[str]:
    if isinstance(fn, ast.Lambda):
        return own_names(fn.body)
    names: set[str] = set()
    for stmt in fn.body:
        names |= own_names(stmt)
    return names
