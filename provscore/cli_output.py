"""Where the CLI's reports go: ``--format FMT[:PATH]`` (repeatable) and ``--output``.

diff-cover's convention: ``--format markdown:comment.md --format sarif:provscore.sarif
--format github``. A ``--format`` with a PATH writes that file; the one ``--format``
without a PATH (default ``text``) goes to ``--output`` or stdout. Every rendering is made
from the one Report before anything is written, and every file is written atomically, so a
bad target never leaves some reports written and others not.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from provscore.errors import UsageError
from provscore.io import atomic_write


@dataclass(frozen=True, slots=True)
class OutputTarget:
    """One rendering: a report format and the file it goes to (None: stdout)."""

    fmt: str
    path: str | None


def format_target(text: str) -> OutputTarget:
    """argparse type of ``--format``: ``FMT`` or ``FMT:PATH`` (the PATH may hold colons)."""
    from provscore.report import formats

    fmt, sep, path = text.partition(":")
    if fmt not in formats() or (sep and not path):
        raise argparse.ArgumentTypeError(f"expected FMT or FMT:PATH with FMT one of "
                                         f"{', '.join(formats())}, got {text!r}")
    return OutputTarget(fmt, path or None)


def output_targets(given: Sequence[OutputTarget] | None, output: str | None
                   ) -> tuple[OutputTarget, ...]:
    """Every rendering to write: the files, then the one for ``--output`` or stdout."""
    given = list(given or ())
    to_main = [t for t in given if t.path is None]
    if len(to_main) > 1:
        raise UsageError(f"--format {to_main[0].fmt} and --format {to_main[1].fmt} both go "
                         "to " + (f"--output {output}" if output else "stdout") +
                         "; give the others a PATH (--format FMT:PATH)")
    files = [t for t in given if t.path is not None]
    paths = [str(Path(t.path).resolve()) for t in files if t.path is not None]
    if output is not None:
        paths.append(str(Path(output).resolve()))
    twice = sorted({p for p in paths if paths.count(p) > 1})
    if twice:
        raise UsageError(f"two reports would be written to {twice[0]}")
    main = to_main[0] if to_main else OutputTarget("text", None)
    return (*files, OutputTarget(main.fmt, output))


def refuse_targets_over_inputs(args: argparse.Namespace, inputs: Sequence[str | None],
                               oracle: Path | None) -> None:
    """:func:`refuse_output_over_inputs` for every file the command's reports go to."""
    for target in output_targets(args.format, args.output):
        if target.path is not None:
            flag = "--output" if target.path == args.output else f"--format {target.fmt}:"
            refuse_output_over_inputs(target.path, inputs, oracle, flag=flag)


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
                              oracle: Path | None, *, flag: str = "--output") -> None:
    """A report must never replace what it was computed from: refuse an output file that
    is one of the inputs (the same file by name or inode) or lies inside the oracle dir."""
    if output is None:
        return
    target, named = Path(output), f"{flag}{'' if flag.endswith(':') else ' '}{output}"
    resolved = target.resolve()
    if oracle is not None and resolved.is_relative_to(oracle.resolve()):
        raise UsageError(f"{named} lies inside the oracle dir {oracle}; "
                         "refusing to write a report over the oracle")
    for given in inputs:
        if given is None or given == "-":
            continue
        same = resolved == Path(given).resolve()
        with contextlib.suppress(OSError):
            same = same or os.path.samefile(target, given)
        if same:
            raise UsageError(f"{named} is the input {given}; refusing to "
                             "overwrite it")


def write_reports(report: object, targets: Sequence[OutputTarget], *, main: object,
                  files: object) -> None:
    """Render every target from the one report, then write them: the files with the
    ``files`` options, the last target (``--output`` or stdout) with ``main``'s."""
    from provscore.report import RenderOptions, render
    from provscore.report.model import Report

    assert isinstance(report, Report)
    assert isinstance(main, RenderOptions) and isinstance(files, RenderOptions)
    last = len(targets) - 1
    rendered = [(t.path, render(report, t.fmt, main if n == last else files))
                for n, t in enumerate(targets)]
    for path, text in rendered:
        write_output(text, path)
