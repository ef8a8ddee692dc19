"""The compact graph's in-place and reachability operations the graph after a patch and
the coverage of touched symbols use: dropping orphaned outside nodes without a copy gives
what a copy gives, and the tests and properties that reach a node are those networkx's
reverse reachability finds, on provscore's own call graph."""

from __future__ import annotations

from pathlib import Path

import networkx as nx  # type: ignore[import-untyped]  # untyped
import pytest

import provscore
from provscore.callgraph.digraph import Digraph
from provscore.callgraph.graph import CallGraph, build_graph
from provscore.callgraph.summary import summarise
from provscore.callgraph.touched import PropertyReach, Reach
from provscore.change.collection import CollectionConfig

SOURCE = Path(provscore.__file__).parent


def _graph() -> Digraph:
    g = Digraph()
    g.add_node("m", kind="module", path="m.py")
    g.add_node("m:f", kind="function", path="m.py", start=1, end=2)
    for outside in ("unknown:a", "builtin:len", "unknown:b", "external:os.path", "unknown:c"):
        g.add_node(outside, kind=outside.partition(":")[0])
    g.add_edge("m", "m:f", "call")
    g.add_edge("m:f", "builtin:len", "call")
    g.add_edge("m:f", "external:os.path", "call")
    g.add_edge("unknown:c", "unknown:c", "call")  # a node calling itself is called
    g.add_edge("m:f", "m:f", "call")
    return g


def _view(g: Digraph) -> tuple[list[tuple[str, str, str, int, int]], list[object], int]:
    nodes = sorted(g.node_row(i) for i in range(len(g)))
    assert all(g.index_of(g.names[i]) == i for i in range(len(g)))
    return nodes, sorted(g.edges(data="kind")), g.number_of_edges()


@pytest.mark.parametrize("names", [
    ("unknown:a", "unknown:b"),  # both uncalled: one in the middle, one before the end
    ("unknown:b",),
    ("unknown:a", "builtin:len", "unknown:c", "m:f", "absent"),  # called, or with a path
    (),
])
def test_dropping_uncalled_nodes_in_place_gives_what_a_copy_gives(names: tuple[str, ...]
                                                                   ) -> None:
    g, want = _graph(), _graph()
    for n in ("unknown:a", "unknown:b"):  # those not named stay, as in the overlay
        if n not in names:
            want.add_edge("m", n, "call")
            g.add_edge("m", n, "call")
    g.drop_uncalled(names)
    assert _view(g) == _view(want.without_paths(frozenset())[0])
    g.add_edge("m", "unknown:new", "call")  # still a consistent graph to add to
    assert g.has_edge("m", "unknown:new") and "unknown:new" in g


def test_the_last_node_moved_into_a_dropped_slot_keeps_its_edges() -> None:
    g = _graph()
    g.add_node("unknown:z", kind="unknown")
    g.add_edge("m:f", "unknown:z", "call")
    g.add_edge("unknown:z", "unknown:z", "call")
    g.add_node("tail", kind="function", path="t.py")
    g.add_edge("tail", "tail", "call")
    g.add_edge("m:f", "tail", "decorator")
    want = _view(g.without_paths(frozenset())[0])
    g.drop_uncalled(["unknown:a", "unknown:b"])
    assert _view(g) == want
    moved = g.index_of("tail")
    assert moved is not None and moved < len(g) - 1
    assert sorted(g.predecessors("tail")) == ["m:f", "tail"]
    assert sorted(g.predecessors("tail", "decorator")) == ["m:f"]


def test_reaching_is_the_node_and_its_ancestors() -> None:
    g = _graph()
    g.add_edge("m:g", "m", "inherit")
    assert g.reaching("external:os.path") == {g.index_of(n) for n in (
        "external:os.path", "m:f", "m", "m:g")}
    assert g.reaching("external:os.path", frozenset({"inherit"})) == {
        g.index_of(n) for n in ("external:os.path", "m:f", "m")}
    assert g.ancestors("m:f") == {"m", "m:g"}  # never itself, even in a cycle
    assert g.ancestors("m") == {"m:g"}
    assert g.reaching("absent") == set() and g.ancestors("absent") == set()


@pytest.fixture(scope="module")
def own_graph() -> CallGraph:
    files = {str(p.relative_to(SOURCE.parent)): p.read_bytes()
             for p in sorted(SOURCE.rglob("*.py"))}
    return build_graph({p: ("", summarise(d)) for p, d in files.items()}, CollectionConfig())


def test_covering_tests_and_properties_are_networkx_reverse_reachability(
        own_graph: CallGraph) -> None:
    graph = own_graph
    nodes = sorted(n for n in graph.symbols if n.startswith("provscore.callgraph"))
    # Every tenth symbol plays a test, every 25th a property's check; a test also reaches
    # what its module's code does.
    tests = {f"t/{n}::t": n for n in nodes[::10]}
    props = [PropertyReach(f"P{k}", ("provscore.callgraph.digraph",) if k == 0 else (), n)
             for k, n in enumerate(nodes[::25])]
    props.append(PropertyReach("no-check", ("provscore.callgraph.summary:*",), None))
    reach = Reach(graph, tests, props)
    nxg = nx.DiGraph()
    nxg.add_nodes_from(graph.graph.nodes())
    nxg.add_edges_from((u, v) for u, v, k in graph.graph.edges(data="kind") if k != "inherit")
    checked = 0
    for name in [*nodes[::7], "provscore.callgraph.digraph", "not:a-node"]:
        sources = (nx.ancestors(nxg, name) if name in nxg else set()) | {name}
        want_tests = {t for t, n in tests.items()
                      if n in sources or graph.symbols[n].module in sources}
        want_props = {p.id for p in props if p.check_node in sources}
        sym = graph.symbols.get(name)
        if sym is not None and sym.module == "provscore.callgraph.digraph":
            want_props.add("P0")
        if name.startswith("provscore.callgraph.summary:"):
            want_props.add("no-check")
        assert reach.covering(name) == (want_tests, want_props), name
        checked += bool(want_tests)
    assert checked > 20
    assert reach.covering("not:a-node") == (set(), set())


def _without_paths_by_definition(g: Digraph, paths: frozenset[str]
                                 ) -> tuple[tuple[list[tuple[str, str, str, int, int]],
                                                  list[object], int],
                                            list[tuple[str, str, str]]]:
    """What :meth:`Digraph.without_paths` means, written plainly: the nodes of other
    files, the outside nodes a kept node calls, the edges between them; and the edges
    from kept nodes into dropped ones in edge order."""
    rows = {g.names[i]: g.node_row(i) for i in range(len(g))}
    dropped = {n for n, row in rows.items() if row[2] in paths}
    edges = list(g.edges(data="kind"))
    called = {v for u, v, _k in edges if u not in dropped}
    kept = {n for n, row in rows.items() if n not in dropped and (row[2] or n in called)}
    kept_edges = sorted((u, v, k) for u, v, k in edges if u in kept and v in kept)
    dangling = [(u, v, k) for u, v, k in edges if u in kept and v not in kept]
    return (sorted(rows[n] for n in kept), list(kept_edges), len(kept_edges)), dangling


@pytest.mark.parametrize("paths", [
    (),
    ("provscore/callgraph/digraph.py",),
    ("provscore/callgraph/graph.py", "provscore/callgraph/overlay.py", "provscore/cli.py"),
    ("provscore/__init__.py", "provscore/model.py", "provscore/pipeline.py", "absent.py"),
])
def test_without_paths_is_its_definition_on_provscores_own_graph(
        own_graph: CallGraph, paths: tuple[str, ...]) -> None:
    base = own_graph.graph
    before = _view(base)
    g, dangling = base.without_paths(frozenset(paths))
    want, want_dangling = _without_paths_by_definition(base, frozenset(paths))
    assert _view(g) == want
    assert dangling == want_dangling
    assert (len(dangling) > 0) == bool(set(paths) - {"absent.py"})
    assert _view(base) == before  # the base graph is not touched
    for u, v, kind in dangling[:5]:  # a consistent graph to add to and query
        g.add_edge(u, v, kind)
        assert g.has_edge(u, v) and u in g.predecessors(v, kind)
    assert g.reaching(g.names[-1]) >= {len(g) - 1}


def test_without_paths_drops_orphans_and_moves_the_last_nodes_into_their_slots() -> None:
    g = _graph()
    g.add_node("n", kind="module", path="n.py")
    g.add_node("n:h", kind="function", path="n.py", start=3, end=4)
    g.add_edge("m:f", "n:h", "call")  # a kept caller of a dropped node
    g.add_edge("n:h", "unknown:a", "call")  # only the dropped file calls it: an orphan
    g.add_edge("n:h", "builtin:len", "call")  # also called from kept code: stays
    g.add_node("tail", kind="function", path="t.py")
    g.add_edge("tail", "m:f", "call")
    g.add_edge("m:f", "tail", "decorator")
    got, dangling = g.without_paths(frozenset({"n.py"}))
    want, want_dangling = _without_paths_by_definition(g, frozenset({"n.py"}))
    assert _view(got) == want and dangling == want_dangling == [("m:f", "n:h", "call")]
    assert "unknown:a" not in got and "unknown:b" not in got and "unknown:c" in got
    assert sorted(got.predecessors("tail", "decorator")) == ["m:f"]
    moved = got.index_of("tail")
    assert moved is not None and moved < len(got) - 1
