"""Touched symbols and what reaches them: the preexisting tests and the catalog properties.

Every changed hunk line maps to the innermost symbol enclosing it: a removed line in the
base graph, an added line in the graph after the patch (module-level lines map to the
module). A test reaches a symbol when the symbol is reachable from the test function
(calls, decorators, fixtures it requests and what they call) or from its module's own
code (imports, module-level calls), which runs before any of its tests. Inheritance alone
reaches nothing.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping, Sequence

from provscore.callgraph.graph import CallGraph
from provscore.change.diff import ChangeSet
from provscore.records import dataclass

_NOT_REACHING = frozenset({"inherit"})


@dataclass(frozen=True, slots=True)
class TouchedSymbol:
    """A symbol some changed line lies in, and the evidence that reaches it."""

    name: str  # graph node name: pkg.mod or pkg.mod:Class.method
    path: str
    kind: str  # module | class | function | method
    sides: tuple[str, ...]  # "pre" (a removed line), "post" (an added line)
    lines: tuple[int, ...]  # first changed line per side, for locations
    tests: tuple[str, ...] = ()  # base test node ids that reach it
    properties: tuple[str, ...] = ()  # catalog property ids that reach or name it


@dataclass(frozen=True, slots=True)
class PropertyReach:
    """What the call graph needs of one catalog property."""

    id: str
    covers: tuple[str, ...]  # module/symbol globs
    check_node: str | None  # graph node of its check function (None: no check)


def touched_symbols(changes: ChangeSet, pre: CallGraph, post: CallGraph
                    ) -> list[TouchedSymbol]:
    """Every symbol a changed line of a Python file lies in, in path and line order."""
    found: dict[str, dict[str, object]] = {}
    for fc in changes.files:
        if fc.unsafe_reason or fc.binary:
            continue
        for hunk in fc.hunks:
            for ln in hunk.lines:
                if ln.kind == "-" and fc.old_path and ln.old_no is not None:
                    _note(found, pre, fc.old_path, ln.old_no, "pre")
                elif ln.kind == "+" and fc.new_path and ln.new_no is not None:
                    _note(found, post, fc.new_path, ln.new_no, "post")
    out = []
    for name, info in found.items():
        sides = info["sides"]
        assert isinstance(sides, dict)
        out.append(TouchedSymbol(name, str(info["path"]), str(info["kind"]),
                                 tuple(sorted(sides)), tuple(sides[k] for k in sorted(sides))))
    return sorted(out, key=lambda t: (t.path, t.lines, t.name))


def _note(found: dict[str, dict[str, object]], graph: CallGraph, path: str, line: int,
          side: str) -> None:
    name = graph.symbol_at(path, line)
    if name is None:
        return
    sym = graph.symbols[name]
    info = found.setdefault(name, {"path": path, "kind": sym.kind, "sides": {}})
    sides = info["sides"]
    assert isinstance(sides, dict)
    sides.setdefault(side, line)


class Reach:
    """Reverse reachability over one graph: which tests and properties reach a node."""

    def __init__(self, graph: CallGraph, tests: Mapping[str, str],
                 properties: Sequence[PropertyReach]) -> None:
        self.graph = graph
        self.tests = tests
        self.properties = properties
        # node index -> (test ids, property ids) of the tests and checks it is, or whose
        # module it is; built when a symbol is first asked about (a patch of tests only
        # asks about none)
        self._by_index: dict[int, tuple[set[str], set[str]]] | None = None
        self._by_name: dict[str, tuple[set[str], set[str]]] = {}

    def _tables(self) -> dict[int, tuple[set[str], set[str]]]:
        if self._by_index is None:
            by_node: dict[str, list[str]] = {}
            for test_id, node in self.tests.items():
                got = by_node.get(node)
                if got is None:
                    by_node[node] = [test_id]
                else:
                    got.append(test_id)
            by_name = self._by_name
            symbols = self.graph.symbols
            for node, ids in by_node.items():
                _add(by_name, node, 0, ids)
                if node in symbols:  # its module: the start of its name (no Symbol made)
                    _add(by_name, node.partition(":")[0], 0, ids)
            for p in self.properties:
                if p.check_node is not None:
                    _add(by_name, p.check_node, 1, (p.id,))
            index_of = self.graph.graph.index_of
            self._by_index = {i: hit for name, hit in by_name.items()
                              if (i := index_of(name)) is not None}
        return self._by_index

    def covering(self, name: str) -> tuple[set[str], set[str]]:
        """(test ids, property ids) that reach node ``name`` or, for properties, name it."""
        tests: set[str] = set()
        props: set[str] = set()
        by_index = self._tables()
        sources = self.graph.graph.reaching(name, _NOT_REACHING)
        if not sources:  # not a node of the graph: only what it is itself
            own = self._by_name.get(name)
            if own is not None:
                tests |= own[0]
                props |= own[1]
        for i in sources:
            hit = by_index.get(i)
            if hit is not None:
                tests |= hit[0]
                props |= hit[1]
        sym = self.graph.symbols.get(name)
        for p in self.properties:
            if sym is not None and any(glob_covers(g, sym.module, sym.qualname) for g in p.covers):
                props.add(p.id)
        return tests, props


def _add(table: dict[str, tuple[set[str], set[str]]], node: str, column: int,
         ids: Iterable[str]) -> None:
    hit = table.get(node)
    if hit is None:
        hit = table[node] = (set(), set())
    hit[column].update(ids)


def glob_covers(glob: str, module: str, qualname: str) -> bool:
    """Whether a catalog ``covers`` glob names a symbol: its module (``pkg.mod`` or
    ``pkg.*``), the symbol (``pkg.mod:Bucket.take``), or a class or function it lies in
    (``pkg.mod:Bucket`` covers ``pkg.mod:Bucket.take``)."""
    if fnmatch.fnmatchcase(module, glob):
        return True
    parts = qualname.split(".") if qualname else []
    return any(fnmatch.fnmatchcase(f"{module}:{'.'.join(parts[:n])}", glob)
               for n in range(1, len(parts) + 1))


def with_coverage(symbols: Iterable[TouchedSymbol], pre: Reach, post: Reach
                  ) -> tuple[TouchedSymbol, ...]:
    """Each touched symbol with the base tests and properties that reach it, before the
    patch (through removed lines) or after it (through added lines)."""
    out = []
    for t in symbols:
        tests: set[str] = set()
        props: set[str] = set()
        for side in t.sides:
            got_tests, got_props = (pre if side == "pre" else post).covering(t.name)
            tests |= got_tests
            props |= got_props
        out.append(TouchedSymbol(t.name, t.path, t.kind, t.sides, t.lines,
                                 tuple(sorted(tests)), tuple(sorted(props))))
    return tuple(out)
