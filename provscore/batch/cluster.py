"""``--scheduler ADDRESS``: the same chunks, scored on an existing Dask cluster.

Every worker must import this provscore and see the same paths as the client (the
mirrors, the prediction files' patches travel inside the tasks, the summary cache path).
Each Dask worker process builds one session, as a local worker does (worker.py). Results
come back to this process, which alone writes the database.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

from provscore.batch.extras import require
from provscore.batch.model import Chunk, PatchRow
from provscore.batch.worker import WorkerConfig, score_chunk
from provscore.errors import UsageError

_IN_FLIGHT_PER_THREAD = 2


def run_on_dask(address: str, chunks: Iterator[Chunk], config: WorkerConfig,
                store: Callable[[Sequence[PatchRow]], None]) -> None:
    distributed = require("distributed", "dask", "for --scheduler")
    try:
        client = distributed.Client(address, timeout="20s", set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise UsageError(f"--scheduler {address}: cannot reach the Dask scheduler ({exc})"
                         ) from None
    try:
        threads = sum(client.nthreads().values()) or 1
        window = distributed.as_completed()
        in_flight = 0
        for chunk in chunks:
            window.add(client.submit(score_chunk, chunk, config, pure=False,
                                     key=f"provscore-chunk-{chunk.number}-{id(chunk)}"))
            in_flight += 1
            if in_flight >= threads * _IN_FLIGHT_PER_THREAD:
                in_flight -= _collect(next(window), store)
        for future in window:
            _collect(future, store)
    finally:
        client.close()


def _collect(future: Any, store: Callable[[Sequence[PatchRow]], None]) -> int:
    _, rows = future.result()
    store(rows)
    future.release()
    return 1
