"""Renderers: each formats a finished :class:`~provscore.report.model.Report`.

Renderers are registered by name; the CLI's ``--format`` chooses one.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from provscore.records import dataclass
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


# Format name -> the module whose renderer registers it. Only the chosen one is imported:
# markdown and github pull in tabulate, wcwidth and importlib.metadata, which a
# `--format json` run (a batch worker, a lint job) never needs.
MODULES: dict[str, str] = {"concise": "concise", "github": "github", "json": "json_report",
                           "markdown": "markdown", "sarif": "sarif", "text": "text"}


def renderer(fmt: str) -> Renderer:
    """The renderer of ``fmt`` (one of :func:`formats`), its module imported on first use."""
    if fmt not in RENDERERS:
        importlib.import_module(f"provscore.report.{MODULES[fmt]}")
    return RENDERERS[fmt]


def render(report: Report, fmt: str, options: RenderOptions | None = None) -> str:
    return renderer(fmt)(report, options or RenderOptions())


def formats() -> list[str]:
    return sorted(MODULES)
