"""The freeze ledger (JSONL or a JSON array, human-edited): dated exceptions for flakes.

:func:`frozen_ids` gives the ids a freeze is in force for (gate 7 allows new
suppressions only for them; scoring leaves them out); the gate-6 findings over the
ledger are in :mod:`provscore.checks.ledgers`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from pathlib import Path
from typing import Any

from provscore.errors import InputError
from provscore.nodeid import covers
from provscore.oracle.flake import FlakeRow, results_by_test, trailing_streak
from provscore.oracle.rows import (
    Fields,
    json_array_objects,
    jsonl_objects,
    read_text,
    row_place,
)
from provscore.records import dataclass

FREEZE_STATUSES = ("flake", "replay_ok", "replay_fail")
_FREEZE_KEYS = frozenset({
    "test_id", "property_id", "fixture", "owner", "reason", "frozen_on", "expires_on",
    "status", "fixture_sha", "counts_as_pass", "blocks_merge",
    # Replay context from seed 001; validated, informational only.
    "seed", "env",
})
_NEVER_HUMAN = frozenset({"", "agent", "bot", "ai", "llm", "ci", "automation"})


@dataclass(frozen=True, slots=True)
class FreezeRow:
    """One row of the freeze ledger. ``key`` is its ``test_id`` or ``property_id``."""

    key: str
    fixture: str
    owner: str
    reason: str
    frozen_on: date
    expires_on: date
    status: str  # "flake" | "replay_ok" | "replay_fail"
    fixture_sha: str
    counts_as_pass: bool
    line: int
    is_property: bool = False  # the row names a property_id (not a test_id)

    @property
    def subject(self) -> str:
        return f"{self.key} ({self.fixture})" if self.fixture else self.key


def _freeze_row(raw: Mapping[str, object], path: Path, line: int) -> FreezeRow:
    where = row_place(path, line)
    f = Fields(raw, where, _FREEZE_KEYS)
    if ("test_id" in raw) == ("property_id" in raw):
        raise InputError("a row needs exactly one of 'test_id' and 'property_id'", path=where)
    key = f.text("test_id" if "test_id" in raw else "property_id", nonempty=True)
    frozen_on = f.day("frozen_on")
    expires_on = f.day("expires_on")
    assert frozen_on is not None and expires_on is not None  # required=True
    if expires_on < frozen_on:
        raise InputError(f"'expires_on' {expires_on.isoformat()} is before 'frozen_on' "
                         f"{frozen_on.isoformat()}", path=where)
    f.flag("blocks_merge", default=False)
    f.typed("seed", int, required=False)
    f.text("env", required=False)
    return FreezeRow(
        key=key,
        fixture=f.text("fixture", required=False),
        owner=f.text("owner"),
        reason=f.text("reason", nonempty=True),
        frozen_on=frozen_on,
        expires_on=expires_on,
        status=f.choice("status", FREEZE_STATUSES, required=False, default="flake"),
        fixture_sha=f.text("fixture_sha", required=False),
        counts_as_pass=f.flag("counts_as_pass", default=False),
        line=line,
        is_property="property_id" in raw,
    )


def read_freeze_ledger(path: Path) -> tuple[FreezeRow, ...]:
    """Every row of a freeze ledger: JSONL, or one JSON array of row objects."""
    text = read_text(path)
    whole = _whole_object(text)
    if whole is not None and ("nodeids" in whole or "ids" in whole):
        raise InputError("this is a bare list of frozen ids (seed 000/004 style) with no owner, "
                         "reason or expiry: write one freeze row per id (docs/ledgers.md)",
                         path=row_place(path, 1))
    if text.lstrip().startswith("["):
        objects = json_array_objects(path, text)
    else:
        try:
            objects = jsonl_objects(path, text)
        except InputError:
            if whole is not None:
                raise InputError("a freeze ledger is JSONL (one object per line) or a JSON "
                                 "array; this file is one multi-line object: wrap it in [ ]",
                                 path=row_place(path, 1)) from None
            raise
    return tuple(_freeze_row(obj, path, line) for line, obj in objects)


def _whole_object(text: str) -> dict[str, Any] | None:
    """The file as one JSON object, when it is one (not a ledger format; used for hints)."""
    try:
        obj = json.loads(text)
    except (json.JSONDecodeError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _resolved(rows: Sequence[FreezeRow]) -> set[int]:
    """Indexes of ``flake`` rows a later replay row (same key, fixture, fixture_sha) resolves."""
    replayed: set[tuple[str, str, str]] = set()
    out: set[int] = set()
    for i in range(len(rows) - 1, -1, -1):
        row = rows[i]
        ident = (row.key, row.fixture, row.fixture_sha)
        if row.status != "flake":
            replayed.add(ident)
        elif ident in replayed:
            out.add(i)
    return out


def open_rows(rows: Sequence[FreezeRow]) -> list[FreezeRow]:
    """``flake`` rows no later replay row resolved, in file order."""
    resolved = _resolved(rows)
    return [r for i, r in enumerate(rows) if r.status == "flake" and i not in resolved]


def is_human(owner: str, human_owners: frozenset[str] | None) -> bool:
    if owner.strip().lower() in _NEVER_HUMAN or owner.lower().endswith("[bot]"):
        return False
    return owner in human_owners if human_owners is not None else owner == "human"


def current_digest(row: FreezeRow, fixture_digests: Mapping[str, str] | None) -> str | None:
    """The fixture's current digest when it differs from the row's (the row is stale)."""
    if fixture_digests is None or row.fixture not in fixture_digests:
        return None
    current = fixture_digests[row.fixture]
    return current if current != row.fixture_sha else None


def frozen_ids(rows: Iterable[FreezeRow], *, today: date,
               fixture_digests: Mapping[str, str] | None = None,
               human_owners: frozenset[str] | None = None,
               results: Iterable[FlakeRow] | None = None,
               unfreeze_streak: int = 10) -> frozenset[str]:
    """Keys of the freezes in force: gate 7 allows new suppressions only for these,
    and scoring leaves them out of numerator and denominator.

    A row is in force when it is an open ``flake`` row, ``frozen_on <= today <=
    expires_on``, not stale, and human-owned (as PS603 decides). When the flake
    ledger's ``results`` are given, a freeze also ends on evidence (seed 004):
    once the key's results recorded on or after ``frozen_on`` end in
    ``unfreeze_streak`` consecutive agreeing results, the id votes again.
    """
    if unfreeze_streak < 1:
        raise InputError(f"the unfreeze streak must be at least 1, got {unfreeze_streak}")
    history = results_by_test(results) if results is not None else {}
    out: set[str] = set()
    for row in open_rows(tuple(rows)):
        if not row.frozen_on <= today <= row.expires_on:
            continue
        if current_digest(row, fixture_digests) is not None:
            continue
        if not is_human(row.owner, human_owners):
            continue
        after = [r.result for r in history.get(row.key, ()) if _on_or_after(r, row.frozen_on)]
        if after and trailing_streak(after) >= unfreeze_streak:
            continue
        out.add(row.key)
    return frozenset(out)


def _on_or_after(row: FlakeRow, day: date) -> bool:
    try:
        return datetime.fromisoformat(row.recorded_at).date() >= day
    except ValueError:  # an unreadable timestamp never ends a freeze
        return False


def missing_frozen_ids(frozen: Iterable[str], known_ids: Iterable[str]) -> frozenset[str]:
    """Frozen ids that match no known test or property id (seed 004: a reject, PS506).

    A frozen id matches a known id it covers (itself or a parametrized form).
    """
    known = tuple(known_ids)
    return frozenset(f for f in frozen if not any(covers(f, k) for k in known))
