"""The command line as users and CI run it: real processes, real repos, exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests_support import GitRepo

TEST_BASE = "def test_a():\n    assert f(1) == 2\n    assert f(2) == 3\n"


def run(*args: str, cwd: Path | None = None, stdin: bytes | None = None
        ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "provscore", *args], capture_output=True,
                          cwd=cwd, input=stdin, check=False)


def _setup(repo: GitRepo, tmp_path: Path) -> Path:
    repo.commit({"tests/test_a.py": TEST_BASE, "src/a.py": "X = 1\n"})
    patch = tmp_path / "agent.patch"
    patch.write_bytes(repo.diff({"tests/test_a.py": "def test_a():\n    assert f(1) == 2\n"}))
    return patch


def test_score_diff_json_reject_exit_2(repo: GitRepo, tmp_path: Path) -> None:
    patch = _setup(repo, tmp_path)
    proc = run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch),
               "--format", "json")
    assert proc.returncode == 2, proc.stderr
    report = json.loads(proc.stdout)
    assert report["schema"] == "provscore.report/2"
    assert report["decision"] == "reject" and report["merge_score"] is None
    assert report["first_cause"]["code"] == "PS101"
    removed = [f for f in report["findings"] if f["code"] == "PS101"]
    assert removed[0]["path"] == "tests/test_a.py" and removed[0]["line"] == 3
    assert removed[0]["node_id"] == "tests/test_a.py::test_a"
    assert report["evidence"]["assert"] == {"agent_removed": 1, "preexisting": 1}
    assert report["write_set"] == [{"path": "tests/test_a.py", "role": "test",
                                    "status": "modified", "runner": False}]


def test_stdin_and_head_give_the_same_findings(repo: GitRepo, tmp_path: Path) -> None:
    patch = _setup(repo, tmp_path)
    a = run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", "-", "--format",
            "json", stdin=patch.read_bytes())
    base = repo.git("rev-parse", "HEAD").decode().strip()
    repo.git("apply", str(patch))
    repo.commit({}, "agent")
    b = run("score", "--repo", str(repo.root), "--base", base, "--head", "HEAD", "--format",
            "json")
    fa = [(f["code"], f["line"]) for f in json.loads(a.stdout)["findings"]]
    fb = [(f["code"], f["line"]) for f in json.loads(b.stdout)["findings"]]
    assert fa == fb and ("PS101", 3) in fa


def test_quiet_prints_decision_line_only(repo: GitRepo, tmp_path: Path) -> None:
    patch = _setup(repo, tmp_path)
    proc = run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch), "-q")
    lines = proc.stdout.decode().splitlines()
    assert len(lines) == 1 and lines[0].startswith("provscore: REJECT (merge score unscored)")
    assert "PS101" in lines[0]


def test_output_file_written(repo: GitRepo, tmp_path: Path) -> None:
    patch = _setup(repo, tmp_path)
    out = tmp_path / "report.json"
    proc = run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch),
               "--format", "json", "--output", str(out))
    assert proc.returncode == 2 and proc.stdout == b""
    assert json.loads(out.read_text())["decision"] == "reject"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".report")] == []


def test_repeated_format_writes_every_rendering_of_one_scoring(repo: GitRepo,
                                                               tmp_path: Path) -> None:
    """diff-cover's ``--format FMT[:PATH]``: files for those with a PATH, stdout (or
    --output) for the one without; the same report in every format."""
    patch = _setup(repo, tmp_path)
    md, sarif, js = tmp_path / "c.md", tmp_path / "r.sarif", tmp_path / "r.json"
    proc = run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch),
               "--format", f"markdown:{md}", "--format", "github", "--format", f"sarif:{sarif}",
               "--format", f"json:{js}")
    assert proc.returncode == 2, proc.stderr
    annotations = proc.stdout.decode().splitlines()
    assert annotations[0].startswith("::error title=provscore REJECT::")
    assert any(a.startswith("::error file=tests/test_a.py,title=PS101 assertion-removed::")
               for a in annotations)
    assert json.loads(js.read_text())["first_cause"]["code"] == "PS101"
    assert "PS101" in md.read_text() and not md.read_text().startswith("::")
    [result] = [r for r in json.loads(sarif.read_text())["runs"][0]["results"]
                if r["ruleId"] == "PS101"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == \
        "tests/test_a.py"
    # every --format has a PATH: the text report still goes to stdout (or --output)
    only = tmp_path / "only.json"
    out = tmp_path / "out.txt"
    proc = run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch),
               "--format", f"json:{only}", "--output", str(out), "-q")
    assert proc.returncode == 2 and proc.stdout == b""
    assert out.read_text().startswith("provscore: REJECT (merge score unscored)")
    assert len(out.read_text().splitlines()) == 1  # -q shapes the main report only
    assert json.loads(only.read_text())["decision"] == "reject"


def test_bad_format_targets_exit_3_before_anything_is_written(repo: GitRepo,
                                                              tmp_path: Path) -> None:
    patch = _setup(repo, tmp_path)
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    md = tmp_path / "c.md"
    base = ("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch))
    cases = {
        ("--format", "json", "--format", "markdown"):
            "provscore: error: only one format can go to standard output, got json, markdown: "
            "give the others a file (--format FMT:PATH)",
        ("--format", f"json:{md}", "--format", f"markdown:{md}"):
            f"provscore: error: {md}: named by both --format json:{md} and --format "
            f"markdown:{md}",
        ("--format", f"json:{md}", "--output", str(md)):
            f"provscore: error: {md}: named by both --format json:{md} and --output {md}",
        ("--format", f"sarif:{patch}", "--format", f"json:{md}"):
            f"provscore: error: --format sarif:{patch} is the input {patch}; refusing to "
            "overwrite it",
        ("--oracle", str(oracle), "--format", f"json:{oracle / 'r.json'}"):
            f"provscore: error: --format json:{oracle / 'r.json'} lies inside the oracle "
            f"dir {oracle}; refusing to write a report over the oracle",
    }
    for flags, message in cases.items():
        proc = run(*base, *flags)
        assert proc.returncode == 3 and proc.stderr.decode().strip() == message, flags
        assert proc.stdout == b"" and not md.exists()
    for bad in ("yaml", "json:", "yaml:r.txt"):
        proc = run(*base, "--format", bad)
        assert proc.returncode == 3 and proc.stdout == b""
        assert proc.stderr.decode().splitlines() == [{
            "yaml": "provscore: error: --format: unknown format 'yaml'; expected FMT or "
                    "FMT:PATH with FMT one of concise, github, json, markdown, sarif, text",
            "json:": "provscore: error: --format: 'json:' names no file after ':' (give FMT "
                     "for standard output, or FMT:PATH)",
            "yaml:r.txt": "provscore: error: --format: unknown format 'yaml'; expected FMT or "
                          "FMT:PATH with FMT one of concise, github, json, markdown, sarif, "
                          "text"}[bad]]


def test_unparseable_diff_is_a_reject_not_a_crash(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"a.py": "x = 1\n"})
    bad = tmp_path / "bad.patch"
    bad.write_text("this is not a diff\n")
    proc = run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(bad),
               "--format", "json")
    assert proc.returncode == 2
    report = json.loads(proc.stdout)
    assert report["first_cause"]["code"] == "PS901"
    assert "bad.patch" in report["first_cause"]["message"]


def _one_line_error(proc: subprocess.CompletedProcess[bytes], *needles: str) -> None:
    err = proc.stderr.decode()
    assert proc.returncode == 3, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) <= 2  # usage line + error for argparse errors
    for n in needles:
        assert n in err, err


def test_bad_inputs_exit_3_with_one_line(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"a.py": "x = 1\n"})
    _one_line_error(run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff",
                        str(tmp_path / "missing.patch")), "missing.patch", "not found")
    _one_line_error(run("score", "--repo", str(repo.root), "--base", "no-such-rev", "--diff",
                        "-", stdin=b""), "no-such-rev")
    _one_line_error(run("score", "--repo", str(tmp_path / "nope"), "--base", "HEAD", "--diff",
                        "-", stdin=b""), "nope")
    _one_line_error(run("score", "--repo", str(tmp_path), "--base", "HEAD", "--diff", "-",
                        stdin=b""), "not a git repository")
    _one_line_error(run("score", "--base", "HEAD", cwd=tmp_path), "--head")
    _one_line_error(run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", "-",
                        "--oracle", str(tmp_path / "no-oracle"), stdin=b""), "no-oracle")
    _one_line_error(run("frobnicate"), "invalid choice")
    _one_line_error(run("explain", "PS999"), "unknown rule")


def test_bad_contract_exit_3(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"a.py": "x = 1\n"})
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "score_contract.toml").write_text("[score]\nmax_changed_file = 3\n")
    _one_line_error(run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", "-",
                        "--oracle", str(oracle), stdin=b""), "max_changed_files")


def test_contract_max_changed_files_is_used(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"a.py": "x = 1\n"})
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "score_contract.toml").write_text("[score]\nmax_changed_files = 1\n")
    patch = repo.diff({"b.py": "y = 1\n", "c.py": "z = 1\n"})
    proc = run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", "-", "--oracle",
               str(oracle), "--format", "json", stdin=patch)
    codes = [f["code"] for f in json.loads(proc.stdout)["findings"]]
    assert "PS303" in codes


def test_explain_and_list(tmp_path: Path) -> None:
    proc = run("explain", "PS101")
    text = proc.stdout.decode()
    assert proc.returncode == 0 and text.startswith("PS101 assertion-removed  [reject")
    assert "fires on" in text
    assert run("explain", "assertion-weakened").stdout.decode().startswith("PS102")
    listing = run("explain").stdout.decode()
    assert "PS201  skip-added" in listing and "PS903" in listing


def test_demo_reports_the_tampering(tmp_path: Path) -> None:
    proc = run("demo", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    found = {f["code"] for f in report["findings"]}
    assert report["decision"] == "reject"
    assert {"PS101", "PS108", "PS201", "PS204", "PS302", "PS104", "PS502"} <= found
    assert list(tmp_path.iterdir()) == []  # the demo cleans up after itself


def test_staged_static_only_for_pre_commit(repo: GitRepo) -> None:
    repo.commit({"tests/test_a.py": TEST_BASE, "src/a.py": "X = 1\n"})
    repo.write({"src/a.py": "X = 2\n"})
    repo.git("add", "-A")
    ok = run("score", "--repo", str(repo.root), "--base", "HEAD", "--staged", "--static-only",
             "--fail-on", "reject", "-q")
    assert ok.returncode == 0, ok.stdout
    assert ok.stdout.decode().startswith("provscore: REVIEW")
    repo.write({"tests/test_a.py": "def test_a():\n    assert f(1) == 2\n"})
    repo.git("add", "-A")
    bad = run("score", "--repo", str(repo.root), "--base", "HEAD", "--staged", "--static-only",
              "--fail-on", "reject", "-q")
    assert bad.returncode == 2 and "PS101" in bad.stdout.decode()


BOMB = """<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>
<testsuites><testsuite name="x"><testcase classname="t" name="&lol3;"/></testsuite></testsuites>
"""


def test_bad_oracle_inputs_exit_3_naming_the_file(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"tests/test_a.py": TEST_BASE})
    bomb = tmp_path / "bomb.xml"
    bomb.write_text(BOMB)
    _one_line_error(run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", "-",
                        "--results", str(bomb), stdin=b""), "bomb.xml")
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "flake_freeze.jsonl").write_text(
        '{"test_id": "tests/test_a.py::test_a", "owner": "human", "reason": "x", '
        '"frozen_on": "2026-11-01", "expires_on": "2026-12-01"}\n{"test_id": "tests/te')
    _one_line_error(run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", "-",
                        "--oracle", str(oracle), stdin=b""), "flake_freeze.jsonl", "truncated")
    _one_line_error(run("ledger", "check", str(oracle)), "flake_freeze.jsonl")
    (oracle / "flake_freeze.jsonl").unlink()
    (oracle / "fixtures.lock").write_text("{not json")
    _one_line_error(run("score", "--repo", str(repo.root), "--base", "HEAD", "--diff", "-",
                        "--oracle", str(oracle), stdin=b""), "fixtures.lock")


def test_github_format_writes_annotations_and_step_summary(repo: GitRepo,
                                                           tmp_path: Path) -> None:
    patch = _setup(repo, tmp_path)
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n")
    proc = subprocess.run([sys.executable, "-m", "provscore", "score", "--repo", str(repo.root),
                           "--base", "HEAD", "--diff", str(patch), "--format", "github"],
                          capture_output=True, text=True,
                          env={**__import__("os").environ, "GITHUB_STEP_SUMMARY": str(summary)})
    assert proc.returncode == 2
    # A removed line exists only on base: the annotation names the file and the base line.
    assert "::error file=tests/test_a.py,title=PS101 assertion-removed::" in proc.stdout
    assert "(line 3 on base)" in proc.stdout
    text = summary.read_text()
    assert text.startswith("earlier step\n") and "PS101" in text  # appended, not replaced


def test_lock_and_ledger_commands(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"tests/goldens/a.json": '{"x": 1}\n', "tests/test_a.py": TEST_BASE})
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    proc = run("lock", "fixtures", "tests/goldens", "--repo", str(repo.root), "--out",
               str(oracle / "fixtures.lock"))
    assert proc.returncode == 0 and b"locked 1 file" in proc.stdout
    assert "tests/goldens/a.json" in json.loads((oracle / "fixtures.lock").read_text())["files"]
    results = tmp_path / "run.xml"
    results.write_text('<testsuite><testcase classname="tests.test_a" name="test_a" '
                       'file="tests/test_a.py"/></testsuite>')
    rec = run("ledger", "record", str(oracle), "--results", str(results), "--run-id", "r1")
    assert rec.returncode == 0, rec.stderr
    rows = [json.loads(x) for x in (oracle / "flake_ledger.jsonl").read_text().splitlines()]
    assert [(r["test_id"], r["result"], r["run_id"]) for r in rows] == \
        [("tests/test_a.py::test_a", "pass", "r1")]
    check = run("ledger", "check", str(oracle))
    assert check.returncode == 0 and check.stdout.decode().rstrip().endswith("ok")
