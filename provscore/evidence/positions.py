"""Where nodes are: line numbers and source slices from one code generation pass."""

from __future__ import annotations

from collections.abc import Iterable

import libcst as cst
from libcst._nodes.internal import CodegenState

from provscore.records import dataclass


class SpanLocator(CodegenState):
    """One code generation of the module that records, for a set of target nodes only,
    where their code starts and ends in the generated text (which is the source) and on
    which line they start. Every item's text is then a slice: no per-node codegen."""

    def __init__(self, module: cst.Module, targets: set[int]) -> None:
        super().__init__(default_indent=module.default_indent,
                         default_newline=module.default_newline)
        self.targets = targets
        self.starts: dict[int, int] = {}
        self.ends: dict[int, int] = {}
        self.lines: dict[int, int] = {}
        self._counted = 0
        self._length = 0
        self._line = 1

    def _advance(self) -> None:
        new = self.tokens[self._counted:]
        if new:
            self._length += sum(map(len, new))
            self._line += sum(t.count("\n") for t in new)
            self._counted = len(self.tokens)

    def before_codegen(self, node: cst.CSTNode) -> None:
        key = id(node)
        if key in self.targets and key not in self.starts:
            self._advance()
            self.starts[key] = self._length
            self.lines[key] = self._line

    def after_codegen(self, node: cst.CSTNode) -> None:
        key = id(node)
        if key in self.targets and key not in self.ends:
            self._advance()
            self.ends[key] = self._length


@dataclass
class Spans:
    text: str
    starts: dict[int, int]
    ends: dict[int, int]
    lines: dict[int, int]


def locate(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> Spans:
    targets = {id(n) for n in nodes}
    state = SpanLocator(module, targets)
    module._codegen(state)
    return Spans("".join(state.tokens), state.starts, state.ends, state.lines)


def first_line_node(node: cst.CSTNode) -> cst.CSTNode:
    """The node whose code starts on the statement's own line (after comments/decorators)."""
    if isinstance(node, cst.FunctionDef | cst.ClassDef):
        return node.name
    if isinstance(node, cst.SimpleStatementLine) and node.body:
        return node.body[0]
    if isinstance(node, cst.Decorator):
        return node.decorator
    return node
