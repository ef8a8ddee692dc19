"""Which test runners a repository uses, read from base, and how its channels invoke them.

pytest's collection rules are not the only notion of a test: unittest discovery collects
``test*.py`` (or a ``-p`` pattern), Django's runner collects any ``TestCase`` in such a
module, and a repository's own runner script (``runtests.py``, ``manage.py test``, a
``scripts/test``) decides what runs. When the base tree shows a runner other than pytest,
or shows none at all, provscore takes the union of their rules: more tests, never fewer.

Every channel that runs the tests (a shell runner script, a Makefile, tox's commands in
``tox.ini`` or in pyproject's ``[tool.tox]``) is read as a list of :class:`Invocation`:
which runner, with which words. Their options and targets are compared by effect
(change/options.py); a Python runner script is code and is judged as such (PS302).
"""

from __future__ import annotations

import ast
import configparser
import posixpath
import re
import shlex
import tomllib
from collections.abc import Iterator, Mapping
from typing import Any

from provscore.records import dataclass

# Files that run the tests, read at base and after the patch.
RUNNER_SCRIPTS = ("manage.py", "runtests.py", "tests/runtests.py", "Makefile", "makefile",
                  "GNUmakefile",
                  "scripts/test", "scripts/test.sh", "scripts/tests", "scripts/check",
                  "scripts/check.sh", "scripts/ci", "scripts/ci.sh", "bin/test", "test.sh",
                  "run_tests.sh", "runtests.sh", "tox.ini", "pyproject.toml")
UNITTEST_DEFAULT = "test*.py"
_INVOCATION = re.compile(r"(?:^|[\s;&|(])(?:python\S*\s+(?:-\S+\s+)*-m\s+)?"
                         r"(pytest|py\.test|unittest|(?:\S*/)?runtests\.py|manage\.py\s+test|"
                         r"django-admin\s+test)(?=\s|$)(.*)$")
_DISCOVER_PATTERN = re.compile(r"(?:-p|--pattern)[=\s]+[\"']?([^\s\"']+)")
_SETTINGS_ENV = re.compile(r"DJANGO_SETTINGS_MODULE[\"']?\s*[,=:]\s*[\"']?([A-Za-z_][\w.]*)")
_SETTINGS_FLAG = re.compile(r"--settings[=\s]+[\"']?([A-Za-z_][\w.]*)")
# A runner script's own default (`parser.add_argument("--settings", default=...)`, Django's
# runtests.py falls back to `test_sqlite`).
_SETTINGS_DEFAULT = re.compile(r"[\"']--settings[\"'][^)]*?default\s*=\s*[\"']([A-Za-z_][\w.]*)")


@dataclass(frozen=True, slots=True)
class Invocation:
    """One place a channel runs a test runner, with the words it passes."""

    channel: str  # the file that runs it
    runner: str  # "pytest" | "unittest" | "django"
    words: tuple[str, ...]


def _text(data: bytes | None) -> str:
    return data.decode("utf-8", "replace") if data is not None else ""


def _runner_of(command: str) -> str:
    if command in ("pytest", "py.test"):
        return "pytest"
    if command == "unittest":
        return "unittest"
    return "django"  # runtests.py, manage.py test, django-admin test


def _split(words: str) -> tuple[str, ...]:
    try:
        return tuple(shlex.split(words, comments=True))
    except ValueError:
        return (words.strip(),)  # unbalanced quotes: compare as text


def invocations_in(channel: str, text: str) -> Iterator[Invocation]:
    """Every runner invocation in one command text (a shell script, a tox command)."""
    joined = re.sub(r"\\\n", " ", text)  # continuation lines are one command
    for line in joined.splitlines():
        match = _INVOCATION.search(line.split(" #", 1)[0])
        if match is not None:
            yield Invocation(channel, _runner_of(match.group(1).rsplit("/", 1)[-1]),
                             _split(match.group(2)))


def _tox_commands(path: str, data: bytes | None) -> Iterator[str]:
    """Every command tox runs: ``tox.ini`` and pyproject's ``[tool.tox]`` (native tables
    or ``legacy_tox_ini``)."""
    for part in _tox_parts(path, _text(data)):
        if isinstance(part, str):
            yield from _ini_commands(part)
            continue
        for command in part.get("commands") or []:
            if isinstance(command, list):
                yield " ".join(shlex.quote(str(w)) for w in command)
            elif isinstance(command, str):
                yield command


def _tox_parts(path: str, text: str | None) -> Iterator[str | dict[str, Any]]:
    """tox's configuration in ``path``, in order: ini text (``tox.ini``, pyproject's
    ``legacy_tox_ini``) and the environment tables of pyproject's ``[tool.tox]`` (the base,
    then the named ones)."""
    if not text:
        return
    if path == "tox.ini":
        yield text
        return
    tox = _tox_table(text)
    if tox is None:
        return
    legacy = tox.get("legacy_tox_ini")
    if isinstance(legacy, str):
        yield legacy
    named = tox.get("env")
    for env in [tox.get("env_run_base"), *(named.values() if isinstance(named, dict) else ())]:
        if isinstance(env, dict):
            yield env


def _tox_table(text: str) -> dict[str, Any] | None:
    """pyproject's ``[tool.tox]`` table; None when the file does not parse (the config
    reader reports that) or holds no table."""
    try:
        tool = tomllib.loads(text).get("tool")
    except tomllib.TOMLDecodeError:
        return None
    tox = tool.get("tox") if isinstance(tool, dict) else None  # `tool = 1` holds none
    return tox if isinstance(tox, dict) else None


def _ini_commands(text: str) -> Iterator[str]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        yield "<tox.ini does not parse>"
        return
    for section in parser.sections():
        if section.startswith(("testenv", "tox:")) and parser.has_option(section, "commands"):
            yield from parser.get(section, "commands").splitlines()


def tox_environment(files: Mapping[str, bytes | None]) -> tuple[tuple[str, str, str], ...]:
    """The variables tox sets for its test runs (``setenv`` / ``set_env`` of the
    ``[testenv*]`` sections, pyproject's ``[tool.tox]`` ``set_env`` tables): (channel, name,
    value), one per assignment. A ``tox.ini`` that does not parse sets one placeholder, so
    that it differs from any environment that does."""
    out: list[tuple[str, str, str]] = []
    for path in ("tox.ini", "pyproject.toml"):
        for part in _tox_parts(path, _text(files.get(path))):
            if isinstance(part, str):
                out += [(path, n, v) for n, v in _ini_environment(part)]
            elif isinstance(table := part.get("set_env"), dict):
                out += [(path, str(n), str(v)) for n, v in table.items()]
    return tuple(out)


def _ini_environment(text: str) -> Iterator[tuple[str, str]]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text)
    except configparser.Error:
        yield "<tox.ini does not parse>", ""
        return
    for section in parser.sections():
        if not section.startswith("testenv"):
            continue
        for key in ("setenv", "set_env"):
            if not parser.has_option(section, key):
                continue
            for line in parser.get(section, key).splitlines():
                name, eq, value = line.partition("=")
                if eq and name.strip() and not name.strip().startswith(("#", "file|")):
                    yield name.strip(), value.strip()


def invocations(files: Mapping[str, bytes | None]) -> tuple[Invocation, ...]:
    """How the tree's channels run the tests (Python runner scripts are code: not here)."""
    out: list[Invocation] = []
    for path in RUNNER_SCRIPTS:
        data = files.get(path)
        if data is None or path.endswith(".py"):
            continue
        if path in ("tox.ini", "pyproject.toml"):
            for command in _tox_commands(path, data):
                out += invocations_in(path, command)
        else:
            out += invocations_in(path, _text(data))
    return tuple(out)


def command_lines(files: Mapping[str, bytes | None]) -> Iterator[str]:
    """Every command line of the channels that are not Python (tox's commands, shell
    scripts and Makefiles, one line each)."""
    for path in RUNNER_SCRIPTS:
        data = files.get(path)
        if data is None or path.endswith(".py"):
            continue
        if path in ("tox.ini", "pyproject.toml"):
            yield from _tox_commands(path, data)
        else:
            yield from re.sub(r"\\\n", " ", _text(data)).splitlines()


def detect_runners(files: Mapping[str, bytes | None], pytest_configured: bool
                   ) -> frozenset[str]:
    """The runners the tree at hand shows: "pytest", "unittest", "django"."""
    found: set[str] = {"pytest"} if pytest_configured else set()
    found |= {i.runner for i in invocations(files)}
    scripts = " ".join(_text(files.get(p)) for p in RUNNER_SCRIPTS)
    if files.get("manage.py") is not None or "DJANGO_SETTINGS_MODULE" in scripts:
        found.add("django")
    if files.get("runtests.py") is not None or files.get("tests/runtests.py") is not None:
        found.add("unittest")  # a runner script of the project's own
    if re.search(r"unittest\.main|TextTestRunner|DiscoverRunner", scripts):
        found.add("unittest")
    return frozenset(found or {"pytest", "unittest"})  # nothing says: the union


def discover_patterns(files: Mapping[str, bytes | None]) -> tuple[str, ...]:
    """unittest discovery patterns named by the channels (``-p "*_test.py"``)."""
    out: list[str] = []
    for inv in invocations(files):
        if inv.runner == "unittest":
            out += _DISCOVER_PATTERN.findall(" ".join(inv.words))
    return tuple(dict.fromkeys(out))


def excluded_tags(found: tuple[Invocation, ...]) -> tuple[str, ...]:
    """Tags Django's runner leaves out (``--exclude-tag slow``, ``--exclude-tag=slow``) in
    any channel: a test given one of them does not run there."""
    out: list[str] = []
    for inv in found:
        if inv.runner != "django":
            continue
        words = inv.words
        for i, word in enumerate(words):
            if word == "--exclude-tag" and i + 1 < len(words):
                out.append(words[i + 1])
            elif word.startswith("--exclude-tag="):
                out.append(word.partition("=")[2])
    return tuple(dict.fromkeys(t for t in out if t))


def skipped_dirs(files: Mapping[str, bytes | None]) -> tuple[tuple[str, str], ...]:
    """Directories a project runner script never scans for test modules: Django's
    ``runtests.py`` ``SUBDIRS_TO_SKIP`` (a dict ``{subdir: {names}}`` relative to the
    script, or a list of names next to it), read from its module-level literal; anything
    else names no directory (what runs is then judged as code, PS302). (script, directory)
    pairs."""
    out: list[tuple[str, str]] = []
    for path in ("runtests.py", "tests/runtests.py"):
        text = _text(files.get(path))
        if "SUBDIRS_TO_SKIP" not in text:
            continue
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        root = posixpath.dirname(path)
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                    isinstance(stmt.targets[0], ast.Name) and \
                    stmt.targets[0].id == "SUBDIRS_TO_SKIP":
                out += [(path, d) for d in _skip_table(stmt.value, root)]
    return tuple(sorted(set(out)))


def _skip_table(value: ast.expr, root: str) -> list[str]:
    try:
        table = ast.literal_eval(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return []
    rows = table.items() if isinstance(table, dict) else [("", table)]
    out: list[str] = []
    for sub, names in rows:
        if isinstance(sub, str) and isinstance(names, list | tuple | set | frozenset):
            out += [posixpath.join(root, sub, n) for n in names if isinstance(n, str) and n]
    return out


def settings_modules(files: Mapping[str, bytes | None]) -> dict[str, tuple[str, ...]]:
    """The settings modules each channel names (``DJANGO_SETTINGS_MODULE`` in a config or
    script, ``--settings``, a runner script's default), by channel path."""
    out: dict[str, tuple[str, ...]] = {}
    for path, data in files.items():
        text = _text(data)
        if "settings" not in text.lower():
            continue
        modules: list[str] = []
        for pattern in (_SETTINGS_ENV, _SETTINGS_FLAG, _SETTINGS_DEFAULT):
            modules += pattern.findall(text)
        if modules:
            out[path] = tuple(dict.fromkeys(modules))
    return out


def settings_paths(files: Mapping[str, bytes | None]) -> tuple[str, ...]:
    """Files of the settings modules the tests run with (:func:`settings_modules`), as
    candidate paths."""
    modules = [m for named in settings_modules(files).values() for m in named]
    out: list[str] = []
    for module in dict.fromkeys(modules):
        rel = module.replace(".", "/")
        out += [f"{rel}.py", f"{rel}/__init__.py"]
        # Django's runtests.py puts its own directory on sys.path: `test_sqlite` is
        # tests/test_sqlite.py.
        for script in ("tests/runtests.py", "runtests.py"):
            if files.get(script) is not None and "/" in script:
                out.append(posixpath.join(posixpath.dirname(script), f"{rel}.py"))
    return tuple(dict.fromkeys(out))
