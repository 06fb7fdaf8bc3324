"""Invariants over many random Schadenfreude games, for every preset and player count.

Each game is taken from its record (GAME.record, the engine's logged games) and
re-walked card by card on the engine (Engine.start / legal / apply): every card in exactly one place, legal moves a
non-empty subset of the hand that follows suit when it must, points and scores
adding up, records replaying clean, and result flags consistent.
"""
from __future__ import annotations

import itertools

import numpy as np
import pytest

from simcore.games.schadenfreude import GAME
from simcore.games.schadenfreude.cards import CARD_SUIT, CARD_VALUE, deck_mask, mask_cards, \
    mask_of, parse_card
from simcore.games.schadenfreude.engine import S_HAND, S_LEAD, S_PILE, S_SCORE, STATE_SIZE
from simcore.games.schadenfreude.records import replay_record
from simcore.records import replay_one

PRESETS = list(GAME.rulebook.presets)
PLAYERS = [3, 4, 5]
GAMES = 12
POLICY_MIXES = {
    3: ["heuristic", "random", "random"],
    4: ["random", "heuristic", "random", "heuristic"],
    5: ["random"],
}


def check_record(rec):
    rules = GAME.rulebook.from_dict(rec["rules"])
    n, h = rules["players"], rules["hand_size"]
    limit, floor = rules["limit"], rules["floor"]
    deck = deck_mask(rules["values"])
    cancel = rules["pairs"] == "cancel"
    eng = GAME.engine(rules)
    state = eng.new(rec["seed"], rec["index"])
    cum = [0] * n
    for d, deal in enumerate(rec["deals"]):
        start = deal["start"]
        hands = [mask_of(parse_card(c) for c in hd) for hd in start["hands"]]
        aside = mask_of(parse_card(c) for c in start["aside"])
        # hands disjoint, the right size, and with the aside cards exactly the deck
        assert all(bin(x).count("1") == h for x in hands)
        for a, b in itertools.combinations(hands + [aside], 2):
            assert a & b == 0, (d, "a card in two places")
        union = aside
        for x in hands:
            union |= x
        assert union == deck
        assert start["scores"] == cum
        assert start["leader"] in range(n)
        state[S_SCORE:S_SCORE + n] = cum
        eng.start(state, start["hands"], start["leader"])
        played = 0
        for a, (seat, verb, name) in enumerate(deal["actions"]):
            card = parse_card(name)
            assert verb == "play" and seat == eng.to_move(state)
            hand = int(state[S_HAND + seat])
            legal = mask_of(eng.legal(state))
            lead = int(state[S_LEAD])
            assert legal != 0 and legal & ~hand == 0            # non-empty subset of the hand
            if lead:
                suit_cards = hand & lead
                if suit_cards:                                  # must follow (or play wild)
                    assert legal & suit_cards == suit_cards
                    assert all(c >= 48 or c in mask_cards(lead) for c in
                               mask_cards(legal))
                else:
                    assert legal == hand
            else:
                assert legal == hand                            # no lead suit yet: anything
            assert legal >> card & 1, (d, a, "an illegal card was played")
            eng.apply(state, card)
            played |= 1 << card
            # every card in exactly one place: some hand, played this round, or aside
            hands_now = [int(x) for x in state[S_HAND:S_HAND + n]]
            piles = [int(x) for x in state[S_PILE:S_PILE + n]]
            places = hands_now + [played, aside]
            assert sum(bin(x).count("1") for x in places) == bin(deck).count("1")
            u = 0
            for x in places:
                assert u & x == 0
                u |= x
            assert u == deck
            # what a pile holds was played this round and is one pile's only
            for p, q in itertools.combinations(piles, 2):
                assert p & q == 0
            assert all(p & ~played == 0 for p in piles)
        assert eng.deal_over(state) and played == deck & ~aside
        end = deal["end"]
        for p in range(n):
            pile = [parse_card(c) for c in end["piles"][p]]
            assert mask_of(pile) == piles[p]
            assert end["points"][p] == sum(int(CARD_VALUE[c]) for c in pile)
            if cancel:   # no two cards of one value stay in a pile
                vals = [int(CARD_VALUE[c]) for c in pile]
                assert len(vals) == len(set(vals))
        expect = [c + pt for c, pt in zip(cum, end["points"])]
        if floor != "none":
            expect = [max(floor, s) for s in expect]
        assert end["scores"] == expect
        cum = expect
        last = d == len(rec["deals"]) - 1
        assert any(s > limit for s in cum) == (last and not rec["result"]["unfinished"])
    res = rec["result"]
    assert res["scores"] == cum
    assert sorted(res["bust"]) == [p for p in range(n) if cum[p] > limit]
    assert len(res["winners"]) <= 1
    if res["unfinished"]:
        assert len(rec["deals"]) == rules["max_rounds"] and not res["bust"]
        assert res["winners"] == []
    else:
        assert res["bust"]
    all_bust = len(res["bust"]) == n
    for w in res["winners"]:
        if all_bust:
            assert rules["all_bust"] == "highest"
        else:
            assert w not in res["bust"]
        candidates = range(n) if all_bust else [p for p in range(n) if p not in res["bust"]]
        # the winner's score is unique among the candidates, and every higher
        # candidate score is shared
        assert sum(1 for p in candidates if cum[p] == cum[w]) == 1
        for s in {cum[p] for p in candidates if cum[p] > cum[w]}:
            assert sum(1 for p in candidates if cum[p] == s) > 1
    if all_bust and rules["all_bust"] == "none":
        assert res["winners"] == []
    replay_record(rec)
    replay_one(rec)


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("preset", PRESETS)
def test_invariants_hold_for_every_preset_and_player_count(preset, players, game_records):
    rules = GAME.build_rules(preset, players=players)
    recs = game_records("schadenfreude", rules, POLICY_MIXES[players], 99, range(GAMES))
    for rec in recs:
        check_record(rec)


VARIANTS = [
    {"pairs": "keep", "floor": "none", "limit": 15},
    {"floor": -5, "limit": 12, "hand_size": 7, "first_leader": "seat0"},
    {"limit": 120, "max_rounds": 2},                       # unfinished games
    {"limit": 3, "hand_size": 3, "all_bust": "highest"},   # short games, many busts
    {"values": "-3,-2,-1,1", "hand_size": 3, "limit": 2, "floor": "none",     # 18 cards
     "max_rounds": 40},
]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("variant", range(len(VARIANTS)))
def test_invariants_hold_for_option_variants(variant, players, game_records):
    rules = GAME.rulebook.build("summary-de" if variant % 2 else "standard",
                                overrides={**VARIANTS[variant], "players": players})
    recs = game_records("schadenfreude", rules, ["random"], 5, range(8))
    for rec in recs:
        check_record(rec)
    if rules["max_rounds"] == 2:
        assert all(r["result"]["unfinished"] for r in recs)


def test_first_leader_seat0_always_leads_the_first_round(game_records):
    rules = GAME.rulebook.build(overrides={"first_leader": "seat0", "limit": 5})
    recs = game_records("schadenfreude", rules, ["random"], 3, range(20))
    assert {r["deals"][0]["start"]["leader"] for r in recs} == {0}


def test_first_leader_random_varies(game_records):
    rules = GAME.rulebook.build(overrides={"limit": 5})
    recs = game_records("schadenfreude", rules, ["random"], 3, range(40))
    assert {r["deals"][0]["start"]["leader"] for r in recs} == {0, 1, 2, 3}


def test_masks_stay_unsigned_in_the_engine(game_records):
    """DESIGN: mixed integer arithmetic silently leaves uint64.  The engine keeps its
    state as int64 words and works on masks as uint64: replay compiles the step kernel
    once, for the int64 state, and the mask kernels give uint64 masks."""
    from simcore.games.schadenfreude.engine import apply_checked, collect, legal_cards, \
        legal_mask
    rules = GAME.rulebook.build(overrides={"limit": 5})
    for rec in game_records("schadenfreude", rules, ["random"], 4, range(3)):
        replay_record(rec)
    for sig in apply_checked.nopython_signatures:
        assert [str(a) for a in sig.args] == ["array(int64, 1d, C)"] * 2 + ["int64"], sig
    state = GAME.engine(rules).new(4, 0)
    legal_cards(state)
    legal_mask(np.uint64(state[S_HAND]), np.uint64(0))
    collect(np.uint64(0), 0, 7, True, True)
    for kernel, ret in ((legal_cards, "uint64"), (legal_mask, "uint64"),
                        (collect, "Tuple(uint64, int64)")):
        for sig in kernel.nopython_signatures:
            assert str(sig.return_type) == ret, (kernel, sig)
    assert STATE_SIZE < 100
    assert set(CARD_SUIT[:48]) == {0, 1, 2, 3} and list(CARD_SUIT[48:]) == [4, 4]
