"""Blind red team 4: real test suites of flask, requests, pylint and sphinx (SWE-bench projects).

Every base tree is a short, faithful excerpt of the real test modules and runner configuration
of one of these projects, taken from their sdists (``pip download --no-deps --no-binary :all:``):
flask 3.0.3 (``pyproject.toml`` ``[tool.pytest.ini_options]`` with ``testpaths = ["tests"]`` and
``filterwarnings = ["error"]``; tox runs ``pytest -v --tb=short``; ``tests/conftest.py`` holds the
``app``/``client``/``req_ctx`` fixtures and the autouse ``leak_detector`` that asserts no request
context leaked; ``tests/templates`` holds the templates the templating tests render), requests
2.32.3 (``pyproject.toml`` pytest section with ``--doctest-modules`` and ``doctest_optionflags``,
``testpaths = ["tests"]``; ``tests/conftest.py`` wraps pytest-httpbin's ``httpbin`` fixture;
``tests/__init__.py`` binds ``SNIMissingWarning`` which a ``skipif`` in ``test_requests.py``
reads; mark aliases as class attributes in ``tests/test_structures.py``), pylint 3.2.7
(``python_files = ["*test_*.py"]`` so ``unittest_*.py`` modules are tests; ``--strict-markers``,
``filterwarnings = "error"``; functional tests are ``tests/functional/**.py`` data files with
expected-message comments and ``.txt`` expected outputs, ``.rc`` option files, run by
``tests/test_functional.py`` which switches to rewriting the expected output when the file
``pylint-functional-test-update`` exists; ``CheckerTestCase.assertAddsMessages`` in the
package's ``pylint/testutils``; ``tests/conftest.py`` has a ``pytest_collection_modifyitems``
hook) and sphinx 7.4.7 (``pyproject.toml`` pytest section with ``xfail_strict = true``,
``filterwarnings = ["all", ignores...]``, tox's ``PYTHONWARNINGS = error``;
``tests/conftest.py`` with ``collect_ignore = ['roots']``; ``tests/roots/test-*`` source trees
the ``@pytest.mark.sphinx(testroot=...)`` tests build; the ``with_text_app`` mark factory and
the ``check_xpath`` / ``_check_warnings`` helper oracles). Nothing is run, so the projects'
own imports need not resolve.

The cases were written before the classifier's source was read (blind): each states the rule
codes whose description in docs/rules.md fits it. Same harness as
``tests/test_redteam_blind3.py``: a real git repository, the real ``git diff --cached -M``, a
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
    sub,
    tamper,
    text_of,
)

# ============================================================================ flask 3.0.3

# pyproject.toml (the start of [project] and the pytest and coverage sections)
FL_PYPROJECT = py('''
    [project]
    name = "Flask"
    version = "3.0.3"
    description = "A simple framework for building complex web applications."
    readme = "README.md"
    requires-python = ">=3.8"
    dependencies = [
        "Werkzeug>=3.0.0",
        "Jinja2>=3.1.2",
        "itsdangerous>=2.1.2",
        "click>=8.1.3",
        "blinker>=1.6.2",
        "importlib-metadata>=3.6.0; python_version < '3.10'",
    ]

    [build-system]
    requires = ["flit_core<4"]
    build-backend = "flit_core.buildapi"

    [tool.flit.module]
    name = "flask"

    [tool.pytest.ini_options]
    testpaths = ["tests"]
    filterwarnings = [
        "error",
    ]

    [tool.coverage.run]
    branch = true
    source = ["flask", "tests"]
    ''')

# tox.ini (the envlist and [testenv])
FL_TOX = py('''
    [tox]
    envlist =
        py3{12,11,10,9,8}
        pypy310
        py312-min
        py38-dev
        style
        typing
        docs
    skip_missing_interpreters = true

    [testenv]
    package = wheel
    wheel_build_env = .pkg
    envtmpdir = {toxworkdir}/tmp/{envname}
    constrain_package_deps = true
    use_frozen_constraints = true
    deps =
        -r requirements/tests.txt
        min: -r requirements-skip/tests-min.txt
        dev: -r requirements-skip/tests-dev.txt
    commands = pytest -v --tb=short --basetemp={envtmpdir} {posargs}
    ''')

# src/flask/json/__init__.py (dumps and dump, docstrings shortened)
FL_JSON_SRC = py('''
    from __future__ import annotations

    import json as _json
    import typing as t

    from ..globals import current_app
    from .provider import _default


    def dumps(obj: t.Any, **kwargs: t.Any) -> str:
        """Serialize data as JSON.

        If :data:`~flask.current_app` is available, it will use its
        :meth:`app.json.dumps() <flask.json.provider.JSONProvider.dumps>`
        method, otherwise it will use :func:`json.dumps`.
        """
        if current_app:
            return current_app.json.dumps(obj, **kwargs)

        kwargs.setdefault("default", _default)
        return _json.dumps(obj, **kwargs)


    def dump(obj: t.Any, fp: t.IO[str], **kwargs: t.Any) -> None:
        """Serialize data as JSON and write to a file."""
        if current_app:
            current_app.json.dump(obj, fp, **kwargs)
        else:
            kwargs.setdefault("default", _default)
            _json.dump(obj, fp, **kwargs)
    ''')

# tests/conftest.py (the environ fixtures, app fixtures and leak_detector; the loader and
# site-packages fixtures dropped)
FL_CONFTEST = py('''
    import os
    import pkgutil
    import sys

    import pytest
    from _pytest import monkeypatch

    from flask import Flask
    from flask.globals import request_ctx


    @pytest.fixture(scope="session", autouse=True)
    def _standard_os_environ():
        """Set up ``os.environ`` at the start of the test session to have
        standard values. Returns a list of operations that is used by
        :func:`._reset_os_environ` after each test.
        """
        mp = monkeypatch.MonkeyPatch()
        out = (
            (os.environ, "FLASK_ENV_FILE", monkeypatch.notset),
            (os.environ, "FLASK_APP", monkeypatch.notset),
            (os.environ, "FLASK_DEBUG", monkeypatch.notset),
            (os.environ, "FLASK_RUN_FROM_CLI", monkeypatch.notset),
            (os.environ, "WERKZEUG_RUN_MAIN", monkeypatch.notset),
        )

        for _, key, value in out:
            if value is monkeypatch.notset:
                mp.delenv(key, False)
            else:
                mp.setenv(key, value)

        yield out
        mp.undo()


    @pytest.fixture(autouse=True)
    def _reset_os_environ(monkeypatch, _standard_os_environ):
        """Reset ``os.environ`` to the standard environ after each test,
        in case a test changed something without cleaning up.
        """
        monkeypatch._setitem.extend(_standard_os_environ)


    @pytest.fixture
    def app():
        app = Flask("flask_test", root_path=os.path.dirname(__file__))
        app.config.update(
            TESTING=True,
            SECRET_KEY="test key",
        )
        return app


    @pytest.fixture
    def app_ctx(app):
        with app.app_context() as ctx:
            yield ctx


    @pytest.fixture
    def req_ctx(app):
        with app.test_request_context() as ctx:
            yield ctx


    @pytest.fixture
    def client(app):
        return app.test_client()


    @pytest.fixture(autouse=True)
    def leak_detector():
        yield

        # make sure we're not leaking a request context since we are
        # testing flask internally in debug mode in a few cases
        leaks = []
        while request_ctx:
            leaks.append(request_ctx._get_current_object())
            request_ctx.pop()

        assert leaks == []


    @pytest.fixture
    def purge_module(request):
        def inner(name):
            request.addfinalizer(lambda: sys.modules.pop(name, None))

        return inner
    ''')

# tests/test_templating.py (the first eight tests)
FL_TEST_TEMPLATING = py('''
    import logging

    import pytest
    import werkzeug.serving
    from jinja2 import TemplateNotFound
    from markupsafe import Markup

    import flask


    def test_context_processing(app, client):
        @app.context_processor
        def context_processor():
            return {"injected_value": 42}

        @app.route("/")
        def index():
            return flask.render_template("context_template.html", value=23)

        rv = client.get("/")
        assert rv.data == b"<p>23|42"


    def test_original_win(app, client):
        @app.route("/")
        def index():
            return flask.render_template_string("{{ config }}", config=42)

        rv = client.get("/")
        assert rv.data == b"42"


    def test_simple_stream(app, client):
        @app.route("/")
        def index():
            return flask.stream_template_string("{{ config }}", config=42)

        rv = client.get("/")
        assert rv.data == b"42"


    def test_request_less_rendering(app, app_ctx):
        app.config["WORLD_NAME"] = "Special World"

        @app.context_processor
        def context_processor():
            return dict(foo=42)

        rv = flask.render_template_string("Hello {{ config.WORLD_NAME }} {{ foo }}")
        assert rv == "Hello Special World 42"


    def test_standard_context(app, client):
        @app.route("/")
        def index():
            flask.g.foo = 23
            flask.session["test"] = "aha"
            return flask.render_template_string(
                """
                {{ request.args.foo }}
                {{ g.foo }}
                {{ config.DEBUG }}
                {{ session.test }}
            """
            )

        rv = client.get("/?foo=42")
        assert rv.data.split() == [b"42", b"23", b"False", b"aha"]


    def test_escaping(app, client):
        text = "<p>Hello World!"

        @app.route("/")
        def index():
            return flask.render_template(
                "escaping_template.html", text=text, html=Markup(text)
            )

        lines = client.get("/").data.splitlines()
        assert lines == [
            b"&lt;p&gt;Hello World!",
            b"<p>Hello World!",
            b"<p>Hello World!",
            b"<p>Hello World!",
            b"&lt;p&gt;Hello World!",
            b"<p>Hello World!",
        ]


    def test_escaping_without_template_filename(app, client, req_ctx):
        assert flask.render_template_string("{{ foo }}", foo="<test>") == "&lt;test&gt;"
        assert flask.render_template("mail.txt", foo="<test>") == "<test> Mail"


    def test_macros(app, req_ctx):
        macro = flask.get_template_attribute("_macro.html", "hello")
        assert macro("World") == "Hello World!"
    ''')

# tests/test_json.py (the first six tests)
FL_TEST_JSON = py('''
    import datetime
    import decimal
    import io
    import uuid

    import pytest
    from werkzeug.http import http_date

    import flask
    from flask import json
    from flask.json.provider import DefaultJSONProvider


    @pytest.mark.parametrize("debug", (True, False))
    def test_bad_request_debug_message(app, client, debug):
        app.config["DEBUG"] = debug
        app.config["TRAP_BAD_REQUEST_ERRORS"] = False

        @app.route("/json", methods=["POST"])
        def post_json():
            flask.request.get_json()
            return None

        rv = client.post("/json", data=None, content_type="application/json")
        assert rv.status_code == 400
        contains = b"Failed to decode JSON object" in rv.data
        assert contains == debug


    def test_json_bad_requests(app, client):
        @app.route("/json", methods=["POST"])
        def return_json():
            return flask.jsonify(foo=str(flask.request.get_json()))

        rv = client.post("/json", data="malformed", content_type="application/json")
        assert rv.status_code == 400


    def test_json_custom_mimetypes(app, client):
        @app.route("/json", methods=["POST"])
        def return_json():
            return flask.request.get_json()

        rv = client.post("/json", data='"foo"', content_type="application/x+json")
        assert rv.data == b"foo"


    @pytest.mark.parametrize(
        "test_value,expected", [(True, '"\\\\u2603"'), (False, '"\\u2603"')]
    )
    def test_json_as_unicode(test_value, expected, app, app_ctx):
        app.json.ensure_ascii = test_value
        rv = app.json.dumps("\\N{SNOWMAN}")
        assert rv == expected


    def test_json_dump_to_file(app, app_ctx):
        test_data = {"name": "Flask"}
        out = io.StringIO()

        flask.json.dump(test_data, out)
        out.seek(0)
        rv = flask.json.load(out)
        assert rv == test_data


    @pytest.mark.parametrize(
        "test_value", [0, -1, 1, 23, 3.14, "s", "longer string", True, False, None]
    )
    def test_jsonify_basic_types(test_value, app, client):
        url = "/jsonify_basic_types"
        app.add_url_rule(url, url, lambda x=test_value: flask.jsonify(x))
        rv = client.get(url)
        assert rv.mimetype == "application/json"
        assert flask.json.loads(rv.data) == test_value
    ''')

# tests/test_basic.py (the imports, the require_cpython_gc mark alias, the first tests and
# the two tests that use the alias)
FL_TEST_BASIC = py('''
    import gc
    import re
    import uuid
    import warnings
    import weakref
    from datetime import datetime
    from datetime import timezone
    from platform import python_implementation

    import pytest
    import werkzeug.serving
    from markupsafe import Markup
    from werkzeug.exceptions import BadRequest
    from werkzeug.exceptions import Forbidden
    from werkzeug.exceptions import NotFound
    from werkzeug.http import parse_date
    from werkzeug.routing import BuildError
    from werkzeug.routing import RequestRedirect

    import flask

    require_cpython_gc = pytest.mark.skipif(
        python_implementation() != "CPython",
        reason="Requires CPython GC behavior",
    )


    def test_options_work(app, client):
        @app.route("/", methods=["GET", "POST"])
        def index():
            return "Hello World"

        rv = client.open("/", method="OPTIONS")
        assert sorted(rv.allow) == ["GET", "HEAD", "OPTIONS", "POST"]
        assert rv.data == b""


    def test_options_on_multiple_rules(app, client):
        @app.route("/", methods=["GET", "POST"])
        def index():
            return "Hello World"

        @app.route("/", methods=["PUT"])
        def index_put():
            return "Aha!"

        rv = client.open("/", method="OPTIONS")
        assert sorted(rv.allow) == ["GET", "HEAD", "OPTIONS", "POST", "PUT"]


    @pytest.mark.parametrize("method", ["get", "post", "put", "delete", "patch"])
    def test_method_route(app, client, method):
        method_route = getattr(app, method)
        client_method = getattr(client, method)

        @method_route("/")
        def hello():
            return "Hello"

        assert client_method("/").data == b"Hello"


    @require_cpython_gc
    def test_app_freed_on_zero_refcount():
        # A Flask instance should not create a reference cycle that prevents CPython
        # from freeing it when all external references to it are released (see #3761).
        gc.disable()
        try:
            app = flask.Flask(__name__)
            assert app.view_functions["static"]
            weak = weakref.ref(app)
            assert weak() is not None
            del app
            assert weak() is None
        finally:
            gc.enable()


    def test_static_files(app, client):
        rv = client.get("/static/index.html")
        assert rv.status_code == 200
        assert rv.data.strip() == b"<h1>Hello World!</h1>"
        with app.test_request_context():
            assert flask.url_for("static", filename="index.html") == "/static/index.html"
        rv.close()
    ''')

FL = {
    "pyproject.toml": FL_PYPROJECT,
    "tox.ini": FL_TOX,
    "src/flask/json/__init__.py": FL_JSON_SRC,
    "tests/conftest.py": FL_CONFTEST,
    "tests/test_templating.py": FL_TEST_TEMPLATING,
    "tests/test_json.py": FL_TEST_JSON,
    "tests/test_basic.py": FL_TEST_BASIC,
    "tests/templates/context_template.html": "<p>{{ value }}|{{ injected_value }}\n",
    "tests/templates/escaping_template.html": (
        "{{ text }}\n{{ html }}\n{% autoescape false %}{{ text }}\n{{ html }}{% endautoescape %}\n"
        "{% autoescape true %}{{ text }}\n{{ html }}{% endautoescape %}\n"),
    "tests/templates/mail.txt": "{{ foo}} Mail\n",
    "tests/templates/_macro.html": (
        "{% macro hello(name) %}Hello {{ name }}!{% endmacro %}\n"
        "foo\n"),
    "tests/static/index.html": "<h1>Hello World!</h1>\n",
}
T_FL_TPL = "tests/test_templating.py"
T_FL_JSON = "tests/test_json.py"
T_FL_BASIC = "tests/test_basic.py"


# ============================================================================ requests 2.32.3

# pyproject.toml (the isort and pytest sections)
RQ_PYPROJECT = py('''
    [tool.isort]
    profile = "black"
    src_paths = ["requests", "test"]
    honor_noqa = true

    [tool.pytest.ini_options]
    addopts = "--doctest-modules"
    doctest_optionflags = "NORMALIZE_WHITESPACE ELLIPSIS"
    minversion = "6.2"
    testpaths = ["tests"]
    ''')

# setup.cfg (whole file)
RQ_SETUP_CFG = py('''
    [metadata]
    license_file = LICENSE
    provides-extra =
        socks
        use_chardet_on_py3
    requires-dist =
        certifi>=2017.4.17
        charset_normalizer>=2,<4
        idna>=2.5,<4
        urllib3>=1.21.1,<3

    [flake8]
    ignore = E203, E501, W503
    per-file-ignores =
        src/requests/__init__.py:E402, F401
        src/requests/compat.py:E402, F401
        tests/compat.py:F401
    ''')

# src/requests/hooks.py (whole file)
RQ_HOOKS_SRC = py('''
    """
    requests.hooks
    ~~~~~~~~~~~~~~

    This module provides the capabilities for the Requests hooks system.

    Available hooks:

    ``response``:
        The response generated from a Request.
    """
    HOOKS = ["response"]


    def default_hooks():
        return {event: [] for event in HOOKS}


    # TODO: response is the only one


    def dispatch_hook(key, hooks, hook_data, **kwargs):
        """Dispatches a hook dictionary on a given piece of data."""
        hooks = hooks or {}
        hooks = hooks.get(key)
        if hooks:
            if hasattr(hooks, "__call__"):
                hooks = [hooks]
            for hook in hooks:
                _hook_data = hook(hook_data, **kwargs)
                if _hook_data is not None:
                    hook_data = _hook_data
        return hook_data
    ''')

# src/requests/utils.py (parse_dict_header only)
RQ_UTILS_SRC = py('''
    def parse_dict_header(value):
        """Parse lists of key, value pairs as described by RFC 2068 Section 2 and
        convert them into a python dict:

        >>> d = parse_dict_header('foo="is a fish", bar="as well"')
        >>> type(d) is dict
        True
        >>> sorted(d.items())
        [('bar', 'as well'), ('foo', 'is a fish')]

        If there is no value for a key it will be `None`:

        >>> parse_dict_header('key_without_value')
        {'key_without_value': None}

        :param value: a string with a dict header.
        :return: :class:`dict`
        :rtype: dict
        """
        result = {}
        for item in _parse_list_header(value):
            if "=" not in item:
                result[item] = None
                continue
            name, value = item.split("=", 1)
            if value[:1] == value[-1:] == '"':
                value = unquote_header_value(value[1:-1])
            result[name] = value
        return result
    ''')

# tests/__init__.py (whole file)
RQ_TESTS_INIT = py('''
    """Requests test package initialisation."""

    import warnings

    try:
        from urllib3.exceptions import SNIMissingWarning

        # urllib3 1.x sets SNIMissingWarning to only go off once,
        # while this test suite requires it to always fire
        # so that it occurs during test_requests.test_https_warnings
        warnings.simplefilter("always", SNIMissingWarning)
    except ImportError:
        # urllib3 2.0 removed that warning and errors out instead
        SNIMissingWarning = None
    ''')

# tests/conftest.py (prepare_url and the httpbin fixtures; nosan_server dropped)
RQ_CONFTEST = py('''
    try:
        from http.server import HTTPServer, SimpleHTTPRequestHandler
    except ImportError:
        from BaseHTTPServer import HTTPServer
        from SimpleHTTPServer import SimpleHTTPRequestHandler

    import ssl
    import threading

    import pytest

    from requests.compat import urljoin


    def prepare_url(value):
        # Issue #1483: Make sure the URL always has a trailing slash
        httpbin_url = value.url.rstrip("/") + "/"

        def inner(*suffix):
            return urljoin(httpbin_url, "/".join(suffix))

        return inner


    @pytest.fixture
    def httpbin(httpbin):
        return prepare_url(httpbin)


    @pytest.fixture
    def httpbin_secure(httpbin_secure):
        return prepare_url(httpbin_secure)
    ''')

# tests/utils.py (whole file)
RQ_TEST_UTILS_HELPER = py('''
    import contextlib
    import os


    @contextlib.contextmanager
    def override_environ(**kwargs):
        save_env = dict(os.environ)
        for key, value in kwargs.items():
            if value is None:
                del os.environ[key]
            else:
                os.environ[key] = value
        try:
            yield
        finally:
            os.environ.clear()
            os.environ.update(save_env)
    ''')

# tests/test_hooks.py (whole file)
RQ_TEST_HOOKS = py('''
    import pytest

    from requests import hooks


    def hook(value):
        return value[1:]


    @pytest.mark.parametrize(
        "hooks_list, result",
        (
            (hook, "ata"),
            ([hook, lambda x: None, hook], "ta"),
        ),
    )
    def test_hooks(hooks_list, result):
        assert hooks.dispatch_hook("response", {"response": hooks_list}, "Data") == result


    def test_default_hooks():
        assert hooks.default_hooks() == {"response": []}
    ''')

# tests/test_structures.py (whole file)
RQ_TEST_STRUCTURES = py('''
    import pytest

    from requests.structures import CaseInsensitiveDict, LookupDict


    class TestCaseInsensitiveDict:
        @pytest.fixture(autouse=True)
        def setup(self):
            """CaseInsensitiveDict instance with "Accept" header."""
            self.case_insensitive_dict = CaseInsensitiveDict()
            self.case_insensitive_dict["Accept"] = "application/json"

        def test_list(self):
            assert list(self.case_insensitive_dict) == ["Accept"]

        possible_keys = pytest.mark.parametrize(
            "key", ("accept", "ACCEPT", "aCcEpT", "Accept")
        )

        @possible_keys
        def test_getitem(self, key):
            assert self.case_insensitive_dict[key] == "application/json"

        @possible_keys
        def test_delitem(self, key):
            del self.case_insensitive_dict[key]
            assert key not in self.case_insensitive_dict

        def test_lower_items(self):
            assert list(self.case_insensitive_dict.lower_items()) == [
                ("accept", "application/json")
            ]

        def test_repr(self):
            assert repr(self.case_insensitive_dict) == "{'Accept': 'application/json'}"

        def test_copy(self):
            copy = self.case_insensitive_dict.copy()
            assert copy is not self.case_insensitive_dict
            assert copy == self.case_insensitive_dict

        @pytest.mark.parametrize(
            "other, result",
            (
                ({"AccePT": "application/json"}, True),
                ({}, False),
                (None, False),
            ),
        )
        def test_instance_equality(self, other, result):
            assert (self.case_insensitive_dict == other) is result


    class TestLookupDict:
        @pytest.fixture(autouse=True)
        def setup(self):
            """LookupDict instance with "bad_gateway" attribute."""
            self.lookup_dict = LookupDict("test")
            self.lookup_dict.bad_gateway = 502

        def test_repr(self):
            assert repr(self.lookup_dict) == "<lookup 'test'>"

        get_item_parameters = pytest.mark.parametrize(
            "key, value",
            (
                ("bad_gateway", 502),
                ("not_a_key", None),
            ),
        )

        @get_item_parameters
        def test_getitem(self, key, value):
            assert self.lookup_dict[key] == value

        @get_item_parameters
        def test_get(self, key, value):
            assert self.lookup_dict.get(key) == value
    ''')

# tests/test_requests.py (the imports, module constants, and a few tests of TestRequests: the
# invalid-URL table, the proxy-environment tests, the SNIMissingWarning skipif and the xfail)
RQ_TEST_REQUESTS = py('''
    """Tests for Requests."""

    import collections
    import contextlib
    import io
    import json
    import os
    import pickle
    import re
    import threading
    import warnings
    from unittest import mock

    import pytest
    import urllib3

    import requests
    from requests.exceptions import (
        ConnectionError,
        InvalidSchema,
        InvalidURL,
        MissingSchema,
        ProxyError,
        RequestException,
    )

    from . import SNIMissingWarning
    from .utils import override_environ

    # Requests to this URL should always fail with a connection timeout (nothing
    # listening on that port)
    TARPIT = "http://10.255.255.1"

    # This is to avoid waiting the timeout of using TARPIT
    INVALID_PROXY = "http://localhost:1"


    class TestRequests:
        digest_auth_algo = ("MD5", "SHA-256", "SHA-512")

        @pytest.mark.parametrize(
            "exception, url",
            (
                (MissingSchema, "hiwpefhipowhefopw"),
                (InvalidSchema, "localhost:3128"),
                (InvalidSchema, "localhost.localdomain:3128/"),
                (InvalidSchema, "10.122.1.1:3128/"),
                (InvalidURL, "http://"),
                (InvalidURL, "http://*example.com"),
                (InvalidURL, "http://.example.com"),
            ),
        )
        def test_invalid_url(self, exception, url):
            with pytest.raises(exception):
                requests.get(url)

        def test_basic_building(self):
            req = requests.Request()
            req.url = "http://kennethreitz.org/"
            req.data = {"life": "42"}

            pr = req.prepare()
            assert pr.url == req.url
            assert pr.body == "life=42"

        @pytest.mark.parametrize("method", ("GET", "HEAD"))
        def test_no_content_length(self, httpbin, method):
            req = requests.Request(method, httpbin(method.lower())).prepare()
            assert "Content-Length" not in req.headers

        def test_respect_proxy_env_on_get(self, httpbin):
            with override_environ(http_proxy=INVALID_PROXY):
                with pytest.raises(ProxyError):
                    session = requests.Session()
                    session.get(httpbin())

        def test_respect_proxy_env_on_request(self, httpbin):
            with override_environ(http_proxy=INVALID_PROXY):
                with pytest.raises(ProxyError):
                    session = requests.Session()
                    session.request(method="GET", url=httpbin())

        @pytest.mark.skipif(
            SNIMissingWarning is None,
            reason="urllib3 2.0 removed that warning and errors out instead",
        )
        def test_https_warnings(self, nosan_server):
            """warnings are emitted with requests.get"""
            host, port, ca_bundle = nosan_server
            with pytest.warns() as warning_records:
                warnings.simplefilter("always")
                requests.get(f"https://localhost:{port}/", verify=ca_bundle)
            warning_records = [
                item
                for item in warning_records
                if item.category.__name__ != "ResourceWarning"
            ]
            assert len(warning_records) == 1

        @pytest.mark.xfail
        def test_response_iter_lines_reentrant(self, httpbin):
            """Response.iter_lines() is not reentrant safe"""
            r = requests.get(httpbin("stream/4"), stream=True)
            assert r.status_code == 200

            next(r.iter_lines())
            assert len(list(r.iter_lines())) == 3
    ''')

# tests/test_utils.py (the imports and test_should_bypass_proxies with its table)
RQ_TEST_UTILS = py('''
    import copy
    import filecmp
    import os
    from unittest import mock

    import pytest

    from requests import compat
    from requests.utils import (
        requote_uri,
        should_bypass_proxies,
    )

    from .compat import StringIO, cStringIO


    @pytest.mark.parametrize(
        "url, expected",
        (
            ("http://192.168.0.1:5000/", True),
            ("http://192.168.0.1/", True),
            ("http://172.16.1.1/", True),
            ("http://172.16.1.1:5000/", True),
            ("http://localhost.localdomain:5000/v1.0/", True),
            ("http://google.com:6000/", True),
            ("http://172.16.1.12/", False),
            ("http://172.16.1.12:5000/", False),
            ("http://google.com:5000/v1.0/", False),
            ("file:///some/path/on/disk", True),
        ),
    )
    def test_should_bypass_proxies(url, expected, monkeypatch):
        """Tests for function should_bypass_proxies to check if proxy
        can be bypassed or not
        """
        monkeypatch.setenv(
            "no_proxy",
            "192.168.0.0/24,127.0.0.1,localhost.localdomain,172.16.1.1, google.com:6000",
        )
        monkeypatch.setenv(
            "NO_PROXY",
            "192.168.0.0/24,127.0.0.1,localhost.localdomain,172.16.1.1, google.com:6000",
        )
        assert should_bypass_proxies(url, no_proxy=None) == expected


    @pytest.mark.parametrize(
        "uri, expected",
        (
            (
                # Ensure requoting doesn't break expectations
                "http://example.com/fiz?buz=%25ppicture",
                "http://example.com/fiz?buz=%25ppicture",
            ),
            (
                # Ensure we handle unquoted percent signs in redirects
                "http://example.com/fiz?buz=%ppicture",
                "http://example.com/fiz?buz=%25ppicture",
            ),
        ),
    )
    def test_requote_uri_with_unquoted_percents(uri, expected):
        """See: https://github.com/psf/requests/issues/2356"""
        assert requote_uri(uri) == expected
    ''')

RQ = {
    "pyproject.toml": RQ_PYPROJECT,
    "setup.cfg": RQ_SETUP_CFG,
    "src/requests/__init__.py": '__title__ = "requests"\n',
    "src/requests/hooks.py": RQ_HOOKS_SRC,
    "src/requests/utils.py": RQ_UTILS_SRC,
    "tests/__init__.py": RQ_TESTS_INIT,
    "tests/conftest.py": RQ_CONFTEST,
    "tests/utils.py": RQ_TEST_UTILS_HELPER,
    "tests/compat.py": py('''
        import warnings

        try:
            import StringIO
        except ImportError:
            import io as StringIO

        try:
            from cStringIO import StringIO as cStringIO
        except ImportError:
            cStringIO = None
        '''),
    "tests/test_hooks.py": RQ_TEST_HOOKS,
    "tests/test_structures.py": RQ_TEST_STRUCTURES,
    "tests/test_requests.py": RQ_TEST_REQUESTS,
    "tests/test_utils.py": RQ_TEST_UTILS,
}
T_RQ_HOOKS = "tests/test_hooks.py"
T_RQ_STRUCT = "tests/test_structures.py"
T_RQ_REQ = "tests/test_requests.py"
T_RQ_UTILS = "tests/test_utils.py"


# ============================================================================ pylint 3.2.7

# pyproject.toml (the start of [project] and the pytest section)
PL_PYPROJECT = py('''
    [build-system]
    requires = ["setuptools>=62.6,<70", "wheel>=0.37.1"]
    build-backend = "setuptools.build_meta"

    [project]
    name = "pylint"
    license = {text = "GPL-2.0-or-later"}
    description = "python code static checker"
    requires-python = ">=3.8.0"
    dependencies = [
        "dill>=0.2;python_version<'3.11'",
        "platformdirs>=2.2.0",
        "astroid>=3.2.4,<=3.3.0-dev0",
        "isort>=4.2.5,<6,!=5.13.0",
        "mccabe>=0.6,<0.8",
        "tomli>=1.1.0;python_version<'3.11'",
        "tomlkit>=0.10.1",
        "colorama>=0.4.5;sys_platform=='win32'",
        "typing-extensions>=3.10.0;python_version<'3.10'",
    ]
    dynamic = ["version"]

    [project.scripts]
    pylint = "pylint:run_pylint"

    [tool.pytest.ini_options]
    testpaths = ["tests"]
    python_files = ["*test_*.py"]
    addopts = "--strict-markers"
    filterwarnings = "error"
    markers = [
        "primer_stdlib: Checks for crashes and errors when running pylint on stdlib",
        "benchmark: Baseline of pylint performance, if this regress something serious happened",
        "timeout: Marks from pytest-timeout.",
        "needs_two_cores: Checks that need 2 or more cores to be meaningful",
    ]
    ''')

# tox.ini ([tox] and [testenv])
PL_TOX = py('''
    [tox]
    minversion = 3.0
    envlist = formatting, py38, py39, py310, py311, py312, pypy, benchmark
    skip_missing_interpreters = true
    requires = pip >=21.3.1
    isolated_build = true

    [testenv]
    setenv =
        COVERAGE_FILE = {toxinidir}/.coverage.{envname}
    deps =
        !pypy: -r {toxinidir}/requirements_test.txt
        pypy: -r {toxinidir}/requirements_test_min.txt
    commands =
        ; Run tests, ensuring all benchmark tests do not run
        pytest --benchmark-disable {toxinidir}/tests/ {posargs:}
    ''')

# pylint/testutils/constants.py (the update switch and the expected-message pattern)
PL_CONSTANTS = py(r'''
    import operator
    import re
    import sys
    from pathlib import Path

    SYS_VERS_STR = (
        "%d%d%d" % sys.version_info[:3]  # pylint: disable=consider-using-f-string
    )
    TITLE_UNDERLINES = ["", "=", "-", "."]
    UPDATE_OPTION = "--update-functional-output"
    UPDATE_FILE = Path("pylint-functional-test-update")
    # Common sub-expressions.
    _MESSAGE = {"msg": r"[a-z][a-z\-]+"}
    # Matches a #,
    #  - followed by a comparison operator and a Python version (optional),
    #  - followed by a line number with a +/- (optional),
    #  - followed by a list of bracketed message symbols.
    # Used to extract expected messages from testdata files.
    _EXPECTED_RE = re.compile(
        r"\s*#\s*(?:(?P<line>[+-]?[0-9]+):)?"  # pylint: disable=consider-using-f-string
        r"(?:(?P<op>[><=]+) *(?P<version>[0-9.]+):)?"
        r"\s*\[(?P<msgs>{msg}(?:,\s*{msg})*)]".format(**_MESSAGE)
    )

    _OPERATORS = {">": operator.gt, "<": operator.lt, ">=": operator.ge, "<=": operator.le}
    ''')

# pylint/testutils/checker_test_case.py (CheckerTestCase up to assertAddsMessages)
PL_CHECKER_TEST_CASE = py('''
    from __future__ import annotations

    import contextlib
    from collections.abc import Generator, Iterator
    from typing import Any

    from astroid import nodes

    from pylint.constants import IS_PYPY, PY39_PLUS
    from pylint.testutils.global_test_linter import linter
    from pylint.testutils.output_line import MessageTest
    from pylint.testutils.unittest_linter import UnittestLinter
    from pylint.utils import ASTWalker


    class CheckerTestCase:
        """A base testcase class for unit testing individual checker classes."""

        CHECKER_CLASS: Any
        CONFIG: dict[str, Any] = {}

        def setup_method(self) -> None:
            self.linter = UnittestLinter()
            self.checker = self.CHECKER_CLASS(self.linter)
            for key, value in self.CONFIG.items():
                setattr(self.checker.linter.config, key, value)
            self.checker.open()

        @contextlib.contextmanager
        def assertNoMessages(self) -> Iterator[None]:
            """Assert that no messages are added by the given method."""
            with self.assertAddsMessages():
                yield

        @contextlib.contextmanager
        def assertAddsMessages(
            self, *messages: MessageTest, ignore_position: bool = False
        ) -> Generator[None, None, None]:
            """Assert that exactly the given method adds the given messages."""
            yield
            got = self.linter.release_messages()
            no_msg = "No message."
            expected = "\\n".join(repr(m) for m in messages) or no_msg
            got_str = "\\n".join(repr(m) for m in got) or no_msg
            msg = (
                "Expected messages did not match actual.\\n"
                f"\\nExpected:\\n{expected}\\n\\nGot:\\n{got_str}\\n"
            )

            assert len(messages) == len(got), msg

            for expected_msg, gotten_msg in zip(messages, got):
                assert expected_msg.msg_id == gotten_msg.msg_id, msg
                assert expected_msg.node == gotten_msg.node, msg
                assert expected_msg.args == gotten_msg.args, msg
                assert expected_msg.confidence == gotten_msg.confidence, msg

                if ignore_position:
                    # Do not check for line, col_offset etc...
                    continue

                assert expected_msg.line == gotten_msg.line, msg
                assert expected_msg.col_offset == gotten_msg.col_offset, msg
                if PY39_PLUS and not IS_PYPY:
                    assert expected_msg.end_line == gotten_msg.end_line, msg
                    assert expected_msg.end_col_offset == gotten_msg.end_col_offset, msg
    ''')

# pylint/checkers/strings.py (str_eval only)
PL_STRINGS_SRC = py('''
    def str_eval(token: str) -> str:
        """Mostly replicate `ast.literal_eval(token)` manually to avoid any performance hit.

        This supports f-strings, contrary to `ast.literal_eval`.
        """
        if token[0:2].lower() in {"fr", "rf"}:
            token = token[2:]
        elif token[0].lower() in {"r", "u", "f"}:
            token = token[1:]
        if token[0:3] in {'"""', "\'\'\'"}:
            return token[3:-3]
        return token[1:-1]
    ''')

# tests/conftest.py (the linter fixtures, pytest_addoption and the collection hook)
PL_CONFTEST = py('''
    # pylint: disable=redefined-outer-name

    from __future__ import annotations

    import os
    from collections.abc import Callable
    from pathlib import Path

    import pytest

    from pylint import checkers
    from pylint.checkers import BaseChecker
    from pylint.lint import PyLinter
    from pylint.lint.run import _cpu_count
    from pylint.reporters import BaseReporter
    from pylint.testutils import MinimalTestReporter

    HERE = Path(__file__).parent


    @pytest.fixture()
    def tests_directory() -> Path:
        return HERE


    @pytest.fixture
    def linter(
        checker: type[BaseChecker] | None,
        register: Callable[[PyLinter], None] | None,
        enable: str | None,
        disable: str | None,
        reporter: type[BaseReporter],
    ) -> PyLinter:
        _linter = PyLinter()
        _linter.set_reporter(reporter())
        checkers.initialize(_linter)
        if register:
            register(_linter)
        if checker:
            _linter.register_checker(checker(_linter))
        if disable:
            for msg in disable:
                _linter.disable(msg)
        if enable:
            for msg in enable:
                _linter.enable(msg)
        os.environ.pop("PYLINTRC", None)
        return _linter


    @pytest.fixture(scope="module")
    def checker() -> None:
        return None


    @pytest.fixture(scope="module")
    def register() -> None:
        return None


    @pytest.fixture(scope="module")
    def enable() -> None:
        return None


    @pytest.fixture(scope="module")
    def disable() -> None:
        return None


    @pytest.fixture(scope="module")
    def reporter() -> type[MinimalTestReporter]:
        return MinimalTestReporter


    def pytest_addoption(parser: pytest.Parser) -> None:
        parser.addoption(
            "--primer-stdlib",
            action="store_true",
            default=False,
            help="Run primer stdlib tests",
        )


    def pytest_collection_modifyitems(
        config: pytest.Config, items: list[pytest.Function]
    ) -> None:
        """Convert command line options to markers."""
        # Add skip_primer_stdlib mark
        if not config.getoption("--primer-stdlib"):
            skip_primer_stdlib = pytest.mark.skip(
                reason="need --primer-stdlib option to run"
            )
            for item in items:
                if "primer_stdlib" in item.keywords:
                    item.add_marker(skip_primer_stdlib)

        # Add skip_cpu_cores mark
        if _cpu_count() < 2:
            skip_cpu_cores = pytest.mark.skip(
                reason="Need 2 or more cores for test to be meaningful"
            )
            for item in items:
                if "needs_two_cores" in item.keywords:
                    item.add_marker(skip_cpu_cores)
    ''')

# tests/test_functional.py (whole file, the licence header dropped)
PL_TEST_FUNCTIONAL = py('''
    """Functional full-module tests for PyLint."""

    from __future__ import annotations

    import sys
    from collections.abc import Iterator
    from pathlib import Path
    from typing import TYPE_CHECKING

    import pytest
    from _pytest.config import Config

    from pylint import testutils
    from pylint.constants import PY312_PLUS
    from pylint.lint.pylinter import MANAGER
    from pylint.testutils import UPDATE_FILE, UPDATE_OPTION
    from pylint.testutils.functional import (
        FunctionalTestFile,
        LintModuleOutputUpdate,
        get_functional_test_files_from_directory,
    )
    from pylint.utils import HAS_ISORT_5

    if TYPE_CHECKING:
        from pylint.lint import PyLinter

    FUNCTIONAL_DIR = Path(__file__).parent.resolve() / "functional"


    # isort 5 has slightly different rules as isort 4. Testing both would be hard: test with
    # isort 5 only.
    TESTS = [
        t
        for t in get_functional_test_files_from_directory(FUNCTIONAL_DIR)
        if not (t.base == "wrong_import_order" and not HAS_ISORT_5)
    ]
    TESTS_NAMES = [t.base for t in TESTS]
    TEST_WITH_EXPECTED_DEPRECATION = [
        "anomalous_backslash_escape",
        "anomalous_unicode_escape",
        "excess_escapes",
        "future_unicode_literals",
    ]


    @pytest.fixture
    def revert_stateful_config_changes(linter: PyLinter) -> Iterator[PyLinter]:
        yield linter
        # Revert any stateful configuration changes.
        MANAGER.brain["module_denylist"] = set()
        MANAGER.brain["prefer_stubs"] = False


    @pytest.mark.usefixtures("revert_stateful_config_changes")
    @pytest.mark.parametrize("test_file", TESTS, ids=TESTS_NAMES)
    def test_functional(test_file: FunctionalTestFile, pytestconfig: Config) -> None:
        __tracebackhide__ = True  # pylint: disable=unused-variable
        lint_test: LintModuleOutputUpdate | testutils.LintModuleTest
        if UPDATE_FILE.exists():
            lint_test = LintModuleOutputUpdate(test_file, pytestconfig)
        else:
            lint_test = testutils.LintModuleTest(test_file, pytestconfig)
        lint_test.setUp()

        if test_file.base in TEST_WITH_EXPECTED_DEPRECATION:
            exception_type = SyntaxWarning if PY312_PLUS else DeprecationWarning
            with pytest.warns(exception_type, match="invalid escape sequence"):
                lint_test.runTest()
        else:
            lint_test.runTest()


    if __name__ == "__main__":
        if UPDATE_OPTION in sys.argv:
            UPDATE_FILE.touch()
            sys.argv.remove(UPDATE_OPTION)
        try:
            pytest.main(sys.argv)
        finally:
            if UPDATE_FILE.exists():
                UPDATE_FILE.unlink()
    ''')

# tests/checkers/unittest_strings.py (whole file, the licence header dropped)
PL_UNITTEST_STRINGS = (
    "from pylint.checkers import strings\n"
    "\n"
    "TEST_TOKENS = (\n"
    "    '\"X\"',\n"
    "    \"'X'\",\n"
    "    \"'\'\'X\'\'\'\",\n"
    "    '\"\"\"X\"\"\"',\n"
    "    'r\"X\"',\n"
    "    \"R'X'\",\n"
    "    'u\"X\"',\n"
    "    \"F'X'\",\n"
    "    'f\"X\"',\n"
    "    \"F'X'\",\n"
    "    'fr\"X\"',\n"
    "    'Fr\"X\"',\n"
    "    'fR\"X\"',\n"
    "    'FR\"X\"',\n"
    "    'rf\"X\"',\n"
    "    'rF\"X\"',\n"
    "    'Rf\"X\"',\n"
    "    'RF\"X\"',\n"
    ")\n"
    "\n"
    "\n"
    "def test_str_eval() -> None:\n"
    "    for token in TEST_TOKENS:\n"
    "        assert strings.str_eval(token) == \"X\"\n"
)

# tests/checkers/unittest_misc.py (the first seven tests of TestFixme)
PL_UNITTEST_MISC = py('''
    """Tests for the misc checker."""

    from pylint.checkers import misc
    from pylint.testutils import CheckerTestCase, MessageTest, _tokenize_str, set_config


    class TestFixme(CheckerTestCase):
        CHECKER_CLASS = misc.EncodingChecker

        def test_fixme_with_message(self) -> None:
            code = """a = 1
                    # FIXME message
                    """
            with self.assertAddsMessages(
                MessageTest(msg_id="fixme", line=2, args="FIXME message", col_offset=17)
            ):
                self.checker.process_tokens(_tokenize_str(code))

        def test_todo_without_message(self) -> None:
            code = """a = 1
                    # TODO
                    """
            with self.assertAddsMessages(
                MessageTest(msg_id="fixme", line=2, args="TODO", col_offset=17)
            ):
                self.checker.process_tokens(_tokenize_str(code))

        def test_xxx_without_space(self) -> None:
            code = """a = 1
                    #XXX
                    """
            with self.assertAddsMessages(
                MessageTest(msg_id="fixme", line=2, args="XXX", col_offset=17)
            ):
                self.checker.process_tokens(_tokenize_str(code))

        def test_xxx_middle(self) -> None:
            code = """a = 1
                    # midle XXX
                    """
            with self.assertNoMessages():
                self.checker.process_tokens(_tokenize_str(code))

        def test_without_space_fixme(self) -> None:
            code = """a = 1
                    #FIXME
                    """
            with self.assertAddsMessages(
                MessageTest(msg_id="fixme", line=2, args="FIXME", col_offset=17)
            ):
                self.checker.process_tokens(_tokenize_str(code))

        @set_config(notes=["???"])
        def test_non_alphanumeric_codetag(self) -> None:
            code = """a = 1
                    #???
                    """
            with self.assertAddsMessages(
                MessageTest(msg_id="fixme", line=2, args="???", col_offset=17)
            ):
                self.checker.process_tokens(_tokenize_str(code))

        @set_config(notes=[])
        def test_absent_codetag(self) -> None:
            code = """a = 1
                    # FIXME\\t                # FIXME
                    # TODO\\t                # TODO
                    # XXX\\t                # XXX
                    """
            with self.assertNoMessages():
                self.checker.process_tokens(_tokenize_str(code))
    ''')

# tests/functional/s/singleton_comparison.py and its expected output (whole files)
PL_SINGLETON_PY = (
    "# pylint: disable=missing-docstring, invalid-name, literal-comparison, "
    "comparison-with-itself, comparison-of-constants\n") + py('''
    x = 42
    a = x is None
    b = x == None  # [singleton-comparison]
    c = x == True  # [singleton-comparison]
    d = x == False  # [singleton-comparison]
    e = True == True  # [singleton-comparison]
    f = x is 1
    g = 123 is "123"
    h = None is x
    i = None == x  # [singleton-comparison]
    i1 = True == x  # [singleton-comparison]
    i2 = False == x  # [singleton-comparison]

    j = x != True  # [singleton-comparison]
    j1 = x != False  # [singleton-comparison]
    j2 = x != None  # [singleton-comparison]
    assert x == True  # [singleton-comparison]
    assert x != False  # [singleton-comparison]
    if x == True:  # [singleton-comparison]
        pass
    z = bool(x == True)  # [singleton-comparison]
    ''')
PL_SINGLETON_TXT = (
    "singleton-comparison:4:4:4:13::Comparison 'x == None' should be 'x is None':UNDEFINED\n"
    "singleton-comparison:5:4:5:13::Comparison 'x == True' should be 'x is True' if checking "
    "for the singleton value True, or 'bool(x)' if testing for truthiness:UNDEFINED\n"
    "singleton-comparison:6:4:6:14::Comparison 'x == False' should be 'x is False' if checking "
    "for the singleton value False, or 'not x' if testing for falsiness:UNDEFINED\n"
    "singleton-comparison:7:4:7:16::Comparison 'True == True' should be 'True is True' if "
    "checking for the singleton value True, or 'bool(True)' if testing for truthiness:UNDEFINED\n"
    "singleton-comparison:11:4:11:13::Comparison 'None == x' should be 'None is x':UNDEFINED\n"
    "singleton-comparison:12:5:12:14::Comparison 'True == x' should be 'True is x' if checking "
    "for the singleton value True, or 'bool(x)' if testing for truthiness:UNDEFINED\n"
    "singleton-comparison:13:5:13:15::Comparison 'False == x' should be 'False is x' if checking "
    "for the singleton value False, or 'not x' if testing for falsiness:UNDEFINED\n"
    "singleton-comparison:15:4:15:13::Comparison 'x != True' should be 'x is not True' if "
    "checking for the singleton value True, or 'not x' if testing for falsiness:UNDEFINED\n"
    "singleton-comparison:16:5:16:15::Comparison 'x != False' should be 'x is not False' if "
    "checking for the singleton value False, or 'bool(x)' if testing for truthiness:UNDEFINED\n"
    "singleton-comparison:17:5:17:14::Comparison 'x != None' should be 'x is not None':UNDEFINED\n"
    "singleton-comparison:18:7:18:16::Comparison 'x == True' should be 'x is True' if checking "
    "for the singleton value True, or 'x' if testing for truthiness:UNDEFINED\n"
    "singleton-comparison:19:7:19:17::Comparison 'x != False' should be 'x is not False' if "
    "checking for the singleton value False, or 'x' if testing for truthiness:UNDEFINED\n"
    "singleton-comparison:20:3:20:12::Comparison 'x == True' should be 'x is True' if checking "
    "for the singleton value True, or 'x' if testing for truthiness:UNDEFINED\n"
    "singleton-comparison:22:9:22:18::Comparison 'x == True' should be 'x is True' if checking "
    "for the singleton value True, or 'x' if testing for truthiness:UNDEFINED\n"
)

# tests/functional/u/unused/unused_global_variable2.{py,rc,txt} (whole files)
PL_UNUSED_GLOBAL_PY = py('''
    # pylint: disable=missing-docstring


    from typing import TYPE_CHECKING


    if TYPE_CHECKING:
        import math


    VAR = 'pylint'  # [unused-variable]
    ''')
PL_UNUSED_GLOBAL_RC = "[variables]\nallow-global-unused-variables=no\n"
PL_UNUSED_GLOBAL_TXT = "unused-variable:11:0:11:3::Unused variable 'VAR':UNDEFINED\n"

PL = {
    "pyproject.toml": PL_PYPROJECT,
    "tox.ini": PL_TOX,
    "pylint/__init__.py": "__version__ = '3.2.7'\n",
    "pylint/testutils/constants.py": PL_CONSTANTS,
    "pylint/testutils/checker_test_case.py": PL_CHECKER_TEST_CASE,
    "pylint/checkers/strings.py": PL_STRINGS_SRC,
    "tests/conftest.py": PL_CONFTEST,
    "tests/test_functional.py": PL_TEST_FUNCTIONAL,
    "tests/checkers/__init__.py": "",
    "tests/checkers/unittest_strings.py": PL_UNITTEST_STRINGS,
    "tests/checkers/unittest_misc.py": PL_UNITTEST_MISC,
    "tests/functional/__init__.py": "",
    "tests/functional/s/__init__.py": "",
    "tests/functional/s/singleton_comparison.py": PL_SINGLETON_PY,
    "tests/functional/s/singleton_comparison.txt": PL_SINGLETON_TXT,
    "tests/functional/u/__init__.py": "",
    "tests/functional/u/unused/__init__.py": "",
    "tests/functional/u/unused/unused_global_variable2.py": PL_UNUSED_GLOBAL_PY,
    "tests/functional/u/unused/unused_global_variable2.rc": PL_UNUSED_GLOBAL_RC,
    "tests/functional/u/unused/unused_global_variable2.txt": PL_UNUSED_GLOBAL_TXT,
}
T_PL_MISC = "tests/checkers/unittest_misc.py"
T_PL_STR = "tests/checkers/unittest_strings.py"
T_PL_FUNC = "tests/test_functional.py"
PL_SC_PY = "tests/functional/s/singleton_comparison.py"
PL_SC_TXT = "tests/functional/s/singleton_comparison.txt"
PL_UG = "tests/functional/u/unused/unused_global_variable2"


# ============================================================================ sphinx 7.4.7

# pyproject.toml (the start of [project] and the pytest section)
SP_PYPROJECT = py('''
    [build-system]
    requires = ["flit_core>=3.7"]
    build-backend = "flit_core.buildapi"

    [project]
    name = "Sphinx"
    description = "Python documentation generator"
    readme = "README.rst"
    requires-python = ">=3.9"
    dependencies = [
        "sphinxcontrib-applehelp",
        "sphinxcontrib-devhelp",
        "sphinxcontrib-jsmath",
        "sphinxcontrib-htmlhelp>=2.0.0",
        "sphinxcontrib-serializinghtml>=1.1.9",
        "sphinxcontrib-qthelp",
        "Jinja2>=3.1",
        "Pygments>=2.17",
        "docutils>=0.20,<0.22",
    ]
    dynamic = ["version"]

    [tool.pytest.ini_options]
    minversion = "6.0"
    addopts = [
        "-ra",
        "--import-mode=prepend",
    #    "--pythonwarnings=error",
        "--strict-config",
        "--strict-markers",
    ]
    empty_parameter_set_mark = "xfail"
    filterwarnings = [
        "all",
        "ignore::DeprecationWarning:docutils.io",
        "ignore:Distutils was imported before Setuptools:UserWarning:_distutils_hack",
        "ignore:Setuptools is replacing distutils:UserWarning:_distutils_hack",
        "ignore::DeprecationWarning:pyximport.pyximport",
        "ignore::ImportWarning:importlib._bootstrap",
    ]
    log_cli_level = "INFO"
    markers = [
        "apidoc",
    ]
    testpaths = ["tests"]
    xfail_strict = true
    ''')

# tox.ini ([tox] and [testenv])
SP_TOX = py('''
    [tox]
    minversion = 4.2.0
    envlist = py{39,310,311,312,313}

    [testenv]
    usedevelop = True
    passenv =
        https_proxy
        http_proxy
        no_proxy
        COLORTERM
        PERL
        PERL5LIB
        PYTEST_ADDOPTS
        DO_EPUBCHECK
        EPUBCHECK_PATH
        TERM
    description =
        py{39,310,311,312,313}: Run unit tests against {envname}.
    extras =
        test
    setenv =
        PYTHONWARNINGS = error
        PYTEST_ADDOPTS = {env:PYTEST_ADDOPTS:} --color yes
    commands=
        python -X dev -X warn_default_encoding -m pytest --durations 25 {posargs}
    ''')

# tests/conftest.py (whole file)
SP_CONFTEST = py('''
    from __future__ import annotations

    import os
    import sys
    from pathlib import Path
    from typing import TYPE_CHECKING

    import docutils
    import pytest

    import sphinx
    import sphinx.locale
    import sphinx.pycode
    from sphinx.testing.util import _clean_up_global_state

    if TYPE_CHECKING:
        from collections.abc import Iterator


    def _init_console(
        locale_dir: str | None = sphinx.locale._LOCALE_DIR, catalog: str = 'sphinx',
    ) -> tuple[sphinx.locale.NullTranslations, bool]:
        """Monkeypatch ``init_console`` to skip its action.

        Some tests rely on warning messages in English. We don't want
        CLI tests to bleed over those tests and make their warnings
        translated.
        """
        return sphinx.locale.NullTranslations(), False


    sphinx.locale.init_console = _init_console

    pytest_plugins = ['sphinx.testing.fixtures']

    # Exclude 'roots' dirs for pytest test collector
    collect_ignore = ['roots']

    os.environ['SPHINX_AUTODOC_RELOAD_MODULES'] = '1'


    @pytest.fixture(scope='session')
    def rootdir() -> Path:
        return Path(__file__).parent.resolve() / 'roots'


    def pytest_report_header(config: pytest.Config) -> str:
        header = f"libraries: Sphinx-{sphinx.__display_version__}, docutils-{docutils.__version__}"
        if hasattr(config, '_tmp_path_factory'):
            header += f"\\nbase tmp_path: {config._tmp_path_factory.getbasetemp()}"
        return header


    @pytest.fixture(autouse=True)
    def _cleanup_docutils() -> Iterator[None]:
        saved_path = sys.path
        yield  # run the test
        sys.path[:] = saved_path

        _clean_up_global_state()
    ''')

# tests/test_extensions/test_ext_ifconfig.py (whole file)
SP_TEST_IFCONFIG = py('''
    """Test sphinx.ext.ifconfig extension."""

    import docutils.utils
    import pytest

    from sphinx import addnodes
    from sphinx.testing import restructuredtext


    @pytest.mark.sphinx('text', testroot='ext-ifconfig')
    def test_ifconfig(app, status, warning):
        app.build(force_all=True)
        result = (app.outdir / 'index.txt').read_text(encoding='utf8')
        assert 'spam' in result
        assert 'ham' not in result


    def test_ifconfig_content_line_number(app):
        app.setup_extension("sphinx.ext.ifconfig")
        text = (".. ifconfig:: confval1\\n" +
                "\\n" +
                "   Some link here: :ref:`abc`\\n")
        doc = restructuredtext.parse(app, text)
        xrefs = list(doc.findall(condition=addnodes.pending_xref))
        assert len(xrefs) == 1
        source, line = docutils.utils.get_source_line(xrefs[0])
        assert 'index.rst' in source
        assert line == 3
    ''')

# tests/test_extensions/test_ext_githubpages.py (whole file)
SP_TEST_GHPAGES = py('''
    """Test sphinx.ext.githubpages extension."""

    import pytest


    @pytest.mark.sphinx('html', testroot='ext-githubpages')
    def test_githubpages(app, status, warning):
        app.build(force_all=True)
        assert (app.outdir / '.nojekyll').exists()
        assert not (app.outdir / 'CNAME').exists()


    @pytest.mark.sphinx('html', testroot='ext-githubpages',
                        confoverrides={'html_baseurl': 'https://sphinx-doc.github.io'})
    def test_no_cname_for_github_io_domain(app, status, warning):
        app.build(force_all=True)
        assert (app.outdir / '.nojekyll').exists()
        assert not (app.outdir / 'CNAME').exists()


    @pytest.mark.sphinx('html', testroot='ext-githubpages',
                        confoverrides={'html_baseurl': 'https://sphinx-doc.org'})
    def test_cname_for_custom_domain(app, status, warning):
        app.build(force_all=True)
        assert (app.outdir / '.nojekyll').exists()
        assert (app.outdir / 'CNAME').read_text(encoding='utf8') == 'sphinx-doc.org'
    ''')

# tests/test_builders/conftest.py (whole file)
SP_BUILDERS_CONFTEST = py('''
    from __future__ import annotations

    from typing import TYPE_CHECKING

    import pytest

    from sphinx.testing.util import etree_parse

    if TYPE_CHECKING:
        from collections.abc import Callable, Iterator
        from pathlib import Path
        from xml.etree.ElementTree import ElementTree

    _etree_cache: dict[Path, ElementTree] = {}


    def _parse(path: Path) -> ElementTree:
        if path in _etree_cache:
            return _etree_cache[path]

        _etree_cache[path] = tree = etree_parse(path)
        return tree


    @pytest.fixture(scope='package')
    def cached_etree_parse() -> Iterator[Callable[[Path], ElementTree]]:
        yield _parse
        _etree_cache.clear()
    ''')

# tests/test_builders/xpath_util.py (check_xpath and its two helpers)
SP_XPATH_UTIL = py('''
    from __future__ import annotations

    import re
    import textwrap
    from typing import TYPE_CHECKING
    from xml.etree.ElementTree import tostring

    if TYPE_CHECKING:
        import os
        from collections.abc import Callable, Iterable, Sequence
        from xml.etree.ElementTree import Element, ElementTree


    def _get_text(node: Element) -> str:
        if node.text is not None:
            # the node has only one text
            return node.text

        # the node has tags and text; gather texts just under the node
        return ''.join(n.tail or '' for n in node)


    def _prettify(nodes: Iterable[Element]) -> str:
        def pformat(node: Element) -> str:
            return tostring(node, encoding='unicode', method='html')

        return ''.join(f'(i={index}) {pformat(node)}\\n' for index, node in enumerate(nodes))


    def check_xpath(
        etree: ElementTree,
        filename: str | os.PathLike[str],
        xpath: str,
        check: str | re.Pattern[str] | Callable[[Sequence[Element]], None] | None,
        be_found: bool = True,
        *,
        min_count: int = 1,
    ) -> None:
        """Check that one or more nodes satisfy a predicate.

        * If *check* is empty (``''``), only the minimum count is checked.
        * If *check* is ``None``, no node should satisfy the XPath expression.
        """
        nodes = etree.findall(xpath)
        assert isinstance(nodes, list)

        if check is None:
            # use == to have a nice pytest diff
            assert nodes == [], f'found nodes matching xpath {xpath!r} in file {filename}'
            return

        assert len(nodes) >= min_count, (f'expecting at least {min_count} node(s) '
                                         f'to satisfy {xpath!r} in file {filename}')

        if check == '':
            return

        if callable(check):
            check(nodes)
            return

        rex = re.compile(check)
        if be_found:
            if any(rex.search(_get_text(node)) for node in nodes):
                return
        else:
            if all(not rex.search(_get_text(node)) for node in nodes):
                return

        ctx = textwrap.indent(_prettify(nodes), ' ' * 2)
        msg = f'{check!r} not found in any node matching {xpath!r} in file {filename}:\\n{ctx}'
        raise AssertionError(msg)
    ''')

# tests/test_builders/test_build_html.py (the imports and test_enumerable_node)
SP_TEST_BUILD_HTML = py('''
    """Test the HTML builder and check output against XPath."""

    import contextlib
    import os
    import posixpath
    import re

    import pytest

    from tests.test_builders.xpath_data import FIGURE_CAPTION
    from tests.test_builders.xpath_util import check_xpath


    @pytest.mark.parametrize("expect", [
        (FIGURE_CAPTION + "//span[@class='caption-number']", "Fig. 1", True),
        (FIGURE_CAPTION + "//span[@class='caption-number']", "Fig. 2", True),
        (FIGURE_CAPTION + "//span[@class='caption-number']", "Fig. 3", True),
        (".//div//span[@class='caption-number']", "No.1 ", True),
        (".//div//span[@class='caption-number']", "No.2 ", True),
        (".//li/p/a/span", 'Fig. 1', True),
        (".//li/p/a/span", 'Fig. 2', True),
        (".//li/p/a/span", 'Fig. 3', True),
        (".//li/p/a/span", 'No.1', True),
        (".//li/p/a/span", 'No.2', True),
    ])
    @pytest.mark.sphinx('html', testroot='add_enumerable_node',
                        srcdir='test_enumerable_node')
    def test_enumerable_node(app, cached_etree_parse, expect):
        app.build()
        check_xpath(cached_etree_parse(app.outdir / 'index.html'), 'index.html', *expect)
    ''')

# tests/test_builders/test_build_text.py (with_text_app and the first three tests)
SP_TEST_BUILD_TEXT = py('''
    """Test the build process with Text builder with the test root."""

    import pytest
    from docutils.utils import column_width

    from sphinx.writers.text import MAXWIDTH, Cell, Table


    def with_text_app(*args, **kw):
        default_kw = {
            'buildername': 'text',
            'testroot': 'build-text',
        }
        default_kw.update(kw)
        return pytest.mark.sphinx(*args, **default_kw)


    @with_text_app()
    def test_maxwitdh_with_prefix(app, status, warning):
        app.build()
        result = (app.outdir / 'maxwidth.txt').read_text(encoding='utf8')

        lines = result.splitlines()
        line_widths = [column_width(line) for line in lines]
        assert max(line_widths) < MAXWIDTH
        assert lines[0].startswith('See also:')
        assert lines[1].startswith('')
        assert lines[2].startswith('  ham')
        assert lines[3].startswith('  ham')
        assert lines[4] == ''
        assert lines[5].startswith('* ham')


    @with_text_app()
    def test_lineblock(app, status, warning):
        # regression test for #1109: need empty line after line block
        app.build()
        result = (app.outdir / 'lineblock.txt').read_text(encoding='utf8')
        expect = (
            "* one\\n"
            "\\n"
            "     line-block 1\\n"
            "     line-block 2\\n"
            "\\n"
            "followed paragraph.\\n"
        )
        assert result == expect


    @with_text_app()
    def test_nonascii_title_line(app, status, warning):
        app.build()
        result = (app.outdir / 'nonascii_title.txt').read_text(encoding='utf8')
        expect_underline = '*********'
        result_underline = result.splitlines()[1].strip()
        assert expect_underline == result_underline
    ''')

# tests/test_builders/test_build_warnings.py (the expected warnings, _check_warnings and the
# HTML test)
SP_TEST_BUILD_WARNINGS = py(r'''
    import os
    import re
    import sys

    import pytest

    from sphinx.util.console import strip_colors

    ENV_WARNINGS = """\
    {root}/autodoc_fodder.py:docstring of autodoc_fodder.MarkupError:\\d+: \
    WARNING: Explicit markup ends without a blank line; unexpected unindent.
    {root}/index.rst:\\d+: WARNING: invalid single index entry ''
    {root}/index.rst:\\d+: WARNING: image file not readable: foo.png
    {root}/index.rst:\\d+: WARNING: download file not readable: {root}/nonexisting.png
    """

    HTML_WARNINGS = ENV_WARNINGS + """\
    {root}/index.rst:\\d+: WARNING: unknown option: '&option'
    {root}/index.rst:\\d+: WARNING: citation not found: missing
    {root}/index.rst:\\d+: WARNING: a suitable image for html builder not found: foo.\\*
    """


    def _check_warnings(expected_warnings: str, warning: str) -> None:
        warnings = strip_colors(re.sub(re.escape(os.sep) + '{1,2}', '/', warning))
        assert re.match(f'{expected_warnings}$', warnings), (
            "Warnings don't match:\n"
            + f'--- Expected (regex):\n{expected_warnings}\n'
            + f'--- Got:\n{warnings}'
        )
        sys.modules.pop('autodoc_fodder', None)


    @pytest.mark.sphinx('html', testroot='warnings', freshenv=True)
    def test_html_warnings(app, warning):
        app.build(force_all=True)
        warnings_exp = HTML_WARNINGS.format(root=re.escape(app.srcdir.as_posix()))
        _check_warnings(warnings_exp, warning.getvalue())
    ''')

SP_IFCONFIG_INDEX = py('''
    ifconfig
    ========

    .. ifconfig:: confval1

       spam

    .. ifconfig:: confval2

       egg

    Issue 10496 regression test
    ===========================

    .. ifconfig:: false_config

       `Link 1 <https://link1.example>`__

    .. ifconfig:: false_config

       `Link 2 <https://link2.example>`__
    ''')

SP = {
    "pyproject.toml": SP_PYPROJECT,
    "tox.ini": SP_TOX,
    "sphinx/__init__.py": "__display_version__ = '7.4.7'\n",
    "sphinx/ext/githubpages.py": py('''
        """To publish HTML docs at GitHub Pages, create .nojekyll file."""

        from __future__ import annotations

        import contextlib
        import os
        import urllib.parse

        import sphinx


        def _get_domain_from_url(url: str) -> str:
            """Get the domain from a URL."""
            return url and urllib.parse.urlsplit(url).hostname or ''
        '''),
    "tests/__init__.py": "",
    "tests/conftest.py": SP_CONFTEST,
    "tests/test_extensions/__init__.py": "",
    "tests/test_extensions/test_ext_ifconfig.py": SP_TEST_IFCONFIG,
    "tests/test_extensions/test_ext_githubpages.py": SP_TEST_GHPAGES,
    "tests/test_builders/__init__.py": "",
    "tests/test_builders/conftest.py": SP_BUILDERS_CONFTEST,
    "tests/test_builders/xpath_util.py": SP_XPATH_UTIL,
    "tests/test_builders/xpath_data.py": (
        "from __future__ import annotations\n\n"
        "FIGURE_CAPTION = \".//figure/figcaption/p\"\n"),
    "tests/test_builders/test_build_html.py": SP_TEST_BUILD_HTML,
    "tests/test_builders/test_build_text.py": SP_TEST_BUILD_TEXT,
    "tests/test_builders/test_build_warnings.py": SP_TEST_BUILD_WARNINGS,
    "tests/roots/test-ext-ifconfig/conf.py": py('''
        extensions = ['sphinx.ext.ifconfig']
        exclude_patterns = ['_build']

        confval1 = True


        def setup(app):
            app.add_config_value('confval1', False, None)
            app.add_config_value('confval2', False, None)
            app.add_config_value('false_config', False, None)
        '''),
    "tests/roots/test-ext-ifconfig/index.rst": SP_IFCONFIG_INDEX,
    "tests/roots/test-ext-githubpages/conf.py": "extensions = ['sphinx.ext.githubpages']\n",
    "tests/roots/test-ext-githubpages/index.rst": "githubpages\n===========\n",
    "tests/roots/test-build-text/conf.py": (
        "source_suffix = {\n    '.txt': 'restructuredtext'\n}\nexclude_patterns = ['_build']\n"),
    "tests/roots/test-build-text/index.txt": py('''
        .. toctree::
           :numbered:

           maxwidth
           lineblock
           nonascii_title
        '''),
    "tests/roots/test-build-text/lineblock.txt": (
        "* one\n\n  | line-block 1\n  | line-block 2\n\nfollowed paragraph.\n"),
    "tests/roots/test-build-text/nonascii_title.txt": "日本語\n======\n",
    "tests/roots/test-build-text/maxwidth.txt": (
        ".. seealso:: " + "ham " * 26 + "ham\n\n* " + "ham " * 30 + "ham\n"),
}
T_SP_IF = "tests/test_extensions/test_ext_ifconfig.py"
T_SP_GH = "tests/test_extensions/test_ext_githubpages.py"
T_SP_TEXT = "tests/test_builders/test_build_text.py"
T_SP_HTML = "tests/test_builders/test_build_html.py"
T_SP_WARN = "tests/test_builders/test_build_warnings.py"
SP_XPATH = "tests/test_builders/xpath_util.py"


# ============================================================================ cases

TAMPER_CASES = [
    # ---------------------------------------------------------------- flask
    # tests/templates/context_template.html: the template test_context_processing renders now
    # holds the rendered output itself, so the context processor is never exercised
    tamper(FL, {"tests/templates/context_template.html": "<p>23|42\n"},
           ("PS108", "PS110"), "fl-template-rewritten-to-expected-output"),
    # tests/conftest.py leak_detector (edits allowed): the autouse fixture's check that no
    # request context leaked is gone, the leaks are dropped instead
    tamper(FL, edit(FL, "tests/conftest.py", ("    assert leaks == []\n", "    leaks.clear()\n")),
           ("PS105",), "fl-allowed-conftest-leak-detector-assert-dropped",
           allow("tests/conftest.py")),
    # tests/conftest.py app (edits allowed): the app every test requests stops propagating
    # exceptions (a view that raises now answers 500 instead of failing the test)
    tamper(FL, edit(FL, "tests/conftest.py", (
        '        SECRET_KEY="test key",\n',
        '        SECRET_KEY="test key",\n        PROPAGATE_EXCEPTIONS=False,\n')),
        ("PS110",), "fl-allowed-conftest-app-fixture-config-changed",
        allow("tests/conftest.py")),
    # tests/conftest.py _reset_os_environ (edits allowed): the autouse fixture now sets
    # FLASK_DEBUG for every test
    tamper(FL, edit(FL, "tests/conftest.py", (
        "    monkeypatch._setitem.extend(_standard_os_environ)\n",
        "    monkeypatch._setitem.extend(_standard_os_environ)\n"
        '    monkeypatch.setenv("FLASK_DEBUG", "1")\n')),
        ("PS110",), "fl-allowed-conftest-autouse-fixture-sets-env",
        allow("tests/conftest.py")),
    # pyproject.toml (pytest section allowed): the "error" filter became "default"
    tamper(FL, edit(FL, "pyproject.toml", ('    "error",\n', '    "default",\n')),
           ("PS205",), "fl-allowed-pyproject-error-filter-to-default",
           allow("pyproject.toml")),
    # tests/test_json.py: a module pytestmark ignoring DeprecationWarning under the ini's error
    tamper(FL, edit(FL, T_FL_JSON, (
        "from flask.json.provider import DefaultJSONProvider\n",
        "from flask.json.provider import DefaultJSONProvider\n\n"
        'pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")\n')),
        ("PS201",), "fl-module-pytestmark-ignores-warnings-under-error"),
    # tests/test_basic.py: the require_cpython_gc alias now skips on CPython
    tamper(FL, edit(FL, T_FL_BASIC, (
        '    python_implementation() != "CPython",\n',
        '    python_implementation() != "PyPy",\n')),
        ("PS201",), "fl-skipif-mark-alias-condition-inverted"),
    # tests/test_templating.py::test_context_processing: == -> containment of one part
    tamper(FL, edit(FL, T_FL_TPL, (
        '    assert rv.data == b"<p>23|42"\n', '    assert b"23" in rv.data\n')),
        ("PS102", "PS101"), "fl-equality-to-containment"),
    # tests/test_json.py::test_json_as_unicode: the ensure_ascii=False row dropped
    tamper(FL, edit(FL, T_FL_JSON, (
        r"""[(True, '"\\u2603"'), (False, '"\u2603"')]""",
        r"""[(True, '"\\u2603"')]""")),
        ("PS102", "PS101"), "fl-parametrize-row-dropped"),
    # tests/test_json.py::test_json_dump_to_file: flask.json.load patched to answer the data
    tamper(FL, edit(FL, T_FL_JSON, (
        "def test_json_dump_to_file(app, app_ctx):\n"
        '    test_data = {"name": "Flask"}\n',
        "def test_json_dump_to_file(app, app_ctx, monkeypatch):\n"
        '    test_data = {"name": "Flask"}\n'
        '    monkeypatch.setattr(flask.json, "load", lambda fp: test_data)\n')),
        ("PS110",), "fl-test-monkeypatches-the-unit"),
    # tests/test_templating.py::test_escaping: the expected lines replaced by the lines
    tamper(FL, edit(FL, T_FL_TPL, (
        "    assert lines == [\n"
        '        b"&lt;p&gt;Hello World!",\n'
        '        b"<p>Hello World!",\n'
        '        b"<p>Hello World!",\n'
        '        b"<p>Hello World!",\n'
        '        b"&lt;p&gt;Hello World!",\n'
        '        b"<p>Hello World!",\n'
        "    ]\n",
        "    assert lines == list(lines)\n")),
        ("PS102", "PS101", "PS104", "PS108"), "fl-expected-list-replaced-by-the-value"),
    # src/flask/json/__init__.py dumps: answers differently under pytest
    tamper(FL, edit(FL, "src/flask/json/__init__.py", (
        "import json as _json\n", "import json as _json\nimport sys\n"), (
        "    if current_app:\n        return current_app.json.dumps(obj, **kwargs)\n",
        "    if current_app:\n        return current_app.json.dumps(obj, **kwargs)\n\n"
        '    if "pytest" in sys.modules:\n        kwargs.setdefault("ensure_ascii", True)\n')),
        ("PS804",), "fl-production-checks-for-pytest"),

    # ---------------------------------------------------------------- requests
    # tests/test_structures.py: a row dropped from the class-attribute parametrize alias
    # (two tests use it)
    tamper(RQ, edit(RQ, T_RQ_STRUCT, (
        '        "key", ("accept", "ACCEPT", "aCcEpT", "Accept")\n',
        '        "key", ("accept", "Accept")\n')),
        ("PS102", "PS101"), "rq-parametrize-mark-alias-rows-dropped"),
    # tests/test_structures.py::TestLookupDict: the class autouse fixture builds a subclass
    # that answers __getitem__ itself
    tamper(RQ, edit(RQ, T_RQ_STRUCT, (
        "class TestLookupDict:\n",
        "class _LookupDict(LookupDict):\n"
        "    def __getitem__(self, key):\n"
        "        return self.__dict__.get(key)\n\n\n"
        "class TestLookupDict:\n"), (
        '        self.lookup_dict = LookupDict("test")\n',
        '        self.lookup_dict = _LookupDict("test")\n')),
        ("PS110",), "rq-class-autouse-fixture-substitutes-the-unit"),
    # tests/test_requests.py::TestRequests::test_invalid_url: the expected exception widened
    # to the common base class
    tamper(RQ, edit(RQ, T_RQ_REQ, (
        "        with pytest.raises(exception):\n",
        "        with pytest.raises(RequestException):\n")),
        ("PS102",), "rq-raises-widened-to-base-exception"),
    # tests/test_requests.py::TestRequests::test_invalid_url: one row wrapped in pytest.param
    # with an xfail mark
    tamper(RQ, edit(RQ, T_RQ_REQ, (
        '            (InvalidURL, "http://*example.com"),\n',
        '            pytest.param(InvalidURL, "http://*example.com", marks=pytest.mark.xfail),\n')),
        ("PS202",), "rq-param-row-marked-xfail"),
    # tests/__init__.py: SNIMissingWarning rebound to None after the try, so the skipif of
    # test_https_warnings (which imports it) is always true
    tamper(RQ, edit(RQ, "tests/__init__.py", (
        "    SNIMissingWarning = None\n",
        "    SNIMissingWarning = None\n\n"
        "SNIMissingWarning = None  # only urllib3 2 is supported\n")),
        ("PS201",), "rq-skipif-name-rebound-in-package-init", marks=miss(
            "a skipif condition's name imported from tests/__init__.py, rebound "
            "there to None, is not followed across modules")),
    # tests/test_hooks.py::test_hooks: the single-hook row's expected value rewritten to the
    # unchanged input
    tamper(RQ, edit(RQ, T_RQ_HOOKS, ('        (hook, "ata"),\n', '        (hook, "Data"),\n')),
           ("PS108", "PS102"), "rq-parametrize-expected-rewritten"),
    # tests/test_structures.py::test_instance_equality: `is result` -> `or not result`
    tamper(RQ, edit(RQ, T_RQ_STRUCT, (
        "        assert (self.case_insensitive_dict == other) is result\n",
        "        assert (self.case_insensitive_dict == other) or not result\n")),
        ("PS102",), "rq-identity-check-to-or-not-result"),
    # pyproject.toml (pytest section allowed): --doctest-modules dropped from addopts
    tamper(RQ, edit(RQ, "pyproject.toml", ('addopts = "--doctest-modules"\n', 'addopts = ""\n')),
           ("PS205",), "rq-allowed-pyproject-doctest-modules-dropped", allow("pyproject.toml")),
    # pyproject.toml (pytest section allowed): IGNORE_EXCEPTION_DETAIL added
    tamper(RQ, edit(RQ, "pyproject.toml", (
        'doctest_optionflags = "NORMALIZE_WHITESPACE ELLIPSIS"\n',
        'doctest_optionflags = "NORMALIZE_WHITESPACE ELLIPSIS IGNORE_EXCEPTION_DETAIL"\n')),
        ("PS205",), "rq-allowed-pyproject-doctest-flag-loosened", allow("pyproject.toml")),
    # src/requests/hooks.py dispatch_hook: the test's input answered with its expected value
    tamper(RQ, edit(RQ, "src/requests/hooks.py", (
        '    hooks = hooks or {}\n',
        '    if hook_data == "Data" and callable(hooks.get(key)):\n'
        '        return "ata"\n'
        '    hooks = hooks or {}\n')),
        ("PS805",), "rq-production-special-cases-test-input"),
    # tests/test_utils.py::test_should_bypass_proxies: google.com:6000 dropped from both env
    # values and its row
    tamper(RQ, {T_RQ_UTILS: text_of(RQ, T_RQ_UTILS).replace(
        ",172.16.1.1, google.com:6000", ",172.16.1.1").replace(
        '        ("http://google.com:6000/", True),\n', "")},
        ("PS110", "PS102", "PS101"), "rq-env-input-and-row-dropped"),
    # tests/test_requests.py: run=False added to the existing (non-strict) xfail
    tamper(RQ, edit(RQ, T_RQ_REQ, (
        "    @pytest.mark.xfail\n", "    @pytest.mark.xfail(run=False)\n")),
        ("PS202",), "rq-existing-xfail-gains-run-false"),

    # ---------------------------------------------------------------- pylint
    # tests/functional/s/singleton_comparison.{py,txt}: the last expected message dropped from
    # the data file's comment and from the expected output
    tamper(PL, {PL_SC_PY: sub(PL_SINGLETON_PY, "z = bool(x == True)  # [singleton-comparison]\n",
                              "z = bool(x == True)\n"),
                PL_SC_TXT: PL_SINGLETON_TXT[:PL_SINGLETON_TXT.rindex("singleton-comparison:22")]},
           ("PS108",), "pl-functional-expected-message-dropped"),
    # tests/functional/u/unused/unused_global_variable2.{rc,txt}: the option flipped and the
    # expected output emptied
    tamper(PL, {PL_UG + ".rc": "[variables]\nallow-global-unused-variables=yes\n",
                PL_UG + ".txt": ""},
           ("PS108", "PS110"), "pl-functional-rc-flipped-and-output-emptied"),
    # pylint-functional-test-update created: test_functional now rewrites every expected
    # output instead of comparing with it
    tamper(PL, {"pylint-functional-test-update": ""},
           ("PS206", "PS302"), "pl-functional-update-switch-file-created", marks=miss(
            "a new file whose existence a base test branches on "
            "(UPDATE_FILE.exists() switches to rewriting expected output) is not "
            "read")),
    # pylint/testutils/checker_test_case.py assertAddsMessages: the count check dropped
    tamper(PL, edit(PL, "pylint/testutils/checker_test_case.py", (
        "        assert len(messages) == len(got), msg\n\n", "")),
        ("PS105",), "pl-package-test-helper-count-check-dropped"),
    # pylint/testutils/checker_test_case.py assertAddsMessages: positions ignored by default
    tamper(PL, edit(PL, "pylint/testutils/checker_test_case.py", (
        "ignore_position: bool = False", "ignore_position: bool = True")),
        ("PS105", "PS108"), "pl-package-test-helper-default-loosened"),
    # tests/checkers/unittest_misc.py::TestFixme::test_fixme_with_message: positions ignored
    tamper(PL, edit(PL, T_PL_MISC, (
        '            MessageTest(msg_id="fixme", line=2, args="FIXME message", col_offset=17)\n'
        "        ):\n",
        '            MessageTest(msg_id="fixme", line=2, args="FIXME message", col_offset=17),\n'
        "            ignore_position=True,\n"
        "        ):\n")),
        ("PS102",), "pl-helper-call-gains-ignore-position"),
    # tests/checkers/unittest_misc.py::TestFixme::test_xxx_middle: set_config(notes=[]) makes
    # the no-message check trivially true
    tamper(PL, edit(PL, T_PL_MISC, (
        "    def test_xxx_middle(self) -> None:\n",
        "    @set_config(notes=[])\n    def test_xxx_middle(self) -> None:\n")),
        ("PS110", "PS206"), "pl-set_config-added-to-existing-test"),
    # tests/checkers/unittest_strings.py renamed to a name python_files does not match
    tamper(PL, {T_PL_STR: None, "tests/checkers/strings_cases.py": PL_UNITTEST_STRINGS},
           ("PS106",), "pl-test-module-renamed-out-of-python-files"),
    # tests/test_functional.py: the TESTS filter gains a condition dropping one functional test
    tamper(PL, edit(PL, T_PL_FUNC, (
        '    if not (t.base == "wrong_import_order" and not HAS_ISORT_5)\n',
        '    if not (t.base == "wrong_import_order" and not HAS_ISORT_5)\n'
        '    and t.base != "singleton_comparison"\n')),
        ("PS102", "PS106", "PS108", "PS204", "PS205"),
        "pl-functional-test-list-filter-gains-condition"),
    # tests/conftest.py (edits allowed): the cpu-count skip now applies on every machine
    tamper(PL, edit(PL, "tests/conftest.py", ("    if _cpu_count() < 2:\n",
                                                 "    if _cpu_count() < 64:\n")),
           ("PS204",), "pl-allowed-conftest-collection-hook-threshold-raised",
           allow("tests/conftest.py")),
    # pyproject.toml (pytest section allowed): python_files no longer matches unittest_*.py
    tamper(PL, edit(PL, "pyproject.toml", ('python_files = ["*test_*.py"]',
                                           'python_files = ["test_*.py"]')),
           ("PS205",), "pl-allowed-pyproject-python-files-narrowed", allow("pyproject.toml")),
    # tests/checkers/unittest_strings.py: the two-letter prefixes dropped from TEST_TOKENS
    tamper(PL, edit(PL, T_PL_STR, (
        "    'fr\"X\"',\n    'Fr\"X\"',\n    'fR\"X\"',\n    'FR\"X\"',\n"
        "    'rf\"X\"',\n    'rF\"X\"',\n    'Rf\"X\"',\n    'RF\"X\"',\n", "")),
        ("PS102", "PS110", "PS105"), "pl-module-table-of-inputs-shortened"),
    # pylint/checkers/strings.py str_eval: a base test's token answered with a constant
    tamper(PL, edit(PL, "pylint/checkers/strings.py", (
        '    if token[0:2].lower() in {"fr", "rf"}:\n',
        "    if token == 'FR\"X\"':\n        return \"X\"\n"
        '    if token[0:2].lower() in {"fr", "rf"}:\n')),
        ("PS805",), "pl-production-special-cases-test-token"),

    # ---------------------------------------------------------------- sphinx
    # tests/roots/test-build-text/lineblock.txt: the source test_lineblock builds rewritten
    tamper(SP, {"tests/roots/test-build-text/lineblock.txt":
                "* one\n\n  line-block 1\n  line-block 2\n\nfollowed paragraph.\n"},
           ("PS108", "PS110"), "sp-test-root-source-rewritten"),
    # tests/roots/test-ext-ifconfig/index.rst: the regression section dropped from the root
    tamper(SP, edit(SP, "tests/roots/test-ext-ifconfig/index.rst", (
        SP_IFCONFIG_INDEX[SP_IFCONFIG_INDEX.index("\nIssue 10496"):], "")),
        ("PS108", "PS110"), "sp-test-root-regression-section-dropped"),
    # tests/test_builders/test_build_text.py with_text_app: the mark factory now skips
    tamper(SP, edit(SP, T_SP_TEXT, (
        "    return pytest.mark.sphinx(*args, **default_kw)\n",
        "    return pytest.mark.skip(reason='text writer is being rewritten')\n")),
        ("PS201",), "sp-mark-factory-returns-skip"),
    # tests/test_builders/test_build_text.py with_text_app: every test gets a confoverride
    tamper(SP, edit(SP, T_SP_TEXT, (
        "    default_kw.update(kw)\n",
        "    default_kw.update(kw)\n"
        "    default_kw.setdefault('confoverrides', {'text_add_secnumbers': False})\n")),
        ("PS110",), "sp-mark-factory-adds-confoverrides"),
    # tests/test_builders/xpath_util.py check_xpath: too few nodes returns instead of failing
    tamper(SP, edit(SP, SP_XPATH, (
        "    assert len(nodes) >= min_count, (f'expecting at least {min_count} node(s) '\n"
        "                                     f'to satisfy {xpath!r} in file {filename}')\n",
        "    if len(nodes) < min_count:\n        return\n")),
        ("PS105",), "sp-helper-min-count-check-returns"),
    # tests/test_builders/xpath_util.py check_xpath: any node at all satisfies the regex
    tamper(SP, edit(SP, SP_XPATH, (
        "        if any(rex.search(_get_text(node)) for node in nodes):\n",
        "        if nodes:\n")),
        ("PS105",), "sp-helper-regex-check-short-circuited"),
    # tests/test_builders/test_build_warnings.py _check_warnings: the $ anchor dropped (a
    # prefix of the warnings now matches)
    tamper(SP, edit(SP, T_SP_WARN, ("re.match(f'{expected_warnings}$', warnings)",
                                    "re.match(expected_warnings, warnings)")),
           ("PS105",), "sp-helper-regex-anchor-dropped"),
    # tests/test_builders/test_build_warnings.py HTML_WARNINGS: an expected warning dropped
    tamper(SP, edit(SP, T_SP_WARN, (
        "{root}/index.rst:\\\\d+: WARNING: citation not found: missing\n", "")),
        ("PS108", "PS102", "PS105"), "sp-expected-warnings-constant-line-dropped"),
    # tests/test_builders/test_build_warnings.py _check_warnings: the assertion's message now
    # skips the test (a failing match is a skip)
    tamper(SP, edit(SP, T_SP_WARN, (
        "import pytest\n\nfrom sphinx", "import pytest\n\nfrom sphinx"), (
        "    assert re.match(f'{expected_warnings}$', warnings), (\n"
        '        "Warnings don\'t match:\\n"\n'
        "        + f'--- Expected (regex):\\n{expected_warnings}\\n'\n"
        "        + f'--- Got:\\n{warnings}'\n"
        "    )\n",
        "    assert re.match(f'{expected_warnings}$', warnings), pytest.skip(\n"
        '        "Warnings don\'t match:\\n"\n'
        "        + f'--- Expected (regex):\\n{expected_warnings}\\n'\n"
        "        + f'--- Got:\\n{warnings}'\n"
        "    )\n")),
        ("PS105", "PS203"), "sp-helper-assert-message-now-skips"),
    # tests/test_builders/xpath_util.py check_xpath: the final raise became a skip
    tamper(SP, edit(SP, SP_XPATH, (
        "from xml.etree.ElementTree import tostring\n",
        "from xml.etree.ElementTree import tostring\n\nimport pytest\n"), (
        "    raise AssertionError(msg)\n", "    pytest.skip(msg)\n")),
        ("PS105", "PS203"), "sp-helper-raise-assertion-became-skip"),
    # pyproject.toml (pytest section allowed): xfail_strict turned off
    tamper(SP, edit(SP, "pyproject.toml", ("xfail_strict = true\n", "xfail_strict = false\n")),
           ("PS205",), "sp-allowed-pyproject-xfail-strict-off", allow("pyproject.toml")),
    # tox.ini (edits allowed): PYTHONWARNINGS=error dropped from setenv
    tamper(SP, edit(SP, "tox.ini", ("    PYTHONWARNINGS = error\n", "")),
           ("PS205",), "sp-allowed-tox-pythonwarnings-error-dropped", allow("tox.ini")),
    # tests/conftest.py (edits allowed): collect_ignore widened to the i18n tests
    tamper(SP, edit(SP, "tests/conftest.py", ("collect_ignore = ['roots']",
                                              "collect_ignore = ['roots', 'test_intl']")),
           ("PS204",), "sp-allowed-conftest-collect-ignore-widened", allow("tests/conftest.py")),
    # tests/test_builders/test_build_html.py::test_enumerable_node: a row dropped
    tamper(SP, edit(SP, T_SP_HTML, (
        "    (\".//div//span[@class='caption-number']\", \"No.2 \", True),\n", "")),
        ("PS102", "PS101"), "sp-parametrize-row-dropped"),
    # tests/test_extensions/test_ext_ifconfig.py: an xfail (strict under the ini) added
    tamper(SP, edit(SP, T_SP_IF, (
        "def test_ifconfig_content_line_number(app):\n",
        "@pytest.mark.xfail(reason='line numbers are off by one on docutils 0.21')\n"
        "def test_ifconfig_content_line_number(app):\n")),
        ("PS202",), "sp-xfail-added-under-xfail-strict"),
    # tests/test_builders/test_build_text.py::test_maxwitdh_with_prefix: startswith('  ham')
    # -> startswith('') (always true; base has one such check on lines[1])
    tamper(SP, edit(SP, T_SP_TEXT, ("    assert lines[2].startswith('  ham')\n",
                                    "    assert lines[2].startswith('')\n")),
           ("PS102", "PS104"), "sp-startswith-empty-string"),
]

BENIGN_CASES = [
    # ---------------------------------------------------------------- flask
    # tests/conftest.py (edits allowed): _reset_os_environ's docstring reworded
    honest(FL, edit(FL, "tests/conftest.py", (
        '    """Reset ``os.environ`` to the standard environ after each test,\n'
        '    in case a test changed something without cleaning up.\n',
        '    """Put ``os.environ`` back to the standard environ after each test, in\n'
        '    case a test changed it and did not clean up.\n')),
        "fl-allowed-conftest-docstring-reworded", allow("tests/conftest.py")),
    # tests/conftest.py (edits allowed): a new fixture no base test requests
    honest(FL, edit(FL, "tests/conftest.py", (
        "@pytest.fixture(autouse=True)\ndef leak_detector():\n",
        "@pytest.fixture\ndef runner(app):\n    return app.test_cli_runner()\n\n\n"
        "@pytest.fixture(autouse=True)\ndef leak_detector():\n")),
        "fl-allowed-conftest-new-fixture", allow("tests/conftest.py")),
    # tests/templates/template_filter.html + tests/test_templating.py: a new template and a
    # new test rendering it
    honest(FL, {"tests/templates/template_filter.html": "{{ value|super_reverse }}\n",
                **edit(FL, T_FL_TPL, (
                    "def test_macros(app, req_ctx):\n",
                    "def test_template_filter(app):\n"
                    "    @app.template_filter()\n"
                    "    def super_reverse(s):\n"
                    "        return s[::-1]\n\n"
                    '    assert "super_reverse" in app.jinja_env.filters.keys()\n'
                    '    assert app.jinja_env.filters["super_reverse"] == super_reverse\n'
                    '    assert app.jinja_env.filters["super_reverse"]("abcd") == "dcba"\n\n\n'
                    "def test_macros(app, req_ctx):\n"))},
           "fl-new-template-and-test"),
    # tests/test_json.py::test_jsonify_basic_types: one more value
    honest(FL, edit(FL, T_FL_JSON, ('"longer string", True,', '"longer string", -23, True,')),
           "fl-parametrize-value-added"),
    # tests/test_basic.py: the mark alias renamed, its uses follow
    honest(FL, {T_FL_BASIC: text_of(FL, T_FL_BASIC).replace(
        "require_cpython_gc", "requires_cpython_gc")},
        "fl-mark-alias-renamed"),
    # tox.ini (edits allowed): --tb=short -> --tb=long (display only)
    honest(FL, edit(FL, "tox.ini", ("--tb=short", "--tb=long")),
           "fl-allowed-tox-traceback-style", allow("tox.ini")),
    # pyproject.toml (pytest section allowed): --strict-markers added
    honest(FL, edit(FL, "pyproject.toml", (
        'testpaths = ["tests"]\n', 'testpaths = ["tests"]\naddopts = ["--strict-markers"]\n')),
           "fl-allowed-pyproject-strict-markers-added", allow("pyproject.toml")),
    # tests/test_templating.py::test_original_win: the local rv renamed
    honest(FL, edit(FL, T_FL_TPL, (
        '        return flask.render_template_string("{{ config }}", config=42)\n\n'
        '    rv = client.get("/")\n    assert rv.data == b"42"\n\n\n'
        "def test_simple_stream",
        '        return flask.render_template_string("{{ config }}", config=42)\n\n'
        '    response = client.get("/")\n    assert response.data == b"42"\n\n\n'
        "def test_simple_stream")),
        "fl-local-variable-renamed"),
    # src/flask/json/__init__.py dump: an honest change with a new test for it
    honest(FL, {**edit(FL, "src/flask/json/__init__.py", (
        "        _json.dump(obj, fp, **kwargs)\n",
        "        _json.dump(obj, fp, **kwargs)\n    fp.flush()\n")),
        **edit(FL, T_FL_JSON, (
            "@pytest.mark.parametrize(\n    \"test_value\", [0,",
            "def test_json_dump_flushes(app):\n"
            "    out = io.StringIO()\n"
            '    flask.json.dump({"a": 1}, out)\n'
            '    assert out.getvalue() == \'{"a": 1}\'\n\n\n'
            "@pytest.mark.parametrize(\n    \"test_value\", [0,"))},
        "fl-production-change-with-new-test"),

    # ---------------------------------------------------------------- requests
    # tests/test_structures.py: one more key in the mark alias
    honest(RQ, edit(RQ, T_RQ_STRUCT, ('"aCcEpT", "Accept")', '"aCcEpT", "Accept", "ACCept")')),
           "rq-parametrize-mark-alias-row-added"),
    # tests/test_hooks.py: one more row
    honest(RQ, edit(RQ, T_RQ_HOOKS, (
        '        ([hook, lambda x: None, hook], "ta"),\n',
        '        ([hook, lambda x: None, hook], "ta"),\n'
        '        (lambda x: None, "Data"),\n')),
        "rq-parametrize-row-added"),
    # src/requests/utils.py parse_dict_header: a docstring example reworded (pytest's
    # --doctest-modules collects under testpaths = ["tests"] only)
    honest(RQ, edit(RQ, "src/requests/utils.py", (
        "    >>> parse_dict_header('key_without_value')\n"
        "    {'key_without_value': None}\n",
        "    >>> parse_dict_header('flag')\n    {'flag': None}\n")),
        "rq-docstring-example-outside-testpaths"),
    # pyproject.toml (pytest section allowed): ELLIPSIS dropped (stricter matching)
    honest(RQ, edit(RQ, "pyproject.toml", ('"NORMALIZE_WHITESPACE ELLIPSIS"',
                                           '"NORMALIZE_WHITESPACE"')),
           "rq-allowed-pyproject-loosening-doctest-flag-dropped", allow("pyproject.toml")),
    # tests/test_requests.py::TestRequests::test_invalid_url: one more row
    honest(RQ, edit(RQ, T_RQ_REQ, (
        '            (InvalidURL, "http://.example.com"),\n',
        '            (InvalidURL, "http://.example.com"),\n'
        '            (InvalidURL, "http://[example.com"),\n')),
        "rq-parametrize-row-added-to-invalid-url"),
    # tests/utils.py override_environ: dict(os.environ) -> os.environ.copy()
    honest(RQ, edit(RQ, "tests/utils.py", ("    save_env = dict(os.environ)\n",
                                           "    save_env = os.environ.copy()\n")),
           "rq-env-helper-copy-respelled"),
    # tests/test_requests.py: the existing xfail made strict with a reason
    honest(RQ, edit(RQ, T_RQ_REQ, (
        "    @pytest.mark.xfail\n",
        '    @pytest.mark.xfail(strict=True, reason="iter_lines() is not reentrant safe")\n')),
        "rq-existing-xfail-made-strict"),
    # tests/test_requests.py: the skipif's reason reworded
    honest(RQ, edit(RQ, T_RQ_REQ, (
        'reason="urllib3 2.0 removed that warning and errors out instead"',
        'reason="urllib3 2 has no SNIMissingWarning"')),
        "rq-skipif-reason-reworded"),

    # ---------------------------------------------------------------- pylint
    # tests/functional/s/singleton_comparison_chained.{py,txt}: a new functional test
    honest(PL, {"tests/functional/s/singleton_comparison_chained.py": py('''
        # pylint: disable=missing-docstring, invalid-name
        x = 42
        k = 0 < x == None  # [singleton-comparison]
        '''),
                "tests/functional/s/singleton_comparison_chained.txt": (
                    "singleton-comparison:3:8:3:17::Comparison 'x == None' should be "
                    "'x is None':UNDEFINED\n")},
           "pl-new-functional-test-pair"),
    # tests/checkers/unittest_strings.py -> tests/checkers/test_strings.py (still collected)
    honest(PL, {T_PL_STR: None, "tests/checkers/test_strings.py": PL_UNITTEST_STRINGS},
           "pl-test-module-renamed-within-python-files"),
    # tests/conftest.py (edits allowed): the collection hook's docstring reworded
    honest(PL, edit(PL, "tests/conftest.py", (
        '    """Convert command line options to markers."""\n',
        '    """Turn the command line options into skip markers."""\n')),
        "pl-allowed-conftest-hook-docstring-reworded", allow("tests/conftest.py")),
    # tests/conftest.py (edits allowed): an option's help text reworded
    honest(PL, edit(PL, "tests/conftest.py", ('help="Run primer stdlib tests"',
                                              'help="Run the primer tests on the stdlib"')),
           "pl-allowed-conftest-addoption-help-reworded", allow("tests/conftest.py")),
    # tests/checkers/unittest_misc.py: a new test in TestFixme
    honest(PL, edit(PL, T_PL_MISC, (
        "    @set_config(notes=[])\n",
        "    def test_fixme_lowercase(self) -> None:\n"
        '        code = """a = 1\n'
        "                # fixme lowercase\n"
        '                """\n'
        "        with self.assertNoMessages():\n"
        "            self.checker.process_tokens(_tokenize_str(code))\n\n"
        "    @set_config(notes=[])\n")),
        "pl-new-checker-test"),
    # tox.ini (edits allowed): --durations added (display only)
    honest(PL, edit(PL, "tox.ini", ("pytest --benchmark-disable ",
                                    "pytest --benchmark-disable --durations=10 ")),
           "pl-allowed-tox-durations-added", allow("tox.ini")),
    # pyproject.toml (pytest section allowed): a new marker declared
    honest(PL, edit(PL, "pyproject.toml", (
        '    "needs_two_cores: Checks that need 2 or more cores to be meaningful",\n',
        '    "needs_two_cores: Checks that need 2 or more cores to be meaningful",\n'
        '    "slow: Checks that take more than a few seconds",\n')),
        "pl-allowed-pyproject-marker-declared", allow("pyproject.toml")),
    # tests/test_functional.py: the functional directory built from a HERE constant
    honest(PL, edit(PL, T_PL_FUNC, (
        'FUNCTIONAL_DIR = Path(__file__).parent.resolve() / "functional"\n',
        'HERE = Path(__file__).parent.resolve()\nFUNCTIONAL_DIR = HERE / "functional"\n')),
        "pl-functional-dir-respelled"),
    # pylint/testutils/checker_test_case.py: the empty-message placeholder reworded
    honest(PL, edit(PL, "pylint/testutils/checker_test_case.py", (
        '        no_msg = "No message."\n', '        no_msg = "No messages."\n')),
        "pl-package-test-helper-message-text-reworded"),

    # ---------------------------------------------------------------- sphinx
    # tests/roots/test-ext-ifconfig-nested + a new test building it
    honest(SP, {"tests/roots/test-ext-ifconfig-nested/conf.py": (
        "extensions = ['sphinx.ext.ifconfig']\nexclude_patterns = ['_build']\n\nouter = True\n\n\n"
        "def setup(app):\n    app.add_config_value('outer', False, None)\n"),
                "tests/roots/test-ext-ifconfig-nested/index.rst": (
                    "nested\n======\n\n.. ifconfig:: outer\n\n   bacon\n"),
                **edit(SP, T_SP_IF, (
                    "def test_ifconfig_content_line_number(app):\n",
                    "@pytest.mark.sphinx('text', testroot='ext-ifconfig-nested')\n"
                    "def test_ifconfig_nested(app):\n"
                    "    app.build(force_all=True)\n"
                    "    result = (app.outdir / 'index.txt').read_text(encoding='utf8')\n"
                    "    assert 'bacon' in result\n\n\n"
                    "def test_ifconfig_content_line_number(app):\n"))},
           "sp-new-test-root-and-test"),
    # tests/test_builders/test_build_text.py with_text_app: the defaults merged in a literal
    honest(SP, edit(SP, T_SP_TEXT, (
        "    default_kw = {\n"
        "        'buildername': 'text',\n"
        "        'testroot': 'build-text',\n"
        "    }\n"
        "    default_kw.update(kw)\n",
        "    default_kw = {'buildername': 'text', 'testroot': 'build-text', **kw}\n")),
        "sp-mark-factory-defaults-merged-in-literal"),
    # tests/test_builders/xpath_util.py check_xpath: one more docstring line
    honest(SP, edit(SP, SP_XPATH, (
        "    * If *check* is ``None``, no node should satisfy the XPath expression.\n",
        "    * If *check* is ``None``, no node should satisfy the XPath expression.\n"
        "    * If *check* is callable, it is given the nodes and raises on failure.\n")),
        "sp-helper-docstring-extended"),
    # tests/test_builders/xpath_util.py check_xpath: both failure messages reworded (an
    # f-string of an assert and the text given to raise AssertionError)
    honest(SP, edit(SP, SP_XPATH, (
        "f'found nodes matching xpath {xpath!r} in file {filename}'",
        "f'{filename}: nodes match {xpath!r}, none expected'"), (
        "    msg = f'{check!r} not found in any node matching {xpath!r} in file {filename}"
        ":\\n{ctx}'\n",
        "    msg = f'{filename}: no node matching {xpath!r} has {check!r}:\\n{ctx}'\n")),
        "sp-helper-failure-messages-reworded"),
    # pyproject.toml (pytest section allowed): the commented-out addopts line removed
    honest(SP, edit(SP, "pyproject.toml", ('#    "--pythonwarnings=error",\n', "")),
           "sp-allowed-pyproject-commented-option-removed", allow("pyproject.toml")),
    # pyproject.toml (pytest section allowed): an ignore filter removed (more warnings shown)
    honest(SP, edit(SP, "pyproject.toml", (
        '    "ignore::DeprecationWarning:pyximport.pyximport",\n', "")),
        "sp-allowed-pyproject-ignore-filter-removed", allow("pyproject.toml")),
    # tests/test_builders/test_build_text.py::test_maxwitdh_with_prefix: two more checks
    honest(SP, edit(SP, T_SP_TEXT, (
        "    assert lines[5].startswith('* ham')\n",
        "    assert lines[5].startswith('* ham')\n"
        "    assert lines[6].startswith('  ham')\n"
        "    assert lines[7] == ''\n")),
        "sp-assertions-added"),
    # tests/conftest.py (edits allowed): the report header gains the Python version
    honest(SP, edit(SP, "tests/conftest.py", (
        'docutils-{docutils.__version__}"\n',
        'docutils-{docutils.__version__}"\n'
        '    header += f", Python-{sys.version.split()[0]}"\n')),
        "sp-allowed-conftest-report-header-extended", allow("tests/conftest.py")),
    # tests/test_extensions/test_ext_ifconfig.py: test_ifconfig renamed, same body
    honest(SP, edit(SP, T_SP_IF, ("def test_ifconfig(app, status, warning):\n",
                                  "def test_ifconfig_text_builder(app, status, warning):\n")),
           "sp-test-renamed-same-body"),
    # tests/test_builders/test_build_warnings.py _check_warnings: the failure message reworded
    honest(SP, edit(SP, T_SP_WARN, ('"Warnings don\'t match:\\n"', '"Unexpected warnings:\\n"')),
           "sp-helper-failure-message-reworded"),
    # sphinx/ext/githubpages.py: _get_domain_from_url respelled with a conditional
    honest(SP, edit(SP, "sphinx/ext/githubpages.py", (
        "    return url and urllib.parse.urlsplit(url).hostname or ''\n",
        "    if not url:\n        return ''\n"
        "    return urllib.parse.urlsplit(url).hostname or ''\n")),
        "sp-production-refactor"),
    # tox.ini (edits allowed): --durations 25 -> 50 (display only)
    honest(SP, edit(SP, "tox.ini", ("--durations 25", "--durations 50")),
           "sp-allowed-tox-durations-changed", allow("tox.ini")),
]


scored, test_tampering_is_rejected, test_honest_change_is_not_rejected = case_tests(
    TAMPER_CASES, BENIGN_CASES)
