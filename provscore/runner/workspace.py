"""The run's private directory: the two worktrees, the job files, every process's output.

``reference`` is a detached worktree at base: the trusted corpus exactly as on base.
``patched`` is a detached worktree at base with the patch applied, and then every path of
the write set that is not production code put back as on base: test files, conftest.py,
helpers, fixtures and data files the base tests read, runner configuration; corpus files
the patch added are deleted. Only production code comes from the patch.

Everything lives under one ``mkdtemp`` directory whose name holds the run id, and the
worktrees are registered under names unique to the run, so two runs on one repository
never collide. :meth:`Workspace.close` removes the worktrees, their git entries and the
directory, whatever happened (success, failure, timeout, Ctrl-C).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from provscore.change.git import Repo
from provscore.errors import GitError

# Hooks of the repository never run for the runner's checkouts.
_NO_HOOKS = ("-c", "core.hooksPath=/dev/null")


class Workspace:
    """A run's temporary directory and worktrees; a context manager that cleans up."""

    def __init__(self, repo: Repo, base_sha: str, run_id: str) -> None:
        self.repo = Repo(repo.top)
        self.base_sha = base_sha
        self.run_id = run_id
        self.root = Path(tempfile.mkdtemp(prefix=f"provscore-{run_id}-")).resolve()
        self.reference = self.root / f"reference-{run_id}"
        self.patched = self.root / f"patched-{run_id}"
        self.boot = self.root / "boot"
        self.logs = self.root / "logs"
        for d in (self.boot, self.logs, self.root / "out"):
            d.mkdir()
        self._jobs = 0

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    # ------------------------------------------------------------------ trees

    def _add_tree(self, path: Path) -> None:
        self.repo.run_bytes([*_NO_HOOKS, "worktree", "add", "--detach", "-q", str(path),
                             self.base_sha], what="git worktree add failed")

    def add_reference(self) -> None:
        self._add_tree(self.reference)

    def add_patched(self, patch: bytes, corpus: Sequence[str], at_base: set[str], *,
                    strip: int = 1) -> None:
        """The patched tree: base + patch, applied as the static stage applied it (same
        ``-p`` level and whitespace handling), then every ``corpus`` path as on base
        (deleted when base does not have it)."""
        self._add_tree(self.patched)
        tree = Repo(self.patched)
        if patch.strip():
            tree.run_bytes([*_NO_HOOKS, "-c", "apply.whitespace=nowarn", "-c",
                            "apply.ignoreWhitespace=no", "apply", f"-p{strip}",
                            "--whitespace=nowarn", "-"], input=patch,
                           what="git apply failed in the patched worktree")
        restore = sorted(p for p in corpus if p in at_base)
        if restore:
            paths = b"\0".join(p.encode("utf-8", "surrogateescape") for p in restore)
            tree.run_bytes([*_NO_HOOKS, "checkout", self.base_sha, "--pathspec-from-file=-",
                            "--pathspec-file-nul"], input=paths,
                           what="restoring the base corpus in the patched worktree failed")
        for rel in sorted(p for p in corpus if p not in at_base):
            target = self.patched / rel
            if target.is_symlink() or target.is_file():
                target.unlink()
            elif target.is_dir():
                shutil.rmtree(target)

    def git_dir(self) -> Path:
        """The repository's git directory (the worktrees' objects and refs)."""
        raw = self.repo.run_bytes(["rev-parse", "--git-common-dir"], what="git rev-parse failed")
        path = Path(raw.decode("utf-8", "surrogateescape").strip())
        return (path if path.is_absolute() else self.repo.top / path).resolve()

    def clean_git_config(self) -> Path:
        """The repository's config with only its ``core.*`` and ``extensions.*`` keys: what
        git needs to read the repository, without remotes, credentials or the token
        ``actions/checkout`` persists in ``http.*.extraheader``."""
        target = self.boot / "git-config"
        target.write_bytes(b"")
        try:
            raw = self.repo.run_bytes(["config", "--file", str(self.git_dir() / "config"),
                                       "-z", "--get-regexp", r"^(core|extensions)\."],
                                      what="git config failed")
        except GitError:
            return target
        for record in raw.split(b"\0"):
            key, _, value = record.partition(b"\n")
            if key:
                self.repo.run_bytes(["config", "--file", str(target), "--add", key.decode(),
                                     value.decode("utf-8", "surrogateescape")],
                                    what="writing the sandbox's git config failed")
        return target

    # ------------------------------------------------------------------ per process

    def job(self, name: str) -> tuple[Path, Path]:
        """A fresh writable output directory and a log file for one sandboxed process."""
        self._jobs += 1
        out = self.root / "out" / f"{self._jobs:03d}-{name}"
        out.mkdir()
        return out, self.logs / f"{self._jobs:03d}-{name}.log"

    # ------------------------------------------------------------------ cleanup

    def close(self) -> None:
        """Remove the directory with both worktrees, then their git entries. Never raises."""
        shutil.rmtree(self.root, ignore_errors=True)
        if self.root.exists():  # a test left a read-only directory behind
            _make_writable(self.root)
            shutil.rmtree(self.root, ignore_errors=True)
        with contextlib.suppress(GitError):
            # Entries whose directory is gone: ours. A worktree another run is still
            # creating is locked by git until it is complete and is left alone, and one
            # whose directory exists is never pruned.
            self.repo.run_bytes(["worktree", "prune"], what="git worktree prune failed")


def _make_writable(root: Path) -> None:
    """Tests may leave read-only directories behind; rmtree needs them writable."""
    for dirpath, dirnames, _ in os.walk(root):
        for d in dirnames:
            with contextlib.suppress(OSError):
                path = os.path.join(dirpath, d)
                if not os.path.islink(path):
                    os.chmod(path, 0o755)
