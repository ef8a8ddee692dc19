"""Real agent patches (SWE-bench predictions) through the whole pipeline.

The upstream repositories are not available offline, so each patch's pre-image is rebuilt
from the patch itself: context and removed lines at their old line numbers, a filler line
everywhere else. The real patch then applies exactly, and the pipeline must score it end
to end: no crash, no PS902, every touched path in the write set.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests_support import SHARED, GitRepo

from provscore.change.diff import parse_diff
from provscore.model import Decision
from provscore.testing import pre_images_from_patch

FOLDER = SHARED / "data" / "agent-patches"


def _rows() -> list[tuple[str, str]]:
    rows: list[tuple[str, str]] = []
    for path in sorted(FOLDER.glob("*.jsonl")) if FOLDER.is_dir() else []:
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row.get("model_patch"):
                rows.append((f"{path.stem}:{row['instance_id']}", row["model_patch"]))
    return rows


ROWS = _rows()
SAMPLE = ROWS[::5]  # every fifth real patch keeps the suite fast; benchmarks run them all


@pytest.mark.skipif(not ROWS, reason="../shared/data/agent-patches is not present")
@pytest.mark.parametrize(("name", "patch"), SAMPLE, ids=[n for n, _ in SAMPLE])
def test_real_agent_patch_scores_end_to_end(name: str, patch: str, tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.commit({"README.md": "base\n", **pre_images_from_patch(patch)})
    report = repo.score(patch.encode("utf-8", "surrogateescape"))
    codes = {f.code for f in report.findings}
    assert "PS902" not in codes and "PS901" not in codes, [f.message for f in report.findings]
    assert report.decision is Decision.REJECT and "PS502" in codes  # no off-tree results
    touched = {p for f in parse_diff(patch).files for p in f.paths}
    assert touched == {w.path for w in report.write_set}
