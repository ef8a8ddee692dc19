"""The libcst side of name resolution: dotted spellings of libcst nodes and the bindings
of libcst import statements, into :class:`provscore.names.AliasTable` (whose ``ast``
side the call graph and the grader use without loading libcst)."""

from __future__ import annotations

import libcst as cst

from provscore.names import AliasTable


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
    """The text of a string constant, folded as Python folds it: ``"skip" "Test"``,
    ``"skip" + "Test"`` and an f-string with no replacement field are ``"skipTest"``."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    if isinstance(node, cst.ConcatenatedString | cst.BinaryOperation) and \
            (isinstance(node, cst.ConcatenatedString) or isinstance(node.operator, cst.Add)):
        left = _literal_str(node.left)
        right = _literal_str(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, cst.FormattedString) and \
            all(isinstance(p, cst.FormattedStringText) for p in node.parts):
        text = "".join(p.value for p in node.parts if isinstance(p, cst.FormattedStringText))
        if "\\" in text and "r" not in node.prefix.lower():
            return None  # an escape sequence: not decoded here
        return text.replace("{{", "{").replace("}}", "}")
    return None


def method_called(call: cst.Call) -> str | None:
    """The method a call calls on a receiver, however it is spelled: ``x.skipTest(...)``,
    ``getattr(x, "skip" + "Test")(...)``."""
    name = dotted(call.func)
    return name.rsplit(".", 1)[-1] if name is not None and "." in name else None


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


def bind_import(table: AliasTable, node: cst.Import | cst.ImportFrom) -> None:
    """Bind the names an import statement of the libcst walk binds in ``table``."""
    if isinstance(node, cst.ImportFrom):
        _bind_import_from(table, node)
        return
    for alias in node.names:
        full = _module_name(alias.name)
        if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
            table.bind(alias.asname.name.value, full)
            table.mark_imported(alias.asname.name.value)
        else:
            head = full.split(".", 1)[0]
            table.bind(head, head)
            table.mark_imported(head)


def _bind_import_from(table: AliasTable, node: cst.ImportFrom) -> None:
    module = "." * len(node.relative) + _module_name(node.module)
    if isinstance(node.names, cst.ImportStar):
        table.star_modules.append(module)
        return
    for alias in node.names:
        name = _module_name(alias.name)
        target = f"{module}.{name}" if module and not module.endswith(".") else module + name
        local = (alias.asname.name.value
                 if alias.asname is not None and isinstance(alias.asname.name, cst.Name)
                 else name)
        table.bind(local, target)
        table.mark_imported(local)
