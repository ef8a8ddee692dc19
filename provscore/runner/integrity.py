"""Protected paths before and after patched code ran: what changed is tampering (PS511).

Inside the sandbox the oracle dir and both trees are read-only, so nothing here should
ever differ; without a sandbox (or if one failed) this is how a write is still caught.
Compared: every file of the oracle dir (by content), every change in the reference tree
against base, and every corpus path (test, conftest, helper, fixture, runner
configuration) that differs from base in the patched tree. Byte-code caches are not
compared (``__pycache__``, ``*.pyc``): a test that starts a Python subprocess may write
them, and they are never read as evidence.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path

from provscore.change.git import Repo
from provscore.errors import GitError

Snapshot = dict[str, str]


def _ignored(path: str) -> bool:
    return "__pycache__" in path.split("/") or path.endswith((".pyc", ".pyo"))


def _files(root: Path) -> Snapshot:
    out: Snapshot = {}
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


def _changes(tree: Path) -> Snapshot:
    """``git status`` of a worktree against its HEAD (base), ignored files included."""
    try:
        raw = Repo(tree).git("status", "--porcelain=v1", "-z", "--untracked-files=all",
                             "--ignored", what="git status failed")
    except GitError as exc:
        return {"<git status>": str(exc)}
    out: Snapshot = {}
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
             is_corpus: Callable[[str], bool]) -> Snapshot:
    snap: Snapshot = {}
    if oracle_dir is not None and oracle_dir.is_dir():
        snap.update({f"oracle dir: {k}": v for k, v in _files(oracle_dir).items()})
    snap.update({f"reference tree: {k}": v for k, v in _changes(reference).items()})
    snap.update({f"patched tree: {k}": v for k, v in _changes(patched).items() if is_corpus(k)})
    return snap


def changed(before: Snapshot, after: Snapshot) -> tuple[str, ...]:
    """The protected paths that were added, removed or rewritten."""
    return tuple(sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k)))
