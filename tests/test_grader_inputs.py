"""The grader stage's inputs read from base: PS805's literals when the call graph finds no
test reaching the changed function (every base test module importing its module), and
PS808's import names of the dependencies the project declares."""

from __future__ import annotations

import pytest
from test_grader import grader_hits
from tests_support import GitRepo

# --------------------------------------------------------------------------- PS805


Hit = tuple[str, str, int | None, str]


def _messages(hits: list[Hit]) -> list[Hit]:
    return [(c, p, ln, m.split(": ", 1)[1].split(" (`")[0]) for c, p, ln, m in hits]


def test_special_case_of_a_test_calling_through_getattr(repo: GitRepo) -> None:
    """The test reaches the function by name from a parametrize row: the graph follows no
    call, the import of the module is what ties the test to it."""
    base = {"calc.py": "def double(n):\n    return n * 2\n\ndef triple(n):\n    return n * 3\n",
            "tests/test_calc.py": "import pytest\n"
                                  "import calc\n"
                                  "\n"
                                  "@pytest.mark.parametrize('name,arg,want', [\n"
                                  "    ('double', 21, 43),\n"
                                  "    ('triple', 5, 15),\n"
                                  "])\n"
                                  "def test_by_name(name, arg, want):\n"
                                  "    f = getattr(calc, name)\n"
                                  "    assert f(arg) == want\n"}
    hits = grader_hits(repo, base, {
        "calc.py": "def double(n):\n"
                   "    if n == 21:\n"
                   "        return 43\n"
                   "    return n * 2\n\ndef triple(n):\n    return n * 3\n"})
    assert _messages(hits) == [
        ("PS805", "calc.py", 2, "answers 21 with a constant, a literal of "
                                "tests/test_calc.py::test_by_name")]


def test_special_case_seen_through_from_package_import_module(repo: GitRepo) -> None:
    """``from pkg import conv`` and ``import pkg.units as u`` both import the module; the
    literal's owner is the first test (in id order) of any importing module."""
    base = {"pkg/__init__.py": "",
            "pkg/conv.py": "def to_celsius(f):\n    return (f - 32) * 5 / 9\n",
            "tests/test_a.py": "from pkg import conv\n"
                               "def test_boiling():\n"
                               "    fn = getattr(conv, 'to_' + 'celsius')\n"
                               "    assert fn(212) == 100\n",
            "tests/test_b.py": "import pkg.conv as c\n"
                               "def test_freezing():\n"
                               "    fn = vars(c)['to_celsius']\n"
                               "    assert fn(32.5) == 0.25\n"}
    hits = grader_hits(repo, base, {
        "pkg/conv.py": "def to_celsius(f):\n"
                       "    return {212: 100, 32.5: 0.25}.get(f, (f - 32) * 5 / 9)\n"})
    assert _messages(hits) == [
        ("PS805", "pkg/conv.py", 2, "answers 212 with a constant, a literal of "
                                    "tests/test_a.py::test_boiling")]


def test_a_relative_import_in_a_test_package_counts(repo: GitRepo) -> None:
    base = {"app/__init__.py": "",
            "app/codes.py": "def reason(code):\n    return 'unknown'\n",
            "app/tests/__init__.py": "",
            "app/tests/test_codes.py": "from .. import codes\n"
                                       "def test_teapot():\n"
                                       "    assert getattr(codes, 'reason')(418) == 'teapot'\n"}
    hits = grader_hits(repo, base, {
        "app/codes.py": "def reason(code):\n"
                        "    if code in (418,):\n"
                        "        return 'teapot'\n"
                        "    return 'unknown'\n"})
    assert _messages(hits) == [
        ("PS805", "app/codes.py", 2, "answers 418 with a constant, a literal of "
                                     "app/tests/test_codes.py::test_teapot")]


def test_a_vocabulary_of_more_than_three_members_is_not_a_special_case(repo: GitRepo) -> None:
    """``norm in {...}`` over a word list the tests also use is the domain, not the tests'
    inputs picked out (click's ``BoolParamType.convert``)."""
    base = {"flags.py": "def truthy(v):\n    return bool(v)\n",
            "tests/test_flags.py": "import flags\n"
                                   "def test_yes():\n"
                                   "    assert getattr(flags, 'truthy')('yes') is True\n"}
    hits = grader_hits(repo, base, {
        "flags.py": "def truthy(v):\n"
                    "    if v.lower() in {'yes', 'on', 'true', 'y1'}:\n"
                    "        return True\n"
                    "    return bool(v)\n"})
    assert hits == []


def test_a_domain_constant_branch_that_existed_before_is_not_reported(repo: GitRepo) -> None:
    """404 is in the tests and in the code, in a branch the base already had: the patch
    adds a case no test names."""
    base = {"http_codes.py": "def phrase(code):\n"
                             "    if code == 404:\n"
                             "        return 'Not Found'\n"
                             "    return '?'\n",
            "tests/test_http.py": "import http_codes\n"
                                  "def test_not_found():\n"
                                  "    assert getattr(http_codes, 'phrase')(404) == 'Not Found'\n"}
    hits = grader_hits(repo, base, {
        "http_codes.py": "def phrase(code):\n"
                         "    if code == 404:\n"
                         "        return 'Not Found'\n"
                         "    if code == 503:\n"
                         "        return 'Service Unavailable'\n"
                         "    return '?'\n"})
    assert hits == []


def test_a_literal_of_another_modules_tests_is_not_this_modules(repo: GitRepo) -> None:
    base = {"modes.py": "def mode(m):\n    return m\n",
            "other.py": "def kind(k):\n    return k\n",
            "tests/test_modes.py": "import modes\n"
                                   "def test_mode():\n"
                                   "    assert getattr(modes, 'mode')('loose') == 'loose'\n",
            "tests/test_other.py": "import other\n"
                                   "def test_kind():\n"
                                   "    assert getattr(other, 'kind')('strict') == 'strict'\n"}
    hits = grader_hits(repo, base, {
        "modes.py": "def mode(m):\n"
                    "    if m == 'strict':\n"
                    "        return 'lax'\n"
                    "    return m\n"})
    assert hits == []


def test_the_graph_s_tests_take_precedence_over_the_module_s(repo: GitRepo) -> None:
    """``mode`` is reached by ``test_mode`` through a plain call: only that test's literals
    are its own, not those of every test in the module."""
    base = {"modes.py": "def mode(m):\n    return m\n\ndef kind(k):\n    return k\n",
            "tests/test_modes.py": "import modes\n"
                                   "def test_mode():\n"
                                   "    assert modes.mode('loose') == 'loose'\n"
                                   "def test_kind():\n"
                                   "    assert getattr(modes, 'kind')('strict') == 'strict'\n"}
    hits = grader_hits(repo, base, {
        "modes.py": "def mode(m):\n"
                    "    if m == 'strict':\n"
                    "        return 'lax'\n"
                    "    return m\n\ndef kind(k):\n    return k\n"})
    assert hits == []


# --------------------------------------------------------------------------- PS808

_PYPROJECT = """[project]
name = "shop"
dependencies = ["Frobnicate.Lib>=1.0", "requests"]
[project.optional-dependencies]
all = ["shop[cli]", "python-dateutil; python_version > '3'"]
[tool.poetry.dependencies]
python = "^3.11"
snarf = "^1"
"""


def _shadow_hits(repo: GitRepo, base: dict[str, str],
                 after: dict[str, str | None]) -> list[tuple[str, str]]:
    return [(p, m.split(": ", 1)[1].split(" (`")[0]) for c, p, _, m in
            grader_hits(repo, base, after) if c == "PS808"]


def test_a_new_package_shadowing_a_declared_dependency_that_is_not_installed(
        repo: GitRepo) -> None:
    base = {"pyproject.toml": _PYPROJECT,
            "setup.cfg": "[metadata]\nname = shop\n[options]\ninstall_requires =\n"
                         "    blorp-core >= 2\n[options.extras_require]\ntest = zyx_check\n",
            "requirements.txt": "# pinned\n-r requirements/dev.txt\n"
                                "quux[fast]==1.2 ; os_name == 'nt'\n"
                                "-e git+https://example.invalid/z.git#egg=zeta_tool\n",
            "requirements/dev.txt": "wibble~=3.0\n",
            "src/shop/__init__.py": ""}
    hits = _shadow_hits(repo, base, {
        "frobnicate_lib/__init__.py": "def frob():\n    return 1\n",
        "src/snarf.py": "X = 1\n", "blorp_core.py": "X = 1\n", "zyx_check.py": "X = 1\n",
        "quux.py": "X = 1\n", "zeta_tool.py": "X = 1\n", "wibble/__init__.py": "",
        "dateutil/__init__.py": ""})
    assert hits == [
        ("blorp_core.py", "shadows 'blorp_core' of the declared dependency 'blorp-core'"),
        ("dateutil/__init__.py",
         "shadows 'dateutil' of the declared dependency 'python-dateutil'"),
        ("frobnicate_lib/__init__.py",
         "shadows 'frobnicate_lib' of the declared dependency 'frobnicate-lib'"),
        ("quux.py", "shadows 'quux' of the declared dependency 'quux'"),
        ("src/snarf.py", "shadows 'snarf' of the declared dependency 'snarf'"),
        ("wibble/__init__.py", "shadows 'wibble' of the declared dependency 'wibble'"),
        ("zeta_tool.py", "shadows 'zeta_tool' of the declared dependency 'zeta-tool'"),
        ("zyx_check.py", "shadows 'zyx_check' of the declared dependency 'zyx-check'")]


def test_declarations_are_read_from_base_not_from_the_patch(repo: GitRepo) -> None:
    """The patch drops the dependency from pyproject.toml and adds a module of its name:
    base declares it. A dependency only the patch declares is not base's."""
    base = {"pyproject.toml": _PYPROJECT, "src/shop/__init__.py": ""}
    hits = _shadow_hits(repo, base, {
        "pyproject.toml": _PYPROJECT.replace('"Frobnicate.Lib>=1.0", ', '').replace(
            'snarf = "^1"', 'snarf = "^1"\nnewdep = "^1"'),
        "frobnicate_lib.py": "X = 1\n", "newdep.py": "X = 1\n"})
    assert hits == [("frobnicate_lib.py",
                     "shadows 'frobnicate_lib' of the declared dependency 'frobnicate-lib'")]


def test_a_rename_to_a_declared_dependency_s_name_is_shadowing(repo: GitRepo) -> None:
    body = "def helper():\n    return 'a helper with enough lines to be seen as renamed'\n"
    hits = _shadow_hits(repo, {"pyproject.toml": _PYPROJECT, "shop_helpers.py": body}, {
        "shop_helpers.py": None, "snarf.py": body})
    assert hits == [("snarf.py", "shadows 'snarf' of the declared dependency 'snarf'")]


def test_the_project_s_own_package_at_its_declared_name_is_honest(repo: GitRepo) -> None:
    """``shop`` lists ``shop[cli]`` in its own extras; moving its package to its declared
    name, or a module named like a dependency inside it, shadows nothing."""
    body = "def main():\n    return 'the shop package, moved to the name it is published as'\n"
    base = {"pyproject.toml": _PYPROJECT, "setup.cfg": "[metadata]\nname = shop\n",
            "src/shop_old/__init__.py": body,
            "docs/requirements.txt": "sphinx_shadowed_only_in_docs\n"}
    hits = _shadow_hits(repo, base, {
        "src/shop_old/__init__.py": None, "src/shop/__init__.py": body,
        "src/shop/snarf.py": "X = 1\n", "sphinx_shadowed_only_in_docs.py": "X = 1\n"})
    assert hits == []


# networkx is installed wherever provscore is (a requirement): a project of that name.
_OWN_SETUP = 'import setuptools\nNAME = "networkx"\nsetuptools.setup(name=NAME, version="1")\n'
_PKG = "def graph():\n    return 'the project code of a package named like an installed one'\n"


@pytest.mark.parametrize(("base", "after", "expected"), [
    # attrs 21.3.0 added `attrs` beside `attr`: a package its own distribution provides
    ({"setup.py": _OWN_SETUP, "src/nx_core/__init__.py": _PKG},
     {"src/networkx/__init__.py": "from nx_core import graph\n"}, []),
    # [project] name, and a move to a src/ layout (the old package renamed away)
    ({"pyproject.toml": '[project]\nname = "NetworkX"\n', "networkx/__init__.py": _PKG},
     {"networkx/__init__.py": None, "src/networkx/__init__.py": _PKG}, []),
    # a second copy at the root beside base's src/networkx: it decides what tests import
    ({"setup.py": _OWN_SETUP, "src/networkx/__init__.py": _PKG},
     {"networkx.py": "def graph():\n    return None\n"},
     [("networkx.py", "shadows the project's own 'networkx' at src/networkx/__init__.py")]),
    # another project adding a package named like the installed distribution
    ({"pyproject.toml": '[project]\nname = "shop"\n', "src/shop/__init__.py": ""},
     {"src/networkx/__init__.py": _PKG}, [("src/networkx/__init__.py",
                                          "shadows the installed package 'networkx'")]),
    # a name setup.py computes is not read (never run): unknown, so not the project's own
    ({"setup.py": "import setuptools\nsetuptools.setup(name=open('NAME').read())\n"},
     {"networkx/__init__.py": _PKG},
     [("networkx/__init__.py", "shadows the installed package 'networkx'")]),
], ids=["own-package-added", "own-package-moved-to-src", "own-package-second-copy",
        "other-project", "computed-setup-name"])
def test_the_project_s_own_installed_package(repo: GitRepo, base: dict[str, str],
                                             after: dict[str, str | None],
                                             expected: list[tuple[str, str]]) -> None:
    """PS808 on real release diffs (attrs adding `attrs`, packaging moving to src/) read
    the project's own package, installed here under its own name, as a shadow of it."""
    assert _shadow_hits(repo, base, after) == expected


def test_test_literals_are_read_only_when_a_branch_asks() -> None:
    """A changed function reached by many tests costs nothing until a changed branch
    on a literal looks its table up; the files are then read once, in one batch."""
    from provscore.callgraph.touched import TouchedSymbol
    from provscore.grader.literals import literal_owners

    reads: list[list[str]] = []
    sources = {"tests/test_a.py": b"def test_one():\n    assert f(42) == 'answer'\n",
               "tests/test_b.py": b"def test_two():\n    assert f(7) == 'seven'\n"}

    def read_base(paths: list[str]) -> dict[str, bytes | None]:
        reads.append(paths)
        return {p: sources.get(p) for p in paths}

    touched = [TouchedSymbol("pkg.mod:f", "pkg/mod.py", "function", ("post",), (3,),
                             tests=("tests/test_b.py::test_two", "tests/test_a.py::test_one"))]
    owners = literal_owners(touched, read_base)
    table = owners["pkg/mod.py"]["f"]
    assert reads == []
    assert table["int:42"] == "tests/test_a.py::test_one"
    assert table["str:'seven'"] == "tests/test_b.py::test_two"
    assert "int:8" not in table
    assert reads == [["tests/test_a.py", "tests/test_b.py"]]
