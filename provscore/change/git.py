"""Read-only access to a git repository: revisions, trees and blobs.

All trusted content is read from git objects, never from the working tree.
Blobs for many paths are read through one ``git cat-file --batch`` process.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from provscore.errors import GitError

_GIT_ENV = {
    # Never let the user's config change what we read (textconv, external diff, pager).
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_TERMINAL_PROMPT": "0",
    "LC_ALL": "C",
}


@dataclass(frozen=True, slots=True)
class TreeEntry:
    mode: str
    kind: str
    sha: str
    path: str


class Repo:
    """A git repository opened at ``root`` (any directory inside the work tree)."""

    def __init__(self, root: str | os.PathLike[str]) -> None:
        path = Path(root)
        if not path.is_dir():
            raise GitError("repository directory does not exist", path=str(root))
        self.root = path
        top = self._run(["rev-parse", "--show-toplevel"], what="not a git repository").strip()
        self.top = Path(top)

    def _run(self, args: Sequence[str], *, what: str, input: bytes | None = None) -> str:
        return self._run_bytes(args, what=what, input=input).decode("utf-8", "surrogateescape")

    def _run_bytes(self, args: Sequence[str], *, what: str, input: bytes | None = None) -> bytes:
        env = {**os.environ, **_GIT_ENV}
        try:
            proc = subprocess.run(["git", "-C", str(self.root), *args], input=input,
                                  capture_output=True, env=env, check=False)
        except FileNotFoundError:
            raise GitError("git is not installed or not on PATH") from None
        if proc.returncode != 0:
            detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
            tail = detail[-1] if detail else f"exit {proc.returncode}"
            raise GitError(f"{what}: {tail}", path=str(self.root))
        return proc.stdout

    def resolve(self, rev: str) -> str:
        """Full commit sha for a revision (branch, tag, sha, HEAD~2, ...)."""
        if rev.startswith("-"):
            raise GitError(f"revision {rev!r} looks like an option")
        return self._run(["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
                         what=f"unknown revision {rev!r}").strip()

    def resolve_base(self, rev: str) -> str:
        """The commit a patch applies to, or the empty tree for ``HEAD`` in a repository
        with no commit yet (a pre-commit hook on the first commit scores every staged
        file as added). Trees, blobs and ls-tree all read the empty tree like a commit."""
        try:
            return self.resolve(rev)
        except GitError:
            if rev != "HEAD" or not self._unborn():
                raise
        return self._run(["hash-object", "-t", "tree", "--stdin"], what="git hash-object",
                         input=b"").strip()

    def _unborn(self) -> bool:
        """HEAD names a branch that has no commit yet."""
        env = {**os.environ, **_GIT_ENV}
        head = subprocess.run(["git", "-C", str(self.root), "rev-parse", "--verify", "--quiet",
                               "HEAD"], capture_output=True, env=env, check=False)
        ref = subprocess.run(["git", "-C", str(self.root), "symbolic-ref", "--quiet", "HEAD"],
                             capture_output=True, env=env, check=False)
        return head.returncode != 0 and ref.returncode == 0

    def diff(self, base: str, head: str) -> bytes:
        """The unified diff from base to head, with renames and copies detected."""
        return self._run_bytes(
            ["-c", "diff.noprefix=false", "diff", "--no-color", "--no-ext-diff",
             "--no-textconv", "-M", "-C", "--full-index", base, head, "--"],
            what="git diff failed")

    def staged_diff(self, base: str) -> bytes:
        """The index against ``base``: what a commit made now would add (pre-commit)."""
        return self._run_bytes(
            ["-c", "diff.noprefix=false", "diff", "--cached", "--no-color", "--no-ext-diff",
             "--no-textconv", "-M", "--full-index", self.resolve_base(base), "--"],
            what="git diff --cached failed")

    def grep_files(self, rev: str, text: str, pathspec: str = "*.py") -> list[str]:
        """Paths at ``rev`` whose contents contain ``text`` (fixed string)."""
        env = {**os.environ, **_GIT_ENV}
        proc = subprocess.run(["git", "-C", str(self.root), "grep", "-l", "-z", "-F", "-e", text,
                               rev, "--", pathspec], capture_output=True, env=env, check=False)
        if proc.returncode == 1:  # no match
            return []
        if proc.returncode != 0:
            raise GitError(f"git grep failed: {proc.stderr.decode('utf-8', 'replace').strip()}",
                           path=str(self.root))
        prefix = f"{rev}:"
        return [p.decode("utf-8", "surrogateescape").removeprefix(prefix)
                for p in proc.stdout.split(b"\x00") if p]

    def ls_tree(self, rev: str) -> list[TreeEntry]:
        """Every file in the tree at ``rev`` (recursive)."""
        out = self._run_bytes(["ls-tree", "-r", "-z", "--full-tree", rev],
                              what="git ls-tree failed")
        entries: list[TreeEntry] = []
        for rec in out.split(b"\x00"):
            if not rec:
                continue
            meta, _, path = rec.partition(b"\t")
            mode, kind, sha = meta.decode().split()
            entries.append(TreeEntry(mode, kind, sha, path.decode("utf-8", "surrogateescape")))
        return entries

    def read_blobs(self, rev: str, paths: Iterable[str]) -> dict[str, bytes | None]:
        """Contents of ``rev:path`` for each path in one cat-file process; None when absent."""
        wanted = list(dict.fromkeys(paths))
        if not wanted:
            return {}
        request = b"".join(f"{rev}:{p}".encode("utf-8", "surrogateescape") + b"\n"
                           for p in wanted)
        out = self._run_bytes(["cat-file", "--batch"], what="git cat-file failed", input=request)
        result: dict[str, bytes | None] = {}
        pos = 0
        for path in wanted:
            end = out.index(b"\n", pos)
            header = out[pos:end].decode("utf-8", "surrogateescape")
            pos = end + 1
            if header.endswith(" missing") or header.endswith(" ambiguous"):
                result[path] = None
                continue
            parts = header.split()
            size = int(parts[2])
            kind = parts[1]
            data = out[pos:pos + size]
            pos += size + 1  # contents are followed by a newline
            result[path] = data if kind == "blob" else None
        return result


class PathsAt:
    """Whether a path exists at a revision (one ``ls-tree``, on first use)."""

    def __init__(self, repo: Repo, rev: str) -> None:
        self.repo, self.rev = repo, rev
        self._paths: set[str] | None = None

    def exists(self, path: str) -> bool:
        return path in self.all()

    def all(self) -> set[str]:
        """Every file path at the revision."""
        if self._paths is None:
            self._paths = {e.path for e in self.repo.ls_tree(self.rev)}
        return self._paths
