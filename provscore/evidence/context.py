"""The state the collectors share during one walk of one image.

A :class:`Context` holds the scope frames, the alias table, the conditions around the
current statement and what has been found so far (raw items, suppressions, calls).
Collectors run in the order :data:`provscore.evidence.driver.COLLECTORS` gives: scope
frames and aliases are pushed before the collectors that read them see a node. Work
that needs every alias is deferred (``Context.deferred``) and work that needs every
item afterwards (``Context.post_checks``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import field
from typing import Protocol

import libcst as cst

from provscore.change.collection import CollectionConfig
from provscore.evidence.cst_names import dotted
from provscore.evidence.model import NOT_CHECKS, EvidenceKind, SuppressionKind
from provscore.evidence.tables import Tables
from provscore.names import AliasTable
from provscore.records import dataclass


class HelperLookup(Protocol):
    """What other modules define, asked from a module that imports them (by the importing
    file's path and the name's qualified name); answered by the call graph's index."""

    def __call__(self, importer: str, qualname: str) -> bool:
        """Is the name a helper oracle (a function that checks)?"""

    def skip_kind(self, importer: str, qualname: str) -> SuppressionKind | None:
        """What applying or calling the name suppresses: SKIP_MARK, XFAIL_MARK, or None."""

    def transparent(self, importer: str, qualname: str, factory: bool) -> bool:
        """Is the name a decorator (``factory``: a decorator factory) that always calls
        the function it wraps and returns its result?"""

    def test_methods(self, importer: str, qualname: str) -> tuple[str, ...]:
        """The test methods a class defines or inherits (a base of a test class)."""

    def unittest_class(self, importer: str, qualname: str) -> bool:
        """Is the name a unittest TestCase subclass (through its bases, in any module)?"""

    def signature(self, importer: str, qualname: str) -> tuple[str, str] | None:
        """A function's (``mod.f``) or a class's method's (``mod.Class.m``) decorators and
        parameter list as written, when that module defines it once."""

    def self_reads(self, importer: str, qualname: str) -> tuple[str, ...] | None:
        """The attributes of ``self`` a helper method (``mod.Class.m``) names; None when
        not known."""

    def check_params(self, importer: str, qualname: str) -> tuple[str, ...]:
        """The parameters of a helper (``mod.f`` or ``mod.Class.m``) that only add checks
        (evidence/calls.py check_only_params)."""


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
    # A test's parametrize argnames → whether the row goes through the fixture of that name
    # (indirect=) instead of to the test itself.
    parametrized: dict[str, bool] = field(default_factory=dict)
    bases: tuple[str, ...] = ()  # a class's bases, dotted as written
    returns: list[cst.BaseExpression | None] = field(default_factory=list)
    # name → values bound to it in this scope (assignments); inlined into anchors when
    # bound exactly once, so renaming a local or moving a literal into one is no change.
    bindings: dict[str, list[cst.BaseExpression | None]] = field(default_factory=dict)

    def within(self, outer: Frame) -> bool:
        """Whether this frame is ``outer`` or nested in it."""
        cur: Frame | None = self
        while cur is not None:
            if cur is outer:
                return True
            cur = cur.parent
        return False


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
    guards: tuple[tuple[cst.CSTNode, bool], ...] = ()
    code: str = ""  # what it reads as, when not its node's code (a load_tests summary)


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
        # fail calls that check an expected exception (evidence/raised.py): the handler type
        self.fail_expects: dict[int, cst.BaseExpression] = {}
        # per frame, the names that stand for a caught exception (``cm.exception``, ``e``)
        self.raised: dict[int, set[str]] = {}
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
        # Decorators on tests that are neither marks nor known-safe: judged once the
        # module's own skip helpers and transparent decorators are known.
        self.unknown_decorators: list[tuple[cst.BaseExpression, Frame]] = []
        self.classes: list[Frame] = []  # every class, in source order
        # Attribute names assigned anywhere (`self.NUMS = ...`): such a class attribute
        # may not be what a test reads, so it is not inlined.
        self.attribute_writes: set[str] = set()
        # What a helper def of this module names of self, and its parameters that only add
        # checks (evidence/calls.py), by id of the def: read once however often it is called.
        self.def_facts: dict[tuple[int, str], tuple[str, ...]] = {}

    def guards(self) -> tuple[tuple[cst.CSTNode, bool], ...]:
        """Conditions inside the enclosing test function (not module-level ones)."""
        depth = len(self.frames)
        test_depth = next((i for i, fr in enumerate(self.frames) if fr.is_test), None)
        if test_depth is None:
            return ()
        return tuple((n, neg) for n, neg, d in self.conds if d > test_depth and d <= depth)

    def def_guards(self) -> tuple[tuple[cst.CSTNode, bool], ...]:
        """Conditions inside the innermost enclosing function (a ``setUp``, a helper)."""
        depth = len(self.frames)
        func_depth = next((i for i in range(depth - 1, -1, -1)
                           if self.frames[i].kind == "func"), None)
        if func_depth is None:
            return ()
        return tuple((n, neg) for n, neg, d in self.conds if d > func_depth and d <= depth)

    def place_guards(self) -> tuple[tuple[cst.CSTNode, bool], ...]:
        """Conditions around a statement outside any test: at module level every enclosing
        one (``if not PY_3_10: collect_ignore.append(...)``), in a function its own."""
        if self.frame.kind == "module":
            return tuple((n, neg) for n, neg, _ in self.conds)
        return self.def_guards()

    def local_mock(self, expr: cst.BaseExpression, frame: Frame) -> bool:
        """Whether ``expr`` is a mock made in this function (or an attribute of one):
        setting ``m.child`` on ``m = Mock()`` configures the mock, it patches nothing."""
        while isinstance(expr, cst.Attribute | cst.Call | cst.Subscript):
            expr = expr.value if isinstance(expr, cst.Attribute | cst.Subscript) else expr.func
        if not isinstance(expr, cst.Name):
            return False
        cur: Frame | None = frame
        while cur is not None and cur.kind == "func":
            values = cur.bindings.get(expr.value)
            if values is not None:
                return any(isinstance(v, cst.Call) and
                           bool(self.qualnames(v.func) & self.tables.mock_factories)
                           for v in values)
            cur = cur.parent
        return False

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
                   and it.kind not in NOT_CHECKS
                   and (test_id is None or it.frame.test_id == test_id))

    def add_item(self, kind: EvidenceKind, node: cst.CSTNode, shape_node: cst.CSTNode | None = None,
                 detail: str = "", op: str = "") -> None:
        frame = self.frame
        self.items.append(RawItem(kind, node, frame, shape_node or node, self.seq, detail, op,
                                  self.guards()))
        for fr in self.frames:
            fr.evidence_count += 1

    def suppress(self, kind: SuppressionKind, node: cst.CSTNode, detail: str = "",
                 target: str | None = None, frame: str | None = None,
                 guards: tuple[tuple[cst.CSTNode, bool], ...] = (), code: str = "") -> None:
        """Record a suppression; deferred callers pass the ``frame`` they were found in
        and the ``guards`` (conditions inside the test) around it."""
        self.suppressions.append(RawSuppression(kind, node, target or self.target(), detail,
                                                self.frame.qualname if frame is None else frame,
                                                guards, code))

    def qualnames(self, node: cst.BaseExpression) -> set[str]:
        name = dotted(node)
        return self.aliases.resolve(name) if name else set()

    def named_tuple(self, func: str) -> tuple[str, ...]:
        """The fields of the named tuple a call of ``func`` (dotted, as written here)
        returns ([evidence.named_tuples]); () when not known."""
        found = {self.tables.named_tuples.get(q, ()) for q in self.aliases.resolve(func)}
        found.discard(())
        return found.pop() if len(found) == 1 else ()


class Collector:
    """Base of every collector: one concern, ``visit_<Node>``/``leave_<Node>`` methods."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx

    def finish(self) -> None:
        """Called after the traversal, when every alias is known."""


def callee(expr: cst.BaseExpression) -> cst.BaseExpression:
    return expr.func if isinstance(expr, cst.Call) else expr


def sub_scope(scope: str, name: str) -> str:
    return f"{scope}.{name}" if scope else name
