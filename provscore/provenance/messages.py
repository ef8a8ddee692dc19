"""The text of a failure message is no part of what a helper checks.

``assert re.match(p, s), "Warnings don't match:\\n" + ...`` fails or passes whatever its
message says: the message is built only once the check has failed. So is a local that feeds
nothing but messages (pylint's ``msg = ...`` before ``assert len(a) == len(b), msg``, and the
``no_msg`` placeholder that ``msg`` is built from), and what ``raise AssertionError(...)`` is
given. The string literals in those places are blanked before two versions of a helper are
compared; every other part of the code (the calls, the names, the structure) must still
match, so a message that now calls something else (``pytest.skip(...)``), or a literal a
check reads, still differs.
"""

from __future__ import annotations

import ast

__all__ = ["blank_messages"]

_BLANK = "<message>"


def blank_messages(tree: ast.AST) -> ast.AST:
    """``tree`` with the string literals of failure messages blanked, in place."""
    names = _message_only_names(tree)
    for node in ast.walk(tree):
        for message in _messages(node):
            _blank(message)
        if isinstance(node, ast.Assign) and _targets(node) and _targets(node) <= names:
            _blank(node.value)
    return tree


def _targets(node: ast.Assign) -> set[str]:
    """The names a plain ``a = b = ...`` binds; empty for any other target."""
    if all(isinstance(t, ast.Name) for t in node.targets):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    return set()


def _message_only_names(tree: ast.AST) -> set[str]:
    """Names bound only by plain assignments and read only in assert messages or in the
    value of an assignment to another such name (a fixed point: ``no_msg`` feeds ``expected``,
    which feeds ``msg``)."""
    assigns = [n for n in ast.walk(tree) if isinstance(n, ast.Assign) and _targets(n)]
    plain_stores = {id(t) for n in assigns for t in n.targets}
    bound = {name for n in assigns for name in _targets(n)}
    # A name also bound another way (a loop, a parameter, an augmented assignment) is not
    # followed: its value is not known to be only a message.
    other_binding = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
                     and isinstance(n.ctx, ast.Store | ast.Del) and id(n) not in plain_stores}
    other_binding |= {a.arg for a in ast.walk(tree) if isinstance(a, ast.arg)}
    candidates = set(bound) - other_binding
    reads = _reads_by_place(tree)
    while True:
        kept = {name for name in candidates
                if all(place == "message" or (isinstance(place, frozenset) and place <= candidates)
                       for place in reads.get(name, []))}
        if kept == candidates:
            return kept
        candidates = kept


def _reads_by_place(tree: ast.AST) -> dict[str, list[object]]:
    """Each read of a name: "message" inside an assert's message, the frozenset of the names
    assigned when inside a plain assignment's value, else "check"."""
    places: dict[int, object] = {}
    for node in ast.walk(tree):
        for message in _messages(node):
            for sub in ast.walk(message):
                places[id(sub)] = "message"
        if isinstance(node, ast.Assign) and _targets(node):
            for sub in ast.walk(node.value):
                places.setdefault(id(sub), frozenset(_targets(node)))
    out: dict[str, list[object]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            out.setdefault(node.id, []).append(places.get(id(node), "check"))
    return out


def _messages(node: ast.AST) -> list[ast.expr]:
    """The failure messages a statement gives: an assert's message, the arguments of
    ``raise AssertionError(...)`` (the class raised is kept and compared)."""
    if isinstance(node, ast.Assert) and node.msg is not None:
        return [node.msg]
    if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
            isinstance(node.exc.func, ast.Name) and node.exc.func.id == "AssertionError":
        return list(node.exc.args)
    return []


def _blank(expr: ast.expr) -> None:
    """Blank the strings of a message; an f-string keeps only its fields, in one order (a
    reworded message puts the same values elsewhere in its text)."""
    for sub in ast.walk(expr):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            sub.value = _BLANK
        elif isinstance(sub, ast.JoinedStr):
            fields = [v for v in sub.values if isinstance(v, ast.FormattedValue)]
            sub.values = sorted(fields, key=ast.dump)
