"""Stage 7: the only modules that create findings. One detector per rule code.

Each module holds the detectors of one family, bound to their codes with
:func:`~provscore.checks.base.static_check`, :func:`~provscore.checks.base.oracle_check`
or :func:`~provscore.checks.base.independent_check`. Importing this package binds them
all into :data:`~provscore.checks.base.DETECTORS`.
"""

from provscore.checks import (
    coverage,
    evidence,
    fixtures,
    grader,
    independent,
    input,
    ledgers,
    runner,
    suppression,
    writeset,
)
from provscore.checks.base import (
    DETECTORS,
    independent_check,
    oracle_check,
    run_stage,
    static_check,
)
from provscore.checks.facts import IndependentFacts, OracleFacts, StaticFacts

__all__ = ["DETECTORS", "IndependentFacts", "OracleFacts", "StaticFacts", "coverage", "evidence",
           "fixtures", "grader", "independent", "independent_check", "input", "ledgers",
           "oracle_check", "run_stage", "runner", "static_check", "suppression", "writeset"]
