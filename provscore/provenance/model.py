"""The provenance stage's records: every item, suppression, test and helper, classified."""

from __future__ import annotations

import enum
from collections import defaultdict

from provscore.evidence.model import EvidenceItem, EvidenceKind, HelperDef, Suppression, TestDef
from provscore.model import Modification, Provenance
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class ClassifiedItem:
    provenance: Provenance
    pre: EvidenceItem | None
    post: EvidenceItem | None
    modification: Modification | None = None
    reason: str = ""

    @property
    def item(self) -> EvidenceItem:
        item = self.post if self.post is not None else self.pre
        assert item is not None
        return item

    @property
    def side(self) -> str:
        return "post" if self.post is not None else "pre"


@dataclass(frozen=True, slots=True)
class ClassifiedSuppression:
    provenance: Provenance
    suppression: Suppression
    side: str  # "post" for added and modified, "pre" for removed
    target_added: bool = False  # it suppresses a test the patch itself added
    # agent_modified: how an edited suppression changed (provenance.skip_strength)
    modification: Modification | None = None
    reason: str = ""
    before: Suppression | None = None


class TestStatus(enum.StrEnum):
    KEPT = "kept"
    MOVED = "moved"
    REMOVED = "removed"
    ADDED = "added"


@dataclass(frozen=True, slots=True)
class TestChange:
    status: TestStatus
    pre: TestDef | None
    post: TestDef | None

    @property
    def node_id(self) -> str:
        test = self.post if self.post is not None else self.pre
        assert test is not None
        return test.node_id


class HelperStatus(enum.StrEnum):
    MODIFIED = "modified"
    REMOVED = "removed"
    ADDED = "added"


@dataclass(frozen=True, slots=True)
class HelperChange:
    status: HelperStatus
    pre: HelperDef | None
    post: HelperDef | None
    path: str
    literal_only: bool = False  # only literal values changed (a rewritten expected value)


@dataclass(frozen=True, slots=True)
class ProvenanceResult:
    items: tuple[ClassifiedItem, ...] = ()
    suppressions: tuple[ClassifiedSuppression, ...] = ()
    tests: tuple[TestChange, ...] = ()
    helpers: tuple[HelperChange, ...] = ()

    def counts(self) -> dict[str, dict[str, int]]:
        """Evidence counts by kind × provenance (tests' evidence only)."""
        out: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for c in self.items:
            label = c.provenance.value if c.modification is None else \
                f"{c.provenance.value}:{c.modification.value}"
            out[c.item.kind.value][label] += 1
        return {k: dict(v) for k, v in sorted(out.items())}


# The kind of check an evidence kind is: items pair (as one modified check) only
# within a family.
FAMILY = {
    EvidenceKind.ASSERT: "check", EvidenceKind.UNITTEST: "check", EvidenceKind.LIBRARY: "check",
    EvidenceKind.MOCK: "check", EvidenceKind.HELPER_CALL: "check", EvidenceKind.FAIL: "check",
    EvidenceKind.RAISES: "raises", EvidenceKind.PROPERTY: "property",
    EvidenceKind.PARAM_ROW: "row", EvidenceKind.EXPECTED_READ: "read",
    EvidenceKind.TEST_INPUT: "input",
}
