"""Stage 3: classified evidence, suppressions, helper oracles and tests of one image.

One libcst traversal per image runs every collector (assertions, suppressions,
helpers, test identity, aliases); each collector is a sibling under
:class:`Collector` and shares one :class:`Context` (frames, aliases, sequence
counter). Names are resolved after the traversal. Line numbers are computed by
one cheap code generation pass, only for the nodes that became items.
Comments, docstrings and string literals are never evidence: only real
statements and calls are visited as such.
"""

from __future__ import annotations

import ast
import builtins
import enum
import fnmatch
import functools
import gc
import operator
import sys
import textwrap
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import libcst as cst
from libcst._nodes.internal import CodegenState

from provscore.names import AliasTable, dotted, is_dynamic_getattr, matches
from provscore.rules import patterns


class EvidenceKind(enum.StrEnum):
    ASSERT = "assert"
    UNITTEST = "unittest_assert"
    RAISES = "raises"
    FAIL = "fail"
    LIBRARY = "library_assert"
    MOCK = "mock_assert"
    PROPERTY = "property"
    PARAM_ROW = "parametrize_row"
    HELPER_CALL = "helper_call"
    EXPECTED_READ = "expected_read"


class SuppressionKind(enum.StrEnum):
    SKIP_MARK = "skip_mark"
    XFAIL_MARK = "xfail_mark"
    RUNTIME_SKIP = "runtime_skip"
    COLLECTION_HOOK = "collection_hook"
    COLLECTION_VARIABLE = "collection_variable"
    TEST_DISABLED = "test_disabled"
    EARLY_RETURN = "early_return"
    DEAD_BRANCH = "dead_branch"
    ASSERT_OVERRIDE = "assert_override"
    SWALLOWED = "swallowed"
    REPORT_HOOK = "report_hook"
    CONFIG_DESELECT = "config_deselect"
    WRAPPED = "wrapped"  # a decorator that may replace the test body
    DYNAMIC = "dynamic"  # exec/eval/__import__: cannot be classified statically


@dataclass(frozen=True, slots=True)
class Shape:
    """What an evidence item checks, in comparable parts (used to judge weakening)."""

    op: str
    operands: tuple[str, ...] = ()
    keywords: tuple[tuple[str, str], ...] = ()
    conjuncts: int = 1
    tautology: bool = False
    # What is being checked (left operand, mock receiver, helper name): two checks of the
    # same subject in one test are one modified check, not a removal plus an addition.
    subject: str = ""
    # Conditions inside the test under which the check runs ("if x", "not (x)", "for ...").
    guards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    kind: EvidenceKind
    path: str
    node_id: str  # enclosing test's node id; path::qualname outside tests; path at module level
    scope: str  # qualname of the enclosing def relative to the test ("" when directly in it)
    in_test: bool
    code: str  # anchor: normalised code, names bound once in the test inlined
    shape: Shape
    line: int | None = field(default=None, compare=False)
    detail: str = ""
    text: str = field(default="", compare=False)  # the code as written (normalised), to show

    @property
    def shown(self) -> str:
        return self.text or self.code


@dataclass(frozen=True, slots=True)
class Suppression:
    kind: SuppressionKind
    path: str
    node_id: str  # what it suppresses: a test, a class, or the whole file (path)
    code: str
    line: int | None = field(default=None, compare=False)
    detail: str = ""


@dataclass(frozen=True, slots=True)
class TestDef:
    node_id: str
    name: str
    line: int | None
    body: str  # normalised code of the whole def minus its name, to follow renames and moves
    fixtures: tuple[str, ...] = ()  # fixtures it requests: parameters and usefixtures(...)


@dataclass(frozen=True, slots=True)
class HelperDef:
    """A non-test function that contains evidence (directly or through other helpers),
    or a fixture: what a fixture returns is input and expected value of its tests."""

    qualname: str
    node_id: str
    line: int | None
    body: str
    is_fixture: bool
    body_key: str = ""  # the def with its name blanked: follows a move or a rename
    skips: bool = False  # its body skips or xfails (a fixture that does skips its tests)


@dataclass(frozen=True, slots=True)
class FileEvidence:
    path: str
    items: tuple[EvidenceItem, ...] = ()
    suppressions: tuple[Suppression, ...] = ()
    tests: tuple[TestDef, ...] = ()
    helpers: tuple[HelperDef, ...] = ()
    error: str | None = None  # why the source could not be classified (→ PS903)
    error_line: int | None = None


@dataclass(frozen=True, slots=True)
class CollectionConfig:
    """pytest's collection rules, read from base configuration."""

    python_files: tuple[str, ...] = ("test_*.py", "*_test.py")
    python_classes: tuple[str, ...] = ("Test",)
    python_functions: tuple[str, ...] = ("test",)
    testpaths: tuple[str, ...] = ()
    norecursedirs: tuple[str, ...] = ("*.egg", ".*", "_darcs", "build", "CVS", "dist",
                                      "node_modules", "venv", "{arch}")

    def is_collected(self, path: str) -> bool:
        """Whether pytest (with base's configuration) collects tests from this file."""
        if not path.endswith(".py") or path.rsplit("/", 1)[-1] == "conftest.py":
            return False
        if not self.is_test_file(path):
            return False
        if self.testpaths and not any(
                fnmatch.fnmatch(path, tp) or path.startswith(tp.rstrip("/") + "/") or path == tp
                for tp in self.testpaths):
            return False
        dirs = path.split("/")[:-1]
        return not any(fnmatch.fnmatch(d, pat) for d in dirs for pat in self.norecursedirs)

    def is_test_file(self, path: str) -> bool:
        base = path.rsplit("/", 1)[-1]
        return any(fnmatch.fnmatch(path if "/" in pat else base, pat)
                   for pat in self.python_files)

    @staticmethod
    def _name_matches(name: str, patterns_: Sequence[str]) -> bool:
        for pat in patterns_:
            if any(ch in pat for ch in "*?["):
                if fnmatch.fnmatch(name, pat):
                    return True
            elif name.startswith(pat):
                return True
        return False

    def is_test_class(self, name: str) -> bool:
        return self._name_matches(name, self.python_classes)

    def is_test_function(self, name: str) -> bool:
        return self._name_matches(name, self.python_functions)


# --------------------------------------------------------------------------- tables

@dataclass(frozen=True)
class Tables:
    skip_marks: frozenset[str]
    xfail_marks: frozenset[str]
    runtime_skips: frozenset[str]
    skip_methods: frozenset[str]
    swallowing_calls: frozenset[str]
    swallowed_exceptions: frozenset[str]
    collection_hooks: frozenset[str]
    collection_variables: frozenset[str]
    report_hooks: frozenset[str]
    pytest_calls: frozenset[str]
    assert_modules: tuple[str, ...]
    assertion_helpers: frozenset[str]
    unittest_methods: frozenset[str]
    mock_methods: frozenset[str]
    hypothesis_given: frozenset[str]
    hypothesis_settings: frozenset[str]
    hypothesis_example: frozenset[str]
    parametrize: frozenset[str]
    fixture_decorators: frozenset[str]
    expected_reads: frozenset[str]
    helper_name_prefixes: tuple[str, ...]
    mark_roots: frozenset[str]
    rebinding: dict[str, str]
    runner_methods: frozenset[str]
    dynamic_calls: frozenset[str]
    dynamic_modules: frozenset[str]
    safe_decorators: tuple[str, ...]

    @classmethod
    def load(cls, extra_helpers: Iterable[str] = ()) -> Tables:
        s, e = patterns("suppression"), patterns("evidence")
        marks = set(s["skip_marks"]) | set(s["xfail_marks"]) | set(s["runtime_skips"])
        return cls(
            skip_marks=frozenset(s["skip_marks"]), xfail_marks=frozenset(s["xfail_marks"]),
            runtime_skips=frozenset(s["runtime_skips"]), skip_methods=frozenset(s["skip_methods"]),
            swallowing_calls=frozenset(s["swallowing_calls"]),
            swallowed_exceptions=frozenset(s["swallowed_exceptions"]),
            collection_hooks=frozenset(s["collection_hooks"]),
            collection_variables=frozenset(s["collection_variables"]),
            report_hooks=frozenset(s["report_hooks"]),
            pytest_calls=frozenset(e["pytest_calls"]),
            assert_modules=tuple(e["assert_modules"]),
            assertion_helpers=frozenset(e["assertion_helpers"]) | frozenset(extra_helpers),
            unittest_methods=frozenset(e["unittest_methods"]),
            mock_methods=frozenset(e["mock_methods"]),
            hypothesis_given=frozenset(e["hypothesis_given"]),
            hypothesis_settings=frozenset(e["hypothesis_settings"]),
            hypothesis_example=frozenset(e["hypothesis_example"]),
            parametrize=frozenset(e["parametrize"]),
            fixture_decorators=frozenset(e["fixture_decorators"]),
            expected_reads=frozenset(e["expected_reads"]),
            helper_name_prefixes=tuple(e["helper_name_prefixes"]),
            # First segments worth resolving on a bare Name (cheap pre-filter).
            mark_roots=frozenset(q.split(".", 1)[0] for q in marks),
            rebinding=dict(s["rebinding"]),
            runner_methods=frozenset(s["runner_methods"]["names"]),
            dynamic_calls=frozenset(s["dynamic"]["calls"]),
            dynamic_modules=frozenset(s["dynamic"]["modules"]),
            safe_decorators=tuple(s["decorators"]["safe_prefixes"]),
        )


# --------------------------------------------------------------------------- normalising

@functools.lru_cache(maxsize=65536)
def normalize(code: str) -> str:
    """Code without comments or formatting: reformatting is not a change."""
    text = code.strip()
    for candidate, mode in ((f"(\n{text}\n)", "eval"), (text, "exec")):
        try:
            tree = ast.parse(candidate, mode=mode)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        return ast.unparse(tree)
    return " ".join(text.split())


_FALSY_LITERALS = {"False", "None", "0", "0.0", "''", '""', "()", "[]", "{}", "b''", "set()"}


def _literal_truth(code: str) -> bool | None:
    """Truth value of a constant expression, None when it is not constant."""
    norm = normalize(code)
    if norm.startswith("not "):
        inner = _literal_truth(norm[4:])
        return None if inner is None else not inner
    try:
        value = ast.literal_eval(norm)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return bool(value)


# --------------------------------------------------------------------------- positions

class _SpanLocator(CodegenState):
    """One code generation of the module that records, for a set of target nodes only,
    where their code starts and ends in the generated text (which is the source) and on
    which line they start. Every item's text is then a slice: no per-node codegen."""

    def __init__(self, module: cst.Module, targets: set[int]) -> None:
        super().__init__(default_indent=module.default_indent,
                         default_newline=module.default_newline)
        self.targets = targets
        self.starts: dict[int, int] = {}
        self.ends: dict[int, int] = {}
        self.lines: dict[int, int] = {}
        self._counted = 0
        self._length = 0
        self._line = 1

    def _advance(self) -> None:
        new = self.tokens[self._counted:]
        if new:
            self._length += sum(map(len, new))
            self._line += sum(t.count("\n") for t in new)
            self._counted = len(self.tokens)

    def before_codegen(self, node: cst.CSTNode) -> None:
        key = id(node)
        if key in self.targets and key not in self.starts:
            self._advance()
            self.starts[key] = self._length
            self.lines[key] = self._line

    def after_codegen(self, node: cst.CSTNode) -> None:
        key = id(node)
        if key in self.targets and key not in self.ends:
            self._advance()
            self.ends[key] = self._length


@dataclass
class Spans:
    text: str
    starts: dict[int, int]
    ends: dict[int, int]
    lines: dict[int, int]


def _locate(module: cst.Module, nodes: Iterable[cst.CSTNode]) -> Spans:
    targets = {id(n) for n in nodes}
    state = _SpanLocator(module, targets)
    module._codegen(state)
    return Spans("".join(state.tokens), state.starts, state.ends, state.lines)


def _first_line_node(node: cst.CSTNode) -> cst.CSTNode:
    """The node whose code starts on the statement's own line (after comments/decorators)."""
    if isinstance(node, cst.FunctionDef | cst.ClassDef):
        return node.name
    if isinstance(node, cst.SimpleStatementLine) and node.body:
        return node.body[0]
    if isinstance(node, cst.Decorator):
        return node.decorator
    return node


# --------------------------------------------------------------------------- traversal

HelperLookup = Callable[[str, str], bool]
"""(importing file path, qualified name) → is that name a helper oracle?"""


@dataclass
class Frame:
    kind: str  # "module" | "class" | "func"
    name: str
    qualname: str
    node_id: str
    node: cst.CSTNode | None
    is_test: bool = False
    is_test_class: bool = False
    is_unittest: bool = False
    test_id: str | None = None  # enclosing test function's node id
    test_scope: str = ""  # qualname below the enclosing test
    return_seq: int | None = None  # first `return` in a test body (early return)
    return_node: cst.CSTNode | None = None
    fixture: bool = False
    evidence_count: int = 0
    parent: Frame | None = None
    order: int = 0
    # name → latest order at which this scope re-bound it (def, assignment, del):
    # pytest collects the final binding, so an earlier test of that name is gone.
    rebinds: dict[str, int] = field(default_factory=dict)
    settings: cst.Call | None = None  # hypothesis @settings on this function
    returns: list[cst.BaseExpression | None] = field(default_factory=list)
    # name → values bound to it in this scope (assignments); inlined into anchors when
    # bound exactly once, so renaming a local or moving a literal into one is no change.
    bindings: dict[str, list[cst.BaseExpression | None]] = field(default_factory=dict)


@dataclass
class RawItem:
    kind: EvidenceKind
    node: cst.CSTNode
    frame: Frame
    shape_node: cst.CSTNode
    seq: int
    detail: str = ""
    op: str = ""
    guards: tuple[tuple[cst.CSTNode, bool], ...] = ()


@dataclass
class RawSuppression:
    kind: SuppressionKind
    node: cst.CSTNode
    target: str
    detail: str = ""
    frame: str = ""  # qualname of the function it sits in ("" at module level)


@dataclass
class RawCall:
    name: str
    node: cst.Call
    frame: Frame
    seq: int
    guards: tuple[tuple[cst.CSTNode, bool], ...] = ()


class Context:
    """State the collectors share during one traversal."""

    def __init__(self, path: str, config: CollectionConfig, tables: Tables,
                 helper_lookup: HelperLookup | None = None, collect_tests: bool = True) -> None:
        self.path = path
        self.helper_lookup = helper_lookup
        self.collect_tests = collect_tests
        self.order = 0
        self.init_classes: set[str] = set()
        self.self_raising: set[int] = set()  # pytest.raises calls whose block raises itself
        # Enclosing conditions: (condition node, True when in its else branch); the frame
        # depth they belong to tells module-level conditions from those inside a test.
        self.conds: list[tuple[cst.CSTNode, bool, int]] = []
        self.try_depth_module = 0
        self.config = config
        self.tables = tables
        self.aliases = AliasTable()
        self.frames: list[Frame] = [Frame("module", "", "", path, None)]
        self.seq = 0
        self.items: list[RawItem] = []
        self.suppressions: list[RawSuppression] = []
        self.calls: list[RawCall] = []
        self.defs: list[Frame] = []
        self.unittest_classes: set[str] = set()
        self.deferred: list[Callable[[], None]] = []
        # Run after `deferred`, when every item is known (guards, early returns).
        self.post_checks: list[Callable[[], None]] = []
        self.consumed: set[int] = set()  # nodes already reported through a parent call

    def guards(self) -> tuple[tuple[cst.CSTNode, bool], ...]:
        """Conditions inside the enclosing test function (not module-level ones)."""
        depth = len(self.frames)
        test_depth = next((i for i, fr in enumerate(self.frames) if fr.is_test), None)
        if test_depth is None:
            return ()
        return tuple((n, neg) for n, neg, d in self.conds if d > test_depth and d <= depth)

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    def target(self) -> str:
        """What a suppression at this point affects: the test/class, else the file."""
        for fr in reversed(self.frames):
            if fr.is_test or fr.is_test_class or fr.kind == "module":
                return fr.node_id
        return self.path

    def tick(self) -> int:
        """Position of the next candidate node; evidence found later keeps its position."""
        self.seq += 1
        return self.seq

    def evidence_between(self, start: int, end: int, test_id: str | None = None) -> int:
        return sum(1 for it in self.items if start < it.seq <= end
                   and it.kind is not EvidenceKind.EXPECTED_READ
                   and (test_id is None or it.frame.test_id == test_id))

    def add_item(self, kind: EvidenceKind, node: cst.CSTNode, shape_node: cst.CSTNode | None = None,
                 detail: str = "", op: str = "") -> None:
        frame = self.frame
        self.items.append(RawItem(kind, node, frame, shape_node or node, self.seq, detail, op,
                                  self.guards()))
        for fr in self.frames:
            fr.evidence_count += 1

    def suppress(self, kind: SuppressionKind, node: cst.CSTNode, detail: str = "",
                 target: str | None = None, frame: str | None = None) -> None:
        """Record a suppression; deferred callers pass the ``frame`` they were found in."""
        self.suppressions.append(RawSuppression(kind, node, target or self.target(), detail,
                                                self.frame.qualname if frame is None else frame))

    def qualnames(self, node: cst.BaseExpression) -> set[str]:
        name = dotted(node)
        return self.aliases.resolve(name) if name else set()


class Collector:
    """Base of every collector: one concern, ``visit_<Node>``/``leave_<Node>`` methods."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def finish(self) -> None:
        """Called after the traversal, when every alias is known."""


# Fields that hold only whitespace, comments or punctuation: nothing a collector reads.
_SKIPPED_FIELDS = frozenset({
    "leading_lines", "lines_after_decorators", "lpar", "rpar", "comma", "semicolon", "dot",
    "header", "footer", "asynchronous", "trailing_whitespace", "equal", "operator",
    "colon", "star_tok", "whitespace", "default_indent", "default_newline", "encoding",
    "first_line", "empty_lines", "indent", "newline", "lbracket", "rbracket",
    "lbrace", "rbrace", "between"})


@functools.cache
def _child_fields(node_type: type) -> tuple[str, ...]:
    import dataclasses

    return tuple(f.name for f in dataclasses.fields(node_type)
                 if not f.name.startswith("whitespace") and f.name not in _SKIPPED_FIELDS)


class _Walker:
    """One read-only walk over the tree dispatching each node to every interested
    collector. libcst's own visit() rebuilds every node it passes (even for a read-only
    visitor) and looks up per-field hooks; walking the dataclass fields directly, and
    skipping whitespace and punctuation, does the same visit in about a third of the
    time. Order: fields in declaration order (source order except decorators, which
    come after the body; no collector depends on that)."""

    _dispatch_cache: ClassVar[dict[tuple[type, ...], tuple[set[str], set[str]]]] = {}

    def __init__(self, ctx: Context, collectors: Sequence[Collector]) -> None:
        self.ctx = ctx
        key = tuple(type(c) for c in collectors)
        if key not in self._dispatch_cache:
            visit_types = {a[6:] for c in collectors for a in dir(type(c))
                           if a.startswith("visit_")}
            leave_types = {a[6:] for c in collectors for a in dir(type(c))
                           if a.startswith("leave_")}
            self._dispatch_cache[key] = (visit_types, leave_types)
        visit_types, leave_types = self._dispatch_cache[key]
        self._visit: dict[str, list[Callable[[Any], Any]]] = {
            t: [getattr(c, f"visit_{t}") for c in collectors if hasattr(c, f"visit_{t}")]
            for t in visit_types}
        self._leave: dict[str, list[Callable[[Any], Any]]] = {
            t: [getattr(c, f"leave_{t}") for c in collectors if hasattr(c, f"leave_{t}")]
            for t in leave_types}

    def walk(self, node: cst.CSTNode) -> None:
        name = type(node).__name__
        descend = True
        handlers = self._visit.get(name)
        if handlers:
            for h in handlers:
                if h(node) is False:
                    descend = False
        if descend:
            for field_name in _child_fields(type(node)):
                value = getattr(node, field_name)
                if isinstance(value, cst.CSTNode):
                    self.walk(value)
                elif isinstance(value, tuple | list):
                    for item in value:
                        if isinstance(item, cst.CSTNode):
                            self.walk(item)
        leave = self._leave.get(name)
        if leave:
            for h in leave:
                h(node)


# --------------------------------------------------------------------------- collectors

def _base_names(ctx: Context, node: cst.ClassDef) -> set[str]:
    out: set[str] = set()
    for arg in node.bases:
        out |= ctx.qualnames(arg.value)
        name = dotted(arg.value)
        if name:
            out.add(name)
    return out


class ScopeCollector(Collector):
    """Frames for classes and functions, and pytest's test identity rules."""

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        ctx = self.ctx
        parent = ctx.frame
        name = node.name.value
        qual = f"{parent.qualname}.{name}" if parent.qualname else name
        bases = _base_names(ctx, node)
        unittest_base = any(
            b.endswith("TestCase") or b.rsplit(".", 1)[-1] in ctx.unittest_classes
            for b in bases)
        if unittest_base:
            ctx.unittest_classes.add(name)
        in_collectable = ctx.collect_tests and (parent.kind == "module" or parent.is_test_class)
        # pytest does not collect a Test* class with its own or an inherited __init__/__new__.
        has_init = isinstance(node.body, cst.IndentedBlock) and any(
            isinstance(s, cst.FunctionDef) and s.name.value in ("__init__", "__new__")
            for s in node.body.body)
        if has_init:
            ctx.init_classes.add(name)
        inherits_init = any(b.rsplit(".", 1)[-1] in ctx.init_classes for b in bases)
        if _is_abstract(ctx, node, bases):
            inherits_init = True  # pytest skips abstract classes (inspect.isabstract)
        is_test_class = in_collectable and (
            unittest_base or (ctx.config.is_test_class(name) and not has_init
                              and not inherits_init))
        node_id = f"{parent.node_id}::{name}" if parent.kind != "func" else parent.node_id
        ctx.order += 1
        _rebind(parent, name, ctx.order)
        ctx.frames.append(Frame("class", name, qual, node_id, node, is_test_class=is_test_class,
                                is_unittest=unittest_base, test_id=parent.test_id,
                                test_scope=_sub(parent.test_scope, name) if parent.test_id else "",
                                parent=parent, order=ctx.order))

    def leave_ClassDef(self, node: cst.ClassDef) -> None:
        self.ctx.frames.pop()

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        ctx = self.ctx
        parent = ctx.frame
        name = node.name.value
        qual = f"{parent.qualname}.{name}" if parent.qualname else name
        if not ctx.collect_tests:
            is_test = False
        elif parent.kind == "module":
            is_test = ctx.config.is_test_function(name)
        elif parent.kind == "class" and parent.is_test_class:
            is_test = name.startswith("test") if parent.is_unittest \
                else ctx.config.is_test_function(name)
        else:
            is_test = False
        if parent.test_id is not None:
            is_test = False
        node_id = f"{parent.node_id}::{name}" if parent.kind != "func" else parent.node_id
        fixture = any(matches(ctx.qualnames(_callee(d.decorator)), ctx.tables.fixture_decorators)
                      for d in node.decorators)
        is_test = is_test and not fixture  # a fixture is never collected as a test
        if is_test and parent.kind == "module" and (ctx.conds or ctx.try_depth_module):
            # Off in the body of a false `if`, or in the else branch of a true one.
            statically_off = any(
                _constant_truth(c.test) is neg for c, neg, _ in ctx.conds
                if isinstance(c, cst.If))
            if statically_off:
                is_test = False  # e.g. defined under `if __name__ == "__main__":`
            else:
                ctx.suppress(SuppressionKind.DEAD_BRANCH, node.name, target=f"{ctx.path}::{name}",
                             detail="test defined only when a module-level condition holds")
        ctx.order += 1
        _rebind(parent, name, ctx.order)
        frame = Frame("func", name, qual, node_id if parent.kind != "func" else
                      f"{ctx.path}::{qual}", node, is_test=is_test, fixture=fixture,
                      test_id=node_id if is_test else parent.test_id,
                      test_scope="" if is_test else (
                          _sub(parent.test_scope, name) if parent.test_id else ""),
                      parent=parent, order=ctx.order)
        ctx.frames.append(frame)
        ctx.defs.append(frame)

    def leave_FunctionDef(self, node: cst.FunctionDef) -> None:
        ctx = self.ctx
        frame = ctx.frames.pop()
        if frame.is_test and frame.return_seq is not None and frame.return_node is not None:
            start, end, node_ret = frame.return_seq, ctx.seq, frame.return_node

            def check() -> None:
                later = ctx.evidence_between(start, end, frame.node_id)
                if later:
                    ctx.suppress(SuppressionKind.EARLY_RETURN, node_ret,
                                 detail=f"{later} evidence item(s) after it",
                                 target=frame.node_id)
            ctx.post_checks.append(check)

    def visit_Return(self, node: cst.Return) -> None:
        frame = self.ctx.frame
        if frame.is_test and frame.return_seq is None:
            frame.return_seq = self.ctx.seq
            frame.return_node = node
        if frame.kind == "func":
            frame.returns.append(node.value)

    def visit_Yield(self, node: cst.Yield) -> None:
        if self.ctx.frame.kind == "func":
            self.ctx.frame.returns.append(None)  # a generator fixture: not inlinable

    # Re-binding a name in a module or class body hides an earlier test of that name.
    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._rebound(t.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._rebound(node.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._rebound(node.target)

    def visit_Del(self, node: cst.Del) -> None:
        self._rebound(node.target)

    def _rebound(self, target: cst.BaseExpression) -> None:
        frame = self.ctx.frame
        if frame.kind == "func":
            return
        names = [target] if isinstance(target, cst.Name) else [
            e.value for e in target.elements if isinstance(e.value, cst.Name)
        ] if isinstance(target, cst.Tuple | cst.List) else []
        for n in names:
            if isinstance(n, cst.Name):
                self.ctx.order += 1
                _rebind(frame, n.value, self.ctx.order)


def _is_abstract(ctx: Context, node: cst.ClassDef, bases: set[str]) -> bool:
    abc_meta = bases & {"abc.ABC", "ABC"} or any(
        kw.keyword is not None and kw.keyword.value == "metaclass" and
        ctx.qualnames(kw.value) & {"abc.ABCMeta", "ABCMeta"} for kw in node.keywords)
    if not abc_meta or not isinstance(node.body, cst.IndentedBlock):
        return False
    return any(isinstance(st, cst.FunctionDef) and any(
        ctx.qualnames(_callee(d.decorator)) & {"abc.abstractmethod", "abstractmethod"}
        for d in st.decorators) for st in node.body.body)


def _rebind(frame: Frame, name: str, order: int) -> None:
    frame.rebinds[name] = order


def _shadowed(frame: Frame) -> bool:
    """A def whose name its scope binds again later is not what pytest collects."""
    parent = frame.parent
    return parent is not None and parent.rebinds.get(frame.name, frame.order) > frame.order


def _still_bound(frame: Frame) -> bool:
    """Neither the test nor any class around it was re-bound (``del``, ``= None``, a
    second ``def`` of the same name)."""
    cur: Frame | None = frame
    while cur is not None and cur.kind != "module":
        if _shadowed(cur):
            return False
        cur = cur.parent
    return True


def _sub(scope: str, name: str) -> str:
    return f"{scope}.{name}" if scope else name


def _callee(expr: cst.BaseExpression) -> cst.BaseExpression:
    return expr.func if isinstance(expr, cst.Call) else expr


class AliasCollector(Collector):
    def visit_Import(self, node: cst.Import) -> None:
        self.ctx.aliases.add_import(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        self.ctx.aliases.add_import_from(node)

    def visit_Assign(self, node: cst.Assign) -> None:
        value = _callee(node.value)
        name = dotted(value)
        if name is None:
            return
        for t in node.targets:
            if isinstance(t.target, cst.Name):
                self.ctx.aliases.bind(t.target.value, name)


class ConditionCollector(Collector):
    """The conditions around each statement (if/elif/else, while, for, try at module level)."""

    def visit_If(self, node: cst.If) -> None:
        ctx = self.ctx
        if ctx.conds and ctx.conds[-1][0] is not node and isinstance(ctx.conds[-1][0], cst.If) \
                and ctx.conds[-1][0].orelse is node:
            prev, _, depth = ctx.conds.pop()  # elif: the previous test is now false
            ctx.conds.append((prev, True, depth))
        ctx.conds.append((node, False, len(ctx.frames)))

    def visit_Else(self, node: cst.Else) -> None:
        ctx = self.ctx
        for i in range(len(ctx.conds) - 1, -1, -1):
            owner = ctx.conds[i][0]
            if getattr(owner, "orelse", None) is node:
                ctx.conds[i] = (owner, True, ctx.conds[i][2])
                break

    def leave_If(self, node: cst.If) -> None:
        ctx = self.ctx
        while ctx.conds and ctx.conds[-1][0] is not node:
            ctx.conds.pop()
        if ctx.conds:
            ctx.conds.pop()

    def visit_While(self, node: cst.While) -> None:
        self.ctx.conds.append((node, False, len(self.ctx.frames)))

    def leave_While(self, node: cst.While) -> None:
        if self.ctx.conds and self.ctx.conds[-1][0] is node:
            self.ctx.conds.pop()

    def visit_For(self, node: cst.For) -> None:
        self.ctx.conds.append((node, False, len(self.ctx.frames)))

    def leave_For(self, node: cst.For) -> None:
        if self.ctx.conds and self.ctx.conds[-1][0] is node:
            self.ctx.conds.pop()

    def visit_Try(self, node: cst.Try) -> None:
        if self.ctx.frame.kind == "module":
            self.ctx.try_depth_module += 1

    def leave_Try(self, node: cst.Try) -> None:
        if self.ctx.frame.kind == "module":
            self.ctx.try_depth_module -= 1


class BindingCollector(Collector):
    """What each name is bound to per scope (for anchors that survive renames)."""

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        bindings = self.ctx.frame.bindings
        if isinstance(target, cst.Name):
            bindings.setdefault(target.value, []).append(value)
        elif isinstance(target, cst.Tuple | cst.List):
            for el in target.elements:
                self._bind(el.value, None)
        elif isinstance(target, cst.StarredElement):
            self._bind(target.value, None)

    def visit_Assign(self, node: cst.Assign) -> None:
        for t in node.targets:
            self._bind(t.target, node.value if len(node.targets) == 1 else None)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._bind(node.target, node.value)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._bind(node.target, None)

    def visit_For(self, node: cst.For) -> None:
        self._bind(node.target, None)

    def visit_AsName(self, node: cst.AsName) -> None:
        if isinstance(node.name, cst.Name | cst.Tuple | cst.List):
            self._bind(node.name, None)

    def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
        self._bind(node.target, None)

    def visit_Param(self, node: cst.Param) -> None:
        self._bind(node.name, None)

    def visit_Global(self, node: cst.Global) -> None:
        for n in node.names:
            self._bind(n.name, None)

    def visit_Nonlocal(self, node: cst.Nonlocal) -> None:
        for n in node.names:
            self._bind(n.name, None)


@dataclass
class _Guard:
    node: cst.CSTNode
    start: int
    body_end: int | None = None
    kind: str = ""
    detail: str = ""


class AssertionCollector(Collector):
    """Assertions, framework assertion calls, properties and parametrize rows."""

    def visit_Assert(self, node: cst.Assert) -> None:
        # `assert a and b` is two checks: splitting or merging them is no change.
        self.ctx.tick()
        for conj in _conjuncts(node.test):
            self.ctx.add_item(EvidenceKind.ASSERT, conj, conj)

    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        ctx.tick()
        func = node.func
        if isinstance(func, cst.Attribute):
            attr = func.attr.value
            if attr in ctx.tables.mock_methods:
                ctx.add_item(EvidenceKind.MOCK, node, op=attr)
                return
            if attr in ctx.tables.unittest_methods and self._receiver_ok(func):
                ctx.add_item(EvidenceKind.UNITTEST, node, op=attr)
                return
        # The rest need resolved names: decide after the traversal.
        frame, seq, guards = ctx.frame, ctx.seq, ctx.guards()
        ctx.deferred.append(lambda: self._classify_call(node, frame=frame, seq=seq,
                                                        guards=guards))
        if isinstance(func, cst.Name | cst.Attribute):
            name = func.value if isinstance(func, cst.Name) else func.attr.value
            ctx.calls.append(RawCall(name, node, ctx.frame, ctx.seq, guards))

    def _receiver_ok(self, func: cst.Attribute) -> bool:
        # self.assertX / cls.assertX / any_testcase.assertX; not pytest.fail etc.
        return func.attr.value != "fail" or (isinstance(func.value, cst.Name) and \
            func.value.value in ("self", "cls"))

    def _classify_call(self, node: cst.Call, *, frame: Frame, seq: int,
                       guards: tuple[tuple[cst.CSTNode, bool], ...] = ()) -> None:
        ctx = self.ctx
        names = ctx.qualnames(node.func)
        if not names:
            return
        t = ctx.tables
        kind: EvidenceKind | None = None
        q = matches(names, t.pytest_calls)
        if q:
            if q.endswith("approx"):
                return  # approx modifies its comparison; it is part of that item's shape
            kind = EvidenceKind.FAIL if q.endswith("fail") else EvidenceKind.RAISES
        elif matches(names, t.assertion_helpers):
            kind = EvidenceKind.LIBRARY
        else:
            for n in names:
                last = n.rsplit(".", 1)[-1]
                if last.startswith("assert") and any(n.startswith(m + ".") or n.startswith(m)
                                                     for m in t.assert_modules):
                    kind = EvidenceKind.LIBRARY
                    break
            if kind is None and matches(names, t.expected_reads):
                lits = [a.value.evaluated_value for a in node.args
                        if isinstance(a.value, cst.SimpleString)]
                if frame.test_id is not None or frame.kind == "func":
                    detail = str(lits[0]) if lits else ""
                    ctx.items.append(RawItem(EvidenceKind.EXPECTED_READ, node, frame, node, seq,
                                             detail=detail))
                return
        if kind is not None:
            ctx.items.append(RawItem(kind, node, frame, node, seq,
                                     op=(dotted(node.func) or "").rsplit(".", 1)[-1],
                                     guards=guards))
            for fr in (f for f in ctx.defs if f is frame):
                fr.evidence_count += 1
            ctx.consumed.add(id(node))

    def visit_Decorator(self, node: cst.Decorator) -> None:
        ctx = self.ctx
        dec = node.decorator
        frame = ctx.frame
        ctx.deferred.append(lambda: self._classify_decorator(dec, frame))

    def _classify_decorator(self, dec: cst.BaseExpression, frame: Frame) -> None:
        ctx = self.ctx
        names = ctx.qualnames(_callee(dec))
        t = ctx.tables
        if matches(names, t.hypothesis_given):
            ctx.items.append(RawItem(EvidenceKind.PROPERTY, dec, frame, dec, 0, op="given"))
            frame.evidence_count += 1
        elif matches(names, t.hypothesis_example) and isinstance(dec, cst.Call):
            # An explicit example always runs: each one is a row of evidence.
            ctx.items.append(RawItem(EvidenceKind.PARAM_ROW, dec, frame, dec, 0, op="example"))
        elif matches(names, t.hypothesis_settings) and isinstance(dec, cst.Call):
            # max_examples & co. are part of the @given property's strength.
            frame.settings = dec
        elif matches(names, t.parametrize) and isinstance(dec, cst.Call):
            values = _parametrize_values(dec)
            if isinstance(values, cst.Name):  # rows kept in a module constant
                bound = ctx.frames[0].bindings.get(values.value, [])
                if len(bound) == 1 and bound[0] is not None:
                    values = bound[0]
            argnames = _parametrize_argnames(dec)
            # The argnames are part of every row: swapping "x, y" swaps input and expected.
            names_code = _argnames(argnames)
            if isinstance(values, cst.List | cst.Tuple | cst.Set):
                for el in values.elements:
                    ctx.items.append(RawItem(EvidenceKind.PARAM_ROW, el.value, frame, el.value, 0,
                                             op="row", detail=names_code))
            elif values is not None:
                ctx.items.append(RawItem(EvidenceKind.PARAM_ROW, values, frame, values, 0,
                                         op="rows", detail=names_code))


def _argnames(node: cst.BaseExpression | None) -> str:
    """"x, y", ("x", "y") and ["x","y"] are the same argnames: "x,y"."""
    if node is None:
        return ""
    if isinstance(node, cst.SimpleString) and isinstance(node.evaluated_value, str):
        return ",".join(n.strip() for n in node.evaluated_value.split(",") if n.strip())
    if isinstance(node, cst.Tuple | cst.List):
        names = [e.value.evaluated_value for e in node.elements
                 if isinstance(e.value, cst.SimpleString)]
        if len(names) == len(node.elements) and all(isinstance(n, str) for n in names):
            return ",".join(str(n).strip() for n in names)
    return cst.Module(body=[]).code_for_node(node)


def _parametrize_argnames(call: cst.Call) -> cst.BaseExpression | None:
    for a in call.args:
        if a.keyword is not None and a.keyword.value == "argnames":
            return a.value
    positional = [a for a in call.args if a.keyword is None]
    return positional[0].value if positional else None


def _parametrize_values(call: cst.Call) -> cst.BaseExpression | None:
    positional = [a for a in call.args if a.keyword is None]
    for a in call.args:
        if a.keyword is not None and a.keyword.value == "argvalues":
            return a.value
    return positional[1].value if len(positional) > 1 else None


class SuppressionCollector(Collector):
    """Skips, xfails, runtime skips, collection and report hooks, neutralised tests."""

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.guards: list[_Guard] = []
        # first unreachable statement id → (its block, the terminal statement before it)
        self._dead: dict[int, tuple[cst.IndentedBlock, cst.CSTNode]] = {}
        self._dead_open: dict[int, tuple[int, cst.CSTNode]] = {}
        self._skip_calls: set[int] = set()  # x.skipTest(...) already reported as a call
        # classes defined here whose __exit__ returns True: `with Cls():` swallows
        self._swallowing_classes: set[str] = set()

    # -- marks and runtime skips (resolved after the traversal) --------------
    def visit_Call(self, node: cst.Call) -> None:
        ctx = self.ctx
        func = node.func
        target = ctx.target()
        if isinstance(func, cst.Attribute) and func.attr.value in ctx.tables.skip_methods:
            self._skip_calls.add(id(func))
            ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, detail=func.attr.value)
            return
        if is_dynamic_getattr(node) or (isinstance(func, cst.Name) and func.value == "vars"
                                        and node.args):
            ctx.deferred.append(lambda: self._dynamic(node, target))
        frame = ctx.frame.qualname
        ctx.deferred.append(lambda: self._call(node, target, frame))
        if ctx.frame.test_id is not None and not self._in_with_header(node):
            ctx.deferred.append(lambda: self._loose_suppressor(node, target))
        # `collect_ignore.append(...)` and friends
        if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
                func.value.value in ctx.tables.collection_variables:
            ctx.suppress(SuppressionKind.COLLECTION_VARIABLE, node, target=ctx.path)

    def _in_with_header(self, node: cst.Call) -> bool:
        return any(isinstance(g.node, cst.With) and any(i.item is node for i in g.node.items)
                   for g in self.guards[-1:])

    def _loose_suppressor(self, node: cst.Call, target: str) -> None:
        """suppress(AssertionError) entered without a `with` (ExitStack.enter_context)."""
        hit = self._swallowed_by(node)
        if hit and "raises" not in (dotted(node.func) or ""):
            self.ctx.suppress(SuppressionKind.SWALLOWED, node, target=target,
                              detail=f"suppress({hit}) entered outside a with block")

    def _dynamic(self, node: cst.Call, target: str) -> None:
        """getattr(pytest, name) / vars(unittest)[...]: a framework reached by a name
        nobody can read statically. Fail closed."""
        ctx = self.ctx
        base = ctx.qualnames(node.args[0].value)
        roots = ctx.tables.dynamic_modules
        if any(q.split(".", 1)[0] in roots for q in base):
            ctx.suppress(SuppressionKind.DYNAMIC, node, target=target,
                         detail="framework attribute reached dynamically")

    def _call(self, node: cst.Call, target: str, frame: str = "") -> None:
        ctx = self.ctx
        if id(node) in ctx.consumed:
            return
        names = ctx.qualnames(node.func)
        if dotted(node) is not None:  # getattr(pytest.mark, "skip") spells pytest.mark.skip
            names |= ctx.qualnames(node)
        kind = self._mark_kind(names)
        t = ctx.tables
        if kind is not None:
            ctx.consumed.add(id(node.func))
            ctx.suppress(kind, node, target=target, frame=frame)
        elif matches(names, t.runtime_skips):
            ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, target=target, frame=frame)
        elif matches(names, t.dynamic_calls):
            ctx.suppress(SuppressionKind.DYNAMIC, node, target=target, frame=frame,
                         detail="code built at run time cannot be classified")
        elif (names & {"setattr", "builtins.setattr"} or
              (isinstance(node.func, cst.Attribute) and node.func.attr.value == "setattr")) \
                and len(node.args) >= 2:
            self._setattr(node, names, target)

    def _setattr(self, node: cst.Call, names: set[str], target: str) -> None:
        """setattr(obj, "assertEqual", ...) and monkeypatch.setattr(builtins, ...)."""
        ctx = self.ctx
        args = [a.value for a in node.args if a.keyword is None]
        literal = next((a.evaluated_value for a in args[:2] if isinstance(a, cst.SimpleString)
                        and isinstance(a.evaluated_value, str)), None)
        attr = literal.rsplit(".", 1)[-1] if literal else ""
        kind = self._rebinding_kind(attr) if attr else None
        reached = ctx.qualnames(args[0]) if args else set()
        if kind is None and (any(q.split(".", 1)[0] in ctx.tables.dynamic_modules
                                 for q in reached) or
                             (literal and literal.split(".", 1)[0] in
                              ctx.tables.dynamic_modules)):
            kind = SuppressionKind.ASSERT_OVERRIDE
        if kind is not None:
            ctx.suppress(kind, node, target=target, detail=f"rebinds {literal or 'a framework'}")

    def _rebinding_kind(self, name: str) -> SuppressionKind | None:
        t = self.ctx.tables
        if name in t.rebinding:
            return SuppressionKind(t.rebinding[name])
        if name in t.unittest_methods or name in t.mock_methods or _assertion_name(name):
            return SuppressionKind.ASSERT_OVERRIDE
        return None

    def _mark_kind(self, names: set[str]) -> SuppressionKind | None:
        """A mark by name or through any attribute of it (pytest.mark.skip.with_args)."""
        t = self.ctx.tables
        for q in names:
            parts = q.split(".")
            for end in range(len(parts), 1, -1):
                prefix = ".".join(parts[:end])
                if prefix in t.skip_marks:
                    return SuppressionKind.SKIP_MARK
                if prefix in t.xfail_marks:
                    return SuppressionKind.XFAIL_MARK
        return None

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        if node.attr.value in self.ctx.tables.skip_methods and id(node) not in self._skip_calls:
            # `later = self.skipTest; later(...)`: taking the method is enough.
            self.ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, detail=node.attr.value)
        name = dotted(node)
        if name is None:
            return True
        root = name.split(".", 1)[0]
        if root in self.ctx.tables.mark_roots or self.ctx.aliases.imported(root) or \
                self.ctx.aliases.star_modules:
            target = self.ctx.target()
            self.ctx.deferred.append(lambda: self._bare_mark(node, target))
        return False  # a pure dotted chain holds nothing else to visit

    def visit_Name(self, node: cst.Name) -> None:
        target = self.ctx.target()
        self.ctx.deferred.append(lambda: self._bare_mark(node, target))

    def _bare_mark(self, node: cst.Name | cst.Attribute, target: str) -> None:
        ctx = self.ctx
        if id(node) in ctx.consumed:
            return
        name = dotted(node)
        if name is None or (isinstance(node, cst.Name) and not ctx.aliases.imported(name)
                            and not ctx.aliases.star_modules):
            return
        # Runtime skips spelled as attributes (pytest.skip.Exception) are caught by
        # visit_Raise and visit_Call; only marks apply by mere mention.
        kind = self._mark_kind(ctx.aliases.resolve(name))
        if kind is not None:
            ctx.suppress(kind, node, target=target)

    def visit_Raise(self, node: cst.Raise) -> None:
        if node.exc is None:
            return
        target = self.ctx.target()
        exc = node.exc
        frame = self.ctx.frame.qualname
        self.ctx.deferred.append(lambda: self._raise(node, exc, target, frame))

    def _raise(self, node: cst.Raise, exc: cst.BaseExpression, target: str,
               frame: str) -> None:
        ctx = self.ctx
        if matches(ctx.qualnames(_callee(exc)), ctx.tables.runtime_skips):
            ctx.consumed.add(id(exc))
            ctx.suppress(SuppressionKind.RUNTIME_SKIP, node, target=target, frame=frame)

    # -- assignments: pytestmark, __test__, collect_ignore, assert overrides --
    def visit_Assign(self, node: cst.Assign) -> None:
        consumed = self.ctx.consumed
        for t in node.targets:
            self._assigned(t.target, node)
            if isinstance(t.target, cst.Name):
                consumed.add(id(t.target))
                if t.target.value != "pytestmark":
                    # `skip = pytest.mark.skip` defines an alias; only its uses apply it.
                    consumed.add(id(node.value))
                    consumed.add(id(_callee(node.value)))

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._assigned(node.target, node)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._assigned(node.target, node)

    def _assigned(self, target: cst.BaseExpression, node: cst.CSTNode) -> None:
        ctx = self.ctx
        t = ctx.tables
        in_func = ctx.frame.kind == "func"
        if isinstance(target, cst.Name):
            name = target.value
            kind = self._rebinding_kind(name) if name in t.rebinding else None
            if kind is not None and (not in_func or name == "__test__"):
                ctx.suppress(kind, node, detail=f"rebinds {name}")
            elif not in_func and name in t.collection_hooks | t.report_hooks:
                kind = SuppressionKind.COLLECTION_HOOK if name in t.collection_hooks \
                    else SuppressionKind.REPORT_HOOK
                ctx.suppress(kind, node, target=ctx.path, detail=f"{name} bound by assignment")
            elif not in_func and self._shadows_import(name):
                ctx.suppress(SuppressionKind.ASSERT_OVERRIDE, node,
                             detail=f"re-binds imported {name}")
            elif name in t.collection_variables and ctx.frame.kind == "module":
                ctx.suppress(SuppressionKind.COLLECTION_VARIABLE, node, target=ctx.path)
            elif ctx.frame.kind == "class" and (name in t.unittest_methods or
                                                name in t.mock_methods):
                ctx.suppress(SuppressionKind.ASSERT_OVERRIDE, node, detail=f"rebinds {name}")
        elif isinstance(target, cst.Attribute):
            attr = target.attr.value
            # obj.assertEqual = ..., builtins.AssertionError = ..., Cls.__unittest_skip__ = ...
            kind = self._rebinding_kind(attr)
            roots = {q.split(".", 1)[0] for q in ctx.qualnames(target.value)}
            if kind is None and roots & t.dynamic_modules:
                kind = SuppressionKind.ASSERT_OVERRIDE
            base = dotted(target.value)
            if kind is None and base and ctx.aliases.imported(base.split(".", 1)[0]) and \
                    attr.startswith(t.helper_name_prefixes):
                kind = SuppressionKind.ASSERT_OVERRIDE  # helpers.check_total = lambda *a: None
            if kind is not None:
                ctx.suppress(kind, node, detail=f"rebinds {dotted(target) or attr}")

    def _shadows_import(self, name: str) -> bool:
        """A module/class-level binding over an imported assertion or helper name."""
        if not self.ctx.aliases.is_imported(name):
            return False
        imported = self.ctx.aliases.imported(name)
        t = self.ctx.tables
        last = name.rsplit(".", 1)[-1]
        return _assertion_name(last) or last.startswith(t.helper_name_prefixes) or any(
            q.split(".", 1)[0] in t.dynamic_modules or q in t.assertion_helpers or
            any(q.startswith(m) for m in t.assert_modules) for q in imported)

    # -- hooks, overrides ---------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        ctx = self.ctx
        t = ctx.tables
        # ScopeCollector has already pushed this def's frame: look at its parent.
        parent = ctx.frames[-2] if len(ctx.frames) >= 2 else ctx.frame
        if parent.kind == "func":
            return
        name = _hook_name(node, ctx) or node.name.value
        if name in t.collection_hooks:
            ctx.suppress(SuppressionKind.COLLECTION_HOOK, node, target=ctx.path, detail=name)
        elif name in t.report_hooks:
            ctx.suppress(SuppressionKind.REPORT_HOOK, node, target=ctx.path, detail=name)
        elif parent.kind == "class" and parent.is_unittest and (
                name in t.unittest_methods or name in t.runner_methods):
            ctx.suppress(SuppressionKind.ASSERT_OVERRIDE, node, target=parent.node_id,
                         detail=f"overrides TestCase.{name}")
        elif parent.kind == "module" and self._shadows_import(name):
            ctx.suppress(SuppressionKind.ASSERT_OVERRIDE, node, target=ctx.path,
                         detail=f"re-defines imported {name}")
        frame = ctx.frame
        if frame.is_test:
            for dec in node.decorators:
                d = dec.decorator
                ctx.deferred.append(functools.partial(self._decorator, d, frame))

    def _decorator(self, dec: cst.BaseExpression, frame: Frame) -> None:
        """A decorator that is neither a mark nor known-safe may replace the test body."""
        ctx = self.ctx
        names = ctx.qualnames(_callee(dec)) | ctx.qualnames(dec)
        t = ctx.tables
        if self._mark_kind(names) is not None or matches(names, t.hypothesis_given) or \
                matches(names, t.hypothesis_settings) or matches(names, t.parametrize):
            return
        if any(q.startswith(t.safe_decorators) for q in names):
            return
        ctx.suppress(SuppressionKind.WRAPPED, dec, target=frame.node_id,
                     detail="a decorator that can replace the test body")

    # -- guards: dead branches, swallowing try/with ---------------------------
    def visit_If(self, node: cst.If) -> None:
        self._mark_dead_start(node)
        if self.guards and self.guards[-1].node is not node and \
                isinstance(self.guards[-1].node, cst.If) and self.guards[-1].node.orelse is node:
            self.guards[-1].body_end = self.ctx.seq
        truth = _constant_truth(node.test)
        self.guards.append(_Guard(node, self.ctx.seq, kind="if",
                                  detail="" if truth is None else str(truth)))

    def visit_Else(self, node: cst.Else) -> None:
        for g in reversed(self.guards):
            if g.kind in ("if", "try", "for") and getattr(g.node, "orelse", None) is node:
                if g.body_end is None:
                    g.body_end = self.ctx.seq
                if g.kind == "if" and g.detail == "True":
                    g.detail = "else-of-True"
                    g.start = self.ctx.seq
                    g.body_end = None
                break

    def leave_If(self, node: cst.If) -> None:
        g = self.guards.pop()
        end = g.body_end if g.body_end is not None else self.ctx.seq
        if g.detail in ("False", "else-of-True") and end > g.start:
            ctx, target = self.ctx, self.ctx.target()
            where = node.test if g.detail == "False" else node

            def check() -> None:
                if ctx.evidence_between(g.start, end):
                    ctx.suppress(SuppressionKind.DEAD_BRANCH, where, target=target,
                                 detail="evidence in a branch that never runs")
            ctx.post_checks.append(check)

    def visit_While(self, node: cst.While) -> None:
        self._mark_dead_start(node)
        if _constant_truth(node.test) is False:
            self.guards.append(_Guard(node, self.ctx.seq, kind="while"))

    def leave_While(self, node: cst.While) -> None:
        if self.guards and self.guards[-1].node is node:
            g = self.guards.pop()
            ctx, end, target = self.ctx, self.ctx.seq, self.ctx.target()

            def check() -> None:
                if ctx.evidence_between(g.start, end):
                    ctx.suppress(SuppressionKind.DEAD_BRANCH, node.test, target=target,
                                 detail="evidence in a loop that never runs")
            ctx.post_checks.append(check)

    def visit_For(self, node: cst.For) -> None:
        self._mark_dead_start(node)
        value = _constant_truth(node.iter)
        self.guards.append(_Guard(node, self.ctx.seq, kind="for",
                                  detail="False" if value is False else ""))

    def leave_For(self, node: cst.For) -> None:
        g = self.guards.pop()
        end = g.body_end if g.body_end is not None else self.ctx.seq
        if g.detail == "False" and end > g.start:
            ctx, target = self.ctx, self.ctx.target()

            def check() -> None:
                if ctx.evidence_between(g.start, end):
                    ctx.suppress(SuppressionKind.DEAD_BRANCH, node.iter, target=target,
                                 detail="evidence in a loop over nothing")
            ctx.post_checks.append(check)

    # -- unreachable statements after return / raise / break / continue -------
    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        body = list(node.body)
        for i, stmt in enumerate(body[:-1]):
            if _terminal(stmt):
                if isinstance(_terminal(stmt), cst.Return) and self.ctx.frame.is_test:
                    return  # an early return in a test body is reported as such
                self._dead[id(body[i + 1])] = (node, stmt)
                return

    def _mark_dead_start(self, node: cst.CSTNode) -> None:
        hit = self._dead.pop(id(node), None)
        if hit is not None:
            self._dead_open[id(hit[0])] = (self.ctx.seq, hit[1])

    def leave_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        opened = self._dead_open.pop(id(node), None)
        if opened is None:
            return
        start, terminal = opened
        ctx, end, target = self.ctx, self.ctx.seq, self.ctx.target()

        def check() -> None:
            if ctx.evidence_between(start, end):
                ctx.suppress(SuppressionKind.DEAD_BRANCH, terminal, target=target,
                             detail="evidence after a statement that always leaves the block")
        ctx.post_checks.append(check)

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._mark_dead_start(node)

    def visit_Try(self, node: cst.Try) -> None:
        self._mark_dead_start(node)
        self.guards.append(_Guard(node, self.ctx.seq, kind="try"))

    def visit_TryStar(self, node: cst.TryStar) -> None:
        self._mark_dead_start(node)
        self.guards.append(_Guard(node, self.ctx.seq, kind="try"))

    def visit_ExceptStarHandler(self, node: cst.ExceptStarHandler) -> None:
        self._handler_seen(node)

    def leave_TryStar(self, node: cst.TryStar) -> None:
        self._leave_try(node)

    def visit_ExceptHandler(self, node: cst.ExceptHandler) -> None:
        self._handler_seen(node)

    def _handler_seen(self, node: cst.CSTNode) -> None:
        for g in reversed(self.guards):
            if g.kind == "try" and node in getattr(g.node, "handlers", ()):
                if g.body_end is None:
                    g.body_end = self.ctx.seq
                break

    def leave_Try(self, node: cst.Try) -> None:
        self._leave_try(node)

    def _leave_try(self, node: cst.Try | cst.TryStar) -> None:
        g = self.guards.pop()
        end = g.body_end if g.body_end is not None else self.ctx.seq
        if end <= g.start:
            return
        ctx, target = self.ctx, self.ctx.target()
        final = node.finalbody
        leaves = final is not None and isinstance(final.body, cst.IndentedBlock) and any(
            _terminal(st) is not None for st in final.body.body)

        def check() -> None:
            if not ctx.evidence_between(g.start, end):
                return
            if leaves and final is not None:
                ctx.suppress(SuppressionKind.SWALLOWED, final, target=target,
                             detail="return/break in finally discards the failure")
            for handler in node.handlers:
                if not _reraises(handler, ctx):
                    self._swallow(handler, target)
        ctx.post_checks.append(check)

    def _swallow(self, handler: cst.ExceptHandler | cst.ExceptStarHandler, target: str) -> None:
        ctx = self.ctx
        if handler.type is None:
            ctx.suppress(SuppressionKind.SWALLOWED, handler, detail="bare except", target=target)
            return
        types = handler.type.elements if isinstance(handler.type, cst.Tuple) else None
        exprs = [e.value for e in types] if types is not None else [handler.type]
        for expr in exprs:
            hit = matches(ctx.qualnames(expr), ctx.tables.swallowed_exceptions)
            if hit:
                ctx.suppress(SuppressionKind.SWALLOWED, handler, detail=f"except {hit}",
                             target=target)
                return

    def visit_With(self, node: cst.With) -> None:
        self._mark_dead_start(node)
        self._expected_exception_block(node)
        self.guards.append(_Guard(node, self.ctx.seq, kind="with"))

    def leave_With(self, node: cst.With) -> None:
        g = self.guards.pop()
        if self.ctx.seq <= g.start:
            return
        ctx, end, target = self.ctx, self.ctx.seq, self.ctx.target()
        # Calls in the `with` header are not the guarded body.
        header = sum(1 for _ in _calls_in_header(node))

        def check() -> None:
            if ctx.evidence_between(g.start + header, end):
                self._with(node, target)
        ctx.post_checks.append(check)

    def _expected_exception_block(self, node: cst.With) -> None:
        """In ``with pytest.raises(E):`` only the first statement matters: what follows
        it never runs when it raises, and a block that raises E itself cannot fail."""
        ctx = self.ctx
        body = node.body
        if not isinstance(body, cst.IndentedBlock) or not body.body:
            return
        for item in node.items:
            call = item.item
            if not isinstance(call, cst.Call):
                continue
            expects = ctx.qualnames(call.func) & _EXPECTS_EXCEPTION or (
                isinstance(call.func, cst.Attribute) and
                call.func.attr.value in ("assertRaises", "assertRaisesRegex"))
            if not expects:
                continue
            first = body.body[0]
            if any(isinstance(_terminal(st), cst.Raise) for st in body.body):
                ctx.self_raising.add(id(call))
            if len(body.body) > 1 and id(body.body[1]) not in self._dead:
                self._dead[id(body.body[1])] = (body, first)
            return

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        if isinstance(node.body, cst.IndentedBlock) and any(
                isinstance(st, cst.FunctionDef) and st.name.value == "__exit__" and
                _returns_true(st) for st in node.body.body):
            self._swallowing_classes.add(node.name.value)

    def _with(self, node: cst.With, target: str) -> None:
        ctx = self.ctx
        for item in node.items:
            call = item.item
            if not isinstance(call, cst.Call):
                continue
            if isinstance(call.func, cst.Name) and call.func.value in self._swallowing_classes:
                ctx.suppress(SuppressionKind.SWALLOWED, item, target=target,
                             detail=f"{call.func.value}.__exit__ returns True")
                return
            hit = self._swallowed_by(call)
            if hit:
                ctx.suppress(SuppressionKind.SWALLOWED, item,
                             detail=f"{dotted(call.func)}({hit})", target=target)
                return

    def _swallowed_by(self, call: cst.Call) -> str | None:
        """The broad exception a suppress()/raises() call catches, if it catches one."""
        ctx = self.ctx
        if not matches(ctx.qualnames(call.func), ctx.tables.swallowing_calls) and \
                not (isinstance(call.func, cst.Attribute) and
                     call.func.attr.value in ("assertRaises", "suppress")):
            return None
        for arg in call.args:
            if arg.keyword is not None:
                continue
            values = arg.value.elements if isinstance(arg.value, cst.Tuple) else None
            exprs = [e.value for e in values] if values is not None else [arg.value]
            for expr in exprs:
                hit = matches(ctx.qualnames(expr), ctx.tables.swallowed_exceptions)
                if hit:
                    return hit
        return None


_EXPECTS_EXCEPTION = {"pytest.raises", "_pytest.python_api.raises",
                      "unittest.TestCase.assertRaises"}


def _returns_true(fn: cst.FunctionDef) -> bool:
    found = False

    class _R(cst.CSTVisitor):
        def visit_Return(self, node: cst.Return) -> None:
            nonlocal found
            if node.value is not None and _constant_truth(node.value) is True:
                found = True

    fn.visit(_R())
    return found


def _calls_in_header(node: cst.With) -> list[cst.Call]:
    found: list[cst.Call] = []

    class _Calls(cst.CSTVisitor):
        def visit_Call(self, call: cst.Call) -> None:
            found.append(call)

    for item in node.items:
        item.visit(_Calls())
    return found


def _hook_name(node: cst.FunctionDef, ctx: Context) -> str | None:
    """``@pytest.hookimpl(specname="pytest_...")`` registers a hook under another name."""
    for dec in node.decorators:
        call = dec.decorator
        if isinstance(call, cst.Call):
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == "specname" and \
                        isinstance(arg.value, cst.SimpleString):
                    value = arg.value.evaluated_value
                    return value if isinstance(value, str) else None
    return None


def _assertion_name(attr: str) -> bool:
    """assertFoo / assert_foo / fail*: names of assertion methods (not `assertion_count`)."""
    return attr.startswith("assert_") or (attr.startswith("assert") and attr[6:7].isupper())


def _terminal(stmt: cst.BaseStatement) -> cst.CSTNode | None:
    """The return/raise/break/continue that makes the statements after ``stmt`` dead."""
    if isinstance(stmt, cst.SimpleStatementLine):
        for small in stmt.body:
            if isinstance(small, cst.Return | cst.Raise | cst.Break | cst.Continue):
                return small
    return None


def _reraises(handler: cst.ExceptHandler | cst.ExceptStarHandler, ctx: Context) -> bool:
    """Whether the handler always fails the test: an unconditional ``raise`` at its top
    level, or a top-level call of pytest.fail / self.fail. A raise behind an ``if``
    does not count: the handler can still swallow."""
    body = handler.body
    if not isinstance(body, cst.IndentedBlock):
        return False
    for stmt in body.body:
        if not isinstance(stmt, cst.SimpleStatementLine):
            continue
        for small in stmt.body:
            if isinstance(small, cst.Raise):
                return True
            if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
                func = small.value.func
                if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
                        func.value.value in ("self", "cls") and func.attr.value in ("fail",
                                                                                   "failTest"):
                    return True
                if ctx.qualnames(func) & {"pytest.fail", "_pytest.outcomes.fail"}:
                    return True
    return False


def _constant_truth(expr: cst.BaseExpression) -> bool | None:
    """Truth of a condition that does not depend on the program: ``False``, ``0``,
    ``1 == 2``, ``not True``, ``TYPE_CHECKING``, ``not __debug__``; None when unknown."""
    if isinstance(expr, cst.Name | cst.Attribute | cst.Call | cst.Subscript) and not (
            isinstance(expr, cst.Name) and expr.value in _STATIC_NAMES) and not (
            isinstance(expr, cst.Attribute) and expr.attr.value == "TYPE_CHECKING") and not (
            isinstance(expr, cst.Call) and isinstance(expr.func, cst.Name) and
            expr.func.value == "range"):
        return None  # a plain name, attribute, call or subscript is never static
    return _static_truth(cst.Module(body=[]).code_for_node(expr))


@functools.lru_cache(maxsize=4096)
def _static_truth(code: str) -> bool | None:
    try:
        tree = ast.parse(f"(\n{code}\n)", mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    value = _static_value(tree.body)
    return None if value is _UNKNOWN else bool(value)


_UNKNOWN = object()
_STATIC_NAMES: dict[str, object] = {"True": True, "False": False, "None": None,
                                     "TYPE_CHECKING": False, "__debug__": True}
_COMPARE: dict[type, Callable[[Any, Any], object]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le,
    ast.Gt: operator.gt, ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: operator.contains(b, a),
    ast.NotIn: lambda a, b: not operator.contains(b, a),
}
_ARITH: dict[type, Callable[[object, object], object]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}


def _static_value(node: ast.expr) -> object:
    """Value of an expression built only from literals and a few known constants."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name):
        return _STATIC_NAMES.get(node.id, _UNKNOWN)
    if isinstance(node, ast.Attribute) and node.attr == "TYPE_CHECKING":
        return False  # typing.TYPE_CHECKING
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return _UNKNOWN if node.elts else ()  # only emptiness is static
    if isinstance(node, ast.Dict):
        return _UNKNOWN if node.keys else {}
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _static_value(node.operand)
        return _UNKNOWN if inner is _UNKNOWN else not inner
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _static_value(node.operand)
        return -inner if isinstance(inner, int | float) else _UNKNOWN
    if isinstance(node, ast.BoolOp):
        values = [_static_value(v) for v in node.values]
        if isinstance(node.op, ast.And):
            if any(v is not _UNKNOWN and not v for v in values):
                return False
            return True if all(v is not _UNKNOWN for v in values) else _UNKNOWN
        if any(v is not _UNKNOWN and v for v in values):
            return True
        return False if all(v is not _UNKNOWN for v in values) else _UNKNOWN
    if isinstance(node, ast.BinOp) and type(node.op) in _ARITH:
        a, b = _static_value(node.left), _static_value(node.right)
        if isinstance(a, int | float) and isinstance(b, int | float):
            return _ARITH[type(node.op)](a, b)
        return _UNKNOWN
    if isinstance(node, ast.Compare) and isinstance(node.left, ast.Name) and \
            node.left.id == "__name__" and len(node.ops) == 1 and \
            isinstance(node.comparators[0], ast.Constant) and \
            node.comparators[0].value == "__main__":
        # Under pytest a test module is imported, never run as __main__.
        return isinstance(node.ops[0], ast.NotEq)
    if isinstance(node, ast.Compare):
        left = _static_value(node.left)
        for op, comp in zip(node.ops, node.comparators, strict=True):
            right = _static_value(comp)
            if left is _UNKNOWN or right is _UNKNOWN or type(op) not in _COMPARE:
                return _UNKNOWN
            try:
                if not _COMPARE[type(op)](left, right):
                    return False
            except TypeError:
                return _UNKNOWN
            left = right
        return True
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "range" and node.args and not node.keywords:
        ints = [v for v in (_static_value(a) for a in node.args)
                if isinstance(v, int) and not isinstance(v, bool)]
        if len(ints) == len(node.args) <= 3:
            return range(*ints)
    return _UNKNOWN


# --------------------------------------------------------------------------- shapes

_APPROX_NAMES = {"approx", "isclose", "allclose", "assert_allclose", "assert_almost_equal",
                 "assert_array_almost_equal", "assertAlmostEqual"}


class _Shaper:
    def __init__(self, module: cst.Module, spans: Spans | None = None) -> None:
        self.module = module
        self.spans = spans
        # id → (node, code): holding the node keeps its id from being reused by another
        # (temporary) node while the entry lives.
        self._raw: dict[int, tuple[cst.CSTNode, str]] = {}

    def raw(self, node: cst.CSTNode) -> str:
        """The node's source as written (generated once per node)."""
        hit = self._raw.get(id(node))
        if hit is not None and hit[0] is node:
            return hit[1]
        spans = self.spans
        key = id(node)
        if spans is not None and key in spans.starts and key in spans.ends:
            text = spans.text[spans.starts[key]:spans.ends[key]]
        else:
            text = self.module.code_for_node(node)
        self._raw[id(node)] = (node, text)
        return text

    def code(self, node: cst.CSTNode) -> str:
        return normalize(self.raw(node))

    def block(self, node: cst.CSTNode) -> str:
        """A statement's source from the start of its first line (so it dedents)."""
        spans = self.spans
        key = id(node)
        if spans is None or key not in spans.starts or key not in spans.ends:
            return self.module.code_for_node(node)
        start = spans.text.rfind("\n", 0, spans.starts[key]) + 1
        return spans.text[start:spans.ends[key]]

    def shape(self, raw: RawItem) -> Shape:
        """What the item checks. Built from the ``ast`` of its normalised code, so each
        item's source is generated once (libcst code generation is the expensive part)."""
        settings = self.code(raw.frame.settings) \
            if raw.kind is EvidenceKind.PROPERTY and raw.frame.settings is not None else ""
        return _shape_of(raw.kind, raw.op, self.code(raw.shape_node), settings)


@functools.lru_cache(maxsize=32768)
def _shape_of(kind: EvidenceKind, op: str, text: str, settings: str) -> Shape:
    """Memoised by text: a patch's pre- and post-image share nearly every check."""
    expr = _parse_expr(text)
    if kind is EvidenceKind.ASSERT and expr is not None:
        return assert_shape(expr)
    if isinstance(expr, ast.Call):
        op = op or (_ast_name(expr.func) or "call")
        operands = tuple(ast.unparse(a) for a in expr.args if not isinstance(a, ast.Starred))
        kws = _ast_keywords(expr)
        if settings:
            settings_call = _parse_expr(settings)
            if isinstance(settings_call, ast.Call):
                kws = tuple(sorted(kws + _ast_keywords(settings_call)))
        if kind is EvidenceKind.MOCK and isinstance(expr.func, ast.Attribute):
            subject = ast.unparse(expr.func.value)
        elif kind in (EvidenceKind.UNITTEST, EvidenceKind.LIBRARY) and operands:
            subject = operands[0]
        else:
            subject = op
        return Shape(op, operands, kws, tautology=_call_tautology(op, operands),
                     subject=subject)
    op = op or kind.value
    return Shape(op, (text,), subject=op)


def _parse_expr(code: str) -> ast.expr | None:
    # Not memoised: keeping thousands of ast trees alive makes every GC pass slower
    # than the parses it saves (measured: 2.6x -> 3.4x parse_module).
    try:
        return ast.parse(code, mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _ast_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def _ast_keywords(call: ast.Call) -> tuple[tuple[str, str], ...]:
    """The call's own keywords, plus those of approx()/isclose() calls inside it (prefixed
    ``approx.``): a tolerance is a property of the comparison it modifies."""
    found = [(k.arg, ast.unparse(k.value)) for k in call.keywords if k.arg is not None]
    found += _approx_keywords(call.args)
    return tuple(sorted(found))


def _approx_keywords(nodes: Iterable[ast.AST]) -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for root in nodes:
        for sub in ast.walk(root):
            if isinstance(sub, ast.Call) and _ast_name(sub.func) in _APPROX_NAMES:
                found += [(f"approx.{k.arg}", ast.unparse(k.value)) for k in sub.keywords
                          if k.arg is not None]
                found.append(("approx", "1"))
    return found


def _operand(node: ast.expr) -> str:
    """An operand without approx/isclose keywords: tolerances are compared as keywords
    (wider is weaker), not as a changed operand."""
    code = ast.unparse(node)
    if not any(name in code for name in _APPROX_NAMES):
        return code
    try:  # a private copy: the keywords are removed in place
        tree = ast.parse(code, mode="eval")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return code
    for sub in ast.walk(tree):
        if isinstance(sub, ast.Call) and _ast_name(sub.func) in _APPROX_NAMES:
            sub.keywords = []
    return ast.unparse(tree)


_AST_COMPARE = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
                ast.GtE: ">=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
                ast.IsNot: "is not"}
_TRUTHY_CALLS = ("isinstance", "hasattr", "callable", "any", "all", "bool", "len")


def assert_shape(expr: ast.expr) -> Shape:
    """The shape of one asserted condition (one conjunct of an assert)."""
    kws = tuple(sorted(_approx_keywords([expr])))
    taut = _ast_tautology(expr)
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1:
        op = _AST_COMPARE.get(type(expr.ops[0]), "cmp")
        left, right = _operand(expr.left), _operand(expr.comparators[0])
        if op == "is not" and right == "None":
            return Shape("not None", (left,), kws, 1, taut, left)
        return Shape(op, (left, right), kws, 1, taut, left)
    if isinstance(expr, ast.UnaryOp) and isinstance(expr.op, ast.Not):
        inner = ast.unparse(expr.operand)
        return Shape("not", (inner,), kws, 1, taut, inner)
    code = ast.unparse(expr)
    if isinstance(expr, ast.Call) and _ast_name(expr.func) in _TRUTHY_CALLS:
        subject = ast.unparse(expr.args[0]) if expr.args else code
        return Shape(f"truthy:{_ast_name(expr.func)}", (code,), kws, 1, taut, subject)
    return Shape("truthy", (code,), kws, 1, taut, code)


def _ast_tautology(expr: ast.expr) -> bool:
    """A condition that holds whatever the code does: a truthy constant, a non-empty tuple
    (`assert (x, "msg")`), `x or True`, `x == x`."""
    value = _static_value(expr)
    if value is not _UNKNOWN and bool(value):
        return True
    if isinstance(expr, ast.Tuple) and expr.elts:
        return True
    if isinstance(expr, ast.BoolOp) and isinstance(expr.op, ast.Or):
        return any(_ast_tautology(v) for v in expr.values)
    if isinstance(expr, ast.Compare) and len(expr.ops) == 1 and \
            isinstance(expr.ops[0], ast.Eq | ast.Is | ast.LtE | ast.GtE):
        return ast.unparse(expr.left) == ast.unparse(expr.comparators[0])
    return False


def _conjuncts(expr: cst.BaseExpression) -> list[cst.BaseExpression]:
    if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.And):
        return _conjuncts(expr.left) + _conjuncts(expr.right)
    return [expr]


_TRUE_WHEN_CONSTANT = {"assertTrue": True, "assert_": True, "failUnless": True,
                       "assertFalse": False, "failIf": False}


def _call_tautology(op: str, operands: tuple[str, ...]) -> bool:
    if op in _TRUE_WHEN_CONSTANT and operands:
        return _literal_truth(operands[0]) is _TRUE_WHEN_CONSTANT[op]
    if op in ("assertEqual", "assertEquals", "assertIs", "assertCountEqual", "assertListEqual",
              "assertDictEqual", "assert_array_equal", "assert_equal", "assert_allclose",
              "assert_frame_equal", "assert_series_equal") and len(operands) >= 2:
        return operands[0] == operands[1]
    if op == "assertIsNotNone" and operands:
        return operands[0] not in ("None",) and _literal_truth(operands[0]) is not None
    return False


# --------------------------------------------------------------------------- driver

_COLLECTORS: tuple[type[Collector], ...] = (
    ConditionCollector, ScopeCollector, AliasCollector, BindingCollector, AssertionCollector,
    SuppressionCollector)


def extract(path: str, source: bytes, config: CollectionConfig, tables: Tables,
            helper_lookup: HelperLookup | None = None, *,
            collect_tests: bool | None = None) -> FileEvidence:
    """Classify one image. Never raises: a failure is reported in ``error`` (PS903).

    ``collect_tests``: whether pytest collects tests from this file (default: by the
    collection config); a conftest or helper module holds helpers, never tests.
    """
    collect = config.is_collected(path) if collect_tests is None else collect_tests

    def attempt() -> FileEvidence:
        return _guarded(path, lambda: _extract(path, source, config, tables, helper_lookup,
                                               collect))

    # Most files classify on the caller's stack; only a RecursionError (deeply nested
    # real files) pays for a thread with a large stack and a raised recursion limit.
    try:
        return attempt()
    except RecursionError:
        pass
    result: list[FileEvidence] = []

    def work() -> None:
        try:
            result.append(attempt())
        except RecursionError:
            result.append(FileEvidence(path, error="nesting too deep to classify"))

    run_deep(work)
    return result[0]


def _guarded(path: str, attempt: Callable[[], FileEvidence]) -> FileEvidence:
    """Run one classification; every failure but RecursionError becomes PS903 data."""
    try:
        return attempt()
    except RecursionError:
        raise
    except cst.ParserSyntaxError as exc:
        return FileEvidence(path, error=f"syntax error: {exc.message}", error_line=exc.raw_line)
    except (UnicodeDecodeError, UnicodeEncodeError, LookupError) as exc:
        return FileEvidence(path, error=f"cannot decode source: {exc}")
    except Exception as exc:  # fail closed: an unclassifiable file is never clean
        return FileEvidence(path, error=f"cannot classify: {type(exc).__name__}: {exc}")


_DEEP_STACK = 512 * 1024 * 1024
_DEEP_LIMIT = 60_000


def run_deep(fn: Callable[[], None]) -> None:
    """Run ``fn`` in a thread with a large stack and a raised recursion limit.

    Deeply nested real files (hundreds of levels) exhaust the default limit
    inside libcst's recursive visitors.
    """
    old_limit = sys.getrecursionlimit()
    old_size = threading.stack_size()
    try:
        threading.stack_size(_DEEP_STACK)
        sys.setrecursionlimit(max(old_limit, _DEEP_LIMIT))
        thread = threading.Thread(target=fn, name="provscore-classify")
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)


def _extract(path: str, source: bytes, config: CollectionConfig, tables: Tables,
             helper_lookup: HelperLookup | None, collect_tests: bool) -> FileEvidence:
    # Parsing and walking allocate hundreds of thousands of short-lived nodes that form
    # no cycles worth collecting mid-file; pausing the cyclic GC for one file saves the
    # repeated full traversals (it is re-enabled, and collects, right after).
    enabled = gc.isenabled()
    gc.disable()
    try:
        return _extract_file(path, source, config, tables, helper_lookup, collect_tests)
    finally:
        if enabled:
            gc.enable()


def _extract_file(path: str, source: bytes, config: CollectionConfig, tables: Tables,
                  helper_lookup: HelperLookup | None, collect_tests: bool) -> FileEvidence:
    module = cst.parse_module(source)
    ctx = Context(path, config, tables, helper_lookup, collect_tests)
    collectors = [cls(ctx) for cls in _COLLECTORS]
    _Walker(ctx, collectors).walk(module)
    for fn in ctx.deferred:
        fn()
    for c in collectors:
        c.finish()
    helper_names = _helper_oracles(ctx)
    _add_helper_calls(ctx, helper_names)
    for fn in ctx.post_checks:  # guards see every item, helper calls included
        fn()
    return _finalize(ctx, module, helper_names)


def _helper_oracles(ctx: Context) -> set[str]:
    """Qualnames of non-test functions in this file that contain evidence, transitively."""
    funcs = {f.qualname: f for f in ctx.defs if not f.is_test and f.test_id is None}
    direct = {f.qualname for f in funcs.values() if f.evidence_count > 0}
    direct |= {it.frame.qualname for it in ctx.items
               if it.frame.qualname in funcs and it.kind is not EvidenceKind.EXPECTED_READ}
    calls_by_frame: dict[str, set[str]] = {}
    for call in ctx.calls:
        if call.frame.qualname in funcs:
            calls_by_frame.setdefault(call.frame.qualname, set()).add(call.name)
    helpers = set(direct)
    changed = True
    while changed:
        changed = False
        short = {h.rsplit(".", 1)[-1] for h in helpers}
        for qual, names in calls_by_frame.items():
            if qual not in helpers and names & short:
                helpers.add(qual)
                changed = True
    return helpers


def _is_helper_call(ctx: Context, call: RawCall, local: set[str],
                    lookup: HelperLookup | None) -> bool:
    if id(call.node) in ctx.consumed:
        return False
    name = call.name
    func = call.node.func
    local_short = {h.rsplit(".", 1)[-1] for h in local}
    if isinstance(func, cst.Name):
        if name in local_short:
            return True
        imported = ctx.aliases.imported(name)
        if imported and lookup is not None and any(lookup(ctx.path, q) for q in imported):
            return True
        resolved = ctx.aliases.resolve(name)
        if matches(resolved, ctx.tables.assertion_helpers):
            return True
        if not imported and name in _BUILTINS:
            return False
        return name.startswith(ctx.tables.helper_name_prefixes)
    if isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and \
            func.value.value in ("self", "cls"):
        return name in local_short or name.startswith(ctx.tables.helper_name_prefixes)
    if isinstance(func, cst.Attribute):
        resolved = ctx.qualnames(func)
        if lookup is not None and any(lookup(ctx.path, q) for q in resolved if "." in q):
            return True
        if matches(resolved, ctx.tables.assertion_helpers):
            return True
    return False


_BUILTINS = frozenset(dir(builtins))  # names never taken for helpers


def _add_helper_calls(ctx: Context, helpers: set[str]) -> None:
    seen = {id(it.node) for it in ctx.items}
    for call in ctx.calls:
        if id(call.node) in seen:
            continue
        if call.frame.qualname in helpers and call.name == call.frame.name:
            continue  # recursion inside a helper
        if _is_helper_call(ctx, call, helpers, ctx.helper_lookup):
            ctx.items.append(RawItem(EvidenceKind.HELPER_CALL, call.node, call.frame, call.node,
                                     call.seq, op=call.name, guards=call.guards))


def _text_nodes(ctx: Context, defs: Iterable[Frame]) -> list[cst.CSTNode]:
    """Every node whose text _finalize needs: located in one code generation pass."""
    nodes: list[cst.CSTNode] = []
    for raw in ctx.items:
        nodes += [raw.node, raw.shape_node, _first_line_node(raw.node)]
        if raw.frame.settings is not None:
            nodes.append(raw.frame.settings)
        for guard, _ in raw.guards:
            nodes += [getattr(guard, "test", guard), getattr(guard, "target", guard),
                      getattr(guard, "iter", guard)]
    for sup in ctx.suppressions:
        nodes += [sup.node, _first_line_node(sup.node)]
    for frame in [ctx.frames[0], *ctx.defs]:
        for values in frame.bindings.values():
            nodes += [v for v in values if v is not None]
        nodes += [r for r in frame.returns if r is not None]
    for frame in defs:
        if isinstance(frame.node, cst.FunctionDef):
            nodes += [frame.node, frame.node.name]
    return nodes


def _finalize(ctx: Context, module: cst.Module, helper_names: set[str]) -> FileEvidence:
    tests = [f for f in ctx.defs if f.is_test and _still_bound(f)]
    helper_frames = [f for f in ctx.defs if f.qualname in helper_names or
                     (f.fixture and f.test_id is None)]
    for f in ctx.defs:
        if f.is_test and not _still_bound(f) and f.node is not None:
            ctx.suppress(SuppressionKind.DEAD_BRANCH, f.node, target=f.node_id,
                         detail="test re-bound later in its scope; this body never runs")
    spans = _locate(module, _text_nodes(ctx, tests + helper_frames))
    shaper = _Shaper(module, spans)
    lines = spans.lines

    def line_of(node: cst.CSTNode) -> int | None:
        return lines.get(id(_first_line_node(node)))

    items: list[EvidenceItem] = []
    inliner = _Inliner(ctx, shaper)
    for raw in sorted(ctx.items, key=lambda r: (r.seq, r.kind)):
        fr = raw.frame
        in_test = fr.test_id is not None
        node_id = fr.test_id if fr.test_id is not None else (
            f"{ctx.path}::{fr.qualname}" if fr.qualname else ctx.path)
        text = shaper.code(raw.node)
        if raw.kind is EvidenceKind.ASSERT:
            text = normalize("assert " + text)
        shape = shaper.shape(raw)
        kind = raw.kind
        canonical = _canonical(raw, shaper)
        if canonical is not None:  # self.assertEqual(a, b) is `assert a == b`
            kind, anchor_text, shape = canonical
            raw = replace(raw, kind=kind)
        else:
            anchor_text = text
        code, shape = inliner.anchor(raw, anchor_text, shape)
        if raw.kind is EvidenceKind.RAISES and id(raw.node) in ctx.self_raising:
            shape = replace(shape, tautology=True)
            code += "  # the block raises the expected exception itself"
        items.append(EvidenceItem(
            kind=kind, path=ctx.path, node_id=node_id,
            scope=fr.test_scope if in_test else "", in_test=in_test,
            code=code, shape=shape, line=line_of(raw.node),
            detail=raw.detail if raw.kind is EvidenceKind.EXPECTED_READ else "",
            text=text if text != code else ""))
    # A skipif condition reading a module constant is as strong as that constant:
    # `HAS_BACKEND = False` with an unchanged `skipif(not HAS_BACKEND)` is a new skip.
    module_values = inliner.module_bindings()
    sups = [Suppression(s.kind, ctx.path, s.target,
                        _substitute(shaper.code(s.node), module_values), line_of(s.node),
                        s.detail) for s in ctx.suppressions]
    test_defs = [TestDef(f.node_id, f.name, line_of(f.node) if f.node else None,
                         _def_body(shaper, f.node), _requested_fixtures(ctx, f.node))
                 for f in tests if isinstance(f.node, cst.FunctionDef)]
    skipping = {s.frame for s in ctx.suppressions
                if s.kind in (SuppressionKind.RUNTIME_SKIP, SuppressionKind.SKIP_MARK,
                              SuppressionKind.XFAIL_MARK, SuppressionKind.DYNAMIC)}
    helper_defs = [HelperDef(f.qualname, f"{ctx.path}::{f.qualname}",
                             line_of(f.node) if f.node else None,
                             _def_code(shaper, f.node) if f.node else "", f.fixture,
                             _def_body(shaper, f.node) if f.node else "",
                             f.qualname in skipping)
                   for f in helper_frames]
    return FileEvidence(ctx.path, tuple(items), tuple(sups), tuple(test_defs), tuple(helper_defs))


_UNITTEST_AS_ASSERT: dict[str, tuple[str, int]] = {
    "assertEqual": ("{0} == {1}", 2), "assertEquals": ("{0} == {1}", 2),
    "failUnlessEqual": ("{0} == {1}", 2), "assertNotEqual": ("{0} != {1}", 2),
    "assertNotEquals": ("{0} != {1}", 2), "failIfEqual": ("{0} != {1}", 2),
    "assertTrue": ("{0}", 1), "assert_": ("{0}", 1), "failUnless": ("{0}", 1),
    "assertFalse": ("not {0}", 1), "failIf": ("not {0}", 1),
    "assertIs": ("{0} is {1}", 2), "assertIsNot": ("{0} is not {1}", 2),
    "assertIsNone": ("{0} is None", 1), "assertIsNotNone": ("{0} is not None", 1),
    "assertIn": ("{0} in {1}", 2), "assertNotIn": ("{0} not in {1}", 2),
    "assertIsInstance": ("isinstance({0}, {1})", 2),
    "assertNotIsInstance": ("not isinstance({0}, {1})", 2),
    "assertGreater": ("{0} > {1}", 2), "assertGreaterEqual": ("{0} >= {1}", 2),
    "assertLess": ("{0} < {1}", 2), "assertLessEqual": ("{0} <= {1}", 2),
}
_RAISES_METHODS = {"assertRaises": "raises", "failUnlessRaises": "raises",
                   "assertRaisesRegex": "raises", "assertRaisesRegexp": "raises",
                   "assertWarns": "warns", "assertWarnsRegex": "warns"}


def _canonical(raw: RawItem, shaper: _Shaper) -> tuple[EvidenceKind, str, Shape] | None:
    """One spelling per check: unittest's assertEqual(a, b) is `assert a == b`, and
    self.assertRaises(E, f, x), `with pytest.raises(E)` and `raises(E)` are raises(E).
    Equal-strength conversions between the spellings are then no change."""
    if not isinstance(raw.node, cst.Call):
        return None
    call = _parse_expr(shaper.code(raw.node))
    if not isinstance(call, ast.Call):
        return None
    args = [a for a in call.args if not isinstance(a, ast.Starred)]
    kwargs = {k.arg: k.value for k in call.keywords if k.arg is not None}
    op = raw.op
    if raw.kind is EvidenceKind.UNITTEST and op in _UNITTEST_AS_ASSERT:
        template, arity = _UNITTEST_AS_ASSERT[op]
        if len(args) < arity or set(kwargs) - {"msg"}:
            return None
        expr = _parse_expr(template.format(*(f"({ast.unparse(a)})" for a in args[:arity])))
        if expr is None:
            return None
        return EvidenceKind.ASSERT, normalize("assert " + ast.unparse(expr)), assert_shape(expr)
    kind_name = _RAISES_METHODS.get(op) if raw.kind is EvidenceKind.UNITTEST else (
        op if raw.kind is EvidenceKind.RAISES and op in ("raises", "warns") else None)
    if kind_name is None:
        return None
    exc = kwargs.get("expected_exception") or kwargs.get("expected_warning") or (
        args[0] if args else None)
    if exc is None:
        return None
    excs = exc.elts if isinstance(exc, ast.Tuple) else [exc]
    names = tuple(sorted(ast.unparse(e) for e in excs))
    pattern = kwargs.get("match") or kwargs.get("expected_regex")
    if pattern is None and op.endswith(("Regex", "Regexp")) and len(args) > 1:
        pattern = args[1]
    keywords: tuple[tuple[str, str], ...] = ()
    text = f"{kind_name}({', '.join(names)})"
    if pattern is not None:
        keywords = (("match", ast.unparse(pattern)),)
        text = f"{kind_name}({', '.join(names)}, match={ast.unparse(pattern)})"
    return EvidenceKind.RAISES, text, Shape(kind_name, names, keywords, subject=kind_name)


_SYMMETRIC = {"==", "!=", "is", "is not"}
_MAX_INLINE = 400


class _Inliner:
    """Anchors that do not depend on local names: a name bound exactly once in the test
    (or a literal module constant) is replaced by what it is bound to. Renaming a local
    is then no change, and editing an expected value kept in a variable is visible."""

    def __init__(self, ctx: Context, shaper: _Shaper) -> None:
        self.ctx, self.shaper = ctx, shaper
        self._cache: dict[int, dict[str, str]] = {}
        self._fixtures: dict[str, str]

    def _table(self, frame: Frame) -> dict[str, str]:
        key = id(frame)
        if key in self._cache:
            return self._cache[key]
        table: dict[str, str] = {}
        chain: list[Frame] = []
        cur: Frame | None = frame
        while cur is not None:
            if cur.kind in ("func", "module"):
                chain.append(cur)
            cur = cur.parent
        if self.ctx.frames[0] not in chain:
            chain.append(self.ctx.frames[0])
        seen: set[str] = set()
        fixtures = self._fixture_values()
        for fr in chain:  # innermost first: a local shadows a module constant
            for name, values in fr.bindings.items():
                if name in seen:
                    continue
                seen.add(name)
                if len(values) == 1 and values[0] is None and fr.is_test and name in fixtures:
                    # A test parameter served by a fixture of this module that returns one
                    # expression: moving setup into a fixture is no change.
                    table[name] = fixtures[name]
                    continue
                if len(values) != 1 or values[0] is None:
                    continue
                code = self.shaper.code(values[0])
                if len(code) > _MAX_INLINE or name in code:
                    continue
                if fr.kind == "module" and not is_literal_code(code):
                    continue
                table[name] = code
        self._cache[key] = table
        return table

    def module_bindings(self) -> dict[str, str]:
        """Module-level names bound exactly once, to any expression."""
        out: dict[str, str] = {}
        for name, values in self.ctx.frames[0].bindings.items():
            if len(values) == 1 and values[0] is not None:
                code = self.shaper.code(values[0])
                if len(code) <= _MAX_INLINE and name not in code:
                    out[name] = code
        return out

    def _fixture_values(self) -> dict[str, str]:
        if not hasattr(self, "_fixtures"):
            out: dict[str, str] = {}
            for f in self.ctx.defs:
                if f.fixture and f.parent is not None and f.parent.kind == "module" and \
                        len(f.returns) == 1 and f.returns[0] is not None:
                    code = self.shaper.code(f.returns[0])
                    if len(code) <= _MAX_INLINE:
                        out[f.name] = code
            self._fixtures = out
        return self._fixtures

    def anchor(self, raw: RawItem, text: str, shape: Shape) -> tuple[str, Shape]:
        table = self._table(raw.frame) if raw.kind is not EvidenceKind.PARAM_ROW else {}
        code = _substitute(text, table) if table else text
        operands = tuple(_substitute(o, table) for o in shape.operands) if table \
            else shape.operands
        subject = _substitute(shape.subject, table) if table and shape.subject else shape.subject
        if raw.kind is EvidenceKind.ASSERT and shape.op in _SYMMETRIC and len(operands) == 2:
            # `2 == value` is `value == 2`: the expected literal goes second.
            left, right = operands
            if is_literal_code(left) and not is_literal_code(right):
                operands, subject = (right, left), right
                code = _swap_comparison(code)
        if raw.kind is EvidenceKind.PARAM_ROW and raw.detail:
            code = f"[{raw.detail}] {code}"
        if raw.kind is EvidenceKind.HELPER_CALL:
            # Which function a helper call reaches is part of the check.
            target = _call_target(self.ctx, raw.node)
            if target:
                code = f"{code} -> {target}"
        if raw.kind is EvidenceKind.PROPERTY and raw.frame.settings is not None:
            code = f"{code} @{self.shaper.code(raw.frame.settings)}"
        guards = tuple(self._guard(node, negated, table) for node, negated in raw.guards)
        if guards:
            # The conditions a check runs under are part of it: wrapping an existing
            # assert in `if os.environ.get("CI"):` changes when it can fail.
            code = f"{code}  # under: {' and '.join(guards)}"
        return code, replace(shape, operands=operands, subject=subject, guards=guards)

    def _guard(self, node: cst.CSTNode, negated: bool, table: dict[str, str]) -> str:
        if isinstance(node, cst.For):
            text = f"for {self.shaper.code(node.target)} in {self.shaper.code(node.iter)}"
        elif isinstance(node, cst.If | cst.While):
            text = self.shaper.code(node.test)
        else:
            text = self.shaper.code(node)
        text = _substitute(text, table) if table else text
        return f"not ({text})" if negated else text


def _swap_comparison(code: str) -> str:
    """`assert 2 == f(x)` → `assert f(x) == 2` (the code keeps everything else)."""
    try:
        tree = ast.parse(code)
    except SyntaxError:
        return code
    stmt = tree.body[0] if tree.body else None
    if isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Compare) and \
            len(stmt.test.comparators) == 1:
        cmp = stmt.test
        cmp.left, cmp.comparators[0] = cmp.comparators[0], cmp.left
        return ast.unparse(tree)
    return code


def _call_target(ctx: Context, node: cst.CSTNode) -> str:
    """The function a helper call reaches when an import renames it
    (``import check_total_loose as check_total``); "" when the name is what it says."""
    if not isinstance(node, cst.Call):
        return ""
    name = dotted(node.func)
    if name is None or not ctx.aliases.imported(name.split(".", 1)[0]):
        return ""
    last = name.rsplit(".", 1)[-1]
    targets = sorted(q for q in ctx.aliases.resolve(name) if q.rsplit(".", 1)[-1] != last)
    return ",".join(targets)


def is_literal_code(code: str) -> bool:
    """Whether code is a Python literal (what an expected value usually is)."""
    try:
        ast.literal_eval(code)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return True


class _Substitute(ast.NodeTransformer):
    def __init__(self, table: dict[str, str]) -> None:
        self.table = table

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id in self.table:
            try:
                return ast.parse(f"({self.table[node.id]})", mode="eval").body
            except SyntaxError:
                return node
        return node


def _substitute(code: str, table: dict[str, str]) -> str:
    if not any(name in code for name in table):
        return code
    for mode in ("eval", "exec"):
        try:
            tree = ast.parse(code, mode=mode)
        except SyntaxError:
            continue
        return ast.unparse(_Substitute(table).visit(tree))
    return code


def _requested_fixtures(ctx: Context, node: cst.FunctionDef) -> tuple[str, ...]:
    """Fixture names a test asks for: its parameters and @pytest.mark.usefixtures(...)."""
    names = [p.name.value for p in node.params.params if p.name.value not in ("self", "cls")]
    for dec in node.decorators:
        call = dec.decorator
        if isinstance(call, cst.Call) and \
                ctx.qualnames(call.func) & {"pytest.mark.usefixtures"}:
            names += [a.value.evaluated_value for a in call.args
                      if isinstance(a.value, cst.SimpleString)
                      and isinstance(a.value.evaluated_value, str)]
    return tuple(sorted(set(names)))


def _def_body(shaper: _Shaper, node: cst.CSTNode) -> str:
    """A def's normalised code with its name blanked: follows a rename or a move."""
    if not isinstance(node, cst.FunctionDef):
        return shaper.code(node)
    source = textwrap.dedent(shaper.block(node))
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return shaper.code(node.with_changes(name=cst.Name("_"), leading_lines=()))
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            stmt.name = "_"
            return ast.unparse(stmt)
    return ast.unparse(tree)


def _def_code(shaper: _Shaper, node: cst.CSTNode) -> str:
    """A def's normalised code (name kept)."""
    if not isinstance(node, cst.FunctionDef):
        return shaper.code(node)
    return normalize(textwrap.dedent(shaper.block(node)))


__all__ = [
    "CollectionConfig", "EvidenceItem", "EvidenceKind", "FileEvidence", "HelperDef", "Shape",
    "Suppression", "SuppressionKind", "Tables", "TestDef", "extract", "normalize",
]
