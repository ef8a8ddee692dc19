"""Stage 5: findings from the rule registry, out of the static stages' outputs.

Every finding is built complete by :meth:`Rule.finding`; this module only
decides which rule fires where. Anchors are stable across line shifts so that
SARIF fingerprints and sticky comments do not churn.
"""

from __future__ import annotations

import fnmatch
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from provscore.diff import ChangeSet
from provscore.evidence import EvidenceKind, SuppressionKind
from provscore.images import ApplyFailure
from provscore.ledgers import Approval, approves
from provscore.model import Action, Finding, Location, Modification, PathRole, Provenance
from provscore.provenance import (
    ClassifiedItem,
    HelperStatus,
    ProvenanceResult,
    TestStatus,
)
from provscore.pytestconfig import ConfigChange
from provscore.rules import Registry
from provscore.writeset import WriteSet

APPROVAL_MARKER = re.compile(r"HUMAN[_\- ]?ORACLE[_\- ]?REMOVAL|HUMAN[_\- ]?APPROVED[_\- ]?REMOVAL",
                             re.IGNORECASE)

SUPPRESSION_RULES: dict[SuppressionKind, str] = {
    SuppressionKind.SKIP_MARK: "PS201",
    SuppressionKind.XFAIL_MARK: "PS202",
    SuppressionKind.RUNTIME_SKIP: "PS203",
    SuppressionKind.COLLECTION_HOOK: "PS204",
    SuppressionKind.COLLECTION_VARIABLE: "PS204",
    SuppressionKind.TEST_DISABLED: "PS204",
    SuppressionKind.CONFIG_DESELECT: "PS205",
    SuppressionKind.EARLY_RETURN: "PS206",
    SuppressionKind.DEAD_BRANCH: "PS206",
    SuppressionKind.ASSERT_OVERRIDE: "PS206",
    SuppressionKind.SWALLOWED: "PS107",
    SuppressionKind.REPORT_HOOK: "PS207",
    SuppressionKind.WRAPPED: "PS206",
    # exec/__import__/getattr(pytest, name): unreadable code that can skip at run time.
    SuppressionKind.DYNAMIC: "PS203",
}


@dataclass(frozen=True, slots=True)
class EvidenceTally:
    """What the score needs from the static stages."""

    removed: int  # preexisting evidence removed, weakened or rewritten
    added: int  # agent-written evidence (does not vote)


def counts_as_test_evidence(c: ClassifiedItem) -> bool:
    """Items inside tests (and module level); helper bodies are judged as a whole (PS105)."""
    item = c.item
    return item.in_test or item.node_id == item.path


def _loc(path: str, line: int | None, side: str = "post") -> Location:
    return Location(path, line, side)


def evidence_findings(reg: Registry, prov: ProvenanceResult,
                      approvals: Sequence[Approval] = ()) -> tuple[list[Finding], EvidenceTally]:
    """PS101-PS106 from provenance. A removal a human approved in the oracle dir is
    neither a finding nor a penalty (the approved test still does not vote)."""
    out: list[Finding] = []
    removed = added = 0
    for c in prov.items:
        if not counts_as_test_evidence(c):
            continue
        item = c.item
        loc = _loc(item.path, item.line, c.side)
        anchor = f"{item.node_id}|{item.kind.value}|{item.code}"
        if c.provenance is Provenance.AGENT_REMOVED:
            if item.kind is EvidenceKind.EXPECTED_READ:
                continue
            if _approved(item.node_id, approvals, anchor):
                continue
            removed += 1
            out.append(reg["PS101"].finding(location=loc, node_id=item.node_id, anchor=anchor,
                                            kind=item.kind.value, code=item.shown,
                                            test=item.node_id))
        elif c.provenance is Provenance.AGENT_MODIFIED:
            mod = c.modification
            pre = c.pre
            assert pre is not None
            if mod is Modification.STRENGTHENED:
                added += 1
                out.append(reg["PS103"].finding(
                    location=loc, node_id=item.node_id, anchor=anchor, kind=item.kind.value,
                    code=f"{item.shown} (strengthened from {pre.shown}: {c.reason})",
                    test=item.node_id))
                continue
            if _approved(item.node_id, approvals, anchor):
                continue
            removed += 1
            code = "PS108" if mod is Modification.EXPECTED_CHANGED else "PS102"
            out.append(reg[code].finding(location=loc, node_id=item.node_id, anchor=anchor,
                                         kind=item.kind.value, code=item.shown, before=pre.code,
                                         reason=c.reason, test=item.node_id,
                                         modification=(mod or Modification.CHANGED).value))
        elif c.provenance is Provenance.AGENT_ADDED:
            if item.kind is EvidenceKind.EXPECTED_READ:
                continue
            added += 1
            out.append(reg["PS103"].finding(location=loc, node_id=item.node_id, anchor=anchor,
                                            kind=item.kind.value, code=item.shown,
                                            test=item.node_id))
        if c.provenance in (Provenance.AGENT_ADDED, Provenance.AGENT_MODIFIED) and \
                c.post is not None and c.post.shape.tautology:
            out.append(reg["PS104"].finding(location=loc, node_id=item.node_id,
                                            anchor="taut|" + anchor, code=c.post.shown))
    for t in prov.tests:
        if t.status is TestStatus.REMOVED and t.pre is not None:
            if _approved(t.pre.node_id, approvals, f"test|{t.pre.node_id}"):
                continue
            has_items = any(c.pre is not None and c.pre.node_id == t.pre.node_id
                            and c.provenance is Provenance.AGENT_REMOVED for c in prov.items)
            if not has_items:
                removed += 1
            out.append(reg["PS106"].finding(location=_loc(t.pre.node_id.split("::")[0],
                                                          t.pre.line, "pre"),
                                            node_id=t.pre.node_id, anchor=f"test|{t.pre.node_id}",
                                            test=t.pre.node_id))
    for h in prov.helpers:
        if h.status is HelperStatus.ADDED:
            continue
        helper = h.pre
        assert helper is not None
        line = h.post.line if h.post is not None else helper.line
        loc = _loc(h.path, line, "post" if h.post else "pre")
        what = "fixture" if helper.is_fixture else "helper oracle"
        if h.status is HelperStatus.MODIFIED and h.literal_only:
            # Only literal values changed: the fixture/helper's expected value was rewritten.
            out.append(reg["PS108"].finding(
                f"expected value rewritten in {what} {helper.qualname} (only literals changed)",
                location=loc, node_id=helper.node_id, anchor=f"PS108|{helper.node_id}"))
            continue
        if helper.is_fixture and h.status is HelperStatus.REMOVED:
            continue  # a fixture nothing uses any more fails loudly if a test still does
        verb = "modified" if h.status is HelperStatus.MODIFIED else "removed or no longer checks"
        out.append(reg["PS105"].finding(location=loc, node_id=helper.node_id,
                                        anchor=f"helper|{helper.node_id}",
                                        helper=f"{helper.qualname} ({what})", verb=verb))
    return out, EvidenceTally(removed, added)


def _approved(node_id: str, approvals: Sequence[Approval], anchor: str) -> bool:
    return bool(approvals) and (approves(approvals, node_id) is not None
                                or approves(approvals, anchor) is not None)


def suppression_findings(reg: Registry, prov: ProvenanceResult,
                         config_changes: Sequence[ConfigChange],
                         frozen: frozenset[str] = frozenset()) -> list[Finding]:
    out: list[Finding] = []
    for c in prov.suppressions:
        if c.provenance is not Provenance.AGENT_ADDED:
            continue
        s = c.suppression
        code = SUPPRESSION_RULES[s.kind]
        action: Action | None = None
        note = ""
        if c.target_added:
            action, note = Action.INFO, " (on a test the patch added; it does not vote)"
        elif s.node_id in frozen and code in ("PS201", "PS202", "PS203"):
            action, note = Action.INFO, " (frozen on base)"
        detail = f"{s.detail}{note}" if s.detail else note.strip(" ()")
        out.append(reg[code].finding(location=_loc(s.path, s.line), node_id=s.node_id,
                                     anchor=f"{code}|{s.node_id}|{s.code}", action=action,
                                     code=s.code, target=s.node_id, kind=s.kind.value,
                                     detail=detail or s.kind.value))
    for ch in config_changes:
        out.append(reg["PS205"].finding(location=_loc(ch.path, None), node_id=None,
                                        anchor=f"PS205|{ch.path}|{ch.detail}",
                                        code=ch.detail, target=ch.path, kind=ch.option,
                                        detail=ch.detail))
    return out


def marker_findings(reg: Registry, changes: ChangeSet) -> list[Finding]:
    """PS109: a removal approval written inside the patch approves nothing."""
    out: list[Finding] = []
    for f in changes.files:
        for h in f.hunks:
            for ln in h.lines:
                if ln.kind == "+" and APPROVAL_MARKER.search(ln.text):
                    out.append(reg["PS109"].finding(
                        location=_loc(f.path, ln.new_no),
                        anchor=f"PS109|{f.path}|{ln.text.strip()}",
                        text=ln.text.strip()[:120]))
    return out


def write_set_findings(reg: Registry, changes: ChangeSet, ws: WriteSet, *, max_files: int,
                       allowed_runner: Sequence[str] = (),
                       expected_paths: Iterable[str] = ()) -> list[Finding]:
    out: list[Finding] = []
    for f in changes.files:
        if f.unsafe_reason:
            out.append(reg["PS304"].finding(location=None, anchor=f"PS304|{f.path}",
                                            path=f.path, reason=f.unsafe_reason))
        if f.new_mode == "120000":
            out.append(reg["PS305"].finding(location=_loc(f.path, None),
                                            anchor=f"PS305|{f.path}", path=f.path))
    width = len(changes.files)
    if width > max_files:
        out.append(reg["PS303"].finding(location=None, anchor="PS303", count=width,
                                        limit=max_files))
    expected = set(expected_paths)
    for e in ws.entries:
        if e.role is PathRole.ORACLE:
            out.append(reg["PS301"].finding(location=_loc(e.path, None), anchor=f"PS301|{e.path}",
                                            path=e.path))
        elif e.runner:
            if any(fnmatch.fnmatch(e.path, g) for g in allowed_runner):
                continue
            out.append(reg["PS302"].finding(location=_loc(e.path, None), anchor=f"PS302|{e.path}",
                                            path=e.path, status=e.status))
        elif e.role is PathRole.FIXTURE or e.path in expected:
            # A new file cannot have been anyone's expected value: reported, not rejected.
            added = e.status in ("added", "copied", "renamed-to")
            out.append(reg["PS108"].finding(
                f"expected-value file {e.path} is in the write set ({e.status})",
                location=_loc(e.path, None), anchor=f"PS108|{e.path}",
                action=Action.INFO if added else None))
    return out


def input_findings(reg: Registry, failures: Sequence[ApplyFailure],
                   unparseable: Sequence[tuple[str, str, int | None, str]]) -> list[Finding]:
    out: list[Finding] = []
    for fail in failures:
        out.append(reg["PS902"].finding(location=_loc(fail.path, fail.line, "pre"),
                                        anchor=f"PS902|{fail.path}", path=fail.path,
                                        reason=fail.reason))
    for path, reason, line, side in unparseable:
        out.append(reg["PS903"].finding(location=_loc(path, line, side),
                                        anchor=f"PS903|{side}|{path}", path=path, reason=reason,
                                        side="base" if side == "pre" else "patched"))
    return out
