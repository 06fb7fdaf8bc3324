"""The ``tricksim`` command line with Schadenfreude: exact output where it is stable,
help with an example on every command, and one clear error line (never a
traceback) for every user error."""
from __future__ import annotations

import json
import os

import pandas as pd
import pytest

from simcore import __version__

RULES_STANDARD = """\
schadenfreude: preset 'standard'; presets: standard, summary-de
option        value                       allowed                                                               meaning
players       4                           an integer from 3 to 5                                                number of players
values        -3,-2,-1,1,2,3,4,5,6,7,8,9  a list of at least 1 distinct values from -3 -2 -1 1 2 3 4 5 6 7 8 9  number values in the deck (4-5 players: all twelve; 3 players: -3 1..8)
hand_size     12                          an integer from 1 to 50                                               cards per hand (5 players 10, else 12); cards left over are set aside unseen
limit         40                          an integer from 1 to 1000000000                                       a cumulative score above this is bust; exactly it is allowed
pairs         cancel                      one of cancel, keep                                                   cancel: a collected value already in the pile discards both; keep: no cancelling
floor         0                           an integer from -1000000000 to 1000000000 or none                     cumulative score never drops below this (an integer below limit), or none
first_leader  random                      one of random, seat0                                                  leader of the first round
tie_lead      random                      one of random, after_last                                             later rounds the lowest score leads; among tied: random, or after_last (first tied seat after the previous round's leader, that leader last)
all_bust      none                        one of none, highest                                                  everybody bust: none (no winner) or highest (the highest unique score wins)
max_rounds    200                         an integer from 1 to 100000                                           a game still running after this many rounds ends unfinished
"""  # noqa: E501


def test_version(invoke):
    res = invoke("--version")
    assert res.exit_code == 0 and res.stdout == f"tricksim, version {__version__}\n"


def test_rules_standard_exact(invoke):
    res = invoke("rules", "schadenfreude")
    assert res.exit_code == 0, res.output
    from simcore.games.schadenfreude import GAME
    policies = "".join(f"  {line}\n" for line in GAME.policy_help())
    assert res.stdout == (RULES_STANDARD + "policies (--policy; parameters in the name, e.g. "
                          "pimc:worlds=32):\n" + policies)
    assert "pimc[:worlds=N,depth=D,playout=P,cards=C,stop=Z]" in policies


def _values(stdout):
    return {line.split()[0]: line.split()[1] for line in stdout.splitlines()[2:]}


def test_rules_of_a_preset_and_a_player_count(invoke):
    res = invoke("rules", "schadenfreude", "--preset", "summary-de")
    assert res.exit_code == 0
    assert res.stdout.splitlines()[0] == \
        "schadenfreude: preset 'summary-de'; presets: standard, summary-de"
    v = _values(res.stdout)
    assert v["all_bust"] == "highest" and v["tie_lead"] == "after_last"
    assert v["limit"] == "40" and v["pairs"] == "cancel"
    v3 = _values(invoke("rules", "schadenfreude", "--players", 3).stdout)
    assert v3["values"] == "-3,1,2,3,4,5,6,7,8" and v3["hand_size"] == "12"
    v5 = _values(invoke("rules", "schadenfreude", "--players", 5).stdout)
    assert v5["values"] == "-3,-2,-1,1,2,3,4,5,6,7,8,9" and v5["hand_size"] == "10"


def test_every_command_has_help_with_an_example(invoke):
    from cli.main import cli
    top = invoke("--help")
    assert top.exit_code == 0 and "Example" in top.stdout
    assert set(cli.commands) >= {"simulate", "replay", "rules"}
    for name in cli.commands:
        assert name in top.stdout
        res = invoke(name, "--help")
        assert res.exit_code == 0, name
        assert "Example" in res.stdout and f"tricksim {name}" in res.stdout, name
        assert invoke(name, "-h").stdout == res.stdout


# ----- files -----------------------------------------------------------------------------

def _all_files(folder):
    return sorted(os.path.relpath(os.path.join(d, f), folder)
                  for d, _, fs in os.walk(folder) for f in fs)


def test_simulate_writes_whole_files(invoke, tmp_path):
    (tmp_path / "recs").mkdir()                 # --records makes no folder (issue 20)
    res = invoke("simulate", "schadenfreude", "--games", 120, "--seed", 5, "--out", "run",
                 "--records", "recs/games.jsonl", "--policy", "heuristic")
    assert res.exit_code == 0, res.output
    assert _all_files(tmp_path) == ["recs/games.jsonl", "run/games.parquet", "run/run.json",
                                    "run/summary.csv"]        # no temporary files left
    games = pd.read_parquet(tmp_path / "run" / "games.parquet")
    assert len(games) == 120 and list(games["index"]) == list(range(120))
    info = json.loads((tmp_path / "run" / "run.json").read_text())
    assert info["seed"] == 5 and info["games"] == 120 and info["game"] == "schadenfreude"
    assert info["policies"] == ["heuristic"] * 4
    assert info["rules"]["limit"] == 40 and info["rules"]["floor"] == 0
    summary = pd.read_csv(tmp_path / "run" / "summary.csv")
    assert set(summary["section"]) >= {"seats", "game"}
    assert len((tmp_path / "recs" / "games.jsonl").read_text().splitlines()) == 120
    # the summary goes to stdout, the one-line report to stderr
    assert res.stdout.startswith("players: heuristic in every seat (as given)\n[seats]\n")
    said = [line for line in res.stderr.splitlines()    # less the heartbeat and progress
            if " elapsed" not in line]            # lines a cold cache's compile brings
    assert said[0].startswith("120 games in ") and "seed 5" in res.stderr


def test_summary_only_writes_no_games_table(invoke, tmp_path):
    res = invoke("simulate", "schadenfreude", "--games", 50, "--seed", 5, "--out", "run",
                 "--summary-only")
    assert res.exit_code == 0, res.output
    assert _all_files(tmp_path) == ["run/run.json", "run/summary.csv"]


def test_default_output_folder_is_under_results(invoke, tmp_path):
    res = invoke("simulate", "schadenfreude", "--games", 10, "--seed", 1)
    assert res.exit_code == 0, res.output
    runs = list((tmp_path / "results").iterdir())
    assert len(runs) == 1 and runs[0].name.startswith("schadenfreude-")


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_summary_formats(invoke, fmt):
    res = invoke("simulate", "schadenfreude", "--games", 30, "--seed", 2, "--out", "run",
                 "--format", fmt)
    assert res.exit_code == 0, res.output
    if fmt == "json":
        data = json.loads(res.stdout)
        assert len(data["seats"]) == 4 and sum(r["games"] for r in data["seats"]) == 120
    else:
        assert res.stdout.splitlines()[0].startswith("section,")


def test_rules_from_a_toml_file(invoke, tmp_path):
    (tmp_path / "r.toml").write_text('[schadenfreude]\nlimit = 30\nfloor = "none"\n'
                                     'values = [-3, 1, 2, 3, 4, 5, 6, 7, 8]\n')
    res = invoke("simulate", "schadenfreude", "--rules", "r.toml", "--players", 3,
                 "--games", 5, "--seed", 1, "--out", "run", "--set", "pairs=keep")
    assert res.exit_code == 0, res.output
    rules = json.loads((tmp_path / "run" / "run.json").read_text())["rules"]
    assert rules["limit"] == 30 and rules["floor"] == "none" and rules["pairs"] == "keep"
    assert rules["players"] == 3 and rules["values"] == [-3, 1, 2, 3, 4, 5, 6, 7, 8]


# ----- errors: one clear line, non-zero exit, no traceback ------------------------------

def _one_error_line(res, expected):
    assert res.exit_code != 0
    assert res.exception is None or isinstance(res.exception, SystemExit), res.exception
    assert "Traceback" not in res.output
    errors = [line for line in res.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1, res.stderr
    assert expected in errors[0], errors[0]
    return errors[0]


USER_ERRORS = [
    ("unknown game", ["simulate", "bridge"], 2, "'bridge' is not one of"),
    ("unknown game (rules)", ["rules", "bridge"], 2, "'bridge' is not one of"),
    ("unknown preset", ["simulate", "schadenfreude", "--preset", "nope"], 1,
     "unknown preset 'nope' for schadenfreude; presets: standard, summary-de"),
    ("unknown preset (rules)", ["rules", "schadenfreude", "--preset", "nope"], 1,
     "unknown preset 'nope'"),
    ("unknown option", ["simulate", "schadenfreude", "--set", "jokers=2"], 1,
     "unknown option 'jokers' for schadenfreude; options: players, values, hand_size"),
    ("bad value", ["simulate", "schadenfreude", "--set", "pairs=maybe"], 1,
     "option 'pairs': 'maybe' is not allowed; allowed: one of cancel, keep"),
    ("bad number", ["simulate", "schadenfreude", "--set", "limit=lots"], 1,
     "option 'limit': 'lots' is not allowed; allowed: an integer from 1 to 1000000000"),
    ("bad list value", ["simulate", "schadenfreude", "--set", "values=0,1,2"], 1,
     "option 'values'"),
    ("duplicate list value", ["simulate", "schadenfreude", "--set", "values=1,1,2"], 1,
     "option 'values'"),
    ("set without =", ["simulate", "schadenfreude", "--set", "limit"], 1,
     "--set expects NAME=VALUE, got 'limit'"),
    ("two players", ["simulate", "schadenfreude", "--players", "2"], 1,
     "option 'players': 2 is not allowed; allowed: an integer from 3 to 5"),
    ("six players", ["simulate", "schadenfreude", "--players", "6"], 1,
     "option 'players': 6 is not allowed"),
    ("six players (rules)", ["rules", "schadenfreude", "--players", "6"], 1,
     "option 'players': 6 is not allowed"),
    ("hand too large", ["simulate", "schadenfreude", "--set", "hand_size=13"], 1,
     "players × hand_size = 4 × 13 = 52 exceeds the deck of 50 cards; allowed: hand_size "
     "at most 12"),
    ("hand too large for 3", ["simulate", "schadenfreude", "--players", "3", "--set",
                              "hand_size=13"], 1, "exceeds the deck of 38 cards"),
    ("floor at the limit", ["simulate", "schadenfreude", "--set", "floor=40"], 1,
     "option 'floor': 40 is not allowed; allowed: an integer below limit (40) or none"),
    ("floor above the limit", ["simulate", "schadenfreude", "--set", "limit=10",
                               "--set", "floor=12"], 1, "option 'floor': 12 is not allowed"),
    ("policy list too short", ["simulate", "schadenfreude", "--policy", "random,heuristic"], 1,
     "--policy lists 2 players but schadenfreude with these rules has 4 seats"),
    ("policy list too long", ["simulate", "schadenfreude", "--players", "3", "--policy",
                              "random,random,random,random"], 1, "has 3 seats"),
    ("unknown policy", ["simulate", "schadenfreude", "--policy", "genius"], 1,
     "unknown policy 'genius' for schadenfreude; policies: random, heuristic"),
    ("zero threads", ["simulate", "schadenfreude", "--threads", "0"], 1,
     "--threads 0 is not allowed; allowed: 1 to"),
    ("zero games", ["simulate", "schadenfreude", "--games", "0"], 1,
     "--games 0 is not allowed; allowed: a positive integer"),
    ("negative seed", ["simulate", "schadenfreude", "--seed", "-1"], 1,
     "--seed -1 is not allowed"),
    ("not a number", ["simulate", "schadenfreude", "--games", "many"], 2,
     "'many' is not a valid integer"),
    ("missing rules file", ["simulate", "schadenfreude", "--rules", "none.toml"], 1,
     "rules file 'none.toml' does not exist"),
    ("unknown command", ["deal"], 2, "No such command 'deal'"),
]


@pytest.mark.parametrize("label, args, code, message", USER_ERRORS,
                         ids=[e[0] for e in USER_ERRORS])
def test_user_errors_are_one_line(label, args, code, message, invoke, tmp_path):
    res = invoke(*args, "--out", "run") if args[0] == "simulate" and len(args) > 1 \
        else invoke(*args)
    _one_error_line(res, message)
    assert res.exit_code == code
    assert not (tmp_path / "run").exists() and not (tmp_path / "results").exists()


def test_malformed_toml(invoke, tmp_path):
    (tmp_path / "bad.toml").write_text("limit = \n")
    res = invoke("simulate", "schadenfreude", "--rules", "bad.toml")
    _one_error_line(res, "rules file 'bad.toml' is not valid TOML")
    assert res.exit_code == 1


def test_unknown_option_in_toml(invoke, tmp_path):
    (tmp_path / "bad.toml").write_text("[schadenfreude]\nlimit = 30\njokers = 1\n")
    res = invoke("simulate", "schadenfreude", "--rules", "bad.toml")
    _one_error_line(res, "unknown option 'jokers' for schadenfreude")


def test_bad_value_in_toml(invoke, tmp_path):
    (tmp_path / "bad.toml").write_text('pairs = "twice"\n')
    res = invoke("simulate", "schadenfreude", "--rules", "bad.toml")
    _one_error_line(res, "option 'pairs': 'twice' is not allowed")


def test_records_under_a_file_is_one_line(invoke, tmp_path):
    (tmp_path / "afile").write_text("")
    res = invoke("simulate", "schadenfreude", "--games", 3, "--seed", 1, "--out", "run",
                 "--records", "afile/games.jsonl")
    _one_error_line(res, "afile")
    assert res.exit_code == 1


def test_zero_chunk_size_is_an_error(invoke, tmp_path):
    res = invoke("simulate", "schadenfreude", "--games", 3, "--chunk-size", 0, "--out", "run")
    _one_error_line(res, "--chunk-size 0 is not allowed")


def test_negative_chunk_size_is_an_error(invoke):
    res = invoke("simulate", "schadenfreude", "--games", 3, "--chunk-size", -4, "--out", "run")
    _one_error_line(res, "--chunk-size -4 is not allowed; allowed: a positive integer")


def test_replay_summary_line_and_empty_file(invoke, tmp_path, golden_dir):
    res = invoke("replay", golden_dir / "schadenfreude_3p.jsonl")
    assert (res.exit_code, res.stdout, res.stderr) == (0, "2 records replayed, all valid\n", "")
    (tmp_path / "empty.jsonl").write_text("\n")
    res = invoke("replay", tmp_path / "empty.jsonl")       # an empty file is an error
    assert res.exit_code == 1 and res.stdout == ""
    assert "holds no records" in res.stderr


def test_the_tests_carry_their_facts():
    """A user's clone has no copy of the project's shared spec folder: no test may read it."""
    here = os.path.dirname(__file__)
    forbidden = "/work/" + "shared"
    for name in os.listdir(here):
        if name.startswith(("test_schadenfreude_", "naive_schadenfreude", "conftest")):
            with open(os.path.join(here, name), encoding="utf-8") as fh:
                assert forbidden not in fh.read(), name
