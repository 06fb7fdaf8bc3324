"""Your own Python players in sweep and compare (simcore.players.python_run, play_run):
a run played game by game gives the batch run's very summary and tables, the docs'
example bot plays reproducibly from the seed, and a bad bot stops the command with one
line naming the variant or side, the player, the game and the position."""
import re

import pandas as pd
import pytest

from simcore import get_game, simulate
from simcore.players import python_run
from simcore.running.settings import RunSettings

from test_python_players import bots  # noqa: F401  (the fixture: mybots.py, badbots.py)


@pytest.mark.parametrize("game, policies", [
    ("schnapsen", ["heuristic", "random"]),
    ("schadenfreude", ["heuristic", "random", "random"]),
    ("wendish", ["heuristic", "random", "random", "random"]),
])
def test_a_python_driven_run_is_the_batch_run(game, policies):
    """Built-in players driven game by game through the Engine: every summary frame and
    table equals the kernels' (so a Python player's run is summarised the same way)."""
    g = get_game(game)
    rules = g.build_rules(players=3 if game == "schadenfreude" else None)
    s = RunSettings(games=40, seed=3, threads=1)
    kernel = simulate(game, rules, policies, settings=s)
    driven = python_run(game, rules, policies, s)
    assert sorted(kernel.summary) == sorted(driven.summary)
    for name in kernel.summary:
        pd.testing.assert_frame_equal(kernel.summary[name], driven.summary[name])
    assert sorted(kernel.tables) == sorted(driven.tables)
    for name in kernel.tables:
        pd.testing.assert_frame_equal(kernel.tables[name], driven.tables[name])


SWEEP = ["sweep", "schnapsen", "--vary", "close_min_talon=2,4", "--policy",
         "mybots:Greedy,heuristic", "--games", 40, "--seed", 5]
COMPARE = ["compare", "schnapsen", "--a", "austrian", "--b", "close_min_talon=2",
           "--policy", "mybots:Greedy,heuristic", "--games", 40, "--seed", 5]


def played_twice(invoke, args, name: str, folder) -> str:
    """Run ``args`` into folders a and b; the file ``name`` both wrote, which must agree."""
    for out in ("a", "b"):
        res = invoke(*args, "--out", out)
        assert res.exit_code == 0, res.output
    text = (folder / "a" / name).read_text()
    assert text == (folder / "b" / name).read_text()
    return text


def test_the_docs_bot_in_a_sweep_is_reproducible(bots, invoke):  # noqa: F811
    a = played_twice(invoke, SWEEP, "sweep.csv", bots)
    table = pd.read_csv(bots / "a" / "sweep.csv")
    assert set(table["policy"]) == {"mybots:Greedy", "heuristic"}
    assert (table["matches"] == 40).all()
    other = invoke(*SWEEP[:-1], 6, "--out", "c")
    assert other.exit_code == 0 and (bots / "c" / "sweep.csv").read_text() != a
    assert "players: mybots:Greedy (seat 0), heuristic (seat 1)" in other.output


def test_the_docs_bot_in_a_comparison_is_reproducible(bots, invoke):  # noqa: F811
    played_twice(invoke, COMPARE, "compare.csv", bots)
    table = pd.read_csv(bots / "a" / "compare.csv")
    assert set(table["policy_a"]) == {"mybots:Greedy", "heuristic"}
    # the Python player's side equals simulate's own Python-driven run of the same deals
    sim = invoke("simulate", "schnapsen", "--policy", "mybots:Greedy,heuristic", "--games",
                 40, "--seed", 5, "--out", "s")
    assert sim.exit_code == 0, sim.output
    seats = pd.read_csv(bots / "s" / "players.csv")
    wins = table[table["measure"] == "win"].sort_values("seat")
    assert list(wins["a"]) == pytest.approx(list(seats["win"]))


def test_a_rotated_comparison_and_a_skill_edge_take_the_bot(bots, invoke):  # noqa: F811
    r = invoke("compare", "schnapsen", "--a", "austrian", "--b", "close_min_talon=2",
               "--policy", "mybots:Greedy,heuristic", "--games", 30, "--seed", 2, "--rotate",
               "--out", "rot")
    assert r.exit_code == 0, r.output
    table = pd.read_csv(bots / "rot" / "compare.csv")
    assert set(table["policy_a"]) == {"mybots:Greedy", "heuristic"}
    r = invoke("sweep", "schnapsen", "--vary", "close_min_talon=2,4", "--policy", "heuristic",
               "--games", 30, "--seed", 2, "--skill", "mybots:Greedy,heuristic",
               "--check-games", 30, "--out", "sk")
    assert r.exit_code == 0, r.output
    skill = pd.read_csv(bots / "sk" / "skill.csv")
    assert set(skill["strong"]) == {"mybots:Greedy"}


@pytest.mark.parametrize("command, where", [(SWEEP, "variant close_min_talon=2"),
                                            (COMPARE, "rule set A")])
@pytest.mark.parametrize("player, says", [
    ("badbots:boom", r"raised ValueError: no such card second line$"),
    ("badbots:illegal", r"returned \d+ \(play \w\w\), not legal here; legal: \d+ \(play"),
])
def test_a_bad_bot_is_one_line(bots, invoke, command, where, player, says):  # noqa: F811
    args = [f"{player},heuristic" if a == "mybots:Greedy,heuristic" else a for a in command]
    r = invoke(*args, "--out", "run")
    assert r.exit_code == 1 and "Traceback" not in r.output
    line = r.stderr.strip().splitlines()[-1]
    assert re.search(rf"^Error: {where}: player {player} \(seat 0\) in game \d+, deal \d+ "
                     rf"after \d+ recorded actions?: {says}", line), line


def test_a_sweep_with_the_bot_on_a_worker_process_is_the_one_process_sweep(bots, invoke):  # noqa: F811
    r = invoke(*SWEEP, "--workers", 1, "--out", "w")
    assert r.exit_code == 0, r.output
    r = invoke(*SWEEP, "--out", "one")
    assert r.exit_code == 0, r.output
    assert (bots / "w" / "sweep.csv").read_text() == (bots / "one" / "sweep.csv").read_text()


@pytest.mark.parametrize("game, hand, policy", [
    ("schnapsen", "AH TH KH QH JC", "heuristic,random"),
    ("schadenfreude", "9C 9S 9H 8C 8S 10W 0W -3C", "heuristic,random,random,random"),
])
def test_a_hand_played_game_by_game_is_the_kernels_first_choice(game, hand, policy):
    """Built-in players driven through the Engine on a hand's deals give the kernel's
    'policy decides' row exactly (the same completions, the same play)."""
    from simcore.analysis.positions import hand_play, user_hand_play
    from simcore.games import get_hand
    g, mod = get_game(game), get_hand(game)
    rules = g.build_rules()
    su = mod.setup(rules, 0, None, hand, [])
    kernel = hand_play(g, mod, rules, su, 4)(policy, 3, 25)
    driven = user_hand_play(g, mod, rules, su, 4, policy)(policy, 3, 25)
    assert (driven[0][0] == kernel[0][0]).all() and (driven[1][0] == kernel[1][0]).all()


HAND = ["hand", "schnapsen", "--hand", "AH TH KH QH JC", "--trump-card", "JH", "--deals", 30,
        "--seed", 2]


def test_the_docs_bot_plays_a_hand_reproducibly(bots, invoke):  # noqa: F811
    r1 = invoke(*HAND, "--policy", "mybots:Greedy,heuristic")
    assert r1.exit_code == 0, r1.output
    assert "players: seat 0 mybots:Greedy, seat 1 heuristic" in r1.stdout
    assert "the start choices are compared with built-in players only" in r1.stdout
    rows = [ln for ln in r1.stdout.splitlines() if ln.strip().startswith("policy decides")]
    assert len(rows) == 1
    r2 = invoke(*HAND, "--policy", "mybots:Greedy,heuristic")
    assert r2.stdout == r1.stdout
    r3 = invoke(*HAND[:-1], 3, "--policy", "mybots:Greedy,heuristic")
    assert r3.exit_code == 0 and r3.stdout != r1.stdout


@pytest.mark.parametrize("player, says", [
    ("badbots:boom", r"raised ValueError: no such card second line$"),
    ("badbots:wrong_type", r"returned 'play' \(str\); a player returns an action code"),
])
def test_a_bad_bot_in_a_hand_is_one_line(bots, invoke, player, says):  # noqa: F811
    r = invoke(*HAND, "--policy", f"{player},heuristic")
    assert r.exit_code == 1 and "Traceback" not in r.output
    line = r.stderr.strip().splitlines()[-1]
    assert re.search(rf"^Error: player {player} \(seat 0\) in deal \d+ of this hand "
                     rf"\(--seed 2\) after \d+ actions? of its play: {says}", line), line


def test_the_docs_pettingzoo_loop_plays_the_bot(bots, monkeypatch, capsys):  # noqa: F811
    """docs/players-api.md's PettingZoo example, as a reader saves and runs it."""
    pytest.importorskip("pettingzoo")
    import runpy
    from pathlib import Path
    doc = (Path(__file__).parent.parent / "docs" / "players-api.md").read_text()
    m = re.search(r"<!-- example:pettingzoo_bot.py -->\n```python\n(.*?)```", doc, re.S)
    assert m, "docs/players-api.md lost its PettingZoo example"
    (bots / "pettingzoo_bot.py").write_text(m.group(1))
    runpy.run_path(str(bots / "pettingzoo_bot.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert re.search(r"Greedy's mean reward over 20 matches: [+-]0\.\d\d", out), out


def test_objects_and_callables_from_python(bots):  # noqa: F811
    """``simcore.sweep`` and ``simcore.compare`` take a player object or callable in the
    policy list, as ``play_games`` does (docs/players-api.md)."""
    import mybots
    from simcore import compare, sweep
    from simcore.experiments.sweep import parse_vary
    g = get_game("schnapsen")
    res = compare("schnapsen", g.build_rules(), g.build_rules(assignments=["close_min_talon=2"]),
                  [mybots.first_legal, mybots.Greedy()], games=30, seed=1, rotate=True)
    assert set(res.table["policy_a"]) == {"mybots:first_legal", "mybots:Greedy"}
    swept = sweep("schnapsen", parse_vary("schnapsen", ["close_min_talon=2,4"]),
                  policies=[mybots.first_legal, "heuristic"], games=30, seed=1)
    assert list(swept.table["policy"][:2]) == ["mybots:first_legal", "heuristic"]
