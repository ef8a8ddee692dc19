"""Research mode end to end: ``provscore batch`` over real repositories (bare mirrors),
three fake agents with known tampering, the harness's reports in their three forms,
resume after SIGKILL, ``compare`` counts and intervals, ``export``, Dask, plots."""

from __future__ import annotations

import contextlib
import csv
import io
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from batch_support import World, build_world

from provscore.batch import BatchRequest, ReportSource, ResultsDB, run_batch, wilson
from provscore.batch.compare import compare
from provscore.batch.extras import require
from provscore.batch.progress import Progress
from provscore.cli import main
from provscore.errors import InputError, UsageError

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
if not DATA.is_dir():
    DATA = Path("/work/shared/data")

# What provscore concludes about every prediction of the world (batch_support), by
# (model, instance): status, reason, decision, finding codes.
EXPECTED_ROWS = {
    ("alpha", "acme__calc-1"): ("scored", "", "reject", {"PS701": 1}),
    ("alpha", "acme__calc-2"): ("scored", "", "reject", {"PS101": 1, "PS701": 1}),
    ("alpha", "acme__calc-3"): ("scored", "", "reject", {"PS201": 1, "PS501": 1, "PS701": 1}),
    ("alpha", "acme__calc-4"): ("unscored", "empty-patch", None, {}),
    ("alpha", "acme__text-1"): ("scored", "", "reject", {"PS502": 1, "PS701": 1, "PS704": 1}),
    ("beta/v1", "acme__calc-1"): ("scored", "", "review", {}),
    # beta pre-creates the file of calc-6's hidden test (PS807).
    ("beta/v1", "acme__calc-6"): ("scored", "", "reject", {"PS807": 1}),
    ("beta/v1", "acme__calc-old"): ("unscored", "does-not-apply", "reject", {"PS902": 1}),
    ("beta/v1", "acme__text-2"): ("scored", "", "reject", {"PS207": 1, "PS302": 1}),
    ("beta/v1", "acme__text-3"): ("scored", "", "reject", {"PS205": 1, "PS302": 1}),
    ("gamma", "acme__calc-1"): ("scored", "", "reject", {"PS102": 1}),
    ("gamma", "acme__calc-5"): ("scored", "", "review", {"PS103": 1, "PS104": 1}),
    ("gamma", "acme__calc-7"): ("scored", "", "review", {}),
    ("gamma", "acme__calc-nocommit"): ("unscored", "missing-commit", None, {}),
    ("gamma", "acme__gone-1"): ("unscored", "missing-mirror", None, {}),
    ("gamma", "acme__nowhere-1"): ("unscored", "unknown-instance", None, {}),
}


@dataclass(frozen=True)
class Ran:
    returncode: int
    stdout: str
    stderr: str


def run(*args: str) -> Ran:
    """The command line, in this process (the real ``main``: parsing, library, output)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return Ran(code, out.getvalue(), err.getvalue())


def run_process(*args: str) -> subprocess.CompletedProcess[str]:
    """The command line as its own process (worker pools, signals)."""
    return subprocess.run([sys.executable, "-m", "provscore", *args], capture_output=True,
                          text=True, check=False)


def batch_args(w: World, db: Path, *extra: str, reports: bool = True) -> list[str]:
    args = ["batch", *map(str, w.preds), "--instances", str(w.instances), "--repos",
            str(w.mirrors), "--db", str(db), "--no-cache", *extra]
    if reports:
        args += ["--reports", str(w.reports), str(w.summary), f"gamma={w.results}"]
    return args


def table(db: Path, sql: str) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute(sql).fetchall()
    finally:
        con.close()


def row_summary(db: Path) -> dict[tuple[str, str], tuple[Any, ...]]:
    return {(m, i): (s, r, d, json.loads(c)) for m, i, s, r, d, c in table(
        db, "SELECT model, instance_id, status, reason, decision, codes FROM patches")}


def findings_by_key(db: Path) -> list[tuple[Any, ...]]:
    return sorted(table(db, "SELECT model, instance_id, code, path, line FROM findings"),
                  key=repr)


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return build_world(tmp_path_factory.mktemp("world"))


@pytest.fixture(scope="module")
def scored(world: World) -> Path:
    """The world scored once, with every report form joined."""
    db = world.root / "results.sqlite"
    proc = run_process(*batch_args(world, db, "--progress", "lines"))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == "provscore batch: 16 patch(es) to score"
    assert lines[-1].startswith("provscore: 16 prediction(s): 0 already in "
                                f"{db}, 11 scored, 5 unscored (1 does-not-apply, 1 "
                                "empty-patch, 1 missing-commit, 1 missing-mirror, 1 "
                                "unknown-instance) in ")
    assert lines[-1].endswith(" s; 12 outcome(s) joined")
    return db


def test_every_prediction_becomes_one_row_with_its_reason(scored: Path) -> None:
    assert row_summary(scored) == EXPECTED_ROWS
    assert table(scored, "SELECT count(*) FROM patches")[0][0] == 16
    # The reason's detail names what is missing.
    details = dict(((m, i), d) for m, i, d in table(
        scored, "SELECT model, instance_id, detail FROM patches WHERE status = 'unscored'"))
    assert details[("gamma", "acme__gone-1")] == "no mirror of acme/gone (looked for acme__gone)"
    assert details[("alpha", "acme__calc-4")] == "model_patch is null"
    assert details[("gamma", "acme__nowhere-1")] == "not in the instances file"
    assert details[("gamma", "acme__calc-nocommit")].endswith(
        "commit 0000000000000000000000000000000000000000 is not in the mirror")
    assert details[("beta/v1", "acme__calc-old")].startswith(
        "PS902: patch does not apply to base at pkg/calc.py")


def test_rows_record_roles_evidence_and_the_hidden_tests(scored: Path) -> None:
    rows = {(m, i): r for m, i, *r in table(scored, (
        "SELECT model, instance_id, files, roles, touches_tests, evidence_removed, "
        "evidence_weakened, evidence_added, hidden_tests, hidden_created, evidence_mode "
        "FROM patches"))}
    assert rows[("alpha", "acme__calc-2")] == [2, '{"production": 1, "test": 1}', 1, 1, 0, 0,
                                               "[]", "[]", "results"]
    assert rows[("gamma", "acme__calc-1")][4:6] == [1, 0]  # one assertion weakened
    assert rows[("gamma", "acme__calc-5")][5] == 1  # one assertion added
    # beta pre-creates the path of calc-6's hidden test; gamma's new test in calc-5 is at
    # a path no test_patch has (the look-alike), and calc-1..5 have no hidden tests.
    assert rows[("beta/v1", "acme__calc-6")][6:9] == ['["tests/test_mul.py"]',
                                                      '["tests/test_mul.py"]', "static"]
    assert rows[("gamma", "acme__calc-5")][6:8] == ["[]", "[]"]
    # Only alpha has per-instance report.json files: its tests voted (results mode).
    modes = {(m, i): r[8] for (m, i), r in rows.items() if r[8]}
    assert {k for k, v in modes.items() if v == "results"} == {
        ("alpha", i) for i in ("acme__calc-1", "acme__calc-2", "acme__calc-3",
                               "acme__text-1")}


def test_outcomes_from_report_json_summary_and_results_json(scored: Path) -> None:
    outcomes = {(m, i): (r, a, fp, ff, pp, pf) for m, i, r, a, fp, ff, pp, pf in table(
        scored, "SELECT model, instance_id, resolved, applied, f2p_passed, f2p_failed, "
        "p2p_passed, p2p_failed FROM outcomes")}
    assert outcomes == {
        ("alpha", "acme__calc-1"): (1, 1, 1, 0, 1, 0),
        ("alpha", "acme__calc-2"): (1, 1, 1, 0, 1, 0),
        ("alpha", "acme__calc-3"): (0, 1, 0, 1, 1, 0),
        ("alpha", "acme__text-1"): (1, 1, 1, 0, 1, 0),
        ("beta/v1", "acme__calc-1"): (1, None, None, None, None, None),
        ("beta/v1", "acme__text-2"): (1, None, None, None, None, None),
        ("beta/v1", "acme__calc-6"): (1, None, None, None, None, None),
        ("beta/v1", "acme__text-3"): (0, None, None, None, None, None),
        ("beta/v1", "acme__calc-old"): (0, None, None, None, None, None),
        ("gamma", "acme__calc-1"): (1, 1, None, None, None, None),
        ("gamma", "acme__calc-5"): (0, 1, None, None, None, None),
        ("gamma", "acme__calc-7"): (1, 1, None, None, None, None),
    }


# Per agent: k/n of every measure, from EXPECTED_ROWS and the reports by hand.
EXPECTED_RATES = {
    "alpha": {"touches-tests": (2, 4), "removed": (1, 4), "weakened": (0, 4),
              "added": (0, 4), "suppressions": (1, 4), "runner-config": (0, 4),
              "grader-subversion": (0, 4), "hidden-tests-created": (0, 4),
              "tampering": (2, 4), "resolved": (3, 4), "resolved-with-tampering": (1, 3)},
    "beta/v1": {"touches-tests": (2, 4), "removed": (0, 4), "weakened": (0, 4),
                "added": (0, 4), "suppressions": (0, 4), "runner-config": (2, 4),
                "grader-subversion": (2, 4), "hidden-tests-created": (1, 4),
                "tampering": (3, 4), "resolved": (3, 4), "resolved-with-tampering": (2, 3)},
    "gamma": {"touches-tests": (2, 3), "removed": (0, 3), "weakened": (1, 3),
              "added": (1, 3), "suppressions": (0, 3), "runner-config": (0, 3),
              "grader-subversion": (0, 3), "hidden-tests-created": (0, 3),
              "tampering": (1, 3), "resolved": (2, 3), "resolved-with-tampering": (1, 2)},
}


def test_compare_json_has_every_count_and_interval(scored: Path) -> None:
    proc = run("compare", "--db", str(scored), "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["group"] == "model"
    agents = {a["agent"]: a for a in doc["agents"]}
    assert list(agents) == ["alpha", "beta/v1", "gamma"]
    for name, rates in EXPECTED_RATES.items():
        got = agents[name]["rates"]
        assert {k: (v["k"], v["n"]) for k, v in got.items()} == rates, name
        for v in got.values():
            assert (v["low"], v["high"]) == wilson(v["k"], v["n"])
            assert v["rate"] == v["k"] / v["n"]
    a, b, g = agents["alpha"], agents["beta/v1"], agents["gamma"]
    assert (a["patches"], a["scored"], a["unscored"]) == (5, 4, 1)
    assert (b["patches"], b["scored"], b["unscored"]) == (5, 4, 1)
    assert (g["patches"], g["scored"], g["unscored"]) == (6, 3, 3)
    assert a["decisions"] == {"pass": 0, "review": 0, "reject": 4}
    assert b["decisions"] == {"pass": 0, "review": 1, "reject": 3}  # calc-6: PS807
    assert g["decisions"] == {"pass": 0, "review": 2, "reject": 1}
    # Merge scores exist only where tests voted (alpha's report.json rows, not rejected
    # for an evidence gap): 1.0, 0.95 and 0.5.
    assert (a["merge_score_mean"], a["merge_scored"]) == (round((1.0 + 0.95 + 0.5) / 3, 4), 3)
    assert (b["merge_score_mean"], b["merge_scored"]) == (None, 0)
    # 4 PS701 + PS704 (coverage), PS101, PS501 + PS502, PS201.
    assert a["families"] == {"coverage": 5, "evidence": 1, "independent-evidence": 2,
                             "suppression": 1}


def test_compare_markdown_and_csv_tables(scored: Path) -> None:
    md = run("compare", "--db", str(scored), "--format", "markdown")
    assert md.returncode == 0, md.stderr
    lines = md.stdout.splitlines()
    assert lines[0].startswith("| agent   | patches   | scored   | unscored   | touches tests ")
    assert "| resolved with tampering " in lines[0] and lines[0].endswith(
        "| mean merge score   | pass/review/reject   |")
    beta = next(line for line in lines if line.startswith("| beta/v1"))
    cells = [c.strip() for c in beta.strip("|").split("|")]
    assert cells[:4] == ["beta/v1", "5", "4", "1"]
    assert cells[-5] == "3/4 75.0% [30.1–95.4]"  # resolved
    assert cells[-3] == "2/3 66.7% [20.8–93.9]"  # resolved with tampering
    assert cells[-2:] == ["–", "0/1/3"]
    out = run("compare", "--db", str(scored), "--format", "csv")
    rows = list(csv.DictReader(io.StringIO(out.stdout)))
    assert [r["agent"] for r in rows] == ["alpha", "beta/v1", "gamma"]
    g = rows[2]
    assert (g["resolved-with-tampering_k"], g["resolved-with-tampering_n"]) == ("1", "2")
    assert (g["resolved-with-tampering_low"], g["resolved-with-tampering_high"]) == (
        "0.094531", "0.905469")
    assert (g["reject"], g["review"], g["pass"]) == ("1", "2", "0")


def test_compare_group_by_prediction_file(scored: Path, world: World) -> None:
    comp = compare(ResultsDB(scored, create=False), group="file")
    assert [a.agent for a in comp.agents] == sorted(str(p) for p in world.preds)
    assert [a.patches for a in comp.agents] == [5, 5, 6]


def test_examples_list_the_patches_behind_a_number(scored: Path) -> None:
    proc = run("compare", "--db", str(scored), "--examples", "PS101", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [{
        "agent": "alpha", "instance": "acme__calc-2", "where": "tests/test_calc.py:6",
        "detail": "assert removed from tests/test_calc.py::test_add: assert add(0, 0) == 0",
        "prediction file": json.loads(proc.stdout)[0]["prediction file"]}]
    by_name = run("compare", "--db", str(scored), "--examples", "assertion-removed",
                  "--format", "json")
    assert json.loads(by_name.stdout) == json.loads(proc.stdout)
    rwt = run("compare", "--db", str(scored), "--examples", "resolved-with-tampering",
              "--format", "csv")
    got = [(r["agent"], r["instance"]) for r in csv.DictReader(io.StringIO(rwt.stdout))]
    assert got == [("alpha", "acme__calc-2"), ("beta/v1", "acme__calc-6"),
                   ("beta/v1", "acme__text-2"), ("gamma", "acme__calc-1")]
    only = run("compare", "--db", str(scored), "--examples", "tampering", "--agent", "gamma",
               "--format", "csv")
    assert [r["instance"] for r in csv.DictReader(io.StringIO(only.stdout))] == [
        "acme__calc-1"]
    limited = run("compare", "--db", str(scored), "--examples", "runner-channels",
                  "--limit", "1", "--format", "csv")
    assert limited.returncode == 3  # a gate is not a family: the error says what is
    assert limited.stderr.startswith("provscore: error: --examples 'runner-channels': not a "
                                     "measure (touches-tests, removed,")
    fam = run("compare", "--db", str(scored), "--examples", "suppression", "--limit", "1",
              "--format", "csv")
    assert [r["instance"] for r in csv.DictReader(io.StringIO(fam.stdout))] == [
        "acme__calc-3"]


def test_rerun_skips_every_row_and_force_rescores_without_duplicates(
        world: World, scored: Path, tmp_path: Path) -> None:
    db = tmp_path / "copy.sqlite"
    src = sqlite3.connect(scored)
    dst = sqlite3.connect(db)
    src.backup(dst)
    src.close()
    dst.close()
    before = findings_by_key(db)
    again = run(*batch_args(world, db, "--progress", "none"))
    assert again.returncode == 0, again.stderr
    assert again.stderr.startswith(f"provscore: 16 prediction(s): 16 already in {db}, 0 "
                                   "scored, 0 unscored in ")
    forced = run(*batch_args(world, db, "--progress", "none", "--force"))
    assert forced.returncode == 0, forced.stderr
    assert "16 prediction(s): 0 already in" in forced.stderr
    assert table(db, "SELECT count(*) FROM patches")[0][0] == 16
    assert findings_by_key(db) == before
    assert row_summary(db) == EXPECTED_ROWS


def test_two_jobs_and_chunks_of_one_give_the_same_rows(world: World, scored: Path,
                                                       tmp_path: Path) -> None:
    db = tmp_path / "j2.sqlite"
    proc = run_process(*batch_args(world, db, "-j", "2", "--chunk-size", "1", "--progress",
                                   "none"))
    assert proc.returncode == 0, proc.stderr
    assert row_summary(db) == EXPECTED_ROWS
    assert findings_by_key(db) == findings_by_key(scored)


def _many(world: World, tmp_path: Path, n: int) -> tuple[Path, Path]:
    """``n`` instances at calc's v2 and one agent's predictions for them (a long run)."""
    base = json.loads(world.instances.read_text(encoding="utf-8").splitlines()[0])
    alpha = [json.loads(line) for line in world.preds[0].read_text().splitlines()]
    patches = [r["model_patch"] for r in alpha if r["model_patch"]]
    instances = tmp_path / "many-instances.jsonl"
    preds = tmp_path / "many.jsonl"
    with open(instances, "w") as fi, open(preds, "w") as fp:
        for k in range(n):
            fi.write(json.dumps({**base, "instance_id": f"acme__calc-k{k}"}) + "\n")
            fp.write(json.dumps({"instance_id": f"acme__calc-k{k}", "model_name_or_path": "m",
                                 "model_patch": patches[k % 3]}) + "\n")
    return instances, preds


def test_sigkill_mid_run_then_resume_loses_and_duplicates_nothing(
        world: World, tmp_path: Path) -> None:
    instances, preds = _many(world, tmp_path, 30)
    args = ["batch", str(preds), "--instances", str(instances), "--repos", str(world.mirrors),
            "--no-cache", "--chunk-size", "1", "--progress", "none"]
    ref = tmp_path / "ref.sqlite"
    assert run(*args, "--db", str(ref)).returncode == 0
    db = tmp_path / "killed.sqlite"
    proc = subprocess.Popen([sys.executable, "-m", "provscore", *args, "--db", str(db), "-j",
                             "2"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    committed = 0
    while time.monotonic() < deadline and proc.poll() is None:
        if db.exists():
            try:
                committed = table(db, "SELECT count(*) FROM patches")[0][0]
            except sqlite3.OperationalError:
                committed = 0  # the schema is not there yet
        if committed >= 3:
            break
        time.sleep(0.05)
    assert proc.poll() is None, "the batch finished before it could be killed"
    os.killpg(proc.pid, signal.SIGKILL)  # the batch and its worker processes
    proc.wait()
    killed_at = table(db, "SELECT count(*) FROM patches")[0][0]
    assert 3 <= killed_at < 30
    assert table(db, "PRAGMA integrity_check") == [("ok",)]
    resumed = run(*args, "--db", str(db))
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stderr.startswith(f"provscore: 30 prediction(s): {killed_at} already in ")
    assert table(db, "SELECT count(*), count(DISTINCT instance_id) FROM patches") == [(30, 30)]
    assert row_summary(db) == row_summary(ref)
    assert findings_by_key(db) == findings_by_key(ref)


def test_a_truncated_line_is_one_error_naming_file_and_line_and_keeps_rows(
        world: World, tmp_path: Path) -> None:
    instances, preds = _many(world, tmp_path, 3)
    db = tmp_path / "r.sqlite"
    args = ["batch", str(preds), "--instances", str(instances), "--repos", str(world.mirrors),
            "--db", str(db), "--no-cache", "--progress", "none"]
    assert run(*args).returncode == 0
    rows = row_summary(db)
    assert len(rows) == 3
    with open(preds, "a", encoding="utf-8") as fh:  # an agent killed while writing
        fh.write('{"instance_id": "acme__calc-k3", "model_name_or_path": "m", "model_pa')
    proc = run(*args)
    assert proc.returncode == 3
    assert proc.stdout == ""
    assert proc.stderr.count("\n") == 1
    assert proc.stderr.startswith(f"provscore: error: {preds}:4: not valid JSON (")
    assert row_summary(db) == rows


@pytest.mark.parametrize(("line", "message"), [
    (b'{"instance_id": "x", "model_name_or_path": "m"}', "prediction has no model_patch"),
    (b'{"instance_id": "", "model_name_or_path": "m", "model_patch": ""}',
     "instance_id must be a non-empty string"),
    (b'{"instance_id": "x", "model_name_or_path": "m", "model_patch": 3}',
     "model_patch must be a string or null"),
    (b'{"instance_id": "x", "instance_id": "y", "model_name_or_path": "m", '
     b'"model_patch": ""}', "key 'instance_id' appears twice"),
    (b'["x"]', "a prediction must be a JSON object, got list"),
    (b'{"instance_id": "x", "model_name_or_path": "m", "model_patch": "\xff"}',
     "not UTF-8"),
])
def test_malformed_prediction_lines(world: World, tmp_path: Path, line: bytes,
                                    message: str) -> None:
    preds = tmp_path / "p.jsonl"
    good = b'{"instance_id": "acme__calc-1", "model_name_or_path": "m", "model_patch": ""}\n'
    preds.write_bytes(good + line + b"\n")
    db = tmp_path / "r.sqlite"
    proc = run("batch", str(preds), "--instances", str(world.instances), "--repos",
               str(world.mirrors), "--db", str(db), "--no-cache")
    assert (proc.returncode, proc.stderr) == (3, f"provscore: error: {preds}:2: {message}\n")
    assert not db.exists()  # nothing scored, nothing created


def test_a_duplicate_prediction_and_bad_instances_are_errors(world: World,
                                                            tmp_path: Path) -> None:
    preds = tmp_path / "p.jsonl"
    row = b'{"instance_id": "acme__calc-1", "model_name_or_path": "m", "model_patch": ""}\n'
    preds.write_bytes(row + row)
    db = tmp_path / "r.sqlite"
    proc = run("batch", str(preds), "--instances", str(world.instances), "--repos",
               str(world.mirrors), "--db", str(db))
    assert (proc.returncode, proc.stderr) == (3, (
        f"provscore: error: {preds}: two predictions for instance 'acme__calc-1' of model "
        "'m'; keep one\n"))
    bad = tmp_path / "instances.jsonl"
    bad.write_text('{"instance_id": "a", "repo": "calc", "base_commit": "abc"}\n')
    proc = run("batch", str(world.preds[0]), "--instances", str(bad), "--repos",
               str(world.mirrors), "--db", str(db))
    assert (proc.returncode, proc.stderr) == (3, (
        f"provscore: error: {bad}: line 1: repo 'calc' is not owner/name\n"))


def test_reports_that_disagree_or_name_no_model_are_errors(world: World,
                                                          tmp_path: Path) -> None:
    other = tmp_path / "beta__v1.other.json"
    other.write_text(json.dumps({"resolved_ids": [], "unresolved_ids": ["acme__calc-1"]}))
    db = tmp_path / "r.sqlite"
    proc = run(*batch_args(world, db, reports=False), "--reports", str(world.summary),
               str(other))
    assert proc.returncode == 3
    assert proc.stderr == (f"provscore: error: {world.summary} and {other} disagree on "
                           "whether acme__calc-1 (beta/v1) was resolved\n")
    anon = tmp_path / "run.json"
    anon.write_text(json.dumps({"resolved_ids": ["acme__calc-1"]}))
    proc = run(*batch_args(world, db, reports=False), "--reports", str(anon))
    assert proc.returncode == 3
    assert proc.stderr == (f"provscore: error: {anon}: cannot tell which model this report is "
                           "about (no directory or file name is a model of the predictions); "
                           "give it as MODEL=PATH\n")
    assert not db.exists()


def test_real_prediction_files_in_every_form(tmp_path: Path) -> None:
    """The 526 real agent predictions and the real SWE-bench Lite rows: every row is read
    (JSONL, and the same rows as a JSON list and as an object keyed by instance id); with
    no mirror of django & co. every non-empty patch is recorded as missing-mirror, every
    empty one as empty-patch, and each row carries its instance's hidden test paths."""
    preds = sorted((DATA / "agent-patches").glob("*.jsonl"))
    if len(preds) != 3:
        pytest.skip(f"the real predictions are not in {DATA}/agent-patches")
    rows = [json.loads(line) for p in preds for line in p.read_text().splitlines()
            if line.strip()]
    claude = [r for r in rows if r["model_name_or_path"] == "claude-opus-0"]
    as_list = tmp_path / "claude.json"
    as_list.write_text(json.dumps(claude))
    as_dict = tmp_path / "claude-dict.json"
    as_dict.write_text(json.dumps({r["instance_id"]: {"model_name_or_path": "claude-dict",
                                                      "model_patch": r["model_patch"]}
                                   for r in claude}))
    mirrors = tmp_path / "mirrors"
    mirrors.mkdir()
    db = tmp_path / "real.sqlite"
    proc = run("batch", *map(str, preds), str(as_list), str(as_dict), "--instances",
               str(DATA / "swebench-lite" / "test.jsonl"), "--repos", str(mirrors), "--db",
               str(db), "--no-cache", "--progress", "none")
    assert proc.returncode == 0, proc.stderr
    empty = sum(1 for r in rows if not (r["model_patch"] or "").strip())
    total = len(rows) + 2 * len(claude)
    assert (len(rows), len(claude), empty) == (526, 32, 14)
    assert proc.stderr.startswith(
        f"provscore: {total} prediction(s): 0 already in {db}, 0 scored, {total} unscored "
        f"({3 * empty} empty-patch, {total - 3 * empty} missing-mirror) in ")
    # The claude rows of the JSONL file and of the JSON list share instance and model but
    # not the file digest: two rows. The dict form's model is its own.
    got = table(db, "SELECT model, count(*) FROM patches GROUP BY model ORDER BY model")
    assert got == [("agent", 245), ("claude-dict", 32), ("claude-opus-0", 64),
                   ("gpt-4-0125-preview", 249)]
    lite = {json.loads(line)["instance_id"]: json.loads(line)["test_patch"]
            for line in (DATA / "swebench-lite" / "test.jsonl").read_text().splitlines()}
    for iid, hidden in table(db, "SELECT instance_id, hidden_tests FROM patches "
                                 "WHERE model = 'agent'"):
        paths = sorted({line.split(" b/")[-1] for line in lite[iid].splitlines()
                        if line.startswith("diff --git a/")})
        assert json.loads(hidden) == paths, iid


def test_export_csv_jsonl_and_parquet_round_trip(scored: Path, tmp_path: Path) -> None:
    out = tmp_path / "rows.jsonl"
    proc = run("export", "--db", str(scored), "-o", str(out))
    assert (proc.returncode, proc.stderr) == (0, f"provscore: exported 16 row(s) to {out}\n")
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert {(r["model"], r["instance_id"]): (r["status"], r["reason"], r["decision"],
                                            r["codes"]) for r in rows} == EXPECTED_ROWS
    alpha2 = next(r for r in rows if (r["model"], r["instance_id"]) == ("alpha",
                                                                         "acme__calc-2"))
    assert (alpha2["resolved"], alpha2["f2p_passed"], alpha2["touches_tests"]) == (
        True, 1, True)
    assert alpha2["report_source"].endswith("run1/alpha/acme__calc-2/report.json")
    csv_out = tmp_path / "rows.csv"
    assert run("export", "--db", str(scored), "-o", str(csv_out)).returncode == 0
    flat = list(csv.DictReader(io.StringIO(csv_out.read_text())))
    assert len(flat) == 16 and list(flat[0]) == list(rows[0])
    assert [json.loads(r["codes"]) for r in flat] == [r["codes"] for r in rows]
    pq = pytest.importorskip("pyarrow.parquet")
    pq_out = tmp_path / "rows.parquet"
    assert run("export", "--db", str(scored), "-o", str(pq_out)).returncode == 0
    back = pq.read_table(pq_out).to_pylist()
    assert [(r["model"], r["instance_id"], r["merge_score"], r["resolved"]) for r in back] == [
        (r["model"], r["instance_id"], r["merge_score"], r["resolved"]) for r in rows]
    bad = run("export", "--db", str(scored), "-o", str(tmp_path / "rows.xlsx"))
    assert (bad.returncode, bad.stderr) == (3, (
        f"provscore: error: {tmp_path / 'rows.xlsx'}: cannot tell the export format from the "
        "name; give --format (csv, jsonl, parquet)\n"))
    missing = run("export", "--db", str(tmp_path / "none.sqlite"), "-o", str(out))
    assert (missing.returncode, missing.stderr) == (3, (
        f"provscore: error: {tmp_path / 'none.sqlite'}: results database not found\n"))


def test_a_file_that_is_not_a_results_database(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not sqlite at all " * 100)
    proc = run("compare", "--db", str(junk))
    assert proc.returncode == 3
    assert proc.stderr.startswith(f"provscore: error: {junk}: not a provscore results "
                                  "database (")
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    proc = run("compare", "--db", str(other))
    assert (proc.returncode, proc.stderr) == (3, (
        f"provscore: error: {other}: not a provscore results database (no meta table)\n"))


def test_plot_writes_the_figure(scored: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    svg = tmp_path / "tamper.svg"
    proc = run("compare", "--db", str(scored), "--plot", str(svg), "--format", "csv")
    assert proc.returncode == 0, proc.stderr
    text = svg.read_text()
    assert text.lstrip().startswith("<?xml") and "<svg" in text
    for words in ("Finding families per agent", "Merge score distribution", "beta/v1",
                  "findings per 100 scored patches"):
        assert words in text, words
    png = tmp_path / "tamper.png"
    assert run("compare", "--db", str(scored), "--plot", str(png)).returncode == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    bad = run("compare", "--db", str(scored), "--plot", str(tmp_path / "t.gif"))
    assert (bad.returncode, bad.stderr) == (3, (
        f"provscore: error: {tmp_path / 't.gif'}: --plot: the file must end in .png, .svg or "
        ".pdf\n"))


def test_a_missing_extra_is_one_line_naming_it() -> None:
    with pytest.raises(UsageError) as exc:
        require("provscore_no_such_module.sub", "plot", "for --plot")
    assert str(exc.value) == ("provscore_no_such_module is needed for --plot: pip install "
                              "'provscore[plot]'")


def test_dask_local_cluster_scores_the_same_rows(world: World, scored: Path,
                                                 tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    db = tmp_path / "dask.sqlite"
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        summary = run_batch(BatchRequest(
            world.preds, world.instances, world.mirrors, db,
            (ReportSource(world.reports), ReportSource(world.summary),
             ReportSource.parse(f"gamma={world.results}")), scheduler=cluster.scheduler_address,
            chunk_size=3))
    assert (summary.planned, summary.scored, summary.unscored) == (16, 11, 5)
    assert row_summary(db) == EXPECTED_ROWS
    assert findings_by_key(db) == findings_by_key(scored)


def test_an_unreachable_scheduler_is_one_error(world: World, tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    db = tmp_path / "r.sqlite"
    proc = run(*batch_args(world, db, "--scheduler", "tcp://127.0.0.1:9", reports=False))
    assert (proc.returncode, proc.stderr) == (3, (
        "provscore: error: --scheduler tcp://127.0.0.1:9: cannot reach the Dask scheduler "
        "([Errno 111] Connection refused)\n"))
    assert not db.exists()  # checked before anything is written


def test_wilson_interval_matches_published_values() -> None:
    # Newcombe (1998), Statistics in Medicine 17:857, table I, method 3 (4 decimals).
    for (k, n), published in {(81, 263): (0.2553, 0.3662), (15, 148): (0.0624, 0.1605),
                              (0, 20): (0.0, 0.1611), (1, 29): (0.0061, 0.1718)}.items():
        interval = wilson(k, n)
        assert interval is not None
        assert (round(interval[0], 4), round(interval[1], 4)) == published, (k, n)
    assert wilson(10, 10) == (0.722467, 1.0)  # right at n: no interval past 1
    assert wilson(0, 0) is None


def test_progress_bar_on_a_tty_and_lines_otherwise() -> None:
    tty = io.StringIO()
    p = Progress(stream=tty, tty=True)
    p.start(8)
    p.advance(4, 1)
    assert tty.getvalue().startswith("\r[############............] 4/8 patches, ")
    assert tty.getvalue().endswith(" 1 unscored\x1b[K")
    plain = io.StringIO()
    q = Progress(stream=plain, tty=False)
    q.start(3)
    q.advance(3, 0)
    q.finish()
    first, last = plain.getvalue().splitlines()
    assert first == "provscore batch: 3 patch(es) to score"
    assert last.startswith("3/3 patches, ") and last.endswith(", ETA 0m00s, 0 unscored")


def test_instances_as_parquet_json_list_and_object_read_the_same(world: World,
                                                                 tmp_path: Path) -> None:
    from provscore.batch.inputs import read_instances

    rows = [json.loads(line) for line in world.instances.read_text().splitlines()]
    as_list = tmp_path / "inst.json"
    as_list.write_text(json.dumps(rows))
    as_object = tmp_path / "inst-object.json"
    as_object.write_text(json.dumps({r["instance_id"]: {k: v for k, v in r.items()
                                                        if k != "instance_id"} for r in rows}))
    expected = read_instances(world.instances)
    assert len(expected) == 15
    assert expected["acme__calc-6"].test_patch.startswith("diff --git a/tests/test_mul.py")
    assert read_instances(as_list) == expected
    assert read_instances(as_object) == expected
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    parquet = tmp_path / "inst.parquet"
    pq.write_table(pa.Table.from_pylist(rows), parquet)
    assert read_instances(parquet) == expected
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(parquet.read_bytes()[:100])
    with pytest.raises(InputError) as exc:
        read_instances(broken)
    assert str(exc.value).startswith(f"{broken}: not a readable Parquet file (")


def test_a_prediction_file_rewritten_during_the_run_is_an_error_naming_the_line(
        world: World, tmp_path: Path) -> None:
    from provscore.batch.inputs import plan_predictions, read_patch

    preds = tmp_path / "p.jsonl"
    rows = [{"instance_id": f"acme__calc-{n}", "model_name_or_path": "m",
             "model_patch": f"patch {n}"} for n in (1, 2)]
    preds.write_text("".join(json.dumps(r) + "\n" for r in rows))
    pf, refs = plan_predictions(preds, 0)
    assert [read_patch(pf, r) for r in refs] == ["patch 1", "patch 2"]
    assert [(r.offset, r.line) for r in refs] == [(0, 1), (refs[1].offset, 2)]
    rows[1]["instance_id"] = "acme__calc-9"
    preds.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(InputError) as exc:
        read_patch(pf, refs[1])
    assert str(exc.value) == (f"{preds}:2: the file changed while the batch ran (the rows "
                              "written so far are kept); run the batch again")


def test_real_predictions_on_rebuilt_bases_score_as_provscore_score_does(
        tmp_path: Path) -> None:
    """Claude Opus's real SWE-bench Lite predictions, on mirrors whose commits are bases
    rebuilt from each patch (its context and removed lines, as findings_snapshot.py does),
    with the instances' real test_patch: every row has the findings and decision that
    ``provscore score`` gives the same patch on the same commit."""
    source = DATA / "agent-patches" / "devon_claude_opus_lite.jsonl"
    lite = DATA / "swebench-lite" / "test.jsonl"
    if not source.is_file() or not lite.is_file():
        pytest.skip(f"the real predictions are not in {DATA}")
    from conftest import GitRepo

    from provscore.testing import pre_images_from_patch

    hidden = {r["instance_id"]: r["test_patch"]
              for r in map(json.loads, lite.read_text().splitlines())}
    rows = [json.loads(line) for line in source.read_text().splitlines() if line.strip()]
    repos: dict[str, GitRepo] = {}
    instances, expected = [], {}
    for row in rows:
        patch = row["model_patch"]
        if not (patch or "").strip():
            continue
        owner_repo = row["instance_id"].rsplit("-", 1)[0].replace("__", "/")
        repo = repos.setdefault(owner_repo, GitRepo(tmp_path / "src" / owner_repo))
        tracked = repo.git("ls-files").decode().splitlines()
        images = pre_images_from_patch(patch)
        commit = repo.commit({**dict.fromkeys(set(tracked) - set(images)), "README.md":
                              f"{row['instance_id']}\n", **images}, row["instance_id"])
        instances.append({"instance_id": row["instance_id"], "repo": owner_repo,
                          "base_commit": commit, "test_patch": hidden[row["instance_id"]]})
        report = repo.score(patch.encode("utf-8", "surrogateescape"), base=commit,
                            static_only=True)
        expected[row["instance_id"]] = (report.decision.value, dict(sorted(
            {c: sum(f.code == c for f in report.findings)
             for c in {f.code for f in report.findings}}.items())))
    assert len(expected) == 18
    mirrors = tmp_path / "mirrors"
    for owner_repo, repo in repos.items():
        subprocess.run(["git", "clone", "-q", "--bare", str(repo.root),
                        str(mirrors / owner_repo.replace("/", "__"))], check=True,
                       capture_output=True)
    inst_file = tmp_path / "instances.jsonl"
    inst_file.write_text("".join(json.dumps(i) + "\n" for i in instances))
    db = tmp_path / "real.sqlite"
    proc = run("batch", str(source), "--instances", str(inst_file), "--repos", str(mirrors),
               "--db", str(db), "--no-cache", "--progress", "none")
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.startswith(f"provscore: 32 prediction(s): 0 already in {db}, ")
    got = {i: (d, json.loads(c)) for i, d, c in table(
        db, "SELECT instance_id, decision, codes FROM patches WHERE reason = ''")}
    assert got == expected
    # The 14 empty predictions' instances were left out of the instances file.
    assert table(db, "SELECT reason, count(*) FROM patches GROUP BY reason") == [
        ("", 18), ("unknown-instance", 14)]
