#!/usr/bin/env python3
"""What does scoring one patch cost next to parsing the files it touches?

Usage::

    python benchmarks/bench_patch.py                  # 50 patches, 5 interleaved rounds
    python benchmarks/bench_patch.py --patches 20 --rounds 3
    python benchmarks/bench_patch.py --worktree       # measure the uncommitted tree
    python benchmarks/bench_patch.py --write-readme   # record the results in README.md
    python benchmarks/bench_patch.py --cpu-against REV --cache-dir DIR --patches 30

The corpus is sympy's real history between two releases (1.12 → 1.13.0, the sdists
``bench_classify.py`` downloads): a git repository at 1.12, and patches shaped like
commits — 1 to 8 files, each with 1 to 3 of the real edits (difflib opcodes) that file
received between the releases; every patch touches at least one test file. For each
patch, whole processes are timed, interleaved round by round:

- ``provscore``: ``provscore score --static-only --no-cache --format json`` on the patch;
- ``floor``: ``python -c 'import libcst'`` plus ``libcst.parse_module`` of the pre- and
  post-image of every touched test file, conftest and helper (what any libcst
  classifier must at least do);
- ``import``: ``python -c 'import libcst'`` alone.

Per patch the ratio of medians provscore / floor, and provscore's time beyond
``import libcst``; over the patches their median, p90 and max. Start-up: a patch with
nothing to classify (a README edit) against ``import libcst``. Memory: peak RSS of one
score of a small edit to a synthetic 1 MB test file (real sympy tests concatenated).
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_classify as bc  # shared corpus, git and snapshot helpers

HERE = bc.HERE
WORK = bc.CORPUS / "patches"
GOALS = {"median": 1.0, "p90": 1.3, "startup": 1.2, "memory_mib": 1024}
FLOOR = ("import sys, libcst\n"
         "for p in sys.argv[1:]:\n"
         "    libcst.parse_module(open(p, 'rb').read())\n")


@dataclass(frozen=True)
class Patch:
    name: str
    diff: Path
    parsed: tuple[Path, ...]  # pre- and post-images the floor parses
    files: int
    lines: int  # changed lines (added + removed)


def _is_test_code(rel: str) -> bool:
    base = rel.rsplit("/", 1)[-1]
    return "/tests/" in rel or base.startswith("test_") or base == "conftest.py"


def _partial(a: list[str], b: list[str], rng: random.Random) -> list[str] | None:
    """``a`` with 1–3 adjacent real edits of the a → b diff applied (a commit's worth)."""
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
           if op[0] != "equal"]
    if not ops:
        return None
    start = rng.randrange(len(ops))
    chosen = ops[start:start + rng.randint(1, 3)]
    out = list(a)
    for _tag, i1, i2, j1, j2 in reversed(chosen):  # back to front: indices stay valid
        out[i1:i2] = b[j1:j2]
    return out


def build_corpus(n: int, seed: int) -> tuple[Path, list[Patch]]:
    a, b = bc.ensure_release("1.12"), bc.ensure_release("1.13.0")
    repo = WORK / "repo"
    if not (repo / ".git").is_dir():
        shutil.rmtree(repo, ignore_errors=True)
        WORK.mkdir(parents=True, exist_ok=True)
        bc.build_repo(a, repo)
    rels = sorted(rel for _, rel in bc.python_files(a) if rel.startswith("sympy/")
                  and (b / rel).is_file() and (a / rel).read_bytes() != (b / rel).read_bytes())
    tests = [r for r in rels if _is_test_code(r)]
    prod = [r for r in rels if not _is_test_code(r)]
    rng = random.Random(seed)
    patches: list[Patch] = []
    while len(patches) < n:
        k = rng.randint(1, 8)
        n_tests = rng.randint(1, k)
        chosen = rng.sample(tests, n_tests) + rng.sample(prod, k - n_tests)
        name = f"p{len(patches):03d}"
        out = WORK / name
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        parsed: list[Path] = []
        changed = 0
        for i, rel in enumerate(chosen):
            pre = (a / rel).read_text("utf-8").splitlines(keepends=True)
            post = _partial(pre, (b / rel).read_text("utf-8").splitlines(keepends=True), rng)
            if post is None:
                continue
            (repo / rel).write_text("".join(post), "utf-8")
            changed += sum(1 for ln in difflib.unified_diff(pre, post, n=0)
                           if ln[:1] in "+-" and not ln.startswith(("+++", "---")))
            if _is_test_code(rel):
                for side, lines in (("pre", pre), ("post", post)):
                    dest = out / f"{i}.{side}.py"
                    dest.write_text("".join(lines), "utf-8")
                    parsed.append(dest)
        diff = subprocess.run(["git", "-C", str(repo), "diff", "--no-color", "--no-ext-diff"],
                              capture_output=True, check=True).stdout
        bc.git(repo, "checkout", "-q", "--", ".")
        if not diff or not parsed:
            shutil.rmtree(out)
            continue
        (out / "patch.diff").write_bytes(diff)
        patches.append(Patch(name, out / "patch.diff", tuple(parsed), len(chosen), changed))
    return repo, patches


def _run(cmd: list[str], cwd: Path) -> float:
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, cwd=cwd, env=bc._CHILD_ENV)
    elapsed = time.perf_counter() - t0
    if proc.returncode not in (0, 1, 2):
        raise SystemExit(f"bench_patch: {' '.join(cmd[:4])} ... exited {proc.returncode}: "
                         f"{proc.stderr.decode(errors='replace').strip()[-400:]}")
    return elapsed


CACHE: Path | None = None  # --cache-dir


def _score_cmd(repo: Path, diff: Path) -> list[str]:
    cache = ["--cache-dir", str(CACHE)] if CACHE is not None else ["--no-cache"]
    return [*bc.provscore_command(), "score", "--repo", str(repo), "--base", "HEAD",
            "--diff", str(diff), "--static-only", *cache, "--format", "json", "-q"]


def measure(repo: Path, patches: list[Patch], rounds: int) -> list[dict[str, float]]:
    py = sys.executable
    samples: dict[str, dict[str, list[float]]] = {
        p.name: {"provscore": [], "floor": [], "import": []} for p in patches}
    for r in range(rounds):
        for p in patches:
            s = samples[p.name]
            s["provscore"].append(_run(_score_cmd(repo, p.diff), repo))
            s["floor"].append(_run([py, "-c", FLOOR, *map(str, p.parsed)], repo))
            s["import"].append(_run([py, "-c", "import libcst"], repo))
        print(f"  round {r + 1}/{rounds} done", file=sys.stderr)
    rows = []
    for p in patches:
        med = {k: statistics.median(v) for k, v in samples[p.name].items()}
        rows.append({"patch": p.name, "files": p.files, "lines": p.lines,
                     "kib": sum(f.stat().st_size for f in p.parsed) / 1024, **med,
                     "ratio": med["provscore"] / med["floor"],
                     "beyond_import": med["provscore"] - med["import"]})
    return rows


STAGE = """
import ast, json, sys, time
import libcst
from provscore.change.collection import CollectionConfig
from provscore.evidence.driver import extract
from provscore.evidence.focus import focus_pair
from provscore.evidence.limits import checked_parse
from provscore.session import Session

tables = Session.load().evidence_tables(())
config = CollectionConfig()
rows = []
for pre_path, post_path in json.loads(sys.argv[1]):
    pre, post = open(pre_path, "rb").read(), open(post_path, "rb").read()
    rel = "tests/test_x.py"
    t0 = time.perf_counter()
    libcst.parse_module(pre); libcst.parse_module(post)
    t1 = time.perf_counter()
    extract(rel, pre, config, tables); extract(rel, post, config, tables)
    t2 = time.perf_counter()
    (_, a), (_, b) = checked_parse(pre), checked_parse(post)
    f = focus_pair(pre, post, a, b) if a is not None and b is not None else None
    fa, fb = f or (pre, post)
    extract(rel, fa, config, tables, measured=True)
    extract(rel, fb, config, tables, measured=True)
    t3 = time.perf_counter()
    rows.append([t1 - t0, t2 - t1, t3 - t2, f is not None])
print(json.dumps(rows))
"""


def stage(patches: list[Patch], rounds: int) -> list[dict[str, float]]:
    """In one process per patch: classifying its touched test files whole and focused,
    against libcst parsing them (the evidence stage alone, without git or the graph)."""
    out = []
    for p in patches:
        pairs = [(str(p.parsed[k]), str(p.parsed[k + 1])) for k in range(0, len(p.parsed), 2)]
        samples = []
        for _ in range(rounds):
            proc = subprocess.run([sys.executable, "-c", STAGE, json.dumps(pairs)],
                                  capture_output=True, text=True, env=bc._CHILD_ENV)
            if proc.returncode != 0:
                raise SystemExit(f"bench_patch: stage probe failed: {proc.stderr[-400:]}")
            rows = json.loads(proc.stdout)
            samples.append([sum(r[k] for r in rows) for k in range(3)])
        parse, whole, focused = (statistics.median(s[k] for s in samples) for k in range(3))
        out.append({"patch": p.name, "parse": parse, "whole": whole, "focused": focused,
                    "whole_ratio": whole / parse, "focused_ratio": focused / parse})
    return out


def startup(repo: Path, rounds: int) -> dict[str, float]:
    readme = next(p for p in ("README.md", "README.rst", "README.txt") if (repo / p).exists())
    path = repo / readme
    original = path.read_bytes()
    path.write_bytes(original + b"\nA note.\n")
    diff = subprocess.run(["git", "-C", str(repo), "diff"], capture_output=True,
                          check=True).stdout
    path.write_bytes(original)
    out = WORK / "startup.diff"
    out.write_bytes(diff)
    score, imp = [], []
    for _ in range(rounds * 2):
        score.append(_run(_score_cmd(repo, out), repo))
        imp.append(_run([sys.executable, "-c", "import libcst"], repo))
    return {"provscore": statistics.median(score), "import": statistics.median(imp),
            "ratio": statistics.median(score) / statistics.median(imp)}


def memory(repo_a: Path) -> dict[str, float]:
    """Peak RSS of scoring a one-line edit to a 1 MB test file (sympy tests concatenated)."""
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "r"
        repo.mkdir()
        chunks, size = [], 0
        for path, rel in bc.python_files(repo_a):
            if rel.startswith("sympy/") and "/tests/test_" in rel and size < 1_000_000:
                text = path.read_text("utf-8")
                chunks.append(text)
                size += len(text.encode())
        big = "\n\n".join(chunks)[:1_048_576]
        big = big[:big.rfind("\ndef ")] + "\n"  # end on a whole statement
        (repo / "tests").mkdir()
        (repo / "tests/test_big.py").write_text(big, "utf-8")
        bc.git(repo, "init", "-q")
        bc.git(repo, "add", "-A")
        bc.git(repo, "commit", "-qm", "base")
        lines = big.splitlines(keepends=True)
        at = next(i for i in range(len(lines) // 2, len(lines)) if lines[i].startswith("def "))
        lines.insert(at, "def test_added():\n    assert 1 + 1 == 2\n\n\n")
        (repo / "tests/test_big.py").write_text("".join(lines), "utf-8")
        diff = subprocess.run(["git", "-C", str(repo), "diff"], capture_output=True,
                              check=True).stdout
        dpath = Path(tmp) / "d.diff"
        dpath.write_bytes(diff)
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        _run(_score_cmd(repo, dpath), repo)
        peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        return {"file_kib": len(big.encode()) / 1024,
                "peak_mib": max(peak, before) / 1024}  # ru_maxrss is KiB on Linux


def memory_by_files(repo_a: Path, counts: tuple[int, ...] = (1, 8, 32)) -> list[dict[str, float]]:
    """Peak RSS of scoring a patch that adds one test to each of N real sympy test files
    (the largest first, as in ``memory``): flat in N when nothing is kept per file."""
    sources = sorted(((path.stat().st_size, rel, path) for path, rel in bc.python_files(repo_a)
                      if rel.startswith("sympy/") and "/tests/test_" in rel),
                     reverse=True)[:max(counts)]
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / "r"
        for _, rel, path in sources:
            dest = repo / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(path.read_bytes())
        bc.git(repo, "init", "-q")
        bc.git(repo, "add", "-A")
        bc.git(repo, "commit", "-qm", "base")
        for n in counts:
            for _, rel, _ in sources[:n]:
                with (repo / rel).open("a", encoding="utf-8") as f:
                    f.write("\n\ndef test_added_for_memory():\n    assert 1 + 1 == 2\n")
            diff = subprocess.run(["git", "-C", str(repo), "diff"], capture_output=True,
                                  check=True).stdout
            bc.git(repo, "checkout", "-q", "--", ".")
            dpath = Path(tmp) / f"d{n}.diff"
            dpath.write_bytes(diff)
            probe = ("import resource, subprocess, sys\n"
                     "subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL)\n"
                     "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n")
            proc = subprocess.run([sys.executable, "-c", probe, *_score_cmd(repo, dpath)],
                                  capture_output=True, text=True, cwd=repo, env=bc._CHILD_ENV)
            kib = sum(p.stat().st_size for _, _, p in sources[:n]) / 1024
            out.append({"files": n, "kib": kib, "peak_mib": int(proc.stdout.split()[-1]) / 1024})
    return out


def _cpu(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    """CPU seconds (user + system) of one process: on a machine others load too, a
    steadier measure than its wall clock."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(cmd, capture_output=True, cwd=cwd, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1, 2):
        raise SystemExit(f"bench_patch: {' '.join(cmd[:4])} ... exited {proc.returncode}: "
                         f"{proc.stderr.decode(errors='replace').strip()[-400:]}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def stored_patches(n: int) -> list[Patch]:
    """The first ``n`` patches of the corpus as an earlier run left them (read, never
    rebuilt: other runs may be reading them)."""
    out = []
    for d in sorted(WORK.glob("p[0-9][0-9][0-9]"))[:n]:
        diff = d / "patch.diff"
        if diff.is_file():
            parsed = tuple(sorted(d.glob("*.p*.py")))
            files = sum(1 for ln in diff.read_bytes().splitlines() if ln.startswith(b"diff --git"))
            out.append(Patch(d.name, diff, parsed, files, 0))
    if not out:
        raise SystemExit(f"bench_patch: no patches under {WORK}: run without --cpu-against "
                         "once to build the corpus")
    return out


def cpu_against(old_rev: str, new_env: dict[str, str], n: int, rounds: int,
                cache: Path) -> list[dict[str, float]]:
    """Paired CPU seconds per patch: provscore at ``old_rev``, the provscore under test,
    and the floor, interleaved round by round, each provscore with its own warm cache."""
    # Outside the corpus directory: it may be shared (a symlink) with other checkouts.
    code = Path(tempfile.mkdtemp(prefix="bench-patch-old-")) / "code"
    old_env = dict(bc._CHILD_ENV)
    try:
        bc.snapshot_provscore(code, False, old_rev)
        old_env, bc._CHILD_ENV = dict(bc._CHILD_ENV), old_env
        repo = WORK / "repo"
        patches = stored_patches(n)
        envs = {"old": old_env, "new": new_env}

        def cmd(which: str, p: Patch) -> list[str]:
            return [sys.executable, "-m", "provscore", "score", "--repo", str(repo), "--base",
                    "HEAD", "--diff", str(p.diff), "--static-only", "--cache-dir",
                    str(cache / which), "--format", "json", "-q"]

        for which, env in envs.items():  # warm each cache: the base graph stored
            _cpu(cmd(which, patches[0]), repo, env)
        samples: dict[str, dict[str, list[float]]] = {
            p.name: {"old": [], "new": [], "floor": []} for p in patches}
        # Start-up: the README edit of the last full run, against `import libcst` alone.
        readme = WORK / "startup.diff"
        start = Patch("startup", readme, (), 1, 0) if readme.is_file() else None
        for r in range(rounds):
            for p in [*patches, *([start] if start else [])]:
                for which, env in envs.items():
                    samples.setdefault(p.name, {"old": [], "new": [], "floor": []})
                    samples[p.name][which].append(_cpu(cmd(which, p), repo, env))
                samples[p.name]["floor"].append(
                    _cpu([sys.executable, "-c", FLOOR, *map(str, p.parsed)], repo, new_env))
            print(f"  round {r + 1}/{rounds} done", file=sys.stderr)
    finally:
        shutil.rmtree(code.parent, ignore_errors=True)
    rows = []
    for p in [*patches, *([start] if start else [])]:
        med = {k: statistics.median(v) for k, v in samples[p.name].items()}
        rows.append({"patch": p.name, "files": p.files, **med,
                     "new_old": med["new"] / med["old"], "old_floor": med["old"] / med["floor"],
                     "new_floor": med["new"] / med["floor"]})
    return rows


def cpu_summary(rows: list[dict[str, float]]) -> str:
    start = next((r for r in rows if r["patch"] == "startup"), None)
    rows = [r for r in rows if r["patch"] != "startup"]
    lines = ["| CPU seconds, paired per patch | median | p90 | max |",
             "| --- | --- | --- | --- |"]
    for key, label in (("old_floor", "before / floor"), ("new_floor", "after / floor"),
                       ("new_old", "after / before")):
        values = [r[key] for r in rows]
        lines.append(f"| {label} | {statistics.median(values):.2f}× | {_q(values, 0.9):.2f}× "
                     f"| {max(values):.2f}× |")
    if start is not None:
        lines += ["", f"Start-up (the README edit), CPU: before {start['old']:.3f} s, after "
                      f"{start['new']:.3f} s, `import libcst` {start['floor']:.3f} s: "
                      f"{start['old_floor']:.2f}× → **{start['new_floor']:.2f}×**."]
    return "\n".join(lines)


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def stage_summary(rows: list[dict[str, float]]) -> str:
    lines = ["| evidence stage / libcst parse of the touched test files | median | p90 | max |",
             "| --- | --- | --- | --- |"]
    for key, label in (("whole_ratio", "whole files"), ("focused_ratio", "focused")):
        values = [r[key] for r in rows]
        lines.append(f"| {label} | {statistics.median(values):.2f}× | {_q(values, 0.9):.2f}× "
                     f"| {max(values):.2f}× |")
    return "\n".join(lines)


def summary(rows: list[dict[str, float]], start: dict[str, float], mem: dict[str, float],
            by_files: list[dict[str, float]] | None = None) -> str:
    if not rows:
        return ""
    ratios = [r["ratio"] for r in rows]
    beyond = [r["beyond_import"] for r in rows]
    lines = [
        "| | median | p90 | max | goal |",
        "| --- | --- | --- | --- | --- |",
        f"| provscore / floor | {statistics.median(ratios):.2f}× | {_q(ratios, 0.9):.2f}× | "
        f"{max(ratios):.2f}× | median ≤ {GOALS['median']}×, p90 ≤ {GOALS['p90']}× |",
        f"| time beyond `import libcst` | {statistics.median(beyond):.2f} s | "
        f"{_q(beyond, 0.9):.2f} s | {max(beyond):.2f} s | |",
        "",
        f"Start-up (a README edit, nothing to classify): {start['provscore']:.3f} s against "
        f"`import libcst` {start['import']:.3f} s = **{start['ratio']:.2f}×** "
        f"(goal ≤ {GOALS['startup']}×).",
        "",
        f"Memory: one score of a one-test edit to a {mem['file_kib']:.0f} KiB test file peaks at "
        f"**{mem['peak_mib']:.0f} MiB** RSS (goal < {GOALS['memory_mib']} MiB).",
    ]
    if by_files:
        lines += ["", "| test files the patch touches | their size | peak RSS |",
                  "| ---: | ---: | ---: |"]
        lines += [f"| {r['files']} | {r['kib']:.0f} KiB | {r['peak_mib']:.0f} MiB |"
                  for r in by_files]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--patches", type=int, default=50)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--rev", default="HEAD", help="the provscore commit to measure")
    ap.add_argument("--worktree", action="store_true", help="measure the working tree")
    ap.add_argument("--json", type=Path, help="write per-patch rows here")
    ap.add_argument("--stage-only", action="store_true",
                    help="measure the evidence stage alone (in-process), not whole processes")
    ap.add_argument("--cache-dir", type=Path,
                    help="whole processes use this call-graph cache, warmed by one untimed "
                         "score first (default: --no-cache, every process builds the graph)")
    ap.add_argument("--cpu-against", metavar="REV",
                    help="paired CPU seconds of whole score processes, provscore at REV "
                         "against the one under test, on the corpus an earlier run built "
                         "(needs --cache-dir; read, never rebuilt)")
    args = ap.parse_args()
    if args.cpu_against:
        if args.cache_dir is None:
            ap.error("--cpu-against needs --cache-dir")
        code = Path(tempfile.mkdtemp(prefix="bench-patch-new-")) / "code"
        try:
            described = bc.snapshot_provscore(code, args.worktree, args.rev)
            print(f"measuring {described} against {args.cpu_against}", file=sys.stderr)
            cpu_rows = cpu_against(args.cpu_against, dict(bc._CHILD_ENV), args.patches,
                                   args.rounds, args.cache_dir)
        finally:
            shutil.rmtree(code.parent, ignore_errors=True)
        if args.json:
            args.json.write_text(json.dumps({"code": described, "against": args.cpu_against,
                                             "rows": cpu_rows}, indent=1))
        print(f"provscore under test: {described}, against {args.cpu_against}; load average "
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
        print(cpu_summary(cpu_rows))
        return
    code = WORK.parent / f"code-patch-{os.getpid()}"
    shutil.rmtree(code, ignore_errors=True)
    described = bc.snapshot_provscore(code, args.worktree, args.rev)
    try:
        repo, patches = build_corpus(args.patches, args.seed)
        print(f"measuring {described}: {len(patches)} patches x {args.rounds} rounds",
              file=sys.stderr)
        staged = stage(patches, args.rounds)
        rows: list[dict[str, float]] = []
        start: dict[str, float] = {}
        mem: dict[str, float] = {}
        by_files: list[dict[str, float]] = []
        if not args.stage_only:
            global CACHE
            CACHE = args.cache_dir
            if CACHE is not None:
                _run(_score_cmd(repo, patches[0].diff), repo)  # warm the graph cache
            rows = measure(repo, patches, args.rounds)
            start = startup(repo, args.rounds)
            mem = memory(bc.ensure_release("1.12"))
            by_files = memory_by_files(bc.ensure_release("1.12"))
    finally:
        shutil.rmtree(code, ignore_errors=True)
    if args.json:
        args.json.write_text(json.dumps({"code": described, "rows": rows, "startup": start,
                                         "memory": mem, "memory_by_files": by_files,
                                         "stage": staged}, indent=1))
    print(f"provscore under test: {described}; load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores\n")
    print(stage_summary(staged) + "\n")
    print(summary(rows, start, mem, by_files))


if __name__ == "__main__":
    main()
