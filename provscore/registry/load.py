"""Loading ``rules/*.toml`` into a :class:`~provscore.registry.model.Registry`.

``rules/`` is a top-level folder of the project. A built wheel carries it as
``provscore/_rules``; an editable install or a source checkout reads it from the
repository root. Every key of every row is validated: an unknown key, a gate that
``gates.toml`` does not define or a rule without a detector is an error naming the
file and the code, never a rule that silently does nothing.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from pathlib import Path
from typing import Any

from provscore.errors import InputError
from provscore.model import Action
from provscore.registry.detectors import DetectorTable
from provscore.registry.model import (
    FAMILIES,
    TALLIES,
    ExampleFile,
    Gate,
    Registry,
    Rule,
    RuleExample,
)

_PACKAGE_DIR = Path(__file__).resolve().parent.parent
_RULE_KEYS = {"code", "name", "action", "penalty", "message", "rationale", "valid", "invalid",
              "summary", "gate", "family", "kinds", "tally"}
_REQUIRED = {"code", "name", "action", "message", "rationale", "gate", "family"}
_EXAMPLE_KEYS = {"path", "before", "after", "files", "diff", "note", "expect_count", "head_only",
                 "hidden_tests"}
#: Files of the rules dir that hold tables, not rule rows.
DATA_FILES = ("patterns.toml", "gates.toml")
#: Every rules/*.toml already parsed, for start-up (tomllib is pure Python: parsing the
#: registry's ~120 KB cost more than any other single step of a lint run). Written by
#: ``python -m provscore.registry.docgen``; used only when its digest is that of the
#: TOML files beside it, so an edited rule is read from its TOML, never from a stale copy.
PARSED_FILE = "parsed.json"
_PARSED_FORMAT = 1


def rules_dir() -> Path:
    """Where the rule registry lives for this installation."""
    for candidate in (_PACKAGE_DIR / "_rules", _PACKAGE_DIR.parent / "rules"):
        if (candidate / "patterns.toml").is_file():
            return candidate
    raise InputError("rule registry not found (expected provscore/_rules or ./rules)",
                     path=str(_PACKAGE_DIR))


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
    hidden = raw.get("hidden_tests", [])
    if not isinstance(hidden, list) or not all(isinstance(h, str) for h in hidden):
        raise InputError("hidden_tests must be a list of paths", path=where)
    return RuleExample(tuple(files), raw.get("diff"), str(raw.get("note", "")), tuple(hidden))


def _choice(raw: dict[str, Any], key: str, allowed: tuple[str, ...], where: str) -> str:
    value = raw.get(key, "")
    if value not in allowed:
        raise InputError(f"{key} {value!r} is not one of {', '.join(repr(a) for a in allowed)}",
                         path=where)
    return str(value)


def _rule(raw: Any, source: str, gates: dict[str, Gate]) -> Rule:
    if not isinstance(raw, dict):
        raise InputError("[[rule]] must be a table", path=source)
    unknown = set(raw) - _RULE_KEYS
    missing = _REQUIRED - set(raw)
    where = f"{source} ({raw.get('code', '?')})"
    if unknown:
        raise InputError(f"unknown rule key(s) {sorted(unknown)}", path=where)
    if missing:
        raise InputError(f"missing rule key(s) {sorted(missing)}", path=where)
    try:
        action = Action(raw["action"])
    except ValueError:
        raise InputError(f"unknown action {raw['action']!r}", path=where) from None
    gate = gates.get(str(raw["gate"]))
    if gate is None:
        raise InputError(f"gate {raw['gate']!r} is not defined in gates.toml "
                         f"(gates: {', '.join(gates)})", path=where)
    kinds = raw.get("kinds", [])
    if not isinstance(kinds, list) or not all(isinstance(k, str) and k for k in kinds):
        raise InputError("kinds must be a list of suppression kind names", path=where)
    return Rule(
        code=str(raw["code"]), name=str(raw["name"]), action=action,
        penalty=float(raw.get("penalty", 0.0)), message=str(raw["message"]),
        summary=str(raw.get("summary", "")).strip(), rationale=str(raw["rationale"]).strip(),
        gate=gate, family=_choice(raw, "family", FAMILIES, where), kinds=tuple(kinds),
        tally=_choice(raw, "tally", TALLIES, where),
        valid=tuple(_example(e, where) for e in raw.get("valid", [])),
        invalid=tuple(_example(e, where) for e in raw.get("invalid", [])),
        source=source,
    )


def _load_toml(path: Path, data: bytes) -> dict[str, Any]:
    try:
        return tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"cannot read rule file: {exc}", path=str(path)) from None


def _read_sources(root: Path) -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    for path in sorted(root.glob("*.toml")):
        try:
            out[path.name] = path.read_bytes()
        except OSError as exc:
            raise InputError(f"cannot read rule file: {exc.strerror}", path=str(path)) from None
    return out


def sources_digest(sources: dict[str, bytes]) -> str:
    """One digest of every rule file's name and bytes."""
    h = hashlib.sha256(f"provscore-rules {_PARSED_FORMAT}\n".encode())
    for name, data in sorted(sources.items()):
        h.update(f"{name} {len(data)}\n".encode())
        h.update(data)
    return h.hexdigest()


def parsed_tables(root: Path) -> dict[str, dict[str, Any]]:
    """Every ``*.toml`` of ``root`` by file name, parsed: from :data:`PARSED_FILE` when it
    is the parse of exactly these files, else from the TOML itself."""
    sources = _read_sources(root)
    try:
        stored = json.loads((root / PARSED_FILE).read_bytes())
    except (OSError, ValueError):
        stored = None  # none, or unreadable: the TOML is the truth
    if isinstance(stored, dict) and stored.get("digest") == sources_digest(sources) and \
            isinstance(stored.get("files"), dict) and set(stored["files"]) == set(sources):
        return dict(stored["files"])
    return _parse_sources(root, sources)


def _parse_sources(root: Path, sources: dict[str, bytes]) -> dict[str, dict[str, Any]]:
    return {name: _load_toml(root / name, data) for name, data in sources.items()}


def parsed_json(root: Path) -> str:
    """The text of :data:`PARSED_FILE` for the TOML files of ``root``."""
    sources = _read_sources(root)
    files = _parse_sources(root, sources)
    text = json.dumps({"generated_by": "python -m provscore.registry.docgen",
                       "digest": sources_digest(sources), "files": files},
                      ensure_ascii=False, indent=0)
    if json.loads(text)["files"] != files:  # a TOML date or time has no JSON twin
        raise InputError("rule files hold values JSON cannot carry", path=str(root))
    return text + "\n"


def _gates(path: Path, table: dict[str, Any]) -> dict[str, Gate]:
    out: dict[str, Gate] = {}
    for i, raw in enumerate(table.get("gate", []), start=1):
        try:
            gate = Gate(int(raw["number"]), str(raw["name"]), str(raw.get("summary", "")))
        except (KeyError, TypeError, ValueError):
            raise InputError(f"[[gate]] #{i} needs an integer number and a name",
                             path=str(path)) from None
        if gate.name in out or any(g.number == gate.number for g in out.values()):
            raise InputError(f"gate {gate.number} {gate.name!r} is defined twice", path=str(path))
        out[gate.name] = gate
    if not out:
        raise InputError("no [[gate]] tables", path=str(path))
    return out


def load_registry(root: Path | None = None, detectors: DetectorTable | None = None
                  ) -> Registry:
    """Load every ``rules/*.toml`` under ``root`` (default: :func:`rules_dir`).

    A duplicate code is an error; with ``detectors`` given, so is a rule without a
    detector and a detector without a rule.
    """
    root = root or rules_dir()
    tables = parsed_tables(root)
    for name in DATA_FILES:
        if name not in tables:
            raise InputError("cannot read rule file: it does not exist", path=str(root / name))
    gates = _gates(root / "gates.toml", tables["gates.toml"])
    rules: dict[str, Rule] = {}
    patterns = tables["patterns.toml"]
    for name, table in tables.items():
        if name in DATA_FILES:
            continue
        for raw in table.get("rule", []):
            rule = _rule(raw, name, gates)
            if rule.code in rules:
                raise InputError(f"duplicate rule code {rule.code}", path=str(root / name))
            rules[rule.code] = rule
    if detectors is not None:
        detectors.check_bound(rules, str(root))
    ordered = tuple(sorted(gates.values(), key=lambda g: g.number))
    return Registry(rules, patterns, ordered, str(root))
