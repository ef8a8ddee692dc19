"""Gate 1: the diff parses, applies to base, and every analysed file can be classified."""

from __future__ import annotations

from collections.abc import Iterator

from provscore.checks.base import loc, static_check
from provscore.checks.facts import StaticFacts
from provscore.model import Action, Finding
from provscore.registry.model import Rule


@static_check("PS901")
def diff_unparseable(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    if facts.change.diff_error is not None:
        yield rule.finding(anchor="PS901", reason=facts.change.diff_error)


@static_check("PS902")
def patch_does_not_apply(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    for fail in facts.change.failures:
        yield rule.finding(location=loc(fail.path, fail.line, "pre"),
                           anchor=f"PS902|{fail.path}", path=fail.path, reason=fail.reason)


@static_check("PS903")
def source_unparseable(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    seen: set[str] = set()
    for u in facts.analysed.unparseable:
        seen.add(u.path)
        yield rule.finding(location=loc(u.path, u.line, u.side),
                           anchor=f"PS903|{u.side}|{u.path}", path=u.path, reason=u.reason,
                           side="base" if u.side == "pre" else "patched")
    # Changed files the evidence stage does not read (production code) must parse too:
    # a planted syntax error makes collection fail and absent tests count as passing.
    for g in facts.grader.unparsed:
        if g.path in seen:
            continue
        reason = g.reason + ("; valid for a newer Python (libcst reads it): the grader rules "
                             "could not read it, a reviewer must" if g.newer_syntax else "")
        yield rule.finding(location=loc(g.path, g.line), anchor=f"PS903|post|{g.path}",
                           path=g.path, reason=reason, side="patched",
                           action=Action.PENALTY if g.newer_syntax else None)


@static_check("PS904")
def patch_is_empty(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    """Nothing to score: the contract's ``empty_patch`` says whether that rejects."""
    reason = facts.change.nothing_to_score
    if reason is not None and facts.change.diff_error is None:
        reject = facts.contract.empty_patch == "reject"
        yield rule.finding(anchor="PS904", reason=reason,
                           action=None if reject else Action.INFO)
