"""Re-export the shared test helpers for modules that import them by name."""

from conftest import SHARED, GitRepo, codes

__all__ = ["SHARED", "GitRepo", "codes"]
