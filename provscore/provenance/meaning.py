"""Whether two versions of a definition mean the same code: what a reformat, a comment,
a docstring or a change of string-formatting spelling changes, and nothing else.

Projects reformat (black, ruff format) and modernise (pyupgrade) their helpers as a matter
of course; a helper oracle whose code is the same program is not modified. Compared is
the ``ast`` of each (positions, comments and layout are not in it), with docstrings
dropped (unless they hold a doctest, which runs), the text of failure messages blanked
(:mod:`.messages`) and every formatting of a string in one f-string form (:mod:`.spelling`:
only what is known to build the same text). Code that does not parse is never the same.
"""

from __future__ import annotations

import ast
import textwrap

from provscore.provenance.messages import blank_messages
from provscore.provenance.spelling import Formatting

__all__ = ["same_meaning"]


def same_meaning(before: str, after: str) -> bool:
    a, b = _canonical(before), _canonical(after)
    return a is not None and a == b


def _canonical(code: str) -> str | None:
    try:
        tree = blank_messages(ast.parse(textwrap.dedent(code)))
        read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and
                not isinstance(n.ctx, ast.Store)}
        return ast.dump(_Canonical(read).visit(tree))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


class _Canonical(Formatting):
    def __init__(self, read: set[str]) -> None:
        super().__init__()
        self._read = read  # every name the code reads anywhere

    def visit_For(self, node: ast.For) -> ast.AST:
        """``for _, x in enumerate(xs)`` whose count is never read iterates ``xs``: the
        same values in the same order, whatever ``start=`` is."""
        it, target = node.iter, node.target
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and \
                it.func.id == "enumerate" and \
                len(it.args) in (1, 2) and all(k.arg == "start" for k in it.keywords) and \
                len(it.args) + len(it.keywords) <= 2 and \
                isinstance(target, ast.Tuple) and len(target.elts) == 2 and \
                isinstance(target.elts[0], ast.Name) and target.elts[0].id not in self._read:
            node.iter, node.target = it.args[0], target.elts[1]
        return self.generic_visit(node)

    def _drop_docstring(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
                        ) -> ast.AST:
        body = node.body
        if len(body) > 1 and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and \
                isinstance(body[0].value.value, str) and ">>>" not in body[0].value.value:
            node.body = body[1:]
        return self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _drop_docstring
