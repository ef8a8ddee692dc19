"""The read-only walk that dispatches every node to every interested collector."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import libcst as cst

from provscore.evidence.context import Collector, Context

_SKIPPED_FIELDS = frozenset({
    "leading_lines", "lines_after_decorators", "lpar", "rpar", "comma", "semicolon", "dot",
    "header", "footer", "asynchronous", "trailing_whitespace", "equal", "operator",
    "colon", "star_tok", "whitespace", "default_indent", "default_newline", "encoding",
    "first_line", "empty_lines", "indent", "newline", "lbracket", "rbracket",
    "lbrace", "rbrace", "between"})


@functools.cache
def child_fields(node_type: type) -> tuple[str, ...]:
    import dataclasses

    return tuple(f.name for f in dataclasses.fields(node_type)
                 if not f.name.startswith("whitespace") and f.name not in _SKIPPED_FIELDS)


class Walker:
    """One read-only walk over the tree dispatching each node to every interested
    collector. libcst's own visit() rebuilds every node it passes (even for a read-only
    visitor) and looks up per-field hooks; walking the dataclass fields directly, and
    skipping whitespace and punctuation, does the same visit in about a third of the
    time. Order: fields in declaration order (source order except decorators, which
    come after the body; no collector depends on that)."""

    _dispatch_cache: ClassVar[dict[tuple[type, ...], tuple[set[str], set[str]]]] = {}

    def __init__(self, ctx: Context, collectors: Sequence[Collector]) -> None:
        self.ctx = ctx
        key = tuple(type(c) for c in collectors)
        if key not in self._dispatch_cache:
            visit_types = {a[6:] for c in collectors for a in dir(type(c))
                           if a.startswith("visit_")}
            leave_types = {a[6:] for c in collectors for a in dir(type(c))
                           if a.startswith("leave_")}
            self._dispatch_cache[key] = (visit_types, leave_types)
        visit_types, leave_types = self._dispatch_cache[key]
        self._visit: dict[str, list[Callable[[Any], Any]]] = {
            t: [getattr(c, f"visit_{t}") for c in collectors if hasattr(c, f"visit_{t}")]
            for t in visit_types}
        self._leave: dict[str, list[Callable[[Any], Any]]] = {
            t: [getattr(c, f"leave_{t}") for c in collectors if hasattr(c, f"leave_{t}")]
            for t in leave_types}

    def walk(self, node: cst.CSTNode) -> None:
        name = type(node).__name__
        descend = True
        handlers = self._visit.get(name)
        if handlers:
            for h in handlers:
                if h(node) is False:
                    descend = False
        if descend:
            for field_name in child_fields(type(node)):
                value = getattr(node, field_name)
                if isinstance(value, cst.CSTNode):
                    self.walk(value)
                elif isinstance(value, tuple | list):
                    for item in value:
                        if isinstance(item, cst.CSTNode):
                            self.walk(item)
        leave = self._leave.get(name)
        if leave:
            for h in leave:
                h(node)
