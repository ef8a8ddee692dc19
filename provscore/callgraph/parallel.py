"""Summarising a large tree on every core (a cold build): forked worker processes and
this one take chunks of files from one list, dealt by this process as each worker
finishes one, so every process ends within about one small chunk of the others.

The chunks run largest files first and shrink towards the end (guided self-scheduling).
A worker inherits the sources (``fork``: nothing is sent to it but chunk numbers) and
sends each file's summary back as the bytes the cache stores (``marshal`` of its record):
decoded here by a thread per worker while this process summarises its own chunks, and
stored as they are. A worker that cannot start, dies, or sends anything malformed only
ends its share: every chunk no worker delivered is summarised by the caller (a summary
depends on its file's bytes only, so the result is the serial one whatever happened).
"""

from __future__ import annotations

import marshal
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from provscore.callgraph.cache import SummaryCache
from provscore.callgraph.summary import FileSummary, summarise

if TYPE_CHECKING:  # multiprocessing is imported only when workers are started
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

#: Chunks a worker holds at once, so that it never waits for the next number.
PREFETCH = 2
#: A chunk is at most this share of what is left, per process ...
_SHARE_OF_LEFT = 3
#: ... and at least this share of all the bytes, per process.
_SHARE_OF_ALL = 48

#: A worker's decoded chunk: per file, its summary and the bytes the cache stores.
Delivered = list[tuple[FileSummary, bytes]]


def chunked(todo: Mapping[str, bytes], processes: int) -> list[list[str]]:
    """The blobs of ``todo`` in chunks: largest files first, each chunk a share of the
    bytes left (the first ones large, the last ones small)."""
    blobs = sorted(todo, key=lambda b: (-len(todo[b]), b))
    left = sum(len(todo[b]) for b in blobs)
    smallest = left / (_SHARE_OF_ALL * processes)
    chunks: list[list[str]] = []
    k = 0
    while k < len(blobs):
        budget = max(left / (_SHARE_OF_LEFT * processes), smallest)
        chunk: list[str] = []
        size = 0
        while k < len(blobs) and (not chunk or size + len(todo[blobs[k]]) <= budget):
            chunk.append(blobs[k])
            size += len(todo[blobs[k]])
            k += 1
        chunks.append(chunk)
        left -= size
    return chunks


def encoded(summary: FileSummary) -> bytes:
    """A summary as the cache stores it."""
    return marshal.dumps(summary.to_record())  # type: ignore[arg-type]  # plain tuples


def chunk_rows(sources: Sequence[bytes]) -> list[bytes]:
    """What a worker sends for one chunk: each file's summary, encoded."""
    return [encoded(summarise(s)) for s in sources]


def _work(chunks: list[list[str]], todo: Mapping[str, bytes], tasks: Connection,
          results: Connection, theirs: list[Connection]) -> None:
    """A worker process: summarise each chunk it is dealt until it is dealt -1.
    ``theirs``: the ends of this and earlier workers' pipes that the parent holds (closed
    here, so that only the parent keeps them open)."""
    for conn in theirs:
        conn.close()
    try:
        while (k := tasks.recv()) >= 0:
            results.send_bytes(marshal.dumps((k, chunk_rows([todo[b] for b in chunks[k]]))))
    except (EOFError, OSError):
        pass  # this process went away or gave up on the worker


class _Dealer:
    """Chunk numbers in order, to this process and every worker's thread."""

    def __init__(self, count: int) -> None:
        import threading

        self._next, self._count, self._lock = 0, count, threading.Lock()

    def claim(self) -> int:
        """The next chunk's number, or -1 when every chunk is taken."""
        with self._lock:
            k = self._next
            if k >= self._count:
                return -1
            self._next += 1
            return k


def _serve(dealer: _Dealer, tasks: Connection, results: Connection,
           chunks: list[list[str]], got: dict[int, Delivered]) -> None:
    """One worker's side here (a thread): deal it chunks, decode what it sends back. A
    worker that dies or sends what does not decode just ends its share."""
    dealt: set[int] = set()
    try:
        for _ in range(PREFETCH):
            k = dealer.claim()
            tasks.send(k)
            if k < 0:
                break
            dealt.add(k)
        while dealt:
            k, rows = marshal.loads(results.recv_bytes())
            if k not in dealt or len(rows) != len(chunks[k]):
                return
            got[k] = [(FileSummary.from_record(marshal.loads(r)), r) for r in rows]
            dealt.remove(k)
            k = dealer.claim()
            if k >= 0 or not dealt:
                tasks.send(k)  # -1: stop (once, after its last chunk is in)
            if k >= 0:
                dealt.add(k)
    except (EOFError, OSError, ValueError, TypeError, IndexError):
        return  # the chunks it held are summarised by the caller


def summarise_parallel(cache: SummaryCache, todo: Mapping[str, bytes], processes: int,
                       out: dict[str, FileSummary]) -> None:
    """Summaries of ``todo`` (blob -> bytes) into ``out``, made by ``processes - 1``
    forked workers and this process; what no process delivered is left out (the caller
    summarises it). Nothing is done here where ``fork`` is not available."""
    import multiprocessing
    import threading

    if "fork" not in multiprocessing.get_all_start_methods():
        return
    ctx = multiprocessing.get_context("fork")
    chunks = chunked(todo, processes)
    dealer = _Dealer(len(chunks))
    got: dict[int, Delivered] = {}
    workers: list[tuple[BaseProcess, Connection, Connection]] = []
    threads: list[threading.Thread] = []
    kept: list[Connection] = []  # the parent's ends of every worker's pipes
    try:
        for _ in range(processes - 1):
            task_r, task_w = ctx.Pipe(duplex=False)
            result_r, result_w = ctx.Pipe(duplex=False)
            kept += [task_w, result_r]
            proc = ctx.Process(target=_work, daemon=True,
                               args=(chunks, todo, task_r, result_w, list(kept)))
            try:
                proc.start()
            except (OSError, AssertionError):  # no fork here (or a daemon's child)
                for conn in (task_r, task_w, result_r, result_w):
                    conn.close()
                break
            task_r.close()  # the worker's ends: its death then reads as EOF here
            result_w.close()
            workers.append((proc, task_w, result_r))
        # Threads start after every fork: a forked child holds no lock of theirs.
        for _proc, task_w, result_r in workers:
            thread = threading.Thread(target=_serve, daemon=True,
                                      args=(dealer, task_w, result_r, chunks, got))
            thread.start()
            threads.append(thread)
        stores = cache.stores
        while (k := dealer.claim()) >= 0:
            for blob in chunks[k]:
                summary = out[blob] = cache.summary_of(blob, todo[blob])
                if stores:
                    cache.keep_encoded(blob, encoded(summary))
    except BaseException:
        for worker in workers:
            worker[0].kill()  # its thread then reads EOF and ends
        raise
    finally:
        for thread in threads:
            thread.join()
        for worker in workers:  # nothing more is read from it: one that still works
            worker[0].kill()  # (its thread gave up on it) is of no use
            worker[0].join()
            worker[1].close()
            worker[2].close()
    for k, rows in got.items():
        for blob, (summary, data) in zip(chunks[k], rows, strict=True):
            out[blob] = summary
            cache.keep_encoded(blob, data)
            cache.parsed += 1
            cache.parsed_by_workers += 1
