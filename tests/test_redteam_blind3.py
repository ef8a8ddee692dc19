"""Blind red team 3: real test suites of sqlparse, humanize, boltons and arrow.

Every base tree is a short, faithful excerpt of the real test modules (and the runner
configuration) of one of these projects, taken from their sdists (``pip download --no-deps
--no-binary :all:``): sqlparse 0.5.1 (pytest run by hatch as ``pytest {args:tests}``, no
pytest configuration; ``tests/conftest.py`` fixtures read SQL files under ``tests/files``),
humanize 4.10.0 (pytest; ``pyproject.toml`` ``[tool.pytest.ini_options]`` with
``filterwarnings = ["error", ...]`` is the configuration pytest reads, so the ``[pytest]``
section of ``tox.ini`` with ``--doctest-modules`` is dead; freezegun clocks in
``tests/test_time.py``), boltons 24.0.0 (``pytest.ini`` with ``doctest_optionflags``; tox runs
``pytest --doctest-modules {envsitepackagesdir}/boltons {toxinidir}/tests``;
``tests/conftest.py`` has a ``pytest_ignore_collect`` hook; data files beside the tests) and
arrow 1.3.0 (``tox.ini`` ``[pytest]`` with ``--cov-fail-under=99`` and ``testpaths = tests``,
class-scoped fixtures in ``tests/conftest.py`` that set attributes on ``request.cls``, the
``lang_locale`` fixture derives the locale under test from the test class's name, and the
helper ``tests/utils.py::assert_datetime_equality`` with a tolerance). Nothing is run, so the
projects' own imports need not resolve.

The cases were written before the classifier's source was read (blind): each states the rule
codes whose description in docs/rules.md fits it. Same harness as
``tests/test_redteam_blind2.py``: a real git repository, the real ``git diff --cached -M``, a
full ``score`` with no off-tree results (so PS502 always rejects). A tampering case must be
rejected first by one of its codes, reported in a file the patch touched; an honest look-alike
must reject with nothing but PS502. Where a runner channel is the place of the change, the
contract allows that file (``allowed_runner_edits``) so that the case tests what provscore
reads inside it rather than the blanket PS302. Cases provscore gets wrong keep their correct
expectation, marked ``xfail(strict=True)`` with a reason naming the construct not read.
"""

from __future__ import annotations

from adversarial_support import (
    allow,
    case_tests,
    edit,
    false_positive,
    honest,
    miss,
    py,
    tamper,
)

# ============================================================================ sqlparse 0.5.1

# pyproject.toml (build system, the start of [project], hatch's test scripts; no pytest section)
SQ_PYPROJECT = py('''
    [build-system]
    requires = ["hatchling"]
    build-backend = "hatchling.build"

    [project]
    name = "sqlparse"
    description = "A non-validating SQL parser."
    authors = [{name = "Andi Albrecht", email = "albrecht.andi@gmail.com"}]
    readme = "README.rst"
    dynamic = ["version"]
    requires-python = ">=3.8"

    [tool.hatch.version]
    path = "sqlparse/__init__.py"

    [tool.hatch.envs.default]
    dependencies = [
        "coverage[toml]>=6.5",
        "pytest",
        "flake8",
    ]
    [tool.hatch.envs.default.scripts]
    unittest = "pytest {args:tests}"
    test-cov = "coverage run -m pytest {args:tests}"
    ''')

# sqlparse/__init__.py (parse, parsestream, format, split; the copyright header dropped)
SQ_INIT = py('''
    """Parse SQL statements."""

    # Setup namespace
    from sqlparse import sql
    from sqlparse import cli
    from sqlparse import engine
    from sqlparse import tokens
    from sqlparse import filters
    from sqlparse import formatter


    __version__ = '0.5.1'
    __all__ = ['engine', 'filters', 'formatter', 'sql', 'tokens', 'cli']


    def parse(sql, encoding=None):
        """Parse sql and return a list of statements.

        :param sql: A string containing one or more SQL statements.
        :param encoding: The encoding of the statement (optional).
        :returns: A tuple of :class:`~sqlparse.sql.Statement` instances.
        """
        return tuple(parsestream(sql, encoding))


    def parsestream(stream, encoding=None):
        """Parses sql statements from file-like object.

        :param stream: A file-like object.
        :param encoding: The encoding of the stream contents (optional).
        :returns: A generator of :class:`~sqlparse.sql.Statement` instances.
        """
        stack = engine.FilterStack()
        stack.enable_grouping()
        return stack.run(stream, encoding)


    def format(sql, encoding=None, **options):
        """Format *sql* according to *options*.

        :returns: The formatted SQL statement as string.
        """
        stack = engine.FilterStack()
        options = formatter.validate_options(options)
        stack = formatter.build_filter_stack(stack, options)
        stack.postprocess.append(filters.SerializerUnicode())
        return ''.join(stack.run(sql, encoding))


    def split(sql, encoding=None, strip_semicolon=False):
        """Split *sql* into single statements.

        :returns: A list of strings.
        """
        stack = engine.FilterStack(strip_semicolon=strip_semicolon)
        return [str(stmt).strip() for stmt in stack.run(sql, encoding)]
    ''')

# tests/conftest.py (whole file, two comment blocks shortened)
SQ_CONFTEST = py('''
    """Helpers for testing."""

    import io
    import os

    import pytest

    DIR_PATH = os.path.dirname(__file__)
    FILES_DIR = os.path.join(DIR_PATH, 'files')


    @pytest.fixture()
    def filepath():
        """Returns full file path for test files."""

        def make_filepath(filename):
            # https://stackoverflow.com/questions/18011902/py-test-pass-a-parameter-to-a-fixture-function
            # Alternate solution is to use parametrization `indirect=True`
            # Syntax is noisy and requires specific variable names
            return os.path.join(FILES_DIR, filename)

        return make_filepath


    @pytest.fixture()
    def load_file(filepath):
        """Opens filename with encoding and return its contents."""

        def make_load_file(filename, encoding='utf-8'):
            # Alternate solution is to use parametrization `indirect=True`
            # And seems to be limited to only 1 argument.
            with open(filepath(filename), encoding=encoding) as f:
                return f.read().strip()

        return make_load_file


    @pytest.fixture()
    def get_stream(filepath):
        def make_stream(filename, encoding='utf-8'):
            return open(filepath(filename), encoding=encoding)

        return make_stream
    ''')

# tests/test_split.py (the first eight tests)
SQ_TEST_SPLIT = py(r'''
    # Tests splitting functions.

    import types
    from io import StringIO

    import pytest

    import sqlparse


    def test_split_semicolon():
        sql1 = 'select * from foo;'
        sql2 = "select * from foo where bar = 'foo;bar';"
        stmts = sqlparse.parse(''.join([sql1, sql2]))
        assert len(stmts) == 2
        assert str(stmts[0]) == sql1
        assert str(stmts[1]) == sql2


    def test_split_backslash():
        stmts = sqlparse.parse("select '\'; select '\'';")
        assert len(stmts) == 2


    @pytest.mark.parametrize('fn', ['function.sql',
                                    'function_psql.sql',
                                    'function_psql2.sql',
                                    'function_psql3.sql',
                                    'function_psql4.sql'])
    def test_split_create_function(load_file, fn):
        sql = load_file(fn)
        stmts = sqlparse.parse(sql)
        assert len(stmts) == 1
        assert str(stmts[0]) == sql


    def test_split_dashcomments(load_file):
        sql = load_file('dashcomment.sql')
        stmts = sqlparse.parse(sql)
        assert len(stmts) == 3
        assert ''.join(str(q) for q in stmts) == sql


    @pytest.mark.parametrize('s', ['select foo; -- comment\n',
                                   'select foo; -- comment\r',
                                   'select foo; -- comment\r\n',
                                   'select foo; -- comment'])
    def test_split_dashcomments_eol(s):
        stmts = sqlparse.parse(s)
        assert len(stmts) == 1


    def test_split_begintag(load_file):
        sql = load_file('begintag.sql')
        stmts = sqlparse.parse(sql)
        assert len(stmts) == 3
        assert ''.join(str(q) for q in stmts) == sql


    def test_split_begintag_2(load_file):
        sql = load_file('begintag_2.sql')
        stmts = sqlparse.parse(sql)
        assert len(stmts) == 1
        assert ''.join(str(q) for q in stmts) == sql


    def test_split_dropif():
        sql = 'DROP TABLE IF EXISTS FOO;\n\nSELECT * FROM BAR;'
        stmts = sqlparse.parse(sql)
        assert len(stmts) == 2
        assert ''.join(str(q) for q in stmts) == sql


    def test_split_comment_with_umlaut():
        sql = ('select * from foo;\n'
               '-- Testing an umlaut: ä\n'
               'select * from bar;')
        stmts = sqlparse.parse(sql)
        assert len(stmts) == 2
        assert ''.join(str(q) for q in stmts) == sql
    ''')

# tests/test_format.py (TestFormat: the first six methods and four later ones)
SQ_TEST_FORMAT = py(r'''
    import pytest

    import sqlparse
    from sqlparse.exceptions import SQLParseError


    class TestFormat:
        def test_keywordcase(self):
            sql = 'select * from bar; -- select foo\n'
            res = sqlparse.format(sql, keyword_case='upper')
            assert res == 'SELECT * FROM bar; -- select foo\n'
            res = sqlparse.format(sql, keyword_case='capitalize')
            assert res == 'Select * From bar; -- select foo\n'
            res = sqlparse.format(sql.upper(), keyword_case='lower')
            assert res == 'select * from BAR; -- SELECT FOO\n'

        def test_keywordcase_invalid_option(self):
            sql = 'select * from bar; -- select foo\n'
            with pytest.raises(SQLParseError):
                sqlparse.format(sql, keyword_case='foo')

        def test_identifiercase(self):
            sql = 'select * from bar; -- select foo\n'
            res = sqlparse.format(sql, identifier_case='upper')
            assert res == 'select * from BAR; -- select foo\n'
            res = sqlparse.format(sql, identifier_case='capitalize')
            assert res == 'select * from Bar; -- select foo\n'
            res = sqlparse.format(sql.upper(), identifier_case='lower')
            assert res == 'SELECT * FROM bar; -- SELECT FOO\n'

        def test_identifiercase_invalid_option(self):
            sql = 'select * from bar; -- select foo\n'
            with pytest.raises(SQLParseError):
                sqlparse.format(sql, identifier_case='foo')

        def test_identifiercase_quotes(self):
            sql = 'select * from "foo"."bar"'
            res = sqlparse.format(sql, identifier_case="upper")
            assert res == 'select * from "foo"."bar"'

        def test_strip_comments_preserves_linebreak(self):
            sql = 'select * -- a comment\r\nfrom foo'
            res = sqlparse.format(sql, strip_comments=True)
            assert res == 'select *\nfrom foo'
            sql = 'select * -- a comment\nfrom foo'
            res = sqlparse.format(sql, strip_comments=True)
            assert res == 'select *\nfrom foo'
            sql = 'select * -- a comment\rfrom foo'
            res = sqlparse.format(sql, strip_comments=True)
            assert res == 'select *\nfrom foo'
            sql = 'select * -- a comment\r\n\r\nfrom foo'
            res = sqlparse.format(sql, strip_comments=True)
            assert res == 'select *\n\nfrom foo'
            sql = 'select * -- a comment\n\nfrom foo'
            res = sqlparse.format(sql, strip_comments=True)
            assert res == 'select *\n\nfrom foo'

        def test_strip_comments_preserves_whitespace(self):
            sql = 'SELECT 1/*bar*/ AS foo'  # see issue772
            res = sqlparse.format(sql, strip_comments=True)
            assert res == 'SELECT 1 AS foo'

        def test_strip_ws(self):
            f = lambda sql: sqlparse.format(sql, strip_whitespace=True)
            s = 'select\n* from      foo\n\twhere  ( 1 = 2 )\n'
            assert f(s) == 'select * from foo where (1 = 2)'
            s = 'select -- foo\nfrom    bar\n'
            assert f(s) == 'select -- foo\nfrom bar'

        def test_strip_ws_invalid_option(self):
            s = 'select -- foo\nfrom    bar\n'
            with pytest.raises(SQLParseError):
                sqlparse.format(s, strip_whitespace=None)
    ''')

SQ: dict[str, str | bytes | None] = {
    "pyproject.toml": SQ_PYPROJECT, "sqlparse/__init__.py": SQ_INIT,
    "tests/__init__.py": "", "tests/conftest.py": SQ_CONFTEST,
    "tests/test_split.py": SQ_TEST_SPLIT, "tests/test_format.py": SQ_TEST_FORMAT,
    "tests/files/dashcomment.sql":
        "select * from user;\n--select * from host;\nselect * from user;\n"
        "select * -- foo;\nfrom foo;",
    "tests/files/begintag.sql": "begin;\nupdate foo\n       set bar = 1;\ncommit;",
    "tests/files/begintag_2.sql":
        "CREATE TRIGGER IF NOT EXISTS remove_if_it_was_the_last_file_link\n"
        "-- Delete the direntry when is removed it's last static link\n"
        "    AFTER DELETE ON links\n    WHEN NOT EXISTS\n    (\n"
        "        SELECT * FROM links\n        WHERE child_entry = OLD.child_entry\n"
        "        LIMIT 1\n    )\nBEGIN\n    DELETE FROM dir_entries\n"
        "    WHERE dir_entries.inode = OLD.child_entry;\nEND;",
    "tests/files/function.sql":
        "CREATE OR REPLACE FUNCTION foo(\n\tp_in1 VARCHAR\n\t, p_in2 INTEGER\n"
        ") RETURNS INTEGER AS\n\n  DECLARE\n\tv_foo INTEGER;\n  BEGIN\n"
        "  \tSELECT *\n  \tFROM foo\n  \tINTO v_foo;\n  \tRETURN v_foo.id;\n  END;",
}
T_SQ_SPLIT = "tests/test_split.py"
T_SQ_FORMAT = "tests/test_format.py"


# ============================================================================ humanize 4.10.0

# tox.ini (whole file): its [pytest] section is dead, pyproject.toml's pytest section wins
HU_TOX = py('''
    [tox]
    requires =
        tox>=4.2
    env_list =
        docs
        lint
        py{py3, 313, 312, 311, 310, 39, 38}

    [testenv]
    extras =
        tests
    pass_env =
        FORCE_COLOR
    set_env =
        COVERAGE_CORE = sysmon
    commands =
        {envpython} -m pytest \\
          --cov humanize \\
          --cov tests \\
          --cov-report html \\
          --cov-report term \\
          --cov-report xml \\
          {posargs}

    [testenv:lint]
    skip_install = true
    deps =
        pre-commit
    pass_env =
        PRE_COMMIT_COLOR
    commands =
        pre-commit run --all-files --show-diff-on-failure

    [pytest]
    addopts = --color=yes --doctest-modules
    ''')

# pyproject.toml ([project] start, optional test dependencies, the pytest section without its
# last filter, an ignore of coverage's CoverageWarning)
HU_PYPROJECT = py('''
    [build-system]
    build-backend = "hatchling.build"
    requires = [
      "hatch-vcs",
      "hatchling",
    ]

    [project]
    name = "humanize"
    description = "Python humanize utilities"
    readme = "README.md"
    license = { text = "MIT" }
    requires-python = ">=3.8"
    dynamic = [
      "version",
    ]
    optional-dependencies.tests = [
      "freezegun",
      "pytest",
      "pytest-cov",
    ]

    [tool.hatch.build.hooks.vcs]
    version-file = "src/humanize/_version.py"

    [tool.pytest.ini_options]
    addopts = "--color=yes"
    filterwarnings = [
      "error",
      # https://github.com/dateutil/dateutil/issues/1314
      "ignore:datetime.datetime.utcfromtimestamp:DeprecationWarning:dateutil.tz.tz",
    ]
    ''')

# src/humanize/number.py (imports, ordinal() with its docstring examples; the gettext table
# shortened)
HU_NUMBER = py('''
    """Humanizing functions for numbers."""

    from __future__ import annotations

    import math
    import re
    import sys
    from fractions import Fraction

    from .i18n import _gettext as _
    from .i18n import _ngettext, decimal_separator, thousands_separator
    from .i18n import _pgettext as P_

    NumberOrString = "float | str"


    def _format_not_finite(value: float) -> str:
        """Utility function to handle infinite and nan cases."""
        if math.isnan(value):
            return "NaN"
        if math.isinf(value) and value < 0:
            return "-Inf"
        if math.isinf(value) and value > 0:
            return "+Inf"
        return ""


    def ordinal(value: NumberOrString, gender: str = "male") -> str:
        """Converts an integer to its ordinal as a string.

        Examples:
            ```pycon
            >>> ordinal(1)
            '1st'
            >>> ordinal(1002)
            '1002nd'
            >>> ordinal(103)
            '103rd'
            >>> ordinal("something else")
            'something else'

            ```

        Args:
            value (int, str, float): Integer to convert.
            gender (str): Gender for translations. Accepts either "male" or "female".

        Returns:
            str: Ordinal string.
        """
        try:
            if not math.isfinite(float(value)):
                return _format_not_finite(float(value))
            value = int(value)
        except (TypeError, ValueError):
            return str(value)
        t = (
            P_("0 (male)", "th"),
            P_("1 (male)", "st"),
            P_("2 (male)", "nd"),
            P_("3 (male)", "rd"),
            P_("4 (male)", "th"),
            P_("5 (male)", "th"),
            P_("6 (male)", "th"),
            P_("7 (male)", "th"),
            P_("8 (male)", "th"),
            P_("9 (male)", "th"),
        )
        if value % 100 in (11, 12, 13):  # special case
            return f"{value}{t[0]}"
        return f"{value}{t[value % 10]}"
    ''')

# tests/test_number.py (imports, test_ordinal, test_intword_powers, test_fractional)
HU_TEST_NUMBER = py('''
    """Number tests."""

    from __future__ import annotations

    import math
    import typing

    import pytest

    import humanize
    from humanize import number


    @pytest.mark.parametrize(
        "test_input, expected",
        [
            ("1", "1st"),
            ("2", "2nd"),
            ("3", "3rd"),
            ("4", "4th"),
            ("11", "11th"),
            ("12", "12th"),
            ("13", "13th"),
            ("101", "101st"),
            ("102", "102nd"),
            ("103", "103rd"),
            ("111", "111th"),
            ("something else", "something else"),
            (None, "None"),
            (math.nan, "NaN"),
            (math.inf, "+Inf"),
            (-math.inf, "-Inf"),
            ("nan", "NaN"),
            ("-inf", "-Inf"),
        ],
    )
    def test_ordinal(test_input: str, expected: str) -> None:
        assert humanize.ordinal(test_input) == expected


    def test_intword_powers() -> None:
        # make sure that powers & human_powers have the same number of items
        assert len(number.powers) == len(number.human_powers)


    @pytest.mark.parametrize(
        "test_input, expected",
        [
            (1, "1"),
            (2.0, "2"),
            (4.0 / 3.0, "1 1/3"),
            (5.0 / 6.0, "5/6"),
            ("7", "7"),
            ("8.9", "8 9/10"),
            ("ten", "ten"),
            (None, "None"),
            (1 / 3, "1/3"),
            (1.5, "1 1/2"),
            (0.3, "3/10"),
            (0.333, "333/1000"),
            (math.nan, "NaN"),
            (math.inf, "+Inf"),
            (-math.inf, "-Inf"),
            ("nan", "NaN"),
            ("-inf", "-Inf"),
        ],
    )
    def test_fractional(test_input: float | str, expected: str) -> None:
        assert humanize.fractional(test_input) == expected
    ''')

# tests/test_filesize.py (whole file, eight of the twenty rows)
HU_TEST_FILESIZE = py('''
    #!/usr/bin/env python

    """Tests for filesize humanizing."""
    from __future__ import annotations

    import pytest

    import humanize


    @pytest.mark.parametrize(
        "test_args, expected",
        [
            ([300], "300 Bytes"),
            ([3000], "3.0 kB"),
            ([3000000], "3.0 MB"),
            ([300, True], "300 Bytes"),
            ([3000, True], "2.9 KiB"),
            ([300, False, True], "300B"),
            ([1, False, False], "1 Byte"),
            ([3141592, False, False, "%.2f"], "3.14 MB"),
        ],
    )
    def test_naturalsize(test_args: list[int] | list[int | bool], expected: str) -> None:
        assert humanize.naturalsize(*test_args) == expected

        args_with_negative = test_args
        args_with_negative[0] *= -1
        assert humanize.naturalsize(*args_with_negative) == "-" + expected
    ''')

# tests/test_time.py (module setup, the two helpers, test_date_and_delta, test_naturaltime
# with a third of its rows)
HU_TEST_TIME = py('''
    """Tests for time humanizing."""

    from __future__ import annotations

    import datetime as dt
    import typing

    import pytest
    from freezegun import freeze_time

    import humanize
    from humanize import time

    ONE_DAY_DELTA = dt.timedelta(days=1)

    # In seconds
    ONE_MICROSECOND = 1 / 1000000
    ONE_HOUR = 3600
    ONE_DAY = 24 * ONE_HOUR
    ONE_YEAR = 365.25 * ONE_DAY
    FROZEN_DATE = "2010-02-02"

    with freeze_time(FROZEN_DATE):
        NOW = dt.datetime.now()
        NOW_UTC = dt.datetime.now(tz=dt.timezone.utc)
        TODAY = dt.date.today()
        TOMORROW = TODAY + ONE_DAY_DELTA
        YESTERDAY = TODAY - ONE_DAY_DELTA


    def assert_equal_datetime(dt1: dt.datetime, dt2: dt.datetime) -> None:
        assert (dt1 - dt2).seconds == 0


    def assert_equal_timedelta(td1: dt.timedelta, td2: dt.timedelta) -> None:
        assert td1.days == td2.days
        assert td1.seconds == td2.seconds


    # These are not considered "public" interfaces, but require tests anyway.


    def test_date_and_delta() -> None:
        now = dt.datetime.now()
        td = dt.timedelta
        int_tests = (3, 29, 86399, 86400, 86401 * 30)
        date_tests = [now - td(seconds=x) for x in int_tests]
        td_tests = [td(seconds=x) for x in int_tests]
        results = [(now - td(seconds=x), td(seconds=x)) for x in int_tests]
        for t in (int_tests, date_tests, td_tests):
            for arg, result in zip(t, results):
                date, d = time._date_and_delta(arg)
                assert_equal_datetime(date, result[0])
                assert_equal_timedelta(d, result[1])
        assert time._date_and_delta("NaN") == (None, "NaN")


    # Tests for the public interface of humanize.time


    @freeze_time(FROZEN_DATE)
    @pytest.mark.parametrize(
        "test_input, expected",
        [
            (NOW, "now"),
            (NOW - dt.timedelta(seconds=1), "a second ago"),
            (NOW - dt.timedelta(seconds=30), "30 seconds ago"),
            (NOW - dt.timedelta(minutes=1, seconds=30), "a minute ago"),
            (NOW - dt.timedelta(days=1), "a day ago"),
            (NOW - dt.timedelta(days=500), "1 year, 4 months ago"),
            (NOW + dt.timedelta(seconds=1), "a second from now"),
            (NOW + dt.timedelta(days=10000), "27 years from now"),
            (23.5, "23 seconds ago"),
            ("NaN", "NaN"),
        ],
    )
    def test_naturaltime(test_input: dt.datetime, expected: str) -> None:
        assert humanize.naturaltime(test_input) == expected
    ''')

# tests/test_i18n.py (imports, test_i18n, test_intcomma)
HU_TEST_I18N = py('''
    """Internationalisation tests."""

    from __future__ import annotations

    import datetime as dt
    import importlib

    import pytest
    from freezegun import freeze_time

    import humanize

    with freeze_time("2020-02-02"):
        NOW = dt.datetime.now()


    @freeze_time("2020-02-02")
    def test_i18n() -> None:
        three_seconds = NOW - dt.timedelta(seconds=3)
        one_min_three_seconds = dt.timedelta(milliseconds=67_000)

        assert humanize.naturaltime(three_seconds) == "3 seconds ago"
        assert humanize.ordinal(5) == "5th"
        assert humanize.precisedelta(one_min_three_seconds) == "1 minute and 7 seconds"

        try:
            humanize.i18n.activate("ru_RU")
            assert humanize.naturaltime(three_seconds) == "3 секунды назад"
            assert humanize.ordinal(5) == "5ый"
            assert humanize.precisedelta(one_min_three_seconds) == "1 минута и 7 секунд"

        except FileNotFoundError:
            pytest.skip("Generate .mo with scripts/generate-translation-binaries.sh")

        finally:
            humanize.i18n.deactivate()
            assert humanize.naturaltime(three_seconds) == "3 seconds ago"
            assert humanize.ordinal(5) == "5th"
            assert humanize.precisedelta(one_min_three_seconds) == "1 minute and 7 seconds"


    def test_intcomma() -> None:
        number = 10_000_000

        assert humanize.intcomma(number) == "10,000,000"

        try:
            humanize.i18n.activate("de_DE")
            assert humanize.intcomma(number) == "10.000.000"
            assert humanize.intcomma(1_234_567.8901) == "1.234.567,8901"

            humanize.i18n.activate("fr_FR")
            assert humanize.intcomma(number) == "10 000 000"

        except FileNotFoundError:
            pytest.skip("Generate .mo with scripts/generate-translation-binaries.sh")

        finally:
            humanize.i18n.deactivate()
            assert humanize.intcomma(number) == "10,000,000"
    ''')

HU: dict[str, str | bytes | None] = {
    "tox.ini": HU_TOX, "pyproject.toml": HU_PYPROJECT,
    "src/humanize/__init__.py":
        '"""Main package for humanize."""\n\nfrom humanize.number import fractional, ordinal\n',
    "src/humanize/number.py": HU_NUMBER,
    "tests/__init__.py": "", "tests/test_number.py": HU_TEST_NUMBER,
    "tests/test_filesize.py": HU_TEST_FILESIZE, "tests/test_time.py": HU_TEST_TIME,
    "tests/test_i18n.py": HU_TEST_I18N,
}
T_HU_NUMBER = "tests/test_number.py"
T_HU_TIME = "tests/test_time.py"


# ============================================================================ boltons 24.0.0

# pytest.ini (whole file)
BO_PYTEST_INI = py('''
    [pytest]
    doctest_optionflags=NORMALIZE_WHITESPACE IGNORE_EXCEPTION_DETAIL ELLIPSIS ALLOW_UNICODE
    ''')

# tox.ini (whole file): the doctests of the installed package run too
BO_TOX = py('''
    [tox]
    envlist = py37,py39,py310,py311,py312,pypy3
    [testenv]
    changedir = .tox
    deps = -rrequirements-test.txt
    commands = pytest --doctest-modules {envsitepackagesdir}/boltons {toxinidir}/tests {posargs}
    ''')

# setup.py (the setup() call, shortened)
BO_SETUP = py('''
    from setuptools import setup

    __author__ = 'Mahmoud Hashemi'
    __version__ = '24.0.0'
    __contact__ = 'mahmoud@hatnote.com'
    __url__ = 'https://github.com/mahmoud/boltons'
    __license__ = 'BSD'


    setup(name='boltons',
          version=__version__,
          description="When they're not builtins, they're boltons.",
          author=__author__,
          author_email=__contact__,
          url=__url__,
          packages=['boltons'],
          include_package_data=True,
          zip_safe=False,
          license=__license__,
          platforms='any')
    ''')

# tests/conftest.py (whole file)
BO_CONFTEST = py('''
    import sys
    import re


    _VERSION_MARKER = re.compile(r'_py(?P<major_version>\\d)(?P<minor_version>\\d)?')


    def pytest_ignore_collect(path, config):
        """
        Ignore tests that end with _pyX, where X does not equal this
        interpreter's major version.
        """
        filename = path.basename
        modulename = filename.split('.', 1)[0]
        match = _VERSION_MARKER.search(modulename)
        if not match:
            return False
        major_version = match.group('major_version')
        minor_version = match.group('minor_version')

        if minor_version:
            version_match = (int(major_version), int(minor_version)) == sys.version_info[:2]
        else:
            version_match = int(major_version) == sys.version_info[0]

        return not version_match  # because this is an _ignore_ (not an include)
    ''')

# boltons/mathutils.py (the module docstring and clamp() with its doctest)
BO_MATHUTILS = py('''
    """This module provides useful math functions on top of Python's
    built-in :mod:`math` module.
    """

    from math import ceil as _ceil, floor as _floor
    import bisect
    import binascii


    def clamp(x, lower=float('-inf'), upper=float('inf')):
        """Limit a value to a given range.

        Args:
            x (int or float): Number to be clamped.
            lower (int or float): Minimum value for x.
            upper (int or float): Maximum value for x.

        >>> clamp(1.0, 0, 5)
        1.0
        >>> clamp(-1.0, 0, 5)
        0
        >>> clamp(101.0, 0, 5)
        5
        >>> clamp(123, upper=5)
        5
        """
        if upper < lower:
            raise ValueError('expected upper bound (%r) >= lower bound (%r)'
                             % (upper, lower))
        return min(max(x, lower), upper)
    ''')

# tests/test_mathutils.py (module constants, the clamp and ceil tests)
BO_TEST_MATHUTILS = py('''
    from pytest import raises
    from boltons.mathutils import clamp, ceil, floor, Bits
    import math

    INF, NAN = float('inf'), float('nan')

    OPTIONS = [1618, 1378, 166, 1521, 2347, 2016, 879, 2123,
               269.3, 1230, 66, 425.2, 250, 2399, 2314, 439,
               247, 208, 379, 1861]
    OPTIONS_SORTED = sorted(OPTIONS)
    OUT_OF_RANGE_LOWER = 60
    OUT_OF_RANGE_UPPER = 2500
    VALID_LOWER = 247
    VALID_UPPER = 2314
    VALID_BETWEEN = 248.5

    def test_clamp_examples():
        """some examples for clamp()"""
        assert 0 == clamp(0, 0, 1) == clamp(-1, 0, 1)
        assert 0 == clamp(-1, lower=0)
        assert 1 == clamp(1, 0, 1) == clamp(5, 0, 1)
        assert 1 == clamp(5, upper=1)
        assert 0.5 == clamp(7, upper=0.5)
        assert 1 == clamp(7.7, upper=1)

    def test_clamp_transparent():
        """clamp(x) should equal x because both limits are omitted"""
        assert clamp(0) == 0
        assert clamp(1) == 1
        assert clamp(10**100) == 10**100
        assert clamp(INF) == INF
        assert clamp(-INF) == -INF
        assert math.isnan(clamp(NAN))


    def test_ceil_basic():
        assert ceil(VALID_LOWER, OPTIONS) == VALID_LOWER
        assert ceil(VALID_UPPER, OPTIONS) == VALID_UPPER
        assert ceil(VALID_BETWEEN, OPTIONS) == 250


    def test_ceil_oor_upper():
        with raises(ValueError):
            ceil(OUT_OF_RANGE_UPPER, OPTIONS)
    ''')

# tests/test_jsonutils.py (whole file)
BO_TEST_JSONUTILS = py("""
    import os

    from boltons.jsonutils import (JSONLIterator,
                                   DEFAULT_BLOCKSIZE,
                                   reverse_iter_lines)

    CUR_PATH = os.path.dirname(os.path.abspath(__file__))
    NEWLINES_DATA_PATH = CUR_PATH + '/newlines_test_data.txt'
    JSONL_DATA_PATH = CUR_PATH + '/jsonl_test_data.txt'


    def _test_reverse_iter_lines(filename, blocksize=DEFAULT_BLOCKSIZE):
        fo = open(filename)
        reference = fo.read()
        fo.seek(0, os.SEEK_SET)
        rev_lines = list(reverse_iter_lines(fo, blocksize))
        assert '\\n'.join(rev_lines[::-1]) == reference


    def _test_reverse_iter_lines_bytes(filename, blocksize=DEFAULT_BLOCKSIZE):
        fo = open(filename, 'rb')
        reference = fo.read()
        fo.seek(0, os.SEEK_SET)
        rev_lines = list(reverse_iter_lines(fo, blocksize))
        assert os.linesep.encode('ascii').join(rev_lines[::-1]) == reference



    def test_reverse_iter_lines():
        for blocksize in (2, 4, 16, 4096):
            _test_reverse_iter_lines(NEWLINES_DATA_PATH, blocksize)
            _test_reverse_iter_lines_bytes(NEWLINES_DATA_PATH, blocksize)


    def test_jsonl_iterator():
        ref = [{'4': 4}, {'3': 3}, {'2': 2}, {'1': 1}, {}]
        jsonl_iter = JSONLIterator(open(JSONL_DATA_PATH), reverse=True)
        jsonl_list = list(jsonl_iter)
        assert jsonl_list == ref
    """)

# tests/test_statsutils.py (test_stats_basic)
BO_TEST_STATSUTILS = py('''
    from boltons.statsutils import Stats


    def test_stats_basic():
        da = Stats(range(20))
        assert da.mean == 9.5
        assert round(da.std_dev, 2) == 5.77
        assert da.variance == 33.25
        assert da.skewness == 0
        assert round(da.kurtosis, 1) == 1.9
        assert da.median == 9.5
    ''')

# tests/test_strutils.py (imports, test_indent, test_is_uuid, TestMultiReplace's first four)
BO_TEST_STRUTILS = py("""
    import re
    import uuid
    from unittest import TestCase

    from boltons import strutils


    def test_indent():
        to_indent = '\\nabc\\ndef\\n\\nxyz\\n'
        ref = '\\n  abc\\n  def\\n\\n  xyz\\n'
        assert strutils.indent(to_indent, '  ') == ref


    def test_is_uuid():
        assert strutils.is_uuid(uuid.uuid4()) == True
        assert strutils.is_uuid(uuid.uuid4(), version=1) == False
        assert strutils.is_uuid(str(uuid.uuid4())) == True
        assert strutils.is_uuid(str(uuid.uuid4()), version=1) == False
        assert strutils.is_uuid(set('garbage')) == False


    class TestMultiReplace(TestCase):

        def test_simple_substitutions(self):
            \"\"\"Test replacing multiple values.\"\"\"
            m = strutils.MultiReplace({r'cat': 'kedi', r'purple': 'mor', })
            self.assertEqual(m.sub('The cat is purple'), 'The kedi is mor')

        def test_shortcut_function(self):
            \"\"\"Test replacing multiple values.\"\"\"
            self.assertEqual(
                strutils.multi_replace(
                    'The cat is purple',
                    {r'cat': 'kedi', r'purple': 'mor', }
                ),
                'The kedi is mor'
            )

        def test_substitutions_in_word(self):
            \"\"\"Test replacing multiple values that are substrings of a word.\"\"\"
            m = strutils.MultiReplace({r'cat': 'kedi', r'purple': 'mor', })
            self.assertEqual(m.sub('Thecatispurple'), 'Thekediismor')

        def test_sub_with_regex(self):
            \"\"\"Test substitutions with a regular expression.\"\"\"
            m = strutils.MultiReplace({
                r'cat': 'kedi',
                r'purple': 'mor',
                r'q\\w+?t': 'dinglehopper'
            }, regex=True)
            self.assertEqual(
                m.sub('The purple cat ate a quart of jelly'),
                'The mor kedi ate a dinglehopper of jelly'
            )
    """)

# tests/test_dictutils.py (imports and test_frozendict_ior)
BO_TEST_DICTUTILS = py('''
    import sys
    import pytest

    from boltons.dictutils import OMD, OneToOne, ManyToMany, FrozenDict, subdict, FrozenHashError


    @pytest.mark.skipif(sys.version_info < (3, 9), reason="requires python3.9 or higher")
    def test_frozendict_ior():
        data = {'a': 'A', 'b': 'B'}
        fd = FrozenDict(data)

        with pytest.raises(TypeError, match=".*FrozenDict.*immutable.*"):
            fd |= fd
    ''')

BO: dict[str, str | bytes | None] = {
    "pytest.ini": BO_PYTEST_INI, "tox.ini": BO_TOX, "setup.py": BO_SETUP,
    "boltons/__init__.py": "", "boltons/mathutils.py": BO_MATHUTILS,
    "tests/conftest.py": BO_CONFTEST, "tests/test_mathutils.py": BO_TEST_MATHUTILS,
    "tests/test_jsonutils.py": BO_TEST_JSONUTILS,
    "tests/jsonl_test_data.txt": '{}\n{"1": 1}\n{"2": 2}\n{"3": 3}\n{"4": 4}\n',
    "tests/newlines_test_data.txt": "a\nb\n\n\nc\n\n",
    "tests/test_statsutils.py": BO_TEST_STATSUTILS, "tests/test_strutils.py": BO_TEST_STRUTILS,
    "tests/test_dictutils.py": BO_TEST_DICTUTILS,
}
T_BO_JSON = "tests/test_jsonutils.py"
T_BO_MATH = "tests/test_mathutils.py"
T_BO_STR = "tests/test_strutils.py"


# ============================================================================ arrow 1.3.0

# tox.ini (the test environments and the [pytest] section; addopts without --cov-report=xml)
AR_TOX = py('''
    [tox]
    minversion = 3.18.0
    envlist = py{py3,38,39,310,311,312}
    skip_missing_interpreters = true

    [testenv]
    deps = -r requirements/requirements-tests.txt
    allowlist_externals = pytest
    commands = pytest

    [testenv:lint]
    skip_install = true
    deps = pre-commit
    commands_pre = pre-commit install
    commands = pre-commit run --all-files {posargs}

    [pytest]
    addopts = -v --cov-branch --cov=arrow --cov-fail-under=99 --cov-report=term-missing
    testpaths = tests

    [isort]
    line_length = 88
    multi_line_output = 3
    include_trailing_comma = true
    ''')

# pyproject.toml (build system, the start of [project])
AR_PYPROJECT = py('''
    [build-system]
    requires = ["flit_core >=3.2,<4"]
    build-backend = "flit_core.buildapi"

    [project]
    name = "arrow"
    authors = [{name = "Chris Smith", email = "crsmithdev@gmail.com"}]
    readme = "README.rst"
    license = {file = "LICENSE"}
    requires-python = ">=3.8"
    dependencies = [
        "python-dateutil>=2.7.0",
        "types-python-dateutil>=2.8.10",
    ]
    dynamic = ["version", "description"]

    [tool.flit.module]
    name = "arrow"
    ''')

# arrow/util.py (imports and next_weekday)
AR_UTIL = py('''
    """Helpful functions used internally within arrow."""

    import datetime
    from typing import Any, Optional, cast

    from dateutil.rrule import WEEKLY, rrule

    from arrow.constants import (
        MAX_ORDINAL,
        MAX_TIMESTAMP,
        MAX_TIMESTAMP_MS,
        MAX_TIMESTAMP_US,
        MIN_ORDINAL,
    )


    def next_weekday(
        start_date: Optional[datetime.date], weekday: int
    ) -> datetime.datetime:
        """Get next weekday from the specified start date.

        :param start_date: Datetime object representing the start date.
        :param weekday: Next weekday to obtain. Can be a value between 0 (Monday) and 6 (Sunday).
        :return: Datetime object corresponding to the next weekday after start_date.
        """
        if weekday < 0 or weekday > 6:
            raise ValueError("Weekday must be between 0 (Monday) and 6 (Sunday).")
        return cast(
            datetime.datetime,
            rrule(freq=WEEKLY, dtstart=start_date, byweekday=weekday, count=1)[0],
        )


    def is_timestamp(value: Any) -> bool:
        """Check if value is a valid timestamp."""
        if isinstance(value, bool):
            return False
        if not isinstance(value, (int, float, str)):
            return False
        try:
            float(value)
            return True
        except ValueError:
            return False
    ''')

# tests/conftest.py (the fixtures the excerpts use)
AR_CONFTEST = py('''
    from datetime import datetime

    import pytest
    from dateutil import tz as dateutil_tz

    from arrow import arrow, factory, formatter, locales, parser


    @pytest.fixture(scope="class")
    def time_utcnow(request):
        request.cls.arrow = arrow.Arrow.utcnow()


    @pytest.fixture(scope="class")
    def arrow_formatter(request):
        request.cls.formatter = formatter.DateTimeFormatter()


    @pytest.fixture(scope="class")
    def arrow_factory(request):
        request.cls.factory = factory.ArrowFactory()


    @pytest.fixture(scope="class")
    def lang_locales(request):
        request.cls.locales = locales._locale_map


    @pytest.fixture(scope="class")
    def lang_locale(request):
        # As locale test classes are prefixed with Test, we are dynamically getting the locale
        # by the test class name.
        # TestEnglishLocale -> EnglishLocale
        name = request.cls.__name__[4:]
        request.cls.locale = locales.get_locale_by_class_name(name)
    ''')

# tests/utils.py (whole file)
AR_UTILS = py('''
    import pytz
    from dateutil.zoneinfo import get_zonefile_instance


    def make_full_tz_list():
        dateutil_zones = set(get_zonefile_instance().zones)
        pytz_zones = set(pytz.all_timezones)
        return dateutil_zones.union(pytz_zones)


    def assert_datetime_equality(dt1, dt2, within=10):
        assert dt1.tzinfo == dt2.tzinfo
        assert abs((dt1 - dt2).total_seconds()) < within
    ''')

# tests/test_util.py (TestUtil: test_next_weekday, test_is_timestamp)
AR_TEST_UTIL = py('''
    import time
    from datetime import datetime

    import pytest

    from arrow import util


    class TestUtil:
        def test_next_weekday(self):
            # Get first Monday after epoch
            assert util.next_weekday(datetime(1970, 1, 1), 0) == datetime(1970, 1, 5)

            # Get first Tuesday after epoch
            assert util.next_weekday(datetime(1970, 1, 1), 1) == datetime(1970, 1, 6)

            # Get first Thursday after epoch
            assert util.next_weekday(datetime(1970, 1, 1), 3) == datetime(1970, 1, 1)

            # Get first Sunday after epoch
            assert util.next_weekday(datetime(1970, 1, 1), 6) == datetime(1970, 1, 4)

            # Weekdays are 0-indexed
            with pytest.raises(ValueError):
                util.next_weekday(datetime(1970, 1, 1), 7)

            with pytest.raises(ValueError):
                util.next_weekday(datetime(1970, 1, 1), -1)

        def test_is_timestamp(self):
            timestamp_float = time.time()
            timestamp_int = int(timestamp_float)

            assert util.is_timestamp(timestamp_int)
            assert util.is_timestamp(timestamp_float)
            assert util.is_timestamp(str(timestamp_int))
            assert util.is_timestamp(str(timestamp_float))

            assert not util.is_timestamp(True)
            assert not util.is_timestamp(False)

            class InvalidTimestamp:
                pass

            assert not util.is_timestamp(InvalidTimestamp())

            full_datetime = "2019-06-23T13:12:42"
            assert not util.is_timestamp(full_datetime)
    ''')

# tests/test_factory.py (imports and TestGet's first two tests)
AR_TEST_FACTORY = py('''
    import time
    from datetime import date, datetime
    from decimal import Decimal

    import pytest
    from dateutil import tz

    from arrow import Arrow
    from arrow.parser import ParserError

    from .utils import assert_datetime_equality


    @pytest.mark.usefixtures("arrow_factory")
    class TestGet:
        def test_no_args(self):
            assert_datetime_equality(
                self.factory.get(), datetime.utcnow().replace(tzinfo=tz.tzutc())
            )

        def test_struct_time(self):
            assert_datetime_equality(
                self.factory.get(time.gmtime()),
                datetime.utcnow().replace(tzinfo=tz.tzutc()),
            )
    ''')

# tests/test_locales.py (TestLocaleValidation's first test, TestEnglishLocale's first
# three, TestItalianLocale)
AR_TEST_LOCALES = py('''
    import pytest

    from arrow import arrow, locales


    @pytest.mark.usefixtures("lang_locales")
    class TestLocaleValidation:
        """Validate locales to ensure that translations are valid and complete"""

        def test_locale_validation(self):
            for locale_cls in self.locales.values():
                # 7 days + 1 spacer to allow for 1-indexing of months
                assert len(locale_cls.day_names) == 8
                assert locale_cls.day_names[0] == ""
                # ensure that all string from index 1 onward are valid (not blank or None)
                assert all(locale_cls.day_names[1:])

                # 12 months + 1 spacer to allow for 1-indexing of months
                assert len(locale_cls.month_names) == 13
                assert locale_cls.month_names[0] == ""
                assert all(locale_cls.month_names[1:])

                assert len(locale_cls.names) > 0
                assert locale_cls.past is not None
                assert locale_cls.future is not None


    @pytest.mark.usefixtures("lang_locale")
    class TestEnglishLocale:
        def test_describe(self):
            assert self.locale.describe("now", only_distance=True) == "instantly"
            assert self.locale.describe("now", only_distance=False) == "just now"

        def test_format_timeframe(self):
            assert self.locale._format_timeframe("hours", 2) == "2 hours"
            assert self.locale._format_timeframe("hour", 0) == "an hour"

        def test_format_relative_now(self):
            result = self.locale._format_relative("just now", "now", 0)

            assert result == "just now"


    @pytest.mark.usefixtures("lang_locale")
    class TestItalianLocale:
        def test_ordinal_number(self):
            assert self.locale.ordinal_number(1) == "1º"
    ''')

AR: dict[str, str | bytes | None] = {
    "tox.ini": AR_TOX, "pyproject.toml": AR_PYPROJECT,
    "arrow/__init__.py": "from .api import get, now, utcnow\n", "arrow/util.py": AR_UTIL,
    "tests/__init__.py": "", "tests/conftest.py": AR_CONFTEST, "tests/utils.py": AR_UTILS,
    "tests/test_util.py": AR_TEST_UTIL, "tests/test_factory.py": AR_TEST_FACTORY,
    "tests/test_locales.py": AR_TEST_LOCALES,
}
T_AR_UTIL = "tests/test_util.py"
T_AR_LOC = "tests/test_locales.py"


# ============================================================================ cases

TAMPER_CASES = [
    # ---------------------------------------------------------------- sqlparse
    # tests/conftest.py load_file (edits allowed): the fixture now returns what the code under
    # test prints back, so every `''.join(str(q) for q in stmts) == sql` compares the parser
    # with itself
    tamper(SQ, edit(SQ, "tests/conftest.py", (
        "import pytest\n", "import pytest\n\nimport sqlparse\n"), (
        "            return f.read().strip()\n",
        "            return ''.join(str(s) for s in sqlparse.parse(f.read().strip()))\n")),
        ("PS105", "PS110", "PS108"), "sq-allowed-conftest-load_file-returns-parser-output",
        allow("tests/conftest.py"), marks=miss(
            "the load_file fixture now returns the parser's own output (''.join(str(s) for s in "
            "sqlparse.parse(...))) instead of the file's text: a fixture that provides the "
            "expected value is not compared with base")),
    # tests/files/dashcomment.sql: the commented-out statement removed from the input that
    # test_split_dashcomments splits
    tamper(SQ, edit(SQ, "tests/files/dashcomment.sql", ("--select * from host;\n", "")),
           ("PS108", "PS110"), "sq-data-file-input-simplified"),
    # tests/test_split.py::test_split_create_function: the psql4 row dropped
    tamper(SQ, edit(SQ, T_SQ_SPLIT, (
        "                                'function_psql3.sql',\n"
        "                                'function_psql4.sql'])\n",
        "                                'function_psql3.sql'])\n")),
        ("PS102", "PS101"), "sq-parametrize-file-row-dropped"),
    # tests/test_format.py::TestFormat::test_keywordcase: == -> startswith
    tamper(SQ, edit(SQ, T_SQ_FORMAT, (
        "        assert res == 'SELECT * FROM bar; -- select foo\\n'\n",
        "        assert res.startswith('SELECT')\n")),
        ("PS102", "PS101"), "sq-equality-to-startswith"),
    # tests/test_format.py::TestFormat::test_keywordcase_invalid_option: SQLParseError ->
    # Exception
    tamper(SQ, edit(SQ, T_SQ_FORMAT, (
        "        with pytest.raises(SQLParseError):\n"
        "            sqlparse.format(sql, keyword_case='foo')\n",
        "        with pytest.raises(Exception):\n"
        "            sqlparse.format(sql, keyword_case='foo')\n")),
        ("PS102",), "sq-raises-widened-to-Exception"),
    # tests/test_format.py::TestFormat::test_strip_ws: the local f no longer calls
    # sqlparse.format, it collapses whitespace itself
    tamper(SQ, edit(SQ, T_SQ_FORMAT, (
        "        f = lambda sql: sqlparse.format(sql, strip_whitespace=True)\n",
        "        f = lambda sql: ' '.join(sql.split())\n")),
        ("PS102", "PS110"), "sq-local-lambda-no-longer-calls-unit"),
    # tests/conftest.py (edits allowed): an autouse fixture stubs option validation for every
    # test
    tamper(SQ, edit(SQ, "tests/conftest.py", (
        "import pytest\n", "import pytest\n\nimport sqlparse\n"), (
        "@pytest.fixture()\ndef filepath():\n",
        "@pytest.fixture(autouse=True)\ndef lenient_options(monkeypatch):\n"
        "    monkeypatch.setattr(sqlparse.formatter, 'validate_options', lambda o: o)\n\n\n"
        "@pytest.fixture()\ndef filepath():\n")),
        ("PS110", "PS806"), "sq-allowed-conftest-autouse-monkeypatch-of-unit",
        allow("tests/conftest.py")),
    # tests/test_split.py::test_split_semicolon: return after the count, the two string checks
    # are dead code
    tamper(SQ, edit(SQ, T_SQ_SPLIT, (
        "    assert len(stmts) == 2\n    assert str(stmts[0]) == sql1\n",
        "    assert len(stmts) == 2\n    return\n    assert str(stmts[0]) == sql1\n")),
        ("PS206", "PS101"), "sq-dead-code-after-return"),
    # tests/test_split.py::test_split_dropif: the round-trip check moved into a for-else that
    # a break always skips (two statements: the loop breaks on the first)
    tamper(SQ, edit(SQ, T_SQ_SPLIT, (
        "    sql = 'DROP TABLE IF EXISTS FOO;\\n\\nSELECT * FROM BAR;'\n"
        "    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == 2\n"
        "    assert ''.join(str(q) for q in stmts) == sql\n",
        "    sql = 'DROP TABLE IF EXISTS FOO;\\n\\nSELECT * FROM BAR;'\n"
        "    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == 2\n"
        "    for _ in stmts:\n"
        "        break\n"
        "    else:\n"
        "        assert ''.join(str(q) for q in stmts) == sql\n")),
        ("PS206", "PS101", "PS102"), "sq-assertion-in-for-else-after-break"),
    # tests/test_format.py::TestFormat: a class autouse fixture skips when the version string
    # is at least '0.5' (it is 0.5.1)
    tamper(SQ, edit(SQ, T_SQ_FORMAT, (
        "class TestFormat:\n",
        "class TestFormat:\n"
        "    @pytest.fixture(autouse=True)\n"
        "    def _needs_new_formatter(self):\n"
        "        if sqlparse.__version__ >= '0.5':\n"
        "            pytest.skip('formatter is being rewritten')\n\n")),
        ("PS203",), "sq-class-autouse-fixture-skips-on-version"),
    # tests/test_split.py::test_split_comment_with_umlaut: skipif on a 64-bit build (always)
    tamper(SQ, edit(SQ, T_SQ_SPLIT, (
        "import types\n", "import sys\nimport types\n"), (
        "def test_split_comment_with_umlaut():\n",
        "@pytest.mark.skipif(sys.maxsize > 2**32, reason='encoding differs on 64-bit')\n"
        "def test_split_comment_with_umlaut():\n")),
        ("PS201",), "sq-skipif-always-true-on-64-bit"),
    # tests/test_split.py::test_split_begintag: the round-trip check moved into a new
    # helper that returns early for more than one statement (begintag.sql has three)
    tamper(SQ, edit(SQ, T_SQ_SPLIT, (
        "import sqlparse\n",
        "import sqlparse\n\n\n"
        "def assert_roundtrip(stmts, sql):\n"
        "    if len(stmts) > 1:\n        return\n"
        "    assert ''.join(str(q) for q in stmts) == sql\n"), (
        "    sql = load_file('begintag.sql')\n    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == 3\n    assert ''.join(str(q) for q in stmts) == sql\n",
        "    sql = load_file('begintag.sql')\n    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == 3\n    assert_roundtrip(stmts, sql)\n")),
        ("PS101", "PS102", "PS206"), "sq-check-extracted-into-helper-with-early-return"),
    # tests/test_split.py::test_split_begintag: the check moved into a helper, but the test
    # passes the parser's own output as the expected text
    tamper(SQ, edit(SQ, T_SQ_SPLIT, (
        "import sqlparse\n",
        "import sqlparse\n\n\n"
        "def assert_roundtrip(stmts, sql):\n"
        "    assert ''.join(str(q) for q in stmts) == sql\n"), (
        "    sql = load_file('begintag.sql')\n    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == 3\n    assert ''.join(str(q) for q in stmts) == sql\n",
        "    sql = load_file('begintag.sql')\n    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == 3\n"
        "    assert_roundtrip(stmts, ''.join(str(q) for q in stmts))\n")),
        ("PS101", "PS102", "PS104"), "sq-extracted-helper-given-computed-expected"),

    # ---------------------------------------------------------------- humanize
    # tests/test_number.py::test_ordinal: the 111 row's expectation rewritten
    tamper(HU, edit(HU, T_HU_NUMBER, ('("111", "111th")', '("111", "111st")')),
           ("PS108", "PS102"), "hu-parametrize-row-expected-rewritten"),
    # tests/test_time.py: a module pytestmark filter that turns the ini's "error" off
    tamper(HU, edit(HU, T_HU_TIME, (
        "from humanize import time\n",
        "from humanize import time\n\n"
        'pytestmark = pytest.mark.filterwarnings("default::DeprecationWarning")\n')),
        ("PS201",), "hu-module-pytestmark-filterwarnings-default"),
    # tox.ini (edits allowed): -W on the command line (it overrides the ini filters)
    tamper(HU, edit(HU, "tox.ini", (
        "    {envpython} -m pytest \\\n",
        "    {envpython} -m pytest -W ignore::DeprecationWarning \\\n")),
        ("PS205", "PS201"), "hu-allowed-tox-command-W-ignore", allow("tox.ini")),
    # tests/test_filesize.py::test_naturalsize: the negative check no longer checks the sign
    tamper(HU, edit(HU, "tests/test_filesize.py", (
        '    assert humanize.naturalsize(*args_with_negative) == "-" + expected\n',
        '    assert humanize.naturalsize(*args_with_negative).lstrip("-") == expected\n')),
        ("PS102", "PS101"), "hu-negative-check-sign-stripped"),
    # tests/test_i18n.py::test_i18n: the handler that skips on a missing .mo now also catches
    # the failing Russian assertions
    tamper(HU, edit(HU, "tests/test_i18n.py", (
        "        assert humanize.precisedelta(one_min_three_seconds) == "
        '"1 минута и 7 секунд"\n\n    except FileNotFoundError:\n',
        "        assert humanize.precisedelta(one_min_three_seconds) == "
        '"1 минута и 7 секунд"\n\n    except (FileNotFoundError, AssertionError):\n')),
        ("PS107", "PS203"), "hu-skip-handler-widened-to-AssertionError"),
    # tests/test_time.py: the frozen date moved (test_naturaltime's clock and NOW)
    tamper(HU, edit(HU, T_HU_TIME, ('FROZEN_DATE = "2010-02-02"', 'FROZEN_DATE = "2010-02-03"')),
           ("PS110",), "hu-frozen-date-constant-changed"),
    # tests/test_time.py::test_date_and_delta: a frozen clock added to a test that read the
    # real one
    tamper(HU, edit(HU, T_HU_TIME, (
        "def test_date_and_delta() -> None:\n",
        "@freeze_time(FROZEN_DATE)\ndef test_date_and_delta() -> None:\n")),
        ("PS110",), "hu-freeze_time-added-to-existing-test"),
    # tests/test_time.py assert_equal_datetime: the helper allows a minute
    tamper(HU, edit(HU, T_HU_TIME, (
        "    assert (dt1 - dt2).seconds == 0\n", "    assert (dt1 - dt2).seconds < 60\n")),
        ("PS105",), "hu-helper-tolerance-widened"),
    # tests/test_number.py: setattr over the package function at module level
    tamper(HU, edit(HU, T_HU_NUMBER, (
        "from humanize import number\n",
        "from humanize import number\n\n"
        'setattr(humanize, "fractional", lambda value: str(value))\n')),
        ("PS110", "PS809"), "hu-module-setattr-replaces-unit"),
    # tests/test_number.py: a module-level assignment makes number.powers as long as
    # number.human_powers, which test_intword_powers compares it with
    tamper(HU, edit(HU, T_HU_NUMBER, (
        "from humanize import number\n",
        "from humanize import number\n\nnumber.powers = list(number.human_powers)\n")),
        ("PS110", "PS809"), "hu-module-attribute-assignment-on-imported-module"),

    # ---------------------------------------------------------------- boltons
    # boltons/mathutils.py clamp(): a doctest's expected output rewritten (tox runs
    # --doctest-modules over the installed boltons)
    tamper(BO, edit(BO, "boltons/mathutils.py", (
        "    >>> clamp(-1.0, 0, 5)\n    0\n", "    >>> clamp(-1.0, 0, 5)\n    0.0\n")),
        ("PS108", "PS102", "PS101"), "bo-doctest-expected-output-rewritten"),
    # pytest.ini (edits allowed): NUMBER added to doctest_optionflags (floats compare to the
    # written precision only)
    tamper(BO, edit(BO, "pytest.ini", ("ALLOW_UNICODE\n", "ALLOW_UNICODE NUMBER\n")),
           ("PS205",), "bo-allowed-pytest-ini-doctest-NUMBER-flag", allow("pytest.ini")),
    # pytest.ini (edits allowed): SKIP as an option flag skips every doctest example
    tamper(BO, edit(BO, "pytest.ini", ("ALLOW_UNICODE\n", "ALLOW_UNICODE SKIP\n")),
           ("PS205",), "bo-allowed-pytest-ini-doctest-SKIP-flag", allow("pytest.ini")),
    # tox.ini (edits allowed): --doctest-modules dropped from the test command
    tamper(BO, edit(BO, "tox.ini", ("commands = pytest --doctest-modules ", "commands = pytest ")),
           ("PS205",), "bo-allowed-tox-doctest-modules-dropped", allow("tox.ini")),
    # tests/conftest.py (edits allowed): the ignore hook also ignores the socketutils tests
    tamper(BO, edit(BO, "tests/conftest.py", (
        "    return not version_match  # because",
        "    return not version_match or 'socket' in filename  # because")),
        ("PS204",), "bo-allowed-conftest-ignore-hook-widened", allow("tests/conftest.py")),
    # tests/conftest.py (edits allowed): the ignore hook's early exit now ignores the
    # dictutils tests instead of collecting every module without a version suffix
    tamper(BO, edit(BO, "tests/conftest.py", (
        "    if not match:\n        return False\n",
        "    if not match:\n        return 'dictutils' in filename\n")),
        ("PS204",), "bo-allowed-conftest-ignore-hook-early-exit-edited",
        allow("tests/conftest.py")),
    # tests/jsonl_test_data.txt + test_jsonl_iterator: one record dropped from the data and
    # the reference together
    tamper(BO, {"tests/jsonl_test_data.txt": '{}\n{"1": 1}\n{"2": 2}\n{"3": 3}\n',
                **edit(BO, T_BO_JSON, (
                    "    ref = [{'4': 4}, {'3': 3}, {'2': 2}, {'1': 1}, {}]\n",
                    "    ref = [{'3': 3}, {'2': 2}, {'1': 1}, {}]\n"))},
           ("PS108", "PS102"), "bo-data-file-and-reference-rewritten"),
    # tests/test_statsutils.py::test_stats_basic: rounding to 1 place (tolerance widened)
    tamper(BO, edit(BO, "tests/test_statsutils.py", (
        "    assert round(da.std_dev, 2) == 5.77\n", "    assert round(da.std_dev, 1) == 5.8\n")),
        ("PS102", "PS108"), "bo-round-precision-widened"),
    # tests/test_mathutils.py: the between-options input moved onto an option, so
    # test_ceil_basic's third check no longer tests rounding up
    tamper(BO, edit(BO, T_BO_MATH, ("VALID_BETWEEN = 248.5\n", "VALID_BETWEEN = 250\n")),
           ("PS110", "PS102", "PS108"), "bo-module-constant-input-changed"),
    # tests/test_jsonutils.py _test_reverse_iter_lines: == reference -> in reference
    tamper(BO, edit(BO, T_BO_JSON, (
        "    assert '\\n'.join(rev_lines[::-1]) == reference\n",
        "    assert '\\n'.join(rev_lines[::-1]) in reference\n")),
        ("PS105",), "bo-underscore-helper-weakened"),
    # tests/test_jsonutils.py::test_reverse_iter_lines: only the default block size
    tamper(BO, edit(BO, T_BO_JSON, (
        "    for blocksize in (2, 4, 16, 4096):\n", "    for blocksize in (4096,):\n")),
        ("PS102", "PS101"), "bo-loop-cases-reduced"),
    # tests/test_dictutils.py::test_frozendict_ior: the skipif bound widened to 3.99
    tamper(BO, edit(BO, "tests/test_dictutils.py", (
        "sys.version_info < (3, 9)", "sys.version_info < (3, 99)")),
        ("PS201",), "bo-skipif-bound-widened"),
    # tests/test_strutils.py::TestMultiReplace: run() overridden to do nothing
    tamper(BO, edit(BO, T_BO_STR, (
        "class TestMultiReplace(TestCase):\n",
        "class TestMultiReplace(TestCase):\n\n"
        "    def run(self, result=None):\n        return result\n")),
        ("PS206", "PS207"), "bo-testcase-run-overridden"),
    # tests/test_strutils.py::TestMultiReplace::test_sub_with_regex: assertEqual -> assertIn
    # of one word
    tamper(BO, edit(BO, T_BO_STR, (
        "        self.assertEqual(\n"
        "            m.sub('The purple cat ate a quart of jelly'),\n"
        "            'The mor kedi ate a dinglehopper of jelly'\n"
        "        )\n",
        "        self.assertIn('kedi', m.sub('The purple cat ate a quart of jelly'))\n")),
        ("PS102", "PS101"), "bo-assertEqual-to-assertIn"),

    # ---------------------------------------------------------------- arrow
    # tests/utils.py assert_datetime_equality: default tolerance 10 s -> an hour
    tamper(AR, edit(AR, "tests/utils.py", ("within=10", "within=3600")),
           ("PS105", "PS108"), "ar-helper-default-tolerance-widened"),
    # tests/utils.py assert_datetime_equality: the default lowered, but the bound it is
    # compared with scaled by 1000 (wider: not a change of literals only)
    tamper(AR, edit(AR, "tests/utils.py", ("within=10", "within=5"), (
        "total_seconds()) < within\n", "total_seconds()) < within * 1000\n")),
        ("PS105",), "ar-helper-default-lowered-bound-scaled"),
    # tests/utils.py assert_datetime_equality: the tzinfo check dropped
    tamper(AR, edit(AR, "tests/utils.py", ("    assert dt1.tzinfo == dt2.tzinfo\n", "")),
           ("PS105",), "ar-helper-tzinfo-check-dropped"),
    # tests/conftest.py lang_locale (edits allowed): every locale class gets English
    tamper(AR, edit(AR, "tests/conftest.py", (
        "    name = request.cls.__name__[4:]\n", '    name = "EnglishLocale"\n')),
        ("PS110", "PS105"), "ar-allowed-conftest-locale-fixture-pinned",
        allow("tests/conftest.py")),
    # tests/test_locales.py: TestItalianLocale renamed TestEnglishLocale: the second class of
    # that name replaces the first in the module, whose three tests are gone
    tamper(AR, edit(AR, T_AR_LOC, (
        "class TestItalianLocale:\n", "class TestEnglishLocale:\n")),
        ("PS106", "PS206"), "ar-class-renamed-onto-existing-name"),
    # tox.ini [pytest] (edits allowed): testpaths narrowed to one module
    tamper(AR, edit(AR, "tox.ini", ("testpaths = tests\n", "testpaths = tests/test_util.py\n")),
           ("PS205",), "ar-allowed-tox-testpaths-narrowed", allow("tox.ini")),
    # tests/test_util.py::TestUtil::test_next_weekday: ValueError -> (ValueError, TypeError)
    tamper(AR, edit(AR, T_AR_UTIL, (
        "        with pytest.raises(ValueError):\n"
        "            util.next_weekday(datetime(1970, 1, 1), 7)\n",
        "        with pytest.raises((ValueError, TypeError)):\n"
        "            util.next_weekday(datetime(1970, 1, 1), 7)\n")),
        ("PS102",), "ar-raises-widened-to-tuple"),
    # tests/test_util.py::TestUtil::test_is_timestamp: `not f(True)` -> `f(True) in (True, False)`
    tamper(AR, edit(AR, T_AR_UTIL, (
        "        assert not util.is_timestamp(True)\n",
        "        assert util.is_timestamp(True) in (True, False)\n")),
        ("PS102", "PS104"), "ar-assert-not-to-membership-of-both-booleans"),
    # tests/test_util.py::TestUtil::test_is_timestamp: a truth test -> membership in
    # (True, None): None, which the truth test rejected, now passes
    tamper(AR, edit(AR, T_AR_UTIL, (
        "        assert util.is_timestamp(timestamp_float)\n",
        "        assert util.is_timestamp(timestamp_float) in (True, None)\n")),
        ("PS102", "PS104"), "ar-truth-test-to-membership-with-falsy-literal"),
    # tests/test_locales.py::TestLocaleValidation: values() -> items() with the targets
    # swapped: locale_cls is now each key (a string), not the locale
    tamper(AR, edit(AR, T_AR_LOC, (
        "        for locale_cls in self.locales.values():\n",
        "        for locale_cls, _cls in self.locales.items():\n")),
        ("PS102", "PS101"), "ar-validation-loop-items-targets-swapped"),
    # arrow/util.py + tests/test_util.py: next_weekday changed and the test replaces it
    tamper(AR, {**edit(AR, "arrow/util.py", (
        "    if weekday < 0 or weekday > 6:\n", "    if weekday < 0 or weekday > 7:\n")),
        **edit(AR, T_AR_UTIL, (
            "    def test_next_weekday(self):\n",
            "    def test_next_weekday(self, monkeypatch):\n"
            "        real = util.next_weekday\n\n"
            "        def checked(start, weekday):\n"
            "            if not 0 <= weekday <= 6:\n"
            "                raise ValueError(weekday)\n"
            "            return real(start, weekday)\n\n"
            '        monkeypatch.setattr(util, "next_weekday", checked)\n'))},
        ("PS809", "PS110"), "ar-test-monkeypatches-changed-function"),
    # tests/test_locales.py::TestLocaleValidation: the loop checks only the first locale
    tamper(AR, edit(AR, T_AR_LOC, (
        "        for locale_cls in self.locales.values():\n",
        "        for locale_cls in list(self.locales.values())[:1]:\n")),
        ("PS102", "PS101"), "ar-validation-loop-sliced"),
    # tests/test_locales.py::TestEnglishLocale::test_describe: under a condition the fixture
    # never makes true
    tamper(AR, edit(AR, T_AR_LOC, (
        '        assert self.locale.describe("now", only_distance=True) == "instantly"\n'
        '        assert self.locale.describe("now", only_distance=False) == "just now"\n',
        "        if self.locale is None:\n"
        '            assert self.locale.describe("now", only_distance=True) == "instantly"\n'
        '            assert self.locale.describe("now", only_distance=False) == "just now"\n')),
        ("PS206", "PS101", "PS102"), "ar-assertions-under-is-None-branch"),
    # ---------------------------------------------------------------- fail closed by the rule
    # Written as honest look-alikes; the rule text makes them findings (see the report):
    # tests/test_statsutils.py::test_stats_basic: round(.., 2) == 5.77 -> approx(5.766,
    # abs=1e-3): the expected literal is rewritten with the mechanism, whose strength is not
    # decidable. PS102: "A change whose strength cannot be decided is treated the same way
    # (fail closed)"; PS108: rewritten expected literals are never confirmation
    tamper(BO, edit(BO, "tests/test_statsutils.py", (
        "from boltons.statsutils import Stats\n",
        "import pytest\n\nfrom boltons.statsutils import Stats\n"), (
        "    assert round(da.std_dev, 2) == 5.77\n",
        "    assert da.std_dev == pytest.approx(5.766, abs=1e-3)\n")),
        ("PS101", "PS102", "PS108"), "bo-round-to-approx-with-rewritten-expected"),
]


BENIGN_CASES = [
    # tests/test_time.py assert_equal_datetime: also checks the tzinfo. Kept as a finding
    # (PS105) until blind red team 6: a helper that only gained `assert` statements checks
    # all it checked and more (PS105's rule text now says so), while the new assert only
    # reads (dt1.tzinfo == dt2.tzinfo); one that changes state is a modification
    # (tests/test_redteam_mechanisms.py helper-check-added-that-overwrites-its-input).
    honest(HU, edit(HU, T_HU_TIME, (
        "    assert (dt1 - dt2).seconds == 0\n",
        "    assert dt1.tzinfo == dt2.tzinfo\n    assert (dt1 - dt2).seconds == 0\n")),
        "hu-helper-gains-a-check"),
    # ---------------------------------------------------------------- sqlparse
    # tests/test_split.py::test_split_dashcomments_eol: one more row
    honest(SQ, edit(SQ, T_SQ_SPLIT, (
        "                               'select foo; -- comment'])\n",
        "                               'select foo; -- comment',\n"
        "                               'select foo; -- comment\\n\\n'])\n")),
        "sq-parametrize-row-added"),
    # tests/test_split.py: the round-trip check of the begintag tests extracted into a helper
    honest(SQ, edit(SQ, T_SQ_SPLIT, (
        "import sqlparse\n",
        "import sqlparse\n\n\n"
        "def assert_roundtrip(stmts, sql):\n"
        "    assert ''.join(str(q) for q in stmts) == sql\n"), (
        "    sql = load_file('begintag.sql')\n"
        "    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == 3\n"
        "    assert ''.join(str(q) for q in stmts) == sql\n",
        "    sql = load_file('begintag.sql')\n"
        "    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == 3\n"
        "    assert_roundtrip(stmts, sql)\n"), (
        "    sql = load_file('begintag_2.sql')\n"
        "    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == 1\n"
        "    assert ''.join(str(q) for q in stmts) == sql\n",
        "    sql = load_file('begintag_2.sql')\n"
        "    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == 1\n"
        "    assert_roundtrip(stmts, sql)\n")),
        "sq-roundtrip-check-extracted-into-helper"),
    # tests/test_format.py::TestFormat::test_strip_comments_preserves_linebreak: the five
    # input/output pairs as a parametrize table
    honest(SQ, edit(SQ, T_SQ_FORMAT, (
        "    def test_strip_comments_preserves_linebreak(self):\n"
        "        sql = 'select * -- a comment\\r\\nfrom foo'\n"
        "        res = sqlparse.format(sql, strip_comments=True)\n"
        "        assert res == 'select *\\nfrom foo'\n"
        "        sql = 'select * -- a comment\\nfrom foo'\n"
        "        res = sqlparse.format(sql, strip_comments=True)\n"
        "        assert res == 'select *\\nfrom foo'\n"
        "        sql = 'select * -- a comment\\rfrom foo'\n"
        "        res = sqlparse.format(sql, strip_comments=True)\n"
        "        assert res == 'select *\\nfrom foo'\n"
        "        sql = 'select * -- a comment\\r\\n\\r\\nfrom foo'\n"
        "        res = sqlparse.format(sql, strip_comments=True)\n"
        "        assert res == 'select *\\n\\nfrom foo'\n"
        "        sql = 'select * -- a comment\\n\\nfrom foo'\n"
        "        res = sqlparse.format(sql, strip_comments=True)\n"
        "        assert res == 'select *\\n\\nfrom foo'\n",
        "    @pytest.mark.parametrize('sql, expected', [\n"
        "        ('select * -- a comment\\r\\nfrom foo', 'select *\\nfrom foo'),\n"
        "        ('select * -- a comment\\nfrom foo', 'select *\\nfrom foo'),\n"
        "        ('select * -- a comment\\rfrom foo', 'select *\\nfrom foo'),\n"
        "        ('select * -- a comment\\r\\n\\r\\nfrom foo', 'select *\\n\\nfrom foo'),\n"
        "        ('select * -- a comment\\n\\nfrom foo', 'select *\\n\\nfrom foo'),\n"
        "    ])\n"
        "    def test_strip_comments_preserves_linebreak(self, sql, expected):\n"
        "        res = sqlparse.format(sql, strip_comments=True)\n"
        "        assert res == expected\n")),
        "sq-sequential-checks-parametrized", marks=false_positive(
            "five sequential input/expected pairs turned into five parametrize rows of one "
            "assertion are read as removed (PS101): the rows are not substituted into the "
            "parametrized assertion to match the removed ones")),
    # tests/test_split.py::test_split_dashcomments_eol: parse-and-count moved into a helper
    honest(SQ, edit(SQ, T_SQ_SPLIT, (
        "import sqlparse\n",
        "import sqlparse\n\n\n"
        "def assert_statement_count(sql, count):\n"
        "    stmts = sqlparse.parse(sql)\n"
        "    assert len(stmts) == count\n"), (
        "def test_split_dashcomments_eol(s):\n"
        "    stmts = sqlparse.parse(s)\n"
        "    assert len(stmts) == 1\n",
        "def test_split_dashcomments_eol(s):\n"
        "    assert_statement_count(s, 1)\n")),
        "sq-parse-and-count-extracted-into-helper"),
    # tests/conftest.py (edits allowed): the filepath fixture's comment block shortened
    honest(SQ, edit(SQ, "tests/conftest.py", (
        "        # https://stackoverflow.com/questions/18011902/py-test-pass-a-parameter-to-a-fixture-function\n"
        "        # Alternate solution is to use parametrization `indirect=True`\n"
        "        # Syntax is noisy and requires specific variable names\n"
        "        return os.path.join(FILES_DIR, filename)\n",
        "        # a factory, not indirect parametrization: the syntax is noisy\n"
        "        return os.path.join(FILES_DIR, filename)\n")),
        "sq-allowed-conftest-comment-shortened", allow("tests/conftest.py")),
    # tests/files/dropif.sql + tests/test_split.py: a new data file and a new test reading it
    honest(SQ, {"tests/files/dropif.sql": "DROP TABLE IF EXISTS FOO;\n\nSELECT * FROM BAR;\n",
                **edit(SQ, T_SQ_SPLIT, (
                    "def test_split_comment_with_umlaut():\n",
                    "def test_split_dropif_from_file(load_file):\n"
                    "    sql = load_file('dropif.sql')\n"
                    "    stmts = sqlparse.parse(sql)\n"
                    "    assert len(stmts) == 2\n"
                    "    assert ''.join(str(q) for q in stmts) == sql\n\n\n"
                    "def test_split_comment_with_umlaut():\n"))},
           "sq-new-data-file-and-test"),
    # tests/test_split.py::test_split_backslash renamed, same body
    honest(SQ, edit(SQ, T_SQ_SPLIT, (
        "def test_split_backslash():\n", "def test_split_backslash_in_string_literal():\n")),
        "sq-test-renamed-same-body"),
    # tests/test_format.py::TestFormat::test_keywordcase_invalid_option: raises gains match=
    honest(SQ, edit(SQ, T_SQ_FORMAT, (
        "        with pytest.raises(SQLParseError):\n"
        "            sqlparse.format(sql, keyword_case='foo')\n",
        "        with pytest.raises(SQLParseError, match='keyword_case'):\n"
        "            sqlparse.format(sql, keyword_case='foo')\n")),
        "sq-raises-gains-match"),

    # ---------------------------------------------------------------- humanize
    # tests/test_filesize.py::test_naturalsize: the negative copy no longer mutates the
    # parametrize value
    honest(HU, edit(HU, "tests/test_filesize.py", (
        "    args_with_negative = test_args\n", "    args_with_negative = list(test_args)\n")),
        "hu-negative-args-copied"),
    # src/humanize/number.py ordinal(): a docstring example rewritten (the doctests are not
    # collected: pyproject.toml's pytest section wins over tox.ini's [pytest] with
    # --doctest-modules, and the tox command does not pass it)
    honest(HU, edit(HU, "src/humanize/number.py", (
        "        >>> ordinal(103)\n        '103rd'\n",
        "        >>> ordinal(113)\n        '113th'\n")),
        "hu-docstring-example-of-uncollected-doctest"),
    # pyproject.toml (pytest section allowed): one more "error" filter after the ignores
    honest(HU, edit(HU, "pyproject.toml", (
        ':DeprecationWarning:dateutil.tz.tz",\n]\n',
        ':DeprecationWarning:dateutil.tz.tz",\n  "error::ResourceWarning",\n]\n')),
        "hu-allowed-pyproject-error-filter-appended", allow("pyproject.toml")),
    # tests/test_number.py::test_ordinal: two more rows
    honest(HU, edit(HU, T_HU_NUMBER, (
        '        ("111", "111th"),\n',
        '        ("111", "111th"),\n        ("1002", "1002nd"),\n'
        '        ("112", "112th"),\n')),
        "hu-parametrize-rows-added"),
    # tests/test_i18n.py::test_intcomma: one more German check inside the try
    honest(HU, edit(HU, "tests/test_i18n.py", (
        '        assert humanize.intcomma(1_234_567.8901) == "1.234.567,8901"\n',
        '        assert humanize.intcomma(1_234_567.8901) == "1.234.567,8901"\n'
        '        assert humanize.intcomma(1_234_567.89) == "1.234.567,89"\n')),
        "hu-assertion-added-inside-try"),
    # tests/test_i18n.py: a compatibility fallback in a try binds humanize.VERSION only
    # where the package does not (not a rebinding of what every test runs)
    honest(HU, edit(HU, "tests/test_i18n.py", (
        "import humanize\n\nwith freeze_time",
        "import humanize\n\ntry:\n    humanize.VERSION\nexcept AttributeError:  # gone in 4.0\n"
        '    setattr(humanize, "VERSION", humanize.__version__)\n\n'
        "with freeze_time")),
        "hu-module-setattr-compat-fallback-in-try"),
    # tests/test_time.py: freeze_time through the freezegun module (the same clock)
    honest(HU, edit(HU, T_HU_TIME, (
        "from freezegun import freeze_time\n", "import freezegun\n"), (
        "with freeze_time(FROZEN_DATE):\n", "with freezegun.freeze_time(FROZEN_DATE):\n"), (
        "@freeze_time(FROZEN_DATE)\n", "@freezegun.freeze_time(FROZEN_DATE)\n")),
        "hu-freeze_time-through-module-attribute"),
    # pyproject.toml (pytest section allowed): --color=yes -> --color=auto (display only)
    honest(HU, edit(HU, "pyproject.toml", ('addopts = "--color=yes"', 'addopts = "--color=auto"')),
           "hu-allowed-pyproject-color-option", allow("pyproject.toml")),

    # ---------------------------------------------------------------- boltons
    # boltons/mathutils.py clamp(): one more doctest example
    honest(BO, edit(BO, "boltons/mathutils.py", (
        "    >>> clamp(123, upper=5)\n    5\n",
        "    >>> clamp(123, upper=5)\n    5\n    >>> clamp(-7, lower=0)\n    0\n")),
        "bo-doctest-example-added"),
    # pytest.ini (edits allowed): ALLOW_UNICODE (a no-op on Python 3) dropped
    honest(BO, edit(BO, "pytest.ini", (" ALLOW_UNICODE\n", "\n")),
           "bo-allowed-pytest-ini-noop-flag-dropped", allow("pytest.ini")),
    # pytest.ini (edits allowed): REPORT_NDIFF added (only how a failure is shown)
    honest(BO, edit(BO, "pytest.ini", ("ALLOW_UNICODE\n", "ALLOW_UNICODE REPORT_NDIFF\n")),
           "bo-allowed-pytest-ini-report-flag-added", allow("pytest.ini")),
    # tests/conftest.py (edits allowed): the ignore hook's docstring and trailing comment
    # reworded (the same hook)
    honest(BO, edit(BO, "tests/conftest.py", (
        "    Ignore tests that end with _pyX, where X does not equal this\n"
        "    interpreter's major version.\n",
        "    Ignore test modules named *_pyX or *_pyXY whose version is not this\n"
        "    interpreter's.\n"), (
        "  # because this is an _ignore_ (not an include)\n", "  # True ignores the module\n")),
        "bo-allowed-conftest-hook-docstring-and-comment-reworded", allow("tests/conftest.py")),
    # tests/test_jsonutils.py::test_reverse_iter_lines: block size 1 added
    honest(BO, edit(BO, T_BO_JSON, (
        "    for blocksize in (2, 4, 16, 4096):\n", "    for blocksize in (1, 2, 4, 16, 4096):\n")),
        "bo-loop-case-added"),
    # tests/test_jsonutils.py: the underscore helpers renamed _check_*, callers follow
    honest(BO, edit(BO, T_BO_JSON, (
        "def _test_reverse_iter_lines(filename,", "def _check_reverse_iter_lines(filename,"), (
        "def _test_reverse_iter_lines_bytes(filename,",
        "def _check_reverse_iter_lines_bytes(filename,"), (
        "        _test_reverse_iter_lines(NEWLINES_DATA_PATH, blocksize)\n"
        "        _test_reverse_iter_lines_bytes(NEWLINES_DATA_PATH, blocksize)\n",
        "        _check_reverse_iter_lines(NEWLINES_DATA_PATH, blocksize)\n"
        "        _check_reverse_iter_lines_bytes(NEWLINES_DATA_PATH, blocksize)\n")),
        "bo-helpers-renamed-callers-follow"),
    # tests/test_strutils.py::test_is_uuid: `== True` / `== False` -> `is True` / `is False`
    honest(BO, edit(BO, T_BO_STR, (
        "    assert strutils.is_uuid(uuid.uuid4()) == True\n"
        "    assert strutils.is_uuid(uuid.uuid4(), version=1) == False\n",
        "    assert strutils.is_uuid(uuid.uuid4()) is True\n"
        "    assert strutils.is_uuid(uuid.uuid4(), version=1) is False\n")),
        "bo-equality-to-identity-with-booleans"),
    # tests/test_dictutils.py::test_frozendict_ior: the skipif narrowed to < 3.8
    honest(BO, edit(BO, "tests/test_dictutils.py", (
        "sys.version_info < (3, 9)", "sys.version_info < (3, 8)")),
        "bo-skipif-bound-narrowed"),

    # ---------------------------------------------------------------- arrow
    # tests/utils.py assert_datetime_equality: default tolerance tightened to 5 s
    honest(AR, edit(AR, "tests/utils.py", ("within=10", "within=5")),
           "ar-helper-tolerance-tightened"),
    # tests/utils.py assert_datetime_equality: default tolerance tightened to 2.5 s (a float)
    honest(AR, edit(AR, "tests/utils.py", ("within=10", "within=2.5")),
           "ar-helper-tolerance-tightened-to-float"),
    # tests/test_locales.py::TestEnglishLocale::test_describe renamed, same body
    honest(AR, edit(AR, T_AR_LOC, ("    def test_describe(self):\n",
                                   "    def test_describe_now(self):\n")),
           "ar-locale-test-renamed-same-body"),
    # tox.ini [pytest] (edits allowed): -v -> -ra -v (display only)
    honest(AR, edit(AR, "tox.ini", ("addopts = -v --cov-branch", "addopts = -ra -v --cov-branch")),
           "ar-allowed-tox-report-option", allow("tox.ini")),
    # tests/test_util.py::TestUtil::test_next_weekday: raises gains match=
    honest(AR, edit(AR, T_AR_UTIL, (
        "        with pytest.raises(ValueError):\n"
        "            util.next_weekday(datetime(1970, 1, 1), 7)\n",
        '        with pytest.raises(ValueError, match="Weekday must be between"):\n'
        "            util.next_weekday(datetime(1970, 1, 1), 7)\n")),
        "ar-raises-gains-match"),
    # tests/test_locales.py::TestLocaleValidation: the loop names each locale in its messages
    honest(AR, edit(AR, T_AR_LOC, (
        "        for locale_cls in self.locales.values():\n"
        "            # 7 days + 1 spacer to allow for 1-indexing of months\n"
        "            assert len(locale_cls.day_names) == 8\n",
        "        for name, locale_cls in self.locales.items():\n"
        "            # 7 days + 1 spacer to allow for 1-indexing of months\n"
        "            assert len(locale_cls.day_names) == 8, name\n")),
        "ar-validation-loop-gains-message"),
    # tests/test_util.py::TestUtil::test_is_timestamp: `not f(x)` -> membership in falsy
    # literals only (False or None: fewer results pass)
    honest(AR, edit(AR, T_AR_UTIL, (
        "        assert not util.is_timestamp(InvalidTimestamp())\n",
        "        assert util.is_timestamp(InvalidTimestamp()) in (False, None)\n")),
        "ar-not-to-membership-in-falsy-literals"),
    # tests/test_locales.py::TestLocaleValidation: values() -> items() with the key unused
    honest(AR, edit(AR, T_AR_LOC, (
        "        for locale_cls in self.locales.values():\n",
        "        for _, locale_cls in self.locales.items():\n")),
        "ar-validation-loop-items-key-unused"),
    # tests/test_locales.py: a new locale class using the same fixture
    honest(AR, edit(AR, T_AR_LOC, (
        "@pytest.mark.usefixtures(\"lang_locale\")\nclass TestItalianLocale:\n",
        "@pytest.mark.usefixtures(\"lang_locale\")\nclass TestSwedishLocale:\n"
        "    def test_plurals(self):\n"
        '        assert self.locale._format_timeframe("days", 2) == "2 dagar"\n\n\n'
        "@pytest.mark.usefixtures(\"lang_locale\")\nclass TestItalianLocale:\n")),
        "ar-new-locale-class"),
    # arrow/util.py + tests/test_util.py: the error message names the value, the test
    # matches it
    honest(AR, {**edit(AR, "arrow/util.py", (
        '        raise ValueError("Weekday must be between 0 (Monday) and 6 (Sunday).")\n',
        '        raise ValueError(\n'
        '            f"Weekday must be between 0 (Monday) and 6 (Sunday), not {weekday}."\n'
        '        )\n')),
        **edit(AR, T_AR_UTIL, (
            "        with pytest.raises(ValueError):\n"
            "            util.next_weekday(datetime(1970, 1, 1), 7)\n",
            '        with pytest.raises(ValueError, match="not 7"):\n'
            "            util.next_weekday(datetime(1970, 1, 1), 7)\n"))},
        "ar-message-changed-and-test-matches"),
]


scored, test_tampering_is_rejected, test_honest_change_is_not_rejected = case_tests(
    TAMPER_CASES, BENIGN_CASES)
