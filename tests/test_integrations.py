"""The GitHub Action and the pre-commit hook call provscore with flags that exist."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml
from tests_support import GitRepo

ROOT = Path(__file__).resolve().parents[1]


def _help(*cmd: str) -> str:
    return subprocess.run([sys.executable, "-m", "provscore", *cmd, "--help"],
                          capture_output=True, text=True, check=True).stdout


def test_action_is_composite_and_uses_real_flags() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text())
    assert action["runs"]["using"] == "composite"
    assert {"base", "oracle", "results", "fail-on", "static-only", "mode", "python",
            "require-sandbox"} <= set(action["inputs"])
    assert action["inputs"]["require-sandbox"]["default"] == "true"
    script = _score_step(action)
    flags = set(re.findall(r"(--[a-z][a-z-]+)", script))
    help_text = _help("score") + _help("verify")
    for flag in flags:
        assert flag in help_text, f"action.yml uses {flag}, which provscore lacks"
    assert {"--format", "--fail-on", "--require-sandbox", "--python"} <= flags
    assert re.findall(r"--format ([a-z]+)(?::|\s)", script).count("github") == 1
    publish = next(str(s["run"]) for s in action["runs"]["steps"]
                   if s.get("name") == "Publish the sticky comment and the check run")
    publish_help = _help_of([sys.executable, "-m", "provscore.github_publish"])
    for flag in set(re.findall(r"(--[a-z][a-z-]+)", publish)):
        assert flag in publish_help, f"action.yml uses {flag}, which the publisher lacks"


def _help_of(argv: list[str]) -> str:
    return subprocess.run([*argv, "--help"], capture_output=True, text=True, check=True).stdout


def _score_step(action: dict[str, Any]) -> str:
    [step] = [s for s in action["runs"]["steps"] if s.get("id") == "score"]
    script = str(step["run"])
    assert "${{" not in script  # every input reaches the script through env, never inlined
    return script


def test_action_verifies_a_pull_request_end_to_end(repo: GitRepo, tmp_path: Path) -> None:
    """The Score step's script as the runner executes it: verify by default, one run, the
    annotations on stdout, every report file and the outputs."""
    repo.commit({"pytest.ini": "[pytest]\npythonpath = src\n", "src/m.py": "X = 1\n",
                 "tests/test_m.py": "from m import X\n\n\ndef test_x():\n    assert X == 1\n"})
    base = repo.git("rev-parse", "HEAD").decode().strip()
    repo.commit({"src/m.py": "X = 1\nY = 2\n"})
    shim = tmp_path / "bin" / "provscore"
    shim.parent.mkdir()
    shim.write_text(f"#!/bin/sh\nexec {sys.executable} -m provscore \"$@\"\n")
    shim.chmod(0o755)
    outputs, summary = tmp_path / "github_output", tmp_path / "summary"
    oracle = tmp_path / "oracle"  # lets pytest's no-autoload switch through: a faster test
    oracle.mkdir()
    (oracle / "score_contract.toml").write_text(
        '[runner]\npass_env = ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"]\n')
    env = {**os.environ, "PATH": f"{shim.parent}:{os.environ['PATH']}", "MODE": "",
           "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1", "BASE": base, "HEAD_REV": "HEAD",
           "ORACLE": str(oracle), "RESULTS": "", "STATIC_ONLY": "false",
           "FAIL_ON": "review", "TEST_PYTHON": sys.executable, "REPEAT": "1",
           "REQUIRE_SANDBOX": "true", "PATCH_ID": "pr-1", "RUNNER_TEMP": str(tmp_path),
           "GITHUB_OUTPUT": str(outputs), "GITHUB_STEP_SUMMARY": str(summary)}
    script = _score_step(yaml.safe_load((ROOT / "action.yml").read_text()))
    proc = subprocess.run(["bash", "-c", script], cwd=repo.root, env=env, capture_output=True,
                          text=True, check=False)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.startswith("::notice title=provscore PASS::")
    out = dict(line.split("=", 1) for line in outputs.read_text().splitlines())
    assert out["decision"] == "pass" and out["merge_score"] == "1.0"
    report = json.loads(Path(out["json"]).read_text())
    assert report["run"]["sandbox"] == "bwrap" and report["run"]["patch_id"] == "pr-1"
    assert "**Off-tree run:**" in Path(out["markdown"]).read_text()
    assert json.loads(Path(out["sarif"]).read_text())["version"] == "2.1.0"
    assert "provscore: PASS" in summary.read_text()
    [row] = [json.loads(x) for x in (oracle / "run_log.jsonl").read_text().splitlines()]
    assert (row["patch_id"], row["verdict"]) == ("pr-1", "pass")


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
