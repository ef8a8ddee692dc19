"""The environment fingerprint: Python, platform, installed distributions, lock-file hash.

The interpreter chosen with ``--python`` is asked once (``python -E -c PROBE``, run from
the run's own directory so nothing of a tree is importable); provscore never installs
anything at run time (seed 004's invariant 2), so what it reports is what the tests ran
with. The same answer gives the interpreter's ``sys.path``, whose entries the sandbox
keeps visible.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path

from provscore.errors import InputError
from provscore.records import dataclass
from provscore.runner.model import Fingerprint

_PROBE = r"""
import importlib.util, json, platform, re, sys
from importlib import metadata
dists = {}
for d in metadata.distributions():
    name = (d.metadata["Name"] or "").strip()
    if name:
        dists.setdefault(re.sub(r"[-_.]+", "-", name).lower(), d.version)
has_pytest = importlib.util.find_spec("pytest") is not None
print(json.dumps({
    "python": platform.python_version(), "implementation": platform.python_implementation(),
    "platform": platform.platform(), "executable": sys.executable, "path": sys.path,
    "prefixes": sorted({sys.prefix, sys.base_prefix, sys.exec_prefix}),
    "distributions": sorted(f"{k}=={v}" for k, v in dists.items()), "pytest": has_pytest,
}))
"""
_TIMEOUT = 120.0


@dataclass(frozen=True, slots=True)
class Interpreter:
    """The test interpreter: its fingerprint and the paths it needs to see."""

    fingerprint: Fingerprint
    paths: tuple[Path, ...]  # sys.path entries, prefixes and the executable's directory


def resolve_python(python: str | None) -> str:
    """The interpreter as an absolute path; ``None`` is the one running provscore."""
    if python is None:
        return sys.executable
    found = shutil.which(python)
    if found is None:
        raise InputError("Python interpreter not found or not executable", path=python)
    return str(Path(found).absolute())


def probe(python: str, *, cwd: Path, lock_hash: str) -> Interpreter:
    """Ask ``python`` what it is; an interpreter without pytest is an input error."""
    try:
        proc = subprocess.run([python, "-E", "-c", _PROBE], cwd=cwd, capture_output=True,
                              timeout=_TIMEOUT, check=False, stdin=subprocess.DEVNULL)
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InputError(f"cannot run the Python interpreter: {exc}", path=python) from None
    try:
        info = json.loads(proc.stdout.decode("utf-8", "replace").strip().splitlines()[-1])
    except (json.JSONDecodeError, IndexError):
        lines = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError("the Python interpreter did not describe itself: "
                         f"{lines[-1] if lines else f'exit {proc.returncode}'}",
                         path=python) from None
    if not info.get("pytest"):
        raise InputError("pytest is not installed for this interpreter; install the "
                         "project's test dependencies first (provscore never installs "
                         "anything at run time)", path=python)
    core = {"python": info["python"], "implementation": info["implementation"],
            "platform": info["platform"], "distributions": info["distributions"],
            "lock_hash": lock_hash}
    digest = hashlib.sha256(json.dumps(core, sort_keys=True).encode()).hexdigest()[:16]
    fp = Fingerprint(python=info["python"], implementation=info["implementation"],
                     platform=info["platform"], executable=info["executable"],
                     distributions=tuple(info["distributions"]), lock_hash=lock_hash,
                     digest=digest)
    paths = {Path(p) for p in (*info["path"], *info["prefixes"]) if p}
    paths.add(Path(python).parent)
    return Interpreter(fp, tuple(sorted(p for p in paths if p.is_absolute())))
