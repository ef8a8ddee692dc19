"""Fuzz: real diffs, mutated the way a hostile author would, through the real CLI.

Real agent patches (../shared/data/agent-patches) and SWE-bench Lite human test patches
are mutated (tampering sections beside them, miscounted hunks, uncounted lines, renamed
targets, huge line numbers, non-UTF-8 bytes, NUL bytes, CRLF, deep nesting, binary
sections, duplicated or truncated sections, swapped prefixes, and real tampering: a
context assertion turned into a removal, a skip decorator added) and scored on a base
rebuilt from each patch plus a small parseable test corpus, with off-tree results in
which every base test passed, so that an honest patch can pass and a tampering one must
be caught. For every example: no exception escapes the CLI and it answers within a time
limit; what provscore analysed is what `git apply` does (tests/agreement.py); and a diff
that, as git applies it, deletes an assertion or adds a skip in test code never scores
`pass`.

The budget is small for CI (PROVSCORE_FUZZ_EXAMPLES, default 12); raise it locally.
"""

from __future__ import annotations

import ast
import contextlib
import io
import json
import os
import re
import signal
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from agreement import assert_git_agrees, git_applied
from hostile_support import junit
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests_support import SHARED, GitRepo

from provscore.change.diff import parse_diff
from provscore.cli import main
from provscore.testing import pre_images_from_patch

EXAMPLES = int(os.environ.get("PROVSCORE_FUZZ_EXAMPLES", "12"))
LIMIT_S = 60  # per example: a hang fails, whatever the machine's load
DATA = SHARED / "data"


def _real_diffs() -> list[str]:
    out: list[str] = []
    for path in sorted((DATA / "agent-patches").glob("*.jsonl")) + \
            sorted((DATA / "swebench-lite").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            for key in ("model_patch", "test_patch"):
                text = row.get(key) or ""
                # small ones keep the budget for mutations rather than for big rebuilds
                if text and text.count("\n") < 400:
                    out.append(text)
    return out


DIFFS = _real_diffs()
HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", re.M)
ASSERTION = re.compile(r"^\s*(assert\b|self\.assert\w*\(|with pytest\.raises)")
SKIP = re.compile(r"skip|xfail")

Draw = Callable[[st.SearchStrategy[Any]], Any]
Mutation = Callable[[list[str], Draw], list[str]]


def _hunks(lines: list[str]) -> list[int]:
    return [i for i, ln in enumerate(lines) if HUNK.match(ln)]


def _set_counts(lines: list[str], at: int, d_old: int, d_new: int) -> None:
    m = HUNK.match(lines[at])
    assert m is not None
    old = int(m.group(2) if m.group(2) is not None else 1) + d_old
    new = int(m.group(4) if m.group(4) is not None else 1) + d_new
    lines[at] = HUNK.sub(f"@@ -{m.group(1)},{old} +{m.group(3)},{new} @@", lines[at], count=1)


def _owner(lines: list[str], i: int) -> int | None:
    """The hunk header that line ``i`` belongs to."""
    return next((j for j in range(i, -1, -1) if HUNK.match(lines[j])), None)


def _pick_in_hunk(lines: list[str], found: list[int], draw: Draw) -> tuple[int, int] | None:
    """One of the ``found`` lines and the header of the hunk it is in, if any."""
    if not found:
        return None
    i = draw(st.sampled_from(found))
    owner = _owner(lines, i)
    return None if owner is None else (i, owner)


def drop_assertion(lines: list[str], draw: Draw) -> list[str]:
    """Tampering: a context line that asserts becomes a removed line."""
    picked = _pick_in_hunk(lines, [i for i, ln in enumerate(lines)
                                   if ln.startswith(" ") and ASSERTION.match(ln[1:])], draw)
    if picked is not None:
        i, owner = picked
        lines[i] = "-" + lines[i][1:]
        _set_counts(lines, owner, 0, -1)
    return lines


def add_skip(lines: list[str], draw: Draw) -> list[str]:
    """Tampering: a skip decorator added above a test the hunk shows."""
    picked = _pick_in_hunk(lines, [i for i, ln in enumerate(lines)
                                   if re.match(r"^[ +](\s*)def test_", ln)], draw)
    if picked is not None:
        i, owner = picked
        indent = re.match(r"^[ +](\s*)", lines[i])
        lines.insert(i, f"+{indent.group(1) if indent else ''}@pytest.mark.skip\n")
        _set_counts(lines, owner, 0, 1)
    return lines


def miscount(lines: list[str], draw: Draw) -> list[str]:
    hunks = _hunks(lines)
    if hunks:
        _set_counts(lines, draw(st.sampled_from(hunks)), draw(st.sampled_from([-1, 1, 0])),
                    draw(st.sampled_from([-1, 1])))
    return lines


def uncounted_line(lines: list[str], draw: Draw) -> list[str]:
    """A removed line right after a hunk's counted lines."""
    hunks = _hunks(lines)
    if not hunks:
        return lines
    at = draw(st.sampled_from(hunks))
    end = next((j for j in range(at + 1, len(lines)) if lines[j][:1] not in " +-\\"),
               len(lines))
    lines.insert(end, "-    assert result == expected\n")
    return lines


def huge_start(lines: list[str], draw: Draw) -> list[str]:
    hunks = _hunks(lines)
    if hunks:
        at = draw(st.sampled_from(hunks))
        lines[at] = re.sub(r"-\d+", "-999999999999", lines[at], count=1)
    return lines


def retarget(lines: list[str], draw: Draw) -> list[str]:
    found = [i for i, ln in enumerate(lines) if ln.startswith("+++ b/")]
    if found:
        i = draw(st.sampled_from(found))
        lines[i] = lines[i].rstrip("\n") + draw(st.sampled_from([".bak", "~", ".orig"])) + "\n"
    return lines


def strip_git_headers(lines: list[str], draw: Draw) -> list[str]:
    return [ln for ln in lines if not ln.startswith(("diff --git", "index "))]


def bad_bytes(lines: list[str], draw: Draw) -> list[str]:
    if lines:
        i = draw(st.integers(0, len(lines) - 1))
        pos = draw(st.integers(0, max(len(lines[i]) - 1, 0)))
        junk = draw(st.sampled_from(["\udcff", "\x00", "\r", "\udcc3(", "\u2028"]))
        lines[i] = lines[i][:pos] + junk + lines[i][pos:]
    return lines


def crlf(lines: list[str], draw: Draw) -> list[str]:
    return [ln.replace("\n", "\r\n") if draw(st.booleans()) else ln for ln in lines]


def deep_nesting(lines: list[str], draw: Draw) -> list[str]:
    found = [i for i, ln in enumerate(lines) if ln.startswith("+") and not ln.startswith("+++")]
    if found:
        i = draw(st.sampled_from(found))
        lines[i] = "+x = " + "(" * 1500 + "1" + ")" * 1500 + "\n"
    return lines


def binary_section(lines: list[str], draw: Draw) -> list[str]:
    found = [i for i, ln in enumerate(lines) if ln.startswith("--- a/")]
    if not found:
        return lines
    i = draw(st.sampled_from(found))
    name = lines[i][6:].rstrip("\n")
    end = next((j for j in range(i + 2, len(lines)) if lines[j].startswith("diff --git")),
               len(lines))
    return [*lines[:i], f"Binary files a/{name} and b/{name} differ\n", *lines[end:]]


def duplicate_section(lines: list[str], draw: Draw) -> list[str]:
    return lines + lines


def truncate(lines: list[str], draw: Draw) -> list[str]:
    text = "".join(lines)
    cut = draw(st.integers(0, max(len(text) - 1, 0)))
    return text[:cut].splitlines(keepends=True)


def swap_prefix(lines: list[str], draw: Draw) -> list[str]:
    found = [i for i, ln in enumerate(lines) if ln.startswith(("--- a/", "+++ b/"))]
    if found:
        i = draw(st.sampled_from(found))
        lines[i] = lines[i][:4] + lines[i][6:]
    return lines


CORPUS = "tests/test_fuzz_base.py"
CORPUS_TESTS = """\
import pytest


def test_one():
    assert 1 + 1 == 2
    assert 2 * 2 == 4


def test_two():
    assert "a" * 2 == "aa"
"""
CORPUS_IDS = (f"{CORPUS}::test_one", f"{CORPUS}::test_two")
_CORPUS_HEAD = f"diff --git a/{CORPUS} b/{CORPUS}\n--- a/{CORPUS}\n+++ b/{CORPUS}\n"


def corpus_drop_assertion(lines: list[str], draw: Draw) -> list[str]:
    """Tampering beside the real change: an assertion of the base corpus removed."""
    return [*lines, _CORPUS_HEAD, "@@ -4,3 +4,2 @@\n", " def test_one():\n",
            "     assert 1 + 1 == 2\n", "-    assert 2 * 2 == 4\n"]


def corpus_add_skip(lines: list[str], draw: Draw) -> list[str]:
    """Tampering beside the real change: a skip on a base test."""
    return [*lines, _CORPUS_HEAD, "@@ -8,3 +8,4 @@\n", " \n", " \n",
            "+@pytest.mark.skip(reason='flaky')\n", " def test_two():\n"]


def corpus_honest(lines: list[str], draw: Draw) -> list[str]:
    """The honest look-alike: a comment added to the corpus (may pass)."""
    return [*lines, _CORPUS_HEAD, "@@ -1,3 +1,4 @@\n", " import pytest\n",
            "+# reviewed\n", " \n", " \n"]


MUTATIONS: list[Mutation] = [
    corpus_drop_assertion, corpus_add_skip, corpus_honest, corpus_honest,
    drop_assertion, add_skip, miscount, uncounted_line, huge_start, retarget,
    strip_git_headers, bad_bytes, crlf, deep_nesting, binary_section, duplicate_section,
    truncate, swap_prefix]


class Hang(BaseException):
    """Raised by the alarm: a BaseException, so no ``except Exception`` can swallow it."""


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def fire(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, fire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def _base_test_ids(files: dict[str, str]) -> tuple[str, ...]:
    ids: list[str] = []
    for path, text in sorted(files.items()):
        if not re.search(r"(^|/)test_[^/]*\.py$", path):
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError):
            continue
        ids += [f"{path}::{n.name}" for n in tree.body
                if isinstance(n, ast.FunctionDef) and n.name.startswith("test")]
    return tuple(ids)


def _lines_matching(data: bytes | None, pattern: re.Pattern[str]) -> Counter[str]:
    text = (data or b"").decode("utf-8", "replace")
    return Counter(ln.strip() for ln in text.splitlines() if pattern.search(ln))


def _is_test_code(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    return path.endswith(".py") and (name.startswith("test") or name == "conftest.py"
                                     or "/tests/" in f"/{path}")


def _tampers(base: dict[str, bytes | None], after: dict[str, bytes | None]) -> bool:
    """As git applied it: does the diff delete an assertion or add a skip in test code?"""
    for path in set(base) | set(after):
        if not _is_test_code(path):
            continue
        before, now = base.get(path), after.get(path)
        if _lines_matching(before, ASSERTION) - _lines_matching(now, ASSERTION):
            return True
        if _lines_matching(now, SKIP) - _lines_matching(before, SKIP):
            return True
    return False


@pytest.mark.skipif(not DIFFS, reason="../shared/data (agent patches, SWE-bench) is not present")
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_mutated_real_diffs(data: st.DataObject) -> None:
    text = data.draw(st.sampled_from(DIFFS), label="real diff")
    lines = text.splitlines(keepends=True)
    for mutation in data.draw(st.lists(st.sampled_from(MUTATIONS), min_size=1, max_size=3),
                              label="mutations"):
        lines = mutation(lines, data.draw)
    mutated = "".join(lines).encode("utf-8", "surrogateescape")
    files = {**pre_images_from_patch(text), CORPUS: CORPUS_TESTS}
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        repo = GitRepo(root / "repo")
        repo.commit({"README.md": "base\n", **files})
        patch = root / "agent.patch"
        patch.write_bytes(mutated)
        results = junit(root / "run.xml", _base_test_ids(files))
        err = io.StringIO()
        with time_limit(LIMIT_S), contextlib.redirect_stderr(err):
            code = main(["score", "--repo", str(repo.root), "--base", "HEAD", "--diff",
                         str(patch), "--results", str(results), "--format", "json",
                         "--output", str(root / "report.json")])
        assert code in (0, 1, 2), err.getvalue()
        report = json.loads((root / "report.json").read_text(encoding="utf-8"))
        with time_limit(LIMIT_S):
            change = assert_git_agrees(repo.root, "HEAD", mutated)
        touched = sorted({p for f in parse_diff(text).files for p in f.paths} |
                         set(change.post_images) | {CORPUS})
        applied = git_applied(repo.root, "HEAD", mutated, touched)
        if applied is not None and report["decision"] == "pass":
            base = {p: files[p].encode("utf-8", "surrogateescape") if p in files else None
                    for p in touched}
            assert not _tampers(base, applied), "a tampering diff scored pass"
