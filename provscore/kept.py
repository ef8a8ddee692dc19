"""Values kept by the source bytes they were computed from, the most recently used first.

For answers that depend on a file's bytes alone (its ``ast`` tree, its parse limits): equal
bytes, equal answer. A store is bounded in count and in bytes of source at every put (the
bounds are the caller's, read when it puts), and safe to share between threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

V = TypeVar("V")


class KeptBySource(Generic[V]):
    def __init__(self) -> None:
        self._kept: OrderedDict[bytes, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, source: bytes) -> V | None:
        with self._lock:
            value = self._kept.get(source)
            if value is not None:
                self._kept.move_to_end(source)
            return value

    def put(self, source: bytes, value: V, *, count: int, size: int) -> None:
        """Keep ``value`` (not when the source alone is over ``size`` bytes), then drop the
        least recently used until at most ``count`` values and ``size`` bytes are kept."""
        if len(source) > size:
            return
        with self._lock:
            self._kept[source] = value
            self._kept.move_to_end(source)
            total = sum(len(s) for s in self._kept)
            while len(self._kept) > count or total > size:
                dropped, _ = self._kept.popitem(last=False)
                total -= len(dropped)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
