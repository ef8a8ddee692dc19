"""``provscore batch``: plan the pending rows, score them in workers, write each chunk.

Planning reads every prediction file once (keys and byte spans, no patch text), drops the
rows the database already has, and orders the rest by repository and base commit so that
one worker scores a repository's patches together (its parsed files and call graph are
reused). Chunks are made lazily and only a few are in flight per worker, so memory does
not grow with the number of patches.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import runpy
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

from provscore.batch.inputs import PredictionFile, plan_predictions, read_instances, read_patch
from provscore.batch.model import Chunk, Instance, Outcome, PatchRow, PredictionRef, Status, Task
from provscore.batch.progress import Progress
from provscore.batch.reports import ReportSource, load_outcomes
from provscore.batch.store import ResultsDB
from provscore.batch.worker import WorkerConfig, WorkerState, score_chunk
from provscore.errors import ProvscoreError, UsageError
from provscore.records import dataclass

#: Chunks in flight per worker: enough to keep it busy, few enough to bound memory.
IN_FLIGHT_PER_WORKER = 2


@dataclass(frozen=True, slots=True)
class BatchRequest:
    predictions: tuple[Path, ...]
    instances: Path
    repos: Path
    db: Path
    reports: tuple[ReportSource, ...] = ()
    jobs: int = 1
    scheduler: str | None = None  # a Dask scheduler address: run the chunks there
    cache_path: Path | None = None  # the call-graph summary cache; None = memory only
    static_only: bool = False  # never feed a report's tests to the score as results
    force: bool = False  # score again the rows the database already has
    chunk_size: int = 8


@dataclass(frozen=True, slots=True)
class BatchSummary:
    """What a run did: rows planned, skipped as done, written, and why rows are unscored."""

    planned: int
    skipped: int
    scored: int
    unscored: int
    seconds: float
    reasons: tuple[tuple[str, int], ...] = ()
    outcomes: int = 0

    @property
    def written(self) -> int:
        return self.scored + self.unscored


class WorkerFailed(ProvscoreError):
    """A worker process died; the rows already committed stay, a rerun resumes."""


def run_batch(req: BatchRequest, progress: Progress | None = None) -> BatchSummary:
    started = time.monotonic()
    if req.jobs < 1:
        raise UsageError(f"-j must be at least 1, got {req.jobs}")
    if not req.repos.is_dir():
        raise UsageError(f"--repos {req.repos}: not a directory")
    instances = read_instances(req.instances)
    files, refs = _plan(req.predictions)
    outcomes = load_outcomes(req.reports, frozenset(r.key.model for r in refs)) \
        if req.reports else {}
    client = None
    if req.scheduler:
        from provscore.batch.cluster import connect

        client = connect(req.scheduler)
    try:
        db = ResultsDB(req.db)
    except BaseException:
        if client is not None:
            client.close()
        raise
    try:
        if outcomes:
            db.write_outcomes(outcomes)
        done = set() if req.force else db.done_keys()
        pending = [r for r in refs if r.key not in done]
        pending.sort(key=lambda r: _order(r, instances))
        progress = progress or Progress(len(pending), enabled=False)
        progress.start(len(pending))
        chunks = _chunks(pending, files, instances, req, outcomes)
        config = WorkerConfig(str(req.cache_path) if req.cache_path else None,
                              req.static_only)
        counts: Counter[str] = Counter()

        def store(rows: Sequence[PatchRow]) -> None:
            db.write_chunk(rows, replace=req.force)
            for row in rows:
                counts[row.status.value] += 1
                if row.reason:
                    counts[f"reason:{row.reason}"] += 1
            progress.advance(len(rows), sum(r.status is Status.UNSCORED for r in rows))

        _execute(chunks, config, req, store, client)
        progress.finish()
    finally:
        db.close()
        if client is not None:
            client.close()
    return BatchSummary(len(refs), len(refs) - len(pending), counts[Status.SCORED.value],
                        counts[Status.UNSCORED.value], round(time.monotonic() - started, 3),
                        tuple(sorted((k.removeprefix("reason:"), v) for k, v in counts.items()
                                     if k.startswith("reason:"))), len(outcomes))


def _plan(paths: Sequence[Path]) -> tuple[list[PredictionFile], list[PredictionRef]]:
    files: list[PredictionFile] = []
    refs: list[PredictionRef] = []
    for index, path in enumerate(paths):
        pf, rows = plan_predictions(path, index)
        files.append(pf)
        refs.extend(rows)
    return files, refs


def _order(ref: PredictionRef, instances: dict[str, Instance]) -> tuple[str, str, str, str]:
    inst = instances.get(ref.key.instance_id)
    return (inst.repo if inst else "", inst.base_commit if inst else "", ref.key.model,
            ref.key.instance_id)


def mirror_of(repos: Path, repo: str) -> Path | None:
    """The local mirror of ``owner/name``: ``owner__name`` or ``owner__name.git``."""
    name = repo.replace("/", "__")
    for candidate in (repos / name, repos / f"{name}.git"):
        if candidate.is_dir():
            return candidate
    return None


def _chunks(pending: Sequence[PredictionRef], files: Sequence[PredictionFile],
            instances: dict[str, Instance], req: BatchRequest,
            outcomes: dict[tuple[str, str], Outcome]) -> Iterator[Chunk]:
    """Tasks in planned order, cut at every repository change and every chunk_size."""
    mirrors: dict[str, Path | None] = {}
    tasks: list[Task] = []
    number = 0
    current: str | None = None
    for ref in pending:
        inst = instances.get(ref.key.instance_id)
        repo = inst.repo if inst else ""
        if tasks and (repo != current or len(tasks) >= req.chunk_size):
            yield Chunk(number, tuple(tasks))
            number, tasks = number + 1, []
        current = repo
        if inst and repo not in mirrors:
            mirrors[repo] = mirror_of(req.repos, repo)
        pf = files[ref.file_index]
        tasks.append(Task(ref.key, str(pf.path), read_patch(pf, ref), inst,
                          mirrors.get(repo), outcomes.get((ref.key.model, ref.key.instance_id))))
    if tasks:
        yield Chunk(number, tuple(tasks))


def _execute(chunks: Iterator[Chunk], config: WorkerConfig, req: BatchRequest,
             store: Callable[[Sequence[PatchRow]], None], client: Any) -> None:
    if client is not None:
        from provscore.batch.cluster import run_on_dask

        run_on_dask(client, chunks, config, store)
    elif req.jobs == 1:  # in this process, with a session that ends with the batch
        state = WorkerState(config)
        try:
            for chunk in chunks:
                store(state.score(chunk))
        finally:
            state.close()
    else:
        _run_local(chunks, config, req.jobs, store)


def _run_local(chunks: Iterator[Chunk], config: WorkerConfig, jobs: int,
               store: Callable[[Sequence[PatchRow]], None]) -> None:
    """``-j N`` processes; each keeps one session for every chunk it is given."""
    # spawn: a worker never inherits the parent's open SQLite connection.
    context = multiprocessing.get_context("spawn")
    # Each worker first binds ``provscore`` to this process's package (spawn_home.py).
    home = str(Path(__file__).with_name("spawn_home.py"))
    with cf.ProcessPoolExecutor(max_workers=jobs, mp_context=context,
                                initializer=runpy.run_path, initargs=(home,)) as pool:
        in_flight: set[cf.Future[tuple[int, tuple[PatchRow, ...]]]] = set()
        try:
            for chunk in chunks:
                in_flight.add(pool.submit(score_chunk, chunk, config))
                if len(in_flight) >= jobs * IN_FLIGHT_PER_WORKER:
                    in_flight = _drain(in_flight, store, cf.FIRST_COMPLETED)
            _drain(in_flight, store, cf.ALL_COMPLETED)
        except BaseException:
            for f in in_flight:
                f.cancel()
            raise


def _drain(futures: set[cf.Future[tuple[int, tuple[PatchRow, ...]]]],
           store: Callable[[Sequence[PatchRow]], None], when: str
           ) -> set[cf.Future[tuple[int, tuple[PatchRow, ...]]]]:
    done, rest = cf.wait(futures, return_when=when)
    for f in done:
        try:
            store(f.result()[1])
        except BrokenProcessPool:
            raise WorkerFailed("a worker process died (out of memory, or killed); the rows "
                               "committed so far are kept: run the same command again to "
                               "resume") from None
    return rest
