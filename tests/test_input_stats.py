"""Statistics with too little data say so (issue 9, item 9): no paired test below
MIN_PAIRED_GAMES games, no chi-square test of equal wins below MIN_EXPECTED_WINS
expected wins per seat, no interval around a single value."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from simcore import simulate
from simcore import get_game
from simcore.statistics.stats import MIN_EXPECTED_WINS, fairness_frame, fairness_note, mean_ci
from simcore.experiments.sweep import MIN_PAIRED_GAMES, compare, fairness_line, paired_test, \
    parse_rules_spec


def test_compare_with_one_game_reports_no_test(invoke, tmp_path):
    res = invoke("compare", "schadenfreude", "--a", "standard", "--b", "limit=30",
                 "--games", 1, "--seed", 3, "--out", "c")
    assert res.exit_code == 0, res.output
    table = pd.read_csv(tmp_path / "c" / "compare.csv")
    assert table["p_value"].isna().all() and table["significant"].isna().all()
    assert table["low"].isna().all() and table["high"].isna().all()
    assert (table["diff"] != 0).any()                  # the figures are there
    assert "True" not in res.stdout and "0.0000   True" not in res.stdout
    assert ("no significance test: 1 game per rule set, and a paired test needs at least 30 "
            "(below that its p-value is not trustworthy); the figures are the observed means "
            "only") in res.stderr
    assert "1 game each" in res.stderr


def test_compare_json_says_null_not_significant(invoke):
    res = invoke("compare", "schadenfreude", "--a", "standard", "--b", "limit=30",
                 "--games", 2, "--seed", 3, "--out", "c", "--format", "json")
    assert res.exit_code == 0, res.output
    assert '"significant": null' in res.stdout and '"significant": true' not in res.stdout


@pytest.mark.parametrize("games, tested", [(MIN_PAIRED_GAMES - 1, False),
                                           (MIN_PAIRED_GAMES, True)])
def test_the_paired_test_starts_at_the_minimum(games, tested):
    a = parse_rules_spec("schadenfreude", "standard")
    b = parse_rules_spec("schadenfreude", "limit=30")
    res = compare("schadenfreude", a, b, games=games, seed=3)
    assert res.table["p_value"].notna().all() == tested
    assert res.table["p_value"].isna().all() == (not tested)
    assert (res.note == "") == tested
    if tested:
        assert res.table["significant"].map(lambda v: isinstance(v, bool)).all()


def test_paired_test_below_the_minimum_is_nan():
    xa, xb = np.zeros(MIN_PAIRED_GAMES - 1), np.ones(MIN_PAIRED_GAMES - 1)
    assert all(math.isnan(v) for v in paired_test(xa, xb))


def test_a_constant_difference_gets_the_sign_test_not_p_zero():
    n = MIN_PAIRED_GAMES
    low, high, p = paired_test(np.zeros(n), np.full(n, 2.0))
    assert low == high == 2.0
    assert p == pytest.approx(2 * 0.5 ** n) and p > 0
    assert paired_test(np.ones(n), np.ones(n)) == (0.0, 0.0, 1.0)


def test_the_paired_test_is_scipys_t_test():
    from scipy import stats
    rng = np.random.default_rng(1)
    xa, xb = rng.normal(size=200), rng.normal(0.3, size=200)
    low, high, p = paired_test(xa, xb)
    ref = stats.ttest_rel(xb, xa)
    assert p == pytest.approx(ref.pvalue) and low < 0.3 < high


def test_few_wins_give_no_chi_square_test_and_say_why():
    run = simulate("schadenfreude", games=3, seed=1)
    fair = dict(zip(run.summary["fairness"]["metric"], run.summary["fairness"]["value"]))
    assert math.isnan(fair["equal_wins_p"]) and math.isnan(fair["equal_wins_chi2"])
    note = fairness_note(run.summary, run.contract)
    wins = int(run.summary["seats"]["wins"].sum())
    assert note.startswith(f"no chi-square test of equal wins: {wins} wins among 4 seats")
    assert "at least 5 per seat (20 wins)" in note
    assert note in fairness_line("tiny", run) and "p = " not in fairness_line("tiny", run)


def test_the_chi_square_test_starts_at_five_expected_wins_per_seat():
    def summary(wins):
        seats = pd.DataFrame({"seat": range(4), "wins": wins, "win_rate": np.array(wins) / 40})
        return {"seats": seats}
    contract = get_game("schadenfreude").contract(get_game("schadenfreude").build_rules())
    few = fairness_frame(summary([19, 0, 0, 0]), contract)            # 19 < 4 * 5
    enough = fairness_frame(summary([20, 0, 0, 0]), contract)
    p_few = few.set_index("metric")["value"]["equal_wins_p"]
    p_enough = enough.set_index("metric")["value"]["equal_wins_p"]
    assert math.isnan(p_few) and p_enough < 1e-6
    assert fairness_note(summary([20, 0, 0, 0]), contract) is None
    assert MIN_EXPECTED_WINS == 5


def test_simulate_prints_why_the_fairness_test_is_missing(invoke):
    res = invoke("simulate", "schadenfreude", "--games", 3, "--seed", 1, "--out", "s")
    assert res.exit_code == 0, res.output
    assert "no chi-square test of equal wins" in res.stderr
    assert "equal_wins_p            -" in res.stdout
    many = invoke("simulate", "schadenfreude", "--games", 200, "--seed", 1, "--out", "m")
    assert "no chi-square test" not in many.stderr


def test_one_value_has_a_mean_but_no_interval():
    mean, sd, low, high = mean_ci(7.0, 49.0, 1)
    assert mean == 7.0 and all(math.isnan(v) for v in (sd, low, high))
    mean, sd, low, high = mean_ci(10.0, 58.0, 2)          # values 3 and 7
    assert mean == 5.0 and sd == pytest.approx(math.sqrt(8)) and low < 5.0 < high
