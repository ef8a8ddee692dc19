"""Who owns a literal (PS805), and what the patch changed (PS809), from the call graph.

For each function or method the patch changed, the base tests that reach it (the call
graph's :class:`~provscore.callgraph.touched.TouchedSymbol`) are read at base and their
assertion and ``parametrize`` literals collected; the first test (in id order) that uses a
literal owns it. When no base test reaches it through the graph (a call the graph cannot
follow: ``getattr(mod, "f")``, a fixture handing the function over, a test table of
callables), every base test of every test module that imports the function's module
(the base graph's resolved import edges: relative imports, ``import pkg.mod`` and ``from
pkg import mod``) is read instead. Entry points are read from base's ``pyproject.toml`` and
``setup.cfg``.
"""

from __future__ import annotations

import ast
import configparser
import tomllib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from provscore.grader.special import Owners, test_literals
from provscore.nodeid import file_of, without_params

if TYPE_CHECKING:
    from provscore.callgraph.graph import CallGraph
    from provscore.callgraph.touched import TouchedSymbol

_UNITS = ("function", "method", "class")


def changed_symbols(touched: Iterable[TouchedSymbol]) -> frozenset[str]:
    """``pkg.mod:Cls.meth`` → ``pkg.mod.Cls.meth`` for every changed unit."""
    return frozenset(t.name.replace(":", ".") for t in touched if t.kind in _UNITS)


def importing_tests(graph: CallGraph, test_ids: Iterable[str]
                    ) -> Callable[[str], tuple[str, ...]]:
    """Module name → the ids of ``test_ids`` in base test modules that import it (an
    import anywhere in the test module, a test function's own included)."""
    by_module: dict[str, list[str]] = {}
    for node_id in sorted(test_ids):
        module = graph.paths.get(file_of(node_id))
        if module is not None:
            by_module.setdefault(module, []).append(node_id)

    def tests_of(module: str) -> tuple[str, ...]:
        if module not in graph.graph:
            return ()
        found: set[str] = set()
        for src in graph.graph.predecessors(module, "import"):
            sym = graph.symbols.get(src)
            importer = sym.module if sym is not None else src
            if importer != module:
                found.update(by_module.get(importer, ()))
        return tuple(sorted(found))
    return tests_of


def literal_owners(touched: Sequence[TouchedSymbol],
                   read_base: Callable[[list[str]], Mapping[str, bytes | None]],
                   importers: Callable[[str], tuple[str, ...]] = lambda module: ()
                   ) -> dict[str, dict[str, Owners]]:
    """Source path → function qualname → literal key → the owning test id.
    ``importers``: a module's base tests by import, for what the graph finds no test of.

    The tables are read from the tests when first looked up: a changed function of a
    large project is reached by thousands of tests in hundreds of files, and only a
    changed branch on a non-trivial literal asks (most patches have none)."""
    corpus = _TestCorpus(read_base)
    out: dict[str, dict[str, Owners]] = {}
    for t in touched:
        if t.kind in ("function", "method") and ":" in t.name:
            tests = t.tests or importers(t.name.split(":", 1)[0])
            if tests:
                out.setdefault(t.path, {})[t.name.split(":", 1)[1]] = \
                    _owners(tuple(sorted(tests)), corpus)
    return out


class _TestCorpus:
    """Base test files, each read and parsed once, and each test's literals."""

    def __init__(self, read_base: Callable[[list[str]], Mapping[str, bytes | None]]) -> None:
        self.read_base = read_base
        self.trees: dict[str, ast.Module | None] = {}
        # A test reaching many changed units is read once (parametrized ids share one).
        self.literals: dict[tuple[str, ...], frozenset[str]] = {}

    def literals_of(self, tests: Sequence[str]) -> list[tuple[str, frozenset[str]]]:
        wanted = sorted({file_of(n) for n in tests} - self.trees.keys())
        if wanted:
            sources = self.read_base(wanted)
            for path in wanted:
                self.trees[path] = _parse(sources.get(path))
        out = []
        for node_id in tests:
            path, *parts = without_params(node_id).split("::")
            key = (path, *parts)
            if key not in self.literals:
                tree = self.trees.get(path)
                self.literals[key] = frozenset() if tree is None \
                    else frozenset(_literals_of(tree, parts))
            out.append((node_id, self.literals[key]))
        return out


class LazyTable(Mapping[str, str]):
    """A table worked out by ``make`` when first read (the grader's inputs that cost
    more than most patches ever need)."""

    def __init__(self, make: Callable[[], dict[str, str]]) -> None:
        self._make = make
        self._table: dict[str, str] | None = None

    def _get(self) -> dict[str, str]:
        if self._table is None:
            self._table = self._make()
        return self._table

    def __getitem__(self, key: str) -> str:
        return self._get()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())


def _owners(tests: tuple[str, ...], corpus: _TestCorpus) -> LazyTable:
    """Literal key → the first test (in id order) whose literals hold it."""
    def make() -> dict[str, str]:
        owners: dict[str, str] = {}
        for node_id, keys in corpus.literals_of(tests):
            for key in keys:
                owners.setdefault(key, node_id)
        return owners
    return LazyTable(make)


def _parse(source: bytes | None) -> ast.Module | None:
    if source is None:
        return None
    try:
        return ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _module_tables(tree: ast.Module) -> dict[str, ast.expr]:
    """Module-level names bound once, to a literal tuple, list or set (a table of cases a
    test loops over: ``TEST_TOKENS = (...)``)."""
    bound: dict[str, list[ast.expr | None]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign):
            for target in stmt.targets:
                for name in ast.walk(target):
                    if isinstance(name, ast.Name):
                        value = stmt.value if target is name else None
                        bound.setdefault(name.id, []).append(value)
        elif isinstance(stmt, ast.AnnAssign | ast.AugAssign) and \
                isinstance(stmt.target, ast.Name):
            bound.setdefault(stmt.target.id, []).extend([None, None])
    return {name: values[0] for name, values in bound.items()
            if len(values) == 1 and isinstance(values[0], ast.Tuple | ast.List | ast.Set)}


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
            return test_literals(node, decorators, _module_tables(tree))
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
