"""The evidence stage over a whole patch: both images of every analysed file, classified."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from provscore.change.collection import CollectionConfig
from provscore.change.images import FileImages
from provscore.change.stage import Change
from provscore.evidence.context import HelperLookup
from provscore.evidence.doctests import doctest_evidence
from provscore.evidence.driver import extract
from provscore.evidence.focus import focus_pair
from provscore.evidence.limits import checked_parse
from provscore.evidence.model import AnalysedFiles, FileEvidence, FilePair, Unparseable
from provscore.evidence.roles import is_analysed, machinery_only
from provscore.evidence.tables import Tables
from provscore.model import EVIDENCE_ROLES, PathRole
from provscore.progress import Progress


def analyse_files(change: Change, role_of: Callable[[str], PathRole], config: CollectionConfig,
                  tables: Tables, lookup: HelperLookup | None,
                  progress: Progress | None = None, *, focus: bool = True) -> AnalysedFiles:
    """Classify the pre- and post-image of every changed file the role policy selects;
    ``focus``: of a test module edited in place, only what the change reaches. ``progress``
    is told how many files are done."""
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
        focused = _focused(img, config, tables, lookup) \
            if focus and role in EVIDENCE_ROLES else None
        if focused is not None:
            pre_ev, post_ev = focused
        else:
            if img.pre is not None and fc.old_path and fc.old_path.endswith(".py") \
                    and not pre_link:
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
    if change.doctest_paths:
        pairs = _with_doctests(change, pairs, unparseable)
    for hidden in change.undiscovered:
        # Unchanged, but no longer discovered: its tests are gone from the run. A module
        # that does not parse at base ran no test there.
        pre_ev = extract(hidden.path, hidden.data, config, tables, lookup)
        if pre_ev.error is None:
            pairs.append(FilePair(hidden.path, None, pre_ev, None))
    if progress is not None:
        progress("analysing changed files", total, total)
    return AnalysedFiles(tuple(pairs), tuple(unparseable))


def _focused(img: FileImages, config: CollectionConfig, tables: Tables,
             lookup: HelperLookup | None) -> tuple[FileEvidence, FileEvidence] | None:
    """Both images of a test module edited in place, classified on what the patch
    changed (evidence/focus.py) where names can follow the change, else whole; None for
    a file that is not such a module or that :mod:`limits` refuses (extract reports it)."""
    fc = img.change
    path = fc.new_path
    if img.pre is None or img.post is None or fc.old_path != path or path is None \
            or not config.is_collected(path) or any(img.symlink_sides):
        return None
    pre_refusal, pre_tree = checked_parse(img.pre)
    post_refusal, post_tree = checked_parse(img.post)
    if pre_refusal or post_refusal or pre_tree is None or post_tree is None:
        return None
    # Measured once above: neither side pays for the standard library's parse again.
    pre, post = focus_pair(img.pre, img.post, pre_tree, post_tree) or (img.pre, img.post)
    return (extract(path, pre, config, tables, lookup, measured=True),
            extract(path, post, config, tables, lookup, measured=True))


def _with_doctests(change: Change, pairs: list[FilePair], unparseable: list[Unparseable]
                   ) -> list[FilePair]:
    """Each changed module whose doctests base's test modules run (change/doctests.py),
    with the tests and checks its docstrings hold, on each side."""
    wanted = set(change.doctest_paths)
    out = list(pairs)
    for img in change.files:
        fc = img.change
        if not wanted & set(fc.paths):
            continue
        sides: list[FileEvidence | None] = []
        for path, data, side in ((fc.old_path, img.pre, "pre"), (fc.new_path, img.post, "post")):
            ev = doctest_evidence(path, data) if path and data is not None else None
            if ev is not None and ev.error is not None:
                unparseable.append(Unparseable(ev.path, ev.error, ev.error_line, side))
                ev = None
            sides.append(ev)
        pre, post = sides
        if pre is None and post is None:
            continue
        at = next((i for i, p in enumerate(out)
                   if (p.old_path, p.new_path) == (fc.old_path, fc.new_path)), None)
        if at is None:
            out.append(FilePair(fc.old_path, fc.new_path, pre, post))
        else:
            found = out[at]
            out[at] = FilePair(found.old_path, found.new_path, _merged(found.pre, pre),
                               _merged(found.post, post))
    return out


def _merged(ev: FileEvidence | None, doctests: FileEvidence | None) -> FileEvidence | None:
    if ev is None or doctests is None:
        return ev or doctests
    return replace(ev, items=ev.items + doctests.items, tests=ev.tests + doctests.tests,
                   suppressions=ev.suppressions + doctests.suppressions)
