"""provscore: score code patches only on evidence the patch did not write."""

from __future__ import annotations

__version__ = "0.1.0"
