"""The scoring pipeline: request → stages in order → :class:`Report`.

This is the library entry point the CLI calls (``provscore score``). Data
flows one way through the stage modules; nothing here formats output.
"""

from __future__ import annotations

import configparser
import posixpath
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path

from provscore.contract import Contract
from provscore.decision import Policy, ScoreInputs, Verdict, decide, gate_of
from provscore.diff import (
    ChangeSet,
    DiffParseError,
    FileChange,
    FileStatus,
    decode_diff,
    parse_diff,
)
from provscore.evidence import (
    CollectionConfig,
    EvidenceKind,
    FileEvidence,
    SuppressionKind,
    Tables,
    extract,
)
from provscore.findings import (
    evidence_findings,
    input_findings,
    marker_findings,
    suppression_findings,
    write_set_findings,
)
from provscore.fixtures import FixtureLock, digest_bytes, read_lock, verify_lock
from provscore.git import Repo
from provscore.images import ApplyFailure, FileImages, build_images
from provscore.independent import Vote, assess, frozen_missing
from provscore.ledgers import (
    Approval,
    FlakeRow,
    FreezeRow,
    check_freeze_ledger,
    flake_states,
    frozen_ids,
    read_approvals,
    read_flake_ledger,
    read_freeze_ledger,
)
from provscore.model import Finding, PathRole
from provscore.outcomes import by_node_id, load_many
from provscore.provenance import FilePair, ProvenanceResult, classify
from provscore.pytestconfig import (
    CONFIG_FILES,
    COVERAGE_FILES,
    collection_config,
    compare_options,
    read_options,
)
from provscore.report.model import Inputs, Report, ResultRow, TestRow, WriteSetRow
from provscore.rules import registry
from provscore.writeset import WriteSet, build_write_set, classify_path

EVIDENCE_ROLES = (PathRole.TEST, PathRole.CONFTEST, PathRole.HELPER)
_MACHINERY = ("pytest_", "hookimpl", "unittest", "AssertionError", "builtins", "_pytest",
              "sys.modules")


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


@dataclass(frozen=True, slots=True)
class StaticResult:
    """Everything the static stages produce, before off-tree evidence."""

    changes: ChangeSet
    findings: tuple[Finding, ...]
    provenance: ProvenanceResult
    write_set: WriteSet
    removed: int
    added: int
    base_sha: str
    head_sha: str | None
    # Bytes after the patch for every path it touches (None = absent after the patch).
    post_images: Mapping[str, bytes | None] = field(default_factory=dict)


class HelperIndex:
    """Which imported names are helper oracles, read from base (or the post-image)."""

    def __init__(self, repo: Repo, base: str, config: CollectionConfig, tables: Tables,
                 post_images: Mapping[str, bytes | None]) -> None:
        self.repo, self.base, self.config, self.tables = repo, base, config, tables
        self.post_images = post_images
        self._tree: set[str] | None = None
        self._cache: dict[str, frozenset[str]] = {}

    def _paths(self) -> set[str]:
        if self._tree is None:
            self._tree = {e.path for e in self.repo.ls_tree(self.base) if e.path.endswith(".py")}
            self._tree |= {p for p in self.post_images if p.endswith(".py")}
        return self._tree

    def _helpers(self, path: str) -> frozenset[str]:
        if path not in self._cache:
            self._cache[path] = frozenset()  # guards against import cycles
            if path in self.post_images:
                data = self.post_images[path]
            else:
                data = self.repo.read_blobs(self.base, [path]).get(path)
            if data is not None:
                ev = extract(path, data, self.config, self.tables)
                self._cache[path] = frozenset(h.qualname for h in ev.helpers)
        return self._cache[path]

    def __call__(self, importer: str, qualname: str) -> bool:
        module, _, name = qualname.rpartition(".")
        if not module or not name:
            return False
        if module.startswith("."):
            dots = len(module) - len(module.lstrip("."))
            pkg = posixpath.dirname(importer)
            for _ in range(dots - 1):
                pkg = posixpath.dirname(pkg)
            rest = module.lstrip(".").replace(".", "/")
            stem = posixpath.join(pkg, rest) if rest else pkg
        else:
            stem = module.replace(".", "/")
        tree = self._paths()
        for candidate in (f"{stem}.py", f"{stem}/__init__.py", f"src/{stem}.py",
                          f"src/{stem}/__init__.py"):
            if candidate in tree and _worth_reading(candidate):
                return name in self._helpers(candidate)
        return False


def _worth_reading(path: str) -> bool:
    # Helper oracles live in test code; production modules are the call graph's job.
    parts = path.split("/")
    return any("test" in p for p in parts) or parts[-1] == "conftest.py"


def _config_images(images: Sequence[FileImages], base_blobs: Mapping[str, bytes | None]
                   ) -> tuple[dict[str, bytes | None], dict[str, bytes | None]]:
    pre = {p: base_blobs.get(p) for p in (*CONFIG_FILES, *COVERAGE_FILES)}
    post = dict(pre)
    for img in images:
        for path in (img.change.old_path, img.change.new_path):
            if path in post:
                post[path] = img.post if path == img.change.new_path else None
    return pre, post


def _runner_sections_changed(images: Sequence[FileImages]) -> frozenset[str]:
    """pyproject.toml / setup.cfg count as runner channels only when those sections change."""
    out: set[str] = set()
    for img in images:
        path = img.change.path
        name = posixpath.basename(path)
        if name == "pyproject.toml":
            if _toml_sections(img.pre) != _toml_sections(img.post):
                out.add(path)
        elif name == "setup.cfg" and _cfg_sections(img.pre) != _cfg_sections(img.post):
            out.add(path)
    return frozenset(out)


def _toml_sections(data: bytes | None) -> object:
    if data is None:
        return None
    try:
        doc = tomllib.loads(data.decode("utf-8", "replace"))
    except tomllib.TOMLDecodeError:
        return ("unparseable", data)  # fail closed: unparseable differs from anything
    tool = doc.get("tool", {})
    project = doc.get("project", {})
    return (tool.get("pytest"), tool.get("coverage"), tool.get("tox"), tool.get("nox"),
            tool.get("poetry", {}).get("dependencies"), tool.get("hatch", {}).get("envs"),
            project.get("dependencies"), project.get("optional-dependencies"),
            project.get("entry-points"), doc.get("build-system"),
            doc.get("dependency-groups"))


def _cfg_sections(data: bytes | None) -> object:
    if data is None:
        return None
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(data.decode("utf-8", "replace"))
    except configparser.Error:
        return ("unparseable", data)
    keep = [s for s in parser.sections()
            if s in ("tool:pytest", "options", "options.extras_require", "options.entry_points")
            or s.startswith("coverage:")]
    return {s: dict(parser.items(s)) for s in keep}


def _skipping_conftest_fixtures(repo: Repo, base: str, pairs: Sequence[FilePair],
                                post_images: Mapping[str, bytes | None],
                                config: CollectionConfig, tables: Tables) -> frozenset[str]:
    """Fixtures that skip, defined in the conftest.py files above the changed tests (as
    they are after the patch): requesting one from an existing test is a new skip."""
    dirs: set[str] = set()
    for p in pairs:
        if p.new_path and p.post and p.post.tests:
            d = posixpath.dirname(p.new_path)
            while True:
                dirs.add(d)
                if not d:
                    break
                d = posixpath.dirname(d)
    paths = sorted(posixpath.join(d, "conftest.py") if d else "conftest.py" for d in dirs)
    unchanged = [p for p in paths if p not in post_images]
    blobs: dict[str, bytes | None] = dict(repo.read_blobs(base, unchanged))
    blobs.update({p: post_images[p] for p in paths if p in post_images})
    names: set[str] = set()
    for path, data in blobs.items():
        if data is None:
            continue
        ev = extract(path, data, config, tables, collect_tests=False)
        names |= {h.qualname for h in ev.helpers if h.is_fixture and h.skips}
    return frozenset(names)


_MAX_DATA_FILES = 40


def _read_by_base_tests(repo: Repo, base: str, changes: ChangeSet,
                        config: CollectionConfig) -> set[str]:
    """Data files the patch edits or deletes that test code at base names: their contents
    are some test's expected values, wherever they live (resources/expected.json)."""
    out: set[str] = set()
    candidates = [c.old_path for c in changes.files
                  if c.old_path and not c.unsafe_reason and not c.old_path.endswith(".py")
                  and c.status is not FileStatus.ADDED][:_MAX_DATA_FILES]
    for path in candidates:
        name = posixpath.basename(path)
        if len(name) < 5 or "." not in name:
            continue  # too generic to mean this file
        for hit in repo.grep_files(base, name):
            if classify_path(hit, config) in EVIDENCE_ROLES:
                out.add(path)
                break
    return out


def _analysed(change: FileChange, role: PathRole, post: bytes | None) -> bool:
    if change.unsafe_reason:
        return False
    if not change.path.endswith(".py") and not (change.old_path or "").endswith(".py"):
        return False
    if role in EVIDENCE_ROLES:
        return True
    # Production modules are read only when the patch touches the test machinery there:
    # pytest hooks (a plugin can rewrite outcomes), or rebinding unittest/pytest/builtins.
    added = change.added_text()
    return post is not None and any(token in added for token in _MACHINERY)


def run_static(req: ScoreRequest, oracle: OracleInputs | None = None, *,
               repo: Repo | None = None, base_sha: str | None = None) -> StaticResult:
    """The static stages: diff → images → evidence → provenance → findings.

    ``repo``/``base_sha``: an already opened repository and resolved base (score() has
    them), so git is not asked twice."""
    reg = registry()
    repo = repo or Repo(req.repo)
    base_sha = base_sha or repo.resolve(req.base)
    head_sha = repo.resolve(req.head) if req.head else None
    raw = repo.diff(base_sha, head_sha) if head_sha else (req.diff or b"")
    origin = f"git diff {req.base} {req.head}" if head_sha else req.diff_origin
    try:
        changes = parse_diff(decode_diff(raw), origin=origin)
    except DiffParseError as exc:
        finding = reg["PS901"].finding(anchor="PS901", reason=str(exc))
        empty = ProvenanceResult((), (), (), ())
        return StaticResult(ChangeSet(()), (finding,), empty, WriteSet(()), 0, 0, base_sha,
                            head_sha)

    safe = [c for c in changes.files if not c.unsafe_reason]
    wanted = [c.old_path for c in safe if c.old_path] + \
        [c.new_path for c in safe if c.new_path and c.status is FileStatus.ADDED]
    base_blobs = repo.read_blobs(base_sha, [*wanted, *CONFIG_FILES, *COVERAGE_FILES])
    post_blobs = repo.read_blobs(head_sha, [c.new_path for c in safe if c.new_path]) \
        if head_sha else None
    images = build_images(changes, base_blobs, post_blobs)
    failures = list(images.failures)
    for c in safe:
        if c.status is FileStatus.ADDED and c.new_path and base_blobs.get(c.new_path) is not None \
                and head_sha is None:
            failures.append(ApplyFailure(c.new_path,
                                         "file added by the patch already exists at base"))

    pre_cfg, post_cfg = _config_images(images.files, base_blobs)
    base_options = read_options(pre_cfg)
    config = collection_config(base_options)
    tables = Tables.load(req.contract.assertion_helpers)
    # Bytes after the patch for every path it touches (None: absent after the patch).
    post_images: dict[str, bytes | None] = {}
    for img in images.files:
        if img.change.old_path:
            post_images[img.change.old_path] = None
    for img in images.files:
        if img.change.new_path:
            post_images[img.change.new_path] = img.post
    lookup = HelperIndex(repo, base_sha, config, tables, post_images)
    oracle_prefixes = _oracle_prefixes(repo, req.oracle_dir)
    fixture_roots = req.contract.fixture_roots

    pairs: list[FilePair] = []
    unparseable: list[tuple[str, str, int | None, str]] = []
    for img in images.files:
        change = img.change
        role = classify_path(change.path, config, oracle_prefixes=oracle_prefixes,
                             fixture_roots=fixture_roots)
        if not _analysed(change, role, img.post):
            continue
        if change.binary:  # e.g. `*.py binary` in .gitattributes: the text is hidden
            unparseable.append((change.path, "binary diff of a Python file: contents unknown",
                                None, "post"))
            continue
        pre_ev = post_ev = None
        if img.pre is not None and change.old_path:
            pre_ev = extract(change.old_path, img.pre, config, tables, lookup)
        if img.post is not None and change.new_path:
            post_ev = extract(change.new_path, img.post, config, tables, lookup)
        if role not in EVIDENCE_ROLES:
            # In production code only test-machinery tampering counts: hooks and
            # overrides of the frameworks; its asserts and skips are the product's own.
            pre_ev, post_ev = _machinery_only(pre_ev), _machinery_only(post_ev)
        failed = [(ev, side) for ev, side in ((pre_ev, "pre"), (post_ev, "post"))
                  if ev is not None and ev.error is not None]
        for ev, side in failed:
            unparseable.append((ev.path, ev.error or "", ev.error_line, side))
        if not failed:  # an unclassifiable file is PS903, not a pile of removals
            pairs.append(FilePair(change.old_path, change.new_path, pre_ev, post_ev))

    prov = classify(pairs, _skipping_conftest_fixtures(repo, base_sha, pairs, post_images,
                                                       config, tables))
    ws = build_write_set(changes, config, oracle_prefixes=oracle_prefixes,
                         fixture_roots=fixture_roots,
                         runner_sections_changed=_runner_sections_changed(images.files))
    expected = {it.detail for p in pairs if p.post for it in p.post.items
                if it.kind is EvidenceKind.EXPECTED_READ and it.detail}
    expected |= _read_by_base_tests(repo, base_sha, changes, config)
    findings: list[Finding] = []
    findings += input_findings(reg, failures, unparseable)
    findings += write_set_findings(reg, changes, ws, max_files=req.contract.max_changed_files,
                                   allowed_runner=req.contract.allowed_runner_edits,
                                   expected_paths=expected)
    approvals = oracle.approvals if oracle else ()
    ev_findings, tally = evidence_findings(reg, prov, approvals)
    findings += ev_findings
    config_changes = compare_options(base_options, read_options(post_cfg))
    findings += suppression_findings(reg, prov, config_changes,
                                     oracle.frozen if oracle else frozenset())
    findings += marker_findings(reg, changes)
    return StaticResult(changes, tuple(sorted(findings, key=report_order)), prov, ws,
                        tally.removed, tally.added, base_sha, head_sha, post_images)


_MACHINERY_KINDS = frozenset({
    SuppressionKind.REPORT_HOOK, SuppressionKind.COLLECTION_HOOK,
    SuppressionKind.ASSERT_OVERRIDE, SuppressionKind.DYNAMIC})


def _machinery_only(ev: FileEvidence | None) -> FileEvidence | None:
    if ev is None or ev.error is not None:
        return ev
    return replace(ev, items=(), tests=(), helpers=(),
                   suppressions=tuple(s for s in ev.suppressions if s.kind in _MACHINERY_KINDS))


def report_order(f: Finding) -> tuple[int, tuple[str, int, str, str]]:
    """Findings in gate order, then by place: the first cause reads first."""
    return gate_of(f.code), f.sort_key()


def _oracle_prefixes(repo: Repo, oracle_dir: Path | None) -> tuple[str, ...]:
    prefixes: list[str] = []
    if oracle_dir is not None:
        try:
            rel = oracle_dir.resolve().relative_to(repo.top.resolve())
        except ValueError:
            rel = None
        if rel is not None and str(rel) not in ("", "."):
            prefixes.append(rel.as_posix())
    return tuple(prefixes)


def policy_of(contract: Contract) -> Policy:
    return Policy(contract.pass_threshold, contract.review_threshold, contract.removed_penalty,
                  contract.removed_penalty_cap, contract.added_penalty,
                  contract.added_penalty_cap)


@dataclass(frozen=True, slots=True)
class OracleInputs:
    """What the oracle dir holds, validated (a malformed file is an InputError)."""

    lock: FixtureLock | None = None
    freeze_rows: tuple[FreezeRow, ...] = ()
    flake_rows: tuple[FlakeRow, ...] = ()
    approvals: tuple[Approval, ...] = ()
    freeze_path: str | None = None
    has_flake_ledger: bool = False
    frozen: frozenset[str] = frozenset()


def load_oracle(oracle_dir: Path | None, contract: Contract) -> OracleInputs:
    """Read every oracle input the contract names; absent files are simply not given."""
    if oracle_dir is None:
        return OracleInputs()

    def existing(rel: str) -> Path | None:
        path = contract.oracle_path(oracle_dir, rel)
        return path if path.is_file() else None

    lock_path = existing(contract.lock_path)
    freeze_path = existing(contract.freeze_path)
    flake_path = existing(contract.flake_ledger_path)
    approvals_path = existing(contract.approvals_path)
    return OracleInputs(
        lock=read_lock(lock_path) if lock_path else None,
        freeze_rows=read_freeze_ledger(freeze_path) if freeze_path else (),
        flake_rows=read_flake_ledger(flake_path) if flake_path else (),
        approvals=read_approvals(approvals_path) if approvals_path else (),
        freeze_path=str(freeze_path) if freeze_path else None,
        has_flake_ledger=flake_path is not None)


def _fixture_digests(repo: Repo, base: str, rows: Sequence[FreezeRow],
                     canonical: bool) -> dict[str, str]:
    """Digest at base of every fixture a freeze row names (for staleness)."""
    paths = sorted({r.fixture for r in rows if r.fixture and r.fixture_sha})
    blobs = repo.read_blobs(base, paths)
    return {p: digest_bytes(p, data, canonical_json=canonical)
            for p, data in blobs.items() if data is not None}


def score(req: ScoreRequest) -> Report:
    """Score a patch: static stages, oracle inputs, off-tree results, gates, decision."""
    reg = registry()
    contract = req.contract
    today = req.today or date.today()
    oracle = load_oracle(req.oracle_dir, contract)
    repo = Repo(req.repo)
    base_sha = repo.resolve(req.base)
    digests = _fixture_digests(repo, base_sha, oracle.freeze_rows, contract.canonical_json)
    frozen = frozen_ids(oracle.freeze_rows, today=today, fixture_digests=digests,
                        results=oracle.flake_rows, unfreeze_streak=contract.reentry_streak)
    oracle = replace(oracle, frozen=frozen)
    runs = load_many(req.results, repo_root_hint=str(repo.top)) if req.results else ()
    static = run_static(req, oracle, repo=repo, base_sha=base_sha)
    findings = list(static.findings)
    not_evaluated: dict[int, str] = {}

    base_files = _BaseFiles(repo, base_sha)
    if oracle.lock is not None:
        post = static.post_images
        locked = [p for p in oracle.lock.entries if p not in post]
        base_blobs = repo.read_blobs(base_sha, locked)

        def read_post(path: str) -> bytes | None:
            return post[path] if path in post else base_blobs.get(path)
        findings += verify_lock(oracle.lock, read_post, contract)
    else:
        not_evaluated[5] = "no fixture lock in the oracle dir"
    if oracle.freeze_path is not None:
        findings += check_freeze_ledger(oracle.freeze_rows, today=today,
                                        parked_budget=contract.parked_budget,
                                        fixture_digests=digests, path=oracle.freeze_path)
        findings += frozen_missing(frozen, static.provenance, base_files.exists, reg)
    elif not oracle.has_flake_ledger:
        not_evaluated[6] = "no freeze or flake ledger in the oracle dir"

    flake = flake_states(oracle.flake_rows, window=contract.flake_window,
                         reentry_streak=contract.reentry_streak) if oracle.flake_rows else {}
    evidence = assess(by_node_id(runs), prov=static.provenance, exists_at_base=base_files.exists,
                      frozen=frozen, flake=flake, reg=reg,
                      is_property=_oracle_property_files(req.oracle_dir))
    findings += evidence.findings
    if req.static_only:
        not_evaluated[10] = "--static-only: independent evidence not evaluated"
    elif evidence.passed + evidence.failed == 0:
        detail = ("no off-tree results were given (--results)" if not runs else
                  f"none of the {len(evidence.votes)} results is of a preexisting test that "
                  "ran and stayed unfrozen and stable")
        findings.append(reg["PS502"].finding(anchor="PS502", detail=detail))
    inputs = ScoreInputs(passed=evidence.passed, failed=evidence.failed,
                         unscored=evidence.unscored, removed=static.removed, added=static.added,
                         has_results=bool(runs))
    verdict = decide(findings, inputs, policy_of(contract), not_evaluated,
                     static_only=req.static_only)
    return build_report(req, static, tuple(sorted(findings, key=report_order)), verdict,
                        [str(p) for p in req.results], evidence.votes)


def _oracle_property_files(oracle_dir: Path | None) -> Callable[[str], bool]:
    """Whether a result's test file is a property kept in the oracle dir: its path relative
    to the oracle dir, the oracle dir's own name as prefix, or an absolute path inside it."""
    if oracle_dir is None or not oracle_dir.is_dir():
        return lambda _: False
    root = oracle_dir.resolve()
    names = {p.relative_to(root).as_posix() for p in root.rglob("*.py")}

    def check(file: str) -> bool:
        if file in names or file.removeprefix(f"{oracle_dir.name}/") in names:
            return True
        path = Path(file)
        return path.is_absolute() and path.resolve().is_relative_to(root)
    return check


class _BaseFiles:
    """Whether a path exists at base (one ls-tree, on first use)."""

    def __init__(self, repo: Repo, base: str) -> None:
        self.repo, self.base = repo, base
        self._paths: set[str] | None = None

    def exists(self, path: str) -> bool:
        if self._paths is None:
            self._paths = {e.path for e in self.repo.ls_tree(self.base)}
        return path in self._paths


def build_report(req: ScoreRequest, static: StaticResult, findings: tuple[Finding, ...],
                 verdict: Verdict, results: Sequence[str] = (),
                 votes: Sequence[Vote] = ()) -> Report:
    tests = tuple(TestRow(t.node_id, t.status.value,
                          t.pre.node_id if t.pre is not None and t.post is not None
                          and t.pre.node_id != t.post.node_id else None)
                  for t in static.provenance.tests)
    return Report(
        decision=verdict.decision, merge_score=verdict.score.merge_score, score=verdict.score,
        first_cause=verdict.first_cause, findings=findings, gates=verdict.gates,
        evidence=static.provenance.counts(),
        write_set=tuple(WriteSetRow(e.path, e.role.value, e.status, e.runner)
                        for e in static.write_set.entries),
        tests=tests,
        inputs=Inputs(str(req.repo), static.base_sha, static.head_sha,
                      None if req.head else req.diff_origin,
                      str(req.oracle_dir) if req.oracle_dir else None, tuple(results)),
        unscored=verdict.unscored,
        results=tuple(ResultRow(v.node_id, v.status.value, v.verdicts, v.reason) for v in votes))
