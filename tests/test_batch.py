"""Batch plans: a TOML list of runs, played in turn, resumable, summaries gathered."""
from __future__ import annotations

import json

import pandas as pd
import pytest

from simcore import simulate
from simcore.experiments.batch import load_plan, run_batch
from simcore.errors import TricksimError

PLAN = """
[defaults]
games = 1200
seed = 4
chunk_size = 300

[[run]]
name = "four"
game = "schadenfreude"
players = 4
policy = ["heuristic", "random", "random", "random"]

[[run]]
name = "three"
game = "schadenfreude"
players = 3
summary_only = true
set = ["limit=30"]
policy = "random"

[[run]]
name = "limits"
command = "sweep"
game = "schadenfreude"
games = 600
vary = ["limit=30,40"]
policy = "random"
"""


@pytest.fixture
def plan_file(tmp_path):
    path = tmp_path / "plan.toml"
    path.write_text(PLAN)
    return path


def test_a_plan_of_three_runs_gathers_three_summaries(invoke, plan_file, tmp_path):
    res = invoke("batch", "plan.toml", "--out", "b")
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines() == [
        "players of four: heuristic (seat 0), random (seat 1), random (seat 2), "
        "random (seat 3) (as given)",
        "players of three: random in every seat (as given)",
        "players of limits: random in every seat (as given)",
        "four: played; b/four/", "three: played; b/three/", "limits: played; b/limits/"]
    table = pd.read_parquet(tmp_path / "b" / "batch.parquet")
    assert list(table["run"].unique()) == ["four", "three", "limits"]
    assert list(table.columns[:4]) == ["run", "command", "game", "seed"]
    assert pd.read_csv(tmp_path / "b" / "batch.csv")["run"].nunique() == 3
    # each run's rows are its own summary, unchanged
    four = simulate("schadenfreude", None, ["heuristic", "random", "random", "random"], 1200,
                    seed=4)
    seats = table[(table["run"] == "four") & (table["section"] == "seats")
                  & (table["metric"] == "win_rate")]      # summary.csv is in long form
    assert list(seats["seat"]) == [0, 1, 2, 3]
    assert list(seats["value"]) == list(four.summary["seats"]["win_rate"])
    sweep_rows = table[table["run"] == "limits"]
    assert set(sweep_rows["section"]) == {"sweep"} and len(sweep_rows) == 2 * 4
    assert (tmp_path / "b" / "four" / "games.parquet").exists()
    assert not (tmp_path / "b" / "three" / "games.parquet").exists()

    state = json.loads((tmp_path / "b" / "batch.json").read_text())
    assert state["runs"]["four"]["players"] == ["heuristic", "random", "random", "random"]
    assert state["runs"]["limits"]["players"] == [["random"] * 4] * 2
    assert "check_with" not in state["runs"]["limits"]

    again = invoke("batch", "plan.toml", "--out", "b")
    assert again.exit_code == 0, again.output
    assert "(0 played, 3 already complete)" in again.stderr
    pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "b" / "batch.parquet"), table)


def test_an_interrupted_batch_resumes_the_unfinished_run(plan_file, tmp_path):
    plan = load_plan(plan_file)
    calls = []

    def progress(name, done, total):
        calls.append(name)
        if name == "three" and done >= 600:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        run_batch(plan, tmp_path / "b", progress=progress)
    state = json.loads((tmp_path / "b" / "batch.json").read_text())
    assert state["runs"]["four"]["status"] == "complete"
    assert state["runs"]["three"]["status"] == "running"
    assert len(list((tmp_path / "b" / "three" / "chunks").glob("*.agg.json"))) == 2

    result = run_batch(plan, tmp_path / "b")
    assert result.skipped == ["four"] and result.played == ["three", "limits"]
    whole = run_batch(plan, tmp_path / "fresh")
    pd.testing.assert_frame_equal(result.table, whole.table)


def test_a_run_without_a_seed_keeps_its_drawn_seed_when_resumed(tmp_path):
    path = tmp_path / "p.toml"
    path.write_text('[[run]]\ngame = "schadenfreude"\ngames = 200\n')
    first = run_batch(load_plan(path), tmp_path / "b")
    second = run_batch(load_plan(path), tmp_path / "b")
    assert second.skipped == ["run-1"]
    assert first.table["seed"].iloc[0] == second.table["seed"].iloc[0]


SWEEP = ('[[run]]\nname = "s"\ncommand = "sweep"\ngame = "schadenfreude"\ngames = 100\n'
         'vary = ["limit=30,40"]\npolicy = "random"\n')

CHECKED = """
[[run]]
name = "plain"
game = "schnapsen"
games = 60
seed = 3
policy = "heuristic"

[[run]]
name = "close"
command = "sweep"
game = "schnapsen"
games = 120
seed = 3
vary = ["close_min_talon=2,4"]
policy = "heuristic"
check_with = "expert"
check_games = 60
skill = ["expert", "heuristic"]
"""


def test_a_plan_s_sweep_takes_the_check_options_and_batch_json_names_the_players(
        invoke, tmp_path):
    (tmp_path / "checked.toml").write_text(CHECKED)
    res = invoke("batch", "checked.toml", "--out", "b", "--threads", "1")
    assert res.exit_code == 0, res.output
    folder = tmp_path / "b" / "close"
    assert (folder / "check.csv").exists() and (folder / "skill.csv").exists()
    # the checks equal tricksim sweep's own with the same options
    alone = invoke("sweep", "schnapsen", "--vary", "close_min_talon=2,4", "--policy",
                   "heuristic", "--games", 120, "--seed", 3, "--check-with", "expert",
                   "--check-games", 60, "--skill", "expert,heuristic", "--out", "alone",
                   "--threads", 1)
    assert alone.exit_code == 0, alone.output
    for name in ("check.csv", "skill.csv"):
        pd.testing.assert_frame_equal(pd.read_csv(folder / name),
                                      pd.read_csv(tmp_path / "alone" / name))
    assert res.stdout.splitlines()[:2] == [
        "players of plain: heuristic in every seat (as given)",
        "players of close: heuristic in every seat (as given); checked with expert in every "
        "seat; skill of expert over heuristic"]
    assert "checked with expert play on the first 60 matches" in res.stdout
    table = pd.read_csv(tmp_path / "b" / "batch.csv")
    close = table[table["run"] == "close"]
    assert set(close["section"]) == {"sweep", "check", "skill"}
    assert len(close[close["section"] == "skill"]) == 2
    state = json.loads((tmp_path / "b" / "batch.json").read_text())
    assert state["runs"]["plain"]["players"] == ["heuristic", "heuristic"]
    assert state["runs"]["close"]["players"] == [["heuristic", "heuristic"]] * 2
    assert state["runs"]["close"]["check_with"] == ["expert", "expert"]
    assert state["runs"]["close"]["skill"] == {"strong": "expert", "weak": "heuristic"}
    assert state["runs"]["close"]["check_games"] == 60
    # a check's table gone missing: the run is played again, not skipped
    (folder / "skill.csv").unlink()
    again = invoke("batch", "checked.toml", "--out", "b", "--threads", "1")
    assert again.exit_code == 0, again.output
    assert "(1 played, 1 already complete)" in again.stderr
    assert (folder / "skill.csv").exists()


def test_a_sweep_without_checks_in_a_plan_removes_an_older_run_s_check_tables(tmp_path):
    (tmp_path / "checked.toml").write_text(CHECKED)
    run_batch(load_plan(tmp_path / "checked.toml"), tmp_path / "b", threads=1)
    plain = CHECKED.split("check_with")[0]
    (tmp_path / "plain.toml").write_text(plain)
    res = run_batch(load_plan(tmp_path / "plain.toml"), tmp_path / "b", threads=1)
    assert res.played == ["close"] and res.skipped == ["plain"]
    assert not (tmp_path / "b" / "close" / "check.csv").exists()
    assert not (tmp_path / "b" / "close" / "skill.csv").exists()
    assert set(res.table[res.table["run"] == "close"]["section"]) == {"sweep"}
    state = json.loads((tmp_path / "b" / "batch.json").read_text())
    assert "check_with" not in state["runs"]["close"] and "skill" not in state["runs"]["close"]


@pytest.mark.parametrize("text, message", [
    ("[[run]\n", "is not valid TOML"),
    ("", "no runs"),
    ('[[run]]\ngame = "chess"\n', "game must be one of"),
    ('[[run]]\ngame = "schadenfreude"\ngamez = 3\n', "unknown option(s) gamez"),
    ('[[run]]\ngame = "schadenfreude"\ncommand = "replay"\n', "unknown command 'replay'"),
    ('[[run]]\ngame = "schadenfreude"\nset = ["limit=abc"]\n', "run 'run-1': "),
    ('[[run]]\ngame = "schadenfreude"\ngames = "many"\n', "games must be an integer"),
    ('[[run]]\nname = "a"\ngame = "schadenfreude"\n[[run]]\nname = "a"\ngame = "wendish"\n',
     "name 'a' is used twice"),
    ('[[run]]\ncommand = "sweep"\ngame = "schadenfreude"\n', "a sweep needs vary"),
    ('[cluster]\nworkers = 0\n[[run]]\ngame = "schadenfreude"\n', "workers must be a positive"),
    ('[[run]]\ngame = "schadenfreude"\ncheck_with = "expert"\n',
     "unknown option(s) check_with for simulate"),
    (SWEEP + 'check_games = 50\n', "--check-games sets the size of --check-with and --skill"),
    (SWEEP + 'check_with = "nobody"\n', "--check-with nobody:"),
    (SWEEP + 'check_with = ["expert"]\n', "check_with must be a string"),
    (SWEEP + 'check_with = "expert"\ncheck_games = 500\n', "--check-games 500: allowed 1 to"),
    (SWEEP + 'check_with = "expert"\ncheck_games = 0\n', "check_games = 0 is not allowed"),
    (SWEEP + 'skill = ["expert"]\n', "--skill expert: give two players, STRONG,WEAK"),
    (SWEEP + 'skill = 3\n', "skill must be \"STRONG,WEAK\" or a list of two"),
    (SWEEP.replace("limit=30,40", "limit=30") + 'check_with = "expert"\n',
     "--vary gives one variant"),
    (SWEEP.replace('policy = "random"', 'vary = ["policy=random;heuristic"]') .replace(
        'vary = ["limit=30,40"]\n', '') + 'check_with = "expert"\n',
     "cannot check a run with --vary policy"),
])
def test_a_bad_plan_is_one_clear_error(invoke, tmp_path, text, message):
    (tmp_path / "bad.toml").write_text(text)
    with pytest.raises(TricksimError, match=None) as err:
        load_plan(tmp_path / "bad.toml")
    assert message in str(err.value) and "\n" not in str(err.value).strip()
    res = invoke("batch", "bad.toml")
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert len(res.stderr.strip().splitlines()) == 1 and message in res.stderr


def test_a_missing_plan_is_one_clear_error(invoke):
    res = invoke("batch", "nowhere.toml")
    assert res.exit_code == 1 and "batch plan 'nowhere.toml' does not exist" in res.stderr
