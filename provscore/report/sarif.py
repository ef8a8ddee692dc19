"""``--format sarif``: SARIF 2.1.0 for GitHub code scanning (docs/report.md, "sarif").

One run; ``tool.driver.rules`` holds the rules that fired, once each, with the registry's
summary and rationale; every finding is one result pointing at its rule by ``ruleId`` and
``ruleIndex``. GitHub's extra requirements (docs.github.com, "SARIF support for code
scanning") shape the choices below:

- every result has exactly one location (GitHub rejects an upload whose result has none)
  and every location a ``region.startLine`` (the uploader requires it);
- a finding without a usable path (PS502: the repository as a whole) is shown on line 1
  of the report's ``repository_anchor``, a stable file at base such as
  ``pyproject.toml`` (else the first path of the write set), as other tools anchor
  repository-level results, and says so in ``location.message``;
- the finding's line only when it is a line of the patched tree; a line on base (``side``
  pre: a removed assertion, a hunk that does not apply) would point at an unrelated line
  of the analysed commit, so the result is on line 1 of its file and the base line goes
  in the message and in ``properties.baseLine``; a file-level finding is on line 1;
- ``partialFingerprints`` carries provscore's own key ``provscore/v1`` (sha256 of the
  finding's anchor, stable across line shifts); ``primaryLocationLineHash`` is left to
  GitHub's uploader, which computes it from the checked-out file;
- at most 25,000 results (GitHub rejects more) and at most 10 MB gzipped (likewise); past
  either, results are kept by level and the cut is reported in
  ``invocations[0].toolExecutionNotifications``.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import re
from typing import Any
from urllib.parse import quote

from provscore import __version__
from provscore.model import Action, Finding
from provscore.report import RenderOptions, register
from provscore.report.markdown import PROJECT_URL, rule_anchor, rules_url
from provscore.report.model import SCHEMA, Report, RuleInfo

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
FINGERPRINT_KEY = "provscore/v1"
SRCROOT = "%SRCROOT%"
#: GitHub rejects a run with more results than this.
MAX_RESULTS = 25_000
#: GitHub rejects an upload whose gzipped SARIF file is larger than 10 MB (decimal, to be safe).
MAX_GZIP_BYTES = 10_000_000
#: GitHub's limits for rule texts.
MAX_NAME_CHARS = 255
MAX_DESCRIPTION_CHARS = 1_024

LEVEL = {Action.REJECT: "error", Action.PENALTY: "warning", Action.INFO: "note"}
_UNWRAP = re.compile(r"(?<!\n)\n(?!\n)")


def fingerprint(finding: Finding) -> str:
    """``provscore/v1``: sha256 of the anchor (code, path and message when it has none)."""
    key = finding.anchor or "|".join(
        (finding.code, finding.location.path if finding.location else "", finding.message))
    return hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def artifact_uri(path: str) -> str | None:
    """A relative, percent-encoded URI for a repo path; None for a path that is not one
    (absolute, ``..``, NUL, drive letter): those findings get a repo-level location."""
    if not path or "\x00" in path or path.startswith(("/", "\\")) or \
            (len(path) > 1 and path[1] == ":"):
        return None
    parts = path.replace("\\", "/").split("/")
    if any(p in ("..", ".") for p in parts) or parts[0] == ".git":
        return None
    return quote(path, safe="/")


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _descriptor(code: str, finding: Finding, rule: RuleInfo | None, base_url: str
                ) -> dict[str, Any]:
    name = rule.name if rule else finding.name
    summary = (rule.summary if rule else "") or name
    rationale = (rule.rationale if rule else "") or summary
    prose = _UNWRAP.sub(" ", rationale)  # the registry hard-wraps its TOML text
    url = f"{base_url}#{rule_anchor(code, name)}"
    gate = rule.gate if rule else finding.gate
    return {
        "id": code,
        "name": _clip(name, MAX_NAME_CHARS),
        "shortDescription": {"text": _clip(summary, MAX_DESCRIPTION_CHARS)},
        "fullDescription": {"text": _clip(prose.split("\n\n")[0], MAX_DESCRIPTION_CHARS)},
        "help": {"text": f"{prose}\n\nRule page: {url}",
                 "markdown": f"{rationale}\n\n[{code} {name}]({url})"},
        "helpUri": url,
        "defaultConfiguration": {"level": LEVEL[rule.action if rule else finding.action]},
        "properties": {"tags": ["provscore", rule.gate_name if rule else "other"],
                       "gate": gate,
                       "penalty": rule.penalty if rule else finding.penalty},
    }


def _anchor_uri(report: Report) -> tuple[str, str]:
    """Where a finding without a usable path is shown: line 1 of the report's repository
    anchor (a stable file at base, e.g. pyproject.toml), so that GitHub's fingerprint of
    that line stays the same from one run to the next."""
    for candidate in (report.inputs.repository_anchor,
                      *(row.path for row in report.write_set)):
        uri = artifact_uri(candidate) if candidate else None
        if uri is not None:
            return uri, f"repository-level finding, shown on line 1 of {candidate}"
    return ".", "repository-level finding, shown at the repository root"


def _result(f: Finding, index: int, report: Report) -> dict[str, Any]:
    """One result. Every location has ``region.startLine`` (GitHub's uploader requires
    one): the finding's line when it is a line of the patched tree, else line 1 of the
    file, with the base line in the message and in ``properties.baseLine``."""
    loc = f.location
    text = f.message
    props: dict[str, Any] = {"action": f.action.value, "penalty": f.penalty}
    if f.node_id:
        props["nodeId"] = f.node_id
    uri = artifact_uri(loc.path) if loc else None
    why = ""
    line = 1
    if uri is None:
        uri, why = _anchor_uri(report)
        if loc is not None:
            props["path"] = loc.path
    else:
        assert loc is not None
        if loc.line is not None and loc.line >= 1:
            if loc.side == "pre":
                text += f" (line {loc.line} on base)"
                props["baseLine"] = loc.line
            else:
                line = loc.line
    location: dict[str, Any] = {"physicalLocation": {
        "artifactLocation": {"uri": uri, "uriBaseId": SRCROOT}, "region": {"startLine": line}}}
    if why:
        location["message"] = {"text": why}
    if loc is not None:
        props["side"] = loc.side
    return {
        "ruleId": f.code,
        "ruleIndex": index,
        "level": LEVEL[f.action],
        "message": {"text": text},
        "locations": [location],
        "partialFingerprints": {FINGERPRINT_KEY: fingerprint(f)},
        "properties": props,
    }


def sarif_log(report: Report, base_url: str, limit: int | None = None,
              why: str = "") -> dict[str, Any]:
    """The SARIF log as a dict (``render_sarif`` serialises it), with at most ``limit``
    results (default: GitHub's :data:`MAX_RESULTS`), kept by level."""
    findings = list(report.findings)
    notifications: list[dict[str, Any]] = []
    cap = MAX_RESULTS if limit is None else min(limit, MAX_RESULTS)
    if len(findings) > cap:
        rank = {Action.REJECT: 0, Action.PENALTY: 1, Action.INFO: 2}
        kept = sorted(range(len(findings)), key=lambda i: (rank[findings[i].action], i))
        keep = set(kept[:cap])
        reason = why or f"GitHub code scanning accepts at most {MAX_RESULTS:,} results per run"
        notifications.append({
            "level": "warning",
            "message": {"text": f"{len(findings) - cap} of {len(findings)} findings "
                                f"left out: {reason}; see the JSON report"}})
        findings = [f for i, f in enumerate(findings) if i in keep]
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    results: list[dict[str, Any]] = []
    for f in findings:
        if f.code not in index:
            index[f.code] = len(rules)
            rules.append(_descriptor(f.code, f, report.rule(f.code), base_url))
        results.append(_result(f, index[f.code], report))
    invocation: dict[str, Any] = {"executionSuccessful": True}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    fc = report.first_cause
    return {
        "$schema": SARIF_SCHEMA_URI,
        "version": SARIF_VERSION,
        "runs": [{
            "tool": {"driver": {
                "name": "provscore",
                "version": __version__,
                "semanticVersion": __version__,
                "informationUri": PROJECT_URL,
                "rules": rules,
            }},
            "originalUriBaseIds": {SRCROOT: {"description": {
                "text": "The root of the scored repository."}}},
            "invocations": [invocation],
            "results": results,
            "properties": {
                "schema": SCHEMA,
                "decision": report.decision.value,
                "mergeScore": report.merge_score,
                "unscored": report.unscored,
                "firstCause": None if fc is None else {"gate": fc.gate, "code": fc.code},
                "base": report.inputs.base,
                "head": report.inputs.head,
                "coverage": None if report.coverage is None else report.coverage.to_dict(),
                **_run_properties(report),
            },
        }],
    }


def _dump(log: dict[str, Any]) -> str:
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def gzip_size(text: str) -> int:
    return len(gzip.compress(text.encode("utf-8"), compresslevel=6, mtime=0))
def _run_properties(report: Report) -> dict[str, object]:
    """The off-tree run, when there was one (``provscore verify``)."""
    run = report.run
    if run is None:
        return {}
    return {"offTreeRun": {"runId": run.run_id, "patchId": run.patch_id,
                           "sandbox": run.sandbox, "refused": run.refused,
                           "corpusDigest": run.corpus_digest,
                           "fingerprint": run.fingerprint.digest if run.fingerprint else None}}


@register("sarif")
def render_sarif(report: Report, options: RenderOptions) -> str:
    """The log, cut (by level, then report order) until it is within GitHub's upload
    limit of :data:`MAX_GZIP_BYTES` compressed."""
    base_url = rules_url(options)
    text = _dump(sarif_log(report, base_url))
    if gzip_size(text) <= MAX_GZIP_BYTES:
        return text
    why = f"the gzipped SARIF file must stay under GitHub's {MAX_GZIP_BYTES:,}-byte limit"
    lo, hi = 0, min(len(report.findings), MAX_RESULTS)
    while lo < hi:  # the most results whose log still fits
        mid = (lo + hi + 1) // 2
        if gzip_size(_dump(sarif_log(report, base_url, mid, why))) <= MAX_GZIP_BYTES:
            lo = mid
        else:
            hi = mid - 1
    return _dump(sarif_log(report, base_url, lo, why))
