"""Prediction files and the instances file, read the way SWE-bench writes them.

Predictions: JSONL (one ``{"instance_id", "model_name_or_path", "model_patch"}`` object a
line) is streamed: planning keeps each row's byte span, never its patch, and a worker's
patch is read back by seeking. JSON files (a list of those objects, or an object keyed by
instance id) are parsed whole. Instances: SWE-bench dataset rows as JSON, JSONL or
Parquet (``provscore[parquet]``), mapped by ``instance_id``.

A malformed file is an InputError naming the file and the line (exit 3) before any row is
scored; a well-formed row that cannot be scored is a row with a reason, never an error.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any, BinaryIO

from provscore.batch.model import Instance, PredictionRef, RowKey
from provscore.errors import InputError
from provscore.io import DuplicateKeyError, read_input, reject_duplicate_keys
from provscore.records import dataclass

_PRED_FIELDS = ("instance_id", "model_name_or_path", "model_patch")


@dataclass(frozen=True, slots=True)
class PredictionFile:
    """One prediction file: its path, content digest and (JSON forms) parsed rows."""

    path: Path
    digest: str
    jsonl: bool
    rows: tuple[Mapping[str, Any], ...] = ()  # JSON forms only


def _loads(text: bytes | str, where: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=reject_duplicate_keys)
    except DuplicateKeyError as exc:
        raise InputError(f"{where}: key {exc.key!r} appears twice") from None
    except (ValueError, RecursionError) as exc:
        raise InputError(f"{where}: not valid JSON ({exc})") from None


def _prediction(row: object, where: str) -> tuple[str, str, str | None]:
    if not isinstance(row, dict):
        raise InputError(f"{where}: a prediction must be a JSON object, got "
                         f"{type(row).__name__}")
    missing = [f for f in _PRED_FIELDS if f not in row]
    if missing:
        raise InputError(f"{where}: prediction has no {', '.join(missing)}")
    iid, model, patch = (row[f] for f in _PRED_FIELDS)
    if not isinstance(iid, str) or not iid:
        raise InputError(f"{where}: instance_id must be a non-empty string")
    if not isinstance(model, str) or not model:
        raise InputError(f"{where}: model_name_or_path must be a non-empty string")
    if patch is not None and not isinstance(patch, str):
        raise InputError(f"{where}: model_patch must be a string or null")
    return iid, model, patch


def _json_rows(document: object, where: str) -> list[Mapping[str, Any]]:
    """The list form, or the object form keyed by instance id (SWE-bench accepts both)."""
    if isinstance(document, list):
        return document
    if isinstance(document, dict):
        rows = []
        for iid, row in document.items():
            if isinstance(row, dict) and row.get("instance_id", iid) != iid:
                raise InputError(f"{where}: key {iid!r} holds the prediction of "
                                 f"{row.get('instance_id')!r}")
            rows.append({"instance_id": iid, **row} if isinstance(row, dict) else row)
        return rows
    raise InputError(f"{where}: expected a list of predictions or an object keyed by "
                     "instance id")


def plan_predictions(path: Path, index: int
                     ) -> tuple[PredictionFile, list[PredictionRef]]:
    """Read a prediction file once: its digest and every row's key and place.

    The digest covers the file's bytes, so a file edited after a run is a new file and its
    rows are scored again; the same file under another name is not. JSONL is read line
    by line (only keys are kept); the JSON forms are parsed whole."""
    if _is_jsonl(path):
        digest, refs = _jsonl_refs(path, index)
        return PredictionFile(path, digest, True), _check_unique(path, refs)
    data = read_input(path, "prediction file", regular=True)
    digest = hashlib.sha256(data).hexdigest()
    rows = _json_rows(_loads(data, str(path)), str(path))
    pf = PredictionFile(path, digest, False, tuple(rows))
    return pf, _check_unique(path, list(_json_refs(path, rows, digest, index)))


def _open(path: Path) -> BinaryIO:
    if not path.is_file():
        read_input(path, "prediction file", regular=True)  # the one clear error
    try:
        return open(path, "rb")  # the caller closes it
    except OSError as exc:
        raise InputError(f"cannot read prediction file: {exc.strerror or exc}",
                         path=str(path)) from None


def _is_jsonl(path: Path) -> bool:
    """JSONL when the first non-blank line is a whole prediction object on its own (a
    JSON file starts with ``[``, or with ``{`` on a line that is not a whole object)."""
    with _open(path) as fh:
        for line in fh:
            if line.strip():
                try:
                    doc = json.loads(line)
                except ValueError:
                    return False
                return isinstance(doc, dict) and "model_patch" in doc
    return True  # an empty file: no predictions


def _jsonl_refs(path: Path, index: int) -> tuple[str, list[PredictionRef]]:
    sha = hashlib.sha256()
    refs: list[PredictionRef] = []
    offset = 0
    with _open(path) as fh:
        for number, line in enumerate(fh, start=1):
            sha.update(line)
            start, offset = offset, offset + len(line)
            if not line.strip():
                continue
            where = f"{path}:{number}"
            try:
                text = line.decode("utf-8")
            except UnicodeDecodeError:
                raise InputError(f"{where}: not UTF-8") from None
            iid, model, _ = _prediction(_loads(text, where), where)
            refs.append(PredictionRef(RowKey("", iid, model), index, start, len(line),
                                      number))
    digest = sha.hexdigest()
    return digest, [replace(r, key=replace(r.key, pred_digest=digest)) for r in refs]


def _json_refs(path: Path, rows: list[Mapping[str, Any]], digest: str, index: int
               ) -> Iterator[PredictionRef]:
    for i, row in enumerate(rows):
        iid, model, _ = _prediction(row, f"{path}: prediction #{i + 1}")
        yield PredictionRef(RowKey(digest, iid, model), index, i, 0)


def _check_unique(path: Path, refs: list[PredictionRef]) -> list[PredictionRef]:
    seen: set[tuple[str, str]] = set()
    for ref in refs:
        pair = (ref.key.instance_id, ref.key.model)
        if pair in seen:
            raise InputError(f"two predictions for instance {pair[0]!r} of model "
                             f"{pair[1]!r}; keep one", path=str(path))
        seen.add(pair)
    return refs


def read_patch(pf: PredictionFile, ref: PredictionRef) -> str | None:
    """The patch of one planned row (JSONL: read back from its byte span)."""
    if not pf.jsonl:
        return _prediction(pf.rows[ref.offset], str(pf.path))[2]
    try:
        with open(pf.path, "rb") as fh:
            fh.seek(ref.offset)
            line = fh.read(ref.length)
    except OSError as exc:
        raise InputError(f"cannot read prediction file: {exc.strerror or exc}",
                         path=str(pf.path)) from None
    where = f"{pf.path}:{ref.line}"
    changed = InputError(f"{where}: the file changed while the batch ran (the rows written "
                         "so far are kept); run the batch again")
    try:
        iid, model, patch = _prediction(_loads(line.decode("utf-8"), where), where)
    except (InputError, UnicodeDecodeError):
        raise changed from None
    if (iid, model) != (ref.key.instance_id, ref.key.model):
        raise changed
    return patch


def read_instances(path: Path) -> dict[str, Instance]:
    """SWE-bench dataset rows (JSON list or object, JSONL, Parquet) by instance id."""
    rows = _parquet_rows(path) if path.suffix == ".parquet" else _json_instances(path)
    out: dict[str, Instance] = {}
    for where, row in rows:
        inst = _instance(row, f"{path}: {where}")
        if inst.instance_id in out and out[inst.instance_id] != inst:
            raise InputError(f"{where}: instance {inst.instance_id!r} appears twice with "
                             "different rows", path=str(path))
        out[inst.instance_id] = inst
    return out


def _json_instances(path: Path) -> Iterator[tuple[str, object]]:
    data = read_input(path, "instances file", regular=True)
    doc = _whole_document(data)
    if isinstance(doc, list):
        items: list[object] = doc
    elif isinstance(doc, dict) and "instance_id" not in doc:  # keyed by instance id
        items = [{"instance_id": k, **v} if isinstance(v, dict) else v
                 for k, v in doc.items()]
    else:  # JSONL (a file of one row is both)
        for number, line in enumerate(data.split(b"\n"), start=1):
            if line.strip():
                yield f"line {number}", _loads(line.decode("utf-8", "replace"),
                                               f"{path}:{number}")
        return
    for i, row in enumerate(items):
        yield f"row #{i + 1}", row


def _whole_document(data: bytes) -> object:
    """The file as one JSON value, or None when it is not one (JSONL, or malformed: the
    line-by-line read then names the line)."""
    if data.lstrip()[:1] not in (b"[", b"{"):
        return None
    try:
        return json.loads(data, object_pairs_hook=reject_duplicate_keys)
    except (ValueError, RecursionError, DuplicateKeyError):
        return None


def _parquet_rows(path: Path) -> Iterator[tuple[str, object]]:
    from provscore.batch.extras import require

    pq = require("pyarrow.parquet", "parquet", "to read Parquet instances")
    if not path.is_file():
        raise InputError("instances file not found", path=str(path))
    try:
        table = pq.read_table(path, columns=None)
    except Exception as exc:  # pyarrow raises its own error types
        raise InputError(f"not a readable Parquet file ({exc})", path=str(path)) from None
    for i, row in enumerate(table.to_pylist()):
        yield f"row #{i + 1}", row


def _instance(row: object, where: str) -> Instance:
    if not isinstance(row, dict):
        raise InputError(f"{where}: an instance must be an object")
    values = []
    for name in ("instance_id", "repo", "base_commit"):
        value = row.get(name)
        if not isinstance(value, str) or not value:
            raise InputError(f"{where}: {name} must be a non-empty string")
        values.append(value)
    test_patch = row.get("test_patch") or ""
    if not isinstance(test_patch, str):
        raise InputError(f"{where}: test_patch must be a string")
    if "/" not in values[1] or values[1].count("/") != 1:
        raise InputError(f"{where}: repo {values[1]!r} is not owner/name")
    return Instance(values[0], values[1], values[2], test_patch)
