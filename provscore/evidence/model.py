"""The evidence stage's records: what one image of one file holds.

Everything here is frozen: an :class:`EvidenceItem` or a :class:`Suppression` is built
complete by the driver and never changed. :class:`FilePair` puts both images of one
analysed file side by side for the provenance stage.
"""

from __future__ import annotations

import enum
from dataclasses import field

from provscore.records import dataclass


class EvidenceKind(enum.StrEnum):
    ASSERT = "assert"
    UNITTEST = "unittest_assert"
    RAISES = "raises"
    FAIL = "fail"
    LIBRARY = "library_assert"
    MOCK = "mock_assert"
    PROPERTY = "property"
    PARAM_ROW = "parametrize_row"
    HELPER_CALL = "helper_call"
    EXPECTED_READ = "expected_read"
    TEST_INPUT = "test_input"  # what the test runs under (override_settings, mock.patch)


# Kinds that are part of a test without checking anything: they never make a test, a
# helper or a branch "have evidence".
NOT_CHECKS = frozenset({EvidenceKind.EXPECTED_READ, EvidenceKind.TEST_INPUT})
# The detail of a test input kept on a fixture of a conftest or plugin module
# (evidence/fixture_inputs.py): how the fixture applies to the tests that run under it.
FIXTURE_INPUT = "fixture"  # to the tests that request it by name
AUTOUSE_INPUT = "autouse fixture"  # to every test in its scope
FIXTURE_DETAILS = frozenset({FIXTURE_INPUT, AUTOUSE_INPUT})
# The detail of a test input that is a class attribute a subclass binds for the tests it
# inherits (evidence/class_inputs.py).
CLASS_ATTRIBUTE_INPUT = "class attribute"


class SuppressionKind(enum.StrEnum):
    SKIP_MARK = "skip_mark"
    XFAIL_MARK = "xfail_mark"
    RUNTIME_SKIP = "runtime_skip"
    COLLECTION_HOOK = "collection_hook"
    COLLECTION_VARIABLE = "collection_variable"
    TEST_DISABLED = "test_disabled"
    EARLY_RETURN = "early_return"
    DEAD_BRANCH = "dead_branch"
    ASSERT_OVERRIDE = "assert_override"
    SWALLOWED = "swallowed"
    REPORT_HOOK = "report_hook"
    WRAPPED = "wrapped"  # a decorator that may replace the test body
    DYNAMIC = "dynamic"  # exec/eval/__import__: cannot be classified statically
    # filterwarnings mark ignoring a warning base's ini makes an error
    WARNING_FILTER = "warning_filter"


@dataclass(frozen=True, slots=True)
class Shape:
    """What an evidence item checks, in comparable parts (used to judge weakening)."""

    op: str
    operands: tuple[str, ...] = ()
    keywords: tuple[tuple[str, str], ...] = ()
    conjuncts: int = 1
    tautology: bool = False
    # What is being checked (left operand, mock receiver, helper name): two checks of the
    # same subject in one test are one modified check, not a removal plus an addition.
    subject: str = ""
    # Conditions inside the test under which the check runs ("if x", "not (x)", "for ...").
    guards: tuple[str, ...] = ()
    # Operand positions a helper iterates row by row, together (``for a, b in zip(xs, ys)``
    # first thing in its body): more rows there are more cases checked.
    tables: tuple[int, ...] = ()
    # Operand positions of a helper's parameters that only add checks (``expected_attrs``,
    # empty by default): an argument given there where none was is more checks.
    check_args: tuple[int, ...] = ()
    # The names of a helper's positional parameters, in operand order (empty when the
    # helper's signature is not known): an operand bound to a tolerance (``rtol``, ``tol``)
    # or a precision (``decimal``) is judged as that keyword would be.
    arg_names: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class EvidenceItem:
    kind: EvidenceKind
    path: str
    node_id: str  # enclosing test's node id; path::qualname outside tests; path at module level
    scope: str  # qualname of the enclosing def relative to the test ("" when directly in it)
    in_test: bool
    code: str  # anchor: normalised code, names bound once in the test inlined
    shape: Shape
    line: int | None = field(default=None, compare=False)
    detail: str = ""
    text: str = field(default="", compare=False)  # the code as written (normalised), to show

    @property
    def shown(self) -> str:
        return self.text or self.code


@dataclass(frozen=True, slots=True)
class Suppression:
    kind: SuppressionKind
    path: str
    node_id: str  # what it suppresses: a test, a class, or the whole file (path)
    code: str
    line: int | None = field(default=None, compare=False)
    detail: str = ""
    # Conditions inside the test under which it runs (`if sys.platform == "win32":`
    # around a pytest.skip()): part of the suppression, as for evidence items.
    guards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TestDef:
    node_id: str
    name: str
    line: int | None
    body: str  # normalised code of the whole def minus its name, to follow renames and moves
    fixtures: tuple[str, ...] = ()  # fixtures it requests: parameters and usefixtures(...)
    params: tuple[str, ...] = ()  # its parametrize argnames, in decorator order
    runs_by_default: bool = True  # under base's testpaths: a bare `pytest` runs it
    # A method of a unittest.TestCase class where pytest does not run base's tests: only
    # as a TestCase's does it run at all (a plain Test* class's is pytest's alone).
    unittest_only: bool = False


@dataclass(frozen=True, slots=True)
class HelperDef:
    """A non-test function that contains evidence (directly or through other helpers),
    or a fixture: what a fixture returns is input of its tests (its literals, their
    expected values), and a fixture that checks is a helper oracle."""

    qualname: str
    node_id: str
    line: int | None
    body: str
    is_fixture: bool
    body_key: str = ""  # the def with its name blanked: follows a move or a rename
    skips: bool = False  # its body skips or xfails (a fixture that does skips its tests)
    has_evidence: bool = True  # it checks, directly or through other helpers
    params: str = ""  # a fixture's `params=`: the inputs it feeds each test, like rows
    # (name, code) of the module-level literal tables it reads (evidence/read_data.py)
    data: tuple[tuple[str, str], ...] = ()
    # The files it (or a function nested in it) reads expected values from, each as the
    # literal parts of its path in order (evidence/read_paths.py): a fixture's data source.
    reads: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class FileEvidence:
    path: str
    items: tuple[EvidenceItem, ...] = ()
    suppressions: tuple[Suppression, ...] = ()
    tests: tuple[TestDef, ...] = ()
    helpers: tuple[HelperDef, ...] = ()
    error: str | None = None  # why the source could not be classified (→ PS903)
    error_line: int | None = None
    # What the module offers to modules that import it: names that skip or xfail when
    # called or applied (skip helpers and aliases of marks), and decorators (or decorator
    # factories) that always call the function they wrap.
    skip_helpers: tuple[tuple[str, SuppressionKind], ...] = ()
    transparent: tuple[str, ...] = ()
    transparent_factories: tuple[str, ...] = ()
    test_methods: tuple[tuple[str, tuple[str, ...]], ...] = ()  # class → tests it offers
    unittest_classes: tuple[str, ...] = ()  # module-level classes deriving from TestCase
    # Functions and methods of module-level classes: (qualname, decorators, parameters).
    signatures: tuple[tuple[str, str, str], ...] = ()
    # Helper methods of module-level classes: (qualname, the attributes of self they name).
    self_reads: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # Helpers with parameters that only add checks: (qualname, those parameters).
    check_params: tuple[tuple[str, tuple[str, ...]], ...] = ()


@dataclass(frozen=True, slots=True)
class FilePair:
    """Evidence of one analysed file before and after (None = absent on that side)."""

    old_path: str | None
    new_path: str | None
    pre: FileEvidence | None
    post: FileEvidence | None


@dataclass(frozen=True, slots=True)
class Unparseable:
    """A file provscore could not classify on one side (PS903): never treated as clean."""

    path: str
    reason: str
    line: int | None
    side: str  # "pre" (base) or "post" (patched)


@dataclass(frozen=True, slots=True)
class AnalysedFiles:
    pairs: tuple[FilePair, ...]  # files classified on both sides (or the one that exists)
    unparseable: tuple[Unparseable, ...]
