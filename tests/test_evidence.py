"""Stage 3: what the libcst visitors see, on real source text."""

from __future__ import annotations

import textwrap

import pytest
from tests_support import SESSION

from provscore.change.collection import CollectionConfig
from provscore.evidence import EvidenceKind, FileEvidence, SuppressionKind, extract

TABLES = SESSION.evidence_tables()


def ev(src: str, path: str = "tests/test_x.py",
       config: CollectionConfig | None = None) -> FileEvidence:
    result = extract(path, textwrap.dedent(src).encode(), config or CollectionConfig(), TABLES)
    assert result.error is None, result.error
    return result


def kinds(e: FileEvidence) -> list[tuple[str, str, int | None]]:
    return [(i.kind.value, i.node_id, i.line) for i in e.items]


def sups(e: FileEvidence) -> list[tuple[str, str]]:
    return [(s.kind.value, s.node_id) for s in e.suppressions]


def test_comments_docstrings_strings_are_never_evidence() -> None:
    e = ev('''
        def test_a():
            """assert x == 1 and pytest.skip()"""
            # assert y == 2; pytest.mark.skip
            s = "self.assertEqual(a, b)"
            t = f"{'assert'}"
    ''')
    assert e.items == () and e.suppressions == ()
    assert [t.node_id for t in e.tests] == ["tests/test_x.py::test_a"]


def test_node_ids_classes_unittest_nested_async() -> None:
    e = ev('''
        import unittest as ut

        class TestOuter:
            class TestInner:
                def test_deep(self):
                    assert 1 == g()

        class Checks(ut.TestCase):
            def test_m(self):
                self.assertEqual(g(), 1)
            def helper(self):
                self.assertTrue(g())

        async def test_async():
            assert await h() == 2

        class TestWithInit:
            def __init__(self):
                pass
            def test_not_collected(self):
                assert g() == 3
    ''')
    ids = {t.node_id for t in e.tests}
    assert ids == {"tests/test_x.py::TestOuter::TestInner::test_deep",
                   "tests/test_x.py::Checks::test_m", "tests/test_x.py::test_async"}
    # self.assertEqual(g(), 1) is the check `g() == 1`: one spelling per check.
    assert ("assert", "tests/test_x.py::Checks::test_m", 11) in kinds(e)
    assert [i.code for i in e.items if i.node_id == "tests/test_x.py::Checks::test_m"] == \
        ["assert g() == 1"]


def test_collection_rules_come_from_config() -> None:
    config = CollectionConfig(python_files=("check_*.py",), python_classes=("Check",),
                              python_functions=("check_",))
    e = ev('''
        def check_a():
            assert f() == 1
        def test_b():
            assert f() == 2
    ''', path="tests/check_x.py", config=config)
    assert [t.node_id for t in e.tests] == ["tests/check_x.py::check_a"]
    assert config.is_test_file("tests/check_x.py") and not config.is_test_file("tests/test_x.py")


@pytest.mark.parametrize("src", [
    "from pytest import mark as m\n@m.skip\ndef test_a():\n    assert 1 == f()\n",
    "import pytest as p\n@p.mark.skip(reason='x')\ndef test_a():\n    assert 1 == f()\n",
    "import pytest\nskip = pytest.mark.skip\n@skip\ndef test_a():\n    assert 1 == f()\n",
    "import pytest\nmark = pytest.mark\n@mark.skip\ndef test_a():\n    assert 1 == f()\n",
    "import pytest\n@getattr(pytest.mark, 'skip')\ndef test_a():\n    assert 1 == f()\n",
    "from pytest import *\n@mark.skip\ndef test_a():\n    assert 1 == f()\n",
    "import unittest\n@unittest.skip('x')\ndef test_a():\n    assert 1 == f()\n",
    "from unittest import skipIf as later\n@later(True, 'x')\ndef test_a():\n"
    "    assert 1 == f()\n",
])
def test_skip_in_any_spelling(src: str) -> None:
    e = ev(src)
    assert ("skip_mark", "tests/test_x.py::test_a") in sups(e), sups(e)


def test_runtime_skips_and_raises() -> None:
    e = ev('''
        import pytest, unittest
        from unittest import SkipTest as ST

        def test_a():
            pytest.importorskip("numpy")
            pytest.xfail("later")

        class TestB(unittest.TestCase):
            def setUp(self):
                raise ST("no")
            def test_b(self):
                self.skipTest("no")
                raise pytest.skip.Exception("no")
    ''')
    got = [(s.kind, s.node_id) for s in e.suppressions]
    assert got.count((SuppressionKind.RUNTIME_SKIP, "tests/test_x.py::test_a")) == 2
    assert (SuppressionKind.RUNTIME_SKIP, "tests/test_x.py::TestB") in got
    assert got.count((SuppressionKind.RUNTIME_SKIP, "tests/test_x.py::TestB::test_b")) == 2


def test_parametrize_rows_and_properties() -> None:
    e = ev('''
        import pytest
        from hypothesis import given, strategies as st

        @pytest.mark.parametrize("a, b", [(1, 2), pytest.param(3, 4, id="x"), (5, 6)])
        def test_rows(a, b):
            assert f(a) == b

        @given(st.integers())
        def test_prop(x):
            assert g(x) >= 0
    ''')
    rows = [(i.code, i.shown) for i in e.items if i.kind is EvidenceKind.PARAM_ROW]
    assert [shown for _, shown in rows] == ["(1, 2)", "pytest.param(3, 4, id='x')", "(5, 6)"]
    # The argnames are part of each row's anchor: swapping them changes every row.
    assert all(code.startswith("[a,b] ") for code, _ in rows)
    assert [i.node_id for i in e.items if i.kind is EvidenceKind.PROPERTY] == \
        ["tests/test_x.py::test_prop"]


def test_helper_oracles_are_transitive_and_called_helpers_are_evidence() -> None:
    e = ev('''
        import pytest

        def _inner(x):
            assert x.ok

        def check(x):
            _inner(x)

        def plain(x):
            return x + 1

        @pytest.fixture
        def validated():
            assert load() == 1
            return load()

        def test_a():
            check(make())
            plain(1)
    ''')
    assert {h.qualname for h in e.helpers} == {"_inner", "check", "validated"}
    assert [h.is_fixture for h in e.helpers if h.qualname == "validated"] == [True]
    calls = [(i.kind.value, i.code) for i in e.items if i.node_id.endswith("::test_a")]
    assert calls == [("helper_call", "check(make())")]


def test_library_and_mock_assertions() -> None:
    e = ev('''
        import numpy.testing as npt
        from pandas.testing import assert_frame_equal
        from unittest import mock

        def test_a():
            npt.assert_allclose(a(), 1.0, rtol=1e-7)
            assert_frame_equal(df(), expected())
            m = mock.Mock()
            m.assert_called_once_with(1)
    ''')
    assert [i.kind for i in e.items] == [EvidenceKind.LIBRARY, EvidenceKind.LIBRARY,
                                         EvidenceKind.MOCK]
    assert e.items[0].shape.keywords == (("rtol", "1e-07"),)


def test_neutralisers() -> None:
    e = ev('''
        import contextlib

        def test_ret():
            if cond():
                return
            assert f() == 1

        def test_dead():
            if 0:
                assert f() == 1
            while False:
                assert f() == 2

        def test_try():
            try:
                assert f() == 1
            except (ValueError, AssertionError):
                pass

        def test_with():
            with contextlib.suppress(BaseException):
                check_it()

        class TestO:
            def setup_method(self):
                self.assertEqual = lambda *a: None
    ''')
    got = set(sups(e))
    assert ("early_return", "tests/test_x.py::test_ret") in got
    assert ("dead_branch", "tests/test_x.py::test_dead") in got
    assert ("swallowed", "tests/test_x.py::test_try") in got
    assert ("swallowed", "tests/test_x.py::test_with") in got
    assert ("assert_override", "tests/test_x.py::TestO") in got


def test_positions_are_exact_for_multiline_and_decorated() -> None:
    e = ev('''
        import pytest


        @pytest.mark.parametrize("a", [
            1,
            2,
        ])
        def test_a(a):
            # leading comment
            assert (
                f(a)
                == a
            )
    ''')
    assert [(i.kind.value, i.line) for i in e.items] == \
        [("parametrize_row", 6), ("parametrize_row", 7), ("assert", 11)]
    assert e.tests[0].line == 9


def test_syntax_error_fails_closed() -> None:
    result = extract("tests/test_x.py", b"def test_a(:\n    pass\n", CollectionConfig(), TABLES)
    assert result.error is not None and "syntax error" in result.error
    assert result.items == ()


def test_deeply_nested_source_classifies_or_fails_closed() -> None:
    depth = 600
    src = "def test_deep():\n    x = " + "(" * depth + "1" + ")" * depth + "\n" \
        "    assert x == 1\n"
    result = extract("tests/test_deep.py", src.encode(), CollectionConfig(), TABLES)
    if result.error is None:
        assert [i.code for i in result.items] == ["assert x == 1"]
    else:
        assert "deep" in result.error or "syntax" in result.error


def test_latin1_source_with_coding_declaration() -> None:
    src = "# -*- coding: latin-1 -*-\ndef test_a():\n    assert f() == 'caf\xe9'\n"
    result = extract("tests/test_l.py", src.encode("latin-1"), CollectionConfig(), TABLES)
    assert result.error is None
    assert [i.code for i in result.items] == ["assert f() == 'café'"]


def test_every_suppression_kind_maps_to_a_rule() -> None:
    from provscore.checks.suppression import suppression_rules

    kinds = suppression_rules(SESSION.registry)
    assert set(kinds) == set(SuppressionKind)
    assert all(code in SESSION.registry.rules for code in kinds.values())


def test_anchors_inline_locals_and_canonicalise() -> None:
    e = ev('''
        EXPECTED = 4

        def test_a():
            value = f(1)
            assert value == 2
            assert 3 == value
            assert value == EXPECTED and g()
    ''')
    assert [(i.code, i.shown) for i in e.items] == [
        ("assert f(1) == 2", "assert value == 2"),
        ("assert f(1) == 3", "assert 3 == value"),
        ("assert f(1) == 4", "assert value == EXPECTED"),
        ("assert g()", "assert g()"),
    ]
