"""Which changed files are classified, and what counts in each (by the path's trust role).

Test files, conftest.py and test helpers are classified in full. Production modules are
classified for test machinery only: hooks a plugin registers and overrides of the test
frameworks; their own asserts and skips are the product's business.
"""

from __future__ import annotations

from dataclasses import replace

from provscore.change.diff import FileChange
from provscore.evidence.model import FileEvidence, SuppressionKind
from provscore.model import EVIDENCE_ROLES, PathRole

# Substrings of a production module's added lines that make it worth classifying.
_MACHINERY = ("pytest_", "hookimpl", "unittest", "AssertionError", "builtins", "_pytest",
              "sys.modules")
_MACHINERY_KINDS = frozenset({
    SuppressionKind.REPORT_HOOK, SuppressionKind.COLLECTION_HOOK,
    SuppressionKind.ASSERT_OVERRIDE, SuppressionKind.DYNAMIC})
# Dynamic code (exec, __import__, import_module) is ordinary in a product (plugin loading);
# in production code it counts only when it names a test framework.
_FRAMEWORKS = ("pytest", "unittest", "hypothesis", "nose")


def is_analysed(change: FileChange, role: PathRole, post: bytes | None) -> bool:
    """Whether this changed file is classified at all."""
    if change.unsafe_reason:
        return False
    if not change.path.endswith(".py") and not (change.old_path or "").endswith(".py"):
        return False
    if role in EVIDENCE_ROLES:
        return True
    # Production modules are read only when the patch touches the test machinery there:
    # pytest hooks (a plugin can rewrite outcomes), or rebinding unittest/pytest/builtins.
    added = change.added_text()
    return post is not None and any(token in added for token in _MACHINERY)


def machinery_only(ev: FileEvidence | None) -> FileEvidence | None:
    """A production module's evidence reduced to what tampers with the test machinery."""
    if ev is None or ev.error is not None:
        return ev
    return replace(ev, items=(), tests=(), helpers=(), suppressions=tuple(
        s for s in ev.suppressions if s.kind in _MACHINERY_KINDS and (
            s.kind is not SuppressionKind.DYNAMIC or any(f in s.code for f in _FRAMEWORKS))))
