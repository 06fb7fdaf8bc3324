"""Checkpointed runs: a run stopped part-way and resumed equals an uninterrupted one.

A run folder gets one file per finished chunk; killing the process (SIGKILL,
Ctrl-C) loses at most the chunk in flight, and the same command resumes it.
A different command on an unfinished folder is refused in one line.
"""
from __future__ import annotations

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simcore import simulate
from simcore.running.checkpoint import decode_aggregates, encode_aggregates
from simcore.games.schadenfreude import GAME

ROOT = Path(__file__).resolve().parents[1]


def assert_same(a, b):
    for section in a.summary:
        pd.testing.assert_frame_equal(a.summary[section], b.summary[section], check_exact=True)
    assert a.tables.keys() == b.tables.keys()
    for name in a.tables:
        pd.testing.assert_frame_equal(a.tables[name], b.tables[name], check_exact=True)


def chunk_files(folder) -> list[Path]:
    return sorted((Path(folder) / "chunks").glob("*.agg.json"))


class Stop(KeyboardInterrupt):
    """Raised from the progress callback: a Ctrl-C after some chunks."""


def stop_after(chunks_done: int, chunk: int):
    def progress(done, total):
        if done >= chunks_done * chunk:
            raise Stop()
    return progress


def test_aggregates_round_trip_bit_for_bit():
    agg = {"games": 7, "x": np.float64(0.1) * 3, "f": 1 / 3, "n": np.int64(-5),
           "a": np.array([1.5, np.nan, -np.inf]), "i": np.array([[1, 2], [3, 4]], np.int32),
           "b": True, "nan": float("nan")}
    back = decode_aggregates(json.loads(json.dumps(encode_aggregates(agg))))
    assert back.keys() == agg.keys()
    for k, v in agg.items():
        assert type(back[k]) is type(v), k
        if isinstance(v, np.ndarray):
            assert back[k].dtype == v.dtype and back[k].shape == v.shape
            assert back[k].tobytes() == v.tobytes()
        elif isinstance(v, float) and math.isnan(v):
            assert math.isnan(back[k])
        else:
            assert back[k] == v


def test_a_run_killed_with_sigkill_resumes_to_the_uninterrupted_result(tmp_path):
    games, chunk = 400_000, 2000
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "cli.main", "simulate", "schadenfreude", "--policy", "random",
           "--games", str(games),
           "--seed", "21", "--chunk-size", str(chunk), "--threads", "1", "--out", str(out),
           "--format", "csv"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while len(chunk_files(out)) < 3:
            assert proc.poll() is None, proc.stderr.read().decode()
            assert time.monotonic() < deadline, "no chunks written"
            time.sleep(0.01)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    done = len(chunk_files(out))
    assert 3 <= done < games // chunk
    info = json.loads((out / "run.json").read_text())
    assert info["status"] == "running" and info["plan"]["seed"] == 21
    assert not (out / "games.parquet").exists()

    # the same command again (seed and chunk size taken from the folder)
    resumed = simulate("schadenfreude", None, ["random"], games, out=out)
    assert resumed.execution["chunks_resumed"] >= done and resumed.played < games
    assert resumed.seed == 21 and resumed.chunk_size == chunk
    whole = simulate("schadenfreude", None, ["random"], games, seed=21, chunk_size=50_000)
    assert_same(resumed, whole)
    final = json.loads((out / "run.json").read_text())
    assert final["status"] == "complete" and final["chunks_done"] == [[0, games // chunk - 1]]
    assert not (out / "chunks").exists()


def test_ctrl_c_keeps_the_finished_chunks_and_the_cli_resumes(invoke, tmp_path):
    rules = GAME.build_rules(players=3)
    policies = ["heuristic", "random", "random"]
    with pytest.raises(Stop):
        simulate("schadenfreude", rules, policies, 3000, seed=8, chunk_size=500,
                 out=tmp_path / "run", progress=stop_after(2, 500))
    assert len(chunk_files(tmp_path / "run")) == 2
    res = invoke("simulate", "schadenfreude", "--players", 3, "--policy",
                 "heuristic,random,random", "--games", 3000, "--seed", 8, "--chunk-size", 500,
                 "--out", "run", "--threads", 1)
    assert res.exit_code == 0, res.output
    assert "2 of 6 chunks were already done" in res.stderr
    ref = invoke("simulate", "schadenfreude", "--players", 3, "--policy",
                 "heuristic,random,random", "--games", 3000, "--seed", 8, "--out", "ref")
    assert res.stdout == ref.stdout
    assert (tmp_path / "run" / "games.parquet").read_bytes() == \
        (tmp_path / "ref" / "games.parquet").read_bytes()
    assert sorted(os.listdir(tmp_path / "run")) == ["games.parquet", "run.json", "summary.csv"]


@pytest.fixture
def unfinished(tmp_path):
    """A folder with an unfinished run: schadenfreude, 4 seats, seed 5, 2000 games."""
    with pytest.raises(Stop):
        simulate("schadenfreude", None, ["random"], 2000, seed=5, chunk_size=400,
                 out=tmp_path / "run", progress=stop_after(1, 400))
    return tmp_path / "run"


@pytest.mark.parametrize("change, message", [
    (["--seed", 6], "seed 5 there, 6 here"),
    (["--seed", 5, "--games", 3000], "games 2000 there, 3000 here"),
    (["--seed", 5, "--set", "limit=30"], "rules differ"),
    (["--seed", 5, "--policy", "heuristic"], "policies random,random,random,random there, "
                                             "heuristic,heuristic,heuristic,heuristic here"),
    (["--seed", 5, "--chunk-size", 500], "chunk_size 400 there, 500 here"),
    (["--seed", 5, "--summary-only"], "summary_only False there, True here"),
])
def test_a_different_command_on_an_unfinished_folder_is_refused(invoke, unfinished, change,
                                                                 message):
    args = ["simulate", "schadenfreude", "--policy", "random",
            "--games", 2000, "--out", "run", *change]
    res = invoke(*args)
    assert res.exit_code == 1
    assert "Traceback" not in res.output and len(res.stderr.strip().splitlines()) == 1
    assert "holds an unfinished different run" in res.stderr and message in res.stderr
    assert len(chunk_files(unfinished)) == 1          # nothing touched


def test_threads_do_not_count_and_no_resume_starts_over(invoke, unfinished):
    res = invoke("simulate", "schadenfreude", "--policy", "random",
                 "--games", 2000, "--out", "run", "--threads", 1)
    assert res.exit_code == 0, res.output
    assert "1 of 5 chunks was already done" in res.stderr and "seed 5" in res.stderr
    # an unfinished run again, then overwritten by another command with --no-resume
    with pytest.raises(Stop):
        simulate("schadenfreude", None, ["random"], 2000, seed=5, chunk_size=400,
                 out=unfinished, progress=stop_after(1, 400))
    res = invoke("simulate", "schadenfreude", "--policy", "random",
                 "--games", 1000, "--seed", 9, "--out", "run",
                 "--no-resume")
    assert res.exit_code == 0, res.output and "already done" not in res.stderr
    info = json.loads((unfinished / "run.json").read_text())
    assert info["seed"] == 9 and info["games"] == 1000 and info["status"] == "complete"


def test_a_finished_folder_is_simply_overwritten(invoke, tmp_path):
    assert invoke("simulate", "schadenfreude", "--policy", "random", "--games", 100, "--seed", 1,
                  "--out", "run").exit_code == 0
    res = invoke("simulate", "schadenfreude", "--policy", "random",
                 "--games", 200, "--seed", 2, "--out", "run")
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "run" / "run.json").read_text())["games"] == 200


def test_the_same_command_on_a_finished_folder_plays_nothing(invoke, tmp_path):
    args = ["simulate", "schadenfreude", "--policy", "random",
            "--games", 900, "--seed", 3, "--chunk-size", 300,
            "--out", "run"]
    first = invoke(*args)
    assert first.exit_code == 0, first.output
    files = {p: (tmp_path / "run" / p).read_bytes() for p in os.listdir(tmp_path / "run")}
    again = invoke(*args)
    assert again.exit_code == 0, again.output
    assert "3 of 3 chunks were already done" in again.stderr
    assert again.stdout == first.stdout
    assert {p: (tmp_path / "run" / p).read_bytes() for p in os.listdir(tmp_path / "run")} == files
    summary_only = invoke(*args, "--summary-only")      # a different plan: played afresh
    assert summary_only.exit_code == 0 and "already done" not in summary_only.stderr


def test_an_interrupted_sweep_resumes_to_the_uninterrupted_table(invoke, tmp_path):
    from simcore.experiments.sweep import parse_vary, sweep
    vary = parse_vary("schadenfreude", ["limit=30,40,50"])
    with pytest.raises(Stop):                 # stopped in the second variant
        sweep("schadenfreude", vary, games=1000, seed=6, chunk_size=250, out=tmp_path / "sw",
              progress=stop_after(6, 250))
    assert len(chunk_files(tmp_path / "sw" / "variants" / "001")) == 2
    res = invoke("sweep", "schadenfreude", "--policy", "random",
                 "--vary", "limit=30,40,50", "--games", 1000,
                 "--chunk-size", 250, "--out", "sw", "--format", "csv")   # seed from the folder
    assert res.exit_code == 0, res.output
    whole = sweep("schadenfreude", vary, games=1000, seed=6)
    table = whole.table.assign(limit=whole.table["limit"].astype("int64"))  # typed on disk
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "sw" / "sweep.parquet"),
                                  table, check_exact=True)
