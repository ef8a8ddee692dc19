"""PS805: production branches that answer a test's own inputs with a constant.

The literals of a test are read from the base test corpus: the values in its ``assert``
statements, its assertion calls and its ``parametrize`` rows (:func:`test_literals`).
A changed branch of a function those tests reach — ``if x == <literal>: return <constant>``,
a ``match`` case on the literal that returns a constant, a ``{<literal>: <constant>}[x]``
or ``.get(x)`` lookup — is the test special-cased: it is reported with the test that owns
the literal. Trivial literals (``None``, booleans, small integers, one-character strings)
are common to every test and every function and are never matched.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping

from provscore.grader.model import Signal, SignalKind
from provscore.grader.scan import FileScan, Frame

#: literal key (type name and repr) → the test id that owns it
Owners = Mapping[str, str]
#: The most members of an `in` container that are each matched as a case.
_MAX_CASES = 3


def literal_key(node: ast.AST) -> str | None:
    """A hashable key for a non-trivial literal, or None."""
    try:
        value = ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, int | float) and -2 <= value <= 2:
        return None
    if isinstance(value, str | bytes) and len(value) < 2:
        return None
    if isinstance(value, tuple | list | set | frozenset | dict) and not value:
        return None
    text = repr(value)
    return None if len(text) > 400 else f"{type(value).__name__}:{text}"


def test_literals(fn: ast.FunctionDef | ast.AsyncFunctionDef,
                  decorators: list[ast.expr],
                  tables: Mapping[str, ast.expr] | None = None) -> set[str]:
    """The non-trivial literals of a test's assertions and parametrize rows, and of the
    module-level tables (``tables``: name → literal tuple, list or set) the test loops
    over (``for token in TEST_TOKENS:``): each entry is an input of the test."""
    out: set[str] = set()
    for node in ast.walk(fn):
        if isinstance(node, ast.For | ast.AsyncFor) and isinstance(node.iter, ast.Name) and \
                tables and node.iter.id in tables:
            out |= _literals_under(tables[node.iter.id])
        if isinstance(node, ast.Assert):
            out |= _literals_under(node.test)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
                node.func.attr.startswith("assert"):
            for arg in node.args:
                out |= _literals_under(arg)
    for dec in decorators:
        if isinstance(dec, ast.Call) and isinstance(dec.func, ast.Attribute) and \
                dec.func.attr == "parametrize" and len(dec.args) >= 2:
            out |= _literals_under(dec.args[1])
    return out


def _literals_under(node: ast.AST) -> set[str]:
    out: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant | ast.Tuple | ast.List | ast.UnaryOp):
            key = literal_key(sub)
            if key is not None:
                out.add(key)
    return out


def special_cases(scan: FileScan, owners: Mapping[str, Owners]) -> Iterator[Signal]:
    """``owners``: function qualname in this file → its tests' literals."""
    for node, frame in scan.events.branches:
        fn = next(frame.functions(), None)
        table = owners.get(fn.qualname) if fn is not None else None
        if table is None:  # (a table is read from the tests when a key is looked up)
            continue
        hit = _branch_hit(node, table)
        if hit is not None:
            yield _signal(scan, node, frame, hit, table[hit])
    for sub, frame in scan.events.subscripts:
        yield from _lookup(scan, sub.value, sub, frame, owners)
    for call, frame in scan.events.calls:
        if isinstance(call.func, ast.Attribute) and call.func.attr == "get":
            yield from _lookup(scan, call.func.value, call, frame, owners)


def _branch_hit(node: ast.AST, table: Owners) -> str | None:
    if isinstance(node, ast.If):
        if not _returns_constant(node.body):
            return None
        return _compared_literal(node.test, table)
    if isinstance(node, ast.IfExp):
        if literal_key(node.body) is None and not _is_constant(node.body):
            return None
        return _compared_literal(node.test, table)
    if isinstance(node, ast.Match):
        for case in node.cases:
            if isinstance(case.pattern, ast.MatchValue) and _returns_constant(case.body):
                key = literal_key(case.pattern.value)
                if key is not None and key in table:
                    return key
    return None


def _compared_literal(test: ast.expr, table: Owners) -> str | None:
    for sub in ast.walk(test):
        if isinstance(sub, ast.Compare) and \
                all(isinstance(op, ast.Eq | ast.In | ast.Is) for op in sub.ops):
            sides = [sub.left, *sub.comparators]
            for op, right in zip(sub.ops, sub.comparators, strict=True):
                # `x in (418, 451)`: each member is a case; a longer list is a vocabulary
                # (`norm in {"0", "false", "no", "off"}`), not a test's inputs picked out.
                if isinstance(op, ast.In) and isinstance(right, ast.Tuple | ast.List | ast.Set) \
                        and len(right.elts) <= _MAX_CASES:
                    sides.extend(right.elts)
            for side in sides:
                key = literal_key(side)
                if key is not None and key in table:
                    return key
    return None


def _returns_constant(body: list[ast.stmt]) -> bool:
    return any(isinstance(s, ast.Return) and s.value is not None and _is_constant(s.value)
               for s in body)


def _is_constant(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return False
    return True


def _lookup(scan: FileScan, table_node: ast.expr, at: ast.AST, frame: Frame,
            owners: Mapping[str, Owners]) -> Iterator[Signal]:
    fn = next(frame.functions(), None)
    table = owners.get(fn.qualname) if fn is not None else None
    if table is None or not isinstance(table_node, ast.Dict) or \
            not all(v is not None and _is_constant(v) for v in table_node.values):
        return
    for key_node in table_node.keys:
        key = literal_key(key_node) if key_node is not None else None
        if key is not None and key in table:
            yield _signal(scan, at, frame, key, table[key])
            return


def _signal(scan: FileScan, node: ast.AST, frame: Frame, key: str, test: str) -> Signal:
    fn = next(frame.functions(), None)
    shown = key.split(":", 1)[1]
    return Signal(SignalKind.SPECIAL_CASE, scan.path, getattr(node, "lineno", None),
                  fn.qualname if fn else "", scan.snippet(node),
                  f"answers {shown} with a constant", subject=test)
