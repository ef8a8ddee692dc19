"""Oracle inputs: the flake ledger, the freeze ledger and removal approvals.

All three live in the oracle dir, outside the write set; scoring reads them and
never writes them. Each reader validates every row and fails closed: a
malformed row, an unknown key, a wrong type or a truncated last line is an
:class:`~provscore.errors.InputError` that names the file and line
(``"ledger.jsonl:7: ..."``), never a silently skipped row.

* **flake ledger** (JSONL, append-only, written by ``provscore ledger record``
  through :func:`append_rows`): one row per off-tree result of a test id.
  :func:`flake_states` replays each test's history through a small state
  machine (scored / unscored) — see its docstring and ``docs/ledgers.md``.
* **freeze ledger** (JSONL or a JSON array, human-edited):
  :func:`check_freeze_ledger` produces the gate-6 findings (PS601-PS607, and
  PS608 for stale rows); :func:`frozen_ids` gives the ids a freeze is in force
  for (gate 7 allows new suppressions only for them; scoring excludes them).
* **removal approvals** (TOML): :func:`approves` tells gate 8 whether a human
  approved removing a test's evidence.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from pathlib import Path
from typing import Any

from provscore.errors import InputError
from provscore.inputfiles import DuplicateKeyError, reject_duplicate_keys
from provscore.model import Finding, Location
from provscore.rules import registry

# --------------------------------------------------------------------------- common

_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TYPE_NAMES = {str: "a string", bool: "a boolean", int: "an integer"}


def _where(path: Path | str, line: int | None) -> str:
    return f"{path}:{line}" if line is not None else str(path)


def _type_name(value: object) -> str:
    return type(value).__name__ if value is not None else "null"


class _Fields:
    """Typed access to one row's keys; every error names the key and the row's place."""

    def __init__(self, raw: Mapping[str, object], where: str, known: frozenset[str]) -> None:
        for key in raw:
            if key not in known:
                raise InputError(f"unknown key {key!r} (known keys: {', '.join(sorted(known))})",
                                 path=where)
        self.raw = raw
        self.where = where

    def typed(self, key: str, kind: type[Any], *, required: bool) -> Any:
        if key not in self.raw:
            if required:
                raise InputError(f"missing required key {key!r}", path=self.where)
            return None
        value = self.raw[key]
        # bool is an int subclass: an integer key must not accept true/false.
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise InputError(f"key {key!r} must be {_TYPE_NAMES[kind]}, got "
                             f"{_type_name(value)} {value!r}", path=self.where)
        return value

    def text(self, key: str, *, required: bool = True, default: str = "",
             nonempty: bool = False) -> str:
        value = self.typed(key, str, required=required)
        if value is None:
            return default
        if nonempty and not value.strip():
            raise InputError(f"key {key!r} must not be empty", path=self.where)
        return str(value)

    def choice(self, key: str, choices: tuple[str, ...], *, required: bool = True,
               default: str = "") -> str:
        value = self.text(key, required=required, default=default)
        if value not in choices:
            raise InputError(f"key {key!r} must be one of {', '.join(choices)}, got {value!r}",
                             path=self.where)
        return value

    def flag(self, key: str, *, default: bool) -> bool:
        value = self.typed(key, bool, required=False)
        return default if value is None else bool(value)

    def day(self, key: str, *, required: bool = True, toml_dates: bool = False) -> date | None:
        """A calendar date: a ``YYYY-MM-DD`` string (or a native TOML date)."""
        if key not in self.raw:
            if required:
                raise InputError(f"missing required key {key!r}", path=self.where)
            return None
        value = self.raw[key]
        if toml_dates and isinstance(value, date) and not isinstance(value, datetime):
            return value
        if isinstance(value, str) and _DATE_RE.fullmatch(value):
            try:
                return date.fromisoformat(value)
            except ValueError:
                pass
        raise InputError(f"key {key!r} must be a date YYYY-MM-DD, got {_type_name(value)} "
                         f"{value!r}", path=self.where)


def _read_text(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise InputError("not valid UTF-8", path=_where(path, line)) from None


def _loads(text: str) -> Any:
    return json.loads(text, object_pairs_hook=reject_duplicate_keys)


def _jsonl_objects(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    """``(line, object)`` for every non-blank line of a JSONL file.

    Lines are split on ``\\n`` only (JSON escapes every other line break). A
    last line without its newline that does not parse is a truncated write and
    an error; one that parses is accepted (a hand-written file).
    """
    lines = text.split("\n")
    complete = text.endswith("\n") or not text
    if complete:
        lines.pop()  # the empty string after the final newline
    out: list[tuple[int, dict[str, Any]]] = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        last = number == len(lines)
        try:
            obj = _loads(line)
        except DuplicateKeyError as exc:
            raise InputError(f"duplicate key {exc.key!r}", path=_where(path, number)) from None
        except json.JSONDecodeError as exc:
            if last and not complete:
                raise InputError("last line is truncated (no trailing newline and not valid "
                                 "JSON): an interrupted write; repair the file by hand",
                                 path=_where(path, number)) from None
            raise InputError(f"malformed JSON: {exc.msg} (column {exc.colno})",
                             path=_where(path, number)) from None
        if not isinstance(obj, dict):
            raise InputError(f"a row must be a JSON object, got {_type_name(obj)}",
                             path=_where(path, number))
        out.append((number, obj))
    return out


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":  # JSON's whitespace
        pos += 1
    return pos


def _json_array_objects(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    """``(line, object)`` for every element of a JSON array, with the line it starts on."""
    decoder = json.JSONDecoder(object_pairs_hook=reject_duplicate_keys)

    def line_at(pos: int) -> int:
        return text.count("\n", 0, pos) + 1

    def fail(msg: str, pos: int) -> InputError:
        return InputError(msg, path=_where(path, line_at(pos)))

    pos = _skip_ws(text, 0)
    if text[pos:pos + 1] != "[":
        raise fail("expected a JSON array", pos)
    pos = _skip_ws(text, pos + 1)
    out: list[tuple[int, dict[str, Any]]] = []
    if text[pos:pos + 1] == "]":
        pos += 1
    else:
        while True:
            try:
                obj, end = decoder.raw_decode(text, pos)
            except DuplicateKeyError as exc:
                raise fail(f"duplicate key {exc.key!r}", pos) from None
            except json.JSONDecodeError as exc:
                raise InputError(f"malformed JSON: {exc.msg} (column {exc.colno})",
                                 path=_where(path, exc.lineno)) from None
            if not isinstance(obj, dict):
                raise fail(f"a row must be a JSON object, got {_type_name(obj)}", pos)
            out.append((line_at(pos), obj))
            pos = _skip_ws(text, end)
            sep = text[pos:pos + 1]
            if sep == "]":
                pos += 1
                break
            if sep != ",":
                if not sep:
                    raise fail("the JSON array is truncated (no closing ']')", pos)
                raise fail(f"expected ',' or ']' after a row, got {sep!r}", pos)
            pos = _skip_ws(text, pos + 1)
    pos = _skip_ws(text, pos)
    if pos != len(text):
        raise fail("unexpected data after the JSON array", pos)
    return out


# --------------------------------------------------------------------------- ids


def id_covers(parent: str, node_id: str) -> bool:
    """True when ``node_id`` is ``parent`` or one of its parametrized ids ``parent[...]``.

    ``tests/t.py::test_a`` covers ``tests/t.py::test_a[1-2]`` but neither
    ``tests/t.py::test_ab`` nor the children of a class or module id.
    """
    if not parent:
        return False
    return node_id == parent or (node_id.startswith(parent + "[") and node_id.endswith("]"))


# --------------------------------------------------------------------------- flake ledger

FLAKE_RESULTS = ("pass", "fail")
FLAKE_STATES = ("scored", "unscored")
_FLAKE_KEYS = frozenset({"test_id", "result", "run_id", "recorded_at", "env"})


@dataclass(frozen=True, slots=True)
class FlakeRow:
    """One off-tree result of one test id, as recorded in the flake ledger."""

    test_id: str
    result: str  # "pass" | "fail"
    run_id: str
    recorded_at: str  # ISO-8601 timestamp, as written
    env: str = ""  # environment fingerprint digest (optional)


@dataclass(frozen=True, slots=True)
class FlakeState:
    """Whether a test id votes, from its history in the flake ledger."""

    test_id: str
    state: str  # "scored" | "unscored"
    results: tuple[str, ...]  # the last ``window`` results, oldest first
    reason: str


def _flake_row(raw: Mapping[str, object], where: str) -> FlakeRow:
    f = _Fields(raw, where, _FLAKE_KEYS)
    row = FlakeRow(
        test_id=f.text("test_id", nonempty=True),
        result=f.choice("result", FLAKE_RESULTS),
        run_id=f.text("run_id", nonempty=True),
        recorded_at=f.text("recorded_at"),
        env=f.text("env", required=False),
    )
    try:
        datetime.fromisoformat(row.recorded_at)
    except ValueError:
        raise InputError(f"key 'recorded_at' must be an ISO-8601 timestamp, got "
                         f"{row.recorded_at!r}", path=where) from None
    return row


def read_flake_ledger(path: Path) -> tuple[FlakeRow, ...]:
    """Every row of a flake ledger (JSONL), in file order (= record order)."""
    text = _read_text(path)
    return tuple(_flake_row(obj, _where(path, line)) for line, obj in _jsonl_objects(path, text))


def _history(rows: Iterable[FlakeRow]) -> dict[str, list[FlakeRow]]:
    """Results per test id in file order; a repeated (test_id, run_id, result) counts once."""
    seen: set[tuple[str, str, str]] = set()
    out: dict[str, list[FlakeRow]] = {}
    for row in rows:
        ident = (row.test_id, row.run_id, row.result)
        if ident in seen:
            continue
        seen.add(ident)
        out.setdefault(row.test_id, []).append(row)
    return out


def _trailing_streak(results: Sequence[str]) -> int:
    n = 0
    for result in reversed(results):
        if result != results[-1]:
            break
        n += 1
    return n


def flake_states(rows: Iterable[FlakeRow], *, window: int,
                 reentry_streak: int) -> dict[str, FlakeState]:
    """The scored/unscored state of every test id in the flake ledger.

    Each test's results are replayed in file order (a repeated
    ``(test_id, run_id, result)`` row is one observation recorded twice and
    counts once) through this state machine, starting ``scored``:

    * ``scored`` → ``unscored`` when the last ``window`` results (fewer while
      the history is shorter) contain both ``pass`` and ``fail``;
    * ``unscored`` → ``scored`` when the trailing run of identical results is at
      least ``max(window, reentry_streak)`` long: the disagreement has left the
      window *and* the re-entry streak is complete. A streak of failures
      re-enters too: the test then votes, and fails.

    Equivalently: a test whose history never changed value is scored; otherwise
    it is scored exactly when its last ``max(window, reentry_streak)`` results
    agree.
    """
    if window < 2:
        raise InputError(f"the flake window must be at least 2 results, got {window}")
    if reentry_streak < 1:
        raise InputError(f"the flake re-entry streak must be at least 1, got {reentry_streak}")
    need = max(window, reentry_streak)
    out: dict[str, FlakeState] = {}
    for test_id, history in _history(rows).items():
        results: list[str] = []
        state = "scored"
        for row in history:
            results.append(row.result)
            if state == "scored" and len(set(results[-window:])) > 1:
                state = "unscored"
            elif state == "unscored" and _trailing_streak(results) >= need:
                state = "scored"
        last = tuple(results[-window:])
        streak = _trailing_streak(results)
        if state == "scored":
            reason = ("stable" if streak == len(results)
                      else f"reentered: {streak} agreeing results since the last disagreement")
        elif len(set(last)) > 1:
            reason = "disagreement_on_independent_runner"
        else:
            reason = f"reentry_pending: {streak} of {need} agreeing results"
        out[test_id] = FlakeState(test_id, state, last, reason)
    return out


def _encode_rows(rows: Sequence[Mapping[str, object]], where: str) -> bytes:
    lines: list[bytes] = []
    for index, raw in enumerate(rows, start=1):
        if not isinstance(raw, Mapping):
            raise InputError(f"row {index} to append must be a mapping, got {_type_name(raw)}",
                             path=where)
        row = _flake_row(raw, f"{where} (row {index} to append)")
        obj: dict[str, str] = {"test_id": row.test_id, "result": row.result,
                               "run_id": row.run_id, "recorded_at": row.recorded_at}
        if row.env:
            obj["env"] = row.env
        # ensure_ascii: the line holds no byte a reader could take for a line break.
        lines.append(json.dumps(obj, ensure_ascii=True, separators=(",", ":")).encode("ascii"))
    return b"".join(line + b"\n" for line in lines)


def append_rows(path: Path, rows: Sequence[Mapping[str, object]]) -> None:
    """Append flake-ledger rows to ``path`` (created if missing): all of them or none.

    Every row is validated before anything is written. The rows are then written
    under an exclusive ``flock`` as one ``os.write`` to a descriptor opened with
    ``O_APPEND``, and fsynced, so concurrent writers never interleave or lose
    rows. A file whose last byte is not a newline ends in a truncated row; the
    call refuses to append after it and names the line.
    """
    data = _encode_rows(rows, str(path))
    if not data:
        return
    size = -1
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise InputError(f"cannot open for appending: {exc.strerror or exc}",
                         path=str(path)) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                with open(path, "rb") as fh:
                    line = fh.read().count(b"\n") + 1
                raise InputError("last line is truncated (no trailing newline); refusing to "
                                 "append after it: repair the file by hand",
                                 path=_where(path, line))
            view = memoryview(data)
            while view:
                # One write for the whole batch; a regular file takes it at once. The loop
                # only guards a short write, which the lock keeps from interleaving.
                written = os.write(fd, view)
                if written <= 0:
                    raise OSError("short write")
                view = view[written:]
            os.fsync(fd)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError as exc:
        raise InputError(f"cannot append: {exc.strerror or exc}", path=str(path)) from None
    finally:
        os.close(fd)
    if size == 0:  # a new file: make its directory entry durable too
        _fsync_dir(path.parent)


def _fsync_dir(directory: Path) -> None:
    try:
        dfd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(dfd)
    except OSError:
        pass
    finally:
        os.close(dfd)


# --------------------------------------------------------------------------- freeze ledger

FREEZE_STATUSES = ("flake", "replay_ok", "replay_fail")
_FREEZE_KEYS = frozenset({
    "test_id", "property_id", "fixture", "owner", "reason", "frozen_on", "expires_on",
    "status", "fixture_sha", "counts_as_pass", "blocks_merge",
    # Replay context from seed 001; validated, informational only.
    "seed", "env",
})
_NEVER_HUMAN = frozenset({"", "agent", "bot", "ai", "llm", "ci", "automation"})


@dataclass(frozen=True, slots=True)
class FreezeRow:
    """One row of the freeze ledger. ``key`` is its ``test_id`` or ``property_id``."""

    key: str
    fixture: str
    owner: str
    reason: str
    frozen_on: date
    expires_on: date
    status: str  # "flake" | "replay_ok" | "replay_fail"
    fixture_sha: str
    counts_as_pass: bool
    line: int

    @property
    def subject(self) -> str:
        return f"{self.key} ({self.fixture})" if self.fixture else self.key


def _freeze_row(raw: Mapping[str, object], path: Path, line: int) -> FreezeRow:
    where = _where(path, line)
    f = _Fields(raw, where, _FREEZE_KEYS)
    if ("test_id" in raw) == ("property_id" in raw):
        raise InputError("a row needs exactly one of 'test_id' and 'property_id'", path=where)
    key = f.text("test_id" if "test_id" in raw else "property_id", nonempty=True)
    frozen_on = f.day("frozen_on")
    expires_on = f.day("expires_on")
    assert frozen_on is not None and expires_on is not None  # required=True
    if expires_on < frozen_on:
        raise InputError(f"'expires_on' {expires_on.isoformat()} is before 'frozen_on' "
                         f"{frozen_on.isoformat()}", path=where)
    f.flag("blocks_merge", default=False)
    f.typed("seed", int, required=False)
    f.text("env", required=False)
    return FreezeRow(
        key=key,
        fixture=f.text("fixture", required=False),
        owner=f.text("owner"),
        reason=f.text("reason", nonempty=True),
        frozen_on=frozen_on,
        expires_on=expires_on,
        status=f.choice("status", FREEZE_STATUSES, required=False, default="flake"),
        fixture_sha=f.text("fixture_sha", required=False),
        counts_as_pass=f.flag("counts_as_pass", default=False),
        line=line,
    )


def read_freeze_ledger(path: Path) -> tuple[FreezeRow, ...]:
    """Every row of a freeze ledger: JSONL, or one JSON array of row objects."""
    text = _read_text(path)
    whole = _whole_object(text)
    if whole is not None and ("nodeids" in whole or "ids" in whole):
        raise InputError("this is a bare list of frozen ids (seed 000/004 style) with no owner, "
                         "reason or expiry: write one freeze row per id (docs/ledgers.md)",
                         path=_where(path, 1))
    if text.lstrip().startswith("["):
        objects = _json_array_objects(path, text)
    else:
        try:
            objects = _jsonl_objects(path, text)
        except InputError:
            if whole is not None:
                raise InputError("a freeze ledger is JSONL (one object per line) or a JSON "
                                 "array; this file is one multi-line object: wrap it in [ ]",
                                 path=_where(path, 1)) from None
            raise
    return tuple(_freeze_row(obj, path, line) for line, obj in objects)


def _whole_object(text: str) -> dict[str, Any] | None:
    """The file as one JSON object, when it is one (not a ledger format; used for hints)."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _resolved(rows: Sequence[FreezeRow]) -> set[int]:
    """Indexes of ``flake`` rows a later replay row (same key, fixture, fixture_sha) resolves."""
    replayed: set[tuple[str, str, str]] = set()
    out: set[int] = set()
    for i in range(len(rows) - 1, -1, -1):
        row = rows[i]
        ident = (row.key, row.fixture, row.fixture_sha)
        if row.status != "flake":
            replayed.add(ident)
        elif ident in replayed:
            out.add(i)
    return out


def _open_rows(rows: Sequence[FreezeRow]) -> list[FreezeRow]:
    """``flake`` rows no later replay row resolved, in file order."""
    resolved = _resolved(rows)
    return [r for i, r in enumerate(rows) if r.status == "flake" and i not in resolved]


def _is_human(owner: str, human_owners: frozenset[str] | None) -> bool:
    if owner.strip().lower() in _NEVER_HUMAN or owner.lower().endswith("[bot]"):
        return False
    return owner in human_owners if human_owners is not None else owner == "human"


def _current_digest(row: FreezeRow, fixture_digests: Mapping[str, str] | None) -> str | None:
    """The fixture's current digest when it differs from the row's (the row is stale)."""
    if fixture_digests is None or row.fixture not in fixture_digests:
        return None
    current = fixture_digests[row.fixture]
    return current if current != row.fixture_sha else None


def check_freeze_ledger(rows: Iterable[FreezeRow], *, today: date, parked_budget: int,
                        human_owners: frozenset[str] | None = None,
                        fixture_digests: Mapping[str, str] | None = None,
                        path: str = "") -> tuple[Finding, ...]:
    """Gate 6 over a freeze ledger: PS601-PS607 (reject) and PS608 (stale, info).

    Terms (``docs/ledgers.md``): a ``flake`` row is *open* until a later
    ``replay_ok`` or ``replay_fail`` row with the same key, fixture and
    fixture_sha resolves it; replay rows are never open. *Expired* means
    ``expires_on < today``. *Stale* means ``fixture_digests`` maps the row's
    fixture to a digest other than its ``fixture_sha``. Staleness only withdraws
    a freeze (see :func:`frozen_ids`); it never hides a row from PS601-PS607.
    """
    if parked_budget < 0:
        raise InputError(f"the parked budget must be at least 0, got {parked_budget}")
    rows = tuple(rows)
    rules = registry()
    findings: list[Finding] = []

    def emit(code: str, row: FreezeRow, *, whole_ledger: bool = False, anchor: str = "",
             **fmt: object) -> None:
        rule = rules[code]
        values = {"subject": row.subject, "key": row.key, "fixture": row.fixture,
                  "line": row.line, **fmt}
        findings.append(rule.finding(
            rule.message.format_map(values),
            location=Location(path=path, line=row.line),
            node_id=None if whole_ledger else row.key,
            anchor=anchor or f"{code}:{row.key}:{row.fixture}"))

    for row in rows:
        if not _is_human(row.owner, human_owners):
            emit("PS603", row, owner=row.owner)
        if row.counts_as_pass:
            emit("PS604", row)
        if row.status == "replay_fail":
            emit("PS607", row)

    open_rows = _open_rows(rows)
    first_open: dict[tuple[str, str], FreezeRow] = {}
    fixtures_by_key: dict[str, list[FreezeRow]] = {}
    for row in open_rows:
        if row.expires_on < today:
            emit("PS601", row, expires_on=row.expires_on.isoformat(), today=today.isoformat(),
                 owner=row.owner)
        current = _current_digest(row, fixture_digests)
        if current is not None:
            emit("PS608", row, recorded=row.fixture_sha or "(none)", current=current)
        pair = (row.key, row.fixture)
        if pair in first_open:
            emit("PS602", row, first_line=first_open[pair].line)
        else:
            first_open[pair] = row
            fixtures_by_key.setdefault(row.key, []).append(row)

    for key, distinct in fixtures_by_key.items():
        if len(distinct) > 1:
            names = ", ".join(r.fixture or "(no fixture)" for r in distinct)
            emit("PS605", distinct[1], anchor=f"PS605:{key}:*", count=len(distinct),
                 fixtures=names)

    parked = list(first_open.values())
    if len(parked) > parked_budget:
        shown = ", ".join(r.subject for r in parked[:5]) + (", ..." if len(parked) > 5 else "")
        emit("PS606", parked[parked_budget], whole_ledger=True, anchor=f"PS606:{path}",
             count=len(parked), budget=parked_budget, parked=shown)
    return tuple(sorted(findings, key=Finding.sort_key))


def frozen_ids(rows: Iterable[FreezeRow], *, today: date,
               fixture_digests: Mapping[str, str] | None = None,
               human_owners: frozenset[str] | None = None,
               results: Iterable[FlakeRow] | None = None,
               unfreeze_streak: int = 10) -> frozenset[str]:
    """Keys of the freezes in force: gate 7 allows new suppressions only for these,
    and scoring leaves them out of numerator and denominator.

    A row is in force when it is an open ``flake`` row, ``frozen_on <= today <=
    expires_on``, not stale, and human-owned (as PS603 decides). When the flake
    ledger's ``results`` are given, a freeze also ends on evidence (seed 004):
    once the key's results recorded on or after ``frozen_on`` end in
    ``unfreeze_streak`` consecutive agreeing results, the id votes again.
    """
    if unfreeze_streak < 1:
        raise InputError(f"the unfreeze streak must be at least 1, got {unfreeze_streak}")
    history = _history(results) if results is not None else {}
    out: set[str] = set()
    for row in _open_rows(tuple(rows)):
        if not row.frozen_on <= today <= row.expires_on:
            continue
        if _current_digest(row, fixture_digests) is not None:
            continue
        if not _is_human(row.owner, human_owners):
            continue
        after = [r.result for r in history.get(row.key, ()) if _on_or_after(r, row.frozen_on)]
        if after and _trailing_streak(after) >= unfreeze_streak:
            continue
        out.add(row.key)
    return frozenset(out)


def _on_or_after(row: FlakeRow, day: date) -> bool:
    try:
        return datetime.fromisoformat(row.recorded_at).date() >= day
    except ValueError:  # an unreadable timestamp never ends a freeze
        return False


def missing_frozen_ids(frozen: Iterable[str], known_ids: Iterable[str]) -> frozenset[str]:
    """Frozen ids that match no known test or property id (seed 004: a reject, PS506).

    A frozen id matches a known id it covers (itself or a parametrized form).
    """
    known = tuple(known_ids)
    return frozenset(f for f in frozen if not any(id_covers(f, k) for k in known))


# --------------------------------------------------------------------------- approvals

_APPROVAL_KEYS = frozenset({"node_id", "anchor", "approved_by", "reason", "date"})


@dataclass(frozen=True, slots=True)
class Approval:
    """A human approval, in the oracle dir, to remove or weaken a test's evidence."""

    node_id: str
    anchor: str
    approved_by: str
    reason: str
    approved_on: date | None


def read_approvals(path: Path) -> tuple[Approval, ...]:
    """Every ``[[approval]]`` table of a removal-approvals TOML file."""
    try:
        with path.open("rb") as fh:
            doc = tomllib.load(fh)
    except OSError as exc:
        raise InputError(f"cannot read: {exc.strerror or exc}", path=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"malformed TOML: {exc}", path=str(path)) from None
    for key in doc:
        if key != "approval":
            raise InputError(f"unknown top-level key {key!r} (expected [[approval]] tables)",
                             path=str(path))
    tables = doc.get("approval", [])
    if not isinstance(tables, list):
        raise InputError("'approval' must be an array of tables ([[approval]])", path=str(path))
    out: list[Approval] = []
    for index, raw in enumerate(tables, start=1):
        where = f"{path} [[approval]] #{index}"
        if not isinstance(raw, dict):
            raise InputError("an approval must be a table", path=where)
        f = _Fields(raw, where, _APPROVAL_KEYS)
        node_id = f.text("node_id", required=False)
        anchor = f.text("anchor", required=False)
        if not node_id.strip() and not anchor.strip():
            raise InputError("an approval needs 'node_id' or 'anchor'", path=where)
        out.append(Approval(
            node_id=node_id, anchor=anchor,
            approved_by=f.text("approved_by", nonempty=True),
            reason=f.text("reason", nonempty=True),
            approved_on=f.day("date", required=False, toml_dates=True),
        ))
    return tuple(out)


def approves(approvals: Iterable[Approval], node_id: str) -> Approval | None:
    """The first approval that covers ``node_id``, or None.

    An approval's ``node_id`` covers that id and its parametrized ids
    ``id[...]`` (so also every evidence item whose enclosing test is one of
    them: pass the item's node id); an approval's ``anchor`` covers exactly that
    anchor string. Approving one parametrized id never covers its siblings or
    the whole test.
    """
    for approval in approvals:
        if id_covers(approval.node_id, node_id) or (approval.anchor and
                                                     approval.anchor == node_id):
            return approval
    return None


__all__ = [
    "FLAKE_RESULTS", "FLAKE_STATES", "FREEZE_STATUSES", "Approval", "FlakeRow", "FlakeState",
    "FreezeRow", "append_rows", "approves", "check_freeze_ledger", "flake_states", "frozen_ids",
    "id_covers", "missing_frozen_ids", "read_approvals", "read_flake_ledger",
    "read_freeze_ledger",
]
