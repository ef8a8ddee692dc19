"""``python -m provscore`` is the same as the ``provscore`` command."""

from provscore.cli import entry

entry()
