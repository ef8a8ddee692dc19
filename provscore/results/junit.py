"""JUnit XML (pytest --junitxml xunit1/xunit2, unittest-xml-reporting, Surefire reruns).

Parsed with :mod:`defusedxml` with DTDs forbidden, so a file that declares entities
(billion laughs, external entities) is refused before anything is expanded or fetched.
How a ``<testcase>`` becomes a pytest node id is described in :mod:`provscore.results`.
"""

from __future__ import annotations

import math
import os
import posixpath
import re
import xml.etree.ElementTree as ET
from collections.abc import Mapping

import defusedxml.ElementTree as DET
from defusedxml.common import DefusedXmlException

from provscore.errors import InputError
from provscore.results.model import SEVERITY, Record, Verdict, first_line

_RESULT_TAGS: Mapping[str, Verdict] = {
    "error": Verdict.ERROR,
    "failure": Verdict.FAILED,
    "skipped": Verdict.SKIPPED,
}
_RERUN_TAGS = frozenset({"rerun", "rerunFailure", "rerunError", "flakyFailure", "flakyError"})
_XFAIL_TYPES = frozenset({"pytest.xfail", "xfail"})  # pytest; xmlrunner writes "XFAIL"
_SUBTEST_NAME = re.compile(r"^([A-Za-z_]\w*) \(.*\)\Z", re.DOTALL)  # xmlrunner "test_m (i=2)"


def parse_junit(data: bytes, source: str, hint: str | None) -> list[Record]:
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
) -> Record:
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
        if SEVERITY[found] > SEVERITY[verdict] or verdict is Verdict.PASSED:
            verdict = found
            message = first_line(child.get("message")) or first_line(child.text)
    return Record(
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
