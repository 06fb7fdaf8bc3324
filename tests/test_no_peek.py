"""No player peeks, in any game: every player a game lists (``policy_help``), the
searching ones (``pimc`` with its parameters) included, chooses the same action when
every card its seat cannot see is dealt anew consistently with what it saw, from the
same random stream; every game's sampler and decision streams draw the very same
worlds from two such deals; and Schnapsen's sampled worlds keep everything the seat saw.

The re-deals are the engine tests' own (``redeal_hidden`` and ``_redeal``, written
from the rules, not from the players' samplers), so a player that reads a hidden card
(an opponent's hand, the talon's order, the discards, a covered card) changes its
choice on some of these positions."""
from __future__ import annotations

import random

import numpy as np
import pytest

from simcore import get_game

# a few cheap parameter sets of each searching player (every parameter that changes
# what it reads: goals, contract methods, depths, playouts)
PIMC_VARIANTS = {
    "schnapsen": ("pimc:worlds=2", "pimc:worlds=2,goal=deal,marriage_claim=0"),
    "wendish": ("pimc:worlds=2", "pimc:worlds=1,contracts=search,cworlds=1",
                "pimc:worlds=1,contracts=playout,cworlds=2"),
    "schadenfreude": ("pimc:worlds=2", "pimc:worlds=2,depth=1,playout=0",
                      "pimc:worlds=9,cards=12,stop=5"),
}


def players_of(game_name):
    """Every player the game offers (the first word of each ``policy_help`` line, a
    searching player under each of its parameter sets above): a new player is tested
    here the day it is listed."""
    out = []
    for line in get_game(game_name).policy_help():
        base = line.split()[0].split("[")[0]
        out += list(PIMC_VARIANTS[game_name]) if base == "pimc" else [base]
    return out


def test_every_listed_player_is_covered():
    for game_name in PIMC_VARIANTS:
        names = players_of(game_name)
        assert any(n.startswith("pimc") for n in names) and "heuristic" in names
        eng = get_game(game_name).engine(get_game(game_name).build_rules())
        for n in names:
            eng.check_policy(n)


# ----- Schnapsen ---------------------------------------------------------------------------
def _schnapsen_positions(eng, seed, games, rate, rng):
    """Positions before actions of games between the heuristic and the random player
    (a share ``rate`` of them; not in the first trick, where a search is dearest, nor at
    the claim or pass after the last trick, where nothing is hidden)."""
    from simcore.games.schnapsen.engine import AFTER_LAST, S_CLOSER, S_PHASE, S_TALON_LEFT
    out = []
    for index in range(games):
        st = eng.new(seed, index)
        mix = ("heuristic", "random") if index % 2 else ("random", "heuristic")
        while True:
            while not eng.deal_over(st):
                first = int(st[S_TALON_LEFT]) == 10 and int(st[S_CLOSER]) < 0
                if not first and int(st[S_PHASE]) != AFTER_LAST and rng.random() < rate:
                    out.append(st.copy())
                eng.apply(st, eng.choose(mix[eng.to_move(st)], st))
            if eng.game_over(st):
                break
            eng.next_deal(st)
    return out


@pytest.mark.parametrize("variant", ["austrian", "tournament", "odd"])
def test_schnapsen_players_do_not_peek(variant):
    from test_schnapsen_engine import VARIANTS, redeal_hidden
    from simcore.games.schnapsen.engine import N_OBS, S_HAND, S_RNG, S_TALON, observe
    eng = get_game("schnapsen").engine(VARIANTS[variant])
    rng = random.Random(variant)
    obs_a = np.zeros(N_OBS, np.int64)
    obs_b = np.zeros(N_OBS, np.int64)
    positions = _schnapsen_positions(eng, 31, 6, 0.3, rng)
    changed = 0
    for st in positions:
        seat = eng.to_move(st)
        other = redeal_hidden(st, seat, rng)
        observe(eng.r, st, seat, obs_a)
        observe(eng.r, other, seat, obs_b)
        assert np.array_equal(obs_a, obs_b)
        changed += int(other[S_HAND + 1 - seat]) != int(st[S_HAND + 1 - seat]) or \
            int(other[S_TALON]) != int(st[S_TALON])
        for name in players_of("schnapsen"):
            x, y = st.copy(), other.copy()
            assert eng.choose(name, x) == eng.choose(name, y), (name, st.tolist())
            assert x[S_RNG] == y[S_RNG], name
    assert len(positions) >= 30 and changed > len(positions) // 2


def test_schnapsen_worlds_keep_what_the_seat_saw():
    """pimc's worlds: the observation of the seat is the same in every world (its hand,
    the cards played, the card under the talon -- after an exchange the trump jack --,
    the opponent's known cards -- shown marriage halves, the card an exchange or the
    last draw gave it -- and its voids, after the talon is gone and after a close), the
    opponent keeps its hand size, every card is in one place, and the hidden cards do
    move."""
    from test_schnapsen_engine import VARIANTS
    from simcore.games.schnapsen.engine import (N_OBS, S_CLOSER, S_EXCHANGER, S_HAND,
                                                S_MSUITS, S_PLAYED, S_SHOWN, S_TALON,
                                                S_TALON_LEFT, S_TRUMP, S_TRUMP_CARD, S_VOID,
                                                observe)
    from simcore.games.schnapsen.solver import sample_world
    eng = get_game("schnapsen").engine(VARIANTS["austrian"])
    rng = random.Random(5)
    a = np.zeros(N_OBS, np.int64)
    b = np.zeros(N_OBS, np.int64)
    world = np.zeros_like(eng.new(1, 0))
    cards = np.zeros(64, np.int64)
    seen = {"marriage_half": 0, "exchanged_jack": 0, "taken_trump": 0, "void_no_talon": 0,
            "void_closed": 0, "moved": 0}
    for st in _schnapsen_positions(eng, 8, 60, 0.25, rng):
        seat = eng.to_move(st)
        o = 1 - seat
        known = int(st[S_SHOWN + o]) & ~int(st[S_PLAYED])
        void = int(st[S_VOID + o])
        left = int(st[S_TALON_LEFT])
        observe(eng.r, st, seat, a)
        for k in range(3):
            world[:] = st                      # (the match's words are not the deal's)
            sample_world(st, seat, np.uint64(rng.getrandbits(64)), world, cards)
            observe(eng.r, world, seat, b)
            assert np.array_equal(a, b)
            opp = int(world[S_HAND + o])
            assert world[S_HAND + seat] == st[S_HAND + seat]
            assert opp & known == known and opp & void == 0
            assert bin(opp).count("1") == bin(int(st[S_HAND + o])).count("1")
            talon = [int(world[S_TALON]) >> (5 * i) & 31 for i in range(max(left - 1, 0))]
            places = [int(world[S_HAND + seat]), opp, int(st[S_PLAYED])] + \
                [1 << c for c in talon] + ([1 << int(world[S_TRUMP_CARD])] if left else [])
            total = 0
            for m in places:
                assert total & m == 0, "a card in two places"
                total |= m
            assert total == (1 << 20) - 1, "a card in no place"
            seen["moved"] += opp != int(st[S_HAND + o]) or \
                int(world[S_TALON]) != int(st[S_TALON])
        jack = int(st[S_TRUMP]) * 5
        seen["marriage_half"] += any(known >> (5 * s) & 0b110 and int(st[S_MSUITS + o]) >> s & 1
                                     for s in range(4))
        seen["exchanged_jack"] += int(st[S_EXCHANGER]) >= 0 and left > 0 and \
            int(st[S_TRUMP_CARD]) == jack
        seen["taken_trump"] += int(st[S_EXCHANGER]) == o and known != 0
        seen["void_no_talon"] += left == 0 and void != 0
        seen["void_closed"] += left > 0 and int(st[S_CLOSER]) >= 0 and void != 0
    assert min(seen.values()) >= 5, seen


# ----- Wendish -----------------------------------------------------------------------------
def _wendish_positions(eng, seed, games, rate, max_left, rng):
    """Positions before decisions of heuristic games: every contract decision, and card
    play with at most ``max_left`` tricks to go (a share ``rate`` of those)."""
    from simcore.games.wendish import engine as E
    out = []
    for index in range(games):
        st = eng.new(seed, index)
        while not eng.game_over(st):
            if eng.deal_over(st):
                eng.next_deal(st)
                continue
            ph = int(st[E.ST_PHASE])
            left = int(st[E.ST_NTRICKS]) - int(st[E.ST_TRICKS_DONE])
            if ph != E.P_PLAY or (left <= max_left and rng.random() < rate):
                out.append(st.copy())
            eng.apply(st, eng.choose("heuristic", st))
    return out


@pytest.mark.parametrize("preset,games,rate,max_left", [
    ("standard", 2, 0.4, 5),
    # (found here: pimc's contract stream mixed in the taker's discard pile, which the
    # other seats cannot see, so their Lust Solo choice changed with the re-dealt pile)
    ("dreiwendsch", 2, 0.4, 5),
    ("sharp", 2, 0.4, 5),
    ("officers", 3, 0.5, 3)])
def test_wendish_players_do_not_peek(preset, games, rate, max_left):
    from test_wendish_engine import _redeal, engine
    from simcore.games.wendish import engine as E
    eng, _ = engine(preset)
    rng = random.Random(preset)
    checked = changed = contract = 0
    for st in _wendish_positions(eng, 41, games, rate, max_left, rng):
        seat = eng.to_move(st)
        other = _redeal(st, seat, rng)
        if other is None:
            continue
        assert np.array_equal(eng.observe(st, seat), eng.observe(other, seat))
        changed += not np.array_equal(other, st)
        contract += int(st[E.ST_PHASE]) != E.P_PLAY
        for name in players_of("wendish"):
            x, y = st.copy(), other.copy()
            assert eng.choose(name, x) == eng.choose(name, y), (name, st.tolist())
            assert x[E.ST_RNG] == y[E.ST_RNG], name
        checked += 1
    assert checked >= 12 and changed > checked // 2
    assert contract > 0 or preset == "officers"


# ----- Schadenfreude -----------------------------------------------------------------------
@pytest.mark.parametrize("players", [3, 4, 5])
def test_schadenfreude_players_do_not_peek(players):
    from test_schadenfreude_engine import redeal_hidden
    from simcore.games.schadenfreude.engine import S_RNG, S_SPARE, S_SPARE_LEFT
    g = get_game("schadenfreude")
    rules = g.build_rules("standard", players=players)
    eng = g.engine(rules)
    h = rules["hand_size"]
    nd = len(rules["values"]) * 4 + 2
    rng = np.random.default_rng(players)
    pick = random.Random(players)
    checked = changed = 0
    for index in range(1):
        st = eng.new(17, index)
        while not eng.game_over(st):
            if eng.deal_over(st):
                eng.next_deal(st)
                continue
            if pick.random() < 0.15:
                seat = eng.to_move(st)
                other = redeal_hidden(st, seat, players, h, nd, rng)
                assert (eng.observe(other, seat) == eng.observe(st, seat)).all()
                changed += int(not (other == st).all())
                for name in players_of("schadenfreude"):
                    x, y = st.copy(), other.copy()
                    assert eng.choose(name, x) == eng.choose(name, y), name
                    for f in (S_RNG, S_SPARE, S_SPARE_LEFT):
                        assert x[f] == y[f]
                checked += 1
            eng.apply(st, eng.choose("heuristic", st))
    assert checked >= 8 and changed > 0.9 * checked


# ----- the samplers: a world is a function of what the seat saw ----------------------------
# A choice may by chance survive a peek; the worlds cannot: from two deals the seat cannot
# tell apart, with the same stream, every sampler must draw the very same world (every
# hidden place and every word it derives from them), and every decision stream must be
# the same.  A sampler or stream that reads a hidden card fails here on most positions.
def test_schnapsen_sampler_and_stream_read_only_the_observation():
    from test_schnapsen_engine import VARIANTS, redeal_hidden
    from simcore.games.schnapsen.engine import S_HAND, S_TALON
    from simcore.games.schnapsen.solver import decision_stream, sample_world
    rng = random.Random(3)
    checked = moved = 0
    for variant in ("austrian", "tournament"):
        eng = get_game("schnapsen").engine(VARIANTS[variant])
        cards = np.zeros(64, np.int64)
        for st in _schnapsen_positions(eng, 19, 8, 0.5, rng):
            seat = eng.to_move(st)
            other = redeal_hidden(st, seat, rng)
            assert decision_stream(st) == decision_stream(other)
            moved += int(other[S_HAND + 1 - seat]) != int(st[S_HAND + 1 - seat])
            for _ in range(2):
                seed = np.uint64(rng.getrandbits(64))
                a, b = st.copy(), other.copy()
                ra = sample_world(st, seat, seed, a, cards)
                rb = sample_world(other, seat, seed, b, cards)
                assert ra == rb
                for w in (S_HAND, S_HAND + 1, S_TALON):
                    assert a[w] == b[w], (variant, w, st.tolist())
            checked += 1
    assert checked >= 40 and moved > checked // 2


@pytest.mark.parametrize("preset", ["standard", "dreiwendsch", "sharp", "officers"])
def test_wendish_samplers_and_streams_read_only_the_observation(preset):
    from test_wendish_engine import _redeal, engine
    from simcore.games.wendish import engine as E
    from simcore.games.wendish.pimc import (contract_stream, decision_stream,
                                            sample_contract_world, sample_world)
    eng, _ = engine(preset)
    rng = random.Random(preset)
    n = eng.n
    words = [E.ST_HAND + q for q in range(n)] + [E.ST_DISCARDS, E.ST_TEAM0, E.ST_CONTRACT,
                                                 E.ST_DECLARER] + \
        list(range(E.ST_UNDER, E.ST_UNDER + 4))
    a = np.zeros(E.STATE_SIZE, np.int64)
    b = np.zeros(E.STATE_SIZE, np.int64)
    checked = moved = contract = 0
    for st in _wendish_positions(eng, 43, 6, 0.3, 8, rng):
        seat = eng.to_move(st)
        other = _redeal(st, seat, rng)
        if other is None:
            continue
        assert decision_stream(st) == decision_stream(other)
        assert contract_stream(st) == contract_stream(other)
        moved += not np.array_equal(other, st)
        in_contracts = int(st[E.ST_PHASE]) not in (E.P_PLAY, E.P_PICKUP)
        contract += in_contracts
        for _ in range(2):
            seed = np.uint64(rng.getrandbits(64))
            assert sample_world(st, seat, seed, a) == sample_world(other, seat, seed, b)
            for w in words:
                assert a[w] == b[w], (preset, w, st.tolist())
            if in_contracts:
                assert sample_contract_world(eng.r, st, seat, seed, a) == \
                    sample_contract_world(eng.r, other, seat, seed, b)
                for w in words + [E.ST_OLD_ONES]:
                    assert a[w] == b[w], (preset, "contract", w, st.tolist())
        checked += 1
    assert checked >= 40 and moved > checked // 2
    assert contract >= 10 or preset == "officers"


@pytest.mark.parametrize("players", [3, 4, 5])
def test_schadenfreude_sampler_and_stream_read_only_the_observation(players):
    from test_schadenfreude_engine import redeal_hidden
    from simcore.games.schadenfreude.engine import S_HAND, STATE_SIZE
    from simcore.games.schadenfreude.solver import decision_stream, sample_world
    g = get_game("schadenfreude")
    rules = g.build_rules("standard", players=players)
    eng = g.engine(rules)
    h = rules["hand_size"]
    nd = len(rules["values"]) * 4 + 2
    rng = np.random.default_rng(players)
    pick = random.Random(players)
    a = np.zeros(STATE_SIZE, np.int64)
    b = np.zeros(STATE_SIZE, np.int64)
    cards = np.zeros(64, np.int64)
    checked = moved = 0
    for index in range(2):
        st = eng.new(23, index)
        while not eng.game_over(st):
            if eng.deal_over(st):
                eng.next_deal(st)
                continue
            if pick.random() < 0.3:
                seat = eng.to_move(st)
                other = redeal_hidden(st, seat, players, h, nd, rng)
                assert decision_stream(st) == decision_stream(other)
                moved += int(not (other == st).all())
                for _ in range(2):
                    seed = np.uint64(pick.getrandbits(64))
                    assert sample_world(eng.r, st, seat, seed, a, cards) == \
                        sample_world(eng.r, other, seat, seed, b, cards)
                    for q in range(players):
                        assert a[S_HAND + q] == b[S_HAND + q], (q, st.tolist())
                checked += 1
            eng.apply(st, eng.choose("heuristic", st))
    assert checked >= 40 and moved > 0.9 * checked
