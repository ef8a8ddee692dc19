#!/usr/bin/env python3
"""The grader rules' false-positive budget, and what the grader scan costs.

Every Python file of several large, honest projects is scanned as if the patch had added
it (the whole file is a changed region), with the role provscore gives its path, and every
signal a PS8xx rule (and PS207's constructs) would report is counted per rule and per
10,000 lines. ``--show CODE`` prints each one, to be read. PS805 (needs the base tests
reaching a changed function), PS807 (needs protected paths), PS808 (a project's own
top-level package is not new) and PS809 (needs the changed symbols) are properties of a
change, not of a file, and are not measured here.

The cost: per file, the fastest of ``--reps`` timings of ``ast.parse`` alone, of the whole
grader scan with every line changed (parse, walk, every rule's signals: an added file),
of the same scan on the tree the call graph's summary already parsed (what the grader adds
to a scoring: :mod:`provscore.callgraph.trees`), and of the scan when one line in the
middle changed (a patch editing one function: the walk enters only that definition; own
parse), summed per project.

    pip download --no-deps --no-binary :all: django==5.0.6 requests==2.32.3 \\
        attrs==23.2.0 click==8.1.7 sympy==1.12 -d /tmp/sdists
    python benchmarks/bench_grader.py /tmp/sdists/*.tar.gz
    python benchmarks/bench_grader.py /tmp/sdists/*.tar.gz --show PS804
"""

from __future__ import annotations

import argparse
import ast
import sys
import tarfile
import time
from collections import Counter
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(PROJECT))

from provscore.callgraph.trees import forget_trees, parse_shared  # noqa: E402
from provscore.change.collection import CollectionConfig  # noqa: E402
from provscore.change.writeset import classify_path  # noqa: E402
from provscore.grader.literals import console_scripts  # noqa: E402
from provscore.grader.model import Signal, SignalKind  # noqa: E402
from provscore.grader.stage import GraderInputs, scan_signals  # noqa: E402
from provscore.session import Session  # noqa: E402

CODES = {SignalKind.REPORT_TAMPERING: "PS207", SignalKind.ALWAYS_EQUAL: "PS801",
         SignalKind.PROCESS_EXIT: "PS802", SignalKind.OUTPUT_STREAM: "PS803",
         SignalKind.FORGED_SUMMARY: "PS803", SignalKind.TEST_AWARENESS: "PS804",
         SignalKind.CALL_STATE: "PS804", SignalKind.FRAMEWORK_PATCH: "PS806"}
SHOWN = ("PS207", "PS801", "PS802", "PS803", "PS804", "PS806")


def sources(archive: Path) -> tuple[str, dict[str, bytes]]:
    """The project's name and its files by path inside the sdist (top folder dropped)."""
    out: dict[str, bytes] = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            parts = member.name.split("/", 1)
            if member.isfile() and len(parts) == 2 and \
                    parts[1].endswith((".py", "pyproject.toml", "setup.cfg")):
                data = tar.extractfile(member)
                if data is not None:
                    out[parts[1]] = data.read()
    return archive.name.removesuffix(".tar.gz"), out


def _timed(fn: object, reps: int) -> float:
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return min(times)  # the least disturbed run: the machine is shared


def measure(archive: Path, session: Session, reps: int, show: str | None) -> dict[str, object]:
    name, files = sources(archive)
    config = CollectionConfig()
    scripts = console_scripts(files.get("pyproject.toml"), files.get("setup.cfg"))
    inputs = GraderInputs(lambda p: classify_path(p, config), session.grader_tables(),
                          entry_modules=frozenset(e.split(":", 1)[0] for e in scripts))
    counts: Counter[str] = Counter()
    lines = parse_s = scan_s = shared_s = one_s = 0.0
    for path, data in sorted(files.items()):
        if not path.endswith(".py"):
            continue
        try:
            ast.parse(data)
        except (SyntaxError, ValueError):
            continue  # py2-only files and test data: not Python 3
        lines += data.count(b"\n") + 1

        def scan(path: str = path, data: bytes = data) -> list[Signal]:
            return scan_signals(path, data, None, inputs, frozenset())

        def scan_cold(path: str = path, data: bytes = data) -> list[Signal]:
            forget_trees()
            return scan(path, data)

        def scan_one(path: str = path, data: bytes = data) -> list[Signal]:
            forget_trees()
            middle = frozenset({data.count(b"\n") // 2})  # a patch that edits one function
            return scan_signals(path, data, middle, inputs, frozenset())

        signals = scan()
        parse_s += _timed(lambda data=data: ast.parse(data), reps)
        scan_s += _timed(scan_cold, reps)
        parse_shared(data)  # as the call graph's summary of the post-image does
        shared_s += _timed(scan, reps)
        one_s += _timed(scan_one, reps)
        for s in signals:
            code = CODES[s.kind]  # type: ignore[attr-defined]
            counts[code] += 1
            if show in (code, "all"):
                print(f"{name}: {s.path}:{s.line} [{inputs.role_of(s.path).value}] "  # type: ignore[attr-defined]
                      f"{s.detail}: {s.code}")  # type: ignore[attr-defined]
    return {"project": name, "lines": int(lines), "counts": counts,
            "parse_s": parse_s, "scan_s": scan_s, "shared_s": shared_s, "one_s": one_s}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sdists", nargs="+", type=Path, help="sdist archives (.tar.gz)")
    ap.add_argument("--show", help="print every signal of this rule code (all: of every one)")
    ap.add_argument("--reps", type=int, default=3, help="timings per file (median)")
    args = ap.parse_args()
    session = Session.load()
    rows = [measure(p, session, args.reps, args.show) for p in args.sdists]
    head = "| project | lines | " + " | ".join(SHOWN) + \
        " | ast.parse s | scan, all changed s | ratio | on the graph's tree s | ratio" \
        " | scan, one line changed s | ratio |"
    print(head)
    print("|" + " --- |" * (head.count("|") - 1))
    total: Counter[str] = Counter()
    for r in rows:
        counts: Counter[str] = r["counts"]  # type: ignore[assignment]
        total.update(counts)
        per = [f"{counts[c]} ({counts[c] * 10000 / int(r['lines']):.2f})" for c in SHOWN]  # type: ignore[call-overload]
        print(f"| {r['project']} | {r['lines']} | " + " | ".join(per) +
              f" | {r['parse_s']:.2f} | {r['scan_s']:.2f} | "  # type: ignore[str-format]
              f"{float(r['scan_s']) / float(r['parse_s']):.2f} | "  # type: ignore[arg-type]
              f"{r['shared_s']:.2f} | "  # type: ignore[str-format]
              f"{float(r['shared_s']) / float(r['parse_s']):.2f} | "  # type: ignore[arg-type]
              f"{r['one_s']:.2f} | {float(r['one_s']) / float(r['parse_s']):.2f} |")  # type: ignore[arg-type]
    lines = sum(int(r["lines"]) for r in rows)  # type: ignore[call-overload]
    print(f"| all | {lines} | " + " | ".join(
        f"{total[c]} ({total[c] * 10000 / lines:.2f})" for c in SHOWN) + " | | | | | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
