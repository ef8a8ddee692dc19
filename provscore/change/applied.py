"""What git does with the patch, and whether it is what provscore read.

The analysis reads the diff with its own parser and applies the hunks in memory; git is
what will actually apply the patch (CI, the SWE-bench harness, a reviewer's ``git am``).
Both readings must be one: the patch is applied with ``git apply --cached`` to a
temporary index holding the entries of base the patch can reach (``reachable_entries``),
with a temporary object directory (the repository is never written), and every path
whose state git changes must have, byte for byte and mode for mode, the post-image
provscore analysed. Two commits (``--head``) are compared the same way against ``git
diff-tree --raw``. Any difference is a PS902 naming the path: what is scored is exactly
what git applies, or nothing is scored.
"""

from __future__ import annotations

import bisect
import hashlib
import re
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path

from provscore.change.diff import FileChange, FileStatus
from provscore.change.git import SUBMODULE_MODE, RawChange, Repo, TreeEntry, tab_records
from provscore.change.images import ApplyFailure, FileImages
from provscore.records import dataclass

_ABSENT = "000000"
_PATCH_FAILED = re.compile(r"^error: patch failed: (.+):(\d+)$")
_PATH_ERROR = re.compile(r"^error: (.+?): (already exists in index|does not exist in index|"
                         r"patch does not apply|.*)$")


@dataclass(frozen=True, slots=True)
class State:
    """A path's mode and object id (``sha`` is the blob id of its bytes)."""

    mode: str
    sha: str


class TreeStates(Mapping[str, State]):
    """The state of every path of a tree listing, made on lookup (a tree has thousands of
    paths; a patch asks about a few)."""

    def __init__(self, tree: Mapping[str, TreeEntry]) -> None:
        self._tree = tree

    def __getitem__(self, path: str) -> State:
        entry = self._tree[path]
        return State(entry.mode, entry.sha)

    def __iter__(self) -> Iterator[str]:
        return iter(self._tree)

    def __len__(self) -> int:
        return len(self._tree)


@dataclass(frozen=True, slots=True)
class GitChange:
    """Every path whose state git changes, with its state after (None: absent), and the
    bytes of every new blob; or why git refuses the patch."""

    states: Mapping[str, State | None]
    blobs: Mapping[str, bytes]
    refused: ApplyFailure | None = None

    def post(self, path: str) -> bytes | None:
        state = self.states.get(path)
        return None if state is None else self.blobs.get(state.sha)


def blob_id(data: bytes, *, sha256: bool = False) -> str:
    """git's object id of a blob with these bytes."""
    header = f"blob {len(data)}\0".encode("ascii")
    algo = hashlib.sha256 if sha256 else hashlib.sha1
    return algo(header + data).hexdigest()


def _from_raw(repo: Repo, raw: Sequence[RawChange], env: Mapping[str, str] | None,
              wanted: Callable[[str], bool]) -> tuple[dict[str, State | None], dict[str, bytes]]:
    """States from a raw listing, and the bytes of the new blobs of the ``wanted`` paths
    (the others' bytes are compared by object id, so they need not be read)."""
    states: dict[str, State | None] = {
        r.path: None if r.deleted else State(r.new_mode, r.new_sha) for r in raw}
    shas = [s.sha for p, s in states.items()
            if s is not None and s.mode != SUBMODULE_MODE and wanted(p)]
    return states, repo.read_objects(shas, env=env)


def commits_change(repo: Repo, base_sha: str, head_sha: str,
                   wanted: Callable[[str], bool]) -> GitChange:
    """What the commits from base to head change, path by path (from git's -z listing)."""
    states, blobs = _from_raw(repo, repo.raw_changes(base_sha, head_sha), None, wanted)
    return GitChange(states, blobs)


def without_dataless_binaries(diff: bytes) -> bytes:
    """The diff without the git sections that carry no content (``Binary files a/x and
    b/x differ``): git refuses a patch holding one, ``patch`` skips it, and what it
    changes is unknown either way (a Python file's is PS903). git applies the rest."""
    out: list[bytes] = []
    section: list[bytes] = []

    def flush() -> None:
        hidden = any(ln.startswith(b"Binary files ") for ln in section) and \
            not any(ln.startswith(b"GIT binary patch") for ln in section)
        if not hidden:
            out.extend(section)

    lines = [line + b"\n" for line in diff.split(b"\n")]  # LF only; endings kept
    lines[-1] = lines[-1][:-1]
    for line in lines:
        if line.startswith(b"diff --git "):
            flush()
            section = []
        section.append(line)
    flush()
    return b"".join(out)


def apply_change(repo: Repo, base_sha: str, diff: bytes, strip: int, paths: Iterable[str],
                 wanted: Callable[[str], bool]) -> GitChange:
    """What ``git apply`` makes of ``diff`` on base, without touching the repository.
    ``paths``: every path the diff's headers name (old and new)."""
    diff = without_dataless_binaries(diff)
    if not diff.strip():
        return GitChange({}, {})
    before = reachable_entries(repo.tree(base_sha), paths)
    with tempfile.TemporaryDirectory(prefix="provscore-apply-") as tmp:
        objects = Path(tmp) / "objects"
        objects.mkdir()
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index"),
               "GIT_OBJECT_DIRECTORY": str(objects),
               "GIT_ALTERNATE_OBJECT_DIRECTORIES": repo.objects}
        if before:
            repo.run_bytes(["update-index", "-z", "--index-info"], what="git update-index failed",
                           env=env, input=b"".join(
                               f"{e.mode} {e.kind} {e.sha}\t".encode("ascii")
                               + e.path.encode("utf-8", "surrogateescape") + b"\x00"
                               for e in before.values()))
        # Command-line settings win over the user's: no whitespace fixing or ignoring,
        # which would make git's result differ from the diff's text. From the top: in a
        # subdirectory git apply skips the paths outside it, and ls-files lists none.
        top = ["-C", str(repo.top)]
        proc = repo.run_git([*top, "-c", "apply.whitespace=nowarn",
                             "-c", "apply.ignoreWhitespace=no", "apply", "--cached",
                             f"-p{strip}", "--whitespace=nowarn", "-"], input=diff, env=env)
        if proc.returncode != 0:
            return GitChange({}, {}, _refusal(proc.stderr.decode("utf-8", "surrogateescape")))
        after = repo.run_bytes([*top, "ls-files", "-s", "-z"], what="git ls-files failed",
                               env=env)
        states, blobs = _from_raw(repo, _index_changes(before, after), env, wanted)
    return GitChange(states, blobs)


def reachable_entries(tree: Mapping[str, TreeEntry], paths: Iterable[str]
                      ) -> dict[str, TreeEntry]:
    """The entries of base that ``git apply --cached`` can change or collide with when it
    applies a diff naming ``paths``: those paths, the files among their parent directories,
    and the files under those of them that are directories at base. On an index holding
    only these, git does (and refuses) exactly what it does on all of base: it reads and
    writes no other entry, and these are the ones its file/directory checks meet."""
    out: dict[str, TreeEntry] = {}
    dirs: list[str] = []
    for path in dict.fromkeys(paths):
        entry = tree.get(path)
        if entry is not None:
            out[path] = entry
        else:
            dirs.append(path + "/")
        parts = path.split("/")
        for i in range(1, len(parts)):
            parent = tree.get("/".join(parts[:i]))
            if parent is not None:
                out[parent.path] = parent
    if dirs:  # a path absent from base may be a directory there (rare: sort only then)
        names = sorted(tree)
        for prefix in dirs:
            for name in names[bisect.bisect_left(names, prefix):]:
                if not name.startswith(prefix):
                    break
                out[name] = tree[name]
    return out


def _index_changes(before: Mapping[str, TreeEntry], after: bytes) -> list[RawChange]:
    """What git changed in the index it was given (``ls-files -s -z`` records
    ``mode sha stage\tpath``), as raw records against ``before``."""
    changes: list[RawChange] = []
    seen: set[str] = set()
    for (mode, sha, _stage), path in tab_records(after, 3):
        seen.add(path)
        old = before.get(path)
        if old is None:
            changes.append(RawChange(path, _ABSENT, mode, "0" * len(sha), sha))
        elif (old.mode, old.sha) != (mode, sha):
            changes.append(RawChange(path, old.mode, mode, old.sha, sha))
    for path, old in before.items():
        if path not in seen:
            changes.append(RawChange(path, old.mode, _ABSENT, old.sha, "0" * len(old.sha)))
    return changes


def _refusal(stderr: str) -> ApplyFailure:
    errors = [ln.strip() for ln in stderr.splitlines() if ln.startswith("error:")]
    first = errors[0] if errors else (stderr.strip().splitlines() or ["git apply failed"])[-1]
    m = _PATCH_FAILED.match(first)
    if m:
        return ApplyFailure(m.group(1), f"git apply refuses it: {first.removeprefix('error: ')}",
                            int(m.group(2)))
    m = _PATH_ERROR.match(first)
    if m and not m.group(1).startswith(("corrupt patch", "git diff header", "patch with")):
        return ApplyFailure(m.group(1), f"git apply refuses it: {m.group(2)}")
    return ApplyFailure("", f"git apply refuses it: {first.removeprefix('error: ')}")


def read_states(files: Sequence[FileImages], base: Mapping[str, State], *, sha256: bool
                ) -> dict[str, State | None]:
    """The state after the patch, as provscore read it, of every path it changes.

    Sections apply in order (a deletion followed by an addition of the same path is a
    file replaced, e.g. by a symlink). Binary sections are unknown (None is not claimed
    for them; they are taken from git and their Python files are PS903 later)."""
    states: dict[str, State | None] = {}
    for img in files:
        c = img.change
        if c.old_path and c.status in (FileStatus.RENAMED, FileStatus.DELETED):
            states[c.old_path] = None
        if c.new_path and img.post is not None:
            states[c.new_path] = State(_mode_after(c, base), blob_id(img.post, sha256=sha256))
    return {p: s for p, s in states.items() if s != base.get(p)}


def _mode_after(change: FileChange, base: Mapping[str, State]) -> str:
    if change.new_mode:
        return change.new_mode
    old = base.get(change.old_path or "")
    return old.mode if old is not None else "100644"


def disagreements(files: Sequence[FileImages], base: Mapping[str, State], git: GitChange,
                  *, sha256: bool) -> list[ApplyFailure]:
    """Every path where git's change and provscore's reading of the diff differ."""
    ours = read_states(files, base, sha256=sha256)
    hidden = {p for img in files if img.change.binary for p in img.change.paths}
    out: list[ApplyFailure] = []
    for path in sorted(set(ours) | set(git.states)):
        if path in hidden:
            continue
        mine, theirs = ours.get(path, base.get(path)), git.states.get(path, base.get(path))
        if mine == theirs:
            continue
        out.append(ApplyFailure(path, "git applies the patch differently here: "
                                + _difference(mine, theirs)))
    return out


def _difference(mine: State | None, theirs: State | None) -> str:
    if theirs is None:
        return "git deletes it, the diff as read does not"
    if mine is None:
        return "git leaves it in place (or creates it), the diff as read deletes it"
    if mine.mode != theirs.mode:
        return f"git gives it mode {theirs.mode}, the diff as read {mine.mode}"
    return "git's content after the patch differs from the diff as read"
