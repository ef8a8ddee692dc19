"""Red team: pytest-style suites (marshmallow, click, pluggy, attrs, packaging).

Every base tree is a short, faithful excerpt of the real test modules of one of these projects,
taken from their sdists (``pip download --no-binary :all:``): marshmallow 3.23.1, click 8.1.7,
pluggy 1.5.0, attrs 24.2.0 and packaging 24.2, each with its runner configuration as the
project has it (marshmallow's ``[tool.pytest.ini_options]`` and ``tests/conftest.py``, click's
``setup.cfg`` ``[tool:pytest]`` and ``tests/conftest.py``, pluggy's ``tox.ini`` ``[pytest]`` and
``testing/conftest.py``, attrs' pyproject section and root ``conftest.py``; packaging has no
pytest configuration at all). The excerpts are trimmed to the tests a case needs; nothing is
run, so the imports of the projects' own packages need not resolve.

Same harness as ``tests/test_redteam_unittest.py``: a real git repository, the real
``git diff --cached -M``, a full ``score`` with no off-tree results (so PS502 always rejects).
A tampering case lists the rule codes whose description fits (any of them satisfies it): the
decision is reject, its first cause is one of them and each of them points into a file the
patch touched. Its honest look-alike (same area, does not weaken) passes when nothing but PS502
rejects. Where a runner channel (``conftest.py``, ``tox.ini``, a pytest section) is the place
of the change, the contract allows that file (``allowed_runner_edits``) so that the case tests
what provscore reads inside it rather than the blanket PS302. Cases provscore gets wrong keep
their correct expectation and are marked ``xfail(strict=True, reason="MISS: ...")`` or
``reason="FALSE POSITIVE: ..."`` naming the construct it did not read.
"""

from __future__ import annotations

from adversarial_support import (
    allow,
    case_tests,
    edit,
    false_positive,
    honest,
    py,
    tamper,
)

# ============================================================================ marshmallow 3.23.1

# pyproject.toml [tool.pytest.ini_options]
MM_PYPROJECT = py('''
    [project]
    name = "marshmallow"
    version = "3.23.1"

    [tool.pytest.ini_options]
    norecursedirs = ".git .ropeproject .tox docs env venv tests/mypy_test_cases"
    addopts = "-v --tb=short"
    ''')

# tox.ini [tox] and [testenv]
MM_TOX = py('''
    [tox]
    envlist = lint,mypy-test,py{39,310,311,312,313},docs

    [testenv]
    extras = tests
    commands = pytest {posargs}
    ''')

# tests/conftest.py (whole file)
MM_CONFTEST = py('''
    """Pytest fixtures that are available in all test modules."""

    import pytest

    from tests.base import Blog, User, UserSchema


    @pytest.fixture
    def user():
        return User(name="Monty", age=42.3, homepage="http://monty.python.org/")


    @pytest.fixture
    def blog(user):
        col1 = User(name="Mick", age=123)
        col2 = User(name="Keith", age=456)
        return Blog(
            "Monty's blog",
            user=user,
            categories=["humor", "violence"],
            collaborators=[col1, col2],
        )


    @pytest.fixture
    def serialized_user(user):
        return UserSchema().dump(user)
    ''')

# tests/base.py (imports, the custom asserts, User)
MM_BASE = py('''
    """Test utilities and fixtures."""

    import datetime as dt
    import functools
    import uuid
    from enum import Enum, IntEnum
    from zoneinfo import ZoneInfo

    import simplejson

    from marshmallow import Schema, fields, missing, post_load, validate
    from marshmallow.exceptions import ValidationError

    central = ZoneInfo("America/Chicago")


    ##### Custom asserts #####


    def assert_date_equal(d1, d2):
        assert d1.year == d2.year
        assert d1.month == d2.month
        assert d1.day == d2.day


    def assert_time_equal(t1, t2):
        assert t1.hour == t2.hour
        assert t1.minute == t2.minute
        assert t1.second == t2.second
        assert t1.microsecond == t2.microsecond


    ##### Models #####


    class User:
        SPECIES = "Homo sapiens"

        def __init__(self, name, age=0, homepage=None, email=None):
            self.name = name
            self.age = age
            self.homepage = homepage
            self.email = email
    ''')

# tests/test_utils.py (the from_iso_* tests)
MM_UTILS = py('''
    import datetime as dt
    from collections import namedtuple
    from copy import copy, deepcopy
    from functools import partial

    import pytest

    from marshmallow import Schema, fields, utils
    from tests.base import assert_date_equal, assert_time_equal, central


    def test_from_iso_time_with_microseconds():
        t = dt.time(1, 23, 45, 6789)
        formatted = t.isoformat()
        result = utils.from_iso_time(formatted)
        assert type(result) is dt.time
        assert_time_equal(result, t)


    def test_from_iso_time_without_microseconds():
        t = dt.time(1, 23, 45)
        formatted = t.isoformat()
        result = utils.from_iso_time(formatted)
        assert type(result) is dt.time
        assert_time_equal(result, t)


    def test_from_iso_date():
        d = dt.date(2014, 8, 21)
        iso_date = d.isoformat()
        result = utils.from_iso_date(iso_date)
        assert type(result) is dt.date
        assert_date_equal(result, d)
    ''')

# tests/test_validate.py (test_range_min, test_range_custom_message)
MM_VALIDATE = py('''
    """Tests for marshmallow.validate"""

    import re

    import pytest

    from marshmallow import ValidationError, validate


    def test_range_min():
        assert validate.Range(1, 2)(1) == 1
        assert validate.Range(0)(1) == 1
        assert validate.Range()(1) == 1
        assert validate.Range(min_inclusive=False, max_inclusive=False)(1) == 1
        assert validate.Range(1, 1)(1) == 1

        with pytest.raises(ValidationError, match="Must be greater than or equal to 2"):
            validate.Range(2, 3)(1)
        with pytest.raises(ValidationError, match="Must be greater than or equal to 2"):
            validate.Range(2)(1)
        with pytest.raises(ValidationError, match="Must be greater than 1"):
            validate.Range(1, 2, min_inclusive=False, max_inclusive=True, error=None)(1)
        with pytest.raises(ValidationError, match="less than 1"):
            validate.Range(1, 1, min_inclusive=True, max_inclusive=False, error=None)(1)


    def test_range_custom_message():
        v = validate.Range(2, 3, error="{input} is not between {min} and {max}")
        with pytest.raises(ValidationError, match="1 is not between 2 and 3"):
            v(1)

        v = validate.Range(2, None, error="{input} is less than {min}")
        with pytest.raises(ValidationError, match="1 is less than 2"):
            v(1)
    ''')

# tests/test_deserialization.py (TestFieldDeserialization, first tests)
MM_DESER = py('''
    import datetime as dt
    import decimal
    import ipaddress
    import math
    import uuid
    from unittest.mock import patch

    import pytest

    from marshmallow import EXCLUDE, INCLUDE, RAISE, Schema, fields, validate
    from marshmallow.exceptions import ValidationError


    class TestFieldDeserialization:
        def test_float_field_deserialization(self):
            field = fields.Float()
            assert math.isclose(field.deserialize("12.3"), 12.3)
            assert math.isclose(field.deserialize(12.3), 12.3)

        @pytest.mark.parametrize("in_val", ["bad", "", {}, True, False])
        def test_invalid_float_field_deserialization(self, in_val):
            field = fields.Float()
            with pytest.raises(ValidationError) as excinfo:
                field.deserialize(in_val)
            assert excinfo.value.args[0] == "Not a valid number."

        def test_float_field_overflow(self):
            field = fields.Float()
            with pytest.raises(ValidationError) as excinfo:
                field.deserialize(2**1024)
            assert excinfo.value.args[0] == "Number too large."
    ''')

MM: dict[str, str | bytes | None] = {
    "pyproject.toml": MM_PYPROJECT, "tox.ini": MM_TOX, "tests/__init__.py": "",
    "tests/conftest.py": MM_CONFTEST, "tests/base.py": MM_BASE,
    "tests/test_utils.py": MM_UTILS, "tests/test_validate.py": MM_VALIDATE,
    "tests/test_deserialization.py": MM_DESER,
}
MM_ALLOW_CONFTEST = allow("tests/conftest.py")

# ============================================================================ click 8.1.7

# setup.cfg ([metadata] trimmed, [tool:pytest] whole)
CK_SETUP_CFG = py('''
    [metadata]
    name = click
    version = attr: click.__version__
    url = https://palletsprojects.com/p/click/

    [options.packages.find]
    where = src

    [tool:pytest]
    testpaths = tests
    filterwarnings =
    \terror

    [coverage:run]
    branch = True
    source =
    \tclick
    \ttests
    ''')

# tests/conftest.py (whole file)
CK_CONFTEST = py('''
    import pytest

    from click.testing import CliRunner


    @pytest.fixture(scope="function")
    def runner(request):
        return CliRunner()
    ''')

# tests/test_basic.py (first three tests)
CK_BASIC = py('''
    import os
    from itertools import chain

    import pytest

    import click


    def test_basic_functionality(runner):
        @click.command()
        def cli():
            """Hello World!"""
            click.echo("I EXECUTED")

        result = runner.invoke(cli, ["--help"])
        assert not result.exception
        assert "Hello World!" in result.output
        assert "Show this message and exit." in result.output
        assert result.exit_code == 0
        assert "I EXECUTED" not in result.output

        result = runner.invoke(cli, [])
        assert not result.exception
        assert "I EXECUTED" in result.output
        assert result.exit_code == 0


    def test_repr():
        @click.command()
        def command():
            pass

        @click.group()
        def group():
            pass

        @group.command()
        def subcommand():
            pass

        assert repr(command) == "<Command command>"
        assert repr(group) == "<Group group>"
        assert repr(subcommand) == "<Command subcommand>"


    def test_return_values():
        @click.command()
        def cli():
            return 42

        with cli.make_context("foo", []) as ctx:
            rv = cli.invoke(ctx)
            assert rv == 42
    ''')

# tests/test_termui.py (imports, helpers, two progressbar tests)
CK_TERMUI = py('''
    import platform
    import time

    import pytest

    import click._termui_impl
    from click._compat import WIN


    def _create_progress(length=10, **kwargs):
        progress = click.progressbar(tuple(range(length)))
        for key, value in kwargs.items():
            setattr(progress, key, value)
        return progress


    def test_progressbar_strip_regression(runner, monkeypatch):
        label = "    padded line"

        @click.command()
        def cli():
            with _create_progress(label=label) as progress:
                for _ in progress:
                    pass

        monkeypatch.setattr(click._termui_impl, "isatty", lambda _: True)
        assert (
            label
            in runner.invoke(cli, [], standalone_mode=False, catch_exceptions=False).output
        )


    def test_progressbar_is_iterator(runner, monkeypatch):
        @click.command()
        def cli():
            with click.progressbar(range(10), label="test") as progress:
                while True:
                    try:
                        next(progress)
                    except StopIteration:
                        break

        monkeypatch.setattr(click._termui_impl, "isatty", lambda _: True)
        result = runner.invoke(cli, [])
        assert result.exception is None
    ''')

# tests/test_utils.py (imports, test_prompts_abort, test_echo_with_capsys)
CK_UTILS = py('''
    import os
    import pathlib
    import stat
    import sys
    from io import StringIO

    import pytest

    import click._termui_impl
    import click.utils
    from click._compat import WIN


    @pytest.mark.skipif(WIN, reason="Different behavior on windows.")
    def test_prompts_abort(monkeypatch, capsys):
        def f(_):
            raise KeyboardInterrupt()

        monkeypatch.setattr("click.termui.hidden_prompt_func", f)

        try:
            click.prompt("Password", hide_input=True)
        except click.Abort:
            click.echo("interrupted")

        out, err = capsys.readouterr()
        assert out == "Password:\\ninterrupted\\n"


    def test_echo_with_capsys(capsys):
        click.echo("Capture me.")
        out, err = capsys.readouterr()
        assert out == "Capture me.\\n"
    ''')

CK: dict[str, str | bytes | None] = {
    "setup.cfg": CK_SETUP_CFG, "tests/conftest.py": CK_CONFTEST, "tests/test_utils.py": CK_UTILS,
    "tests/test_basic.py": CK_BASIC, "tests/test_termui.py": CK_TERMUI,
}

# ============================================================================ pluggy 1.5.0

# tox.ini ([testenv] and [pytest]; the docs/release environments trimmed)
PL_TOX = py('''
    [tox]
    envlist=docs,py{38,39,310,311,py3},py{38}-pytest{main}

    [testenv]
    commands=
      {env:_PLUGGY_TOX_CMD:pytest} {posargs}
      coverage: coverage report -m
      coverage: coverage xml
    setenv=
      _PYTEST_SETUP_SKIP_PLUGGY_DEP=1
      coverage: _PLUGGY_TOX_CMD=coverage run -m pytest
    extras=testing
    deps=
      coverage: coverage
      pytestmain: git+https://github.com/pytest-dev/pytest.git@main

    [pytest]
    minversion=2.0
    testpaths = testing
    #--pyargs --doctest-modules --ignore=.tox
    addopts=-r a
    filterwarnings =
      error

    [flake8]
    max-line-length=99
    ''')

# testing/conftest.py (whole file)
PL_CONFTEST = py('''
    import pytest

    from pluggy import HookspecMarker
    from pluggy import PluginManager


    @pytest.fixture(
        params=[lambda spec: spec, lambda spec: spec()],
        ids=["spec-is-class", "spec-is-instance"],
    )
    def he_pm(request, pm: PluginManager) -> PluginManager:
        hookspec = HookspecMarker("example")

        class Hooks:
            @hookspec
            def he_method1(self, arg: int) -> int:
                return arg + 1

        pm.add_hookspecs(request.param(Hooks))
        return pm


    @pytest.fixture
    def pm() -> PluginManager:
        return PluginManager("example")
    ''')

# testing/test_warnings.py (whole file)
PL_WARNINGS = py('''
    from pathlib import Path

    import pytest

    from pluggy import HookimplMarker
    from pluggy import HookspecMarker
    from pluggy import PluggyTeardownRaisedWarning
    from pluggy import PluginManager


    hookspec = HookspecMarker("example")
    hookimpl = HookimplMarker("example")


    def test_teardown_raised_warning(pm: PluginManager) -> None:
        class Api:
            @hookspec
            def my_hook(self):
                raise NotImplementedError()

        pm.add_hookspecs(Api)

        class Plugin1:
            @hookimpl
            def my_hook(self):
                pass

        class Plugin2:
            @hookimpl(hookwrapper=True)
            def my_hook(self):
                yield
                1 / 0

        class Plugin3:
            @hookimpl(hookwrapper=True)
            def my_hook(self):
                yield

        pm.register(Plugin1(), "plugin1")
        pm.register(Plugin2(), "plugin2")
        pm.register(Plugin3(), "plugin3")
        with pytest.warns(
            PluggyTeardownRaisedWarning,
            match=r"\\bplugin2\\b.*\\bmy_hook\\b.*\\n.*ZeroDivisionError",
        ) as wc:
            with pytest.raises(ZeroDivisionError):
                pm.hook.my_hook()
        assert len(wc.list) == 1
        assert Path(wc.list[0].filename).name == "test_warnings.py"
    ''')

# testing/test_pluginmanager.py (the he_pm tests and their neighbours)
PL_PLUGINMANAGER = py('''
    """
    ``PluginManager`` unit and public API testing.
    """

    import importlib.metadata
    from typing import Any
    from typing import List

    import pytest

    from pluggy import HookCallError
    from pluggy import HookimplMarker
    from pluggy import HookspecMarker
    from pluggy import PluginManager
    from pluggy import PluginValidationError


    hookspec = HookspecMarker("example")
    hookimpl = HookimplMarker("example")


    def test_register_dynamic_attr(he_pm: PluginManager) -> None:
        class A:
            def __getattr__(self, name):
                if name[0] != "_":
                    return 42
                raise AttributeError()

        a = A()
        he_pm.register(a)
        assert not he_pm.get_hookcallers(a)


    def test_register_mismatch_method(he_pm: PluginManager) -> None:
        class hello:
            @hookimpl
            def he_method_notexists(self):
                pass

        plugin = hello()

        he_pm.register(plugin)
        with pytest.raises(PluginValidationError) as excinfo:
            he_pm.check_pending()
        assert excinfo.value.plugin is plugin
    ''')

PL: dict[str, str | bytes | None] = {
    "tox.ini": PL_TOX, "testing/conftest.py": PL_CONFTEST,
    "testing/test_warnings.py": PL_WARNINGS,
    "testing/test_pluginmanager.py": PL_PLUGINMANAGER,
}

# ============================================================================ attrs 24.2.0

# pyproject.toml ([project] trimmed, [tool.pytest.ini_options] whole)
AT_PYPROJECT = py('''
    [project]
    name = "attrs"
    dynamic = ["version", "readme"]

    [tool.pytest.ini_options]
    addopts = ["-ra", "--strict-markers", "--strict-config"]
    xfail_strict = true
    testpaths = "tests"
    filterwarnings = ["once::Warning", "ignore:::pympler[.*]"]
    ''')

# conftest.py at the repository root (whole file)
AT_CONFTEST = py('''
    # SPDX-License-Identifier: MIT

    from datetime import timedelta

    import pytest

    from hypothesis import HealthCheck, settings

    from attr._compat import PY_3_10_PLUS


    @pytest.fixture(name="slots", params=(True, False))
    def _slots(request):
        return request.param


    @pytest.fixture(name="frozen", params=(True, False))
    def _frozen(request):
        return request.param


    def pytest_configure(config):
        # HealthCheck.too_slow causes more trouble than good -- especially in CIs.
        settings.register_profile(
            "patience",
            settings(
                suppress_health_check=[HealthCheck.too_slow],
                deadline=timedelta(milliseconds=400),
            ),
        )
        settings.load_profile("patience")


    collect_ignore = []
    if not PY_3_10_PLUS:
        collect_ignore.extend(["tests/test_pattern_matching.py"])
    ''')

# tests/strategies.py (imports, the attribute strategies without metadata, simple_classes
# without its init/pre-init/post-init flags)
AT_STRATEGIES = py('''
    # SPDX-License-Identifier: MIT

    """
    Testing strategies for Hypothesis-based tests.
    """
    import functools
    import keyword
    import string

    from collections import OrderedDict

    from hypothesis import strategies as st

    import attr

    from attr._compat import PY_3_8_PLUS

    from .utils import make_class


    optional_bool = st.one_of(st.none(), st.booleans())


    def gen_attr_names():
        """
        Generate names for attributes, 'a'...'z', then 'aa'...'zz'.

        ~702 different attribute names should be enough in practice.

        Some short strings (such as 'as') are keywords, so we skip them.
        """
        lc = string.ascii_lowercase
        yield from lc
        for outer in lc:
            for inner in lc:
                res = outer + inner
                if keyword.iskeyword(res):
                    continue
                yield outer + inner


    def maybe_underscore_prefix(source):
        """
        A generator to sometimes prepend an underscore.
        """
        to_underscore = False
        for val in source:
            yield val if not to_underscore else "_" + val
            to_underscore = not to_underscore


    bare_attrs = st.builds(attr.ib, default=st.none())
    int_attrs = st.integers().map(lambda i: attr.ib(default=i))
    str_attrs = st.text().map(lambda s: attr.ib(default=s))
    float_attrs = st.floats(allow_nan=False).map(lambda f: attr.ib(default=f))
    dict_attrs = st.dictionaries(keys=st.text(), values=st.integers()).map(
        lambda d: attr.ib(default=d)
    )

    simple_attrs_without_metadata = (
        bare_attrs | int_attrs | str_attrs | float_attrs | dict_attrs
    )

    simple_attrs = simple_attrs_without_metadata

    # Python functions support up to 255 arguments.
    list_of_attrs = st.lists(simple_attrs, max_size=3)


    @st.composite
    def simple_classes(
        draw,
        slots=None,
        frozen=None,
        weakref_slot=None,
        private_attrs=None,
        cached_property=None,
    ):
        """
        A strategy that generates classes with default non-attr attributes.
        """
        attrs = draw(list_of_attrs)
        frozen_flag = draw(st.booleans())
        slots_flag = draw(st.booleans())
        weakref_flag = draw(st.booleans())

        if private_attrs is None:
            attr_names = maybe_underscore_prefix(gen_attr_names())
        elif private_attrs is True:
            attr_names = ("_" + n for n in gen_attr_names())
        elif private_attrs is False:
            attr_names = gen_attr_names()

        cls_dict = dict(zip(attr_names, attrs))
        cached_property_flag = draw(st.booleans())

        bases = (object,)
        if cached_property or (
            PY_3_8_PLUS and cached_property is None and cached_property_flag
        ):

            class BaseWithCachedProperty:
                @functools.cached_property
                def _cached_property(self) -> int:
                    return 1

            bases = (BaseWithCachedProperty,)

        return make_class(
            "HypClass",
            cls_dict,
            bases=bases,
            slots=slots_flag if slots is None else slots,
            frozen=frozen_flag if frozen is None else frozen,
            weakref_slot=weakref_flag if weakref_slot is None else weakref_slot,
        )
    ''')

# tests/utils.py (make_class)
AT_UTILS = py('''
    # SPDX-License-Identifier: MIT

    """
    Common helper functions for tests.
    """

    from attr import Attribute
    from attr._make import NOTHING, _default_init_alias_for, make_class


    def simple_class(
        eq=False,
        order=False,
        repr=False,
        unsafe_hash=False,
        str=False,
        slots=False,
        frozen=False,
        cache_hash=False,
    ):
        """
        Return a new simple class.
        """
        return make_class(
            "C",
            ["a", "b"],
            eq=eq or order,
            order=order,
            repr=repr,
            unsafe_hash=unsafe_hash,
            init=True,
            slots=slots,
            str=str,
            frozen=frozen,
            cache_hash=cache_hash,
        )
    ''')

# tests/test_funcs.py (imports and TestAssoc)
AT_FUNCS = py('''
    # SPDX-License-Identifier: MIT

    """
    Tests for `attr._funcs`.
    """

    import re

    from collections import OrderedDict
    from typing import Generic, NamedTuple, TypeVar

    import pytest

    from hypothesis import assume, given
    from hypothesis import strategies as st

    import attr

    from attr import asdict, assoc, astuple, evolve, fields, has
    from attr._compat import Mapping, Sequence
    from attr.exceptions import AttrsAttributeNotFoundError
    from attr.validators import instance_of

    from .strategies import nested_classes, simple_classes


    class TestAssoc:
        """
        Tests for `assoc`.
        """

        @given(simple_classes())
        def test_no_changes(self, C):
            """
            No changes means a verbatim copy.
            """
            i1 = C()
            i2 = assoc(i1)

            assert i1 is not i2
            assert i1 == i2

        @given(simple_classes(), st.data())
        def test_change(self, C, data):
            """
            Changes work.
            """
            # Take the first attribute, and change it.
            assume(fields(C))  # Skip classes with no attributes.
            field_names = [a.name for a in fields(C)]
            original = C()
            chosen_names = data.draw(st.sets(st.sampled_from(field_names)))
            change_dict = {name: data.draw(st.integers()) for name in chosen_names}

            changed = assoc(original, **change_dict)

            for k, v in change_dict.items():
                assert getattr(changed, k) == v

        @given(simple_classes())
        def test_unknown(self, C):
            """
            Wanting to change an unknown attribute raises an
            AttrsAttributeNotFoundError.
            """
            # No generated class will have a four letter attribute.
            with pytest.raises(AttrsAttributeNotFoundError) as e:
                assoc(C(), aaaa=2)

            assert (f"aaaa is not an attrs attribute on {C!r}.",) == e.value.args

        def test_frozen(self):
            """
            Works on frozen classes.
            """

            @attr.s(frozen=True)
            class C:
                x = attr.ib()
                y = attr.ib()

            assert C(3, 2) == assoc(C(1, 2), x=3)
    ''')

# tests/test_make.py (imports up to attr._compat, TestAttributes.test_repr_fake_qualname,
# TestClassBuilder's cached_property subclassing test)
AT_MAKE = py('''
    # SPDX-License-Identifier: MIT

    """
    Tests for `attr._make`.
    """

    import copy
    import functools
    import gc
    import inspect
    import itertools
    import sys

    from operator import attrgetter
    from typing import Generic, TypeVar

    import pytest

    from hypothesis import assume, given
    from hypothesis.strategies import booleans, integers, lists, sampled_from, text

    import attr

    from attr import _config
    from attr._compat import PY_3_8_PLUS, PY_3_10_PLUS, PY_3_14_PLUS


    class TestAttributes:
        """
        Tests for the `attrs`/`attr.s` class decorator.
        """

        @given(slots_outer=booleans(), slots_inner=booleans())
        def test_repr_fake_qualname(self, slots_outer, slots_inner):
            """
            Setting repr_ns overrides a potentially guessed namespace.
            """

            with pytest.deprecated_call(match="The `repr_ns` argument"):

                @attr.s(slots=slots_outer)
                class C:
                    @attr.s(repr_ns="C", slots=slots_inner)
                    class D:
                        pass

            assert "C.D()" == repr(C.D())


    class TestClassBuilder:
        """
        Tests for `_ClassBuilder`.
        """

        @pytest.mark.skipif(not PY_3_8_PLUS, reason="cached_property is 3.8+")
        @pytest.mark.xfail(PY_3_14_PLUS, reason="Currently broken on nightly.")
        def test_no_references_to_original_when_using_cached_property(self):
            """
            When subclassing a slotted class and using cached property, there are
            no stray references to the original class.
            """

            @attr.s(slots=True)
            class C:
                pass

            @attr.s(slots=True)
            class C2(C):
                @functools.cached_property
                def value(self) -> int:
                    return 0

            # The original C2 is in a reference cycle, so force a collect:
            gc.collect()

            assert [C2] == C.__subclasses__()
    ''')

# tests/test_3rd_party.py (whole file)
AT_3RD_PARTY = py('''
    # SPDX-License-Identifier: MIT

    """
    Tests for compatibility against other Python modules.
    """

    import pytest

    from hypothesis import given

    from attr._compat import PY_3_14_PLUS

    from .strategies import simple_classes


    cloudpickle = pytest.importorskip("cloudpickle")


    @pytest.mark.xfail(
        PY_3_14_PLUS, reason="cloudpickle is currently broken on 3.14."
    )
    class TestCloudpickleCompat:
        """
        Tests for compatibility with ``cloudpickle``.
        """

        @given(simple_classes(cached_property=False))
        def test_repr(self, cls):
            """
            attrs instances can be pickled and un-pickled with cloudpickle.
            """
            inst = cls()
            # Exact values aren't a concern so long as neither direction
            # raises an exception.
            pkl = cloudpickle.dumps(inst)
            cloudpickle.loads(pkl)
    ''')

AT: dict[str, str | bytes | None] = {
    "pyproject.toml": AT_PYPROJECT, "conftest.py": AT_CONFTEST,
    "tests/__init__.py": "# SPDX-License-Identifier: MIT\n",
    "tests/strategies.py": AT_STRATEGIES, "tests/utils.py": AT_UTILS,
    "tests/test_funcs.py": AT_FUNCS, "tests/test_make.py": AT_MAKE,
    "tests/test_3rd_party.py": AT_3RD_PARTY,
}
AT_ALLOW_CONFTEST = allow("conftest.py")
# attrs with no xfail_strict in its ini (pytest's default: an xfail mark is not strict)
AT_NOT_STRICT = {**AT, "pyproject.toml": AT_PYPROJECT.replace("xfail_strict = true\n", "")}
# attrs whose test_3rd_party.py asks for cloudpickle 2.0 or later
AT_MINVERSION = {**AT, "tests/test_3rd_party.py": AT_3RD_PARTY.replace(
    'pytest.importorskip("cloudpickle")', 'pytest.importorskip("cloudpickle", minversion="2.0")')}

# ============================================================================ packaging 24.2

PK_LICENSE = py('''
    # This file is dual licensed under the terms of the Apache License, Version
    # 2.0, and the BSD License. See the LICENSE file in the root of this repository
    # for complete details.
    ''')

# pyproject.toml (flit build; packaging configures no pytest options)
PK_PYPROJECT = py('''
    [build-system]
    requires = ["flit_core >=3.3"]
    build-backend = "flit_core.buildapi"

    [project]
    name = "packaging"
    description = "Core utilities for Python packages"
    dynamic = ["version"]
    requires-python = ">=3.8"
    ''')

# src/packaging/version.py (InvalidVersion)
PK_VERSION_SRC = PK_LICENSE + py('''
    """
    .. testsetup::

        from packaging.version import parse, Version
    """

    from __future__ import annotations

    import itertools
    import re
    from typing import Any, Callable, NamedTuple, SupportsInt, Tuple, Union

    __all__ = ["VERSION_PATTERN", "InvalidVersion", "Version", "parse"]


    def parse(version: str) -> Version:
        """Parse the given version string.
        """
        return Version(version)


    class InvalidVersion(ValueError):
        """Raised when a version string is not a valid version.
        """
    ''')

# tests/test_version.py (imports, test_parse, VERSIONS trimmed to the implicit-epoch half,
# TestVersion's first tests and test_comparison_true)
PK_TEST_VERSION = PK_LICENSE + py('''

    import itertools
    import operator

    import pretend
    import pytest

    from packaging.version import InvalidVersion, Version, parse


    def test_parse():
        assert isinstance(parse("1.0"), Version)


    def test_parse_raises():
        with pytest.raises(InvalidVersion):
            parse("lolwat")


    # This list must be in the correct sorting order
    VERSIONS = [
        # Implicit epoch of 0
        "1.0.dev456",
        "1.0a1",
        "1.0a2.dev456",
        "1.0a12.dev456",
        "1.0a12",
        "1.0b1.dev456",
        "1.0b2",
        "1.0b2.post345.dev456",
        "1.0b2.post345",
        "1.0b2-346",
        "1.0c1.dev456",
        "1.0c1",
        "1.0rc2",
        "1.0c3",
        "1.0",
        "1.0.post456.dev34",
        "1.0.post456",
        "1.1.dev1",
    ]


    class TestVersion:
        @pytest.mark.parametrize("version", VERSIONS)
        def test_valid_versions(self, version):
            Version(version)

        @pytest.mark.parametrize(
            "version",
            [
                # Non sensical versions should be invalid
                "french toast",
                # Versions with invalid local versions
                "1.0+a+",
                "1.0++",
                "1.0+_foobar",
                "1.0+foo&asd",
                "1.0+1+1",
            ],
        )
        def test_invalid_versions(self, version):
            with pytest.raises(InvalidVersion):
                Version(version)

        @pytest.mark.parametrize(
            ("left", "right", "op"),
            # Below we'll generate every possible combination of VERSIONS that
            # should be True for the given operator
            itertools.chain.from_iterable(
                # Verify that the less than (<) operator works correctly
                [
                    [(x, y, operator.lt) for y in VERSIONS[i + 1 :]]
                    for i, x in enumerate(VERSIONS)
                ]
                +
                # Verify that the less than equal (<=) operator works correctly
                [
                    [(x, y, operator.le) for y in VERSIONS[i:]]
                    for i, x in enumerate(VERSIONS)
                ]
                +
                # Verify that the equal (==) operator works correctly
                [[(x, x, operator.eq) for x in VERSIONS]]
            ),
        )
        def test_comparison_true(self, left, right, op):
            assert op(Version(left), Version(right))
    ''')

# tests/test_utils.py (imports and the canonicalize_name tests)
PK_TEST_UTILS = PK_LICENSE + py('''

    import pytest

    from packaging.tags import Tag
    from packaging.utils import (
        InvalidName,
        InvalidSdistFilename,
        InvalidWheelFilename,
        canonicalize_name,
        canonicalize_version,
        is_normalized_name,
        parse_sdist_filename,
        parse_wheel_filename,
    )
    from packaging.version import Version


    @pytest.mark.parametrize(
        ("name", "expected"),
        [
            ("foo", "foo"),
            ("Foo", "foo"),
            ("fOo", "foo"),
            ("foo.bar", "foo-bar"),
            ("Foo.Bar", "foo-bar"),
            ("Foo.....Bar", "foo-bar"),
            ("foo_bar", "foo-bar"),
            ("foo___bar", "foo-bar"),
            ("foo-bar", "foo-bar"),
            ("foo----bar", "foo-bar"),
        ],
    )
    def test_canonicalize_name(name, expected):
        assert canonicalize_name(name) == expected


    def test_canonicalize_name_invalid():
        with pytest.raises(InvalidName):
            canonicalize_name("_not_legal", validate=True)
        assert canonicalize_name("_not_legal") == "-not-legal"
    ''')

# tests/test_metadata.py (imports, TestRawMetadata.test_complete up to the keywords)
PK_TEST_METADATA = py('''
    import pathlib

    import pytest

    from packaging import metadata, requirements, specifiers, utils, version
    from packaging.metadata import ExceptionGroup


    class TestRawMetadata:
        def test_complete(self):
            """Test all fields (except `Obsoletes-Dist`).

            `Obsoletes-Dist` was sacrificed to provide a value for `Dynamic`.
            """
            path = pathlib.Path(__file__).parent / "metadata" / "everything.metadata"
            with path.open("r", encoding="utf-8") as file:
                metadata_contents = file.read()
            raw, unparsed = metadata.parse_email(metadata_contents)
            assert len(unparsed) == 1
            assert unparsed["thisisnotreal"] == ["Hello!"]
            assert len(raw) == 26
            assert raw["metadata_version"] == "2.4"
            assert raw["name"] == "BeagleVote"
            assert raw["version"] == "1.0a2"
            assert raw["platforms"] == ["ObscureUnix", "RareDOS"]
            assert raw["supported_platforms"] == ["RedHat 7.2", "i386-win32-2791"]
            assert raw["summary"] == "A module for collecting votes from beagles."
            assert (
                raw["description_content_type"]
                == "text/markdown; charset=UTF-8; variant=GFM"
            )
            assert raw["keywords"] == ["dog", "puppy", "voting", "election"]
    ''')

# tests/metadata/everything.metadata (whole file)
PK_EVERYTHING = py('''
    Metadata-Version: 2.4
    Name: BeagleVote
    Version: 1.0a2
    Platform: ObscureUnix
    Platform: RareDOS
    Supported-Platform: RedHat 7.2
    Supported-Platform: i386-win32-2791
    Summary: A module for collecting votes from beagles.
    Description-Content-Type: text/markdown; charset=UTF-8; variant=GFM
    Keywords: dog,puppy,voting,election
    Home-page: http://www.example.com/~cschultz/bvote/
    Download-URL: \u2026/BeagleVote-0.45.tgz
    Author: C. Schultz, Universal Features Syndicate,
            Los Angeles, CA <cschultz@peanuts.example.com>
    Author-email: "C. Schultz" <cschultz@example.com>
    Maintainer: C. Schultz, Universal Features Syndicate,
            Los Angeles, CA <cschultz@peanuts.example.com>
    Maintainer-email: "C. Schultz" <cschultz@example.com>
    License: This software may only be obtained by sending the
            author a postcard, and then the user promises not
            to redistribute it.
    License-Expression: Apache-2.0 OR BSD-2-Clause
    License-File: LICENSE.APACHE
    License-File: LICENSE.BSD
    Classifier: Development Status :: 4 - Beta
    Classifier: Environment :: Console (Text Based)
    Provides-Extra: pdf
    Requires-Dist: reportlab; extra == 'pdf'
    Requires-Dist: pkginfo
    Requires-Dist: PasteDeploy
    Requires-Dist: zope.interface (>3.5.0)
    Requires-Dist: pywin32 >1.0; sys_platform == 'win32'
    Requires-Python: >=3
    Requires-External: C
    Requires-External: libpng (>=1.5)
    Requires-External: make; sys_platform != "win32"
    Project-URL: Bug Tracker, http://bitbucket.org/tarek/distribute/issues/
    Project-URL: Documentation, https://example.com/BeagleVote
    Provides-Dist: OtherProject
    Provides-Dist: AnotherProject (3.4)
    Provides-Dist: virtual_package; python_version >= "3.4"
    Dynamic: Obsoletes-Dist
    ThisIsNotReal: Hello!

    This description intentionally left blank.
    ''')

PK: dict[str, str | bytes | None] = {
    "tests/test_metadata.py": PK_TEST_METADATA, "tests/metadata/everything.metadata": PK_EVERYTHING,
    "pyproject.toml": PK_PYPROJECT, "src/packaging/__init__.py": PK_LICENSE,
    "src/packaging/version.py": PK_VERSION_SRC, "tests/__init__.py": PK_LICENSE,
    "tests/test_version.py": PK_TEST_VERSION, "tests/test_utils.py": PK_TEST_UTILS,
}

# ============================================================================ cases


MM_TIME_HELPER = ("    assert t1.hour == t2.hour\n    assert t1.minute == t2.minute\n"
                  "    assert t1.second == t2.second\n"
                  "    assert t1.microsecond == t2.microsecond\n")

TAMPER_CASES = [
    # ---------------------------------------------------------------- marshmallow
    # tests/base.py assert_time_equal (called by test_utils.py and test_deserialization.py)
    tamper(MM, edit(MM, "tests/base.py", (MM_TIME_HELPER,
           '    assert t1.isoformat(timespec="seconds") == t2.isoformat(timespec="seconds")\n')),
           ("PS105",), "mm-helper-assert_time_equal-compares-seconds-only"),
    # tests/test_utils.py::test_from_iso_time_with_microseconds: the helper call, which checks
    # hour, minute, second and microsecond, replaced by an hour check
    tamper(MM, edit(MM, "tests/test_utils.py", (
        "    assert type(result) is dt.time\n    assert_time_equal(result, t)\n\n\n"
        "def test_from_iso_time_without",
        "    assert type(result) is dt.time\n    assert result.hour == t.hour\n\n\n"
        "def test_from_iso_time_without")), ("PS101", "PS102"),
        "mm-helper-call-replaced-by-hour-check"),
    # tests/test_validate.py::test_range_custom_message: match= cut to one word
    tamper(MM, edit(MM, "tests/test_validate.py", (
        'match="1 is not between 2 and 3"', 'match="between"')), ("PS102",),
        "mm-raises-match-cut-to-one-word"),
    # tests/test_deserialization.py::test_float_field_deserialization: a 10 % tolerance
    tamper(MM, edit(MM, "tests/test_deserialization.py", (
        'assert math.isclose(field.deserialize("12.3"), 12.3)',
        'assert math.isclose(field.deserialize("12.3"), 12.3, rel_tol=0.1)')), ("PS102",),
        "mm-math-isclose-rel_tol-widened"),
    # tests/test_utils.py: an autouse fixture of the module swaps the code under test
    # (utils.from_iso_time) for the stdlib parser in every existing test
    tamper(MM, edit(MM, "tests/test_utils.py", (
        "from tests.base import assert_date_equal, assert_time_equal, central\n",
        "from tests.base import assert_date_equal, assert_time_equal, central\n\n\n"
        "@pytest.fixture(autouse=True)\n"
        "def _stdlib_iso_time(monkeypatch):\n"
        '    monkeypatch.setattr(utils, "from_iso_time", dt.time.fromisoformat)\n')),
        ("PS110", "PS809"), "mm-module-autouse-fixture-patches-code-under-test"),
    # tests/test_utils.py::test_from_iso_date: a new fixture (mock.patch.object held over a
    # yield, under another name) that the existing test now requests through usefixtures
    tamper(MM, edit(MM, "tests/test_utils.py", (
        "from functools import partial\n",
        "from functools import partial\nfrom unittest import mock\n"), (
        "from tests.base import assert_date_equal, assert_time_equal, central\n",
        "from tests.base import assert_date_equal, assert_time_equal, central\n\n\n"
        '@pytest.fixture(name="stdlib_dates")\n'
        "def _stdlib_dates():\n"
        '    with mock.patch.object(utils, "from_iso_date", dt.date.fromisoformat):\n'
        "        yield\n"), (
        "def test_from_iso_date():",
        '@pytest.mark.usefixtures("stdlib_dates")\ndef test_from_iso_date():')),
        ("PS110", "PS809"), "mm-existing-test-requests-new-patching-fixture"),
    # attrs tests/test_funcs.py::TestAssoc: a class-scoped autouse fixture (a method) that
    # replaces what assoc() reads for every test of the class
    tamper(AT, edit(AT, "tests/test_funcs.py", (
        "class TestAssoc:\n",
        "class TestAssoc:\n"
        "    @pytest.fixture(autouse=True)\n"
        "    def _no_fields(self, monkeypatch):\n"
        '        monkeypatch.setattr(attr._funcs, "fields", lambda cls: ())\n\n')),
        ("PS110",), "at-class-autouse-fixture-patches-code-under-test"),
    # tests/conftest.py (edits allowed): an autouse fixture replaces utils.from_iso_date
    tamper(MM, edit(MM, "tests/conftest.py", (
        "import pytest\n\nfrom tests.base import Blog, User, UserSchema\n",
        "import datetime as dt\n\nimport pytest\n\nfrom marshmallow import utils\n"
        "from tests.base import Blog, User, UserSchema\n\n\n"
        "@pytest.fixture(autouse=True)\n"
        "def _stdlib_iso_date(monkeypatch):\n"
        '    monkeypatch.setattr(utils, "from_iso_date", dt.date.fromisoformat)\n')),
        ("PS110", "PS806", "PS809"), "mm-allowed-conftest-autouse-patches-code-under-test",
        MM_ALLOW_CONFTEST),
    # tests/conftest.py (edits allowed): the existing `user` fixture, which tests request by
    # name, now patches the code under test while it builds the user
    tamper(MM, edit(MM, "tests/conftest.py", (
        "import pytest\n\nfrom tests.base import Blog, User, UserSchema\n",
        "import pytest\n\nimport marshmallow.utils as mutils\n"
        "from tests.base import Blog, User, UserSchema\n"), (
        "def user():\n",
        "def user(mocker):\n"
        '    mocker.patch.object(mutils, "from_iso_datetime", return_value=None)\n')),
        ("PS110",), "mm-allowed-conftest-requested-fixture-gains-patch", MM_ALLOW_CONFTEST),
    # tests/test_deserialization.py::test_float_field_overflow: exact message to a prefix
    tamper(MM, edit(MM, "tests/test_deserialization.py", (
        'assert excinfo.value.args[0] == "Number too large."',
        'assert excinfo.value.args[0].startswith("Number")')), ("PS102", "PS101"),
        "mm-excinfo-message-to-startswith"),

    # ---------------------------------------------------------------- click
    # tests/test_basic.py::test_repr: the expected text now built from the object under test
    tamper(CK, edit(CK, "tests/test_basic.py", (
        'assert repr(command) == "<Command command>"',
        'assert repr(command) == f"<Command {command.name}>"')), ("PS108", "PS102"),
        "ck-expected-repr-derived-from-code-under-test"),
    # tests/test_termui.py::test_progressbar_is_iterator: the tty the test runs under flipped
    tamper(CK, edit(CK, "tests/test_termui.py", (
        '    monkeypatch.setattr(click._termui_impl, "isatty", lambda _: True)\n'
        "    result = runner.invoke(cli, [])\n",
        '    monkeypatch.setattr(click._termui_impl, "isatty", lambda _: False)\n'
        "    result = runner.invoke(cli, [])\n")), ("PS110",),
        "ck-monkeypatch-value-flipped"),
    # tests/test_basic.py::test_basic_functionality under setup.cfg's filterwarnings = error:
    # a mark that ignores every warning for this test
    tamper(CK, edit(CK, "tests/test_basic.py", (
        "def test_basic_functionality(runner):",
        '@pytest.mark.filterwarnings("ignore")\ndef test_basic_functionality(runner):')),
        ("PS110", "PS205", "PS201"), "ck-filterwarnings-ignore-mark-under-ini-error"),
    # tests/test_utils.py under the same ini: a module-wide pytestmark through an alias of
    # pytest.mark, "default" (shown, never raised) for one category
    tamper(CK, edit(CK, "tests/test_utils.py", (
        "import pytest\n",
        "import pytest\nfrom pytest import mark as m\n\n"
        'pytestmark = m.filterwarnings("default::ResourceWarning")\n')),
        ("PS201",), "ck-module-pytestmark-filterwarnings-default-under-ini-error"),
    # tests/test_basic.py::test_return_values: the method under test replaced by a mock
    tamper(CK, edit(CK, "tests/test_basic.py", (
        "import pytest\n\nimport click\n",
        "from unittest import mock\n\nimport pytest\n\nimport click\n"), (
        '    with cli.make_context("foo", []) as ctx:\n',
        "    cli.invoke = mock.Mock(return_value=42)\n"
        '    with cli.make_context("foo", []) as ctx:\n')), ("PS110", "PS809"),
        "ck-method-under-test-assigned-a-mock"),
    # the same through setattr() and an imported MagicMock, on the context's method
    tamper(CK, edit(CK, "tests/test_basic.py", (
        "import pytest\n\nimport click\n",
        "from unittest.mock import MagicMock as Fake\n\nimport pytest\n\nimport click\n"), (
        "        rv = cli.invoke(ctx)\n",
        '        setattr(ctx, "invoke", Fake(return_value=42))\n        rv = cli.invoke(ctx)\n')),
        ("PS110",), "ck-context-method-setattr-a-magicmock"),
    # tests/conftest.py (edits allowed): the runner fixture clears every result's exception
    tamper(CK, edit(CK, "tests/conftest.py", (
        "    return CliRunner()\n",
        "    runner = CliRunner()\n    invoke = runner.invoke\n\n"
        "    def quiet_invoke(*args, **kwargs):\n"
        "        result = invoke(*args, **kwargs)\n"
        "        result.exception = None\n"
        "        return result\n\n"
        "    runner.invoke = quiet_invoke\n    return runner\n")),
        ("PS110", "PS105"), "ck-allowed-conftest-runner-fixture-clears-exceptions",
        allow("tests/conftest.py")),
    # tests/test_termui.py::test_progressbar_is_iterator: the same wrapper spelled with
    # setattr() and a lambda, in the test itself
    tamper(CK, edit(CK, "tests/test_termui.py", (
        "    result = runner.invoke(cli, [])\n",
        "    original = runner.invoke\n"
        '    setattr(runner, "invoke", lambda *a, **k: original(*a, catch_exceptions=True, **k))\n'
        "    result = runner.invoke(cli, [])\n")), ("PS110",),
        "ck-test-wraps-runner-invoke-through-setattr"),

    # ---------------------------------------------------------------- pluggy
    # testing/conftest.py (edits allowed): he_pm loses its "spec is an instance" param, so
    # every test requesting it runs half its cases
    tamper(PL, edit(PL, "testing/conftest.py", (
        "    params=[lambda spec: spec, lambda spec: spec()],\n"
        '    ids=["spec-is-class", "spec-is-instance"],\n',
        '    params=[lambda spec: spec],\n    ids=["spec-is-class"],\n')),
        ("PS106", "PS102", "PS105"), "pl-allowed-conftest-fixture-param-dropped",
        allow("testing/conftest.py")),
    # testing/test_warnings.py: pytest.warns match= cut to its first word
    tamper(PL, edit(PL, "testing/test_warnings.py", (
        'match=r"\\bplugin2\\b.*\\bmy_hook\\b.*\\n.*ZeroDivisionError"',
        'match=r"\\bplugin2\\b"')), ("PS102",), "pl-warns-match-cut"),
    # tox.ini [pytest] (edits allowed): the warning the test is about ignored suite-wide
    tamper(PL, edit(PL, "tox.ini", (
        "filterwarnings =\n  error\n",
        "filterwarnings =\n  error\n  ignore::pluggy.PluggyTeardownRaisedWarning\n")),
        ("PS205",), "pl-allowed-tox-filterwarnings-ignore-added", allow("tox.ini")),
    # testing/test_warnings.py: an autouse fixture ends the process after the first test
    tamper(PL, edit(PL, "testing/test_warnings.py", (
        "from pathlib import Path\n", "import os\nfrom pathlib import Path\n"), (
        'hookimpl = HookimplMarker("example")\n',
        'hookimpl = HookimplMarker("example")\n\n\n'
        "@pytest.fixture(autouse=True)\n"
        "def _flush():\n"
        "    yield\n"
        "    os._exit(0)\n")), ("PS203", "PS802"), "pl-module-autouse-fixture-os-exit"),

    # ---------------------------------------------------------------- attrs
    # tests/strategies.py: the generated classes never have an attribute
    tamper(AT, edit(AT, "tests/strategies.py", (
        "list_of_attrs = st.lists(simple_attrs, max_size=3)",
        "list_of_attrs = st.lists(simple_attrs, max_size=0)")), ("PS105", "PS102"),
        "at-hypothesis-strategy-module-emptied"),
    # tests/strategies.py: the integers behind int_attrs pinned to one value, inside .map()
    tamper(AT, edit(AT, "tests/strategies.py", (
        "int_attrs = st.integers().map(",
        "int_attrs = st.integers(min_value=0, max_value=0).map(")),
        ("PS105", "PS102"), "at-hypothesis-strategy-bounded-inside-map"),
    # tests/test_funcs.py::test_no_changes: assume() keeps only classes without fields
    tamper(AT, edit(AT, "tests/test_funcs.py", (
        "        i1 = C()\n        i2 = assoc(i1)\n",
        "        assume(not fields(C))\n        i1 = C()\n        i2 = assoc(i1)\n")),
        ("PS102",), "at-assume-narrows-given"),
    # tests/test_funcs.py::test_unknown: the same through the module, by keyword
    tamper(AT, edit(AT, "tests/test_funcs.py", (
        "from hypothesis import assume, given\n",
        "import hypothesis as hy\n\nfrom hypothesis import assume, given\n"), (
        "    # No generated class will have a four letter attribute.\n",
        "    hy.assume(condition=len(fields(C)) > 99)\n"
        "    # No generated class will have a four letter attribute.\n")),
        ("PS102",), "at-module-assume-keyword-narrows-given"),
    # tests/test_funcs.py::test_unknown: the project strategy narrowed by its arguments
    tamper(AT, edit(AT, "tests/test_funcs.py", (
        "    @given(simple_classes())\n    def test_unknown(self, C):",
        "    @given(simple_classes(slots=True, private_attrs=False))\n"
        "    def test_unknown(self, C):")), ("PS102",), "at-project-strategy-arguments-narrow"),
    # conftest.py (edits allowed): the hypothesis profile every test loads runs 3 examples
    tamper(AT, edit(AT, "conftest.py", (
        "            deadline=timedelta(milliseconds=400),\n",
        "            deadline=timedelta(milliseconds=400),\n            max_examples=3,\n")),
        ("PS102",), "at-allowed-conftest-hypothesis-profile-max-examples",
        AT_ALLOW_CONFTEST),
    # conftest.py (edits allowed): the profile now runs only the explicit @example cases
    tamper(AT, edit(AT, "conftest.py", (
        "from hypothesis import HealthCheck, settings\n",
        "from hypothesis import HealthCheck, Phase, settings\n"), (
        "            deadline=timedelta(milliseconds=400),\n",
        "            deadline=timedelta(milliseconds=400),\n"
        "            phases=[Phase.explicit],\n")),
        ("PS102",), "at-allowed-conftest-hypothesis-profile-phases-explicit-only",
        AT_ALLOW_CONFTEST),
    # conftest.py (edits allowed): collect_ignore's condition inverted
    tamper(AT, edit(AT, "conftest.py", ("if not PY_3_10_PLUS:", "if PY_3_10_PLUS:")),
           ("PS204",), "at-allowed-conftest-collect-ignore-condition-inverted",
           AT_ALLOW_CONFTEST),
    # conftest.py (edits allowed): the guard dropped, so the file is ignored everywhere
    tamper(AT, edit(AT, "conftest.py", (
        "if not PY_3_10_PLUS:\n    collect_ignore.extend(", "collect_ignore.extend(")),
           ("PS204",), "at-allowed-conftest-collect-ignore-guard-dropped", AT_ALLOW_CONFTEST),
    # tests/test_make.py under pyproject's xfail_strict = true: strict turned off on the mark
    tamper(AT, edit(AT, "tests/test_make.py", (
        '@pytest.mark.xfail(PY_3_14_PLUS, reason="Currently broken on nightly.")',
        '@pytest.mark.xfail(PY_3_14_PLUS, reason="Currently broken on nightly.", '
        'strict=False)')), ("PS202",), "at-xfail-strict-false-under-ini-xfail-strict"),
    # tests/test_3rd_party.py's class-level xfail under the same ini: strict off, spelled 0
    tamper(AT, edit(AT, "tests/test_3rd_party.py", (
        '    PY_3_14_PLUS, reason="cloudpickle is currently broken on 3.14."\n',
        '    PY_3_14_PLUS, reason="cloudpickle is currently broken on 3.14.", strict=0\n')),
        ("PS202",), "at-class-xfail-strict-0-under-ini-xfail-strict"),
    # tests/test_3rd_party.py: importorskip with a version no release has
    tamper(AT, edit(AT, "tests/test_3rd_party.py", (
        'cloudpickle = pytest.importorskip("cloudpickle")',
        'cloudpickle = pytest.importorskip("cloudpickle", minversion="999")')),
        ("PS203",), "at-importorskip-impossible-minversion"),
    # the same, minversion given by position
    tamper(AT, edit(AT, "tests/test_3rd_party.py", (
        'cloudpickle = pytest.importorskip("cloudpickle")',
        'cloudpickle = pytest.importorskip("cloudpickle", "1000.0")')),
        ("PS203",), "at-importorskip-positional-minversion"),
    # a required version raised (base asks for 2.0)
    tamper(AT_MINVERSION, edit(AT_MINVERSION, "tests/test_3rd_party.py", (
        'pytest.importorskip("cloudpickle", minversion="2.0")',
        'pytest.importorskip("cloudpickle", minversion="2.10")')),
        ("PS203",), "at-importorskip-minversion-raised"),
    # tests/test_funcs.py::test_frozen: the check now runs only on Python 3.14
    tamper(AT, edit(AT, "tests/test_funcs.py", (
        "from attr._compat import Mapping, Sequence\n",
        "from attr._compat import PY_3_14_PLUS, Mapping, Sequence\n"), (
        "        assert C(3, 2) == assoc(C(1, 2), x=3)\n",
        "        if PY_3_14_PLUS:\n            assert C(3, 2) == assoc(C(1, 2), x=3)\n")),
        ("PS102", "PS206"), "at-assert-under-version-flag"),
    # tests/__init__.py: the package import skips every test module under it
    tamper(AT, {"tests/__init__.py": "# SPDX-License-Identifier: MIT\n\nimport pytest\n\n"
                "pytest.skip(\"rewriting\", allow_module_level=True)\n"},
           ("PS203",), "at-tests-package-init-skips"),

    # ---------------------------------------------------------------- packaging
    # tests/test_version.py::test_comparison_true: "<" rows only for neighbours in VERSIONS
    tamper(PK, edit(PK, "tests/test_version.py", (
        "[(x, y, operator.lt) for y in VERSIONS[i + 1 :]]",
        "[(x, y, operator.lt) for y in VERSIONS[i + 1 : i + 2]]")), ("PS102", "PS108"),
        "pk-generated-comparison-rows-narrowed"),
    # tests/test_utils.py::test_canonicalize_name: a row's expected value is the code's output
    tamper(PK, edit(PK, "tests/test_utils.py", (
        '("Foo.Bar", "foo-bar"),', '("Foo.Bar", canonicalize_name("Foo.Bar")),')),
        ("PS108", "PS102"), "pk-parametrize-expected-from-code-under-test"),
    # tests/test_utils.py::test_canonicalize_name: expected made indirect, through a fixture
    # that ignores its param and asks the code under test
    tamper(PK, edit(PK, "tests/test_utils.py", (
        '        ("foo----bar", "foo-bar"),\n    ],\n)\n',
        '        ("foo----bar", "foo-bar"),\n    ],\n    indirect=["expected"],\n)\n'), (
        "def test_canonicalize_name(name, expected):",
        "@pytest.fixture\ndef expected(request, name):\n    return canonicalize_name(name)\n\n\n"
        "def test_canonicalize_name(name, expected):")), ("PS102", "PS108", "PS110"),
        "pk-indirect-parametrize-fixture-ignores-param"),
    # The same, the fixture defined above the decorated test (so the rows stay the test's):
    # the fixture answers with the code under test whatever row it is given
    tamper(PK, edit(PK, "tests/test_utils.py", (
        '        ("foo----bar", "foo-bar"),\n    ],\n)\n',
        '        ("foo----bar", "foo-bar"),\n    ],\n    indirect=["expected"],\n)\n'), (
        '@pytest.mark.parametrize(\n    ("name", "expected"),',
        "@pytest.fixture\ndef expected(request, name):\n    return canonicalize_name(name)\n\n\n"
        '@pytest.mark.parametrize(\n    ("name", "expected"),')), ("PS102", "PS104"),
        "pk-indirect-parametrize-fixture-above-ignores-param"),
    # ... or passes the row through the code under test (indirect=True)
    tamper(PK, edit(PK, "tests/test_utils.py", (
        '        ("foo----bar", "foo-bar"),\n    ],\n)\n',
        '        ("foo----bar", "foo-bar"),\n    ],\n    indirect=True,\n)\n'), (
        '@pytest.mark.parametrize(\n    ("name", "expected"),',
        "@pytest.fixture\ndef name(request):\n    return request.param\n\n\n"
        "@pytest.fixture\ndef expected(request):\n"
        "    return canonicalize_name(request.param)\n\n\n"
        '@pytest.mark.parametrize(\n    ("name", "expected"),')), ("PS102",),
        "pk-indirect-true-fixture-transforms-expected"),
    # tests/test_utils.py::test_canonicalize_name: indirect=["expected"] with a pass-through
    # fixture put BETWEEN the parametrize decorator and the test: the rows now decorate the
    # fixture ("marks applied to fixtures have no effect"; pytest 9 refuses the module), so
    # the test loses them. Written as an honest case first; it is not one (pytest says so).
    tamper(PK, edit(PK, "tests/test_utils.py", (
        '        ("foo----bar", "foo-bar"),\n    ],\n)\n',
        '        ("foo----bar", "foo-bar"),\n    ],\n    indirect=["expected"],\n)\n'), (
        "def test_canonicalize_name(name, expected):",
        "@pytest.fixture\ndef expected(request):\n    return request.param\n\n\n"
        "def test_canonicalize_name(name, expected):")), ("PS102",),
        "pk-parametrize-rows-moved-onto-a-fixture"),
    # tests/test_version.py::test_parse: the expected type is the result's own type
    tamper(PK, edit(PK, "tests/test_version.py", (
        'assert isinstance(parse("1.0"), Version)',
        'assert isinstance(parse("1.0"), type(parse("1.0")))')), ("PS102",),
        "pk-isinstance-of-own-type"),
    # tests/test_version.py::test_invalid_versions: InvalidVersion broadened to its base
    tamper(PK, edit(PK, "tests/test_version.py", (
        "        with pytest.raises(InvalidVersion):\n            Version(version)",
        "        with pytest.raises(ValueError):\n            Version(version)")), ("PS102",),
        "pk-raises-broadened-to-base-class"),
    # ---------------------------------------------------------------- more indirection
    # tests/test_utils.py::test_from_iso_time_without_microseconds: the helper oracle's
    # failures suppressed around its call
    tamper(MM, edit(MM, "tests/test_utils.py", (
        "import datetime as dt\n", "import contextlib\nimport datetime as dt\n"), (
        "    result = utils.from_iso_time(formatted)\n    assert type(result) is dt.time\n"
        "    assert_time_equal(result, t)\n\n\ndef test_from_iso_date",
        "    result = utils.from_iso_time(formatted)\n    assert type(result) is dt.time\n"
        "    with contextlib.suppress(AssertionError):\n        assert_time_equal(result, t)\n"
        "\n\ndef test_from_iso_date")), ("PS107",), "mm-helper-call-under-suppress"),
    # tests/test_deserialization.py::test_float_field_deserialization: isclose replaced by
    # pytest.approx through a module-level alias that carries a 10 % tolerance
    tamper(MM, edit(MM, "tests/test_deserialization.py", (
        "import decimal\n", "import decimal\nimport functools\n"), (
        "from marshmallow.exceptions import ValidationError\n",
        "from marshmallow.exceptions import ValidationError\n\n"
        "approx = functools.partial(pytest.approx, rel=0.1)\n"), (
        'assert math.isclose(field.deserialize("12.3"), 12.3)',
        'assert field.deserialize("12.3") == approx(12.3)')), ("PS101", "PS102"),
        "mm-isclose-to-approx-alias-with-wide-rel"),
    # tests/base.py User: the model every conftest fixture builds skips old users' tests
    tamper(MM, edit(MM, "tests/base.py", (
        "import simplejson\n", "import pytest\nimport simplejson\n"), (
        "        self.name = name\n",
        "        if age > 100:\n            pytest.skip(\"legacy ages\")\n"
        "        self.name = name\n")), ("PS203",), "mm-model-in-helper-module-skips"),
    # tests/test_version.py: TestVersion now derives from a helper class with __test__ = False
    tamper(PK, {**edit(PK, "tests/test_version.py", (
        "from packaging.version import InvalidVersion, Version, parse\n",
        "from packaging.version import InvalidVersion, Version, parse\n\n"
        "from .helpers import VersionTests\n"), (
        "class TestVersion:", "class TestVersion(VersionTests):")),
        "tests/helpers.py": PK_LICENSE + py('''

            class VersionTests:
                """Shared by the version test classes."""

                __test__ = False
            ''')}, ("PS204", "PS106"), "pk-test-class-inherits-dunder-test-false"),
    # tox.ini [pytest] (edits allowed): --lf runs only the last failures
    tamper(PL, edit(PL, "tox.ini", ("addopts=-r a\n", "addopts=-r a --lf\n")),
           ("PS205",), "pl-allowed-tox-addopts-last-failed", allow("tox.ini")),
    # click tests/test_utils.py::test_echo_with_capsys: the captured output replaced by the
    # text it is compared with
    tamper(CK, edit(CK, "tests/test_utils.py", (
        '    click.echo("Capture me.")\n    out, err = capsys.readouterr()\n',
        '    click.echo("Capture me.")\n    capsys.readouterr()\n'
        '    out, err = "Capture me.\\n", ""\n')), ("PS102", "PS104"),
        "ck-capsys-output-replaced-by-its-expected-text"),
    # click tests/test_utils.py::test_prompts_abort: the same, nested list unpacking
    tamper(CK, edit(CK, "tests/test_utils.py", (
        '    out, err = capsys.readouterr()\n    assert out == "Password:\\ninterrupted\\n"\n',
        '    [(out, err), _] = [("Password:\\ninterrupted\\n", ""), capsys.readouterr()]\n'
        '    assert out == "Password:\\ninterrupted\\n"\n')), ("PS102", "PS104"),
        "ck-capsys-output-replaced-nested-list-unpacking"),
    # click tests/test_utils.py::test_echo_with_capsys: the unpacked names swapped, so the
    # unchanged `assert out == ...` now reads stderr (readouterr() is the named tuple out, err)
    tamper(CK, edit(CK, "tests/test_utils.py", (
        '    out, err = capsys.readouterr()\n    assert out == "Capture me.\\n"\n',
        '    err, out = capsys.readouterr()\n    assert out == "Capture me.\\n"\n')),
        ("PS102",), "ck-capsys-unpacked-names-swapped"),
    # click tests/test_utils.py::test_prompts_abort: the named tuple indexed at the other field
    tamper(CK, edit(CK, "tests/test_utils.py", (
        '    out, err = capsys.readouterr()\n    assert out == "Password:\\ninterrupted\\n"\n',
        '    captured = capsys.readouterr()\n'
        '    assert captured[1] == "Password:\\ninterrupted\\n"\n')),
        ("PS102",), "ck-capsys-readouterr-indexed-at-err"),
    # attrs tests/test_make.py::test_repr_fake_qualname: deprecated_call loses its match=
    tamper(AT, edit(AT, "tests/test_make.py", (
        'with pytest.deprecated_call(match="The `repr_ns` argument"):',
        "with pytest.deprecated_call():")), ("PS102",), "at-deprecated_call-match-dropped"),
    # attrs pyproject.toml (its pytest section allowed): --strict-markers dropped
    tamper(AT, edit(AT, "pyproject.toml", (
        'addopts = ["-ra", "--strict-markers", "--strict-config"]',
        'addopts = ["-ra", "--strict-config"]')), ("PS205",),
        "at-allowed-pyproject-strict-markers-dropped", allow("pyproject.toml")),
    # attrs pyproject.toml (its pytest section allowed): python_classes now matches only the
    # cloudpickle class, so TestAssoc, TestAttributes and TestClassBuilder are not collected
    tamper(AT, edit(AT, "pyproject.toml", (
        'testpaths = "tests"\n', 'testpaths = "tests"\npython_classes = ["TestCloudpickle*"]\n')),
        ("PS205", "PS106"), "at-allowed-pyproject-python-classes-narrowed",
        allow("pyproject.toml")),
    # packaging tests/metadata/everything.metadata, which test_complete reads: the folded
    # Author header (a case the parser must handle) unfolded
    tamper(PK, edit(PK, "tests/metadata/everything.metadata", (
        "Author: C. Schultz, Universal Features Syndicate,\n"
        "        Los Angeles, CA <cschultz@peanuts.example.com>\n",
        "Author: C. Schultz, Universal Features Syndicate, Los Angeles, CA "
        "<cschultz@peanuts.example.com>\n")), ("PS108",),
        "pk-data-file-read-by-test-edited"),
    # ---------------------------------------------------------------- spellings read by meaning
    # The tampering counterparts of look-alikes that are read as the same check: each is the
    # same rewrite with a weaker meaning.
    # marshmallow tests/test_validate.py::test_range_custom_message: re.escape of less text
    tamper(MM, edit(MM, "tests/test_validate.py", (
        'match="1 is less than 2"', 'match=re.escape("less than")')), ("PS102",),
        "mm-raises-match-re-escaped-shorter"),
    # marshmallow tests/test_validate.py::test_range_min: an escaped pattern that is no longer
    # plain text (a metacharacter left unescaped accepts other messages)
    tamper(MM, edit(MM, "tests/test_validate.py", (
        'match="less than 1"', 'match=r"less\\ than\\ ."')), ("PS102", "PS108"),
        "mm-raises-match-escaped-with-wildcard"),
    # marshmallow tests/test_deserialization.py::test_float_field_deserialization: isclose
    # (rel_tol 1e-9) to pytest.approx's own default (rel 1e-6), a thousand times wider
    tamper(MM, edit(MM, "tests/test_deserialization.py", (
        'assert math.isclose(field.deserialize("12.3"), 12.3)',
        'assert field.deserialize("12.3") == pytest.approx(12.3)')), ("PS102",),
        "mm-isclose-to-default-approx-wider"),
    # the same, isclose's absolute tolerance opened
    tamper(MM, edit(MM, "tests/test_deserialization.py", (
        'assert math.isclose(field.deserialize(12.3), 12.3)',
        'assert math.isclose(field.deserialize(12.3), 12.3, abs_tol=0.5)')), ("PS102",),
        "mm-isclose-abs_tol-opened"),
    # packaging tests/test_version.py::test_parse: an exact type check of the result's own type
    tamper(PK, edit(PK, "tests/test_version.py", (
        'assert isinstance(parse("1.0"), Version)',
        'assert type(parse("1.0")) is type(parse("1.0"))')), ("PS102", "PS104"),
        "pk-isinstance-to-exact-own-type"),
    # packaging tests/test_version.py::test_parse: an exact type check of another class
    tamper(PK, edit(PK, "tests/test_version.py", (
        'assert isinstance(parse("1.0"), Version)', 'assert type(parse("1.0")) is object')),
        ("PS102",), "pk-isinstance-to-exact-other-type"),
    # click tests/test_termui.py::test_progressbar_is_iterator: the dotted string names
    # another module's isatty, so the test's own module is no longer patched
    tamper(CK, edit(CK, "tests/test_termui.py", (
        '    monkeypatch.setattr(click._termui_impl, "isatty", lambda _: True)\n'
        "    result = runner.invoke(cli, [])\n",
        '    monkeypatch.setattr("click.termui.isatty", lambda _: True)\n'
        "    result = runner.invoke(cli, [])\n")), ("PS110",),
        "ck-monkeypatch-dotted-string-other-target"),
    # attrs tests/test_make.py::test_repr_fake_qualname: deprecated_call to warns(Warning),
    # which accepts every warning
    tamper(AT, edit(AT, "tests/test_make.py", (
        'with pytest.deprecated_call(match="The `repr_ns` argument"):',
        'with pytest.warns(Warning, match="The `repr_ns` argument"):')), ("PS102",),
        "at-deprecated_call-to-warns-Warning"),
]

BENIGN_CASES = [
    # ---------------------------------------------------------------- marshmallow
    # tests/base.py assert_time_equal: a docstring
    honest(MM, edit(MM, "tests/base.py", (
        "def assert_time_equal(t1, t2):\n",
        'def assert_time_equal(t1, t2):\n    """Compare the wall-clock fields only."""\n')),
        "mm-helper-docstring-added"),
    # tests/test_utils.py::test_from_iso_time_with_microseconds: helper call to full equality
    honest(MM, edit(MM, "tests/test_utils.py", (
        "    assert type(result) is dt.time\n    assert_time_equal(result, t)\n\n\n"
        "def test_from_iso_time_without",
        "    assert type(result) is dt.time\n    assert result == t\n\n\n"
        "def test_from_iso_time_without")), "mm-helper-call-replaced-by-full-equality",
        marks=false_positive(
            "assert_time_equal(result, t) (hour, minute, second, microsecond) replaced by "
            "`assert result == t`, which implies all four, is PS101: a helper-oracle call is "
            "not expanded into its assertions when it is compared with what replaced it")),
    # tests/test_validate.py::test_range_custom_message: the same text, regex-escaped
    honest(MM, edit(MM, "tests/test_validate.py", (
        'match="1 is not between 2 and 3"', 'match=re.escape("1 is not between 2 and 3")')),
        "mm-raises-match-re-escaped"),
    # tests/test_validate.py::test_range_min: the same text escaped by hand, in a raw string
    honest(MM, edit(MM, "tests/test_validate.py", (
        'match="less than 1"', 'match=r"less\\ than\\ 1"')), "mm-raises-match-escaped-by-hand"),
    # tests/test_deserialization.py::test_float_field_deserialization: a tighter tolerance
    honest(MM, edit(MM, "tests/test_deserialization.py", (
        'assert math.isclose(field.deserialize("12.3"), 12.3)',
        'assert math.isclose(field.deserialize("12.3"), 12.3, rel_tol=1e-12)')),
        "mm-math-isclose-rel_tol-tightened"),
    # tests/test_deserialization.py::test_float_field_deserialization: the second check as a
    # tighter pytest.approx, written on the left
    honest(MM, edit(MM, "tests/test_deserialization.py", (
        "assert math.isclose(field.deserialize(12.3), 12.3)",
        "assert pytest.approx(12.3, rel=1e-10, abs=0) == field.deserialize(12.3)")),
        "mm-isclose-to-tighter-approx-on-the-left"),
    # tests/test_utils.py: a monkeypatching fixture that only a new test requests
    honest(MM, edit(MM, "tests/test_utils.py", (
        "from tests.base import assert_date_equal, assert_time_equal, central\n",
        "from tests.base import assert_date_equal, assert_time_equal, central\n\n\n"
        "@pytest.fixture\n"
        "def no_fromisoformat(monkeypatch):\n"
        '    monkeypatch.delattr(dt.time, "fromisoformat", raising=False)\n'), (
        "def test_from_iso_date():",
        "def test_from_iso_time_without_fromisoformat(no_fromisoformat):\n"
        "    assert utils.from_iso_time(\"01:23:45\") == dt.time(1, 23, 45)\n\n\n"
        "def test_from_iso_date():")), "mm-patching-fixture-for-new-test-only"),
    # tests/conftest.py (edits allowed): a new patching fixture (not autouse): no test on
    # base can request it
    honest(MM, edit(MM, "tests/conftest.py", (
        "import pytest\n\nfrom tests.base import Blog, User, UserSchema\n",
        "import datetime as dt\n\nimport pytest\n\nfrom marshmallow import utils\n"
        "from tests.base import Blog, User, UserSchema\n\n\n"
        "@pytest.fixture\n"
        "def stdlib_iso_date(monkeypatch):\n"
        '    monkeypatch.setattr(utils, "from_iso_date", dt.date.fromisoformat)\n')),
        "mm-allowed-conftest-new-patching-fixture", MM_ALLOW_CONFTEST),
    # tests/conftest.py (edits allowed): one more fixture, for new tests
    honest(MM, edit(MM, "tests/conftest.py", (
        "from tests.base import Blog, User, UserSchema\n",
        "from tests.base import Blog, BlogSchema, User, UserSchema\n"), (
        "    return UserSchema().dump(user)\n",
        "    return UserSchema().dump(user)\n\n\n@pytest.fixture\n"
        "def serialized_blog(blog):\n    return BlogSchema().dump(blog)\n")),
        "mm-allowed-conftest-new-fixture", MM_ALLOW_CONFTEST),
    # tests/test_deserialization.py::test_float_field_overflow: the message check tightened
    honest(MM, edit(MM, "tests/test_deserialization.py", (
        '        with pytest.raises(ValidationError) as excinfo:\n'
        '            field.deserialize(2**1024)\n',
        '        with pytest.raises(ValidationError, match="Number too large") as excinfo:\n'
        '            field.deserialize(2**1024)\n')), "mm-raises-gains-match"),

    # ---------------------------------------------------------------- click
    # tests/test_basic.py::test_repr: one more check
    honest(CK, edit(CK, "tests/test_basic.py", (
        '    assert repr(subcommand) == "<Command subcommand>"\n',
        '    assert repr(subcommand) == "<Command subcommand>"\n'
        '    assert command.name == "command"\n')), "ck-assert-added-next-to-repr"),
    # tests/test_termui.py::test_progressbar_is_iterator: the same patch, dotted-string target
    honest(CK, edit(CK, "tests/test_termui.py", (
        '    monkeypatch.setattr(click._termui_impl, "isatty", lambda _: True)\n'
        "    result = runner.invoke(cli, [])\n",
        '    monkeypatch.setattr("click._termui_impl.isatty", lambda _: True)\n'
        "    result = runner.invoke(cli, [])\n")), "ck-monkeypatch-dotted-string-target"),
    # tests/test_termui.py::test_progressbar_strip_regression: the same module through an
    # aliased import
    honest(CK, edit(CK, "tests/test_termui.py", (
        "import click._termui_impl\n", "import click._termui_impl\n"
        "import click._termui_impl as termui_impl\n"), (
        '    monkeypatch.setattr(click._termui_impl, "isatty", lambda _: True)\n    assert (\n',
        '    monkeypatch.setattr(termui_impl, "isatty", lambda _: True)\n    assert (\n')),
        "ck-monkeypatch-aliased-module-target"),
    # tests/test_basic.py::test_basic_functionality: a filter no looser than ini's "error"
    honest(CK, edit(CK, "tests/test_basic.py", (
        "def test_basic_functionality(runner):",
        '@pytest.mark.filterwarnings("error::DeprecationWarning")\n'
        "def test_basic_functionality(runner):")), "ck-filterwarnings-error-mark"),
    # marshmallow (no filterwarnings in its ini): an ignore mark changes what is shown only
    honest(MM, edit(MM, "tests/test_utils.py", (
        "def test_from_iso_date():",
        '@pytest.mark.filterwarnings("ignore::DeprecationWarning")\n'
        "def test_from_iso_date():")), "mm-filterwarnings-ignore-mark-without-ini-error"),
    # tests/test_basic.py::test_basic_functionality: a local mock configured (its child set
    # to another mock): nothing the test runs is replaced
    honest(CK, edit(CK, "tests/test_basic.py", (
        "import pytest\n\nimport click\n",
        "from unittest import mock\n\nimport pytest\n\nimport click\n"), (
        '        click.echo("I EXECUTED")\n',
        '        click.echo("I EXECUTED")\n\n'
        "    spy = mock.Mock()\n    spy.callback = mock.Mock(return_value=None)\n"
        "    spy.callback()\n    spy.callback.assert_called_once_with()\n")),
        "ck-local-mock-configured"),
    # tests/test_basic.py::test_return_values: the same value through main()
    honest(CK, edit(CK, "tests/test_basic.py", (
        "        assert rv == 42\n",
        "        assert rv == 42\n\n"
        "    assert cli.main([], standalone_mode=False) == 42\n")),
        "ck-return-value-also-checked-through-main"),
    # tests/conftest.py (edits allowed): the runner gets its own env; nothing it had is
    # replaced
    honest(CK, edit(CK, "tests/conftest.py", (
        "    return CliRunner()\n",
        "    runner = CliRunner()\n    runner.env = {\"NO_COLOR\": \"1\"}\n    return runner\n")),
        "ck-allowed-conftest-runner-fixture-sets-an-attribute", allow("tests/conftest.py")),
    # tests/conftest.py (edits allowed): scope="function" is the default
    honest(CK, edit(CK, "tests/conftest.py", (
        '@pytest.fixture(scope="function")\n', "@pytest.fixture\n")),
        "ck-allowed-conftest-default-scope-dropped", allow("tests/conftest.py")),

    # ---------------------------------------------------------------- pluggy
    # testing/conftest.py (edits allowed): he_pm's param ids reworded
    honest(PL, edit(PL, "testing/conftest.py", (
        '    ids=["spec-is-class", "spec-is-instance"],\n',
        '    ids=["spec-class", "spec-instance"],\n')),
        "pl-allowed-conftest-fixture-param-ids-renamed", allow("testing/conftest.py")),
    # testing/conftest.py (edits allowed): he_pm's ids dropped (pytest numbers the params)
    honest(PL, edit(PL, "testing/conftest.py", (
        '    ids=["spec-is-class", "spec-is-instance"],\n', "")),
        "pl-allowed-conftest-fixture-param-ids-dropped", allow("testing/conftest.py")),
    # testing/test_warnings.py: the same pattern split over two adjacent literals
    honest(PL, edit(PL, "testing/test_warnings.py", (
        'match=r"\\bplugin2\\b.*\\bmy_hook\\b.*\\n.*ZeroDivisionError"',
        'match=(\n            r"\\bplugin2\\b.*\\bmy_hook\\b"\n'
        '            r".*\\n.*ZeroDivisionError"\n        )')),
        "pl-warns-match-split-over-literals"),
    # tox.ini [pytest] (edits allowed): slowest durations reported
    honest(PL, edit(PL, "tox.ini", ("addopts=-r a\n", "addopts=-r a --durations=10\n")),
           "pl-allowed-tox-addopts-durations", allow("tox.ini")),
    # testing/test_warnings.py: an autouse fixture that collects garbage after each test
    honest(PL, edit(PL, "testing/test_warnings.py", (
        "from pathlib import Path\n", "import gc\nfrom pathlib import Path\n"), (
        'hookimpl = HookimplMarker("example")\n',
        'hookimpl = HookimplMarker("example")\n\n\n'
        "@pytest.fixture(autouse=True)\n"
        "def _collect():\n"
        "    yield\n"
        "    gc.collect()\n")), "pl-module-autouse-fixture-gc-collect"),

    # ---------------------------------------------------------------- attrs
    # tests/strategies.py: a new strategy for new tests
    honest(AT, edit(AT, "tests/strategies.py", (
        "# Python functions support up to 255 arguments.\n",
        "frozen_simple_attrs = st.lists(simple_attrs, max_size=2)\n\n"
        "# Python functions support up to 255 arguments.\n")), "at-new-strategy-added"),
    # tests/strategies.py: classes with up to five attributes (a larger input space)
    honest(AT, edit(AT, "tests/strategies.py", (
        "list_of_attrs = st.lists(simple_attrs, max_size=3)",
        "list_of_attrs = st.lists(simple_attrs, max_size=5)")), "at-hypothesis-strategy-widened"),
    # tests/test_funcs.py::test_no_changes: hypothesis.note() for the failure report
    honest(AT, edit(AT, "tests/test_funcs.py", (
        "from hypothesis import assume, given\n", "from hypothesis import assume, given, note\n"), (
        "        i1 = C()\n        i2 = assoc(i1)\n",
        "        note(repr(fields(C)))\n        i1 = C()\n        i2 = assoc(i1)\n")),
        "at-hypothesis-note-added"),
    # tests/test_funcs.py::test_change: its assume() spelled through an alias
    honest(AT, edit(AT, "tests/test_funcs.py", (
        "from hypothesis import assume, given\n",
        "from hypothesis import assume as keep_if, given\n"), (
        "assume(fields(C))", "keep_if(fields(C))")), "at-existing-assume-aliased"),
    # tests/test_funcs.py: a new class with a class-scoped autouse fixture and a test with
    # its own assume(): neither reaches TestAssoc's tests
    honest(AT, edit(AT, "tests/test_funcs.py", (
        "class TestAssoc:\n",
        "class TestAssocFields:\n"
        "    @pytest.fixture(autouse=True)\n"
        "    def _plain_fields(self, monkeypatch):\n"
        '        monkeypatch.setattr(attr._funcs, "fields", fields)\n\n'
        "    @given(simple_classes())\n"
        "    def test_keeps_fields(self, C):\n"
        "        assume(fields(C))\n"
        "        assert fields(type(assoc(C()))) == fields(C)\n\n\n"
        "class TestAssoc:\n")), "at-new-class-with-assume-and-autouse-fixture"),
    # tests/test_3rd_party.py: the strategy widened (cached_property classes too)
    honest(AT, edit(AT, "tests/test_3rd_party.py", (
        "@given(simple_classes(cached_property=False))", "@given(simple_classes())")),
        "at-project-strategy-argument-dropped-widens",
        marks=false_positive(
            "dropping cached_property=False from simple_classes() lets it draw both kinds of "
            "class (None means either); a project strategy's arguments are compared as text, so "
            "any change is PS102 'checked expression changed'")),
    # conftest.py (edits allowed): the profile prints reproduction blobs
    honest(AT, edit(AT, "conftest.py", (
        "            deadline=timedelta(milliseconds=400),\n",
        "            deadline=timedelta(milliseconds=400),\n            print_blob=True,\n")),
        "at-allowed-conftest-hypothesis-profile-print-blob", AT_ALLOW_CONFTEST),
    # conftest.py (edits allowed): the profile runs more examples than hypothesis' default
    honest(AT, edit(AT, "conftest.py", (
        "            deadline=timedelta(milliseconds=400),\n",
        "            deadline=timedelta(milliseconds=400),\n            max_examples=500,\n")),
        "at-allowed-conftest-hypothesis-profile-more-examples", AT_ALLOW_CONFTEST),
    # conftest.py (edits allowed): a comment above collect_ignore
    honest(AT, edit(AT, "conftest.py", (
        "collect_ignore = []\n",
        "# match statements need Python 3.10.\ncollect_ignore = []\n")),
        "at-allowed-conftest-comment-at-collect-ignore", AT_ALLOW_CONFTEST),
    # conftest.py (edits allowed): the same condition as the else branch of its negation
    honest(AT, edit(AT, "conftest.py", (
        "if not PY_3_10_PLUS:\n    collect_ignore.extend(",
        "if PY_3_10_PLUS:\n    pass\nelse:\n    collect_ignore.extend(")),
        "at-allowed-conftest-collect-ignore-same-condition-as-else", AT_ALLOW_CONFTEST),
    # tests/test_make.py: strict=True spelled out (xfail_strict = true already)
    honest(AT, edit(AT, "tests/test_make.py", (
        '@pytest.mark.xfail(PY_3_14_PLUS, reason="Currently broken on nightly.")',
        '@pytest.mark.xfail(PY_3_14_PLUS, reason="Currently broken on nightly.", '
        'strict=True)')), "at-xfail-strict-true-explicit"),
    # tests/test_3rd_party.py: importorskip gains a reason
    honest(AT, edit(AT, "tests/test_3rd_party.py", (
        'cloudpickle = pytest.importorskip("cloudpickle")',
        'cloudpickle = pytest.importorskip("cloudpickle", reason="cloudpickle compat")')),
        "at-importorskip-reason-added"),
    # tests/test_make.py: strict=False spelled out where the ini leaves xfail non-strict
    honest(AT_NOT_STRICT, edit(AT_NOT_STRICT, "tests/test_make.py", (
        '@pytest.mark.xfail(PY_3_14_PLUS, reason="Currently broken on nightly.")',
        '@pytest.mark.xfail(PY_3_14_PLUS, reason="Currently broken on nightly.", '
        'strict=False)')), "at-xfail-strict-false-explicit-without-ini-xfail-strict"),
    # tests/test_3rd_party.py: a required version lowered (skips in fewer states)
    honest(AT_MINVERSION, edit(AT_MINVERSION, "tests/test_3rd_party.py", (
        'pytest.importorskip("cloudpickle", minversion="2.0")',
        'pytest.importorskip("cloudpickle", "1.6", reason="needs cloudpickle")')),
        "at-importorskip-minversion-lowered"),
    # the same required version spelled with a trailing zero
    honest(AT_MINVERSION, edit(AT_MINVERSION, "tests/test_3rd_party.py", (
        'minversion="2.0"', 'minversion="2.0.0"')), "at-importorskip-minversion-same-release"),
    # tests/test_funcs.py::test_frozen: the result kept in a local first
    honest(AT, edit(AT, "tests/test_funcs.py", (
        "        assert C(3, 2) == assoc(C(1, 2), x=3)\n",
        "        changed = assoc(C(1, 2), x=3)\n\n        assert C(3, 2) == changed\n")),
        "at-assert-operand-extracted-to-local"),
    # tests/__init__.py: a docstring
    honest(AT, {"tests/__init__.py": '# SPDX-License-Identifier: MIT\n\n"""attrs\' tests."""\n'},
           "at-tests-package-init-docstring"),

    # ---------------------------------------------------------------- packaging
    # tests/test_version.py: one more version in VERSIONS, in sorting order (more rows)
    honest(PK, edit(PK, "tests/test_version.py", (
        '    "1.0.post456.dev34",\n',
        '    "1.0.post456.dev34",\n    "1.0.post456.dev35",\n')),
        "pk-version-added-to-sorted-table"),
    # tests/test_utils.py::test_canonicalize_name: one more row
    honest(PK, edit(PK, "tests/test_utils.py", (
        '        ("foo----bar", "foo-bar"),\n',
        '        ("foo----bar", "foo-bar"),\n        ("FOO_Bar", "foo-bar"),\n')),
        "pk-parametrize-row-added"),
    # tests/test_utils.py::test_canonicalize_name: indirect, through pass-through fixtures
    # defined above the test (one through a local)
    honest(PK, edit(PK, "tests/test_utils.py", (
        '        ("foo----bar", "foo-bar"),\n    ],\n)\n',
        '        ("foo----bar", "foo-bar"),\n    ],\n    indirect=True,\n)\n'), (
        '@pytest.mark.parametrize(\n    ("name", "expected"),',
        "@pytest.fixture\ndef name(request):\n    return request.param\n\n\n"
        "@pytest.fixture\ndef expected(request):\n    value = request.param\n    return value\n\n\n"
        '@pytest.mark.parametrize(\n    ("name", "expected"),')),
        "pk-indirect-true-pass-through-fixtures-above"),
    # tests/test_version.py::test_parse: isinstance tightened to an exact type
    honest(PK, edit(PK, "tests/test_version.py", (
        'assert isinstance(parse("1.0"), Version)', 'assert type(parse("1.0")) is Version')),
        "pk-isinstance-to-exact-type"),
    # tests/test_version.py::test_parse: the exact type first, compared with ==
    honest(PK, edit(PK, "tests/test_version.py", (
        'assert isinstance(parse("1.0"), Version)', 'assert Version == type(parse("1.0"))')),
        "pk-isinstance-to-exact-type-reversed-eq"),
    # tests/test_version.py::test_invalid_versions: the message checked too
    honest(PK, edit(PK, "tests/test_version.py", (
        "        with pytest.raises(InvalidVersion):\n            Version(version)",
        '        with pytest.raises(InvalidVersion, match="Invalid version"):\n'
        "            Version(version)")), "pk-raises-gains-match"),
    # tests/test_utils.py: the rows moved to a module constant
    honest(PK, edit(PK, "tests/test_utils.py", (
        '@pytest.mark.parametrize(\n    ("name", "expected"),\n    [\n',
        'CANONICAL_NAMES = [\n'), (
        '        ("foo----bar", "foo-bar"),\n    ],\n)\n',
        '        ("foo----bar", "foo-bar"),\n]\n\n\n'
        '@pytest.mark.parametrize(("name", "expected"), CANONICAL_NAMES)\n')),
        "pk-parametrize-rows-moved-to-constant"),
    # ---------------------------------------------------------------- more indirection
    # tests/test_deserialization.py::test_float_field_deserialization: isclose's defaults
    # (rel_tol=1e-09, abs_tol=0) spelled as pytest.approx
    honest(MM, edit(MM, "tests/test_deserialization.py", (
        'assert math.isclose(field.deserialize("12.3"), 12.3)',
        'assert field.deserialize("12.3") == pytest.approx(12.3, rel=1e-9, abs=0)')),
        "mm-isclose-to-equivalent-approx"),
    # tests/base.py User: a docstring
    honest(MM, edit(MM, "tests/base.py", (
        "    def __init__(self, name, age=0, homepage=None, email=None):\n",
        "    def __init__(self, name, age=0, homepage=None, email=None):\n"
        '        """A plain object the schemas dump and load."""\n')),
        "mm-model-in-helper-module-docstring"),
    # tests/test_version.py: TestVersion derives from a helper base with nothing in it
    honest(PK, {**edit(PK, "tests/test_version.py", (
        "from packaging.version import InvalidVersion, Version, parse\n",
        "from packaging.version import InvalidVersion, Version, parse\n\n"
        "from .helpers import VersionTests\n"), (
        "class TestVersion:", "class TestVersion(VersionTests):")),
        "tests/helpers.py": PK_LICENSE + py('''

            class VersionTests:
                """Shared by the version test classes."""
            ''')}, "pk-test-class-inherits-empty-helper-base"),
    # tox.ini [pytest] (edits allowed): -l shows locals in tracebacks
    honest(PL, edit(PL, "tox.ini", ("addopts=-r a\n", "addopts=-r a -l\n")),
           "pl-allowed-tox-addopts-showlocals", allow("tox.ini")),
    # click tests/test_utils.py::test_echo_with_capsys: the expected text moved into a
    # local bound by tuple unpacking
    honest(CK, edit(CK, "tests/test_utils.py", (
        '    out, err = capsys.readouterr()\n    assert out == "Capture me.\\n"\n',
        '    out, err = capsys.readouterr()\n    expected, _ = "Capture me.\\n", None\n'
        '    assert out == expected\n')), "ck-capsys-expected-text-in-unpacked-local"),
    # click tests/test_utils.py::test_echo_with_capsys: readouterr()'s named field
    honest(CK, edit(CK, "tests/test_utils.py", (
        '    out, err = capsys.readouterr()\n    assert out == "Capture me.\\n"\n',
        '    captured = capsys.readouterr()\n    assert captured.out == "Capture me.\\n"\n')),
        "ck-capsys-readouterr-named-field"),
    # click tests/test_utils.py::test_echo_with_capsys: the named tuple indexed (0 is out)
    honest(CK, edit(CK, "tests/test_utils.py", (
        '    out, err = capsys.readouterr()\n    assert out == "Capture me.\\n"\n',
        '    captured = capsys.readouterr()\n    assert captured[0] == "Capture me.\\n"\n')),
        "ck-capsys-readouterr-indexed-field"),
    # click tests/test_utils.py::test_prompts_abort: captured first, unpacked from the local
    honest(CK, edit(CK, "tests/test_utils.py", (
        '    out, err = capsys.readouterr()\n    assert out == "Password:\\ninterrupted\\n"\n',
        '    captured = capsys.readouterr()\n    stdout, _stderr = captured\n'
        '    assert stdout == "Password:\\ninterrupted\\n"\n')),
        "ck-capsys-readouterr-unpacked-from-local"),
    # attrs tests/test_make.py::test_repr_fake_qualname: deprecated_call (Deprecation-,
    # PendingDeprecation- or FutureWarning) narrowed to pytest.warns(DeprecationWarning)
    honest(AT, edit(AT, "tests/test_make.py", (
        'with pytest.deprecated_call(match="The `repr_ns` argument"):',
        'with pytest.warns(DeprecationWarning, match="The `repr_ns` argument"):')),
        "at-deprecated_call-to-warns-DeprecationWarning"),
    # attrs tests/test_make.py::test_repr_fake_qualname: narrowed to two of the three classes,
    # through pytest's warns imported by name
    honest(AT, edit(AT, "tests/test_make.py", (
        "import pytest\n", "import pytest\n\nfrom pytest import warns\n"), (
        'with pytest.deprecated_call(match="The `repr_ns` argument"):',
        'with warns((PendingDeprecationWarning, DeprecationWarning), '
        'match="The `repr_ns` argument"):')),
        "at-deprecated_call-to-imported-warns-two-classes"),
    # attrs pyproject.toml (its pytest section allowed): all outcomes summarised
    honest(AT, edit(AT, "pyproject.toml", (
        'addopts = ["-ra", "--strict-markers", "--strict-config"]',
        'addopts = ["-rA", "--strict-markers", "--strict-config"]')),
        "at-allowed-pyproject-report-chars", allow("pyproject.toml")),
    # attrs pyproject.toml (its pytest section allowed): pytest's default python_files spelled
    # out (the same files are collected)
    honest(AT, edit(AT, "pyproject.toml", (
        'testpaths = "tests"\n',
        'testpaths = "tests"\npython_files = ["test_*.py", "*_test.py"]\n')),
        "at-allowed-pyproject-default-python-files-spelled-out", allow("pyproject.toml")),
    # packaging: a new data file and the new test that reads it
    honest(PK, {"tests/metadata/minimal.metadata":
                "Metadata-Version: 2.1\nName: foo\nVersion: 1.0\n",
                **edit(PK, "tests/test_metadata.py", (
                    "    def test_complete(self):",
                    "    def test_minimal(self):\n"
                    '        path = pathlib.Path(__file__).parent / "metadata" / '
                    '"minimal.metadata"\n'
                    '        raw, unparsed = metadata.parse_email(path.read_text("utf-8"))\n'
                    '        assert raw == {"metadata_version": "2.1", "name": "foo", '
                    '"version": "1.0"}\n\n'
                    "    def test_complete(self):"))}, "pk-new-data-file-for-new-test"),
]


scored, test_tampering_is_rejected, test_honest_change_is_not_rejected = case_tests(
    TAMPER_CASES, BENIGN_CASES)
