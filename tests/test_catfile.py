"""One long-lived ``git cat-file --batch`` per mirror (change/catfile.py, Repo(long_lived)).

Real repositories only: the long-lived reader must hand back, byte for byte, what one
``cat-file`` process per read hands back; a killed process is started again; one that
cannot be started again is a GitError naming the repository; and no process outlives
its reader.
"""

from __future__ import annotations

import gc
import json
import os
import signal
import subprocess
from pathlib import Path

import pytest
from conftest import GitRepo

from provscore.batch import BatchRequest, run_batch
from provscore.batch.model import Chunk, Instance, RowKey, Status, Task
from provscore.batch.worker import WorkerConfig, WorkerState
from provscore.change.git import Repo
from provscore.errors import GitError
from provscore.pipeline import ScoreRequest, score
from provscore.report import render
from provscore.session import Session

# Larger than a pipe's buffer (64 KiB), so an answer cannot fit in the pipe at once.
BIG = bytes(range(256)) * 1200 + b"\n\x00 end"
FILES: dict[str, str | bytes] = {
    "empty.txt": b"",
    "binary.bin": b"\x00\x01\xff\nmissing\n",  # looks like a header line inside contents
    "big.bin": BIG,
    "name\nwith newline.py": "x = 1\n",
    **{f"pkg/m{i:03d}.py": f"VALUE = {i}\n" * (i % 7 + 1) for i in range(130)},
}


def _alive(pid: int) -> bool:
    """The process exists and is no zombie (a reaped or ended child is not alive)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _git_children() -> list[str]:
    """Command lines of this process's children that are git processes."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text(encoding="ascii", errors="replace").rsplit(")", 1)[1].split()
            cmd = (stat.parent / "cmdline").read_bytes().replace(b"\x00", b" ").decode()
        except OSError:
            continue
        if int(fields[1]) == os.getpid() and fields[0] != "Z" and cmd.startswith("git "):
            found.append(cmd)
    return found


@pytest.fixture
def world(tmp_path: Path) -> tuple[GitRepo, list[str]]:
    repo = GitRepo(tmp_path / "src")
    repo.commit(FILES)
    tree = {e.path: e.sha for e in Repo(repo.root).ls_tree("HEAD")}
    # Every blob, one twice, a missing id, and a tree's id (not a blob: absent).
    tree_sha = repo.git("rev-parse", "HEAD^{tree}").decode().strip()
    shas = [*tree.values(), tree["big.bin"], "0" * 40, tree_sha]
    return repo, shas


def test_the_long_lived_reader_reads_what_one_process_per_read_reads(
        world: tuple[GitRepo, list[str]]) -> None:
    repo, shas = world
    alone = Repo(repo.root).read_objects(shas)
    assert len(alone) == len(FILES) and alone[Repo(repo.root).tree("HEAD")["big.bin"].sha] == BIG
    with Repo(repo.root, long_lived=True) as kept:
        assert kept.reader is not None and kept.reader.pid is None  # started on first use
        assert kept.read_objects(shas) == alone
        first = kept.reader.pid
        assert kept.read_blobs("HEAD", [*FILES, "absent.py"]) == \
            Repo(repo.root).read_blobs("HEAD", [*FILES, "absent.py"])
        assert kept.read_objects(["0" * 40]) == {}
        assert (kept.reader.pid, kept.reader.starts) == (first, 1)  # one process for all
    assert first is not None and not _alive(first)


def test_a_killed_reader_is_started_again_and_reads_the_same(
        world: tuple[GitRepo, list[str]]) -> None:
    repo, shas = world
    alone = Repo(repo.root).read_objects(shas)
    with Repo(repo.root, long_lived=True) as kept:
        assert kept.reader is not None
        assert kept.read_objects(shas[:3]) == {s: alone[s] for s in shas[:3]}
        killed = kept.reader.pid
        assert killed is not None
        os.kill(killed, signal.SIGKILL)
        assert kept.read_objects(shas) == alone
        assert kept.reader.starts == 2 and kept.reader.pid not in (None, killed)
        assert not _alive(killed)


def test_a_reader_that_cannot_start_again_fails_closed_naming_the_repository(
        world: tuple[GitRepo, list[str]], tmp_path: Path) -> None:
    repo, shas = world
    kept = Repo(repo.root, long_lived=True)
    assert kept.reader is not None
    assert kept.read_objects(shas[:1])
    pid = kept.reader.pid
    assert pid is not None
    moved = tmp_path / "moved"
    repo.root.rename(moved)  # git -C root cannot start there any more
    os.kill(pid, signal.SIGKILL)
    with pytest.raises(GitError) as err:
        kept.read_objects(shas)
    message = str(err.value)
    assert message.startswith(f"{repo.root}: git cat-file --batch failed twice: the process "
                              "ended")
    assert "cannot change to" in message and "\n" not in message
    assert kept.reader.pid is None and _git_children() == []
    moved.rename(repo.root)  # back: the next read starts a process again
    assert kept.read_objects(shas[:1]) == Repo(repo.root).read_objects(shas[:1])
    kept.close()
    assert _git_children() == []


def test_a_reader_dropped_without_close_ends_its_process(
        world: tuple[GitRepo, list[str]]) -> None:
    repo, shas = world
    kept = Repo(repo.root, long_lived=True)
    assert kept.read_objects(shas[:2])
    assert kept.reader is not None
    pid = kept.reader.pid
    assert pid is not None and _alive(pid)
    del kept
    gc.collect()
    assert not _alive(pid)


def test_a_short_lived_repo_keeps_no_process(world: tuple[GitRepo, list[str]]) -> None:
    repo, shas = world
    plain = Repo(repo.root)
    assert plain.reader is None
    assert plain.read_objects(shas)
    assert _git_children() == []


def _mirror_world(tmp_path: Path) -> tuple[Path, str, dict[str, str]]:
    src = GitRepo(tmp_path / "src")
    tests = "".join(f"def test_{i}():\n    assert {i} == {i}\n\n\n" for i in range(6))
    base = src.commit({"pkg/__init__.py": "", "pkg/mod.py": "def f():\n    return 1\n",
                       "tests/test_mod.py": tests})
    patches = {
        "removed": src.diff({"tests/test_mod.py": tests.replace("    assert 2 == 2\n",
                                                                "    pass\n")}),
        "fix": src.diff({"pkg/mod.py": "def f():\n    return 2\n"}),
        "skipped": src.diff({"tests/test_mod.py": "import pytest\n\n\n" + tests.replace(
            "def test_3", "@pytest.mark.skip\ndef test_3")}),
        "weakened": src.diff({"tests/test_mod.py": tests.replace("assert 4 == 4",
                                                                 "assert 4")}),
    }
    mirrors = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(src.root), str(mirrors / "acme__m")],
                   check=True, capture_output=True)
    return mirrors, base, {k: v.decode() for k, v in patches.items()}


def test_a_worker_reads_a_mirror_through_one_reader_and_scores_as_alone(
        tmp_path: Path) -> None:
    mirrors, base, patches = _mirror_world(tmp_path)
    mirror = mirrors / "acme__m"
    inst = Instance("i", "acme/m", base, "")
    tasks = [Task(RowKey(f"d{n}", name, "agent"), "agent.jsonl", patch, inst, mirror, None)
             for n, (name, patch) in enumerate(patches.items())]
    state = WorkerState(WorkerConfig(None, static_only=True))
    try:
        rows = [*state.score(Chunk(0, tuple(tasks[:2])))]
        reader = state.mirror.repo.reader if state.mirror.repo else None
        assert reader is not None and reader.starts == 1
        killed = reader.pid
        assert killed is not None
        os.kill(killed, signal.SIGKILL)  # between two chunks: the next one starts another
        rows += state.score(Chunk(1, tuple(tasks[2:])))
        assert state.mirror.repo is not None and state.mirror.repo.reader is reader
        assert reader.starts == 2 and reader.pid != killed
    finally:
        state.close()
    assert _git_children() == []
    assert [r.status for r in rows] == [Status.SCORED] * len(patches)
    for row, (name, patch) in zip(rows, patches.items(), strict=True):
        alone = score(ScoreRequest(repo=mirror, base=base, diff=patch.encode(),
                                   static_only=True), Session.load())
        assert [(f.code, f.path, f.line, f.message) for f in row.findings] == \
            [(f.code, f.location.path if f.location else None,
              f.location.line if f.location else None, f.message) for f in alone.findings], name
        assert row.decision == alone.decision.value
    assert any(r.findings for r in rows)


def test_a_batch_starts_one_reader_per_mirror_and_leaves_no_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    mirrors, base, patches = _mirror_world(tmp_path)
    (tmp_path / "instances.jsonl").write_text("".join(
        json.dumps({"instance_id": n, "repo": "acme/m", "base_commit": base}) + "\n"
        for n in patches), encoding="utf-8")
    preds = tmp_path / "agent.jsonl"
    preds.write_text("".join(json.dumps({"instance_id": n, "model_name_or_path": "agent",
                                         "model_patch": p}) + "\n"
                             for n, p in patches.items()), encoding="utf-8")
    trace = tmp_path / "git-trace.txt"
    monkeypatch.setenv("GIT_TRACE", str(trace))
    summary = run_batch(BatchRequest((preds,), tmp_path / "instances.jsonl", mirrors,
                                     tmp_path / "r.sqlite", static_only=True, chunk_size=2))
    assert (summary.scored, summary.unscored) == (len(patches), 0)
    assert _git_children() == []
    commands = [line.split("built-in: git ", 1)[1] for line in
                trace.read_text(encoding="utf-8").splitlines() if "built-in: git " in line]
    assert sum("cat-file --batch" in c and "-e" not in c for c in commands) == 1
    # A mirror is opened once (three rev-parse), its tree listed once, its base commit
    # resolved once; per patch only `git apply` on a temporary index is left.
    assert sum(" ls-tree " in f" {c}" for c in commands) == 1
    assert sum(" rev-parse --verify " in f" {c}" for c in commands) == 1
    assert sum(" apply --cached " in f" {c}" for c in commands) == len(patches)


def test_one_session_and_one_open_repo_give_each_patch_its_report_alone(
        tmp_path: Path) -> None:
    mirrors, base, patches = _mirror_world(tmp_path)
    mirror = mirrors / "acme__m"
    session = Session.load()
    with Repo(mirror, long_lived=True) as open_repo:
        together = [render(score(ScoreRequest(repo=mirror, base=base, diff=p.encode(),
                                              static_only=True), session, repo=open_repo),
                           "json") for p in patches.values()]
    alone = [render(score(ScoreRequest(repo=mirror, base=base, diff=p.encode(),
                                       static_only=True), Session.load()), "json")
             for p in patches.values()]
    assert together == alone
    with pytest.raises(ValueError, match="the open repository is"):
        score(ScoreRequest(repo=tmp_path, base=base, diff=b""), session,
              repo=Repo(mirror))
