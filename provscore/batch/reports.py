"""SWE-bench harness outcomes: which (model, instance) the benchmark counted as resolved.

Three forms, recognised by content:

* a per-instance ``report.json`` (``logs/run_evaluation/RUN/MODEL/INSTANCE/report.json``):
  ``{instance: {"resolved", "patch_successfully_applied", "tests_status": {"FAIL_TO_PASS":
  {"success": [...], "failure": [...]}, "PASS_TO_PASS": ...}}}``;
* the run summary ``MODEL.RUN.json`` (``resolved_ids``, ``unresolved_ids``, ``error_ids``,
  ``empty_patch_ids``, ...);
* the older ``results.json`` of the experiments repository (``resolved``, ``applied``,
  ``no_apply``, ``generated``, ... as lists of instance ids).

Which agent a file reports on: ``MODEL=PATH`` when given so; else the path names it the
way the harness lays it out (a directory, or the summary's file-name prefix, equal to the
model name with ``/`` written ``__``); else the batch's only model. Anything else is an
error naming the file, never a guess.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

from provscore.batch.model import Outcome
from provscore.errors import InputError
from provscore.io import DuplicateKeyError, read_input, reject_duplicate_keys
from provscore.records import dataclass

_SUMMARY_FALSE = ("unresolved_ids", "error_ids", "empty_patch_ids")
_RESULTS_LISTS = frozenset({"resolved", "no_generation", "generated", "with_logs",
                            "install_fail", "reset_failed", "no_apply", "applied",
                            "test_errored", "test_timeout"})
_INSTANCE_KEYS = frozenset({"tests_status", "patch_is_None", "patch_exists",
                            "patch_successfully_applied", "resolved"})


@dataclass(frozen=True, slots=True)
class ReportSource:
    """One ``--reports`` argument: a file or directory, and the model it names, if any."""

    path: Path
    model: str | None = None

    @classmethod
    def parse(cls, arg: str) -> ReportSource:
        """``PATH`` or ``MODEL=PATH`` (a path that exists is never split at ``=``)."""
        if "=" in arg and not Path(arg).exists():
            model, _, path = arg.partition("=")
            if model and path:
                return cls(Path(path), model)
        return cls(Path(arg))


def sanitized(model: str) -> str:
    """The harness's directory name for a model (``run_evaluation.py``: ``/`` → ``__``)."""
    return model.replace("/", "__")


def load_outcomes(sources: tuple[ReportSource, ...], models: frozenset[str]
                  ) -> dict[tuple[str, str], Outcome]:
    """(model, instance id) → outcome, from every report under ``sources``."""
    out: dict[tuple[str, str], Outcome] = {}
    for source in sources:
        for path, doc in _documents(source):
            model = source.model or _model_of(path, models)
            for iid, outcome in _outcomes(doc, path):
                _merge(out, (model, iid), outcome)
    return out


def _documents(source: ReportSource) -> Iterator[tuple[Path, object]]:
    root = source.path
    if not root.exists():
        raise InputError("reports path not found", path=str(root))
    if not root.is_dir():
        doc = _read(root)
        if _form(doc) is None:
            raise InputError("not a SWE-bench report.json, run summary or results.json",
                             path=str(root))
        yield root, doc
        return
    for path in sorted(root.rglob("*.json")):
        if not path.is_file():
            continue
        doc = _read(path)
        if _form(doc) is not None:
            yield path, doc
        elif path.name == "report.json":  # the harness's name: it must be one
            raise InputError("not a SWE-bench report.json", path=str(path))


def _read(path: Path) -> object:
    data = read_input(path, "report", regular=True)
    try:
        return json.loads(data, object_pairs_hook=reject_duplicate_keys)
    except DuplicateKeyError as exc:
        raise InputError(f"key {exc.key!r} appears twice", path=str(path)) from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"not valid JSON ({exc})", path=str(path)) from None


def _form(doc: object) -> str | None:
    if not isinstance(doc, dict) or not doc:
        return None
    if "resolved_ids" in doc:
        return "summary"
    if set(doc) <= _RESULTS_LISTS and all(isinstance(v, list) for v in doc.values()):
        return "results"
    if all(isinstance(v, dict) and not _INSTANCE_KEYS.isdisjoint(v) for v in doc.values()):
        return "instance"
    return None


def _model_of(path: Path, models: frozenset[str]) -> str:
    """The model a report's path names (deepest directory, or a summary's file prefix)."""
    names = {sanitized(m): m for m in models}
    for part in reversed(path.parent.parts):
        if part in names:
            return names[part]
    prefixed = [m for s, m in names.items() if path.name.startswith(f"{s}.")]
    if len(prefixed) == 1:
        return prefixed[0]
    if len(models) == 1:
        return next(iter(models))
    raise InputError("cannot tell which model this report is about (no directory or file "
                     "name is a model of the predictions); give it as MODEL=PATH",
                     path=str(path))


def _outcomes(doc: object, path: Path) -> Iterator[tuple[str, Outcome]]:
    form = _form(doc)
    assert isinstance(doc, dict)
    src = str(path)
    if form == "summary":
        yield from ((i, Outcome(True, src)) for i in _ids(doc, "resolved_ids", path))
        for key in _SUMMARY_FALSE:
            yield from ((i, Outcome(False, src)) for i in _ids(doc, key, path))
        return
    if form == "results":
        resolved = set(_ids(doc, "resolved", path))
        applied = set(_ids(doc, "applied", path))
        no_apply = set(_ids(doc, "no_apply", path))
        for iid in sorted({i for k in doc for i in _ids(doc, k, path)}):
            yield iid, Outcome(iid in resolved, src,
                               True if iid in applied else False if iid in no_apply else None)
        return
    for iid, entry in doc.items():
        yield iid, _instance_outcome(iid, entry, path, single=len(doc) == 1)


def _ids(doc: Mapping[str, Any], key: str, path: Path) -> list[str]:
    ids = doc.get(key, [])
    if not isinstance(ids, list) or not all(isinstance(i, str) and i for i in ids):
        raise InputError(f"{key} is not a list of instance ids", path=str(path))
    return ids


def _instance_outcome(iid: str, entry: Mapping[str, Any], path: Path, *, single: bool
                      ) -> Outcome:
    resolved = entry.get("resolved")
    if resolved is not None and not isinstance(resolved, bool):
        raise InputError(f"{iid}: resolved is not true or false", path=str(path))
    applied = entry.get("patch_successfully_applied")
    status = entry.get("tests_status")
    counts: dict[str, int | None] = {}
    if status is not None:
        if not isinstance(status, dict):
            raise InputError(f"{iid}: tests_status is not an object", path=str(path))
        for name, category in (("f2p", "FAIL_TO_PASS"), ("p2p", "PASS_TO_PASS")):
            lists = status.get(category) or {}
            if not isinstance(lists, dict):
                raise InputError(f"{iid}: tests_status.{category} is not an object",
                                 path=str(path))
            for verdict in ("success", "failure"):
                ids = lists.get(verdict, [])
                if not isinstance(ids, list):
                    raise InputError(f"{iid}: tests_status.{category}.{verdict} is not a "
                                     "list", path=str(path))
                counts[f"{name}_{'passed' if verdict == 'success' else 'failed'}"] = len(ids)
    report = json.dumps({iid: entry}).encode() if status is not None and not single \
        else None
    return Outcome(resolved, str(path), applied if isinstance(applied, bool) else None,
                   counts.get("f2p_passed"), counts.get("f2p_failed"),
                   counts.get("p2p_passed"), counts.get("p2p_failed"),
                   report_path=str(path) if status is not None else None, report_json=report)


def _merge(out: dict[tuple[str, str], Outcome], key: tuple[str, str], new: Outcome) -> None:
    """Keep the most detailed outcome of a (model, instance); disagreeing files are an
    error, since the comparison would depend on the order they were read."""
    old = out.get(key)
    if old is None:
        out[key] = new
        return
    if old.resolved is not None and new.resolved is not None and old.resolved != new.resolved:
        raise InputError(f"{old.source} and {new.source} disagree on whether {key[1]} "
                         f"({key[0]}) was resolved")
    richer = new if new.report_path and not old.report_path else old
    other = old if richer is new else new
    out[key] = replace(richer, resolved=richer.resolved if richer.resolved is not None
                       else other.resolved)
