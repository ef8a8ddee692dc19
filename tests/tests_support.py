"""Re-export the shared test helpers for modules that import them by name."""

from conftest import SESSION, SHARED, GitRepo, codes

__all__ = ["SESSION", "SHARED", "GitRepo", "codes"]
