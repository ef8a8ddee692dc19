"""Classify what a patch changed, not the whole file it touched (issue 12).

A patch touches a handful of lines in test files of thousands; classifying every
definition of both images costs what the files weigh, not what changed. An unchanged
top-level definition whose every input is unchanged classifies the same before and after
(its evidence is ``preexisting`` by construction), so it can be left out of both images
without moving a finding. What must stay, on both sides:

- the top-level definitions the patch changed (statement-level diff of the two images,
  in order: a moved definition is changed, since order decides which one of two
  same-named definitions runs);
- every definition that binds a name a changed statement binds (re-definitions), and
  every definition that refers to such a name, transitively (a test whose helper, fixture,
  base class or module constant changed);
- everything a kept definition refers to, transitively (its helpers, fixtures, bases);
- what runs without being named: module-level statements (imports, constants,
  ``pytestmark``), ``setup_module``-style functions, ``pytest_*`` hooks, autouse fixtures;
- and an unchanged definition kept on one side is kept on the other.

Left-out definitions become blank lines, so every line and column of what is classified
is where it is in the file. Whatever this module cannot judge falls back to the whole
file (``None``): a changed module-level statement that is not an import or a plain
assignment, a change to something that runs unnamed, a file ``ast`` does not read, a line
ending other than ``\\n`` or ``\\r\\n``, or a renamed file.
"""

from __future__ import annotations

import ast
import difflib
import re
import tokenize
import unicodedata
from collections.abc import Iterable, Sequence

from provscore.records import dataclass

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
_WORD = re.compile(r"(?!\d)\w+")
# Names pytest and unittest call without a reference in the module.
_IMPLICIT = re.compile(
    r"(setup|teardown|setUp|tearDown)(_?module|_?class|_?function|_?method|Module|Class)?$"
    r"|pytest_\w+|pytestmark|__test__|load_tests|collect_ignore(_glob)?|__all__"
    r"|__getattr__|__dir__")


@dataclass(frozen=True, slots=True)
class _Statement:
    first: int  # 1-based line of the first decorator or the statement
    last: int
    text: bytes
    prunable: bool  # a top-level def or class
    binds: frozenset[str]
    # What each bound name is bound to: an import's alias on its own (a changed import
    # line rebinds only the names whose alias changed), else the statement's text.
    keys: tuple[tuple[str, str], ...]
    refs: frozenset[str]
    implicit: bool  # runs without being named (a hook, setup_module, an autouse fixture)
    judgeable: bool  # a change to it can be followed by names


def focus_pair(pre: bytes, post: bytes, pre_tree: ast.Module, post_tree: ast.Module
               ) -> tuple[bytes, bytes] | None:
    """Both images with the definitions that cannot matter blanked, or None for "use the
    whole files" (nothing would be left out, or the change is not one names can follow)."""
    pre_lines, post_lines = _lines(pre), _lines(post)
    if pre_lines is None or post_lines is None:
        return None
    sides = (_statements(pre_tree, pre_lines), _statements(post_tree, post_lines))
    if sides[0] is None or sides[1] is None:
        return None
    a, b = sides[0], sides[1]
    matcher = difflib.SequenceMatcher(None, [s.text for s in a], [s.text for s in b],
                                      autojunk=False)
    pairs: dict[int, int] = {}
    for block in matcher.get_matching_blocks():
        for k in range(block.size):
            pairs[block.a + k] = block.b + k
    changed_a = [i for i in range(len(a)) if i not in pairs]
    matched_b = set(pairs.values())
    changed_b = [j for j in range(len(b)) if j not in matched_b]
    changed = [a[i] for i in changed_a] + [b[j] for j in changed_b]
    if any(not s.judgeable or s.implicit for s in changed):
        return None
    touched = _rebound(a, b, [a[i] for i in changed_a], [b[j] for j in changed_b])
    # A definition on the first two lines may hold the encoding declaration: kept.
    keep_a = _seeds(a, changed_a, touched) | {i for i, s in enumerate(a) if s.first <= 2}
    keep_b = _seeds(b, changed_b, touched) | {j for j, s in enumerate(b) if s.first <= 2}
    back = {j: i for i, j in pairs.items()}
    while True:  # forward closure on each side, mirrored across the pairing
        keep_a, keep_b = _forward(a, keep_a), _forward(b, keep_b)
        mirrored_b = keep_b | {pairs[i] for i in keep_a if i in pairs}
        mirrored_a = keep_a | {back[j] for j in keep_b if j in back}
        if mirrored_a == keep_a and mirrored_b == keep_b:
            break
        keep_a, keep_b = mirrored_a, mirrored_b
    pruned_a = [s for i, s in enumerate(a) if s.prunable and i not in keep_a]
    pruned_b = [s for j, s in enumerate(b) if s.prunable and j not in keep_b]
    if not pruned_a and not pruned_b:
        return None
    return _blank(pre_lines, pruned_a), _blank(post_lines, pruned_b)


def _rebound(a: Sequence[_Statement], b: Sequence[_Statement],
             changed_a: Sequence[_Statement], changed_b: Sequence[_Statement]) -> set[str]:
    """Names the change binds anew: bound by a changed statement to something else on
    the other side, or bound more than once in the module (order then decides)."""
    def keys(side: Sequence[_Statement]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for s in side:
            for name, key in s.keys:
                out.setdefault(name, []).append(key)
        return out

    before, after = keys(changed_a), keys(changed_b)
    count: dict[str, int] = {}
    for s in (*a, *b):
        for name in s.binds:
            count[name] = count.get(name, 0) + 1
    paired = {n for n in before.keys() & after.keys() if count[n] == 2}
    return {n for n in before.keys() | after.keys()
            if n not in paired or sorted(before[n]) != sorted(after[n])}


def _seeds(side: Sequence[_Statement], changed: Iterable[int], touched: set[str]) -> set[int]:
    """Changed statements, module-level statements, what runs unnamed, and (transitively)
    every statement that binds or refers to a name the change rebinds or an affected
    statement binds: `slow = skipif(SKIP)` is affected by a changed `SKIP`, and so is every
    test decorated `@slow`."""
    affected = set(changed)
    names = set(touched)
    while True:
        grown = {i for i, s in enumerate(side) if i not in affected
                 and (s.binds & names or s.refs & names)}
        if not grown:
            break
        affected |= grown
        names |= set().union(*(side[i].binds for i in grown))
    return affected | {i for i, s in enumerate(side) if not s.prunable or s.implicit}


def _forward(side: Sequence[_Statement], keep: set[int]) -> set[int]:
    """``keep`` with every statement binding a name a kept statement refers to."""
    binders: dict[str, list[int]] = {}
    for i, s in enumerate(side):
        for name in s.binds:
            binders.setdefault(name, []).append(i)
    out, todo = set(keep), list(keep)
    while todo:
        for name in side[todo.pop()].refs:
            for i in binders.get(name, ()):
                if i not in out:
                    out.add(i)
                    todo.append(i)
    return out


def _lines(source: bytes) -> list[bytes] | None:
    """The source's lines with their endings, or None where a line ending is one ``ast``
    and libcst might count differently (a lone carriage return, a form feed line break)."""
    if b"\r" in source.replace(b"\r\n", b""):
        return None
    return source.splitlines(keepends=True)


def _statements(tree: ast.Module, lines: Sequence[bytes]) -> list[_Statement] | None:
    try:
        encoding = tokenize.detect_encoding(iter(lines[:2]).__next__)[0]
    except (SyntaxError, LookupError, StopIteration):
        return None
    out: list[_Statement] = []
    previous_end = 0
    for node in tree.body:
        first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
        last = node.end_lineno
        if last is None or not previous_end < first <= last <= len(lines):
            return None
        # ast places a decorator at its expression: the `@` of `@(\n mark)` or `@\`
        # is on a line above. Any code line between the previous statement and this one
        # belongs to this one.
        for k in range(first - 1, previous_end, -1):
            stripped = lines[k - 1].strip()
            if stripped and not stripped.startswith(b"#"):
                first = k
        previous_end = last
        text = b"".join(lines[first - 1:last])
        try:
            decoded = text.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            return None
        words = _identifiers(decoded)
        if isinstance(node, _DEFS):
            out.append(_Statement(first, last, text, True, frozenset({node.name}),
                                  ((node.name, decoded),),
                                  frozenset(words - {node.name}), _runs_unnamed(node), True))
        else:
            binds, judgeable = _context_binds(node, words)
            keys = _import_keys(node) or tuple((n, decoded) for n in binds)
            out.append(_Statement(first, last, text, False, frozenset(binds), keys,
                                  frozenset(words),
                                  any(_IMPLICIT.fullmatch(n) for n in binds), judgeable))
    return out


def _import_keys(node: ast.stmt) -> tuple[tuple[str, str], ...]:
    if isinstance(node, ast.ImportFrom):
        origin = "." * node.level + (node.module or "")
        return tuple((_bound_by(a), f"from {origin} import {a.name}") for a in node.names)
    if isinstance(node, ast.Import):
        return tuple((_bound_by(a), f"import {a.name} as {a.asname}") for a in node.names)
    return ()


def _bound_by(alias: ast.alias) -> str:
    """The module-level name an import alias binds (``import a.b`` binds ``a``)."""
    return (alias.asname or alias.name).split(".")[0]


def _runs_unnamed(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> bool:
    if _IMPLICIT.fullmatch(node.name):
        return True
    for dec in node.decorator_list:  # @pytest.fixture(autouse=True)
        for sub in ast.walk(dec):
            if isinstance(sub, ast.keyword) and sub.arg == "autouse":
                return True
    return False


def _context_binds(node: ast.stmt, words: set[str]) -> tuple[set[str], bool]:
    """Names a module-level statement binds, and whether a change to it is one that
    names can follow: an import or an assignment to names; anything else (a call run at
    import, an ``if`` around definitions) may touch every test."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        return {_bound_by(a) for a in node.names}, not any(a.name == "*" for a in node.names)
    if isinstance(node, ast.Assign | ast.AugAssign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        names = [n for t in targets for n in ast.walk(t)]
        judgeable = all(isinstance(n, ast.Name | ast.Tuple | ast.List | ast.Starred
                                   | ast.expr_context) for n in names)
        # `_ = setattr(mod, "f", g)` rebinds an attribute every test may read (each test's
        # input, PS110); one of an assertion (PS206, read module-wide) names can follow.
        rebinds = node.value is not None and any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and
            n.func.id in ("setattr", "delattr") and not _assertion_attr(n)
            for n in ast.walk(node.value))
        return {n.id for n in names if isinstance(n, ast.Name)}, judgeable and not rebinds
    if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
        return set(), True  # a docstring
    bound = _compound_binds(node)
    return (words if bound is None else bound), False


def _assertion_attr(call: ast.Call) -> bool:
    name = call.args[1] if len(call.args) > 1 else None
    return isinstance(name, ast.Constant) and isinstance(name.value, str) and \
        name.value.startswith(("assert", "fail"))


def _compound_binds(node: ast.stmt) -> set[str] | None:
    """What an ``if``/``try``/``for``/``with`` around definitions binds (its definitions,
    imports and assignments to names), or None when it also runs code whose effect names
    cannot bound (a call, an assignment to an attribute): then every word counts."""
    if not isinstance(node, ast.If | ast.Try | ast.TryStar | ast.For | ast.While | ast.With):
        return None
    out: set[str] = set()
    todo: list[ast.AST] = [node]
    while todo:
        sub = todo.pop()
        if isinstance(sub, _DEFS):
            out.add(sub.name)
            continue  # its body runs when called, and is judged as its own words
        if isinstance(sub, ast.Import | ast.ImportFrom):
            out |= {_bound_by(a) for a in sub.names}
            continue
        if (isinstance(sub, ast.Expr) and not isinstance(sub.value, ast.Constant)) or \
                (isinstance(sub, ast.Attribute | ast.Subscript) and \
                isinstance(sub.ctx, ast.Store | ast.Del)):
            return None
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store | ast.Del):
            out.add(sub.id)
        todo += ast.iter_child_nodes(sub)
    return out


def _identifiers(text: str) -> set[str]:
    """Every word of a statement's source: a superset of the names it can reach another
    definition by (names, attributes, parameters, since fixtures are requested by them,
    keywords, and names in strings such as ``usefixtures("db")``, ``parametrize("a,b")``
    or ``getattr(self, "check")``). A word too many keeps a definition too many, never
    one too few; and a regular expression reads a file many times faster than a walk."""
    if not text.isascii():  # Python compares identifiers after NFKC normalisation
        text = unicodedata.normalize("NFKC", text)
    return set(_WORD.findall(text))


def _blank(lines: Sequence[bytes], pruned: Sequence[_Statement]) -> bytes:
    out = list(lines)
    for s in pruned:
        for k in range(s.first - 1, s.last):
            line = out[k]
            out[k] = b"\r\n" if line.endswith(b"\r\n") else (b"\n" if line.endswith(b"\n")
                                                             else b"")
    return b"".join(out)
