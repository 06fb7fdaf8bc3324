"""The Schadenfreude kernels against the slow, obvious reference (naive_schadenfreude.py).

Whole games: the records (GAME.record: the engine's games, logged by the parallel
loop beside the batch one) give each round's leader and the cards in play order;
the reference replays those cards from scratch and must agree exactly on every
hand, trick, pile, point, score, leader, the bust set, the winner and the
unfinished flag, and so must the batch table's row of the same game.

Single kernels: hypothesis draws hands, tricks, piles and score vectors.
"""
from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import naive_schadenfreude as naive
from simcore.games.schadenfreude import GAME
from simcore.games.schadenfreude.cards import ALL_VALUES, card_name, mask_cards, mask_of, \
    parse_card
from simcore.games.schadenfreude.engine import S_HAND, S_LEADER, S_PILE, S_POINTS, S_RNG, \
    S_ROUND, S_SCORE, S_TRICK_LEADER, collect, collect_card, game_winner, lead_mask_of, \
    legal_mask, next_deal, pile_points

# (label, preset, overrides, policies, games).  Together they reach every branch of the
# rules: see test_the_sweep_reaches_every_rule below.
CONFIGS = [
    ("standard-4", "standard", {}, ["random"], 40),
    ("standard-3-heur", "standard", {"players": 3}, ["heuristic", "random", "random"], 30),
    ("standard-5-heur", "standard", {"players": 5},
     ["random", "heuristic", "random", "heuristic", "random"], 25),
    ("summary-de-4", "summary-de", {}, ["random"], 40),
    ("summary-de-3", "summary-de", {"players": 3}, ["random"], 30),
    ("summary-de-5-heur", "summary-de", {"players": 5}, ["heuristic"], 20),
    ("keep-nofloor-4", "standard", {"pairs": "keep", "floor": "none"}, ["random"], 30),
    ("floor-neg-3", "standard", {"players": 3, "floor": -10, "limit": 20}, ["random"], 40),
    ("floor-pos-5", "standard", {"players": 5, "floor": 5, "limit": 25}, ["random"], 30),
    ("seat0-after-highest", "standard",
     {"first_leader": "seat0", "tie_lead": "after_last", "all_bust": "highest", "limit": 6,
      "hand_size": 6}, ["random"], 80),
    ("all-bust-3", "summary-de", {"players": 3, "limit": 2, "hand_size": 12, "floor": "none"},
     ["random"], 80),
    ("all-bust-none-5", "standard", {"players": 5, "limit": 1, "hand_size": 4},
     ["random"], 80),
    ("unfinished", "standard", {"limit": 200, "max_rounds": 2}, ["random"], 20),
    ("short-max", "summary-de", {"players": 3, "limit": 25, "max_rounds": 3},
     ["random", "heuristic", "random"], 40),
    ("few-values-4", "standard", {"values": "1,2,3,4,5,6", "hand_size": 6, "limit": 12},
     ["random"], 50),
    ("tiny-5", "summary-de", {"players": 5, "values": "-3,1,2,3,4", "hand_size": 2,
                              "limit": 3}, ["random"], 80),
]
SEED = 20240531


def build(preset, overrides):
    return GAME.rulebook.build(preset, overrides=overrides)


def logged_game(rules, names, seed, index, game_records):
    """(rounds as [(leader, [card names])], rounds, winner, bust mask, unfinished,
    first leader, final scores, record) of one game, from its record."""
    rec = game_records("schadenfreude", rules, names, seed, [index])[0]
    played = [(d["start"]["leader"], [a[2] for a in d["actions"]]) for d in rec["deals"]]
    res = rec["result"]
    return played, len(rec["deals"]), (res["winners"] or [-1])[0], \
        sum(1 << p for p in res["bust"]), res["unfinished"], played[0][0], res["scores"], rec


def compare_game(rules, names, index, stats, game_records):
    r = rules.to_dict()
    n = r["players"]
    played, rounds, winner, bust, unfinished, first, scores, rec = logged_game(
        rules, names, SEED, index, game_records)
    where = f"game {index} of {rules.canonical()}"
    try:
        ref = naive.play_game(r, played)   # raises IllegalPlay on any illegal card or leader
    except naive.IllegalPlay as exc:
        # say whether the kernel's scores went wrong before its choice of leader did
        loose = naive.play_game(r, played, check_leaders=False)
        pytest.fail(f"{where}: the reference rejects the kernel's game: {exc}; per-round "
                    f"points by the rules {[rd['points'] for rd in loose['rounds']]}, final "
                    f"scores by the rules {loose['scores']}, by the kernel {scores}")
    assert first == played[0][0], where
    assert len(ref["rounds"]) == rounds, where
    assert ref["scores"] == scores, where
    assert ref["winners"] == ([] if winner < 0 else [winner]), where
    assert ref["bust"] == [p for p in range(n) if bust >> p & 1], where
    assert ref["unfinished"] == unfinished, where
    _collect_stats(r, ref, stats)
    compare_record(rec, ref)
    return ref


def compare_record(rec, ref):
    assert rec["result"] == {k: ref[k] for k in ("scores", "winners", "bust", "unfinished")}
    assert len(rec["deals"]) == len(ref["rounds"])
    for d, (deal, rd) in enumerate(zip(rec["deals"], ref["rounds"])):
        s, e = deal["start"], deal["end"]
        assert [sorted(h) for h in s["hands"]] == [sorted(h) for h in rd["hands"]], d
        assert sorted(s["aside"]) == sorted(rd["aside"]), d
        assert s["leader"] == rd["leader"] and s["scores"] == rd["scores_before"], d
        assert [a[0] for a in deal["actions"]] == rd["seats"], d
        assert [sorted(p) for p in e["piles"]] == [sorted(p) for p in rd["piles"]], d
        assert e["points"] == rd["points"] and e["scores"] == rd["scores"], d


def _collect_stats(r, ref, stats):
    """Count the rare situations the sweep reached (so the comparison carries weight)."""
    n = r["players"]
    stats["games"] += 1
    if ref["unfinished"]:
        stats["unfinished"] += 1
    elif len(ref["bust"]) == n:
        stats[f"all_bust_{r['all_bust']}"] += 1
        if ref["winners"]:
            stats["all_bust_winner"] += 1
    if not ref["unfinished"] and not ref["winners"]:
        stats["no_winner"] += 1
    if ref["winners"]:
        cand = [p for p in range(n) if p not in ref["bust"]] or list(range(n))
        if ref["scores"][ref["winners"][0]] < max(ref["scores"][p] for p in cand):
            stats["winner_below_a_tie"] += 1
    if any(s == r["limit"] for s in ref["scores"]):
        stats["exactly_limit"] += 1
    for i, rd in enumerate(ref["rounds"]):
        for before, pts, after in zip(rd["scores_before"], rd["points"], rd["scores"]):
            if r["floor"] != "none" and before + pts < r["floor"]:
                stats["floor_clamped"] += 1
            if after < 0:
                stats["negative_score"] += 1
        if i > 0:
            low = min(rd["scores_before"])
            if sum(1 for s in rd["scores_before"] if s == low) > 1:
                stats[f"tied_lead_{r['tie_lead']}"] += 1
        cards = _cards_of(rd)
        for t in range(0, len(cards), n):
            trick = cards[t:t + n]
            won = rd["trick_winners"][t // n]
            winning_card = [c for s, c in trick if s == won][0]
            if winning_card == "0W":
                stats["zero_wins"] += 1
            if trick[0][1] in ("0W", "10W"):
                stats["wild_lead"] += 1
            ls = naive.lead_suit([c for _, c in trick])
            if sum(1 for _, c in trick if naive.follows(c, ls)) == 1:
                stats["lone_follower"] += 1
            got = [c for s, c in trick if s == won or not naive.follows(c, ls)]
            vals = Counter(naive.value(c) for c in got)
            if max(vals.values()) >= 3:
                stats["three_of_a_value_in_a_trick"] += 1


def _cards_of(rd):
    """The round's (seat, card) plays in order (naive.hands_of lists each hand in play
    order)."""
    hands = [list(h) for h in rd["hands"]]
    return [(s, hands[s].pop(0)) for s in rd["seats"]]


@pytest.fixture(scope="module")
def sweep_stats():
    return Counter()


@pytest.mark.parametrize("label, preset, overrides, policies, games", CONFIGS,
                         ids=[c[0] for c in CONFIGS])
def test_kernel_games_match_the_reference(label, preset, overrides, policies, games,
                                          sweep_stats, game_records):
    rules = build(preset, overrides)
    names, _ = GAME.policy_ids(policies, rules)
    for index in range(games):
        compare_game(rules, names, index, sweep_stats, game_records)


def test_the_sweep_reaches_every_rule(sweep_stats):
    if sweep_stats["games"] < sum(c[4] for c in CONFIGS):
        pytest.skip("needs the whole sweep above")
    for key in ("unfinished", "all_bust_none", "all_bust_highest", "all_bust_winner",
                "no_winner", "winner_below_a_tie", "exactly_limit", "floor_clamped",
                "negative_score", "tied_lead_random", "tied_lead_after_last", "zero_wins",
                "wild_lead", "lone_follower", "three_of_a_value_in_a_trick"):
        assert sweep_stats[key] > 0, (key, dict(sweep_stats))


def test_batch_games_match_the_logged_games(game_records):
    """play_batch (what simulate runs) and play_logged (records) play the same games."""
    from simcore import simulate
    rules = build("summary-de", {"players": 3, "limit": 15})
    names = ["heuristic", "random", "random"]
    res = simulate("schadenfreude", rules, names, games=40, seed=SEED, threads=1)
    table = res.tables["games"]
    for index in range(40):
        played, rounds, winner, bust, unfinished, first, scores, _ = logged_game(
            rules, names, SEED, index, game_records)
        row = table.iloc[index]
        assert row["index"] == index and row["rounds"] == rounds
        assert [row[f"score_{p}"] for p in range(3)] == scores
        assert row["winner"] == winner and row["unfinished"] == unfinished
        assert row["first_leader"] == first
        assert [bool(row[f"bust_{p}"]) for p in range(3)] == [bool(bust >> p & 1)
                                                             for p in range(3)]


# ----- single kernels, drawn by hypothesis ------------------------------------------------

cards = st.integers(0, 49)
card_sets = st.sets(cards, max_size=14)


@given(hand=card_sets, lead_card=st.one_of(st.none(), cards))
def test_legal_mask_matches_reference(hand, lead_card):
    lm = np.uint64(0) if lead_card is None else np.uint64(lead_mask_of(lead_card))
    got = {card_name(c) for c in mask_cards(int(legal_mask(np.uint64(mask_of(hand)), lm)))}
    prefix = [] if lead_card is None else [card_name(lead_card)]
    assert got == set(naive.legal_cards([card_name(c) for c in hand], prefix))
    if hand:
        assert got                        # never empty while the hand is not
        assert got <= {card_name(c) for c in hand}


@given(trick=st.lists(cards, min_size=3, max_size=5, unique=True), leader=st.integers(0, 4))
def test_trick_resolution_matches_reference(trick, leader):
    n = len(trick)
    leader %= n
    seats = [(leader + i) % n for i in range(n)]
    hands = [[]] * n
    for s, c in zip(seats, trick):
        hands[s] = [c]               # one card each: always a legal play
    eng = GAME.engine(build("standard", {"players": n, "hand_size": 1,
                                         "values": ",".join(map(str, ALL_VALUES))}))
    state = eng.new(0, 0)
    eng.start(state, hands, leader)
    for c in trick:
        eng.apply(state, c)
    won, got = naive.trick_winner(list(zip(seats, [card_name(c) for c in trick])))
    pile = []
    for x in got:
        naive.add_to_pile(pile, x, "cancel")
    assert eng.deal_over(state) and int(state[S_TRICK_LEADER]) == won
    assert {card_name(c) for c in mask_cards(int(state[S_PILE + won]))} == set(pile)
    assert list(state[S_POINTS:S_POINTS + n]) == \
        [naive.pile_points(pile) if s == won else 0 for s in range(n)]


@given(seq=st.lists(cards, max_size=20, unique=True), cancel=st.booleans())
def test_pile_collection_matches_reference(seq, cancel):
    pile, pts = np.uint64(0), 0
    ref = []
    for c in seq:
        pile = np.uint64(pile)
        assert collect_card(pile, c, cancel) == collect(pile, pts, c, True, cancel)[0]
        assert collect(pile, pts, c, False, cancel) == (pile, pts)     # not taken
        pile, pts = collect(np.uint64(pile), pts, c, True, cancel)
        naive.add_to_pile(ref, card_name(c), "cancel" if cancel else "keep")
    assert {card_name(c) for c in mask_cards(int(pile))} == set(ref)
    assert pile_points(pile) == naive.pile_points(ref) == pts


@given(scores=st.lists(st.integers(-6, 12), min_size=3, max_size=5),
       limit=st.integers(1, 10), highest=st.booleans())
def test_game_winner_matches_reference(scores, limit, highest):
    w = int(game_winner(np.array(scores, dtype=np.int64), 0, len(scores), limit, highest))
    assert (None if w < 0 else w) == naive.game_winner(scores, limit,
                                                       "highest" if highest else "none")


@given(scores=st.lists(st.integers(0, 4), min_size=3, max_size=5), prev=st.integers(0, 4),
       after_last=st.booleans(), stream=st.integers(0, 2**64 - 1))
def test_next_leader_matches_reference(scores, prev, after_last, stream):
    n = len(scores)
    prev %= n
    rules = build("standard", {"players": n,
                               "tie_lead": "after_last" if after_last else "random"})
    eng = GAME.engine(rules)
    state = eng.new(0, 0)
    state[S_ROUND], state[S_LEADER] = 1, prev
    state[S_SCORE:S_SCORE + n] = scores
    state[S_RNG] = np.uint64(stream).view(np.int64)
    next_deal(eng.r, state)
    allowed = naive.allowed_leaders(1, scores, prev, {
        "players": n, "tie_lead": "after_last" if after_last else "random"})
    assert int(state[S_LEADER]) in allowed
    assert sum(bin(int(x)).count("1") for x in state[S_HAND:S_HAND + n]) == \
        n * rules["hand_size"]


def test_card_names_round_trip():
    for c in range(50):
        assert parse_card(card_name(c)) == c
