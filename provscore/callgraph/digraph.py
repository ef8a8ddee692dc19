"""A compact directed graph for the call graph: nodes by index, one kind per edge.

networkx keeps a dict of attributes per node and per edge; a tree of sympy's size (48k
nodes, 200k edges) then costs seconds to build from a cache row and again to copy for a
reachability query. Here a node is an index into parallel lists, an edge is one entry of
its source's ``{target: kind code}`` dict, and the predecessor lists a reachability query
walks are built once per graph. The read API is the subset of networkx's that provscore
uses (``edges(data="kind")``, ``nodes(data=True)``, ``successors``, ``has_edge``, ...);
:func:`provscore.callgraph.export.export` converts to networkx for the file formats.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

#: A graph as plain columns: names, kinds, paths, start and end lines of the nodes, the
#: edge kind names, and per node its ``{target index: kind code}``.
Columns = tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[int, ...],
                tuple[int, ...], tuple[str, ...], tuple[dict[int, int], ...]]


class Digraph:
    """Nodes (name, kind, path, start line, end line) and edges (source, target, kind)."""

    def __init__(self) -> None:
        self._index: dict[str, int] = {}
        self.names: list[str] = []
        self._kind: list[str] = []
        self._path: list[str] = []
        self._start: list[int] = []
        self._end: list[int] = []
        self._succ: list[dict[int, int]] = []
        self._kinds: list[str] = []
        self._kind_code: dict[str, int] = {}
        self._edges = 0
        self._pred: list[list[int]] | None = None  # in-edges, built when first asked for

    # ------------------------------------------------------------------ building

    def add_node(self, name: str, kind: str = "", path: str = "", start: int = 0,
                 end: int = 0) -> int:
        """The node's index; an existing node gets the attributes given."""
        i = self._index.get(name)
        if i is None:
            i = self._index[name] = len(self.names)
            self.names.append(name)
            self._kind.append(kind)
            self._path.append(path)
            self._start.append(start)
            self._end.append(end)
            self._succ.append({})
        else:
            self._kind[i], self._path[i], self._start[i], self._end[i] = kind, path, start, end
        self._pred = None
        return i

    def _code(self, kind: str) -> int:
        code = self._kind_code.get(kind)
        if code is None:
            code = self._kind_code[kind] = len(self._kinds)
            self._kinds.append(kind)
        return code

    def add_edge(self, u: str, v: str, kind: str) -> None:
        """Adds ``u -> v`` unless there is one (the first kind stays); missing nodes are
        added without attributes."""
        iu = self._index.get(u)
        if iu is None:
            iu = self.add_node(u)
        iv = self._index.get(v)
        if iv is None:
            iv = self.add_node(v)
        succ = self._succ[iu]
        if iv not in succ:
            succ[iv] = self._code(kind)
            self._edges += 1
            self._pred = None

    def remove_edge(self, u: str, v: str) -> None:
        iu, iv = self._index[u], self._index[v]
        del self._succ[iu][iv]
        self._edges -= 1
        self._pred = None

    def columns(self) -> Columns:
        """The graph as plain columns (names, kinds, paths, starts, ends, kind names, and
        per node its ``{target: kind code}``): what :meth:`from_columns` reads back, and
        what ``marshal`` loads without a Python loop over the edges."""
        return (tuple(self.names), tuple(self._kind), tuple(self._path), tuple(self._start),
                tuple(self._end), tuple(self._kinds), tuple(self._succ))

    @classmethod
    def from_columns(cls, columns: Sequence[Any]) -> Digraph:
        """The graph of :meth:`columns`; anything malformed raises ValueError."""
        try:
            names, kind, path, start, end, kinds, succ = columns
            n = len(names)
            if not all(type(c) is tuple and len(c) == n for c in (kind, path, start, end, succ)) \
                    or type(names) is not tuple or type(kinds) is not tuple \
                    or not all(type(d) is dict for d in succ):
                raise ValueError("columns of unequal length")
            g = cls()
            g.names, g._kind, g._path = list(names), list(kind), list(path)
            g._start, g._end = list(start), list(end)
            g._index = dict(zip(g.names, range(n), strict=True))
            if len(g._index) != n:
                raise ValueError("duplicate node names")
            g._kinds = list(kinds)
            g._kind_code = {k: i for i, k in enumerate(g._kinds)}
            edged = [d for d in succ if d]
            targets: set[int] = set().union(*edged)  # C loops: no Python step per edge
            codes: set[int] = set().union(*map(dict.values, edged))
            if edged and (min(targets) < 0 or max(targets) >= n or min(codes) < 0
                          or max(codes) >= len(g._kinds)):
                raise ValueError("edge out of range")
        except TypeError as exc:  # a key or code that is no int
            raise ValueError(f"malformed columns: {exc}") from None
        g._succ = list(succ)
        g._edges = sum(map(len, edged))
        return g

    def uncalled(self, names: Iterable[str]) -> bool:
        """Whether a node of ``names`` is in the graph with no edge into it (one pass over
        the edges, not the copy :meth:`without_paths` makes to drop it)."""
        left = {self._index[n] for n in names if n in self._index}
        for succ in self._succ:
            if not left:
                break
            left -= succ.keys()
        return bool(left)

    def without_paths(self, paths: frozenset[str]
                      ) -> tuple[Digraph, list[tuple[str, str, str]]]:
        """A copy without the nodes of files in ``paths`` (and outside nodes, which have
        no path, that only they called), and the edges from kept nodes to dropped ones
        (source, target, kind): a graph updated for a patch re-adds those whose target
        the new file still defines.

        The copy keeps every other node's index but those of the last nodes, which move
        into the dropped nodes' slots (node order is not part of what a graph says): only
        the edges into dropped or moved nodes are rewritten, found through the in-edges
        (built once per graph, and a patch's update asks for them anyway), not by
        renumbering every edge of the graph."""
        pred, width, path = self._predecessors(), len(self._kinds), self._path
        by_path = {i for i, p in enumerate(path) if p in paths} if paths else set()
        # Outside nodes that no kept node calls: those only dropped nodes called, and
        # those nothing calls at all.
        candidates = {j for i in by_path for j in self._succ[i] if not path[j]}
        candidates.update(i for i, e in enumerate(pred) if not e and not path[i])
        gone = by_path | {j for j in candidates if j not in by_path and
                          all(e // width in by_path for e in pred[j])}
        n = len(self.names)
        m = n - len(gone)
        holes = sorted(i for i in gone if i < m)
        tails = [i for i in range(m, n) if i not in gone]
        moved = dict(zip(tails, holes, strict=True))  # old index -> new index
        g = Digraph()
        g.names, g._kind, g._path = self.names[:m], self._kind[:m], path[:m]
        g._start, g._end = self._start[:m], self._end[:m]
        g._succ = [d.copy() for d in self._succ[:m]]
        g._index = self._index.copy()
        for i in gone:
            del g._index[self.names[i]]
        for old, new in moved.items():
            g.names[new], g._kind[new], g._path[new] = \
                self.names[old], self._kind[old], path[old]
            g._start[new], g._end[new] = self._start[old], self._end[old]
            g._succ[new] = self._succ[old].copy()
            g._index[self.names[old]] = new
        g._kinds = list(self._kinds)
        g._kind_code = dict(self._kind_code)
        # Kept sources of edges into dropped or moved nodes: their edges are rewritten.
        touched = {e // width for j in (*gone, *moved) for e in pred[j]}
        dangling: list[tuple[str, str, str]] = []
        dropped_edges = sum(len(self._succ[i]) for i in gone)
        for i in sorted(touched - gone):  # in node order, as the edges were listed before
            succ = self._succ[i]
            dangling += [(self.names[i], self.names[j], self._kinds[k])
                         for j, k in succ.items() if j in gone]
            g._succ[moved.get(i, i)] = {moved.get(j, j): k for j, k in succ.items()
                                        if j not in gone}
        g._edges = self._edges - dropped_edges - len(dangling)
        return g, dangling

    def drop_uncalled(self, names: Iterable[str]) -> None:
        """Removes, in place, the nodes of ``names`` that have no path and no edge into
        them (outside nodes a retried call left behind), as :meth:`without_paths` of no
        path would, without copying the graph: each goes by moving the last node into
        its slot (node order is not part of what a graph says)."""
        gone = {self._index[n] for n in names if n in self._index and not
                self._path[self._index[n]]}
        for succ in self._succ:
            if not gone:
                return
            gone -= succ.keys()
        for i in sorted(gone, reverse=True):  # the highest first: a moved node is kept
            last = len(self.names) - 1
            self._edges -= len(self._succ[i])
            del self._index[self.names[i]]
            if i != last:
                for succ in self._succ:
                    if last in succ:
                        succ[i] = succ.pop(last)
                self.names[i], self._kind[i], self._path[i] = \
                    self.names[last], self._kind[last], self._path[last]
                self._start[i], self._end[i], self._succ[i] = \
                    self._start[last], self._end[last], self._succ[last]
                self._index[self.names[i]] = i
            for column in (self.names, self._kind, self._path):
                column.pop()
            self._start.pop()
            self._end.pop()
            self._succ.pop()
        self._pred = None

    # ------------------------------------------------------------------ reading

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def __len__(self) -> int:
        return len(self.names)

    def number_of_nodes(self) -> int:
        return len(self.names)

    def number_of_edges(self) -> int:
        return self._edges

    def has_edge(self, u: str, v: str) -> bool:
        iu, iv = self._index.get(u), self._index.get(v)
        return iu is not None and iv is not None and iv in self._succ[iu]

    def attrs(self, i: int) -> dict[str, Any]:
        """Node ``i``'s attributes as networkx holds them (absent ones left out)."""
        out: dict[str, Any] = {"kind": self._kind[i]}
        if self._path[i]:
            out["path"] = self._path[i]
        if self._start[i] or self._end[i]:
            out["start"], out["end"] = self._start[i], self._end[i]
        return out

    def node_row(self, i: int) -> tuple[str, str, str, int, int]:
        return self.names[i], self._kind[i], self._path[i], self._start[i], self._end[i]

    def nodes(self, data: bool = False) -> Iterator[Any]:
        for i, name in enumerate(self.names):
            yield (name, self.attrs(i)) if data else name

    def successors(self, name: str) -> Iterator[str]:
        return (self.names[j] for j in self._succ[self._index[name]])

    def indexed_edges(self) -> Iterator[tuple[int, int, int]]:
        """(source, target, kind code) of every edge; kinds by :meth:`kind_names`."""
        for i, succ in enumerate(self._succ):
            for j, k in succ.items():
                yield i, j, k

    def kind_names(self) -> list[str]:
        return list(self._kinds)

    def edges(self, data: str | bool = False) -> Iterator[Any]:
        """``(u, v)``; ``data="kind"``: ``(u, v, kind)``; ``data=True``: ``(u, v, attrs)``."""
        names, kinds = self.names, self._kinds
        for i, j, k in self.indexed_edges():
            if data == "kind":
                yield names[i], names[j], kinds[k]
            elif data:
                yield names[i], names[j], {"kind": kinds[k]}
            else:
                yield names[i], names[j]

    def edges_of_kind(self, kind: str) -> Iterator[tuple[str, str]]:
        code = self._kind_code.get(kind)
        if code is None:
            return
        names = self.names
        for i, succ in enumerate(self._succ):
            for j, k in succ.items():
                if k == code:
                    yield names[i], names[j]

    def predecessors(self, name: str, kind: str | None = None) -> list[str]:
        """The sources of edges into ``name`` (of ``kind`` only, when given)."""
        i = self._index.get(name)
        code = self._kind_code.get(kind) if kind is not None else -1
        if i is None or code is None:
            return []
        width = len(self._kinds)
        return [self.names[e // width] for e in self._predecessors()[i]
                if code < 0 or e % width == code]

    def ancestors(self, name: str, skip: frozenset[str] = frozenset()) -> set[str]:
        """Every node with a path to ``name`` over edges whose kind is not in ``skip``."""
        seen = self.reaching(name, skip)
        seen.discard(self._index.get(name, -1))
        return {self.names[i] for i in seen}

    def index_of(self, name: str) -> int | None:
        return self._index.get(name)

    def reaching(self, name: str, skip: frozenset[str] = frozenset()) -> set[int]:
        """The indices of ``name`` and of every node with a path to it over edges whose
        kind is not in ``skip`` (empty: no such node)."""
        start = self._index.get(name)
        if start is None:
            return set()
        pred = self._predecessors()
        width = len(self._kinds)
        skipped = {self._kind_code[k] for k in skip if k in self._kind_code}
        seen = {start}
        todo = [start]
        while todo:
            for e in pred[todo.pop()]:
                j, k = divmod(e, width)
                if j not in seen and k not in skipped:
                    seen.add(j)
                    todo.append(j)
        return seen

    def _predecessors(self) -> list[list[int]]:
        """Per node, its in-edges as ``source * kinds + kind code`` (built once)."""
        if self._pred is None:
            width = len(self._kinds)
            pred: list[list[int]] = [[] for _ in self.names]
            for i, succ in enumerate(self._succ):
                for j, k in succ.items():
                    pred[j].append(i * width + k)
            self._pred = pred
        return self._pred
