"""Gate 5: every locked fixture, checked against its bytes after the patch (PS401-PS403).

- PS402 fixture-missing: a locked path is absent after the patch;
- PS401 fixture-drift: its digest differs, and it is not under a human-owned allow prefix;
- PS403 fixture-wall-clock: a JSON fixture holds a wall-clock field with no declared clock.

An allow prefix exempts content changes only: a locked path that disappears is PS402
wherever it is, and the wall-clock check applies to allowed paths too.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from provscore.checks.base import oracle_check
from provscore.checks.facts import OracleFacts
from provscore.model import Finding, Location
from provscore.oracle.contract import Contract
from provscore.oracle.fixture_lock import FixtureLock, digest_bytes, is_json_path, wall_clock_fields
from provscore.registry.model import Registry, Rule

LOCK_CODES = ("PS401", "PS402", "PS403")


def _short(digest: str) -> str:
    return digest[:12]


def lock_findings(rule: Rule, lock: FixtureLock, read: Callable[[str], bytes | None],
                  contract: Contract) -> Iterator[Finding]:
    """``rule``'s findings over every locked path; ``read(path)`` gives its bytes after
    the patch, or None when it is absent."""
    canonical = lock.canonical_json if lock.canonical_json is not None else contract.canonical_json
    for path, expected in lock.entries.items():
        location = Location(path)
        data = read(path)
        if data is None:
            if rule.code == "PS402":
                yield rule.finding(location=location, anchor=f"PS402:{path}", path=path,
                                   expected=_short(expected))
            continue
        if rule.code == "PS401":
            actual = digest_bytes(path, data, canonical_json=canonical)
            if actual != expected and not contract.allows_fixture_change(path):
                yield rule.finding(location=location, anchor=f"PS401:{path}", path=path,
                                   expected=_short(expected), actual=_short(actual))
        if rule.code == "PS403" and is_json_path(path):
            fields = wall_clock_fields(data, contract)
            if fields:
                shown = ", ".join(fields[:5]) + (f" (+{len(fields) - 5} more)"
                                                 if len(fields) > 5 else "")
                yield rule.finding(location=location, anchor=f"PS403:{path}", path=path,
                                   fields=shown, clock=contract.declared_clock_field)


def verify_lock(registry: Registry, lock: FixtureLock, read: Callable[[str], bytes | None],
                contract: Contract) -> tuple[Finding, ...]:
    """Every gate-5 finding for a lock, in lock order (PS402, or PS401 then PS403)."""
    found = {code: list(lock_findings(registry[code], lock, read, contract))
             for code in LOCK_CODES}
    out: list[Finding] = []
    for path in lock.entries:  # per path: missing, drift, wall clock (as a reader expects)
        for code in ("PS402", "PS401", "PS403"):
            out += [f for f in found[code] if f.location is not None and f.location.path == path]
    return tuple(out)


@oracle_check(*LOCK_CODES)
def fixture_lock(rule: Rule, facts: OracleFacts) -> Iterator[Finding]:
    lock = facts.oracle.lock
    if lock is not None:
        yield from lock_findings(rule, lock, facts.read_post, facts.static.contract)
