"""provscore.records.dataclass behaves as dataclasses.dataclass for every shape it builds.

Each class shape is defined twice from the same body, once by the standard library and once
by provscore's decorator, and the two are compared on the behaviour code relies on:
construction (defaults, factories, ``init=False``, ``__post_init__``, argument errors),
``repr``, equality, hash values, frozenness, pickling, copying, ``replace``, ``fields`` and
``__match_args__``.
"""

from __future__ import annotations

import copy
import dataclasses
import pathlib
import pickle
import re
from collections.abc import Callable
from dataclasses import field
from typing import Any, ClassVar

import pytest

from provscore import records

Decorator = Callable[..., Any]
Shape = Callable[[Decorator], Any]


def _point(dc: Decorator) -> Any:
    @dc(frozen=True, slots=True)
    class Point:
        x: int
        y: int = 0
        tags: tuple[str, ...] = ()
        note: str = field(default="", compare=False, repr=False)
        KIND: ClassVar[str] = "point"
    return Point


def _factory(dc: Decorator) -> Any:
    @dc(frozen=True)
    class Box:
        name: str
        items: list[int] = field(default_factory=list)
        memo: dict[str, int] = field(default_factory=dict, init=False, compare=False)
        hidden: int = field(default=7, init=False)
    return Box


def _post_init(dc: Decorator) -> Any:
    @dc(frozen=True, slots=True)
    class Checked:
        low: int
        high: int

        def __post_init__(self) -> None:
            if self.low > self.high:
                raise ValueError("low above high")
    return Checked


def _mutable(dc: Decorator) -> Any:
    @dc
    class Counter:
        name: str
        count: int = 0
        seen: list[str] = field(default_factory=list)
    return Counter


def _single(dc: Decorator) -> Any:
    @dc(frozen=True, slots=True)
    class Single:
        value: str
    return Single


def _empty(dc: Decorator) -> Any:
    @dc(frozen=True, slots=True)
    class Empty:
        pass
    return Empty


def _inherited(dc: Decorator) -> Any:
    @dc(frozen=True, slots=True)
    class Base:
        a: int
        b: str = "b"

    @dc(frozen=True, slots=True)
    class Child(Base):
        c: float = 1.5
    return Child


def _own_eq(dc: Decorator) -> Any:
    @dc(frozen=True)
    class Loose:
        a: int
        b: int

        def __eq__(self, other: object) -> bool:
            return isinstance(other, Loose) and self.a == other.a
    return Loose


def _own_hash(dc: Decorator) -> Any:
    @dc(frozen=True, slots=True)
    class Hashed:
        a: int

        def __hash__(self) -> int:
            return 42
    return Hashed


def _hash_field(dc: Decorator) -> Any:
    @dc(frozen=True, slots=True)
    class Partial:
        a: int
        b: int = field(default=0, hash=False)
        c: int = field(default=0, compare=False, hash=True)
    return Partial


SHAPES: dict[str, tuple[Shape, list[tuple[tuple[Any, ...], dict[str, Any]]]]] = {
    "defaults": (_point, [((1,), {}), ((1, 2), {"tags": ("t",)}), ((1,), {"note": "n"}),
                          ((2, 2, ("a", "b"), "z"), {})]),
    "factories": (_factory, [(("x",), {}), (("x", [1, 2]), {}), (("y",), {"items": [3]})]),
    "post_init": (_post_init, [((1, 2), {}), ((3, 3), {})]),
    "mutable": (_mutable, [(("a",), {}), (("a", 2), {}), (("b", 0, ["s"]), {})]),
    "single": (_single, [(("v",), {}), (("w",), {})]),
    "empty": (_empty, [((), {})]),
    "inherited": (_inherited, [((1,), {}), ((1, "x", 2.5), {}), ((2,), {"c": 0.0})]),
    "own_eq": (_own_eq, [((1, 2), {}), ((1, 3), {})]),
    "own_hash": (_own_hash, [((1,), {}), ((2,), {})]),
    "hash_field": (_hash_field, [((1,), {}), ((1, 2, 3), {}), ((1, 5, 3), {})]),
}


def _pair(shape: str) -> tuple[Any, Any, list[tuple[tuple[Any, ...], dict[str, Any]]]]:
    make, calls = SHAPES[shape]
    return make(dataclasses.dataclass), make(records.dataclass), calls


def _observe(cls: Any, calls: list[tuple[tuple[Any, ...], dict[str, Any]]]) -> list[object]:
    """Everything the two builds must agree on, with class identity factored out."""
    made = [cls(*args, **kwargs) for args, kwargs in calls]
    seen: list[object] = [
        [repr(m).replace(cls.__qualname__, "C") for m in made],
        [[a == b for b in made] for a in made],
        [a != object() for a in made],
        [dataclasses.asdict(m) for m in made],
        [(f.name, f.init, f.compare, f.repr, f.hash) for f in dataclasses.fields(cls)],
        getattr(cls, "__match_args__", None),
        hasattr(made[0], "__dict__"),
        cls.__hash__ is None,
    ]
    if cls.__hash__ is not None:
        seen.append([_hash_or_error(m) for m in made])
    return seen


def _hash_or_error(obj: object) -> object:
    try:
        return hash(obj)
    except TypeError as e:  # a frozen class with a list field: both refuse alike
        return str(e)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_same_behaviour_as_the_standard_library(shape: str) -> None:
    std, ours, calls = _pair(shape)
    assert _observe(ours, calls) == _observe(std, calls)
    assert ours.__init__.__qualname__.endswith(".__init__")


@pytest.mark.parametrize("shape", ["defaults", "factories", "post_init", "single",
                                   "inherited", "hash_field"])
def test_frozen_instances_refuse_assignment_and_deletion(shape: str) -> None:
    for cls in _pair(shape)[:2]:
        obj = cls(*_pair(shape)[2][0][0])
        name = dataclasses.fields(cls)[0].name
        frozen = dataclasses.FrozenInstanceError
        with pytest.raises(frozen, match=f"cannot assign to field '{name}'"):
            setattr(obj, name, 1)
        with pytest.raises(frozen, match=f"cannot delete field '{name}'"):
            delattr(obj, name)
        # a new attribute is refused too: by ours as FrozenInstanceError, by 3.11's slotted
        # stdlib build with a TypeError (its __setattr__ calls super() with the class
        # that slots=True replaced)
        with pytest.raises((dataclasses.FrozenInstanceError, TypeError)):
            obj.not_a_field = 1


@pytest.mark.parametrize("protocol", range(pickle.HIGHEST_PROTOCOL + 1))
@pytest.mark.parametrize("shape", ["defaults", "factories", "inherited", "mutable"])
def test_pickle_and_copy_round_trips(shape: str, protocol: int) -> None:
    # classes defined in a function cannot be pickled by reference: register them here
    std, ours, calls = _pair(shape)
    for cls in (std, ours):
        cls.__qualname__ = cls.__name__ = f"_{shape}_{id(cls)}"
        globals()[cls.__name__] = cls
        try:
            for args, kwargs in calls:
                obj = cls(*args, **kwargs)
                back = pickle.loads(pickle.dumps(obj, protocol))
                assert back == obj and dataclasses.asdict(back) == dataclasses.asdict(obj)
                assert copy.copy(obj) == obj and copy.deepcopy(obj) == obj
        finally:
            del globals()[cls.__name__]


def test_construction_matches_including_errors() -> None:
    for cls in _pair("factories")[:2]:
        a, b = cls("a"), cls("a")
        assert a.items is not b.items and a.memo is not b.memo  # a fresh value per instance
        assert a.hidden == 7 and a.memo == {}
        with pytest.raises(TypeError):
            cls("a", [], {})  # memo is not an argument
        assert dataclasses.replace(a, items=[9]).items == [9]
    for cls in _pair("post_init")[:2]:
        with pytest.raises(ValueError, match="low above high"):
            cls(2, 1)
        with pytest.raises(ValueError, match="low above high"):
            dataclasses.replace(cls(1, 2), low=5)
    for cls in _pair("defaults")[:2]:
        with pytest.raises(TypeError):
            cls()
        with pytest.raises(TypeError):
            cls(1, bogus=2)


def test_mutable_classes_assign_and_are_unhashable() -> None:
    for cls in _pair("mutable")[:2]:
        c = cls("a")
        c.count += 1
        c.seen.append("x")
        assert (c.count, c.seen) == (1, ["x"]) and cls.__hash__ is None
        with pytest.raises(TypeError, match="unhashable"):
            hash(c)


def test_own_methods_are_kept_and_hash_follows_the_standard_rule() -> None:
    std, ours, _ = _pair("own_eq")
    for cls in (std, ours):
        assert cls(1, 2) == cls(1, 3)  # the body's __eq__
        assert hash(cls(1, 2)) == hash((1, 2))  # frozen: the fields' hash is added
    for cls in _pair("own_hash")[:2]:
        assert hash(cls(1)) == 42


def test_what_it_does_not_write_is_refused_or_handed_over() -> None:
    with pytest.raises(TypeError, match="non-default argument 'b' follows default argument"):
        @records.dataclass(frozen=True)
        class Bad:
            a: int = 0
            b: int  # type: ignore[misc]
    with pytest.raises(TypeError, match="InitVar"):
        @records.dataclass(frozen=True)
        class WithInitVar:
            a: dataclasses.InitVar[int]
    with pytest.raises(TypeError, match="cannot inherit non-frozen dataclass from a frozen one"):
        @records.dataclass(frozen=True)
        class Frozen:
            a: int

        @records.dataclass
        class Thawed(Frozen):  # type: ignore[misc]
            b: int = 0

    @records.dataclass(frozen=True, slots=True, order=True)
    class Ordered:  # order=True: the standard library's build
        a: int
        b: str = ""
    assert sorted([Ordered(2), Ordered(1, "z"), Ordered(1)]) == [
        Ordered(1), Ordered(1, "z"), Ordered(2)]


def test_provscore_defines_its_dataclasses_with_records() -> None:
    """The start-up saving holds only if every class is built here (tests may use either)."""
    root = pathlib.Path(records.__file__).parent
    stdlib = re.compile(r"^from dataclasses import .*\bdataclass\b|@dataclasses\.dataclass",
                        re.M)
    offenders = [str(p.relative_to(root)) for p in sorted(root.rglob("*.py"))
                 if p.name != "records.py" and stdlib.search(p.read_text("utf-8"))]
    assert offenders == []
