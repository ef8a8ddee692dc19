"""Decision tables of the seeds, end to end.

Each test: a real repo, a real patch, and a real off-tree run — the *base* test corpus run
with `pytest --junitxml` against the *patched* production code in a separate directory —
scored to the decision the seeds' tables give.
"""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date
from pathlib import Path

from tests_support import GitRepo, codes

from provscore.model import Decision
from provscore.oracle.contract import load_oracle_contract
from provscore.pipeline import ScoreRequest, score
from provscore.report.model import Report

CALC = ("def add(a, b):\n    return a + b\n\n\n"
        "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n")
TESTS = '''\
from calc import add, clamp


def test_add():
    assert add(2, 3) == 5


def test_clamp():
    assert clamp(5, 0, 3) == 3
    assert clamp(-1, 0, 3) == 0


def test_window():
    assert clamp(2, 0, 3) == 2
'''
BASE = {"pytest.ini": "[pytest]\npythonpath = src\n", "src/calc.py": CALC,
        "tests/test_calc.py": TESTS, "tests/goldens/window.json": '{"lo": 0, "hi": 3}\n'}


def scored(repo: GitRepo, tmp_path: Path, files: dict[str, str | bytes | None], *,
           runs: int = 1, oracle: Path | None = None) -> Report:
    patch = repo.diff(files)
    results = tuple(repo.off_tree_run(patch, tmp_path / f"run{i}.xml") for i in range(runs))
    return score(ScoreRequest(repo=repo.root, base="HEAD", diff=patch, results=results,
                              oracle_dir=oracle, contract=load_oracle_contract(oracle),
                              today=date(2026, 11, 30)))


def fix_clamp(text: str = CALC) -> str:
    return text.replace("return max(lo, min(x, hi))",
                        "if lo > hi:\n        lo, hi = hi, lo\n    return max(lo, min(x, hi))")


# --- seed 003: read the decision in order -------------------------------------------------

def test_clean_patch_with_green_independent_lane_passes(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    report = scored(repo, tmp_path, {"src/calc.py": fix_clamp()})
    assert report.decision is Decision.PASS, codes(report)
    assert report.merge_score == 1.0 and report.score.passed == 3
    assert codes(report) == []


def test_no_independent_tests_means_reject(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    report = repo.score(repo.diff({"src/calc.py": fix_clamp()}))
    assert report.decision is Decision.REJECT and report.unscored
    assert report.first_cause is not None and report.first_cause.code == "PS502"


def test_unmarked_deletion_means_reject_even_when_green(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    broken = CALC.replace("return max(lo, min(x, hi))", "return max(lo, x)")
    report = scored(repo, tmp_path, {"src/calc.py": broken, "tests/test_calc.py":
                                     TESTS.replace("    assert clamp(5, 0, 3) == 3\n", "")})
    assert report.decision is Decision.REJECT
    assert "PS101" in codes(report) and "PS501" in codes(report)  # base corpus still catches it
    assert report.first_cause is not None and report.first_cause.code == "PS101"


def test_pile_of_agent_assertions_is_not_a_pass(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    added = "".join(f"\n\ndef test_new_{i}():\n    assert clamp({i}, 0, 9) == {i}\n"
                    for i in range(3))
    report = scored(repo, tmp_path, {"src/calc.py": fix_clamp(),
                                     "tests/test_calc.py": TESTS + added})
    assert report.decision is Decision.REVIEW  # 1.0 - 3 * 0.01 = 0.97
    assert report.merge_score == 0.97 and report.score.added == 3
    assert codes(report).count("PS103") == 3


def test_approved_removal_lifts_the_reject(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "removal_approvals.toml").write_text(
        '[[approval]]\nnode_id = "tests/test_calc.py::test_window"\napproved_by = "alice"\n'
        'reason = "window semantics retired"\ndate = "2026-11-01"\n')
    tests = TESTS.replace("\n\ndef test_window():\n    assert clamp(2, 0, 3) == 2\n", "")
    report = scored(repo, tmp_path, {"src/calc.py": fix_clamp(), "tests/test_calc.py": tests},
                    oracle=oracle)
    assert "PS101" not in codes(report) and "PS106" not in codes(report)
    assert report.decision is Decision.PASS, codes(report)


# --- seed 000: decision matrix ------------------------------------------------------------

def test_patch_that_does_not_apply_is_an_unscored_reject(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/calc.py": fix_clamp()})
    repo.commit({"src/calc.py": CALC.replace("a + b", "b + a")})
    report = repo.score(patch.replace(b"return max", b"return  max"))
    assert report.decision is Decision.REJECT and report.first_cause is not None
    assert report.first_cause.code == "PS902"


def test_new_skip_not_frozen_is_reject_frozen_is_allowed(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    skipped = TESTS.replace("def test_window", "import pytest\n\n\n@pytest.mark.skip\n"
                            "def test_window")
    report = scored(repo, tmp_path, {"tests/test_calc.py": skipped})
    assert report.decision is Decision.REJECT and report.first_cause is not None
    assert report.first_cause.code == "PS201"
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "flake_freeze.jsonl").write_text(json.dumps({
        "test_id": "tests/test_calc.py::test_window", "owner": "human", "reason": "flaky",
        "frozen_on": "2026-11-01", "expires_on": "2026-12-31"}) + "\n")
    report = scored(repo, tmp_path, {"tests/test_calc.py": skipped}, oracle=oracle)
    assert "PS201" not in [f.code for f in report.findings if f.action.value == "reject"]


def test_file_count_cap(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    files: dict[str, str | bytes | None] = {f"src/m{i}.py": "X = 1\n" for i in range(13)}
    report = scored(repo, tmp_path, files)
    assert report.decision is Decision.REJECT and "PS303" in codes(report)


# --- seeds 001/002: fixtures, ledgers, flakes ---------------------------------------------

def _oracle_with_lock(tmp_path: Path, repo: GitRepo, **extra: str) -> Path:
    oracle = tmp_path / "oracle"
    oracle.mkdir(exist_ok=True)
    proc = subprocess.run([sys.executable, "-m", "provscore", "lock", "fixtures",
                           "tests/goldens", "--repo", str(repo.root), "--out",
                           str(oracle / "fixtures.lock")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    for name, text in extra.items():
        (oracle / name).write_text(text)
    return oracle


def test_fixture_drift_is_reject_even_with_green_tests(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = _oracle_with_lock(tmp_path, repo)
    report = scored(repo, tmp_path, {"src/calc.py": fix_clamp(),
                                     "tests/goldens/window.json": '{"lo": 0, "hi": 4}\n'},
                    oracle=oracle)
    assert report.decision is Decision.REJECT and "PS401" in codes(report)
    assert report.first_cause is not None and report.first_cause.gate == 5


def test_oracle_in_write_set_is_reject(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({**BASE, "oracle/score_contract.toml": "[score]\nmax_changed_files = 12\n"})
    report = scored(repo, tmp_path, {"oracle/score_contract.toml":
                                     "[score]\nmax_changed_files = 99\n"})
    assert report.first_cause is not None and report.first_cause.code == "PS301"


def test_expired_freeze_fails_the_job(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = _oracle_with_lock(tmp_path, repo, **{"flake_freeze.jsonl": json.dumps({
        "test_id": "tests/test_calc.py::test_window", "owner": "human", "reason": "flaky",
        "frozen_on": "2026-09-13", "expires_on": "2026-09-20"}) + "\n"})
    report = scored(repo, tmp_path, {"src/calc.py": fix_clamp()}, oracle=oracle)
    assert report.decision is Decision.REJECT and "PS601" in codes(report)


def test_agent_owned_freeze_row_is_reject(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = _oracle_with_lock(tmp_path, repo, **{"flake_freeze.jsonl": json.dumps({
        "test_id": "tests/test_calc.py::test_window", "owner": "agent", "reason": "stable now",
        "frozen_on": "2026-11-01", "expires_on": "2026-12-31"}) + "\n"})
    report = scored(repo, tmp_path, {"src/calc.py": fix_clamp()}, oracle=oracle)
    assert "PS603" in codes(report) and report.decision is Decision.REJECT


def test_only_frozen_tests_cover_means_unverified(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({**BASE, "tests/test_calc.py": TESTS.split("\n\ndef test_clamp")[0] + "\n"})
    oracle = _oracle_with_lock(tmp_path, repo, **{"flake_freeze.jsonl": json.dumps({
        "test_id": "tests/test_calc.py::test_add", "owner": "human", "reason": "flaky",
        "frozen_on": "2026-11-01", "expires_on": "2026-12-31"}) + "\n",
        "score_contract.toml": "[flake]\nparked_budget = 1\n"})
    report = scored(repo, tmp_path, {"src/calc.py": fix_clamp()}, oracle=oracle)
    assert report.decision is Decision.REJECT and report.unscored
    assert report.first_cause is not None and report.first_cause.code == "PS502"


def test_flaky_test_is_unscored_not_failed(repo: GitRepo, tmp_path: Path) -> None:
    flaky = TESTS + ('\n\ndef test_flaky():\n    import os\n'
                     '    assert os.environ.get("FLIP") != "1"\n')
    repo.commit({**BASE, "tests/test_calc.py": flaky})
    patch = repo.diff({"src/calc.py": fix_clamp()})
    r1 = repo.off_tree_run(patch, tmp_path / "a.xml")
    import os
    os.environ["FLIP"] = "1"
    try:
        r2 = repo.off_tree_run(patch, tmp_path / "b.xml")
    finally:
        del os.environ["FLIP"]
    report = score(ScoreRequest(repo=repo.root, base="HEAD", diff=patch, results=(r1, r2)))
    assert report.score.unscored == 1 and report.score.failed == 0 and report.score.passed == 3
    assert "PS503" in codes(report) and "PS501" not in codes(report)
    assert report.decision is Decision.PASS


def test_results_of_agent_tests_never_vote(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/calc.py": fix_clamp(), "tests/test_new.py":
                       "from calc import clamp\n\ndef test_swap():\n"
                       "    assert clamp(1, 3, 0) == 1\n"})
    # The agent's own (patched-tree) run includes its new test; it must not vote.
    work = tmp_path / "patched"
    repo.git("worktree", "add", "-q", "--detach", str(work), "HEAD")
    subprocess.run(["git", "-C", str(work), "apply", "-"], input=patch, check=True)
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    f"--junitxml={tmp_path / 'agent.xml'}"], cwd=work, capture_output=True)
    report = score(ScoreRequest(repo=repo.root, base="HEAD", diff=patch,
                                results=(tmp_path / "agent.xml",)))
    statuses = {r.node_id: r.status for r in report.results}
    assert statuses["tests/test_new.py::test_swap"] == "agent_written"
    assert report.score.passed == 3


# --- seeds 000/002: oracle properties in the oracle dir ------------------------------------

PROPERTY = '''\
import random

from calc import clamp


def test_clamp_stays_in_window():
    rng = random.Random(17)
    for _ in range(80):
        lo, hi = sorted((rng.uniform(-10, 10), rng.uniform(-10, 10)))
        x = rng.uniform(-20, 20)
        assert lo <= clamp(x, lo, hi) <= hi
'''


def _property_run(repo: GitRepo, patch: bytes, oracle: Path, out: Path) -> Path:
    """Run the oracle's properties (cwd: the oracle dir) against the patched code."""
    work = out.parent / "patched"
    repo.git("worktree", "add", "-q", "--detach", str(work), "HEAD")
    subprocess.run(["git", "-C", str(work), "apply", "-"], input=patch, check=True)
    env = {**__import__("os").environ, "PYTHONPATH": str(work / "src")}
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                    "properties.py", f"--junitxml={out}"], cwd=oracle, env=env,
                   capture_output=True, check=False)
    repo.git("worktree", "remove", "--force", str(work))
    return out


def test_oracle_property_votes_and_its_failure_is_ps504(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "properties.py").write_text(PROPERTY)
    # Only the property's results are given: this contract does not require the base
    # tests' results (the corpus share, and the tests that also reach clamp).
    (oracle / "score_contract.toml").write_text(
        '[coverage]\nmin_base_share = 0.0\nuncovered_action = "info"\n')
    good = repo.diff({"src/calc.py": fix_clamp()})
    results = _property_run(repo, good, oracle, tmp_path / "good.xml")
    report = score(ScoreRequest(repo=repo.root, base="HEAD", diff=good, results=(results,),
                                oracle_dir=oracle, contract=load_oracle_contract(oracle)))
    assert report.decision is Decision.PASS, codes(report)
    assert report.coverage is not None
    assert [(s.symbol, s.status, [p.name for p in s.properties])
            for s in report.coverage.symbols] == [
        ("calc:clamp", "partial", ["properties.py::test_clamp_stays_in_window"])]
    assert [r.status for r in report.results] == ["property_passed"]
    bad = repo.diff({"src/calc.py": CALC.replace("return max(lo, min(x, hi))", "return x")})
    results = _property_run(repo, bad, oracle, tmp_path / "bad.xml")
    report = score(ScoreRequest(repo=repo.root, base="HEAD", diff=bad, results=(results,),
                                oracle_dir=oracle, contract=load_oracle_contract(oracle)))
    assert report.decision is Decision.REJECT and "PS504" in codes(report)
    assert report.first_cause is not None and report.first_cause.code == "PS504"
