"""pytest-json-report: a JSON object with a ``tests`` list and a ``summary`` object."""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

from provscore.errors import InputError
from provscore.results.model import MAX_MESSAGE, Outcome, Record, Verdict, first_line

_JSON_OUTCOMES: Mapping[str, Verdict] = {v.value: v for v in Verdict}
_SKIP_TUPLE = re.compile(r"^\('.*', \d+, '(.*)'\)\Z", re.DOTALL)


def is_pytest_json(document: object) -> bool:
    return (
        isinstance(document, dict)
        and isinstance(document.get("tests"), list)
        and isinstance(document.get("summary"), dict)
    )


def parse_pytest_json(document: object, source: str) -> list[Record]:
    assert isinstance(document, dict)
    records: list[Record] = []
    collectors = document.get("collectors", [])
    if not isinstance(collectors, list):
        raise InputError("pytest-json-report: 'collectors' is not a list", path=source)
    for i, collector in enumerate(collectors):
        if not isinstance(collector, dict):
            raise InputError(f"pytest-json-report: collectors[{i}] is not an object", path=source)
        nodeid = collector.get("nodeid")
        if collector.get("outcome") == "failed" and isinstance(nodeid, str) and nodeid:
            records.append(
                Record(nodeid, Verdict.ERROR, _json_message(collector.get("longrepr")))
            )
    tests = document["tests"]
    for i, test in enumerate(tests):
        records.append(_json_test(test, i, source))
    return records


def _json_test(test: object, index: int, source: str) -> Record:
    where = f"pytest-json-report: tests[{index}]"
    if not isinstance(test, dict):
        raise InputError(f"{where} is not an object", path=source)
    nodeid = test.get("nodeid")
    outcome = test.get("outcome")
    if not isinstance(nodeid, str) or not nodeid:
        raise InputError(f"{where}: 'nodeid' is missing or not a string", path=source)
    if not isinstance(outcome, str):
        raise InputError(f"{where} ({nodeid}): 'outcome' is missing or not a string", path=source)
    stages: dict[str, dict[str, object]] = {}
    for stage in ("setup", "call", "teardown"):
        value = test.get(stage)
        if value is None:
            continue
        if not isinstance(value, dict):
            raise InputError(f"{where} ({nodeid}): '{stage}' is not an object", path=source)
        stages[stage] = value
    reruns = 0
    if outcome == "rerun":  # pytest-rerunfailures: passed (or not) after >= 1 rerun
        reruns = 1
        verdict = _verdict_from_stages(stages)
    elif outcome in _JSON_OUTCOMES:
        verdict = _JSON_OUTCOMES[outcome]
    else:
        raise InputError(f"{where} ({nodeid}): unknown outcome {outcome!r}", path=source)
    if any(stages.get(s, {}).get("outcome") == "failed" for s in ("setup", "teardown")):
        verdict = Verdict.ERROR
    message = ""
    if verdict is not Verdict.PASSED:
        order = ("setup", "teardown", "call") if verdict is Verdict.ERROR else ("setup", "call")
        for stage in order:
            info = stages.get(stage, {})
            if info.get("outcome") in ("failed", "skipped"):
                message = _stage_message(info)
                break
    durations = [
        float(d)
        for d in (info.get("duration") for info in stages.values())
        if isinstance(d, int | float) and not isinstance(d, bool) and math.isfinite(d) and d >= 0
    ]
    return Record(
        node_id=nodeid,
        verdict=verdict,
        message=message,
        duration=sum(durations) if durations else None,
        reruns=reruns,
    )


def _verdict_from_stages(stages: Mapping[str, Mapping[str, object]]) -> Verdict:
    if any(stages.get(s, {}).get("outcome") == "failed" for s in ("setup", "teardown")):
        return Verdict.ERROR
    call = stages.get("call", {}).get("outcome")
    if call == "failed":
        return Verdict.FAILED
    if call == "skipped" or stages.get("setup", {}).get("outcome") == "skipped":
        return Verdict.SKIPPED
    return Verdict.PASSED


def _stage_message(info: Mapping[str, object]) -> str:
    crash = info.get("crash")
    if isinstance(crash, dict) and isinstance(crash.get("message"), str):
        text = first_line(crash["message"])
        if text:
            return text
    return _json_message(info.get("longrepr"))


def _json_message(longrepr: object) -> str:
    if not isinstance(longrepr, str):
        return ""
    skip = _SKIP_TUPLE.match(longrepr.strip()[: 4 * MAX_MESSAGE])
    if skip is not None:  # a skip's longrepr is the repr of (path, line, reason)
        return first_line(skip.group(1))
    return first_line(longrepr)


# Where a verdict lives in a pytest-json-report test: (test outcome, stage, stage outcome).
_DUMP: Mapping[Verdict, tuple[str, str, str]] = {
    Verdict.PASSED: ("passed", "call", "passed"),
    Verdict.FAILED: ("failed", "call", "failed"),
    Verdict.ERROR: ("error", "setup", "failed"),
    Verdict.SKIPPED: ("skipped", "setup", "skipped"),
    Verdict.XFAILED: ("xfailed", "call", "skipped"),
    Verdict.XPASSED: ("xpassed", "call", "passed"),
}


def dump_pytest_json(outcomes: Sequence[Outcome], **extra: object) -> dict[str, object]:
    """Outcomes as a pytest-json-report document that :func:`parse_pytest_json` reads back
    to the same ids, verdicts, messages and durations (a pass, xpassed included, has no
    message in that format; ``extra``: more top-level keys)."""
    tests: list[dict[str, object]] = []
    counts: dict[str, int] = {}
    for o in outcomes:
        outcome, stage, stage_outcome = _DUMP[o.verdict]
        info: dict[str, object] = {"outcome": stage_outcome}
        if o.message and o.verdict not in (Verdict.PASSED, Verdict.XPASSED):
            info["longrepr"] = o.message
        if o.duration is not None:
            info["duration"] = o.duration
        tests.append({"nodeid": o.node_id, "outcome": outcome, stage: info})
        counts[outcome] = counts.get(outcome, 0) + 1
    return {**extra, "summary": {**counts, "total": len(tests)}, "tests": tests}
