"""Progress on long work: one line on standard error, redrawn in place.

A stage that loops over many items (the files of a diff, the runs of ``verify``, the
patches of a batch) calls a :data:`Progress` callback with what it is doing and how far
it is. The CLI passes :class:`ProgressLine` only when standard error is a terminal and
``-q`` was not given; otherwise nothing is passed and nothing is printed, so logs and
pipes stay clean.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TextIO

#: ``progress(what, done, total)``: ``done`` of ``total`` items of ``what`` are finished.
Progress = Callable[[str, int, int], None]

_CLEAR = "\r\x1b[K"


class ProgressLine:
    """Draws ``provscore: <what> <done>/<total>`` in place, at most ``per_second`` times
    a second (the first and last update always), and clears it when the work ends."""

    def __init__(self, stream: TextIO, per_second: float = 10.0) -> None:
        self.stream = stream
        self.interval = 1.0 / per_second
        self._last = 0.0
        self._shown = False

    def __call__(self, what: str, done: int, total: int) -> None:
        now = time.monotonic()
        if self._shown and done not in (0, total) and now - self._last < self.interval:
            return
        self._last = now
        self._shown = True
        self.stream.write(f"{_CLEAR}provscore: {what} {done}/{total}")
        self.stream.flush()

    def close(self) -> None:
        """Remove the line, so the report starts on a clean line."""
        if self._shown:
            self.stream.write(_CLEAR)
            self.stream.flush()
            self._shown = False
