"""What a fixture provides, as one normalised text: its body as the tests receive it.

A fixture's body builds the values its tests get (``app.config.update(TESTING=True)``,
``return f.read().strip()``, ``request.cls.locale = ...``): a change there changes the
inputs of every test that uses it, as a patch made in it does (fixture_inputs.py). Two
bodies are compared by what they do, not by how they are written: the docstring, comments
output-only calls (``print``, a logger's) and its checks (``assert``: a fixture that checks
is a helper oracle, judged as one) are no part of it, unless what they check or print makes a
call that may change state (``assert app.config.update(TESTING=False) is None``,
``print(cfg.pop("x"))``): such a statement stays, and one added is no "only does more"; a
dict built step by step (``d = {}; d[k] = v; d.update(x)``) is the display it ends as; a
local bound once is replaced by its value where it is read.
"""

from __future__ import annotations

import ast

from provscore.evidence.constants import unparse
from provscore.evidence.effects import only_looks
from provscore.evidence.inlining import Substitute
from provscore.evidence.model import Shape

# The op of a fixture body's test input (driver._fixture_bodies).
FIXTURE_BODY = "fixture"
_LOG_METHODS = frozenset({"debug", "info", "warning", "warn", "error", "exception",
                          "critical", "log"})
Entries = list[tuple[ast.expr | None, ast.expr]]


def dict_step(stmt: ast.stmt, dicts: dict[str, Entries]) -> bool:
    """One statement building a dict of a straight-line body, folded into ``dicts`` (name →
    the display's entries): ``d = {...}`` starts one, ``d[k] = v`` appends ``k: v``,
    ``d.update(x, k=v)`` appends ``**x, k: v`` and ``d.setdefault(k, v)`` puts ``k: v``
    first (a later entry wins). False for any other statement."""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
        target = stmt.targets[0]
        if isinstance(target, ast.Name) and isinstance(stmt.value, ast.Dict):
            dicts[target.id] = list(zip(stmt.value.keys, stmt.value.values, strict=True))
            return True
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and \
                target.value.id in dicts:
            dicts[target.value.id].append((target.slice, stmt.value))
            return True
        return False
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return False
    call = stmt.value
    func = call.func
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Name) or \
            func.value.id not in dicts:
        return False
    entries = dicts[func.value.id]
    if func.attr == "update" and len(call.args) <= 1:
        entries += [(None, a) for a in call.args]
        entries += [(ast.Constant(k.arg) if k.arg else None, k.value) for k in call.keywords]
        return True
    if func.attr == "setdefault" and len(call.args) == 2 and not call.keywords:
        entries.insert(0, (call.args[0], call.args[1]))
        return True
    return False


def display(entries: Entries) -> ast.Dict:
    return ast.Dict(keys=[k for k, _ in entries], values=[v for _, v in entries])


def _hides_effect(text: str) -> bool:
    """Whether a statement of a fixture's meaning is a check or an output call kept for the
    call it makes (pure ones are dropped before): not a statement that only does more."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    return len(tree.body) == 1 and (isinstance(tree.body[0], ast.Assert) or
                                    _output_call(tree.body[0]))


def _output_call(stmt: ast.stmt) -> bool:
    """``print(...)`` or ``log.info(...)``: a statement that writes output."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return False
    func = stmt.value.func
    if isinstance(func, ast.Name):
        return func.id == "print"
    return isinstance(func, ast.Attribute) and func.attr in _LOG_METHODS and \
        "log" in unparse(func.value).lower()


def _output_only(stmt: ast.stmt) -> bool:
    """An output call whose arguments only look: it writes output and changes nothing."""
    return _output_call(stmt) and only_looks(stmt)


class _DropChecks(ast.NodeTransformer):
    """``assert`` statements that only look out (what a fixture checks is a helper oracle's,
    PS105), and the docstrings of functions defined in it."""

    def visit_Assert(self, node: ast.Assert) -> ast.AST:
        return ast.Pass() if only_looks(node) else node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        body = node.body
        if len(body) > 1 and isinstance(body[0], ast.Expr) and \
                isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:]
        return self.generic_visit(node)


def _bound_once(body: list[ast.stmt], params: set[str]) -> dict[str, int]:
    """Locals of the body bound by exactly one top-level ``name = value`` and nowhere else
    (no other assignment, loop target, ``with ... as``, augmented assignment or ``del``)."""
    counts: dict[str, int] = {}
    where: dict[str, int] = {}
    for i, stmt in enumerate(body):
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
                counts[node.id] = counts.get(node.id, 0) + 1
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                isinstance(stmt.targets[0], ast.Name):
            where[stmt.targets[0].id] = i
    return {n: i for n, i in where.items() if counts.get(n) == 1 and n not in params}


def _read_after(body: list[ast.stmt], i: int, name: str) -> bool:
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               for stmt in body[i + 1:] for n in ast.walk(stmt))


def fixture_meaning(code: str) -> tuple[str, ...] | None:
    """The normalised statements of the fixture ``code`` (a def), None when it does not
    parse."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.FunctionDef | ast.AsyncFunctionDef):
        return None
    fn = tree.body[0]
    body = list(fn.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    body = [_DropChecks().visit(s) for s in body if not _output_only(s)]
    dicts: dict[str, Entries] = {}
    kept: list[ast.stmt] = []
    for stmt in body:
        if not dict_step(stmt, dicts):
            kept.append(stmt)
    params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
    once = _bound_once(kept, params)
    table: dict[str, str] = {n: unparse(display(e)) for n, e in dicts.items()
                             if n not in params}
    out: list[str] = []
    for i, stmt in enumerate(kept):
        stmt = Substitute(dict(table)).visit(stmt)
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                isinstance(stmt.targets[0], ast.Name) and once.get(stmt.targets[0].id) == i \
                and _read_after(kept, i, stmt.targets[0].id):
            # where it is read it stands for its value; a local nobody reads stays
            table[stmt.targets[0].id] = unparse(stmt.value)
            continue
        if not isinstance(stmt, ast.Pass):  # an `assert` dropped, or nothing
            out.append(unparse(stmt))
    return tuple(" ".join(s.split()) for s in out)


def only_extended(before: tuple[str, ...], after: tuple[str, ...]) -> bool:
    """Whether ``after`` keeps every statement of ``before``, in order, and only adds
    (a fixture that now also sets ``runner.env`` still provides what it did); a call added
    inside a check or a print (``_hides_effect``) is no addition."""
    it = iter(after)
    added: list[str] = []
    for s in before:
        for t in it:
            if t == s:
                break
            added.append(t)
        else:
            return False  # a statement of before is gone (or out of order)
    added.extend(it)
    return not any(_hides_effect(t) for t in added)


def same_input(a: Shape, b: Shape) -> str | None:
    """Why two shapes of a test input are the same input ("" when only keywords moved),
    None when they differ: a fixture body that only adds statements provides what it did."""
    if (a.op, a.operands, a.keywords, a.guards) == (b.op, b.operands, b.keywords, b.guards):
        return ""
    if a.op == b.op == FIXTURE_BODY and a.guards == b.guards and \
            only_extended(a.operands, b.operands):
        return "the fixture only does more"
    return None
