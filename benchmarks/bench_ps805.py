#!/usr/bin/env python3
"""PS805's false-positive budget on honest projects, with and without the import fallback.

Each sdist becomes a git repository (one commit); its call graph and base test corpus are
built as a scoring does. Then every function and method of every production module is
treated as changed (every branch as new) and PS805's signals are counted twice: with the
literals of the base tests the call graph finds reaching the function (the graph route),
and with the fallback for a function no test reaches (every base test of every test
module importing its module). What the second count adds is what the fallback would cost
on honest code if a patch rewrote every function; ``--show`` prints each signal.

    python benchmarks/bench_ps805.py /tmp/sdists/*.tar.gz [--show]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from provscore.callgraph.analysis import base_graph  # noqa: E402
from provscore.callgraph.corpus import BaseTests  # noqa: E402
from provscore.callgraph.graph import CallGraph  # noqa: E402
from provscore.callgraph.touched import Reach, TouchedSymbol  # noqa: E402
from provscore.change.collection import CollectionConfig  # noqa: E402
from provscore.change.git import Repo  # noqa: E402
from provscore.change.writeset import classify_path  # noqa: E402
from provscore.grader.literals import importing_tests, literal_owners  # noqa: E402
from provscore.grader.model import SignalKind  # noqa: E402
from provscore.grader.stage import GraderInputs, scan_signals  # noqa: E402
from provscore.model import PathRole  # noqa: E402
from provscore.session import Session  # noqa: E402


def _repo(archive: Path, into: Path) -> Repo:
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    top = next(p for p in into.iterdir() if p.is_dir())
    for args in (["init", "-q"], ["add", "-A"],
                 ["-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "sdist"]):
        subprocess.run(["git", "-C", str(top), *args], check=True)
    return Repo(top)


def _units(graph: CallGraph, config: CollectionConfig) -> list[TouchedSymbol]:
    reach = Reach(graph, dict(graph.tests), [])
    out = []
    for name, sym in graph.symbols.items():
        if sym.kind in ("function", "method") and \
                classify_path(sym.path, config) is PathRole.PRODUCTION:
            tests, _ = reach.covering(name)
            out.append(TouchedSymbol(name, sym.path, sym.kind, ("pre",), (sym.start,),
                                     tuple(sorted(tests))))
    return out


def measure(archive: Path, session: Session, show: bool) -> tuple[str, int, int, int]:
    config = CollectionConfig()
    with tempfile.TemporaryDirectory() as tmp:
        repo = _repo(archive, Path(tmp))
        sha = repo.resolve("HEAD")
        graph = base_graph(repo, sha, config, session.cache)
        tests = BaseTests.from_graph(graph, config)
        units = _units(graph, config)
        read = lambda paths: repo.read_blobs(sha, paths)  # noqa: E731
        tables = {"graph": literal_owners(units, read),
                  "fallback": literal_owners(units, read, importing_tests(graph, tests.ids))}
        counts = {}
        paths = sorted({u.path for u in units})
        sources = repo.read_blobs(sha, paths)
        for route, owners in tables.items():
            n = 0
            for path in paths:
                data = sources.get(path)
                if data is None or path not in owners:
                    continue
                inputs = GraderInputs(lambda p: classify_path(p, config),
                                      session.grader_tables(), literal_owners=owners)
                found = [s for s in scan_signals(path, data, None, inputs, frozenset())
                         if s.kind is SignalKind.SPECIAL_CASE]
                n += len(found)
                for s in found if show and route == "fallback" else ():
                    print(f"{archive.name}: {s.path}:{s.line} in {s.scope}: {s.detail}, "
                          f"a literal of {s.subject}: {s.code}")
            counts[route] = n
        lines = sum(d.count(b"\n") + 1 for d in sources.values() if d)
    return archive.name.removesuffix(".tar.gz"), lines, counts["graph"], counts["fallback"]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sdists", nargs="+", type=Path, help="sdist archives (.tar.gz)")
    ap.add_argument("--show", action="store_true", help="print every fallback signal")
    args = ap.parse_args()
    session = Session.load()
    print("| project | production lines | PS805, graph route | PS805, with the fallback |")
    print("| --- | --- | --- | --- |")
    for archive in args.sdists:
        name, lines, graph_n, fallback_n = measure(archive, session, args.show)
        print(f"| {name} | {lines:,} | {graph_n} ({graph_n * 10000 / lines:.2f}) | "
              f"{fallback_n} ({fallback_n * 10000 / lines:.2f}) |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
