"""The scoring pipeline: request → stages in order → :class:`~provscore.report.model.Report`.

This is the library entry point the CLI calls (``provscore score``). It only
orchestrates: each stage is a package with typed inputs and outputs, called here in
order with the outputs of the stages before it. Nothing here computes a finding or
formats output.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import field, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

# The stages that import libcst (and the result readers) are reached through their packages
# when first called: a lint run of a patch with no Python file never loads them.
from provscore import evidence, grader, provenance, results
from provscore.change.git import PathsAt, Repo
from provscore.change.stage import Change, read_change
from provscore.change.writeset import WriteSet, build_write_set, classify_path
from provscore.checks import IndependentFacts, OracleFacts, StaticFacts, run_stage
from provscore.errors import InputError
from provscore.evidence.model import AnalysedFiles, EvidenceKind
from provscore.grader.inputs import grader_inputs
from provscore.model import Decision, Finding, PathRole
from provscore.nodeid import file_of
from provscore.oracle.contract import Contract
from provscore.oracle.flake import flake_states
from provscore.oracle.freeze import frozen_ids
from provscore.oracle.load import (
    OracleInputs,
    fixture_digests,
    load_oracle,
    oracle_prefixes,
    oracle_python_files,
    property_files,
)
from provscore.provenance.model import ProvenanceResult
from provscore.records import dataclass
from provscore.registry import Stage
from provscore.report.build import ReportInputs, build_report, repository_anchor, selection_info
from provscore.results.coverage import CoverageInputs, assemble, property_resolver
from provscore.results.model import RunResults, by_node_id
from provscore.results.votes import agent_written_tests, count_votes
from provscore.scoring import Policy, ScoreInputs, decide, not_evaluated_gates
from provscore.scoring.selection import ActiveRules, all_rules, deselected_gates
from provscore.session import Session

if TYPE_CHECKING:
    from provscore.callgraph.analysis import GraphFacts, PropertyCode
    from provscore.callgraph.graph import CallGraph
    from provscore.callgraph.touched import TouchedSymbol
    from provscore.change.diff import ChangeSet
    from provscore.oracle.catalog import Catalog
    from provscore.progress import Progress
    from provscore.report.model import Report
    from provscore.runner.model import RunRecord


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
    # Score the index against base (pre-commit): ``git diff --cached``, no ``diff``/``head``.
    staged: bool = False
    # The rule selection (scoring/selection.py), applied to the findings before the
    # decision; None: every rule.
    rules: ActiveRules | None = None
    config_source: str | None = None  # where [tool.provscore] came from, for the report
    # Called as work advances (stage, done, total): the CLI's progress line.
    progress: Progress | None = None
    # Classify every definition of each touched test module, not only what the change
    # reaches (evidence/focus.py): the report then lists every test of those files.
    whole_files: bool = False
    # The off-tree run (`provscore verify`): its results vote instead of `results`.
    run: RunRecord | None = None
    # Paths a hidden test patch will add (``--protect-from-diff``): the patch must not (PS807).
    hidden_tests: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Revisions:
    """The commits a request names: ``tip`` is --base resolved; ``base`` is what the patch
    is scored against: the merge base of tip and head (what ``git diff tip...head`` and a
    pull request show) with --head or --staged, tip itself for a diff."""

    tip: str
    base: str
    head: str | None
    merged: bool = False  # base is the merge base (--head, --staged)

    @property
    def merge_base(self) -> str | None:
        return self.base if self.merged else None


def resolve_revisions(req: ScoreRequest, repo: Repo) -> Revisions:
    # --base HEAD before the first commit is the empty tree (Repo.resolve_base).
    tip = repo.resolve_base(req.base)
    if req.head:
        head = repo.resolve(req.head)
        return Revisions(tip, repo.merge_base(tip, head), head, merged=True)
    if req.staged and not repo.unborn():  # the commit being made sits on HEAD
        return Revisions(tip, repo.merge_base(tip, repo.resolve("HEAD")), None, merged=True)
    return Revisions(tip, tip, None)


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
        return StaticFacts(change, AnalysedFiles((), ()), ProvenanceResult(),
                           WriteSet(()), frozenset(), contract, approvals, frozen)
    config = change.runner.collection
    prefixes = oracle_prefixes(repo.top, req.oracle_dir)

    def path_role(path: str) -> PathRole:
        return classify_path(path, config, oracle_prefixes=prefixes,
                             fixture_roots=contract.fixture_roots)

    catalog = oracle.catalog if oracle else None
    graph: CallGraph | None = None
    extra: dict[str, bytes] | None = None
    support: frozenset[str] = frozenset()
    if _needs_graph(req, change):  # the call graph's modules load only when it is built
        from provscore.callgraph.analysis import base_graph, oracle_sources, test_support_paths
        extra = oracle_sources(oracle_python_files(req.oracle_dir)) if req.oracle_dir else None
        graph = base_graph(repo, change.base_sha, config, session.cache, extra)
        support = test_support_paths(graph, path_role)

    def role_of(path: str) -> PathRole:
        return PathRole.HELPER if path in support else path_role(path)

    analysed, skipping = AnalysedFiles((), ()), frozenset[str]()
    if change.changes.touches_python:  # else no module to read: no table, no lookup
        from provscore.callgraph.helpers import HelperIndex, skipping_conftest_fixtures
        tables = session.evidence_tables(contract.assertion_helpers)
        lookup = HelperIndex(repo, change.base_sha, config, tables, change.post_images,
                             support=support, modules=graph.index.by_name if graph else None)
        analysed = evidence.analyse_files(change, role_of, config, tables, lookup,
                                          req.progress, focus=not req.whole_files)
        skipping = skipping_conftest_fixtures(repo, change.base_sha, analysed.pairs,
                                              change.post_images, config, tables)
    # Nothing classified, nothing to place (and the matcher, which imports libcst, is not
    # loaded for a patch of no Python file).
    classified = provenance.classify(analysed.pairs, session.strength, skipping,
                                     xfail_strict=config.xfail_strict) \
        if analysed.pairs else ProvenanceResult()
    write_set = build_write_set(change.changes, config, oracle_prefixes=prefixes,
                                fixture_roots=contract.fixture_roots,
                                runner_sections_changed=change.runner.sections_changed)
    write_set = WriteSet(tuple(replace(e, role=PathRole.HELPER) if e.path in support else e
                               for e in write_set.entries))
    expected = {it.detail for p in analysed.pairs if p.post for it in p.post.items
                if it.kind is EvidenceKind.EXPECTED_READ and it.detail}
    expected |= change.base_reads
    graph_facts = None
    if graph is not None:
        from provscore.callgraph.analysis import analyse_graph
        graph_facts = analyse_graph(repo, graph, change.base_sha, change.changes,
                                    change.post_images, config, session.cache, role_of,
                                    _property_code(catalog), extra)
    signals = grader.grader_facts(change, grader_inputs(
        repo, change.base_sha, graph_facts, role_of=role_of, tables=session.grader_tables(),
        import_names=session.import_names(),
        entry_points=contract.entry_points, protected=contract.protected_paths,
        hidden_tests=req.hidden_tests))
    return StaticFacts(change, analysed, classified, write_set, frozenset(expected), contract,
                       approvals, frozen, graph_facts, signals)


def _needs_graph(req: ScoreRequest, change: Change) -> bool:
    """A lint run (static only, no results) of a patch that touches no Python file has no
    code to cover and no result to place in the base corpus: its report has no coverage
    section, and the call graph of base is not built (or loaded)."""
    return change.changes.touches_python or not req.static_only or bool(req.results) \
        or req.run is not None


def _property_code(catalog: Catalog | None) -> tuple[PropertyCode, ...] | None:
    if catalog is None:
        return None
    from provscore.callgraph.analysis import PropertyCode
    return tuple(PropertyCode(p.id, p.covers, p.check.file if p.check else None,
                              p.check.function if p.check else None)
                 for p in catalog.properties)


def run_static(req: ScoreRequest, session: Session | None = None,
               oracle: OracleInputs | None = None, *, repo: Repo | None = None,
               revs: Revisions | None = None) -> StaticResult:
    """The static stages: diff → images → evidence → provenance → static findings.

    ``repo``/``revs``: an already opened repository and resolved revisions (score() has
    them), so git is not asked twice."""
    session = session or Session.load()
    repo = repo or Repo(req.repo)
    revs = revs or resolve_revisions(req, repo)
    base_sha, head_sha = revs.base, revs.head
    diff, origin = req.diff or b"", req.diff_origin
    if head_sha:
        origin = f"git diff {req.base}...{req.head}"
    elif req.staged:
        diff, origin = repo.staged_diff(base_sha), "git diff --cached"
    change = read_change(repo, base_sha, head_sha, diff, origin, session.option_effects)
    facts = _static_facts(session, req, repo, change, oracle)
    findings = run_stage(session.registry, session.detectors, Stage.STATIC, facts)
    return StaticResult(facts, tuple(sorted(findings, key=Finding.report_key)))


@dataclass(frozen=True, slots=True)
class Prepared:
    """What scoring knows before any off-tree result: the oracle inputs and the static
    stages' output (``provscore verify`` decides from it whether to run at all)."""

    req: ScoreRequest
    session: Session
    repo: Repo
    revs: Revisions
    oracle: OracleInputs
    digests: Mapping[str, str]
    today: date
    static: StaticResult

    @property
    def base_sha(self) -> str:
        return self.revs.base


def prepare(req: ScoreRequest, session: Session | None = None, *, repo: Repo | None = None
            ) -> Prepared:
    """Oracle inputs (with the ids a freeze is in force for) and the static stages.

    ``repo``: ``req.repo`` already open (a batch worker keeps one per mirror, with its blob
    reader); None opens it for this score alone."""
    session = session or Session.load()
    contract = req.contract
    today = req.today or date.today()
    oracle = load_oracle(req.oracle_dir, contract)
    if repo is not None and repo.root != Path(req.repo):
        raise ValueError(f"the open repository is {repo.root}, the request names {req.repo}")
    repo = repo or Repo(req.repo)
    revs = resolve_revisions(req, repo)
    digests = fixture_digests(repo, revs.base, oracle.freeze_rows, contract.canonical_json)
    oracle = replace(oracle, frozen=frozen_ids(
        oracle.freeze_rows, today=today, fixture_digests=digests, results=oracle.flake_rows,
        unfreeze_streak=contract.reentry_streak))
    static = run_static(req, session, oracle, repo=repo, revs=revs)
    return Prepared(req, session, repo, revs, oracle, digests, today, static)


def score(req: ScoreRequest, session: Session | None = None, *, repo: Repo | None = None
          ) -> Report:
    """Score a patch: static stages, oracle inputs, off-tree results, gates, decision
    (``repo``: see prepare())."""
    prepared = prepare(req, session, repo=repo)
    hint = str(prepared.repo.top)
    runs = req.run.runs if req.run is not None else (
        results.load_many(req.results, repo_root_hint=hint) if req.results else ())
    return judge(prepared, runs)


def judge(prepared: Prepared, runs: tuple[RunResults, ...]) -> Report:
    """The oracle and independent stages over ``runs``, the gates and the decision."""
    req, session, static, oracle = prepared.req, prepared.session, prepared.static, \
        prepared.oracle
    contract, run, repo, base_sha = req.contract, req.run, prepared.repo, prepared.base_sha
    base_files = PathsAt(repo, base_sha)
    where = ReportInputs(str(req.repo), prepared.revs.tip, static.head_sha,
                         None if req.head else static.facts.change.origin,
                         str(req.oracle_dir) if req.oracle_dir else None,
                         tuple(str(p) for p in req.results), prepared.revs.merge_base,
                         repository_anchor(base_files, static.write_set), req.config_source)
    if static.facts.change.nothing_to_score is not None:
        return _empty_report(session, req, static, where)
    post = _post_images(repo, base_sha, static, oracle)
    base_ids = frozenset(run.base_tests) if run is not None and run.ran \
        and run.base_error is None else None
    oracle_facts = OracleFacts(static.facts, oracle, post.get, prepared.digests, prepared.today,
                               base_files.exists, base_ids)
    findings = [*static.findings,
                *run_stage(session.registry, session.detectors, Stage.ORACLE, oracle_facts)]
    flake = flake_states(oracle.flake_rows, window=contract.flake_window,
                         reentry_streak=contract.reentry_streak) if oracle.flake_rows else {}
    graph = static.facts.graph
    is_property = _is_property(req)
    property_of = property_resolver(oracle.catalog, req.oracle_dir)
    votes = count_votes(by_node_id(runs), prov=static.provenance,
                        exists_at_base=base_files.exists, frozen=oracle.frozen, flake=flake,
                        is_property=is_property,
                        missing_at_base=_missing_at_base(graph, base_ids),
                        property_of=property_of, corpus_from_base=run is not None)
    # The share of the base corpus the results name: of what pytest collected at base when
    # the run collected the full corpus (the graph cannot know that a file fails to import).
    corpus = base_ids if run is not None and run.subset == "full" else None
    coverage = None if graph is None else assemble(
        _coverage_inputs(graph, static, oracle, contract, corpus), votes, property_of,
        is_property)
    findings += run_stage(session.registry, session.detectors, Stage.INDEPENDENT,
                          IndependentFacts(votes, len(runs), req.static_only, coverage,
                                           contract, run))
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
    return build_report(where, static.provenance, static.write_set,
                        tuple(sorted(in_force, key=Finding.report_key)), judgement,
                        session.registry, votes.votes, coverage, run,
                        selection_info(active, left_out))

def _is_property(req: ScoreRequest) -> Callable[[str], bool]:
    """A result of an oracle property: a file of the oracle dir, or one the run ran."""
    in_oracle = property_files(req.oracle_dir)
    ran = {file_of(p) for p in req.run.properties} if req.run is not None else set()
    return lambda file: file in ran or in_oracle(file)


def _missing_at_base(graph: GraphFacts | None, base_ids: frozenset[str] | None
                     ) -> Callable[[str], str]:
    """Why a result's id is no test at base: pytest's own collection at base when the run
    made one (it has the parametrized ids the graph cannot know), else the graph's."""
    static = graph.base_tests.missing if graph else (lambda _: "")
    if base_ids is None:
        return static
    return lambda node_id: "" if node_id in base_ids else static(node_id)


def _coverage_inputs(graph: GraphFacts, static: StaticResult, oracle: OracleInputs,
                     contract: Contract, base_ids: frozenset[str] | None = None
                     ) -> CoverageInputs:
    added, rewritten = agent_written_tests(static.provenance)
    removed = {t.pre.node_id for t in static.provenance.tests
               if t.pre is not None and t.post is None}
    collected = graph.base_tests.collected if base_ids is None else base_ids
    return CoverageInputs(graph.touched, collected, graph.post.stats,
                          oracle.catalog, oracle.freeze_rows, oracle.frozen,
                          frozenset(added | rewritten | removed), contract.min_base_share)


def _empty_report(session: Session, req: ScoreRequest, static: StaticResult,
                  where: ReportInputs) -> Report:
    """A patch that changes nothing: its PS904 (or other static findings) and the
    contract's ``empty_patch`` decision; no oracle or off-tree gate has anything to judge."""
    contract = req.contract
    active = req.rules or all_rules(session.registry)
    findings, left_out = active.split(static.findings)
    skipped = {**deselected_gates(active, session.registry),
               **not_evaluated_gates(OracleInputs(), req.static_only)}
    judgement = decide(findings, ScoreInputs(), Policy.from_contract(contract),
                       session.registry.gates, skipped, static_only=req.static_only,
                       empty=Decision(contract.empty_patch))
    return build_report(where, static.provenance, static.write_set, findings, judgement,
                        session.registry, run=req.run,
                        selection=selection_info(active, left_out))


def _post_images(repo: Repo, base_sha: str, static: StaticResult, oracle: OracleInputs
                 ) -> dict[str, bytes | None]:
    """Bytes after the patch of every locked fixture: the post-image when the patch
    touches it, else its blob at base."""
    post: dict[str, bytes | None] = dict(static.post_images)
    if oracle.lock is not None:
        locked = [p for p in oracle.lock.entries if p not in post]
        post.update(repo.read_blobs(base_sha, locked))
    return post


def graph_at_rev(repo_path: Path, rev: str, session: Session) -> CallGraph:
    """The call graph of a revision (``provscore graph``), collection rules from it."""
    repo = Repo(repo_path)
    sha = repo.resolve(rev)
    change = read_change(repo, sha, None, b"", f"graph {rev}", session.option_effects)
    from provscore.callgraph.analysis import base_graph
    return base_graph(repo, sha, change.runner.collection, session.cache)


def touched_coverage(req: ScoreRequest, session: Session | None = None
                     ) -> tuple[TouchedSymbol, ...]:
    """Every touched symbol with the base tests and properties that reach it
    (``provscore coverage``): the static stages only, no results."""
    session = session or Session.load()
    oracle = load_oracle(req.oracle_dir, req.contract)
    static = run_static(req, session, oracle)
    if static.facts.change.diff_error is not None:
        raise InputError(f"diff does not parse: {static.facts.change.diff_error}",
                         path=req.diff_origin)
    graph = static.facts.graph
    return graph.touched if graph is not None else ()
