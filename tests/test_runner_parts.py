"""The runner's parts on their own: the sandbox, the wall clock, the workspace, the corpus
digest, the run ledger, the results files. Real processes, real bwrap, real git."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tests_support import GitRepo

from provscore.change.collection import CollectionConfig
from provscore.change.git import Repo
from provscore.change.runner_config import read_options
from provscore.change.writeset import WriteSet, WriteSetEntry
from provscore.errors import InputError
from provscore.model import PathRole
from provscore.oracle.runlog import RunLogRow, append_run_row, read_run_log, runs_of
from provscore.results import Outcome, Verdict, load_results
from provscore.results.pytest_json import dump_pytest_json
from provscore.runner.corpus import corpus_digest, corpus_paths
from provscore.runner.fingerprint import probe
from provscore.runner.sandbox import Mounts, Sandbox, detect_sandbox, run_bounded
from provscore.runner.workspace import Workspace

# --------------------------------------------------------------------------- sandbox


@pytest.fixture
def box() -> Sandbox:
    sandbox = detect_sandbox("auto")
    assert sandbox.active, f"bubblewrap must work here (.ci/run installs it): {sandbox.note}"
    return sandbox


def sandboxed(box: Sandbox, code: str, tmp_path: Path, mounts: Mounts,
              timeout: float = 60) -> tuple[int | None, str]:
    log = tmp_path / "log.txt"
    done = run_bounded(box.command([sys.executable, "-E", "-c", code], cwd=tmp_path,
                                   mounts=mounts), cwd=tmp_path, env={"PATH": "/usr/bin:/bin"},
                       timeout=timeout, log=log)
    return done.returncode, log.read_text()


def test_sandbox_read_only_and_writable_mounts(box: Sandbox, tmp_path: Path) -> None:
    protected, out = tmp_path / "oracle", tmp_path / "out"
    protected.mkdir()
    out.mkdir()
    (protected / "contract.toml").write_text("x = 1\n")
    code = (f"import os\nopen({str(out / 'ok')!r}, 'w').write('fine')\n"
            f"print(open({str(protected / 'contract.toml')!r}).read().strip())\n"
            f"try:\n    open({str(protected / 'contract.toml')!r}, 'a').write('evil')\n"
            f"except OSError as e:\n    print('blocked', e.errno)\n"
            f"print(open('/proc/self/status').read().split('CapEff:')[1].split()[0])\n")
    # The interpreter itself may live under the masked /tmp (a venv there): the runner
    # binds its prefixes back read-only (runner/jobs.py), and so does this test.
    interpreter = tuple(p for p in {Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve()}
                        if Path("/tmp") in p.parents)
    rc, text = sandboxed(box, code, tmp_path,
                         Mounts(read_only=(protected, *interpreter), writable=(out,),
                                masked=(Path("/tmp"),)))
    assert rc == 0, text
    assert text.split() == ["x", "=", "1", "blocked", "30", "0000000000000000"]
    assert (out / "ok").read_text() == "fine"
    assert (protected / "contract.toml").read_text() == "x = 1\n"


def test_sandbox_masks_home_and_tmp(box: Sandbox, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / ".netrc").write_text("machine example.com password hunter2\n")
    code = f"import os\nprint(sorted(os.listdir({str(home)!r})))\n"
    rc, text = sandboxed(box, code, tmp_path, Mounts(masked=(home,)))
    assert (rc, text.strip()) == (0, "[]")


def test_sandbox_has_no_network(box: Sandbox, tmp_path: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    try:
        code = (f"import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), 2)\n"
                f"    print('connected')\nexcept OSError as e:\n    print('refused', e.errno)\n"
                f"try:\n    socket.create_connection(('1.1.1.1', 53), 2)\n    print('out')\n"
                f"except OSError as e:\n    print('unreachable', e.errno)\n")
        rc, text = sandboxed(box, code, tmp_path, Mounts())
    finally:
        server.close()
    assert rc == 0 and text.split() == ["refused", "111", "unreachable", "101"], text


def test_nothing_outlives_the_sandbox(box: Sandbox, tmp_path: Path) -> None:
    marker = f"provscore-outlive-{time.monotonic_ns()}"
    code = (f"import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', "
            f"'import time; time.sleep(60)  # {marker}'], start_new_session=True)\n")
    rc, _ = sandboxed(box, code, tmp_path, Mounts())
    assert rc == 0
    time.sleep(0.3)
    assert not [p for p in Path("/proc").glob("[0-9]*/cmdline")
                if marker.encode() in _read(p)]


def test_wall_clock_kills_the_whole_process_group(tmp_path: Path) -> None:
    marker = f"provscore-clock-{time.monotonic_ns()}"
    code = (f"import subprocess, sys, time\nsubprocess.Popen([sys.executable, '-c', "
            f"'import time; time.sleep(60)  # {marker}'])\ntime.sleep(60)\n")
    started = time.monotonic()
    done = run_bounded([sys.executable, "-c", code], cwd=tmp_path, env={}, timeout=1.0,
                       log=tmp_path / "log")
    assert done.timed_out and done.returncode is None and done.limit == 1.0
    assert time.monotonic() - started < 30
    time.sleep(0.3)
    assert not [p for p in Path("/proc").glob("[0-9]*/cmdline")
                if marker.encode() in _read(p)]


def test_no_bwrap_means_no_sandbox_with_the_reason(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert detect_sandbox("auto") == Sandbox("none", "bubblewrap (bwrap) is not installed")
    assert detect_sandbox("none").note == "--no-sandbox was given"


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""


# --------------------------------------------------------------------------- workspace


def test_workspace_takes_the_corpus_from_base_and_cleans_up_on_error(repo: GitRepo) -> None:
    base = repo.commit({"src/a.py": "A = 1\n", "tests/test_a.py": "def test_a():\n    pass\n",
                        "tests/conftest.py": "X = 1\n"})
    patch = repo.diff({"src/a.py": "A = 2\n", "tests/test_a.py": "def test_a():\n    1/0\n",
                       "tests/conftest.py": None, "tests/test_new.py": "def test_n(): pass\n",
                       "src/b.py": "B = 1\n"})
    corpus = ("tests/conftest.py", "tests/test_a.py", "tests/test_new.py")
    with pytest.raises(RuntimeError), Workspace(Repo(repo.root), base, "r-unit") as ws:
        ws.add_reference()
        ws.add_patched(patch, corpus, {"src/a.py", "tests/test_a.py", "tests/conftest.py"})
        root = ws.root
        assert (ws.patched / "src/a.py").read_text() == "A = 2\n"  # production: the patch
        assert (ws.patched / "src/b.py").read_text() == "B = 1\n"
        assert (ws.patched / "tests/test_a.py").read_text() == "def test_a():\n    pass\n"
        assert (ws.patched / "tests/conftest.py").read_text() == "X = 1\n"
        assert not (ws.patched / "tests/test_new.py").exists()
        assert (ws.reference / "src/a.py").read_text() == "A = 1\n"
        assert repo.git("worktree", "list").decode().count("\n") == 3
        raise RuntimeError("the run failed")
    assert not root.exists()
    assert repo.git("worktree", "list").decode().count("\n") == 1
    assert not (repo.root / ".git" / "worktrees").exists() or \
        not list((repo.root / ".git" / "worktrees").iterdir())


def test_corpus_paths_are_everything_but_production() -> None:
    entries = [WriteSetEntry(p, role, "modified", role in (PathRole.RUNNER, PathRole.CONFTEST))
               for p, role in (("src/a.py", PathRole.PRODUCTION), ("tests/t.py", PathRole.TEST),
                               ("tests/conftest.py", PathRole.CONFTEST),
                               ("tests/data/x.json", PathRole.FIXTURE),
                               ("pyproject.toml", PathRole.OTHER),
                               ("src/pkg/table.csv", PathRole.OTHER),
                               ("docs/x.md", PathRole.OTHER), ("tox.ini", PathRole.RUNNER))]
    assert corpus_paths(WriteSet(tuple(entries)), {"src/pkg/table.csv"}) == (
        "pyproject.toml", "src/pkg/table.csv", "tests/conftest.py", "tests/data/x.json",
        "tests/t.py", "tox.ini")


def test_corpus_digest_follows_the_tests_not_the_code(repo: GitRepo) -> None:
    def digest(python: str = "3.11.7") -> str:
        r = Repo(repo.root)
        return corpus_digest(r, r.resolve("HEAD"), config=CollectionConfig(),
                             options=read_options({}), lock_files=("requirements.txt",),
                             fixture_roots=(), oracle_prefixes=(), python=python)

    repo.commit({"src/a.py": "A = 1\n", "tests/test_a.py": "def test_a():\n    pass\n"})
    first = digest()
    repo.commit({"src/a.py": "A = 2\n", "README.md": "docs\n"})
    assert digest() == first
    assert digest("3.12.0") != first
    repo.commit({"tests/test_a.py": "def test_a():\n    assert 1\n"})
    second = digest()
    assert second != first
    repo.commit({"requirements.txt": "pytest==8.0\n"})
    assert digest() != second


def test_interpreter_without_pytest_is_an_input_error(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp_path / "venv")],
                   check=True)
    python = str(tmp_path / "venv" / "bin" / "python")
    with pytest.raises(InputError, match=r"venv/bin/python: pytest is not installed for this "
                                         r"interpreter; install the project's test "
                                         r"dependencies first"):
        probe(python, cwd=tmp_path, lock_hash="")


# --------------------------------------------------------------------------- ledgers, files


def _row(run_id: str, patch_id: str = "p-1") -> RunLogRow:
    return RunLogRow(run_id, patch_id, "full", 1.5, "pass", "2026-11-30T10:00:00+00:00",
                     "0123456789abcdef", "verify")


def test_run_ledger_round_trip_cap_count_and_errors(tmp_path: Path) -> None:
    log = tmp_path / "run_log.jsonl"
    assert read_run_log(log) == ()
    for rid, pid in (("r-1", "p-1"), ("r-2", "p-2"), ("r-3", "p-1")):
        append_run_row(log, _row(rid, pid))
    rows = read_run_log(log)
    assert [r.run_id for r in rows] == ["r-1", "r-2", "r-3"] and runs_of(rows, "p-1") == 2
    assert rows[0] == _row("r-1")
    append_run_row(log, _row("r-1", "p-9"))
    with pytest.raises(InputError, match=r"run id 'r-1' is recorded twice \(rows 1 and 4\)"):
        read_run_log(log)
    log.write_text('{"run_id": "r-1", "patch_id": "p", "subset": "full", "wall_s": -1, '
                   '"verdict": "pass", "recorded_at": "2026-11-30"}\n')
    with pytest.raises(InputError, match=r"run_log\.jsonl:1: key 'wall_s' must be a number "
                                         r">= 0, got int -1"):
        read_run_log(log)
    with pytest.raises(InputError, match=r"key 'verdict' must be one of"):
        append_run_row(log, RunLogRow("r-9", "p", "full", 1.0, "green", "2026-11-30"))


def test_results_files_read_back_to_the_same_outcomes(tmp_path: Path) -> None:
    outcomes = tuple(Outcome(f"tests/t.py::test_{v.value}[a::b]", v, 0, "x", 0.25,
                             "" if v in (Verdict.PASSED, Verdict.XPASSED) else f"why {v.value}")
                     for v in Verdict)
    path = tmp_path / "results-1.json"
    doc = dump_pytest_json(outcomes, provscore={"run_id": "r", "repeat": 1})
    path.write_text(json.dumps(doc))
    back = load_results(path, 0).outcomes
    assert [(o.node_id, o.verdict, o.message, o.duration) for o in back] == [
        (o.node_id, o.verdict, o.message, o.duration) for o in outcomes]


def test_the_digest_only_run_reads_base_collection_as_the_scored_change_does(
        repo: GitRepo) -> None:
    """``provscore run --digest-only`` must print the digest a run records: the same
    collection rules, including the scripts setup.py runs (a runner, not a helper)."""
    from provscore.change.stage import read_change
    from provscore.oracle.load import oracle_prefixes
    from provscore.session import Session
    from provscore.verify import corpus_digest_of

    runs = "tests/support/suite_main.py"
    repo.commit({"setup.py": f"import setuptools\nsetuptools.setup(test_suite={runs!r})\n",
                 runs: "import sys\n", "tests/test_a.py": "def test_a(): pass\n",
                 "README.md": "r\n"})
    git = Repo(repo.root)
    sha = git.resolve("HEAD")
    change = read_change(git, sha, None, repo.diff({"README.md": "r2\n"}), "p.diff",
                         Session.load().option_effects)
    assert runs in change.runner.collection.run_files
    interp = probe(sys.executable, cwd=repo.root, lock_hash="")
    recorded = corpus_digest(git, sha, config=change.runner.collection,
                             options=change.runner.base, lock_files=(), fixture_roots=(),
                             oracle_prefixes=oracle_prefixes(git.top, None),
                             python=interp.fingerprint.python)
    assert corpus_digest_of(repo.root, "HEAD", None, sys.executable) == recorded



@pytest.mark.parametrize("pyproject", [b'tool = "x"\n', b"[tool]\ntox = 3\n",
                                       b"[tool.tox]\nenv = 1\n"])
def test_a_pyproject_whose_tool_table_is_no_table_sets_no_tox_runs(pyproject: bytes) -> None:
    """`tool` or `tool.tox` of another type holds no tox environment, command or variable
    (read, not a traceback); a real table beside it still counts."""
    from provscore.change.runners import command_lines, invocations, tox_environment

    files = {"pyproject.toml": pyproject}
    assert tox_environment(files) == () and invocations(files) == ()
    assert list(command_lines(files)) == []
    real = {"pyproject.toml": b'[tool.tox.env_run_base]\ncommands = [["pytest", "-x"]]\n'
                              b'set_env = { PYTHONWARNINGS = "error" }\n'}
    assert tox_environment(real) == (("pyproject.toml", "PYTHONWARNINGS", "error"),)
    assert [(i.runner, i.words) for i in invocations(real)] == [("pytest", ("-x",))]
