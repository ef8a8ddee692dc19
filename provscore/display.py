"""How code fragments read in a finding's message.

Evidence is compared in normalised form (``ast.unparse``), which writes every string with
``repr``: the regex ``r"bad\\n \\d+"`` becomes ``'bad\\\\n \\\\d+'``, a doubled backslash a
reviewer has to undo in their head (and which JSON doubles again). Shown to a reader, a
string literal that holds a backslash is written back as a raw literal, exactly as the
regex engine reads it: ``r'bad\\n \\d+'``. A literal that a raw string cannot spell (a
control character, a trailing backslash, both quotes) keeps its escaped form, so the text
never says something other than what the code says. Comparison keys (anchors) are never
rewritten: this is presentation only.
"""

from __future__ import annotations

import ast
import re

# A one-line string literal with no prefix (bytes and f-strings are left as they are):
# ast.unparse writes plain '...' or "..." for every str constant.
_LITERAL = re.compile(r"""(?<![\w'"])('(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")


def _raw_spelling(literal: str) -> str:
    try:
        value = ast.literal_eval(literal)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        return literal
    if not isinstance(value, str) or "\\" not in value or not value.isprintable():
        return literal
    trailing = len(value) - len(value.rstrip("\\"))
    if trailing % 2:  # r'...\' cannot end a raw string
        return literal
    for quote in ("'", '"'):
        if quote not in value:
            return f"r{quote}{value}{quote}"
    return literal


def readable_code(text: str) -> str:
    """``text`` with every backslash-holding string literal spelled as a raw string."""
    if "\\" not in text:
        return text
    return _LITERAL.sub(lambda m: _raw_spelling(m.group(1)), text)
