"""Read-only access to a git repository: revisions, trees and blobs.

All trusted content is read from git objects, never from the working tree. Paths are
only ever read from ``-z`` listings, and blobs by object id through one ``git cat-file
--batch`` process: a path is never written into a request line, so a file name holding a
newline (or anything else) cannot make one object stand for another.
"""

from __future__ import annotations

import os
import subprocess
from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator, KeysView, Mapping, Sequence
from pathlib import Path
from typing import Generic, TypeVar

from provscore.change.catfile import CatFile
from provscore.errors import GitError
from provscore.records import dataclass

T = TypeVar("T")

_GIT_ENV = {
    # Never let the user's config change what we read (textconv, external diff, pager).
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "GIT_LITERAL_PATHSPECS": "1",
    "LC_ALL": "C",
}
# What a diff shows must not depend on attributes or drivers: every file as text (a
# `binary` attribute in the patched tree cannot hide a module), no textconv, no
# external diff, no user prefix or colour configuration.
DIFF_OPTIONS = ("-c", "diff.noprefix=false", "-c", "diff.mnemonicPrefix=false",
                "-c", "core.quotePath=true")
DIFF_FLAGS = ("--no-color", "--no-ext-diff", "--no-textconv", "--text", "--full-index",
              "--src-prefix=a/", "--dst-prefix=b/")
SYMLINK_MODE = "120000"
_GREP_PATHS = 2000  # paths per `git grep` command line
SUBMODULE_MODE = "160000"


@dataclass(frozen=True, slots=True)
class TreeEntry:
    mode: str
    kind: str
    sha: str
    path: str


@dataclass(frozen=True, slots=True)
class RawChange:
    """One path of a ``git diff --raw -z --no-renames`` listing: its state on each side
    (mode and object id; a mode of ``000000`` is absent)."""

    path: str
    old_mode: str
    new_mode: str
    old_sha: str
    new_sha: str

    @property
    def deleted(self) -> bool:
        return self.new_mode == "000000"


def parse_raw(out: bytes) -> list[RawChange]:
    """Records of ``--raw -z --no-renames --no-abbrev``: ``:om nm os ns X\\0path\\0``."""
    fields = out.split(b"\x00")
    changes: list[RawChange] = []
    i = 0
    while i + 1 < len(fields) and fields[i]:
        meta = fields[i].decode("ascii", "replace").lstrip(":").split()
        path = fields[i + 1].decode("utf-8", "surrogateescape")
        if len(meta) < 5:
            raise GitError(f"unexpected git diff --raw record {fields[i][:80]!r}")
        changes.append(RawChange(path, meta[0], meta[1], meta[2], meta[3]))
        i += 2
    return changes


class GrepJob:
    """``git grep -l`` processes started by :meth:`Repo.start_grep`."""

    def __init__(self, repo: Repo, rev: str, procs: list[subprocess.Popen[bytes]]) -> None:
        self._repo, self._rev, self._procs = repo, rev, procs

    def result(self) -> list[str]:
        """The paths that hold one of the texts (waits for git)."""
        found: list[str] = []
        prefix = f"{self._rev}:"
        for proc in self._procs:
            out, err = proc.communicate()
            if proc.returncode == 1:  # no match
                continue
            if proc.returncode != 0:
                raise GitError(f"git grep failed: {err.decode('utf-8', 'replace').strip()}",
                               path=str(self._repo.root))
            found += [p.decode("utf-8", "surrogateescape").removeprefix(prefix)
                      for p in out.split(b"\x00") if p]
        return found

    def close(self) -> None:
        """Stop what is still running (the caller failed before it needed the answer)."""
        for proc in self._procs:
            if proc.returncode is None:
                proc.kill()
                proc.communicate()

    def __enter__(self) -> GrepJob:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Search(Generic[T]):
    """A ``git grep`` started in the background (:meth:`Repo.start_grep`; None: nothing to
    search, no hit) and what its hits become; :meth:`result` waits for git. Close it in
    every case (a context manager): a caller that fails first leaves no git running."""

    def __init__(self, job: GrepJob | None, finish: Callable[[list[str]], T]) -> None:
        self._job, self._finish = job, finish

    def result(self) -> T:
        return self._finish(self._job.result() if self._job is not None else [])

    def close(self) -> None:
        if self._job is not None:
            self._job.close()

    def __enter__(self) -> Search[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def tab_records(out: bytes, fields: int) -> Iterator[tuple[list[str], str]]:
    """The records of a ``-z`` listing whose records are ``fields`` words, a tab and a
    path (``ls-tree``: mode type id; ``ls-files -s``: mode id stage)."""
    for rec in out.split(b"\x00"):
        if not rec:
            continue
        meta, _, path = rec.partition(b"\t")
        words = meta.decode("ascii", "replace").split()
        if len(words) != fields:
            raise GitError(f"unexpected git listing record {rec[:80]!r}")
        yield words, path.decode("utf-8", "surrogateescape")


# Tree listings a Repo keeps (a batch worker's Repo lives for many base commits).
TREES_KEPT = 8


class Repo:
    """A git repository opened at ``root`` (any directory inside the work tree).

    ``long_lived``: the repository is kept open for many reads (a batch worker scores a
    mirror's patches with one): every blob is read through one ``git cat-file --batch``
    process (change/catfile.py) instead of one process per read, until close()."""

    def __init__(self, root: str | os.PathLike[str], *, long_lived: bool = False) -> None:
        path = Path(root)
        if not path.is_dir():
            raise GitError("repository directory does not exist", path=str(root))
        self.root = path
        proc = self.run_git(["rev-parse", "--path-format=absolute", "--show-toplevel",
                             "--git-path", "objects"])
        self.bare = False
        if proc.returncode != 0:
            # A bare repository (a mirror, as `provscore batch --repos` reads) has no work
            # tree: its top is the git dir. Only objects are ever read, so nothing differs.
            self.bare = self._run(["rev-parse", "--is-bare-repository"],
                                  what="not a git repository").strip() == "true"
            if not self.bare:
                self.run_bytes(["rev-parse", "--show-toplevel"], what="not a git repository")
            proc = self.run_git(["rev-parse", "--path-format=absolute", "--git-dir",
                                 "--git-path", "objects"])
        out = proc.stdout.decode("utf-8", "surrogateescape").splitlines()
        self.top = Path(out[0].strip())
        self.objects = out[1].strip() if len(out) > 1 else ""
        self._trees: OrderedDict[str, dict[str, TreeEntry]] = OrderedDict()
        self._commits: dict[str, str] = {}  # full commit ids by themselves; pinned refs
        self.reader = CatFile(self.root, {**os.environ, **_GIT_ENV}) if long_lived else None

    def close(self) -> None:
        """End the blob reader's process, if any (a short-lived Repo has none)."""
        if self.reader is not None:
            self.reader.close()

    def __enter__(self) -> Repo:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _run(self, args: Sequence[str], *, what: str, input: bytes | None = None) -> str:
        return self.run_bytes(args, what=what, input=input).decode("utf-8", "surrogateescape")

    def run_bytes(self, args: Sequence[str], *, what: str, input: bytes | None = None,
                  env: Mapping[str, str] | None = None) -> bytes:
        """git's stdout; a failure is a GitError with ``what`` and git's last line."""
        proc = self.run_git(args, input=input, env=env)
        if proc.returncode != 0:
            detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            tail = detail[-1] if detail else f"exit {proc.returncode}"
            raise GitError(f"{what}: {tail}", path=str(self.root))
        return proc.stdout

    def run_git(self, args: Sequence[str], *, input: bytes | None = None,
                env: Mapping[str, str] | None = None) -> subprocess.CompletedProcess[bytes]:
        """Run git in this repository with the fixed environment (plus ``env``)."""
        full_env = {**os.environ, **_GIT_ENV, **(env or {})}
        try:
            return subprocess.run(["git", "-C", str(self.root), *args], input=input,
                                  capture_output=True, env=full_env, check=False)
        except FileNotFoundError:
            raise GitError("git is not installed or not on PATH") from None

    def resolve(self, rev: str) -> str:
        """Full commit sha for a revision (branch, tag, sha, HEAD~2, ...)."""
        if rev.startswith("-"):
            raise GitError(f"revision {rev!r} looks like an option")
        known = self._commits.get(rev)
        if known is not None:
            return known
        sha = self._run(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                        what=f"unknown revision {rev!r}").strip()
        if rev == sha:  # a full commit id names that commit forever; a ref may move
            self._commits[rev] = sha
        return sha

    def pin(self, rev: str, sha: str) -> None:
        """From now on ``rev`` names ``sha`` in this Repo: what was read at one resolution
        of a ref (the configuration at base) and what is scored at it are one commit, even
        if the ref moves in between (and git is asked once)."""
        self._commits[rev] = sha

    def resolve_base(self, rev: str) -> str:
        """The commit a patch applies to, or the empty tree for ``HEAD`` in a repository
        with no commit yet (a pre-commit hook on the first commit scores every staged
        file as added). Trees, blobs and ls-tree all read the empty tree like a commit."""
        try:
            return self.resolve(rev)
        except GitError:
            empty = self.empty_tree()
            if rev != empty and (rev != "HEAD" or not self.unborn()):
                raise
            return empty

    def empty_tree(self) -> str:
        """The object id of the empty tree in this repository's hash (sha1 or sha256)."""
        return self._run(["hash-object", "-t", "tree", "--stdin"], what="git hash-object",
                         input=b"").strip()

    def unborn(self) -> bool:
        """HEAD names a branch that has no commit yet."""
        head = self.run_git(["rev-parse", "--verify", "--quiet", "HEAD"])
        ref = self.run_git(["symbolic-ref", "--quiet", "HEAD"])
        return head.returncode != 0 and ref.returncode == 0

    def merge_base(self, base_sha: str, head_sha: str) -> str:
        """The commit ``git diff base...head`` (and a pull request) compares against."""
        return self._run(["merge-base", base_sha, head_sha],
                         what=f"no merge base between {base_sha[:12]} and {head_sha[:12]}"
                         ).strip()

    def diff(self, base: str, head: str) -> bytes:
        """The unified diff from base to head, with renames and copies detected."""
        return self.run_bytes([*DIFF_OPTIONS, "diff", *DIFF_FLAGS, "-M", "-C", base, head,
                               "--"], what="git diff failed")

    def raw_changes(self, base: str, head: str) -> list[RawChange]:
        """Every path whose state differs between two commits (no rename pairing)."""
        out = self.run_bytes(["diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-abbrev",
                              base, head, "--"], what="git diff-tree failed")
        return parse_raw(out)

    def staged_diff(self, base: str) -> bytes:
        """The index against ``base``: what a commit made now would add (pre-commit)."""
        return self.run_bytes([*DIFF_OPTIONS, "diff", "--cached", *DIFF_FLAGS, "-M",
                               self.resolve_base(base), "--"], what="git diff --cached failed")

    def grep_files(self, rev: str, text: str, paths: Sequence[str]) -> list[str]:
        """Those of ``paths`` at ``rev`` whose contents contain ``text`` (fixed string):
        git reads only their blobs, not every file of the tree."""
        with self.start_grep(rev, (text,), paths) as job:
            return job.result()

    def start_grep(self, rev: str, texts: Sequence[str], paths: Sequence[str]) -> GrepJob:
        """:meth:`grep_files` for any of ``texts``, running while the caller goes on;
        :meth:`GrepJob.result` waits for it (close it in every case: a context manager)."""
        full_env = {**os.environ, **_GIT_ENV}
        patterns = [arg for text in texts for arg in ("-e", text)]
        procs: list[subprocess.Popen[bytes]] = []
        job = GrepJob(self, rev, procs)
        try:
            for start in range(0, len(paths) if texts else 0, _GREP_PATHS):  # argv limit
                procs.append(subprocess.Popen(
                    ["git", "-C", str(self.root), "grep", "-l", "-z", "-F", *patterns, rev,
                     "--", *paths[start:start + _GREP_PATHS]],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=full_env))
        except FileNotFoundError:
            job.close()
            raise GitError("git is not installed or not on PATH") from None
        return job

    def ls_tree(self, rev: str) -> list[TreeEntry]:
        """Every file in the tree at ``rev`` (recursive)."""
        return list(self.tree(rev).values())

    def tree(self, rev: str) -> Mapping[str, TreeEntry]:
        """Every file at ``rev`` by path, from one ``ls-tree -z`` (kept per revision)."""
        cached = self._trees.get(rev)
        if cached is not None:
            self._trees.move_to_end(rev)
            return cached
        out = self.run_bytes(["ls-tree", "-r", "-z", "--full-tree", rev, "--"],
                             what="git ls-tree failed")
        entries: dict[str, TreeEntry] = {}
        for (mode, kind, sha), name in tab_records(out, 3):
            entries[name] = TreeEntry(mode, kind, sha, name)
        if len(rev) == 40 and all(c in "0123456789abcdef" for c in rev):
            self._trees[rev] = entries  # a sha names one tree forever; a ref may move
            if len(self._trees) > TREES_KEPT:
                self._trees.popitem(last=False)
        return entries

    def read_objects(self, shas: Iterable[str], *, env: Mapping[str, str] | None = None
                     ) -> dict[str, bytes]:
        """Contents of blobs by object id (one cat-file process); missing ids are absent."""
        wanted = list(dict.fromkeys(s for s in shas if _is_sha(s)))
        if not wanted:
            return {}
        if self.reader is not None and env is None:  # env: another object store
            return self.reader.read(wanted)
        request = "".join(f"{s}\n" for s in wanted).encode("ascii")
        out = self.run_bytes(["cat-file", "--batch"], what="git cat-file failed",
                             input=request, env=env)
        result: dict[str, bytes] = {}
        pos = 0
        for sha in wanted:
            end = out.index(b"\n", pos)
            header = out[pos:end].decode("ascii", "replace").split()
            pos = end + 1
            if len(header) < 3 or header[1] == "missing":
                continue
            size = int(header[2])
            if header[1] == "blob":
                result[sha] = out[pos:pos + size]
            pos += size + 1  # contents are followed by a newline
        return result

    def read_blobs(self, rev: str, paths: Iterable[str]) -> dict[str, bytes | None]:
        """Contents at ``rev`` of each path; None when absent or not a file (a submodule)."""
        wanted = list(dict.fromkeys(paths))
        if not wanted:
            return {}
        tree = self.tree(rev)
        entries = {p: tree.get(p) for p in wanted}
        blobs = self.read_objects(e.sha for e in entries.values()
                                  if e is not None and e.kind == "blob")
        return {p: (blobs.get(e.sha) if e is not None and e.kind == "blob" else None)
                for p, e in entries.items()}


def _is_sha(text: str) -> bool:
    return len(text) in (40, 64) and all(c in "0123456789abcdef" for c in text)


class PathsAt:
    """Whether a path exists at a revision (one ``ls-tree``, on first use)."""

    def __init__(self, repo: Repo, rev: str) -> None:
        self.repo, self.rev = repo, rev

    def exists(self, path: str) -> bool:
        return path in self.repo.tree(self.rev)

    def all(self) -> KeysView[str]:
        """Every file path at the revision."""
        return self.repo.tree(self.rev).keys()
