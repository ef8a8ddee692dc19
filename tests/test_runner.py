"""provscore verify / run end to end: real repos, real patches, real sandboxed pytest runs.

Each test builds a tiny repository, writes a real patch with ``git diff`` and runs the whole
off-tree runner on it: worktrees, bubblewrap, the base corpus against the patched code,
the oracle properties, the score. The cases are the issue's quality bar; each has an
honest look-alike next to it where one exists.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest
from tests_support import SESSION, GitRepo, codes

from provscore.model import Action, Decision
from provscore.oracle.contract import load_oracle_contract
from provscore.oracle.runlog import read_run_log
from provscore.pipeline import ScoreRequest
from provscore.report.model import Report
from provscore.runner import RunOptions
from provscore.verify import RunOutcome, RunRequest, run_patch, verify

ROOT = Path(__file__).resolve().parents[1]
CALC = ("def add(a, b):\n    return a + b\n\n\n"
        "def clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n")
TESTS = '''\
from calc import add, clamp


def test_add(two):
    assert add(two, 3) == 5


def test_clamp():
    assert clamp(5, 0, 3) == 3


def test_clamp_low():
    assert clamp(-1, 0, 3) == 0
'''
CONFTEST = "import pytest\n\n\n@pytest.fixture\ndef two():\n    return 2\n"
BASE = {"pytest.ini": "[pytest]\npythonpath = src\n", "src/calc.py": CALC,
        "tests/test_calc.py": TESTS, "tests/conftest.py": CONFTEST}
PROPS = '''\
import os

from calc import clamp


def test_clamp_stays_in_window():
    for width in range(int(os.environ["PROPERTY_TRIALS"])):
        assert 0 <= clamp(width * 7 - 20, 0, width) <= width
'''
IDS = ("tests/test_calc.py::test_add", "tests/test_calc.py::test_clamp",
       "tests/test_calc.py::test_clamp_low")


def oracle_dir(tmp_path: Path, contract: str = "", props: str | None = PROPS) -> Path:
    oracle = tmp_path / "oracle"
    oracle.mkdir(exist_ok=True)
    if contract:
        (oracle / "score_contract.toml").write_text(contract)
    if props is not None:
        (oracle / "test_props.py").write_text(props)
    return oracle


def run(repo: GitRepo, patch: bytes, oracle: Path | None, *, verify_it: bool = True,
        plugins: bool = False, **options: object) -> RunOutcome:
    """verify (or run) the patch. Without ``plugins`` the sandboxed pytest loads no
    third-party plugin (``PYTEST_DISABLE_PLUGIN_AUTOLOAD``, let through with the contract's
    ``pass_env``): the tiny repos need none, and this machine's take seconds to import."""
    contract = load_oracle_contract(oracle)
    if not plugins:
        contract = replace(contract, pass_env=("PYTEST_DISABLE_PLUGIN_AUTOLOAD",))
    req = RunRequest(ScoreRequest(repo=repo.root, base="HEAD", diff=patch,
                                  diff_origin="agent.patch", oracle_dir=oracle,
                                  contract=contract),
                     RunOptions(**options))  # type: ignore[arg-type]
    return verify(req, SESSION) if verify_it else run_patch(req, SESSION)


@pytest.fixture(autouse=True)
def _no_plugin_autoload(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")  # seen only where passed


def report_of(outcome: RunOutcome) -> Report:
    assert outcome.report is not None
    return outcome.report


def fired(report: Report, code: str) -> list[str]:
    return [f.message for f in report.findings if f.code == code]


def assert_cleaned(repo: GitRepo, run_id: str) -> None:
    """No worktree entry, no directory of the run left behind."""
    listing = repo.git("worktree", "list", "--porcelain").decode()
    assert listing.count("worktree ") == 1, listing
    tmp = Path(os.environ.get("TMPDIR", "/tmp"))
    assert not [p for p in tmp.iterdir() if run_id in p.name]


def verdicts(report: Report) -> dict[str, tuple[str, ...]]:
    return {r.node_id: r.verdicts for r in report.results}


# --------------------------------------------------------------------------- pass


def test_correct_patch_passes_sandboxed_and_leaves_nothing(repo: GitRepo,
                                                           tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path, "[score]\nproperty_trials = 5\n")
    fixed = CALC.replace("return max(lo, min(x, hi))",
                         "if lo > hi:\n        lo, hi = hi, lo\n    return max(lo, min(x, hi))")
    outcome = run(repo, repo.diff({"src/calc.py": fixed}), oracle, plugins=True)
    report, record = report_of(outcome), outcome.record
    assert report.decision is Decision.PASS, [f.message for f in report.findings]
    assert codes(report) == []
    assert record.sandbox == "bwrap" and record.repeats == 1
    assert record.base_tests == IDS
    prop = "oracle/test_props.py::test_clamp_stays_in_window"
    assert verdicts(report) == {**{i: ("passed",) for i in IDS}, prop: ("passed",)}
    assert {r.node_id: r.status for r in report.results}[prop] == "property_passed"
    fp = record.fingerprint
    assert fp is not None and fp.python.count(".") == 2 and len(fp.digest) == 16
    assert any(d.startswith("pytest==") for d in fp.distributions)
    assert record.corpus_digest is not None and len(record.corpus_digest) == 64
    # the report carries the run, valid against the published schema
    schema = json.loads((ROOT / "docs" / "report.schema.json").read_text())
    jsonschema.validate(json.loads(json.dumps(report.to_dict())), schema)
    assert report.to_dict()["run"]["fingerprint"]["digest"] == fp.digest
    # one run ledger row, the decision as its verdict, the fingerprint as its env
    rows = read_run_log(oracle / "run_log.jsonl")
    assert [(r.run_id, r.patch_id, r.verdict, r.env, r.command, r.subset) for r in rows] == [
        (record.run_id, record.patch_id, "pass", fp.digest, "verify", "full")]
    assert_cleaned(repo, record.run_id)


# --------------------------------------------------------------------------- corpus from base


def test_patch_that_edits_the_test_to_match_still_fails_on_the_reference_copy(
        repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    broken = CALC.replace("return a + b", "return a - b")
    patch = repo.diff({"src/calc.py": broken, "tests/test_calc.py":
                       TESTS.replace("assert add(two, 3) == 5", "assert add(two, 3) == -1")})
    report = report_of(run(repo, patch, None))
    assert report.decision is Decision.REJECT
    assert fired(report, "PS501") == [
        "preexisting test tests/test_calc.py::test_add failed off-tree: assert -1 == 5"]
    digest = {f.node_id: f.lines for f in report.run.failures} if report.run else {}
    assert list(digest) == ["tests/test_calc.py::test_add"]
    lines = digest["tests/test_calc.py::test_add"]
    assert "E       assert -1 == 5" in lines and len(lines) <= 8
    assert verdicts(report)["tests/test_calc.py::test_clamp"] == ("passed",)


def test_patched_conftest_that_skips_everything_is_replaced_by_base(repo: GitRepo,
                                                                    tmp_path: Path) -> None:
    repo.commit(BASE)
    skip_all = ("import pytest\n\n\ndef pytest_collection_modifyitems(items):\n"
                "    for item in items:\n        item.add_marker(pytest.mark.skip('agent'))\n")
    broken = CALC.replace("return max(lo, min(x, hi))", "return max(lo, x)")
    patch = repo.diff({"src/calc.py": broken, "conftest.py": skip_all,
                       "tests/conftest.py": CONFTEST + "\n\n" + skip_all,
                       "tests/test_extra.py": "def test_agent():\n    assert True\n"})
    report = report_of(run(repo, patch, None))
    assert "PS302" in codes(report)  # the static gate sees the edit too
    # ... and the run used base's conftest: the tests ran (no skip), and one caught the bug
    assert verdicts(report) == {"tests/test_calc.py::test_add": ("passed",),
                                "tests/test_calc.py::test_clamp": ("failed",),
                                "tests/test_calc.py::test_clamp_low": ("passed",)}
    assert "tests/test_extra.py::test_agent" not in verdicts(report)  # added: absent


def test_syntax_error_planted_in_an_imported_module_counts_as_failed(repo: GitRepo,
                                                                     tmp_path: Path) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/calc.py": CALC + "\ndef broken(:\n    pass\n"})
    report = report_of(run(repo, patch, None))
    assert report.decision is Decision.REJECT and report.score.failed == 3
    assert {r.node_id: r.status for r in report.results} == dict.fromkeys(IDS, "failed")
    messages = fired(report, "PS501")
    assert len(messages) == 3 and all(
        "no result in the patched run: tests/test_calc.py could not be collected" in m
        and "SyntaxError" in m for m in messages), messages
    assert report.run is not None
    assert all(any("SyntaxError" in line for line in f.lines) for f in report.run.failures)


def test_failing_import_planted_in_production_code_counts_as_failed(repo: GitRepo,
                                                                    tmp_path: Path) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/calc.py": "import no_such_module_anywhere\n" + CALC})
    report = report_of(run(repo, patch, None))
    assert report.score.failed == 3 and report.score.passed == 0
    assert all("ModuleNotFoundError" in m for m in fired(report, "PS501"))


# --------------------------------------------------------------------------- wall clock


def test_hanging_patch_is_killed_at_the_wall_clock(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path, "[score]\nproperty_timeout_s = 2\n"
                        "[runner]\nrun_timeout_s = 4\n")
    hang = CALC.replace("def clamp(x, lo, hi):\n",
                        "def clamp(x, lo, hi):\n    import time\n    time.sleep(600)\n")
    outcome = run(repo, repo.diff({"src/calc.py": hang}), oracle)
    report, record = report_of(outcome), outcome.record
    assert report.decision is Decision.REJECT
    assert fired(report, "PS505") == [
        "oracle property oracle/test_props.py::test_clamp_stays_in_window did not finish "
        "within 2 s"]
    [kill] = record.kills
    assert kill.what == "repeat 1" and kill.running == "tests/test_calc.py::test_clamp"
    assert kill.seconds == 4.0
    assert fired(report, "PS510") == [
        "repeat 1 was killed at the wall clock (4 s) while tests/test_calc.py::test_clamp was "
        "running; 2 base test(s) have no result and count as failed"]
    # the test that finished before the hang keeps its result; the others count as failed
    assert verdicts(report)["tests/test_calc.py::test_add"] == ("passed",)
    assert report.score.failed == 3  # two without a result, and the property
    assert "PS501" not in codes(report) and "PS504" not in codes(report)  # reported once
    assert_cleaned(repo, record.run_id)


# --------------------------------------------------------------------------- sandbox


class Listener:
    """A TCP server on the host's loopback that records whether anyone connected."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(5)
        self.sock.settimeout(0.2)
        self.port = self.sock.getsockname()[1]
        self.connections = 0
        self.stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self.stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                continue
            self.connections += 1
            conn.close()

    def close(self) -> None:
        self.stop = True
        self.thread.join()
        self.sock.close()


def _escaping_calc(oracle: Path, port: int, marker: str) -> str:
    return (f"import socket, subprocess, sys\n\n\ndef add(a, b):\n"
            f"    subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)  "
            f"# {marker}'], start_new_session=True)\n"
            f"    try:\n        socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
            f"    except OSError as exc:\n        print('network:', exc)\n"
            f"    with open({str(oracle / 'fixtures.lock')!r}, 'w') as fh:\n"
            f"        fh.write('forged')\n"
            f"    open({str(oracle / 'flake_ledger.jsonl')!r}, 'w').close()\n"
            f"    return a + b\n\n\ndef clamp(x, lo, hi):\n    return max(lo, min(x, hi))\n")


FLAKE_ROW = json.dumps({"test_id": "tests/test_calc.py::test_add", "result": "pass",
                        "run_id": "r-1", "recorded_at": "2026-11-01T10:00:00+00:00"}) + "\n"


def _survivors(marker: str) -> list[str]:
    found = []
    for proc in Path("/proc").iterdir():
        try:
            if marker in (proc / "cmdline").read_bytes().decode("utf-8", "replace"):
                found.append(proc.name)
        except OSError:
            continue
    return found


def test_sandbox_blocks_oracle_writes_network_and_survivors(repo: GitRepo,
                                                            tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path, props=None)
    (oracle / "flake_ledger.jsonl").write_text(FLAKE_ROW)
    listener = Listener()
    marker = f"provscore-survivor-{os.getpid()}-sandboxed"
    try:
        patch = repo.diff({"src/calc.py": _escaping_calc(oracle, listener.port, marker)})
        outcome = run(repo, patch, oracle)
    finally:
        listener.close()
    report = report_of(outcome)
    assert listener.connections == 0
    assert not (oracle / "fixtures.lock").exists()
    assert (oracle / "flake_ledger.jsonl").read_text() == FLAKE_ROW
    assert _survivors(marker) == []
    [message] = fired(report, "PS501")
    assert message.startswith("preexisting test tests/test_calc.py::test_add failed off-tree: ")
    assert "Read-only file system" in message
    assert report.decision is Decision.REJECT and "PS511" not in codes(report)
    assert "PS508" not in codes(report)


def test_without_the_sandbox_tampering_is_still_caught_and_said(repo: GitRepo,
                                                                tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path, props=None)
    (oracle / "flake_ledger.jsonl").write_text(FLAKE_ROW)
    listener = Listener()
    marker = f"provscore-survivor-{os.getpid()}-plain"
    try:
        patch = repo.diff({"src/calc.py": _escaping_calc(oracle, listener.port, marker)})
        outcome = run(repo, patch, oracle, sandbox="none")
    finally:
        listener.close()
        survivors = _survivors(marker)
        for pid in survivors:  # a setsid escape outlives an unsandboxed run: clean it up
            os.kill(int(pid), 9)
    assert survivors, "the look-alike must show what the sandbox prevents"
    report = report_of(outcome)
    assert listener.connections >= 1  # the same patch does reach the network unsandboxed
    assert (oracle / "fixtures.lock").read_text() == "forged"
    assert (oracle / "flake_ledger.jsonl").read_text() == ""
    assert fired(report, "PS508") == ["the off-tree run was not sandboxed: --no-sandbox was given"]
    assert [f.action for f in report.findings if f.code == "PS508"] == [Action.INFO]
    assert fired(report, "PS511") == ["2 protected path(s) changed while patched code ran: "
                                      "oracle dir: fixtures.lock, "
                                      "oracle dir: flake_ledger.jsonl"]
    assert report.decision is Decision.REJECT


def test_require_sandbox_refuses_to_run_without_one(repo: GitRepo, tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    repo.commit(BASE)
    bin_dir = tmp_path / "bin-without-bwrap"
    bin_dir.mkdir()
    git = shutil.which("git")
    assert git is not None
    (bin_dir / "git").symlink_to(git)
    monkeypatch.setenv("PATH", str(bin_dir))
    outcome = run(repo, repo.diff({"src/calc.py": CALC + "\n"}), None, require_sandbox=True)
    report = report_of(outcome)
    assert outcome.record.refused == ("a sandbox is required and there is none: "
                                      "bubblewrap (bwrap) is not installed")
    assert fired(report, "PS508") == [
        "the off-tree run was not sandboxed: bubblewrap (bwrap) is not installed"]
    assert [f.action for f in report.findings if f.code == "PS508"] == [Action.REJECT]
    assert report.results == () and report.unscored


# --------------------------------------------------------------------------- refusals, cap


def test_patch_that_does_not_apply_is_refused_with_ps902(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/calc.py": CALC.replace("a + b", "a + b + 0")})
    repo.commit({"src/calc.py": CALC.replace("return a + b", "return b + a")})
    outcome = run(repo, patch, None)
    report = report_of(outcome)
    assert outcome.record.refused == "the patch does not apply to base"
    assert report.first_cause is not None and report.first_cause.code == "PS902"
    assert report.first_cause.path == "src/calc.py"
    assert fired(report, "PS502") == ["no independent evidence: the off-tree run did not run: "
                                      "the patch does not apply to base"]


def test_run_cap_and_refusal_policy(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path, "[runner]\nmax_runs_per_patch = 1\n"
                        "run_after_static_reject = false\n", props=None)
    patch = repo.diff({"src/calc.py": CALC + "\n"})
    first = run(repo, patch, oracle, verify_it=False, patch_id="pr-7")
    assert first.record.ran and first.report is None
    second = run(repo, patch, oracle, patch_id="pr-7")
    assert second.record.cap == (1, 1) and not second.record.ran
    assert fired(report_of(second), "PS509") == [
        "patch pr-7 already has 1 run(s) in the run ledger (cap 1); split the patch instead "
        "of raising the cap"]
    rows = read_run_log(oracle / "run_log.jsonl")
    assert [(r.patch_id, r.verdict, r.command) for r in rows] == [("pr-7", "passed", "run")]
    # a statically rejected patch does not run when the contract says so
    skip = TESTS.replace("def test_clamp():", "import pytest\n\n\n@pytest.mark.skip\n"
                         "def test_clamp():")
    refused = run(repo, repo.diff({"tests/test_calc.py": skip}), oracle, patch_id="pr-8")
    assert refused.record.refused == ("a static gate already rejects (PS201) and the contract "
                                      "sets runner.run_after_static_reject = false")
    assert len(read_run_log(oracle / "run_log.jsonl")) == 1


def test_frozen_ids_are_deselected_and_a_stale_one_is_ps506(repo: GitRepo,
                                                            tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path, props=None)
    rows = [{"test_id": t, "owner": "human", "reason": "flaky", "frozen_on": "2026-11-01",
             "expires_on": "2099-12-31"} for t in ("tests/test_calc.py::test_clamp",
                                                   "tests/test_calc.py::test_gone")]
    (oracle / "flake_freeze.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    broken = CALC.replace("return max(lo, min(x, hi))", "return max(lo, x)")
    report = report_of(run(repo, repo.diff({"src/calc.py": broken}), oracle, repeat=2))
    assert fired(report, "PS506") == ["frozen id tests/test_calc.py::test_gone no longer exists"]
    statuses = {r.node_id: (r.status, r.verdicts) for r in report.results}
    # test_clamp would fail but is frozen: deselected, unscored; test_clamp_low is not
    # (pytest's own --deselect would drop it too: it shares the prefix)
    assert statuses["tests/test_calc.py::test_clamp"] == ("unscored_frozen",
                                                          ("skipped", "skipped"))
    assert statuses["tests/test_calc.py::test_clamp_low"] == ("passed", ("passed", "passed"))
