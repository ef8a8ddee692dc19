"""What a helper's def says about its calls (evidence/calls.py): the parameters that only
add checks, the attributes of self a method names; and a named tuple's index read as its
field (evidence/inlining.py)."""

from __future__ import annotations

import textwrap

import libcst as cst
import pytest
from conftest import SESSION

from provscore.evidence.calls import check_only_params, self_reads
from provscore.evidence.inlining import named_fields


def _def(source: str) -> cst.FunctionDef:
    node = cst.parse_module(textwrap.dedent(source)).body[0]
    assert isinstance(node, cst.FunctionDef)
    return node


@pytest.mark.parametrize(("source", "params"), [
    # markdown's assertMarkdownRenders: rebound to its empty form, then looped over by checks
    ("""
     def check(self, source, expected, expected_attrs=None, **kwargs):
         expected_attrs = expected_attrs or {}
         md = Markdown(**kwargs)
         self.assertMultiLineEqual(md.convert(source), expected)
         for key, value in expected_attrs.items():
             self.assertEqual(getattr(md, key), value)
     """, ("expected_attrs",)),
    # a condition on it whose body loops over it with assert statements
    ("""
     def check(output, fragments=(), absent=None):
         assert output
         if absent is not None:
             for text in absent:
                 assert text not in output
         for text in fragments:
             assert text in output
     """, ("fragments", "absent")),
    # read by the code under test: an input, not a check
    ("""
     def check(source, expected, options=None):
         output = render(source, **(options or {}))
         assert output == expected
     """, ()),
    # looped over, but the loop also computes
    ("""
     def check(output, fragments=None):
         for text in fragments or ():
             output = output.replace(text, "")
             assert text
     """, ()),
    # a default that checks something on its own
    ("""
     def check(output, expected="ok"):
         assert output == expected
     """, ()),
    # never read: nothing to add
    ("""
     def check(output, unused=None):
         assert output
     """, ()),
])
def test_check_only_params(source: str, params: tuple[str, ...]) -> None:
    assert check_only_params(_def(source), SESSION.evidence_tables(())) == params


def test_self_reads_names_every_attribute_of_self() -> None:
    node = _def("""
        def check(self, source):
            kws = self.default_kwargs.copy()
            self.assertEqual(render(source, **kws), self.expected)
            other.attr
        """)
    assert self_reads(node) == ("assertEqual", "default_kwargs", "expected")


def _fields(func: str) -> tuple[str, ...]:
    return ("out", "err") if func == "capsys.readouterr" else ()


@pytest.mark.parametrize(("code", "read"), [
    ("capsys.readouterr()[0] == 'x'", "capsys.readouterr().out == 'x'"),
    ("assert capsys.readouterr()[-1] == ''", "assert capsys.readouterr().err == ''"),
    # out of range, not a constant, another call: as written
    ("capsys.readouterr()[2] == 'x'", "capsys.readouterr()[2] == 'x'"),
    ("capsys.readouterr()[i] == 'x'", "capsys.readouterr()[i] == 'x'"),
    ("other.readouterr()[0] == 'x'", "other.readouterr()[0] == 'x'"),
])
def test_named_fields(code: str, read: str) -> None:
    assert named_fields(code, _fields) == read
