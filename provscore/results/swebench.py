"""SWE-bench ``report.json``: instance ids mapped to their ``tests_status`` lists."""

from __future__ import annotations

from collections.abc import Mapping

from provscore.errors import InputError
from provscore.results.model import Record, Verdict

_SWEBENCH_KEYS = frozenset(
    {"tests_status", "patch_is_None", "patch_exists", "patch_successfully_applied", "resolved"}
)
_SWEBENCH_LISTS: Mapping[str, Verdict] = {"success": Verdict.PASSED, "failure": Verdict.FAILED}


def is_swebench(document: object) -> bool:
    return (
        isinstance(document, dict)
        and bool(document)
        and all(
            isinstance(entry, dict) and not _SWEBENCH_KEYS.isdisjoint(entry)
            for entry in document.values()
        )
    )


def parse_swebench(document: object, source: str) -> list[Record]:
    """Instances without ``tests_status`` (the patch did not apply, tests errored) add none."""
    assert isinstance(document, dict)
    records: list[Record] = []
    for instance, entry in document.items():
        status = entry.get("tests_status")
        if status is None:
            continue
        if not isinstance(status, dict):
            raise InputError(f"SWE-bench {instance}: 'tests_status' is not an object", path=source)
        for category, lists in status.items():
            where = f"SWE-bench {instance}: tests_status.{category}"
            if not isinstance(lists, dict):
                raise InputError(f"{where} is not an object", path=source)
            for key, verdict in _SWEBENCH_LISTS.items():
                ids = lists.get(key, [])
                if not isinstance(ids, list) or not all(isinstance(t, str) and t for t in ids):
                    raise InputError(
                        f"{where}.{key} is not a list of non-empty strings", path=source
                    )
                records.extend(Record(node_id=t, verdict=verdict) for t in ids)
    return records
