"""What covers the touched code: per touched symbol, the base tests and catalog properties
that reach it and their off-tree outcomes; and how much of the base corpus has results.

A test or property *covers* a symbol when its result votes (passed or failed). A frozen,
flaky, skipped or agent-written result covers nothing (a freeze is not a pass), and
neither does a test with no result at all. Frozen tests and tests the patch rewrote or
removed are not *required* (no result of them could count), but still do not cover.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from provscore.callgraph.touched import TouchedSymbol
from provscore.nodeid import covers, without_params
from provscore.results.votes import Vote, VoteStatus

_COVERING = frozenset({VoteStatus.PASSED, VoteStatus.FAILED, VoteStatus.PROPERTY_PASSED,
                       VoteStatus.PROPERTY_FAILED})
NO_RESULT = "no_result"


class CoverStatus(enum.StrEnum):
    COVERED = "covered"  # every required test or property that reaches it has a result
    PARTIAL = "partial"  # some results cover it, some required ones are missing
    UNCOVERED = "uncovered"  # tests or properties reach it; none has a result
    UNREACHED = "unreached"  # no base test and no property reaches it


@dataclass(frozen=True, slots=True)
class Outcome:
    """A covering test or property and its off-tree outcome (a vote status or no_result)."""

    name: str
    outcome: str
    required: bool = True


@dataclass(frozen=True, slots=True)
class SymbolCoverage:
    symbol: TouchedSymbol
    status: CoverStatus
    tests: tuple[Outcome, ...]
    properties: tuple[Outcome, ...]

    @property
    def missing(self) -> tuple[Outcome, ...]:
        return tuple(o for o in (*self.tests, *self.properties)
                     if o.required and o.outcome == NO_RESULT)


@dataclass(frozen=True, slots=True)
class CorpusShare:
    """How many collected base tests the results cover."""

    base_tests: int
    with_results: int
    min_share: float

    @property
    def share(self) -> float | None:
        return round(self.with_results / self.base_tests, 4) if self.base_tests else None


@dataclass(frozen=True, slots=True)
class Coverage:
    symbols: tuple[SymbolCoverage, ...]
    corpus: CorpusShare
    graph_stats: Mapping[str, int]
    unknown_properties: tuple[tuple[str, str], ...] = ()  # (name, where it was named)
    green_properties: tuple[str, ...] = ()  # covering properties whose result passed
    fail_closed: bool = True  # the catalog's oracle_rules.fail_closed_on_unknown_property

    @property
    def covering_properties(self) -> tuple[str, ...]:
        return tuple(sorted({p.name for s in self.symbols for p in s.properties}))

    @property
    def any_covered(self) -> bool:
        return any(s.status in (CoverStatus.COVERED, CoverStatus.PARTIAL) for s in self.symbols)


def _outcome_of(vote_by_test: Mapping[str, list[Vote]], test: str) -> str:
    votes = vote_by_test.get(test, [])
    for v in votes:
        if v.status in _COVERING:
            return v.status.value
    return votes[0].status.value if votes else NO_RESULT


def _status(outcomes: Iterable[Outcome]) -> CoverStatus:
    rows = list(outcomes)
    if not rows:
        return CoverStatus.UNREACHED
    covered = [o for o in rows if o.outcome in _COVERING]
    missing = [o for o in rows if o.required and o.outcome == NO_RESULT]
    if not covered:
        return CoverStatus.UNCOVERED
    return CoverStatus.PARTIAL if missing else CoverStatus.COVERED


def symbol_coverage(symbols: Iterable[TouchedSymbol], votes: Iterable[Vote], *,
                    property_votes: Mapping[str, str], not_required: frozenset[str],
                    frozen: frozenset[str]) -> tuple[SymbolCoverage, ...]:
    """Each touched symbol with its covering tests' and properties' outcomes.

    ``property_votes``: property id -> its outcome (a vote status); ``not_required``:
    base test ids whose result could not count (rewritten or removed by the patch)."""
    by_test: dict[str, list[Vote]] = {}
    for v in votes:
        by_test.setdefault(without_params(v.node_id), []).append(v)
    out = []
    for sym in symbols:
        tests = tuple(Outcome(t, _outcome_of(by_test, t),
                              t not in not_required and not any(covers(f, t) for f in frozen))
                      for t in sym.tests)
        props = tuple(Outcome(p, property_votes.get(p, NO_RESULT), p not in frozen)
                      for p in sym.properties)
        out.append(SymbolCoverage(sym, _status((*tests, *props)), tests, props))
    return tuple(out)


def corpus_share(base_tests: Iterable[str], result_ids: Iterable[str], min_share: float
                 ) -> CorpusShare:
    """Collected base tests, and how many of them some result names."""
    tests = set(base_tests)
    named = {without_params(r) for r in result_ids}
    return CorpusShare(len(tests), len(tests & named), min_share)
