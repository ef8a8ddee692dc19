"""Resolved export tables: what a name a module exports resolves to, stored with the base
graph so that the graph after a patch resolves a changed file's names without reading
the modules a re-export chain passes through.

An entry is ``(module, name) -> (values, reads, span)``: the values
:meth:`Namespaces.module_attr` gives at base, every module the resolution read, and the
deepest resolution depth it reached. It is computed at base (a resolver of its own over
the base summaries, memos dropped before each name, so nothing another name resolved
earlier leaks in) and is kept only when it is a function of the modules it read: a
resolution that read a bound parameter (call sites bind those), the subclasses of a class
(the graph after a patch reads them off the base graph), or that met a name still being
resolved (a cycle) or the depth limit, is not kept, and the graph after the patch
resolves that name as it always did.

The graph after a patch uses an entry when no module it read is changed (or re-read,
or gone) and the patch adds or removes no module (module names found through the index
could then mean another file), and when its span fits the depth the lookup starts at.
Otherwise the name is resolved anew. Entries are computed the first time a patch needs
them and stored in the summary cache under the base graph's key (one row per module, a
digest per row: a row that does not verify is dropped and recomputed, never trusted).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from provscore.callgraph.cache import SummaryCache
from provscore.callgraph.modules import ModuleIndex
from provscore.callgraph.resolve import _MAX_DEPTH, Binding, Namespaces, Value
from provscore.callgraph.summary import FileSummary

#: The layout of an export row; a row of another layout is recomputed.
EXPORTS_FORMAT = 3
#: (values, modules read, span); None: not a function of the modules it read.
Entry = tuple[frozenset[Value], frozenset[str], int] | None
#: A call site or decorator to replay: ("call", scope, ref, args) | ("dec", child, ref, ()).
Site = tuple[str, int, str, tuple[tuple[str, str], ...]]
#: What a call site's callee resolved to at base and every module that read: the replay
#: of a caller uses it to pass over a call whose callee it cannot want (None: unsure, or
#: not kept for the site).
Callee = tuple[frozenset[Value], frozenset[str]] | None
#: A site, its place among the caller's sites (replays keep the order a full one has),
#: and its callee.
Placed = tuple[int, Site, Callee]
#: Of one caller node: the sites always replayed (they may bind), and groups of sites
#: that bound nothing at base, each with the modules its resolution read (replayed only
#: when one of those is changed); None: replay every call site.
Sites = tuple[tuple[Placed, ...], tuple[tuple[frozenset[str], tuple[Placed, ...]], ...]] | None
_SITES = "sites:"  # the row of a module's call sites (module names hold no colon)


def _has_function(ns: Namespaces, values: AbstractSet[Value]) -> bool:
    return any(v[0] in ("S", "BM") and ns.scope(v[1], int(v[2])).kind == "function"
               for v in values)


class _Reads(Mapping[str, FileSummary]):
    """The base summaries, noting every module looked at (present or not)."""

    def __init__(self, modules: Mapping[str, FileSummary]) -> None:
        self.modules = modules
        self.read: set[str] = set()

    def __getitem__(self, mod: str) -> FileSummary:
        self.read.add(mod)
        return self.modules[mod]

    def __contains__(self, mod: object) -> bool:
        if isinstance(mod, str):
            self.read.add(mod)
        return mod in self.modules

    def __iter__(self) -> Iterator[str]:
        raise TypeError("an export table never walks every module")

    def __len__(self) -> int:
        return len(self.modules)


class _Recording(Namespaces):
    """A resolver over the base tree that notes what each export's resolution read and
    whether it depended on anything but those modules' summaries."""

    def __init__(self, modules: Mapping[str, FileSummary], index: ModuleIndex) -> None:
        self.reads = _Reads(modules)
        super().__init__(self.reads, index)
        self.unsure = False
        self.span = 0
        self._walking: set[tuple[str, int]] = set()

    def _begin(self) -> None:
        """Before each entry: nothing resolved for another one leaks in."""
        self.forget()
        self._mro.clear()
        self.reads.read = set()
        self.unsure, self.span = False, 0

    def export(self, mod: str, name: str) -> Entry:
        self._begin()
        values = frozenset(self.module_attr(mod, name, 0))
        if self.unsure or self.span > _MAX_DEPTH:
            return None
        return values, frozenset(self.reads.read), self.span

    def sites(self, mod: str, qual: str) -> Sites:
        """What replaying the call sites of node ``mod:qual`` can bind: the decorators of
        its children and its calls with an argument, each judged on its own. One that
        resolves to a function, or whose resolution depended on more than the modules it
        read (a bound parameter, a cycle, the depth limit), is always replayed; one that
        does not is replayed only when a module its resolution read is changed (the
        others bind nothing, whatever they call)."""
        self._begin()
        if mod not in self.reads:
            return None
        scopes = self.reads[mod].scopes
        always: list[Placed] = []
        quiet: dict[frozenset[str], list[Placed]] = {}

        def judge(site: Site, scope: int, refs: Iterable[str]) -> None:
            self._begin()  # each site on its own: no memo of another hides what it read
            n = len(always) + sum(map(len, quiet.values()))
            if any(_has_function(self, self.resolve(mod, scope, r)) for r in refs) \
                    or self.unsure:
                callee: Callee = None
                if site[0] == "call":
                    self._begin()
                    values = frozenset(self.resolve(mod, scope, site[2]))
                    callee = None if self.unsure else (values, frozenset(self.reads.read))
                always.append((n, site, callee))
            else:
                quiet.setdefault(frozenset(self.reads.read), []).append((n, site, None))

        for i, s in enumerate(scopes):
            if s.qualname != qual:
                continue
            for j, child in enumerate(scopes):
                if child.parent == i:
                    for dec in child.decorators:
                        judge(("dec", j, dec, ()), i, (dec,))
            for _line, ref, args in s.calls:
                if args:
                    judge(("call", i, ref, args), i, [a for _, a in args])
        return tuple(always), tuple(sorted((reads, tuple(sites))
                                           for reads, sites in quiet.items()))

    def table(self, mod: str, i: int) -> dict[str, list[Binding]]:
        self.reads.read.add(mod)
        return super().table(mod, i)

    def resolve(self, mod: str, scope: int, ref: str, depth: int = 0) -> AbstractSet[Value]:
        self.span = max(self.span, depth)
        if depth > _MAX_DEPTH or self._refs.get((mod, scope, ref)) == frozenset():
            self.unsure = True  # the depth limit, or a cycle: depends on the way here
        return super().resolve(mod, scope, ref, depth)

    def _binding(self, mod: str, i: int, b: Binding, depth: int) -> set[Value]:
        self.span = max(self.span, depth)
        if depth > _MAX_DEPTH and b[0] != "scope":
            self.unsure = True
        return super()._binding(mod, i, b, depth)

    def _param(self, mod: str, i: int, name: str) -> set[Value]:
        scopes = self.reads[mod].scopes
        s = scopes[i]
        if not (s.parent >= 0 and scopes[s.parent].kind == "class" and s.params
                and s.params[0] == name):  # self and cls are what the class says
            self.unsure = True  # what call sites bound: the patch may bind more
        return super()._param(mod, i, name)

    def class_attr(self, mod: str, cls: int, name: str, depth: int, *, skip: int = 0,
                   bound: bool = False) -> AbstractSet[Value]:
        if self._attrs.get((mod, cls, name, skip, bound)) == frozenset():
            self.unsure = True
        return super().class_attr(mod, cls, name, depth, skip=skip, bound=bound)

    def mro(self, mod: str, cls: int) -> list[tuple[str, int]]:
        key = (mod, cls)
        if key in self._walking:
            self.unsure = True  # a cycle of bases: the order depends on the way here
            return super().mro(mod, cls)
        self._walking.add(key)
        try:
            return super().mro(mod, cls)
        finally:
            self._walking.discard(key)

    def overrides(self, mod: str, cls: int, name: str) -> AbstractSet[Value]:
        self.unsure = True  # subclasses come from elsewhere after a patch
        return frozenset()


class ExportTables:
    """Export entries and call-site records of one base graph: read from the cache a
    module at a time, computed over the base summaries when absent, written back by
    :meth:`save`."""

    def __init__(self, cache: SummaryCache | None, key: str,
                 base: Mapping[str, FileSummary], index: ModuleIndex) -> None:
        self.cache, self.key = cache, key
        self._resolver = _Recording(base, index)
        self._rows: dict[str, dict[str, Any]] = {}
        # Call-site records as stored, checked when their caller is first asked about (a
        # module's row holds every caller ever asked; a patch asks about a few of them)
        self._stored_sites: dict[str, dict[str, Any]] = {}
        self._dirty: set[str] = set()
        self.computed = 0  # entries resolved here (the rest came from the cache)

    def _row(self, row_key: str) -> dict[str, Any]:
        row = self._rows.get(row_key)
        if row is None:
            row = self._rows[row_key] = self._read(row_key)
        return row

    def entry(self, mod: str, name: str) -> Entry:
        row = self._row(mod)
        if name not in row:
            row[name] = self._resolver.export(mod, name)
            self._dirty.add(mod)
            self.computed += 1
        got: Entry = row[name]
        return got

    def sites(self, mod: str, qual: str) -> Sites:
        row_key = _SITES + mod
        row = self._row(row_key)
        if qual not in row:
            stored = self._stored_sites.get(row_key, {})
            try:
                row[qual] = _read_record(stored.pop(qual))
            except (KeyError, TypeError, ValueError, IndexError):  # absent, or does not read
                row[qual] = self._resolver.sites(mod, qual)
                self._dirty.add(row_key)
                self.computed += 1
        got: Sites = row[qual]
        return got

    def _read(self, row_key: str) -> dict[str, Any]:
        rec: Any = self.cache.get_exports(self.key, row_key) if self.cache is not None else None
        if rec is None:
            return {}
        try:
            fmt, entries = rec  # any shape: checked here
            if fmt != EXPORTS_FORMAT:
                raise ValueError(fmt)
            if row_key.startswith(_SITES):
                self._stored_sites[row_key] = {str(qual): e for qual, e in entries}
                return {}
            return {str(name): None if e is None else
                    (frozenset(tuple(str(x) for x in v) for v in e[0]),
                     frozenset(str(m) for m in e[1]), int(e[2]))
                    for name, e in entries}
        except (TypeError, ValueError, IndexError):
            return {}  # a row that does not read is recomputed, never trusted

    def save(self) -> None:
        if self.cache is None:
            return
        for row_key in sorted(self._dirty):
            sites = row_key.startswith(_SITES)
            entries = tuple(sorted(
                [(name, None if e is None else
                  (_stored_sites(e[0]), tuple((tuple(sorted(reads)), _stored_sites(group))
                                            for reads, group in e[1])) if sites
                  else (tuple(sorted(e[0])), tuple(sorted(e[1])), e[2]))
                 for name, e in self._rows[row_key].items()]
                + list(self._stored_sites.get(row_key, {}).items())))
            self.cache.put_exports(self.key, row_key, (EXPORTS_FORMAT, entries))
        self._dirty.clear()


def _read_record(e: Any) -> Sites:
    if e is None:
        return None
    always, quiet = e
    return _read_sites(always), tuple((frozenset(str(m) for m in reads), _read_sites(sites))
                                      for reads, sites in quiet)


def _read_sites(rec: Any) -> tuple[Placed, ...]:
    return tuple((int(n), (str(k), int(i), str(ref), tuple((str(a), str(b)) for a, b in args)),
                  None if callee is None else
                  (frozenset(tuple(str(x) for x in v) for v in callee[0]),
                   frozenset(str(m) for m in callee[1])))
                 for n, (k, i, ref, args), callee in rec)


def _stored_sites(sites: tuple[Placed, ...]) -> tuple[object, ...]:
    return tuple((n, site, None if callee is None else
                  (tuple(sorted(callee[0])), tuple(sorted(callee[1]))))
                 for n, site, callee in sites)


class StoredNamespaces(Namespaces):
    """The resolver of the graph after a patch: a module attribute of an unchanged module
    comes from the base's export table when its entry is fresh for this patch."""

    def __init__(self, modules: Mapping[str, FileSummary], index: ModuleIndex,
                 subclasses: Callable[[Namespaces, str, int, str], Iterable[tuple[str, int]]],
                 exports: ExportTables | None, stale: frozenset[str]) -> None:
        super().__init__(modules, index, subclasses)
        self.exports, self.stale = exports, stale
        self.used = 0  # module attributes answered from the table
        self.replayed = 0  # callers replayed from their record

    def module_attr(self, mod: str, name: str, depth: int) -> set[Value]:
        if self.exports is not None and mod not in self.stale:
            e = self.exports.entry(mod, name)
            if e is not None and depth + e[2] <= _MAX_DEPTH and not (e[1] & self.stale):
                self.used += 1
                return set(e[0])
        return super().module_attr(mod, name, depth)
