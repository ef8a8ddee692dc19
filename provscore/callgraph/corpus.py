"""The base test corpus, enumerated from the call graph (``ast``, no import, no pytest run):
every test id pytest would collect at base, and whether a result's id is one of them."""

from __future__ import annotations

from provscore.callgraph.graph import CallGraph
from provscore.change.collection import CollectionConfig
from provscore.nodeid import file_of, without_params
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class BaseTests:
    """Test ids at base (without parametrize suffixes) and the files they were read from."""

    ids: frozenset[str]  # every test function of every test file at base
    collected: frozenset[str]  # those a bare `pytest` collects (testpaths, norecursedirs)
    parsed_files: frozenset[str]  # .py files whose tests were enumerated
    unparsed_files: frozenset[str]  # .py files ast could not parse

    @classmethod
    def from_graph(cls, graph: CallGraph, config: CollectionConfig,
                   outside: str = "@oracle/") -> BaseTests:
        """``outside``: a path prefix of files in the graph that are not the repository's
        (the oracle dir's): their tests are properties, not base tests."""
        ids = frozenset(t for t in graph.tests if not t.startswith(outside))
        files = {file_of(t) for t in ids}  # the rules are per file: asked once each
        runs = {f for f in files if config.is_collected(f) and config.runs_by_default(f)}
        collected = frozenset(t for t in ids if file_of(t) in runs)
        parsed = frozenset(p for p in graph.paths if p not in graph.unparsed)
        return cls(ids, collected, parsed, frozenset(graph.unparsed))

    def missing(self, node_id: str) -> str:
        """Why ``node_id`` is not a test at base ("" when it is, or cannot be told: a
        file that is not Python, which a plugin collects)."""
        path = file_of(node_id)
        if path in self.unparsed_files:
            return f"{path} does not parse at base: {node_id} cannot be told to exist"
        if path not in self.parsed_files:
            return ""
        plain = without_params(node_id)
        if plain in self.ids:
            return ""
        return f"{plain} is not a test at base"
