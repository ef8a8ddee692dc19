"""One ``ast`` parse of a changed file, shared by the stages that read it.

The call graph summarises every post-image the patch changed (:mod:`.summary`) and the
grader stage then walks the same post-images: :func:`parse_shared` hands both the same
tree, so a changed production module is parsed once per scoring. The trees most recently
parsed are kept (a bounded number, and a bounded amount of source): the post-images are
the last files the graph summarises before the grader runs. Keyed by the source bytes
themselves (equal bytes, equal tree); a shared tree is read, never mutated.
"""

from __future__ import annotations

import ast

from provscore.evidence.limits import forget_measured, measured_tree
from provscore.kept import KeptBySource

#: How many trees, and how many bytes of their sources, are kept.
KEEP_TREES = 16
KEEP_SOURCE_BYTES = 2_000_000

_trees: KeptBySource[ast.Module] = KeptBySource()


def parse_shared(source: bytes) -> ast.Module:
    """``ast.parse(source)``, or the tree an earlier call parsed from equal bytes. Raises
    what ``ast.parse`` raises (failures are not kept)."""
    tree = _trees.get(source)
    if tree is not None:
        return tree
    # The evidence stage measured a changed test module before the graph summarises it.
    tree = measured_tree(source) or ast.parse(source)
    _trees.put(source, tree, count=KEEP_TREES, size=KEEP_SOURCE_BYTES)
    return tree


def forget_trees() -> None:
    """Drop every kept tree, the evidence stage's measured ones too (a benchmark timing
    a cold parse)."""
    _trees.clear()
    forget_measured()
