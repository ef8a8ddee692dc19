"""Data files that base tests read: their contents are some test's expected values."""

from __future__ import annotations

import posixpath

from provscore.change.collection import CollectionConfig
from provscore.change.diff import ChangeSet, FileStatus
from provscore.change.git import Repo
from provscore.change.writeset import classify_path
from provscore.evidence.roles import EVIDENCE_ROLES

_MAX_DATA_FILES = 40


def read_by_base_tests(repo: Repo, base: str, changes: ChangeSet,
                       config: CollectionConfig) -> set[str]:
    """Data files the patch edits or deletes that test code at base names: their contents
    are some test's expected values, wherever they live (resources/expected.json)."""
    out: set[str] = set()
    candidates = [c.old_path for c in changes.files
                  if c.old_path and not c.unsafe_reason and not c.old_path.endswith(".py")
                  and c.status is not FileStatus.ADDED][:_MAX_DATA_FILES]
    for path in candidates:
        name = posixpath.basename(path)
        if len(name) < 5 or "." not in name:
            continue  # too generic to mean this file
        for hit in repo.grep_files(base, name):
            if classify_path(hit, config) in EVIDENCE_ROLES:
                out.add(path)
                break
    return out
