"""The batch stage's records: what goes into scoring one prediction, and the row it becomes.

A prediction file is read once to plan (:class:`PredictionRef`: where each row is, no patch
text kept), the pending rows are grouped by repository and commit into :class:`Chunk` s of
:class:`Task` s, each task is scored by a worker into one :class:`PatchRow`, and a chunk's
rows are written to the results database in one transaction.
"""

from __future__ import annotations

import enum
from dataclasses import field
from pathlib import Path

from provscore.records import dataclass


class Status(enum.StrEnum):
    """Whether provscore judged the patch; an unscored row says why in ``reason``."""

    SCORED = "scored"
    UNSCORED = "unscored"


class Reason(enum.StrEnum):
    """Why a row is unscored. The batch records the row and goes on."""

    EMPTY_PATCH = "empty-patch"  # model_patch null, empty, or a diff that changes nothing
    UNKNOWN_INSTANCE = "unknown-instance"  # not in --instances
    MISSING_MIRROR = "missing-mirror"  # no owner__repo under --repos
    MISSING_COMMIT = "missing-commit"  # the mirror lacks base_commit
    DIFF_UNPARSEABLE = "diff-unparseable"  # PS901: not a diff git and patch agree on
    DOES_NOT_APPLY = "does-not-apply"  # PS902: git does not apply it to base_commit
    ERROR = "error"  # provscore could not score it (the message says why)


@dataclass(frozen=True, slots=True, order=True)
class RowKey:
    """A row's identity: the same prediction file (by content), instance and model."""

    pred_digest: str
    instance_id: str
    model: str


@dataclass(frozen=True, slots=True)
class PredictionRef:
    """Where one prediction is: its file and, for JSONL, the byte span of its line."""

    key: RowKey
    file_index: int
    offset: int  # JSONL: byte offset of the line; JSON: index of the row
    length: int  # JSONL: byte length of the line; JSON: 0
    line: int = 0  # JSONL: the line number, for errors


@dataclass(frozen=True, slots=True)
class Instance:
    """One task instance (a SWE-bench dataset row): what the patch applies to."""

    instance_id: str
    repo: str  # owner/name
    base_commit: str
    test_patch: str = ""  # the hidden tests' diff (feeds PS807 and hidden_* columns)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the benchmark's harness said about one (model, instance)."""

    resolved: bool | None
    source: str  # the report file it came from
    applied: bool | None = None
    f2p_passed: int | None = None
    f2p_failed: int | None = None
    p2p_passed: int | None = None
    p2p_failed: int | None = None
    # The report.json holding the instance's tests_status, when the harness wrote one:
    # the pipeline reads it as the run's results (``score --results report.json``).
    report_path: str | None = None
    # That instance's entry alone, when the file reports on other instances too.
    report_json: bytes | None = None


@dataclass(frozen=True, slots=True)
class Task:
    """One prediction to score, with everything a worker needs (picklable)."""

    key: RowKey
    pred_file: str
    patch: str | None
    instance: Instance | None
    mirror: Path | None
    outcome: Outcome | None = None


@dataclass(frozen=True, slots=True)
class Chunk:
    """Tasks scored by one worker and written in one transaction (mostly one repo)."""

    number: int
    tasks: tuple[Task, ...]


@dataclass(frozen=True, slots=True)
class FindingRow:
    """One finding of a scored patch, with its rule's registry metadata."""

    code: str
    name: str
    family: str
    gate: str
    tally: str
    action: str
    path: str | None
    line: int | None
    message: str


@dataclass(frozen=True, slots=True)
class PatchRow:
    """What provscore concluded about one prediction (a row of the ``patches`` table)."""

    key: RowKey
    pred_file: str
    repo: str
    base_commit: str
    status: Status
    reason: str = ""  # a Reason value, empty when scored
    detail: str = ""  # the first cause, or what went wrong
    decision: str | None = None  # pass | review | reject
    merge_score: float | None = None
    evidence_mode: str = ""  # "static" (lint mode) or "results" (a report's tests voted)
    files: int = 0
    roles: tuple[tuple[str, int], ...] = ()  # write-set paths by role
    touches_tests: bool = False
    evidence_removed: int = 0
    evidence_weakened: int = 0
    evidence_added: int = 0
    codes: tuple[tuple[str, int], ...] = ()  # finding code → count
    families: tuple[tuple[str, int], ...] = ()  # rule family → finding count
    gates: tuple[tuple[str, int], ...] = ()  # gate name → count of non-info findings
    hidden_tests: tuple[str, ...] = ()  # paths the instance's test_patch touches
    hidden_created: tuple[str, ...] = ()  # paths the test_patch adds that this patch adds
    seconds: float = 0.0
    findings: tuple[FindingRow, ...] = field(default=(), compare=False)
