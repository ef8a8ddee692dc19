"""Stage 9: the one report model every renderer formats (they compute nothing).

``Report.to_dict()`` is the JSON report (documented in docs/report.md); the
text, markdown, SARIF and GitHub renderers read the same object. What a renderer
needs to know about a rule (its summary, rationale, gate) travels with the report in
:attr:`Report.rules`, so no renderer reads the registry.
"""

from __future__ import annotations

from typing import Any

from provscore import __version__
from provscore.errors import ExitCode
from provscore.model import Action, Decision, Finding
from provscore.records import dataclass
from provscore.runner.model import RunRecord
from provscore.scoring.decision import FirstCause, GateResult, ScoreBreakdown

#: Version 2 added ``coverage``, ``run`` (the off-tree run of ``provscore verify``),
#: ``selection``, ``inputs.merge_base``, ``inputs.repository_anchor`` and ``inputs.config``;
#: every field of version 1 is unchanged.
SCHEMA = "provscore.report/2"


@dataclass(frozen=True, slots=True)
class WriteSetRow:
    path: str
    role: str
    status: str
    runner: bool


@dataclass(frozen=True, slots=True)
class TestRow:
    node_id: str
    status: str
    previous: str | None = None


@dataclass(frozen=True, slots=True)
class ResultRow:
    """One off-tree test id and whether (and why) it voted."""

    node_id: str
    status: str
    verdicts: tuple[str, ...]
    reason: str = ""


@dataclass(frozen=True, slots=True)
class CoveredBy:
    """A test or property that reaches a touched symbol, and its off-tree outcome."""

    name: str
    outcome: str  # a result status (passed, failed, unscored_frozen, ...) or no_result
    required: bool = True  # False: frozen, or rewritten/removed by the patch


@dataclass(frozen=True, slots=True)
class SymbolRow:
    """One touched symbol and what covers it."""

    symbol: str
    kind: str
    path: str
    line: int
    side: str
    status: str  # covered | partial | uncovered | unreached
    tests: tuple[CoveredBy, ...]  # at most TESTS_SHOWN, those without a result first
    tests_total: int
    tests_with_results: int
    properties: tuple[CoveredBy, ...]


@dataclass(frozen=True, slots=True)
class CoverageReport:
    """What covers the touched code (the call graph and the results joined)."""

    symbols: tuple[SymbolRow, ...]
    base_tests: int
    base_tests_with_results: int
    share: float | None
    min_share: float
    graph: tuple[tuple[str, int], ...]  # call counts: calls, resolved, external, ...
    unknown_properties: tuple[tuple[str, str], ...] = ()
    green_properties: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "base_tests": self.base_tests,
            "base_tests_with_results": self.base_tests_with_results,
            "share": self.share, "min_share": self.min_share,
            "graph": dict(self.graph),
            "symbols": [{
                "symbol": r.symbol, "kind": r.kind, "path": r.path, "line": r.line,
                "side": r.side, "status": r.status, "tests_total": r.tests_total,
                "tests_with_results": r.tests_with_results,
                "tests": [_covered(c) for c in r.tests],
                "properties": [_covered(c) for c in r.properties]} for r in self.symbols],
            "unknown_properties": [{"name": n, "where": w}
                                   for n, w in self.unknown_properties],
            "green_properties": list(self.green_properties),
        }


def _covered(c: CoveredBy) -> dict[str, Any]:
    return {"name": c.name, "outcome": c.outcome, "required": c.required}


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """The registry's row of a rule that fired, as renderers show it."""

    code: str
    name: str
    action: Action
    penalty: float
    summary: str
    rationale: str
    gate: int
    gate_name: str


@dataclass(frozen=True, slots=True)
class Inputs:
    repo: str
    base: str
    head: str | None
    diff: str | None
    oracle: str | None
    results: tuple[str, ...] = ()
    # The commit a --head or --staged patch was scored against: the merge base of base
    # and head (``git diff base...head``); None for a diff, which applies to base itself.
    merge_base: str | None = None
    # The file repository-level findings are shown on (SARIF, concise): a stable file at
    # base (pyproject.toml, setup.py, ...), else the first path of the write set.
    repository_anchor: str | None = None
    config: str | None = None  # where [tool.provscore] was read from, if anywhere


@dataclass(frozen=True, slots=True)
class SelectionInfo:
    """The rule selection the findings went through (scoring/selection.py)."""

    select: tuple[str, ...] = ("ALL",)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()  # the flags and files the lists came from
    deselected: tuple[str, ...] = ()  # rule codes not in force
    kept: tuple[tuple[str, str], ...] = ()  # (code, why): deselected, kept in force
    ignored: tuple[tuple[str, int], ...] = ()  # (code, count): findings left out


@dataclass(frozen=True, slots=True)
class Report:
    decision: Decision
    merge_score: float | None
    score: ScoreBreakdown
    first_cause: FirstCause | None
    findings: tuple[Finding, ...]
    gates: tuple[GateResult, ...]
    evidence: dict[str, dict[str, int]]
    write_set: tuple[WriteSetRow, ...]
    tests: tuple[TestRow, ...]
    inputs: Inputs
    unscored: bool
    results: tuple[ResultRow, ...] = ()
    coverage: CoverageReport | None = None
    # Every rule that fired, by code (not part of the JSON report: the registry is).
    rules: tuple[RuleInfo, ...] = ()
    run: RunRecord | None = None  # the off-tree run (provscore verify), if there was one
    selection: SelectionInfo = SelectionInfo()

    def counts_by_code(self) -> tuple[tuple[str, str, str, int], ...]:
        """(code, name, action, findings) per rule that fired: most findings first."""
        counts: dict[tuple[str, str, str], int] = {}
        for f in self.findings:
            key = (f.code, f.name, f.action.value)
            counts[key] = counts.get(key, 0) + 1
        return tuple(sorted(((*k, n) for k, n in counts.items()), key=lambda r: (-r[3], r[0])))

    def rule(self, code: str) -> RuleInfo | None:
        return next((r for r in self.rules if r.code == code), None)

    @property
    def exit_code(self) -> ExitCode:
        return {Decision.PASS: ExitCode.PASS, Decision.REVIEW: ExitCode.REVIEW,
                Decision.REJECT: ExitCode.REJECT}[self.decision]

    def to_dict(self) -> dict[str, Any]:
        fc = self.first_cause
        return {
            "schema": SCHEMA,
            "tool": {"name": "provscore", "version": __version__},
            "decision": self.decision.value,
            "unscored": self.unscored,
            "merge_score": self.merge_score,
            "first_cause": None if fc is None else {
                "gate": fc.gate, "gate_name": fc.gate_name, "code": fc.code,
                "message": fc.message, "path": fc.path, "line": fc.line},
            "score": {
                "independent_pass_rate": self.score.independent_pass_rate,
                "removed_penalty": self.score.removed_penalty,
                "added_penalty": self.score.added_penalty,
                "other_penalty": self.score.other_penalty,
                "passed": self.score.passed, "failed": self.score.failed,
                "unscored": self.score.unscored,
                "removed": self.score.removed, "added": self.score.added,
            },
            "gates": [{"gate": g.number, "name": g.name, "status": g.status,
                       "codes": list(g.codes), "note": g.note} for g in self.gates],
            "findings": [finding_dict(f) for f in self.findings],
            "evidence": self.evidence,
            "tests": [{"node_id": t.node_id, "status": t.status, "previous": t.previous}
                      for t in self.tests],
            "results": [{"node_id": r.node_id, "status": r.status,
                         "verdicts": list(r.verdicts), "reason": r.reason}
                        for r in self.results],
            "write_set": [{"path": w.path, "role": w.role, "status": w.status,
                           "runner": w.runner} for w in self.write_set],
            "coverage": None if self.coverage is None else self.coverage.to_dict(),
            "inputs": {"repo": self.inputs.repo, "base": self.inputs.base,
                       "head": self.inputs.head, "diff": self.inputs.diff,
                       "oracle": self.inputs.oracle, "results": list(self.inputs.results),
                       "merge_base": self.inputs.merge_base,
                       "repository_anchor": self.inputs.repository_anchor,
                       "config": self.inputs.config},
            "run": None if self.run is None else self.run.to_json(),
            "selection": selection_dict(self.selection),
        }


def finding_dict(f: Finding) -> dict[str, Any]:
    loc = f.location
    return {
        "code": f.code, "name": f.name, "action": f.action.value, "penalty": f.penalty,
        "path": loc.path if loc else None, "line": loc.line if loc else None,
        "side": loc.side if loc else None, "node_id": f.node_id, "message": f.message,
        "anchor": f.anchor,
    }


def selection_dict(s: SelectionInfo) -> dict[str, Any]:
    return {"select": list(s.select), "extend_select": list(s.extend_select),
            "ignore": list(s.ignore), "sources": list(s.sources),
            "deselected": list(s.deselected),
            "kept": [{"code": code, "reason": why} for code, why in s.kept],
            "ignored_findings": [{"code": code, "count": n} for code, n in s.ignored]}
