"""Record every finding provscore gives on the real and red-team corpora; compare two runs.

A refactor that promises "same behaviour" is checked here: the same patches must give the
same reports. The corpora, each patch scored on a real git repository built in a temp dir:

* ``agent``: the 526 real agent patches of ``../shared/data/agent-patches`` (SWE-bench
  predictions), each on a base rebuilt from the patch's own context and removed lines;
* ``swebench``: the SWE-bench Lite rows' human ``test_patch`` and gold ``patch``, likewise;
* ``redteam``: every tampering and benign case of ``tests/test_adversarial*.py``;
* ``examples``: every valid/invalid example of every rule in ``rules/*.toml``.

What is compared is the report minus what names the machine (repo path, commit shas):
decision, first cause, every finding (code, action, path, line, side, node id, message,
anchor), evidence counts, tests and write set.

    python benchmarks/findings_snapshot.py --out before.jsonl          # record
    python benchmarks/findings_snapshot.py --out after.jsonl --compare before.jsonl
    python benchmarks/findings_snapshot.py --check-digest benchmarks/findings-digest.jsonl --out x

``--digest FILE`` also writes, and ``--check-digest FILE`` compares with, a small file of one
digest and the finding codes per case: ``benchmarks/findings-digest.jsonl`` is committed, so
a later change can be checked against it without the full snapshot (rewrite it, in the same
commit, when a change is meant to move findings, and say which cases moved and why).
"""

from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

PROJECT = Path(__file__).resolve().parents[1]
# The shared data beside the checkout, or beside any directory above it (a worktree).
SHARED = Path(os.environ.get("PROVSCORE_SHARED") or next(
    (d / "shared" for d in PROJECT.parents if (d / "shared" / "data").is_dir()),
    PROJECT.parent / "shared"))
sys.path[:0] = [str(PROJECT), str(PROJECT / "tests")]

Case = tuple[str, str, Any]  # (case id, corpus, payload)


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def collect_cases(corpora: set[str]) -> list[Case]:
    cases: list[Case] = []
    if "agent" in corpora:
        for path in sorted((SHARED / "data" / "agent-patches").glob("*.jsonl")):
            for row in _jsonl(path):
                if row.get("model_patch"):
                    cases.append((f"agent:{path.stem}:{row['instance_id']}", "patch",
                                  row["model_patch"]))
    if "swebench" in corpora:
        for path in sorted((SHARED / "data" / "swebench-lite").glob("*.jsonl")):
            for row in _jsonl(path):
                for key in ("test_patch", "patch"):
                    if row.get(key):
                        cases.append((f"swebench:{path.stem}:{row['instance_id']}:{key}",
                                      "patch", row[key]))
    if "redteam" in corpora:
        import test_adversarial
        import test_adversarial2

        for mod in (test_adversarial, test_adversarial2):
            for group in ("TAMPER_CASES", "BENIGN_CASES"):
                for param in getattr(mod, group):
                    case = param.values[0]
                    cases.append((f"redteam:{mod.__name__}:{group}:{param.id}", "case", case))
    if "examples" in corpora:
        for rule in _registry().sorted():
            for label, examples in (("valid", rule.valid), ("invalid", rule.invalid)):
                for i, ex in enumerate(examples):
                    cases.append((f"example:{rule.code}:{label}:{i}", "example", ex))
    return cases


def _registry() -> Any:
    from provscore.session import Session

    return Session.load().registry


def summarise(report: Any) -> dict[str, Any]:
    from provscore.report import RenderOptions, render

    doc = json.loads(render(report, "json", RenderOptions()))
    doc.pop("inputs", None)
    return doc


def score_one(case: Case) -> tuple[str, dict[str, Any]]:
    name, kind, payload = case
    from conftest import GitRepo

    from provscore.testing import pre_images_from_patch

    with tempfile.TemporaryDirectory(prefix="provscore-snap-") as tmp:
        root = Path(tmp)
        try:
            if kind == "patch":
                repo = GitRepo(root / "repo")
                repo.commit({"README.md": "base\n", **pre_images_from_patch(payload)})
                report = repo.score(payload.encode("utf-8", "surrogateescape"))
            elif kind == "case":
                from adversarial_support import score_case

                report = score_case(GitRepo(root / "repo"), payload)
            else:
                from provscore.testing import run_example

                report = run_example(payload, root)
            return name, summarise(report)
        except Exception as exc:  # a crash is part of the behaviour being recorded
            return name, {"crash": f"{type(exc).__name__}: {exc}"}


def digest(summary: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(summary, sort_keys=True).encode()).hexdigest()[:16]


def codes(summary: dict[str, Any]) -> list[str]:
    return sorted(f"{f['code']}:{f['action']}" for f in summary.get("findings", []))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="snapshot to write (JSONL)")
    ap.add_argument("--compare", type=Path, help="an earlier snapshot to compare with")
    ap.add_argument("--digest", type=Path, help="write per-case digests and codes here")
    ap.add_argument("--check-digest", type=Path, help="compare with a committed digest file")
    ap.add_argument("--corpora", default="agent,swebench,redteam,examples")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    args = ap.parse_args(argv)

    cases = collect_cases(set(args.corpora.split(",")))
    print(f"{len(cases)} cases", file=sys.stderr)
    results: dict[str, dict[str, Any]] = {}
    with concurrent.futures.ProcessPoolExecutor(args.jobs) as pool:
        for n, (name, summary) in enumerate(pool.map(score_one, cases, chunksize=8), 1):
            results[name] = summary
            if n % 200 == 0:
                print(f"  {n}/{len(cases)}", file=sys.stderr)
    with args.out.open("w", encoding="utf-8") as fh:
        for name in sorted(results):
            fh.write(json.dumps({"case": name, **results[name]}, sort_keys=True) + "\n")
    crashes = [n for n, s in results.items() if "crash" in s]
    print(f"wrote {args.out}: {len(results)} cases, {len(crashes)} crashes", file=sys.stderr)
    for n in crashes[:10]:
        print(f"  crash {n}: {results[n]['crash']}", file=sys.stderr)

    table = {name: {"digest": digest(s), "codes": codes(s)} for name, s in sorted(results.items())}
    if args.digest:
        args.digest.write_text("".join(json.dumps({"case": n, **row}, sort_keys=True) + "\n"
                                       for n, row in table.items()), encoding="utf-8")
    status = 0
    if args.check_digest:
        old = {row["case"]: row for row in map(json.loads, args.check_digest.read_text(
            encoding="utf-8").splitlines())}
        changed = sorted(n for n in set(old) | set(table)
                         if old.get(n, {}).get("digest") != table.get(n, {}).get("digest"))
        print(f"digest check against {args.check_digest}: {len(changed)} of {len(table)} "
              "cases differ", file=sys.stderr)
        for n in changed[:40]:
            print(f"  {n}: {old.get(n, {}).get('codes')} -> {table.get(n, {}).get('codes')}",
                  file=sys.stderr)
        status = 1 if changed else 0
    if args.compare:
        before = {json.loads(ln)["case"]: json.loads(ln)
                  for ln in args.compare.read_text(encoding="utf-8").splitlines()}
        after = {n: {"case": n, **s} for n, s in results.items()}
        differ = sorted(n for n in set(before) | set(after) if before.get(n) != after.get(n))
        print(f"compared with {args.compare}: {len(differ)} of {len(after)} cases differ",
              file=sys.stderr)
        for n in differ[:40]:
            print(f"  {n}: {codes(before.get(n, {}))} -> {codes(after.get(n, {}))}",
                  file=sys.stderr)
        status = 1 if differ else status
    return status


if __name__ == "__main__":
    raise SystemExit(main())
