"""Renderers: each formats a finished :class:`~provscore.report.model.Report`.

Renderers are registered by name; the CLI's ``--format`` chooses one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from provscore.report.model import Report


@dataclass(frozen=True, slots=True)
class RenderOptions:
    color: bool = False
    quiet: bool = False
    # Base URL of docs/rules.md that rule codes link to (markdown, SARIF helpUri).
    rules_url: str | None = None
    # Columns the text tables fit in (COLUMNS, or the terminal's width); None: 100.
    width: int | None = None


Renderer = Callable[[Report, RenderOptions], str]
RENDERERS: dict[str, Renderer] = {}


def register(name: str) -> Callable[[Renderer], Renderer]:
    def deco(fn: Renderer) -> Renderer:
        RENDERERS[name] = fn
        return fn
    return deco


def _builtin() -> None:
    """Import the built-in renderers so that they register themselves."""
    from provscore.report import concise, github, json_report, markdown, sarif, text  # noqa: F401


def render(report: Report, fmt: str, options: RenderOptions | None = None) -> str:
    _builtin()
    return RENDERERS[fmt](report, options or RenderOptions())


def formats() -> list[str]:
    _builtin()
    return sorted(RENDERERS)
