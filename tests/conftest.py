"""Shared fixtures: real git repositories in temporary directories."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

import pytest
from agreement import assert_git_agrees

from provscore.pipeline import ScoreRequest, score
from provscore.report.model import Report
from provscore.session import Session
from provscore.testing import GIT_ENV

# The shared data sits next to the checkout (/work/main → /work/shared) or next to a directory
# above it (a worktree in /work/wt/x); elsewhere PROVSCORE_SHARED names it, or the
# real-corpus tests skip.
SHARED = Path(os.environ.get("PROVSCORE_SHARED") or next(
    (d / "shared" for d in Path(__file__).resolve().parents[1:]
     if (d / "shared" / "data").is_dir()), Path(__file__).resolve().parents[2] / "shared"))
# The CLI's call-graph cache goes to a temporary directory, never the user's ~/.cache.
os.environ.setdefault("PROVSCORE_CACHE_DIR", tempfile.mkdtemp(prefix="provscore-cache-"))
# One session for the whole test run, as a batch worker would keep one.
SESSION = Session.load()


class GitRepo:
    """A real repository: commit a base, change files, get the real ``git diff``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> bytes:
        return subprocess.run(["git", "-C", str(self.root), *args], capture_output=True,
                              check=True, env={**os.environ, **GIT_ENV}).stdout

    def write(self, files: Mapping[str, str | bytes | None]) -> None:
        for rel, content in files.items():
            path = self.root / rel
            if content is None:
                path.unlink()
                continue
            path.parent.mkdir(parents=True, exist_ok=True)
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")

    def commit(self, files: Mapping[str, str | bytes | None], message: str = "c") -> str:
        self.write(files)
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD").decode().strip()

    def diff(self, files: Mapping[str, str | bytes | None], *, keep: bool = False) -> bytes:
        """The patch that turns HEAD into HEAD + ``files`` (working tree reset unless keep)."""
        self.write(files)
        self.git("add", "-A")
        out = self.git("diff", "--cached", "-M", "HEAD")
        if not keep:
            self.git("reset", "-q", "--hard", "HEAD")
        return out

    def off_tree_run(self, patch: bytes, out: Path) -> Path:
        """Run base's tests (and runner config) against the patched production code in a
        separate worktree, with `pytest --junitxml=out`: what the off-tree runner does."""
        work = out.parent / f"offtree-{out.stem}"
        self.git("worktree", "add", "-q", "--detach", str(work), "HEAD")
        try:
            subprocess.run(["git", "-C", str(work), "apply", "-"], input=patch, check=True,
                           capture_output=True)
            # The corpus and runner channels come from base, never from the patch.
            subprocess.run(["git", "-C", str(work), "checkout", "HEAD", "--", "tests",
                            "pytest.ini"], check=True, capture_output=True)
            subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            f"--junitxml={out}"], cwd=work, capture_output=True, check=False)
        finally:
            self.git("worktree", "remove", "--force", str(work))
        assert out.is_file(), f"pytest wrote no {out}"
        return out

    def score(self, diff: bytes, base: str = "HEAD", **kw: object) -> Report:
        """Score ``diff``; first check that provscore reads it as `git apply` applies it."""
        assert_git_agrees(self.root, base, diff)
        return score(ScoreRequest(repo=self.root, base=base, diff=diff, **kw),  # type: ignore[arg-type]
                     SESSION)


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


def codes(report: Report) -> list[str]:
    return [f.code for f in report.findings]
