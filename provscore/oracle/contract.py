"""The scoring contract: ``score_contract.toml`` in the oracle dir, loaded into :class:`Contract`.

The contract is the scoring policy (thresholds, penalties, caps, allowlists and the
paths of the other oracle inputs). It is human-owned and lives outside the write set;
a contract the patch could edit would make the score circular (gate 3).

Every key is validated: an unknown table or key, a value of the wrong type or a value
out of range is an :class:`~provscore.errors.InputError` (exit code 3) that names the
file and the dotted key. Nothing is silently ignored. ``docs/contract.md`` documents
every key; the tests keep that page and :data:`CONTRACT_KEYS` in step.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
import math
import re
import tomllib
from collections.abc import Mapping
from datetime import date, datetime, time
from pathlib import Path
from typing import Any, Final, Literal, NoReturn

from provscore.errors import InputError
from provscore.io import read_input, read_optional_input
from provscore.records import dataclass

CONTRACT_FILENAME: Final = "score_contract.toml"

Kind = Literal["float", "int", "str", "bool", "strs"]


@dataclass(frozen=True, slots=True)
class ContractKey:
    """One key of the contract file: where it lives, which field it fills, its TOML type."""

    section: str
    key: str
    field: str
    kind: Kind
    aliases: tuple[str, ...] = ()

    @property
    def dotted(self) -> str:
        return f"{self.section}.{self.key}"


def _k(section: str, key: str, kind: Kind, *aliases: str) -> ContractKey:
    return ContractKey(section, key, key, kind, aliases)


#: Every key the contract file accepts, in documentation order.
CONTRACT_KEYS: Final[tuple[ContractKey, ...]] = (
    _k("score", "pass_threshold", "float"),
    _k("score", "review_threshold", "float"),
    _k("score", "removed_penalty", "float"),
    _k("score", "removed_penalty_cap", "float"),
    _k("score", "added_penalty", "float"),
    _k("score", "added_penalty_cap", "float"),
    _k("score", "max_changed_files", "int"),
    _k("score", "property_trials", "int"),
    _k("score", "property_timeout_s", "float"),
    _k("score", "empty_patch", "str"),
    _k("fixtures", "lock_path", "str"),
    _k("fixtures", "allow_prefixes", "strs", "allow_human_keys"),
    _k("fixtures", "fixture_roots", "strs"),
    _k("fixtures", "canonical_json", "bool"),
    _k("fixtures", "clock_fields", "strs"),
    _k("fixtures", "declared_clock_field", "str"),
    _k("evidence", "assertion_helpers", "strs"),
    _k("runner", "allowed_runner_edits", "strs"),
    _k("runner", "run_timeout_s", "float"),
    _k("runner", "max_runs_per_patch", "int"),
    _k("runner", "run_log_path", "str"),
    _k("runner", "run_after_static_reject", "bool"),
    _k("runner", "require_sandbox", "bool"),
    _k("runner", "expected_corpus_digest", "str"),
    _k("runner", "failure_tail_lines", "int"),
    _k("runner", "lock_files", "strs"),
    _k("runner", "pass_env", "strs"),
    _k("flake", "freeze_path", "str"),
    _k("flake", "flake_ledger_path", "str"),
    _k("flake", "approvals_path", "str"),
    _k("flake", "flake_window", "int"),
    _k("flake", "reentry_streak", "int"),
    _k("flake", "parked_budget", "int"),
    _k("flake", "forbid_new_skip_markers", "strs"),
    _k("coverage", "min_base_share", "float"),
    _k("coverage", "uncovered_action", "str"),
    _k("coverage", "uncovered_none_action", "str"),
    ContractKey("rules", "required", "required_rules", "strs"),
    _k("rules", "required_actions", "strs"),
    _k("grader", "entry_points", "strs"),
    _k("grader", "protected_paths", "strs"),
)

EMPTY_PATCH_DECISIONS: Final = ("reject", "review", "pass")

SECTIONS: Final[tuple[str, ...]] = ("score", "fixtures", "evidence", "runner", "flake",
                                    "coverage", "rules", "grader")
#: What a coverage finding (PS701) may do to the decision; also the rule actions
#: ``rules.required_actions`` may name.
RULE_ACTIONS: Final = ("reject", "penalty", "info")
COVERAGE_ACTIONS: Final = RULE_ACTIONS

_BY_FIELD: Final = {k.field: k for k in CONTRACT_KEYS}
_HEX64: Final = re.compile(r"[0-9a-f]{64}")
_ENV_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Contract:
    """The scoring policy. Defaults are the seeds' values; see ``docs/contract.md``."""

    # [score]
    pass_threshold: float = 0.99
    review_threshold: float = 0.95
    removed_penalty: float = 0.05  # per removed evidence item
    removed_penalty_cap: float = 0.5
    added_penalty: float = 0.01  # per agent-added evidence item
    added_penalty_cap: float = 0.2
    max_changed_files: int = 12
    property_trials: int = 80
    property_timeout_s: float = 45.0
    # What a patch that changes nothing is (PS904): "reject" (unscored), "review" or "pass".
    empty_patch: str = "reject"
    # [fixtures]
    lock_path: str = "fixtures.lock"
    allow_prefixes: tuple[str, ...] = ()  # TOML alias: allow_human_keys (seed 000)
    fixture_roots: tuple[str, ...] = ("tests/fixtures", "tests/goldens", "tests/data",
                                      "tests/snapshots")
    canonical_json: bool = False
    clock_fields: tuple[str, ...] = ("now", "now_ms", "timestamp", "created_at", "updated_at",
                                     "generated_at", "time")
    declared_clock_field: str = "clock"
    # [evidence]
    assertion_helpers: tuple[str, ...] = ()  # extra qualified names that are assertions
    # [runner]
    allowed_runner_edits: tuple[str, ...] = ()  # globs of runner channels the patch may edit
    run_timeout_s: float = 900.0  # wall clock of one run of the base corpus (seed 004)
    max_runs_per_patch: int = 6  # seed 004's six-run cap
    run_log_path: str = "run_log.jsonl"
    run_after_static_reject: bool = True  # run even when a static gate already rejects
    require_sandbox: bool = False  # an unsandboxed run is a reject, not an info finding
    expected_corpus_digest: str = ""  # "" = not checked; else PS507 on mismatch
    failure_tail_lines: int = 8  # K: lines of each failure kept in the report's digest
    lock_files: tuple[str, ...] = ("requirements.lock", "requirements.txt", "poetry.lock",
                                   "uv.lock", "pdm.lock", "Pipfile.lock")
    pass_env: tuple[str, ...] = ()  # environment variables the tests may see
    # [flake]
    freeze_path: str = "flake_freeze.jsonl"
    flake_ledger_path: str = "flake_ledger.jsonl"
    approvals_path: str = "removal_approvals.toml"
    flake_window: int = 5  # N
    reentry_streak: int = 10  # K (seed 004)
    parked_budget: int = 0  # MAX_PARKED (seed 001)
    forbid_new_skip_markers: tuple[str, ...] = ()  # seed 000; informational
    # [coverage]
    min_base_share: float = 1.0  # share of collected base tests the results must name
    uncovered_action: str = "penalty"  # PS701 when results cover other touched symbols
    uncovered_none_action: str = "reject"  # PS701 when no result covers any touched symbol
    # [rules]: what a repository's rule selection (or the command line) cannot turn off.
    required_rules: tuple[str, ...] = ()  # codes or prefixes (TOML key: required)
    required_actions: tuple[str, ...] = ()  # e.g. ("reject",): no reject rule deselected
    # [grader]
    entry_points: tuple[str, ...] = ()  # more `module:function` entry points (PS802)
    protected_paths: tuple[str, ...] = ()  # globs of paths the patch must not create (PS807)
    source: str | None = None  # the file it was read from; None for defaults

    def __post_init__(self) -> None:
        _check_values(self)

    def allows_fixture_change(self, path: str) -> bool:
        """Whether ``path`` lies under a human-owned allow prefix (content may change).

        Matching is by path component, not by string: ``docs/shots/`` and ``docs/shots``
        both cover ``docs/shots/a.png`` but neither covers ``docs/shots_evil/a.png``.
        """
        return any(_under_prefix(path, prefix) for prefix in self.allow_prefixes)

    def allows_runner_edit(self, path: str) -> bool:
        """Whether the patch may edit the runner channel ``path`` (``allowed_runner_edits``)."""
        return any(fnmatch.fnmatch(path, g) for g in self.allowed_runner_edits)

    def oracle_path(self, oracle_dir: str | Path, rel: str) -> Path:
        """Where an oracle input named in the contract (e.g. ``lock_path``) lives."""
        p = Path(rel)
        return p if p.is_absolute() else Path(oracle_dir) / p

    def to_dict(self) -> dict[str, dict[str, Any]]:
        """The contract as TOML-shaped tables (``source`` is not part of it)."""
        out: dict[str, dict[str, Any]] = {s: {} for s in SECTIONS}
        for key in CONTRACT_KEYS:
            value = getattr(self, key.field)
            out[key.section][key.key] = list(value) if isinstance(value, tuple) else value
        return out

    def to_toml(self) -> str:
        """The contract as a TOML document that :func:`load_contract` reads back unchanged."""
        lines: list[str] = []
        for section, table in self.to_dict().items():
            if lines:
                lines.append("")
            lines.append(f"[{section}]")
            lines.extend(f"{key} = {toml_value(value)}" for key, value in table.items())
        return "\n".join(lines) + "\n"


def _under_prefix(path: str, prefix: str) -> bool:
    if prefix.endswith("/"):
        return path.startswith(prefix)
    return path == prefix or path.startswith(prefix + "/")


def toml_value(value: object) -> str:
    """A TOML literal for the value types the contract uses."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        # JSON string escapes are TOML basic-string escapes; TOML also forbids raw DEL.
        return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(f"no TOML literal for {type(value).__name__}")


# --------------------------------------------------------------------------- validation


def _fail(contract: Contract, field: str, message: str) -> NoReturn:
    raise InputError(f"{_BY_FIELD[field].dotted}: {message}", path=contract.source)


def _check_values(c: Contract) -> None:
    """Range and shape checks; raise InputError naming the dotted key."""
    for key in CONTRACT_KEYS:
        value = getattr(c, key.field)
        if key.kind == "float" and not math.isfinite(value):
            _fail(c, key.field, f"must be a finite number, got {value!r}")
    for name in ("uncovered_action", "uncovered_none_action"):
        if getattr(c, name) not in COVERAGE_ACTIONS:
            _fail(c, name, f"must be one of {', '.join(COVERAGE_ACTIONS)}, "
                  f"got {getattr(c, name)!r}")
    for name in ("pass_threshold", "review_threshold", "removed_penalty", "removed_penalty_cap",
                 "added_penalty", "added_penalty_cap", "min_base_share"):
        value = getattr(c, name)
        if not 0.0 <= value <= 1.0:
            _fail(c, name, f"must be between 0 and 1, got {value!r}")
    if c.review_threshold > c.pass_threshold:
        _fail(c, "review_threshold",
              f"{c.review_threshold!r} is above score.pass_threshold {c.pass_threshold!r}")
    for name in ("max_changed_files", "property_trials", "flake_window", "reentry_streak",
                 "max_runs_per_patch", "failure_tail_lines"):
        if getattr(c, name) < 1:
            _fail(c, name, f"must be at least 1, got {getattr(c, name)!r}")
    if c.parked_budget < 0:
        _fail(c, "parked_budget", f"must not be negative, got {c.parked_budget!r}")
    if c.empty_patch not in EMPTY_PATCH_DECISIONS:
        _fail(c, "empty_patch", f"must be one of {', '.join(EMPTY_PATCH_DECISIONS)}, got "
              f"{c.empty_patch!r}")
    for name in ("property_timeout_s", "run_timeout_s"):
        if getattr(c, name) <= 0:
            _fail(c, name, f"must be positive, got {getattr(c, name)!r}")
    for name in ("lock_path", "freeze_path", "flake_ledger_path", "approvals_path",
                 "run_log_path"):
        value = getattr(c, name)
        if not value or "\x00" in value:
            _fail(c, name, f"must be a non-empty path, got {value!r}")
    for name in ("allow_prefixes", "fixture_roots", "allowed_runner_edits", "lock_files"):
        for i, item in enumerate(getattr(c, name)):
            problem = _repo_path_problem(item)
            if problem:
                _fail(c, name, f"item {i} {item!r}: {problem}")
    for name in ("clock_fields", "forbid_new_skip_markers"):
        for i, item in enumerate(getattr(c, name)):
            if not item.strip():
                _fail(c, name, f"item {i} must be a non-empty string")
    for i, item in enumerate(c.assertion_helpers):
        if not all(part.isidentifier() for part in item.split(".")):
            _fail(c, "assertion_helpers",
                  f"item {i} {item!r} is not a dotted name like 'mylib.testing.check'")
    for i, item in enumerate(c.required_actions):
        if item not in RULE_ACTIONS:
            _fail(c, "required_actions", f"item {i} {item!r} is not one of "
                  f"{', '.join(RULE_ACTIONS)}")
    for i, item in enumerate(c.required_rules):
        if not item.strip():
            _fail(c, "required_rules", f"item {i} must be a rule code or prefix like 'PS1'")
    _check_runner_values(c)
    if not c.declared_clock_field.strip():
        _fail(c, "declared_clock_field", "must be a non-empty string")
    if c.declared_clock_field in c.clock_fields:
        _fail(c, "declared_clock_field",
              f"{c.declared_clock_field!r} is also listed in fixtures.clock_fields")


def _check_runner_values(c: Contract) -> None:
    digest = c.expected_corpus_digest
    if digest and not _HEX64.fullmatch(digest):
        _fail(c, "expected_corpus_digest",
              f"must be empty or a sha256 hex digest (64 characters 0-9a-f), got {digest!r}")
    for i, name in enumerate(c.pass_env):
        if not _ENV_NAME.fullmatch(name):
            _fail(c, "pass_env", f"item {i} {name!r} is not an environment variable name")


def _repo_path_problem(item: str) -> str | None:
    """Why a repo-relative path, prefix or glob from the contract is unusable, if it is.

    An empty prefix would allow every path, so it is refused rather than read as "all";
    ``./x`` or ``a/../x`` would never match a normalised repo path, so they are refused
    rather than silently never matching.
    """
    if not item:
        return "must not be empty"
    if "\x00" in item or "\\" in item:
        return "must be a POSIX path (no backslash or NUL)"
    if item.startswith("/"):
        return "must be relative to the repository root"
    parts = (item[:-1] if item.endswith("/") else item).split("/")
    if any(part in ("", ".", "..") for part in parts):
        return "must be a normalised relative path (no '.', '..' or empty components)"
    return None


# --------------------------------------------------------------------------- loading

_TOML_TYPE_NAMES: Final[tuple[tuple[type, str], ...]] = (
    (bool, "boolean"), (int, "integer"), (float, "float"), (str, "string"), (list, "array"),
    (dict, "table"), (datetime, "datetime"), (date, "date"), (time, "time"),
)
_EXPECTED: Final[Mapping[Kind, str]] = {
    "float": "a number", "int": "an integer", "str": "a string", "bool": "a boolean",
    "strs": "an array of strings",
}


def _type_name(value: object) -> str:
    for typ, name in _TOML_TYPE_NAMES:
        if isinstance(value, typ):
            return name
    return type(value).__name__


def _show(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _convert(key: ContractKey, written: str, value: object, source: str) -> object:
    """Check a raw TOML value against the key's kind; return the field value.

    ``bool`` is not a number here (TOML keeps them apart; Python does not), and an
    integer is accepted where a float is expected.
    """
    where = f"{key.section}.{written}"
    if not isinstance(value, bool):
        if key.kind == "float" and isinstance(value, int | float):
            return float(value)
        if key.kind == "int" and isinstance(value, int):
            return value
    if key.kind == "bool" and isinstance(value, bool):
        return value
    if key.kind == "str" and isinstance(value, str):
        return value
    if key.kind == "strs" and isinstance(value, list):
        for i, item in enumerate(value):
            if not isinstance(item, str):
                raise InputError(f"{where}[{i}]: expected a string, got {_type_name(item)} "
                                 f"{_show(item)}", path=source)
        return tuple(value)
    raise InputError(f"{where}: expected {_EXPECTED[key.kind]}, got {_type_name(value)} "
                     f"{_show(value)}", path=source)


def _suggest(word: str, candidates: list[str]) -> str:
    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def _unknown_key(section: str, key: str, source: str) -> InputError:
    names = {k.key: k for k in CONTRACT_KEYS} | {a: k for k in CONTRACT_KEYS for a in k.aliases}
    home = names.get(key)
    if home is not None:
        hint = f" (it belongs in [{home.section}])"
    else:
        here = [k.key for k in CONTRACT_KEYS if k.section == section]
        here += [a for k in CONTRACT_KEYS if k.section == section for a in k.aliases]
        hint = _suggest(key, here)
    return InputError(f"{section}.{key}: unknown key{hint}", path=source)


def contract_from_mapping(data: Mapping[str, Any], source: str) -> Contract:
    """Validate a parsed TOML document and build the contract (``source`` names it in errors)."""
    values: dict[str, Any] = {}
    for section, table in data.items():
        if section not in SECTIONS:
            if not isinstance(table, dict):
                home = next((k for k in CONTRACT_KEYS if section in (k.key, *k.aliases)), None)
                hint = (f" (it belongs in [{home.section}])" if home
                        else _suggest(section, list(SECTIONS)))
                raise InputError(f"{section}: unknown top-level key{hint}", path=source)
            raise InputError(f"{section}: unknown table{_suggest(section, list(SECTIONS))}",
                             path=source)
        if not isinstance(table, dict):
            raise InputError(f"{section}: expected a table, got {_type_name(table)}",
                             path=source)
        seen: dict[str, str] = {}
        for written, value in table.items():
            key = next((k for k in CONTRACT_KEYS
                        if k.section == section and written in (k.key, *k.aliases)), None)
            if key is None:
                raise _unknown_key(section, written, source)
            if key.field in seen:
                raise InputError(f"{section}.{written}: same setting as {section}."
                                 f"{seen[key.field]} ({written} is an alias); give only one",
                                 path=source)
            seen[key.field] = written
            values[key.field] = _convert(key, written, value, source)
    return Contract(**values, source=source)


def load_contract(path: str | Path | None) -> Contract:
    """Read and validate a contract file; ``None`` gives the defaults."""
    if path is None:
        return Contract()
    return parse_contract(read_input(path, "contract", regular=True), str(path))


def parse_contract(raw: bytes, source: str) -> Contract:
    """Validate the bytes of a contract file read from ``source``."""
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"contract is not UTF-8 (byte {exc.start})", path=source) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"malformed TOML: {exc}", path=source) from None
    return contract_from_mapping(data, source)


def load_oracle_contract(oracle_dir: str | Path | None) -> Contract:
    """``<oracle_dir>/score_contract.toml`` if it exists, else the defaults.

    A given oracle dir that does not exist (or is not a directory) is an error: a typo in
    the path must not quietly score with default policy.
    """
    if oracle_dir is None:
        return Contract()
    root = Path(oracle_dir)
    if not root.is_dir():
        raise InputError("oracle dir does not exist or is not a directory", path=str(root))
    candidate = root / CONTRACT_FILENAME
    raw = read_optional_input(candidate, "contract")  # a FIFO or a directory is an error
    return Contract() if raw is None else parse_contract(raw, str(candidate))
