"""Determinism: a Schadenfreude run depends on its seed only.

The same seed gives the identical games table on 1 and 2 threads and for any
chunk size, and ``tricksim simulate --seed S --records`` writes for game ``i``
exactly the record GAME.record builds for ``(S, i)``.
"""
from __future__ import annotations

import json

import numba
import pandas as pd
import pytest

from simcore import simulate
from simcore.games.schadenfreude import GAME

GAMES = 300
RUNS = [
    ("standard-4-heur", "standard", 4, ["heuristic", "random", "random", "heuristic"]),
    ("summary-de-3", "summary-de", 3, ["random"]),
    ("summary-de-5-heur", "summary-de", 5, ["random", "heuristic", "random", "random",
                                            "random"]),
]
TWO_THREADS = pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2,
                                 reason="numba was started with one thread")


def run(preset, players, policies, threads, chunk, games=GAMES, seed=424242):
    rules = GAME.build_rules(preset, players=players)
    return simulate("schadenfreude", rules, policies, games=games, seed=seed,
                    threads=threads, chunk_size=chunk)


@pytest.fixture(scope="module")
def baselines():
    """One single-threaded, single-chunk run per configuration."""
    return {label: run(preset, players, pol, 1, 1000) for label, preset, players, pol in RUNS}


@pytest.mark.parametrize("threads, chunk", [
    (1, 7), (1, 1), pytest.param(2, 1000, marks=TWO_THREADS),
    pytest.param(2, 7, marks=TWO_THREADS), pytest.param(2, 1, marks=TWO_THREADS)])
@pytest.mark.parametrize("label, preset, players, policies", RUNS, ids=[r[0] for r in RUNS])
def test_same_seed_same_games_for_any_threads_and_chunks(label, preset, players, policies,
                                                         threads, chunk, baselines):
    base = baselines[label]
    games = 60 if chunk == 1 else GAMES          # chunks of one game are slow to dispatch
    res = run(preset, players, policies, threads, chunk, games=games)
    assert res.threads == threads and res.chunk_size == chunk
    pd.testing.assert_frame_equal(res.tables["games"],
                                  base.tables["games"].iloc[:games].reset_index(drop=True))
    if games == GAMES:
        for section in ("seats", "game"):
            pd.testing.assert_frame_equal(res.summary[section], base.summary[section])


def test_a_different_seed_gives_different_games(baselines):
    label, preset, players, policies = RUNS[0]
    other = run(preset, players, policies, 1, 1000, seed=424243)
    assert not other.tables["games"].equals(baselines[label].tables["games"])


def test_games_table_columns(baselines):
    table = baselines["summary-de-3"].tables["games"]
    assert list(table.columns) == ["index", "rounds", "score_0", "score_1", "score_2",
                                   "win_0", "win_1", "win_2", "bust_0", "bust_1", "bust_2",
                                   "winner", "unfinished", "first_leader"]
    assert list(table["index"]) == list(range(GAMES))
    # one winner at most, and the win columns agree with it
    wins = table[["win_0", "win_1", "win_2"]].sum(axis=1)
    assert (wins <= 1).all()
    assert ((table["winner"] >= 0) == (wins == 1)).all()


def test_cli_records_are_the_records_of_the_run(invoke, tmp_path, jsonl):
    seed, games = 31337, 25
    policy = "heuristic,random,random,random"
    res = invoke("simulate", "schadenfreude", "--games", games, "--seed", seed,
                 "--policy", policy, "--set", "limit=20", "--out", tmp_path / "run",
                 "--records", tmp_path / "games.jsonl", "--threads", 1)
    assert res.exit_code == 0, res.output
    lines = jsonl.read(tmp_path / "games.jsonl")
    assert len(lines) == games
    rules = GAME.rulebook.build(overrides={"limit": 20})
    names, ids = GAME.policy_ids(policy.split(","), rules)
    table = pd.read_parquet(tmp_path / "run" / "games.parquet")
    for i, rec in enumerate(lines):
        assert rec["index"] == i and rec["seed"] == seed
        assert rec == json.loads(json.dumps(GAME.record(rules, names, ids, seed, i)))
        row = table.iloc[i]
        assert [int(row[f"score_{p}"]) for p in range(4)] == rec["result"]["scores"]
        assert rec["result"]["winners"] == ([] if row["winner"] < 0 else [int(row["winner"])])
        assert rec["result"]["bust"] == [p for p in range(4) if row[f"bust_{p}"]]
        assert int(row["rounds"]) == len(rec["deals"])
        assert int(row["first_leader"]) == rec["deals"][0]["start"]["leader"]
    replay = invoke("replay", tmp_path / "games.jsonl")
    assert replay.exit_code == 0 and replay.stdout == f"{games} records replayed, all valid\n"


def test_cli_same_seed_same_files(invoke, tmp_path):
    outs = []
    for k, threads in enumerate(("1", "2" if numba.config.NUMBA_NUM_THREADS >= 2 else "1")):
        res = invoke("simulate", "schadenfreude", "--players", 5, "--games", 200, "--seed", 9,
                     "--threads", threads, "--chunk-size", 33 if k else 1000,
                     "--out", tmp_path / f"run{k}")
        assert res.exit_code == 0, res.output
        outs.append(res)
    a = pd.read_parquet(tmp_path / "run0" / "games.parquet")
    b = pd.read_parquet(tmp_path / "run1" / "games.parquet")
    pd.testing.assert_frame_equal(a, b)
    assert (tmp_path / "run0" / "summary.csv").read_text() == \
        (tmp_path / "run1" / "summary.csv").read_text()
    assert outs[0].stdout == outs[1].stdout
