"""What covers the touched code: per touched symbol, the base tests and catalog properties
that reach it and their off-tree outcomes; and how much of the base corpus has results.

A test or property *covers* a symbol when its result votes (passed or failed). A frozen,
flaky, skipped or agent-written result covers nothing (a freeze is not a pass), and
neither does a test with no result at all. Frozen tests and tests the patch rewrote or
removed are not *required* (no result of them could count), but still do not cover.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from provscore.nodeid import covers, file_of, without_params
from provscore.records import dataclass
from provscore.results.votes import Vote, Votes, VoteStatus

if TYPE_CHECKING:
    from provscore.callgraph.touched import TouchedSymbol
    from provscore.oracle.catalog import Catalog
    from provscore.oracle.freeze import FreezeRow

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


def property_resolver(catalog: Catalog | None, oracle_dir: Path | None
                      ) -> Callable[[str], str | None]:
    """The property a result id is of: with a catalog, the property whose check the id
    names (``file.py::function``, the file relative to the oracle dir, under the oracle
    dir's name, or absolute); without one, the oracle-dir test itself (``file.py::test``,
    relative to the oracle dir)."""
    if oracle_dir is None:
        return lambda _: None
    root = oracle_dir.resolve()

    def resolve(node_id: str) -> str | None:
        file, rest = file_of(node_id), without_params(node_id).partition("::")[2]
        candidates = [file, file.removeprefix(f"{oracle_dir.name}/")]
        path = Path(file)
        if path.is_absolute() and path.resolve().is_relative_to(root):
            candidates.append(path.resolve().relative_to(root).as_posix())
        for rel in candidates:
            if catalog is None:
                if (root / rel).is_file():
                    return f"{rel}::{rest}"
                continue
            prop = catalog.property_of_check(rel, rest.rsplit("::", 1)[-1])
            if prop is not None:
                return prop.id
        return None
    return resolve


@dataclass(frozen=True, slots=True)
class CoverageInputs:
    """What :func:`assemble` joins: the graph's facts and the oracle's."""

    symbols: tuple[TouchedSymbol, ...]
    base_tests: frozenset[str]  # collected base test ids
    graph_stats: Mapping[str, int]
    catalog: Catalog | None
    freeze_rows: tuple[FreezeRow, ...]
    frozen: frozenset[str]
    not_required: frozenset[str]
    min_share: float


def assemble(inputs: CoverageInputs, votes: Votes, property_of: Callable[[str], str | None],
             is_property: Callable[[str], bool]) -> Coverage:
    """Coverage of every touched symbol, the corpus share and the unknown properties."""
    property_votes: dict[str, str] = {}
    unknown: list[tuple[str, str]] = []
    catalog = inputs.catalog
    for v in votes.votes:
        if not is_property(file_of(v.node_id)):
            continue
        pid = property_of(v.node_id)
        if pid is None:
            if catalog is not None:
                unknown.append((v.node_id, "result"))
            continue
        # A failure stays the property's outcome; else a vote that counts beats one that
        # does not.
        if property_votes.get(pid) != VoteStatus.PROPERTY_FAILED.value and \
                (v.status in _COVERING or pid not in property_votes):
            property_votes[pid] = v.status.value
    if catalog is not None:
        for row in inputs.freeze_rows:
            if row.is_property and catalog.property(row.key) is None:
                unknown.append((row.key, f"freeze ledger line {row.line}"))
    symbols = symbol_coverage(inputs.symbols, votes.votes, property_votes=property_votes,
                              not_required=inputs.not_required, frozen=inputs.frozen)
    covering = {p.name for s in symbols for p in s.properties}
    green = tuple(sorted(p for p in covering
                         if property_votes.get(p) == VoteStatus.PROPERTY_PASSED.value))
    known = [v.node_id for v in votes.votes if v.status is not VoteStatus.UNKNOWN]
    return Coverage(symbols, corpus_share(inputs.base_tests, known, inputs.min_share),
                    inputs.graph_stats, tuple(unknown), green,
                    catalog.rules.fail_closed_on_unknown_property if catalog else True)
