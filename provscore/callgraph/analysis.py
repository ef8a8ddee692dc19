"""The call graph's part of scoring a patch: the graphs before and after, the base test
corpus, the test-support modules, and every touched symbol with what reaches it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from provscore.callgraph.build import ORACLE_ROOT, graph_at
from provscore.callgraph.cache import SummaryCache
from provscore.callgraph.corpus import BaseTests
from provscore.callgraph.graph import CallGraph, node_name
from provscore.callgraph.summary import paused_gc
from provscore.callgraph.touched import (
    PropertyReach,
    Reach,
    TouchedSymbol,
    touched_symbols,
    with_coverage,
)
from provscore.change.collection import CollectionConfig
from provscore.change.diff import ChangeSet
from provscore.change.git import Repo
from provscore.model import PathRole
from provscore.records import dataclass

#: Roles whose touched symbols need covering evidence (tests and conftest are judged by
#: the evidence stage; runner and oracle files by the write set).
COVERED_ROLES = (PathRole.PRODUCTION, PathRole.HELPER)
_SUPPORT_WORDS = ("helper", "strateg", "factor", "fixture", "testing", "testutil", "mock",
                  "fake", "stub", "conftest")
_TEST_FRAMEWORKS = ("pytest", "_pytest", "hypothesis", "unittest", "factory", "faker", "mock")


@dataclass(frozen=True, slots=True)
class PropertyCode:
    """A catalog property as the call graph sees it (oracle-dir check, covers globs)."""

    id: str
    covers: tuple[str, ...]
    check_file: str | None = None  # relative to the oracle dir
    check_function: str | None = None


@dataclass(frozen=True, slots=True)
class GraphFacts:
    base: CallGraph
    post: CallGraph
    base_tests: BaseTests
    touched: tuple[TouchedSymbol, ...]


def base_graph(repo: Repo, base: str, config: CollectionConfig, cache: SummaryCache,
               extra: Mapping[str, bytes] | None = None) -> CallGraph:
    return graph_at(repo, base, config, cache, extra=extra)


def oracle_sources(sources: Mapping[str, bytes]) -> dict[str, bytes]:
    """Oracle-dir check files under the graph's oracle root."""
    return {f"{ORACLE_ROOT}/{rel}": data for rel, data in sources.items()}


def oracle_tests(graph: CallGraph, config: CollectionConfig) -> list[PropertyReach]:
    """Without a catalog, each test function of an oracle-dir file is a property of its
    own, named by its id relative to the oracle dir (``properties.py::test_cap``)."""
    out = []
    prefix = f"{ORACLE_ROOT}/"
    for path, module in graph.paths.items():
        if not path.startswith(prefix):
            continue
        for s in graph.scopes_by_path.get(path, ())[1:]:
            parts = s.qualname.split(".")
            if s.kind == "function" and config.is_test_function(parts[-1]) and \
                    (len(parts) == 1 or (len(parts) == 2 and config.is_test_class(parts[0]))):
                out.append(PropertyReach(f"{path.removeprefix(prefix)}::{'::'.join(parts)}",
                                         (), node_name(module, s.qualname)))
    return out


def _reach_of(graph: CallGraph, tests: Mapping[str, str], props: Sequence[PropertyCode],
              config: CollectionConfig, catalog: bool) -> Reach:
    reach = [] if catalog else oracle_tests(graph, config)
    for p in props:
        node = None
        if p.check_file and p.check_function:
            module = graph.paths.get(f"{ORACLE_ROOT}/{p.check_file}")
            if module is not None:
                node = node_name(module, p.check_function)
        reach.append(PropertyReach(p.id, p.covers, node))
    return Reach(graph, tests, reach)


@paused_gc()  # reachability over a graph of 200k edges allocates what no cycle holds
def analyse_graph(repo: Repo, base: CallGraph, rev: str, changes: ChangeSet,
                  post_images: Mapping[str, bytes | None], config: CollectionConfig,
                  cache: SummaryCache, role_of: Callable[[str], PathRole],
                  properties: Sequence[PropertyCode] | None = None,
                  extra: Mapping[str, bytes] | None = None) -> GraphFacts:
    """Touched symbols of production and helper code, with the base tests (through the
    graph before the patch for removed lines, after it for added lines) and the catalog
    properties that reach them (``properties`` None: there is no catalog, and every test
    in an oracle-dir file is a property)."""
    covered_paths = [p for p in post_images if p.endswith(".py") and role_of(p) in COVERED_ROLES]
    # A patch of tests only touches no covered symbol: the graph after it is not needed.
    post = graph_at(repo, rev, config, cache, overlay=post_images, extra=extra, base=base) \
        if covered_paths else base
    base_tests = BaseTests.from_graph(base, config, f"{ORACLE_ROOT}/")
    tests = {t: n for t, n in base.tests.items() if t in base_tests.ids}
    post_tests = {t: n for t, n in post.tests.items() if t in base_tests.ids}
    touched = [t for t in touched_symbols(changes, base, post)
               if role_of(t.path) in COVERED_ROLES]
    catalog = properties is not None
    props = properties or ()
    covered = with_coverage(touched, _reach_of(base, tests, props, config, catalog),
                            _reach_of(post, post_tests, props, config, catalog))
    return GraphFacts(base, post, base_tests, covered)


@paused_gc()
def test_support_paths(graph: CallGraph, role_of: Callable[[str], PathRole]) -> frozenset[str]:
    """Production-role modules that are test support: imported from test code, imported
    by no production module, and named for it (helpers, strategies, factories, fixtures,
    testing, mocks, ...) or importing a test framework."""
    test_roles = (PathRole.TEST, PathRole.CONFTEST, PathRole.HELPER)
    role = {m: role_of(p) for p, m in graph.paths.items() if not p.startswith(ORACLE_ROOT)}
    importers: dict[str, set[str]] = {}
    for u, v in graph.graph.edges_of_kind("import"):
        if v in role:
            # A symbol's node name starts with its module's (not made, for a stored graph)
            src = u.partition(":")[0] if u in graph.symbols else u
            if src != v:
                importers.setdefault(v, set()).add(src)
    support = {m for m, r in role.items() if r is PathRole.PRODUCTION
               and any(role.get(i) in test_roles for i in importers.get(m, ()))
               and _looks_like_support(graph, m)}
    changed = True
    while changed:  # a production importer outside the set disqualifies a module
        changed = False
        for m in sorted(support):
            if any(role.get(i) is PathRole.PRODUCTION and i not in support
                   for i in importers.get(m, ())):
                support.discard(m)
                changed = True
    return frozenset(graph.index.by_name[m] for m in support)


def _looks_like_support(graph: CallGraph, module: str) -> bool:
    if any(w in part for part in module.lower().split(".") for w in _SUPPORT_WORDS):
        return True
    imports = graph.imports_by_module.get(module, ())
    return any(name.split(".", 1)[0] in _TEST_FRAMEWORKS for name in imports)
