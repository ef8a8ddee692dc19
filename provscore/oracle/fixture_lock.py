"""The fixture lock: sha256 per fixture path, written on base, verified on the post-image (gate 5).

``provscore lock`` builds the lock from a trusted checkout (:func:`build_lock`,
:func:`write_lock`); scoring reads it from the oracle dir (:func:`read_lock`) and checks
every locked path against the patched bytes (:mod:`provscore.checks.fixtures`):

- PS402 fixture-missing: a locked path is absent after the patch;
- PS401 fixture-drift: its digest differs, and it is not under a human-owned allow prefix;
- PS403 fixture-wall-clock: a JSON fixture holds a wall-clock field with no declared clock.

Lock file format (``version`` 1)::

    {"canonical_json": false, "files": {"tests/goldens/a.json": "<sha256 hex>"}, "version": 1}

:func:`read_lock` also accepts the two shapes the seeds show: a plain ``{path: sha256}``
object (seed 000) and a list of ``{"path": ..., "sha256": ...}`` rows (seed 004). Those do
not record how JSON was hashed, so their ``canonical_json`` is ``None`` and verification
uses the contract's setting.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path, PurePosixPath
from types import MappingProxyType
from typing import Any, Final

from provscore.errors import InputError
from provscore.io import DuplicateKeyError, atomic_write, read_input, reject_duplicate_keys
from provscore.oracle.contract import Contract
from provscore.records import dataclass

LOCK_VERSION: Final = 1
SKIP_DIRS: Final = frozenset({"__pycache__", ".git"})
_HEX: Final = frozenset("0123456789abcdef")


@dataclass(frozen=True, slots=True)
class FixtureLock:
    """Locked digests: repo-relative POSIX path -> sha256 hex (lower case), sorted by path.

    ``canonical_json`` says how ``*.json`` files were hashed; ``None`` means the lock file
    did not say (seed shapes) and the contract's ``canonical_json`` applies.
    """

    entries: Mapping[str, str]
    canonical_json: bool | None = False
    source: str = ""

    def __post_init__(self) -> None:
        frozen = MappingProxyType(dict(sorted(self.entries.items())))
        object.__setattr__(self, "entries", frozen)


# --------------------------------------------------------------------------- digests


def is_json_path(path: str) -> bool:
    return path.lower().endswith(".json")


def _parse_json(data: bytes) -> Any:
    """The JSON value in ``data``, or raise ValueError (also for duplicate keys)."""
    try:
        text = data.decode("utf-8-sig")
        return json.loads(text, object_pairs_hook=reject_duplicate_keys)
    except RecursionError as exc:
        raise ValueError("nested too deeply") from exc


def canonical_json_bytes(value: Any) -> bytes:
    """The canonical serialisation: sorted keys, compact separators, UTF-8, one LF at the end."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8") + b"\n"


def digest_bytes(path: str, data: bytes, *, canonical_json: bool) -> str:
    """sha256 hex of a fixture's content.

    With ``canonical_json``, a ``*.json`` file that parses is hashed in canonical form, so
    key order, whitespace, CRLF, a UTF-8 BOM and escape spelling are not drift. Anything
    else (other files, binary files, JSON that does not parse or repeats a key) is hashed
    as raw bytes: a repeated key is refused because parsers disagree on which value wins.
    """
    payload = data
    if canonical_json and is_json_path(path):
        try:
            payload = canonical_json_bytes(_parse_json(data))
        except ValueError:  # includes UnicodeDecodeError and JSONDecodeError
            payload = data
    return hashlib.sha256(payload).hexdigest()


# --------------------------------------------------------------------------- build / write


def _inside(child: Path, root: Path) -> bool:
    return child == root or root in child.parents


def _target_path(target: str) -> PurePosixPath:
    """A lock target as a normalised repo-relative path; refuse anything that could escape."""
    if not target or "\x00" in target or "\\" in target:
        raise InputError("lock target must be a non-empty POSIX path", path=repr(target))
    rel = PurePosixPath(target)
    if rel.is_absolute() or ".." in rel.parts:
        raise InputError("lock target must be relative to the repository root and stay "
                         "inside it", path=target)
    return rel


def _walk(root: Path, rel: PurePosixPath) -> Iterator[PurePosixPath]:
    """Regular files and symlinks under ``root/rel``; symlinks are never followed."""
    full = root / rel
    st = full.lstat()
    if not stat.S_ISDIR(st.st_mode):
        if stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode):
            yield rel
        return
    for dirpath, dirnames, filenames in os.walk(full, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d not in SKIP_DIRS)
        here = PurePosixPath(Path(dirpath).relative_to(root).as_posix())
        for name in sorted(filenames):
            mode = os.lstat(os.path.join(dirpath, name)).st_mode
            if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
                yield here / name
        # os.walk lists symlinks to directories among dirnames and does not descend.
        for name in list(dirnames):
            if os.path.islink(os.path.join(dirpath, name)):
                dirnames.remove(name)
                yield here / name


def _content(root: Path, rel: PurePosixPath) -> bytes:
    """What git stores for the path: file bytes, or the link text of a symlink."""
    full = root / rel
    if full.is_symlink():
        return os.fsencode(os.readlink(full))
    return full.read_bytes()


def build_lock(root: Path, targets: Sequence[str], *, canonical_json: bool,
               missing_ok: bool = False) -> FixtureLock:
    """Hash every file under ``targets`` (files or directories, relative to ``root``).

    Directories are walked recursively, skipping ``__pycache__`` and ``.git``. Symlinks are
    never followed: a symlink is locked by its link text, which is what git stores for it
    and what a post-image read from git returns. A target whose parent directories resolve
    outside ``root`` is refused. A missing target is an error unless ``missing_ok``
    (convenient for the default ``fixture_roots``, not all of which a repo has).
    """
    base = Path(root).resolve()
    entries: dict[str, str] = {}
    for target in targets:
        rel = _target_path(target)
        full = base / rel
        if rel.parts and not _inside(full.parent.resolve(), base):
            raise InputError("lock target resolves outside the repository", path=target)
        if not full.exists() and not full.is_symlink():
            if missing_ok:
                continue
            raise InputError("lock target not found", path=target)
        if not full.is_symlink() and not _inside(full.resolve(), base):
            raise InputError("lock target resolves outside the repository", path=target)
        try:
            for path in _walk(base, rel):
                key = path.as_posix()
                entries[key] = digest_bytes(key, _content(base, path),
                                            canonical_json=canonical_json)
        except OSError as exc:
            raise InputError(f"cannot read fixture: {exc}", path=target) from None
    return FixtureLock(entries, canonical_json=canonical_json, source=str(base))


def lock_json(lock: FixtureLock) -> str:
    """The lock file text: version 1, sorted keys, two-space indent, LF, final newline."""
    doc = {"version": LOCK_VERSION, "canonical_json": lock.canonical_json is True,
           "files": dict(lock.entries)}
    return json.dumps(doc, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def write_lock(lock: FixtureLock, out: Path) -> None:
    """Write the lock atomically (:func:`provscore.io.atomic_write`).

    A failure at any point leaves the previous lock (if any) untouched and no temp file.
    A lock read from a seed shape (``canonical_json`` None) cannot be written: rebuild it.
    """
    if lock.canonical_json is None:
        raise ValueError("the lock does not record how JSON was hashed; rebuild it")
    atomic_write(out, lock_json(lock).encode("utf-8"), what="fixture lock")


# --------------------------------------------------------------------------- read


def _lock_path(raw: object, where: str, source: str) -> str:
    if not isinstance(raw, str) or not raw:
        raise InputError(f"{where}: path must be a non-empty string", path=source)
    if "\x00" in raw or "\\" in raw:
        raise InputError(f"{where}: path {raw!r} must be a POSIX path (no backslash or NUL)",
                         path=source)
    rel = PurePosixPath(raw)
    if rel.is_absolute() or ".." in rel.parts or rel.as_posix() == ".":
        raise InputError(f"{where}: path {raw!r} must be relative and inside the repository",
                         path=source)
    return rel.as_posix()  # drops "./" and repeated or trailing slashes


def _lock_digest(raw: object, where: str, source: str) -> str:
    if isinstance(raw, str):
        digest = raw.lower()
        if len(digest) == 64 and set(digest) <= _HEX:
            return digest
    raise InputError(f"{where}: {raw!r} is not a sha256 hex digest (64 hex characters)",
                     path=source)


def _rows(doc: Any, source: str) -> tuple[list[tuple[str, object, object]], bool | None]:
    """(where, path, digest) rows and the canonical flag, from any accepted shape."""
    if isinstance(doc, list):  # seed 004: [{"path": ..., "sha256": ...}, ...]
        rows: list[tuple[str, object, object]] = []
        for i, row in enumerate(doc):
            where = f"[{i}]"
            if not isinstance(row, dict):
                raise InputError(f"{where}: expected an object with path and sha256",
                                 path=source)
            extra = sorted(set(row) - {"path", "sha256"})
            missing = sorted({"path", "sha256"} - set(row))
            if extra or missing:
                detail = f"unknown key(s) {extra}" if extra else f"missing key(s) {missing}"
                raise InputError(f"{where}: {detail}", path=source)
            rows.append((where, row["path"], row["sha256"]))
        return rows, None
    if not isinstance(doc, dict):
        raise InputError("a fixture lock is a JSON object or a list of rows", path=source)
    if all(isinstance(v, str) for v in doc.values()):  # seed 000: {path: sha256}
        return [(repr(k), k, v) for k, v in doc.items()], None
    extra = sorted(set(doc) - {"version", "canonical_json", "files"})
    if extra or "files" not in doc:
        detail = f"unknown key(s) {extra}" if extra else "missing key 'files'"
        raise InputError(f"not a fixture lock: {detail}", path=source)
    if doc.get("version") != LOCK_VERSION:
        raise InputError(f"unsupported lock version {doc.get('version')!r} "
                         f"(expected {LOCK_VERSION})", path=source)
    canonical = doc.get("canonical_json", False)
    if not isinstance(canonical, bool):
        raise InputError(f"canonical_json: expected a boolean, got {canonical!r}", path=source)
    files = doc["files"]
    if not isinstance(files, dict):
        raise InputError("files: expected an object {path: sha256}", path=source)
    return [(f"files[{k!r}]", k, v) for k, v in files.items()], canonical


def read_lock(path: Path) -> FixtureLock:
    """Read and validate a fixture lock in any accepted shape; malformed → InputError."""
    source = str(path)
    raw = read_input(path, "fixture lock", regular=True)
    try:
        doc = _parse_json(raw)
    except DuplicateKeyError as exc:
        raise InputError(f"malformed fixture lock: duplicate key {exc.key}",
                         path=source) from None
    except ValueError as exc:
        raise InputError(f"malformed fixture lock: {exc}", path=source) from None
    rows, canonical = _rows(doc, source)
    entries: dict[str, str] = {}
    for where, raw_path, raw_digest in rows:
        rel = _lock_path(raw_path, where, source)
        digest = _lock_digest(raw_digest, where, source)
        if rel in entries:
            raise InputError(f"{where}: path {rel!r} is locked twice", path=source)
        entries[rel] = digest
    return FixtureLock(entries, canonical_json=canonical, source=source)


# --------------------------------------------------------------------------- wall clock


def wall_clock_fields(data: bytes, contract: Contract) -> list[str]:
    """JSON pointers of wall-clock fields not covered by a declared clock.

    Searched at any depth: a key in ``contract.clock_fields`` is covered when the object
    holding it, or any enclosing object, has the ``contract.declared_clock_field`` key (so
    both one clock per file and one clock per recorded trace work). Arrays are transparent.
    Bytes that are not JSON give no fields.
    """
    try:
        doc = _parse_json(data)
    except ValueError:
        return []
    clock_fields = set(contract.clock_fields)
    declared = contract.declared_clock_field
    found: list[str] = []
    stack: list[tuple[Any, str, bool]] = [(doc, "", False)]
    while stack:
        value, pointer, covered = stack.pop()
        if isinstance(value, dict):
            covered = covered or declared in value
            for key in sorted(value, reverse=True):
                child = f"{pointer}/{key.replace('~', '~0').replace('/', '~1')}"
                if key in clock_fields and not covered:
                    found.append(child)
                stack.append((value[key], child, covered))
        elif isinstance(value, list):
            for i in range(len(value) - 1, -1, -1):
                stack.append((value[i], f"{pointer}/{i}", covered))
    return found
