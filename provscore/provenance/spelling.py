"""One message spelled three ways: an f-string, ``%``-formatting and ``str.format``.

``f"not a literal: {item!r}"``, ``"not a literal: %r" % (item,)`` and
``"not a literal: {!r}".format(item)`` build the same text, so an expected message rewritten
from one spelling to another is no change to the check. Each spelling is rewritten to one
f-string form before the two codes are compared; only what is known to build the same text
is rewritten (``%s``, ``%r``, ``%a``, ``%%`` with a tuple or a single non-tuple literal;
``str.format`` with literal fields and no ``*``/``**``), so anything else still differs and
fails closed as a changed check.
"""

from __future__ import annotations

import ast
import io
import re
import string
import tokenize

from provscore.provenance.renames import without_guards

_PERCENT = re.compile(r"%(.)", re.DOTALL)
_CONVERSIONS = {"s": ord("s"), "r": ord("r"), "a": ord("a")}


def same_formatted(before: str, after: str, guards_before: tuple[str, ...],
                   guards_after: tuple[str, ...]) -> bool:
    """Whether two item codes differ only in how their strings are formatted."""
    if before == after or guards_before != guards_after:
        return False
    a = _canonical(without_guards(before, guards_before))
    b = _canonical(without_guards(after, guards_after))
    return a is not None and a == b


def _canonical(code: str) -> str | None:
    """The code's tree with one spelling of formatting, and its comments: an item's code
    says things in comments (``# the block raises the expected exception itself``)."""
    try:
        tree = ast.parse(code)
        comments = [t.string for t in tokenize.generate_tokens(io.StringIO(code).readline)
                    if t.type == tokenize.COMMENT]
        return ast.dump(Formatting().visit(tree)) + "\n".join(["", *comments])
    except (SyntaxError, ValueError, RecursionError, MemoryError, tokenize.TokenError):
        return None


class Formatting(ast.NodeTransformer):
    """Every string formatting of a tree written in one f-string form."""

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) and \
                isinstance(node.left.value, str):
            return _from_percent(node.left.value, node.right) or node
        return node

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "format" and \
                isinstance(func.value, ast.Constant) and isinstance(func.value.value, str):
            return _from_format(func.value.value, node) or node
        return node

    def visit_JoinedStr(self, node: ast.JoinedStr) -> ast.AST:
        self.generic_visit(node)
        return _joined(list(node.values))


def _joined(parts: list[ast.expr]) -> ast.JoinedStr:
    """Adjacent literal parts merged; ``{x}`` is ``{x!s}`` (``format(x, "")`` is ``str(x)``)."""
    out: list[ast.expr] = []
    for part in parts:
        if isinstance(part, ast.FormattedValue) and part.conversion == -1 and \
                part.format_spec is None:
            part = ast.FormattedValue(part.value, _CONVERSIONS["s"], None)
        if isinstance(part, ast.Constant) and out and isinstance(out[-1], ast.Constant):
            out[-1] = ast.Constant(str(out[-1].value) + str(part.value))
        elif not (isinstance(part, ast.Constant) and part.value == ""):
            out.append(part)
    return ast.JoinedStr(out)


def _from_percent(template: str, right: ast.expr) -> ast.JoinedStr | None:
    if isinstance(right, ast.Tuple):
        if any(isinstance(e, ast.Starred) for e in right.elts):
            return None
        values = list(right.elts)
    elif (isinstance(right, ast.Constant) and not isinstance(right.value, tuple)) or \
            isinstance(right, ast.JoinedStr):
        values = [right]  # a single value known not to be a tuple
    else:
        return None  # a name may hold a tuple (several values) or a mapping
    parts: list[ast.expr] = []
    pos = 0
    for m in _PERCENT.finditer(template):
        parts.append(ast.Constant(template[pos:m.start()]))
        pos = m.end()
        code = m.group(1)
        if code == "%":
            parts.append(ast.Constant("%"))
        elif code in _CONVERSIONS and values:
            parts.append(ast.FormattedValue(values.pop(0), _CONVERSIONS[code], None))
        else:
            return None  # widths, flags, mapping keys, %d: not rewritten
    if values or "%" in template[pos:]:
        return None
    parts.append(ast.Constant(template[pos:]))
    return _joined(parts)


def _from_format(template: str, call: ast.Call) -> ast.JoinedStr | None:
    if any(isinstance(a, ast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return None
    named = {str(k.arg): k.value for k in call.keywords}
    parts: list[ast.expr] = []
    auto = 0
    try:
        fields = list(string.Formatter().parse(template))
    except ValueError:
        return None
    for literal, field, spec, conversion in fields:
        parts.append(ast.Constant(literal))
        if field is None:
            continue
        if spec and "{" in spec:
            return None  # a nested field in the spec
        if field == "":
            index: int | str = auto
            auto += 1
        elif field.isdigit():
            index = int(field)
        elif field.isidentifier():
            index = field
        else:
            return None  # attribute or item lookups
        value = named.get(index) if isinstance(index, str) else \
            (call.args[index] if index < len(call.args) else None)
        if value is None:
            return None
        conv = _CONVERSIONS.get(conversion or "", -1) if conversion else -1
        if conversion and conv == -1:
            return None
        parts.append(ast.FormattedValue(value, conv, _joined([ast.Constant(spec)])
                                        if spec else None))
    return _joined(parts)
