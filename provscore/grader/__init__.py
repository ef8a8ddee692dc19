"""The grader-subversion stage (PS207 constructs, PS801-PS809): what in the patch can make
the grader report a pass that the code did not earn. See :mod:`provscore.grader.stage`."""

from provscore.grader.model import GraderFacts, Signal, SignalKind
from provscore.grader.stage import GraderInputs, grader_facts
from provscore.grader.tables import GraderTables

__all__ = ["GraderFacts", "GraderInputs", "GraderTables", "Signal", "SignalKind", "grader_facts"]
