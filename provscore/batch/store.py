"""The results database: one SQLite file, WAL, one transaction per chunk, resumable.

``patches`` holds one row per (prediction file digest, instance id, model), its primary
key; ``findings`` every finding of those rows; ``outcomes`` what the benchmark's reports
said per (model, instance), refreshed by each run given ``--reports``. A chunk's rows and
their findings are committed together or not at all, so killing the batch at any moment
loses at most the chunk in flight, and a row is never written twice (``INSERT OR IGNORE``
on the key; its findings only with it).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from provscore import __version__
from provscore.batch.model import Outcome, PatchRow, RowKey
from provscore.errors import InputError
from provscore.records import dataclass

SCHEMA_VERSION = "1"
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS patches (
    pred_digest TEXT NOT NULL, instance_id TEXT NOT NULL, model TEXT NOT NULL,
    pred_file TEXT NOT NULL, repo TEXT NOT NULL, base_commit TEXT NOT NULL,
    status TEXT NOT NULL, reason TEXT NOT NULL, detail TEXT NOT NULL,
    decision TEXT, merge_score REAL, evidence_mode TEXT NOT NULL,
    files INTEGER NOT NULL, roles TEXT NOT NULL, touches_tests INTEGER NOT NULL,
    evidence_removed INTEGER NOT NULL, evidence_weakened INTEGER NOT NULL,
    evidence_added INTEGER NOT NULL,
    codes TEXT NOT NULL, families TEXT NOT NULL, gates TEXT NOT NULL,
    hidden_tests TEXT NOT NULL, hidden_created TEXT NOT NULL,
    seconds REAL NOT NULL, provscore_version TEXT NOT NULL,
    scored_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (pred_digest, instance_id, model)
);
CREATE TABLE IF NOT EXISTS findings (
    pred_digest TEXT NOT NULL, instance_id TEXT NOT NULL, model TEXT NOT NULL,
    code TEXT NOT NULL, name TEXT NOT NULL, family TEXT NOT NULL, gate TEXT NOT NULL,
    tally TEXT NOT NULL, action TEXT NOT NULL, path TEXT, line INTEGER, message TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS findings_key ON findings (pred_digest, instance_id, model);
CREATE INDEX IF NOT EXISTS findings_code ON findings (code);
CREATE TABLE IF NOT EXISTS outcomes (
    model TEXT NOT NULL, instance_id TEXT NOT NULL, resolved INTEGER, applied INTEGER,
    f2p_passed INTEGER, f2p_failed INTEGER, p2p_passed INTEGER, p2p_failed INTEGER,
    source TEXT NOT NULL,
    PRIMARY KEY (model, instance_id)
);
"""
#: The ``patches`` columns, in table order (the export's columns follow, then outcomes').
PATCH_COLUMNS = ("pred_digest", "instance_id", "model", "pred_file", "repo", "base_commit",
                 "status", "reason", "detail", "decision", "merge_score", "evidence_mode",
                 "files", "roles", "touches_tests", "evidence_removed", "evidence_weakened",
                 "evidence_added", "codes", "families", "gates", "hidden_tests",
                 "hidden_created", "seconds", "provscore_version", "scored_at")
OUTCOME_COLUMNS = ("resolved", "applied", "f2p_passed", "f2p_failed", "p2p_passed",
                   "p2p_failed", "report_source")
JSON_COLUMNS = frozenset({"roles", "codes", "families", "gates", "hidden_tests",
                          "hidden_created"})


@dataclass(frozen=True, slots=True)
class WriteResult:
    written: int  # new rows
    skipped: int  # rows that were already there


class ResultsDB:
    """The results database at ``path`` (created when absent)."""

    def __init__(self, path: Path, *, create: bool = True) -> None:
        self.path = path
        if not create and not path.is_file():
            raise InputError("results database not found", path=str(path))
        if create and not path.parent.is_dir():
            raise InputError("directory of the results database does not exist",
                             path=str(path.parent))
        try:
            self.db = sqlite3.connect(path, timeout=60.0, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit survives a kill
            if create:
                self.db.executescript(_SCHEMA)
            self._check_schema()
        except sqlite3.DatabaseError as exc:
            raise InputError(f"not a provscore results database ({exc})",
                             path=str(path)) from None

    def _check_schema(self) -> None:
        try:
            row = self.db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        except sqlite3.OperationalError:
            raise InputError("not a provscore results database (no meta table)",
                             path=str(self.path)) from None
        if row is None:
            self.db.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)",
                            (SCHEMA_VERSION,))
        elif row[0] != SCHEMA_VERSION:
            raise InputError(f"results database schema {row[0]}, this provscore writes "
                             f"{SCHEMA_VERSION}; use a new --db", path=str(self.path))

    def close(self) -> None:
        self.db.close()

    def done_keys(self) -> set[RowKey]:
        """Every row already in the database (what a rerun skips)."""
        return {RowKey(*r) for r in self.db.execute(
            "SELECT pred_digest, instance_id, model FROM patches")}

    def write_chunk(self, rows: Iterable[PatchRow], *, replace: bool = False) -> WriteResult:
        """Rows and their findings in one transaction; existing keys are skipped (or,
        with ``replace``, rewritten in the same transaction)."""
        written = skipped = 0
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            for row in rows:
                k = row.key
                key = (k.pred_digest, k.instance_id, k.model)
                if replace:
                    db.execute("DELETE FROM findings WHERE pred_digest = ? AND instance_id = ? "
                               "AND model = ?", key)
                    db.execute("DELETE FROM patches WHERE pred_digest = ? AND instance_id = ? "
                               "AND model = ?", key)
                cur = db.execute(f"INSERT OR IGNORE INTO patches ({', '.join(PATCH_COLUMNS[:-1])})"
                                 f" VALUES ({', '.join('?' * (len(PATCH_COLUMNS) - 1))})",
                                 _patch_values(row))
                if cur.rowcount == 0:
                    skipped += 1
                    continue
                written += 1
                db.executemany("INSERT INTO findings VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                               [(*key, f.code, f.name, f.family, f.gate, f.tally, f.action,
                                 f.path, f.line, f.message) for f in row.findings])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return WriteResult(written, skipped)

    def write_outcomes(self, outcomes: Mapping[tuple[str, str], Outcome]) -> None:
        """Replace the outcomes of every model the given reports are about."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            for model in sorted({m for m, _ in outcomes}):
                db.execute("DELETE FROM outcomes WHERE model = ?", (model,))
            db.executemany("INSERT INTO outcomes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                           [(m, i, _bool(o.resolved), _bool(o.applied), o.f2p_passed,
                             o.f2p_failed, o.p2p_passed, o.p2p_failed, o.source)
                            for (m, i), o in sorted(outcomes.items())])
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def rows(self, where: str = "", params: tuple[Any, ...] = ()) -> Iterator[dict[str, Any]]:
        """Every patch row joined with its outcome, JSON columns decoded (streamed)."""
        cols = ", ".join(f"p.{c}" for c in PATCH_COLUMNS)
        sql = (f"SELECT {cols}, o.resolved, o.applied, o.f2p_passed, o.f2p_failed, "
               "o.p2p_passed, o.p2p_failed, o.source FROM patches p LEFT JOIN outcomes o "
               f"ON o.model = p.model AND o.instance_id = p.instance_id {where} "
               "ORDER BY p.model, p.instance_id, p.pred_digest")
        names = (*PATCH_COLUMNS, *OUTCOME_COLUMNS)
        for values in self.db.execute(sql, params):
            row = dict(zip(names, values, strict=True))
            for c in JSON_COLUMNS:
                row[c] = json.loads(row[c])
            for c in ("touches_tests", "resolved", "applied"):
                row[c] = None if row[c] is None else bool(row[c])
            yield row

    def findings_of(self, code: str) -> Iterator[tuple[Any, ...]]:
        """(model, instance id, pred file, path, line, message) of every finding of a code."""
        yield from self.db.execute(
            "SELECT f.model, f.instance_id, p.pred_file, f.path, f.line, f.message "
            "FROM findings f JOIN patches p USING (pred_digest, instance_id, model) "
            "WHERE f.code = ? ORDER BY f.model, f.instance_id, f.path, f.line", (code,))


    def has_family(self, family: str) -> bool:
        return self.db.execute("SELECT 1 FROM findings WHERE family = ? LIMIT 1",
                               (family,)).fetchone() is not None


def _bool(value: bool | None) -> int | None:
    return None if value is None else int(value)


def _patch_values(row: PatchRow) -> tuple[Any, ...]:
    k = row.key
    return (k.pred_digest, k.instance_id, k.model, row.pred_file, row.repo, row.base_commit,
            row.status.value, row.reason, row.detail, row.decision, row.merge_score,
            row.evidence_mode, row.files, json.dumps(dict(row.roles)), int(row.touches_tests),
            row.evidence_removed, row.evidence_weakened, row.evidence_added,
            json.dumps(dict(row.codes)), json.dumps(dict(row.families)),
            json.dumps(dict(row.gates)), json.dumps(list(row.hidden_tests)),
            json.dumps(list(row.hidden_created)), row.seconds, __version__)
