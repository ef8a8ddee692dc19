"""Stage 8: the gates, the merge score and the decision (fail closed)."""

from provscore.scoring.decision import (
    FirstCause,
    GateResult,
    Judgement,
    Policy,
    ScoreBreakdown,
    ScoreInputs,
    compute_score,
    decide,
    not_evaluated_gates,
)

__all__ = ["FirstCause", "GateResult", "Judgement", "Policy", "ScoreBreakdown", "ScoreInputs",
           "compute_score", "decide", "not_evaluated_gates"]
