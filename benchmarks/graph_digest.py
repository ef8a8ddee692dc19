"""Everything a built call graph holds, as sorted text lines, and their digest.

A change meant to make the graph faster to build must leave it identical: dump the graph
of a tree before and after the change and compare (``--check``), or build it under
several ``PYTHONHASHSEED`` values (a build must not depend on the hash seed).

    python benchmarks/graph_digest.py REPO [--rev REV] [--out FILE] [--check FILE]
    python benchmarks/graph_digest.py REPO --seeds 0,1,2      # one build per seed
    python benchmarks/graph_digest.py REPO --diff A.diff B.diff --cache-dir DIR [--out F]

``--diff``: for each patch of ``REPO``'s ``--rev``, the graph after the patch as ``score``
makes it (the base graph stored in ``--cache-dir``, warmed by the first patch, with the
changed files overlaid) and what the report takes from it (every touched symbol with its
covering tests and properties), one digest per patch: compare two commits' runs with
``--check``.

The lines: every node with its attributes, every edge with its kind, every test id, the
call counts (total and per module), the unparsed files and each module's imports. The
build is cold (an in-memory cache), serial unless ``--parallel``.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(PROJECT)]


def graph_lines(repo: Path, rev: str, parallel: bool = False) -> list[str]:
    """The sorted lines of the call graph of ``repo`` at ``rev``, built cold."""
    import provscore.callgraph.build as build
    from provscore.callgraph.cache import SummaryCache
    from provscore.change.collection import CollectionConfig
    from provscore.change.git import Repo

    if not parallel:
        build.PARALLEL_FROM = 10 ** 9
    graph = build.graph_at(Repo(repo), rev, CollectionConfig(), SummaryCache())
    return sorted(_lines_of(graph))


def _lines_of(graph: object, symbols: bool = False) -> list[str]:
    from provscore.callgraph.graph import CallGraph

    assert isinstance(graph, CallGraph)
    g = graph.graph
    lines = [f"node {row!r}" for row in (g.node_row(i) for i in range(len(g)))]
    lines += [f"edge {u} -> {v} {k}" for u, v, k in g.edges(data="kind")]
    lines += [f"test {t} {n}" for t, n in graph.tests.items()]
    lines += [f"stats {k} {n}" for k, n in graph.stats.items()]
    lines += [f"module_stats {m} {c!r}" for m, c in graph.module_stats.items()]
    lines += [f"unparsed {p} {e}" for p, e in graph.unparsed.items()]
    lines += [f"imports {m} {i!r}" for m, i in graph.imports_by_module.items()]
    if symbols:
        lines += [f"symbol {s!r}" for s in graph.symbols.values()]
    return lines


def patch_lines(repo: Path, rev: str, diffs: list[Path], cache_dir: Path) -> list[str]:
    """Per patch: the digest of the graph after it and its touched symbols' coverage."""
    from provscore.callgraph.cache import SummaryCache
    from provscore.pipeline import ScoreRequest, run_static
    from provscore.session import Session

    session = Session.load(cache=SummaryCache(cache_dir / "callgraph.sqlite"))
    out = []
    for diff in diffs:
        req = ScoreRequest(repo, rev, diff=diff.read_bytes(), diff_origin=str(diff),
                           static_only=True)
        facts = run_static(req, session).facts.graph
        name = diff.parent.name if diff.name == "patch.diff" else diff.name
        if facts is None:
            out.append(f"{name} no graph")
            continue
        out.append(f"{name} post {digest(sorted(_lines_of(facts.post, True)))}")
        out += [f"{name} touched {t!r}" for t in facts.touched]
    return out


def digest(lines: list[str]) -> str:
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()


def _under_seed(seed: str, args: argparse.Namespace) -> str:
    """The digest of a build in a fresh process with ``PYTHONHASHSEED=seed``."""
    cmd = [sys.executable, __file__, str(args.repo), "--rev", args.rev]
    if args.parallel:
        cmd.append("--parallel")
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(PROJECT)}
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True).stdout
    return out.split()[-1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("repo", type=Path)
    ap.add_argument("--rev", default="HEAD")
    ap.add_argument("--parallel", action="store_true",
                    help="summarise in worker processes as a large cold build does")
    ap.add_argument("--out", type=Path, help="write the lines here")
    ap.add_argument("--check", type=Path, help="compare with lines written before")
    ap.add_argument("--seeds", help="comma-separated PYTHONHASHSEED values: one build each")
    ap.add_argument("--diff", type=Path, nargs="+",
                    help="digest the graph after each of these patches (needs --cache-dir)")
    ap.add_argument("--cache-dir", type=Path, help="the call-graph cache --diff uses")
    args = ap.parse_args()
    if args.diff and args.cache_dir is None:
        ap.error("--diff needs --cache-dir")
    if args.seeds:
        digests = {seed: _under_seed(seed, args) for seed in args.seeds.split(",")}
        for seed, d in digests.items():
            print(f"PYTHONHASHSEED={seed} {d}")
        return 0 if len(set(digests.values())) == 1 else 1
    lines = patch_lines(args.repo, args.rev, args.diff, args.cache_dir) if args.diff \
        else graph_lines(args.repo, args.rev, args.parallel)
    if args.out:
        args.out.write_text("\n".join(lines) + "\n", encoding="utf-8", errors="surrogateescape")
    if args.check:
        before = args.check.read_text(encoding="utf-8", errors="surrogateescape").splitlines()
        old, new = set(before), set(lines)
        for line in sorted(old - new)[:20]:
            print(f"- {line}")
        for line in sorted(new - old)[:20]:
            print(f"+ {line}")
        print(f"{len(old - new)} lines gone, {len(new - old)} new, of {len(before)} / "
              f"{len(lines)}")
        if old != new:
            return 1
    print(f"{len(lines)} lines, sha256 {digest(lines)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
