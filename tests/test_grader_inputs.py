"""The grader stage's inputs read from base: PS805's literals when the call graph finds no
test reaching the changed function (every base test module importing its module), and
PS808's import names of the dependencies the project declares."""

from __future__ import annotations

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
