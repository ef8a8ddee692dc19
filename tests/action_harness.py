"""Run a composite action's shell steps the way a GitHub runner does, on a real repository.

The steps' ``${{ … }}`` expressions are evaluated against the same contexts GitHub gives
(``inputs`` with their defaults, ``github`` with the event payload, ``steps.<id>.outputs``,
``runner``), each ``shell: bash`` step runs as ``bash --noprofile --norc -eo pipefail
FILE`` with ``GITHUB_OUTPUT``, ``GITHUB_STEP_SUMMARY``, ``GITHUB_EVENT_PATH`` and the rest of
the variables GitHub sets, and ``if:`` conditions are honoured. ``uses:`` steps (setup-python)
and the steps with id ``install`` (pip install of the action's own directory) and
``sandbox`` (apt-get of bubblewrap, which needs root; the test machine has it) are
skipped: the test runs provscore from the checkout under test instead.

Expressions: the subset the action uses — context paths (``inputs.fail-on``), string
literals, ``||``, ``&&``, ``==``, ``!=``, ``!``, parentheses, ``format()`` and ``always()`` /
``success()`` / ``failure()``, with GitHub's truthiness and loose string comparison.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

_TOKEN = re.compile(r"\s*(\|\||&&|==|!=|!|\(|\)|,|'(?:[^']|'')*'|[A-Za-z_][\w.\-]*|\d+)")
_EXPR = re.compile(r"\$\{\{(.*?)\}\}", re.S)
SKIPPED_STEP_IDS = {"install", "sandbox"}


def _truthy(value: Any) -> bool:
    return value not in (None, False, 0, "")


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


class _Parser:
    def __init__(self, text: str, contexts: dict[str, Any], failed: bool) -> None:
        self.tokens = [t for t in _TOKEN.findall(text)]
        if "".join(self.tokens).replace(" ", "") != re.sub(r"\s+", "", text):
            raise ValueError(f"expression outside the supported subset: {text!r}")
        self.pos = 0
        self.contexts = contexts
        self.failed = failed

    def peek(self) -> str | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def take(self) -> str:
        tok: str = self.tokens[self.pos]
        self.pos += 1
        return tok

    def parse(self) -> Any:
        value = self.or_()
        if self.peek() is not None:
            raise ValueError(f"unexpected {self.peek()!r}")
        return value

    def or_(self) -> Any:
        value = self.and_()
        while self.peek() == "||":
            self.take()
            other = self.and_()
            value = value if _truthy(value) else other
        return value

    def and_(self) -> Any:
        value = self.cmp()
        while self.peek() == "&&":
            self.take()
            other = self.cmp()
            value = other if _truthy(value) else value
        return value

    def cmp(self) -> Any:
        value = self.unary()
        if self.peek() in ("==", "!="):
            op = self.take()
            other = self.unary()
            same = _text(value).lower() == _text(other).lower()
            return same if op == "==" else not same
        return value

    def unary(self) -> Any:
        if self.peek() == "!":
            self.take()
            return not _truthy(self.unary())
        return self.primary()

    def primary(self) -> Any:
        tok = self.take()
        if tok == "(":
            value = self.or_()
            assert self.take() == ")"
            return value
        if tok.startswith("'"):
            return tok[1:-1].replace("''", "'")
        if tok.isdigit():
            return int(tok)
        if tok in ("true", "false", "null"):
            return {"true": True, "false": False, "null": None}[tok]
        if self.peek() == "(":
            self.take()
            args: list[Any] = []
            while self.peek() != ")":
                args.append(self.or_())
                if self.peek() == ",":
                    self.take()
            self.take()
            if tok == "format":  # format('pr-{0}', x): GitHub's {N} placeholders
                return re.sub(r"\{(\d+)\}", lambda m: _text(args[1 + int(m.group(1))]),
                              str(args[0]))
            assert not args, f"{tok}() takes no arguments"
            return {"always": True, "success": not self.failed,
                    "failure": self.failed}[tok]
        found: Any = self.contexts
        for part in tok.split("."):
            found = found.get(part) if isinstance(found, dict) else None
        return found


def evaluate(text: str, contexts: dict[str, Any], failed: bool = False) -> Any:
    return _Parser(text, contexts, failed).parse()


def substitute(text: str, contexts: dict[str, Any]) -> str:
    return _EXPR.sub(lambda m: _text(evaluate(m.group(1), contexts)), text)


def _read_outputs(path: Path) -> dict[str, str]:
    """``key=value`` lines and ``key<<DELIM`` blocks, as GitHub parses GITHUB_OUTPUT."""
    out: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and "=" not in line.split("<<", 1)[0]:
            key, delim = line.split("<<", 1)
            body: list[str] = []
            i += 1
            while lines[i] != delim:
                body.append(lines[i])
                i += 1
            out[key] = "\n".join(body)
        elif "=" in line:
            key, value = line.split("=", 1)
            out[key] = value
        i += 1
    return out


@dataclass
class ActionRun:
    """What one run of the action did."""

    outputs: dict[str, str]
    steps: dict[str, dict[str, Any]]
    log: list[tuple[str, int, str, str]] = field(default_factory=list)  # name, rc, out, err
    summary: str = ""

    @property
    def failed(self) -> bool:
        return any(rc != 0 for _, rc, _, _ in self.log)

    def stdout(self, step: str) -> str:
        return next(out for name, _, out, _ in self.log if name == step)


def run_action(action_file: Path, workspace: Path, with_: dict[str, str],
               event: dict[str, Any], env: dict[str, str], temp: Path) -> ActionRun:
    """Run ``action_file``'s steps in ``workspace`` as GitHub would for ``event``."""
    action = yaml.safe_load(action_file.read_text(encoding="utf-8"))
    temp.mkdir(parents=True, exist_ok=True)
    event_path = temp / "event.json"
    event_path.write_text(json.dumps(event), encoding="utf-8")
    summary = temp / "step_summary.md"
    summary.touch()
    github = {"event": event, "event_name": "pull_request", "repository": env["GITHUB_REPOSITORY"],
              "sha": env.get("GITHUB_SHA", ""), "server_url": "https://github.com",
              "action_path": str(action_file.parent), "action_repository": "",
              "action_ref": "", "token": env.get("GITHUB_TOKEN", "")}
    contexts: dict[str, Any] = {"github": github, "runner": {"temp": str(temp)}, "steps": {},
                                "env": {}}
    inputs: dict[str, Any] = {}
    for name, spec in action.get("inputs", {}).items():
        default = str(spec.get("default", ""))
        inputs[name] = with_.get(name, substitute(default, {**contexts, "inputs": {}}))
    contexts["inputs"] = inputs
    run = ActionRun({}, contexts["steps"])
    base_env = {**os.environ, **env, "GITHUB_EVENT_PATH": str(event_path),
                "GITHUB_STEP_SUMMARY": str(summary), "RUNNER_TEMP": str(temp),
                "GITHUB_WORKSPACE": str(workspace), "GITHUB_ACTIONS": "true", "CI": "true",
                "GITHUB_ACTION_PATH": str(action_file.parent)}
    for i, step in enumerate(action["runs"]["steps"]):
        name = step.get("name") or step.get("uses") or f"step {i}"
        if "uses" in step or step.get("id") in SKIPPED_STEP_IDS:
            continue
        condition = str(step.get("if", "success()"))
        condition = _EXPR.sub(lambda m: m.group(1), condition)
        if not _truthy(evaluate(condition, contexts, run.failed)):
            continue
        assert step.get("shell") == "bash", f"{name}: only bash steps are supported"
        script = temp / f"step{i}.sh"
        script.write_text(substitute(step["run"], contexts), encoding="utf-8")
        output = temp / f"step{i}.output"
        output.write_text("", encoding="utf-8")
        step_env = {k: substitute(str(v), contexts) for k, v in step.get("env", {}).items()}
        proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                              cwd=workspace, capture_output=True, text=True,
                              env={**base_env, **step_env, "GITHUB_OUTPUT": str(output)})
        run.log.append((name, proc.returncode, proc.stdout, proc.stderr))
        if step.get("id"):
            contexts["steps"][step["id"]] = {
                "outputs": _read_outputs(output),
                "outcome": "success" if proc.returncode == 0 else "failure"}
    run.outputs = {k: substitute(str(spec["value"]), contexts)
                   for k, spec in action.get("outputs", {}).items()}
    run.summary = summary.read_text(encoding="utf-8")
    return run
