"""Qualified-name tables the collectors match against (``rules/patterns.toml``).

Built once per :class:`~provscore.session.Session` from the registry's patterns, plus
the assertion helpers a contract adds. Evidence classified with one set of tables is
kept with them (``memo``, evidence/memo.py), so a session reuses it for every patch.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field
from typing import Any

from provscore.evidence.binding import Signature, signatures_from_table
from provscore.evidence.memo import EvidenceMemo
from provscore.records import dataclass


@dataclass(frozen=True)
class Tables:
    skip_marks: frozenset[str]
    warning_filter_marks: frozenset[str]
    xfail_marks: frozenset[str]
    runtime_skips: frozenset[str]
    import_exits: frozenset[str]
    skip_methods: frozenset[str]
    swallowing_calls: frozenset[str]
    swallowed_exceptions: frozenset[str]
    collection_hooks: frozenset[str]
    collection_variables: frozenset[str]
    report_hooks: frozenset[str]
    pytest_calls: frozenset[str]
    assert_modules: tuple[str, ...]
    assertion_helpers: frozenset[str]
    unittest_methods: frozenset[str]
    mock_methods: frozenset[str]
    checking_methods: frozenset[str]
    hypothesis_given: frozenset[str]
    hypothesis_settings: frozenset[str]
    hypothesis_example: frozenset[str]
    hypothesis_assume: frozenset[str]
    hypothesis_profiles: frozenset[str]
    strategy_modules: tuple[str, ...]
    mock_factories: frozenset[str]
    parametrize: frozenset[str]
    fixture_decorators: frozenset[str]
    expected_reads: frozenset[str]
    helper_name_prefixes: tuple[str, ...]
    mark_roots: frozenset[str]
    rebinding: dict[str, str]
    runner_methods: frozenset[str]
    dynamic_calls: frozenset[str]
    dynamic_modules: frozenset[str]
    safe_decorators: tuple[str, ...]
    label_decorators: frozenset[str]
    load_tests_adding: frozenset[str]
    test_inputs: frozenset[str]
    test_input_methods: frozenset[str]
    test_input_fixtures: frozenset[str]
    # Framework assertion methods' parameters, by method name ([signatures]).
    signatures: Mapping[str, Signature] = field(default_factory=dict)
    # Calls returning a named tuple: its fields in order ([evidence.named_tuples]).
    named_tuples: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # Images classified with these tables (the tables are part of what evidence depends on).
    memo: EvidenceMemo = field(default_factory=EvidenceMemo, init=False, compare=False,
                               repr=False)

    @classmethod
    def from_patterns(cls, patterns: Mapping[str, Mapping[str, Any]],
                      extra_helpers: Iterable[str] = ()) -> Tables:
        """The tables of ``rules/patterns.toml`` (the registry's patterns), plus
        ``extra_helpers``: assertion helpers a contract names."""
        s, e = patterns["suppression"], patterns["evidence"]
        marks = set(s["skip_marks"]) | set(s["xfail_marks"]) | set(s["runtime_skips"])
        return cls(
            skip_marks=frozenset(s["skip_marks"]), xfail_marks=frozenset(s["xfail_marks"]),
            warning_filter_marks=frozenset(s["warning_filter_marks"]),
            runtime_skips=frozenset(s["runtime_skips"]), skip_methods=frozenset(s["skip_methods"]),
            import_exits=frozenset(s["import_exits"]),
            swallowing_calls=frozenset(s["swallowing_calls"]),
            swallowed_exceptions=frozenset(s["swallowed_exceptions"]),
            collection_hooks=frozenset(s["collection_hooks"]),
            collection_variables=frozenset(s["collection_variables"]),
            report_hooks=frozenset(s["report_hooks"]),
            pytest_calls=frozenset(e["pytest_calls"]),
            assert_modules=tuple(e["assert_modules"]),
            assertion_helpers=frozenset(e["assertion_helpers"]) | frozenset(extra_helpers),
            unittest_methods=frozenset(e["unittest_methods"]),
            mock_methods=frozenset(e["mock_methods"]),
            checking_methods=frozenset(e["checking_methods"]),
            hypothesis_given=frozenset(e["hypothesis_given"]),
            hypothesis_settings=frozenset(e["hypothesis_settings"]),
            hypothesis_example=frozenset(e["hypothesis_example"]),
            hypothesis_assume=frozenset(e["hypothesis_assume"]),
            hypothesis_profiles=frozenset(e["hypothesis_profiles"]),
            strategy_modules=tuple(e["strategy_modules"]),
            mock_factories=frozenset(e["mock_factories"]),
            parametrize=frozenset(e["parametrize"]),
            fixture_decorators=frozenset(e["fixture_decorators"]),
            expected_reads=frozenset(e["expected_reads"]),
            helper_name_prefixes=tuple(e["helper_name_prefixes"]),
            # First segments worth resolving on a bare Name (cheap pre-filter).
            mark_roots=frozenset(q.split(".", 1)[0] for q in marks),
            rebinding=dict(s["rebinding"]),
            runner_methods=frozenset(s["runner_methods"]["names"]),
            dynamic_calls=frozenset(s["dynamic"]["calls"]),
            dynamic_modules=frozenset(s["dynamic"]["modules"]),
            safe_decorators=tuple(s["decorators"]["safe_prefixes"]),
            label_decorators=frozenset(s["decorators"].get("labels", ())),
            load_tests_adding=frozenset(s.get("load_tests", {}).get("adding", ())),
            test_inputs=frozenset(e["test_inputs"]),
            test_input_methods=frozenset(e["test_input_methods"]),
            test_input_fixtures=frozenset(e["test_input_fixtures"]),
            signatures=signatures_from_table(patterns.get("signatures", {})),
            named_tuples={q: tuple(fields) for q, fields in e.get("named_tuples", {}).items()},
        )
