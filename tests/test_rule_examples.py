"""Every rule's examples, run through the real pipeline on real git repos."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests_support import SESSION

from provscore.registry import Rule, RuleExample
from provscore.testing import fired, run_example

CASES = [(rule, kind, i, ex)
         for rule in SESSION.registry.sorted()
         for kind, examples in (("invalid", rule.invalid), ("valid", rule.valid))
         for i, ex in enumerate(examples)]


@pytest.mark.parametrize(("rule", "kind", "index", "example"), CASES,
                         ids=[f"{r.code}-{r.name}-{k.upper()}-{i}" for r, k, i, _ in CASES])
def test_rule_example(rule: Rule, kind: str, index: int, example: RuleExample,
                      tmp_path: Path) -> None:
    report = run_example(example, tmp_path, SESSION)
    hits = fired(report, rule.code)
    if kind == "invalid":
        assert hits, f"{rule.code} did not fire; findings: {[f.code for f in report.findings]}"
        assert all(h.message and h.name == rule.name for h in hits)
    else:
        assert not hits, f"{rule.code} fired on a valid example: {[h.message for h in hits]}"


DIFF_RULES = [r for r in SESSION.registry.sorted()
              if r.source in ("evidence.toml", "suppression.toml", "writeset.toml", "input.toml")]


@pytest.mark.parametrize("rule", DIFF_RULES, ids=[r.code for r in DIFF_RULES])
def test_every_static_rule_has_both_kinds_of_example(rule: Rule) -> None:
    assert rule.invalid, f"{rule.code} has no invalid example"
    assert rule.valid, f"{rule.code} has no valid example"
