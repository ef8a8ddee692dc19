"""The call graph's accuracy and cost.

1. Precision and recall of the graph's edges on the hand-checked small programs, per
   category and in total, for each case set: ``spec`` (``tests/callgraph_cases.py``,
   written with the resolver) and ``blind`` (``tests/callgraph_blind_cases.py``, written
   without reading it), as two tables.
2. On sympy 1.12 (the sdist, as bench_classify.py downloads it): ``ast.parse`` and
   ``libcst.parse_module`` of every ``.py`` file, then the call graph built cold (empty
   cache; serial, and with the parallel parse), warm (every summary cached), and warm after
   a 5-file change. Each build runs in a fresh process; its peak RSS is reported, its
   CPU seconds with its workers' and those of the main process alone (a parallel
   build's critical path: its wall on a machine with a free core per worker).

    python benchmarks/bench_callgraph.py                 # all of it (~5 min on 2 cores)
    python benchmarks/bench_callgraph.py --accuracy      # part 1 only (seconds)
    python benchmarks/bench_callgraph.py --accuracy --cases blind --edges  # + each miss
    python benchmarks/bench_callgraph.py --no-libcst     # skip the slow libcst floor
    python benchmarks/bench_callgraph.py --e2e           # only the end-to-end sympy patch
    python benchmarks/bench_callgraph.py --cold --rounds 3   # ast.parse and cold builds only

3. End to end on sympy: a breaking patch to ``sympy.utilities.misc:ordinal`` scored with
   off-tree results of a test file that never reaches it (PS701), then with the results of
   the test file that does (no PS701: its failure is PS501).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(PROJECT), str(PROJECT / "tests"), str(PROJECT / "benchmarks")]

CASE_SETS = {
    "spec": ("tests/callgraph_cases.py, written together with the resolver (its "
             "specification)", "callgraph_cases", "CASES"),
    "blind": ("tests/callgraph_blind_cases.py, written blind (without reading the "
              "resolver)", "callgraph_blind_cases", "BLIND_CASES"),
}


def accuracy(which: str = "spec", show_edges: bool = False) -> tuple[float, float]:
    """Print the per-category table of one case set; return its precision and recall."""
    import importlib

    from callgraph_cases import found_edges

    title, module, attr = CASE_SETS[which]
    cases = getattr(importlib.import_module(module), attr)
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    wrong: list[str] = []
    for case in cases:
        got = found_edges(case.files)
        row = per[case.category]
        row[0] += len(got & case.expected)
        row[1] += len(got - case.expected)
        row[2] += len(case.expected - got)
        wrong += [f"- {case.name}: missed `{e}`" for e in sorted(case.expected - got)]
        wrong += [f"- {case.name}: false `{e}`" for e in sorted(got - case.expected)]
    print(f"{which} cases: {title}\n")
    print("| category | expected edges | found | false | missed | precision | recall |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    tp = fp = fn = 0
    for cat in sorted(per):
        t, f, n = per[cat]
        tp, fp, fn = tp + t, fp + f, fn + n
        print(f"| {cat} | {t + n} | {t} | {f} | {n} | {_ratio(t, t + f)} | {_ratio(t, t + n)} |")
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    print(f"| **all {len(cases)} programs** | {tp + fn} | {tp} | {fp} | {fn} | "
          f"**{precision:.3f}** | **{recall:.3f}** |")
    if show_edges and wrong:
        print("\n" + "\n".join(wrong))
    return precision, recall


def _ratio(a: int, b: int) -> str:
    return f"{a / b:.3f}" if b else "n/a"


CHILD = r"""
import gc, json, resource, sys, time
from pathlib import Path
mode, repo, cache_dir = sys.argv[1], sys.argv[2], sys.argv[3]
out = {}
def cpu(whom=(resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)):
    # user + system seconds of this process and (by default) its finished workers
    return sum(getattr(resource.getrusage(who), f) for who in whom
               for f in ("ru_utime", "ru_stime"))
if mode in ("ast", "libcst"):
    import ast, subprocess
    files = subprocess.run(["git", "-C", repo, "ls-files", "*.py"], capture_output=True,
                           text=True, check=True).stdout.split()
    data = [Path(repo, f).read_bytes() for f in files]
    if mode == "libcst":
        import libcst
        parse = libcst.parse_module
    else:
        parse = ast.parse
    t, c = time.perf_counter(), cpu()
    for d in data:
        try:
            parse(d)
        except Exception:
            pass
    out["seconds"], out["cpu"] = time.perf_counter() - t, cpu() - c
    out["files"] = len(data)
else:
    import provscore.callgraph.build as build
    from provscore.callgraph.cache import SummaryCache
    from provscore.change.collection import CollectionConfig
    from provscore.change.git import Repo
    if mode == "cold-serial":
        build.PARALLEL_FROM = 10 ** 9
    overlay = None
    if mode.startswith("warm-5"):
        r = Repo(repo)
        paths = sorted(e.path for e in r.ls_tree("HEAD") if e.path.endswith("core/add.py")
                       or e.path.endswith(("core/mul.py", "core/power.py", "core/expr.py",
                                           "core/basic.py")))
        blobs = r.read_blobs("HEAD", paths)
        overlay = {p: b + b"\n# changed\n" for p, b in blobs.items() if b is not None}
    cache = SummaryCache(Path(cache_dir) / "callgraph.sqlite")
    t, c, m = time.perf_counter(), cpu(), cpu((resource.RUSAGE_SELF,))
    base = None
    if mode == "warm-5":  # what `score` does: the stored base graph, the patch overlaid
        base = build.graph_at(Repo(repo), "HEAD", CollectionConfig(), cache)
    g = build.graph_at(Repo(repo), "HEAD", CollectionConfig(), cache, overlay=overlay,
                       base=base)
    out["seconds"], out["cpu"] = time.perf_counter() - t, cpu() - c
    out["main_cpu"] = cpu((resource.RUSAGE_SELF,)) - m
    out["parsed"] = cache.parsed
    out["nodes"] = g.graph.number_of_nodes()
    out["edges"] = g.graph.number_of_edges()
    out["stats"] = g.stats
    out["tests"] = len(g.tests)
out["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps(out))
"""


def child(mode: str, repo: Path, cache_dir: Path, code: Path = PROJECT) -> dict[str, object]:
    """One measurement in a fresh process that imports provscore from ``code``."""
    proc = subprocess.run([sys.executable, "-c", CHILD, mode, str(repo), str(cache_dir)],
                          capture_output=True, text=True, cwd=code,
                          env={"PYTHONPATH": str(code), "PATH": "/usr/bin:/bin"})
    if proc.returncode != 0:
        raise SystemExit(f"{mode} failed: {proc.stderr.strip()[-800:]}")
    result: dict[str, object] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def sympy(libcst: bool, rounds: int = 1, cold_only: bool = False, code: Path = PROJECT
          ) -> None:
    """Each round: ``ast.parse`` of every file, the cold builds (serial, parallel), the
    floor again; the first round adds libcst and the warm builds. Ratios are to the mean
    floor of the same round (the machine may be shared: its load moves both)."""
    from bench_classify import CORPUS, build_repo, ensure_release

    release = ensure_release("1.12")
    repo = CORPUS / "callgraph-repo-1.12"
    if not (repo / ".git").is_dir():
        build_repo(release, repo)
    rows: list[tuple[int, str, dict[str, object]]] = []

    def run(n: int, mode: str, cache: Path) -> None:
        load = os.getloadavg()[0]
        result = child(mode, repo, cache, code)
        result["load"] = f"{load:.1f}-{os.getloadavg()[0]:.1f}"
        rows.append((n, mode, result))

    with tempfile.TemporaryDirectory(prefix="cg-bench-") as tmp:
        for n in range(rounds):
            run(n, "ast", Path(tmp))
            if libcst and n == 0 and not cold_only:
                run(n, "libcst", Path(tmp))
            run(n, "cold-serial", Path(tmp) / f"a{n}")
            run(n, "cold", Path(tmp) / f"b{n}")
            if n == 0 and not cold_only:
                for mode in ("warm", "warm-5", "warm-5-full"):
                    run(n, mode, Path(tmp) / "b0")
            run(n, "ast", Path(tmp))
    print("| round | run | wall s | × ast.parse | CPU s | × ast.parse CPU | main CPU s | "
          "× ast.parse CPU | load avg | files parsed | peak RSS MiB | graph |")
    print("| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---: | --- |")
    for n, mode, r in rows:
        floors = [f for m, f in ((m, r2) for k, m, r2 in rows if k == n) if m == "ast"]
        wall = sum(float(f["seconds"]) for f in floors) / len(floors)  # type: ignore[arg-type]
        cpu = sum(float(f["cpu"]) for f in floors) / len(floors)  # type: ignore[arg-type]
        secs, used = float(r["seconds"]), float(r["cpu"])  # type: ignore[arg-type]
        graph = (f"{r['nodes']} nodes, {r['edges']} edges, {r['tests']} tests; calls "
                 f"{json.dumps(r['stats'])}" if "nodes" in r else f"{r['files']} files")
        main = float(r.get("main_cpu", used))  # type: ignore[arg-type]
        print(f"| {n + 1} | {mode} | {secs:.2f} | {secs / wall:.2f} | {used:.2f} | "
              f"{used / cpu:.2f} | {main:.2f} | {main / cpu:.2f} | {r['load']} | "
              f"{r.get('parsed', '')} | "
              f"{r['peak_mib']:.0f} | {graph} |")


def _offtree(repo: Path, patch: bytes, tests: str, out: Path) -> Path:
    """Run one base test file against the patched tree (a worktree), into JUnit XML."""
    from bench_classify import git

    work = out.parent / f"work-{out.stem}"
    git(repo, "worktree", "add", "-q", "--detach", str(work), "HEAD")
    try:
        subprocess.run(["git", "-C", str(work), "apply", "-"], input=patch, check=True)
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", tests,
                        f"--junitxml={out}"], cwd=work, capture_output=True, check=False)
    finally:
        git(repo, "worktree", "remove", "--force", str(work))
    return out


def end_to_end() -> bool:
    """On sympy: a patch to ``ordinal`` scored with results of tests that never reach it
    (PS701), then with the results of the test file that does (no PS701; the breakage is
    PS501)."""
    from bench_classify import CORPUS

    from provscore.oracle.contract import load_oracle_contract
    from provscore.pipeline import ScoreRequest, score
    from provscore.session import Session

    repo = CORPUS / "callgraph-repo-1.12"
    target = repo / "sympy/utilities/misc.py"
    text = target.read_text()
    broken = text.replace("        suffix = 'st'", "        suffix = 'th'", 1)
    assert broken != text
    target.write_text(broken)
    patch = subprocess.run(["git", "-C", str(repo), "diff"], capture_output=True,
                           check=True).stdout
    target.write_text(text)
    session = Session.load()
    ok = True
    with tempfile.TemporaryDirectory(prefix="cg-e2e-") as tmp:
        oracle = Path(tmp) / "oracle"
        oracle.mkdir()
        (oracle / "score_contract.toml").write_text("[coverage]\nmin_base_share = 0.0\n")
        for label, tests in (("unrelated", "sympy/utilities/tests/test_iterables.py"),
                             ("covering", "sympy/utilities/tests/test_misc.py")):
            results = _offtree(repo, patch, tests, Path(tmp) / f"{label}.xml")
            t = time.perf_counter()
            report = score(ScoreRequest(repo=repo, base="HEAD", diff=patch,
                                        results=(results,), oracle_dir=oracle,
                                        contract=load_oracle_contract(oracle)), session)
            secs = time.perf_counter() - t
            codes = sorted({f.code for f in report.findings})
            row = report.coverage.symbols[0] if report.coverage and \
                report.coverage.symbols else None
            print(f"| {label} results ({tests}) | {report.decision.value} | {', '.join(codes)} | "
                  f"{row.symbol if row else '-'}: {row.status if row else '-'}, "
                  f"{row.tests_with_results if row else 0}/{row.tests_total if row else 0} "
                  f"reaching tests with results | {secs:.1f} s |")
            ok &= ("PS701" in codes) == (label == "unrelated")
    return ok


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--accuracy", action="store_true", help="precision and recall only")
    ap.add_argument("--no-libcst", action="store_true", help="skip libcst.parse_module")
    ap.add_argument("--e2e", action="store_true", help="the end-to-end sympy patch only")
    ap.add_argument("--cold", action="store_true",
                    help="only ast.parse and the cold builds on sympy (no libcst, warm, e2e)")
    ap.add_argument("--rounds", type=int, default=1, help="repeat the floor and cold builds")
    ap.add_argument("--no-e2e", action="store_true", help="skip the end-to-end sympy patch")
    ap.add_argument("--code", type=Path, default=PROJECT,
                    help="build with the provscore package under this directory (e.g. a "
                         "`git archive` of the commit before a change)")
    ap.add_argument("--cases", choices=("spec", "blind", "both"), default="both",
                    help="the accuracy case sets to report (default: both, two tables)")
    ap.add_argument("--edges", action="store_true",
                    help="list every missed and false edge under each accuracy table")
    args = ap.parse_args()
    goal = True
    for which in ("spec", "blind") if args.cases == "both" else (args.cases,):
        precision, recall = accuracy(which, args.edges)
        goal &= precision >= 0.99 and recall >= 0.80
        print()
    e2e_ok = True
    if not args.accuracy and not args.e2e:
        sympy(not args.no_libcst, args.rounds, args.cold, args.code.resolve())
        print()
    if not args.accuracy and not args.cold and not args.no_e2e:
        print("| sympy patch to `ordinal` scored with | decision | codes | coverage | "
              "score time |")
        print("| --- | --- | --- | --- | ---: |")
        e2e_ok = end_to_end()
    print(f"\nmachine: {resource.getpagesize()} B pages; started {time.ctime()}")
    return 0 if goal and e2e_ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
