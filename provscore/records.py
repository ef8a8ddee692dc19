"""The project's ``@dataclass``: the standard library's, built without compiling five methods.

On Python 3.11 ``dataclasses.dataclass`` compiles six methods per frozen class from
generated source (``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__``,
``__delattr__``): about 1 ms per class, and a README-only ``provscore score`` defines 124
classes, a quarter of its start-up. Here only ``__init__`` is compiled (it is the hot one);
the other five are shared functions reading a per-class tuple of field names, with the
standard library's behaviour: the same equality (same class, compared fields in order),
the same hash values (``hash`` of the tuple of hashed fields), the same ``repr``, the same
``FrozenInstanceError``, the same pickling of frozen slotted classes. Fields, defaults,
``default_factory``, ``init=False``, ``compare``/``repr``/``hash`` of ``field()``,
``__post_init__``, ``slots``, ``__match_args__``, ``dataclasses.fields``/``replace``/
``asdict`` all work as before, because the standard library still builds the class and
its ``__dataclass_fields__``. Anything else (``order``, ``kw_only``, ``InitVar``, other
options) is handed to the standard library whole.

The type checker sees ``dataclasses.dataclass`` itself, so mypy's dataclass plugin types
every class exactly as before.
"""

from __future__ import annotations

import dataclasses
import operator
from collections.abc import Callable
from dataclasses import MISSING, Field, FrozenInstanceError
from typing import TYPE_CHECKING, Any, TypeVar, cast

_T = TypeVar("_T", bound=type)
_HAS_FACTORY = object()  # the default of a parameter whose field has a default_factory
_FROZEN = "__provscore_frozen__"  # whether a class built here is frozen (its subclasses must match)


def _values(names: tuple[str, ...]) -> Callable[[object], tuple[object, ...]]:
    """The tuple of ``names``' values of an object (a tuple even for one or no name)."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = operator.attrgetter(names[0])
        return lambda obj: (one(obj),)
    return operator.attrgetter(*names)  # a tuple for two names or more


def _init(cls: type, fields: tuple[Field[Any], ...], frozen: bool) -> Callable[..., None]:
    """``__init__`` as ``dataclasses`` writes it: parameters in field order, defaults and
    factories, ``init=False`` fields set from their default, ``__post_init__`` last."""
    params, body = ["self"], []
    scope: dict[str, object] = {"_HAS_FACTORY": _HAS_FACTORY, "_set": object.__setattr__}
    after_default = False
    for f in fields:
        name, value = f.name, f.name
        if f.default is not MISSING:
            scope[f"_dflt_{name}"] = f.default
        if f.default_factory is not MISSING:
            scope[f"_fact_{name}"] = f.default_factory
        if f.init:
            if f.default is not MISSING:
                params.append(f"{name}=_dflt_{name}")
                after_default = True
            elif f.default_factory is not MISSING:
                params.append(f"{name}=_HAS_FACTORY")
                value = f"_fact_{name}() if {name} is _HAS_FACTORY else {name}"
                after_default = True
            elif after_default:
                raise TypeError(f"non-default argument {name!r} follows default argument")
            else:
                params.append(name)
        elif f.default is not MISSING:
            value = f"_dflt_{name}"
        elif f.default_factory is not MISSING:
            value = f"_fact_{name}()"
        else:
            continue  # init=False and no default: left unset, as dataclasses leaves it
        body.append(f"    _set(self, {name!r}, {value})" if frozen
                    else f"    self.{name} = {value}")
    if hasattr(cls, "__post_init__"):
        body.append("    self.__post_init__()")
    source = f"def __init__({', '.join(params)}):\n" + ("\n".join(body) or "    pass") + "\n"
    made: dict[str, Any] = {}
    exec(source, scope, made)  # our own generated source, as dataclasses does
    init: Callable[..., None] = made["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    return init


def _eq(compared: Callable[[object], tuple[object, ...]]) -> Callable[[object, object], object]:
    def __eq__(self: object, other: object) -> object:
        if other.__class__ is self.__class__:
            return compared(self) == compared(other)
        return NotImplemented
    return __eq__


def _repr(names: tuple[str, ...]) -> Callable[[object], str]:
    def __repr__(self: object) -> str:
        shown = ", ".join(f"{n}={getattr(self, n)!r}" for n in names)
        return f"{self.__class__.__qualname__}({shown})"
    return __repr__


def _hash(hashed: Callable[[object], tuple[object, ...]]) -> Callable[[object], int]:
    def __hash__(self: object) -> int:
        return hash(hashed(self))
    return __hash__


def _frozen(cls: type, fields: tuple[Field[Any], ...]) -> dict[str, object]:
    """``FrozenInstanceError`` on assignment or deletion, as a frozen dataclass raises it;
    and, for slotted classes, pickling that sets fields without ``__setattr__``."""
    owner: Any = cls  # the class built (with slots, not the one the body defined)
    ordered = tuple(f.name for f in fields)
    names = frozenset(ordered)

    def __setattr__(self: Any, name: str, value: object) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot assign to field {name!r}")
        super(owner, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise FrozenInstanceError(f"cannot delete field {name!r}")
        super(owner, self).__delattr__(name)

    methods: dict[str, object] = {"__setattr__": __setattr__, "__delattr__": __delattr__}
    if "__slots__" in cls.__dict__ and "__getstate__" not in cls.__dict__:
        def __getstate__(self: object) -> list[object]:
            return [getattr(self, n) for n in ordered]

        def __setstate__(self: object, state: list[object]) -> None:
            for n, v in zip(ordered, state, strict=True):
                object.__setattr__(self, n, v)

        methods.update(__getstate__=__getstate__, __setstate__=__setstate__)
    return methods


def _plain(cls: type) -> bool:
    """Whether every field is one ``_init`` writes as ``dataclasses`` would (no InitVar,
    no keyword-only field)."""
    initvar = getattr(dataclasses, "_FIELD_INITVAR", None)
    every: dict[str, Field[Any]] = cls.__dict__["__dataclass_fields__"]
    return initvar is not None and not any(
        getattr(f, "_field_type", initvar) is initvar or f.kw_only is True
        for f in every.values())


def _build(cls: _T, frozen: bool, slots: bool) -> _T:
    own = cls.__dict__
    defined = {m for m in ("__eq__", "__repr__") if m in own}
    # dataclasses: a ``__hash__ = None`` that Python set because the body defines __eq__
    # is not the class's own hash
    if own.get("__hash__", MISSING) is not MISSING and not (
            own["__hash__"] is None and "__eq__" in own):
        defined.add("__hash__")
    for base in cls.__mro__[1:]:
        if getattr(base, _FROZEN, frozen) != frozen:
            raise TypeError("cannot inherit frozen dataclass from a non-frozen one" if frozen
                            else "cannot inherit non-frozen dataclass from a frozen one")
    if frozen and {"__setattr__", "__delattr__"} & own.keys():
        raise TypeError(f"{cls.__qualname__}: cannot overwrite __setattr__ or __delattr__ "
                        "of a frozen dataclass")
    built = cast(_T, dataclasses.dataclass(init=False, repr=False, eq=False, slots=slots)(cls))
    if not _plain(built):
        raise TypeError(f"{cls.__qualname__}: provscore.records.dataclass writes no InitVar "
                        "or keyword-only field; use dataclasses.dataclass")
    fields = dataclasses.fields(built)
    methods: dict[str, object] = {"__init__": _init(built, fields, frozen), _FROZEN: frozen}
    if "__repr__" not in defined:
        methods["__repr__"] = _repr(tuple(f.name for f in fields if f.repr))
    if "__eq__" not in defined:
        methods["__eq__"] = _eq(_values(tuple(f.name for f in fields if f.compare)))
    if "__hash__" not in defined:
        # dataclasses: eq and frozen hash the fields; eq and not frozen are unhashable
        hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
        methods["__hash__"] = _hash(_values(hashed)) if frozen else None
    if frozen:
        methods.update(_frozen(built, fields))
    for name, method in methods.items():
        setattr(built, name, method)
    return built


def _dataclass(cls: type | None = None, /, *, frozen: bool = False, slots: bool = False,
               **options: Any) -> Any:
    if options:  # order, kw_only, unsafe_hash, ...: the standard library's own build
        return dataclasses.dataclass(cls, frozen=frozen, slots=slots, **options)
    if cls is None:
        return lambda c: _build(c, frozen, slots)
    return _build(cls, frozen, slots)


if TYPE_CHECKING:
    from dataclasses import dataclass as dataclass
else:
    dataclass = _dataclass
