"""``provscore run`` / ``verify`` as CI runs them: real processes, signals, concurrency, files."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests_support import GitRepo

from provscore.oracle.runlog import read_run_log

CALC = "def add(a, b):\n    return a + b\n"
BASE = {"pytest.ini": "[pytest]\npythonpath = src\n", "src/calc.py": CALC,
        "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
                              "    assert add(2, 3) == 5\n\n\ndef test_zero():\n"
                              "    assert add(0, 0) == 0\n"}
# The tiny repos need no third-party pytest plugin; the contract lets the switch through.
CONTRACT = '[runner]\npass_env = ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"]\n'
ENV = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
# The patched code hangs in every test that calls it: a run interrupted while it goes on.
HANGING = CALC.replace("return a + b", "import time\n    time.sleep(300)\n    return a + b")


def provscore(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "provscore", *args], capture_output=True,
                          text=True, check=False, env=ENV)


def setup(repo: GitRepo, tmp_path: Path, calc: str = CALC.replace("a + b", "b + a"),
          base: dict[str, str] | None = None) -> tuple[Path, Path]:
    repo.commit({**BASE, **(base or {})})
    patch = tmp_path / "agent.patch"
    patch.write_bytes(repo.diff({"src/calc.py": calc}))
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "score_contract.toml").write_text(CONTRACT)
    return patch, oracle


def worktrees(repo: GitRepo) -> int:
    return repo.git("worktree", "list", "--porcelain").decode().count("worktree ")


def test_run_writes_files_that_score_and_ledger_record_read(repo: GitRepo,
                                                           tmp_path: Path) -> None:
    patch, oracle = setup(repo, tmp_path)
    out = tmp_path / "runs"
    proc = provscore("run", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch),
                     "--oracle", str(oracle), "--repeat", "2", "--out", str(out),
                     "--patch-id", "pr-1")
    assert proc.returncode == 0, proc.stderr
    [run_dir] = list(out.iterdir())
    run_id = run_dir.name
    assert run_id.startswith("r-")
    assert sorted(p.name for p in run_dir.iterdir()) == [
        "junit-1.xml", "junit-2.xml", "results-1.json", "results-2.json", "run.json"]
    lines = proc.stdout.splitlines()
    assert lines[0] == (f"provscore: run {run_id} of patch pr-1: 2 base test(s) x 2 repeat(s), "
                        f"0 oracle properties, sandbox bwrap, " + lines[0].rsplit(", ", 1)[1])
    record = json.loads((run_dir / "run.json").read_text())
    assert record["run_id"] == run_id and record["base_tests"] == 2
    assert record["out_dir"] == str(run_dir)
    # score reads the results files: the same two base tests pass in both runs
    scored = provscore("score", "--repo", str(repo.root), "--base", "HEAD", "--diff",
                       str(patch), "--oracle", str(oracle), "--format", "json", "--results",
                       str(run_dir / "results-1.json"), str(run_dir / "results-2.json"))
    assert scored.returncode == 0, scored.stdout + scored.stderr
    report = json.loads(scored.stdout)
    assert [(r["node_id"], r["verdicts"]) for r in report["results"]] == [
        ("tests/test_calc.py::test_add", ["passed", "passed"]),
        ("tests/test_calc.py::test_zero", ["passed", "passed"])]
    assert report["run"] is None
    # ledger record takes each repeat's run id from the file
    rec = provscore("ledger", "record", str(oracle), "--results",
                    str(run_dir / "results-1.json"), str(run_dir / "results-2.json"))
    assert rec.returncode == 0, rec.stderr
    rows = [json.loads(x) for x in (oracle / "flake_ledger.jsonl").read_text().splitlines()]
    assert sorted({r["run_id"] for r in rows}) == [f"{run_id}#1", f"{run_id}#2"]
    [row] = read_run_log(oracle / "run_log.jsonl")
    assert (row.run_id, row.patch_id, row.verdict, row.command) == (run_id, "pr-1", "passed",
                                                                   "run")


def test_ledger_record_never_reuses_a_file_name_as_run_id(tmp_path: Path) -> None:
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    results = tmp_path / "run.xml"
    results.write_text('<testsuite><testcase classname="tests.test_a" name="test_a" '
                       'file="tests/test_a.py"/></testsuite>')
    for _ in range(2):  # the documented setup: the same file name every run
        assert provscore("ledger", "record", str(oracle), "--results", str(results)
                         ).returncode == 0
    rows = [json.loads(x) for x in (oracle / "flake_ledger.jsonl").read_text().splitlines()]
    ids = [r["run_id"] for r in rows]
    assert len(set(ids)) == 2 and all(i.startswith("r-") and "run.xml" not in i for i in ids)


def test_verify_cli_report_formats_and_digest_only(repo: GitRepo, tmp_path: Path) -> None:
    patch, oracle = setup(repo, tmp_path, CALC.replace("a + b", "a * b"))
    md, sarif = tmp_path / "report.md", tmp_path / "report.sarif"
    proc = provscore("verify", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch),
                     "--oracle", str(oracle), "--format", "json", "--format", f"markdown:{md}",
                     "--format", f"sarif:{sarif}")
    assert proc.returncode == 2, proc.stderr
    report = json.loads(proc.stdout)
    assert report["decision"] == "reject" and report["run"]["sandbox"] == "bwrap"
    assert [f["code"] for f in report["findings"]] == ["PS501"]
    assert "**Off-tree run:**" in md.read_text() and "Failure digest (1 failing test)" in \
        md.read_text()
    props = json.loads(sarif.read_text())["runs"][0]["properties"]["offTreeRun"]
    assert props["runId"] == report["run"]["run_id"]
    digest = provscore("run", "--repo", str(repo.root), "--base", "HEAD", "--digest-only")
    assert digest.returncode == 0 and digest.stdout.strip() == report["run"]["corpus_digest"]
    # the digest pinned in the contract: a match passes gate 10's check, another value fails
    (oracle / "score_contract.toml").write_text(
        CONTRACT + f'expected_corpus_digest = "{"0" * 64}"\n')
    again = provscore("verify", "--repo", str(repo.root), "--base", "HEAD", "--diff",
                      str(patch), "--oracle", str(oracle), "--format", "json")
    codes = sorted(f["code"] for f in json.loads(again.stdout)["findings"])
    assert codes == ["PS501", "PS507"]
    bad = provscore("verify", "--repo", str(repo.root), "--base", "HEAD", "--diff",
                    str(patch), "--python", str(tmp_path / "nope"))
    assert bad.returncode == 3 and bad.stderr.strip() == (
        f"provscore: error: {tmp_path / 'nope'}: Python interpreter not found or not "
        "executable")


def test_two_concurrent_verifies_on_one_repo_do_not_collide(repo: GitRepo,
                                                            tmp_path: Path) -> None:
    patch, oracle = setup(repo, tmp_path)
    other = tmp_path / "other.patch"
    other.write_bytes(repo.diff({"src/calc.py": CALC + "\n\nZERO = 0\n"}))
    procs = [subprocess.Popen([sys.executable, "-m", "provscore", "verify", "--repo",
                               str(repo.root), "--base", "HEAD", "--diff", str(p), "--oracle",
                               str(oracle), "-q"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=ENV)
             for p in (patch, other)]
    results = [p.communicate(timeout=300) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], results
    rows = read_run_log(oracle / "run_log.jsonl")
    assert len({r.run_id for r in rows}) == 2 and [r.verdict for r in rows] == ["pass", "pass"]
    assert worktrees(repo) == 1


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_interrupted_verify_removes_its_worktrees(repo: GitRepo, tmp_path: Path,
                                                  sig: signal.Signals) -> None:
    patch, oracle = setup(repo, tmp_path, HANGING)
    # A temporary directory of its own: other provscore runs on the machine (a second CI
    # job) create run directories in the shared one meanwhile.
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = _start_verify(repo, patch, oracle, tmp)
    deadline = time.monotonic() + 120
    while worktrees(repo) < 3 and time.monotonic() < deadline:  # both trees are up
        time.sleep(0.1)
    time.sleep(1.0)  # and pytest is running inside them
    assert list(tmp.glob("provscore-r-*")), "the run's directory is in its TMPDIR"
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().endswith("provscore: interrupted")
    assert worktrees(repo) == 1
    assert [p.name for p in tmp.glob("provscore-r-*")] == []
    assert _job_processes(tmp) == []  # no sandboxed job outlives the run
    assert not (oracle / "run_log.jsonl").exists()  # an interrupted run records nothing


@pytest.mark.parametrize("box", [[], ["--no-sandbox"]], ids=["default", "no-sandbox"])
def test_ctrl_c_during_base_collection_stops_the_patched_run_too(repo: GitRepo, tmp_path: Path,
                                                                 box: list[str]) -> None:
    """The base collection and the first patched run go side by side; Ctrl-C while the
    collection is still going must stop the patched run as well: it runs in a session of
    its own, so no signal of ours reaches it, and without bubblewrap (whose
    --die-with-parent would end it) nothing else does."""
    patch, oracle = setup(repo, tmp_path, HANGING, base={
        "conftest.py": "import time\n\ntime.sleep(6)  # slow collection\n"})
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = _start_verify(repo, patch, oracle, tmp, *box)
    deadline = time.monotonic() + 120
    while len(_job_processes(tmp)) < 2 and time.monotonic() < deadline:  # both jobs started
        time.sleep(0.1)
    assert len(_job_processes(tmp)) >= 2, "the collection and the first run are up"
    proc.send_signal(signal.SIGINT)  # the collection still sleeps in its conftest
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    time.sleep(0.5)
    assert _job_processes(tmp) == []


def _start_verify(repo: GitRepo, patch: Path, oracle: Path, tmp: Path,
                  *extra: str) -> subprocess.Popen[str]:
    """``provscore verify`` in the background, with ``tmp`` as its TMPDIR."""
    return subprocess.Popen([sys.executable, "-m", "provscore", "verify", "--repo",
                             str(repo.root), "--base", "HEAD", "--diff", str(patch),
                             "--oracle", str(oracle), *extra], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**ENV, "TMPDIR": str(tmp)})


def _job_processes(tmp: Path) -> list[str]:
    """Command lines of the run's sandboxed jobs (their job files lie under ``tmp``)."""
    out = []
    for p in Path("/proc").glob("[0-9]*/cmdline"):
        try:
            cmd = p.read_bytes().decode("utf-8", "replace")
        except OSError:
            continue
        if str(tmp) in cmd and "inside.py" in cmd:
            out.append(cmd)
    return out
