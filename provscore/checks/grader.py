"""Gate 9: grader subversion (PS801-PS809, and PS207's constructs outside hook definitions).

The grader stage (:mod:`provscore.grader`) describes every construct completely; these
detectors only turn each signal into its rule's finding. Which signal kinds a rule reports
is the table below.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from provscore.checks.base import loc, static_check
from provscore.checks.facts import StaticFacts
from provscore.evidence import SuppressionKind
from provscore.grader import Signal, SignalKind
from provscore.model import Finding, Provenance
from provscore.registry.model import Rule

RULE_KINDS: dict[str, tuple[SignalKind, ...]] = {
    "PS801": (SignalKind.ALWAYS_EQUAL,),
    "PS802": (SignalKind.PROCESS_EXIT,),
    "PS803": (SignalKind.OUTPUT_STREAM, SignalKind.FORGED_SUMMARY),
    "PS804": (SignalKind.TEST_AWARENESS, SignalKind.CALL_STATE),
    "PS805": (SignalKind.SPECIAL_CASE,),
    "PS806": (SignalKind.FRAMEWORK_PATCH,),
    "PS807": (SignalKind.PROTECTED_PATH,),
    "PS808": (SignalKind.SHADOWING,),
    "PS809": (SignalKind.MOCKED_UNIT,),
}


@static_check(*RULE_KINDS)
def grader_subversion(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    yield from signal_findings(rule, facts.grader.of(*RULE_KINDS[rule.code]))


def signal_findings(rule: Rule, signals: Iterable[Signal]) -> Iterator[Finding]:
    for s in signals:
        where = f"{s.path}:{s.line}" if s.line else s.path
        scope = f" in {s.scope}" if s.scope else ""
        yield rule.finding(location=loc(s.path, s.line), node_id=None,
                           anchor=f"{rule.code}|{s.anchor}", where=where, scope=scope,
                           code=s.code, detail=s.detail, subject=s.subject or "-")


def report_constructs(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    """PS207's constructs found by the grader stage, outside the report hooks the evidence
    stage already reported as changed (there the hook itself is the finding)."""
    hooks = [(c.suppression.path, c.suppression.line or 0,
              (c.suppression.line or 0) + c.suppression.code.count("\n"))
             for c in facts.provenance.suppressions
             if c.suppression.kind is SuppressionKind.REPORT_HOOK and
             c.provenance is not Provenance.PREEXISTING]
    signals = [s for s in facts.grader.of(SignalKind.REPORT_TAMPERING)
               if not any(p == s.path and first <= (s.line or 0) <= last
                          for p, first, last in hooks)]
    for s in signals:
        where = f"{s.path}:{s.line}" if s.line else s.path
        scope = f" in {s.scope}" if s.scope else ""
        # Not a hook definition, so not the row's "hook changed" template.
        yield rule.finding(f"{where}{scope}: {s.detail} (`{s.code}`)",
                           location=loc(s.path, s.line), node_id=None,
                           anchor=f"PS207|{s.anchor}")
