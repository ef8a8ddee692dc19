"""Binding rules to the code that fires them: one detector per rule code.

A detector is a function that receives a rule and the facts of one pipeline stage and
returns that rule's findings. It is bound to its code(s) where it is defined, with a
decorator of a :class:`DetectorTable`; loading the registry then checks that every
rule row has exactly one detector and every detector a rule row, so a rule can be
neither forgotten in code nor left without data.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from provscore.errors import InputError
from provscore.model import Finding
from provscore.records import dataclass


class Stage(enum.StrEnum):
    """When a detector can run: which facts exist by then."""

    STATIC = "static"  # the diff, images, evidence, provenance, write set
    ORACLE = "oracle"  # ... and the oracle dir's lock and ledgers
    INDEPENDENT = "independent"  # ... and the off-tree results' votes


DetectorFn = Callable[[Any, Any], Iterable[Finding]]
F = TypeVar("F", bound=Callable[..., Iterable[Finding]])


@dataclass(frozen=True, slots=True)
class Detector:
    codes: tuple[str, ...]
    stage: Stage
    fn: DetectorFn

    @property
    def where(self) -> str:
        return f"{getattr(self.fn, '__module__', '?')}.{getattr(self.fn, '__qualname__', '?')}"


class DetectorTable:
    """Code → detector. The built-in table lives in :mod:`provscore.checks`; a copy can
    take more detectors (a test's throwaway rule) without touching the original."""

    def __init__(self, detectors: Iterable[Detector] = ()) -> None:
        self._by_code: dict[str, Detector] = {}
        for d in detectors:
            self._add(d)

    def _add(self, detector: Detector) -> None:
        for code in detector.codes:
            other = self._by_code.get(code)
            if other is not None and other is not detector:
                raise InputError(f"{code} has two detectors: {other.where} and {detector.where}")
            self._by_code[code] = detector

    def bind(self, *codes: str, stage: Stage = Stage.STATIC) -> Callable[[F], F]:
        """Decorator: ``fn`` fires ``codes`` at ``stage``."""
        def deco(fn: F) -> F:
            self._add(Detector(tuple(codes), stage, fn))
            return fn
        return deco

    def copy(self) -> DetectorTable:
        return DetectorTable(dict.fromkeys(self._by_code.values()))

    def get(self, code: str) -> Detector:
        return self._by_code[code]

    def codes(self) -> frozenset[str]:
        return frozenset(self._by_code)

    def check_bound(self, rule_codes: Iterable[str], rules_dir: str) -> None:
        """Every rule has a detector and every detector a rule; else a clear error."""
        rules = set(rule_codes)
        unbound = sorted(rules - self.codes())
        if unbound:
            raise InputError(f"rule(s) {', '.join(unbound)} have no detector: bind one with "
                             "a check decorator in provscore/checks/", path=rules_dir)
        orphans = sorted(self.codes() - rules)
        if orphans:
            where = ", ".join(f"{c} ({self._by_code[c].where})" for c in orphans)
            raise InputError(f"detector(s) for {where} have no rule row in rules/*.toml",
                             path=rules_dir)
