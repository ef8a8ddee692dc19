"""Hostile inputs around the patch: oracle files, outputs, encodings, the process itself.

Real CLI (in-process through ``main`` or as a process), real repositories and files.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hostile_support import BASE, DROP, OPS_TESTS, cli, codes, findings, junit, scored
from tests_support import GitRepo

import provscore
from provscore import cli as cli_module

WORKTREE = Path(provscore.__file__).resolve().parent.parent


def _setup(repo: GitRepo, tmp_path: Path) -> Path:
    repo.commit(BASE)
    patch = tmp_path / "agent.patch"
    patch.write_bytes(repo.diff({"tests/test_ops.py": OPS_TESTS.replace(DROP, "")}))
    return patch


# --- 7. oracle inputs must be regular files ----------------------------------------------

def test_contract_that_is_a_fifo_is_an_error_not_a_hang(repo: GitRepo, tmp_path: Path) -> None:
    patch = _setup(repo, tmp_path)
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    os.mkfifo(oracle / "score_contract.toml")
    proc = subprocess.run([sys.executable, "-m", "provscore", "score", "--repo", str(repo.root),
                           "--base", "HEAD", "--diff", str(patch), "--oracle", str(oracle)],
                          capture_output=True, timeout=120, check=False)
    assert proc.returncode == 3
    assert proc.stderr.decode().strip() == (
        f"provscore: error: {oracle / 'score_contract.toml'}: contract is a FIFO, expected a "
        "regular file")


@pytest.mark.parametrize("name", ["flake_ledger.jsonl", "flake_freeze.jsonl", "fixtures.lock",
                                  "removal_approvals.toml"])
def test_oracle_input_that_is_a_directory_is_an_error_not_absent(
        name: str, repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]
        ) -> None:
    patch = _setup(repo, tmp_path)
    oracle = tmp_path / "oracle"
    (oracle / name).mkdir(parents=True)
    code, _, err = cli(capsysbinary, "score", "--repo", repo.root, "--base", "HEAD", "--diff",
                       patch, "--oracle", oracle)
    assert code == 3
    assert err == f"provscore: error: {oracle / name}: {name} is a directory, expected a " \
        "regular file or nothing\n"
    code, _, err = cli(capsysbinary, "ledger", "check", oracle)
    assert code == 3 and str(oracle / name) in err


def test_absent_oracle_inputs_are_simply_not_given(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    patch = _setup(repo, tmp_path)
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff", patch,
                          "--oracle", oracle)
    assert code == 2 and codes(report) == ["PS101", "PS502"]


def test_dangling_link_where_a_ledger_should_be_is_an_error(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    patch = _setup(repo, tmp_path)
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "flake_ledger.jsonl").symlink_to(tmp_path / "gone.jsonl")
    code, _, err = cli(capsysbinary, "score", "--repo", repo.root, "--base", "HEAD", "--diff",
                       patch, "--oracle", oracle)
    assert code == 3 and "flake_ledger.jsonl is a dangling symbolic link" in err


# --- 8. any bytes in paths and lines, every format ---------------------------------------

@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "sarif", "github"])
def test_non_utf8_paths_and_lines_render_in_every_format(
        fmt: str, repo: GitRepo, tmp_path: Path) -> None:
    name = b"tests/test_\xff\xfe.py"
    repo.commit({"README.md": "x\n"})
    root = os.fsencode(repo.root)
    (Path(os.fsdecode(root + b"/tests"))).mkdir()
    Path(os.fsdecode(root + b"/" + name)).write_bytes(
        b"def test_a():\n    assert f(1) == b'\xff'\n    assert f(2) == 3\n")
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "base")
    Path(os.fsdecode(root + b"/" + name)).write_bytes(
        b"def test_a():\n    assert f(1) == b'\xff'  # HUMAN_APPROVED_REMOVAL \xfe\n")
    patch = tmp_path / "agent.patch"
    patch.write_bytes(repo.git("diff", "HEAD"))
    repo.git("checkout", "-q", "--", ".")
    assert b"\\377\\376" in patch.read_bytes()  # git quotes the name
    args = [sys.executable, "-m", "provscore", "score", "--repo", str(repo.root), "--base",
            "HEAD", "--diff", str(patch), "--format", fmt]
    env = {**os.environ, "LC_ALL": "C", "PYTHONIOENCODING": "ascii"}
    out = tmp_path / f"report.{fmt}"
    for extra in ([], ["--output", str(out)]):
        proc = subprocess.run(args + extra, capture_output=True, env=env, check=False)
        assert proc.returncode == 2, proc.stderr
        text = (out.read_bytes() if extra else proc.stdout).decode("utf-8")  # strict UTF-8
        plain = (json.dumps(json.loads(text), ensure_ascii=False).replace("\\\\", "\\")
                 if fmt in ("json", "sarif") else text)
        assert "tests/test_\\xff\\xfe.py" in plain  # a path
        if fmt != "github":  # annotations name the rule, not the line
            assert "HUMAN_APPROVED_REMOVAL \\xfe" in plain  # a line of the diff
    if fmt == "json":
        report = json.loads(out.read_text(encoding="utf-8"))
        # the bytes are not UTF-8 Python either: the file is unclassifiable, never clean
        assert [f["path"] for f in findings(report, "PS903")] == ["tests/test_\\xff\\xfe.py"] * 2
        (marker,) = findings(report, "PS109")
        assert marker["message"].endswith("HUMAN_APPROVED_REMOVAL \\xfe")


def test_internal_error_names_the_input(repo: GitRepo, tmp_path: Path,
                                        capsysbinary: pytest.CaptureFixture[bytes],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    patch = _setup(repo, tmp_path)

    def broken(args: object) -> int:
        raise RuntimeError("a bug")

    monkeypatch.setitem(cli_module.COMMANDS, "score", broken)
    monkeypatch.delenv("PROVSCORE_DEBUG", raising=False)
    code, _, err = cli(capsysbinary, "score", "--repo", repo.root, "--base", "HEAD", "--diff",
                       patch)
    assert code == 3
    assert err == (f"provscore: internal error while scoring --diff {patch} against --base "
                   f"HEAD in {repo.root}: RuntimeError: a bug (set PROVSCORE_DEBUG=1 for a "
                   "traceback)\n")


# --- 9. inputs and outputs are not destroyed ---------------------------------------------

def test_output_over_an_input_is_refused(repo: GitRepo, tmp_path: Path,
                                         capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    patch = _setup(repo, tmp_path)
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    ledger = oracle / "flake_ledger.jsonl"
    ledger.write_text('{"test_id": "tests/test_ops.py::test_add", "result": "pass", '
                      '"run_id": "r1", "recorded_at": "2026-01-01T00:00:00+00:00"}\n')
    results = junit(tmp_path / "run.xml")
    os.link(patch, tmp_path / "same.patch")
    saved = {p: p.read_bytes() for p in (patch, ledger, results)}
    for output, what in ((patch, "is the input"), (tmp_path / "same.patch", "is the input"),
                         (results, "is the input"), (ledger, "inside the oracle dir"),
                         (oracle / "new.json", "inside the oracle dir")):
        code, _, err = cli(capsysbinary, "score", "--repo", repo.root, "--base", "HEAD",
                           "--diff", patch, "--results", results, "--oracle", oracle,
                           "--output", output)
        assert code == 3 and what in err and err.count("\n") == 1, err
    assert {p: p.read_bytes() for p in saved} == saved
    assert not (oracle / "new.json").exists()
    code, _, _ = cli(capsysbinary, "score", "--repo", repo.root, "--base", "HEAD", "--diff",
                     patch, "--oracle", oracle, "--output", tmp_path / "report.txt")
    assert code == 2 and (tmp_path / "report.txt").read_text().startswith("provscore: REJECT")


def test_a_killed_writers_temp_file_is_removed_by_the_next_write(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    patch = _setup(repo, tmp_path)
    dead = subprocess.Popen(["true"])
    dead.wait()
    stale = tmp_path / f".report.json.{dead.pid}.x1y2.provscore-tmp"
    stale.write_text("half a report")
    live = tmp_path / f".report.json.{os.getpid()}.a1b2.provscore-tmp"
    live.write_text("being written")
    code, _, _ = cli(capsysbinary, "score", "--repo", repo.root, "--base", "HEAD", "--diff",
                     patch, "--format", "json", "--output", tmp_path / "report.json")
    assert code == 2 and json.loads((tmp_path / "report.json").read_text())["decision"]
    assert not stale.exists() and live.exists()
    assert sorted(p.name for p in tmp_path.glob(".report.json.*")) == [live.name]


def test_sigterm_exits_143_without_a_traceback(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    proc = subprocess.Popen([sys.executable, "-m", "provscore", "score", "--repo",
                             str(repo.root), "--base", "HEAD", "--diff", "-", "--output",
                             str(tmp_path / "r.json")], stdin=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    time.sleep(1.5)  # let it start and block reading stdin
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 143 and err == b"provscore: terminated\n"
    assert [p.name for p in tmp_path.iterdir() if p.name != "repo"] == []


def test_full_disk_during_ledger_record_appends_nothing(repo: GitRepo, tmp_path: Path) -> None:
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    ledger = oracle / "flake_ledger.jsonl"
    ledger.write_text('{"test_id": "tests/test_ops.py::test_add", "result": "pass", '
                      '"run_id": "r0", "recorded_at": "2026-01-01T00:00:00+00:00"}\n')
    before = ledger.read_bytes()
    ids = tuple(f"tests/test_ops.py::test_{i}" for i in range(200))
    results = junit(tmp_path / "run.xml", ids)

    def small_disk() -> None:  # the ledger may grow by 1 KB: the batch is ~25 KB
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (len(before) + 1024, len(before) + 1024))

    proc = subprocess.run([sys.executable, "-m", "provscore", "ledger", "record", str(oracle),
                           "--results", str(results), "--run-id", "r1"], capture_output=True,
                          preexec_fn=small_disk, check=False, timeout=120)
    assert proc.returncode == 3, proc.stderr
    assert proc.stderr.decode().startswith(f"provscore: error: {ledger}: cannot append:")
    assert ledger.read_bytes() == before
    ok = subprocess.run([sys.executable, "-m", "provscore", "ledger", "record", str(oracle),
                         "--results", str(results), "--run-id", "r1"], capture_output=True,
                        check=False, timeout=120)
    assert ok.returncode == 0 and ledger.read_bytes().count(b"\n") == 201


# --- 11. python -m provscore inside the patched checkout ----------------------------------

def _checkout_with(repo: GitRepo, files: dict[str, str]) -> tuple[Path, Path]:
    """A repository whose tree holds ``files`` (a patch that adds them), and a diff."""
    repo.commit({**BASE, **files})
    patch = repo.root.parent / "agent.patch"
    patch.write_bytes(repo.diff({"tests/test_ops.py": OPS_TESTS.replace(DROP, "")}))
    return repo.root, patch


def test_python_m_refuses_its_own_package_from_the_scored_checkout(repo: GitRepo) -> None:
    root, patch = _checkout_with(repo, {})
    shutil.copytree(WORKTREE / "provscore", root / "provscore",
                    ignore=shutil.ignore_patterns("__pycache__"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    args = ["-m", "provscore", "score", "--repo", ".", "--base", "HEAD", "--diff", str(patch)]
    proc = subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True,
                          check=False, timeout=120)
    assert proc.returncode == 3
    assert proc.stderr.decode().startswith("provscore: error: refusing to run: `python -m "
                                           "provscore` imported provscore from the current "
                                           f"directory {root.resolve()}")
    # the safe forms: -P (the working directory is not on the path), or running elsewhere
    safe = subprocess.run([sys.executable, "-P", *args], cwd=root,
                          env={**env, "PYTHONPATH": str(WORKTREE)}, capture_output=True,
                          check=False, timeout=120)
    assert safe.returncode == 2, safe.stderr


def test_python_m_never_imports_dependencies_from_the_checkout(repo: GitRepo) -> None:
    marker = repo.root.parent / "pwned"
    shadow = f"open({str(marker)!r}, 'w').write('x')\nraise SystemExit(0)\n"
    root, patch = _checkout_with(repo, {"unidiff/__init__.py": shadow, "tabulate.py": shadow})
    proc = subprocess.run([sys.executable, "-m", "provscore", "score", "--repo", ".", "--base",
                           "HEAD", "--diff", str(patch), "-q"], cwd=root,
                          env={**os.environ, "PYTHONPATH": str(WORKTREE)},
                          capture_output=True, check=False, timeout=120)
    assert proc.returncode == 2 and proc.stdout.startswith(b"provscore: REJECT"), proc.stderr
    assert not marker.exists()


# --- 12. an empty patch --------------------------------------------------------------------

@pytest.mark.parametrize(("diff", "reason"), [
    (os.devnull, "the diff is empty"), ("empty", "the diff is empty"),
    ("blank", "the diff holds only whitespace")])
def test_empty_patch_is_an_unscored_reject(diff: str, reason: str, repo: GitRepo,
                                           tmp_path: Path,
                                           capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    (tmp_path / "empty").write_bytes(b"")
    (tmp_path / "blank").write_bytes(b" \n\t\n\n")
    path = diff if diff == os.devnull else str(tmp_path / diff)
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff", path,
                          "--results", junit(tmp_path / "run.xml"))
    assert code == 2 and report["decision"] == "reject" and report["unscored"]
    assert codes(report) == ["PS904"]
    assert report["first_cause"]["message"] == f"nothing to score: {reason}"


@pytest.mark.parametrize(("policy", "decision", "exit_code"),
                         [("review", "review", 1), ("pass", "pass", 0)])
def test_contract_decides_what_an_empty_patch_is(
        policy: str, decision: str, exit_code: int, repo: GitRepo, tmp_path: Path,
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "score_contract.toml").write_text(f'[score]\nempty_patch = "{policy}"\n')
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          os.devnull, "--oracle", oracle)
    assert code == exit_code and report["decision"] == decision
    assert [(f["code"], f["action"]) for f in report["findings"]] == [("PS904", "info")]


def test_head_with_no_commit_since_the_merge_base_is_empty(
        repo: GitRepo, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--head", "HEAD")
    assert code == 2 and codes(report) == ["PS904"]
    assert "no file since the merge base" in report["first_cause"]["message"]


# --- issue 8, item 1: the merge base --------------------------------------------------------

def _branch_behind_main(repo: GitRepo) -> tuple[str, str]:
    """main gains a skip after `feature` forked; `feature` only edits a docstring."""
    fork = repo.commit(BASE)
    repo.git("checkout", "-q", "-b", "feature")
    repo.commit({"src/ops.py": '"""Arithmetic."""\n' + BASE["src/ops.py"]}, "docstring")
    repo.git("checkout", "-q", "main")
    repo.commit({"tests/test_ops.py": "import pytest\n" + OPS_TESTS.replace(
        "def test_mul():", "@pytest.mark.skip(reason='flaky')\ndef test_mul():")}, "skip")
    repo.git("checkout", "-q", "feature")
    return fork, repo.git("rev-parse", "main").decode().strip()


def test_head_is_scored_against_the_merge_base(repo: GitRepo, tmp_path: Path,
                                               capsysbinary: pytest.CaptureFixture[bytes]
                                               ) -> None:
    fork, main_tip = _branch_behind_main(repo)
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "main", "--head",
                          "feature", "--results", junit(tmp_path / "run.xml"))
    assert code == 0 and codes(report) == [], report["findings"]
    assert report["inputs"]["base"] == main_tip and report["inputs"]["merge_base"] == fork
    assert [w["path"] for w in report["write_set"]] == ["src/ops.py"]
    _, text, _ = cli(capsysbinary, "score", "--repo", repo.root, "--base", "main", "--head",
                     "feature")
    assert f"scored against the merge base {fork[:12]}".encode() in text


def test_staged_is_scored_against_the_merge_base(repo: GitRepo,
                                                 capsysbinary: pytest.CaptureFixture[bytes]
                                                 ) -> None:
    fork, _ = _branch_behind_main(repo)
    repo.write({"src/ops.py": '"""Arithmetic, tidied."""\n' + BASE["src/ops.py"]})
    repo.git("add", "-A")
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "main", "--staged",
                          "--static-only")
    assert code == 1 and codes(report) == [], report["findings"]
    assert report["inputs"]["merge_base"] == fork
    assert report["inputs"]["diff"] == "git diff --cached"


def test_a_branch_that_really_adds_a_skip_still_rejects(
        repo: GitRepo, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    fork = repo.commit(BASE)
    repo.commit({"tests/test_ops.py": "import pytest\n" + OPS_TESTS.replace(
        "def test_mul():", "@pytest.mark.skip\ndef test_mul():")}, "agent")
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", fork, "--head", "HEAD")
    assert code == 2 and "PS201" in codes(report)
    assert report["inputs"]["merge_base"] == fork == report["inputs"]["base"]


# --- issue 8, item 6: every symlink change ------------------------------------------------

def _symlink_base(repo: GitRepo) -> str:
    repo.commit(BASE)
    os.symlink("test_ops.py", repo.root / "tests" / "test_link.py")
    (repo.root / "tests" / "data").mkdir()
    (repo.root / "tests" / "data" / "a.txt").write_text("a\n")
    return repo.commit({}, "links")


def _symlink_message(report: dict[str, Any]) -> list[str]:
    return [f["message"] for f in findings(report, "PS305")]


@pytest.mark.parametrize("mode", ["diff", "head"])
def test_file_replaced_by_a_symlink_is_ps305_and_applies(
        mode: str, repo: GitRepo, tmp_path: Path,
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    base = _symlink_base(repo)
    (repo.root / "tests" / "test_ops.py").unlink()
    os.symlink("../src/ops.py", repo.root / "tests" / "test_ops.py")
    repo.git("add", "-A")
    patch = tmp_path / "agent.patch"
    patch.write_bytes(repo.git("diff", "--cached", "HEAD"))
    assert b"deleted file mode 100644" in patch.read_bytes()
    assert b"new file mode 120000" in patch.read_bytes()
    if mode == "head":
        repo.git("commit", "-q", "-m", "agent")
        source = ["--head", "HEAD"]
    else:
        repo.git("reset", "-q", "--hard", "HEAD")
        source = ["--diff", str(patch)]
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", base, *source)
    assert "PS902" not in codes(report) and "PS901" not in codes(report)
    assert _symlink_message(report) == ["symlink replacing a tracked file at tests/test_ops.py"]


def test_retargeted_and_removed_symlinks_are_ps305(repo: GitRepo, tmp_path: Path,
                                                   capsysbinary: pytest.CaptureFixture[bytes]
                                                   ) -> None:
    base = _symlink_base(repo)
    (repo.root / "tests" / "test_link.py").unlink()
    os.symlink("data/a.txt", repo.root / "tests" / "test_link.py")
    repo.commit({}, "retarget")
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", base, "--head", "HEAD")
    assert _symlink_message(report) == ["symlink retargeted at tests/test_link.py"]
    (repo.root / "tests" / "test_link.py").unlink()
    repo.commit({"tests/test_link.py": "def test_x():\n    assert 1 + 1 == 2\n"}, "file")
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", base, "--head", "HEAD")
    assert _symlink_message(report) == ["symlink replaced by a regular file at "
                                        "tests/test_link.py"]
    repo.commit({"tests/test_link.py": None}, "gone")
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", base, "--head", "HEAD")
    assert _symlink_message(report) == ["symlink removed at tests/test_link.py"]


def test_mode_change_and_edits_beside_a_symlink_are_not_ps305(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    base = _symlink_base(repo)
    (repo.root / "src" / "ops.py").chmod(0o755)
    repo.commit({"tests/data/a.txt": "b\n"}, "chmod and edit")
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", base, "--head", "HEAD")
    assert findings(report, "PS305") == []
