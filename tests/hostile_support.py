"""Helpers for the hostile-input tests: the real CLI in-process, and a base test corpus."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from provscore.cli import main

OPS_TESTS = """\
from ops import add, mul


def test_add():
    assert add(1, 2) == 3
    assert add(0, 0) == 0


def test_mul():
    assert mul(2, 3) == 6
    assert mul(1, 1) == 1


def test_both():
    assert add(mul(1, 2), 3) == 5
    assert mul(add(1, 1), 2) == 4
"""
DROP = "    assert mul(add(1, 1), 2) == 4\n"  # the last assertion of the corpus
OPS = "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
BASE = {"README.md": "ops\n", "src/ops.py": OPS, "tests/test_ops.py": OPS_TESTS}
OPS_IDS = ("tests/test_ops.py::test_add", "tests/test_ops.py::test_mul",
           "tests/test_ops.py::test_both")


def cli(cap: pytest.CaptureFixture[bytes], *args: object) -> tuple[int, bytes, str]:
    """Run ``provscore ARGS`` through :func:`provscore.cli.main`: exit code, stdout bytes
    and stderr text."""
    code = main([os.fsdecode(a) if isinstance(a, bytes) else str(a) for a in args])
    out, err = cap.readouterr()
    return code, out, err.decode("utf-8", "replace")


def scored(cap: pytest.CaptureFixture[bytes], *args: object) -> tuple[int, dict[str, Any]]:
    """``provscore score ARGS --format json``: exit code and the JSON report."""
    code, out, err = cli(cap, "score", *args, "--format", "json")
    assert code in (0, 1, 2), err
    report: dict[str, Any] = json.loads(out)
    return code, report


def codes(report: dict[str, Any]) -> list[str]:
    return sorted({f["code"] for f in report["findings"] if f["action"] != "info"})


def findings(report: dict[str, Any], code: str) -> list[dict[str, Any]]:
    return [f for f in report["findings"] if f["code"] == code]


def junit(path: Path, ids: tuple[str, ...] = OPS_IDS) -> Path:
    """A JUnit XML file in which every test id passed (an off-tree run of base's tests)."""
    cases = []
    for node_id in ids:
        file, _, name = node_id.partition("::")
        module = file.removesuffix(".py").replace("/", ".")
        cases.append(f'<testcase classname="{module}" name="{name}" file="{file}" '
                     'time="0.01"/>')
    path.write_text('<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite '
                    f'name="pytest" tests="{len(ids)}">{"".join(cases)}</testsuite>'
                    "</testsuites>\n", encoding="utf-8")
    return path
