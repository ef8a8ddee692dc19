"""The trusted corpus: which paths come from base, and its digest.

The corpus is everything a test run reads that is not production code: test files,
conftest.py, test helpers, fixtures and data files (and any path the base tests read),
the runner configuration, the oracle's own files. In the patched tree these come from
base whatever the patch did to them; production code (and other files the tests do not
read, such as package data) comes from the patch.

The **corpus digest** pins what a run measured against (seed 004's invariant 1): a sha256
over the test tree at base (every test, helper, conftest and fixture path with its git
object id), base's pytest configuration, the dependency lock files and the Python version.
A contract that names ``runner.expected_corpus_digest`` rejects a run whose digest differs
(PS507).
"""

from __future__ import annotations

import hashlib
import json
import posixpath
from collections.abc import Iterable, Sequence

from provscore.change.collection import CollectionConfig
from provscore.change.git import Repo
from provscore.change.runner_config import CONFIG_FILES, RunnerOptions
from provscore.change.writeset import WriteSet, classify_path
from provscore.model import PathRole

#: Roles whose paths in the patched tree are taken from base.
CORPUS_ROLES = frozenset({PathRole.TEST, PathRole.HELPER, PathRole.CONFTEST, PathRole.FIXTURE,
                          PathRole.RUNNER, PathRole.ORACLE})
#: Roles of the test tree the digest covers (runner channels such as CI files are not tests).
_TEST_TREE_ROLES = frozenset({PathRole.TEST, PathRole.HELPER, PathRole.CONFTEST,
                              PathRole.FIXTURE})


def corpus_paths(write_set: WriteSet, read_by_tests: Iterable[str] = ()) -> tuple[str, ...]:
    """The write set's paths that the patched tree takes from base (or drops)."""
    read = set(read_by_tests)
    return tuple(sorted({e.path for e in write_set.entries
                         if e.role in CORPUS_ROLES or e.runner or e.path in read
                         or posixpath.basename(e.path) in CONFIG_FILES}))


def lock_hash(repo: Repo, base_sha: str, lock_files: Sequence[str],
              objects: dict[str, str] | None = None) -> str:
    """sha256 over the dependency lock files present at base ("" when there is none)."""
    found = objects if objects is not None else _objects(repo, base_sha)
    lines = [f"{p} {found[p]}" for p in sorted(set(lock_files)) if p in found]
    if not lines:
        return ""
    return hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape")).hexdigest()


def _objects(repo: Repo, base_sha: str) -> dict[str, str]:
    return {e.path: e.sha for e in repo.ls_tree(base_sha)}


def corpus_digest(repo: Repo, base_sha: str, *, config: CollectionConfig,
                  options: RunnerOptions, lock_files: Sequence[str],
                  fixture_roots: Sequence[str], oracle_prefixes: Sequence[str],
                  python: str) -> str:
    """The digest of the corpus at base for a Python version (module docstring)."""
    objects = _objects(repo, base_sha)
    h = hashlib.sha256(b"provscore.corpus/1\n")
    for path in sorted(objects):
        role = classify_path(path, config, oracle_prefixes=oracle_prefixes,
                             fixture_roots=fixture_roots)
        if role in _TEST_TREE_ROLES:
            h.update(f"test {path} {objects[path]}\n".encode("utf-8", "surrogateescape"))
    pytest_config = {"source": options.source, "ini": dict(sorted(options.ini.items())),
                     "addopts": list(options.addopts), "runners": sorted(options.runners),
                     "invocations": [[i.channel, i.runner, *i.words]
                                     for i in options.invocations]}
    h.update(b"config " + json.dumps(pytest_config, sort_keys=True).encode() + b"\n")
    h.update(f"lock {lock_hash(repo, base_sha, lock_files, objects)}\n".encode())
    h.update(f"python {python}\n".encode())
    return h.hexdigest()
