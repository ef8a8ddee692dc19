"""Progress of a batch on stderr: a bar on a TTY, plain lines otherwise, or nothing."""

from __future__ import annotations

import sys
import time
from typing import TextIO

_LINE_EVERY = 10.0  # seconds between plain progress lines


class Progress:
    """Counts, rate, ETA and failures so far (unscored rows)."""

    def __init__(self, total: int = 0, *, stream: TextIO | None = None,
                 enabled: bool = True, tty: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = enabled
        self.tty = self.stream.isatty() if tty is None else tty
        self.total, self.done, self.failed = total, 0, 0
        self.started = self._last = time.monotonic()

    def start(self, total: int) -> None:
        self.total = total
        self.started = self._last = time.monotonic()
        if self.enabled and not self.tty:
            self._write(f"provscore batch: {total} patch(es) to score\n")

    def advance(self, rows: int, failed: int) -> None:
        self.done += rows
        self.failed += failed
        if not self.enabled:
            return
        now = time.monotonic()
        if self.tty:
            self._write(f"\r{self.line(now)}\x1b[K")
        elif now - self._last >= _LINE_EVERY:
            self._last = now
            self._write(self.line(now) + "\n")

    def finish(self) -> None:
        if not self.enabled:
            return
        text = self.line(time.monotonic())
        self._write(f"\r{text}\x1b[K\n" if self.tty else text + "\n")

    def line(self, now: float) -> str:
        elapsed = max(now - self.started, 1e-9)
        rate = self.done / elapsed
        left = (self.total - self.done) / rate if rate > 0 else None
        width = 24
        filled = width * self.done // self.total if self.total else width
        bar = f"[{'#' * filled}{'.' * (width - filled)}] " if self.tty else ""
        eta = "--" if left is None else _duration(left)
        return (f"{bar}{self.done}/{self.total} patches, {rate:.1f}/s, ETA {eta}, "
                f"{self.failed} unscored")

    def _write(self, text: str) -> None:
        self.stream.write(text)
        self.stream.flush()


def _duration(seconds: float) -> str:
    s = round(seconds)
    return f"{s // 3600}h{s % 3600 // 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"
