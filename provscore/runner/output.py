"""What a run leaves in ``--out DIR``, and the ids that tell runs apart.

``DIR/<run id>/`` holds ``run.json`` (the run record, as the JSON report's ``run``
object), ``results-<n>.json`` (repeat *n*'s results as pytest-json-report, the base tests
and, in the first, the oracle properties; ``provscore score --results`` and ``provscore
ledger record`` read them) and ``junit-<n>.xml`` (pytest's own JUnit XML of repeat *n*).
Each results file names its run and repeat (``"provscore": {"run_id": …, "repeat": n}``),
so ``ledger record`` records every repeat under its own run id.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from datetime import UTC, datetime
from pathlib import Path

from provscore.io import atomic_write, read_input
from provscore.results.pytest_json import dump_pytest_json
from provscore.runner.model import RunRecord


def new_run_id() -> str:
    """A run id no other run has: the UTC time and 48 random bits (``r-20261130T101502-…``)."""
    return f"r-{datetime.now(UTC).strftime('%Y%m%dT%H%M%S')}-{secrets.token_hex(6)}"


def patch_id_of(base_sha: str, patch: bytes) -> str:
    """The default patch id: the patch's bytes against its base. A repair loop that wants
    its attempts counted as one patch passes its own ``--patch-id``."""
    return "p-" + hashlib.sha256(base_sha.encode() + b"\0" + patch).hexdigest()[:12]


def run_dir(out: Path, run_id: str) -> Path:
    return out / run_id


def write_outputs(record: RunRecord, out: Path) -> Path:
    """Write ``run.json`` and the results files of ``record`` under ``out/<run id>/``."""
    target = run_dir(out, record.run_id)
    target.mkdir(parents=True, exist_ok=True)
    for n, results in enumerate(record.runs, start=1):
        doc = dump_pytest_json(results.outcomes, provscore={"run_id": record.run_id,
                                                            "repeat": n})
        atomic_write(target / f"results-{n}.json",
                     json.dumps(doc, indent=1, ensure_ascii=False).encode("utf-8"),
                     what="results file")
    atomic_write(target / "run.json",
                 json.dumps(record.to_json(), indent=2, ensure_ascii=False).encode("utf-8"),
                 what="run record")
    return target


def embedded_run_id(path: Path) -> str | None:
    """``<run id>#<repeat>`` of a results file written by ``provscore run``, else None."""
    data = read_input(path, "results file")
    if not data.lstrip().startswith(b"{"):
        return None
    try:
        doc = json.loads(data)
    except ValueError:
        return None
    mark = doc.get("provscore") if isinstance(doc, dict) else None
    if isinstance(mark, dict) and isinstance(mark.get("run_id"), str) and mark["run_id"] \
            and isinstance(mark.get("repeat"), int):
        return f"{mark['run_id']}#{mark['repeat']}"
    return None
