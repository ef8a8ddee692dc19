"""What the patch changes in the settings every test runs under (PS110 at the runner level).

A Django-style settings module (``tests/test_sqlite.py``, named by ``DJANGO_SETTINGS_MODULE``
or ``--settings`` in base's channels, or a ``tests/settings.py``) is an input of every test
the runner starts: ``USE_TZ = True`` there flips time zones for the whole suite as surely
as ``@override_settings(USE_TZ=True)`` does for one test. Two edits change those inputs:

- a statement of such a module is added, removed or changed (compared as Python: comments,
  layout and the docstring are no change; a side that does not parse differs from
  anything);
- a channel now names another settings module than base's channels do (a runner script's
  default, tox's ``setenv``, ``--settings``).

Each is a :class:`SettingsChange`, located where a reviewer reads it.
"""

from __future__ import annotations

import ast
import difflib
from collections.abc import Mapping, Sequence

from provscore.change.images import FileImages
from provscore.change.runners import settings_modules
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class SettingsChange:
    """One change to the settings every test runs under."""

    path: str  # the settings module, or the channel that names another one
    line: int | None
    side: str  # "pre" when the line is in the base image (a deleted statement or file)
    detail: str


def _statements(data: bytes) -> list[tuple[str, int, str]] | None:
    """Top-level statements as (structure, line, first source line); None: no parse."""
    text = data.decode("utf-8", "replace")
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    body = tree.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]  # the module docstring configures nothing
    lines = text.splitlines()
    return [(ast.dump(s), s.lineno, lines[s.lineno - 1].strip() if s.lineno <= len(lines)
             else "") for s in body]


def _module_change(path: str, pre: bytes, post: bytes | None) -> SettingsChange | None:
    if post is None:
        return SettingsChange(path, None, "pre", "settings module deleted")
    before, after = _statements(pre), _statements(post)
    if before is None or after is None:
        if pre == post:
            return None
        return SettingsChange(path, None, "post", "settings module no longer parses"
                              if after is None else "settings module edited")
    matcher = difflib.SequenceMatcher(None, [s[0] for s in before], [s[0] for s in after],
                                      autojunk=False)
    edits = [op for op in matcher.get_opcodes() if op[0] != "equal"]
    if not edits:
        return None
    _, i1, i2, j1, j2 = edits[0]
    old = before[i1][2] if i1 < i2 else ""
    new = after[j1][2] if j1 < j2 else ""
    more = sum(max(b - a, d - c) for _, a, b, c, d in edits) - 1
    detail = f"{old} → {new}" if old and new else f"{new} added" if new else f"{old} removed"
    if more > 0:
        detail += f" (and {more} more statement{'s' if more > 1 else ''})"
    if new:
        return SettingsChange(path, after[j1][1], "post", detail)
    return SettingsChange(path, before[i1][1], "pre", detail)


def settings_changes(images: Sequence[FileImages], settings_paths: frozenset[str],
                     pre: Mapping[str, bytes | None], post: Mapping[str, bytes | None]
                     ) -> tuple[SettingsChange, ...]:
    """The changes to base's settings modules (``settings_paths``) among ``images``, and
    the channels (``pre``/``post``: runner files at base and after) that now name other
    settings modules."""
    out: list[SettingsChange] = []
    for img in images:
        old = img.change.old_path
        if old is None or old not in settings_paths or img.pre is None:
            continue
        after = img.post if img.change.new_path == old else None  # renamed away: gone
        found = _module_change(old, img.pre, after)
        if found is not None:
            out.append(found)
    named_pre, named_post = settings_modules(pre), settings_modules(post)
    all_pre = {m for ms in named_pre.values() for m in ms}
    all_post = {m for ms in named_post.values() for m in ms}
    if all_pre != all_post:
        for channel in sorted(set(named_pre) | set(named_post)):
            was, now = named_pre.get(channel, ()), named_post.get(channel, ())
            if set(was) == set(now):
                continue
            side = "post" if post.get(channel) is not None else "pre"
            text = (post if side == "post" else pre).get(channel) or b""
            out.append(SettingsChange(channel, _line_naming(text, now or was), side,
                                      f"the tests run under settings "
                                      f"{', '.join(now) or '(none named)'} instead of "
                                      f"{', '.join(was) or '(none named)'}"))
    return tuple(out)


def _line_naming(data: bytes, modules: Sequence[str]) -> int | None:
    """The first line of a channel that names one of ``modules``."""
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        if any(m in line for m in modules):
            return number
    return None
