"""Test node ids (``path::Class::test[param]``): the one parser.

pytest's node ids name a file, then classes and a function joined by ``::``, then
optionally a parametrize id in brackets. Every stage that takes an id apart does it
here, so a strange id (brackets inside a parametrize id, ``::`` inside it) is read the
same way by the results reader, the votes, the ledgers and the findings.
"""

from __future__ import annotations


def file_of(node_id: str) -> str:
    """The file part: ``tests/t.py::T::test_a[1]`` → ``tests/t.py``."""
    return node_id.split("::", 1)[0]


def without_params(node_id: str) -> str:
    """``node_id`` without its parametrize suffix: ``a.py::T::t[x::y]`` → ``a.py::T::t``.

    The suffix starts at the first ``[`` after the path (test names cannot contain
    ``[``) and must run to the end of the id; brackets inside it may nest and may
    contain ``::`` or ``.``. Ids without such a suffix come back unchanged.
    """
    if not node_id.endswith("]"):
        return node_id
    sep = node_id.find("::")
    start = node_id.find("[", sep + 2 if sep >= 0 else 0)
    if start <= 0 or (sep >= 0 and start == sep + 2):
        return node_id
    return node_id[:start]


def covers(parent: str, node_id: str) -> bool:
    """True when ``node_id`` is ``parent`` or one of its parametrized ids ``parent[...]``.

    ``tests/t.py::test_a`` covers ``tests/t.py::test_a[1-2]`` but neither
    ``tests/t.py::test_ab`` nor the children of a class or module id.
    """
    if not parent:
        return False
    return node_id == parent or (node_id.startswith(parent + "[") and node_id.endswith("]"))
