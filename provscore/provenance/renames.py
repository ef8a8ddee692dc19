"""Consistent renames the patch made that change no check: parametrize argnames.

Renaming a parametrize argument in the decorator and the body together (``stream`` →
``stream_cls``) is an equivalent rewrite. Before matching, the base image's items of such
a test get the new names, so every row and check matches as preexisting; swapping two
argnames (``"x, y"`` → ``"y, x"``) still changes the checks in the body, and is seen there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from provscore.evidence.inlining import substitute
from provscore.evidence.model import EvidenceItem, EvidenceKind
from provscore.provenance.model import TestChange

UNDER = "  # under: "
_SELF_RAISING = "  # the block raises the expected exception itself"


def without_guards(code: str, guards: tuple[str, ...]) -> str:
    """An item's code without the conditions it runs under (its ``# under:`` tail)."""
    tail = UNDER + " and ".join(guards)
    return code[:-len(tail)] if guards and code.endswith(tail) else code


def argname_renames(tests: Sequence[TestChange]) -> dict[str, dict[str, str]]:
    """Base node id → {old argname: new argname} for tests whose parametrize argnames
    the patch renamed position by position."""
    out: dict[str, dict[str, str]] = {}
    for t in tests:
        if t.pre is None or t.post is None or t.pre.params == t.post.params:
            continue
        if len(t.pre.params) == len(t.post.params):
            names = {a: b for a, b in zip(t.pre.params, t.post.params, strict=True) if a != b}
            out[t.pre.node_id] = names
    return out


def _rename(code: str, names: Mapping[str, str]) -> str:
    if code.startswith("for ") and " in " in code:  # a loop guard: `for x in rows`
        renamed = substitute(code + ": pass", dict(names))
        return renamed.split(":\n", 1)[0] if renamed != code + ": pass" else code
    return substitute(code, dict(names))


def renamed_item(item: EvidenceItem, names: Mapping[str, str]) -> EvidenceItem:
    """``item`` with ``names`` renamed in its anchor and shape (see the module doc)."""
    code, shape = item.code, item.shape
    tail = ""
    if code.endswith(_SELF_RAISING):
        code, tail = code[:-len(_SELF_RAISING)], _SELF_RAISING
    guards = tuple(_rename(g, names) for g in shape.guards)
    if shape.guards and code.endswith(UNDER + " and ".join(shape.guards)):
        code = code[:-len(UNDER + " and ".join(shape.guards))]
        tail = UNDER + " and ".join(guards) + tail
    if item.kind is EvidenceKind.HELPER_CALL and " -> " in code:
        code, target = code.rsplit(" -> ", 1)
        tail = f" -> {target}{tail}"
    elif item.kind is EvidenceKind.PROPERTY and " @" in code:
        code, settings = code.rsplit(" @", 1)
        tail = f" @{settings}{tail}"
    if item.kind is EvidenceKind.PARAM_ROW and code.startswith("["):
        head, _, row = code[1:].partition("] ")
        code = "[" + ",".join(names.get(n, n) for n in head.split(",")) + "] " + row
    else:
        code = _rename(code, names)
    return replace(item, code=code + tail, shape=replace(
        shape, operands=tuple(_rename(o, names) for o in shape.operands),
        subject=_rename(shape.subject, names) if shape.subject else "", guards=guards))
