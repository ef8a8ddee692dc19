"""Coverage of the touched code end to end (PS701-PS704), the property catalog, and the
graph / coverage / catalog commands: real repositories, real pytest runs, real JUnit."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from tests_support import SESSION, GitRepo, codes

from provscore.cli import main
from provscore.errors import InputError
from provscore.model import Action, Decision
from provscore.oracle.catalog import read_catalog
from provscore.oracle.contract import load_oracle_contract
from provscore.pipeline import ScoreRequest, score
from provscore.report.model import Report

BASE = {
    "pytest.ini": "[pytest]\npythonpath = src\ntestpaths = tests\n",
    "src/shop/__init__.py": "",
    "src/shop/price.py": textwrap.dedent('''\
        def discount(total, pct):
            return total - total * pct / 100


        def tax(total):
            return round(total * 1.2, 2)
        '''),
    "src/shop/names.py": "def slug(name):\n    return name.lower().replace(' ', '-')\n",
    "tests/test_price.py": textwrap.dedent('''\
        from shop.price import discount


        def test_discount():
            assert discount(100, 10) == 90


        def test_no_discount():
            assert discount(50, 0) == 50
        '''),
    "tests/test_names.py": textwrap.dedent('''\
        from shop.names import slug


        def test_slug():
            assert slug("A B") == "a-b"
        '''),
}
BROKEN = BASE["src/shop/price.py"].replace("return total - total * pct / 100",
                                           "return total + total * pct / 100")


def run_tests(repo: GitRepo, patch: bytes, out: Path, *selected: str) -> Path:
    """Run the selected base tests against the patched code, off-tree, into JUnit XML."""
    work = out.parent / f"work-{out.stem}"
    repo.git("worktree", "add", "-q", "--detach", str(work), "HEAD")
    try:
        subprocess.run(["git", "-C", str(work), "apply", "-"], input=patch, check=True)
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        *selected, f"--junitxml={out}"], cwd=work, capture_output=True,
                       check=False)
    finally:
        repo.git("worktree", "remove", "--force", str(work))
    return out


def scored(repo: GitRepo, patch: bytes, results: tuple[Path, ...],
           oracle: Path | None = None) -> Report:
    return score(ScoreRequest(repo=repo.root, base="HEAD", diff=patch, results=results,
                              oracle_dir=oracle, contract=load_oracle_contract(oracle)),
                 SESSION)


def oracle_dir(tmp_path: Path, contract: str = "", **files: str) -> Path:
    d = tmp_path / "oracle"
    d.mkdir(exist_ok=True)
    if contract:
        (d / "score_contract.toml").write_text(contract)
    for name, text in files.items():
        (d / name.replace("__", ".")).write_text(textwrap.dedent(text))
    return d


def test_results_that_never_reach_the_touched_function_are_ps701(repo: GitRepo,
                                                                tmp_path: Path) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/shop/price.py": BROKEN})
    only_names = run_tests(repo, patch, tmp_path / "names.xml", "tests/test_names.py")
    report = scored(repo, patch, (only_names,))
    assert report.decision is Decision.REJECT
    ps701 = [f for f in report.findings if f.code == "PS701"]
    assert [(f.message, f.action, f.location.path if f.location else None) for f in ps701] == [
        ("shop.price:discount is touched but none of the 2 tests or properties that reach it "
         "has a result (tests/test_price.py::test_discount, "
         "tests/test_price.py::test_no_discount)", Action.REJECT, "src/shop/price.py")]
    ps704 = next(f for f in report.findings if f.code == "PS704")
    assert ps704.message == ("results cover 1 of 3 collected base tests (33.3%); the "
                             "contract requires 100%")
    assert report.coverage is not None
    row = report.coverage.symbols[0]
    assert (row.symbol, row.status, row.tests_total, row.tests_with_results) == (
        "shop.price:discount", "uncovered", 2, 0)


def test_the_same_patch_with_the_covering_results_is_judged_on_them(repo: GitRepo,
                                                                   tmp_path: Path) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/shop/price.py": BROKEN})
    covering = run_tests(repo, patch, tmp_path / "price.xml", "tests/test_price.py")
    oracle = oracle_dir(tmp_path, "[coverage]\nmin_base_share = 0.5\n")
    report = scored(repo, patch, (covering,), oracle)
    assert "PS701" not in codes(report) and "PS704" not in codes(report)
    assert "PS501" in codes(report)  # the covering test sees the breakage
    honest = repo.diff({"src/shop/price.py": BASE["src/shop/price.py"].replace(
        "return total - total * pct / 100", "return total * (100 - pct) / 100")})
    green = run_tests(repo, honest, tmp_path / "green.xml", "tests/test_price.py")
    report = scored(repo, honest, (green,), oracle)
    assert report.decision is Decision.PASS, codes(report)
    assert report.coverage is not None and report.coverage.share == 0.6667
    assert [r.status for r in report.coverage.symbols] == ["covered"]


def test_partly_covered_patch_takes_the_contracts_action(repo: GitRepo, tmp_path: Path
                                                         ) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/shop/price.py": BASE["src/shop/price.py"].replace(
        "return total - total * pct / 100", "return total * (100 - pct) / 100").replace(
        "round(total * 1.2, 2)", "round(total * 12 / 10, 2)")})
    results = run_tests(repo, patch, tmp_path / "all.xml")
    report = scored(repo, patch, (results,))
    ps701 = [f for f in report.findings if f.code == "PS701"]
    assert [(f.message, f.action) for f in ps701] == [
        ("shop.price:tax is touched but no base test or catalog property reaches it",
         Action.PENALTY)]
    assert report.decision is Decision.REVIEW
    strict = oracle_dir(tmp_path, '[coverage]\nuncovered_action = "reject"\n')
    assert scored(repo, patch, (results,), strict).decision is Decision.REJECT


CHECKS = '''\
from shop.price import discount


def check_discount_bounded():
    for pct in range(0, 101, 10):
        assert 0 <= discount(100, pct) <= 100


def test_discount_bounded():
    check_discount_bounded()
'''
CATALOG = '''\
version = 1
subject = "shop"

[[properties]]
id = "P1_discount_bounded"
statement = "a discount never makes a price negative or larger"
kind = "pure_check"
check = "checks.py::check_discount_bounded"
trials = 10

[[properties]]
id = "P2_tax"
statement = "tax is 20 percent"
kind = "forall_trace"
covers = ["shop.price:tax"]

[oracle_rules]
author_may_edit = []
fail_closed_on_unknown_property = true
freeze_is_not_a_pass = true
'''


def test_catalog_reads_and_names_property_and_key(tmp_path: Path) -> None:
    d = oracle_dir(tmp_path, checks__py=CHECKS, properties__toml=CATALOG)
    catalog = read_catalog(d / "properties.toml")
    p1 = catalog.property("P1_discount_bounded")
    assert p1 is not None and p1.check is not None
    assert (p1.kind, p1.trials, p1.check.node_id) == (
        "pure_check", 10, "checks.py::check_discount_bounded")
    assert catalog.rules.fail_closed_on_unknown_property
    for bad, message in [
        (CATALOG.replace("trials = 10", "trials = 0"),
         "property 'P1_discount_bounded': 'trials' must be at least 1, got 0"),
        (CATALOG.replace('kind = "forall_trace"', 'kind = "vibes"'),
         "property 'P2_tax': 'kind' must be one of"),
        (CATALOG.replace("check_discount_bounded\"", "nope\""),
         "property 'P1_discount_bounded': 'check': checks.py defines no function 'nope'"),
        (CATALOG.replace('covers = ["shop.price:tax"]', 'covers = ["shop/price.py"]'),
         "property 'P2_tax': 'covers': 'shop/price.py' is not a module/symbol glob"),
        (CATALOG.replace("statement = \"tax", "stament = \"tax"),
         "property 'P2_tax': unknown key 'stament'"),
        (CATALOG.replace("freeze_is_not_a_pass = true", "freeze_is_not_a_pass = false"),
         "oracle_rules: 'freeze_is_not_a_pass': false is not supported"),
        (CATALOG.replace('id = "P2_tax"', 'id = "P1_discount_bounded"'),
         "property 'P1_discount_bounded': 'id' is given twice"),
    ]:
        (d / "properties.toml").write_text(bad)
        with pytest.raises(InputError) as err:
            read_catalog(d / "properties.toml")
        assert message in str(err.value) and str(d / "properties.toml") in str(err.value)


def test_catalog_check_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    d = oracle_dir(tmp_path, checks__py=CHECKS, properties__toml=CATALOG)
    assert main(["catalog", "check", str(d)]) == 0
    assert "2 properties (1 with a check function): P1_discount_bounded, P2_tax" in \
        capsys.readouterr().out
    (d / "properties.toml").write_text(CATALOG.replace("trials = 10", "trials = -1"))
    assert main(["catalog", "check", str(d)]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'trials' must be at least 1" in err
    assert main(["catalog", "check", str(tmp_path / "nowhere")]) == 3


def property_run(repo: GitRepo, patch: bytes, oracle: Path, out: Path) -> Path:
    work = out.parent / "patched"
    repo.git("worktree", "add", "-q", "--detach", str(work), "HEAD")
    try:
        subprocess.run(["git", "-C", str(work), "apply", "-"], input=patch, check=True)
        env = {**__import__("os").environ, "PYTHONPATH": str(work / "src")}
        subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        "checks.py", f"--junitxml={out}"], cwd=oracle, env=env,
                       capture_output=True, check=False)
    finally:
        repo.git("worktree", "remove", "--force", str(work))
    return out


def test_catalog_properties_cover_what_their_checks_reach(repo: GitRepo, tmp_path: Path
                                                          ) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/shop/price.py": BASE["src/shop/price.py"].replace(
        "return total - total * pct / 100", "return total * (100 - pct) / 100")})
    junit = tmp_path / "p.xml"
    junit.write_text('<testsuite><testcase classname="checks" name="check_discount_bounded"/>'
                     '</testsuite>')
    oracle = oracle_dir(tmp_path, "[coverage]\nmin_base_share = 0.0\n", checks__py=CHECKS,
                        properties__toml=CATALOG)
    base_results = run_tests(repo, patch, tmp_path / "base.xml", "tests/test_price.py")
    report = scored(repo, patch, (junit, base_results), oracle)
    assert report.coverage is not None
    row = report.coverage.symbols[0]
    assert (row.symbol, [(p.name, p.outcome) for p in row.properties]) == (
        "shop.price:discount", [("P1_discount_bounded", "property_passed")])
    assert report.coverage.green_properties == ("P1_discount_bounded",)
    assert report.decision is Decision.PASS, codes(report)


def test_green_set_empty_when_every_covering_property_is_frozen(repo: GitRepo,
                                                                tmp_path: Path) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/shop/price.py": BASE["src/shop/price.py"].replace(
        "round(total * 1.2, 2)", "round(total * 12 / 10, 2)")})
    freeze = json.dumps({"property_id": "P2_tax", "owner": "human", "reason": "flaky clock",
                         "frozen_on": "2026-11-01", "expires_on": "2026-12-30"})
    oracle = oracle_dir(tmp_path, "[coverage]\nmin_base_share = 0.0\n", checks__py=CHECKS,
                        properties__toml=CATALOG, flake_freeze__jsonl=freeze + "\n")
    results = run_tests(repo, patch, tmp_path / "all.xml")
    report = score(ScoreRequest(repo=repo.root, base="HEAD", diff=patch, results=(results,),
                                oracle_dir=oracle, contract=load_oracle_contract(oracle),
                                today=__import__("datetime").date(2026, 12, 1)), SESSION)
    ps703 = [f.message for f in report.findings if f.code == "PS703"]
    assert ps703 == ["no property covering the patch is green: P2_tax (no_result)"]
    assert report.decision is Decision.REJECT


def test_unknown_property_in_results_and_freezes_is_ps702(repo: GitRepo, tmp_path: Path
                                                          ) -> None:
    repo.commit(BASE)
    patch = repo.diff({"src/shop/price.py": BASE["src/shop/price.py"].replace(
        "return total - total * pct / 100", "return total * (100 - pct) / 100")})
    freeze = json.dumps({"property_id": "P9_typo", "owner": "human", "reason": "flaky",
                         "frozen_on": "2026-11-01", "expires_on": "2026-12-30"})
    oracle = oracle_dir(tmp_path, "[coverage]\nmin_base_share = 0.0\n", checks__py=CHECKS,
                        properties__toml=CATALOG, flake_freeze__jsonl=freeze + "\n")
    junit = tmp_path / "p.xml"
    junit.write_text('<testsuite><testcase classname="checks" name="test_discount_bounded"/>'
                     '</testsuite>')
    report = score(ScoreRequest(repo=repo.root, base="HEAD", diff=patch, results=(junit,),
                                oracle_dir=oracle, contract=load_oracle_contract(oracle),
                                today=__import__("datetime").date(2026, 12, 1)), SESSION)
    ps702 = sorted((f.message, f.action) for f in report.findings if f.code == "PS702")
    assert ps702 == [
        ("freeze ledger line 1 names property P9_typo, which the catalog does not define",
         Action.REJECT),
        ("result names property checks.py::test_discount_bounded, which the catalog does "
         "not define", Action.REJECT)]
    relaxed = CATALOG.replace("fail_closed_on_unknown_property = true",
                              "fail_closed_on_unknown_property = false")
    (oracle / "properties.toml").write_text(relaxed)
    report = score(ScoreRequest(repo=repo.root, base="HEAD", diff=patch, results=(junit,),
                                oracle_dir=oracle, contract=load_oracle_contract(oracle),
                                today=__import__("datetime").date(2026, 12, 1)), SESSION)
    assert {f.action for f in report.findings if f.code == "PS702"} == {Action.INFO}


def test_graph_command_formats(repo: GitRepo, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    repo.commit(BASE)
    out = tmp_path / "g.json"
    assert main(["graph", "--repo", str(repo.root), "--rev", "HEAD", "-o", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert {"source": "test_price:test_discount", "target": "shop.price:discount",
            "kind": "call"} in doc["edges"]
    assert doc["stats"]["calls"] >= 3
    assert "edges;" in capsys.readouterr().err
    assert main(["graph", "--repo", str(repo.root), "--format", "graphml", "--no-cache"]) == 0
    assert "<graphml" in capsys.readouterr().out
    assert main(["graph", "--repo", str(repo.root), "--format", "dot"]) == 0
    dot = capsys.readouterr().out
    assert '"test_names:test_slug" -> "shop.names:slug" [kind="call"];' in dot
    assert main(["graph", "--repo", str(repo.root), "--rev", "nope"]) == 3


def test_coverage_command(repo: GitRepo, tmp_path: Path,
                          capsys: pytest.CaptureFixture[str]) -> None:
    repo.commit(BASE)
    patch = tmp_path / "p.diff"
    patch.write_bytes(repo.diff({"src/shop/price.py": BROKEN}))
    assert main(["coverage", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch),
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["symbols"] == [{
        "symbol": "shop.price:discount", "kind": "function", "path": "src/shop/price.py",
        "sides": ["post", "pre"], "lines": [2, 2],
        "tests": ["tests/test_price.py::test_discount", "tests/test_price.py::test_no_discount"],
        "properties": []}]
    assert main(["coverage", "--repo", str(repo.root), "--base", "HEAD", "--diff",
                 str(patch)]) == 0
    assert "shop.price:discount  (function, src/shop/price.py:2)" in capsys.readouterr().out


def test_every_format_shows_what_covers_the_touched_code(repo: GitRepo, tmp_path: Path
                                                         ) -> None:
    from provscore.report import RenderOptions, render

    repo.commit(BASE)
    patch = repo.diff({"src/shop/price.py": BROKEN})
    report = scored(repo, patch, (run_tests(repo, patch, tmp_path / "n.xml",
                                            "tests/test_names.py"),))
    text = render(report, "text", RenderOptions())
    assert "What covers the touched code" in text and "shop.price:discount" in text
    md = render(report, "markdown", RenderOptions())
    assert "What covers the touched code (1 symbols)" in md
    sarif = json.loads(render(report, "sarif", RenderOptions()))
    assert sarif["runs"][0]["properties"]["coverage"]["symbols"][0]["status"] == "uncovered"
    gh = render(report, "github", RenderOptions())
    assert "::notice title=provscore coverage::touched symbols: shop.price:discount: " \
        "uncovered" in gh
    doc = json.loads(render(report, "json", RenderOptions()))
    assert doc["coverage"]["base_tests"] == 3


def test_yaml_catalog_reads_like_toml(tmp_path: Path) -> None:
    pytest.importorskip("yaml")
    d = oracle_dir(tmp_path, checks__py=CHECKS, properties__yaml='''\
        version: 1
        subject: shop
        properties:
          - id: P1_discount_bounded
            statement: "a discount never makes a price negative or larger"
            kind: pure_check
            check: checks.py::check_discount_bounded
          - id: P2_tax
            statement: tax is 20 percent
            kind: pairwise
            covers: ["shop.price:tax"]
        oracle_rules:
          author_may_edit: []
          fail_closed_on_unknown_property: true
          freeze_is_not_a_pass: true
        ''')
    catalog = read_catalog(d / "properties.yaml")
    assert [(p.id, p.kind, p.covers) for p in catalog.properties] == [
        ("P1_discount_bounded", "pure_check", ()), ("P2_tax", "pairwise", ("shop.price:tax",))]
    (d / "properties.toml").write_text(CATALOG)
    with pytest.raises(InputError, match="two property catalogs"):
        __import__("provscore.oracle.catalog").oracle.catalog.find_catalog(d)


def test_the_documented_catalog_reads(tmp_path: Path) -> None:
    import re

    doc = (Path(__file__).resolve().parent.parent / "docs" / "ledgers.md").read_text()
    (block,) = [b for b in re.findall(r"```toml\n(.*?)```", doc, flags=re.S)
                if "[[properties]]" in b]
    d = oracle_dir(tmp_path, checks__py="def check_cap():\n    pass\n", properties__toml=block)
    catalog = read_catalog(d / "properties.toml")
    (p,) = catalog.properties
    assert (p.id, p.kind, p.covers, p.trials, p.timeout_s) == (
        "P1_cap", "forall_trace", ("bucket.core:Bucket.*",), 80, 45.0)
    assert p.check is not None and p.check.node_id == "checks.py::check_cap"
