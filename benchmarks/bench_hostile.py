#!/usr/bin/env python3
"""What the hostile-input defences cost (docs/hostile-input.md).

Usage::

    python benchmarks/bench_hostile.py               # sympy 1.13.0 if unpacked, else the stdlib
    python benchmarks/bench_hostile.py --corpus DIR --files 300 --reps 5

1. The parse pre-check (``evidence.limits.parse_refusal``: the stdlib parse and the walk
   that bounds depth, operator chains and size) next to full classification
   (``evidence.driver.extract``), per file of the corpus, median of ``--reps``.
2. The change stage (``change.stage.read_change``) on a git repository holding the corpus
   files and a patch that edits three of them: total, and the share of git's own
   application of the diff to a temporary index (``change.applied.apply_change``).

Results are recorded by hand in benchmarks/README.md ("Hostile-input defences").
"""

from __future__ import annotations

import argparse
import functools
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from provscore.change.applied import apply_change  # noqa: E402
from provscore.change.collection import CollectionConfig  # noqa: E402
from provscore.change.git import Repo  # noqa: E402
from provscore.change.stage import read_change  # noqa: E402
from provscore.evidence.driver import extract  # noqa: E402
from provscore.evidence.limits import parse_refusal  # noqa: E402
from provscore.session import Session  # noqa: E402

SYMPY = HERE / ".corpus" / "sympy-1.13.0" / "sympy"
GIT_ENV = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@example.com",
           "GIT_COMMITTER_NAME": "b", "GIT_COMMITTER_EMAIL": "b@example.com",
           "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}


def _median(fn: Callable[[], object], reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def _corpus(root: Path, count: int) -> list[Path]:
    files = sorted(p for p in root.rglob("*.py") if "test" in p.name)
    step = max(len(files) // count, 1)
    return files[::step][:count]


def bench_precheck(files: list[Path], reps: int) -> None:
    config, tables = CollectionConfig(), Session.load().evidence_tables()
    check_total = extract_total = 0.0
    worst: list[tuple[float, str]] = []
    for path in files:
        data = path.read_bytes()
        check = _median(functools.partial(parse_refusal, data), reps)
        full = _median(functools.partial(extract, str(path), data, config, tables), reps)
        check_total += check
        extract_total += full
        worst.append((check / full if full else 0.0, path.name))
    worst.sort(reverse=True)
    print(f"pre-check: {len(files)} files, {check_total:.3f} s pre-check vs {extract_total:.3f} s "
          f"classification: +{100 * check_total / extract_total:.1f} %")
    print("  highest shares: " + ", ".join(f"{n} {100 * r:.1f} %" for r, n in worst[:3]))


def _git(root: Path, *args: str) -> bytes:
    return subprocess.run(["git", "-C", str(root), *args], check=True, capture_output=True,
                          env={**os.environ, **GIT_ENV}).stdout


def bench_change(files: list[Path], corpus: Path, reps: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        root.mkdir()
        _git(root, "init", "-q")
        for path in files:
            target = root / path.relative_to(corpus)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", "base")
        for path in files[:3]:
            target = root / path.relative_to(corpus)
            target.write_bytes(target.read_bytes().replace(b"assert", b"assert  ", 3))
        _git(root, "add", "-A")
        diff = _git(root, "diff", "--cached", "HEAD")
        _git(root, "reset", "-q", "--hard", "HEAD")
        repo = Repo(root)
        base = repo.resolve("HEAD")
        effects = Session.load().option_effects
        total = _median(lambda: read_change(Repo(root), base, None, diff, "bench", effects), reps)
        git = _median(lambda: apply_change(repo, base, diff, 1, lambda _: False), reps)
        print(f"change stage: {len(files)}-file repository, 3-file patch: read_change "
              f"{1000 * total:.1f} ms, of which git apply to a temporary index "
              f"{1000 * git:.1f} ms")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=SYMPY if SYMPY.is_dir() else
                    Path(sysconfig.get_paths()["stdlib"]))
    ap.add_argument("--files", type=int, default=200)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()
    files = _corpus(args.corpus, args.files)
    print(f"corpus: {args.corpus} ({len(files)} files with 'test' in their name)")
    bench_precheck(files, args.reps)
    bench_change(files, args.corpus, args.reps)


if __name__ == "__main__":
    main()
