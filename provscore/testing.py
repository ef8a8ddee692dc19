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

from provscore.change.diff import FileStatus, parse_diff
from provscore.model import Action, Finding
from provscore.pipeline import ScoreRequest, score
from provscore.registry.model import RuleExample
from provscore.report.model import Report
from provscore.session import Session

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


def run_example(example: RuleExample, root: Path, session: Session | None = None) -> Report:
    repo, diff = materialise(example, root)
    return score(ScoreRequest(repo=repo, base="HEAD", diff=diff, diff_origin="example.patch",
                              hidden_tests=example.hidden_tests), session)


def fired(report: Report, code: str) -> list[Finding]:
    """Findings of ``code`` that act on the decision (info findings do not count)."""
    return [f for f in report.findings if f.code == code and f.action is not Action.INFO]


FILLER = "pass  # filler\n"


def pre_images_from_patch(text: str) -> dict[str, str]:
    """A base that a real patch applies to exactly, built from the patch alone: its
    context and removed lines at their old line numbers, a filler line everywhere else
    (for real patches whose upstream repository is not at hand)."""
    images: dict[str, str] = {}
    for f in parse_diff(text).files:
        if f.status is FileStatus.ADDED or f.old_path is None or f.binary or f.unsafe_reason:
            continue
        lines: dict[int, str] = {}
        for h in f.hunks:
            for ln in h.lines:
                if ln.kind in (" ", "-") and ln.old_no is not None:
                    lines[ln.old_no] = ln.text
        last = max(lines, default=0)
        body = "".join(lines.get(i, FILLER) for i in range(1, last + 1))
        # A last hunk without trailing context ends the file (git matches it only there).
        ends_file = bool(f.hunks) and f.hunks[-1].lines[-1:] != () and \
            f.hunks[-1].lines[-1].kind != " "
        if not f.old_no_eol and not ends_file:
            body += FILLER
        images[f.old_path] = body
    return images
