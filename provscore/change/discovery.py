"""Test modules a package-only discovery stops reaching when the patch removes an ``__init__.py``.

unittest discovery (``python -m unittest discover``, Django's ``DiscoverRunner``) descends
only into packages below its start directory, and Django's ``runtests.py`` only scans app
directories that hold an ``__init__.py``; pytest collects a directory either way. So when
base runs its tests only through such runners, deleting (or renaming away) the
``__init__.py`` of a directory below a start directory hides every test module beneath it
without touching one of them: its tests are gone from the run (PS106, and their checks
PS101), reported at the ``__init__.py`` the patch removed.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping

from provscore.change.collection import CollectionConfig
from provscore.change.diff import ChangeSet
from provscore.change.runners import Invocation
from provscore.records import dataclass

INIT = "__init__.py"
# Words of `unittest discover` that take a value; the rest of its flags take none.
_VALUED = frozenset({"-s", "--start-directory", "-p", "--pattern", "-t",
                     "--top-level-directory", "-k"})
# A project's Django runner script (or manage.py) discovers from its own directory.
DJANGO_SCRIPTS = {"tests/runtests.py": "tests", "runtests.py": "", "manage.py": ""}


@dataclass(frozen=True, slots=True)
class Undiscovered:
    """A test module of base, unchanged, that the runners no longer reach after the patch."""

    path: str
    package_init: str  # the removed __init__.py that hid it
    data: bytes  # its bytes at base


def _normal(directory: str) -> str:
    d = directory.replace("{toxinidir}", "").replace("$(CURDIR)", "").strip("/")
    while d.startswith("./"):
        d = d[2:]
    return "" if d in (".", "") else posixpath.normpath(d)


def _unittest_start(words: tuple[str, ...]) -> str | None:
    """The start directory of one ``python -m unittest`` invocation; None when it names
    modules instead of discovering."""
    if words and words[0] == "discover":
        words = words[1:]
    elif any(not w.startswith("-") for w in words):
        return None  # `unittest tests.test_x`: explicit labels, imported by name
    positional: list[str] = []
    skip = False
    for i, word in enumerate(words):
        if skip:
            skip = False
            continue
        if word in ("-s", "--start-directory") and i + 1 < len(words):
            return _normal(words[i + 1])
        if word.startswith("--start-directory="):
            return _normal(word.partition("=")[2])
        if word in _VALUED:
            skip = True
        elif not word.startswith("-"):
            positional.append(word)
    return _normal(positional[0]) if positional else ""


def start_dirs(runners: frozenset[str], found: Iterable[Invocation],
               base_paths: Mapping[str, object]) -> frozenset[str] | None:
    """Where base's package-only runners start discovering; None when pytest also runs the
    tests (it collects without packages) or no such runner runs them."""
    if "pytest" in runners or not runners & {"unittest", "django"}:
        return None
    starts: set[str] = set()
    for inv in found:
        if inv.runner == "unittest":
            start = _unittest_start(inv.words)
            if start is not None:
                starts.add(start)
    if "django" in runners:
        starts |= {d for script, d in DJANGO_SCRIPTS.items() if script in base_paths}
    return frozenset(starts or {""})  # nothing says where: the repository root


def _chain(start: str, directory: str) -> list[str]:
    """The directories from below ``start`` down to ``directory``, outermost first."""
    rel = directory[len(start) + 1:] if start else directory
    parts = rel.split("/")
    return [posixpath.join(start, *parts[:i + 1]) for i in range(len(parts))]


def _under(path: str, directory: str) -> bool:
    return not directory or path.startswith(directory + "/")


def lost_packages(changes: ChangeSet, post_images: Mapping[str, bytes | None]) -> set[str]:
    """Directories whose ``__init__.py`` the patch deletes or renames away."""
    return {posixpath.dirname(p) for c in changes.files for p in c.paths
            if posixpath.basename(p) == INIT and p == c.old_path
            and post_images.get(p) is None and "/" in p}


def undiscovered(changes: ChangeSet, post_images: Mapping[str, bytes | None],
                 base_paths: Mapping[str, object], starts: frozenset[str] | None,
                 config: CollectionConfig) -> list[tuple[str, str]]:
    """(test module, removed ``__init__.py``) for each unchanged test module of base that
    discovery reached from a start directory through packages and no longer reaches."""
    lost = lost_packages(changes, post_images) if starts is not None else set()
    if not lost or starts is None:
        return []
    touched = {p for c in changes.files for p in c.paths}
    out: dict[str, str] = {}
    for path in sorted(base_paths):
        if path in touched or not config.is_test_file(path):
            continue
        directory = posixpath.dirname(path)
        for start in sorted(starts):
            if directory == start or not _under(directory, start):
                continue
            chain = _chain(start, directory)
            if not all(posixpath.join(d, INIT) in base_paths for d in chain):
                continue  # base's discovery never reached it either
            hider = next((d for d in chain if d in lost), None)
            if hider is not None:
                out.setdefault(path, posixpath.join(hider, INIT))
                break
    return sorted(out.items())
