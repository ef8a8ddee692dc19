"""Rule documentation generated from the registry (one source of truth).

``python -m provscore.registry.docgen`` rewrites docs/rules.md and the registry's parsed
copy (rules/parsed.json, read at start-up instead of the TOML); a test fails when either
committed file is stale. ``provscore explain`` prints the same text.
"""

from __future__ import annotations

import sys
from pathlib import Path

from provscore.registry.load import PARSED_FILE, load_registry, parsed_json, rules_dir
from provscore.registry.model import Registry, Rule, RuleExample

HEADER = """<!-- THIS FILE IS GENERATED FROM rules/*.toml - DO NOT EDIT BY HAND.
     Regenerate with: python -m provscore.registry.docgen -->
# Rules

Every finding provscore reports comes from one of these rules. Actions: **reject** fails the
patch whatever its score; **penalty** subtracts the rule's weight from the merge score and
blocks `pass`; **info** is reported only. Each rule belongs to one gate of the decision
procedure (docs/concepts.md); the first gate with a rejecting finding is the report's first
cause. `provscore explain CODE` prints one rule.

"""


def _example_text(ex: RuleExample) -> str:
    parts: list[str] = []
    if ex.note:
        parts.append(f"*{ex.note}*\n")
    if ex.diff is not None:
        parts.append("```diff\n" + ex.diff.strip("\n") + "\n```\n")
    for f in ex.files:
        if f.symlink is not None:
            parts.append(f"`{f.path}` becomes a symlink to `{f.symlink}`\n")
            continue
        if f.before is not None:
            parts.append(f"before, `{f.path}`:\n\n```python\n{f.before.strip(chr(10))}\n```\n")
        else:
            parts.append(f"`{f.path}` is added.\n")
        if f.after is not None:
            parts.append(f"after:\n\n```python\n{f.after.strip(chr(10))}\n```\n")
        else:
            parts.append(f"`{f.path}` is deleted.\n")
    return "\n".join(parts)


def rule_markdown(rule: Rule) -> str:
    out = [f"## {rule.code} {rule.name}\n",
           f"**Action:** {rule.action.value} · **penalty weight:** {rule.penalty:g} · "
           f"**gate:** {rule.gate.number} {rule.gate.name}\n",
           f"{rule.summary}\n" if rule.summary else "",
           f"{rule.rationale}\n",
           f"Message: `{rule.message}`\n"]
    for label, examples in (("Fires on", rule.invalid), ("Does not fire on", rule.valid)):
        for ex in examples[:2]:
            out.append(f"**{label}:**\n\n{_example_text(ex)}")
    return "\n".join(o for o in out if o)


def rules_markdown(reg: Registry) -> str:
    index = ("| code | name | action | gate | summary |\n"
             "| --- | --- | --- | --- | --- |\n") + "".join(
        f"| [{r.code}](#{r.code.lower()}-{r.name}) | {r.name} | {r.action.value} | "
        f"{r.gate.number} {r.gate.name} | {r.summary} |\n"
        for r in reg.sorted())
    return HEADER + index + "\n" + "\n".join(rule_markdown(r) for r in reg.sorted())


def explain_rule(rule: Rule) -> str:
    lines = [f"{rule.code} {rule.name}  [{rule.action.value}, penalty {rule.penalty:g}, "
             f"gate {rule.gate.number} {rule.gate.name}]", ""]
    if rule.summary:
        lines += [rule.summary, ""]
    lines += [rule.rationale, "", f"message: {rule.message}", ""]
    for label, examples in (("fires on", rule.invalid), ("does not fire on", rule.valid)):
        for ex in examples[:1]:
            lines += [f"--- {label} ---", _example_text(ex).replace("```python\n", "")
                      .replace("```diff\n", "").replace("```\n", "")]
    return "\n".join(lines).rstrip() + "\n"


def list_rules(reg: Registry) -> str:
    width = max(len(r.name) for r in reg.sorted())
    return "".join(f"{r.code}  {r.name:<{width}}  {r.action.value:<7}  {r.summary}\n"
                   for r in reg.sorted())


def main() -> int:
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else \
        Path(__file__).resolve().parents[2] / "docs" / "rules.md"
    target.write_text(rules_markdown(load_registry()), encoding="utf-8")
    parsed = rules_dir() / PARSED_FILE
    parsed.write_text(parsed_json(rules_dir()), encoding="utf-8")
    print(f"wrote {target} and {parsed}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
