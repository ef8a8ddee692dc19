"""The one script that runs inside the sandbox, in the interpreter chosen with ``--python``.

It never imports provscore (the test environment need not have it) and it is copied
next to its job file, so nothing of the trees is on ``sys.path`` when it starts. Usage:
``python -E inside.py JOB.json``. The job names a mode:

* ``pytest``: run ``pytest.main(args)`` with a small plugin that streams one JSON line per
  event to ``stream``: ``collected`` (the node ids, after deselection), ``start`` (a test
  began), ``result`` (a test finished: its outcome, computed from its phases as pytest's
  JUnit writer does, with its exact node id), ``fail`` and ``collect_error`` (the last
  ``tail`` lines of the failure); the frozen ids in ``deselect`` are deselected;
* ``call``: import a file and call one function of it (a catalog's check function); an
  exception is a ``fail`` event.

pytest and its plugins are loaded *before* the tree's import roots go on ``sys.path`` (the
plugin's ``pytest_load_initial_conftests``: after every plugin, before any conftest), and
the roots go in after the standard library and before site-packages: a module the patch
adds (``pytest.py``, ``json.py``, a plugin's name) cannot stand in for them, and the
patched package still wins over an installed copy of itself. The process ends with
``os._exit`` right after pytest returns, so no ``atexit`` hook of the patched code runs
after the results were written.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from typing import IO, Any

MAX_LINE = 300
# Larger is worse: a test's outcome is the worst of its phases'.
SEVERITY = {"passed": 0, "xfailed": 1, "skipped": 2, "xpassed": 3, "failed": 4, "error": 5}


def tail(text: str, k: int) -> list[str]:
    lines = [line.rstrip() for line in text.splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    return [line[:MAX_LINE] for line in lines[-k:]]


class Stream:
    """The pytest plugin: one JSON object per line, flushed as it happens."""

    def __init__(self, fh: IO[str], k: int, deselect: list[str], roots: list[str]) -> None:
        self.fh = fh
        self.k = k
        self.deselect = deselect
        self.roots = roots
        self.state: dict[str, dict[str, Any]] = {}

    def pytest_load_initial_conftests(self, early_config: Any, parser: Any,
                                      args: Any) -> None:
        # Every plugin is loaded by now, the conftests are not: the tree's roots go on
        # sys.path only here, so no module of the tree can stand in for a plugin.
        insert_roots(self.roots)

    def emit(self, obj: dict[str, Any]) -> None:
        self.fh.write(json.dumps(obj) + "\n")
        self.fh.flush()

    def pytest_collection_modifyitems(self, session: Any, config: Any, items: list[Any]) -> None:
        # Exactly the frozen ids and their parametrizations: pytest's --deselect would also
        # drop every id that merely starts with the same text (test_a and test_ab).
        if not self.deselect:
            return
        keep: list[Any] = []
        drop: list[Any] = []
        for item in items:
            (drop if any(covers(f, item.nodeid) for f in self.deselect) else keep).append(item)
        if drop:
            config.hook.pytest_deselected(items=drop)
            items[:] = keep

    def pytest_collection_finish(self, session: Any) -> None:
        self.emit({"event": "collected", "ids": [item.nodeid for item in session.items]})

    def pytest_collectreport(self, report: Any) -> None:
        if report.failed:
            self.emit({"event": "collect_error", "nodeid": report.nodeid,
                       "lines": tail(report.longreprtext, self.k)})

    def pytest_runtest_logstart(self, nodeid: str, location: Any) -> None:
        self.emit({"event": "start", "nodeid": nodeid})

    def pytest_runtest_logreport(self, report: Any) -> None:
        state = self.state.setdefault(report.nodeid, {"outcome": "passed", "message": "",
                                                      "duration": 0.0})
        state["duration"] += float(getattr(report, "duration", 0.0) or 0.0)
        outcome = phase_outcome(report)
        if outcome is not None and (SEVERITY[outcome] > SEVERITY[state["outcome"]]
                                    or state["outcome"] == "passed"):
            state["outcome"] = outcome
            state["message"] = message_of(report)
        if report.failed:
            self.emit({"event": "fail", "nodeid": report.nodeid, "when": report.when,
                       "lines": tail(report.longreprtext, self.k)})

    def pytest_runtest_logfinish(self, nodeid: str, location: Any) -> None:
        state = self.state.pop(nodeid, {"outcome": "error", "message": "no report",
                                        "duration": 0.0})
        self.emit({"event": "result", "nodeid": nodeid, **state})


def phase_outcome(report: Any) -> str | None:
    """One phase's contribution to the test's outcome (None: it decides nothing)."""
    xfail = hasattr(report, "wasxfail")
    if report.when == "call":
        if report.passed:
            return "xpassed" if xfail else "passed"
        if report.skipped:
            return "xfailed" if xfail else "skipped"
        return "failed"
    if report.failed:
        return "error"
    if report.skipped:
        return "xfailed" if xfail else "skipped"
    return None


def message_of(report: Any) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:  # a skip: (path, line, reason)
        return str(longrepr[2])[:MAX_LINE]
    crash = getattr(getattr(longrepr, "reprcrash", None), "message", None)
    if isinstance(crash, str) and crash.strip():
        return crash.strip().splitlines()[0][:MAX_LINE]
    lines = tail(str(getattr(report, "longreprtext", "") or ""), 1)
    return lines[0] if lines else ""


def covers(parent: str, node_id: str) -> bool:
    """``node_id`` is ``parent`` or one of its parametrizations (provscore.nodeid.covers)."""
    return node_id == parent or (node_id.startswith(parent + "[") and node_id.endswith("]"))


def insert_roots(roots: list[str]) -> None:
    """After the standard library, before site-packages (once)."""
    if not roots or roots[0] in sys.path:
        return
    at = next((i for i, entry in enumerate(sys.path)
               if "site-packages" in entry or "dist-packages" in entry), len(sys.path))
    sys.path[at:at] = roots


def _call(job: dict[str, Any], stream: Stream) -> int:
    import importlib.util

    spec = importlib.util.spec_from_file_location("provscore_property", job["file"])
    if spec is None or spec.loader is None:
        stream.emit({"event": "fail", "nodeid": job["node_id"], "when": "import",
                     "lines": [f"cannot import {job['file']}"]})
        return 1
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        getattr(module, job["function"])()
    except BaseException:  # an import error is a failure too (seed 000)
        stream.emit({"event": "fail", "nodeid": job["node_id"], "when": "call",
                     "lines": tail(traceback.format_exc(), stream.k)})
        return 1
    return 0


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if p not in ("", ".", here)]
    sys.dont_write_bytecode = True
    with open(sys.argv[1], encoding="utf-8") as fh:
        job: dict[str, Any] = json.load(fh)
    code = 3
    with open(job["stream"], "a", encoding="utf-8") as out:
        roots = list(job["roots"])
        stream = Stream(out, int(job["tail"]), list(job.get("deselect", [])), roots)
        if job["mode"] == "call":
            insert_roots(roots)
            code = _call(job, stream)
        else:
            import pytest

            code = int(pytest.main(list(job["args"]), plugins=[stream]))
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == "__main__":
    main()
