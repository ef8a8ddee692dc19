"""What is never handed to libcst: sources that crash its native parser or run it for minutes.

libcst's parser is native code on the caller's stack. A patch can write a file that makes
it segfault (1,500 nested parentheses; 20,000 ``and`` operands) or take minutes (3,000
chained subscripts; millions of nodes) although CPython accepts some of these. Before the
parse, the standard library's parser measures the file in linear time and at CPython's
normal recursion limit (where it refuses deep nesting with an exception, never a crash),
and a file past any limit below is unclassifiable (PS903) instead of a crash or a hang.
Real code stays far below: over sympy and the standard library the deepest file nests 569
levels, the longest ``and``/comparison chain has 16 operands, the largest file 200,000
nodes.
"""

from __future__ import annotations

import ast
import io
import sys
import threading
import tokenize
from collections.abc import Callable, Iterator

from provscore.kept import KeptBySource

MAX_DEPTH = 1_000  # nested expression levels (libcst takes ~3 s at 1,000 chained subscripts)
MAX_OPERANDS = 2_000  # operands of one and/or/comparison chain (libcst crashes near 20,000)
MAX_NODES = 1_000_000  # syntax nodes in one file (libcst needs ~60 µs each)
_STDLIB_LIMIT = 1_000  # CPython's default recursion limit: ast refuses, it does not crash
_NESTING_MESSAGES = ("too many nested", "too many levels of indentation", "too complex")
_CHAIN_WORDS = frozenset({"and", "or", "not", "in", "is"})
_CHAIN_OPS = frozenset({"<", ">", "==", ">=", "<=", "!=", "+", "-", "*", "/", "//", "%",
                        "@", "**", "|", "&", "^", "<<", ">>", ".", "~"})


def parse_refusal(source: bytes) -> Refusal | None:
    """Why ``source`` must not be parsed by libcst (message, line), or None to go ahead."""
    return checked_parse(source)[0]


Refusal = tuple[str, int | None]
Measured = tuple[Refusal | None, ast.Module | None]

#: checked_parse's answers for the sources measured last, by their bytes (equal bytes,
#: equal answer): a batch worker measures a base commit's pre-image for every patch of
#: it, and the call graph then summarises the post-image the evidence stage measured.
#: How many answers, and how many bytes of their sources, are kept.
KEEP_MEASURED = 4
KEEP_MEASURED_BYTES = 1_000_000
_measured: KeptBySource[Measured] = KeptBySource()


def checked_parse(source: bytes) -> Measured:
    """:func:`parse_refusal` and the standard library's tree it measured (None where
    Python does not parse the file; libcst may still, or reports the error itself). The
    tree may be one an earlier call returned for equal bytes: it is read, never mutated."""
    kept = _measured.get(source)
    if kept is not None:
        return kept
    old = sys.getrecursionlimit()
    at_limit = old == _STDLIB_LIMIT
    lowered = False
    try:
        if old > _STDLIB_LIMIT:
            sys.setrecursionlimit(_STDLIB_LIMIT)
            lowered = at_limit = True
    except RecursionError:  # already deeper than the default limit: keep the current one
        pass
    try:
        answer = _measure(source)
    finally:
        if lowered:
            sys.setrecursionlimit(old)
    if at_limit:  # only what the limit answers
        _measured.put(source, answer, count=KEEP_MEASURED, size=KEEP_MEASURED_BYTES)
    return answer


def measured_tree(source: bytes) -> ast.Module | None:
    """The tree checked_parse kept for equal bytes, or None (read, never mutated)."""
    kept = _measured.get(source)
    return kept[1] if kept is not None else None


def forget_measured() -> None:
    """Drop every kept answer (a benchmark timing a cold parse)."""
    _measured.clear()


def _measure(source: bytes) -> Measured:
    try:
        tree = ast.parse(source)
    except SyntaxError as exc:
        if any(m in (exc.msg or "") for m in _NESTING_MESSAGES):
            return (f"nesting too deep for Python: {exc.msg}", exc.lineno), None
        return _token_refusal(source), None  # newer syntax, or an error libcst reports
    except (RecursionError, MemoryError):
        return ("nesting too deep for Python (its parser runs out of stack)", None), None
    except ValueError as exc:  # NUL bytes on older Pythons
        return (f"cannot parse: {exc}", None), None
    return _tree_refusal(tree), tree


def _tree_refusal(tree: ast.AST) -> tuple[str, int | None] | None:
    """Depth, chain width and size of a parsed file, in one pass (fields read directly:
    ``ast.iter_child_nodes`` costs twice as much on large files)."""
    nodes = 0
    stack: list[tuple[ast.AST, int]] = [(tree, 1)]
    pop, push, node_type = stack.pop, stack.append, ast.AST
    while stack:
        node, depth = pop()
        nodes += 1
        if depth > MAX_DEPTH:
            return f"nesting deeper than {MAX_DEPTH} levels", getattr(node, "lineno", None)
        if isinstance(node, ast.BoolOp | ast.Compare):
            width = len(node.values) if isinstance(node, ast.BoolOp) else len(node.ops) + 1
            if width > MAX_OPERANDS:
                return (f"an operator chain of {width} operands (more than {MAX_OPERANDS})",
                        getattr(node, "lineno", None))
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                for item in value:
                    if isinstance(item, node_type):
                        push((item, depth + 1))
            elif isinstance(value, node_type):
                push((value, depth + 1))
    if nodes > MAX_NODES:
        return f"too large to classify: {nodes} syntax nodes (more than {MAX_NODES})", None
    return None


def _tokens(source: bytes) -> Iterator[tokenize.TokenInfo]:
    return tokenize.tokenize(io.BytesIO(source).readline)


def _token_refusal(source: bytes) -> tuple[str, int | None] | None:
    """The same limits from tokens, for a file the running Python cannot parse (it may be
    newer syntax libcst reads): bracket depth, and operators and trailers in one logical
    line bound libcst's recursion."""
    depth = chain = count = 0
    try:
        for tok in _tokens(source):
            count += 1
            if tok.type == tokenize.OP and tok.string in "([{":
                depth += 1
                chain += 1
            elif tok.type == tokenize.OP and tok.string in ")]}":
                depth -= 1
            elif tok.string in _CHAIN_OPS or (tok.type == tokenize.NAME
                                                and tok.string in _CHAIN_WORDS):
                chain += 1
            elif tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                chain = 0
            if depth > MAX_DEPTH or chain > MAX_OPERANDS:
                return "nesting or an operator chain too deep to classify", tok.start[0]
    except tokenize.TokenError:
        pass  # raised at the end of the input: every token was measured; libcst reports it
    except SyntaxError as exc:  # mid-file (indentation): the rest was not measured
        return f"syntax error: {exc.msg}", exc.lineno
    except (UnicodeDecodeError, LookupError) as exc:
        return f"cannot decode source: {exc}", None
    if count > MAX_NODES:
        return f"too large to classify: {count} tokens (more than {MAX_NODES})", None
    return None


_DEEP_STACK = 512 * 1024 * 1024
_DEEP_LIMIT = 60_000


def run_deep(fn: Callable[[], None]) -> None:
    """Run ``fn`` in a thread with a large stack and a raised recursion limit.

    Deeply nested real files (hundreds of levels) exhaust the default limit
    inside libcst's recursive visitors (and the grader's ``ast`` walk).
    """
    old_limit = sys.getrecursionlimit()
    old_size = threading.stack_size()
    try:
        threading.stack_size(_DEEP_STACK)
        sys.setrecursionlimit(max(old_limit, _DEEP_LIMIT))
        thread = threading.Thread(target=fn, name="provscore-classify")
        thread.start()
        thread.join()
    finally:
        threading.stack_size(old_size)
        sys.setrecursionlimit(old_limit)
