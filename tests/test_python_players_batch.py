"""Your own Python players in ``simulate --rotate`` and in batch plans: every rotation and
every plan run is played game by game in this process through ``play_run`` (the
per-decision seeds of ``simulate``), reproducibly, written as any run folder, and a bad
bot stops the command with one line naming the rotation or the plan's run, the player,
the game and the position."""
import json
import re

import pandas as pd
import pytest

from simcore import get_game
from simcore.players import python_run
from simcore.running.settings import RunSettings

from test_python_players import bots  # noqa: F401  (the fixture: mybots.py, badbots.py)

ROTATE = ["simulate", "schnapsen", "--policy", "mybots:Greedy,heuristic", "--games", 24,
          "--seed", 4, "--rotate"]


def test_a_rotated_run_takes_the_bot_reproducibly(bots, invoke):  # noqa: F811
    for out in ("a", "b"):
        r = invoke(*ROTATE, "--out", out)
        assert r.exit_code == 0, r.output
    for name in ("rotation.csv", "rotation_diff.csv", "rotations/r1/summary.csv"):
        assert (bots / "a" / name).read_text() == (bots / "b" / name).read_text(), name
    table = pd.read_csv(bots / "a" / "rotation.csv")
    assert set(table["policy"]) == {"mybots:Greedy", "heuristic"}
    # rotation 1 is the plain Python-driven run with the seats swapped: the same games
    run = json.loads((bots / "a" / "rotations" / "r1" / "run.json").read_text())
    assert run["policies"] == ["heuristic", "mybots:Greedy"] and run["seed"] == 4
    g = get_game("schnapsen")
    direct = python_run("schnapsen", g.build_rules(), ["heuristic", "mybots:Greedy"],
                        RunSettings(games=24, seed=4, threads=1))
    games = pd.read_parquet(bots / "a" / "rotations" / "r1" / "games.parquet")
    pd.testing.assert_frame_equal(games, direct.tables["games"], check_dtype=False)
    other = invoke(*ROTATE[:-2], 5, "--rotate", "--out", "c")
    assert other.exit_code == 0
    assert (bots / "c" / "rotation.csv").read_text() != (bots / "a" / "rotation.csv").read_text()


def test_a_bad_bot_in_a_rotation_is_one_line(bots, invoke):  # noqa: F811
    args = [a if a != "mybots:Greedy,heuristic" else "heuristic,badbots:boom" for a in ROTATE]
    r = invoke(*args, "--out", "bad")
    assert r.exit_code == 1 and "Traceback" not in r.output
    line = r.stderr.strip().splitlines()[-1]
    assert re.search(r"^Error: rotation 0: player badbots:boom \(seat 1\) in game 1, deal \d+ "
                     r"after \d+ recorded actions?: raised ValueError: no such card second "
                     r"line$", line), line


PLAN = """
[defaults]
games = 20
seed = 3

[[run]]
name = "bot"
game = "schnapsen"
policy = "{policy}"

[[run]]
name = "sweep"
command = "sweep"
game = "schnapsen"
policy = "{policy}"
vary = ["close_min_talon=2,4"]
"""


def test_a_batch_plan_takes_the_bot_reproducibly(bots, invoke):  # noqa: F811
    (bots / "plan.toml").write_text(PLAN.format(policy="mybots:Greedy,heuristic"))
    for out in ("a", "b"):
        r = invoke("batch", "plan.toml", "--out", out)
        assert r.exit_code == 0, r.output
    assert "players of bot: mybots:Greedy (seat 0), heuristic (seat 1)" in r.output
    a, b = ((bots / o / "batch.csv").read_text() for o in ("a", "b"))
    assert a == b
    state = json.loads((bots / "a" / "batch.json").read_text())
    assert state["runs"]["bot"]["players"] == ["mybots:Greedy", "heuristic"]
    g = get_game("schnapsen")
    direct = python_run("schnapsen", g.build_rules(), ["mybots:Greedy", "heuristic"],
                        RunSettings(games=20, seed=3, threads=1))
    games = pd.read_parquet(bots / "a" / "bot" / "games.parquet")
    pd.testing.assert_frame_equal(games, direct.tables["games"], check_dtype=False)
    again = invoke("batch", "plan.toml", "--out", "a")            # finished: skipped
    assert again.exit_code == 0 and "bot: skipped (already complete)" in again.output


@pytest.mark.parametrize("policy, says", [
    ("badbots:boom,heuristic", r"run 'bot': player badbots:boom \(seat 0\) in game 1, deal "
                               r"\d+ after \d+ recorded actions?: raised ValueError"),
    ("nosuchmod:Bot,heuristic", r"run 'bot': .*cannot import nosuchmod"),
])
def test_a_bad_bot_in_a_plan_is_one_line(bots, invoke, policy, says):  # noqa: F811
    (bots / "plan.toml").write_text(PLAN.format(policy=policy))
    r = invoke("batch", "plan.toml", "--out", "bad")
    assert r.exit_code == 1 and "Traceback" not in r.output
    line = r.stderr.strip().splitlines()[-1]
    assert re.search(rf"^Error: .*{says}", line), line


def test_a_plan_with_a_bot_plays_on_worker_processes_as_in_one(bots, invoke):  # noqa: F811
    """--workers: the plan's runs play their chunks in worker processes that import the
    bot by name; the tables and the batch table equal the one-process plan's."""
    (bots / "plan.toml").write_text(PLAN.format(policy="mybots:Greedy,heuristic"))
    r = invoke("batch", "plan.toml", "--out", "w", "--workers", 1)
    assert r.exit_code == 0, r.output
    r = invoke("batch", "plan.toml", "--out", "one")
    assert r.exit_code == 0, r.output
    for name in ("games", "deals"):
        pd.testing.assert_frame_equal(pd.read_parquet(bots / "w" / "bot" / f"{name}.parquet"),
                                      pd.read_parquet(bots / "one" / "bot" / f"{name}.parquet"))
    assert (bots / "w" / "bot" / "summary.csv").read_text() == \
        (bots / "one" / "bot" / "summary.csv").read_text()
    assert (bots / "w" / "batch.csv").read_text() == (bots / "one" / "batch.csv").read_text()
