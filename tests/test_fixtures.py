"""provscore.fixtures: building, writing, reading and verifying the fixture lock.

Everything runs on real files in tmp_path; ``read`` is a function over a real tree.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from tests_support import SESSION

from provscore.checks.fixtures import verify_lock as verify_with
from provscore.errors import InputError
from provscore.model import Action, Finding, Location
from provscore.oracle.contract import Contract
from provscore.oracle.fixture_lock import (
    FixtureLock,
    build_lock,
    digest_bytes,
    lock_json,
    read_lock,
    wall_clock_fields,
    write_lock,
)


def verify_lock(lock: FixtureLock, read: Callable[[str], bytes | None],
                contract: Contract) -> tuple[Finding, ...]:
    return verify_with(SESSION.registry, lock, read, contract)


GOLDEN = b'{"window": [0, 10], "name": "caf\\u00e9", "limits": {"max": 3, "min": 1}}\n'
# The same JSON value: other key order, other spacing, CRLF, escape spelled out.
GOLDEN_REORDERED = ('{\r\n  "limits": {"min": 1, "max": 3},\r\n  "name": "café",\r\n'
                    '  "window": [0, 10]\r\n}\r\n').encode()
BINARY = bytes(range(256)) * 4


def sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def put(root: Path, rel: str, data: bytes) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def reader(root: Path) -> Callable[[str], bytes | None]:
    """Post-patch bytes from a real tree: None when the path is not a file."""
    def read(rel: str) -> bytes | None:
        path = root / rel
        return path.read_bytes() if path.is_file() else None
    return read


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    put(root, "tests/goldens/window.json", GOLDEN)
    put(root, "tests/goldens/empty_body.bin", BINARY)
    put(root, "tests/goldens/sub/deep.txt", b"line one\nline two\n")
    put(root, "tests/goldens/__pycache__/x.cpython-311.pyc", b"\x00bytecode")
    put(root, "tests/goldens/.git/HEAD", b"ref: refs/heads/main\n")
    put(root, "docs/screenshots/home.png", b"\x89PNG fake")
    put(root, "docs/screenshots_evil/home.png", b"\x89PNG other")
    put(root, "src/app.py", b"print('not a fixture')\n")
    return root


def codes(findings: tuple[Finding, ...]) -> list[tuple[str, str]]:
    return [(f.code, f.location.path if f.location else "") for f in findings]


def lock_and_verify(repo: Path, contract: Contract, *, canonical: bool = False,
                    targets: tuple[str, ...] = ("tests/goldens", "docs"),
                    mutate: Callable[[Path], object] | None = None) -> tuple[Finding, ...]:
    lock = build_lock(repo, targets, canonical_json=canonical)
    if mutate is not None:
        mutate(repo)
    return verify_lock(lock, reader(repo), contract)


# --------------------------------------------------------------------------- digest_bytes


def test_digest_of_non_json_is_raw_sha256() -> None:
    assert digest_bytes("a.txt", b"x\r\n", canonical_json=True) == sha(b"x\r\n")
    assert digest_bytes("a.bin", BINARY, canonical_json=True) == sha(BINARY)


def test_canonical_json_ignores_order_whitespace_crlf_and_escapes() -> None:
    a = digest_bytes("g.json", GOLDEN, canonical_json=True)
    b = digest_bytes("g.json", GOLDEN_REORDERED, canonical_json=True)
    assert a == b
    expected = ('{"limits":{"max":3,"min":1},"name":"café","window":[0,10]}\n').encode()
    assert a == sha(expected)
    assert digest_bytes("G.JSON", GOLDEN_REORDERED, canonical_json=True) == a
    assert digest_bytes("g.json", b"\xef\xbb\xbf" + GOLDEN, canonical_json=True) == a


def test_without_canonical_json_reorder_is_a_different_digest() -> None:
    assert digest_bytes("g.json", GOLDEN, canonical_json=False) == sha(GOLDEN)
    assert (digest_bytes("g.json", GOLDEN, canonical_json=False)
            != digest_bytes("g.json", GOLDEN_REORDERED, canonical_json=False))


def test_canonical_json_still_sees_value_changes() -> None:
    changed = GOLDEN.replace(b'"max": 3', b'"max": 4')
    assert (digest_bytes("g.json", GOLDEN, canonical_json=True)
            != digest_bytes("g.json", changed, canonical_json=True))
    assert (digest_bytes("g.json", b'{"a": 1}', canonical_json=True)
            != digest_bytes("g.json", b'{"a": 1.0}', canonical_json=True))


@pytest.mark.parametrize("data", [
    b'{"a": 1,',                       # does not parse
    b'{"a": 1, "a": 2}',               # repeated key: parsers disagree on the value
    b"\xff\xfe{}",                     # not UTF-8
    b"[" * 100_000 + b"]" * 100_000,   # nested too deeply for the parser
])
def test_json_that_cannot_be_canonicalised_is_hashed_as_bytes(data: bytes) -> None:
    assert digest_bytes("bad.json", data, canonical_json=True) == sha(data)


# --------------------------------------------------------------------------- build_lock


def test_build_lock_walks_directories_and_files(repo: Path) -> None:
    lock = build_lock(repo, ["tests/goldens", "src/app.py"], canonical_json=False)
    assert list(lock.entries) == [
        "src/app.py",
        "tests/goldens/empty_body.bin",
        "tests/goldens/sub/deep.txt",
        "tests/goldens/window.json",
    ]
    assert lock.entries["tests/goldens/window.json"] == sha(GOLDEN)
    assert lock.entries["tests/goldens/empty_body.bin"] == sha(BINARY)
    assert lock.canonical_json is False
    with pytest.raises(TypeError):
        lock.entries["x"] = "y"  # type: ignore[index]


def test_build_lock_canonical_mode(repo: Path) -> None:
    lock = build_lock(repo, ["tests/goldens/window.json"], canonical_json=True)
    assert lock.canonical_json is True
    assert lock.entries["tests/goldens/window.json"] == digest_bytes(
        "x.json", GOLDEN_REORDERED, canonical_json=True)


def test_build_lock_whole_root_skips_git_and_pycache(repo: Path) -> None:
    lock = build_lock(repo, ["."], canonical_json=False)
    assert "src/app.py" in lock.entries
    assert not any("__pycache__" in p or ".git/" in p for p in lock.entries)


def test_build_lock_never_follows_symlinks(repo: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    put(outside, "secret.json", b'{"secret": true}')
    (repo / "tests/goldens/link_out").symlink_to(outside, target_is_directory=True)
    (repo / "tests/goldens/file_out.json").symlink_to(outside / "secret.json")
    (repo / "tests/goldens/alias.txt").symlink_to("sub/deep.txt")
    lock = build_lock(repo, ["tests/goldens"], canonical_json=False)
    # symlinks are locked by their link text, as git stores them; nothing outside is read
    assert lock.entries["tests/goldens/link_out"] == sha(os.fsencode(str(outside)))
    assert lock.entries["tests/goldens/file_out.json"] == sha(
        os.fsencode(str(outside / "secret.json")))
    assert lock.entries["tests/goldens/alias.txt"] == sha(b"sub/deep.txt")
    assert not any(p.startswith("tests/goldens/link_out/") for p in lock.entries)


def test_build_lock_refuses_a_target_under_a_symlinked_parent(repo: Path,
                                                              tmp_path: Path) -> None:
    put(tmp_path / "outside", "data/x.json", b"{}")
    (repo / "escape").symlink_to(tmp_path / "outside", target_is_directory=True)
    with pytest.raises(InputError, match="resolves outside the repository"):
        build_lock(repo, ["escape/data"], canonical_json=False)


def test_build_lock_skips_special_files(repo: Path) -> None:
    os.mkfifo(repo / "tests/goldens/pipe")
    lock = build_lock(repo, ["tests/goldens"], canonical_json=False)  # must not block
    assert "tests/goldens/pipe" not in lock.entries


@pytest.mark.parametrize(("target", "pattern"), [
    ("../outside", "must be relative to the repository root and stay inside it"),
    ("/etc", "must be relative"),
    ("tests/../../x", "stay inside it"),
    ("", "non-empty POSIX path"),
    ("tests\\goldens", "non-empty POSIX path"),
    ("tests/nope", "tests/nope: lock target not found"),
])
def test_build_lock_bad_targets(repo: Path, target: str, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        build_lock(repo, [target], canonical_json=False)


def test_build_lock_missing_ok(repo: Path) -> None:
    lock = build_lock(repo, ["tests/nope", "tests/goldens/window.json"], canonical_json=False,
                      missing_ok=True)
    assert list(lock.entries) == ["tests/goldens/window.json"]


# --------------------------------------------------------------------------- write_lock


def test_write_lock_format_and_round_trip(repo: Path, tmp_path: Path) -> None:
    lock = build_lock(repo, ["tests/goldens"], canonical_json=True)
    out = tmp_path / "oracle" / "fixtures.lock"
    out.parent.mkdir()
    write_lock(lock, out)
    raw = out.read_bytes()
    assert b"\r" not in raw and raw.endswith(b"}\n")
    doc = json.loads(raw)
    assert doc == {"version": 1, "canonical_json": True, "files": dict(lock.entries)}
    assert raw.decode() == json.dumps(doc, sort_keys=True, indent=2) + "\n"
    assert list(doc) == sorted(doc) and list(doc["files"]) == sorted(doc["files"])
    again = read_lock(out)
    assert again.entries == lock.entries
    assert again.canonical_json is True
    assert again.source == str(out)
    assert os.listdir(out.parent) == ["fixtures.lock"]  # no temp file left behind


def test_write_lock_replaces_and_keeps_mode(tmp_path: Path) -> None:
    out = tmp_path / "fixtures.lock"
    out.write_text("old\n")
    os.chmod(out, 0o640)
    write_lock(FixtureLock({"a.txt": sha(b"a")}), out)
    assert read_lock(out).entries == {"a.txt": sha(b"a")}
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    assert os.listdir(tmp_path) == ["fixtures.lock"]


def test_write_lock_failure_leaves_no_partial_file(tmp_path: Path) -> None:
    # A real OS failure at the rename: the target is a directory. The directory is left
    # as it was and the temp file written beside it is removed.
    out = tmp_path / "fixtures.lock"
    out.mkdir()
    (out / "keep").write_text("intact")
    with pytest.raises(InputError, match="cannot write fixture lock"):
        write_lock(FixtureLock({"a.txt": sha(b"a")}), out)
    assert sorted(os.listdir(tmp_path)) == ["fixtures.lock"]
    assert (out / "keep").read_text() == "intact"


def test_write_lock_into_missing_directory_creates_nothing(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="cannot write fixture lock"):
        write_lock(FixtureLock({}), tmp_path / "nope" / "fixtures.lock")
    assert os.listdir(tmp_path) == []


def test_write_lock_refuses_a_lock_without_a_json_mode(tmp_path: Path) -> None:
    out = tmp_path / "fixtures.lock"
    out.write_text(json.dumps({"a.txt": sha(b"a")}))
    legacy = read_lock(out)
    assert legacy.canonical_json is None
    with pytest.raises(ValueError, match="rebuild"):
        write_lock(legacy, out)
    assert read_lock(out).entries == legacy.entries


def test_lock_json_of_empty_lock() -> None:
    assert json.loads(lock_json(FixtureLock({}))) == {"version": 1, "canonical_json": False,
                                                     "files": {}}


# --------------------------------------------------------------------------- read_lock


D1, D2 = sha(b"one"), sha(b"two")


@pytest.mark.parametrize(("text", "canonical"), [
    # provscore's own format
    (json.dumps({"version": 1, "canonical_json": True,
                 "files": {"tests/goldens/a.json": D1, "tests/goldens/b.bin": D2}}), True),
    # seed 000: plain mapping path -> digest
    (json.dumps({"tests/goldens/a.json": D1, "tests/goldens/b.bin": D2}), None),
    # seed 004: list of rows
    (json.dumps([{"path": "tests/goldens/b.bin", "sha256": D2},
                 {"path": "tests/goldens/a.json", "sha256": D1}]), None),
])
def test_read_lock_accepts_three_shapes(tmp_path: Path, text: str,
                                        canonical: bool | None) -> None:
    path = tmp_path / "fixtures.lock"
    path.write_text(text)
    lock = read_lock(path)
    assert dict(lock.entries) == {"tests/goldens/a.json": D1, "tests/goldens/b.bin": D2}
    assert list(lock.entries) == sorted(lock.entries)
    assert lock.canonical_json is canonical


def test_read_lock_normalises_paths_and_digest_case(tmp_path: Path) -> None:
    path = tmp_path / "fixtures.lock"
    path.write_text(json.dumps({"./tests//a.json": D1.upper()}))
    assert dict(read_lock(path).entries) == {"tests/a.json": D1}


def test_read_lock_empty_shapes(tmp_path: Path) -> None:
    path = tmp_path / "fixtures.lock"
    for text in ("{}", "[]"):
        path.write_text(text)
        assert dict(read_lock(path).entries) == {}


@pytest.mark.parametrize(("text", "pattern"), [
    ("not json", "malformed fixture lock"),
    ("", "malformed fixture lock"),
    ("42", "a fixture lock is a JSON object or a list of rows"),
    ('{"tests/goldens/window.json": "ab12cd34ef56"}',  # seed 000's short example digest
     "'ab12cd34ef56' is not a sha256 hex digest"),
    (json.dumps({"a": "z" * 64}), "is not a sha256 hex digest"),
    (json.dumps({"/etc/passwd": D1}), "must be relative and inside the repository"),
    (json.dumps({"tests/../../x": D1}), "must be relative and inside the repository"),
    (json.dumps({"tests\\a.json": D1}), "must be a POSIX path"),
    (json.dumps({"": D1}), "path must be a non-empty string"),
    (json.dumps({"a.json": D1, "./a.json": D2}), "'a.json' is locked twice"),
    (f'{{"a.json": "{D1}", "a.json": "{D2}"}}', "duplicate key a.json"),
    (json.dumps({"version": 2, "canonical_json": False, "files": {}}),
     "unsupported lock version 2"),
    (json.dumps({"canonical_json": False, "files": {}}), "unsupported lock version None"),
    (json.dumps({"version": 1, "files": {}, "extra": 1}), r"unknown key\(s\) \['extra'\]"),
    (json.dumps({"version": 1, "entries": {}}), r"unknown key\(s\) \['entries'\]"),
    (json.dumps({"version": 1, "canonical_json": "yes", "files": {}}),
     "canonical_json: expected a boolean"),
    (json.dumps({"version": 1, "files": [D1]}), r"files: expected an object"),
    (json.dumps({"version": 1, "files": {"a": 3}}), "3 is not a sha256 hex digest"),
    (json.dumps([{"path": "a.json"}]), r"\[0\]: missing key\(s\) \['sha256'\]"),
    (json.dumps([{"path": "a.json", "sha256": D1, "size": 3}]),
     r"\[0\]: unknown key\(s\) \['size'\]"),
    (json.dumps(["a.json"]), r"\[0\]: expected an object"),
    (json.dumps([{"path": 7, "sha256": D1}]), r"\[0\]: path must be a non-empty string"),
])
def test_read_lock_malformed(tmp_path: Path, text: str, pattern: str) -> None:
    path = tmp_path / "fixtures.lock"
    path.write_text(text)
    with pytest.raises(InputError, match=pattern) as info:
        read_lock(path)
    assert str(info.value).startswith(f"{path}: ")


def test_read_lock_missing_file(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"fixtures\.lock: fixture lock not found"):
        read_lock(tmp_path / "fixtures.lock")


# --------------------------------------------------------------------------- verify_lock


def test_verify_clean(repo: Path) -> None:
    assert lock_and_verify(repo, Contract()) == ()


def test_byte_change_is_drift(repo: Path) -> None:
    changed = b"line one\nline 2\n"
    findings = lock_and_verify(
        repo, Contract(),
        mutate=lambda r: put(r, "tests/goldens/sub/deep.txt", changed))
    assert codes(findings) == [("PS401", "tests/goldens/sub/deep.txt")]
    (f,) = findings
    old = sha(b"line one\nline two\n")
    assert f.action is Action.REJECT and f.name == "fixture-drift"
    assert f.location == Location("tests/goldens/sub/deep.txt")
    assert f.anchor == "PS401:tests/goldens/sub/deep.txt"
    assert f.message == (f"fixture drift: tests/goldens/sub/deep.txt expected {old[:12]} "
                         f"got {sha(changed)[:12]}")


def test_binary_change_is_drift(repo: Path) -> None:
    findings = lock_and_verify(
        repo, Contract(),
        mutate=lambda r: put(r, "tests/goldens/empty_body.bin", BINARY[:-1] + b"\x00"))
    assert codes(findings) == [("PS401", "tests/goldens/empty_body.bin")]


def test_allow_prefix_is_honoured_by_component(repo: Path) -> None:
    contract = Contract(allow_prefixes=("docs/screenshots/",))

    def mutate(r: Path) -> None:
        put(r, "docs/screenshots/home.png", b"\x89PNG regenerated")
        put(r, "docs/screenshots_evil/home.png", b"\x89PNG regenerated")

    lock = build_lock(repo, ["docs"], canonical_json=False)
    mutate(repo)
    findings = verify_lock(lock, reader(repo), contract)
    assert codes(findings) == [("PS401", "docs/screenshots_evil/home.png")]
    # without the prefix both drift
    assert codes(verify_lock(lock, reader(repo), Contract())) == [
        ("PS401", "docs/screenshots/home.png"), ("PS401", "docs/screenshots_evil/home.png")]


def test_seed_000_alias_contract_honours_prefix(repo: Path, tmp_path: Path) -> None:
    from provscore.oracle.contract import load_contract
    path = tmp_path / "score_contract.toml"
    path.write_text('[fixtures]\nallow_human_keys = ["docs/screenshots/"]\n')
    findings = lock_and_verify(
        repo, load_contract(path),
        mutate=lambda r: put(r, "docs/screenshots/home.png", b"new"))
    assert findings == ()


def test_deleted_fixture_is_missing(repo: Path) -> None:
    findings = lock_and_verify(
        repo, Contract(),
        mutate=lambda r: (r / "tests/goldens/window.json").unlink())
    assert codes(findings) == [("PS402", "tests/goldens/window.json")]
    (f,) = findings
    assert f.anchor == "PS402:tests/goldens/window.json"
    assert f.action is Action.REJECT
    assert sha(GOLDEN)[:12] in f.message and "tests/goldens/window.json" in f.message


def test_deleted_fixture_under_allow_prefix_is_still_missing(repo: Path) -> None:
    findings = lock_and_verify(
        repo, Contract(allow_prefixes=("docs/screenshots",)),
        mutate=lambda r: (r / "docs/screenshots/home.png").unlink())
    assert codes(findings) == [("PS402", "docs/screenshots/home.png")]


def test_renamed_fixture_is_missing(repo: Path) -> None:
    findings = lock_and_verify(
        repo, Contract(),
        mutate=lambda r: (r / "tests/goldens/window.json").rename(r / "tests/goldens/w.json"))
    assert codes(findings) == [("PS402", "tests/goldens/window.json")]


def test_canonical_json_reorder_and_crlf_not_drift(repo: Path) -> None:
    canonical = build_lock(repo, ["tests/goldens"], canonical_json=True)
    raw = build_lock(repo, ["tests/goldens"], canonical_json=False)
    put(repo, "tests/goldens/window.json", GOLDEN_REORDERED)
    assert verify_lock(canonical, reader(repo), Contract()) == ()
    # the same rewrite is drift when the lock hashes raw bytes
    assert codes(verify_lock(raw, reader(repo), Contract())) == [
        ("PS401", "tests/goldens/window.json")]


def test_canonical_json_value_change_is_drift(repo: Path) -> None:
    findings = lock_and_verify(
        repo, Contract(), canonical=True,
        mutate=lambda r: put(r, "tests/goldens/window.json",
                             GOLDEN_REORDERED.replace(b'"max": 3', b'"max": 30')))
    assert codes(findings) == [("PS401", "tests/goldens/window.json")]


def test_lock_mode_wins_over_contract(repo: Path) -> None:
    lock = build_lock(repo, ["tests/goldens/window.json"], canonical_json=False)
    put(repo, "tests/goldens/window.json", GOLDEN_REORDERED)
    findings = verify_lock(lock, reader(repo), Contract(canonical_json=True))
    assert codes(findings) == [("PS401", "tests/goldens/window.json")]


def test_seed_lock_uses_contract_mode(repo: Path, tmp_path: Path) -> None:
    canonical = digest_bytes("x.json", GOLDEN, canonical_json=True)
    path = tmp_path / "fixtures.lock"
    path.write_text(json.dumps([{"path": "tests/goldens/window.json", "sha256": canonical}]))
    lock = read_lock(path)
    put(repo, "tests/goldens/window.json", GOLDEN_REORDERED)
    assert verify_lock(lock, reader(repo), Contract(canonical_json=True)) == ()
    assert codes(verify_lock(lock, reader(repo), Contract(canonical_json=False))) == [
        ("PS401", "tests/goldens/window.json")]


def test_end_to_end_write_read_verify(repo: Path, tmp_path: Path) -> None:
    out = tmp_path / "fixtures.lock"
    write_lock(build_lock(repo, ["tests/goldens", "docs"], canonical_json=True), out)
    lock = read_lock(out)
    assert verify_lock(lock, reader(repo), Contract()) == ()
    (repo / "docs/screenshots/home.png").unlink()
    put(repo, "tests/goldens/sub/deep.txt", b"rewritten\n")
    assert codes(verify_lock(lock, reader(repo), Contract())) == [
        ("PS402", "docs/screenshots/home.png"), ("PS401", "tests/goldens/sub/deep.txt")]


# --------------------------------------------------------------------------- wall clock


def clock_findings(repo: Path, body: bytes, contract: Contract | None = None,
                   name: str = "tests/goldens/trace.json") -> tuple[Finding, ...]:
    put(repo, name, body)
    lock = build_lock(repo, [name], canonical_json=False)
    return verify_lock(lock, reader(repo), contract or Contract())


def test_wall_clock_field_without_declared_clock(repo: Path) -> None:
    findings = clock_findings(repo, b'{"now_ms": 1700000000000, "request": {"n": 1}}')
    assert codes(findings) == [("PS403", "tests/goldens/trace.json")]
    (f,) = findings
    assert f.action is Action.REJECT and f.name == "fixture-wall-clock"
    assert f.anchor == "PS403:tests/goldens/trace.json"
    assert f.message == ("fixture wall clock: tests/goldens/trace.json has wall-clock "
                         "field(s) /now_ms but no declared 'clock' field")


def test_declared_clock_means_no_finding(repo: Path) -> None:
    assert clock_findings(repo, b'{"clock": 0, "now_ms": 1700000000000}') == ()


def test_nested_wall_clock_is_found(repo: Path) -> None:
    body = b'{"meta": {"generated_at": "2026-01-01"}, "rows": [{"time": 1}, {"x": 2}]}'
    (f,) = clock_findings(repo, body)
    assert "/meta/generated_at, /rows/0/time" in f.message


def test_clock_on_enclosing_object_covers_nested_fields(repo: Path) -> None:
    per_trace = b'[{"clock": 5, "events": [{"now": 6}]}, {"clock": 9, "now": 10}]'
    assert clock_findings(repo, per_trace) == ()
    # a trace without its own clock is not covered by a sibling's clock
    mixed = b'[{"clock": 5, "now": 6}, {"now": 10}]'
    (f,) = clock_findings(repo, mixed)
    assert "/1/now" in f.message and "/0/now" not in f.message


def test_contract_chooses_clock_names(repo: Path) -> None:
    contract = Contract(clock_fields=("ts",), declared_clock_field="fixture_clock")
    assert clock_findings(repo, b'{"now": 1}', contract) == ()
    (f,) = clock_findings(repo, b'{"ts": 1, "clock": 0}', contract)
    assert "'fixture_clock'" in f.message
    assert clock_findings(repo, b'{"ts": 1, "fixture_clock": 0}', contract) == ()


def test_wall_clock_only_checked_in_json(repo: Path) -> None:
    assert clock_findings(repo, b'{"now": 1}', name="tests/goldens/trace.txt") == ()
    assert clock_findings(repo, b'{"now": 1', name="tests/goldens/broken.json") == ()


def test_wall_clock_checked_under_allow_prefix_and_with_drift(repo: Path) -> None:
    name = "docs/screenshots/meta.json"
    put(repo, name, b'{"clock": 1, "now": 2}')
    lock = build_lock(repo, [name], canonical_json=False)
    put(repo, name, b'{"now": 2}')
    contract = Contract(allow_prefixes=("docs/screenshots/",))
    assert codes(verify_lock(lock, reader(repo), contract)) == [("PS403", name)]
    assert codes(verify_lock(lock, reader(repo), Contract())) == [
        ("PS401", name), ("PS403", name)]


def test_wall_clock_pointer_escaping() -> None:
    data = b'{"a/b": {"now": 1}, "c~d": {"time": 2}}'
    assert wall_clock_fields(data, Contract()) == ["/a~1b/now", "/c~0d/time"]


def test_many_wall_clock_fields_are_summarised(repo: Path) -> None:
    body = json.dumps([{"now": i} for i in range(8)]).encode()
    (f,) = clock_findings(repo, body)
    assert "(+3 more)" in f.message
