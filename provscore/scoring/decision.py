"""Stage 8: gates, merge score and decision (DESIGN.md "Decision procedure").

Every gate is evaluated and reported; the first failing one is the report's
first cause. Two reds are one reject, never averaged. Without independent
evidence there is no score and the decision is an unscored reject (PS502).
Which gate a finding belongs to is its rule's row (rules/gates.toml names the gates).
"""

from __future__ import annotations

from collections.abc import Sequence

from provscore.model import Action, Decision, Finding
from provscore.oracle.contract import Contract
from provscore.oracle.load import OracleInputs
from provscore.records import dataclass
from provscore.registry.model import Gate


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

    @staticmethod
    def tally(findings: Sequence[Finding]) -> tuple[int, int]:
        """(removed, added): the findings that count toward each of the score's tallies."""
        return (sum(1 for f in findings if f.tally == "removed"),
                sum(1 for f in findings if f.tally == "added"))


@dataclass(frozen=True, slots=True)
class Policy:
    pass_threshold: float = 0.99
    review_threshold: float = 0.95
    removed_penalty: float = 0.05
    removed_penalty_cap: float = 0.5
    added_penalty: float = 0.01
    added_penalty_cap: float = 0.2

    @classmethod
    def from_contract(cls, contract: Contract) -> Policy:
        return cls(contract.pass_threshold, contract.review_threshold, contract.removed_penalty,
                   contract.removed_penalty_cap, contract.added_penalty,
                   contract.added_penalty_cap)


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
class Judgement:
    """What the decision procedure concluded: the decision, its score and its gates."""

    decision: Decision
    score: ScoreBreakdown
    gates: tuple[GateResult, ...]
    first_cause: FirstCause | None
    unscored: bool


def compute_score(inputs: ScoreInputs, findings: Sequence[Finding], policy: Policy
                  ) -> ScoreBreakdown:
    removed_pen = min(policy.removed_penalty_cap, policy.removed_penalty * inputs.removed)
    added_pen = min(policy.added_penalty_cap, policy.added_penalty * inputs.added)
    # Penalty findings other than those the added tally prices (e.g. PS104) subtract
    # their weight.
    other = round(sum(f.penalty for f in findings
                      if f.action is Action.PENALTY and f.tally != "added"), 6)
    total = inputs.passed + inputs.failed
    rate = inputs.passed / total if total > 0 else None
    merge = None if rate is None else round(rate - removed_pen - added_pen - other, 4)
    return ScoreBreakdown(rate if rate is None else round(rate, 4), round(removed_pen, 4),
                          round(added_pen, 4), other, merge, inputs.passed, inputs.failed,
                          inputs.unscored, inputs.removed, inputs.added)


def decide(findings: Sequence[Finding], inputs: ScoreInputs, policy: Policy,
           gates_: Sequence[Gate], not_evaluated: dict[int, str] | None = None, *,
           static_only: bool = False, empty: Decision | None = None) -> Judgement:
    """Gates → decision. ``not_evaluated`` names gates whose inputs were not given.

    ``static_only``: without a score the decision is at best ``review`` (lint mode).
    ``empty``: the patch changes nothing; the decision is this one (the contract's
    ``empty_patch``) unless a finding rejects.
    """
    skipped = not_evaluated or {}
    gates: list[GateResult] = []
    first: FirstCause | None = None
    for gate in gates_:
        number, name = gate.number, gate.name
        mine = [f for f in findings if f.gate == number]
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
    elif empty is not None:
        decision = Decision.REVIEW if static_only and empty is Decision.PASS else empty
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
        last = gates_[-1]  # a score below the threshold is the independent evidence's verdict
        first = FirstCause(last.number, last.name, "score",
                           f"merge score {score.merge_score} is below the review threshold "
                           f"{policy.review_threshold}", None, None)
    return Judgement(decision, score, tuple(gates), first, unscored and not static_only)


def not_evaluated_gates(oracle: OracleInputs, static_only: bool) -> dict[int, str]:
    """Gates whose inputs were not given, with the reason shown in the report."""
    out: dict[int, str] = {}
    if oracle.lock is None:
        out[5] = "no fixture lock in the oracle dir"
    if oracle.freeze_path is None and not oracle.has_flake_ledger:
        out[6] = "no freeze or flake ledger in the oracle dir"
    if static_only:
        out[10] = "--static-only: independent evidence not evaluated"
    return out
