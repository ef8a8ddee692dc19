"""Package re-exports imported on first use (PEP 562).

A stage package re-exports its entry points (``from provscore.evidence import extract``),
but importing one of its light submodules (``provscore.evidence.model``, for a type) must
not run the heavy ones: the evidence and grader stages import libcst, which costs more than
scoring a patch that has no Python file to classify. Each such ``__init__`` names its
exports once for the type checker (under ``TYPE_CHECKING``) and once here.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping


def lazy_exports(package: str, exports: Mapping[str, str]
                 ) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """``__getattr__`` and ``__dir__`` for ``package``: ``exports`` maps each exported
    name to the submodule (relative to the package) that defines it."""

    def __getattr__(name: str) -> object:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{module}"), name)
        setattr(sys.modules[package], name, value)  # later lookups skip this function
        return value

    def __dir__() -> list[str]:
        return sorted(exports)

    return __getattr__, __dir__
