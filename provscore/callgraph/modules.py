"""Module names for repository paths, and which file an import names.

One function, :func:`module_name`, names a file's module for every stage (the call graph
built with ``ast`` and the evidence stage's libcst qualnames meet on it): the path below
the outermost directory that is still a package (holds ``__init__.py``), dots for
slashes. A file outside any package is named by its stem, as pytest's default import
mode (rootdir-relative ``sys.path`` insertion) imports it. Two files that would get the
same name keep their full dotted path instead, so every node name is unique.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping


def _stem_parts(path: str) -> list[str]:
    parts = path[:-3].split("/") if path.endswith(".py") else path.split("/")
    if parts and parts[-1] == "__init__":
        parts.pop()
    return parts


def module_name(path: str, packages: frozenset[str]) -> str:
    """The module of ``path``; ``packages`` holds every directory with an ``__init__.py``."""
    parts = _stem_parts(path)
    dirs = path.split("/")[:-1]
    root = len(dirs)
    while root > 0 and "/".join(dirs[:root]) in packages:
        root -= 1
    name = ".".join(parts[root:])
    return name or ".".join(parts)


def package_dirs(paths: Iterable[str]) -> frozenset[str]:
    return frozenset(posixpath.dirname(p) for p in paths
                     if posixpath.basename(p) == "__init__.py" and "/" in p)


class ModuleIndex:
    """Every Python file of a tree under its module name, and the other names an import
    may use for it (``src.pkg.mod`` as well as ``pkg.mod``)."""

    def __init__(self, paths: Iterable[str]) -> None:
        files = sorted(p for p in paths if p.endswith(".py"))
        packages = package_dirs(files)
        wanted: dict[str, list[str]] = {}
        for p in files:
            wanted.setdefault(module_name(p, packages), []).append(p)
        self.by_path: dict[str, str] = {}
        for name, ps in wanted.items():
            for p in ps:
                self.by_path[p] = name if len(ps) == 1 else ".".join(_stem_parts(p))
        self.by_name: dict[str, str] = {m: p for p, m in self.by_path.items()}
        self._aliases: dict[str, list[str]] = {}
        for p, m in self.by_path.items():
            for alias in set(_spellings(p, packages)) - {m}:
                self._aliases.setdefault(alias, []).append(m)
        self.packages = packages

    def find(self, dotted: str, importer: str = "") -> str | None:
        """The module a dotted import name means, or None (not in this tree)."""
        if dotted in self.by_name:
            return dotted
        hits = self._aliases.get(dotted)
        if not hits:
            return None
        if len(hits) == 1:
            return hits[0]
        here = posixpath.dirname(self.by_name.get(importer, ""))
        near = [h for h in hits if posixpath.dirname(self.by_name[h]) == here]
        return near[0] if len(near) == 1 else None

    def is_package(self, module: str) -> bool:
        return self.by_name.get(module, "").endswith("__init__.py")


def _spellings(path: str, packages: frozenset[str]) -> list[str]:
    """Every name an import may use for ``path``: ``src/pkg/mod.py`` is ``pkg.mod`` or
    ``src.pkg.mod``; only leading directories that are not packages are dropped."""
    parts = _stem_parts(path)
    keep = len(module_name(path, packages).split("."))
    return [".".join(parts[i:]) for i in range(0, max(1, len(parts) - keep + 1))]


def resolve_relative(importer: str, is_package: bool, module: str, level: int) -> str:
    """The absolute module of ``from <level dots><module> import ...`` in ``importer``."""
    if level == 0:
        return module
    parts = importer.split(".")
    if not is_package:
        parts = parts[:-1]
    if level > 1:
        parts = parts[: len(parts) - (level - 1)] if level - 1 <= len(parts) else []
    base = ".".join(parts)
    return f"{base}.{module}" if base and module else (base or module)


def paths_by_module(index: ModuleIndex) -> Mapping[str, str]:
    return index.by_name
