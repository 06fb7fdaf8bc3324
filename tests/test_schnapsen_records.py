"""Schnapsen records: golden matches replayed action by action, corrupted copies,
exact reproduction from (seed, index), and the CLI round trip.

Hand-checked: the first deal of the first record of schnapsen_austrian.jsonl.
Seat 0 deals, clubs are trumps (AC face up), seat 1 leads.  TS/JC: seat 0 trumps
(12, one trick).  JH/AH to seat 1 (13).  Seat 1 shows the trump marriage (40, it
has a trick) and leads QC; KH (7): 20 in tricks + 40.  Seat 1 closes (seat 0 then
has 12 points and one trick), shows the spade marriage (20): 80, claims.  The
closer claimed correctly; at the close the opponent had a trick but fewer than
33 points, so seat 1 scores 2.
"""
from __future__ import annotations

import json

import pytest

from simcore.errors import ReplayError
from simcore.games.schnapsen import GAME
from simcore.games.schnapsen.records import replay_record
from simcore.games.schnapsen.rules import RULEBOOK


def golden(golden_dir, jsonl, name):
    return jsonl.read(golden_dir / f"schnapsen_{name}.jsonl")


@pytest.mark.parametrize("name", ["austrian", "tournament"])
def test_golden_records_replay(golden_dir, jsonl, name):
    for rec in golden(golden_dir, jsonl, name):
        replay_record(rec)


@pytest.mark.parametrize("name", ["austrian", "tournament"])
def test_golden_records_reproduce_from_seed_and_index(golden_dir, jsonl, name):
    for rec in golden(golden_dir, jsonl, name):
        rules = RULEBOOK.from_dict(rec["rules"])
        names, ids = GAME.policy_ids(rec["policies"], rules)
        assert GAME.record(rules, names, ids, rec["seed"], rec["index"]) == rec


def test_every_preset_has_a_golden_record(golden_dir, jsonl):
    recs = golden(golden_dir, jsonl, "austrian") + golden(golden_dir, jsonl, "tournament")
    seen = {json.dumps(r["rules"], sort_keys=True) for r in recs}
    for preset in RULEBOOK.presets:
        assert json.dumps(RULEBOOK.build(preset).to_dict(), sort_keys=True) in seen, preset


def test_hand_checked_deal(golden_dir, jsonl):
    deal = golden(golden_dir, jsonl, "austrian")[0]["deals"][0]
    assert deal["start"]["dealer"] == 0 and deal["start"]["trump_card"] == "AC"
    assert deal["actions"][7:] == [[1, "close"], [1, "marriage", "S"], [1, "claim"]]
    assert deal["end"] == {"winner": 1, "game_points": 2, "reason": "claim",
                           "card_points": [12, 80], "tricks": [1, 2]}


@pytest.mark.parametrize("line, where, message", [
    (0, (0, 8), "seat 1 does not hold king and queen of H"),
    (1, (0, None), "end.game_points is 3; the rules give 2"),
    (2, (1, None), "dealer 0 is not allowed here; allowed: [1] (the deal alternates)"),
])
def test_corrupted_records_fail_with_the_right_message(golden_dir, jsonl, line, where,
                                                       message):
    rec = golden(golden_dir, jsonl, "corrupt")[line]
    with pytest.raises(ReplayError) as exc:
        replay_record(rec)
    assert message in str(exc.value)
    assert (exc.value.deal, exc.value.action) == where


def test_more_corruptions(golden_dir, jsonl):
    rec = golden(golden_dir, jsonl, "austrian")[0]

    def fails(edit, message):
        bad = json.loads(json.dumps(rec))
        edit(bad)
        with pytest.raises(ReplayError, match=message):
            replay_record(bad)

    fails(lambda r: r["deals"][0]["start"]["talon"].__setitem__(0, "KC"), "dealt twice")
    fails(lambda r: r["deals"][0]["actions"].insert(0, [0, "claim"]), "seat 1's turn")
    fails(lambda r: r["deals"][0]["actions"].pop(), "end before the deal is over")
    fails(lambda r: r["deals"].pop(), "the match is not over")
    fails(lambda r: r["result"].__setitem__("match_points", [0, 0]), "result.match_points")
    fails(lambda r: r["deals"][0]["actions"].__setitem__(0, [1, "dance"]), "unknown verb")


def test_cli_records_round_trip(invoke, tmp_path):
    res = invoke("simulate", "schnapsen", "--games", 30, "--seed", 4, "--policy",
                 "heuristic,random", "--records", "r.jsonl", "--out", "run", "--threads", 1)
    assert res.exit_code == 0, res.output
    assert "[deal_ends]" in res.stdout and "failed_close" in res.stdout
    assert (tmp_path / "run" / "deals.parquet").exists()
    res = invoke("replay", "r.jsonl")
    assert res.exit_code == 0 and "30 records replayed, all valid" in res.stdout
    # a record of game index i is what a run with that seed plays
    rec = json.loads((tmp_path / "r.jsonl").read_text().splitlines()[7])
    rules = RULEBOOK.from_dict(rec["rules"])
    names, ids = GAME.policy_ids(rec["policies"], rules)
    assert GAME.record(rules, names, ids, 4, 7) == rec


def test_cli_user_errors(invoke):
    res = invoke("simulate", "schnapsen", "--games", 5, "--set", "target=0")
    assert res.exit_code == 1 and "option 'target'" in res.output
    res = invoke("simulate", "schnapsen", "--games", 5, "--policy", "clever")
    assert res.exit_code == 1 and "policies: random, heuristic, sloppy" in res.output
    res = invoke("simulate", "schnapsen", "--games", 5, "--players", 3)
    assert res.exit_code == 1 and "2 players" in res.output
