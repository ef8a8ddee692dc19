"""Gates 4, 7, 8 and 9 for suppressions: what stops evidence from running or failing.

Which rule reports a suppression is data: each rule row lists the suppression kinds it
reports (``kinds`` in rules/*.toml), and :func:`check_kinds` refuses a registry in which
a kind the collectors produce is reported by no rule, or by two.
"""

from __future__ import annotations

from collections.abc import Iterator

from provscore.checks.base import loc, static_check
from provscore.checks.facts import StaticFacts
from provscore.checks.grader import report_constructs
from provscore.errors import InputError
from provscore.evidence import SuppressionKind
from provscore.model import Action, Finding, Modification, Provenance
from provscore.registry.model import Registry, Rule

# A new suppression on an id frozen on base is allowed (reported as info) for these.
_FREEZABLE = frozenset({"PS201", "PS202", "PS203"})


def suppression_rules(registry: Registry) -> dict[SuppressionKind, str]:
    """Suppression kind → the code of the rule that reports it."""
    return {SuppressionKind(kind): rule.code for rule in registry.sorted() for kind in rule.kinds}


def check_kinds(registry: Registry) -> None:
    """Every suppression kind is reported by exactly one rule; every listed kind exists."""
    known = {k.value for k in SuppressionKind}
    owner: dict[str, str] = {}
    for rule in registry.sorted():
        for kind in rule.kinds:
            if kind not in known:
                raise InputError(f"{rule.code} lists unknown suppression kind {kind!r} "
                                 f"(known: {', '.join(sorted(known))})", path=rule.source)
            if kind in owner:
                raise InputError(f"suppression kind {kind!r} is reported by both "
                                 f"{owner[kind]} and {rule.code}", path=rule.source)
            owner[kind] = rule.code
    missing = sorted(known - set(owner))
    if missing:
        raise InputError(f"suppression kind(s) {', '.join(missing)} are reported by no rule: "
                         "list each in one rule's kinds", path=registry.source)


def kind_name(kind: str) -> str:
    """A suppression kind as a message says it: ``skip_mark`` → ``skip``,
    ``warning_filter`` → ``warning filter``."""
    return kind.removesuffix("_mark").replace("_", " ")


@static_check("PS107", "PS201", "PS202", "PS203", "PS204", "PS206", "PS207")
def suppression_added(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    """Every suppression the patch added whose kind this rule reports."""
    kinds = frozenset(rule.kinds)
    for c in facts.provenance.suppressions:
        s = c.suppression
        widened = c.provenance is Provenance.AGENT_MODIFIED and \
            c.modification is Modification.WEAKENED
        if (c.provenance is not Provenance.AGENT_ADDED and not widened) or \
                s.kind.value not in kinds:
            continue
        action: Action | None = None
        note = ""
        if c.target_added:
            action, note = Action.INFO, " (on a test the patch added; it does not vote)"
        elif s.node_id in facts.frozen and rule.code in _FREEZABLE:
            action, note = Action.INFO, " (frozen on base)"
        detail = f"{s.detail}{note}" if s.detail else note.strip(" ()")
        shown = _with_guards(s.code, s.guards) + (f" (edited: {c.reason})" if widened else "")
        yield rule.finding(location=loc(s.path, s.line), node_id=s.node_id,
                           anchor=f"{rule.code}|{s.node_id}|{s.code}", action=action,
                           code=shown, target=s.node_id, kind=s.kind.value,
                           what=kind_name(s.kind.value), detail=detail or s.kind.value)
    if rule.code == "PS207":
        yield from report_constructs(rule, facts)


@static_check("PS208")
def suppression_changed(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    """An edited skip or xfail whose effect cannot be decided: a reviewer must read it."""
    for c in facts.provenance.suppressions:
        s, before = c.suppression, c.before
        if c.modification is not Modification.CHANGED or before is None:
            continue
        action = Action.INFO if s.node_id in facts.frozen else None
        yield rule.finding(location=loc(s.path, s.line), node_id=s.node_id,
                           anchor=f"PS208|{s.node_id}|{s.code}", action=action,
                           target=s.node_id, before=_with_guards(before.code, before.guards),
                           code=_with_guards(s.code, s.guards), reason=c.reason)


def _with_guards(code: str, guards: tuple[str, ...]) -> str:
    return f"{code} (under {' and '.join(guards)})" if guards else code


@static_check("PS205")
def deselect_in_config(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
    """Runner options that deselect, ignore or loosen, base → patched."""
    for ch in facts.change.runner.changes:
        yield rule.finding(location=loc(ch.path), node_id=None,
                           anchor=f"PS205|{ch.path}|{ch.detail}", code=ch.detail,
                           target=ch.path, kind=ch.option, detail=ch.detail)
