"""``--scheduler ADDRESS``: the same chunks, scored on an existing Dask cluster.

Every worker must import this provscore and see the same paths as the client (the
mirrors, the summary cache path; the patches travel inside the tasks). Each Dask worker
thread builds one session, as a local worker process does (worker.py). Results come back
to this process, which alone writes the database.
"""

from __future__ import annotations

import socket
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from provscore.batch.extras import require
from provscore.batch.model import Chunk, PatchRow
from provscore.batch.worker import WorkerConfig, score_chunk
from provscore.errors import UsageError

_IN_FLIGHT_PER_THREAD = 2
CONNECT_TIMEOUT = 10  # seconds


def connect(address: str) -> Any:
    """A client of the scheduler at ``address``, or one line saying why there is none
    (called before any work starts, so a wrong address costs nothing).

    The address is checked first (scheme known, TCP port open): a Client that fails to
    connect retries until its timeout and then prints a traceback while it is collected."""
    distributed = require("distributed", "dask", "for --scheduler")
    comm = require("distributed.comm", "dask", "for --scheduler")
    try:
        scheme, location = comm.parse_address(address)
        comm.registry.get_backend(scheme)
        if scheme in ("tcp", "tls"):
            host, port = comm.parse_host_port(location)
            socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
        return distributed.Client(address, timeout=f"{CONNECT_TIMEOUT}s",
                                  set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise UsageError(f"--scheduler {address}: cannot reach the Dask scheduler ({exc})"
                         ) from None


def run_on_dask(client: Any, chunks: Iterator[Chunk], config: WorkerConfig,
                store: Callable[[Sequence[PatchRow]], None]) -> None:
    """Submit chunks as the cluster's threads free up; store each result as it comes."""
    distributed = require("distributed", "dask", "for --scheduler")
    threads = sum(client.nthreads().values()) or 1
    # Bound to this client's loop: the client is never made the process default.
    window = distributed.as_completed(loop=client.loop)
    in_flight = 0
    for chunk in chunks:
        window.add(client.submit(score_chunk, chunk, config, pure=False,
                                 key=f"provscore-chunk-{chunk.number}-{id(chunk)}"))
        in_flight += 1
        if in_flight >= threads * _IN_FLIGHT_PER_THREAD:
            _collect(next(window), store)
            in_flight -= 1
    for future in window:
        _collect(future, store)


def _collect(future: Any, store: Callable[[Sequence[PatchRow]], None]) -> None:
    _, rows = future.result()  # a task's exception is raised here
    store(rows)
    future.release()
