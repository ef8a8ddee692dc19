"""Stage 6, outcomes: off-tree test results turned into typed records.

Input is one results file per independent run; output is one :class:`RunResults` per
file, holding one :class:`Outcome` per test id. Several runs of the same corpus are
compared per test id (:func:`by_node_id`) to find flakes; scoring happens elsewhere.

Formats are recognised by content, never by file name:

* **JUnit XML** (``"junit"``): pytest ``--junitxml`` (``junit_family`` xunit1 and
  xunit2, root ``<testsuites>`` or ``<testsuite>``), unittest-xml-reporting
  (``xmlrunner``), Maven-Surefire-style rerun elements. Parsed with
  :mod:`defusedxml` with DTDs forbidden, so a file that declares entities (billion
  laughs, external entities) is refused before anything is expanded or fetched.
* **pytest-json-report** (``"pytest-json"``): a JSON object with a ``"tests"`` list and a
  ``"summary"`` object; ids are ``tests[].nodeid``.
* **SWE-bench** ``report.json`` (``"swebench"``): a JSON object mapping instance ids to
  ``{"tests_status": {"FAIL_TO_PASS": {"success": [...], "failure": [...]}, ...}}``;
  ``success`` becomes passed, ``failure`` failed. The test ids are the strings in those
  lists, whatever their style (pytest node ids, or Django's ``"test_x (mod.Class)"``).
  Ids of all instances in one file go into one run.

Anything else, and any file that cannot be read or parsed, raises
:class:`~provscore.errors.InputError` naming the file. Nothing in this module raises
another exception type for bad input.

One id, one outcome per run: when a file reports the same id more than once (pytest
writes a second ``<testcase>`` for a teardown error after a failure; pytest-rerunfailures
writes one per attempt) the **worst** verdict is kept, in the order
``error > failed > xpassed > skipped > xfailed > passed``.

Mapping a JUnit ``<testcase>`` to a pytest node id
--------------------------------------------------
pytest writes ``classname`` = the node id's path with ``/`` turned into ``.`` and
``.py`` dropped, then the classes, all joined by ``.``; ``name`` = the function name with
its parametrize id, which is never split. To rebuild ``path::Class::name``:

1. When the ``file`` attribute is there (xunit1, xmlrunner) and agrees with
   ``classname`` (the file's dotted module, or a tail of it for an absolute path, is a
   prefix of ``classname``), the file gives the path and the rest of ``classname`` the
   classes. A ``file`` that does not agree (a test inherited from a base class in
   another module: pytest writes the base class's file) is ignored. An absolute
   ``file`` is made relative to ``repo_root_hint`` when it lies inside it; otherwise its
   last segments that match ``classname`` are used.
2. Otherwise (xunit2 has no ``file``), with ``repo_root_hint``: the longest dotted
   prefix ``a.b.c`` of ``classname`` for which ``<hint>/a/b/c.py`` is a file is the
   module. Only ``is_file`` is asked of the file system; nothing is read.
3. Otherwise (no hint, or no candidate exists): **classes start at the first segment,
   after the first, that begins with an uppercase letter** (pytest's default
   ``python_classes = Test*``; modules are ``test_*.py``). A module or package whose
   name starts with an uppercase letter is mis-split by this rule; pass
   ``repo_root_hint`` for such trees. A directory with a dot in its name cannot be told
   from a package boundary either.

Also handled: old pytest (issue #469, fixed in 2016) and naive converters split the id
at a ``::`` inside a parametrize id (``classname="t.test_p[x" name="y]"``); the two
halves are joined again with ``::`` (a second ``::`` in the same id became ``.`` and
cannot be told from a real dot). A collection error (``classname=""``, ``name`` = the dotted module)
becomes the module path itself, e.g. ``tests/test_x.py``. xmlrunner's subtest names
``"test_m (i=2)"`` become the parent test ``test_m`` (the worst subtest wins), which is
how pytest reports subtests too.

Reruns
------
``Outcome.reruns`` counts attempts before the final one that the file records:
``<rerun>``, ``<rerunFailure>``, ``<rerunError>``, ``<flakyFailure>`` and
``<flakyError>`` children (Maven Surefire's convention, also proposed for
pytest-rerunfailures), plus the extra result-less ``<testcase>`` records that pytest-rerunfailures
(16.6.1 and later) writes for every rerun attempt. pytest-json-report marks a test that
passed after reruns with outcome ``"rerun"``: its verdict comes from its stages and it
gets ``reruns=1`` (a lower bound; the file does not say how many).
"""

from __future__ import annotations

import enum
import json
import math
import os
import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import defusedxml.ElementTree as DET
from defusedxml.common import DefusedXmlException

from provscore.errors import InputError
from provscore.inputfiles import read_input

__all__ = [
    "Outcome",
    "RunResults",
    "Verdict",
    "base_node_id",
    "by_node_id",
    "load_many",
    "load_results",
]

MAX_MESSAGE = 500


class Verdict(enum.StrEnum):
    """The outcome of one test in one run."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    SKIPPED = "skipped"
    XFAILED = "xfailed"
    XPASSED = "xpassed"


# Larger is worse; used when one file reports one id more than once.
_SEVERITY: Mapping[Verdict, int] = {
    Verdict.PASSED: 0,
    Verdict.XFAILED: 1,
    Verdict.SKIPPED: 2,
    Verdict.XPASSED: 3,
    Verdict.FAILED: 4,
    Verdict.ERROR: 5,
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One test id's result in one run (one results file)."""

    node_id: str
    verdict: Verdict
    run: int  # index of the run (file) it came from, 0-based, in the order given
    source: str  # the results file it came from
    duration: float | None = None  # seconds; summed over the records merged into it
    message: str = ""  # failure/skip message: first line, at most MAX_MESSAGE chars
    reruns: int = 0  # earlier attempts the file records (see the module docstring)


@dataclass(frozen=True, slots=True)
class RunResults:
    """Everything one results file says, one outcome per test id, in file order."""

    source: str
    format: str  # "junit" | "pytest-json" | "swebench"
    outcomes: tuple[Outcome, ...]


# --------------------------------------------------------------------------- public API


def load_results(path: str | Path, run: int, *, repo_root_hint: str | None = None) -> RunResults:
    """Read one results file (format detected by content) as run number ``run``.

    ``repo_root_hint`` is the directory the tests ran in (pytest's rootdir); it is only
    used to split a JUnit ``classname`` into module and classes (see the module
    docstring). Raises :class:`InputError` naming ``path`` for anything unreadable.
    """
    if run < 0:
        raise ValueError(f"run index must be >= 0, got {run}")
    source = str(path)
    data = read_input(source, "results file")
    kind = _sniff(data, source)
    if kind == "xml":
        records = _parse_junit(data, source, repo_root_hint)
        return _build(source, "junit", run, records)
    document = _parse_json(data, source)
    if _is_pytest_json(document):
        return _build(source, "pytest-json", run, _parse_pytest_json(document, source))
    if _is_swebench(document):
        return _build(source, "swebench", run, _parse_swebench(document, source))
    raise InputError(
        "JSON is not a known results format (expected pytest-json-report with 'tests' and "
        "'summary', or a SWE-bench report.json mapping instance ids to 'tests_status')",
        path=source,
    )


def load_many(
    paths: Sequence[str | Path], *, repo_root_hint: str | None = None
) -> tuple[RunResults, ...]:
    """Load several runs; the i-th path becomes run ``i``."""
    return tuple(
        load_results(p, i, repo_root_hint=repo_root_hint) for i, p in enumerate(paths)
    )


def by_node_id(runs: Iterable[RunResults]) -> dict[str, tuple[Outcome, ...]]:
    """Every run's outcome per test id, in run order (ids in order of first appearance)."""
    grouped: dict[str, list[Outcome]] = {}
    for results in runs:
        for outcome in results.outcomes:
            grouped.setdefault(outcome.node_id, []).append(outcome)
    return {
        node_id: tuple(sorted(items, key=lambda o: o.run)) for node_id, items in grouped.items()
    }


def base_node_id(node_id: str) -> str:
    """``node_id`` without its parametrize suffix: ``a.py::T::t[x::y]`` -> ``a.py::T::t``.

    The suffix starts at the first ``[`` after the path (test names cannot contain
    ``[``) and must run to the end of the id; brackets inside it may nest and may
    contain ``::`` or ``.``. Ids without such a suffix come back unchanged.
    """
    if not node_id.endswith("]"):
        return node_id
    sep = node_id.find("::")
    start = node_id.find("[", sep + 2 if sep >= 0 else 0)
    if start <= 0 or (sep >= 0 and start == sep + 2):
        return node_id
    return node_id[:start]


# --------------------------------------------------------------------------- records


@dataclass(frozen=True, slots=True)
class _Record:
    """One raw report of one id inside one file, before duplicates are merged."""

    node_id: str
    verdict: Verdict
    message: str = ""
    duration: float | None = None
    reruns: int = 0
    empty: bool = False  # a JUnit <testcase> with no result child


def _build(source: str, fmt: str, run: int, records: Iterable[_Record]) -> RunResults:
    grouped: dict[str, list[_Record]] = {}
    for record in records:
        grouped.setdefault(record.node_id, []).append(record)
    outcomes = tuple(_merge(node_id, recs, run, source) for node_id, recs in grouped.items())
    return RunResults(source=source, format=fmt, outcomes=outcomes)


def _merge(node_id: str, records: list[_Record], run: int, source: str) -> Outcome:
    worst = max(records, key=lambda r: _SEVERITY[r.verdict])  # first of the worst wins
    durations = [r.duration for r in records if r.duration is not None]
    empties = sum(1 for r in records if r.empty)
    # Result-less duplicate records are rerun attempts; if every record is result-less,
    # one of them is the final pass.
    extra_attempts = empties - 1 if empties == len(records) else empties
    return Outcome(
        node_id=node_id,
        verdict=worst.verdict,
        run=run,
        source=source,
        duration=sum(durations) if durations else None,
        message=worst.message,
        reruns=sum(r.reruns for r in records) + extra_attempts,
    )


def _first_line(text: str | None) -> str:
    if not text:
        return ""
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[:MAX_MESSAGE]
    return ""


# --------------------------------------------------------------------------- reading


def _sniff(data: bytes, source: str) -> str:
    head = data.removeprefix(b"\xef\xbb\xbf").lstrip()
    if not head:
        raise InputError("results file is empty", path=source)
    if head.startswith(b"<"):
        return "xml"
    if head[:1] in (b"{", b"["):
        return "json"
    raise InputError(
        "not a results file: expected JUnit XML or JSON (pytest-json-report, SWE-bench)",
        path=source,
    )


def _parse_json(data: bytes, source: str) -> object:
    try:
        return json.loads(data)  # bytes: UTF-8/16/32 detected by json itself
    except json.JSONDecodeError as exc:
        raise InputError(
            f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", path=source
        ) from None
    except UnicodeDecodeError:
        raise InputError("JSON results file is not valid UTF-8", path=source) from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"malformed JSON: {type(exc).__name__}", path=source) from None


# --------------------------------------------------------------------------- JUnit XML

_RESULT_TAGS: Mapping[str, Verdict] = {
    "error": Verdict.ERROR,
    "failure": Verdict.FAILED,
    "skipped": Verdict.SKIPPED,
}
_RERUN_TAGS = frozenset({"rerun", "rerunFailure", "rerunError", "flakyFailure", "flakyError"})
_XFAIL_TYPES = frozenset({"pytest.xfail", "xfail"})  # pytest; xmlrunner writes "XFAIL"
_SUBTEST_NAME = re.compile(r"^([A-Za-z_]\w*) \(.*\)\Z", re.DOTALL)  # xmlrunner "test_m (i=2)"


def _parse_junit(data: bytes, source: str, hint: str | None) -> list[_Record]:
    try:
        root = DET.fromstring(data, forbid_dtd=True)
    except DefusedXmlException as exc:
        raise InputError(
            "DTD and entity declarations are not allowed in test results "
            f"(refused before expansion: {type(exc).__name__})",
            path=source,
        ) from None
    except ET.ParseError as exc:
        line, column = getattr(exc, "position", (0, 0))
        reason = str(exc).split(":", 1)[0]
        raise InputError(
            f"malformed XML at line {line}, column {column + 1}: {reason}", path=source
        ) from None
    except (LookupError, ValueError, RecursionError) as exc:  # e.g. encoding="bogus"
        raise InputError(f"cannot parse XML: {exc}", path=source) from None
    tag = _local(root.tag)
    if tag not in ("testsuites", "testsuite"):
        raise InputError(
            f"XML root element is <{tag}>, expected JUnit <testsuites> or <testsuite>",
            path=source,
        )
    resolver = _ModuleResolver(hint)
    records = []
    for index, case in enumerate(e for e in root.iter() if _local(e.tag) == "testcase"):
        records.append(_junit_record(case, index, source, resolver))
    return records


def _local(tag: object) -> str:
    text = tag if isinstance(tag, str) else ""
    return text.rsplit("}", 1)[-1]


def _junit_record(
    case: ET.Element, index: int, source: str, resolver: _ModuleResolver
) -> _Record:
    name = case.get("name")
    if not name:
        raise InputError(f"<testcase> #{index + 1} has no name attribute", path=source)
    node_id = _junit_node_id(case.get("classname") or "", name, case.get("file"), resolver)
    verdict = Verdict.PASSED
    message = ""
    empty = True
    reruns = 0
    for child in case:
        tag = _local(child.tag)
        if tag in _RERUN_TAGS:
            reruns += 1
            continue
        found = _RESULT_TAGS.get(tag)
        if found is None:
            continue  # properties, system-out, system-err
        empty = False
        if found is Verdict.SKIPPED and (child.get("type") or "").lower() in _XFAIL_TYPES:
            found = Verdict.XFAILED
        if _SEVERITY[found] > _SEVERITY[verdict] or verdict is Verdict.PASSED:
            verdict = found
            message = _first_line(child.get("message")) or _first_line(child.text)
    return _Record(
        node_id=node_id,
        verdict=verdict,
        message=message,
        duration=_duration(case.get("time")),
        reruns=reruns,
        empty=empty,
    )


def _duration(text: str | None) -> float | None:
    if text is None:
        return None
    try:
        value = float(text)
    except ValueError:
        return None
    return value if math.isfinite(value) and value >= 0 else None


def _junit_node_id(classname: str, name: str, file: str | None, resolver: _ModuleResolver) -> str:
    name = name.strip()
    classname = classname.strip()
    if not classname:  # pytest collection error: name is the dotted module
        relative = resolver.relative_file(file)
        return relative if relative is not None else resolver.module_path(name.split("."))
    # pytest < 8 split the id at a "::" inside the parametrize brackets.
    bracket = classname.find("[")
    if bracket >= 0 and _unbalanced(name):
        dot = classname.rfind(".", 0, bracket)
        name = f"{classname[dot + 1:]}::{name}"
        classname = classname[:dot] if dot >= 0 else ""
    subtest = _SUBTEST_NAME.match(name)
    if subtest is not None:
        name = subtest.group(1)
    segments = classname.split(".") if classname else []
    path, classes = resolver.split(segments, file)
    return "::".join([path, *classes, name])


def _unbalanced(text: str) -> bool:
    depth = 0
    for char in text:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
            if depth < 0:
                return True
    return False


class _ModuleResolver:
    """Splits a dotted JUnit classname into a module path and classes (module docstring)."""

    __slots__ = ("_hint", "_seen")

    def __init__(self, hint: str | None) -> None:
        self._hint = os.path.abspath(hint) if hint else None
        self._seen: dict[str, bool] = {}

    def split(self, segments: list[str], file: str | None) -> tuple[str, list[str]]:
        if not segments:
            return ("", [])
        by_file = self._split_by_file(segments, file)
        if by_file is not None:
            return by_file
        usable = all(s.isidentifier() for s in segments)
        if self._hint is not None and usable:
            for k in range(len(segments), 0, -1):
                candidate = "/".join(segments[:k]) + ".py"
                if self._is_file(candidate):
                    return (candidate, segments[k:])
        k = next(
            (i for i in range(1, len(segments)) if segments[i][:1].isupper()), len(segments)
        )
        return ("/".join(segments[:k]) + ".py", segments[k:])

    def module_path(self, segments: list[str]) -> str:
        joined = "/".join(segments)
        if (
            self._hint is not None
            and all(s.isidentifier() for s in segments)
            and not self._is_file(joined + ".py")
            and self._is_dir(joined)
        ):
            return joined
        return joined + ".py"

    def relative_file(self, file: str | None) -> str | None:
        """``file`` as a clean relative posix path, or None if it cannot be one."""
        if not file:
            return None
        text = file.strip().replace("\\", "/")
        if posixpath.isabs(text) or re.match(r"^[A-Za-z]:/", text):
            if self._hint is None:
                return None
            rel = os.path.relpath(os.path.normpath(text), self._hint).replace(os.sep, "/")
        else:
            rel = text
        rel = posixpath.normpath(rel)
        if rel == "." or rel == ".." or rel.startswith("../") or posixpath.isabs(rel):
            return None
        return rel

    def _split_by_file(self, segments: list[str], file: str | None) -> tuple[str, list[str]] | None:
        if not file:
            return None
        relative = self.relative_file(file)
        text = relative if relative is not None else file.strip().replace("\\", "/")
        parts = [p for p in text.split("/") if p not in ("", ".")]
        if not parts:
            return None
        # "tests/README.txt" (a text doctest) appears as "tests.README.txt" in classname.
        module = [*parts[:-1], *parts[-1].removesuffix(".py").split(".")]
        for k in range(min(len(module), len(segments)), 0, -1):
            if module[-k:] == segments[:k]:
                path = relative if relative is not None else "/".join(parts[-k:])
                return (path, segments[k:])
        return None

    def _is_file(self, relative: str) -> bool:
        assert self._hint is not None
        key = "f:" + relative
        if key not in self._seen:
            self._seen[key] = os.path.isfile(os.path.join(self._hint, relative))
        return self._seen[key]

    def _is_dir(self, relative: str) -> bool:
        assert self._hint is not None
        key = "d:" + relative
        if key not in self._seen:
            self._seen[key] = os.path.isdir(os.path.join(self._hint, relative))
        return self._seen[key]


# --------------------------------------------------------------------------- pytest-json

_JSON_OUTCOMES: Mapping[str, Verdict] = {v.value: v for v in Verdict}
_SKIP_TUPLE = re.compile(r"^\('.*', \d+, '(.*)'\)\Z", re.DOTALL)


def _is_pytest_json(document: object) -> bool:
    return (
        isinstance(document, dict)
        and isinstance(document.get("tests"), list)
        and isinstance(document.get("summary"), dict)
    )


def _parse_pytest_json(document: object, source: str) -> list[_Record]:
    assert isinstance(document, dict)
    records: list[_Record] = []
    collectors = document.get("collectors", [])
    if not isinstance(collectors, list):
        raise InputError("pytest-json-report: 'collectors' is not a list", path=source)
    for i, collector in enumerate(collectors):
        if not isinstance(collector, dict):
            raise InputError(f"pytest-json-report: collectors[{i}] is not an object", path=source)
        nodeid = collector.get("nodeid")
        if collector.get("outcome") == "failed" and isinstance(nodeid, str) and nodeid:
            records.append(
                _Record(nodeid, Verdict.ERROR, _json_message(collector.get("longrepr")))
            )
    tests = document["tests"]
    for i, test in enumerate(tests):
        records.append(_json_test(test, i, source))
    return records


def _json_test(test: object, index: int, source: str) -> _Record:
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
    return _Record(
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
        text = _first_line(crash["message"])
        if text:
            return text
    return _json_message(info.get("longrepr"))


def _json_message(longrepr: object) -> str:
    if not isinstance(longrepr, str):
        return ""
    skip = _SKIP_TUPLE.match(longrepr.strip()[: 4 * MAX_MESSAGE])
    if skip is not None:  # a skip's longrepr is the repr of (path, line, reason)
        return _first_line(skip.group(1))
    return _first_line(longrepr)


# --------------------------------------------------------------------------- SWE-bench

_SWEBENCH_KEYS = frozenset(
    {"tests_status", "patch_is_None", "patch_exists", "patch_successfully_applied", "resolved"}
)
_SWEBENCH_LISTS: Mapping[str, Verdict] = {"success": Verdict.PASSED, "failure": Verdict.FAILED}


def _is_swebench(document: object) -> bool:
    return (
        isinstance(document, dict)
        and bool(document)
        and all(
            isinstance(entry, dict) and not _SWEBENCH_KEYS.isdisjoint(entry)
            for entry in document.values()
        )
    )


def _parse_swebench(document: object, source: str) -> list[_Record]:
    """Instances without ``tests_status`` (the patch did not apply, tests errored) add none."""
    assert isinstance(document, dict)
    records: list[_Record] = []
    for instance, entry in document.items():
        status = entry.get("tests_status")
        if status is None:
            continue
        if not isinstance(status, dict):
            raise InputError(f"SWE-bench {instance}: 'tests_status' is not an object", path=source)
        for category, lists in status.items():
            where = f"SWE-bench {instance}: tests_status.{category}"
            if not isinstance(lists, dict):
                raise InputError(f"{where} is not an object", path=source)
            for key, verdict in _SWEBENCH_LISTS.items():
                ids = lists.get(key, [])
                if not isinstance(ids, list) or not all(isinstance(t, str) and t for t in ids):
                    raise InputError(
                        f"{where}.{key} is not a list of non-empty strings", path=source
                    )
                records.extend(_Record(node_id=t, verdict=verdict) for t in ids)
    return records
