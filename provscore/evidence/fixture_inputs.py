"""A fixture's inputs are inputs of the tests it applies to.

A patch (``monkeypatch.setattr``, ``mock.patch``) made inside a fixture runs for every test
that requests the fixture, directly or through other fixtures, and for every test in the
scope of an autouse fixture: replacing the code under test there makes those tests check
the replacement. In a test module the tests it applies to are known, and each of them gets
the input as its own (PS110 compares them per test). A fixture of a conftest or plugin
module applies to tests in files the patch need not touch: its inputs stay on the fixture
(``FIXTURE_INPUT`` / ``AUTOUSE_INPUT`` in the item's detail) and PS110 judges them there.
"""

from __future__ import annotations

from dataclasses import replace

import libcst as cst

from provscore.evidence.constants import constant_truth
from provscore.evidence.context import Context, Frame
from provscore.evidence.model import (
    AUTOUSE_INPUT,
    FIXTURE_INPUT,
    EvidenceItem,
    EvidenceKind,
    TestDef,
)


def fixture_frame(frame: Frame) -> Frame | None:
    """The fixture whose body (or a function defined in it) this frame is."""
    cur: Frame | None = frame
    while cur is not None and cur.kind == "func" and cur.test_id is None:
        if cur.fixture:
            return cur
        cur = cur.parent
    return None


def _decorator_call(ctx: Context, node: cst.FunctionDef) -> cst.Call | None:
    for dec in node.decorators:
        call = dec.decorator
        if isinstance(call, cst.Call) and ctx.qualnames(call.func) & ctx.tables.fixture_decorators:
            return call
    return None


def _keyword(call: cst.Call | None, name: str) -> cst.BaseExpression | None:
    if call is None:
        return None
    return next((a.value for a in call.args if a.keyword is not None
                 and a.keyword.value == name), None)


def _name(ctx: Context, frame: Frame) -> str:
    """The name tests request it by: ``@pytest.fixture(name=...)``, else the function's."""
    assert isinstance(frame.node, cst.FunctionDef)
    named = _keyword(_decorator_call(ctx, frame.node), "name")
    if isinstance(named, cst.SimpleString) and isinstance(named.evaluated_value, str):
        return named.evaluated_value
    return frame.name


def _autouse(ctx: Context, frame: Frame) -> bool:
    """``autouse=`` anything but a literal false (an expression may be true: fail closed)."""
    assert isinstance(frame.node, cst.FunctionDef)
    value = _keyword(_decorator_call(ctx, frame.node), "autouse")
    return value is not None and constant_truth(value) is not False


def with_fixture_inputs(ctx: Context, items: list[EvidenceItem], tests: list[TestDef]
                        ) -> list[EvidenceItem]:
    """``items`` with each fixture's inputs given to the tests of this module it applies
    to (test modules) or kept on the fixture, marked with how it applies (other modules)."""
    fixtures = [f for f in ctx.defs if f.fixture and f.test_id is None
                and isinstance(f.node, cst.FunctionDef)]
    by_id = {f"{ctx.path}::{f.qualname}": f for f in fixtures}
    inputs: dict[str, list[EvidenceItem]] = {}
    for it in items:
        if it.kind is EvidenceKind.TEST_INPUT and not it.in_test and it.node_id in by_id:
            inputs.setdefault(it.node_id, []).append(it)
    if not inputs:
        return items
    out = [it for it in items if not (it.kind is EvidenceKind.TEST_INPUT and not it.in_test
                                      and it.node_id in inputs)]
    if not ctx.collect_tests:
        for node_id, found in inputs.items():
            how = AUTOUSE_INPUT if _autouse(ctx, by_id[node_id]) else FIXTURE_INPUT
            out += [replace(it, detail=how) for it in found]
        return out
    names = {f"{ctx.path}::{f.qualname}": _name(ctx, f) for f in fixtures}
    requests = {names[i]: _params(f) for i, f in by_id.items()}
    for t in tests:
        used = _closure(set(t.fixtures), requests)
        for node_id, found in inputs.items():
            f = by_id[node_id]
            if names[node_id] in used or (_autouse(ctx, f) and _in_scope(f, t.node_id)):
                out += [replace(it, node_id=t.node_id, in_test=True, scope="") for it in found]
    return out


def _params(frame: Frame) -> set[str]:
    assert isinstance(frame.node, cst.FunctionDef)
    return {p.name.value for p in frame.node.params.params}


def _closure(names: set[str], requests: dict[str, set[str]]) -> set[str]:
    """The fixtures a test uses: those it requests and, transitively, theirs."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        todo += requests.get(name, ())
    return seen


def _in_scope(fixture: Frame, test_id: str) -> bool:
    """An autouse fixture applies to the tests of the module or class that defines it."""
    parent = fixture.parent
    if parent is None or parent.kind == "module":
        return True
    return parent.kind == "class" and test_id.startswith(f"{parent.node_id}::")
