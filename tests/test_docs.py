"""Generated documentation must match the registry it is generated from."""

from __future__ import annotations

from pathlib import Path

from tests_support import SESSION

from provscore.registry.docgen import rules_markdown

ROOT = Path(__file__).resolve().parents[1]


def test_rules_page_is_current() -> None:
    committed = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert committed == rules_markdown(SESSION.registry), \
        "docs/rules.md is stale: run `python -m provscore.registry.docgen`"


def test_rules_page_lists_every_rule() -> None:
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    for rule in SESSION.registry.sorted():
        assert f"## {rule.code} {rule.name}" in page


def test_every_cli_flag_is_documented() -> None:
    import re
    import subprocess
    import sys

    page = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    for cmd in (["score"], ["run"], ["verify"], ["explain"], ["demo"], ["lock", "fixtures"],
                ["ledger", "check"], ["ledger", "record"], ["batch"], ["compare"], ["export"]):
        out = subprocess.run([sys.executable, "-m", "provscore", *cmd, "--help"],
                             capture_output=True, text=True, check=True).stdout
        # Option definitions only: "  --flag", "  -o FILE, --output FILE".
        defined = re.findall(r"^\s+(?:-\w(?: \S+)?, )?(--[a-z][a-z-]+)", out, flags=re.M)
        assert defined, out
        for flag in set(defined) - {"--help"}:
            assert flag in page, f"`provscore {' '.join(cmd)} {flag}` is not in docs/cli.md"
