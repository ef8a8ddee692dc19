"""The per-file summary cache: an embedded SQLite database keyed by blob hash.

Scoring many patches of one repository parses each unique file once: a summary depends
only on the file's bytes (its git blob hash), the summary format, provscore's version and
the Python that made it (``marshal`` is version-specific), so one cache serves every
repository and every patch. The database runs in WAL mode with a busy timeout, and rows
are only ever inserted (``INSERT OR IGNORE`` of the same value), so two scorers writing at
once lose nothing. Every row carries a digest of its bytes: a row that does not verify, or
a database file that is not one, is dropped and rebuilt, never trusted.

The cache is owned by the :class:`~provscore.session.Session` (or passed in): nothing here
is module-level state.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import marshal
import os
import sqlite3
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from provscore import __version__
from provscore.callgraph.summary import FORMAT, FileSummary

_SCHEMA = """
CREATE TABLE IF NOT EXISTS summary (
    blob TEXT NOT NULL,
    version TEXT NOT NULL,
    digest BLOB NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (blob, version)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS graph (
    key TEXT PRIMARY KEY,
    digest BLOB NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS export (
    key TEXT NOT NULL,
    module TEXT NOT NULL,
    digest BLOB NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (key, module)
) WITHOUT ROWID;
"""
_BATCH = 500  # SQLite's default limit on host parameters is 999 (older) / 32766


def cache_version() -> str:
    """What a cached summary depends on besides the bytes of its file: provscore's version,
    the summary format, the Python, and the source of the call-graph package (what reads a
    file and resolves its names: a change to it between releases must not meet summaries or
    graphs it did not make)."""
    return f"{__version__}/{FORMAT}/py{sys.version_info[0]}.{sys.version_info[1]}" \
        f"/{_code_digest()}"


@functools.cache
def _code_digest() -> str:
    """A digest of the call-graph package's ``.py`` sources (name and bytes, in name order);
    ``-`` where they cannot be read (an install without sources: the version decides)."""
    h = hashlib.sha256()
    try:
        for path in sorted(Path(__file__).parent.glob("*.py")):
            h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    except OSError:
        return "-"
    return h.hexdigest()[:12]


def blob_sha(data: bytes) -> str:
    """The git blob hash of ``data`` (what ``git ls-tree`` lists for a committed file)."""
    return hashlib.sha1(b"blob %d\x00" % len(data) + data, usedforsecurity=False).hexdigest()


def default_cache_path() -> Path:
    """``$PROVSCORE_CACHE_DIR/callgraph.sqlite``, else the user cache dir."""
    root = os.environ.get("PROVSCORE_CACHE_DIR")
    if root:
        return Path(root) / "callgraph.sqlite"
    xdg = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(xdg) / "provscore" / "callgraph.sqlite"


class SummaryCache:
    """Summaries by blob hash, in memory and (when ``path`` is given) in SQLite.

    ``parsed`` counts the files parsed since the cache was opened (hits parse nothing):
    a warm rebuild after a 5-file change parses 5 files; ``parsed_by_workers`` how many
    of them worker processes summarised (a large cold build, :func:`.build.parse_all`).
    """

    def __init__(self, path: Path | None = None) -> None:
        self.path = path
        self.version = cache_version()
        self._memory: dict[str, FileSummary] = {}
        # blob -> its summary as put_many stores it, encoded already (by a worker process)
        self._encoded: dict[str, bytes] = {}
        self._db: sqlite3.Connection | None = None
        self.parsed = 0
        self.parsed_by_workers = 0
        self.rebuilt = False  # the database file was corrupt and was recreated
        if path is not None:
            self._db = self._open(path)

    def _open(self, path: Path) -> sqlite3.Connection | None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return None  # an unwritable cache dir only costs speed
        for attempt in (1, 2):
            try:
                db = sqlite3.connect(path, timeout=30.0, isolation_level=None)
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
                db.executescript(_SCHEMA)
                db.execute("SELECT count(*) FROM summary WHERE blob = ''").fetchone()
                return db
            except sqlite3.DatabaseError:
                if attempt == 2:
                    return None
                self._discard(path)
        return None

    def _discard(self, path: Path) -> None:
        self.rebuilt = True
        for suffix in ("", "-wal", "-shm"):
            try:
                Path(str(path) + suffix).unlink()
            except FileNotFoundError:
                pass
            except OSError:
                return

    def close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None

    def get_many(self, blobs: Iterable[str]) -> dict[str, FileSummary]:
        """Cached summaries of the given blob hashes (misses are absent)."""
        out: dict[str, FileSummary] = {}
        missing: list[str] = []
        for b in dict.fromkeys(blobs):
            hit = self._memory.get(b)
            if hit is not None:
                out[b] = hit
            else:
                missing.append(b)
        if self._db is None or not missing:
            return out
        bad: list[str] = []
        try:
            for i in range(0, len(missing), _BATCH):
                chunk = missing[i:i + _BATCH]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT blob, digest, data FROM summary WHERE version = ? "
                    f"AND blob IN ({marks})", (self.version, *chunk)).fetchall()
                for blob, digest, data in rows:
                    summary = _decode(digest, data)
                    if summary is None:
                        bad.append(blob)
                        continue
                    out[blob] = self._memory[blob] = summary
            if bad:
                self._db.executemany("DELETE FROM summary WHERE blob = ? AND version = ?",
                                     [(b, self.version) for b in bad])
        except sqlite3.DatabaseError:
            self._corrupt()
        return out

    @property
    def stores(self) -> bool:
        """Whether :meth:`put_many` writes to a database (else it only keeps in memory)."""
        return self._db is not None

    def keep_encoded(self, blob: str, data: bytes) -> None:
        """``data`` is the encoded summary of ``blob`` (``marshal`` of its record, made in
        a worker process): :meth:`put_many` stores it as it is."""
        if self._db is not None:
            self._encoded[blob] = data

    def put_many(self, summaries: Mapping[str, FileSummary]) -> None:
        self._memory.update(summaries)
        if self._db is None or not summaries:
            return
        rows = []
        encoded = self._encoded
        for blob, s in summaries.items():
            data = encoded.pop(blob, None)
            if data is None:
                data = marshal.dumps(s.to_record())  # type: ignore[arg-type]  # plain tuples
            rows.append((blob, self.version, hashlib.sha256(data).digest(), data))
        try:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany("INSERT OR IGNORE INTO summary VALUES (?, ?, ?, ?)", rows)
            self._db.execute("COMMIT")
        except sqlite3.DatabaseError:
            self._corrupt()

    def _corrupt(self) -> None:
        """The database went bad under us: recreate it; this run keeps its memory."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
        self._db = None
        if self.path is not None:
            self._discard(self.path)
            self._db = self._open(self.path)

    def get_record(self, key: str) -> object | None:
        """A stored graph row (see :mod:`provscore.callgraph.stored`), verified; None when
        absent, or when it does not verify (then it is dropped)."""
        return self._get_row("graph", "key = ?", (key,))

    def put_record(self, key: str, record: object) -> None:
        self._put_row("graph", (key,), record)

    def get_exports(self, key: str, module: str) -> object | None:
        """A module's stored export table for the base graph ``key`` (see
        :mod:`provscore.callgraph.exports`), verified as :meth:`get_record` does."""
        return self._get_row("export", "key = ? AND module = ?", (key, module))

    def put_exports(self, key: str, module: str, record: object) -> None:
        self._put_row("export", (key, module), record)

    def _get_row(self, table: str, where: str, args: tuple[str, ...]) -> object | None:
        if self._db is None:
            return None
        try:
            row = self._db.execute(f"SELECT digest, data FROM {table} WHERE {where}",
                                   args).fetchone()
            if row is None:
                return None
            digest, data = row
            if isinstance(data, bytes) and hashlib.sha256(data).digest() == digest:
                try:
                    record: object = marshal.loads(data)
                    return record
                except (ValueError, EOFError, TypeError):
                    pass
            self._db.execute(f"DELETE FROM {table} WHERE {where}", args)
        except sqlite3.DatabaseError:
            self._corrupt()
        return None

    def _put_row(self, table: str, key: tuple[str, ...], record: object) -> None:
        if self._db is None:
            return
        data = marshal.dumps(record)  # type: ignore[arg-type]  # plain tuples
        marks = ", ".join("?" * (len(key) + 2))
        try:
            self._db.execute(f"INSERT OR REPLACE INTO {table} VALUES ({marks})",
                             (*key, hashlib.sha256(data).digest(), data))
        except sqlite3.DatabaseError:
            self._corrupt()

    def summary_of(self, blob: str, source: bytes) -> FileSummary:
        """One file's summary: from the cache, else parsed (and stored in memory only;
        :meth:`put_many` persists)."""
        hit = self._memory.get(blob)
        if hit is None:
            from provscore.callgraph.summary import summarise

            hit = summarise(source)
            self.parsed += 1
            self._memory[blob] = hit
        return hit


def _decode(digest: object, data: object) -> FileSummary | None:
    if not isinstance(data, bytes) or not isinstance(digest, bytes):
        return None
    if hashlib.sha256(data).digest() != digest:
        return None
    try:
        return FileSummary.from_record(marshal.loads(data))
    except (ValueError, EOFError, TypeError):
        return None
