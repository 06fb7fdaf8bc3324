"""The Schnapsen engine: action codes, legal actions against the naive reference, the
observation and the players' use of it, the Python API against the batch kernel."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

from naive_schnapsen import NaiveDeal
from simcore.games.schnapsen import GAME
from simcore.games.schnapsen.api import Engine, deal_start_of
from simcore.games.schnapsen.cards import card_name
from simcore.games.schnapsen.engine import (
    A_CLAIM, A_CLOSE, A_EXCHANGE, A_MARRIAGE, A_PASS, A_RESIGN, N_ACTIONS, N_OBS, N_STATE,
    O_OPP_KNOWN, O_OPP_VOID, O_TRUMP_CARD, S_DECK, S_HAND, S_LEADER, S_MATCH, S_PLAYED, S_RNG,
    S_SHOWN, S_TALON, S_TALON_LEFT, S_TRUMP_CARD, S_VOID, observe)
from simcore.games.schnapsen.policies import POLICIES, choose
from simcore.games.schnapsen.rules import RULEBOOK

VARIANTS = {
    "austrian": RULEBOOK.build("austrian"),
    "tournament": RULEBOOK.build("tournament"),
    "odd": RULEBOOK.build("austrian", assignments=[
        "marriage_after_close=false", "closed_scoring=at_end", "match_points=3", "target=60",
        "schneider_below=30", "exchange_min_talon=6", "close_min_talon=8"]),
}
MIXES = [(a, b) for a in POLICIES for b in POLICIES]


def items_of(eng, st):
    seat = eng.to_move(st)
    return {(seat, "pass") if a == A_PASS else tuple(eng.action_to_record(st, a))
            for a in eng.legal(st)}


# ----- action codes ---------------------------------------------------------------------
def test_action_codes_map_one_to_one_to_record_items():
    eng = Engine(VARIANTS["austrian"])
    st = eng.new(1, 0)
    seat = eng.to_move(st)
    seen = set()
    for a in range(N_ACTIONS):
        item = eng.action_to_record(st, a)
        if a == A_PASS:
            assert item is None
            continue
        assert item[0] == seat and tuple(item) not in seen
        seen.add(tuple(item))
        assert eng.action_from_record(st, item) == a
    assert eng.describe(8) == "play TS" and eng.describe(A_MARRIAGE + 2) == "marriage H"
    assert [eng.describe(a) for a in (A_EXCHANGE, A_CLOSE, A_CLAIM, A_RESIGN)] == \
        ["exchange", "close", "claim", "resign"]
    assert eng.describe(A_PASS).startswith("pass")
    with pytest.raises(ValueError, match="turn"):
        eng.action_from_record(st, [1 - seat, "close"])
    with pytest.raises(ValueError, match="unknown verb"):
        eng.action_from_record(st, [seat, "dance"])


def test_illegal_action_raises_naming_it_and_the_legal_ones():
    eng = Engine(VARIANTS["austrian"])
    st = eng.new(1, 0)
    with pytest.raises(ValueError) as exc:
        eng.apply(st, A_CLAIM)
    msg = str(exc.value)
    assert "action 26 (claim) is not legal" in msg and "right after winning a trick" in msg
    assert "legal:" in msg and "(resign)" in msg
    before = st.copy()
    with pytest.raises(ValueError, match="pass"):
        eng.apply(st, A_PASS)
    assert np.array_equal(st, before)


def test_first_lead_offers_cards_optional_steps_and_resign_but_no_claim():
    eng = Engine(VARIANTS["austrian"])
    for index in range(50):
        st = eng.new(3, index)
        legal = eng.legal(st)
        hand = int(st[S_HAND + eng.to_move(st)])
        assert [a for a in legal if a < 20] == [c for c in range(20) if hand >> c & 1]
        assert A_CLOSE in legal and A_RESIGN == legal[-1]
        assert A_CLAIM not in legal and A_PASS not in legal


# ----- the engine against the naive reference, off the policies' paths ---------------------
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_random_walks_match_the_naive_reference(variant):
    """Uniformly random legal actions (claims at any time, resignations, marriages after
    closing...), checked step by step against tests/naive_schnapsen.py."""
    rules = VARIANTS[variant]
    eng = Engine(rules)
    rng = random.Random(variant)
    for index in range(150):
        st = eng.new(5, index)
        while True:
            naive = NaiveDeal(rules, deal_start_of(st), [int(x) for x in st[S_MATCH:S_MATCH + 2]])
            while not eng.deal_over(st):
                assert items_of(eng, st) == naive.legal()
                legal = eng.legal(st)
                # resign rarely, so that deals run on
                pick = [a for a in legal if a != A_RESIGN] if rng.random() < 0.97 else legal
                a = rng.choice(pick)
                item = (eng.to_move(st), "pass") if a == A_PASS else \
                    eng.action_to_record(st, a)
                eng.apply(st, a)
                naive.apply(item)
            assert eng.deal_end(st) == naive.end()
            if eng.game_over(st):
                break
            eng.next_deal(st)


# ----- observation -------------------------------------------------------------------------
def redeal_hidden(st, seat, rng):
    """A copy of ``st`` with the cards ``seat`` cannot see (the opponent's unknown cards and
    the face-down talon) dealt anew, consistently with what ``seat`` saw; same stream."""
    o = 1 - seat
    out = st.copy()
    opp = int(st[S_HAND + o])
    known = int(st[S_SHOWN + o]) & ~int(st[S_PLAYED])
    void = int(st[S_VOID + o])
    left = int(st[S_TALON_LEFT])
    n_down = max(left - 1, 0)
    word = int(st[S_TALON])
    down = [word >> (5 * i) & 31 for i in range(n_down)]
    free = [c for c in range(20) if (opp & ~known) >> c & 1] + down
    n_opp = bin(opp & ~known).count("1")
    for _ in range(100):
        rng.shuffle(free)
        hand = free[:n_opp]
        if not any(void >> c & 1 for c in hand):
            break
    else:
        hand = [c for c in range(20) if (opp & ~known) >> c & 1]   # the only consistent deal
        free = hand + down
    mask = known
    for c in hand:
        mask |= 1 << c
    out[S_HAND + o] = mask
    w = 0
    for i, c in enumerate(free[n_opp:]):
        w |= c << (5 * i)
    out[S_TALON] = w
    out[S_DECK:S_DECK + 20] = rng.sample(range(20), 20)   # the next deal is hidden too
    return out


@pytest.mark.parametrize("variant", ["austrian", "tournament"])
def test_players_choose_from_what_their_seat_sees(variant):
    """Re-deal the hidden cards consistently with the observation (same stream word): the
    observation stays the same and no player changes its choice or its draws."""
    rules = VARIANTS[variant]
    eng = Engine(rules)
    rng = random.Random(7)
    obs_a = np.zeros(N_OBS, np.int64)
    obs_b = np.zeros(N_OBS, np.int64)
    checked = 0
    for mix in MIXES:
        for index in range(12):
            st = eng.new(9, index)
            while True:
                while not eng.deal_over(st):
                    seat = eng.to_move(st)
                    for pid in range(len(POLICIES)):
                        other = redeal_hidden(st, seat, rng)
                        observe(eng.r, st, seat, obs_a)
                        observe(eng.r, other, seat, obs_b)
                        assert np.array_equal(obs_a, obs_b)
                        mine = st.copy()
                        assert choose(eng.r, mine, pid) == choose(eng.r, other, pid)
                        assert mine[S_RNG] == other[S_RNG]
                        checked += 1
                    eng.apply(st, eng.choose(mix[seat], st))
                if eng.game_over(st):
                    break
                eng.next_deal(st)
    assert checked > 5000


def test_observation_shows_what_was_shown():
    eng = Engine(VARIANTS["austrian"])
    found = {"exchange": 0, "marriage": 0, "void": 0, "last_draw": 0}
    for index in range(300):
        st = eng.new(2, index)
        while not eng.game_over(st):
            if eng.deal_over(st):
                eng.next_deal(st)
            seat = eng.to_move(st)
            a = eng.choose("random", st)
            trump_card = card_name(int(st[S_TRUMP_CARD]))
            left = int(st[S_TALON_LEFT])
            eng.apply(st, a)
            v = eng.view(st, 1 - seat)
            if a == A_EXCHANGE:
                assert trump_card in v["opp_known"]
                found["exchange"] += 1
            if A_MARRIAGE <= a < A_MARRIAGE + 4:
                s = "CSHD"[a - A_MARRIAGE]
                assert {"K" + s, "Q" + s} <= set(v["opp_known"])
                assert s in v["marriages"][seat]
                found["marriage"] += 1
            if left == 2 and int(st[S_TALON_LEFT]) == 0:   # the loser took the trump card
                winner = int(st[S_LEADER])
                assert trump_card in eng.view(st, winner)["opp_known"]
                found["last_draw"] += 1
            if v["opp_void"]:
                found["void"] += 1
                hand = eng.view(st, seat)["hand"]
                assert not set(v["opp_void"]) & set(hand)
    assert min(found.values()) > 0, found


def test_view_at_the_first_lead():
    eng = Engine(VARIANTS["austrian"])
    st = eng.new(1, 0)
    seat = eng.to_move(st)
    v = eng.view(st, seat)
    assert v["seat"] == seat and v["to_move"] == seat and len(v["hand"]) == 5
    assert v["talon"] == 10 and v["trump_card"] is not None and v["closer"] == -1
    assert v["played"] == [] and v["opp_known"] == [] and v["phase"] == "lead"
    assert v["points"] == [0, 0] and v["match"] == [7, 7]
    other = eng.view(st, 1 - seat)
    assert not set(other["hand"]) & set(v["hand"])
    o = np.zeros(N_OBS, np.int64)
    observe(eng.r, st, seat, o)
    assert o[O_TRUMP_CARD] >= 0 and o[O_OPP_KNOWN] == 0 and o[O_OPP_VOID] == 0


# ----- the Python API against the batch kernel ------------------------------------------------
@pytest.mark.parametrize("variant", list(VARIANTS))
def test_api_play_gives_the_batch_record(variant):
    rules = VARIANTS[variant]
    eng = GAME.engine(rules)
    for mix in MIXES:
        names, ids = GAME.policy_ids(list(mix), rules)
        for index in range(15):
            assert eng.play(13, index, mix) == GAME.record(rules, names, ids, 13, index)


@pytest.mark.parametrize("sets", [(), ("match_points=21", "target=30")])
def test_record_lines_are_json_dumps_of_the_records(sets):
    rules = RULEBOOK.build(assignments=list(sets))
    eng = Engine(rules)
    names, ids = GAME.policy_ids(["random", "sloppy"], rules)
    lines = GAME.records_jsonl(rules, names, ids, 2**62 + 3, 990, 120).decode().splitlines()
    assert len(lines) == 120
    below_zero = 0
    for i, line in enumerate(lines):
        rec = eng.play(2**62 + 3, 990 + i, names)
        assert line == json.dumps(rec, separators=(",", ":"))
        below_zero += min(rec["result"]["match_points"]) < 0
    assert below_zero > 0        # negative numbers were written too


def test_records_in_bulk_equal_one_by_one():
    rules = VARIANTS["austrian"]
    names, ids = GAME.policy_ids(["sloppy", "random"], rules)
    bulk = GAME.records(rules, names, ids, 21, 40, 25)
    assert [r["index"] for r in bulk] == list(range(40, 65))
    assert bulk == [GAME.record(rules, names, ids, 21, i) for i in range(40, 65)]


@pytest.mark.parametrize("mix", [("random", "sloppy"), ("heuristic", "random")])
def test_from_record_continues_the_game_as_played(mix):
    rules = VARIANTS["austrian"]
    eng = Engine(rules)
    names, ids = GAME.policy_ids(list(mix), rules)
    rng = random.Random(3)
    for rec in GAME.records(rules, names, ids, 17, 0, 12):
        d = rng.randrange(len(rec["deals"]))
        k = rng.randrange(len(rec["deals"][d]["actions"]) + 1)
        st = eng.from_record(rec, deal=d, upto=k)
        # the same position as stepping the batch run's game there
        ref = eng.new(17, rec["index"])
        for _ in range(d):
            while not eng.deal_over(ref):
                eng.apply(ref, eng.choose(mix[eng.to_move(ref)], ref))
            eng.next_deal(ref)
        for item in rec["deals"][d]["actions"][:k]:
            a = eng.choose(mix[eng.to_move(ref)], ref)
            assert eng.action_to_record(ref, a) == item
            eng.apply(ref, a)
        assert np.array_equal(st, ref)
        # and the policies carry on exactly as the record goes
        rest = []
        while not eng.deal_over(st):
            a = eng.choose(mix[eng.to_move(st)], st)
            if a != A_PASS:
                rest.append(eng.action_to_record(st, a))
            eng.apply(st, a)
        assert rest == rec["deals"][d]["actions"][k:]
        assert eng.deal_end(st) == rec["deals"][d]["end"]


def test_from_record_of_a_foreign_record_and_whole_deals(golden_dir, jsonl):
    rec = jsonl.read(golden_dir / "schnapsen_austrian.jsonl")[0]
    rec["policies"] = ["someone", "else"]        # not our players: the stream is not theirs
    eng = Engine(RULEBOOK.from_dict(rec["rules"]))
    for d, deal in enumerate(rec["deals"]):
        st = eng.from_record(rec, deal=d)
        assert eng.deal_over(st) and eng.deal_end(st) == deal["end"]
        st = eng.from_record(rec, deal=d, upto=0)
        assert deal_start_of(st) == deal["start"]
    assert eng.result(st := eng.from_record(rec, deal=len(rec["deals"]) - 1)) == rec["result"]
    with pytest.raises(Exception, match="upto"):
        eng.from_record(rec, deal=0, upto=999)


def test_state_is_small_and_integer():
    eng = Engine(VARIANTS["austrian"])
    st = eng.new(1, 2)
    assert st.dtype == np.int64 and st.shape == (N_STATE,) and N_STATE <= 64
    copy = st.copy()
    eng.apply(copy, eng.legal(copy)[0])
    assert not np.array_equal(copy, st)           # a copy is an independent position
    from simcore.games.schnapsen.play import play_match
    for sig in play_match.signatures:
        assert str(sig[4]) == "array(int64, 1d, C)"
