"""Names replaced by the code they stand for, in a check's code (``ast`` only: the
provenance stage compares spellings with it without loading libcst)."""

from __future__ import annotations

import ast


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
    for mode in ("eval", "exec"):
        try:
            tree = ast.parse(code, mode=mode)
        except SyntaxError:
            continue
        try:
            return ast.unparse(Substitute(table).visit(tree))
        except (ValueError, RecursionError):  # see constants.unparse: keep the code as written
            return code
    return code
