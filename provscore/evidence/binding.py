"""Call arguments bound to parameter names: one spelling per call.

``assertContains(r, t, status_code=200)`` is the bare call (200 is the default),
``assertQuerySetEqual(qs, v, transform=f)`` is ``assertQuerySetEqual(qs, v, f)``, and a
project helper called with an argument by keyword is the call by position. Each call is
rewritten to its canonical form: the operands (what is checked) by position in signature
order, the options by keyword in signature order, an argument given at its literal default
dropped, and for framework assertions the failure-message wording (``msg=``) dropped, as it
never decides pass or fail. The signatures of unittest's and Django's assertion methods
are data (``[signatures]`` in rules/patterns.toml); a project helper's come from its def.

A call that cannot be bound exactly (``*args``/``**kwargs`` at the call, an unknown
keyword, a parameter given twice, too many positional arguments) keeps its spelling: an
unknown binding fails closed, as a changed call.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

from provscore.evidence.constants import unparse
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class Param:
    name: str
    default: str | None = None  # normalised literal code; None: no default worth dropping
    has_default: bool = False
    positional: bool = True  # may be passed by position (not keyword-only)


@dataclass(frozen=True, slots=True)
class Signature:
    """A parameter list (``self`` excluded) and how many leading parameters are operands."""

    params: tuple[Param, ...]
    operands: int
    varargs: bool = False
    varkw: bool = False
    wording: frozenset[str] = frozenset()  # parameters that only word the failure message

    @classmethod
    def parse(cls, params: str, operands: int | None = None,
              wording: frozenset[str] = frozenset(), skip_first: bool = False
              ) -> Signature | None:
        """From a parameter list as written in a def (None when it does not parse)."""
        try:
            tree = ast.parse(f"def _({params}): pass")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        fn = tree.body[0]
        if not isinstance(fn, ast.FunctionDef):
            return None
        return cls.from_arguments(fn.args, operands, wording, skip_first)

    @classmethod
    def from_arguments(cls, args: ast.arguments, operands: int | None = None,
                       wording: frozenset[str] = frozenset(), skip_first: bool = False
                       ) -> Signature:
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults))
        defaults += list(args.defaults)
        pairs = list(zip(positional, defaults, strict=True))
        if skip_first and pairs:
            pairs = pairs[1:]
        params = [_param(a.arg, d, True) for a, d in pairs]
        params += [_param(a.arg, d, False)
                   for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)]
        if operands is None:  # by default the leading parameters without a default
            operands = next((i for i, p in enumerate(params) if p.has_default or
                             not p.positional), len(params))
        return cls(tuple(params), operands, args.vararg is not None, args.kwarg is not None,
                   wording)


def _param(name: str, default: ast.expr | None, positional: bool) -> Param:
    if default is None:
        return Param(name, None, False, positional)
    return Param(name, unparse(default) if _is_literal(default) else None, True, positional)


def _is_literal(node: ast.expr) -> bool:
    try:
        ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


def signatures_from_table(table: Mapping[str, Any]) -> dict[str, Signature]:
    """The ``[signatures]`` table: ``name = "params"`` or ``name = {params = "...",
    operands = N}``; ``wording`` lists the message-only parameter names. A row that does
    not parse is a broken data file: refused loudly."""
    wording = frozenset(table.get("wording", []))
    out: dict[str, Signature] = {}
    for name, row in table.get("methods", {}).items():
        text, operands = (row, None) if isinstance(row, str) else (row["params"],
                                                                    row.get("operands"))
        sig = Signature.parse(str(text), operands, wording)
        if sig is None:
            raise ValueError(f"[signatures.methods] {name}: cannot parse {text!r}")
        out[str(name)] = sig
    return out


def bind(call: ast.Call, sig: Signature) -> ast.Call | None:
    """The call in canonical form, or None when it cannot be bound exactly."""
    if any(isinstance(a, ast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return None
    by_name = {p.name: p for p in sig.params}
    positional = [p for p in sig.params if p.positional]
    given: dict[str, ast.expr] = {}
    if len(call.args) > len(positional) and not sig.varargs:
        return None
    for p, value in zip(positional, call.args, strict=False):
        given[p.name] = value
    extra_args = list(call.args[len(positional):])
    extra_kw: dict[str, ast.expr] = {}
    for k in call.keywords:
        assert k.arg is not None
        if k.arg in given or k.arg in extra_kw:
            return None  # given twice: a TypeError when it runs
        if k.arg in by_name:
            given[k.arg] = k.value
        elif sig.varkw:
            extra_kw[k.arg] = k.value
        else:
            return None
    if any(p.name not in given and not p.has_default for p in sig.params):
        return None  # a required parameter is missing: a TypeError when it runs
    args = _positional(sig, positional, given, bool(extra_args))
    if args is None:
        return None
    keywords = [ast.keyword(p.name, given[p.name]) for p in sig.params[len(args):]
                if p.name in given and not _droppable(p, given[p.name], sig)]
    keywords += [ast.keyword(name, extra_kw[name]) for name in sorted(extra_kw)
                 if not (name in sig.wording and _plain_wording(extra_kw[name]))]
    return ast.Call(func=call.func, args=[*args, *extra_args], keywords=keywords)


def _positional(sig: Signature, positional: list[Param], given: dict[str, ast.expr],
                extras: bool) -> list[ast.expr] | None:
    """The operands by position: a missing one before a given one is its default; trailing
    operands at their default are dropped. With extra positional arguments (``*args``),
    every positional parameter stays positional."""
    count = len(positional) if extras else min(sig.operands, len(positional))
    count = max((i + 1 for i, p in enumerate(positional[:count]) if p.name in given), default=0)
    out: list[ast.expr] = []
    for p in positional[:count]:
        if p.name in given:
            out.append(given[p.name])
        elif p.default is not None:
            out.append(ast.parse(p.default, mode="eval").body)
        else:
            return None  # a gap with no literal default to fill it
    while not extras and out and _at_default(positional[len(out) - 1], out[-1]):
        out.pop()
    return out


def _at_default(p: Param, value: ast.expr) -> bool:
    return p.default is not None and _is_literal(value) and unparse(value) == p.default


def _droppable(p: Param, value: ast.expr, sig: Signature) -> bool:
    return _at_default(p, value) or (p.name in sig.wording and _plain_wording(value))


def _plain_wording(value: ast.expr) -> bool:
    """A message that runs nothing worth keeping: literals, names, formatting (``%``,
    f-strings, ``str.format``, ``str``/``repr``); a message that calls anything else stays."""
    for node in ast.walk(value):
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in ("str", "repr"):
                continue
            if isinstance(func, ast.Attribute) and func.attr == "format":
                continue
            return False
        if isinstance(node, ast.NamedExpr | ast.Await | ast.Yield | ast.YieldFrom | ast.Lambda):
            return False
    return True


def bound_code(code: str, sig: Signature) -> str:
    """``code`` (a normalised call) in canonical form; unchanged when it cannot be bound."""
    try:
        call = ast.parse(code, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    if not isinstance(call, ast.Call):
        return code
    bound = bind(call, sig)
    return code if bound is None else unparse(bound)



def with_sorted_keywords(code: str) -> str:
    """A call whose signature is unknown, its keywords in name order (keyword order never
    decides which parameter an argument binds to); unchanged when it is no such call."""
    try:
        call = ast.parse(code, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    if not isinstance(call, ast.Call) or len(call.keywords) < 2 or \
            any(k.arg is None for k in call.keywords):
        return code
    keywords = sorted(call.keywords, key=lambda k: str(k.arg))
    if [k.arg for k in keywords] == [k.arg for k in call.keywords]:
        return code
    return unparse(ast.Call(func=call.func, args=call.args, keywords=keywords))


class _BindCalls(ast.NodeTransformer):
    def __init__(self, signatures: Mapping[str, Signature]) -> None:
        self.signatures = signatures

    def visit_Call(self, node: ast.Call) -> ast.AST:
        self.generic_visit(node)
        func = node.func
        sig = self.signatures.get(func.attr) if isinstance(func, ast.Attribute) else None
        return (bind(node, sig) or node) if sig is not None else node


def bound_calls(code: str, signatures: Mapping[str, Signature]) -> str:
    """``code`` (statements) with every framework assertion method call in canonical form
    (``self.assertEqual(a, b, msg="...")`` is ``self.assertEqual(a, b)``)."""
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    try:
        return unparse(_BindCalls(signatures).visit(tree))
    except RecursionError:
        return code
