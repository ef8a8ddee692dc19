"""Building the :class:`~provscore.report.model.Report` from the pipeline's outputs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from provscore.change.git import PathsAt
from provscore.change.writeset import WriteSet
from provscore.model import Finding
from provscore.provenance import ProvenanceResult
from provscore.registry.model import Registry
from provscore.report.model import (
    Inputs,
    Report,
    ResultRow,
    RuleInfo,
    SelectionInfo,
    TestRow,
    WriteSetRow,
)
from provscore.results.votes import Vote
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


def build_report(inputs: ReportInputs, provenance: ProvenanceResult, write_set: WriteSet,
                 findings: tuple[Finding, ...], judgement: Judgement, registry: Registry,
                 votes: Sequence[Vote] = (), selection: SelectionInfo | None = None) -> Report:
    tests = tuple(TestRow(t.node_id, t.status.value,
                          t.pre.node_id if t.pre is not None and t.post is not None
                          and t.pre.node_id != t.post.node_id else None)
                  for t in provenance.tests)
    return Report(
        decision=judgement.decision, merge_score=judgement.score.merge_score,
        score=judgement.score, first_cause=judgement.first_cause, findings=findings,
        gates=judgement.gates, evidence=provenance.counts(),
        write_set=tuple(WriteSetRow(e.path, e.role.value, e.status, e.runner)
                        for e in write_set.entries),
        tests=tests,
        inputs=Inputs(inputs.repo, inputs.base_sha, inputs.head_sha, inputs.diff, inputs.oracle,
                      inputs.results, inputs.repository_anchor, inputs.config),
        unscored=judgement.unscored,
        results=tuple(ResultRow(v.node_id, v.status.value, v.verdicts, v.reason) for v in votes),
        rules=rule_infos(registry, findings), selection=selection or SelectionInfo())
