"""Reading ledger rows: JSONL or a JSON array of objects, every key typed and checked.

Each reader fails closed: a malformed row, an unknown key, a wrong type or a truncated
last line is an :class:`~provscore.errors.InputError` that names the file and line
(``"ledger.jsonl:7: ..."``), never a silently skipped row.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import math
import os
import re
import stat
from collections.abc import Mapping
from datetime import date, datetime
from pathlib import Path
from typing import Any

from provscore.errors import InputError
from provscore.io import DuplicateKeyError, fsync_dir, read_input, reject_duplicate_keys

_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
_TYPE_NAMES = {str: "a string", bool: "a boolean", int: "an integer"}


def row_place(path: Path | str, line: int | None) -> str:
    return f"{path}:{line}" if line is not None else str(path)


def type_name(value: object) -> str:
    return type(value).__name__ if value is not None else "null"


class Fields:
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
                             f"{type_name(value)} {value!r}", path=self.where)
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

    def timestamp(self, key: str) -> str:
        """A required ISO-8601 timestamp (or date), kept as written."""
        value = self.text(key)
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise InputError(f"key {key!r} must be an ISO-8601 timestamp, got {value!r}",
                             path=self.where) from None
        return value

    def number(self, key: str, *, required: bool = True) -> float | None:
        """A finite number >= 0 (an integer is accepted; a boolean is not)."""
        if key not in self.raw:
            if required:
                raise InputError(f"missing required key {key!r}", path=self.where)
            return None
        value = self.raw[key]
        if isinstance(value, bool) or not isinstance(value, int | float) \
                or not math.isfinite(value) or value < 0:
            raise InputError(f"key {key!r} must be a number >= 0, got {type_name(value)} "
                             f"{value!r}", path=self.where)
        return float(value)

    def count(self, key: str) -> int | None:
        """An optional integer >= 0."""
        value = self.typed(key, int, required=False)
        if value is not None and value < 0:
            raise InputError(f"key {key!r} must be >= 0, got {value!r}", path=self.where)
        return None if value is None else int(value)

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
        raise InputError(f"key {key!r} must be a date YYYY-MM-DD, got {type_name(value)} "
                         f"{value!r}", path=self.where)


def read_text(path: Path) -> str:
    """A ledger's text: a regular file (a FIFO or a directory is an error), UTF-8."""
    data = read_input(path, "ledger", regular=True)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise InputError("not valid UTF-8", path=row_place(path, line)) from None


def _loads(text: str) -> Any:
    return json.loads(text, object_pairs_hook=reject_duplicate_keys)


def jsonl_objects(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
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
            raise InputError(f"duplicate key {exc.key!r}", path=row_place(path, number)) from None
        except json.JSONDecodeError as exc:
            if last and not complete:
                raise InputError("last line is truncated (no trailing newline and not valid "
                                 "JSON): an interrupted write; repair the file by hand",
                                 path=row_place(path, number)) from None
            raise InputError(f"malformed JSON: {exc.msg} (column {exc.colno})",
                             path=row_place(path, number)) from None
        if not isinstance(obj, dict):
            raise InputError(f"a row must be a JSON object, got {type_name(obj)}",
                             path=row_place(path, number))
        out.append((number, obj))
    return out


def _skip_ws(text: str, pos: int) -> int:
    while pos < len(text) and text[pos] in " \t\r\n":  # JSON's whitespace
        pos += 1
    return pos


def json_array_objects(path: Path, text: str) -> list[tuple[int, dict[str, Any]]]:
    """``(line, object)`` for every element of a JSON array, with the line it starts on."""
    decoder = json.JSONDecoder(object_pairs_hook=reject_duplicate_keys)

    def line_at(pos: int) -> int:
        return text.count("\n", 0, pos) + 1

    def fail(msg: str, pos: int) -> InputError:
        return InputError(msg, path=row_place(path, line_at(pos)))

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
                                 path=row_place(path, exc.lineno)) from None
            if not isinstance(obj, dict):
                raise fail(f"a row must be a JSON object, got {type_name(obj)}", pos)
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


def _append_all_or_nothing(fd: int, size: int, data: bytes) -> None:
    """Write the batch and fsync it; on any failure (a full disk, a signal) cut the file
    back to ``size`` so that no partial batch is left."""
    try:
        view = memoryview(data)
        while view:
            # One write for the whole batch; a regular file takes it at once. The loop
            # only guards a short write, which the lock keeps from interleaving.
            written = os.write(fd, view)
            if written <= 0:
                raise OSError("short write")
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.ftruncate(fd, size)
            os.fsync(fd)
        raise


def append_jsonl(path: Path, data: bytes, *, what: str = "ledger") -> None:
    """Append complete JSONL lines to ``path`` (created if missing): all of them or none.

    The bytes are written under an exclusive ``flock`` as one ``os.write`` to a
    descriptor opened with ``O_APPEND``, and fsynced, so concurrent writers never
    interleave or lose rows. A write that fails part-way (a full disk, a file size limit,
    SIGTERM) is cut back to the old size. A file whose last byte is not a newline ends in
    a truncated row; the call refuses to append after it and names the line.
    """
    if not data:
        return
    size = -1
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_CLOEXEC, 0o644)
    except OSError as exc:
        raise InputError(f"cannot open for appending: {exc.strerror or exc}",
                         path=str(path)) from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise InputError(f"{what} is not a regular file", path=str(path))
        fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                with open(path, "rb") as fh:
                    line = fh.read().count(b"\n") + 1
                raise InputError("last line is truncated (no trailing newline); refusing to "
                                 "append after it: repair the file by hand",
                                 path=row_place(path, line))
            _append_all_or_nothing(fd, size, data)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
    except OSError as exc:
        raise InputError(f"cannot append: {exc.strerror or exc}", path=str(path)) from None
    finally:
        os.close(fd)
    if size == 0:  # a new file: make its directory entry durable too
        fsync_dir(path.parent)
