"""The off-tree runner's own overhead next to a plain pytest run of the same tests.

The corpus is a real project's sdist with its test suite (default: packaging 26.2, about
61,500 tests), downloaded with ``pip download --no-binary :all: --no-deps`` into the
git-ignored ``benchmarks/.corpus/``, committed there as a git repository, with its test
dependencies installed into ``benchmarks/.corpus/venv`` (a venv that sees the system's
site-packages). Nothing of it is ever committed.

Modes, interleaved rep by rep so that the load of a shared machine spreads over all:

* ``plain``: ``python -m pytest -p no:cacheprovider -q`` in the repository (``PYTHONPATH``
  set to its import root), the way a developer runs the suite;
* ``bwrap``: the same command inside the runner's sandbox (what the sandbox alone costs);
* ``run``: ``provscore run --python VENV --diff PATCH`` on a one-line production patch: the
  whole off-tree run (two worktrees, the fingerprint, the collection at base alongside the
  first repeat, the sandboxed repeat with its JUnit XML and event stream, the integrity
  checks, result parsing, cleanup) plus starting provscore itself;
* ``run --no-sandbox``: the same without bubblewrap.

    python benchmarks/bench_runner.py                  # 3 reps of every mode
    python benchmarks/bench_runner.py --reps 5 --write-readme
    python benchmarks/bench_runner.py --project more-itertools==10.5.0
    python benchmarks/bench_runner.py --reps 7 --tests tests/test_markers.py tests/test_tags.py
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CORPUS = HERE / ".corpus"
MARK_START = "<!-- bench_runner:start -->"
MARK_END = "<!-- bench_runner:end -->"
# name -> (test dependencies, production file the benchmark patch touches)
PROJECTS = {
    "packaging": (["pretend", "tomli_w"], "src/packaging/__init__.py"),
    "more-itertools": ([], "more_itertools/__init__.py"),
}
GIT = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com"]


def prepare(spec: str) -> tuple[Path, Path, Path, Path]:
    """(repo, patch, venv python, import root) for ``name==version``, built once."""
    name, version = spec.split("==")
    deps, production = PROJECTS[name]
    CORPUS.mkdir(exist_ok=True)
    sdists = sorted(CORPUS.glob(f"{name.replace('-', '[-_]')}-{version}.tar.gz"))
    if not sdists:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-binary", ":all:",
                        "--no-deps", spec, "-d", str(CORPUS)], check=True)
        sdists = sorted(CORPUS.glob(f"{name.replace('-', '[-_]')}-{version}.tar.gz"))
    repo = CORPUS / f"repo-{name}-{version}"
    if not (repo / ".git").is_dir():
        with tempfile.TemporaryDirectory(dir=CORPUS) as tmp, tarfile.open(sdists[0]) as tar:
            tar.extractall(tmp, filter="data")
            [top] = list(Path(tmp).iterdir())
            shutil.rmtree(repo, ignore_errors=True)
            shutil.move(str(top), repo)
        subprocess.run([*GIT, "-C", str(repo), "init", "-q", "-b", "main"], check=True)
        subprocess.run([*GIT, "-C", str(repo), "add", "-A"], check=True)
        subprocess.run([*GIT, "-C", str(repo), "commit", "-q", "-m", "sdist"], check=True)
    venv = CORPUS / "venv"
    if not (venv / "bin" / "python").exists():
        subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
                       check=True)
    python = venv / "bin" / "python"
    if deps:
        subprocess.run([str(python), "-m", "pip", "install", "-q", *deps], check=True)
    target = repo / production
    patch = CORPUS / f"{name}-{version}.patch"
    original = target.read_bytes()
    try:
        target.write_bytes(original + b"\n# benchmark: a one-line production change\n")
        patch.write_bytes(subprocess.run(["git", "-C", str(repo), "diff"], check=True,
                                         capture_output=True).stdout)
    finally:
        target.write_bytes(original)
    root = repo / "src" if (repo / "src").is_dir() else repo
    return repo, patch, python, root


def timed(argv: list[str], *, cwd: Path, env: dict[str, str]) -> tuple[float, float, str]:
    """(wall seconds, CPU seconds of the process and every descendant it waited for, last
    line of output). CPU time hardly moves with the load of a shared machine; wall does."""
    with tempfile.TemporaryFile() as out:
        started = time.monotonic()
        proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.monotonic() - started
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        tail = out.read().decode("utf-8", "replace").strip().splitlines()
    cpu = usage.ru_utime + usage.ru_stime
    return seconds, cpu, tail[-1] if tail else f"exit {proc.returncode}"


def commands(repo: Path, patch: Path, python: Path, root: Path, out: Path,
             tests: list[str]) -> dict[str, tuple[list[str], dict[str, str]]]:
    sys.path.insert(0, str(ROOT))
    from provscore.runner.sandbox import Mounts, detect_sandbox

    plain = [str(python), "-m", "pytest", "-p", "no:cacheprovider", "-q", *tests]
    env = {**os.environ, "PYTHONPATH": str(root)}
    box = detect_sandbox("auto")
    mounts = Mounts(read_only=(repo, python.parent.parent.resolve()),
                    writable=(out,), masked=(Path("/tmp"),))
    run = [sys.executable, "-m", "provscore", "run", "--repo", str(repo), "--base", "HEAD",
           "--diff", str(patch), "--python", str(python), "--out", str(out)]
    if tests:
        run += ["--subset", *tests]
    tool_env = {**os.environ, "PYTHONPATH": str(frozen_code(out))}
    modes = {"plain": (plain, env), "run": (run, tool_env),
             "run --no-sandbox": ([*run, "--no-sandbox"], tool_env)}
    if box.active:
        modes["bwrap"] = (box.command(plain, cwd=repo, mounts=mounts), env)
    return modes


Times = dict[str, list[tuple[float, float]]]


def frozen_code(out: Path) -> Path:
    """A copy of provscore and its rules as they are now: edits made while a benchmark
    runs do not leak into it."""
    target = out / "code"
    for part in ("provscore", "rules"):
        shutil.copytree(ROOT / part, target / part,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return target


def measure(spec: str, reps: int, tests: list[str]) -> Times:
    repo, patch, python, root = prepare(spec)
    out = Path(tempfile.mkdtemp(prefix="bench-runner-"))
    modes = commands(repo, patch, python, root, out, tests)
    times: Times = {m: [] for m in modes}
    for rep in range(reps):
        for mode, (argv, env) in modes.items():
            seconds, cpu, last = timed(argv, cwd=repo, env=env)
            times[mode].append((seconds, cpu))
            print(f"rep {rep + 1} {mode:18} {seconds:8.2f} s wall {cpu:8.2f} s CPU   "
                  f"{last[:100]}", flush=True)
    runs = sorted(out.glob("r-*/run.json"))
    if runs:
        record = json.loads(runs[-1].read_text())
        print(f"last run: {record['base_tests']} base tests, sandbox {record['sandbox']}, "
              f"{record['wall_seconds']:.1f} s inside provscore", flush=True)
    shutil.rmtree(out, ignore_errors=True)
    return times


def table(spec: str, tests: list[str], times: Times) -> str:
    def med(mode: str, i: int) -> float:
        return statistics.median(v[i] for v in times[mode])

    wall0, cpu0 = med("plain", 0), med("plain", 1)
    lines = ["| mode | wall s (median) | wall s (min) | CPU s (median) | reps | wall overhead "
             "| CPU overhead |", "|---|---:|---:|---:|---:|---:|---:|"]
    for mode, values in times.items():
        wall, cpu = med(mode, 0), med(mode, 1)
        # Inside bwrap the tests run in another PID namespace whose CPU time does not
        # reach this process's rusage: only unsandboxed modes have a CPU column.
        sandboxed = mode in ("run", "bwrap")
        cpu_text = "—" if sandboxed else f"{cpu:.2f}"
        over_cpu = "—" if sandboxed or mode == "plain" else f"{(cpu - cpu0) / cpu0 * 100:+.1f} %"
        over_wall = "—" if mode == "plain" else f"{(wall - wall0) / wall0 * 100:+.1f} %"
        lines.append(f"| `{mode}` | {wall:.2f} | {min(v[0] for v in values):.2f} | {cpu_text} "
                     f"| {len(values)} | {over_wall} | {over_cpu} |")
    what = f"{spec}, {' '.join(tests)}" if tests else f"{spec}, the whole suite"
    return f"**{what}**\n\n" + "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--project", action="append", help="name==version (repeatable; "
                        f"known: {', '.join(PROJECTS)}); default packaging==26.2")
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--tests", nargs="+", default=[], metavar="PATH",
                        help="only these test files (both modes; --subset for the runner)")
    parser.add_argument("--write-readme", action="store_true",
                        help="replace the Results section of benchmarks/README.md")
    args = parser.parse_args()
    tables = []
    for spec in args.project or ["packaging==26.2"]:
        tables.append(table(spec, args.tests, measure(spec, max(1, args.reps), args.tests)))
    text = "\n\n".join(tables)
    print(text)
    if args.write_readme:
        readme = HERE / "README.md"
        doc = readme.read_text(encoding="utf-8")
        start, end = doc.index(MARK_START) + len(MARK_START), doc.index(MARK_END)
        stamp = time.strftime("%Y-%m-%d", time.gmtime())
        doc = f"{doc[:start]}\n_Measured {stamp}; load average at the end " \
              f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores._\n\n{text}\n{doc[end:]}"
        readme.write_text(doc, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
