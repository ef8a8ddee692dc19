"""The scoring pipeline: request → stages in order → :class:`~provscore.report.model.Report`.

This is the library entry point the CLI calls (``provscore score``). It only
orchestrates: each stage is a package with typed inputs and outputs, called here in
order with the outputs of the stages before it. Nothing here computes a finding or
formats output.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from provscore.callgraph.data_files import read_by_base_tests
from provscore.callgraph.helpers import HelperIndex, skipping_conftest_fixtures
from provscore.change.diff import ChangeSet
from provscore.change.git import PathsAt, Repo
from provscore.change.stage import Change, read_change
from provscore.change.writeset import WriteSet, build_write_set, classify_path
from provscore.checks import IndependentFacts, OracleFacts, StaticFacts, run_stage
from provscore.evidence import EvidenceKind
from provscore.evidence.stage import AnalysedFiles, analyse_files
from provscore.model import Finding, PathRole
from provscore.oracle.contract import Contract
from provscore.oracle.flake import flake_states
from provscore.oracle.freeze import frozen_ids
from provscore.oracle.load import (
    OracleInputs,
    fixture_digests,
    load_oracle,
    oracle_prefixes,
    property_files,
)
from provscore.progress import Progress
from provscore.provenance import ProvenanceResult, classify
from provscore.registry import Stage
from provscore.report.build import ReportInputs, build_report, repository_anchor, selection_info
from provscore.report.model import Report
from provscore.results import by_node_id, load_many
from provscore.results.votes import count_votes
from provscore.scoring import Policy, ScoreInputs, decide, not_evaluated_gates
from provscore.scoring.selection import ActiveRules, all_rules, deselected_gates
from provscore.session import Session


@dataclass(frozen=True, slots=True)
class ScoreRequest:
    repo: Path
    base: str
    head: str | None = None
    diff: bytes | None = None
    diff_origin: str = "<diff>"
    oracle_dir: Path | None = None
    contract: Contract = field(default_factory=Contract)
    results: tuple[Path, ...] = ()
    today: date | None = None  # for ledger expiry; None = the current date
    # Lint mode (pre-commit, CI lint stages): gate 10 is not evaluated and the best
    # decision is `review`, never `pass`.
    static_only: bool = False
    # The rule selection (scoring/selection.py), applied to the findings before the
    # decision; None: every rule.
    rules: ActiveRules | None = None
    config_source: str | None = None  # where [tool.provscore] came from, for the report
    # Called as work advances (stage, done, total): the CLI's progress line.
    progress: Progress | None = None


@dataclass(frozen=True, slots=True)
class StaticResult:
    """Everything the static stages produce, before off-tree evidence."""

    facts: StaticFacts
    findings: tuple[Finding, ...]

    @property
    def changes(self) -> ChangeSet:
        return self.facts.change.changes

    @property
    def provenance(self) -> ProvenanceResult:
        return self.facts.provenance

    @property
    def write_set(self) -> WriteSet:
        return self.facts.write_set

    @property
    def base_sha(self) -> str:
        return self.facts.change.base_sha

    @property
    def head_sha(self) -> str | None:
        return self.facts.change.head_sha

    @property
    def post_images(self) -> Mapping[str, bytes | None]:
        return self.facts.change.post_images

    @property
    def removed(self) -> int:
        return ScoreInputs.tally(self.findings)[0]

    @property
    def added(self) -> int:
        return ScoreInputs.tally(self.findings)[1]


def _static_facts(session: Session, req: ScoreRequest, repo: Repo, change: Change,
                  oracle: OracleInputs | None) -> StaticFacts:
    """Stages 3-4 and the write set: evidence of every analysed file, its provenance."""
    contract = req.contract
    approvals = oracle.approvals if oracle else ()
    frozen = oracle.frozen if oracle else frozenset()
    if change.diff_error is not None:
        return StaticFacts(change, AnalysedFiles((), ()), ProvenanceResult((), (), (), ()),
                           WriteSet(()), frozenset(), contract, approvals, frozen)
    config = change.runner.collection
    tables = session.evidence_tables(contract.assertion_helpers)
    prefixes = oracle_prefixes(repo.top, req.oracle_dir)

    def role_of(path: str) -> PathRole:
        return classify_path(path, config, oracle_prefixes=prefixes,
                             fixture_roots=contract.fixture_roots)

    lookup = HelperIndex(repo, change.base_sha, config, tables, change.post_images)
    analysed = analyse_files(change, role_of, config, tables, lookup, req.progress)
    skipping = skipping_conftest_fixtures(repo, change.base_sha, analysed.pairs,
                                          change.post_images, config, tables)
    provenance = classify(analysed.pairs, session.strength, skipping)
    write_set = build_write_set(change.changes, config, oracle_prefixes=prefixes,
                                fixture_roots=contract.fixture_roots,
                                runner_sections_changed=change.runner.sections_changed)
    expected = {it.detail for p in analysed.pairs if p.post for it in p.post.items
                if it.kind is EvidenceKind.EXPECTED_READ and it.detail}
    expected |= read_by_base_tests(repo, change.base_sha, change.changes, config)
    return StaticFacts(change, analysed, provenance, write_set, frozenset(expected), contract,
                       approvals, frozen)


def run_static(req: ScoreRequest, session: Session | None = None,
               oracle: OracleInputs | None = None, *, repo: Repo | None = None,
               base_sha: str | None = None) -> StaticResult:
    """The static stages: diff → images → evidence → provenance → static findings.

    ``repo``/``base_sha``: an already opened repository and resolved base (score() has
    them), so git is not asked twice."""
    session = session or Session.load()
    repo = repo or Repo(req.repo)
    base_sha = base_sha or repo.resolve_base(req.base)
    head_sha = repo.resolve(req.head) if req.head else None
    origin = f"git diff {req.base} {req.head}" if head_sha else req.diff_origin
    change = read_change(repo, base_sha, head_sha, req.diff or b"", origin,
                         session.option_effects)
    facts = _static_facts(session, req, repo, change, oracle)
    findings = run_stage(session.registry, session.detectors, Stage.STATIC, facts)
    return StaticResult(facts, tuple(sorted(findings, key=Finding.report_key)))


def score(req: ScoreRequest, session: Session | None = None) -> Report:
    """Score a patch: static stages, oracle inputs, off-tree results, gates, decision."""
    session = session or Session.load()
    contract = req.contract
    today = req.today or date.today()
    oracle = load_oracle(req.oracle_dir, contract)
    repo = Repo(req.repo)
    base_sha = repo.resolve_base(req.base)
    digests = fixture_digests(repo, base_sha, oracle.freeze_rows, contract.canonical_json)
    oracle = replace(oracle, frozen=frozen_ids(
        oracle.freeze_rows, today=today, fixture_digests=digests, results=oracle.flake_rows,
        unfreeze_streak=contract.reentry_streak))
    runs = load_many(req.results, repo_root_hint=str(repo.top)) if req.results else ()
    static = run_static(req, session, oracle, repo=repo, base_sha=base_sha)
    base_files = PathsAt(repo, base_sha)
    post = _post_images(repo, base_sha, static, oracle)
    oracle_facts = OracleFacts(static.facts, oracle, post.get, digests, today, base_files.exists)
    findings = [*static.findings,
                *run_stage(session.registry, session.detectors, Stage.ORACLE, oracle_facts)]
    flake = flake_states(oracle.flake_rows, window=contract.flake_window,
                         reentry_streak=contract.reentry_streak) if oracle.flake_rows else {}
    votes = count_votes(by_node_id(runs), prov=static.provenance,
                        exists_at_base=base_files.exists, frozen=oracle.frozen, flake=flake,
                        is_property=property_files(req.oracle_dir))
    findings += run_stage(session.registry, session.detectors, Stage.INDEPENDENT,
                          IndependentFacts(votes, len(runs), req.static_only))
    # The one place the rule selection applies: after every detector, before the decision.
    active = req.rules or all_rules(session.registry)
    in_force, left_out = active.split(findings)
    removed, added = ScoreInputs.tally(in_force)
    inputs = ScoreInputs(passed=votes.passed, failed=votes.failed, unscored=votes.unscored,
                         removed=removed, added=added, has_results=bool(runs))
    skipped = {**deselected_gates(active, session.registry),
               **not_evaluated_gates(oracle, req.static_only)}
    judgement = decide(in_force, inputs, Policy.from_contract(contract),
                       session.registry.gates, skipped, static_only=req.static_only)
    where = ReportInputs(str(req.repo), static.base_sha, static.head_sha,
                         None if req.head else req.diff_origin,
                         str(req.oracle_dir) if req.oracle_dir else None,
                         tuple(str(p) for p in req.results),
                         repository_anchor(base_files, static.write_set), req.config_source)
    return build_report(where, static.provenance, static.write_set,
                        tuple(sorted(in_force, key=Finding.report_key)), judgement,
                        session.registry, votes.votes, selection_info(active, left_out))


def _post_images(repo: Repo, base_sha: str, static: StaticResult, oracle: OracleInputs
                 ) -> dict[str, bytes | None]:
    """Bytes after the patch of every locked fixture: the post-image when the patch
    touches it, else its blob at base."""
    post: dict[str, bytes | None] = dict(static.post_images)
    if oracle.lock is not None:
        locked = [p for p in oracle.lock.entries if p not in post]
        post.update(repo.read_blobs(base_sha, locked))
    return post
