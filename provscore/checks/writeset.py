"""Gates 2-4 on paths: the write set's width, escapes, symlinks, oracle and runner files."""

from __future__ import annotations

from collections.abc import Iterator

from provscore.change.diff import FileStatus
from provscore.checks.base import loc, static_check
from provscore.checks.facts import StaticFacts
from provscore.model import Finding, PathRole
from provscore.registry.model import Rule


@static_check("PS301")
def oracle_in_write_set(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    for e in facts.write_set.entries:
        if e.role is PathRole.ORACLE:
            yield rule.finding(location=loc(e.path), anchor=f"PS301|{e.path}", path=e.path)


@static_check("PS302")
def runner_config_changed(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    for e in facts.write_set.entries:
        if e.role is PathRole.ORACLE or not e.runner:
            continue
        if facts.contract.allows_runner_edit(e.path):
            continue
        yield rule.finding(location=loc(e.path), anchor=f"PS302|{e.path}", path=e.path,
                           status=e.status)


@static_check("PS303")
def too_many_files(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    width, limit = len(facts.change.changes.files), facts.contract.max_changed_files
    if width > limit:
        yield rule.finding(anchor="PS303", count=width, limit=limit)


@static_check("PS304")
def path_escapes_repo(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    for f in facts.change.changes.files:
        if f.unsafe_reason:
            yield rule.finding(anchor=f"PS304|{f.path}", path=f.path, reason=f.unsafe_reason)


@static_check("PS305")
def symlink_in_write_set(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    """Every path that is a symbolic link before or after the patch (modes from git).

    A path's state before is taken from the first section that names it, its state after
    from the last, so git's deletion-plus-addition of a file replaced by a link (or a link
    replaced by a file) is one change."""
    before: dict[str, str | None] = {}
    after: dict[str, str | None] = {}
    for img in facts.change.files:
        f = img.change
        pre_link, post_link = img.symlink_sides
        if f.old_path:
            before.setdefault(f.old_path, "link" if pre_link else "file")
            if f.status in (FileStatus.RENAMED, FileStatus.DELETED):
                after[f.old_path] = None
        if f.new_path:
            before.setdefault(f.new_path, None)
            after[f.new_path] = "link" if post_link else "file"
    for path, was in before.items():
        now = after.get(path, was)
        if "link" not in (was, now):
            continue
        what = {("link", "link"): "retargeted", ("link", "file"): "replaced by a regular file",
                ("link", None): "removed", ("file", "link"): "replacing a tracked file",
                (None, "link"): "added"}[(was, now)]
        yield rule.finding(location=loc(path), anchor=f"PS305|{path}", path=path, change=what)
