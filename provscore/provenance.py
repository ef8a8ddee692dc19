"""Stage 4: provenance of every evidence item, suppression, test and helper oracle.

Pre-image items are matched to post-image items by anchor, never by line:
(file following renames, test node id following test moves, scope, kind,
normalised code). Moving a test, renaming its file or reformatting an
assertion over several lines therefore matches as ``preexisting``. What is
left is paired inside the same test to find modifications, which are judged
``weakened``, ``expected_changed``, ``strengthened`` or ``changed``; the rest
is ``agent_removed`` / ``agent_added``.
"""

from __future__ import annotations

import ast
import difflib
import enum
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from provscore.evidence import (
    EvidenceItem,
    EvidenceKind,
    FileEvidence,
    HelperDef,
    Shape,
    Suppression,
    SuppressionKind,
    TestDef,
    is_literal_code,
)
from provscore.model import Modification, Provenance
from provscore.rules import patterns


@dataclass(frozen=True, slots=True)
class FilePair:
    """Evidence of one analysed file before and after (None = absent on that side)."""

    old_path: str | None
    new_path: str | None
    pre: FileEvidence | None
    post: FileEvidence | None


@dataclass(frozen=True, slots=True)
class ClassifiedItem:
    provenance: Provenance
    pre: EvidenceItem | None
    post: EvidenceItem | None
    modification: Modification | None = None
    reason: str = ""

    @property
    def item(self) -> EvidenceItem:
        item = self.post if self.post is not None else self.pre
        assert item is not None
        return item

    @property
    def side(self) -> str:
        return "post" if self.post is not None else "pre"


@dataclass(frozen=True, slots=True)
class ClassifiedSuppression:
    provenance: Provenance
    suppression: Suppression
    side: str  # "post" for added, "pre" for removed
    target_added: bool = False  # it suppresses a test the patch itself added


class TestStatus(enum.StrEnum):
    KEPT = "kept"
    MOVED = "moved"
    REMOVED = "removed"
    ADDED = "added"


@dataclass(frozen=True, slots=True)
class TestChange:
    status: TestStatus
    pre: TestDef | None
    post: TestDef | None

    @property
    def node_id(self) -> str:
        test = self.post if self.post is not None else self.pre
        assert test is not None
        return test.node_id


class HelperStatus(enum.StrEnum):
    MODIFIED = "modified"
    REMOVED = "removed"
    ADDED = "added"


@dataclass(frozen=True, slots=True)
class HelperChange:
    status: HelperStatus
    pre: HelperDef | None
    post: HelperDef | None
    path: str
    literal_only: bool = False  # only literal values changed (a rewritten expected value)


@dataclass(frozen=True, slots=True)
class ProvenanceResult:
    items: tuple[ClassifiedItem, ...]
    suppressions: tuple[ClassifiedSuppression, ...]
    tests: tuple[TestChange, ...]
    helpers: tuple[HelperChange, ...]

    def counts(self) -> dict[str, dict[str, int]]:
        """Evidence counts by kind × provenance (tests' evidence only)."""
        out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for c in self.items:
            label = c.provenance.value if c.modification is None else \
                f"{c.provenance.value}:{c.modification.value}"
            out[c.item.kind.value][label] += 1
        return {k: dict(v) for k, v in sorted(out.items())}


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
    for key in [k for k in pre if k in post]:
        idmap[pre[key].node_id] = key
        moved = pre[key].node_id != key
        changes.append(TestChange(TestStatus.MOVED if moved else TestStatus.KEPT,
                                  pre.pop(key), post.pop(key)))
    # Same body under another name or in another file/class: a move, not a removal.
    by_body: dict[str, list[str]] = defaultdict(list)
    for key, t in post.items():
        by_body[t.body].append(key)
    for key in list(pre):
        candidates = [k for k in by_body.get(pre[key].body, []) if k in post]
        if candidates:
            dest = candidates[0]
            idmap[pre[key].node_id] = dest
            changes.append(TestChange(TestStatus.MOVED, pre.pop(key), post.pop(dest)))
    # Same function name, unique on both sides, body edited: moved and modified.
    pre_names = _unique_names(pre.values())
    post_names = _unique_names(post.values())
    for name, key in pre_names.items():
        dest_key = post_names.get(name)
        if dest_key is not None and key in pre and dest_key in post:
            idmap[pre[key].node_id] = dest_key
            changes.append(TestChange(TestStatus.MOVED, pre.pop(key), post.pop(dest_key)))
    changes += [TestChange(TestStatus.REMOVED, t, None) for t in pre.values()]
    changes += [TestChange(TestStatus.ADDED, None, t) for t in post.values()]
    return tuple(sorted(changes, key=lambda c: c.node_id)), idmap


def _unique_names(tests: Iterable[TestDef]) -> dict[str, str]:
    seen: dict[str, list[str]] = defaultdict(list)
    for t in tests:
        seen[t.name].append(t.node_id)
    return {name: ids[0] for name, ids in seen.items() if len(ids) == 1}


# --------------------------------------------------------------------------- items

_FAMILY = {
    EvidenceKind.ASSERT: "check", EvidenceKind.UNITTEST: "check", EvidenceKind.LIBRARY: "check",
    EvidenceKind.MOCK: "check", EvidenceKind.HELPER_CALL: "check", EvidenceKind.FAIL: "check",
    EvidenceKind.RAISES: "raises", EvidenceKind.PROPERTY: "property",
    EvidenceKind.PARAM_ROW: "row", EvidenceKind.EXPECTED_READ: "read",
}


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


def classify_items(pairs: Sequence[FilePair], idmap: dict[str, str],
                   helper_renames: dict[str, str] | None = None) -> list[ClassifiedItem]:
    pre_items: list[EvidenceItem] = []
    post_items: list[EvidenceItem] = []
    renames: dict[str, tuple[str | None, str | None]] = {}
    for p in pairs:
        if p.pre:
            pre_items += p.pre.items
            renames[p.pre.path] = (p.old_path, p.new_path)
        if p.post:
            post_items += p.post.items

    def pre_id(it: EvidenceItem) -> str:
        if it.node_id in idmap:
            return idmap[it.node_id]
        old, new = renames.get(it.path, (None, None))
        return _rekey(it.node_id, old, new)

    result: list[ClassifiedItem] = []
    exact, pre_left, post_left = _multiset_match(
        pre_items, post_items,
        lambda it: (pre_id(it), it.scope, it.kind, it.code),
        lambda it: (it.node_id, it.scope, it.kind, it.code))
    # Same check moved to another test (still runs, still evidence).
    moved, pre_left, post_left = _multiset_match(
        pre_left, post_left,
        lambda it: (it.in_test, it.scope, it.kind, it.code),
        lambda it: (it.in_test, it.scope, it.kind, it.code))
    renamed, pre_left, post_left = _match_renamed_helper_calls(pre_left, post_left,
                                                               helper_renames or {}, pre_id)
    result += [ClassifiedItem(Provenance.PREEXISTING, a, b) for a, b in exact + moved + renamed]

    # Pair what is left inside the same test: modifications.
    groups_pre: dict[tuple[str, str, str], list[EvidenceItem]] = defaultdict(list)
    groups_post: dict[tuple[str, str, str], list[EvidenceItem]] = defaultdict(list)
    for it in pre_left:
        groups_pre[(pre_id(it), it.scope, _FAMILY[it.kind])].append(it)
    for it in post_left:
        groups_post[(it.node_id, it.scope, _FAMILY[it.kind])].append(it)
    for key in sorted(set(groups_pre) | set(groups_post)):
        olds, news = groups_pre.get(key, []), groups_post.get(key, [])
        for a, b in _pair_by_similarity(olds, news, rows=key[2] == "row"):
            if a is not None and b is not None:
                mod, reason = compare(a, b)
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
    return result


def _pair_by_similarity(olds: list[EvidenceItem], news: list[EvidenceItem], *, rows: bool
                        ) -> list[tuple[EvidenceItem | None, EvidenceItem | None]]:
    """Greedy pairing, most similar first; dissimilar leftovers stay unpaired."""
    scored: list[tuple[float, int, int]] = []
    for i, a in enumerate(olds):
        for j, b in enumerate(news):
            ratio = difflib.SequenceMatcher(None, a.code, b.code, autojunk=False).ratio()
            same_kind = a.kind is b.kind
            oa, ob = a.shape.operands, b.shape.operands
            same_subject = bool(a.shape.subject) and a.shape.subject == b.shape.subject
            same_expected = len(oa) > 1 and oa[1:] == ob[1:]
            if rows:
                # A removed row and an added row are one changed row only when they look alike.
                pairable = ratio >= 0.5
            else:
                # Two checks are one modified check when they test the same thing.
                pairable = same_subject or (same_kind and (same_expected or ratio >= 0.9))
            if pairable:
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


# --------------------------------------------------------------------------- weakening

def _groups(name: str) -> list[list[str]]:
    value = patterns("strength").get(name, [])
    return [list(g) for g in value]


_ASSERT_RANK = {"==": 0, "is": 0, "cmp": 1, "in": 1, "not in": 1, "<": 1, ">": 1, "<=": 1,
                ">=": 1, "!=": 2, "is not": 2, "not None": 3, "not": 3, "truthy": 3}


def _rank(shape: Shape, kind: EvidenceKind) -> int | None:
    if kind is EvidenceKind.ASSERT:
        if shape.op.startswith("truthy:"):
            return 3
        return _ASSERT_RANK.get(shape.op)
    for table in ("unittest_groups", "mock_groups", "numpy_groups"):
        for rank, group in enumerate(_groups(table)):
            if shape.op in group:
                return rank
    return None


def _number(code: str) -> float | None:
    try:
        value = ast.literal_eval(code)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


_PRECISION_DEFAULTS: dict[str, float] = {"places": 7, "decimal": 7, "significant": 7,
                                         "max_examples": 100}
_BROAD_EXCEPTIONS = {"Exception", "BaseException", "builtins.Exception", "builtins.BaseException"}


def _keyword_verdict(a: Shape, b: Shape) -> tuple[Modification | None, str]:
    strength = patterns("strength")
    tolerance = set(strength.get("tolerance_keywords", []))
    precision = set(strength.get("precision_keywords", []))
    narrowing = set(strength.get("narrowing_keywords", []))
    ka, kb = dict(a.keywords), dict(b.keywords)
    stronger = False
    for key in sorted(set(ka) | set(kb)):
        base = key.rsplit(".", 1)[-1]
        va, vb = ka.get(key), kb.get(key)
        if va == vb:
            continue
        if base in tolerance:
            na, nb = _number(va) if va else 0.0, _number(vb) if vb else 0.0
            if va is None and key.startswith("approx."):
                na = 1e-6 if base == "rel" else 1e-12  # pytest.approx's defaults
            if na is None or nb is None:
                return Modification.CHANGED, f"tolerance {key} changed"
            if nb > na:
                return Modification.WEAKENED, f"tolerance {key} widened ({va} → {vb})"
            stronger = True
        elif base in precision:
            # An absent keyword means the library default (places=7, max_examples=100).
            default = _PRECISION_DEFAULTS.get(base)
            na = _number(va) if va else default
            nb = _number(vb) if vb else default
            if na is None or nb is None:
                return Modification.CHANGED, f"{key} changed ({va} → {vb})"
            if nb < na:
                return Modification.WEAKENED, \
                    f"{key} lowered ({va or f'default {na:g}'} → {vb or f'default {nb:g}'})"
            if nb > na:
                stronger = True
        elif base == "match":
            verdict = _match_verdict(va, vb)
            if verdict[0] is Modification.STRENGTHENED:
                stronger = True
            else:
                return verdict
        elif base in narrowing:
            if vb is None or vb == "False":
                return Modification.WEAKENED, f"{key}={va} dropped"
            if va is None:
                stronger = True
            else:
                return Modification.EXPECTED_CHANGED, f"{key} changed ({va} → {vb})"
        elif key == "approx" and vb is not None and va is None:
            return Modification.WEAKENED, "exact comparison became approximate"
        else:
            return Modification.CHANGED, f"keyword {key} changed"
    return (Modification.STRENGTHENED, "check narrowed") if stronger else (None, "")


_MATCH_ANYTHING = {"", ".*", ".+", "(?s).*", "^.*$", ".*?", "[\\s\\S]*"}


def _literal_text(code: str | None) -> str | None:
    if code is None:
        return None
    try:
        value = ast.literal_eval(code)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return value if isinstance(value, str) else None


def _match_verdict(va: str | None, vb: str | None) -> tuple[Modification, str]:
    """How a `match=` regex changed: dropped or match-anything is weaker; a pattern that
    contains the old one is stronger; anything else rewrote the expected message."""
    if vb is None:
        return Modification.WEAKENED, f"match={va} dropped"
    new = _literal_text(vb)
    if new is not None and new in _MATCH_ANYTHING:
        return Modification.WEAKENED, f"match={vb} accepts any message"
    if va is None:
        return Modification.STRENGTHENED, "match= added"
    old = _literal_text(va)
    if old is not None and new is not None:
        if old in new:
            return Modification.STRENGTHENED, "match narrowed"
        if new in old:
            return Modification.WEAKENED, f"match shortened ({va} → {vb})"
    return Modification.EXPECTED_CHANGED, f"match changed ({va} → {vb})"


def compare(pre: EvidenceItem, post: EvidenceItem) -> tuple[Modification | None, str]:
    """Judge how an evidence item changed; undecidable changes are ``changed``.

    None means an equivalent rewrite: same strength, same operands, same keywords
    (``self.assertEqual(a, 1)`` → ``assert a == 1``).
    """
    a, b = pre.shape, post.shape
    if b.tautology and not a.tautology:
        return Modification.WEAKENED, "became a tautology"
    if a.guards != b.guards:
        added = [g for g in b.guards if g not in a.guards]
        if added:
            return Modification.WEAKENED, f"now runs only when {' and '.join(added)}"
        if set(b.guards) < set(a.guards):
            return Modification.STRENGTHENED, "runs under fewer conditions"
        return Modification.CHANGED, "runs under different conditions"
    if pre.kind is EvidenceKind.PARAM_ROW:
        return Modification.EXPECTED_CHANGED, "parametrize row changed"
    if pre.kind is EvidenceKind.RAISES and post.kind is EvidenceKind.RAISES:
        broad_a = set(a.operands) & _BROAD_EXCEPTIONS
        broad_b = set(b.operands) & _BROAD_EXCEPTIONS
        if broad_b and not broad_a:
            return Modification.WEAKENED, f"expected exception broadened to {sorted(broad_b)[0]}"
        if a.operands != b.operands and set(a.operands) < set(b.operands):
            return Modification.WEAKENED, "more exception types accepted"
    if pre.kind is not post.kind and _FAMILY[pre.kind] == _FAMILY[post.kind]:
        ra, rb = _rank(a, pre.kind), _rank(b, post.kind)
        if ra is not None and rb is not None and rb > ra:
            return Modification.WEAKENED, f"{a.op} became {b.op}"
        if post.kind is EvidenceKind.HELPER_CALL or pre.kind is EvidenceKind.HELPER_CALL:
            return Modification.CHANGED, f"{a.op} became {b.op}"
    ra, rb = _rank(a, pre.kind), _rank(b, post.kind)
    if ra is not None and rb is not None and a.op != b.op:
        if rb > ra:
            return Modification.WEAKENED, f"{a.op} became {b.op}"
        if rb < ra:
            return Modification.STRENGTHENED, f"{a.op} became {b.op}"
    elif a.op != b.op and (ra is None) != (rb is None):
        return Modification.CHANGED, f"{a.op} became {b.op}"
    verdict, reason = _keyword_verdict(a, b)
    if verdict is Modification.WEAKENED or verdict is Modification.CHANGED:
        return verdict, reason
    if a.op == b.op and a.operands != b.operands:
        if len(a.operands) == len(b.operands):
            diff = [(x, y) for x, y in zip(a.operands, b.operands, strict=True) if x != y]
            if len(diff) == 1 and (is_literal_code(diff[0][0]) or is_literal_code(diff[0][1])):
                return Modification.EXPECTED_CHANGED, \
                    f"expected value {diff[0][0]} became {diff[0][1]}"
        return Modification.CHANGED, "checked expression changed"
    if verdict is not None:
        return verdict, reason
    if ra is not None and ra == rb and _same_operands(a, b):
        return None, f"{a.op} rewritten as {b.op}"
    if a.op != b.op:
        return Modification.CHANGED, f"{a.op} became {b.op}"
    return Modification.CHANGED, "changed"


def _same_operands(a: Shape, b: Shape) -> bool:
    # assertEqual(x, 1) and `assert x == 1` compare the same two operands.
    return sorted(a.operands) == sorted(b.operands)


# --------------------------------------------------------------------------- suppressions, helpers

def classify_suppressions(pairs: Sequence[FilePair], idmap: dict[str, str],
                          added_tests: frozenset[str],
                          moved_into: frozenset[str] = frozenset()
                          ) -> list[ClassifiedSuppression]:
    """Suppressions before and after. One on a test the patch added is harmless (that
    test does not vote) unless preexisting evidence was moved into that test."""
    pre: list[tuple[tuple[str, str, str], Suppression]] = []
    post: dict[tuple[str, str, str], list[Suppression]] = defaultdict(list)
    for p in pairs:
        for s in p.pre.suppressions if p.pre else ():
            target = idmap.get(s.node_id) or _rekey(s.node_id, p.old_path, p.new_path)
            pre.append(((target, s.kind.value, s.code), s))
        for s in p.post.suppressions if p.post else ():
            post[(s.node_id, s.kind.value, s.code)].append(s)
    out: list[ClassifiedSuppression] = []
    for key, s in pre:
        bucket = post.get(key)
        if bucket:
            bucket.pop(0)
        else:
            out.append(ClassifiedSuppression(Provenance.AGENT_REMOVED, s, "pre"))
    for sups in post.values():
        for s in sups:
            out.append(ClassifiedSuppression(
                Provenance.AGENT_ADDED, s, "post",
                target_added=s.node_id in added_tests and s.node_id not in moved_into))
    return out


def classify_helpers(pairs: Sequence[FilePair]) -> tuple[list[HelperChange], dict[str, str]]:
    """Helper oracles and fixtures before and after, matched by (file, name) and then by
    body anywhere in the patch, so moving or renaming an unchanged helper is no change.
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
            if after.body != h.body:
                out.append(HelperChange(HelperStatus.MODIFIED, h, after, key[0],
                                        _literal_only(h.body, after.body)))
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


class _Literals(ast.NodeTransformer):
    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.copy_location(ast.Constant(value="<literal>"), node)


def _literal_only(before: str, after: str) -> bool:
    """Whether two pieces of code differ only in their literal values."""
    try:
        a, b = ast.parse(before), ast.parse(after)
    except SyntaxError:
        return False
    return ast.dump(_Literals().visit(a)) == ast.dump(_Literals().visit(b))


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
                sup = Suppression(SuppressionKind.RUNTIME_SKIP, t.post.node_id.split("::")[0],
                                  t.post.node_id, f"requests fixture {name}", t.post.line,
                                  f"fixture {name} calls pytest.skip/xfail")
                out.append(ClassifiedSuppression(Provenance.AGENT_ADDED, sup, "post"))
    return out


def classify(pairs: Sequence[FilePair],
             skipping_fixtures: frozenset[str] = frozenset()) -> ProvenanceResult:
    """Provenance of everything in the analysed files. ``skipping_fixtures``: names of
    fixtures (from these files and the conftests above them) whose body skips."""
    tests, idmap = match_tests(pairs)
    added = frozenset(t.node_id for t in tests if t.status is TestStatus.ADDED)
    helpers, renames = classify_helpers(pairs)
    items = classify_items(pairs, idmap, renames)
    items.sort(key=lambda c: (c.item.path, c.item.line or 0, c.item.code))
    # Tests that received preexisting evidence from another test.
    moved_into = frozenset(c.post.node_id for c in items
                           if c.provenance is Provenance.PREEXISTING and c.pre is not None
                           and c.post is not None and c.post.node_id != c.pre.node_id
                           and idmap.get(c.pre.node_id) != c.post.node_id)
    sups = classify_suppressions(pairs, idmap, added, moved_into)
    skipping = skipping_fixtures | {h.qualname.rsplit(".", 1)[-1] for p in pairs
                                    for ev in (p.pre, p.post) if ev for h in ev.helpers
                                    if h.is_fixture and h.skips}
    sups += _new_skipping_fixtures(tests, frozenset(skipping))
    sups.sort(key=lambda c: (c.suppression.path, c.suppression.line or 0))
    return ProvenanceResult(tuple(items), tuple(sups), tests, tuple(helpers))
