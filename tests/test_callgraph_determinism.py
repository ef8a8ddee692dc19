"""The call graph is reproducible: the same tree gives the same graph whatever the hash
seed (sets of values are walked in a fixed order), and summarising in worker processes
gives exactly what summarising in one process does, a worker dying mid-build included."""

from __future__ import annotations

import hashlib
import marshal
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import GitRepo

from provscore.callgraph import build, parallel
from provscore.callgraph.build import parse_all
from provscore.callgraph.cache import SummaryCache, blob_sha
from provscore.callgraph.graph import CallGraph, build_graph
from provscore.callgraph.summary import FileSummary
from provscore.change.collection import CollectionConfig
from provscore.change.git import Repo

PROJECT = Path(__file__).resolve().parents[1]

# `Base` may be either class: C's MRO then has both, in an order that used to follow the
# hash seed, and `self.run()` reached A.run under some seeds and B.run under others.
ALTERNATIVE_BASES = """\
import os


class A:
    def run(self):
        return a_impl()


class B:
    def run(self):
        return b_impl()


def a_impl():
    pass


def b_impl():
    pass


if os.environ.get("X"):
    Base = A
else:
    Base = B


class C(Base):
    def go(self):
        self.run()
"""

# Builds the graph of the files under argv[1] (or of ALTERNATIVE_BASES) and prints it as
# sorted lines (nodes, edges, tests, counts), or their digest.
BUILD = r"""
import hashlib, sys
from pathlib import Path
from provscore.callgraph.graph import build_graph
from provscore.callgraph.summary import summarise
from provscore.change.collection import CollectionConfig
root = Path(sys.argv[1])
if root.is_dir():
    files = {p.relative_to(root.parent).as_posix(): ("", summarise(p.read_bytes()))
             for p in sorted(root.rglob("*.py"))}
else:
    files = {"pkg/mod.py": ("", summarise(root.read_bytes()))}
g = build_graph(files, CollectionConfig())
lines = sorted([f"node {g.graph.node_row(i)!r}" for i in range(len(g.graph))]
               + [f"edge {u} -> {v} {k}" for u, v, k in g.graph.edges(data="kind")]
               + [f"test {t} {n}" for t, n in g.tests.items()]
               + [f"stats {m} {c!r}" for m, c in g.module_stats.items()])
if sys.argv[2] == "digest":
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()
    print(len(g.graph), g.graph.number_of_edges(), digest)
else:
    print("\n".join(l for l in lines if l.startswith("edge mod:") and l.endswith(" call")))
"""


def _build(target: Path, seed: str, what: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(PROJECT)}
    proc = subprocess.run([sys.executable, "-c", BUILD, str(target), what], env=env, cwd=PROJECT,
                          capture_output=True, text=True, check=True)
    return proc.stdout


def test_a_base_that_may_be_two_classes_resolves_alike_under_every_hash_seed(
        tmp_path: Path) -> None:
    source = tmp_path / "mod.py"
    source.write_text(ALTERNATIVE_BASES)
    edges = {seed: _build(source, seed, "edges") for seed in ("0", "1", "2", "3", "4", "5")}
    # The first definition comes first in the method resolution order, whatever the seed.
    expected = ("edge mod:A.run -> mod:a_impl call\n"
                "edge mod:B.run -> mod:b_impl call\n"
                "edge mod:C.go -> mod:A.run call\n")
    assert edges == dict.fromkeys(edges, expected)


def test_provscore_own_tree_gives_one_graph_under_two_hash_seeds() -> None:
    package = PROJECT / "provscore"
    first = _build(package, "1", "digest")
    second = _build(package, "2", "digest")
    nodes, edges, _ = first.split()
    assert int(nodes) > 3000 and int(edges) > 8000  # a real tree, not an empty one
    assert first == second


def _own_sources() -> dict[str, bytes]:
    return {p.relative_to(PROJECT).as_posix(): p.read_bytes()
            for p in sorted((PROJECT / "provscore").rglob("*.py"))}


def _graph(sources: dict[str, bytes], summaries: dict[str, FileSummary]) -> CallGraph:
    return build_graph({p: (b, summaries[b]) for p, b in
                        ((p, blob_sha(d)) for p, d in sources.items())}, CollectionConfig())


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="worker processes need two cores")
def test_summaries_made_in_worker_processes_are_the_serial_ones() -> None:
    sources = _own_sources()
    todo = {blob_sha(d): d for d in sources.values()}
    serial_cache, parallel_cache = SummaryCache(), SummaryCache()
    serial = parse_all(serial_cache, todo, parallel_from=len(todo) + 1)
    parallel = parse_all(parallel_cache, todo, parallel_from=1)
    assert serial_cache.parsed_by_workers == 0
    assert 0 < parallel_cache.parsed_by_workers < len(todo)  # both sides did some
    assert serial_cache.parsed == parallel_cache.parsed == len(todo)
    assert list(parallel) == list(serial) == list(todo)
    assert {b: s.to_record() for b, s in parallel.items()} == \
        {b: s.to_record() for b, s in serial.items()}
    one, other = _graph(sources, serial).graph, _graph(sources, parallel).graph
    assert sorted(one.edges(data="kind")) == sorted(other.edges(data="kind"))
    assert sorted(one.nodes(data=True)) == sorted(other.nodes(data=True))
    assert hashlib.sha256(repr(sorted(one.edges(data="kind"))).encode()).hexdigest() == \
        hashlib.sha256(repr(sorted(other.edges(data="kind"))).encode()).hexdigest()


def _lines(graph: CallGraph) -> list[str]:
    """Everything a built graph holds, as sorted lines (as benchmarks/graph_digest.py)."""
    g = graph.graph
    lines = [f"node {g.node_row(i)!r}" for i in range(len(g))]
    lines += [f"edge {u} -> {v} {k}" for u, v, k in g.edges(data="kind")]
    lines += [f"test {t} {n}" for t, n in graph.tests.items()]
    lines += [f"stats {k} {n}" for k, n in graph.stats.items()]
    lines += [f"module_stats {m} {c!r}" for m, c in graph.module_stats.items()]
    lines += [f"unparsed {p} {e}" for p, e in graph.unparsed.items()]
    lines += [f"imports {m} {i!r}" for m, i in graph.imports_by_module.items()]
    return sorted(lines)


def _own_repo(repo: GitRepo) -> GitRepo:
    """A real multi-module repository: provscore's package and tests, committed, and one
    file ast cannot parse."""
    files: dict[str, str | bytes | None] = {
        p.relative_to(PROJECT).as_posix(): p.read_bytes()
        for sub in ("provscore", "tests") for p in sorted((PROJECT / sub).rglob("*.py"))}
    files["tests/broken_fixture.py"] = "def broken(:\n"
    repo.commit(files)
    return repo


def _cold(repo: GitRepo, cache: SummaryCache, parallel_from: int,
          monkeypatch: pytest.MonkeyPatch) -> CallGraph:
    monkeypatch.setattr(build, "PARALLEL_FROM", parallel_from)
    return build.graph_at(Repo(repo.root), "HEAD", CollectionConfig(), cache)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="worker processes need two cores")
def test_a_parallel_cold_build_of_a_real_repository_is_the_serial_one(
        repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _own_repo(repo)
    serial_cache = SummaryCache(tmp_path / "serial" / "callgraph.sqlite")
    parallel_cache = SummaryCache(tmp_path / "parallel" / "callgraph.sqlite")
    serial = _cold(repo, serial_cache, 10 ** 9, monkeypatch)
    parallel = _cold(repo, parallel_cache, 1, monkeypatch)
    assert serial_cache.parsed == parallel_cache.parsed > 200
    assert serial_cache.parsed_by_workers == 0
    assert 0 < parallel_cache.parsed_by_workers < parallel_cache.parsed  # both sides did some
    assert serial.unparsed == parallel.unparsed == {
        "tests/broken_fixture.py": serial.unparsed["tests/broken_fixture.py"]}
    assert len(serial.graph) > 5000 and serial.graph.number_of_edges() > 15000
    assert _lines(parallel) == _lines(serial)
    # The rows the workers encoded read back as the summaries a parse makes.
    reopened = SummaryCache(tmp_path / "parallel" / "callgraph.sqlite")
    summaries = build.summaries_at(Repo(repo.root), "HEAD", reopened)
    assert reopened.parsed == 0
    assert _lines(build_graph(summaries, CollectionConfig())) == _lines(serial)


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="worker processes need two cores")
@pytest.mark.parametrize("delivered", [0, 1])
def test_a_worker_dying_mid_build_leaves_its_files_to_a_correct_serial_build(
        repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        delivered: int) -> None:
    _own_repo(repo)
    serial = _cold(repo, SummaryCache(), 10 ** 9, monkeypatch)
    parent, calls = os.getpid(), [0]
    real = parallel.chunk_rows

    def dying(sources: Sequence[bytes]) -> list[bytes]:
        """The worker's chunk; its chunk number ``delivered`` is never sent: it dies."""
        if os.getpid() != parent:
            calls[0] += 1
            if calls[0] > delivered:
                os._exit(1)
        return real(sources)

    monkeypatch.setattr(parallel, "chunk_rows", dying)
    cache = SummaryCache(tmp_path / "callgraph.sqlite")
    graph = _cold(repo, cache, 1, monkeypatch)
    assert cache.parsed == len(build.tree_blobs(Repo(repo.root), "HEAD"))
    if delivered:
        assert 0 < cache.parsed_by_workers < cache.parsed
    else:
        assert cache.parsed_by_workers == 0
    assert _lines(graph) == _lines(serial)
    reopened = SummaryCache(tmp_path / "callgraph.sqlite")
    assert _lines(build.graph_at(Repo(repo.root), "HEAD", CollectionConfig(), reopened)) \
        == _lines(serial)  # the stored graph: the whole one
    summaries = build.summaries_at(Repo(repo.root), "HEAD", reopened)
    assert reopened.parsed == 0 and len(summaries) == cache.parsed  # every file cached


@pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="worker processes need two cores")
def test_a_worker_sending_what_is_no_summary_is_not_trusted(
        repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _own_repo(repo)
    serial = _cold(repo, SummaryCache(), 10 ** 9, monkeypatch)

    def lying(sources: Sequence[bytes]) -> list[bytes]:
        """As many rows as files, but each a well-formed record of something else."""
        return [marshal.dumps(("not", "a", "summary"))] * len(sources)

    monkeypatch.setattr(parallel, "chunk_rows", lying)
    cache = SummaryCache(tmp_path / "callgraph.sqlite")
    graph = _cold(repo, cache, 1, monkeypatch)
    assert cache.parsed_by_workers == 0
    assert cache.parsed == len(build.tree_blobs(Repo(repo.root), "HEAD"))
    assert _lines(graph) == _lines(serial)

