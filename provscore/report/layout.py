"""Fitting text to a width without cutting a word, a path component or a node id.

``textwrap`` breaks an over-long word at any character (``tests/test_inv`` / ``oice.py``);
here a token longer than the line is broken only after ``/``, ``::``, ``.`` or ``,``, and
a piece that still does not fit stays whole on its own line, longer than the width: a
reader can follow a long line, not a path cut in two.
"""

from __future__ import annotations

import re

#: Width used when neither the caller nor the environment gives one.
DEFAULT_WIDTH = 100
_BREAK_AFTER = re.compile(r"(?<=/)|(?<=::)|(?<=[.,])(?=\S)")


def _pieces(token: str, width: int) -> list[str]:
    """``token`` in pieces of at most ``width`` where a break point allows."""
    if len(token) <= width:
        return [token]
    parts = [p for p in _BREAK_AFTER.split(token) if p]
    out: list[str] = []
    for part in parts:
        if out and len(out[-1]) + len(part) <= width:
            out[-1] += part
        else:
            out.append(part)
    return out


def wrap(text: str, width: int) -> list[str]:
    """Lines of at most ``width`` characters, broken at spaces (then at path and name
    separators); never inside a word."""
    width = max(width, 1)
    lines: list[str] = []
    current = ""
    for word in text.split():
        if current and len(current) + 1 + len(word) <= width:
            current += " " + word
            continue
        if current:
            lines.append(current)
        pieces = _pieces(word, width)
        lines.extend(pieces[:-1])
        current = pieces[-1]
    if current or not lines:
        lines.append(current)
    return lines


def fill(text: str, width: int) -> str:
    return "\n".join(wrap(text, width))
