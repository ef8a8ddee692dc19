"""Gate 10, what only an off-tree run can tell (PS505, PS507-PS511).

Each detector reads the :class:`~provscore.runner.model.RunRecord` of ``provscore
verify``; without a run (``provscore score``) none of them fires.
"""

from __future__ import annotations

from collections.abc import Iterator

from provscore.checks.base import independent_check
from provscore.checks.facts import IndependentFacts
from provscore.model import Action, Finding, Location
from provscore.nodeid import file_of
from provscore.registry.model import Rule

_MAX_LISTED = 10


def _running(name: str | None) -> str:
    return f" while {name} was running" if name else ""


@independent_check("PS505")
def property_timeout(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    if facts.run is None:
        return
    for k in facts.run.property_timeouts:
        yield rule.finding(location=Location(file_of(k.what)), node_id=k.what,
                           anchor=f"PS505|{k.what}", test=k.what, seconds=k.seconds,
                           running=_running(k.running if k.running != k.what else None))


@independent_check("PS507")
def corpus_digest_mismatch(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    run = facts.run
    if run is None or not run.corpus_digest or not run.expected_corpus_digest:
        return
    if run.corpus_digest != run.expected_corpus_digest:
        yield rule.finding(anchor="PS507", actual=run.corpus_digest,
                           expected=run.expected_corpus_digest)


@independent_check("PS508")
def unsandboxed_run(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    run = facts.run
    if run is None or run.sandbox != "none" or run.cap is not None:
        return
    if run.refused and not run.require_sandbox:
        return  # nothing ran, so nothing ran unsandboxed
    yield rule.finding(anchor="PS508", note=run.sandbox_note or "no sandbox",
                       action=Action.REJECT if run.require_sandbox else None)


@independent_check("PS509")
def run_cap_reached(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    run = facts.run
    if run is not None and run.cap is not None:
        yield rule.finding(anchor="PS509", patch_id=run.patch_id, runs=run.cap[0],
                           cap=run.cap[1])


@independent_check("PS510")
def run_timeout(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    if facts.run is None:
        return
    for k in facts.run.kills:
        yield rule.finding(anchor=f"PS510|{k.what}", node_id=k.running, what=k.what,
                           seconds=k.seconds, running=_running(k.running),
                           count=k.without_result)


@independent_check("PS511")
def protected_path_modified(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    run = facts.run
    if run is None or not run.tampered:
        return
    listed = ", ".join(run.tampered[:_MAX_LISTED])
    more = len(run.tampered) - _MAX_LISTED
    yield rule.finding(anchor="PS511", count=len(run.tampered),
                       paths=listed + (f" and {more} more" if more > 0 else ""))
