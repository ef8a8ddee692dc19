"""Whole-oracle-dir operations behind ``provscore ledger check`` / ``ledger record``.

Orchestration like :mod:`provscore.pipeline`: the oracle stage reads, the checks judge,
the flake ledger is appended to.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, date, datetime
from pathlib import Path

from provscore.checks.ledgers import check_freeze_ledger
from provscore.model import Action
from provscore.oracle.contract import Contract, load_oracle_contract
from provscore.oracle.flake import append_rows, read_flake_ledger
from provscore.oracle.load import load_oracle, oracle_input_exists
from provscore.results import RunResults, Verdict, by_node_id, load_many
from provscore.runner.output import embedded_run_id, new_run_id
from provscore.session import Session

_RESULT = {Verdict.PASSED: "pass", Verdict.FAILED: "fail", Verdict.ERROR: "fail"}


def check_oracle_dir(oracle: Path, session: Session, *,
                     today: date | None = None) -> tuple[str, bool]:
    """Validate every oracle input; return a printable summary and whether it is clean.

    Malformed files raise InputError (exit 3); rule violations (PS6xx) are listed and
    make the check fail (exit 2).
    """
    contract = load_oracle_contract(oracle)
    inputs = load_oracle(oracle, contract)
    lines = [f"contract: {contract.source or 'defaults (no score_contract.toml)'}"]
    lines.append(f"fixture lock: {len(inputs.lock.entries)} file(s)" if inputs.lock
                 else "fixture lock: none")
    lines.append(f"freeze ledger: {len(inputs.freeze_rows)} row(s)" if inputs.freeze_path
                 else "freeze ledger: none")
    lines.append(f"flake ledger: {len(inputs.flake_rows)} row(s)" if inputs.has_flake_ledger
                 else "flake ledger: none")
    lines.append(f"removal approvals: {len(inputs.approvals)}")
    findings = check_freeze_ledger(session.registry, inputs.freeze_rows,
                                   today=today or date.today(),
                                   parked_budget=contract.parked_budget,
                                   path=inputs.freeze_path or "") if inputs.freeze_path else ()
    bad = [f for f in findings if f.action is Action.REJECT]
    for f in findings:
        where = f"{f.location.path}:{f.location.line}" if f.location and f.location.line else ""
        lines.append(f"{f.code} {f.name} [{f.action.value}] {where} {f.message}".rstrip())
    lines.append("ok" if not bad else f"{len(bad)} problem(s)")
    return "\n".join(lines) + "\n", not bad


def record_results(oracle: Path, results: list[Path], *, run_id: str | None,
                   env: str) -> tuple[int, Path]:
    """Append one flake-ledger row per test id and run (pass/fail only)."""
    contract: Contract = load_oracle_contract(oracle)
    target = contract.oracle_path(oracle, contract.flake_ledger_path)
    if oracle_input_exists(target, "flake ledger"):
        read_flake_ledger(target)  # refuse to append to a malformed ledger
    runs = load_many(results)
    ids = _run_ids(results, run_id)
    rows = flake_rows(runs, ids, env)
    if rows:
        append_rows(target, rows)
    return len(rows), target


def _run_ids(results: list[Path], run_id: str | None) -> list[str]:
    """The run id of each file: ``--run-id`` (numbered when several files), else the run id
    ``provscore run`` wrote into the file, else a fresh id for this invocation (never the
    file's name: the same name across runs would make every run one observation)."""
    if run_id:
        return [run_id] if len(results) == 1 else [f"{run_id}-{i}" for i in range(len(results))]
    fresh = new_run_id()
    out: list[str] = []
    for i, path in enumerate(results):
        out.append(embedded_run_id(path) or (fresh if len(results) == 1 else f"{fresh}#{i + 1}"))
    return out


def flake_rows(runs: Sequence[RunResults], run_ids: Sequence[str],
               env: str) -> list[dict[str, object]]:
    """One flake-ledger row per test id and run (pass/fail only; skips are not recorded)."""
    now = datetime.now(UTC).isoformat(timespec="seconds")
    rows: list[dict[str, object]] = []
    for node_id, outcomes in sorted(by_node_id(runs).items()):
        for o in outcomes:
            if o.verdict not in _RESULT:
                continue
            row: dict[str, object] = {"test_id": node_id, "result": _RESULT[o.verdict],
                                      "run_id": run_ids[o.run], "recorded_at": now}
            if env:
                row["env"] = env
            rows.append(row)
    return rows
