"""The grader-subversion stage (PS207 constructs, PS801-PS809): what in the patch can make
the grader report a pass that the code did not earn. See :mod:`provscore.grader.stage`."""

from typing import TYPE_CHECKING

from provscore.lazy import lazy_exports

if TYPE_CHECKING:
    from provscore.grader.model import GraderFacts, Signal, SignalKind
    from provscore.grader.stage import GraderInputs, grader_facts
    from provscore.grader.tables import GraderTables


_EXPORTS = {  # name -> the submodule defining it
    "GraderFacts": "model",
    "Signal": "model",
    "SignalKind": "model",
    "GraderInputs": "stage",
    "grader_facts": "stage",
    "GraderTables": "tables",
}
__all__ = [
    "GraderFacts", "GraderInputs", "GraderTables", "Signal", "SignalKind", "grader_facts",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
