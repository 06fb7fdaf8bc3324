"""A user's numba player inside the batch runs (simcore.numba_players): the same games
as the Engine plays them, the same results for any threads and chunk size, the run
folder and records of a batch run, and bad players refused in one line.

The batch loop takes the player's function, so numba compiles it once per process for
each game (seconds to a minute on a busy machine): these tests share the players of
tests/numba_bots.py."""
import json
import re
from pathlib import Path

import pandas as pd
import pytest

from simcore import get_game, simulate
from simcore.numba_players import (engine_records, numba_chunk, numba_records, numba_seats,
                                   play_record)
from simcore.players import PlayerError
from simcore.running.settings import RunSettings

import numba_bots
from numba_bots import rand_legal

GAMES = [("schnapsen", [rand_legal, "heuristic"], None),
         ("schadenfreude", ["heuristic", rand_legal, "random"], 3),
         ("wendish", ["random", "heuristic", rand_legal, "heuristic"], None)]


@pytest.mark.parametrize("game, policies, players", GAMES)
def test_the_loop_plays_the_engine_games(game, policies, players):
    """The batch loop's tables equal those the game's own row writers build from the same
    games played through the Engine, the numba player called from Python (its seat's
    stream the same): the loop plays the games the Engine plays."""
    g = get_game(game)
    rules = g.build_rules(players=players)
    seats = numba_seats(g, rules, policies)
    loop = numba_chunk(g, rules, seats, 11, 5, 24)
    scored = []
    for i in range(5, 29):
        states = []
        play_record(g, rules, seats, 11, i, lambda st: states.append(st.copy()))
        scored.append(states)
    engine = g.played_chunk(rules, 5, scored)
    for name, frame in g.frames(engine, rules, seats.names).items():
        pd.testing.assert_frame_equal(g.frames(loop, rules, seats.names)[name], frame)


RECORDED = [(game, policies, {"players": players}) for game, policies, players in GAMES] + [
    ("schnapsen", [rand_legal, rand_legal], {}),
    ("wendish", [rand_legal, "heuristic", "random", rand_legal], {}),
    ("wendish", ["heuristic", rand_legal, "random"], {"assignments": ["variant=three"]}),
    ("wendish", [rand_legal, "heuristic"], {"assignments": ["variant=officers"]}),
    ("schadenfreude", [rand_legal, "random", rand_legal, "heuristic"], {"players": 4})]


@pytest.mark.parametrize("game, policies, build", RECORDED)
def test_the_loops_records_are_the_engines_bytes(game, policies, build):
    """The records the batch loop and the logging kernels write for a numba player's run
    (its actions logged in the loop, played again in its seats) are byte for byte those
    of the same games played through the Engine, the player called from Python."""
    g = get_game(game)
    rules = g.build_rules(**build)
    seats = numba_seats(g, rules, policies)
    fast = numba_records(g, rules, seats, 11, 5, 70)       # > 64: the parallel kernels too
    assert fast == engine_records(g, rules, seats, 11, 5, 70)
    assert fast.count(b"\n") == 70 and numba_records(g, rules, seats, 11, 40, 3) \
        == b"".join(fast.splitlines(keepends=True)[35:38])


def test_same_results_for_any_threads_and_chunk_size():
    g = get_game("schnapsen")
    a = simulate("schnapsen", None, [rand_legal, "heuristic"],
                 settings=RunSettings(games=300, seed=4, threads=1, chunk_size=7))
    b = simulate("schnapsen", g.build_rules(), ["heuristic", rand_legal][::-1],
                 settings=RunSettings(games=300, seed=4, threads=2, chunk_size=128))
    assert a.policies == ["numba_bots:rand_legal", "heuristic"] == b.policies
    for name in a.tables:
        pd.testing.assert_frame_equal(a.tables[name], b.tables[name])
    for name in a.summary:
        pd.testing.assert_frame_equal(a.summary[name], b.summary[name])
    c = simulate("schnapsen", None, [rand_legal, "heuristic"], games=300, seed=5, threads=1)
    assert not a.tables["games"].equals(c.tables["games"])


def test_the_command_writes_a_resumable_run_folder_and_records(invoke, tmp_path):
    args = ["simulate", "schnapsen", "--policy", "numba_bots:rand_legal,heuristic",
            "--games", 60, "--seed", 2, "--threads", 1, "--out", "run"]
    r = invoke(*args, "--records", "r.jsonl")
    assert r.exit_code == 0, r.output
    assert "compiling the numba player" in r.stderr
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    assert info["policies"] == ["numba_bots:rand_legal", "heuristic"]
    assert info["numba_player"] is True and info["status"] == "complete"
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    recs = [json.loads(x) for x in (tmp_path / "r.jsonl").read_text().splitlines()]
    assert [x["index"] for x in recs] == list(range(60))
    assert [x["result"]["winner"] for x in recs] == games["winner"].tolist()
    again = invoke(*args)
    assert again.exit_code == 0 and "already done" in again.stderr


def one_line_error(r) -> str:
    assert r.exit_code != 0 and "Traceback" not in r.output, r.output
    lines = [x for x in r.stderr.splitlines() if x.startswith("Error")]
    assert len(lines) == 1, r.stderr
    return lines[0]


def test_an_illegal_action_names_the_game_and_position(invoke):
    r = invoke("simulate", "schnapsen", "--policy", "heuristic,numba_bots:past_the_end",
               "--games", 20, "--seed", 1, "--threads", 1)
    line = one_line_error(r)
    assert "player numba_bots:past_the_end (seat 1) in game 0, deal 0 after" in line
    assert "returned 29 (no action), not legal here; legal:" in line
    with pytest.raises(PlayerError, match=r"in game 0, deal 0 after"):
        simulate("schnapsen", None, ["heuristic", numba_bots.past_the_end], games=5, seed=1)


@pytest.mark.parametrize("bot, says", [
    ("returns_float", "returns float64, not an integer"),
    ("two_arguments", "does not compile as choose(obs: float32[:], mask: bool[:], "
                      "rng: uint64[1]) -> int"),
    ("not_jitted", "takes three arguments like a numba player choose(obs, mask, rng) but "
                   "is not @njit-compiled"),
])
def test_a_bad_numba_player_is_one_line(invoke, bot, says):
    r = invoke("simulate", "schnapsen", "--policy", f"numba_bots:{bot},heuristic",
               "--games", 5, "--seed", 1)
    assert says in one_line_error(r)


def test_a_numba_player_where_python_players_play_is_one_line(invoke):
    r = invoke("simulate", "schnapsen", "--policy", "numba_bots:rand_legal,heuristic",
               "--rotate", "--games", 5, "--seed", 1)
    assert "--rotate does not take a numba player" in one_line_error(r)
    r = invoke("tournament", "schnapsen", "--players", "numba_bots:rand_legal,heuristic",
               "--games", 5, "--seed", 1, "--out", "t")
    assert "is a numba player (@njit)" in one_line_error(r)


def test_the_docs_numba_player_runs_reproducibly(invoke, tmp_path):
    """docs/players-api.md's mynumba.py, saved and named as the docs say: the same seed
    gives the same summary, another seed another one."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "players-api.md").read_text()
    code = re.search(r"<!-- example:mynumba.py -->\n```python\n(.*?)```", doc, re.S).group(1)
    (tmp_path / "mynumba.py").write_text(code)
    args = ["simulate", "schnapsen", "--policy", "mynumba:low_follower,heuristic",
            "--games", 200, "--threads", 1, "--summary-only"]
    first = invoke(*args, "--seed", 1, "--out", "a")
    assert first.exit_code == 0, first.output
    assert "mynumba:low_follower" in first.stdout
    assert invoke(*args, "--seed", 1, "--out", "b").stdout == first.stdout
    assert invoke(*args, "--seed", 2, "--out", "c").stdout != first.stdout
