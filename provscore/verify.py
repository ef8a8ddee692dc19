"""``provscore run`` and ``provscore verify``: from a patch to an off-tree run (and a decision).

Orchestration like :mod:`provscore.pipeline`: the static stages decide whether to run at
all, the run ledger decides whether this patch may run again, the runner runs, and
``verify`` scores the run's results with the same pipeline ``score`` uses.

Refused before anything runs (the report says why; PS502's detail names it):

* the diff does not parse (PS901), does not apply to base (``git apply --check``, PS902),
  or has a path that escapes the repository (PS304);
* the write set is too wide (PS303);
* a static gate already rejects and the contract sets ``runner.run_after_static_reject =
  false`` (by default the run still happens, so the report shows both);
* the patch already has ``runner.max_runs_per_patch`` runs in the run ledger (PS509);
* a sandbox is required (``--require-sandbox``, ``runner.require_sandbox``) and there is
  none (PS508 as a reject).

A run that executed gets one row in the oracle dir's run ledger (its verdict: the decision
for ``verify``; ``passed``/``failed`` for ``run``), appended while this run holds the
patch's lock, so two concurrent runs of one patch cannot both take the last slot.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import field, replace
from datetime import UTC, datetime
from pathlib import Path

from provscore.change.diff import decode_diff
from provscore.change.git import DIFF_OPTIONS, Repo
from provscore.change.strict import AmbiguousDiff, check_unambiguous
from provscore.errors import UsageError
from provscore.ledger import flake_rows
from provscore.model import Action
from provscore.oracle.contract import Contract
from provscore.oracle.flake import append_rows, read_flake_ledger
from provscore.oracle.load import oracle_input_exists, oracle_prefixes
from provscore.oracle.runlog import RunLogRow, append_run_row, read_run_log, runs_of
from provscore.pipeline import Prepared, ScoreRequest, judge, prepare
from provscore.records import dataclass
from provscore.report.model import Report
from provscore.results import Verdict
from provscore.runner import RunOptions, RunRecord
from provscore.runner.execute import RunSpec, execute_run, refused
from provscore.runner.output import new_run_id, patch_id_of, write_outputs
from provscore.runner.properties import PropertySpec, catalog_specs
from provscore.session import Session

_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]")
_REFUSING = {"PS901": "the diff does not parse", "PS902": "the patch does not apply to base",
             "PS304": "a path of the patch escapes the repository",
             "PS303": "the write set is too wide (PS303): split the patch",
             "PS904": "the patch changes nothing (PS904)"}


@dataclass(frozen=True, slots=True)
class RunRequest:
    """A patch to run: what to score (as for ``score``) and how to run it."""

    score: ScoreRequest
    options: RunOptions = field(default_factory=RunOptions)
    out_dir: Path | None = None  # run.json, results-N.json, junit-N.xml under <out>/<run id>
    properties: tuple[PropertySpec, ...] | None = None  # None: the oracle dir's test files


@dataclass(frozen=True, slots=True)
class RunOutcome:
    record: RunRecord
    report: Report | None = None  # verify only
    written: Path | None = None  # the run's directory under --out

    def summary(self) -> list[str]:
        """What ``provscore run`` prints: one line each."""
        r = self.record
        if r.refused:
            return [f"run {r.run_id} of patch {r.patch_id} refused: {r.refused}"]
        props = len(r.properties)
        lines = [f"run {r.run_id} of patch {r.patch_id}: {len(r.base_tests)} base test(s) x "
                 f"{r.repeats} repeat(s), {props} oracle propert{'y' if props == 1 else 'ies'}, "
                 f"sandbox {r.sandbox}, {r.wall_seconds:.1f} s"]
        if r.sandbox == "none":
            lines.append(f"not sandboxed: {r.sandbox_note}")
        if r.base_error:
            lines.append(f"no evidence: {r.base_error}")
        bad = sorted({o.node_id for run in r.runs for o in run.outcomes
                      if o.verdict in (Verdict.FAILED, Verdict.ERROR)})
        if bad:
            shown = ", ".join(bad[:5]) + (f" and {len(bad) - 5} more" if len(bad) > 5 else "")
            lines.append(f"{len(bad)} failed: {shown}")
        lines += [f"killed at the wall clock: {k.what}" for k in (*r.kills, *r.property_timeouts)]
        if r.tampered:
            lines.append(f"protected paths changed: {', '.join(r.tampered[:5])}")
        lines.append(f"corpus digest {r.corpus_digest}; fingerprint "
                     f"{r.fingerprint.digest if r.fingerprint else '-'}")
        if self.written is not None:
            lines.append(f"wrote {self.written}")
        # Node ids and messages may come from the patch: shown, never obeyed by a terminal.
        return [_CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", line) for line in lines]


def run_patch(req: RunRequest, session: Session | None = None) -> RunOutcome:
    """``provscore run``: the run and its outputs, no decision."""
    with _session_run(req, session or Session.load(), "run") as (_, record, finish):
        finish(_run_verdict(record))
    return _written(req, record)


def verify(req: RunRequest, session: Session | None = None) -> RunOutcome:
    """``provscore verify``: the run, then the score over its results."""
    with _session_run(req, session or Session.load(), "verify") as (prepared, record, finish):
        scored = replace(prepared, req=replace(prepared.req, run=record))
        report = judge(scored, record.runs)
        finish(report.decision.value)
    return replace(_written(req, record), report=report)


def _written(req: RunRequest, record: RunRecord) -> RunOutcome:
    if req.out_dir is None or not record.ran:
        return RunOutcome(record)
    return RunOutcome(record, written=write_outputs(record, req.out_dir))


def _run_verdict(record: RunRecord) -> str:
    bad = {Verdict.FAILED, Verdict.ERROR}
    failed = any(o.verdict in bad for r in record.runs for o in r.outcomes) or bool(
        record.kills or record.property_timeouts or record.tampered or record.base_error)
    return "failed" if failed else "passed"


class _Finish:
    """Appends the run's ledger rows once its verdict is known (only for a run that ran)."""

    def __init__(self, req: RunRequest, record: RunRecord, command: str,
                 log: Path | None) -> None:
        self.req, self.record, self.command, self.log = req, record, command, log

    def __call__(self, verdict: str) -> None:
        record, contract, oracle = self.record, self.req.score.contract, \
            self.req.score.oracle_dir
        if not record.ran or oracle is None:
            return
        env = record.fingerprint.digest if record.fingerprint else ""
        if self.log is not None:
            append_run_row(self.log, RunLogRow(
                record.run_id, record.patch_id, record.subset, record.wall_seconds, verdict,
                datetime.now(UTC).isoformat(timespec="seconds"), env, self.command))
        if self.req.options.record_flakes and record.runs:
            target = contract.oracle_path(oracle, contract.flake_ledger_path)
            if oracle_input_exists(target, "flake ledger"):
                read_flake_ledger(target)  # never append to a malformed ledger
            ids = [f"{record.run_id}#{n}" for n in range(1, len(record.runs) + 1)]
            rows = flake_rows(record.runs, ids, env)
            if rows:
                append_rows(target, rows)


@contextlib.contextmanager
def _session_run(req: RunRequest, session: Session, command: str
                 ) -> Iterator[tuple[Prepared, RunRecord, _Finish]]:
    """Prepare, refuse or run under the patch's run-ledger lock, then let the caller finish."""
    score_req = req.score
    repo = Repo(score_req.repo)
    base_sha = repo.resolve(score_req.base)
    patch = _binary_diff(repo, base_sha, repo.resolve(score_req.head)) if score_req.head \
        else (score_req.diff or b"")
    # The static stage applies the patch with git itself: one that git refuses is PS902.
    prepared = prepare(score_req, session)
    try:
        strip = check_unambiguous(decode_diff(patch)) if patch.strip() else 1
    except AmbiguousDiff:
        strip = 1  # the static stage refused it (PS901): nothing runs
    _check_subset(prepared, req.options.subset)
    contract = score_req.contract
    spec = RunSpec(
        repo=prepared.repo, base_sha=prepared.base_sha, patch=patch,
        write_set=prepared.static.write_set,
        collection=prepared.static.facts.change.runner.collection,
        base_options=prepared.static.facts.change.runner.base, contract=contract,
        run_id=new_run_id(), patch_id=req.options.patch_id or patch_id_of(base_sha, patch),
        options=req.options, oracle_dir=score_req.oracle_dir,
        oracle_prefixes=oracle_prefixes(prepared.repo.top, score_req.oracle_dir),
        read_by_tests=prepared.static.facts.expected_paths, frozen=prepared.oracle.frozen,
        properties=_properties(req, prepared), out_dir=req.out_dir, strip=strip)
    reason = _refusal(prepared, contract)
    with _patch_lock(score_req.oracle_dir, contract, spec.patch_id) as log:
        done = runs_of(read_run_log(log), spec.patch_id) if log is not None else 0
        if reason is not None:
            record = refused(spec, reason)
        elif done >= contract.max_runs_per_patch:
            record = refused(spec, f"patch {spec.patch_id} has used its "
                             f"{contract.max_runs_per_patch} runs",
                             cap=(done, contract.max_runs_per_patch))
        else:
            record = execute_run(spec)
        yield prepared, record, _Finish(req, record, command, log)


def _properties(req: RunRequest, prepared: Prepared) -> tuple[PropertySpec, ...] | None:
    """What to run as properties: the request's, else the catalog's check functions, else
    (None) the test files of the oracle dir."""
    if req.properties is not None:
        return req.properties
    catalog, oracle = prepared.oracle.catalog, req.score.oracle_dir
    if catalog is None or oracle is None:
        return None
    return catalog_specs(catalog, oracle)


def _binary_diff(repo: Repo, base_sha: str, head_sha: str) -> bytes:
    """The patch from base to head that ``git apply`` turns into head's tree, binary
    files included (the analysed diff has no binary hunks)."""
    return repo.run_bytes([*DIFF_OPTIONS, "diff", "--no-color", "--no-ext-diff", "--no-textconv",
                           "--binary", "--full-index", "--src-prefix=a/", "--dst-prefix=b/",
                           base_sha, head_sha, "--"], what="git diff --binary failed")


def _refusal(prepared: Prepared, contract: Contract) -> str | None:
    codes = {f.code for f in prepared.static.findings}
    for code, why in _REFUSING.items():
        if code in codes:
            return why
    rejects = [f for f in prepared.static.findings if f.action is Action.REJECT]
    if rejects and not contract.run_after_static_reject:
        return (f"a static gate already rejects ({rejects[0].code}) and the contract sets "
                "runner.run_after_static_reject = false")
    return None


def _check_subset(prepared: Prepared, subset: tuple[str, ...]) -> None:
    if not subset:
        return
    paths = [e.path for e in prepared.repo.ls_tree(prepared.base_sha)]
    for item in subset:
        file = item.split("::", 1)[0].rstrip("/")
        if not any(p == file or p.startswith(file + "/") for p in paths):
            raise UsageError(f"--subset {item!r}: no such test file or directory at base")


@contextlib.contextmanager
def _patch_lock(oracle_dir: Path | None, contract: Contract,
                patch_id: str) -> Iterator[Path | None]:
    """The run ledger's path, with this patch's lock held (None without an oracle dir)."""
    if oracle_dir is None:
        yield None
        return
    log = contract.oracle_path(oracle_dir, contract.run_log_path)
    key = hashlib.sha256(f"{log.resolve()}\0{patch_id}".encode()).hexdigest()[:16]
    lock = Path(tempfile.gettempdir()) / f"provscore-run-lock-{key}"
    fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield log
    finally:
        os.close(fd)


def corpus_digest_of(repo_dir: Path, base: str, oracle_dir: str | None,
                     python: str | None) -> str:
    """``provscore run --digest-only``: the corpus digest a run at ``base`` would record."""
    from provscore.change.runner_config import CONFIG_FILES, COVERAGE_FILES, read_base_runner
    from provscore.change.runners import RUNNER_SCRIPTS
    from provscore.change.suites import NAMING_FILES
    from provscore.oracle.contract import load_oracle_contract
    from provscore.runner.corpus import corpus_digest, lock_hash
    from provscore.runner.fingerprint import probe, resolve_python

    oracle = Path(oracle_dir) if oracle_dir else None
    contract = load_oracle_contract(oracle)
    repo = Repo(repo_dir)
    base_sha = repo.resolve(base)
    # The files read_change reads base's runner from (setup.py names the scripts it runs).
    wanted = (*CONFIG_FILES, *COVERAGE_FILES, *RUNNER_SCRIPTS, *NAMING_FILES)
    # Base's collection rules and where its tests are, as read_change reads them.
    runner = read_base_runner(repo.read_blobs(base_sha, wanted), repo.tree(base_sha))
    with tempfile.TemporaryDirectory(prefix="provscore-digest-") as tmp:
        interp = probe(resolve_python(python), cwd=Path(tmp),
                       lock_hash=lock_hash(repo, base_sha, contract.lock_files))
    return corpus_digest(repo, base_sha, config=runner.collection, options=runner.options,
                         lock_files=contract.lock_files, fixture_roots=contract.fixture_roots,
                         oracle_prefixes=oracle_prefixes(repo.top, oracle),
                         python=interp.fingerprint.python)
