"""PS802: code that ends the process, stops the run, or skips the test that called it.

``sys.exit``, ``os._exit``, ``exit``/``quit``, ``os.abort``, ``signal.raise_signal``,
``os.kill(os.getpid(), ...)``, ``raise SystemExit`` / ``SkipTest`` / ``pytest.skip``, in
any spelling (aliases, ``getattr``, ``__import__``). An exit function handed over as a
value (``atexit.register(os._exit, 0)``, ``signal.signal(SIGTERM, sys.exit)``) counts
where it is handed over; a handler written inline (``lambda *_: os._exit(0)``) or a
function whose body exits counts at the exit itself, so an ``atexit`` or ``signal``
handler that only cleans up is not reported. Code under ``if __name__ == "__main__":`` and
``__main__.py`` modules are entry points by definition and never reported; whether
another function is an entry point is decided by the stage (declared console scripts).
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Iterator

from provscore.grader.model import Signal, SignalKind
from provscore.grader.scan import FileScan, Frame
from provscore.grader.tables import GraderTables


def process_exits(scan: FileScan, tables: GraderTables) -> Iterator[Signal]:
    if posixpath.basename(scan.path) == "__main__.py":
        return
    for call, frame in scan.events.calls:
        if frame.main_guard:
            continue
        names = scan.qualnames(call.func, frame)
        hit = _first(names, tables.exit_calls)
        if hit is not None and not framework_self(scan.path, hit):
            yield _signal(scan, call, frame, f"calls {hit}()")
        elif _first(names, tables.kill_calls) and call.args and \
                _own_process(scan, call.args[0], frame, tables):
            yield _signal(scan, call, frame, "signals its own process")
        else:
            for arg in (*call.args, *(k.value for k in call.keywords)):
                if isinstance(arg, ast.Name | ast.Attribute | ast.Call):
                    passed = _first(scan.qualnames(arg, frame), tables.exit_calls)
                    if passed is not None and not isinstance(arg, ast.Call):
                        yield _signal(scan, call, frame, f"hands {passed} over to be called")
    for node, frame in scan.events.raises:
        if frame.main_guard or node.exc is None:
            continue
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        hit = _first(scan.qualnames(exc, frame), tables.exit_raises)
        if hit is not None and not framework_self(scan.path, hit):
            yield _signal(scan, node, frame, f"raises {hit}")


def _own_process(scan: FileScan, pid: ast.expr, frame: Frame, tables: GraderTables) -> bool:
    """``os.getpid()`` (or the parent's, or the process group's), or 0: the process group
    of the caller."""
    if isinstance(pid, ast.Constant) and pid.value == 0:
        return True
    return isinstance(pid, ast.Call) and \
        _first(scan.qualnames(pid.func, frame), tables.own_pids) is not None


def _signal(scan: FileScan, node: ast.AST, frame: Frame, detail: str) -> Signal:
    fn = next(frame.functions(), None)
    return Signal(SignalKind.PROCESS_EXIT, scan.path, getattr(node, "lineno", None),
                  fn.qualname if fn else "", scan.snippet(node), detail)


def _first(names: set[str], table: frozenset[str]) -> str | None:
    return min((n for n in names if n in table), default=None)


def framework_self(path: str, qualname: str) -> bool:
    """Whether ``path`` is part of the framework ``qualname`` belongs to (pytest's own
    ``src/_pytest/outcomes.py`` raising its ``Skipped``): its job, not a subversion."""
    root = qualname.split(".", 1)[0].lstrip("_")
    return bool(root) and any(part.lstrip("_") == root for part in path.split("/")[:-1])
