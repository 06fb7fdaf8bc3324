"""The Wendish pimc player's contract decisions (discards, Lust Solo, the Old Ones'
choice) by the heuristic, by playouts and by open-card search over sampled worlds."""
import numpy as np
import pytest

from simcore import get_game
from simcore.errors import RulesError
from simcore.games.wendish.cards import BLACK_QUEENS, QC
from simcore.games.wendish.engine import (A_DISCARD, A_PASS, MAX_LEGAL, P_DISCARD, P_DONE,
                                          P_LUST, P_OLD_ONES, P_PICKUP, P_PLAY, QUIET_SOLO,
                                          SOLO, STATE_SIZE, ST_CONTRACT, ST_DECLARER,
                                          ST_FOREHAND, ST_HAND, ST_LUST_N, ST_N, ST_OLD_ONES,
                                          ST_PHASE, ST_RNG, ST_TAKER, ST_TO_MOVE,
                                          py_apply, py_init_game, py_legal_actions)
from simcore.games.wendish.pimc import (parse_policy, policy_name, py_choose_w,
                                        sample_contract_world)
from simcore.games.wendish.policies import HEURISTIC, py_choose
from simcore.games.wendish.rules import rules_array
from simcore.games.wendish.solver import new_work

GAME = get_game("wendish")
METHODS = ("heuristic", "playout", "search")
WORK = new_work()


def _rules(*assignments):
    rules = GAME.build_rules(assignments=list(assignments))
    return rules, rules_array(rules)


def _legal(r, st):
    out = np.empty(MAX_LEGAL, np.int64)
    return set(out[:py_legal_actions(r, st, out)].tolist())


def _contract_round(r, seed, index, pid, seats):
    """Walk the contract round of game ``index`` with ``pid`` in ``seats`` and the
    heuristic elsewhere; checks each pimc choice is legal, reproducible and leaves the
    game's stream alone.  Returns the state at the start of card play and how many
    choices pimc made among two or more actions."""
    st = np.zeros(STATE_SIZE, np.int64)
    py_init_game(r, st, seed, index)
    choices = 0
    while st[ST_PHASE] not in (P_PLAY, P_DONE):
        if st[ST_TO_MOVE] in seats:
            legal = _legal(r, st)
            a = st.copy()
            b = st.copy()
            x = py_choose_w(r, a, pid, WORK)
            assert x in legal
            assert py_choose_w(r, b, pid, WORK) == x
            assert a[ST_RNG] == st[ST_RNG] and np.array_equal(a, st)
            choices += len(legal) > 1
        else:
            x = py_choose(r, st, HEURISTIC)
        assert py_apply(r, st, x)
    return st, choices


@pytest.mark.parametrize("variant", ["four", "three"])
@pytest.mark.parametrize("method", METHODS)
def test_contract_choices_are_legal_and_reproducible(variant, method):
    rules, r = _rules(f"variant={variant}")
    n = GAME.seats(rules)
    # search: one world per contract decision keeps the test quick
    extra = ",cworlds=1" if method == "search" else ",cworlds=16"
    pid = parse_policy(f"pimc:worlds=1,contracts={method}{extra if method != 'heuristic' else ''}")
    choices = 0
    games = 1 if method == "search" else 6
    for index in range(games):
        seats = set(range(n))
        if method == "search" and variant == "three":
            # the discards' search costs most: searched by the seats that do not take
            # the skat here (the discards' own path is the playout method's)
            st = np.zeros(STATE_SIZE, np.int64)
            py_init_game(r, st, 11, index)
            seats.discard(int(st[ST_TAKER]))
        _, c = _contract_round(r, 11, index, pid, seats)
        choices += c
    assert choices >= games          # the Lust round at least


def test_officers_has_no_contract_decision():
    """Officers' Schafkopf deals straight into card play: pimc's contract method never
    comes into it, whatever it is."""
    rules, r = _rules("variant=officers")
    out = np.empty(MAX_LEGAL, np.int64)
    for index in range(5):
        st = np.zeros(STATE_SIZE, np.int64)
        py_init_game(r, st, 3, index)
        assert st[ST_PHASE] == P_PLAY
        k = py_legal_actions(r, st, out)
        assert k > 0 and (out[:k] < A_DISCARD).all()
    names, ids = GAME.policy_ids([f"pimc:worlds=1,contracts={m}" for m in ("search", "playout")],
                                 rules)
    assert names == ["pimc:worlds=1,contracts=search", "pimc:worlds=1,contracts=playout"]


def test_heuristic_contracts_are_the_heuristics_choices():
    rules, r = _rules("variant=three")
    pid = parse_policy("pimc:worlds=1,contracts=heuristic")
    for index in range(6):
        st = np.zeros(STATE_SIZE, np.int64)
        py_init_game(r, st, 5, index)
        while st[ST_PHASE] not in (P_PLAY, P_DONE):
            a = py_choose_w(r, st.copy(), pid, WORK)
            assert a == py_choose(r, st, HEURISTIC)
            py_apply(r, st, a)


def test_contract_worlds_are_consistent_with_what_the_seat_saw():
    """Worlds for a contract decision: own hand kept, the sizes kept, the Old Ones from
    the world's cards, Dreiwendsch's taker holding QC, earlier Lust passers passing by
    the heuristic's rule with their world hands."""
    for variant in ("four", "three"):
        rules, r = _rules(f"variant={variant}")
        seen = 0
        for index in range(40):
            st = np.zeros(STATE_SIZE, np.int64)
            py_init_game(r, st, 9, index)
            while st[ST_PHASE] in (P_PICKUP, P_DISCARD, P_LUST):
                if st[ST_PHASE] == P_LUST and st[ST_LUST_N] > 0:
                    seat = int(st[ST_TO_MOVE])
                    n = int(st[ST_N])
                    world = np.zeros(STATE_SIZE, np.int64)
                    rng = np.uint64(index + 1)
                    for _ in range(5):
                        rng = np.uint64(sample_contract_world(r, st, seat, rng, world))
                        assert world[ST_HAND + seat] == st[ST_HAND + seat]
                        for q in range(n):
                            assert bin(world[ST_HAND + q]).count("1") == \
                                bin(st[ST_HAND + q]).count("1")
                        holders = [q for q in range(n)
                                   if world[ST_HAND + q] & BLACK_QUEENS == BLACK_QUEENS]
                        assert world[ST_OLD_ONES] == (holders[0] if holders else -1)
                        assert world[ST_CONTRACT] == st[ST_CONTRACT]
                        if st[ST_TAKER] >= 0 and st[ST_TAKER] != seat:
                            assert (world[ST_HAND + st[ST_TAKER]] >> QC) & 1
                        # the passers would pass (the heuristic on their world hands)
                        probe = world.copy()
                        q = int(world[ST_FOREHAND])
                        for _ in range(int(st[ST_LUST_N])):
                            if q != seat:
                                probe[ST_TO_MOVE] = q
                                assert py_choose(r, probe, HEURISTIC) == A_PASS
                            q = (q + 1) % n
                        seen += 1
                py_apply(r, st, py_choose(r, st, HEURISTIC))
        assert seen > 50


def _solo_share(r, pid, games):
    """Solos (Lust and quiet) declared in the contract rounds of ``games`` deals with
    ``pid`` in every seat."""
    solos = 0
    for index in range(games):
        st = np.zeros(STATE_SIZE, np.int64)
        py_init_game(r, st, 2027, index)
        while st[ST_PHASE] not in (P_PLAY, P_DONE):
            py_apply(r, st, py_choose_w(r, st, pid, WORK))
        solos += st[ST_CONTRACT] in (SOLO, QUIET_SOLO)
    return solos / games


def test_the_tariff_moves_pimcs_solo_share():
    """On the same 200 four-player deals (every seat pimc, contracts by playout): a
    dearer solo (``solo_base=4``) brings more solos than the default tariff, a dearer
    normal game (``base=3``) fewer.  (Not a monotone law everywhere: raising a solo's
    stakes also deters a losing one, so in Dreiwendsch, where a seat without a black
    queen plays alone anyway, the share is not monotone in ``solo_base``.  Search is
    exercised above; 600 open-card solves from a deal's start would cost a minute.)"""
    pid = parse_policy("pimc:worlds=1,contracts=playout,cworlds=32")
    default = _solo_share(_rules()[1], pid, 200)
    assert _solo_share(_rules("solo_base=4")[1], pid, 200) > default
    assert _solo_share(_rules("base=3")[1], pid, 200) < default


def test_policy_names_and_errors():
    assert policy_name(parse_policy("pimc")) == "pimc:worlds=8"
    assert policy_name(parse_policy("pimc:contracts=search;worlds=4")) == \
        "pimc:worlds=4,contracts=search"
    assert policy_name(parse_policy("pimc:worlds=2,contracts=playout,cworlds=64")) == \
        "pimc:worlds=2,contracts=playout"
    assert policy_name(parse_policy("pimc:worlds=2,contracts=playout,cworlds=10")) == \
        "pimc:worlds=2,contracts=playout,cworlds=10"
    assert policy_name(parse_policy("pimc:worlds=2,contracts=heuristic")) == "pimc:worlds=2"
    rules = GAME.build_rules()
    names, _ = GAME.policy_ids("pimc:worlds=2,contracts=search,heuristic,heuristic,random"
                               .split(","), rules)
    assert names == ["pimc:worlds=2,contracts=search", "heuristic", "heuristic", "random"]
    for bad in ("pimc:contracts=bid", "pimc:cworlds=0", "pimc:cworlds=9000"):
        with pytest.raises(RulesError, match="contracts=M"):
            GAME.policy_ids([bad], rules)
    assert any("contracts=" in line for line in GAME.policy_help())
