"""Who owns a literal (PS805), and what the patch changed (PS809), from the call graph.

For each function or method the patch changed, the base tests that reach it (the call
graph's :class:`~provscore.callgraph.touched.TouchedSymbol`) are read at base and their
assertion and ``parametrize`` literals collected; the first test (in id order) that uses a
literal owns it. Entry points are read from base's ``pyproject.toml`` and ``setup.cfg``.
"""

from __future__ import annotations

import ast
import configparser
import tomllib
from collections.abc import Callable, Iterable, Mapping, Sequence

from provscore.callgraph.touched import TouchedSymbol
from provscore.grader.special import Owners, test_literals
from provscore.nodeid import file_of, without_params

_UNITS = ("function", "method", "class")


def changed_symbols(touched: Iterable[TouchedSymbol]) -> frozenset[str]:
    """``pkg.mod:Cls.meth`` → ``pkg.mod.Cls.meth`` for every changed unit."""
    return frozenset(t.name.replace(":", ".") for t in touched if t.kind in _UNITS)


def literal_owners(touched: Sequence[TouchedSymbol],
                   read_base: Callable[[list[str]], Mapping[str, bytes | None]]
                   ) -> dict[str, dict[str, Owners]]:
    """Source path → function qualname → literal key → the owning test id."""
    units = [t for t in touched if t.kind in ("function", "method") and t.tests and
             ":" in t.name]
    files = sorted({file_of(n) for t in units for n in t.tests})
    if not files:
        return {}
    sources = read_base(files)
    trees: dict[str, ast.Module | None] = {}
    # A test reaching many changed units is read once (parametrized ids share one too).
    literals: dict[tuple[str, ...], frozenset[str]] = {}
    out: dict[str, dict[str, Owners]] = {}
    for t in units:
        owners: dict[str, str] = {}
        for node_id in sorted(t.tests):
            path, *parts = without_params(node_id).split("::")
            key_of = (path, *parts)
            if key_of not in literals:
                if path not in trees:
                    trees[path] = _parse(sources.get(path))
                tree = trees[path]
                literals[key_of] = frozenset() if tree is None \
                    else frozenset(_literals_of(tree, parts))
            for key in literals[key_of]:
                owners.setdefault(key, node_id)
        if owners:
            out.setdefault(t.path, {})[t.name.split(":", 1)[1]] = owners
    return out


def _parse(source: bytes | None) -> ast.Module | None:
    if source is None:
        return None
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _literals_of(tree: ast.Module, parts: list[str]) -> set[str]:
    body: list[ast.stmt] = tree.body
    decorators: list[ast.expr] = []
    for i, name in enumerate(parts):
        node = next((n for n in body if isinstance(
            n, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name), None)
        if node is None:
            return set()
        decorators.extend(node.decorator_list)
        if isinstance(node, ast.ClassDef):
            body = node.body
        elif i == len(parts) - 1:
            return test_literals(node, decorators)
        else:
            return set()
    return set()


def console_scripts(pyproject: bytes | None, setup_cfg: bytes | None) -> list[str]:
    """The ``module:function`` targets of base's declared console and GUI scripts."""
    out: list[str] = []
    if pyproject:
        try:
            data = tomllib.loads(pyproject.decode("utf-8", "replace"))
        except tomllib.TOMLDecodeError:
            data = {}
        project = data.get("project", {})
        tables = [project.get("scripts", {}), project.get("gui-scripts", {}),
                  data.get("tool", {}).get("poetry", {}).get("scripts", {})]
        tables += list(project.get("entry-points", {}).values())
        for table in tables:
            if isinstance(table, dict):
                out.extend(str(v) for v in table.values() if isinstance(v, str))
    if setup_cfg:
        parser = configparser.ConfigParser(interpolation=None)
        try:
            parser.read_string(setup_cfg.decode("utf-8", "replace"))
            raw = parser.get("options.entry_points", "console_scripts", fallback="")
        except configparser.Error:
            raw = ""
        out.extend(line.split("=", 1)[1] for line in raw.splitlines() if "=" in line)
    return [e.strip() for e in out if e.strip()]
