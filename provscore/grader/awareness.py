"""PS804: code that asks whether it runs under a test, and answers differently.

Reading the call stack (``inspect.stack``, ``sys._getframe``, ``traceback.extract_stack``)
in a function that names a test,
the variables test runners set (``PYTEST_CURRENT_TEST``), whether a test framework is
imported (``"pytest" in sys.modules``) or was the program (``sys.argv``), files under a
test directory, and module-level counters that make the n-th call answer differently
(``global calls; calls += 1; if calls == 2: ...``): production code has no business
with any of them. A cache keyed on the inputs is not a counter: only names bumped with
``+=``/``-=`` and then read in a condition are.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from provscore.grader.exits import framework_self
from provscore.grader.model import Signal, SignalKind
from provscore.grader.scan import FileScan, Frame
from provscore.grader.tables import GraderTables

# A path component that names a test file or directory.
_TEST_PART = re.compile(r"^(tests?|testing|conftest\.py|test_[^/]*|[^/]*_tests?\.py)$",
                        re.IGNORECASE)

_ENV_NAME = re.compile(r"[A-Z0-9_]+")


def test_awareness(scan: FileScan, tables: GraderTables) -> Iterator[Signal]:
    if any(framework_self(scan.path, f) for f in tables.test_frameworks):
        return
    worded = _functions_with_test_words(scan, tables)
    for call, frame in scan.events.calls:
        names = scan.qualnames(call.func, frame)
        hit = min(names & tables.frame_calls, default=None)
        if hit is not None:
            fn = frame.outermost_function
            if (fn.qualname if fn else "") in worded:
                yield _signal(scan, call, frame, f"reads the call stack with {hit}() and "
                              "looks for a test in it")
            continue
        if names & tables.path_calls:
            path = _test_path(call)
            if path is not None:
                yield _signal(scan, call, frame, f"reads test path {path!r}")
                continue
        if isinstance(call.func, ast.Attribute) and _framework_lookup(scan, call, frame, tables):
            yield _signal(scan, call, frame, "checks whether a test framework is running")
    for node, frame in scan.events.compares:
        if _framework_compare(scan, node, frame, tables):
            yield _signal(scan, node, frame, "checks whether a test framework is running")
    written = _written_keys(scan, tables)
    for const, frame in scan.events.strings:
        text = str(const.value)
        if id(const) not in written and _ENV_NAME.fullmatch(text) and \
                any(text.startswith(p) for p in tables.test_env_prefixes):
            yield _signal(scan, const, frame, f"reads the test runner's variable {text!r}")
    yield from _call_counters(scan)


def _functions_with_test_words(scan: FileScan, tables: GraderTables) -> set[str]:
    """Functions (outermost, "" for module level) with a literal naming a test, a test
    framework or a test file: reading the stack there is looking for the test. Reading it
    for the caller's module name (``sys._getframe(1).f_globals["__name__"]``, as
    ``namedtuple`` does) is not."""
    out: set[str] = set()
    for const, frame in scan.events.strings:
        if tables.has_test_word(str(const.value)):
            fn = frame.outermost_function
            out.add(fn.qualname if fn else "")
    return out


def _written_keys(scan: FileScan, tables: GraderTables) -> set[int]:
    """The literals that name a variable being set (``os.environ["X"] = ...``,
    ``os.putenv("X", ...)``): setting the run's variables is PS806's, not awareness."""
    out: set[int] = set()
    for target, _, _, _ in scan.events.assigns:
        if isinstance(target, ast.Subscript):
            out.add(id(target.slice))
    for call, frame in scan.events.calls:
        if call.args and scan.qualnames(call.func, frame) & tables.env_setters:
            out.update(id(n) for n in ast.walk(call.args[0]))
    return out


def _test_path(call: ast.Call) -> str | None:
    for arg in call.args:
        if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value:
            parts = re.split(r"[/\\]", arg.value)
            if any(_TEST_PART.match(p) for p in parts if p):
                return arg.value
    return None


def _mentions_framework(node: ast.expr, tables: GraderTables) -> bool:
    """A literal naming a test framework (``"pytest"``) or containing a test word."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str)):
        return False
    return node.value in tables.test_frameworks or tables.has_test_word(node.value)


def _names_state(scan: FileScan, node: ast.expr, frame: Frame, tables: GraderTables) -> bool:
    """``sys.modules``, ``sys.argv`` or something taken from them (``sys.argv[0]``)."""
    while isinstance(node, ast.Subscript | ast.Call | ast.Attribute):
        if scan.qualnames(node, frame) & (tables.module_registries | tables.argv):
            return True
        node = node.value if isinstance(node, ast.Subscript | ast.Attribute) else node.func
    return bool(scan.qualnames(node, frame) & (tables.module_registries | tables.argv))


def _framework_compare(scan: FileScan, node: ast.Compare, frame: Frame,
                       tables: GraderTables) -> bool:
    sides = [node.left, *node.comparators]
    return any(_mentions_framework(s, tables) for s in sides) and \
        any(_names_state(scan, s, frame, tables) for s in sides)


def _framework_lookup(scan: FileScan, call: ast.Call, frame: Frame,
                      tables: GraderTables) -> bool:
    """``sys.modules.get("pytest")``, ``sys.argv[0].endswith("pytest")``."""
    assert isinstance(call.func, ast.Attribute)
    return any(_mentions_framework(a, tables) for a in call.args) and \
        _names_state(scan, call.func.value, frame, tables)


def _call_counters(scan: FileScan) -> Iterator[Signal]:
    """A ``global``/``nonlocal`` name (or a function attribute) bumped in a function and
    read in one of its conditions: each call answers differently."""
    conditions: dict[str, set[str]] = {}
    for node, frame in scan.events.branches:
        fn = next(frame.functions(), None)
        if fn is None:
            continue
        test = node.subject if isinstance(node, ast.Match) else node.test
        conditions.setdefault(fn.qualname, set()).update(_state_reads(test))
    for aug, frame in scan.events.aug:
        fn = next(frame.functions(), None)
        if fn is None or not isinstance(aug.op, ast.Add | ast.Sub):
            continue
        state = _state_name(aug.target, fn)
        if state is not None and state in conditions.get(fn.qualname, set()):
            yield _signal(scan, aug, frame, f"counts its calls in {state} and branches on it",
                          SignalKind.CALL_STATE)


def _state_name(target: ast.expr, fn: Frame) -> str | None:
    if isinstance(target, ast.Name) and target.id in fn.declared:
        return target.id
    if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and \
            target.value.id == fn.qualname.rsplit(".", 1)[-1]:
        return f"{target.value.id}.{target.attr}"  # the function's own attribute
    return None


def _state_reads(test: ast.expr) -> set[str]:
    out: set[str] = set()
    for n in ast.walk(test):
        if isinstance(n, ast.Name):
            out.add(n.id)
        elif isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name):
            out.add(f"{n.value.id}.{n.attr}")
    return out


def _signal(scan: FileScan, node: ast.AST, frame: Frame, detail: str,
            kind: SignalKind = SignalKind.TEST_AWARENESS) -> Signal:
    fn = next(frame.functions(), None)
    return Signal(kind, scan.path, getattr(node, "lineno", None), fn.qualname if fn else "",
                  scan.snippet(node), detail)
