"""Stage 4: provenance of every evidence item, suppression, test and helper oracle.

Pre-image items are matched to post-image items by anchor, never by line:
(file following renames, test node id following test moves, scope, kind,
normalised code). Moving a test, renaming its file or reformatting an
assertion over several lines therefore matches as ``preexisting``. What is
left is paired inside the same test to find modifications, which are judged
``weakened``, ``expected_changed``, ``strengthened`` or ``changed``
(:mod:`provscore.provenance.strength`); the rest is ``agent_removed`` /
``agent_added``.
"""

from typing import TYPE_CHECKING

from provscore.lazy import lazy_exports

if TYPE_CHECKING:
    from provscore.provenance.match import classify
    from provscore.provenance.model import (
        ClassifiedItem,
        ClassifiedSuppression,
        HelperChange,
        HelperStatus,
        ProvenanceResult,
        TestChange,
        TestStatus,
    )
    from provscore.provenance.strength import Strength, compare


_EXPORTS = {  # name -> the submodule defining it
    "classify": "match",
    "ClassifiedItem": "model",
    "ClassifiedSuppression": "model",
    "HelperChange": "model",
    "HelperStatus": "model",
    "ProvenanceResult": "model",
    "TestChange": "model",
    "TestStatus": "model",
    "Strength": "strength",
    "compare": "strength",
}
__all__ = [
    "ClassifiedItem", "ClassifiedSuppression", "HelperChange", "HelperStatus",
    "ProvenanceResult", "Strength", "TestChange", "TestStatus", "classify", "compare",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
