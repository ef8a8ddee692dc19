"""Property: for every diff provscore scores, `git apply` produces exactly what it analysed.

Generated repositories and edits (repeated lines, so hunks can match in several places;
renames, deletions, additions, symlinks, files without a final newline), real
``git diff`` output at several context sizes, and hunk headers shifted to force offsets.
For each diff provscore either refuses it (PS901/PS902) or its post-images are byte for
byte those of a plain ``git apply`` (tests/agreement.py). Honest git output with context
is never refused.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path

from agreement import assert_git_agrees
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests_support import GitRepo

EXAMPLES = int(os.environ.get("PROVSCORE_PROPERTY_EXAMPLES", "25"))
LINES = ["x = 1\n", "x = 2\n", "\n", "def f():\n", "    return x\n", "assert f() == 1\n",
         "    pass\n", "# note\n"]
NAMES = ["tests/test_a.py", "tests/test_b.py", "src/m.py", "data/t.txt"]

lines = st.lists(st.sampled_from(LINES), min_size=0, max_size=30)


@st.composite
def edits(draw: st.DrawFn) -> tuple[dict[str, str], dict[str, str | None], set[str]]:
    """(base files, changes: new content or None for deleted, paths to replace by a link)."""
    base = {n: "".join(draw(lines)) or "x = 0\n" for n in draw(
        st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True))}
    changes: dict[str, str | None] = {}
    links: set[str] = set()
    for name, text in base.items():
        action = draw(st.sampled_from(["edit", "edit", "delete", "rename", "keep", "link",
                                       "no-eol"]))
        body = text.splitlines(keepends=True)
        if action == "edit":
            for _ in range(draw(st.integers(1, 4))):
                at = draw(st.integers(0, len(body)))
                delete: bool = draw(st.booleans())
                if body and delete:
                    del body[min(at, len(body) - 1)]
                else:
                    body.insert(at, draw(st.sampled_from(LINES)))
            changes[name] = "".join(body)
        elif action == "delete":
            changes[name] = None
        elif action == "rename":
            changes[name] = None
            changes[name.replace(".py", "_moved.py").replace(".txt", "_moved.txt")] = text
        elif action == "link":
            links.add(name)
        elif action == "no-eol":
            changes[name] = text.rstrip("\n") + "\n# end"
    if draw(st.booleans()):
        changes["tests/test_new.py"] = "".join(draw(lines)) or "x = 3\n"
    return base, changes, links


def _diff(repo: GitRepo, changes: dict[str, str | None], links: set[str], context: int
          ) -> bytes:
    repo.write(changes)
    for name in links:
        (repo.root / name).unlink()
        os.symlink("../README.md", repo.root / name)
    repo.git("add", "-A")
    out = repo.git("diff", "--cached", "-M", f"-U{context}", "HEAD")
    repo.git("reset", "-q", "--hard", "HEAD")
    return out


def _shift(diff: bytes, by: int) -> bytes:
    """Every hunk header's start lines moved by ``by`` (git then applies at an offset)."""
    def move(m: re.Match[bytes]) -> bytes:
        old, new = int(m.group(1)), int(m.group(3))
        return (b"@@ -%d%s +%d%s @@" % (max(old + by, 1) if old else 0, m.group(2),
                                          max(new + by, 1) if new else 0, m.group(4)))
    return re.sub(rb"^@@ -(\d+)((?:,\d+)?) \+(\d+)((?:,\d+)?) @@", move, diff, flags=re.M)


@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(edits(), st.sampled_from([0, 1, 3]), st.sampled_from([0, 0, 2, -2, 7]))
def test_scored_post_images_are_what_git_applies(
        case: tuple[dict[str, str], dict[str, str | None], set[str]], context: int,
        shift: int) -> None:
    base, changes, links = case
    with tempfile.TemporaryDirectory() as tmp:
        repo = GitRepo(Path(tmp) / "repo")
        repo.commit({"README.md": "r\n", **base})
        diff = _diff(repo, changes, links, context)
        change = assert_git_agrees(repo.root, "HEAD", _shift(diff, shift))
        if context and not shift:  # honest git output is never refused
            assert change.diff_error is None and not change.failures, \
                (change.diff_error, change.failures)
