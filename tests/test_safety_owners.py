"""Every command owns its folder, one command at a time, and leaves nothing behind
(issue 20, items 1, 2 and 5).

sweep, compare and batch write only into a folder that is new, empty or marked
as their own (sweep.json, compare.json, batch.json, as run.json marks a
simulate run folder); a folder of other files or of another command is refused
in one line and left as it was.  A folder being written is locked
(``fcntl.flock`` on ``.tricksim.lock``): a second command into it is refused
naming the first, and a kill -9 of the holder leaves the folder usable.  A rerun
removes the temporary file that a killed records write left, a fully resumed run
says so, and the time a run reports includes writing its records.
"""
from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import one_error_line
from test_safety_folders import tree

ROOT = Path(__file__).resolve().parents[1]


def foreign(folder: Path, *names) -> dict:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_text("MINE\n")
    return tree(folder)


COMPARE = ("compare", "schadenfreude", "--a", "standard", "--b", "limit=30", "--games", 10,
           "--seed", 1)
SWEEP = ("sweep", "schadenfreude", "--vary", "limit=30,40", "--games", 10, "--seed", 1)


# ----- item 1: each command owns its folder -----------------------------------
def test_compare_refuses_a_foreign_folder_and_leaves_it_alone(invoke, tmp_path):
    before = foreign(tmp_path / "fr", "report.md", "compare.csv")
    res = invoke(*COMPARE, "--out", "fr")
    one_error_line(res, "'fr' is not a tricksim compare folder", "compare.json",
                   "new or empty folder")
    assert tree(tmp_path / "fr") == before


def test_sweep_refuses_a_foreign_folder_and_leaves_it_alone(invoke, tmp_path):
    before = foreign(tmp_path / "fr", "report.md", "sweep.csv")
    res = invoke(*SWEEP, "--out", "fr")
    one_error_line(res, "'fr' is not a tricksim sweep folder", "sweep.json")
    assert tree(tmp_path / "fr") == before


def test_batch_refuses_a_foreign_folder_and_leaves_it_alone(invoke, tmp_path):
    (tmp_path / "plan.toml").write_text('[[run]]\ngame = "schadenfreude"\ngames = 10\n')
    before = foreign(tmp_path / "fr", "batch.csv", "batch.json")
    res = invoke("batch", "plan.toml", "--out", "fr")
    one_error_line(res, "'fr' is not a tricksim batch folder", "batch.json")
    assert tree(tmp_path / "fr") == before


def test_each_command_refuses_another_command_s_folder_and_reuses_its_own(invoke, tmp_path):
    res = invoke(*SWEEP, "--out", "sw")
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "sw" / "sweep.json").read_text())["format"] == \
        "tricksim-sweep"
    (tmp_path / "sw" / "notes.txt").write_text("mine")
    before = tree(tmp_path / "sw")
    res = invoke(*COMPARE, "--out", "sw")        # today: replaces the sweep's report.md
    one_error_line(res, "'sw' is a tricksim sweep folder", "not a compare folder")
    res = invoke("simulate", "schadenfreude", "--games", 10, "--out", "sw")
    one_error_line(res, "'sw' is a tricksim sweep folder", "not a run folder")
    assert tree(tmp_path / "sw") == before
    res = invoke(*COMPARE, "--out", "cmp")
    assert res.exit_code == 0, res.output
    res = invoke(*SWEEP, "--out", "cmp")
    one_error_line(res, "'cmp' is a tricksim compare folder", "not a sweep folder")
    # its own folder: the command's files are replaced, nothing else is touched
    res = invoke(*SWEEP[:-1], 2, "--out", "sw")
    assert res.exit_code == 0, res.output
    assert (tmp_path / "sw" / "notes.txt").read_text() == "mine"
    assert json.loads((tmp_path / "sw" / "sweep.json").read_text())["seed"] == 2
    assert not (tmp_path / "sw" / ".tricksim.lock").exists()


# ----- item 2: one command per folder at a time --------------------------------
HOLD = """
import sys, time
from simcore.folders import lock
with lock(sys.argv[1]):
    print("held", flush=True)
    time.sleep(600)
"""


@pytest.fixture
def holder(tmp_path):
    """A child process holding the lock of tmp_path/d (as a running command would)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path / "d"), "--out", "d"],
                            stdout=subprocess.PIPE, env=env)
    try:
        assert proc.stdout.readline() == b"held\n"
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


def test_a_second_command_into_a_locked_folder_is_refused_naming_the_first(invoke, tmp_path,
                                                                          holder):
    for args in (("simulate", "schadenfreude", "--games", 10, "--seed", 1),
                 ("simulate", "schadenfreude", "--games", 10, "--seed", 2), SWEEP, COMPARE):
        res = invoke(*args, "--out", "d")
        one_error_line(res, "'d' is in use: another tricksim command is writing it",
                       f"pid {holder.pid}", "started ", "--out d")
    # a folder the other command is creating (no run.json yet): in use, not foreign
    (tmp_path / "d" / "chunks").mkdir()
    res = invoke("simulate", "schadenfreude", "--games", 10, "--out", "d")
    one_error_line(res, "'d' is in use")
    assert sorted(os.listdir(tmp_path / "d")) == [".tricksim.lock", "chunks"]
    # kill -9 the holder: its lock dies with it, the folder is usable at once
    os.kill(holder.pid, signal.SIGKILL)
    holder.wait()
    (tmp_path / "d" / "chunks").rmdir()
    res = invoke("simulate", "schadenfreude", "--games", 10, "--seed", 1, "--out", "d")
    assert res.exit_code == 0, res.output
    assert sorted(os.listdir(tmp_path / "d")) == ["games.parquet", "run.json", "summary.csv"]


def test_the_lock_nests_in_one_thread_and_refuses_another(tmp_path):
    import threading

    from simcore.errors import TricksimError
    from simcore.folders import lock
    errors = []
    with lock(tmp_path / "d"):
        with lock(tmp_path / "d"):               # a command and its own run
            pass
        assert (tmp_path / "d" / ".tricksim.lock").exists()

        def other():
            try:
                with lock(tmp_path / "d"):
                    pass
            except TricksimError as exc:
                errors.append(str(exc))
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert len(errors) == 1 and f"pid {os.getpid()}" in errors[0]
    assert os.listdir(tmp_path / "d") == []


# ----- item 5: leave nothing behind --------------------------------------------
def test_a_rerun_removes_the_stale_temporary_of_a_killed_records_write(invoke, tmp_path):
    # what a kill -9 during the records write leaves: atomic_write's temporary, unlocked
    stale = tmp_path / ".krec.jsonl.k1ll3d_x.tmp"
    stale.write_bytes(b"{}\n" * 1000)
    kept = [tmp_path / ".krec.jsonl.bak", tmp_path / ".other.jsonl.k1ll3d_x.tmp"]
    for path in kept:
        path.write_text("mine")
    live = tmp_path / ".krec.jsonl.wr1t1ng_.tmp"           # a live write's: locked
    live.write_text("")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c",
                             "import fcntl, sys, time; f = open(sys.argv[1]); "
                             "fcntl.flock(f, fcntl.LOCK_EX); print('held', flush=True); "
                             "time.sleep(600)", str(live)], stdout=subprocess.PIPE, env=env)
    try:
        assert proc.stdout.readline() == b"held\n"
        res = invoke("simulate", "schadenfreude", "--games", 20, "--seed", 1, "--out", "d",
                     "--records", "krec.jsonl")
    finally:
        proc.kill()
        proc.wait()
    assert res.exit_code == 0, res.output
    assert not stale.exists() and live.exists() and all(p.exists() for p in kept)
    assert len((tmp_path / "krec.jsonl").read_text().splitlines()) == 20


def test_a_fully_resumed_run_says_so_and_the_time_counts_the_records(invoke, tmp_path,
                                                                     monkeypatch):
    from simcore.games import get_game
    game = type(get_game("schadenfreude"))
    real = game.records_jsonl
    calls = []

    def slow(self, *args):                      # records that take a measurable time
        calls.append(args[-2:])
        if args[-1] > 1:
            time.sleep(0.4)
        return real(self, *args)
    monkeypatch.setattr(game, "records_jsonl", slow)
    args = ("simulate", "schadenfreude", "--games", 40, "--seed", 3, "--chunk-size", 20,
            "--out", "d", "--records", "r.jsonl")
    res = invoke(*args)
    assert res.exit_code == 0, res.output
    wall = float(re.search(r"40 games in ([\d.]+)s", res.stderr)[1])
    info = json.loads((tmp_path / "d" / "run.json").read_text())
    assert wall >= 0.4 and info["wall_time_s"] >= 0.4            # today: 0.0x s
    assert info["records"]["games"] == 40 and info["records"]["wall_time_s"] >= 0.4
    again = invoke(*args)
    assert again.exit_code == 0, again.output
    last = again.stderr.strip().splitlines()[-1]
    assert "resumed" in last and "2 of 2 chunks were already done" in last
    assert "games/s" not in last and "wrote r.jsonl in " in last
