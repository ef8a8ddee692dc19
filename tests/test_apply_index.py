"""git applies the patch to an index holding only the entries of base it can reach
(change/applied.py): what it changes, and what it refuses, must be what it changes and
refuses on an index of all of base. The reference here is that full index, built with
``git read-tree`` and read back with ``git diff-index``, on real repositories and diffs."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

import pytest
from tests_support import GitRepo

from provscore.change.applied import GitChange, State, apply_change, reachable_entries
from provscore.change.diff import parse_diff
from provscore.change.git import Repo, parse_raw

BASE = {
    "a": "file a\n",
    "d/f.py": "x = 1\n",
    "d/g.py": "y = 2\n",
    "d/sub/h.txt": "h\n",
    "pkg/mod.py": "def f():\n    return 1\n",
    "tests/test_m.py": "def test_f():\n    assert 1\n",
    "keep.txt": "untouched\n",
}


def _full_index(repo: Repo, base: str, diff: bytes) -> tuple[dict[str, State | None], bool]:
    """What ``git apply --cached`` does on an index of all of base (and whether it
    refuses): the procedure the reachable index replaces."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index"),
               "GIT_OBJECT_DIRECTORY": str(Path(tmp)),
               "GIT_ALTERNATE_OBJECT_DIRECTORIES": repo.objects}
        repo.run_bytes(["read-tree", base], what="read-tree", env=env)
        proc = repo.run_git(["apply", "--cached", "-p1", "-"], input=diff, env=env)
        if proc.returncode != 0:
            return {}, True
        raw = parse_raw(repo.run_bytes(["diff-index", "--cached", "-z", "--raw",
                                        "--no-renames", "--no-abbrev", base, "--"],
                                       what="diff-index", env=env))
    return {r.path: None if r.deleted else State(r.new_mode, r.new_sha) for r in raw}, False


def _headers(diff: bytes) -> list[str]:
    """Every path the diff's headers name (old and new), as the change stage reads them."""
    return [p for c in parse_diff(diff.decode(), origin="test").files for p in c.paths]


def _edit_then_diff(repo: GitRepo, script: str) -> bytes:
    """The staged diff after running ``script`` (shell) in the work tree."""
    subprocess.run(["sh", "-c", script], cwd=repo.root, check=True)
    repo.git("add", "-A")
    out = repo.git("diff", "--cached", "-M", "HEAD")
    repo.git("reset", "-q", "--hard", "HEAD")
    repo.git("clean", "-qfd")
    return out


EDITS = {
    "modify": "printf 'x = 3\\n' > d/f.py",
    "add-in-new-dir": "mkdir -p new/deep && printf 'n\\n' > new/deep/n.py",
    "delete": "rm d/g.py",
    "rename": "git mv pkg/mod.py pkg/renamed.py",
    "mode-only": "chmod +x keep.txt",
    "file-becomes-directory": "rm a && mkdir a && printf 'b\\n' > a/b",
    "directory-becomes-file": "rm -r d && printf 'now a file\\n' > d",
    "symlink-over-file": "rm keep.txt && ln -s a keep.txt",
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_the_reachable_index_changes_what_the_full_index_changes(repo: GitRepo, edit: str
                                                                 ) -> None:
    base = repo.commit(BASE)
    diff = _edit_then_diff(repo, EDITS[edit])
    git = Repo(repo.root)
    expected, refused = _full_index(git, base, diff)
    got = apply_change(git, base, diff, 1, _headers(diff), lambda _p: True)
    assert (got.refused is not None, dict(got.states)) == (refused, expected)
    assert expected  # every edit changes something
    _blobs_are_git_bytes(git, got)


def _blobs_are_git_bytes(git: Repo, change: GitChange) -> None:
    for path, state in change.states.items():
        if state is not None and state.mode != "120000":
            assert change.blobs[state.sha] == git.run_bytes(
                ["cat-file", "blob", state.sha], what=path,
                env={"GIT_ALTERNATE_OBJECT_DIRECTORIES": git.objects})


# Hand-written diffs git refuses on all of base: a path that is both a file and a
# directory, a file that exists, a file that does not.
REFUSED = {
    "file-under-a-file": "diff --git a/a/b b/a/b\nnew file mode 100644\n--- /dev/null\n"
                         "+++ b/a/b\n@@ -0,0 +1 @@\n+b\n",
    "file-over-a-directory": "diff --git a/d b/d\nnew file mode 100644\n--- /dev/null\n"
                             "+++ b/d\n@@ -0,0 +1 @@\n+d\n",
    "file-over-a-deep-directory": "diff --git a/d/sub b/d/sub\nnew file mode 100644\n"
                                  "--- /dev/null\n+++ b/d/sub\n@@ -0,0 +1 @@\n+s\n",
    "added-file-exists": "diff --git a/keep.txt b/keep.txt\nnew file mode 100644\n"
                         "--- /dev/null\n+++ b/keep.txt\n@@ -0,0 +1 @@\n+k\n",
    "modified-file-missing": "diff --git a/nope.py b/nope.py\n--- a/nope.py\n+++ b/nope.py\n"
                             "@@ -1 +1 @@\n-x\n+y\n",
}


@pytest.mark.parametrize("case", sorted(REFUSED))
def test_the_reachable_index_refuses_what_the_full_index_refuses(repo: GitRepo, case: str
                                                                 ) -> None:
    base = repo.commit(BASE)
    diff = REFUSED[case].encode()
    git = Repo(repo.root)
    assert _full_index(git, base, diff) == ({}, True)
    got = apply_change(git, base, diff, 1, _headers(diff), lambda _p: True)
    assert got.refused is not None and dict(got.states) == {}


def test_the_reachable_entries_are_the_paths_their_file_parents_and_directory_contents(
        repo: GitRepo) -> None:
    base = repo.commit(BASE)
    tree = Repo(repo.root).tree(base)
    assert sorted(reachable_entries(tree, ["a/b", "d", "pkg/mod.py", "new/x.py"])) == \
        ["a", "d/f.py", "d/g.py", "d/sub/h.txt", "pkg/mod.py"]
    assert reachable_entries(tree, []) == {}


def test_a_repository_opened_in_a_subdirectory_applies_the_whole_patch(repo: GitRepo
                                                                      ) -> None:
    base = repo.commit(BASE)
    diff = _edit_then_diff(repo, "printf 'x = 9\\n' > d/f.py && printf 'k\\n' > pkg/mod.py")
    expected, _ = _full_index(Repo(repo.root), base, diff)
    # git apply run in pkg/ would skip d/f.py: the patch's paths are the repository's.
    got = apply_change(Repo(repo.root / "pkg"), base, diff, 1, _headers(diff), lambda _p: True)
    assert dict(got.states) == expected and sorted(expected) == ["d/f.py", "pkg/mod.py"]
