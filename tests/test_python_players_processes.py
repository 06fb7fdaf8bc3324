"""Python players on worker processes (``--workers``, ``--scheduler``):
``simcore.players.process_run`` plays a run's chunks in Dask workers that import the
player by name; the results equal the one-process run's for any worker count and chunk
size, it resumes like a batch run, and a player's failure in a worker is still one line."""
import re

import pandas as pd
import pytest

from simcore.errors import TricksimError
from simcore.players import PlayerError, process_run, python_run
from simcore.running.cluster import open_executor
from simcore.running.settings import RunSettings

from test_python_players import bots  # noqa: F401  (the fixture: mybots.py, badbots.py)

from simcore import get_game

POLICIES = ["mybots:Greedy", "heuristic"]
RULES = get_game("schnapsen").build_rules()


def test_workers_give_the_one_process_results_for_any_count_and_chunk(bots):  # noqa: F811
    one = python_run("schnapsen", RULES, POLICIES, RunSettings(games=90, seed=4))
    runs = []
    for workers, chunk in ((1, 90), (2, 16)):
        s = RunSettings(games=90, seed=4, workers=workers, chunk_size=chunk)
        runs.append(process_run("schnapsen", RULES, POLICIES, s, out=bots / f"w{workers}"))
    for run in runs:
        assert run.execution["executor"] == "dask" and run.policies == POLICIES
        assert run.aggregates.keys() == one.aggregates.keys()
        for name in ("games", "deals"):
            pd.testing.assert_frame_equal(run.tables[name], one.tables[name])
        for name, frame in one.summary.items():
            pd.testing.assert_frame_equal(run.summary[name], frame)
    assert (bots / "w1" / "summary.csv").read_text() == (bots / "w2" / "summary.csv").read_text()
    assert runs[1].execution["chunks"] == 6


def test_the_cli_on_two_workers_writes_the_one_process_records(bots, invoke):  # noqa: F811
    args = ["simulate", "schnapsen", "--policy", "mybots:Greedy,heuristic", "--games", 40,
            "--seed", 9]
    r = invoke(*args, "--out", "one", "--records", "one.jsonl")
    assert r.exit_code == 0, r.output
    r = invoke(*args, "--out", "two", "--records", "two.jsonl", "--workers", 2,
               "--chunk-size", 15)
    assert r.exit_code == 0, r.output
    assert "Dask: local cluster of 2 processes" in r.stderr
    assert (bots / "one.jsonl").read_bytes() == (bots / "two.jsonl").read_bytes()
    assert (bots / "two" / "games.parquet").exists() and (bots / "two" / "run.json").exists()
    again = invoke(*args, "--out", "two", "--workers", 2, "--chunk-size", 15)
    assert again.exit_code == 0 and "resumed from two/" in again.stderr, again.output


def test_an_unimportable_player_is_refused_before_any_worker_starts(bots):  # noqa: F811
    import mybots

    def local(obs):
        return obs.legal[0]
    s = RunSettings(games=4, seed=1, workers=1)
    for player, name in ((lambda obs: obs.legal[0], "<lambda>"), (local, "local"),
                         (mybots.Greedy(), "Greedy")):
        with pytest.raises(TricksimError, match=rf"player \S*{name}\S*: on worker processes "
                                                 r".* must be importable by its name"):
            process_run("schnapsen", None, [player, "heuristic"], s)
    from simcore import sweep
    with pytest.raises(TricksimError, match="must be importable by its name"):
        sweep("schnapsen", [("close_min_talon", [2, 4])], policies=[local, "heuristic"],
              games=4, seed=1, workers=1)


@pytest.mark.parametrize("policy, extra, says", [
    ("badbots:boom,heuristic", [],
     r"player badbots:boom \(seat 0\) in game 1, deal \d+ after \d+ recorded actions?: "
     r"raised ValueError: no such card second line$"),
    ("badbots:forever,heuristic", ["--player-timeout", "0.5"],
     r"player badbots:forever \(seat 0\) in game 0, deal \d+ after \d+ recorded actions?: "
     r"no action within 0.5 s \(the decision timeout\)$"),
])
def test_a_failing_player_in_a_worker_is_one_line(bots, invoke, policy, extra, says):  # noqa: F811
    r = invoke("simulate", "schnapsen", "--policy", policy, "--games", 6, "--seed", 1,
               "--workers", 1, "--out", "w", *extra)
    assert r.exit_code == 1 and "Traceback" not in r.output, r.output
    line = r.stderr.strip().splitlines()[-1]
    assert re.search(rf"^Error: {says}", line), line


def test_a_sweep_on_an_open_cluster_names_the_variant(bots):  # noqa: F811
    from simcore import sweep
    with open_executor(RunSettings(workers=1)) as ex:
        with pytest.raises(PlayerError, match=r"^variant close_min_talon=2: player "
                                              r"badbots:boom \(seat 0\) in game 1"):
            sweep("schnapsen", [("close_min_talon", [2, 4])],
                  policies=["badbots:boom", "heuristic"], games=4, seed=1, executor=ex)


COUNTED = '''import os


class Counted:
    """Plays the first legal action; each game's instance notes itself in a file."""

    def __init__(self):
        with open(os.environ["TRICKSIM_TEST_GAMES_FILE"], "a") as fh:
            fh.write("x\\n")

    def act(self, obs):
        return obs.legal[-1]
'''


def test_workers_play_each_game_once_for_the_records(bots, monkeypatch):  # noqa: F811
    """--records on workers: the chunks' tasks return the records with their results (a
    bot counting its games sees each game once), the bytes are the one-process run's for
    any worker count and chunk size, and a run stopped after some chunks resumes with
    the records of those chunks kept."""
    import json
    from simcore.players import play_games
    (bots / "countbots.py").write_text(COUNTED)
    games = bots / "games.txt"
    monkeypatch.setenv("TRICKSIM_TEST_GAMES_FILE", str(games))
    policies = ["countbots:Counted", "heuristic"]
    one = "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in
                  play_games("schnapsen", RULES, policies, 45, 6)).encode()
    alone = python_run("schnapsen", RULES, policies, RunSettings(games=45, seed=6))
    for workers, chunk in ((1, 45), (2, 7)):
        games.write_text("")
        s = RunSettings(games=45, seed=6, workers=workers, chunk_size=chunk)
        run = process_run("schnapsen", RULES, policies, s, records=bots / f"r{chunk}.jsonl")
        assert games.read_text().count("x") == 45      # each game played once, not twice
        assert (bots / f"r{chunk}.jsonl").read_bytes() == one
        assert run.execution["records"]["chunks_played_again"] == 0
        for name, frame in alone.summary.items():
            pd.testing.assert_frame_equal(run.summary[name], frame)
        assert not (bots / f".r{chunk}.jsonl.parts").exists()

    def stop(done, total):
        if done >= 14:
            raise KeyboardInterrupt
    s = RunSettings(games=45, seed=6, workers=1, chunk_size=7)
    with pytest.raises(KeyboardInterrupt):
        process_run("schnapsen", RULES, policies, s, stop, out=bots / "run",
                    records=bots / "stopped.jsonl")
    assert not (bots / "stopped.jsonl").exists()
    assert len(list((bots / ".stopped.jsonl.parts").glob("chunk-*.jsonl"))) >= 2
    run = process_run("schnapsen", RULES, policies, s, out=bots / "run",
                      records=bots / "stopped.jsonl")
    assert run.execution["chunks_resumed"] >= 2
    assert run.execution["records"]["chunks_played_again"] == 0
    assert (bots / "stopped.jsonl").read_bytes() == one
    # a resumed folder whose chunks were played without --records: those are played again
    run = process_run("schnapsen", RULES, policies, s, out=bots / "run2")
    s2 = RunSettings(games=45, seed=6, workers=1, chunk_size=7)
    again = process_run("schnapsen", RULES, policies, s2, out=bots / "run2",
                        records=bots / "late.jsonl")
    assert again.execution["records"]["chunks_played_again"] == 7
    assert (bots / "late.jsonl").read_bytes() == one
