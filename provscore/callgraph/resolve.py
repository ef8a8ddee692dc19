"""Name resolution over every file's summary: which definition a ref means.

A *value* is what a name may hold: a definition in the tree (``("S", module, scope)``),
the same method bound to an instance (``("BM", module, scope)``, so its first parameter
is taken), an instance of a tree class (``("I", module, scope)``; ``("IS", ...)`` for
``self``, which may be an instance of a subclass, so overrides are reached too), a module
of the tree
(``("M", module)``), the next class in a method resolution order (``super()``), or a name
outside the tree: ``("X", dotted)`` external, ``("B", name)`` builtin, ``("U", text)``
unknown. Names are followed through imports (aliases, relative imports, package
re-exports, star imports), assignments (values, containers and their elements),
parameters bound at call sites, returns, class attributes through the method resolution
order of tree-defined bases, and ``self``/``cls``.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Mapping
from collections.abc import Set as AbstractSet
from typing import Any

from provscore.callgraph.modules import ModuleIndex, resolve_relative
from provscore.callgraph.summary import LAMBDA, FileSummary, Scope

Value = tuple[str, ...]
_BUILTINS = frozenset(dir(builtins))
_MAX_VALUES = 8  # a ref that may be more things than this is taken as unknown
_MAX_OVERRIDES = 16  # more hook implementations than this: left unknown (too imprecise)
_MAX_DEPTH = 12  # assignment chains deeper than this are not followed (cycles end too)
# ("scope", index) | ("import", (module, name, level)) | ("assign", (scope, refs))
Binding = tuple[str, Any]


class Namespaces:
    """Per-scope name tables of every module, built once from the summaries."""

    def __init__(self, modules: Mapping[str, FileSummary], index: ModuleIndex,
                 subclasses: Callable[[Namespaces, str, int, str],
                                      Iterable[tuple[str, int]]] | None = None
                 ) -> None:
        """``modules`` may load summaries on demand: a module's name tables are built when
        a name in it is first looked up. ``subclasses``: where the subclasses of a class
        that may define a method name come from when not every module is to be read (a
        graph updated for a patch): every subclass that defines it, perhaps others."""
        self.modules = modules
        self.index = index
        # module -> per scope: name -> bindings; class scopes also hold self./cls. attributes.
        self._tables: dict[str, list[dict[str, list[Binding]]]] = {}
        self._subclasses_of = subclasses
        self.params: dict[tuple[str, int, str], set[Value]] = {}
        self._mro: dict[tuple[str, int], list[tuple[str, int]]] = {}
        # Memos: every ref, module name and class attribute is resolved once (a cycle
        # sees the empty set while it is being resolved).
        self._refs: dict[tuple[str, int, str], frozenset[Value]] = {}
        self._attrs: dict[tuple[str, int, str, int, bool], frozenset[Value]] = {}
        self._subclasses: dict[tuple[str, int], list[tuple[str, int]]] | None = None
        self.generation = 0  # how many times the memos were dropped
        self._parsed: dict[str, ParsedRef] = {}  # ref -> its parts (a pure function)
        # (module, class, name) -> what subclasses define (the tables do not change)
        self._overrides: dict[tuple[str, int, str], frozenset[Value]] = {}

    def forget(self) -> None:
        """Drop the memos (after call sites bound more parameters)."""
        self._refs.clear()
        self._attrs.clear()
        self.generation += 1

    def table(self, mod: str, i: int) -> dict[str, list[Binding]]:
        """Name -> bindings of scope ``i`` of ``mod``."""
        tables = self._tables.get(mod)
        if tables is None:
            tables = self._tables[mod] = self.fill(self.modules[mod])
        return tables[i]

    @staticmethod
    def fill(summary: FileSummary) -> list[dict[str, list[Binding]]]:
        """Per scope of one module: name -> what binds it there."""
        scopes = summary.scopes
        tables: list[dict[str, list[Binding]]] = [{} for _ in scopes]
        for i, s in enumerate(scopes):
            if s.parent >= 0:
                short = s.qualname.rsplit(".", 1)[-1]
                tables[s.parent].setdefault(short, []).append(("scope", i))
            for target, refs in s.assigns:
                if target.startswith(("self.", "cls.")):
                    owner = _owning_class(scopes, i)
                    if owner >= 0:
                        tables[owner].setdefault(target.split(".", 1)[1], []).append(
                            ("assign", (i, refs)))
                    continue
                tables[i].setdefault(target, []).append(("assign", (i, refs)))
        for scope, local, module, name, level in summary.imports:
            tables[scope].setdefault(local, []).append(("import", (module, name, level)))
        return tables

    # ------------------------------------------------------------------ lookups

    def scope(self, mod: str, i: int) -> Scope:
        return self.modules[mod].scopes[i]

    def lookup(self, mod: str, scope: int, name: str, depth: int) -> set[Value]:
        """What a bare name means in a scope (Python's LEGB; class bodies are not
        enclosing scopes of their methods)."""
        scopes = self.modules[mod].scopes
        tables = self._tables.get(mod)
        if tables is None:
            tables = self._tables[mod] = self.fill(self.modules[mod])
        i, first = scope, True
        while i >= 0:  # _in_scope of each scope outwards, inlined: most lookups miss
            s = scopes[i]
            if s.kind != "class" or first:
                if s.kind == "function" and name in s.params:
                    return self._param(mod, i, name)
                bindings = tables[i].get(name)
                if bindings:
                    return self._bound(mod, i, bindings, depth)
                if i == 0:
                    found = self._star(mod, name, depth)
                    if found is not None:
                        return found
            first = False
            i = s.parent
        if name in _BUILTINS:
            return {("B", name)}
        return {("U", name)}

    def _in_scope(self, mod: str, i: int, name: str, depth: int) -> set[Value] | None:
        s = self.modules[mod].scopes[i]
        if s.kind == "function" and name in s.params:
            return self._param(mod, i, name)
        bindings = self.table(mod, i).get(name)
        if bindings:
            return self._bound(mod, i, bindings, depth)
        if i == 0:
            return self._star(mod, name, depth)
        return None

    def _bound(self, mod: str, i: int, bindings: list[Binding], depth: int) -> set[Value]:
        """What the bindings of a name in scope ``i`` give it (the union)."""
        if len(bindings) == 1:
            return self._binding(mod, i, bindings[0], depth)
        out: set[Value] = set()
        for b in bindings:
            out |= self._binding(mod, i, b, depth)
        return out

    def _param(self, mod: str, i: int, name: str) -> set[Value]:
        s = self.modules[mod].scopes[i]
        parent = self.modules[mod].scopes[s.parent] if s.parent >= 0 else None
        if parent is not None and parent.kind == "class" and s.params and s.params[0] == name:
            if "staticmethod" in s.decorators:
                return {("U", name)}
            if "classmethod" in s.decorators:
                return {("S", mod, str(s.parent))}
            return {("IS", mod, str(s.parent))}
        bound = self.params.get((mod, i, name))
        if bound:
            return set(bound)
        annotated = self.table(mod, i).get(name)  # `r: Repo` binds r to a Repo
        if annotated:
            out: set[Value] = set()
            for b in annotated:
                out |= self._binding(mod, i, b, 1)
            return out
        return {("U", name)}

    def _star(self, mod: str, name: str, depth: int) -> set[Value] | None:
        for b in self.table(mod, 0).get("*", ()):
            module, _, level = b[1]
            target = self._module_of(mod, str(module), int(level))
            if target is not None and target != mod:
                found = self.table(target, 0).get(name)
                if found:
                    out: set[Value] = set()
                    for b2 in found:
                        out |= self._binding(target, 0, b2, depth + 1)
                    return out
        return None

    def _binding(self, mod: str, i: int, b: Binding, depth: int) -> set[Value]:
        kind, data = b
        if kind == "scope":
            return {("S", mod, str(data))}
        if depth > _MAX_DEPTH:
            return set()
        if kind == "import":
            module, name, level = data
            return self._imported(mod, str(module), str(name), int(level), depth)
        where, refs = data
        out: set[Value] = set()
        for ref in refs:
            out |= self.resolve(mod, int(where), str(ref), depth + 1)
        return out

    def _module_of(self, importer: str, module: str, level: int) -> str | None:
        absolute = resolve_relative(importer, self.index.is_package(importer), module, level)
        return self.index.find(absolute, importer)

    def _imported(self, mod: str, module: str, name: str, level: int, depth: int
                  ) -> set[Value]:
        absolute = resolve_relative(mod, self.index.is_package(mod), module, level)
        target = self.index.find(absolute, mod) if absolute else None
        if not name:  # `import a.b` (binds a) or `import a.b as c` (binds a.b)
            return {("M", target)} if target else {("X", absolute)}
        if target is None:
            # `from pkg.sub import mod` where pkg/sub holds no __init__.py (a namespace
            # package): the name is the tree's module pkg.sub.mod.
            sub = self.index.find(f"{absolute}.{name}", mod) if absolute else None
            if sub is not None:
                return {("M", sub)}
            return {("X", f"{absolute}.{name}" if absolute else name)}
        return self.module_attr(target, name, depth + 1)

    def module_attr(self, mod: str, name: str, depth: int) -> set[Value]:
        found = self._in_scope(mod, 0, name, depth) if mod in self.modules else None
        if found:
            return found
        sub = self.index.find(f"{mod}.{name}", mod)
        if sub is not None:
            return {("M", sub)}
        return {("U", f"{mod}.{name}")}

    # ------------------------------------------------------------------ classes

    def mro(self, mod: str, cls: int) -> list[tuple[str, int]]:
        """The class and its tree-defined bases, depth first (C3 agrees for the trees
        real code builds; bases outside the tree end the walk)."""
        key = (mod, cls)
        cached = self._mro.get(key)
        if cached is not None:
            return cached
        self._mro[key] = [key]  # guards against cycles
        out = [key]
        s = self.modules[mod].scopes[cls]
        for base in s.bases:
            for v in ordered(self.resolve(mod, s.parent, base, 1)):
                if v[0] == "S" and self.scope(v[1], int(v[2])).kind == "class":
                    for entry in self.mro(v[1], int(v[2])):
                        if entry not in out:
                            out.append(entry)
        self._mro[key] = out
        return out

    def subclasses(self, mod: str, cls: int) -> list[tuple[str, int]]:
        """Classes of the tree that have ``cls`` in their method resolution order."""
        if self._subclasses is None:
            self._subclasses = {}
            for m, summary in self.modules.items():
                for i, s in enumerate(summary.scopes):
                    if s.kind == "class":
                        for base in self.mro(m, i)[1:]:
                            self._subclasses.setdefault(base, []).append((m, i))
        return self._subclasses.get((mod, cls), [])

    def overrides(self, mod: str, cls: int, name: str) -> AbstractSet[Value]:
        """Methods named ``name`` that subclasses define themselves (``self.name()`` in a
        base class runs them on their instances)."""
        key = (mod, cls, name)
        hit = self._overrides.get(key)
        if hit is None:
            hit = self._overrides[key] = frozenset(self._overriding(mod, cls, name))
        return hit

    def _overriding(self, mod: str, cls: int, name: str) -> set[Value]:
        out: set[Value] = set()
        subclasses = self.subclasses(mod, cls) if self._subclasses_of is None else \
            self._subclasses_of(self, mod, cls, name)
        for m, c in subclasses:
            for b in self.table(m, c).get(name, ()):
                if b[0] == "scope" and self.scope(m, int(b[1])).kind == "function":
                    out.add(("BM", m, str(b[1])))
            if len(out) > _MAX_OVERRIDES:
                return set()  # too imprecise, whatever the other subclasses define
        return out

    def class_attr(self, mod: str, cls: int, name: str, depth: int, *, skip: int = 0,
                   bound: bool = False) -> AbstractSet[Value]:
        key = (mod, cls, name, skip, bound)
        hit = self._attrs.get(key)
        if hit is None:
            self._attrs[key] = frozenset()
            hit = self._attrs[key] = frozenset(self._class_attr(mod, cls, name, depth, skip,
                                                                bound))
        return hit

    def _class_attr(self, mod: str, cls: int, name: str, depth: int, skip: int, bound: bool
                    ) -> set[Value]:
        for m, c in self.mro(mod, cls)[skip:]:
            bindings = self.table(m, c).get(name)
            if not bindings:
                continue
            out: set[Value] = set()
            for b in bindings:
                for v in self._binding(m, c, b, depth + 1):
                    if bound and v[0] == "S" and self.scope(v[1], int(v[2])).kind == "function":
                        v = ("BM", v[1], v[2])
                    out.add(v)
            return out
        return set()

    # ------------------------------------------------------------------ refs

    def resolve(self, mod: str, scope: int, ref: str, depth: int = 0) -> AbstractSet[Value]:
        """Every value ``ref`` may have in ``scope`` of ``mod`` (a shared set: read it,
        never change it)."""
        if ref == "?" or depth > _MAX_DEPTH:
            return {("U", ref)}
        if ref == LAMBDA:
            return {("L", "")}
        key = (mod, scope, ref)
        hit = self._refs.get(key)
        if hit is None:
            self._refs[key] = frozenset()
            values = self._resolve(mod, scope, ref, depth)
            if len(values) > _MAX_VALUES:  # a union this wide says nothing: unknown
                values = {("U", ref)}
            hit = self._refs[key] = frozenset(values)
        return hit

    def _resolve(self, mod: str, scope: int, ref: str, depth: int) -> AbstractSet[Value]:
        parsed = self._parsed.get(ref)
        if parsed is None:
            parsed = self._parsed[ref] = _parse_ref(ref)
        name, ops, attrs = parsed
        values: AbstractSet[Value] = self._super(mod, scope) if name is None else \
            self.lookup(mod, scope, name, depth)
        values = self._apply(values, ops, depth)
        for attr, attr_ops in attrs:
            values = self._attr(values, attr, depth)
            values = self._apply(values, attr_ops, depth)
        return values

    def _super(self, mod: str, scope: int) -> set[Value]:
        scopes = self.modules[mod].scopes
        i = scope
        while i >= 0 and scopes[i].kind != "class":
            i = scopes[i].parent
        return {("SUPER", mod, str(i))} if i >= 0 else {("U", "super()")}

    def _attr(self, values: AbstractSet[Value], name: str, depth: int) -> set[Value]:
        out: set[Value] = set()
        for v in ordered(values):
            tag = v[0]
            if tag == "M":
                out |= self.module_attr(v[1], name, depth + 1)
            elif tag in ("S", "I", "IS", "SUPER"):
                s = self.scope(v[1], int(v[2]))
                if s.kind != "class":
                    out.add(("U", f"{s.qualname}.{name}"))
                    continue
                found = self.class_attr(v[1], int(v[2]), name, depth, skip=tag == "SUPER",
                                        bound=tag != "S")
                if tag == "IS" and not found:
                    # A hook the base class leaves to its subclasses. Where the base
                    # defines it too, only its own is taken: every override of a method
                    # of a big hierarchy would make every caller reach every subclass.
                    found = self.overrides(v[1], int(v[2]), name)
                out |= found or {("U", f"{s.qualname}.{name}")}
            elif tag in ("X", "B") and not v[1].endswith("()"):
                out.add((tag, f"{v[1]}.{name}"))  # numpy.linalg.norm, str.join
            else:  # what an outside call returned: its attributes are not known
                out.add(("U", name))
        return out

    def _apply(self, values: AbstractSet[Value], ops: tuple[str, ...], depth: int
               ) -> AbstractSet[Value]:
        for op in ops:
            if op != "()":
                values = {("U", "[]")}
                continue
            nxt: set[Value] = set()
            for v in ordered(values):
                nxt |= self._called(v, depth)
            values = nxt
        return values

    def _called(self, v: Value, depth: int) -> set[Value]:
        """What calling a value returns."""
        tag = v[0]
        if tag in ("S", "BM"):
            mod, i = v[1], int(v[2])
            s = self.scope(mod, i)
            if s.kind == "class":
                return {("I", mod, v[2])}
            out: set[Value] = set()
            for ref in s.returns:
                out |= self.resolve(mod, i, ref, depth + 1)
            return out or {("U", f"{s.qualname}()")}
        if tag in ("I", "IS"):
            call = self.class_attr(v[1], int(v[2]), "__call__", depth, bound=True)
            out = set()
            for c in ordered(call):
                out |= self._called(c, depth + 1)
            return out
        if tag in ("X", "B"):
            return {(tag, f"{v[1]}()")} if not v[1].endswith("()") else {("U", "()")}
        if tag == "U":
            return {("U", "()")}
        if tag == "L":
            return {("U", "<lambda>()")}
        return {("U", "()")}


#: A ref taken apart: the name looked up first (None: ``super()``), the operations
#: applied to it, then each attribute and its operations.
ParsedRef = tuple[str | None, tuple[str, ...], tuple[tuple[str, tuple[str, ...]], ...]]


def _parse_ref(ref: str) -> ParsedRef:
    head, _, rest = ref.partition(".")
    name, ops = _split(head)
    lookup: str | None = name
    if name == "super" and ops[:1] == ["()"]:
        lookup, ops = None, ops[1:]
    elif ops and ops[0] == "[]":  # `x[]`: what the elements of x are bound to
        lookup = name + "[]" * ops.count("[]")
        ops = [o for o in ops if o != "[]"]
    attrs: list[tuple[str, tuple[str, ...]]] = []
    for seg in rest.split(".") if rest else ():
        attr, attr_ops = _split(seg)
        if attr_ops and attr_ops[0] == "[]":
            attrs.append((attr + "[]", tuple(attr_ops[1:])))
        else:
            attrs.append((attr, tuple(attr_ops)))
    return lookup, tuple(ops), tuple(attrs)


def _split(seg: str) -> tuple[str, list[str]]:
    ops: list[str] = []
    while seg.endswith(("()", "[]")):
        ops.append(seg[-2:])
        seg = seg[:-2]
    ops.reverse()
    return seg, ops


def ordered(values: AbstractSet[Value]) -> Iterable[Value]:
    """``values`` in a fixed order, definitions of a module in source order: what
    resolving one of them looks up can depend on what was looked up before (a name being
    resolved reads as empty to a cycle back to it; the first of two possible bases
    comes first in the method resolution order), so sets, whose order follows the hash
    seed, are walked sorted."""
    return values if len(values) < 2 else sorted(values, key=_value_order)


def _value_order(v: Value) -> tuple[str, str, int, str]:
    if len(v) > 2 and v[2].isdigit():  # ("S", module, scope index)
        return v[0], v[1], int(v[2]), ""
    return v[0], "", -1, ".".join(v[1:])


def _owning_class(scopes: tuple[Scope, ...], i: int) -> int:
    """The class whose method scope ``i`` is (``self.x = ...`` binds its attribute)."""
    s = scopes[i]
    if s.kind == "function" and s.parent >= 0 and scopes[s.parent].kind == "class":
        return s.parent
    return -1
