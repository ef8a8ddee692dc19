"""Suppressions through a project's own helpers, and decorators that are known to be safe.

A *skip helper* is a function that skips or xfails, directly or through other functions
(``def requires_db(): if not DB: pytest.skip(...)``, sympy's ``skip``, pytest's own
``symlink_or_skip``), or a name bound to a skip or a mark (``XFAIL = pytest.mark.xfail``).
Calling one in a test is a runtime skip (PS203); applying one to a test is a skip or an
xfail (PS201/PS202) — exactly as helper oracles are evidence through their callers. They
are found in the module itself and, through the call graph's index, in the modules a test
imports (test-support modules, the project's testing package).

A decorator added to an existing test that is neither a mark nor on the safe list may
replace the test's body (PS206), unless it is *transparent*: it always calls the function
it wraps and returns its result (a timer, a registry) — decided from its code, in this
module or in the one it is imported from.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

import libcst as cst

from provscore.evidence.constants import parse_function
from provscore.evidence.context import Context, RawCall, RawItem, callee
from provscore.evidence.cst_names import dotted
from provscore.evidence.fixture_meaning import Entries, dict_step, display
from provscore.evidence.model import EvidenceKind, SuppressionKind
from provscore.evidence.suppressions.common import mark_kind
from provscore.names import matches

_SKIPPING = (SuppressionKind.RUNTIME_SKIP, SuppressionKind.SKIP_MARK,
             SuppressionKind.XFAIL_MARK)


def _flavour(code: str) -> SuppressionKind:
    """What applying the helper does: an xfail when its skip is an xfail, else a skip."""
    low = code.lower()
    xfail = "xfail" in low or "expectedfailure" in low
    return SuppressionKind.XFAIL_MARK if xfail else SuppressionKind.SKIP_MARK


def skipping_functions(ctx: Context) -> dict[str, SuppressionKind]:
    """Qualnames of this module's functions that skip or xfail, transitively."""
    funcs = {f.qualname: f for f in ctx.defs if not f.is_test and f.test_id is None}
    found: dict[str, SuppressionKind] = {}
    for s in ctx.suppressions:
        if s.kind not in _SKIPPING or not s.frame:
            continue
        for qual in funcs:
            if s.frame == qual or s.frame.startswith(qual + "."):
                found.setdefault(qual, _flavour(s.detail + " " + _code(s.node)))
    calls: dict[str, set[str]] = {}
    for call in ctx.calls:
        if call.frame.qualname in funcs:
            calls.setdefault(call.frame.qualname, set()).add(call.name)
    changed = True
    while changed:
        changed = False
        short = {q.rsplit(".", 1)[-1]: kind for q, kind in found.items()}
        for qual, names in calls.items():
            hit = next((short[n] for n in sorted(names & short.keys())), None)
            if qual not in found and hit is not None:
                found[qual] = hit
                changed = True
    return found


def _code(node: cst.CSTNode) -> str:
    try:
        return cst.Module(body=[]).code_for_node(node)
    except Exception:  # a node libcst cannot print alone: its kind is unknown
        return ""


def aliased_skips(ctx: Context) -> dict[str, SuppressionKind]:
    """Module-level names bound to a mark or a skip (``XFAIL = pytest.mark.xfail``,
    ``skip = pytest.skip``)."""
    out: dict[str, SuppressionKind] = {}
    t = ctx.tables
    for name in ctx.frames[0].bindings:
        resolved = ctx.aliases.resolve(name)
        kind = mark_kind(t, resolved)
        if kind is None and matches(resolved, t.runtime_skips):
            kind = _flavour(" ".join(sorted(resolved)))
        if kind is not None:
            out[name] = kind
    return out


def _top_statements(fn: cst.FunctionDef) -> Iterator[cst.BaseSmallStatement]:
    if isinstance(fn.body, cst.IndentedBlock):
        for stmt in fn.body.body:
            if isinstance(stmt, cst.SimpleStatementLine):
                yield from stmt.body


def _calls(expr: cst.BaseExpression | None, name: str) -> bool:
    return isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and \
        expr.func.value == name


def _always_calls(fn: cst.FunctionDef, name: str) -> bool:
    """``name(...)`` is a statement of the body itself (not under if/try/for/with)."""
    for small in _top_statements(fn):
        value = small.value if isinstance(small, cst.Expr | cst.Return | cst.Assign) else None
        if _calls(value, name):
            return True
    return False


def _returns(fn: cst.FunctionDef, name: str) -> bool:
    return any(isinstance(s, cst.Return) and isinstance(s.value, cst.Name) and
               s.value.value == name for s in _top_statements(fn))


def _nested(fn: cst.FunctionDef) -> Iterator[cst.FunctionDef]:
    if isinstance(fn.body, cst.IndentedBlock):
        yield from (s for s in fn.body.body if isinstance(s, cst.FunctionDef))


def is_transparent(fn: cst.FunctionDef) -> bool:
    """A decorator that returns the function it was given, or a wrapper that always calls
    it (``functools.wraps`` and side effects around the call are fine)."""
    params = [p.name.value for p in fn.params.params]
    if len(params) != 1:
        return False
    func = params[0]
    return _returns(fn, func) or any(
        _always_calls(inner, func) and _returns(fn, inner.name.value) for inner in _nested(fn))


def is_transparent_factory(fn: cst.FunctionDef) -> bool:
    """``def timed(label): def deco(func): ...; return deco`` with ``deco`` transparent."""
    return any(is_transparent(inner) and _returns(fn, inner.name.value)
               for inner in _nested(fn))


def _module_defs(ctx: Context) -> dict[str, cst.FunctionDef]:
    return {f.name: f.node for f in ctx.defs
            if f.parent is not None and f.parent.kind == "module" and
            isinstance(f.node, cst.FunctionDef)}


def _kind_of(ctx: Context, name: str | None, local: dict[str, SuppressionKind]
             ) -> SuppressionKind | None:
    """What a called or applied name suppresses: a local skip helper or alias, or one the
    imported module defines."""
    if name is None:
        return None
    if name in local:
        return local[name]
    lookup = ctx.helper_lookup
    if lookup is None or not ctx.aliases.imported(name.split(".", 1)[0]):
        return None
    for q in sorted(ctx.aliases.resolve(name)):
        kind = lookup.skip_kind(ctx.path, q)
        if kind is not None:
            return kind
    return None


def _transparent(ctx: Context, dec: cst.BaseExpression, defs: dict[str, cst.FunctionDef]
                 ) -> bool:
    factory = isinstance(dec, cst.Call)
    name = dotted(callee(dec))
    if name is None:
        return False
    fn = defs.get(name)
    if fn is not None:
        return is_transparent_factory(fn) if factory else is_transparent(fn)
    lookup = ctx.helper_lookup
    if lookup is None or not ctx.aliases.imported(name.split(".", 1)[0]):
        return False
    return any(lookup.transparent(ctx.path, q, factory) for q in ctx.aliases.resolve(name))


def _decorator_skips(ctx: Context) -> None:
    """A runtime skip inside the wrapper a module-level decorator returns
    (``def skip_if_missing(func): def wrapper(...): raise SkipTest(...); return wrapper``)
    is what applying that decorator does: a skip (or xfail) mark on every test it decorates,
    judged as one where it is written."""
    defs = _module_defs(ctx)
    for s in ctx.suppressions:
        if s.kind is not SuppressionKind.RUNTIME_SKIP or "." not in s.frame:
            continue
        outer, _, inner = s.frame.partition(".")
        fn = defs.get(outer)
        if fn is not None and len(fn.params.params) == 1 and \
                _returns(fn, inner.split(".", 1)[0]):
            s.kind = _flavour(s.detail + " " + _code(s.node))


def resolve_skip_helpers(ctx: Context) -> dict[str, SuppressionKind]:
    """Record calls of skip helpers in tests (runtime skips) and judge the unknown
    decorators on tests (a skip helper's mark, transparent, or PS206). Returns the
    module's own skip helpers and skip aliases, by short name."""
    _decorator_skips(ctx)
    local = {q.rsplit(".", 1)[-1]: k for q, k in skipping_functions(ctx).items()
             if "." not in q}
    local.update(aliased_skips(ctx))
    reported = {id(s.node) for s in ctx.suppressions}
    reported |= {id(dec) for dec, _ in ctx.unknown_decorators}  # applied, not called
    for call in ctx.calls:
        if call.frame.test_id is not None and id(call.node) not in reported:
            _skip_call(ctx, call, local)
    defs = _module_defs(ctx)
    for dec, frame in ctx.unknown_decorators:
        kind = _kind_of(ctx, dotted(callee(dec)), local)
        if kind is not None:
            ctx.suppress(kind, dec, target=frame.node_id,
                         detail=f"{dotted(callee(dec))} skips or xfails the test")
        elif not _transparent(ctx, dec, defs):
            ctx.suppress(SuppressionKind.WRAPPED, dec, target=frame.node_id,
                         detail="a decorator that can replace the test body")
            fn = defs.get(dotted(callee(dec)) or "") if isinstance(dec, cst.Call) else None
            mark = factory_mark(_code(fn)) if fn is not None else None
            if isinstance(dec, cst.Call) and (dec.args or mark is not None):
                # A project's own parametrize or harness: its arguments are the test's
                # inputs (a case dropped from `@with_cases(...)` is a test changed); a mark
                # factory of this module's (`with_text_app()`) is the mark it returns.
                ctx.items.append(RawItem(EvidenceKind.TEST_INPUT, dec, frame, dec, 0,
                                         detail=f"{FACTORY_MARK}{mark}" if mark else "",
                                         op=dotted(callee(dec)) or "decorator"))
    return local


# The detail of a decorator's test input that a mark factory returns (anchors append it).
FACTORY_MARK = "returns "


def factory_mark(code: str) -> str | None:
    """What a mark factory (``def with_text_app(*args, **kw): default_kw = {...};
    default_kw.update(kw); return pytest.mark.sphinx(*args, **default_kw)``) returns, with
    the dict it builds written out as one display: ``update(x)`` appends ``**x``,
    ``d[k] = v`` appends ``k: v`` and ``setdefault(k, v)`` puts ``k: v`` first (a later
    entry wins). Building the same dict another way is then no change, and a key added is
    one. None for any function that is not straight-line code ending in returning a
    ``mark`` call."""
    func = parse_function(code)
    if func is None:
        return None
    body = list(func.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if not body or not isinstance(body[-1], ast.Return) or \
            not isinstance(body[-1].value, ast.Call):
        return None
    call = body[-1].value
    if ".mark." not in f".{ast.unparse(call.func)}":
        return None
    dicts: dict[str, Entries] = {}
    for stmt in body[:-1]:
        if not dict_step(stmt, dicts):
            return None
    keywords: list[ast.keyword] = []
    for kw in call.keywords:
        if kw.arg is None and isinstance(kw.value, ast.Name) and kw.value.id in dicts:
            kw = ast.keyword(arg=None, value=display(dicts[kw.value.id]))
        keywords.append(kw)
    return ast.unparse(ast.Call(func=call.func, args=call.args, keywords=keywords))


def _skip_call(ctx: Context, call: RawCall, local: dict[str, SuppressionKind]) -> None:
    if call.frame.qualname.rsplit(".", 1)[-1] == call.name:
        return  # recursion
    name = dotted(call.node.func)
    if _kind_of(ctx, name, local) is None:
        return
    ctx.suppress(SuppressionKind.RUNTIME_SKIP, call.node, target=call.frame.test_id,
                 frame=call.frame.qualname, guards=call.guards,
                 detail=f"{name} skips the test")


def transparent_exports(ctx: Context) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Module-level decorators and decorator factories other modules may apply safely."""
    defs = _module_defs(ctx)
    return (tuple(sorted(n for n, fn in defs.items() if is_transparent(fn))),
            tuple(sorted(n for n, fn in defs.items() if is_transparent_factory(fn))))
