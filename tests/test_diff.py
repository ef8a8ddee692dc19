"""Stage 1 on real `git diff` output: every kind of file change git can describe."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from tests_support import SHARED, GitRepo

from provscore.change.diff import DiffParseError, FileStatus, check_path, decode_diff, parse_diff


def _changes(repo: GitRepo, files: dict[str, str | bytes | None], *extra: str):  # type: ignore[no-untyped-def]
    repo.write(files)
    repo.git("add", "-A")
    out = repo.git("diff", "--cached", "-M", *extra, "HEAD")
    return parse_diff(decode_diff(out)).by_path()


def test_added_deleted_modified(repo: GitRepo) -> None:
    repo.commit({"a.py": "x = 1\n", "b.py": "y = 1\n"})
    ch = _changes(repo, {"a.py": "x = 2\n", "b.py": None, "c.py": "z = 1\n"})
    assert ch["a.py"].status is FileStatus.MODIFIED
    assert ch["a.py"].added_lines() == {1} and ch["a.py"].removed_lines() == {1}
    assert ch["b.py"].status is FileStatus.DELETED and ch["b.py"].new_path is None
    assert ch["c.py"].status is FileStatus.ADDED and ch["c.py"].old_path is None


def test_rename_with_similarity_and_copy(repo: GitRepo) -> None:
    body = "".join(f"line {i}\n" for i in range(30))
    repo.commit({"old.py": body})
    ch = _changes(repo, {"old.py": None, "new.py": body + "more\n"})
    assert ch["new.py"].status is FileStatus.RENAMED
    assert ch["new.py"].old_path == "old.py" and ch["new.py"].similarity is not None
    assert ch["new.py"].similarity >= 90
    assert ch["new.py"].paths == ("old.py", "new.py")
    repo.git("reset", "-q", "--hard")
    ch = _changes(repo, {"copy.py": body + "x\n"}, "-C", "--find-copies-harder")
    assert ch["copy.py"].status is FileStatus.COPIED and ch["copy.py"].old_path == "old.py"


def test_mode_only_binary_symlink(repo: GitRepo) -> None:
    repo.commit({"run.sh": "echo\n", "blob.bin": b"\x00\x01\x02"})
    os.chmod(repo.root / "run.sh", 0o755)
    os.symlink("/etc/passwd", repo.root / "link")
    ch = _changes(repo, {"blob.bin": b"\x00\x09\x02"})
    assert ch["run.sh"].status is FileStatus.MODE_ONLY and ch["run.sh"].new_mode == "100755"
    assert ch["blob.bin"].binary
    assert ch["link"].is_symlink and ch["link"].status is FileStatus.ADDED


def test_crlf_and_no_newline_at_eof(repo: GitRepo) -> None:
    repo.commit({"w.py": b"a = 1\r\nb = 2\r\n", "n.py": b"x = 1"})
    ch = _changes(repo, {"w.py": b"a = 1\r\nb = 3\r\n", "n.py": b"x = 2"})
    added = [ln.text for h in ch["w.py"].hunks for ln in h.lines if ln.kind == "+"]
    assert added == ["b = 3\r\n"]
    assert ch["n.py"].old_no_eol and ch["n.py"].new_no_eol
    assert [ln.text for h in ch["n.py"].hunks for ln in h.lines if ln.kind == "+"] == ["x = 2"]


def test_non_utf8_bytes_survive(repo: GitRepo) -> None:
    repo.commit({"l.py": "# -*- coding: latin-1 -*-\ns = 'caf\xe9'\n".encode("latin-1")})
    ch = _changes(repo, {"l.py": "# -*- coding: latin-1 -*-\ns = 'd\xe9j\xe0'\n".encode("latin-1")})
    text = next(ln.text for h in ch["l.py"].hunks for ln in h.lines if ln.kind == "+")
    assert text.encode("utf-8", "surrogateescape") == "s = 'd\xe9j\xe0'\n".encode("latin-1")


@pytest.mark.parametrize(("path", "reason"), [
    ("/etc/passwd", "absolute"), ("../x.py", "'..'"), ("a/../../x", "'..'"),
    ("a\x00b", "NUL"), (".git/hooks/pre-commit", ".git"), ("C:\\x.py", "absolute"),
])
def test_unsafe_paths(path: str, reason: str) -> None:
    _, why = check_path(path)
    assert why is not None and reason in why


def test_safe_path_normalised() -> None:
    assert check_path("src/./a.py") == ("src/a.py", None)
    assert check_path("src/dots..in..name.py") == ("src/dots..in..name.py", None)


def test_unsafe_path_in_diff_is_marked_not_opened() -> None:
    text = ("diff --git a/../evil b/../evil\n--- a/../evil\n+++ b/../evil\n"
            "@@ -1 +1 @@\n-a\n+b\n")
    (change,) = parse_diff(text).files
    assert change.unsafe_reason == "path contains '..'"


def test_empty_and_garbage() -> None:
    assert parse_diff("").is_empty and parse_diff("\n\n").is_empty
    with pytest.raises(DiffParseError, match=r"p\.diff: not a unified diff"):
        parse_diff("hello world\nthis is text\n", origin="p.diff")
    with pytest.raises(DiffParseError, match=r"p\.diff"):
        parse_diff("--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n-a\n", origin="p.diff")


def _patches() -> list[tuple[str, str]]:
    folder = SHARED / "data" / "agent-patches"
    out: list[tuple[str, str]] = []
    for path in sorted(folder.glob("*.jsonl")) if folder.is_dir() else []:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            out.append((f"{path.stem}:{row['instance_id']}", row.get("model_patch") or ""))
    return out


def test_every_real_agent_patch_parses() -> None:
    patches = _patches()
    if not patches:
        pytest.skip("../shared/data/agent-patches is not present")
    assert len(patches) == 526
    nonempty = 0
    for name, text in patches:
        changes = parse_diff(text, origin=name)  # must never raise on real agent output
        nonempty += bool(changes.files)
        for f in changes.files:
            assert f.path and f.unsafe_reason is None, name
    assert nonempty > 400


def test_every_swebench_human_test_patch_parses() -> None:
    folder = SHARED / "data" / "swebench-lite"
    if not folder.is_dir():
        pytest.skip("../shared/data/swebench-lite is not present")
    rows = [json.loads(x) for p in sorted(folder.glob("*.jsonl"))
            for x in p.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 323
    for row in rows:
        changes = parse_diff(row["test_patch"], origin=row["instance_id"])
        assert changes.files, row["instance_id"]
        assert any("test" in f.path for f in changes.files), row["instance_id"]


def test_diff_path_with_spaces(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"my tests/test a.py": "def test_a():\n    assert 1 == 1\n"})
    ch = _changes(repo, {"my tests/test a.py": "def test_a():\n    assert 1 == 2\n"})
    assert "my tests/test a.py" in ch


def test_git_quoted_non_ascii_and_special_paths(repo: GitRepo) -> None:
    repo.commit({"tests/test_base.py": "x = 1\n", "old\tname.py": "y = 1\n"})
    ch = _changes(repo, {"tests/test_ü.py": "def test_a():\n    assert 1 == 1\n",
                         'we"ird.py': "z = 1\n", "old\tname.py": "y = 2\n"})
    assert {"tests/test_ü.py", 'we"ird.py', "old\tname.py"} <= set(ch)
    assert all(c.unsafe_reason is None for c in ch.values())


def test_git_quoted_rename(repo: GitRepo) -> None:
    body = "".join(f"line {i}\n" for i in range(20))
    repo.commit({"tests/ä.py": body})
    ch = _changes(repo, {"tests/ä.py": None, "tests/ö.py": body})
    assert ch["tests/ö.py"].old_path == "tests/ä.py"
