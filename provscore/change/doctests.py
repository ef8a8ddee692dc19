"""Which changed modules have doctests that base's test modules run.

``load_tests`` (or any code of a test module) that calls
``doctest.DocTestSuite("pkg.mod")`` / ``DocTestSuite(pkg.mod)`` makes the examples in
``pkg/mod.py``'s docstrings tests of the suite: their expected output is evidence, though
the file is production code. Read from base only (a patch cannot add such a suite to
excuse anything, and what it removes is the load_tests change, PS204). The names a call
gives are string literals, imported modules (``import json``, ``from pkg import mod``,
``import pkg.mod as m``) and the items of a literal tuple or list a ``for`` loop walks;
anything else names no module here. A name is matched to a changed path by its dotted
path, at the root or below a source directory (``src/pkg/mod.py``, ``Lib/json/__init__.py``).
Where base's pytest collects every module's doctests (``--doctest-modules``,
pytest-doctestplus's ``--doctest-plus`` or ini ``doctest_plus = enabled``:
``CollectionConfig.doctest_modules``), each changed production module under the collection
roots holding an example is such a module too, suite or not.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Sequence

from provscore.change.collection import CollectionConfig, any_glob
from provscore.change.git import Repo, Search
from provscore.change.runner_config import RunnerOptions

_SUITE = "DocTestSuite"
_MARKER = b">>>"


def _imports(tree: ast.Module) -> dict[str, str]:
    """Local name → dotted module name, for module imports."""
    out: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    out[a.asname] = a.name
                else:
                    root = a.name.split(".", 1)[0]
                    out[root] = root
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                out[a.asname or a.name] = f"{node.module}.{a.name}"
    return out


def _dotted(node: ast.expr, imports: dict[str, str]) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name) and node.id in imports:
        return ".".join([imports[node.id], *reversed(parts)])
    return None


def _loop_values(tree: ast.Module) -> dict[str, list[ast.expr]]:
    """Loop variable → the items of the literal tuple or list it walks."""
    out: dict[str, list[ast.expr]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name) and \
                isinstance(node.iter, ast.Tuple | ast.List):
            out.setdefault(node.target.id, []).extend(node.iter.elts)
    return out


def suite_modules(source: bytes) -> set[str]:
    """Dotted names of the modules whose doctests ``source`` puts into a DocTestSuite."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()  # a base test module that does not parse runs no suite
    imports, loops = _imports(tree), _loop_values(tree)
    out: set[str] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else \
            func.id if isinstance(func, ast.Name) else ""
        if name != _SUITE:
            continue
        arg = node.args[0]
        values = loops.get(arg.id, [arg]) if isinstance(arg, ast.Name) and \
            arg.id not in imports else [arg]
        out |= {d for v in values if (d := _dotted(v, imports)) is not None}
    return out


def _module_paths(dotted: str) -> tuple[str, str]:
    stem = dotted.replace(".", "/")
    return f"{stem}.py", f"{stem}/__init__.py"


def _names(path: str, dotted: Iterable[str]) -> bool:
    for name in dotted:
        for candidate in _module_paths(name):
            if path == candidate or path.endswith("/" + candidate):
                return True
    return False


_DOCTEST_MODULES = "--doctest-modules"
# tox's substitutions for the project's own directory and the installed package's
# (`{envsitepackagesdir}/boltons` runs the installed copy of the tree's boltons/).
_TREE_ROOTS = ("{toxinidir}/", "{envsitepackagesdir}/", "{envsitedir}/")


def _target(word: str) -> str | None:
    """The tree path a pytest target word names ("" for the root); None for an option,
    a substitution tox fills with anything else, or shell plumbing."""
    if word.startswith(("-", "$", ">", "<", "&", "|", ";")):
        return None
    for root in _TREE_ROOTS:
        if word.startswith(root):
            word = word[len(root):]
            break
    if "{" in word or "=" in word:
        return None
    return word.removeprefix("./").rstrip("/")


def _under(path: str, target: str) -> bool:
    return target in ("", ".") or any(
        path == t or path.startswith(t + "/") or path == t + ".py"
        for t in (target, f"src/{target}"))


def doctest_collected(options: RunnerOptions, paths: Iterable[str]) -> set[str]:
    """Of ``paths``, those a run of base's collects with ``--doctest-modules``: in
    ``addopts`` (every run, under ``testpaths`` or the run's targets), or on a channel's
    pytest command line (under the targets it names)."""
    testpaths = options.ini.get("testpaths", "").split() or [""]
    in_addopts = _DOCTEST_MODULES in options.addopts
    runs: list[list[str]] = [testpaths] if in_addopts else []
    for inv in options.invocations:
        if inv.runner == "pytest" and (in_addopts or _DOCTEST_MODULES in inv.words):
            named = [t for t in (_target(w) for w in inv.words) if t is not None]
            runs.append(named or testpaths)
    return {p for p in paths if any(_under(p, t) for run in runs for t in run)}


def start_doctest_paths(repo: Repo, base_sha: str,
                        changed: Sequence[tuple[str, bytes | None, bytes | None]],
                        base_paths: Iterable[str], collection: CollectionConfig,
                        options: RunnerOptions | None = None) -> Search[tuple[str, ...]]:
    """Of the ``changed`` Python files (path, pre, post), those holding an example on
    either side whose module a base test module puts into a DocTestSuite, or that base's
    runner collects with ``--doctest-modules`` (``options``): git searches base's test
    modules for the suite while the change stage goes on."""
    candidates = [p for p, pre, post in changed if p.endswith(".py") and
                  any(side is not None and _MARKER in side for side in (pre, post))]
    # With --doctest-modules (or doctestplus) pytest collects the examples of every module
    # it reaches: those of the production modules under the collection roots (ini or
    # addopts), or under the targets of a runner's pytest command, are tests.
    by_runner = doctest_collected(options, candidates) if options is not None else set()
    skipped_dir = any_glob(collection.norecursedirs)
    collected = {p for p in candidates if
                 (p in by_runner or (collection.doctest_modules and collection.runs_by_default(p)))
                 and p.rsplit("/", 1)[-1] not in ("conftest.py", "setup.py") and
                 not collection.is_collected(p) and
                 not any(skipped_dir.match(d) for d in p.split("/")[:-1])}

    def finish(hits: list[str]) -> tuple[str, ...]:
        dotted: set[str] = set()
        for data in repo.read_blobs(base_sha, hits).values():
            if data is not None:
                dotted |= suite_modules(data)
        return tuple(sorted(p for p in candidates if p in collected or _names(p, dotted)))

    if not candidates:
        return Search(None, finish)
    dirs = set(collection.test_dirs or ())
    # A test package's __init__.py holds the load_tests of its package (unittest discovery).
    tests = sorted(p for p in base_paths if collection.is_collected(p) or (
        p.rpartition("/")[2] == "__init__.py" and p.rpartition("/")[0] in dirs))
    return Search(repo.start_grep(base_sha, (_SUITE,), tests) if tests else None, finish)
