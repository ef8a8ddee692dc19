"""provscore.contract: score_contract.toml loading and validation (real files in tmp_path)."""

from __future__ import annotations

import dataclasses
import re
import textwrap
from pathlib import Path

import pytest

from provscore.errors import InputError
from provscore.oracle.contract import (
    CONTRACT_FILENAME,
    CONTRACT_KEYS,
    Contract,
    load_contract,
    load_oracle_contract,
    toml_value,
)

DOCS = Path(__file__).resolve().parent.parent / "docs" / "contract.md"

# The example contract of seed 000, verbatim.
SEED_000 = """\
# /trusted/oracles/score_contract.toml
[score]
property_trials = 80
property_timeout_s = 45
max_changed_files = 12

[fixtures]
lock_path = "fixtures.lock"
allow_human_keys = ["docs/screenshots/"]

[flake]
freeze_path = "flake_freeze.json"
forbid_new_skip_markers = [
  "pytest.mark.skip",
  "pytest.mark.xfail",
  "@unittest.skip",
]
"""

FULL = """\
[score]
pass_threshold = 0.98
review_threshold = 0.9
removed_penalty = 0.1
removed_penalty_cap = 0.4
added_penalty = 0.02
added_penalty_cap = 0.1
max_changed_files = 30
property_trials = 200
property_timeout_s = 120.5
empty_patch = "review"

[fixtures]
lock_path = "locks/fixtures.lock"
allow_prefixes = ["docs/screenshots/", "tests/goldens/images"]
fixture_roots = ["tests/golden"]
canonical_json = true
clock_fields = ["now_ms", "ts"]
declared_clock_field = "fixture_clock"

[evidence]
assertion_helpers = ["mylib.testing.assert_close", "check"]

[runner]
allowed_runner_edits = ["tests/conftest.py", "tox.ini"]
run_timeout_s = 120
max_runs_per_patch = 3
run_log_path = "runs.jsonl"
run_after_static_reject = false
require_sandbox = true
expected_corpus_digest = "abababababababababababababababababababababababababababababababab"
failure_tail_lines = 4
lock_files = ["requirements/lock.txt"]
pass_env = ["DJANGO_SETTINGS_MODULE"]

[flake]
freeze_path = "freeze.jsonl"
flake_ledger_path = "ledger.jsonl"
approvals_path = "approvals.toml"
flake_window = 7
reentry_streak = 12
parked_budget = 3
forbid_new_skip_markers = ["pytest.mark.skip"]

[coverage]
min_base_share = 0.25
uncovered_action = "info"
uncovered_none_action = "penalty"

[rules]
required = ["PS1", "PS301"]
required_actions = ["reject"]

[grader]
entry_points = ["tools.release:main"]
protected_paths = ["tests/hidden/*"]
"""


def write(tmp_path: Path, text: str, name: str = CONTRACT_FILENAME) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def load_text(tmp_path: Path, text: str) -> Contract:
    return load_contract(write(tmp_path, text))


# --------------------------------------------------------------------------- valid input


def test_defaults() -> None:
    c = load_contract(None)
    assert c == Contract()
    assert c.source is None
    assert (c.pass_threshold, c.review_threshold) == (0.99, 0.95)
    assert (c.removed_penalty, c.removed_penalty_cap) == (0.05, 0.5)
    assert (c.added_penalty, c.added_penalty_cap) == (0.01, 0.2)
    assert (c.max_changed_files, c.property_trials, c.property_timeout_s) == (12, 80, 45.0)
    assert c.lock_path == "fixtures.lock"
    assert c.allow_prefixes == ()
    assert c.fixture_roots == ("tests/fixtures", "tests/goldens", "tests/data", "tests/snapshots")
    assert c.canonical_json is False
    assert "now_ms" in c.clock_fields and c.declared_clock_field == "clock"
    assert (c.flake_window, c.reentry_streak, c.parked_budget) == (5, 10, 0)
    assert (c.freeze_path, c.flake_ledger_path, c.approvals_path) == (
        "flake_freeze.jsonl", "flake_ledger.jsonl", "removal_approvals.toml")


def test_empty_file_gives_defaults_with_source(tmp_path: Path) -> None:
    path = write(tmp_path, "")
    c = load_contract(path)
    assert dataclasses.replace(c, source=None) == Contract()
    assert c.source == str(path)


def test_full_valid_file(tmp_path: Path) -> None:
    c = load_text(tmp_path, FULL)
    assert c.pass_threshold == 0.98 and c.review_threshold == 0.9
    assert c.removed_penalty == 0.1 and c.removed_penalty_cap == 0.4
    assert c.added_penalty == 0.02 and c.added_penalty_cap == 0.1
    assert c.max_changed_files == 30 and c.property_trials == 200
    assert c.property_timeout_s == 120.5 and c.empty_patch == "review"
    assert c.lock_path == "locks/fixtures.lock"
    assert c.allow_prefixes == ("docs/screenshots/", "tests/goldens/images")
    assert c.fixture_roots == ("tests/golden",)
    assert c.canonical_json is True
    assert c.clock_fields == ("now_ms", "ts") and c.declared_clock_field == "fixture_clock"
    assert c.assertion_helpers == ("mylib.testing.assert_close", "check")
    assert c.allowed_runner_edits == ("tests/conftest.py", "tox.ini")
    assert (c.run_timeout_s, c.max_runs_per_patch, c.run_log_path) == (120.0, 3, "runs.jsonl")
    assert (c.run_after_static_reject, c.require_sandbox) == (False, True)
    assert c.expected_corpus_digest == "ab" * 32 and c.failure_tail_lines == 4
    assert c.lock_files == ("requirements/lock.txt",)
    assert c.pass_env == ("DJANGO_SETTINGS_MODULE",)
    assert (c.freeze_path, c.flake_ledger_path, c.approvals_path) == (
        "freeze.jsonl", "ledger.jsonl", "approvals.toml")
    assert (c.flake_window, c.reentry_streak, c.parked_budget) == (7, 12, 3)
    assert c.forbid_new_skip_markers == ("pytest.mark.skip",)
    assert (c.min_base_share, c.uncovered_action, c.uncovered_none_action) == (
        0.25, "info", "penalty")
    assert (c.required_rules, c.required_actions) == (("PS1", "PS301"), ("reject",))
    assert c.entry_points == ("tools.release:main",)
    assert c.protected_paths == ("tests/hidden/*",)
    # every field was set away from its default, so the file exercises every key
    defaults = Contract()
    for key in CONTRACT_KEYS:
        assert getattr(c, key.field) != getattr(defaults, key.field), key.dotted


def test_seed_000_example_parses(tmp_path: Path) -> None:
    c = load_text(tmp_path, SEED_000)
    assert c.property_trials == 80
    assert c.property_timeout_s == 45.0 and isinstance(c.property_timeout_s, float)
    assert c.max_changed_files == 12
    assert c.lock_path == "fixtures.lock"
    assert c.allow_prefixes == ("docs/screenshots/",)  # allow_human_keys alias
    assert c.freeze_path == "flake_freeze.json"
    assert c.forbid_new_skip_markers == ("pytest.mark.skip", "pytest.mark.xfail",
                                         "@unittest.skip")


def test_int_accepted_for_float(tmp_path: Path) -> None:
    c = load_text(tmp_path, "[score]\npass_threshold = 1\nreview_threshold = 0\n")
    assert c.pass_threshold == 1.0 and isinstance(c.pass_threshold, float)
    assert c.review_threshold == 0.0 and isinstance(c.review_threshold, float)


def test_equal_thresholds_allowed(tmp_path: Path) -> None:
    c = load_text(tmp_path, "[score]\npass_threshold = 0.97\nreview_threshold = 0.97\n")
    assert c.pass_threshold == c.review_threshold == 0.97


def test_to_toml_round_trips(tmp_path: Path) -> None:
    original = load_text(tmp_path, FULL)
    path = write(tmp_path, original.to_toml(), "again.toml")
    reread = load_contract(path)
    assert dataclasses.replace(reread, source=None) == dataclasses.replace(original, source=None)
    defaults = load_contract(write(tmp_path, Contract().to_toml(), "defaults.toml"))
    assert dataclasses.replace(defaults, source=None) == Contract()


def test_toml_value_escapes_strings() -> None:
    assert toml_value('a"b\\c\x7f\n') == '"a\\"b\\\\c\\u007f\\n"'
    assert toml_value(["x", "é"]) == '["x", "é"]'
    assert toml_value(True) == "true" and toml_value(3) == "3" and toml_value(0.5) == "0.5"


# --------------------------------------------------------------------------- oracle dir


def test_oracle_dir_none_and_without_contract(tmp_path: Path) -> None:
    assert load_oracle_contract(None) == Contract()
    assert load_oracle_contract(tmp_path) == Contract()


def test_oracle_dir_with_contract(tmp_path: Path) -> None:
    path = write(tmp_path, "[score]\nmax_changed_files = 3\n")
    c = load_oracle_contract(str(tmp_path))
    assert c.max_changed_files == 3
    assert c.source == str(path)
    assert c.oracle_path(tmp_path, c.lock_path) == tmp_path / "fixtures.lock"
    assert c.oracle_path(tmp_path, "/abs/lock") == Path("/abs/lock")


def test_oracle_dir_missing_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="oracle dir does not exist"):
        load_oracle_contract(tmp_path / "nope")


def test_missing_contract_file_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.toml: contract not found"):
        load_contract(tmp_path / "nope.toml")


def test_invalid_contract_in_oracle_dir_is_an_error(tmp_path: Path) -> None:
    write(tmp_path, "[score]\npass_treshold = 0.9\n")
    with pytest.raises(InputError, match="did you mean pass_threshold"):
        load_oracle_contract(tmp_path)


# --------------------------------------------------------------------------- errors


def test_error_names_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, "[score]\nmax_changed_file = 3\n")
    with pytest.raises(InputError) as info:
        load_contract(path)
    assert str(info.value) == (
        f"{path}: score.max_changed_file: unknown key (did you mean max_changed_files?)")
    assert info.value.path == str(path)
    assert info.value.exit_code == 3


@pytest.mark.parametrize(("text", "pattern"), [
    ("[score]\nmax_changed_file = 3\n",
     r"score\.max_changed_file: unknown key \(did you mean max_changed_files\?\)"),
    ("[fixtures]\nallow_human_key = []\n",
     r"fixtures\.allow_human_key: unknown key \(did you mean allow_human_keys\?\)"),
    ("[score]\nlock_path = 'x'\n",
     r"score\.lock_path: unknown key \(it belongs in \[fixtures\]\)"),
    ("[score]\nzzz = 1\n", r"score\.zzz: unknown key$"),
    ("[fixture]\nlock_path = 'x'\n", r"fixture: unknown table \(did you mean fixtures\?\)"),
    ("[scoring]\n", r"scoring: unknown table \(did you mean score\?\)"),
    ("[extra]\n", r"extra: unknown table$"),
    ("pass_threshold = 0.9\n",
     r"pass_threshold: unknown top-level key \(it belongs in \[score\]\)"),
    ("version = 1\n", r"version: unknown top-level key"),
    ("[score.limits]\nx = 1\n", r"score\.limits: unknown key"),
])
def test_unknown_tables_and_keys(tmp_path: Path, text: str, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        load_text(tmp_path, text)


@pytest.mark.parametrize(("text", "pattern"), [
    ("[score]\nmax_changed_files = true\n",
     r"score\.max_changed_files: expected an integer, got boolean True"),
    ("[score]\nmax_changed_files = 12.0\n",
     r"score\.max_changed_files: expected an integer, got float 12\.0"),
    ("[score]\npass_threshold = true\n",
     r"score\.pass_threshold: expected a number, got boolean True"),
    ("[score]\npass_threshold = '0.9'\n",
     r"score\.pass_threshold: expected a number, got string '0\.9'"),
    ("[score]\nproperty_timeout_s = 1979-05-27\n",
     r"score\.property_timeout_s: expected a number, got date"),
    ("[fixtures]\ncanonical_json = 1\n",
     r"fixtures\.canonical_json: expected a boolean, got integer 1"),
    ("[fixtures]\nlock_path = 3\n", r"fixtures\.lock_path: expected a string, got integer 3"),
    ("[fixtures]\nallow_prefixes = 'docs/'\n",
     r"fixtures\.allow_prefixes: expected an array of strings, got string 'docs/'"),
    ("[fixtures]\nallow_human_keys = ['docs/', 7]\n",
     r"fixtures\.allow_human_keys\[1\]: expected a string, got integer 7"),
    ("[runner]\nallowed_runner_edits = [{a = 1}]\n",
     r"runner\.allowed_runner_edits\[0\]: expected a string, got table"),
    ("[flake]\nflake_window = 'five'\n",
     r"flake\.flake_window: expected an integer, got string 'five'"),
    ("score = 1\n", r"score: expected a table, got integer"),
    ("[[score]]\npass_threshold = 1\n", r"score: expected a table, got array"),
])
def test_wrong_types(tmp_path: Path, text: str, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        load_text(tmp_path, text)


@pytest.mark.parametrize(("text", "pattern"), [
    ("[score]\npass_threshold = 1.5\n",
     r"score\.pass_threshold: must be between 0 and 1, got 1\.5"),
    ("[score]\nreview_threshold = -0.1\n",
     r"score\.review_threshold: must be between 0 and 1, got -0\.1"),
    ("[score]\npass_threshold = 0.9\nreview_threshold = 0.95\n",
     r"score\.review_threshold: 0\.95 is above score\.pass_threshold 0\.9"),
    ("[score]\nremoved_penalty_cap = -0.5\n",
     r"score\.removed_penalty_cap: must be between 0 and 1, got -0\.5"),
    ("[score]\nadded_penalty = -1\n", r"score\.added_penalty: must be between 0 and 1"),
    ("[score]\nadded_penalty_cap = 2\n", r"score\.added_penalty_cap: must be between 0 and 1"),
    ("[score]\nremoved_penalty = nan\n", r"score\.removed_penalty: must be a finite number"),
    ("[score]\nproperty_timeout_s = inf\n", r"score\.property_timeout_s: must be a finite"),
    ("[score]\nproperty_timeout_s = 0\n", r"score\.property_timeout_s: must be positive"),
    ("[score]\nmax_changed_files = -1\n", r"score\.max_changed_files: must be at least 1, got -1"),
    ("[score]\nproperty_trials = 0\n", r"score\.property_trials: must be at least 1"),
    ("[flake]\nflake_window = 0\n", r"flake\.flake_window: must be at least 1"),
    ("[flake]\nreentry_streak = -3\n", r"flake\.reentry_streak: must be at least 1"),
    ("[flake]\nparked_budget = -1\n", r"flake\.parked_budget: must not be negative, got -1"),
    ("[runner]\nrun_timeout_s = 0\n", r"runner\.run_timeout_s: must be positive"),
    ("[runner]\nmax_runs_per_patch = 0\n", r"runner\.max_runs_per_patch: must be at least 1"),
    ("[runner]\nfailure_tail_lines = 0\n", r"runner\.failure_tail_lines: must be at least 1"),
    ("[runner]\nrun_log_path = ''\n", r"runner\.run_log_path: must be a non-empty path"),
    ("[runner]\nexpected_corpus_digest = 'ABC'\n",
     r"runner\.expected_corpus_digest: must be empty or a sha256 hex digest"),
    ("[runner]\npass_env = ['HOME', 'A B']\n",
     r"runner\.pass_env: item 1 'A B' is not an environment variable name"),
    ("[runner]\nlock_files = ['../requirements.txt']\n",
     r"runner\.lock_files: item 0 '\.\./requirements\.txt': must be a normalised"),
    ("[flake]\nfreeze_path = ''\n", r"flake\.freeze_path: must be a non-empty path"),
    ("[fixtures]\nallow_prefixes = ['']\n",
     r"fixtures\.allow_prefixes: item 0 '': must not be empty"),
    ("[fixtures]\nallow_human_keys = ['docs/', '/etc/']\n",
     r"fixtures\.allow_prefixes: item 1 '/etc/': must be relative"),
    ("[fixtures]\nfixture_roots = ['tests/../x']\n",
     r"fixtures\.fixture_roots: item 0 'tests/\.\./x': must be a normalised relative path"),
    ("[fixtures]\nallow_prefixes = ['./docs/']\n", r"must be a normalised relative path"),
    ("[fixtures]\nallow_prefixes = ['docs\\\\shots']\n", r"must be a POSIX path"),
    ("[fixtures]\ndeclared_clock_field = 'now'\n",
     r"fixtures\.declared_clock_field: 'now' is also listed in fixtures\.clock_fields"),
    ("[fixtures]\nclock_fields = ['now', ' ']\n",
     r"fixtures\.clock_fields: item 1 must be a non-empty string"),
    ("[evidence]\nassertion_helpers = ['my lib.check']\n",
     r"evidence\.assertion_helpers: item 0 'my lib\.check' is not a dotted name"),
    ("[rules]\nrequired_actions = ['reject', 'fatal']\n",
     r"rules\.required_actions: item 1 'fatal' is not one of reject, penalty, info"),
    ("[rules]\nrequired = [' ']\n", r"rules\.required: item 0 must be a rule code or prefix"),
])
def test_out_of_range(tmp_path: Path, text: str, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        load_text(tmp_path, text)


def test_alias_and_key_together(tmp_path: Path) -> None:
    text = "[fixtures]\nallow_prefixes = ['a/']\nallow_human_keys = ['b/']\n"
    with pytest.raises(InputError, match=r"fixtures\.allow_human_keys: same setting as "
                                         r"fixtures\.allow_prefixes"):
        load_text(tmp_path, text)


@pytest.mark.parametrize(("text", "line"), [
    ("[score]\npass_threshold = \n", 2),
    ("[score]\npass_threshold = 0.9\npass_threshold = 0.8\n", 3),
    ("[score\n", 1),
])
def test_malformed_toml_reports_the_line(tmp_path: Path, text: str, line: int) -> None:
    with pytest.raises(InputError, match=rf"malformed TOML: .*line {line}"):
        load_text(tmp_path, text)


def test_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / CONTRACT_FILENAME
    path.write_bytes(b"[score]\n# \xff\n")
    with pytest.raises(InputError, match="not UTF-8"):
        load_contract(path)


def test_direct_construction_is_validated() -> None:
    with pytest.raises(InputError, match=r"^score\.pass_threshold: must be between 0 and 1"):
        Contract(pass_threshold=2.0)


# --------------------------------------------------------------------------- helpers


@pytest.mark.parametrize(("prefix", "path", "allowed"), [
    ("docs/screenshots/", "docs/screenshots/a.png", True),
    ("docs/screenshots/", "docs/screenshots_evil/a.png", False),
    ("docs/screenshots", "docs/screenshots/a.png", True),
    ("docs/screenshots", "docs/screenshots", True),
    ("docs/screenshots", "docs/screenshotsX/a.png", False),
    ("docs/screenshots/", "docs/screenshots", False),
    ("tests/goldens/a.json", "tests/goldens/a.json", True),
    ("tests/goldens/a.json", "tests/goldens/a.json.bak", False),
])
def test_allow_prefix_matching_is_by_component(prefix: str, path: str, allowed: bool) -> None:
    assert Contract(allow_prefixes=(prefix,)).allows_fixture_change(path) is allowed


def test_no_prefix_allows_nothing() -> None:
    assert not Contract().allows_fixture_change("docs/screenshots/a.png")


# --------------------------------------------------------------------------- docs


def test_docs_list_every_key_with_its_default() -> None:
    text = DOCS.read_text(encoding="utf-8")
    rows = {m.group(1): m.group(2) for m in
            re.finditer(r"^\| `(\w+\.\w+)` \| [^|]+ \| `([^`]*)` \|", text, re.MULTILINE)}
    defaults = Contract().to_dict()
    for key in CONTRACT_KEYS:
        assert key.dotted in rows, f"{key.dotted} missing from docs/contract.md"
        assert rows[key.dotted] == toml_value(defaults[key.section][key.key]), key.dotted
        for alias in key.aliases:
            assert f"`{alias}`" in text
    assert set(rows) == {k.dotted for k in CONTRACT_KEYS}
