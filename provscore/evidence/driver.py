"""Classifying one image: parse, walk with every collector, resolve, finalise."""

from __future__ import annotations

import ast
import gc
import io
import textwrap
import tokenize
from collections.abc import Callable, Iterable
from dataclasses import replace

import libcst as cst

from provscore.change.collection import CollectionConfig
from provscore.evidence.anchors import Inliner, canonical, mock_spelling, patch_target
from provscore.evidence.assertions import AssertionCollector
from provscore.evidence.binding import bound_calls, bound_code, with_sorted_keywords
from provscore.evidence.calls import (
    call_signature,
    helper_arg_names,
    helper_check_args,
    helper_tables,
    offered_check_params,
    offered_self_reads,
    offered_signatures,
)
from provscore.evidence.class_inputs import class_attribute_inputs
from provscore.evidence.constants import (
    normalize,
    unparse,
    without_docstrings,
    without_literal_keyword,
)
from provscore.evidence.context import Collector, Context, Frame, HelperLookup, RawItem
from provscore.evidence.fixture_inputs import with_fixture_inputs
from provscore.evidence.fixture_meaning import FIXTURE_BODY, fixture_meaning
from provscore.evidence.helpers import add_helper_calls, helper_oracles
from provscore.evidence.inheritance import (
    Inherited,
    class_lineage,
    extended_through_super,
    flag_shadowing,
    inherited_tests,
    test_methods,
)
from provscore.evidence.inlining import substitute
from provscore.evidence.limits import parse_refusal, run_deep
from provscore.evidence.model import (
    FIXTURE_DETAILS,
    EvidenceItem,
    EvidenceKind,
    FileEvidence,
    HelperDef,
    Shape,
    Suppression,
    SuppressionKind,
    TestDef,
)
from provscore.evidence.positions import first_line_node, locate
from provscore.evidence.raised import expected_by_fail
from provscore.evidence.read_data import module_data
from provscore.evidence.read_paths import expected_reads, fixture_reads
from provscore.evidence.relayout import relayout
from provscore.evidence.scope import (
    AliasCollector,
    BindingCollector,
    ConditionCollector,
    ScopeCollector,
    still_bound,
)
from provscore.evidence.shapes import Shaper
from provscore.evidence.skip_helpers import (
    FACTORY_MARK,
    resolve_skip_helpers,
    transparent_exports,
)
from provscore.evidence.suppressions.hooks import HookCollector
from provscore.evidence.suppressions.marks import MarkCollector
from provscore.evidence.suppressions.neutralised import NeutralisedCollector
from provscore.evidence.suppressions.swallowed import SwallowedCollector
from provscore.evidence.tables import Tables
from provscore.evidence.walker import Walker

# Evidence that is one call: its keywords may be written in any order.
_CALL_KINDS = frozenset({EvidenceKind.UNITTEST, EvidenceKind.HELPER_CALL, EvidenceKind.LIBRARY,
                         EvidenceKind.MOCK, EvidenceKind.RAISES, EvidenceKind.FAIL})

# Order matters: a collector sees a node after those before it. Conditions and scope
# frames are pushed first (the others read them), aliases before anything that resolves a
# name on sight, assertions before the suppression families (a call consumed as evidence
# is not a suppression), marks before hooks (a setattr that is a mark is reported once).
COLLECTORS: tuple[type[Collector], ...] = (
    ConditionCollector, ScopeCollector, AliasCollector, BindingCollector, AssertionCollector,
    MarkCollector, HookCollector, NeutralisedCollector, SwallowedCollector)


def extract(path: str, source: bytes, config: CollectionConfig, tables: Tables,
            helper_lookup: HelperLookup | None = None, *,
            collect_tests: bool | None = None, measured: bool = False) -> FileEvidence:
    """Classify one image. Never raises: a failure is reported in ``error`` (PS903).

    ``collect_tests``: whether pytest collects tests from this file (default: by the
    collection config); a conftest or helper module holds helpers, never tests.
    ``measured``: the caller found the whole file within :mod:`limits` (``source`` may
    then be its focused image, evidence/focus.py).
    """
    collect = config.is_collected(path) if collect_tests is None else collect_tests
    return tables.memo.classified(
        path, source, collect, measured, config, helper_lookup,
        lambda lookup: _classify(path, source, config, tables, lookup, collect, measured))


def _classify(path: str, source: bytes, config: CollectionConfig, tables: Tables,
              helper_lookup: HelperLookup | None, collect: bool, measured: bool
              ) -> FileEvidence:
    # Shapes that crash or stall libcst's native parser.
    refusal = None if measured else parse_refusal(source)
    if refusal is not None:
        return FileEvidence(path, error=refusal[0], error_line=refusal[1])

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


def parse_module(source: bytes) -> cst.Module:
    """libcst's tree of the source; where libcst's grammar refuses source that Python
    accepts, the tree of its re-layout (:mod:`provscore.evidence.relayout`). Source that
    neither accepts raises libcst's own syntax error (PS903)."""
    try:
        return cst.parse_module(source)
    except cst.ParserSyntaxError as refused:
        try:
            tree = ast.parse(source)
            text = source.decode(_source_encoding(source))
        except (SyntaxError, ValueError, UnicodeDecodeError, LookupError, RecursionError,
                MemoryError):
            raise refused from None  # Python refuses it too: libcst's message says where
        return cst.parse_module(relayout(tree, text))


def _source_encoding(source: bytes) -> str:
    return tokenize.detect_encoding(io.BytesIO(source).readline)[0]


def _extract_file(path: str, source: bytes, config: CollectionConfig, tables: Tables,
                  helper_lookup: HelperLookup | None, collect_tests: bool) -> FileEvidence:
    module = parse_module(source)
    ctx = Context(path, config, tables, helper_lookup, collect_tests)
    collectors = [cls(ctx) for cls in COLLECTORS]
    Walker(ctx, collectors).walk(module)
    for fn in ctx.deferred:
        fn()
    for c in collectors:
        c.finish()
    skip_exports = resolve_skip_helpers(ctx)
    helper_names = helper_oracles(ctx)
    add_helper_calls(ctx, helper_names)
    flag_shadowing(ctx)
    for fn in ctx.post_checks:  # guards see every item, helper calls included
        fn()
    evidence = _finalize(ctx, module, helper_names)
    transparent, factories = transparent_exports(ctx)
    return replace(evidence, skip_helpers=tuple(sorted(skip_exports.items())),
                   transparent=transparent, transparent_factories=factories,
                   test_methods=test_methods(ctx),
                   unittest_classes=tuple(sorted(
                       c.name for c in ctx.classes if c.is_unittest and c.parent is ctx.frames[0])),
                   signatures=offered_signatures(ctx),
                   self_reads=offered_self_reads(ctx, helper_names),
                   check_params=offered_check_params(ctx, helper_names))


def _text_nodes(ctx: Context, defs: Iterable[Frame]) -> list[cst.CSTNode]:
    """Every node whose text _finalize needs: located in one code generation pass."""
    nodes: list[cst.CSTNode] = []
    for raw in ctx.items:
        nodes += [raw.node, raw.shape_node, first_line_node(raw.node)]
        if raw.frame.settings is not None:
            nodes.append(raw.frame.settings)
        for guard, _ in raw.guards:
            nodes += [getattr(guard, "test", guard), getattr(guard, "target", guard),
                      getattr(guard, "iter", guard)]
    for sup in ctx.suppressions:
        nodes += [sup.node, first_line_node(sup.node)]
        for guard, _ in sup.guards:
            nodes += [getattr(guard, "test", guard), getattr(guard, "target", guard),
                      getattr(guard, "iter", guard)]
    for frame in [ctx.frames[0], *ctx.defs]:
        for values in frame.bindings.values():
            nodes += [v for v in values if v is not None]
        nodes += [r for r in frame.returns if r is not None]
    for frame in defs:
        if isinstance(frame.node, cst.FunctionDef):
            nodes += [frame.node, frame.node.name]
    return nodes


def _finalize(ctx: Context, module: cst.Module, helper_names: set[str]) -> FileEvidence:
    tests = [f for f in ctx.defs if f.is_test and still_bound(f)]
    inherited = inherited_tests(ctx)
    # A base's test method is judged through the tests that inherit it, not as a helper.
    as_tests = {id(i.method) for i in inherited if i.method is not None}
    helper_frames = [f for f in ctx.defs if (f.qualname in helper_names or
                                             (f.fixture and f.test_id is None))
                     and id(f) not in as_tests]
    for f in ctx.defs:
        if f.is_test and not still_bound(f) and f.node is not None:
            ctx.suppress(SuppressionKind.DEAD_BRANCH, f.node, target=f.node_id,
                         detail="test re-bound later in its scope; this body never runs")
    spans = locate(module, _text_nodes(ctx, tests + helper_frames))
    shaper = Shaper(module, spans)
    lines = spans.lines

    def line_of(node: cst.CSTNode) -> int | None:
        return lines.get(id(first_line_node(node)))

    items: list[EvidenceItem] = []
    inliner = Inliner(ctx, shaper)
    for raw in sorted(ctx.items, key=lambda r: (r.seq, r.kind)):
        fr = raw.frame
        in_test = fr.test_id is not None
        node_id = fr.test_id if fr.test_id is not None else (
            f"{ctx.path}::{fr.qualname}" if fr.qualname else ctx.path)
        text = shaper.code(raw.node)
        if raw.kind is EvidenceKind.ASSERT:
            text = normalize("assert " + text)
        bound = _bound(ctx, raw, text)
        shape = shaper.shape(raw) if bound == text else shaper.shape_of(raw, bound)
        kind = raw.kind
        spelled = _spelled(ctx, shaper, raw, bound)
        if spelled is not None:  # self.assertEqual(a, b) is `assert a == b`
            kind, anchor_text, shape = spelled
            raw = replace(raw, kind=kind)
        else:
            anchor_text = bound
        as_mock = mock_spelling(kind, anchor_text)
        if as_mock is not None:  # `assert m.called` is `m.assert_called()`
            kind, anchor_text, shape = as_mock
            raw = replace(raw, kind=kind, op=shape.op)
        shape = patch_target(ctx, raw, shape)
        code, shape = inliner.anchor(raw, anchor_text, shape)
        shape = replace(shape, tables=helper_tables(ctx, raw),
                        check_args=helper_check_args(ctx, raw),
                        arg_names=helper_arg_names(ctx, raw))
        if raw.kind is EvidenceKind.TEST_INPUT and raw.detail.startswith(FACTORY_MARK):
            text = code  # the mark factory's call shown with the mark it returns
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
                        s.code or _meaning(shaper.code(s.node), module_values), line_of(s.node),
                        s.detail, tuple(_meaning(inliner.guard_text(n, neg, {}), module_values)
                                        for n, neg in s.guards))
            for s in ctx.suppressions]
    test_defs = [TestDef(f.node_id, f.name, line_of(f.node) if f.node else None,
                         _def_body(shaper, f.node), _requested_fixtures(ctx, f.node),
                         _argnames_of(ctx, f), ctx.config.runs_by_default(ctx.path),
                         f.parent is not None and _unittest_only(ctx, f.parent))
                 for f in tests if isinstance(f.node, cst.FunctionDef)]
    helper_defs = _helper_defs(ctx, shaper, helper_frames, helper_names, line_of)
    items, test_defs = _with_inherited(ctx, shaper, inherited, items, test_defs)
    items += class_attribute_inputs(ctx, module, inherited, helper_names,
                                    lambda nodes: locate(module, nodes).lines)
    items += _fixture_bodies(ctx, shaper, line_of)
    items, test_defs = _with_class_inputs(ctx, with_fixture_inputs(ctx, items, test_defs),
                                          test_defs)
    return FileEvidence(ctx.path, tuple(items), tuple(sups), tuple(test_defs), tuple(helper_defs))


def _fixture_bodies(ctx: Context, shaper: Shaper,
                    line_of: Callable[[cst.CSTNode], int | None]) -> list[EvidenceItem]:
    """What each fixture provides (evidence/fixture_meaning.py), an input of the tests it
    applies to (with_fixture_inputs gives it to them). A fixture that reads an expected
    value from a file is judged by what it reads (read_paths.py), not here."""
    out: list[EvidenceItem] = []
    reads = [fr for raw in ctx.items if raw.kind is EvidenceKind.EXPECTED_READ
             for fr in (raw.frame,)]
    for f in ctx.defs:
        if not f.fixture or f.test_id is not None or not isinstance(f.node, cst.FunctionDef) \
                or any(fr.within(f) for fr in reads):
            continue
        meaning = fixture_meaning(textwrap.dedent(shaper.block(f.node)))
        if meaning is None:
            continue
        out.append(EvidenceItem(
            kind=EvidenceKind.TEST_INPUT, path=ctx.path, node_id=f"{ctx.path}::{f.qualname}",
            scope="", in_test=False, code=f"fixture {f.name} provides: {'; '.join(meaning)}",
            shape=Shape(FIXTURE_BODY, meaning, subject=f"fixture({f.name})"),
            line=line_of(f.node)))
    return out


def _helper_defs(ctx: Context, shaper: Shaper, frames: list[Frame], helper_names: set[str],
                 line_of: Callable[[cst.CSTNode], int | None]) -> list[HelperDef]:
    skipping = {s.frame for s in ctx.suppressions
                if s.kind in (SuppressionKind.RUNTIME_SKIP, SuppressionKind.SKIP_MARK,
                              SuppressionKind.XFAIL_MARK, SuppressionKind.DYNAMIC)}
    reads = expected_reads(ctx) if any(f.fixture for f in frames) else []
    return [HelperDef(f.qualname, f"{ctx.path}::{f.qualname}",
                      line_of(f.node) if f.node else None,
                      _def_code(shaper, f.node, ctx) if f.node else "",
                      f.fixture,
                      _def_body(shaper, f.node) if f.node else "",
                      f.qualname in skipping, f.qualname in helper_names,
                      _fixture_params(ctx, shaper, f.node) if f.fixture else "",
                      module_data(ctx, shaper, f.node) if f.node else (),
                      fixture_reads(reads, f) if f.fixture else ())
            for f in frames]


def _spelled(ctx: Context, shaper: Shaper, raw: RawItem, bound: str
             ) -> tuple[EvidenceKind, str, Shape] | None:
    """One spelling per check (anchors.canonical); the fail call of an expected-exception
    ``try`` is the raises check of its handler's type (raised.py)."""
    handler = ctx.fail_expects.get(id(raw.node))
    return canonical(raw, bound) if handler is None else expected_by_fail(shaper.code(handler))


def _bound(ctx: Context, raw: RawItem, text: str) -> str:
    """The item's code with its call's arguments bound to parameter names:
    assertContains(r, t, status_code=200) is the bare call, a keyword given by position is
    the same call (binding.py); a call of unknown signature has its keywords in name order."""
    signature = call_signature(ctx, raw)
    if signature is not None:
        return bound_code(text, signature)
    return with_sorted_keywords(text) if raw.kind in _CALL_KINDS else text


def _unittest_only(ctx: Context, cls: Frame) -> bool:
    """Whether the test's class runs only as a TestCase: unittest discovery alone runs
    base's tests, and the class derives from TestCase."""
    return cls.is_unittest and not ctx.config.pytest_runs


def _with_inherited(ctx: Context, shaper: Shaper, inherited: list[Inherited],
                    items: list[EvidenceItem], tests: list[TestDef]
                    ) -> tuple[list[EvidenceItem], list[TestDef]]:
    """Each inherited test as a test of the class that runs it, with the base method's
    evidence (evidence/inheritance.py)."""
    out_items, out_tests = list(items), list(tests)
    for i in inherited:
        method = i.method
        if method is None or not isinstance(method.node, cst.FunctionDef):
            out_tests.append(TestDef(i.node_id, i.name, None, f"inherited from {i.base}",
                                     runs_by_default=ctx.config.runs_by_default(ctx.path),
                                     unittest_only=_unittest_only(ctx, i.cls)))
            continue
        own = method.test_id or f"{ctx.path}::{method.qualname}"
        out_items += [replace(it, node_id=i.node_id, in_test=True, scope="")
                      for it in items if it.node_id == own and not it.scope]
        body = _def_body(shaper, method.node)
        out_tests.append(TestDef(i.node_id, i.name, None, f"{body}  # inherited from {i.base}",
                                 _requested_fixtures(ctx, method.node), _argnames_of(ctx, method),
                                 ctx.config.runs_by_default(ctx.path),
                                 _unittest_only(ctx, i.cls)))
    for override, base in extended_through_super(ctx):
        # `super().test_x()` first: the override runs the base method's evidence too.
        own = base.test_id or f"{ctx.path}::{base.qualname}"
        out_items += [replace(it, node_id=override.test_id, in_test=True, scope="")
                      for it in items if it.node_id == own and not it.scope and
                      override.test_id is not None]
    return out_items, out_tests


def _with_class_inputs(ctx: Context, items: list[EvidenceItem], tests: list[TestDef]
                       ) -> tuple[list[EvidenceItem], list[TestDef]]:
    """A test input on a class (``@override_settings`` on a TestCase, and on the bases it
    derives from in this module) is an input of each of its tests: hoisting one from every
    method to the class is no change, and a changed one rewrites each test."""
    by_class: dict[str, list[EvidenceItem]] = {}
    for it in items:
        if it.kind is EvidenceKind.TEST_INPUT and not it.in_test and \
                it.detail not in FIXTURE_DETAILS:
            by_class.setdefault(it.node_id, []).append(it)
    if not by_class:
        return items, tests
    out = [it for it in items if not (it.kind is EvidenceKind.TEST_INPUT and not it.in_test
                                      and it.detail not in FIXTURE_DETAILS)]
    out_tests: list[TestDef] = []
    for t in tests:
        # the module's own rebinding of an imported name, then the class's inputs
        inputs = [*by_class.get(ctx.path, ()), *(
            it for cls in class_lineage(ctx, t.node_id)
            for it in by_class.get(f"{ctx.path}::{cls}", ()))]
        out += [replace(it, node_id=t.node_id, in_test=True, scope="") for it in inputs]
        codes = "; ".join(it.code for it in inputs)
        out_tests.append(replace(t, body=f"{t.body}  # under {codes}") if inputs else t)
    return out, out_tests


def _meaning(code: str, module_values: dict[str, str], depth: int = 4) -> str:
    """``code`` with module constants and one-expression helpers inlined, repeatedly (a
    constant defined from another one), so that a condition reads as what it means."""
    for _ in range(depth):
        inlined = substitute(code, module_values)
        if inlined == code:
            break
        code = inlined
    return code


def _argnames_of(ctx: Context, frame: Frame) -> tuple[str, ...]:
    """A test's parametrize argnames, from its rows (their detail holds them)."""
    names = (n for raw in ctx.items if raw.frame is frame and raw.kind is EvidenceKind.PARAM_ROW
             and raw.op in ("row", "rows") for n in raw.detail.split(","))
    return tuple(dict.fromkeys(n for n in names if n))


def _fixture_params(ctx: Context, shaper: Shaper, node: cst.CSTNode | None) -> str:
    """The normalised ``params=`` of a fixture's decorator ("" without one)."""
    if not isinstance(node, cst.FunctionDef):
        return ""
    for dec in node.decorators:
        call = dec.decorator
        if isinstance(call, cst.Call) and ctx.qualnames(call.func) & ctx.tables.fixture_decorators:
            for arg in call.args:
                if arg.keyword is not None and arg.keyword.value == "params":
                    return shaper.code(arg.value)
    return ""


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


def _def_body(shaper: Shaper, node: cst.CSTNode) -> str:
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
            return unparse(stmt)
    return unparse(tree)


def _def_code(shaper: Shaper, node: cst.CSTNode, ctx: Context) -> str:
    """A def's normalised code (name kept), its framework assertion calls bound to their
    signatures, its docstrings and its fixture decorator's literal ``ids=`` dropped:
    rewording a helper's failure message, its documentation or the labels a fixture's
    params give node ids is no change to the helper."""
    if not isinstance(node, cst.FunctionDef):
        return shaper.code(node)
    code = without_docstrings(normalize(textwrap.dedent(shaper.block(node))))
    labelled = [i for i, dec in enumerate(node.decorators)
                if isinstance(dec.decorator, cst.Call) and
                ctx.qualnames(dec.decorator.func) & ctx.tables.fixture_decorators]
    if labelled:
        code = without_literal_keyword(code, labelled, "ids")
    tables = ctx.tables
    return bound_calls(code, tables.signatures) if tables.signatures else code
