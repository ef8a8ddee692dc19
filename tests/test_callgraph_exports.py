"""Stored export tables (provscore/callgraph/exports.py): the graph after a patch that
takes a changed file's names from the base's resolved export tables is the graph a full
build of the patched tree makes, whenever the patch changes what an entry read (a
re-export moved, a signature, a deleted, renamed or new module, a package
``__init__.py``); each entry records what it read; a corrupt stored row is recomputed."""

from __future__ import annotations

import sqlite3
import textwrap
from pathlib import Path

import pytest
from test_callgraph_overlay import _full, _summaries, _view
from tests_support import GitRepo

from provscore.callgraph.build import graph_at, tree_blobs
from provscore.callgraph.cache import SummaryCache
from provscore.callgraph.exports import EXPORTS_FORMAT, ExportTables
from provscore.callgraph.graph import CallGraph
from provscore.callgraph.modules import ModuleIndex
from provscore.callgraph.overlay import overlay_graph
from provscore.callgraph.stored import graph_key
from provscore.callgraph.summary import FileSummary, summarise
from provscore.change.collection import CollectionConfig
from provscore.change.git import Repo

CONFIG = CollectionConfig()

#: app.py takes f and h through two unchanged re-exports (pkg.sub, then pkg.mid or pkg).
CHAIN = {
    "pkg/__init__.py": "from pkg.mid import f, h\n",
    "pkg/impl.py": """
        def f():
            return 1

        def g():
            return 2

        def h(fn, x=0):
            return fn()
        """,
    "pkg/mid.py": "from pkg.impl import f, g, h\n",
    "pkg/sub.py": "from pkg.mid import f\nfrom pkg import h\n",
    "app.py": """
        from pkg.sub import f, h
        from pkg import extra

        def run():
            return f()

        def go():
            return h(run)

        def more():
            return extra.go()

        handler = None
        """,
    "lib.py": """
        from pkg.impl import h
        from app import handler, run

        def local():
            return 1

        def again():
            h(local, 1)
            h(handler)
            return h(run, 1)
        """,
    "user.py": """
        from pkg.impl import f

        def use():
            return f() + 1
        """,
}
#: Every edit changes app.py too (a new function), so its names are resolved after the
#: patch, through what the other changes moved.
_APP = str(CHAIN["app.py"]) + "\n        def added():\n            return run()\n"

EDITS: dict[str, dict[str, str | None]] = {
    "a re-export in a plain module moved": {
        "pkg/mid.py": "from pkg.impl import g as f, g, h\n", "app.py": _APP},
    "a changed signature, an unchanged caller": {
        "pkg/impl.py": str(CHAIN["pkg/impl.py"]).replace("def h(fn, x=0)", "def h(x, fn=None)"),
        "app.py": _APP},
    "a module is deleted": {
        "pkg/mid.py": None, "pkg/__init__.py": "from pkg.impl import f, h\n",
        "pkg/sub.py": "from pkg.impl import g as f\nfrom pkg import h\n", "app.py": _APP},
    "a module is renamed": {
        "pkg/mid.py": None, "pkg/middle.py": "from pkg.impl import g as f, g, h\n",
        "pkg/__init__.py": "from pkg.middle import f, h\n",
        "pkg/sub.py": "from pkg.middle import f\nfrom pkg import h\n", "app.py": _APP},
    "a caller's argument becomes a function": {
        "pkg/impl.py": str(CHAIN["pkg/impl.py"]) + "\n        X = 1\n",
        "app.py": _APP.replace("handler = None", "def handler():\n            return 0")},
    "a new module shadows a name": {
        "pkg/extra.py": "def go():\n    return 3\n", "app.py": _APP},
    "a package __init__ re-exports another function": {
        "pkg/__init__.py": "from pkg.mid import f\nfrom pkg.mid import g as h\n",
        "app.py": _APP},
}


def _by_module(summaries: dict[str, FileSummary]) -> tuple[dict[str, FileSummary],
                                                           ModuleIndex]:
    index = ModuleIndex(summaries)
    return {index.by_path[p]: s for p, s in summaries.items()}, index


def _after(edit: str) -> tuple[dict[str, FileSummary], dict[str, FileSummary | None]]:
    before = _summaries(CHAIN)
    changes = {p: None if s is None else summarise(textwrap.dedent(s).encode())
               for p, s in EDITS[edit].items()}
    return before, changes


def _overlaid(before: dict[str, FileSummary], changes: dict[str, FileSummary | None],
              exports: tuple[SummaryCache | None, str] | None) -> CallGraph:
    got = overlay_graph(_full(before), changes, before.get, CONFIG, exports)
    assert got is not None
    return got


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_the_graph_after_an_edit_that_makes_an_entry_stale_is_a_full_builds(edit: str) -> None:
    before, changes = _after(edit)
    after = {p: s for p, s in {**before, **changes}.items() if s is not None}
    got = _overlaid(before, changes, (None, "base"))
    assert _view(got) == _view(_full(after))
    assert _view(got) == _view(_overlaid(before, changes, None))


def test_the_edits_change_what_the_changed_file_reaches() -> None:
    """Each edit moves a target: a stale entry taken as fresh would give another graph."""
    want = {
        "a re-export in a plain module moved": ("app:run", "pkg.impl:g"),
        "a module is deleted": ("app:run", "pkg.impl:g"),
        "a module is renamed": ("app:run", "pkg.impl:g"),
        "a new module shadows a name": ("app:more", "pkg.extra:go"),
        "a caller's argument becomes a function": ("pkg.impl:h", "app:handler"),
        "a package __init__ re-exports another function": ("app:go", "pkg.impl:g"),
    }
    for edit, (src, dst) in want.items():
        before, changes = _after(edit)
        assert not _full(before).graph.has_edge(src, dst), edit
        assert _overlaid(before, changes, (None, "base")).graph.has_edge(src, dst), edit
    # The unchanged caller lib:again bound h's first parameter, fn, to local: now x.
    before, changes = _after("a changed signature, an unchanged caller")
    assert _full(before).graph.has_edge("pkg.impl:h", "lib:local")
    assert not _overlaid(before, changes, (None, "base")).graph.has_edge("pkg.impl:h",
                                                                         "lib:local")


def test_an_entry_records_every_module_its_resolution_read() -> None:
    modules, index = _by_module(_summaries(CHAIN))
    tables = ExportTables(None, "base", modules, index)
    entry = tables.entry("pkg.sub", "f")
    assert entry is not None
    values, reads, span = entry
    f = next(i for i, s in enumerate(modules["pkg.impl"].scopes) if s.qualname == "f")
    assert values == {("S", "pkg.impl", str(f))}
    assert reads == {"pkg.sub", "pkg.mid", "pkg.impl"}
    assert span == 2  # pkg.sub -> pkg.mid -> pkg.impl
    h = tables.entry("pkg.sub", "h")
    assert h is not None and h[1] == {"pkg.sub", "pkg", "pkg.mid", "pkg.impl"}
    # A name nothing binds: unknown, read from the package alone (and the index).
    assert tables.entry("pkg", "extra") == (frozenset({("U", "pkg.extra")}),
                                            frozenset({"pkg"}), 0)
    assert tables.computed == 3


def test_a_callers_record_keeps_what_can_bind_and_what_it_read() -> None:
    modules, index = _by_module(_summaries(CHAIN))
    tables = ExportTables(None, "base", modules, index)
    record = tables.sites("lib", "again")
    assert record is not None
    always, quiet = record
    again = next(i for i, s in enumerate(modules["lib"].scopes) if s.qualname == "again")
    # the calls passing a function are always replayed, in their order among the sites
    assert [(n, kind, i, ref) for n, (kind, i, ref, _), _ in always] == [
        (0, "call", again, "h"), (2, "call", again, "h")]
    # with what their callee resolved to at base, and what that read
    h = next(i for i, s in enumerate(modules["pkg.impl"].scopes) if s.qualname == "h")
    assert {callee for _, _, callee in always} == {
        (frozenset({("S", "pkg.impl", str(h))}), frozenset({"lib", "pkg.impl"}))}
    # h(handler) passes no function (handler is None): replayed only when what resolving
    # its argument read changes (local is lib's, handler is app's; the callee is not read)
    assert [(reads, [(n, ref, callee) for n, (_, _, ref, _), callee in sites])
            for reads, sites in quiet] == [(frozenset({"lib", "app"}), [(1, "h", None)])]
    assert tables.sites("user", "use") == ((), ())  # calls nothing with an argument
    assert tables.sites("pkg.gone", "x") is None


def test_stored_records_are_read_when_asked_and_kept_when_saved(tmp_path: Path) -> None:
    """A module's row of records is checked a caller at a time: asking about one caller
    and saving keeps the others as stored, and a record that does not read is computed
    again (never trusted), the rest of its row untouched."""
    modules, index = _by_module(_summaries(CHAIN))
    db = tmp_path / "callgraph.sqlite"
    first = ExportTables(SummaryCache(db), "base", modules, index)
    local = first.sites("lib", "local")
    again = first.sites("lib", "again")
    first.save()
    second = ExportTables(SummaryCache(db), "base", modules, index)
    assert second.sites("lib", "again") == again and second.computed == 0
    second.sites("lib", "missing")  # a caller the row lacks: computed, the row dirty
    second.save()
    cache = SummaryCache(db)
    row = cache.get_exports("base", "sites:lib")
    assert isinstance(row, tuple)
    fmt, entries = row
    assert fmt == EXPORTS_FORMAT and [q for q, _ in entries] == ["again", "local", "missing"]
    broken = tuple((q, ("not", "a record") if q == "local" else e) for q, e in entries)
    cache.put_exports("base", "sites:lib", (EXPORTS_FORMAT, broken))
    third = ExportTables(SummaryCache(db), "base", modules, index)
    assert third.sites("lib", "local") == local and third.computed == 1
    assert third.sites("lib", "again") == again and third.computed == 1


def test_a_fresh_record_spares_reading_the_callers_module(tmp_path: Path) -> None:
    """pkg/impl.py changes: its unchanged callers are replayed from their records, and
    user.py, whose call passes no function, is not even read (a cached run)."""
    before, _ = _after("a changed signature, an unchanged caller")
    impl = summarise(textwrap.dedent(str(
        EDITS["a changed signature, an unchanged caller"]["pkg/impl.py"])).encode())
    changes: dict[str, FileSummary | None] = {"pkg/impl.py": impl}
    after = {**before, "pkg/impl.py": impl}
    base = _full(before)
    db = tmp_path / "callgraph.sqlite"
    first = overlay_graph(base, changes, before.get, CONFIG, (SummaryCache(db), "base"))
    read: list[str] = []

    def load(path: str) -> FileSummary | None:
        read.append(path)
        return before.get(path)

    second = overlay_graph(base, changes, load, CONFIG, (SummaryCache(db), "base"))
    assert first is not None and second is not None
    assert _view(first) == _view(second) == _view(_full(after))
    assert "user.py" not in read and "lib.py" in read
    read.clear()
    overlay_graph(base, changes, load, CONFIG, None)  # without records: every caller read
    assert "user.py" in read


def test_an_entry_that_depends_on_more_than_the_modules_read_is_not_kept() -> None:
    modules, index = _by_module(_summaries({
        "ident.py": "def ident(a):\n    return a\n\ndef f():\n    pass\n\nx = ident(f)\n",
        "a.py": "from b import loop\n",
        "b.py": "from a import loop\n",
        "plain.py": "from ident import f\n",
    }))
    tables = ExportTables(None, "base", modules, index)
    assert tables.entry("ident", "x") is None  # a parameter: call sites bind it
    assert tables.entry("a", "loop") is None  # a cycle
    assert tables.entry("plain", "f") is not None


def _commit_chain(repo: GitRepo) -> tuple[Repo, dict[str, bytes | None]]:
    repo.commit({p: textwrap.dedent(s) for p, s in CHAIN.items()})
    post: dict[str, bytes | None] = {"app.py": textwrap.dedent(_APP).encode(),
            "pkg/mid.py": b"from pkg.impl import g as f, g, h\n"}
    return Repo(repo.root), post


def test_export_tables_are_stored_with_the_base_graph(repo: GitRepo, tmp_path: Path) -> None:
    git, post = _commit_chain(repo)
    cache = SummaryCache(tmp_path / "callgraph.sqlite")
    base = graph_at(git, "HEAD", CONFIG, cache)
    first = graph_at(git, "HEAD", CONFIG, cache, overlay=post, base=base)
    key = graph_key(cache.version, CONFIG, tree_blobs(git, "HEAD"))
    row = cache.get_exports(key, "pkg.sub")
    assert isinstance(row, tuple) and row[0] == EXPORTS_FORMAT
    assert [name for name, _ in row[1]] == ["f", "h"]
    # Another process: the entries come from the cache, the graph is the same.
    again = SummaryCache(tmp_path / "callgraph.sqlite")
    second = graph_at(git, "HEAD", CONFIG, again, overlay=post,
                      base=graph_at(git, "HEAD", CONFIG, again))
    full = graph_at(git, "HEAD", CONFIG, SummaryCache(), overlay=post)
    assert _view(first) == _view(second) == _view(full)
    assert second.graph.has_edge("app:run", "pkg.impl:g")


def test_a_corrupt_export_row_is_recomputed(repo: GitRepo, tmp_path: Path) -> None:
    git, post = _commit_chain(repo)
    db = tmp_path / "callgraph.sqlite"
    cache = SummaryCache(db)
    base = graph_at(git, "HEAD", CONFIG, cache)
    graph_at(git, "HEAD", CONFIG, cache, overlay=post, base=base)
    cache.close()
    with sqlite3.connect(db) as con:
        rows = con.execute("UPDATE export SET data = substr(data, 1, length(data) - 3) || "
                           "X'000000'").rowcount
    assert rows > 0
    again = SummaryCache(db)
    key = graph_key(again.version, CONFIG, tree_blobs(git, "HEAD"))
    assert again.get_exports(key, "pkg.sub") is None  # does not verify: dropped
    with sqlite3.connect(db) as con:
        assert con.execute("SELECT count(*) FROM export WHERE module = 'pkg.sub'"
                           ).fetchone() == (0,)
    post_graph = graph_at(git, "HEAD", CONFIG, again, overlay=post,
                          base=graph_at(git, "HEAD", CONFIG, again))
    assert _view(post_graph) == _view(graph_at(git, "HEAD", CONFIG, SummaryCache(),
                                               overlay=post))
    row = again.get_exports(key, "pkg.sub")  # recomputed and stored again
    assert isinstance(row, tuple) and [name for name, _ in row[1]] == ["f", "h"]


def test_an_export_row_of_another_format_is_recomputed(tmp_path: Path) -> None:
    cache = SummaryCache(tmp_path / "callgraph.sqlite")
    modules, index = _by_module(_summaries(CHAIN))
    cache.put_exports("base", "pkg.sub", (0, (("f", ((("S", "pkg.impl", "9"),), (), 0)),)))
    tables = ExportTables(cache, "base", modules, index)
    entry = tables.entry("pkg.sub", "f")
    assert entry is not None and entry[0] != {("S", "pkg.impl", "9")}
    assert tables.computed == 1
