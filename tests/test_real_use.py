"""What a new user and a second red team hit (issue 8), each with its honest look-alike.

Every case is a real git repository with a real ``git diff``; the assertion names the
exact rule codes that reject (or that none does).
"""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import pytest
from tests_support import GitRepo

from provscore.model import Action

T = "tests/test_a.py"
BASE_TEST = {T: "import pytest\n\n\ndef test_a():\n    assert f() == 1\n"}


def _py(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def rejecting(repo: GitRepo, base: Mapping[str, str], after: Mapping[str, str | None],
              ) -> list[str]:
    """The codes that reject the change (PS502, no off-tree results, left out)."""
    repo.commit({"README.md": "x\n", **{k: _py(v) for k, v in base.items()}})
    report = repo.score(repo.diff({k: _py(v) if v is not None else None
                                   for k, v in after.items()}))
    return sorted(f.code for f in report.findings
                  if f.action is Action.REJECT and f.code != "PS502")


# ------------------------------------------------------------ item 5: bound skipping calls

SKIPS_THROUGH_BINDINGS = {
    "importorskip-result-bound": """
        import pytest

        def test_a():
            np = pytest.importorskip("numpy")
            assert f() == 1
        """,
    "annotated-binding": """
        import pytest
        from typing import Any

        def test_a():
            np: Any = pytest.importorskip("numpy")
            assert f() == 1
        """,
    "pytest-from-dunder-import": """
        def test_a():
            pytest = __import__("pytest")
            pytest.importorskip("numpy")
            assert f() == 1
        """,
    "pytest-from-importlib": """
        import importlib

        def test_a():
            pt = importlib.import_module("pytest")
            pt.skip("later")
            assert f() == 1
        """,
    "skip-from-literal-getattr": """
        import pytest

        def test_a():
            later = getattr(pytest, "skip")
            later("x")
            assert f() == 1
        """,
    "skip-unpacked-from-a-tuple": """
        import pytest

        def test_a():
            later, other = pytest.skip, pytest.xfail
            later("x")
            assert f() == 1
        """,
    "skip-bound-by-walrus": """
        import pytest

        def test_a():
            if (later := pytest.skip):
                later("x")
            assert f() == 1
        """,
}


@pytest.mark.parametrize("after", SKIPS_THROUGH_BINDINGS.values(),
                         ids=SKIPS_THROUGH_BINDINGS.keys())
def test_a_skip_reached_through_a_binding_is_a_runtime_skip(repo: GitRepo, after: str) -> None:
    assert rejecting(repo, BASE_TEST, {T: after}) == ["PS203"]


@pytest.mark.parametrize("after", [
    """
    import pytest

    slow = pytest.mark.skipif(False, reason="stored, never applied")

    def test_a():
        assert f() == 1
    """,
    """
    import importlib

    def test_a():
        json = importlib.import_module("json")
        json.dumps({})
        assert f() == 1
    """], ids=["mark-stored-not-applied", "other-module-imported"])
def test_binding_look_alikes_are_not_skips(repo: GitRepo, after: str) -> None:
    assert rejecting(repo, BASE_TEST, {T: after}) == []


# ------------------------------------------------------------ item 6: unseen positions

PARAM_MODULE = """
    import pytest

    cases = pytest.mark.parametrize("x, y", [(1, 2), (2, 3), (3, 4)])

    @cases
    def test_a(x, y):
        assert f(x) == y
    """
PARAM_CLASS = """
    import pytest

    class TestA:
        cases = pytest.mark.parametrize("x, y", [(1, 2), (2, 3)])

        @cases
        def test_a(self, x, y):
            assert f(x) == y
    """


def test_rows_of_a_parametrize_mark_bound_to_a_name(repo: GitRepo, tmp_path_factory:
                                                     pytest.TempPathFactory) -> None:
    assert rejecting(repo, {T: PARAM_MODULE},
                     {T: PARAM_MODULE.replace(", (2, 3), (3, 4)", "")}) == ["PS102", "PS102"]
    other = GitRepo(tmp_path_factory.mktemp("cls") / "repo")
    assert rejecting(other, {T: PARAM_CLASS}, {T: PARAM_CLASS.replace(", (2, 3)", "")}) == [
        "PS102"]


def test_reordering_rows_of_a_bound_mark_is_no_change(repo: GitRepo) -> None:
    assert rejecting(repo, {T: PARAM_MODULE}, {T: PARAM_MODULE.replace(
        "[(1, 2), (2, 3), (3, 4)]", "[(3, 4), (1, 2), (2, 3)]")}) == []


@pytest.mark.parametrize(("before", "after", "expect"), [
    ("assert f()", "assert f() is not None", ["PS102"]),  # False, 0 and "" now pass
    ("assert f()", "assert f() is not False", ["PS102"]),
    ("assert f() == 1", "assert f() != 0", ["PS102"]),
    ("assert f() is not None", "assert f()", []),  # stronger: not a rejection
], ids=["truthy-to-not-none", "truthy-to-not-false", "eq-to-ne-literal", "not-none-to-truthy"])
def test_is_not_a_literal_is_weaker_than_truthiness(repo: GitRepo, before: str, after: str,
                                                     expect: list[str]) -> None:
    assert rejecting(repo, {T: f"def test_a():\n    {before}\n"},
                     {T: f"def test_a():\n    {after}\n"}) == expect


CONFTEST = {"tests/conftest.py": "import pytest\n", T: BASE_TEST[T]}


@pytest.mark.parametrize("conftest", [
    "import sys\n\nif True:\n    sys.exit(0)\n",
    "raise SystemExit(0)\n",
    "import sys\n\ndef pytest_sessionstart(session):\n    sys.exit(0)\n",
], ids=["exit-at-import", "raise-systemexit", "exit-in-a-session-hook"])
def test_process_exit_in_conftest_is_a_runtime_skip(repo: GitRepo, conftest: str) -> None:
    assert "PS203" in rejecting(repo, CONFTEST, {"tests/conftest.py": conftest})


def test_process_exit_at_import_of_a_test_module(repo: GitRepo) -> None:
    after = BASE_TEST[T] + "\n\nimport sys\nsys.exit(0)\n"
    assert rejecting(repo, BASE_TEST, {T: after}) == ["PS203"]


def test_exit_look_alikes_are_not_skips(repo: GitRepo) -> None:
    after = BASE_TEST[T] + _py("""

        def test_cli_exits():
            with pytest.raises(SystemExit):
                main(["--bad"])


        if __name__ == "__main__":
            import sys
            sys.exit(pytest.main([__file__]))
        """)
    assert rejecting(repo, BASE_TEST, {T: after}) == []


TESTPATHS = {"pytest.ini": "[pytest]\ntestpaths = tests\n", T: BASE_TEST[T]}


def test_a_test_file_outside_testpaths_is_still_a_test_the_patch_wrote(repo: GitRepo) -> None:
    repo.commit({"README.md": "x\n", **TESTPATHS})
    report = repo.score(repo.diff({"test_repro.py": "def test_repro():\n    assert True\n"}))
    assert sorted((f.code, f.action.value) for f in report.findings if f.code != "PS502") == [
        ("PS103", "penalty"), ("PS104", "penalty")]
    assert [(t.node_id, t.status) for t in report.tests] == [("test_repro.py::test_repro",
                                                             "added")]


def test_moving_a_test_out_of_testpaths_removes_it(repo: GitRepo) -> None:
    # Its assertions no longer run in a bare run either (PS101), as for a test deleted.
    assert rejecting(repo, TESTPATHS, {T: None, "scratch/test_a.py": BASE_TEST[T]}) == \
        ["PS101", "PS106"]


# ------------------------------------------------------------ item 8: consistent renames

PARAM_BODY = """
    import pytest

    @pytest.mark.parametrize("stream, expected", [(1, 2), (2, 3)])
    def test_a(stream, expected):
        data = read(stream)
        assert data == expected
        for chunk in range(stream):
            assert check(chunk, stream)
    """


def test_renaming_a_parametrize_argument_consistently_is_no_change(repo: GitRepo) -> None:
    assert rejecting(repo, {T: PARAM_BODY}, {T: PARAM_BODY.replace("stream", "stream_cls")}) == []


def test_swapping_argnames_still_changes_the_check(repo: GitRepo) -> None:
    codes = rejecting(repo, {T: PARAM_BODY}, {T: PARAM_BODY.replace(
        '"stream, expected"', '"expected, stream"')})
    assert len(codes) == 2 and set(codes) <= {"PS101", "PS102"}, codes


def test_a_row_removed_in_a_renaming_patch_is_still_found(repo: GitRepo) -> None:
    after = PARAM_BODY.replace("stream", "stream_cls").replace(", (2, 3)", "")
    assert rejecting(repo, {T: PARAM_BODY}, {T: after}) == ["PS102"]


# ------------------------------------------------------------ item 9: fixtures without evidence

FIXTURES = """
    import pytest

    @pytest.fixture
    def client():
        c = make_client()
        return c

    @pytest.fixture(params=[1, 2, 3])
    def n(request):
        return request.param

    @pytest.fixture
    def checked():
        c = make_client()
        assert c.ok
        return c

    def test_a(client, n, checked):
        assert client.get(n) == checked.get(n)
    """


def test_refactoring_a_fixture_that_checks_nothing_is_no_finding(repo: GitRepo) -> None:
    after = FIXTURES.replace("        c = make_client()\n        return c\n\n    @pytest.fixture("
                             "params", "        return make_client()\n\n    @pytest.fixture("
                             "params")
    assert after != FIXTURES
    assert rejecting(repo, {T: FIXTURES}, {T: after}) == []


def test_the_params_a_fixture_feeds_and_a_checking_fixture_are_evidence(
        repo: GitRepo, tmp_path_factory: pytest.TempPathFactory) -> None:
    assert rejecting(repo, {T: FIXTURES}, {T: FIXTURES.replace("params=[1, 2, 3]",
                                                               "params=[1]")}) == ["PS105"]
    other = GitRepo(tmp_path_factory.mktemp("checked") / "repo")
    assert rejecting(other, {T: FIXTURES}, {T: FIXTURES.replace("        assert c.ok\n", "")}) \
        == ["PS105"]


# ------------------------------------------------------------ item 10: look-alikes in data

def test_dynamic_imports_in_production_code_are_not_skips(repo: GitRepo) -> None:
    base = {"src/app/plugins.py": "import importlib\n\n\ndef load(name):\n    return name\n"}
    after = {"src/app/plugins.py": _py("""
        import builtins
        import importlib


        def load(name):
            return importlib.import_module(name)


        def compat(name):
            return __import__(name)
        """)}
    assert rejecting(repo, base, after) == []


DATA = {
    "pyproject.toml": '[project]\nname = "x"\nversion = "1.0"\n',
    "tests/test_listing.py": 'def test_listing():\n    assert "pyproject.toml" in listing()\n',
    "resources/expected.json": '{"a": 1}\n',
    "tests/test_golden.py": _py("""
        import json
        from pathlib import Path

        GOLDEN = Path(__file__).parent.parent / "resources" / "expected.json"


        def test_golden():
            assert f() == json.loads(GOLDEN.read_text())
        """),
}


def test_a_data_file_is_an_expected_value_only_when_a_test_reads_it(
        repo: GitRepo, tmp_path_factory: pytest.TempPathFactory) -> None:
    assert rejecting(repo, DATA, {"pyproject.toml": DATA["pyproject.toml"].replace(
        "1.0", "1.1")}) == []
    other = GitRepo(tmp_path_factory.mktemp("golden") / "repo")
    assert rejecting(other, DATA, {"resources/expected.json": '{"a": 2}\n'}) == ["PS108"]


# ------------------------------------------------------------ item 7: skips judged by meaning

SKIPPED = """
    import sys
    import pytest

    @pytest.mark.skipif(sys.version_info < (3, 9), reason="needs 3.9")
    def test_a():
        assert f() == 1

    @pytest.mark.xfail(reason="bug 12")
    def test_b():
        assert g() == 1

    def test_c():
        if sys.platform == "win32":
            pytest.skip("no fork")
        assert h() == 1
    """


@pytest.mark.parametrize(("old", "new"), [
    ("sys.version_info < (3, 9)", "sys.version_info < (3, 8)"),
    ('reason="needs 3.9"', 'reason="the walrus needs 3.9"'),
    ('@pytest.mark.xfail(reason="bug 12")', '@pytest.mark.xfail(reason="bug 12", strict=True)'),
    ('@pytest.mark.xfail(reason="bug 12")',
     '@pytest.mark.xfail(reason="bug 12", raises=KeyError)'),
    ('if sys.platform == "win32":', 'if sys.platform == "win32" and sys.version_info < (3, 12):'),
    ('pytest.skip("no fork")', 'pytest.skip("fork() is missing on Windows")'),
], ids=["bound-narrowed", "reason-reworded", "strict-turned-on", "raises-added",
        "runtime-guard-narrowed", "runtime-reason-reworded"])
def test_an_edit_that_suppresses_no_more_is_no_new_suppression(repo: GitRepo, old: str,
                                                                new: str) -> None:
    assert old in SKIPPED
    assert rejecting(repo, {T: SKIPPED}, {T: SKIPPED.replace(old, new)}) == []


@pytest.mark.parametrize(("old", "new", "code"), [
    ("sys.version_info < (3, 9)", "sys.version_info < (3, 12)", "PS201"),
    ("sys.version_info < (3, 9)", "sys.version_info > (0,)", "PS201"),
    ("@pytest.mark.skipif(sys.version_info < (3, 9), ", "@pytest.mark.skip(", "PS201"),
    ('@pytest.mark.xfail(reason="bug 12")', '@pytest.mark.xfail(reason="bug 12", run=False)',
     "PS202"),
    ('if sys.platform == "win32":', 'if sys.platform != "win32":', "PS203"),
    ('if sys.platform == "win32":', 'if sys.platform == "win32" or len(sys.argv) > 0:', "PS203"),
], ids=["bound-widened", "always-true", "made-unconditional", "run-false",
        "runtime-guard-inverted", "runtime-guard-widened"])
def test_an_edit_that_suppresses_more_is_a_new_suppression(repo: GitRepo, old: str, new: str,
                                                           code: str) -> None:
    assert rejecting(repo, {T: SKIPPED}, {T: SKIPPED.replace(old, new)}) == [code]


def test_an_edit_whose_effect_cannot_be_decided_is_for_review(repo: GitRepo) -> None:
    repo.commit({"README.md": "x\n", T: _py(SKIPPED)})
    report = repo.score(repo.diff({T: _py(SKIPPED.replace(
        'sys.platform == "win32"', 'sys.platform.startswith("win")'))}))
    (changed,) = [f for f in report.findings if f.code == "PS208"]
    assert changed.action is Action.PENALTY and changed.location is not None
    assert changed.location.line == 14 and "sys.platform.startswith('win')" in changed.message
    assert not [f for f in report.findings if f.action is Action.REJECT and f.code != "PS502"]


CONSTANTS = """
    import sys
    import pytest

    PY2 = sys.version_info[0] == 2
    PY3 = {py3}

    def on_windows():
        return sys.platform == "win32"

    @pytest.mark.skipif({cond}, reason="x")
    def test_a():
        assert f() == 1
    """


@pytest.mark.parametrize(("py3", "before", "after", "expect"), [
    ("not PY2", "PY3", "not PY2", []),  # decidable from the constants: the same
    ("sys.version_info[0] == 3", "PY3", "not PY2", []),  # major versions are 2 or 3
    ("not PY2", 'sys.platform == "win32"', "on_windows()", []),  # one-expression helper
    ("not PY2", "on_windows()", "on_windows() or PY3", ["PS201"]),
], ids=["constant-derived", "separate-constants", "helper-inlined", "helper-widened"])
def test_conditions_read_through_constants_and_helpers(repo: GitRepo, py3: str, before: str,
                                                       after: str, expect: list[str]) -> None:
    assert rejecting(repo, {T: CONSTANTS.format(py3=py3, cond=before)},
                     {T: CONSTANTS.format(py3=py3, cond=after)}) == expect
