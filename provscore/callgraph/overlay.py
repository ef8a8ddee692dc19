"""The graph after a patch as the base graph with the changed files re-read.

Resolving every name of a large tree again for each patch costs seconds (sympy: ~20 s);
a patch changes a handful of files. So the graph after it keeps every node and edge of
the unchanged files, drops those of the changed ones, and resolves only the changed
files' scopes, looking names up in the unchanged files' summaries on demand. What an
unchanged file contributes that depends on a changed one is redone too:

- edges from unchanged code into a changed file are kept when the file still defines
  their target (by name), and dropped when it does not;
- call sites in unchanged code that pass functions to a changed function (and decorators
  of a changed file applied in unchanged code) bind that function's parameters again;
- a changed call site that passes a function to an unchanged function binds it, and that
  function's calls of the parameter get their edges;
- subclasses in unchanged files are read off the base graph's inheritance edges.

- unchanged files that import a changed package ``__init__.py`` (directly, or through
  packages that import it) are re-read too: what they import from it may be a
  re-export the patch moved.

What the base resolved is reused where the patch cannot have changed it (given the base
graph's key, :mod:`provscore.callgraph.exports`): a module attribute of an unchanged module
from its stored export entry when no module its resolution read is changed, re-read or
gone, and an unchanged caller's replay from its call-site record (each site judged on
its own: those that may pass a function always, the others only when a module their
resolution read is changed, re-read or gone), when the patch adds or removes no module.

Two differences from a full build are kept. A call from unchanged code to a definition
the patch removed loses its edge (a full build gives it an ``unknown:`` edge), and the
call counts keep the base's outcome for it. A name an unchanged file imports through
a changed module that is not a package ``__init__.py`` (a re-export in a plain module)
keeps the target it had at base.

Where the fixtures visible to tests change, the update is refused (``None``) and the
caller builds the graph in full: when a changed, added or removed file is a
``conftest.py`` (its fixtures reach every test below it), when the tree's module names
change, or when a file that must be re-read has no summary.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterator, Mapping

from provscore.callgraph.cache import SummaryCache
from provscore.callgraph.digraph import Digraph
from provscore.callgraph.exports import ExportTables, StoredNamespaces
from provscore.callgraph.graph import (
    CallGraph,
    EdgeWriter,
    Symbol,
    add_module_nodes,
    bind_args,
    bound_names,
    call_edges,
    decorator_edges,
    fixture_edges,
    head,
    module_imports,
    node_name,
    total_stats,
)
from provscore.callgraph.modules import ModuleIndex, resolve_relative
from provscore.callgraph.resolve import Namespaces, Value
from provscore.callgraph.stored import StoredSymbols
from provscore.callgraph.summary import FileSummary, Scope
from provscore.change.collection import CollectionConfig
from provscore.nodeid import file_of


class _Summaries(Mapping[str, FileSummary]):
    """Module -> summary of the tree after the patch: changed files as given, the
    others loaded when first asked for; files that do not parse are absent."""

    def __init__(self, index: ModuleIndex, changed: Mapping[str, FileSummary],
                 load: Callable[[str], FileSummary | None]) -> None:
        self.index, self.changed, self.load = index, changed, load
        self._got: dict[str, FileSummary | None] = {}

    def _get(self, mod: str) -> FileSummary | None:
        if mod in self.changed:
            return self.changed[mod]
        if mod not in self._got:
            path = self.index.by_name.get(mod)
            self._got[mod] = self.load(path) if path is not None else None
        return self._got[mod]

    def __getitem__(self, mod: str) -> FileSummary:
        s = self._get(mod)
        if s is None or s.error:
            raise KeyError(mod)
        return s

    def __contains__(self, mod: object) -> bool:
        return isinstance(mod, str) and mod in self.index.by_name and \
            (s := self._get(mod)) is not None and not s.error

    def __iter__(self) -> Iterator[str]:
        return (m for m in self.index.by_name if m in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _OverlaidSymbols(Mapping[str, Symbol]):
    """The symbols after a patch: the changed files' own, then the base's of the other
    files, looked up in place rather than copied (a score asks for a few of them)."""

    def __init__(self, base: Mapping[str, Symbol], gone: frozenset[str],
                 own: dict[str, Symbol]) -> None:
        self.base, self.gone, self.own = base, gone, own

    def __getitem__(self, name: str) -> Symbol:
        hit = self.own.get(name)
        if hit is not None:
            return hit
        sym = self.base[name]
        if sym.path in self.gone:
            raise KeyError(name)
        return sym

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str):
            return False
        if name in self.own:
            return True
        path = self.base.path_of(name) if isinstance(self.base, StoredSymbols) else \
            (s.path if (s := self.base.get(name)) is not None else None)
        return path is not None and path not in self.gone

    def __iter__(self) -> Iterator[str]:
        yield from (n for n in self.base if n not in self.own and n in self)
        yield from self.own

    def __len__(self) -> int:
        return sum(1 for _ in self)


class _Scopes(Mapping[str, tuple[Scope, ...]]):
    def __init__(self, base: Mapping[str, tuple[Scope, ...]],
                 changed: Mapping[str, FileSummary | None], paths: Mapping[str, str]) -> None:
        self.base, self.changed, self.paths = base, changed, paths

    def __getitem__(self, path: str) -> tuple[Scope, ...]:
        if path in self.changed:
            s = self.changed[path]
            if s is None:
                raise KeyError(path)
            return s.scopes
        return self.base[path]

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def overlay_graph(base: CallGraph, changed: Mapping[str, FileSummary | None],
                  load: Callable[[str], FileSummary | None], config: CollectionConfig,
                  exports: tuple[SummaryCache | None, str] | None = None
                  ) -> CallGraph | None:
    """``base`` with the ``.py`` files of ``changed`` re-read (None: the file is gone);
    ``load`` gives the summary of a file at base. None: build the graph in full.
    ``exports``: where the base's export tables are stored (a cache, or None for this
    call only) and the base graph's key; without it every name is resolved anew."""
    if any(posixpath.basename(p) == "conftest.py" for p in changed):
        return None
    # A patch that adds or removes a module may change what an import name finds: no
    # stored export table is fresh for it.
    if exports is not None and any(s is None or p not in base.paths for p, s in changed.items()):
        exports = None
    importers = _importers_of_packages(base, changed, load)
    if importers is None:
        return None
    changed = {**changed, **importers}
    paths = [p for p in base.paths if p not in changed]
    paths += [p for p, s in changed.items() if s is not None]
    index = ModuleIndex(paths)
    if any(index.by_path.get(p) != m for p, m in base.paths.items() if p not in changed):
        return None
    mods = {index.by_path[p]: s for p, s in changed.items() if s is not None}
    gone = frozenset(changed)
    g, dangling = base.graph.without_paths(gone)
    own: dict[str, Symbol] = {}
    for path, summary in changed.items():
        if summary is not None:
            add_module_nodes(g, own, path, index.by_path[path], summary)
    symbols = _OverlaidSymbols(base.symbols, gone, own)
    into_changed: list[str] = []
    for u, v, kind in dangling:
        if v in g:
            g.add_edge(u, v, kind)
        into_changed.append(u)
    summaries = _Summaries(index, mods, load)
    reread = set(mods) | {base.paths[p] for p in changed if p in base.paths}
    tables = None if exports is None else \
        ExportTables(exports[0], exports[1], _Summaries(base.index, {}, load), base.index)
    ns = StoredNamespaces(summaries, index, _subclasses_from(base, mods), tables,
                          frozenset(reread))
    edges = EdgeWriter(g, ns)
    live = [m for m in mods if m in summaries]
    call_edges(ns, edges, live, lambda: _rebind(ns, edges, base.graph, set(mods), into_changed))
    _calls_of_new_bindings(ns, edges, set(mods))
    tests = {t: n for t, n in base.tests.items() if file_of(t) not in gone}
    tests.update(fixture_edges(ns, edges, live, config))
    if tables is not None:
        tables.save()
    counts = {m: c for m, c in base.module_stats.items() if m not in reread}
    for m, delta in edges.counts.items():  # changed modules anew, others' recounts
        was = counts.get(m, (0,) * len(delta))
        counts[m] = tuple(a + b for a, b in zip(was, delta, strict=True))
    unparsed = {p: e for p, e in base.unparsed.items() if p not in gone}
    unparsed.update((p, s.error) for p, s in changed.items() if s is not None and s.error)
    imports = {m: i for m, i in base.imports_by_module.items() if m not in reread}
    imports.update((m, module_imports(s)) for m, s in mods.items() if not s.error)
    g.drop_uncalled(edges.removed)  # outside nodes nothing calls any more, as in a full build
    return CallGraph(g, index, symbols, tests, dict(index.by_path), total_stats(counts.values()),
                     unparsed, _Scopes(base.scopes_by_path, changed, index.by_path), imports,
                     counts)


def _importers_of_packages(base: CallGraph, changed: Mapping[str, FileSummary | None],
                           load: Callable[[str], FileSummary | None]
                           ) -> dict[str, FileSummary | None] | None:
    """Unchanged files that import a name whose meaning a changed package ``__init__.py``
    changed (or that import the package as a module, or star-import it): the name may be
    a re-export the patch moved, so they are re-read with the changed files (their own
    summaries). A package ``__init__.py`` among them passes the change on to its own
    importers. None: a file to re-read has no summary."""
    index = base.index
    affected: dict[str, frozenset[str] | None] = {}  # package -> changed names (None: all)
    for p, s in changed.items():
        if posixpath.basename(p) == "__init__.py" and p in base.paths:
            names = _changed_exports(index, base.paths[p], load(p), s)
            if names != frozenset():
                affected[base.paths[p]] = names
    todo = list(affected)
    out: dict[str, FileSummary | None] = {}
    while todo:
        pkg = todo.pop()
        for u in base.graph.predecessors(pkg, "import"):
            mod = u.partition(":")[0]
            path = index.by_name.get(mod)
            if path is None or path in changed:
                continue
            summary = out.get(path) or load(path)
            if summary is None:
                return None
            passed = _takes(index, mod, summary, pkg, affected[pkg])
            if passed is False:
                continue
            out[path] = summary
            if posixpath.basename(path) == "__init__.py" and passed is not True:
                was = affected.get(mod, frozenset())
                now = None if passed is None or was is None else was | passed
                if now != was:
                    affected[mod] = now
                    todo.append(mod)
    return out


def _takes(index: ModuleIndex, mod: str, summary: FileSummary, pkg: str,
           names: frozenset[str] | None) -> frozenset[str] | bool | None:
    """What importer ``mod`` takes of the changed ``names`` of ``pkg``: False nothing,
    else the names it binds to them itself (None: all it binds, for a module or star
    import; True: only names inside functions, which it does not export)."""
    bound: set[str] = set()
    for scope, local, module, name, level in summary.imports:
        if name:
            target = index.find(resolve_relative(mod, index.is_package(mod), module, level),
                                mod)
        else:
            target = index.find(module, mod)
        if target != pkg:
            continue
        if not name or name == "*":
            return None
        if names is None or name in names:
            if scope != 0:
                bound.add("")
            else:
                bound.add(local)
    if not bound:
        return False
    exported = frozenset(bound - {""})
    return exported if exported else True


def _changed_exports(index: ModuleIndex, mod: str, before: FileSummary | None,
                     after: FileSummary | None) -> frozenset[str] | None:
    """The module-level names of a package whose meaning the patch changed: bound
    otherwise (definitions compared by name, not by where they are), gone, or new and
    shadowing a submodule. None: all of them (a side does not parse). A package that
    adds an export (the usual edit) changes none."""
    if before is None or after is None or before.error or after.error:
        return None
    old, new = _exports(before), _exports(after)
    changed = {name for name, binding in old.items() if new.get(name) != binding}
    changed |= {name for name in new.keys() - old.keys() if index.find(f"{mod}.{name}", mod)}
    return frozenset(changed)


def _exports(summary: FileSummary) -> dict[str, list[object]]:
    scopes = summary.scopes
    out: dict[str, list[object]] = {}
    for name, bindings in Namespaces.fill(summary)[0].items():
        out[name] = [(kind, scopes[data].qualname, scopes[data].kind) if kind == "scope"
                     else (kind, data[1]) if kind == "assign" else (kind, data)
                     for kind, data in bindings]
    return out


def _subclasses_from(base: CallGraph, changed: Mapping[str, object]
                     ) -> Callable[[Namespaces, str, int, str], Iterator[tuple[str, int]]]:
    """Subclasses of a class that may define a method ``name``: those of unchanged files
    from the base graph's inheritance edges, read only when the base graph has a node
    for their ``name`` (a subclass of ``Basic`` in sympy is one of thousands: reading each
    module to look for an override costs more than the rest of the update); those of
    changed files by their method resolution order."""
    others = frozenset(base.graph.kind_names()) - {"inherit"}
    memo: dict[tuple[str, int], tuple[list[Symbol], list[tuple[str, int]]]] = {}

    def subclasses(ns: Namespaces, mod: str, cls: int) -> tuple[list[Symbol],
                                                                 list[tuple[str, int]]]:
        key = (mod, cls)
        if key in memo:
            return memo[key]
        memo[key] = ([], [])  # a cycle of bases sees none
        unchanged = [sym for name in sorted(base.graph.ancestors(
                         node_name(mod, ns.scope(mod, cls).qualname), others))
                     if (sym := base.symbols.get(name)) is not None
                     and sym.module not in changed]
        mine = [(m, i) for m in changed if m in ns.modules
                for i, s in enumerate(ns.modules[m].scopes)
                if s.kind == "class" and key in ns.mro(m, i)[1:]]
        memo[key] = (unchanged, mine)
        return memo[key]

    def defining(ns: Namespaces, mod: str, cls: int, name: str
                 ) -> Iterator[tuple[str, int]]:
        # A generator: the caller stops reading modules once the overrides are too many.
        unchanged, mine = subclasses(ns, mod, cls)
        for sym in unchanged:
            if f"{sym.name}.{name}" in base.symbols and sym.module in ns.modules:
                yield from ((sym.module, i) for i in _scope_indices(ns, sym.module, sym.qualname)
                            if ns.scope(sym.module, i).kind == "class")
        yield from mine

    return defining


def _scope_indices(ns: Namespaces, mod: str, qualname: str) -> list[int]:
    """The scopes of ``mod`` a node name stands for (a name defined twice is one node)."""
    return [i for i, s in enumerate(ns.modules[mod].scopes) if s.qualname == qualname]


class _ScopeTree:
    """Per module, built once: scope indices by qualname and child scopes by parent, so
    replaying thousands of callers does not walk every scope of their modules for each."""

    def __init__(self, ns: Namespaces) -> None:
        self.ns = ns
        self._by: dict[str, tuple[dict[str, list[int]], dict[int, list[int]]]] = {}

    def of(self, mod: str) -> tuple[dict[str, list[int]], dict[int, list[int]]]:
        hit = self._by.get(mod)
        if hit is None:
            named: dict[str, list[int]] = {}
            children: dict[int, list[int]] = {}
            for i, s in enumerate(self.ns.modules[mod].scopes):
                named.setdefault(s.qualname, []).append(i)
                children.setdefault(s.parent, []).append(i)
            hit = self._by[mod] = (named, children)
        return hit


def _bind_again(ns: Namespaces, edges: EdgeWriter, tree: _ScopeTree, callers: list[str],
                wanted: Callable[[Value], bool]) -> None:
    """Unchanged scopes that call functions ``wanted`` holds, or whose definitions have
    decorators, bind their parameters again: the base graph's bindings are not kept, so
    every call site a full build would see binds anew. (An edge keeps the first kind it
    was added with, so a caller is not told by its edge's kind: each does both.)"""
    for name in dict.fromkeys(callers):
        mod, _, qual = name.partition(":")
        if _replay_stored(ns, edges, name, wanted):
            continue
        if mod not in ns.modules:
            continue
        scopes = ns.modules[mod].scopes
        named, children = tree.of(mod)
        for i in named.get(qual, ()):
            for j in children.get(i, ()):
                for dec in scopes[j].decorators:
                    decorator_edges(ns, edges, mod, j, name,
                                    node_name(mod, scopes[j].qualname), dec)
            for _line, ref, args in scopes[i].calls:
                if args:
                    callee = ns.resolve(mod, i, ref)
                    if any(wanted(v) for v in callee):
                        bind_args(ns, edges, name, mod, i, callee, args, ref)


def _replay_stored(ns: Namespaces, edges: EdgeWriter, name: str,
                   wanted: Callable[[Value], bool]) -> bool:
    """Replay only what the base's record of caller ``name`` says can bind (its
    decorators and calls that may pass a function, and those whose resolution read a
    changed module): the other call sites bind nothing, so neither they nor (when
    nothing is left) the caller's module are read. False: no record, or the caller's
    module is changed or re-read; replay every call site."""
    if not isinstance(ns, StoredNamespaces) or ns.exports is None:
        return False
    mod, _, qual = name.partition(":")
    if mod in ns.stale:
        return False
    record = ns.exports.sites(mod, qual)
    if record is None:
        return False
    ns.replayed += 1
    always, quiet = record
    stale = [site for reads, sites in quiet if reads & ns.stale for site in sites]
    for _, (kind, i, ref, args), at_base in sorted(always + tuple(stale)) if stale else always:
        if kind == "dec":
            node = node_name(mod, ns.modules[mod].scopes[i].qualname)
            decorator_edges(ns, edges, mod, i, name, node, ref)
            continue
        # A callee that resolves as at base (nothing it read changed) and holds nothing
        # wanted binds nothing: neither it nor the caller's module is read again.
        if at_base is not None and not at_base[1] & ns.stale and \
                not any(wanted(v) for v in at_base[0]):
            continue
        callee = ns.resolve(mod, i, ref)
        if any(wanted(v) for v in callee):
            bind_args(ns, edges, name, mod, i, callee, args, ref)
    return True


def _rebind(ns: Namespaces, edges: EdgeWriter, base: Digraph, changed: set[str],
            into_changed: list[str]) -> None:
    """Every binding of a parameter a full build would make, for the functions whose
    parameter calls the overlay resolves: those of changed files (their unchanged call
    sites bind again), and unchanged functions a changed call site bound (all their
    call sites in the base graph bind again, so the values are as many as a full build
    finds)."""
    tree = _ScopeTree(ns)
    mine = [u for u in into_changed if u.partition(":")[0] not in changed]
    _bind_again(ns, edges, tree, mine, lambda v: v[0] in ("S", "BM") and v[1] in changed)
    funcs = {(m, i) for m, i, _ in ns.params if m not in changed}
    callers = [u for m, i in sorted(funcs)
               for u in base.predecessors(node_name(m, ns.scope(m, i).qualname))
               if u.partition(":")[0] not in changed]
    _bind_again(ns, edges, tree, callers,
                lambda v: v[0] in ("S", "BM") and (v[1], int(v[2])) in funcs)


def _calls_of_new_bindings(ns: Namespaces, edges: EdgeWriter, changed: set[str]) -> None:
    """Parameters of unchanged functions that changed call sites bound: their calls of
    the parameter (in the function or in functions nested in it) get edges. The base
    graph counted these calls already: one it left unknown that resolves now is counted
    again."""
    for mod, i, param in sorted(k for k in ns.params if k[0] not in changed):
        if mod not in ns.modules:
            continue
        scopes = ns.modules[mod].scopes
        for j, s in enumerate(scopes):
            if not _within(scopes, j, i) or param not in bound_names(scopes, j):
                continue
            src = node_name(mod, s.qualname)
            for _line, ref, _args in s.calls:
                if head(ref) == param:
                    was_unknown = edges.g.has_edge(src, f"unknown:{ref}")
                    outcome = edges.call(src, ns.resolve(mod, j, ref), ref, count=False)
                    if was_unknown:
                        edges.recount(src, ref, outcome)


def _within(scopes: tuple[Scope, ...], j: int, i: int) -> bool:
    while j >= 0:
        if j == i:
            return True
        j = scopes[j].parent
    return False
