"""Name resolution: aliases resolve, and self-rebinding cannot make it explode."""

from __future__ import annotations

import libcst as cst

from provscore.evidence.cst_names import bind_import
from provscore.names import AliasTable


def _table(src: str) -> AliasTable:
    table = AliasTable()
    for stmt in cst.parse_module(src).body:
        for small in getattr(stmt, "body", ()):
            if isinstance(small, cst.Import | cst.ImportFrom):
                bind_import(table, small)
    return table


def test_aliases_resolve_through_imports_and_assignments() -> None:
    table = _table("import pytest as p\nfrom unittest import mock as m\n")
    table.bind("skip", "p.mark.skip")
    assert table.resolve("skip") == {"pytest.mark.skip"}
    assert table.resolve("m.patch") == {"unittest.mock.patch"}
    assert table.resolve("unbound.name") == {"unbound.name"}
    assert table.is_imported("p") and not table.is_imported("skip")


def test_self_rebinding_is_bounded() -> None:
    # `e = e.args`, `e = e.func`, ... many times over (real sympy code does this): the
    # resolution of `e.x` must stay small instead of branching through every binding.
    table = AliasTable()
    for attr in [f"a{i}" for i in range(40)]:
        table.bind("e", f"e.{attr}")
        table.bind("f", f"e.{attr}")
    result = table.resolve("f.x")
    assert 0 < len(result) <= 64
    assert all(q.startswith("e.") for q in result)
    assert table.resolve("f.x") == result  # memoised and stable
