"""Matching pre-image to post-image by anchor, never by line; what is left is paired."""

from __future__ import annotations

import ast
import difflib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence

from provscore.evidence.model import (
    EvidenceItem,
    EvidenceKind,
    FilePair,
    HelperDef,
    Suppression,
    SuppressionKind,
    TestDef,
)
from provscore.evidence.suppressions.load_tests import only_adds
from provscore.model import Modification, Provenance
from provscore.nodeid import file_of
from provscore.provenance.bounded import same_order_sides
from provscore.provenance.bounds import bounds_tightened, checks_only_added, literal_only
from provscore.provenance.extracted import match_extracted_checks
from provscore.provenance.loop_moves import with_moved_loop_values
from provscore.provenance.meaning import same_meaning
from provscore.provenance.model import (
    FAMILY,
    ClassifiedItem,
    ClassifiedSuppression,
    HelperChange,
    HelperStatus,
    ProvenanceResult,
    TestChange,
    TestStatus,
)
from provscore.provenance.renames import argname_renames, renamed_item
from provscore.provenance.skip_strength import compare_suppressions
from provscore.provenance.strength import Strength, compare, loop_renamed

# --------------------------------------------------------------------------- tests

def _rekey(node_id: str, old: str | None, new: str | None) -> str:
    if old and new and old != new and (node_id == old or node_id.startswith(old + "::")):
        return new + node_id[len(old):]
    return node_id


def match_tests(pairs: Sequence[FilePair]) -> tuple[tuple[TestChange, ...], dict[str, str]]:
    """Match tests across the patch; returns changes and a map pre node id → post node id."""
    pre: dict[str, TestDef] = {}
    post: dict[str, TestDef] = {}
    for p in pairs:
        for t in p.pre.tests if p.pre else ():
            pre[_rekey(t.node_id, p.old_path, p.new_path)] = t
        for t in p.post.tests if p.post else ():
            post[t.node_id] = t
    changes: list[TestChange] = []
    idmap: dict[str, str] = {}
    for key in [k for k in pre if k in post and _still_runs(pre[k], post[k])]:
        idmap[pre[key].node_id] = key
        moved = pre[key].node_id != key
        changes.append(TestChange(TestStatus.MOVED if moved else TestStatus.KEPT,
                                  pre.pop(key), post.pop(key)))
    # Same body under another name or in another file/class: a move, not a removal.
    by_body: dict[str, list[str]] = defaultdict(list)
    for key, t in post.items():
        by_body[t.body].append(key)
    for key in list(pre):
        candidates = [k for k in by_body.get(pre[key].body, [])
                      if k in post and _still_runs(pre[key], post[k])]
        if candidates:
            dest = candidates[0]
            idmap[pre[key].node_id] = dest
            changes.append(TestChange(TestStatus.MOVED, pre.pop(key), post.pop(dest)))
    # Same function name, unique on both sides, body edited: moved and modified.
    pre_names = _unique_names(pre.values())
    post_names = _unique_names(post.values())
    for name, key in pre_names.items():
        dest_key = post_names.get(name)
        if dest_key is not None and key in pre and dest_key in post and \
                _still_runs(pre[key], post[dest_key]):
            idmap[pre[key].node_id] = dest_key
            changes.append(TestChange(TestStatus.MOVED, pre.pop(key), post.pop(dest_key)))
    changes += [TestChange(TestStatus.REMOVED, t, None) for t in pre.values()]
    changes += [TestChange(TestStatus.ADDED, None, t) for t in post.values()]
    return tuple(sorted(changes, key=lambda c: c.node_id)), idmap


def _still_runs(before: TestDef, after: TestDef) -> bool:
    """A test moved out of base's testpaths no longer runs with a bare ``pytest``: that is
    a removal (PS106), not a move. So is a TestCase method whose class no longer derives
    from TestCase where unittest alone runs base's tests: discovery no longer collects it
    (the runner is part of what the test is)."""
    return (after.runs_by_default or not before.runs_by_default) and \
        (after.unittest_only or not before.unittest_only)


def _unique_names(tests: Iterable[TestDef]) -> dict[str, str]:
    seen: dict[str, list[str]] = defaultdict(list)
    for t in tests:
        seen[t.name].append(t.node_id)
    return {name: ids[0] for name, ids in seen.items() if len(ids) == 1}


def _multiset_match(pre: list[EvidenceItem], post: list[EvidenceItem],
                    key_pre: Callable[[EvidenceItem], object],
                    key_post: Callable[[EvidenceItem], object],
                    ) -> tuple[list[tuple[EvidenceItem, EvidenceItem]], list[EvidenceItem],
                               list[EvidenceItem]]:
    buckets: dict[object, list[EvidenceItem]] = defaultdict(list)
    for it in post:
        buckets[key_post(it)].append(it)
    pairs: list[tuple[EvidenceItem, EvidenceItem]] = []
    left_pre: list[EvidenceItem] = []
    for it in pre:
        bucket = buckets.get(key_pre(it))
        if bucket:
            pairs.append((it, bucket.pop(0)))
        else:
            left_pre.append(it)
    matched = {id(b) for _, b in pairs}
    left_post = [it for it in post if id(it) not in matched]
    return pairs, left_pre, left_post


def classify_items(pairs: Sequence[FilePair], idmap: dict[str, str], strength: Strength,
                   helper_renames: dict[str, str] | None = None,
                   argnames: Mapping[str, Mapping[str, str]] | None = None
                   ) -> list[ClassifiedItem]:
    """``argnames``: per base test, the parametrize argnames the patch renamed."""
    pre_items: list[EvidenceItem] = []
    post_items: list[EvidenceItem] = []
    renames: dict[str, tuple[str | None, str | None]] = {}
    for p in pairs:
        if p.pre:
            pre_items += [renamed_item(it, argnames[it.node_id])
                          if argnames and it.node_id in argnames else it for it in p.pre.items]
            renames[p.pre.path] = (p.old_path, p.new_path)
        if p.post:
            post_items += p.post.items

    def pre_id(it: EvidenceItem) -> str:
        if it.node_id in idmap:
            return idmap[it.node_id]
        old, new = renames.get(it.path, (None, None))
        return _rekey(it.node_id, old, new)

    # A check that ran in a bare run and now sits in a test none reaches (out of
    # testpaths, in a directory the runner script skips) is not the same check.
    idle_pre = {t.node_id for p in pairs if p.pre for t in p.pre.tests if not t.runs_by_default}
    idle = {t.node_id for p in pairs if p.post for t in p.post.tests if not t.runs_by_default}
    # Nor is a check of a TestCase method whose class stopped being a TestCase (the test
    # is removed, match_tests): it is keyed apart, so it is removed, never matched.
    not_unittest = {t.node_id for p in pairs if p.post for t in p.post.tests
                    if not t.unittest_only}
    demoted = {idmap.get(t.node_id) or _rekey(t.node_id, p.old_path, p.new_path)
               for p in pairs if p.pre for t in p.pre.tests if t.unittest_only} & not_unittest
    idle_pre |= {t.node_id for p in pairs if p.pre for t in p.pre.tests
                 if (idmap.get(t.node_id) or _rekey(t.node_id, p.old_path, p.new_path))
                 in demoted}
    result: list[ClassifiedItem] = []
    exact, pre_left, post_left = _multiset_match(
        pre_items, post_items,
        lambda it: (pre_id(it), it.scope, it.kind, it.code, it.node_id in idle_pre),
        lambda it: (it.node_id, it.scope, it.kind, it.code, it.node_id in idle))
    # Same check moved to another test (still runs, still evidence).
    moved, pre_left, post_left = _multiset_match(
        pre_left, post_left,
        lambda it: (it.in_test, it.scope, it.kind, it.code, it.node_id in idle_pre),
        lambda it: (it.in_test, it.scope, it.kind, it.code, it.node_id in idle))
    renamed, pre_left, post_left = _match_renamed_helper_calls(pre_left, post_left,
                                                               helper_renames or {}, pre_id)
    extracted, pre_left, post_left = match_extracted_checks(
        pre_left, post_left, post_items, pairs, pre_id)
    result += [ClassifiedItem(Provenance.PREEXISTING, a, b)
               for a, b in exact + moved + renamed + extracted]

    # Pair what is left inside the same test: modifications.
    groups_pre: dict[tuple[str, str, str, bool], list[EvidenceItem]] = defaultdict(list)
    groups_post: dict[tuple[str, str, str, bool], list[EvidenceItem]] = defaultdict(list)
    for it in pre_left:
        groups_pre[(pre_id(it), it.scope, FAMILY[it.kind], it.node_id in idle_pre)].append(it)
    for it in post_left:
        groups_post[(it.node_id, it.scope, FAMILY[it.kind], it.node_id in idle)].append(it)
    for key in sorted(set(groups_pre) | set(groups_post)):
        olds, news = groups_pre.get(key, []), groups_post.get(key, [])
        for a, b in _pair_by_similarity(olds, news, rows=key[2] == "row"):
            if a is not None and b is not None:
                mod, reason = compare(a, b, strength)
                if mod is None:  # an equivalent rewrite (assertEqual(a, 1) → assert a == 1)
                    result.append(ClassifiedItem(Provenance.PREEXISTING, a, b, None, reason))
                else:
                    result.append(ClassifiedItem(Provenance.AGENT_MODIFIED, a, b, mod, reason))
            elif a is not None:
                if a.kind is EvidenceKind.PARAM_ROW:
                    result.append(ClassifiedItem(Provenance.AGENT_MODIFIED, a, None,
                                                 Modification.WEAKENED,
                                                 "parametrize row removed"))
                else:
                    result.append(ClassifiedItem(Provenance.AGENT_REMOVED, a, None))
            elif b is not None:
                result.append(ClassifiedItem(Provenance.AGENT_ADDED, None, b))
    return with_moved_loop_values(result)


def _ratio_at_least(a: str, b: str, least: float) -> float | None:
    """``SequenceMatcher(None, a, b).ratio()`` when it is at least ``least``, else None,
    rejected on its cheap upper bounds first (a full ratio of two long checks costs
    milliseconds, and most pairs of a test's changed checks are far apart)."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    if matcher.real_quick_ratio() < least or matcher.quick_ratio() < least:
        return None
    ratio = matcher.ratio()
    return ratio if ratio >= least else None


def _pair_by_similarity(olds: list[EvidenceItem], news: list[EvidenceItem], *, rows: bool
                        ) -> list[tuple[EvidenceItem | None, EvidenceItem | None]]:
    """Greedy pairing, most similar first; dissimilar leftovers stay unpaired. The
    similarity of two items is their code's ``SequenceMatcher`` ratio, computed only for
    pairs that may pair (it orders them)."""
    scored: list[tuple[float, int, int]] = []
    for i, a in enumerate(olds):
        for j, b in enumerate(news):
            ratio: float | None = None
            same_kind = a.kind is b.kind
            oa, ob = a.shape.operands, b.shape.operands
            same_subject = bool(a.shape.subject) and a.shape.subject == b.shape.subject
            if rows:
                # A removed row and an added row are one changed row only when they look alike.
                ratio = _ratio_at_least(a.code, b.code, 0.5)
                pairable = ratio is not None
            else:
                # Two checks are one modified check when they test the same thing, or the
                # same pieces rearranged (`f(x) == y` → `f(y) == x`).
                pairable = same_subject or (same_kind and (
                    (len(oa) > 1 and oa[1:] == ob[1:]) or sorted(a.code) == sorted(b.code)
                    or same_order_sides(a.shape, b.shape)))
                if same_kind and not pairable:
                    ratio = _ratio_at_least(a.code, b.code, 0.9)
                    pairable = ratio is not None
                    if not pairable and loop_renamed(a, b):
                        pairable, ratio = True, 1.0  # the same check, its loop variables renamed
            if pairable:
                if ratio is None:
                    ratio = difflib.SequenceMatcher(None, a.code, b.code, autojunk=False).ratio()
                scored.append((ratio + same_kind + same_subject, i, j))
    scored.sort(key=lambda t: (-t[0], t[1], t[2]))
    used_i: set[int] = set()
    used_j: set[int] = set()
    out: list[tuple[EvidenceItem | None, EvidenceItem | None]] = []
    for _, i, j in scored:
        if i in used_i or j in used_j:
            continue
        used_i.add(i)
        used_j.add(j)
        out.append((olds[i], news[j]))
    out += [(a, None) for i, a in enumerate(olds) if i not in used_i]
    out += [(None, b) for j, b in enumerate(news) if j not in used_j]
    return out


# --------------------------------------------------------------------------- suppressions, helpers

def classify_suppressions(pairs: Sequence[FilePair], idmap: dict[str, str],
                          added_tests: frozenset[str], strength: Strength,
                          moved_into: frozenset[str] = frozenset(), xfail_strict: bool = False
                          ) -> list[ClassifiedSuppression]:
    """Suppressions before and after, matched by target, kind, code and conditions; what
    is left is paired by target and kind and judged by meaning (an edited skip that
    suppresses in fewer cases is no new suppression). One on a test the patch added is
    harmless (that test does not vote) unless preexisting evidence was moved into it."""
    pre: list[tuple[SuppressionKey, Suppression]] = []
    post: dict[SuppressionKey, list[Suppression]] = defaultdict(list)
    base_tests = {idmap.get(t.node_id) or _rekey(t.node_id, p.old_path, p.new_path)
                  for p in pairs if p.pre for t in p.pre.tests}
    for p in pairs:
        for s in p.pre.suppressions if p.pre else ():
            target = idmap.get(s.node_id) or _rekey(s.node_id, p.old_path, p.new_path)
            pre.append(((target, s.kind.value, s.code, s.guards), s))
        for s in p.post.suppressions if p.post else ():
            post[(s.node_id, s.kind.value, s.code, s.guards)].append(s)
    removed: list[tuple[SuppressionKey, Suppression]] = []
    for key, s in pre:
        bucket = post.get(key)
        if bucket:
            bucket.pop(0)
        else:
            removed.append((key, s))
    added = [(key, s) for key, sups in post.items() for s in sups]
    out: list[ClassifiedSuppression] = []
    for before, after in _pair_suppressions(removed, added):
        if after is None:
            lost = only_adds(before.code) if before is not None else None
            if before is not None and lost:  # a table of extra tests gone: they are gone
                out.append(ClassifiedSuppression(
                    Provenance.AGENT_MODIFIED, before, "pre", modification=Modification.WEAKENED,
                    reason=f"no longer adds {lost[0]}", before=before))
            elif before is not None:
                out.append(ClassifiedSuppression(Provenance.AGENT_REMOVED, before, "pre"))
            continue
        # An empty table is falsy: pytest then collects nothing of the module.
        if before is None and only_adds(after.code) and not any(
                k[:2] == (after.node_id, after.kind.value) and only_adds(p.code) is not None
                for k, p in pre):
            continue  # a new table that only adds tests, rebinding none of base's
        if before is None:
            new_target = (after.node_id in added_tests or _new_class(after, base_tests)) and \
                after.node_id not in moved_into
            out.append(ClassifiedSuppression(Provenance.AGENT_ADDED, after, "post",
                                             target_added=new_target))
            continue
        mod, reason = compare_suppressions(before, after, strength.domains, xfail_strict,
                                           strength.every_edit_hooks)
        if mod is not None:
            out.append(ClassifiedSuppression(Provenance.AGENT_MODIFIED, after, "post",
                                             modification=mod, reason=reason, before=before))
    return _hoisted(out, base_tests)


def _hoisted(found: list[ClassifiedSuppression], base_tests: set[str]
             ) -> list[ClassifiedSuppression]:
    """A skip moved from every test of a class to the class (or from the class to every
    one of its tests) is the same skip: neither an addition nor a removal."""
    def tests_of(cls: str) -> set[str]:
        return {t for t in base_tests if t.startswith(cls + "::") and "::" not in
                t[len(cls) + 2:]}

    drop: set[int] = set()
    for i, c in enumerate(found):
        if c.provenance not in (Provenance.AGENT_ADDED, Provenance.AGENT_REMOVED):
            continue
        members = tests_of(c.suppression.node_id)
        if not members:
            continue  # not a class with tests at base
        other = Provenance.AGENT_REMOVED if c.provenance is Provenance.AGENT_ADDED \
            else Provenance.AGENT_ADDED
        sup = c.suppression
        same = [j for j, d in enumerate(found)
                if d.provenance is other and d.suppression.node_id in members and
                d.suppression.kind is sup.kind and d.suppression.code == sup.code]
        if {found[j].suppression.node_id for j in same} == members:
            drop |= {i, *same}
    return [c for i, c in enumerate(found) if i not in drop]


SuppressionKey = tuple[str, str, str, tuple[str, ...]]


def _new_class(s: Suppression, base_tests: set[str]) -> bool:
    """A suppression in a class none of whose tests exist at base (``setUp`` of a new test
    class), on the instance (``self.x = ...``): it reaches only tests the patch added."""
    target = s.node_id
    if "::" not in target or any(t == target or t.startswith(target + "::")
                                 for t in base_tests):
        return False
    return s.code.startswith(("self.", "cls.")) or s.kind is not SuppressionKind.ASSERT_OVERRIDE


def _pair_suppressions(removed: list[tuple[SuppressionKey, Suppression]],
                       added: list[tuple[SuppressionKey, Suppression]]
                       ) -> list[tuple[Suppression | None, Suppression | None]]:
    """Each removed suppression with the most similar added one of the same target and
    kind, if any; then the added ones left over."""
    left = list(added)
    out: list[tuple[Suppression | None, Suppression | None]] = []
    for key, before in removed:
        same = [(i, s) for i, (k, s) in enumerate(left) if k[:2] == key[:2]]
        if not same:
            out.append((before, None))
            continue
        i, after = max(same, key=lambda t: difflib.SequenceMatcher(
            None, before.code, t[1].code, autojunk=False).ratio())
        left.pop(i)
        out.append((before, after))
    out += [(None, s) for _, s in left]
    return out


def _tolerance_names(strength: Strength | None) -> tuple[frozenset[str], frozenset[str]]:
    if strength is None:
        return frozenset(), frozenset()
    return strength.tolerance, strength.precision


def classify_helpers(pairs: Sequence[FilePair], strength: Strength | None = None
                     ) -> tuple[list[HelperChange], dict[str, str]]:
    """Helper oracles and fixtures before and after, matched by (file, name) and then by
    body anywhere in the patch, so moving or renaming an unchanged helper is no change, nor
    is rewriting one as the same program (a reformat, a comment, an f-string).
    Returns the changes and the renames (old short name → new short name)."""
    pre: dict[tuple[str, str], HelperDef] = {}
    post: dict[tuple[str, str], HelperDef] = {}
    for p in pairs:
        path = p.new_path or p.old_path or ""
        for h in p.pre.helpers if p.pre else ():
            pre[(path, h.qualname)] = h
        for h in p.post.helpers if p.post else ():
            post[(p.new_path or "", h.qualname)] = h
    out: list[HelperChange] = []
    renames: dict[str, str] = {}
    unmatched_post = {k: h for k, h in post.items() if k not in pre}
    for key, h in pre.items():
        after = post.get(key)
        if after is not None:
            if after.body != h.body and not same_meaning(h.body, after.body) and \
                    not bounds_tightened(h.body, after.body, *_tolerance_names(strength)) and \
                    not checks_only_added(h.body, after.body):
                out.append(HelperChange(HelperStatus.MODIFIED, h, after, key[0],
                                        literal_only(h.body, after.body)))
            elif entries_lost(h.data, after.data):
                out.append(HelperChange(HelperStatus.MODIFIED, h, after, key[0]))
            continue
        moved = next((k for k, m in unmatched_post.items() if m.body_key == h.body_key), None)
        if moved is not None:
            new = unmatched_post.pop(moved)
            old_short, new_short = h.qualname.rsplit(".", 1)[-1], new.qualname.rsplit(".", 1)[-1]
            if old_short != new_short:
                renames[old_short] = new_short
            continue
        out.append(HelperChange(HelperStatus.REMOVED, h, None, key[0]))
    for key, h in unmatched_post.items():
        out.append(HelperChange(HelperStatus.ADDED, None, h, key[0]))
    return out, renames


def _entries(code: str) -> Counter[str] | None:
    """A literal table's entries by structure (a dict's key and value pairs, a sequence's
    or set's elements); None when it does not read as one."""
    try:
        node = ast.parse(code.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if isinstance(node, ast.Dict):
        return Counter(ast.dump(k) + "=" + ast.dump(v) if k is not None else ast.dump(v)
                       for k, v in zip(node.keys, node.values, strict=True))
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return Counter(ast.dump(e) for e in node.elts)
    return None


def entries_lost(before: Sequence[tuple[str, str]], after: Sequence[tuple[str, str]]) -> bool:
    """Whether a table a helper reads lost or changed an entry (fewer or other cases are
    checked); entries only added are more cases, no weaker helper."""
    now = dict(after)
    for name, code in before:
        if code == now.get(name):
            continue
        old, new = _entries(code), _entries(now.get(name, ""))
        if old is None or new is None or old - new:
            return True
    return False


def _match_renamed_helper_calls(left_pre: list[EvidenceItem], left_post: list[EvidenceItem],
                                renames: dict[str, str], pre_id: Callable[[EvidenceItem], str],
                                ) -> tuple[list[tuple[EvidenceItem, EvidenceItem]],
                                           list[EvidenceItem], list[EvidenceItem]]:
    """A call to a helper that was only renamed is the same check."""
    if not renames:
        return [], left_pre, left_post
    return _multiset_match(
        left_pre, left_post,
        lambda it: (pre_id(it), it.scope, renames.get(it.shape.op, it.shape.op),
                    it.shape.operands) if it.kind is EvidenceKind.HELPER_CALL else id(it),
        lambda it: (it.node_id, it.scope, it.shape.op, it.shape.operands)
        if it.kind is EvidenceKind.HELPER_CALL else ("post", id(it)))


def _new_skipping_fixtures(tests: Iterable[TestChange],
                           skipping: frozenset[str]) -> list[ClassifiedSuppression]:
    """An existing test that starts requesting a fixture that skips is skipped."""
    out: list[ClassifiedSuppression] = []
    for t in tests:
        if t.pre is None or t.post is None:
            continue
        for name in sorted(set(t.post.fixtures) - set(t.pre.fixtures)):
            if name in skipping:
                sup = Suppression(SuppressionKind.RUNTIME_SKIP, file_of(t.post.node_id),
                                  t.post.node_id, f"requests fixture {name}", t.post.line,
                                  f"fixture {name} calls pytest.skip/xfail")
                out.append(ClassifiedSuppression(Provenance.AGENT_ADDED, sup, "post"))
    return out


def classify(pairs: Sequence[FilePair], strength: Strength,
             skipping_fixtures: frozenset[str] = frozenset(), *,
             xfail_strict: bool = False) -> ProvenanceResult:
    """Provenance of everything in the analysed files. ``strength`` ranks checks;
    ``skipping_fixtures``: names of fixtures (from these files and the conftests above
    them) whose body skips; ``xfail_strict``: base's ini default for xfail marks."""
    tests, idmap = match_tests(pairs)
    added = frozenset(t.node_id for t in tests if t.status is TestStatus.ADDED)
    helpers, renames = classify_helpers(pairs, strength)
    items = classify_items(pairs, idmap, strength, renames, argname_renames(tests))
    items.sort(key=lambda c: (c.item.path, c.item.line or 0, c.item.code))
    # Tests that received preexisting evidence from another test.
    moved_into = frozenset(c.post.node_id for c in items
                           if c.provenance is Provenance.PREEXISTING and c.pre is not None
                           and c.post is not None and c.post.node_id != c.pre.node_id
                           and idmap.get(c.pre.node_id) != c.post.node_id)
    sups = classify_suppressions(pairs, idmap, added, strength, moved_into, xfail_strict)
    skipping = skipping_fixtures | {h.qualname.rsplit(".", 1)[-1] for p in pairs
                                    for ev in (p.pre, p.post) if ev for h in ev.helpers
                                    if h.is_fixture and h.skips}
    sups += _new_skipping_fixtures(tests, frozenset(skipping))
    sups.sort(key=lambda c: (c.suppression.path, c.suppression.line or 0))
    return ProvenanceResult(tuple(items), tuple(sups), tests, tuple(helpers))
