"""Stage 1: unified diff text → :class:`ChangeSet`.

unidiff does the hunk parsing; the git extended headers (modes, copies,
similarity, binary) are read from each file's ``patch_info`` because unidiff
folds copies into renames and does not expose modes. Paths are normalised
here once, and a path that could leave the repository is marked unsafe so that
no later stage ever opens it.
"""

from __future__ import annotations

import enum
import posixpath
import re
from typing import Any

from unidiff import PatchSet  # type: ignore[attr-defined]  # untyped; re-exported
from unidiff.errors import UnidiffParseError

from provscore.change.strict import c_unquote
from provscore.errors import InputError
from provscore.records import dataclass


class FileStatus(enum.StrEnum):
    ADDED = "added"
    DELETED = "deleted"
    MODIFIED = "modified"
    RENAMED = "renamed"
    COPIED = "copied"
    MODE_ONLY = "mode_only"


@dataclass(frozen=True, slots=True)
class HunkLine:
    """One line of a hunk. ``kind`` is ' ', '+' or '-'; ``text`` keeps its line ending."""

    kind: str
    text: str
    old_no: int | None
    new_no: int | None


@dataclass(frozen=True, slots=True)
class Hunk:
    old_start: int
    old_length: int
    new_start: int
    new_length: int
    lines: tuple[HunkLine, ...]


@dataclass(frozen=True, slots=True)
class FileChange:
    """One file of the diff. ``old_path``/``new_path`` are None for added/deleted files."""

    old_path: str | None
    new_path: str | None
    status: FileStatus
    hunks: tuple[Hunk, ...]
    binary: bool = False
    old_mode: str | None = None
    new_mode: str | None = None
    similarity: int | None = None
    # Why the path is unsafe (absolute, '..', NUL, ...); unsafe files are never opened.
    unsafe_reason: str | None = None
    # The old/new image ends without a newline ('\ No newline at end of file').
    old_no_eol: bool = False
    new_no_eol: bool = False

    @property
    def path(self) -> str:
        """The path a reader knows the file by: the new one unless it was deleted."""
        return self.new_path or self.old_path or ""

    @property
    def is_symlink(self) -> bool:
        return self.new_mode == "120000"

    @property
    def paths(self) -> tuple[str, ...]:
        """Every name this change touches (both names of a rename)."""
        return tuple(dict.fromkeys(p for p in (self.old_path, self.new_path) if p))

    def added_lines(self) -> frozenset[int]:
        return frozenset(ln.new_no for h in self.hunks for ln in h.lines
                         if ln.kind == "+" and ln.new_no is not None)

    def removed_lines(self) -> frozenset[int]:
        return frozenset(ln.old_no for h in self.hunks for ln in h.lines
                         if ln.kind == "-" and ln.old_no is not None)

    def added_text(self) -> str:
        return "".join(ln.text for h in self.hunks for ln in h.lines if ln.kind == "+")


@dataclass(frozen=True, slots=True)
class ChangeSet:
    files: tuple[FileChange, ...]

    def by_path(self) -> dict[str, FileChange]:
        return {f.path: f for f in self.files}

    @property
    def write_set(self) -> tuple[str, ...]:
        """Every path the patch adds, deletes, modifies, renames (both names) or re-modes."""
        return tuple(dict.fromkeys(p for f in self.files for p in f.paths))

    @property
    def is_empty(self) -> bool:
        return not self.files

    @property
    def touches_python(self) -> bool:
        """Whether any name the patch touches is a Python module: only then is there
        code to classify (evidence) or to cover (call graph)."""
        return any(p.endswith(".py") for p in self.write_set)


class DiffParseError(InputError):
    """The diff text is not a unified diff (PS901)."""


_MODE_RE = re.compile(r"^(old|new|deleted file|new file) mode (\d{6})\s*$")
_SIMILARITY_RE = re.compile(r"^(?:similarity|dissimilarity) index (\d+)%\s*$")


def check_path(path: str) -> tuple[str, str | None]:
    """Normalise a diff path; return it with the reason it is unsafe, or None.

    A path is unsafe when it is absolute, contains NUL or a backslash-drive,
    or normalises to something outside the repository root.
    """
    if "\x00" in path:
        return path.replace("\x00", "\\0"), "path contains a NUL byte"
    if path.startswith("/") or re.match(r"^[A-Za-z]:[\\/]", path) or path.startswith("\\"):
        return path, "path is absolute"
    parts = path.replace("\\", "/").split("/")
    if ".." in parts:
        return path, "path contains '..'"
    norm = posixpath.normpath(path)
    if norm in ("", ".") or norm.startswith("../"):
        return path, "path leaves the repository"
    if parts[0] == ".git" or norm == ".git" or norm.startswith(".git/"):
        return norm, "path is inside .git"
    return norm, None


def unquote_path(raw: str) -> str:
    """Undo git's C-style quoting (``"a/t\\303\\274st.py"``); other paths are returned as-is."""
    return c_unquote(raw)


def _strip_prefix(raw: str | None, prefix: str) -> str | None:
    if raw is None or raw == "/dev/null":
        return None
    raw = unquote_path(raw)
    if raw.startswith(prefix):
        return raw[len(prefix):]
    return raw


def _header_info(patch_info: object) -> dict[str, str]:
    info: dict[str, str] = {}
    for raw in list(patch_info or []):  # type: ignore[call-overload]
        line = str(raw).rstrip("\r\n")
        m = _MODE_RE.match(line)
        if m:
            key = {"old": "old_mode", "new": "new_mode", "deleted file": "old_mode",
                   "new file": "new_mode"}[m.group(1)]
            info[key] = m.group(2)
            continue
        m = _SIMILARITY_RE.match(line)
        if m:
            info["similarity"] = m.group(1)
        for key in ("copy from ", "copy to ", "rename from ", "rename to "):
            if line.startswith(key):
                info[key.strip()] = line[len(key):]
        if line.startswith("Binary files ") or line.startswith("GIT binary patch"):
            info["binary"] = "1"
    return info


def _convert_hunk(hunk: Any) -> tuple[Hunk, bool, bool]:
    lines: list[HunkLine] = []
    old_no_eol = new_no_eol = False
    last_kind = ""
    for line in hunk:
        kind = line.line_type
        if kind == "\\":
            # The marker applies to the line just before it.
            if last_kind in (" ", "-"):
                old_no_eol = True
            if last_kind in (" ", "+"):
                new_no_eol = True
            if lines:
                prev = lines[-1]
                lines[-1] = HunkLine(prev.kind, prev.text.rstrip("\n"), prev.old_no, prev.new_no)
            continue
        if kind not in (" ", "+", "-"):
            continue
        lines.append(HunkLine(kind, line.value, line.source_line_no, line.target_line_no))
        last_kind = kind
    return (Hunk(hunk.source_start, hunk.source_length, hunk.target_start, hunk.target_length,
                 tuple(lines)), old_no_eol, new_no_eol)


def parse_diff(text: str, *, origin: str = "<diff>") -> ChangeSet:
    """Parse unified diff text (decoded with surrogateescape) into a ChangeSet.

    Raises :class:`DiffParseError` (→ PS901) when the text is not a diff.
    An empty text is an empty ChangeSet.
    """
    if not text.strip():
        return ChangeSet(())
    if "\n@@ " not in "\n" + text and "\ndiff --git " not in "\n" + text \
            and not text.startswith("--- "):
        raise DiffParseError("not a unified diff (no file headers or hunks found)", path=origin)
    try:
        patch = PatchSet(text)
    except (UnidiffParseError, ValueError, IndexError) as exc:
        raise DiffParseError(f"diff does not parse: {exc}", path=origin) from None
    if not len(patch) and text.strip():
        raise DiffParseError("no file changes found in the diff", path=origin)
    return ChangeSet(tuple(_convert_file(pf) for pf in patch))


def _convert_file(pf: Any) -> FileChange:
    info = _header_info(pf.patch_info)
    old_raw = _strip_prefix(pf.source_file, "a/")
    new_raw = _strip_prefix(pf.target_file, "b/")
    if "copy from" in info or "rename from" in info:
        old_raw = unquote_path(info.get("copy from") or info.get("rename from") or "")
        new_raw = unquote_path(info.get("copy to") or info.get("rename to") or "") or new_raw
    # Only /dev/null (or git's new/deleted file mode, which unidiff turns into it) makes
    # an addition or a deletion: a hunk `@@ -1 +0,0 @@` empties a file and keeps it, as
    # git does (unidiff's is_removed_file would read it as deleted).
    if pf.source_file == "/dev/null":
        old_raw = None
    if pf.target_file == "/dev/null":
        new_raw = None

    unsafe: str | None = None
    old_path = new_path = None
    if old_raw is not None:
        old_path, why = check_path(old_raw)
        unsafe = unsafe or why
    if new_raw is not None:
        new_path, why = check_path(new_raw)
        unsafe = unsafe or why

    hunks: list[Hunk] = []
    old_no_eol = new_no_eol = False
    for h in pf:
        hunk, o, n = _convert_hunk(h)
        hunks.append(hunk)
        old_no_eol |= o
        new_no_eol |= n

    if old_path is None:
        status = FileStatus.ADDED
    elif new_path is None:
        status = FileStatus.DELETED
    elif "copy from" in info:
        status = FileStatus.COPIED
    elif old_path != new_path:
        status = FileStatus.RENAMED
    elif not hunks and not info.get("binary") and "new_mode" in info:
        status = FileStatus.MODE_ONLY
    else:
        status = FileStatus.MODIFIED
    similarity = int(info["similarity"]) if "similarity" in info else None
    return FileChange(
        old_path=old_path,
        new_path=new_path,
        status=status,
        hunks=tuple(hunks),
        binary=bool(info.get("binary")) or bool(pf.is_binary_file),
        old_mode=info.get("old_mode"),
        new_mode=info.get("new_mode"),
        similarity=similarity,
        unsafe_reason=unsafe,
        old_no_eol=old_no_eol,
        new_no_eol=new_no_eol,
    )


def decode_diff(data: bytes) -> str:
    """Decode diff bytes without ever failing: non-UTF-8 bytes survive as surrogates."""
    return data.decode("utf-8", errors="surrogateescape")


def check_sections(changes: ChangeSet, *, origin: str = "<diff>") -> None:
    """Refuse a diff that changes one path in two sections (PS901).

    Tools disagree about a second section for a path already patched (git applies it to
    the first one's result, a reader of each section alone to base). The one exception
    is what git itself writes for a file replaced by another type (a symlink): a
    deletion of the path followed by its addition.
    """
    seen: dict[str, FileStatus] = {}
    for f in changes.files:
        written = [f.old_path] if f.status in (FileStatus.RENAMED, FileStatus.DELETED) else []
        written += [f.new_path] if f.new_path else []
        for path in dict.fromkeys(p for p in written if p):
            before = seen.get(path)
            if before is not None and not (before is FileStatus.DELETED
                                           and f.status is FileStatus.ADDED):
                raise DiffParseError(f"the diff changes {path!r} in more than one section; "
                                     "patch tools apply such a diff differently", path=origin)
            seen[path] = f.status
