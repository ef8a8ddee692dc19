"""Runner options judged by effect: does a change let fewer tests run or fewer failures count?

pytest options (in ``addopts``, in tox's commands) and ini keys are classified by the one
table in ``rules/patterns.toml`` ``[runner_options]``: options that collect more tests, that
narrow the run, that loosen or tighten outcomes, and that only change what is printed.
Adding a narrowing or loosening option, or removing a collecting or tightening one, is a
loosening (PS205); so is an option the table does not know ("unknown effect"). Reporting
options (``-ra`` → ``-rfEX``, ``-q``, ``--tb``, ``--durations``) are no change at all.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from typing import Any

from provscore.change.warning_filters import list_loosened
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class ConfigChange:
    """One loosening of the runner configuration (PS205)."""

    path: str
    option: str
    detail: str


@dataclass(frozen=True, slots=True)
class OptionEffects:
    """The ``[runner_options]`` table."""

    collects: frozenset[str] = frozenset()
    narrows: frozenset[str] = frozenset()
    loosens: frozenset[str] = frozenset()
    tightens: frozenset[str] = frozenset()
    reports: frozenset[str] = frozenset()
    takes_value: frozenset[str] = frozenset()
    collect_keys: tuple[str, ...] = ()
    exclude_keys: tuple[str, ...] = ()
    loosening_keys: tuple[str, ...] = ()
    reporting_keys: tuple[str, ...] = ()
    # Leading words that name a sub-command, not a test to run (`unittest discover`).
    subcommands: frozenset[str] = frozenset()
    # Options written at the runner's own default ("-p test*.py"): the same run as without.
    at_default: frozenset[str] = frozenset()
    # The other runners' tables (unittest, django): their options mean other things.
    runners: tuple[tuple[str, OptionEffects], ...] = ()
    # doctest_optionflags by effect: (loosen, tighten, report) flag names.
    doctest_flags: tuple[frozenset[str], frozenset[str], frozenset[str]] = \
        (frozenset(), frozenset(), frozenset())
    # Environment variables the runner reads as options (tox's setenv): each
    # comma-separated entry of a warning variable is a `-W` (PYTHONWARNINGS), the words of
    # an option variable are more options (PYTEST_ADDOPTS).
    warning_variables: frozenset[str] = frozenset()
    option_variables: frozenset[str] = frozenset()

    @classmethod
    def from_patterns(cls, table: Mapping[str, Any]) -> OptionEffects:
        def words(key: str) -> frozenset[str]:
            return frozenset(str(w) for w in table.get(key, ()))

        runners = tuple((name, cls.from_patterns(sub)) for name, sub in sorted(table.items())
                        if isinstance(sub, Mapping))
        return cls(words("collects"), words("narrows"), words("loosens"), words("tightens"),
                   words("reports"), words("takes_value"),
                   tuple(table.get("collect_keys", ())), tuple(table.get("exclude_keys", ())),
                   tuple(table.get("loosening_keys", ())),
                   tuple(table.get("reporting_keys", ())), words("subcommands"),
                   words("at_default"), runners,
                   (words("doctest_flags_loosen"), words("doctest_flags_tighten"),
                    words("doctest_flags_report")),
                   words("warning_variables"), words("option_variables"))

    def for_runner(self, runner: str) -> OptionEffects:
        """The table of one runner ("pytest" is this one; an unknown runner has no
        table, so that every option it is given has an unknown effect)."""
        if runner == "pytest":
            return self
        return dict(self.runners).get(runner, OptionEffects())

    def _short_name(self, token: str) -> str:
        """``-rfEX`` → ``-r``, ``-knot slow`` → ``-k``, ``--tb=short`` → ``--tb``."""
        if token.startswith("--"):
            return token.split("=", 1)[0]
        if len(token) > 2 and token[:2] in self.takes_value:
            return token[:2]
        return token

    def options(self, tokens: Sequence[str]) -> list[tuple[str, str]]:
        """(name, as written) of every option; a detached value joins its option."""
        return self._split(tokens)[0]

    def targets(self, tokens: Sequence[str]) -> list[str]:
        """The positional words: paths, modules or labels of the tests to run."""
        return self._split(tokens)[1]

    def _split(self, tokens: Sequence[str]) -> tuple[list[tuple[str, str]], list[str]]:
        out: list[tuple[str, str]] = []
        targets: list[str] = []
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            name = self._short_name(tok)
            if name in self.takes_value and name == tok and i + 1 < len(tokens):
                out.append((name, f"{tok} {tokens[i + 1]}"))
                i += 2
                continue
            if tok.startswith("-"):
                out.append((name, tok))
            elif not (tok in self.subcommands and not targets) and not _shell_word(tok):
                targets.append(tok)
            i += 1
        return out, targets

    def is_default(self, written: str) -> bool:
        """``-p test*.py``, ``--pattern=test*.py``: the option spelling out the default."""
        name, _, value = written.replace("=", " ", 1).partition(" ")
        unquoted = value.strip().strip("'\"")
        return f"{name} {unquoted}" in self.at_default

    def effect(self, name: str, written: str) -> str:
        """collects | narrows | loosens | tightens | reports | unknown."""
        if written in self.reports or written.replace("=", " ", 1) in self.reports:
            return "reports"
        if name in ("-W", "--pythonwarnings"):
            value = written.split(None, 1)[-1].split("=", 1)[-1]
            return "tightens" if value.startswith("error") else "loosens"
        for effect in ("collects", "narrows", "loosens", "tightens", "reports"):
            if name in getattr(self, effect):
                return effect
        if name == "-p":  # pytest's: a runner whose table names -p (a pattern) returned above
            return "loosens"  # disabling or loading a plugin can change every outcome
        if len(name) > 2 and name[0] == "-" and name[1] != "-" and \
                all(f"-{c}" in self.reports for c in name[1:]):
            return "reports"  # bundled short flags: -qq, -vs
        return "unknown"


_LOOSER_WHEN = {"narrows": "added", "loosens": "added", "unknown": "added",
                "collects": "removed", "tightens": "removed"}
_WHY = {"narrows": "runs fewer tests", "loosens": "counts fewer failures",
        "collects": "collects fewer tests", "tightens": "counts fewer failures",
        "unknown": "unknown effect"}


def _shell_word(tok: str) -> bool:
    """Shell plumbing after an invocation (``$@``, redirections, ``&&``): no test target."""
    return tok.startswith(("$", ">", "<", "2>", "&", "|", ";")) or tok in ("\\",) or \
        tok in _PASSED_THROUGH


# tox's placeholders for the words given to tox itself (`tox -- basic`): no target of the
# channel's own; what the channel names besides them is what it runs by default.
_PASSED_THROUGH = frozenset({"{posargs}", "[]"})


def environment_changes(before: Sequence[tuple[str, str, str]],
                        after: Sequence[tuple[str, str, str]], effects: OptionEffects
                        ) -> list[ConfigChange]:
    """Loosenings in the variables a channel sets for the runner (tox's ``setenv``): the
    options they carry compared as options, per channel and variable. Other variables are
    no runner option (a settings module named there is change/settings.py's)."""
    def carried(env: Sequence[tuple[str, str, str]]) -> dict[tuple[str, str], list[str]]:
        out: dict[tuple[str, str], list[str]] = {}
        for channel, name, value in env:
            if name in effects.warning_variables:
                words = [w for spec in value.split(",") if spec.strip()
                         for w in ("-W", spec.strip())]
            elif name in effects.option_variables:
                try:
                    words = shlex.split(value)
                except ValueError:
                    words = [value]  # unbalanced quotes: compared as written
            else:
                continue
            out.setdefault((channel, name), []).extend(words)
        return out

    pre, post = carried(before), carried(after)
    changes: list[ConfigChange] = []
    for channel, name in sorted(pre.keys() | post.keys()):
        changes += option_changes(pre.get((channel, name), []), post.get((channel, name), []),
                                  effects, channel, "setenv", verb=f"setenv {name} ")
    return changes


def target_changes(before: Sequence[str], after: Sequence[str], path: str, option: str,
                   verb: str = "") -> list[ConfigChange]:
    """Positional targets: naming tests where none were named, or dropping some of the
    named ones, runs fewer tests."""
    pre, post = set(before), set(after)
    if pre == post:
        return []
    if not pre:
        what = f"now runs only {' '.join(sorted(post))}"
    elif not post:
        return []  # no target at all: the runner's whole default discovery
    else:
        gone = sorted(t for t in pre if not any(_covers(p, t) for p in post))
        if not gone:
            return []
        what = f"no longer runs {' '.join(gone)}"
    return [ConfigChange(path, option, f"{verb}{what}: runs fewer tests")]


def _covers(target: str, other: str) -> bool:
    """Whether running ``target`` runs ``other`` too: the same target, a directory holding
    it (``tests`` holds ``tests/unit``, ``.`` everything) or a package label holding it
    (``basic`` holds ``basic.tests``)."""
    t, o = target.rstrip("/"), other.rstrip("/")
    return t == o or t in (".", "") or o.startswith((t + "/", t + "."))


def option_changes(before: Sequence[str], after: Sequence[str], effects: OptionEffects,
                   path: str, option: str, verb: str = "") -> list[ConfigChange]:
    """Loosenings between two option lists (each option matched as written)."""
    pre = [o for o in effects.options(before) if not effects.is_default(o[1])]
    post = [o for o in effects.options(after) if not effects.is_default(o[1])]
    remaining = [w for _, w in pre]
    added: list[tuple[str, str]] = []
    for name, written in post:
        if written in remaining:
            remaining.remove(written)
        else:
            added.append((name, written))
    removed = [(n, w) for n, w in pre if w in remaining]
    out: list[ConfigChange] = []
    for side, options in (("added", added), ("removed", removed)):
        for name, written in options:
            effect = effects.effect(name, written)
            if _LOOSER_WHEN.get(effect) == side:
                word = "adds" if side == "added" else "removes"
                note = f" ({_WHY[effect]})" if effect == "unknown" else f": {_WHY[effect]}"
                out.append(ConfigChange(path, option, f"{verb}{word} {written}{note}"))
    return out


# What pytest collects when a collect key is not set ("" for testpaths: everything).
_DEFAULTS = {"testpaths": "", "python_files": "test_*.py *_test.py", "python_classes": "Test",
             "python_functions": "test"}


def ini_changes(before: Mapping[str, str], after: Mapping[str, str], effects: OptionEffects,
                path: str) -> list[ConfigChange]:
    """Loosenings between two ini sections (lists compared as sets of entries)."""
    out: list[ConfigChange] = []
    for key in effects.collect_keys:
        old = before.get(key, _DEFAULTS.get(key, "")).split()
        new = after.get(key, _DEFAULTS.get(key, "")).split()
        gone = sorted(set(old) - set(new))
        if gone or (not old and new):  # testpaths set where everything was collected
            what = f"removes {' '.join(gone)}" if gone else f"now only {' '.join(new)}"
            out.append(ConfigChange(path, key, f"{key}: {what} (collects fewer tests)"))
    for key in effects.exclude_keys:
        extra = sorted(set((after.get(key) or "").split()) -
                       set((before.get(key) or "").split()))
        if extra:
            out.append(ConfigChange(path, key, f"{key}: adds {' '.join(extra)} "
                                               "(collects fewer tests)"))
    for key in effects.loosening_keys:
        a, b = before.get(key), after.get(key)
        if key == "filterwarnings" and not list_loosened(a, b):
            continue
        if key == "doctest_optionflags" and a is not None and b is not None:
            loosened = _doctest_flags_loosened(a, b, effects.doctest_flags)
            if loosened:
                out.append(ConfigChange(path, key, f"{key}: {loosened}"))
            continue
        if a != b and not (key == "xfail_strict" and str(b).lower() in ("true", "1")) and \
                not (key in ("strict_markers", "strict") and str(b).lower() in ("true", "1")):
            out.append(ConfigChange(path, key, f"{key}: {a!r} → {b!r}"))
    known = {*effects.collect_keys, *effects.exclude_keys, *effects.loosening_keys,
             *effects.reporting_keys, "addopts"}
    for key in sorted((set(before) | set(after)) - known):
        if before.get(key) != after.get(key):
            out.append(ConfigChange(path, key, f"{key}: {before.get(key)!r} → "
                                               f"{after.get(key)!r} (unknown effect)"))
    return out


def _doctest_flags_loosened(before: str, after: str,
                            flags: tuple[frozenset[str], frozenset[str], frozenset[str]]
                            ) -> str:
    """How a doctest_optionflags edit loosens doctests ("" when it does not): a loosening
    flag added, a tightening one removed, or a flag of unknown effect either way."""
    loosen, tighten, report = flags
    old, new = set(before.split()), set(after.split())
    for flag in sorted(new - old):
        if flag not in tighten | report:
            what = "lets more output match" if flag in loosen else "unknown effect"
            return f"adds {flag} ({what})"
    for flag in sorted(old - new):
        if flag not in loosen | report:
            what = "makes matching stricter" if flag in tighten else "unknown effect"
            return f"removes {flag} ({what})"
    return ""
