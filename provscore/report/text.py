"""``--format text``: terminal tables (tabulate); honours NO_COLOR via RenderOptions."""

from __future__ import annotations

import re

from tabulate import tabulate

from provscore.model import Action, Decision
from provscore.report import RenderOptions, register
from provscore.report.model import Report

_COLORS = {Decision.PASS: "32", Decision.REVIEW: "33", Decision.REJECT: "31"}


def _paint(text: str, code: str, options: RenderOptions) -> str:
    return f"\x1b[{code}m{text}\x1b[0m" if options.color else text


def decision_line(report: Report) -> str:
    score = "unscored" if report.merge_score is None else f"{report.merge_score:.4f}"
    line = f"provscore: {report.decision.value.upper()} (merge score {score})"
    if report.first_cause is not None:
        fc = report.first_cause
        where = f" at {fc.path}:{fc.line}" if fc.path and fc.line else (
            f" at {fc.path}" if fc.path else "")
        line += f" — first cause: gate {fc.gate} {fc.gate_name}: {fc.code}{where}"
    return line


@register("text")
def render_text(report: Report, options: RenderOptions) -> str:
    head = _paint(decision_line(report), _COLORS[report.decision], options)
    if options.quiet:
        return head + "\n"
    parts = [head, ""]
    if report.first_cause is not None:
        parts += [f"First cause: {report.first_cause.message}", ""]
    rows = [[f.code, f.name, f.action.value,
             f"{f.location.path}:{f.location.line}" if f.location and f.location.line
             else (f.location.path if f.location else ""), f.message]
            for f in report.findings if f.action is not Action.INFO]
    info = [f for f in report.findings if f.action is Action.INFO]
    if rows:
        parts += ["Findings", tabulate(rows, headers=["code", "rule", "action", "where",
                                                     "message"], tablefmt="simple",
                                       maxcolwidths=[None, None, None, 40, 70]), ""]
    if info:
        parts += [f"({len(info)} info finding(s); see --format json)", ""]
    gates = [[g.number, g.name, g.status, ", ".join(g.codes), g.note] for g in report.gates]
    parts += ["Gates", tabulate(gates, headers=["#", "gate", "status", "codes", "note"],
                                tablefmt="simple"), ""]
    if report.evidence:
        kinds = sorted(report.evidence)
        labels = sorted({p for v in report.evidence.values() for p in v})
        table = [[k, *(report.evidence[k].get(p, 0) for p in labels)] for k in kinds]
        parts += ["Evidence (kind × provenance)", tabulate(table, headers=["kind", *labels],
                                                           tablefmt="simple"), ""]
    if report.coverage is not None:
        from provscore.report.coverage_text import HEADERS, corpus_line, coverage_rows

        rows_c = coverage_rows(report.coverage)
        parts.append("What covers the touched code")
        if rows_c:
            parts += [tabulate(rows_c, headers=HEADERS, tablefmt="simple",
                               maxcolwidths=[40, 30, None, 60, 40]), ""]
        else:
            parts.append("(no touched symbol in production or helper code)")
        parts += [corpus_line(report.coverage), ""]
    s = report.score
    parts.append(f"removed evidence: {s.removed}   agent-added evidence: {s.added}   "
                 f"independent results: {s.passed} passed, {s.failed} failed, "
                 f"{s.unscored} unscored")
    parts.append(f"write set: {len(report.write_set)} path(s)")
    base = report.inputs.merge_base
    if base and base != report.inputs.base:
        parts.append(f"scored against the merge base {base[:12]} of base "
                     f"{report.inputs.base[:12]} and head {(report.inputs.head or '')[:12]}")
    parts += run_lines(report)
    return "\n".join(parts) + "\n"


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
