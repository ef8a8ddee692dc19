"""Stage 6: off-tree test results turned into typed records, and which of them vote.

Input is one results file per independent run; output is one :class:`RunResults` per
file, holding one :class:`Outcome` per test id. Several runs of the same corpus are
compared per test id (:func:`by_node_id`) to find flakes; scoring happens elsewhere.

Formats are recognised by content, never by file name:

* **JUnit XML** (``"junit"``): pytest ``--junitxml`` (``junit_family`` xunit1 and
  xunit2, root ``<testsuites>`` or ``<testsuite>``), unittest-xml-reporting
  (``xmlrunner``), Maven-Surefire-style rerun elements. Parsed with
  :mod:`defusedxml` with DTDs forbidden, so a file that declares entities (billion
  laughs, external entities) is refused before anything is expanded or fetched.
* **pytest-json-report** (``"pytest-json"``): a JSON object with a ``"tests"`` list and a
  ``"summary"`` object; ids are ``tests[].nodeid``.
* **SWE-bench** ``report.json`` (``"swebench"``): a JSON object mapping instance ids to
  ``{"tests_status": {"FAIL_TO_PASS": {"success": [...], "failure": [...]}, ...}}``;
  ``success`` becomes passed, ``failure`` failed. The test ids are the strings in those
  lists, whatever their style (pytest node ids, or Django's ``"test_x (mod.Class)"``).
  Ids of all instances in one file go into one run.

Anything else, and any file that cannot be read or parsed, raises
:class:`~provscore.errors.InputError` naming the file. Nothing in this module raises
another exception type for bad input.

One id, one outcome per run: when a file reports the same id more than once (pytest
writes a second ``<testcase>`` for a teardown error after a failure; pytest-rerunfailures
writes one per attempt) the **worst** verdict is kept, in the order
``error > failed > xpassed > skipped > xfailed > passed``.

Mapping a JUnit ``<testcase>`` to a pytest node id
--------------------------------------------------
pytest writes ``classname`` = the node id's path with ``/`` turned into ``.`` and
``.py`` dropped, then the classes, all joined by ``.``; ``name`` = the function name with
its parametrize id, which is never split. To rebuild ``path::Class::name``:

1. When the ``file`` attribute is there (xunit1, xmlrunner) and agrees with
   ``classname`` (the file's dotted module, or a tail of it for an absolute path, is a
   prefix of ``classname``), the file gives the path and the rest of ``classname`` the
   classes. A ``file`` that does not agree (a test inherited from a base class in
   another module: pytest writes the base class's file) is ignored. An absolute
   ``file`` is made relative to ``repo_root_hint`` when it lies inside it; otherwise its
   last segments that match ``classname`` are used.
2. Otherwise (xunit2 has no ``file``), with ``repo_root_hint``: the longest dotted
   prefix ``a.b.c`` of ``classname`` for which ``<hint>/a/b/c.py`` is a file is the
   module. Only ``is_file`` is asked of the file system; nothing is read.
3. Otherwise (no hint, or no candidate exists): **classes start at the first segment,
   after the first, that begins with an uppercase letter** (pytest's default
   ``python_classes = Test*``; modules are ``test_*.py``). A module or package whose
   name starts with an uppercase letter is mis-split by this rule; pass
   ``repo_root_hint`` for such trees. A directory with a dot in its name cannot be told
   from a package boundary either.

Also handled: old pytest (issue #469, fixed in 2016) and naive converters split the id
at a ``::`` inside a parametrize id (``classname="t.test_p[x" name="y]"``); the two
halves are joined again with ``::`` (a second ``::`` in the same id became ``.`` and
cannot be told from a real dot). A collection error (``classname=""``, ``name`` = the dotted module)
becomes the module path itself, e.g. ``tests/test_x.py``. xmlrunner's subtest names
``"test_m (i=2)"`` become the parent test ``test_m`` (the worst subtest wins), which is
how pytest reports subtests too.

Reruns
------
``Outcome.reruns`` counts attempts before the final one that the file records:
``<rerun>``, ``<rerunFailure>``, ``<rerunError>``, ``<flakyFailure>`` and
``<flakyError>`` children (Maven Surefire's convention, also proposed for
pytest-rerunfailures), plus the extra result-less ``<testcase>`` records that pytest-rerunfailures
(16.6.1 and later) writes for every rerun attempt. pytest-json-report marks a test that
passed after reruns with outcome ``"rerun"``: its verdict comes from its stages and it
gets ``reruns=1`` (a lower bound; the file does not say how many).
"""

from typing import TYPE_CHECKING

from provscore.lazy import lazy_exports

if TYPE_CHECKING:
    from provscore.results.load import load_many, load_results
    from provscore.results.model import Outcome, RunResults, Verdict, by_node_id

# The readers (JUnit XML through defusedxml, JSON) load when first used: a report
# names RunResults, a lint run reads no result file.
_EXPORTS = {  # name -> the submodule defining it
    "load_many": "load",
    "load_results": "load",
    "Outcome": "model",
    "RunResults": "model",
    "by_node_id": "model",
    "Verdict": "model",
}
__all__ = ["Outcome", "RunResults", "Verdict", "by_node_id", "load_many", "load_results"]
__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)
