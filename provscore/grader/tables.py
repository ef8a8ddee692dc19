"""The grader stage's name tables (``rules/patterns.toml`` ``[grader]``), built once per
:class:`~provscore.session.Session`."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from provscore.records import dataclass


def _set(raw: Mapping[str, Any], key: str) -> frozenset[str]:
    return frozenset(str(v) for v in raw[key])


def _tuple(raw: Mapping[str, Any], key: str) -> tuple[str, ...]:
    return tuple(str(v) for v in raw[key])


@dataclass(frozen=True)
class GraderTables:
    comparison_dunders: frozenset[str]
    unary_dunders: frozenset[str]
    exit_calls: frozenset[str]
    exit_raises: frozenset[str]
    kill_calls: frozenset[str]
    own_pids: frozenset[str]
    output_streams: frozenset[str]
    output_writers: frozenset[str]
    runner_summaries: tuple[re.Pattern[str], ...]
    fd_redirects: frozenset[str]
    frame_calls: frozenset[str]
    test_words: tuple[str, ...]
    test_word: re.Pattern[str]  # any of test_words at the start of a word
    test_env_prefixes: tuple[str, ...]
    test_frameworks: frozenset[str]
    module_registries: frozenset[str]
    argv: frozenset[str]
    path_calls: frozenset[str]
    patched_modules: frozenset[str]
    environ: frozenset[str]
    env_setters: frozenset[str]
    runner_env_prefixes: tuple[str, ...]
    patchers: frozenset[str]
    shadowing_ignored: frozenset[str]
    # Normalised distribution → import names, for declared dependencies not installed.
    distribution_imports: Mapping[str, tuple[str, ...]]
    # From [evidence]: how tests patch what they run under (PS809 reads their targets).
    test_inputs: frozenset[str]
    test_input_fixtures: frozenset[str]
    parametrize: frozenset[str]

    @classmethod
    def from_patterns(cls, patterns: Mapping[str, Mapping[str, Any]]) -> GraderTables:
        g, e = patterns["grader"], patterns["evidence"]
        return cls(
            comparison_dunders=_set(g, "comparison_dunders"),
            unary_dunders=_set(g, "unary_dunders"), exit_calls=_set(g, "exit_calls"),
            exit_raises=_set(g, "exit_raises"), kill_calls=_set(g, "kill_calls"),
            own_pids=_set(g, "own_pids"), output_streams=_set(g, "output_streams"),
            output_writers=_set(g, "output_writers"),
            runner_summaries=tuple(re.compile(p) for p in _tuple(g, "runner_summaries")),
            fd_redirects=_set(g, "fd_redirects"), frame_calls=_set(g, "frame_calls"),
            test_words=tuple(w.lower() for w in _tuple(g, "test_words")),
            test_word=re.compile(r"(?<![a-z0-9])(?:" + "|".join(
                map(re.escape, _tuple(g, "test_words"))) + ")", re.IGNORECASE),
            test_env_prefixes=_tuple(g, "test_env_prefixes"),
            test_frameworks=_set(g, "test_frameworks"),
            module_registries=_set(g, "module_registries"), argv=_set(g, "argv"),
            path_calls=_set(g, "path_calls"), patched_modules=_set(g, "patched_modules"),
            environ=_set(g, "environ"), env_setters=_set(g, "env_setters"),
            runner_env_prefixes=_tuple(g, "runner_env_prefixes"),
            patchers=_set(g, "patchers"), shadowing_ignored=_set(g, "shadowing_ignored"),
            distribution_imports={d.strip(): tuple(n.strip() for n in names.split(","))
                                  for d, _, names in (str(v).partition("=")
                                                      for v in g["distribution_imports"])},
            test_inputs=_set(e, "test_inputs"), test_input_fixtures=_set(e, "test_input_fixtures"),
            parametrize=_set(e, "parametrize"),
        )

    def has_test_word(self, text: str) -> bool:
        """A test word at the start of a word: ``test_x``, ``tests/``, ``my_test``,
        ``pytest``; not ``latest`` or ``attestation``."""
        return self.test_word.search(text) is not None
