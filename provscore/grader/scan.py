"""One image of one changed file, parsed with the stdlib ``ast`` and walked only where the
patch changed it.

Cheap by construction: the file is parsed once; the walk enters a definition only when a
line of it changed (added lines, and the lines around removed ones), and within a changed
definition collects the few node kinds the grader rules read (calls, assignments, raises,
branches, returns, definitions). Imports and simple ``x = a.b`` bindings are read from
every statement the walk passes, so names resolve through aliases (``from sys import exit
as e``, ``o = __import__("os")``) with :class:`~provscore.names.AliasTable`. Everything
else is judged after the walk, when every alias is known.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Iterator
from dataclasses import field
from typing import Any, ClassVar

from provscore.callgraph.trees import parse_shared
from provscore.names import AliasTable, ast_qualnames, ast_spelling
from provscore.records import dataclass

_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)
_COMPOUND = (ast.If, ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Try,
             ast.TryStar, ast.Match)
#: A module-level binding of a name the module defines itself: never a builtin or import.
LOCAL = "<local>"


@dataclass
class Frame:
    """A scope the walk is in: the module, a class, a function or a lambda."""

    kind: str  # "module" | "class" | "function" | "lambda"
    qualname: str
    node: ast.AST | None = None
    parent: Frame | None = None
    params: tuple[str, ...] = ()
    # `global` / `nonlocal` names, filled as the walk passes them (read after it)
    declared: set[str] = field(default_factory=set)
    locals: set[str] = field(default_factory=set)  # names bound here (not aliases)
    main_guard: bool = False  # inside `if __name__ == "__main__":`

    def functions(self) -> Iterator[Frame]:
        """This frame and the enclosing ones that are functions, innermost first."""
        fr: Frame | None = self
        while fr is not None:
            if fr.kind == "function":
                yield fr
            fr = fr.parent

    @property
    def outermost_function(self) -> Frame | None:
        last = None
        for fr in self.functions():
            last = fr
        return last

    def shadows(self, name: str) -> bool:
        """Whether a bare ``name`` here is a local of an enclosing function (a parameter
        called ``exit``), not the builtin or import of that name."""
        return any(name in fr.params or name in fr.locals for fr in self.functions())


@dataclass
class Events:
    """The nodes of the changed regions, each with the frame it is in."""

    calls: list[tuple[ast.Call, Frame]] = field(default_factory=list)
    assigns: list[tuple[ast.expr, ast.expr | None, ast.stmt, Frame]] = field(default_factory=list)
    aug: list[tuple[ast.AugAssign, Frame]] = field(default_factory=list)
    deletes: list[tuple[ast.expr, Frame]] = field(default_factory=list)
    raises: list[tuple[ast.Raise, Frame]] = field(default_factory=list)
    defs: list[tuple[ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, str, Frame]] = \
        field(default_factory=list)
    branches: list[tuple[ast.If | ast.IfExp | ast.While | ast.Match, Frame]] = \
        field(default_factory=list)
    compares: list[tuple[ast.Compare, Frame]] = field(default_factory=list)
    subscripts: list[tuple[ast.Subscript, Frame]] = field(default_factory=list)
    strings: list[tuple[ast.Constant, Frame]] = field(default_factory=list)
    dicts: list[tuple[ast.Dict, Frame]] = field(default_factory=list)


class FileScan:
    """The parsed image, its aliases, and the events of its changed regions."""

    def __init__(self, path: str, source: bytes, touched: frozenset[int] | None) -> None:
        """``touched``: the lines of this image the patch changed (None: all of it, as
        for an added file). Raises SyntaxError, ValueError or RecursionError when the
        source does not parse."""
        self.path = path
        self.tree = parse_shared(source)  # the call graph's parse, when it had one
        self._source = source
        self._lines: list[bytes] | None = None
        self._named: dict[int, set[str]] | None = None  # None while the walk binds aliases
        self.touched = touched
        self.aliases = AliasTable()
        self.events = Events()
        self.module = Frame("module", "")
        self.classes: set[str] = set()  # qualnames of every class the walk passed
        self.functions: set[str] = set()  # qualnames of every def the walk passed
        self._block(self.tree.body, self.module, touched is None)
        # Every rule resolves the same calls: once the walk has bound every alias, what a
        # node names is computed once.
        self._named = {}

    # ------------------------------------------------------------------ queries

    def qualnames(self, node: ast.AST, frame: Frame | None = None) -> set[str]:
        """What an expression may name; a bare name a function binds locally names
        nothing outside it."""
        if frame is not None and isinstance(node, ast.Name) and frame.shadows(node.id):
            return set()
        named = self._named
        if named is None:
            return ast_qualnames(node, self.aliases)
        found = named.get(id(node))
        if found is None:
            found = named[id(node)] = ast_qualnames(node, self.aliases)
        return set(found)

    def spelling(self, node: ast.AST) -> str | None:
        return ast_spelling(node, self.aliases)

    def snippet(self, node: ast.AST, limit: int = 100) -> str:
        """The node's code as written, on one line, shortened to ``limit`` characters."""
        if self._lines is None:
            self._lines = self._source.splitlines()
        start = getattr(node, "lineno", 0)
        if not 0 < start <= len(self._lines):
            return ""
        first = self._lines[start - 1]
        col = getattr(node, "col_offset", 0) or 0
        end_line = getattr(node, "end_lineno", start)
        end_col = getattr(node, "end_col_offset", None)
        raw = first[col:end_col] if end_line == start and end_col is not None else first[col:]
        text = " ".join(raw.decode("utf-8", "replace").split())
        if end_line != start:
            text += " …"
        return text if len(text) <= limit else text[:limit - 1] + "…"

    # ------------------------------------------------------------------ the walk

    def _changed(self, node: ast.AST) -> bool:
        if self.touched is None:
            return True
        start = getattr(node, "lineno", 0)
        for dec in getattr(node, "decorator_list", ()):
            start = min(start, dec.lineno)
        end = getattr(node, "end_lineno", start) or start
        return any(start <= ln <= end for ln in self.touched)

    def _block(self, body: Iterable[ast.stmt], frame: Frame, whole: bool) -> None:
        for stmt in body:
            changed = whole or self._changed(stmt)
            if isinstance(stmt, ast.Import | ast.ImportFrom):
                self.aliases.add_ast_import(stmt)
            elif isinstance(stmt, _FUNCS):
                self._bind_local(stmt.name, frame)
                if changed:
                    self._function(stmt, frame)
            elif isinstance(stmt, ast.ClassDef):
                self._class(stmt, frame, whole, changed)
            elif isinstance(stmt, _COMPOUND):
                self._compound(stmt, frame, whole, changed)
            else:
                if changed:
                    _Collector(self, frame).visit(stmt)
                elif isinstance(stmt, ast.Assign | ast.AnnAssign):
                    self._bind_assign(stmt, frame)

    def _bind_local(self, name: str, frame: Frame) -> None:
        if frame.kind == "module":
            self.aliases.bind(name, f"{LOCAL}.{name}")
        elif frame.kind == "function":
            frame.locals.add(name)

    def _bind_assign(self, stmt: ast.Assign | ast.AnnAssign, frame: Frame) -> None:
        """``x = a.b`` / ``x = getattr(a, "b")`` / ``x = __import__("os")`` make ``x`` an
        alias (flow-insensitive, as the evidence stage binds them); other values make a
        function-local name that shadows builtins."""
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        if stmt.value is None:
            return
        for target in targets:
            pairs: list[tuple[ast.expr, ast.expr]] = [(target, stmt.value)]
            if isinstance(target, ast.Tuple | ast.List) and \
                    isinstance(stmt.value, ast.Tuple | ast.List) and \
                    len(target.elts) == len(stmt.value.elts):
                pairs = list(zip(target.elts, stmt.value.elts, strict=True))
            for t, v in pairs:
                if not isinstance(t, ast.Name):
                    continue
                spelled = self.spelling(v)
                if spelled is not None and spelled != t.id:
                    self.aliases.bind(t.id, spelled)
                else:
                    self._bind_local(t.id, frame)

    def _class(self, node: ast.ClassDef, frame: Frame, whole: bool, changed: bool) -> None:
        self._bind_local(node.name, frame)
        qual = f"{frame.qualname}.{node.name}" if frame.qualname else node.name
        self.classes.add(qual)
        if not changed:
            return
        inner = Frame("class", qual, node, frame, main_guard=frame.main_guard)
        header = _Collector(self, frame)
        for expr in (*node.decorator_list, *node.bases, *(k.value for k in node.keywords)):
            header.visit(expr)
        self._block(node.body, inner, whole)

    def _compound(self, node: ast.stmt, frame: Frame, whole: bool, changed: bool) -> None:
        if not changed:
            for sub in _bodies(node):  # imports and aliases under `try:` / `if` still count
                self._block(sub, frame, False)
            return
        collector = _Collector(self, frame)
        for expr in _headers(node):
            collector.visit(expr)
        if isinstance(node, ast.If | ast.While | ast.Match):
            self.events.branches.append((node, frame))
        guard = frame.kind == "module" and isinstance(node, ast.If) and _is_main_guard(node.test)
        for i, sub in enumerate(_bodies(node)):
            inner = frame
            if guard and i == 0:
                inner = Frame(frame.kind, frame.qualname, frame.node, frame.parent,
                              frame.params, frame.declared, frame.locals, main_guard=True)
            self._block(sub, inner, whole)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef, frame: Frame) -> None:
        qual = f"{frame.qualname}.{node.name}" if frame.qualname else node.name
        self.functions.add(qual)
        outer = _Collector(self, frame)
        for expr in (*node.decorator_list, *node.args.defaults,
                     *(d for d in node.args.kw_defaults if d is not None)):
            outer.visit(expr)
        inner = function_frame(node, qual, frame)
        self.events.defs.append((node, qual, frame))
        _Collector(self, inner).visit_body(node.body)


def function_frame(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda, qual: str,
                   parent: Frame) -> Frame:
    args = node.args
    params = tuple(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
    params += tuple(a.arg for a in (args.vararg, args.kwarg) if a is not None)
    kind = "lambda" if isinstance(node, ast.Lambda) else "function"
    return Frame(kind, qual, node, parent, params, main_guard=parent.main_guard)


def _own_nodes(body: Iterable[ast.AST]) -> Iterator[ast.AST]:
    """Every node of ``body`` outside nested functions, lambdas and classes."""
    stack = list(body)
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (*_FUNCS, ast.Lambda, ast.ClassDef)):
                stack.append(child)


def own_returns(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[ast.expr | None]:
    """The values a function returns (None for a bare ``return``); a lambda its body."""
    if isinstance(fn, ast.Lambda):
        return [fn.body]
    return [n.value for n in _own_nodes(fn.body) if isinstance(n, ast.Return)]


def own_names(node: ast.AST) -> set[str]:
    """Every bare name read anywhere under ``node`` (nested functions included)."""
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _is_main_guard(test: ast.expr) -> bool:
    if not isinstance(test, ast.Compare) or len(test.ops) != 1 or \
            not isinstance(test.ops[0], ast.Eq):
        return False
    sides = [test.left, test.comparators[0]]
    names = {s.id for s in sides if isinstance(s, ast.Name)}
    consts = {s.value for s in sides if isinstance(s, ast.Constant)}
    return names == {"__name__"} and consts == {"__main__"}


def _headers(node: ast.stmt) -> list[ast.expr]:
    if isinstance(node, ast.If | ast.While):
        return [node.test]
    if isinstance(node, ast.For | ast.AsyncFor):
        return [node.target, node.iter]
    if isinstance(node, ast.With | ast.AsyncWith):
        return [e for item in node.items for e in (item.context_expr, item.optional_vars)
                if e is not None]
    if isinstance(node, ast.Match):
        return [node.subject, *(c.guard for c in node.cases if c.guard is not None)]
    if isinstance(node, ast.Try | ast.TryStar):
        return [h.type for h in node.handlers if h.type is not None]
    return []


def _bodies(node: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(node, ast.Match):
        return [c.body for c in node.cases]
    if isinstance(node, ast.Try | ast.TryStar):
        return [node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody]
    return [getattr(node, "body", []), getattr(node, "orelse", [])]


#: Nodes with nothing under them that any rule reads (contexts and operators).
_LEAVES = (ast.expr_context, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)


class _Collector(ast.NodeVisitor):
    """Records the events under one node of a changed region; nested functions and
    lambdas get frames of their own. ``visit`` dispatches through a per-type table and
    never descends into contexts, operators or bare names: the walk of an added file is
    the grader's main cost."""

    _dispatch: ClassVar[dict[type[ast.AST], Callable[[_Collector, Any], None]]] = {}

    def __init__(self, scan: FileScan, frame: Frame) -> None:
        self.scan, self.frame, self.ev = scan, frame, scan.events

    def visit(self, node: ast.AST) -> None:
        kind = type(node)
        handler = _Collector._dispatch.get(kind)
        if handler is None:
            found: Callable[[_Collector, Any], None] = getattr(
                _Collector, f"visit_{kind.__name__}", _Collector.generic_visit)
            handler = _Collector._dispatch[kind] = found
        handler(self, node)

    def generic_visit(self, node: ast.AST) -> None:
        for name in node._fields:
            value = getattr(node, name, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST) and not isinstance(item, _LEAVES):
                        self.visit(item)
            elif isinstance(value, ast.AST) and not isinstance(value, _LEAVES):
                self.visit(value)

    def visit_body(self, body: list[ast.stmt]) -> None:
        for stmt in body:
            self.visit(stmt)

    def visit_Name(self, node: ast.Name) -> None:
        pass  # names are read from the events' expressions, never collected alone

    def visit_Global(self, node: ast.Global) -> None:
        self.frame.declared.update(node.names)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> None:
        self.frame.declared.update(node.names)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._nested(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> None:
        self._nested(node)

    def _nested(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.frame.locals.add(node.name)
        for expr in (*node.decorator_list, *node.args.defaults):
            self.visit(expr)
        qual = f"{self.frame.qualname}.{node.name}" if self.frame.qualname else node.name
        self.ev.defs.append((node, qual, self.frame))
        _Collector(self.scan, function_frame(node, qual, self.frame)).visit_body(node.body)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self.ev.defs.append((node, f"{self.frame.qualname}.<lambda>".lstrip("."), self.frame))
        _Collector(self.scan, function_frame(node, self.frame.qualname, self.frame)
                   ).visit(node.body)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scan._class(node, self.frame, True, True)

    def visit_Import(self, node: ast.Import) -> None:
        self.scan.aliases.add_ast_import(node)

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.scan.aliases.add_ast_import(node)

    def visit_Call(self, node: ast.Call) -> None:
        self.ev.calls.append((node, self.frame))
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.scan._bind_assign(node, self.frame)
        for target in node.targets:
            self._assigned(target, node.value, node)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.scan._bind_assign(node, self.frame)
        self._assigned(node.target, node.value, node)
        self.generic_visit(node)

    def _assigned(self, target: ast.expr, value: ast.expr | None, stmt: ast.stmt) -> None:
        if isinstance(target, ast.Tuple | ast.List):
            values = value.elts if isinstance(value, ast.Tuple | ast.List) and \
                len(value.elts) == len(target.elts) else [None] * len(target.elts)
            for t, v in zip(target.elts, values, strict=True):
                self._assigned(t, v, stmt)
            return
        self.ev.assigns.append((target, value, stmt, self.frame))

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.ev.aug.append((node, self.frame))
        self.generic_visit(node)

    def visit_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self.ev.deletes.append((target, self.frame))
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        self.ev.raises.append((node, self.frame))
        self.generic_visit(node)

    def visit_If(self, node: ast.If) -> None:
        self.ev.branches.append((node, self.frame))
        self.generic_visit(node)

    def visit_IfExp(self, node: ast.IfExp) -> None:
        self.ev.branches.append((node, self.frame))
        self.generic_visit(node)

    def visit_While(self, node: ast.While) -> None:
        self.ev.branches.append((node, self.frame))
        self.generic_visit(node)

    def visit_Match(self, node: ast.Match) -> None:
        self.ev.branches.append((node, self.frame))
        self.generic_visit(node)

    def visit_Compare(self, node: ast.Compare) -> None:
        self.ev.compares.append((node, self.frame))
        self.generic_visit(node)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        self.ev.subscripts.append((node, self.frame))
        self.generic_visit(node)

    def visit_Dict(self, node: ast.Dict) -> None:
        self.ev.dicts.append((node, self.frame))
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self.ev.strings.append((node, self.frame))
