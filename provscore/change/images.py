"""Stage 2: pre-image (file at base) and post-image (patched) of every changed file.

The pre-image comes from git at base. The post-image is the pre-image with the
hunks applied in memory, the way ``git apply`` does; :mod:`provscore.change.applied`
then checks it against what git itself produces. The working tree is never read.
"""

from __future__ import annotations

from collections.abc import Mapping

from provscore.change.diff import ChangeSet, FileChange, FileStatus, Hunk
from provscore.change.git import SYMLINK_MODE
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class FileImages:
    """Bytes of one changed file before and after the patch (None = absent or unknown)."""

    change: FileChange
    pre: bytes | None
    post: bytes | None
    # Modes from git (base tree, git's result), else as the diff claims; 120000 = symlink.
    pre_mode: str | None = None
    post_mode: str | None = None

    @property
    def symlink_sides(self) -> tuple[bool, bool]:
        """Whether the file is a symbolic link before / after the patch."""
        return self.pre_mode == SYMLINK_MODE, self.post_mode == SYMLINK_MODE


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


def split_lines(data: bytes) -> list[str]:
    """Lines as git and the diff count them: split on LF only (a form feed, a lone CR or
    U+2028 inside a line is part of it, as it is in the hunk), endings kept."""
    text = data.decode("utf-8", "surrogateescape")
    parts = text.split("\n")
    lines = [p + "\n" for p in parts[:-1]]
    if parts[-1]:
        lines.append(parts[-1])
    return lines


def _find(image: list[str], old: list[str], guess: int, at_start: bool, at_end: bool
          ) -> int | None:
    """Where git places a hunk's old lines in the (partly patched) image, or None.

    git's own search: a hunk must match at the start of the file when it claims line 0 or
    1, and at its end when it has no trailing context; otherwise the nearest match to the
    guess, trying forward then backward one line further each time. The guess is clamped
    to the file, so a header claiming line 999999999999 costs one pass, not a loop to it.
    """
    n, total = len(old), len(image)
    if n > total:
        return None

    def fits(pos: int) -> bool:
        return pos >= 0 and pos + n <= total and image[pos:pos + n] == old

    if at_start or at_end:
        pos = 0 if at_start else total - n
        ok = fits(pos) and (not at_end or pos + n == total) and (not at_start or pos == 0)
        return pos if ok else None
    line = min(max(guess, 0), total)
    if fits(line):
        return line
    back = fwd = line
    while back > 0 or fwd < total:
        if fwd < total:
            fwd += 1
            if fits(fwd):
                return fwd
        if back > 0:
            back -= 1
            if fits(back):
                return back
    return None


def _context(hunk: Hunk) -> tuple[int, int]:
    """Context lines before the first change and after the last one."""
    kinds = [ln.kind for ln in hunk.lines]
    leading = next((i for i, k in enumerate(kinds) if k != " "), len(kinds))
    trailing = next((i for i, k in enumerate(reversed(kinds)) if k != " "), len(kinds))
    return leading, trailing


def apply_hunks(change: FileChange, pre: bytes | None) -> bytes:
    """Apply a file's hunks to its pre-image as ``git apply`` does (each hunk to the result
    of the ones before); raise HunkMismatch when one does not fit, or when git would put
    it somewhere other than where its header says a patch tool puts it."""
    image = split_lines(pre) if pre is not None else []
    for hunk in change.hunks:
        old = [ln.text for ln in hunk.lines if ln.kind in (" ", "-")]
        new = [ln.text for ln in hunk.lines if ln.kind in (" ", "+")]
        _, trailing = _context(hunk)
        at_start = hunk.old_start <= 1
        at_end = trailing == 0
        guess = hunk.new_start - 1 if hunk.new_start else 0
        pos = _find(image, old, guess, at_start, at_end)
        if pos is None:
            raise HunkMismatch(f"hunk @@ -{hunk.old_start},{hunk.old_length} @@ "
                               "does not match base", hunk.old_start)
        if not old and at_end and not at_start and pos != guess:
            # A -U0 insertion: git appends it at the end of the file, patch puts it at
            # its line. Neither reading is "the change".
            raise HunkMismatch(f"hunk @@ -{hunk.old_start},0 @@ has no context: git adds "
                               "it at the end of the file, not at the line it names",
                               hunk.old_start)
        image[pos:pos + len(old)] = new
    return "".join(image).encode("utf-8", "surrogateescape")


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
