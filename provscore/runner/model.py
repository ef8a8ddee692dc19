"""What the off-tree runner takes and gives: typed, frozen records.

A :class:`RunRecord` is everything one run produced: one
:class:`~provscore.results.RunResults` per repeat (base tests and oracle properties,
with a result for every base test collected at base), the environment
:class:`Fingerprint`, the corpus digest, the bounded failure digest, and what went wrong
on the way (timeouts, protected paths that changed, why nothing ran at all).
"""

from __future__ import annotations

from dataclasses import field
from typing import Any, Literal

from provscore.progress import Progress
from provscore.records import dataclass
from provscore.results import RunResults

SandboxMode = Literal["auto", "none"]


@dataclass(frozen=True, slots=True)
class RunOptions:
    """How to run: chosen on the command line (the contract adds policy)."""

    repeat: int = 1
    python: str | None = None  # the interpreter the tests run in; None: the current one
    sandbox: SandboxMode = "auto"  # "none": run unsandboxed even where bwrap works
    require_sandbox: bool = False  # no sandbox is a reject, and nothing runs
    patch_id: str | None = None  # None: derived from the patch's bytes
    subset: tuple[str, ...] = ()  # base node ids or paths; () = the full base corpus
    record_flakes: bool = False  # append every result to the flake ledger
    # Told as the repeats of the base corpus finish (the CLI's progress line on a terminal).
    progress: Progress | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """The environment the tests ran in (seed 004's invariant 3)."""

    python: str  # "3.11.7"
    implementation: str  # "CPython"
    platform: str  # platform.platform()
    executable: str
    distributions: tuple[str, ...]  # "name==version", sorted, one per distribution name
    lock_hash: str  # sha256 over the dependency lock files at base; "" when there are none
    digest: str  # 16 hex characters over everything above but the executable

    def to_json(self) -> dict[str, Any]:
        return {"python": self.python, "implementation": self.implementation,
                "platform": self.platform, "executable": self.executable,
                "distributions": list(self.distributions), "lock_hash": self.lock_hash,
                "digest": self.digest}


@dataclass(frozen=True, slots=True)
class FailureDigest:
    """The last K lines of one failing test id's failure (never the whole log)."""

    node_id: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Kill:
    """A process stopped at its wall clock."""

    what: str  # "collection at base", "repeat 2", a property id
    seconds: float  # the wall clock it exceeded
    running: str | None = None  # the test that had started and not finished, if known
    without_result: int = 0  # base tests that got no result because of it


@dataclass(frozen=True, slots=True)
class RunRecord:
    """One off-tree run of the base corpus and the oracle properties against a patch."""

    run_id: str
    patch_id: str
    subset: str = "full"
    sandbox: str = "none"  # "bwrap" | "none"
    sandbox_note: str = ""  # why there was no sandbox, or the sandbox's description
    require_sandbox: bool = False
    repeats: int = 0
    wall_seconds: float = 0.0
    corpus_digest: str | None = None
    expected_corpus_digest: str | None = None
    fingerprint: Fingerprint | None = None
    base_tests: tuple[str, ...] = ()  # node ids collected at base (the reference tree)
    runs: tuple[RunResults, ...] = ()  # one per repeat; properties are in the first
    properties: tuple[str, ...] = ()  # node ids of the oracle properties that ran
    property_timeouts: tuple[Kill, ...] = ()
    kills: tuple[Kill, ...] = ()  # base corpus processes stopped at the wall clock
    # Base tests without a result because their run was killed at the wall clock.
    killed_ids: frozenset[str] = field(default_factory=frozenset)
    failures: tuple[FailureDigest, ...] = ()
    tampered: tuple[str, ...] = ()  # protected paths that changed while patched code ran
    refused: str | None = None  # why nothing ran (then ``runs`` is empty)
    base_error: str | None = None  # why the base tests could not be collected (no evidence)
    cap: tuple[int, int] | None = None  # (runs already recorded, cap) when the cap refused
    out_dir: str | None = None

    @property
    def ran(self) -> bool:
        return self.refused is None

    def to_json(self) -> dict[str, Any]:
        """The run as the JSON report's ``run`` object (docs/report.md)."""
        return {
            "run_id": self.run_id, "patch_id": self.patch_id, "subset": self.subset,
            "refused": self.refused, "base_error": self.base_error, "sandbox": self.sandbox,
            "sandbox_note": self.sandbox_note,
            "repeats": self.repeats, "wall_seconds": round(self.wall_seconds, 3),
            "corpus_digest": self.corpus_digest,
            "expected_corpus_digest": self.expected_corpus_digest,
            "fingerprint": None if self.fingerprint is None else self.fingerprint.to_json(),
            "base_tests": len(self.base_tests), "properties": len(self.properties),
            "timeouts": [{"what": k.what, "seconds": k.seconds, "running": k.running,
                          "without_result": k.without_result}
                         for k in (*self.kills, *self.property_timeouts)],
            "tampered": list(self.tampered),
            "failures": [{"node_id": f.node_id, "lines": list(f.lines)} for f in self.failures],
            "out_dir": self.out_dir,
        }
