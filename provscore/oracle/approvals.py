"""Removal approvals (TOML): a human's approval, in the oracle dir, to remove evidence."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from datetime import date
from pathlib import Path

from provscore.errors import InputError
from provscore.io import read_input
from provscore.nodeid import covers
from provscore.oracle.rows import Fields
from provscore.records import dataclass

_APPROVAL_KEYS = frozenset({"node_id", "anchor", "approved_by", "reason", "date"})


@dataclass(frozen=True, slots=True)
class Approval:
    """A human approval, in the oracle dir, to remove or weaken a test's evidence."""

    node_id: str
    anchor: str
    approved_by: str
    reason: str
    approved_on: date | None


def read_approvals(path: Path) -> tuple[Approval, ...]:
    """Every ``[[approval]]`` table of a removal-approvals TOML file."""
    raw = read_input(path, "removal approvals", regular=True)
    try:
        doc = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"not valid UTF-8 (byte {exc.start})", path=str(path)) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"malformed TOML: {exc}", path=str(path)) from None
    for key in doc:
        if key != "approval":
            raise InputError(f"unknown top-level key {key!r} (expected [[approval]] tables)",
                             path=str(path))
    tables = doc.get("approval", [])
    if not isinstance(tables, list):
        raise InputError("'approval' must be an array of tables ([[approval]])", path=str(path))
    out: list[Approval] = []
    for index, raw in enumerate(tables, start=1):
        where = f"{path} [[approval]] #{index}"
        if not isinstance(raw, dict):
            raise InputError("an approval must be a table", path=where)
        f = Fields(raw, where, _APPROVAL_KEYS)
        node_id = f.text("node_id", required=False)
        anchor = f.text("anchor", required=False)
        if not node_id.strip() and not anchor.strip():
            raise InputError("an approval needs 'node_id' or 'anchor'", path=where)
        out.append(Approval(
            node_id=node_id, anchor=anchor,
            approved_by=f.text("approved_by", nonempty=True),
            reason=f.text("reason", nonempty=True),
            approved_on=f.day("date", required=False, toml_dates=True),
        ))
    return tuple(out)


def approves(approvals: Iterable[Approval], node_id: str) -> Approval | None:
    """The first approval that covers ``node_id``, or None.

    An approval's ``node_id`` covers that id and its parametrized ids
    ``id[...]`` (so also every evidence item whose enclosing test is one of
    them: pass the item's node id); an approval's ``anchor`` covers exactly that
    anchor string. Approving one parametrized id never covers its siblings or
    the whole test.
    """
    for approval in approvals:
        if covers(approval.node_id, node_id) or (approval.anchor and
                                                     approval.anchor == node_id):
            return approval
    return None
