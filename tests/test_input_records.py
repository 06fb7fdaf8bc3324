"""Bad record files are reported record by record, never as a traceback (issue 9,
item 7): a game that is not a name, a byte that is not UTF-8, numbers no record can
hold, lines that never end."""
from __future__ import annotations

import json
import os

import pytest

import simcore.records
from simcore import game_names, get_game
from simcore.records import check_numbers, replay_file
from simcore.errors import ReplayError


@pytest.fixture(scope="module")
def records(game_records):
    """Three valid records of each game, as dicts."""
    out = {}
    for name in game_names():
        rules = get_game(name).build_rules()
        out[name] = game_records(name, rules, ["random"], 7, [0, 1, 2])
    return out


def lines_of(*recs) -> bytes:
    return b"".join((r if isinstance(r, bytes) else json.dumps(r).encode()) + b"\n"
                    for r in recs)


def replayed(invoke, tmp_path, data: bytes):
    (tmp_path / "r.jsonl").write_bytes(data)
    res = invoke("replay", "r.jsonl")
    assert isinstance(res.exception, SystemExit) or res.exception is None, res.exception
    assert "Traceback" not in res.output
    return res


@pytest.mark.parametrize("game", [[], {}, 7, None, True])
def test_a_game_that_is_not_a_name_fails_that_record(invoke, tmp_path, records, game):
    res = replayed(invoke, tmp_path, lines_of(records["schnapsen"][0], {"game": game}))
    assert res.exit_code == 1
    assert res.stderr.splitlines() == [
        f"record 1 (line 2): unknown game {game!r}; games: {', '.join(game_names())}",
        "1 of 2 records failed"]


def test_a_non_utf8_byte_fails_that_record_only(invoke, tmp_path, records):
    good = records["schadenfreude"]
    bad = json.dumps(good[1]).encode().replace(b'"random"', b'"r\xe9ndom"', 1)
    res = replayed(invoke, tmp_path, lines_of(good[0], bad, good[2]))
    assert res.exit_code == 1
    column = bad.index(b"\xe9") + 1
    assert res.stderr.splitlines() == [
        f"record 1 (line 2): not UTF-8 text: byte 0xe9 at column {column}; records are UTF-8",
        "1 of 3 records failed"]


def test_records_after_a_bad_byte_are_still_replayed(tmp_path, records):
    good = records["wendish"]
    (tmp_path / "r.jsonl").write_bytes(lines_of(b"\xff\xfe", *good, b"{\x80}"))
    count, failures = replay_file(tmp_path / "r.jsonl")
    assert count == 5 and [f.line for f in failures] == [1, 5]


@pytest.mark.parametrize("where, value, named", [
    (("seed",), 10**20, "'seed' is 100000000000000000000, outside the 64-bit"),
    (("index",), 2**64, "'index' is 18446744073709551616, outside the 64-bit"),
    (("index",), -(2**63) - 1, "'index' is -9223372036854775809, outside"),
    (("deals", 0, "actions", 3, 0), 10**25, "'deals[0].actions[3][0]' is 1000000000"),
    (("rules", "limit"), 10**400, "'rules.limit' is an integer of 401 digits, outside"),
    (("result", "scores", 1), 2**63, "'result.scores[1]' is 9223372036854775808"),
])
def test_absurd_integers_are_refused_before_the_game_sees_them(invoke, tmp_path, records,
                                                                where, value, named):
    rec = json.loads(json.dumps(records["schadenfreude"][0]))
    target = rec
    for key in where[:-1]:
        target = target[key]
    target[where[-1]] = value
    res = replayed(invoke, tmp_path, lines_of(rec))
    assert res.exit_code == 1
    assert res.stderr.splitlines()[0].startswith("record 0 (line 1): " + named)


@pytest.mark.parametrize("text, message", [
    ('{"game": "wendish", "seed": NaN}', "not valid JSON: NaN is not a JSON number"),
    ('{"game": "wendish", "seed": -Infinity}', "not valid JSON: -Infinity is not a JSON number"),
    ('{"game": "wendish", "seed": 1e400}', "'seed' is inf, not a finite number"),
    ("[" * 100_000 + "]" * 100_000, "not a record: JSON nested too deeply"),
])
def test_numbers_json_does_not_have_fail_that_record(invoke, tmp_path, text, message):
    res = replayed(invoke, tmp_path, text.encode() + b"\n")
    assert res.exit_code == 1
    assert res.stderr.splitlines()[0] == "record 0 (line 1): " + message


def test_the_largest_int64_values_reach_the_game(records):
    """Inside the range, the numbers pass the generic check; the game judges them."""
    rec = json.loads(json.dumps(records["wendish"][0]))
    rec["seed"] = 2**63 - 1
    rec["deals"][0]["actions"][0][0] = -(2**63)
    check_numbers(rec)
    with pytest.raises(ReplayError, match="-9223372036854775808"):
        simcore.records.replay_one(rec)


def test_a_line_longer_than_the_bound_ends_the_reading(tmp_path, records, monkeypatch):
    monkeypatch.setattr(simcore.records, "MAX_RECORD_BYTES", 4096)
    good = records["schnapsen"][0]
    long = lines_of(good)[:-1] + b" " * 10_000 + b"\n"           # valid JSON, too long
    (tmp_path / "r.jsonl").write_bytes(lines_of(good) + long + lines_of(good))
    count, failures = replay_file(tmp_path / "r.jsonl")
    assert count == 2 and len(failures) == 1 and failures[0].line == 2
    assert "longer than 4,096 bytes" in failures[0].message


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="no /dev/zero")
def test_replay_of_dev_zero_is_one_bounded_failure(invoke, monkeypatch):
    monkeypatch.setattr(simcore.records, "MAX_RECORD_BYTES", 1 << 20)
    res = invoke("replay", "/dev/zero")
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit)
    assert res.stderr.splitlines() == [
        "record 0 (line 1): longer than 1,048,576 bytes; allowed: one record per line of at most "
        "1,048,576 bytes (the rest of the file is not read)", "1 of 1 record failed"]


def test_valid_records_of_every_game_still_replay(invoke, tmp_path, records):
    res = replayed(invoke, tmp_path, lines_of(*(r for recs in records.values() for r in recs)))
    assert res.exit_code == 0, res.output
    assert res.stdout == f"{3 * len(game_names())} records replayed, all valid\n"
