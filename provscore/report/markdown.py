"""``--format markdown``: one pull-request comment (GitHub-flavoured Markdown).

The comment reads top-down: the decision and merge score, the first cause, a table of
findings by gate and action, the findings, then the details a reviewer opens on demand
(info findings, the evidence table, the independent results, the write set). A hidden
marker lets a bot find and update one sticky comment. GitHub refuses comments longer than
65,536 characters, so when the full comment would be longer the lowest-priority sections
go first, then the findings list is cut with a note that points to the JSON report.

Everything that came from the patch (messages, paths, node ids) is shown in code spans,
where Markdown, HTML, @-mentions and autolinks are inert. Presentation only: every number
here was computed before the report was built.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from tabulate import tabulate

from provscore import __version__
from provscore.model import Action, Decision, Finding
from provscore.records import dataclass
from provscore.report import RenderOptions, register
from provscore.report.model import Report

#: GitHub's limit for an issue or pull-request comment body.
MAX_COMMENT_CHARS = 65_536
#: A bot finds its previous comment by this line and edits it instead of posting again.
STICKY_MARKER = "<!-- provscore:sticky -->"
#: The project's home page (SARIF ``informationUri``).
PROJECT_URL = "https://github.com/provscore/provscore"
#: Where rule codes link to; ``RenderOptions.rules_url`` overrides it when the owner adds it.
DEFAULT_RULES_URL = f"{PROJECT_URL}/blob/main/docs/rules.md"
#: The longest message, path or node id shown before it is cut (the JSON report has it all).
MAX_FIELD_CHARS = 1_000
MAX_FIRST_CAUSE_CHARS = 400

DECISION_ICON = {Decision.PASS: "✅", Decision.REVIEW: "⚠️", Decision.REJECT: "❌"}
ACTION_ICON = {Action.REJECT: "❌", Action.PENALTY: "⚠️", Action.INFO: "ℹ️"}
GATE_STATUS = {"pass": "✅ pass", "fail": "❌ fail", "penalty": "⚠️ penalty",
               "not_evaluated": "➖ not evaluated"}

# C0/C1 controls (tab excepted) and the bidirectional overrides of "Trojan Source": shown
# as visible escapes so that nothing in a comment renders differently from what it is.
_INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e"
                        "\u2066-\u2069]")
_NEWLINES = re.compile(r"\r\n|\r|\n")
_BACKTICKS = re.compile("`+")
# Characters that can start Markdown or HTML inline syntax; escaped in plain text.
_MD_SPECIAL = re.compile(r"([\\`*_\[\]{}()#+!|~])")


# --------------------------------------------------------------------------- escaping

def utf16_len(text: str) -> int:
    """Length as GitHub's browser-side counter sees it (never less than code points)."""
    return len(text.encode("utf-16-le")) // 2


def _visible(text: str) -> str:
    return _INVISIBLE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def clip(text: str, limit: int = MAX_FIELD_CHARS) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def code_span(text: str, *, table: bool = False, limit: int = MAX_FIELD_CHARS) -> str:
    """``text`` as an inline code span: no Markdown, HTML, mention or link inside works.

    Line breaks become ``↵`` (a blank line would end the paragraph); the fence is one
    backtick longer than the longest run inside. In a table cell ``|`` is escaped, as GFM
    requires even inside code spans.
    """
    body = _NEWLINES.sub(" ↵ ", _visible(clip(text, limit)))
    if not body:
        return ""
    if table:
        body = body.replace("|", "\\|")
    longest = max((len(m.group()) for m in _BACKTICKS.finditer(body)), default=0)
    fence = "`" * (longest + 1)
    if body[0] in "` " or body[-1] in "` ":
        body = f" {body} "
    return f"{fence}{body}{fence}"


def escape_text(text: str, limit: int = MAX_FIELD_CHARS) -> str:
    """Plain text that renders as itself: Markdown punctuation backslash-escaped, HTML
    special characters as entities, line breaks as spaces."""
    body = _NEWLINES.sub(" ", _visible(clip(text, limit)))
    body = body.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MD_SPECIAL.sub(r"\\\1", body)


# --------------------------------------------------------------------------- pieces

def rules_url(options: RenderOptions | None) -> str:
    url = getattr(options, "rules_url", None)
    return url if isinstance(url, str) and url else DEFAULT_RULES_URL


def rule_anchor(code: str, name: str) -> str:
    """The heading anchor of a rule in docs/rules.md (``## PS101 assertion-removed``)."""
    return f"{code.lower()}-{name}"


def rule_link(code: str, name: str, base_url: str) -> str:
    return f"[{escape_text(code)} {escape_text(name)}]({base_url}#{rule_anchor(code, name)})"


def score_text(report: Report) -> str:
    return "unscored" if report.merge_score is None else f"{report.merge_score:.4f}"


def headline(report: Report) -> str:
    """The comment's first line: decision and merge score."""
    return (f"### {DECISION_ICON[report.decision]} provscore: "
            f"{report.decision.value.upper()} — merge score: {score_text(report)}")


def where(path: str | None, line: int | None, side: str | None, *,
          table: bool = False) -> str:
    if not path:
        return ""
    text = code_span(f"{path}:{line}" if line else path, table=table)
    return f"{text} (base)" if side == "pre" else text


def first_cause_line(report: Report, base_url: str) -> str:
    fc = report.first_cause
    if fc is None:
        if report.decision is Decision.PASS:
            return ("**First cause:** none — no gate failed. A pass is a merge candidate; "
                    "the production diff still needs human review.")
        return ("**First cause:** none — no gate failed; penalty findings or a merge score "
                "below the pass threshold call for a human review.")
    names = {f.code: f.name for f in report.findings}
    rule = rule_link(fc.code, names[fc.code], base_url) if fc.code in names else \
        escape_text(fc.code)
    side = next((f.location.side for f in report.findings
                 if f.code == fc.code and f.location is not None
                 and f.location.path == fc.path and f.location.line == fc.line), None)
    at = f" at {where(fc.path, fc.line, side)}" if fc.path else ""
    return (f"**First cause:** gate {fc.gate} {escape_text(fc.gate_name)}: {rule}{at} — "
            f"{code_span(fc.message, limit=MAX_FIRST_CAUSE_CHARS)}")


def counts_table(report: Report) -> str:
    """Findings by gate (rows) and action (columns), with each gate's status."""
    counts = {g.number: dict.fromkeys(Action, 0) for g in report.gates}
    for f in report.findings:
        counts.setdefault(f.gate, dict.fromkeys(Action, 0))[f.action] += 1
    rows: list[list[str]] = []
    for g in report.gates:
        status = GATE_STATUS.get(g.status, escape_text(g.status))
        if g.note:
            status += f": {escape_text(g.note)}"
        c = counts.get(g.number, dict.fromkeys(Action, 0))
        rows.append([str(g.number), escape_text(g.name), status,
                     *(str(c[a]) for a in Action), escape_text(", ".join(g.codes))])
    totals = [sum(1 for f in report.findings if f.action is a) for a in Action]
    rows.append(["", "**total**", "", *(f"**{n}**" for n in totals), ""])
    return tabulate(rows, headers=["#", "gate", "status", *(a.value for a in Action), "codes"],
                    tablefmt="github", disable_numparse=True,
                    colalign=("right", "left", "left", "right", "right", "right", "left"))


def evidence_line(report: Report) -> str:
    s = report.score
    rate = "—" if s.independent_pass_rate is None else f"{s.independent_pass_rate:.4f}"
    paths = len(report.write_set)
    return (f"**Evidence:** {s.removed} removed · {s.added} written by the patch · "
            f"independent results: {s.passed} passed, {s.failed} failed, {s.unscored} "
            f"unscored (pass rate {rate}) · penalties: removed {s.removed_penalty:.4f}, "
            f"added {s.added_penalty:.4f}, other {s.other_penalty:.4f} · write set: "
            f"{paths} path{'' if paths == 1 else 's'}")


def finding_line(f: Finding, base_url: str) -> str:
    loc = f.location
    parts = [f"- {ACTION_ICON[f.action]} {rule_link(f.code, f.name, base_url)}"]
    place = where(loc.path, loc.line, loc.side) if loc else ""
    if place:
        parts.append(place)
    if f.node_id and f.node_id not in f.message and (loc is None or f.node_id != loc.path):
        parts.append(code_span(f.node_id))
    return " ".join(parts) + " — " + code_span(f.message)


def details(summary: str, body: str) -> str:
    # The blank lines let GitHub render the Markdown inside the HTML block.
    return f"<details><summary>{summary}</summary>\n\n{body}\n\n</details>"


def evidence_table(report: Report) -> str:
    kinds = sorted(report.evidence)
    labels = sorted({p for v in report.evidence.values() for p in v})
    rows = [[escape_text(k), *(str(report.evidence[k].get(p, 0)) for p in labels)]
            for k in kinds]
    return tabulate(rows, headers=["kind", *(escape_text(p) for p in labels)],
                    tablefmt="github", disable_numparse=True,
                    colalign=("left", *("right" for _ in labels)))


def pipe_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A GFM table without padding. tabulate pads every cell to its column's widest, so
    one long path made a 60-row write set 66 KB of spaces and pushed a 6 KB comment over
    GitHub's limit; GFM needs no alignment, and this table is as long as its text."""
    lines = ["| " + " | ".join(headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def write_set_table(report: Report) -> str:
    rows = [[code_span(w.path, table=True), escape_text(w.role), escape_text(w.status),
             "yes" if w.runner else ""] for w in report.write_set]
    return pipe_table(["path", "role", "status", "runner channel"], rows)


def results_table(report: Report) -> str:
    rows = [[code_span(r.node_id, table=True), escape_text(r.status),
             escape_text(", ".join(r.verdicts)), escape_text(r.reason)]
            for r in report.results]
    return pipe_table(["test id", "status", "verdicts", "reason"], rows)


def run_line(report: Report) -> str:
    """The off-tree run in one line (always shown when there was one)."""
    run = report.run
    if run is None:
        return ""
    head = f"**Off-tree run:** {code_span(run.run_id)} of patch {code_span(run.patch_id)}"
    if run.refused:
        return f"{head} — refused: {code_span(run.refused)}"
    box = "🔒 bwrap sandbox" if run.sandbox == "bwrap" else \
        f"⚠️ not sandboxed ({escape_text(run.sandbox_note)})"
    bits = [head, box, f"{len(run.base_tests)} base tests × {run.repeats} repeat(s)",
            f"{len(run.properties)} oracle properties", f"{run.wall_seconds:.1f} s"]
    fp = run.fingerprint
    if fp is not None:
        bits.append(f"{escape_text(fp.implementation)} {escape_text(fp.python)}, "
                    f"{len(fp.distributions)} distributions, fingerprint {code_span(fp.digest)}")
    if run.corpus_digest:
        bits.append(f"corpus {code_span(run.corpus_digest[:16])}")
    return " · ".join(bits)


def failure_digest(report: Report) -> str:
    """The bounded failure digest: the last lines of each failing test, in code blocks."""
    run = report.run
    if run is None or not run.failures:
        return ""
    blocks: list[str] = []
    for f in run.failures:
        body = "\n".join(_visible(clip(line, 300)) for line in f.lines) or "(no output)"
        longest = max((len(m.group()) for m in re.finditer("`+", body)), default=0)
        fence = "`" * max(3, longest + 1)
        blocks.append(f"{code_span(f.node_id)}\n\n{fence}text\n{body}\n{fence}")
    n = len(run.failures)
    return details(f"Failure digest ({n} failing test{'' if n == 1 else 's'})",
                   "\n\n".join(blocks))


def environment_table(report: Report) -> str:
    """The fingerprint: Python, platform, interpreter, lock hash, corpus, distributions."""
    run = report.run
    if run is None or run.fingerprint is None:
        return ""
    fp = run.fingerprint
    lines = [f"- Python: {escape_text(f'{fp.implementation} {fp.python}')} on "
             f"{escape_text(fp.platform)} ({code_span(fp.executable)})",
             f"- lock hash: {code_span(fp.lock_hash or 'none')}",
             f"- corpus digest: {code_span(run.corpus_digest or 'none')}",
             f"- {len(fp.distributions)} distributions: "
             + escape_text(", ".join(fp.distributions), limit=8_000)]
    return details(f"Environment (fingerprint {code_span(fp.digest)})", "\n".join(lines))


def footer(report: Report, base_url: str) -> str:
    bits = [f"provscore {escape_text(__version__)}",
            f"base {code_span(report.inputs.base[:12])}"]
    if report.inputs.head:
        bits.append(f"head {code_span(report.inputs.head[:12])}")
    if report.inputs.merge_base and report.inputs.merge_base != report.inputs.base:
        bits.append(f"scored against the merge base {code_span(report.inputs.merge_base[:12])}")
    if report.inputs.diff:
        bits.append(f"diff {code_span(report.inputs.diff, limit=200)}")
    bits.append(f"[rules]({base_url})")
    return "<sub>" + " · ".join(bits) + "</sub>"


# --------------------------------------------------------------------------- assembly

@dataclass(frozen=True, slots=True)
class _Parts:
    head: str
    counts: str
    findings: tuple[str, ...]
    # Which findings to keep when the list is cut: the first of each rule code, then the
    # rest in report order (a reviewer sees every rule that fired).
    keep_order: tuple[int, ...]
    info: tuple[str, ...]
    evidence: str
    results: str
    write_set: str
    foot: str
    coverage: str = ""
    digest: str = ""
    environment: str = ""


def _parts(report: Report, base_url: str) -> _Parts:
    listed = [f for f in report.findings if f.action is not Action.INFO]
    main = tuple(finding_line(f, base_url) for f in listed)
    first_of_code = {f.code: i for i, f in reversed(list(enumerate(listed)))}
    keep_order = tuple(sorted(range(len(listed)),
                              key=lambda i: (first_of_code[listed[i].code] != i, i)))
    info = tuple(finding_line(f, base_url) for f in report.findings
                 if f.action is Action.INFO)
    return _Parts(
        head=headline(report) + "\n" + first_cause_line(report, base_url),
        counts=counts_table(report) + "\n\n" + evidence_line(report)
        + (("\n\n" + run_line(report)) if report.run is not None else ""),
        findings=main, keep_order=keep_order, info=info,
        evidence=details("Evidence (kind × provenance)", evidence_table(report))
        if report.evidence else "",
        results=details(f"Independent results ({len(report.results)} test ids)",
                        results_table(report)) if report.results else "",
        write_set=details(f"Write set ({len(report.write_set)})", write_set_table(report))
        if report.write_set else "",
        foot=footer(report, base_url),
        coverage=coverage_block(report), digest=failure_digest(report),
        environment=environment_table(report))


def coverage_block(report: Report) -> str:
    """What covers the touched code: one row per touched symbol, then the corpus line."""
    c = report.coverage
    if c is None:
        return ""
    from provscore.report.coverage_text import corpus_line, properties_cell, tests_cell

    rows = [f"| {code_span(r.symbol, table=True)} | {code_span(f'{r.path}:{r.line}', table=True)}"
            f" | {r.status} | {code_span(tests_cell(r), table=True)} | "
            f"{code_span(properties_cell(r), table=True)} |" for r in c.symbols]
    table = ("| symbol | where | status | tests | properties |\n| --- | --- | --- | --- | --- |\n"
             + "\n".join(rows)) if rows else "No touched symbol in production or helper code."
    return details(f"What covers the touched code ({len(c.symbols)} symbols)",
                   table + "\n\n" + escape_text(corpus_line(c)))


def _compose(p: _Parts, *, shown: int, info: bool, evidence: bool, results: bool,
             write_set: bool, note: str, coverage: bool = True, digest: bool = True,
             environment: bool = True) -> str:
    blocks = [p.head, p.counts]
    if shown:
        lines = [p.findings[i] for i in sorted(p.keep_order[:shown])]
        blocks.append(f"#### Findings ({len(p.findings)})\n\n" + "\n".join(lines))
    if digest and p.digest:
        blocks.append(p.digest)
    if info and p.info:
        n = len(p.info)
        blocks.append(details(f"ℹ️ {n} info finding{'' if n == 1 else 's'}", "\n".join(p.info)))
    if coverage and p.coverage:
        blocks.append(p.coverage)
    if evidence and p.evidence:
        blocks.append(p.evidence)
    if results and p.results:
        blocks.append(p.results)
    if write_set and p.write_set:
        blocks.append(p.write_set)
    if environment and p.environment:
        blocks.append(p.environment)
    if note:
        blocks.append(note)
    blocks.append(p.foot + "\n" + STICKY_MARKER)
    return "\n\n".join(b for b in blocks if b) + "\n"


def _left_out_note(hidden_findings: int, sections: Sequence[str]) -> str:
    notes: list[str] = []
    if hidden_findings:
        notes.append(f"… {hidden_findings} more finding{'' if hidden_findings == 1 else 's'}; "
                     "see the JSON report")
    if sections:
        notes.append(f"Left out to fit GitHub's {MAX_COMMENT_CHARS:,}-character comment limit: "
                     f"{', '.join(sections)}; see the JSON report.")
    return "\n\n".join(notes)


def build_comment(report: Report, base_url: str = DEFAULT_RULES_URL, *,
                  limit: int = MAX_COMMENT_CHARS) -> str:
    """The full comment, cut to ``limit`` UTF-16 code units by dropping the lowest-priority
    sections first (environment, write set, independent results, failure digest, evidence
    table, info findings), then findings from the end of the list."""
    p = _parts(report, base_url)
    keep = {"environment": True, "write_set": True, "results": True, "digest": True,
            "evidence": True, "info": True, "coverage": True}
    dropped: list[str] = []

    def compose(shown: int) -> str:
        hidden = len(p.findings) - shown + (0 if keep["info"] else len(p.info))
        return _compose(p, shown=shown, note=_left_out_note(hidden, dropped), **keep)

    text = compose(len(p.findings))
    for section, label in (("environment", "environment"), ("write_set", "write set"),
                           ("results", "independent results"), ("digest", "failure digest"),
                           ("coverage", "coverage table"), ("evidence", "evidence table"),
                           ("info", "info findings")):
        if utf16_len(text) <= limit:
            return text
        if getattr(p, section):
            keep[section] = False
            dropped.append(label)
            text = compose(len(p.findings))
    if utf16_len(text) <= limit:
        return text
    # Cut the findings list: the longest prefix whose comment (with its note) still fits.
    lo, hi = 0, len(p.findings)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if utf16_len(compose(mid)) <= limit:
            lo = mid
        else:
            hi = mid - 1
    text = compose(lo)
    if utf16_len(text) > limit:  # only with an absurdly small limit: keep the marker
        tail = "\n" + STICKY_MARKER + "\n"
        budget = max(0, limit - utf16_len(tail) - 1)
        text = text.encode("utf-16-le")[:budget * 2].decode("utf-16-le", "ignore") + "…" + tail
    return text


@register("markdown")
def render_markdown(report: Report, options: RenderOptions) -> str:
    base_url = rules_url(options)
    if options.quiet:
        return (headline(report) + "\n" + first_cause_line(report, base_url) + "\n\n"
                + STICKY_MARKER + "\n")
    return build_comment(report, base_url)
