"""One file's summary for the call graph, from the stdlib ``ast``: what it defines, imports,
calls and binds, per scope. Compact and path-independent, so it is cached by blob hash.

A summary is plain tuples of strings and ints (``marshal``-able, a few KiB per file); the
parsed tree is not kept with it (only the last few trees are, for the grader stage to walk:
:mod:`.trees`). Names inside a summary are *refs*:
dotted names whose segments may end in ``()`` (the result of calling it) or ``[]`` (an
element of it): ``self.handlers[]`` is an element of ``self.handlers``, ``make().run``
the ``run`` attribute of what ``make()`` returns, ``super().save`` the next ``save`` in
the method resolution order. Expressions no ref can spell are ``?``.
"""

from __future__ import annotations

import ast
import gc
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from operator import attrgetter

from provscore.callgraph.trees import parse_shared
from provscore.records import dataclass

#: Bump when the summary's shape changes: cached summaries of another format are misses.
FORMAT = 6

UNKNOWN = "?"
LAMBDA = "<lambda>"
# The node classes the hot paths compare with `type(node) is` (a parsed tree holds no
# subclasses of them).
_Name, _Attribute, _Call, _Subscript, _Constant = (ast.Name, ast.Attribute, ast.Call,
                                                   ast.Subscript, ast.Constant)

# A scope: (qualname, kind, parent, start, end, params, bases, decorators, calls, assigns,
# returns, fixture, usefixtures). kind: "module" | "class" | "function".
# calls: (line, callee ref, ((arg key, ref), ...)); assigns: (target, (ref, ...)).
Call = tuple[int, str, tuple[tuple[str, str], ...]]
Assign = tuple[str, tuple[str, ...]]
Import = tuple[int, str, str, str, int]  # (scope, local name, module, name, level)


@dataclass(frozen=True, slots=True)
class Scope:
    qualname: str  # "" for the module, "Class.method", "outer.inner"
    kind: str
    parent: int  # index of the enclosing scope; -1 for the module
    start: int  # first line, decorators included
    end: int
    params: tuple[str, ...] = ()
    bases: tuple[str, ...] = ()
    decorators: tuple[str, ...] = ()
    calls: tuple[Call, ...] = ()
    assigns: tuple[Assign, ...] = ()
    returns: tuple[str, ...] = ()
    fixture: str = ""  # the fixture name, when it is a pytest fixture
    autouse: bool = False
    usefixtures: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FileSummary:
    scopes: tuple[Scope, ...]
    imports: tuple[Import, ...]
    error: str = ""  # why the file could not be parsed (its scopes are then empty)
    # Indices into `imports` made under `if TYPE_CHECKING:`: they bind names (annotations
    # resolve through them) but never run, so they are no import edges.
    typing_only: tuple[int, ...] = ()

    def to_record(self) -> tuple[object, ...]:
        return (FORMAT, tuple(_scope_record(s) for s in self.scopes), self.imports, self.error,
                self.typing_only)

    @classmethod
    def from_record(cls, rec: object) -> FileSummary:
        """Rebuild from :meth:`to_record`; anything malformed raises ValueError."""
        if not isinstance(rec, tuple) or len(rec) != 5 or rec[0] != FORMAT:
            raise ValueError("not a call-graph summary of this format")
        _, scopes, imports, error, typing_only = rec
        if not isinstance(scopes, tuple) or not isinstance(imports, tuple) or \
                not isinstance(error, str) or not isinstance(typing_only, tuple) or \
                not all(type(k) is int for k in typing_only):
            raise ValueError("malformed call-graph summary")
        try:
            return cls(tuple(Scope(*s) for s in scopes), imports, error, typing_only)
        except TypeError as exc:
            raise ValueError(f"malformed call-graph summary: {exc}") from None


def _scope_record(s: Scope) -> tuple[object, ...]:
    return (s.qualname, s.kind, s.parent, s.start, s.end, s.params, s.bases, s.decorators,
            s.calls, s.assigns, s.returns, s.fixture, s.autouse, s.usefixtures)


def ref_of(node: ast.expr | None) -> str:
    """The ref spelling of an expression, or ``?``."""
    if isinstance(node, ast.Name):  # the most common callees first
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return f"{node.value.id}.{node.attr}"
    parts: list[str] = []
    while node is not None:
        kind = type(node)
        if kind is _Name:
            assert isinstance(node, ast.Name)
            parts.append(node.id)
            break
        if kind is _Attribute:
            assert isinstance(node, ast.Attribute)
            parts.append(node.attr)
            node = node.value
        elif kind is _Call:
            assert isinstance(node, ast.Call)
            if type(node.func) is _Name and node.func.id == "super":
                parts.append("super()")
                break
            inner = ref_of(node.func)
            if inner == UNKNOWN:
                return UNKNOWN
            parts.append(inner + "()")
            break
        elif kind is _Subscript:
            assert isinstance(node, ast.Subscript)
            inner = ref_of(node.value)
            if inner == UNKNOWN:
                return UNKNOWN
            parts.append(inner + "[]")
            break
        elif kind is ast.Await:
            assert isinstance(node, ast.Await)
            node = node.value
        else:
            return UNKNOWN
    return ".".join(reversed(parts))


def _value_refs(node: ast.expr | None) -> tuple[str, ...]:
    """What an assigned or returned value may be: a ref, or each branch and element."""
    if isinstance(node, ast.Name):
        return (node.id,)
    kind = type(node)
    if kind is _Constant or node is None:
        return ()
    if kind is ast.IfExp:
        assert isinstance(node, ast.IfExp)
        return _value_refs(node.body) + _value_refs(node.orelse)
    if kind is ast.BoolOp:
        assert isinstance(node, ast.BoolOp)
        return tuple(r for v in node.values for r in _value_refs(v))
    if kind is ast.NamedExpr:
        assert isinstance(node, ast.NamedExpr)
        return _value_refs(node.value)
    if kind is ast.Lambda:
        return (LAMBDA,)  # its calls are the enclosing scope's; calling it adds none
    ref = ref_of(node)
    if kind is ast.Call:
        assert isinstance(node, ast.Call)
        if node.args and ref[:-2].rpartition(".")[2] in _PARTIALS:
            # `inc = functools.partial(add, 1)`: calling inc calls add (making it does not)
            return (*_value_refs(node.args[0]), ref)
    return (ref,) if ref != UNKNOWN else ()


_PARTIALS = frozenset({"partial", "partialmethod"})


def _element_refs(node: ast.expr) -> tuple[str, ...] | None:
    """The refs held by a container literal, or None when it is not one."""
    if isinstance(node, ast.Dict):
        return tuple(r for v in node.values for r in _value_refs(v))
    if isinstance(node, ast.List | ast.Tuple | ast.Set):
        return tuple(r for v in node.elts for r in _value_refs(v))
    return None


def _target_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id in ("self", "cls"):
        return f"{node.value.id}.{node.attr}"
    if isinstance(node, ast.Subscript):
        inner = _target_name(node.value)
        return f"{inner}[]" if inner else ""
    return ""


class _Builder:
    """Walks one tree, filling mutable per-scope lists that become :class:`Scope`s."""

    def __init__(self) -> None:
        self.scopes: list[list[object]] = []
        self.calls: list[list[Call]] = []
        self.assigns: list[list[Assign]] = []
        self.returns: list[list[str]] = []
        self.imports: list[Import] = []
        self.typing_only: list[int] = []
        self.typing_depth = 0  # inside `if TYPE_CHECKING:` bodies

    def open(self, qualname: str, kind: str, parent: int, start: int, end: int,
             **extra: object) -> int:
        self.scopes.append([qualname, kind, parent, start, end, extra])
        self.calls.append([])
        self.assigns.append([])
        self.returns.append([])
        return len(self.scopes) - 1

    def finish(self) -> FileSummary:
        out: list[Scope] = []
        for i, (qual, kind, parent, start, end, extra) in enumerate(self.scopes):
            assert isinstance(extra, dict)
            out.append(Scope(qual, kind, parent, start, end,  # type: ignore[arg-type]
                             calls=tuple(self.calls[i]), assigns=tuple(self.assigns[i]),
                             returns=tuple(self.returns[i]), **extra))
        return FileSummary(tuple(out), tuple(self.imports), typing_only=tuple(self.typing_only))

    def add_import(self, imp: Import) -> None:
        if self.typing_depth:
            self.typing_only.append(len(self.imports))
        self.imports.append(imp)


def _decorator_info(decs: list[ast.expr]) -> tuple[tuple[str, ...], str, bool, tuple[str, ...]]:
    """(decorator refs, fixture flag, autouse, usefixtures names)."""
    refs: list[str] = []
    fixture, autouse, use = "", False, []
    for d in decs:
        func = d.func if isinstance(d, ast.Call) else d
        ref = ref_of(func)
        refs.append(ref)
        last = ref.rsplit(".", 1)[-1]
        if last in ("fixture", "yield_fixture"):
            fixture = "\x00"  # the function's own name unless name= says otherwise
            if isinstance(d, ast.Call):
                for kw in d.keywords:
                    if kw.arg == "name" and isinstance(kw.value, ast.Constant) and \
                            isinstance(kw.value.value, str):
                        fixture = kw.value.value
                    elif kw.arg == "autouse" and isinstance(kw.value, ast.Constant):
                        autouse = bool(kw.value.value)
        elif last == "usefixtures" and isinstance(d, ast.Call):
            use += [a.value for a in d.args
                    if isinstance(a, ast.Constant) and isinstance(a.value, str)]
    return tuple(refs), fixture, autouse, tuple(use)


def _params(args: ast.arguments) -> tuple[str, ...]:
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    if args.vararg:
        names.append("*" + args.vararg.arg)
    names += [a.arg for a in args.kwonlyargs]
    if args.kwarg:
        names.append("**" + args.kwarg.arg)
    return tuple(names)


def _call_args(call: ast.Call) -> tuple[tuple[str, str], ...]:
    """Arguments that may be functions (names, attributes, elements): (key, ref)."""
    args, keywords = call.args, call.keywords
    if not args and not keywords:
        return ()
    out: list[tuple[str, str]] = []
    for i, a in enumerate(args):
        kind = type(a)
        if kind is _Constant:
            continue
        if kind is _Name:
            out.append((_POSITION[i] if i < 32 else str(i), a.id))  # type: ignore[attr-defined]
            continue
        if kind is ast.Starred:
            break  # positions after a star are unknown
        for ref in _value_refs(a):
            out.append((str(i), ref))
    for kw in keywords:
        if kw.arg is not None:
            for ref in _value_refs(kw.value):
                out.append((kw.arg, ref))
    return tuple(out)


_POSITION = tuple(str(i) for i in range(32))


def _walk_body(b: _Builder, body: list[ast.stmt], scope: int, prefix: str) -> None:
    for stmt in body:
        _walk_stmt(b, stmt, scope, prefix)


def _walk_def(b: _Builder, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef,
              scope: int, prefix: str) -> None:
    decs, fixture, autouse, use = _decorator_info(node.decorator_list)
    start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    end = node.end_lineno or node.lineno
    qual = f"{prefix}{node.name}"
    for d in node.decorator_list:
        _walk_expr(b, d, scope)
    if isinstance(node, ast.ClassDef):
        bases = tuple(ref_of(x) for x in node.bases)
        for x in (*node.bases, *(k.value for k in node.keywords)):
            _walk_expr(b, x, scope)
        inner = b.open(qual, "class", scope, start, end, bases=bases, decorators=decs)
        _walk_body(b, node.body, inner, qual + ".")
        return
    if fixture == "\x00":
        fixture = node.name
    a = node.args
    for default in (*a.defaults, *(d for d in a.kw_defaults if d is not None)):
        _walk_expr(b, default, scope)
    inner = b.open(qual, "function", scope, start, end, params=_params(a), decorators=decs,
                   fixture=fixture, autouse=autouse, usefixtures=use)
    for arg in (*a.posonlyargs, *a.args, *a.kwonlyargs):
        if isinstance(arg.annotation, ast.Name | ast.Attribute):
            ref = ref_of(arg.annotation)  # `r: Repo`: r is a Repo (unless a call binds it)
            if ref != UNKNOWN:
                b.assigns[inner].append((arg.arg, (ref + "()",)))
    _walk_body(b, node.body, inner, qual + ".")


def _walk_stmt(b: _Builder, stmt: ast.stmt, scope: int, prefix: str) -> None:
    kind = type(stmt)
    if kind in _DEFS:
        _walk_def(b, stmt, scope, prefix)  # type: ignore[arg-type]
        return
    if kind is ast.Import:
        assert isinstance(stmt, ast.Import)
        for alias in stmt.names:
            local = alias.asname or alias.name.split(".", 1)[0]
            # `import a.b` binds `a`; `import a.b as c` binds c to a.b.
            b.add_import((scope, local, alias.name if alias.asname else local, "", 0))
            if not alias.asname and "." in alias.name:
                b.add_import((scope, "\x00" + alias.name, alias.name, "", 0))
        return
    if kind is ast.ImportFrom:
        assert isinstance(stmt, ast.ImportFrom)
        for alias in stmt.names:
            b.add_import((scope, alias.asname or alias.name, stmt.module or "",
                              alias.name, stmt.level))
        return
    if kind in _BINDS:
        _walk_binding(b, stmt, scope)
    if kind is ast.If and _is_type_checking(stmt.test):  # type: ignore[attr-defined]
        assert isinstance(stmt, ast.If)  # `kind is` first: this runs for every statement
        _walk_expr(b, stmt.test, scope)
        b.typing_depth += 1
        for child in stmt.body:
            _walk_stmt(b, child, scope, prefix)
        b.typing_depth -= 1
        for child in stmt.orelse:
            _walk_stmt(b, child, scope, prefix)
        return
    _walk_children(b, stmt, scope, prefix)


def _is_type_checking(test: ast.expr) -> bool:
    """``TYPE_CHECKING`` or ``typing.TYPE_CHECKING`` (any module's): true only for type
    checkers, never when the code runs."""
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _walk_binding(b: _Builder, stmt: ast.stmt, scope: int) -> None:
    """What an assignment, ``return``, ``for`` or ``with`` binds in ``scope``."""
    if isinstance(stmt, ast.Assign | ast.AnnAssign | ast.AugAssign):
        value = stmt.value
        targets: list[ast.expr] = list(stmt.targets) if isinstance(stmt, ast.Assign) \
            else [stmt.target]
        if value is not None:
            _bind(b, scope, targets, value)
    elif isinstance(stmt, ast.Return) and stmt.value is not None:
        b.returns[scope].extend(_value_refs(stmt.value))
    elif isinstance(stmt, ast.For | ast.AsyncFor):
        name = _target_name(stmt.target)
        if name:
            inner = ref_of(stmt.iter)
            if inner != UNKNOWN:
                b.assigns[scope].append((name, (inner + "[]",)))
    elif isinstance(stmt, ast.With | ast.AsyncWith):
        for item in stmt.items:
            if item.optional_vars is not None:
                name = _target_name(item.optional_vars)
                if name:
                    b.assigns[scope].append((name, _value_refs(item.context_expr)))


def _walk_children(b: _Builder, node: ast.AST, scope: int, prefix: str) -> None:
    """The statements, expressions, handlers, ``with`` items and patterns directly under
    ``node``, in field order."""
    roles = _ROLE
    for value in _child_values(node):
        for child in value if type(value) is list else (value,):
            role = roles.get(type(child), 0)
            if role == _EXPR:
                _walk_expr(b, child, scope)  # type: ignore[arg-type]
            elif role == _STMT:
                _walk_stmt(b, child, scope, prefix)  # type: ignore[arg-type]
            elif role == _HANDLER:
                _walk_children(b, child, scope, prefix)  # type: ignore[arg-type]


def _bind(b: _Builder, scope: int, targets: list[ast.expr], value: ast.expr) -> None:
    for target in targets:
        if isinstance(target, ast.Tuple | ast.List) and isinstance(value, ast.Tuple | ast.List) \
                and len(target.elts) == len(value.elts):
            _bind_pairs(b, scope, target.elts, value.elts)
            continue
        name = _target_name(target)
        if not name:
            continue
        elements = _element_refs(value)
        if elements is not None:
            b.assigns[scope].append((name + "[]", elements))
        else:
            b.assigns[scope].append((name, _value_refs(value)))


def _bind_pairs(b: _Builder, scope: int, targets: list[ast.expr], values: list[ast.expr]) -> None:
    for t, v in zip(targets, values, strict=True):
        _bind(b, scope, [t], v)


# Fields that never hold a child node that can hold a call: skipping them (above all
# `ctx`, a Load or Store node on every name, and the operator of every operation) saves
# pushing and popping millions of nodes that hold nothing.
_LEAF_FIELDS = frozenset({"ctx", "id", "attr", "arg", "name", "kind", "type_comment",
                          "asname", "module", "level", "conversion", "is_async", "op", "ops",
                          "names", "simple", "lineno", "tag", "kwd_attrs"})


def _node_classes(root: type) -> list[type]:
    out = [root]
    subs: list[type] = root.__subclasses__()
    for sub in subs:
        out += _node_classes(sub)
    return out


def _fields_of(kind: type) -> tuple[str, ...]:
    if kind is ast.Constant or kind is ast.MatchSingleton:
        return ()  # their value is a Python constant, never a node
    return tuple(f for f in getattr(kind, "_fields", ()) if f not in _LEAF_FIELDS)


def _values_getter(fields: tuple[str, ...]) -> Callable[[ast.AST], tuple[object, ...]]:
    """``node -> (field value, ...)`` in one C call (``attrgetter`` of one field returns
    the value itself, so that one is wrapped)."""
    if len(fields) == 1:
        one = attrgetter(fields[0])
        return lambda node: (one(node),)
    return attrgetter(*fields)


_CLASSES = _node_classes(ast.AST)
#: Per node class, its fields that may hold child nodes, read in one call (constant).
_GETTERS: dict[type, Callable[[ast.AST], tuple[object, ...]] | None] = {
    k: _values_getter(f) if (f := _fields_of(k)) else None for k in _CLASSES}
# What a child node is to the walk.
_STMT, _EXPR, _HANDLER = 1, 2, 3
_ROLE: dict[type, int] = {
    k: _STMT if issubclass(k, ast.stmt) else
    _EXPR if issubclass(k, ast.expr) and _GETTERS[k] is not None else
    # A `with` item holds the context expression: `with lock(): ...` calls lock.
    _HANDLER if issubclass(k, ast.excepthandler | ast.match_case | ast.pattern | ast.withitem)
    else 0
    for k in _CLASSES}
#: Expression nodes the walk descends into (names and constants hold nothing).
_DESCEND = frozenset(k for k in _CLASSES if _GETTERS[k] is not None)
_DEFS = frozenset({ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef})
_BINDS = frozenset({ast.Assign, ast.AnnAssign, ast.AugAssign, ast.Return, ast.For,
                    ast.AsyncFor, ast.With, ast.AsyncWith})


def _child_values(node: ast.AST) -> tuple[object, ...]:
    get = _GETTERS.get(type(node))
    return get(node) if get is not None else ()


def _walk_expr(b: _Builder, node: ast.expr, scope: int) -> None:
    """Every call under an expression (lambdas and comprehensions run in this scope).

    Depth first, last child first; only nodes that can hold a call are pushed. The most
    common nodes (calls, binary operations, attributes) are taken apart inline, in the
    order the generic field walk would push their children."""
    stack: list[ast.AST] = [node]
    pop, push = stack.pop, stack.append
    calls = b.calls[scope]
    getters, descend = _GETTERS, _DESCEND
    Call, BinOp, Attribute, NamedExpr = ast.Call, ast.BinOp, ast.Attribute, ast.NamedExpr
    while stack:
        n = pop()
        kind = type(n)
        if kind is Call:
            assert isinstance(n, ast.Call)
            calls.append((n.lineno, ref_of(n.func), _call_args(n)))
            if type(n.func) in descend:
                push(n.func)
            stack.extend([v for v in n.args if type(v) in descend])
            # A keyword holds only its value: pushed in the keyword's place.
            stack.extend([k.value for k in n.keywords if type(k.value) in descend])
            continue
        if kind is BinOp:
            assert isinstance(n, ast.BinOp)
            if type(n.left) in descend:
                push(n.left)
            if type(n.right) in descend:
                push(n.right)
            continue
        if kind is Attribute:
            assert isinstance(n, ast.Attribute)
            if type(n.value) in descend:
                push(n.value)
            continue
        if kind is NamedExpr:
            assert isinstance(n, ast.NamedExpr)
            name = _target_name(n.target)
            if name:
                b.assigns[scope].append((name, _value_refs(n.value)))
        get = getters[kind]
        if get is None:
            continue
        for value in get(n):
            if type(value) is list:
                stack.extend([v for v in value if type(v) in descend])
            elif type(value) in descend:
                push(value)  # type: ignore[arg-type]


@contextmanager
def paused_gc() -> Iterator[None]:
    """The cyclic GC paused meanwhile (nested pauses keep it paused until the outermost
    ends). Trees, summaries, name tables and graphs hold no reference cycles, so they are
    freed by reference counting; every collection their many allocations trigger only
    traverses everything alive (a cold build of sympy spent a third of its time in them).
    """
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def summarise(source: bytes) -> FileSummary:
    """The summary of one Python file; a file ``ast`` cannot parse has ``error`` set."""
    with paused_gc():
        return _summarise(source)


def _summarise(source: bytes) -> FileSummary:
    try:
        tree = parse_shared(source)  # the grader walks the same post-image
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        line = getattr(exc, "lineno", None)
        where = f" (line {line})" if line else ""
        return FileSummary((), (), f"{type(exc).__name__}: {exc}{where}"[:300])
    b = _Builder()
    lines = len(source.splitlines()) or 1
    module = b.open("", "module", -1, 1, lines)
    try:
        _walk_body(b, tree.body, module, "")
    except RecursionError:
        return FileSummary((), (), "RecursionError: expression nested too deeply")
    return b.finish()
