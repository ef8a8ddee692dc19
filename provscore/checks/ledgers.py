"""Gate 6: the freeze ledger's findings (PS601-PS607 reject, PS608 stale info).

Terms (``docs/ledgers.md``): a ``flake`` row is *open* until a later ``replay_ok`` or
``replay_fail`` row with the same key, fixture and fixture_sha resolves it; replay rows
are never open. *Expired* means ``expires_on < today``. *Stale* means the fixture's
digest at base differs from the row's ``fixture_sha``. Staleness only withdraws a freeze
(see :func:`provscore.oracle.freeze.frozen_ids`); it never hides a row from PS601-PS607.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date

from provscore.checks.base import oracle_check
from provscore.checks.facts import OracleFacts
from provscore.errors import InputError
from provscore.model import Finding, Location
from provscore.oracle.freeze import FreezeRow, current_digest, is_human, open_rows
from provscore.registry.model import Registry, Rule

LEDGER_CODES = ("PS601", "PS602", "PS603", "PS604", "PS605", "PS606", "PS607", "PS608")


def ledger_findings(rule: Rule, rows: Sequence[FreezeRow], *, today: date, parked_budget: int,
                    human_owners: frozenset[str] | None = None,
                    fixture_digests: Mapping[str, str] | None = None,
                    path: str = "") -> list[Finding]:
    """``rule``'s findings over a freeze ledger (one of PS601-PS608).

    Terms (``docs/ledgers.md``): a ``flake`` row is *open* until a later
    ``replay_ok`` or ``replay_fail`` row with the same key, fixture and
    fixture_sha resolves it; replay rows are never open. *Expired* means
    ``expires_on < today``. *Stale* means ``fixture_digests`` maps the row's
    fixture to a digest other than its ``fixture_sha``. Staleness only withdraws
    a freeze (see :func:`frozen_ids`); it never hides a row from PS601-PS607.
    """
    if parked_budget < 0:
        raise InputError(f"the parked budget must be at least 0, got {parked_budget}")
    findings: list[Finding] = []

    def emit(code: str, row: FreezeRow, *, whole_ledger: bool = False, anchor: str = "",
             **fmt: object) -> None:
        if code != rule.code:
            return
        values = {"subject": row.subject, "key": row.key, "fixture": row.fixture,
                  "line": row.line, **fmt}
        findings.append(rule.finding(
            rule.message.format_map(values),
            location=Location(path=path, line=row.line),
            node_id=None if whole_ledger else row.key,
            anchor=anchor or f"{code}:{row.key}:{row.fixture}"))

    for row in rows:
        if not is_human(row.owner, human_owners):
            emit("PS603", row, owner=row.owner)
        if row.counts_as_pass:
            emit("PS604", row)
        if row.status == "replay_fail":
            emit("PS607", row)

    still_open = open_rows(rows)
    first_open: dict[tuple[str, str], FreezeRow] = {}
    fixtures_by_key: dict[str, list[FreezeRow]] = {}
    for row in still_open:
        if row.expires_on < today:
            emit("PS601", row, expires_on=row.expires_on.isoformat(), today=today.isoformat(),
                 owner=row.owner)
        current = current_digest(row, fixture_digests)
        if current is not None:
            emit("PS608", row, recorded=row.fixture_sha or "(none)", current=current)
        pair = (row.key, row.fixture)
        if pair in first_open:
            emit("PS602", row, first_line=first_open[pair].line)
        else:
            first_open[pair] = row
            fixtures_by_key.setdefault(row.key, []).append(row)

    for key, distinct in fixtures_by_key.items():
        if len(distinct) > 1:
            names = ", ".join(r.fixture or "(no fixture)" for r in distinct)
            emit("PS605", distinct[1], anchor=f"PS605:{key}:*", count=len(distinct),
                 fixtures=names)

    parked = list(first_open.values())
    if len(parked) > parked_budget:
        shown = ", ".join(r.subject for r in parked[:5]) + (", ..." if len(parked) > 5 else "")
        emit("PS606", parked[parked_budget], whole_ledger=True, anchor=f"PS606:{path}",
             count=len(parked), budget=parked_budget, parked=shown)
    return findings


def check_freeze_ledger(registry: Registry, rows: Sequence[FreezeRow], *, today: date,
                        parked_budget: int, human_owners: frozenset[str] | None = None,
                        fixture_digests: Mapping[str, str] | None = None,
                        path: str = "") -> tuple[Finding, ...]:
    """All of gate 6 over one freeze ledger, by place (``provscore ledger check``)."""
    out = [f for code in LEDGER_CODES
           for f in ledger_findings(registry[code], rows, today=today,
                                    parked_budget=parked_budget, human_owners=human_owners,
                                    fixture_digests=fixture_digests, path=path)]
    return tuple(sorted(out, key=Finding.sort_key))


@oracle_check(*LEDGER_CODES)
def freeze_ledger(rule: Rule, facts: OracleFacts) -> list[Finding]:
    oracle = facts.oracle
    if oracle.freeze_path is None:
        return []
    return ledger_findings(rule, oracle.freeze_rows, today=facts.today,
                           parked_budget=facts.static.contract.parked_budget,
                           fixture_digests=facts.fixture_digests, path=oracle.freeze_path)
