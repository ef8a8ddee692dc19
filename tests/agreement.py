"""The patch-tool agreement check: what provscore analysed is exactly what `git apply` does.

Independent of provscore's own check (``git apply --cached`` into a temporary index): the
files the patch touches are exported from base with ``git archive`` into a plain directory
(no repository, no index), the diff is applied there by ``git apply`` as a patch tool, and
every path provscore reports a post-image for must hold exactly those bytes (a symlink its
target), or be absent where provscore says it is deleted. ``GitRepo.score`` runs this for
every diff the suite scores; the property and fuzz tests run it over generated diffs.
"""

from __future__ import annotations

import io
import os
import subprocess
import tarfile
import tempfile
from pathlib import Path

from provscore.change.applied import without_dataless_binaries
from provscore.change.git import Repo
from provscore.change.options import OptionEffects
from provscore.change.stage import Change, read_change
from provscore.change.strict import AmbiguousDiff, check_unambiguous

GIT_ENV = {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull, "LC_ALL": "C"}


def scored_change(root: Path, base: str, diff: bytes) -> Change:
    repo = Repo(root)
    return read_change(repo, repo.resolve(base), None, diff, "<agreement>", OptionEffects())


def git_applied(root: Path, base: str, diff: bytes, paths: list[str]
                ) -> dict[str, bytes | None] | None:
    """Each path's bytes after a plain ``git apply`` of ``diff`` to base's files (a link's
    target for a symlink, None when absent); None when git refuses the patch."""
    try:
        strip = check_unambiguous(diff.decode("utf-8", "surrogateescape"))
    except AmbiguousDiff:
        return None
    existing = [p for p in paths if p in Repo(root).tree(base)]
    with tempfile.TemporaryDirectory(prefix="agreement-") as tmp:
        if existing:
            tar = subprocess.run(["git", "-C", str(root), "archive", "--format=tar", base, "--",
                                  *existing], capture_output=True, check=True,
                                 env={**os.environ, **GIT_ENV, "GIT_LITERAL_PATHSPECS": "1"})
            with tarfile.open(fileobj=io.BytesIO(tar.stdout)) as archive:
                archive.extractall(tmp, filter="fully_trusted")
        proc = subprocess.run(["git", "apply", f"-p{strip}", "--whitespace=nowarn", "-"],
                              input=without_dataless_binaries(diff), cwd=tmp,
                              capture_output=True, env={**os.environ, **GIT_ENV})
        if proc.returncode != 0:
            return None
        return {p: _read(Path(tmp) / p) for p in paths}


def _read(path: Path) -> bytes | None:
    if path.is_symlink():
        return os.readlink(path).encode("utf-8", "surrogateescape")
    return path.read_bytes() if path.is_file() else None


def assert_git_agrees(root: Path, base: str, diff: bytes) -> Change:
    """Fail unless every post-image provscore analysed is what ``git apply`` produces."""
    change = scored_change(root, base, diff)
    if change.diff_error or change.failures or change.nothing_to_score or \
            any(f.unsafe_reason for f in change.changes.files):
        return change  # refused (PS901/PS902/PS304) or empty: nothing analysed as applied
    hidden = {p for f in change.changes.files if f.binary for p in f.paths}
    paths = sorted(p for p in change.post_images if p not in hidden)
    if not paths:  # only sections without content: nothing git could apply
        return change
    applied = git_applied(root, base, diff, paths)
    assert applied is not None, "provscore scored a patch that `git apply` refuses"
    for path in paths:
        assert change.post_images[path] == applied[path], \
            f"{path}: provscore analysed a post-image that differs from git apply's"
    return change
