"""The call graph as a file: node-link JSON, GraphML or DOT (``provscore graph``)."""

from __future__ import annotations

import io
import json
from typing import Any

import networkx as nx  # type: ignore[import-untyped]  # untyped

from provscore.callgraph.graph import CallGraph

FORMATS = ("json", "graphml", "dot")


def _plain(graph: CallGraph) -> Any:
    """The graph in networkx, which writes the file formats."""
    g = nx.DiGraph()
    for n, data in graph.graph.nodes(data=True):
        g.add_node(n, **data)
    g.add_edges_from(graph.graph.edges(data=True))
    g.graph.update({f"calls_{k}": v for k, v in graph.stats.items()})
    return g


def export(graph: CallGraph, fmt: str) -> str:
    """The graph in one of :data:`FORMATS`."""
    g = _plain(graph)
    if fmt == "json":
        data = nx.node_link_data(g, edges="edges")
        data["stats"] = dict(graph.stats)
        data["unparsed"] = dict(sorted(graph.unparsed.items()))
        return json.dumps(data, indent=1, sort_keys=True) + "\n"
    if fmt == "graphml":
        buf = io.BytesIO()
        nx.write_graphml(g, buf, encoding="utf-8")
        return buf.getvalue().decode("utf-8")
    if fmt == "dot":
        return _dot(g)
    raise ValueError(f"unknown graph format {fmt!r}")


def _quote(text: object) -> str:
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def _dot(g: Any) -> str:
    lines = ["digraph callgraph {", "  node [shape=box, fontname=monospace];"]
    for n, data in sorted(g.nodes(data=True)):
        attrs = ", ".join(f"{k}={_quote(v)}" for k, v in sorted(data.items()))
        lines.append(f"  {_quote(n)} [{attrs}];" if attrs else f"  {_quote(n)};")
    for u, v, data in sorted(g.edges(data=True)):
        lines.append(f"  {_quote(u)} -> {_quote(v)} [kind={_quote(data.get('kind', ''))}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
