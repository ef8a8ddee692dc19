"""The property catalog: ``properties.toml`` (or ``properties.yaml`` with PyYAML) in the
oracle dir, loaded into :class:`Catalog` (seed 002's human-owned test plan).

Python API (used by scoring and by the off-tree runner): :func:`find_catalog` and
:func:`read_catalog` give a frozen :class:`Catalog` of frozen :class:`Property` rows;
:meth:`Catalog.property` finds one by id, :meth:`Catalog.property_of_check` by the check
function a result names. Every key is validated; an error names the file, the property
and the key (``properties.toml: property 'P1_cap': 'trials' must be ...``).
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any, Final

from provscore.errors import InputError
from provscore.oracle.rows import Fields
from provscore.records import dataclass

CATALOG_NAMES: Final = ("properties.toml", "properties.yaml", "properties.yml")
#: The property kinds seed 002 names, and the other checkable shapes a catalog may use.
KINDS: Final = ("forall_trace", "fixture_wellformed", "pairwise", "pure_check",
                "metamorphic", "differential", "example")
_TOP_KEYS: Final = frozenset({"version", "subject", "properties", "oracle_rules"})
_PROPERTY_KEYS: Final = frozenset({"id", "statement", "kind", "covers", "check", "trials",
                                   "timeout_s"})
_RULE_KEYS: Final = frozenset({"author_may_edit", "fail_closed_on_unknown_property",
                               "freeze_is_not_a_pass"})


@dataclass(frozen=True, slots=True)
class CheckRef:
    """A property's check: a Python file in the oracle dir and a function defined in it."""

    file: str  # relative to the oracle dir, POSIX
    function: str

    @property
    def node_id(self) -> str:
        """The pytest-style id of the check (how the runner's results name it)."""
        return f"{self.file}::{self.function}"


@dataclass(frozen=True, slots=True)
class Property:
    """One invariant of the catalog."""

    id: str
    statement: str
    kind: str
    covers: tuple[str, ...] = ()  # module/symbol globs: pkg.mod, pkg.*, pkg.mod:Class.f
    check: CheckRef | None = None
    trials: int | None = None  # None: the contract's score.property_trials
    timeout_s: float | None = None  # None: the contract's score.property_timeout_s


@dataclass(frozen=True, slots=True)
class OracleRules:
    """Seed 002's ``oracle_rules``."""

    author_may_edit: tuple[str, ...] = ()
    fail_closed_on_unknown_property: bool = True
    freeze_is_not_a_pass: bool = True


@dataclass(frozen=True, slots=True)
class Catalog:
    properties: tuple[Property, ...]
    rules: OracleRules = OracleRules()
    version: int = 1
    subject: str = ""
    source: str = ""  # the file it was read from

    def property(self, pid: str) -> Property | None:
        return next((p for p in self.properties if p.id == pid), None)

    def property_of_check(self, file: str, function: str) -> Property | None:
        """The property whose check is ``function`` in oracle-dir ``file``."""
        return next((p for p in self.properties if p.check is not None
                     and p.check.file == file and p.check.function == function), None)


def find_catalog(oracle_dir: Path) -> Path | None:
    """The catalog file of an oracle dir, if it has one (two is an error)."""
    found = [oracle_dir / n for n in CATALOG_NAMES if (oracle_dir / n).is_file()]
    if len(found) > 1:
        raise InputError(f"two property catalogs ({', '.join(p.name for p in found)}): keep one",
                         path=str(oracle_dir))
    return found[0] if found else None


def _load_document(path: Path) -> Any:
    try:
        text = path.read_bytes().decode("utf-8")
    except OSError as exc:
        raise InputError(f"cannot read catalog: {exc.strerror or exc}", path=str(path)) from None
    except UnicodeDecodeError as exc:
        raise InputError(f"catalog is not UTF-8 (byte {exc.start})", path=str(path)) from None
    if path.suffix == ".toml":
        try:
            return tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"malformed TOML: {exc}", path=str(path)) from None
    try:
        import yaml
    except ImportError:
        raise InputError("a YAML catalog needs PyYAML: pip install 'provscore[yaml]' (or "
                         "write properties.toml)", path=str(path)) from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise InputError(f"malformed YAML: {str(exc).splitlines()[0]}", path=str(path)) from None


def read_catalog(path: Path) -> Catalog:
    """Read and validate a catalog file (check files are looked up beside it)."""
    doc = _load_document(path)
    where = str(path)
    if not isinstance(doc, dict):
        raise InputError("a catalog is a table with a 'properties' list", path=where)
    top = Fields(doc, where, _TOP_KEYS)
    version = top.typed("version", int, required=False) or 1
    if version != 1:
        raise InputError(f"'version': only version 1 is known, got {version!r}", path=where)
    subject = top.text("subject", required=False)
    raw_props = doc.get("properties")
    if not isinstance(raw_props, list) or not raw_props:
        raise InputError("'properties' must be a non-empty list of property tables",
                         path=where)
    props: list[Property] = []
    for n, raw in enumerate(raw_props):
        prop = _property(raw, path, n)
        if any(p.id == prop.id for p in props):
            raise InputError(f"property {prop.id!r}: 'id' is given twice", path=where)
        props.append(prop)
    rules = _rules(doc.get("oracle_rules", {}), where)
    return Catalog(tuple(props), rules, version, subject, where)


def _property(raw: object, path: Path, n: int) -> Property:
    where = str(path)
    if not isinstance(raw, dict):
        raise InputError(f"properties[{n}] must be a table", path=where)
    pid = raw.get("id")
    if not isinstance(pid, str) or not pid.strip():
        raise InputError(f"properties[{n}]: 'id' must be a non-empty string", path=where)
    here = f"{where}: property {pid!r}"
    f = Fields(raw, here, _PROPERTY_KEYS)
    statement = f.text("statement", nonempty=True)
    kind = f.text("kind", nonempty=True)
    if kind not in KINDS:
        raise InputError(f"'kind' must be one of {', '.join(KINDS)}, got {kind!r}", path=here)
    covers = _globs(raw.get("covers", []), here)
    check = _check(raw.get("check"), path.parent, here) if "check" in raw else None
    trials = f.typed("trials", int, required=False)
    if trials is not None and trials < 1:
        raise InputError(f"'trials' must be at least 1, got {trials!r}", path=here)
    timeout = raw.get("timeout_s")
    if timeout is not None and (isinstance(timeout, bool) or not isinstance(timeout, int | float)
                                or not 0 < timeout < float("inf")):
        raise InputError(f"'timeout_s' must be a positive number, got {timeout!r}", path=here)
    if check is None and not covers:
        raise InputError("needs 'check' or 'covers': a property that names no code covers "
                         "nothing", path=here)
    return Property(pid, statement, kind, covers, check, trials,
                    None if timeout is None else float(timeout))


def _globs(value: object, here: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise InputError("'covers' must be a list of module/symbol globs (pkg.mod, "
                         "pkg.mod:Class.method)", path=here)
    for v in value:
        module = v.split(":", 1)[0]
        if not module or any(c in v for c in "/\\ "):
            raise InputError(f"'covers': {v!r} is not a module/symbol glob like "
                             "'pkg.mod' or 'pkg.mod:Class.*'", path=here)
    return tuple(value)


def _check(value: object, root: Path, here: str) -> CheckRef:
    if isinstance(value, str):
        file, sep, function = value.partition("::")
        if not sep:
            raise InputError(f"'check': {value!r} must be 'file.py::function'", path=here)
    elif isinstance(value, dict) and set(value) <= {"file", "function"}:
        file, function = str(value.get("file", "")), str(value.get("function", ""))
    else:
        raise InputError("'check' must be 'file.py::function' or a table with 'file' and "
                         "'function'", path=here)
    rel = PurePosixPath(file)
    if not file.endswith(".py") or rel.is_absolute() or ".." in rel.parts:
        raise InputError(f"'check': {file!r} must be a .py file inside the oracle dir",
                         path=here)
    if not function.isidentifier():
        raise InputError(f"'check': {function!r} is not a function name", path=here)
    target = root / rel
    try:
        tree = ast.parse(target.read_bytes())
    except OSError:
        raise InputError(f"'check': {file} does not exist in the oracle dir", path=here) from None
    except (SyntaxError, ValueError) as exc:
        raise InputError(f"'check': {file} does not parse: {exc}", path=here) from None
    if not any(isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == function
               for n in tree.body):
        raise InputError(f"'check': {file} defines no function {function!r}", path=here)
    return CheckRef(rel.as_posix(), function)


def _rules(raw: object, where: str) -> OracleRules:
    here = f"{where}: oracle_rules"
    if not isinstance(raw, Mapping):
        raise InputError("must be a table", path=here)
    f = Fields(raw, here, _RULE_KEYS)
    edits = raw.get("author_may_edit", [])
    if not isinstance(edits, list) or not all(isinstance(e, str) for e in edits):
        raise InputError("'author_may_edit' must be a list of paths", path=here)
    if not f.flag("freeze_is_not_a_pass", default=True):
        raise InputError("'freeze_is_not_a_pass': false is not supported: a frozen property "
                         "is never a pass (seed 002)", path=here)
    return OracleRules(tuple(edits), f.flag("fail_closed_on_unknown_property", default=True),
                       True)


def check_sources(catalog: Catalog, oracle_dir: Path) -> dict[str, bytes]:
    """The bytes of every check file (for the call graph), by oracle-relative path."""
    out: dict[str, bytes] = {}
    for p in catalog.properties:
        if p.check is not None and p.check.file not in out:
            out[p.check.file] = (oracle_dir / p.check.file).read_bytes()
    return out
