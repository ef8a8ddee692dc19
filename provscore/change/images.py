"""Stage 2: pre-image (file at base) and post-image (patched) of every changed file.

The pre-image comes from git at base. The post-image is the pre-image with the
hunks applied in memory (or ``git show HEAD:path`` when scoring two refs). The
working tree is never read for trusted content.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from provscore.change.diff import ChangeSet, FileChange, FileStatus


@dataclass(frozen=True, slots=True)
class FileImages:
    """Bytes of one changed file before and after the patch (None = absent or unknown)."""

    change: FileChange
    pre: bytes | None
    post: bytes | None


@dataclass(frozen=True, slots=True)
class ApplyFailure:
    path: str
    reason: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Images:
    files: tuple[FileImages, ...]
    failures: tuple[ApplyFailure, ...]

    def by_path(self) -> dict[str, FileImages]:
        return {f.change.path: f for f in self.files}


class HunkMismatch(Exception):
    def __init__(self, reason: str, line: int | None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


def _split(data: bytes) -> list[str]:
    return data.decode("utf-8", "surrogateescape").splitlines(keepends=True)


def _find(lines: list[str], old: list[str], expected: int) -> int | None:
    """Where ``old`` occurs in ``lines``, nearest to ``expected`` (git apply's offset search)."""
    n = len(old)
    if n == 0:
        return min(max(expected, 0), len(lines))
    limit = len(lines) - n
    for delta in range(0, max(limit, 0) + max(expected, 0) + 2):
        for pos in (expected - delta, expected + delta) if delta else (expected,):
            if 0 <= pos <= limit and lines[pos:pos + n] == old:
                return pos
    return None


def apply_hunks(change: FileChange, pre: bytes | None) -> bytes:
    """Apply a file's hunks to its pre-image; raise HunkMismatch when they do not fit."""
    lines = _split(pre) if pre is not None else []
    out: list[str] = []
    cursor = 0
    offset = 0
    for hunk in change.hunks:
        old = [ln.text for ln in hunk.lines if ln.kind in (" ", "-")]
        new = [ln.text for ln in hunk.lines if ln.kind in (" ", "+")]
        # git counts a zero-length hunk's start as the line *before* the insertion.
        start = max(hunk.old_start - 1, 0) if hunk.old_length else hunk.old_start
        expected = start + offset
        pos = _find(lines, old, expected)
        if pos is None or pos < cursor:
            raise HunkMismatch(f"hunk @@ -{hunk.old_start},{hunk.old_length} @@ "
                               "does not match base", hunk.old_start)
        out.extend(lines[cursor:pos])
        out.extend(new)
        cursor = pos + len(old)
        offset = pos - max(hunk.old_start - 1, 0)
    out.extend(lines[cursor:])
    return "".join(out).encode("utf-8", "surrogateescape")


def build_images(changes: ChangeSet, pre_blobs: Mapping[str, bytes | None],
                 post_blobs: Mapping[str, bytes | None] | None = None) -> Images:
    """Pair every changed file with its images.

    ``pre_blobs`` maps old paths to base contents; ``post_blobs`` (when scoring
    two refs) maps new paths to head contents, otherwise hunks are applied.
    """
    files: list[FileImages] = []
    failures: list[ApplyFailure] = []
    for change in changes.files:
        if change.unsafe_reason:
            files.append(FileImages(change, None, None))
            continue
        pre = pre_blobs.get(change.old_path) if change.old_path else None
        if change.old_path and pre is None and change.status is not FileStatus.ADDED:
            failures.append(ApplyFailure(change.old_path, "file does not exist at base"))
            files.append(FileImages(change, None, None))
            continue
        post: bytes | None
        if change.new_path is None:
            post = None
        elif post_blobs is not None:
            post = post_blobs.get(change.new_path)
        elif change.binary:
            post = None  # a binary diff without data: contents unknown
        elif change.status is FileStatus.MODE_ONLY:
            post = pre
        else:
            try:
                post = apply_hunks(change, pre)
            except HunkMismatch as exc:
                failures.append(ApplyFailure(change.path, exc.reason, exc.line))
                post = None
        files.append(FileImages(change, pre, post))
    return Images(tuple(files), tuple(failures))
