"""Focused classification (evidence/focus.py): scoring what a patch changed finds exactly
what classifying the whole touched files finds.

Each case edits one real-shaped pytest module in a real repository and scores the real
``git diff`` twice, focused (the default) and with ``whole_files``; the findings must be
identical, and the case states whether focusing engages (definitions left out) or falls
back to the whole file. Tampering cases also assert their rule, so an empty comparison
cannot pass.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

import pytest
from tests_support import GitRepo

from provscore.evidence.focus import focus_pair

MODULE = textwrap.dedent('''\
    """Operations on the ring."""
    import math

    import pytest

    from ring import add, mul, norm

    TOLERANCE = 1e-9
    slow = pytest.mark.skipif(False, reason="slow")


    def check_close(a, b):
        assert abs(a - b) < TOLERANCE


    def check_ring(x):
        check_close(add(x, 0), x)


    @pytest.fixture
    def unit():
        return 1


    def test_add():
        assert add(1, 2) == 3


    def test_add_unit(unit):
        assert add(unit, unit) == 2


    def test_mul():
        assert mul(2, 3) == 6
        assert mul(0, 5) == 0


    def test_norm():
        check_close(norm(3, 4), 5.0)


    def test_ring():
        check_ring(7)


    @slow
    def test_big():
        assert mul(10**6, 10**6) == 10**12


    class TestPi:
        def test_pi(self):
            assert math.isclose(mul(math.pi, 1), math.pi)


    class TestPiTwice(TestPi):
        def test_twice(self):
            assert add(math.pi, math.pi) == 2 * math.pi
    ''')


def _edit(old: str, new: str) -> str:
    assert MODULE.count(old) == 1, old
    return MODULE.replace(old, new)


@dataclass(frozen=True)
class Case:
    name: str
    post: str
    focused: bool  # whether definitions are left out (else: whole files)
    expect: tuple[str, ...] = ()  # codes that must be among the findings


CASES = [
    Case("assertion-deleted", _edit("    assert mul(0, 5) == 0\n", ""), True, ("PS101",)),
    Case("honest-assertion-added", _edit("    assert mul(0, 5) == 0\n",
                                         "    assert mul(0, 5) == 0\n"
                                         "    assert mul(1, 5) == 5\n"), True),
    Case("helper-gutted", _edit("    assert abs(a - b) < TOLERANCE\n", "    pass\n"),
         True, ("PS105",)),
    Case("helper-of-helper-gutted", _edit("    check_close(add(x, 0), x)\n",
                                          "    add(x, 0)\n"), True, ("PS105",)),
    Case("constant-loosened", _edit("TOLERANCE = 1e-9\n", "TOLERANCE = 1e9\n"), True),
    Case("mark-now-skips", _edit('skipif(False, reason="slow")', 'skipif(True, reason="slow")'),
         True, ("PS201",)),
    Case("fixture-changed", _edit("    return 1\n", "    return 0\n"), True),
    Case("test-redefined-later", MODULE + "\n\ndef test_mul():\n    pass\n", True,
         ("PS206",)),
    Case("test-deleted-by-rebinding", MODULE + "\n\ntest_add = None\n", True),
    Case("test-deleted", _edit("def test_add():\n    assert add(1, 2) == 3\n\n\n", ""), True,
         ("PS106",)),
    Case("base-class-gutted", _edit(
        "        assert math.isclose(mul(math.pi, 1), math.pi)\n",
        "        math.isclose(mul(math.pi, 1), math.pi)\n"), True, ("PS101",)),
    Case("import-shadowed-by-new-def", _edit(
        "from ring import add, mul, norm\n",
        "from ring import add, mul\n\n\ndef norm(a, b):\n    return 5.0\n"), True),
    Case("order-swapped", _edit(
        "def test_add():\n    assert add(1, 2) == 3\n\n\n"
        "def test_add_unit(unit):\n    assert add(unit, unit) == 2\n",
        "def test_add_unit(unit):\n    assert add(unit, unit) == 2\n\n\n"
        "def test_add():\n    assert add(1, 2) == 3\n"), True),
    Case("pytestmark-added", _edit("TOLERANCE = 1e-9\n",
                                   "TOLERANCE = 1e-9\npytestmark = pytest.mark.skip\n"),
         False, ("PS201",)),
    Case("module-call-added", _edit("TOLERANCE = 1e-9\n",
                                    "TOLERANCE = 1e-9\npytest.importorskip('nothing')\n"),
         False),
    Case("autouse-added", _edit(
        "@pytest.fixture\ndef unit():",
        "@pytest.fixture(autouse=True)\ndef _skip():\n    pytest.skip('x')\n\n\n"
        "@pytest.fixture\ndef unit():"), False, ("PS203",)),
    Case("setup-module-added", MODULE + "\n\ndef setup_module():\n    pytest.skip('x')\n",
         False),
]


def _findings(repo: GitRepo, diff: bytes, whole: bool) -> list[tuple[object, ...]]:
    report = repo.score(diff, whole_files=whole)
    return [(f.code, f.action.value, f.message, f.location, f.node_id, f.anchor)
            for f in report.findings]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_focused_findings_equal_whole_file_findings(repo: GitRepo, case: Case) -> None:
    repo.commit({"ring.py": "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n"
                            "    return a * b\n\n\ndef norm(a, b):\n    return (a*a + b*b) ** .5\n",
                 "tests/test_ring.py": MODULE})
    diff = repo.diff({"tests/test_ring.py": case.post})
    pre, post = MODULE.encode(), case.post.encode()
    focused = focus_pair(pre, post, ast.parse(pre), ast.parse(post))
    assert (focused is not None) is case.focused
    found = _findings(repo, diff, whole=False)
    assert found == _findings(repo, diff, whole=True)
    assert set(case.expect) <= {f[0] for f in found}, found


def test_left_out_definitions_keep_every_line_in_place() -> None:
    post = _edit("    assert mul(0, 5) == 0\n", "    assert mul(0, 6) == 0\n")
    focused = focus_pair(MODULE.encode(), post.encode(), ast.parse(MODULE), ast.parse(post))
    assert focused is not None
    pre_lines, post_lines = focused[0].decode().splitlines(), focused[1].decode().splitlines()
    assert len(pre_lines) == MODULE.count("\n") and len(post_lines) == post.count("\n")
    kept = [ln for ln in post_lines if ln.startswith(("def ", "class ", "@"))]
    # The changed test, and nothing it does not reach: helpers, fixtures and classes out.
    assert kept == ["def test_mul():"]
    at = post.splitlines().index("    assert mul(0, 6) == 0")
    assert post_lines[at] == "    assert mul(0, 6) == 0"
    # Module-level statements stay: imports, constants, marks.
    assert "TOLERANCE = 1e-9" in post_lines and "from ring import add, mul, norm" in post_lines


def test_a_test_keeps_what_it_reaches() -> None:
    post = _edit("    check_ring(7)\n", "    check_ring(8)\n")
    focused = focus_pair(MODULE.encode(), post.encode(), ast.parse(MODULE), ast.parse(post))
    assert focused is not None
    kept = [ln for ln in focused[1].decode().splitlines() if ln.startswith(("def ", "class "))]
    assert kept == ["def check_close(a, b):", "def check_ring(x):", "def test_ring():"]


def test_lone_carriage_returns_mean_whole_files() -> None:
    source = b"def test_a():\r    assert 1\r\rdef test_b():\r    assert 2\r"
    post = source.replace(b"assert 1", b"assert 3")
    assert focus_pair(source, post, ast.parse(source), ast.parse(post)) is None


def test_a_declared_encoding_is_read_and_kept() -> None:
    source = ("# -*- coding: latin-1 -*-\nimport os\n\n\ndef test_a():\n    assert 'é'\n\n\n"
              "def test_b():\n    assert 'è'\n").encode("latin-1")
    post = source.replace(b"'\xe8'", b"'\xea'")
    focused = focus_pair(source, post, ast.parse(source), ast.parse(post))
    assert focused is not None
    assert focused[1] == (b"# -*- coding: latin-1 -*-\nimport os\n" + b"\n" * 6
                          + b"def test_b():\n    assert '\xea'\n")


def test_each_format_is_registered_by_the_module_named_for_it() -> None:
    import importlib

    from provscore.report import MODULES, RENDERERS, formats

    for fmt in formats():
        importlib.import_module(f"provscore.report.{MODULES[fmt]}")
    assert sorted(RENDERERS) == formats()


def test_a_json_score_imports_no_renderer_it_does_not_use(repo: GitRepo, tmp_path: Path
                                                          ) -> None:
    """Start-up cost (issue 12): tabulate, wcwidth and the markdown renderer are imported
    only by the formats that use them."""
    repo.commit({"README.md": "hello\n"})
    diff = tmp_path / "p.diff"
    diff.write_bytes(repo.diff({"README.md": "hello again\n"}))
    probe = ("import sys\nfrom provscore.cli import main\n"
             f"rc = main(['score', '--repo', {str(repo.root)!r}, '--base', 'HEAD', '--diff', "
             f"{str(diff)!r}, '--static-only', '--format', 'json', '-o', "
             f"{str(tmp_path / 'r.json')!r}])\n"
             "heavy = ('tabulate', 'wcwidth', 'provscore.report.markdown', "
             "'provscore.report.github', 'provscore.report.sarif')\n"
             "print(rc, sorted(m for m in sys.modules if m.startswith(heavy)))\n")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         check=True).stdout
    assert out.split(" ", 1) == ["1", "[]\n"]  # review (static only), and none of them
    assert json.loads((tmp_path / "r.json").read_text())["decision"] == "review"
