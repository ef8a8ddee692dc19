"""Throughput and memory of ``provscore batch`` (issue 14).

The corpus (batch_corpus.py): five real projects, one commit per release, bare mirrors,
and SWE-bench-shaped predictions of one "agent" per kind of patch (real release diffs cut
into 1-5 files, rule-made tampering and honest look-alikes on real test files). Each run
is a fresh ``python -m provscore batch`` process over every prediction file into a new
results database:

* ``-j 1`` and ``-j 2``, each **cold** (an empty call-graph summary cache) or **warm**
  (the cache the first cold run filled, and a new database, so every patch is scored
  again);
* memory: warm (``--memory-jobs``, default 1) on shares of the patches (peak RSS of the
  largest process: the batch process or a worker), which stays flat when nothing is
  loaded whole; or (``--memory-repeat``) on the same patches repeated K times under new
  model names, so that the count grows while the mix of repositories and patch shapes
  stays the same: the clean test of "memory flat as the number of patches grows".

    python benchmarks/bench_batch.py                  # build the corpus if absent, run all
    python benchmarks/bench_batch.py --limit 2000     # the first 2,000 patches only
    python benchmarks/bench_batch.py --only j2-cold,j2-warm --memory ""   # some runs
    python benchmarks/bench_batch.py --limit 2000 --only j2-cold,j2-warm \
        --memory 0.125,0.25,0.5 --memory-jobs 2   # 250, 500, 1,000 (and 2,000) patches
    python benchmarks/bench_batch.py --limit 400 --only "" --memory "" \
        --memory-repeat 1,2,4 --memory-jobs 2   # 400, 800, 1,600 patches, the same mix
    python benchmarks/bench_batch.py --limit 300 --profile worker.prof   # where time goes
    python benchmarks/bench_batch.py --rows-of cold.sqlite --cache CACHE_DIR \
        --only j2-warm,j1-warm --memory ""       # warm on what an interrupted run scored
    python benchmarks/bench_batch.py --limit 2000 --only j2-cold --memory "" \
        --keep KEEP_DIR      # keep the cold run's database and cache for warm runs later

Patches per second are wall-clock over the whole command (planning, scoring, writing);
the per-patch median comes from the rows' ``seconds`` column. CPU seconds are the user
and system time of the command and everything it waited for (workers, git): on a shared
machine the wall clock shows the load, CPU seconds per patch the work. Results are printed as a
Markdown table to paste into benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
CORPUS = PROJECT / "benchmarks" / ".corpus" / "batch"
# Runs the command; prints the CPU seconds of everything it waited for and the peak RSS
# (KiB) of the largest such process.
_MEASURE = ("import resource, subprocess, sys\n"
            "rc = subprocess.run(sys.argv[1:]).returncode\n"
            "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "print(u.ru_utime + u.ru_stime, u.ru_maxrss)\n"
            "sys.exit(rc)\n")


def corpus() -> Path:
    if not (CORPUS / "instances.jsonl").is_file():
        sys.path.insert(0, str(PROJECT / "benchmarks"))
        from batch_corpus import build_corpus

        CORPUS.mkdir(parents=True, exist_ok=True)
        print(json.dumps(build_corpus(CORPUS)), file=sys.stderr)
    return CORPUS


def subset(root: Path, limit: int | None, out: Path) -> list[Path]:
    """The prediction files cut to their first ``limit`` rows in all (round robin)."""
    files = sorted((root / "preds").glob("*.jsonl"))
    if limit is None:
        return files
    rows = {f: f.read_text(encoding="utf-8").splitlines() for f in files}
    take = {f: 0 for f in files}
    left = limit
    while left > 0 and any(take[f] < len(rows[f]) for f in files):
        for f in files:
            if left and take[f] < len(rows[f]):
                take[f] += 1
                left -= 1
    out.mkdir(parents=True, exist_ok=True)
    cut = []
    for f in files:
        if take[f]:
            (out / f.name).write_text("\n".join(rows[f][:take[f]]) + "\n", encoding="utf-8")
            cut.append(out / f.name)
    return cut


def repeated(preds: list[Path], times: int, out: Path) -> list[Path]:
    """``preds`` written ``times`` over, each copy under its own model name (and so its own
    rows): more patches, the same repositories and patch shapes in the same proportions."""
    out.mkdir(parents=True, exist_ok=True)
    copies = []
    for f in preds:
        rows = [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines()]
        for k in range(times):
            copy = out / f"{f.stem}-copy{k}.jsonl"
            copy.write_text("".join(json.dumps({**r, "model_name_or_path":
                                                f"{r['model_name_or_path']}-copy{k}"}) + "\n"
                                    for r in rows), encoding="utf-8")
            copies.append(copy)
    return copies


def only_rows_of(db: Path, preds: list[Path], out: Path) -> list[Path]:
    con = sqlite3.connect(db)
    done = {r[0] for r in con.execute("SELECT instance_id FROM patches")}
    con.close()
    out.mkdir(parents=True, exist_ok=True)
    kept = []
    for f in preds:
        lines = [line for line in f.read_text(encoding="utf-8").splitlines()
                 if json.loads(line)["instance_id"] in done]
        if lines:
            (out / f.name).write_text("\n".join(lines) + "\n", encoding="utf-8")
            kept.append(out / f.name)
    return kept


def run_batch(root: Path, preds: list[Path], db: Path, cache: Path, jobs: int
              ) -> dict[str, float]:
    cmd = [sys.executable, "-c", _MEASURE, sys.executable, "-m", "provscore", "batch",
           *map(str, preds), "--instances", str(root / "instances.jsonl"), "--repos",
           str(root / "mirrors"), "--db", str(db), "--cache-dir", str(cache), "-j",
           str(jobs), "--progress", "none"]
    env = {**os.environ, "PYTHONPATH": str(PROJECT)}
    started = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, check=False)
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise SystemExit(f"batch failed ({proc.returncode}): {proc.stderr.strip()}")
    con = sqlite3.connect(db)
    rows = con.execute("SELECT status, files, seconds FROM patches").fetchall()
    con.close()
    typical = [s for st, f, s in rows if st == "scored" and 1 <= f <= 5]
    cpu, rss = proc.stdout.split()[-2:]
    return {"patches": len(rows), "scored": sum(st == "scored" for st, _, _ in rows),
            "typical": len(typical), "wall": wall, "rate": len(rows) / wall,
            "median_ms": 1000 * statistics.median(typical) if typical else 0.0,
            "p95_ms": 1000 * sorted(typical)[int(0.95 * (len(typical) - 1))] if typical
            else 0.0, "cpu": float(cpu), "rss_mb": int(rss) / 1024,
            "load": os.getloadavg()[0]}


CONFIGS = ("j1-cold", "j1-warm", "j2-cold", "j2-warm")


def row(name: str, r: dict[str, float], load: float) -> str:
    return (f"| {name} | {r['patches']:.0f} | {r['scored']:.0f} | {r['wall']:.1f} | "
            f"{r['rate']:.2f} | {r['cpu']:.0f} | {1000 * r['cpu'] / r['patches']:.0f} | "
            f"{r['median_ms']:.0f} | {r['p95_ms']:.0f} | {r['rss_mb']:.0f} | "
            f"{load:.1f} → {r['load']:.1f} |")


def profile(root: Path, preds: list[Path], work: Path, out: Path, cache: Path) -> None:
    """cProfile of one worker: ``-j 1`` in this process, warm (a first pass fills the
    cache, unprofiled), every prediction of ``preds``; the top of the cumulative table."""
    import cProfile
    import pstats

    from provscore.batch import BatchRequest
    from provscore.batch import run_batch as batch

    def request(db: str) -> BatchRequest:
        return BatchRequest(tuple(preds), root / "instances.jsonl", root / "mirrors",
                            work / db, cache_path=cache / "callgraph.sqlite")

    batch(request("fill.sqlite"))
    prof = cProfile.Profile()
    prof.enable()
    summary = batch(request("profiled.sqlite"))
    prof.disable()
    prof.dump_stats(out)
    print(f"{summary.written} patches profiled (warm): {out}", file=sys.stderr)
    pstats.Stats(str(out)).sort_stats("cumulative").print_stats(40)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, help="score only the first N predictions")
    ap.add_argument("--only", help="comma-separated configurations, run in that order: "
                                   f"{', '.join(CONFIGS)} (warm: on the cache the first cold "
                                   "run filled; empty: none, only the memory rows)")
    ap.add_argument("--memory", default="0.25,0.5,1.0",
                    help="shares of the patches scored warm for the memory rows "
                         "(default 0.25,0.5,1.0; empty: none)")
    ap.add_argument("--memory-repeat", default="", metavar="K,...",
                    help="memory rows on the patches repeated K times each (e.g. 1,2,4): "
                         "the count grows, the mix does not")
    ap.add_argument("--memory-jobs", type=int, default=1,
                    help="-j of the memory rows (default 1)")
    ap.add_argument("--rows-of", metavar="DB", help="score only the predictions this "
                    "results database has rows for (e.g. an interrupted cold run's)")
    ap.add_argument("--cache", metavar="DIR", help="a filled summary cache: every run is "
                    "warm on it (with --rows-of: the cache that run filled)")
    ap.add_argument("--keep", metavar="DIR", type=Path, help="copy each run's results "
                    "database and each cold run's cache into DIR (for later --rows-of / "
                    "--cache runs)")
    ap.add_argument("--profile", metavar="OUT", type=Path, help="instead of the runs: "
                    "cProfile one worker (-j 1, warm, in this process) into OUT")
    args = ap.parse_args()
    root = corpus()
    work = Path(tempfile.mkdtemp(prefix="bench-batch-"))
    try:
        preds = subset(root, args.limit, work / "preds")
        if args.rows_of:
            preds = only_rows_of(Path(args.rows_of), preds, work / "preds-of-db")
        warm = work / "cache-warm"  # filled by the first cold run (or --cache)
        if args.cache:
            shutil.copytree(args.cache, warm)
        if args.profile:
            sys.path.insert(0, str(PROJECT))
            profile(root, preds, work, args.profile, warm)
            return
        total = sum(len(p.read_text(encoding="utf-8").splitlines()) for p in preds)
        head = subprocess.run(["git", "-C", str(PROJECT), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=False).stdout.strip()
        print(f"{total} predictions in {len(preds)} files; provscore at {head}; "
              f"{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.1f} at start "
              "(shared: other work may run at the same time)", file=sys.stderr)
        lines = ["| run | patches | scored | wall s | patches/s | CPU s | CPU ms / patch | "
                 "median ms (1-5 files) | p95 ms | peak RSS MB | load average |",
                 "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"]

        def measure(name: str, cut: list[Path], jobs: int, cold: bool) -> None:
            slug = "".join(c if c.isalnum() else "-" for c in name)
            cache = work / f"cache-{slug}" if cold else warm
            if not cold and not warm.exists():  # no cold run before: fill it first
                run_batch(root, preds, work / f"fill-{slug}.sqlite", warm, jobs)
            load = os.getloadavg()[0]
            lines.append(row(name, run_batch(root, cut, work / f"{slug}.sqlite", cache,
                                             jobs), load))
            if args.keep:
                args.keep.mkdir(parents=True, exist_ok=True)
                shutil.copy2(work / f"{slug}.sqlite", args.keep / f"{slug}.sqlite")
                if cold:
                    shutil.copytree(cache, args.keep / f"cache-{slug}", dirs_exist_ok=True)
            if cold and not warm.exists():
                shutil.copytree(cache, warm)
            print(lines[-1], file=sys.stderr, flush=True)

        for name in (filter(None, args.only.split(",")) if args.only is not None
                     else CONFIGS):  # --only "": the memory rows alone
            jobs, phase = int(name[1]), name.split("-")[1]
            measure(f"-j {jobs} {phase}", preds, jobs, phase == "cold")
        for share in filter(None, args.memory.split(",")):
            count = int(total * float(share))
            measure(f"memory: -j {args.memory_jobs} warm, {count} patches",
                    subset(root, count, work / f"preds-{share}"), args.memory_jobs, False)
        for times in map(int, filter(None, args.memory_repeat.split(","))):
            measure(f"memory: -j {args.memory_jobs} warm, {total} patches x {times}",
                    repeated(preds, times, work / f"preds-x{times}"), args.memory_jobs, False)
        print("\n".join(lines))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
