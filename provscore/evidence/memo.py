"""Classified images kept for the patches that follow (one session's, bounded).

A batch worker scores hundreds of patches against one base commit: the same pre-image
(a test module, a conftest, a helper module) is classified again for every one of them.
Classification is a deterministic function of the path, the bytes classified, the
collection rules, the tables and the answers the helper lookup gives, so an image is
kept under everything but the lookup, and a kept image is reused only when every
question it asked the lookup gets the same answer again, asked in the same order.

The key is the bytes actually classified: a focused image (evidence/focus.py) is its
blanked text, so an image focused on other definitions is another entry. The lookup's
answers may differ between patches (it reads a helper module the patch edits after the
patch), which is why they are checked, not assumed: a lookup answers from the question
and the questions asked before it, and asking again changes nothing (``HelperIndex``
caches each module it reads), so replaying a kept image's questions asks only what a
fresh classification would ask first.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from provscore.change.collection import CollectionConfig
from provscore.evidence.model import FileEvidence, SuppressionKind
from provscore.records import dataclass

if TYPE_CHECKING:
    from provscore.evidence.context import HelperLookup

#: Bytes of source whose evidence is kept (least recently used first out).
DEFAULT_BUDGET = 8 * 1024 * 1024

# (method, arguments, answer) of one question to the lookup.
Question = tuple[str, tuple[str | bool, ...], object]
# path, digest of the classified bytes, tests collected, limits measured, rules, lookup?
Key = tuple[str, bytes, bool, bool, CollectionConfig, bool]


class _Recording:
    """A lookup that answers as ``inner`` does and writes down every question (every
    method of the HelperLookup protocol: a method it lacked would go unrecorded)."""

    def __init__(self, inner: HelperLookup) -> None:
        self.inner = inner
        self.questions: list[Question] = []

    def _ask(self, method: str, *args: str | bool) -> Any:
        answer = _answer(self.inner, (method, args, None))
        self.questions.append((method, args, answer))
        return answer

    def __call__(self, importer: str, qualname: str) -> bool:
        return bool(self._ask("helper", importer, qualname))

    def skip_kind(self, importer: str, qualname: str) -> SuppressionKind | None:
        return cast(SuppressionKind | None, self._ask("skip_kind", importer, qualname))

    def transparent(self, importer: str, qualname: str, factory: bool) -> bool:
        return bool(self._ask("transparent", importer, qualname, factory))

    def test_methods(self, importer: str, qualname: str) -> tuple[str, ...]:
        return cast(tuple[str, ...], self._ask("test_methods", importer, qualname))

    def unittest_class(self, importer: str, qualname: str) -> bool:
        return bool(self._ask("unittest_class", importer, qualname))

    def signature(self, importer: str, qualname: str) -> tuple[str, str] | None:
        return cast(tuple[str, str] | None, self._ask("signature", importer, qualname))

    def self_reads(self, importer: str, qualname: str) -> tuple[str, ...] | None:
        return cast(tuple[str, ...] | None, self._ask("self_reads", importer, qualname))

    def check_params(self, importer: str, qualname: str) -> tuple[str, ...]:
        return cast(tuple[str, ...], self._ask("check_params", importer, qualname))


def _answer(lookup: HelperLookup, question: Question) -> object:
    method, args, _ = question
    if method == "helper":
        return lookup(str(args[0]), str(args[1]))
    return getattr(lookup, method)(*args)


@dataclass(frozen=True, slots=True)
class _Kept:
    questions: tuple[Question, ...]
    evidence: FileEvidence
    size: int


class EvidenceMemo:
    """Evidence of classified images, reused where classifying again cannot differ."""

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.hits = 0
        self.misses = 0
        self._kept: OrderedDict[Key, list[_Kept]] = OrderedDict()
        self._size = 0

    def classified(self, path: str, source: bytes, collect: bool, measured: bool,
                   config: CollectionConfig, lookup: HelperLookup | None,
                   classify: Callable[[HelperLookup | None], FileEvidence]) -> FileEvidence:
        """The evidence ``classify(lookup)`` gives, from a kept image when one asked
        ``lookup`` nothing it would now answer differently."""
        key: Key = (path, hashlib.blake2b(source, digest_size=20).digest(), collect,
                    measured, config, lookup is None)
        variants = self._kept.get(key)
        if variants is not None:
            self._kept.move_to_end(key)
            for kept in variants:
                if lookup is None or all(_answer(lookup, q) == q[2] for q in kept.questions):
                    self.hits += 1
                    return kept.evidence
        self.misses += 1
        recording = _Recording(lookup) if lookup is not None else None
        evidence = classify(recording)
        if len(source) <= self.budget:
            questions = tuple(recording.questions) if recording is not None else ()
            self._kept.setdefault(key, []).append(_Kept(questions, evidence, len(source)))
            self._kept.move_to_end(key)
            self._size += len(source)
            self._evict()
        return evidence

    def _evict(self) -> None:
        while self._size > self.budget and self._kept:
            _, variants = self._kept.popitem(last=False)
            self._size -= sum(k.size for k in variants)

    def clear(self) -> None:
        self._kept.clear()
        self._size = 0
