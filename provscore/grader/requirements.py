"""What the project declares it depends on (PS808), read from base's packaging files.

``[project]`` ``dependencies`` / ``optional-dependencies``, ``[dependency-groups]``,
``[build-system] requires`` and ``[tool.poetry]`` dependency tables of ``pyproject.toml``;
``[options]`` ``install_requires`` / ``tests_require`` / ``setup_requires`` and
``[options.extras_require]`` of ``setup.cfg``; the requirement lines of
``requirements*.txt`` files (at the root or under ``requirements/``). Each distribution
maps to the import names it provides: the installed distribution's own (top-level names,
``importlib.metadata.packages_distributions``), else the registry's table of well-known
mismatches, else its normalised name with ``-`` as ``_``. The project's own name
(``[project]``/``[tool.poetry]`` ``name``, ``[metadata] name``, ``setup(name=...)`` of
``setup.py``) is never one of its dependencies (``mypkg[extra]`` in its own extras), and
the packages it provides are the project's own code, not a shadow of the installed copy.
"""

from __future__ import annotations

import ast
import configparser
import functools
import posixpath
import re
import tomllib
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

_NAME = re.compile(r"\s*([A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)\s*(?:$|[\[<>=!~;@(\s,])")
_EGG = re.compile(r"#egg=([A-Za-z0-9][A-Za-z0-9._-]*)")
_CFG_KEYS = (("options", "install_requires"), ("options", "tests_require"),
             ("options", "setup_requires"))


def normalise(name: str) -> str:
    """PEP 503: ``Foo_Bar.baz`` → ``foo-bar-baz``."""
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_name(line: str) -> str | None:
    """The distribution a requirement line names (``-e url#egg=name`` included); None
    for options, paths, URLs and blank lines."""
    text = line.split(" #", 1)[0].strip()
    if text.startswith("#") or not text:
        return None
    if text.startswith("-"):
        egg = _EGG.search(text)
        return egg.group(1) if egg else None
    if "://" in text.split("@", 1)[0] or text.startswith((".", "/")):
        egg = _EGG.search(text)
        return egg.group(1) if egg else None
    match = _NAME.match(text)
    return match.group(1) if match else None


def is_requirements_file(path: str) -> bool:
    parts = path.split("/")
    base = parts[-1]
    return base.endswith(".txt") and (
        (len(parts) == 1 and "requirements" in base) or
        (len(parts) == 2 and parts[0] == "requirements"))


def declared_distributions(files: Mapping[str, bytes | None]) -> frozenset[str]:
    """Normalised names of every distribution the packaging files declare, less the
    project's own; ``files``: base's ``pyproject.toml``, ``setup.cfg``, ``setup.py`` and
    requirement files by path (unreadable ones declare nothing)."""
    names, own = _read_packaging(files)
    return names - own


def own_distributions(files: Mapping[str, bytes | None]) -> frozenset[str]:
    """Normalised names the packaging files give the project itself (``[project] name``,
    ``[tool.poetry] name``, ``[metadata] name``, ``setup(name=...)``)."""
    return _read_packaging(files)[1]


def _read_packaging(files: Mapping[str, bytes | None]) -> tuple[frozenset[str], frozenset[str]]:
    names: set[str] = set()
    own: set[str] = set()
    for path, data in files.items():
        if data is None:
            continue
        text = data.decode("utf-8", "replace")
        base = posixpath.basename(path)
        if base == "pyproject.toml":
            names.update(_pyproject(text, own))
        elif base == "setup.cfg":
            names.update(_setup_cfg(text, own))
        elif base == "setup.py":
            own.update(_setup_py_names(text))
        else:
            names.update(n for n in map(requirement_name, text.splitlines()) if n)
    return frozenset(map(normalise, names)), frozenset(map(normalise, own))


def _setup_py_names(text: str) -> Iterator[str]:
    """``setup(name="x")`` in a ``setup.py``, the name a literal or a module-level
    constant (``NAME = "attrs"; setup(name=NAME)``); read, never run."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    constants = {t.id: stmt.value.value for stmt in tree.body if isinstance(stmt, ast.Assign)
                 and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str)
                 for t in stmt.targets if isinstance(t, ast.Name)}
    for node in ast.walk(tree):
        func = node.func if isinstance(node, ast.Call) else None
        if (isinstance(func, ast.Name) and func.id == "setup") or \
                (isinstance(func, ast.Attribute) and func.attr == "setup"):
            assert isinstance(node, ast.Call)
            for kw in node.keywords:
                if kw.arg != "name":
                    continue
                if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                    yield kw.value.value
                elif isinstance(kw.value, ast.Name) and kw.value.id in constants:
                    yield constants[kw.value.id]


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)


def _pyproject(text: str, own: set[str]) -> Iterator[str]:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return
    project = data.get("project", {})
    poetry = data.get("tool", {}).get("poetry", {})
    for table in (project, poetry):
        if isinstance(table, dict) and isinstance(table.get("name"), str):
            own.add(table["name"])
    lines: list[str] = []
    if isinstance(project, dict):
        lines += _strings(project.get("dependencies", []))
        lines += _strings(project.get("optional-dependencies", {}))
    lines += _strings(data.get("dependency-groups", {}))
    lines += _strings(data.get("build-system", {}).get("requires", []))
    yield from (n for n in map(requirement_name, lines) if n)
    if isinstance(poetry, dict):
        tables = [poetry.get("dependencies"), poetry.get("dev-dependencies")]
        groups = poetry.get("group", {})
        if isinstance(groups, dict):
            tables += [g.get("dependencies") for g in groups.values() if isinstance(g, dict)]
        for table in tables:
            if isinstance(table, dict):
                yield from (k for k in table if k.lower() != "python")


def _setup_cfg(text: str, own: set[str]) -> Iterator[str]:
    parser = configparser.ConfigParser(interpolation=None)
    try:
        parser.read_string(text)
    except configparser.Error:
        return
    project = parser.get("metadata", "name", fallback="").strip()
    if project:
        own.add(project)
    raw = [parser.get(s, k, fallback="") for s, k in _CFG_KEYS]
    if parser.has_section("options.extras_require"):
        raw += [v for _, v in parser.items("options.extras_require")]
    for value in raw:
        for line in value.replace(";", "\n;").splitlines():
            name = requirement_name(line) if not line.startswith(";") else None
            if name:
                yield name


@functools.lru_cache(maxsize=1)
def installed_top_levels() -> Mapping[str, frozenset[str]]:
    """Normalised distribution name → the top-level import names it installed here."""
    import importlib.metadata  # only a patch adding a top-level module asks (PS808)
    out: dict[str, set[str]] = {}
    for top, dists in importlib.metadata.packages_distributions().items():
        if top.isidentifier():
            for dist in dists:
                out.setdefault(normalise(dist), set()).add(top)
    return {d: frozenset(t) for d, t in out.items()}


def import_names(dists: Iterable[str], known: Mapping[str, Iterable[str]],
                 installed: Mapping[str, frozenset[str]]) -> dict[str, str]:
    """Import name → the declared distribution that provides it. ``known``: normalised
    distribution → import names for distributions that are not installed."""
    out: dict[str, str] = {}
    for dist in sorted(dists):
        tops = installed.get(dist) or frozenset(known.get(dist, ())) or \
            frozenset({dist.replace("-", "_")})
        for top in sorted(tops):
            if top.isidentifier():
                out.setdefault(top, dist)
    return out
