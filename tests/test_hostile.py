"""A hostile patch author: what is scored is exactly what git applies (docs/hostile-input.md).

Every test runs the real CLI on a real git repository. Each tampering case has an honest
look-alike next to it that must score normally.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hostile_support import BASE, DROP, OPS_TESTS, cli, codes, findings, junit, scored
from tests_support import GitRepo

DROP_LAST = OPS_TESTS.replace(DROP, "")


def _refused(report: dict[str, Any], code: str) -> bool:
    """Unscored with ``code`` as the first cause, and nothing analysed beyond it."""
    cause = report["first_cause"]
    return isinstance(cause, dict) and cause["code"] == code and \
        set(codes(report)) <= {code, "PS502"}


def _patch(tmp_path: Path, text: str | bytes, name: str = "agent.patch") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return path


# --- 1. the scored change and the applied change are one ---------------------------------

def test_test_file_renamed_to_a_non_test_name_removes_its_tests(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    diff = repo.diff({"tests/test_ops.py": None, "tests/ops_checks.txt": OPS_TESTS})
    assert b"rename from tests/test_ops.py" in diff
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                       _patch(tmp_path, diff))
    removed = sorted(f["node_id"] for f in findings(report, "PS106"))
    assert removed == ["tests/test_ops.py::test_add", "tests/test_ops.py::test_both",
                       "tests/test_ops.py::test_mul"]
    assert {w["path"]: (w["role"], w["status"]) for w in report["write_set"]} == {
        "tests/test_ops.py": ("test", "renamed-from"),
        "tests/ops_checks.txt": ("fixture", "renamed-to")}


def test_honest_rename_of_a_test_file_keeps_its_tests(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    diff = repo.diff({"tests/test_ops.py": None, "tests/test_operations.py": OPS_TESTS})
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                       _patch(tmp_path, diff))
    assert codes(report) == ["PS502"]


def _drop_last_assert(repo: GitRepo) -> str:
    return repo.diff({"tests/test_ops.py": DROP_LAST}).decode()


def _plain(diff: str) -> str:
    """The same hunks without git's extended header (what `diff -u` or a paste gives)."""
    return "".join(ln for ln in diff.splitlines(keepends=True)
                   if not ln.startswith(("diff --git", "index ")))


@pytest.mark.parametrize("new_name", ["tests/test_ops.py.bak", "tests/test_ops.py~",
                                      "tests/test_ops.py.orig", "docs/notes.md"])
def test_plain_diff_with_two_names_is_refused(new_name: str, repo: GitRepo, tmp_path: Path,
                                              capsysbinary: pytest.CaptureFixture[bytes]
                                              ) -> None:
    repo.commit(BASE)
    diff = _plain(_drop_last_assert(repo)).replace("+++ b/tests/test_ops.py",
                                                   f"+++ b/{new_name}")
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          _patch(tmp_path, diff))
    assert code == 2 and _refused(report, "PS901")
    (f,) = findings(report, "PS901")
    assert f"'---' names 'tests/test_ops.py' but '+++' names '{new_name}'" in f["message"]


def test_plain_diff_with_one_name_is_scored(repo: GitRepo, tmp_path: Path,
                                            capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    diff = _plain(_drop_last_assert(repo))
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                       _patch(tmp_path, diff))
    assert codes(report) == ["PS101", "PS502"]
    assert findings(report, "PS101")[0]["line"] == 16


def test_git_header_disagreeing_with_its_rename_lines_is_refused(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    diff = repo.diff({"tests/test_ops.py": None, "tests/test_calc.py": DROP_LAST}).decode()
    assert "rename to tests/test_calc.py" in diff
    forged = diff.replace("rename to tests/test_calc.py", "rename to docs/calc.md")
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          _patch(tmp_path, forged))
    assert code == 2 and _refused(report, "PS901")
    assert "disagree with the rename/copy lines" in findings(report, "PS901")[0]["message"]
    # the honest rename scores: the dropped assertion is found in the renamed file
    _, honest = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                       _patch(tmp_path, diff, "honest.patch"))
    assert codes(honest) == ["PS101", "PS502"]


UNDER_COUNTED = """\
diff --git a/tests/test_ops.py b/tests/test_ops.py
--- a/tests/test_ops.py
+++ b/tests/test_ops.py
@@ -14,{n} +14,{m} @@
 def test_both():
     assert add(mul(1, 2), 3) == 5
-    assert mul(add(1, 1), 2) == 4
"""


def test_under_counted_hunk_is_refused(repo: GitRepo, tmp_path: Path,
                                       capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    # Counted as two context lines, the `-` line after them is dropped by git and unidiff
    # and applied by `git apply --recount` and `patch`.
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          _patch(tmp_path, UNDER_COUNTED.format(n=2, m=2)))
    assert code == 2 and _refused(report, "PS901")
    (f,) = findings(report, "PS901")
    assert "line 7: this line follows hunk @@ -14,2 +14,2 @@ but is not counted" in f["message"]
    # the same edit, counted honestly, is scored (and its removal found)
    _, honest = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                       _patch(tmp_path, UNDER_COUNTED.format(n=3, m=2), "honest.patch"))
    assert codes(honest) == ["PS101", "PS502"]


def test_over_counted_hunk_is_refused(repo: GitRepo, tmp_path: Path,
                                      capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    diff = _drop_last_assert(repo)
    header = next(ln for ln in diff.splitlines() if ln.startswith("@@"))
    forged = diff.replace(header, header.replace(",", ",9", 1), 1)
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          _patch(tmp_path, forged))
    assert code == 2 and _refused(report, "PS901")
    assert "fewer lines than its header counts" in findings(report, "PS901")[0]["message"]


# --- 3. content the diff hides ----------------------------------------------------------

OVERRIDE = ("import unittest\n\nunittest.TestCase.assertEqual = lambda self, a, b, msg=None: "
            "None\n\n" + BASE["src/ops.py"])


def test_binary_patch_of_a_production_module_is_ps903(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit({**BASE, ".gitattributes": "src/** binary\n"})
    repo.write({"src/ops.py": OVERRIDE})
    repo.git("add", "-A")
    binary = repo.git("diff", "--cached", "--binary", "HEAD")
    hidden = repo.git("diff", "--cached", "HEAD")
    repo.git("reset", "-q", "--hard", "HEAD")
    assert b"GIT binary patch" in binary and b"Binary files a/src/ops.py" in hidden
    for name, diff in (("binary.patch", binary), ("hidden.patch", hidden)):
        code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                              _patch(tmp_path, diff, name))
        assert code == 2 and "PS903" in codes(report), name
        (f,) = findings(report, "PS903")
        assert f["path"] == "src/ops.py" and "contents hidden" in f["message"]


def test_binary_fixture_change_is_not_ps903(repo: GitRepo, tmp_path: Path,
                                            capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit({**BASE, "tests/data/logo.png": b"\x89PNG\r\n\x1a\n\x00\x01"})
    repo.write({"tests/data/logo.png": b"\x89PNG\r\n\x1a\n\x00\x02"})
    repo.git("add", "-A")
    diff = repo.git("diff", "--cached", "--binary", "HEAD")
    repo.git("reset", "-q", "--hard", "HEAD")
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                       _patch(tmp_path, diff))
    assert "PS903" not in codes(report) and "PS902" not in codes(report)


def test_a_section_without_content_is_set_aside_and_the_rest_applies(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    """A real agent patch shape: a text file, then `Binary files /dev/null and b/db differ`
    as the last section (git refuses the whole patch for it; `patch` skips it)."""
    repo.commit(BASE)
    repo.write({"tests/test_ops.py": DROP_LAST, "var/db.sqlite3": b"SQLite format 3\x00\x01"})
    repo.git("add", "-A")
    diff = repo.git("diff", "--cached", "HEAD")
    repo.git("reset", "-q", "--hard", "HEAD")
    assert diff.rstrip(b"\n").endswith(b"Binary files /dev/null and b/var/db.sqlite3 differ")
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                       _patch(tmp_path, diff))
    assert codes(report) == ["PS101", "PS502"]


@pytest.mark.parametrize("where", ["commit", "work tree"])
def test_head_mode_ignores_the_patchs_own_gitattributes(
        where: str, repo: GitRepo, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    base = repo.commit(BASE)
    files = {"src/ops.py": OVERRIDE}
    if where == "commit":
        files[".gitattributes"] = "src/** binary\n*.py -diff\n"
    repo.commit(files, "agent")
    if where == "work tree":
        (repo.root / ".gitattributes").write_text("src/** binary\n")
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", base, "--head", "HEAD")
    assert "PS206" in codes(report) and "PS903" not in codes(report)
    assert findings(report, "PS206")[0]["path"] == "src/ops.py"


def test_textconv_never_decides_what_is_read(repo: GitRepo, tmp_path: Path,
                                             capsysbinary: pytest.CaptureFixture[bytes]
                                             ) -> None:
    base = repo.commit({**BASE, ".gitattributes": "*.py diff=upper\n"})
    upper = tmp_path / "upper.sh"
    upper.write_text('#!/bin/sh\ntr a-z A-Z < "$1"\n')
    upper.chmod(0o755)
    repo.git("config", "diff.upper.textconv", str(upper))
    repo.write({"tests/test_ops.py": DROP_LAST})
    repo.git("add", "-A")
    shown = repo.git("diff", "--cached", "HEAD")  # what a reviewer's `git diff` prints
    assert b"-    ASSERT MUL(ADD(1, 1), 2) == 4" in shown
    # a diff made through textconv is not the change: git cannot apply it
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          _patch(tmp_path, shown))
    assert code == 2 and report["first_cause"]["code"] == "PS902"
    # the commits themselves are read without textconv: the removal is found
    repo.git("commit", "-q", "-m", "agent")
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", base, "--head", "HEAD")
    assert [f["line"] for f in findings(report, "PS101")] == [16]


def test_newline_in_a_file_name_cannot_substitute_a_blob(
        repo: GitRepo, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    base = repo.commit(BASE)
    blob = repo.git("rev-parse", "HEAD:tests/test_ops.py").decode().strip()
    # Listed before tests/test_ops.py; `HEAD:<name>` lines would make git answer the blob id
    # of the original test file for the weakened one.
    repo.commit({f"tests/a\n{blob}": "x = 1\n", "tests/test_ops.py": DROP_LAST}, "agent")
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", base, "--head", "HEAD")
    assert [f["line"] for f in findings(report, "PS101")] == [16]
    assert any(w["path"] == f"tests/a\\n{blob}" or w["path"] == f"tests/a\n{blob}"
               for w in report["write_set"])


# --- 5-6. crashes and hangs -------------------------------------------------------------

@pytest.mark.parametrize(("expr", "reason"), [
    ("(" * 1500 + "1" + ")" * 1500, "nesting too deep"),
    (" and ".join(["x"] * 20000), "operator chain of 20000 operands"),
    ("x" + "[0]" * 2000, "nesting"),
])
def test_pathological_nesting_is_ps903_not_a_crash(
        expr: str, reason: str, repo: GitRepo, tmp_path: Path) -> None:
    repo.commit(BASE)
    patch = _patch(tmp_path, repo.diff({"tests/test_ops.py": OPS_TESTS +
                                        f"\n\ndef test_deep():\n    assert {expr}\n"}))
    proc = subprocess.run(["python", "-m", "provscore", "score", "--repo", str(repo.root),
                           "--base", "HEAD", "--diff", str(patch), "--format", "json"],
                          capture_output=True, timeout=300, check=False)
    assert proc.returncode == 2, proc.stderr
    assert b'"PS903"' in proc.stdout and reason.encode() in proc.stdout


def test_honest_deep_nesting_is_classified(repo: GitRepo, tmp_path: Path,
                                           capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    expr = "add(" * 150 + "0" + ", 1)" * 150
    _, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff", _patch(
        tmp_path, repo.diff({"tests/test_ops.py": OPS_TESTS +
                             f"\n\ndef test_deep():\n    assert {expr} == 150\n"})))
    assert codes(report) == ["PS103", "PS502"]


def test_hunk_claiming_a_huge_start_line_fails_in_bounded_time(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    diff = _drop_last_assert(repo)
    forged = re.sub(r"^@@ -\d+,(\d+) \+\d+,(\d+) @@", r"@@ -999999999999,\1 +999999999999,\2 @@",
                    diff, flags=re.M)
    assert "@@ -999999999999," in forged
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          _patch(tmp_path, forged))
    # git clamps the claim to the file and finds the hunk at its real place, and so does
    # provscore (one pass over the file, not a loop to line 999999999999)
    assert code == 2 and codes(report) == ["PS101", "PS502"]


# --- 10. duplicate keys -----------------------------------------------------------------

def test_results_with_a_duplicate_key_are_refused(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    patch = _patch(tmp_path, repo.diff({"src/ops.py": BASE["src/ops.py"] + "# tidy\n"}))
    results = tmp_path / "report.json"
    results.write_text('{"created": 1, "duration": 0.1, "exitcode": 1, "root": ".", '
                       '"summary": {"passed": 1, "total": 1}, "tests": [{"nodeid": '
                       '"tests/test_ops.py::test_add", "outcome": "failed", "outcome": '
                       '"passed"}]}\n')
    code, _, err = cli(capsysbinary, "score", "--repo", repo.root, "--base", "HEAD", "--diff",
                       patch, "--results", results)
    assert code == 3 and err.strip().count("\n") == 0
    assert f"{results}: duplicate key 'outcome'" in err
    honest = tmp_path / "honest.json"
    # Every base test reaching the touched code has a result (PS701/PS704 stay quiet).
    rows = ", ".join(f'{{"nodeid": "tests/test_ops.py::{t}", "outcome": "passed"}}'
                     for t in ("test_add", "test_both", "test_mul"))
    honest.write_text(results.read_text().split('"tests": [')[0] + f'"tests": [{rows}]}}\n')
    code, _, err = cli(capsysbinary, "score", "--repo", repo.root, "--base", "HEAD", "--diff",
                       patch, "--results", honest, "-q")
    assert code == 0 and err == ""


def test_flake_ledger_with_a_duplicate_key_is_refused(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    oracle = tmp_path / "oracle"
    oracle.mkdir()
    (oracle / "flake_ledger.jsonl").write_text(
        '{"test_id": "tests/test_ops.py::test_add", "result": "pass", "result": "fail", '
        '"run_id": "r1", "recorded_at": "2026-01-01T00:00:00+00:00"}\n')
    code, _, err = cli(capsysbinary, "ledger", "check", oracle)
    assert code == 3 and "duplicate key 'result'" in err and "flake_ledger.jsonl:1" in err


def test_the_same_file_in_two_sections_is_refused(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    diff = _drop_last_assert(repo)
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          _patch(tmp_path, diff + diff))
    assert code == 2 and _refused(report, "PS901")
    assert "in more than one section" in findings(report, "PS901")[0]["message"]


def test_zero_context_insertion_is_refused_where_git_would_move_it(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    repo.write({"tests/test_ops.py": OPS_TESTS.replace(
        "def test_mul():", "@pytest.mark.skip\ndef test_mul():")})
    repo.git("add", "-A")
    diff = repo.git("diff", "--cached", "-U0", "HEAD")
    repo.git("reset", "-q", "--hard", "HEAD")
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          _patch(tmp_path, diff))
    # `git apply` (without --unidiff-zero) appends a context-free insertion at the end of
    # the file; `patch` inserts it at its line: refused, not scored either way
    assert code == 2 and report["first_cause"]["code"] == "PS902"
    assert "has no context: git adds it at the end of the file" in \
        findings(report, "PS902")[0]["message"]


def test_pass_is_possible_for_the_honest_patch(repo: GitRepo, tmp_path: Path,
                                               capsysbinary: pytest.CaptureFixture[bytes]
                                               ) -> None:
    """The look-alike of every tampering case above: an honest patch with base's tests
    green off-tree passes (so the rejections above are the tampering, not the setup)."""
    repo.commit(BASE)
    patch = _patch(tmp_path, repo.diff({"src/ops.py": BASE["src/ops.py"] + "# tidy\n"}))
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          patch, "--results", junit(tmp_path / "run.xml"))
    assert code == 0 and report["decision"] == "pass" and codes(report) == []


def test_git_refusing_the_patch_is_ps902_naming_its_reason(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    # A deletion whose removed lines are not the file: git refuses it.
    forged = ("diff --git a/tests/test_ops.py b/tests/test_ops.py\ndeleted file mode 100644\n"
              "--- a/tests/test_ops.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-print('hi')\n")
    code, report = scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff",
                          _patch(tmp_path, forged))
    assert code == 2 and report["first_cause"]["code"] == "PS902"
    (f,) = findings(report, "PS902")
    assert f["path"] == "tests/test_ops.py" and "git apply refuses it" in f["message"]


def test_no_git_object_is_written_to_the_scored_repository(
        repo: GitRepo, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    repo.commit(BASE)
    patch = _patch(tmp_path, repo.diff({"src/ops.py": OVERRIDE}))
    before = sorted(p.name for p in (repo.root / ".git" / "objects").rglob("*"))
    index = (repo.root / ".git" / "index").read_bytes()
    scored(capsysbinary, "--repo", repo.root, "--base", "HEAD", "--diff", patch)
    assert sorted(p.name for p in (repo.root / ".git" / "objects").rglob("*")) == before
    assert (repo.root / ".git" / "index").read_bytes() == index
