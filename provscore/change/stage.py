"""Stages 1-2 together: from the patch (a diff, or two refs) to its images at base and after.

The output, :class:`Change`, is everything later stages know about the patch: the
parsed :class:`~provscore.change.diff.ChangeSet`, each changed file's bytes before and
after, what could not be applied, and the runner configuration on both sides. Bytes
come from git objects only; the working tree is never read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from provscore.change.diff import ChangeSet, DiffParseError, FileStatus, decode_diff, parse_diff
from provscore.change.git import Repo
from provscore.change.images import ApplyFailure, FileImages, build_images
from provscore.change.options import OptionEffects
from provscore.change.runner_config import (
    CONFIG_FILES,
    COVERAGE_FILES,
    RunnerConfig,
    read_runner_config,
)
from provscore.change.runners import RUNNER_SCRIPTS


@dataclass(frozen=True, slots=True)
class Change:
    """What the patch does, read from git."""

    base_sha: str
    head_sha: str | None
    origin: str  # what the diff came from, for messages ("git diff A B", a file name)
    changes: ChangeSet
    files: tuple[FileImages, ...]
    failures: tuple[ApplyFailure, ...]  # hunks that do not apply, added files that exist
    runner: RunnerConfig
    diff_error: str | None = None  # why the diff does not parse (PS901); then nothing else
    # Bytes after the patch for every path it touches (None = absent after the patch).
    post_images: Mapping[str, bytes | None] = field(default_factory=dict)


def read_change(repo: Repo, base_sha: str, head_sha: str | None, diff: bytes,
                origin: str, effects: OptionEffects) -> Change:
    """Parse the diff (or ``git diff base head``) and build every changed file's images.
    ``effects``: how runner options change a run (rules/patterns.toml)."""
    raw = repo.diff(base_sha, head_sha) if head_sha else diff
    try:
        changes = parse_diff(decode_diff(raw), origin=origin)
    except DiffParseError as exc:
        return Change(base_sha, head_sha, origin, ChangeSet(()), (), (),
                      RunnerConfig.unchanged(), diff_error=str(exc))
    safe = [c for c in changes.files if not c.unsafe_reason]
    wanted = [c.old_path for c in safe if c.old_path] + \
        [c.new_path for c in safe if c.new_path and c.status is FileStatus.ADDED]
    base_blobs = repo.read_blobs(base_sha, [*wanted, *CONFIG_FILES, *COVERAGE_FILES,
                                            *RUNNER_SCRIPTS])
    post_blobs = repo.read_blobs(head_sha, [c.new_path for c in safe if c.new_path]) \
        if head_sha else None
    images = build_images(changes, base_blobs, post_blobs)
    failures = list(images.failures)
    for c in safe:
        if c.status is FileStatus.ADDED and c.new_path and base_blobs.get(c.new_path) is not None \
                and head_sha is None:
            failures.append(ApplyFailure(c.new_path,
                                         "file added by the patch already exists at base"))
    post_images: dict[str, bytes | None] = {}
    for img in images.files:
        if img.change.old_path:
            post_images[img.change.old_path] = None
    for img in images.files:
        if img.change.new_path:
            post_images[img.change.new_path] = img.post
    return Change(base_sha, head_sha, origin, changes, images.files, tuple(failures),
                  read_runner_config(images.files, base_blobs, effects),
                  post_images=post_images)
