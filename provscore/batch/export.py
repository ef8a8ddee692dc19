"""``provscore export``: every row of the results database as CSV, JSONL or Parquet.

Rows are streamed from SQLite to a temporary file beside the target, which replaces it
only when complete (a reader never sees half an export). JSON-valued columns (codes,
roles, ...) are JSON text in CSV and Parquet, objects in JSONL.
"""

from __future__ import annotations

import contextlib
import csv
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from provscore.batch.extras import require
from provscore.batch.store import JSON_COLUMNS, OUTCOME_COLUMNS, PATCH_COLUMNS, ResultsDB
from provscore.errors import InputError
from provscore.io import fsync_dir

EXPORT_FORMATS = ("csv", "jsonl", "parquet")
COLUMNS = (*PATCH_COLUMNS, *OUTCOME_COLUMNS)
_PARQUET_BATCH = 2048


def export_format(path: Path, given: str | None) -> str:
    fmt = given or path.suffix.lstrip(".").lower()
    if fmt not in EXPORT_FORMATS:
        raise InputError(f"cannot tell the export format from the name; give --format "
                         f"({', '.join(EXPORT_FORMATS)})", path=str(path))
    return fmt


def export_rows(db: ResultsDB, out: Path, fmt: str) -> int:
    """Write every row to ``out``; returns the number of rows."""
    if not out.parent.is_dir():
        raise InputError("cannot write the export: directory does not exist",
                         path=str(out.parent))
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    os.close(fd)
    try:
        count = _write(db, Path(tmp), fmt)
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    fsync_dir(out.parent)
    return count


def _flat(row: dict[str, Any]) -> dict[str, Any]:
    return {c: json.dumps(row[c], sort_keys=True) if c in JSON_COLUMNS else row[c]
            for c in COLUMNS}


def _write(db: ResultsDB, path: Path, fmt: str) -> int:
    rows: Iterator[dict[str, Any]] = db.rows()
    count = 0
    if fmt == "parquet":
        return _parquet(rows, path)
    with open(path, "w", encoding="utf-8", newline="") as fh:
        if fmt == "csv":
            w = csv.DictWriter(fh, fieldnames=COLUMNS, lineterminator="\n")
            w.writeheader()
            for row in rows:
                w.writerow(_flat(row))
                count += 1
        else:
            for row in rows:
                fh.write(json.dumps({c: row[c] for c in COLUMNS}, sort_keys=False) + "\n")
                count += 1
        fh.flush()
        os.fsync(fh.fileno())
    return count


def _parquet(rows: Iterator[dict[str, Any]], path: Path) -> int:
    pa = require("pyarrow", "parquet", "for a Parquet export")
    pq = require("pyarrow.parquet", "parquet", "for a Parquet export")
    schema = pa.schema([(c, _arrow_type(pa, c)) for c in COLUMNS])
    count = 0
    with pq.ParquetWriter(str(path), schema) as writer:
        batch: list[dict[str, Any]] = []
        for row in rows:
            batch.append(_flat(row))
            count += 1
            if len(batch) >= _PARQUET_BATCH:
                writer.write_table(pa.Table.from_pylist(batch, schema=schema))
                batch = []
        if batch or count == 0:
            writer.write_table(pa.Table.from_pylist(batch, schema=schema))
    return count


def _arrow_type(pa: Any, column: str) -> Any:
    if column in ("merge_score", "seconds"):
        return pa.float64()
    if column in ("touches_tests", "resolved", "applied"):
        return pa.bool_()
    if column in ("files", "evidence_removed", "evidence_weakened", "evidence_added",
                  "f2p_passed", "f2p_failed", "p2p_passed", "p2p_failed"):
        return pa.int64()
    return pa.string()
