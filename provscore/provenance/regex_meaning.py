"""What a ``match=`` pattern matches, read from its code: the same text spelled as a plain
literal or as ``re.escape(literal)`` is the same check.

``pytest.raises(E, match=p)`` passes when ``re.search(p, str(e))`` finds something. A pattern
without metacharacters matches exactly the strings holding its text; ``re.escape(s)`` of a
literal ``s`` matches exactly the strings holding ``s``. Both are reduced to that text, so
only an undecidable pattern (one with metacharacters, a name, another call) is compared as
written and fails closed as a rewritten expected message.
"""

from __future__ import annotations

import ast
import re

from provscore.evidence.constants import parse_expr

_META = frozenset(".^$*+?{}[]|()")
# Escapes that stand for one character (re's own table for the ones we accept).
_CHAR_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "a": "\a"}


def pattern_text(code: str | None) -> str | None:
    """The regex a ``match=`` argument's code builds: a string literal, or ``re.escape()``
    of one (then the escaped text). None when it is anything else."""
    if code is None:
        return None
    node = parse_expr(code)
    if node is None:
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "escape" and isinstance(node.func.value, ast.Name) and \
            node.func.value.id == "re" and len(node.args) == 1 and not node.keywords:
        inner = _string(node.args[0])
        return re.escape(inner) if inner is not None else None
    return _string(node)


def _string(node: ast.expr) -> str | None:
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def literal_of(pattern: str) -> str | None:
    """The text a regex matches literally (``1\\ is\\ 2`` → ``1 is 2``); None when the
    pattern has any metacharacter, class or escape that is not one plain character."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= len(pattern):
                return None
            nxt = pattern[i + 1]
            if nxt in _CHAR_ESCAPES:
                out.append(_CHAR_ESCAPES[nxt])
            elif nxt.isascii() and nxt.isalnum():
                return None  # \d, \b, \1, \x41 ...: not one plain character
            else:
                out.append(nxt)
            i += 2
            continue
        if ch in _META:
            return None
        out.append(ch)
        i += 1
    return "".join(out)
