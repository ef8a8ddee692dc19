"""Off-tree results as typed records: one :class:`Outcome` per test id and run."""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping

from provscore.records import dataclass

MAX_MESSAGE = 500


class Verdict(enum.StrEnum):
    """The outcome of one test in one run."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"
    SKIPPED = "skipped"
    XFAILED = "xfailed"
    XPASSED = "xpassed"


# Larger is worse; used when one file reports one id more than once.
SEVERITY: Mapping[Verdict, int] = {
    Verdict.PASSED: 0,
    Verdict.XFAILED: 1,
    Verdict.SKIPPED: 2,
    Verdict.XPASSED: 3,
    Verdict.FAILED: 4,
    Verdict.ERROR: 5,
}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One test id's result in one run (one results file)."""

    node_id: str
    verdict: Verdict
    run: int  # index of the run (file) it came from, 0-based, in the order given
    source: str  # the results file it came from
    duration: float | None = None  # seconds; summed over the records merged into it
    message: str = ""  # failure/skip message: first line, at most MAX_MESSAGE chars
    reruns: int = 0  # earlier attempts the file records (see the module docstring)


@dataclass(frozen=True, slots=True)
class RunResults:
    """Everything one results file says, one outcome per test id, in file order."""

    source: str
    format: str  # "junit" | "pytest-json" | "swebench"
    outcomes: tuple[Outcome, ...]


@dataclass(frozen=True, slots=True)
class Record:
    """One raw report of one id inside one file, before duplicates are merged."""

    node_id: str
    verdict: Verdict
    message: str = ""
    duration: float | None = None
    reruns: int = 0
    empty: bool = False  # a JUnit <testcase> with no result child


def first_line(text: str | None) -> str:
    if not text:
        return ""
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[:MAX_MESSAGE]
    return ""


def by_node_id(runs: Iterable[RunResults]) -> dict[str, tuple[Outcome, ...]]:
    """Every run's outcome per test id, in run order (ids in order of first appearance)."""
    grouped: dict[str, list[Outcome]] = {}
    for results in runs:
        for outcome in results.outcomes:
            grouped.setdefault(outcome.node_id, []).append(outcome)
    return {
        node_id: tuple(sorted(items, key=lambda o: o.run)) for node_id, items in grouped.items()
    }
