#!/usr/bin/env python3
"""How much does provscore's classification cost next to plain parsing?

Usage::

    python benchmarks/bench_classify.py                 # sympy 1.12 → 1.13.0, full run
    python benchmarks/bench_classify.py --quick         # a size-stratified sample, minutes
    python benchmarks/bench_classify.py --corpus DIR    # per-file part on any tree
    python benchmarks/bench_classify.py --write-readme  # also record results in README.md

Per unique file image (duplicates by content are measured once) and per method —
``ast.parse`` (the floor), ``libcst.parse_module``, provscore's ``extract`` (full
classification) and a regex line classifier (the shallow baseline) — the median of
``--reps`` timings. Every measurement runs in a worker process with an address-space
limit and a per-file time budget, so a file that makes a method explode is recorded
as a failure instead of taking the machine down. See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import datetime
import functools
import gc
import hashlib
import importlib.metadata
import json
import math
import os
import platform
import queue
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from tabulate import tabulate

HERE = Path(__file__).resolve().parent
PROJECT = HERE.parent
CORPUS = HERE / ".corpus"
README = HERE / "README.md"
RELEASE_A, RELEASE_B = "1.12", "1.13.0"
DEEP_FILE = "sympy/polys/numberfields/resolvent_lookup.py"  # ~570 nesting levels
# The goal: classifying a file costs at most GOAL times its parse_module.
GOAL = 2.0
BUCKETS: tuple[tuple[str, int, float], ...] = (
    ("<2KB", 0, 2 * 1024), ("2–10KB", 2 * 1024, 10 * 1024),
    ("10–50KB", 10 * 1024, 50 * 1024), (">50KB", 50 * 1024, math.inf))
METHODS = ("ast", "cst", "cst_nogc", "extract", "regex")
SCHEMA = 2  # bump when what a checkpoint row holds changes
MARK_START, MARK_END = "<!-- results:start -->", "<!-- results:end -->"

# The shallow baseline: the seed article's ASSERT_RE without its diff-line anchor (^\+),
# applied to every line of the file.
ASSERT_RE = re.compile(r"\b(assert |self\.assert|expect\(|should\(|@given)\b")

_DEEP_STACK = 512 * 1024 * 1024  # the same stack provscore's extract() runs in
_DEEP_LIMIT = 60_000


# =========================================================================== worker side

def _limit_memory(gib: float) -> None:
    if gib > 0:
        limit = int(gib * 1024 ** 3)
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))


def _deep(fn: Callable[[], None]) -> None:
    """Run ``fn`` with a big stack and recursion limit, as extract() does for itself."""
    threading.stack_size(_DEEP_STACK)
    sys.setrecursionlimit(_DEEP_LIMIT)
    errors: list[BaseException] = []

    def run() -> None:
        try:
            fn()
        except BaseException as exc:  # reported by the caller
            errors.append(exc)

    thread = threading.Thread(target=run, name="bench-deep")
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def _timed(fn: Callable[[], object]) -> float:
    """Seconds for one call, including freeing its result (any caller pays that too)."""
    gc.collect()
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def _parse_gc_paused(source: bytes) -> object:
    """parse_module with the cyclic GC paused, as extract() parses (a fairer floor)."""
    import libcst

    gc.disable()
    try:
        return libcst.parse_module(source)
    finally:
        gc.enable()


def _regex_classify(source: bytes) -> int:
    text = source.decode("utf-8", "replace")
    return sum(1 for line in text.splitlines() if ASSERT_RE.search(line))


def _error_text(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:160] if text else ''}".rstrip(": ")


def _worker_out() -> IO[str]:
    """The protocol channel: a private copy of stdout; stray prints go to stderr."""
    out = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    return out


def _measure_cheap(parsers: dict[str, Callable[[], object]], reps: int) -> dict[str, Any]:
    import libcst

    cheap: dict[str, Any] = {"phase": "cheap"}
    for _ in range(reps):  # interleaved, so drift hits every method alike
        for name, fn in parsers.items():
            if cheap.get(f"{name}_error"):
                continue
            try:
                cheap.setdefault(name, []).append(_timed(fn))
            except (SyntaxError, ValueError, RecursionError, MemoryError,
                    libcst.ParserSyntaxError) as exc:
                cheap[f"{name}_error"] = _error_text(exc)
                cheap.pop(name, None)
    hits = parsers["regex"]()
    cheap["regex_hits"] = hits
    return cheap


def _measure_extract(classify: Callable[[], Any], reps: int) -> dict[str, Any]:
    result: dict[str, Any] = {"phase": "extract", "extract": []}
    for _ in range(reps):
        gc.collect()
        t0 = time.perf_counter()
        ev = classify()  # frees its own tree; only the small FileEvidence outlives the timing
        result["extract"].append(time.perf_counter() - t0)
        result.update(error=ev.error, error_line=ev.error_line, items=len(ev.items),
                      suppressions=len(ev.suppressions), tests=len(ev.tests),
                      helpers=len(ev.helpers))
        del ev
        if result["error"]:
            break  # a failure is recorded once; its time is not a classification
    return result


def _classifier() -> tuple[Callable[..., Any], Any, Any]:
    """``extract`` and its inputs, for the provscore under test (``--rev`` may name a
    commit from before the stage packages, whose API differed)."""
    try:
        from provscore.change.collection import CollectionConfig
        from provscore.evidence import extract
        from provscore.session import Session
    except ImportError:
        from provscore.evidence import CollectionConfig, Tables, extract  # type: ignore

        return extract, CollectionConfig(), Tables.load()
    return extract, CollectionConfig(), Session.load().evidence_tables()


def worker_main(mem_gib: float) -> None:
    """Measure files named on stdin (JSON lines); answer on stdout (JSON lines)."""
    _limit_memory(mem_gib)
    out = _worker_out()

    def serve() -> None:
        import libcst

        extract, config, tables = _classifier()
        for line in sys.stdin:
            req = json.loads(line)
            path, rel, reps = Path(req["path"]), req["rel"], int(req["reps"])
            source = path.read_bytes()
            parsers: dict[str, Callable[[], object]] = {
                "ast": functools.partial(ast.parse, source),
                "cst": functools.partial(libcst.parse_module, source),
                "cst_nogc": functools.partial(_parse_gc_paused, source),
                "regex": functools.partial(_regex_classify, source),
            }
            out.write(json.dumps(_measure_cheap(parsers, reps)) + "\n")
            classify = functools.partial(extract, rel, source, config, tables)
            out.write(json.dumps(_measure_extract(classify, reps)) + "\n")

    _deep(serve)


def probe_memory(method: str, path: str, traced: bool, mem_gib: float) -> None:
    """In a fresh process: the memory one call of ``method`` on ``path`` needs."""
    _limit_memory(mem_gib)
    out = _worker_out()
    import tracemalloc

    import libcst

    extract, config, tables = _classifier()
    source = Path(path).read_bytes()
    report: dict[str, Any] = {}

    def run() -> None:
        gc.collect()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        if traced:
            tracemalloc.start()
        t0 = time.perf_counter()
        if method == "cst":
            tree: object = libcst.parse_module(source)
        else:
            ev = extract(path, source, config, tables)
            report["error"] = ev.error
            tree = ev
        report["seconds"] = time.perf_counter() - t0
        if traced:
            report["traced_peak"] = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        del tree
        report["maxrss_before"] = before * 1024
        report["maxrss_after"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024

    _deep(run)
    out.write(json.dumps(report) + "\n")


def probe_static(repo: str, patch: str, reps: int, mem_gib: float) -> None:
    """In a fresh process: time ``pipeline.run_static`` on a patch (interpreter excluded)."""
    _limit_memory(mem_gib)
    out = _worker_out()
    from provscore.pipeline import ScoreRequest, run_static

    try:  # one session per process, as the CLI keeps one (the old API cached its registry)
        from provscore.session import Session

        static_args: tuple[Any, ...] = (Session.load(),)
    except ImportError:
        static_args = ()
    diff = Path(patch).read_bytes()
    samples: list[float] = []
    files = ps903 = 0
    errors: list[str] = []
    for _ in range(reps):
        req = ScoreRequest(repo=Path(repo), base="HEAD", diff=diff, diff_origin=patch)
        gc.collect()
        t0 = time.perf_counter()
        static = run_static(req, *static_args)
        samples.append(time.perf_counter() - t0)
        files = len(static.changes.files)
        bad = [f for f in static.findings if f.code == "PS903"]
        ps903 = len(bad)
        errors = [f"{f.location.path if f.location else '?'}: {f.message}" for f in bad]
        del static
    out.write(json.dumps({"samples": samples, "files": files, "ps903": ps903,
                          "errors": errors}) + "\n")


# =========================================================================== parent side

@dataclass
class FileResult:
    rel: str
    size: int
    is_test: bool
    duplicates: int = 0
    ast: float | None = None
    cst: float | None = None
    cst_nogc: float | None = None
    extract: float | None = None
    regex: float | None = None
    regex_hits: int = 0
    items: int = 0
    suppressions: int = 0
    tests: int = 0
    ast_error: str | None = None
    cst_error: str | None = None
    error: str | None = None  # FileEvidence.error: provscore failed closed (PS903)
    failure: str | None = None  # the worker timed out or died: provscore did not return
    samples: dict[str, list[float]] = field(default_factory=dict)

    @property
    def ratio(self) -> float | None:
        if self.extract is None or not self.cst or self.error or self.failure:
            return None
        return self.extract / self.cst


class Worker:
    """A measuring subprocess with a memory limit; killed and replaced when over budget."""

    def __init__(self, mem_gib: float, log: Path) -> None:
        self.mem_gib, self.log = mem_gib, log
        self.proc: subprocess.Popen[str] | None = None
        self.lines: queue.Queue[str | None] = queue.Queue()

    def _start(self) -> subprocess.Popen[str]:
        if self.proc is None or self.proc.poll() is not None:
            self.lines = queue.Queue()
            logf = self.log.open("a")
            self.proc = subprocess.Popen(
                [sys.executable, str(Path(__file__).resolve()), "--_worker",
                 "--mem-limit-gb", str(self.mem_gib)],
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=logf, text=True,
                cwd=CORPUS, env=_CHILD_ENV)
            logf.close()
            stdout, lines = self.proc.stdout, self.lines
            assert stdout is not None

            def pump() -> None:
                for line in stdout:
                    lines.put(line)
                lines.put(None)

            threading.Thread(target=pump, daemon=True).start()
        return self.proc

    def send(self, request: dict[str, Any]) -> None:
        proc = self._start()
        assert proc.stdin is not None
        proc.stdin.write(json.dumps(request) + "\n")
        proc.stdin.flush()

    def receive(self, timeout: float) -> dict[str, Any] | str:
        """One answer, or why there is none ("timeout ...", "died ...")."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            return f"timeout: no result within {timeout:.0f} s (worker killed)"
        if line is None:
            assert self.proc is not None
            code = self.proc.wait()
            self.proc = None
            what = f"signal {-code}" if code < 0 else f"exit {code}"
            return f"worker died ({what}); log: {self.log}"
        answer: dict[str, Any] = json.loads(line)
        return answer

    def stop(self) -> None:
        if self.proc is not None:
            if self.proc.poll() is None:
                self.proc.kill()
            self.proc.wait()
            self.proc = None


def measure_files(files: Sequence[tuple[Path, str, int]], reps: int, timeout: float,
                  mem_gib: float, log: Path, checkpoint: Path) -> list[FileResult]:
    """Measure each file; every result is appended to ``checkpoint`` as it comes, and a
    rerun with the same code and options reuses what is there (a long run can resume)."""
    done: dict[str, FileResult] = {}
    if checkpoint.exists():
        for line in checkpoint.read_text(encoding="utf-8").splitlines():
            with contextlib.suppress(ValueError, TypeError):
                row = FileResult(**json.loads(line))
                done[row.rel] = row
        print(f"  resuming: {len(done)} files already measured in {checkpoint}",
              file=sys.stderr)
    worker = Worker(mem_gib, log)
    results: list[FileResult] = []
    started = time.perf_counter()
    try:
        for n, (path, rel, dups) in enumerate(files, 1):
            size = path.stat().st_size
            if rel in done and done[rel].size == size:
                results.append(done[rel])
                continue
            res = FileResult(rel, size, "test" in rel, dups)
            results.append(res)
            worker.send({"path": str(path), "rel": rel, "reps": reps})
            for phase in ("cheap", "extract"):
                answer = worker.receive(timeout)
                if isinstance(answer, str):
                    res.failure = f"{phase}: {answer}"
                    break
                for name in METHODS:
                    if name in answer:
                        res.samples[name] = answer[name]
                        setattr(res, name, statistics.median(answer[name]))
                for key in ("ast_error", "cst_error", "error", "regex_hits", "items",
                            "suppressions", "tests"):
                    if key in answer:
                        setattr(res, key, answer[key])
            with checkpoint.open("a", encoding="utf-8") as fh:
                fh.write(json.dumps(asdict(res)) + "\n")
            if res.failure or res.error or n % 50 == 0 or n == len(files):
                note = res.failure or res.error or ""
                print(f"  [{n}/{len(files)} {time.perf_counter() - started:6.0f}s] {rel} "
                      f"{note}", file=sys.stderr, flush=True)
    finally:
        worker.stop()
    return results


def run_child(args: list[str], timeout: float) -> dict[str, Any] | str:
    """Run this script in a probe mode; its one JSON line, or why there is none."""
    try:
        proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), *args],
                              capture_output=True, text=True, timeout=timeout, cwd=CORPUS,
                              env=_CHILD_ENV)
    except subprocess.TimeoutExpired:
        return f"timeout after {timeout:.0f} s"
    if proc.returncode != 0 or not proc.stdout.strip():
        tail = proc.stderr.strip().splitlines()[-1:] or [""]
        return f"exit {proc.returncode}: {tail[0][:200]}"
    answer: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return answer


# --------------------------------------------------------------------------- code under test

_CHILD_ENV: dict[str, str] = dict(os.environ)


def snapshot_provscore(dest: Path, worktree: bool, rev: str = "HEAD") -> str:
    """Freeze the provscore every measuring process imports; describe what was frozen.

    provscore is edited while a long run goes on; without a snapshot, a worker restarted
    after a timeout would measure different code. Default: the committed HEAD
    (``git archive``; ``--rev`` another commit); ``--worktree``: the working tree.
    """
    dest.mkdir(parents=True)
    commit = ""
    if not worktree:
        try:
            commit = git(PROJECT, "rev-parse", "--short", f"{rev}^{{commit}}").strip()
        except (subprocess.CalledProcessError, OSError) as exc:
            if rev != "HEAD":
                raise SystemExit(f"bench_classify: --rev {rev}: not a commit of {PROJECT}"
                                 ) from exc
            # not a git checkout: measure the working tree
    if commit:
        archive = subprocess.run(["git", "-C", str(PROJECT), "archive", "--format=tar",
                                  commit, "provscore", "rules"], capture_output=True,
                                 check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    else:
        for name in ("provscore", "rules"):
            shutil.copytree(PROJECT / name, dest / name,
                            ignore=shutil.ignore_patterns("__pycache__"))
    # Byte-code compiled as an install leaves it (pip compiles every module; the floor's
    # libcst is so installed): where PYTHONDONTWRITEBYTECODE is set, each measured process
    # would otherwise compile all of provscore from source.
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(dest / "provscore")],
                   check=True, capture_output=True)
    digest = hashlib.sha256()
    for path in sorted((dest / "provscore").rglob("*.py")):
        digest.update(path.relative_to(dest).as_posix().encode() + b"\0" + path.read_bytes())
    _CHILD_ENV["PYTHONPATH"] = os.pathsep.join(
        [str(dest), *filter(None, [os.environ.get("PYTHONPATH")])])
    where = f"commit {commit}" if commit else "working tree"
    return f"{where}, sources sha256 {digest.hexdigest()[:12]}"


# --------------------------------------------------------------------------- corpus

def ensure_release(version: str) -> Path:
    """benchmarks/.corpus/sympy-VERSION, downloaded with pip and unpacked when missing."""
    root = CORPUS / f"sympy-{version}"
    if (root / "sympy").is_dir():
        return root
    CORPUS.mkdir(parents=True, exist_ok=True)
    sdist = CORPUS / f"sympy-{version}.tar.gz"
    if not sdist.exists():
        print(f"downloading sympy=={version} (sdist) into {CORPUS} ...", file=sys.stderr)
        cmd = [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps",
               "--disable-pip-version-check", f"sympy=={version}", "-d", str(CORPUS)]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0 or not sdist.exists():
            tail = "\n    ".join((proc.stderr or proc.stdout).strip().splitlines()[-3:])
            raise SystemExit(
                f"bench_classify: could not download sympy=={version} with pip "
                f"(exit {proc.returncode}):\n    {tail}\n"
                f"Download it yourself, e.g.\n    {' '.join(cmd)}\n"
                f"or point the per-file benchmark at any tree with --corpus DIR.")
    tmp = Path(tempfile.mkdtemp(prefix=".unpack-", dir=CORPUS))
    try:
        with tarfile.open(sdist) as tf:
            if hasattr(tarfile, "data_filter"):
                tf.extractall(tmp, filter="data")
            else:  # Python < 3.11.4
                tf.extractall(tmp)  # a pinned sdist from PyPI
        (tmp / root.name).rename(root)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return root


def python_files(root: Path) -> Iterator[tuple[Path, str]]:
    for path in sorted(root.rglob("*.py")):
        if path.is_file() and not path.is_symlink():
            yield path, path.relative_to(root).as_posix()


def unique_files(root: Path) -> list[tuple[Path, str, int]]:
    """(path, relative path, number of other paths with the same bytes), first path wins."""
    first: dict[str, tuple[Path, str]] = {}
    dups: dict[str, int] = {}
    for path, rel in python_files(root):
        digest = hashlib.sha256(path.read_bytes()).hexdigest()
        if digest in first:
            dups[digest] += 1
        else:
            first[digest], dups[digest] = (path, rel), 0
    return [(p, r, dups[d]) for d, (p, r) in first.items()]


def quick_sample(files: list[tuple[Path, str, int]], n: int) -> list[tuple[Path, str, int]]:
    """Evenly spread over file size, plus the largest test file and the deep file."""
    by_size = sorted(files, key=lambda f: f[0].stat().st_size)
    step = max(1, len(by_size) // n)
    picked = by_size[::step]
    tests = [f for f in by_size if "test" in f[1]]
    extra = ([tests[-1]] if tests else []) + [f for f in files if f[1].endswith(DEEP_FILE)]
    return list({f[1]: f for f in picked + extra}.values())


# --------------------------------------------------------------------------- git / patches

def git(repo: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
           "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.invalid",
           "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.invalid"}
    proc = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, env=env,
                          check=True)
    return proc.stdout.decode("utf-8", "replace")


def build_repo(release_a: Path, dest: Path) -> Path:
    shutil.copytree(release_a, dest, symlinks=True)
    git(dest, "init", "-q")
    git(dest, "add", "-A")
    git(dest, "commit", "-qm", f"{release_a.name}")
    return dest


@dataclass(frozen=True)
class Change:
    rel: str
    status: str  # "M" | "A" | "D"
    churn: int = 0  # added + removed lines (M only)


def release_changes(a: Path, b: Path, repo: Path) -> list[Change]:
    """Every .py file under sympy/ that differs between the releases, with its churn."""
    pa = {rel: p for p, rel in python_files(a) if rel.startswith("sympy/")}
    pb = {rel: p for p, rel in python_files(b) if rel.startswith("sympy/")}
    changes = [Change(r, "A") for r in sorted(pb.keys() - pa.keys())]
    changes += [Change(r, "D") for r in sorted(pa.keys() - pb.keys())]
    modified = sorted(r for r in pa.keys() & pb.keys() if pa[r].read_bytes() != pb[r].read_bytes())
    with applied(repo, b, [Change(r, "M") for r in modified]):
        numstat = git(repo, "diff", "--cached", "--numstat", "--no-renames")
    churn: dict[str, int] = {}
    for line in numstat.splitlines():
        added, removed, rel = line.split("\t", 2)
        if added != "-":
            churn[rel] = int(added) + int(removed)
    changes += [Change(r, "M", churn.get(r, 0)) for r in modified]
    return sorted(changes, key=lambda c: c.rel)


@contextlib.contextmanager
def applied(repo: Path, release_b: Path, changes: Sequence[Change]) -> Iterator[None]:
    """Stage release B's version of ``changes`` in ``repo``; restore HEAD afterwards."""
    try:
        for c in changes:
            target = repo / c.rel
            if c.status == "D":
                target.unlink()
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(release_b / c.rel, target)
        if changes:
            git(repo, "add", "-A", "--", *sorted({c.rel for c in changes}))
        yield
    finally:
        git(repo, "reset", "-q", "--hard", "HEAD")
        git(repo, "clean", "-fdq")


def make_patch(repo: Path, release_b: Path, changes: Sequence[Change], out: Path) -> int:
    with applied(repo, release_b, changes):
        diff = subprocess.run(["git", "-C", str(repo), "diff", "--cached", "--no-color",
                               "--no-ext-diff", "--binary"], capture_output=True,
                              check=True).stdout
    out.write_bytes(diff)
    return len(diff)


def is_test_path(rel: str) -> bool:
    return "test" in rel


def typical_patch(changes: Sequence[Change], repo: Path, n_tests: int = 3,
                  n_prod: int = 3) -> list[Change]:
    """A few test modules and production modules with a modest, real change (5–60 lines)."""

    def pick(cands: list[Change], n: int) -> list[Change]:
        cands = sorted(cands, key=lambda c: c.rel)
        if len(cands) <= n:
            return cands
        return [cands[(2 * i + 1) * len(cands) // (2 * n)] for i in range(n)]

    def modest(c: Change) -> bool:
        return c.status == "M" and 5 <= c.churn <= 60 and \
            4_000 <= (repo / c.rel).stat().st_size <= 40_000

    tests = [c for c in changes if modest(c) and c.rel.rsplit("/", 1)[-1].startswith("test_")]
    prod = [c for c in changes if modest(c) and not is_test_path(c.rel)]
    return pick(tests, n_tests) + pick(prod, n_prod)


def provscore_command() -> list[str]:
    script = Path(sys.executable).parent / "provscore"
    return [str(script)] if script.exists() else [sys.executable, "-m", "provscore"]


def time_commands(commands: dict[str, list[str]], reps: int, cwd: Path
                  ) -> dict[str, dict[str, Any]]:
    """Wall time of whole subprocesses (interpreter start included), interleaved."""
    samples: dict[str, list[float]] = {k: [] for k in commands}
    codes: dict[str, set[int]] = {k: set() for k in commands}
    for _ in range(reps):
        for name, cmd in commands.items():
            t0 = time.perf_counter()
            proc = subprocess.run(cmd, capture_output=True, cwd=cwd, env=_CHILD_ENV)
            samples[name].append(time.perf_counter() - t0)
            codes[name].add(proc.returncode)
    return {k: {"samples": v, "median": statistics.median(v), "exit": sorted(codes[k])}
            for k, v in samples.items()}


# =========================================================================== reporting

def _fmt_s(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}" if x >= 10 else f"{x:.3f}"


def _fmt_r(x: float | None) -> str:
    return "—" if x is None else f"{x:.2f}×"


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    values = sorted(values)
    return values[min(len(values) - 1, math.ceil(q * len(values)) - 1)]


def bucket_rows(results: Sequence[FileResult]) -> list[list[str]]:
    rows: list[list[str]] = []
    groups = [(name, [r for r in results if lo <= r.size < hi]) for name, lo, hi in BUCKETS]
    groups.append(("all", list(results)))
    for name, group in groups:
        if not group:
            continue
        ok = [r for r in group if r.ratio is not None]
        failed = [r for r in group if r.failure or r.error]
        ratios = [r.ratio for r in ok if r.ratio is not None]

        def total(method: str, files: list[FileResult] = ok) -> float:
            return sum(getattr(r, method) or 0.0 for r in files)

        agg = total("extract") / total("cst") if total("cst") else None
        agg_nogc = total("extract") / total("cst_nogc") if total("cst_nogc") else None
        over = sum(1 for x in ratios if x > GOAL)
        holds = "—" if agg is None else (
            "yes" if agg <= GOAL and not failed else
            "no (failures)" if agg <= GOAL else "no")
        rows.append([name, str(len(group)), f"{sum(r.size for r in group) / 1024:,.0f}",
                     _fmt_s(total("ast")), _fmt_s(total("cst")), _fmt_s(total("cst_nogc")),
                     _fmt_s(total("extract")), _fmt_s(total("regex")), _fmt_r(agg),
                     _fmt_r(agg_nogc),
                     _fmt_r(statistics.median(ratios) if ratios else None),
                     _fmt_r(_pct(ratios, 0.9)), _fmt_r(max(ratios) if ratios else None),
                     f"{over}/{len(ratios)}", str(len(failed)), holds])
    return rows


BUCKET_HEADERS = ["size", "files", "KiB", "ast.parse s", "parse_module s",
                  "parse, GC paused s", "extract s", "regex s", "extract/parse (total)",
                  "extract/parse GC paused", "median ratio", "p90 ratio", "max ratio",
                  f"files >{GOAL:g}×", "failed", f"≤{GOAL:g}×?"]


def worst_rows(results: Sequence[FileResult], n: int) -> list[list[str]]:
    ok = sorted((r for r in results if r.ratio is not None),
                key=lambda r: (r.extract or 0) - GOAL * (r.cst or 0), reverse=True)
    return [[r.rel, f"{r.size / 1024:,.1f}", _fmt_s(r.cst), _fmt_s(r.extract),
             _fmt_r(r.ratio), _fmt_s((r.extract or 0) - GOAL * (r.cst or 0)),
             str(r.items)] for r in ok[:n]]


WORST_HEADERS = ["file (worst excess over 2× parse_module)", "KiB", "parse_module s",
                 "extract s", "ratio", "excess s", "items"]


def failure_rows(results: Sequence[FileResult]) -> list[list[str]]:
    rows = []
    for r in results:
        for method, err in (("extract", r.failure), ("extract", r.error),
                            ("ast.parse", r.ast_error), ("parse_module", r.cst_error)):
            if err:
                how = "did not return" if err is r.failure else \
                    "failed closed (FileEvidence.error)" if err is r.error else "raised"
                ctx = f"; parse_module {_fmt_s(r.cst)} s" if err is r.failure and r.cst else ""
                rows.append([r.rel, f"{r.size / 1024:,.1f}", method, how, err + ctx])
    return rows


FAILURE_HEADERS = ["file", "KiB", "method", "outcome", "detail"]


def machine(code: str) -> dict[str, str]:
    def version(dist: str) -> str:
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            return "?"

    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return {"date": datetime.date.today().isoformat(),
            "nproc": str(len(os.sched_getaffinity(0))),
            "python": platform.python_version(), "libcst": version("libcst"),
            "provscore": f"{version('provscore')} ({code})",
            "platform": platform.platform(), "load average at start": load}


# =========================================================================== main

@dataclass
class Run:
    machine: dict[str, str]
    options: dict[str, Any]
    corpus: str
    files: list[FileResult] = field(default_factory=list)
    duplicates: int = 0
    memory: list[dict[str, Any]] = field(default_factory=list)
    deep: dict[str, Any] | None = None
    e2e: dict[str, Any] | None = None
    full: dict[str, Any] | None = None


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--corpus", type=Path,
                    help="measure every .py file under DIR (skips the sympy end-to-end part)")
    ap.add_argument("--quick", action="store_true",
                    help="a size-stratified sample of ~60 files and a smaller full diff")
    ap.add_argument("--reps", type=int, default=3, help="timings per file and method (≥3)")
    ap.add_argument("--e2e-reps", type=int, default=5, help="repetitions of the CLI timing")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="seconds one file may take per phase before it counts as a failure")
    ap.add_argument("--mem-limit-gb", type=float, default=4.0,
                    help="address-space limit of every measuring process (0: none)")
    ap.add_argument("--write-readme", action="store_true",
                    help="replace the Results section of benchmarks/README.md")
    ap.add_argument("--json", type=Path, help="also write raw results here")
    ap.add_argument("--fresh", action="store_true",
                    help="measure every file again instead of resuming from the checkpoint")
    ap.add_argument("--rev", default="HEAD", help="the provscore commit to measure")
    ap.add_argument("--worktree", action="store_true",
                    help="measure provscore's working tree instead of its committed HEAD")
    ap.add_argument("--_worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--_probe-mem", nargs=3, metavar=("METHOD", "PATH", "TRACED"),
                    help=argparse.SUPPRESS)
    ap.add_argument("--_probe-static", nargs=3, metavar=("REPO", "PATCH", "REPS"),
                    help=argparse.SUPPRESS)
    args = ap.parse_args(argv)

    if args._worker:
        worker_main(args.mem_limit_gb)
        return 0
    if args._probe_mem:
        method, path, traced = args._probe_mem
        probe_memory(method, path, traced == "1", args.mem_limit_gb)
        return 0
    if args._probe_static:
        repo, patch, reps = args._probe_static
        probe_static(repo, patch, int(reps), args.mem_limit_gb)
        return 0
    if args.reps < 3:
        ap.error("--reps must be at least 3 (the median of fewer says little)")

    stamp = time.strftime("%Y%m%d-%H%M%S")
    CORPUS.mkdir(parents=True, exist_ok=True)
    log = CORPUS / f"worker-{stamp}.log"
    release_a = release_b = None
    if args.corpus is not None:
        root = args.corpus.resolve()
        if not root.is_dir():
            ap.error(f"--corpus {args.corpus}: not a directory")
    else:
        release_a, release_b = ensure_release(RELEASE_A), ensure_release(RELEASE_B)
        root = release_a

    snapshot = CORPUS / f"code-{stamp}"
    code = snapshot_provscore(snapshot, args.worktree, args.rev)
    try:
        return _run(args, root, release_a, release_b, code, log, stamp)
    finally:
        shutil.rmtree(snapshot, ignore_errors=True)
        if log.exists() and not log.stat().st_size:
            log.unlink()


def _run(args: argparse.Namespace, root: Path, release_a: Path | None,
         release_b: Path | None, code: str, log: Path, stamp: str) -> int:
    run = Run(machine(code), {k: (str(v) if isinstance(v, Path) else v)
                          for k, v in vars(args).items() if not k.startswith("_")}, str(root))
    files = unique_files(root)
    run.duplicates = sum(d for _, _, d in files)
    if args.quick:
        files = quick_sample(files, 60)
    print(f"{len(files)} unique .py files under {root} ({run.duplicates} duplicate images "
          f"skipped); {args.reps} reps each", file=sys.stderr)
    key = hashlib.sha256(json.dumps([SCHEMA, code, str(root), args.reps, args.timeout,
                                     args.mem_limit_gb]).encode()).hexdigest()[:12]
    checkpoint = CORPUS / f"checkpoint-{key}.jsonl"
    if args.fresh:
        checkpoint.unlink(missing_ok=True)
    run.files = measure_files(files, args.reps, args.timeout, args.mem_limit_gb, log,
                              checkpoint)

    deep = next((r for r in run.files if r.rel.endswith(DEEP_FILE)), None)
    if deep is not None:
        run.deep = {"file": deep.rel, "error": deep.error, "failure": deep.failure,
                    "items": deep.items, "extract": deep.extract, "cst": deep.cst,
                    "ast_error": deep.ast_error, "cst_error": deep.cst_error}

    # Peak memory of the largest file and of the largest test file, each in a fresh process.
    ok = [r for r in run.files if r.failure is None]
    largest = {max(ok, key=lambda r: r.size).rel} if ok else set()
    largest |= {max((r for r in ok if r.is_test), key=lambda r: r.size).rel} \
        if any(r.is_test for r in ok) else set()
    for rel in sorted(largest):
        size = (root / rel).stat().st_size
        for method in ("cst", "extract"):
            row: dict[str, Any] = {"file": rel, "size": size, "method": method}
            for traced in ("0", "1"):
                ans = run_child(["--_probe-mem", method, str(root / rel), traced,
                                 "--mem-limit-gb", str(args.mem_limit_gb)], args.timeout * 3)
                if isinstance(ans, str):
                    row["failure"] = ans
                    continue
                if traced == "1":
                    row["traced_peak"] = ans["traced_peak"]
                else:
                    row.update(maxrss_before=ans["maxrss_before"],
                               maxrss_after=ans["maxrss_after"], error=ans.get("error"))
            run.memory.append(row)

    if release_a is not None and release_b is not None:
        run.e2e, run.full = end_to_end(release_a, release_b, args, log)

    text = render(run)
    print(text)
    raw = args.json or CORPUS / f"results-{stamp}.json"
    raw.write_text(json.dumps(asdict(run), indent=1, default=str))
    print(f"\nraw results: {raw}", file=sys.stderr)
    if args.write_readme:
        write_readme(text)
        print(f"recorded in {README}", file=sys.stderr)
    return 0


def end_to_end(release_a: Path, release_b: Path, args: argparse.Namespace, log: Path
               ) -> tuple[dict[str, Any], dict[str, Any]]:
    with tempfile.TemporaryDirectory(prefix="provscore-bench-") as tmp:
        print("building a git repo from", release_a.name, file=sys.stderr)
        repo = build_repo(release_a, Path(tmp) / "repo")
        changes = release_changes(release_a, release_b, repo)

        picked = typical_patch(changes, repo)
        patch = Path(tmp) / "typical.patch"
        nbytes = make_patch(repo, release_b, picked, patch)
        prog = provscore_command()
        cmd = [*prog, "score", "--repo", str(repo), "--base", "HEAD", "--diff", str(patch),
               "--format", "json"]
        print(f"timing the CLI on a {len(picked)}-file patch", file=sys.stderr)
        timings = time_commands({"python -c pass": [sys.executable, "-c", "pass"],
                                 "python -c 'import libcst'":
                                     [sys.executable, "-c", "import libcst"],
                                 "provscore score … --format json": cmd},
                                args.e2e_reps, repo)
        inproc = run_child(["--_probe-static", str(repo), str(patch), str(args.reps),
                            "--mem-limit-gb", str(args.mem_limit_gb)], args.timeout * 10)
        shown = " ".join(cmd[len(prog):]).replace(str(patch), "P").replace(str(repo), "R")
        e2e = {"files": [asdict(c) for c in picked], "patch_bytes": nbytes, "command": shown,
               "timings": timings, "run_static": inproc}

        tests = [c for c in changes if is_test_path(c.rel)]
        if args.quick:
            tests = tests[:: max(1, len(tests) // 10)]
        patch_full = Path(tmp) / "full.patch"
        nbytes = make_patch(repo, release_b, tests, patch_full)
        print(f"timing run_static on the full test diff ({len(tests)} files)", file=sys.stderr)
        ans = run_child(["--_probe-static", str(repo), str(patch_full), str(args.reps),
                         "--mem-limit-gb", str(args.mem_limit_gb)],
                        max(args.timeout, 60) * 15 * args.reps)
        counts = {s: sum(1 for c in tests if c.status == s) for s in "MAD"}
        full = {"files": len(tests), "by_status": counts, "patch_bytes": nbytes,
                "run_static": ans}
    return e2e, full


def render(run: Run) -> str:
    out: list[str] = []
    m = run.machine
    out.append(f"### Results {m['date']}\n")
    out.append(
        f"Machine: {m['nproc']} CPUs (`nproc`), Python {m['python']}, libcst {m['libcst']}, "
        f"provscore {m['provscore']}, {m['platform']}; load average at start "
        f"{m['load average at start']}.  ")
    opts = run.options
    out.append(
        f"Corpus: `{Path(run.corpus).name}`, {len(run.files)} unique .py images"
        f"{' (--quick sample)' if opts.get('quick') else ''}, {run.duplicates} duplicate "
        f"images skipped; median of {opts['reps']} timings per file and method; "
        f"budget {opts['timeout']:.0f} s per file and phase, address space "
        f"{opts['mem_limit_gb']:g} GiB per measuring process.\n")

    for title, subset in (("Test files (path contains `test`)",
                           [r for r in run.files if r.is_test]), ("All files", run.files)):
        out.append(f"#### {title}\n")
        out.append(tabulate(bucket_rows(subset), BUCKET_HEADERS, tablefmt="github",
                            disable_numparse=True) + "\n")

    out.append("#### Worst files\n")
    out.append(tabulate(worst_rows(run.files, 10), WORST_HEADERS, tablefmt="github",
                        disable_numparse=True) + "\n")

    fails = failure_rows(run.files)
    out.append(f"#### Failures ({len(fails)})\n")
    if fails:
        out.append(tabulate(fails, FAILURE_HEADERS, tablefmt="github",
                            disable_numparse=True) + "\n")
    else:
        out.append("None: every file classified without `FileEvidence.error`.\n")
    if run.deep is not None:
        d = run.deep
        verdict = (f"did not return ({d['failure']})" if d["failure"] else
                   f"failed closed: `{d['error']}`" if d["error"] else
                   f"classified: {d['items']} items")
        out.append(f"Deep file `{d['file']}`: extract {verdict}; parse_module "
                   f"{d['cst_error'] or _fmt_s(d['cst']) + ' s'}; ast.parse "
                   f"{d['ast_error'] or 'ok'}.\n")

    if run.memory:
        out.append("#### Peak memory (fresh process per cell)\n")
        rows = []
        for r in run.memory:
            mib = 1024 ** 2
            grow = (r["maxrss_after"] - r["maxrss_before"]) / mib if "maxrss_after" in r else None
            rows.append([r["file"], f"{r['size'] / 1024:,.0f}",
                         "parse_module" if r["method"] == "cst" else "extract",
                         "—" if "maxrss_after" not in r else f"{r['maxrss_after'] / mib:,.0f}",
                         "—" if grow is None else f"{grow:,.0f}",
                         "—" if "traced_peak" not in r else f"{r['traced_peak'] / mib:,.0f}",
                         r.get("failure") or r.get("error") or ""])
        out.append(tabulate(rows, ["file", "KiB", "method", "maxrss MiB", "maxrss growth MiB",
                                   "tracemalloc peak MiB", "error"], tablefmt="github",
                            disable_numparse=True) + "\n")

    if run.e2e is not None:
        e = run.e2e
        out.append("#### End to end: a typical patch through the CLI\n")
        files = ", ".join(f"`{c['rel']}` ({c['churn']} lines)" for c in e["files"])
        out.append(f"Patch ({e['patch_bytes']:,} bytes): {files}.  ")
        out.append(f"Command: `provscore {e['command']}` (R: a git repo of release A, "
                   f"P: the patch), "
                   f"{run.options['e2e_reps']} interleaved repetitions each.\n")
        rows = [[name, _fmt_s(t["median"]), _fmt_s(min(t["samples"])),
                 _fmt_s(max(t["samples"])), ",".join(map(str, t["exit"]))]
                for name, t in e["timings"].items()]
        st = e["run_static"]
        if isinstance(st, dict):
            rows.append(["pipeline.run_static (in-process)", _fmt_s(statistics.median(
                st["samples"])), _fmt_s(min(st["samples"])), _fmt_s(max(st["samples"])),
                f"PS903: {st['ps903']}"])
        else:
            rows.append(["pipeline.run_static (in-process)", "—", "—", "—", st])
        out.append(tabulate(rows, ["subprocess", "median s", "min s", "max s", "exit codes"],
                            tablefmt="github", disable_numparse=True) + "\n")
    if run.full is not None:
        f = run.full
        st = f["run_static"]
        out.append("#### Full diff of the releases' test files through `run_static`\n")
        c = f["by_status"]
        desc = (f"{f['files']} files with `test` in the path under `sympy/` "
                f"({c['M']} modified, {c['A']} added, {c['D']} deleted), "
                f"{f['patch_bytes'] / 1024:,.0f} KiB of diff")
        if isinstance(st, dict):
            med = statistics.median(st["samples"])
            out.append(desc + f": median {_fmt_s(med)} s over {len(st['samples'])} runs "
                       f"(first {_fmt_s(st['samples'][0])} s), **{st['files'] / med:.1f} "
                       f"files/s**; PS903 (unclassifiable) findings: {st['ps903']}.\n")
            for err in st["errors"][:10]:
                out.append(f"- PS903 {err}")
            if st["errors"]:
                out.append("")
        else:
            out.append(desc + f": **did not finish** ({st}).\n")
    return "\n".join(out).rstrip() + "\n"


def write_readme(text: str) -> None:
    current = README.read_text(encoding="utf-8") if README.exists() else ""
    if MARK_START in current and MARK_END in current:
        head, rest = current.split(MARK_START, 1)
        _, tail = rest.split(MARK_END, 1)
        new = f"{head}{MARK_START}\n{text}{MARK_END}{tail}"
    else:
        new = f"{current.rstrip()}\n\n## Results\n\n{MARK_START}\n{text}{MARK_END}\n"
    README.write_text(new, encoding="utf-8")


if __name__ == "__main__":
    sys.exit(main())
