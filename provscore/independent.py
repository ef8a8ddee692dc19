"""Stage 6b: which off-tree results vote, and how (gate 10).

Only results of tests that exist on base and that the patch neither added nor
rewrote vote. Frozen ids (freeze ledger) and flaky ids (flake ledger, or
disagreement between the given runs) are unscored: they leave numerator and
denominator. Every other result is listed with the reason it does not count.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass

from provscore.ledgers import FlakeState, id_covers
from provscore.model import Finding, Location
from provscore.outcomes import Outcome, Verdict
from provscore.provenance import ProvenanceResult, TestStatus
from provscore.rules import Registry


class VoteStatus(enum.StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    PROPERTY_PASSED = "property_passed"  # an oracle property (test file in the oracle dir)
    PROPERTY_FAILED = "property_failed"
    UNSCORED_FLAKY = "unscored_flaky"
    UNSCORED_FROZEN = "unscored_frozen"
    NOT_RUN = "not_run"  # skipped, xfailed, xpassed: no evidence either way
    AGENT_WRITTEN = "agent_written"  # added or rewritten by the patch: never votes
    UNKNOWN = "unknown"  # its file does not exist at base


@dataclass(frozen=True, slots=True)
class Vote:
    node_id: str
    status: VoteStatus
    verdicts: tuple[str, ...]
    reason: str = ""


@dataclass(frozen=True, slots=True)
class IndependentEvidence:
    votes: tuple[Vote, ...]
    findings: tuple[Finding, ...]

    def count(self, *statuses: VoteStatus) -> int:
        return sum(1 for v in self.votes if v.status in statuses)

    @property
    def passed(self) -> int:
        return self.count(VoteStatus.PASSED, VoteStatus.PROPERTY_PASSED)

    @property
    def failed(self) -> int:
        return self.count(VoteStatus.FAILED, VoteStatus.PROPERTY_FAILED)

    @property
    def unscored(self) -> int:
        return self.count(VoteStatus.UNSCORED_FLAKY, VoteStatus.UNSCORED_FROZEN)


_FAILING = {Verdict.FAILED, Verdict.ERROR}
_NOT_RUN = {Verdict.SKIPPED, Verdict.XFAILED, Verdict.XPASSED}


def agent_written_tests(prov: ProvenanceResult) -> tuple[frozenset[str], frozenset[str]]:
    """(added, rewritten) node ids. Added tests never vote. A rewritten test exists on base,
    but which version produced a result cannot be told: its pass never counts, its
    failure does (fail closed)."""
    added: set[str] = set()
    rewritten: set[str] = set()
    for t in prov.tests:
        if t.status is TestStatus.ADDED and t.post is not None:
            added.add(t.post.node_id)
        elif t.pre is not None and t.post is not None and t.pre.body != t.post.body:
            rewritten.update((t.post.node_id, t.pre.node_id))
    return frozenset(added), frozenset(rewritten)


def _covered(ids: frozenset[str], node_id: str) -> bool:
    base_id = node_id.split("[", 1)[0]
    return any(i == base_id or id_covers(i, node_id) for i in ids)


def _file_of(node_id: str) -> str:
    return node_id.split("::", 1)[0]


def assess(outcomes: Mapping[str, tuple[Outcome, ...]], *, prov: ProvenanceResult,
           exists_at_base: Callable[[str], bool], frozen: frozenset[str],
           flake: Mapping[str, FlakeState], reg: Registry,
           is_property: Callable[[str], bool] = lambda _: False) -> IndependentEvidence:
    """Votes of every off-tree result. ``is_property(file)``: the test file is an oracle
    property (it lives in the oracle dir), so it votes and its failure is PS504."""
    added, rewritten = agent_written_tests(prov)
    votes: list[Vote] = []
    findings: list[Finding] = []
    for node_id in sorted(outcomes):
        runs = outcomes[node_id]
        verdicts = tuple(o.verdict.value for o in runs)
        base_id = node_id.split("[", 1)[0]
        prop = is_property(_file_of(node_id))
        if prop:
            pass  # properties live outside the write set: never agent-written
        elif _covered(added, node_id):
            votes.append(Vote(node_id, VoteStatus.AGENT_WRITTEN, verdicts,
                              "added by the patch"))
            continue
        if _covered(rewritten, node_id) and not any(o.verdict in _FAILING for o in runs):
            votes.append(Vote(node_id, VoteStatus.AGENT_WRITTEN, verdicts,
                              "rewritten by the patch: its pass does not count"))
            continue
        if not prop and not exists_at_base(_file_of(node_id)):
            votes.append(Vote(node_id, VoteStatus.UNKNOWN, verdicts,
                              f"{_file_of(node_id)} does not exist at base"))
            continue
        if any(id_covers(f, node_id) for f in frozen):
            votes.append(Vote(node_id, VoteStatus.UNSCORED_FROZEN, verdicts,
                              "frozen in the freeze ledger"))
            continue
        ran = [o for o in runs if o.verdict not in _NOT_RUN]
        if not ran:
            votes.append(Vote(node_id, VoteStatus.NOT_RUN, verdicts, "skipped or xfail"))
            continue
        fails = [o for o in ran if o.verdict in _FAILING]
        state = flake.get(node_id) or flake.get(base_id)
        flaky_reason = ""
        if fails and len(fails) < len(ran):
            flaky_reason = "results disagree across runs: " + ", ".join(verdicts)
        elif any(o.reruns > 0 for o in ran):
            flaky_reason = "passed only after a rerun"
        elif state is not None and state.state == "unscored":
            flaky_reason = f"flake ledger: {state.reason}"
        if flaky_reason:
            votes.append(Vote(node_id, VoteStatus.UNSCORED_FLAKY, verdicts, flaky_reason))
            findings.append(reg["PS503"].finding(location=Location(_file_of(node_id)),
                                                 node_id=node_id, anchor=f"PS503|{node_id}",
                                                 test=node_id, reason=flaky_reason))
            continue
        if fails:
            code = "PS504" if prop else "PS501"
            votes.append(Vote(node_id, VoteStatus.PROPERTY_FAILED if prop else VoteStatus.FAILED,
                              verdicts))
            msg = (fails[0].message or fails[0].verdict.value).splitlines()[0][:300]
            findings.append(reg[code].finding(location=Location(_file_of(node_id)),
                                              node_id=node_id, anchor=f"{code}|{node_id}",
                                              test=node_id, detail=msg))
        else:
            votes.append(Vote(node_id, VoteStatus.PROPERTY_PASSED if prop else VoteStatus.PASSED,
                              verdicts))
    return IndependentEvidence(tuple(votes), tuple(findings))


def frozen_missing(frozen: Iterable[str], prov: ProvenanceResult,
                   exists_at_base: Callable[[str], bool], reg: Registry) -> list[Finding]:
    """PS506: a frozen id whose test the patch removed, or whose file is gone at base."""
    removed = {t.pre.node_id for t in prov.tests
               if t.status is TestStatus.REMOVED and t.pre is not None}
    out: list[Finding] = []
    for fid in sorted(frozen):
        base = fid.split("[", 1)[0]
        if base in removed or not exists_at_base(_file_of(fid)):
            out.append(reg["PS506"].finding(location=Location(_file_of(fid)), node_id=fid,
                                            anchor=f"PS506|{fid}", test=fid))
    return out
