"""``--format json``: the report model as versioned JSON (docs/report.md)."""

from __future__ import annotations

import json

from provscore.report import RenderOptions, register
from provscore.report.model import Report


@register("json")
def render_json(report: Report, options: RenderOptions) -> str:
    return json.dumps(report.to_dict(), indent=2, sort_keys=False, ensure_ascii=False) + "\n"
