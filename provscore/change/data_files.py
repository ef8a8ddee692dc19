"""Data files that base tests read: their contents are some test's expected values.

A data file counts only when test code at base *reads* it: a string naming it reaches a
call that opens or loads a file (directly, or through a name it is bound to). A test that
only mentions the name (``assert "pyproject.toml" in out``) does not make the file an
expected value, so a version bump in pyproject.toml is not PS108.
"""

from __future__ import annotations

import ast
import posixpath
from collections.abc import Iterator, Mapping

from provscore.change.collection import CollectionConfig
from provscore.change.diff import ChangeSet, FileStatus
from provscore.change.git import Repo, Search, TreeEntry
from provscore.change.writeset import classify_path
from provscore.model import EVIDENCE_ROLES

_MAX_DATA_FILES = 40
# Last names of calls that read a file or build the path of one that is read.
_READERS = frozenset({
    "open", "read_text", "read_bytes", "load", "loads", "loadtxt", "genfromtxt", "read_csv",
    "read_json", "read_parquet", "read_pickle", "read_excel", "read_table", "safe_load",
    "full_load", "parse", "fromfile", "imread", "Path", "PurePath", "joinpath", "join",
    "files", "resource_filename", "resource_string", "resource_stream", "get_data",
    "read_file", "read_binary", "open_text", "open_binary", "read", "readlines",
    "readline", "iterparse", "ZipFile", "TarFile", "shared_datadir", "datadir",
})


def start_base_reads(repo: Repo, base: str, tree: Mapping[str, TreeEntry],
                     changes: ChangeSet, config: CollectionConfig) -> Search[frozenset[str]]:
    """Which data files the patch edits or deletes test code at base reads: their contents
    are some test's expected values, wherever they live (resources/expected.json). One
    ``git grep`` over base's test code (only test code's reads count: git reads those
    modules' blobs, not the tree's) for every candidate's name, running while the change
    stage goes on."""
    names: dict[str, list[str]] = {}
    candidates = [c.old_path for c in changes.files
                  if c.old_path and not c.unsafe_reason and not c.old_path.endswith(".py")
                  and c.status is not FileStatus.ADDED][:_MAX_DATA_FILES]
    for path in candidates:
        name = posixpath.basename(path)
        if len(name) >= 5 and "." in name:  # shorter or dotless: too generic to mean it
            names.setdefault(name, []).append(path)

    def finish(hits: list[str]) -> frozenset[str]:
        sources = [s for s in repo.read_blobs(base, hits).values() if s is not None]
        return frozenset(path for name, paths in names.items()
                         if any(name.encode("utf-8", "surrogateescape") in source
                                and reads(source, name) for source in sources)
                         for path in paths)

    if not names:
        return Search(None, finish)
    # Every evidence role needs "test" in the path (conftest.py, a test directory, a helper
    # named so) or a test file's name: the cheap test first, the classification after.
    test_code = [p for p in tree if p.endswith(".py")
                 and ("test" in p or config.is_test_file(p))
                 and classify_path(p, config) in EVIDENCE_ROLES]
    return Search(repo.start_grep(base, list(names), test_code), finish)


def reads(source: bytes, name: str) -> bool:
    """Whether the module reads a file called ``name``: a string holding the name reaches
    a reading call, in the same expression or through a name bound to it. A module that
    does not parse is taken to read it (fail closed)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    parents: dict[int, ast.AST] = {}
    for parent in ast.walk(tree):
        for child in ast.iter_child_nodes(parent):
            parents[id(child)] = parent
    bound: set[str] = set()
    for const in _names_of(tree, name):
        node: ast.AST = const
        while id(node) in parents and not isinstance(node, ast.stmt):
            node = parents[id(node)]
            if isinstance(node, ast.Call) and _reader(node):
                return True
        if isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            bound |= {n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Return):
            return True  # a helper or fixture that returns the path: its callers read it
    return bool(bound) and any(
        isinstance(call, ast.Call) and _reader(call) and any(
            isinstance(n, ast.Name) and n.id in bound for n in ast.walk(call))
        for call in ast.walk(tree))


def _names_of(tree: ast.AST, name: str) -> Iterator[ast.Constant]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and \
                (node.value == name or node.value.endswith(("/" + name, "\\" + name))):
            yield node


def _reader(call: ast.Call) -> bool:
    func = call.func
    last = func.attr if isinstance(func, ast.Attribute) else (
        func.id if isinstance(func, ast.Name) else "")
    return last in _READERS
