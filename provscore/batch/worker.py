"""Score one prediction: the same library entry as ``provscore score``, one row out.

A worker process keeps one :class:`~provscore.session.Session` for every patch it scores
(the registry is loaded once; the call-graph summaries go to the shared SQLite cache, so
a file parsed by one worker is parsed by no other), and the evidence of every image it
classified (evidence/memo.py: reused only where classifying again cannot differ). The
session's in-memory summaries and kept evidence are dropped when the worker moves to
another repository, so memory stays flat however many patches a batch has.

Whatever goes wrong with one patch becomes that row's reason; the batch goes on.
"""

from __future__ import annotations

import dataclasses
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

from provscore.batch.model import (
    Chunk,
    FindingRow,
    PatchRow,
    Reason,
    Status,
    Task,
)
from provscore.callgraph.cache import SummaryCache
from provscore.change.diff import FileStatus, parse_diff
from provscore.change.git import Repo
from provscore.errors import InputError, ProvscoreError
from provscore.grader.inputs import hidden_test_paths as protected_paths
from provscore.model import Action, PathRole
from provscore.pipeline import ScoreRequest, score
from provscore.records import dataclass
from provscore.report.model import Report
from provscore.session import Session

# Write-set roles on the test side of the tree: a patch with one of them "touches tests".
TEST_SIDE = frozenset({PathRole.TEST, PathRole.CONFTEST, PathRole.HELPER, PathRole.FIXTURE})
# Rules whose finding means there was no change to judge: the row is unscored, its reason
# the rule (by name, as stable as a code).
UNREADABLE = {"diff-unparseable": Reason.DIFF_UNPARSEABLE,
              "patch-does-not-apply": Reason.DOES_NOT_APPLY,
              "empty-patch": Reason.EMPTY_PATCH}


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    """How every worker scores (picklable: sent to local processes and Dask workers)."""

    cache_path: str | None  # the call-graph summary cache (SQLite); None = memory only
    static_only: bool = False  # never pass a report's tests as results


class Mirror:
    """The mirror a worker reads, kept open from one patch to the next (one ``git cat-file
    --batch`` for all its blobs, its trees and commits kept) until another is asked for."""

    def __init__(self) -> None:
        self.repo: Repo | None = None
        self.commits: set[str] = set()  # base commits found in it: asked once, not per patch

    def open(self, path: Path) -> Repo:
        if self.repo is None or self.repo.root != path:
            self.close()
            self.repo = Repo(path, long_lived=True)
        return self.repo

    def close(self) -> None:
        if self.repo is not None:
            self.repo.close()
        self.repo = None
        self.commits.clear()


class WorkerState:
    """One process's session; its summary cache is renewed per repository."""

    def __init__(self, config: WorkerConfig) -> None:
        self.config = config
        self.session = Session.load(cache=self._cache())
        self.repo: str | None = None
        self.mirror = Mirror()

    def _cache(self) -> SummaryCache:
        path = self.config.cache_path
        return SummaryCache(Path(path)) if path else SummaryCache()

    def for_repo(self, repo: str) -> Session:
        if self.repo is not None and repo != self.repo:
            self.session.cache.close()
            cache = self._cache()
            self.session = dataclasses.replace(self.session, open_cache=lambda: cache)
            self.session.evidence_tables().memo.clear()  # another repository's images
            self.mirror.close()
        self.repo = repo
        return self.session

    def score(self, chunk: Chunk) -> tuple[PatchRow, ...]:
        return tuple(score_task(task, self.for_repo(task.instance.repo if task.instance
                                                    else ""), self.config, self.mirror)
                     for task in chunk.tasks)

    def close(self) -> None:
        self.session.cache.close()
        self.mirror.close()


# Per thread of a pool's or Dask's worker process (never the batch's own): its session.
# A Dask worker may run several threads, and a SQLite connection belongs to the thread
# that opened it.
_STATES = threading.local()


def score_chunk(chunk: Chunk, config: WorkerConfig) -> tuple[int, tuple[PatchRow, ...]]:
    """Score every task of a chunk (the function local pools and Dask workers run)."""
    states: dict[WorkerConfig, WorkerState] = _STATES.__dict__.setdefault("by_config", {})
    state = states.get(config)
    if state is None:
        state = states[config] = WorkerState(config)
    return chunk.number, state.score(chunk)


def score_task(task: Task, session: Session, config: WorkerConfig,
               mirror: Mirror | None = None) -> PatchRow:
    """One row; ``mirror``: the worker's open mirror (None: opened for this task alone)."""
    if mirror is None:
        mirror = Mirror()
        try:
            return score_task(task, session, config, mirror)
        finally:
            mirror.close()
    started = time.perf_counter()
    inst = task.instance
    base = PatchRow(task.key, task.pred_file, inst.repo if inst else "",
                    inst.base_commit if inst else "", Status.UNSCORED)
    hidden, hidden_added = hidden_test_paths(inst.test_patch if inst else "")
    base = dataclasses.replace(base, hidden_tests=hidden)
    if inst is None:
        row = _unscored(base, Reason.UNKNOWN_INSTANCE, "not in the instances file")
    elif task.patch is None or not task.patch.strip():
        row = _unscored(base, Reason.EMPTY_PATCH, "model_patch is empty" if task.patch
                        is not None else "model_patch is null")
    elif task.mirror is None:
        row = _unscored(base, Reason.MISSING_MIRROR,
                        f"no mirror of {inst.repo} (looked for {inst.repo.replace('/', '__')})")
    else:
        try:
            row = _scored(base, task, session, config, hidden_added, mirror)
        except ProvscoreError as exc:
            reason = Reason.MISSING_COMMIT if isinstance(exc, _MissingCommit) else Reason.ERROR
            row = _unscored(base, reason, str(exc))
        except Exception as exc:  # one patch's failure must not end the batch
            row = _unscored(base, Reason.ERROR, f"internal error: {type(exc).__name__}: {exc}")
    return dataclasses.replace(row, seconds=round(time.perf_counter() - started, 4))


def _unscored(row: PatchRow, reason: Reason, detail: str) -> PatchRow:
    return dataclasses.replace(row, status=Status.UNSCORED, reason=reason.value,
                               detail=detail.splitlines()[0] if detail else "")


class _MissingCommit(ProvscoreError):
    pass


def _scored(row: PatchRow, task: Task, session: Session, config: WorkerConfig,
            hidden_added: frozenset[str], mirror: Mirror) -> PatchRow:
    assert task.instance is not None and task.mirror is not None and task.patch is not None
    inst = task.instance
    repo = mirror.open(task.mirror)
    if inst.base_commit not in mirror.commits:
        proc = repo.run_git(["cat-file", "-e", f"{inst.base_commit}^{{commit}}"])
        if proc.returncode != 0 or inst.base_commit.startswith("-"):
            raise _MissingCommit(f"{task.mirror}: commit {inst.base_commit} is not in the "
                                 "mirror")
        mirror.commits.add(inst.base_commit)
    outcome = task.outcome
    use_results = not config.static_only and outcome is not None and \
        outcome.report_path is not None
    with tempfile.TemporaryDirectory(prefix="provscore-batch-") as tmp:
        results: tuple[Path, ...] = ()
        if use_results:
            assert outcome is not None and outcome.report_path is not None
            results = (Path(outcome.report_path),)
            if outcome.report_json is not None:  # the file reports on other instances too
                results = (Path(tmp) / "report.json",)
                results[0].write_bytes(outcome.report_json)
        req = ScoreRequest(repo=task.mirror, base=inst.base_commit,
                           diff=task.patch.encode("utf-8", "surrogateescape"),
                           diff_origin=f"{task.pred_file}:{inst.instance_id}",
                           results=results, static_only=not use_results)
        req = with_hidden_tests(req, inst.test_patch)
        report = score(req, session, repo=repo)
    return report_row(row, report, session, hidden_added,
                      "results" if use_results else "static")


def with_hidden_tests(req: ScoreRequest, test_patch: str) -> ScoreRequest:
    """The paths the instance's hidden test diff creates, which the patch must not create
    first (PS807). A test patch that is no diff protects nothing; the row still records
    what it touched."""
    if not test_patch.strip():
        return req
    try:
        paths = protected_paths(test_patch.encode("utf-8", "surrogateescape"), "test_patch")
    except InputError:
        return req
    return dataclasses.replace(req, hidden_tests=paths)


def hidden_test_paths(test_patch: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """Every path the hidden test diff touches, and those it adds."""
    if not test_patch.strip():
        return (), frozenset()
    try:
        changes = parse_diff(test_patch, origin="test_patch")
    except InputError:
        return (), frozenset()
    touched = tuple(sorted({p for c in changes.files for p in c.paths}))
    added = frozenset(c.new_path for c in changes.files
                      if c.status is FileStatus.ADDED and c.new_path)
    return touched, added


def report_row(row: PatchRow, report: Report, session: Session, hidden_added: frozenset[str],
               mode: str) -> PatchRow:
    """The row of a finished report: counts by code, family and gate from the registry."""
    rules = session.registry.rules
    findings = []
    for f in report.findings:
        rule = rules.get(f.code)
        loc = f.location
        findings.append(FindingRow(f.code, f.name, rule.family if rule else "unknown",
                                   rule.gate.name if rule else "unknown", f.tally,
                                   f.action.value, loc.path if loc else None,
                                   loc.line if loc else None, f.message))
    labels: Counter[str] = Counter()
    for per_label in report.evidence.values():
        labels.update(per_label)
    roles = Counter(w.role for w in report.write_set)
    unreadable = next((UNREADABLE[f.name] for f in report.findings if f.name in UNREADABLE),
                      None)
    fc = report.first_cause
    detail = f"{fc.code}: {fc.message}".splitlines()[0] if fc else ""
    return dataclasses.replace(
        row, status=Status.UNSCORED if unreadable else Status.SCORED,
        reason=unreadable.value if unreadable else "", detail=detail,
        decision=report.decision.value, merge_score=report.merge_score, evidence_mode=mode,
        files=len(report.write_set), roles=tuple(sorted(roles.items())),
        touches_tests=any(PathRole(r) in TEST_SIDE for r in roles),
        evidence_removed=labels["agent_removed"],
        evidence_weakened=labels["agent_modified:weakened"],
        evidence_added=labels["agent_added"],
        codes=_count(f.code for f in findings),
        families=_count(f.family for f in findings),
        gates=_count(f.gate for f in findings if f.action != Action.INFO.value),
        hidden_created=tuple(sorted(w.path for w in report.write_set
                                    if w.status == "added" and w.path in hidden_added)),
        findings=tuple(findings))


def _count(values: object) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(Counter(values).items()))  # type: ignore[call-overload]

