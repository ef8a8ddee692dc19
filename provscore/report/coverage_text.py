"""What covers the touched code, as text: the lines every renderer shows (they format the
report's :class:`~provscore.report.model.CoverageReport`; nothing is computed here), and
the output of ``provscore coverage``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from tabulate import tabulate

if TYPE_CHECKING:
    from provscore.callgraph.touched import TouchedSymbol
    from provscore.report.model import CoverageReport, SymbolRow

_LISTED = 3  # tests named per symbol in a table cell


def corpus_line(c: CoverageReport) -> str:
    share = "n/a" if c.share is None else f"{c.share:.1%}"
    g = dict(c.graph)
    return (f"base corpus: results name {c.base_tests_with_results} of {c.base_tests} "
            f"collected base tests ({share}; the contract requires {c.min_share * 100:g}%); call "
            f"graph: {g.get('calls', 0)} calls, {g.get('resolved', 0)} resolved, "
            f"{g.get('external', 0)} external, {g.get('builtin', 0)} builtin, "
            f"{g.get('unknown', 0)} unknown")


def tests_cell(r: SymbolRow) -> str:
    if not r.tests_total:
        return "none"
    named = ", ".join(f"{t.name} ({t.outcome})" for t in r.tests[:_LISTED])
    more = f" … +{r.tests_total - _LISTED}" if r.tests_total > _LISTED else ""
    return f"{r.tests_with_results}/{r.tests_total} with results: {named}{more}"


def properties_cell(r: SymbolRow) -> str:
    return ", ".join(f"{p.name} ({p.outcome})" for p in r.properties) or "none"


def coverage_rows(c: CoverageReport) -> list[list[str]]:
    return [[r.symbol, f"{r.path}:{r.line}", r.status, tests_cell(r), properties_cell(r)]
            for r in c.symbols]


HEADERS = ["symbol", "where", "status", "tests (base, reaching it)", "properties"]


def coverage_text(symbols: Sequence[TouchedSymbol]) -> str:
    """``provscore coverage``: each touched symbol, the tests and properties reaching it."""
    if not symbols:
        return "no touched symbol in production or helper code\n"
    lines: list[str] = []
    for s in symbols:
        lines.append(f"{s.name}  ({s.kind}, {s.path}:{s.lines[0]})")
        lines.append(f"  tests ({len(s.tests)}): " + (", ".join(s.tests[:20]) or "none")
                     + (f" … +{len(s.tests) - 20}" if len(s.tests) > 20 else ""))
        lines.append("  properties: " + (", ".join(s.properties) or "none"))
    rows = [[s.name, len(s.tests), len(s.properties)] for s in symbols]
    return "\n".join(lines) + "\n\n" + tabulate(rows, headers=["symbol", "tests", "properties"],
                                                tablefmt="simple") + "\n"


def coverage_json(symbols: Sequence[TouchedSymbol]) -> str:
    return json.dumps({"symbols": [
        {"symbol": s.name, "kind": s.kind, "path": s.path, "sides": list(s.sides),
         "lines": list(s.lines), "tests": list(s.tests), "properties": list(s.properties)}
        for s in symbols]}, indent=2) + "\n"
