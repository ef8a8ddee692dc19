"""The comparison as text, markdown, CSV or JSON (formatting only: compare.py computes)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from tabulate import tabulate

from provscore.batch.compare import DECISIONS, MEASURES, AgentStats, Comparison, Example, Rate

FORMATS = ("text", "markdown", "csv", "json")


def _pct(value: float) -> str:
    return f"{100 * value:.1f}"


def rate_cell(r: Rate) -> str:
    """``k/n p% [lo–hi]``; ``–`` when there is nothing to divide by."""
    if r.n == 0 or r.interval is None or r.rate is None:
        return "–"
    lo, hi = r.interval
    return f"{r.k}/{r.n} {_pct(r.rate)}% [{_pct(lo)}–{_pct(hi)}]"


def _headers(comp: Comparison) -> list[str]:
    return ["agent" if comp.group == "model" else "prediction file", "patches", "scored",
            "unscored", *(m.title for m in MEASURES), "mean merge score",
            "pass/review/reject"]


def _cells(a: AgentStats) -> list[Any]:
    mean = "–" if a.merge_score_mean is None else f"{a.merge_score_mean:.4f} (n={a.merge_scored})"
    return [a.agent, a.patches, a.scored, a.unscored, *(rate_cell(a.rate(m.key))
                                                        for m in MEASURES),
            mean, "/".join(str(n) for _, n in a.decisions)]


def render_comparison(comp: Comparison, fmt: str) -> str:
    if fmt == "json":
        return json.dumps(comparison_dict(comp), indent=2) + "\n"
    if fmt == "csv":
        return _csv(comp)
    rows = [_cells(a) for a in comp.agents]
    if fmt == "markdown":
        table = tabulate(rows, headers=_headers(comp), tablefmt="github", disable_numparse=True)
        return (f"{table}\n\nRates are k/n with a 95 % Wilson interval; n is the agent's scored "
                "patches (resolved: those with a benchmark outcome; resolved with tampering: "
                "the resolved ones).\n")
    # Text: one block per agent, so a dozen measures stay readable in a terminal.
    blocks = []
    for a, cells in zip(comp.agents, rows, strict=True):
        pairs = list(zip(_headers(comp)[1:], cells[1:], strict=True))
        blocks.append(f"{a.agent}\n" + tabulate(pairs, tablefmt="plain", disable_numparse=True))
    if not blocks:
        return "no rows in the results database\n"
    return "\n\n".join(blocks) + "\n"


def comparison_dict(comp: Comparison) -> dict[str, Any]:
    return {"group": comp.group, "agents": [{
        "agent": a.agent, "patches": a.patches, "scored": a.scored, "unscored": a.unscored,
        "rates": {k: _rate_dict(r) for k, r in a.rates},
        "merge_score_mean": a.merge_score_mean, "merge_scored": a.merge_scored,
        "decisions": dict(a.decisions), "families": dict(a.families),
    } for a in comp.agents]}


def _rate_dict(r: Rate) -> dict[str, Any]:
    interval = r.interval
    return {"k": r.k, "n": r.n, "rate": r.rate, "low": interval[0] if interval else None,
            "high": interval[1] if interval else None}


def _csv(comp: Comparison) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    header = ["agent", "patches", "scored", "unscored"]
    for m in MEASURES:
        header += [f"{m.key}_k", f"{m.key}_n", f"{m.key}_rate", f"{m.key}_low",
                   f"{m.key}_high"]
    w.writerow([*header, "merge_score_mean", "merge_scored", *DECISIONS])
    for a in comp.agents:
        cells: list[Any] = [a.agent, a.patches, a.scored, a.unscored]
        for m in MEASURES:
            d = _rate_dict(a.rate(m.key))
            cells += [d["k"], d["n"], _num(d["rate"]), _num(d["low"]), _num(d["high"])]
        w.writerow([*cells, _num(a.merge_score_mean), a.merge_scored,
                    *(n for _, n in a.decisions)])
    return out.getvalue()


def _num(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"


def render_examples(items: Iterable[Example], fmt: str, limit: int | None) -> str:
    rows = []
    for i, e in enumerate(items):
        if limit is not None and i >= limit:
            break
        rows.append([e.agent, e.instance_id, e.where, e.detail, e.pred_file])
    headers = ["agent", "instance", "where", "detail", "prediction file"]
    if fmt == "json":
        return json.dumps([dict(zip(headers, r, strict=True)) for r in rows], indent=2) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        w = csv.writer(out, lineterminator="\n")
        w.writerows([headers, *rows])
        return out.getvalue()
    if not rows:
        return "no patches\n"
    return tabulate(rows, headers=headers, tablefmt="github" if fmt == "markdown" else "simple",
                    disable_numparse=True) + "\n"
