"""The Schadenfreude engine (engine.py) and its Python API (api.Engine).

- The API plays exactly the batch run's games: ``Engine.play`` equals ``GAME.record``
  for many (seed, index), every preset, player count and policy mix, and the bulk
  JSON text is ``json.dumps`` of those records, for any chunking.
- Legal actions, apply (and its refusals), the state as an undo copy.
- Policies see only their seat's observation: re-dealing the hidden cards (the
  other hands, the cards set aside, the deck order) leaves the observation, the
  heuristic's choice and the random policy's choice and draws unchanged.
- ``from_record`` gives the run's position: ``choose`` there makes the recorded choice.
"""
from __future__ import annotations

import json

import numpy as np
import pytest

import naive_schadenfreude as naive
from simcore.errors import ReplayError
from simcore.games.schadenfreude import GAME
from simcore.games.schadenfreude.cards import card_name, mask_cards, mask_of
from simcore.games.schadenfreude.engine import (N_ACTIONS, O_HAND, O_HELD, OBS_SIZE, S_DECK,
                                                S_HAND, S_PLAYED, S_RNG, S_SPARE,
                                                S_SPARE_LEFT, STATE_SIZE,
                                                legal_actions, legal_cards)
from simcore.games.schadenfreude.play import PARALLEL_MIN
from simcore.games.schadenfreude.policies import POLICIES

PLAYERS = (3, 4, 5)
PRESETS = tuple(GAME.rulebook.presets)


def mixes(n):
    return [["random"] * n, ["heuristic"] * n, ["heuristic"] + ["random"] * (n - 1),
            (["random", "heuristic"] * 3)[:n]]


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("preset", PRESETS)
def test_api_plays_the_batch_games(preset, players):
    rules = GAME.build_rules(preset, players=players)
    eng = GAME.engine(rules)
    for k, mix in enumerate(mixes(players)):
        names, ids = GAME.policy_ids(mix, rules)
        seed = 1000 * k + players
        batch = GAME.records(rules, names, ids, seed, 0, 12)
        text = GAME.records_jsonl(rules, names, ids, seed, 0, 12).decode().splitlines()
        for index in range(12):
            rec = eng.play(seed, index, names)
            assert rec == batch[index], (preset, mix, index)
            assert json.dumps(rec, separators=(",", ":")) == text[index]
        table = GAME.run_chunk(rules, ids, seed, 0, 12)["games"]
        assert [len(r["deals"]) for r in batch] == table["rounds"].tolist()
        assert [r["result"]["scores"] for r in batch] == table["scores"].tolist()


def test_api_plays_option_variants_as_the_batch():
    variants = [{"pairs": "keep", "floor": "none", "limit": 15},
                {"first_leader": "seat0", "tie_lead": "after_last", "all_bust": "highest",
                 "limit": 6, "hand_size": 6},
                {"limit": 200, "max_rounds": 2},
                {"players": 5, "values": "-3,1,2,3,4", "hand_size": 2, "limit": 3}]
    for v in variants:
        rules = GAME.rulebook.build(overrides=v)
        eng = GAME.engine(rules)
        mix = ["heuristic", "random"] + ["random"] * (rules["players"] - 2)
        names, ids = GAME.policy_ids(mix, rules)
        batch = GAME.records(rules, names, ids, 77, 5, 15)
        assert [eng.play(77, 5 + i, names) for i in range(15)] == batch


def test_records_do_not_depend_on_the_chunking():
    """Chunks of fewer than PARALLEL_MIN games run serially, larger ones in parallel."""
    rules = GAME.build_rules("summary-de", players=5)
    names, ids = GAME.policy_ids(["random", "heuristic", "random", "random", "random"], rules)
    count = PARALLEL_MIN + 6
    whole = GAME.records_jsonl(rules, names, ids, 3, 10, count)
    parts = b"".join(GAME.records_jsonl(rules, names, ids, 3, s, c)
                     for s, c in ((10, 1), (11, 13), (24, count - 14)))
    assert whole == parts and whole.count(b"\n") == count
    assert GAME.record(rules, names, ids, 3, 30) == json.loads(whole.splitlines()[20])
    table = GAME.run_chunk(rules, ids, 3, 10, count)["games"]
    assert table["rounds"].tolist() == [len(json.loads(x)["deals"]) for x in whole.splitlines()]


# ----- legal actions, apply, undo -------------------------------------------------------

def walk(eng, seed, index, policies, visit):
    """Play a game through the API, calling ``visit(state)`` before every action."""
    st = eng.new(seed, index)
    while True:
        while not eng.deal_over(st):
            visit(st)
            eng.apply(st, eng.choose(policies[eng.to_move(st)], st))
        if eng.game_over(st):
            return st
        eng.next_deal(st)


def test_legal_actions_follow_the_rules():
    rules = GAME.build_rules(players=4)
    eng = GAME.engine(rules)
    buf = np.empty(N_ACTIONS, dtype=np.int64)
    seen = {"must_follow": 0, "free": 0}

    def visit(st):
        seat = eng.to_move(st)
        hand = [card_name(c) for c in mask_cards(int(st[S_HAND + seat]))]
        trick = eng.view(st, seat)["trick"]
        legal = eng.legal(st)
        k = legal_actions(eng.r, st, buf)
        assert legal == buf[:k].tolist() == mask_cards(int(legal_cards(st)))
        assert [card_name(c) for c in legal] == naive.legal_cards(hand, [c for _, c in trick])
        seen["must_follow" if len(legal) < len(hand) else "free"] += 1

    for index in range(5):
        walk(eng, 8, index, ["random"] * 4, visit)
    assert seen["must_follow"] and seen["free"]


def test_apply_refuses_illegal_actions_and_changes_nothing():
    rules = GAME.build_rules(players=4)
    eng = GAME.engine(rules)
    st = eng.new(5, 0)
    eng.apply(st, eng.legal(st)[0])               # the leader plays: a suit is set
    seat = eng.to_move(st)
    hand = mask_cards(int(st[S_HAND + seat]))
    before = st.copy()
    not_held = next(c for c in range(50) if c not in hand)
    with pytest.raises(ValueError, match=rf"play {card_name(not_held)} is not legal: seat "
                                         rf"{seat} does not hold {card_name(not_held)}"):
        eng.apply(st, not_held)
    assert (st == before).all()
    off = [c for c in hand if c not in eng.legal(st)]
    if off:
        with pytest.raises(ValueError, match="must follow the lead suit.*; legal: "
                                             r"\['play "):
            eng.apply(st, off[0])
    with pytest.raises(ValueError, match="is not an action|action code"):
        eng.apply(st, 50)
    assert (st == before).all()
    with pytest.raises(ValueError, match="still being played"):
        eng.next_deal(st)
    done = walk(eng, 5, 1, ["random"] * 4, lambda s: None)
    with pytest.raises(ValueError, match="after every card was played"):
        eng.apply(done, 0)
    with pytest.raises(ValueError, match="game is over"):
        eng.next_deal(done)
    with pytest.raises(ValueError, match="nobody is to move"):
        eng.choose("random", done)


def test_a_copy_of_the_state_is_an_undo():
    rules = GAME.build_rules(players=3)
    eng = GAME.engine(rules)
    st = eng.new(9, 4)
    assert st.shape == (STATE_SIZE,) and st.dtype == np.int64
    for _ in range(20):
        saved = st.copy()
        a = eng.choose("heuristic", st)
        eng.apply(st, a)
        after = st.copy()
        st[:] = saved
        eng.apply(st, a)
        assert (st == after).all()


def test_action_codes_and_record_items_are_one_to_one():
    rules = GAME.build_rules(players=4)
    eng = GAME.engine(rules)
    st = eng.new(2, 0)
    seat = eng.to_move(st)
    for a in range(N_ACTIONS):
        item = eng.action_to_record(st, a)
        assert item == [seat, "play", card_name(a)]
        assert eng.action_from_record(st, item) == a
        assert eng.describe(a) == f"play {card_name(a)}"
    with pytest.raises(ValueError, match="turn"):
        eng.action_from_record(st, [(seat + 1) % 4, "play", "7H"])
    with pytest.raises(ReplayError, match="not a Schadenfreude card"):
        eng.action_from_record(st, [seat, "play", "11H"])


# ----- what a seat sees -----------------------------------------------------------------

def redeal_hidden(st, seat, n, h, nd, rng):
    """The same position for ``seat`` with the hidden cards dealt anew: every other
    hand keeps its size, the cards set aside and the deck order are shuffled too."""
    out = st.copy()
    own = int(st[S_HAND + seat])
    hidden = [c for p in range(n) if p != seat for c in mask_cards(int(st[S_HAND + p]))]
    deck = [int(c) for c in st[S_DECK:S_DECK + nd]]
    aside = [c for c in deck[n * h:]]
    pool = hidden + aside
    rng.shuffle(pool)
    for p in range(n):
        if p != seat:
            k = bin(int(st[S_HAND + p])).count("1")
            out[S_HAND + p] = mask_of(pool[:k])
            pool = pool[k:]
    order = list(deck)
    rng.shuffle(order)
    out[S_DECK:S_DECK + len(order)] = order
    assert int(out[S_HAND + seat]) == own
    return out


@pytest.mark.parametrize("players", PLAYERS)
def test_policies_see_only_their_observation(players):
    rules = GAME.build_rules("standard", players=players)
    eng = GAME.engine(rules)
    h = rules["hand_size"]
    rng = np.random.default_rng(players)
    counted = {"positions": 0, "changed": 0}

    def visit(st):
        seat = eng.to_move(st)
        obs = eng.observe(st, seat)
        other = redeal_hidden(st, seat, players, h, len(rules["values"]) * 4 + 2, rng)
        counted["positions"] += 1
        counted["changed"] += int(not (other == st).all())
        assert (eng.observe(other, seat) == obs).all()
        assert obs.shape == (OBS_SIZE,) and int(obs[O_HAND]) == int(st[S_HAND + seat])
        assert list(obs[O_HELD:O_HELD + players]) == \
            [bin(int(x)).count("1") for x in st[S_HAND:S_HAND + players]]
        for name in POLICIES:
            a, b = st.copy(), other.copy()
            assert eng.choose(name, a) == eng.choose(name, b), name
            for f in (S_RNG, S_SPARE, S_SPARE_LEFT):
                assert a[f] == b[f]

    for index in range(4):
        walk(eng, 21, index, ["heuristic"] * players, visit)
    assert counted["changed"] > 0.9 * counted["positions"] > 100


def test_view_decodes_the_observation():
    rules = GAME.build_rules(players=4)
    eng = GAME.engine(rules)
    st = eng.new(4, 2)
    leader = eng.to_move(st)
    for _ in range(2):
        eng.apply(st, eng.choose("random", st))
    seat = eng.to_move(st)
    v = eng.view(st, seat)
    assert v["seat"] == seat and v["to_move"] == seat and v["leader"] == leader
    assert v["hand"] == [card_name(c) for c in mask_cards(int(st[S_HAND + seat]))]
    assert [s for s, _ in v["trick"]] == [leader, (leader + 1) % 4]
    assert v["played"] == [card_name(c) for c in mask_cards(int(st[S_PLAYED]))]
    assert v["held"] == [12 - (p in (leader, (leader + 1) % 4)) for p in range(4)]
    assert v["scores"] == [0] * 4 and v["status"] == "playing" and v["bust"] == []
    assert set(v) >= {"piles", "points", "lead_suit", "tricks_done", "round"}


# ----- positions from records --------------------------------------------------------------

def test_from_record_is_the_runs_position():
    rules = GAME.build_rules("summary-de", players=4)
    eng = GAME.engine(rules)
    mix = ["heuristic", "random", "random", "heuristic"]
    names, ids = GAME.policy_ids(mix, rules)
    for rec in GAME.records(rules, names, ids, 12, 0, 4):
        for d, deal in enumerate(rec["deals"]):
            for k in range(0, len(deal["actions"]), 7):
                st = eng.from_record(rec, d, k)
                item = deal["actions"][k]
                assert eng.to_move(st) == item[0]
                assert eng.action_to_record(st, eng.choose(mix[item[0]], st)) == item
            st = eng.from_record(rec, d)
            assert eng.deal_over(st) and eng.deal_end(st) == deal["end"]
        assert eng.result(st) == rec["result"] and eng.game_over(st)


def test_from_record_of_a_foreign_record(golden_dir, jsonl):
    """Golden records were not dealt by their (seed, index): the cards come from the record."""
    for rec in jsonl.read(golden_dir / "schadenfreude_3p.jsonl"):
        eng = GAME.engine(GAME.rulebook.from_dict(rec["rules"]))
        last = len(rec["deals"]) - 1
        st = eng.from_record(rec, last, 3)
        assert eng.deal_start(st) == rec["deals"][last]["start"]
        for item in rec["deals"][last]["actions"][3:]:
            eng.apply(st, eng.action_from_record(st, item))
        assert eng.deal_end(st) == rec["deals"][last]["end"]
        assert eng.result(st) == rec["result"]


def test_from_record_refuses_bad_arguments(golden_dir, jsonl):
    rec = jsonl.read(golden_dir / "schadenfreude_3p.jsonl")[0]
    eng = GAME.engine(GAME.rulebook.from_dict(rec["rules"]))
    with pytest.raises(ValueError, match="deal 5 is not in the record"):
        eng.from_record(rec, 5)
    with pytest.raises(ValueError, match="upto 99 is not in"):
        eng.from_record(rec, 0, 99)
    with pytest.raises(ValueError, match="the record is for"):
        GAME.engine(GAME.build_rules(players=3)).from_record(rec)
    bad = json.loads(json.dumps(rec))
    bad["deals"][0]["end"]["points"][1] += 1
    with pytest.raises(ReplayError, match="end.points"):
        eng.from_record(bad)


def test_start_a_round_from_given_hands():
    rules = GAME.rulebook.build(overrides={"players": 3, "values": "1,2,3", "hand_size": 2,
                                           "limit": 5})
    eng = GAME.engine(rules)
    st = eng.new(0, 0)
    eng.start(st, [["1H", "2C"], ["3S", "1C"], ["2D", "3C"]], 0)
    for card in ("1H", "3S", "2D"):       # 1H the lone follower takes all three
        eng.apply(st, eng.action_from_record(st, [eng.to_move(st), "play", card]))
    assert eng.view(st, 1)["piles"][0] == ["3S", "1H", "2D"]
    with pytest.raises(ValueError, match="3 hands of 2 cards"):
        eng.start(st, [["1H"], ["3S"], ["2D"]], 0)
    with pytest.raises(ValueError, match="twice or is not in the deck"):
        eng.start(st, [["1H", "9C"], ["3S", "1C"], ["2D", "3C"]], 0)
