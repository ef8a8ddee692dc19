"""Command line: parse arguments, call the library, render. Nothing else.

Exit codes: 0 pass, 1 review, 2 reject (including unscored), 3 provscore could
not run (bad arguments, unreadable input) with one line on stderr.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import signal
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import Any, NoReturn

from provscore import __version__
from provscore.errors import ExitCode, InputError, ProvscoreError, UsageError
from provscore.io import atomic_write, read_input


class _Parser(argparse.ArgumentParser):
    """argparse exits 2 on bad usage; 2 means reject here, so usage errors exit 3."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(ExitCode.ERROR, f"{self.prog}: error: {message}\n")


def _build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="provscore", description="Score a patch only on evidence it did not "
                     "write. See docs/cli.md.")
    parser.add_argument("--version", action="version", version=f"provscore {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser,
                                metavar="COMMAND")

    sc = sub.add_parser("score", help="score a patch (a diff file, stdin, or BASE..HEAD)")
    sc.add_argument("--repo", default=".", help="git repository (default: .)")
    sc.add_argument("--base", required=True, help="the commit the patch applies to")
    src = sc.add_mutually_exclusive_group()
    src.add_argument("--head", help="score the commits from --base to this revision")
    src.add_argument("--diff", help="unified diff file to score, or - for stdin")
    sc.add_argument("--oracle", help="oracle dir (contract, lock, ledgers, approvals)")
    sc.add_argument("--results", nargs="+", default=[], metavar="FILE",
                    help="off-tree results of the base tests against the patched code: JUnit "
                         "XML, pytest-json-report or SWE-bench report.json; one file per run")
    sc.add_argument("--today", type=_date, help="date for ledger expiry (YYYY-MM-DD; "
                    "default: today)")
    sc.add_argument("--static-only", action="store_true",
                    help="lint mode: skip the independent-evidence gate; the best decision "
                         "is review (use with --fail-on reject in pre-commit / lint jobs)")
    src.add_argument("--staged", action="store_true",
                     help="score the staged changes (git diff --cached) against --base")
    _add_output_args(sc)
    _add_cache_args(sc)

    _add_graph_parsers(sub)

    ct = sub.add_parser("catalog", help="validate the property catalog")
    ct_sub = ct.add_subparsers(dest="catalog_cmd", required=True, parser_class=_Parser)
    cc = ct_sub.add_parser("check", help="validate properties.toml / properties.yaml")
    cc.add_argument("oracle", help="oracle dir")

    lk = sub.add_parser("lock", help="write a fixture digest lock (a human job on main)")
    lk_sub = lk.add_subparsers(dest="lock_kind", required=True, parser_class=_Parser)
    lf = lk_sub.add_parser("fixtures", help="lock fixture files or directories")
    lf.add_argument("paths", nargs="+", help="files or directories, relative to --repo")
    lf.add_argument("--out", required=True, help="lock file to write (e.g. oracle/fixtures.lock)")
    lf.add_argument("--repo", default=".", help="repository root (default: .)")
    lf.add_argument("--canonical-json", action="store_true",
                    help="hash JSON canonically (sorted keys, LF) so re-serialising is not drift")

    lg = sub.add_parser("ledger", help="validate the oracle dir, or record off-tree results")
    lg_sub = lg.add_subparsers(dest="ledger_cmd", required=True, parser_class=_Parser)
    chk = lg_sub.add_parser("check", help="validate contract, lock, ledgers and approvals")
    chk.add_argument("oracle", help="oracle dir")
    chk.add_argument("--today", type=_date, help="date for expiry checks (YYYY-MM-DD)")
    rec = lg_sub.add_parser("record", help="append off-tree results to the flake ledger")
    rec.add_argument("oracle", help="oracle dir")
    rec.add_argument("--results", nargs="+", required=True, metavar="FILE",
                     help="result files of one or more off-tree runs")
    rec.add_argument("--run-id", help="id of the run (default: the result file's name)")
    rec.add_argument("--env", default="", help="environment fingerprint to record")

    ex = sub.add_parser("explain", help="show a rule's rationale and examples")
    ex.add_argument("code", nargs="?", help="rule code (PS101) or name (assertion-removed)")

    demo = sub.add_parser("demo", help="score a tampering patch on a bundled example repo")
    _add_output_args(demo)
    _add_batch_parsers(sub)
    return parser


def _add_graph_parsers(sub: Any) -> None:
    """``graph`` and ``coverage``: the call graph and what reaches touched code."""
    gr = sub.add_parser("graph", help="export the call graph of a revision")
    gr.add_argument("--repo", default=".", help="git repository (default: .)")
    gr.add_argument("--rev", default="HEAD", help="revision (default: HEAD)")
    gr.add_argument("--format", default="json", choices=("json", "graphml", "dot"),
                    help="json (networkx node-link), graphml or dot (default: json)")
    gr.add_argument("--output", "-o", help="write to this file (atomically)")
    _add_cache_args(gr)

    cv = sub.add_parser("coverage", help="touched symbols and the tests and properties "
                        "that reach them")
    cv.add_argument("--repo", default=".", help="git repository (default: .)")
    cv.add_argument("--base", required=True, help="the commit the patch applies to")
    cv_src = cv.add_mutually_exclusive_group(required=True)
    cv_src.add_argument("--head", help="the commits from --base to this revision")
    cv_src.add_argument("--diff", help="unified diff file, or - for stdin")
    cv.add_argument("--oracle", help="oracle dir (property catalog, contract)")
    cv.add_argument("--format", default="text", choices=("text", "json"),
                    help="text (default) or json")
    cv.add_argument("--output", "-o", help="write to this file (atomically)")
    _add_cache_args(cv)


def _add_batch_parsers(sub: Any) -> None:
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
    _add_cache_args(bt)

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


def _add_output_args(p: argparse.ArgumentParser) -> None:
    from provscore.report import formats

    p.add_argument("--format", default="text", choices=formats(), help="report format")
    p.add_argument("--output", "-o", help="write the report to this file (atomically)")
    p.add_argument("-q", "--quiet", action="store_true", help="print the decision line only")
    p.add_argument("--no-color", action="store_true", help="no ANSI colour (also NO_COLOR)")
    p.add_argument("--fail-on", choices=("review", "reject"), default="review",
                   help="lowest decision that makes the exit code non-zero (default: review)")
    p.add_argument("--rules-url", default=os.environ.get("PROVSCORE_RULES_URL"),
                   help="URL of docs/rules.md for rule links in markdown/SARIF "
                        "(default: $PROVSCORE_RULES_URL)")


def _add_cache_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cache-dir", help="call-graph summary cache directory (default: "
                   "$PROVSCORE_CACHE_DIR, else ~/.cache/provscore)")
    p.add_argument("--no-cache", action="store_true",
                   help="keep call-graph summaries in memory only")


def _session(args: argparse.Namespace) -> object:
    from provscore.callgraph.cache import SummaryCache, default_cache_path
    from provscore.session import Session

    if args.no_cache:
        return Session.load()
    path = Path(args.cache_dir) / "callgraph.sqlite" if args.cache_dir else default_cache_path()
    return Session.load(cache=SummaryCache(path))


def _date(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date (YYYY-MM-DD): {text!r}") from None


def _read_diff(arg: str | None) -> tuple[bytes | None, str]:
    if arg is None:
        return None, "<none>"
    if arg == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    return read_input(arg, "diff file"), arg


def write_output(text: str, output: str | None) -> None:
    """Print, or write atomically: a failed write never leaves a partial report.

    Reports are UTF-8 whatever the locale (JSON and SARIF must be); anything that is not
    valid Unicode was escaped when the report was built."""
    data = text.encode("utf-8", "backslashreplace")
    if output is None:
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:  # a text-only stream (an embedding application's)
            sys.stdout.write(data.decode("utf-8"))
            return
        sys.stdout.flush()
        buffer.write(data)
        buffer.flush()
        return
    atomic_write(Path(output), data, what="report")


def refuse_output_over_inputs(output: str | None, inputs: Sequence[str | None],
                              oracle: Path | None) -> None:
    """A report must never replace what it was computed from: refuse an --output that is
    one of the inputs (the same file by name or inode) or lies inside the oracle dir."""
    if output is None:
        return
    target = Path(output)
    resolved = target.resolve()
    if oracle is not None and resolved.is_relative_to(oracle.resolve()):
        raise UsageError(f"--output {output} lies inside the oracle dir {oracle}; refusing to "
                         "write a report over the oracle")
    for given in inputs:
        if given is None or given == "-":
            continue
        same = resolved == Path(given).resolve()
        with contextlib.suppress(OSError):
            same = same or os.path.samefile(target, given)
        if same:
            raise UsageError(f"--output {output} is the input {given}; refusing to overwrite it")


def _exit_code(decision_code: ExitCode, fail_on: str) -> ExitCode:
    if fail_on == "reject" and decision_code is ExitCode.REVIEW:
        return ExitCode.PASS
    return decision_code


def _emit(report: object, args: argparse.Namespace) -> int:
    from provscore.report import RenderOptions, render
    from provscore.report.model import Report

    assert isinstance(report, Report)
    color = (args.output is None and not args.no_color and "NO_COLOR" not in os.environ
             and args.format == "text" and sys.stdout.isatty())
    options = RenderOptions(color=color, quiet=args.quiet, rules_url=args.rules_url)
    text = render(report, args.format, options)
    write_output(text, args.output)
    summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
    if args.format == "github" and summary_file:
        from provscore.report.github import step_summary

        # GitHub renders this file on the run's summary page; append, never truncate.
        try:
            with open(summary_file, "a", encoding="utf-8", errors="backslashreplace") as fh:
                fh.write(step_summary(report, options))
        except OSError as exc:
            raise InputError(f"cannot append the step summary: {exc.strerror or exc}",
                             path=summary_file) from None
    return _exit_code(report.exit_code, args.fail_on)


def _cmd_score(args: argparse.Namespace) -> int:
    from provscore.oracle.contract import load_oracle_contract
    from provscore.pipeline import ScoreRequest, score
    from provscore.session import Session

    if args.head is None and args.diff is None and not args.staged:
        raise UsageError("give --head REV, --diff FILE (or --diff - for stdin) or --staged")
    oracle = Path(args.oracle) if args.oracle else None
    if oracle is not None and not oracle.is_dir():
        raise InputError("oracle dir does not exist", path=str(oracle))
    for r in args.results:
        if not os.path.lexists(r):  # a FIFO or a directory there is refused when read
            raise InputError("results file not found", path=r)
    refuse_output_over_inputs(args.output, [args.diff, *args.results], oracle)
    diff, origin = (None, "git diff --cached") if args.staged else _read_diff(args.diff)
    req = ScoreRequest(repo=Path(args.repo), base=args.base, head=args.head, diff=diff,
                       diff_origin=origin, oracle_dir=oracle,
                       contract=load_oracle_contract(oracle),
                       results=tuple(Path(r) for r in args.results), today=args.today,
                       static_only=args.static_only, staged=args.staged)
    session = _session(args)
    assert isinstance(session, Session)
    return _emit(score(req, session), args)


def _cmd_graph(args: argparse.Namespace) -> int:
    from provscore.callgraph.export import export
    from provscore.pipeline import graph_at_rev
    from provscore.session import Session

    session = _session(args)
    assert isinstance(session, Session)
    graph = graph_at_rev(Path(args.repo), args.rev, session)
    write_output(export(graph, args.format), args.output)
    s = graph.stats
    print(f"provscore: {graph.graph.number_of_nodes()} nodes, {graph.graph.number_of_edges()} "
          f"edges; {s['calls']} calls: {s['resolved']} resolved, {s['external']} external, "
          f"{s['builtin']} builtin, {s['unknown']} unknown; {len(graph.unparsed)} file(s) "
          "did not parse", file=sys.stderr)
    return ExitCode.PASS


def _cmd_coverage(args: argparse.Namespace) -> int:
    from provscore.oracle.contract import load_oracle_contract
    from provscore.pipeline import ScoreRequest, touched_coverage
    from provscore.report.coverage_text import coverage_json, coverage_text
    from provscore.session import Session

    diff, origin = _read_diff(args.diff)
    oracle = Path(args.oracle) if args.oracle else None
    if oracle is not None and not oracle.is_dir():
        raise InputError("oracle dir does not exist", path=str(oracle))
    req = ScoreRequest(repo=Path(args.repo), base=args.base, head=args.head, diff=diff,
                       diff_origin=origin, oracle_dir=oracle,
                       contract=load_oracle_contract(oracle))
    session = _session(args)
    assert isinstance(session, Session)
    symbols = touched_coverage(req, session)
    text = coverage_json(symbols) if args.format == "json" else coverage_text(symbols)
    write_output(text, args.output)
    return ExitCode.PASS


def _cmd_catalog(args: argparse.Namespace) -> int:
    from provscore.oracle.catalog import find_catalog, read_catalog

    oracle = Path(args.oracle)
    if not oracle.is_dir():
        raise InputError("oracle dir does not exist", path=str(oracle))
    path = find_catalog(oracle)
    if path is None:
        raise InputError("no property catalog (properties.toml or properties.yaml)",
                         path=str(oracle))
    catalog = read_catalog(path)
    checks = sum(1 for p in catalog.properties if p.check is not None)
    print(f"provscore: {path}: {len(catalog.properties)} properties ({checks} with a check "
          f"function): {', '.join(p.id for p in catalog.properties)}")
    return ExitCode.PASS


def _cmd_lock(args: argparse.Namespace) -> int:
    from provscore.oracle.fixture_lock import build_lock, write_lock

    root = Path(args.repo)
    if not root.is_dir():
        raise InputError("repository directory does not exist", path=str(root))
    lock = build_lock(root, args.paths, canonical_json=args.canonical_json)
    write_lock(lock, Path(args.out))
    print(f"provscore: locked {len(lock.entries)} file(s) in {args.out}")
    return ExitCode.PASS


def _cmd_ledger(args: argparse.Namespace) -> int:
    from provscore.ledger import check_oracle_dir, record_results
    from provscore.session import Session

    oracle = Path(args.oracle)
    if not oracle.is_dir():
        raise InputError("oracle dir does not exist", path=str(oracle))
    if args.ledger_cmd == "record":
        for r in args.results:
            if not os.path.lexists(r):
                raise InputError("results file not found", path=r)
        written, path = record_results(oracle, [Path(r) for r in args.results],
                                       run_id=args.run_id, env=args.env)
        print(f"provscore: appended {written} row(s) to {path}")
        return ExitCode.PASS
    text, ok = check_oracle_dir(oracle, Session.load(), today=args.today)
    sys.stdout.write(text)
    return ExitCode.PASS if ok else ExitCode.REJECT


def _cmd_explain(args: argparse.Namespace) -> int:
    from provscore.registry.docgen import explain_rule, list_rules
    from provscore.session import Session

    reg = Session.load().registry
    if args.code is None:
        sys.stdout.write(list_rules(reg))
        return ExitCode.PASS
    key = args.code.strip()
    rule = reg.rules.get(key.upper()) or next(
        (r for r in reg.rules.values() if r.name == key.lower()), None)
    if rule is None:
        names = [*reg.rules, *(r.name for r in reg.rules.values())]
        close = difflib.get_close_matches(key, names, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise UsageError(f"unknown rule {key!r}{hint}; `provscore explain` lists them")
    sys.stdout.write(explain_rule(rule))
    return ExitCode.PASS


def _cmd_demo(args: argparse.Namespace) -> int:
    from provscore.demo import run_demo
    from provscore.session import Session

    report = run_demo(Session.load())
    _emit(report, args)
    return ExitCode.PASS  # the demo succeeded when it produced its report


def _cmd_batch(args: argparse.Namespace) -> int:
    from provscore.batch import BatchRequest, ReportSource, run_batch
    from provscore.batch.progress import Progress
    from provscore.callgraph.cache import default_cache_path

    cache = None if args.no_cache else (
        Path(args.cache_dir) / "callgraph.sqlite" if args.cache_dir else default_cache_path())
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


def _cmd_compare(args: argparse.Namespace) -> int:
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


def _cmd_export(args: argparse.Namespace) -> int:
    from provscore.batch import ResultsDB
    from provscore.batch.export import export_format, export_rows

    out = Path(args.output)
    fmt = export_format(out, args.format)
    refuse_output_over_inputs(args.output, [args.db], None)
    db = ResultsDB(Path(args.db), create=False)
    try:
        count = export_rows(db, out, fmt)
    finally:
        db.close()
    print(f"provscore: exported {count} row(s) to {out}", file=sys.stderr)
    return ExitCode.PASS


COMMANDS = {"score": _cmd_score, "batch": _cmd_batch, "compare": _cmd_compare,
            "export": _cmd_export, "explain": _cmd_explain, "demo": _cmd_demo,
            "lock": _cmd_lock, "ledger": _cmd_ledger, "graph": _cmd_graph,
            "coverage": _cmd_coverage, "catalog": _cmd_catalog}


class _Terminated(BaseException):
    """SIGTERM, raised so that every ``finally`` runs (no temp file is left behind)."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise _Terminated


def _subject(args: argparse.Namespace) -> str:
    """What the command was working on, for the message of an unexpected error."""
    if args.command == "score":
        source = (f"--head {args.head}" if args.head else "--staged" if args.staged
                  else f"--diff {args.diff}")
        return f"scoring {source} against --base {args.base} in {args.repo}"
    if args.command == "ledger":
        return f"ledger {args.ledger_cmd} {args.oracle}"
    if args.command == "lock":
        return f"locking fixtures into {args.out}"
    if args.command in ("batch", "compare", "export"):
        return f"running {args.command} on {args.db}"
    return f"running {args.command}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        previous = signal.signal(signal.SIGTERM, _on_sigterm)
    except ValueError:  # not the main thread: leave signals alone
        previous = None
    try:
        return COMMANDS[args.command](args)
    except ProvscoreError as exc:
        print(f"provscore: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("provscore: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except _Terminated:
        print("provscore: terminated", file=sys.stderr)
        return ExitCode.TERMINATED
    except BrokenPipeError:
        return ExitCode.PASS
    except Exception as exc:  # never a traceback for users; PROVSCORE_DEBUG=1 shows it
        if os.environ.get("PROVSCORE_DEBUG"):
            raise
        print(f"provscore: internal error while {_subject(args)}: {type(exc).__name__}: "
              f"{exc} (set PROVSCORE_DEBUG=1 for a traceback)", file=sys.stderr)
        return ExitCode.ERROR
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
