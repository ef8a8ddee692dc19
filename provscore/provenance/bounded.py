"""Verdicts on checks judged by a bound or a count: order comparisons read as ``lo < hi``,
the numbers given to a helper's tolerance parameters, a doctest example's option flags, a
strategy's size bounds and a mock call count."""

from __future__ import annotations

import ast

from provscore.evidence.model import Shape
from provscore.model import Modification


def number(code: str) -> float | None:
    try:
        value = ast.literal_eval(code)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def tolerance_arg_verdict(a: Shape, b: Shape, tolerance: frozenset[str],
                          precision: frozenset[str]) -> tuple[Modification, str] | None:
    """The same helper call but for the numbers given to its tolerance or precision
    parameters (``assert_allclose(x, y, 1e-6)`` of ``def assert_allclose(actual, desired,
    rtol=None, ...)``): judged as those keywords are (a tolerance widened or a precision
    lowered is weaker, the other way stronger); None when anything else differs."""
    names = a.arg_names
    if not names or names != b.arg_names or len(a.operands) != len(b.operands) or \
            a.keywords != b.keywords:
        return None
    stronger = False
    for i, (x, y) in enumerate(zip(a.operands, b.operands, strict=True)):
        if x == y:
            continue
        name = names[i] if i < len(names) else ""
        nx, ny = number(x), number(y)
        if nx is None or ny is None or name not in tolerance | precision:
            return None
        looser = ny > nx if name in tolerance else ny < nx
        if looser:
            how = "widened" if name in tolerance else "lowered"
            return Modification.WEAKENED, f"{name} {how} ({x} → {y})"
        stronger = True
    return (Modification.STRENGTHENED, "tolerance narrowed") if stronger else None


def doctest_flags_verdict(a: Shape, b: Shape,
                          flags: tuple[frozenset[str], frozenset[str], frozenset[str]]
                          ) -> tuple[Modification | None, str] | None:
    """The same doctest example (source and expected output) under other option flags:
    a flag that lets more output match (``+ELLIPSIS``, doctestplus's ``+FLOAT_CMP``) added,
    or one that makes matching stricter removed, is weaker; the other way stronger; a flag
    of unknown effect is another check. None when anything else differs."""
    if a.op != "doctest" or b.op != "doctest" or len(a.operands) != 3 or \
            len(b.operands) != 3 or a.operands[:2] != b.operands[:2]:
        return None
    loosen, tighten, report = flags
    old = set(a.operands[2].split())
    new = set(b.operands[2].split())
    stronger = False
    for flag in sorted(old ^ new):
        name, added = flag[1:], (flag in new) == flag.startswith("+")
        if name in report:
            continue
        if name not in loosen | tighten:
            return Modification.CHANGED, f"doctest option {flag} of unknown effect"
        if (name in loosen) == added:
            return Modification.WEAKENED, f"doctest option {flag} lets more output match" \
                if flag in new else f"doctest option {flag} dropped"
        stronger = True
    return (Modification.STRENGTHENED, "doctest compares more strictly") if stronger \
        else (None, "")


# `lo < hi`, `lo <= hi`, `hi > lo`, `hi >= lo`: (index of the lower side, strict).
_ORDER = {"<": (0, True), "<=": (0, False), ">": (1, True), ">=": (1, False)}


def same_order_sides(a: Shape, b: Shape) -> bool:
    """Two order comparisons of the same two operands, however each is written (``x > y``
    and ``y < x``): one check to compare, not a removal and an addition."""
    return a.op in _ORDER and b.op in _ORDER and len(a.operands) == len(b.operands) == 2 and \
        sorted(a.operands) == sorted(b.operands)


def order_verdict(a: Shape, b: Shape) -> tuple[Modification | None, str] | None:
    """Two order comparisons read as ``lo < hi`` / ``lo <= hi`` whatever way they are
    written: the same sides with ``<`` → ``<=`` is weaker (equality now passes), the other
    way stronger; the sides swapped is another check; one numeric bound moved is judged by
    where it moved (an upper bound lowered, a lower bound raised, is tighter). None when
    they are not both order comparisons of two operands."""
    if a.op not in _ORDER or b.op not in _ORDER or len(a.operands) != 2 or \
            len(b.operands) != 2 or a.keywords != b.keywords:
        return None
    (la, sa), (lb, sb) = _ORDER[a.op], _ORDER[b.op]
    lo_a, hi_a = a.operands[la], a.operands[1 - la]
    lo_b, hi_b = b.operands[lb], b.operands[1 - lb]
    if (lo_a, hi_a) == (lo_b, hi_b):
        if sa == sb:
            return None, f"{a.op} rewritten as {b.op}"
        return (Modification.WEAKENED, f"{a.op} became {b.op} (equality now passes)") if sa \
            else (Modification.STRENGTHENED, f"{a.op} became {b.op}")
    if (lo_a, hi_a) == (hi_b, lo_b):
        return Modification.CHANGED, "the compared sides swapped"
    moved: tuple[str, float, float] | None = None
    if lo_a == lo_b:  # the upper side moved
        na, nb = number(hi_a), number(hi_b)
        moved = ("upper", na, nb) if na is not None and nb is not None else None
    elif hi_a == hi_b:
        na, nb = number(lo_a), number(lo_b)
        moved = ("lower", na, nb) if na is not None and nb is not None else None
    if moved is None:
        return None
    side, old, new = moved
    if old == new:  # `1e-6` → `0.000001`: the same bound spelled another way
        return None if sa == sb else \
            ((Modification.WEAKENED, f"{a.op} became {b.op} (equality now passes)") if sa
             else (Modification.STRENGTHENED, f"{a.op} became {b.op}"))
    # The sides differ by a number: whatever the strictness, the new check implies the old
    # one exactly when its bound is tighter (x < 1e-8 implies x <= 1e-6).
    if (new < old) if side == "upper" else (new > old):
        return Modification.STRENGTHENED, f"{side} bound tightened ({old:g} → {new:g})"
    return Modification.WEAKENED, f"{side} bound loosened ({old:g} → {new:g})"


def bound_verdict(key: str, va: str | None, vb: str | None, *, upper: bool
                   ) -> tuple[Modification, str]:
    """A strategy's bound moved: drawing from a smaller space is weaker (max_size=3 → 0),
    from a larger one stronger; a bound that is not a number cannot be judged."""
    na = number(va) if va is not None else None
    nb = number(vb) if vb is not None else None
    if (va is not None and na is None) or (vb is not None and nb is None):
        return Modification.CHANGED, f"{key} changed ({va} → {vb})"
    unbounded = float("inf") if upper else float("-inf")
    xa, xb = (unbounded if n is None else n for n in (na, nb))
    wider = xb > xa if upper else xb < xa
    if wider:
        return Modification.STRENGTHENED, f"{key} widened ({va} → {vb})"
    return Modification.WEAKENED, f"{key} narrowed ({va or 'unbounded'} → {vb or 'unbounded'}): " \
                                  "fewer cases drawn"


def count_verdict(key: str, va: str | None, vb: str | None) -> tuple[Modification, str]:
    """A count the bare call leaves at "at least once": pinning it to n >= 1 is stronger,
    dropping it weaker, anything else (0: "never", a computed count) another check."""
    na, nb = (number(v) if v is not None else None for v in (va, vb))
    if vb is None:
        return (Modification.WEAKENED, f"{key}={va} dropped") if na is not None and na >= 1 \
            else (Modification.CHANGED, f"{key}={va} dropped")
    if va is None and nb is not None and nb >= 1 and nb.is_integer():
        return Modification.STRENGTHENED, f"{key}={vb} pinned"
    return Modification.EXPECTED_CHANGED, f"{key} changed ({va} → {vb})"
