"""The GitHub Action's publishing step: one sticky pull-request comment and one check run,
both from the report the Action's single scoring wrote (no second scoring).

    python -m provscore.github_publish --json report.json --markdown report.md \\
        [--comment] [--check-run NAME] [--fail-on review|reject]

It reads what GitHub sets in every job: ``GITHUB_API_URL``, ``GITHUB_REPOSITORY``,
``GITHUB_EVENT_PATH`` (the pull request's number and head sha), ``GITHUB_SHA``, and the
token in ``GITHUB_TOKEN``.

- The comment: the previous comment holding the sticky marker (``<!-- provscore:sticky
  -->``, which the Markdown report ends with) is edited in place; only when there is none
  is a comment created. Every page of the pull request's comments is searched.
- The check run: ``success`` for pass, ``failure`` for reject, and for review ``neutral``
  (a reviewer must look; the check does not block) unless ``--fail-on review``. Its
  summary is the Markdown report.

Publishing never decides anything: a refusal by GitHub (a fork's read-only token, a job
without ``pull-requests: write`` or ``checks: write``) is a ``::warning`` and exit 0; the
verdict is the exit code of the scoring step.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from typing import Any

from provscore.records import dataclass
from provscore.report.markdown import STICKY_MARKER

DEFAULT_API = "https://api.github.com"
#: GitHub's limit for a check run's output.summary.
MAX_SUMMARY_CHARS = 65_535
PAGE_SIZE = 100
CONCLUSION = {"pass": "success", "review": "neutral", "reject": "failure"}


class PublishError(Exception):
    """GitHub refused or could not be reached; the message says which call and why."""


@dataclass(frozen=True, slots=True)
class GitHub:
    api: str
    repository: str
    token: str

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        url = self.api.rstrip("/") + path
        data = None if body is None else json.dumps(body).encode("utf-8")
        req = urllib.request.Request(url, data=data, method=method, headers={
            "Accept": "application/vnd.github+json",
            "Authorization": f"Bearer {self.token}",
            "X-GitHub-Api-Version": "2022-11-28",
            "Content-Type": "application/json",
            "User-Agent": "provscore-action"})
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read().decode("utf-8", "replace")[:200]
            with contextlib.suppress(ValueError, AttributeError):
                detail = json.loads(detail).get("message", detail)
            raise PublishError(f"{method} {path}: HTTP {exc.code} {detail}") from None
        except (urllib.error.URLError, OSError) as exc:
            raise PublishError(f"{method} {path}: {exc}") from None
        return json.loads(raw) if raw else None


def sticky_comment(gh: GitHub, number: int, body: str) -> str:
    """Edit the pull request's sticky comment, or create it; returns what was done."""
    base = f"/repos/{gh.repository}/issues"
    page = 1
    while True:
        comments = gh.call("GET", f"{base}/{number}/comments?per_page={PAGE_SIZE}&page={page}")
        if not isinstance(comments, list):
            raise PublishError(f"GET {base}/{number}/comments: not a list")
        for comment in comments:
            if STICKY_MARKER in str(comment.get("body", "")):
                gh.call("PATCH", f"{base}/comments/{comment['id']}", {"body": body})
                return f"updated comment {comment['id']}"
        if len(comments) < PAGE_SIZE:
            break
        page += 1
    created = gh.call("POST", f"{base}/{number}/comments", {"body": body})
    return f"created comment {created.get('id') if isinstance(created, dict) else ''}".strip()


def conclusion(decision: str, fail_on: str) -> str:
    if decision == "review" and fail_on == "review":
        return "failure"
    return CONCLUSION[decision]


def check_run(gh: GitHub, name: str, head_sha: str, report: dict[str, Any], summary: str,
              fail_on: str) -> str:
    decision = str(report["decision"])
    score = "unscored" if report.get("merge_score") is None else report["merge_score"]
    text = summary if len(summary) <= MAX_SUMMARY_CHARS else \
        summary[:MAX_SUMMARY_CHARS - 1] + "…"
    gh.call("POST", f"/repos/{gh.repository}/check-runs", {
        "name": name, "head_sha": head_sha, "status": "completed",
        "conclusion": conclusion(decision, fail_on),
        "output": {"title": f"provscore: {decision.upper()} (merge score {score})",
                   "summary": text}})
    return f"check run {name!r}: {conclusion(decision, fail_on)}"


def _event() -> dict[str, Any]:
    path = os.environ.get("GITHUB_EVENT_PATH")
    if not path:
        return {}
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m provscore.github_publish",
                                description="Sticky PR comment and check run from a report.")
    p.add_argument("--json", required=True, help="the JSON report")
    p.add_argument("--markdown", required=True, help="the Markdown report")
    p.add_argument("--comment", action="store_true", help="create or update the comment")
    p.add_argument("--check-run", metavar="NAME", help="create a check run named NAME")
    p.add_argument("--fail-on", choices=("review", "reject"), default="reject")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    try:
        with open(args.json, encoding="utf-8") as fh:
            report = json.load(fh)
        with open(args.markdown, encoding="utf-8") as fh:
            body = fh.read()
    except (OSError, ValueError) as exc:
        print(f"::warning title=provscore::nothing published: {exc}")
        return 0
    token = os.environ.get("GITHUB_TOKEN", "")
    repository = os.environ.get("GITHUB_REPOSITORY", "")
    if not token or not repository:
        print("::warning title=provscore::nothing published: GITHUB_TOKEN and "
              "GITHUB_REPOSITORY are needed")
        return 0
    gh = GitHub(os.environ.get("GITHUB_API_URL") or DEFAULT_API, repository, token)
    pr = _event().get("pull_request") or {}
    jobs: list[tuple[str, Callable[[], str]]] = []
    if args.comment and pr.get("number"):
        jobs.append(("sticky comment", lambda: sticky_comment(gh, int(pr["number"]), body)))
    head_sha = (pr.get("head") or {}).get("sha") or os.environ.get("GITHUB_SHA", "")
    if args.check_run and head_sha:
        jobs.append(("check run", lambda: check_run(gh, args.check_run, head_sha, report,
                                                    body, args.fail_on)))
    for what, job in jobs:
        try:
            print(f"provscore: {job()}")
        except PublishError as exc:
            print(f"::warning title=provscore::could not publish the {what}: {exc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
