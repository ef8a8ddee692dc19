"""Run by every spawned ``-j`` worker before it unpickles a task (``runpy.run_path``, see
runner.py): bind the name ``provscore`` to the package this file belongs to.

A spawned worker imports the tasks' code by name, from its own ``sys.path``. When that
path finds another provscore first (``python -m provscore`` takes the working directory
off it, even when provscore was imported from there; an editable install elsewhere), the
worker would run other code than the batch, or fail to import it. Loading the package from
this file's location binds exactly the parent's code and adds nothing to ``sys.path``, so
no dependency can come from the working directory. Standard library only: it runs before
provscore is importable.
"""

import importlib.util
import sys
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]

if "provscore" not in sys.modules:
    _spec = importlib.util.spec_from_file_location(
        "provscore", _PACKAGE / "__init__.py", submodule_search_locations=[str(_PACKAGE)])
    if _spec is None or _spec.loader is None:
        raise ImportError(f"cannot load provscore from {_PACKAGE}")
    _module = importlib.util.module_from_spec(_spec)
    sys.modules["provscore"] = _module
    _spec.loader.exec_module(_module)
