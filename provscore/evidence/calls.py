"""Which signature an evidence call binds to (evidence/binding.py binds it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

import libcst as cst

from provscore.evidence.binding import Signature
from provscore.evidence.context import Context, Frame, RawItem
from provscore.evidence.inheritance import class_chain
from provscore.evidence.model import EvidenceKind
from provscore.evidence.scope import still_bound
from provscore.evidence.tables import Tables


def call_signature(ctx: Context, raw: RawItem) -> Signature | None:
    """The signature an evidence call binds to: a framework assertion's from the table, a
    helper's from its def (a function of this module or one it imports, or a method
    ``self`` reaches through the classes in this module and the bases they import); None
    when it is not known."""
    if raw.kind is EvidenceKind.UNITTEST:
        return ctx.tables.signatures.get(raw.op)
    if raw.kind is not EvidenceKind.HELPER_CALL or not isinstance(raw.node, cst.Call):
        return None
    func = raw.node.func
    if isinstance(func, cst.Name):
        found = _function(ctx, func.value)
        return _signature(*found, "") if found is not None else None
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
            func.value.value in ("self", "cls"):
        cls = _enclosing_class(raw.frame)
        found = _method(ctx, cls, func.attr.value) if cls is not None else None
        return _signature(*found, func.value.value) if found is not None else None
    return None


_T = TypeVar("_T")
DefText = tuple[str, str]  # (its decorators, its parameter list), as written


def def_text(node: cst.FunctionDef) -> DefText:
    empty = cst.Module(body=[])
    return (",".join(empty.code_for_node(d.decorator) for d in node.decorators),
            empty.code_for_node(node.params))


def _function(ctx: Context, name: str) -> DefText | None:
    found = [f for f in ctx.defs if f.kind == "func" and f.name == name and
             f.parent is ctx.frames[0]]
    if found:
        return _own(ctx, found[0]) if len(found) == 1 else None
    lookup = ctx.helper_lookup
    if lookup is None or not ctx.aliases.imported(name):
        return None
    texts = {lookup.signature(ctx.path, q) for q in ctx.aliases.resolve(name)} - {None}
    return texts.pop() if len(texts) == 1 else None


def _method(ctx: Context, cls: Frame, name: str) -> DefText | None:
    target = reached_method(ctx, cls, name)
    if isinstance(target, Frame):
        return _own(ctx, target)
    if target is None or ctx.helper_lookup is None:
        return None
    lookup = ctx.helper_lookup
    return _one({lookup.signature(ctx.path, q) for q in target})


def reached_method(ctx: Context, cls: Frame, name: str) -> Frame | frozenset[str] | None:
    """The method ``self.name`` reaches from ``cls``: its def in this module, or the
    qualified names it may have in the module that defines a base from elsewhere (asked of
    the helper lookup); None when it is not known (none, or defined twice in one class)."""
    for klass in class_chain(ctx, cls):
        if isinstance(klass, str):  # a base from elsewhere: read there, or unknown
            if ctx.helper_lookup is None or not ctx.aliases.imported(klass.split(".", 1)[0]):
                return None
            return frozenset(f"{q}.{name}" for q in ctx.aliases.resolve(klass))
        found = [f for f in ctx.defs if f.parent is klass and f.kind == "func" and
                 f.name == name]
        if found:
            return found[0] if len(found) == 1 else None
    return None


def _one(answers: set[_T]) -> _T | None:
    """The one answer every reading gives (None when they disagree or none is known)."""
    answers.discard(None)
    return answers.pop() if len(answers) == 1 else None


def _own(ctx: Context, target: Frame) -> DefText | None:
    if not isinstance(target.node, cst.FunctionDef) or not still_bound(target) or \
            ctx.aliases.imported(target.name):
        return None
    return def_text(target.node)


def _enclosing_class(frame: Frame) -> Frame | None:
    cur: Frame | None = frame
    while cur is not None and cur.kind != "class":
        cur = cur.parent
    return cur


def _signature(decorated: str, params: str, receiver: str) -> Signature | None:
    """Every positional parameter of a helper is an operand (what it checks is unknown);
    a decorator other than staticmethod/classmethod may change the signature: unknown."""
    decorators = set(decorated.split(",")) - {""}
    if decorators - {"staticmethod", "classmethod"}:
        return None
    if receiver:
        skip = "classmethod" in decorators or (receiver == "self" and not decorators)
        if receiver == "cls" and not decorators:
            return None  # `cls.method(obj, ...)`: whether obj is self is unknown
    else:
        skip = False
    sig = Signature.parse(params, skip_first=skip)
    if sig is None:
        return None
    return Signature(sig.params, sum(p.positional for p in sig.params), sig.varargs,
                     sig.varkw)


def offered_signatures(ctx: Context) -> tuple[tuple[str, str, str], ...]:
    """What this module offers importers to bind calls to: each module-level function and
    each method of a module-level class (qualname, decorators, parameters)."""
    out: list[tuple[str, str, str]] = []
    top = ctx.frames[0]
    for f in ctx.defs:
        parent = f.parent
        if f.kind != "func" or parent is None or not isinstance(f.node, cst.FunctionDef):
            continue
        if (parent is top or (parent.kind == "class" and parent.parent is top)) and \
                still_bound(f):
            out.append((f.qualname, *def_text(f.node)))
    names = [q for q, _, _ in out]
    return tuple(sorted(row for row in out if names.count(row[0]) == 1))


def helper_tables(ctx: Context, raw: RawItem) -> tuple[int, ...]:
    """Operand positions of a call to a helper of this module that loops over those
    parameters row by row (``for a, b in zip(xs, ys):`` or ``for x in xs:``), a statement of
    its body at its top, the parameters never rebound; () when not known."""
    if raw.kind is not EvidenceKind.HELPER_CALL or not isinstance(raw.node, cst.Call):
        return ()
    func = raw.node.func
    target: Frame | None = None
    if isinstance(func, cst.Name) and not ctx.aliases.imported(func.value):
        found = [f for f in ctx.defs if f.kind == "func" and f.name == func.value and
                 f.parent is ctx.frames[0]]
        target = found[0] if len(found) == 1 else None
    elif isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
            func.value.value == "self":
        cls = _enclosing_class(raw.frame)
        for klass in class_chain(ctx, cls) if cls is not None else ():
            if isinstance(klass, str):
                break
            found = [f for f in ctx.defs if f.parent is klass and f.kind == "func" and
                     f.name == func.attr.value]
            if found:
                target = found[0] if len(found) == 1 else None
                break
    node = target.node if target is not None else None
    if target is None or not isinstance(node, cst.FunctionDef) or node.decorators or \
            not still_bound(target):
        return ()
    params = [p.name.value for p in node.params.params]
    if isinstance(func, cst.Attribute):
        params = params[1:]
    iterated = _iterated_params(node)
    if not iterated or any(n not in params or len(target.bindings.get(n, ())) != 1
                           for n in iterated):
        return ()
    return tuple(sorted(params.index(n) for n in iterated))


def _iterated_params(node: cst.FunctionDef) -> tuple[str, ...]:
    body = list(node.body.body) if isinstance(node.body, cst.IndentedBlock) else []
    if body and isinstance(body[0], cst.SimpleStatementLine) and \
            isinstance(body[0].body[0], cst.Expr) and \
            isinstance(body[0].body[0].value, cst.SimpleString | cst.ConcatenatedString):
        body = body[1:]  # the docstring
    loop = body[0] if body else None
    if not isinstance(loop, cst.For) or loop.orelse is not None:
        return ()
    it = loop.iter
    if isinstance(it, cst.Name):
        return (it.value,)
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "zip" \
            and it.args and all(a.keyword is None and a.star == "" and
                                isinstance(a.value, cst.Name) for a in it.args):
        return tuple(a.value.value for a in it.args if isinstance(a.value, cst.Name))
    return ()


class _SelfReads(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        if isinstance(node.value, cst.Name) and node.value.value == "self":
            self.names.add(node.attr.value)


def self_reads(node: cst.FunctionDef) -> tuple[str, ...]:
    """The attributes of ``self`` a method names (reads, calls or writes)."""
    reads = _SelfReads()
    node.body.visit(reads)
    return tuple(sorted(reads.names))


def offered_self_reads(ctx: Context, helper_names: set[str]
                       ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """What each helper method of a module-level class (``Class.method``) names of
    ``self``: a test class's attributes it reads (``self.default_kwargs``) are the inputs
    of every call of it."""
    top = ctx.frames[0]
    out = []
    for f in ctx.defs:
        parent = f.parent
        if f.kind == "func" and isinstance(f.node, cst.FunctionDef) and parent is not None \
                and parent.kind == "class" and parent.parent is top and \
                f.qualname in helper_names and still_bound(f):
            out.append((f.qualname, self_reads(f.node)))
    return tuple(sorted(out))


def method_self_reads(ctx: Context, cls: Frame, name: str) -> tuple[str, ...] | None:
    """What the method ``name`` that ``self`` reaches from ``cls`` names of ``self`` (read
    in this module, or asked of the module defining the base); None when not known."""
    target = reached_method(ctx, cls, name)
    if isinstance(target, Frame):
        node = target.node
        return _memo(ctx, node, "self", self_reads) if isinstance(node, cst.FunctionDef) \
            else None
    if target is None or ctx.helper_lookup is None:
        return None
    lookup = ctx.helper_lookup
    return _one({lookup.self_reads(ctx.path, q) for q in target})


# Defaults of a parameter that, left at them, add no check (nothing to compare).
EMPTY_DEFAULTS = frozenset({"None", "()", "{}", "[]"})


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)


def _names(node: cst.CSTNode) -> set[str]:
    found = _Names()
    node.visit(found)
    return found.names


def _is_check(stmt: cst.BaseStatement, tables: Tables) -> bool:
    """An assert statement, or a statement that only calls an assertion method."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for small in stmt.body:
        if isinstance(small, cst.Assert):
            continue
        call = small.value if isinstance(small, cst.Expr) else None
        func = call.func if isinstance(call, cst.Call) else None
        name = func.attr.value if isinstance(func, cst.Attribute) else \
            func.value if isinstance(func, cst.Name) else None
        if name is None or name not in tables.unittest_methods:
            return False
    return True


def _only_checks(body: cst.BaseSuite, tables: Tables) -> bool:
    return isinstance(body, cst.IndentedBlock) and bool(body.body) and \
        all(_is_check(s, tables) for s in body.body)


def _feeds_checks_only(stmt: cst.BaseStatement, name: str, tables: Tables) -> bool:
    """Whether a statement naming parameter ``name`` uses it only to check more: a check,
    a loop over it (or a condition on it) whose body only checks, or rebinding it to its
    empty form (``expected = expected or {}``)."""
    if _is_check(stmt, tables):
        return True
    if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1:
        small = stmt.body[0]
        return isinstance(small, cst.Assign) and len(small.targets) == 1 and \
            isinstance(small.targets[0].target, cst.Name) and \
            small.targets[0].target.value == name and _names(small.value) <= {name, "None"}
    if isinstance(stmt, cst.For) and stmt.orelse is None:
        return name not in _names(stmt.target) and _only_checks(stmt.body, tables)
    if isinstance(stmt, cst.If) and stmt.orelse is None:
        return _names(stmt.test) <= {name, "None"} and (
            _only_checks(stmt.body, tables) or (
                isinstance(stmt.body, cst.IndentedBlock) and
                all(_feeds_checks_only(s, name, tables) for s in stmt.body.body)))
    return False


def check_only_params(node: cst.FunctionDef, tables: Tables) -> tuple[str, ...]:
    """The parameters of a helper that only add checks (``expected_attrs=None``, each
    pair then compared with assertEqual): at an empty default they check nothing, and
    every statement naming them only checks more, so an argument given there where none
    was is a stronger call."""
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    out = []
    for p in node.params.params:
        default = p.default
        if default is None or cst.Module(body=[]).code_for_node(default) not in EMPTY_DEFAULTS:
            continue
        name = p.name.value
        naming = [s for s in body if name in _names(s)]
        if naming and all(_feeds_checks_only(s, name, tables) for s in naming):
            out.append(name)
    return tuple(out)


def offered_check_params(ctx: Context, helper_names: set[str]
                         ) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each helper function or method of a module-level class with parameters that only
    add checks, for the modules that call it."""
    top = ctx.frames[0]
    out = []
    for f in ctx.defs:
        parent = f.parent
        if f.kind != "func" or not isinstance(f.node, cst.FunctionDef) or parent is None or \
                f.qualname not in helper_names or not still_bound(f) or not (
                    parent is top or (parent.kind == "class" and parent.parent is top)):
            continue
        params = check_only_params(f.node, ctx.tables)
        if params:
            out.append((f.qualname, params))
    return tuple(sorted(out))


def helper_check_args(ctx: Context, raw: RawItem) -> tuple[int, ...]:
    """Operand positions (as the call binds) of the called helper's parameters that only
    add checks; () when there are none or the helper is not known."""
    if raw.kind is not EvidenceKind.HELPER_CALL or not isinstance(raw.node, cst.Call):
        return ()
    params = _check_params_of(ctx, raw)
    sig = call_signature(ctx, raw) if params else None
    if sig is None:
        return ()
    positional = [p.name for p in sig.params if p.positional]
    return tuple(sorted(positional.index(n) for n in params if n in positional))


def helper_arg_names(ctx: Context, raw: RawItem) -> tuple[str, ...]:
    """The names of the called helper's positional parameters, in operand order; () when
    the call is no helper call or the helper is not known."""
    if raw.kind is not EvidenceKind.HELPER_CALL or not isinstance(raw.node, cst.Call):
        return ()
    sig = call_signature(ctx, raw)
    return tuple(p.name for p in sig.params if p.positional) if sig is not None else ()


def _check_params_of(ctx: Context, raw: RawItem) -> tuple[str, ...]:
    func = raw.node.func if isinstance(raw.node, cst.Call) else None
    if isinstance(func, cst.Name):
        found = [f for f in ctx.defs if f.kind == "func" and f.name == func.value and
                 f.parent is ctx.frames[0]]
        if found:
            node = found[0].node
            return _memo(ctx, node, "checks", lambda n: check_only_params(n, ctx.tables)) \
                if len(found) == 1 and isinstance(node, cst.FunctionDef) and \
                not node.decorators else ()
        lookup = ctx.helper_lookup
        if lookup is None or not ctx.aliases.imported(func.value):
            return ()
        return _one({lookup.check_params(ctx.path, q)
                     for q in ctx.aliases.resolve(func.value)}) or ()
    if not isinstance(func, cst.Attribute) or not isinstance(func.value, cst.Name) or \
            func.value.value != "self":
        return ()
    cls = _enclosing_class(raw.frame)
    target = reached_method(ctx, cls, func.attr.value) if cls is not None else None
    if isinstance(target, Frame):
        node = target.node
        return _memo(ctx, node, "checks", lambda n: check_only_params(n, ctx.tables)) \
            if isinstance(node, cst.FunctionDef) and not node.decorators else ()
    if target is None or ctx.helper_lookup is None:
        return ()
    lookup = ctx.helper_lookup
    return _one({lookup.check_params(ctx.path, q) for q in target}) or ()


def _memo(ctx: Context, node: cst.FunctionDef, what: str,
          read: Callable[[cst.FunctionDef], tuple[str, ...]]) -> tuple[str, ...]:
    key = (id(node), what)  # the module holds every def while the context lives
    if key not in ctx.def_facts:
        ctx.def_facts[key] = read(node)
    return ctx.def_facts[key]
