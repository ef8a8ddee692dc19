"""Oracle ledgers: flake ledger, freeze ledger, removal approvals (real files in tmp_path)."""

from __future__ import annotations

import json
import multiprocessing
import random
import re
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from tests_support import SESSION

from provscore.checks.ledgers import check_freeze_ledger
from provscore.errors import InputError
from provscore.model import Action, Finding, Location
from provscore.nodeid import covers as id_covers
from provscore.oracle.approvals import Approval, approves, read_approvals
from provscore.oracle.flake import FlakeRow, append_rows, flake_states, read_flake_ledger
from provscore.oracle.freeze import FreezeRow, frozen_ids, missing_frozen_ids, read_freeze_ledger

TODAY = date(2026, 9, 13)
T = "tests/test_http.py::test_retry_after"


def write(path: Path, text: str) -> Path:
    path.write_bytes(text.encode("utf-8"))
    return path


def jsonl(path: Path, *rows: dict[str, Any]) -> Path:
    return write(path, "".join(json.dumps(r) + "\n" for r in rows))


def frow(result: str, run: str, *, test_id: str = T, at: str = "2026-09-13T10:00:00Z",
         env: str | None = None) -> dict[str, Any]:
    row: dict[str, Any] = {"test_id": test_id, "result": result, "run_id": run,
                           "recorded_at": at}
    if env is not None:
        row["env"] = env
    return row


def history(results: str, *, test_id: str = T, at: str = "2026-09-13T10:00:00") -> list[FlakeRow]:
    """FlakeRows from a string like 'ppfp' (p = pass, f = fail), one run id each."""
    names = {"p": "pass", "f": "fail"}
    return [FlakeRow(test_id, names[c], f"r-{i}", at) for i, c in enumerate(results)]


def freeze(key: str = T, **over: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"test_id": key, "owner": "human", "reason": "flips on idle socket",
                           "frozen_on": "2026-09-10", "expires_on": "2026-09-20"}
    row.update(over)
    return row


def rows_of(tmp_path: Path, *rows: dict[str, Any]) -> tuple[FreezeRow, ...]:
    return read_freeze_ledger(jsonl(tmp_path / "freeze.jsonl", *rows))


def check(rows: tuple[FreezeRow, ...], *, budget: int = 10, **kw: Any) -> tuple[Finding, ...]:
    return check_freeze_ledger(SESSION.registry, rows, today=TODAY, parked_budget=budget,
                               path="oracle/freeze.jsonl", **kw)


def codes(findings: tuple[Finding, ...]) -> list[str]:
    return [f.code for f in findings]


# --------------------------------------------------------------------------- flake ledger: read


def test_read_flake_ledger_keeps_file_order_and_optional_env(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "flake.jsonl", frow("pass", "r-1", env="abc123"), frow("fail", "r-2"))
    assert read_flake_ledger(path) == (
        FlakeRow(T, "pass", "r-1", "2026-09-13T10:00:00Z", "abc123"),
        FlakeRow(T, "fail", "r-2", "2026-09-13T10:00:00Z", ""),
    )


def test_read_flake_ledger_skips_blank_lines_but_counts_them(tmp_path: Path) -> None:
    path = write(tmp_path / "flake.jsonl",
                 json.dumps(frow("pass", "r-1")) + "\n\n" + '{"test_id": 1}\n')
    with pytest.raises(InputError, match=r"flake\.jsonl:3: key 'test_id' must be a string"):
        read_flake_ledger(path)


def test_empty_flake_ledger_has_no_rows(tmp_path: Path) -> None:
    assert read_flake_ledger(write(tmp_path / "flake.jsonl", "")) == ()


def test_a_complete_last_line_without_newline_is_read(tmp_path: Path) -> None:
    path = write(tmp_path / "flake.jsonl", json.dumps(frow("pass", "r-1")))
    assert [r.run_id for r in read_flake_ledger(path)] == ["r-1"]


@pytest.mark.parametrize(("text", "pattern"), [
    ('{"test_id": "a", \n', r"flake\.jsonl:1: malformed JSON: "),
    (json.dumps(frow("pass", "r-1")) + '\n{"test_id": "a", "res',
     r"flake\.jsonl:2: last line is truncated \(no trailing newline and not valid JSON\)"),
    ('[1, 2]\n', r"flake\.jsonl:1: a row must be a JSON object, got list"),
    ('{"test_id": "a", "test_id": "b"}\n', r"flake\.jsonl:1: duplicate key 'test_id'"),
])
def test_malformed_flake_lines_name_the_line(tmp_path: Path, text: str, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        read_flake_ledger(write(tmp_path / "flake.jsonl", text))


@pytest.mark.parametrize(("change", "pattern"), [
    ({"status": "flaky"}, r":2: unknown key 'status' \(known keys: env, recorded_at, result, "),
    ({"result": "error"}, r":2: key 'result' must be one of pass, fail, got 'error'"),
    ({"result": True}, r":2: key 'result' must be a string, got bool True"),
    ({"run_id": ""}, r":2: key 'run_id' must not be empty"),
    ({"env": 7}, r":2: key 'env' must be a string, got int 7"),
    ({"recorded_at": "yesterday"},
     r":2: key 'recorded_at' must be an ISO-8601 timestamp, got 'yesterday'"),
    ({"recorded_at": None}, r":2: key 'recorded_at' must be a string, got null None"),
])
def test_bad_flake_rows_name_line_and_key(tmp_path: Path, change: dict[str, Any],
                                          pattern: str) -> None:
    path = jsonl(tmp_path / "flake.jsonl", frow("pass", "r-1"), {**frow("pass", "r-2"), **change})
    with pytest.raises(InputError, match=r"flake\.jsonl" + pattern):
        read_flake_ledger(path)


def test_missing_flake_key_is_named(tmp_path: Path) -> None:
    row = frow("pass", "r-1")
    del row["run_id"]
    with pytest.raises(InputError, match=r"flake\.jsonl:1: missing required key 'run_id'"):
        read_flake_ledger(jsonl(tmp_path / "flake.jsonl", row))


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "flake.jsonl"
    path.write_bytes(json.dumps(frow("pass", "r-1")).encode() + b'\n{"test_id": "\xff"}\n')
    with pytest.raises(InputError, match=r"flake\.jsonl:2: not valid UTF-8"):
        read_flake_ledger(path)


def test_unreadable_ledger_is_an_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nope\.jsonl: ledger not found"):
        read_flake_ledger(tmp_path / "nope.jsonl")


# --------------------------------------------------------------------------- flake states


def state(results: str, *, window: int = 3, reentry: int = 5) -> tuple[str, str]:
    s = flake_states(history(results), window=window, reentry_streak=reentry)[T]
    return s.state, s.reason


def test_agreeing_history_is_scored() -> None:
    s = flake_states(history("ppppp"), window=3, reentry_streak=5)[T]
    assert (s.state, s.results, s.reason) == ("scored", ("pass", "pass", "pass"), "stable")


def test_a_single_result_is_scored() -> None:
    assert state("f") == ("scored", "stable")


def test_disagreement_in_the_window_makes_a_test_unscored() -> None:
    s = flake_states(history("pppf"), window=3, reentry_streak=5)[T]
    assert (s.state, s.results, s.reason) == (
        "unscored", ("pass", "pass", "fail"), "disagreement_on_independent_runner")


def test_seed_003_example_is_unscored() -> None:
    assert state("pfp") == ("unscored", "disagreement_on_independent_runner")


def test_reentry_needs_the_full_streak() -> None:
    # window 3, K 5: after the fail, four agreeing passes are not enough, five are.
    assert state("pf" + "pppp") == ("unscored", "reentry_pending: 4 of 5 agreeing results")
    assert state("pf" + "ppppp") == (
        "scored", "reentered: 5 agreeing results since the last disagreement")


def test_reentry_is_never_before_the_disagreement_leaves_the_window() -> None:
    # K (2) shorter than the window (4): the test stays unscored while the fail is in view.
    assert state("pf" + "ppp", window=4, reentry=2) == (
        "unscored", "disagreement_on_independent_runner")
    assert state("pf" + "pppp", window=4, reentry=2)[0] == "scored"


def test_window_boundary() -> None:
    # The fail is the oldest result in the window: still a disagreement.
    assert state("fpp", window=3, reentry=1) == ("unscored", "disagreement_on_independent_runner")
    # One more pass pushes it out of the window: the three in view agree.
    assert state("fppp", window=3, reentry=1)[0] == "scored"


def test_results_are_the_last_window_oldest_first() -> None:
    s = flake_states(history("ffpfp"), window=4, reentry_streak=1)[T]
    assert s.results == ("fail", "pass", "fail", "pass")


def test_a_streak_of_failures_reenters_and_then_votes() -> None:
    s = flake_states(history("pf" + "fffff"), window=3, reentry_streak=5)[T]
    assert s.state == "scored"
    assert s.results == ("fail", "fail", "fail")


def test_a_new_disagreement_after_reentry_unscores_again() -> None:
    assert state("pf" + "ppppp" + "f") == ("unscored", "disagreement_on_independent_runner")


def test_a_result_recorded_twice_for_one_run_counts_once() -> None:
    rows = [FlakeRow(T, "fail", "r-0", "2026-09-13")] + [
        FlakeRow(T, "pass", "r-1", "2026-09-13")] * 5
    assert flake_states(rows, window=2, reentry_streak=3)[T].state == "unscored"
    rows = [FlakeRow(T, "fail", "r-0", "2026-09-13")] + [
        FlakeRow(T, "pass", f"r-{i}", "2026-09-13") for i in range(1, 4)]
    assert flake_states(rows, window=2, reentry_streak=3)[T].state == "scored"


def test_states_are_per_test_id_and_interleaving_does_not_matter() -> None:
    a, b = "tests/t.py::test_a", "tests/t.py::test_b"
    rows = [FlakeRow(tid, res, f"r-{i}", "2026-09-13")
            for i, (tid, res) in enumerate([(a, "pass"), (b, "pass"), (a, "fail"), (b, "pass")])]
    states = flake_states(rows, window=3, reentry_streak=3)
    assert {k: v.state for k, v in states.items()} == {a: "unscored", b: "scored"}


def test_state_machine_matches_its_closed_form() -> None:
    rng = random.Random(20260913)
    for _ in range(500):
        window, reentry = rng.randint(2, 6), rng.randint(1, 8)
        results = "".join(rng.choice("pf") for _ in range(rng.randint(1, 25)))
        streak = len(results) - len(results.rstrip(results[-1]))
        expected = ("scored" if len(set(results)) == 1 or streak >= max(window, reentry)
                    else "unscored")
        assert state(results, window=window, reentry=reentry)[0] == expected, (
            results, window, reentry)


@pytest.mark.parametrize(("window", "reentry", "pattern"), [
    (1, 5, r"flake window must be at least 2 results, got 1"),
    (3, 0, r"re-entry streak must be at least 1, got 0"),
])
def test_bad_flake_parameters(window: int, reentry: int, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        flake_states(history("pp"), window=window, reentry_streak=reentry)


# --------------------------------------------------------------------------- append_rows


def test_append_rows_creates_then_appends(tmp_path: Path) -> None:
    path = tmp_path / "flake.jsonl"
    append_rows(path, [frow("pass", "r-1", env="e1")])
    append_rows(path, [frow("fail", "r-2"), frow("pass", "r-3")])
    assert [(r.result, r.run_id, r.env) for r in read_flake_ledger(path)] == [
        ("pass", "r-1", "e1"), ("fail", "r-2", ""), ("pass", "r-3", "")]
    assert path.read_bytes().endswith(b"\n")


def test_append_rows_writes_nothing_when_any_row_is_invalid(tmp_path: Path) -> None:
    path = jsonl(tmp_path / "flake.jsonl", frow("pass", "r-1"))
    before = path.read_bytes()
    with pytest.raises(InputError,
                       match=r"flake\.jsonl \(row 2 to append\): key 'result' must be one of"):
        append_rows(path, [frow("pass", "r-2"), frow("flaky", "r-3")])
    with pytest.raises(InputError, match=r"\(row 1 to append\): unknown key 'seed'"):
        append_rows(path, [{**frow("pass", "r-2"), "seed": 17}])
    assert path.read_bytes() == before


def test_append_rows_refuses_to_append_after_a_truncated_line(tmp_path: Path) -> None:
    path = write(tmp_path / "flake.jsonl",
                 json.dumps(frow("pass", "r-1")) + "\n" + json.dumps(frow("pass", "r-2"))
                 + '\n{"test_id": "tests/t.py::te')
    before = path.read_bytes()
    with pytest.raises(InputError, match=r"flake\.jsonl:3: last line is truncated \(no trailing "
                                         r"newline\); refusing to append after it"):
        append_rows(path, [frow("pass", "r-3")])
    assert path.read_bytes() == before


def test_append_rows_escapes_line_separators(tmp_path: Path) -> None:
    path = tmp_path / "flake.jsonl"
    append_rows(path, [frow("pass", "r-1", test_id="tests/t.py::test_x[a\u2028b\nc]")])
    assert path.read_bytes().count(b"\n") == 1
    assert read_flake_ledger(path)[0].test_id == "tests/t.py::test_x[a\u2028b\nc]"


def test_append_rows_with_no_rows_is_a_no_op(tmp_path: Path) -> None:
    path = tmp_path / "flake.jsonl"
    append_rows(path, [])
    assert not path.exists()


def test_append_rows_rejects_a_non_mapping(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"row 1 to append must be a mapping, got list"):
        append_rows(tmp_path / "flake.jsonl", [["pass"]])  # type: ignore[list-item]


def _append_worker(path: str, worker: int, count: int) -> None:
    """Child process: append ``count`` rows in batches of 1 to 5 rows."""
    rng = random.Random(worker)
    seq = 0
    while seq < count:
        size = min(rng.randint(1, 5), count - seq)
        batch = [frow("pass" if (worker + seq + i) % 3 else "fail", f"w{worker}-{seq + i}",
                      test_id=f"tests/test_c.py::test_{worker}", env=f"batch-{seq}")
                 for i in range(size)]
        append_rows(Path(path), batch)
        seq += size


def test_concurrent_writers_lose_and_interleave_nothing(tmp_path: Path) -> None:
    path = tmp_path / "flake.jsonl"
    ctx = multiprocessing.get_context("spawn")
    procs = [ctx.Process(target=_append_worker, args=(str(path), w, 200)) for w in range(8)]
    for p in procs:
        p.start()
    for p in procs:
        p.join(timeout=120)
    assert [p.exitcode for p in procs] == [0] * 8

    raw = path.read_bytes()
    assert raw.endswith(b"\n")
    lines = raw.split(b"\n")[:-1]
    assert len(lines) == 1600
    rows = [json.loads(line) for line in lines]  # every line is well formed
    assert len(read_flake_ledger(path)) == 1600
    for w in range(8):
        mine = [r for r in rows if r["test_id"] == f"tests/test_c.py::test_{w}"]
        # Each writer's rows all arrived, once each, in its own order.
        assert [r["run_id"] for r in mine] == [f"w{w}-{i}" for i in range(200)]
    # One call is one contiguous block: rows of a batch are never split by another writer.
    positions: dict[tuple[str, str], list[int]] = {}
    for i, r in enumerate(rows):
        positions.setdefault((r["test_id"], r["env"]), []).append(i)
    for where in positions.values():
        assert where == list(range(where[0], where[0] + len(where)))


# --------------------------------------------------------------------------- freeze ledger: read

SEED_002_ROW = {
    "property_id": "P1_cap",
    "fixture": "deny_at_capacity.json",
    "reason": "verdict flipped across two oracle processes with identical digest",
    "frozen_on": "2026-09-13",
    "expires_on": "2026-09-20",
    "owner": "human",
    "blocks_merge": False,
    "counts_as_pass": False,
}


def test_read_freeze_ledger_jsonl_with_defaults(tmp_path: Path) -> None:
    (row,) = rows_of(tmp_path, freeze())
    assert row == FreezeRow(key=T, fixture="", owner="human", reason="flips on idle socket",
                            frozen_on=date(2026, 9, 10), expires_on=date(2026, 9, 20),
                            status="flake", fixture_sha="", counts_as_pass=False, line=1)


def test_read_freeze_ledger_json_array_keeps_line_numbers(tmp_path: Path) -> None:
    text = "[\n" + json.dumps(SEED_002_ROW, indent=2) + ",\n" + json.dumps(
        freeze(status="replay_ok", fixture_sha="ab12", seed=17, env="9f3c")) + "\n]\n"
    rows = read_freeze_ledger(write(tmp_path / "freeze.json", text))
    assert [(r.key, r.fixture, r.status, r.line) for r in rows] == [
        ("P1_cap", "deny_at_capacity.json", "flake", 2), (T, "", "replay_ok", 12)]


def test_empty_json_array_and_empty_file(tmp_path: Path) -> None:
    assert read_freeze_ledger(write(tmp_path / "a.json", " [ ] \n")) == ()
    assert read_freeze_ledger(write(tmp_path / "b.jsonl", "")) == ()


@pytest.mark.parametrize(("change", "pattern"), [
    ({"expires": "2026-09-20"}, r":2: unknown key 'expires' \(known keys: "),
    ({"expires_on": "2026/09/20"},
     r":2: key 'expires_on' must be a date YYYY-MM-DD, got str '2026/09/20'"),
    ({"expires_on": "20260920"}, r":2: key 'expires_on' must be a date YYYY-MM-DD"),
    ({"frozen_on": "2026-02-30"}, r":2: key 'frozen_on' must be a date YYYY-MM-DD, got str "),
    ({"frozen_on": 20260910}, r":2: key 'frozen_on' must be a date YYYY-MM-DD, got int "),
    ({"counts_as_pass": "false"}, r":2: key 'counts_as_pass' must be a boolean, got str 'false'"),
    ({"blocks_merge": 0}, r":2: key 'blocks_merge' must be a boolean, got int 0"),
    ({"status": "frozen"}, r":2: key 'status' must be one of flake, replay_ok, replay_fail, "
                           r"got 'frozen'"),
    ({"owner": None}, r":2: key 'owner' must be a string, got null None"),
    ({"reason": " "}, r":2: key 'reason' must not be empty"),
    ({"seed": "17"}, r":2: key 'seed' must be an integer, got str '17'"),
    ({"seed": True}, r":2: key 'seed' must be an integer, got bool True"),
    ({"fixture_sha": 12}, r":2: key 'fixture_sha' must be a string, got int 12"),
    ({"property_id": "P1"}, r":2: a row needs exactly one of 'test_id' and 'property_id'"),
    ({"expires_on": "2026-09-01"},
     r":2: 'expires_on' 2026-09-01 is before 'frozen_on' 2026-09-10"),
])
def test_bad_freeze_rows_name_line_and_key(tmp_path: Path, change: dict[str, Any],
                                           pattern: str) -> None:
    with pytest.raises(InputError, match=r"freeze\.jsonl" + pattern):
        rows_of(tmp_path, freeze(), {**freeze(), **change})


def test_freeze_row_needs_an_id(tmp_path: Path) -> None:
    row = freeze()
    del row["test_id"]
    with pytest.raises(InputError, match=r"freeze\.jsonl:1: a row needs exactly one of"):
        rows_of(tmp_path, row)


def test_freeze_row_missing_owner(tmp_path: Path) -> None:
    row = freeze()
    del row["owner"]
    with pytest.raises(InputError, match=r"freeze\.jsonl:1: missing required key 'owner'"):
        rows_of(tmp_path, row)


@pytest.mark.parametrize(("text", "pattern"), [
    (json.dumps(freeze()) + "\n" + json.dumps(freeze())[:30],
     r"freeze\.jsonl:2: last line is truncated"),
    ("not json\n", r"freeze\.jsonl:1: malformed JSON: Expecting value"),
    ("[\n" + json.dumps(freeze()) + ",\n  {\"test_id\": }\n]\n",
     r"freeze\.jsonl:3: malformed JSON: Expecting value"),
    ("[\n" + json.dumps(freeze()) + ",\n", r"freeze\.jsonl:3: malformed JSON"),
    ("[\n" + json.dumps(freeze()) + "\n", r"freeze\.jsonl:3: the JSON array is truncated"),
    ("[\n" + json.dumps(freeze()) + "\n  x]", r"freeze\.jsonl:3: expected ',' or ']' after a "
                                              r"row, got 'x'"),
    ("[\n" + json.dumps(freeze()) + "\n]\n[]\n", r"freeze\.jsonl:4: unexpected data after"),
    ("[\n  \"tests/t.py::test_a\"\n]\n",
     r"freeze\.jsonl:2: a row must be a JSON object, got str"),
    ("[\n  {\"test_id\": \"a\",\n   \"test_id\": \"b\"}\n]",
     r"freeze\.jsonl:2: duplicate key 'test_id'"),
    (json.dumps(freeze(), indent=2) + "\n",
     r"freeze\.jsonl:1: a freeze ledger is JSONL .* wrap it in \[ \]"),
    ('{"source": "main-ci", "nodeids": ["tests/test_net.py::test_retry_on_idle"]}\n',
     r"freeze\.jsonl:1: this is a bare list of frozen ids \(seed 000/004 style\)"),
    ('{"ids": ["a"],\n "entries": [{"id": "a", "owner": "http-layer"}]}\n',
     r"freeze\.jsonl:1: this is a bare list of frozen ids"),
])
def test_malformed_freeze_ledgers(tmp_path: Path, text: str, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        read_freeze_ledger(write(tmp_path / "freeze.jsonl", text))


def test_unknown_key_in_json_array_names_its_line(tmp_path: Path) -> None:
    text = "[\n" + json.dumps(freeze()) + ",\n" + json.dumps({**freeze(), "ids": []}) + "\n]\n"
    with pytest.raises(InputError, match=r"freeze\.json:3: unknown key 'ids'"):
        read_freeze_ledger(write(tmp_path / "freeze.json", text))


# --------------------------------------------------------------------------- freeze rules


def test_a_clean_ledger_has_no_findings(tmp_path: Path) -> None:
    rows = read_freeze_ledger(write(tmp_path / "freeze.json", json.dumps([SEED_002_ROW])))
    assert check(rows, budget=1) == ()


def test_ps601_fires_for_an_open_expired_freeze(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(expires_on="2026-09-12"))
    (f,) = check(rows)
    assert f == Finding(
        code="PS601", name="freeze-expired", action=Action.REJECT, penalty=0.0,
        message=f"freeze of {T} expired on 2026-09-12 (today is 2026-09-13, owner human); "
                "remove the row or renew it with a new date",
        location=Location(path="oracle/freeze.jsonl", line=1), node_id=T,
        anchor=f"PS601:{T}:", gate=6)


def test_ps601_does_not_fire_on_the_expiry_day_or_for_resolved_rows(tmp_path: Path) -> None:
    assert check(rows_of(tmp_path, freeze(expires_on="2026-09-13"))) == ()
    rows = rows_of(tmp_path, freeze(expires_on="2026-09-11", fixture_sha="ab"),
                   freeze(status="replay_ok", fixture_sha="ab", frozen_on="2026-09-11",
                          expires_on="2026-09-11"))
    assert check(rows) == ()


def test_ps602_fires_for_the_same_pair_frozen_twice(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(fixture="f.json"), freeze(fixture="g.json"),
                   freeze(fixture="f.json", reason="again"))
    findings = [f for f in check(rows) if f.code == "PS602"]
    assert [(f.location, f.message, f.anchor) for f in findings] == [(
        Location("oracle/freeze.jsonl", 3),
        f"{T} (f.json) is frozen again while the freeze at line 1 is still open",
        f"PS602:{T}:f.json")]


def test_ps602_does_not_fire_after_the_first_freeze_was_resolved(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(fixture_sha="ab"),
                   freeze(status="replay_ok", fixture_sha="ab"),
                   freeze(fixture_sha="ab", reason="flipped again"))
    assert check(rows) == ()


def test_a_replay_against_other_fixture_bytes_resolves_nothing(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(fixture_sha="ab"),
                   freeze(status="replay_ok", fixture_sha="cd"),
                   freeze(fixture_sha="ab", reason="flipped again"))
    assert codes(check(rows)) == ["PS602"]


@pytest.mark.parametrize("owner", ["agent", "bot", "", "Agent", "dependabot[bot]", "ci"])
def test_ps603_fires_for_non_human_owners(tmp_path: Path, owner: str) -> None:
    (f,) = check(rows_of(tmp_path, freeze(owner=owner)))
    assert (f.code, f.action, f.node_id) == ("PS603", Action.REJECT, T)
    assert f.message == (f"freeze of {T} is owned by {owner!r}, not by a human; only a human "
                         "may add a ledger row")


def test_ps603_applies_to_replay_rows_too(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(), freeze(status="replay_ok", owner="ci-bot[bot]"))
    assert [(f.code, f.location.line if f.location else None) for f in check(rows)] == [
        ("PS603", 2)]


def test_ps603_with_a_list_of_human_owners(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(owner="alice"), freeze("tests/t.py::b", owner="human"),
                   freeze("tests/t.py::c", owner="bot"))
    findings = check(rows, human_owners=frozenset({"alice", "bot"}))
    assert [(f.code, f.node_id) for f in findings] == [
        ("PS603", "tests/t.py::b"), ("PS603", "tests/t.py::c")]
    assert codes(check(rows_of(tmp_path, freeze(owner="human")))) == []


def test_ps604_fires_when_a_freeze_counts_as_pass(tmp_path: Path) -> None:
    (f,) = check(rows_of(tmp_path, freeze(counts_as_pass=True)))
    assert (f.code, f.anchor) == ("PS604", f"PS604:{T}:")
    assert "a frozen result is never a pass" in f.message
    assert check(rows_of(tmp_path, freeze(counts_as_pass=False))) == ()


def test_ps605_fires_for_several_open_freezes_of_one_property(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(fixture="a.json"), freeze("P2", fixture="a.json"),
                   freeze(fixture="b.json"), freeze(fixture="c.json"))
    (f,) = check(rows)
    assert (f.code, f.node_id, f.anchor, f.location) == (
        "PS605", T, f"PS605:{T}:*", Location("oracle/freeze.jsonl", 3))
    assert f.message == f"{T} has 3 open freezes (a.json, b.json, c.json); at most one may be open"


def test_ps605_does_not_count_resolved_freezes(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(fixture="a.json"),
                   freeze(fixture="a.json", status="replay_ok"), freeze(fixture="b.json"))
    assert check(rows) == ()


def test_ps606_fires_when_parked_exceeds_the_budget(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze("tests/t.py::a"), freeze("tests/t.py::b"),
                   freeze("tests/t.py::c"))
    (f,) = check(rows, budget=1)
    assert (f.code, f.node_id, f.location, f.anchor) == (
        "PS606", None, Location("oracle/freeze.jsonl", 2), "PS606:oracle/freeze.jsonl")
    assert f.message == ("3 parked flakes exceed the budget of 1: tests/t.py::a, tests/t.py::b, "
                         "tests/t.py::c")
    assert check(rows, budget=3) == ()


def test_ps606_budget_zero_and_resolved_rows(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(), freeze(status="replay_ok"))
    assert check(rows, budget=0) == ()
    assert codes(check(rows_of(tmp_path, freeze()), budget=0)) == ["PS606"]


def test_ps607_fires_for_every_replay_fail_row(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(), freeze(status="replay_fail"))
    (f,) = check(rows)
    assert (f.code, f.location) == ("PS607", Location("oracle/freeze.jsonl", 2))
    assert f.message == (f"replay of {T} failed (status replay_fail); a replayed failure is a "
                         "failure, not a flake")
    assert check(rows_of(tmp_path, freeze(), freeze(status="replay_ok"))) == ()


def test_ps608_reports_a_stale_freeze_as_info(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(fixture="w.json", fixture_sha="aaa"),
                   freeze("P2", fixture="x.json", fixture_sha="bbb"),
                   freeze("P3", fixture="unlocked.json", fixture_sha="ccc"))
    (f,) = check(rows, fixture_digests={"w.json": "zzz", "x.json": "bbb"})
    assert (f.code, f.action, f.node_id, f.anchor) == (
        "PS608", Action.INFO, T, f"PS608:{T}:w.json")
    assert f.message == (f"freeze of {T} (w.json) is stale: recorded against fixture digest aaa, "
                         "now zzz; it no longer freezes anything")
    assert check(rows) == ()  # without a lock nothing is stale


def test_stale_rows_are_still_checked_by_every_other_rule(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(fixture="w.json", fixture_sha="old", expires_on="2026-09-12"),
                   freeze(fixture="w.json", fixture_sha="new"))
    assert sorted(codes(check(rows, budget=0, fixture_digests={"w.json": "new"}))) == [
        "PS601", "PS602", "PS606", "PS608"]


def test_findings_are_sorted_and_fully_formatted(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(owner="agent", counts_as_pass=True, status="replay_fail"),
                   freeze(expires_on="2026-09-12", fixture="f", fixture_sha="x"),
                   freeze(fixture="f", fixture_sha="x"), freeze(fixture="g"))
    findings = check(rows, budget=0, fixture_digests={"f": "y"})
    assert [(f.location.line if f.location else 0, f.code) for f in findings] == [
        (1, "PS603"), (1, "PS604"), (1, "PS607"), (2, "PS601"), (2, "PS606"), (2, "PS608"),
        (3, "PS602"), (3, "PS608"), (4, "PS605")]
    assert list(findings) == sorted(findings, key=Finding.sort_key)
    for f in findings:
        assert "{" not in f.message and "missing" not in f.message
        assert f.location is not None and f.location.path == "oracle/freeze.jsonl"


def test_every_ledger_rule_is_registered() -> None:
    reg = SESSION.registry
    for code in ("PS601", "PS602", "PS603", "PS604", "PS605", "PS606", "PS607", "PS608"):
        rule = reg[code]
        assert rule.source == "ledgers.toml"
        assert rule.penalty == 0.0 and rule.summary and rule.rationale
        assert rule.action == (Action.INFO if code == "PS608" else Action.REJECT)


def test_negative_parked_budget_is_an_error() -> None:
    with pytest.raises(InputError, match=r"parked budget must be at least 0, got -1"):
        check_freeze_ledger(SESSION.registry, (), today=TODAY, parked_budget=-1)


# --------------------------------------------------------------------------- frozen ids


def test_frozen_ids_are_the_freezes_in_force(tmp_path: Path) -> None:
    rows = rows_of(
        tmp_path,
        freeze("in_force"),
        freeze("expired", expires_on="2026-09-12"),
        freeze("future", frozen_on="2026-09-14", expires_on="2026-09-30"),
        freeze("resolved", fixture_sha="s"),
        freeze("resolved", status="replay_ok", fixture_sha="s"),
        freeze("failed", fixture_sha="s"),
        freeze("failed", status="replay_fail", fixture_sha="s"),
        freeze("replay_only", status="replay_ok"),
        freeze("stale", fixture="w.json", fixture_sha="old"),
        freeze("fresh", fixture="v.json", fixture_sha="cur"),
        freeze("agent", owner="agent"),
        freeze("last_day", expires_on="2026-09-13"),
    )
    digests = {"w.json": "new", "v.json": "cur"}
    assert frozen_ids(rows, today=TODAY, fixture_digests=digests) == {
        "in_force", "fresh", "last_day"}
    assert "stale" in frozen_ids(rows, today=TODAY)


def test_frozen_ids_respect_human_owners(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze("a", owner="alice"), freeze("b", owner="human"))
    assert frozen_ids(rows, today=TODAY) == {"b"}
    assert frozen_ids(rows, today=TODAY, human_owners=frozenset({"alice"})) == {"a"}


def test_a_freeze_ends_after_k_agreeing_results_since_it_began(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze(frozen_on="2026-09-10"))
    before = history("p" * 20, at="2026-09-09T23:59:59")
    assert frozen_ids(rows, today=TODAY, results=before, unfreeze_streak=10) == {T}
    nine = before + [FlakeRow(T, "pass", f"n-{i}", "2026-09-11T08:00:00+02:00") for i in range(9)]
    assert frozen_ids(rows, today=TODAY, results=nine, unfreeze_streak=10) == {T}
    ten = [*nine, FlakeRow(T, "pass", "n-9", "2026-09-12T08:00:00")]
    assert frozen_ids(rows, today=TODAY, results=ten, unfreeze_streak=10) == frozenset()
    broken = [*ten[:-3], FlakeRow(T, "fail", "x", "2026-09-12"), *ten[-3:]]
    assert frozen_ids(rows, today=TODAY, results=broken, unfreeze_streak=10) == {T}


def test_a_streak_of_failures_also_ends_a_freeze(tmp_path: Path) -> None:
    rows = rows_of(tmp_path, freeze())
    assert frozen_ids(rows, today=TODAY, results=history("pf" + "fff", at="2026-09-11"),
                      unfreeze_streak=4) == frozenset()


def test_missing_frozen_ids() -> None:
    known = ["tests/t.py::test_a[1]", "tests/t.py::test_b", "P1_cap"]
    assert missing_frozen_ids({"tests/t.py::test_a", "tests/t.py::test_b", "P1_cap",
                               "tests/t.py::test_gone", "tests/t.py::test_b[2]"}, known) == {
        "tests/t.py::test_gone", "tests/t.py::test_b[2]"}


def test_id_covers() -> None:
    assert id_covers("tests/t.py::test_a", "tests/t.py::test_a")
    assert id_covers("tests/t.py::test_a", "tests/t.py::test_a[x-[1]]")
    assert not id_covers("tests/t.py::test_a", "tests/t.py::test_ab")
    assert not id_covers("tests/t.py::test_a", "tests/t.py::test_a::inner")
    assert not id_covers("tests/t.py::test_a[1]", "tests/t.py::test_a")
    assert not id_covers("", "")


# --------------------------------------------------------------------------- approvals

APPROVALS = """\
[[approval]]
node_id = "tests/tax.py::test_legacy_bracket"
approved_by = "maria"
reason = "product no longer ships 2019 brackets; see issue 1842"
date = "2026-09-13"

[[approval]]
anchor = "tests/tax.py::test_rates::assert::2"
approved_by = "li"
reason = "duplicate of the assertion above"
date = 2026-09-12

[[approval]]
node_id = "tests/tax.py::test_param[2019]"
approved_by = "li"
reason = "2019 row retired"
"""


def test_read_approvals(tmp_path: Path) -> None:
    got = read_approvals(write(tmp_path / "approvals.toml", APPROVALS))
    assert got == (
        Approval("tests/tax.py::test_legacy_bracket", "", "maria",
                 "product no longer ships 2019 brackets; see issue 1842", date(2026, 9, 13)),
        Approval("", "tests/tax.py::test_rates::assert::2", "li",
                 "duplicate of the assertion above", date(2026, 9, 12)),
        Approval("tests/tax.py::test_param[2019]", "", "li", "2019 row retired", None),
    )


def test_approves_covers_parametrized_ids_and_exact_anchors(tmp_path: Path) -> None:
    approvals = read_approvals(write(tmp_path / "approvals.toml", APPROVALS))
    first, second, third = approvals
    assert approves(approvals, "tests/tax.py::test_legacy_bracket") is first
    assert approves(approvals, "tests/tax.py::test_legacy_bracket[2019-low]") is first
    assert approves(approvals, "tests/tax.py::test_legacy_bracket_v2") is None
    assert approves(approvals, "tests/tax.py::test_rates::assert::2") is second
    assert approves(approvals, "tests/tax.py::test_rates") is None
    assert approves(approvals, "tests/tax.py::test_param[2019]") is third
    assert approves(approvals, "tests/tax.py::test_param[2020]") is None
    assert approves(approvals, "tests/tax.py::test_param") is None
    assert approves((), "tests/tax.py::test_legacy_bracket") is None


@pytest.mark.parametrize(("text", "pattern"), [
    ('[[approval]]\nnode_id = "a"\napproved_by = "m"\nreason = "r"\nby = "x"\n',
     r"approvals\.toml \[\[approval\]\] #1: unknown key 'by'"),
    ('[[approval]]\nnode_id = "a"\nreason = "r"\n',
     r"approvals\.toml \[\[approval\]\] #1: missing required key 'approved_by'"),
    ('[[approval]]\nnode_id = "a"\napproved_by = "m"\nreason = "r"\n'
     '[[approval]]\napproved_by = "m"\nreason = "r"\n',
     r"approvals\.toml \[\[approval\]\] #2: an approval needs 'node_id' or 'anchor'"),
    ('[[approval]]\nnode_id = "a"\napproved_by = "m"\nreason = "r"\ndate = "13.09.2026"\n',
     r"#1: key 'date' must be a date YYYY-MM-DD, got str '13.09.2026'"),
    ('[[approval]]\nnode_id = "a"\napproved_by = "m"\nreason = "r"\n'
     'date = 2026-09-13T10:00:00\n', r"#1: key 'date' must be a date YYYY-MM-DD, got datetime"),
    ('[[approval]]\nnode_id = 3\napproved_by = "m"\nreason = "r"\n',
     r"#1: key 'node_id' must be a string, got int 3"),
    ('[[approval]]\nnode_id = "a"\napproved_by = ""\nreason = "r"\n',
     r"#1: key 'approved_by' must not be empty"),
    ('[approvals]\nnode_id = "a"\n', r"approvals\.toml: unknown top-level key 'approvals'"),
    ('approval = "a"\n', r"approvals\.toml: 'approval' must be an array of tables"),
    ('[[approval]]\nnode_id = "a\n', r"approvals\.toml: malformed TOML: "),
])
def test_malformed_approvals(tmp_path: Path, text: str, pattern: str) -> None:
    with pytest.raises(InputError, match=pattern):
        read_approvals(write(tmp_path / "approvals.toml", text))


def test_empty_approvals_file(tmp_path: Path) -> None:
    assert read_approvals(write(tmp_path / "approvals.toml", "")) == ()


# --------------------------------------------------------------------------- docs


def test_docs_cover_every_field_and_rule() -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "ledgers.md").read_text()
    fields = ["test_id", "result", "run_id", "recorded_at", "env", "property_id", "fixture",
              "owner", "reason", "frozen_on", "expires_on", "status", "fixture_sha",
              "counts_as_pass", "blocks_merge", "seed", "node_id", "anchor", "approved_by",
              "date"]
    for name in fields:
        assert re.search(rf"`{name}`", doc), name
    for code in ("PS601", "PS602", "PS603", "PS604", "PS605", "PS606", "PS607", "PS608"):
        assert code in doc and SESSION.registry[code].name in doc, code
    assert "provscore ledger record" in doc


def test_docs_examples_read_as_documented(tmp_path: Path) -> None:
    doc = (Path(__file__).resolve().parent.parent / "docs" / "ledgers.md").read_text()
    blocks = re.findall(r"```(json|toml)\n(.*?)```", doc, flags=re.S)
    (flake_text, freeze_text, run_text) = [body for lang, body in blocks if lang == "json"]
    (toml_text,) = [body for lang, body in blocks  # the catalog's block: test_coverage.py
                    if lang == "toml" and "[[properties]]" not in body]
    flake = read_flake_ledger(write(tmp_path / "flake_ledger.jsonl", flake_text))
    assert [r.result for r in flake] == ["pass", "fail", "pass"]
    state = flake_states(flake, window=3, reentry_streak=5)[flake[0].test_id]
    assert state.results == ("pass", "fail", "pass") and state.state == "unscored"
    freeze_rows = read_freeze_ledger(write(tmp_path / "flake_freeze.json", freeze_text))
    assert check(freeze_rows, budget=2) == ()
    assert frozen_ids(freeze_rows, today=TODAY) == {"P1_cap", T}
    approvals = read_approvals(write(tmp_path / "removal_approvals.toml", toml_text))
    assert [a.approved_on for a in approvals] == [date(2026, 9, 13), date(2026, 9, 12)]
    from provscore.oracle.runlog import read_run_log

    [run] = read_run_log(write(tmp_path / "run_log.jsonl", run_text))
    assert (run.patch_id, run.verdict, run.wall_s, run.command) == ("pr-31", "reject", 19.204,
                                                                    "verify")
