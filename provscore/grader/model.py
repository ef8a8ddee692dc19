"""The grader-subversion stage's records: what in a changed file can subvert the grader.

A :class:`Signal` is one construct the patch added or changed, found by the stage's
``ast`` walks (or from the write set and the call graph), described completely: where it
is, what it is, and the facts a detector needs to judge it. The stage never decides what a
signal costs; the detectors in :mod:`provscore.checks.grader` do.
"""

from __future__ import annotations

import enum

from provscore.records import dataclass


class SignalKind(enum.StrEnum):
    REPORT_TAMPERING = "report_tampering"  # PS207
    ALWAYS_EQUAL = "always_equal"  # PS801
    PROCESS_EXIT = "process_exit"  # PS802
    OUTPUT_STREAM = "output_stream"  # PS803: sys.stdout & co. replaced
    FORGED_SUMMARY = "forged_summary"  # PS803: a runner summary written
    TEST_AWARENESS = "test_awareness"  # PS804
    CALL_STATE = "call_state"  # PS804: module state that changes the answer per call
    SPECIAL_CASE = "special_case"  # PS805
    FRAMEWORK_PATCH = "framework_patch"  # PS806
    PROTECTED_PATH = "protected_path"  # PS807
    SHADOWING = "shadowing"  # PS808
    MOCKED_UNIT = "mocked_unit"  # PS809


@dataclass(frozen=True, slots=True)
class Signal:
    kind: SignalKind
    path: str
    line: int | None
    scope: str  # qualname of the enclosing definition ("" at module level)
    code: str  # the construct as written (one line, shortened)
    detail: str  # what it does, for the message
    # Why it may be honest (an entry point reaches it, a test the patch added): the
    # detector lowers its action when this is set.
    mitigation: str = ""
    # What it is about, for the message: the test that owns a literal, the symbol a
    # mock replaces, the hidden test a new file shadows.
    subject: str = ""

    @property
    def anchor(self) -> str:
        return f"{self.kind.value}|{self.path}|{self.scope}|{self.code}"


@dataclass(frozen=True, slots=True)
class Unscanned:
    """A changed Python file that parsed at base (or is new) and cannot be read after the
    patch: nothing in it can be judged (PS903)."""

    path: str
    reason: str
    line: int | None
    # Valid Python of a newer version than provscore runs on (libcst reads it): a reviewer
    # must read it, but it is no planted syntax error.
    newer_syntax: bool = False


@dataclass(frozen=True, slots=True)
class GraderFacts:
    """Every signal of the patch, in path and line order."""

    signals: tuple[Signal, ...] = ()
    unparsed: tuple[Unscanned, ...] = ()

    def of(self, *kinds: SignalKind) -> tuple[Signal, ...]:
        return tuple(s for s in self.signals if s.kind in kinds)
