"""The codebase keeps its own rules: types, lint, one-way imports, sizes, one place for findings.

These run in the README's one test command, so CI fails when any of them does.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "provscore"

# Lower layers never import higher ones. Same layer: the package's own modules.
LAYERS: dict[str, int] = {
    "model": 0, "errors": 0, "io": 0, "nodeid": 0, "names": 0, "__init__": 0, "display": 0,
    "progress": 0, "lazy": 0, "kept": 0, "records": 0,
    "registry": 1, "change": 2, "evidence": 3, "provenance": 4, "callgraph": 5, "grader": 6,
    "oracle": 7, "results": 8, "runner": 9, "checks": 10, "scoring": 11, "report": 12,
    "session": 13, "config": 13, "pipeline": 14, "ledger": 14, "verify": 14, "testing": 15,
    "demo": 15, "github_publish": 15, "batch": 15, "cli_scoring": 16, "cli_batch": 16,
    "cli": 17, "__main__": 18,
}
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "_rules" not in p.parts)


def _unit(path: Path) -> str:
    return path.relative_to(PACKAGE).parts[0].removesuffix(".py")


def _imported_units(tree: ast.AST) -> set[str]:
    out: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names = [node.module]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "provscore" and len(parts) > 1:
                out.add(parts[1])
    return out


def test_every_module_has_a_layer() -> None:
    assert {_unit(p) for p in _modules()} <= set(LAYERS)


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_point_one_way(path: Path) -> None:
    unit = _unit(path)
    tree = ast.parse(path.read_text(encoding="utf-8"))
    upward = sorted(u for u in _imported_units(tree) if u != unit and LAYERS[u] > LAYERS[unit])
    assert not upward, f"{unit} (layer {LAYERS[unit]}) imports later stages: {upward}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: str(p.relative_to(ROOT)))
def test_module_and_function_sizes(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    assert source.count("\n") <= MAX_MODULE_LINES, f"{path.name}: split it by concern"
    long = [f"{node.name} ({node.end_lineno - node.lineno + 1} lines)"
            for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            and node.end_lineno is not None
            and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES]
    assert not long, long


def test_findings_are_created_only_in_checks() -> None:
    """A finding comes from a rule (``Rule.finding``), called only by a detector."""
    allowed = {PACKAGE / "registry" / "model.py"}  # where Rule.finding builds one
    offenders: list[str] = []
    for path in _modules():
        if path in allowed or _unit(path) == "checks":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else (
                    func.id if isinstance(func, ast.Name) else "")
                if name in ("finding", "Finding"):
                    offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert not offenders, offenders


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True,
                          text=True, check=False)


def test_mypy_strict() -> None:
    proc = _run("mypy", "--strict", "provscore", "tests")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff() -> None:
    proc = _run("ruff", "check", "provscore", "tests", "benchmarks")
    assert proc.returncode == 0, proc.stdout + proc.stderr
