"""Your own Python players (simcore/players.py, docs/players-api.md): the documented
example runs in simulate, runs are reproducible, and bad players get one line naming
the player, the game index and the position."""
import json
import re
import sys
from pathlib import Path

import pytest

from simcore import engine, get_game
from simcore.errors import RulesError, TricksimError
from simcore.players import PlayerError, is_user_policy, play_games

DOC = Path(__file__).parent.parent / "docs" / "players-api.md"


def example_source() -> str:
    """The worked example of docs/players-api.md, as its reader would save it."""
    m = re.search(r"<!-- example:mybots.py -->\n```python\n(.*?)```", DOC.read_text(), re.S)
    assert m, "docs/players-api.md lost its worked example"
    return m.group(1)


BAD = '''
import time
def wrong_type(obs):
    return "play"
def illegal(obs):
    return next(a for a in range(29) if a not in obs.legal)
def beyond(obs):
    return 99
def boom(obs):
    if obs.index == 1:
        raise ValueError("no such card\\nsecond line")
    return obs.legal[0]
def forever(obs):
    while True:
        pass
def flag(obs):
    return True
'''


@pytest.fixture
def bots(tmp_path, monkeypatch):
    """mybots.py (the docs' example) and badbots.py in an importable folder."""
    (tmp_path / "mybots.py").write_text(example_source())
    (tmp_path / "badbots.py").write_text(BAD)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield tmp_path
    for name in ("mybots", "badbots"):
        sys.modules.pop(name, None)


def test_user_policy_names():
    assert is_user_policy("mybots:Greedy") and is_user_policy("a.b.c:D.e")
    for name in ("heuristic", "pimc:worlds=8", "pimc:worlds=8,goal=deal", "pimc", "x:y=1",
                 "expert:fast"):
        assert not is_user_policy(name), name


def test_documented_example_runs_in_simulate_reproducibly(bots, invoke):
    args = ["simulate", "schnapsen", "--policy", "mybots:Greedy,heuristic", "--games", 12,
            "--seed", 5]
    r1 = invoke(*args, "--out", "a", "--records", "a.jsonl")
    assert r1.exit_code == 0, r1.output
    assert "mybots:Greedy" in r1.stdout and "Python players: mybots:Greedy:" in r1.stderr
    r2 = invoke(*args, "--out", "b", "--records", "b.jsonl")
    assert r2.exit_code == 0, r2.output
    assert (bots / "a.jsonl").read_text() == (bots / "b.jsonl").read_text()
    assert (bots / "a" / "players.csv").read_text() == (bots / "b" / "players.csv").read_text()
    recs = [json.loads(x) for x in (bots / "a.jsonl").read_text().splitlines()]
    assert len(recs) == 12 and recs[0]["policies"] == ["mybots:Greedy", "heuristic"]
    for rec in recs:                      # every record replays under the rules
        get_game("schnapsen").replay(rec)
    # the folder is marked as ours: simulate's batch run does not write into it
    r3 = invoke("simulate", "schnapsen", "--games", 10, "--seed", 1, "--out", "a")
    assert r3.exit_code == 1 and "players.json" in r3.output


def test_seed_changes_the_python_players_randomness(bots):
    import mybots
    a = play_games("schnapsen", None, [mybots.Greedy, "random"], games=3, seed=1)
    b = play_games("schnapsen", None, [mybots.Greedy, "random"], games=3, seed=1)
    c = play_games("schnapsen", None, [mybots.Greedy, "random"], games=3, seed=2)
    assert a == b and a != c


def test_builtin_only_play_equals_the_engines_record():
    eng = engine("schnapsen")
    rec = play_games("schnapsen", None, ["heuristic", "random"], games=1, seed=9, start=4)[0]
    assert rec == eng.play(9, 4, ["heuristic", "random"])


def test_callables_and_objects_from_python(bots):
    import mybots
    recs = play_games("schadenfreude", None, [mybots.first_legal, "heuristic", "random",
                                              "random"], games=2, seed=3)
    assert recs[0]["policies"][0] == "mybots:first_legal"

    class Counter:
        calls = 0

        def act(self, obs):
            Counter.calls += 1
            assert obs.tensor.shape == (engine("wendish").observation_spec.size,)
            return int(obs.rng.choice(obs.legal))
    play_games("wendish", None, [Counter()], games=1, seed=1)
    assert Counter.calls > 10


@pytest.mark.parametrize("player,says", [
    ("badbots:wrong_type", r"returned 'play' \(str\); a player returns an action code"),
    ("badbots:flag", r"returned True \(bool\)"),
    ("badbots:illegal", r"returned \d+ \(play \w\w\), not legal here; legal: \d+ \(play"),
    ("badbots:beyond", r"returned 99 \(no action\), not legal here; legal: "),
    ("badbots:boom", r"raised ValueError: no such card second line$"),
    ("badbots:forever", r"no action within 0.2 s \(the decision timeout\)"),
])
def test_bad_players_get_one_line(bots, invoke, player, says):
    r = invoke("simulate", "schnapsen", "--policy", f"heuristic,{player}", "--games", 3,
               "--seed", 1, "--player-timeout", 0.2, "--out", "run")
    assert r.exit_code == 1 and "Traceback" not in r.output
    line = r.stderr.strip().splitlines()[-1]
    assert re.search(rf"^Error: player {player} \(seat 1\) in game \d+, deal \d+ after \d+ "
                     rf"recorded actions?: {says}", line), line
    if player == "badbots:boom":
        assert "in game 1," in line
    assert not (bots / "run").exists()          # nothing written for a failed run


def test_error_position_replays_to_the_decision(bots):
    seen = []

    def spy(obs):
        seen.append(obs.tensor.copy())
        if len(seen) == 7:
            raise RuntimeError("stop")
        return obs.legal[0]
    with pytest.raises(PlayerError) as err:
        play_games("schnapsen", None, [spy, "heuristic"], games=1, seed=2)
    m = re.search(r"in game 0, deal (\d+) after (\d+) recorded", str(err.value))
    deal, upto = int(m.group(1)), int(m.group(2))
    # the same play with a player that stops there gives the record prefix
    n = []

    def same(obs):
        n.append(1)
        return obs.legal[0]
    eng = engine("schnapsen")
    full = play_games("schnapsen", None, [same, "heuristic"], games=1, seed=2)[0]
    st = eng.from_record(full, deal, upto)
    assert (eng.observation(st, eng.to_move(st)) == seen[-1]).all()


def test_bad_specs_are_one_line(bots, invoke):
    r = invoke("simulate", "schnapsen", "--policy", "nosuchmod:Bot", "--games", 2)
    assert r.exit_code == 1 and "cannot import nosuchmod" in r.output
    r = invoke("simulate", "schnapsen", "--policy", "mybots:Nope", "--games", 2)
    assert r.exit_code == 1 and "mybots has no attribute Nope" in r.output
    r = invoke("simulate", "schnapsen", "--policy", "mybots:CARDS", "--games", 2)
    assert r.exit_code == 1 and "CARDS is a int; a player is a callable" in r.output
    r = invoke("simulate", "schnapsen", "--policy", "mybots:Greedy", "--rotate")
    assert r.exit_code == 1 and "--rotate needs at least two different policies" in r.output
    with pytest.raises(RulesError, match="is a Python player"):
        g = get_game("schnapsen")
        g.policy_ids("mybots:Greedy,heuristic", g.build_rules())
    with pytest.raises(TricksimError, match="a player must be"):
        play_games("schnapsen", None, [3, "heuristic"], games=1, seed=1)


def test_documented_example_runs_in_analyse_reproducibly(bots, invoke):
    """``tricksim analyse --policy MODULE:ATTR``: every world's play-out is driven through
    the Engine API, the player's randomness from (seed, world, seat), so a rerun with the
    same seed gives the same table."""
    invoke("simulate", "schnapsen", "--policy", "heuristic", "--games", 2, "--seed", 7,
            "--records", bots / "r.jsonl", "--out", bots / "run")
    args = ["analyse", bots / "r.jsonl", "--deal", 0, "--at", 2, "--worlds", 12,
            "--policy", "mybots:Greedy,heuristic", "--seed", 3]
    r1, r2 = invoke(*args), invoke(*args)
    assert r1.exit_code == 0, r1.output
    assert "seat 0 mybots:Greedy, seat 1 heuristic" in r1.stdout
    table = [ln for ln in r1.stdout.splitlines() if ln.lstrip(" *<").startswith(("play", "close",
                                                                                  "claim"))]
    assert table and table == [ln for ln in r2.stdout.splitlines() if ln in table]
    other = invoke(*args[:-1], 4)
    assert other.exit_code == 0


def test_a_bad_player_in_analyse_is_one_line_naming_the_world(bots, invoke):
    invoke("simulate", "schnapsen", "--policy", "heuristic", "--games", 1, "--seed", 7,
            "--records", bots / "r.jsonl", "--out", bots / "run")
    r = invoke("analyse", bots / "r.jsonl", "--deal", 0, "--at", 2, "--worlds", 5,
                "--policy", "badbots:wrong_type")
    assert r.exit_code != 0 and "Traceback" not in r.output
    line = r.output.strip().splitlines()[-1]
    assert line.startswith("Error: player badbots:wrong_type (seat ")
    assert "in world 0 of the position after action 2 of deal 0" in line
    assert "returned 'play'" in line


def test_the_batch_kernels_name_the_commands_python_players_run_in():
    g = get_game("schnapsen")
    with pytest.raises(RulesError, match="Python players run in simulate, sweep, compare, "
                                         "hand, tournament, play and analyse"):
        g.policy_ids("mybots:Greedy,heuristic", g.build_rules())


def test_play_takes_a_python_bot_and_its_errors_are_one_line(bots, invoke, tmp_path):
    """``tricksim play --policy MODULE:ATTR``: the bot plays through the same decision
    path as simulate (its observation, its seat's generator, the same one-line errors)."""
    from simcore.records import replay_file
    res = invoke("play", "schnapsen", "--seat", 0, "--seed", 3, "--policy", "mybots:Greedy",
                 "--save", "g.jsonl", input="1\n" * 500)
    assert res.exit_code == 0, res.output
    assert "seat 1 mybots:Greedy" in res.stdout
    rec = json.loads((tmp_path / "g.jsonl").read_text())
    assert rec["policies"] == ["human", "mybots:Greedy"]
    assert replay_file(tmp_path / "g.jsonl") == (1, [])
    bad = invoke("play", "schnapsen", "--seat", 0, "--seed", 3, "--policy", "badbots:beyond",
                 "--no-save", input="1\n" * 500)
    assert bad.exit_code != 0
    assert re.search(r"player badbots:beyond \(seat 1\) in game 0, deal 0 after \d+ recorded "
                     r"actions?: returned 99 \(no action\), not legal here", bad.output)
