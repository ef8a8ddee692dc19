"""Gate 10: independent evidence exists and holds (PS501-PS506).

Only preexisting tests and oracle properties vote (:mod:`provscore.results.votes`);
a failure of either rejects, flaky ones are unscored, and no vote at all is an unscored
reject: the patched tree's own green run is never evidence.
"""

from __future__ import annotations

from collections.abc import Iterator

from provscore.checks.base import independent_check, oracle_check
from provscore.checks.facts import IndependentFacts, OracleFacts
from provscore.model import Finding, Location
from provscore.nodeid import covers, file_of, without_params
from provscore.provenance import TestStatus
from provscore.registry.model import Rule
from provscore.results.votes import VoteStatus


def _failed(rule: Rule, facts: IndependentFacts, status: VoteStatus) -> Iterator[Finding]:
    # A test that got no result because its run was killed at the wall clock, and a
    # property that timed out, are reported once by PS510 / PS505 (they still count).
    run = facts.run
    skip = set(run.killed_ids) | {k.what for k in run.property_timeouts} if run else set()
    for v in facts.votes.votes:
        if v.status is status and v.node_id not in skip:
            yield rule.finding(location=Location(file_of(v.node_id)), node_id=v.node_id,
                               anchor=f"{rule.code}|{v.node_id}", test=v.node_id,
                               detail=v.failure)


@independent_check("PS501")
def independent_test_failed(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    return _failed(rule, facts, VoteStatus.FAILED)


@independent_check("PS504")
def property_failed(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    return _failed(rule, facts, VoteStatus.PROPERTY_FAILED)


@independent_check("PS503")
def unscored_flaky(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    for v in facts.votes.votes:
        if v.status is VoteStatus.UNSCORED_FLAKY:
            yield rule.finding(location=Location(file_of(v.node_id)), node_id=v.node_id,
                               anchor=f"PS503|{v.node_id}", test=v.node_id, reason=v.reason)


@independent_check("PS502")
def no_independent_evidence(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    votes = facts.votes
    if facts.static_only or votes.passed + votes.failed:
        return
    run = facts.run
    if run is not None and run.refused:
        detail = f"the off-tree run did not run: {run.refused}"
    elif run is not None and run.base_error:
        detail = f"the base tests could not be collected at base: {run.base_error}"
    elif run is not None and not run.base_tests and not run.properties:
        detail = "the off-tree run found no base test (pytest collected none at base) and " \
            "no oracle property"
    elif not facts.result_files:
        detail = "no off-tree results were given (--results)"
    else:
        detail = (f"none of the {len(votes.votes)} results is of a preexisting test that "
                  "ran and stayed unfrozen and stable")
    yield rule.finding(anchor="PS502", detail=detail)


@oracle_check("PS506")
def frozen_id_missing(rule: Rule, facts: OracleFacts) -> Iterator[Finding]:
    """A frozen id whose test the patch removed, whose file is gone at base, or (after an
    off-tree run) that no test collected at base matches: its --deselect selects nothing."""
    if facts.oracle.freeze_path is None:
        return
    prov = facts.static.provenance
    removed = {t.pre.node_id for t in prov.tests
               if t.status is TestStatus.REMOVED and t.pre is not None}
    base = facts.base_ids
    for fid in sorted(facts.static.frozen):
        if without_params(fid) in removed or not facts.exists_at_base(file_of(fid)) or (
                base is not None and not any(covers(fid, b) for b in base)):
            yield rule.finding(location=Location(file_of(fid)), node_id=fid,
                               anchor=f"PS506|{fid}", test=fid)
