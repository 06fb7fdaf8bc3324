"""Schnapsen over many simulated matches: invariants, determinism, player strength."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from naive_schnapsen import NaiveDeal
from simcore.games.schnapsen.api import Engine
from simcore.games.schnapsen.cards import CARD_POINTS, DECK_MASK, card_name
from simcore.games.schnapsen.engine import (A_PASS, N_STATE, S_HAND, S_MATCH, S_PLAYED,
                                            S_POINTS, S_TALON, S_TALON_LEFT, S_TRICKS,
                                            S_TRUMP_CARD, start_deal)
from simcore.games.schnapsen.records import parse_start
from simcore.games.schnapsen.rules import RULEBOOK
from simcore.running.runner import simulate

PRESETS = list(RULEBOOK.presets)
VARIANTS = [(p, ()) for p in PRESETS] + [
    ("austrian", ("marriage_after_close=false", "closed_scoring=at_end", "match_points=9",
                  "target=60", "schneider_below=30"))]


def _points(mask):
    return sum(int(CARD_POINTS[c]) for c in range(20) if mask >> c & 1)


def talon_mask(st):
    """The talon's cards, the trump card included while it lies there."""
    left = int(st[S_TALON_LEFT])
    if left == 0:
        return 0
    word = int(st[S_TALON])
    mask = 1 << int(st[S_TRUMP_CARD])
    for i in range(left - 1):
        mask |= 1 << (word >> (5 * i) & 31)
    return mask


def legal_items(eng, st):
    """The engine's legal actions as record items (pass as (seat, "pass"))."""
    seat = eng.to_move(st)
    return {(seat, "pass") if a == A_PASS else tuple(eng.action_to_record(st, a))
            for a in eng.legal(st)}


def check_deal_invariants(eng, rules, deal, st):
    """Replay a record's deal in the engine (``st`` carries the match) beside the naive
    reference: the same legal actions at every step, every card in one place, the end."""
    needed = [int(st[S_MATCH]), int(st[S_MATCH + 1])]
    naive = NaiveDeal(rules, deal["start"], needed)
    dealer, h0, h1, tc, talon = parse_start(deal["start"], 0, {0, 1})
    start_deal(eng.r, st, dealer, h0, h1, tc, talon)
    for item in deal["actions"] + [None]:
        assert legal_items(eng, st) == naive.legal()
        hands = int(st[S_HAND]), int(st[S_HAND + 1])
        played = int(st[S_PLAYED])
        assert hands[0] & hands[1] == 0
        assert hands[0] ^ hands[1] ^ talon_mask(st) ^ played == DECK_MASK
        assert (hands[0] | hands[1] | talon_mask(st)) & played == 0
        assert {card_name(c) for c in range(20) if not played >> c & 1} \
            == naive.cards_in_play()
        if item is None:
            break
        eng.apply(st, eng.action_from_record(st, item))
        naive.apply(item)
    if not eng.deal_over(st):  # the implicit pass after the last trick
        naive.apply((eng.to_move(st), "pass"))
        eng.apply(st, A_PASS)
    # the card points of both sides' tricks plus the cards never played make 120
    points = int(st[S_POINTS]) + int(st[S_POINTS + 1])
    assert points + _points(DECK_MASK & ~int(st[S_PLAYED])) == 120
    if eng.deal_end(st)["reason"] == "last_trick":  # every card was played
        assert points == 120 and int(st[S_TRICKS]) + int(st[S_TRICKS + 1]) == 10
    assert eng.deal_end(st) == naive.end() == deal["end"]


@pytest.mark.parametrize("preset, sets", VARIANTS)
def test_invariants_over_random_matches(preset, sets, game_records):
    rules = RULEBOOK.build(preset, assignments=sets)
    for pols in (("random", "random"), ("heuristic", "sloppy")):
        eng = Engine(rules)
        for rec in game_records("schnapsen", rules, pols, 21, range(60)):
            needed = [rules["match_points"]] * 2
            st = np.zeros(N_STATE, np.int64)
            st[S_MATCH:S_MATCH + 2] = needed
            prev = None
            for deal in rec["deals"]:
                if prev is not None:
                    assert deal["start"]["dealer"] == 1 - prev
                prev = deal["start"]["dealer"]
                check_deal_invariants(eng, rules, deal, st)
                e = deal["end"]
                assert e["game_points"] in (1, 2, 3)
                needed[e["winner"]] -= e["game_points"]
            assert min(needed) <= 0 < max(needed)
            assert rec["result"]["match_points"] == needed


@pytest.fixture(scope="module")
def run_tables():
    return simulate("schnapsen", policies=["heuristic", "random"], games=3000, seed=8,
                    threads=1)


def test_match_points_fall_monotonically(run_tables):
    d = run_tables.tables["deals"]
    for s in (0, 1):
        col = d[f"match_points_{s}"].astype(int)
        prev = col.groupby(d["index"]).shift(1).fillna(7)
        assert (col <= prev).all()
    last = d.groupby("index").tail(1)
    g = run_tables.tables["games"].set_index("index")
    assert (np.minimum(last["match_points_0"], last["match_points_1"]) <= 0).all()
    assert (g.loc[last["index"], "deals"].to_numpy() == last["deal"].to_numpy() + 1).all()
    assert set(d["reason"].astype(str)) <= {"claim", "wrong_claim", "failed_close",
                                            "last_trick", "resign"}
    assert d["game_points"].between(1, 3).all()
    # the non-dealer leads and the dealer alternates
    assert (d.groupby("index")["dealer"].diff().dropna().abs() == 1).all()


def test_summary_frames(run_tables):
    s = run_tables.summary
    assert {"seats", "game", "deal_ends"} <= set(s)  # the runner may add shared sections
    assert len(s["seats"]) == 2 and s["seats"]["win_rate"].sum() == pytest.approx(1.0)
    ends = s["deal_ends"].set_index("metric")["value"]
    assert ends.sum() == pytest.approx(1.0)
    g = s["game"].set_index("metric")["value"]
    assert g["dealer_deal_win_rate"] + g["non_dealer_deal_win_rate"] == pytest.approx(1.0)


def test_determinism_across_threads_and_chunks():
    import numba
    top = numba.config.NUMBA_NUM_THREADS
    runs = [simulate("schnapsen", policies=["random", "heuristic"], games=1500, seed=99,
                     threads=t, chunk_size=c) for t, c in ((1, None), (top, 7), (1, 500))]
    for r in runs[1:]:
        for name in ("games", "deals"):
            pd.testing.assert_frame_equal(runs[0].tables[name], r.tables[name])
        pd.testing.assert_frame_equal(runs[0].summary["seats"], r.summary["seats"])


def test_heuristic_beats_random():
    # the full figure (>= 100,000 matches, both seatings) is in docs/schnapsen.md
    a = simulate("schnapsen", policies=["heuristic", "random"], games=2000, seed=3, threads=1)
    b = simulate("schnapsen", policies=["random", "heuristic"], games=2000, seed=4, threads=1)
    wins = a.aggregates["match_wins"][0] + b.aggregates["match_wins"][1]
    assert wins / 4000 > 0.9


def test_sloppy_makes_wrong_claims_and_heuristic_does_not():
    r = simulate("schnapsen", policies=["sloppy", "heuristic"], games=2000, seed=5, threads=1)
    assert r.aggregates["wrong_claims"][0] > 0
    assert r.aggregates["wrong_claims"][1] == 0


def test_kernel_signature_is_integer_typed():
    from simcore.games.schnapsen.play import play_match
    for sig in play_match.signatures:
        assert str(sig[0]) == "array(int64, 1d, C)"      # the rules
        assert str(sig[4]) == "array(int64, 1d, C)"      # the state
