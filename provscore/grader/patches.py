"""PS806: production code or conftest that rebinds what the test run depends on.

Assigning (or ``setattr``, ``del``) attributes of the test frameworks and the modules
tests take time, randomness and the environment from (``[grader] patched_modules``:
``time.time = lambda: 0``, ``random.random = ...``, ``pytest.approx = ...``), setting the
environment variables that configure the run (``os.environ["PYTEST_ADDOPTS"] = ...``),
and starting a ``mock.patch`` outside a test. In a conftest, rebinding an attribute of a
module the patch changed also counts: that is the tested module replaced for every test.
Fixtures that take ``monkeypatch`` (undone after each test) and code under ``if __name__
== "__main__":`` are not reported. Names must be bound by an import (a local variable
called ``random`` is not the module).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from provscore.grader.exits import framework_self
from provscore.grader.model import Signal, SignalKind
from provscore.grader.scan import LOCAL, FileScan, Frame
from provscore.grader.tables import GraderTables


def framework_patches(scan: FileScan, tables: GraderTables,
                      tested: frozenset[str] | None) -> Iterator[Signal]:
    """``tested``: in a conftest, the modules the patch changed (None: not a conftest)."""
    if any(framework_self(scan.path, f) for f in tables.patched_modules):
        return  # a module defining its own attributes
    for target, _, stmt, frame in scan.events.assigns:
        if _exempt(frame):
            continue
        hit = _patched(scan, target, frame, tables, tested)
        if hit is not None:
            yield _signal(scan, stmt, frame, f"rebinds {hit}")
        elif isinstance(target, ast.Subscript) and _environ(scan, target.value, frame, tables):
            key = _literal(target.slice)
            if key is not None and _runner_key(key, tables):
                yield _signal(scan, stmt, frame, f"sets the test run's variable {key}")
    for target, frame in scan.events.deletes:
        hit = None if _exempt(frame) else _patched(scan, target, frame, tables, tested)
        if hit is not None:
            yield _signal(scan, target, frame, f"deletes {hit}")
    for call, frame in scan.events.calls:
        if not _exempt(frame):
            detail = _call_patch(scan, call, frame, tables, tested)
            if detail is not None:
                yield _signal(scan, call, frame, detail)


def _exempt(frame: Frame) -> bool:
    return frame.main_guard or any("monkeypatch" in fr.params for fr in frame.functions())


def _patched(scan: FileScan, target: ast.expr, frame: Frame, tables: GraderTables,
             tested: frozenset[str] | None) -> str | None:
    if not isinstance(target, ast.Attribute):
        return None
    spelled = scan.spelling(target)
    if spelled is None or not _imported_head(scan, spelled, frame):
        return None
    names = scan.qualnames(target, frame)
    if names & tables.output_streams or "builtins._" in names:
        return None  # output channels are PS803's; `builtins._` is what displayhook sets
    for q in sorted(names):
        root = q.split(".", 1)[0]
        if root in tables.patched_modules or (tested and any(
                q.startswith(f"{m}.") for m in tested)):
            return q
    return None


def _imported_head(scan: FileScan, spelled: str, frame: Frame) -> bool:
    head = spelled.split(".", 1)[0]
    if frame.shadows(head):
        return False
    bound = scan.aliases.imported(head)
    return bool(bound) and not all(b.startswith(f"{LOCAL}.") for b in bound)


def _call_patch(scan: FileScan, call: ast.Call, frame: Frame, tables: GraderTables,
                tested: frozenset[str] | None) -> str | None:
    names = scan.qualnames(call.func, frame)
    if "setattr" in names and len(call.args) >= 2:
        attr = _literal(call.args[1])
        base = scan.spelling(call.args[0])
        if attr is not None and base is not None:
            fake = ast.Attribute(call.args[0], attr, ast.Store())
            hit = _patched(scan, fake, frame, tables, tested)
            if hit is not None:
                return f"rebinds {hit}"
    if names & tables.env_setters and call.args:
        keys = [_literal(call.args[0])]
        if isinstance(call.args[0], ast.Dict):
            keys = [_literal(k) for k in call.args[0].keys if k is not None]
        for key in keys:
            if key is not None and _runner_key(key, tables):
                return f"sets the test run's variable {key}"
    if isinstance(call.func, ast.Attribute) and call.func.attr == "start" and \
            isinstance(call.func.value, ast.Call) and \
            scan.qualnames(call.func.value.func, frame) & tables.patchers:
        return "starts a mock.patch outside a test"
    return None


def _environ(scan: FileScan, node: ast.expr, frame: Frame, tables: GraderTables) -> bool:
    return bool(scan.qualnames(node, frame) & tables.environ)


def _runner_key(key: str, tables: GraderTables) -> bool:
    return any(key.startswith(p) for p in tables.runner_env_prefixes)


def _literal(node: ast.expr) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) \
        else None


def _signal(scan: FileScan, node: ast.AST, frame: Frame, detail: str) -> Signal:
    fn = next(frame.functions(), None)
    return Signal(SignalKind.FRAMEWORK_PATCH, scan.path, getattr(node, "lineno", None),
                  fn.qualname if fn else "", scan.snippet(node), detail)
