"""Name resolution without libcst's (slow) QualifiedNameProvider.

An :class:`AliasTable` is filled during the single traversal of a module from
imports and simple assignments; names are resolved after the traversal
(deferred, as pyflakes does), so the order of definitions does not matter and
``from pytest import mark as m``, ``import unittest as ut`` and
``skip = pytest.mark.skip`` all resolve to the canonical qualified name.
Resolution is flow-insensitive: a name bound to several things resolves to all
of them, so a suppression hidden behind a re-binding is still seen.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

# Functions that return the module a literal names (``__import__`` the top package unless
# it is given a fromlist, its fourth argument).
MODULE_LOADERS = {"importlib.import_module": False, "__import__": True,
                  "builtins.__import__": True, "importlib.__import__": True}


class AliasTable:
    """name → raw dotted targets, from imports and assignments anywhere in a module."""

    __slots__ = ("_cache", "_from_import", "_raw", "star_modules")

    def __init__(self) -> None:
        self._raw: dict[str, set[str]] = {}
        self._cache: dict[str, frozenset[str]] = {}
        self._from_import: set[str] = set()  # names bound by an import statement
        self.star_modules: list[str] = []

    def is_imported(self, name: str) -> bool:
        """Bound by `import`/`from ... import` (not only by an assignment)."""
        return name in self._from_import

    def bind(self, name: str, target: str) -> None:
        self._raw.setdefault(name, set()).add(target)
        self._cache.clear()

    def mark_imported(self, name: str) -> None:
        """``name`` is bound by an import statement (see :meth:`is_imported`)."""
        self._from_import.add(name)

    def add_ast_import(self, node: ast.Import | ast.ImportFrom) -> None:
        """The bindings of an import statement read with ``ast`` (the libcst walk's are
        :func:`provscore.evidence.cst_names.bind_import`)."""
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    self.bind(alias.asname, alias.name)
                    self._from_import.add(alias.asname)
                else:
                    head = alias.name.split(".", 1)[0]
                    self.bind(head, head)
                    self._from_import.add(head)
            return
        module = "." * node.level + (node.module or "")
        for alias in node.names:
            if alias.name == "*":
                self.star_modules.append(module)
                continue
            target = f"{module}.{alias.name}" if module and not module.endswith(".") \
                else module + alias.name
            local = alias.asname or alias.name
            self.bind(local, target)
            self._from_import.add(local)

    def imported(self, name: str) -> set[str]:
        return set(self._raw.get(name, ()))

    def resolve(self, name: str) -> set[str]:
        """Every qualified name ``name`` (dotted) may refer to; itself when unbound.

        Memoised, with a cycle guard on the head name and a cap on the result: a name
        re-bound from itself many times (``e = e.args`` in a loop) must not make resolution
        exponential — measured on sympy, that hung a single file for minutes."""
        cached = self._cache.get(name)
        if cached is None:
            cached = frozenset(self._resolve(name, set()))
            self._cache[name] = cached
        return set(cached)

    def _resolve(self, name: str, heads: set[str]) -> set[str]:
        head, _, rest = name.partition(".")
        targets = self._raw.get(head)
        if not targets or head in heads or len(heads) >= _MAX_DEPTH:
            out = {name}
            out.update(f"{m}.{name}" for m in self.star_modules if m)
            return out
        heads.add(head)
        result: set[str] = set()
        for target in sorted(targets):
            if target == head:  # `import pytest` binds pytest to itself
                result.add(name)
            else:
                result |= self._resolve(f"{target}.{rest}" if rest else target, heads)
            if len(result) >= _MAX_CANDIDATES:
                result = set(sorted(result)[:_MAX_CANDIDATES])
                break
        heads.discard(head)
        return result


_MAX_DEPTH = 8
_MAX_CANDIDATES = 64


def ast_spelling(node: ast.AST, aliases: AliasTable) -> str | None:
    """The dotted name an ``ast`` expression spells, before aliases are resolved:
    ``a.b.c``; ``getattr(a, "b")``; ``vars(a)["b"]`` and ``a.__dict__["b"]`` as ``a.b``;
    ``__import__("os")``, ``importlib.import_module("os.path")`` and ``sys.modules["os"]``
    as the module they return (the loader and ``sys`` are recognised through ``aliases``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = ast_spelling(node.value, aliases)
        return f"{base}.{node.attr}" if base else None
    if isinstance(node, ast.Call):
        return _call_spelling(node, aliases)
    if isinstance(node, ast.Subscript):
        key = _ast_literal_str(node.slice)
        if key is None:
            return None
        inner = node.value
        if isinstance(inner, ast.Attribute) and inner.attr == "__dict__":
            base = ast_spelling(inner.value, aliases)
            return f"{base}.{key}" if base else None
        if isinstance(inner, ast.Call) and isinstance(inner.func, ast.Name) and \
                inner.func.id == "vars" and len(inner.args) == 1:
            base = ast_spelling(inner.args[0], aliases)
            return f"{base}.{key}" if base else None
        spelled = ast_spelling(inner, aliases)
        if spelled and "sys.modules" in aliases.resolve(spelled):
            return key
    return None


def _call_spelling(node: ast.Call, aliases: AliasTable) -> str | None:
    func = ast_spelling(node.func, aliases)
    if func is None or not node.args:
        return None
    if func == "getattr" and len(node.args) >= 2:
        attr = _ast_literal_str(node.args[1])
        base = ast_spelling(node.args[0], aliases)
        return f"{base}.{attr}" if base and attr else None
    module = _ast_literal_str(node.args[0])
    if module is None:
        return None
    for loader in aliases.resolve(func):
        if loader in MODULE_LOADERS:
            top_only = MODULE_LOADERS[loader] and len(node.args) < 4 and \
                not any(k.arg == "fromlist" for k in node.keywords)
            return module.split(".", 1)[0] if top_only else module
    return None


def _ast_literal_str(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def ast_qualnames(node: ast.AST, aliases: AliasTable) -> set[str]:
    """Every qualified name an ``ast`` expression may refer to (empty: none can be told)."""
    spelled = ast_spelling(node, aliases)
    return aliases.resolve(spelled) if spelled else set()


def matches(qualnames: Iterable[str], table: frozenset[str]) -> str | None:
    """The first qualified name that is in ``table``, or None."""
    for q in qualnames:
        if q in table:
            return q
    return None
