"""A blind accuracy set for the call graph: small programs written like real project code,
each with the complete set of edges between its own definitions, checked by reading the
code with Python's semantics (what can run), without looking at the resolver.

The format and notation are those of ``tests/callgraph_cases.py`` (``"src -> dst kind"``,
kinds ``call``, ``decorator``, ``import``, ``inherit``, ``fixture``; nodes ``pkg.mod`` and
``pkg.mod:Class.method``, nested functions ``mod:outer.inner``). Where Python leaves a
choice of notation open, these cases read it as follows (1-5 are how the specification
cases read it, extended to what they do not show; the rest follow Python):

1. A call belongs to the innermost enclosing function or method; lambdas, comprehensions
   and generator expressions belong to the function around them; a class body (and the
   decorators and default values of the methods in it) to the class; module-level code
   (and the decorators and default values of module-level definitions) to the module.
   A lambda is no node: its calls also belong to whoever calls the lambda.
2. Calling a class is an edge to the class and, when the tree defines one in its MRO, to
   the ``__init__`` that runs.
3. Calling a decorated name is an edge to the definition (as the specification's
   ``main -> work``), not to the wrapper the decorator returned.
4. Applying a decorator is ``scope -> decorator decorator``; ``@deco(args)`` is
   ``scope -> deco call`` (the factory runs) plus ``scope -> deco.inner decorator`` (what it
   returned is applied). A class applied as a decorator is constructed: its ``__init__``
   is a ``call``.
5. ``import a.b`` is an edge to ``a.b``; ``from a import b`` to ``a``, and to ``a.b`` too when
   ``b`` is a submodule. An import inside a function belongs to that function. A module
   never imports itself; modules outside the tree are not compared.
6. A method reached through ``self``, ``cls`` or ``super()`` may run for the class and for
   every tree subclass that can be ``self``: each definition the MRO of one of them finds is
   an edge (so a base-class call of an overridden method reaches the override too).
7. A call on a receiver nothing in the program binds (a parameter no call site binds, a
   value from outside the tree) has no edge between the program's definitions.
8. A function handed to a builtin that calls it (``sorted(key=)``, ``map``) is called by the
   scope that handed it over; handing it to an outside library is not a call.
9. Calls Python makes for the code: a property read runs its getter, ``with x`` runs
   ``__enter__`` and ``__exit__``, constructing a dataclass runs ``__post_init__``, and
   pytest runs the fixtures a test requests (by parameter, ``usefixtures``, ``autouse`` in
   scope; a fixture may request fixtures) and ``setup_method`` / ``setUp`` before each test
   (``fixture`` edges). An ``if TYPE_CHECKING:`` import never runs.

Files under a directory without ``__init__.py`` (``tests/``) are top-level modules, as
pytest's rootdir import puts them (``tests/test_x.py`` is ``test_x``); several
``conftest.py`` keep their dotted path. Used by tests/test_callgraph_blind.py (per edge)
and benchmarks/bench_callgraph.py (``--cases blind``).
"""

from __future__ import annotations

import textwrap

from callgraph_cases import GraphCase


def _case(name: str, category: str, files: dict[str, str], *edges: str) -> GraphCase:
    return GraphCase(name, category,
                     {path: textwrap.dedent(src).lstrip("\n") for path, src in files.items()},
                     frozenset(edges))


BLIND_CASES: list[GraphCase] = [
    # A plugin registry filled by a decorator factory at import time and read back by
    # name in another module; the module function `export` must not link to the methods'
    # namesakes except through the instance.
    _case("plugin registry", "decorators", {
        "exporters/__init__.py": "from .registry import get_exporter, register\n",
        "exporters/registry.py": """
            _REGISTRY = {}


            def register(name):
                def decorator(cls):
                    _REGISTRY[name] = cls
                    return cls
                return decorator


            def get_exporter(name):
                return _REGISTRY[name]()
            """,
        "exporters/formats.py": """
            from .registry import register


            @register("csv")
            class CsvExporter:
                def export(self, rows):
                    return ",".join(map(str, rows))


            @register("tsv")
            class TsvExporter:
                def export(self, rows):
                    return "|".join(map(str, rows))
            """,
        "app.py": """
            import exporters.formats
            from exporters import get_exporter


            def export(fmt, rows):
                return get_exporter(fmt).export(rows)
            """,
    }, "exporters -> exporters.registry import",
        "exporters.formats -> exporters.registry import",
        "exporters.formats -> exporters.registry:register call",
        "exporters.formats -> exporters.registry:register.decorator decorator",
        "exporters.registry:get_exporter -> exporters.formats:CsvExporter call",
        "exporters.registry:get_exporter -> exporters.formats:TsvExporter call",
        "app -> exporters.formats import", "app -> exporters import",
        "app:export -> exporters.registry:get_exporter call",
        "app:export -> exporters.formats:CsvExporter.export call",
        "app:export -> exporters.formats:TsvExporter.export call"),

    # A CLI dispatch table in one module, looked up by subscript in another, and the
    # `if __name__ == "__main__"` call (it runs when the module is the script).
    _case("CLI dispatch table", "containers", {
        "cli/__init__.py": "",
        "cli/commands.py": """
            def cmd_init(args):
                return _write_config(args)


            def cmd_status(args):
                return 0


            def _write_config(path):
                return path


            COMMANDS = {
                "init": cmd_init,
                "status": cmd_status,
            }
            """,
        "cli/main.py": """
            import sys

            from .commands import COMMANDS


            def main(argv=None):
                argv = sys.argv[1:] if argv is None else argv
                name, *rest = argv
                handler = COMMANDS[name]
                return handler(rest)


            if __name__ == "__main__":
                sys.exit(main())
            """,
    }, "cli.commands:cmd_init -> cli.commands:_write_config call",
        "cli.main -> cli.commands import",
        "cli.main:main -> cli.commands:cmd_init call",
        "cli.main:main -> cli.commands:cmd_status call",
        "cli.main -> cli.main:main call"),

    # argparse's set_defaults(func=...): argparse stores the function and `ns.func(ns)`
    # calls it; handing it to set_defaults is not itself a call (build_parser calls none).
    _case("argparse set_defaults dispatch", "dynamic", {
        "tool.py": """
            import argparse


            def do_build(ns):
                return compile_all(ns.target)


            def do_clean(ns):
                return 0


            def compile_all(target):
                return target


            def build_parser():
                parser = argparse.ArgumentParser()
                sub = parser.add_subparsers()
                b = sub.add_parser("build")
                b.add_argument("target")
                b.set_defaults(func=do_build)
                c = sub.add_parser("clean")
                c.set_defaults(func=do_clean)
                return parser


            def main(argv):
                ns = build_parser().parse_args(argv)
                return ns.func(ns)
            """,
    }, "tool:do_build -> tool:compile_all call", "tool:main -> tool:build_parser call",
        "tool:main -> tool:do_build call", "tool:main -> tool:do_clean call"),

    # A pytest suite: a yield fixture, a factory fixture returning a closure that uses
    # the fixture it requested, a fixture renamed with name=, an autouse fixture, and
    # usefixtures on a class.
    _case("pytest suite with factories", "fixtures", {
        "shop/__init__.py": "",
        "shop/models.py": """
            class Customer:
                def __init__(self, name, email=None):
                    self.name = name
                    self.email = email

                def display(self):
                    return self.name.title()


            class Store:
                def __init__(self):
                    self.customers = []

                def add(self, customer):
                    self.customers.append(customer)
                    return customer

                def close(self):
                    self.customers.clear()
            """,
        "tests/conftest.py": """
            import pytest

            from shop.models import Customer, Store


            @pytest.fixture
            def store():
                s = Store()
                yield s
                s.close()


            @pytest.fixture
            def make_customer(store):
                def _make(name="ann", **kwargs):
                    return store.add(Customer(name, **kwargs))
                return _make


            @pytest.fixture(name="customer")
            def customer_fixture(make_customer):
                return make_customer()


            @pytest.fixture(autouse=True)
            def _reset_env(monkeypatch):
                monkeypatch.setenv("SHOP_ENV", "test")
            """,
        "tests/test_customers.py": """
            import pytest


            def test_display(customer):
                assert customer.display() == "Ann"


            def test_factory(make_customer):
                c = make_customer("bob", email="b@example.org")
                assert c.email == "b@example.org"


            @pytest.mark.usefixtures("store")
            class TestStore:
                def test_empty(self):
                    assert True
            """,
    }, "conftest -> shop.models import",
        "conftest:store -> shop.models:Store call",
        "conftest:store -> shop.models:Store.__init__ call",
        "conftest:store -> shop.models:Store.close call",
        "conftest:make_customer -> conftest:store fixture",
        "conftest:make_customer._make -> shop.models:Store.add call",
        "conftest:make_customer._make -> shop.models:Customer call",
        "conftest:make_customer._make -> shop.models:Customer.__init__ call",
        "conftest:customer_fixture -> conftest:make_customer fixture",
        "conftest:customer_fixture -> conftest:make_customer._make call",
        "test_customers:test_display -> conftest:customer_fixture fixture",
        "test_customers:test_display -> conftest:_reset_env fixture",
        "test_customers:test_display -> shop.models:Customer.display call",
        "test_customers:test_factory -> conftest:make_customer fixture",
        "test_customers:test_factory -> conftest:_reset_env fixture",
        "test_customers:test_factory -> conftest:make_customer._make call",
        "test_customers:TestStore.test_empty -> conftest:store fixture",
        "test_customers:TestStore.test_empty -> conftest:_reset_env fixture"),

    # Negative: a test module's own fixture overrides the conftest fixture of the same
    # name, so the test never requests conftest's.
    _case("fixture overridden in the test module", "fixtures", {
        "app_settings.py": """
            class Settings:
                def __init__(self, debug):
                    self.debug = debug

                def is_debug(self):
                    return self.debug
            """,
        "tests/conftest.py": """
            import pytest

            from app_settings import Settings


            @pytest.fixture
            def settings():
                return Settings(debug=False)
            """,
        "tests/test_debug.py": """
            import pytest

            from app_settings import Settings


            @pytest.fixture
            def settings():
                return Settings(debug=True)


            def test_debug_flag(settings):
                assert settings.is_debug()
            """,
    }, "conftest -> app_settings import", "test_debug -> app_settings import",
        "conftest:settings -> app_settings:Settings call",
        "conftest:settings -> app_settings:Settings.__init__ call",
        "test_debug:settings -> app_settings:Settings call",
        "test_debug:settings -> app_settings:Settings.__init__ call",
        "test_debug:test_debug_flag -> test_debug:settings fixture",
        "test_debug:test_debug_flag -> app_settings:Settings.is_debug call"),

    # Fixtures by directory: each conftest serves its own subtree only, so the unit test's
    # `client` is the unit conftest's, never the api conftest's.
    _case("conftest hierarchy", "fixtures", {
        "tests/conftest.py": """
            import pytest


            @pytest.fixture
            def app():
                return create_app()


            def create_app():
                return {"name": "app"}
            """,
        "tests/api/conftest.py": """
            import pytest


            @pytest.fixture
            def client(app):
                return make_client(app)


            def make_client(app):
                return app
            """,
        "tests/unit/conftest.py": """
            import pytest


            @pytest.fixture
            def client():
                return None
            """,
        "tests/api/test_routes.py": """
            def test_index(client):
                assert client
            """,
        "tests/unit/test_models.py": """
            def test_model(client, app):
                assert client is None
            """,
    }, "tests.conftest:app -> tests.conftest:create_app call",
        "tests.api.conftest:client -> tests.conftest:app fixture",
        "tests.api.conftest:client -> tests.api.conftest:make_client call",
        "test_routes:test_index -> tests.api.conftest:client fixture",
        "test_models:test_model -> tests.unit.conftest:client fixture",
        "test_models:test_model -> tests.conftest:app fixture"),

    # A Django-like model: managers as class attributes (class-body calls), a manager
    # subclass overriding get_queryset (reached through self in the base manager),
    # querysets returned and chained, a list parameter annotated with the model.
    _case("models with managers", "assignments", {
        "blog/__init__.py": "",
        "blog/db.py": """
            class QuerySet:
                def __init__(self, filters=()):
                    self.filters = filters

                def filter(self, **kwargs):
                    return QuerySet(self.filters + tuple(kwargs.items()))

                def first(self):
                    return self.filters[0] if self.filters else None


            class Manager:
                def get_queryset(self):
                    return QuerySet()

                def filter(self, **kwargs):
                    return self.get_queryset().filter(**kwargs)


            class Model:
                objects = Manager()

                def save(self):
                    self.full_clean()

                def full_clean(self):
                    pass
            """,
        "blog/models.py": """
            from .db import Manager, Model


            class PublishedManager(Manager):
                def get_queryset(self):
                    return super().get_queryset().filter(status="published")


            class Post(Model):
                objects = Manager()
                published = PublishedManager()

                def publish(self):
                    self.status = "published"
                    self.save()
            """,
        "blog/views.py": """
            from .models import Post


            def latest_post():
                return Post.published.filter(featured=True).first()


            def publish_all(posts: list[Post]):
                for post in posts:
                    post.publish()
            """,
    }, "blog.db:QuerySet.filter -> blog.db:QuerySet call",
        "blog.db:QuerySet.filter -> blog.db:QuerySet.__init__ call",
        "blog.db:Manager.get_queryset -> blog.db:QuerySet call",
        "blog.db:Manager.get_queryset -> blog.db:QuerySet.__init__ call",
        "blog.db:Manager.filter -> blog.db:Manager.get_queryset call",
        "blog.db:Manager.filter -> blog.models:PublishedManager.get_queryset call",
        "blog.db:Manager.filter -> blog.db:QuerySet.filter call",
        "blog.db:Model -> blog.db:Manager call",
        "blog.db:Model.save -> blog.db:Model.full_clean call",
        "blog.models -> blog.db import",
        "blog.models:PublishedManager -> blog.db:Manager inherit",
        "blog.models:PublishedManager.get_queryset -> blog.db:Manager.get_queryset call",
        "blog.models:PublishedManager.get_queryset -> blog.db:QuerySet.filter call",
        "blog.models:Post -> blog.db:Model inherit",
        "blog.models:Post -> blog.db:Manager call",
        "blog.models:Post -> blog.models:PublishedManager call",
        "blog.models:Post.publish -> blog.db:Model.save call",
        "blog.views -> blog.models import",
        "blog.views:latest_post -> blog.db:Manager.filter call",
        "blog.views:latest_post -> blog.db:QuerySet.first call",
        "blog.views:publish_all -> blog.models:Post.publish call"),

    # Dataclasses: an attribute typed by its field annotation, __post_init__ run by the
    # generated __init__, a frozen dataclass's method.
    _case("dataclasses with methods", "classes", {
        "geometry.py": """
            from dataclasses import dataclass, field


            def _validate_positive(value, name):
                if value <= 0:
                    raise ValueError(name)


            @dataclass(frozen=True)
            class Point:
                x: float
                y: float

                def distance_to(self, other: "Point") -> float:
                    return ((self.x - other.x) ** 2 + (self.y - other.y) ** 2) ** 0.5


            @dataclass
            class Circle:
                center: Point
                radius: float
                tags: list = field(default_factory=list)

                def __post_init__(self):
                    _validate_positive(self.radius, "radius")

                def contains(self, p: Point) -> bool:
                    return self.center.distance_to(p) <= self.radius


            def unit_circle():
                return Circle(Point(0, 0), 1)


            def is_inside(x, y):
                return unit_circle().contains(Point(x, y))
            """,
    }, "geometry:Circle.__post_init__ -> geometry:_validate_positive call",
        "geometry:Circle.contains -> geometry:Point.distance_to call",
        "geometry:unit_circle -> geometry:Circle call",
        "geometry:unit_circle -> geometry:Circle.__post_init__ call",
        "geometry:unit_circle -> geometry:Point call",
        "geometry:is_inside -> geometry:unit_circle call",
        "geometry:is_inside -> geometry:Circle.contains call",
        "geometry:is_inside -> geometry:Point call"),

    # Cooperative mixins: each super().dispatch goes to the next class in ProfileView's
    # MRO (LoginRequiredMixin -> LoggingMixin -> View), never skipping one; View.dispatch's
    # self.get reaches the override.
    _case("mixin super() chain", "super", {
        "views.py": """
            class View:
                def dispatch(self, request):
                    return self.get(request)

                def get(self, request):
                    return None


            class LoginRequiredMixin:
                def dispatch(self, request):
                    if not request.user:
                        return deny()
                    return super().dispatch(request)


            class LoggingMixin:
                def dispatch(self, request):
                    log(request)
                    return super().dispatch(request)


            class ProfileView(LoginRequiredMixin, LoggingMixin, View):
                def get(self, request):
                    return render_profile(request.user)


            def deny():
                return 403


            def log(request):
                pass


            def render_profile(user):
                return user


            def handle(request):
                return ProfileView().dispatch(request)
            """,
    }, "views:ProfileView -> views:LoginRequiredMixin inherit",
        "views:ProfileView -> views:LoggingMixin inherit",
        "views:ProfileView -> views:View inherit",
        "views:View.dispatch -> views:View.get call",
        "views:View.dispatch -> views:ProfileView.get call",
        "views:LoginRequiredMixin.dispatch -> views:deny call",
        "views:LoginRequiredMixin.dispatch -> views:LoggingMixin.dispatch call",
        "views:LoggingMixin.dispatch -> views:log call",
        "views:LoggingMixin.dispatch -> views:View.dispatch call",
        "views:ProfileView.get -> views:render_profile call",
        "views:handle -> views:ProfileView call",
        "views:handle -> views:LoginRequiredMixin.dispatch call"),

    # Diamond inheritance: Right.wave's self.greet() finds Left.greet first for a Child;
    # Left's super().greet() is Right.greet for a Child and Base.greet for a Left.
    _case("diamond MRO", "inheritance", {
        "diamond.py": """
            class Base:
                def greet(self):
                    return "base"


            class Left(Base):
                def greet(self):
                    return "left " + super().greet()


            class Right(Base):
                def greet(self):
                    return "right"

                def wave(self):
                    return self.greet()


            class Child(Left, Right):
                pass


            def main():
                c = Child()
                return c.greet(), c.wave()
            """,
    }, "diamond:Left -> diamond:Base inherit", "diamond:Right -> diamond:Base inherit",
        "diamond:Child -> diamond:Left inherit", "diamond:Child -> diamond:Right inherit",
        "diamond:Left.greet -> diamond:Base.greet call",
        "diamond:Left.greet -> diamond:Right.greet call",
        "diamond:Right.wave -> diamond:Right.greet call",
        "diamond:Right.wave -> diamond:Left.greet call",
        "diamond:main -> diamond:Child call",
        "diamond:main -> diamond:Left.greet call",
        "diamond:main -> diamond:Right.wave call"),

    # Properties: reading one runs the getter (in an f-string here); `@balance.setter`
    # is property's own method, not a call of the getter.
    _case("properties", "classes", {
        "account.py": """
            class Account:
                def __init__(self, owner):
                    self.owner = owner
                    self._entries = []

                @property
                def balance(self):
                    return sum(self._entries) + self._overdraft_limit()

                @balance.setter
                def balance(self, value):
                    self._entries = [value]

                def _overdraft_limit(self):
                    return 0

                @property
                def label(self):
                    return format_owner(self.owner)


            def format_owner(name):
                return name.upper()


            def summary(acct: Account):
                return f"{acct.label}: {acct.balance}"
            """,
    }, "account:Account.balance -> account:Account._overdraft_limit call",
        "account:Account.label -> account:format_owner call",
        "account:summary -> account:Account.label call",
        "account:summary -> account:Account.balance call"),

    # An alternative constructor (classmethod calling cls(...) and a staticmethod through
    # cls), a staticmethod through the class name, a value rebound in a loop.
    _case("classmethods and staticmethods", "self/cls", {
        "money.py": """
            class Money:
                def __init__(self, cents):
                    self.cents = cents

                @classmethod
                def from_string(cls, text):
                    return cls(cls._parse(text))

                @staticmethod
                def _parse(text):
                    return int(round(float(text) * 100))

                def plus(self, other):
                    return Money(self.cents + other.cents)

                def format(self):
                    return Money.format_cents(self.cents)

                @staticmethod
                def format_cents(cents):
                    return "%d.%02d" % divmod(cents, 100)


            def total(prices):
                result = Money(0)
                for p in prices:
                    result = result.plus(Money.from_string(p))
                return result.format()
            """,
    }, "money:Money.from_string -> money:Money call",
        "money:Money.from_string -> money:Money.__init__ call",
        "money:Money.from_string -> money:Money._parse call",
        "money:Money.plus -> money:Money call",
        "money:Money.plus -> money:Money.__init__ call",
        "money:Money.format -> money:Money.format_cents call",
        "money:total -> money:Money call", "money:total -> money:Money.__init__ call",
        "money:total -> money:Money.plus call", "money:total -> money:Money.from_string call",
        "money:total -> money:Money.format call"),

    # A retry decorator with arguments and functools.wraps, on a function and on a method:
    # the factory runs where the decorator is written (module, class body), the wrapper
    # calls every function it was applied to.
    _case("decorator factory with wraps", "decorators", {
        "retry.py": """
            import functools
            import time


            def retry(times=3, delay=0.0):
                def decorator(fn):
                    @functools.wraps(fn)
                    def wrapper(*args, **kwargs):
                        for attempt in range(times):
                            try:
                                return fn(*args, **kwargs)
                            except ConnectionError:
                                time.sleep(delay)
                                backoff(attempt)
                        return fn(*args, **kwargs)
                    return wrapper
                return decorator


            def backoff(attempt):
                return attempt * 2


            @retry(times=5)
            def fetch(url):
                return url


            class Client:
                @retry()
                def get(self, path):
                    return fetch(path)
            """,
    }, "retry -> retry:retry call", "retry -> retry:retry.decorator decorator",
        "retry:Client -> retry:retry call",
        "retry:Client -> retry:retry.decorator decorator",
        "retry:retry.decorator.wrapper -> retry:fetch call",
        "retry:retry.decorator.wrapper -> retry:Client.get call",
        "retry:retry.decorator.wrapper -> retry:backoff call",
        "retry:Client.get -> retry:fetch call"),

    # A class used as a decorator: applying it constructs it (its __init__ runs), its
    # __call__ calls the wrapped function through self.fn; the recursion calls the name.
    _case("class-based decorator", "decorators", {
        "memo.py": """
            class memoize:
                def __init__(self, fn):
                    self.fn = fn
                    self.store = {}

                def __call__(self, *args):
                    if args not in self.store:
                        self.store[args] = self.fn(*args)
                    return self.store[args]


            @memoize
            def fib(n):
                return n if n < 2 else fib(n - 1) + fib(n - 2)


            def main():
                return fib(10)
            """,
    }, "memo -> memo:memoize decorator", "memo -> memo:memoize.__init__ call",
        "memo:memoize.__call__ -> memo:fib call", "memo:fib -> memo:fib call",
        "memo:main -> memo:fib call"),

    # An event bus: callbacks registered by a decorator, by functools.partial and as a
    # lambda, kept in a module list and called later by emit (the lambda's call of record
    # is written in setup and run by emit).
    _case("event bus callbacks", "containers", {
        "events.py": """
            import functools

            _listeners = []


            def subscribe(callback):
                _listeners.append(callback)
                return callback


            def emit(event):
                for listener in list(_listeners):
                    listener(event)


            def notify_user(event, channel):
                send(channel, event)


            def send(channel, event):
                pass


            @subscribe
            def audit(event):
                record(event)


            def record(event):
                pass


            def setup():
                subscribe(functools.partial(notify_user, channel="email"))
                subscribe(lambda e: record(e))
            """,
    }, "events -> events:subscribe decorator",
        "events:emit -> events:audit call", "events:emit -> events:notify_user call",
        "events:notify_user -> events:send call", "events:audit -> events:record call",
        "events:setup -> events:subscribe call", "events:setup -> events:record call",
        "events:emit -> events:record call"),

    # Signal receivers: a bound method and a function connected at import time, stored in
    # an instance list and called by send().
    _case("signal receivers", "containers", {
        "signals.py": """
            class Signal:
                def __init__(self):
                    self.receivers = []

                def connect(self, receiver):
                    self.receivers.append(receiver)

                def send(self, sender):
                    return [r(sender) for r in self.receivers]


            post_save = Signal()


            class SearchIndex:
                def update(self, sender):
                    return reindex(sender)


            def reindex(obj):
                return obj


            def invalidate_cache(sender):
                pass


            index = SearchIndex()
            post_save.connect(index.update)
            post_save.connect(invalidate_cache)


            def save(obj):
                post_save.send(obj)
            """,
    }, "signals -> signals:Signal call", "signals -> signals:Signal.__init__ call",
        "signals -> signals:SearchIndex call", "signals -> signals:Signal.connect call",
        "signals:Signal.send -> signals:SearchIndex.update call",
        "signals:Signal.send -> signals:invalidate_cache call",
        "signals:SearchIndex.update -> signals:reindex call",
        "signals:save -> signals:Signal.send call"),

    # A dispatch dict built in a class body from the plain functions defined above it,
    # called with an explicit self.
    _case("dispatch dict in a class body", "containers", {
        "parser.py": """
            class Parser:
                def _parse_int(self, text):
                    return int(text)

                def _parse_list(self, text):
                    return [self.parse(t) for t in split_items(text)]

                DISPATCH = {"int": _parse_int, "list": _parse_list}

                def parse(self, text, kind="int"):
                    return self.DISPATCH[kind](self, text)


            def split_items(text):
                return text.split(",")
            """,
    }, "parser:Parser._parse_list -> parser:Parser.parse call",
        "parser:Parser._parse_list -> parser:split_items call",
        "parser:Parser.parse -> parser:Parser._parse_int call",
        "parser:Parser.parse -> parser:Parser._parse_list call"),

    # getattr with a constant name and with a computed "on_" name and a default.
    _case("getattr handlers", "dynamic", {
        "dispatch.py": """
            class Handler:
                def on_start(self):
                    return start()

                def on_stop(self):
                    return None

                def handle(self, event):
                    method = getattr(self, "on_" + event, self.default)
                    return method()

                def default(self):
                    return None

                def run(self):
                    return getattr(self, "on_start")()


            def start():
                pass
            """,
    }, "dispatch:Handler.on_start -> dispatch:start call",
        "dispatch:Handler.handle -> dispatch:Handler.on_start call",
        "dispatch:Handler.handle -> dispatch:Handler.on_stop call",
        "dispatch:Handler.handle -> dispatch:Handler.default call",
        "dispatch:Handler.run -> dispatch:Handler.on_start call"),

    # Closures returning closures, composed and called later.
    _case("closures returning closures", "nested", {
        "pipeline.py": """
            def compose(*funcs):
                def composed(value):
                    for f in funcs:
                        value = f(value)
                    return value
                return composed


            def make_scaler(factor):
                def scale(x):
                    return clamp(x * factor)
                return scale


            def make_offsetter(delta):
                def outer():
                    def offset(x):
                        return x + delta
                    return offset
                return outer


            def clamp(x):
                return max(0, min(x, 100))


            def build():
                scale = make_scaler(2)
                offset = make_offsetter(1)()
                return compose(scale, offset)


            def run(values):
                transform = build()
                return [transform(v) for v in values]
            """,
    }, "pipeline:compose.composed -> pipeline:make_scaler.scale call",
        "pipeline:compose.composed -> pipeline:make_offsetter.outer.offset call",
        "pipeline:make_scaler.scale -> pipeline:clamp call",
        "pipeline:build -> pipeline:make_scaler call",
        "pipeline:build -> pipeline:make_offsetter call",
        "pipeline:build -> pipeline:make_offsetter.outer call",
        "pipeline:build -> pipeline:compose call",
        "pipeline:run -> pipeline:build call",
        "pipeline:run -> pipeline:compose.composed call"),

    # A recursive nested walker calling the visitor its enclosing function received (a
    # closure over a parameter bound at two call sites, one a nested function).
    _case("nested walker with visitor", "nested", {
        "tree.py": """
            def walk(node, visit):
                def _walk(n, depth):
                    visit(n, depth)
                    for child in n.children:
                        _walk(child, depth + 1)
                _walk(node, 0)


            def print_node(n, depth):
                emit("  " * depth + n.name)


            def emit(line):
                pass


            def count(node):
                total = 0

                def bump(n, depth):
                    nonlocal total
                    total += 1

                walk(node, bump)
                walk(node, print_node)
                return total
            """,
    }, "tree:walk -> tree:walk._walk call", "tree:walk._walk -> tree:walk._walk call",
        "tree:walk._walk -> tree:count.bump call", "tree:walk._walk -> tree:print_node call",
        "tree:print_node -> tree:emit call", "tree:count -> tree:walk call"),

    # `from m import *` binds only __all__: the local `helper` (defined before the star
    # import, not in __all__) stays the local one.
    _case("star import with __all__", "imports", {
        "mathutil/__init__.py": "",
        "mathutil/ops.py": """
            __all__ = ["add", "mul"]


            def add(a, b):
                return a + b


            def mul(a, b):
                return a * b


            def helper():
                return "ops"
            """,
        "calc.py": """
            def helper():
                return "calc"


            from mathutil.ops import *


            def compute():
                return mul(add(1, 2), 3), helper()
            """,
    }, "calc -> mathutil.ops import", "calc:compute -> mathutil.ops:add call",
        "calc:compute -> mathutil.ops:mul call", "calc:compute -> calc:helper call"),

    # Star imports without __all__ through a package __init__ (underscore names are not
    # exported, so main's `_private` is its own).
    _case("star re-exports without __all__", "imports", {
        "shapes/__init__.py": "from .core import *\nfrom .extra import *\n",
        "shapes/core.py": """
            def square(n):
                return n * n


            def _private():
                return 0
            """,
        "shapes/extra.py": """
            from .core import square


            def cube(n):
                return square(n) * n
            """,
        "main.py": """
            from shapes import *


            def _private():
                return 1


            def run():
                return cube(2) + square(3) + _private()
            """,
    }, "shapes -> shapes.core import", "shapes -> shapes.extra import",
        "shapes.extra -> shapes.core import", "shapes.extra:cube -> shapes.core:square call",
        "main -> shapes import", "main:run -> shapes.extra:cube call",
        "main:run -> shapes.core:square call", "main:run -> main:_private call"),

    # Relative imports one and two levels up, and a submodule imported from its package.
    _case("relative imports two levels up", "imports", {
        "app/__init__.py": "",
        "app/core/__init__.py": "",
        "app/core/text.py": """
            def slugify(s):
                return s.lower().replace(" ", "-")
            """,
        "app/api/__init__.py": "",
        "app/api/serializers.py": """
            from ..core import text


            def serialize(value):
                return {"slug": text.slugify(value)}
            """,
        "app/api/v1/__init__.py": "",
        "app/api/v1/handlers.py": """
            from ...core.text import slugify
            from ..serializers import serialize


            def create(title):
                return serialize(slugify(title))
            """,
    }, "app.api.serializers -> app.core import",
        "app.api.serializers -> app.core.text import",
        "app.api.serializers:serialize -> app.core.text:slugify call",
        "app.api.v1.handlers -> app.core.text import",
        "app.api.v1.handlers -> app.api.serializers import",
        "app.api.v1.handlers:create -> app.api.serializers:serialize call",
        "app.api.v1.handlers:create -> app.core.text:slugify call"),

    # A package __init__ re-exporting what a subpackage __init__ re-exported (renamed on
    # the way), used as an attribute of the package and by a from-import.
    _case("re-exports of re-exports", "imports", {
        "sdk/__init__.py": "from .client import Client, connect\n\n"
                           "__all__ = ['Client', 'connect']\n",
        "sdk/client/__init__.py": "from ._session import Session as Client\n"
                                  "from ._factory import connect\n",
        "sdk/client/_session.py": """
            class Session:
                def __init__(self, url):
                    self.url = url

                def request(self, method, path):
                    return _send(method, self.url + path)


            def _send(method, url):
                return method, url
            """,
        "sdk/client/_factory.py": """
            from ._session import Session


            def connect(url):
                return Session(url)
            """,
        "app.py": """
            import sdk
            from sdk import connect


            def main():
                c = sdk.Client("http://x")
                c.request("GET", "/")
                connect("http://y").request("POST", "/")
            """,
    }, "sdk -> sdk.client import",
        "sdk.client -> sdk.client._session import", "sdk.client -> sdk.client._factory import",
        "sdk.client._session:Session.request -> sdk.client._session:_send call",
        "sdk.client._factory -> sdk.client._session import",
        "sdk.client._factory:connect -> sdk.client._session:Session call",
        "sdk.client._factory:connect -> sdk.client._session:Session.__init__ call",
        "app -> sdk import",
        "app:main -> sdk.client._session:Session call",
        "app:main -> sdk.client._session:Session.__init__ call",
        "app:main -> sdk.client._session:Session.request call",
        "app:main -> sdk.client._factory:connect call"),

    # Attributes of a package and of its submodule: a module-level instance, a counter
    # created by a method call at import time, reached through `pkg.sub.name.method()`.
    _case("module attributes through packages", "imports", {
        "metrics/__init__.py": "from .counters import Counter, registry\n",
        "metrics/counters.py": """
            class Counter:
                def __init__(self, name):
                    self.name = name
                    self.value = 0

                def inc(self, n=1):
                    self.value += n


            class Registry:
                def __init__(self):
                    self.counters = {}

                def counter(self, name):
                    if name not in self.counters:
                        self.counters[name] = Counter(name)
                    return self.counters[name]


            registry = Registry()
            requests_total = registry.counter("requests")
            """,
        "server.py": """
            import metrics
            import metrics.counters


            def handle():
                metrics.counters.requests_total.inc()
                metrics.registry.counter("errors").inc(2)
            """,
    }, "metrics -> metrics.counters import",
        "metrics.counters:Registry.counter -> metrics.counters:Counter call",
        "metrics.counters:Registry.counter -> metrics.counters:Counter.__init__ call",
        "metrics.counters -> metrics.counters:Registry call",
        "metrics.counters -> metrics.counters:Registry.__init__ call",
        "metrics.counters -> metrics.counters:Registry.counter call",
        "server -> metrics import", "server -> metrics.counters import",
        "server:handle -> metrics.counters:Counter.inc call",
        "server:handle -> metrics.counters:Registry.counter call"),

    # A module global rebound from another module: render() may call either formatter.
    _case("module attribute assigned elsewhere", "assignments", {
        "hooks/__init__.py": "",
        "hooks/config.py": """
            def default_formatter(value):
                return str(value)


            formatter = default_formatter


            def render(value):
                return formatter(value)
            """,
        "plugin.py": """
            import hooks.config


            def fancy_formatter(value):
                return "*" + str(value) + "*"


            def install():
                hooks.config.formatter = fancy_formatter
            """,
    }, "hooks.config:render -> hooks.config:default_formatter call",
        "hooks.config:render -> plugin:fancy_formatter call",
        "plugin -> hooks.config import"),

    # Aliasing chains of functions and of methods in a class body, and a bound method
    # kept in a variable.
    _case("aliasing chains", "assignments", {
        "alias.py": """
            def original():
                return target()


            def target():
                return 1


            first = original
            second = first
            third = second


            class Handler:
                def handle(self):
                    return 2

                process = handle
                run = process


            def main():
                third()
                h = Handler()
                h.run()
                fn = h.process
                fn()
            """,
    }, "alias:original -> alias:target call", "alias:main -> alias:original call",
        "alias:main -> alias:Handler call", "alias:main -> alias:Handler.handle call"),

    # Return values as receivers: make().run(), `with acquire() as lock` (the context
    # manager protocol runs __enter__ / __exit__), a @contextmanager generator's yield.
    _case("returned receivers and with", "assignments", {
        "jobs.py": """
            import contextlib


            class Job:
                def __init__(self, name):
                    self.name = name

                def run(self):
                    return execute(self.name)


            class Lock:
                def __enter__(self):
                    return self

                def __exit__(self, *exc):
                    self.release()
                    return False

                def release(self):
                    pass

                def renew(self):
                    pass


            def execute(name):
                return name


            def make_job(name):
                return Job(name)


            def acquire():
                return Lock()


            @contextlib.contextmanager
            def job_scope(name):
                job = make_job(name)
                yield job


            def main():
                make_job("a").run()
                with acquire() as lock:
                    lock.renew()
                with job_scope("b") as job:
                    job.run()
            """,
    }, "jobs:Job.run -> jobs:execute call", "jobs:Lock.__exit__ -> jobs:Lock.release call",
        "jobs:make_job -> jobs:Job call", "jobs:make_job -> jobs:Job.__init__ call",
        "jobs:acquire -> jobs:Lock call", "jobs:job_scope -> jobs:make_job call",
        "jobs:main -> jobs:make_job call", "jobs:main -> jobs:Job.run call",
        "jobs:main -> jobs:acquire call", "jobs:main -> jobs:Lock.__enter__ call",
        "jobs:main -> jobs:Lock.__exit__ call", "jobs:main -> jobs:Lock.renew call",
        "jobs:main -> jobs:job_scope call"),

    # A conditional expression, `or` defaults and the walrus operator choosing receivers.
    _case("receivers chosen by expressions", "assignments", {
        "choose.py": """
            class Fast:
                def run(self):
                    return 1


            class Slow:
                def run(self):
                    return 2


            def pick(fast):
                return Fast() if fast else Slow()


            def main(flag, runner=None):
                runner = runner or pick(flag)
                if (r := pick(not flag)) is not None:
                    r.run()
                return runner.run()
            """,
    }, "choose:pick -> choose:Fast call", "choose:pick -> choose:Slow call",
        "choose:main -> choose:pick call", "choose:main -> choose:Fast.run call",
        "choose:main -> choose:Slow.run call"),

    # Composition: collaborators created in __init__ (one behind `or`) and used through
    # self attributes.
    _case("collaborators on self", "self/cls", {
        "service.py": """
            class Mailer:
                def send(self, to, body):
                    return smtp_send(to, body)


            class Templates:
                def render(self, name, **ctx):
                    return name.format(**ctx)


            def smtp_send(to, body):
                pass


            class Notifier:
                def __init__(self, mailer=None):
                    self.mailer = mailer or Mailer()
                    self.templates = Templates()

                def welcome(self, user):
                    body = self.templates.render("hi {name}", name=user)
                    return self.mailer.send(user, body)


            def signup(user):
                Notifier().welcome(user)
            """,
    }, "service:Mailer.send -> service:smtp_send call",
        "service:Notifier.__init__ -> service:Mailer call",
        "service:Notifier.__init__ -> service:Templates call",
        "service:Notifier.welcome -> service:Templates.render call",
        "service:Notifier.welcome -> service:Mailer.send call",
        "service:signup -> service:Notifier call",
        "service:signup -> service:Notifier.__init__ call",
        "service:signup -> service:Notifier.welcome call"),

    # __init__ chains: super(Cls, self).__init__, an inherited __init__ run for a
    # subclass, a hook the base __init__ calls and a subclass overrides.
    _case("__init__ chains and hooks", "super", {
        "widgets.py": """
            class Widget:
                def __init__(self, parent=None):
                    self.parent = parent
                    self.children = []
                    self.setup()

                def setup(self):
                    pass


            class Container(Widget):
                def __init__(self, parent=None, layout="v"):
                    super(Container, self).__init__(parent)
                    self.layout = layout

                def add(self, child):
                    self.children.append(child)


            class Panel(Container):
                def setup(self):
                    self.add(Widget(self))


            def build():
                return Panel()
            """,
    }, "widgets:Container -> widgets:Widget inherit", "widgets:Panel -> widgets:Container inherit",
        "widgets:Widget.__init__ -> widgets:Widget.setup call",
        "widgets:Widget.__init__ -> widgets:Panel.setup call",
        "widgets:Container.__init__ -> widgets:Widget.__init__ call",
        "widgets:Panel.setup -> widgets:Container.add call",
        "widgets:Panel.setup -> widgets:Widget call",
        "widgets:Panel.setup -> widgets:Widget.__init__ call",
        "widgets:build -> widgets:Panel call",
        "widgets:build -> widgets:Container.__init__ call"),

    # A plugin base class in one module, subclasses in two others through `from pkg
    # import mod as alias` and `import ... as`; a template method reaching overrides.
    _case("template method across modules", "inheritance", {
        "plugins/__init__.py": "",
        "plugins/base.py": """
            class Plugin:
                name = "base"

                def run(self, data):
                    prepared = self.prepare(data)
                    return self.process(prepared)

                def prepare(self, data):
                    return data

                def process(self, data):
                    return data
            """,
        "plugins/upper.py": """
            from plugins import base as b


            class Upper(b.Plugin):
                name = "upper"

                def process(self, data):
                    return data.upper()
            """,
        "plugins/strip.py": """
            from plugins.base import Plugin as BasePlugin


            class Strip(BasePlugin):
                def prepare(self, data):
                    return super().prepare(data).strip()
            """,
        "main.py": """
            from plugins.strip import Strip
            from plugins.upper import Upper


            def run_all(data):
                return [p.run(data) for p in (Upper(), Strip())]
            """,
    }, "plugins.upper -> plugins import", "plugins.upper -> plugins.base import",
        "plugins.upper:Upper -> plugins.base:Plugin inherit",
        "plugins.strip -> plugins.base import",
        "plugins.strip:Strip -> plugins.base:Plugin inherit",
        "plugins.strip:Strip.prepare -> plugins.base:Plugin.prepare call",
        "plugins.base:Plugin.run -> plugins.base:Plugin.prepare call",
        "plugins.base:Plugin.run -> plugins.strip:Strip.prepare call",
        "plugins.base:Plugin.run -> plugins.base:Plugin.process call",
        "plugins.base:Plugin.run -> plugins.upper:Upper.process call",
        "main -> plugins.strip import", "main -> plugins.upper import",
        "main:run_all -> plugins.upper:Upper call", "main:run_all -> plugins.strip:Strip call",
        "main:run_all -> plugins.base:Plugin.run call"),

    # Calls in default arguments, decorator arguments and class bodies run where the
    # definition is executed, not in the function they decorate or default.
    _case("calls evaluated at definition time", "calls", {
        "defaults.py": """
            def default_timeout():
                return 30


            def make_key(prefix):
                return prefix + ":"


            def cache(key):
                def wrap(fn):
                    return fn
                return wrap


            def connect(host, timeout=default_timeout()):
                return host, timeout


            class Settings:
                TIMEOUT = default_timeout()
                KEY = make_key("settings")

                @cache(key=make_key("load"))
                def load(self, value=default_timeout()):
                    return value
            """,
    }, "defaults -> defaults:default_timeout call",
        "defaults:Settings -> defaults:default_timeout call",
        "defaults:Settings -> defaults:make_key call",
        "defaults:Settings -> defaults:cache call",
        "defaults:Settings -> defaults:cache.wrap decorator"),

    # Calls inside comprehensions, a sort key lambda, a generator expression, an f-string,
    # a with item and a dict comprehension all belong to the function.
    _case("calls inside expressions", "lambdas", {
        "report.py": """
            def fmt(x):
                return str(x)


            def weight(x):
                return x


            def is_valid(x):
                return x is not None


            def opener(path):
                return open(path, "w")


            def build(rows, path):
                valid = [fmt(r) for r in rows if is_valid(r)]
                ordered = sorted(valid, key=lambda r: weight(r))
                total = sum(weight(r) for r in rows)
                title = f"{fmt(total)} rows"
                with opener(path) as fh:
                    fh.write(title)
                return {fmt(k): v for k, v in enumerate(ordered)}
            """,
    }, "report:build -> report:fmt call", "report:build -> report:is_valid call",
        "report:build -> report:weight call", "report:build -> report:opener call"),

    # A function handed to builtins that call it (sorted key, map, filter).
    _case("functions handed to builtins", "arguments", {
        "ranking.py": """
            def score(item):
                return item["score"]


            def normalise(item):
                return dict(item, name=item["name"].strip())


            def visible(item):
                return not item.get("hidden")


            def rank(items):
                cleaned = map(normalise, filter(visible, items))
                return sorted(cleaned, key=score, reverse=True)
            """,
    }, "ranking:rank -> ranking:score call", "ranking:rank -> ranking:normalise call",
        "ranking:rank -> ranking:visible call"),

    # try/except ImportError: either implementation can be the one bound.
    _case("try/except imports", "imports", {
        "compat/__init__.py": "",
        "compat/_speedups.py": """
            def fast_hash(data):
                return hash(data)
            """,
        "compat/_pure.py": """
            def slow_hash(data):
                return sum(map(ord, data))
            """,
        "compat/hashing.py": """
            try:
                from ._speedups import fast_hash as hash_bytes
            except ImportError:
                from ._pure import slow_hash as hash_bytes

            try:
                import ujson as json_impl
            except ImportError:
                import json as json_impl


            def digest(data):
                return hash_bytes(data)


            def dumps(obj):
                return json_impl.dumps(obj)
            """,
    }, "compat.hashing -> compat._speedups import", "compat.hashing -> compat._pure import",
        "compat.hashing:digest -> compat._speedups:fast_hash call",
        "compat.hashing:digest -> compat._pure:slow_hash call"),

    # An `if TYPE_CHECKING:` import (a cycle broken for the type checker) never runs;
    # the attribute's class is known from the call site and the annotation.
    _case("TYPE_CHECKING imports", "imports", {
        "store/__init__.py": "",
        "store/repo.py": """
            from __future__ import annotations

            from typing import TYPE_CHECKING

            if TYPE_CHECKING:
                from store.unit import UnitOfWork


            class Repository:
                def __init__(self, uow: UnitOfWork):
                    self.uow = uow

                def add(self, item):
                    self.uow.register(item)
                    return item
            """,
        "store/unit.py": """
            from store.repo import Repository


            class UnitOfWork:
                def __init__(self):
                    self.items = []
                    self.repo = Repository(self)

                def register(self, item):
                    self.items.append(item)

                def commit(self):
                    self.items.clear()
            """,
    }, "store.unit -> store.repo import",
        "store.unit:UnitOfWork.__init__ -> store.repo:Repository call",
        "store.unit:UnitOfWork.__init__ -> store.repo:Repository.__init__ call",
        "store.repo:Repository.add -> store.unit:UnitOfWork.register call"),

    # Definitions chosen at import time: by platform, and by a failed import.
    _case("conditional definitions", "calls", {
        "platform_io.py": """
            import sys

            if sys.platform == "win32":
                def open_console():
                    return _win_console()
            else:
                def open_console():
                    return _posix_console()


            def _win_console():
                return "con"


            def _posix_console():
                return "/dev/tty"


            try:
                from fast_io import write
            except ImportError:
                def write(text):
                    return _posix_console(), text


            def main():
                open_console()
                write("hi")
            """,
    }, "platform_io:open_console -> platform_io:_win_console call",
        "platform_io:open_console -> platform_io:_posix_console call",
        "platform_io:write -> platform_io:_posix_console call",
        "platform_io:main -> platform_io:open_console call",
        "platform_io:main -> platform_io:write call"),

    # Negative: os.path.join, requests.get and urljoin are outside the tree even though
    # the module defines its own `get` and `join`.
    _case("externals named like local functions", "unknown", {
        "net/__init__.py": "",
        "net/client.py": """
            import os.path

            import requests
            from urllib.parse import urljoin


            def get(url):
                return "local"


            def join(*parts):
                return "/".join(parts)


            def fetch(base, name):
                path = os.path.join(base, name)
                response = requests.get(urljoin(base, path))
                response.raise_for_status()
                return response.json()


            def load(url):
                return get(url), join("a", "b")
            """,
    }, "net.client:load -> net.client:get call", "net.client:load -> net.client:join call"),

    # Negative: inside a method a bare `load(...)` is the module function (class scope is
    # not visible from methods) while `self.parse` is the method.
    _case("method and module function of one name", "look-alikes", {
        "loader.py": """
            def load(path):
                return parse(path)


            def parse(text):
                return text.split()


            class Loader:
                def load(self, path):
                    data = load(path)
                    return self.parse(data)

                def parse(self, data):
                    return data

                def reload(self, path):
                    return self.load(path)
            """,
    }, "loader:load -> loader:parse call", "loader:Loader.load -> loader:load call",
        "loader:Loader.load -> loader:Loader.parse call",
        "loader:Loader.reload -> loader:Loader.load call"),

    # Negative: a local variable and a parameter named like the module function `render`;
    # the parameter is only ever bound to a builtin.
    _case("local names shadowing a function", "look-alikes", {
        "render.py": """
            def render(template):
                return template


            def make_renderer(prefix):
                def renderer(template):
                    return prefix + template
                return renderer


            def page():
                render = make_renderer(">")
                return render("body")


            def apply(render, value):
                return render(value)


            def upper_all(values):
                return [apply(str.upper, v) for v in values]


            def direct():
                return render("x")
            """,
    }, "render:page -> render:make_renderer call",
        "render:page -> render:make_renderer.renderer call",
        "render:upper_all -> render:apply call", "render:direct -> render:render call"),

    # Negative: three unrelated classes with a `save` method; each call site reaches only
    # the class its receiver can be.
    _case("same method name on unrelated classes", "look-alikes", {
        "storage.py": """
            class FileStore:
                def save(self, obj):
                    return "file"


            class DbStore:
                def save(self, obj):
                    return "db"


            class Cache:
                def save(self, obj):
                    return "cache"


            def persist(store, obj):
                return store.save(obj)


            def backup(obj):
                return persist(FileStore(), obj)


            def archive(obj, store: DbStore):
                store.save(obj)
            """,
    }, "storage:persist -> storage:FileStore.save call", "storage:backup -> storage:persist call",
        "storage:backup -> storage:FileStore call", "storage:archive -> storage:DbStore.save call"),

    # Negative: a name rebound inside a function and a class attribute shadowing nothing
    # outside the class; a global `value` function is not the attribute self.value.
    _case("attributes named like functions", "look-alikes", {
        "gauge.py": """
            def value():
                return 0


            def reset():
                return None


            class Gauge:
                def __init__(self):
                    self.value = 1
                    self.reset = lambda: None

                def read(self):
                    return self.value

                def clear(self):
                    self.reset()
                    return reset()


            def sample():
                g = Gauge()
                return g.read(), value()
            """,
    }, "gauge:Gauge.clear -> gauge:reset call", "gauge:sample -> gauge:Gauge call",
        "gauge:sample -> gauge:Gauge.__init__ call", "gauge:sample -> gauge:Gauge.read call",
        "gauge:sample -> gauge:value call"),

    # A lazily imported module inside functions (the import runs when the function does).
    _case("imports inside functions", "imports", {
        "lazy/__init__.py": "",
        "lazy/heavy.py": """
            def compute(x):
                return x * 2
            """,
        "lazy/api.py": """
            def run(x):
                from . import heavy
                return heavy.compute(x)


            def run_fast(x):
                from .heavy import compute as c
                return c(x)
            """,
    }, "lazy.api:run -> lazy import", "lazy.api:run -> lazy.heavy import",
        "lazy.api:run -> lazy.heavy:compute call", "lazy.api:run_fast -> lazy.heavy import",
        "lazy.api:run_fast -> lazy.heavy:compute call"),

    # xunit-style pytest classes: setup_method runs before each test, helpers from a
    # support module on the test path.
    _case("pytest class with setup_method", "fixtures", {
        "api/__init__.py": "",
        "api/validation.py": """
            def validate(payload):
                return "id" in payload and _check_types(payload)


            def _check_types(payload):
                return True
            """,
        "tests/helpers.py": """
            from api.validation import validate


            def make_payload(**overrides):
                payload = {"id": 1}
                payload.update(overrides)
                return payload


            def assert_valid(payload):
                assert validate(payload)
            """,
        "tests/test_validation.py": """
            import pytest

            from api.validation import validate
            from helpers import assert_valid, make_payload


            class TestValidate:
                def setup_method(self):
                    self.base = make_payload()

                def test_base(self):
                    assert_valid(self.base)

                @pytest.mark.parametrize("value", [1, 2])
                def test_ids(self, value):
                    assert validate(make_payload(id=value))
            """,
    }, "api.validation:validate -> api.validation:_check_types call",
        "helpers -> api.validation import",
        "helpers:assert_valid -> api.validation:validate call",
        "test_validation -> api.validation import", "test_validation -> helpers import",
        "test_validation:TestValidate.setup_method -> helpers:make_payload call",
        "test_validation:TestValidate.test_base -> test_validation:TestValidate.setup_method "
        "fixture",
        "test_validation:TestValidate.test_ids -> test_validation:TestValidate.setup_method "
        "fixture",
        "test_validation:TestValidate.test_base -> helpers:assert_valid call",
        "test_validation:TestValidate.test_ids -> api.validation:validate call",
        "test_validation:TestValidate.test_ids -> helpers:make_payload call"),

    # A unittest TestCase with a helper mixin: setUp runs before each test, the cart
    # built by the mixin is kept on self.
    _case("unittest TestCase with a mixin", "fixtures", {
        "cart.py": """
            class Cart:
                def __init__(self):
                    self.items = []

                def add(self, item):
                    self.items.append(item)

                def total(self):
                    return len(self.items)
            """,
        "tests/test_cart.py": """
            import unittest

            from cart import Cart


            class CartMixin:
                def make_cart(self, *items):
                    cart = Cart()
                    for item in items:
                        cart.add(item)
                    return cart


            class CartTest(CartMixin, unittest.TestCase):
                def setUp(self):
                    self.cart = self.make_cart("apple")

                def test_total(self):
                    self.assertEqual(self.cart.total(), 1)
            """,
    }, "test_cart -> cart import", "test_cart:CartMixin.make_cart -> cart:Cart call",
        "test_cart:CartMixin.make_cart -> cart:Cart.__init__ call",
        "test_cart:CartMixin.make_cart -> cart:Cart.add call",
        "test_cart:CartTest -> test_cart:CartMixin inherit",
        "test_cart:CartTest.setUp -> test_cart:CartMixin.make_cart call",
        "test_cart:CartTest.test_total -> test_cart:CartTest.setUp fixture",
        "test_cart:CartTest.test_total -> cart:Cart.total call"),

    # Parameters bound at call sites: a strategy object passed down two levels, and a
    # keyword argument naming a callback.
    _case("arguments passed down two levels", "arguments", {
        "retrying.py": """
            class Exponential:
                def delay(self, attempt):
                    return 2 ** attempt


            class Fixed:
                def delay(self, attempt):
                    return 1


            def on_giveup(error):
                log_error(error)


            def log_error(error):
                pass


            def _attempt(fn, policy, attempt):
                try:
                    return fn()
                except OSError:
                    return policy.delay(attempt)


            def call_with_retry(fn, policy, giveup=None):
                for attempt in range(3):
                    _attempt(fn, policy, attempt)
                if giveup is not None:
                    giveup(OSError())


            def ping():
                return True


            def main():
                call_with_retry(ping, Exponential(), giveup=on_giveup)
            """,
    }, "retrying:on_giveup -> retrying:log_error call",
        "retrying:_attempt -> retrying:ping call",
        "retrying:_attempt -> retrying:Exponential.delay call",
        "retrying:call_with_retry -> retrying:_attempt call",
        "retrying:call_with_retry -> retrying:on_giveup call",
        "retrying:main -> retrying:call_with_retry call",
        "retrying:main -> retrying:Exponential call"),
]
