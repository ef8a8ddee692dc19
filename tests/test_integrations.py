"""The GitHub Action and the pre-commit hook call provscore with flags that exist."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import yaml
from tests_support import GitRepo

ROOT = Path(__file__).resolve().parents[1]


def _help(*cmd: str) -> str:
    return subprocess.run([sys.executable, "-m", "provscore", *cmd, "--help"],
                          capture_output=True, text=True, check=True).stdout


def test_action_is_composite_and_uses_real_flags() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    assert {"base", "oracle", "results", "fail-on", "static-only"} <= set(action["inputs"])
    steps = {step.get("id") or step.get("name"): str(step.get("run", ""))
             for step in action["runs"]["steps"]}
    publish = _help_of([sys.executable, "-m", "provscore.github_publish"])
    for step, help_text in ((steps["score"], _help("score")),
                            (steps["Publish the sticky comment and the check run"], publish)):
        for flag in set(re.findall(r"(--[a-z][a-z-]+)", step)):
            assert flag in help_text, f"action.yml uses {flag}, which its command lacks"
    assert {"--format", "--fail-on"} <= set(re.findall(r"(--[a-z][a-z-]+)", steps["score"]))


def _help_of(argv: list[str]) -> str:
    return subprocess.run([*argv, "--help"], capture_output=True, text=True, check=True).stdout


def test_pre_commit_hook_runs_and_refuses_a_removal(repo: GitRepo) -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())
    argv = shlex.split(hook["entry"])
    assert argv[0] == "provscore" and hook["pass_filenames"] is False
    repo.commit({"tests/test_a.py": "def test_a():\n    assert f(1) == 2\n    assert f(2) == 3\n"})
    repo.write({"tests/test_a.py": "def test_a():\n    assert f(1) == 2\n"})
    repo.git("add", "-A")
    cmd = [sys.executable, "-m", "provscore", *argv[1:]]
    refused = subprocess.run(cmd, cwd=repo.root, capture_output=True, text=True)
    assert refused.returncode == 2 and "PS101" in refused.stdout
    repo.write({"tests/test_a.py": "def test_a():\n    assert f(1) == 2\n    assert f(2) == 3\n",
                "src/a.py": "X = 1\n"})
    repo.git("add", "-A")
    allowed = subprocess.run(cmd, cwd=repo.root, capture_output=True, text=True)
    assert allowed.returncode == 0, allowed.stdout + allowed.stderr
