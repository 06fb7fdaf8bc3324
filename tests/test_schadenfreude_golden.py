"""Golden Schadenfreude records: hand-checked games replayed action by action.

The games are traced trick by trick in tests/golden/schadenfreude_README.md.
Every golden file must replay clean through ``tricksim replay`` and
``simcore.records.replay_file``; corrupted copies must fail with one line per bad
record naming the record, the deal, the action and the rule broken, and exit 1.
"""
from __future__ import annotations

import copy
import json

import pytest

import naive_schadenfreude as naive
from simcore.games.schadenfreude.rules import RULEBOOK
from simcore.records import replay_file

FILES = ["schadenfreude_3p.jsonl", "schadenfreude_4p.jsonl", "schadenfreude_5p.jsonl"]

# The hand-checked outcome of every golden record: (file, record number from 1) ->
# (rounds, [(points, scores) per round], result).
EXPECTED = {
    ("schadenfreude_3p.jsonl", 1): (
        [([0, 3, 2], [0, 3, 2]), ([-1, 5, 3], [0, 8, 5])],
        {"scores": [0, 8, 5], "winners": [2], "bust": [1], "unfinished": False}),
    ("schadenfreude_3p.jsonl", 2): (
        [([3, 3, 2], [3, 3, 2])],
        {"scores": [3, 3, 2], "winners": [2], "bust": [0, 1, 2], "unfinished": False}),
    ("schadenfreude_4p.jsonl", 1): (
        [([0, 0, 2, 6], [0, 0, 2, 6]), ([0, 0, 0, 5], [0, 0, 2, 11])],
        {"scores": [0, 0, 2, 11], "winners": [2], "bust": [3], "unfinished": False}),
    ("schadenfreude_5p.jsonl", 1): (
        [([0, -1, 11, 0, 0], [0, -1, 11, 0, 0])],
        {"scores": [0, -1, 11, 0, 0], "winners": [1], "bust": [2], "unfinished": False}),
}


@pytest.fixture(scope="module")
def golden(golden_dir, jsonl):
    """{file name: [record]} of every Schadenfreude golden file."""
    found = sorted(p.name for p in golden_dir.glob("schadenfreude_*.jsonl"))
    assert found == sorted(FILES)
    return {name: jsonl.read(golden_dir / name) for name in FILES}


def test_every_golden_record_is_hand_checked(golden):
    seen = {(name, i + 1) for name, recs in golden.items() for i in range(len(recs))}
    assert seen == set(EXPECTED)
    for (name, line), (rounds, result) in EXPECTED.items():
        rec = golden[name][line - 1]
        assert rec["game"] == "schadenfreude"
        assert [(d["end"]["points"], d["end"]["scores"]) for d in rec["deals"]] == rounds
        assert rec["result"] == result


def test_every_preset_and_player_count_has_a_golden_record(golden):
    """A variant without a golden record fails here (DESIGN: tests that carry weight)."""
    recs = [r for recs in golden.values() for r in recs]
    for preset, values in RULEBOOK.presets.items():
        assert any(all(r["rules"][k] == v for k, v in values.items()) and
                   (preset != "standard" or r["rules"]["all_bust"] == "none")
                   for r in recs), preset
    assert {r["rules"]["players"] for r in recs} == {3, 4, 5}
    assert {r["rules"]["pairs"] for r in recs} == {"cancel", "keep"}
    assert {str(r["rules"]["floor"]) for r in recs} >= {"0", "none"}


def test_golden_records_agree_with_the_reference(golden):
    for name, recs in golden.items():
        for rec in recs:
            rounds = [(d["start"]["leader"], [a[2] for a in d["actions"]]) for d in rec["deals"]]
            ref = naive.play_game(rec["rules"], rounds)
            assert {k: ref[k] for k in rec["result"]} == rec["result"], name
            for d, rd in zip(rec["deals"], ref["rounds"]):
                assert [sorted(h) for h in d["start"]["hands"]] == \
                    [sorted(h) for h in rd["hands"]]
                assert [sorted(p) for p in d["end"]["piles"]] == \
                    [sorted(p) for p in rd["piles"]]


@pytest.mark.parametrize("name", FILES)
def test_golden_file_replays_clean(name, golden_dir, invoke):
    count, failures = replay_file(golden_dir / name)
    assert failures == [] and count == len(EXPECTED_COUNTS[name])
    res = invoke("replay", golden_dir / name)
    assert res.exit_code == 0, res.output
    said = "1 record" if count == 1 else f"{count} records"
    assert res.stdout == f"{said} replayed, all valid\n"
    assert res.stderr == ""


EXPECTED_COUNTS = {name: [k for k in EXPECTED if k[0] == name] for name in FILES}


# ----- corrupted copies -----------------------------------------------------------------

def _revoke(rec):
    """Make a player discard while holding the lead suit: swap, within one seat's plays
    of a deal, a suit-following card with an off-suit card that seat plays later.
    Returns (deal, action, seat, card) of the now illegal play."""
    n = rec["rules"]["players"]
    for d, deal in enumerate(rec["deals"]):
        acts = deal["actions"]
        for a, (seat, _, card) in enumerate(acts):
            trick = [x[2] for x in acts[a - a % n:a]]
            ls = naive.lead_suit(trick)
            if ls is None or naive.suit(card) != ls:
                continue
            for b in range(a + 1, len(acts)):
                other = acts[b][2]
                if acts[b][0] == seat and not naive.is_wild(other) and naive.suit(other) != ls:
                    acts[a][2], acts[b][2] = other, card
                    return d, a, seat, other
    raise AssertionError("no revoke possible in this record")


def _set(path, value):
    def change(rec):
        obj = rec
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value
    return change


def _dealt_twice(rec):
    hands = rec["deals"][0]["start"]["hands"]
    hands[0][0] = hands[1][0]


def _wrong_seat(rec):
    acts = rec["deals"][0]["actions"]
    acts[1][0] = acts[0][0]


def _extra_round(rec):
    rec["deals"].append(copy.deepcopy(rec["deals"][-1]))


def _points_off(rec):
    rec["deals"][0]["end"]["points"][1] += 1


def _pile_off(rec):
    piles = rec["deals"][0]["end"]["piles"]
    piles[2] = piles[2][:-1]


def _scores_unfloored(rec):
    end = rec["deals"][1]["end"]
    end["scores"][0] = -1
    rec["deals"][1]["end"] = end


def _aside_short(rec):
    rec["deals"][0]["start"]["aside"].pop()


# (label, change, expected message after "record 0 (line 1), ") against the first record
# of the 3-player file (rounds: leader s1 then s0; scores after round 1 0 3 2; see the README).
CORRUPTIONS = [
    ("wrong end.points", _points_off,
     "deal 0: end.points[1] is 4; the rules give 3"),
    ("wrong pile", _pile_off, "deal 0: end.piles[2] is"),
    ("no floor applied", _scores_unfloored,
     "deal 1: end.scores[0] is -1; the rules give 0"),
    ("wrong winner", _set(["result", "winners"], [0]),
     "result.winners[0] is 0; the rules give 2"),
    ("wrong bust", _set(["result", "bust"], []), "result.bust holds 0 values; the rules give 1: [1]"),
    ("claims unfinished", _set(["result", "unfinished"], True),
     "result.unfinished is true; the rules give false"),
    ("card dealt twice", _dealt_twice, "deal 0: a card is dealt twice"),
    ("card missing", _aside_short,
     "deal 0: the hands and the aside cards are not exactly the deck of these rules"),
    ("wrong leader", _set(["deals", 1, "start", "leader"], 1),
     "deal 1: leader 1 is not allowed here; allowed: [0]"),
    ("out of turn", _wrong_seat, "deal 0, action 1: it is seat 2's turn, not seat 1's"),
    ("wrong start scores", _set(["deals", 1, "start", "scores"], [0, 0, 0]),
     "deal 1: start.scores[1] is 0; the rules give 3"),
    ("round after the end", _extra_round, "deal 1: the game should have ended"),
    ("unknown card", _set(["deals", 0, "actions", 0, 2], "11H"),
     "deal 0, action 0: the card played: '11H' is not a Schadenfreude card"),
    ("bad rules", _set(["rules", "players"], 6), "option 'players': 6 is not allowed"),
    ("unknown game", _set(["game"], "bridge"), "unknown game 'bridge'"),
    ("a pile card listed twice", _set(["deals", 0, "end", "piles", 1], ["3H", "3H"]),
     "deal 0: end.piles[1] is ['3H', '3H']; the rules give ['3H']"),
    ("leader true", _set(["deals", 1, "start", "leader"], True),
     "deal 1: leader True is not allowed here; allowed: [0]"),
    ("seat true", _set(["deals", 0, "actions", 0, 0], True),
     "deal 0, action 0: it is seat 1's turn, not seat True's"),
]


def _corrupt_file(tmp_path, golden, jsonl, change, line=1):
    recs = copy.deepcopy(golden["schadenfreude_3p.jsonl"])
    out = change(recs[line - 1])
    path = jsonl.write(tmp_path / "bad.jsonl", recs)
    return path, out


def _check_failure(path, invoke, expected_line, expected_count=2):
    count, failures = replay_file(path)
    assert count == expected_count and len(failures) == 1
    res = invoke("replay", path)
    assert res.exit_code == 1
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert "Traceback" not in res.output
    assert res.stdout == ""
    lines = res.stderr.splitlines()
    assert lines == [str(failures[0]), f"1 of {expected_count} records failed"]
    assert lines[0].startswith(expected_line), lines[0]
    return failures[0]


@pytest.mark.parametrize("label, change, message", CORRUPTIONS, ids=[c[0] for c in CORRUPTIONS])
def test_corrupted_record_fails_naming_where_and_why(label, change, message, tmp_path,
                                                      golden, jsonl, invoke):
    path, _ = _corrupt_file(tmp_path, golden, jsonl, change)
    _check_failure(path, invoke, "record 0 (line 1), " + message if message.startswith("deal")
                   else "record 0 (line 1): " + message)


def test_illegal_play_not_following_suit(tmp_path, golden, jsonl, invoke):
    path, (deal, action, seat, card) = _corrupt_file(tmp_path, golden, jsonl, _revoke)
    f = _check_failure(path, invoke, f"record 0 (line 1), deal {deal}, action {action}: ")
    assert (f.line, f.deal, f.action) == (1, deal, action)
    assert f"seat {seat} must follow the lead suit" in f.message and card in f.message


def test_only_the_bad_record_is_reported(tmp_path, golden, jsonl, invoke):
    path, _ = _corrupt_file(tmp_path, golden, jsonl, _points_off, line=2)
    f = _check_failure(path, invoke, "record 1 (line 2), deal 0: end.points[1] is 4; "
                                     "the rules give 3")
    assert f.line == 2 and f.deal == 0 and f.action is None


def test_malformed_json_line(tmp_path, golden, jsonl, invoke):
    recs = [json.dumps(r) for r in golden["schadenfreude_3p.jsonl"]]
    recs[0] = recs[0][:-5]
    path = jsonl.write(tmp_path / "bad.jsonl", recs)
    _check_failure(path, invoke, "record 0 (line 1): not valid JSON")


def test_every_record_of_a_file_is_checked(tmp_path, golden, jsonl, invoke):
    recs = copy.deepcopy(golden["schadenfreude_3p.jsonl"])
    _points_off(recs[0])
    recs[1]["result"]["winners"] = []
    path = jsonl.write(tmp_path / "bad.jsonl", recs)
    res = invoke("replay", path)
    assert res.exit_code == 1
    assert res.stderr.splitlines() == [
        "record 0 (line 1), deal 0: end.points[1] is 4; the rules give 3",
        "record 1 (line 2): result.winners holds 0 values; the rules give 1: [2]",
        "2 of 2 records failed"]


def test_replay_of_a_missing_file_is_one_line(tmp_path, invoke):
    res = invoke("replay", tmp_path / "nope.jsonl")
    assert res.exit_code == 1
    assert res.stderr.startswith("Error: cannot read ") and len(res.stderr.splitlines()) == 1
