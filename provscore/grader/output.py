"""PS803: the channels a test run reports through, replaced or forged.

Replacing ``sys.stdout``/``sys.stderr``, ``builtins.print``, ``sys.excepthook`` (and the
other tables of ``[grader] output_streams``) lets code rewrite or swallow what the runner
prints; writing a string shaped like a runner's own report (``PASSED tests/x.py::t``,
``5 passed in 0.1s``, ``Ran 3 tests in``, ``OK``) forges the log graders parse. A function
that replaces a stream and puts back what it saved (``old = sys.stdout; ...; sys.stdout =
old``, or ``sys.__stdout__``), or that wraps the stream it replaces (``sys.stdout =
Wrapper(sys.stdout)``), is capturing output for itself, not replacing the runner's: not
reported (at import time both are). Written strings are read from literals, f-strings (each
placeholder read both as a count and as a test id), ``%`` templates and ``str.format`` templates.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from provscore.grader.exits import framework_self
from provscore.grader.model import Signal, SignalKind
from provscore.grader.scan import FileScan, Frame
from provscore.grader.tables import GraderTables

_PERCENT = re.compile(r"%(\([^)]*\))?[-#0 +]*\d*(\.\d+)?[a-zA-Z%]")
_BRACES = re.compile(r"\{[^{}]*\}")
#: What a placeholder of a written template stands for: it is matched as a count and as a
#: test id (``f"{n} passed in {t}s"``, ``f"PASSED {nodeid}"``).
HOLE = "\x1f"
_FILLS = ("0", "t.py::t")


def output_forging(scan: FileScan, tables: GraderTables) -> Iterator[Signal]:
    if any(framework_self(scan.path, f) for f in tables.test_frameworks):
        return  # a test runner's own code writes its own report
    yield from _replaced_streams(scan, tables)
    for call, frame in scan.events.calls:
        names = scan.qualnames(call.func, frame)
        if names & tables.fd_redirects and len(call.args) == 2 and \
                isinstance(call.args[1], ast.Constant) and call.args[1].value in (1, 2):
            yield _signal(scan, SignalKind.OUTPUT_STREAM, call, frame,
                          f"redirects file descriptor {call.args[1].value}")
            continue
        if not _is_writer(scan, call, frame, tables):
            continue
        for arg in call.args:
            text = template(arg, frame, scan)
            if text is None:
                continue
            for line in text.splitlines() or [text]:
                if any(p.search(line.replace(HOLE, fill)) for fill in _FILLS
                       for p in tables.runner_summaries):
                    line = line.replace(HOLE, "{}")
                    yield _signal(scan, SignalKind.FORGED_SUMMARY, call, frame,
                                  f"writes a test runner's report line {line.strip()[:60]!r}")
                    break


def _is_writer(scan: FileScan, call: ast.Call, frame: Frame, tables: GraderTables) -> bool:
    if scan.qualnames(call.func, frame) & tables.output_writers:
        return True
    return isinstance(call.func, ast.Attribute) and \
        call.func.attr in ("write", "writelines") and \
        bool(scan.qualnames(call.func.value, frame) & tables.output_streams)


def _replaced_streams(scan: FileScan, tables: GraderTables) -> Iterator[Signal]:
    writes: list[tuple[str, ast.expr | None, ast.stmt, Frame]] = []
    for target, value, stmt, frame in scan.events.assigns:
        stream = _stream(scan, target, frame, tables)
        if stream is not None:
            writes.append((stream, value, stmt, frame))
    for call, frame in scan.events.calls:
        if "setattr" in scan.qualnames(call.func, frame) and len(call.args) >= 3 and \
                isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str):
            base = scan.qualnames(call.args[0], frame)
            full = {f"{b}.{call.args[1].value}" for b in base}
            hit = min(full & tables.output_streams, default=None)
            if hit is not None:
                writes.append((hit, call.args[2], ast.Expr(call, lineno=call.lineno,
                                                           col_offset=call.col_offset,
                                                           end_lineno=call.end_lineno,
                                                           end_col_offset=call.end_col_offset),
                               frame))
    for stream, value, stmt, frame in writes:
        if frame.kind != "module" and (_restores(scan, stream, frame, writes) or
                                       _wraps(scan, stream, value, frame)):
            continue
        yield _signal(scan, SignalKind.OUTPUT_STREAM, stmt, frame, f"replaces {stream}")


def _wraps(scan: FileScan, stream: str, value: ast.expr | None, frame: Frame) -> bool:
    """``sys.stdout = Wrapper(sys.stdout)`` in a function: the stream still goes where
    it went (click's ``PacifyFlushWrapper``); at import time it is still reported."""
    return isinstance(value, ast.Call) and any(
        stream in scan.qualnames(a, frame) for a in ast.walk(value) if isinstance(a, ast.expr)
        and a is not value)


def _stream(scan: FileScan, target: ast.expr, frame: Frame, tables: GraderTables) -> str | None:
    if not isinstance(target, ast.Attribute | ast.Subscript):
        return None
    return min(scan.qualnames(target, frame) & tables.output_streams, default=None)


def _restores(scan: FileScan, stream: str, frame: Frame,
              writes: list[tuple[str, ast.expr | None, ast.stmt, Frame]]) -> bool:
    """Whether the same function (or a method of the same class) also puts back what it
    saved of ``stream`` (or the interpreter's original, ``sys.__stdout__``)."""
    saved = _saved_names(scan, stream, frame)
    original = stream.replace("sys.", "sys.__", 1) + "__" if stream.count(".") == 1 else ""
    for other, value, _, fr in writes:
        if other != stream or not _same_owner(fr, frame) or value is None:
            continue
        spelled = scan.spelling(value)
        if spelled is not None and (spelled in saved or
                                    original in scan.qualnames(value, frame)):
            return True
    return False


def _same_owner(a: Frame, b: Frame) -> bool:
    """The same function, or methods of one class (``setUp`` saves, ``tearDown`` restores)."""
    if a is b:
        return True
    return a.parent is not None and a.parent is b.parent and a.parent.kind == "class"


def _saved_names(scan: FileScan, stream: str, frame: Frame) -> set[str]:
    """Names (``old``, ``self._stdout``) the function binds to the stream's value."""
    out: set[str] = set()
    for target, value, _, fr in scan.events.assigns:
        if _same_owner(fr, frame) and value is not None and \
                stream in scan.qualnames(value, frame):
            spelled = scan.spelling(target)
            if spelled is not None:
                out.add(spelled)
    return out


def template(node: ast.expr, frame: Frame, scan: FileScan) -> str | None:
    """The text a written argument produces, each placeholder as :data:`HOLE`."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str | bytes):
        value = node.value
        return value.decode("utf-8", "replace") if isinstance(value, bytes) else value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str)
                       else HOLE for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        left = template(node.left, frame, scan)
        return _PERCENT.sub(HOLE, left) if left is not None else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr == "format":
        fmt = template(node.func.value, frame, scan)
        return _BRACES.sub(HOLE, fmt) if fmt is not None else None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = template(node.left, frame, scan), template(node.right, frame, scan)
        if left is not None or right is not None:
            return (left or HOLE) + (right or HOLE)
    return None


def _signal(scan: FileScan, kind: SignalKind, node: ast.AST, frame: Frame,
            detail: str) -> Signal:
    fn = next(frame.functions(), None)
    return Signal(kind, scan.path, getattr(node, "lineno", None), fn.qualname if fn else "",
                  scan.snippet(node), detail)
