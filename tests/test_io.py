"""The one atomic writer: the umask decides a new file's mode, failures leave nothing behind."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests_support import GitRepo

from provscore.errors import InputError
from provscore.io import atomic_write
from provscore.nodeid import covers, file_of, without_params


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_file_gets_the_umask_mode(tmp_path: Path, umask: None) -> None:
    atomic_write(tmp_path / "a.json", b"{}\n")
    assert _mode(tmp_path / "a.json") == 0o644
    os.umask(0o077)
    atomic_write(tmp_path / "b.json", b"{}\n")
    assert _mode(tmp_path / "b.json") == 0o600


def test_existing_file_keeps_its_mode_and_is_replaced_whole(tmp_path: Path, umask: None) -> None:
    target = tmp_path / "report.md"
    target.write_bytes(b"old\n")
    target.chmod(0o640)
    atomic_write(target, b"new\n")
    assert target.read_bytes() == b"new\n" and _mode(target) == 0o640


def test_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "out"
    target.mkdir()  # os.replace of a file over a directory fails
    with pytest.raises(InputError, match=r"/out: cannot write report: Is a directory"):
        atomic_write(target, b"x", what="report")
    assert [p.name for p in tmp_path.iterdir()] == ["out"]
    assert list(target.iterdir()) == []


def test_missing_directory_is_one_clear_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot write lock: directory does not exist"):
        atomic_write(tmp_path / "nope" / "x.lock", b"", what="lock")


def test_cli_report_file_respects_the_umask(repo: GitRepo, tmp_path: Path) -> None:
    """A report written with --output is readable as any file the user writes (it was
    0600 whatever the umask)."""
    repo.commit({"src/m.py": "X = 1\n"})
    patch = tmp_path / "p.diff"
    patch.write_bytes(repo.diff({"src/m.py": "X = 2\n"}))
    out = tmp_path / "report.json"
    proc = subprocess.run(
        ["sh", "-c", 'umask 022 && exec "$0" -m provscore score --repo "$1" --base HEAD '
         '--diff "$2" --format json --output "$3"', sys.executable, str(repo.root),
         str(patch), str(out)], capture_output=True, text=True, check=False)
    assert proc.returncode == 2, proc.stderr
    assert _mode(out) == 0o644
    assert out.read_text(encoding="utf-8").startswith("{")


@pytest.mark.parametrize(("node_id", "file"), [
    ("tests/t.py::T::test_a[1]", "tests/t.py"), ("tests/t.py", "tests/t.py"),
    ("tests/t.py::test_a[x::y]", "tests/t.py")])
def test_file_of(node_id: str, file: str) -> None:
    assert file_of(node_id) == file


def test_one_parser_for_params_and_cover() -> None:
    assert without_params("tests/t.py::test_a[x::y]") == "tests/t.py::test_a"
    assert covers(without_params("tests/t.py::test_a[1]"), "tests/t.py::test_a[1]")
