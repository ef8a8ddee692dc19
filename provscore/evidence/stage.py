"""The evidence stage over a whole patch: both images of every analysed file, classified."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from provscore.change.collection import CollectionConfig
from provscore.change.stage import Change
from provscore.evidence.context import HelperLookup
from provscore.evidence.driver import extract
from provscore.evidence.model import FileEvidence, FilePair
from provscore.evidence.roles import EVIDENCE_ROLES, is_analysed, machinery_only
from provscore.evidence.tables import Tables
from provscore.model import PathRole
from provscore.progress import Progress


@dataclass(frozen=True, slots=True)
class Unparseable:
    """A file provscore could not classify on one side (PS903): never treated as clean."""

    path: str
    reason: str
    line: int | None
    side: str  # "pre" (base) or "post" (patched)


@dataclass(frozen=True, slots=True)
class AnalysedFiles:
    pairs: tuple[FilePair, ...]  # files classified on both sides (or the one that exists)
    unparseable: tuple[Unparseable, ...]


def analyse_files(change: Change, role_of: Callable[[str], PathRole], config: CollectionConfig,
                  tables: Tables, lookup: HelperLookup | None,
                  progress: Progress | None = None) -> AnalysedFiles:
    """Classify the pre- and post-image of every changed file the role policy selects."""
    pairs: list[FilePair] = []
    unparseable: list[Unparseable] = []
    total = len(change.files)
    for done, img in enumerate(change.files):
        if progress is not None:
            progress("analysing changed files", done, total)
        fc = img.change
        # Both names count: a test renamed to a non-test name (tests/ops_checks.txt) is
        # analysed as the test it was, and its tests are gone after the patch.
        roles = [role_of(p) for p in fc.paths]
        role = next((r for r in roles if r in EVIDENCE_ROLES), roles[-1] if roles else
                    PathRole.OTHER)
        if fc.binary and not fc.unsafe_reason and any(p.endswith(".py") for p in fc.paths):
            # GIT binary patch, "Binary files differ", a binary attribute: whatever the
            # role, the text a reviewer reads is hidden.
            unparseable.append(Unparseable(fc.path, "binary diff of a Python file: contents "
                                           "hidden from the diff", None, "post"))
            continue
        if not is_analysed(fc, role, img.post):
            continue
        pre_link, post_link = img.symlink_sides  # a link's target text is not Python
        pre_ev = post_ev = None
        if img.pre is not None and fc.old_path and fc.old_path.endswith(".py") and not pre_link:
            pre_ev = extract(fc.old_path, img.pre, config, tables, lookup)
        if img.post is not None and fc.new_path and fc.new_path.endswith(".py") \
                and not post_link:
            post_ev = extract(fc.new_path, img.post, config, tables, lookup)
        if pre_ev is None and post_ev is None:
            continue
        if role not in EVIDENCE_ROLES:
            pre_ev, post_ev = machinery_only(pre_ev), machinery_only(post_ev)
        failed: list[tuple[FileEvidence, str]] = [
            (ev, side) for ev, side in ((pre_ev, "pre"), (post_ev, "post"))
            if ev is not None and ev.error is not None]
        for ev, side in failed:
            unparseable.append(Unparseable(ev.path, ev.error or "", ev.error_line, side))
        if not failed:  # an unclassifiable file is PS903, not a pile of removals
            pairs.append(FilePair(fc.old_path, fc.new_path, pre_ev, post_ev))
    if progress is not None:
        progress("analysing changed files", total, total)
    return AnalysedFiles(tuple(pairs), tuple(unparseable))
