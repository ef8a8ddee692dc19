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
import threading
from collections import OrderedDict

from provscore.evidence.limits import forget_measured, measured_tree

#: How many trees, and how many bytes of their sources, are kept.
KEEP_TREES = 16
KEEP_SOURCE_BYTES = 2_000_000

_trees: OrderedDict[bytes, ast.Module] = OrderedDict()
_lock = threading.Lock()


def parse_shared(source: bytes) -> ast.Module:
    """``ast.parse(source)``, or the tree an earlier call parsed from equal bytes. Raises
    what ``ast.parse`` raises (failures are not kept)."""
    with _lock:
        tree = _trees.get(source)
        if tree is not None:
            _trees.move_to_end(source)
            return tree
    # The evidence stage measured a changed test module before the graph summarises it.
    tree = measured_tree(source) or ast.parse(source)
    if len(source) <= KEEP_SOURCE_BYTES:
        with _lock:
            _trees[source] = tree
            kept = sum(len(s) for s in _trees)
            while len(_trees) > KEEP_TREES or kept > KEEP_SOURCE_BYTES:
                old, _ = _trees.popitem(last=False)
                kept -= len(old)
    return tree


def forget_trees() -> None:
    """Drop every kept tree, the evidence stage's measured ones too (a benchmark timing
    a cold parse)."""
    with _lock:
        _trees.clear()
    forget_measured()
