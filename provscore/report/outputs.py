"""Several renderings of one finished report in one run: ``--format FMT[:PATH]``.

diff-cover's convention: each ``--format`` names a format and, after a colon, the file it
goes to; a format without a path goes to standard output (at most one may). Every
rendering is made from the same :class:`~provscore.report.model.Report` (the patch is
scored once), all of them before anything is written, and the files are written together
through :func:`provscore.io.atomic_write_all`: a failure leaves every file as it was and
prints nothing.
"""

from __future__ import annotations

import contextlib
import difflib
import os
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from provscore.errors import InputError, UsageError
from provscore.io import atomic_write_all
from provscore.records import dataclass
from provscore.report import RenderOptions, formats, render
from provscore.report.model import Report

#: Formats whose text may carry ANSI colour (only ever on standard output).
COLOR_FORMATS = frozenset({"text", "concise"})
#: What goes to standard output when no format is asked for, or every one names a file.
DEFAULT_FORMAT = "text"


@dataclass(frozen=True, slots=True)
class OutputTarget:
    """One requested rendering: a format and its file (None: standard output)."""

    fmt: str
    path: str | None = None
    via_output: bool = False  # the path came from --output

    @property
    def spec(self) -> str:
        return self.fmt if self.path is None else f"{self.fmt}:{self.path}"

    @property
    def flag(self) -> str:
        """How the command line named it, for error messages."""
        return f"--output {self.path}" if self.via_output else f"--format {self.spec}"


def parse_target(text: str, where: str = "--format") -> OutputTarget:
    """``FMT`` or ``FMT:PATH``; an unknown format is a UsageError with a suggestion.

    Only the first colon separates, so a path may hold colons (``json:C:/r.json``)."""
    fmt, sep, path = text.partition(":")
    known = formats()
    if fmt not in known:
        close = difflib.get_close_matches(fmt, known, n=1)
        hint = f" (did you mean {close[0]}?)" if close else ""
        raise UsageError(f"{where}: unknown format {fmt!r}{hint}; expected FMT or FMT:PATH "
                         f"with FMT one of {', '.join(known)}")
    if sep and not path:
        raise UsageError(f"{where}: {text!r} names no file after ':' (give FMT for standard "
                         "output, or FMT:PATH)")
    return OutputTarget(fmt, path or None)


def resolve_targets(targets: Sequence[OutputTarget], output: str | None
                    ) -> tuple[OutputTarget, ...]:
    """Check the requested renderings and give ``--output`` to the one without a path.

    At most one rendering goes to standard output; when every one names a file, the
    default ``text`` still goes there (or to ``--output``): a log always shows the
    decision. No file is named twice (two renderings into one file would silently keep
    the last)."""
    to_stdout = [t for t in targets if t.path is None]
    if len(to_stdout) > 1:
        raise UsageError("only one format can go to standard output, got "
                         f"{', '.join(t.fmt for t in to_stdout)}: give the others a file "
                         "(--format FMT:PATH)")
    if not to_stdout:
        targets = [*targets, OutputTarget(DEFAULT_FORMAT)]
    if output is not None:
        targets = [replace(t, path=output, via_output=True) if t.path is None else t
                   for t in targets]
    seen: dict[str, OutputTarget] = {}
    for t in targets:
        if t.path is None:
            continue
        key = os.path.normcase(os.path.abspath(t.path))
        if key in seen:
            raise UsageError(f"{t.path}: named by both {seen[key].flag} and {t.flag}")
        seen[key] = t
    return tuple(targets)


def refuse_output_over_inputs(targets: Sequence[OutputTarget], inputs: Sequence[str | None],
                              oracle: Path | None) -> None:
    """A report must never replace what it was computed from: refuse a report file that
    is one of the inputs (the same file by name or inode) or lies inside the oracle dir."""
    for t in targets:
        if t.path is None:
            continue
        target = Path(t.path)
        resolved = target.resolve()
        if oracle is not None and resolved.is_relative_to(oracle.resolve()):
            raise UsageError(f"{t.flag} lies inside the oracle dir {oracle}; refusing to "
                             "write a report over the oracle")
        for given in inputs:
            if given is None or given == "-":
                continue
            same = resolved == Path(given).resolve()
            with contextlib.suppress(OSError):
                same = same or os.path.samefile(target, given)
            if same:
                raise UsageError(f"{t.flag} is the input {given}; refusing to overwrite it")


def encoded(text: str) -> bytes:
    """Reports are UTF-8 whatever the locale (JSON and SARIF must be); anything that is
    not valid Unicode was escaped when the report was built."""
    return text.encode("utf-8", "backslashreplace")


def write_stdout(stream: TextIO, text: str) -> None:
    """``text`` on ``stream`` as UTF-8 bytes (its buffer), whatever the locale's encoding."""
    data = encoded(text)
    buffer = getattr(stream, "buffer", None)
    if buffer is None:  # a text-only stream (an embedding application's)
        stream.write(data.decode("utf-8"))
        return
    stream.flush()
    buffer.write(data)
    buffer.flush()


def write_one(text: str, path: str | None, stdout: TextIO, what: str = "report") -> None:
    """Print, or write atomically: a failed write never leaves a partial file."""
    if path is None:
        write_stdout(stdout, text)
    else:
        atomic_write_all([(Path(path), encoded(text), what)])


@dataclass(frozen=True, slots=True)
class Rendered:
    target: OutputTarget
    text: str


def render_all(report: Report, targets: Sequence[OutputTarget], options: RenderOptions
               ) -> tuple[Rendered, ...]:
    """Every requested rendering of the one report. Colour only for a colour format on
    standard output: a file never holds escape codes."""
    plain = replace(options, color=False)
    return tuple(Rendered(t, render(report, t.fmt, options if t.path is None
                                    and t.fmt in COLOR_FORMATS else plain))
                 for t in targets)


def write_outputs(report: Report, targets: Sequence[OutputTarget], options: RenderOptions,
                  stdout: TextIO, *, step_summary_file: str | None = None,
                  stdout_text: str | None = None) -> tuple[Rendered, ...]:
    """Render every target, write the files (all or none), then print the one for
    standard output (``stdout_text`` replaces it, e.g. ``--statistics``).

    ``step_summary_file`` (``$GITHUB_STEP_SUMMARY``): when a ``github`` rendering was
    asked for, the Markdown report is appended there, as GitHub expects of every step."""
    rendered = render_all(report, targets, options)
    atomic_write_all([(Path(r.target.path), encoded(r.text), f"{r.target.fmt} report")
                      for r in rendered if r.target.path is not None])
    if step_summary_file and any(t.fmt == "github" for t in targets):
        from provscore.report.github import step_summary  # only for github: its imports cost

        # GitHub renders this file on the run's summary page; append, never truncate.
        try:
            with open(step_summary_file, "a", encoding="utf-8",
                      errors="backslashreplace") as fh:
                fh.write(step_summary(report, replace(options, color=False)))
        except OSError as exc:
            raise InputError(f"cannot append the step summary: {exc.strerror or exc}",
                             path=step_summary_file) from None
    shown = [r.text for r in rendered if r.target.path is None]
    if stdout_text is not None:
        write_stdout(stdout, stdout_text)
    elif shown:
        write_stdout(stdout, shown[0])
    return rendered
