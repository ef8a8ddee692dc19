"""A project configuration file is a runner channel (PS302) only where base's tests make it
apply: a nested project's setup.py / setup.cfg / pyproject.toml (``examples/app/``) that lies
above no test of base configures none of them; a conftest.py, or a config file at the root,
in a test directory or above a nested project's own tests, still does."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from conftest import GitRepo

from provscore.change.collection import CollectionConfig, base_test_dirs
from provscore.change.writeset import classify_path, nested_project_config
from provscore.model import Action, PathRole
from provscore.report.model import Report

TEST = "def test_add():\n    assert 1 + 1 == 2\n"
APP_SETUP = "from setuptools import setup\n\nsetup(name='app', version='1.0')\n"
APP_CFG = "[metadata]\nname = app\n\n[tool:pytest]\naddopts = -q\n"
APP_PYPROJECT = '[project]\nname = "app"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n'

BASE = {
    "src/pkg/__init__.py": "X = 1\n",
    "tests/test_pkg.py": TEST,
    "tests/conftest.py": "import pytest\n",
    "pyproject.toml": ('[project]\nname = "pkg"\n\n'
                       '[tool.pytest.ini_options]\ntestpaths = ["tests"]\n'),
    "examples/app/setup.py": APP_SETUP,
    "examples/app/setup.cfg": APP_CFG,
    "examples/app/pyproject.toml": APP_PYPROJECT,
    "examples/app/app.py": "def main():\n    return 0\n",
}


def rejecting(report: Report) -> set[str]:
    return {f.code for f in report.findings if f.action is Action.REJECT}


def ps302_paths(report: Report) -> list[str]:
    return [f.location.path for f in report.findings
            if f.code == "PS302" and f.location is not None]


def scored(repo: GitRepo, after: Mapping[str, str | bytes | None],
           base: Mapping[str, str | bytes | None] | None = None) -> Report:
    repo.commit(base if base is not None else BASE)
    return repo.score(repo.diff(after))


@pytest.mark.parametrize("after", [
    {"examples/app/setup.py": APP_SETUP.replace("1.0", "1.1")},
    # the nested project's pytest section loosened: it configures the example's own runs
    {"examples/app/setup.cfg": APP_CFG.replace("-q", "-q -p no:warnings --lf")},
    {"examples/app/pyproject.toml": APP_PYPROJECT.replace('"-q"', '"-q -k smoke"')},
    # a new nested project beside it
    {"examples/other/setup.cfg": "[metadata]\nname = other\n",
     "examples/other/tox.ini": "[tox]\nenvlist = py311\n"},
], ids=["setup.py", "setup.cfg-pytest-section", "pyproject-pytest-section", "new-project"])
def test_nested_project_config_is_no_runner_channel(repo: GitRepo,
                                                    after: dict[str, str | bytes | None]) -> None:
    report = scored(repo, after)
    assert ps302_paths(report) == []
    assert rejecting(report) <= {"PS502"}, [f.message for f in report.findings]


@pytest.mark.parametrize(("after", "path"), [
    # the root's own configuration
    ({"pyproject.toml": BASE["pyproject.toml"] + 'addopts = "-k smoke"\n'}, "pyproject.toml"),
    ({"setup.cfg": "[tool:pytest]\naddopts = -q\n"}, "setup.cfg"),
    # a pytest.ini in the test directory: `pytest tests` reads it first
    ({"tests/pytest.ini": "[pytest]\naddopts = -p no:warnings\n"}, "tests/pytest.ini"),
    # a conftest.py applies wherever pytest collects, tests below it or not
    ({"examples/app/conftest.py": "collect_ignore = ['app.py']\n"}, "examples/app/conftest.py"),
], ids=["root-pyproject", "root-setup.cfg", "pytest.ini-in-tests", "nested-conftest"])
def test_config_that_applies_is_still_a_runner_channel(
        repo: GitRepo, after: dict[str, str | bytes | None], path: str) -> None:
    report = scored(repo, after)
    assert ps302_paths(report) == [path]
    assert "PS302" in rejecting(report)


def test_nested_project_with_its_own_tests_keeps_its_config_a_runner_channel(
        repo: GitRepo) -> None:
    """Tests of base below the nested project: its configuration is what a run of them
    there reads."""
    base = {**BASE, "examples/app/tests/test_app.py": TEST}
    report = scored(repo, {"examples/app/setup.cfg": APP_CFG.replace("-q", "-q --lf")}, base)
    assert ps302_paths(report) == ["examples/app/setup.cfg"]


def test_testpaths_entry_makes_a_nested_config_apply(repo: GitRepo) -> None:
    """A ``testpaths`` glob into the nested directory (no test there yet) counts too."""
    base = {**BASE, "pyproject.toml": BASE["pyproject.toml"].replace(
        'testpaths = ["tests"]', 'testpaths = ["tests", "examples/*/checks"]')}
    report = scored(repo, {"examples/app/tox.ini": "[tox]\nenvlist = py311\n"}, base)
    assert ps302_paths(report) == ["examples/app/tox.ini"]


def test_configures_tests_by_location() -> None:
    config = CollectionConfig(testpaths=("./integration/*",),
                              test_dirs=base_test_dirs(
                                  ["tests/unit/test_a.py", "conftest.py", "docs/conf.py",
                                   "examples/app/app.py"], CollectionConfig()))
    assert config.test_dirs == ("", "tests/unit")
    assert [d for d in ("", "tests", "tests/unit", "tests/unit/data", "examples/app",
                        "integration", "integration/x", "integration/x/deep", "docs")
            if config.configures_tests(d)] == ["", "tests", "tests/unit", "integration",
                                               "integration/x"]
    # unknown test locations: every configuration file counts (fail closed)
    assert CollectionConfig().configures_tests("examples/app")


def test_nested_setup_py_is_classified_by_what_it_is() -> None:
    config = CollectionConfig(test_dirs=("tests",))
    assert nested_project_config("examples/app/setup.py", config)
    assert not nested_project_config("setup.py", config)
    assert not nested_project_config("examples/app/conftest.py", config)
    assert classify_path("examples/app/setup.py", config) is PathRole.PRODUCTION
    assert classify_path("examples/app/setup.cfg", config) is PathRole.OTHER
    assert classify_path("examples/app/Makefile", config) is PathRole.RUNNER
    assert classify_path("examples/app/conftest.py", config) is PathRole.CONFTEST
    assert classify_path("tests/setup.cfg", config) is PathRole.RUNNER
    assert classify_path("examples/app/setup.cfg", CollectionConfig()) is PathRole.RUNNER
