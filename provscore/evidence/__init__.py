"""Stage 3: classified evidence, suppressions, helper oracles and tests of one image.

One read-only walk per image runs every collector (:data:`driver.COLLECTORS`); names
are resolved after the walk; item texts and lines come from one code generation pass.
Comments, docstrings and string literals are never evidence. :func:`extract` classifies
one image; :func:`~provscore.evidence.stage.analyse_files` every changed file of a patch.
"""

from typing import TYPE_CHECKING

from provscore.lazy import lazy_exports

if TYPE_CHECKING:
    from provscore.evidence.constants import is_literal_code, normalize
    from provscore.evidence.driver import extract
    from provscore.evidence.model import (
        EvidenceItem,
        EvidenceKind,
        FileEvidence,
        FilePair,
        HelperDef,
        Shape,
        Suppression,
        SuppressionKind,
        TestDef,
    )
    from provscore.evidence.stage import analyse_files
    from provscore.evidence.tables import Tables


_EXPORTS = {  # name -> the submodule defining it
    "is_literal_code": "constants",
    "normalize": "constants",
    "extract": "driver",
    "EvidenceItem": "model",
    "EvidenceKind": "model",
    "FileEvidence": "model",
    "FilePair": "model",
    "HelperDef": "model",
    "Shape": "model",
    "Suppression": "model",
    "SuppressionKind": "model",
    "TestDef": "model",
    "analyse_files": "stage",
    "Tables": "tables",
}
__all__ = [
    "EvidenceItem", "EvidenceKind", "FileEvidence", "FilePair", "HelperDef", "Shape",
    "Suppression", "SuppressionKind", "Tables", "TestDef", "analyse_files", "extract",
    "is_literal_code", "normalize",
]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
