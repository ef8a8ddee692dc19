"""Stage 2: post-images built in memory must equal what git itself produces."""

from __future__ import annotations

from tests_support import GitRepo

from provscore.change.diff import decode_diff, parse_diff
from provscore.change.git import Repo
from provscore.change.images import build_images

BASE = "".join(f"line {i}\n" for i in range(1, 61))


def _check_roundtrip(repo: GitRepo, files: dict[str, str | bytes | None]) -> None:
    diff = repo.diff(files, keep=True)
    changes = parse_diff(decode_diff(diff))
    git = Repo(repo.root)
    pre = git.read_blobs("HEAD", [c.old_path for c in changes.files if c.old_path])
    images = build_images(changes, pre)
    assert not images.failures
    for img in images.files:
        path = img.change.new_path
        if path is None:
            assert img.post is None
            continue
        assert img.post == (repo.root / path).read_bytes(), path
    repo.git("reset", "-q", "--hard", "HEAD")


def test_multi_hunk_edit_insert_delete(repo: GitRepo) -> None:
    repo.commit({"f.txt": BASE})
    new = BASE.replace("line 3\n", "line three\n").replace("line 30\n", "") \
        .replace("line 55\n", "line 55\nextra a\nextra b\n")
    _check_roundtrip(repo, {"f.txt": new, "g.txt": "brand new\n"})


def test_insert_at_top_and_end_and_no_eol(repo: GitRepo) -> None:
    repo.commit({"f.txt": BASE, "n.txt": b"last line without newline"})
    _check_roundtrip(repo, {"f.txt": "first\n" + BASE + "end\n", "n.txt": b"changed, still none"})
    _check_roundtrip(repo, {"n.txt": b"now with newline\n"})


def test_crlf_and_latin1_bytes(repo: GitRepo) -> None:
    repo.commit({"w.py": b"a = 1\r\nb = 2\r\nc = 3\r\n", "l.txt": "caf\xe9\n".encode("latin-1")})
    _check_roundtrip(repo, {"w.py": b"a = 1\r\nb = 20\r\nc = 3\r\n",
                            "l.txt": "d\xe9j\xe0 vu\n".encode("latin-1")})


def test_rename_with_edit_and_delete(repo: GitRepo) -> None:
    repo.commit({"old.txt": BASE, "gone.txt": "x\n"})
    _check_roundtrip(repo, {"old.txt": None, "new.txt": BASE.replace("line 7\n", "seven\n"),
                            "gone.txt": None})


def test_hunks_that_do_not_apply_are_reported(repo: GitRepo) -> None:
    repo.commit({"f.txt": BASE})
    diff = repo.diff({"f.txt": BASE.replace("line 10\n", "ten\n")})
    repo.commit({"f.txt": BASE.replace("line 10\n", "LINE TEN\n")})
    changes = parse_diff(decode_diff(diff))
    images = build_images(changes, Repo(repo.root).read_blobs("HEAD", ["f.txt"]))
    assert [(f.path, f.line) for f in images.failures] == [("f.txt", 7)]


def test_offset_hunks_still_apply(repo: GitRepo) -> None:
    repo.commit({"f.txt": BASE})
    diff = repo.diff({"f.txt": BASE.replace("line 40\n", "forty\n")})
    repo.commit({"f.txt": "new top 1\nnew top 2\n" + BASE})
    images = build_images(parse_diff(decode_diff(diff)),
                          Repo(repo.root).read_blobs("HEAD", ["f.txt"]))
    assert not images.failures
    post = images.files[0].post
    assert post == ("new top 1\nnew top 2\n" + BASE.replace("line 40\n", "forty\n")).encode()
