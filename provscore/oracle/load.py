"""Reading the whole oracle dir once: every input the contract names, validated."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Sequence
from pathlib import Path

from provscore.change.git import Repo
from provscore.errors import InputError
from provscore.oracle.approvals import Approval, read_approvals
from provscore.oracle.catalog import Catalog, find_catalog, read_catalog
from provscore.oracle.contract import Contract
from provscore.oracle.fixture_lock import FixtureLock, digest_bytes, read_lock
from provscore.oracle.flake import FlakeRow, read_flake_ledger
from provscore.oracle.freeze import FreezeRow, read_freeze_ledger
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class OracleInputs:
    """What the oracle dir holds, validated (a malformed file is an InputError)."""

    lock: FixtureLock | None = None
    freeze_rows: tuple[FreezeRow, ...] = ()
    flake_rows: tuple[FlakeRow, ...] = ()
    approvals: tuple[Approval, ...] = ()
    freeze_path: str | None = None
    has_flake_ledger: bool = False
    frozen: frozenset[str] = frozenset()  # ids a freeze is in force for (set by scoring)
    catalog: Catalog | None = None  # the property catalog (properties.toml / .yaml)
    oracle_dir: Path | None = None


def load_oracle(oracle_dir: Path | None, contract: Contract) -> OracleInputs:
    """Read every oracle input the contract names; absent files are simply not given."""
    if oracle_dir is None:
        return OracleInputs()

    def existing(rel: str) -> Path | None:
        """The input's path when something is there; a directory, FIFO or dangling link
        where a file should be is an error naming it, not an absent input."""
        path = contract.oracle_path(oracle_dir, rel)
        return path if oracle_input_exists(path, rel) else None

    lock_path = existing(contract.lock_path)
    freeze_path = existing(contract.freeze_path)
    flake_path = existing(contract.flake_ledger_path)
    approvals_path = existing(contract.approvals_path)
    catalog_path = find_catalog(oracle_dir) if oracle_dir.is_dir() else None
    return OracleInputs(
        lock=read_lock(lock_path) if lock_path else None,
        freeze_rows=read_freeze_ledger(freeze_path) if freeze_path else (),
        flake_rows=read_flake_ledger(flake_path) if flake_path else (),
        approvals=read_approvals(approvals_path) if approvals_path else (),
        freeze_path=str(freeze_path) if freeze_path else None,
        has_flake_ledger=flake_path is not None,
        catalog=read_catalog(catalog_path) if catalog_path else None,
        oracle_dir=oracle_dir)


def oracle_input_exists(path: Path, what: str) -> bool:
    """Whether an optional oracle input is present: absent is fine, a regular file is
    present, anything else at its path is an :class:`InputError`."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        if os.path.lexists(path):
            raise InputError(f"{what} is a dangling symbolic link", path=str(path)) from None
        return False
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", path=str(path)) from None
    if not stat.S_ISREG(mode):
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise InputError(f"{what} is {kind}, expected a regular file or nothing",
                         path=str(path))
    return True


def oracle_prefixes(repo_top: Path, oracle_dir: Path | None) -> tuple[str, ...]:
    """The oracle dir as a repo-relative prefix, when it lies inside the repository (then
    every path under it is the oracle itself, whatever its name)."""
    prefixes: list[str] = []
    if oracle_dir is not None:
        try:
            rel = oracle_dir.resolve().relative_to(repo_top.resolve())
        except ValueError:
            rel = None
        if rel is not None and str(rel) not in ("", "."):
            prefixes.append(rel.as_posix())
    return tuple(prefixes)


def fixture_digests(repo: Repo, base: str, rows: Sequence[FreezeRow],
                    canonical: bool) -> dict[str, str]:
    """Digest at base of every fixture a freeze row names (for staleness)."""
    paths = sorted({r.fixture for r in rows if r.fixture and r.fixture_sha})
    blobs = repo.read_blobs(base, paths)
    return {p: digest_bytes(p, data, canonical_json=canonical)
            for p, data in blobs.items() if data is not None}


MAX_ORACLE_SOURCES = 500


def oracle_python_files(oracle_dir: Path | None) -> dict[str, bytes]:
    """Every ``.py`` file of the oracle dir (its properties and checks), by relative path:
    the call graph reads them to know what code they reach."""
    if oracle_dir is None or not oracle_dir.is_dir():
        return {}
    root = oracle_dir.resolve()
    out: dict[str, bytes] = {}
    for path in sorted(root.rglob("*.py"))[:MAX_ORACLE_SOURCES]:
        if path.is_file() and not path.is_symlink():
            out[path.relative_to(root).as_posix()] = path.read_bytes()
    return out


def property_files(oracle_dir: Path | None) -> Callable[[str], bool]:
    """Whether a result's test file is a property kept in the oracle dir: its path relative
    to the oracle dir, the oracle dir's own name as prefix, or an absolute path inside it."""
    if oracle_dir is None or not oracle_dir.is_dir():
        return lambda _: False
    root = oracle_dir.resolve()
    names = {p.relative_to(root).as_posix() for p in root.rglob("*.py")}

    def check(file: str) -> bool:
        if file in names or file.removeprefix(f"{oracle_dir.name}/") in names:
            return True
        path = Path(file)
        return path.is_absolute() and path.resolve().is_relative_to(root)
    return check
