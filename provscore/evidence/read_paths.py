"""Which file an expected-value read opens, as the literal parts of its path.

``open(os.path.join(HERE, "examples", "json", name + ".json"))`` and
``open(f"{HERE}/examples/json/{name}.json")`` read the same file: both are the parts
``examples / json / .json``. What is not a literal (a directory computed from
``__file__``, the case's name) is the same on both sides of a refactoring and is left out;
a read whose path has no literal part is ``<computed>``. Used to tell a fixture whose data
source changed (another file, or none: the value now computed) from one rewritten.
"""

from __future__ import annotations

import libcst as cst

from provscore.evidence.context import Context, Frame
from provscore.evidence.model import EvidenceKind

COMPUTED = "<computed>"


class _Literals(cst.CSTVisitor):
    def __init__(self) -> None:
        self.parts: list[str] = []

    def visit_SimpleString(self, node: cst.SimpleString) -> None:
        value = node.evaluated_value
        self.parts += [p for p in str(value).replace("\\", "/").split("/") if p]

    def visit_FormattedStringText(self, node: cst.FormattedStringText) -> None:
        self.parts += [p for p in node.value.replace("\\", "/").split("/") if p]


def read_path(node: cst.CSTNode) -> str:
    """The literal parts of the path a read call (``open(path, ...)``) opens."""
    if not isinstance(node, cst.Call) or not node.args:
        return COMPUTED
    first = next((a for a in node.args if a.keyword is None or a.keyword.value == "file"),
                 None)
    if first is None:
        return COMPUTED
    found = _Literals()
    first.value.visit(found)
    return " / ".join(found.parts) or COMPUTED


def expected_reads(ctx: Context) -> list[tuple[Frame, str]]:
    """(frame, path parts) of every expected-value read of the module, in the order read:
    computed once per module, then filtered per fixture."""
    return [(raw.frame, read_path(raw.node)) for raw in sorted(ctx.items, key=lambda r: r.seq)
            if raw.kind is EvidenceKind.EXPECTED_READ]


def fixture_reads(reads: list[tuple[Frame, str]], fixture: Frame) -> tuple[str, ...]:
    """The files ``fixture`` (or a function nested in it) reads, in the order read."""
    return tuple(path for frame, path in reads if frame.within(fixture))
