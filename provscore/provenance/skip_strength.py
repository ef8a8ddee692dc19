"""Judging an edited skip or xfail by meaning: when it suppresses, and how.

A suppression suppresses when every condition around it holds and its own condition
does (``skipif(cond)``, ``skipIf``, ``skipUnless`` negated, ``xfail(cond)``; a plain
``skip`` or a runtime ``pytest.skip()`` always). An edit that suppresses in fewer cases
(a narrowed version bound), or that makes an xfail stricter (``strict=True``, ``raises=``)
is no new suppression; one that suppresses in more cases, turns ``strict`` off or stops the
test running (``run=False``) is a new one; rewording the reason is nothing; anything whose
effect cannot be decided is a changed suppression, for a reviewer to read.
"""

from __future__ import annotations

import ast
from collections import Counter

from provscore.evidence.constants import without_docstrings
from provscore.evidence.model import Suppression, SuppressionKind
from provscore.evidence.suppressions.load_tests import DOCTEST_HEADER, parse_summary
from provscore.model import Modification
from provscore.provenance.conditions import NO_DOMAINS, Domains, Relation, relation
from provscore.provenance.meaning import same_meaning
from provscore.records import dataclass

_CONDITIONAL = {"skipif": False, "skipIf": False, "xfail": False, "skipUnless": True}
_UNCONDITIONAL = {"skip", "expectedFailure", "skipTest", "importorskip", "SkipTest", "Skipped",
                  "XFailed", "exit", "fail"}
# Django's database-feature skips: (how the named features combine, negated). They read
# as skipIf on the connection's features, so that inverting one, requiring a feature more
# or dropping an alternative is judged like any other condition.
_FEATURES = {"skipIfDBFeature": (" or ", False), "skipUnlessDBFeature": (" and ", True),
             "skipUnlessAnyDBFeature": (" or ", True)}
# Keywords that only say why.
_WORDING = {"reason", "msg"}


@dataclass(frozen=True, slots=True)
class _Form:
    name: str  # the callee's last name: skipif, xfail, skip, ...
    condition: str  # when it suppresses, as a Python expression
    keywords: dict[str, str]
    extra: tuple[str, ...]  # positional arguments other than condition and reason


def _form(code: str, kind: SuppressionKind | None = None) -> _Form | None:
    """``kind``: a runtime ``pytest.xfail(reason)`` takes its reason first, where the mark
    ``xfail(condition, reason=...)`` takes a condition."""
    try:
        tree = ast.parse(code.strip(), mode="exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(tree.body) != 1:
        return None
    stmt = tree.body[0]
    node = stmt.exc if isinstance(stmt, ast.Raise) else (
        stmt.value if isinstance(stmt, ast.Expr) else None)
    if node is None:
        return None
    call = node if isinstance(node, ast.Call) else None
    func = call.func if call is not None else node
    name = func.attr if isinstance(func, ast.Attribute) else (
        func.id if isinstance(func, ast.Name) else "")
    args = list(call.args) if call is not None else []
    keywords = {k.arg: ast.unparse(k.value) for k in call.keywords if k.arg} if call else {}
    condition = "True"
    runtime_xfail = name == "xfail" and kind is SuppressionKind.RUNTIME_SKIP
    if name in _CONDITIONAL and not runtime_xfail:
        cond = keywords.pop("condition", None) or (ast.unparse(args.pop(0)) if args else None)
        if cond is not None:
            cond = _string_condition(cond)
            condition = f"not ({cond})" if _CONDITIONAL[name] else cond
        if name != "xfail" and args:
            args.pop(0)  # unittest's skipIf(cond, reason)
    elif name in _FEATURES:
        if not args or keywords or not all(isinstance(a, ast.Constant) and
                                            isinstance(a.value, str) and a.value.isidentifier()
                                            for a in args):
            return None
        joiner, negated = _FEATURES[name]
        features = joiner.join(f"connection.features.{a.value!s}" for a in args
                               if isinstance(a, ast.Constant))
        return _Form(name, f"not ({features})" if negated else features, {}, ())
    elif name in _UNCONDITIONAL or runtime_xfail:
        if name not in ("importorskip",) and args:
            args.pop(0)  # the message
    else:
        return None
    return _Form(name, condition, keywords, tuple(ast.unparse(a) for a in args))


def _callee(code: str) -> str | None:
    """``pkg.with_cases`` of ``pkg.with_cases(1, 2)``; None when not a name or a call."""
    try:
        node = ast.parse(code.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    func = node.func if isinstance(node, ast.Call) else node
    return ast.unparse(func) if isinstance(func, ast.Name | ast.Attribute) else None


def _string_condition(cond: str) -> str:
    """pytest evaluates a string condition (``skipif("sys.platform == 'win32'")``)."""
    try:
        value = ast.literal_eval(cond)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return cond
    return value if isinstance(value, str) else cond


def _predicate(form: _Form, guards: tuple[str, ...]) -> str:
    parts = [g if not g.startswith("for ") else f"__loop__({g!r})" for g in guards]
    return " and ".join(f"({p})" for p in [*parts, form.condition])


def _xfail_keywords(before: dict[str, str], after: dict[str, str]) -> tuple[int, list[str]]:
    """(-1 weaker / 0 / 1 stronger / 2 undecidable, what changed) for xfail's keywords."""
    weaker = stronger = False
    notes: list[str] = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key), after.get(key)
        if a == b:
            continue
        if key == "strict" and (a == "True") != (b == "True"):
            weaker, stronger = weaker or a == "True", stronger or b == "True"
            notes.append("strict turned off" if a == "True" else "strict turned on")
        elif key == "run" and (a == "False") != (b == "False"):
            weaker, stronger = weaker or b == "False", stronger or a == "False"
            notes.append("the test no longer runs" if b == "False" else "the test runs again")
        elif key == "raises" and (a is None) != (b is None):
            weaker, stronger = weaker or b is None, stronger or a is None
            notes.append("raises= dropped" if b is None else "raises= added")
        else:
            return 2, [f"{key} changed"]
    if weaker and stronger:
        return 2, notes
    return (-1 if weaker else 1 if stronger else 0), notes


def _truth(code: str | None, default: bool) -> str:
    """``True``/``False`` for a literal (or absent: ``default``) keyword value; anything
    else as written (a computed value is compared as text: undecidable)."""
    if code is None:
        return str(default)
    try:
        return str(bool(ast.literal_eval(code)))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return code


def _importorskip(form: _Form) -> _Form:
    """``importorskip(modname, minversion=None, reason=None, *, exc_type=...)`` with its
    positional arguments named: only the module name stays positional."""
    extra, keywords = form.extra, dict(form.keywords)
    for key, value in zip(("minversion", "reason"), extra[1:3], strict=False):
        keywords.setdefault(key, value)
    return _Form(form.name, form.condition, keywords, extra[:1] + extra[3:])


def _version(code: str | None) -> tuple[int, ...] | None:
    """The release numbers of a literal version string ("1.10.2" → (1, 10, 2))."""
    try:
        value = ast.literal_eval(code) if code is not None else None
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return None
    if not isinstance(value, str):
        return None
    parts = value.strip().split(".")
    return tuple(int(p) for p in parts) if all(p.isdigit() for p in parts) else None


def _importorskip_keywords(before: dict[str, str], after: dict[str, str]
                           ) -> tuple[int, list[str]]:
    """(-1 weaker / 1 stronger / 2 undecidable, what changed) for importorskip's keywords:
    a required version skips wherever an older one is installed, so adding or raising
    ``minversion`` skips in more states and dropping or lowering it in fewer."""
    if {k: v for k, v in before.items() if k != "minversion"} != \
            {k: v for k, v in after.items() if k != "minversion"}:
        return 2, ["importorskip changed"]
    a, b = before.get("minversion"), after.get("minversion")
    if a is None or b is None:
        return (-1, [f"minversion={b} added: skips wherever an older version is installed"]) \
            if a is None else (1, ["minversion dropped"])
    va, vb = _version(a), _version(b)
    if va is None or vb is None:
        return 2, ["importorskip minversion changed"]
    width = max(len(va), len(vb))  # "1.0" is "1.0.0"
    va, vb = va + (0,) * (width - len(va)), vb + (0,) * (width - len(vb))
    if va == vb:
        return 0, []
    if va < vb:
        return -1, [f"minversion raised {a} → {b}: skips wherever an older version is installed"]
    return 1, [f"minversion lowered {a} → {b}"]


def _guards_verdict(pre: Suppression, post: Suppression, domains: Domains
                    ) -> tuple[Modification | None, str]:
    """The same suppression (a ``collect_ignore.extend([...])``) under other conditions:
    in more states (an inverted ``if``) is a new one, in fewer is none."""
    rel = relation(" and ".join(f"({g})" for g in pre.guards) or "True",
                   " and ".join(f"({g})" for g in post.guards) or "True", domains)
    if rel is Relation.WIDER:
        return Modification.WEAKENED, "its conditions hold in more cases"
    if rel is Relation.NARROWER:
        return Modification.STRENGTHENED, "its conditions hold in fewer cases"
    if rel is Relation.SAME:
        return None, "the same conditions"
    return Modification.CHANGED, "its conditions changed in a way that cannot be decided"


def _load_tests_verdict(before: str, after: str) -> tuple[Modification | None, str] | None:
    """Two load_tests summaries (evidence/suppressions/load_tests.py): adding more tests
    is no loosening; adding fewer, or returning or doing anything else, may hide tests."""
    a, b = parse_summary(before), parse_summary(after)
    if a is None or b is None:
        return None
    (ret_a, keep_a, add_a), (ret_b, keep_b, add_b) = a, b
    if ret_a != ret_b or Counter(keep_a) != Counter(keep_b):
        return Modification.WEAKENED, "load_tests edited: what it returns or does changed"
    lost = Counter(add_a) - Counter(add_b)
    if lost:
        what = "__test__" if before.startswith(DOCTEST_HEADER) else "load_tests"
        return Modification.WEAKENED, f"{what} no longer adds {sorted(lost)[0]}"
    return (Modification.STRENGTHENED, "load_tests adds more tests") \
        if Counter(add_b) - Counter(add_a) else (None, "load_tests adds the same tests")


def _ignored_entries(code: str) -> tuple[str, str, Counter[str]] | None:
    """(variable, how, entries) of a collection variable's statement (``collect_ignore =
    [...]``, ``+= [...]``, ``.append(x)``, ``.extend([...])``): each entry as its
    normalised source. None when the statement is none of these or its value is no
    literal list, tuple or set (what it holds cannot be read)."""
    try:
        body = ast.parse(code).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(body) != 1:
        return None
    stmt = body[0]
    value: ast.expr | None = None
    name, how = "", ""
    if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
            isinstance(stmt.targets[0], ast.Name):
        name, how, value = stmt.targets[0].id, "=", stmt.value
    elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
        name, how, value = stmt.target.id, "=", stmt.value
    elif isinstance(stmt, ast.AugAssign) and isinstance(stmt.target, ast.Name) and \
            isinstance(stmt.op, ast.Add):
        name, how, value = stmt.target.id, "+=", stmt.value
    elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call) and \
            isinstance(stmt.value.func, ast.Attribute) and \
            isinstance(stmt.value.func.value, ast.Name) and not stmt.value.keywords and \
            len(stmt.value.args) == 1:
        call = stmt.value
        assert isinstance(call.func, ast.Attribute) and isinstance(call.func.value, ast.Name)
        name, how = call.func.value.id, "+="
        if call.func.attr == "append":
            return name, how, Counter([ast.unparse(call.args[0])])
        if call.func.attr == "extend":
            value = call.args[0]
    if not isinstance(value, ast.List | ast.Tuple | ast.Set) or \
            any(isinstance(e, ast.Starred) for e in value.elts):
        return None
    return name, how, Counter(ast.unparse(e) for e in value.elts)


def _collection_variable_verdict(pre: Suppression, post: Suppression
                                 ) -> tuple[Modification | None, str] | None:
    """``collect_ignore`` (and ``_glob``) edited under the same conditions: a list of what
    is not collected, so an entry added collects fewer tests and one removed more. None
    when either side is not such a list."""
    a, b = _ignored_entries(pre.code), _ignored_entries(post.code)
    if a is None or b is None or a[:2] != b[:2] or pre.guards != post.guards:
        return None
    gained, lost = b[2] - a[2], a[2] - b[2]
    if gained:
        return Modification.WEAKENED, f"{a[0]} gains {', '.join(sorted(gained))}: " \
                                      "collects fewer tests"
    if lost:
        return Modification.STRENGTHENED, f"{a[0]} drops {', '.join(sorted(lost))}"
    return None, f"{a[0]} ignores the same entries"


def _wraps_original(code: str) -> bool | None:
    """Whether a rebinding of a check (``self.assertPicklable = partial(
    self.assertPicklable, asfile=True)``) still calls what it replaces: its value reads the
    name it rebinds. None when the code is no single assignment."""
    try:
        stmt = ast.parse(code).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    if len(stmt) != 1 or not isinstance(stmt[0], ast.Assign) or len(stmt[0].targets) != 1:
        return None
    target = ast.unparse(stmt[0].targets[0])
    return any(isinstance(n, ast.Attribute | ast.Name) and ast.unparse(n) == target
               for n in ast.walk(stmt[0].value))


def compare_suppressions(pre: Suppression, post: Suppression, domains: Domains = NO_DOMAINS,
                         xfail_strict: bool = False,
                         every_edit_hooks: frozenset[str] = frozenset()
                         ) -> tuple[Modification | None, str]:
    """How a suppression changed; None when it means the same (a reworded reason).
    ``domains``: condition subjects with a known set of values (Strength.domains);
    ``xfail_strict``: base's ini default for an xfail mark that does not say ``strict=``;
    ``every_edit_hooks``: hooks whose every edit is a new one (Strength.every_edit_hooks)."""
    if pre.kind is post.kind is SuppressionKind.WRAPPED and \
            _callee(pre.code) == _callee(post.code) is not None:
        # The same wrapping decorator: its arguments are the test's inputs (PS110).
        return None, "same decorator"
    loaded = _load_tests_verdict(pre.code, post.code)
    if loaded is not None:
        return loaded
    if pre.kind is post.kind is SuppressionKind.COLLECTION_HOOK and \
            pre.detail == post.detail and pre.detail in every_edit_hooks:
        # A hook def (its detail is the hook's name) PS204 reads every edit of as a new
        # hook, whatever its conditions say; its documentation is no edit.
        if same_meaning(without_docstrings(pre.code), without_docstrings(post.code)):
            return None, "the same hook"
        return Modification.WEAKENED, f"the {pre.detail} hook was edited"
    if pre.kind is post.kind is SuppressionKind.COLLECTION_VARIABLE:
        ignored = _collection_variable_verdict(pre, post)
        if ignored is not None:
            return ignored
    if pre.kind is post.kind is SuppressionKind.ASSERT_OVERRIDE and \
            _wraps_original(pre.code) and _wraps_original(post.code) is False:
        return Modification.WEAKENED, "the rebound check no longer runs the original"
    if pre.kind is post.kind and pre.code == post.code and pre.guards != post.guards and \
            _form(pre.code, pre.kind) is None:
        return _guards_verdict(pre, post, domains)
    a, b = _form(pre.code, pre.kind), _form(post.code, post.kind)
    if a is None or b is None:
        return Modification.CHANGED, "changed"
    if a.name == b.name == "importorskip":  # the same module: its keywords are judged
        a, b = _importorskip(a), _importorskip(b)
    elif {a.name, b.name} & {"importorskip", "exit", "fail"} and \
            (a.name, a.extra, a.keywords) != (b.name, b.extra, b.keywords):
        return Modification.CHANGED, f"{a.name} changed"
    if a.extra != b.extra:
        return Modification.CHANGED, "arguments changed"
    rel = relation(_predicate(a, pre.guards), _predicate(b, post.guards), domains)
    keywords = 0, [""]
    kw_a = {k: v for k, v in a.keywords.items() if k not in _WORDING}
    kw_b = {k: v for k, v in b.keywords.items() if k not in _WORDING}
    # pytest reads an xfail mark without strict= as strict as base's ini says; a literal
    # strict= (strict=1, strict=0) by its truth.
    for form, sup, kw in ((a, pre, kw_a), (b, post, kw_b)):
        if form.name == "xfail" and sup.kind is SuppressionKind.XFAIL_MARK:
            kw["strict"] = _truth(kw.get("strict"), xfail_strict)
    if kw_a != kw_b:
        keywords = _xfail_keywords(kw_a, kw_b) if "xfail" in (a.name, b.name) else \
            _importorskip_keywords(kw_a, kw_b) if a.name == "importorskip" else (2, [""])
    verdict, notes = keywords
    note = "; ".join(n for n in notes if n)
    if rel is Relation.UNKNOWN or verdict == 2:
        return Modification.CHANGED, note or "its condition changed in a way that cannot be decided"
    if rel is Relation.WIDER or verdict < 0:
        what = "suppresses in more cases" if rel is Relation.WIDER else note
        return Modification.WEAKENED, what if not note or what == note else f"{what}; {note}"
    if rel is Relation.NARROWER or verdict > 0:
        return Modification.STRENGTHENED, note or "suppresses in fewer cases"
    return None, "reworded"
