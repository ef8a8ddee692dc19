"""Python files a runner channel runs, and what their edits do to the selection of tests.

``setup.py test`` running ``simplejson/tests/__init__.py`` (whose ``all_tests_suite()``
lists ``test_*.py``), a Makefile's ``python tests/run_suite.py``, tox's ``python -m
pkg.tests``: such a module decides which tests run, like ``runtests.py``. It is a runner
channel (PS302) when a channel at base names it, and an edit to the filters that select
test modules in it is compared by its conditions (PS205):

- a comprehension over names (``[... for f in os.listdir(d) if COND]``) whose condition
  gains a conjunct selects fewer (the same ``for`` clause, matched by its target and
  iterable);
- a loop whose ``if COND: continue`` gains a disjunct skips more.

A conjunct or disjunct is compared as Python (``ast.dump``): spelling and layout do not
matter. Other edits of such a module are judged as code (PS302).
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Iterator, Mapping

from provscore.change.options import ConfigChange
from provscore.change.runners import command_lines
from provscore.change.writeset import in_test_dir

# A path to a Python file in a channel's text (at least one directory: a bare name is
# too often something else), and `python -m module`.
_PY_PATH = re.compile(r"(?<![\w/.-])((?:\.?/)?(?:[\w.-]+/)+[\w.-]+\.py)(?![\w/])")
_RUN_MODULE = re.compile(r"-m\s+([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+)")
# Files whose text names what the tests run (setup.py's test command), read at base.
NAMING_FILES = ("setup.py",)


def run_files(files: Mapping[str, bytes | None]) -> tuple[str, ...]:
    """Candidate paths of the test-support Python files the channels run: named on a
    command line that runs Python, or in setup.py (its test command's code), below a test
    directory (setup.py naming ``pkg/__init__.py`` to read a version runs no tests)."""
    texts = [line for line in command_lines(files) if "python" in line]
    texts += [data.decode("utf-8", "replace") for p in NAMING_FILES
              if (data := files.get(p)) is not None]
    out: list[str] = []
    for text in texts:
        for path in _PY_PATH.findall(text):
            out.append(posixpath.normpath(path.replace("{toxinidir}/", "")))
        for module in _RUN_MODULE.findall(text):
            rel = module.replace(".", "/")
            out += [f"{rel}.py", f"{rel}/__init__.py", f"{rel}/__main__.py"]
    return tuple(dict.fromkeys(p for p in out if not p.startswith("..") and in_test_dir(p)))


def _parts(node: ast.expr, op: type[ast.boolop]) -> dict[str, str]:
    """The operands of ``op`` (flattened), by structure, with their text."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, op):
        return {k: v for value in node.values for k, v in _parts(value, op).items()}
    return {ast.dump(node): ast.unparse(node)}


def _selections(tree: ast.AST) -> Iterator[tuple[str, str, dict[str, str]]]:
    """(kind, identity, parts): each comprehension clause's conjuncts, each loop's
    ``if ...: continue`` disjuncts."""
    for node in ast.walk(tree):
        if isinstance(node, ast.comprehension):
            ident = ast.dump(node.target) + ast.dump(node.iter)
            yield "keeps", ident, {k: v for cond in node.ifs
                                   for k, v in _parts(cond, ast.And).items()}
        elif isinstance(node, ast.For | ast.AsyncFor):
            ident = ast.dump(node.target) + ast.dump(node.iter)
            for stmt in node.body:
                if isinstance(stmt, ast.If) and len(stmt.body) == 1 and \
                        isinstance(stmt.body[0], ast.Continue) and not stmt.orelse:
                    yield "skips", ident, _parts(stmt.test, ast.Or)


def _parse(data: bytes | None) -> ast.AST | None:
    if data is None:
        return None
    try:
        return ast.parse(data.decode("utf-8", "replace"))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def selection_changes(path: str, pre: bytes | None, post: bytes | None) -> list[ConfigChange]:
    """The filters of a suite-building module that now select fewer test modules."""
    before, after = _parse(pre), _parse(post)
    if before is None or after is None:
        return []  # a module that does not parse is judged as code (PS302)
    old: dict[tuple[str, str], list[dict[str, str]]] = {}
    for kind, ident, parts in _selections(before):
        old.setdefault((kind, ident), []).append(parts)
    out: list[ConfigChange] = []
    for kind, ident, parts in _selections(after):
        candidates = old.get((kind, ident))
        if not candidates:
            continue
        was = candidates.pop(0)
        added = [text for dump, text in parts.items() if dump not in was]
        if added and all(dump in parts for dump in was):
            what = " and ".join(added)
            out.append(ConfigChange(path, "suite", (
                f"{path} now keeps only test modules where {what}: runs fewer tests"
                if kind == "keeps" else
                f"{path} now also skips test modules where {what}: runs fewer tests")))
    return out
