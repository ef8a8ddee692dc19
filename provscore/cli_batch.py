"""The research-mode commands (docs/batch.md): ``batch``, ``compare``, ``export``.

Kept beside cli.py (which registers them) so that the CLI module stays one screenful per
concern; like the rest of the CLI it parses, calls the library and renders.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from provscore.cli_scoring import cache_path, write_output
from provscore.errors import ExitCode


def add_batch_parsers(sub: Any, add_cache_args: Any) -> None:
    """``batch``, ``compare``, ``export``: research mode (docs/batch.md)."""
    bt = sub.add_parser("batch", help="score SWE-bench-style prediction files into a "
                        "results database (research mode)")
    bt.add_argument("predictions", nargs="+", metavar="PREDICTIONS",
                    help="prediction files: JSONL, or JSON (a list, or an object keyed by "
                         "instance id) of {instance_id, model_name_or_path, model_patch}")
    bt.add_argument("--instances", required=True, metavar="FILE",
                    help="instances (SWE-bench dataset rows: instance_id, repo, base_commit, "
                         "test_patch) as JSON, JSONL or Parquet")
    bt.add_argument("--repos", required=True, metavar="DIR",
                    help="directory of local git mirrors named owner__repo (bare or not)")
    bt.add_argument("--db", required=True, metavar="FILE",
                    help="results database (SQLite; created, or resumed when it exists)")
    bt.add_argument("--reports", nargs="+", default=[], metavar="[MODEL=]PATH",
                    help="SWE-bench outcomes: eval log dirs, report.json files, run summaries "
                         "or results.json; MODEL= names the agent a file is about")
    bt.add_argument("-j", "--jobs", type=int, default=1,
                    help="worker processes (default: 1)")
    bt.add_argument("--scheduler", metavar="ADDRESS",
                    help="run on an existing Dask cluster (tcp://HOST:8786; provscore[dask])")
    bt.add_argument("--static-only", action="store_true",
                    help="never count a report's tests as results: every row in lint mode")
    bt.add_argument("--force", action="store_true",
                    help="score again the rows the database already has")
    bt.add_argument("--chunk-size", type=int, default=8, metavar="N",
                    help="patches per worker task and per transaction (default: 8)")
    bt.add_argument("--progress", choices=("auto", "bar", "lines", "none"), default="auto",
                    help="progress on stderr: a bar on a TTY, lines otherwise (default: auto)")
    add_cache_args(bt)

    cp = sub.add_parser("compare", help="compare agents from a results database")
    cp.add_argument("--db", required=True, metavar="FILE", help="results database")
    cp.add_argument("--format", default="text", choices=("text", "markdown", "csv", "json"),
                    help="table format (default: text)")
    cp.add_argument("--group", default="model", choices=("model", "file"),
                    help="one row per model (default) or per prediction file")
    cp.add_argument("--plot", metavar="FILE",
                    help="also draw the comparison (.png, .svg, .pdf; provscore[plot])")
    cp.add_argument("--examples", metavar="WHAT",
                    help="list the patches behind a number: a measure (tampering, "
                         "resolved-with-tampering, ...), a rule code or name, or a family")
    cp.add_argument("--agent", metavar="MODEL", help="with --examples: only this model")
    cp.add_argument("--limit", type=int, metavar="N", help="with --examples: at most N rows")
    cp.add_argument("--output", "-o", help="write the table to this file (atomically)")

    ep = sub.add_parser("export", help="export a results database's rows")
    ep.add_argument("--db", required=True, metavar="FILE", help="results database")
    ep.add_argument("--output", "-o", required=True, help="file to write (atomically)")
    ep.add_argument("--format", choices=("csv", "jsonl", "parquet"),
                    help="csv, jsonl or parquet (default: from the file name; "
                         "parquet needs provscore[parquet])")


def cmd_batch(args: argparse.Namespace) -> int:
    from provscore.batch import BatchRequest, ReportSource, run_batch
    from provscore.batch.progress import Progress

    cache = cache_path(args)
    req = BatchRequest(tuple(Path(p) for p in args.predictions), Path(args.instances),
                       Path(args.repos), Path(args.db),
                       tuple(ReportSource.parse(r) for r in args.reports), args.jobs,
                       args.scheduler, cache, args.static_only, args.force,
                       max(1, args.chunk_size))
    progress = Progress(enabled=args.progress != "none",
                        tty=None if args.progress == "auto" else args.progress == "bar")
    s = run_batch(req, progress)
    reasons = ", ".join(f"{n} {r}" for r, n in s.reasons)
    print(f"provscore: {s.planned} prediction(s): {s.skipped} already in {args.db}, "
          f"{s.scored} scored, {s.unscored} unscored{f' ({reasons})' if reasons else ''} "
          f"in {s.seconds:.1f} s" + (f"; {s.outcomes} outcome(s) joined" if s.outcomes
                                     else ""), file=sys.stderr)
    return ExitCode.PASS


def cmd_compare(args: argparse.Namespace) -> int:
    from provscore.batch import ResultsDB, compare, examples
    from provscore.batch.tables import render_comparison, render_examples
    from provscore.session import Session

    db = ResultsDB(Path(args.db), create=False)
    try:
        if args.examples:
            names = {r.name: r.code for r in Session.load().registry.sorted()}
            text = render_examples(examples(db, args.examples, agent=args.agent,
                                            rule_names=names), args.format, args.limit)
        else:
            comparison = compare(db, group=args.group)
            text = render_comparison(comparison, args.format)
            if args.plot:
                from provscore.batch.plot import plot_comparison

                plot_comparison(comparison, Path(args.plot))
    finally:
        db.close()
    write_output(text, args.output)
    return ExitCode.PASS


def cmd_export(args: argparse.Namespace) -> int:
    from provscore.batch import ResultsDB
    from provscore.batch.export import export_format, export_rows
    from provscore.report.outputs import OutputTarget, refuse_output_over_inputs

    out = Path(args.output)
    fmt = export_format(out, args.format)
    # The database is never overwritten by its own export.
    refuse_output_over_inputs([OutputTarget(fmt, args.output, via_output=True)], [args.db], None)
    db = ResultsDB(Path(args.db), create=False)
    try:
        count = export_rows(db, out, fmt)
    finally:
        db.close()
    print(f"provscore: exported {count} row(s) to {out}", file=sys.stderr)
    return ExitCode.PASS

COMMANDS = {"batch": cmd_batch, "compare": cmd_compare, "export": cmd_export}
