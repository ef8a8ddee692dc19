"""Building the call graph of a revision: every ``.py`` blob summarised once (cache),
changed files overlaid from their post-images, extra modules (oracle-dir checks) added."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping

from provscore.callgraph.cache import SummaryCache, blob_sha
from provscore.callgraph.graph import CallGraph, build_graph
from provscore.callgraph.overlay import overlay_graph
from provscore.callgraph.parallel import summarise_parallel
from provscore.callgraph.stored import LazyScopes, from_record, graph_key, to_record
from provscore.callgraph.summary import FileSummary, paused_gc
from provscore.change.collection import CollectionConfig
from provscore.change.git import Repo

#: Where oracle-dir files sit in the graph (a path no repository file can have).
ORACLE_ROOT = "@oracle"
#: Cache misses from which a cold build summarises in worker processes too.
PARALLEL_FROM = 200


def parse_all(cache: SummaryCache, todo: Mapping[str, bytes],
              parallel_from: int | None = None) -> dict[str, FileSummary]:
    """Summaries of the blobs in ``todo`` (blob -> bytes), in its order. From
    ``parallel_from`` blobs on (default :data:`PARALLEL_FROM`; a cold build of a large
    tree) on more than one core: forked workers, one per core but one, and this process
    share the files (:mod:`provscore.callgraph.parallel`); the result is the serial one
    (a summary depends on its bytes only). What workers that cannot start or that die
    did not deliver is summarised here."""
    cores = min(os.cpu_count() or 1, 8)
    if len(todo) < (PARALLEL_FROM if parallel_from is None else parallel_from) or cores < 2:
        return {b: cache.summary_of(b, data) for b, data in todo.items()}
    out: dict[str, FileSummary] = {}
    # No pipe, process or thread to be had: what was not delivered is done below.
    with contextlib.suppress(OSError, RuntimeError):
        summarise_parallel(cache, todo, cores, out)
    return {b: out[b] if b in out else cache.summary_of(b, data) for b, data in todo.items()}


def tree_blobs(repo: Repo, rev: str) -> dict[str, str]:
    """Path -> blob hash of every regular ``.py`` file at ``rev`` (symlinks left out)."""
    return {e.path: e.sha for e in repo.ls_tree(rev)
            if e.path.endswith(".py") and e.kind == "blob" and e.mode != "120000"}


def _blobs_and_sources(repo: Repo, rev: str, overlay: Mapping[str, bytes | None] | None,
                       extra: Mapping[str, bytes] | None
                       ) -> tuple[dict[str, str], dict[str, bytes]]:
    blobs = tree_blobs(repo, rev)
    sources: dict[str, bytes] = {}
    for path, data in (overlay or {}).items():
        if not path.endswith(".py"):
            continue
        if data is None:
            blobs.pop(path, None)
        else:
            blobs[path] = blob_sha(data)
            sources[path] = data
    for path, data in (extra or {}).items():
        blobs[path] = blob_sha(data)
        sources[path] = data
    return blobs, sources


def summaries_at(repo: Repo, rev: str, cache: SummaryCache,
                 overlay: Mapping[str, bytes | None] | None = None,
                 extra: Mapping[str, bytes] | None = None) -> dict[str, tuple[str, FileSummary]]:
    """Path -> (blob hash, summary) of the tree at ``rev`` with ``overlay`` applied (None
    removes a path) and ``extra`` files added; only cache misses are read and parsed."""
    blobs, sources = _blobs_and_sources(repo, rev, overlay, extra)
    return _summaries(repo, rev, cache, blobs, sources)


def _summaries(repo: Repo, rev: str, cache: SummaryCache, blobs: dict[str, str],
               sources: dict[str, bytes]) -> dict[str, tuple[str, FileSummary]]:
    hits = cache.get_many(blobs.values())
    missing = [p for p, b in blobs.items() if b not in hits and p not in sources]
    if missing:
        sources.update({p: d for p, d in repo.read_blobs(rev, missing).items() if d is not None})
    todo = {b: sources[p] for p, b in blobs.items() if b not in hits and p in sources}
    fresh = parse_all(cache, todo)
    cache.put_many(fresh)
    out: dict[str, tuple[str, FileSummary]] = {}
    for path, blob in blobs.items():
        summary = hits.get(blob) or fresh.get(blob)
        if summary is not None:
            out[path] = (blob, summary)
    return out


@paused_gc()
def graph_at(repo: Repo, rev: str, config: CollectionConfig, cache: SummaryCache,
             overlay: Mapping[str, bytes | None] | None = None,
             extra: Mapping[str, bytes] | None = None, *,
             base: CallGraph | None = None) -> CallGraph:
    """The call graph of ``rev`` (with ``overlay`` and ``extra`` applied): loaded when the
    same tree was built before with a persistent cache, else built (and stored).

    ``base``: the graph of ``rev`` with ``extra`` and without ``overlay`` (a patch's
    graph is then that one with the changed files re-read, see
    :mod:`provscore.callgraph.overlay`, and is not stored)."""
    blobs, sources = _blobs_and_sources(repo, rev, overlay, extra)
    if base is not None and overlay is not None:
        graph = _overlaid(repo, rev, cache, base, overlay, extra, config)
        if graph is not None:
            return graph
        return build_graph(_summaries(repo, rev, cache, blobs, sources), config)
    key = graph_key(cache.version, config, blobs)
    record = cache.get_record(key)
    if record is not None:
        try:
            return from_record(record, LazyScopes(cache, blobs))
        except ValueError:
            pass  # a row that does not read is rebuilt, never trusted
    graph = build_graph(_summaries(repo, rev, cache, blobs, sources), config)
    if cache.path is not None:
        cache.put_record(key, to_record(graph))
    return graph


def _overlaid(repo: Repo, rev: str, cache: SummaryCache, base: CallGraph,
              overlay: Mapping[str, bytes | None], extra: Mapping[str, bytes] | None,
              config: CollectionConfig) -> CallGraph | None:
    changed: dict[str, FileSummary | None] = {}
    fresh: dict[str, FileSummary] = {}
    for path, data in overlay.items():
        if path.endswith(".py"):
            summary = None if data is None else cache.summary_of(blob_sha(data), data)
            changed[path] = summary
            if summary is not None and data is not None:
                fresh[blob_sha(data)] = summary
    cache.put_many(fresh)  # a batch scoring patches of one base meets them again
    at_base, _ = _blobs_and_sources(repo, rev, None, extra)

    def load(path: str) -> FileSummary | None:
        """The summary of ``path`` at base (read and parsed when the cache has none)."""
        blob = at_base.get(path)
        if blob is None:
            return None
        got = _summaries(repo, rev, cache, {path: blob}, {}).get(path)
        return got[1] if got is not None else None

    return overlay_graph(base, changed, load, config,
                         (cache, graph_key(cache.version, config, at_base)))
