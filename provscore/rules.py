"""The rule registry: ``rules/*.toml`` loaded into typed, frozen records.

``rules/`` is a top-level folder of the project. A built wheel carries it as
``provscore/_rules``; an editable install or a source checkout reads it from
the repository root. The registry is loaded once per process.
"""

from __future__ import annotations

import functools
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from provscore.errors import InputError
from provscore.model import Action, Finding, Location

_PACKAGE_DIR = Path(__file__).resolve().parent
_RULE_KEYS = {"code", "name", "action", "penalty", "message", "rationale", "valid", "invalid",
              "summary"}
_EXAMPLE_KEYS = {"path", "before", "after", "files", "diff", "note", "expect_count", "head_only"}


def rules_dir() -> Path:
    """Where the rule registry lives for this installation."""
    for candidate in (_PACKAGE_DIR / "_rules", _PACKAGE_DIR.parent / "rules"):
        if (candidate / "patterns.toml").is_file():
            return candidate
    raise InputError("rule registry not found (expected provscore/_rules or ./rules)",
                     path=str(_PACKAGE_DIR))


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


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    action: Action
    penalty: float
    message: str
    summary: str
    rationale: str
    valid: tuple[RuleExample, ...] = field(default=())
    invalid: tuple[RuleExample, ...] = field(default=())
    source: str = ""

    def finding(self, message: str | None = None, *, location: Location | None = None,
                node_id: str | None = None, action: Action | None = None, anchor: str = "",
                **fmt: object) -> Finding:
        """A finding of this rule; ``fmt`` fills the message template."""
        text = message if message is not None else _format(self.message, fmt, self.code)
        return Finding(code=self.code, name=self.name, action=action or self.action,
                       penalty=self.penalty, message=text, location=location, node_id=node_id,
                       anchor=anchor)


def _format(template: str, values: dict[str, object], code: str) -> str:
    try:
        return template.format(**values)
    except (KeyError, IndexError) as exc:  # a template bug must not hide the finding
        return f"{template} [{code}: missing {exc}]"


def _example(raw: Any, where: str) -> RuleExample:
    if not isinstance(raw, dict):
        raise InputError("an example must be a table", path=where)
    unknown = set(raw) - _EXAMPLE_KEYS
    if unknown:
        raise InputError(f"unknown example key(s) {sorted(unknown)}", path=where)
    files: list[ExampleFile] = []
    if "files" in raw:
        for f in raw["files"]:
            files.append(ExampleFile(str(f["path"]), f.get("before"), f.get("after"),
                                     f.get("symlink")))
    elif "before" in raw or "after" in raw:
        files.append(ExampleFile(str(raw.get("path", "tests/test_example.py")),
                                 raw.get("before"), raw.get("after")))
    return RuleExample(tuple(files), raw.get("diff"), str(raw.get("note", "")))


def _rule(raw: Any, source: str) -> Rule:
    if not isinstance(raw, dict):
        raise InputError("[[rule]] must be a table", path=source)
    unknown = set(raw) - _RULE_KEYS
    missing = {"code", "name", "action", "message", "rationale"} - set(raw)
    where = f"{source} ({raw.get('code', '?')})"
    if unknown:
        raise InputError(f"unknown rule key(s) {sorted(unknown)}", path=where)
    if missing:
        raise InputError(f"missing rule key(s) {sorted(missing)}", path=where)
    try:
        action = Action(raw["action"])
    except ValueError:
        raise InputError(f"unknown action {raw['action']!r}", path=where) from None
    return Rule(
        code=str(raw["code"]), name=str(raw["name"]), action=action,
        penalty=float(raw.get("penalty", 0.0)), message=str(raw["message"]),
        summary=str(raw.get("summary", "")).strip(), rationale=str(raw["rationale"]).strip(),
        valid=tuple(_example(e, where) for e in raw.get("valid", [])),
        invalid=tuple(_example(e, where) for e in raw.get("invalid", [])),
        source=source,
    )


def _load_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"cannot read rule file: {exc}", path=str(path)) from None


@dataclass(frozen=True, slots=True)
class Registry:
    rules: dict[str, Rule]
    patterns: dict[str, dict[str, Any]]

    def __getitem__(self, code: str) -> Rule:
        return self.rules[code]

    def sorted(self) -> list[Rule]:
        return [self.rules[c] for c in sorted(self.rules)]


@functools.cache
def registry() -> Registry:
    """Load every ``rules/*.toml`` once; a duplicate code is an error."""
    root = rules_dir()
    rules: dict[str, Rule] = {}
    patterns = _load_toml(root / "patterns.toml")
    for path in sorted(root.glob("*.toml")):
        if path.name == "patterns.toml":
            continue
        for raw in _load_toml(path).get("rule", []):
            rule = _rule(raw, path.name)
            if rule.code in rules:
                raise InputError(f"duplicate rule code {rule.code}", path=str(path))
            rules[rule.code] = rule
    return Registry(rules, patterns)


def patterns(section: str) -> dict[str, Any]:
    return registry().patterns.get(section, {})
