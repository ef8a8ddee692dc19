"""Refusing diffs that patch tools could apply differently (PS901), before anything is parsed.

The patch author chooses every byte of the diff. Where ``git apply``, ``git apply
--recount``, GNU ``patch`` and unidiff read the same text as different changes, no reading
of it can be "the change": such a diff is refused with the reason, never scored. This
module finds those texts; :mod:`provscore.change.applied` then checks that git applies
what is left exactly as it was read.

Refused here:

* a plain (non-git) section whose ``---`` and ``+++`` names differ: ``git apply`` keeps
  one name and GNU ``patch`` picks another, so a suffix (``.bak``, ``~``) would hide an
  edit of the original file;
* a ``diff --git`` header whose names disagree with its ``rename``/``copy`` lines or its
  ``---``/``+++`` names;
* a hunk whose header counts do not match its lines: fewer lines than counted, or ``-``/``+``
  lines right after the counted ones (unidiff and ``git apply`` drop them, ``git apply
  --recount`` and ``patch`` apply them);
* paths with and without ``a/``/``b/`` prefixes mixed, or prefix-less paths with a
  directory (``-p0`` and ``-p1`` tools patch different files).
"""

from __future__ import annotations

import re

from provscore.records import dataclass

_HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")
_GIT_NAME_KEYS = ("rename from ", "rename to ", "copy from ", "copy to ")
_EXTENDED = ("old mode ", "new mode ", "deleted file mode ", "new file mode ",
             "similarity index ", "dissimilarity index ", "index ", *_GIT_NAME_KEYS)
_C_QUOTE = {"\a": "\\a", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f",
            "\r": "\\r", '"': '\\"', "\\": "\\\\"}


class AmbiguousDiff(ValueError):
    """The diff means different changes to different patch tools; ``line`` is 1-based."""

    def __init__(self, reason: str, line: int) -> None:
        super().__init__(f"line {line}: {reason}")
        self.reason = reason
        self.line = line


@dataclass(frozen=True, slots=True)
class _Section:
    start: int  # 1-based line of its first header line
    git_header: str | None  # the text after "diff --git ", when it has one
    names: dict[str, str]  # rename/copy from/to lines, unquoted
    old: str | None = None  # the --- name as written (prefix kept), None = /dev/null
    new: str | None = None
    has_pair: bool = False


def c_unquote(raw: str) -> str:
    """Undo git's C-style quoting of one name (``"a/t\\303\\274st.py"``); others as-is."""
    if len(raw) < 2 or not (raw.startswith('"') and raw.endswith('"')):
        return raw
    body, out, i = raw[1:-1], bytearray(), 0
    simple = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
    while i < len(body):
        ch = body[i]
        if ch == "\\" and i + 1 < len(body):
            octal = body[i + 1:i + 4]
            if len(octal) == 3 and all(c in "01234567" for c in octal):
                out.append(int(octal, 8) & 0xFF)
                i += 4
                continue
            if body[i + 1] in simple:
                out.append(simple[body[i + 1]])
                i += 2
                continue
        out += ch.encode("utf-8", "surrogateescape")
        i += 1
    return out.decode("utf-8", "surrogateescape")


def c_quote(name: str) -> str:
    """git's quoting of a name that needs it (control bytes, quotes, backslash, non-ASCII)."""
    data = name.encode("utf-8", "surrogateescape")
    if not any(b < 0x20 or b in (0x22, 0x5C, 0x7F) or b >= 0x80 for b in data):
        return name
    out = []
    for b in data:
        ch = chr(b)
        if ch in _C_QUOTE:
            out.append(_C_QUOTE[ch])
        elif b < 0x20 or b >= 0x7F:
            out.append(f"\\{b:03o}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def header_name(rest: str) -> str | None:
    """The name on a ``---``/``+++`` line: unquoted, without a trailing TAB and timestamp;
    None for /dev/null."""
    if rest.startswith('"'):
        end = _closing_quote(rest)
        name = c_unquote(rest[:end + 1]) if end > 0 else rest
    else:
        name = rest.split("\t", 1)[0]
    return None if name == "/dev/null" else name


def _closing_quote(text: str) -> int:
    i = 1
    while i < len(text):
        if text[i] == "\\":
            i += 2
            continue
        if text[i] == '"':
            return i
        i += 1
    return -1


def check_unambiguous(text: str) -> int:
    """Raise :class:`AmbiguousDiff` if patch tools could apply ``text`` differently;
    otherwise return the ``-p`` strip level git must apply it with (1: ``a/``, ``b/``)."""
    lines = text.split("\n")
    sections: list[_Section] = []
    current: _Section | None = None
    i = 0
    while i < len(lines):
        line = lines[i].rstrip("\r")
        if line.startswith("diff --git "):
            current = _Section(i + 1, line[len("diff --git "):], {})
            sections.append(current)
            i = _git_extended(lines, i + 1, current)
            continue
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            old, new = header_name(line[4:]), header_name(lines[i + 1].rstrip("\r")[4:])
            if current is None or current.has_pair:
                current = _Section(i + 1, None, {})
                sections.append(current)
            sections[-1] = current = _Section(current.start, current.git_header,
                                              current.names, old, new, True)
            i += 2
            continue
        if _HUNK_RE.match(line):
            if current is None:
                raise AmbiguousDiff("hunk before any file header", i + 1)
            i = _hunk_end(lines, i)
            continue
        i += 1
    level = _strip_level(sections)
    for section in sections:
        _check_names(section, level)
    return level


def _git_extended(lines: list[str], i: int, section: _Section) -> int:
    """Read a git section's extended header lines into ``section``; return the next line."""
    while i < len(lines):
        line = lines[i].rstrip("\r")
        if not line.startswith(_EXTENDED):
            break
        for key in _GIT_NAME_KEYS:
            if line.startswith(key):
                if key in section.names:
                    raise AmbiguousDiff(f"'{key.strip()}' given twice", i + 1)
                section.names[key] = c_unquote(line[len(key):])
        i += 1
    return i


def _hunk_end(lines: list[str], i: int) -> int:
    """Check the hunk at line ``i`` holds exactly the lines its header counts; return the
    index of the first line after it."""
    header = lines[i].rstrip("\r")
    m = _HUNK_RE.match(header)
    assert m is not None
    old = int(m.group(2)) if m.group(2) is not None else 1
    new = int(m.group(4)) if m.group(4) is not None else 1
    start = i + 1
    i += 1
    while old > 0 or new > 0:
        if i >= len(lines) or (i == len(lines) - 1 and lines[i] == ""):
            raise AmbiguousDiff(f"hunk {_label(header)} has fewer lines than its header "
                                "counts", start)
        kind = lines[i][:1]
        if kind in (" ", "") or lines[i] == "\r":
            old, new = old - 1, new - 1
        elif kind == "-":
            old -= 1
        elif kind == "+":
            new -= 1
        elif kind != "\\":
            raise AmbiguousDiff(f"hunk {_label(header)} has fewer lines than its header "
                                "counts", start)
        if old < 0 or new < 0:
            raise AmbiguousDiff(f"hunk {_label(header)} has more lines of one kind than its "
                                "header counts", i + 1)
        i += 1
    while i < len(lines) and lines[i].startswith("\\"):
        i += 1
    _no_uncounted_lines(lines, i, header)
    return i


def _label(header: str) -> str:
    return header.split(" @@", 1)[0] + " @@"


def _no_uncounted_lines(lines: list[str], i: int, header: str) -> None:
    """``-``/``+`` lines right after a complete hunk are applied by ``--recount`` and
    ``patch`` but dropped by git and unidiff: refuse them. Blank and context-only lines,
    the next file's ``---``/``+++`` pair and a format-patch signature (``-- ``) are fine."""
    j = i
    while j < len(lines):
        line = lines[j]
        if line.startswith("--- ") and j + 1 < len(lines) and lines[j + 1].startswith("+++ "):
            return
        if line.rstrip("\r") in ("-- ", "--"):
            return
        kind = line[:1]
        if kind in ("-", "+"):
            raise AmbiguousDiff(f"this line follows hunk {_label(header)} but is not "
                                "counted by it: `git apply --recount` and `patch` "
                                "would apply it, git and unidiff drop it", j + 1)
        if kind not in (" ", "\\", "") and line != "\r":
            return
        j += 1


def _names(section: _Section) -> list[tuple[str, str]]:
    """(side, name as written) of every ``---``/``+++`` name of a section."""
    out = []
    if section.old is not None:
        out.append(("a", section.old))
    if section.new is not None:
        out.append(("b", section.new))
    return out


def _strip_level(sections: list[_Section]) -> int:
    written = [(s, side, name) for s in sections for side, name in _names(s)]
    prefixed = [name.startswith(f"{side}/") for _, side, name in written]
    if all(prefixed):
        return 1
    if any(prefixed):
        s, _, name = next(w for w, p in zip(written, prefixed, strict=True) if not p)
        raise AmbiguousDiff(f"path {name!r} has no a/ or b/ prefix while others do: tools "
                            "strip different parts of it", s.start)
    for s, _, name in written:
        if "/" in name:
            raise AmbiguousDiff(f"path {name!r} has no a/ or b/ prefix: `patch -p1` and "
                                "`git apply -p0` patch different files", s.start)
    return 0


def _strip(name: str | None, side: str, level: int) -> str | None:
    if name is None:
        return None
    return name[len(side) + 1:] if level and name.startswith(f"{side}/") else name


def _check_names(section: _Section, level: int) -> None:
    old, new = _strip(section.old, "a", level), _strip(section.new, "b", level)
    renamed = section.names.get("rename from ") or section.names.get("copy from ")
    target = section.names.get("rename to ") or section.names.get("copy to ")
    if (renamed is None) != (target is None):
        raise AmbiguousDiff("a rename or copy names only one of its two paths", section.start)
    if section.git_header is None:
        if section.has_pair and old is not None and new is not None and old != new:
            raise AmbiguousDiff(f"'---' names {old!r} but '+++' names {new!r} without a git "
                                "rename header: git edits one file, `patch` may edit the "
                                "other", section.start)
        return
    if renamed is not None and target is not None:
        if section.has_pair and ((old is not None and old != renamed)
                                 or (new is not None and new != target)):
            raise AmbiguousDiff("'---'/'+++' names disagree with the rename/copy lines",
                                section.start)
        a_name, b_name = renamed, target
    elif section.has_pair:
        if old is not None and new is not None and old != new:
            raise AmbiguousDiff(f"'---' names {old!r} but '+++' names {new!r} without a "
                                "rename header", section.start)
        a_name = b_name = old if old is not None else new  # type: ignore[assignment]
        if a_name is None:
            raise AmbiguousDiff("both sides of a section are /dev/null", section.start)
    else:
        _header_halves_equal(section, level)
        return
    if not _header_matches(section.git_header or "", a_name, b_name, level):
        raise AmbiguousDiff(f"'diff --git' header names disagree with the file it changes "
                            f"({a_name!r} → {b_name!r})", section.start)


def _render(name: str, side: str, level: int) -> set[str]:
    full = f"{side}/{name}" if level else name
    return {full, c_quote(full)}


def _header_matches(header: str, a_name: str, b_name: str, level: int) -> bool:
    header = header.rstrip("\r")
    return any(f"{a} {b}" == header for a in _render(a_name, "a", level)
               for b in _render(b_name, "b", level))


def _header_halves_equal(section: _Section, level: int) -> None:
    """A section with no other names (mode change, binary) must name one file twice."""
    header = (section.git_header or "").rstrip("\r")
    if header.startswith('"'):
        end = _closing_quote(header)
        first = c_unquote(header[:end + 1]) if end > 0 else header
    else:
        first = header[:max((len(header) - 1) // 2, 0)]
    name = first[2:] if level and first.startswith("a/") else first
    if not _header_matches(header, name, name, level):
        raise AmbiguousDiff("'diff --git' header does not name one file on both sides and "
                            "no other line says which file changes", section.start)
