"""Protected paths before and after patched code ran: what changed is tampering (PS511).

Inside the sandbox the oracle dir and both trees are read-only, so nothing here should
ever differ; without a sandbox (or if one failed) this is how a write is still caught.
Compared: every file of the oracle dir (by content), every change in the reference tree
against base, and every corpus path (test, conftest, helper, fixture, runner
configuration) that differs from base in the patched tree. Byte-code caches are not
compared (``__pycache__``, ``*.pyc``): a test that starts a Python subprocess may write
them, and they are never read as evidence.

The ledgers provscore itself appends to (the run ledger, the flake ledger) may grow while a
run goes on: another run of another patch appends its row under the ledger's lock. For
them only what was there must still be there, byte for byte (history rewritten or
truncated is tampering); without a sandbox, rows appended by the patched code cannot be
told from another run's and are not caught here.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterable
from pathlib import Path

from provscore.change.git import Repo
from provscore.errors import GitError
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class Snapshot:
    files: dict[str, str]  # protected path -> digest (or git status and digest)
    ledgers: dict[str, bytes]  # append-only ledger -> its bytes


def _ignored(path: str) -> bool:
    return "__pycache__" in path.split("/") or path.endswith((".pyc", ".pyo"))


def _files(root: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            path = Path(dirpath) / name
            rel = path.relative_to(root).as_posix()
            if _ignored(rel):
                continue
            try:
                out[rel] = hashlib.sha256(path.read_bytes()).hexdigest()
            except OSError as exc:
                out[rel] = f"unreadable: {exc.strerror}"
    return out


def _changes(tree: Path) -> dict[str, str]:
    """``git status`` of a worktree against its HEAD (base), ignored files included."""
    try:
        raw = Repo(tree).run_bytes(["status", "--porcelain=v1", "-z",
                                    "--untracked-files=all", "--ignored"],
                                   what="git status failed")
    except GitError as exc:
        return {"<git status>": str(exc)}
    out: dict[str, str] = {}
    for record in raw.split(b"\0"):
        if len(record) < 4:
            continue
        rel = record[3:].decode("utf-8", "surrogateescape")
        if not _ignored(rel):
            data = b""
            path = tree / rel
            if path.is_file() and not path.is_symlink():
                data = path.read_bytes()
            out[rel] = record[:2].decode() + hashlib.sha256(data).hexdigest()
    return out


def snapshot(*, oracle_dir: Path | None, reference: Path, patched: Path,
             is_corpus: Callable[[str], bool], ledgers: Iterable[Path] = ()) -> Snapshot:
    files: dict[str, str] = {}
    appended: dict[str, bytes] = {}
    if oracle_dir is not None and oracle_dir.is_dir():
        root = oracle_dir.resolve()
        skip = set()
        for ledger in ledgers:
            path = ledger.resolve()
            if path.is_relative_to(root):
                rel = path.relative_to(root).as_posix()
                skip.add(rel)
                appended[f"oracle dir: {rel}"] = path.read_bytes() if path.is_file() else b""
        files.update({f"oracle dir: {k}": v for k, v in _files(root).items() if k not in skip})
    files.update({f"reference tree: {k}": v for k, v in _changes(reference).items()})
    files.update({f"patched tree: {k}": v for k, v in _changes(patched).items()
                  if is_corpus(k)})
    return Snapshot(files, appended)


def changed(before: Snapshot, after: Snapshot) -> tuple[str, ...]:
    """The protected paths that were added, removed or rewritten (ledgers: not appended)."""
    b, a = before.files, after.files
    out = {k for k in b.keys() | a.keys() if b.get(k) != a.get(k)}
    out |= {k for k, data in before.ledgers.items()
            if not after.ledgers.get(k, b"").startswith(data)}
    return tuple(sorted(out))
