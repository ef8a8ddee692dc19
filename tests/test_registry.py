"""The registry binds rules (TOML rows) to detectors (functions); a new rule is one of each.

The throwaway rule below lives in a temp copy of ``rules/`` and in this file only: it
fires on a real patch, lands in the gate its row names, shows in the generated docs, and
runs its own examples, without an edit anywhere else.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests_support import SESSION, GitRepo

from provscore.checks import DETECTORS, StaticFacts, static_check
from provscore.errors import InputError
from provscore.model import Action, Finding
from provscore.pipeline import ScoreRequest, score
from provscore.registry import DetectorTable, Rule, load_registry, rules_dir
from provscore.registry.docgen import rules_markdown
from provscore.session import Session
from provscore.testing import fired, run_example

THROWAWAY_ROW = '''
[[rule]]
code = "PS299"
name = "throwaway-marker"
gate = "suppressions"
family = "suppression"
action = "reject"
penalty = 0.05
summary = "A test rule: an added line says THROWAWAY."
message = "THROWAWAY marker added in {path}"
rationale = """
Only for the registry's own test: a rule is one row and one detector.
"""
[[rule.invalid]]
before = """
def test_a():
    assert f(1) == 2
"""
after = """
def test_a():
    assert f(1) == 2  # THROWAWAY
"""
[[rule.valid]]
before = """
def test_a():
    assert f(1) == 2
"""
after = """
def test_a():
    assert f(1) == 2  # reviewed
"""
'''


def _throwaway_table() -> DetectorTable:
    table = DETECTORS.copy()

    @static_check("PS299", table=table)
    def throwaway_marker(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
        for change in facts.change.changes.files:
            for hunk in change.hunks:
                for line in hunk.lines:
                    if line.kind == "+" and "THROWAWAY" in line.text:
                        yield rule.finding(anchor=f"PS299|{change.path}", path=change.path)

    return table


@pytest.fixture
def rules_copy(tmp_path: Path) -> Path:
    root = tmp_path / "rules"
    shutil.copytree(rules_dir(), root)
    with (root / "suppression.toml").open("a", encoding="utf-8") as fh:
        fh.write(THROWAWAY_ROW)
    return root


def test_a_new_rule_is_one_row_and_one_detector(rules_copy: Path, repo: GitRepo) -> None:
    session = Session.load(rules_copy, _throwaway_table())
    repo.commit({"tests/test_a.py": "def test_a():\n    assert f(1) == 2\n"})
    diff = repo.diff({"tests/test_a.py": "def test_a():\n    assert f(1) == 2  # THROWAWAY\n"})
    report = score(ScoreRequest(repo=repo.root, base="HEAD", diff=diff), session)

    (hit,) = [f for f in report.findings if f.code == "PS299"]
    assert hit.action is Action.REJECT and hit.gate == 7
    assert hit.message == "THROWAWAY marker added in tests/test_a.py"
    gate = next(g for g in report.gates if g.number == 7)
    assert (gate.name, gate.status, gate.codes) == ("suppressions", "fail", ("PS299",))
    assert report.first_cause is not None and report.first_cause.code == "PS299"

    page = rules_markdown(session.registry)
    assert "## PS299 throwaway-marker" in page
    assert "**gate:** 7 suppressions" in page


def test_the_new_rules_examples_run(rules_copy: Path, tmp_path: Path) -> None:
    session = Session.load(rules_copy, _throwaway_table())
    rule = session.registry["PS299"]
    assert fired(run_example(rule.invalid[0], tmp_path / "invalid", session), "PS299")
    assert not fired(run_example(rule.valid[0], tmp_path / "valid", session), "PS299")


def test_a_rule_without_a_detector_is_refused(rules_copy: Path) -> None:
    with pytest.raises(InputError, match=r"PS299 have no detector"):
        Session.load(rules_copy)


def test_a_detector_without_a_rule_is_refused() -> None:
    with pytest.raises(InputError, match=r"detector\(s\) for PS299 .*throwaway_marker.* have "
                                         r"no rule row"):
        Session.load(detectors=_throwaway_table())


def test_a_code_bound_twice_is_refused() -> None:
    table = DETECTORS.copy()
    with pytest.raises(InputError, match="PS101 has two detectors"):
        @static_check("PS101", table=table)
        def again(rule: Rule, facts: StaticFacts) -> Iterator[Finding]:
            yield from ()


def test_a_row_naming_an_unknown_gate_is_refused(rules_copy: Path) -> None:
    text = (rules_copy / "suppression.toml").read_text(encoding="utf-8")
    (rules_copy / "suppression.toml").write_text(
        text.replace('gate = "suppressions"\nfamily = "suppression"\naction = "reject"\n'
                     'penalty = 0.05\nsummary = "A test rule',
                     'gate = "nowhere"\nfamily = "suppression"\naction = "reject"\n'
                     'penalty = 0.05\nsummary = "A test rule'), encoding="utf-8")
    with pytest.raises(InputError, match=r"suppression.toml \(PS299\): gate 'nowhere' is not "
                                         r"defined in gates.toml"):
        load_registry(rules_copy)


def test_a_suppression_kind_no_rule_reports_is_refused(rules_copy: Path) -> None:
    text = (rules_copy / "suppression.toml").read_text(encoding="utf-8")
    (rules_copy / "suppression.toml").write_text(
        text.replace('kinds = ["skip_mark", "warning_filter"]\n', 'kinds = ["warning_filter"]\n'),
        encoding="utf-8")
    with pytest.raises(InputError, match="skip_mark are reported by no rule"):
        Session.load(rules_copy, _throwaway_table())


def test_gates_come_from_the_registry() -> None:
    reg = SESSION.registry
    assert [(g.number, g.name) for g in reg.gates][:3] == [
        (1, "input"), (2, "write-set"), (3, "oracle")]
    assert {r.code for r in reg.in_gate(4)} == {"PS204", "PS205", "PS302"}
    assert {r.code for r in reg.in_gate(9)} == {"PS207", *(f"PS80{i}" for i in range(1, 10))}
    assert all(r.gate.number in range(1, 11) for r in reg)


def test_two_sessions_with_different_rules_live_side_by_side(rules_copy: Path) -> None:
    other = Session.load(rules_copy, _throwaway_table())
    assert "PS299" in other.registry.rules and "PS299" not in SESSION.registry.rules


def test_the_parsed_copy_is_the_toml_and_is_current() -> None:
    from provscore.registry.load import PARSED_FILE, parsed_json

    committed = (rules_dir() / PARSED_FILE).read_text(encoding="utf-8")
    assert committed == parsed_json(rules_dir()), \
        "rules/parsed.json is stale: run `python -m provscore.registry.docgen`"


def test_the_parsed_copy_loads_the_same_registry_as_the_toml(tmp_path: Path) -> None:
    from provscore.registry.load import PARSED_FILE

    toml_only = tmp_path / "rules"
    shutil.copytree(rules_dir(), toml_only)
    (toml_only / PARSED_FILE).unlink()
    assert load_registry(toml_only).rules == load_registry().rules
    assert load_registry(toml_only).patterns == load_registry().patterns


def test_an_edited_rule_is_read_from_its_toml_not_the_stale_copy(rules_copy: Path) -> None:
    from provscore.registry.load import PARSED_FILE

    assert (rules_copy / PARSED_FILE).is_file()  # copied with the rules, now stale
    text = (rules_copy / "grader.toml").read_text(encoding="utf-8")
    message = text.index("message = ", text.index('code = "PS801"'))
    (rules_copy / "grader.toml").write_text(
        text[:message] + 'message = "EDITED {path}"\n' + text[text.index("\n", message) + 1:],
        encoding="utf-8")
    reg = load_registry(rules_copy)
    assert reg.rules["PS801"].message == "EDITED {path}"
    assert "PS299" in reg.rules  # the fixture's appended row too


@pytest.mark.parametrize("damage", ["truncated", "other digest", "a file missing"])
def test_a_damaged_parsed_copy_is_never_trusted(tmp_path: Path, damage: str) -> None:
    import json

    from provscore.registry.load import PARSED_FILE

    root = tmp_path / "rules"
    shutil.copytree(rules_dir(), root)
    parsed = root / PARSED_FILE
    data = json.loads(parsed.read_text(encoding="utf-8"))
    data["files"]["grader.toml"]["rule"][0]["message"] = "FORGED"
    if damage == "truncated":
        parsed.write_text(json.dumps(data)[:-40], encoding="utf-8")
    elif damage == "other digest":
        parsed.write_text(json.dumps({**data, "digest": "0" * 64}), encoding="utf-8")
    else:
        del data["files"]["input.toml"]
        parsed.write_text(json.dumps(data), encoding="utf-8")
    assert load_registry(root).rules == load_registry().rules
    assert all(r.message != "FORGED" for r in load_registry(root).rules.values())
