"""Rule selection, as ruff does it: ``select``, ``extend-select`` and ``ignore`` by code or
prefix, resolved once against the registry and applied in one place: to the findings,
just before they become the decision (``pipeline.score``). Detectors never see it.

Resolution (ruff's): a rule is in force when a ``select``/``extend-select`` selector
matches it and no ``ignore`` selector at least as specific (as long) does; ``ALL``
matches every rule and is the least specific. ``select`` defaults to ``ALL``.

Two things a repository's configuration cannot turn off, because the patch under review
can edit the repository (though not its base): the input rules (gate 1: a diff that does
not parse or apply, a file that cannot be classified) are always in force, so nothing
unknown is ever treated as clean; and the oracle-owned contract's ``[rules]`` table names
rules (``required``) and actions (``required_actions = ["reject"]``) that stay in force
whatever the configuration or the command line says. Those are reported as kept.
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Iterable, Sequence

from provscore.errors import InputError, UsageError
from provscore.model import Finding
from provscore.records import dataclass
from provscore.registry.model import Registry

ALL = "ALL"
#: The gate whose rules no selection turns off (provscore fails closed on its input).
INPUT_GATE = 1


@dataclass(frozen=True, slots=True)
class RuleSelection:
    """The selection as asked for: code prefixes as written, and where each list came
    from (``sources``: e.g. ``--select``, ``pyproject.toml at base``)."""

    select: tuple[str, ...] = (ALL,)
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    sources: tuple[str, ...] = ()

    @property
    def is_default(self) -> bool:
        return self.select == (ALL,) and not self.extend_select and not self.ignore


@dataclass(frozen=True, slots=True)
class RequiredRules:
    """The contract's ``[rules]``: what no selection may turn off."""

    codes: tuple[str, ...] = ()  # codes or prefixes
    actions: tuple[str, ...] = ()  # rule actions, e.g. ("reject",)
    source: str | None = None  # the contract file


@dataclass(frozen=True, slots=True)
class ActiveRules:
    """The resolved selection: which codes are in force."""

    request: RuleSelection
    in_force: frozenset[str]
    deselected: tuple[str, ...]  # registry codes not in force, in code order
    # Deselected by the request but kept in force, with why (the contract, gate 1).
    kept: tuple[tuple[str, str], ...]

    def split(self, findings: Iterable[Finding]) -> tuple[tuple[Finding, ...],
                                                          tuple[tuple[str, int], ...]]:
        """(findings in force, counts by code of the findings left out)."""
        kept: list[Finding] = []
        left_out: Counter[str] = Counter()
        for f in findings:
            if f.code in self.in_force:
                kept.append(f)
            else:
                left_out[f.code] += 1
        return tuple(kept), tuple(sorted(left_out.items()))


def _normalise(selector: str) -> str:
    return selector.strip().upper()


def check_selectors(selectors: Sequence[str], registry: Registry, where: str,
           path: str | None = None) -> tuple[str, ...]:
    """Every selector names at least one rule; else a one-line error with a suggestion."""
    out: list[str] = []
    codes = sorted(registry.rules)
    for raw in selectors:
        sel = _normalise(raw)
        if sel == ALL or (sel and any(code.startswith(sel) for code in codes)):
            out.append(sel)
            continue
        by_name = {r.name: r.code for r in registry.rules.values()}
        if raw.strip().lower() in by_name:
            hint = f" ({raw.strip()} is the name of {by_name[raw.strip().lower()]}; give the code)"
        else:
            close = difflib.get_close_matches(sel, [*codes, ALL], n=1, cutoff=0.6) or \
                difflib.get_close_matches(raw.strip().lower(), list(by_name), n=1, cutoff=0.6)
            hint = ""
            if close:
                hint = f" (did you mean {by_name.get(close[0], close[0])}?)"
        message = f"{where}: unknown rule code or prefix {raw!r}{hint}; `provscore explain` " \
                  "lists the rules"
        raise (InputError(message, path=path) if path else UsageError(message))
    return tuple(out)


def _specificity(selectors: Iterable[str], code: str) -> int:
    """Length of the longest selector matching ``code`` (-1: none; ALL is 0)."""
    best = -1
    for sel in selectors:
        if sel == ALL:
            best = max(best, 0)
        elif code.startswith(sel):
            best = max(best, len(sel))
    return best


def resolve_selection(request: RuleSelection, registry: Registry,
                      required: RequiredRules | None = None,
                      where: dict[str, str] | None = None) -> ActiveRules:
    """The codes in force. ``where`` names, per list (``select``, ``extend_select``,
    ``ignore``), the flag or file it came from, for the error message."""
    names = where or {}
    select = check_selectors(request.select, registry, names.get("select", "--select"))
    extend = check_selectors(request.extend_select, registry,
                    names.get("extend_select", "--extend-select"))
    ignore = check_selectors(request.ignore, registry, names.get("ignore", "--ignore"))
    req = required or RequiredRules()
    must = check_selectors(req.codes, registry, "rules.required", req.source)
    in_force: set[str] = set()
    kept: list[tuple[str, str]] = []
    for rule in registry.sorted():
        chosen = _specificity((*select, *extend), rule.code)
        if chosen >= 0 and _specificity(ignore, rule.code) < chosen:
            in_force.add(rule.code)
            continue
        why = ("an input rule (gate 1): always in force" if rule.gate.number == INPUT_GATE
               else f"the contract requires {rule.action.value} rules"
               if rule.action.value in req.actions
               else "the contract requires it (rules.required)"
               if _specificity(must, rule.code) > 0 else "")
        if why:
            in_force.add(rule.code)
            kept.append((rule.code, why))
    deselected = tuple(code for code in sorted(registry.rules) if code not in in_force)
    return ActiveRules(request, frozenset(in_force), deselected, tuple(kept))


def all_rules(registry: Registry) -> ActiveRules:
    """Every rule in force (no selection asked for)."""
    return ActiveRules(RuleSelection(), frozenset(registry.rules), (), ())


def deselected_gates(active: ActiveRules, registry: Registry) -> dict[int, str]:
    """Gates every rule of which is deselected: not evaluated, and the report says why."""
    by_gate: dict[int, list[str]] = {}
    for rule in registry.rules.values():
        by_gate.setdefault(rule.gate.number, []).append(rule.code)
    return {gate: "every rule of this gate is deselected by the rule selection"
            for gate, codes in by_gate.items()
            if codes and all(code not in active.in_force for code in codes)}
