"""The scoring pipeline: request → stages in order → :class:`~provscore.report.model.Report`.

This is the library entry point the CLI calls (``provscore score``). It only
orchestrates: each stage is a package with typed inputs and outputs, called here in
order with the outputs of the stages before it. Nothing here computes a finding or
formats output.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from provscore.callgraph.data_files import read_by_base_tests
from provscore.callgraph.helpers import HelperIndex, skipping_conftest_fixtures
from provscore.change.diff import ChangeSet
from provscore.change.git import PathsAt, Repo
from provscore.change.images import ApplyFailure
from provscore.change.stage import Change, read_change
from provscore.change.writeset import WriteSet, build_write_set, classify_path
from provscore.checks import IndependentFacts, OracleFacts, StaticFacts, run_stage
from provscore.evidence import EvidenceKind
from provscore.evidence.stage import AnalysedFiles, analyse_files
from provscore.model import Finding, PathRole
from provscore.nodeid import file_of
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
from provscore.provenance import ProvenanceResult, classify
from provscore.registry import Stage
from provscore.report.build import ReportInputs, build_report
from provscore.report.model import Report
from provscore.results import RunResults, by_node_id, load_many
from provscore.results.votes import count_votes
from provscore.runner.model import RunRecord
from provscore.scoring import Policy, ScoreInputs, decide, not_evaluated_gates
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
    # Why `git apply --check` refuses the patch against base (the off-tree runner asks).
    apply_error: str | None = None
    # The off-tree run (`provscore verify`): its results vote instead of `results`.
    run: RunRecord | None = None


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
    analysed = analyse_files(change, role_of, config, tables, lookup)
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
    base_sha = base_sha or repo.resolve(req.base)
    head_sha = repo.resolve(req.head) if req.head else None
    origin = f"git diff {req.base} {req.head}" if head_sha else req.diff_origin
    change = read_change(repo, base_sha, head_sha, req.diff or b"", origin,
                         session.option_effects)
    if req.apply_error is not None and change.diff_error is None and not change.failures:
        change = replace(change, failures=(apply_failure(req.apply_error, change),))
    facts = _static_facts(session, req, repo, change, oracle)
    findings = run_stage(session.registry, session.detectors, Stage.STATIC, facts)
    return StaticResult(facts, tuple(sorted(findings, key=Finding.report_key)))


_GIT_APPLY_AT = re.compile(r"^error: patch failed: (.+):(\d+)$", re.MULTILINE)
_GIT_APPLY_PATH = re.compile(r"^error: (.+?): (.+)$", re.MULTILINE)


def apply_failure(text: str, change: Change) -> ApplyFailure:
    """``git apply --check``'s complaint as a PS902 input: the file and line it names."""
    last = text.strip().splitlines()[-1].removeprefix("error: ") if text.strip() else "refused"
    at = _GIT_APPLY_AT.search(text)
    if at:
        return ApplyFailure(at.group(1), f"git apply --check: {last}", int(at.group(2)))
    named = _GIT_APPLY_PATH.search(text)
    if named:
        return ApplyFailure(named.group(1), f"git apply --check: {named.group(2)}")
    first = change.changes.files[0].path if change.changes.files else "<patch>"
    return ApplyFailure(first, f"git apply --check: {last}")


@dataclass(frozen=True, slots=True)
class Prepared:
    """What scoring knows before any off-tree result: the oracle inputs and the static
    stages' output (``provscore verify`` decides from it whether to run at all)."""

    req: ScoreRequest
    session: Session
    repo: Repo
    base_sha: str
    oracle: OracleInputs
    digests: Mapping[str, str]
    today: date
    static: StaticResult


def prepare(req: ScoreRequest, session: Session | None = None) -> Prepared:
    """Oracle inputs (with the ids a freeze is in force for) and the static stages."""
    session = session or Session.load()
    contract = req.contract
    today = req.today or date.today()
    oracle = load_oracle(req.oracle_dir, contract)
    repo = Repo(req.repo)
    base_sha = repo.resolve(req.base)
    digests = fixture_digests(repo, base_sha, oracle.freeze_rows, contract.canonical_json)
    oracle = replace(oracle, frozen=frozen_ids(
        oracle.freeze_rows, today=today, fixture_digests=digests, results=oracle.flake_rows,
        unfreeze_streak=contract.reentry_streak))
    static = run_static(req, session, oracle, repo=repo, base_sha=base_sha)
    return Prepared(req, session, repo, base_sha, oracle, digests, today, static)


def score(req: ScoreRequest, session: Session | None = None) -> Report:
    """Score a patch: static stages, oracle inputs, off-tree results, gates, decision."""
    prepared = prepare(req, session)
    runs = req.run.runs if req.run is not None else (
        load_many(req.results, repo_root_hint=str(prepared.repo.top)) if req.results else ())
    return judge(prepared, runs)


def _is_property(req: ScoreRequest) -> Callable[[str], bool]:
    in_oracle = property_files(req.oracle_dir)
    ran = {file_of(p) for p in req.run.properties} if req.run is not None else set()
    return lambda file: file in ran or in_oracle(file)


def judge(prepared: Prepared, runs: tuple[RunResults, ...]) -> Report:
    """The oracle and independent stages over ``runs``, the gates and the decision."""
    req, session, static, oracle = prepared.req, prepared.session, prepared.static, \
        prepared.oracle
    contract = req.contract
    run = req.run
    base_files = PathsAt(prepared.repo, prepared.base_sha)
    post = _post_images(prepared.repo, prepared.base_sha, static, oracle)
    base_ids = frozenset(run.base_tests) if run is not None and run.ran \
        and run.base_error is None else None
    oracle_facts = OracleFacts(static.facts, oracle, post.get, prepared.digests, prepared.today,
                               base_files.exists, base_ids)
    findings = [*static.findings,
                *run_stage(session.registry, session.detectors, Stage.ORACLE, oracle_facts)]
    flake = flake_states(oracle.flake_rows, window=contract.flake_window,
                         reentry_streak=contract.reentry_streak) if oracle.flake_rows else {}
    votes = count_votes(by_node_id(runs), prov=static.provenance,
                        exists_at_base=base_files.exists, frozen=oracle.frozen, flake=flake,
                        is_property=_is_property(req), corpus_from_base=run is not None)
    findings += run_stage(session.registry, session.detectors, Stage.INDEPENDENT,
                          IndependentFacts(votes, len(runs), req.static_only, run))
    removed, added = ScoreInputs.tally(findings)
    inputs = ScoreInputs(passed=votes.passed, failed=votes.failed, unscored=votes.unscored,
                         removed=removed, added=added, has_results=bool(runs))
    judgement = decide(findings, inputs, Policy.from_contract(contract), session.registry.gates,
                       not_evaluated_gates(oracle, req.static_only), static_only=req.static_only)
    where = ReportInputs(str(req.repo), static.base_sha, static.head_sha,
                         None if req.head else req.diff_origin,
                         str(req.oracle_dir) if req.oracle_dir else None,
                         tuple(str(p) for p in req.results))
    return build_report(where, static.provenance, static.write_set,
                        tuple(sorted(findings, key=Finding.report_key)), judgement,
                        session.registry, votes.votes, run)


def _post_images(repo: Repo, base_sha: str, static: StaticResult, oracle: OracleInputs
                 ) -> dict[str, bytes | None]:
    """Bytes after the patch of every locked fixture: the post-image when the patch
    touches it, else its blob at base."""
    post: dict[str, bytes | None] = dict(static.post_images)
    if oracle.lock is not None:
        locked = [p for p in oracle.lock.entries if p not in post]
        post.update(repo.read_blobs(base_sha, locked))
    return post
