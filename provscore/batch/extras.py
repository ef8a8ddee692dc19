"""Optional extras (dask, matplotlib, pyarrow), imported only when a command needs one."""

from __future__ import annotations

import importlib
from typing import Any

from provscore.errors import UsageError


def require(module: str, extra: str, purpose: str) -> Any:
    """Import ``module`` or fail with one line naming the extra that provides it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        top = module.split(".")[0]
        raise UsageError(f"{top} is needed {purpose}: pip install 'provscore[{extra}]'"
                         ) from None
