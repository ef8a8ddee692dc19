"""Oracle properties: run against the patched code with a trial budget and a wall clock.

Until a property catalog exists, the properties are the test files kept in the oracle dir
(``test_*.py`` / ``*_test.py``, any depth, hidden directories skipped). Each file is
collected in its own process, and each property it holds runs in its own process, each
under the contract's ``property_timeout_s``: a property still running then is killed
(PS505). An import error is a failure (seed 000: a public symbol the patch removed makes
the property fail to import, which is a reject, not an absence).

With a property catalog (``properties.toml`` in the oracle dir), the properties are the
catalog's check functions instead (:func:`catalog_specs`): :class:`PropertySpec` rows with
``kind="call"`` (``target = "file.py:function"``, the file relative to the oracle dir),
each called with no arguments in its own sandboxed process, under its own ``trials`` and
``timeout_s`` when the catalog gives them, else the contract's.

Every property process sees ``PROPERTY_TRIALS`` and ``PROVSCORE_PROPERTY_TRIALS`` (the
contract's ``property_trials``) and ``REPO_ROOT`` (the patched tree); its working
directory is the patched tree and its import roots are the patched tree's. Node ids are
reported under the oracle dir's name (``oracle/test_props.py::test_window``), which is how
the results stage knows a property from a test.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field
from pathlib import Path

from provscore.oracle.catalog import Catalog
from provscore.records import dataclass
from provscore.results import Outcome, Verdict
from provscore.runner.base_run import reported, roots
from provscore.runner.jobs import JobResult, Jobs
from provscore.runner.model import Kill

_TEST_PATTERNS = ("test_*.py", "*_test.py")


@dataclass(frozen=True, slots=True)
class PropertySpec:
    """One property to run: ``kind`` "pytest" (``target``: an oracle-relative node id or
    file) or "call" (``target``: ``file.py:function``)."""

    node_id: str  # as reported: "<oracle dir name>/<target>"
    kind: str
    target: str
    trials: int | None = None  # None: the contract's score.property_trials
    timeout_s: float | None = None  # None: the contract's score.property_timeout_s

    def env(self) -> dict[str, str]:
        trials = str(self.trials) if self.trials is not None else None
        return {"PROPERTY_TRIALS": trials, "PROVSCORE_PROPERTY_TRIALS": trials} if trials \
            else {}


@dataclass(frozen=True, slots=True)
class PropertyRun:
    outcomes: tuple[Outcome, ...] = ()
    timeouts: tuple[Kill, ...] = ()
    failures: dict[str, tuple[str, ...]] = field(default_factory=dict)


def catalog_specs(catalog: Catalog, oracle_dir: Path) -> tuple[PropertySpec, ...]:
    """The catalog's check functions as properties to run (properties without a check
    cannot run; the coverage gate reports them)."""
    name = oracle_dir.resolve().name
    return tuple(PropertySpec(f"{name}/{p.check.node_id}", "call",
                              f"{p.check.file}:{p.check.function}", p.trials, p.timeout_s)
                 for p in catalog.properties if p.check is not None)


def oracle_test_files(oracle_dir: Path) -> list[str]:
    """The test files in the oracle dir, relative to it, sorted."""
    root = oracle_dir.resolve()
    found: list[str] = []
    for path in root.rglob("*.py"):
        rel = path.relative_to(root)
        if any(part.startswith(".") or part == "__pycache__" for part in rel.parts[:-1]):
            continue
        if any(path.match(p) for p in _TEST_PATTERNS) and path.is_file():
            found.append(rel.as_posix())
    return sorted(found)


class PropertyRunner:
    """Runs the oracle's properties in the patched tree (module docstring)."""

    def __init__(self, jobs: Jobs, oracle_dir: Path, patched: Path, *, timeout: float,
                 import_roots: Sequence[str] = ()) -> None:
        self.jobs, self.patched, self.timeout = jobs, patched, timeout
        self.root = oracle_dir.resolve()
        self.prefix = oracle_dir.resolve().name
        self.roots = [*roots(patched), *import_roots]
        ini = self.root / "pytest.ini"
        if not ini.is_file():
            ini = jobs.ws.boot / "oracle-pytest.ini"
            ini.write_text("[pytest]\n", encoding="utf-8")
        self.args = ["-c", str(ini), f"--rootdir={self.root}", "-p", "no:cacheprovider"]
        self.out: list[Outcome] = []
        self.kills: list[Kill] = []
        self.failures: dict[str, tuple[str, ...]] = {}

    def run(self, specs: Sequence[PropertySpec] | None = None) -> PropertyRun:
        """Run ``specs``, or (None) every property of the oracle dir's test files."""
        todo = list(specs) if specs is not None else self.discover()
        for spec in todo:
            if spec.kind == "call":
                self._call(spec)
            else:
                self._pytest(spec)
        return PropertyRun(tuple(self.out), tuple(self.kills), dict(self.failures))

    def discover(self) -> list[PropertySpec]:
        """Collect every oracle test file (an unimportable file is a failed property)."""
        specs: list[PropertySpec] = []
        for rel in oracle_test_files(self.root):
            node = f"{self.prefix}/{rel}"
            job = self._job(f"collect-{rel}", ["--collect-only", "-q", str(self.root / rel)])
            errors = job.failures("collect_error")
            ids = job.collected()
            if job.finished.timed_out:
                self._timeout(node, job)
            elif errors or ids is None:
                lines = next(iter(errors.values()), tuple(job.log_tail(self.jobs.tail)))
                self._fail(node, lines, "could not be collected")
            else:
                specs += [PropertySpec(f"{self.prefix}/{i}", "pytest", i) for i in ids]
        return specs

    def _job(self, name: str, args: list[str], spec: PropertySpec | None = None) -> JobResult:
        return self.jobs.run(f"property-{_safe(name)}", {"mode": "pytest", "roots": self.roots,
                                                          "args": [*self.args, *args]},
                             cwd=self.patched, timeout=self._timeout_of(spec),
                             env=spec.env() if spec else None)

    def _timeout_of(self, spec: PropertySpec | None) -> float:
        return spec.timeout_s if spec is not None and spec.timeout_s else self.timeout

    def _pytest(self, spec: PropertySpec) -> None:
        job = self._job(spec.target, [str(self.root / spec.target)], spec)
        if job.finished.timed_out:
            self._timeout(spec.node_id, job)
            return
        got = reported(job, 0)
        if not got:
            self._fail(spec.node_id, tuple(job.log_tail(self.jobs.tail)),
                       f"no result (pytest exited with code {job.finished.returncode})")
        fails = job.failures()
        for node_id, o in sorted(got.items()):
            full = f"{self.prefix}/{node_id}"
            self.out.append(Outcome(full, o.verdict, 0, o.source, o.duration, o.message))
            if node_id in fails:
                self.failures[full] = fails[node_id]

    def _call(self, spec: PropertySpec) -> None:
        file, _, function = spec.target.rpartition(":")
        job = self.jobs.run(f"property-{_safe(spec.target)}",
                            {"mode": "call", "roots": self.roots, "node_id": spec.node_id,
                             "file": str(self.root / file), "function": function},
                            cwd=self.patched, timeout=self._timeout_of(spec), env=spec.env())
        if job.finished.timed_out:
            self._timeout(spec.node_id, job)
        elif job.finished.returncode != 0:
            lines = next(iter(job.failures().values()), tuple(job.log_tail(self.jobs.tail)))
            self._fail(spec.node_id, lines, f"exit {job.finished.returncode}")
        else:
            self.out.append(Outcome(spec.node_id, Verdict.PASSED, 0, str(job.out),
                                    job.finished.seconds))

    def _fail(self, node_id: str, lines: tuple[str, ...], why: str) -> None:
        last = next((x.strip() for x in reversed(lines) if x.strip()), why)
        self.out.append(Outcome(node_id, Verdict.ERROR, 0, node_id, message=f"{why}: {last}"))
        self.failures[node_id] = lines

    def _timeout(self, node_id: str, job: JobResult) -> None:
        running = job.running()
        self.kills.append(Kill(node_id, job.finished.limit,
                               f"{self.prefix}/{running}" if running else None))
        message = f"did not finish within the property timeout ({job.finished.limit:g} s)"
        self.out.append(Outcome(node_id, Verdict.ERROR, 0, node_id, message=message))
        self.failures[node_id] = (message,)


def _safe(name: str) -> str:
    return "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:80]
