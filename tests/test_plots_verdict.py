"""Plots a designer can share unedited, and one honest verdict from many tests
(issue 20, items 9 and 10)."""
from __future__ import annotations

import math
from types import SimpleNamespace

import pandas as pd
import pytest

from simcore.experiments.sweep import compare, parse_side, parse_vary, sweep

GAMES = 300


@pytest.fixture(scope="module")
def limit_compare():
    a, _ = parse_side("schadenfreude", "standard")
    b, _ = parse_side("schadenfreude", "limit=30")
    res = compare("schadenfreude", a, b, games=GAMES, seed=1)
    res.spec_a, res.spec_b = "standard", "limit=30"
    return res


@pytest.fixture(scope="module")
def policy_sweep():
    plan = parse_vary("schadenfreude", ["policy=heuristic,random,random,random;random"])
    return sweep("schadenfreude", plan, games=GAMES, seed=1)


# ----- item 10: Holm across a command's tests, worded as evidence -----------------
def test_holm_runs_across_every_table_of_a_command():
    from simcore.statistics.verdict import adjust_family
    seats = pd.DataFrame({"measure": ["win"] * 3, "p_value": [0.01, 0.04, 0.03],
                          "significant": [True] * 3, "test": ["paired t"] * 3})
    game = pd.DataFrame({"metric": ["a", "b", "c"], "p_value": [0.02, math.nan, 1.0],
                         "significant": [True, None, False],
                         "test": ["paired t", "does not apply: fewer than 30 games",
                                  "does not apply: A and B equal in every game"]})
    assert adjust_family(seats, game) == 4          # 0.01, 0.04, 0.03, 0.02; c dropped
    # by hand: sorted 0.01, 0.02, 0.03, 0.04 -> 4*0.01, 3*0.02, 2*0.03, 1*0.04,
    # then running maxima 0.04, 0.06, 0.06, 0.06
    assert list(seats["p_holm"]) == pytest.approx([0.04, 0.06, 0.06])
    assert game["p_holm"][0] == pytest.approx(0.06)
    assert math.isnan(game["p_holm"][1]) and math.isnan(game["p_holm"][2])
    assert math.isnan(game["p_value"][2])            # no p-value where no test applies
    assert list(seats["significant"]) == [True, False, False]
    assert list(game["significant"]) == [False, None, None]
    assert list(seats.columns).index("p_holm") == list(seats.columns).index("p_value") + 1


def test_compare_adjusts_every_test_together(limit_compare):
    from simcore.statistics.stats import holm
    res = limit_compare
    raw = list(res.table["p_value"]) + list(res.game_table["p_value"])
    adjusted = list(res.table["p_holm"]) + list(res.game_table["p_holm"])
    assert adjusted == pytest.approx(holm(raw), nan_ok=True)
    assert res.tests == sum(not math.isnan(p) for p in raw) == 16
    flagged = list(res.table["significant"]) + list(res.game_table["significant"])
    assert flagged == [None if math.isnan(p) else p < 0.05 for p in adjusted]
    # never a game ends unfinished on either side: no test, and it says so
    row = res.game_table.set_index("metric").loc["unfinished_rate"]
    assert row["test"] == "does not apply: A and B equal in every game"
    assert math.isnan(row["p_value"]) and row["significant"] is None


def test_compare_verdict_says_how_many_tests_and_words_evidence(limit_compare):
    from simcore.statistics.verdict import compare_verdict
    lines = compare_verdict(limit_compare)
    assert lines[0].startswith("16 tests run (12 per seat, 4 game-level), Holm-adjusted "
                               "together; 1 did not apply (1 figure: A and B equal in every "
                               "game)")
    assert "evidence that A and B differ (Holm-adjusted p" in lines[1]
    assert "score of seat" in lines[1] and "significant" not in " ".join(lines)


def test_a_family_without_a_small_p_is_no_clear_evidence():
    from simcore.statistics.verdict import adjust_family, compare_verdict
    table = pd.DataFrame({"measure": ["win", "win"], "seat": [0, 1],
                          "p_value": [0.048, 0.30], "significant": [True, False],
                          "test": ["paired t", "paired t"]})
    game = pd.DataFrame({"metric": ["mean_rounds"], "p_value": [0.2],
                         "significant": [False], "test": ["paired t"]})
    adjust_family(table, game)
    lines = compare_verdict(SimpleNamespace(table=table, game_table=game, shifts=[]))
    assert lines == ["3 tests run (2 per seat, 1 game-level), Holm-adjusted together.",
                     "Verdict: no clear evidence of a difference between A and B (smallest "
                     "Holm-adjusted p = 0.14, 3 tests)."]


def test_too_few_games_is_no_test_and_no_verdict():
    from simcore.statistics.verdict import compare_verdict
    a, _ = parse_side("schadenfreude", "standard")
    b, _ = parse_side("schadenfreude", "limit=30")
    res = compare("schadenfreude", a, b, games=10, seed=1)
    tests = set(res.table["test"]) | set(res.game_table["test"])
    assert tests <= {"does not apply: fewer than 30 games",
                     "does not apply: A and B equal in every game"}
    assert res.tests == 0 and res.table["p_holm"].isna().all()
    (line,) = compare_verdict(res)
    assert line.startswith("No test applies, so there is no verdict on whether A and B "
                           "differ (") and "fewer than 30 games" in line


def test_sweep_seat_verdicts_are_evidence_and_count_the_tests(policy_sweep):
    from simcore.experiments.sweep import fairness_lines, holm_note
    first, second = fairness_lines(policy_sweep)
    assert "no chi-square test of equal wins: the seats play different policies" in first
    assert "(the only test, so no adjustment): " in second
    assert "evidence that seats differ" in second          # "no clear", "weak", ...
    assert "seats differ (p < 0.05)" not in second
    assert holm_note(policy_sweep).startswith("1 seat test was run")
    two = sweep("schadenfreude", parse_vary("schadenfreude", ["limit=30,40"]), games=GAMES,
                seed=1)
    lines = fairness_lines(two)
    assert all("Holm-adjusted p " in line and "(2 tests): " in line for line in lines)
    assert holm_note(two).startswith("2 seat tests were run")


def test_rotated_run_counts_and_adjusts_its_tests():
    from simcore.experiments.rotation import rotation_note, simulate_rotated
    from simcore.statistics.stats import holm
    rot = simulate_rotated("schadenfreude", None, ["heuristic", "random", "random", "random"],
                           games=200, seed=2)
    d = rot.differences
    assert list(d["p_holm"]) == pytest.approx(holm(d["p_value"]), nan_ok=True)
    assert rot.tests == d["p_value"].notna().sum() == 3
    assert "3 tests of the differences, Holm-adjusted together: " in rotation_note(rot)
    assert "evidence that the policies differ" in rotation_note(rot)


# ----- item 9: plots and reports ----------------------------------------------------
def test_compare_plot_one_unit_per_axis_and_says_what_a_and_b_are(limit_compare):
    from simcore.statistics.plots import compare_figure
    fig = compare_figure(limit_compare)
    title = fig.get_suptitle() if hasattr(fig, "get_suptitle") else fig._suptitle.get_text()
    assert "B = limit=30 vs A = standard (limit=40)" in title
    axes = [ax for sub in fig.subfigs for ax in sub.axes if ax.axison]
    rates = [ax for ax in axes if ax.get_xlabel() == "B - A (percentage points)"]
    rounds = [ax for ax in axes if ax.get_xlabel() == "B - A (rounds per game)"]
    assert len(rates) == 1 and len(rounds) == 1
    assert [t.get_text() for t in rounds[0].get_yticklabels()] == ["mean rounds"]
    rate_names = [t.get_text() for t in rates[0].get_yticklabels()]
    assert "mean rounds" not in rate_names and "unfinished rate (no test)" in rate_names
    ylabels = {ax.get_ylabel() for ax in axes}
    assert {"B - A, win rate (pp)", "B - A, score (points)",
            "B - A, bust rate (pp)"} <= ylabels
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["Holm-adjusted p < 0.05", "no clear evidence, or no test"]


def test_compare_report_names_the_option_that_differs(limit_compare, tmp_path):
    from simcore.experiments.sweep import write_compare
    write_compare(limit_compare, tmp_path, "tricksim compare ...")
    report = (tmp_path / "report.md").read_text()
    assert report.startswith("# Comparison of schadenfreude: limit=30 vs standard (limit=40)")
    assert "B = limit=30; A = standard (limit=40); every other option the same, "\
           "policy=random on both" in report
    assert "schadenfreude(players=" not in report          # no canonical strings
    assert "## Verdict" in report and "16 tests run" in report
    assert (tmp_path / "compare.png").read_bytes()[:4] == b"\x89PNG"


def test_side_labels_without_specs_and_for_players():
    from simcore.statistics.verdict import side_labels
    rules, _ = parse_side("schadenfreude", "standard")
    res = SimpleNamespace(game="schadenfreude", rules_a=rules, rules_b=rules,
                          run_a=SimpleNamespace(policies=["heuristic"] + ["random"] * 3),
                          run_b=SimpleNamespace(policies=["random"] * 4))
    assert side_labels(res) == ("policy=heuristic,random,random,random", "policy=random")


def test_policy_sweep_seat_plot_colours_by_player(policy_sweep):
    from simcore.statistics.plots import seat_figure, seat_plot_data
    data = seat_plot_data(policy_sweep)
    assert data[0]["fair"] is None and data[1]["fair"] is not None   # mixed, then all random
    fig = seat_figure(policy_sweep)
    ax = fig.axes[0]
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert legend == ["fair value (mean seat)", "heuristic", "random"]
    assert ax.get_legend().get_title().get_text() == "player"
    fair_lines = [c for c in ax.collections if c.get_gid() == "fair value"]
    assert len(fair_lines) == 1                        # over the all-random variant only
    heuristic = ax.patches[0].get_facecolor()
    assert all(p.get_facecolor() != heuristic for p in ax.patches[1:])
    assert ax.get_ylabel() == "win rate (%)" and ax.get_xlabel() == "seat"
    assert f"{GAMES:,} games per variant, seed 1" in ax.get_title()


def _overlaps(fig) -> list[tuple[str, str]]:
    """Pairs of texts (the figure's title; titles, tick labels, axis labels) of
    different axes whose drawn boxes overlap."""
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = []
    if fig._suptitle is not None:
        boxes.append((-1, fig._suptitle.get_text(), fig._suptitle.get_window_extent(renderer)))
    for k, ax in enumerate(fig.axes):
        if not ax.axison:
            continue
        lo, hi = sorted(ax.get_ylim())
        yticks = [t for t, y in zip(ax.get_yticklabels(), ax.get_yticks())
                  if lo <= y <= hi]                 # labels outside the view are not drawn
        texts = [ax.title, ax.xaxis.label, ax.yaxis.label] + ax.get_xticklabels() + yticks
        boxes += [(k, t.get_text(), t.get_window_extent(renderer)) for t in texts
                  if t.get_text() and t.get_visible()]
    return [(a[1], b[1]) for i, a in enumerate(boxes) for b in boxes[i + 1:]
            if a[0] != b[0] and a[2].overlaps(b[2])]


def test_game_plot_units_and_no_overlapping_titles():
    from simcore.statistics.plots import game_figure
    res = sweep("wendish", parse_vary("wendish", ["variant=four,three,officers"]),
                games=40, seed=1)
    fig = game_figure(res)
    assert _overlaps(fig) == []
    by_title = {ax.get_title(): ax for ax in fig.axes if ax.axison}
    assert by_title["solo share"].get_ylabel() == "%"
    assert by_title["solo declarer card points"].get_ylabel() == "card points"
    assert "40 games per variant, seed 1" in fig.get_suptitle()
