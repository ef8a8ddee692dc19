"""What the commands that score (``score``, ``verify``, ``demo``) share: their output,
selection and configuration flags, the settings resolved from the command line, the
environment and ``[tool.provscore]`` at base, the checks made before any work, and the
one way a finished report is rendered and written (``report/outputs.py``)."""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from provscore.errors import ExitCode, InputError, UsageError
from provscore.records import dataclass

if TYPE_CHECKING:  # imported where used: `provscore --help` stays fast
    from provscore.callgraph.cache import SummaryCache
    from provscore.change.git import Repo
    from provscore.config import CommandLine, RepoConfig, Settings
    from provscore.oracle.contract import Contract
    from provscore.progress import ProgressLine
    from provscore.report.model import Report
    from provscore.scoring.selection import ActiveRules
    from provscore.session import Session


def add_output_args(p: argparse.ArgumentParser) -> None:
    from provscore.report import formats

    p.add_argument("--format", action="append", default=[], metavar="FMT[:PATH]",
                   help=f"report format ({', '.join(formats())}), to PATH or standard "
                        "output; repeatable: one scoring, every rendering (default: "
                        "$PROVSCORE_FORMAT, [tool.provscore] format, else text)")
    p.add_argument("--output", "-o", help="write the --format without a PATH to this file "
                   "(atomically)")
    p.add_argument("-q", "--quiet", action="store_true",
                   help="the decision line only; no progress line")
    color = p.add_mutually_exclusive_group()
    color.add_argument("--color", choices=("auto", "always", "never"),
                       help="ANSI colour on standard output (default: $PROVSCORE_COLOR, else "
                            "auto: a terminal, unless NO_COLOR; FORCE_COLOR forces it)")
    color.add_argument("--no-color", action="store_const", const="never", dest="color",
                       help="same as --color never")
    p.add_argument("--fail-on", choices=("review", "reject"),
                   help="lowest decision that makes the exit code non-zero (default: "
                        "$PROVSCORE_FAIL_ON, [tool.provscore] fail-on, else review)")
    p.add_argument("--exit-zero", action="store_true",
                   help="exit 0 whatever the decision (3 still means provscore could not run)")
    p.add_argument("--statistics", action="store_true",
                   help="print the number of findings per rule code instead of the report "
                        "on standard output (files named by --format are still written)")
    p.add_argument("--rules-url", default=os.environ.get("PROVSCORE_RULES_URL"),
                   help="URL of docs/rules.md for rule links in markdown/SARIF "
                        "(default: $PROVSCORE_RULES_URL)")


def add_selection_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--select", type=_codes, action="extend", default=None, metavar="CODES",
                   help="rule codes or prefixes in force, comma-separated (PS1,PS301); "
                        "replaces [tool.provscore] select (default: ALL)")
    p.add_argument("--extend-select", type=_codes, action="extend", default=[],
                   metavar="CODES", help="rule codes or prefixes to add to the selection")
    p.add_argument("--ignore", type=_codes, action="extend", default=[], metavar="CODES",
                   help="rule codes or prefixes to leave out (the contract's [rules] and "
                        "the input rules PS9xx stay in force)")
    cfg = p.add_mutually_exclusive_group()
    cfg.add_argument("--config", metavar="FILE",
                     help="read [tool.provscore] from FILE (a pyproject.toml, or a TOML file "
                          "that is the table) instead of pyproject.toml at --base")
    cfg.add_argument("--isolated", action="store_true",
                     help="read no configuration file (command line, environment, defaults)")


def _codes(text: str) -> list[str]:
    return [c.strip() for c in text.split(",") if c.strip()]


def cache_path(args: argparse.Namespace) -> Path | None:
    """The call-graph summary cache ``--cache-dir`` / ``--no-cache`` name (None: memory)."""
    from provscore.callgraph.cache import default_cache_path

    if args.no_cache:
        return None
    return Path(args.cache_dir) / "callgraph.sqlite" if args.cache_dir else default_cache_path()


def load_session(args: argparse.Namespace) -> Session:
    from provscore.session import Session

    path = cache_path(args)
    if path is None:
        return Session.load()

    def open_cache() -> SummaryCache:  # on first use: a run that builds no graph never opens it
        from provscore.callgraph.cache import SummaryCache

        return SummaryCache(path)

    return Session.load(open_cache=open_cache)


def write_output(text: str, output: str | None) -> None:
    """Print, or write atomically (graph, coverage): the one writer of report/outputs.py."""
    from provscore.report.outputs import write_one

    write_one(text, output, sys.stdout)


def _exit_code(decision_code: ExitCode, fail_on: str) -> ExitCode:
    if fail_on == "reject" and decision_code is ExitCode.REVIEW:
        return ExitCode.PASS
    return decision_code


def command_line(args: argparse.Namespace) -> CommandLine:
    from provscore.config import CommandLine

    return CommandLine(formats=tuple(args.format), output=args.output, fail_on=args.fail_on,
                       color=args.color, oracle=getattr(args, "oracle", None),
                       select=None if getattr(args, "select", None) is None
                       else tuple(args.select),
                       extend_select=tuple(getattr(args, "extend_select", ())),
                       ignore=tuple(getattr(args, "ignore", ())))


def emit(report: Report, args: argparse.Namespace, settings: Settings) -> int:
    """Render every requested format from the one report; the exit code."""
    from provscore.config import use_color
    from provscore.report import RenderOptions
    from provscore.report.layout import DEFAULT_WIDTH
    from provscore.report.outputs import write_outputs

    options = RenderOptions(color=use_color(settings.color, os.environ, sys.stdout.isatty()),
                            quiet=args.quiet, rules_url=args.rules_url,
                            width=shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns)
    statistics = None
    if args.statistics:  # imported only here: tabulate is not needed by --format json
        from provscore.report.concise import render_statistics

        statistics = render_statistics(report, options)
    write_outputs(report, settings.targets, options, sys.stdout,
                  step_summary_file=os.environ.get("GITHUB_STEP_SUMMARY"),
                  stdout_text=statistics)
    if not args.quiet:  # a rule the selection asked to leave out, but which fired anyway
        fired = {f.code for f in report.findings}
        for code, why in report.selection.kept:
            if code in fired:
                print(f"provscore: note: {code} is reported although deselected: {why}",
                      file=sys.stderr)
    if args.exit_zero:
        return ExitCode.PASS
    return _exit_code(report.exit_code, settings.fail_on)


def _repo_config(args: argparse.Namespace, repo: Repo, base_sha: str) -> RepoConfig:
    from provscore.config import RepoConfig, config_from_base, config_from_file

    if args.isolated:
        return RepoConfig()
    if args.config:
        return config_from_file(args.config)
    return config_from_base(repo, base_sha, Path(args.repo))


def need_source(args: argparse.Namespace) -> None:
    if args.head is None and args.diff is None and not args.staged:
        raise UsageError("give --head REV, --diff FILE (or --diff - for stdin) or --staged")


def oracle_dir(given: str | None) -> Path | None:
    oracle = Path(given) if given else None
    if oracle is not None and not oracle.is_dir():
        raise InputError("oracle dir does not exist", path=str(oracle))
    return oracle


@dataclass(frozen=True, slots=True)
class Scoring:
    """What score and verify share: the session, every setting resolved (command line,
    environment, [tool.provscore] at base), the oracle dir and its contract, the rules in
    force, and the progress line."""

    session: Session
    settings: Settings
    config_source: str | None
    oracle: Path | None
    contract: Contract
    rules: ActiveRules
    progress: ProgressLine | None
    repo: Repo  # opened to read [tool.provscore] at base; the score reads through it too


def scoring(args: argparse.Namespace, inputs: Sequence[str | None]) -> Scoring:
    """Everything checked before any work: the patch source, the configuration, the oracle
    dir, that no report file is one of ``inputs`` (or in the oracle dir), the selection."""
    from provscore.change.git import Repo
    from provscore.config import check_config_rules, required_rules, resolve_settings
    from provscore.oracle.contract import load_oracle_contract
    from provscore.progress import ProgressLine
    from provscore.report.outputs import refuse_output_over_inputs
    from provscore.scoring.selection import resolve_selection
    from provscore.session import Session

    need_source(args)
    repo = Repo(args.repo, long_lived=True)  # one cat-file process for every blob read
    base_sha = repo.resolve_base(args.base)
    repo.pin(args.base, base_sha)  # the configuration and the score read the same commit
    config = _repo_config(args, repo, base_sha)
    session = load_session(args)
    assert isinstance(session, Session)
    check_config_rules(config, session.registry)
    settings = resolve_settings(command_line(args), os.environ, config)
    oracle = oracle_dir(settings.oracle)
    refuse_output_over_inputs(settings.targets, inputs, oracle)
    contract = load_oracle_contract(oracle)
    rules = resolve_selection(settings.selection, session.registry, required_rules(contract))
    progress = ProgressLine(sys.stderr) if sys.stderr.isatty() and not args.quiet else None
    return Scoring(session, settings, config.source, oracle, contract, rules, progress, repo)
