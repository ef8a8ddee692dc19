"""The GitHub Action end to end: its composite steps' shell, run as a runner runs them.

A real repository with a pull-request branch, a real off-tree run of base's tests, the
event payload, ``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY`` files, and a local HTTP
server speaking the part of GitHub's REST API the Action calls (issue comments, check
runs). ``provscore`` on PATH is a shim that logs each invocation, so the test sees that
the patch is scored once and that every declared output is written from that one report.
"""

from __future__ import annotations

import json
import re
import sys
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from action_harness import ActionRun, run_action
from test_renderers import github_sarif_problems
from tests_support import GitRepo

ROOT = Path(__file__).resolve().parents[1]
ACTION = ROOT / "action.yml"
MARKER = "<!-- provscore:sticky -->"
BASE = {
    "pytest.ini": "[pytest]\npythonpath = src\n",
    "pyproject.toml": "[project]\nname = 'calc'\nversion = '1'\n",
    "src/calc.py": "def add(a, b):\n    return a + b\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
                          "    assert add(2, 3) == 5\n    assert add(1, 1) == 2\n",
}
REVIEW_PATCH = {  # production change plus a test the patch wrote (PS103): a review
    "src/calc.py": "def add(a, b):\n    return b + a\n",
    "tests/test_more.py": "from calc import add\n\n\ndef test_neg():\n"
                          "    assert add(-1, 1) == 0\n"}
REJECT_PATCH = {  # an assertion removed (PS101): a reject
    "src/calc.py": "def add(a, b):\n    return b + a\n",
    "tests/test_calc.py": "from calc import add\n\n\ndef test_add():\n"
                          "    assert add(2, 3) == 5\n"}


class FakeGitHub:
    """Issue comments (paginated, 100 a page) and check runs, in memory; every request
    is recorded. ``refuse`` answers 403 to every write, as a fork's token gets."""

    def __init__(self) -> None:
        self.comments: list[dict[str, Any]] = []
        self.check_runs: list[dict[str, Any]] = []
        self.requests: list[tuple[str, str, Any]] = []
        self.refuse = False
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        api = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _reply(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _body(self) -> Any:
                size = int(self.headers.get("Content-Length", "0"))
                return json.loads(self.rfile.read(size)) if size else None

            def do_GET(self) -> None:
                url = urlsplit(self.path)
                api.requests.append(("GET", url.path, None))
                if self.headers.get("Authorization") != "Bearer t0ken":
                    self._reply(401, {"message": "Bad credentials"})
                    return
                query = parse_qs(url.query)
                page, size = int(query["page"][0]), int(query["per_page"][0])
                self._reply(200, api.comments[(page - 1) * size: page * size])

            def do_POST(self) -> None:
                body = self._body()
                api.requests.append(("POST", self.path, body))
                if api.refuse:
                    self._reply(403, {"message": "Resource not accessible by integration"})
                elif self.path.endswith("/check-runs"):
                    api.check_runs.append(body)
                    self._reply(201, {"id": len(api.check_runs)})
                else:
                    comment = {"id": 1000 + len(api.comments), "body": body["body"]}
                    api.comments.append(comment)
                    self._reply(201, comment)

            def do_PATCH(self) -> None:
                body = self._body()
                api.requests.append(("PATCH", self.path, body))
                if api.refuse:
                    self._reply(403, {"message": "Resource not accessible by integration"})
                    return
                cid = int(self.path.rsplit("/", 1)[1])
                comment = next(c for c in api.comments if c["id"] == cid)
                comment["body"] = body["body"]
                self._reply(200, comment)

        return Handler


@pytest.fixture
def github() -> Iterator[FakeGitHub]:
    api = FakeGitHub()
    api.thread.start()
    yield api
    api.server.shutdown()
    api.server.server_close()


def _shims(bin_dir: Path, log: Path) -> None:
    """``provscore`` and ``python`` on PATH run this checkout's provscore with the test's
    interpreter (the stand-in for the Action's pip install); every provscore invocation
    is appended to ``log``. The Action runs Python isolated (``-I``), which would ignore
    the PYTHONPATH that points at this checkout: the shim gives ``-P`` instead, which
    keeps the working directory (the patched checkout) off ``sys.path`` just the same."""
    bin_dir.mkdir(parents=True)
    (bin_dir / "provscore").write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{log}"\n'
        f'exec "{sys.executable}" -P -m provscore "$@"\n')
    (bin_dir / "python").write_text(
        '#!/bin/sh\nif [ "$1" = "-I" ]; then shift; set -- -P "$@"; fi\n'
        f'exec "{sys.executable}" "$@"\n')
    for shim in bin_dir.iterdir():
        shim.chmod(0o755)


def _pull_request(tmp_path: Path, files: dict[str, str]) -> tuple[GitRepo, Path, dict[str, Any]]:
    """A repository checked out at a pull request's head, base's tests run off-tree against
    the patch, and the pull_request event payload."""
    repo = GitRepo(tmp_path / "repo")
    base = repo.commit(BASE)
    results = repo.off_tree_run(repo.diff(files), tmp_path / "run1.xml")
    repo.git("checkout", "-q", "-b", "agent")
    head = repo.commit(files, "agent patch")
    event = {"number": 7, "pull_request": {"number": 7, "base": {"sha": base},
                                           "head": {"sha": head}}}
    return repo, results, event


def _run(tmp_path: Path, github: FakeGitHub, repo: GitRepo, event: dict[str, Any],
         with_: dict[str, str], name: str = "run") -> tuple[ActionRun, list[str]]:
    log = tmp_path / f"{name}-invocations.log"
    _shims(tmp_path / f"{name}-bin", log)
    env = {"PATH": f"{tmp_path / f'{name}-bin'}:/usr/bin:/bin", "GITHUB_REPOSITORY": "o/r",
           "GITHUB_API_URL": github.url, "GITHUB_SHA": "0" * 40, "GITHUB_TOKEN": "t0ken",
           "PYTHONPATH": str(ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    run = run_action(ACTION, repo.root, {"github-token": "t0ken", **with_}, event, env,
                     tmp_path / f"{name}-runner")
    calls = log.read_text().splitlines() if log.exists() else []
    return run, calls


def test_action_declares_every_output_it_writes() -> None:
    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert action["inputs"]["fail-on"]["default"] == "reject"
    assert {"decision", "merge-score", "exit-code", "markdown", "json", "sarif"} == \
        set(action["outputs"])
    script = next(s["run"] for s in action["runs"]["steps"] if s.get("id") == "score")
    assert len(re.findall(r"^\s*provscore ", script, re.M)) == 1, "the Action scores once"


def test_review_is_neutral_scored_once_every_output_written(tmp_path: Path,
                                                            github: FakeGitHub) -> None:
    repo, results, event = _pull_request(tmp_path, REVIEW_PATCH)
    run, calls = _run(tmp_path, github, repo, event, {"results": str(results)})
    assert len(calls) == 1 and calls[0].startswith("score "), calls
    assert not run.failed, run.log
    assert run.outputs["decision"] == "review" and run.outputs["exit-code"] == "0"
    assert run.outputs["merge-score"] == "0.99"
    report = json.loads(Path(run.outputs["json"]).read_text())
    assert report["decision"] == "review"
    assert [f["code"] for f in report["findings"]] == ["PS103"]
    comment = Path(run.outputs["markdown"]).read_text()
    assert comment.startswith("### ⚠️ provscore: REVIEW — merge score: 0.9900")
    assert comment.rstrip().endswith(MARKER)
    sarif = json.loads(Path(run.outputs["sarif"]).read_text())
    assert github_sarif_problems(sarif) == []
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["PS103"]
    annotations = run.stdout("Score")
    assert "::warning title=provscore REVIEW::merge score 0.9900; a reviewer must look: PS103" \
        in annotations
    assert "::warning file=tests/test_more.py,line=5,title=PS103 assertion-added::" in annotations
    assert run.summary == comment  # the step summary is the same Markdown, same report
    # The sticky comment was created (no earlier one), the check run is neutral.
    assert [(m, p) for m, p, _ in github.requests if m != "GET"] == [
        ("POST", "/repos/o/r/issues/7/comments"), ("POST", "/repos/o/r/check-runs")]
    assert github.comments == [{"id": 1000, "body": comment}]
    (check,) = github.check_runs
    assert (check["name"], check["conclusion"], check["head_sha"], check["status"]) == (
        "provscore", "neutral", event["pull_request"]["head"]["sha"], "completed")
    assert check["output"]["title"] == "provscore: REVIEW (merge score 0.99)"
    assert check["output"]["summary"] == comment


def test_reject_fails_the_job_after_updating_the_sticky_comment_in_place(
        tmp_path: Path, github: FakeGitHub) -> None:
    # 100 other comments fill the first page; the earlier provscore comment is on page 2.
    github.comments = [{"id": i, "body": f"comment {i}"} for i in range(100)]
    github.comments.append({"id": 555, "body": f"old report\n{MARKER}\n"})
    repo, results, event = _pull_request(tmp_path, REJECT_PATCH)
    run, calls = _run(tmp_path, github, repo, event, {"results": str(results)})
    assert len(calls) == 1
    assert run.outputs["decision"] == "reject" and run.outputs["exit-code"] == "2"
    verdict = [(name, rc) for name, rc, _, _ in run.log]
    assert verdict[-1] == ("Verdict", 2) and all(rc == 0 for _, rc in verdict[:-1])
    comment = Path(run.outputs["markdown"]).read_text()
    writes = [(m, p) for m, p, _ in github.requests if m != "GET"]
    assert writes == [("PATCH", "/repos/o/r/issues/comments/555"),
                      ("POST", "/repos/o/r/check-runs")]
    assert [g for g in github.requests if g[0] == "GET"] == [
        ("GET", "/repos/o/r/issues/7/comments", None)] * 2  # both pages read
    assert github.comments[-1] == {"id": 555, "body": comment} and len(github.comments) == 101
    assert github.check_runs[0]["conclusion"] == "failure"


def test_fail_on_review_makes_review_a_failure(tmp_path: Path, github: FakeGitHub) -> None:
    repo, results, event = _pull_request(tmp_path, REVIEW_PATCH)
    run, _ = _run(tmp_path, github, repo, event,
                  {"results": str(results), "fail-on": "review", "comment": "false"})
    assert run.outputs["exit-code"] == "1" and run.log[-1][:2] == ("Verdict", 1)
    assert github.comments == []
    assert github.check_runs[0]["conclusion"] == "failure"


def test_refused_publishing_warns_and_keeps_the_verdict(tmp_path: Path,
                                                        github: FakeGitHub) -> None:
    github.refuse = True  # a fork's read-only token
    repo, results, event = _pull_request(tmp_path, REVIEW_PATCH)
    run, _ = _run(tmp_path, github, repo, event, {"results": str(results)})
    assert not run.failed
    published = run.stdout("Publish the sticky comment and the check run")
    assert "::warning title=provscore::could not publish the sticky comment: POST " \
           "/repos/o/r/issues/7/comments: HTTP 403 Resource not accessible by integration" \
        in published
    assert "could not publish the check run" in published


def test_extra_formats_come_from_the_same_scoring(tmp_path: Path, github: FakeGitHub) -> None:
    repo, results, event = _pull_request(tmp_path, REJECT_PATCH)
    concise = tmp_path / "provscore.txt"
    _, calls = _run(tmp_path, github, repo, event,
                    {"results": str(results), "formats": f"concise:{concise}",
                     "check-run": "", "comment": "false"})
    assert len(calls) == 1 and f"--format concise:{concise}" in calls[0]
    lines = concise.read_text().splitlines()
    assert lines[0] == ("tests/test_calc.py:1:1: PS101 assert removed from "
                        "tests/test_calc.py::test_add: assert add(1, 1) == 2 (line 6 on base)")
    assert lines[-1].startswith("provscore: REJECT")
    assert github.requests == []  # nothing to publish


def test_unrunnable_scoring_exits_3_and_publishes_nothing(tmp_path: Path,
                                                          github: FakeGitHub) -> None:
    repo, _, event = _pull_request(tmp_path, REVIEW_PATCH)
    run, calls = _run(tmp_path, github, repo, event, {"base": "no-such-revision"})
    assert len(calls) == 1
    assert run.outputs["exit-code"] == "3" and run.outputs["decision"] == ""
    assert run.log[-1][:2] == ("Verdict", 3)
    assert [name for name, _, _, _ in run.log] == ["Find the test interpreter", "Score",
                                                   "Verdict"]
    assert calls[0].startswith("verify ")  # no results given: the default mode
    assert github.requests == []


def test_verify_mode_runs_and_scores_once_and_writes_every_output(
        tmp_path: Path, github: FakeGitHub) -> None:
    repo, _, event = _pull_request(tmp_path, REVIEW_PATCH)
    oracle = tmp_path / "oracle"  # outside the checkout; lets the no-autoload switch through
    oracle.mkdir()
    (oracle / "score_contract.toml").write_text(
        '[runner]\npass_env = ["PYTEST_DISABLE_PLUGIN_AUTOLOAD"]\n')
    run, calls = _run(tmp_path, github, repo, event,
                      {"oracle": str(oracle), "python": sys.executable}, name="verify")
    assert len(calls) == 1 and calls[0].startswith("verify "), calls
    assert "--require-sandbox" in calls[0] and "--patch-id pr-7" in calls[0]
    assert not run.failed, run.log
    report = json.loads(Path(run.outputs["json"]).read_text())
    assert report["run"]["patch_id"] == "pr-7" and report["run"]["refused"] is None
    assert run.outputs["decision"] == report["decision"]
    for output in ("markdown", "json", "sarif"):
        assert Path(run.outputs[output]).is_file(), output
    assert github_sarif_problems(json.loads(Path(run.outputs["sarif"]).read_text())) == []
    assert github.comments[0]["body"] == Path(run.outputs["markdown"]).read_text()
    assert github.check_runs[0]["conclusion"] == {"pass": "success", "review": "neutral",
                                                  "reject": "failure"}[report["decision"]]
