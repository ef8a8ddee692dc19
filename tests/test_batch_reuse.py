"""A session reuses what it classified for the patches that follow, and no finding moves.

Many patches of one repository at one base commit share their pre-images; a batch
worker's session keeps each classified image (evidence/memo.py) keyed by the bytes
classified (a focused image is its own) and by every answer the helper lookup gave.
These tests score the same real predictions in one long-lived session and each alone
(a fresh session; the ``provscore score`` command line), and compare everything.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from textwrap import dedent

import pytest
from conftest import GitRepo

from provscore.change.collection import CollectionConfig
from provscore.evidence import SuppressionKind, extract
from provscore.evidence.memo import EvidenceMemo
from provscore.pipeline import ScoreRequest, score
from provscore.report import render
from provscore.session import Session

HELPERS = "def check(value):\n    return value\n"
TESTS = dedent("""\
    from tests.helpers import check


    def test_a():
        assert 1 + 1 == 2
        check(3 > 2)


    def test_b():
        assert "x".upper() == "X"


    def test_c():
        check(len("ab") == 2)
        assert [1, 2][0] == 1


    def test_d():
        assert sorted([2, 1]) == [1, 2]
    """)
MOD = "def double(x):\n    return 2 * x\n"
REMOVED_A = TESTS.replace("    assert 1 + 1 == 2\n", "")
FIX = {"pkg/mod.py": MOD.replace("2 * x", "x + x")}


def _patches(repo: GitRepo) -> dict[str, str]:
    def diff(files: dict[str, str]) -> str:
        return repo.diff(files).decode("utf-8")

    return {
        "removed-a": diff({**FIX, "tests/test_mod.py": REMOVED_A}),
        "removed-a-again": diff({**FIX, "tests/test_mod.py": REMOVED_A}),
        "weakened-b": diff({"tests/test_mod.py": TESTS.replace(
            'assert "x".upper() == "X"', 'assert "x".upper()')}),
        # The same test-module edit, and the helper becomes an oracle: the pre-image of
        # test_mod.py is the same bytes, but the helper lookup answers otherwise.
        "removed-a-helper-checks": diff({**FIX, "tests/test_mod.py": REMOVED_A,
                                         "tests/helpers.py": HELPERS.replace(
                                             "return value", "assert value")}),
        "removed-a-third": diff({"tests/test_mod.py": REMOVED_A}),
        "call-removed-c": diff({"tests/test_mod.py": TESTS.replace(
            '    check(len("ab") == 2)\n', "")}),
        "added-e": diff({"tests/test_mod.py": TESTS + dedent("""\


            def test_e():
                assert double(2) == 4
            """).replace("from tests.helpers import check\n",
                         "from tests.helpers import check\nfrom pkg.mod import double\n")}),
    }


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[GitRepo, str, dict[str, str]]:
    repo = GitRepo(tmp_path_factory.mktemp("reuse") / "src")
    base = repo.commit({"pkg/__init__.py": "", "pkg/mod.py": MOD, "tests/__init__.py": "",
                        "tests/helpers.py": HELPERS, "tests/test_mod.py": TESTS})
    return repo, base, _patches(repo)


def _json(session: Session, repo: GitRepo, base: str, patch: str) -> str:
    report = score(ScoreRequest(repo=repo.root, base=base, diff=patch.encode(),
                                static_only=True), session)
    return render(report, "json")


def test_one_session_gives_every_patch_the_report_it_gets_alone(
        world: tuple[GitRepo, str, dict[str, str]]) -> None:
    repo, base, patches = world
    reused = Session.load()
    together = {name: _json(reused, repo, base, p) for name, p in patches.items()}
    alone = {name: _json(Session.load(), repo, base, p) for name, p in patches.items()}
    assert together == alone
    memo = reused.evidence_tables().memo
    assert memo.hits >= 6  # the shared pre-images (and the repeated patch's post-images)
    # The trap the lookup check avoids: same pre-image bytes, another helper answer.
    plain = json.loads(together["removed-a"])
    helper = json.loads(together["removed-a-helper-checks"])
    assert plain["evidence"] != helper["evidence"]
    assert json.loads(together["removed-a-again"]) == plain


def test_a_kept_image_is_reused_only_when_every_lookup_answer_is_the_same() -> None:
    tables = Session.load().evidence_tables()
    memo = EvidenceMemo()
    source = TESTS.encode()
    config = CollectionConfig()

    class Lookup:
        def __init__(self, helpers: frozenset[str]) -> None:
            self.helpers = helpers
            self.asked: list[str] = []

        def __call__(self, importer: str, qualname: str) -> bool:
            self.asked.append(qualname)
            return qualname in self.helpers

        def skip_kind(self, importer: str, qualname: str) -> SuppressionKind | None:
            return None

        def transparent(self, importer: str, qualname: str, factory: bool) -> bool:
            return False

        def test_methods(self, importer: str, qualname: str) -> tuple[str, ...]:
            return ()

        def unittest_class(self, importer: str, qualname: str) -> bool:
            return False

        def signature(self, importer: str, qualname: str) -> tuple[str, str] | None:
            return None

        def self_reads(self, importer: str, qualname: str) -> tuple[str, ...] | None:
            return None

        def check_params(self, importer: str, qualname: str) -> tuple[str, ...]:
            return ()

    def classify(lookup: Lookup) -> tuple[str, ...]:
        ev = memo.classified("tests/test_mod.py", source, True, False, config, lookup,
                             lambda rec: extract("tests/test_mod.py", source, config,
                                                 Session.load().evidence_tables(), rec))
        return tuple(sorted(f"{i.kind.value}:{i.line}" for i in ev.items))

    plain = classify(Lookup(frozenset()))
    assert (memo.hits, memo.misses) == (0, 1)
    again = Lookup(frozenset())
    assert classify(again) == plain and (memo.hits, memo.misses) == (1, 1)
    assert again.asked == ["tests.helpers.check", "tests.helpers.check"]  # replayed
    checking = classify(Lookup(frozenset({"tests.helpers.check"})))
    assert checking != plain and (memo.hits, memo.misses) == (1, 2)
    assert classify(Lookup(frozenset())) == plain and memo.hits == 2  # both variants kept
    assert classify(Lookup(frozenset({"tests.helpers.check"}))) == checking
    assert memo.hits == 3
    # Another text, the same path: another entry; no lookup at all: another entry.
    assert tables.memo is not memo
    small = EvidenceMemo(budget=len(source))
    for _ in range(2):
        small.classified("a.py", source, True, False, config, None,
                         lambda _: extract("a.py", source, config, tables))
    small.classified("b.py", source, True, False, config, None,
                     lambda _: extract("b.py", source, config, tables))
    assert (small.hits, small.misses) == (1, 2)
    small.classified("a.py", source, True, False, config, None,
                     lambda _: extract("a.py", source, config, tables))
    assert (small.hits, small.misses) == (1, 3)  # evicted: the budget holds one file


def test_batch_rows_have_the_findings_provscore_score_gives_each_patch(
        world: tuple[GitRepo, str, dict[str, str]], tmp_path: Path) -> None:
    repo, base, patches = world
    mirrors = tmp_path / "mirrors"
    subprocess.run(["git", "clone", "-q", "--bare", str(repo.root), str(mirrors / "acme__m")],
                   check=True, capture_output=True)
    instances = tmp_path / "instances.jsonl"
    instances.write_text("".join(json.dumps({"instance_id": n, "repo": "acme/m",
                                             "base_commit": base}) + "\n"
                                 for n in patches), encoding="utf-8")
    preds = tmp_path / "agent.jsonl"
    preds.write_text("".join(json.dumps({"instance_id": n, "model_name_or_path": "agent",
                                         "model_patch": p}) + "\n"
                             for n, p in patches.items()), encoding="utf-8")
    batch: dict[str, dict[str, list[tuple[object, ...]]]] = {}
    for jobs in ("1", "2"):
        db = tmp_path / f"j{jobs}.sqlite"
        proc = subprocess.run([sys.executable, "-m", "provscore", "batch", str(preds),
                               "--instances", str(instances), "--repos", str(mirrors),
                               "--db", str(db), "--no-cache", "-j", jobs, "--chunk-size",
                               "3", "--progress", "none"],
                              capture_output=True, text=True, check=False)
        assert proc.returncode == 0, proc.stderr
        con = sqlite3.connect(db)
        rows: dict[str, list[tuple[object, ...]]] = {n: [] for n in patches}
        for iid, *finding in con.execute("SELECT instance_id, code, name, action, path, line, "
                                         "message FROM findings ORDER BY rowid"):
            rows[iid].append(tuple(finding))
        decisions = dict(con.execute("SELECT instance_id, decision FROM patches"))
        con.close()
        batch[jobs] = {n: [*rows[n], ("decision", decisions[n])] for n in patches}
    assert batch["1"] == batch["2"]
    for name, patch in patches.items():
        diff = tmp_path / f"{name}.diff"
        diff.write_text(patch, encoding="utf-8")
        proc = subprocess.run([sys.executable, "-m", "provscore", "score", "--repo",
                               str(mirrors / "acme__m"), "--base", base, "--diff", str(diff),
                               "--static-only", "--format", "json"],
                              capture_output=True, text=True, check=False)
        report = json.loads(proc.stdout)
        alone = [(f["code"], f["name"], f["action"], f["path"], f["line"], f["message"])
                 for f in report["findings"]]
        assert batch["1"][name] == [*alone, ("decision", report["decision"])], name
    assert any(len(v) > 1 for v in batch["1"].values())  # findings were compared
