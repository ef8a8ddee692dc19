"""Vocabulary shared by every pipeline stage (see docs/concepts.md).

Each stage has its own input and output dataclasses in its own module; the
small enums and value objects that several stages and the renderers share live
here so that data can flow one way without import cycles.
"""

from __future__ import annotations

import enum

from provscore.records import dataclass


class Action(enum.StrEnum):
    """What a finding does to the decision."""

    REJECT = "reject"
    PENALTY = "penalty"
    INFO = "info"


class Decision(enum.StrEnum):
    PASS = "pass"
    REVIEW = "review"
    REJECT = "reject"


class Provenance(enum.StrEnum):
    """Where an evidence item or suppression comes from, relative to base."""

    PREEXISTING = "preexisting"
    AGENT_ADDED = "agent_added"
    AGENT_REMOVED = "agent_removed"
    AGENT_MODIFIED = "agent_modified"
    HUMAN_ADDED = "human_added"


class Modification(enum.StrEnum):
    """Sub-kind of ``agent_modified``: how the item changed."""

    WEAKENED = "weakened"
    EXPECTED_CHANGED = "expected_changed"
    STRENGTHENED = "strengthened"
    CHANGED = "changed"


class PathRole(enum.StrEnum):
    """What a path in the write set is, for trust purposes."""

    PRODUCTION = "production"
    TEST = "test"
    HELPER = "helper"
    CONFTEST = "conftest"
    FIXTURE = "fixture"
    RUNNER = "runner"
    ORACLE = "oracle"
    OTHER = "other"


# The roles whose files hold evidence: their assertions and suppressions are classified.
EVIDENCE_ROLES = (PathRole.TEST, PathRole.CONFTEST, PathRole.HELPER)


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a file. ``line`` is 1-based; ``side`` says which image it is in."""

    path: str
    line: int | None = None
    side: str = "post"  # "pre" (base) or "post" (patched)


@dataclass(frozen=True, slots=True)
class Finding:
    """One rule firing. Built complete; never mutated afterwards."""

    code: str
    name: str
    action: Action
    penalty: float
    message: str
    location: Location | None = None
    node_id: str | None = None
    # Stable identity across runs and line shifts (used for SARIF fingerprints).
    anchor: str = ""
    # The decision gate its rule belongs to (rules/gates.toml), from the rule's row.
    gate: int = 10
    # Which of the score's tallies this finding counts toward (seed 003): "removed"
    # (preexisting evidence removed or weakened), "added" (evidence the patch wrote) or "".
    tally: str = ""

    def sort_key(self) -> tuple[str, int, str, str]:
        loc = self.location
        return (loc.path if loc else "", (loc.line or 0) if loc else 0, self.code, self.message)

    def report_key(self) -> tuple[int, tuple[str, int, str, str]]:
        """Report order: by gate, then by place, so the first cause reads first."""
        return self.gate, self.sort_key()
