"""Sweeps, paired comparisons and fairness measures (tricksim sweep / compare)."""
import pandas as pd
import pytest

from simcore import get_game, simulate
from simcore.experiments.sweep import compare, parse_rules_spec, parse_vary, sweep

GAMES = 3000


@pytest.fixture(scope="module")
def limit_sweep():
    return sweep("schadenfreude", parse_vary("schadenfreude", ["limit=30,40"]),
                 players=3, games=GAMES, seed=11)


def test_sweep_reproduces_from_its_seed(limit_sweep):
    again = sweep("schadenfreude", parse_vary("schadenfreude", ["limit=30,40"]),
                  players=3, games=GAMES, seed=11)
    pd.testing.assert_frame_equal(limit_sweep.table, again.table)


def test_sweep_cell_equals_the_simulate_run(limit_sweep):
    g = get_game("schadenfreude")
    rules = g.build_rules(assignments=["limit=30"], players=3)
    run = simulate("schadenfreude", rules, games=GAMES, seed=11)
    cell = limit_sweep.table[limit_sweep.table["limit"] == "30"].reset_index(drop=True)
    cols = list(run.summary["seats"].columns)
    pd.testing.assert_frame_equal(cell[cols], run.summary["seats"])
    assert list(limit_sweep.table.columns[:3]) == ["variant", "label", "limit"]
    assert len(limit_sweep.table) == 2 * 3


def test_sweep_combines_every_value():
    plan = parse_vary("schadenfreude", ["pairs=cancel,keep", "floor=0,none"])
    res = sweep("schadenfreude", plan, games=200, seed=3)
    assert res.labels == ["pairs=cancel floor=0", "pairs=cancel floor=none",
                          "pairs=keep floor=0", "pairs=keep floor=none"]


def test_list_option_values_are_separated_by_semicolons():
    plan = parse_vary("schadenfreude", ["values=-3,1,2,3,4,5,6,7,8;-3,-2,-1,1,2,3,4,5,6,7"])
    assert plan == [("values", [(-3, 1, 2, 3, 4, 5, 6, 7, 8), (-3, -2, -1, 1, 2, 3, 4, 5, 6, 7)])]


def test_compare_against_itself_is_zero():
    rules = parse_rules_spec("schadenfreude", "standard")
    res = compare("schadenfreude", rules, rules, games=1000, seed=5)
    assert (res.table["diff"] == 0).all()
    assert not res.table["significant"].any()
    assert set(res.table["measure"]) == {"win", "score", "bust"}


def test_compare_finds_a_real_difference():
    a = parse_rules_spec("schadenfreude", "standard")
    b = parse_rules_spec("schadenfreude", "standard;limit=30")
    res = compare("schadenfreude", a, b, games=2000, seed=5)
    score = res.table[res.table["measure"] == "score"]
    assert (score["diff"] < 0).all() and score["significant"].all()
    assert (score["low"] <= score["diff"]).all() and (score["diff"] <= score["high"]).all()


def test_fairness_section_in_every_summary():
    run = simulate("schadenfreude", games=2000, seed=2)
    fair = dict(zip(run.summary["fairness"]["metric"], run.summary["fairness"]["value"]))
    assert 0.0 <= fair["equal_wins_p"] <= 1.0
    seats = run.summary["seats"]
    assert fair["win_rate_spread"] == pytest.approx(seats["win_rate"].max()
                                                    - seats["win_rate"].min())
    assert "first_leader_advantage" in fair


def test_cli_sweep_writes_table_plots_and_report(invoke):
    res = invoke("sweep", "schadenfreude", "--vary", "limit=30,40", "--games", 500,
                 "--seed", 1, "--out", "sw", "--policy", "random")
    assert res.exit_code == 0, res.output
    assert res.stdout.splitlines()[0] == "players: random in every seat (as given)"
    assert res.stdout.splitlines()[1].startswith("limit=30: seat win rates")
    from pathlib import Path
    out = Path("sw")
    for name in ("sweep.parquet", "sweep.csv", "seats.png", "game.png"):
        assert (out / name).stat().st_size > 0
        if name.endswith(".png"):
            assert (out / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    report = (out / "report.md").read_text()
    assert report.startswith("# Sweep of schadenfreude: limit")
    for label in ("limit=30", "limit=40"):
        assert f"**{label}**" in report
    assert "](seats.png)" in report and "](game.png)" in report
    assert len(pd.read_csv(out / "sweep.csv")) == 8


@pytest.mark.parametrize("vary, message", [
    ("limit", "--vary expects NAME=V1,V2,..., got 'limit'"),
    ("colour=red,blue", "unknown option 'colour' for schadenfreude"),
    ("limit=30,x", "option 'limit': 'x' is not allowed; allowed: an integer from 1 to 1000000000"),
    ("limit=30,30", "--vary limit lists a value twice"),
    ("limit=", "--vary limit= gives no values"),
    ("players=3,6", "option 'players': '6' is not allowed; allowed: an integer from 3 to 5"),
])
def test_cli_sweep_bad_vary_is_one_line(invoke, vary, message):
    res = invoke("sweep", "schadenfreude", "--vary", vary, "--games", 10, "--out", "sw")
    assert res.exit_code == 1
    assert message in res.stderr
    assert "Traceback" not in res.output and len(res.stderr.strip().splitlines()) == 1


def test_cli_compare_bad_spec_and_seat_mismatch(invoke):
    res = invoke("compare", "schadenfreude", "--a", "standard", "--b", "nonsense",
                 "--games", 10, "--out", "c")
    assert res.exit_code == 1 and "'nonsense' is neither a preset" in res.stderr
    res = invoke("compare", "schadenfreude", "--a", "players=3", "--b", "players=4",
                 "--games", 10, "--out", "c")
    assert res.exit_code == 1 and "needs the same seats" in res.stderr


# ----- issue 11: sweeps over different table sizes ---------------------------------
def test_sweep_over_table_sizes_shows_every_seat_with_its_own_fair_share(tmp_path):
    from simcore.statistics.plots import game_metric_names, seat_plot_data
    from simcore.experiments.sweep import write_sweep
    res = sweep("schadenfreude", parse_vary("schadenfreude", ["players=5,3"]),
                games=300, seed=1)
    assert list(res.table.groupby("variant")["seat"].apply(list)) == [[0, 1, 2, 3, 4],
                                                                      [0, 1, 2]]
    data = seat_plot_data(res)
    assert [len(d["values"]) for d in data] == [5, 3]
    for d, run in zip(data, res.runs):            # each variant's own mean seat
        assert d["fair"] == pytest.approx(run.summary["seats"]["win_rate"].mean())
    assert data[0]["fair"] < 0.25 < data[1]["fair"]
    files = write_sweep(res, tmp_path)
    assert all(f.exists() for f in files)
    report = (tmp_path / "report.md").read_text()
    assert "| players=5 | 4 |" in report and "| players=3 | 2 |" in report
    assert game_metric_names(res)


def test_sweep_over_wendish_variants_of_different_sizes(tmp_path):
    from simcore.statistics.plots import game_metric_names
    from simcore.experiments.sweep import write_sweep
    res = sweep("wendish", parse_vary("wendish", ["variant=four,three,officers"]),
                games=40, seed=1)
    assert list(res.table.groupby("variant_index").size()) == [4, 3, 2]
    assert list(res.table["variant"].unique()) == ["four", "three", "officers"]
    names = game_metric_names(res)
    assert "draw_rate" in names and "old_ones_one_hand_rate" in names  # officers' own
    write_sweep(res, tmp_path)
    assert (tmp_path / "seats.png").stat().st_size > 0


# ----- issue 11: fairness figures that mean what they say ---------------------------
def test_holm_correction():
    from simcore.statistics.stats import holm
    out = holm([0.01, 0.04, float("nan"), 0.03])
    # three tested: 0.01*3, then max(0.03, 0.03*2), then max(.., 0.04*1)
    assert out[0] == pytest.approx(0.03) and out[3] == pytest.approx(0.06)
    assert out[1] == pytest.approx(0.06) and out[2] != out[2]
    assert holm([0.5, 0.9]) == [1.0, 1.0]


def test_equal_wins_test_only_when_every_seat_plays_the_same_policy():
    from simcore.statistics.stats import fairness_note
    mixed = simulate("schadenfreude", games=2000, seed=3,
                     policies=["heuristic", "random", "random", "random"])
    fair = dict(zip(mixed.summary["fairness"]["metric"], mixed.summary["fairness"]["value"]))
    assert fair["equal_wins_p"] != fair["equal_wins_p"]          # NaN: no test
    assert "different policies" in fairness_note(mixed.summary, mixed.contract)
    same = simulate("schadenfreude", games=2000, seed=3)
    fair = dict(zip(same.summary["fairness"]["metric"], same.summary["fairness"]["value"]))
    assert 0 <= fair["equal_wins_p"] <= 1
    assert fairness_note(same.summary, same.contract) is None


def test_wendish_has_a_test_of_equal_mean_scores():
    from simcore.statistics.stats import equal_means_test
    seats = pd.DataFrame({"score_per_game": [0.5, -0.5, 0.0, 0.0],
                          "game_score_low": [0.3, -0.7, -0.2, -0.2],
                          "game_score_high": [0.7, -0.3, 0.2, 0.2]})
    measure = get_game("wendish").contract(get_game("wendish").build_rules()).measure("score")
    z, p = equal_means_test(seats, measure)
    assert z == pytest.approx(0.5 / (0.2 / 1.959963984540054))
    assert p < 1e-4
    seats["score_per_game"] = 0.0
    assert equal_means_test(seats, measure)[1] == 1.0
    run = simulate("wendish", games=200, seed=2)
    fair = dict(zip(run.summary["fairness"]["metric"], run.summary["fairness"]["value"]))
    assert 0 <= fair["equal_scores_p"] <= 1


def test_sweep_report_corrects_for_many_variants(limit_sweep, tmp_path):
    from simcore.statistics.stats import holm, seat_test_p
    from simcore.experiments.sweep import write_sweep
    raw = [seat_test_p(r.summary["fairness"]) for r in limit_sweep.runs]
    expect = holm(raw)
    per_variant = limit_sweep.table.groupby("variant")["fair_seat_test_p_holm"].first()
    assert list(per_variant) == pytest.approx(expect)
    write_sweep(limit_sweep, tmp_path)
    report = (tmp_path / "report.md").read_text()
    assert "Holm" in report and "Holm-corrected" in report


# ----- issue 11: compare players as well as rules -------------------------------
def test_sweep_and_compare_are_the_python_api_whatever_was_imported_first():
    import sys

    import simcore
    from simcore.experiments.sweep import parse_vary as _pv  # noqa: F401  (the submodule, imported first)
    from simcore import compare as api_compare, sweep as api_sweep
    module = sys.modules["simcore.experiments.sweep"]
    assert callable(api_sweep) and api_sweep is module.sweep and simcore.sweep is module.sweep
    assert api_compare is module.compare



def test_engine_is_the_python_api_after_a_games_api_was_imported():
    """A game's api imports ``simcore.engine.EngineBase``; ``from simcore import engine``
    afterwards must still give the function (run fresh: this session imported both)."""
    import subprocess
    import sys
    code = ("from simcore.games.schnapsen import api\n"
            "from simcore import engine\n"
            "assert callable(engine), engine\n"
            "print(engine('schnapsen').game)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr

def test_vary_policy_and_policies_per_side(tmp_path):
    from simcore.experiments.sweep import parse_side, write_compare
    plan = parse_vary("schadenfreude", ["policy=heuristic,random,random,random;random"])
    assert plan == [("policy", [("heuristic", "random", "random", "random"), ("random",)])]
    res = sweep("schadenfreude", plan, games=300, seed=4)
    assert list(res.table["policies"].unique()) == ["heuristic,random,random,random", "random"]
    assert list(res.table["policy"][:4]) == ["heuristic", "random", "random", "random"]
    with pytest.raises(Exception, match="--policy and --vary policy"):
        sweep("schadenfreude", plan, policies=["random"], games=10, seed=1)
    rules, pols = parse_side("schadenfreude", "standard;policy=heuristic,random,random,random")
    assert pols == ["heuristic", "random", "random", "random"]
    res = compare("schadenfreude", rules, rules, games=500, seed=2, policies_a=pols,
                  policies_b=["random"])
    win0 = res.table[(res.table["measure"] == "win") & (res.table["seat"] == 0)].iloc[0]
    assert win0["policy_a"] == "heuristic" and win0["policy_b"] == "random"
    assert win0["diff"] < 0 and win0["significant"]
    metrics = set(get_game("schadenfreude").game_metrics(res.run_a.summary, rules)["metric"])
    assert set(res.game_table["metric"]) == metrics - {"games"}
    rate = res.game_table.set_index("metric").loc["no_winner_rate"]
    assert rate["diff_pp"] == pytest.approx(100 * rate["diff"])
    assert res.game_table.set_index("metric").loc["mean_rounds"]["diff_pp"] != \
        res.game_table.set_index("metric").loc["mean_rounds"]["diff_pp"]   # a mean: no pp
    files = write_compare(res, tmp_path, "tricksim compare ...")
    assert all(f.exists() for f in files)
    import json
    info = json.loads((tmp_path / "compare.json").read_text())
    assert info["seed"] == 2 and info["a"]["policies"][0] == "heuristic"
    assert info["b"]["policies"] == ["random"] * 4 and "limit" in info["a"]["rules"]
    assert "## Game level" in (tmp_path / "report.md").read_text()


def test_wendish_sweep_tabulates_every_contract_figure_and_flags_options_without_effect():
    from simcore.experiments.sweep import without_effect
    res = sweep("wendish", parse_vary("wendish", ["variant=four,officers",
                                                  "lust_solo=true,false"]),
                games=40, seed=1)
    for figure in ("solo_schneider_rate", "solo_schwarz_rate", "solo_declarer_card_points"):
        assert "game_" + figure in res.table
    notes = without_effect(res)
    assert notes == ["lust_solo (true; false) has no effect when variant=officers: those "
                     "variants played identical games"]
