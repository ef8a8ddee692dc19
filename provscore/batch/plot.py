"""The comparison as a figure (``provscore[plot]``): finding families per agent, stacked,
and the distribution of merge scores. Drawing only: compare.py computes."""

from __future__ import annotations

import io
from pathlib import Path

from provscore.batch.compare import Comparison
from provscore.batch.extras import require
from provscore.errors import InputError
from provscore.io import atomic_write
from provscore.registry.model import FAMILIES


def plot_comparison(comp: Comparison, out: Path) -> None:
    """Write the figure to ``out`` (PNG, SVG or PDF by suffix), atomically."""
    matplotlib = require("matplotlib", "plot", "for --plot")
    matplotlib.use("Agg")  # no display: files only
    plt = require("matplotlib.pyplot", "plot", "for --plot")
    fmt = out.suffix.lstrip(".").lower() or "png"
    if fmt not in ("png", "svg", "pdf"):
        raise InputError("--plot: the file must end in .png, .svg or .pdf", path=str(out))
    agents = [a.agent for a in comp.agents]
    fig, (bars, dist) = plt.subplots(1, 2, figsize=(max(8.0, 1.2 * len(agents) + 6), 4.8))
    seen = {f for a in comp.agents for f, _ in a.families}
    families = [f for f in FAMILIES if f in seen] + sorted(seen - set(FAMILIES))
    bottom = [0.0] * len(agents)
    for family in families:
        heights = [100.0 * dict(a.families).get(family, 0) / a.scored if a.scored else 0.0
                   for a in comp.agents]
        bars.bar(agents, heights, bottom=bottom, label=family)
        bottom = [b + h for b, h in zip(bottom, heights, strict=True)]
    bars.set_ylabel("findings per 100 scored patches")
    bars.set_title("Finding families per agent")
    if families:
        bars.legend(fontsize="small")
    bars.tick_params(axis="x", labelrotation=30)
    scored = [(a.agent, list(a.merge_scores)) for a in comp.agents if a.merge_scores]
    if scored:
        dist.boxplot([s for _, s in scored], tick_labels=[n for n, _ in scored])
        dist.set_ylabel("merge score")
        dist.tick_params(axis="x", labelrotation=30)
    else:
        dist.text(0.5, 0.5, "no merge scores:\nno row had tests that voted", ha="center",
                  va="center", transform=dist.transAxes)
        dist.set_xticks([])
        dist.set_yticks([])
    dist.set_title("Merge score distribution")
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format=fmt, dpi=120)
    plt.close(fig)
    atomic_write(out, buf.getvalue(), what="figure")
