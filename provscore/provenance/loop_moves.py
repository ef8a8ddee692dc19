"""Loop values moved from one test's case table into another test's.

Splitting ``for url in (a, b, c, d)`` into two tests, ``for url in (a, b)`` and a new test
``for url in (c, d)`` running the same check, removes no case: every value the base loop
took is still checked, by the same code. Without this, the base check reads as looping over
fewer values (weakened) and the new test's as evidence the patch added. Only a check whose
code is the same on both sides and whose loops differ in one loop's literal values is
followed; every lost value must be taken by one of the new loops, or nothing changes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from provscore.evidence.model import EvidenceItem
from provscore.model import Modification, Provenance
from provscore.provenance.model import ClassifiedItem
from provscore.provenance.renames import without_guards
from provscore.provenance.strength import iterated


def with_moved_loop_values(items: Sequence[ClassifiedItem]) -> list[ClassifiedItem]:
    """``items`` with each check whose lost loop values went into added checks of the same
    code made preexisting, and those added checks preexisting evidence moved there."""
    out = list(items)
    added = [i for i, c in enumerate(out) if c.provenance is Provenance.AGENT_ADDED and
             c.post is not None]
    used: set[int] = set()
    for i, c in enumerate(items):
        if c.provenance is not Provenance.AGENT_MODIFIED or \
                c.modification is not Modification.WEAKENED or c.pre is None or c.post is None:
            continue
        split = _differing_loop(c.pre, c.post)
        if split is None:
            continue
        index, target, lost = split
        takers: list[int] = []
        taken: list[Any] = []
        for j in added:
            other = out[j].post
            assert other is not None
            values = _loop_values(c.post, other, index, target)
            if j not in used and values is not None and any(v in lost for v in values):
                takers.append(j)
                taken += values
        if not takers or any(v not in taken for v in lost):
            continue
        out[i] = ClassifiedItem(Provenance.PREEXISTING, c.pre, c.post, None,
                                "loop values moved into another test")
        for j in takers:
            used.add(j)
            out[j] = ClassifiedItem(Provenance.PREEXISTING, c.pre, out[j].post, None,
                                    f"loop values moved from {c.pre.node_id}")
    return out


def _head(item: EvidenceItem) -> str:
    return without_guards(item.code, item.shape.guards)


def _differing_loop(pre: EvidenceItem, post: EvidenceItem
                    ) -> tuple[int, str, list[Any]] | None:
    """(guard index, loop target, values lost) when the two differ only there."""
    ga, gb = pre.shape.guards, post.shape.guards
    if pre.kind is not post.kind or _head(pre) != _head(post) or len(ga) != len(gb):
        return None
    differing = [k for k, (x, y) in enumerate(zip(ga, gb, strict=True)) if x != y]
    if len(differing) != 1:
        return None
    k = differing[0]
    la, lb = iterated(ga[k]), iterated(gb[k])
    if la is None or lb is None or la[0] != lb[0]:
        return None
    lost = [v for v in la[1] if v not in lb[1]]
    return (k, la[0], lost) if lost else None


def _loop_values(kept: EvidenceItem, other: EvidenceItem, index: int, target: str
                 ) -> list[Any] | None:
    """The values ``other`` loops over at ``index`` when it is ``kept``'s check under the
    same conditions but that loop's values."""
    ga, gb = kept.shape.guards, other.shape.guards
    if other.kind is not kept.kind or _head(other) != _head(kept) or len(ga) != len(gb) or \
            any(x != y for k, (x, y) in enumerate(zip(ga, gb, strict=True)) if k != index):
        return None
    found = iterated(gb[index])
    return found[1] if found is not None and found[0] == target else None
