"""Output conventions through the real CLI: several formats from one scoring
(``--format FMT[:PATH]``), concise, statistics, exit codes, colour, COLUMNS, progress."""

from __future__ import annotations

import json
import os
import pty
import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests_support import GitRepo

from provscore.cli import main

BASE = {"tests/test_a.py": "import pytest\n\n\ndef test_a():\n    assert f(1) == 2\n"
                           "    assert f(2) == 3\n\n\ndef test_b():\n    assert f(3) == 4\n",
        "pyproject.toml": "[project]\nname = 'a'\n",
        "src/a.py": "X = 1\n"}
# PS101 (a removed assertion, on base line 6) and PS201 (a skip, post line 8).
PATCHED = {"tests/test_a.py": "import pytest\n\n\ndef test_a():\n    assert f(1) == 2\n\n\n"
                              "@pytest.mark.skip\ndef test_b():\n    assert f(3) == 4\n"}
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _patch(repo: GitRepo, tmp_path: Path, files: dict[str, str] | None = None) -> Path:
    repo.commit(BASE)
    patch = tmp_path / "agent.patch"
    patch.write_bytes(repo.diff(PATCHED if files is None else files))
    return patch


def _score(repo: GitRepo, patch: Path, *args: str) -> list[str]:
    return ["score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch), *args]


def _proc(argv: list[str], env: dict[str, str] | None = None, **kw: object
          ) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items()
             if k not in ("NO_COLOR", "FORCE_COLOR", "PROVSCORE_FORMAT", "PROVSCORE_FAIL_ON",
                          "PROVSCORE_COLOR", "COLUMNS", "GITHUB_STEP_SUMMARY", "TERM")}
    proc: subprocess.CompletedProcess[str] = subprocess.run(  # type: ignore[call-overload]
        [sys.executable, "-m", "provscore", *argv], capture_output=True, text=True,
        env={**clean, **(env or {})}, check=False, **kw)
    return proc


# --------------------------------------------------------------------------- several outputs


def test_every_format_from_one_scoring(repo: GitRepo, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    patch = _patch(repo, tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    summary = tmp_path / "summary.md"
    os.environ["GITHUB_STEP_SUMMARY"] = str(summary)
    try:
        code = main(_score(repo, patch, "--format", f"markdown:{out}/comment.md",
                           "--format", f"sarif:{out}/provscore.sarif",
                           "--format", f"json:{out}/report.json", "--format", "github"))
    finally:
        del os.environ["GITHUB_STEP_SUMMARY"]
    assert code == 2
    printed = capsys.readouterr().out
    assert printed.startswith("::error title=provscore REJECT::")  # github on stdout only
    report = json.loads((out / "report.json").read_text())
    # The same report in every file: the JSON a single --format json run prints.
    assert main(_score(repo, patch, "--format", "json")) == 2
    alone = json.loads(capsys.readouterr().out)
    assert report == alone
    sarif = json.loads((out / "provscore.sarif").read_text())
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == \
        [f["code"] for f in report["findings"]]
    comment = (out / "comment.md").read_text()
    assert summary.read_text() == comment  # the step summary is the comment
    assert sorted(p.name for p in out.iterdir()) == ["comment.md", "provscore.sarif",
                                                       "report.json"]  # no temp files left


def test_a_failed_write_changes_no_file_and_prints_nothing(repo: GitRepo, tmp_path: Path) -> None:
    patch = _patch(repo, tmp_path)
    kept = tmp_path / "report.json"
    kept.write_text("previous\n")
    proc = _proc(_score(repo, patch, "--format", f"json:{kept}", "--format",
                        f"sarif:{tmp_path}/missing/provscore.sarif", "--format", "text"))
    assert proc.returncode == 3 and proc.stdout == ""
    assert proc.stderr == (f"provscore: error: {tmp_path}/missing: cannot write sarif report: "
                           "directory does not exist\n")
    assert kept.read_text() == "previous\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["agent.patch", "repo", "report.json"]


@pytest.mark.parametrize(("args", "message"), [
    (["--format", "json", "--format", "text"],
     "only one format can go to standard output, got json, text: give the others a file "
     "(--format FMT:PATH)"),
    (["--format", "jsno"], "--format: unknown format 'jsno' (did you mean json?); expected "
     "FMT or FMT:PATH with FMT one of concise, github, json, markdown, sarif, text"),
    (["--format", "json:"], "--format: 'json:' names no file after ':' (give FMT for standard "
     "output, or FMT:PATH)"),
    (["--format", "json:r.x", "--format", "sarif:r.x"],
     "r.x: named by both --format json:r.x and --format sarif:r.x"),
    (["--format", "json:r.x", "-o", "r.x"], "r.x: named by both --format json:r.x and "
     "--output r.x"),
])
def test_bad_format_requests_are_one_line_errors(repo: GitRepo, tmp_path: Path,
                                                 args: list[str], message: str) -> None:
    patch = _patch(repo, tmp_path)
    proc = _proc(_score(repo, patch, *args), cwd=tmp_path)
    assert (proc.returncode, proc.stdout, proc.stderr) == (3, "", f"provscore: error: {message}\n")


def test_output_applies_to_the_format_without_a_path(repo: GitRepo, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    patch = _patch(repo, tmp_path)
    assert main(_score(repo, patch, "--format", "concise", "-o", str(tmp_path / "c.txt"),
                       "--format", f"json:{tmp_path}/r.json")) == 2
    assert capsys.readouterr().out == ""
    assert (tmp_path / "c.txt").read_text().startswith("tests/test_a.py:8:1: PS201 ")
    assert json.loads((tmp_path / "r.json").read_text())["decision"] == "reject"


# --------------------------------------------------------------------------- conventions


def test_a_warning_filter_is_called_one_not_a_skip(repo: GitRepo, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    test = "import pytest\n\ndef test_w():\n    assert f() == 1\n"
    repo.commit({"pytest.ini": "[pytest]\nfilterwarnings = error\n", "tests/test_w.py": test})
    patch = tmp_path / "agent.patch"
    patch.write_bytes(repo.diff({"tests/test_w.py": test.replace(
        "def test_w", '@pytest.mark.filterwarnings("ignore")\ndef test_w')}))
    assert main(_score(repo, patch, "--format", "concise")) == 2
    assert [line for line in capsys.readouterr().out.splitlines() if line.startswith("tests/")] == [
        "tests/test_w.py:3:1: PS201 warning filter added to tests/test_w.py::test_w: "
        "pytest.mark.filterwarnings('ignore')"]



def test_concise_is_one_line_per_finding(repo: GitRepo, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    patch = _patch(repo, tmp_path)
    assert main(_score(repo, patch, "--format", "concise")) == 2
    assert capsys.readouterr().out.splitlines() == [
        "tests/test_a.py:8:1: PS201 skip added to tests/test_a.py::test_b: pytest.mark.skip",
        "tests/test_a.py:1:1: PS101 assert removed from tests/test_a.py::test_a: "
        "assert f(2) == 3 (line 6 on base)",
        "pyproject.toml:1:1: PS502 no independent evidence: no off-tree results were given "
        "(--results) (repository-level finding)",
        "provscore: REJECT (merge score unscored) — first cause: gate 7 suppressions: PS201 "
        "at tests/test_a.py:8"]
    assert main(_score(repo, patch, "--format", "concise", "-q")) == 2
    assert capsys.readouterr().out.splitlines() == [
        "provscore: REJECT (merge score unscored) — first cause: gate 7 suppressions: PS201 "
        "at tests/test_a.py:8"]


def test_statistics_counts_per_code(repo: GitRepo, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    patch = _patch(repo, tmp_path, {"tests/test_a.py": "import pytest\n\n\ndef test_a():\n"
                                                       "    pass\n\n\ndef test_b():\n"
                                                       "    pass\n"})
    json_file = tmp_path / "r.json"
    assert main(_score(repo, patch, "--statistics", "--format", f"json:{json_file}",
                       "--format", "text")) == 2
    assert capsys.readouterr().out.splitlines() == [
        "  count  code    rule                     action",
        "-------  ------  -----------------------  --------",
        "      3  PS101   assertion-removed        reject",
        "      1  PS502   no-independent-evidence  reject",
        "provscore: REJECT (merge score unscored) — first cause: gate 8 evidence: PS101 "
        "at tests/test_a.py:5"]
    assert len(json.loads(json_file.read_text())["findings"]) == 4  # files still written


def test_exit_zero_and_fail_on(repo: GitRepo, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    patch = _patch(repo, tmp_path)
    assert main(_score(repo, patch, "-q", "--exit-zero")) == 0
    assert capsys.readouterr().out.startswith("provscore: REJECT")
    honest = _patch(GitRepo(tmp_path / "r2"), tmp_path, {"src/a.py": "X = 2\n"})
    args = ["score", "--repo", str(tmp_path / "r2"), "--base", "HEAD", "--diff", str(honest),
            "--static-only", "-q"]
    assert main(args) == 1  # review
    assert main([*args, "--fail-on", "reject"]) == 0
    os.environ["PROVSCORE_FAIL_ON"] = "reject"
    try:
        assert main(args) == 0  # the environment default
        assert main([*args, "--fail-on", "review"]) == 1  # the command line wins
    finally:
        del os.environ["PROVSCORE_FAIL_ON"]


def test_environment_default_format_and_its_errors(repo: GitRepo, tmp_path: Path) -> None:
    patch = _patch(repo, tmp_path)
    proc = _proc(_score(repo, patch), {"PROVSCORE_FORMAT": f"concise, json:{tmp_path}/e.json"})
    assert proc.stdout.startswith("tests/test_a.py:8:1: PS201 ")
    assert json.loads((tmp_path / "e.json").read_text())["decision"] == "reject"
    proc = _proc(_score(repo, patch, "--format", "json"), {"PROVSCORE_FORMAT": "concise"})
    assert json.loads(proc.stdout)["decision"] == "reject"  # the command line wins
    proc = _proc(_score(repo, patch), {"PROVSCORE_FORMAT": "xml"})
    assert (proc.returncode, proc.stdout) == (3, "")
    assert proc.stderr.startswith("provscore: error: $PROVSCORE_FORMAT: unknown format 'xml'")
    proc = _proc(_score(repo, patch), {"PROVSCORE_FAIL_ON": "never"})
    assert proc.stderr == ("provscore: error: $PROVSCORE_FAIL_ON: 'never' is not one of "
                           "review, reject\n") and proc.returncode == 3


@pytest.mark.parametrize(("args", "env", "colored"), [
    ([], {}, False),  # a pipe, auto
    ([], {"FORCE_COLOR": "1"}, True),
    ([], {"FORCE_COLOR": ""}, False),  # set but empty: not set (force-color.org)
    ([], {"NO_COLOR": "1", "FORCE_COLOR": "1"}, False),
    ([], {"NO_COLOR": "", "FORCE_COLOR": "1"}, True),  # empty NO_COLOR is not set (no-color.org)
    (["--color", "always"], {"NO_COLOR": "1"}, True),  # the flag wins
    (["--color", "never"], {"FORCE_COLOR": "1"}, False),
    (["--no-color"], {"FORCE_COLOR": "1"}, False),
    ([], {"PROVSCORE_COLOR": "always"}, True),
    ([], {"FORCE_COLOR": "1", "TERM": "dumb"}, True),
    (["--color", "auto"], {"TERM": "dumb"}, False),
])
def test_color(repo: GitRepo, tmp_path: Path, args: list[str], env: dict[str, str],
               colored: bool) -> None:
    patch = _patch(repo, tmp_path)
    proc = _proc(_score(repo, patch, "--format", "concise", *args), env)
    assert bool(ANSI.search(proc.stdout)) is colored, proc.stdout
    assert ANSI.sub("", proc.stdout).splitlines()[0].startswith("tests/test_a.py:8:1: PS201")


def test_files_never_hold_color(repo: GitRepo, tmp_path: Path) -> None:
    patch = _patch(repo, tmp_path)
    proc = _proc(_score(repo, patch, "--color", "always", "--format",
                        f"text:{tmp_path}/t.txt", "--format", "concise"))
    assert ANSI.search(proc.stdout)
    assert not ANSI.search((tmp_path / "t.txt").read_text())


LONG_DIR = "tests/integration/very_long_directory_name_for_reports/"


def test_text_tables_fit_columns_and_never_cut_a_path(repo: GitRepo, tmp_path: Path) -> None:
    path = LONG_DIR + "test_a_module_with_a_long_name.py"
    repo.commit({path: "def test_a():\n    assert f(1) == 2\n    assert f(2) == 3\n"})
    patch = tmp_path / "p.diff"
    patch.write_bytes(repo.diff({path: "def test_a():\n    assert f(1) == 2\n"}))
    argv = ["score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch)]
    for columns in ("60", "80", "120", "200"):
        text = _proc(argv, {"COLUMNS": columns}).stdout
        for line in text.splitlines():  # the decision line is grep's, one line whatever
            assert len(line) <= int(columns) or line.startswith("provscore: ") or \
                " " not in line.strip(), (columns, line)
        # The path is never broken inside a name: whole, or broken after a '/'.
        flat = re.sub(r"\s+", "", text)
        assert f"{path}:3(base)" in flat or f"{path}:3" in flat
        for piece in re.findall(r"\S*test_a_module\S*", text):
            assert piece.startswith(("test_a_module", LONG_DIR, "tests/")), piece
    wide = _proc(argv, {"COLUMNS": "200"}).stdout
    assert re.search(rf"PS101 +assertion-removed +reject +{re.escape(path)}:3 \(base\) +assert "
                     r"removed from", wide)  # a table row
    medium = _proc(argv, {"COLUMNS": "140"}).stdout
    assert f"PS101  assertion-removed  reject  {path}:3 (base)\n    assert removed" in medium
    narrow = _proc(argv, {"COLUMNS": "60"}).stdout
    assert ("PS101  assertion-removed  reject\n"
            "    tests/integration/very_long_directory_name_for_reports/\n"
            "    test_a_module_with_a_long_name.py:3 (base)\n    assert removed") in narrow


def test_regex_text_is_shown_as_the_regex_engine_reads_it(repo: GitRepo, tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]
                                                          ) -> None:
    repo.commit({"tests/test_r.py": "import re\nimport pytest\n\n\ndef test_r():\n"
                                    "    with pytest.raises(ValueError, match=r\"bad\\n \\d+\"):\n"
                                    "        f()\n"
                                    "    assert re.match(r'^a\\.b$', g())\n"
                                    "    assert g() == 'tab\\there'\n"})
    patch = tmp_path / "p.diff"
    patch.write_bytes(repo.diff({"tests/test_r.py": "import re\nimport pytest\n\n\n"
                                                    "def test_r():\n"
                                                    "    with pytest.raises(ValueError):\n"
                                                    "        f()\n"}))
    assert main(["score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch),
                 "--format", "json"]) == 2
    messages = [f["message"] for f in json.loads(capsys.readouterr().out)["findings"]]
    assert "raises weakened in tests/test_r.py::test_r: raises(ValueError, match=r'bad\\n \\d+')" \
           " → pytest.raises(ValueError) (match=r'bad\\n \\d+' dropped)" in messages
    assert "assert removed from tests/test_r.py::test_r: assert re.match(r'^a\\.b$', g())" \
        in messages
    # A real control character (a tab) is not a backslash: it keeps its escape.
    assert "assert removed from tests/test_r.py::test_r: assert g() == 'tab\\there'" in messages


# --------------------------------------------------------------------------- progress


def _on_a_tty(argv: list[str]) -> tuple[int, str]:
    """Run with stderr on a pseudo-terminal; what the terminal showed."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "provscore", *argv], stdout=subprocess.PIPE,
                            stderr=slave, env={k: v for k, v in os.environ.items()
                                               if k != "NO_COLOR"})
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    proc.communicate()
    os.close(master)
    return proc.returncode, shown.decode("utf-8", "replace")


def test_progress_line_on_a_terminal_only(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({f"tests/test_{i}.py": f"def test_{i}():\n    assert {i} == {i}\n"
                 for i in range(30)})
    patch = tmp_path / "many.diff"
    patch.write_bytes(repo.diff({f"tests/test_{i}.py": f"def test_{i}():\n    pass\n"
                                 for i in range(30)}))
    argv = ["score", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch),
            "--format", "json"]
    code, shown = _on_a_tty(argv)
    assert code == 2
    assert "\r\x1b[Kprovscore: analysing changed files 0/30" in shown
    assert "provscore: analysing changed files 30/30" in shown
    assert shown.endswith("\r\x1b[K")  # the line is cleared before the report
    assert _on_a_tty([*argv, "-q"]) == (2, "")
    piped = _proc(argv)
    assert piped.returncode == 2 and piped.stderr == ""


# --------------------------------------------------------------------------- comment size


def test_the_comment_cap_applies_to_the_comment_s_real_size(repo: GitRepo, tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    # One long path (under the 1,000-character cell cap) among 90 changed files: a padded
    # table would be rows x widest cell (90 x ~950 characters), over 65,536, though the
    # text is a few KB.
    deep = "/".join(["d" * 230] * 4) + "/conf.txt"
    files = {f"src/m{i}.py": f"X = {i}\n" for i in range(89)}
    repo.commit({**files, deep: "a\n"})
    patch = tmp_path / "wide.diff"
    patch.write_bytes(repo.diff({**{k: v + "Y = 1\n" for k, v in files.items()},
                                 deep: "b\n"}))
    oracle = tmp_path / "oracle"  # a contract that lets 90 files through (PS303 otherwise)
    oracle.mkdir()
    (oracle / "score_contract.toml").write_text("[score]\nmax_changed_files = 1000\n")
    assert main(_score(repo, patch, "--format", "markdown", "--oracle", str(oracle))) == 2
    comment = capsys.readouterr().out
    assert "Left out to fit" not in comment
    assert f"| `{deep}` |" in comment  # the write set is all there, the long path whole
    assert comment.count("\n| `src/m") == 89
    assert len(comment) < 20_000, len(comment)
    # The honest look-alike of the cap: a comment really over the limit is still cut.
    long_files = {f"src/{'p' * 180}{i}.py": f"X = {i}\n" for i in range(400)}
    repo.commit(long_files)
    patch.write_bytes(repo.diff({k: v + "Y = 1\n" for k, v in long_files.items()}))
    assert main(_score(repo, patch, "--format", "markdown", "--oracle", str(oracle))) == 2
    big = capsys.readouterr().out
    assert "Left out to fit GitHub's 65,536-character comment limit: write set" in big
    assert len(big) <= 65_536


def test_verify_shows_the_repeats_on_a_terminal(repo: GitRepo, tmp_path: Path) -> None:
    repo.commit({"pytest.ini": "[pytest]\npythonpath = src\n", "src/m.py": "X = 1\n",
                 "tests/test_m.py": "from m import X\n\n\ndef test_x():\n    assert X == 1\n"})
    patch = tmp_path / "p.diff"
    patch.write_bytes(repo.diff({"src/m.py": "X = 1\nY = 2\n"}))
    argv = ["verify", "--repo", str(repo.root), "--base", "HEAD", "--diff", str(patch),
            "--repeat", "2", "--format", "json", "--python", sys.executable]
    code, shown = _on_a_tty(argv)
    assert code == 0, shown
    assert "provscore: running the base corpus 0/2" in shown
    assert "provscore: running the base corpus 2/2" in shown
    assert shown.endswith("\r\x1b[K")
    assert _on_a_tty([*argv, "-q"]) == (0, "")
