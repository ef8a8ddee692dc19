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
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from tests_support import SESSION, GitRepo, codes

from provscore.errors import UsageError
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


def test_a_test_the_patch_rewrote_votes_as_base_wrote_it(repo: GitRepo, tmp_path: Path) -> None:
    """From --results files a rewritten test's pass cannot count (which version ran?); in
    verify's own run the corpus came from base, so it does."""
    repo.commit(BASE)
    renamed = TESTS.replace("def test_clamp():\n    assert clamp(5, 0, 3) == 3",
                            "def test_clamp():\n    high = clamp(5, 0, 3)\n    assert high == 3")
    report = report_of(run(repo, repo.diff({"tests/test_calc.py": renamed,
                                            "src/calc.py": CALC + "\n"}), None))
    statuses = {r.node_id: r.status for r in report.results}
    assert statuses["tests/test_calc.py::test_clamp"] == "passed"
    assert report.score.passed == 3


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


ESCAPE = """\
import glob, os, socket, subprocess, sys


def _spawn():
    subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)  # MARKER"],
                     start_new_session=True)


def _network():
    socket.create_connection(("127.0.0.1", PORT), timeout=2).close()


def _oracle():
    with open(ORACLE + "/fixtures.lock", "w") as fh:
        fh.write("forged")


def _ledger():
    open(ORACLE + "/flake_ledger.jsonl", "w").close()


def _reference():
    here = os.path.dirname(os.environ["REPO_ROOT"])
    for tree in glob.glob(os.path.join(here, "reference-*")):
        with open(os.path.join(tree, "tests", "test_calc.py"), "a") as fh:
            fh.write("# tampered")


def add(a, b):
    errors = []
    for attempt in (_spawn, _network, _oracle, _ledger, _reference):
        try:
            attempt()
        except OSError as exc:
            errors.append(f"{attempt.__name__}: {exc}")
    if errors:
        raise OSError("\\n".join(errors))
    return a + b


def clamp(x, lo, hi):
    return max(lo, min(x, hi))
"""


def _escaping_calc(oracle: Path, port: int, marker: str) -> str:
    """Production code that tries every way out of the run at once: a process that
    outlives it, the network, writes into the oracle dir, the flake ledger's history and
    the reference tree (found next to ``REPO_ROOT``)."""
    return ESCAPE.replace("MARKER", marker).replace("PORT", str(port)).replace(
        "ORACLE", repr(str(oracle)))


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


def _escape_attempt(repo: GitRepo, tmp_path: Path, **options: Any
                    ) -> tuple[Report, Path, int, list[str]]:
    """Verify the escaping patch; (report, oracle dir, connections made, survivors)."""
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path, props=None)
    (oracle / "flake_ledger.jsonl").write_text(FLAKE_ROW)
    listener = Listener()
    marker = f"provscore-survivor-{os.getpid()}-{time.monotonic_ns()}"
    try:
        patch = repo.diff({"src/calc.py": _escaping_calc(oracle, listener.port, marker)})
        outcome = run(repo, patch, oracle, **options)
    finally:
        listener.close()
        survivors = _survivors(marker)
        for pid in survivors:  # a setsid escape outlives an unsandboxed run: clean it up
            os.kill(int(pid), 9)
    return report_of(outcome), oracle, listener.connections, survivors


def test_sandbox_blocks_oracle_writes_network_and_survivors(repo: GitRepo,
                                                            tmp_path: Path) -> None:
    report, oracle, connections, survivors = _escape_attempt(repo, tmp_path)
    assert connections == 0 and survivors == []
    assert not (oracle / "fixtures.lock").exists()
    assert (oracle / "flake_ledger.jsonl").read_text() == FLAKE_ROW
    [message] = fired(report, "PS501")
    assert message == ("preexisting test tests/test_calc.py::test_add failed off-tree: "
                       "OSError: _network: [Errno 111] Connection refused")
    assert report.run is not None
    [digest] = [f.lines for f in report.run.failures if f.node_id.endswith("test_add")]
    for attempt in ("_oracle", "_ledger", "_reference"):
        assert any(line.startswith("E ") and
                   f" {attempt}: [Errno 30] Read-only file system: " in line
                   for line in digest), digest
    assert report.decision is Decision.REJECT and "PS511" not in codes(report)
    assert "PS508" not in codes(report)


def test_without_the_sandbox_tampering_is_still_caught_and_said(repo: GitRepo,
                                                                tmp_path: Path) -> None:
    report, oracle, connections, survivors = _escape_attempt(repo, tmp_path, sandbox="none")
    # the look-alike shows what the sandbox prevents: the same patch gets out unsandboxed
    assert survivors and connections >= 1
    assert (oracle / "fixtures.lock").read_text() == "forged"
    assert (oracle / "flake_ledger.jsonl").read_text() == ""
    assert fired(report, "PS508") == ["the off-tree run was not sandboxed: --no-sandbox was given"]
    assert [f.action for f in report.findings if f.code == "PS508"] == [Action.INFO]
    assert fired(report, "PS511") == ["3 protected path(s) changed while patched code ran: "
                                      "oracle dir: fixtures.lock, "
                                      "oracle dir: flake_ledger.jsonl, "
                                      "reference tree: tests/test_calc.py"]
    assert "PS501" not in codes(report)  # every way out worked: the tests passed
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


# --------------------------------------------------------------------------- properties


def test_a_vanished_public_symbol_fails_the_property_it_imports(repo: GitRepo,
                                                               tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path)
    gone = CALC.split("\n\n\ndef clamp")[0] + "\n"
    report = report_of(run(repo, repo.diff({"src/calc.py": gone}), oracle))
    [message] = fired(report, "PS504")
    assert message.startswith("oracle property oracle/test_props.py failed: could not be "
                              "collected: ") and "ImportError" in message
    assert report.score.failed == 4  # the property and the three base tests that import it


def test_the_catalogs_check_functions_run_as_its_properties(repo: GitRepo,
                                                            tmp_path: Path) -> None:
    """With properties.toml in the oracle dir, the properties are the catalog's checks, each
    under its own trial budget and timeout."""
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path, "[score]\nproperty_timeout_s = 20\n", props=None)
    (oracle / "checks.py").write_text(
        "import os\nfrom calc import clamp\n\n\ndef check_window():\n"
        "    assert os.environ['PROPERTY_TRIALS'] == '7'\n"
        "    for w in range(int(os.environ['PROPERTY_TRIALS'])):\n"
        "        assert clamp(w + 1, 0, w) == w, w\n")
    (oracle / "properties.toml").write_text(
        'version = 1\n\n[[properties]]\nid = "P1_window"\nstatement = "clamp stays in the '
        'window"\nkind = "pure_check"\ncovers = ["calc:clamp"]\n'
        'check = "checks.py::check_window"\ntrials = 7\n')
    good = report_of(run(repo, repo.diff({"src/calc.py": CALC + "\n"}), oracle))
    assert {r.node_id: r.status for r in good.results}["oracle/checks.py::check_window"] == \
        "property_passed"
    assert good.run is not None and good.run.properties == ("oracle/checks.py::check_window",)
    bad = report_of(run(repo, repo.diff({"src/calc.py": CALC.replace("min(x, hi)",
                                                                      "min(x, hi + 1)")}),
                        oracle))
    assert fired(bad, "PS504") == ["oracle property oracle/checks.py::check_window failed: "
                                   "exit 1: AssertionError: 0"]
    assert bad.run is not None
    assert [f.lines[-1] for f in bad.run.failures if "checks.py" in f.node_id] == [
        "AssertionError: 0"]


# --------------------------------------------------------------------------- options


def test_subset_and_record_into_the_flake_ledger(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path, props=None)
    outcome = run(repo, repo.diff({"src/calc.py": CALC + "\n"}), oracle, repeat=2,
                  subset=("tests/test_calc.py::test_add",), record_flakes=True)
    record = outcome.record
    assert record.base_tests == ("tests/test_calc.py::test_add",)
    assert record.subset == "tests/test_calc.py::test_add"
    ledger = [json.loads(x) for x in (oracle / "flake_ledger.jsonl").read_text().splitlines()]
    assert [(r["test_id"], r["result"], r["run_id"], r["env"]) for r in ledger] == [
        ("tests/test_calc.py::test_add", "pass", f"{record.run_id}#{n}",
         record.fingerprint.digest if record.fingerprint else "") for n in (1, 2)]
    [row] = read_run_log(oracle / "run_log.jsonl")
    assert row.subset == "tests/test_calc.py::test_add"
    with pytest.raises(UsageError, match=r"--subset 'tests/nope\.py': no such test file"):
        run(repo, repo.diff({"src/calc.py": CALC + "\n"}), oracle,
            subset=("tests/nope.py",))


def test_a_file_broken_at_base_is_not_the_patchs_failure(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({**BASE, "tests/test_old.py": "import vanished_long_ago\n\n\n"
                                              "def test_old():\n    pass\n"})
    outcome = run(repo, repo.diff({"src/calc.py": CALC + "\n"}), None)
    report = report_of(outcome)
    assert outcome.record.base_tests == IDS
    assert report.decision is Decision.PASS, [f.message for f in report.findings]
    assert {r.node_id: r.status for r in report.results} == dict.fromkeys(IDS, "passed")


def test_too_wide_a_patch_is_refused_before_anything_runs(repo: GitRepo,
                                                         tmp_path: Path) -> None:
    repo.commit(BASE)
    oracle = oracle_dir(tmp_path, "[score]\nmax_changed_files = 2\n", props=None)
    wide: dict[str, str | bytes | None] = {f"src/m{i}.py": "X = 1\n" for i in range(3)}
    outcome = run(repo, repo.diff(wide), oracle)
    assert outcome.record.refused == "the write set is too wide (PS303): split the patch"
    assert outcome.record.fingerprint is None and outcome.record.repeats == 0
    assert "PS303" in codes(report_of(outcome))
    assert not (oracle / "run_log.jsonl").exists()  # a refused run is not a run


def test_python_option_runs_the_tests_in_that_interpreter(repo: GitRepo,
                                                         tmp_path: Path) -> None:
    import subprocess
    import sys

    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip",
                    str(venv)], check=True)
    repo.commit({**BASE, "tests/test_where.py":
                 "import sys\n\n\ndef test_where():\n    assert sys.prefix.endswith('venv')\n"})
    record = run(repo, repo.diff({"src/calc.py": CALC + "\n"}), None,
                 python=str(venv / "bin" / "python")).record
    assert record.fingerprint is not None
    assert record.fingerprint.executable == str(venv / "bin" / "python")
    outcomes = {o.node_id: o.verdict.value for o in record.runs[0].outcomes}
    assert outcomes["tests/test_where.py::test_where"] == "passed"


def test_head_mode_applies_binary_files_too(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({**BASE, "src/logo.bin": b"\x89PNG\x00\x01"})
    base = repo.git("rev-parse", "HEAD").decode().strip()
    repo.commit({"src/logo.bin": b"\x89PNG\x00\x02\xff", "src/calc.py": CALC + "\n"})
    req = RunRequest(ScoreRequest(repo=repo.root, base=base, head="HEAD", contract=replace(
        load_oracle_contract(None), pass_env=("PYTEST_DISABLE_PLUGIN_AUTOLOAD",))))
    outcome = verify(req, SESSION)
    assert outcome.record.ran, outcome.record.refused
    assert report_of(outcome).decision is Decision.PASS, codes(report_of(outcome))


def test_the_sandbox_hides_the_checkout_and_the_git_credentials(repo: GitRepo,
                                                                tmp_path: Path) -> None:
    """actions/checkout persists its token in .git/config; developers keep .env files in
    their checkout. Inside the sandbox git still works on the trees, but neither is
    readable (a failure digest could carry it into a public PR comment)."""
    repo.commit(BASE)
    repo.git("config", "http.https://github.com/.extraheader", "AUTHORIZATION: basic s3cr3t")
    repo.git("remote", "add", "origin", "https://github.com/acme/app.git")
    (repo.root / ".env").write_text("API_KEY=s3cr3t\n")  # untracked, in the checkout
    probe = (f"import os, subprocess\n\n\ndef test_probe():\n"
             f"    assert not os.path.exists({str(repo.root / '.env')!r})\n"
             f"    head = subprocess.run(['git', 'rev-parse', 'HEAD'], capture_output=True,\n"
             f"                          text=True, check=True).stdout.strip()\n"
             f"    assert len(head) == 40\n"
             f"    config = subprocess.run(['git', 'config', '--list'], capture_output=True,\n"
             f"                            text=True).stdout\n"
             f"    assert 's3cr3t' not in config and 'origin' not in config, config\n")
    repo.commit({"tests/test_probe.py": probe})
    report = report_of(run(repo, repo.diff({"src/calc.py": CALC + "\n"}), None))
    assert verdicts(report)["tests/test_probe.py::test_probe"] == ("passed",), \
        report.run.failures if report.run else None
    # the look-alike: the same test outside the sandbox sees both
    plain = report_of(run(repo, repo.diff({"src/calc.py": CALC + "\n"}), None,
                          sandbox="none"))
    assert verdicts(plain)["tests/test_probe.py::test_probe"] == ("failed",)
