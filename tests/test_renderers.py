"""Renderers (markdown, sarif, github) on real reports, against golden files.

Each scenario is a real git repository and a real patch scored by the pipeline: a clean
patch with a green off-tree run, the demo's tampering patch, a patch whose findings carry
Markdown/HTML/workflow-command-hostile text, and a patch with thousands of findings.
Volatile bits (repo path, commit ids, version) are normalised before comparing.
Regenerate the golden files after an intended change with:

    PROVSCORE_UPDATE_GOLDEN=1 python -m pytest -q tests/test_renderers.py
"""

from __future__ import annotations

import dataclasses
import difflib
import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import jsonschema
import pytest
from tests_support import SESSION, GitRepo

from provscore import __version__
from provscore.demo import build_demo_repo
from provscore.model import Action, Decision, Finding, Location
from provscore.pipeline import ScoreRequest, score
from provscore.report import RENDERERS, RenderOptions, sarif
from provscore.report import github as gh
from provscore.report import markdown as md
from provscore.report.model import Report

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).resolve().parent / "golden"
SARIF_SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
REPORT_SCHEMA = ROOT / "docs" / "report.schema.json"
REGENERATE = "PROVSCORE_UPDATE_GOLDEN=1 python -m pytest -q tests/test_renderers.py"
OPTIONS = RenderOptions()
HUGE_ASSERTIONS = 3000


# --------------------------------------------------------------------------- scenarios

CALC_BASE = {
    "pytest.ini": "[pytest]\npythonpath = src\n",
    "src/calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
                          "    assert add(2, 3) == 5\n\n\ndef test_zero():\n"
                          "    assert add(0, 0) == 0\n",
}


def _scored_off_tree(root: Path, files: dict[str, str]) -> Report:
    """Score ``files`` as a patch, with base's tests run off-tree against the patched code."""
    repo = GitRepo(root / "repo")
    repo.commit(CALC_BASE)
    patch = repo.diff(files)
    results = repo.off_tree_run(patch, root / "offtree.xml")
    return score(ScoreRequest(repo=repo.root, base="HEAD", diff=patch, results=(results,)))


def _clean(root: Path) -> Report:
    """A production-only patch with a green off-tree run: a pass."""
    return _scored_off_tree(root, {"src/calc.py": "def add(a, b):\n    return b + a\n"})


def _review(root: Path) -> Report:
    """The same, plus a test the patch wrote (it never votes and costs 0.01): a review."""
    return _scored_off_tree(root, {
        "src/calc.py": "def add(a, b):\n    return b + a\n",
        "tests/test_more.py": "from calc import add\n\n\ndef test_neg():\n"
                              "    assert add(-1, 1) == 0\n"})


def _demo(root: Path) -> Report:
    repo, diff = build_demo_repo(root)
    return score(ScoreRequest(repo=repo, base="HEAD", diff=diff, diff_origin="agent.patch"))


HOSTILE_BASE = '''\
import pytest

from app import render


def test_render():
    assert render("<script>alert(1)</script>") == "a | b"
    assert render("`x`") == """line one

line two %0A ::error::pwned"""


def test_mention():
    assert render("@octocat") == "[link](javascript:alert(1)) **bold** _i_ &amp;"
'''
HOSTILE_PATCHED = '''\
import pytest

from app import render


def test_render():
    assert render("<script>alert(1)</script>") == "a | b"


@pytest.mark.skip(reason="@everyone <img src=x onerror=alert(1)> | `tick` %25 \\r\\n::warning::x")
def test_mention():
    assert render("@octocat") == "[link](javascript:alert(1)) **bold** _i_ &amp;"
'''
HOSTILE_CONFTEST = '''\
def pytest_collection_modifyitems(items):
    items[:] = [i for i in items if "<b>|`@here` %0A, x: y" not in i.name]
'''
HOSTILE_PATH = "tests/test_a|b`c`<i>.py"


def _hostile(root: Path) -> Report:
    """Findings whose messages and paths carry Markdown, HTML and workflow-command syntax."""
    repo = GitRepo(root / "repo")
    repo.commit({"src/app.py": "def render(s):\n    return s\n",
                 "tests/test_render.py": HOSTILE_BASE})
    diff = repo.diff({"src/app.py": "def render(s):\n    return s.strip()\n",
                      "tests/test_render.py": HOSTILE_PATCHED,
                      "tests/conftest.py": HOSTILE_CONFTEST,
                      HOSTILE_PATH: "def test_x():\n    x = 1\n    assert x == x\n"})
    return repo.score(diff)


def _huge(root: Path) -> Report:
    """Thousands of findings: every assertion but one removed from a long test."""
    repo = GitRepo(root / "repo")
    body = "\n".join(f"    assert total([{i}, {i}]) == {2 * i}" for i in range(HUGE_ASSERTIONS))
    repo.commit({"src/calc.py": "def total(xs):\n    return sum(xs)\n",
                 "tests/test_calc.py": f"from calc import total\n\n\ndef test_total():\n{body}\n"})
    diff = repo.diff({"tests/test_calc.py": "from calc import total\n\n\ndef test_total():\n"
                                            "    assert total([0, 0]) == 0\n"})
    return repo.score(diff)


SCENARIOS: dict[str, Callable[[Path], Report]] = {
    "clean": _clean, "review": _review, "demo": _demo, "hostile": _hostile, "huge": _huge}


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Report]]:
    """Each scenario scored once per module (scoring the huge one takes seconds)."""
    cache: dict[str, Report] = {}

    class Lazy(dict[str, Report]):
        def __missing__(self, name: str) -> Report:
            cache[name] = SCENARIOS[name](tmp_path_factory.mktemp(name))
            self[name] = cache[name]
            return cache[name]

    yield Lazy()


def with_info(report: Report) -> Report:
    """The report plus one info finding (no built-in rule emits one in these scenarios)."""
    info = SESSION.registry["PS103"].finding("an info-level note about `tests/test_invoice.py`",
                                       location=Location("tests/test_invoice.py", 3),
                                       action=Action.INFO, anchor="info-note")
    return dataclasses.replace(report, findings=(*report.findings, info))


# --------------------------------------------------------------------------- golden files

def normalise(text: str, report: Report) -> str:
    for value, label in ((report.inputs.repo, "<REPO>"), (report.inputs.head, "<HEAD>"),
                         (report.inputs.base, "<BASE>")):
        if value:
            text = text.replace(value, label).replace(value[:12], label)
    return text.replace(f"provscore {__version__}", "provscore <VERSION>") \
        .replace(f'"version": "{__version__}"', '"version": "<VERSION>"') \
        .replace(f'"semanticVersion": "{__version__}"', '"semanticVersion": "<VERSION>"')


def check_golden(name: str, actual: str) -> None:
    path = GOLDEN / name
    if os.environ.get("PROVSCORE_UPDATE_GOLDEN") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(actual.encode("utf-8"))
        return
    if not path.is_file():
        pytest.fail(f"golden file {path} is missing; create it with:\n  {REGENERATE}")
    expected = path.read_bytes().decode("utf-8")
    if actual != expected:
        diff = "".join(difflib.unified_diff(expected.splitlines(keepends=True),
                                            actual.splitlines(keepends=True),
                                            f"golden/{name}", "rendered"))
        pytest.fail(f"{name} differs from its golden file:\n{diff[:20_000]}\n"
                    f"If the change is intended, regenerate the golden files with:\n"
                    f"  {REGENERATE}")


GOLDEN_CASES = [(s, f) for s in ("clean", "demo", "hostile")
                for f in ("markdown", "sarif", "github")] + \
    [("review", "markdown"), ("review", "github"), ("huge", "markdown")]
SUFFIX = {"markdown": "md", "sarif": "sarif", "github": "github.txt"}


@pytest.mark.parametrize(("scenario", "fmt"), GOLDEN_CASES,
                         ids=[f"{s}-{f}" for s, f in GOLDEN_CASES])
def test_golden(reports: dict[str, Report], scenario: str, fmt: str) -> None:
    report = reports[scenario]
    check_golden(f"{scenario}.{SUFFIX[fmt]}", normalise(RENDERERS[fmt](report, OPTIONS), report))


def test_scenarios_are_what_they_claim(reports: dict[str, Report]) -> None:
    assert reports["clean"].decision is Decision.PASS
    assert not reports["clean"].findings
    assert reports["review"].decision is Decision.REVIEW
    assert reports["demo"].decision is Decision.REJECT
    assert {f.location.path for f in reports["hostile"].findings if f.location} >= {
        HOSTILE_PATH, "tests/conftest.py", "tests/test_render.py"}
    assert sum(f.code == "PS101" for f in reports["huge"].findings) == HUGE_ASSERTIONS - 1


# --------------------------------------------------------------------------- JSON report

def _schema() -> dict[str, Any]:
    schema: dict[str, Any] = json.loads(REPORT_SCHEMA.read_text(encoding="utf-8"))
    return schema


def test_report_schema_is_valid_draft_2020_12() -> None:
    jsonschema.Draft202012Validator.check_schema(_schema())


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_report_matches_schema(reports: dict[str, Report], scenario: str) -> None:
    validator = jsonschema.Draft202012Validator(
        _schema(), format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)
    data = json.loads(json.dumps(reports[scenario].to_dict()))
    errors = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:20])


def test_schema_rejects_unknown_fields(reports: dict[str, Report]) -> None:
    data = reports["demo"].to_dict()
    data["findings"][0]["extra"] = 1
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, _schema(), cls=jsonschema.Draft202012Validator)


def _property_names(node: Any) -> set[str]:
    names: set[str] = set()
    if isinstance(node, dict):
        for key, value in node.get("properties", {}).items():
            names.add(key)
            names |= _property_names(value)
        for key in ("items", "additionalProperties", "$defs", "oneOf", "anyOf"):
            child = node.get(key)
            if isinstance(child, dict) and key == "$defs":
                for sub in child.values():
                    names |= _property_names(sub)
            elif isinstance(child, (dict, list)):
                names |= _property_names(child)
    elif isinstance(node, list):
        for item in node:
            names |= _property_names(item)
    return names


def test_every_report_field_is_documented() -> None:
    doc = (ROOT / "docs" / "report.md").read_text(encoding="utf-8")
    missing = sorted(n for n in _property_names(_schema()) if f"`{n}`" not in doc)
    assert not missing, f"docs/report.md does not describe: {missing}"


# --------------------------------------------------------------------------- SARIF

LEVELS = {"none", "note", "warning", "error"}


def github_sarif_problems(log: dict[str, Any]) -> list[str]:
    """GitHub code scanning's requirements beyond the SARIF schema (docs.github.com,
    "SARIF support for code scanning" and "SARIF results exceed one or more limits";
    codeql-action's uploader): required fields, every location with a region.startLine,
    at most 20 runs, 25,000 rules and results per run, 20 tags per rule, 10 locations per
    result, and 10 MB gzipped."""
    problems: list[str] = []
    if sarif.gzip_size(json.dumps(log, indent=2, ensure_ascii=False) + "\n") > 10_000_000:
        problems.append("the gzipped file is over GitHub's 10 MB upload limit")
    if log.get("version") != "2.1.0" or not log.get("$schema"):
        problems.append("version must be 2.1.0 and $schema set")
    runs = log.get("runs", [])
    if not 1 <= len(runs) <= 20:
        problems.append(f"{len(runs)} runs (GitHub: at most 20)")
    for run in runs:
        driver = run["tool"]["driver"]
        if not driver.get("name"):
            problems.append("tool.driver.name is required")
        rules = driver.get("rules")
        if not isinstance(rules, list) or len(rules) > 25_000:
            problems.append("tool.driver.rules must be a list of at most 25,000 rules")
            continue
        ids = [r.get("id") for r in rules]
        if len(ids) != len(set(ids)):
            problems.append("rule ids are not unique")
        for r in rules:
            where = f"rule {r.get('id')}"
            for key in ("shortDescription", "fullDescription"):
                text = r.get(key, {}).get("text", "")
                if not text or len(text) > 1024:
                    problems.append(f"{where}: {key}.text must be 1..1024 characters")
            if not r.get("help", {}).get("text"):
                problems.append(f"{where}: help.text is required")
            if len(r.get("name", "")) > 255:
                problems.append(f"{where}: name longer than 255")
            if r.get("defaultConfiguration", {}).get("level") not in {"note", "warning", "error"}:
                problems.append(f"{where}: defaultConfiguration.level")
            if len(r.get("properties", {}).get("tags", [])) > 20:
                problems.append(f"{where}: more than 20 tags")
            if urlsplit(r.get("helpUri", "")).scheme != "https":
                problems.append(f"{where}: helpUri must be an absolute https URL")
        results = run.get("results")
        if not isinstance(results, list) or len(results) > 25_000:
            problems.append("results must be a list of at most 25,000 results")
            continue
        for i, res in enumerate(results):
            where = f"result {i} ({res.get('ruleId')})"
            if not res.get("message", {}).get("text"):
                problems.append(f"{where}: message.text is required")
            if res.get("ruleId") not in ids:
                problems.append(f"{where}: ruleId not in the rules table")
            index = res.get("ruleIndex")
            if not isinstance(index, int) or not 0 <= index < len(rules) or \
                    rules[index]["id"] != res.get("ruleId"):
                problems.append(f"{where}: ruleIndex does not point at its rule")
            if res.get("level") not in LEVELS:
                problems.append(f"{where}: level")
            locations = res.get("locations") or []
            if not 1 <= len(locations) <= 10:
                problems.append(f"{where}: needs 1..10 locations (GitHub needs at least one)")
            for loc in locations:
                phys = loc.get("physicalLocation", {})
                uri = phys.get("artifactLocation", {}).get("uri", "")
                if not uri or urlsplit(uri).scheme or uri.startswith("/") or \
                        quote(unquote(uri), safe="/") != uri:
                    problems.append(f"{where}: uri {uri!r} is not a relative encoded path")
                region = phys.get("region") or {}
                if not (isinstance(region.get("startLine"), int) and region["startLine"] >= 1):
                    problems.append(f"{where}: region.startLine (an integer >= 1) is required")
            prints = res.get("partialFingerprints")
            if not isinstance(prints, dict) or not prints or \
                    not all(isinstance(v, str) and v for v in prints.values()):
                problems.append(f"{where}: partialFingerprints required")
            elif "primaryLocationLineHash" in prints:
                problems.append(f"{where}: primaryLocationLineHash is the uploader's to compute")
    return problems


def _sarif(report: Report) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(RENDERERS["sarif"](report, OPTIONS))
    return data


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
def test_sarif_is_valid_for_the_schema_and_github(reports: dict[str, Report],
                                                  scenario: str) -> None:
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    log = _sarif(reports[scenario])
    errors = list(jsonschema.Draft4Validator(schema).iter_errors(log))
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:20])
    assert github_sarif_problems(log) == []


def test_sarif_results_rules_and_fingerprints(reports: dict[str, Report]) -> None:
    report = reports["demo"]
    run = _sarif(report)["runs"][0]
    results, rules = run["results"], run["tool"]["driver"]["rules"]
    assert len(results) == len(report.findings)
    assert [r["id"] for r in rules] == list(dict.fromkeys(f.code for f in report.findings))
    for f, res in zip(report.findings, results, strict=True):
        assert res["ruleId"] == f.code
        assert res["level"] == {"reject": "error", "penalty": "warning", "info": "note"}[
            f.action.value]
        assert res["partialFingerprints"] == {
            "provscore/v1": hashlib.sha256(f.anchor.encode()).hexdigest()}
    rule = rules[[r["id"] for r in rules].index("PS101")]
    assert rule["helpUri"].endswith("/docs/rules.md#ps101-assertion-removed")
    assert rule["help"]["markdown"].startswith(SESSION.registry["PS101"].rationale.split()[0])
    props = run["properties"]
    assert (props["decision"], props["mergeScore"], props["unscored"]) == ("reject", None, True)
    assert run["invocations"] == [{"executionSuccessful": True}]


def test_sarif_locations(reports: dict[str, Report]) -> None:
    report = reports["demo"]
    results = _sarif(report)["runs"][0]["results"]
    by_code = {r["ruleId"]: r for r in results}
    # A line on base is not a line of the analysed commit: line 1, base line in the text.
    removed = by_code["PS101"]
    assert removed["locations"][0]["physicalLocation"]["region"] == {"startLine": 1}
    assert removed["message"]["text"].endswith("(line 12 on base)")
    assert removed["properties"]["baseLine"] == 12
    assert by_code["PS201"]["locations"][0]["physicalLocation"]["region"] == {"startLine": 14}
    # No path: line 1 of the repository's stable anchor file at base (the demo repository
    # has no pyproject.toml or README: base's first file in path order), and says so.
    assert report.inputs.repository_anchor == "src/invoice.py"
    pathless = by_code["PS502"]["locations"][0]
    assert pathless["physicalLocation"]["artifactLocation"]["uri"] == "src/invoice.py"
    assert pathless["physicalLocation"]["region"] == {"startLine": 1}
    assert pathless["message"]["text"] == \
        "repository-level finding, shown on line 1 of src/invoice.py"
    # Every result of every scenario has a startLine (github_sarif_problems checks it).
    hostile = _sarif(reports["hostile"])["runs"][0]["results"]
    assert quote(HOSTILE_PATH) in {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in hostile}


def test_sarif_uri_and_fallbacks() -> None:
    assert sarif.artifact_uri("src/a b%.py") == "src/a%20b%25.py"
    assert sarif.artifact_uri("tests/über.py") == "tests/%C3%BCber.py"
    for bad in ("/etc/passwd", "../x.py", "a/../../x", "C:/x.py", ".git/config", "a\x00b", ""):
        assert sarif.artifact_uri(bad) is None, bad


def test_sarif_caps_results_at_githubs_limit(reports: dict[str, Report],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    report = with_info(reports["huge"])
    monkeypatch.setattr(sarif, "MAX_RESULTS", 100)
    run = _sarif(report)["runs"][0]
    assert len(run["results"]) == 100
    assert all(r["level"] == "error" for r in run["results"])  # kept by level
    note = run["invocations"][0]["toolExecutionNotifications"][0]["message"]["text"]
    assert note.startswith(f"{len(report.findings) - 100} of {len(report.findings)} findings")
    assert github_sarif_problems({"version": "2.1.0", "$schema": "x", "runs": [run]}) == []


# --------------------------------------------------------------------------- markdown

_CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)")
_OUR_TAGS = re.compile(r"</?(details|summary|sub)>|<!-- provscore:sticky -->")


def outside_code(text: str) -> str:
    return _CODE_SPAN.sub("", text)


def test_markdown_first_lines_and_marker(reports: dict[str, Report]) -> None:
    text = RENDERERS["markdown"](reports["demo"], OPTIONS)
    first, second = text.splitlines()[:2]
    assert first == "### ❌ provscore: REJECT — merge score: unscored"
    assert second.startswith("**First cause:** gate 4 runner-channels: [PS302 ")
    assert md.STICKY_MARKER in text.splitlines()
    assert RENDERERS["markdown"](reports["clean"], OPTIONS).startswith(
        "### ✅ provscore: PASS — merge score: 1.0000\n")
    review = RENDERERS["markdown"](reports["review"], OPTIONS).splitlines()
    assert review[0] == "### ⚠️ provscore: REVIEW — merge score: 0.9900"
    assert review[1].startswith("**First cause:** none — no gate failed; ")


def test_markdown_rule_links_reach_the_rules_page(reports: dict[str, Report]) -> None:
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    headings = {re.sub(r"[^a-z0-9 _-]", "", line[3:].strip().lower()).replace(" ", "-")
                for line in page.splitlines() if line.startswith("## ")}
    for rule in SESSION.registry.sorted():
        assert md.rule_anchor(rule.code, rule.name) in headings
    text = RENDERERS["markdown"](reports["demo"], OPTIONS)
    assert f"]({md.DEFAULT_RULES_URL}#ps101-assertion-removed)" in text
    custom = SimpleNamespace(color=False, quiet=False, rules_url="https://example.org/r.html")
    assert "](https://example.org/r.html#ps101-assertion-removed)" in \
        md.render_markdown(reports["demo"], custom)  # type: ignore[arg-type]


def test_markdown_hostile_text_is_inert(reports: dict[str, Report]) -> None:
    text = RENDERERS["markdown"](reports["hostile"], OPTIONS)
    plain = outside_code(text)
    assert "<img" in text and "<img" not in plain
    assert _OUR_TAGS.sub("", plain).count("<") == 0, "raw HTML outside code spans"
    for needle in ("@everyone", "@here", "@octocat", "**bold**", "javascript:"):
        assert needle not in plain, needle
    # Table rows keep their column count although a path in the write set contains "|".
    for block in re.findall(r"(?m)(?:^\|.*\n)+", text):
        rows = block.splitlines()
        widths = {len(re.findall(r"(?<!\\)\|", row)) for row in rows}
        assert len(widths) == 1, rows
    # One finding per line, whatever newlines the messages hold.
    finding_lines = [line for line in text.splitlines() if line.startswith("- ")]
    assert len(finding_lines) == sum(f.action is not Action.INFO
                                     for f in reports["hostile"].findings)


def test_code_span_and_escape_text() -> None:
    assert md.code_span("a`b") == "``a`b``"
    assert md.code_span("`x`") == "`` `x` ``"
    assert md.code_span("a\n\nb") == "`a ↵  ↵ b`"
    assert md.code_span("a|b", table=True) == "`a\\|b`"
    assert md.code_span("x\u202ey\x00") == "`x\\u202ey\\u0000`"
    assert md.code_span("") == ""
    assert md.code_span("y" * 2000).endswith("…`")
    assert md.escape_text("<b>*x*</b> | [a](b) & _c_") == \
        "&lt;b&gt;\\*x\\*&lt;/b&gt; \\| \\[a\\]\\(b\\) &amp; \\_c\\_"


def test_markdown_fits_githubs_comment_limit(reports: dict[str, Report]) -> None:
    report = reports["huge"]
    text = RENDERERS["markdown"](report, OPTIONS)
    assert md.utf16_len(text) <= md.MAX_COMMENT_CHARS
    shown = sum(1 for line in text.splitlines() if line.startswith("- "))
    assert 0 < shown < len(report.findings)
    assert f"… {len(report.findings) - shown} more findings; see the JSON report" in text
    for code in {f.code for f in report.findings}:  # every rule that fired stays visible
        assert f"- ❌ [{code} " in text
    assert text.splitlines()[0].startswith("### ❌ provscore: REJECT")
    assert text.rstrip().endswith(md.STICKY_MARKER)
    assert "Write set (" not in text and "Evidence (kind" not in text


def test_markdown_drops_lowest_priority_sections_first(reports: dict[str, Report]) -> None:
    report = with_info(reports["demo"])
    full = md.build_comment(report)
    assert md.utf16_len(full) < md.MAX_COMMENT_CHARS
    for marker in ("Write set (", "Evidence (kind", "ℹ️ 1 info finding"):
        assert marker in full
    # Shrink the limit step by step: sections go in priority order, findings go last.
    main = sum(f.action is not Action.INFO for f in report.findings)
    seen: list[tuple[bool, ...]] = []
    for limit in range(md.utf16_len(full), 3000, -50):
        text = md.build_comment(report, limit=limit)
        assert md.utf16_len(text) <= limit
        assert text.splitlines()[0] == md.headline(report)
        assert md.STICKY_MARKER in text
        shown = sum(line.startswith("- ") and not line.startswith("- ℹ️")
                    for line in text.splitlines())
        state = ("Write set (" in text, "Evidence (kind" in text, "<summary>ℹ️" in text,
                 shown == main)
        if not seen or seen[-1] != state:
            seen.append(state)
    assert seen == [(True, True, True, True), (False, True, True, True),
                    (False, False, True, True), (False, False, False, True),
                    (False, False, False, False)]


def test_markdown_info_findings_are_folded(reports: dict[str, Report]) -> None:
    text = md.build_comment(with_info(reports["demo"]))
    details = text[text.index("<details><summary>ℹ️ 1 info finding"):]
    assert details.index("an info-level note") < details.index("</details>")
    listed = text[:text.index("<details>")]
    assert "an info-level note" not in listed


def test_markdown_quiet(reports: dict[str, Report]) -> None:
    text = RENDERERS["markdown"](reports["demo"], RenderOptions(quiet=True))
    assert text.splitlines()[0] == md.headline(reports["demo"])
    assert md.STICKY_MARKER in text and "| gate" not in text


# --------------------------------------------------------------------------- github

_COMMAND = re.compile(r"^::(error|warning|notice)(?: ((?:[a-zA-Z]+=[^,:\r\n]*)"
                      r"(?:,[a-zA-Z]+=[^,:\r\n]*)*))?::([^\r\n]*)$")


def unescape(text: str) -> str:
    return re.sub(r"%(25|0D|0A|3A|2C)",
                  lambda m: {"25": "%", "0D": "\r", "0A": "\n", "3A": ":", "2C": ","}[m[1]],
                  text)


def test_workflow_command_escaping() -> None:
    assert gh.escape_data("50% done\r\nnext %0A") == "50%25 done%0D%0Anext %250A"
    assert gh.escape_property("a: b, c%") == "a%3A b%2C c%25"
    assert gh.command("error", "m", file="a,b:c.py", line=3, title=None) == \
        "::error file=a%2Cb%3Ac.py,line=3::m"
    assert gh.command("notice", "m") == "::notice::m"


@pytest.mark.parametrize("scenario", ["demo", "hostile", "huge"])
def test_github_annotations_are_one_command_per_line(reports: dict[str, Report],
                                                     scenario: str) -> None:
    report = reports[scenario]
    lines = RENDERERS["github"](report, OPTIONS).splitlines()
    coverage = 1 if report.coverage is not None else 0  # one notice: what covers the code
    assert len(lines) == 1 + len(report.findings) + coverage
    if coverage:
        assert lines.pop().startswith("::notice title=provscore coverage::touched symbols: ")
    for line, f in zip(lines[1:], report.findings, strict=True):
        m = _COMMAND.match(line)
        assert m, line
        assert m[1] == {"reject": "error", "penalty": "warning", "info": "notice"}[f.action.value]
        props = dict(p.split("=", 1) for p in (m[2] or "").split(",") if p)
        assert unescape(props["title"]) == f"{f.code} {f.name}"
        assert unescape(m[3]).startswith(f.message)
        loc = f.location
        if loc is not None and loc.side == "pre" and loc.line:
            assert "line" not in props and unescape(m[3]).endswith(f"(line {loc.line} on base)")
        if loc is not None and loc.side == "post" and loc.line:
            assert props["line"] == str(loc.line)
        if loc is not None:
            assert unescape(props["file"]) == loc.path
    assert _COMMAND.match(lines[0])


def test_github_decision_line_and_quiet(reports: dict[str, Report]) -> None:
    assert RENDERERS["github"](reports["clean"], OPTIONS) == (
        "::notice title=provscore PASS::merge score 1.0000\n"
        "::notice title=provscore coverage::touched symbols: calc:add: covered; base corpus: "
        "results name 2 of 2 collected base tests (100.0%25; the contract requires 100%25); "
        "call graph: 2 calls, 2 resolved, 0 external, 0 builtin, 0 unknown\n")
    quiet = RENDERERS["github"](reports["demo"], RenderOptions(quiet=True))
    assert quiet.startswith("::error title=provscore REJECT::merge score unscored; first cause: "
                            "gate 4 runner-channels: PS302 at tests/conftest.py: ")
    assert quiet.count("\n") == 1


def test_step_summary_is_the_markdown_comment(reports: dict[str, Report]) -> None:
    assert gh.step_summary(reports["demo"]) == RENDERERS["markdown"](reports["demo"], OPTIONS)


def test_renderers_register_by_name() -> None:
    assert {"markdown", "sarif", "github"} <= set(RENDERERS)


def test_finding_without_anchor_still_gets_a_stable_fingerprint() -> None:
    a = Finding("PS502", "no-independent-evidence", Action.REJECT, 0.0, "msg")
    b = dataclasses.replace(a, message="other")
    assert sarif.fingerprint(a) == sarif.fingerprint(dataclasses.replace(a))
    assert sarif.fingerprint(a) != sarif.fingerprint(b)
