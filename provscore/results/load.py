"""Reading results files of any supported format (recognised by content, never by name)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path

from provscore.errors import InputError
from provscore.io import DuplicateKeyError, read_input, reject_duplicate_keys
from provscore.results.junit import parse_junit
from provscore.results.model import SEVERITY, Outcome, Record, RunResults
from provscore.results.pytest_json import is_pytest_json, parse_pytest_json
from provscore.results.swebench import is_swebench, parse_swebench

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
    data = read_input(source, "results file", regular=True)
    kind = _sniff(data, source)
    if kind == "xml":
        records = parse_junit(data, source, repo_root_hint)
        return _build(source, "junit", run, records)
    document = _parse_json(data, source)
    if is_pytest_json(document):
        return _build(source, "pytest-json", run, parse_pytest_json(document, source))
    if is_swebench(document):
        return _build(source, "swebench", run, parse_swebench(document, source))
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


def _build(source: str, fmt: str, run: int, records: Iterable[Record]) -> RunResults:
    grouped: dict[str, list[Record]] = {}
    for record in records:
        grouped.setdefault(record.node_id, []).append(record)
    outcomes = tuple(_merge(node_id, recs, run, source) for node_id, recs in grouped.items())
    return RunResults(source=source, format=fmt, outcomes=outcomes)


def _merge(node_id: str, records: list[Record], run: int, source: str) -> Outcome:
    worst = max(records, key=lambda r: SEVERITY[r.verdict])  # first of the worst wins
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
    try:  # bytes: UTF-8/16/32 detected by json itself; a repeated key is refused
        return json.loads(data, object_pairs_hook=reject_duplicate_keys)
    except DuplicateKeyError as exc:
        raise InputError(f"duplicate key {exc.key!r} in a JSON object (a later value would "
                         "silently replace the first)", path=source) from None
    except json.JSONDecodeError as exc:
        raise InputError(
            f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}", path=source
        ) from None
    except UnicodeDecodeError:
        raise InputError("JSON results file is not valid UTF-8", path=source) from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"malformed JSON: {type(exc).__name__}", path=source) from None
