"""``--format concise``: one line per finding, ``path:line:col: CODE message`` (ruff's
``concise``), then the decision line. Editors, ``grep`` and problem matchers read it.

provscore places findings by line; the column is always 1. Every line has a path and a
line, so one pattern reads them all: a finding on a line of base (a removed assertion)
is not a line of the working tree, so it is shown on line 1 of its file with the base
line in the message, as a file-level finding is; a repository-level finding (PS502) is
shown on line 1 of the report's ``repository_anchor``, as SARIF shows it.

``--statistics`` (:func:`render_statistics`) replaces the list with counts per code.
"""

from __future__ import annotations

from tabulate import tabulate

from provscore.model import Action, Finding
from provscore.report import RenderOptions, register
from provscore.report.model import Report
from provscore.report.text import paint, painted_decision

_ACTION_COLORS = {Action.REJECT: "31", Action.PENALTY: "33", Action.INFO: "36"}
_BOLD = "1"
#: Where a finding with no usable place goes when the report names no anchor either.
ROOT_PLACE = "."


def place(f: Finding, anchor: str | None) -> tuple[str, int, str]:
    """(path, line, note for the message) of a finding, as every line-based output
    shows it (concise, SARIF): the line only when it is a line of the patched tree."""
    loc = f.location
    if loc is None:
        return anchor or ROOT_PLACE, 1, "repository-level finding"
    if loc.line is None or loc.line < 1:
        return loc.path, 1, ""
    if loc.side == "pre":
        return loc.path, 1, f"line {loc.line} on base"
    return loc.path, loc.line, ""


def concise_line(f: Finding, anchor: str | None, options: RenderOptions) -> str:
    path, line, note = place(f, anchor)
    message = " ".join(f.message.split())  # one line, whatever the message holds
    if note:
        message += f" ({note})"
    return (f"{paint(path, _BOLD, options)}:{line}:1: "
            f"{paint(f.code, _ACTION_COLORS[f.action], options)} {message}")


@register("concise")
def render_concise(report: Report, options: RenderOptions) -> str:
    lines: list[str] = []
    if not options.quiet:
        anchor = report.inputs.repository_anchor
        lines = [concise_line(f, anchor, options) for f in report.findings]
    lines.append(painted_decision(report, options))
    return "\n".join(lines) + "\n"


def render_statistics(report: Report, options: RenderOptions) -> str:
    """``--statistics``: findings per rule code, most first, then the decision line."""
    rows = [[str(n), code, name, action] for code, name, action, n in report.counts_by_code()]
    parts: list[str] = []
    if rows:
        parts.append(tabulate(rows, headers=["count", "code", "rule", "action"],
                              tablefmt="simple", disable_numparse=True,
                              colalign=("right", "left", "left", "left")))
    else:
        parts.append("no findings")
    ignored = sum(n for _, n in report.selection.ignored)
    if ignored:
        parts.append(f"({ignored} finding(s) left out by the rule selection)")
    parts.append(painted_decision(report, options))
    return "\n".join(parts) + "\n"
