"""Class attributes a subclass sets for the tests it inherits are those tests' inputs.

``class TestDefaultDict(TestDict): D = staticmethod(...); kw = {...}`` reruns every test of
``TestDict`` with other values of ``self.D`` and ``self.kw``: that is the whole point of the
subclass. Resetting them (or dropping the override, so the base's value is used) makes the
inherited tests run what the base's own tests already run. Each attribute an inherited test
method names of ``self`` and that a class before the method's own class in the method
resolution order binds is one input of that inherited test (PS110 when it changes). What a
base imported from another module binds is not read: the walk stops there on both sides.
"""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Callable

import libcst as cst

from provscore.evidence.calls import self_reads
from provscore.evidence.constants import normalize, unparse, without_docstrings
from provscore.evidence.context import Context, Frame
from provscore.evidence.inheritance import Inherited, class_chain, extended_through_super
from provscore.evidence.model import CLASS_ATTRIBUTE_INPUT, EvidenceItem, EvidenceKind, Shape

OP = CLASS_ATTRIBUTE_INPUT
UNKNOWN = "<bound by a statement whose value is not read>"


def _def_code(module: cst.Module, node: cst.FunctionDef | cst.ClassDef) -> str:
    source = textwrap.dedent(module.code_for_node(node.with_changes(leading_lines=())))
    try:
        return unparse(ast.parse(without_docstrings(source)))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return " ".join(source.split())


class _ClassBodies:
    """The defs and nested classes of each class body by name, indexed once per module."""

    def __init__(self, ctx: Context) -> None:
        self.defs: dict[tuple[int, str], list[Frame]] = {}
        for f in ctx.defs:
            if f.parent is not None and f.parent.kind == "class":
                self.defs.setdefault((id(f.parent), f.name), []).append(f)
        self.nested: dict[tuple[int, str], list[Frame]] = {}
        for c in ctx.classes:
            if c.parent is not None and c.parent.kind == "class":
                self.nested.setdefault((id(c.parent), c.name), []).append(c)


def _binding(bodies: _ClassBodies, module: cst.Module, klass: Frame, name: str,
             helper_names: set[str]) -> tuple[str, cst.CSTNode | None] | None:
    """What ``klass``'s own body binds ``name`` to (its value's code and the node to
    locate); None when the class body does not bind it."""
    defs = bodies.defs.get((id(klass), name), [])
    values = klass.bindings.get(name, [])
    nested = bodies.nested.get((id(klass), name), [])
    if not defs and not values and not nested:
        return None
    codes: list[str] = []
    first: cst.CSTNode | None = None
    for f in defs:
        if f.is_test or f.qualname in helper_names:
            return None  # a test, or a helper oracle: judged as such, not as an input
        if isinstance(f.node, cst.FunctionDef):
            codes.append(_def_code(module, f.node))
            first = first or f.node.name
    for c in nested:
        if isinstance(c.node, cst.ClassDef):
            codes.append(_def_code(module, c.node))
            first = first or c.node.name
    for v in values:
        codes.append(UNKNOWN if v is None else normalize(module.code_for_node(v)))
        first = first or v
    return "; ".join(codes), first


def class_attribute_inputs(ctx: Context, module: cst.Module, inherited: list[Inherited],
                           helper_names: set[str],
                           line_of: Callable[[list[cst.CSTNode]], dict[int, int]]
                           ) -> list[EvidenceItem]:
    """One test input per (inherited test, attribute of ``self`` its method names) that a
    class between the collected class and the method's own class binds. An override that
    runs the inherited method first (``super().test_x()``) runs it with the same inputs.
    ``line_of`` locates the given nodes (id → line)."""
    runs: list[tuple[Frame, str, Frame]] = [
        (i.cls, i.node_id, i.method) for i in inherited if i.method is not None]
    runs += [(override.parent, override.test_id, base)
             for override, base in extended_through_super(ctx)
             if override.parent is not None and override.test_id is not None]
    found: list[tuple[str, str, str, cst.CSTNode | None]] = []
    if not runs:
        return []
    bodies = _ClassBodies(ctx)
    reads: dict[int, tuple[str, ...]] = {}  # per method: many classes inherit one
    bound_in: dict[tuple[int, str], tuple[str, cst.CSTNode | None] | None] = {}
    for cls, node_id, method in runs:
        if not isinstance(method.node, cst.FunctionDef) or method.parent is None:
            continue
        if id(method) not in reads:
            reads[id(method)] = self_reads(method.node)
        names = reads[id(method)]
        seen: set[str] = set()  # the first class in the order that binds a name supplies it
        for klass in class_chain(ctx, cls) if names else ():
            if isinstance(klass, str) or klass is method.parent:
                break  # a base from elsewhere, or the method's own class: the base's values
            for name in names:
                if name in seen:
                    continue
                key = (id(klass), name)
                if key not in bound_in:
                    bound_in[key] = _binding(bodies, module, klass, name, helper_names)
                bound = bound_in[key]
                if bound is not None:
                    seen.add(name)
                    found.append((node_id, name, bound[0], bound[1]))
    if not found:
        return []
    lines = line_of([n for *_, n in found if n is not None])
    return [EvidenceItem(
        kind=EvidenceKind.TEST_INPUT, path=ctx.path, node_id=node_id, scope="",
        in_test=True, code=f"{OP} {name} = {value}",
        shape=Shape(OP, (value,), subject=f"{OP} {name}"),
        line=lines.get(id(node)) if node is not None else None, detail=OP,
        text=f"{OP} {name} = {' '.join(value.split())}")
        for node_id, name, value, node in found]
