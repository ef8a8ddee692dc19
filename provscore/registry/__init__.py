"""The rule registry: rules as data (``rules/*.toml``), bound to one detector each.

See :mod:`provscore.registry.load` for the file format and
:mod:`provscore.registry.detectors` for the binding.
"""

from provscore.registry.detectors import Detector, DetectorTable, Stage
from provscore.registry.load import load_registry, rules_dir
from provscore.registry.model import ExampleFile, Gate, Registry, Rule, RuleExample

__all__ = ["Detector", "DetectorTable", "ExampleFile", "Gate", "Registry", "Rule",
           "RuleExample", "Stage", "load_registry", "rules_dir"]
