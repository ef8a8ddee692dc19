"""Command line: parse arguments, call the library, render. Nothing else.

Exit codes: 0 pass, 1 review, 2 reject (including unscored), 3 provscore could
not run (bad arguments, unreadable input) with one line on stderr.
"""

from __future__ import annotations

import argparse
import difflib
import os
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path
from typing import NoReturn

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
    _add_source_args(sc)
    sc.add_argument("--results", nargs="+", default=[], metavar="FILE",
                    help="off-tree results of the base tests against the patched code: JUnit "
                         "XML, pytest-json-report or SWE-bench report.json; one file per run")
    sc.add_argument("--static-only", action="store_true",
                    help="lint mode: skip the independent-evidence gate; the best decision "
                         "is review (use with --fail-on reject in pre-commit / lint jobs)")
    _add_output_args(sc)

    rn = sub.add_parser("run", help="run the base tests and oracle properties against the "
                        "patch, off-tree and sandboxed (no decision)")
    _add_source_args(rn, digest=True)
    _add_run_args(rn)
    vf = sub.add_parser("verify", help="run + score: the off-tree run, then the decision")
    _add_source_args(vf)
    _add_run_args(vf)
    _add_output_args(vf)

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
    return parser


def _add_source_args(p: argparse.ArgumentParser, *, digest: bool = False) -> None:
    p.add_argument("--repo", default=".", help="git repository (default: .)")
    p.add_argument("--base", required=True, help="the commit the patch applies to")
    src = p.add_mutually_exclusive_group()
    src.add_argument("--head", help="the commits from --base to this revision")
    src.add_argument("--diff", help="unified diff file, or - for stdin")
    src.add_argument("--staged", action="store_true",
                     help="the staged changes (git diff --cached) against --base")
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
    p.add_argument("--report", action="append", default=[], metavar="FORMAT=FILE",
                   type=_report_target, help="also write the report in FORMAT to FILE "
                   "(repeatable; one scoring, several renderings)")


def _report_target(text: str) -> tuple[str, str]:
    from provscore.report import formats

    fmt, sep, path = text.partition("=")
    if not sep or not path or fmt not in formats():
        raise argparse.ArgumentTypeError(f"expected FORMAT=FILE with FORMAT one of "
                                         f"{', '.join(formats())}, got {text!r}")
    return fmt, path


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
    """Print, or write atomically: a failed write never leaves a partial report."""
    if output is None:
        sys.stdout.write(text)
        return
    atomic_write(Path(output), text.encode("utf-8"), what="report")


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
    plain = RenderOptions(color=False, quiet=False, rules_url=args.rules_url)
    for fmt, path in args.report:
        write_output(render(report, fmt, plain), path)
    text = render(report, args.format, options)
    write_output(text, args.output)
    summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
    if args.format == "github" and summary_file:
        from provscore.report.github import step_summary

        # GitHub renders this file on the run's summary page; append, never truncate.
        with open(summary_file, "a", encoding="utf-8") as fh:
            fh.write(step_summary(report, options))
    return _exit_code(report.exit_code, args.fail_on)


def _score_request(args: argparse.Namespace, *, results: Sequence[str] = (),
                   static_only: bool = False) -> object:
    from provscore.oracle.contract import load_oracle_contract
    from provscore.pipeline import ScoreRequest

    if args.head is None and args.diff is None and not args.staged:
        raise UsageError("give --head REV, --diff FILE (or --diff - for stdin) or --staged")
    diff: bytes | None
    if args.staged:
        from provscore.change.git import Repo

        diff, origin = Repo(args.repo).staged_diff(args.base), "git diff --cached"
    else:
        diff, origin = _read_diff(args.diff)
    oracle = Path(args.oracle) if args.oracle else None
    if oracle is not None and not oracle.is_dir():
        raise InputError("oracle dir does not exist", path=str(oracle))
    for r in results:
        if not Path(r).is_file():
            raise InputError("results file not found", path=r)
    return ScoreRequest(repo=Path(args.repo), base=args.base, head=args.head, diff=diff,
                        diff_origin=origin, oracle_dir=oracle,
                        contract=load_oracle_contract(oracle),
                        results=tuple(Path(r) for r in results), today=args.today,
                        static_only=static_only)


def _cmd_score(args: argparse.Namespace) -> int:
    from provscore.pipeline import ScoreRequest, score
    from provscore.session import Session

    req = _score_request(args, results=args.results, static_only=args.static_only)
    assert isinstance(req, ScoreRequest)
    return _emit(score(req, Session.load()), args)


def _run_request(args: argparse.Namespace) -> object:
    from provscore.pipeline import ScoreRequest
    from provscore.runner import RunOptions
    from provscore.verify import RunRequest

    req = _score_request(args)
    assert isinstance(req, ScoreRequest)
    options = RunOptions(repeat=args.repeat, python=args.python,
                         sandbox="none" if args.no_sandbox else "auto",
                         require_sandbox=args.require_sandbox, patch_id=args.patch_id,
                         subset=tuple(args.subset), record_flakes=args.record)
    if args.record and req.oracle_dir is None:
        raise UsageError("--record needs --oracle (the flake ledger lives in the oracle dir)")
    return RunRequest(req, options, Path(args.out) if args.out else None)


def _cmd_run(args: argparse.Namespace) -> int:
    from provscore.session import Session
    from provscore.verify import RunRequest, corpus_digest_of, run_patch

    if args.digest_only:
        print(corpus_digest_of(Path(args.repo), args.base, args.oracle, args.python))
        return ExitCode.PASS
    req = _run_request(args)
    assert isinstance(req, RunRequest)
    outcome = run_patch(req, Session.load())
    for line in outcome.summary():
        print(f"provscore: {line}")
    return ExitCode.PASS if outcome.record.ran and not outcome.record.base_error \
        else ExitCode.REJECT


def _cmd_verify(args: argparse.Namespace) -> int:
    from provscore.session import Session
    from provscore.verify import RunRequest, verify

    req = _run_request(args)
    assert isinstance(req, RunRequest)
    outcome = verify(req, Session.load())
    assert outcome.report is not None
    return _emit(outcome.report, args)


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
            if not Path(r).is_file():
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


COMMANDS = {"score": _cmd_score, "run": _cmd_run, "verify": _cmd_verify,
            "explain": _cmd_explain, "demo": _cmd_demo, "lock": _cmd_lock,
            "ledger": _cmd_ledger}


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    args = parser.parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except ProvscoreError as exc:
        print(f"provscore: error: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("provscore: interrupted", file=sys.stderr)
        return ExitCode.INTERRUPTED
    except BrokenPipeError:
        return ExitCode.PASS
    except Exception as exc:  # never a traceback for users; PROVSCORE_DEBUG=1 shows it
        if os.environ.get("PROVSCORE_DEBUG"):
            raise
        print(f"provscore: internal error: {type(exc).__name__}: {exc} "
              "(set PROVSCORE_DEBUG=1 for a traceback)", file=sys.stderr)
        return ExitCode.ERROR


def entry() -> None:
    sys.exit(main())


if __name__ == "__main__":
    entry()
