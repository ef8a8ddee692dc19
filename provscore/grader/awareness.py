"""PS804: code that asks whether it runs under a test, and answers differently.

Reading the call stack (``inspect.stack``, ``sys._getframe``, ``traceback.extract_stack``)
in a function that names a test,
the variables test runners set (``PYTEST_CURRENT_TEST``), whether a test framework is
imported (``"pytest" in sys.modules``) or was the program (``sys.argv``), files under a
test directory, and module-level counters that make the n-th call answer differently
(``global calls; calls += 1; if calls == 2: ...``): production code has no business
with any of them. A cache keyed on the inputs is not a counter: only names bumped with
``+=``/``-=`` and then read in a condition are; and a ``nonlocal`` of a closure that is
only ever called where it is made starts again at every call, so it counts nothing.
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
        if state is not None and state in conditions.get(fn.qualname, set()) and \
                not _per_call_closure(state, frame):
            yield _signal(scan, aug, frame, f"counts its calls in {state} and branches on it",
                          SignalKind.CALL_STATE)


def _per_call_closure(name: str, frame: Frame) -> bool:
    """Whether ``name`` is a ``nonlocal`` of a closure that never outlives the call that
    made it (reservoir sampling's ``feed`` counting down what is left): its state starts
    again at every call of the function that owns it. Each function between the bump and
    the owner must be called directly and never handed on (returned, stored, passed,
    decorated); anything else keeps its state across calls and counts them."""
    child = next(frame.functions(), None)
    if child is None or not isinstance(child.node, ast.FunctionDef | ast.AsyncFunctionDef) \
            or not any(isinstance(n, ast.Nonlocal) and name in n.names
                       for n in _own_statements(child.node)):
        return False  # a global, or a function attribute: module-lifetime state
    parent = child.parent
    while parent is not None and parent.kind == "function":
        node = child.node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or \
                node.decorator_list or not isinstance(
                    parent.node, ast.FunctionDef | ast.AsyncFunctionDef) or \
                _handed_on(node.name, parent.node):
            return False
        if _binds(parent.node, name):
            return True
        child, parent = parent, parent.parent
    return False


def _own_statements(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Iterator[ast.AST]:
    """Every node of ``fn``'s body outside the functions and classes nested in it."""
    stack: list[ast.AST] = list(fn.body)
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef |
                          ast.Lambda):
            stack.extend(ast.iter_child_nodes(node))


def _binds(fn: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether ``name`` is a local of ``fn`` (a parameter, or assigned in its body and
    not declared ``global``/``nonlocal`` there)."""
    args = fn.args
    if name in {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs,
                                *filter(None, (args.vararg, args.kwarg)))}:
        return True
    own = list(_own_statements(fn))
    if any(isinstance(n, ast.Global | ast.Nonlocal) and name in n.names for n in own):
        return False
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)
               for n in own)


def _handed_on(name: str, owner: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Whether ``owner`` uses the function ``name`` other than by calling it."""
    called = {id(n.func) for n in ast.walk(owner) if isinstance(n, ast.Call)}
    return any(isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Load)
               and id(n) not in called for n in ast.walk(owner))


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
