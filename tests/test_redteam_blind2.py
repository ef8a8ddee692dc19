"""Blind red team 2: real test suites of more-itertools, toolz, Jinja2, python-dateutil, tomlkit.

Every base tree is a short, faithful excerpt of the real test modules (and the runner
configuration) of one of these projects, taken from their sdists (``pip download --no-deps
--no-binary :all:``): more-itertools 10.5.0 (unittest: tox runs ``python -m unittest``, and
``tests/test_more.py`` adds ``more_itertools.more``'s doctests through ``load_tests``), toolz
1.0.0 (pytest, no pytest configuration; its tests assert the return of the package's own
``toolz.utils.raises``), Jinja2 3.1.4 (pytest, ``[tool.pytest.ini_options]`` with
``filterwarnings = ["error"]``, fixtures in ``tests/conftest.py``, templates under
``tests/res``), python-dateutil 2.9.0.post0 (``unittest.TestCase`` classes run by pytest,
``setup.cfg`` ``[tool:pytest]`` with ``xfail_strict``, helpers in ``tests/_common.py``) and
tomlkit 0.13.2 (pytest, ``tests/conftest.py`` fixtures reading ``tests/examples`` and a
``pytest_generate_tests`` hook, helpers in ``tests/util.py``). Nothing is run, so the
projects' own imports need not resolve.

The cases were written before the classifier's source was read (blind): each states the rule
codes whose description in DESIGN.md / docs/rules.md fits it. Same harness as
``tests/test_redteam_pytest.py``: a real git repository, the real ``git diff --cached -M``, a
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
    honest,
    miss,
    py,
    tamper,
)

# ============================================================================ more-itertools 10.5.0

# tox.ini (whole file): the suite runs under unittest discovery
MI_TOX = py('''
    [tox]
    envlist = py{38,39,310,311,312}
    isolated_build = True

    [testenv]
    commands = {envpython} -m unittest -v {posargs}
    ''')

# pyproject.toml (build system and the start of [project])
MI_PYPROJECT = py('''
    [build-system]
    requires = ["flit_core >=3.2,<4"]
    build-backend = "flit_core.buildapi"

    [project]
    name = "more-itertools"
    authors = [{name = "Erik Rose", email = "erikrose@grinchcentral.com"}]
    readme = "README.rst"
    requires-python = ">=3.8"
    ''')

# more_itertools/__init__.py (whole file, recipes import dropped)
MI_INIT = py('''
    """More routines for operating on iterables, beyond itertools"""

    from .more import *  # noqa

    __version__ = '10.5.0'
    ''')

# more_itertools/more.py (first() and last() with their doctests, which load_tests runs)
MI_MORE = py('''
    import math
    import warnings

    from collections import Counter, defaultdict, deque, abc
    from collections.abc import Sequence
    from sys import hexversion, maxsize

    _marker = object()

    __all__ = ['first', 'last']


    def first(iterable, default=_marker):
        """Return the first item of *iterable*, or *default* if *iterable* is
        empty.

            >>> first([0, 1, 2, 3])
            0
            >>> first([], 'some default')
            'some default'

        If *default* is not provided and there are no items in the iterable,
        raise ``ValueError``.

        :func:`first` is useful when you have a generator of expensive-to-retrieve
        values and want any arbitrary one. It is marginally shorter than
        ``next(iter(iterable), default)``.

        """
        for item in iterable:
            return item
        if default is _marker:
            raise ValueError(
                'first() was called on an empty iterable, and no '
                'default value was provided.'
            )
        return default


    def last(iterable, default=_marker):
        """Return the last item of *iterable*, or *default* if *iterable* is
        empty.

            >>> last([0, 1, 2, 3])
            3
            >>> last([], 'some default')
            'some default'

        If *default* is not provided and there are no items in the iterable,
        raise ``ValueError``.
        """
        try:
            if isinstance(iterable, Sequence):
                return iterable[-1]
            # Work around https://bugs.python.org/issue38525
            elif hasattr(iterable, '__reversed__') and (hexversion != 0x030800F0):
                return next(reversed(iterable))
            else:
                return deque(iterable, maxlen=1)[-1]
        except (IndexError, TypeError, StopIteration):
            if default is _marker:
                raise ValueError(
                    'last() was called on an empty iterable, and no default was '
                    'provided.'
                )
            return default
    ''')

# tests/test_more.py (imports, load_tests, ChunkedTests, FirstTests, LastTests, the peekable
# mixin, MinMaxTests, OneTests, WindowedTests; other classes dropped)
MI_TEST_MORE = py("""
    import cmath
    import warnings

    from collections import Counter, abc
    from collections.abc import Set
    from doctest import DocTestSuite
    from functools import partial, reduce
    from io import StringIO
    from itertools import count, islice
    from sys import version_info
    from traceback import format_exc
    from unittest import skipIf, TestCase

    import more_itertools as mi


    def load_tests(loader, tests, ignore):
        # Add the doctests
        tests.addTests(DocTestSuite('more_itertools.more'))
        return tests


    class ChunkedTests(TestCase):
        \"\"\"Tests for ``chunked()``\"\"\"

        def test_even(self):
            \"\"\"Test when ``n`` divides evenly into the length of the iterable.\"\"\"
            self.assertEqual(
                list(mi.chunked('ABCDEF', 3)), [['A', 'B', 'C'], ['D', 'E', 'F']]
            )

        def test_strict_being_true(self):
            \"\"\"Test when ``n`` does not divide evenly into the length of the
            iterable and strict is True (raising an exception).

            \"\"\"

            def f():
                return list(mi.chunked('ABCDE', 3, strict=True))

            self.assertRaisesRegex(ValueError, "iterable is not divisible by n", f)
            self.assertEqual(
                list(mi.chunked('ABCDEF', 3, strict=True)),
                [['A', 'B', 'C'], ['D', 'E', 'F']],
            )


    class FirstTests(TestCase):
        def test_many(self):
            # Also try it on a generator expression to make sure it works on
            # whatever those return, across Python versions.
            self.assertEqual(mi.first(x for x in range(4)), 0)

        def test_one(self):
            self.assertEqual(mi.first([3]), 3)

        def test_empty(self):
            with self.assertRaises(ValueError):
                mi.first([])

        def test_default(self):
            self.assertEqual(mi.first([], 'boo'), 'boo')


    class LastTests(TestCase):
        def test_basic(self):
            cases = [
                (range(4), 3),
                (iter(range(4)), 3),
                (range(1), 0),
                (iter(range(1)), 0),
                ({n: str(n) for n in range(5)}, 4),
                ({0: '0', -1: '-1', 2: '-2'}, 2),
            ]

            for iterable, expected in cases:
                with self.subTest(iterable=iterable):
                    self.assertEqual(mi.last(iterable), expected)

        def test_empty(self):
            for iterable in ([], iter(range(0))):
                with self.subTest(iterable=iterable):
                    with self.assertRaises(ValueError):
                        mi.last(iterable)


    class PeekableMixinTests:
        \"\"\"Common tests for ``peekable()`` and ``seekable()`` behavior\"\"\"

        cls = None

        def test_passthrough(self):
            \"\"\"Iterating a peekable without using ``peek()`` or ``prepend()``
            should just give the underlying iterable's elements (a trivial test but
            useful to set a baseline in case something goes wrong)\"\"\"
            expected = [1, 2, 3, 4, 5]
            actual = list(self.cls(expected))
            self.assertEqual(actual, expected)

        def test_peek_default(self):
            \"\"\"Make sure passing a default into ``peek()`` works.\"\"\"
            p = self.cls([])
            self.assertEqual(p.peek(7), 7)


    class PeekableTests(PeekableMixinTests, TestCase):
        cls = mi.peekable


    class MinMaxTests(TestCase):
        def test_unpacked(self):
            self.assertTupleEqual(mi.minmax(2, 3, 1), (1, 3))
            self.assertTupleEqual(mi.minmax(12, 3, 4, key=str), (12, 4))

        def test_default(self):
            with self.assertRaises(ValueError):
                mi.minmax([])

            self.assertIs(mi.minmax([], default=None), None)
            self.assertListEqual(mi.minmax([], default=[1, 'a']), [1, 'a'])


    class OneTests(TestCase):
        def test_basic(self):
            it = iter(['item'])
            self.assertEqual(mi.one(it), 'item')

        def test_too_long(self):
            it = count()
            self.assertRaises(ValueError, lambda: mi.one(it))  # burn 0 and 1
            self.assertEqual(next(it), 2)
            self.assertRaises(
                OverflowError, lambda: mi.one(it, too_long=OverflowError)
            )


    class WindowedTests(TestCase):
        def test_basic(self):
            iterable = [1, 2, 3, 4, 5]

            for n, expected in (
                (6, [(1, 2, 3, 4, 5, None)]),
                (5, [(1, 2, 3, 4, 5)]),
                (4, [(1, 2, 3, 4), (2, 3, 4, 5)]),
                (3, [(1, 2, 3), (2, 3, 4), (3, 4, 5)]),
                (2, [(1, 2), (2, 3), (3, 4), (4, 5)]),
                (1, [(1,), (2,), (3,), (4,), (5,)]),
                (0, [()]),
            ):
                with self.subTest(n=n):
                    actual = list(mi.windowed(iterable, n))
                    self.assertEqual(actual, expected)

        def test_invalid_step(self):
            # Step must be greater than or equal to 1
            with self.assertRaises(ValueError):
                list(mi.windowed([1, 2, 3, 4, 5], 3, step=0))
    """)

MI: dict[str, str | bytes | None] = {
    "tox.ini": MI_TOX, "pyproject.toml": MI_PYPROJECT, "more_itertools/__init__.py": MI_INIT,
    "more_itertools/more.py": MI_MORE, "tests/__init__.py": "",
    "tests/test_more.py": MI_TEST_MORE,
}
T_MI = "tests/test_more.py"


# ============================================================================ toolz 1.0.0

# setup.cfg (whole file; toolz has no pytest configuration)
TZ_SETUP_CFG = py('''
    [versioneer]
    vcs = git
    style = pep440
    versionfile_source = toolz/_version.py
    versionfile_build = toolz/_version.py
    tag_prefix =
    parentdir_prefix = toolz-

    [coverage:run]
    source = toolz
    omit =
    \ttoolz/tests/test*
    \ttoolz/*/tests/test*
    \ttoolz/compatibility.py
    \ttoolz/_version.py

    [coverage:report]
    exclude_lines =
    \tpragma: no cover
    ''')

# toolz/utils.py (whole file): the package's own exception check, whose return value the
# tests assert
TZ_UTILS = py('''
    def raises(err, lamda):
        try:
            lamda()
            return False
        except err:
            return True


    no_default = '__no__default__'
    ''')

# toolz/tests/test_itertoolz.py (imports trimmed; the first(), nth(), get(), sliding_window()
# and partition() tests)
TZ_TEST_ITER = py('''
    import itertools
    from itertools import starmap
    from toolz.utils import raises
    from functools import partial
    from random import Random
    from pickle import dumps, loads
    from toolz.itertoolz import (remove, groupby, merge_sorted,
                                 concat, concatv, interleave, unique,
                                 isiterable, getter,
                                 mapcat, isdistinct, first, second,
                                 nth, take, tail, drop, interpose, get,
                                 rest, last, cons, frequencies,
                                 reduceby, iterate, accumulate,
                                 sliding_window, count, partition,
                                 partition_all, take_nth, pluck, join,
                                 diff, topk, peek, peekn, random_sample)
    from operator import add, mul


    # is comparison will fail between this and no_default
    no_default2 = loads(dumps('__no__default__'))


    def identity(x):
        return x


    def iseven(x):
        return x % 2 == 0


    def test_nth():
        assert nth(2, 'ABCDE') == 'C'
        assert nth(2, iter('ABCDE')) == 'C'
        assert nth(1, (3, 2, 1)) == 2
        assert nth(0, {'foo': 'bar'}) == 'foo'
        assert raises(StopIteration, lambda: nth(10, {10: 'foo'}))
        assert nth(-2, 'ABCDE') == 'D'
        assert raises(ValueError, lambda: nth(-2, iter('ABCDE')))


    def test_first():
        assert first('ABCDE') == 'A'
        assert first((3, 2, 1)) == 3
        assert isinstance(first({0: 'zero', 1: 'one'}), int)


    def test_get():
        assert get(1, 'ABCDE') == 'B'
        assert list(get([1, 3], 'ABCDE')) == list('BD')
        assert get('a', {'a': 1, 'b': 2, 'c': 3}) == 1
        assert get(['a', 'b'], {'a': 1, 'b': 2, 'c': 3}) == (1, 2)

        assert get('foo', {}, default='bar') == 'bar'
        assert get({}, [1, 2, 3], default='bar') == 'bar'
        assert get([0, 2], 'AB', 'C') == ('A', 'C')

        assert get([0], 'AB') == ('A',)
        assert get([], 'AB') == ()

        assert raises(IndexError, lambda: get(10, 'ABC'))
        assert raises(KeyError, lambda: get(10, {'a': 1}))
        assert raises(TypeError, lambda: get({}, [1, 2, 3]))
        assert raises(TypeError, lambda: get([1, 2, 3], 1, None))
        assert raises(KeyError, lambda: get('foo', {}, default=no_default2))


    def test_sliding_window():
        assert list(sliding_window(2, [1, 2, 3, 4])) == [(1, 2), (2, 3), (3, 4)]
        assert list(sliding_window(3, [1, 2, 3, 4])) == [(1, 2, 3), (2, 3, 4)]


    def test_sliding_window_of_short_iterator():
        assert list(sliding_window(3, [1, 2])) == []
        assert list(sliding_window(7, [1, 2])) == []


    def test_partition():
        assert list(partition(2, [1, 2, 3, 4])) == [(1, 2), (3, 4)]
        assert list(partition(3, range(7))) == [(0, 1, 2), (3, 4, 5)]
        assert list(partition(3, range(4), pad=-1)) == [(0, 1, 2),
                                                        (3, -1, -1)]
        assert list(partition(2, [])) == []
    ''')

# toolz/tests/test_dicttoolz.py (TestDict's first tests and the classes that rerun them with
# other mappings)
TZ_TEST_DICT = py('''
    from collections import defaultdict as _defaultdict
    from collections.abc import Mapping
    import os
    from toolz.dicttoolz import (merge, merge_with, valmap, keymap, update_in,
                                 assoc, dissoc, keyfilter, valfilter, itemmap,
                                 itemfilter, assoc_in)
    from toolz.functoolz import identity
    from toolz.utils import raises


    def inc(x):
        return x + 1


    class TestDict(object):
        """Test typical usage: dict inputs, no factory keyword.

        Class attributes:
            D: callable that inputs a dict and creates or returns a MutableMapping
            kw: kwargs dict to specify "factory" keyword (if applicable)
        """
        D = dict
        kw = {}

        def test_merge(self):
            D, kw = self.D, self.kw
            assert merge(D({1: 1, 2: 2}), D({3: 4}), **kw) == D({1: 1, 2: 2, 3: 4})

        def test_valmap(self):
            D, kw = self.D, self.kw
            assert valmap(inc, D({1: 1, 2: 2}), **kw) == D({1: 2, 2: 3})


    class defaultdict(_defaultdict):
        def __eq__(self, other):
            return (super(defaultdict, self).__eq__(other) and
                    isinstance(other, _defaultdict) and
                    self.default_factory == other.default_factory)


    class TestDefaultDict(TestDict):
        """Test defaultdict as input and factory

        Class attributes:
            D: callable that inputs a dict and creates or returns a MutableMapping
            kw: kwargs dict to specify "factory" keyword (if applicable)
        """
        @staticmethod
        def D(dict_):
            return defaultdict(int, dict_)

        kw = {'factory': lambda: defaultdict(int)}


    class CustomMapping(object):
        """Define methods of the MutableMapping protocol required by dicttoolz"""
        def __init__(self, *args, **kwargs):
            self._d = dict(*args, **kwargs)

        def __getitem__(self, key):
            return self._d[key]

        def __eq__(self, other):
            return isinstance(other, CustomMapping) and self._d == other._d


    class TestCustomMapping(TestDict):
        """Test CustomMapping as input and factory

        Class attributes:
            D: callable that inputs a dict and creates or returns a MutableMapping
            kw: kwargs dict to specify "factory" keyword (if applicable)
        """
        D = CustomMapping
        kw = {'factory': lambda: CustomMapping()}
    ''')

TZ: dict[str, str | bytes | None] = {
    "setup.cfg": TZ_SETUP_CFG, "toolz/__init__.py": '"""List processing utilities."""\n',
    "toolz/utils.py": TZ_UTILS, "toolz/tests/test_itertoolz.py": TZ_TEST_ITER,
    "toolz/tests/test_dicttoolz.py": TZ_TEST_DICT,
}
T_TZ = "toolz/tests/test_itertoolz.py"


# ============================================================================ Jinja2 3.1.4

# pyproject.toml ([project] trimmed, [tool.pytest.ini_options] whole)
JJ_PYPROJECT = py('''
    [project]
    name = "Jinja2"
    description = "A very fast and expressive template engine."
    requires-python = ">=3.7"
    dependencies = ["MarkupSafe>=2.0"]

    [tool.pytest.ini_options]
    testpaths = ["tests"]
    filterwarnings = [
        "error",
    ]
    ''')

# tox.ini ([tox] and [testenv])
JJ_TOX = py('''
    [tox]
    envlist =
        py3{12,11,10,9,8,7}
        pypy310
        style
        typing
        docs
    skip_missing_interpreters = true

    [testenv]
    package = wheel
    wheel_build_env = .pkg
    constrain_package_deps = true
    use_frozen_constraints = true
    deps = -r requirements/tests.txt
    commands = pytest -v --tb=short --basetemp={envtmpdir} {posargs}
    ''')

# tests/conftest.py (whole file but for the function and prefix loaders)
JJ_CONFTEST = py('''
    from pathlib import Path

    import pytest

    from jinja2 import loaders
    from jinja2.environment import Environment


    @pytest.fixture
    def env():
        """returns a new environment."""
        return Environment()


    @pytest.fixture
    def dict_loader():
        """returns DictLoader"""
        return loaders.DictLoader({"justdict.html": "FOO"})


    @pytest.fixture
    def package_loader():
        """returns PackageLoader initialized from templates"""
        return loaders.PackageLoader("res", "templates")


    @pytest.fixture
    def filesystem_loader():
        """returns FileSystemLoader initialized to res/templates directory"""
        here = Path(__file__).parent.resolve()
        return loaders.FileSystemLoader(here / "res" / "templates")


    @pytest.fixture
    def choice_loader(dict_loader, package_loader):
        """returns a ChoiceLoader"""
        return loaders.ChoiceLoader([dict_loader, package_loader])
    ''')

# tests/test_filters.py (imports, the first TestFilter tests)
JJ_TEST_FILTERS = py('''
    import random
    from collections import namedtuple

    import pytest
    from markupsafe import Markup

    from jinja2 import Environment
    from jinja2 import StrictUndefined
    from jinja2 import TemplateRuntimeError
    from jinja2 import UndefinedError
    from jinja2.exceptions import TemplateAssertionError


    class TestFilter:
        def test_filter_calling(self, env):
            rv = env.call_filter("sum", [1, 2, 3])
            assert rv == 6

        def test_capitalize(self, env):
            tmpl = env.from_string('{{ "foo bar"|capitalize }}')
            assert tmpl.render() == "Foo bar"

        def test_center(self, env):
            tmpl = env.from_string('{{ "foo"|center(9) }}')
            assert tmpl.render() == "   foo   "

        @pytest.mark.parametrize(
            "args,expect",
            (
                ("", "[('aa', 0), ('AB', 3), ('b', 1), ('c', 2)]"),
                ("true", "[('AB', 3), ('aa', 0), ('b', 1), ('c', 2)]"),
                ('by="value"', "[('aa', 0), ('b', 1), ('c', 2), ('AB', 3)]"),
                ("reverse=true", "[('c', 2), ('b', 1), ('AB', 3), ('aa', 0)]"),
            ),
        )
        def test_dictsort(self, env, args, expect):
            t = env.from_string(f"{{{{ foo|dictsort({args}) }}}}")
            out = t.render(foo={"aa": 0, "b": 1, "c": 2, "AB": 3})
            assert out == expect

        def test_escape(self, env):
            tmpl = env.from_string("""{{ '<">&'|escape }}""")
            out = tmpl.render()
            assert out == "&lt;&#34;&gt;&amp;"
    ''')

# tests/test_loader.py (imports, the first TestLoaders tests)
JJ_TEST_LOADER = py('''
    import importlib.abc
    import importlib.machinery
    import importlib.util
    import os
    import platform
    import shutil
    import sys
    import tempfile
    import time
    import weakref
    from pathlib import Path

    import pytest

    from jinja2 import Environment
    from jinja2 import loaders
    from jinja2 import PackageLoader
    from jinja2.exceptions import TemplateNotFound
    from jinja2.loaders import split_template_path


    class TestLoaders:
        def test_dict_loader(self, dict_loader):
            env = Environment(loader=dict_loader)
            tmpl = env.get_template("justdict.html")
            assert tmpl.render().strip() == "FOO"
            pytest.raises(TemplateNotFound, env.get_template, "missing.html")

        def test_package_loader(self, package_loader):
            env = Environment(loader=package_loader)
            tmpl = env.get_template("test.html")
            assert tmpl.render().strip() == "BAR"
            pytest.raises(TemplateNotFound, env.get_template, "missing.html")

        def test_choice_loader(self, choice_loader):
            env = Environment(loader=choice_loader)
            tmpl = env.get_template("justdict.html")
            assert tmpl.render().strip() == "FOO"
            tmpl = env.get_template("test.html")
            assert tmpl.render().strip() == "BAR"
            pytest.raises(TemplateNotFound, env.get_template, "missing.html")
    ''')

JJ: dict[str, str | bytes | None] = {
    "pyproject.toml": JJ_PYPROJECT, "tox.ini": JJ_TOX, "tests/conftest.py": JJ_CONFTEST,
    "tests/test_filters.py": JJ_TEST_FILTERS, "tests/test_loader.py": JJ_TEST_LOADER,
    "tests/res/__init__.py": "", "tests/res/templates/test.html": "BAR\n",
    "tests/res/templates/foo/test.html": "FOO\n",
    "src/jinja2/__init__.py": '"""Jinja is a template engine written in pure Python."""\n',
}
JJ_ALLOW_CONFTEST = allow("tests/conftest.py")


# ===================================================================== python-dateutil 2.9.0.post0

# setup.cfg ([metadata] trimmed, [tool:pytest] whole)
DU_SETUP_CFG = py('''
    [bdist_wheel]
    universal = 1

    [metadata]
    name = python-dateutil
    description = Extensions to the standard Python datetime module
    author = Gustavo Niemeyer
    license = Dual License

    [tool:pytest]
    python_files =
    \ttest_*.py
    \t*_test.py
    \t*_solution.py
    xfail_strict = true
    filterwarnings =
    \terror
    \terror::DeprecationWarning
    \terror::PendingDeprecationWarning
    markers =
    \tgettz
    \timport_star
    \tisoparser
    \tparserinfo
    \trrule
    \trruleset
    \trrulestr
    \tsmoke
    \ttz_resolve_imaginary
    \ttzfile
    \ttzlocal
    \ttzoffset
    \ttzstr
    ''')

# tox.ini ([testenv]; the coverage options of its pytest command dropped)
DU_TOX = py('''
    [tox]
    envlist = py38,
              py39,
              py310,
              py311,
              coverage,
              docs
    minversion = 2.9.0
    skip_missing_interpreters = true
    isolated_build = true

    [testenv]
    description = run the unit tests with pytest under {basepython}
    setenv = COVERAGE_FILE={toxworkdir}/.coverage.{envname}
    passenv = DATEUTIL_MAY_CHANGE_TZ TOXENV CI
    commands = python -m pytest {posargs: "{toxinidir}/tests" "{toxinidir}/docs"}
    deps = -rrequirements-dev.txt
    ''')

# tests/conftest.py (whole file)
DU_CONFTEST = py('''
    import os
    import pytest


    # Configure pytest to ignore xfailing tests
    # See: https://stackoverflow.com/a/53198349/467366
    def pytest_collection_modifyitems(items):
        for item in items:
            marker_getter = getattr(item, 'get_closest_marker', None)

            # Python 3.3 support
            if marker_getter is None:
                marker_getter = item.get_marker

            marker = marker_getter('xfail')

            # Need to query the args because conditional xfail tests still have
            # the xfail mark even if they are not expected to fail
            if marker and (not marker.args or marker.args[0]):
                item.add_marker(pytest.mark.no_cover)


    def set_tzpath():
        """
        Sets the TZPATH variable if it's specified in an environment variable.
        """
        tzpath = os.environ.get('DATEUTIL_TZPATH', None)

        if tzpath is None:
            return

        path_components = tzpath.split(':')

        print("Setting TZPATH to {}".format(path_components))

        from dateutil import tz
        tz.TZPATHS.clear()
        tz.TZPATHS.extend(path_components)


    set_tzpath()
    ''')

# tests/_common.py (PicklableMixin, NotAValue, ComparesEqual; the time zone contexts dropped)
DU_COMMON = py('''
    from __future__ import unicode_literals
    import os
    import time
    import subprocess
    import warnings
    import tempfile
    import pickle

    import pytest


    class PicklableMixin(object):
        def _get_nobj_bytes(self, obj, dump_kwargs, load_kwargs):
            """
            Pickle and unpickle an object using ``pickle.dumps`` / ``pickle.loads``
            """
            pkl = pickle.dumps(obj, **dump_kwargs)
            return pickle.loads(pkl, **load_kwargs)

        def _get_nobj_file(self, obj, dump_kwargs, load_kwargs):
            """
            Pickle and unpickle an object using ``pickle.dump`` / ``pickle.load`` on
            a temporary file.
            """
            with tempfile.TemporaryFile('w+b') as pkl:
                pickle.dump(obj, pkl, **dump_kwargs)
                pkl.seek(0)         # Reset the file to the beginning to read it
                nobj = pickle.load(pkl, **load_kwargs)

            return nobj

        def assertPicklable(self, obj, singleton=False, asfile=False,
                            dump_kwargs=None, load_kwargs=None):
            """
            Assert that an object can be pickled and unpickled. This assertion
            assumes that the desired behavior is that the unpickled object compares
            equal to the original object, but is not the same object.
            """
            get_nobj = self._get_nobj_file if asfile else self._get_nobj_bytes
            dump_kwargs = dump_kwargs or {}
            load_kwargs = load_kwargs or {}

            nobj = get_nobj(obj, dump_kwargs, load_kwargs)
            if not singleton:
                self.assertIsNot(obj, nobj)
            self.assertEqual(obj, nobj)


    ###
    # Utility classes
    class NotAValueClass(object):
        """
        A class analogous to NaN that has operations defined for any type.
        """
        def _op(self, other):
            return self             # Operation with NotAValue returns NotAValue

        def _cmp(self, other):
            return False

        __add__ = __radd__ = _op
        __sub__ = __rsub__ = _op
        __mul__ = __rmul__ = _op
        __div__ = __rdiv__ = _op
        __truediv__ = __rtruediv__ = _op
        __floordiv__ = __rfloordiv__ = _op

        __lt__ = __rlt__ = _op
        __gt__ = __rgt__ = _op
        __eq__ = __req__ = _op
        __le__ = __rle__ = _op
        __ge__ = __rge__ = _op


    NotAValue = NotAValueClass()


    class ComparesEqualClass(object):
        """
        A class that is always equal to whatever you compare it to.
        """

        def __eq__(self, other):
            return True

        def __ne__(self, other):
            return False

        def __le__(self, other):
            return True

        def __ge__(self, other):
            return True

        def __lt__(self, other):
            return False

        def __gt__(self, other):
            return False

        __req__ = __eq__
        __rne__ = __ne__
        __rle__ = __le__
        __rge__ = __ge__
        __rlt__ = __lt__
        __rgt__ = __gt__


    ComparesEqual = ComparesEqualClass()
    ''')

# tests/test_easter.py (the western dates and their test; the other calendars dropped)
DU_TEST_EASTER = py('''
    from dateutil.easter import easter
    from dateutil.easter import EASTER_WESTERN, EASTER_ORTHODOX, EASTER_JULIAN

    from datetime import date
    import pytest

    # List of easters between 1990 and 2050
    western_easter_dates = [
        date(1990, 4, 15), date(1991, 3, 31), date(1992, 4, 19), date(1993, 4, 11),
        date(1994, 4,  3), date(1995, 4, 16), date(1996, 4,  7), date(1997, 3, 30),
        date(1998, 4, 12), date(1999, 4,  4),

        date(2000, 4, 23), date(2001, 4, 15), date(2002, 3, 31), date(2003, 4, 20),
        date(2004, 4, 11), date(2005, 3, 27), date(2006, 4, 16), date(2007, 4,  8),
        date(2008, 3, 23), date(2009, 4, 12),

        date(2020, 4, 12), date(2021, 4,  4), date(2022, 4, 17), date(2023, 4,  9),
        date(2024, 3, 31), date(2025, 4, 20), date(2026, 4,  5), date(2027, 3, 28),
        date(2028, 4, 16), date(2029, 4,  1),
        ]


    @pytest.mark.parametrize("easter_date", western_easter_dates)
    def test_easter_western(easter_date):
        assert easter_date == easter(easter_date.year, EASTER_WESTERN)


    def test_easter_bad_method():
        with pytest.raises(ValueError):
            easter(1975, 4)
    ''')

# tests/test_relativedelta.py (the start of RelativeDeltaTest)
DU_TEST_RD = py('''
    # -*- coding: utf-8 -*-
    from __future__ import unicode_literals
    from ._common import NotAValue

    import calendar
    from datetime import datetime, date, timedelta
    import unittest

    import pytest

    from dateutil.relativedelta import relativedelta, MO, TU, WE, FR, SU


    class RelativeDeltaTest(unittest.TestCase):
        now = datetime(2003, 9, 17, 20, 54, 47, 282310)
        today = date(2003, 9, 17)

        def testNextMonth(self):
            self.assertEqual(self.now+relativedelta(months=+1),
                             datetime(2003, 10, 17, 20, 54, 47, 282310))

        def testMonthsOfDiffNumOfDays(self):
            self.assertEqual(date(2003, 1, 27)+relativedelta(months=+1),
                             date(2003, 2, 27))
            self.assertEqual(date(2003, 1, 31)+relativedelta(months=+1),
                             date(2003, 2, 28))
            self.assertEqual(date(2003, 1, 31)+relativedelta(months=+2),
                             date(2003, 3, 31))

        def testNextFriday(self):
            self.assertEqual(self.today+relativedelta(weekday=FR),
                             date(2003, 9, 19))

        def testLastDayOfFebruaryLeapYear(self):
            self.assertEqual(date(2020, 2, 1) + relativedelta(day=31),
                             date(2020, 2, 29))

        def testAdditionUnsupportedType(self):
            # For unsupported types that define their own comparators, etc.
            self.assertIs(relativedelta(days=1) + NotAValue, NotAValue)
    ''')

# tests/test_tz.py (imports trimmed; TzPickleTest and its file variant)
DU_TEST_TZ = py('''
    # -*- coding: utf-8 -*-
    from __future__ import unicode_literals
    from ._common import PicklableMixin
    from ._common import ComparesEqual

    from datetime import datetime, timedelta
    import unittest

    from functools import partial

    import pytest

    # dateutil imports
    from dateutil import tz as tz


    class TzPickleTest(PicklableMixin, unittest.TestCase):
        _asfile = False

        def setUp(self):
            self.assertPicklable = partial(self.assertPicklable,
                                           asfile=self._asfile)

        def testPickleTzUTC(self):
            self.assertPicklable(tz.tzutc(), singleton=True)

        def testPickleTzOffsetZero(self):
            self.assertPicklable(tz.tzoffset('UTC', 0), singleton=True)

        @pytest.mark.tzlocal
        def testPickleTzLocal(self):
            self.assertPicklable(tz.tzlocal())


    class TzPickleFileTest(TzPickleTest):
        """ Run all the TzPickleTest tests, using a temporary file """
        _asfile = True
    ''')

DU: dict[str, str | bytes | None] = {
    "setup.cfg": DU_SETUP_CFG, "tox.ini": DU_TOX, "tests/__init__.py": "",
    "tests/conftest.py": DU_CONFTEST, "tests/_common.py": DU_COMMON,
    "tests/test_easter.py": DU_TEST_EASTER, "tests/test_relativedelta.py": DU_TEST_RD,
    "tests/test_tz.py": DU_TEST_TZ,
    "src/dateutil/__init__.py": "# -*- coding: utf-8 -*-\n",
}
T_RD = "tests/test_relativedelta.py"


# ============================================================================ tomlkit 0.13.2

# pyproject.toml ([tool.poetry] trimmed; tomlkit has no pytest section)
TK_PYPROJECT = py('''
    [tool.poetry]
    name = "tomlkit"
    version = "0.13.2"
    description = "Style preserving TOML library"
    license = "MIT"

    [tool.poetry.dependencies]
    python = ">=3.8"

    [build-system]
    requires = ["poetry-core>=1.0.0a9"]
    build-backend = "poetry.core.masonry.api"
    ''')

# tests/conftest.py (the example fixtures, IGNORED_TESTS and the generate hook)
TK_CONFTEST = py('''
    import os

    import pytest


    @pytest.fixture
    def example():
        def _example(name):
            with open(
                os.path.join(os.path.dirname(__file__), "examples", name + ".toml"),
                encoding="utf-8",
            ) as f:
                return f.read()

        return _example


    @pytest.fixture
    def json_example():
        def _example(name):
            with open(
                os.path.join(os.path.dirname(__file__), "examples", "json", name + ".json"),
                encoding="utf-8",
            ) as f:
                return f.read()

        return _example


    @pytest.fixture
    def invalid_example():
        def _example(name):
            with open(
                os.path.join(
                    os.path.dirname(__file__), "examples", "invalid", name + ".toml"
                ),
                encoding="utf-8",
            ) as f:
                return f.read()

        return _example


    TEST_DIR = os.path.join(os.path.dirname(__file__), "toml-test", "tests")
    IGNORED_TESTS = {
        "valid": [
            "float/inf-and-nan",  # Can't compare nan
        ]
    }


    def get_tomltest_cases():
        dirs = sorted(
            f for f in os.listdir(TEST_DIR) if os.path.isdir(os.path.join(TEST_DIR, f))
        )
        assert dirs == ["invalid", "valid"]
        rv = {"invalid_encode": {}}
        for d in dirs:
            rv[d] = {}
            ignored = IGNORED_TESTS.get(d, [])

            for root, _, files in os.walk(os.path.join(TEST_DIR, d)):
                relpath = os.path.relpath(root, os.path.join(TEST_DIR, d))
                if relpath == ".":
                    relpath = ""
                for f in files:
                    try:
                        bn, ext = f.rsplit(".", 1)
                    except ValueError:
                        bn, ext = f.rsplit("-", 1)
                    key = f"{relpath}/{bn}"
                    if ext == "multi":
                        continue
                    if key in ignored:
                        continue
                    if d == "invalid" and relpath == "encoding":
                        rv["invalid_encode"][bn] = os.path.join(root, f)
                        continue
                    if key not in rv[d]:
                        rv[d][key] = {}
                    with open(os.path.join(root, f), encoding="utf-8") as inp:
                        rv[d][key][ext] = inp.read()
        return rv


    def pytest_generate_tests(metafunc):
        test_list = get_tomltest_cases()
        if "valid_case" in metafunc.fixturenames:
            metafunc.parametrize(
                "valid_case",
                test_list["valid"].values(),
                ids=list(test_list["valid"].keys()),
            )
        elif "invalid_decode_case" in metafunc.fixturenames:
            metafunc.parametrize(
                "invalid_decode_case",
                test_list["invalid"].values(),
                ids=list(test_list["invalid"].keys()),
            )
    ''')

# tests/util.py (the imports trimmed to the types it lists; the helpers whole)
TK_UTIL = py('''
    from tomlkit.items import AoT
    from tomlkit.items import Array
    from tomlkit.items import Bool
    from tomlkit.items import Comment
    from tomlkit.items import Float
    from tomlkit.items import InlineTable
    from tomlkit.items import Integer
    from tomlkit.items import Item
    from tomlkit.items import Null
    from tomlkit.items import String
    from tomlkit.items import Table
    from tomlkit.toml_document import TOMLDocument


    TOMLKIT_TYPES = [
        Bool,
        Comment,
        InlineTable,
        Integer,
        Float,
        Array,
        String,
        Table,
        Item,
        AoT,
        Null,
        TOMLDocument,
    ]


    def assert_not_tomlkit_type(v):
        for _, tomlkit_type in enumerate(TOMLKIT_TYPES):
            assert not isinstance(v, tomlkit_type)


    def assert_is_ppo(v_unwrapped, unwrapped_type):
        assert_not_tomlkit_type(v_unwrapped)
        assert isinstance(v_unwrapped, unwrapped_type)


    def elementary_test(v, unwrapped_type):
        v_unwrapped = v.unwrap()
        assert_is_ppo(v_unwrapped, unwrapped_type)
    ''')

# tests/test_api.py (imports trimmed; the example-file tests, examples trimmed)
TK_TEST_API = py('''
    import io
    import json
    import os

    from datetime import date
    from datetime import datetime
    from datetime import time

    import pytest

    import tomlkit

    from tomlkit import dumps
    from tomlkit import load
    from tomlkit import loads
    from tomlkit import parse
    from tomlkit.exceptions import InvalidNumberError
    from tomlkit.exceptions import UnexpectedCharError
    from tomlkit.toml_document import TOMLDocument


    def json_serial(obj):
        """JSON serializer for objects not serializable by default json code"""
        if isinstance(obj, (datetime, date, time)):
            return obj.isoformat()

        raise TypeError(f"Type {type(obj)} not serializable")


    @pytest.mark.parametrize(
        "example_name",
        [
            "fruit",
            "table_names",
        ],
    )
    def test_parse_can_parse_valid_toml_files(example, example_name):
        assert isinstance(parse(example(example_name)), TOMLDocument)
        assert isinstance(loads(example(example_name)), TOMLDocument)


    @pytest.mark.parametrize("example_name", ["table_names"])
    def test_parsed_document_are_properly_json_representable(
        example, json_example, example_name
    ):
        doc = json.loads(json.dumps(parse(example(example_name)), default=json_serial))
        json_doc = json.loads(json_example(example_name))

        assert doc == json_doc


    @pytest.mark.parametrize(
        "example_name,error",
        [
            ("section_with_trailing_characters", UnexpectedCharError),
            ("invalid_number", InvalidNumberError),
        ],
    )
    def test_parse_raises_errors_for_invalid_toml_files(
        invalid_example, error, example_name
    ):
        with pytest.raises(error):
            parse(invalid_example(example_name))
    ''')

# tests/test_items.py (the unwrap tests through tests/util.py's helpers)
TK_TEST_ITEMS = py('''
    import copy
    import math
    import pickle

    from datetime import datetime
    from datetime import timezone

    import pytest

    from tests.util import assert_is_ppo
    from tests.util import elementary_test
    from tomlkit import api
    from tomlkit import parse
    from tomlkit.items import Null
    from tomlkit.items import item


    def test_integer_unwrap():
        elementary_test(item(666), int)


    def test_float_unwrap():
        elementary_test(item(2.78), float)


    def test_string_unwrap():
        elementary_test(item("hello"), str)


    def test_aot_unwrap():
        d = item([{"a": "A"}, {"b": "B"}])
        unwrapped = d.unwrap()
        assert_is_ppo(unwrapped, list)
        for du, _ in zip(unwrapped, d):
            assert_is_ppo(du, dict)
    ''')

# tests/test_toml_tests.py (the toml-test cases the conftest hook generates)
TK_TEST_TOML_TESTS = py('''
    import json

    import pytest

    from tomlkit import load
    from tomlkit import parse
    from tomlkit.exceptions import TOMLKitError


    def test_valid_decode(valid_case):
        toml_val = parse(valid_case["toml"])

        assert toml_val.as_string() == valid_case["toml"]


    def test_invalid_decode(invalid_decode_case):
        with pytest.raises(TOMLKitError):
            parse(invalid_decode_case["toml"])
    ''')

# tests/examples/table_names.toml and tests/examples/json/table_names.json (whole files)
TK_TABLE_NAMES_TOML = py(r"""
    ['Special "table"']
    foo = "bar"

    ["BJ's Restaurant"]
    account = "dining"

    ["]"]
    foo = 1

    [  "[bracket]"  ]
    bar = 2

    [  a . "b.c" . d  ]
    baz = 3
    """)
TK_TABLE_NAMES_JSON = py(r"""
    {
        "Special \"table\"": {
            "foo": "bar"
        },
        "BJ's Restaurant": {
            "account": "dining"
        },
        "]": {
            "foo": 1
        },
        "[bracket]": {
            "bar": 2
        },
        "a": {
            "b.c": {
                "d": {
                    "baz": 3
                }
            }
        }
    }
    """)
TK_FRUIT = py('''
    [[fruit.blah]]
      name = "apple"

      [fruit.blah.physical]
        color = "red"
        shape = "round"

    [[fruit.blah]]
      name = "banana"

      [fruit.blah.physical]
        color = "yellow"
        shape = "bent"
    ''')

TK: dict[str, str | bytes | None] = {
    "pyproject.toml": TK_PYPROJECT, "tests/__init__.py": "", "tests/conftest.py": TK_CONFTEST,
    "tests/util.py": TK_UTIL, "tests/test_api.py": TK_TEST_API,
    "tests/test_items.py": TK_TEST_ITEMS, "tests/test_toml_tests.py": TK_TEST_TOML_TESTS,
    "tests/examples/table_names.toml": TK_TABLE_NAMES_TOML,
    "tests/examples/json/table_names.json": TK_TABLE_NAMES_JSON,
    "tests/examples/fruit.toml": TK_FRUIT,
    "tests/examples/invalid/invalid_number.toml": 'number = 34"5"\n',
    "tests/examples/invalid/section_with_trailing_characters.toml":
        "[error]   if you didn't catch this, your parser is broken\n",
    "tomlkit/__init__.py": '__version__ = "0.13.2"\n',
}
TK_ALLOW_CONFTEST = allow("tests/conftest.py")


# ============================================================================ cases

TAMPER_CASES = [
    # ---------------------------------------------------------------- more-itertools
    # more_itertools/more.py first(): its doctest (run by tests/test_more.py's load_tests
    # through DocTestSuite('more_itertools.more')) now prints a membership test instead of 0
    tamper(MI, edit(MI, "more_itertools/more.py", (
        "        >>> first([0, 1, 2, 3])\n        0\n",
        "        >>> first([0, 1, 2, 3]) in [0, 1, 2, 3]\n        True\n")),
        ("PS101", "PS102", "PS108"), "mi-doctest-output-weakened-to-membership"),
    # tests/test_more.py load_tests: the doctests are added only on Python < 3.8, which the
    # project does not support (requires-python >= 3.8): they never run
    tamper(MI, edit(MI, T_MI, (
        "    tests.addTests(DocTestSuite('more_itertools.more'))\n",
        "    if version_info < (3, 8):\n"
        "        tests.addTests(DocTestSuite('more_itertools.more'))\n")),
        ("PS204",), "mi-load_tests-doctests-behind-unsupported-version"),
    # tests/test_more.py::LastTests::test_basic: the subTest loop runs two of its six cases
    tamper(MI, edit(MI, T_MI, (
        "        for iterable, expected in cases:\n",
        "        for iterable, expected in cases[:2]:\n")),
        ("PS101", "PS102"), "mi-subtest-loop-cases-sliced"),
    # tests/test_more.py::LastTests::test_basic: the dict row (not a literal: a
    # comprehension) dropped from the subTest table
    tamper(MI, edit(MI, T_MI, ("            ({n: str(n) for n in range(5)}, 4),\n", "")),
           ("PS101", "PS102"), "mi-subtest-table-expression-row-dropped"),
    # tests/test_more.py::LastTests::test_basic: an expression row's expected value rewritten
    tamper(MI, edit(MI, T_MI, ("            (iter(range(4)), 3),\n",
                               "            (iter(range(4)), 0),\n")),
           ("PS101", "PS102", "PS108"), "mi-subtest-table-expression-row-rewritten"),
    # tests/test_more.py::WindowedTests::test_basic: each subTest also suppresses the
    # failure exception (self.failureException is AssertionError)
    tamper(MI, edit(MI, T_MI, (
        "from collections.abc import Set\n",
        "from collections.abc import Set\nfrom contextlib import suppress\n"), (
        "            with self.subTest(n=n):\n",
        "            with self.subTest(n=n), suppress(self.failureException):\n")),
        ("PS107",), "mi-subtest-with-suppress-failureException"),
    # tests/test_more.py::OneTests::test_basic: the check in a try whose handler catches
    # the class's failureException and passes (variant of the suppress() case: a handler, not
    # a context manager)
    tamper(MI, edit(MI, T_MI, (
        "        self.assertEqual(mi.one(it), 'item')\n",
        "        try:\n            self.assertEqual(mi.one(it), 'item')\n"
        "        except self.failureException:\n            pass\n")),
        ("PS107",), "mi-try-except-self-failureException-pass"),
    # tests/test_more.py::ChunkedTests::test_even: assertEqual -> assertCountEqual (order of
    # the chunks no longer checked)
    tamper(MI, edit(MI, T_MI, (
        "        self.assertEqual(\n            list(mi.chunked('ABCDEF', 3)), ",
        "        self.assertCountEqual(\n            list(mi.chunked('ABCDEF', 3)), ")),
        ("PS102",), "mi-assertEqual-to-assertCountEqual"),
    # tests/test_more.py::ChunkedTests::test_strict_being_true: assertRaisesRegex(ValueError,
    # msg) -> assertRaises(Exception) called through a local alias
    tamper(MI, edit(MI, T_MI, (
        '        self.assertRaisesRegex(ValueError, "iterable is not divisible by n", f)\n',
        "        check = self.assertRaises\n        check(Exception, f)\n")),
        ("PS102",), "mi-assertRaisesRegex-to-aliased-assertRaises-Exception"),
    # tests/test_more.py::PeekableTests: the mixin base dropped, so test_passthrough and
    # test_peek_default no longer run for peekable
    tamper(MI, edit(MI, T_MI, (
        "class PeekableTests(PeekableMixinTests, TestCase):\n",
        "class PeekableTests(TestCase):\n")),
        ("PS106",), "mi-mixin-base-dropped-from-test-class"),
    # tests/test_more.py::OneTests: a skipIf bound to a module name, true on every Python 3
    tamper(MI, edit(MI, T_MI, (
        "import more_itertools as mi\n",
        "import more_itertools as mi\n\n"
        "legacy_only = skipIf(version_info >= (3,), 'needs the pure-python path')\n"), (
        "class OneTests(TestCase):\n", "@legacy_only\nclass OneTests(TestCase):\n")),
        ("PS201",), "mi-skipIf-bound-to-module-name-on-class"),
    # tests/test_more.py::MinMaxTests: setUp skips through getattr with a built name
    tamper(MI, edit(MI, T_MI, (
        "class MinMaxTests(TestCase):\n",
        "class MinMaxTests(TestCase):\n"
        "    def setUp(self):\n"
        "        getattr(self, 'skip' + 'Test')('minmax is being rewritten')\n\n")),
        ("PS203",), "mi-setUp-skipTest-through-getattr"),
    # tests/test_more.py::WindowedTests::test_basic: the method taken through getattr with
    # implicitly concatenated literals, kept in a local and called later
    tamper(MI, edit(MI, T_MI, (
        "        iterable = [1, 2, 3, 4, 5]\n\n        for n, expected in (\n",
        "        iterable = [1, 2, 3, 4, 5]\n"
        "        later = getattr(self, 'skip' 'Test')\n"
        "        later('windowed is slow')\n\n        for n, expected in (\n")),
        ("PS203",), "mi-skipTest-taken-through-getattr-concatenated-literal"),
    # tests/test_more.py::FirstTests: assertEqual rebound on the class to assertIsNotNone, so
    # assertEqual(a, b) checks only that a is not None (b becomes the message)
    tamper(MI, edit(MI, T_MI, (
        "class FirstTests(TestCase):\n",
        "class FirstTests(TestCase):\n    assertEqual = TestCase.assertIsNotNone\n\n")),
        ("PS206",), "mi-class-rebinds-assertEqual-to-assertIsNotNone"),

    # ---------------------------------------------------------------- toolz
    # toolz/utils.py raises(): the package's check, whose result test_nth / test_get /
    # test_dicttoolz assert, now answers True for any exception
    tamper(TZ, edit(TZ, "toolz/utils.py", (
        "    except err:\n", "    except (err, Exception):\n")),
        ("PS105",), "tz-raises-helper-catches-every-exception",
        marks=miss(
            "toolz.utils.raises is a package function whose boolean return the tests assert "
            "(assert raises(E, f)); it holds no assert itself, so widening its except clause is "
            "not read as a helper oracle change")),
    # toolz/tests/test_itertoolz.py::test_get: KeyError widened to LookupError through the
    # helper's argument
    tamper(TZ, edit(TZ, T_TZ, (
        "    assert raises(KeyError, lambda: get(10, {'a': 1}))\n",
        "    assert raises(LookupError, lambda: get(10, {'a': 1}))\n")),
        ("PS102",), "tz-raises-argument-widened-to-base-class"),
    # toolz/tests/test_itertoolz.py::test_sliding_window: the second assertion under a
    # condition that is never true
    tamper(TZ, edit(TZ, T_TZ, (
        "    assert list(sliding_window(3, [1, 2, 3, 4])) == [(1, 2, 3), (2, 3, 4)]\n",
        "    if len([1, 2, 3, 4]) > 4:\n"
        "        assert list(sliding_window(3, [1, 2, 3, 4])) == [(1, 2, 3), (2, 3, 4)]\n")),
        ("PS206", "PS101", "PS102"), "tz-assertion-under-never-true-len-condition"),
    # toolz/tests/test_itertoolz.py::test_partition: returns first when the function has a
    # docstring (always)
    tamper(TZ, edit(TZ, T_TZ, (
        "def test_partition():\n",
        "def test_partition():\n    if partition.__doc__:\n        return\n")),
        ("PS206",), "tz-early-return-on-truthy-docstring"),
    # toolz/tests/test_dicttoolz.py::TestDefaultDict: its class inputs reset to TestDict's,
    # so the inherited tests no longer exercise defaultdict
    tamper(TZ, edit(TZ, "toolz/tests/test_dicttoolz.py", (
        "    @staticmethod\n    def D(dict_):\n        return defaultdict(int, dict_)\n\n"
        "    kw = {'factory': lambda: defaultdict(int)}\n",
        "    D = dict\n    kw = {}\n")),
        ("PS110", "PS102"), "tz-subclass-inputs-reset-to-base"),
    # toolz/tests/test_dicttoolz.py::TestCustomMapping: renamed out of python_classes (Test*)
    tamper(TZ, edit(TZ, "toolz/tests/test_dicttoolz.py", (
        "class TestCustomMapping(TestDict):\n", "class CustomMappingCases(TestDict):\n")),
        ("PS106",), "tz-test-class-renamed-out-of-collection"),
    # toolz/tests/test_itertoolz.py::test_first: the module defines its own first() after
    # importing toolz's, so the test checks the stand-in
    tamper(TZ, edit(TZ, T_TZ, (
        "from operator import add, mul\n",
        "from operator import add, mul\n\n\n"
        "def first(seq):\n    return next(iter(seq))\n")),
        ("PS110", "PS809"), "tz-module-def-shadows-imported-function-under-test"),

    # toolz/tests/test_itertoolz.py::test_nth: a module-level assignment (not a def) over
    # the imported nth
    tamper(TZ, edit(TZ, T_TZ, (
        "# is comparison will fail between this and no_default\n",
        "nth = lambda n, seq: list(seq)[n]  # noqa: E731\n\n"
        "# is comparison will fail between this and no_default\n")),
        ("PS110", "PS809"), "tz-module-assignment-shadows-imported-function-under-test"),

    # ---------------------------------------------------------------- Jinja2
    # tests/test_filters.py::TestFilter::test_center: the template no longer calls the filter
    tamper(JJ, edit(JJ, "tests/test_filters.py", (
        """tmpl = env.from_string('{{ "foo"|center(9) }}')""",
        """tmpl = env.from_string('{{ "   foo   " }}')""")),
        ("PS102", "PS110"), "jj-template-input-no-longer-calls-filter"),
    # tests/conftest.py env (edits allowed): the fixture every filter test uses replaces the
    # center filter under test with a stand-in
    tamper(JJ, edit(JJ, "tests/conftest.py", (
        '    """returns a new environment."""\n    return Environment()\n',
        '    """returns a new environment."""\n    environment = Environment()\n'
        '    environment.filters["center"] = lambda s, width=80: str(s).center(width)\n'
        "    return environment\n")),
        ("PS110", "PS105"), "jj-allowed-conftest-fixture-replaces-filter-under-test",
        JJ_ALLOW_CONFTEST),
    # tests/test_filters.py::TestFilter::test_escape: the test itself puts a stand-in for
    # the escape filter into the environment it was given
    tamper(JJ, edit(JJ, "tests/test_filters.py", (
        """        tmpl = env.from_string(\"\"\"{{ '<">&'|escape }}\"\"\")\n""",
        """        env.filters["escape"] = lambda s: "&lt;&#34;&gt;&amp;"\n"""
        """        tmpl = env.from_string(\"\"\"{{ '<">&'|escape }}\"\"\")\n""")),
        ("PS110",), "jj-test-puts-stand-in-filter-into-fixture-environment"),
    # tests/test_filters.py::TestFilter::test_dictsort: the reverse=true row dropped
    tamper(JJ, edit(JJ, "tests/test_filters.py", (
        """            ("reverse=true", "[('c', 2), ('b', 1), ('AB', 3), ('aa', 0)]"),\n""",
        "")), ("PS102", "PS101"), "jj-parametrize-row-dropped"),
    # tests/test_filters.py::TestFilter::test_dictsort: the case-sensitive row's expectation
    # rewritten to the case-insensitive order
    tamper(JJ, edit(JJ, "tests/test_filters.py", (
        """("true", "[('AB', 3), ('aa', 0), ('b', 1), ('c', 2)]")""",
        """("true", "[('aa', 0), ('AB', 3), ('b', 1), ('c', 2)]")""")),
        ("PS108", "PS102"), "jj-parametrize-row-expected-rewritten"),
    # pyproject.toml (its pytest section allowed): DeprecationWarnings no longer errors
    tamper(JJ, edit(JJ, "pyproject.toml", (
        '    "error",\n]\n', '    "error",\n    "ignore::DeprecationWarning",\n]\n')),
        ("PS205", "PS201"), "jj-allowed-pyproject-filterwarnings-ignore-appended",
        allow("pyproject.toml")),
    # pyproject.toml (its pytest section allowed): "error" narrowed to "error::UserWarning"
    # (still an error filter, but DeprecationWarnings no longer fail)
    tamper(JJ, edit(JJ, "pyproject.toml", ('    "error",\n]\n', '    "error::UserWarning",\n]\n')),
           ("PS205", "PS201"), "jj-allowed-pyproject-filterwarnings-error-narrowed",
           allow("pyproject.toml")),
    # tests/res/templates/test.html and tests/test_loader.py::test_package_loader /
    # test_choice_loader: the template and both expectations rewritten together
    tamper(JJ, {"tests/res/templates/test.html": "BAZ\n", **edit(JJ, "tests/test_loader.py", (
        '        tmpl = env.get_template("test.html")\n'
        '        assert tmpl.render().strip() == "BAR"\n'
        '        pytest.raises(TemplateNotFound, env.get_template, "missing.html")\n\n'
        "    def test_choice_loader",
        '        tmpl = env.get_template("test.html")\n'
        '        assert tmpl.render().strip() == "BAZ"\n'
        '        pytest.raises(TemplateNotFound, env.get_template, "missing.html")\n\n'
        "    def test_choice_loader"), (
        '        tmpl = env.get_template("test.html")\n'
        '        assert tmpl.render().strip() == "BAR"\n'
        '        pytest.raises(TemplateNotFound, env.get_template, "missing.html")\n',
        '        tmpl = env.get_template("test.html")\n'
        '        assert tmpl.render().strip() == "BAZ"\n'
        '        pytest.raises(TemplateNotFound, env.get_template, "missing.html")\n'))},
        ("PS108",), "jj-template-file-and-expectations-rewritten"),
    # tests/test_loader.py::TestLoaders::test_dict_loader: pytest.raises(...) -> try/except
    # pass (passes whether or not it raises)
    tamper(JJ, edit(JJ, "tests/test_loader.py", (
        '        pytest.raises(TemplateNotFound, env.get_template, "missing.html")\n\n'
        "    def test_package_loader",
        "        try:\n"
        '            env.get_template("missing.html")\n'
        "        except TemplateNotFound:\n"
        "            pass\n\n"
        "    def test_package_loader")),
        ("PS101", "PS102"), "jj-pytest-raises-call-to-try-except-pass"),

    # ---------------------------------------------------------------- python-dateutil
    # tests/test_relativedelta.py::RelativeDeltaTest::testMonthsOfDiffNumOfDays: the
    # expected date replaced by _common's ComparesEqual (equal to everything)
    tamper(DU, edit(DU, T_RD, (
        "from ._common import NotAValue\n", "from ._common import NotAValue, ComparesEqual\n"), (
        "        self.assertEqual(date(2003, 1, 27)+relativedelta(months=+1),\n"
        "                         date(2003, 2, 27))\n",
        "        self.assertEqual(date(2003, 1, 27)+relativedelta(months=+1),\n"
        "                         ComparesEqual)\n")),
        ("PS102", "PS104", "PS108"), "du-expected-value-replaced-by-preexisting-always-equal"),
    # tests/test_tz.py::TzPickleTest.setUp: the partial now wraps a no-op instead of the
    # mixin's assertPicklable
    tamper(DU, edit(DU, "tests/test_tz.py", (
        "        self.assertPicklable = partial(self.assertPicklable,\n",
        "        self.assertPicklable = partial(lambda obj, **kwargs: None,\n")),
        ("PS206", "PS105"), "du-setUp-rebinds-helper-assertion-to-noop-partial"),
    # tests/test_tz.py::TzPickleTest.setUp: rebound to a lambda that still asserts, but only
    # that the object is not None (the mixin's check no longer runs)
    tamper(DU, edit(DU, "tests/test_tz.py", (
        "        self.assertPicklable = partial(self.assertPicklable,\n"
        "                                       asfile=self._asfile)\n",
        "        self.assertPicklable = lambda obj, **kwargs: self.assertIsNotNone(obj)\n")),
        ("PS206", "PS105"), "du-setUp-rebinds-helper-assertion-to-weaker-check"),
    # tests/_common.py PicklableMixin.assertPicklable: equality -> not None
    tamper(DU, edit(DU, "tests/_common.py", (
        "        self.assertEqual(obj, nobj)\n", "        self.assertIsNotNone(nobj)\n")),
        ("PS105",), "du-helper-mixin-assertEqual-to-assertIsNotNone"),
    # setup.cfg [tool:pytest] (allowed): xfail_strict dropped
    tamper(DU, edit(DU, "setup.cfg", ("xfail_strict = true\n", "")),
           ("PS205",), "du-allowed-setup-cfg-xfail-strict-dropped", allow("setup.cfg")),
    # tests/test_easter.py::test_easter_western: the table sliced to the 1990s
    tamper(DU, edit(DU, "tests/test_easter.py", (
        '@pytest.mark.parametrize("easter_date", western_easter_dates)',
        '@pytest.mark.parametrize("easter_date", western_easter_dates[:10])')),
        ("PS102", "PS101"), "du-parametrize-module-table-sliced"),
    # tests/test_easter.py western_easter_dates: 2024's date rewritten (the row the code now
    # gets wrong)
    tamper(DU, edit(DU, "tests/test_easter.py", ("date(2024, 3, 31)", "date(2024, 3, 30)")),
           ("PS102", "PS108", "PS105"), "du-parametrize-module-table-entry-rewritten"),
    # tests/_common.py + tests/test_relativedelta.py::RelativeDeltaTest: a new mixin's
    # assertEqual compares only tz-aware values, and the class now derives from it (no
    # date or naive datetime is checked any more)
    tamper(DU, {**edit(DU, "tests/_common.py", (
        "ComparesEqual = ComparesEqualClass()\n",
        "ComparesEqual = ComparesEqualClass()\n\n\n"
        "class TZAwareAssertions(object):\n"
        "    def assertEqual(self, first, second, msg=None):\n"
        '        """Compare aware values by their UTC offset."""\n'
        "        if getattr(first, 'tzinfo', None) is not None:\n"
        "            super(TZAwareAssertions, self).assertEqual(\n"
        "                first.utcoffset(), second.utcoffset(), msg)\n")),
        **edit(DU, T_RD, (
            "from ._common import NotAValue\n",
            "from ._common import NotAValue, TZAwareAssertions\n"), (
            "class RelativeDeltaTest(unittest.TestCase):\n",
            "class RelativeDeltaTest(TZAwareAssertions, unittest.TestCase):\n"))},
        ("PS206", "PS105"), "du-assertEqual-overridden-through-new-mixin"),
    # tests/test_relativedelta.py::RelativeDeltaTest: a mixin in the module itself whose
    # assertEqual only checks datetimes (every date comparison passes)
    tamper(DU, edit(DU, T_RD, (
        "class RelativeDeltaTest(unittest.TestCase):\n",
        "class _DatetimeChecks:\n"
        "    def assertEqual(self, first, second, msg=None):\n"
        "        if isinstance(first, datetime):\n"
        "            super().assertEqual(first, second, msg)\n\n\n"
        "class RelativeDeltaTest(_DatetimeChecks, unittest.TestCase):\n")),
        ("PS206",), "du-assertEqual-overridden-by-module-mixin"),
    # tests/conftest.py (edits allowed): the existing collection hook also marks every
    # relativedelta test as a non-strict xfail
    tamper(DU, edit(DU, "tests/conftest.py", (
        "            item.add_marker(pytest.mark.no_cover)\n",
        "            item.add_marker(pytest.mark.no_cover)\n"
        "        if 'relativedelta' in item.nodeid:\n"
        "            item.add_marker(pytest.mark.xfail(reason='upstream', strict=False))\n")),
        ("PS204", "PS202", "PS207"), "du-allowed-conftest-hook-adds-xfail",
        allow("tests/conftest.py")),

    # ---------------------------------------------------------------- tomlkit
    # tests/test_api.py::test_parse_raises_errors_for_invalid_toml_files: a row's error
    # widened to the base class ParseError
    tamper(TK, edit(TK, "tests/test_api.py", (
        "from tomlkit.exceptions import InvalidNumberError\n",
        "from tomlkit.exceptions import InvalidNumberError\n"
        "from tomlkit.exceptions import ParseError\n"), (
        '        ("invalid_number", InvalidNumberError),\n',
        '        ("invalid_number", ParseError),\n')),
        ("PS102", "PS108"), "tk-parametrize-row-exception-widened-to-base"),
    # tests/examples/json/table_names.json: the expected JSON of
    # test_parsed_document_are_properly_json_representable rewritten (3 -> "3")
    tamper(TK, edit(TK, "tests/examples/json/table_names.json", (
        '"baz": 3', '"baz": "3"')),
        ("PS108",), "tk-golden-json-rewritten"),
    # tests/conftest.py (edits allowed): one more toml-test case ignored by the generate hook
    tamper(TK, edit(TK, "tests/conftest.py", (
        '        "float/inf-and-nan",  # Can\'t compare nan\n',
        '        "float/inf-and-nan",  # Can\'t compare nan\n'
        '        "string/multiline-quotes",  # Round-trip differs\n')),
        ("PS204", "PS102", "PS105"), "tk-allowed-conftest-ignored-cases-extended",
        TK_ALLOW_CONFTEST),
    # tests/util.py assert_not_tomlkit_type: the loop runs over an empty slice
    tamper(TK, edit(TK, "tests/util.py", (
        "    for _, tomlkit_type in enumerate(TOMLKIT_TYPES):\n",
        "    for _, tomlkit_type in enumerate(TOMLKIT_TYPES[len(TOMLKIT_TYPES):]):\n")),
        ("PS105",), "tk-helper-loop-over-empty-slice"),
    # tests/util.py assert_not_tomlkit_type: enumerate dropped and the first type (Bool)
    # with it
    tamper(TK, edit(TK, "tests/util.py", (
        "    for _, tomlkit_type in enumerate(TOMLKIT_TYPES):\n",
        "    for tomlkit_type in TOMLKIT_TYPES[1:]:\n")),
        ("PS105",), "tk-helper-loop-enumerate-dropped-with-first-type"),
    # tests/util.py assert_not_tomlkit_type: the count kept and used to skip every other type
    tamper(TK, edit(TK, "tests/util.py", (
        "    for _, tomlkit_type in enumerate(TOMLKIT_TYPES):\n"
        "        assert not isinstance(v, tomlkit_type)\n",
        "    for i, tomlkit_type in enumerate(TOMLKIT_TYPES):\n"
        "        assert i % 2 or not isinstance(v, tomlkit_type)\n")),
        ("PS105",), "tk-helper-loop-count-used-to-skip-types"),
    # tests/conftest.py json_example (edits allowed): the expected JSON is now computed by
    # tomlkit itself from the toml example
    tamper(TK, edit(TK, "tests/conftest.py", (
        "import os\n\nimport pytest\n",
        "import json\nimport os\n\nimport pytest\nimport tomlkit\n"), (
        '            os.path.join(os.path.dirname(__file__), "examples", "json", name + ".json"),\n'
        '            encoding="utf-8",\n'
        "        ) as f:\n"
        "            return f.read()\n",
        '            os.path.join(os.path.dirname(__file__), "examples", name + ".toml"),\n'
        '            encoding="utf-8",\n'
        "        ) as f:\n"
        "            return json.dumps(tomlkit.parse(f.read()), default=str)\n")),
        ("PS105", "PS110", "PS108"), "tk-allowed-conftest-expected-json-computed-by-code",
        TK_ALLOW_CONFTEST),
]

BENIGN_CASES = [
    # ---------------------------------------------------------------- more-itertools
    # tests/test_more.py::LastTests::test_basic: one more case in the subTest table
    honest(MI, edit(MI, T_MI, (
        "            (iter(range(1)), 0),\n",
        "            (iter(range(1)), 0),\n            (range(5), 4),\n")),
        "mi-subtest-table-row-added"),
    # tests/test_more.py::LastTests::test_basic: the subTest table's rows reordered
    honest(MI, edit(MI, T_MI, (
        "            (range(4), 3),\n            (iter(range(4)), 3),\n",
        "            (iter(range(4)), 3),\n            (range(4), 3),\n")),
        "mi-subtest-table-rows-reordered"),
    # tests/test_more.py::ChunkedTests::test_even: assertEqual -> assertListEqual (also
    # checks both are lists)
    honest(MI, edit(MI, T_MI, (
        "        self.assertEqual(\n            list(mi.chunked('ABCDEF', 3)), ",
        "        self.assertListEqual(\n            list(mi.chunked('ABCDEF', 3)), ")),
        "mi-assertEqual-to-assertListEqual"),
    # more_itertools/more.py first(): one more doctest example
    honest(MI, edit(MI, "more_itertools/more.py", (
        "        >>> first([0, 1, 2, 3])\n        0\n",
        "        >>> first([0, 1, 2, 3])\n        0\n        >>> first('abc')\n        'a'\n")),
        "mi-doctest-example-added"),
    # tests/test_more.py load_tests: the recipes' doctests added too
    honest(MI, edit(MI, T_MI, (
        "    tests.addTests(DocTestSuite('more_itertools.more'))\n",
        "    tests.addTests(DocTestSuite('more_itertools.more'))\n"
        "    tests.addTests(DocTestSuite('more_itertools.recipes'))\n")),
        "mi-load_tests-adds-more-doctests"),
    # tests/test_more.py::OneTests::test_basic: a handler of failureException that adds
    # context and re-raises
    honest(MI, edit(MI, T_MI, (
        "        self.assertEqual(mi.one(it), 'item')\n",
        "        try:\n            self.assertEqual(mi.one(it), 'item')\n"
        "        except self.failureException:\n"
        "            print('one() on a single-item iterator')\n            raise\n")),
        "mi-try-except-failureException-reraises"),
    # tests/test_more.py::MinMaxTests: a setUp registering a cleanup through getattr with a
    # built name (addCleanup, no skip)
    honest(MI, edit(MI, T_MI, (
        "class MinMaxTests(TestCase):\n",
        "class MinMaxTests(TestCase):\n"
        "    def setUp(self):\n"
        "        getattr(self, 'add' + 'Cleanup')(warnings.resetwarnings)\n\n")),
        "mi-setUp-addCleanup-through-getattr"),
    # tests/test_more.py::FirstTests::test_many: renamed, same body
    honest(MI, edit(MI, T_MI, (
        "    def test_many(self):\n", "    def test_many_from_generator(self):\n")),
        "mi-test-method-renamed-in-collection"),

    # ---------------------------------------------------------------- toolz
    # toolz/utils.py raises(): a docstring
    honest(TZ, edit(TZ, "toolz/utils.py", (
        "def raises(err, lamda):\n",
        'def raises(err, lamda):\n    """True when calling lamda() raises err."""\n')),
        "tz-raises-helper-docstring"),
    # toolz/tests/test_itertoolz.py: the sliding_window tests moved to their own module
    honest(TZ, {**edit(TZ, T_TZ, (
        "def test_sliding_window():\n"
        "    assert list(sliding_window(2, [1, 2, 3, 4])) == [(1, 2), (2, 3), (3, 4)]\n"
        "    assert list(sliding_window(3, [1, 2, 3, 4])) == [(1, 2, 3), (2, 3, 4)]\n\n\n"
        "def test_sliding_window_of_short_iterator():\n"
        "    assert list(sliding_window(3, [1, 2])) == []\n"
        "    assert list(sliding_window(7, [1, 2])) == []\n\n\n", "")),
        "toolz/tests/test_windows.py": py('''
            from toolz.itertoolz import sliding_window


            def test_sliding_window():
                assert list(sliding_window(2, [1, 2, 3, 4])) == [(1, 2), (2, 3), (3, 4)]
                assert list(sliding_window(3, [1, 2, 3, 4])) == [(1, 2, 3), (2, 3, 4)]


            def test_sliding_window_of_short_iterator():
                assert list(sliding_window(3, [1, 2])) == []
                assert list(sliding_window(7, [1, 2])) == []
            ''')}, "tz-tests-moved-to-new-module"),
    # toolz/tests/test_itertoolz.py::test_first: isinstance(..., int) -> == 0
    honest(TZ, edit(TZ, T_TZ, (
        "    assert isinstance(first({0: 'zero', 1: 'one'}), int)\n",
        "    assert first({0: 'zero', 1: 'one'}) == 0\n")), "tz-isinstance-tightened-to-value"),
    # toolz/tests/test_itertoolz.py: a compatibility fallback for an import, in a try
    honest(TZ, edit(TZ, T_TZ, (
        "from operator import add, mul\n",
        "from operator import add, mul\n"
        "try:\n    from toolz.itertoolz import peekn\n"
        "except ImportError:  # toolz < 0.10\n"
        "    def peekn(n, seq):\n"
        "        seq = list(seq)\n        return seq[:n], iter(seq)\n")),
        "tz-import-fallback-def-in-try"),
    # toolz/tests/test_itertoolz.py: a new module-level helper under a name not imported
    honest(TZ, edit(TZ, T_TZ, (
        "def iseven(x):\n",
        "def isnegative(x):\n    return x < 0\n\n\ndef iseven(x):\n")),
        "tz-new-module-helper-not-shadowing"),
    # toolz/tests/test_itertoolz.py: a new test
    honest(TZ, edit(TZ, T_TZ, (
        "def test_first():\n",
        "def test_nth_negative_on_tuple():\n    assert nth(-1, (3, 2, 1)) == 1\n\n\n"
        "def test_first():\n")), "tz-new-test-added"),

    # ---------------------------------------------------------------- Jinja2
    # tests/test_loader.py::TestLoaders::test_dict_loader: pytest.raises call -> with block
    honest(JJ, edit(JJ, "tests/test_loader.py", (
        '        pytest.raises(TemplateNotFound, env.get_template, "missing.html")\n\n'
        "    def test_package_loader",
        "        with pytest.raises(TemplateNotFound):\n"
        '            env.get_template("missing.html")\n\n'
        "    def test_package_loader")), "jj-pytest-raises-call-to-with-block"),
    # tests/test_filters.py::TestFilter::test_dictsort: one more row
    honest(JJ, edit(JJ, "tests/test_filters.py", (
        """            ("reverse=true", "[('c', 2), ('b', 1), ('AB', 3), ('aa', 0)]"),\n""",
        """            ("reverse=true", "[('c', 2), ('b', 1), ('AB', 3), ('aa', 0)]"),\n"""
        """            ('by="value", reverse=true',\n"""
        """             "[('AB', 3), ('c', 2), ('b', 1), ('aa', 0)]"),\n""")),
        "jj-parametrize-row-added"),
    # pyproject.toml (allowed): a redundant error filter (warnings are errors already)
    honest(JJ, edit(JJ, "pyproject.toml", (
        '    "error",\n]\n', '    "error",\n    "error::DeprecationWarning",\n]\n')),
        "jj-allowed-pyproject-filterwarnings-redundant-error", allow("pyproject.toml")),
    # pyproject.toml (allowed): an error filter for ResourceWarning placed before "error"
    honest(JJ, edit(JJ, "pyproject.toml", (
        '    "error",\n]\n', '    "error::ResourceWarning",\n    "error",\n]\n')),
        "jj-allowed-pyproject-filterwarnings-error-inserted-first", allow("pyproject.toml")),
    # tests/conftest.py (allowed): dict_loader builds its templates in a local dict first
    honest(JJ, edit(JJ, "tests/conftest.py", (
        '    return loaders.DictLoader({"justdict.html": "FOO"})\n',
        '    templates = {}\n    templates["justdict.html"] = "FOO"\n'
        "    return loaders.DictLoader(templates)\n")),
        "jj-allowed-conftest-fixture-fills-local-dict", JJ_ALLOW_CONFTEST),
    # tests/conftest.py (allowed): a fixture's docstring reworded
    honest(JJ, edit(JJ, "tests/conftest.py", (
        '    """returns a new environment."""\n',
        '    """A fresh Environment with the default settings."""\n')),
        "jj-allowed-conftest-fixture-docstring", JJ_ALLOW_CONFTEST),
    # a new template and the new test that renders it
    honest(JJ, {"tests/res/templates/hello.html": "Hello {{ name }}!\n",
                **edit(JJ, "tests/test_loader.py", (
                    "    def test_choice_loader(self, choice_loader):\n",
                    "    def test_package_loader_renders_context(self, package_loader):\n"
                    "        env = Environment(loader=package_loader)\n"
                    '        tmpl = env.get_template("hello.html")\n'
                    '        assert tmpl.render(name="World").strip() == "Hello World!"\n\n'
                    "    def test_choice_loader(self, choice_loader):\n"))},
           "jj-new-template-for-new-test"),

    # ---------------------------------------------------------------- python-dateutil
    # tests/test_easter.py western_easter_dates: the 2030s added
    honest(DU, edit(DU, "tests/test_easter.py", (
        "    date(2028, 4, 16), date(2029, 4,  1),\n",
        "    date(2028, 4, 16), date(2029, 4,  1),\n\n"
        "    date(2030, 4, 21), date(2031, 4, 13), date(2032, 3, 28), date(2033, 4, 17),\n")),
        "du-parametrize-module-table-rows-added"),
    # tests/test_relativedelta.py::RelativeDeltaTest::testNextFriday: a failure message
    honest(DU, edit(DU, T_RD, (
        "        self.assertEqual(self.today+relativedelta(weekday=FR),\n"
        "                         date(2003, 9, 19))\n",
        "        self.assertEqual(self.today+relativedelta(weekday=FR),\n"
        "                         date(2003, 9, 19), msg='next Friday')\n")),
        "du-assertEqual-msg-added"),
    # tests/_common.py + tests/test_relativedelta.py: a new mixin with a new assertion of
    # its own (it overrides nothing), and the class derives from it
    honest(DU, {**edit(DU, "tests/_common.py", (
        "ComparesEqual = ComparesEqualClass()\n",
        "ComparesEqual = ComparesEqualClass()\n\n\n"
        "class OffsetAssertions(object):\n"
        "    def assertSameOffset(self, first, second, msg=None):\n"
        "        self.assertEqual(first.utcoffset(), second.utcoffset(), msg)\n")),
        **edit(DU, T_RD, (
            "from ._common import NotAValue\n",
            "from ._common import NotAValue, OffsetAssertions\n"), (
            "class RelativeDeltaTest(unittest.TestCase):\n",
            "class RelativeDeltaTest(OffsetAssertions, unittest.TestCase):\n"))},
        "du-new-mixin-with-new-assertion"),
    # tests/_common.py: a new recorder class whose fail() logs (a method named like
    # TestCase.fail, but no assertion and no TestCase derives from it)
    honest(DU, edit(DU, "tests/_common.py", (
        "ComparesEqual = ComparesEqualClass()\n",
        "ComparesEqual = ComparesEqualClass()\n\n\n"
        "class FailureRecorder(object):\n"
        "    def __init__(self):\n        self.messages = []\n\n"
        "    def fail(self, message):\n        self.messages.append(message)\n")),
        "du-new-class-with-fail-method-not-a-mixin"),
    # tests/conftest.py (allowed): set_tzpath no longer prints
    honest(DU, edit(DU, "tests/conftest.py", (
        '    print("Setting TZPATH to {}".format(path_components))\n\n', "")),
        "du-allowed-conftest-print-removed", allow("tests/conftest.py")),
    # setup.cfg [tool:pytest] (allowed): one more registered marker
    honest(DU, edit(DU, "setup.cfg", ("\ttzstr\n", "\ttzstr\n\tslow\n")),
           "du-allowed-setup-cfg-marker-registered", allow("setup.cfg")),
    # tests/test_tz.py::TzPickleTest.setUp: the partial spelled through the functools module
    honest(DU, edit(DU, "tests/test_tz.py", (
        "from functools import partial\n", "import functools\n"), (
        "        self.assertPicklable = partial(self.assertPicklable,\n"
        "                                       asfile=self._asfile)\n",
        "        self.assertPicklable = functools.partial(self.assertPicklable,\n"
        "                                                 asfile=self._asfile)\n")),
        "du-setUp-partial-through-functools-module"),
    # tests/_common.py PicklableMixin.assertPicklable: the two checks get messages
    honest(DU, edit(DU, "tests/_common.py", (
        "            self.assertIsNot(obj, nobj)\n        self.assertEqual(obj, nobj)\n",
        "            self.assertIsNot(obj, nobj, msg='unpickled to the same object')\n"
        "        self.assertEqual(obj, nobj, msg='unpickled object differs')\n")),
        "du-helper-assertions-get-messages"),

    # ---------------------------------------------------------------- tomlkit
    # tests/test_api.py::test_parse_can_parse_valid_toml_files: a new example and its row
    honest(TK, {"tests/examples/newline_in_strings.toml":
                'this = "this\\\\nthat\\\\nmore"\nfoo = """bar\nbaz\nqux\n"""\n',
                **edit(TK, "tests/test_api.py", (
                    '        "table_names",\n    ],\n)\ndef test_parse_can',
                    '        "table_names",\n        "newline_in_strings",\n'
                    '    ],\n)\ndef test_parse_can'))},
           "tk-new-example-file-and-row"),
    # tests/util.py assert_not_tomlkit_type: the unused enumerate dropped
    honest(TK, edit(TK, "tests/util.py", (
        "    for _, tomlkit_type in enumerate(TOMLKIT_TYPES):\n",
        "    for tomlkit_type in TOMLKIT_TYPES:\n")), "tk-helper-loop-enumerate-dropped"),
    # tests/util.py assert_not_tomlkit_type: the count renamed and started at 1 (never read)
    honest(TK, edit(TK, "tests/util.py", (
        "    for _, tomlkit_type in enumerate(TOMLKIT_TYPES):\n",
        "    for _index, tomlkit_type in enumerate(TOMLKIT_TYPES, start=1):\n")),
        "tk-helper-loop-enumerate-start-unused-count"),
    # tests/test_api.py::test_parse_can_parse_valid_toml_files: isinstance -> exact type
    honest(TK, edit(TK, "tests/test_api.py", (
        "    assert isinstance(parse(example(example_name)), TOMLDocument)\n",
        "    assert type(parse(example(example_name))) is TOMLDocument\n")),
        "tk-isinstance-to-exact-type"),
]


scored, test_tampering_is_rejected, test_honest_change_is_not_rejected = case_tests(
    TAMPER_CASES, BENIGN_CASES)
