"""One long-lived ``git cat-file --batch`` process, asked for blobs by object id.

A batch worker reads the blobs of thousands of patches from one mirror; starting a
``cat-file`` process per read was most of the git processes it spawned. This reader keeps
one process and talks git's batch protocol with it: a request line is an object id (only
ever a full hex id, never a path or a revision, so no request can stand for another
object), the answer a header ``<id> <type> <size>`` and the contents, or ``<id> missing``.

A process that dies (killed, out of memory) is started again once and the unanswered
requests are asked again; a second failure, or an answer that breaks the protocol, is a
:class:`~provscore.errors.GitError` naming the repository: nothing is ever read from a
half-written answer.
"""

from __future__ import annotations

import subprocess
import tempfile
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO

from provscore.errors import GitError

# Requests written before their answers are read: their lines (at most 65 bytes each) stay
# within the 4 KiB a pipe always holds, so git never waits on its stdout while this
# process waits on git's stdin.
_REQUESTS_PER_ROUND = 48


class _Broken(Exception):
    """The process ended or answered outside the protocol (the message says how)."""


class CatFile:
    """``git cat-file --batch`` in ``root``, started on first use, kept until close()."""

    def __init__(self, root: Path, env: Mapping[str, str]) -> None:
        self.root = root
        self.env = dict(env)
        self._proc: subprocess.Popen[bytes] | None = None
        self._stderr: IO[bytes] | None = None
        self._finalizer: Callable[[], object] | None = None
        self.starts = 0  # how many processes were started (a restart counts)

    @property
    def pid(self) -> int | None:
        """The running process's id (None before the first read and after close())."""
        return self._proc.pid if self._proc is not None else None

    def read(self, shas: Sequence[str]) -> dict[str, bytes]:
        """The bytes of every blob among ``shas`` (full hex ids); missing ids and objects
        that are not blobs are absent."""
        result: dict[str, bytes] = {}
        for start in range(0, len(shas), _REQUESTS_PER_ROUND):
            result.update(self._round(shas[start:start + _REQUESTS_PER_ROUND]))
        return result

    def close(self) -> None:
        """End the process (closing its stdin ends it) and wait for it."""
        if self._finalizer is not None:
            self._finalizer()
        self._proc = self._stderr = self._finalizer = None

    def _round(self, shas: Sequence[str]) -> dict[str, bytes]:
        for attempt in (1, 2):
            try:
                return self._ask(self._running(), shas)
            except _Broken as exc:
                detail = self._stderr_tail()
                self.close()
                if attempt == 2:
                    raise GitError(f"git cat-file --batch failed twice: {exc}"
                                   f"{f' ({detail})' if detail else ''}",
                                   path=str(self.root)) from None
        raise AssertionError("unreachable")

    def _running(self) -> subprocess.Popen[bytes]:
        if self._proc is not None and self._proc.poll() is None:
            return self._proc
        self.close()
        stderr = tempfile.TemporaryFile()  # noqa: SIM115  closed by _stop with the process
        try:
            proc = subprocess.Popen(["git", "-C", str(self.root), "cat-file", "--batch"],
                                    stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=stderr, env=self.env)
        except FileNotFoundError:
            stderr.close()
            raise GitError("git is not installed or not on PATH") from None
        self._proc, self._stderr, self.starts = proc, stderr, self.starts + 1
        self._finalizer = weakref.finalize(self, _stop, proc, stderr)
        return proc

    def _stderr_tail(self) -> str:
        """git's last line on stderr, once the process has ended (ended here if it still
        runs after answering outside the protocol)."""
        if self._proc is None or self._stderr is None:
            return ""
        try:
            self._proc.wait(timeout=1)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()
        self._stderr.seek(0)
        lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else f"exit {self._proc.returncode}"

    @staticmethod
    def _ask(proc: subprocess.Popen[bytes], shas: Sequence[str]) -> dict[str, bytes]:
        assert proc.stdin is not None and proc.stdout is not None
        try:
            proc.stdin.write("".join(f"{s}\n" for s in shas).encode("ascii"))
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise _Broken(f"the process ended ({type(exc).__name__})") from None
        blobs: dict[str, bytes] = {}
        for sha in shas:
            line = proc.stdout.readline()
            if not line.endswith(b"\n"):
                raise _Broken("the process ended before answering")
            header = line.decode("ascii", "replace").split()
            if header == [sha, "missing"]:
                continue
            if len(header) != 3 or header[0] != sha or not header[2].isdigit():
                raise _Broken(f"unexpected answer {line[:80]!r} for {sha}")
            size = int(header[2])
            data = proc.stdout.read(size + 1)  # the contents and their newline
            if len(data) != size + 1 or data[-1:] != b"\n":
                raise _Broken("the process ended in the middle of an object")
            if header[1] == "blob":
                blobs[sha] = data[:-1]
        return blobs


def _stop(proc: subprocess.Popen[bytes], stderr: IO[bytes]) -> None:
    """End a reader's process (also when its reader is collected without close())."""
    for stream in (proc.stdin, proc.stdout):
        try:
            if stream is not None:
                stream.close()
        except OSError:
            pass
    try:
        proc.wait(timeout=5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    stderr.close()
