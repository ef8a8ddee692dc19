"""Building the :class:`~provscore.report.model.Report` from the pipeline's outputs."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import fields, is_dataclass, replace
from typing import Any

from provscore.change.git import PathsAt
from provscore.change.writeset import WriteSet
from provscore.model import Finding
from provscore.provenance import ProvenanceResult
from provscore.records import dataclass
from provscore.registry.model import Registry
from provscore.report.model import (
    CoverageReport,
    CoveredBy,
    Inputs,
    Report,
    ResultRow,
    RuleInfo,
    SelectionInfo,
    SymbolRow,
    TestRow,
    WriteSetRow,
)
from provscore.results.coverage import NO_RESULT, Coverage, Outcome
from provscore.results.votes import Vote
from provscore.runner.model import RunRecord
from provscore.scoring.decision import Judgement
from provscore.scoring.selection import ActiveRules


@dataclass(frozen=True, slots=True)
class ReportInputs:
    """What the report says was scored."""

    repo: str
    base_sha: str
    head_sha: str | None
    diff: str | None  # where the diff came from, when it was not two refs
    oracle: str | None
    results: tuple[str, ...] = ()
    merge_base: str | None = None  # what --head/--staged were scored against
    repository_anchor: str | None = None
    config: str | None = None


#: Files that say "this repository" and rarely change: repository-level findings are shown
#: on their first line (SARIF, concise), so that the place, and GitHub's fingerprint of
#: it, stay put from one run to the next. The first that exists at base wins.
ANCHOR_FILES = ("pyproject.toml", "setup.py", "setup.cfg", "README.md", "README.rst",
                "README.txt", "README")


def repository_anchor(base_files: PathsAt, write_set: WriteSet) -> str | None:
    """The stable file repository-level findings are shown on: the first of
    :data:`ANCHOR_FILES` at base, else base's first file in path order, else (an empty
    base: the repository's first commit) the write set's first path."""
    paths = base_files.all()
    for name in ANCHOR_FILES:
        if name in paths:
            return name
    if paths:
        return min(paths)
    return min((e.path for e in write_set.entries), default=None)


def selection_info(active: ActiveRules, left_out: Sequence[tuple[str, int]]) -> SelectionInfo:
    req = active.request
    return SelectionInfo(req.select, req.extend_select, req.ignore, req.sources,
                         active.deselected, active.kept, tuple(left_out))


def rule_infos(registry: Registry, findings: Sequence[Finding]) -> tuple[RuleInfo, ...]:
    """The registry rows of the rules that fired, in code order."""
    out: list[RuleInfo] = []
    for code in sorted({f.code for f in findings}):
        rule = registry.rules.get(code)
        if rule is not None:
            out.append(RuleInfo(rule.code, rule.name, rule.action, rule.penalty, rule.summary,
                                rule.rationale, rule.gate.number, rule.gate.name))
    return tuple(out)


#: Covering tests listed per touched symbol (all are counted).
TESTS_SHOWN = 50


def _rank(o: Outcome) -> tuple[int, str]:
    # What a reviewer must see first: failures, then tests without a result.
    order = {"failed": 0, NO_RESULT: 1}
    return order.get(o.outcome, 2), o.name


def coverage_report(coverage: Coverage) -> CoverageReport:
    rows = []
    for s in coverage.symbols:
        sym = s.symbol
        tests = sorted(s.tests, key=_rank)
        rows.append(SymbolRow(
            sym.name, sym.kind, sym.path, sym.lines[0], sym.sides[0], s.status.value,
            tuple(CoveredBy(t.name, t.outcome, t.required) for t in tests[:TESTS_SHOWN]),
            len(tests), sum(1 for t in tests if t.outcome != NO_RESULT),
            tuple(CoveredBy(p.name, p.outcome, p.required) for p in s.properties)))
    c = coverage.corpus
    return CoverageReport(tuple(rows), c.base_tests, c.with_results, c.share, c.min_share,
                          tuple(sorted(coverage.graph_stats.items())),
                          coverage.unknown_properties, coverage.green_properties)


_SURROGATE = re.compile("[\ud800-\udfff]")


def displayable(text: str) -> str:
    """``text`` as valid Unicode: a byte that was not UTF-8 (kept as a surrogate since the
    diff was read) is shown as ``\\xNN``, so every format can be written and read."""
    if not _SURROGATE.search(text):
        return text
    return _SURROGATE.sub(lambda m: f"\\x{ord(m.group()) - 0xDC00:02x}"
                          if 0xDC80 <= ord(m.group()) <= 0xDCFF
                          else f"\\u{ord(m.group()):04x}", text)


def _displayable(value: Any) -> Any:
    """Every string inside a report value made displayable; unchanged values are kept."""
    if type(value) is str:
        return displayable(value)
    if isinstance(value, tuple):
        items = tuple(_displayable(v) for v in value)
        return value if items == value else items
    if isinstance(value, dict):
        pairs = {_displayable(k): _displayable(v) for k, v in value.items()}
        return value if pairs == value else pairs
    if is_dataclass(value) and not isinstance(value, type):
        changed = {f.name: new for f in fields(value)
                   if (new := _displayable(getattr(value, f.name))) is not getattr(value, f.name)}
        return replace(value, **changed) if changed else value
    return value


def build_report(inputs: ReportInputs, provenance: ProvenanceResult, write_set: WriteSet,
                 findings: tuple[Finding, ...], judgement: Judgement, registry: Registry,
                 votes: Sequence[Vote] = (), coverage: Coverage | None = None,
                 run: RunRecord | None = None, selection: SelectionInfo | None = None
                 ) -> Report:
    tests = tuple(TestRow(t.node_id, t.status.value,
                          t.pre.node_id if t.pre is not None and t.post is not None
                          and t.pre.node_id != t.post.node_id else None)
                  for t in provenance.tests)
    report = Report(
        decision=judgement.decision, merge_score=judgement.score.merge_score,
        score=judgement.score, first_cause=judgement.first_cause, findings=findings,
        gates=judgement.gates, evidence=provenance.counts(),
        write_set=tuple(WriteSetRow(e.path, e.role.value, e.status, e.runner)
                        for e in write_set.entries),
        tests=tests,
        inputs=Inputs(inputs.repo, inputs.base_sha, inputs.head_sha, inputs.diff, inputs.oracle,
                      inputs.results, inputs.merge_base, inputs.repository_anchor,
                      inputs.config),
        unscored=judgement.unscored,
        results=tuple(ResultRow(v.node_id, v.status.value, v.verdicts, v.reason) for v in votes),
        coverage=None if coverage is None else coverage_report(coverage),
        rules=rule_infos(registry, findings), run=run,
        selection=selection or SelectionInfo())
    # Paths and lines from the diff may hold any bytes; every renderer gets valid text.
    result: Report = _displayable(report)
    return result
