"""The flake ledger (JSONL, append-only): one row per off-tree result of a test id.

Written by ``provscore ledger record`` through :func:`append_rows`; :func:`flake_states`
replays each test's history through a small state machine (scored / unscored) — see
its docstring and ``docs/ledgers.md``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from provscore.errors import InputError
from provscore.oracle.rows import (
    Fields,
    append_jsonl,
    jsonl_objects,
    read_text,
    row_place,
    type_name,
)
from provscore.records import dataclass

FLAKE_RESULTS = ("pass", "fail")
FLAKE_STATES = ("scored", "unscored")
_FLAKE_KEYS = frozenset({"test_id", "result", "run_id", "recorded_at", "env"})


@dataclass(frozen=True, slots=True)
class FlakeRow:
    """One off-tree result of one test id, as recorded in the flake ledger."""

    test_id: str
    result: str  # "pass" | "fail"
    run_id: str
    recorded_at: str  # ISO-8601 timestamp, as written
    env: str = ""  # environment fingerprint digest (optional)


@dataclass(frozen=True, slots=True)
class FlakeState:
    """Whether a test id votes, from its history in the flake ledger."""

    test_id: str
    state: str  # "scored" | "unscored"
    results: tuple[str, ...]  # the last ``window`` results, oldest first
    reason: str


def flake_row(raw: Mapping[str, object], where: str) -> FlakeRow:
    f = Fields(raw, where, _FLAKE_KEYS)
    row = FlakeRow(
        test_id=f.text("test_id", nonempty=True),
        result=f.choice("result", FLAKE_RESULTS),
        run_id=f.text("run_id", nonempty=True),
        recorded_at=f.timestamp("recorded_at"),
        env=f.text("env", required=False),
    )
    return row


def read_flake_ledger(path: Path) -> tuple[FlakeRow, ...]:
    """Every row of a flake ledger (JSONL), in file order (= record order)."""
    text = read_text(path)
    return tuple(flake_row(obj, row_place(path, line)) for line, obj in jsonl_objects(path, text))


def results_by_test(rows: Iterable[FlakeRow]) -> dict[str, list[FlakeRow]]:
    """Results per test id in file order; a repeated (test_id, run_id, result) counts once."""
    seen: set[tuple[str, str, str]] = set()
    out: dict[str, list[FlakeRow]] = {}
    for row in rows:
        ident = (row.test_id, row.run_id, row.result)
        if ident in seen:
            continue
        seen.add(ident)
        out.setdefault(row.test_id, []).append(row)
    return out


def trailing_streak(results: Sequence[str]) -> int:
    n = 0
    for result in reversed(results):
        if result != results[-1]:
            break
        n += 1
    return n


def flake_states(rows: Iterable[FlakeRow], *, window: int,
                 reentry_streak: int) -> dict[str, FlakeState]:
    """The scored/unscored state of every test id in the flake ledger.

    Each test's results are replayed in file order (a repeated
    ``(test_id, run_id, result)`` row is one observation recorded twice and
    counts once) through this state machine, starting ``scored``:

    * ``scored`` → ``unscored`` when the last ``window`` results (fewer while
      the history is shorter) contain both ``pass`` and ``fail``;
    * ``unscored`` → ``scored`` when the trailing run of identical results is at
      least ``max(window, reentry_streak)`` long: the disagreement has left the
      window *and* the re-entry streak is complete. A streak of failures
      re-enters too: the test then votes, and fails.

    Equivalently: a test whose history never changed value is scored; otherwise
    it is scored exactly when its last ``max(window, reentry_streak)`` results
    agree.
    """
    if window < 2:
        raise InputError(f"the flake window must be at least 2 results, got {window}")
    if reentry_streak < 1:
        raise InputError(f"the flake re-entry streak must be at least 1, got {reentry_streak}")
    need = max(window, reentry_streak)
    out: dict[str, FlakeState] = {}
    for test_id, history in results_by_test(rows).items():
        results: list[str] = []
        state = "scored"
        for row in history:
            results.append(row.result)
            if state == "scored" and len(set(results[-window:])) > 1:
                state = "unscored"
            elif state == "unscored" and trailing_streak(results) >= need:
                state = "scored"
        last = tuple(results[-window:])
        streak = trailing_streak(results)
        if state == "scored":
            reason = ("stable" if streak == len(results)
                      else f"reentered: {streak} agreeing results since the last disagreement")
        elif len(set(last)) > 1:
            reason = "disagreement_on_independent_runner"
        else:
            reason = f"reentry_pending: {streak} of {need} agreeing results"
        out[test_id] = FlakeState(test_id, state, last, reason)
    return out


def _encode_rows(rows: Sequence[Mapping[str, object]], where: str) -> bytes:
    lines: list[bytes] = []
    for index, raw in enumerate(rows, start=1):
        if not isinstance(raw, Mapping):
            raise InputError(f"row {index} to append must be a mapping, got {type_name(raw)}",
                             path=where)
        row = flake_row(raw, f"{where} (row {index} to append)")
        obj: dict[str, str] = {"test_id": row.test_id, "result": row.result,
                               "run_id": row.run_id, "recorded_at": row.recorded_at}
        if row.env:
            obj["env"] = row.env
        # ensure_ascii: the line holds no byte a reader could take for a line break.
        lines.append(json.dumps(obj, ensure_ascii=True, separators=(",", ":")).encode("ascii"))
    return b"".join(line + b"\n" for line in lines)


def append_rows(path: Path, rows: Sequence[Mapping[str, object]]) -> None:
    """Append flake-ledger rows to ``path`` (created if missing): all of them or none.

    Every row is validated before anything is written; :func:`append_jsonl` then writes
    them in one locked, fsynced, all-or-nothing append."""
    append_jsonl(path, _encode_rows(rows, str(path)), what="flake ledger")
