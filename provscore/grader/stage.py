"""The grader-subversion stage over a whole patch: every changed Python file, every role.

Each changed ``.py`` file is parsed with ``ast`` on both sides and walked only where the
patch changed it (:class:`~provscore.grader.scan.FileScan`); what the base image already
did in the same place (same kind, scope and code) is not the patch's and is dropped. Paths
the patch adds (or renames or copies a file to) are checked against the protected paths
(PS807) and the import names of the standard library, the installed distributions and the
dependencies base declares (PS808).
"""

from __future__ import annotations

import fnmatch
import gc
import posixpath
import sys
from collections.abc import Callable, Container, Iterator, Mapping
from dataclasses import field

from provscore.change.diff import FileChange, FileStatus
from provscore.change.stage import Change
from provscore.evidence.limits import parse_refusal, run_deep
from provscore.grader.awareness import test_awareness
from provscore.grader.dunders import always_equal
from provscore.grader.exits import process_exits
from provscore.grader.mocks import mocked_units
from provscore.grader.model import GraderFacts, Signal, SignalKind, Unscanned
from provscore.grader.output import output_forging
from provscore.grader.patches import framework_patches
from provscore.grader.reports import report_tampering
from provscore.grader.scan import FileScan
from provscore.grader.special import Owners, special_cases
from provscore.grader.tables import GraderTables
from provscore.model import PathRole
from provscore.records import dataclass

_SITE_HOOKS = ("sitecustomize.py", "usercustomize.py")


@dataclass(frozen=True, slots=True)
class GraderInputs:
    """What the stage needs besides the change; every part is read from base or the
    oracle dir, never from the patched tree."""

    role_of: Callable[[str], PathRole]
    tables: GraderTables
    # Module names (``pkg.cli``) whose code may end the process: console scripts of base's
    # pyproject/setup.cfg, and the contract's ``grader.entry_points``.
    entry_modules: frozenset[str] = frozenset()
    protected: tuple[str, ...] = ()  # globs of paths the patch must not create
    hidden_tests: frozenset[str] = frozenset()  # paths a hidden test patch adds
    import_names: Container[str] = frozenset()  # installed distributions' top-level names
    # Import name → the distribution base's packaging files declare that provides it.
    declared_imports: Mapping[str, str] = field(default_factory=dict)
    # Import name the project's own distribution provides → the path base defines it at
    # ("" when base has no such module yet).
    own_packages: Mapping[str, str] = field(default_factory=dict)
    changed_symbols: frozenset[str] = frozenset()  # pkg.mod.Cls.meth the patch changed
    # Source file → function qualname → its tests' literals (PS805).
    literal_owners: Mapping[str, Mapping[str, Owners]] | None = None


def touched_lines(fc: FileChange) -> tuple[frozenset[int], frozenset[int]]:
    """The lines of the (pre, post) image the patch changed: its own lines, and on each
    side the lines next to what the other side changed there."""
    pre: set[int] = set()
    post: set[int] = set()
    for hunk in fc.hunks:
        old, new = hunk.old_start, hunk.new_start
        for line in hunk.lines:
            if line.kind == "+":
                post.add(new)
                pre.update((old - 1, old))
                new += 1
            elif line.kind == "-":
                pre.add(old)
                post.update((new - 1, new))
                old += 1
            else:
                old += 1
                new += 1
    return frozenset(pre), frozenset(post)


def module_name(path: str) -> str:
    """``src/pkg/mod.py`` → ``pkg.mod`` (``src/`` and ``lib/`` layouts dropped)."""
    parts = path.removesuffix(".py").split("/")
    if parts[-1] == "__init__":
        parts.pop()
    if len(parts) > 1 and parts[0] in ("src", "lib"):
        parts.pop(0)
    return ".".join(parts)


def grader_facts(change: Change, inputs: GraderInputs) -> GraderFacts:
    if change.diff_error is not None:
        return GraderFacts()
    signals: list[Signal] = []
    unparsed: list[Unscanned] = []
    tested = frozenset(module_name(img.change.path) for img in change.files
                       if img.change.path.endswith(".py") and
                       inputs.role_of(img.change.path) is PathRole.PRODUCTION)
    for img in change.files:
        fc = img.change
        if fc.binary or fc.unsafe_reason or not fc.path.endswith(".py") or img.post is None \
                or any(img.symlink_sides):
            continue
        pre_lines, post_lines = touched_lines(fc)
        added = img.pre is None
        try:
            found = scan_signals(fc.path, img.post, None if added else post_lines, inputs,
                                 tested)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            if img.pre is None or _parses(img.pre):
                unparsed.append(Unscanned(fc.path, _reason(exc), getattr(exc, "lineno", None),
                                          newer_syntax=_newer_syntax(exc, img.post)))
            continue
        if found and img.pre is not None:
            before = _base_signals(fc.old_path or fc.path, img.pre, pre_lines, inputs, tested)
            found = [s for s in found if (s.kind, s.scope, s.code, s.detail) not in before]
        signals.extend(found)
    signals.extend(_new_paths(change, inputs))
    signals.sort(key=lambda s: (s.path, s.line or 0, s.kind.value))
    return GraderFacts(tuple(signals), tuple(unparsed))


def scan_signals(path: str, source: bytes, lines: frozenset[int] | None,
                 inputs: GraderInputs, tested: frozenset[str]) -> list[Signal]:
    """Every signal of one image (``lines``: the changed ones, None: all). A file nested
    deeper than the default recursion limit allows (generated expressions thousands of
    operands long) is walked again on a deep stack; raises SyntaxError, ValueError or
    RecursionError when it cannot be parsed or walked at all."""
    def run() -> list[Signal]:
        # The cyclic GC is paused, as for the call graph's summaries: a tree holds no
        # cycles, and collections its allocations trigger cost more than the walk.
        paused = gc.isenabled()
        gc.disable()
        try:
            return list(file_signals(FileScan(path, source, lines), inputs, tested))
        finally:
            if paused:
                gc.enable()

    try:
        return run()
    except RecursionError:
        out: list[list[Signal]] = []
        failed: list[BaseException] = []

        def deep() -> None:
            try:
                out.append(run())
            except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
                failed.append(exc)

        run_deep(deep)
        if failed or not out:
            raise RecursionError("nested too deeply to analyse") from None
        return out[0]


def _base_signals(path: str, source: bytes, lines: frozenset[int], inputs: GraderInputs,
                  tested: frozenset[str]) -> set[tuple[SignalKind, str, str, str]]:
    try:
        found = scan_signals(path, source, lines, inputs, tested)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return set()
    return {(s.kind, s.scope, s.code, s.detail) for s in found}


def _parses(source: bytes) -> bool:
    try:
        compile(source, "<base>", "exec", dont_inherit=True, flags=0x400)  # PyCF_ONLY_AST
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


def _newer_syntax(exc: BaseException, source: bytes) -> bool:
    """Whether ``source`` is valid Python of a newer version than the one running (libcst
    reads it, ``ast`` here does not: ``type X = int``, PEP 695 generics): not a planted
    error, but nothing the grader rules could read either."""
    if not isinstance(exc, SyntaxError) or parse_refusal(source) is not None:
        return False  # never hand libcst what crashes or stalls it
    import libcst as cst  # only a file that ast cannot read gets here
    try:
        cst.parse_module(source)
    except (cst.ParserSyntaxError, RecursionError, MemoryError, ValueError):
        return False
    return True


def _reason(exc: BaseException) -> str:
    if isinstance(exc, SyntaxError):
        return f"does not parse after the patch (on Python {sys.version_info[0]}." \
            f"{sys.version_info[1]}): {exc.msg}"
    if isinstance(exc, RecursionError):
        return f"cannot be analysed after the patch: {exc}"
    return f"does not parse after the patch: {type(exc).__name__}"


def file_signals(scan: FileScan, inputs: GraderInputs,
                 tested: frozenset[str]) -> Iterator[Signal]:
    """What one scanned image can do to the grader, by its role; ``tested``: the
    production modules the patch changed (a conftest must not rebind them)."""
    role = inputs.role_of(scan.path)
    t = inputs.tables
    if role is PathRole.TEST:
        yield from mocked_units(scan, t, inputs.changed_symbols)
        return
    conftest = role is PathRole.CONFTEST or posixpath.basename(scan.path) == "conftest.py"
    support = role is PathRole.HELPER  # test support: tests/__init__.py, testing utilities
    yield from report_tampering(scan)
    yield from always_equal(scan, t)
    exits = process_exits(scan, t)
    if conftest or support:  # a fixture or helper may skip; importing one may not
        exits = (s for s in exits if not s.scope)
    elif role is PathRole.RUNNER or module_name(scan.path) in inputs.entry_modules:
        exits = iter(())  # setup.py, noxfile.py, console scripts: programs, not libraries
    yield from exits
    if support:  # it captures output and patches clocks for its tests; at import, never
        yield from (s for s in framework_patches(scan, t, None) if not s.scope)
        return
    yield from output_forging(scan, t)
    yield from framework_patches(scan, t, tested if conftest else None)
    if role is PathRole.PRODUCTION:
        yield from test_awareness(scan, t)
        owners = (inputs.literal_owners or {}).get(scan.path)
        if owners:
            yield from special_cases(scan, owners)


def _new_paths(change: Change, inputs: GraderInputs) -> Iterator[Signal]:
    """PS807 and PS808: what a path the patch adds (or renames or copies a file to)
    shadows."""
    gone = frozenset(fc.old_path or fc.path for fc in (img.change for img in change.files)
                     if fc.status in (FileStatus.DELETED, FileStatus.RENAMED))
    for img in change.files:
        moved = img.change.status in (FileStatus.RENAMED, FileStatus.COPIED)
        if (img.pre is not None and not moved) or img.post is None:
            continue
        path = img.change.path
        hidden = path in inputs.hidden_tests
        glob = next((g for g in inputs.protected if fnmatch.fnmatchcase(path, g)), None)
        if hidden or glob is not None:
            why = "the hidden test patch adds" if hidden else f"{glob!r} protects"
            yield Signal(SignalKind.PROTECTED_PATH, path, None, "", path, why,
                         subject="hidden test patch" if hidden else str(glob))
        shadow = _shadowed(path, inputs, gone)
        if shadow is not None:
            yield Signal(SignalKind.SHADOWING, path, None, "", path, shadow)


def top_level_module(path: str) -> str | None:
    """The top-level import name a path defines (``mod.py``, ``pkg/__init__.py``, under
    ``src/`` or ``lib/`` too), or None."""
    parts = path.split("/")
    if parts[0] in ("src", "lib") and len(parts) > 1:
        parts = parts[1:]
    if len(parts) == 1 and parts[0].endswith(".py"):
        return parts[0].removesuffix(".py")
    if len(parts) == 2 and parts[1] == "__init__.py":
        return parts[0]
    return None


def _shadowed(path: str, inputs: GraderInputs, gone: frozenset[str]) -> str | None:
    base = posixpath.basename(path)
    if base in _SITE_HOOKS:
        return f"{base} runs at every interpreter start"
    if base.endswith(".pth"):
        return "a .pth file's import lines run at every interpreter start"
    name = top_level_module(path)
    if name is None or inputs.role_of(path) in (PathRole.TEST, PathRole.CONFTEST) or \
            name in inputs.tables.shadowing_ignored:
        return None
    if name in sys.stdlib_module_names and not name.startswith("_"):
        return f"shadows the standard library module {name!r}"
    if name in inputs.own_packages:
        # The project's own distribution provides `name`: adding it (attrs adding
        # `attrs` beside `attr`) or moving it (to a src/ layout) is the project's code. A
        # second copy beside the one base has would decide which of them the tests import.
        there = inputs.own_packages[name]
        if not there or there in gone:
            return None
        return f"shadows the project's own {name!r} at {there}"
    if name in inputs.declared_imports:
        return f"shadows {name!r} of the declared dependency {inputs.declared_imports[name]!r}"
    if name in inputs.import_names:
        return f"shadows the installed package {name!r}"
    return None
