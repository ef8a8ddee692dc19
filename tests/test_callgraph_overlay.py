"""The graph after a patch, made by re-reading only the changed files (overlay), is the
graph a full build of the patched tree makes: on provscore's own source, on programs
built for each dependency an unchanged file can have on a changed one, and through
``graph_at`` on a real git repository."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest
from tests_support import GitRepo

import provscore
from provscore.callgraph.build import graph_at
from provscore.callgraph.cache import SummaryCache
from provscore.callgraph.graph import CallGraph, build_graph
from provscore.callgraph.overlay import _importers_of_packages, overlay_graph
from provscore.callgraph.stored import StoredSymbols, from_record, to_record
from provscore.callgraph.summary import FileSummary, summarise
from provscore.change.collection import CollectionConfig
from provscore.change.git import Repo

CONFIG = CollectionConfig()
SOURCE = Path(provscore.__file__).parent


def _full(summaries: dict[str, FileSummary]) -> CallGraph:
    return build_graph({p: ("", s) for p, s in summaries.items()}, CONFIG)


def _view(g: CallGraph) -> tuple[object, ...]:
    """What a graph says; an outside node no edge reaches (a full build can leave one
    behind when a call resolves on its second try) says nothing."""
    called = {v for _, v in g.graph.edges()}
    nodes = [(n, a) for n, a in g.graph.nodes(data=True) if a.get("path") or n in called]
    return (sorted(g.graph.edges(data="kind")), sorted(nodes),
            g.tests, g.stats, sorted(g.imports_by_module.items()), g.unparsed,
            sorted((n, repr(s)) for n, s in g.symbols.items()))


def _overlaid(base: CallGraph, before: dict[str, FileSummary],
              after: dict[str, FileSummary | None]) -> CallGraph:
    got = overlay_graph(base, after, before.get, CONFIG)
    assert got is not None
    stored = overlay_graph(base, after, before.get, CONFIG, (None, "base"))
    assert stored is not None and _view(stored) == _view(got)  # export tables change nothing
    # A base loaded from its cache row (symbols made from node rows when asked for) gives
    # the same graph and symbols, looked up one by one as well as listed.
    loaded = from_record(to_record(base), base.scopes_by_path)
    assert isinstance(loaded.symbols, StoredSymbols)
    again = overlay_graph(loaded, after, before.get, CONFIG)
    assert again is not None and _view(again) == _view(got)
    assert all(again.symbols[n] == s for n, s in got.symbols.items())
    assert len(again.symbols) == len(got.symbols)
    gone = [n for n in base.symbols if n not in got.symbols]
    assert not any(n in again.symbols or again.symbols.get(n) for n in gone)
    return stored


@pytest.fixture(scope="module")
def own_tree() -> tuple[dict[str, bytes], dict[str, FileSummary], CallGraph]:
    files = {str(p.relative_to(SOURCE)): p.read_bytes() for p in sorted(SOURCE.rglob("*.py"))}
    summaries = {p: summarise(d) for p, d in files.items()}
    return files, summaries, _full(summaries)


def _plain_modules(files: dict[str, bytes], step: int) -> list[str]:
    return [p for p in sorted(files) if not p.endswith(("__init__.py", "conftest.py"))][::step]


def test_rereading_a_file_unchanged_gives_the_same_graph(
        own_tree: tuple[dict[str, bytes], dict[str, FileSummary], CallGraph]) -> None:
    files, summaries, base = own_tree
    checked = _plain_modules(files, 2)
    assert len(checked) > 40
    for path in checked:
        assert _view(_overlaid(base, summaries, {path: summaries[path]})) == _view(base), path


def _mutated(source: bytes) -> bytes | None:
    """The last top-level definition removed, a function calling the first one added."""
    defs = [n for n in ast.parse(source).body if isinstance(n, (ast.FunctionDef,
                                                               ast.ClassDef))]
    if len(defs) < 2:
        return None
    last = defs[-1]
    lines = source.decode().splitlines(keepends=True)
    start = (last.decorator_list[0].lineno if last.decorator_list else last.lineno) - 1
    del lines[start:last.end_lineno]
    lines.append(f"\n\ndef _added(x):\n    {defs[0].name}(x)\n    return x\n")
    return "".join(lines).encode()


def test_an_edited_file_gives_the_graph_a_full_build_gives(
        own_tree: tuple[dict[str, bytes], dict[str, FileSummary], CallGraph]) -> None:
    files, summaries, base = own_tree
    compared = 0
    for path in _plain_modules(files, 8):
        new = _mutated(files[path])
        if new is None:
            continue
        after = {**summaries, path: summarise(new)}
        assert _view(_overlaid(base, summaries, {path: after[path]})) == _view(_full(after)), \
            path
        compared += 1
    assert compared >= 10


def _summaries(files: dict[str, str]) -> dict[str, FileSummary]:
    return {p: summarise(textwrap.dedent(s).encode()) for p, s in files.items()}


PROGRAM = {
    "pkg/__init__.py": "",
    "pkg/core.py": """
        def apply(fn, x):
            return fn(x)

        def cached(func):
            def wrapper(*a):
                return func(*a)
            return wrapper

        class Base:
            def run(self):
                return self.hook()

        def helper(x):
            return x
        """,
    "pkg/user.py": """
        from pkg.core import Base, apply, cached, helper

        def double(x):
            return 2 * x

        def main():
            helper(1)
            return apply(double, 3)

        @cached
        def slow(x):
            return x

        class Impl(Base):
            def hook(self):
                return double(1)
        """,
    "pkg/other.py": """
        def each(fn, items):
            return [fn(i) for i in items]
        """,
    "tests/test_user.py": """
        from pkg.user import main, slow

        def test_main():
            assert main() == 6

        def test_slow():
            assert slow(1) == 1
        """,
}

EDITS: dict[str, dict[str, str | None]] = {
    "changed callee, unchanged callers bind its parameters": {"pkg/core.py": """
        def apply(fn, x):
            y = fn(x)
            return y

        def cached(func):
            def wrapper(*a):
                return func(*a)
            return wrapper

        class Base:
            def run(self):
                return self.hook()

        def helper(x):
            return x
        """},
    "a function unchanged code calls is removed": {"pkg/core.py": """
        def apply(fn, x):
            return fn(x)

        def cached(func):
            def wrapper(*a):
                return func(*a)
            return wrapper

        class Base:
            def run(self):
                return self.hook()
        """},
    "a changed call site passes a new function to an unchanged one": {"pkg/user.py": """
        from pkg.core import Base, apply, cached, helper
        from pkg.other import each

        def double(x):
            return 2 * x

        def triple(x):
            return 3 * x

        def main():
            helper(1)
            each(triple, [1])
            return apply(double, 3)

        @cached
        def slow(x):
            return x

        class Impl(Base):
            def hook(self):
                return triple(1)
        """},
    "a test file changes": {"tests/test_user.py": """
        from pkg.user import main

        def test_main():
            assert main() == 6

        def test_more():
            assert main() != 7
        """},
    "a file is removed": {"pkg/other.py": None},
    "a file is added": {"pkg/extra.py": """
        from pkg.core import apply

        def go():
            return apply(len, "abc")
        """},
}

_NEW_CALL_SITE = EDITS["a changed call site passes a new function to an unchanged one"]
EDITS["a module is renamed and its importer follows"] = {
    "pkg/other.py": None, "pkg/lists.py": PROGRAM["pkg/other.py"],
    "pkg/user.py": str(_NEW_CALL_SITE["pkg/user.py"]).replace("pkg.other", "pkg.lists")}


REMOVED = "a function unchanged code calls is removed"


def _edited(edit: str) -> tuple[CallGraph, CallGraph]:
    """(the overlay, the full build) of the program after ``edit``."""
    before = _summaries(PROGRAM)
    changes = {p: None if s is None else summarise(textwrap.dedent(s).encode())
               for p, s in EDITS[edit].items()}
    after = {p: s for p, s in {**before, **changes}.items() if s is not None}
    return _overlaid(_full(before), before, changes), _full(after)


@pytest.mark.parametrize("edit", sorted(set(EDITS) - {REMOVED}))
def test_each_kind_of_dependency_on_a_changed_file(edit: str) -> None:
    got, want = _edited(edit)
    assert _view(got) == _view(want)


def test_a_call_of_a_removed_definition_loses_its_edge() -> None:
    """The one documented difference: a full build gives the call an unknown edge."""
    got, want = _edited(REMOVED)
    assert set(want.graph.edges(data="kind")) - set(got.graph.edges(data="kind")) == {
        ("pkg.user:main", "unknown:helper", "call")}
    assert set(got.graph.edges(data="kind")) <= set(want.graph.edges(data="kind"))
    assert got.tests == want.tests and sorted(got.symbols) == sorted(want.symbols)


def test_conftest_edits_are_built_in_full() -> None:
    before = _summaries(PROGRAM)
    assert overlay_graph(_full(before), {"tests/conftest.py": summarise(b"X = 1\n")},
                         before.get, CONFIG) is None


PACKAGE = {
    "pkg/__init__.py": "from pkg.impl import f, h\n",
    "pkg/impl.py": "def f():\n    return 1\n\ndef g():\n    return 2\n\ndef h():\n    pass\n",
    "pkg/sub/__init__.py": "from pkg import f\n",
    "app.py": "from pkg.sub import f\n\ndef run():\n    return f()\n",
    "keep.py": "from pkg import h\n\ndef run():\n    return h()\n",
    "other.py": "import pkg.impl\n\ndef go():\n    return pkg.impl.g()\n",
}


def _reread(before: dict[str, FileSummary], init: FileSummary) -> set[str]:
    """The unchanged files the overlay re-reads when pkg/__init__.py becomes ``init``."""
    got = _importers_of_packages(_full(before), {"pkg/__init__.py": init}, before.get)
    assert got is not None
    return set(got)


def test_an_added_export_rereads_no_importer() -> None:
    before = _summaries(PACKAGE)
    init = summarise(b"from pkg.impl import f, g, h\n")
    got = _overlaid(_full(before), before, {"pkg/__init__.py": init})
    assert _view(got) == _view(_full({**before, "pkg/__init__.py": init}))
    assert _reread(before, init) == set()


def test_importers_of_a_changed_package_init_are_reread() -> None:
    """pkg/__init__.py re-exports g as f now: app.py (through pkg.sub) follows it."""
    before = _summaries(PACKAGE)
    init = summarise(b"from pkg.impl import g as f, h\n")
    got = _overlaid(_full(before), before, {"pkg/__init__.py": init})
    want = _full({**before, "pkg/__init__.py": init})
    assert got.graph.has_edge("app:run", "pkg.impl:g")
    assert not got.graph.has_edge("app:run", "pkg.impl:f")
    assert _view(got) == _view(want)
    # keep.py imports h, whose meaning did not change
    assert _reread(before, init) == {"pkg/sub/__init__.py", "app.py"}


def test_graph_at_rereads_only_the_changed_files(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({p: textwrap.dedent(s) for p, s in PROGRAM.items()})
    git = Repo(repo.root)
    cache = SummaryCache(tmp_path / "callgraph.sqlite")
    base = graph_at(git, "HEAD", CONFIG, cache)
    post_images: dict[str, bytes | None] = {
        p: None if s is None else textwrap.dedent(s).encode()
        for p, s in EDITS["a changed call site passes a new function to an unchanged one"]
        .items()}
    post_images["README.md"] = b"not python\n"
    parsed = cache.parsed
    post = graph_at(git, "HEAD", CONFIG, cache, overlay=post_images, base=base)
    assert cache.parsed - parsed == 1  # pkg/user.py only
    assert post.graph.has_edge("pkg.other:each", "pkg.user:triple")
    full = graph_at(git, "HEAD", CONFIG, SummaryCache(), overlay=post_images)
    assert _view(post) == _view(full)


def test_a_stored_graph_row_round_trips_through_marshal_and_refuses_what_is_malformed() -> None:
    """The row is what marshal keeps (columns, a dict of edges per node): read back it is
    the same graph; a row whose columns disagree, whose edge leaves the nodes or names an
    unknown kind, or whose node names repeat, is refused (the caller rebuilds)."""
    import marshal

    from provscore.callgraph.stored import GRAPH_FORMAT

    base = _full(_summaries(PROGRAM))
    record = to_record(base)
    loaded = from_record(marshal.loads(marshal.dumps(record)),  # type: ignore[arg-type]
                         base.scopes_by_path)
    assert _view(loaded) == _view(base)
    assert loaded.graph.number_of_edges() == base.graph.number_of_edges() > 0
    names, kinds, paths, starts, ends, kind_names, succ = base.graph.columns()
    source = next(i for i, d in enumerate(succ) if d)
    bad_edges = [dict(d) for d in succ]
    bad_edges[source][len(names)] = 0  # a target past the last node
    bad_kind = [dict(d) for d in succ]
    bad_kind[source][next(iter(bad_kind[source]))] = len(kind_names)
    bad_key = [dict(d) for d in succ]
    bad_key[source]["x"] = 0  # type: ignore[index]
    for columns in [(names, kinds, paths, starts, ends, kind_names, tuple(bad_edges)),
                    (names, kinds, paths, starts, ends, kind_names, tuple(bad_kind)),
                    (names, kinds, paths, starts, ends, kind_names, tuple(bad_key)),
                    (names, kinds[:-1], paths, starts, ends, kind_names, succ),
                    ((names[1], *names[1:]), kinds, paths, starts, ends, kind_names, succ)]:
        with pytest.raises(ValueError):
            from_record((GRAPH_FORMAT, columns, *record[2:]), base.scopes_by_path)
    with pytest.raises(ValueError, match="another graph row format"):
        from_record((GRAPH_FORMAT - 1, *record[1:]), base.scopes_by_path)
