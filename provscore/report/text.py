"""``--format text``: terminal tables (tabulate) that fit ``RenderOptions.width``.

The width comes from the CLI (``COLUMNS``, else the terminal). Messages wrap at spaces
and paths only after ``/``: nothing is cut mid-word. When the findings table would leave
the message column too narrow to read, each finding is a block instead: its code, rule,
action and place on one line, the message indented below.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tabulate import tabulate

from provscore.model import Action, Decision, Finding
from provscore.report import RenderOptions, register
from provscore.report.layout import DEFAULT_WIDTH, fill, wrap
from provscore.report.model import CoverageReport, Report

_COLORS = {Decision.PASS: "32", Decision.REVIEW: "33", Decision.REJECT: "31"}
#: Narrower than this, the message column is unreadable: findings become blocks.
MIN_MESSAGE_WIDTH = 40
MIN_NOTE_WIDTH = 16
#: tabulate's "simple" format puts two spaces between columns.
_GAP = 2
_INDENT = "    "


def paint(text: str, code: str, options: RenderOptions) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if options.color else text


def width_of(options: RenderOptions) -> int:
    return options.width if options.width and options.width > 0 else DEFAULT_WIDTH


def decision_line(report: Report) -> str:
    score = "unscored" if report.merge_score is None else f"{report.merge_score:.4f}"
    line = f"provscore: {report.decision.value.upper()} (merge score {score})"
    if report.first_cause is not None:
        fc = report.first_cause
        where = f" at {fc.path}:{fc.line}" if fc.path and fc.line else (
            f" at {fc.path}" if fc.path else "")
        line += f" — first cause: gate {fc.gate} {fc.gate_name}: {fc.code}{where}"
    return line


def painted_decision(report: Report, options: RenderOptions) -> str:
    return paint(decision_line(report), _COLORS[report.decision], options)


def _where(f: Finding) -> str:
    loc = f.location
    if loc is None:
        return ""
    text = f"{loc.path}:{loc.line}" if loc.line else loc.path
    return f"{text} (base)" if loc.side == "pre" and loc.line else text


def _widths(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> list[int]:
    """Column widths as tabulate's "simple" format lays them out (a header gets two
    characters of padding)."""
    return [max(len(h) + 2, *(len(r[i]) for r in rows)) for i, h in enumerate(headers)]


def findings_table(findings: Sequence[Finding], width: int) -> str:
    """The findings as a table that fits ``width``, or as blocks when it cannot."""
    rows = [[f.code, f.name, f.action.value, _where(f)] for f in findings]
    headers = ["code", "rule", "action", "where", "message"]
    fixed = _widths(headers[:4], rows)
    message_width = width - sum(fixed) - _GAP * len(fixed)
    if message_width >= MIN_MESSAGE_WIDTH:
        cells = [[*r, fill(f.message, message_width)] for r, f in zip(rows, findings,
                                                                          strict=True)]
        return tabulate(cells, headers=headers, tablefmt="simple", disable_numparse=True)
    blocks: list[str] = []
    for r, f in zip(rows, findings, strict=True):
        head, where = "  ".join(r[:3]), r[3]
        lines = [f"{head}  {where}" if where else head]
        if where and len(lines[0]) > width:  # the place on its own lines, cut after '/'
            lines = [head, *(_INDENT + p for p in wrap(where, width - len(_INDENT)))]
        lines += [_INDENT + line for line in wrap(f.message, width - len(_INDENT))]
        blocks.append("\n".join(lines))
    return "\n".join(blocks)


def gates_table(report: Report, width: int) -> str:
    rows = [[str(g.number), g.name, g.status, ", ".join(g.codes)] for g in report.gates]
    headers = ["#", "gate", "status", "codes", "note"]
    fixed = _widths(headers[:4], rows)
    note_width = width - sum(fixed) - _GAP * len(fixed)
    align = ("right", "left", "left", "left", "left")
    if note_width >= MIN_NOTE_WIDTH:
        cells = [[*r, fill(g.note, note_width) if g.note else ""]
                 for r, g in zip(rows, report.gates, strict=True)]
        return tabulate(cells, headers=headers, tablefmt="simple", disable_numparse=True,
                        colalign=align)
    # Too narrow for a note column: the notes follow the table, one gate each.
    table = tabulate(rows, headers=headers[:4], tablefmt="simple", disable_numparse=True,
                     colalign=align[:4])
    notes = [fill(f"gate {g.number}: {g.note}", width) for g in report.gates if g.note]
    return "\n".join([table, *notes])


@register("text")
def render_text(report: Report, options: RenderOptions) -> str:
    head = painted_decision(report, options)
    if options.quiet:
        return head + "\n"
    width = width_of(options)
    parts = [head, ""]
    if report.first_cause is not None:
        parts += [fill(f"First cause: {report.first_cause.message}", width), ""]
    listed = [f for f in report.findings if f.action is not Action.INFO]
    info = [f for f in report.findings if f.action is Action.INFO]
    if listed:
        parts += ["Findings", findings_table(listed, width), ""]
    if info:
        parts += [f"({len(info)} info finding(s); see --format concise or json)", ""]
    if report.gates:
        parts += ["Gates", gates_table(report, width), ""]
    if report.evidence:
        kinds = sorted(report.evidence)
        labels = sorted({p for v in report.evidence.values() for p in v})
        table = [[k, *(report.evidence[k].get(p, 0) for p in labels)] for k in kinds]
        parts += ["Evidence (kind × provenance)", tabulate(table, headers=["kind", *labels],
                                                           tablefmt="simple"), ""]
    if report.coverage is not None:
        parts += [coverage_section(report.coverage, width), ""]
    if report.selection.ignored or report.selection.kept:
        parts += [fill(selection_line(report), width), ""]
    s = report.score
    parts.append(fill(f"removed evidence: {s.removed} · agent-added evidence: {s.added} · "
                      f"independent results: {s.passed} passed, {s.failed} failed, "
                      f"{s.unscored} unscored", width))
    parts.append(f"write set: {len(report.write_set)} path(s)")
    base = report.inputs.merge_base
    if base and base != report.inputs.base:
        parts.append(f"scored against the merge base {base[:12]} of base "
                     f"{report.inputs.base[:12]} and head {(report.inputs.head or '')[:12]}")
    parts += run_lines(report)
    return "\n".join(parts) + "\n"


def coverage_section(coverage: CoverageReport, width: int) -> str:
    """What covers the touched code: one block per symbol (its place and status, then its
    tests and properties indented), wrapped to ``width`` at spaces and separators, so a
    path or test id is never cut (a table with five wide columns could only cut them)."""
    from provscore.report.coverage_text import corpus_line, coverage_rows

    lines = ["What covers the touched code"]
    rows = coverage_rows(coverage)
    if not rows:
        lines.append("(no touched symbol in production or helper code)")
    for symbol, where, status, tests, properties in rows:
        lines += wrap(f"{symbol}  {where}  {status}", width)
        lines += [_INDENT + line for line in wrap(f"tests: {tests}", width - len(_INDENT))]
        lines += [_INDENT + line
                  for line in wrap(f"properties: {properties}", width - len(_INDENT))]
    lines.append(fill(corpus_line(coverage), width))
    return "\n".join(lines)


def selection_line(report: Report) -> str:
    """Which findings the rule selection left out, and which rules it could not."""
    sel = report.selection
    parts: list[str] = []
    if sel.ignored:
        left_out = ", ".join(f"{code} ×{n}" for code, n in sel.ignored)
        parts.append(f"Left out by the rule selection ({', '.join(sel.sources)}): {left_out}")
    if sel.kept:
        parts.append("Kept although deselected: " + "; ".join(
            f"{code} ({why})" for code, why in sel.kept))
    return ". ".join(parts)
def run_lines(report: Report) -> list[str]:
    """The off-tree run: what ran where, the environment, the failure digest."""
    run = report.run
    if run is None:
        return []
    head = f"off-tree run {run.run_id} of patch {run.patch_id}"
    if run.refused:
        return ["", f"{head}: refused: {run.refused}"]
    lines = ["", f"{head}: sandbox {run.sandbox}, {len(run.base_tests)} base test(s) x "
             f"{run.repeats} repeat(s), {len(run.properties)} oracle propert(y/ies), "
             f"{run.wall_seconds:.1f} s, subset {run.subset}"]
    fp = run.fingerprint
    if fp is not None:
        lines.append(f"environment: {fp.implementation} {fp.python} on {fp.platform}, "
                     f"{len(fp.distributions)} distribution(s), lock hash "
                     f"{fp.lock_hash[:16] or 'none'}, fingerprint {fp.digest}")
    lines.append(f"corpus digest: {run.corpus_digest}")
    if run.failures:
        lines += ["", "Failure digest (last lines per failing test)"]
        for f in run.failures:
            lines.append(f"  {f.node_id}")
            lines += [f"    | {_CONTROL.sub(_escape, line)}" for line in f.lines]
    return lines


# Lines from the run may hold terminal escapes; they are shown, never obeyed.
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def _escape(match: re.Match[str]) -> str:
    return f"\\x{ord(match.group()):02x}"
