"""Python warning filters (``action:message:category:module:lineno``) as pytest reads them.

Base's ``filterwarnings`` ini lines and ``-W`` options decide which warnings fail a test;
a ``@pytest.mark.filterwarnings(...)`` on a test is applied after them and wins. A mark
whose action is not ``error`` for a category base turns into an error lets a test pass that
failed on base: a suppression (evidence/suppressions/marks.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher

# The built-in warning categories below Warning: two different ones never overlap.
_BUILTIN = frozenset({
    "UserWarning", "DeprecationWarning", "PendingDeprecationWarning", "SyntaxWarning",
    "RuntimeWarning", "FutureWarning", "ImportWarning", "UnicodeWarning", "BytesWarning",
    "ResourceWarning", "EncodingWarning"})


def parse_filter(text: str) -> tuple[str, str]:
    """(action, category) of one filter; the category defaults to Warning."""
    parts = [p.strip() for p in text.strip().split(":")]
    action = parts[0].lower() if parts else ""
    category = parts[2] if len(parts) > 2 and parts[2] else "Warning"
    return action, category.rsplit(".", 1)[-1] if category.startswith("builtins.") else category


def error_categories(ini_lines: Iterable[str], addopts: Sequence[str]) -> tuple[str, ...]:
    """The categories base's filters make errors (ini lines, then ``-W`` options: later
    ones are applied last), in order, without repeats."""
    filters = [line for line in ini_lines if line.strip() and not line.strip().startswith("#")]
    for i, opt in enumerate(addopts):
        if opt == "-W" and i + 1 < len(addopts):
            filters.append(addopts[i + 1])
        elif opt.startswith("-W") and len(opt) > 2:
            filters.append(opt[2:])
        elif opt.startswith("--pythonwarnings="):
            filters.append(opt.split("=", 1)[1])
    found = [cat for action, cat in map(parse_filter, filters) if action == "error"]
    return tuple(dict.fromkeys(found))


def overlap(a: str, b: str) -> bool:
    """Whether two categories can match one warning: the same, one of them Warning, or not
    two different built-in ones (a project's class may derive from either: fail closed)."""
    return a == b or "Warning" in (a, b) or not (a in _BUILTIN and b in _BUILTIN)


def loosened(filters: Sequence[str | None], errors: Sequence[str]) -> str | None:
    """The first of a mark's filters that stops a warning base makes an error from failing
    the test (None: none does). A filter that is not a literal may be any: it counts."""
    for text in filters:
        if text is None:
            return "a filter computed at run time" if errors else None
        action, category = parse_filter(text)
        if action != "error" and any(overlap(category, e) for e in errors):
            return text
    return None


def _lines(text: str | None) -> list[str]:
    return [line.strip() for line in (text or "").splitlines()
            if line.strip() and not line.strip().startswith("#")]


def list_loosened(before: str | None, after: str | None) -> bool:
    """Whether an ini ``filterwarnings`` list lets a warning pass that base failed on.

    The last filter matching a warning decides its action. An added ``error`` filter can
    only make more warnings errors, and a removed filter that is not ``error`` only hands a
    warning back to an earlier filter (or the default), neither of which lets a test pass
    that failed. Any other edit (an added ``ignore``, a removed ``error``, kept filters
    reordered, which shows as one removed and re-added) may loosen: it counts."""
    old, new = _lines(before), _lines(after)
    for tag, i1, i2, j1, j2 in SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        if any(parse_filter(f)[0] == "error" for f in old[i1:i2]):
            return True
        if any(parse_filter(f)[0] != "error" for f in new[j1:j2]):
            return True
    return False
