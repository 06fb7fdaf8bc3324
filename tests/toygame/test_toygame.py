"""The toy game through every command, as a user runs them (docs/adding-a-game.md):
registered by one line in tests/conftest.py, it is simulated, replayed, shown, swept,
compared, and its hands and positions analysed with no edit in any command."""
import json

from simcore import simulate
from simcore.games import game_names, get_game


def test_registered_by_its_entry():
    assert "toygame" in game_names()
    assert get_game("toygame").rulebook.presets.keys() == {"standard", "duel"}


def test_simulate_and_replay(invoke, tmp_path):
    res = invoke("simulate", "toygame", "--games", 40, "--seed", 3, "--policy",
                 "heuristic,random,random", "--records", "r.jsonl", "--out", "run")
    assert res.exit_code == 0, res.output
    assert "players: heuristic (seat 0), random (seat 1), random (seat 2)" in res.output
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    assert len(lines) == 40 and json.loads(lines[5])["index"] == 5
    res = invoke("replay", "r.jsonl")
    assert res.exit_code == 0, res.output
    assert "40" in res.output
    shown = invoke("replay", "r.jsonl", "--show", "--index", 2)
    assert shown.exit_code == 0, shown.output
    assert "game over: winner" in shown.output and "the trick to" in shown.output
    # a tampered record fails replay, naming the action
    rec = json.loads(lines[0])
    rec["deals"][0]["actions"][1][2] = rec["deals"][0]["actions"][0][2]
    (tmp_path / "bad.jsonl").write_text(json.dumps(rec) + "\n")
    bad = invoke("replay", "bad.jsonl")
    assert bad.exit_code == 1 and "action 1" in bad.stderr, bad.output


def test_the_default_players_and_the_records_match_the_batch(tmp_path):
    g = get_game("toygame")
    rules = g.build_rules(preset="duel")
    run = simulate("toygame", rules, None, 30, 9, threads=1)
    assert list(run.summary["seats"]["policy"]) == ["random", "random"]   # the API's default
    first = run.tables["games"].iloc[4]
    rec = g.record(rules, ["random", "random"], [0, 0], 9, 4)
    assert [int(first["score_0"]), int(first["score_1"])] == rec["result"]["points"]
    assert sum(rec["result"]["points"]) == 6 + 1                  # six tricks, last worth 2


def test_sweep_and_compare(invoke):
    res = invoke("sweep", "toygame", "--vary", "players=2,3", "--games", 60, "--seed", 1,
                 "--out", "sw")
    assert res.exit_code == 0, res.output
    assert "players=2" in res.output and "players=3" in res.output
    res = invoke("compare", "toygame", "--a", "standard", "--b", "last_bonus=true",
                 "--games", 60, "--seed", 1, "--out", "cmp")
    assert res.exit_code == 0, res.output
    assert "evidence" in res.output


def test_hand_and_analyse(invoke):
    res = invoke("hand", "toygame", "--hand", "AC AS AH KC", "--deals", 200, "--policy",
                 "heuristic")
    assert res.exit_code == 0, res.output
    assert "seat 0 of 3 holds AC AS AH KC" in res.output and "policy plays" in res.output
    invoke("simulate", "toygame", "--games", 3, "--seed", 5, "--policy", "heuristic",
           "--records", "r.jsonl")
    res = invoke("analyse", "r.jsonl", "--index", 1, "--at", 4, "--worlds", 30,
                 "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    assert "consistent with seat" in res.output and "the record played: play" in res.output
    # a game without an open-card solver (no ``open_values``) says so in one line
    res = invoke("analyse", "r.jsonl", "--at", 2, "--open")
    assert res.exit_code == 1 and "--open: toygame has no open-card solver" in res.stderr
    res = invoke("hand", "toygame", "--hand", "AC XX")
    assert res.exit_code == 1 and "not a card" in res.stderr
