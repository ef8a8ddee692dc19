"""Run a rule's valid/invalid examples through the real pipeline.

Each example is materialised as a real git repository: ``before`` files are
committed as base, ``after`` files written (or deleted, or replaced by a
symlink), and the patch is the real ``git diff --cached -M`` of that change.
The test suite runs every example of every rule; ``provscore explain`` and the
docs show the same examples.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from provscore.model import Action, Finding
from provscore.pipeline import ScoreRequest, score
from provscore.report.model import Report
from provscore.rules import RuleExample

GIT_ENV = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.com",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def git(repo: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, check=True,
                          env={**os.environ, **GIT_ENV}).stdout


def materialise(example: RuleExample, root: Path) -> tuple[Path, bytes]:
    """Build the example's repo under ``root``; return it and the patch."""
    repo = root / "repo"
    repo.mkdir(parents=True)
    git(repo, "init", "-q", "-b", "main")
    (repo / "README.md").write_text("example\n")
    for f in example.files:
        if f.before is not None:
            path = repo / f.path
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(f.before.lstrip("\n"), encoding="utf-8")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "base")
    if example.diff is not None:
        return repo, example.diff.lstrip("\n").encode()
    for f in example.files:
        path = repo / f.path
        path.parent.mkdir(parents=True, exist_ok=True)
        if f.symlink is not None:
            path.unlink(missing_ok=True)
            os.symlink(f.symlink, path)
        elif f.after is None:
            path.unlink()
        else:
            path.write_text(f.after.lstrip("\n"), encoding="utf-8")
    git(repo, "add", "-A")
    diff = git(repo, "diff", "--cached", "-M", "HEAD")
    git(repo, "reset", "-q", "--hard", "HEAD")
    return repo, diff


def run_example(example: RuleExample, root: Path) -> Report:
    repo, diff = materialise(example, root)
    return score(ScoreRequest(repo=repo, base="HEAD", diff=diff, diff_origin="example.patch"))


def fired(report: Report, code: str) -> list[Finding]:
    """Findings of ``code`` that act on the decision (info findings do not count)."""
    return [f for f in report.findings if f.code == code and f.action is not Action.INFO]
