"""The rule registry's records: gates, rules and their examples, frozen and typed."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import field
from typing import Any

from provscore.display import readable_code
from provscore.model import Action, Finding, Location
from provscore.records import dataclass

#: The families a rule row may name (its code's hundreds follow the family).
FAMILIES = ("evidence", "suppression", "write-set", "fixtures", "independent-evidence",
            "ledgers", "coverage", "grader-subversion", "input")
#: The score tallies a rule's findings may count toward (seed 003's removed/added).
TALLIES = ("", "removed", "added")


@dataclass(frozen=True, slots=True)
class Gate:
    """One step of the decision procedure (rules/gates.toml)."""

    number: int
    name: str
    summary: str


@dataclass(frozen=True, slots=True)
class ExampleFile:
    """One file of a rule example: ``before`` None = added, ``after`` None = deleted."""

    path: str
    before: str | None
    after: str | None
    symlink: str | None = None


@dataclass(frozen=True, slots=True)
class RuleExample:
    files: tuple[ExampleFile, ...] = ()
    diff: str | None = None
    note: str = ""
    # Paths a hidden test patch adds (as ``--protect-from-diff`` gives them, PS807).
    hidden_tests: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Rule:
    """One row of ``rules/*.toml``: what fires, where it is gated, what it costs."""

    code: str
    name: str
    action: Action
    penalty: float
    message: str
    summary: str
    rationale: str
    gate: Gate
    family: str
    # Suppression kinds (evidence.model.SuppressionKind values) this rule reports.
    kinds: tuple[str, ...] = ()
    tally: str = ""
    valid: tuple[RuleExample, ...] = field(default=())
    invalid: tuple[RuleExample, ...] = field(default=())
    source: str = ""

    def finding(self, message: str | None = None, *, location: Location | None = None,
                node_id: str | None = None, action: Action | None = None, anchor: str = "",
                tally: str | None = None, **fmt: object) -> Finding:
        """A finding of this rule; ``fmt`` fills the message template. ``tally``
        overrides the row's tally for this one finding (e.g. a removed test whose
        evidence was already counted item by item)."""
        text = message if message is not None else _format(self.message, fmt, self.code)
        return Finding(code=self.code, name=self.name, action=action or self.action,
                       penalty=self.penalty, message=text, location=location, node_id=node_id,
                       anchor=anchor, gate=self.gate.number,
                       tally=self.tally if tally is None else tally)


#: Message fields that hold code: shown with readable string literals (provscore.display).
CODE_FIELDS = ("code", "before", "reason", "detail")


def _format(template: str, values: dict[str, object], code: str) -> str:
    shown = {k: readable_code(v) if k in CODE_FIELDS and isinstance(v, str) else v
             for k, v in values.items()}
    try:
        return template.format(**shown)
    except (KeyError, IndexError) as exc:  # a template bug must not hide the finding
        return f"{template} [{code}: missing {exc}]"


@dataclass(frozen=True, slots=True)
class Registry:
    """Every rule, gate and pattern table; loaded once per :class:`~provscore.session.Session`."""

    rules: Mapping[str, Rule]
    patterns: Mapping[str, Mapping[str, Any]]
    gates: tuple[Gate, ...]
    source: str = ""

    def __getitem__(self, code: str) -> Rule:
        return self.rules[code]

    def __iter__(self) -> Iterator[Rule]:
        return iter(self.sorted())

    def sorted(self) -> list[Rule]:
        return [self.rules[c] for c in sorted(self.rules)]

    def in_gate(self, number: int) -> list[Rule]:
        return [r for r in self.sorted() if r.gate.number == number]

    def pattern(self, section: str) -> Mapping[str, Any]:
        return self.patterns.get(section, {})
