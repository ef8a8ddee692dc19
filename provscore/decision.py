"""Stage 7: gates, merge score and decision (DESIGN.md "Decision procedure").

Every gate is evaluated and reported; the first failing one is the report's
first cause. Two reds are one reject, never averaged. Without independent
evidence there is no score and the decision is an unscored reject (PS502).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from provscore.model import Action, Decision, Finding

# (number, name, rule-code prefixes that belong to it)
GATES: tuple[tuple[int, str, tuple[str, ...]], ...] = (
    (1, "input", ("PS901", "PS902", "PS903")),
    (2, "write-set", ("PS303", "PS304", "PS305")),
    (3, "oracle", ("PS301",)),
    (4, "runner-channels", ("PS302", "PS204", "PS205")),
    (5, "fixtures", ("PS40",)),
    (6, "ledgers", ("PS6",)),
    (7, "suppressions", ("PS201", "PS202", "PS203", "PS206")),
    (8, "evidence", ("PS10",)),
    (9, "grader-subversion", ("PS207", "PS8")),
    (10, "independent-evidence", ("PS5", "PS7")),
)


def gate_of(code: str) -> int:
    for number, _, prefixes in GATES:
        if code.startswith(prefixes):
            return number
    return 10


@dataclass(frozen=True, slots=True)
class GateResult:
    number: int
    name: str
    status: str  # "pass" | "fail" | "penalty" | "not_evaluated"
    codes: tuple[str, ...]
    note: str = ""


@dataclass(frozen=True, slots=True)
class ScoreInputs:
    """Off-tree outcome tallies (independent evidence) and static tallies."""

    passed: int = 0
    failed: int = 0
    unscored: int = 0
    removed: int = 0
    added: int = 0
    has_results: bool = False


@dataclass(frozen=True, slots=True)
class Policy:
    pass_threshold: float = 0.99
    review_threshold: float = 0.95
    removed_penalty: float = 0.05
    removed_penalty_cap: float = 0.5
    added_penalty: float = 0.01
    added_penalty_cap: float = 0.2


@dataclass(frozen=True, slots=True)
class ScoreBreakdown:
    independent_pass_rate: float | None
    removed_penalty: float
    added_penalty: float
    other_penalty: float
    merge_score: float | None
    passed: int
    failed: int
    unscored: int
    removed: int
    added: int


@dataclass(frozen=True, slots=True)
class FirstCause:
    gate: int
    gate_name: str
    code: str
    message: str
    path: str | None
    line: int | None


@dataclass(frozen=True, slots=True)
class Verdict:
    decision: Decision
    score: ScoreBreakdown
    gates: tuple[GateResult, ...]
    first_cause: FirstCause | None
    unscored: bool


def compute_score(inputs: ScoreInputs, findings: Sequence[Finding], policy: Policy
                  ) -> ScoreBreakdown:
    removed_pen = min(policy.removed_penalty_cap, policy.removed_penalty * inputs.removed)
    added_pen = min(policy.added_penalty_cap, policy.added_penalty * inputs.added)
    # Penalty findings other than the two counted above (e.g. PS104) subtract their weight.
    other = round(sum(f.penalty for f in findings
                      if f.action is Action.PENALTY and f.code not in ("PS103",)), 6)
    total = inputs.passed + inputs.failed
    rate = inputs.passed / total if total > 0 else None
    merge = None if rate is None else round(rate - removed_pen - added_pen - other, 4)
    return ScoreBreakdown(rate if rate is None else round(rate, 4), round(removed_pen, 4),
                          round(added_pen, 4), other, merge, inputs.passed, inputs.failed,
                          inputs.unscored, inputs.removed, inputs.added)


def decide(findings: Sequence[Finding], inputs: ScoreInputs, policy: Policy,
           not_evaluated: dict[int, str] | None = None, *, static_only: bool = False) -> Verdict:
    """Gates → decision. ``not_evaluated`` names gates whose inputs were not given.

    ``static_only``: without a score the decision is at best ``review`` (lint mode).
    """
    skipped = not_evaluated or {}
    gates: list[GateResult] = []
    first: FirstCause | None = None
    for number, name, _ in GATES:
        mine = [f for f in findings if gate_of(f.code) == number]
        rejects = [f for f in mine if f.action is Action.REJECT]
        penalties = [f for f in mine if f.action is Action.PENALTY]
        codes = tuple(sorted({f.code for f in mine if f.action is not Action.INFO}))
        if rejects:
            status = "fail"
        elif penalties:
            status = "penalty"
        elif number in skipped:
            status = "not_evaluated"
        else:
            status = "pass"
        gates.append(GateResult(number, name, status, codes, skipped.get(number, "")))
        if rejects and first is None:
            f = sorted(rejects, key=Finding.sort_key)[0]
            first = FirstCause(number, name, f.code, f.message,
                               f.location.path if f.location else None,
                               f.location.line if f.location else None)
    score = compute_score(inputs, findings, policy)
    unscored = score.merge_score is None
    any_reject = any(f.action is Action.REJECT for f in findings)
    any_penalty = any(f.action is Action.PENALTY for f in findings)
    if any_reject:
        decision = Decision.REJECT
    elif score.merge_score is None:
        decision = Decision.REVIEW if static_only else Decision.REJECT
    elif score.merge_score >= policy.pass_threshold and inputs.removed == 0 and \
            score.added_penalty == 0 and not any_penalty:
        decision = Decision.PASS
    elif score.merge_score >= policy.review_threshold and inputs.removed == 0:
        decision = Decision.REVIEW
    else:
        decision = Decision.REJECT
    if decision is Decision.REJECT and first is None:
        first = FirstCause(10, "independent-evidence", "score",
                           f"merge score {score.merge_score} is below the review threshold "
                           f"{policy.review_threshold}", None, None)
    return Verdict(decision, score, tuple(gates), first, unscored and not static_only)
