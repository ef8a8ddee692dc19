"""One ``ast`` parse per changed post-image: the call graph's summary and the grader scan
share it (provscore.callgraph.trees), and the evidence stage's measured parse
(provscore.evidence.limits.checked_parse) is kept for equal bytes and handed on."""

from __future__ import annotations

import ast
import sys

import pytest

from provscore.callgraph import trees
from provscore.callgraph.summary import summarise
from provscore.evidence import limits
from provscore.grader.scan import FileScan


@pytest.fixture(autouse=True)
def _no_kept_trees() -> None:
    trees.forget_trees()


def test_equal_bytes_give_the_same_tree() -> None:
    first = trees.parse_shared(b"def f(x):\n    return x\n")
    again = trees.parse_shared(bytes(bytearray(b"def f(x):\n    return x\n")))
    other = trees.parse_shared(b"def f(x):\n    return x + 1\n")
    assert again is first
    assert other is not first
    assert ast.dump(other) != ast.dump(first)


def test_the_grader_walks_the_tree_the_summary_parsed() -> None:
    source = b"import sys\ndef main():\n    sys.exit(0)\n"
    summarise(source)
    scan = FileScan("pkg/cli.py", source, None)
    assert scan.tree is trees.parse_shared(source)
    assert [c.lineno for c, _ in scan.events.calls] == [3]


def test_only_the_latest_trees_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trees, "KEEP_TREES", 2)
    sources = [f"x = {i}\n".encode() for i in range(3)]
    kept = [trees.parse_shared(s) for s in sources]
    assert trees.parse_shared(sources[2]) is kept[2]
    assert trees.parse_shared(sources[1]) is kept[1]
    assert trees.parse_shared(sources[0]) is not kept[0]  # evicted: parsed again


def test_a_large_source_is_parsed_and_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(trees, "KEEP_SOURCE_BYTES", 10)
    source = b"value = 'a long enough line'\n"
    assert trees.parse_shared(source) is not trees.parse_shared(source)


def test_a_source_that_does_not_parse_raises_every_time() -> None:
    for _ in range(2):
        with pytest.raises(SyntaxError):
            trees.parse_shared(b"def f(:\n")
    assert summarise(b"def f(:\n").error.startswith("SyntaxError")


def test_the_walk_records_global_and_nonlocal_where_they_are_declared() -> None:
    """The declarations are collected by the one walk (no second walk per function): under
    an ``if``, and in a nested function for its own frame only."""
    source = (b"_n = 0\n"
              b"def f(x):\n"
              b"    if x:\n"
              b"        global _n\n"
              b"        _n += 1\n"
              b"    def g():\n"
              b"        nonlocal x\n"
              b"        x += 1\n"
              b"    return g\n")
    scan = FileScan("pkg/count.py", source, None)
    assert [(a.lineno, f.qualname, sorted(f.declared)) for a, f in scan.events.aug] == [
        (5, "f", ["_n"]), (8, "f.g", ["x"])]


DEEP = b"x = " + b"(" * 1_200 + b"1" + b")" * 1_200 + b"\n"  # refused: nesting


def test_a_measured_source_is_measured_once_and_its_tree_handed_to_the_graph() -> None:
    source = b"import pytest\n\ndef test_a():\n    assert 1 == 1\n"
    refusal, tree = limits.checked_parse(source)
    assert refusal is None and tree is not None
    assert limits.checked_parse(bytes(bytearray(source))) == (None, tree)
    assert limits.checked_parse(bytes(bytearray(source)))[1] is tree
    assert trees.parse_shared(source) is tree  # the summary parses it no second time
    alone = summarise(source)
    trees.forget_trees()
    assert limits.measured_tree(source) is None
    assert summarise(source) == alone  # the same summary from a fresh parse
    first = limits.checked_parse(DEEP)
    assert first[0] is not None and first[0][0].startswith("nesting too deep for Python")
    assert limits.checked_parse(DEEP) == first and limits.measured_tree(DEEP) is None


def test_only_the_latest_measured_sources_are_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "KEEP_MEASURED", 2)
    sources = [f"y = {i}\n".encode() for i in range(3)]
    kept = [limits.checked_parse(s)[1] for s in sources]
    assert limits.measured_tree(sources[0]) is None  # evicted
    assert [limits.measured_tree(s) for s in sources[1:]] == kept[1:]
    monkeypatch.setattr(limits, "KEEP_MEASURED_BYTES", 5)
    assert limits.checked_parse(b"z = 1\n")[1] is not limits.checked_parse(b"z = 1\n")[1]


def test_an_answer_not_given_at_the_standard_limit_is_not_kept() -> None:
    """Called where the recursion limit is below CPython's default, checked_parse cannot
    measure at the default: its answer is used once and never handed to a later call."""
    source = b"w = [1, 2]\n"
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(900)
    try:
        first = limits.checked_parse(source)[1]
        assert limits.measured_tree(source) is None
    finally:
        sys.setrecursionlimit(old)
    assert first is not None and limits.checked_parse(source)[1] is not first
    assert limits.measured_tree(source) is not None
