"""The module-level tables a helper oracle reads: part of what it checks.

``numeric_tester`` compares each locale's value with ``known_numerics[locale]``: dropping
the ``'de_DE'`` entry from that module-level dict silences its assertion for that locale as
surely as editing the helper. A name the helper mentions that the module binds once to a
literal collection (a dict, list, tuple or set display) is such a table; the provenance
stage compares its entries (an entry gone is a weaker helper, one added is more cases).
"""

from __future__ import annotations

import libcst as cst

from provscore.evidence.context import Context
from provscore.evidence.shapes import Shaper

_TABLES = (cst.Dict, cst.List, cst.Tuple, cst.Set)


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)


def module_data(ctx: Context, shaper: Shaper, node: cst.CSTNode) -> tuple[tuple[str, str], ...]:
    """(name, code) of each module-level literal table the def ``node`` mentions."""
    seen = _Names()
    node.visit(seen)
    bindings = ctx.frames[0].bindings
    out: list[tuple[str, str]] = []
    for name in sorted(seen.names):
        values = bindings.get(name)
        if values is not None and len(values) == 1 and isinstance(values[0], _TABLES):
            out.append((name, shaper.code(values[0])))
    return tuple(out)
