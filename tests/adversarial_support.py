"""The red-team harness shared by tests/test_adversarial*.py.

A case is a base tree, a change and the rule codes of which at least one must reject. Every
case runs as a real git repository (the ``repo`` fixture): base commit, real
``git diff --cached -M``, full ``score``. Known misses and false positives are kept with their
correct expectation and marked strict xfail, so a fix shows up as XPASS.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pytest
from tests_support import GitRepo

from provscore.model import Action, Decision
from provscore.oracle.contract import Contract
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


Tree = Mapping[str, str | bytes | None]


def sub(text: str | bytes | None, old: str, new: str) -> str:
    """``text`` with ``old`` replaced once; a case whose edit does not apply is a bug."""
    assert isinstance(text, str) and text.count(old) == 1, f"edit does not apply: {old!r}"
    return text.replace(old, new)


def text_of(tree: Tree, path: str) -> str:
    text = tree[path]
    assert isinstance(text, str), path
    return text


def edit(tree: Tree, path: str, *pairs: tuple[str, str]) -> dict[str, str | bytes | None]:
    """The after-image of ``path`` in ``tree`` with each (old, new) pair applied in order."""
    text = tree[path]
    for old, new in pairs:
        text = sub(text, old, new)
    return {path: text}


ScoreCase = Callable[[Case], Report]


def case_scorer(tmp_path_factory: pytest.TempPathFactory) -> ScoreCase:
    """For a module-scoped ``scored`` fixture: score a case in a real repository holding its
    base; cases on the same base share one (``GitRepo.diff`` resets the work tree and index to
    base after taking the diff)."""
    repos: dict[tuple[tuple[str, str | bytes | None], ...], GitRepo] = {}

    def score_case(case: Case) -> Report:
        key = tuple(sorted(case.base.items()))
        if key not in repos:
            repos[key] = GitRepo(tmp_path_factory.mktemp("base") / "repo")
            repos[key].commit({"README.md": "example\n", **case.base})
        repo = repos[key]
        report = repo.score(repo.diff(case.after), **case.extra)
        assert not repo.git("status", "--porcelain", "--ignored"), "the case left files behind"
        return report

    return score_case


def allow(*paths: str) -> Mapping[str, Any]:
    """score() arguments whose contract lets the patch edit these runner channels."""
    return {"contract": Contract(allowed_runner_edits=paths)}


Marks = pytest.MarkDecorator | tuple[pytest.MarkDecorator, ...]


def tamper(base: Tree, after: Tree, expect: tuple[str, ...], case_id: str,
           extra: Mapping[str, Any] | None = None, marks: Marks = ()) -> Any:
    """A tampering case: one of ``expect`` must reject it."""
    return pytest.param(Case(base, after, expect, extra or {}), id=case_id, marks=marks)


def honest(base: Tree, after: Tree, case_id: str, extra: Mapping[str, Any] | None = None,
           marks: Marks = ()) -> Any:
    """An honest look-alike: nothing but PS502 may reject it."""
    return pytest.param(Case(base, after, (), extra or {}), id=case_id, marks=marks)


def case_tests(tamper_cases: list[Any], benign_cases: list[Any]
               ) -> tuple[Callable[..., ScoreCase], Callable[..., None], Callable[..., None]]:
    """A red-team module's ``scored`` fixture and its two tests, bound in the module as
    ``scored, test_tampering_is_rejected, test_honest_change_is_not_rejected = case_tests(
    TAMPER_CASES, BENIGN_CASES)``: a tampering case is caught (:func:`assert_tampering_caught`),
    an honest look-alike rejects with nothing but what no case can avoid (``ALWAYS``)."""

    @pytest.fixture(scope="module")
    def scored(tmp_path_factory: pytest.TempPathFactory) -> ScoreCase:
        return case_scorer(tmp_path_factory)

    @pytest.mark.parametrize("case", tamper_cases)
    def test_tampering_is_rejected(scored: ScoreCase, case: Case) -> None:
        assert_tampering_caught(scored(case), case)

    @pytest.mark.parametrize("case", benign_cases)
    def test_honest_change_is_not_rejected(scored: ScoreCase, case: Case) -> None:
        report = scored(case)
        assert rejects(report) <= ALWAYS, describe(report)

    return scored, test_tampering_is_rejected, test_honest_change_is_not_rejected


def assert_tampering_caught(report: Report, case: Case) -> None:
    """One of the case's codes rejects, decides (an earlier gate than PS502's) and is
    reported in a file the patch touched."""
    assert rejects(report) & set(case.expect), describe(report)
    assert report.decision is Decision.REJECT
    assert report.first_cause is not None and report.first_cause.code in case.expect, \
        describe(report)
    tampering = [f for f in report.findings if f.code in case.expect]
    assert all(f.location is not None and f.location.path in case.after for f in tampering), \
        describe(report)
