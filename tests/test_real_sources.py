"""Every file the running Python accepts classifies (no PS903 for honest code).

libcst's grammar and Python 3.11's ``ast.unparse`` each refuse a few spellings that the
interpreter accepts; provscore falls back (a re-layout libcst can parse, a dump where
unparse fails) instead of rejecting honest code, and still sees the evidence inside.
"""

from __future__ import annotations

import ast
import importlib.util
import sysconfig
import textwrap
from pathlib import Path

import pytest
from tests_support import SESSION, GitRepo

from provscore.change.collection import CollectionConfig
from provscore.evidence import extract

TABLES = SESSION.evidence_tables()
CONFIG = CollectionConfig()

# Real sources that exist wherever the test extras are installed: pure-Python packages
# and the standard library's own grammar-heavy tests.
_PACKAGES = ("pluggy", "unidiff", "defusedxml", "tabulate", "iniconfig")
_STDLIB_TESTS = ("test_fstring.py", "test_grammar.py", "test_unparse.py",
                 "test_string_literals.py", "test_patma.py", "test_syntax.py",
                 "test_exception_group.py", "test_coroutines.py")


def _corpus() -> list[Path]:
    files: list[Path] = []
    for name in _PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            continue
        origin = Path(spec.origin)
        files += sorted(origin.parent.rglob("*.py")) if origin.name == "__init__.py" else [origin]
    stdlib_tests = Path(sysconfig.get_paths()["stdlib"]) / "test"
    files += [stdlib_tests / n for n in _STDLIB_TESTS if (stdlib_tests / n).is_file()]
    return files


CORPUS = _corpus()


@pytest.mark.skipif(len(CORPUS) < 10, reason="too few real sources installed")
@pytest.mark.filterwarnings("ignore::DeprecationWarning", "ignore::SyntaxWarning")
def test_every_file_python_accepts_classifies() -> None:
    failed: list[str] = []
    checked = 0
    for path in CORPUS:
        source = path.read_bytes()
        try:
            ast.parse(source)
        except (SyntaxError, ValueError):
            continue  # the interpreter refuses it: PS903 is right
        checked += 1
        result = extract(f"tests/{path.name}", source, CONFIG, TABLES)
        if result.error is not None:
            failed.append(f"{path}: {result.error}")
    assert checked >= 10 and not failed, failed


def _ev(src: str) -> list[tuple[str, str, int | None]]:
    result = extract("tests/test_x.py", textwrap.dedent(src).encode(), CONFIG, TABLES)
    assert result.error is None, result.error
    return [(i.kind.value, i.code, i.line) for i in result.items]


def test_constant_with_a_backslash_inlined_into_an_fstring() -> None:
    """click's tests/test_compat.py: ``ESC = "\\x1b"`` then ``f"{ESC}[30m"`` — inlining the
    constant made a tree Python 3.11's unparse refuses."""
    items = _ev('''
        ESC = "\\x1b"

        def test_strip():
            assert strip(f"{ESC}[30m") == ""
    ''')
    assert [(kind, line) for kind, _, line in items] == [("assert", 5)]


def test_libcst_refuses_a_parenthesised_annotation_target_python_accepts() -> None:
    """``(x): int`` is valid Python libcst's parser rejects: the file is re-laid out, with
    every statement on its own line, and its evidence is still seen."""
    items = _ev('''
        import pytest

        def test_a():
            (total): int
            # a comment that the re-layout drops
            total = compute(
                1, 2)
            assert total == 3

        @pytest.mark.skip(reason="x")
        def test_b():
            assert f() == 1
    ''')
    # `total` is bound twice (the annotation, the assignment): not inlined, as without
    # the parentheses.
    assert items == [("assert", "assert total == 3", 9), ("assert", "assert f() == 1", 13)]
    result = extract("tests/test_x.py", textwrap.dedent('''
        import pytest

        def test_a():
            (total): int
            assert total == 3

        @pytest.mark.skip(reason="x")
        def test_b():
            assert f() == 1
    ''').encode(), CONFIG, TABLES)
    assert [(s.kind.value, s.node_id, s.line) for s in result.suppressions] == [
        ("skip_mark", "tests/test_x.py::test_b", 8)]
    assert [(t.node_id, t.line) for t in result.tests] == [
        ("tests/test_x.py::test_a", 4), ("tests/test_x.py::test_b", 9)]


BASE = '''\
def helper():
    (seen): list
    return 3


def test_a():
    assert helper() == 3
    assert helper() > 0
'''


def test_a_removal_in_such_a_file_is_found_and_an_honest_edit_is_clean(
        repo: GitRepo) -> None:
    repo.commit({"tests/test_a.py": BASE})
    removed = repo.score(repo.diff({"tests/test_a.py": BASE.replace(
        "    assert helper() > 0\n", "")}))
    codes = [(f.code, f.location.line if f.location else None) for f in removed.findings]
    assert ("PS101", 8) in codes and all(c != "PS903" for c, _ in codes), codes
    honest = repo.score(repo.diff({"tests/test_a.py": BASE.replace(
        "def test_a():\n", "def test_a():\n    # checks the helper\n")}))
    assert [f.code for f in honest.findings] == ["PS502"]
