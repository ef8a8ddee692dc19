"""A built call graph as a cache row: a tree that was built before (same blobs, same
collection rules, same provscore) is loaded instead of resolved again.

The row holds the nodes, the edges (as indices), the tests and the counts; the per-file
scopes a caller may still need (which symbol encloses a changed line) are read lazily from
the summary cache, so a warm load touches no summary it does not use.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from typing import Any

from provscore.callgraph.cache import SummaryCache
from provscore.callgraph.digraph import Digraph
from provscore.callgraph.graph import CallGraph, Symbol
from provscore.callgraph.modules import ModuleIndex
from provscore.callgraph.summary import Scope
from provscore.change.collection import CollectionConfig

_SYMBOL_KINDS = frozenset({"module", "class", "function", "method"})
#: The graph row's layout and what is stored beside it under its key (3: the export
#: tables of :mod:`provscore.callgraph.exports`; 4: the graph as columns, each node's
#: edges a dict); a cache of another format is rebuilt.
GRAPH_FORMAT = 4


def graph_key(version: str, config: CollectionConfig, blobs: Mapping[str, str]) -> str:
    h = hashlib.sha256(f"{version}\ngraph{GRAPH_FORMAT}\n{config!r}\n".encode())
    for path in sorted(blobs):
        h.update(f"{path}\x00{blobs[path]}\n".encode("utf-8", "surrogateescape"))
    return h.hexdigest()


class LazyScopes(Mapping[str, tuple[Scope, ...]]):
    """Path -> scopes of its summary, fetched from the cache when first asked for."""

    def __init__(self, cache: SummaryCache, blobs: Mapping[str, str]) -> None:
        self.cache, self.blobs = cache, blobs
        self._got: dict[str, tuple[Scope, ...]] = {}

    def __getitem__(self, path: str) -> tuple[Scope, ...]:
        if path not in self._got:
            blob = self.blobs[path]
            summary = self.cache.get_many([blob]).get(blob)
            if summary is None:
                raise KeyError(path)
            self._got[path] = summary.scopes
        return self._got[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self.blobs)

    def __len__(self) -> int:
        return len(self.blobs)


class StoredSymbols(Mapping[str, Symbol]):
    """The symbols of a loaded graph, each made from its node's row when first asked
    for: a score reads a few thousand of sympy's 35,000, and making every one costs a
    tenth of a second at each load. The graph is read-only once built."""

    def __init__(self, g: Digraph) -> None:
        self.g = g
        self._made: dict[str, Symbol] = {}
        self._names: list[str] | None = None

    def __getitem__(self, name: str) -> Symbol:
        hit = self._made.get(name)
        if hit is None:
            i = self.g.index_of(name)
            if i is None:
                raise KeyError(name)
            _name, kind, path, start, end = self.g.node_row(i)
            if kind not in _SYMBOL_KINDS:
                raise KeyError(name)
            module, _, qual = name.partition(":")
            hit = self._made[name] = Symbol(name, module, qual, kind, path, start or 1,
                                            end or 1)
        return hit

    def __contains__(self, name: object) -> bool:
        i = self.g.index_of(name) if isinstance(name, str) else None
        return i is not None and self.g.node_row(i)[1] in _SYMBOL_KINDS

    def path_of(self, name: str) -> str | None:
        """The path of symbol ``name`` (None: no such symbol), without making it."""
        i = self.g.index_of(name)
        if i is None:
            return None
        row = self.g.node_row(i)
        return row[2] if row[1] in _SYMBOL_KINDS else None

    def _symbol_names(self) -> list[str]:
        if self._names is None:
            g = self.g
            self._names = [row[0] for row in map(g.node_row, range(len(g)))
                           if row[1] in _SYMBOL_KINDS]
        return self._names

    def __iter__(self) -> Iterator[str]:
        return iter(self._symbol_names())

    def __len__(self) -> int:
        return len(self._symbol_names())


def to_record(graph: CallGraph) -> tuple[object, ...]:
    return (GRAPH_FORMAT, graph.graph.columns(), tuple(graph.tests.items()),
            tuple(graph.paths.items()), tuple(graph.stats.items()),
            tuple(graph.unparsed.items()),
            tuple((m, tuple(i)) for m, i in graph.imports_by_module.items()),
            tuple(graph.module_stats.items()))


def from_record(rec: Any, scopes: Mapping[str, tuple[Scope, ...]]) -> CallGraph:
    """The graph of :func:`to_record`; anything malformed raises ValueError."""
    try:
        version, columns, tests, paths, stats, unparsed, imports, counts = rec
        if version != GRAPH_FORMAT:
            raise ValueError("another graph row format")
        g = Digraph.from_columns(columns)
        path_map = dict(paths)
        return CallGraph(g, ModuleIndex(path_map), StoredSymbols(g), dict(tests), path_map,
                         dict(stats), dict(unparsed), scopes, {m: tuple(i) for m, i in imports},
                         {m: tuple(c) for m, c in counts})
    except (TypeError, IndexError, KeyError, ValueError) as exc:
        raise ValueError(f"malformed graph row: {exc}") from None
