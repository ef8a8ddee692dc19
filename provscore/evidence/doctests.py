"""The examples in a module's docstrings, as the tests a DocTestSuite makes of them.

Read only for a module whose doctests base's test modules run (change/doctests.py). Each
docstring holding examples (the module's, a class's, a function's or method's, as
doctest's finder walks them) is one test ``path::qualname``; each example whose output or
exception doctest compares is a check of it (the source, what is expected, the option
flags that loosen the comparison: ``+ELLIPSIS``, ``+NORMALIZE_WHITESPACE``, ...); an
example with nothing expected is what the test runs under (an input); ``+SKIP`` is a
skip. Parsed with doctest's own parser, never run. A docstring doctest cannot parse fails
closed: one check holding the whole docstring, so any edit of it is a change.
"""

from __future__ import annotations

import ast
import doctest

from provscore.evidence.constants import normalize
from provscore.evidence.model import (
    EvidenceItem,
    EvidenceKind,
    FileEvidence,
    Shape,
    Suppression,
    SuppressionKind,
    TestDef,
)

OP = "doctest"
# pytest-doctestplus's directives (astropy, numpy-style projects): ``+FLOAT_CMP`` compares
# numbers within a tolerance, ``+IGNORE_OUTPUT`` nothing, ``+REMOTE_DATA`` skips without
# --remote-data. Read as flags of their own (bits doctest does not use), so an example
# carrying one is still read example by example.
_PLUS_FLAGS = ("FLOAT_CMP", "REMOTE_DATA", "IGNORE_OUTPUT", "IGNORE_OUTPUT_2",
               "IGNORE_OUTPUT_3", "IGNORE_WARNINGS", "SHOW_WARNINGS")
_OPTIONS = {**doctest.OPTIONFLAGS_BY_NAME,
            **{name: 1 << (24 + i) for i, name in enumerate(_PLUS_FLAGS)}}
_FLAGS = {value: name for name, value in _OPTIONS.items()}


class _Parser(doctest.DocTestParser):
    """doctest's parser, knowing pytest-doctestplus's directives as well."""

    def _find_options(self, source: str, name: str, lineno: int) -> dict[int, bool]:
        options: dict[int, bool] = {}
        for m in self._OPTION_DIRECTIVE_RE.finditer(source):  # type: ignore[attr-defined]
            for option in m.group(1).replace(",", " ").split():
                if option[0] not in "+-" or option[1:] not in _OPTIONS:
                    raise ValueError(f"line {lineno + 1} of the docstring for {name} has an "
                                     f"invalid option: {option!r}")
                options[_OPTIONS[option[1:]]] = option[0] == "+"
        if options and self._IS_BLANK_OR_COMMENT(source):  # type: ignore[attr-defined]
            raise ValueError(f"line {lineno} of the docstring for {name} has an option "
                             f"directive on a line with no example: {source!r}")
        return options


_PARSER = _Parser()


def _docstrings(tree: ast.Module) -> list[tuple[str, ast.AST]]:
    """(qualname, node) of the module and of each class, function and method in it that
    doctest's finder reaches (not functions nested in functions)."""
    out: list[tuple[str, ast.AST]] = [("", tree)]
    stack: list[tuple[str, ast.AST]] = [("", tree)]
    while stack:
        prefix, node = stack.pop()
        for child in getattr(node, "body", ()):
            if isinstance(child, ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
                qual = f"{prefix}.{child.name}" if prefix else child.name
                out.append((qual, child))
                if isinstance(child, ast.ClassDef):
                    stack.append((qual, child))
    return out


def _options(example: doctest.Example) -> str:
    return " ".join(("+" if on else "-") + _FLAGS.get(flag, str(flag))
                    for flag, on in sorted(example.options.items())
                    if flag != doctest.SKIP)


def doctest_evidence(path: str, source: bytes) -> FileEvidence:
    """The doctests of one image of ``path``; ``error`` set when it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        return FileEvidence(path, error=f"cannot parse for its doctests: {exc}")
    items: list[EvidenceItem] = []
    tests: list[TestDef] = []
    sups: list[Suppression] = []
    for qual, node in _docstrings(tree):
        doc = ast.get_docstring(node, clean=False)  # type: ignore[arg-type]
        if not doc or ">>>" not in doc:
            continue
        node_id = f"{path}::{qual or '<module>'}"
        body_of = getattr(node, "body", None)
        line = body_of[0].lineno if body_of else 1  # where the docstring starts
        try:
            examples = _PARSER.get_examples(doc, node_id)
        except ValueError as exc:
            whole = " ".join(doc.split())
            tests.append(TestDef(node_id, qual or "<module>", line, whole))
            items.append(EvidenceItem(EvidenceKind.ASSERT, path, node_id, "", True,
                                      f"doctest that does not parse: {whole}",
                                      Shape(OP, (whole,), subject=whole), line,
                                      detail=str(exc)))
            continue
        if not examples:
            continue
        body: list[str] = []
        for ex in examples:
            src = normalize(ex.source)
            where = line + ex.lineno
            if ex.options.get(doctest.SKIP):
                sups.append(Suppression(SuppressionKind.SKIP_MARK, path, node_id,
                                        f"doctest: +SKIP {src}", where, "doctest example"))
            options = _options(ex)
            if ex.exc_msg is not None:
                expected = "raises " + " ".join(ex.exc_msg.split())
            else:
                expected = ex.want.rstrip()
            body.append(f"{src} -> {expected} {options}".rstrip())
            if not expected:
                items.append(EvidenceItem(
                    EvidenceKind.TEST_INPUT, path, node_id, "", True, f"doctest runs {src}",
                    Shape("doctest input", (src,), subject=f"doctest runs {src}"), where))
                continue
            code = f"doctest {src} -> {expected!r}" + (f"  # {options}" if options else "")
            items.append(EvidenceItem(
                EvidenceKind.ASSERT, path, node_id, "", True, code,
                Shape(OP, (src, repr(expected), options), subject=src), where))
        tests.append(TestDef(node_id, qual or "<module>", line, "\n".join(body)))
    return FileEvidence(path, tuple(items), tuple(sups), tuple(tests))
