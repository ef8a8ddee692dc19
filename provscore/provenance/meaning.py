"""Whether two versions of a definition mean the same code: what a reformat, a comment,
a docstring or a ``str.format`` → f-string rewrite changes, and nothing else.

Projects reformat (black, ruff format) and modernise (pyupgrade) their helpers as a matter
of course; a helper oracle whose code is the same program is not modified. Compared is
the ``ast`` of each (positions, comments and layout are not in it), with docstrings
dropped (unless they hold a doctest, which runs) and ``"literal".format(...)`` written
as the f-string it equals. Anything that does not parse, or a ``.format`` whose meaning
could differ (arguments used out of order, twice or not at all, attribute or index
fields, nested format specs), compares as written.
"""

from __future__ import annotations

import ast
import string
import textwrap

__all__ = ["same_meaning"]


def same_meaning(before: str, after: str) -> bool:
    a, b = _canonical(before), _canonical(after)
    return a is not None and a == b


def _canonical(code: str) -> str | None:
    try:
        tree = ast.parse(textwrap.dedent(code))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    try:
        return ast.dump(_Canonical().visit(tree))
    except RecursionError:
        return None


class _Canonical(ast.NodeTransformer):
    def _drop_docstring(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                        ) -> ast.AST:
        body = node.body
        if len(body) > 1 and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and \
                isinstance(body[0].value.value, str) and ">>>" not in body[0].value.value:
            node.body = body[1:]
        return self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _drop_docstring

    def visit_Call(self, node: ast.Call) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "format" and \
                isinstance(func.value, ast.Constant) and isinstance(func.value.value, str) and \
                not any(isinstance(a, ast.Starred) for a in node.args) and \
                all(k.arg is not None for k in node.keywords):
            joined = _as_fstring(func.value.value, node.args,
                                 {k.arg: k.value for k in node.keywords if k.arg})
            if joined is not None:
                return joined
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        node = self.generic_visit(node)  # type: ignore[assignment]
        return _merged(node.values)


def _as_fstring(template: str, args: list[ast.expr], kwargs: dict[str, ast.expr]
                ) -> ast.JoinedStr | None:
    """``template.format(*args, **kwargs)`` as the f-string it equals, or None when it
    could evaluate its arguments differently (every argument used once, in order)."""
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return None
    parts: list[ast.expr] = []
    used: list[str | int] = []
    auto = 0
    for text, name, spec, conversion in fields:
        if text:
            parts.append(ast.Constant(text))
        if name is None:
            continue
        if spec and ("{" in spec or "}" in spec):
            return None
        key: str | int
        if name == "":
            key, auto = auto, auto + 1
        elif name.isdigit():
            key = int(name)
        elif name.isidentifier():
            key = name
        else:
            return None  # `{0.attr}`, `{a[0]}`
        value = args[key] if isinstance(key, int) and key < len(args) else \
            kwargs.get(key) if isinstance(key, str) else None
        if value is None:
            return None
        used.append(key)
        parts.append(ast.FormattedValue(
            value, ord(conversion) if conversion else -1,
            ast.JoinedStr([ast.Constant(spec)]) if spec else None))
    in_order = [*range(len(args)), *kwargs]
    if used != in_order:
        return None
    return _merged(parts)


def _merged(values: list[ast.expr]) -> ast.JoinedStr:
    """Adjacent literal parts joined (``f"a" "b{x}"`` and ``"ab{}".format(x)`` alike)."""
    out: list[ast.expr] = []
    for v in values:
        if isinstance(v, ast.Constant) and out and isinstance(out[-1], ast.Constant):
            out[-1] = ast.Constant(str(out[-1].value) + str(v.value))
        elif not (isinstance(v, ast.Constant) and v.value == ""):
            out.append(v)
    return ast.JoinedStr(out)
