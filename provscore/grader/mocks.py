"""PS809: a test the patch wrote or edited that replaces the very code the patch changed.

``mock.patch("pkg.mod.f")`` (as a decorator, a context manager or a call),
``mock.patch.object(mod, "f")``, ``monkeypatch.setattr(mod, "f", ...)`` and
``monkeypatch.setattr("pkg.mod.f", ...)`` in a changed region of a test file, whose
target is a function, method or class the patch changed: the test then exercises the
mock, not the change. Targets are resolved through the test file's imports
(``from pkg import mod as m``; ``patch.object(m.Cls, "meth")``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from provscore.grader.model import Signal, SignalKind
from provscore.grader.scan import FileScan, Frame
from provscore.grader.tables import GraderTables

_OBJECT_PATCHERS = frozenset({"unittest.mock.patch.object", "mock.patch.object"})


def mocked_units(scan: FileScan, tables: GraderTables,
                 changed: frozenset[str]) -> Iterator[Signal]:
    """``changed``: dotted names (``pkg.mod.Cls.meth``) of the symbols the patch changed."""
    if not changed:
        return
    for call, frame in scan.events.calls:
        for target in _targets(scan, call, frame, tables):
            if target in changed:
                yield _signal(scan, call, frame, target)
                break


def _targets(scan: FileScan, call: ast.Call, frame: Frame, tables: GraderTables) -> set[str]:
    names = scan.qualnames(call.func, frame)
    args = call.args
    if names & _OBJECT_PATCHERS or _is_monkeypatch_setattr(call, frame):
        if len(args) >= 2 and _literal(args[1]) is not None:
            return {f"{q}.{_literal(args[1])}" for q in scan.qualnames(args[0], frame)}
        if args and _is_monkeypatch_setattr(call, frame) and _literal(args[0]):
            return {str(_literal(args[0]))}
        return set()
    if names & tables.patchers and args and _literal(args[0]):
        return {str(_literal(args[0]))}
    return set()


def _is_monkeypatch_setattr(call: ast.Call, frame: Frame) -> bool:
    func = call.func
    return isinstance(func, ast.Attribute) and func.attr == "setattr" and \
        isinstance(func.value, ast.Name) and func.value.id == "monkeypatch" and \
        any("monkeypatch" in fr.params for fr in frame.functions())


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        else None


def _signal(scan: FileScan, call: ast.Call, frame: Frame, target: str) -> Signal:
    fn = next(frame.functions(), None)
    return Signal(SignalKind.MOCKED_UNIT, scan.path, call.lineno, fn.qualname if fn else "",
                  scan.snippet(call), f"replaces {target}, which the patch changed",
                  subject=target)
