"""``[tool.provscore]``: a repository's own defaults, read from the base revision only.

The patched tree is in the write set: a patch that edits ``[tool.provscore]`` (to ignore
the rule it breaks, say) must change nothing for its own score. So the table is read from
git objects at base (``git show BASE:pyproject.toml``), never from the working tree or
the patch; or from the file ``--config`` names, which the caller owns as it owns the
command line. The oracle-owned contract still wins where it speaks (``[rules]``).

Like ruff, the closest ``pyproject.toml`` with a ``[tool.provscore]`` table wins, from the
``--repo`` directory up to the repository's top. Keys are the long flags' names: an unknown
key is an error with a suggestion, a wrong type an error naming the key; nothing is
silently ignored. Precedence: command line > environment (``PROVSCORE_*``) > this table >
defaults (docs/cli.md, "Configuration").
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any, Final

from provscore.change.git import Repo
from provscore.errors import InputError, UsageError
from provscore.oracle.contract import Contract
from provscore.records import dataclass
from provscore.registry.model import Registry
from provscore.report.outputs import DEFAULT_FORMAT, OutputTarget, parse_target, resolve_targets
from provscore.scoring.selection import ALL, RequiredRules, RuleSelection, check_selectors

PYPROJECT: Final = "pyproject.toml"
FAIL_ON_VALUES: Final = ("review", "reject")

#: key → what it holds ("str", "strs": an array of strings, "str|strs": either).
CONFIG_KEYS: Final[Mapping[str, str]] = {
    "oracle": "str",
    "format": "str|strs",
    "select": "strs",
    "extend-select": "strs",
    "ignore": "strs",
    "fail-on": "str",
}


@dataclass(frozen=True, slots=True)
class RepoConfig:
    """The validated table. Paths (``oracle``, format files) are resolved against the
    directory of the file the table came from."""

    oracle: str | None = None
    formats: tuple[OutputTarget, ...] | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    fail_on: str | None = None
    source: str | None = None  # e.g. "pyproject.toml at base 1a2b3c4d5e6f"


def _strings(value: object, key: str, kind: str, source: str) -> tuple[str, ...]:
    if isinstance(value, str) and "str" in kind.split("|"):
        return (value,)
    if isinstance(value, list) and "strs" in kind.split("|") and \
            all(isinstance(v, str) for v in value):
        return tuple(value)
    expected = {"str": "a string", "strs": "an array of strings",
                "str|strs": "a string or an array of strings"}[kind]
    raise InputError(f"tool.provscore.{key}: expected {expected}, got {type(value).__name__} "
                     f"{value!r:.40}", path=source)


def _resolve(path: str, root: Path) -> str:
    return path if os.path.isabs(path) else os.path.normpath(root / path)


def config_from_table(table: Mapping[str, Any], source: str, root: Path) -> RepoConfig:
    """Validate the ``[tool.provscore]`` table (``source`` names it in errors; relative
    paths are resolved against ``root``)."""
    values: dict[str, tuple[str, ...]] = {}
    for key, value in table.items():
        kind = CONFIG_KEYS.get(key)
        if kind is None:
            close = difflib.get_close_matches(key.replace("_", "-"), list(CONFIG_KEYS), n=1)
            hint = f" (did you mean {close[0]}?)" if close else ""
            raise InputError(f"tool.provscore.{key}: unknown key{hint}; known keys: "
                             f"{', '.join(CONFIG_KEYS)}", path=source)
        values[key] = _strings(value, key, kind, source)
    fail_on = values["fail-on"][0] if "fail-on" in values else None
    if fail_on is not None and fail_on not in FAIL_ON_VALUES:
        raise InputError(f"tool.provscore.fail-on: {fail_on!r} is not one of "
                         f"{', '.join(FAIL_ON_VALUES)}", path=source)
    formats: tuple[OutputTarget, ...] | None = None
    if "format" in values:
        try:
            parsed = [parse_target(spec, "tool.provscore.format") for spec in values["format"]]
        except UsageError as exc:  # here it is the file's fault, not the command line's
            raise InputError(str(exc), path=source) from None
        formats = tuple(OutputTarget(t.fmt, None if t.path is None else _resolve(t.path, root))
                        for t in parsed)
        if not formats:
            raise InputError("tool.provscore.format: empty array (omit the key for the "
                             "default)", path=source)
    oracle = values["oracle"][0] if "oracle" in values else None
    return RepoConfig(oracle=None if oracle is None else _resolve(oracle, root),
                      formats=formats, select=values.get("select"),
                      extend_select=values.get("extend-select", ()),
                      ignore=values.get("ignore", ()), fail_on=fail_on, source=source)


def _parse_toml(data: bytes, source: str) -> dict[str, Any]:
    try:
        return tomllib.loads(data.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise InputError(f"not UTF-8 (byte {exc.start}); --isolated skips the configuration",
                         path=source) from None
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"malformed TOML: {exc}; --isolated skips the configuration",
                         path=source) from None


def _provscore_table(doc: Mapping[str, Any], source: str) -> Mapping[str, Any] | None:
    tool = doc.get("tool")
    if tool is None:
        return None
    if not isinstance(tool, dict):
        raise InputError("tool: expected a table", path=source)
    table = tool.get("provscore")
    if table is None:
        return None
    if not isinstance(table, dict):
        raise InputError("tool.provscore: expected a table", path=source)
    return table


def config_from_file(path: str | Path) -> RepoConfig:
    """``--config FILE``: a ``pyproject.toml`` (its ``[tool.provscore]`` table) or a
    file that is the table itself (``provscore.toml``)."""
    file = Path(path)
    source = str(file)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise InputError(f"cannot read configuration: {exc.strerror or exc}",
                         path=source) from None
    doc = _parse_toml(data, source)
    if file.name == PYPROJECT:
        table = _provscore_table(doc, source)
        if table is None:
            raise InputError("no [tool.provscore] table", path=source)
    else:
        table = doc
    return config_from_table(table, source, file.resolve().parent)


def config_from_base(repo: Repo, base_sha: str, start: Path) -> RepoConfig:
    """The closest ``pyproject.toml`` at ``base_sha`` with a ``[tool.provscore]`` table,
    from ``start`` (the ``--repo`` directory) up to the repository's top."""
    try:
        rel = PurePosixPath(Path(os.path.realpath(start)).relative_to(
            os.path.realpath(repo.top)).as_posix())
    except ValueError:
        rel = PurePosixPath(".")
    candidates: list[str] = []
    here = rel
    while True:
        candidates.append(str(here / PYPROJECT) if str(here) != "." else PYPROJECT)
        if str(here) in (".", ""):
            break
        here = here.parent
    blobs = repo.read_blobs(base_sha, candidates)
    for name in candidates:
        data = blobs.get(name)
        if data is None:
            continue
        source = f"{name} at base {base_sha[:12]}"
        table = _provscore_table(_parse_toml(data, source), source)
        if table is not None:
            return config_from_table(table, source, repo.top / PurePosixPath(name).parent)
    return RepoConfig()


# --------------------------------------------------------------------------- precedence

COLOR_CHOICES: Final = ("auto", "always", "never")
#: The environment defaults (below the command line, above [tool.provscore]).
ENV_FORMAT: Final = "PROVSCORE_FORMAT"
ENV_FAIL_ON: Final = "PROVSCORE_FAIL_ON"
ENV_COLOR: Final = "PROVSCORE_COLOR"
DEFAULT_FAIL_ON: Final = "review"


@dataclass(frozen=True, slots=True)
class CommandLine:
    """What was given on the command line; None (or empty) where a flag was not."""

    formats: tuple[str, ...] = ()
    output: str | None = None
    fail_on: str | None = None
    color: str | None = None
    oracle: str | None = None
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Settings:
    """Every default resolved: command line > environment > [tool.provscore] > defaults."""

    targets: tuple[OutputTarget, ...]
    fail_on: str
    color: str
    oracle: str | None
    selection: RuleSelection


def _env_choice(env: Mapping[str, str], name: str, allowed: tuple[str, ...]) -> str | None:
    value = env.get(name, "").strip()
    if not value:
        return None
    if value not in allowed:
        raise UsageError(f"${name}: {value!r} is not one of {', '.join(allowed)}")
    return value


def _env_formats(env: Mapping[str, str]) -> tuple[OutputTarget, ...] | None:
    value = env.get(ENV_FORMAT, "").strip()
    if not value:
        return None
    return tuple(parse_target(spec.strip(), f"${ENV_FORMAT}")
                 for spec in value.split(",") if spec.strip())


def resolve_settings(cli: CommandLine, env: Mapping[str, str], config: RepoConfig
                     ) -> Settings:
    """One value per setting, from the highest source that gives it. Lists of rules
    follow ruff: ``select`` from the highest source replaces the others; ``ignore`` and
    ``extend-select`` from the configuration and the command line add up."""
    if cli.formats:
        targets = tuple(parse_target(spec) for spec in cli.formats)
    else:
        targets = _env_formats(env) or config.formats or (OutputTarget(DEFAULT_FORMAT),)
    fail_on = (cli.fail_on or _env_choice(env, ENV_FAIL_ON, FAIL_ON_VALUES) or config.fail_on
               or DEFAULT_FAIL_ON)
    color = cli.color or _env_choice(env, ENV_COLOR, COLOR_CHOICES) or "auto"
    select = cli.select if cli.select is not None else (
        config.select if config.select is not None else (ALL,))
    from_config = (cli.select is None and config.select is not None) or \
        bool(config.extend_select or config.ignore)
    sources = [*([config.source] if from_config and config.source else []),
               *(flag for flag, given in (("--select", cli.select is not None),
                                          ("--extend-select", bool(cli.extend_select)),
                                          ("--ignore", bool(cli.ignore))) if given)]
    selection = RuleSelection(select, (*config.extend_select, *cli.extend_select),
                              (*config.ignore, *cli.ignore), tuple(sources))
    return Settings(resolve_targets(targets, cli.output), fail_on, color,
                    cli.oracle or config.oracle, selection)


def check_config_rules(config: RepoConfig, registry: Registry) -> None:
    """An unknown code in the file is the file's error (exit 3 naming it)."""
    for key, selectors in (("select", config.select or ()),
                           ("extend-select", config.extend_select), ("ignore", config.ignore)):
        check_selectors(selectors, registry, f"tool.provscore.{key}", config.source)


def required_rules(contract: Contract) -> RequiredRules:
    return RequiredRules(contract.required_rules, contract.required_actions, contract.source)


def use_color(choice: str, env: Mapping[str, str], is_terminal: bool) -> bool:
    """``--color``: ``always`` and ``never`` are final; ``auto`` honours ``NO_COLOR``, then
    ``FORCE_COLOR`` (each only when set and not empty: no-color.org, force-color.org),
    then ``TERM=dumb``, then whether standard output is a terminal."""
    if choice != "auto":
        return choice == "always"
    if env.get("NO_COLOR"):
        return False
    if env.get("FORCE_COLOR"):
        return True
    if env.get("TERM") == "dumb":
        return False
    return is_terminal
