"""The run ledger (JSONL, append-only): one row per off-tree run of a patch (seed 004).

``provscore run`` and ``provscore verify`` append one row per run that executed; the
contract's ``runner.max_runs_per_patch`` caps how many rows one patch id may have (seed
004: past six runs the patch is too large to verify; split it, do not raise the cap).
Rows are validated like every other ledger (:mod:`provscore.oracle.rows`): a malformed
row is an error naming the file and line, never a skipped row that would reset the cap.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

from provscore.errors import InputError
from provscore.oracle.load import oracle_input_exists
from provscore.oracle.rows import Fields, append_jsonl, jsonl_objects, read_text, row_place
from provscore.records import dataclass

#: The ``verdict`` of a row: the decision for ``verify``; for ``run`` (no scoring), whether
#: every base test and property passed.
RUN_VERDICTS = ("pass", "review", "reject", "passed", "failed")
RUN_COMMANDS = ("run", "verify")
_KEYS = frozenset({"run_id", "patch_id", "subset", "wall_s", "verdict", "env", "recorded_at",
                   "command", "tokens_in", "tokens_out"})


@dataclass(frozen=True, slots=True)
class RunLogRow:
    """One off-tree run, as the run ledger records it."""

    run_id: str
    patch_id: str
    subset: str  # "full", or the node ids / paths the run was restricted to
    wall_s: float
    verdict: str
    recorded_at: str
    env: str = ""  # environment fingerprint digest
    command: str = "verify"
    tokens_in: int | None = None  # seed 004's cost columns, when an agent loop records them
    tokens_out: int | None = None

    def to_json(self) -> dict[str, object]:
        obj: dict[str, object] = {"run_id": self.run_id, "patch_id": self.patch_id,
                                  "subset": self.subset, "wall_s": round(self.wall_s, 3),
                                  "verdict": self.verdict, "env": self.env,
                                  "recorded_at": self.recorded_at, "command": self.command}
        for key in ("tokens_in", "tokens_out"):
            if getattr(self, key) is not None:
                obj[key] = getattr(self, key)
        return obj


def run_row(raw: dict[str, object], where: str) -> RunLogRow:
    f = Fields(raw, where, _KEYS)
    row = RunLogRow(
        run_id=f.text("run_id", nonempty=True),
        patch_id=f.text("patch_id", nonempty=True),
        subset=f.text("subset", nonempty=True),
        wall_s=f.number("wall_s") or 0.0,
        verdict=f.choice("verdict", RUN_VERDICTS),
        recorded_at=f.timestamp("recorded_at"),
        env=f.text("env", required=False),
        command=f.choice("command", RUN_COMMANDS, required=False, default="verify"),
        tokens_in=f.count("tokens_in"),
        tokens_out=f.count("tokens_out"),
    )
    return row


def read_run_log(path: Path) -> tuple[RunLogRow, ...]:
    """Every row of a run ledger, in file order; a missing file has none."""
    if not oracle_input_exists(path, "run ledger"):
        return ()
    text = read_text(path)
    rows = tuple(run_row(obj, row_place(path, line)) for line, obj in jsonl_objects(path, text))
    seen: dict[str, int] = {}
    for index, row in enumerate(rows):
        if row.run_id in seen:
            raise InputError(f"run id {row.run_id!r} is recorded twice (rows {seen[row.run_id]} "
                             f"and {index + 1}); every run has its own id", path=str(path))
        seen[row.run_id] = index + 1
    return rows


def runs_of(rows: Iterable[RunLogRow], patch_id: str) -> int:
    """How many runs the ledger records for ``patch_id``."""
    return sum(1 for r in rows if r.patch_id == patch_id)


def append_run_row(path: Path, row: RunLogRow) -> None:
    """Append one validated row (atomically, under the ledger's lock)."""
    obj = row.to_json()
    run_row(obj, f"{path} (row to append)")
    line = json.dumps(obj, ensure_ascii=True, separators=(",", ":")).encode("ascii") + b"\n"
    append_jsonl(path, line)
