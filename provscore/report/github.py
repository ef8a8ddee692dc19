"""``--format github``: GitHub Actions workflow commands (annotations) and a step summary.

``render_github`` returns one annotation per line: first the decision, then every
finding in report order (reject → ``::error``, penalty → ``::warning``, info →
``::notice``). A finding's path and line become ``file=`` and ``line=``; a line on base
(``side`` pre) is not a line of the checked-out tree, so it goes in the message instead.

Escaping follows the Actions toolkit (``@actions/core``, ``command.ts``): in the message
(data) ``%``, CR and LF become ``%25``, ``%0D`` and ``%0A``; in properties ``:`` and
``,`` also become ``%3A`` and ``%2C``. A command is recognised only at the start of a
line, and nothing here can start a new line, so text from the patch cannot issue
commands of its own.

Renderers do no I/O: ``step_summary(report)`` returns the Markdown for
``$GITHUB_STEP_SUMMARY`` and the CLI appends it to that file when the variable is set.
"""

from __future__ import annotations

from provscore.model import Action, Decision, Finding
from provscore.report import RenderOptions, register
from provscore.report.markdown import build_comment, rules_url, score_text
from provscore.report.model import Report
from provscore.report.sarif import artifact_uri

COMMAND = {Action.REJECT: "error", Action.PENALTY: "warning", Action.INFO: "notice"}
DECISION_COMMAND = {Decision.REJECT: "error", Decision.REVIEW: "warning",
                    Decision.PASS: "notice"}


def escape_data(text: str) -> str:
    """A command's message (the text after the second ``::``)."""
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value (``file=…``, ``title=…``)."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(name: str, message: str, **properties: str | int | None) -> str:
    props = ",".join(f"{key}={escape_property(str(value))}"
                     for key, value in properties.items() if value is not None and value != "")
    return f"::{name}{' ' + props if props else ''}::{escape_data(message)}"


def decision_annotation(report: Report) -> str:
    """The decision, and why: the first cause of a reject; for a review, the rules whose
    penalties a reviewer must look at (or the score below the pass threshold)."""
    message = f"merge score {score_text(report)}"
    fc = report.first_cause
    if fc is None and report.decision is Decision.REVIEW:
        codes = sorted({c for g in report.gates if g.status == "penalty" for c in g.codes})
        message += "; a reviewer must look: " + (
            ", ".join(codes) if codes else "the merge score is below the pass threshold")
    if fc is not None:
        at = f" at {fc.path}:{fc.line}" if fc.path and fc.line else (
            f" at {fc.path}" if fc.path else "")
        message += f"; first cause: gate {fc.gate} {fc.gate_name}: {fc.code}{at}: {fc.message}"
    return command(DECISION_COMMAND[report.decision], message,
                   title=f"provscore {report.decision.value.upper()}")


def finding_annotation(f: Finding) -> str:
    loc = f.location
    file: str | None = None
    line: int | None = None
    notes: list[str] = []
    if loc is not None:
        if artifact_uri(loc.path) is not None:
            file = loc.path
        else:  # not a path inside the repo: name it in the message, not as file=
            notes.append(loc.path)
        if loc.line is not None and loc.line >= 1:
            if loc.side == "pre":
                notes.append(f"line {loc.line} on base")
            elif file is not None:
                line = loc.line
            else:
                notes.append(f"line {loc.line}")
    message = f.message + (f" ({', '.join(notes)})" if notes else "")
    return command(COMMAND[f.action], message, file=file, line=line,
                   title=f"{f.code} {f.name}")


@register("github")
def render_github(report: Report, options: RenderOptions) -> str:
    lines = [decision_annotation(report)]
    if not options.quiet:
        lines += [finding_annotation(f) for f in report.findings]
        if report.coverage is not None:
            from provscore.report.coverage_text import corpus_line

            c = report.coverage
            status = ", ".join(f"{r.symbol}: {r.status}" for r in c.symbols) or "none"
            lines.append(command("notice", f"touched symbols: {status}; {corpus_line(c)}",
                                 title="provscore coverage"))
    return "\n".join(lines) + "\n"


def step_summary(report: Report, options: RenderOptions | None = None) -> str:
    """Markdown for ``$GITHUB_STEP_SUMMARY`` (the PR comment's text; the CLI appends it)."""
    return build_comment(report, rules_url(options))
