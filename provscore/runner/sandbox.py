"""The sandbox every execution of patched code runs in, and the wall clock around it.

With bubblewrap (``bwrap``) each process gets: the host file system read-only, a private
``/tmp`` and ``$HOME`` and no view of the original checkout (empty tmpfs over each, so no
credential or untracked secret of the host is readable; the repository's git directory
stays readable with its ``config`` replaced by one without remotes or credentials), the
trees and the oracle dir read-only, one writable output directory of its own, no
network (a new, empty network namespace), a new PID namespace (nothing it starts
survives it), no capabilities (even when provscore runs as root: with them a process
could remount the read-only binds), no nested user namespaces, and it is killed with its
parent. Without a working bwrap the same command runs directly (:class:`Sandbox` with
``kind == "none"``), which the report says (PS508).

The wall clock is enforced here, in provscore's own process, never by anything the
patched code can reach: a process still running at its deadline is killed with its
whole process group.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import subprocess
import time
from collections.abc import Mapping, Sequence
from dataclasses import field
from pathlib import Path
from typing import IO

from provscore.records import dataclass
from provscore.runner.model import SandboxMode

_PROBE_TIMEOUT = 20.0
_BWRAP_FLAGS = ("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent",
                "--new-session", "--cap-drop", "ALL")


@dataclass(frozen=True, slots=True)
class Mounts:
    """What one sandboxed process may see besides the read-only host."""

    read_only: tuple[Path, ...] = ()
    writable: tuple[Path, ...] = ()
    masked: tuple[Path, ...] = ()  # replaced by an empty private tmpfs
    replaced: tuple[tuple[Path, Path], ...] = ()  # (our file, the path it stands in for)


@dataclass(frozen=True, slots=True)
class Sandbox:
    kind: str  # "bwrap" | "none"
    note: str  # why there is none, or which bwrap
    bwrap: str | None = None

    @property
    def active(self) -> bool:
        return self.kind == "bwrap"

    def command(self, argv: Sequence[str], *, cwd: Path, mounts: Mounts) -> list[str]:
        """``argv`` wrapped in the sandbox (unchanged without one)."""
        if self.bwrap is None:
            return list(argv)
        out = [self.bwrap, *_BWRAP_FLAGS, "--ro-bind", "/", "/", "--dev", "/dev",
               "--proc", "/proc"]
        for path in sorted(set(mounts.masked), key=lambda p: len(p.parts)):
            out += ["--tmpfs", str(path)]
        # Parents before children, read-only before writable: a later mount wins.
        for path in sorted(set(mounts.read_only), key=lambda p: len(p.parts)):
            out += ["--ro-bind", str(path), str(path)]
        for path in sorted(set(mounts.writable), key=lambda p: len(p.parts)):
            out += ["--bind", str(path), str(path)]
        for source, target in mounts.replaced:
            out += ["--ro-bind", str(source), str(target)]
        return [*out, "--chdir", str(cwd), "--", *argv]


@functools.cache
def _bwrap_problem(bwrap: str) -> str | None:
    """Why this bwrap cannot start a sandbox here (None: it can). Asked once per process."""
    try:
        proc = subprocess.run([bwrap, *_BWRAP_FLAGS, "--ro-bind", "/", "/", "--dev", "/dev",
                               "--proc", "/proc", "--", "true"], capture_output=True,
                              timeout=_PROBE_TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"{type(exc).__name__}: {exc}"
    if proc.returncode != 0:
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else f"exit {proc.returncode}"
    return None


def detect_sandbox(mode: SandboxMode) -> Sandbox:
    """bubblewrap when it is installed and works, else no sandbox (with the reason)."""
    if mode == "none":
        return Sandbox("none", "--no-sandbox was given")
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return Sandbox("none", "bubblewrap (bwrap) is not installed")
    problem = _bwrap_problem(bwrap)
    if problem is not None:
        return Sandbox("none", f"bwrap is installed but cannot start a sandbox: {problem}")
    return Sandbox("bwrap", f"bubblewrap ({bwrap})", bwrap)


# --------------------------------------------------------------------------- wall clock


@dataclass(frozen=True, slots=True)
class Finished:
    """How a bounded process ended."""

    returncode: int | None  # None: killed at the wall clock
    seconds: float
    limit: float  # the wall clock it had

    @property
    def timed_out(self) -> bool:
        return self.returncode is None


@dataclass
class Bounded:
    """A started process and its deadline (``finish`` waits for one or the other)."""

    proc: subprocess.Popen[bytes]
    started: float
    timeout: float
    log: IO[bytes] = field(repr=False)

    def finish(self) -> Finished:
        remaining = max(0.0, self.started + self.timeout - time.monotonic())
        try:
            code: int | None = self.proc.wait(timeout=remaining)
        except subprocess.TimeoutExpired:
            code = None
        finally:
            # Also on success: whatever the process left behind in its group goes too
            # (inside bwrap its PID namespace already took everything with it).
            self.finish_now()
        return Finished(code, time.monotonic() - self.started, self.timeout)

    def finish_now(self) -> None:
        """Stop it (and its group) without waiting for its end, and close its log."""
        kill_group(self.proc)
        self.log.close()


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        proc.wait()


def start_bounded(argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float,
                  log: Path) -> Bounded:
    """Start ``argv`` in its own session (its own process group), output to ``log``."""
    out = open(log, "wb")  # noqa: SIM115  closed by Bounded.finish
    try:
        proc = subprocess.Popen(list(argv), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL,
                                stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    except BaseException:
        out.close()
        raise
    return Bounded(proc, time.monotonic(), timeout, out)


def run_bounded(argv: Sequence[str], *, cwd: Path, env: Mapping[str, str], timeout: float,
                log: Path) -> Finished:
    """Run ``argv`` to its end or its deadline; on Ctrl-C too it does not outlive us."""
    return start_bounded(argv, cwd=cwd, env=env, timeout=timeout, log=log).finish()
