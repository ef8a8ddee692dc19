"""Gate 10, coverage (PS701-PS704): the independent evidence must reach the touched code,
name only properties the catalog defines, keep a green set, and cover the base corpus.

What reaches what is computed before (:mod:`provscore.results.coverage`, from the call
graph); these detectors only judge it. Without results (or in lint mode) PS502 already
says there is no independent evidence, so none of these fires then.
"""

from __future__ import annotations

from collections.abc import Iterator

from provscore.checks.base import independent_check
from provscore.checks.facts import IndependentFacts
from provscore.model import Action, Finding, Location
from provscore.registry.model import Rule
from provscore.results.coverage import CoverStatus, SymbolCoverage


def _judged(facts: IndependentFacts) -> bool:
    return facts.coverage is not None and facts.result_files > 0 and not facts.static_only


def _detail(s: SymbolCoverage) -> str:
    if s.status is CoverStatus.UNREACHED:
        return "no base test or catalog property reaches it"
    missing = s.missing
    names = ", ".join(o.name for o in missing[:3]) + (" ..." if len(missing) > 3 else "")
    reaching = len(s.tests) + len(s.properties)
    if s.status is CoverStatus.UNCOVERED:
        if not missing:
            return (f"none of the {reaching} tests or properties that reach it has a result "
                    "that votes")
        return f"none of the {reaching} tests or properties that reach it has a result ({names})"
    return f"{len(missing)} of the {reaching} tests or properties that reach it have no result " \
        f"({names})"


@independent_check("PS701")
def touched_code_uncovered(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    cov = facts.coverage
    if cov is None or not _judged(facts):
        return
    contract = facts.contract
    action = Action(contract.uncovered_action if cov.any_covered
                    else contract.uncovered_none_action)
    for s in cov.symbols:
        if s.status is CoverStatus.COVERED:
            continue
        sym = s.symbol
        yield rule.finding(location=Location(sym.path, sym.lines[0], sym.sides[0]),
                           anchor=f"PS701|{sym.name}", action=action, symbol=sym.name,
                           detail=_detail(s))


@independent_check("PS702")
def unknown_property(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    cov = facts.coverage
    if cov is None or facts.static_only:
        return
    for name, where in cov.unknown_properties:
        yield rule.finding(anchor=f"PS702|{where}|{name}", name=name, where=where,
                           action=None if cov.fail_closed else Action.INFO)


@independent_check("PS703")
def green_set_empty(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    cov = facts.coverage
    if cov is None or not _judged(facts):
        return
    covering = cov.covering_properties
    if not covering or cov.green_properties:
        return
    outcomes = {p.name: p.outcome for s in cov.symbols for p in s.properties}
    if "property_failed" in outcomes.values():
        return  # a failing property is PS504's reject, not an empty green set
    detail = ", ".join(f"{pid} ({outcomes[pid]})" for pid in covering)
    yield rule.finding(anchor="PS703", detail=detail)


@independent_check("PS704")
def results_partial(rule: Rule, facts: IndependentFacts) -> Iterator[Finding]:
    cov = facts.coverage
    if cov is None or not _judged(facts):
        return
    corpus = cov.corpus
    share = corpus.share
    if share is None or share >= corpus.min_share:
        return
    yield rule.finding(anchor="PS704", covered=corpus.with_results, total=corpus.base_tests,
                       share=f"{share:.1%}", required=f"{corpus.min_share * 100:g}%")
