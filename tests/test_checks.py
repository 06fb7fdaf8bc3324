"""Issue 22: designer defaults (the players named first), verdicts checked with strong
players (--check-with) and how much skill a rule set rewards (--skill)."""
import json
import math
from pathlib import Path

import pandas as pd
import pytest

from simcore.experiments.check import Figure, conclusion, default_check_games, skill
from simcore.games import design_players, get_game, players_line, random_play_note
from simcore.running.settings import RunSettings


def fig(diff, low, high, clear="interval"):
    if clear == "interval":
        clear = low > 0 or high < 0
    return Figure(("game", "x"), "x", True, "", diff, low, high, clear)


# ----- the wording of a checked verdict ---------------------------------------------
@pytest.mark.parametrize("main, check, words", [
    (fig(-0.212, -0.22, -0.20), fig(-0.235, -0.240, -0.230), "holds, larger"),
    (fig(-0.212, -0.22, -0.20), fig(-0.089, -0.120, -0.058), "holds, smaller"),
    (fig(-0.212, -0.22, -0.20), fig(-0.215, -0.230, -0.200), "holds, about the same size"),
    (fig(0.034, 0.025, 0.043), fig(-0.022, -0.028, -0.016), "reverses"),
    (fig(0.034, 0.025, 0.043), fig(0.004, -0.010, 0.018),
     "vanishes: no clear evidence under expert play"),
    (fig(0.004, -0.010, 0.018), fig(0.034, 0.025, 0.043),
     "appears: evidence under expert play only"),
    (fig(0.004, -0.010, 0.018), fig(-0.002, -0.010, 0.006), "no clear evidence under either"),
])
def test_conclusion_words_each_case(main, check, words):
    assert conclusion(main, check, "expert") == words


def test_conclusion_follows_the_holm_flag_not_only_the_interval():
    # an interval that excludes 0 but is not significant after Holm's adjustment
    main = fig(0.03, 0.01, 0.05, clear=False)
    assert conclusion(main, fig(0.03, 0.01, 0.05), "expert").startswith("appears")
    assert conclusion(fig(0.03, 0.01, 0.05, clear=None), main, "expert").startswith(
        "no verdict")


def test_default_check_size_is_smaller_but_not_tiny():
    assert default_check_games(20_000) == 5_000
    assert default_check_games(2_000) == 1_000
    assert default_check_games(40) == 40


# ----- the skill edge ------------------------------------------------------------------
def test_pure_luck_rules_show_zero_skill_edge_and_real_rules_a_positive_one():
    """One card per hand leaves no choice: every seat plays the same game whoever sits
    there, so the edge of expert over random is 0 on every deal; with twelve cards it
    is clearly positive, and the difference between the two has an interval."""
    g = get_game("schadenfreude")
    res = skill("schadenfreude", {"one card": g.build_rules(assignments=["hand_size=1"]),
                                  "standard": g.build_rules()},
                "expert", "random", RunSettings(games=150, seed=3, threads=1))
    luck, real = res.table.to_dict("records")
    assert (luck["edge"], luck["low"], luck["high"]) == (0.0, 0.0, 0.0)
    assert real["low"] > 0.05 and real["edge"] > real["low"]
    assert real["diff_low"] > 0 and real["diff_p_holm"] < 0.05
    assert math.isnan(luck["diff_vs_first"]) and res.rate and res.measure == "win"


# ----- defaults that mean something ----------------------------------------------------
def test_every_game_declares_its_designer_players():
    from simcore.games import BUILT_IN, get_players
    for game in BUILT_IN:
        assert design_players(game) == ["expert"]
        assert "expert" in get_players(game).PLAYERS
    assert random_play_note("schadenfreude", ["random"] * 4) == ""
    assert "99.86%" in random_play_note("wendish", ["heuristic", "random", "random", "random"])
    assert random_play_note("schnapsen", ["expert", "expert"]) == ""
    assert players_line(["expert"] * 4, True) == (
        "players: expert in every seat (the game's default; --policy to change)")
    assert players_line(["heuristic", "random"], False) == (
        "players: heuristic (seat 0), random (seat 1) (as given)")


def test_simulate_names_its_default_players_first_and_records_them(invoke):
    res = invoke("simulate", "schadenfreude", "--games", 30, "--seed", 1, "--out", "r",
                 "--threads", 1)
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0] == (
        "players: expert in every seat (the game's default; --policy to change)")
    assert json.loads(Path("r/run.json").read_text())["policies"] == ["expert"] * 4


def test_machine_readable_output_keeps_the_players_line_out_of_the_data(invoke):
    res = invoke("simulate", "wendish", "--games", 20, "--seed", 1, "--out", "r",
                 "--threads", 1, "--policy", "random", "--format", "csv")
    assert res.exit_code == 0, res.output
    assert "players:" not in res.stdout
    assert res.stderr.splitlines()[0] == "players: random in every seat (as given)"
    assert res.stderr.count("random players in wendish") == 1


# ----- the commands ----------------------------------------------------------------------
def test_compare_checked_with_expert_and_skill_writes_both(invoke):
    res = invoke("compare", "schadenfreude", "--a", "standard", "--b", "limit=30",
                 "--policy", "heuristic", "--games", 200, "--seed", 1, "--out", "c",
                 "--check-with", "expert", "--check-games", 100, "--skill", "expert,random",
                 "--threads", 1)
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0] == "players: heuristic in every seat (as given)"
    assert "checked with expert play on the first 100 games of the same seed" in res.stdout
    assert "skill edge of expert over random" in res.stdout
    check = pd.read_csv("c/check.csv")
    assert set(check["main_players"]) == {"heuristic"}
    assert set(check["check_players"]) == {"expert"}
    assert check["conclusion"].notna().all() and len(check) > 5
    lines = [ln for ln in res.stdout.splitlines() if " with heuristic play, " in ln]
    assert all(ln.rsplit(": ", 1)[-1].split(",")[0].split(":")[0] in
               ("holds", "reverses", "vanishes", "appears", "no clear evidence under either")
               for ln in lines)
    skill_table = pd.read_csv("c/skill.csv")
    assert list(skill_table["rules"]) == ["A (standard)", "B (limit=30)"]
    report = Path("c/report.md").read_text()
    assert "## Verdicts checked with expert play" in report
    assert "## How much skill each rule set rewards" in report
    # the same folder again without the options: the older check files go
    res = invoke("compare", "schadenfreude", "--a", "standard", "--b", "limit=30",
                 "--policy", "heuristic", "--games", 40, "--seed", 1, "--out", "c",
                 "--threads", 1)
    assert res.exit_code == 0, res.output
    assert not Path("c/check.csv").exists() and not Path("c/skill.csv").exists()
    assert "Verdicts checked" not in Path("c/report.md").read_text()


def test_sweep_checked_with_expert_compares_every_variant_with_the_first(invoke):
    res = invoke("sweep", "schadenfreude", "--vary", "limit=30,40,50", "--policy", "random",
                 "--games", 120, "--seed", 2, "--out", "s", "--check-with", "expert",
                 "--check-games", 60, "--skill", "heuristic,random", "--threads", 1)
    assert res.exit_code == 0, res.output
    check = pd.read_csv("s/check.csv")
    assert set(check["variant"]) == {"limit=40 vs limit=30", "limit=50 vs limit=30"}
    skill_table = pd.read_csv("s/skill.csv")
    assert list(skill_table["rules"]) == ["limit=30", "limit=40", "limit=50"]
    assert json.loads(Path("s/sweep.json").read_text())["policies"] == [["random"] * 4] * 3
    assert res.stderr.count("random players") == 0     # not a distortion in Schadenfreude


@pytest.mark.parametrize("args, message", [
    (["--check-games", 10], "--check-games sets the size of --check-with and --skill runs"),
    (["--check-with", "nobody"], "--check-with nobody:"),
    (["--skill", "expert"], "--skill expert: give two players, STRONG,WEAK"),
    (["--skill", "expert,expert"], "STRONG and WEAK are the same player"),
    (["--check-with", "expert", "--check-games", 500], "--check-games 500: allowed 1 to"),
    (["--check-with", "expert", "--rotate", "--policy", "heuristic,random,random,random"],
     "cannot check a run with --rotate"),
])
def test_bad_check_options_are_one_line_before_anything_is_played(invoke, args, message):
    res = invoke("compare", "schadenfreude", "--a", "standard", "--b", "limit=30",
                 "--games", 100, "--out", "c", *args)
    assert res.exit_code == 1
    assert message in res.stderr
    assert "Traceback" not in res.output and len(res.output.strip().splitlines()) == 1
    assert not Path("c").exists()


def test_a_sweep_of_one_variant_cannot_be_checked(invoke):
    res = invoke("sweep", "schadenfreude", "--vary", "limit=30", "--games", 100,
                 "--check-with", "expert", "--out", "s")
    assert res.exit_code == 1
    assert "--vary gives one variant" in res.stderr and "Traceback" not in res.output
    assert not Path("s").exists()
