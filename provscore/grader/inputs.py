"""The grader stage's inputs, read from base (never from the patched tree)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Container, Sequence
from typing import TYPE_CHECKING

from provscore.change.diff import FileStatus, decode_diff, parse_diff
from provscore.errors import InputError
from provscore.grader.literals import (
    LazyTable,
    changed_symbols,
    console_scripts,
    importing_tests,
    literal_owners,
)
from provscore.grader.requirements import (
    declared_distributions,
    import_names,
    installed_top_levels,
    is_requirements_file,
    own_distributions,
)
from provscore.grader.stage import GraderInputs, top_level_module

if TYPE_CHECKING:
    from provscore.callgraph.analysis import GraphFacts
    from provscore.change.git import Repo
    from provscore.grader.tables import GraderTables
    from provscore.model import PathRole


def installed_import_names() -> frozenset[str]:
    """Top-level import names of the distributions installed where provscore runs (the
    same one read of their metadata the declared-dependency mapping uses)."""
    return frozenset().union(*installed_top_levels().values())


class InstalledNames(Container[str]):
    """:func:`installed_import_names`, read when first asked: reading every installed
    distribution's metadata costs more than scoring a small patch, and only a patch
    adding a top-level module asks (PS808)."""

    def __init__(self) -> None:
        self._names: frozenset[str] | None = None

    def __contains__(self, name: object) -> bool:
        if self._names is None:
            self._names = installed_import_names()
        return name in self._names


def declared_imports(dists: frozenset[str], tables: GraderTables) -> LazyTable:
    """Import name → the declared distribution providing it (see :mod:`.requirements`),
    worked out when first asked: mapping distributions to import names reads the
    installed metadata, and only a patch adding a top-level module asks (PS808)."""
    return LazyTable(lambda: import_names(dists, tables.distribution_imports,
                                          installed_top_levels()) if dists else {})


def own_packages(dists: frozenset[str], tables: GraderTables, paths: Collection[str]
                 ) -> LazyTable:
    """Import name the project's own distribution provides → the base path defining it
    ("" when none does), worked out when first asked (as :func:`declared_imports`)."""
    def make() -> dict[str, str]:
        names = import_names(dists, tables.distribution_imports, installed_top_levels())
        out = dict.fromkeys(names, "")
        for path in sorted(paths):
            name = top_level_module(path)
            if name in out and not out[name]:
                out[name] = path
        return out

    return LazyTable(make if dists else dict)


def grader_inputs(repo: Repo, base_sha: str, graph: GraphFacts | None, *,
                  role_of: Callable[[str], PathRole], tables: GraderTables,
                  import_names: Container[str],
                  entry_points: Sequence[str] = (), protected: Sequence[str] = (),
                  hidden_tests: Sequence[str] = ()) -> GraderInputs:
    tree = repo.tree(base_sha)
    packaging = ["pyproject.toml", "setup.cfg", "setup.py",
                 *sorted(p for p in tree if is_requirements_file(p))]
    configs = repo.read_blobs(base_sha, packaging)
    scripts = [*console_scripts(configs["pyproject.toml"], configs["setup.cfg"]),
               *entry_points]
    touched = graph.touched if graph is not None else ()
    importers = importing_tests(graph.base, graph.base_tests.ids) if graph is not None \
        else (lambda module: ())
    return GraderInputs(
        role_of, tables,
        entry_modules=frozenset(e.split(":", 1)[0].strip() for e in scripts),
        protected=tuple(protected), hidden_tests=frozenset(hidden_tests),
        import_names=import_names, changed_symbols=changed_symbols(touched),
        declared_imports=declared_imports(declared_distributions(configs), tables),
        own_packages=own_packages(own_distributions(configs), tables, tree),
        literal_owners=literal_owners(touched, lambda paths: repo.read_blobs(base_sha, paths),
                                      importers))


def hidden_test_paths(data: bytes, origin: str) -> tuple[str, ...]:
    """The paths a hidden test patch (SWE-bench's ``test_patch``) creates or renames to:
    the patch under review must not create them first (PS807). Raises InputError when
    ``data`` is not a unified diff."""
    changes = parse_diff(decode_diff(data), origin=origin)
    if not changes.files and data.strip():
        raise InputError("not a unified diff: no file headers", path=origin)
    return tuple(sorted({fc.path for fc in changes.files
                         if fc.status in (FileStatus.ADDED, FileStatus.RENAMED,
                                          FileStatus.COPIED) and fc.new_path}))
