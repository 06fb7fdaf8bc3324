"""Seat rotation (simulate/compare --rotate) and paired game-level figures in compare.

Small runs: every kernel here is one the rest of the suite compiles anyway."""
import json
import math

import numpy as np
import pytest
from scipy import stats

from simcore import get_game, simulate
from simcore.experiments.rotation import rotate, rotations, simulate_rotated
from simcore.experiments.sweep import compare, paired_ratio, parse_rules_spec
from conftest import one_error_line

POLS = ["heuristic", "random", "random", "random"]
GAMES = 300


@pytest.fixture(scope="module")
def rotated():
    return simulate_rotated("schadenfreude", None, POLS, games=GAMES, seed=7)


def test_rotations_cover_every_seat_once():
    assert rotate(["a", "b", "c"], 1) == ["c", "a", "b"]
    assert rotations(POLS) == [0, 1, 2, 3]
    assert rotations(["a", "b", "a", "b"]) == [0, 1]        # a periodic list: played once
    assert rotations(["x"] * 4, POLS) == [0, 1, 2, 3]        # jointly with a second list
    assert rotations(["a", "b"]) == [0, 1]                  # Schnapsen: the swap


def test_rotated_figures_are_per_deal_means_over_the_rotations(rotated):
    # naive reference: the four rotated lists as plain runs on the same seed
    assert [r.policies for r in rotated.runs] == [rotate(POLS, r) for r in range(4)]
    wins = []
    for r in range(4):
        run = simulate("schadenfreude", None, rotate(POLS, r), games=GAMES, seed=7)
        w = np.stack([run.tables["games"][f"win_{p}"].to_numpy(float) for p in range(4)], 1)
        wins.append(w)
    heur = np.mean([wins[r][:, r % 4] for r in range(4)], axis=0)
    rand = np.mean([wins[r][:, (j + r) % 4] for r in range(4) for j in (1, 2, 3)], axis=0)
    t = rotated.table.set_index(["measure", "policy"])
    assert t.loc[("win", "heuristic"), "value"] == pytest.approx(heur.mean())
    assert t.loc[("win", "random"), "value"] == pytest.approx(rand.mean())
    assert t.loc[("win", "heuristic"), "positions"] == "0"
    d = rotated.differences.set_index("measure").loc["win"]
    ci = stats.ttest_rel(rand, heur).confidence_interval(0.95)
    assert (d["low"], d["high"]) == pytest.approx((ci.low, ci.high))
    assert d["diff_pp"] == pytest.approx(100 * (rand.mean() - heur.mean()))
    assert d["interval"] == "paired" and d["significant"]
    # a seat's value is what the per-seat summaries say, pooled over rotations
    seat_rates = [rotated.runs[r].summary["seats"]["win_rate"].iloc[r] for r in range(4)]
    assert t.loc[("win", "heuristic"), "value"] == pytest.approx(np.mean(seat_rates))


def test_summary_only_rotation_says_its_intervals_are_not_paired(rotated):
    so = simulate_rotated("schadenfreude", None, POLS, games=GAMES, seed=7, summary_only=True)
    assert not so.paired and set(so.table["interval"]) == {"unpaired, conservative"}
    a = so.table.set_index(["measure", "policy"])
    b = rotated.table.set_index(["measure", "policy"])
    for key in a.index:                         # same figures, wider (honest) intervals
        assert a.loc[key, "value"] == pytest.approx(b.loc[key, "value"])
    da, db = (x.set_index("measure").loc["win"] for x in (so.differences, rotated.differences))
    assert da["high"] - da["low"] > db["high"] - db["low"] and math.isnan(da["p_value"])


def test_rotate_needs_two_policies():
    with pytest.raises(Exception, match="at least two different policies"):
        simulate_rotated("schadenfreude", None, ["random"], games=10, seed=1)


def test_schnapsen_rotation_swaps_the_whole_match():
    rot = simulate_rotated("schnapsen", None, ["heuristic", "random"], games=60, seed=3)
    assert [r.policies for r in rot.runs] == [["heuristic", "random"], ["random", "heuristic"]]
    w = rot.table.set_index(["measure", "policy"])
    assert w.loc[("win", "heuristic"), "value"] + w.loc[("win", "random"), "value"] \
        == pytest.approx(1.0)


def test_compare_rotate_pairs_policies_deal_by_deal(rotated):
    rules = parse_rules_spec("schadenfreude", "standard")
    res = compare("schadenfreude", rules, rules, games=GAMES, seed=7, policies_a=POLS,
                  policies_b=["random"], rotate=True)
    assert res.shifts == [0, 1, 2, 3] and "seat" not in res.table
    row = res.table[(res.table["measure"] == "win") & (res.table["positions"] == "0")].iloc[0]
    assert row["policy_a"] == "heuristic" and row["policy_b"] == "random"
    assert row["a"] == pytest.approx(
        rotated.table.set_index(["measure", "policy"]).loc[("win", "heuristic"), "value"])
    assert row["diff"] < 0 and row["significant"]
    assert set(res.game_table["interval"]) == {"paired"}
    assert res.runs_b[0] is res.runs_b[3]        # B's one list is played once


def test_game_level_figures_are_paired_game_by_game():
    a = parse_rules_spec("schadenfreude", "standard")
    b = parse_rules_spec("schadenfreude", "standard;limit=30")
    res = compare("schadenfreude", a, b, games=GAMES, seed=5)
    t = res.game_table.set_index("metric")
    assert set(t["interval"]) == {"paired"}
    ra = res.run_a.tables["games"]["rounds"].to_numpy(float)
    rb = res.run_b.tables["games"]["rounds"].to_numpy(float)
    test = stats.ttest_rel(rb, ra)
    ci = test.confidence_interval(0.95)
    assert (t.loc["mean_rounds", "low"], t.loc["mean_rounds", "high"]) == \
        pytest.approx((ci.low, ci.high))
    assert t.loc["mean_rounds", "p_value"] == pytest.approx(test.pvalue)
    summary = dict(zip(res.run_b.summary["game"]["metric"], res.run_b.summary["game"]["value"]))
    assert t.loc["no_winner_rate", "b"] == pytest.approx(summary["no_winner_rate"])


def test_paired_ratio_is_the_delta_method():
    rng = np.random.default_rng(1)
    den_a, den_b = rng.integers(1, 6, 400).astype(float), rng.integers(1, 6, 400).astype(float)
    num_a, num_b = rng.binomial(den_a.astype(int), 0.3), rng.binomial(den_b.astype(int), 0.4)
    a, b, lo, hi, p = paired_ratio(num_a, den_a, num_b, den_b)
    assert a == pytest.approx(num_a.sum() / den_a.sum()) and lo < b - a < hi and p < 0.05
    # by hand: linearized per-game values, Student's t
    z = (num_b - b * den_b) / den_b.mean() - (num_a - a * den_a) / den_a.mean()
    half = stats.t.ppf(0.975, 399) * z.std(ddof=1) / math.sqrt(400)
    assert (lo, hi) == pytest.approx((b - a - half, b - a + half))
    # denominator 0 on a side: that figure does not exist there
    assert math.isnan(paired_ratio(num_a, 0 * den_a, num_b, den_b)[2])


@pytest.mark.parametrize("game,spec", [("schnapsen", "austrian"), ("wendish", "variant=four"),
                                       ("wendish", "variant=officers")])
def test_game_readers_give_every_summary_figure(game, spec):
    g = get_game(game)
    rules = parse_rules_spec(game, spec)
    run = simulate(game, rules, ["random"], games=40, seed=2)
    figures = run.contract.game_figures(run.tables)
    metrics = g.game_metrics(run.summary, rules)
    for name, value in zip(metrics["metric"], metrics["value"]):
        if name in run.contract.count_metrics:
            continue
        num, den = figures[name]
        assert len(num) == len(den) == 40
        got = num.sum() / den.sum() if den.sum() else math.nan
        assert got == pytest.approx(value, nan_ok=True), name


def test_cli_simulate_rotate_writes_and_resumes(invoke, tmp_path):
    args = ["simulate", "schadenfreude", "--policy", ",".join(POLS), "--rotate",
            "--games", "200", "--seed", "3", "--out", str(tmp_path / "rot"), "--threads", "1"]
    first = invoke(*args)
    assert first.exit_code == 0, first.output
    assert "per policy (seats rotated)" in first.stdout and "paired" in first.stdout
    for name in ("rotation.csv", "rotation_diff.csv", "rotation.json", "report.md",
                 "rotations/r3/run.json"):
        assert (tmp_path / "rot" / name).exists()
    info = json.loads((tmp_path / "rot" / "rotation.json").read_text())
    assert info["rotations"][1]["policies"] == rotate(POLS, 1)
    again = invoke(*args)
    assert again.exit_code == 0 and again.stdout == first.stdout
    assert "reused" in again.stderr
    one_error_line(invoke("simulate", "schadenfreude", "--rotate", "--games", "10"),
                   "at least two different policies")
    one_error_line(invoke(*args, "--records", str(tmp_path / "r.jsonl")),
                   "--records and --rotate")


def test_a_figure_absent_on_a_side_says_so():
    from simcore.experiments.sweep import ABSENT
    rules = parse_rules_spec("wendish", "variant=four")
    res = compare("wendish", rules, rules, games=40, seed=2)
    t = res.game_table
    absent = t[t["diff"].isna()]
    assert len(absent) and set(absent["interval"]) == {ABSENT}      # e.g. no wedding played
    assert set(t[t["diff"].notna()]["interval"]) == {"paired"}
