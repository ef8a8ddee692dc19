"""One reading of a comparison within a tolerance, however it is spelled.

``math.isclose(a, b)``, ``a == pytest.approx(b, rel=1e-9, abs=0)`` and
``pytest.approx(b) == a`` all check that ``a`` is ``b`` within a relative and an absolute
tolerance. Each is read as ``a == b`` with the tolerance it *effectively* allows as the
keywords ``approx.rel`` and ``approx.abs`` (the library's defaults filled in, by the
library's rules), so a rewrite from one spelling to another is compared by the tolerance
it allows: the same is no change, tighter is stronger, wider is weaker.

Only the spellings whose library is known from the code are read this way
(``pytest.approx``, ``math.isclose``); a bare ``approx`` or ``isclose`` may be anything the
module bound to that name (``approx = functools.partial(pytest.approx, rel=0.1)``) and keeps
its keywords as written.
"""

from __future__ import annotations

import ast

from provscore.evidence.constants import unparse

Keywords = tuple[tuple[str, str], ...]

# pytest.approx(expected, rel=None, abs=None, nan_ok=False): with neither tolerance given
# rel=1e-6 and abs=1e-12; with only abs given the relative tolerance is not used at all;
# with only rel given abs stays 1e-12 (_pytest/python_api.py ApproxScalar.tolerance).
_APPROX = "pytest.approx"
_APPROX_PARAMS = ("expected", "rel", "abs", "nan_ok")
# math.isclose(a, b, *, rel_tol=1e-09, abs_tol=0.0)
_ISCLOSE = "math.isclose"
_ISCLOSE_KEYWORDS = {"rel_tol": "rel", "abs_tol": "abs"}


def closeness(expr: ast.expr) -> tuple[str, str, Keywords] | None:
    """(actual, expected, keywords) of a tolerance comparison; None for anything else."""
    if isinstance(expr, ast.Call) and _spelled(expr.func) == _ISCLOSE:
        return _isclose(expr)
    if not (isinstance(expr, ast.Compare) and len(expr.ops) == 1 and
            isinstance(expr.ops[0], ast.Eq)):
        return None
    left, right = expr.left, expr.comparators[0]
    if _is_approx(left) and not _is_approx(right):
        left, right = right, left  # `approx(b) == a` is `a == approx(b)`
    if not _is_approx(right) or _is_approx(left):
        return None
    assert isinstance(right, ast.Call)
    read = _approx(right)
    if read is None:
        return None
    expected, keywords = read
    return unparse(left), expected, keywords


def _spelled(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return f"{func.value.id}.{func.attr}"
    return ""


def _is_approx(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and _spelled(node.func) == _APPROX


def _given(node: ast.expr | None) -> ast.expr | None:
    """A tolerance argument, None when absent or the literal None (the default)."""
    if node is None or (isinstance(node, ast.Constant) and node.value is None):
        return None
    return node


def _approx(call: ast.Call) -> tuple[str, Keywords] | None:
    if len(call.args) > len(_APPROX_PARAMS) or \
            any(isinstance(a, ast.Starred) for a in call.args):
        return None
    bound: dict[str, ast.expr] = dict(zip(_APPROX_PARAMS, call.args, strict=False))
    for k in call.keywords:
        if k.arg is None or k.arg not in _APPROX_PARAMS or k.arg in bound:
            return None  # **options, an unknown or a doubled argument: not read
        bound[k.arg] = k.value
    if "expected" not in bound:
        return None
    rel, tol = _given(bound.get("rel")), _given(bound.get("abs"))
    if rel is None and tol is None:
        effective = ("1e-06", "1e-12")
    elif rel is None and tol is not None:
        effective = ("0", unparse(tol))
    else:
        assert rel is not None
        effective = (unparse(rel), unparse(tol) if tol is not None else "1e-12")
    keywords = [("approx", "1"), ("approx.rel", effective[0]), ("approx.abs", effective[1])]
    if "nan_ok" in bound:
        keywords.append(("approx.nan_ok", unparse(bound["nan_ok"])))
    return unparse(bound["expected"]), tuple(sorted(keywords))


def _isclose(call: ast.Call) -> tuple[str, str, Keywords] | None:
    if len(call.args) != 2 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    given: dict[str, str] = {}
    for k in call.keywords:
        if k.arg not in _ISCLOSE_KEYWORDS or _ISCLOSE_KEYWORDS[k.arg] in given:
            return None
        value = _given(k.value)
        if value is None:
            return None  # isclose(rel_tol=None) is a TypeError, not a default
        given[_ISCLOSE_KEYWORDS[k.arg]] = unparse(value)
    keywords = (("approx", "1"), ("approx.abs", given.get("abs", "0")),
                ("approx.rel", given.get("rel", "1e-09")))
    return unparse(call.args[0]), unparse(call.args[1]), keywords
