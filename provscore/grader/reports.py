"""PS207 beyond the hook definitions the evidence stage sees: what rewrites a report.

In any changed Python file that speaks to pytest (a conftest, or a module that imports
``pytest``/``_pytest`` or defines ``pytest_*`` hooks: a plugin, wherever it is loaded
from): assigning a report's ``outcome``/``longrepr``/``wasxfail`` or a session's
``exitstatus``, ``outcome.force_result(...)``/``force_exception(...)`` in a hook wrapper,
building a ``TestReport`` by hand, and ``item.add_marker(...)`` with a skip or an
``xfail(run=False)``. A plugin hook that only reads a report (to log it, to add a
section) is not reported.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from provscore.grader.model import Signal, SignalKind
from provscore.grader.scan import FileScan, Frame

REPORT_FIELDS = frozenset({"outcome", "longrepr", "wasxfail", "exitstatus"})
FORCERS = frozenset({"force_result", "force_exception"})
_REPORT_TYPES = frozenset({"TestReport", "CollectReport"})


def speaks_to_pytest(scan: FileScan) -> bool:
    if scan.path.rsplit("/", 1)[-1] == "conftest.py":
        return True
    heads = {t.split(".", 1)[0] for name in ("pytest", "_pytest")
             for t in scan.aliases.imported(name)}
    if heads & {"pytest", "_pytest"}:
        return True
    return any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and
               n.name.startswith("pytest_") for n in scan.tree.body)


def report_tampering(scan: FileScan) -> Iterator[Signal]:
    if not speaks_to_pytest(scan):
        return
    for target, _, stmt, frame in scan.events.assigns:
        if isinstance(target, ast.Attribute) and target.attr in REPORT_FIELDS and \
                not (isinstance(target.value, ast.Name) and target.value.id == "self"):
            yield _signal(scan, stmt, frame, f"sets a report's {target.attr}")
    for call, frame in scan.events.calls:
        func = call.func
        attr = func.attr if isinstance(func, ast.Attribute) else \
            func.id if isinstance(func, ast.Name) else ""
        if attr in FORCERS:
            yield _signal(scan, call, frame, f"calls {attr}() on a hook outcome")
        elif any(q.rsplit(".", 1)[-1] in _REPORT_TYPES or
                 q.rsplit(".", 2)[-2:-1] == ["TestReport"]
                 for q in scan.qualnames(func, frame)):
            yield _signal(scan, call, frame, "builds a test report by hand")
        elif attr == "add_marker" and call.args and _skipping_mark(call.args[0]):
            yield _signal(scan, call, frame, "adds a skip or xfail(run=False) marker")


def _skipping_mark(node: ast.expr) -> bool:
    call = node if isinstance(node, ast.Call) else None
    func = call.func if call is not None else node
    name = func.attr if isinstance(func, ast.Attribute) else \
        func.id if isinstance(func, ast.Name) else \
        func.value if isinstance(func, ast.Constant) else None
    if name in ("skip", "skipif"):
        return True
    if name == "xfail" and call is not None:
        return any(k.arg == "run" and isinstance(k.value, ast.Constant) and
                   k.value.value is False for k in call.keywords)
    return False


def _signal(scan: FileScan, node: ast.AST, frame: Frame, detail: str) -> Signal:
    fn = next(frame.functions(), None)
    return Signal(SignalKind.REPORT_TAMPERING, scan.path, getattr(node, "lineno", None),
                  fn.qualname if fn else "", scan.snippet(node), detail)
