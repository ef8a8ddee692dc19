"""How a helper's literals changed: only literals at all, and only bounds of its checks
made tighter (a helper that checks more is no weaker oracle)."""

from __future__ import annotations

import ast

from provscore.evidence.effects import only_looks


class _Literals(ast.NodeTransformer):
    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        return ast.copy_location(ast.Constant(value="<literal>"), node)


def literal_only(before: str, after: str) -> bool:
    """Whether two pieces of code differ only in their literal values."""
    try:
        a, b = ast.parse(before), ast.parse(after)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return ast.dump(_Literals().visit(a)) == ast.dump(_Literals().visit(b))


_UPPER = {ast.Lt: "right", ast.LtE: "right", ast.Gt: "left", ast.GtE: "left"}


def bounds_tightened(before: str, after: str, tolerances: frozenset[str] = frozenset(),
                     precisions: frozenset[str] = frozenset()) -> bool:
    """Whether a helper changed only in numbers that bound its checks, each to a tighter
    bound: an upper bound (``assert abs(d) < within``, a parameter's default used only so)
    lowered, a lower bound raised. A tighter tolerance cannot make a failing test pass.
    The default of a parameter named as a tolerance (``tolerances``: ``rtol``, ``tol``) or
    a precision (``precisions``: ``decimal``) that the body only hands on as an argument
    of that name or position is such a bound too: lower, and higher, is tighter."""
    try:
        a, b = ast.parse(before), ast.parse(after)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    if not literal_only(before, after):
        return False
    pairs = [(x, y) for x, y in zip(ast.walk(a), ast.walk(b), strict=True)
             if isinstance(x, ast.Constant) and isinstance(y, ast.Constant)
             and x.value != y.value]
    if not pairs:
        return False
    sides = _bound_sides(a, tolerances, precisions)
    for x, y in pairs:
        side, old, new = sides.get(id(x)), x.value, y.value
        if side is None or isinstance(old, bool) or isinstance(new, bool) or \
                not isinstance(old, int | float) or not isinstance(new, int | float) or \
                not (new < old if side == "upper" else new > old):
            return False
    return True


def _bound_sides(tree: ast.Module, tolerances: frozenset[str] = frozenset(),
                 precisions: frozenset[str] = frozenset()) -> dict[int, str]:
    """The numeric constants of a single def that bound an assertion, by node id: "upper"
    or "lower". A constant counts written in the comparison, or as the default of a
    parameter the body reads nowhere else."""
    defs = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    if len(defs) != 1:
        return {}
    func = defs[0]
    positions: dict[int, str] = {}  # id of a bound node → its side
    for node in ast.walk(func):
        if not isinstance(node, ast.Assert):
            continue
        tests = node.test.values if isinstance(node.test, ast.BoolOp) and \
            isinstance(node.test.op, ast.And) else [node.test]
        for test in tests:
            if isinstance(test, ast.Compare) and len(test.ops) == 1 and \
                    type(test.ops[0]) in _UPPER:
                upper_at = _UPPER[type(test.ops[0])]
                positions[id(test.comparators[0])] = "upper" if upper_at == "right" else "lower"
                positions[id(test.left)] = "lower" if upper_at == "right" else "upper"
    sides = dict(positions)
    handed = _handed_on(func) if tolerances or precisions else set()
    args = func.args
    params = args.posonlyargs + args.args
    defaults = list(zip(params[len(params) - len(args.defaults):], args.defaults, strict=True))
    defaults += [(p, d) for p, d in zip(args.kwonlyargs, args.kw_defaults, strict=True)
                 if d is not None]
    for param, default in defaults:
        reads = [n for n in ast.walk(func) if isinstance(n, ast.Name) and n.id == param.arg]
        found = {positions.get(id(n)) for n in reads}
        if reads and len(found) == 1 and None not in found:
            sides[id(default)] = next(iter(found)) or ""
        elif reads and param.arg in tolerances | precisions and \
                all(id(n) in handed for n in reads):
            sides[id(default)] = "upper" if param.arg in tolerances else "lower"
    return sides


def _handed_on(func: ast.FunctionDef) -> set[int]:
    """Ids of the names the body passes on unchanged as an argument of a call (``f(x,
    rtol=rtol)``, ``f(a, b, rtol)``): a tolerance handed on is the callee's tolerance."""
    out: set[int] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Call):
            out |= {id(a) for a in node.args if isinstance(a, ast.Name)}
            out |= {id(k.value) for k in node.keywords
                    if isinstance(k.value, ast.Name) and k.arg in (None, k.value.id)}
    return out


def checks_only_added(before: str, after: str) -> bool:
    """Whether a helper changed only by gaining ``assert`` statements (anywhere in its
    body, every other statement kept as it was): it checks everything it checked and more,
    so no test that failed through it can pass. An assertion that binds a name (``:=``),
    yields or makes a call that changes state (``assert b.__dict__.update(a.__dict__) is
    None``, evidence/effects.only_looks) is not counted: it changes what the helper
    goes on to check."""
    try:
        a, b = ast.parse(before), ast.parse(after)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return _block_grows(a.body, b.body)


def _block_grows(old: list[ast.stmt], new: list[ast.stmt]) -> bool:
    i = 0
    grew = False
    for stmt in new:
        if i < len(old) and _same_or_grows(old[i], stmt):
            grew = grew or ast.dump(old[i]) != ast.dump(stmt)
            i += 1
        elif isinstance(stmt, ast.Assert) and only_looks(stmt):
            grew = True
        else:
            return False
    return i == len(old) and grew


_BLOCKS = ("body", "orelse", "finalbody")


def _same_or_grows(old: ast.stmt, new: ast.stmt) -> bool:
    if ast.dump(old) == ast.dump(new):
        return True
    if type(old) is not type(new) or isinstance(old, ast.Try):
        return False
    for field, value in ast.iter_fields(old):
        other = getattr(new, field)
        if _dump(value) == _dump(other):
            continue
        if field not in _BLOCKS or not isinstance(value, list) or \
                not isinstance(other, list) or not _block_grows(value, other):
            return False
    return True


def _dump(value: object) -> str:
    if isinstance(value, ast.AST):
        return ast.dump(value)
    if isinstance(value, list):
        return "[" + ",".join(_dump(v) for v in value) + "]"
    return repr(value)
