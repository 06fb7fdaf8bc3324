"""The Wendish open-card solver, the pimc player and the tariff-aware heuristic."""
import numpy as np
import pytest
from numba import njit

from simcore import get_game
from simcore.bits import HAS_BMI2, _compress_loop, _compress_pext, bounded
from simcore.errors import RulesError
from simcore.games.wendish.engine import (MAX_LEGAL, P_DONE, P_PLAY, STATE_SIZE, ST_CALLED,
                                          ST_CBIT, ST_CONTRACT, ST_DECLARER, ST_DISCARDS,
                                          ST_FIRST_TRICK, ST_HAND, ST_N, ST_NTR, ST_NTRICKS,
                                          ST_PHASE, ST_PLAYED, ST_PTS, ST_RNG, ST_TEAM0,
                                          ST_TEAMS_PUBLIC, ST_TO_MOVE, ST_TRICKS_DONE,
                                          ST_TRICK_N, ST_VOID, WEDDING, apply_action,
                                          init_game, legal_actions)
from simcore.games.wendish.pimc import parse_policy, policy_name, sample_world
from simcore.games.wendish.policies import choose
from simcore.games.wendish.rules import rules_array
from simcore.games.wendish.cards import CARD_POINTS, VARIANT_DECK
from simcore.games.wendish.engine import ST_TRUMP
from simcore.games.wendish.solver import (CLASS_ORDER, CONST, _load_search_root, _rank_key,
                                          hands_in_play, minimax, new_work, solve)

GAME = get_game("wendish")
VARIANTS = ("four", "three", "three_sharp", "officers")


@njit(cache=True)
def late_positions(r, seed, count, max_left, out):
    """``count`` card-play positions with at most ``max_left`` tricks to go (and a
    random number of cards of the current trick played), reached by random and
    heuristic players, into rows of ``out``."""
    st = np.empty(STATE_SIZE, np.int64)
    acts = np.empty(MAX_LEGAL, np.int64)
    k = 0
    i = 0
    while k < count:
        init_game(r, st, np.uint64(seed), i)
        rng = np.uint64(i * 7919 + 1)
        rng, left = bounded(rng, max_left)
        left += 1
        rng, into = bounded(rng, st[ST_N])
        i += 1
        while st[ST_PHASE] != P_DONE:
            if st[ST_PHASE] == P_PLAY and st[ST_NTRICKS] - st[ST_TRICKS_DONE] <= left \
                    and st[ST_TRICK_N] == into:
                break
            rng, pick = bounded(rng, 2)
            if pick == 0:
                n = legal_actions(r, st, acts)
                rng, j = bounded(rng, n)
                a = acts[j]
            else:
                a = choose(r, st, 1)
            apply_action(r, st, a)
        if st[ST_PHASE] != P_PLAY:
            continue
        out[k] = st
        k += 1


@njit(cache=True)
def compare_all(r, pos, work):
    """How many positions where ``solve`` and ``minimax`` disagree."""
    bad = 0
    for k in range(pos.shape[0]):
        if solve(r, pos[k], work) != minimax(r, pos[k], work):
            bad += 1
    return bad


@pytest.mark.parametrize("variant,count,max_left", [("four", 2700, 1), ("four", 300, 2),
                                                    ("three", 2500, 2),
                                                    ("three_sharp", 2500, 3),
                                                    ("officers", 2500, 3)])
def test_solver_agrees_with_minimax(variant, count, max_left):
    """10,500 positions in all (late ones: plain minimax is slow): alpha-beta (ordering,
    merged cards, the table, bisecting null windows) finds the value minimax finds."""
    r = rules_array(GAME.build_rules(assignments=[f"variant={variant}"]))
    pos = np.zeros((count, STATE_SIZE), np.int64)
    late_positions(r, 11, count, max_left, pos)
    assert compare_all(r, pos, new_work()) == 0
    # and the positions are not trivial: some have a choice at the root
    assert (pos[:, ST_TRICK_N] > 0).any() and (pos[:, ST_TRICK_N] == 0).any()


@pytest.mark.parametrize("variant,count", [("four", 300), ("three", 300)])
def test_solver_agrees_with_minimax_while_a_wedding_partner_is_open(variant, count):
    """Late positions rewritten into a first-trick wedding whose partner is still open
    (the caller has won every trick so far; deadline 16): the search's sides change
    with the next trick another seat wins, as the engine's do."""
    r = rules_array(GAME.build_rules(assignments=[f"variant={variant}",
                                                  "wedding_deadline=16"]))
    pos = np.zeros((count, STATE_SIZE), np.int64)
    late_positions(r, 17, count, 2, pos)
    n = int(pos[0, ST_N])
    for i, st in enumerate(pos):
        decl = i % n
        st[ST_CONTRACT] = WEDDING
        st[ST_DECLARER] = decl
        st[ST_FIRST_TRICK] = 1
        st[ST_CALLED] = -1
        st[ST_CBIT] = 0
        st[ST_TEAMS_PUBLIC] = 0
        st[ST_TEAM0] = 1 << decl
        for field in (ST_PTS, ST_NTR):
            total = int(st[field:field + n].sum())
            st[field:field + n] = 0
            st[field + decl] = total
    assert compare_all(r, pos, new_work()) == 0


def test_open_values_match_the_solver():
    rules = GAME.build_rules()
    eng = GAME.engine(rules)
    r = rules_array(rules)
    pos = np.zeros((5, STATE_SIZE), np.int64)
    late_positions(r, 3, 5, 2, pos)
    work = new_work()
    for st in pos:
        vals = eng.open_values(st)
        assert sorted(vals) == eng.legal(st)
        seat = int(st[ST_TO_MOVE])
        for a, v in vals.items():
            s2 = st.copy()
            eng.apply(s2, a)
            cp0 = solve(r, s2, work)
            mine = (int(st[ST_TEAM0]) >> seat) & 1
            assert v == (cp0 if mine else 120 - cp0)
    with pytest.raises(ValueError, match="card play only"):
        eng.open_values(eng.new(seed=1, index=0))


@pytest.mark.parametrize("variant", VARIANTS)
def test_worlds_are_consistent(variant):
    """A sampled world keeps what the mover sees: its hand, the cards played, the hand
    sizes, the voids shown; the hidden cards are re-dealt, not lost or doubled."""
    rules = GAME.build_rules(assignments=[f"variant={variant}"])
    r = rules_array(rules)
    pos = np.zeros((40, STATE_SIZE), np.int64)
    late_positions(r, 5, 40, 6, pos)
    world = np.zeros(STATE_SIZE, np.int64)
    changed = 0
    for st in pos:
        seat = int(st[ST_TO_MOVE])
        n = int(st[ST_N])
        sample_world(st, seat, np.uint64(99), world)
        assert world[ST_HAND + seat] == st[ST_HAND + seat]
        assert world[ST_PLAYED] == st[ST_PLAYED]
        cards_w = cards_s = 0
        for q in range(n):
            h = int(world[ST_HAND + q])
            assert bin(h).count("1") == bin(int(st[ST_HAND + q])).count("1")
            if variant != "officers":
                assert h & int(st[ST_VOID + q]) == 0
            cards_w |= h
            cards_s |= int(st[ST_HAND + q])
        cards_w |= int(world[ST_DISCARDS])
        cards_s |= int(st[ST_DISCARDS])
        if variant != "officers":
            assert cards_w == cards_s
        changed += any(world[ST_HAND + q] != st[ST_HAND + q] for q in range(n)) or \
            not np.array_equal(world, st)
    assert changed > 20


def test_pimc_plays_reproducibly_without_using_the_game_stream():
    rules = GAME.build_rules()
    eng = GAME.engine(rules)
    r = rules_array(rules)
    pos = np.zeros((3, STATE_SIZE), np.int64)
    late_positions(r, 8, 3, 3, pos)
    for st in pos:
        a = st.copy()
        b = st.copy()
        x = eng.choose("pimc:worlds=3", a)
        y = eng.choose("pimc:worlds=3", b)
        assert x == y and x in eng.legal(st)
        assert a[ST_RNG] == st[ST_RNG]


def test_policy_names():
    assert policy_name(parse_policy("pimc")) == "pimc:worlds=8"
    assert policy_name(parse_policy("pimc:worlds=3")) == "pimc:worlds=3"
    rules = GAME.build_rules()
    names, ids = GAME.policy_ids(["pimc:worlds=2", "heuristic"] + ["random"] * 2, rules)
    assert names[0] == "pimc:worlds=2" and ids[1] == 1
    for bad in ("pimc:worlds=0", "pimc:depth=3", "pimc:worlds=x", "minimax"):
        with pytest.raises(RulesError):
            GAME.policy_ids([bad], rules)
    assert any(line.startswith("pimc[:worlds=N]") for line in GAME.policy_help())


def _contracts(assignments, games=1500):
    rules = GAME.build_rules(assignments=assignments)
    ids = GAME.policy_ids(["heuristic"], rules)[1]
    c = GAME.run_chunk(rules, ids, 5, 0, games)["deals"]["contract"]
    return np.bincount(c, minlength=4)


def test_heuristic_contracts_follow_the_tariff():
    """A dearer solo brings more solos (Lust and quiet), a dearer normal game fewer;
    the default tariff keeps the former thresholds."""
    from simcore.games.wendish.policies import solo_shift
    assert solo_shift(4, 1, 2, 1, 1) == 0.0 and solo_shift(3, 1, 2, 1, 1) == 0.0
    base = _contracts([])
    dear = _contracts(["solo_base=3"])
    cheap = _contracts(["base=3"])
    solos = lambda c: c[2] + c[3]            # noqa: E731  quiet_solo + solo
    assert solos(dear) > solos(base) > solos(cheap)
    # a solo that pays no more than a normal game is never worth it
    assert np.isinf(solo_shift(4, 10, 1, 0, 0))


@njit(cache=True)
def _rank_key_of(r, st, work):
    """The table key the solver gives trick start ``st``."""
    _load_search_root(r, st, work)
    return _rank_key(work[0], work[CONST], hands_in_play(work[0]))


def _relabel(st, deck, rng, points=True, called=True, holders=True):
    """``st`` with the cards still in play replaced by other cards of the deck such that
    what the table key keeps is kept: inside each group of cards that follow alike,
    the order of the cards in play and (unless told not to) each one's holder (else
    the hands are dealt again, sizes kept), the card points and the called card
    (mapped along; else it stays with the card id).  None if nothing changed."""
    t = int(st[ST_TRUMP])
    n = int(st[ST_N])
    alive = 0
    for q in range(n):
        alive |= int(st[ST_HAND + q])
    mapping = {}
    order = [int(c) for c in CLASS_ORDER[t, :32]]
    groups = [int(g) for g in CLASS_ORDER[t, 32:]]
    for g in sorted(set(groups)):
        # a called card out of play stays out: it would be the called card again
        cbit = int(st[ST_CBIT])
        cards = [c for c, gg in zip(order, groups) if gg == g and deck >> c & 1
                 and (alive >> c & 1 or not cbit >> c & 1)]
        olds = [c for c in cards if alive >> c & 1]
        pts = [int(CARD_POINTS[c]) if points else 0 for c in cards]
        want = [int(CARD_POINTS[c]) if points else 0 for c in olds]
        # feasible[r][j]: olds[r:] can be placed at increasing places from j on
        m, L = len(olds), len(cards)
        feasible = [[False] * (L + 1) for _ in range(m + 1)]
        for j in range(L + 1):
            feasible[m][j] = True
        for r_ in range(m - 1, -1, -1):
            for j in range(L - 1, -1, -1):
                feasible[r_][j] = feasible[r_][j + 1] or (
                    pts[j] == want[r_] and feasible[r_ + 1][j + 1])
        j = 0
        for r_ in range(m):
            choices = [x for x in range(j, L) if pts[x] == want[r_] and feasible[r_ + 1][x + 1]]
            x = choices[int(rng.integers(len(choices)))]
            mapping[olds[r_]] = cards[x]
            j = x + 1
    out = st.copy()
    for q in range(n):
        h = int(st[ST_HAND + q])
        out[ST_HAND + q] = sum(1 << mapping[c] for c in range(32) if h >> c & 1)
    if not holders:
        cards = [c for q in range(n) for c in range(32) if int(out[ST_HAND + q]) >> c & 1]
        sizes = [bin(int(out[ST_HAND + q])).count("1") for q in range(n)]
        rng.shuffle(cards)
        for q in range(n):
            out[ST_HAND + q] = sum(1 << c for c in cards[sum(sizes[:q]):sum(sizes[:q + 1])])
    if np.array_equal(out[ST_HAND:ST_HAND + n], st[ST_HAND:ST_HAND + n]):
        return None
    if called and int(st[ST_CBIT]) & alive:
        c = int(st[ST_CBIT]).bit_length() - 1
        out[ST_CBIT] = 1 << mapping[c]
        out[ST_CALLED] = mapping[c]
    return out


@pytest.mark.parametrize("variant,max_left", [("four", 2), ("three", 3), ("three_sharp", 3)])
def test_table_key_equal_means_value_equal(variant, max_left):
    """The table's key drops which cards earlier tricks took: trick starts whose cards
    in play are replaced by others keeping each group's order, the holders, the card
    points and the called card get the same key, and plain minimax (the engine's own
    kernels) gives them the same value.  Replacements that may change the points and
    leave the called card behind or deal the hands again must change the key whenever
    they change the value (a key that lost the points, the called card or the holders
    shows here as two values under one key)."""
    rules = GAME.build_rules(assignments=[f"variant={variant}"])
    r = rules_array(rules)
    pos = np.zeros((3000, STATE_SIZE), np.int64)
    late_positions(r, 23, 3000, max_left, pos)
    deck = int(VARIANT_DECK[int(VARIANTS.index(variant))])
    rng = np.random.default_rng(5)
    work = new_work()
    checked = moved = 0
    for st in pos:
        if st[ST_TRICK_N] != 0 or st[ST_NTRICKS] - st[ST_TRICKS_DONE] < 2 or \
                not (st[ST_FIRST_TRICK] == 0 or st[ST_TEAMS_PUBLIC] != 0):
            continue
        if checked % 2:
            # half of them with a wedding's called card still in play (random play
            # leaves none this late): it must be played whenever it is legal
            st = st.copy()
            hands = [c for q in range(int(st[ST_N])) for c in range(32)
                     if int(st[ST_HAND + q]) >> c & 1]
            c = hands[int(rng.integers(len(hands)))]
            st[ST_CALLED] = c
            st[ST_CBIT] = 1 << c
        other = _relabel(st, deck, rng)
        if other is None:
            continue
        value = minimax(r, st, work)
        key = _rank_key_of(r, st, work)
        assert key == _rank_key_of(r, other, work)
        assert value == minimax(r, other, work)
        for loose in (_relabel(st, deck, rng, points=False),
                      _relabel(st, deck, rng, called=False),
                      _relabel(st, deck, rng, holders=False)):
            if loose is None:
                continue
            v2 = minimax(r, loose, work)
            if key == _rank_key_of(r, loose, work):
                assert v2 == value
            else:
                moved += v2 != value
        checked += 1
        if checked == 150:
            break
    assert checked >= 100 and moved >= 10


@njit(cache=True)
def _compress_both(xs, ms, out):
    for i in range(xs.shape[0]):
        out[i, 0] = _compress_pext(xs[i], ms[i]) if HAS_BMI2 else _compress_loop(xs[i], ms[i])
        out[i, 1] = _compress_loop(xs[i], ms[i])


def test_compress_bits_is_pext():
    """``compress_bits`` (BMI2 ``pext`` where the CPU has it, a loop elsewhere) against
    the definition, on random and edge masks."""
    rng = np.random.default_rng(3)
    xs = rng.integers(0, 2**63, 500, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    ms = rng.integers(0, 2**63, 500, dtype=np.uint64) * np.uint64(3)
    xs[:3] = (0, 2**64 - 1, 5)
    ms[:3] = (2**64 - 1, 0, 2**64 - 1)
    out = np.zeros((500, 2), np.uint64)
    _compress_both(xs, ms, out)
    for x, m, (a, b) in zip(xs, ms, out):
        x, m = int(x), int(m)
        want = sum(1 << k for k, i in enumerate(i for i in range(64) if m >> i & 1) if x >> i & 1)
        assert int(a) == want and int(b) == want
