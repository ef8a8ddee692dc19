"""The built-in detector table and the decorators that bind a check to its rule code(s).

A detector receives its :class:`~provscore.registry.model.Rule` and the facts of its
stage, and returns the rule's findings; :func:`run_stage` runs every detector of a stage
over the registry's rules. Findings are created here, in :mod:`provscore.checks`, and
nowhere else.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from provscore.checks.facts import IndependentFacts, OracleFacts, StaticFacts
from provscore.model import Finding, Location
from provscore.registry.detectors import DetectorTable, Stage
from provscore.registry.model import Registry, Rule

#: Every built-in detector, bound by the decorators below when provscore.checks is imported.
DETECTORS = DetectorTable()

StaticDetector = TypeVar("StaticDetector",
                          bound=Callable[[Rule, StaticFacts], Iterable[Finding]])
OracleDetector = TypeVar("OracleDetector",
                          bound=Callable[[Rule, OracleFacts], Iterable[Finding]])
IndependentDetector = TypeVar("IndependentDetector",
                               bound=Callable[[Rule, IndependentFacts], Iterable[Finding]])


def static_check(*codes: str, table: DetectorTable = DETECTORS
                 ) -> Callable[[StaticDetector], StaticDetector]:
    """Bind a detector of the static stage (diff, evidence, provenance, write set)."""
    return table.bind(*codes, stage=Stage.STATIC)


def oracle_check(*codes: str, table: DetectorTable = DETECTORS
                 ) -> Callable[[OracleDetector], OracleDetector]:
    """Bind a detector that also reads the oracle dir's lock and ledgers."""
    return table.bind(*codes, stage=Stage.ORACLE)


def independent_check(*codes: str, table: DetectorTable = DETECTORS
                      ) -> Callable[[IndependentDetector], IndependentDetector]:
    """Bind a detector that reads the off-tree results' votes."""
    return table.bind(*codes, stage=Stage.INDEPENDENT)


def run_stage(registry: Registry, table: DetectorTable, stage: Stage,
              facts: StaticFacts | OracleFacts | IndependentFacts) -> list[Finding]:
    """Every finding of every rule whose detector runs at ``stage``, in code order."""
    out: list[Finding] = []
    for rule in registry.sorted():
        detector = table.get(rule.code)
        if detector.stage is stage:
            out.extend(detector.fn(rule, facts))
    return out


def loc(path: str, line: int | None = None, side: str = "post") -> Location:
    return Location(path, line, side)
