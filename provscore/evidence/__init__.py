"""Stage 3: classified evidence, suppressions, helper oracles and tests of one image.

One read-only walk per image runs every collector (:data:`driver.COLLECTORS`); names
are resolved after the walk; item texts and lines come from one code generation pass.
Comments, docstrings and string literals are never evidence. :func:`extract` classifies
one image; :func:`~provscore.evidence.stage.analyse_files` every changed file of a patch.
"""

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
from provscore.evidence.tables import Tables

__all__ = [
    "EvidenceItem", "EvidenceKind", "FileEvidence", "FilePair", "HelperDef", "Shape",
    "Suppression", "SuppressionKind", "Tables", "TestDef", "extract", "is_literal_code",
    "normalize",
]
