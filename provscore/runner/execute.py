"""One off-tree run, from a patch that applies to a :class:`RunRecord`.

The order: detect the sandbox (refuse when one is required and there is none), resolve
and fingerprint the interpreter, build the two worktrees, snapshot the protected paths,
collect the base tests in the reference tree *while* the first repeat runs in the patched
tree, run the other repeats, run the oracle properties, compare the protected paths, and
give every base test a result. The workspace is removed on every way out.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import field, replace
from pathlib import Path
from types import FrameType

from provscore.change.collection import CollectionConfig
from provscore.change.git import Repo
from provscore.change.runner_config import RunnerOptions
from provscore.change.writeset import WriteSet, classify_path
from provscore.oracle.contract import Contract
from provscore.records import dataclass
from provscore.results import RunResults
from provscore.runner import base_run, integrity
from provscore.runner.corpus import CORPUS_ROLES, corpus_digest, corpus_paths, lock_hash
from provscore.runner.fingerprint import probe, resolve_python
from provscore.runner.jobs import Jobs
from provscore.runner.model import FailureDigest, RunOptions, RunRecord
from provscore.runner.output import run_dir
from provscore.runner.properties import PropertyRun, PropertyRunner, PropertySpec
from provscore.runner.sandbox import Sandbox, detect_sandbox
from provscore.runner.workspace import Workspace

#: At most this many failing ids carry their lines into the report's digest.
MAX_DIGEST_ENTRIES = 200


@dataclass(frozen=True, slots=True)
class RunSpec:
    """Everything a run needs, resolved by the pipeline from the patch and base."""

    repo: Repo
    base_sha: str
    patch: bytes
    write_set: WriteSet
    collection: CollectionConfig  # base's collection rules
    base_options: RunnerOptions  # base's pytest configuration
    contract: Contract
    run_id: str
    patch_id: str
    options: RunOptions = field(default_factory=RunOptions)
    oracle_dir: Path | None = None
    oracle_prefixes: tuple[str, ...] = ()
    read_by_tests: frozenset[str] = frozenset()
    frozen: frozenset[str] = frozenset()
    properties: tuple[PropertySpec, ...] | None = None  # None: the oracle dir's test files
    out_dir: Path | None = None  # where pytest's JUnit XML of each repeat is kept
    strip: int = 1  # the -p level git applies the patch with (1: a/ and b/ prefixes)


def refused(spec: RunSpec, reason: str, sandbox: Sandbox | None = None, *,
            cap: tuple[int, int] | None = None) -> RunRecord:
    return RunRecord(spec.run_id, spec.patch_id, subset=subset_label(spec.options.subset),
                     sandbox=sandbox.kind if sandbox else "none",
                     sandbox_note=sandbox.note if sandbox else "", refused=reason,
                     require_sandbox=_require(spec), cap=cap,
                     expected_corpus_digest=spec.contract.expected_corpus_digest or None)


def subset_label(subset: Sequence[str]) -> str:
    text = " ".join(subset) if subset else "full"
    return text if len(text) <= 200 else text[:199] + "…"


def _require(spec: RunSpec) -> bool:
    return spec.options.require_sandbox or spec.contract.require_sandbox


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM (a CI job cancelled) unwinds like Ctrl-C, so the workspace is removed."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def raise_interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def execute_run(spec: RunSpec) -> RunRecord:
    """Run the base corpus and the oracle properties against the patch (module docstring)."""
    started = time.monotonic()
    sandbox = detect_sandbox(spec.options.sandbox)
    if not sandbox.active and _require(spec):
        return refused(spec, f"a sandbox is required and there is none: {sandbox.note}",
                       sandbox)
    python = resolve_python(spec.options.python)
    with terminate_as_interrupt(), Workspace(spec.repo, spec.base_sha, spec.run_id) as ws:
        record = _run_in(ws, spec, sandbox, python)
    return replace(record, wall_seconds=time.monotonic() - started)


def _run_in(ws: Workspace, spec: RunSpec, sandbox: Sandbox, python: str) -> RunRecord:
    contract = spec.contract
    locks = lock_hash(spec.repo, spec.base_sha, contract.lock_files)
    interp = probe(python, cwd=ws.boot, lock_hash=locks)
    digest = corpus_digest(spec.repo, spec.base_sha, config=spec.collection,
                           options=spec.base_options, lock_files=contract.lock_files,
                           fixture_roots=contract.fixture_roots,
                           oracle_prefixes=spec.oracle_prefixes,
                           python=interp.fingerprint.python)
    at_base = {e.path for e in spec.repo.ls_tree(spec.base_sha)}
    ws.add_reference()
    ws.add_patched(spec.patch, corpus_paths(spec.write_set, spec.read_by_tests), at_base,
                   strip=spec.strip)
    jobs = Jobs(ws, sandbox, python, interp.paths, oracle_dir=spec.oracle_dir,
                tail=contract.failure_tail_lines, extra_env=_extra_env(contract))
    is_corpus = _corpus_test(spec)
    ledgers = [contract.oracle_path(spec.oracle_dir, p) for p in
               (contract.run_log_path, contract.flake_ledger_path)] if spec.oracle_dir else []
    before = integrity.snapshot(oracle_dir=spec.oracle_dir, reference=ws.reference,
                                patched=ws.patched, is_corpus=is_corpus, ledgers=ledgers)
    repeats, base = _base_runs(jobs, ws, spec)
    props = PropertyRun()
    if spec.oracle_dir is not None:
        props = PropertyRunner(jobs, spec.oracle_dir, ws.patched,
                               timeout=contract.property_timeout_s,
                               import_roots=_ini_roots(ws.patched, spec.base_options)
                               ).run(spec.properties)
    after = integrity.snapshot(oracle_dir=spec.oracle_dir, reference=ws.reference,
                               patched=ws.patched, is_corpus=is_corpus, ledgers=ledgers)
    runs = [r.results for r in repeats]
    if spec.out_dir is not None:
        _keep_junit(runs, run_dir(spec.out_dir, spec.run_id))
    if runs and props.outcomes:
        first = runs[0]
        runs[0] = RunResults(first.source, first.format, (*first.outcomes, *props.outcomes))
    kills = tuple(k for k in (base.kill, *(r.kill for r in repeats)) if k is not None)
    return RunRecord(
        spec.run_id, spec.patch_id, subset=subset_label(spec.options.subset),
        sandbox=sandbox.kind, sandbox_note=sandbox.note, require_sandbox=_require(spec),
        repeats=len(repeats), corpus_digest=digest,
        expected_corpus_digest=contract.expected_corpus_digest or None,
        fingerprint=interp.fingerprint, base_tests=base.ids, runs=tuple(runs),
        properties=tuple(o.node_id for o in props.outcomes),
        property_timeouts=props.timeouts, kills=kills,
        killed_ids=frozenset().union(*(r.killed_ids for r in repeats)),
        failures=_digest(repeats, props, contract.failure_tail_lines),
        tampered=integrity.changed(before, after), base_error=base.error,
        out_dir=str(run_dir(spec.out_dir, spec.run_id)) if spec.out_dir else None)


def _base_runs(jobs: Jobs, ws: Workspace, spec: RunSpec
               ) -> tuple[list[base_run.Repeat], base_run.BaseCollection]:
    """Collection at base runs alongside the first repeat (the machine has the cores)."""
    timeout = spec.contract.run_timeout_s
    subset = spec.options.subset
    collecting = base_run.start_collection(jobs, ws.reference, subset, timeout)
    first = base_run.start_repeat(jobs, ws.patched, 1, frozen=spec.frozen, subset=subset,
                                  timeout=timeout)
    # Only base code runs in the collection: its stream is read whole, however many ids.
    progress, total = spec.options.progress, spec.options.repeat
    if progress is not None:
        progress("running the base corpus", 0, total)
    try:
        base = base_run.collection(jobs.finish(collecting, expected_tests=1 << 20))
    except BaseException:  # Ctrl-C while collecting: the patched run, in its own session,
        first.bounded.finish_now()  # would outlive us
        raise
    expected = len(base.ids)
    done = [jobs.finish(first, expected)]
    if base.error is not None:
        return [], base
    for n in range(2, total + 1):
        if progress is not None:
            progress("running the base corpus", n - 1, total)
        done.append(jobs.finish(base_run.start_repeat(
            jobs, ws.patched, n, frozen=spec.frozen, subset=subset, timeout=timeout),
            expected))
    if progress is not None:
        progress("running the base corpus", total, total)
    return [base_run.complete_repeat(job, i, base=base, frozen=spec.frozen,
                                     tail=spec.contract.failure_tail_lines)
            for i, job in enumerate(done)], base


def _keep_junit(runs: Sequence[RunResults], target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for n, results in enumerate(runs, start=1):
        junit = Path(results.source)
        if junit.is_file():
            shutil.copyfile(junit, target / f"junit-{n}.xml")


def _corpus_test(spec: RunSpec) -> Callable[[str], bool]:
    def is_corpus(path: str) -> bool:
        role = classify_path(path, spec.collection, oracle_prefixes=spec.oracle_prefixes,
                             fixture_roots=spec.contract.fixture_roots)
        return role in CORPUS_ROLES or path in spec.read_by_tests
    return is_corpus


def _ini_roots(tree: Path, options: RunnerOptions) -> list[str]:
    """base's pytest ``pythonpath`` entries, for property runs (their config is not base's)."""
    value = options.ini.get("pythonpath", "")
    return [str(tree / p) for p in value.split() if p and not Path(p).is_absolute()]


def _extra_env(contract: Contract) -> Mapping[str, str]:
    trials = str(contract.property_trials)
    env = {"PROPERTY_TRIALS": trials, "PROVSCORE_PROPERTY_TRIALS": trials}
    env.update({k: os.environ[k] for k in contract.pass_env if k in os.environ})
    return env


def _digest(repeats: Sequence[base_run.Repeat], props: PropertyRun,
            k: int) -> tuple[FailureDigest, ...]:
    """The last K lines of every failing id, from the first run it failed in (its message
    when the failure left no lines)."""
    failing: dict[str, str] = {}
    for outcome in (*(o for r in repeats for o in r.results.outcomes), *props.outcomes):
        if outcome.verdict.value in ("failed", "error"):
            failing.setdefault(outcome.node_id, outcome.message)
    lines: dict[str, tuple[str, ...]] = {}
    for source in (*(r.failures for r in repeats), props.failures):
        for node_id, got in source.items():
            if node_id in failing and node_id not in lines and got:
                lines[node_id] = tuple(got[-k:])
    return tuple(FailureDigest(n, lines.get(n) or ((failing[n],) if failing[n] else ()))
                 for n in sorted(failing)[:MAX_DIGEST_ENTRIES])
