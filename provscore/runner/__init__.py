"""The off-tree runner: the base corpus and the oracle properties against the patch.

``provscore run`` / ``provscore verify`` (orchestrated by :mod:`provscore.verify`) call
:func:`~provscore.runner.execute.execute_run` with a :class:`~provscore.runner.execute.
RunSpec`; it returns a :class:`~provscore.runner.model.RunRecord` whose per-repeat
:class:`~provscore.results.RunResults` the score consumes like any other results, plus
what only a run knows (sandbox, fingerprint, corpus digest, timeouts, tampering, the
bounded failure digest). Stages: :mod:`~provscore.runner.workspace` (worktrees),
:mod:`~provscore.runner.sandbox` (bubblewrap, wall clock), :mod:`~provscore.runner.jobs`
(one sandboxed process), :mod:`~provscore.runner.base_run` (collection at base and the
repeats), :mod:`~provscore.runner.properties`, :mod:`~provscore.runner.integrity`,
:mod:`~provscore.runner.corpus`, :mod:`~provscore.runner.fingerprint`.
"""

from provscore.runner.execute import RunSpec, execute_run
from provscore.runner.model import FailureDigest, Fingerprint, Kill, RunOptions, RunRecord
from provscore.runner.properties import PropertySpec

__all__ = ["FailureDigest", "Fingerprint", "Kill", "PropertySpec", "RunOptions", "RunRecord",
           "RunSpec", "execute_run"]
