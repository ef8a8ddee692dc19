"""The call graph: modules, classes, functions and methods of a tree, and the
calls, imports, inheritance, decorators and fixture requests between them.

Nodes are named ``pkg.mod`` (a module) and ``pkg.mod:Class.method`` (a symbol); what the
tree does not define is ``external:numpy.array``, ``builtin:len`` or ``unknown:obj.run``
(a call whose callee cannot be told). Every call becomes an edge: unresolvable ones go
to their named external or unknown node and are counted in :attr:`CallGraph.stats`, never
dropped. Edge ``kind``: ``call``, ``import``, ``inherit``, ``decorator`` (the scope that
applies it calls it), ``wrapped`` (calling a decorated function runs its decorator's
wrapper), ``body`` (a class body runs with its enclosing scope), ``fixture`` (a test or
fixture requests a fixture).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import field

from provscore.callgraph.digraph import Digraph
from provscore.callgraph.modules import ModuleIndex, resolve_relative
from provscore.callgraph.resolve import Namespaces, Value, ordered
from provscore.callgraph.summary import FileSummary, Scope, paused_gc
from provscore.change.collection import CollectionConfig
from provscore.records import dataclass

# Builtins that never call the functions passed to them.
_NO_CALL = frozenset({"isinstance", "issubclass", "id", "hasattr", "getattr", "setattr",
                      "delattr", "print", "repr", "type", "len", "hash", "vars", "dir",
                      "callable", "str", "super", "format"})
# Code outside the tree that keeps a function handed to it rather than calling it: a
# container's or a parser's store (`receivers.append(f)`, `set_defaults(func=f)`), and
# what wraps it for later (`functools.partial(f)`). Whoever calls it later is the caller.
_STORES = frozenset({"append", "appendleft", "extend", "extendleft", "insert", "add",
                     "setdefault", "set_defaults", "put", "put_nowait", "push"})
_STORED_BY = frozenset({"functools.partial", "functools.partialmethod", "weakref.ref",
                        "weakref.WeakMethod", "weakref.proxy", "weakref.finalize"})


@dataclass(frozen=True, slots=True)
class Symbol:
    """One definition of the tree: where it is and what it is."""

    name: str  # graph node name
    module: str
    qualname: str  # "" for the module
    kind: str  # module | class | function | method
    path: str
    start: int
    end: int


@dataclass
class CallGraph:
    """The graph and the tables built with it (read-only once built)."""

    graph: Digraph
    index: ModuleIndex
    symbols: Mapping[str, Symbol]
    tests: dict[str, str]  # test node id (path::Class::test) -> the node its code is
    paths: dict[str, str]  # path -> module node
    stats: dict[str, int] = field(default_factory=dict)
    unparsed: dict[str, str] = field(default_factory=dict)  # path -> why ast failed
    scopes_by_path: Mapping[str, tuple[Scope, ...]] = field(default_factory=dict)
    imports_by_module: dict[str, tuple[str, ...]] = field(default_factory=dict)  # absolute
    # module -> its scopes' call outcomes, in STATS order (stats is their sum)
    module_stats: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def symbol_at(self, path: str, line: int) -> str | None:
        """The innermost symbol of ``path`` enclosing ``line`` (the module when none)."""
        module = self.paths.get(path)
        if module is None:
            return None
        best: Scope | None = None
        for s in self.scopes_by_path.get(path, ()):
            if s.kind != "module" and s.start <= line <= s.end and \
                    (best is None or s.start >= best.start):
                best = s
        return f"{module}:{best.qualname}" if best is not None else module


def node_name(module: str, qualname: str) -> str:
    return f"{module}:{qualname}" if qualname else module


def _symbol_kind(scopes: tuple[Scope, ...], s: Scope) -> str:
    if s.kind == "function" and s.parent >= 0 and scopes[s.parent].kind == "class":
        return "method"
    return s.kind


#: What :attr:`CallGraph.stats` counts: every call, and each outcome.
STATS = ("calls", "resolved", "external", "builtin", "unknown")
_STAT = {name: k for k, name in enumerate(STATS)}


def total_stats(per_module: Iterable[Sequence[int]]) -> dict[str, int]:
    totals = [0] * len(STATS)
    for row in per_module:
        for k, n in enumerate(row):
            totals[k] += n
    return dict(zip(STATS, totals, strict=True))


class EdgeWriter:
    """Adds edges and counts the call outcomes per module of the calling scope."""

    def __init__(self, g: Digraph, ns: Namespaces) -> None:
        self.g, self.ns = g, ns
        self.counts: dict[str, list[int]] = {}
        # Targets of unknown edges removed by recount: such a node may be left orphaned.
        self.removed: set[str] = set()
        # A memo's set of values -> what calling it adds (see _plan), while the memos
        # it was made from last (Namespaces.generation); -> the functions it holds.
        self._plans: dict[frozenset[Value], tuple[tuple[tuple[str, str], ...], str]] = {}
        self._generation = ns.generation
        self._functions: dict[frozenset[Value], list[tuple[str, int, bool]]] = {}

    def _row(self, src: str) -> list[int]:
        mod = src.partition(":")[0]
        row = self.counts.get(mod)
        if row is None:
            row = self.counts[mod] = [0] * len(STATS)
        return row

    def _count(self, src: str, outcome: str, by: int = 1) -> None:
        self._row(src)[_STAT[outcome]] += by

    def recount(self, src: str, ref: str, outcome: str) -> None:
        """A call counted unknown resolved on a second try: its unknown edge goes."""
        if outcome != "unknown":
            self._count(src, "unknown", -1)
            self._count(src, outcome)
            if self.g.has_edge(src, f"unknown:{ref}"):
                self.g.remove_edge(src, f"unknown:{ref}")
                self.removed.add(f"unknown:{ref}")

    def add(self, src: str, dst: str, kind: str) -> None:
        self.g.add_edge(src, dst, kind)  # an edge there keeps its first kind

    def outside(self, src: str, prefix: str, text: str) -> None:
        dst = f"{prefix}:{text}"
        if dst not in self.g:
            self.g.add_node(dst, kind=prefix)
        self.add(src, dst, "call")

    def call(self, src: str, values: AbstractSet[Value], ref: str, count: bool = True) -> str:
        """Edges for calling ``values``; counts and returns the outcome."""
        if self._generation != self.ns.generation:  # the memos it was made from went
            self._plans.clear()
            self._generation = self.ns.generation
        shared = type(values) is frozenset  # a memo's set: many calls meet it again
        plan = self._plans.get(values) if shared else None  # type: ignore[call-overload]
        if plan is None:
            plan = self._plan(values)
            if shared:
                self._plans[values] = plan  # type: ignore[index]
        targets, best = plan
        g = self.g
        for dst, outside in targets:
            if outside and dst not in g:
                g.add_node(dst, kind=outside)
            g.add_edge(src, dst, "call")
        if best == "unknown":
            self.outside(src, "unknown", ref)
        if count:
            row = self._row(src)
            row[0] += 1
            row[_STAT[best]] += 1
        return best

    def _plan(self, values: AbstractSet[Value]) -> tuple[tuple[tuple[str, str], ...], str]:
        """What calling ``values`` adds, in order: (target, its kind when it is outside
        the tree) per edge, and the outcome."""
        ns = self.ns
        targets: list[tuple[str, str]] = []
        best = "unknown"
        for v in ordered(values):
            tag = v[0]
            if tag in ("S", "BM"):
                mod, i = v[1], int(v[2])
                s = ns.scope(mod, i)
                targets.append((node_name(mod, s.qualname), ""))
                best = "resolved"
                if s.kind == "class":
                    for init in ("__init__", "__new__", "__post_init__"):
                        targets += [(node_name(c[1], ns.scope(c[1], int(c[2])).qualname), "")
                                    for c in ordered(ns.class_attr(mod, i, init, 0))
                                    if c[0] == "S"]
            elif tag in ("I", "IS"):
                for c in ordered(ns.class_attr(v[1], int(v[2]), "__call__", 0)):
                    if c[0] == "S":
                        targets.append((node_name(c[1], ns.scope(c[1], int(c[2])).qualname),
                                        ""))
                        best = "resolved"
            elif tag == "X":
                targets.append((f"external:{v[1]}", "external"))
                best = "external" if best != "resolved" else best
            elif tag == "B":
                targets.append((f"builtin:{v[1]}", "builtin"))
                best = "builtin" if best not in ("resolved", "external") else best
            elif tag == "L":
                best = "resolved"  # a lambda's calls are edges of the scope defining it
        return tuple(targets), best

    def functions(self, values: AbstractSet[Value]) -> list[tuple[str, int, bool]]:
        """:func:`_functions` of a resolved argument (the same sets recur)."""
        if type(values) is not frozenset:
            return _functions(self.ns, values)
        hit = self._functions.get(values)
        if hit is None:
            hit = self._functions[values] = _functions(self.ns, values)
        return hit


def _functions(ns: Namespaces, values: AbstractSet[Value]) -> list[tuple[str, int, bool]]:
    out = []
    for v in ordered(values):
        if v[0] in ("S", "BM") and ns.scope(v[1], int(v[2])).kind == "function":
            out.append((v[1], int(v[2]), v[0] == "BM"))
    return out


def bind_args(ns: Namespaces, edges: EdgeWriter, src: str, mod: str, i: int,
               callee: AbstractSet[Value], args: tuple[tuple[str, str], ...],
               callee_ref: str = "") -> None:
    """Functions passed as arguments: bound to the tree function's parameters (its calls
    of them resolve later), or called on the caller's behalf by code outside the tree
    (``callee_ref``, the callee as written, tells one that only keeps them)."""
    functions = [(key, passed) for key, ref in args
                 if (passed := edges.functions(ns.resolve(mod, i, ref)))]
    if not functions:  # most arguments are no functions: nothing to bind
        return
    targets = _functions(ns, callee)
    for v in ordered(callee):  # a class called: its __init__ takes the arguments
        if v[0] == "S" and ns.scope(v[1], int(v[2])).kind == "class":
            targets += _functions(ns, ns.class_attr(v[1], int(v[2]), "__init__", 0, bound=True))
    outside = not targets and not any(v[0] == "B" and v[1] in _NO_CALL for v in callee) \
        and not any(v[0] in ("S", "I", "IS") for v in callee) \
        and callee_ref.rpartition(".")[2] not in _STORES \
        and not any(v[0] == "X" and v[1] in _STORED_BY for v in callee)
    for key, passed in functions:
        if outside:
            for m, j, _ in passed:
                edges.add(src, node_name(m, ns.scope(m, j).qualname), "call")
            continue
        for m, j, bound in targets:
            params = [p for p in ns.scope(m, j).params if not p.startswith("*")]
            if bound:
                params = params[1:]
            name = params[int(key)] if key.isdigit() and int(key) < len(params) else key
            if name in params:
                ns.params.setdefault((m, j, name), set()).update(
                    ("BM" if b else "S", pm, str(pj)) for pm, pj, b in passed)


def add_module_nodes(g: Digraph, symbols: dict[str, Symbol], path: str, mod: str,
                     summary: FileSummary) -> None:
    """The module's node and one per definition in it."""
    g.add_node(mod, kind="module", path=path)
    symbols[mod] = Symbol(mod, mod, "", "module", path, 1, 1)
    for s in summary.scopes[1:]:
        name = node_name(mod, s.qualname)
        kind = _symbol_kind(summary.scopes, s)
        g.add_node(name, kind=kind, path=path, start=s.start, end=s.end)
        symbols[name] = Symbol(name, mod, s.qualname, kind, path, s.start, s.end)


#: (module, scope, source node, ref): a call resolved once call sites bound parameters.
Deferred = list[tuple[str, int, str, str]]


def call_edges(ns: Namespaces, edges: EdgeWriter, mods: Iterable[str],
               bind_more: Callable[[], None] | None = None) -> None:
    """The edges of the scopes of ``mods``: imports, definitions, decorators, calls.
    ``bind_more`` runs after every call site of ``mods`` bound its arguments and before
    calls of parameters are resolved (a graph updated for a patch binds more there)."""
    later: Deferred = []
    retry: Deferred = []
    for mod in mods:
        _module_edges(ns, edges, mod, ns.modules[mod], later, retry)
    if bind_more is not None:
        bind_more()
    ns.forget()
    for mod, i, src, ref in later:  # calls of parameters, once call sites bound them
        edges.call(src, ns.resolve(mod, i, ref), ref)
    for mod, i, src, ref in retry:  # unknown in the first pass: bound since?
        edges.recount(src, ref, edges.call(src, ns.resolve(mod, i, ref), ref, count=False))


def module_imports(summary: FileSummary) -> tuple[str, ...]:
    return tuple(sorted({m for _, _, m, _, lvl in summary.imports if m and lvl == 0}))


@paused_gc()
def build_graph(modules: Mapping[str, tuple[str, FileSummary]], config: CollectionConfig
                ) -> CallGraph:
    """The call graph of a tree: ``modules`` maps each path to (module name, summary)."""
    index = ModuleIndex(modules)
    summaries = {index.by_path[p]: s for p, (_, s) in modules.items()
                 if p in index.by_path and not s.error}
    ns = Namespaces(summaries, index)
    g = Digraph()
    symbols: dict[str, Symbol] = {}
    scopes_by_path: dict[str, tuple[Scope, ...]] = {}
    for path, (_, summary) in modules.items():
        mod = index.by_path.get(path)
        if mod is not None:
            scopes_by_path[path] = summary.scopes
            add_module_nodes(g, symbols, path, mod, summary)
    edges = EdgeWriter(g, ns)
    call_edges(ns, edges, summaries)
    tests = fixture_edges(ns, edges, summaries, config)
    unparsed = {p: s.error for p, (_, s) in modules.items() if s.error}
    imports = {mod: module_imports(s) for mod, s in summaries.items()}
    counts = {m: tuple(c) for m, c in edges.counts.items()}
    if g.uncalled(edges.removed):  # an outside node only a retried call named goes
        g = g.without_paths(frozenset())[0]
    return CallGraph(g, index, symbols, tests, dict(index.by_path),
                     total_stats(counts.values()), unparsed, scopes_by_path, imports, counts)


def bound_names(scopes: tuple[Scope, ...], i: int) -> frozenset[str]:
    """Parameters visible in scope ``i`` (its own and its enclosing functions'), less a
    method's receiver: what call sites (and decorators) bind."""
    names: set[str] = set()
    while i >= 0:
        s = scopes[i]
        if s.kind == "function":
            params = s.params
            if s.parent >= 0 and scopes[s.parent].kind == "class" and \
                    "staticmethod" not in s.decorators:
                params = params[1:]
            names.update(params)
        i = s.parent
    return frozenset(names)


def head(ref: str) -> str:
    return ref.split(".", 1)[0].split("(", 1)[0].split("[", 1)[0]


def _module_edges(ns: Namespaces, edges: EdgeWriter, mod: str, summary: FileSummary,
                  later: list[tuple[str, int, str, str]],
                  retry: list[tuple[str, int, str, str]]) -> None:
    scopes = summary.scopes
    dotted = {m for _, local, m, _, _ in summary.imports if local.startswith("\x00")}
    typing_only = frozenset(summary.typing_only)
    for k, (scope, local, module, name, level) in enumerate(summary.imports):
        if k in typing_only:
            continue  # `if TYPE_CHECKING:` imports bind names but never run
        if not name and local == module and any(d.startswith(module + ".") for d in dotted):
            continue  # `import a.b` binds a; the edge is the one to a.b
        target = ns._module_of(mod, module, level) if module or level else None
        if not name:
            target = ns.index.find(module, mod)
        src = node_name(mod, scopes[scope].qualname)
        if target is not None and target != mod:
            edges.add(src, target, "import")
            sub = ns.index.find(f"{target}.{name}", mod) if name else None
            if sub is not None:
                edges.add(src, sub, "import")
        elif target is None and name and module:
            # `from pkg.sub import mod`, pkg/sub a namespace package (no __init__.py)
            absolute = resolve_relative(mod, ns.index.is_package(mod), module, level)
            sub = ns.index.find(f"{absolute}.{name}", mod)
            if sub is not None and sub != mod:
                edges.add(src, sub, "import")
    for i, s in enumerate(scopes):
        src = node_name(mod, s.qualname)
        bound = bound_names(scopes, i) if s.kind == "function" else frozenset()
        if s.parent >= 0:
            parent = node_name(mod, scopes[s.parent].qualname)
            if s.kind == "class":
                edges.add(parent, src, "body")
                for base in s.bases:
                    for v in ordered(ns.resolve(mod, s.parent, base)):
                        if v[0] == "S":
                            edges.add(src, node_name(v[1], ns.scope(v[1], int(v[2])).qualname),
                                      "inherit")
            for dec in s.decorators:
                decorator_edges(ns, edges, mod, i, parent, src, dec)
        for _line, ref, args in s.calls:
            if bound and head(ref) in bound:
                later.append((mod, i, src, ref))
                continue
            callee = ns.resolve(mod, i, ref)
            if edges.call(src, callee, ref) == "unknown" and s.kind == "function" and \
                    head(ref) in ("self", "cls"):
                retry.append((mod, i, src, ref))
            if args:
                bind_args(ns, edges, src, mod, i, callee, args, ref)


def decorator_edges(ns: Namespaces, edges: EdgeWriter, mod: str, i: int, parent: str, src: str,
                     dec: str) -> None:
    """The enclosing scope calls the decorator with the definition (its first parameter
    is bound to it); calling the definition runs what the decorator made of it."""
    s = ns.scope(mod, i)
    for m, j, _ in _functions(ns, ns.resolve(mod, s.parent, dec)):
        deco = ns.scope(m, j)
        target = node_name(m, deco.qualname)
        edges.add(parent, target, "decorator")
        edges.add(src, target, "wrapped")
        if deco.params and s.kind == "function":
            ns.params.setdefault((m, j, deco.params[0]), set()).add(("S", mod, str(i)))


def fixture_edges(ns: Namespaces, edges: EdgeWriter, mods: Iterable[str],
                  config: CollectionConfig) -> dict[str, str]:
    """Tests and fixtures of ``mods`` request fixtures by parameter name, ``usefixtures``
    and ``autouse``: the fixture visible from their class, module and conftest.py files.
    Returns the tests of ``mods`` (test id -> node)."""
    index = ns.index
    summaries = ns.modules
    conftests = {posixpath.dirname(path): mod for mod, path in index.by_name.items()
                 if posixpath.basename(path) == "conftest.py" and mod in summaries}
    tests: dict[str, str] = {}
    mods = list(mods)
    for mod in mods:
        summary = summaries[mod]
        path = index.by_name[mod]
        visible = _visible_fixtures(summaries, conftests, mod, path)
        is_test_file = config.is_test_file(path)
        for i, s in enumerate(summary.scopes):
            if s.kind != "function":
                continue
            test_ids = _test_ids(ns, mod, i, s, path, config) if is_test_file else []
            if not test_ids and not s.fixture:
                continue
            src = node_name(mod, s.qualname)
            here = dict(visible)
            here.update(_class_fixtures(ns, mod, summary.scopes, i))
            wanted = [p for p in s.params if p not in ("self", "cls", "request")]
            wanted += list(s.usefixtures)
            if test_ids:
                wanted += [n for n, (_, auto) in here.items() if auto]
            for name in wanted:
                hit = here.get(name)
                if hit is not None and hit[0] != src:
                    edges.add(src, hit[0], "fixture")
    for mod in mods:
        summary = summaries[mod]
        path = index.by_name[mod]
        if config.is_test_file(path):
            for i, s in enumerate(summary.scopes):
                if s.kind == "class" and summary.scopes[s.parent].kind == "module":
                    _class_tests(ns, mod, i, path, config, tests)
                elif s.kind == "function" and s.parent == 0 and config.is_test_function(
                        s.qualname):
                    tests[f"{path}::{s.qualname}"] = node_name(mod, s.qualname)
            _assigned_tests(ns, mod, summary.scopes[0], path, config, tests)
    return tests


def _assigned_tests(ns: Namespaces, mod: str, module: Scope, path: str,
                    config: CollectionConfig, tests: dict[str, str]) -> None:
    """``test_x = make_test(...)`` at module level is collected when it is a function."""
    for target, refs in module.assigns:
        if "." in target or "[" in target or not config.is_test_function(target):
            continue
        node = mod
        for ref in refs:
            for m, j, _ in _functions(ns, ns.resolve(mod, 0, ref)):
                node = node_name(m, ns.scope(m, j).qualname)
        tests.setdefault(f"{path}::{target}", node)


def _visible_fixtures(summaries: Mapping[str, FileSummary], conftests: Mapping[str, str],
                      mod: str, path: str) -> dict[str, tuple[str, bool]]:
    """Fixture name -> (node, autouse): conftest.py files from the root down, then the
    module's own (the nearest definition wins, as in pytest)."""
    chain: list[str] = []
    d = posixpath.dirname(path)
    while True:
        if d in conftests and conftests[d] != mod:
            chain.append(conftests[d])
        if not d:
            break
        d = posixpath.dirname(d)
    out: dict[str, tuple[str, bool]] = {}
    for m in [*reversed(chain), mod]:
        for s in summaries[m].scopes:
            if s.fixture and summaries[m].scopes[s.parent].kind == "module":
                out[s.fixture] = (node_name(m, s.qualname), s.autouse)
    return out


def _class_fixtures(ns: Namespaces, mod: str, scopes: tuple[Scope, ...], i: int
                    ) -> dict[str, tuple[str, bool]]:
    parent = scopes[i].parent
    if parent < 0 or scopes[parent].kind != "class":
        return {}
    out: dict[str, tuple[str, bool]] = {}
    for m, c in reversed(ns.mro(mod, parent)):
        for s in ns.modules[m].scopes:
            if s.fixture and s.parent == c:
                out[s.fixture] = (node_name(m, s.qualname), s.autouse)
    return out


def _test_ids(ns: Namespaces, mod: str, i: int, s: Scope, path: str,
              config: CollectionConfig) -> list[str]:
    if not config.is_test_function(s.qualname.rsplit(".", 1)[-1]):
        return []
    scopes = ns.modules[mod].scopes
    parent = scopes[s.parent]
    if parent.kind == "module":
        return [f"{path}::{s.qualname}"]
    if parent.kind == "class":
        return [f"{path}::{s.qualname.replace('.', '::')}"]
    return []


def _class_tests(ns: Namespaces, mod: str, cls: int, path: str, config: CollectionConfig,
                 out: dict[str, str], prefix: str = "") -> None:
    """Test methods of a collected class, inherited ones included (pytest collects a
    subclass's inherited tests under the subclass's id)."""
    s = ns.scope(mod, cls)
    short = s.qualname.rsplit(".", 1)[-1]
    unittest = any(b.rsplit(".", 1)[-1] == "TestCase" for b in s.bases)
    if not (config.is_test_class(short) or unittest or _inherits_test_case(ns, mod, cls)):
        return
    node = f"{path}::{prefix}{short}"
    seen: set[str] = set()
    for m, c in ns.mro(mod, cls):
        for j, child in enumerate(ns.modules[m].scopes):
            if child.parent != c:
                continue
            name = child.qualname.rsplit(".", 1)[-1]
            if name in seen:
                continue
            seen.add(name)
            if child.kind == "function" and config.is_test_function(name):
                out[f"{node}::{name}"] = node_name(m, child.qualname)
            elif child.kind == "class" and m == mod and c == cls:
                _class_tests(ns, m, j, path, config, out, prefix=f"{prefix}{short}::")


def _inherits_test_case(ns: Namespaces, mod: str, cls: int) -> bool:
    for m, c in ns.mro(mod, cls):
        if any(b.rsplit(".", 1)[-1] == "TestCase" for b in ns.scope(m, c).bases):
            return True
    return False
