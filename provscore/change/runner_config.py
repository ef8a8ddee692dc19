"""Runner configuration as provscore needs it: pytest/coverage options before and after.

Two uses: the collection rules (``python_files`` & co.) are read from *base*
so the patch cannot redefine what a test is; and base and patched runner
configuration are compared to find options that deselect, ignore or loosen
(PS205). A configuration file that does not parse is reported, never skipped.
``pyproject.toml`` and ``setup.cfg`` count as runner channels only when one of
their runner sections changes (:attr:`RunnerConfig.sections_changed`).
"""

from __future__ import annotations

import configparser
import posixpath
import shlex
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from provscore.change.collection import CollectionConfig, base_test_dirs
from provscore.change.images import FileImages
from provscore.change.options import (
    ConfigChange,
    OptionEffects,
    environment_changes,
    ini_changes,
    option_changes,
    target_changes,
)
from provscore.change.runners import (
    RUNNER_SCRIPTS,
    UNITTEST_DEFAULT,
    Invocation,
    detect_runners,
    discover_patterns,
    excluded_tags,
    invocations,
    settings_paths,
    skipped_dirs,
    tox_environment,
)
from provscore.change.settings import SettingsChange, settings_changes
from provscore.change.suites import NAMING_FILES, run_files, selection_changes
from provscore.change.warning_filters import error_categories
from provscore.change.writeset import is_test_settings
from provscore.records import dataclass

# pytest reads the first of these that holds a pytest section.
CONFIG_FILES = ("pytest.toml", ".pytest.toml", "pytest.ini", ".pytest.ini", "pyproject.toml",
                "tox.ini", "setup.cfg")
COVERAGE_FILES = (".coveragerc", "setup.cfg", "tox.ini", "pyproject.toml")


@dataclass(frozen=True, slots=True)
class RunnerOptions:
    """The pytest/coverage settings of one tree (one side of the patch)."""

    source: str | None
    ini: Mapping[str, str]  # raw ini values (lists joined by newlines)
    addopts: tuple[str, ...]
    fail_under: float | None
    error: str | None = None
    runners: frozenset[str] = frozenset({"pytest"})  # change/runners.py
    discover: tuple[str, ...] = ()  # unittest discovery patterns the channels name
    # How tox, shell scripts and Makefiles run the tests.
    invocations: tuple[Invocation, ...] = ()
    settings: tuple[str, ...] = ()  # settings modules the tests run with, as paths
    # (runner script, directory it never scans for tests): runtests.py SUBDIRS_TO_SKIP
    skipped: tuple[tuple[str, str], ...] = ()
    # (channel, variable, value) tox sets for its runs (setenv / set_env).
    environment: tuple[tuple[str, str, str], ...] = ()


def _decode(data: bytes | None) -> str | None:
    return None if data is None else data.decode("utf-8", "replace")


def _ini_section(text: str, path: str) -> tuple[dict[str, str] | None, str | None]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(text, source=path)
    except configparser.Error as exc:
        return None, f"{path}: {str(exc).splitlines()[0]}"
    section = "tool:pytest" if path.endswith("setup.cfg") else "pytest"
    if parser.has_section(section):
        return dict(parser.items(section)), None
    return None, None


def _toml(text: str, path: str) -> tuple[dict[str, Any] | None, str | None]:
    try:
        return tomllib.loads(text), None
    except tomllib.TOMLDecodeError as exc:
        return None, f"{path}: {exc}"


def _stringify(value: object) -> str:
    if isinstance(value, list):
        return "\n".join(str(v) for v in value)
    return str(value)


def read_options(files: Mapping[str, bytes | None]) -> RunnerOptions:
    """Runner options from the config files of one tree (path → bytes or None)."""
    ini: dict[str, str] | None = None
    source: str | None = None
    errors: list[str] = []
    for path in CONFIG_FILES:
        text = _decode(files.get(path))
        if text is None:
            continue
        if path.endswith(".toml"):
            data, err = _toml(text, path)
            if err:
                errors.append(err)
                continue
            # pytest.toml: [pytest]; pyproject.toml: [tool.pytest] (pytest 9 native)
            # or [tool.pytest.ini_options].
            section = (data or {}).get("pytest") if path != "pyproject.toml" else \
                (data or {}).get("tool", {}).get("pytest")
            if isinstance(section, dict):
                opts = section.get("ini_options", section)
                if isinstance(opts, dict):
                    ini = {str(k): _stringify(v) for k, v in opts.items()
                           if not isinstance(v, dict)}
        else:
            ini, err = _ini_section(text, path)
            if err:
                errors.append(err)
        if ini is not None:
            source = path
            break
    ini = ini or {}
    try:
        addopts = tuple(shlex.split(ini.get("addopts", "").replace("\n", " ")))
    except ValueError as exc:
        errors.append(f"{source}: addopts: {exc}")
        addopts = ()
    return RunnerOptions(source, ini, addopts, _fail_under(files, errors),
                         "; ".join(errors) or None, detect_runners(files, source is not None),
                         discover_patterns(files), invocations(files), settings_paths(files),
                         skipped_dirs(files), tox_environment(files))


def _fail_under(files: Mapping[str, bytes | None], errors: list[str]) -> float | None:
    for path in COVERAGE_FILES:
        text = _decode(files.get(path))
        if text is None:
            continue
        value: object = None
        if path == "pyproject.toml":
            data, _ = _toml(text, path)
            value = (data or {}).get("tool", {}).get("coverage", {}).get("report", {}).get(
                "fail_under")
        else:
            parser = configparser.ConfigParser(interpolation=None, strict=False)
            try:
                parser.read_string(text)
            except configparser.Error:
                continue
            section = "report" if path == ".coveragerc" else "coverage:report"
            if parser.has_option(section, "fail_under"):
                value = parser.get(section, "fail_under")
        if value is not None:
            try:
                return float(str(value))
            except ValueError:
                errors.append(f"{path}: fail_under is not a number")
    return None


def collection_config(options: RunnerOptions) -> CollectionConfig:
    def split(key: str, default: tuple[str, ...]) -> tuple[str, ...]:
        raw = options.ini.get(key)
        return tuple(raw.split()) if raw and raw.split() else default

    default = CollectionConfig()
    unittest_files = () if options.runners == {"pytest"} else \
        (options.discover or (UNITTEST_DEFAULT,))
    return CollectionConfig(
        python_files=split("python_files", default.python_files),
        python_classes=split("python_classes", default.python_classes),
        python_functions=split("python_functions", default.python_functions),
        testpaths=split("testpaths", default.testpaths),
        norecursedirs=split("norecursedirs", default.norecursedirs),
        unittest_files=unittest_files, pytest_runs="pytest" in options.runners,
        settings_files=options.settings,
        excluded_tags=excluded_tags(options.invocations),
        skipped_dirs=tuple(d for _, d in options.skipped),
        xfail_strict=ini_bool(options.ini.get("xfail_strict")),
        doctest_modules=_doctest_modules(options),
        warning_errors=error_categories((options.ini.get("filterwarnings") or "").splitlines(),
                                        options.addopts))


_DOCTEST_MODULES = ("--doctest-modules", "--doctest-plus")


def _doctest_modules(options: RunnerOptions) -> bool:
    """Whether base's pytest collects every module's doctests: ``--doctest-modules`` or
    ``--doctest-plus`` in addopts, or pytest-doctestplus's ini ``doctest_plus = enabled``."""
    if any(o.split("=", 1)[0] in _DOCTEST_MODULES for o in options.addopts):
        return True
    plus = (options.ini.get("doctest_plus") or "").strip().lower()
    return plus == "enabled" or ini_bool(plus)


def ini_bool(value: str | None) -> bool:
    """A boolean ini value as pytest reads it (``_strtobool``); anything else is false."""
    return (value or "").strip().lower() in ("y", "yes", "t", "true", "on", "1")


def compare_options(pre: RunnerOptions, post: RunnerOptions, effects: OptionEffects
                    ) -> list[ConfigChange]:
    """Loosenings from base to patched configuration (see :mod:`provscore.change.options`)."""
    path = post.source or pre.source or "pytest configuration"
    changes: list[ConfigChange] = []
    if post.error and not pre.error:
        changes.append(ConfigChange(path, "config", f"no longer parses: {post.error}"))
    changes += option_changes(pre.addopts, post.addopts, effects, path, "addopts")
    changes += target_changes(effects.targets(pre.addopts), effects.targets(post.addopts),
                              path, "addopts")
    changes += ini_changes(pre.ini, post.ini, effects, path)
    changes += _invocation_changes(pre.invocations, post.invocations, effects)
    changes += environment_changes(pre.environment, post.environment, effects)
    for script, gone in sorted(set(post.skipped) - set(pre.skipped)):
        changes.append(ConfigChange(script, "SUBDIRS_TO_SKIP",
                                    f"SUBDIRS_TO_SKIP adds {gone}: runs fewer tests"))
    if pre.fail_under is not None and (post.fail_under is None or post.fail_under < pre.fail_under):
        changes.append(ConfigChange(path, "fail_under",
                                    f"coverage fail_under lowered {pre.fail_under} → "
                                    f"{post.fail_under}"))
    return changes


# --------------------------------------------------------------------------- both sides


def _by_channel(invs: Sequence[Invocation]) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for inv in invs:
        out.setdefault((inv.channel, inv.runner), []).extend(inv.words)
    return out


def _invocation_changes(pre: Sequence[Invocation], post: Sequence[Invocation],
                        effects: OptionEffects) -> list[ConfigChange]:
    """Per channel and runner, the options and targets it passes (each runner's options
    read by its own table)."""
    before, after = _by_channel(pre), _by_channel(post)
    out: list[ConfigChange] = []
    for (channel, runner), words in sorted(after.items()):
        table = effects.for_runner(runner)
        old = before.get((channel, runner), [])
        verb = f"{channel} runs {runner} and "
        out += option_changes(old, words, table, channel, "commands", verb=verb)
        out += target_changes(table.targets(old), table.targets(words), channel, "commands",
                              verb=verb)
    for channel, runner in sorted(before.keys() - after.keys()):
        out.append(ConfigChange(channel, "commands",
                                f"{channel} no longer runs {runner}: runs fewer tests"))
    return out


@dataclass(frozen=True, slots=True)
class RunnerConfig:
    """The runner configuration at base and after the patch, and what changed in it."""

    base: RunnerOptions
    post: RunnerOptions
    collection: CollectionConfig  # from base only: the patch cannot redefine what a test is
    changes: tuple[ConfigChange, ...]  # loosenings, base → patched (PS205)
    sections_changed: frozenset[str]  # pyproject.toml / setup.cfg whose runner sections changed
    # What changed in the settings every test runs under (change/settings.py; PS110).
    settings: tuple[SettingsChange, ...] = ()

    @classmethod
    def unchanged(cls) -> RunnerConfig:
        empty = read_options({})
        return cls(empty, empty, CollectionConfig(), (), frozenset())


@dataclass(frozen=True, slots=True)
class BaseRunner:
    """The runner configuration of base alone: what a test is there and where they are
    (read before the patch is applied; the patch cannot change it)."""

    options: RunnerOptions
    collection: CollectionConfig


def read_base_runner(base_blobs: Mapping[str, bytes | None], paths: Iterable[str]
                     ) -> BaseRunner:
    """Base's runner options and collection rules, from its blobs (``CONFIG_FILES``,
    ``RUNNER_SCRIPTS``, ``NAMING_FILES``) and the paths of its tree."""
    runner = _runner_blobs(base_blobs)
    options = read_options(runner)
    collection = collection_config(options)
    named = run_files({**runner, **{p: base_blobs.get(p) for p in NAMING_FILES}})
    collection = replace(collection, run_files=tuple(
        p for p in named if p.endswith(".py") and not collection.is_test_file(p)))
    return BaseRunner(options, replace(collection,
                                       test_dirs=base_test_dirs(paths, collection)))


def _runner_blobs(base_blobs: Mapping[str, bytes | None]) -> dict[str, bytes | None]:
    return {p: base_blobs.get(p) for p in (*CONFIG_FILES, *COVERAGE_FILES, *RUNNER_SCRIPTS)}


def read_runner_config(images: Sequence[FileImages], base_blobs: Mapping[str, bytes | None],
                       effects: OptionEffects, base: BaseRunner) -> RunnerConfig:
    """Both sides of the runner configuration: ``base`` (read_base_runner) and the
    patch's images over base's blobs."""
    pre = _runner_blobs(base_blobs)
    post = dict(pre)
    for img in images:
        for path in (img.change.old_path, img.change.new_path):
            if path in post:
                post[path] = img.post if path == img.change.new_path else None
    # A patch that touches no runner file leaves the options as base's (read once).
    base_options = base.options
    post_options = base_options if post == pre else read_options(post)
    collection = base.collection
    suites = [ch for img in images if img.change.old_path in collection.run_files
              for ch in selection_changes(img.change.old_path, img.pre, img.post)]
    # Base's settings modules: named by its channels, or settings for the tests by name.
    settings = frozenset(base_options.settings) | {
        p for img in images for p in img.change.paths
        if is_test_settings(p) and not collection.is_test_file(p)}
    return RunnerConfig(base_options, post_options, collection,
                        (*compare_options(base_options, post_options, effects), *suites),
                        _runner_sections_changed(images),
                        settings_changes(images, settings, pre, post))


def _runner_sections_changed(images: Sequence[FileImages]) -> frozenset[str]:
    """pyproject.toml / setup.cfg count as runner channels only when those sections change."""
    out: set[str] = set()
    for img in images:
        path = img.change.path
        name = posixpath.basename(path)
        if name == "pyproject.toml":
            if _toml_sections(img.pre) != _toml_sections(img.post):
                out.add(path)
        elif name == "setup.cfg" and _cfg_sections(img.pre) != _cfg_sections(img.post):
            out.add(path)
    return frozenset(out)


def _toml_sections(data: bytes | None) -> object:
    if data is None:
        return None
    try:
        doc = tomllib.loads(data.decode("utf-8", "replace"))
    except tomllib.TOMLDecodeError:
        return ("unparseable", data)  # fail closed: unparseable differs from anything
    tool = doc.get("tool", {})
    project = doc.get("project", {})
    return (tool.get("pytest"), tool.get("coverage"), tool.get("tox"), tool.get("nox"),
            tool.get("poetry", {}).get("dependencies"), tool.get("hatch", {}).get("envs"),
            project.get("dependencies"), project.get("optional-dependencies"),
            project.get("entry-points"), doc.get("build-system"),
            doc.get("dependency-groups"))


def _cfg_sections(data: bytes | None) -> object:
    if data is None:
        return None
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read_string(data.decode("utf-8", "replace"))
    except configparser.Error:
        return ("unparseable", data)
    keep = [s for s in parser.sections()
            if s in ("tool:pytest", "options", "options.extras_require", "options.entry_points")
            or s.startswith("coverage:")]
    return {s: dict(parser.items(s)) for s in keep}
