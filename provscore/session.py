"""One :class:`Session`: the registry, its pattern tables and caches, built once.

A command builds one session and passes it to every call; a batch worker builds one per
process and reuses it for every patch it scores. Nothing in provscore keeps module-level
state that a session should own: two sessions with different rule directories can live
in one process.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Container, Sequence
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING

from provscore.change.options import OptionEffects
from provscore.checks import DETECTORS
from provscore.checks.suppression import check_kinds
from provscore.evidence import Tables
from provscore.grader import GraderTables
from provscore.grader.inputs import InstalledNames
from provscore.provenance import Strength
from provscore.records import dataclass
from provscore.registry import DetectorTable, Registry, load_registry

if TYPE_CHECKING:
    from provscore.callgraph.cache import SummaryCache


def _memory_cache() -> SummaryCache:
    # The cache's module (and the summary walk it imports) loads only when a session is
    # made without one: a CLI run passes its own.
    from provscore.callgraph.cache import SummaryCache

    return SummaryCache()


@dataclass(frozen=True)
class Session:
    """The registry (rules bound to their detectors) and what is derived from it."""

    registry: Registry
    detectors: DetectorTable
    strength: Strength
    option_effects: OptionEffects
    # Evidence tables per set of extra assertion helpers (a contract may add some).
    _tables: dict[tuple[str, ...], Tables] = field(default_factory=dict, repr=False,
                                                   compare=False)
    # Opens the call-graph summaries by blob hash (in memory, or SQLite at a path): on
    # first use of ``cache``, so a run that builds no graph never loads or opens it.
    open_cache: Callable[[], SummaryCache] = field(default=_memory_cache, repr=False,
                                                   compare=False)
    # The grader stage's tables, and the installed import names (read once, on first use).
    _grader: dict[str, GraderTables] = field(default_factory=dict, repr=False, compare=False)
    _import_names: InstalledNames = field(default_factory=InstalledNames, repr=False,
                                          compare=False)

    @functools.cached_property
    def cache(self) -> SummaryCache:
        """The call-graph summary cache (opened now, once)."""
        return self.open_cache()

    @classmethod
    def load(cls, rules_dir: Path | None = None,
             detectors: DetectorTable | None = None,
             cache: SummaryCache | None = None,
             open_cache: Callable[[], SummaryCache] | None = None) -> Session:
        """Load ``rules/*.toml`` (default: the installed registry) and bind every rule to
        its detector; a rule without one, or a detector without a rule, is an error.
        ``cache``: the call-graph summary cache, or ``open_cache`` what opens it when it
        is first used (default: in memory only)."""
        table = detectors or DETECTORS
        registry = load_registry(rules_dir, table)
        check_kinds(registry)
        return cls(registry, table,
                   Strength.from_patterns(registry.pattern("strength"),
                                          registry.pattern("conditions"),
                                          registry.pattern("runner_options")),
                   OptionEffects.from_patterns(registry.pattern("runner_options")),
                   open_cache=open_cache or ((lambda: cache) if cache is not None
                                             else _memory_cache))

    def evidence_tables(self, extra_helpers: Sequence[str] = ()) -> Tables:
        """The collectors' qualified-name tables, plus a contract's assertion helpers."""
        key = tuple(extra_helpers)
        tables = self._tables.get(key)
        if tables is None:
            tables = Tables.from_patterns(self.registry.patterns, key)
            self._tables[key] = tables
        return tables

    def grader_tables(self) -> GraderTables:
        if not self._grader:
            self._grader["tables"] = GraderTables.from_patterns(self.registry.patterns)
        return self._grader["tables"]

    def import_names(self) -> Container[str]:
        """Top-level names of the installed distributions (PS808), read on first use."""
        return self._import_names
