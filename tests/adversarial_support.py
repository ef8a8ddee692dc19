"""The red-team harness shared by tests/test_adversarial*.py.

A case is a base tree, a change and the rule codes of which at least one must reject. Every
case runs as a real git repository (the ``repo`` fixture): base commit, real
``git diff --cached -M``, full ``score``. Known misses and false positives are kept with their
correct expectation and marked strict xfail, so a fix shows up as XPASS.
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
from tests_support import GitRepo

from provscore.model import Action
from provscore.report.model import Report

T = "tests/test_example.py"
ALWAYS = frozenset({"PS502"})  # no off-tree results are given in these cases

Files = Mapping[str, str | bytes | None]


def py(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


@dataclass(frozen=True)
class Case:
    base: Files
    after: Files
    expect: tuple[str, ...] = ()  # any of these rejecting satisfies a tampering case
    extra: Mapping[str, Any] = field(default_factory=dict)  # extra score() arguments


def rejects(report: Report) -> set[str]:
    return {f.code for f in report.findings if f.action is Action.REJECT}


def describe(report: Report) -> str:
    return "\n".join(f"{f.code} {f.action.value}: {f.message}" for f in report.findings)


def score_case(repo: GitRepo, case: Case) -> Report:
    repo.commit({"README.md": "example\n", **case.base})
    return repo.score(repo.diff(case.after), **case.extra)


def miss(what: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=f"MISS: {what}")


def false_positive(what: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=f"FALSE POSITIVE: {what}")
