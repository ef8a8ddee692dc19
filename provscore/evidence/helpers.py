"""Helper oracles: non-test functions of this file that hold evidence, and calls to them."""

from __future__ import annotations

import builtins

import libcst as cst

from provscore.evidence.context import Context, HelperLookup, RawCall, RawItem
from provscore.evidence.model import NOT_CHECKS, EvidenceKind
from provscore.names import matches


def helper_oracles(ctx: Context) -> set[str]:
    """Qualnames of non-test functions in this file that contain evidence, transitively."""
    funcs = {f.qualname: f for f in ctx.defs if not f.is_test and f.test_id is None}
    direct = {f.qualname for f in funcs.values() if f.evidence_count > 0}
    direct |= {it.frame.qualname for it in ctx.items
               if it.frame.qualname in funcs and it.kind not in NOT_CHECKS}
    calls_by_frame: dict[str, set[str]] = {}
    for call in ctx.calls:
        if call.frame.qualname in funcs:
            calls_by_frame.setdefault(call.frame.qualname, set()).add(call.name)
    helpers = set(direct)
    changed = True
    while changed:
        changed = False
        short = {h.rsplit(".", 1)[-1] for h in helpers}
        for qual, names in calls_by_frame.items():
            if qual not in helpers and names & short:
                helpers.add(qual)
                changed = True
    return helpers


def _is_helper_call(ctx: Context, call: RawCall, local: set[str],
                    lookup: HelperLookup | None) -> bool:
    if id(call.node) in ctx.consumed:
        return False
    name = call.name
    func = call.node.func
    local_short = {h.rsplit(".", 1)[-1] for h in local}
    if isinstance(func, cst.Name):
        if name in local_short:
            return True
        imported = ctx.aliases.imported(name)
        if imported and lookup is not None and any(lookup(ctx.path, q) for q in imported):
            return True
        resolved = ctx.aliases.resolve(name)
        if matches(resolved, ctx.tables.assertion_helpers):
            return True
        if not imported and name in _BUILTINS:
            return False
        return name.startswith(ctx.tables.helper_name_prefixes)
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
            func.value.value in ("self", "cls"):
        return name in local_short or name.startswith(ctx.tables.helper_name_prefixes)
    if isinstance(func, cst.Attribute):
        resolved = ctx.qualnames(func)
        if lookup is not None and any(lookup(ctx.path, q) for q in resolved if "." in q):
            return True
        if matches(resolved, ctx.tables.assertion_helpers):
            return True
    return False


_BUILTINS = frozenset(dir(builtins))  # names never taken for helpers


def add_helper_calls(ctx: Context, helpers: set[str]) -> None:
    seen = {id(it.node) for it in ctx.items}
    for call in ctx.calls:
        if id(call.node) in seen:
            continue
        if call.frame.qualname in helpers and call.name == call.frame.name:
            continue  # recursion inside a helper
        if _is_helper_call(ctx, call, helpers, ctx.helper_lookup):
            ctx.items.append(RawItem(EvidenceKind.HELPER_CALL, call.node, call.frame, call.node,
                                     call.seq, op=call.name, guards=call.guards))
