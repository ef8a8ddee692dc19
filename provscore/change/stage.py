"""Stages 1-2 together: from the patch (a diff, or two refs) to its images at base and after.

The output, :class:`Change`, is everything later stages know about the patch: the
parsed :class:`~provscore.change.diff.ChangeSet`, each changed file's bytes before and
after, what could not be applied, and the runner configuration on both sides. Bytes
come from git objects only; the working tree is never read.

There is one definition of the change: what git applies. A diff that patch tools could
read differently is refused (:mod:`provscore.change.strict`, PS901); the diff is then
applied by git to a temporary index and every post-image provscore analyses must be
git's, byte for byte (:mod:`provscore.change.applied`, PS902 otherwise).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field, replace

from provscore.change.applied import (
    GitChange,
    State,
    TreeStates,
    apply_change,
    commits_change,
    disagreements,
)
from provscore.change.data_files import start_base_reads
from provscore.change.diff import (
    ChangeSet,
    DiffParseError,
    FileStatus,
    check_sections,
    decode_diff,
    parse_diff,
)
from provscore.change.discovery import Undiscovered, start_dirs, undiscovered
from provscore.change.doctests import start_doctest_paths
from provscore.change.git import Repo
from provscore.change.images import ApplyFailure, FileImages, build_images
from provscore.change.options import OptionEffects
from provscore.change.runner_config import (
    CONFIG_FILES,
    COVERAGE_FILES,
    RunnerConfig,
    read_base_runner,
    read_runner_config,
)
from provscore.change.runners import RUNNER_SCRIPTS
from provscore.change.strict import AmbiguousDiff, check_unambiguous
from provscore.change.suites import NAMING_FILES
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class Change:
    """What the patch does, read from git."""

    base_sha: str
    head_sha: str | None
    origin: str  # what the diff came from, for messages ("git diff A B", a file name)
    changes: ChangeSet
    files: tuple[FileImages, ...]
    failures: tuple[ApplyFailure, ...]  # hunks that do not apply, added files that exist
    runner: RunnerConfig
    diff_error: str | None = None  # why the diff does not parse (PS901); then nothing else
    # Bytes after the patch for every path it touches (None = absent after the patch).
    post_images: Mapping[str, bytes | None] = field(default_factory=dict)
    # Why there is nothing to score (PS904): an empty diff, or one git applies to no effect.
    nothing_to_score: str | None = None
    # Unchanged test modules of base the patch hides from discovery (change/discovery.py).
    undiscovered: tuple[Undiscovered, ...] = ()
    # Data files the patch edits or deletes that base's test code reads (data_files.py).
    base_reads: frozenset[str] = frozenset()
    # Changed modules whose doctests a base test module's DocTestSuite runs (change/doctests.py).
    doctest_paths: tuple[str, ...] = ()


def _unparsed(base_sha: str, head_sha: str | None, origin: str, error: str | None,
              *, empty: str | None = None) -> Change:
    return Change(base_sha, head_sha, origin, ChangeSet(()), (), (), RunnerConfig.unchanged(),
                  diff_error=error, nothing_to_score=empty)


def read_change(repo: Repo, base_sha: str, head_sha: str | None, diff: bytes,
                origin: str, effects: OptionEffects) -> Change:
    """Parse the diff (or ``git diff base head``) and build every changed file's images.
    ``effects``: how runner options change a run (rules/patterns.toml)."""
    raw = repo.diff(base_sha, head_sha) if head_sha else diff
    text = decode_diff(raw)
    if not text.strip():
        return _unparsed(base_sha, head_sha, origin, None, empty=(
            "the commits change no file since the merge base" if head_sha else
            "the diff is empty" if not text else "the diff holds only whitespace"))
    try:
        strip = check_unambiguous(text)
        changes = parse_diff(text, origin=origin)
        check_sections(changes, origin=origin)
    except AmbiguousDiff as exc:
        return _unparsed(base_sha, head_sha, origin, f"{origin}: {exc}")
    except DiffParseError as exc:
        return _unparsed(base_sha, head_sha, origin, str(exc))
    safe = [c for c in changes.files if not c.unsafe_reason]
    wanted = [c.old_path for c in safe if c.old_path] + \
        [c.new_path for c in safe if c.new_path and c.status is FileStatus.ADDED]
    base_blobs = repo.read_blobs(base_sha, [*wanted, *CONFIG_FILES, *COVERAGE_FILES,
                                            *RUNNER_SCRIPTS, *NAMING_FILES])
    images = build_images(changes, base_blobs)
    failures = [*images.failures, *_added_over_existing(images.files, base_blobs)]
    tree = repo.tree(base_sha)
    base_runner = read_base_runner(base_blobs, tree)
    # git searches base's tests for the data files' names, and for the suites that run
    # changed modules' doctests, while it applies the patch.
    changed = [(p, img.pre, img.post) for img in images.files if not img.change.unsafe_reason
               for p in dict.fromkeys(img.change.paths)]
    with start_base_reads(repo, base_sha, tree, changes, base_runner.collection) as lookup, \
            start_doctest_paths(repo, base_sha, changed, tree, base_runner.collection,
                                base_runner.options) as doctests:
        base = TreeStates(tree)
        git: GitChange | None = None
        if len(safe) == len(changes.files):  # an unsafe path is PS304; git would refuse it
            hidden = {p for c in changes.files if c.binary for p in c.paths}
            git = commits_change(repo, base_sha, head_sha, hidden.__contains__) \
                if head_sha else apply_change(repo, base_sha, raw, strip,
                                              (p for c in changes.files for p in c.paths),
                                              hidden.__contains__)
            if git.refused is not None and not failures:
                failures.append(git.refused)
            elif not failures:
                failures += disagreements(images.files, base, git,
                                          sha256=len(base_sha) == 64)
        base_reads, doctest_paths = lookup.result(), doctests.result()
    files = tuple(_with_git(img, base, git) for img in images.files)
    post_images: dict[str, bytes | None] = {}
    for img in files:
        if img.change.old_path:
            post_images[img.change.old_path] = None
    for img in files:
        if img.change.new_path:
            post_images[img.change.new_path] = img.post
    empty = None
    if not failures and git is not None and git.refused is None and not git.states \
            and not any(c.binary for c in changes.files):
        empty = "git applies the diff and no file changes"
    runner = read_runner_config(files, base_blobs, effects, base_runner)
    return Change(base_sha, head_sha, origin, changes, files, tuple(failures), runner,
                  post_images=post_images, nothing_to_score=empty,
                  undiscovered=_undiscovered(repo, base_sha, changes, post_images, runner),
                  base_reads=base_reads, doctest_paths=doctest_paths)


def _undiscovered(repo: Repo, base_sha: str, changes: ChangeSet,
                  post_images: Mapping[str, bytes | None], runner: RunnerConfig
                  ) -> tuple[Undiscovered, ...]:
    tree = repo.tree(base_sha)
    hidden = undiscovered(changes, post_images, tree,
                          start_dirs(runner.base.runners, runner.base.invocations, tree),
                          runner.collection)
    blobs = repo.read_blobs(base_sha, [p for p, _ in hidden])
    return tuple(Undiscovered(p, init, data) for p, init in hidden
                 if (data := blobs.get(p)) is not None)


def _added_over_existing(files: Sequence[FileImages], base_blobs: Mapping[str, bytes | None]
                         ) -> list[ApplyFailure]:
    """Added files that already exist at base, unless an earlier section deleted them."""
    deleted: set[str] = set()
    out: list[ApplyFailure] = []
    for img in files:
        c = img.change
        if c.unsafe_reason:
            continue
        if c.status is FileStatus.DELETED and c.old_path:
            deleted.add(c.old_path)
        if c.status is FileStatus.ADDED and c.new_path and c.new_path not in deleted \
                and base_blobs.get(c.new_path) is not None:
            out.append(ApplyFailure(c.new_path, "file added by the patch already exists at base"))
    return out


def _with_git(img: FileImages, base: Mapping[str, State], git: GitChange | None) -> FileImages:
    """The file's modes from git, and git's bytes where the diff hides them (binary)."""
    c = img.change
    old = base.get(c.old_path) if c.old_path else None
    pre_mode = old.mode if old is not None else c.old_mode
    post, post_mode = img.post, c.new_mode or pre_mode
    if c.new_path is None:
        post_mode = None
    elif git is not None and git.refused is None and c.new_path in git.states:
        state = git.states[c.new_path]
        post_mode = state.mode if state is not None else None
        if c.binary:
            post = git.post(c.new_path)
    return replace(img, post=post, pre_mode=pre_mode, post_mode=post_mode)
