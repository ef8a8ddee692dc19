"""Reading user-supplied input files the one way: clear errors, no silent repairs.

Every input (diff, results, lock, ledgers) is read through here so that a
missing file, a directory or an unreadable file is the same one-line error
naming the path, and JSON objects with a repeated key are refused (a later
duplicate would silently win in ``json.loads``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from provscore.errors import InputError


def read_input(path: str | Path, what: str) -> bytes:
    """The bytes of an input file, or an InputError saying what is wrong with it."""
    try:
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{what} not found", path=str(path)) from None
    except IsADirectoryError:
        raise InputError(f"{what} path is a directory, expected a file", path=str(path)) from None
    except OSError as exc:
        raise InputError(f"cannot read {what}: {exc.strerror or exc}", path=str(path)) from None


class DuplicateKeyError(ValueError):
    """A JSON object names the same key twice."""

    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


def reject_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` for json: a repeated key is an error, not a silent override."""
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise DuplicateKeyError(key)
        seen[key] = value
    return seen
