"""Exit codes, and the exceptions provscore raises when it cannot run at all.

Problems *in* the patch are findings, never exceptions; these are for inputs
provscore cannot read (a missing repo, an unreadable contract, bad arguments).
The CLI turns each into one line on stderr and exit code 3.
"""

from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """What the ``provscore`` process exits with (docs/cli.md)."""

    PASS = 0
    REVIEW = 1
    REJECT = 2  # including an unscored patch
    ERROR = 3  # provscore could not run: bad arguments, unreadable input
    INTERRUPTED = 130  # Ctrl-C, as a shell reports SIGINT
    TERMINATED = 143  # SIGTERM, as a shell reports it


class ProvscoreError(Exception):
    """provscore could not run; the message is one line that names the input."""

    exit_code = ExitCode.ERROR

    def __init__(self, message: str, *, path: str | None = None) -> None:
        self.path = path
        super().__init__(f"{path}: {message}" if path else message)


class UsageError(ProvscoreError):
    """Bad command-line arguments or a combination that makes no sense."""


class InputError(ProvscoreError):
    """An input file (diff, contract, ledger, results) is unreadable or malformed."""


class GitError(ProvscoreError):
    """git failed: not a repository, unknown revision, missing object."""
