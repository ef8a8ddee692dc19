"""Which off-tree results vote, and how (gate 10's input).

Only results of tests that exist on base and that the patch neither added nor rewrote
vote. Frozen ids (freeze ledger) and flaky ids (flake ledger, or disagreement between
the given runs) are unscored: they leave numerator and denominator. Every other result
is listed with the reason it does not count.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping

from provscore.nodeid import covers, file_of, without_params
from provscore.oracle.flake import FlakeState
from provscore.provenance import ProvenanceResult, TestStatus
from provscore.records import dataclass
from provscore.results.model import Outcome, Verdict


class VoteStatus(enum.StrEnum):
    PASSED = "passed"
    FAILED = "failed"
    PROPERTY_PASSED = "property_passed"  # an oracle property (test file in the oracle dir)
    PROPERTY_FAILED = "property_failed"
    UNSCORED_FLAKY = "unscored_flaky"
    UNSCORED_FROZEN = "unscored_frozen"
    NOT_RUN = "not_run"  # skipped, xfailed, xpassed: no evidence either way
    AGENT_WRITTEN = "agent_written"  # added or rewritten by the patch: never votes
    UNKNOWN = "unknown"  # its file, or the test itself, does not exist at base


@dataclass(frozen=True, slots=True)
class Vote:
    node_id: str
    status: VoteStatus
    verdicts: tuple[str, ...]
    reason: str = ""
    failure: str = ""  # the first failing run's message, first line (failed votes)


@dataclass(frozen=True, slots=True)
class Votes:
    """Every off-tree result's vote, and the tallies the score needs."""

    votes: tuple[Vote, ...]

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
    plain = without_params(node_id)
    return any(i == plain or covers(i, node_id) for i in ids)


def _flaky_reason(runs: tuple[Outcome, ...], ran: list[Outcome], fails: list[Outcome],
                  state: FlakeState | None) -> str:
    if fails and len(fails) < len(ran):
        return "results disagree across runs: " + ", ".join(o.verdict.value for o in runs)
    if any(o.reruns > 0 for o in ran):
        return "passed only after a rerun"
    if state is not None and state.state == "unscored":
        return f"flake ledger: {state.reason}"
    return ""


def _vote(node_id: str, runs: tuple[Outcome, ...], *, prop: bool, added: frozenset[str],
          rewritten: frozenset[str], exists_at_base: Callable[[str], bool],
          frozen: frozenset[str], flake: Mapping[str, FlakeState],
          missing_at_base: Callable[[str], str], property_id: str | None) -> Vote:
    verdicts = tuple(o.verdict.value for o in runs)
    # Properties live outside the write set: never agent-written.
    if not prop and _covered(added, node_id):
        return Vote(node_id, VoteStatus.AGENT_WRITTEN, verdicts, "added by the patch")
    if _covered(rewritten, node_id) and not any(o.verdict in _FAILING for o in runs):
        return Vote(node_id, VoteStatus.AGENT_WRITTEN, verdicts,
                    "rewritten by the patch: its pass does not count")
    if not prop and not exists_at_base(file_of(node_id)):
        return Vote(node_id, VoteStatus.UNKNOWN, verdicts,
                    f"{file_of(node_id)} does not exist at base")
    missing = "" if prop else missing_at_base(node_id)
    if missing:
        return Vote(node_id, VoteStatus.UNKNOWN, verdicts, missing)
    if any(covers(f, node_id) for f in frozen) or (property_id and property_id in frozen):
        return Vote(node_id, VoteStatus.UNSCORED_FROZEN, verdicts, "frozen in the freeze ledger")
    ran = [o for o in runs if o.verdict not in _NOT_RUN]
    if not ran:
        return Vote(node_id, VoteStatus.NOT_RUN, verdicts, "skipped or xfail")
    fails = [o for o in ran if o.verdict in _FAILING]
    state = flake.get(node_id) or flake.get(without_params(node_id))
    flaky = _flaky_reason(runs, ran, fails, state)
    if flaky:
        return Vote(node_id, VoteStatus.UNSCORED_FLAKY, verdicts, flaky)
    if fails:
        msg = (fails[0].message or fails[0].verdict.value).splitlines()[0][:300]
        return Vote(node_id, VoteStatus.PROPERTY_FAILED if prop else VoteStatus.FAILED,
                    verdicts, failure=msg)
    return Vote(node_id, VoteStatus.PROPERTY_PASSED if prop else VoteStatus.PASSED, verdicts)


def _exists(_: str) -> str:
    return ""


def _no_property(_: str) -> str | None:
    return None


def count_votes(outcomes: Mapping[str, tuple[Outcome, ...]], *, prov: ProvenanceResult,
                exists_at_base: Callable[[str], bool], frozen: frozenset[str],
                flake: Mapping[str, FlakeState],
                is_property: Callable[[str], bool] = lambda _: False,
                missing_at_base: Callable[[str], str] = _exists,
                property_of: Callable[[str], str | None] = _no_property,
                corpus_from_base: bool = False) -> Votes:
    """The vote of every off-tree result. ``is_property(file)``: the test file is an
    oracle property (it lives in the oracle dir), so it votes and its failure is PS504.
    ``missing_at_base(node_id)``: why a test in a file that exists at base is not a test
    there ("" when it is); such a result never votes. ``property_of(node_id)``: the
    catalog property a property result is of (a frozen property's result is unscored).
    ``corpus_from_base``: the results come from provscore's own run, whose corpus was put
    back as on base, so a test the patch rewrote ran as base wrote it and votes like any
    preexisting test (from unknown result files its pass cannot count)."""
    added, rewritten = agent_written_tests(prov)
    if corpus_from_base:
        rewritten = frozenset()
    return Votes(tuple(
        _vote(node_id, outcomes[node_id], prop=is_property(file_of(node_id)), added=added,
              rewritten=rewritten, exists_at_base=exists_at_base, frozen=frozen, flake=flake,
              missing_at_base=missing_at_base, property_id=property_of(node_id))
        for node_id in sorted(outcomes)))
