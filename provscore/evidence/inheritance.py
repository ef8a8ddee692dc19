"""Tests a class inherits are that class's tests.

``class TestFoo(Mixin, unittest.TestCase)`` runs every ``test*`` method of ``Mixin`` as
``TestFoo::test_x``; so does pytest for a ``Test*`` class deriving from another. Each
inherited test is a test of the subclass, with the base method's evidence: dropping the
base from the bases removes the tests (PS106), weakening the base method weakens each of
them, and shadowing an inherited test with a method that checks nothing neutralises it
(PS206). Bases defined in the module are read in full; bases imported from another module
contribute their test names through the call graph's index.
"""

from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from provscore.evidence.context import Context, Frame
from provscore.evidence.model import NOT_CHECKS, SuppressionKind
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class Inherited:
    """One test a class inherits."""

    cls: Frame  # the collected class
    name: str
    base: str  # the class it comes from, as the module names it
    method: Frame | None  # the base's method, when the base is in this module

    @property
    def node_id(self) -> str:
        return f"{self.cls.node_id}::{self.name}"


def _is_test_name(ctx: Context, cls: Frame, name: str) -> bool:
    return name.startswith("test") if cls.is_unittest else ctx.config.is_test_function(name)


def _module_classes(ctx: Context) -> dict[str, Frame]:
    return {c.name: c for c in ctx.classes if c.parent is not None and c.parent.kind == "module"}


def _methods(ctx: Context, cls: Frame) -> dict[str, Frame]:
    return {f.name: f for f in ctx.defs if f.parent is cls and f.kind == "func"}


def _lineage(ctx: Context, cls: Frame, classes: dict[str, Frame]) -> Iterator[Frame | str]:
    """Base classes in method resolution order (depth first, left to right); a base not
    defined in the module is its dotted name."""
    seen: set[str] = set()
    stack = list(reversed(cls.bases))
    while stack:
        base = stack.pop()
        if base in seen:
            continue
        seen.add(base)
        frame = classes.get(base)
        if frame is None:
            yield base
            continue
        yield frame
        stack += list(reversed(frame.bases))


def class_chain(ctx: Context, cls: Frame) -> list[Frame | str]:
    """``cls`` and its bases in method resolution order; a base defined in another module
    is its dotted name as written."""
    return [cls, *_lineage(ctx, cls, _module_classes(ctx))]


def class_lineage(ctx: Context, node_id: str) -> list[str]:
    """Qualnames of the class a test belongs to and of its bases in this module."""
    qual = node_id.split("::", 1)[-1].rsplit("::", 1)[0].replace("::", ".")
    if "::" not in node_id.split("::", 1)[-1]:
        return []  # a module-level test function
    by_qual = {c.qualname: c for c in ctx.classes}
    cls = by_qual.get(qual)
    if cls is None:
        return [qual]
    return [qual] + [b.qualname for b in _lineage(ctx, cls, _module_classes(ctx))
                     if isinstance(b, Frame)]


def inherited_tests(ctx: Context) -> list[Inherited]:
    """Every test a collected class inherits and does not define itself."""
    classes = _module_classes(ctx)
    out: list[Inherited] = []
    for cls in ctx.classes:
        if not cls.is_test_class or cls.parent is None or cls.parent.kind != "module":
            continue
        have = set(_methods(ctx, cls))
        for base in _lineage(ctx, cls, classes):
            candidates: list[tuple[str, Frame | None]]
            if isinstance(base, Frame):
                candidates = list(_methods(ctx, base).items())
                base_name = base.name
            else:
                candidates = [(n, None) for n in _imported_tests(ctx, base)]
                base_name = base
            for name, method in candidates:
                if name not in have and _is_test_name(ctx, cls, name):
                    have.add(name)
                    out.append(Inherited(cls, name, base_name, method))
    return out


def _imported_tests(ctx: Context, base: str) -> tuple[str, ...]:
    lookup = ctx.helper_lookup
    if lookup is None or not ctx.aliases.imported(base.split(".", 1)[0]):
        return ()
    for q in sorted(ctx.aliases.resolve(base)):
        names = lookup.test_methods(ctx.path, q)
        if names:
            return names
    return ()


def extended_through_super(ctx: Context) -> list[tuple[Frame, Frame]]:
    """(overriding test, base method) for each test that runs the test it overrides first
    thing in its body, unconditionally (``super().test_x()`` as a statement of its own):
    it checks what the base method checks, and more. A base from another module, or a
    call under a condition, a loop or a ``try``, is not followed."""
    classes = _module_classes(ctx)
    out: list[tuple[Frame, Frame]] = []
    for cls in ctx.classes:
        if not cls.is_test_class or cls.parent is None or cls.parent.kind != "module":
            continue
        for name, method in _methods(ctx, cls).items():
            if not method.is_test or not isinstance(method.node, cst.FunctionDef) or \
                    not _calls_super(method.node, name):
                continue
            for base in _lineage(ctx, cls, classes):
                if not isinstance(base, Frame):
                    break  # defined elsewhere first: its evidence is not read here
                found = _methods(ctx, base).get(name)
                if found is not None:
                    out.append((method, found))
                    break
    return out


def _calls_super(node: cst.FunctionDef, name: str) -> bool:
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    for stmt in body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            call = small.value if isinstance(small, cst.Expr) else None
            if isinstance(call, cst.Call) and not call.args and \
                    isinstance(call.func, cst.Attribute) and call.func.attr.value == name and \
                    isinstance(call.func.value, cst.Call) and \
                    isinstance(call.func.value.func, cst.Name) and \
                    call.func.value.func.value == "super" and not call.func.value.args:
                return True
    return False


def inherited_names(ctx: Context, cls: Frame) -> dict[str, str]:
    """Test name → base, for what ``cls`` would inherit were it not defining the name."""
    classes = _module_classes(ctx)
    out: dict[str, str] = {}
    for base in _lineage(ctx, cls, classes):
        names = _methods(ctx, base) if isinstance(base, Frame) else dict.fromkeys(
            _imported_tests(ctx, base))
        for name in names:
            if _is_test_name(ctx, cls, name):
                out.setdefault(name, base.name if isinstance(base, Frame) else base)
    return out


def flag_shadowing(ctx: Context) -> None:
    """A test that overrides an inherited one and checks nothing neutralises it."""
    counted = {id(raw.frame) for raw in ctx.items if raw.kind not in NOT_CHECKS}
    # An override running the overridden test first checks what it checks.
    counted |= {id(override) for override, base in extended_through_super(ctx)
                if _checks(base, counted, ctx)}
    for cls in ctx.classes:
        if not cls.is_test_class:
            continue
        inherited = inherited_names(ctx, cls)
        for name, method in _methods(ctx, cls).items():
            if name in inherited and method.is_test and not _checks(method, counted, ctx) \
                    and method.node is not None:
                ctx.suppress(SuppressionKind.DEAD_BRANCH, method.node, target=method.node_id,
                             detail=f"shadows the test inherited from {inherited[name]} with "
                                    "a method that checks nothing")


def _checks(method: Frame, counted: set[int], ctx: Context) -> bool:
    if id(method) in counted:
        return True
    # method itself is not in counted (above): its nested functions are what is left.
    return any(id(f) in counted for f in ctx.defs if f.within(method))


def test_methods(ctx: Context) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """What each module-level class offers as tests to subclasses in other modules."""
    out: list[tuple[str, tuple[str, ...]]] = []
    for cls in _module_classes(ctx).values():
        names = [n for n in _methods(ctx, cls) if n.startswith("test")]
        names += [n for n in inherited_names(ctx, cls) if n not in names]
        if names:
            out.append((cls.name, tuple(names)))
    return tuple(sorted(out))
