"""One sandboxed process: its job file, mounts, environment, wall clock and output.

Every process the runner starts inside a tree goes through :class:`Jobs`: the in-sandbox
script (:mod:`provscore.runner.inside`) with a JSON job, in the interpreter chosen with
``--python``, under the sandbox, with a curated environment (never the caller's: a
secret in it could come back in a failure digest), a private writable output directory
and temporary directory, and a wall clock enforced from outside.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from provscore.records import dataclass
from provscore.runner import inside
from provscore.runner.sandbox import Bounded, Finished, Mounts, Sandbox, start_bounded
from provscore.runner.workspace import Workspace

#: How much of a process's event stream is read back: this much, plus
#: ``STREAM_BYTES_PER_TEST`` for every test it is expected to report (a patch that floods
#: the stream cannot make provscore read without end).
MAX_STREAM_BYTES = 64 * 1024 * 1024
STREAM_BYTES_PER_TEST = 4 * 1024
_KEPT_ENV = ("PATH", "TZ", "SYSTEMROOT")
_TMP = Path("/tmp")


@dataclass(frozen=True, slots=True)
class JobResult:
    """What one process left: how it ended, its events, its output directory."""

    name: str
    finished: Finished
    events: tuple[dict[str, Any], ...]
    out: Path
    log: Path

    def event_ids(self, kind: str) -> list[str]:
        return [str(e.get("nodeid", "")) for e in self.events if e.get("event") == kind]

    def collected(self) -> tuple[str, ...] | None:
        """The ids pytest collected (after deselection); None when it never got there."""
        for e in self.events:
            if e.get("event") == "collected" and isinstance(e.get("ids"), list):
                return tuple(str(i) for i in e["ids"])
        return None

    def failures(self, kind: str = "fail") -> dict[str, tuple[str, ...]]:
        """The last failure lines per node id (``fail`` or ``collect_error`` events)."""
        out: dict[str, tuple[str, ...]] = {}
        for e in self.events:
            lines = e.get("lines")
            if e.get("event") == kind and isinstance(lines, list):
                out[str(e.get("nodeid", ""))] = tuple(str(x)[:inside.MAX_LINE] for x in lines)
        return out

    def running(self) -> str | None:
        """The last test that started (the one running when a process was killed)."""
        started = self.event_ids("start")
        return started[-1] if started else None

    def log_tail(self, k: int) -> list[str]:
        try:
            with open(self.log, "rb") as fh:
                fh.seek(max(0, os.path.getsize(self.log) - 64 * 1024))
                text = fh.read().decode("utf-8", "replace")
        except OSError:
            return []
        return inside.tail(text, k)


@dataclass
class Started:
    name: str
    bounded: Bounded
    out: Path
    log: Path


class Jobs:
    """Starts the run's sandboxed processes; one per test-tree invocation."""

    def __init__(self, ws: Workspace, sandbox: Sandbox, python: str,
                 interpreter_paths: Sequence[Path], *, oracle_dir: Path | None, tail: int,
                 extra_env: Mapping[str, str]) -> None:
        self.ws, self.sandbox, self.python = ws, sandbox, python
        self.oracle_dir = oracle_dir
        self.tail = tail
        self.extra_env = dict(extra_env)
        self.masked = (*_masked_dirs(), ws.repo.top.resolve())
        # The interpreter's own paths and the git directory stay visible where a mask
        # would hide them; the git config is replaced by one without credentials.
        self.git_dir = ws.git_dir()
        self.replaced = ((ws.clean_git_config(), self.git_dir / "config"),) \
            if (self.git_dir / "config").is_file() else ()
        self.keep = tuple(p for p in (*interpreter_paths, self.git_dir) if p.exists()
                          and any(p == m or m in p.parents for m in self.masked))
        shutil.copyfile(inside.__file__, ws.boot / "inside.py")

    def _env(self, out: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        env = {k: os.environ[k] for k in _KEPT_ENV if k in os.environ}
        env.setdefault("PATH", os.defpath)
        tmp = _TMP if self.sandbox.active else out / "tmp"
        tmp.mkdir(exist_ok=True)
        env.update({"LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TMPDIR": str(tmp),
                    "HOME": os.environ.get("HOME", str(tmp)), "PYTHONDONTWRITEBYTECODE": "1",
                    "REPO_ROOT": str(self.ws.patched)})
        env.update(self.extra_env)
        env.update(extra or {})
        return env

    def _mounts(self, out: Path) -> Mounts:
        ro = [self.ws.boot, *self.keep]
        ro += [t for t in (self.ws.reference, self.ws.patched) if t.exists()]
        if self.oracle_dir is not None:
            ro.append(self.oracle_dir.resolve())
        return Mounts(read_only=tuple(ro), writable=(out,), masked=self.masked,
                      replaced=self.replaced)

    def start(self, name: str, job: dict[str, Any], *, cwd: Path, timeout: float,
              env: Mapping[str, str] | None = None) -> Started:
        out, log = self.ws.job(name)
        spec = {**job, "stream": str(out / "stream.jsonl"), "tail": self.tail}
        if spec.pop("junit", False):
            spec["args"] = [*spec["args"], f"--junitxml={out / 'junit.xml'}"]
        job_file = self.ws.boot / f"{out.name}.json"
        job_file.write_text(json.dumps(spec), encoding="utf-8")
        argv = [self.python, "-E", str(self.ws.boot / "inside.py"), str(job_file)]
        command = self.sandbox.command(argv, cwd=cwd, mounts=self._mounts(out))
        bounded = start_bounded(command, cwd=cwd, env=self._env(out, env), timeout=timeout,
                                log=log)
        return Started(name, bounded, out, log)

    @staticmethod
    def finish(started: Started, expected_tests: int = 0) -> JobResult:
        finished = started.bounded.finish()
        limit = MAX_STREAM_BYTES + STREAM_BYTES_PER_TEST * expected_tests
        return JobResult(started.name, finished,
                         read_events(started.out / "stream.jsonl", limit), started.out,
                         started.log)

    def run(self, name: str, job: dict[str, Any], *, cwd: Path, timeout: float,
            env: Mapping[str, str] | None = None) -> JobResult:
        return self.finish(self.start(name, job, cwd=cwd, timeout=timeout, env=env))


def _masked_dirs() -> tuple[Path, ...]:
    """Directories hidden behind an empty tmpfs: /tmp, and $HOME (credentials)."""
    masked = [_TMP]
    home = os.environ.get("HOME")
    if home:
        path = Path(home).resolve()
        if path.is_dir() and path != Path("/") and len(path.parts) > 1:
            masked.append(path)
    return tuple(masked)


def read_events(path: Path, limit: int = MAX_STREAM_BYTES) -> tuple[dict[str, Any], ...]:
    """The event stream, at most ``limit`` bytes of it; a line that is not a JSON object
    is skipped (a test it would have reported then gets no result, which counts as
    failed)."""
    try:
        with open(path, "rb") as fh:
            data = fh.read(limit)
    except OSError:
        return ()
    events: list[dict[str, Any]] = []
    for line in data.splitlines():
        try:
            obj = json.loads(line)
        except ValueError:
            continue
        if isinstance(obj, dict):
            events.append(obj)
    return tuple(events)
