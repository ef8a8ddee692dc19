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

from collections.abc import Iterable

import libcst as cst


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a Name/Attribute chain; ``getattr(a.b, "c")`` counts as ``a.b.c``."""
    parts: list[str] = []
    cur: cst.BaseExpression = node
    while True:
        if isinstance(cur, cst.Attribute):
            parts.append(cur.attr.value)
            cur = cur.value
        elif isinstance(cur, cst.Name):
            parts.append(cur.value)
            break
        elif isinstance(cur, cst.Call) and _is_literal_getattr(cur):
            parts.append(_literal_str(cur.args[1].value) or "")
            cur = cur.args[0].value
        elif isinstance(cur, cst.Call) and isinstance(cur.func, cst.Attribute) and \
                cur.func.attr.value in ("__getattr__", "__getattribute__") and \
                len(cur.args) == 1 and _literal_str(cur.args[0].value) is not None:
            # pytest.mark.__getattr__("skip") spells pytest.mark.skip
            parts.append(_literal_str(cur.args[0].value) or "")
            cur = cur.func.value
        else:
            return None
    return ".".join(reversed(parts))


def _literal_str(node: cst.BaseExpression) -> str | None:
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def _is_literal_getattr(call: cst.Call) -> bool:
    return (isinstance(call.func, cst.Name) and call.func.value == "getattr"
            and len(call.args) >= 2 and _literal_str(call.args[1].value) is not None)


def is_dynamic_getattr(call: cst.Call) -> bool:
    """``getattr(x, name)`` with a non-literal name: unresolvable, so suspicious."""
    return (isinstance(call.func, cst.Name) and call.func.value == "getattr"
            and len(call.args) >= 2 and _literal_str(call.args[1].value) is None)


def _module_name(node: cst.BaseExpression | None) -> str:
    if node is None:
        return ""
    return dotted(node) or ""


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

    def add_import(self, node: cst.Import) -> None:
        for alias in node.names:
            full = _module_name(alias.name)
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                self.bind(alias.asname.name.value, full)
                self._from_import.add(alias.asname.name.value)
            else:
                head = full.split(".", 1)[0]
                self.bind(head, head)
                self._from_import.add(head)

    def add_import_from(self, node: cst.ImportFrom) -> None:
        module = "." * len(node.relative) + _module_name(node.module)
        if isinstance(node.names, cst.ImportStar):
            self.star_modules.append(module)
            return
        for alias in node.names:
            name = _module_name(alias.name)
            target = f"{module}.{name}" if module and not module.endswith(".") else module + name
            local = (alias.asname.name.value
                     if alias.asname is not None and isinstance(alias.asname.name, cst.Name)
                     else name)
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


def matches(qualnames: Iterable[str], table: frozenset[str]) -> str | None:
    """The first qualified name that is in ``table``, or None."""
    for q in qualnames:
        if q in table:
            return q
    return None
