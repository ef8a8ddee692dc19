"""The base corpus: collected once at base, then run against the patched code N times.

Collection runs in the reference tree (base as committed): the ids it yields are the base
tests. Each repeat runs the same corpus in the patched tree with ``-p no:cacheprovider``
(the cache is a write channel), the frozen ids deselected (exactly each id and its
parametrizations, where pytest's ``--deselect`` would drop every id sharing the prefix),
and JUnit XML written to the repeat's own output directory outside both trees. Outcomes
are read from the in-sandbox plugin's ``result`` events, which carry pytest's exact node
ids (a JUnit ``classname`` cannot always be mapped back) and survive a kill at the wall
clock: tests that finished before it keep their result.

**Every base test gets a result.** A base test that the patched run did not report (the
patch broke collection: a syntax error or a failing import planted in a module the tests
import; or pytest died, or the run was killed at the wall clock) counts as failed
(``error``), with the reason and the collection error in the digest. A file-level
collection error is folded into the base tests of that file; one for a file that does not
collect at base either is not the patch's doing and does not vote.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import field
from pathlib import Path

from provscore.nodeid import covers, file_of
from provscore.records import dataclass
from provscore.results import Outcome, RunResults, Verdict
from provscore.runner.jobs import JobResult, Jobs, Started
from provscore.runner.model import Kill


@dataclass(frozen=True, slots=True)
class BaseCollection:
    ids: tuple[str, ...]
    broken_files: frozenset[str]  # files that fail to collect at base
    error: str | None = None  # why there are no base ids at all
    kill: Kill | None = None  # the collection was stopped at the wall clock


@dataclass(frozen=True, slots=True)
class Repeat:
    """One repeat's complete results (a result for every base test) and what it left."""

    results: RunResults
    failures: dict[str, tuple[str, ...]]  # node id -> last lines
    kill: Kill | None = None
    killed_ids: frozenset[str] = field(default_factory=frozenset)


def pytest_args(subset: Sequence[str]) -> list[str]:
    return ["-p", "no:cacheprovider", "--continue-on-collection-errors", *subset]


def start_collection(jobs: Jobs, reference: Path, subset: Sequence[str],
                     timeout: float) -> Started:
    return jobs.start("collect-base", {"mode": "pytest", "roots": roots(reference),
                                       "args": ["--collect-only", "-q", *pytest_args(subset)]},
                      cwd=reference, timeout=timeout)


def collection(job: JobResult) -> BaseCollection:
    broken = frozenset(file_of(i) for i in job.failures("collect_error"))
    ids = job.collected()
    if job.finished.timed_out:
        return BaseCollection((), broken, f"collecting the base tests took longer than the "
                                          f"wall clock ({job.finished.limit:g} s)",
                              Kill("collection at base", job.finished.limit, job.running()))
    if ids is None:
        tail = job.log_tail(3)
        return BaseCollection((), broken, "pytest could not collect the base tests "
                              f"(exit {job.finished.returncode}): {' / '.join(tail)}")
    return BaseCollection(ids, broken)


def start_repeat(jobs: Jobs, patched: Path, n: int, *, frozen: Iterable[str],
                 subset: Sequence[str], timeout: float) -> Started:
    args = ["-o", "junit_family=xunit1", *pytest_args(subset)]
    return jobs.start(f"repeat-{n}", {"mode": "pytest", "roots": roots(patched), "args": args,
                                      "junit": True, "deselect": sorted(frozen)},
                      cwd=patched, timeout=timeout)


def roots(tree: Path) -> list[str]:
    """Import roots of a tree: its top, and ``src/`` for a src layout."""
    out = [str(tree)]
    if (tree / "src").is_dir():
        out.append(str(tree / "src"))
    return out


def reported(job: JobResult, index: int) -> dict[str, Outcome]:
    """The outcome of every test the process reported (``result`` events, exact ids)."""
    source = str(job.out / "junit.xml")
    out: dict[str, Outcome] = {}
    for e in job.events:
        if e.get("event") != "result" or not isinstance(e.get("nodeid"), str):
            continue
        try:
            verdict = Verdict(str(e.get("outcome")))
        except ValueError:
            verdict = Verdict.ERROR
        duration = e.get("duration")
        out[e["nodeid"]] = Outcome(
            e["nodeid"], verdict, index, source, message=str(e.get("message") or "")[:500],
            duration=float(duration) if isinstance(duration, int | float) else None)
    return out


def _why_missing(job: JobResult) -> str:
    if job.finished.timed_out:
        running = job.running()
        return (f"the run was killed at the wall clock ({job.finished.limit:g} s)"
                + (f" while {running} was running" if running else ""))
    if job.collected() is None:
        return f"pytest exited with code {job.finished.returncode} before collecting"
    return "not collected in the patched run"


def complete_repeat(job: JobResult, index: int, *, base: BaseCollection,
                    frozen: frozenset[str], tail: int) -> Repeat:
    """The repeat's results with a result for every base test (module docstring)."""
    outcomes = reported(job, index)
    source = str(job.out / "junit.xml")
    collect_errors = job.failures("collect_error")
    failures = dict(job.failures())
    why = _why_missing(job)
    log = tuple(job.log_tail(tail))
    timed_out = job.finished.timed_out
    killed: set[str] = set()
    for bid in base.ids:
        if bid in outcomes:
            continue
        if any(covers(f, bid) for f in frozen):
            outcomes[bid] = Outcome(bid, Verdict.SKIPPED, index, source,
                                    message="deselected: frozen in the freeze ledger")
            continue
        error = collect_errors.get(file_of(bid))
        if error is not None and file_of(bid) not in base.broken_files:
            last = next((x.strip() for x in reversed(error) if x.strip()), "collection error")
            message = f"no result in the patched run: {file_of(bid)} could not be collected: {last}"
            failures[bid] = error
        else:
            message = f"no result in the patched run: {why}"
            failures[bid] = (message,) if timed_out or not log else log
        if timed_out:
            killed.add(bid)
        outcomes[bid] = Outcome(bid, Verdict.ERROR, index, source, message=message[:500])
    kill = Kill(f"repeat {index + 1}", job.finished.limit, job.running(),
                len(killed)) if timed_out else None
    results = RunResults(source, "pytest-json", tuple(outcomes[k] for k in sorted(outcomes)))
    return Repeat(results, failures, kill, frozenset(killed))
