"""Helper oracles and skipping fixtures defined in other modules than the changed test."""

from __future__ import annotations

import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import field

from provscore import evidence  # its classifier (libcst) is imported when first called
from provscore.change.collection import CollectionConfig
from provscore.change.git import Repo
from provscore.evidence.model import FilePair, SuppressionKind
from provscore.evidence.tables import Tables
from provscore.records import dataclass


@dataclass(frozen=True, slots=True)
class _ModuleOffer:
    """What one module offers the modules that import it."""

    helpers: frozenset[str] = frozenset()  # helper oracles (qualnames)
    skips: Mapping[str, SuppressionKind] = field(default_factory=dict)
    transparent: frozenset[str] = frozenset()
    factories: frozenset[str] = frozenset()
    test_methods: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    unittest_classes: frozenset[str] = frozenset()
    signatures: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    self_reads: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    check_params: Mapping[str, tuple[str, ...]] = field(default_factory=dict)


class HelperIndex:
    """What imported names are, read from the modules that define them: helper oracles,
    skip helpers, transparent decorators (base, or the post-image when the patch edits
    the module). Each module is classified once; an import cycle reads as nothing."""

    def __init__(self, repo: Repo, base: str, config: CollectionConfig, tables: Tables,
                 post_images: Mapping[str, bytes | None], *,
                 support: frozenset[str] = frozenset(),
                 modules: Mapping[str, str] | None = None) -> None:
        """``support``: production-role paths the call graph found to be test support
        (they are read like test helpers); ``modules``: module name -> path at base."""
        self.repo, self.base, self.config, self.tables = repo, base, config, tables
        self.post_images = post_images
        self.support = support
        self.modules = modules or {}
        self._tree: set[str] | None = None
        self._cache: dict[str, _ModuleOffer] = {}

    def _paths(self) -> set[str]:
        if self._tree is None:
            self._tree = {e.path for e in self.repo.ls_tree(self.base) if e.path.endswith(".py")}
            self._tree |= {p for p in self.post_images if p.endswith(".py")}
        return self._tree

    def _offer(self, path: str) -> _ModuleOffer:
        if path not in self._cache:
            self._cache[path] = _ModuleOffer()  # guards against import cycles
            if path in self.post_images:
                data = self.post_images[path]
            else:
                data = self.repo.read_blobs(self.base, [path]).get(path)
            if data is not None:
                ev = evidence.extract(path, data, self.config, self.tables, self)
                self._cache[path] = _ModuleOffer(
                    frozenset(h.qualname for h in ev.helpers if h.has_evidence or h.is_fixture),
                    dict(ev.skip_helpers), frozenset(ev.transparent),
                    frozenset(ev.transparent_factories), dict(ev.test_methods),
                    frozenset(ev.unittest_classes),
                    {q: (decorators, params) for q, decorators, params in ev.signatures},
                    dict(ev.self_reads), dict(ev.check_params))
        return self._cache[path]

    def _resolve(self, importer: str, qualname: str) -> tuple[_ModuleOffer, str] | None:
        module, _, name = qualname.rpartition(".")
        if not module or not name:
            return None
        if module.startswith("."):
            dots = len(module) - len(module.lstrip("."))
            pkg = posixpath.dirname(importer)
            for _ in range(dots - 1):
                pkg = posixpath.dirname(pkg)
            rest = module.lstrip(".").replace(".", "/")
            stem = posixpath.join(pkg, rest) if rest else pkg
        else:
            stem = module.replace(".", "/")
        tree = self._paths()
        known = self.modules.get(stem.replace("/", "."))
        for candidate in (*([known] if known else []), f"{stem}.py", f"{stem}/__init__.py",
                          f"src/{stem}.py", f"src/{stem}/__init__.py"):
            if candidate in tree and (candidate in self.support or _worth_reading(candidate)):
                return self._offer(candidate), name
        return None

    def __call__(self, importer: str, qualname: str) -> bool:
        found = self._resolve(importer, qualname)
        return found is not None and found[1] in found[0].helpers

    def skip_kind(self, importer: str, qualname: str) -> SuppressionKind | None:
        found = self._resolve(importer, qualname)
        return found[0].skips.get(found[1]) if found is not None else None

    def test_methods(self, importer: str, qualname: str) -> tuple[str, ...]:
        found = self._resolve(importer, qualname)
        return found[0].test_methods.get(found[1], ()) if found is not None else ()

    def unittest_class(self, importer: str, qualname: str) -> bool:
        found = self._resolve(importer, qualname)
        return found is not None and found[1] in found[0].unittest_classes

    def signature(self, importer: str, qualname: str) -> tuple[str, str] | None:
        # "mod.f" or "mod.Class.m": the module is what resolves, the rest is looked up there.
        for module, member in _splits(qualname):
            found = self._resolve(importer, f"{module}.{member.split('.', 1)[0]}")
            if found is not None:
                return found[0].signatures.get(member)
        return None

    def self_reads(self, importer: str, qualname: str) -> tuple[str, ...] | None:
        for module, member in _splits(qualname):  # "mod.Class.m"
            if "." not in member:
                continue
            found = self._resolve(importer, f"{module}.{member.split('.', 1)[0]}")
            if found is not None:
                return found[0].self_reads.get(member)
        return None

    def check_params(self, importer: str, qualname: str) -> tuple[str, ...]:
        for module, member in _splits(qualname):  # "mod.f" or "mod.Class.m"
            found = self._resolve(importer, f"{module}.{member.split('.', 1)[0]}")
            if found is not None:
                return found[0].check_params.get(member, ())
        return ()

    def transparent(self, importer: str, qualname: str, factory: bool) -> bool:
        found = self._resolve(importer, qualname)
        if found is None:
            return False
        offer, name = found
        return name in (offer.factories if factory else offer.transparent)


def _splits(qualname: str) -> list[tuple[str, str]]:
    """``a.b.C.m`` as (module, member) for a member of one name, then of two."""
    parts = qualname.split(".")
    return [(".".join(parts[:-n]), ".".join(parts[-n:]))
            for n in (1, 2) if len(parts) > n and parts[:-n] != [""]]


def _worth_reading(path: str) -> bool:
    # Helper oracles live in test code; production modules are the call graph's job.
    parts = path.split("/")
    return any("test" in p for p in parts) or parts[-1] == "conftest.py"


def skipping_conftest_fixtures(repo: Repo, base: str, pairs: Sequence[FilePair],
                               post_images: Mapping[str, bytes | None],
                               config: CollectionConfig, tables: Tables) -> frozenset[str]:
    """Fixtures that skip, defined in the conftest.py files above the changed tests (as
    they are after the patch): requesting one from an existing test is a new skip."""
    dirs: set[str] = set()
    for p in pairs:
        if p.new_path and p.post and p.post.tests:
            d = posixpath.dirname(p.new_path)
            while True:
                dirs.add(d)
                if not d:
                    break
                d = posixpath.dirname(d)
    paths = sorted(posixpath.join(d, "conftest.py") if d else "conftest.py" for d in dirs)
    unchanged = [p for p in paths if p not in post_images]
    blobs: dict[str, bytes | None] = dict(repo.read_blobs(base, unchanged))
    blobs.update({p: post_images[p] for p in paths if p in post_images})
    names: set[str] = set()
    for path, data in blobs.items():
        if data is None:
            continue
        ev = evidence.extract(path, data, config, tables, collect_tests=False)
        names |= {h.qualname for h in ev.helpers if h.is_fixture and h.skips}
    return frozenset(names)
