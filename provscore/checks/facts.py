"""What the detectors read: the facts of each stage, typed and frozen.

Detectors run at three stages (:class:`~provscore.registry.detectors.Stage`), each with
more facts than the one before: the static stages' outputs; then the oracle dir's
inputs; then the off-tree results' votes.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field
from datetime import date
from typing import TYPE_CHECKING

from provscore.grader import GraderFacts
from provscore.oracle.contract import Contract
from provscore.records import dataclass

if TYPE_CHECKING:
    from provscore.callgraph.analysis import GraphFacts
    from provscore.change.stage import Change
    from provscore.change.writeset import WriteSet
    from provscore.evidence.model import AnalysedFiles
    from provscore.oracle.approvals import Approval
    from provscore.oracle.load import OracleInputs
    from provscore.provenance import ProvenanceResult
    from provscore.results.coverage import Coverage
    from provscore.results.votes import Votes
    from provscore.runner.model import RunRecord


@dataclass(frozen=True, slots=True)
class StaticFacts:
    """The diff, the images, classified evidence and its provenance, the write set."""

    change: Change
    analysed: AnalysedFiles
    provenance: ProvenanceResult
    write_set: WriteSet
    # Paths whose contents are some test's expected values (tests read them).
    expected_paths: frozenset[str]
    contract: Contract
    approvals: tuple[Approval, ...] = ()  # human removal approvals (oracle dir)
    frozen: frozenset[str] = frozenset()  # ids a freeze is in force for
    graph: GraphFacts | None = None  # the call graph's facts (None: the diff did not parse)
    grader: GraderFacts = field(default_factory=GraderFacts)  # what can subvert the grader


@dataclass(frozen=True, slots=True)
class OracleFacts:
    """The static facts and the oracle dir's lock and ledgers."""

    static: StaticFacts
    oracle: OracleInputs
    read_post: Callable[[str], bytes | None]  # a path's bytes after the patch (None: absent)
    fixture_digests: Mapping[str, str]  # digest at base of fixtures freeze rows name
    today: date
    exists_at_base: Callable[[str], bool]
    # The node ids the off-tree runner collected at base (None: no run collected them).
    base_ids: frozenset[str] | None = None


@dataclass(frozen=True, slots=True)
class IndependentFacts:
    """The votes of the off-tree results, and the run that produced them."""

    votes: Votes
    result_files: int  # how many results files were given (--results), or runs made
    static_only: bool  # lint mode: gate 10 is not evaluated
    # What covers the touched code (None: the diff did not parse, nothing to cover).
    coverage: Coverage | None = None
    contract: Contract = field(default_factory=Contract)
    run: RunRecord | None = None  # the off-tree run (provscore verify), if there was one
