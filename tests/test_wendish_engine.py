"""The Wendish Schafkopf engine step by step: legal actions against the naive
reference, every card in one place after every action, the Python API equal to
the batch records, positions from records, and policies that decide on what their
seat may see (a re-deal of the hidden cards changes neither the observation nor
the choice)."""
import json
import random

import numpy as np
import pytest

from naive_wendish import naive_contract_choices, naive_legal_plays
from simcore import get_game
from simcore.games.wendish import engine as E
from simcore.games.wendish.cards import (BLACK_QUEENS, VARIANT_DECK, card_name, mask_cards,
                                         parse_card)
from simcore.games.wendish.policies import POLICIES
from simcore.games.wendish.records import action_code, action_json
from simcore.games.wendish.rules import RULEBOOK

GAME = get_game("wendish")
PRESETS = ("standard", "dreiwendsch", "sharp", "officers")
MIXES = ("random", "heuristic", "mixed", "mixed_r")


def policies(mix, n):
    return {"random": ["random"] * n, "heuristic": ["heuristic"] * n,
            "mixed": ["heuristic"] + ["random"] * (n - 1),
            "mixed_r": ["random"] + ["heuristic"] * (n - 1)}[mix]


def engine(preset, *extra):
    rules = RULEBOOK.build(preset, assignments=list(extra))
    return GAME.engine(rules), rules


def names(mask):
    return [card_name(c) for c in mask_cards(int(mask))]


def walk(eng, seed, index, pols):
    """Yield the state before every action of a game (and the action taken)."""
    st = eng.new(seed, index)
    while True:
        if eng.deal_over(st):
            if eng.game_over(st):
                return
            eng.next_deal(st)
            continue
        before = st.copy()
        a = eng.choose(pols[eng.to_move(st)], st)
        yield before, a
        eng.apply(st, a)


# ----- the action table -----------------------------------------------------------
def test_action_codes_round_trip():
    for code in range(E.N_ACTIONS):
        item = action_json(2, code)
        assert item[0] == 2
        assert action_code(item[1], item[2] if len(item) == 3 else None) == code
    assert action_code("play", "XX") is None and action_code("dance") is None
    assert action_code("solo", "D") == E.A_SOLO + 3
    assert GAME.engine(RULEBOOK.build()).describe(E.A_WEDDING + parse_card("AH")) == \
        "wedding AH"


def test_state_and_kernel_types():
    eng, _ = engine("standard")
    st = eng.new(1, 0)
    assert st.dtype == np.int64 and st.shape == (E.STATE_SIZE,)
    assert eng.observe(st, 0).shape == (E.OBS_SIZE,)
    assert all(isinstance(a, int) for a in eng.legal(st))


# ----- legal actions against the naive reference, one place per card -------------
def _check_position(eng, rules, st):
    n = eng.n
    variant = int(st[E.ST_VARIANT])
    deck = VARIANT_DECK[variant]
    ph = int(st[E.ST_PHASE])
    hands = [int(st[E.ST_HAND + p]) for p in range(n)]
    played = int(st[E.ST_PLAYED])
    discards = int(st[E.ST_DISCARDS])
    skat = int(st[E.ST_SKAT]) if ph == E.P_PICKUP else 0
    down = 0
    if variant == E.V_OFFICERS:
        for p in range(2):
            for c in mask_cards(hands[p]):
                u = int(E.under_card(st, c))
                if u >= 0:
                    down |= 1 << u
    places = hands + [played, discards, skat, down]
    total = 0
    for m in places:
        assert total & m == 0, "a card in two places"
        total |= m
    assert total == deck, "a card in no place"
    by = [int(st[E.ST_PLAYED_BY + p]) for p in range(n)]
    assert sum(by) == played and all(a & b == 0 for i, a in enumerate(by) for b in by[i + 1:])
    if variant != E.V_OFFICERS:
        for p in range(n):
            assert hands[p] & int(st[E.ST_VOID + p]) == 0, "a card of a suit not followed"
    seat = eng.to_move(st)
    legal = eng.legal(st)
    assert legal == sorted(legal) and legal
    for code in range(E.N_ACTIONS):
        assert bool(E.py_is_legal(eng.r, st, code)) == (code in legal)
    hand = names(hands[seat])
    items = [action_json(seat, a)[1:] for a in legal]
    if ph == E.P_PLAY:
        tn = int(st[E.ST_TRICK_N])
        trick = [card_name(int(c)) for c in st[E.ST_TRICK:E.ST_TRICK + tn]]
        called = int(st[E.ST_CALLED])
        want = naive_legal_plays(hand, trick, "CSHD"[int(st[E.ST_TRUMP])],
                                 card_name(called) if called >= 0 else None)
        assert sorted(c for _, c in items) == want
    else:
        want = naive_contract_choices(E.PHASES[ph], hand, rules["solo_suits"], names(deck),
                                      names(discards))
        assert sorted(map(tuple, items)) == sorted(map(tuple, want))


@pytest.mark.parametrize("preset", PRESETS)
def test_legal_actions_and_card_places(preset):
    eng, rules = engine(preset)
    n = eng.n
    count = 0
    for index in range(25):
        for before, a in walk(eng, 11, index, policies(MIXES[index % 4], n)):
            _check_position(eng, rules, before)
            count += 1
    assert count > 25 * 20


def test_illegal_actions_raise_with_the_rule():
    eng, _ = engine("standard", "lust_solo=false")
    st = eng.new(3, 0)
    while eng.legal(st)[0] >= E.A_DISCARD:      # to the first card
        eng.apply(st, eng.legal(st)[0])
    eng.apply(st, eng.legal(st)[0])
    seat = eng.to_move(st)
    legal = eng.legal(st)
    wrong = [c for c in mask_cards(int(st[E.ST_HAND + seat])) if c not in legal]
    if wrong:
        with pytest.raises(ValueError, match="follow|called card"):
            eng.apply(st, wrong[0])
    with pytest.raises(ValueError, match="legal: "):
        eng.apply(st, E.A_PASS)
    with pytest.raises(ValueError):
        eng.apply(st, 999)
    with pytest.raises(ValueError, match="turn"):
        eng.action_from_record(st, [(seat + 1) % 4, "play", card_name(legal[0])])
    assert eng.action_from_record(st, [seat, "play", card_name(legal[0])]) == legal[0]


# ----- the API plays the batch's games ---------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("mix", MIXES)
def test_api_play_equals_batch_records(preset, mix):
    eng, rules = engine(preset)
    pols = policies(mix, eng.n)
    names_, ids = GAME.policy_ids(pols, rules)
    recs = GAME.records(rules, names_, ids, 21, 0, 12)
    for i, rec in enumerate(recs):
        assert rec == GAME.record(rules, names_, ids, 21, i)
        assert json.dumps(eng.play(21, i, pols)) == json.dumps(rec)


def test_api_play_options():
    eng, rules = engine("standard", "solo_suits=H,S", "deals=3", "wedding_deadline=1")
    pols = ["heuristic", "random", "random", "heuristic"]
    names_, ids = GAME.policy_ids(pols, rules)
    for i, rec in enumerate(GAME.records(rules, names_, ids, 5, 40, 6)):
        assert eng.play(5, 40 + i, pols) == rec


# ----- positions from records ---------------------------------------------------------
@pytest.mark.parametrize("preset", PRESETS)
def test_from_record_is_the_batch_position(preset):
    eng, rules = engine(preset)
    pols = policies("mixed", eng.n)
    names_, ids = GAME.policy_ids(pols, rules)
    rec = GAME.record(rules, names_, ids, 8, 3)
    st = eng.new(8, 3)
    for d, deal in enumerate(rec["deals"]):
        if d:
            eng.next_deal(st)
        for k, item in enumerate(deal["actions"]):
            if k in (0, 5, len(deal["actions"]) - 1):
                assert np.array_equal(eng.from_record(rec, d, k), st)
            a = eng.choose(pols[eng.to_move(st)], st)
            assert eng.action_to_record(st, a) == item
            eng.apply(st, a)
        assert np.array_equal(eng.from_record(rec, d), st)
        assert eng.deal_end(st) == deal["end"]
    assert eng.result(st) == rec["result"]


def test_from_record_of_a_foreign_record():
    """A record no run of ours wrote (other policies): the same position, a fresh stream."""
    eng, rules = engine("standard")
    names_, ids = GAME.policy_ids(["heuristic"] * 4, rules)
    rec = GAME.record(rules, names_, ids, 8, 3)
    rec["policies"] = ["somebody"] * 4
    st = eng.from_record(rec, 1, 7)
    own = eng.from_record(GAME.record(rules, names_, ids, 8, 3), 1, 7)
    skip = {E.ST_RNG} | set(range(E.ST_DECK, E.ST_DECK + 4))
    assert all(st[i] == own[i] for i in range(E.STATE_SIZE) if i not in skip)
    with pytest.raises(ValueError):
        eng.from_record(rec, 9)
    with pytest.raises(ValueError):
        eng.from_record(rec, 0, 999)


def test_view_decodes_the_observation():
    eng, _ = engine("dreiwendsch")
    st = eng.new(2, 5)
    taker = eng.to_move(st)
    eng.apply(st, E.A_PICKUP)
    v = eng.view(st, taker)
    assert v["phase"] == "discard" and v["taker"] == taker and len(v["skat"]) == 2
    assert len(v["hand"]) == 12 and set(v["skat"]) <= set(v["hand"])
    other = eng.view(st, (taker + 1) % 3)
    assert other["skat"] == [] and other["discards"] == [] and len(other["hand"]) == 10
    assert other["hand_sizes"][taker] == 12
    eng2, _ = engine("officers")
    st = eng2.new(1, 0)
    v = eng2.view(st, 0)
    assert v["face_up"][0] == v["hand"] and len(v["covered"]) == 16
    assert v["hand_sizes"] == [16, 16] and v["teams"] is not None


# ----- policies see what their seat sees -------------------------------------------------
def _redeal(st, seat, rng):
    """A copy of ``st`` whose cards hidden from ``seat`` are dealt anew (same places,
    same counts, the contract's structure kept), or None if no such deal was found."""
    n = int(st[E.ST_N])
    variant = int(st[E.ST_VARIANT])
    ph = int(st[E.ST_PHASE])
    if variant == E.V_OFFICERS:
        slots = []
        for p in range(2):
            for c in mask_cards(int(st[E.ST_HAND + p])):
                u = int(E.under_card(st, c))
                if u >= 0:
                    slots.append((c, u))
        unders = [u for _, u in slots]
        rng.shuffle(unders)
        out = st.copy()
        out[E.ST_UNDER:E.ST_UNDER + 4] = 0
        for (c, _), u in zip(slots, unders):
            w = E.ST_UNDER + (c >> 3)
            out[w] = int(out[w]) | ((u + 1) << (8 * (c & 7)))
        return out
    taker = int(st[E.ST_TAKER])
    places = [p for p in range(n) if p != seat]
    pool = []
    sizes = []
    for p in places:
        cs = mask_cards(int(st[E.ST_HAND + p]))
        pool += cs
        sizes.append(len(cs))
    hidden_discards = taker >= 0 and taker != seat
    if hidden_discards:
        cs = mask_cards(int(st[E.ST_DISCARDS]))
        pool += cs
        sizes.append(len(cs))
    if ph == E.P_PICKUP:
        cs = mask_cards(int(st[E.ST_SKAT]))
        pool += cs
        sizes.append(len(cs))
    contract = int(st[E.ST_CONTRACT])
    declarer = int(st[E.ST_DECLARER])
    called = int(st[E.ST_CALLED])
    for _ in range(200):
        rng.shuffle(pool)
        out = st.copy()
        k = 0
        new = {}
        for i, size in enumerate(sizes):
            new[i] = sum(1 << c for c in pool[k:k + size])
            k += size
        for i, p in enumerate(places):
            out[E.ST_HAND + p] = new[i]
        if hidden_discards:
            out[E.ST_DISCARDS] = new[len(places)]
            if new[len(places)] & BLACK_QUEENS:
                continue
        if ph == E.P_PICKUP:
            out[E.ST_SKAT] = new[len(sizes) - 1]

        def owner(c, by):
            if int(st[by]) >= 0:
                return int(st[by])
            for p in range(n):
                if int(out[E.ST_HAND + p]) >> c & 1:
                    return p
            return -1
        if ph < E.P_LUST:
            return out          # before the contracts nothing depends on the hands
        qc = owner(parse_card("QC"), E.ST_QC_BY)
        qs = owner(parse_card("QS"), E.ST_QS_BY)
        old = qc if qc == qs else -1
        if old != int(st[E.ST_OLD_ONES]) and ph <= E.P_OLD_ONES:
            continue
        if contract == E.NORMAL and ph == E.P_PLAY:
            if qc == qs or qc < 0 or qs < 0:
                continue
            out[E.ST_TEAM0] = (1 << qc) | (1 << qs)
        elif contract in (E.QUIET_SOLO, E.WEDDING) and not (qc == qs == declarer):
            continue
        if called >= 0 and int(st[E.ST_CALLED_BY]) < 0:
            holder = owner(called, E.ST_CALLED_BY)
            if holder == declarer or holder < 0:
                continue
            out[E.ST_TEAM0] = (1 << declarer) | (1 << holder)
        return out
    return None


@pytest.mark.parametrize("preset", PRESETS)
def test_choices_depend_only_on_the_observation(preset):
    eng, _ = engine(preset)
    n = eng.n
    rng = random.Random(7)
    checked = changed = 0
    for index in range(30):
        for before, a in walk(eng, 4, index, policies(MIXES[index % 4], n)):
            if rng.random() > 0.3:
                continue
            seat = eng.to_move(before)
            for s in range(n):
                other = _redeal(before, s, rng)
                if other is None:
                    continue
                assert np.array_equal(eng.observe(before, s), eng.observe(other, s)), (index, s)
                if s != seat:
                    continue
                changed += not np.array_equal(other, before)
                for pol in POLICIES:
                    x, y = before.copy(), other.copy()
                    assert eng.choose(pol, x) == eng.choose(pol, y), (index, pol)
                    assert x[E.ST_RNG] == y[E.ST_RNG]
                checked += 1
    assert checked > 100 and changed > checked // 2



def test_boss_table_is_the_beats_rule():
    """The heuristic's one-mask boss test agrees with its card-by-card rule."""
    from simcore.games.wendish.cards import FOLLOW_MASK, TRUMP_MASK
    from simcore.games.wendish.policies import ABOVE, _beats
    for t in range(4):
        tm = int(TRUMP_MASK[t])
        for lead in range(32):
            for card in range(32):
                if not (tm >> card & 1 or int(FOLLOW_MASK[t, lead]) >> card & 1):
                    continue            # such a card never holds a trick
                for x in range(32):
                    assert bool(_beats(t, lead, card, x)) == bool(int(ABOVE[t, card]) >> x & 1)


@pytest.mark.parametrize("preset", PRESETS)
def test_jsonl_text_is_the_dumped_records(preset):
    eng, rules = engine(preset)
    for mix in MIXES:
        names_, ids = GAME.policy_ids(policies(mix, eng.n), rules)
        recs = GAME.records(rules, names_, ids, 9, 100, 40)
        assert GAME.records_jsonl(rules, names_, ids, 9, 100, 40) == "".join(
            json.dumps(r, separators=(",", ":")) + "\n" for r in recs).encode()
