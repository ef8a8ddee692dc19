"""Small programs with hand-checked call-graph edges, one or more per category.

``expected`` is the complete set of edges between definitions of the program, of the
kinds compared (``call``, ``decorator``, ``import``, ``inherit``, ``fixture``), written
``"src -> dst kind"``: what the code can do when it runs, checked by reading it. Used by
tests/test_callgraph.py (every edge, exactly) and benchmarks/bench_callgraph.py
(precision and recall over all cases). They were written together with the resolver:
tests/callgraph_blind_cases.py is the blind set.
"""

from __future__ import annotations

from dataclasses import dataclass

KINDS = frozenset({"call", "decorator", "import", "inherit", "fixture"})
OUTSIDE = ("external:", "builtin:", "unknown:")


@dataclass(frozen=True)
class GraphCase:
    name: str
    category: str
    files: dict[str, str]
    expected: frozenset[str]


def found_edges(files: dict[str, str]) -> frozenset[str]:
    """The edges the call graph finds between the program's definitions, in the cases'
    notation (the kinds compared, no external, builtin or unknown callee)."""
    from provscore.callgraph.graph import build_graph
    from provscore.callgraph.summary import summarise
    from provscore.change.collection import CollectionConfig

    graph = build_graph({p: ("", summarise(src.encode())) for p, src in files.items()},
                        CollectionConfig())
    return frozenset(f"{u} -> {v} {k}" for u, v, k in graph.graph.edges(data="kind")
                     if k in KINDS and not v.startswith(OUTSIDE))


def _case(name: str, category: str, files: dict[str, str], *edges: str) -> GraphCase:
    return GraphCase(name, category, files, frozenset(edges))


CASES: list[GraphCase] = [
    _case("direct calls", "calls", {
        "app.py": "def a():\n    b()\n\ndef b():\n    return len([])\n\na()\n",
    }, "app -> app:a call", "app:a -> app:b call"),
    _case("calls in with items", "calls", {
        "app.py": ("def lock():\n    return open('x')\n\ndef other():\n    pass\n\n"
                   "def run():\n    with lock() as f, other():\n        f.read()\n\n"
                   "async def arun():\n    async with other():\n        pass\n"),
    }, "app:run -> app:lock call", "app:run -> app:other call", "app:arun -> app:other call"),
    _case("import as", "imports", {
        "pkg/__init__.py": "",
        "pkg/mod.py": "def f():\n    pass\n",
        "main.py": "import pkg.mod as m\n\ndef run():\n    m.f()\n",
    }, "main -> pkg.mod import", "main:run -> pkg.mod:f call"),
    _case("from import as", "imports", {
        "pkg/__init__.py": "",
        "pkg/mod.py": "def f():\n    pass\n",
        "main.py": "from pkg.mod import f as g\n\ndef run():\n    g()\n",
    }, "main -> pkg.mod import", "main:run -> pkg.mod:f call"),
    _case("relative imports", "imports", {
        "pkg/__init__.py": "",
        "pkg/a.py": "from . import b\nfrom .b import g\n\ndef f():\n    b.g()\n    g()\n",
        "pkg/b.py": "def g():\n    pass\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/c.py": "from ..b import g\n\ndef h():\n    g()\n",
    }, "pkg.a -> pkg import", "pkg.a -> pkg.b import", "pkg.a:f -> pkg.b:g call",
        "pkg.sub.c -> pkg.b import", "pkg.sub.c:h -> pkg.b:g call"),
    _case("package re-export", "imports", {
        "pkg/__init__.py": "from .impl import work as run\n",
        "pkg/impl.py": "def work():\n    pass\n",
        "main.py": "import pkg\nfrom pkg import run\n\ndef go():\n    pkg.run()\n    run()\n",
    }, "pkg -> pkg.impl import", "main -> pkg import", "main:go -> pkg.impl:work call"),
    _case("module attribute chain", "imports", {
        "pkg/__init__.py": "",
        "pkg/mod.py": "def f():\n    pass\n\nhandler = f\n",
        "main.py": "import pkg.mod\n\ndef run():\n    pkg.mod.f()\n    pkg.mod.handler()\n",
    }, "main -> pkg.mod import", "main:run -> pkg.mod:f call"),
    _case("inheritance and the MRO", "inheritance", {
        "shapes.py": ("class Base:\n    def area(self):\n        return 0\n\n"
                      "    def describe(self):\n        return self.area()\n\n"
                      "class Square(Base):\n    def __init__(self, s):\n        self.s = s\n\n"
                      "def total():\n    sq = Square(2)\n    return sq.describe()\n"),
    }, "shapes:Square -> shapes:Base inherit", "shapes:Base.describe -> shapes:Base.area call",
        "shapes:total -> shapes:Square call", "shapes:total -> shapes:Square.__init__ call",
        "shapes:total -> shapes:Base.describe call"),
    _case("inheritance across modules", "inheritance", {
        "base.py": "class Model:\n    def save(self):\n        pass\n",
        "user.py": ("from base import Model\n\nclass User(Model):\n    pass\n\n"
                    "def store(u: User):\n    User().save()\n"),
    }, "user -> base import", "user:User -> base:Model inherit", "user:store -> user:User call",
        "user:store -> base:Model.save call"),
    _case("decorators", "decorators", {
        "deco.py": ("import functools\n\ndef logged(fn):\n    @functools.wraps(fn)\n"
                    "    def wrapper(*a):\n        return fn(*a)\n    return wrapper\n\n"
                    "@logged\ndef work():\n    pass\n\ndef main():\n    work()\n"),
    }, "deco -> deco:logged decorator", "deco:logged.wrapper -> deco:work call",
        "deco:main -> deco:work call"),
    _case("self and cls calls", "self/cls", {
        "svc.py": ("class Service:\n    def run(self):\n        self.step()\n        "
                   "return self.make()\n\n    def step(self):\n        pass\n\n"
                   "    @classmethod\n    def make(cls):\n        return cls.build()\n\n"
                   "    @staticmethod\n    def build():\n        return 1\n"),
    }, "svc:Service.run -> svc:Service.step call", "svc:Service.run -> svc:Service.make call",
        "svc:Service.make -> svc:Service.build call"),
    _case("functions passed as arguments", "arguments", {
        "hof.py": ("def apply(fn, x):\n    return fn(x)\n\ndef double(x):\n    return 2 * x\n\n"
                   "def key(x):\n    return -x\n\ndef main(xs):\n    apply(double, 3)\n"
                   "    return sorted(xs, key=key)\n"),
    }, "hof:apply -> hof:double call", "hof:main -> hof:apply call",
        "hof:main -> hof:key call"),
    _case("functions stored in dicts", "containers", {
        "disp.py": ("def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    return a - b\n\n"
                    "OPS = {'+': add, '-': sub}\n\ndef calc(op, a, b):\n"
                    "    return OPS[op](a, b)\n\nclass Router:\n    def __init__(self):\n"
                    "        self.routes = [add]\n\n    def go(self):\n"
                    "        for r in self.routes:\n            r(1, 2)\n"),
    }, "disp:calc -> disp:add call", "disp:calc -> disp:sub call",
        "disp:Router.go -> disp:add call"),
    _case("nested functions", "nested", {
        "nest.py": ("def outer():\n    def inner():\n        return helper()\n"
                    "    return inner()\n\ndef helper():\n    return 1\n"),
    }, "nest:outer -> nest:outer.inner call", "nest:outer.inner -> nest:helper call"),
    _case("lambdas", "lambdas", {
        "lam.py": ("def helper(x):\n    return x\n\ndef main(xs):\n"
                   "    f = lambda v: helper(v)\n    return [f(x) for x in xs]\n"),
    }, "lam:main -> lam:helper call"),
    _case("super()", "super", {
        "sup.py": ("class A:\n    def save(self):\n        pass\n\nclass B(A):\n"
                   "    def save(self):\n        super().save()\n"),
    }, "sup:B -> sup:A inherit", "sup:B.save -> sup:A.save call"),
    _case("assignments and returns", "assignments", {
        "ret.py": ("class Conn:\n    def send(self):\n        pass\n\ndef connect():\n"
                   "    return Conn()\n\ndef factory():\n    return connect\n\ndef main():\n"
                   "    c = connect()\n    c.send()\n    make = factory()\n    make().send()\n"
                   "    alias = main\n"),
    }, "ret:connect -> ret:Conn call", "ret:main -> ret:connect call",
        "ret:main -> ret:Conn.send call", "ret:main -> ret:factory call"),
    _case("fixtures", "fixtures", {
        "tests/conftest.py": ("import pytest\n\n@pytest.fixture\ndef db():\n"
                              "    return open_db()\n\ndef open_db():\n    return 1\n"),
        "tests/test_x.py": ("import pytest\n\n@pytest.fixture(autouse=True)\ndef clean():\n"
                            "    pass\n\ndef test_a(db):\n    assert db\n"),
    }, "conftest:db -> conftest:open_db call", "test_x:test_a -> conftest:db fixture",
        "test_x:test_a -> test_x:clean fixture"),
    _case("callbacks through the constructor", "arguments", {
        "cb.py": ("def on_click():\n    pass\n\nclass Button:\n    def __init__(self, cb):\n"
                  "        self.cb = cb\n\n    def press(self):\n        self.cb()\n\n"
                  "def main():\n    Button(on_click).press()\n"),
    }, "cb:main -> cb:Button call", "cb:main -> cb:Button.__init__ call",
        "cb:main -> cb:Button.press call", "cb:Button.press -> cb:on_click call"),
    _case("hooks a base class leaves to subclasses", "self/cls", {
        "hook.py": ("class Job:\n    def run(self):\n        return self.step()\n\n"
                    "class Sync(Job):\n    def step(self):\n        return 1\n"),
    }, "hook:Sync -> hook:Job inherit", "hook:Job.run -> hook:Sync.step call"),
    _case("overrides reached through self (missed)", "self/cls", {
        "tmpl.py": ("class Job:\n    def run(self):\n        return self.step()\n\n"
                    "    def step(self):\n        return 0\n\nclass Sync(Job):\n"
                    "    def step(self):\n        return 1\n\ndef main():\n    Sync().run()\n"),
    }, "tmpl:Sync -> tmpl:Job inherit", "tmpl:Job.run -> tmpl:Job.step call",
        "tmpl:Job.run -> tmpl:Sync.step call", "tmpl:main -> tmpl:Sync call",
        "tmpl:main -> tmpl:Job.run call"),
    _case("annotated parameters", "assignments", {
        "ann.py": ("class Repo:\n    def load(self):\n        pass\n\n"
                   "def use(r: Repo):\n    r.load()\n"),
    }, "ann:use -> ann:Repo.load call"),
    # Known misses, kept so the benchmark does not flatter: dynamic lookups and library
    # wrappers whose behaviour the graph does not model.
    _case("getattr dispatch (missed)", "dynamic", {
        "dyn.py": ("class H:\n    def do_get(self):\n        pass\n\n"
                   "    def handle(self, verb):\n        getattr(self, 'do_' + verb)()\n"),
    }, "dyn:H.handle -> dyn:H.do_get call"),
    _case("dict.get of functions (missed)", "containers", {
        "dget.py": ("def a():\n    pass\n\nTABLE = {'a': a}\n\ndef run(k):\n"
                    "    TABLE.get(k)()\n"),
    }, "dget:run -> dget:a call"),
    _case("functools.partial", "arguments", {
        "part.py": ("import functools\n\ndef add(a, b):\n    return a + b\n\ndef main():\n"
                    "    inc = functools.partial(add, 1)\n    return inc(2)\n"),
    }, "part:main -> part:add call"),
    _case("unresolvable calls are kept", "unknown", {
        "u.py": "import numpy as np\n\ndef f(obj):\n    obj.run()\n    np.array([1])\n",
    }),
]
