"""Assertions a patch moved into a helper of the test's module, the test calling it in
their place: the same checks, matched by substituting the call's arguments."""

from __future__ import annotations

import ast
from collections.abc import Callable, Mapping, Sequence

from provscore.evidence.constants import parse_function
from provscore.evidence.model import EvidenceItem, EvidenceKind, FilePair


def match_extracted_checks(left_pre: list[EvidenceItem], left_post: list[EvidenceItem],
                            post_items: list[EvidenceItem], pairs: Sequence[FilePair],
                            pre_id: Callable[[EvidenceItem], str],
                            ) -> tuple[list[tuple[EvidenceItem, EvidenceItem]],
                                       list[EvidenceItem], list[EvidenceItem]]:
    """Assertions moved into a helper of the test's module that the test now calls in their
    place (``assert_roundtrip(stmts, sql)`` for ``assert ''.join(...) == sql``): each is
    the helper's assertion with its parameters replaced by the call's arguments, so it is
    the same check. Only a plain helper counts: undecorated, positional parameters bound
    one to one, a body of assertions and assignments (nothing that returns early, loops,
    branches or catches)."""
    defs = {(p.new_path, h.qualname): h for p in pairs if p.post and p.new_path
            for h in p.post.helpers if not h.is_fixture}
    out: list[tuple[EvidenceItem, EvidenceItem]] = []
    taken: set[int] = set()
    used_posts: set[int] = set()
    for call in left_post:
        if call.kind is not EvidenceKind.HELPER_CALL or not call.in_test or call.shape.keywords:
            continue
        helper = defs.get((call.path, call.shape.op))
        params = _plain_helper_params(helper.body) if helper is not None else None
        if helper is None or params is None or len(params) != len(call.shape.operands):
            continue
        try:
            values = {n: ast.parse(c, mode="eval").body
                      for n, c in zip(params, call.shape.operands, strict=True)}
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            continue
        checks = [it for it in post_items if it.node_id == helper.node_id and
                  it.kind is EvidenceKind.ASSERT and not it.scope and not it.shape.guards]
        for check in checks:
            code = _substituted(check.code, values)
            match = next((it for it in left_pre if id(it) not in taken and
                          it.kind is EvidenceKind.ASSERT and pre_id(it) == call.node_id and
                          it.scope == call.scope and it.shape.guards == call.shape.guards and
                          code is not None and _same_ast(it.code, code)), None)
            if match is not None:
                taken.add(id(match))
                used_posts.add(id(call))
                out.append((match, call))
    return out, [it for it in left_pre if id(it) not in taken], \
        [it for it in left_post if id(it) not in used_posts]


def _plain_helper_params(body: str) -> list[str] | None:
    func = parse_function(body)
    if func is None:
        return None
    args = func.args
    if func.decorator_list or args.vararg or args.kwarg or args.kwonlyargs or args.defaults or \
            args.posonlyargs:
        return None
    statements = func.body[1:] if func.body and isinstance(func.body[0], ast.Expr) and \
        isinstance(func.body[0].value, ast.Constant) else func.body
    if not all(isinstance(st, ast.Assert | ast.Assign) for st in statements):
        return None
    return [a.arg for a in args.args]


class _Substitute(ast.NodeTransformer):
    def __init__(self, values: Mapping[str, ast.expr]) -> None:
        self._values = values

    def visit_Name(self, node: ast.Name) -> ast.AST:
        return self._values.get(node.id, node) if isinstance(node.ctx, ast.Load) else node


def _substituted(code: str, values: Mapping[str, ast.expr]) -> str | None:
    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return ast.unparse(_Substitute(values).visit(tree))


def _same_ast(a: str, b: str) -> bool:
    try:
        return ast.dump(ast.parse(a)) == ast.dump(ast.parse(b))
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
