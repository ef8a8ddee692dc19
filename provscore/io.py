"""Files in and out, the one way: clear errors on read, atomic and durable writes.

Every user-supplied input (diff, results, lock, ledgers) is read through
:func:`read_input`, so a missing file, a directory or an unreadable file is the same
one-line error naming the path; JSON objects with a repeated key are refused (a later
duplicate would silently win in ``json.loads``). Every file provscore writes whole
(reports, the fixture lock) goes through :func:`atomic_write`: a reader sees the old
file or the new one, never half of either.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from provscore.errors import InputError


def read_input(path: str | Path, what: str, *, regular: bool = False) -> bytes:
    """The bytes of an input file, or an InputError saying what is wrong with it.

    ``regular``: only a regular file will do (oracle inputs, results). The file is opened
    without blocking and checked on the open descriptor, so a FIFO or a device named
    where a ledger should be is an error naming it, never a hang."""
    flags = os.O_RDONLY | os.O_CLOEXEC | (os.O_NONBLOCK if regular else 0)
    try:
        fd = os.open(path, flags | getattr(os, "O_NOCTTY", 0))
    except FileNotFoundError:
        raise InputError(f"{what} not found", path=str(path)) from None
    except IsADirectoryError:
        raise InputError(f"{what} path is a directory, expected a file", path=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", path=str(path)) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise InputError(f"{what} path is a directory, expected a file", path=str(path))
        if regular and not stat.S_ISREG(mode):
            raise InputError(f"{what} is {_kind(mode)}, expected a regular file",
                             path=str(path))
        if regular:
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=False) as fh:
            return fh.read()
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", path=str(path)) from None
    finally:
        os.close(fd)


def read_optional_input(path: str | Path, what: str) -> bytes | None:
    """An oracle input that may be absent: None when nothing is at ``path``; anything
    there that is not a regular file (a directory, a FIFO, a dangling link) is an error,
    never "absent" (a ledger replaced by a directory must not score as no ledger)."""
    try:
        os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", path=str(path)) from None
    return read_input(path, what, regular=True)


def _kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a regular file"


class DuplicateKeyError(ValueError):
    """A JSON object names the same key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for json: a repeated key is an error, not a silent override."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKeyError(key)
        seen[key] = value
    return seen


def _new_file_mode(target: Path) -> int:
    """The mode the file would get from ``open()``: its current mode when it exists,
    else 0o666 less the umask (``mkstemp`` alone would leave 0o600 whatever the umask)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        mask = os.umask(0)
        os.umask(mask)
        return 0o666 & ~mask


_TMP_SUFFIX = ".provscore-tmp"


def _temp_prefix(target: Path) -> str:
    return f".{target.name}."


def remove_stale_temps(target: Path) -> None:
    """Remove temp files a killed writer of ``target`` left behind (SIGKILL runs no
    cleanup). A temp file names its writer's pid; only those of dead writers go."""
    prefix = _temp_prefix(target)
    try:
        names = os.listdir(target.parent)
    except OSError:
        return
    for name in names:
        if not (name.startswith(prefix) and name.endswith(_TMP_SUFFIX)):
            continue
        pid_text = name[len(prefix):-len(_TMP_SUFFIX)].split(".", 1)[0]
        if not pid_text.isdigit() or _alive(int(pid_text)):
            continue
        with contextlib.suppress(OSError):
            os.unlink(target.parent / name)


def _alive(pid: int) -> bool:
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # exists, owned by someone else
        return True
    return True


def atomic_write(target: str | Path, data: bytes, *, what: str = "file") -> None:
    """Write ``data`` to ``target`` atomically and durably.

    A temp file in the same directory is written, fsynced, given the final mode and
    renamed over the target; then the directory is fsynced so the rename survives a
    crash. A failure at any point leaves the previous file (if any) untouched and no
    temp file behind; a writer killed outright leaves one named with its pid, which the
    next write of the same target removes. OS errors become an InputError naming
    ``target``.
    """
    atomic_write_all([(Path(target), data, what)])


def atomic_write_all(items: Sequence[tuple[Path, bytes, str]]) -> None:
    """Write several files as :func:`atomic_write` does, all or none.

    Every file is staged (written and fsynced beside its target) before any is renamed
    into place, so a failure to write one (a missing directory, a full disk) leaves
    every target as it was. ``items`` are (target, data, what the file is).
    """
    staged: list[tuple[str, Path, str]] = []
    try:
        for path, data, what in items:
            staged.append((_stage(path, data, what), path, what))
        for tmp, path, what in staged:
            try:
                os.replace(tmp, path)
            except OSError as exc:
                raise InputError(f"cannot write {what}: {exc.strerror or exc}",
                                 path=str(path)) from None
    finally:
        for tmp, _, _ in staged:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
    for directory in dict.fromkeys(path.parent for _, path, _ in staged):
        fsync_dir(directory)


def _stage(path: Path, data: bytes, what: str) -> str:
    """A fsynced temp file beside ``path`` holding ``data``, with the target's mode."""
    if not path.parent.is_dir():
        raise InputError(f"cannot write {what}: directory does not exist",
                         path=str(path.parent))
    if path.is_dir():
        raise InputError(f"cannot write {what}: Is a directory", path=str(path))
    mode = _new_file_mode(path)
    remove_stale_temps(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f"{_temp_prefix(path)}{os.getpid()}.",
                                   suffix=_TMP_SUFFIX)
    except OSError as exc:
        raise InputError(f"cannot write {what}: {exc.strerror or exc}", path=str(path)) from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise InputError(f"cannot write {what}: {exc.strerror or exc}",
                             path=str(path)) from None
        raise
    return tmp


def fsync_dir(directory: Path) -> None:
    """Make a rename or a new directory entry durable where the platform allows it."""
    try:
        fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | os.O_CLOEXEC)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
