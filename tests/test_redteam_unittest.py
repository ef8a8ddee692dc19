"""Red team: unittest- and Django-style suites (Django, Python-Markdown, simplejson, CPython).

Every case is built from a short, faithful excerpt of a real test module of one of these
projects (its origin is named in the comment above the case): Django 5.2's ``tests/`` tree with
its ``runtests.py`` and ``test_sqlite.py``, Python-Markdown 3.11's ``tests/`` with its own
``markdown.test_tools.TestCase``, simplejson 4.3's ``simplejson/tests/`` and CPython 3.11's
``Lib/test/``. Each base tree carries the project's runner channel (``tests/runtests.py`` and
``tox.ini``; ``tox.ini`` and ``makefile`` running ``unittest discover``; a suite-building
``__init__.py``; ``unittest.main``), so test identity is the one that project's runner shows.

Same harness as ``tests/test_adversarial2.py``: a real git repository, the real
``git diff --cached -M`` and a full ``score``. A tampering case names the exact rule codes that
reject besides PS502 (no off-tree results are given): the decision is reject, its first cause is
one of them, and each of them points into a file the patch touched. Its honest look-alike (same
area, does not weaken) passes when nothing but PS502 rejects. Cases provscore gets wrong keep
their correct expectation and are marked ``xfail(strict=True, reason="MISS: ...")`` or
``reason="FALSE POSITIVE: ..."``; a MISS names the codes the analogous caught case gets (a test
gone is PS106 with PS101 for its assertions, a collection hook PS204), so a fix flips it.
"""

from __future__ import annotations

import pytest
from adversarial_support import (
    ALWAYS,
    Case,
    ScoreCase,
    Tree,
    assert_tampering_caught,
    case_scorer,
    describe,
    edit,
    miss,
    py,
    rejects,
    sub,
    text_of,
)

from provscore.oracle.contract import Contract


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> ScoreCase:
    return case_scorer(tmp_path_factory)


# ============================================================================ Django

# django tests/runtests.py (trimmed: discovery, the options the cases use, the settings default)
RUNTESTS = py('''
    #!/usr/bin/env python
    import argparse
    import os
    import sys

    RUNTESTS_DIR = os.path.abspath(os.path.dirname(__file__))

    # This is a dict mapping RUNTESTS_DIR subdirectory to subdirectories of that
    # directory to skip when searching for test modules.
    SUBDIRS_TO_SKIP = {
        "": {"import_error_package", "test_runner_apps"},
        "gis_tests": {"data"},
    }


    def get_test_modules(gis_enabled):
        """
        Scan the tests directory and yield the names of all test modules.

        The yielded names have either one dotted part like "test_runner" or, in
        the case of GIS tests, two dotted parts like "gis_tests.gdal_tests".
        """
        discovery_dirs = [""]
        if gis_enabled:
            # GIS tests are in nested apps
            discovery_dirs.append("gis_tests")
        else:
            SUBDIRS_TO_SKIP[""].add("gis_tests")

        for dirname in discovery_dirs:
            dirpath = os.path.join(RUNTESTS_DIR, dirname)
            subdirs_to_skip = SUBDIRS_TO_SKIP[dirname]
            with os.scandir(dirpath) as entries:
                for f in entries:
                    if (
                        "." in f.name
                        or os.path.basename(f.name) in subdirs_to_skip
                        or f.is_file()
                        or not os.path.exists(os.path.join(f.path, "__init__.py"))
                    ):
                        continue
                    test_module = f.name
                    if dirname:
                        test_module = dirname + "." + test_module
                    yield test_module


    if __name__ == "__main__":
        parser = argparse.ArgumentParser(description="Run the Django test suite.")
        parser.add_argument(
            "modules",
            nargs="*",
            metavar="module",
            help='Optional path(s) to test modules; e.g. "i18n" or '
            '"i18n.tests.TranslationTests.test_lazy_objects".',
        )
        parser.add_argument(
            "--settings",
            help='Python path to settings module, e.g. "myproject.settings". If '
            "this isn't provided, either the DJANGO_SETTINGS_MODULE "
            'environment variable or "test_sqlite" will be used.',
        )
        parser.add_argument(
            "--exclude-tag",
            dest="exclude_tags",
            action="append",
            help="Do not run tests with the specified tag. Can be used multiple times.",
        )
        parser.add_argument(
            "--start-after",
            dest="start_after",
            help="Run tests starting after the specified top-level module.",
        )
        options = parser.parse_args()
        if options.settings:
            os.environ["DJANGO_SETTINGS_MODULE"] = options.settings
        else:
            os.environ.setdefault("DJANGO_SETTINGS_MODULE", "test_sqlite")
            options.settings = os.environ["DJANGO_SETTINGS_MODULE"]
    ''')

# django tests/test_sqlite.py (comment trimmed)
TEST_SQLITE = py('''
    # This is an example test settings file for use with the Django test suite.
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
        },
        "other": {
            "ENGINE": "django.db.backends.sqlite3",
        },
    }

    SECRET_KEY = "django_tests_secret_key"

    # Use a fast hasher to speed up tests.
    PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]

    DEFAULT_AUTO_FIELD = "django.db.models.AutoField"

    USE_TZ = False
    ''')

# django tox.ini, [testenv] (deps trimmed)
DJANGO_TOX = py('''
    [tox]
    minversion = 4.0
    skipsdist = true
    envlist =
        py3
        flake8

    [testenv]
    usedevelop = true
    passenv = DJANGO_SETTINGS_MODULE,PYTHONPATH,HOME,DISPLAY,OBJC_DISABLE_INITIALIZE_FORK_SAFETY
    setenv =
        PYTHONDONTWRITEBYTECODE=1
    changedir = tests
    commands =
        {envpython} runtests.py {posargs}

    [testenv:flake8]
    basepython = python3
    usedevelop = false
    deps = flake8 >= 3.7.0
    changedir = {toxinidir}
    commands = flake8 .
    ''')

DJANGO: dict[str, str | bytes | None] = {
    "tox.ini": DJANGO_TOX,
    "tests/runtests.py": RUNTESTS,
    "tests/test_sqlite.py": TEST_SQLITE,
}


def django(app: str, **modules: str) -> dict[str, str | bytes | None]:
    """The Django runner tree plus one test app ``tests/<app>/`` holding ``modules``."""
    tree = {**DJANGO, f"tests/{app}/__init__.py": ""}
    for name, text in modules.items():
        tree[f"tests/{app}/{name.replace('__', '/')}.py"] = text
    return tree


# django tests/utils_tests/test_text.py
DJ_TEXT = django("utils_tests", test_text=py('''
    from django.core.exceptions import SuspiciousFileOperation
    from django.test import SimpleTestCase
    from django.utils import text
    from django.utils.functional import lazystr


    class TestUtilsText(SimpleTestCase):
        def test_get_text_list(self):
            self.assertEqual(text.get_text_list(["a", "b", "c", "d"]), "a, b, c or d")
            self.assertEqual(text.get_text_list(["a", "b", "c"], "and"), "a, b and c")
            self.assertEqual(text.get_text_list(["a", "b"], "and"), "a and b")
            self.assertEqual(text.get_text_list(["a"]), "a")
            self.assertEqual(text.get_text_list([]), "")

        def test_unescape_string_literal(self):
            items = [
                ('"abc"', "abc"),
                ("'abc'", "abc"),
                ('"a "bc""', 'a "bc"'),
                ("''ab' c'", "'ab' c"),
            ]
            for value, output in items:
                with self.subTest(value=value):
                    self.assertEqual(text.unescape_string_literal(value), output)
                    self.assertEqual(text.unescape_string_literal(lazystr(value)), output)

        def test_unescape_string_literal_invalid_value(self):
            items = ["", "abc", "'abc\\""]
            for item in items:
                msg = f"Not a string literal: {item!r}"
                with self.assertRaisesMessage(ValueError, msg):
                    text.unescape_string_literal(item)

        def test_get_valid_filename(self):
            filename = "^&'@{}[],$=!-#()%+~_123.txt"
            self.assertEqual(text.get_valid_filename(filename), "-_123.txt")
            self.assertEqual(text.get_valid_filename(lazystr(filename)), "-_123.txt")
            msg = "Could not derive file name from '???'"
            with self.assertRaisesMessage(SuspiciousFileOperation, msg):
                text.get_valid_filename("???")
    '''))
TEXT = "tests/utils_tests/test_text.py"

# django tests/utils_tests/test_datastructures.py (CaseInsensitiveMappingTests)
DJ_DATASTRUCT = django("utils_tests", test_datastructures=py('''
    from django.test import SimpleTestCase
    from django.utils.datastructures import CaseInsensitiveMapping


    class CaseInsensitiveMappingTests(SimpleTestCase):
        def setUp(self):
            self.dict1 = CaseInsensitiveMapping(
                {
                    "Accept": "application/json",
                    "content-type": "text/html",
                }
            )

        def test_create_with_invalid_values(self):
            msg = "dictionary update sequence element #1 has length 4; 2 is required"
            with self.assertRaisesMessage(ValueError, msg):
                CaseInsensitiveMapping([("Key1", "Val1"), "Key2"])

        def test_create_with_invalid_key(self):
            msg = "Element key 1 invalid, only strings are allowed"
            with self.assertRaisesMessage(ValueError, msg):
                CaseInsensitiveMapping([(1, "2")])

        def test_list(self):
            self.assertEqual(list(self.dict1), ["Accept", "content-type"])

        def test_in(self):
            self.assertIn("Accept", self.dict1)
            self.assertIn("accept", self.dict1)
            self.assertIn("aCCept", self.dict1)
            self.assertIn("content-type", self.dict1)
            self.assertIn("Content-Type", self.dict1)
    '''))
DATASTRUCT = "tests/utils_tests/test_datastructures.py"

# django tests/utils_tests/test_timesince.py
DJ_TIMESINCE = django("utils_tests", test_timesince=py('''
    import datetime
    import zoneinfo

    from django.test import TestCase
    from django.test.utils import override_settings, requires_tz_support
    from django.utils import timezone, translation
    from django.utils.timesince import timesince, timeuntil


    class TimesinceTests(TestCase):
        def setUp(self):
            self.t = datetime.datetime(2007, 8, 14, 13, 46, 0)
            self.onemicrosecond = datetime.timedelta(microseconds=1)
            self.onesecond = datetime.timedelta(seconds=1)
            self.oneminute = datetime.timedelta(minutes=1)
            self.onehour = datetime.timedelta(hours=1)
            self.oneday = datetime.timedelta(days=1)

        def test_equal_datetimes(self):
            """equal datetimes."""
            # NOTE: \\xa0 avoids wrapping between value and unit
            self.assertEqual(timesince(self.t, self.t), "0\\xa0minutes")

        def test_other_units(self):
            """Test other units."""
            self.assertEqual(timesince(self.t, self.t + self.oneminute), "1\\xa0minute")
            self.assertEqual(timesince(self.t, self.t + self.onehour), "1\\xa0hour")
            self.assertEqual(timesince(self.t, self.t + self.oneday), "1\\xa0day")

        def test_depth_invalid(self):
            msg = "depth must be greater than 0."
            with self.assertRaisesMessage(ValueError, msg):
                timesince(self.t, self.t, depth=0)

        @requires_tz_support
        def test_less_than_a_day_with_zoneinfo(self):
            now_with_zoneinfo = timezone.now().astimezone(
                zoneinfo.ZoneInfo(key="Asia/Kathmandu")  # UTC+05:45
            )
            tests = [
                (now_with_zoneinfo, "0\\xa0minutes"),
                (now_with_zoneinfo - self.onemicrosecond, "0\\xa0minutes"),
                (now_with_zoneinfo - self.onesecond, "0\\xa0minutes"),
                (now_with_zoneinfo - self.oneminute, "1\\xa0minute"),
                (now_with_zoneinfo - self.onehour, "1\\xa0hour"),
            ]
            for value, expected in tests:
                with self.subTest(value):
                    self.assertEqual(timesince(value), expected)


    @requires_tz_support
    @override_settings(USE_TZ=True)
    class TZAwareTimesinceTests(TimesinceTests):
        def setUp(self):
            super().setUp()
            self.t = timezone.make_aware(self.t, timezone.get_default_timezone())
    '''))
TIMESINCE = "tests/utils_tests/test_timesince.py"

# django tests/sessions_tests/tests.py (SessionTestsMixin and three backends, trimmed)
DJ_SESSIONS = django("sessions_tests", tests=py('''
    import unittest
    from datetime import timedelta

    from django.contrib.sessions.backends.db import SessionStore as DatabaseSession
    from django.contrib.sessions.backends.file import SessionStore as FileSession
    from django.contrib.sessions.backends.signed_cookies import (
        SessionStore as CookieSession,
    )
    from django.test import SimpleTestCase, TestCase


    class SessionTestsMixin:
        # This does not inherit from TestCase to avoid any tests being run with this
        # class, which wouldn't work, and to allow different TestCase subclasses to
        # be used.

        backend = None  # subclasses must specify

        def setUp(self):
            self.session = self.backend()
            self.addCleanup(self.session.delete)

        def test_new_session(self):
            self.assertIs(self.session.modified, False)
            self.assertIs(self.session.accessed, False)

        def test_store(self):
            self.session["cat"] = "dog"
            self.assertIs(self.session.modified, True)
            self.assertEqual(self.session.pop("cat"), "dog")

        def test_cycle_with_no_session_cache(self):
            self.session["a"], self.session["b"] = "c", "d"
            self.session.save()
            prev_data = self.session.items()
            self.session = self.backend(self.session.session_key)
            self.assertIs(hasattr(self.session, "_session_cache"), False)
            self.session.cycle_key()
            self.assertCountEqual(self.session.items(), prev_data)

        def test_actual_expiry(self):
            old_session_key = None
            new_session_key = None
            try:
                self.session["foo"] = "bar"
                self.session.set_expiry(-timedelta(seconds=10))
                self.session.save()
                old_session_key = self.session.session_key
                # With an expiry date in the past, the session expires instantly.
                new_session = self.backend(self.session.session_key)
                new_session_key = new_session.session_key
                self.assertNotIn("foo", new_session)
            finally:
                self.session.delete(old_session_key)
                self.session.delete(new_session_key)


    class DatabaseSessionTests(SessionTestsMixin, TestCase):
        backend = DatabaseSession


    class FileSessionTests(SessionTestsMixin, SimpleTestCase):
        backend = FileSession


    class CookieSessionTests(SessionTestsMixin, SimpleTestCase):
        backend = CookieSession

        def test_cycle(self):
            """
            This test tested cycle_key() which would create a new session
            key for the same session data. But we can't invalidate previously
            signed cookies (other than letting them expire naturally) so
            testing for this behavior is meaningless.
            """
            pass

        @unittest.expectedFailure
        def test_actual_expiry(self):
            # The cookie backend doesn't handle non-default expiry dates, see #19201
            super().test_actual_expiry()
    '''))
SESSIONS = "tests/sessions_tests/tests.py"

# django tests/humanize_tests/tests.py (HumanizeTests with its humanize_tester helper)
DJ_HUMANIZE = django("humanize_tests", tests=py('''
    import datetime

    from django.contrib.humanize.templatetags import humanize
    from django.template import Context, Template, defaultfilters
    from django.test import SimpleTestCase, modify_settings, override_settings
    from django.utils import translation
    from django.utils.html import escape

    now = datetime.datetime(2012, 3, 9, 22, 30)


    class MockDateTime(datetime.datetime):
        @classmethod
        def now(cls, tz=None):
            if tz is None or tz.utcoffset(now) is None:
                return now
            else:
                # equals now.replace(tzinfo=utc)
                return now.replace(tzinfo=tz) + tz.utcoffset(now)


    @modify_settings(INSTALLED_APPS={"append": "django.contrib.humanize"})
    class HumanizeTests(SimpleTestCase):
        def humanize_tester(
            self, test_list, result_list, method, normalize_result_func=escape
        ):
            for test_content, result in zip(test_list, result_list):
                with self.subTest(test_content):
                    t = Template("{%% load humanize %%}{{ test_content|%s }}" % method)
                    rendered = t.render(Context(locals())).strip()
                    self.assertEqual(
                        rendered,
                        normalize_result_func(result),
                        msg="%s test failed, produced '%s', should've produced '%s'"
                        % (method, rendered, result),
                    )

        def test_ordinal(self):
            test_list = (
                "1",
                "2",
                "3",
                "4",
                "11",
                "12",
                "13",
                "101",
                "102",
                "103",
                "111",
            )
            result_list = (
                "1st",
                "2nd",
                "3rd",
                "4th",
                "11th",
                "12th",
                "13th",
                "101st",
                "102nd",
                "103rd",
                "111th",
            )

            with translation.override("en"):
                self.humanize_tester(test_list, result_list, "ordinal")

        def test_intcomma_without_number_grouping(self):
            # Regression for #17414
            with translation.override("ja"):
                self.humanize_tester([100], ["100"], "intcomma")

        def test_naturalday_uses_localtime(self):
            # Regression for #18504
            # This is 2012-03-08HT19:30:00-06:00 in America/Chicago
            dt = datetime.datetime(2012, 3, 9, 1, 30, tzinfo=datetime.timezone.utc)

            orig_humanize_datetime, humanize.datetime = humanize.datetime, MockDateTime
            try:
                with override_settings(TIME_ZONE="America/Chicago", USE_TZ=True):
                    with translation.override("en"):
                        self.humanize_tester([dt], ["yesterday"], "naturalday")
            finally:
                humanize.datetime = orig_humanize_datetime
    '''))
HUMANIZE = "tests/humanize_tests/tests.py"

# django tests/forms_tests/widget_tests/base.py and test_widget.py, test_numberinput.py
WIDGET_BASE = py('''
    from django.forms.renderers import DjangoTemplates, Jinja2
    from django.test import SimpleTestCase

    try:
        import jinja2
    except ImportError:
        jinja2 = None


    class WidgetTest(SimpleTestCase):
        beatles = (("J", "John"), ("P", "Paul"), ("G", "George"), ("R", "Ringo"))

        @classmethod
        def setUpClass(cls):
            cls.django_renderer = DjangoTemplates()
            cls.jinja2_renderer = Jinja2() if jinja2 else None
            cls.renderers = [cls.django_renderer] + (
                [cls.jinja2_renderer] if cls.jinja2_renderer else []
            )
            super().setUpClass()

        def check_html(
            self, widget, name, value, html="", attrs=None, strict=False, **kwargs
        ):
            assertEqual = self.assertEqual if strict else self.assertHTMLEqual
            if self.jinja2_renderer:
                output = widget.render(
                    name, value, attrs=attrs, renderer=self.jinja2_renderer, **kwargs
                )
                # Django escapes quotes with '&quot;' while Jinja2 uses '&#34;'.
                output = output.replace("&#34;", "&quot;")
                # Django escapes single quotes with '&#x27;' while Jinja2 uses '&#39;'.
                output = output.replace("&#39;", "&#x27;")
                assertEqual(output, html)

            output = widget.render(
                name, value, attrs=attrs, renderer=self.django_renderer, **kwargs
            )
            assertEqual(output, html)
    ''')
DJ_WIDGETS = {**DJANGO, "tests/forms_tests/__init__.py": "",
              "tests/forms_tests/widget_tests/__init__.py": "",
              "tests/forms_tests/widget_tests/base.py": WIDGET_BASE,
              "tests/forms_tests/widget_tests/test_widget.py": py('''
    from django.forms import Widget
    from django.forms.widgets import Input

    from .base import WidgetTest


    class WidgetTests(WidgetTest):
        def test_format_value(self):
            widget = Widget()
            self.assertIsNone(widget.format_value(None))
            self.assertIsNone(widget.format_value(""))
            self.assertEqual(widget.format_value("español"), "español")
            self.assertEqual(widget.format_value(42.5), "42.5")

        def test_no_trailing_newline_in_attrs(self):
            self.check_html(
                Input(),
                "name",
                "value",
                strict=True,
                html='<input type="None" name="name" value="value">',
            )

        def test_attr_false_not_rendered(self):
            html = '<input type="None" name="name" value="value">'
            self.check_html(Input(), "name", "value", html=html, attrs={"readonly": False})
    '''), "tests/forms_tests/widget_tests/test_numberinput.py": py('''
    from django.forms import CharField, Form, NumberInput
    from django.test import override_settings

    from .base import WidgetTest


    class NumberInputTests(WidgetTest):
        widget = NumberInput(attrs={"max": 12345, "min": 1234, "step": 9999})

        @override_settings(USE_THOUSAND_SEPARATOR=True)
        def test_attrs_not_localized(self):
            self.check_html(
                self.widget,
                "name",
                "value",
                '<input type="number" name="name" value="value" max="12345" min="1234" '
                'step="9999">',
            )

        def test_fieldset(self):
            class TestForm(Form):
                template_name = "forms_tests/use_fieldset.html"
                field = CharField(widget=self.widget)

            form = TestForm()
            self.assertIs(self.widget.use_fieldset, False)
            self.assertHTMLEqual(
                '<div><label for="id_field">Field:</label>'
                '<input id="id_field" max="12345" min="1234" '
                'name="field" required step="9999" type="number"></div>',
                form.render(),
            )
    ''')}
WIDGET = "tests/forms_tests/widget_tests/test_widget.py"
NUMBERINPUT = "tests/forms_tests/widget_tests/test_numberinput.py"

# django tests/fixtures_regress/tests.py (test_proxy_model_included)
DJ_FIXTURES = django("fixtures_regress", tests=py('''
    from io import StringIO

    from django.core import management
    from django.test import TestCase

    from .models import Widget


    class TestFixtures(TestCase):
        def test_proxy_model_included(self):
            """
            Regression for #11428 - Proxy models aren't included when you dumpdata
            """
            out = StringIO()
            # Create an instance of the concrete class
            widget = Widget.objects.create(name="grommet")
            management.call_command(
                "dumpdata",
                "fixtures_regress.widget",
                "fixtures_regress.widgetproxy",
                format="json",
                stdout=out,
            )
            self.assertJSONEqual(
                out.getvalue(),
                '[{"pk": %d, "model": "fixtures_regress.widget", '
                '"fields": {"name": "grommet"}}]' % widget.pk,
            )
    '''))
FIXTURES = "tests/fixtures_regress/tests.py"

# django tests/basic/tests.py (ModelTest) and tests/expressions/tests.py
DJ_BASIC = django("basic", tests=py('''
    from datetime import datetime

    from django.test import TestCase

    from .models import Article


    class ModelTest(TestCase):
        def test_queryset_delete_removes_all_items_in_that_queryset(self):
            headlines = ["An article", "Article One", "Amazing article", "Boring article"]
            some_pub_date = datetime(2014, 5, 16, 12, 1)
            for headline in headlines:
                Article(headline=headline, pub_date=some_pub_date).save()
            self.assertQuerySetEqual(
                Article.objects.order_by("headline"),
                sorted(headlines),
                transform=lambda a: a.headline,
            )
            Article.objects.filter(headline__startswith="A").delete()
            self.assertEqual(Article.objects.get().headline, "Boring article")
    '''))
BASIC = "tests/basic/tests.py"

DJ_EXPRESSIONS = django("expressions", tests=py('''
    from django.db.models import F, Value
    from django.test import TestCase, skipUnlessDBFeature

    from .models import Experiment, JSONFieldModel, Number


    class BasicExpressionsTests(TestCase):
        def test_update_with_none(self):
            Number.objects.create(integer=1, float=1.0)
            Number.objects.create(integer=2)
            Number.objects.filter(float__isnull=False).update(float=Value(None))
            self.assertQuerySetEqual(
                Number.objects.all(), [None, None], lambda n: n.float, ordered=False
            )


    class FTimeDeltaTests(TestCase):
        @skipUnlessDBFeature("supports_temporal_subtraction")
        def test_datetime_subtraction_with_annotate_and_no_output_field(self):
            test_set = Experiment.objects.annotate(
                calculated_duration=F("end") - F("start")
            )
            self.assertEqual(
                [e.calculated_duration for e in test_set],
                [e.end - e.start for e in test_set],
            )

        def test_delta_add(self):
            test_set = Experiment.objects.annotate(
                estimated_end=F("start") + F("estimated_time")
            )
            self.assertEqual(
                [e.estimated_end for e in test_set],
                [e.start + e.estimated_time for e in test_set],
            )
    '''))
EXPRESSIONS = "tests/expressions/tests.py"

# django tests/i18n/tests.py (FormattingTests.test_locale_independent, trimmed)
DJ_I18N = django("i18n", tests=py('''
    from decimal import Decimal

    from django.test import SimpleTestCase
    from django.utils.numberformat import format as nformat


    class FormattingTests(SimpleTestCase):
        def setUp(self):
            super().setUp()
            self.n = Decimal("66666.666")

        def test_locale_independent(self):
            """
            Localization of numbers
            """
            with self.settings(USE_THOUSAND_SEPARATOR=False):
                self.assertEqual(
                    "66666.66",
                    nformat(
                        self.n, decimal_sep=".", decimal_pos=2, grouping=3, thousand_sep=","
                    ),
                )
                self.assertEqual(
                    "66666A6",
                    nformat(
                        self.n, decimal_sep="A", decimal_pos=1, grouping=1, thousand_sep="B"
                    ),
                )
    '''))
I18N = "tests/i18n/tests.py"

# django tests/aggregation/tests.py (AggregateTestCase, trimmed)
DJ_AGGREGATION = django("aggregation", tests=py('''
    import math
    from decimal import Decimal

    from django.db.models import Avg, Q, Sum
    from django.db.models.functions import Pi
    from django.test import TestCase

    from .models import Book


    class AggregateTestCase(TestCase):
        def test_ticket12886(self):
            """
            Aggregation over sliced queryset works correctly.
            """
            qs = Book.objects.order_by("-rating")[0:3]
            vals = qs.aggregate(average_top3_rating=Avg("rating"))["average_top3_rating"]
            self.assertAlmostEqual(vals, 4.5, places=2)

        def test_aggregation_default_using_decimal_from_database(self):
            result = Book.objects.filter(rating__lt=3.0).aggregate(
                value=Sum("price", default=Pi()),
            )
            self.assertAlmostEqual(result["value"], Decimal.from_float(math.pi), places=6)
    '''))
AGGREGATION = "tests/aggregation/tests.py"

# ============================================================================ Python-Markdown

# markdown/test_tools.py (TestCase and the legacy framework, trimmed); shipped in the package,
# imported by every test module as the project's own assertion helper.
MD_TEST_TOOLS = py('''
    """ A collection of tools for testing the Markdown code base and extensions. """

    from __future__ import annotations

    import os
    import sys
    import unittest
    import textwrap
    from typing import Any
    from . import markdown, Markdown, util

    __all__ = ['TestCase', 'LegacyTestCase', 'Kwargs']


    class TestCase(unittest.TestCase):
        """
        A [`unittest.TestCase`][] subclass with helpers for testing Markdown output.
        """

        default_kwargs: dict[str, Any] = {}
        """ Default options to pass to Markdown for each test. """

        def assertMarkdownRenders(self, source, expected, expected_attrs=None, **kwargs):
            """
            Test that source Markdown text renders to expected output with given keywords.
            """

            expected_attrs = expected_attrs or {}
            kws = self.default_kwargs.copy()
            kws.update(kwargs)
            md = Markdown(**kws)
            output = md.convert(source)
            self.assertMultiLineEqual(output, expected)
            for key, value in expected_attrs.items():
                self.assertEqual(getattr(md, key), value)

        def dedent(self, text):
            """
            Dedent text.
            """

            # TODO: If/when actual output ends with a newline, then use:
            #     return textwrap.dedent(text.strip('/n'))
            return textwrap.dedent(text).strip()


    class Kwargs(dict):
        """ A `dict` like class for holding keyword arguments. """
        pass


    class LegacyTestMeta(type):
        def __new__(cls, name, bases, dct):

            def generate_test(infile, outfile, normalize, kwargs):
                def test(self):
                    with open(infile, encoding="utf-8") as f:
                        input = f.read()
                    with open(outfile, encoding="utf-8") as f:
                        # Normalize line endings
                        # (on Windows, git may have altered line endings).
                        expected = f.read().replace("\\r\\n", "\\n")
                    output = markdown(input, **kwargs)
                    self.assertMultiLineEqual(output, expected)
                return test

            location = dct.get('location', '')
            exclude = dct.get('exclude', [])
            input_ext = dct.get('input_ext', '.txt')
            output_ext = dct.get('output_ext', '.html')
            kwargs = dct.get('default_kwargs', Kwargs())

            if os.path.isdir(location):
                for file in os.listdir(location):
                    infile = os.path.join(location, file)
                    if os.path.isfile(infile):
                        tname, ext = os.path.splitext(file)
                        if ext == input_ext:
                            outfile = os.path.join(location, tname + output_ext)
                            tname = tname.replace(' ', '_').replace('-', '_')
                            kws = kwargs.copy()
                            if tname in dct:
                                kws.update(dct[tname])
                            test_name = 'test_%s' % tname
                            if tname not in exclude:
                                dct[test_name] = generate_test(infile, outfile, False, kws)
                            else:
                                dct[test_name] = unittest.skip('Excluded')(lambda: None)

            return type.__new__(cls, name, bases, dct)


    class LegacyTestCase(unittest.TestCase, metaclass=LegacyTestMeta):
        """
        A [`unittest.TestCase`][] subclass for running Markdown's legacy file-based tests.
        """
    ''')

# markdown tox.ini [testenv] and makefile `test` target
MD_TOX = py('''
    [tox]
    envlist = py{311, 312, 313, 314, 315}, pypy{311}, pygments, flake8, checkspelling
    isolated_build = True

    [testenv]
    extras = testing
    deps = pytidylib
    allowlist_externals = coverage
    commands =
        coverage run --source=markdown -m unittest discover {toxinidir}/tests
        coverage xml
        coverage report --show-missing

    [testenv:flake8]
    deps = flake8
    allowlist_externals = flake8
    commands = flake8 {toxinidir}/markdown {toxinidir}/tests
    skip_install = true
    ''')
MD_MAKEFILE = (".PHONY : test\n"
               "test:\n"
               "\tcoverage run --source=markdown -m unittest discover tests\n"
               "\tcoverage report --show-missing\n")

MD_HEADER = '"""\nPython Markdown\n\nA Python implementation of John Gruber\'s Markdown.\n"""\n\n'

MARKDOWN: dict[str, str | bytes | None] = {
    "tox.ini": MD_TOX,
    "makefile": MD_MAKEFILE,
    "markdown/__init__.py": "from .core import Markdown, markdown\n",
    "markdown/test_tools.py": MD_TEST_TOOLS,
    "tests/__init__.py": MD_HEADER,
    "tests/test_syntax/__init__.py": MD_HEADER,
    "tests/test_syntax/blocks/__init__.py": MD_HEADER,
    "tests/test_syntax/inline/__init__.py": MD_HEADER,
    "tests/test_syntax/extensions/__init__.py": MD_HEADER,
}
TOOLS = "markdown/test_tools.py"


def markdown_suite(path: str, text: str, **more: str) -> dict[str, str | bytes | None]:
    """The Python-Markdown tree plus the test module ``path`` (and any ``more`` files)."""
    return {**MARKDOWN, path: MD_HEADER + text, **more}


# markdown tests/test_syntax/blocks/test_hr.py
HR = "tests/test_syntax/blocks/test_hr.py"
MD_HR = markdown_suite(HR, py("""
    from markdown.test_tools import TestCase


    class TestHorizontalRules(TestCase):

        def test_hr_asterisks(self):
            self.assertMarkdownRenders(
                '***',

                '<hr />'
            )

        def test_hr_asterisks_spaces(self):
            self.assertMarkdownRenders(
                '* * *',

                '<hr />'
            )

        def test_hr_asterisks_long(self):
            self.assertMarkdownRenders(
                '*******',

                '<hr />'
            )
    """))

# markdown tests/test_syntax/inline/test_autolinks.py
AUTOLINKS = "tests/test_syntax/inline/test_autolinks.py"
MD_AUTOLINKS = markdown_suite(AUTOLINKS, py("""
    from markdown.test_tools import TestCase


    class TestAutomaticLinks(TestCase):

        def test_url_schemes(self):
            for url in (
                'http://example.org',
                'https://example.org',
                'ftp://example.org',
                'ftps://example.org',
                'HtTpS://example.org',
                'ssh://example.org',
                'git://example.org/repo',
                's3://bucket/key',
                'git+ssh://example.org/repo',
                'x.y-z://example.org',
            ):
                with self.subTest(url=url):
                    self.assertMarkdownRenders(
                        f'<{url}>',
                        f'<p><a href="{url}">{url}</a></p>'
                    )

        def test_invalid_url_schemes(self):
            for source, expected in (
                ('<1http://example.org>', '<p>&lt;1http://example.org&gt;</p>'),
                ('<git_ssh://example.org>', '<p><git_ssh://example.org></p>'),
                ('<urn:foo>', '<p><urn:foo></p>'),
                ('<em>boo!</em>', '<p><em>boo!</em></p>'),
            ):
                with self.subTest(source=source):
                    self.assertMarkdownRenders(source, expected)

        def test_url_scheme_in_code_span(self):
            self.assertMarkdownRenders(
                '`<ssh://example.org>`',
                '<p><code>&lt;ssh://example.org&gt;</code></p>'
            )
    """))

# markdown tests/test_syntax/extensions/test_toc.py (TestTOC, trimmed)
TOC = "tests/test_syntax/extensions/test_toc.py"
MD_TOC = markdown_suite(TOC, py("""
    from markdown.test_tools import TestCase
    from markdown.extensions.toc import TocExtension


    class TestTOC(TestCase):
        maxDiff = None
        default_kwargs = {
            'extensions': [TocExtension()]
        }

        def testNoTOCMarker(self):
            self.assertMarkdownRenders(
                self.dedent(
                    '''
                    # Header 1

                    ## Header 2
                    '''
                ),
                self.dedent(
                    '''
                    <h1 id="header-1">Header 1</h1>
                    <h2 id="header-2">Header 2</h2>
                    '''
                ),
                expected_attrs={
                    'toc': (
                        '<div class="toc">\\n'
                          '<ul>\\n'                                             # noqa
                            '<li><a href="#header-1">Header 1</a>'             # noqa
                              '<ul>\\n'                                         # noqa
                                '<li><a href="#header-2">Header 2</a></li>\\n'  # noqa
                              '</ul>\\n'                                        # noqa
                            '</li>\\n'                                          # noqa
                          '</ul>\\n'                                            # noqa
                        '</div>\\n'                                             # noqa
                    )
                }
            )
    """))

# the same test without its expected_attrs argument
MD_TOC_NO_ATTRS = {**MD_TOC, TOC: text_of(MD_TOC, TOC)[:text_of(MD_TOC, TOC).index(
    "            ),\n            expected_attrs")] + "            )\n        )\n"}

# a markdown test module with its own helpers: one whose last parameter only adds checks,
# one whose last parameter is the renderer's options
LOCAL = "tests/test_syntax/blocks/test_local_helpers.py"
MD_LOCAL = markdown_suite(LOCAL, py("""
    from markdown import markdown


    def check_rendered(source, expected, fragments=None):
        output = markdown(source)
        assert output == expected
        if fragments is not None:
            for fragment in fragments:
                assert fragment in output


    def check_rendered_with(source, expected, options=None):
        output = markdown(source, **(options or {}))
        assert output == expected


    def test_emphasis():
        check_rendered('*a*', '<p><em>a</em></p>')


    def test_hr():
        check_rendered_with('***', '<hr />')
    """))

# markdown tests/test_syntax/extensions/test_smarty.py (TestSmarty, trimmed)
SMARTY = "tests/test_syntax/extensions/test_smarty.py"
MD_SMARTY = markdown_suite(SMARTY, py("""
    from markdown.test_tools import TestCase


    class TestSmarty(TestCase):

        default_kwargs = {'extensions': ['smarty']}

        def test_basic(self):
            self.assertMarkdownRenders(
                "It's fun. What's fun?",
                '<p>It&rsquo;s fun. What&rsquo;s fun?</p>'
            )
            self.assertMarkdownRenders(
                '"Isn\\'t this fun"? --- she said...',
                '<p>&ldquo;Isn&rsquo;t this fun&rdquo;? &mdash; she said&hellip;</p>'
            )
    """))

# markdown tests/test_syntax/extensions/test_code_hilite.py (setUp skip, trimmed)
HILITE = "tests/test_syntax/extensions/test_code_hilite.py"
MD_HILITE = markdown_suite(HILITE, py("""
    from markdown.test_tools import TestCase
    from markdown.extensions.codehilite import CodeHilite, CodeHiliteExtension
    import os

    try:
        import pygments  # noqa
        has_pygments = True
    except ImportError:
        has_pygments = False

    # The version required by the tests is the version specified and installed in the
    # `pygments` tox environment.
    required_pygments_version = os.environ.get('PYGMENTS_VERSION', '')


    class TestCodeHiliteClass(TestCase):
        \""" Test the markdown.extensions.codehilite.CodeHilite class. \"""

        def setUp(self):
            if has_pygments and pygments.__version__ != required_pygments_version:
                self.skipTest(f'Pygments=={required_pygments_version} is required')

        maxDiff = None

        def assertOutputEquals(self, source, expected, **options):
            \"""
            Test that source code block results in the expected output with given options.
            \"""

            output = CodeHilite(source, **options).hilite()
            self.assertMultiLineEqual(output.strip(), expected)

        def test_codehilite_defaults(self):
            if has_pygments:
                # Odd result as no `lang` given and a single comment is not enough for guessing.
                expected = (
                    '<div class="codehilite"><pre><span></span><code>'
                    '<span class="err"># A Code Comment</span>\\n'
                    '</code></pre></div>'
                )
            else:
                expected = (
                    '<pre class="codehilite"><code># A Code Comment\\n'
                    '</code></pre>'
                )
            self.assertOutputEquals('# A Code Comment', expected)
    """))

# markdown tests/test_syntax/extensions/test_md_in_html.py (load_tests, trimmed)
MDHTML = "tests/test_syntax/extensions/test_md_in_html.py"
MD_MDHTML = markdown_suite(MDHTML, py("""
    from unittest import TestSuite
    from markdown.test_tools import TestCase
    from ..blocks.test_html_blocks import TestHTMLBlocks
    from markdown import Markdown
    from xml.etree.ElementTree import Element


    class TestMarkdownInHTMLPostProcessor(TestCase):
        \""" Ensure any remaining elements in HTML stash are properly serialized. \"""

        def test_stash_to_string(self):
            # There should be no known cases where this actually happens so we need to
            # forcefully pass an `etree` `Element` to the method to ensure proper behavior.
            element = Element('div')
            element.text = 'Foo bar.'
            md = Markdown(extensions=['md_in_html'])
            result = md.postprocessors['raw_html'].stash_to_string(element)
            self.assertEqual(result, '<div>Foo bar.</div>')


    class TestDefaultwMdInHTML(TestHTMLBlocks):
        \""" Ensure the md_in_html extension does not break the default behavior. \"""

        default_kwargs = {'extensions': ['md_in_html']}


    class TestMdInHTML(TestCase):

        default_kwargs = {'extensions': ['md_in_html']}

        def test_md1_paragraph(self):
            self.assertMarkdownRenders(
                '<p markdown="1">*foo*</p>',
                '<p><em>foo</em></p>'
            )


    def load_tests(loader, tests, pattern):
        \""" Ensure `TestHTMLBlocks` doesn't get run twice by excluding it here. \"""
        suite = TestSuite()
        for test_class in [TestDefaultwMdInHTML, TestMdInHTML, TestMarkdownInHTMLPostProcessor]:
            tests = loader.loadTestsFromTestCase(test_class)
            suite.addTests(tests)
        return suite
    """), **{"tests/test_syntax/blocks/test_html_blocks.py": MD_HEADER + py("""
    from markdown.test_tools import TestCase


    class TestHTMLBlocks(TestCase):

        def test_raw_paragraph(self):
            self.assertMarkdownRenders(
                '<p>A raw paragraph.</p>',
                '<p>A raw paragraph.</p>'
            )
    """)})

# markdown tests/test_legacy.py (LegacyTestCase with an exclude list) and its data files
LEGACY = "tests/test_legacy.py"
MD_LEGACY = markdown_suite(LEGACY, py("""
    from markdown.test_tools import LegacyTestCase, Kwargs
    import os
    import warnings

    # Warnings should cause tests to fail...
    warnings.simplefilter('error')

    parent_test_dir = os.path.abspath(os.path.dirname(__file__))


    class TestBasic(LegacyTestCase):
        location = os.path.join(parent_test_dir, 'basic')


    class TestPl2004(LegacyTestCase):
        location = os.path.join(parent_test_dir, 'pl/Tests_2004')
        normalize = True
        input_ext = '.text'
        exclude = ['Yuri_Footnotes', 'Yuri_Attributes']
    """), **{
    "tests/basic/amps-and-angle-encoding.txt": "AT&T has an ampersand in their name.\n\n"
                                              "This & that.\n",
    "tests/basic/amps-and-angle-encoding.html": "<p>AT&amp;T has an ampersand in their name.</p>\n"
                                               "<p>This &amp; that.</p>",
})

# markdown tests/test_apis.py (TestErrors, trimmed)
APIS = "tests/test_apis.py"
MD_APIS = markdown_suite(APIS, py("""
    import unittest
    import warnings
    import markdown


    class TestErrors(unittest.TestCase):
        \""" Test Error Reporting. \"""

        def setUp(self):
            # Set warnings to be raised as errors
            warnings.simplefilter('error')

        def tearDown(self):
            # Reset warning behavior back to default
            warnings.simplefilter('default')

        def testBadOutputFormat(self):
            \""" Test failure on bad output_format. \"""
            self.assertRaises(KeyError, markdown.Markdown, output_format='invalid')

        def testLoadExtensionFailure(self):
            \""" Test failure of an extension to load. \"""
            self.assertRaises(
                ImportError,
                markdown.Markdown, extensions=['non_existant_ext']
            )
    """))

# ============================================================================ simplejson

# simplejson setup.py (TestCommand) and simplejson/tests/__init__.py (the suite it runs)
SJ_SETUP = py('''
    from setuptools import Command, setup


    class TestCommand(Command):
        user_options = []

        def initialize_options(self):
            pass

        def finalize_options(self):
            pass

        def run(self):
            import sys
            import subprocess
            raise SystemExit(
                subprocess.call([sys.executable,
                                 # Turn on deprecation warnings
                                 '-Wd',
                                 'simplejson/tests/__init__.py']))


    setup(name="simplejson", packages=['simplejson', 'simplejson.tests'],
          cmdclass=dict(test=TestCommand))
    ''')
SJ_TESTS_INIT = py('''
    from __future__ import absolute_import
    import unittest
    import sys
    import os


    def additional_tests(suite=None, project_dir=None):
        import simplejson
        import simplejson.encoder
        import simplejson.decoder

        if suite is None:
            suite = unittest.TestSuite()
        import doctest
        for mod in (simplejson, simplejson.encoder, simplejson.decoder):
            suite.addTest(doctest.DocTestSuite(mod))
        return suite


    def all_tests_suite(project_dir=None):
        def get_suite():
            suite_names = [
                "simplejson.tests.%s" % (os.path.splitext(f)[0],)
                for f in os.listdir(os.path.dirname(__file__))
                if f.startswith("test_") and f.endswith(".py")
            ]
            return additional_tests(
                suite=unittest.TestLoader().loadTestsFromNames(suite_names),
                project_dir=project_dir,
            )

        return get_suite()


    def main(project_dir=None):
        runner = unittest.TextTestRunner(verbosity=1 + sys.argv.count("-v"))
        suite = all_tests_suite(project_dir=project_dir)
        raise SystemExit(not runner.run(suite).wasSuccessful())


    if __name__ == "__main__":
        import os
        import sys

        project_dir = os.path.dirname(
            os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        )
        sys.path.insert(0, project_dir)
        main(project_dir=project_dir)
    ''')
SJ_HELPERS = py('''
    """Shared helpers for the simplejson C extension test files."""
    import unittest

    from simplejson import encoder


    def has_speedups():
        return encoder.c_make_encoder is not None


    def skip_if_speedups_missing(func):
        def wrapper(*args, **kwargs):
            if not has_speedups():
                raise unittest.SkipTest("C Extension not available")
            return func(*args, **kwargs)

        return wrapper
    ''')
SIMPLEJSON: dict[str, str | bytes | None] = {
    "setup.py": SJ_SETUP,
    "simplejson/__init__.py": "from .decoder import JSONDecoder, JSONDecodeError\n",
    "simplejson/tests/__init__.py": SJ_TESTS_INIT,
    "simplejson/tests/_helpers.py": SJ_HELPERS,
}
SJ_INIT = "simplejson/tests/__init__.py"
SJ_HELPERS_PATH = "simplejson/tests/_helpers.py"

# simplejson/tests/test_float.py (trimmed)
SJ_FLOAT_PATH = "simplejson/tests/test_float.py"
SJ_FLOAT = {**SIMPLEJSON, SJ_FLOAT_PATH: py('''
    import sys
    import math
    from unittest import TestCase
    from simplejson.compat import long_type, text_type
    import simplejson as json
    from simplejson.decoder import NaN, PosInf, NegInf

    class TestFloat(TestCase):
        def test_degenerates_ignore(self):
            for f in (PosInf, NegInf, NaN):
                self.assertEqual(json.loads(json.dumps(f, ignore_nan=True)), None)

        def test_degenerates_deny(self):
            for f in (PosInf, NegInf, NaN):
                self.assertRaises(ValueError, json.dumps, f, allow_nan=False)
            for s in ('Infinity', '-Infinity', 'NaN'):
                self.assertRaises(ValueError, json.loads, s, allow_nan=False)
                self.assertRaises(ValueError, json.loads, s)

        def test_degenerates_deny_message(self):
            # The error names the value, as the pure Python encoder does.
            for f, text in ((PosInf, 'inf'), (NegInf, '-inf'), (NaN, 'nan')):
                try:
                    json.dumps(f, allow_nan=False)
                except ValueError:
                    e = sys.exc_info()[1]
                    self.assertEqual(
                        str(e),
                        'Out of range float values are not JSON compliant: ' + text)
                else:
                    self.fail('Unexpected success encoding %r' % (f,))

        def test_floats(self):
            for num in [1617161771.7650001, math.pi, math.pi**100,
                        math.pi**-100, 3.1]:
                self.assertEqual(float(json.dumps(num)), num)
                self.assertEqual(json.loads(json.dumps(num)), num)
                self.assertEqual(json.loads(text_type(json.dumps(num))), num)
    ''')}

# simplejson/tests/test_decimal.py (trimmed)
SJ_DECIMAL_PATH = "simplejson/tests/test_decimal.py"
SJ_DECIMAL = {**SIMPLEJSON, SJ_DECIMAL_PATH: py('''
    import decimal
    from decimal import Decimal
    from unittest import TestCase
    from simplejson.compat import StringIO, reload_module

    import simplejson as json

    class TestDecimal(TestCase):
        NUMS = "1.0", "10.00", "1.1", "1234567890.1234567890", "500"
        def dumps(self, obj, **kw):
            sio = StringIO()
            json.dump(obj, sio, **kw)
            res = json.dumps(obj, **kw)
            self.assertEqual(res, sio.getvalue())
            return res

        def loads(self, s, **kw):
            sio = StringIO(s)
            res = json.loads(s, **kw)
            self.assertEqual(res, json.load(sio, **kw))
            return res

        def test_decimal_encode(self):
            for d in map(Decimal, self.NUMS):
                self.assertEqual(self.dumps(d, use_decimal=True), str(d))

        def test_decimal_decode(self):
            for s in self.NUMS:
                self.assertEqual(self.loads(s, parse_float=Decimal), Decimal(s))
    ''')}

# simplejson/tests/test_errors.py (trimmed)
SJ_ERRORS_PATH = "simplejson/tests/test_errors.py"
SJ_ERRORS = {**SIMPLEJSON, SJ_ERRORS_PATH: py('''
    # -*- coding: utf-8 -*-
    import sys, pickle
    import unittest
    from unittest import TestCase

    import simplejson as json
    from simplejson.compat import text_type, b

    class TestErrors(TestCase):
        def test_string_keys_error(self):
            data = [{'a': 'A', 'b': (2, 4), 'c': 3.0, ('d',): 'D tuple'}]
            try:
                json.dumps(data)
            except TypeError:
                err = sys.exc_info()[1]
            else:
                self.fail('Expected TypeError')
            self.assertEqual(str(err),
                    'keys must be str, int, float, bool or None, not tuple')

        def test_decode_error(self):
            err = None
            try:
                json.loads('{}\\na\\nb')
            except json.JSONDecodeError:
                err = sys.exc_info()[1]
            else:
                self.fail('Expected JSONDecodeError')
            self.assertEqual(err.lineno, 2)
            self.assertEqual(err.colno, 1)
            self.assertEqual(err.endlineno, 3)
            self.assertEqual(err.endcolno, 2)
    ''')}

# test_string_keys_error's try/except/else: self.fail() idiom, and the raises block for it
SJ_TRY_ELSE_FAIL = '''        try:
            json.dumps(data)
        except TypeError:
            err = sys.exc_info()[1]
        else:
            self.fail('Expected TypeError')
        self.assertEqual(str(err),'''


def sj_assert_raises(exception: str) -> str:
    return (f"        with self.assertRaises({exception}) as cm:\n"
            "            json.dumps(data)\n        err = cm.exception\n"
            "        self.assertEqual(str(err),")


# simplejson/tests/test_speedups.py (trimmed)
SJ_SPEEDUPS_PATH = "simplejson/tests/test_speedups.py"
SJ_SPEEDUPS = {**SIMPLEJSON, SJ_SPEEDUPS_PATH: py('''
    import sys
    import unittest
    from unittest import TestCase

    import simplejson
    from simplejson import encoder, decoder, scanner
    from simplejson.compat import PY3, b
    from simplejson.tests._helpers import has_speedups, skip_if_speedups_missing


    class BadBool:
        def __bool__(self):
            1/0
        __nonzero__ = __bool__


    class TestDecode(TestCase):
        @skip_if_speedups_missing
        def test_make_scanner(self):
            self.assertRaises(AttributeError, scanner.c_make_scanner, 1)

        @skip_if_speedups_missing
        def test_bad_bool_args(self):
            def test(value):
                decoder.JSONDecoder(strict=BadBool()).decode(value)
            self.assertRaises(ZeroDivisionError, test, '""')
            self.assertRaises(ZeroDivisionError, test, '{}')
    ''')}

# ============================================================================ CPython

# Lib/test/support/__init__.py (the resource machinery, trimmed)
CP_SUPPORT = py('''
    """Supporting definitions for the Python regression tests."""

    import sys
    import unittest

    use_resources = None     # Flag set to [] by regrtest.py


    class ResourceDenied(unittest.SkipTest):
        """Test skipped because it requested a disallowed resource.

        This is raised when a test calls requires() for a resource that
        has not be enabled.  It is used to distinguish between expected
        and unexpected skips.
        """


    def _id(obj):
        return obj


    def is_resource_enabled(resource):
        """Test whether a resource is enabled.

        Known resources are set by regrtest.py.  If not running under regrtest.py,
        all resources are assumed enabled unless use_resources has been set.
        """
        return use_resources is None or resource in use_resources


    def requires(resource, msg=None):
        """Raise ResourceDenied if the specified resource is not available."""
        if not is_resource_enabled(resource):
            if msg is None:
                msg = "Use of the %r resource not enabled" % resource
            raise ResourceDenied(msg)


    def requires_resource(resource):
        if is_resource_enabled(resource):
            return _id
        else:
            return unittest.skip("resource {0!r} is not enabled".format(resource))
    ''')

# Lib/test/test_json/__init__.py (trimmed)
CP_JSON_INIT = py('''
    import os
    import json
    import doctest
    import unittest

    from test import support
    from test.support import import_helper


    # import json with and without accelerations
    cjson = import_helper.import_fresh_module('json', fresh=['_json'])
    pyjson = import_helper.import_fresh_module('json', blocked=['_json'])

    # create two base classes that will be used by the other tests
    class PyTest(unittest.TestCase):
        json = pyjson
        loads = staticmethod(pyjson.loads)
        dumps = staticmethod(pyjson.dumps)
        JSONDecodeError = staticmethod(pyjson.JSONDecodeError)

    @unittest.skipUnless(cjson, 'requires _json')
    class CTest(unittest.TestCase):
        if cjson is not None:
            json = cjson
            loads = staticmethod(cjson.loads)
            dumps = staticmethod(cjson.dumps)
            JSONDecodeError = staticmethod(cjson.JSONDecodeError)

    # test PyTest and CTest checking if the functions come from the right module
    class TestPyTest(PyTest):
        def test_pyjson(self):
            self.assertEqual(self.json.scanner.make_scanner.__module__,
                             'json.scanner')
            self.assertEqual(self.json.decoder.scanstring.__module__,
                             'json.decoder')
            self.assertEqual(self.json.encoder.encode_basestring_ascii.__module__,
                             'json.encoder')

    class TestCTest(CTest):
        def test_cjson(self):
            self.assertEqual(self.json.scanner.make_scanner.__module__, '_json')
            self.assertEqual(self.json.decoder.scanstring.__module__, '_json')
            self.assertEqual(self.json.encoder.c_make_encoder.__module__, '_json')
            self.assertEqual(self.json.encoder.encode_basestring_ascii.__module__,
                             '_json')


    def load_tests(loader, _, pattern):
        suite = unittest.TestSuite()
        for mod in (json, json.encoder, json.decoder):
            suite.addTest(doctest.DocTestSuite(mod))
        suite.addTest(TestPyTest('test_pyjson'))
        suite.addTest(TestCTest('test_cjson'))

        pkg_dir = os.path.dirname(__file__)
        return support.load_package_tests(pkg_dir, loader, suite, pattern)
    ''')
CPYTHON: dict[str, str | bytes | None] = {
    "Lib/test/__init__.py": "# Dummy file to make this directory a package.\n",
    "Lib/test/support/__init__.py": CP_SUPPORT,
    "Lib/test/test_json/__init__.py": CP_JSON_INIT,
    "Lib/test/test_json/__main__.py": py('''
        import unittest
        from test.test_json import load_tests

        unittest.main()
        '''),
}
CP_JSON = "Lib/test/test_json/__init__.py"
CP_SUPPORT_PATH = "Lib/test/support/__init__.py"

# Lib/test/test_json/test_float.py and test_pass1.py
CP_FLOAT_PATH = "Lib/test/test_json/test_float.py"
CP_FLOAT = {**CPYTHON, CP_FLOAT_PATH: py('''
    import math
    from test.test_json import PyTest, CTest


    class TestFloat:
        def test_floats(self):
            for num in [1617161771.7650001, math.pi, math.pi**100, math.pi**-100, 3.1]:
                self.assertEqual(float(self.dumps(num)), num)
                self.assertEqual(self.loads(self.dumps(num)), num)

        def test_ints(self):
            for num in [1, 1<<32, 1<<64]:
                self.assertEqual(self.dumps(num), str(num))
                self.assertEqual(int(self.dumps(num)), num)

        def test_out_of_range(self):
            self.assertEqual(self.loads('[23456789012E666]'), [float('inf')])
            self.assertEqual(self.loads('[-23456789012E666]'), [float('-inf')])


    class TestPyFloat(TestFloat, PyTest): pass
    class TestCFloat(TestFloat, CTest): pass
    ''')}

# Lib/test/test__locale.py (setUpModule, numeric_tester and test_float_parsing, trimmed)
CP_LOCALE_PATH = "Lib/test/test__locale.py"
CP_LOCALE = {**CPYTHON, CP_LOCALE_PATH: py('''
    from _locale import (setlocale, LC_ALL, LC_CTYPE, LC_NUMERIC, localeconv, Error)

    import locale
    import sys
    import unittest
    from platform import uname

    from test import support

    candidate_locales = ['es_UY', 'fr_FR', 'fi_FI', 'es_CO', 'pt_PT', 'it_IT',
        'et_EE', 'es_PY', 'no_NO', 'nl_NL', 'lv_LV', 'el_GR', 'be_BY', 'fr_BE',
        'de_DE', 'en_US', 'ps_AF', 'eu_ES']

    def setUpModule():
        global candidate_locales
        # Workaround for MSVC6(debug) crash bug
        if "MSC v.1200" in sys.version:
            def accept(loc):
                a = loc.split(".")
                return not(len(a) == 2 and len(a[-1]) >= 9)
            candidate_locales = [loc for loc in candidate_locales if accept(loc)]

    # List known locale values to test against when available.
    # Dict formatted as ``<locale> : (<decimal_point>, <thousands_sep>)``.  If a
    # value is not known, use '' .
    known_numerics = {
        'en_US': ('.', ','),
        'de_DE' : (',', '.'),
        # The French thousands separator may be a breaking or non-breaking space
        # depending on the platform, so do not test it
        'fr_FR' : (',', ''),
        'ps_AF': ('\\u066b', '\\u066c'),
    }

    class _LocaleTests(unittest.TestCase):

        def setUp(self):
            self.oldlocale = setlocale(LC_ALL)

        def tearDown(self):
            setlocale(LC_ALL, self.oldlocale)

        lc_numeric_err_msg = "%s != %s (%s for %s; set to %s, using %s)"

        def numeric_tester(self, calc_type, calc_value, data_type, used_locale):
            """Compare calculation against known value, if available"""
            try:
                set_locale = setlocale(LC_NUMERIC)
            except Error:
                set_locale = "<not able to determine>"
            known_value = known_numerics.get(used_locale,
                                        ('', ''))[data_type == 'thousands_sep']
            if known_value and calc_value:
                self.assertEqual(calc_value, known_value,
                                    self.lc_numeric_err_msg % (
                                        calc_value, known_value,
                                        calc_type, data_type, set_locale,
                                        used_locale))
                return True

        def test_lc_numeric_localeconv(self):
            # Test localeconv against known values
            tested = False
            for loc in candidate_locales:
                try:
                    setlocale(LC_NUMERIC, loc)
                    setlocale(LC_CTYPE, loc)
                except Error:
                    continue
                formatting = localeconv()
                for lc in ("decimal_point",
                            "thousands_sep"):
                    if self.numeric_tester('localeconv', formatting[lc], lc, loc):
                        tested = True
            if not tested:
                self.skipTest('no suitable locales')

        def test_float_parsing(self):
            # Bug #1391872: Test whether float parsing is okay on European
            # locales.
            tested = False
            for loc in candidate_locales:
                try:
                    setlocale(LC_NUMERIC, loc)
                    setlocale(LC_CTYPE, loc)
                except Error:
                    continue

                # Ignore buggy locale databases. (Mac OS 10.4 and some other BSDs)
                if loc == 'eu_ES' and localeconv()['decimal_point'] == "' ":
                    continue

                self.assertEqual(int(eval('3.14') * 100), 314,
                                    "using eval('3.14') failed for %s" % loc)
                self.assertEqual(int(float('3.14') * 100), 314,
                                    "using float('3.14') failed for %s" % loc)
                if localeconv()['decimal_point'] != '.':
                    self.assertRaises(ValueError, float,
                                      localeconv()['decimal_point'].join(['1', '23']))
                tested = True
            if not tested:
                self.skipTest('no suitable locales')

    if __name__ == '__main__':
        unittest.main()
    ''')}

# Lib/test/test_deque.py (TestBasic.test_maxlen, the doctest __test__ dict and load_tests)
CP_DEQUE_PATH = "Lib/test/test_deque.py"
CP_DEQUE = {**CPYTHON, CP_DEQUE_PATH: py('''
    from collections import deque
    import doctest
    import unittest
    from test import support, seq_tests


    class TestBasic(unittest.TestCase):

        def test_maxlen(self):
            self.assertRaises(ValueError, deque, 'abc', -1)
            self.assertRaises(ValueError, deque, 'abc', -2)
            it = iter(range(10))
            d = deque(it, maxlen=3)
            self.assertEqual(list(it), [])
            self.assertEqual(repr(d), 'deque([7, 8, 9], maxlen=3)')
            self.assertEqual(list(d), [7, 8, 9])
            self.assertEqual(d, deque(range(10), 3))

        @support.cpython_only
        def test_bug_31608(self):
            # The interpreter used to crash in specific cases where a deque
            # subclass returned a non-deque.
            class X(deque):
                pass
            d = X()
            def bad___new__(cls, *args, **kwargs):
                return [42]
            X.__new__ = bad___new__
            with self.assertRaises(TypeError):
                d * 42  # shouldn't crash
            with self.assertRaises(TypeError):
                d + deque([1, 2, 3])  # shouldn't crash


    libreftest = """
    Example from the Library Reference:  Doc/lib/libcollections.tex

    >>> from collections import deque
    >>> d = deque('ghi')                 # make a new deque with three items
    >>> for elem in d:                   # iterate over the deque's elements
    ...     print(elem.upper())
    G
    H
    I
    """


    #==============================================================================

    __test__ = {'libreftest' : libreftest}

    def load_tests(loader, tests, pattern):
        tests.addTest(doctest.DocTestSuite())
        return tests


    if __name__ == "__main__":
        unittest.main()
    ''')}


# ============================================================================ Django, part 2

# django tests/check_framework/test_database.py (test_database_checks_called)
DJ_DBCHECK = django("check_framework", test_database=py('''
    from unittest import mock

    from django.core.checks.database import check_database_backends
    from django.test import TestCase


    class DatabaseCheckTests(TestCase):
        databases = {"default", "other"}

        @mock.patch("django.db.backends.base.validation.BaseDatabaseValidation.check")
        def test_database_checks_called(self, mocked_check):
            check_database_backends()
            self.assertFalse(mocked_check.called)
            check_database_backends(databases=self.databases)
            self.assertTrue(mocked_check.called)
    '''))
DBCHECK = "tests/check_framework/test_database.py"

# django tests/deprecation/tests.py (RenameMethodsTests, two tests)
DJ_DEPRECATION = django("deprecation", tests=py('''
    import warnings

    from django.test import SimpleTestCase
    from django.utils.deprecation import RemovedAfterNextVersionWarning, RenameMethodsBase


    class RenameManagerMethods(RenameMethodsBase):
        renamed_methods = (("old", "new", DeprecationWarning),)


    class RenameMethodsTests(SimpleTestCase):
        """
        Tests the `RenameMethodsBase` type introduced to rename `get_query_set`
        to `get_queryset` across the code base following #15363.
        """

        def test_class_definition_warnings(self):
            """
            Ensure a warning is raised upon class definition to suggest renaming
            the faulty method.
            """
            msg = "`Manager.old` method should be renamed `new`."
            with self.assertWarnsMessage(DeprecationWarning, msg) as ctx:

                class Manager(metaclass=RenameManagerMethods):
                    def old(self):
                        pass

            self.assertEqual(ctx.filename, __file__)

        def test_get_new_defined(self):
            """
            Ensure `old` complains and not `new` when only `new` is defined.
            """

            class Manager(metaclass=RenameManagerMethods):
                def new(self):
                    pass

            manager = Manager()

            with warnings.catch_warnings(record=True) as recorded:
                warnings.simplefilter("always")
                manager.new()
            self.assertEqual(len(recorded), 0)

            msg = "`Manager.old` is deprecated, use `new` instead."
            with self.assertWarnsMessage(DeprecationWarning, msg) as ctx:
                manager.old()
            self.assertEqual(ctx.filename, __file__)
    '''))
DEPRECATION = "tests/deprecation/tests.py"

# django tests/model_inheritance_regress/tests.py
# (ModelInheritanceTest.test_related_filtering_query_efficiency_ticket_15844)
DJ_INHERIT_REGRESS = django("model_inheritance_regress", tests=py('''
    from django.test import TestCase

    from .models import Restaurant, Supplier


    class ModelInheritanceTest(TestCase):
        def test_related_filtering_query_efficiency_ticket_15844(self):
            r = Restaurant.objects.create(
                name="Guido's House of Pasta",
                address="944 W. Fullerton",
                serves_hot_dogs=True,
                serves_pizza=False,
            )
            s = Supplier.objects.create(restaurant=r)
            with self.assertNumQueries(1):
                self.assertSequenceEqual(Supplier.objects.filter(restaurant=r), [s])
            with self.assertNumQueries(1):
                self.assertSequenceEqual(r.supplier_set.all(), [s])
    '''))
INHERIT_REGRESS = "tests/model_inheritance_regress/tests.py"

# django tests/test_client/tests.py (ClientTest: test_get_view, test_get_post_view)
DJ_CLIENT = django("test_client", tests=py('''
    from django.test import TestCase, override_settings


    @override_settings(ROOT_URLCONF="test_client.urls")
    class ClientTest(TestCase):
        def test_get_view(self):
            "GET a view"
            # The data is ignored, but let's check it doesn't crash the system
            # anyway.
            data = {"var": "\\xf2"}
            response = self.client.get("/get_view/", data)

            # Check some response details
            self.assertContains(response, "This is a test")
            self.assertEqual(response.context["var"], "\\xf2")
            self.assertEqual(response.templates[0].name, "GET Template")

        def test_get_post_view(self):
            "GET a view that normally expects POSTs"
            response = self.client.get("/post_view/", {})

            # Check some response details
            self.assertEqual(response.status_code, 200)
            self.assertEqual(response.templates[0].name, "Empty GET Template")
            self.assertTemplateUsed(response, "Empty GET Template")
            self.assertTemplateNotUsed(response, "Empty POST Template")
    '''))
CLIENT = "tests/test_client/tests.py"

# django tests/composite_pk/test_checks.py (test_composite_pk_cannot_include_generated_field)
DJ_COMPOSITE = django("composite_pk", test_checks=py('''
    from django.core import checks
    from django.db import connection, models
    from django.db.models import F
    from django.test import TestCase, skipUnlessAnyDBFeature
    from django.test.utils import isolate_apps


    @isolate_apps("composite_pk")
    class CompositePKChecksTests(TestCase):
        maxDiff = None

        @skipUnlessAnyDBFeature(
            "supports_virtual_generated_columns",
            "supports_stored_generated_columns",
        )
        def test_composite_pk_cannot_include_generated_field(self):
            class Foo(models.Model):
                pk = models.CompositePrimaryKey("id", "foo")
                id = models.IntegerField()
                foo = models.GeneratedField(
                    expression=F("id"),
                    output_field=models.IntegerField(),
                    db_persist=connection.features.supports_stored_generated_columns,
                )

            self.assertEqual(
                Foo.check(databases=self.databases),
                [
                    checks.Error(
                        "'foo' cannot be included in the composite primary key.",
                        hint="'foo' field is a generated field.",
                        obj=Foo,
                        id="models.E042",
                    ),
                ],
            )

        def test_composite_pk_cannot_include_non_local_field(self):
            class Foo(models.Model):
                a = models.SmallIntegerField()

            class Bar(Foo):
                pk = models.CompositePrimaryKey("a", "b")
                b = models.SmallIntegerField()

            self.assertEqual(Foo.check(databases=self.databases), [])
            self.assertEqual(
                Bar.check(databases=self.databases),
                [
                    checks.Error(
                        "'a' cannot be included in the composite primary key.",
                        hint="'a' field is not a local field.",
                        obj=Bar,
                        id="models.E042",
                    ),
                ],
            )
    '''))
COMPOSITE = "tests/composite_pk/test_checks.py"

# django tests/transactions/tests.py AtomicErrorsTests (imports trimmed), as it is (the skip on
# the class) and with the skip on each of its tests (the spelling before a hoist)
ATOMIC_ERRORS = py('''
    from django.db import connection, transaction
    from django.test import TransactionTestCase, skipUnlessDBFeature

    from .models import Reporter


    @skipUnlessDBFeature("uses_savepoints")
    class AtomicErrorsTests(TransactionTestCase):
        available_apps = ["transactions"]
        forbidden_atomic_msg = "This is forbidden when an 'atomic' block is active."

        def test_atomic_prevents_setting_autocommit(self):
            autocommit = transaction.get_autocommit()
            with transaction.atomic():
                with self.assertRaisesMessage(
                    transaction.TransactionManagementError, self.forbidden_atomic_msg
                ):
                    transaction.set_autocommit(not autocommit)
            # Make sure autocommit wasn't changed.
            self.assertEqual(connection.autocommit, autocommit)

        def test_atomic_prevents_calling_transaction_methods(self):
            with transaction.atomic():
                with self.assertRaisesMessage(
                    transaction.TransactionManagementError, self.forbidden_atomic_msg
                ):
                    transaction.commit()
                with self.assertRaisesMessage(
                    transaction.TransactionManagementError, self.forbidden_atomic_msg
                ):
                    transaction.rollback()
    ''')
ATOMIC = "tests/transactions/tests.py"
ATOMIC_PER_METHOD = sub(sub(sub(
    ATOMIC_ERRORS, '@skipUnlessDBFeature("uses_savepoints")\nclass', "class"),
    "    def test_atomic_prevents_setting_autocommit(self):",
    '    @skipUnlessDBFeature("uses_savepoints")\n'
    "    def test_atomic_prevents_setting_autocommit(self):"),
    "    def test_atomic_prevents_calling_transaction_methods(self):",
    '    @skipUnlessDBFeature("uses_savepoints")\n'
    "    def test_atomic_prevents_calling_transaction_methods(self):")
DJ_ATOMIC_PER_METHOD = django("transactions", tests=ATOMIC_PER_METHOD)
# ... and with the skip on one of its tests only
DJ_ATOMIC_ONE_METHOD = django("transactions", tests=sub(
    ATOMIC_PER_METHOD, '    @skipUnlessDBFeature("uses_savepoints")\n'
    "    def test_atomic_prevents_calling_transaction_methods(self):",
    "    def test_atomic_prevents_calling_transaction_methods(self):"))


# ============================================================================ tampering

def _moved(tree: Tree, old: str, new: str, *extra: str) -> dict[str, str | bytes | None]:
    """Move ``old`` to ``new`` unchanged (plus empty ``extra`` package markers)."""
    return {old: None, new: tree[old], **{path: "" for path in extra}}


TAMPER_CASES = [
    # ---------------------------------------------------------------- unittest/Django vocabulary
    # django tests/utils_tests/test_datastructures.py::test_create_with_invalid_values
    pytest.param(Case(DJ_DATASTRUCT, edit(DJ_DATASTRUCT, DATASTRUCT, (
        '''with self.assertRaisesMessage(ValueError, msg):
            CaseInsensitiveMapping([("Key1", "Val1"), "Key2"])''',
        '''with self.assertRaises(ValueError):
            CaseInsensitiveMapping([("Key1", "Val1"), "Key2"])''')), ("PS102",)),
        id="dj-assertRaisesMessage-to-assertRaises"),
    # django tests/utils_tests/test_datastructures.py::test_create_with_invalid_values
    pytest.param(Case(DJ_DATASTRUCT, edit(DJ_DATASTRUCT, DATASTRUCT, (
        'msg = "dictionary update sequence element #1 has length 4; 2 is required"',
        'msg = "dictionary update sequence element"')), ("PS102",)),
        id="dj-assertRaisesMessage-message-truncated"),
    # django tests/utils_tests/test_text.py::test_unescape_string_literal_invalid_value
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, TEXT, (
        'msg = f"Not a string literal: {item!r}"', 'msg = ""')), ("PS102",)),
        id="dj-assertRaisesMessage-message-emptied"),
    # django tests/basic/tests.py::test_queryset_delete_removes_all_items_in_that_queryset
    pytest.param(Case(DJ_BASIC, edit(DJ_BASIC, BASIC, (
        "transform=lambda a: a.headline,\n",
        "transform=lambda a: a.headline,\n            ordered=False,\n")), ("PS102",)),
        id="dj-assertQuerySetEqual-ordered-false-added"),
    # django tests/expressions/tests.py::test_update_with_none
    pytest.param(Case(DJ_EXPRESSIONS, edit(DJ_EXPRESSIONS, EXPRESSIONS, (
        '''self.assertQuerySetEqual(
            Number.objects.all(), [None, None], lambda n: n.float, ordered=False
        )''', "self.assertEqual(Number.objects.count(), 2)")), ("PS101",)),
        id="dj-assertQuerySetEqual-to-count"),
    # django tests/forms_tests/widget_tests/test_numberinput.py::test_fieldset (a test: its
    # class derives from WidgetTest(SimpleTestCase) in .base): the exact check removed
    pytest.param(Case(DJ_WIDGETS, edit(DJ_WIDGETS, NUMBERINPUT, (
        '''self.assertHTMLEqual(
            '<div><label for="id_field">Field:</label>'
            '<input id="id_field" max="12345" min="1234" '
            'name="field" required step="9999" type="number"></div>',
            form.render(),
        )''', '''self.assertIn('name="field"', form.render())''')), ("PS101",)),
        id="dj-assertHTMLEqual-to-assertIn"),
    # django tests/fixtures_regress/tests.py::test_proxy_model_included
    pytest.param(Case(DJ_FIXTURES, edit(DJ_FIXTURES, FIXTURES, (
        '''self.assertJSONEqual(
            out.getvalue(),
            '[{"pk": %d, "model": "fixtures_regress.widget", '
            '"fields": {"name": "grommet"}}]' % widget.pk,
        )''', '''self.assertIn('"grommet"', out.getvalue())''')), ("PS101",)),
        id="dj-assertJSONEqual-to-assertIn"),
    # django tests/sessions_tests/tests.py SessionTestsMixin.test_cycle_with_no_session_cache
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, SESSIONS, (
        "self.assertCountEqual(self.session.items(), prev_data)",
        "self.assertEqual(len(self.session.items()), len(prev_data))")), ("PS101",)),
        id="dj-assertCountEqual-in-mixin-to-len"),
    # django tests/aggregation/tests.py::test_aggregation_default_using_decimal_from_database
    pytest.param(Case(DJ_AGGREGATION, edit(DJ_AGGREGATION, AGGREGATION, (
        "Decimal.from_float(math.pi), places=6)", "Decimal.from_float(math.pi), places=2)")),
        ("PS102",)), id="dj-assertAlmostEqual-places-reduced"),
    # django tests/aggregation/tests.py::test_ticket12886
    pytest.param(Case(DJ_AGGREGATION, edit(DJ_AGGREGATION, AGGREGATION, (
        "self.assertAlmostEqual(vals, 4.5, places=2)",
        "self.assertAlmostEqual(vals, 4.5, delta=0.5)")), ("PS102",)),
        id="dj-assertAlmostEqual-places-to-wide-delta"),
    # simplejson/tests/test_float.py::test_floats
    pytest.param(Case(SJ_FLOAT, edit(SJ_FLOAT, SJ_FLOAT_PATH, (
        "self.assertEqual(json.loads(json.dumps(num)), num)",
        "self.assertAlmostEqual(json.loads(json.dumps(num)), num, places=3)")), ("PS102",)),
        id="sj-assertEqual-to-assertAlmostEqual"),
    # django tests/utils_tests/test_datastructures.py::test_in
    pytest.param(Case(DJ_DATASTRUCT, edit(DJ_DATASTRUCT, DATASTRUCT, (
        'self.assertIn("Content-Type", self.dict1)',
        'self.assertIn(self.dict1, "Content-Type")')), ("PS102",)),
        id="dj-assertIn-arguments-swapped"),
    # django tests/utils_tests/test_timesince.py::test_equal_datetimes
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, TIMESINCE, (
        'self.assertEqual(timesince(self.t, self.t), "0\\xa0minutes")',
        'self.assertTrue(timesince(self.t, self.t), "0\\xa0minutes")')), ("PS102",)),
        id="dj-assertEqual-to-assertTrue-expected-becomes-msg"),
    # django tests/forms_tests/widget_tests/test_widget.py::test_no_trailing_newline_in_attrs
    pytest.param(Case(DJ_WIDGETS, edit(DJ_WIDGETS, WIDGET, ('            strict=True,\n', '')),
                      ("PS102",)), id="dj-check_html-strict-dropped"),
    # django tests/forms_tests/widget_tests/base.py WidgetTest.check_html
    pytest.param(Case(DJ_WIDGETS, edit(DJ_WIDGETS, "tests/forms_tests/widget_tests/base.py", (
        "assertEqual = self.assertEqual if strict else self.assertHTMLEqual",
        "assertEqual = self.assertHTMLEqual")), ("PS105",)), id="dj-check_html-helper-loosened"),
    # markdown tests/test_apis.py::TestErrors.testBadOutputFormat
    pytest.param(Case(MD_APIS, edit(MD_APIS, APIS, (
        "self.assertRaises(KeyError, markdown.Markdown, output_format='invalid')",
        "self.assertRaises(Exception, markdown.Markdown, output_format='invalid')")),
        ("PS102", "PS107")),
        id="md-assertRaises-broadened-to-Exception"),
    # simplejson/tests/test_errors.py::test_decode_error (try/except/else: self.fail)
    pytest.param(Case(SJ_ERRORS, edit(SJ_ERRORS, SJ_ERRORS_PATH, (
        "            self.fail('Expected JSONDecodeError')", "            return")),
        ("PS101", "PS206")), id="sj-else-fail-became-return"),
    # simplejson/tests/test_errors.py::test_string_keys_error: the try/else/fail idiom rewritten
    # as a raises block that accepts any exception
    pytest.param(Case(SJ_ERRORS, edit(SJ_ERRORS, SJ_ERRORS_PATH, (
        SJ_TRY_ELSE_FAIL, sj_assert_raises("Exception"))), ("PS102",)),
        id="sj-try-else-fail-to-assertRaises-Exception"),
    # simplejson/tests/test_errors.py::test_decode_error: the handler now catches the fail too
    pytest.param(Case(SJ_ERRORS, edit(SJ_ERRORS, SJ_ERRORS_PATH, (
        """            json.loads('{}\\na\\nb')
        except json.JSONDecodeError:
            err = sys.exc_info()[1]
        else:
            self.fail('Expected JSONDecodeError')""", """            json.loads('{}\\na\\nb')
            self.fail('Expected JSONDecodeError')
        except Exception:
            err = sys.exc_info()[1]""")), ("PS101", "PS107")),
        id="sj-try-fail-caught-by-broad-handler"),

    # ---------------------------------------------------------------- case tables and subTest
    # django tests/humanize_tests/tests.py::test_ordinal (rows fed to humanize_tester)
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        '            "103",\n            "111",\n', '            "103",\n'),
        ('            "103rd",\n            "111th",\n', '            "103rd",\n')), ("PS102",)),
        id="dj-humanize-case-table-shrunk"),
    # django tests/humanize_tests/tests.py::test_ordinal: a row's expected value rewritten
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        '            "111th",\n', '            "111st",\n'),
        ('            "111",\n        )', '            "111",\n            "112",\n        )'),
        ('            "111st",\n', '            "111st",\n            "112th",\n')),
        ("PS102",)), id="dj-humanize-case-table-row-rewritten-and-one-added"),
    # django tests/humanize_tests/tests.py::test_ordinal: zip() stops at the shorter list
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        '            "102nd",\n            "103rd",\n            "111th",\n', '')), ("PS102",)),
        id="dj-humanize-result-list-truncated-zip-drops-inputs"),
    # django tests/utils_tests/test_text.py::test_unescape_string_literal
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, TEXT, (
        "        for value, output in items:\n            with self.subTest(value=value):",
        "        for value, output in items:\n            if value.startswith(\"''\"):\n"
        "                continue\n            with self.subTest(value=value):")),
        ("PS102",)), id="dj-subTest-loop-continue-before"),
    # django tests/utils_tests/test_timesince.py::test_less_than_a_day_with_zoneinfo
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, TIMESINCE, (
        "        for value, expected in tests:\n            with self.subTest(value):",
        "        for value, expected in tests:\n            if expected != \"0\\xa0minutes\":\n"
        "                break\n            with self.subTest(value):")),
        ("PS102",)), id="dj-subTest-loop-break-before"),
    # markdown tests/test_syntax/inline/test_autolinks.py::test_url_schemes
    pytest.param(Case(MD_AUTOLINKS, edit(MD_AUTOLINKS, AUTOLINKS, (
        "            with self.subTest(url=url):\n                self.assertMarkdownRenders(\n"
        "                    f'<{url}>',",
        "            with self.subTest(url=url):\n                if '+' in url:\n"
        "                    return\n                self.assertMarkdownRenders(\n"
        "                    f'<{url}>',")), ("PS102", "PS206")),
        id="md-subTest-return-inside"),
    # markdown tests/test_syntax/inline/test_autolinks.py::test_url_schemes
    pytest.param(Case(MD_AUTOLINKS, edit(MD_AUTOLINKS, AUTOLINKS, (
        "            'git+ssh://example.org/repo',\n            'x.y-z://example.org',\n", '')),
        ("PS102",)), id="md-subTest-url-table-shrunk"),
    # markdown tests/test_syntax/inline/test_autolinks.py::test_url_schemes
    pytest.param(Case(MD_AUTOLINKS, edit(MD_AUTOLINKS, AUTOLINKS, (
        "            'git+ssh://example.org/repo',\n            'x.y-z://example.org',\n", ''), (
        "from markdown.test_tools import TestCase\n",
        "import unittest\n\nfrom markdown.test_tools import TestCase\n"), (
        "    def test_invalid_url_schemes(self):",
        "    @unittest.skip('schemes with + or . are not supported yet')\n"
        "    def test_url_schemes_with_punctuation(self):\n"
        "        for url in ('git+ssh://example.org/repo', 'x.y-z://example.org'):\n"
        "            with self.subTest(url=url):\n"
        "                self.assertMarkdownRenders(\n"
        "                    f'<{url}>',\n"
        "                    f'<p><a href=\"{url}\">{url}</a></p>'\n"
        "                )\n\n"
        "    def test_invalid_url_schemes(self):")), ("PS201",)),
        id="md-subTest-rows-moved-into-skipped-test"),
    # django tests/utils_tests/test_text.py::test_unescape_string_literal_invalid_value
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, TEXT, (
        'items = ["", "abc", "\'abc\\""]', 'items = ["", "abc"]')), ("PS102",)),
        id="dj-local-case-list-shrunk"),
    # simplejson/tests/test_decimal.py TestDecimal.NUMS (a class attribute the tests loop over)
    pytest.param(Case(SJ_DECIMAL, edit(SJ_DECIMAL, SJ_DECIMAL_PATH, (
        'NUMS = "1.0", "10.00", "1.1", "1234567890.1234567890", "500"',
        'NUMS = "1.0", "10.00", "1.1", "500"')), ("PS102",)),
        id="sj-class-attribute-case-table-shrunk"),
    # Lib/test/test__locale.py::test_float_parsing
    pytest.param(Case(CP_LOCALE, edit(CP_LOCALE, CP_LOCALE_PATH, (
        """if loc == 'eu_ES' and localeconv()['decimal_point'] == "' ":""",
        """if localeconv()['decimal_point'] != '.':""")), ("PS102",)),
        id="cp-loop-continue-condition-widened"),
    # Lib/test/test__locale.py known_numerics, read by the numeric_tester helper
    pytest.param(Case(CP_LOCALE, edit(CP_LOCALE, CP_LOCALE_PATH, (
        "    'de_DE' : (',', '.'),\n", "")), ("PS105",)),
        id="cp-helper-expected-table-entry-dropped"),
    # Lib/test/test__locale.py known_numerics: an entry's expected pair rewritten
    pytest.param(Case(CP_LOCALE, edit(CP_LOCALE, CP_LOCALE_PATH, (
        "    'de_DE' : (',', '.'),\n", "    'de_DE' : (',', ''),\n")), ("PS105",)),
        id="cp-helper-expected-table-entry-rewritten"),
    # Lib/test/test__locale.py known_numerics: two entries traded for one new locale
    pytest.param(Case(CP_LOCALE, edit(CP_LOCALE, CP_LOCALE_PATH, (
        "    'en_US': ('.', ','),\n    'de_DE' : (',', '.'),\n",
        "    'nl_NL': (',', '.'),\n")), ("PS105",)),
        id="cp-helper-expected-table-entries-traded"),

    # ---------------------------------------------------------------- inheritance
    # Lib/test/test_json/test_float.py: the C variant loses the shared tests
    pytest.param(Case(CP_FLOAT, edit(CP_FLOAT, CP_FLOAT_PATH, (
        "class TestCFloat(TestFloat, CTest): pass", "class TestCFloat(CTest): pass")),
        ("PS101", "PS106")), id="cp-mixin-dropped-from-variant"),
    # django tests/sessions_tests/tests.py CookieSessionTests (shadows test_cycle with pass)
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, SESSIONS, (
        "    @unittest.expectedFailure\n    def test_actual_expiry(self):",
        "    def test_store(self):\n        pass\n\n"
        "    @unittest.expectedFailure\n    def test_actual_expiry(self):")),
        ("PS101", "PS206")), id="dj-inherited-test-shadowed-with-pass"),
    # django tests/sessions_tests/tests.py (the CookieSessionTests.test_actual_expiry idiom)
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, SESSIONS, (
        "class FileSessionTests(SessionTestsMixin, SimpleTestCase):\n"
        "    backend = FileSession\n",
        "class FileSessionTests(SessionTestsMixin, SimpleTestCase):\n"
        "    backend = FileSession\n\n"
        "    @unittest.expectedFailure\n"
        "    def test_cycle_with_no_session_cache(self):\n"
        "        super().test_cycle_with_no_session_cache()\n")), ("PS202",)),
        id="dj-inherited-test-overridden-as-expectedFailure"),
    # django tests/sessions_tests/tests.py FileSessionTests
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, SESSIONS, (
        "class FileSessionTests(SessionTestsMixin, SimpleTestCase):",
        "class FileSessionTests(SessionTestsMixin):")), ("PS101", "PS106")),
        id="dj-testcase-base-dropped-from-subclass"),
    # Lib/test/test_json/__init__.py PyTest: every TestPy* variant stops being a TestCase
    pytest.param(Case(CP_FLOAT, edit(CP_FLOAT, CP_JSON, (
        "class PyTest(unittest.TestCase):", "class PyTest:")), ("PS101", "PS106")),
        id="cp-shared-base-no-longer-testcase",
        marks=miss("test identity of subclasses in other modules is not re-derived when their "
                   "imported base class stops being a TestCase")),

    # ---------------------------------------------------------------- skips
    # django tests/expressions/tests.py
    pytest.param(Case(DJ_EXPRESSIONS, edit(DJ_EXPRESSIONS, EXPRESSIONS, (
        '@skipUnlessDBFeature("supports_temporal_subtraction")',
        '@skipIfDBFeature("supports_temporal_subtraction")'), (
        "from django.test import TestCase, skipUnlessDBFeature",
        "from django.test import TestCase, skipIfDBFeature, skipUnlessDBFeature")),
        ("PS201",)), id="dj-skipUnlessDBFeature-inverted"),
    # django tests/expressions/tests.py::test_delta_add
    pytest.param(Case(DJ_EXPRESSIONS, edit(DJ_EXPRESSIONS, EXPRESSIONS, (
        "    def test_delta_add(self):",
        '    @skipUnlessDBFeature("supports_over_clause")\n'
        "    def test_delta_add(self):")), ("PS201",)),
        id="dj-skipUnlessDBFeature-added"),
    # django tests/expressions/tests.py: one more required feature skips on more backends
    pytest.param(Case(DJ_EXPRESSIONS, edit(DJ_EXPRESSIONS, EXPRESSIONS, (
        '@skipUnlessDBFeature("supports_temporal_subtraction")',
        '@skipUnlessDBFeature("supports_temporal_subtraction", "supports_over_clause")')),
        ("PS201",)), id="dj-skipUnlessDBFeature-feature-required-added"),
    # django tests/utils_tests/test_timesince.py (requires_tz_support is django.test.utils')
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, TIMESINCE, (
        '    def test_other_units(self):',
        '    @requires_tz_support\n    def test_other_units(self):')), ("PS206",)),
        id="dj-requires_tz_support-added"),
    # django tests/utils_tests/test_timesince.py TimesinceTests
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, TIMESINCE, (
        "import datetime\nimport zoneinfo\n",
        "import datetime\nimport unittest\nimport zoneinfo\n"), (
        "from django.test import TestCase\n",
        "from django.db import connection\nfrom django.test import TestCase\n"), (
        "class TimesinceTests(TestCase):\n",
        "class TimesinceTests(TestCase):\n"
        "    @classmethod\n"
        "    def setUpClass(cls):\n"
        "        super().setUpClass()\n"
        "        if not connection.features.supports_timezones:\n"
        '            raise unittest.SkipTest("Database has no time zone support.")\n\n'
        )), ("PS203",)), id="dj-SkipTest-in-setUpClass"),
    # markdown tests/test_syntax/extensions/test_code_hilite.py TestCodeHiliteClass.setUp
    pytest.param(Case(MD_HILITE, edit(MD_HILITE, HILITE, (
        "if has_pygments and pygments.__version__ != required_pygments_version:",
        "if not has_pygments or pygments.__version__ != required_pygments_version:")),
        ("PS203",)), id="md-setUp-skipTest-condition-widened"),
    # Lib/test/test__locale.py setUpModule
    pytest.param(Case(CP_LOCALE, edit(CP_LOCALE, CP_LOCALE_PATH, (
        "        candidate_locales = [loc for loc in candidate_locales if accept(loc)]\n",
        "        candidate_locales = [loc for loc in candidate_locales if accept(loc)]\n"
        '    if sys.platform.startswith("linux"):\n'
        '        raise unittest.SkipTest("locale database unreliable on this platform")\n')),
        ("PS203",)), id="cp-SkipTest-in-setUpModule"),
    # Lib/test/test_deque.py::test_maxlen; support.requires raises ResourceDenied(SkipTest)
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "    def test_maxlen(self):\n",
        "    def test_maxlen(self):\n        support.requires('cpu')\n")), ("PS203",)),
        id="cp-support-requires-called-in-test"),
    # Lib/test/test_deque.py::test_maxlen; support.requires imported under another name
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "from test import support, seq_tests\n",
        "from test import support, seq_tests\nfrom test.support import requires as need\n"), (
        "    def test_maxlen(self):\n",
        "    def test_maxlen(self):\n        need('cpu')\n")), ("PS203",)),
        id="cp-support-requires-aliased-called-in-test"),
    # Lib/test/test_deque.py::test_maxlen raises a SkipTest subclass of the module's own,
    # two classes down
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "class TestBasic(unittest.TestCase):\n",
        "class NotAvailable(unittest.SkipTest):\n    pass\n\n\n"
        "class CPUDenied(NotAvailable):\n    pass\n\n\n"
        "class TestBasic(unittest.TestCase):\n"), (
        "    def test_maxlen(self):\n",
        "    def test_maxlen(self):\n"
        "        if not support.is_resource_enabled('cpu'):\n"
        "            raise CPUDenied('cpu')\n")), ("PS203",)),
        id="cp-local-SkipTest-subclass-raised-in-test"),
    # Lib/test/test_deque.py::test_maxlen; support.requires_resource returns unittest.skip
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "    def test_maxlen(self):\n",
        "    @support.requires_resource('cpu')\n    def test_maxlen(self):\n")),
        ("PS201",)), id="cp-requires_resource-decorator-added"),
    # simplejson/tests/test_float.py + simplejson/tests/_helpers.py skip_if_speedups_missing
    pytest.param(Case(SJ_FLOAT, edit(SJ_FLOAT, SJ_FLOAT_PATH, (
        "from simplejson.decoder import NaN, PosInf, NegInf\n",
        "from simplejson.decoder import NaN, PosInf, NegInf\n"
        "from simplejson.tests._helpers import skip_if_speedups_missing\n"), (
        "    def test_floats(self):",
        "    @skip_if_speedups_missing\n    def test_floats(self):")), ("PS201",)),
        id="sj-project-skip-helper-applied"),
    # simplejson/tests/_helpers.py has_speedups, the condition of skip_if_speedups_missing
    pytest.param(Case(SJ_SPEEDUPS, edit(SJ_SPEEDUPS, SJ_HELPERS_PATH, (
        "    return encoder.c_make_encoder is not None",
        "    # the C encoder is unreliable under free-threading\n    return False")),
        ("PS201",)), id="sj-skip-helper-condition-made-always"),
    # simplejson/tests/_helpers.py has_speedups now reads a module flag that is always false
    pytest.param(Case(SJ_SPEEDUPS, edit(SJ_SPEEDUPS, SJ_HELPERS_PATH, (
        "from simplejson import encoder\n",
        "from simplejson import encoder\n\nSPEEDUPS_TRUSTED = False\n"), (
        "    return encoder.c_make_encoder is not None",
        "    return SPEEDUPS_TRUSTED and encoder.c_make_encoder is not None")),
        ("PS201",)), id="sj-skip-helper-condition-reads-false-flag"),
    # simplejson/tests/test_errors.py::test_decode_error
    pytest.param(Case(SJ_ERRORS, edit(SJ_ERRORS, SJ_ERRORS_PATH, (
        "from unittest import TestCase\n",
        "from unittest import TestCase, expectedFailure as known_issue\n"), (
        "    def test_decode_error(self):",
        "    @known_issue\n    def test_decode_error(self):")), ("PS202",)),
        id="sj-expectedFailure-under-alias"),
    # markdown tests/test_legacy.py TestBasic: LegacyTestMeta skips every name in `exclude`
    pytest.param(Case(MD_LEGACY, edit(MD_LEGACY, LEGACY, (
        "    location = os.path.join(parent_test_dir, 'basic')\n",
        "    location = os.path.join(parent_test_dir, 'basic')\n"
        "    exclude = ['amps_and_angle_encoding']\n")), ("PS201",)),
        id="md-legacy-exclude-list-extended",
        marks=miss("tests generated by a metaclass from a data directory (LegacyTestCase) are "
                   "invisible, and so is its class-attribute exclude list")),

    # ---------------------------------------------------------------- test inputs
    # django tests/utils_tests/test_timesince.py TZAwareTimesinceTests
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, TIMESINCE, (
        "@override_settings(USE_TZ=True)", "@override_settings(USE_TZ=False)")), ("PS110",)),
        id="dj-class-override_settings-flipped"),
    # django tests/i18n/tests.py::test_locale_independent
    pytest.param(Case(DJ_I18N, edit(DJ_I18N, I18N, (
        "with self.settings(USE_THOUSAND_SEPARATOR=False):",
        "with self.settings(USE_THOUSAND_SEPARATOR=False, DECIMAL_SEPARATOR=\"A\"):")),
        ("PS110",)), id="dj-self-settings-extended"),
    # django tests/utils_tests/test_text.py::test_get_text_list
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, TEXT, (
        '''        self.assertEqual(text.get_text_list(["a", "b", "c", "d"]), "a, b, c or d")''',
        '''        with self.settings(USE_I18N=False):
                self.assertEqual(text.get_text_list(["a", "b", "c", "d"]), "a, b, c or d")''')),
        ("PS110",)), id="dj-self-settings-wraps-existing-assert"),
    # django tests/humanize_tests/tests.py::test_naturalday_uses_localtime
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        'override_settings(TIME_ZONE="America/Chicago", USE_TZ=True)',
        'override_settings(TIME_ZONE="UTC", USE_TZ=True)')), ("PS110",)),
        id="dj-override_settings-context-changed"),
    # django tests/humanize_tests/tests.py HumanizeTests
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        '@modify_settings(INSTALLED_APPS={"append": "django.contrib.humanize"})\n',
        '@modify_settings(INSTALLED_APPS={"append": "django.contrib.humanize"})\n'
        "@override_settings(USE_THOUSAND_SEPARATOR=False)\n")), ("PS110",)),
        id="dj-class-override_settings-added"),
    # django tests/utils_tests/test_text.py::test_unescape_string_literal
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, TEXT, (
        "from django.core.exceptions import SuspiciousFileOperation\n",
        "from unittest import mock\n\n"
        "from django.core.exceptions import SuspiciousFileOperation\n"),
        ("    def test_unescape_string_literal(self):",
         '    @mock.patch("django.utils.text.unescape_string_literal",\n'
         "                side_effect=lambda s: s[1:-1])\n"
         "    def test_unescape_string_literal(self, _unescape):")), ("PS110",)),
        id="dj-mock-patch-of-unit-under-test"),
    # django tests/humanize_tests/tests.py: the module's own save/rebind/restore idiom
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        '''        with translation.override("ja"):
            self.humanize_tester([100], ["100"], "intcomma")''',
        '''        orig_intcomma, humanize.intcomma = humanize.intcomma, str
        try:
            with translation.override("ja"):
                self.humanize_tester([100], ["100"], "intcomma")
        finally:
            humanize.intcomma = orig_intcomma''')), ("PS110",)),
        id="dj-unit-under-test-rebound-by-hand"),
    # django tests/humanize_tests/tests.py::test_ordinal: the filter rebound, never restored
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        '        with translation.override("en"):\n'
        '            self.humanize_tester(test_list, result_list, "ordinal")',
        '        humanize.ordinal = lambda value: value + "th"\n'
        '        with translation.override("en"):\n'
        '            self.humanize_tester(test_list, result_list, "ordinal")')),
        ("PS110",)), id="dj-unit-under-test-rebound-without-restore"),
    # markdown tests/test_syntax/extensions/test_smarty.py TestSmarty.default_kwargs
    pytest.param(Case(MD_SMARTY, edit(MD_SMARTY, SMARTY, (
        "default_kwargs = {'extensions': ['smarty']}",
        "default_kwargs = {'extensions': ['smarty'],\n"
        "                      'extension_configs': {'smarty': {'smart_ellipses': False}}}")),
        ("PS102",)), id="md-default_kwargs-changed"),
    # markdown tests/test_syntax/blocks/test_hr.py TestHorizontalRules: options every test
    # renders with, given to a class that had none (assertMarkdownRenders reads them)
    pytest.param(Case(MD_HR, edit(MD_HR, HR, (
        "class TestHorizontalRules(TestCase):\n",
        "class TestHorizontalRules(TestCase):\n"
        "    default_kwargs = {'output_format': 'html'}\n")), ("PS102",)),
        id="md-default_kwargs-added-to-class"),
    # markdown tests/test_syntax/extensions/test_smarty.py: the options moved to a shared
    # base in the module and changed there on the way
    pytest.param(Case(MD_SMARTY, edit(MD_SMARTY, SMARTY, (
        "class TestSmarty(TestCase):\n\n    default_kwargs = {'extensions': ['smarty']}\n",
        "class SmartyCase(TestCase):\n"
        "    default_kwargs = {'extensions': ['smarty'],\n"
        "                      'extension_configs': {'smarty': {'smart_quotes': False}}}\n\n\n"
        "class TestSmarty(SmartyCase):\n")), ("PS102",)),
        id="md-default_kwargs-moved-to-local-base-and-changed"),
    # a helper of the test module gains an argument that changes what it renders (its
    # parameter feeds the renderer, not a check)
    pytest.param(Case(MD_LOCAL, edit(MD_LOCAL, LOCAL, (
        "check_rendered_with('***', '<hr />')",
        "check_rendered_with('***', '<hr />', {'output_format': 'xhtml'})")), ("PS102",)),
        id="md-local-helper-input-argument-added"),
    # the checking argument given while the expected output is rewritten
    pytest.param(Case(MD_LOCAL, edit(MD_LOCAL, LOCAL, (
        "check_rendered('*a*', '<p><em>a</em></p>')",
        "check_rendered('*a*', '<p>*a*</p>', ['<p>'])")), ("PS102",)),
        id="md-local-helper-checking-argument-added-expected-rewritten"),
    # markdown/test_tools.py TestCase.assertMarkdownRenders' checking parameter read by the
    # renderer too: an argument given there is no longer only a check
    pytest.param(Case(MD_TOC_NO_ATTRS, {**edit(MD_TOC_NO_ATTRS, TOOLS, (
        "        md = Markdown(**kws)\n",
        "        kws.update(expected_attrs)\n        md = Markdown(**kws)\n")),
        TOC: MD_TOC[TOC]}, ("PS102", "PS105")),
        id="md-expected_attrs-added-while-helper-renders-with-it"),
    # markdown tests/test_syntax/blocks/test_hr.py::test_hr_asterisks
    pytest.param(Case(MD_HR, edit(MD_HR, HR, (
        "            '***',\n\n            '<hr />'\n",
        "            '***',\n\n            '<hr />',\n            output_format='xhtml'\n")),
        ("PS102",)), id="md-assertMarkdownRenders-call-option-added"),

    # ---------------------------------------------------------------- the project's helper
    # markdown/test_tools.py TestCase.assertMarkdownRenders
    pytest.param(Case(MD_HR, edit(MD_HR, TOOLS, (
        "output = md.convert(source)\n        self.assertMultiLineEqual(output, expected)",
        "output = md.convert(source)\n"
        "        self.assertMultiLineEqual(output.strip(), expected.strip())")), ("PS105",)),
        id="md-assertMarkdownRenders-compares-stripped"),
    # markdown/test_tools.py TestCase.assertMarkdownRenders
    pytest.param(Case(MD_TOC, edit(MD_TOC, TOOLS, (
        "        for key, value in expected_attrs.items():\n"
        "            self.assertEqual(getattr(md, key), value)\n", "")), ("PS105",)),
        id="md-assertMarkdownRenders-expected_attrs-ignored"),
    # markdown tests/test_syntax/blocks/test_hr.py::test_hr_asterisks
    pytest.param(Case(MD_HR, edit(MD_HR, HR, (
        "            '***',\n\n            '<hr />'\n",
        "            '***',\n\n            '<hr>'\n")),
        ("PS108",)), id="md-expected-html-edited"),
    # markdown tests/test_syntax/extensions/test_toc.py::testNoTOCMarker
    pytest.param(Case(MD_TOC, {TOC: MD_TOC_NO_ATTRS[TOC]}, ("PS102",)),
        id="md-expected_attrs-argument-dropped"),
    # markdown tests/basic/amps-and-angle-encoding.html (read by LegacyTestMeta)
    pytest.param(Case(MD_LEGACY, {"tests/basic/amps-and-angle-encoding.html":
                                  "<p>AT&amp;T has an ampersand in their name.</p>\n"
                                  "<p>This & that.</p>"}, ("PS108",)),
        id="md-legacy-expected-file-edited"),

    # ---------------------------------------------------------------- runner channels
    # django tests/runtests.py SUBDIRS_TO_SKIP
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, "tests/runtests.py", (
        '"": {"import_error_package", "test_runner_apps"},',
        '"": {"import_error_package", "test_runner_apps", "sessions_tests"},')),
        ("PS205", "PS302")), id="dj-runtests-SUBDIRS_TO_SKIP-extended"),
    # django tests/test_sqlite.py (the settings module runtests.py defaults to)
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, "tests/test_sqlite.py", (
        "USE_TZ = False", "USE_TZ = True")), ("PS302",)), id="dj-test-settings-module-edited"),
    # django tox.ini [testenv] commands
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, "tox.ini", (
        "{envpython} runtests.py {posargs}",
        "{envpython} runtests.py --exclude-tag=slow {posargs}")), ("PS205", "PS302")),
        id="dj-tox-runtests-exclude-tag"),
    # django tox.ini [testenv] commands
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, "tox.ini", (
        "{envpython} runtests.py {posargs}",
        "{envpython} runtests.py --start-after=sessions_tests {posargs}")), ("PS205", "PS302")),
        id="dj-tox-runtests-start-after"),
    # django tox.ini [testenv] commands
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, "tox.ini", (
        "{envpython} runtests.py {posargs}",
        "{envpython} runtests.py basic expressions {posargs}")), ("PS205", "PS302")),
        id="dj-tox-runtests-labels-narrow-the-run"),
    # markdown makefile `test`
    pytest.param(Case(MD_HR, edit(MD_HR, "makefile", (
        "unittest discover tests\n", "unittest discover tests/test_syntax/inline\n")),
        ("PS205", "PS302")), id="md-makefile-discover-start-dir-narrowed"),
    # markdown tox.ini [testenv] commands
    pytest.param(Case(MD_LEGACY, edit(MD_LEGACY, "tox.ini", (
        "-m unittest discover {toxinidir}/tests\n",
        '-m unittest discover {toxinidir}/tests -p "test_[!l]*.py"\n')), ("PS205", "PS302")),
        id="md-tox-discover-pattern-excludes-module"),
    # simplejson/tests/__init__.py all_tests_suite (what `setup.py test` runs)
    pytest.param(Case(SJ_FLOAT, edit(SJ_FLOAT, SJ_INIT, (
        'if f.startswith("test_") and f.endswith(".py")',
        'if f.startswith("test_") and f.endswith(".py") and f != "test_float.py"')),
        ("PS205", "PS302")), id="sj-suite-builder-excludes-module"),

    # ---------------------------------------------------------------- load_tests, __test__
    # markdown tests/test_syntax/extensions/test_md_in_html.py load_tests
    pytest.param(Case(MD_MDHTML, edit(MD_MDHTML, MDHTML, (
        "[TestDefaultwMdInHTML, TestMdInHTML, TestMarkdownInHTMLPostProcessor]",
        "[TestDefaultwMdInHTML, TestMdInHTML]")), ("PS204",)),
        id="md-load_tests-class-dropped"),
    # simplejson/tests/test_errors.py: a load_tests that loads nothing
    pytest.param(Case(SJ_ERRORS, {SJ_ERRORS_PATH: text_of(SJ_ERRORS, SJ_ERRORS_PATH) + py("""


        def load_tests(loader, tests, pattern):
            return unittest.TestSuite()
        """)}, ("PS204",)), id="sj-load_tests-returns-empty-suite"),
    # Lib/test/test_json/__init__.py load_tests (the only way test_cjson runs)
    pytest.param(Case(CP_FLOAT, edit(CP_FLOAT, CP_JSON, (
        "    suite.addTest(TestCTest('test_cjson'))\n", "")), ("PS204",)),
        id="cp-load_tests-addTest-removed"),
    # Lib/test/test_deque.py load_tests
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "    tests.addTest(doctest.DocTestSuite())\n    return tests\n",
        "    return doctest.DocTestSuite()\n")), ("PS204",)),
        id="cp-load_tests-returns-doctests-only"),
    # Lib/test/test_deque.py __test__ (doctest's extra tests)
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "__test__ = {'libreftest' : libreftest}", "__test__ = {}")), ("PS204",)),
        id="cp-doctest-__test__-entry-removed"),
    # Lib/test/test_deque.py __test__ deleted outright: its doctests are gone with it
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "__test__ = {'libreftest' : libreftest}\n", "")), ("PS204",)),
        id="cp-doctest-__test__-deleted"),
    # Lib/test/test_deque.py __test__ rebound further down to an empty table
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "__test__ = {'libreftest' : libreftest}\n",
        "__test__ = {'libreftest' : libreftest}\n__test__ = {}\n")), ("PS204",)),
        id="cp-doctest-__test__-rebound-empty"),
    # simplejson/tests/test_errors.py: an empty __test__ table is falsy, so pytest collects
    # nothing of the module
    pytest.param(Case(SJ_ERRORS, {SJ_ERRORS_PATH: text_of(SJ_ERRORS, SJ_ERRORS_PATH) +
                                  "\n\n__test__ = {}\n"}, ("PS204",)),
        id="sj-empty-__test__-table-added"),
    # django tests/utils_tests/test_datastructures.py CaseInsensitiveMappingTests
    pytest.param(Case(DJ_DATASTRUCT, edit(DJ_DATASTRUCT, DATASTRUCT, (
        "class CaseInsensitiveMappingTests(SimpleTestCase):\n",
        "class CaseInsensitiveMappingTests(SimpleTestCase):\n    __test__ = False\n\n")),
        ("PS204",)), id="dj-__test__-false-on-testcase"),

    # ---------------------------------------------------------------- modules out of discovery
    # django tests/basic/tests.py
    pytest.param(Case(DJ_BASIC, {BASIC: None}, ("PS101", "PS106")), id="dj-tests-module-deleted"),
    # django tests/utils_tests/test_text.py: unittest discovery only loads test*.py
    pytest.param(Case(DJ_TEXT, _moved(DJ_TEXT, TEXT, "tests/utils_tests/text_checks.py"),
                      ("PS101", "PS106")), id="dj-tests-moved-to-undiscovered-module"),
    # django tests/sessions_tests/tests.py into a directory runtests.py never scans
    pytest.param(Case(DJ_SESSIONS, _moved(DJ_SESSIONS, SESSIONS,
                                          "tests/test_runner_apps/sessions/tests.py",
                                          "tests/test_runner_apps/__init__.py",
                                          "tests/test_runner_apps/sessions/__init__.py"),
                      ("PS101", "PS106")), id="dj-tests-moved-into-SUBDIRS_TO_SKIP-dir"),
    # django tests/utils_tests/__init__.py: get_test_modules skips dirs without one
    pytest.param(Case(DJ_TEXT, {"tests/utils_tests/__init__.py": None}, ("PS101", "PS106")),
                 id="dj-app-package-init-deleted"),
    # markdown tests/test_syntax/blocks/__init__.py: unittest discover only enters packages
    pytest.param(Case(MD_HR, {"tests/test_syntax/blocks/__init__.py": None}, ("PS101", "PS106")),
                 id="md-test-package-init-deleted"),
    # markdown tests/test_syntax/__init__.py: discovery never reaches blocks/ below it either
    pytest.param(Case(MD_HR, {"tests/test_syntax/__init__.py": None}, ("PS101", "PS106")),
                 id="md-outer-test-package-init-deleted"),
    # markdown tests/test_syntax/blocks/__init__.py renamed to a file that is no package marker
    pytest.param(Case(MD_HR, {"tests/test_syntax/blocks/__init__.py": None,
                              "tests/test_syntax/blocks/README.txt": MD_HEADER},
                      ("PS101", "PS106")), id="md-test-package-init-renamed-away"),
]


# ------------------------------------------------------------------------ A) allowed runner edits
# With the contract letting the patch edit the runner files (to add an option, say), PS302 is
# silenced for them and only PS205/PS204 stand between a narrowing edit and a pass.

ALLOW_RUNNERS = {"contract": Contract(allowed_runner_edits=(
    "tox.ini", "makefile", "tests/runtests.py", "tests/test_sqlite.py"))}

# simplejson/tests/__init__.py (what setup.py's test command runs) may be edited
ALLOW_SUITE = {"contract": Contract(allowed_runner_edits=(SJ_INIT,))}

# django tests/expressions/tests.py with both DB-feature skips already imported
DJ_EXPRESSIONS_BOTH = {**DJ_EXPRESSIONS, EXPRESSIONS: sub(
    DJ_EXPRESSIONS[EXPRESSIONS], "from django.test import TestCase, skipUnlessDBFeature",
    "from django.test import TestCase, skipIfDBFeature, skipUnlessDBFeature")}

MORE_TAMPER_CASES = [
    # django tests/sessions_tests/tests.py CookieSessionTests: an override whose super() call
    # runs only when a condition holds no longer runs the inherited checks unconditionally
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, SESSIONS, (
        "    @unittest.expectedFailure\n    def test_actual_expiry(self):",
        "    def test_store(self):\n        if self.session.is_empty():\n"
        "            super().test_store()\n"
        "        self.assertIs(self.session.accessed, True)\n\n"
        "    @unittest.expectedFailure\n    def test_actual_expiry(self):")), ("PS101", "PS102")),
        id="dj-inherited-test-super-call-under-condition"),
    # markdown tests/test_syntax/inline/test_autolinks.py::test_url_schemes: two rows moved
    # into a new test that checks less of each (no link expected)
    pytest.param(Case(MD_AUTOLINKS, edit(MD_AUTOLINKS, AUTOLINKS, (
        "            'git+ssh://example.org/repo',\n            'x.y-z://example.org',\n", ''), (
        "    def test_invalid_url_schemes(self):",
        "    def test_url_schemes_with_punctuation(self):\n"
        "        for url in ('git+ssh://example.org/repo', 'x.y-z://example.org'):\n"
        "            with self.subTest(url=url):\n"
        "                self.assertIn('href', markdown.markdown(f'<{url}>'))\n\n"
        "    def test_invalid_url_schemes(self):")), ("PS102",)),
        id="md-subTest-rows-moved-into-weaker-new-test"),
    # django tests/expressions/tests.py: skipUnless(f) -> skipIf(f) is the exact negation
    pytest.param(Case(DJ_EXPRESSIONS_BOTH, edit(DJ_EXPRESSIONS_BOTH, EXPRESSIONS, (
        '@skipUnlessDBFeature("supports_temporal_subtraction")',
        '@skipIfDBFeature("supports_temporal_subtraction")')), ("PS201",)),
        id="dj-skipUnlessDBFeature-inverted-import-already-there"),
    # django tests/forms_tests/widget_tests/test_numberinput.py: NumberInputTests(WidgetTest)
    # with WidgetTest(SimpleTestCase) in .base; the test renamed out of collection
    pytest.param(Case(DJ_WIDGETS, edit(DJ_WIDGETS, NUMBERINPUT, (
        "    def test_fieldset(self):", "    def _fieldset(self):")), ("PS101", "PS106")),
        id="dj-test-of-class-with-imported-base-renamed-out"),
    # django tests/forms_tests/widget_tests/test_widget.py::test_format_value
    pytest.param(Case(DJ_WIDGETS, edit(DJ_WIDGETS, WIDGET, (
        '        self.assertEqual(widget.format_value(42.5), "42.5")\n', "")), ("PS101",)),
        id="dj-assert-removed-from-class-with-imported-base"),
    # simplejson/tests/__init__.py all_tests_suite, the builder allowed: the module excluded
    # by another spelling of the filter
    pytest.param(Case(SJ_FLOAT, edit(SJ_FLOAT, SJ_INIT, (
        'if f.startswith("test_") and f.endswith(".py")',
        'if f.startswith("test_") and f.endswith(".py") and not f.startswith("test_fl")')),
        ("PS205",), ALLOW_SUITE), id="sj-allowed-suite-builder-excludes-by-prefix"),
    # simplejson/tests/__init__.py all_tests_suite, allowed: the filter split over two clauses
    pytest.param(Case(SJ_FLOAT, edit(SJ_FLOAT, SJ_INIT, (
        'if f.startswith("test_") and f.endswith(".py")',
        'if f.startswith("test_") and f.endswith(".py")\n'
        '                if "float" not in f')), ("PS205",), ALLOW_SUITE),
        id="sj-allowed-suite-builder-second-if-clause"),
    # simplejson/tests/_helpers.py skip_if_speedups_missing: the decorator now always skips
    pytest.param(Case(SJ_SPEEDUPS, edit(SJ_SPEEDUPS, SJ_HELPERS_PATH, (
        "        if not has_speedups():", "        if True:")), ("PS201",)),
        id="sj-skip-decorator-helper-made-unconditional"),
    # simplejson/tests/_helpers.py skip_if_speedups_missing: the guard dropped, the skip
    # raised first thing in the wrapper
    pytest.param(Case(SJ_SPEEDUPS, edit(SJ_SPEEDUPS, SJ_HELPERS_PATH, (
        "        if not has_speedups():\n"
        '            raise unittest.SkipTest("C Extension not available")\n',
        '        raise unittest.SkipTest("C Extension not available")\n')), ("PS201",)),
        id="sj-skip-decorator-helper-guard-dropped"),
    # markdown tests/test_syntax/extensions/test_code_hilite.py setUp
    pytest.param(Case(MD_HILITE, edit(MD_HILITE, HILITE, (
        "if has_pygments and pygments.__version__ != required_pygments_version:",
        "if True:")), ("PS203",)), id="md-setUp-skipTest-condition-made-true"),
    # django tox.ini, tox.ini allowed
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, "tox.ini", (
        "{envpython} runtests.py {posargs}",
        "{envpython} runtests.py --exclude-tag=slow {posargs}")), ("PS205",), ALLOW_RUNNERS),
        id="dj-allowed-tox-runtests-exclude-tag"),
    # django tox.ini, tox.ini allowed: labels instead of the whole suite
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, "tox.ini", (
        "{envpython} runtests.py {posargs}",
        "{envpython} runtests.py basic expressions {posargs}")), ("PS205",), ALLOW_RUNNERS),
        id="dj-allowed-tox-runtests-labels"),
    # django tox.ini, tox.ini allowed: -k is runtests.py's test-name pattern
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, "tox.ini", (
        "{envpython} runtests.py {posargs}",
        "{envpython} runtests.py -k test_get {posargs}")), ("PS205",), ALLOW_RUNNERS),
        id="dj-allowed-tox-runtests-k-pattern"),
    # markdown makefile, makefile allowed
    pytest.param(Case(MD_HR, edit(MD_HR, "makefile", (
        "unittest discover tests\n", "unittest discover tests/test_syntax/inline\n")),
        ("PS205",), ALLOW_RUNNERS), id="md-allowed-makefile-discover-start-dir-narrowed"),
    # markdown tox.ini, tox.ini allowed
    pytest.param(Case(MD_LEGACY, edit(MD_LEGACY, "tox.ini", (
        "-m unittest discover {toxinidir}/tests\n",
        '-m unittest discover {toxinidir}/tests -p "test_[!l]*.py"\n')), ("PS205",),
        ALLOW_RUNNERS), id="md-allowed-tox-discover-pattern-excludes-module"),
    # markdown tox.ini, tox.ini allowed: -k on unittest
    pytest.param(Case(MD_LEGACY, edit(MD_LEGACY, "tox.ini", (
        "-m unittest discover {toxinidir}/tests\n",
        "-m unittest discover {toxinidir}/tests -k syntax\n")), ("PS205",), ALLOW_RUNNERS),
        id="md-allowed-tox-unittest-k"),
    # django tests/runtests.py SUBDIRS_TO_SKIP, runtests.py allowed
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, "tests/runtests.py", (
        '"": {"import_error_package", "test_runner_apps"},',
        '"": {"import_error_package", "test_runner_apps", "sessions_tests"},')),
        ("PS205",), ALLOW_RUNNERS), id="dj-allowed-runtests-SUBDIRS_TO_SKIP-extended"),
    # django tests/runtests.py, runtests.py allowed: the settings default switched
    pytest.param(Case(DJ_TIMESINCE, {
        **edit(DJ_TIMESINCE, "tests/runtests.py", (
            'os.environ.setdefault("DJANGO_SETTINGS_MODULE", "test_sqlite")',
            'os.environ.setdefault("DJANGO_SETTINGS_MODULE", "test_sqlite_tz")')),
        "tests/test_sqlite_tz.py": sub(TEST_SQLITE, "USE_TZ = False", "USE_TZ = True")},
        ("PS110",), ALLOW_RUNNERS), id="dj-allowed-runtests-settings-default-switched"),
    # django tox.ini, tox.ini allowed: another channel (tox's setenv) names the new settings
    pytest.param(Case(DJ_TIMESINCE, {
        **edit(DJ_TIMESINCE, "tox.ini", (
            "    PYTHONDONTWRITEBYTECODE=1\n",
            "    PYTHONDONTWRITEBYTECODE=1\n    DJANGO_SETTINGS_MODULE=test_sqlite_tz\n")),
        "tests/test_sqlite_tz.py": sub(TEST_SQLITE, "USE_TZ = False", "USE_TZ = True")},
        ("PS110",), ALLOW_RUNNERS), id="dj-allowed-tox-setenv-settings-module-switched"),
    # django tests/test_sqlite.py, allowed: USE_TZ flips for every test
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, "tests/test_sqlite.py", (
        "USE_TZ = False", "USE_TZ = True")), ("PS110",), ALLOW_RUNNERS),
        id="dj-allowed-test-settings-module-edited"),
    # django tests/test_sqlite.py, allowed: no value edited, a new setting appended instead
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, "tests/test_sqlite.py", (
        "USE_TZ = False\n", 'USE_TZ = False\nTIME_ZONE = "America/Chicago"\n')),
        ("PS110",), ALLOW_RUNNERS), id="dj-allowed-test-settings-module-setting-added"),
    # django tests/test_sqlite.py, allowed: the other database's engine swapped
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, "tests/test_sqlite.py", (
        '    "other": {\n        "ENGINE": "django.db.backends.sqlite3",',
        '    "other": {\n        "ENGINE": "django.db.backends.dummy",')),
        ("PS110",), ALLOW_RUNNERS), id="dj-allowed-test-settings-nested-value-edited"),
]


# After-images used as bases for the reverse (strengthening) edit.
DJ_DEPRECATION_WARNS = {**DJ_DEPRECATION, **edit(DJ_DEPRECATION, DEPRECATION, (
    "        with self.assertWarnsMessage(DeprecationWarning, msg) as ctx:\n"
    "            manager.old()",
    "        with self.assertWarns(DeprecationWarning) as ctx:\n"
    "            manager.old()"))}

DJ_TOX_EXCLUDE_SLOW = {**DJ_TEXT, **edit(DJ_TEXT, "tox.ini", (
    "{envpython} runtests.py {posargs}", "{envpython} runtests.py --exclude-tag=slow {posargs}"))}


def tagged(tree: Tree, label: str) -> dict[str, str | bytes | None]:
    """django tests/utils_tests/test_text.py with ``@tag(label)`` on test_get_text_list."""
    return edit(tree, TEXT, ("from django.test import SimpleTestCase\n",
                             "from django.test import SimpleTestCase, tag\n"), (
        "    def test_get_text_list(self):",
        f'    @tag("{label}")\n    def test_get_text_list(self):'))


VOCABULARY_TAMPER_CASES = [
    # django tests/check_framework/test_database.py::test_database_checks_called
    pytest.param(Case(DJ_DBCHECK, edit(DJ_DBCHECK, DBCHECK, (
        "self.assertTrue(mocked_check.called)", "mocked_check.called")), ("PS101",)),
        id="dj-mock-called-assertion-left-as-bare-attribute"),
    # django tests/check_framework/test_database.py::test_database_checks_called: a Mock is truthy
    pytest.param(Case(DJ_DBCHECK, edit(DJ_DBCHECK, DBCHECK, (
        "self.assertTrue(mocked_check.called)", "self.assertTrue(mocked_check)")), ("PS102",)),
        id="dj-mock-called-to-truthy-mock"),
    # django tests/check_framework/test_database.py::test_database_checks_called
    pytest.param(Case(DJ_DBCHECK, edit(DJ_DBCHECK, DBCHECK, (
        "self.assertFalse(mocked_check.called)", "self.assertFalse(mocked_check.call_count > 1)")),
        ("PS101",)), id="dj-mock-not-called-to-call_count-bound"),
    # django tests/deprecation/tests.py::test_get_new_defined
    pytest.param(Case(DJ_DEPRECATION, edit(DJ_DEPRECATION, DEPRECATION, (
        "        with self.assertWarnsMessage(DeprecationWarning, msg) as ctx:\n"
        "            manager.old()",
        "        with self.assertWarns(DeprecationWarning) as ctx:\n"
        "            manager.old()")), ("PS102",)), id="dj-assertWarnsMessage-to-assertWarns"),
    # django tests/deprecation/tests.py::test_class_definition_warnings
    pytest.param(Case(DJ_DEPRECATION, edit(DJ_DEPRECATION, DEPRECATION, (
        "        with self.assertWarnsMessage(DeprecationWarning, msg) as ctx:\n\n",
        "        with self.assertWarnsMessage(Warning, msg) as ctx:\n\n")), ("PS102",)),
        id="dj-assertWarnsMessage-category-broadened"),
    # django tests/model_inheritance_regress/tests.py: the query budget raised
    pytest.param(Case(DJ_INHERIT_REGRESS, edit(DJ_INHERIT_REGRESS, INHERIT_REGRESS, (
        "with self.assertNumQueries(1):\n"
        "            self.assertSequenceEqual(r.supplier_set.all(), [s])",
        "with self.assertNumQueries(3):\n"
        "            self.assertSequenceEqual(r.supplier_set.all(), [s])")), ("PS108",)),
        id="dj-assertNumQueries-count-raised"),
    # django tests/model_inheritance_regress/tests.py: the query count no longer checked
    pytest.param(Case(DJ_INHERIT_REGRESS, edit(DJ_INHERIT_REGRESS, INHERIT_REGRESS, (
        "        with self.assertNumQueries(1):\n"
        "            self.assertSequenceEqual(r.supplier_set.all(), [s])",
        "        self.assertSequenceEqual(r.supplier_set.all(), [s])")), ("PS101",)),
        id="dj-assertNumQueries-context-dropped"),
    # django tests/test_client/tests.py::test_get_view
    pytest.param(Case(DJ_CLIENT, edit(DJ_CLIENT, CLIENT, (
        'self.assertContains(response, "This is a test")',
        "self.assertEqual(response.status_code, 200)")), ("PS101",)),
        id="dj-assertContains-to-status-check"),
    # django tests/test_client/tests.py::test_get_view
    pytest.param(Case(DJ_CLIENT, edit(DJ_CLIENT, CLIENT, (
        'self.assertContains(response, "This is a test")',
        'self.assertContains(response, "test")')), ("PS108",)),
        id="dj-assertContains-text-shortened"),
    # django tests/test_client/tests.py::test_get_post_view
    pytest.param(Case(DJ_CLIENT, edit(DJ_CLIENT, CLIENT, (
        '        self.assertTemplateUsed(response, "Empty GET Template")\n', "")), ("PS101",)),
        id="dj-assertTemplateUsed-removed"),
    # django tests/test_client/tests.py::test_get_post_view: Used -> NotUsed of another name
    pytest.param(Case(DJ_CLIENT, edit(DJ_CLIENT, CLIENT, (
        'self.assertTemplateUsed(response, "Empty GET Template")',
        'self.assertTemplateNotUsed(response, "POST Template")')), ("PS102",)),
        id="dj-assertTemplateUsed-to-NotUsed-elsewhere"),
    # django tests/composite_pk/test_checks.py: one alternative feature fewer skips on more DBs
    pytest.param(Case(DJ_COMPOSITE, edit(DJ_COMPOSITE, COMPOSITE, (
        '        "supports_virtual_generated_columns",\n'
        '        "supports_stored_generated_columns",\n',
        '        "supports_virtual_generated_columns",\n')), ("PS201",)),
        id="dj-skipUnlessAnyDBFeature-alternative-dropped"),
    # django tests/composite_pk/test_checks.py::test_composite_pk_cannot_include_non_local_field
    pytest.param(Case(DJ_COMPOSITE, edit(DJ_COMPOSITE, COMPOSITE, (
        "    def test_composite_pk_cannot_include_non_local_field(self):",
        '    @skipUnlessAnyDBFeature("supports_virtual_generated_columns")\n'
        "    def test_composite_pk_cannot_include_non_local_field(self):")), ("PS201",)),
        id="dj-skipUnlessAnyDBFeature-added"),
    # django tests/transactions/tests.py: a skip one test had, hoisted to the whole class
    pytest.param(Case(DJ_ATOMIC_ONE_METHOD, {ATOMIC: ATOMIC_ERRORS}, ("PS201",)),
        id="dj-skip-of-one-test-hoisted-to-class"),
    # django tox.ini runs `runtests.py --exclude-tag=slow`: a tag it excludes, on an existing test
    pytest.param(Case(DJ_TOX_EXCLUDE_SLOW, tagged(DJ_TOX_EXCLUDE_SLOW, "slow"), ("PS201",)),
        id="dj-tag-the-runner-excludes-added-to-test"),
]

VOCABULARY_BENIGN_CASES = [
    # django tests/check_framework/test_database.py: called -> assert_called (the same check)
    pytest.param(Case(DJ_DBCHECK, edit(DJ_DBCHECK, DBCHECK, (
        "self.assertTrue(mocked_check.called)", "mocked_check.assert_called()"))),
        id="dj-mock-called-to-assert_called"),
    # django tests/check_framework/test_database.py: not called -> assert_not_called
    pytest.param(Case(DJ_DBCHECK, edit(DJ_DBCHECK, DBCHECK, (
        "self.assertFalse(mocked_check.called)", "mocked_check.assert_not_called()"))),
        id="dj-mock-not-called-to-assert_not_called"),
    # django tests/check_framework/test_database.py: called -> an exact call count (stronger)
    pytest.param(Case(DJ_DBCHECK, edit(DJ_DBCHECK, DBCHECK, (
        "self.assertTrue(mocked_check.called)", "self.assertEqual(mocked_check.call_count, 2)"))),
        id="dj-mock-called-to-exact-call_count"),
    # django tests/deprecation/tests.py: assertWarns -> assertWarnsMessage (stronger)
    pytest.param(Case(DJ_DEPRECATION_WARNS, edit(DJ_DEPRECATION_WARNS, DEPRECATION, (
        "        with self.assertWarns(DeprecationWarning) as ctx:\n"
        "            manager.old()",
        "        with self.assertWarnsMessage(DeprecationWarning, msg) as ctx:\n"
        "            manager.old()"))), id="dj-assertWarns-strengthened-to-assertWarnsMessage"),
    # django tests/model_inheritance_regress/tests.py: the query budget tightened
    pytest.param(Case(DJ_INHERIT_REGRESS, edit(DJ_INHERIT_REGRESS, INHERIT_REGRESS, (
        "        s = Supplier.objects.create(restaurant=r)\n",
        "        s = Supplier.objects.create(restaurant=r)\n"
        "        with self.assertNumQueries(0):\n"
        "            self.assertEqual(s.restaurant, r)\n"))),
        id="dj-assertNumQueries-block-added"),
    # django tests/test_client/tests.py::test_get_view: status_code=200 is assertContains' default
    pytest.param(Case(DJ_CLIENT, edit(DJ_CLIENT, CLIENT, (
        'self.assertContains(response, "This is a test")',
        'self.assertContains(response, "This is a test", status_code=200)'))),
        id="dj-assertContains-default-status-spelled-out"),
    # django tests/test_client/tests.py::test_get_post_view: a count= pins the template once
    pytest.param(Case(DJ_CLIENT, edit(DJ_CLIENT, CLIENT, (
        'self.assertTemplateUsed(response, "Empty GET Template")',
        'self.assertTemplateUsed(response, "Empty GET Template", count=1)'))),
        id="dj-assertTemplateUsed-count-added"),
    # django tests/composite_pk/test_checks.py: one more alternative feature skips on fewer DBs
    pytest.param(Case(DJ_COMPOSITE, edit(DJ_COMPOSITE, COMPOSITE, (
        '        "supports_stored_generated_columns",\n',
        '        "supports_stored_generated_columns",\n'
        '        "supports_generated_columns",\n'))),
        id="dj-skipUnlessAnyDBFeature-alternative-added"),
    # django tests/transactions/tests.py: the skip every test had, hoisted to their class
    pytest.param(Case(DJ_ATOMIC_PER_METHOD, {ATOMIC: ATOMIC_ERRORS}),
        id="dj-skip-of-every-test-hoisted-to-class"),
    # django tox.ini runs `runtests.py --exclude-tag=slow`: a tag it does not exclude
    pytest.param(Case(DJ_TOX_EXCLUDE_SLOW, tagged(DJ_TOX_EXCLUDE_SLOW, "utils")),
        id="dj-tag-the-runner-keeps-added-to-test"),
    # django tox.ini runs the whole suite: the slow tag excludes nothing
    pytest.param(Case(DJ_TEXT, tagged(DJ_TEXT, "slow")), id="dj-tag-added-no-runner-excludes"),
]


@pytest.mark.parametrize("case", TAMPER_CASES + MORE_TAMPER_CASES + VOCABULARY_TAMPER_CASES)
def test_tampering_is_rejected(scored: ScoreCase, case: Case) -> None:
    report = scored(case)
    assert rejects(report) - ALWAYS == set(case.expect), describe(report)
    # The tampering decides (an earlier gate than PS502's) and is reported where it was done.
    assert_tampering_caught(report, case)


# ============================================================================ honest look-alikes

# After-images of tampering cases, used as bases for the reverse (strengthening) edit.
DJ_DATASTRUCT_RAISES = {**DJ_DATASTRUCT, **edit(DJ_DATASTRUCT, DATASTRUCT, (
    "with self.assertRaisesMessage(ValueError, msg):\n"
    '            CaseInsensitiveMapping([(1, "2")])',
    "with self.assertRaises(ValueError):\n"
    '            CaseInsensitiveMapping([(1, "2")])'))}
SJ_FLOAT_ALMOST = {**SJ_FLOAT, **edit(SJ_FLOAT, SJ_FLOAT_PATH, (
    "self.assertEqual(json.loads(json.dumps(num)), num)",
    "self.assertAlmostEqual(json.loads(json.dumps(num)), num)"))}
DJ_EXPRESSIONS_TWO_FEATURES = {**DJ_EXPRESSIONS, **edit(DJ_EXPRESSIONS, EXPRESSIONS, (
    '@skipUnlessDBFeature("supports_temporal_subtraction")',
    '@skipUnlessDBFeature("supports_temporal_subtraction", "supports_over_clause")'))}


def appended(tree: Tree, path: str, method: str) -> dict[str, str | bytes | None]:
    """``path`` with ``method`` (written at column 0) appended to its last class."""
    text = text_of(tree, path)
    return {path: text + "\n" + "".join(f"    {line}" if line.strip() else line
                                        for line in py(method).splitlines(keepends=True))}


BENIGN_CASES = [
    # ---------------------------------------------------------------- unittest/Django vocabulary
    # django tests/utils_tests/test_datastructures.py::test_create_with_invalid_key
    pytest.param(Case(DJ_DATASTRUCT_RAISES, edit(DJ_DATASTRUCT_RAISES, DATASTRUCT, (
        "with self.assertRaises(ValueError):\n"
        '            CaseInsensitiveMapping([(1, "2")])',
        "with self.assertRaisesMessage(ValueError, msg):\n"
        '            CaseInsensitiveMapping([(1, "2")])'))),
        id="dj-assertRaises-strengthened-to-assertRaisesMessage"),
    # django tests/utils_tests/test_datastructures.py::test_create_with_invalid_values
    pytest.param(Case(DJ_DATASTRUCT, edit(DJ_DATASTRUCT, DATASTRUCT, (
        'msg = "dictionary update sequence element #1 has length 4; 2 is required"',
        'msg = (\n            "dictionary update sequence element #1 has length 4; "\n'
        '            "2 is required"\n        )'))),
        id="dj-assertRaisesMessage-message-split-literal"),
    # django tests/utils_tests/test_text.py::test_unescape_string_literal_invalid_value
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, TEXT, (
        'msg = f"Not a string literal: {item!r}"', 'msg = "Not a string literal: %r" % (item,)'))),
        id="dj-assertRaisesMessage-message-fstring-to-percent"),
    # django tests/basic/tests.py::test_queryset_delete_removes_all_items_in_that_queryset
    pytest.param(Case(DJ_BASIC, edit(DJ_BASIC, BASIC, (
        '''self.assertQuerySetEqual(
            Article.objects.order_by("headline"),
            sorted(headlines),
            transform=lambda a: a.headline,
        )''', '''self.assertQuerySetEqual(
            Article.objects.order_by("headline"), sorted(headlines), transform=lambda a: a.headline
        )'''))), id="dj-assertQuerySetEqual-reformatted"),
    # django tests/expressions/tests.py::test_update_with_none
    pytest.param(Case(DJ_EXPRESSIONS, edit(DJ_EXPRESSIONS, EXPRESSIONS, (
        "Number.objects.all(), [None, None], lambda n: n.float, ordered=False",
        "Number.objects.all(), [None, None], transform=lambda n: n.float, ordered=False"))),
        id="dj-assertQuerySetEqual-transform-by-keyword"),
    # django tests/expressions/tests.py::test_update_with_none
    pytest.param(Case(DJ_EXPRESSIONS, edit(DJ_EXPRESSIONS, EXPRESSIONS, (
        "lambda n: n.float, ordered=False\n        )\n",
        "lambda n: n.float, ordered=False\n        )\n"
        "        self.assertEqual(Number.objects.count(), 2)\n"))), id="dj-count-check-added"),
    # django tests/forms_tests/widget_tests/test_numberinput.py::test_fieldset
    pytest.param(Case(DJ_WIDGETS, edit(DJ_WIDGETS, NUMBERINPUT, (
        "        form = TestForm()\n",
        "        form = TestForm()\n        rendered = form.render()\n"),
        ("            form.render(),\n        )", "            rendered,\n        )"))),
        id="dj-assertHTMLEqual-output-extracted-to-local"),
    # django tests/fixtures_regress/tests.py::test_proxy_model_included
    pytest.param(Case(DJ_FIXTURES, edit(DJ_FIXTURES, FIXTURES, (
        "' % widget.pk,\n        )\n",
        "' % widget.pk,\n        )\n        self.assertIn('\"grommet\"', out.getvalue())\n"))),
        id="dj-assertJSONEqual-kept-and-assertIn-added"),
    # django tests/sessions_tests/tests.py SessionTestsMixin.test_cycle_with_no_session_cache
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, SESSIONS, (
        "        prev_data = self.session.items()\n",
        "        previous_items = self.session.items()\n"),
        ("self.assertCountEqual(self.session.items(), prev_data)",
         "self.assertCountEqual(self.session.items(), previous_items)"))),
        id="dj-assertCountEqual-local-renamed"),
    # django tests/aggregation/tests.py::test_aggregation_default_using_decimal_from_database
    pytest.param(Case(DJ_AGGREGATION, edit(DJ_AGGREGATION, AGGREGATION, (
        "Decimal.from_float(math.pi), places=6)", "Decimal.from_float(math.pi), places=7)"))),
        id="dj-assertAlmostEqual-places-increased"),
    # django tests/aggregation/tests.py::test_ticket12886
    pytest.param(Case(DJ_AGGREGATION, edit(DJ_AGGREGATION, AGGREGATION, (
        "self.assertAlmostEqual(vals, 4.5, places=2)",
        "self.assertAlmostEqual(vals, 4.5, delta=0.001)"))),
        id="dj-assertAlmostEqual-places-to-tighter-delta"),
    # simplejson/tests/test_float.py::test_floats
    pytest.param(Case(SJ_FLOAT_ALMOST, edit(SJ_FLOAT_ALMOST, SJ_FLOAT_PATH, (
        "self.assertAlmostEqual(json.loads(json.dumps(num)), num)",
        "self.assertEqual(json.loads(json.dumps(num)), num)"))),
        id="sj-assertAlmostEqual-strengthened-to-assertEqual"),
    # django tests/utils_tests/test_datastructures.py::test_in
    pytest.param(Case(DJ_DATASTRUCT, edit(DJ_DATASTRUCT, DATASTRUCT, (
        'self.assertIn("Content-Type", self.dict1)',
        'self.assertTrue("Content-Type" in self.dict1)'))), id="dj-assertIn-as-assertTrue-in"),
    # django tests/utils_tests/test_datastructures.py::test_list
    pytest.param(Case(DJ_DATASTRUCT, edit(DJ_DATASTRUCT, DATASTRUCT, (
        'self.assertEqual(list(self.dict1), ["Accept", "content-type"])',
        'self.assertEqual(["Accept", "content-type"], list(self.dict1))'))),
        id="dj-assertEqual-arguments-swapped"),
    # django tests/utils_tests/test_timesince.py::test_equal_datetimes
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, TIMESINCE, (
        'self.assertEqual(timesince(self.t, self.t), "0\\xa0minutes")',
        'self.assertEqual(\n'
        '            timesince(self.t, self.t), "0\\xa0minutes", msg="equal datetimes"\n'
        '        )'))), id="dj-assertEqual-msg-added"),
    # django tests/humanize_tests/tests.py HumanizeTests.humanize_tester: msg reworded
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        "msg=\"%s test failed, produced '%s', should've produced '%s'\"",
        "msg=\"%s test failed: produced '%s', expected '%s'\""))),
        id="dj-helper-assertion-msg-reworded"),
    # django tests/forms_tests/widget_tests/test_widget.py::test_no_trailing_newline_in_attrs
    pytest.param(Case(DJ_WIDGETS, edit(DJ_WIDGETS, WIDGET, (
        "            strict=True,\n"
        "            html='<input type=\"None\" name=\"name\" value=\"value\">',\n",
        "            html='<input type=\"None\" name=\"name\" value=\"value\">',\n"
        "            strict=True,\n"))), id="dj-check_html-keywords-reordered"),
    # django tests/forms_tests/widget_tests/base.py WidgetTest.check_html
    pytest.param(Case(DJ_WIDGETS, edit(DJ_WIDGETS, "tests/forms_tests/widget_tests/base.py", (
        "        assertEqual = self.assertEqual if strict else self.assertHTMLEqual\n",
        "        # strict compares the exact text, otherwise HTML semantics.\n"
        "        assertEqual = self.assertEqual if strict else self.assertHTMLEqual\n"))),
        id="dj-check_html-helper-comment-added"),
    # markdown tests/test_apis.py::TestErrors.testBadOutputFormat
    pytest.param(Case(MD_APIS, edit(MD_APIS, APIS, (
        "        self.assertRaises(KeyError, markdown.Markdown, output_format='invalid')",
        "        with self.assertRaises(KeyError):\n"
        "            markdown.Markdown(output_format='invalid')"))),
        id="md-assertRaises-callable-to-context-manager"),
    # simplejson/tests/test_errors.py::test_string_keys_error: try/else/fail to assertRaises
    pytest.param(Case(SJ_ERRORS, edit(SJ_ERRORS, SJ_ERRORS_PATH, (
        SJ_TRY_ELSE_FAIL, sj_assert_raises("TypeError")))), id="sj-try-else-fail-to-assertRaises"),

    # ---------------------------------------------------------------- case tables and subTest
    # django tests/humanize_tests/tests.py::test_ordinal
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        '            "111",\n        )', '            "111",\n            "112",\n        )'),
        ('            "111th",\n        )',
         '            "111th",\n            "112th",\n        )'))),
        id="dj-humanize-case-table-extended"),
    # django tests/humanize_tests/tests.py::test_ordinal: the rows of both tables reordered
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        '            "1",\n            "2",\n', '            "2",\n            "1",\n'),
        ('            "1st",\n            "2nd",\n', '            "2nd",\n            "1st",\n'))),
        id="dj-humanize-case-table-rows-reordered"),
    # django tests/humanize_tests/tests.py::test_intcomma_without_number_grouping
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        'self.humanize_tester([100], ["100"], "intcomma")',
        'self.humanize_tester([100], ["100"], method="intcomma")'))),
        id="dj-humanize-helper-argument-by-keyword"),
    # django tests/utils_tests/test_text.py::test_unescape_string_literal
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, TEXT, ('''        for value, output in items:
            with self.subTest(value=value):
                self.assertEqual(text.unescape_string_literal(value), output)
                self.assertEqual(text.unescape_string_literal(lazystr(value)), output)''',
        '''        for literal, expected in items:
            with self.subTest(value=literal):
                self.assertEqual(text.unescape_string_literal(literal), expected)
                self.assertEqual(text.unescape_string_literal(lazystr(literal)), expected)'''))),
        id="dj-subTest-loop-variables-renamed"),
    # django tests/utils_tests/test_timesince.py::test_less_than_a_day_with_zoneinfo
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, TIMESINCE, (
        "            with self.subTest(value):", "            with self.subTest(value=value):"))),
        id="dj-subTest-label-by-keyword"),
    # markdown tests/test_syntax/inline/test_autolinks.py::test_url_schemes
    pytest.param(Case(MD_AUTOLINKS, edit(MD_AUTOLINKS, AUTOLINKS, (
        "            'x.y-z://example.org',\n",
        "            'x.y-z://example.org',\n            'svn+ssh://example.org/repo',\n"))),
        id="md-subTest-url-table-extended"),
    # markdown tests/test_syntax/inline/test_autolinks.py::test_url_schemes
    pytest.param(Case(MD_AUTOLINKS, edit(MD_AUTOLINKS, AUTOLINKS, (
        "            'git+ssh://example.org/repo',\n            'x.y-z://example.org',\n", ""),
        ("            'http://example.org',\n",
         "            'git+ssh://example.org/repo',\n            'x.y-z://example.org',\n"
         "            'http://example.org',\n"))), id="md-subTest-url-table-reordered"),
    # markdown tests/test_syntax/inline/test_autolinks.py::test_url_schemes split in two tests
    pytest.param(Case(MD_AUTOLINKS, edit(MD_AUTOLINKS, AUTOLINKS, (
        "            'git+ssh://example.org/repo',\n            'x.y-z://example.org',\n", ''), (
        "    def test_invalid_url_schemes(self):",
        "    def test_url_schemes_with_punctuation(self):\n"
        "        for url in ('git+ssh://example.org/repo', 'x.y-z://example.org'):\n"
        "            with self.subTest(url=url):\n"
        "                self.assertMarkdownRenders(\n"
        "                    f'<{url}>',\n"
        "                    f'<p><a href=\"{url}\">{url}</a></p>'\n"
        "                )\n\n"
        "    def test_invalid_url_schemes(self):"))),
        id="md-subTest-rows-moved-into-new-test"),
    # django tests/utils_tests/test_text.py::test_unescape_string_literal_invalid_value
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, TEXT, (
        'items = ["", "abc", "\'abc\\""]', 'items = ["", "abc", "\'abc\\"", \'"abc\']'))),
        id="dj-local-case-list-extended"),
    # simplejson/tests/test_decimal.py TestDecimal.NUMS
    pytest.param(Case(SJ_DECIMAL, edit(SJ_DECIMAL, SJ_DECIMAL_PATH, (
        'NUMS = "1.0", "10.00", "1.1", "1234567890.1234567890", "500"',
        'NUMS = "1.0", "10.00", "1.1", "1234567890.1234567890", "500", "0.5"'))),
        id="sj-class-attribute-case-table-extended"),
    # Lib/test/test__locale.py::test_float_parsing: the same guard as two nested ifs
    pytest.param(Case(CP_LOCALE, edit(CP_LOCALE, CP_LOCALE_PATH, (
        """            if loc == 'eu_ES' and localeconv()['decimal_point'] == "' ":
                continue""", """            if loc == 'eu_ES':
                if localeconv()['decimal_point'] == "' ":
                    continue"""))), id="cp-loop-continue-guard-as-nested-ifs"),
    # Lib/test/test__locale.py known_numerics
    pytest.param(Case(CP_LOCALE, edit(CP_LOCALE, CP_LOCALE_PATH, (
        "    'de_DE' : (',', '.'),\n", "    'de_DE' : (',', '.'),\n    'nl_NL' : (',', '.'),\n"))),
        id="cp-helper-expected-table-entry-added"),
    # Lib/test/test__locale.py known_numerics: entries reordered and laid out on one line
    pytest.param(Case(CP_LOCALE, edit(CP_LOCALE, CP_LOCALE_PATH, (
        "    'en_US': ('.', ','),\n    'de_DE' : (',', '.'),\n",
        "    'de_DE': (',', '.'), 'en_US': ('.', ','),\n"))),
        id="cp-helper-expected-table-reordered"),

    # ---------------------------------------------------------------- inheritance
    # Lib/test/test_json/test_float.py
    pytest.param(Case(CP_FLOAT, edit(CP_FLOAT, CP_FLOAT_PATH, (
        "class TestPyFloat(TestFloat, PyTest): pass\nclass TestCFloat(TestFloat, CTest): pass",
        "class TestPyFloat(TestFloat, PyTest):\n    pass\n\n\n"
        "class TestCFloat(TestFloat, CTest):\n    pass"))), id="cp-variant-classes-reformatted"),
    # django tests/sessions_tests/tests.py CookieSessionTests: an override that checks more
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, SESSIONS, (
        "    @unittest.expectedFailure\n    def test_actual_expiry(self):",
        "    def test_store(self):\n        super().test_store()\n"
        "        self.assertIs(self.session.accessed, True)\n\n"
        "    @unittest.expectedFailure\n    def test_actual_expiry(self):"))),
        id="dj-inherited-test-extended-through-super"),
    # django tests/sessions_tests/tests.py CookieSessionTests.test_actual_expiry
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, SESSIONS, (
        "# The cookie backend doesn't handle non-default expiry dates, see #19201",
        "# The cookie backend doesn't handle non-default expiry dates, see ticket #19201."))),
        id="dj-existing-expectedFailure-comment-reworded"),
    # django tests/sessions_tests/tests.py FileSessionTests
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, SESSIONS, (
        "class FileSessionTests(SessionTestsMixin, SimpleTestCase):",
        "class FileSessionTests(SessionTestsMixin, TestCase):"))),
        id="dj-subclass-base-SimpleTestCase-to-TestCase"),
    # Lib/test/test_json/__init__.py PyTest
    pytest.param(Case(CP_FLOAT, edit(CP_FLOAT, CP_JSON, (
        "class PyTest(unittest.TestCase):\n",
        "class PyTest(unittest.TestCase):\n    \"\"\"The json module without _json.\"\"\"\n"))),
        id="cp-shared-base-docstring-added"),

    # ---------------------------------------------------------------- skips
    # django tests/expressions/tests.py
    pytest.param(Case(DJ_EXPRESSIONS, edit(DJ_EXPRESSIONS, EXPRESSIONS, (
        '    @skipUnlessDBFeature("supports_temporal_subtraction")\n',
        "    @skipUnlessDBFeature(\n        \"supports_temporal_subtraction\",\n    )\n"))),
        id="dj-skipUnlessDBFeature-reformatted"),
    # django tests/expressions/tests.py: a new test with its own DB-feature skip
    pytest.param(Case(DJ_EXPRESSIONS, appended(DJ_EXPRESSIONS, EXPRESSIONS, '''
        @skipUnlessDBFeature("supports_temporal_subtraction")
        def test_date_subtraction(self):
            queryset = Experiment.objects.annotate(
                completion_duration=F("completed") - F("assigned"),
            )
            self.assertEqual(
                [e.completion_duration for e in queryset],
                [e.completed - e.assigned for e in queryset],
            )
        ''')), id="dj-skipUnlessDBFeature-on-new-test"),
    # django tests/expressions/tests.py: skipIfDBFeature imported for a new test
    pytest.param(Case(DJ_EXPRESSIONS, appended(edit(
        DJ_EXPRESSIONS, EXPRESSIONS,
        ("from django.test import TestCase, skipUnlessDBFeature",
         "from django.test import TestCase, skipIfDBFeature, skipUnlessDBFeature"),
        ("from django.db.models import F, Value\n",
         "from django.db import NotSupportedError\nfrom django.db.models import F, Value\n")),
        EXPRESSIONS, '''
        @skipIfDBFeature("supports_temporal_subtraction")
        def test_temporal_subtraction_not_supported(self):
            with self.assertRaises(NotSupportedError):
                list(Experiment.objects.annotate(d=F("end") - F("start")))
        ''')), id="dj-skipIfDBFeature-imported-for-new-test"),
    # django tests/expressions/tests.py: one required feature fewer skips on fewer backends
    pytest.param(Case(DJ_EXPRESSIONS_TWO_FEATURES, edit(DJ_EXPRESSIONS_TWO_FEATURES, EXPRESSIONS, (
        '@skipUnlessDBFeature("supports_temporal_subtraction", "supports_over_clause")',
        '@skipUnlessDBFeature("supports_temporal_subtraction")'))),
        id="dj-skipUnlessDBFeature-feature-requirement-dropped"),
    # django tests/utils_tests/test_timesince.py: requires_tz_support on a new test
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, TIMESINCE, (
        "    def test_depth_invalid(self):",
        "    @requires_tz_support\n"
        "    def test_less_than_a_day_utc(self):\n"
        "        now_utc = timezone.now()\n"
        '        self.assertEqual(timesince(now_utc - self.oneminute), "1\\xa0minute")\n\n'
        "    def test_depth_invalid(self):"))), id="dj-requires_tz_support-on-new-test"),
    # django tests/utils_tests/test_timesince.py TimesinceTests: a setUpClass that only prepares
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, TIMESINCE, (
        "class TimesinceTests(TestCase):\n",
        "class TimesinceTests(TestCase):\n"
        "    @classmethod\n"
        "    def setUpClass(cls):\n"
        "        super().setUpClass()\n"
        '        cls.kathmandu = zoneinfo.ZoneInfo(key="Asia/Kathmandu")\n\n'))),
        id="dj-setUpClass-added-without-skip"),
    # markdown tests/test_syntax/extensions/test_code_hilite.py setUp: skips in fewer cases
    pytest.param(Case(MD_HILITE, edit(MD_HILITE, HILITE, (
        "if has_pygments and pygments.__version__ != required_pygments_version:",
        "if has_pygments and required_pygments_version and "
        "pygments.__version__ != required_pygments_version:"))),
        id="md-setUp-skipTest-condition-narrowed"),
    # Lib/test/test__locale.py setUpModule
    pytest.param(Case(CP_LOCALE, edit(CP_LOCALE, CP_LOCALE_PATH, (
        "    # Workaround for MSVC6(debug) crash bug\n",
        "    # Workaround for MSVC6(debug) crash bug (old Windows builds only)\n"))),
        id="cp-setUpModule-comment-edited"),
    # Lib/test/test_deque.py: support.requires in a new test
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "    @support.cpython_only\n",
        "    def test_big_maxlen(self):\n"
        "        support.requires('cpu')\n"
        "        d = deque(range(10**6), maxlen=3)\n"
        "        self.assertEqual(list(d), [999997, 999998, 999999])\n\n"
        "    @support.cpython_only\n"))), id="cp-support-requires-in-new-test"),
    # Lib/test/test_deque.py: a module exception that is no skip, raised and checked
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "class TestBasic(unittest.TestCase):\n",
        "class MaxlenError(ValueError):\n    pass\n\n\n"
        "class TestBasic(unittest.TestCase):\n"), (
        "    @support.cpython_only\n",
        "    def test_maxlen_error_is_value_error(self):\n"
        "        with self.assertRaises(ValueError):\n"
        "            raise MaxlenError('maxlen')\n\n"
        "    @support.cpython_only\n"))), id="cp-local-non-skip-exception-raised"),
    # Lib/test/test_deque.py: requires_resource on a new test
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "    @support.cpython_only\n",
        "    @support.requires_resource('cpu')\n"
        "    def test_big_rotate(self):\n"
        "        d = deque(range(10**6))\n"
        "        d.rotate(1)\n"
        "        self.assertEqual(d[0], 999999)\n\n"
        "    @support.cpython_only\n"))), id="cp-requires_resource-on-new-test"),
    # simplejson/tests/test_float.py: the project's skip helper on a new speedups test
    pytest.param(Case(SJ_FLOAT, edit(SJ_FLOAT, SJ_FLOAT_PATH, (
        "from simplejson.decoder import NaN, PosInf, NegInf\n",
        "from simplejson.decoder import NaN, PosInf, NegInf\n"
        "from simplejson.tests._helpers import skip_if_speedups_missing\n"), (
        "    def test_floats(self):",
        "    @skip_if_speedups_missing\n"
        "    def test_floats_c_encoder(self):\n"
        "        self.assertEqual(json.dumps(3.1), '3.1')\n\n"
        "    def test_floats(self):"))), id="sj-project-skip-helper-on-new-test"),
    # simplejson/tests/_helpers.py: a new helper nothing uses yet
    pytest.param(Case(SJ_SPEEDUPS, edit(SJ_SPEEDUPS, SJ_HELPERS_PATH, (
        "def skip_if_speedups_missing(func):",
        "def has_scanner_speedups():\n"
        "    from simplejson import scanner\n"
        "    return scanner.c_make_scanner is not None\n\n\n"
        "def skip_if_speedups_missing(func):"))), id="sj-new-helper-beside-skip-helper"),
    # markdown tests/test_legacy.py TestPl2004: one exclusion lifted (runs more)
    pytest.param(Case(MD_LEGACY, edit(MD_LEGACY, LEGACY, (
        "exclude = ['Yuri_Footnotes', 'Yuri_Attributes']", "exclude = ['Yuri_Footnotes']"))),
        id="md-legacy-exclusion-lifted"),
    # Lib/test/test_json/__init__.py CTest: the class skip reworded
    pytest.param(Case(CP_FLOAT, edit(CP_FLOAT, CP_JSON, (
        "@unittest.skipUnless(cjson, 'requires _json')",
        "@unittest.skipUnless(cjson, 'requires the _json accelerator')"))),
        id="cp-class-skip-reason-reworded"),

    # ---------------------------------------------------------------- test inputs
    # django tests/utils_tests/test_timesince.py TZAwareTimesinceTests: decorators swapped
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, TIMESINCE, (
        "@requires_tz_support\n@override_settings(USE_TZ=True)\nclass TZAware",
        "@override_settings(USE_TZ=True)\n@requires_tz_support\nclass TZAware"))),
        id="dj-class-decorators-reordered"),
    # django tests/i18n/tests.py::test_locale_independent
    pytest.param(Case(DJ_I18N, edit(DJ_I18N, I18N, (
        "with self.settings(USE_THOUSAND_SEPARATOR=False):",
        "with self.settings(\n            USE_THOUSAND_SEPARATOR=False,\n        ):"))),
        id="dj-self-settings-reformatted"),
    # django tests/utils_tests/test_text.py: a new test under its own self.settings
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, TEXT, (
        "    def test_unescape_string_literal(self):",
        "    def test_get_text_list_untranslated(self):\n"
        "        with self.settings(USE_I18N=False):\n"
        '            self.assertEqual(text.get_text_list(["a", "b"], "or"), "a or b")\n\n'
        "    def test_unescape_string_literal(self):"))), id="dj-self-settings-in-new-test"),
    # django tests/humanize_tests/tests.py::test_naturalday_uses_localtime
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        'override_settings(TIME_ZONE="America/Chicago", USE_TZ=True)',
        'override_settings(USE_TZ=True, TIME_ZONE="America/Chicago")'))),
        id="dj-override_settings-keywords-reordered"),
    # django tests/humanize_tests/tests.py: a new test with its own override_settings
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        "    def test_intcomma_without_number_grouping(self):",
        "    @override_settings(USE_THOUSAND_SEPARATOR=True)\n"
        "    def test_intcomma_with_separator(self):\n"
        "        with translation.override(\"en\"):\n"
        '            self.humanize_tester([1000], ["1,000"], "intcomma")\n\n'
        "    def test_intcomma_without_number_grouping(self):"))),
        id="dj-override_settings-on-new-test"),
    # django tests/utils_tests/test_text.py: a new test that patches a collaborator
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, TEXT, (
        "from django.core.exceptions import SuspiciousFileOperation\n",
        "from unittest import mock\n\n"
        "from django.core.exceptions import SuspiciousFileOperation\n"),
        ("    def test_get_valid_filename(self):",
         '    @mock.patch("django.utils.text.gettext_lazy", side_effect=lambda s: s)\n'
         "    def test_get_text_list_untranslated_conjunction(self, _gettext):\n"
         '        self.assertEqual(text.get_text_list(["a", "b"]), "a or b")\n\n'
         "    def test_get_valid_filename(self):"))), id="dj-mock-patch-in-new-test"),
    # django tests/humanize_tests/tests.py: the save/rebind/restore idiom in a new test
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        "    def test_naturalday_uses_localtime(self):",
        "    def test_naturaltime_now(self):\n"
        "        orig_humanize_datetime, humanize.datetime = humanize.datetime, MockDateTime\n"
        "        try:\n"
        "            with translation.override(\"en\"):\n"
        '                self.humanize_tester([now], ["now"], "naturaltime")\n'
        "        finally:\n"
        "            humanize.datetime = orig_humanize_datetime\n\n"
        "    def test_naturalday_uses_localtime(self):"))), id="dj-rebind-idiom-in-new-test"),
    # django tests/humanize_tests/tests.py::test_naturalday_uses_localtime: the same
    # save/rebind/restore, the original saved in a statement of its own under another name
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        "        orig_humanize_datetime, humanize.datetime = humanize.datetime, MockDateTime\n",
        "        saved_datetime = humanize.datetime\n"
        "        humanize.datetime = MockDateTime\n"), (
        "            humanize.datetime = orig_humanize_datetime\n",
        "            humanize.datetime = saved_datetime\n"))),
        id="dj-rebind-idiom-split-and-renamed"),
    # django tests/humanize_tests/tests.py::test_ordinal: an attribute of the test itself
    pytest.param(Case(DJ_HUMANIZE, edit(DJ_HUMANIZE, HUMANIZE, (
        "    def test_ordinal(self):\n",
        "    def test_ordinal(self):\n        self.maxDiff = None\n"))),
        id="dj-test-instance-attribute-set"),
    # markdown tests/test_syntax/extensions/test_smarty.py TestSmarty.default_kwargs
    pytest.param(Case(MD_SMARTY, edit(MD_SMARTY, SMARTY, (
        "default_kwargs = {'extensions': ['smarty']}",
        "default_kwargs = {\n        'extensions': ['smarty'],\n    }"))),
        id="md-default_kwargs-reformatted"),
    # markdown tests/test_syntax/extensions/test_smarty.py: the same options kept in a shared
    # base of the module
    pytest.param(Case(MD_SMARTY, edit(MD_SMARTY, SMARTY, (
        "class TestSmarty(TestCase):\n\n    default_kwargs = {'extensions': ['smarty']}\n",
        "class SmartyCase(TestCase):\n    default_kwargs = {'extensions': ['smarty']}\n\n\n"
        "class TestSmarty(SmartyCase):\n"))), id="md-default_kwargs-moved-to-local-base"),
    # markdown tests/test_syntax/blocks/test_hr.py: a class attribute assertMarkdownRenders
    # does not read (unittest's maxDiff only lengthens a failure's message)
    pytest.param(Case(MD_HR, edit(MD_HR, HR, (
        "class TestHorizontalRules(TestCase):\n",
        "class TestHorizontalRules(TestCase):\n    maxDiff = None\n"))),
        id="md-class-attribute-the-helper-does-not-read"),
    # markdown tests/test_syntax/blocks/test_hr.py: a new test with its own option
    pytest.param(Case(MD_HR, appended(MD_HR, HR, """
        def test_hr_asterisks_html(self):
            self.assertMarkdownRenders(
                '***',

                '<hr>',
                output_format='html'
            )
        """)), id="md-assertMarkdownRenders-option-on-new-test"),

    # ---------------------------------------------------------------- the project's helper
    # markdown/test_tools.py: a new helper beside assertMarkdownRenders
    pytest.param(Case(MD_HR, edit(MD_HR, TOOLS, (
        "    def dedent(self, text):",
        "    def assertMarkdownRendersXhtml(self, source, expected, **kwargs):\n"
        "        self.assertMarkdownRenders(source, expected, output_format='xhtml', **kwargs)\n\n"
        "    def dedent(self, text):"))), id="md-new-helper-beside-assertMarkdownRenders"),
    # markdown/test_tools.py TestCase.assertMarkdownRenders docstring
    pytest.param(Case(MD_HR, edit(MD_HR, TOOLS, (
        "        Test that source Markdown text renders to expected output with given keywords.\n",
        "        Test that source Markdown text renders to expected output with given keywords.\n\n"
        "        The output is compared with `assertMultiLineEqual`.\n"))),
        id="md-assertMarkdownRenders-docstring-extended"),
    # markdown tests/test_syntax/blocks/test_hr.py::test_hr_asterisks
    pytest.param(Case(MD_HR, edit(MD_HR, HR, (
        "        self.assertMarkdownRenders(\n"
        "            '***',\n\n            '<hr />'\n        )",
        "        self.assertMarkdownRenders('***', '<hr />')"))), id="md-call-on-one-line"),
    # markdown tests/test_syntax/extensions/test_toc.py::testNoTOCMarker (expected_attrs added)
    pytest.param(Case(MD_TOC_NO_ATTRS, {TOC: MD_TOC[TOC]}), id="md-expected_attrs-added"),
    # the same through a helper of the test module (a parameter read only by checks)
    pytest.param(Case(MD_LOCAL, edit(MD_LOCAL, LOCAL, (
        "check_rendered('*a*', '<p><em>a</em></p>')",
        "check_rendered('*a*', '<p><em>a</em></p>', ['<em>'])"))),
        id="md-local-helper-checking-argument-added"),
    # markdown tests/basic/: a new legacy pair is a new test
    pytest.param(Case(MD_LEGACY, {"tests/basic/angle-links-and-img.txt":
                                  "<simple link> and <http://example.com>\n",
                                  "tests/basic/angle-links-and-img.html":
                                  '<p>&lt;simple link&gt; and <a href="http://example.com">'
                                  "http://example.com</a></p>"}), id="md-legacy-pair-added"),

    # ---------------------------------------------------------------- runner channels
    # django tests/README.rst (documentation next to runtests.py)
    pytest.param(Case({**DJ_SESSIONS, "tests/README.rst": "To run the test suite::\n\n"
                       "    $ cd tests\n    $ python -m pip install -e ..\n"},
                      {"tests/README.rst": "To run the test suite::\n\n    $ cd tests\n"
                       "    $ python -m pip install -e ..\n    $ ./runtests.py\n"}),
        id="dj-tests-readme-edited"),
    # django tox.ini, tox.ini allowed: options that only report or spread the run
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, "tox.ini", (
        "{envpython} runtests.py {posargs}",
        "{envpython} runtests.py --parallel=4 --timing -v 2 {posargs}")), extra=ALLOW_RUNNERS),
        id="dj-allowed-tox-runtests-parallel-timing-verbosity"),
    # markdown makefile, makefile allowed
    pytest.param(Case(MD_HR, edit(MD_HR, "makefile", (
        "unittest discover tests\n", "unittest discover -v tests\n")), extra=ALLOW_RUNNERS),
        id="md-allowed-makefile-discover-verbose"),
    # markdown tox.ini, tox.ini allowed: the default pattern spelled out
    pytest.param(Case(MD_LEGACY, edit(MD_LEGACY, "tox.ini", (
        "-m unittest discover {toxinidir}/tests\n",
        '-m unittest discover {toxinidir}/tests -p "test*.py"\n')), extra=ALLOW_RUNNERS),
        id="md-allowed-tox-discover-default-pattern-spelled-out"),
    # django tests/runtests.py, runtests.py allowed: a new reporting option
    pytest.param(Case(DJ_SESSIONS, edit(DJ_SESSIONS, "tests/runtests.py", (
        "    options = parser.parse_args()\n",
        "    parser.add_argument(\n"
        '        "--timing",\n'
        '        action="store_true",\n'
        '        help="Output timings, including database set up and total run time.",\n'
        "    )\n"
        "    options = parser.parse_args()\n")), extra=ALLOW_RUNNERS),
        id="dj-allowed-runtests-reporting-option-added"),
    # django tests/test_sqlite.py, allowed: comment edited
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, "tests/test_sqlite.py", (
        "# Use a fast hasher to speed up tests.",
        "# Use a fast hasher to speed up tests (never in production).")), extra=ALLOW_RUNNERS),
        id="dj-allowed-test-settings-comment-edited"),
    # simplejson/tests/__init__.py, allowed: the filter widened to every test*.py
    pytest.param(Case(SJ_FLOAT, edit(SJ_FLOAT, SJ_INIT, (
        'if f.startswith("test_") and f.endswith(".py")',
        'if f.startswith("test") and f.endswith(".py")')), extra=ALLOW_SUITE),
        id="sj-allowed-suite-builder-filter-widened"),
    # simplejson/tests/__init__.py, allowed: the filter's conjuncts swapped and parenthesised
    pytest.param(Case(SJ_FLOAT, edit(SJ_FLOAT, SJ_INIT, (
        'if f.startswith("test_") and f.endswith(".py")',
        'if (f.endswith(".py") and f.startswith("test_"))')), extra=ALLOW_SUITE),
        id="sj-allowed-suite-builder-filter-reordered"),
    # simplejson setup.py reads the version from the package: that file runs no tests
    pytest.param(Case({**SJ_FLOAT, "setup.py": SJ_SETUP + py('''

        VERSION = open('simplejson/__init__.py').read().split('"')[1]
        '''), "simplejson/__init__.py": '__version__ = "3.0"\n'},
        {"simplejson/__init__.py": '__version__ = "3.1"\n'}),
        id="sj-package-file-setup-py-reads-edited"),
    # simplejson/tests/: a new test module the suite builder picks up
    pytest.param(Case(SJ_FLOAT, {"simplejson/tests/test_float_repr.py": py('''
        from unittest import TestCase
        import simplejson as json


        class TestFloatRepr(TestCase):
            def test_repr(self):
                self.assertEqual(json.dumps(0.1), '0.1')
        ''')}), id="sj-new-test-module-for-suite-builder"),

    # ---------------------------------------------------------------- load_tests, __test__
    # simplejson/tests/test_errors.py: a load_tests that adds doctests to the module's tests
    pytest.param(Case(SJ_ERRORS, {SJ_ERRORS_PATH: text_of(SJ_ERRORS, SJ_ERRORS_PATH) + py("""


        def load_tests(loader, tests, pattern):
            import doctest
            tests.addTest(doctest.DocTestSuite(json.errors))
            return tests
        """)}), id="sj-load_tests-adds-doctests"),
    # Lib/test/test_json/__init__.py load_tests: the module loop written out
    pytest.param(Case(CP_FLOAT, edit(CP_FLOAT, CP_JSON, (
        "    for mod in (json, json.encoder, json.decoder):\n"
        "        suite.addTest(doctest.DocTestSuite(mod))\n",
        "    suite.addTest(doctest.DocTestSuite(json))\n"
        "    suite.addTest(doctest.DocTestSuite(json.encoder))\n"
        "    suite.addTest(doctest.DocTestSuite(json.decoder))\n"))),
        id="cp-load_tests-loop-unrolled"),
    # markdown tests/test_syntax/extensions/test_md_in_html.py load_tests: list reformatted
    pytest.param(Case(MD_MDHTML, edit(MD_MDHTML, MDHTML, (
        "    for test_class in [TestDefaultwMdInHTML, TestMdInHTML, "
        "TestMarkdownInHTMLPostProcessor]:",
        "    for test_class in [\n        TestDefaultwMdInHTML,\n        TestMdInHTML,\n"
        "        TestMarkdownInHTMLPostProcessor,\n    ]:"))), id="md-load_tests-list-reformatted"),
    # Lib/test/test_deque.py __test__: one more doctest
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "__test__ = {'libreftest' : libreftest}",
        "__test__ = {'libreftest' : libreftest,\n            'maxlentest' : '>>> deque(maxlen=2)\\n"
        "deque([], maxlen=2)\\n'}"))), id="cp-doctest-__test__-entry-added"),
    # django tests/utils_tests/test_datastructures.py: a helper class opted out of pytest
    pytest.param(Case(DJ_DATASTRUCT, edit(DJ_DATASTRUCT, DATASTRUCT, (
        "class CaseInsensitiveMappingTests(SimpleTestCase):\n",
        "class TestMappingFactory:\n"
        '    """Builds mappings for the tests below; not a test class."""\n\n'
        "    __test__ = False\n\n"
        "    def build(self, data):\n"
        "        return CaseInsensitiveMapping(data)\n\n\n"
        "class CaseInsensitiveMappingTests(SimpleTestCase):\n"))),
        id="dj-__test__-false-on-new-helper-class"),

    # ---------------------------------------------------------------- modules and discovery
    # django tests/basic/tests.py renamed to another discovered name
    pytest.param(Case(DJ_BASIC, _moved(DJ_BASIC, BASIC, "tests/basic/test_models.py")),
                 id="dj-tests-module-renamed-discovered"),
    # django tests/utils_tests/test_text.py renamed to another discovered name
    pytest.param(Case(DJ_TEXT, _moved(DJ_TEXT, TEXT, "tests/utils_tests/test_utils_text.py")),
                 id="dj-test-module-renamed-discovered"),
    # django tests/sessions_tests/tests.py moved into a new discovered app
    pytest.param(Case(DJ_SESSIONS, _moved(DJ_SESSIONS, SESSIONS, "tests/session_backends/tests.py",
                                          "tests/session_backends/__init__.py")),
                 id="dj-tests-moved-into-new-app"),
    # django tests/utils_tests/__init__.py gains a docstring
    pytest.param(Case(DJ_TEXT, {"tests/utils_tests/__init__.py":
                                '"""Tests for django.utils."""\n'}),
                 id="dj-app-package-init-docstring"),
    # markdown tests/test_syntax/blocks/__init__.py docstring edited
    pytest.param(Case(MD_HR, {"tests/test_syntax/blocks/__init__.py":
                              sub(MD_HEADER, "Markdown.\n", "Markdown.\n\nBlock-level syntax.\n")}),
                 id="md-test-package-init-docstring"),
    # markdown tests/__init__.py: the start directory of `unittest discover tests` needs none
    pytest.param(Case(MD_HR, {"tests/__init__.py": None}), id="md-start-dir-init-deleted"),
    # markdown with a pytest configuration: pytest collects directories without __init__.py
    pytest.param(Case({**MD_HR, "pytest.ini": "[pytest]\ntestpaths = tests\n"},
                      {"tests/test_syntax/blocks/__init__.py": None}),
                 id="md-pytest-project-package-init-deleted"),
    # django tests/utils_tests/files/__init__.py: a package of data, no test module below it
    pytest.param(Case({**DJ_TEXT, "tests/utils_tests/files/__init__.py": "",
                       "tests/utils_tests/files/words.py": 'WORDS = ["a", "b"]\n'},
                      {"tests/utils_tests/files/__init__.py": None}),
                 id="dj-data-package-init-deleted"),
    # django: a settings module for another backend, next to test_sqlite.py
    pytest.param(Case(DJ_TEXT, {"tests/test_postgres.py": TEST_SQLITE.replace(
        "django.db.backends.sqlite3", "django.db.backends.postgresql")}),
        id="dj-new-settings-module-for-another-backend"),
]

DJ_TOX_LABELS = {**DJ_TEXT, **edit(DJ_TEXT, "tox.ini", (
    "{envpython} runtests.py {posargs}", "{envpython} runtests.py basic expressions {posargs}"))}
DJ_TOX_START_AFTER = {**DJ_TEXT, **edit(DJ_TEXT, "tox.ini", (
    "{envpython} runtests.py {posargs}",
    "{envpython} runtests.py --start-after=sessions_tests {posargs}"))}

MORE_BENIGN_CASES = [
    # simplejson/tests/test_errors.py: the module gains doctest's __test__ table (more tests)
    pytest.param(Case(SJ_ERRORS, {SJ_ERRORS_PATH: text_of(SJ_ERRORS, SJ_ERRORS_PATH) + py("""


        __test__ = {'dumps_int': '>>> json.dumps(1)\\n\\'1\\'\\n'}
        """)}), id="sj-doctest-__test__-table-added"),
    # simplejson/tests/test_errors.py: expectedFailure under an alias, on a new test
    pytest.param(Case(SJ_ERRORS, edit(SJ_ERRORS, SJ_ERRORS_PATH, (
        "from unittest import TestCase\n",
        "from unittest import TestCase, expectedFailure as known_issue\n"), (
        "    def test_decode_error(self):",
        "    @known_issue\n"
        "    def test_decode_error_position_of_nested_value(self):\n"
        "        with self.assertRaises(json.JSONDecodeError) as cm:\n"
        "            json.loads('[1, {\"a\": }]')\n"
        "        self.assertEqual(cm.exception.pos, 9)\n\n"
        "    def test_decode_error(self):"))), id="sj-expectedFailure-alias-on-new-test"),
    # Lib/test/test_deque.py load_tests: doctests of one more module
    pytest.param(Case(CP_DEQUE, edit(CP_DEQUE, CP_DEQUE_PATH, (
        "    tests.addTest(doctest.DocTestSuite())\n",
        "    tests.addTest(doctest.DocTestSuite())\n"
        "    tests.addTest(doctest.DocTestSuite(seq_tests))\n"))),
        id="cp-load_tests-adds-another-doctest-suite"),
    # django tests/expressions/tests.py, skipIfDBFeature already imported: a new test uses it
    pytest.param(Case(DJ_EXPRESSIONS_BOTH, appended(edit(
        DJ_EXPRESSIONS_BOTH, EXPRESSIONS, (
            "from django.db.models import F, Value\n",
            "from django.db import NotSupportedError\nfrom django.db.models import F, Value\n")),
        EXPRESSIONS, '''
        @skipIfDBFeature("supports_temporal_subtraction")
        def test_temporal_subtraction_not_supported(self):
            with self.assertRaises(NotSupportedError):
                list(Experiment.objects.annotate(d=F("end") - F("start")))
        ''')), id="dj-skipIfDBFeature-already-imported-on-new-test"),
    # django tests/forms_tests/widget_tests/test_numberinput.py: renamed, still collected
    pytest.param(Case(DJ_WIDGETS, edit(DJ_WIDGETS, NUMBERINPUT, (
        "    def test_fieldset(self):", "    def test_fieldset_rendering(self):"))),
        id="dj-test-of-class-with-imported-base-renamed-within-collection"),
    # django tests/forms_tests/widget_tests/test_widget.py::test_format_value
    pytest.param(Case(DJ_WIDGETS, edit(DJ_WIDGETS, WIDGET, (
        '        self.assertEqual(widget.format_value(42.5), "42.5")\n',
        '        self.assertEqual(widget.format_value(42.5), "42.5")\n'
        '        self.assertEqual(widget.format_value(0), "0")\n'))),
        id="dj-assert-added-to-class-with-imported-base"),
    # simplejson/tests/_helpers.py skip_if_speedups_missing: docstring added
    pytest.param(Case(SJ_SPEEDUPS, edit(SJ_SPEEDUPS, SJ_HELPERS_PATH, (
        "def skip_if_speedups_missing(func):\n",
        "def skip_if_speedups_missing(func):\n"
        '    """Skip the decorated test when the C extension is not built."""\n'))),
        id="sj-skip-decorator-helper-docstring"),
    # simplejson/tests/_helpers.py skip_if_speedups_missing: the skip message reworded
    pytest.param(Case(SJ_SPEEDUPS, edit(SJ_SPEEDUPS, SJ_HELPERS_PATH, (
        'raise unittest.SkipTest("C Extension not available")',
        'raise unittest.SkipTest("the C extension is not built")'))),
        id="sj-skip-decorator-helper-message-reworded"),
    # simplejson/tests/_helpers.py has_speedups: a docstring, the same condition
    pytest.param(Case(SJ_SPEEDUPS, edit(SJ_SPEEDUPS, SJ_HELPERS_PATH, (
        "def has_speedups():\n",
        'def has_speedups():\n    """Whether the C encoder is built."""\n'))),
        id="sj-skip-helper-condition-docstring"),
    # markdown tests/test_syntax/extensions/test_code_hilite.py setUp: skip message reworded
    pytest.param(Case(MD_HILITE, edit(MD_HILITE, HILITE, (
        "self.skipTest(f'Pygments=={required_pygments_version} is required')",
        "self.skipTest(f'Pygments=={required_pygments_version} is required for these tests')"))),
        id="md-setUp-skipTest-message-reworded"),
    # django tox.ini, tox.ini allowed: one more label (runs more)
    pytest.param(Case(DJ_TOX_LABELS, edit(DJ_TOX_LABELS, "tox.ini", (
        "{envpython} runtests.py basic expressions {posargs}",
        "{envpython} runtests.py basic expressions i18n {posargs}")), extra=ALLOW_RUNNERS),
        id="dj-allowed-tox-runtests-label-added"),
    # django tox.ini, tox.ini allowed: --start-after dropped (runs more)
    pytest.param(Case(DJ_TOX_START_AFTER, edit(DJ_TOX_START_AFTER, "tox.ini", (
        "{envpython} runtests.py --start-after=sessions_tests {posargs}",
        "{envpython} runtests.py {posargs}")), extra=ALLOW_RUNNERS),
        id="dj-allowed-tox-runtests-start-after-dropped"),
    # django tox.ini, tox.ini allowed: --shuffle only reorders
    pytest.param(Case(DJ_TEXT, edit(DJ_TEXT, "tox.ini", (
        "{envpython} runtests.py {posargs}", "{envpython} runtests.py --shuffle {posargs}")),
        extra=ALLOW_RUNNERS), id="dj-allowed-tox-runtests-shuffle"),
    # markdown makefile, makefile allowed: the coverage report shows less
    pytest.param(Case(MD_HR, edit(MD_HR, "makefile", (
        "\tcoverage report --show-missing\n", "\tcoverage report --show-missing --skip-covered\n")),
        extra=ALLOW_RUNNERS), id="md-allowed-makefile-coverage-report-option"),
    # markdown tox.ini, tox.ini allowed: unittest -b only buffers output
    pytest.param(Case(MD_LEGACY, edit(MD_LEGACY, "tox.ini", (
        "-m unittest discover {toxinidir}/tests\n", "-m unittest discover -b {toxinidir}/tests\n")),
        extra=ALLOW_RUNNERS), id="md-allowed-tox-unittest-buffer"),
    # django tests/runtests.py, runtests.py allowed: help text reworded
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, "tests/runtests.py", (
        'help="Run tests starting after the specified top-level module.",',
        'help="Run tests starting after (not including) the specified top-level module.",')),
        extra=ALLOW_RUNNERS), id="dj-allowed-runtests-help-text-reworded"),
    # django tests/runtests.py, runtests.py allowed: the same settings default, other quotes
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, "tests/runtests.py", (
        'os.environ.setdefault("DJANGO_SETTINGS_MODULE", "test_sqlite")',
        "os.environ.setdefault('DJANGO_SETTINGS_MODULE', 'test_sqlite')")),
        extra=ALLOW_RUNNERS), id="dj-allowed-runtests-settings-default-requoted"),
    # django tests/test_sqlite.py, allowed: DATABASES laid out on fewer lines, a docstring
    pytest.param(Case(DJ_TIMESINCE, edit(DJ_TIMESINCE, "tests/test_sqlite.py", (
        "# This is an example test settings file for use with the Django test suite.\n",
        '"""Test settings for the Django test suite."""\n'), (
        '    "default": {\n        "ENGINE": "django.db.backends.sqlite3",\n    },\n',
        '    "default": {"ENGINE": "django.db.backends.sqlite3"},\n')), extra=ALLOW_RUNNERS),
        id="dj-allowed-test-settings-reformatted"),
    # markdown makefile, makefile allowed: discovery starts higher up (runs more)
    pytest.param(Case(MD_HR, edit(MD_HR, "makefile", (
        "unittest discover tests\n", "unittest discover .\n")), extra=ALLOW_RUNNERS),
        id="md-allowed-makefile-discover-start-dir-widened"),
]



@pytest.mark.parametrize("case", BENIGN_CASES + MORE_BENIGN_CASES + VOCABULARY_BENIGN_CASES)
def test_benign_change_is_not_rejected(scored: ScoreCase, case: Case) -> None:
    report = scored(case)
    assert rejects(report) <= ALWAYS, describe(report)
