"""Names replaced by the code they stand for, in a check's code (``ast`` only: the
provenance stage compares spellings with it without loading libcst)."""

from __future__ import annotations

import ast
from collections.abc import Callable


class Substitute(ast.NodeTransformer):
    """Names replaced by the code they stand for; a key ``"f()"`` replaces a call of ``f``
    without arguments (a helper that returns one expression)."""

    def __init__(self, table: dict[str, str]) -> None:
        self.table = table

    def _replaced(self, key: str, node: ast.expr) -> ast.expr:
        try:
            return ast.parse(f"({self.table[key]})", mode="eval").body
        except SyntaxError:
            return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        if isinstance(node.func, ast.Name) and not node.args and not node.keywords and \
                f"{node.func.id}()" in self.table:
            return self._replaced(f"{node.func.id}()", node)
        return self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Name):
            key = f"{node.value.id}.{node.attr}"  # a class attribute; `self` stays
            if key in self.table:
                return self._replaced(key, node)
            if node.value.id in ("self", "cls"):
                return node
        return self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.table:
            return self._replaced(node.id, node)
        return node


def substitute(code: str, table: dict[str, str]) -> str:
    if not any(name.removesuffix("()").rpartition(".")[2] in code for name in table):
        return code
    return _rewritten(code, Substitute(table))


def _rewritten(code: str, transformer: ast.NodeTransformer) -> str:
    """``code`` (an expression or statements) through ``transformer``; as written when it
    does not parse or unparse."""
    for mode in ("eval", "exec"):
        try:
            tree = ast.parse(code, mode=mode)
        except SyntaxError:
            continue
        try:
            return ast.unparse(transformer.visit(tree))
        except (ValueError, RecursionError):  # see constants.unparse: keep the code as written
            return code
    return code


class _NamedFields(ast.NodeTransformer):
    """``f()[0]`` as ``f().first`` where ``f`` returns a named tuple."""

    def __init__(self, fields_of: Callable[[str], tuple[str, ...]]) -> None:
        self.fields_of = fields_of
        self.changed = False

    def visit_Subscript(self, node: ast.Subscript) -> ast.AST:
        self.generic_visit(node)
        index = _int_constant(node.slice)
        if isinstance(node.ctx, ast.Load) and isinstance(node.value, ast.Call) and \
                index is not None:
            fields = self.fields_of(ast.unparse(node.value.func))
            if -len(fields) <= index < len(fields):
                self.changed = True
                return ast.Attribute(value=node.value, attr=fields[index], ctx=ast.Load())
        return node


def _int_constant(node: ast.expr) -> int | None:
    """``0``, ``-1``: an index written as an integer literal."""
    negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub)
    value = node.operand if isinstance(node, ast.UnaryOp) and negated else node
    if isinstance(value, ast.Constant) and type(value.value) is int:
        return -value.value if negated else value.value
    return None


def named_fields(code: str, fields_of: Callable[[str], tuple[str, ...]]) -> str:
    """``code`` with each constant index into a call returning a named tuple read as the
    field's name (``capsys.readouterr()[0]`` is ``capsys.readouterr().out``); as written
    when there is none."""
    if ")[" not in code:
        return code
    fields = _NamedFields(fields_of)
    new = _rewritten(code, fields)
    return new if fields.changed else code
