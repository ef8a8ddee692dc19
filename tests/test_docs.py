"""Generated documentation must match the registry it is generated from."""

from __future__ import annotations

from pathlib import Path

from provscore.docgen import rules_markdown
from provscore.rules import registry

ROOT = Path(__file__).resolve().parents[1]


def test_rules_page_is_current() -> None:
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_markdown(registry()), \
        "docs/rules.md is stale: run `python -m provscore.docgen`"


def test_rules_page_lists_every_rule() -> None:
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in registry().sorted():
        assert f"## {rule.code} {rule.name}" in page
