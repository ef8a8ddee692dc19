"""unittest's load_tests protocol: a module-level ``load_tests(loader, tests, pattern)``
decides which of the module's (or package's) tests run.

One that only adds to the tests the loader found (``tests.addTest(...)`` then
``return tests``) hides nothing and is no suppression. Any other is a collection hook
(PS204), summarised as what it returns, what else it does, and what it adds (the body
with loops over literal tuples and lists unrolled, so writing such a loop out is no
change). provenance/skip_strength.py compares two summaries: adding more is no
loosening; adding less, or returning or doing anything else, is.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterable

HEADER = "load_tests protocol:"
DOCTEST_HEADER = "doctest __test__:"  # a module's table of extra doctests: it only adds
ADDS, KEEPS, RETURNS = "+ ", "= ", "return "
SEPARATOR = " | "
_MAX_UNROLL = 64


def load_tests_summary(source: str, adding: frozenset[str]) -> str | None:
    """The summary of a ``def load_tests`` (``source``); None when it only extends the
    loader's tests. ``adding``: method and function names that add tests to a suite."""
    try:
        tree = ast.parse(textwrap.dedent(source))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return f"{HEADER} {' '.join(source.split())}"  # fails closed: any edit is a change
    fn = tree.body[0] if tree.body else None
    if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
        return f"{HEADER} {' '.join(source.split())}"
    positional = [a.arg for a in [*fn.args.posonlyargs, *fn.args.args]]
    found = positional[1] if len(positional) > 1 else None
    body = [s for s in _unrolled(fn.body) if not _is_docstring(s)]
    if found is not None and body and _returns_name(body[-1], found) and all(
            isinstance(s, ast.Import | ast.ImportFrom) or _adds_to(s, found, adding)
            for s in body[:-1]):
        return None
    parts = []
    for stmt in body:
        text = " ".join(ast.unparse(stmt).split())
        if isinstance(stmt, ast.Return):
            parts.append(text)
        else:
            parts.append((ADDS if _adding(stmt, adding) else KEEPS) + text)
    return HEADER + " " + SEPARATOR.join(parts)


def _unrolled(body: Iterable[ast.stmt], depth: int = 2) -> list[ast.stmt]:
    """Statements with ``for x in (a, b):`` loops (literal tuples/lists of expressions,
    no else, no break/continue) unrolled, the loop variable replaced in each copy."""
    out: list[ast.stmt] = []
    for stmt in body:
        items = _literal_items(stmt) if depth > 0 else None
        if items is None:
            out.append(stmt)
            continue
        assert isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name)
        for item in items:
            copies = [_Replace(stmt.target.id, item).visit(ast.parse(ast.unparse(s)).body[0])
                      for s in stmt.body]
            out += _unrolled(copies, depth - 1)
    return out


def _literal_items(stmt: ast.stmt) -> list[ast.expr] | None:
    if not isinstance(stmt, ast.For) or stmt.orelse or not isinstance(stmt.target, ast.Name):
        return None
    if not isinstance(stmt.iter, ast.Tuple | ast.List) or len(stmt.iter.elts) > _MAX_UNROLL or \
            any(isinstance(e, ast.Starred) for e in stmt.iter.elts):
        return None
    if any(isinstance(n, ast.Break | ast.Continue) for s in stmt.body for n in ast.walk(s)):
        return None
    return list(stmt.iter.elts)


class _Replace(ast.NodeTransformer):
    def __init__(self, name: str, value: ast.expr) -> None:
        self.name, self.value = name, value

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id == self.name and isinstance(node.ctx, ast.Load):
            return self.value
        return node


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and \
        isinstance(stmt.value.value, str)


def _returns_name(stmt: ast.stmt, name: str) -> bool:
    return isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name) and \
        stmt.value.id == name


def _called(node: ast.expr | None) -> str:
    if not isinstance(node, ast.Call):
        return ""
    func = node.func
    return func.attr if isinstance(func, ast.Attribute) else (
        func.id if isinstance(func, ast.Name) else "")


def _adds_to(stmt: ast.stmt, suite: str, adding: frozenset[str]) -> bool:
    """``tests.addTest(...)`` / ``tests.addTests(...)`` on the loader's own suite."""
    if not isinstance(stmt, ast.Expr) or _called(stmt.value) not in ("addTest", "addTests"):
        return False
    call = stmt.value
    assert isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
    return isinstance(call.func.value, ast.Name) and call.func.value.id == suite and \
        all(_called(a) in adding or not isinstance(a, ast.Call) for a in call.args)


def _adding(stmt: ast.stmt, adding: frozenset[str]) -> bool:
    """A statement whose only effect is adding tests: ``suite.addTest(...)``, or a name
    bound to what a loader loads (``tests = loader.loadTestsFromTestCase(C)``)."""
    if isinstance(stmt, ast.Expr):
        return _called(stmt.value) in adding
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], ast.Name):
        return _called(stmt.value) in adding
    return False


def doctest_table_summary(entries: Iterable[str]) -> str:
    """A module's ``__test__ = {...}`` as a summary of what it adds: one doctest per entry."""
    return f"{DOCTEST_HEADER} " + SEPARATOR.join(ADDS + e for e in entries)


def only_adds(code: str) -> list[str] | None:
    """What a summary that only adds tests adds (None when it is no such summary)."""
    parsed = parse_summary(code)
    if parsed is None or parsed[0] or parsed[1]:
        return None
    return parsed[2]


def parse_summary(code: str) -> tuple[list[str], list[str], list[str]] | None:
    """(returns, other statements, adding statements) of a summary; None if not one."""
    header = next((h for h in (HEADER, DOCTEST_HEADER) if code.startswith(h)), None)
    if header is None:
        return None
    returns: list[str] = []
    keeps: list[str] = []
    adds: list[str] = []
    for part in code[len(header):].strip().split(SEPARATOR):
        if not part:
            continue  # an empty table
        if part.startswith(ADDS):
            adds.append(part[len(ADDS):])
        elif part.startswith(KEEPS):
            keeps.append(part[len(KEEPS):])
        else:
            returns.append(part)
    return returns, keeps, adds
