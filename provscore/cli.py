"""Command line: parse arguments, call the library, render. Nothing else.

Exit codes: 0 pass, 1 review, 2 reject (including unscored), 3 provscore could
not run (bad arguments, unreadable input) with one line on stderr.
"""

from __future__ import annotations

import argparse
import difflib
import os
import signal
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from provscore import __version__
from provscore.cli_batch import COMMANDS as BATCH_COMMANDS
from provscore.cli_batch import add_batch_parsers
from provscore.cli_scoring import (
    Scoring,
    add_output_args,
    add_selection_args,
    command_line,
    emit,
    load_session,
    need_source,
    oracle_dir,
    scoring,
    write_output,
)
from provscore.errors import ExitCode, InputError, ProvscoreError, UsageError
from provscore.io import read_input

if TYPE_CHECKING:  # imported where used: `provscore --help` stays fast
    pass


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

    _add_score_args(sub.add_parser("score", help="score a patch (a diff file, stdin, or "
                                   "BASE..HEAD)"))

    _add_runner_commands(sub)

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

    _add_ledger_command(sub)

    ex = sub.add_parser("explain", help="show a rule's rationale and examples")
    ex.add_argument("code", nargs="?", help="rule code (PS101) or name (assertion-removed)")

    demo = sub.add_parser("demo", help="score a tampering patch on a bundled example repo")
    add_output_args(demo)
    add_batch_parsers(sub, _add_cache_args)
    return parser


def _add_score_args(sc: argparse.ArgumentParser) -> None:
    _add_source_args(sc)
    sc.add_argument("--results", nargs="+", default=[], metavar="FILE",
                    help="off-tree results of the base tests against the patched code: JUnit "
                         "XML, pytest-json-report or SWE-bench report.json; one file per run")
    sc.add_argument("--static-only", action="store_true",
                    help="lint mode: skip the independent-evidence gate; the best decision "
                         "is review (use with --fail-on reject in pre-commit / lint jobs)")
    sc.add_argument("--whole-files", action="store_true",
                    help="classify every definition of each touched test module, not only "
                         "what the change reaches (same findings; the report lists every "
                         "test of those files; slower on large files)")
    sc.add_argument("--protect-from-diff", metavar="FILE",
                    help="a hidden test patch (SWE-bench's test_patch): the patch must not "
                         "create any file it adds (PS807)")
    add_output_args(sc)
    add_selection_args(sc)
    _add_cache_args(sc)


def _add_ledger_command(sub: argparse._SubParsersAction[_Parser]) -> None:
    lg = sub.add_parser("ledger", help="validate the oracle dir, or record off-tree results")
    lg_sub = lg.add_subparsers(dest="ledger_cmd", required=True, parser_class=_Parser)
    chk = lg_sub.add_parser("check", help="validate contract, lock, ledgers and approvals")
    chk.add_argument("oracle", help="oracle dir")
    chk.add_argument("--today", type=_date, help="date for expiry checks (YYYY-MM-DD)")
    rec = lg_sub.add_parser("record", help="append off-tree results to the flake ledger")
    rec.add_argument("oracle", help="oracle dir")
    rec.add_argument("--results", nargs="+", required=True, metavar="FILE",
                     help="result files of one or more off-tree runs")
    rec.add_argument("--run-id", help="id of the run (default: the run id provscore run "
                     "wrote into the file, else a fresh unique id)")
    rec.add_argument("--env", default="", help="environment fingerprint to record")


def _add_runner_commands(sub: argparse._SubParsersAction[_Parser]) -> None:
    rn = sub.add_parser("run", help="run the base tests and oracle properties against the "
                        "patch, off-tree and sandboxed (no decision)")
    _add_source_args(rn, digest=True)
    _add_run_args(rn)
    _add_cache_args(rn)
    vf = sub.add_parser("verify", help="run + score: the off-tree run, then the decision")
    _add_source_args(vf)
    _add_run_args(vf)
    add_output_args(vf)
    add_selection_args(vf)
    _add_cache_args(vf)


def _add_source_args(p: argparse.ArgumentParser, *, digest: bool = False) -> None:
    p.add_argument("--repo", default=".", help="git repository (default: .)")
    p.add_argument("--base", required=True, help="the commit the patch applies to")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--head", help="the commits from --base to this revision")
    src.add_argument("--diff", help="unified diff file, or - for stdin")
    src.add_argument("--staged", action="store_true",
                     help="the staged changes (git diff --cached) against --base (in a "
                          "repository with no commit yet, --base HEAD is the empty tree)")
    if digest:
        src.add_argument("--digest-only", action="store_true",
                         help="print the corpus digest of --base (for the contract's "
                              "runner.expected_corpus_digest) and run nothing")
    p.add_argument("--oracle", help="oracle dir (contract, lock, ledgers, approvals)")
    p.add_argument("--today", type=_date, help="date for ledger expiry (YYYY-MM-DD; "
                   "default: today)")


def _add_run_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--repeat", type=_positive, default=1, metavar="N",
                   help="run the base corpus N times (flake detection; default 1)")
    p.add_argument("--python", metavar="PYTHON",
                   help="interpreter the tests run in, with pytest and the project's test "
                        "dependencies installed (default: the one running provscore)")
    box = p.add_mutually_exclusive_group()
    box.add_argument("--require-sandbox", action="store_true",
                     help="refuse to run patched code without the bubblewrap sandbox "
                          "(an unsandboxed run is then a reject)")
    box.add_argument("--no-sandbox", action="store_true",
                     help="run without the sandbox even where bubblewrap works (the report "
                          "says so, PS508)")
    p.add_argument("--patch-id", help="id the run ledger counts runs under (default: a "
                   "digest of base and patch; give a stable one to count repair attempts)")
    p.add_argument("--subset", nargs="+", default=[], metavar="ID",
                   help="run only these base test files, directories or node ids")
    p.add_argument("--out", metavar="DIR", help="write run.json, results-N.json and "
                   "junit-N.xml under DIR/<run id>/")
    p.add_argument("--record", action="store_true",
                   help="append every result to the oracle dir's flake ledger")


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number >= 1, got {text!r}")
    return value


def _add_cache_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cache-dir", help="call-graph summary cache directory (default: "
                   "$PROVSCORE_CACHE_DIR, else ~/.cache/provscore)")
    p.add_argument("--no-cache", action="store_true",
                   help="keep call-graph summaries in memory only")


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


def _cmd_score(args: argparse.Namespace) -> int:
    from provscore.pipeline import ScoreRequest, score

    for r in args.results:
        if not os.path.lexists(r):  # a FIFO or a directory there is refused when read
            raise InputError("results file not found", path=r)
    sc = scoring(args, [args.diff, args.protect_from_diff, *args.results])
    diff, origin = (None, "git diff --cached") if args.staged else _read_diff(args.diff)
    hidden: tuple[str, ...] = ()
    if args.protect_from_diff:
        from provscore.grader.inputs import hidden_test_paths
        hidden = hidden_test_paths(read_input(args.protect_from_diff, "hidden test patch"),
                                   args.protect_from_diff)
    req = ScoreRequest(repo=Path(args.repo), base=args.base, head=args.head, diff=diff,
                       diff_origin=origin, oracle_dir=sc.oracle, contract=sc.contract,
                       results=tuple(Path(r) for r in args.results), today=args.today,
                       static_only=args.static_only, staged=args.staged,
                       whole_files=args.whole_files, rules=sc.rules,
                       config_source=sc.config_source, progress=sc.progress,
                       hidden_tests=hidden)
    try:
        report = score(req, sc.session, repo=sc.repo)
    finally:
        if sc.progress is not None:
            sc.progress.close()
    return emit(report, args, sc.settings)


def _run_request(args: argparse.Namespace, sc: Scoring | None) -> object:
    """The run to make. ``sc``: verify's scoring setup; None for ``run`` (no report)."""
    from provscore.oracle.contract import load_oracle_contract
    from provscore.pipeline import ScoreRequest
    from provscore.runner import RunOptions
    from provscore.verify import RunRequest

    if sc is None:
        need_source(args)
        oracle = oracle_dir(args.oracle)
        contract = load_oracle_contract(oracle)
    else:
        oracle, contract = sc.oracle, sc.contract
    if args.record and oracle is None:
        raise UsageError("--record needs --oracle (the flake ledger lives in the oracle dir)")
    diff, origin = (None, "git diff --cached") if args.staged else _read_diff(args.diff)
    req = ScoreRequest(repo=Path(args.repo), base=args.base, head=args.head, diff=diff,
                       diff_origin=origin, oracle_dir=oracle, contract=contract,
                       today=args.today, staged=args.staged,
                       rules=None if sc is None else sc.rules,
                       config_source=None if sc is None else sc.config_source,
                       progress=None if sc is None else sc.progress)
    options = RunOptions(repeat=args.repeat, python=args.python,
                         sandbox="none" if args.no_sandbox else "auto",
                         require_sandbox=args.require_sandbox, patch_id=args.patch_id,
                         subset=tuple(args.subset), record_flakes=args.record,
                         progress=None if sc is None else sc.progress)
    return RunRequest(req, options, Path(args.out) if args.out else None)


def _cmd_run(args: argparse.Namespace) -> int:
    from provscore.session import Session
    from provscore.verify import RunRequest, corpus_digest_of, run_patch

    if args.digest_only:
        print(corpus_digest_of(Path(args.repo), args.base, args.oracle, args.python))
        return ExitCode.PASS
    req = _run_request(args, None)
    assert isinstance(req, RunRequest)
    session = load_session(args)
    assert isinstance(session, Session)
    outcome = run_patch(req, session)
    for line in outcome.summary():
        print(f"provscore: {line}")
    return ExitCode.PASS if outcome.record.ran and not outcome.record.base_error \
        else ExitCode.REJECT


def _cmd_verify(args: argparse.Namespace) -> int:
    from provscore.verify import RunRequest, verify

    sc = scoring(args, [args.diff])
    req = _run_request(args, sc)
    assert isinstance(req, RunRequest)
    try:
        outcome = verify(req, sc.session)
    finally:
        if sc.progress is not None:
            sc.progress.close()
    assert outcome.report is not None
    return emit(outcome.report, args, sc.settings)


def _cmd_graph(args: argparse.Namespace) -> int:
    from provscore.callgraph.export import export
    from provscore.pipeline import graph_at_rev
    from provscore.session import Session

    session = load_session(args)
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
    session = load_session(args)
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
    from provscore.config import RepoConfig, resolve_settings
    from provscore.demo import run_demo
    from provscore.session import Session

    settings = resolve_settings(command_line(args), os.environ, RepoConfig())
    emit(run_demo(Session.load()), args, settings)
    return ExitCode.PASS  # the demo succeeded when it produced its report


COMMANDS = {**BATCH_COMMANDS, "score": _cmd_score, "run": _cmd_run, "verify": _cmd_verify,
            "explain": _cmd_explain, "demo": _cmd_demo, "lock": _cmd_lock,
            "ledger": _cmd_ledger, "graph": _cmd_graph, "coverage": _cmd_coverage,
            "catalog": _cmd_catalog}


class _Terminated(BaseException):
    """SIGTERM, raised so that every ``finally`` runs (no temp file is left behind)."""


def _on_sigterm(signum: int, frame: object) -> None:
    raise _Terminated


def _subject(args: argparse.Namespace) -> str:
    """What the command was working on, for the message of an unexpected error."""
    if args.command in ("score", "run", "verify"):
        source = (f"--head {args.head}" if args.head else "--staged" if args.staged
                  else f"--diff {args.diff}")
        verb = {"score": "scoring", "run": "running", "verify": "verifying"}[args.command]
        return f"{verb} {source} against --base {args.base} in {args.repo}"
    if args.command == "ledger":
        return f"ledger {args.ledger_cmd} {args.oracle}"
    if args.command == "lock":
        return f"locking fixtures into {args.out}"
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
