"""The Wendish Schafkopf game loop and the parallel batch kernel.

``play_game`` plays one whole game (``deals`` deals) from its own random stream
``game_stream(seed, index)``, so a game is the same whichever chunk or thread
plays it.  Per deal it writes one row of results (``D_*`` columns); with
``do_log`` it also writes the deal's start (``S_*``) and its actions, from which
records.py builds a record.  Everything is a bit mask or a small int array.
"""
import numpy as np
from numba import njit, prange

from ...bits import mask_ids, U0, U1, bounded, game_stream, kth_bit, lowest_bit, popcount, \
    shuffle_inplace
from .cards import BLACK_QUEENS, CARD_POINTS, FOLLOW_MASK, POWER, QC, QS, TRUMP_MASK, \
    V_OFFICERS, VARIANT_DECK, VARIANT_HAND, VARIANT_SKAT
from .policies import RANDOM, choose_discard, choose_lust, choose_old_ones, heuristic_card
from .rules import (R_BASE, R_DEADLINE, R_DEALS, R_LUST, R_PLAYERS, R_SCHNEIDER,
                    R_SCHNEIDER_BELOW, R_SCHWARZ, R_SOLO_BASE, R_SOLO_SUITS, R_VARIANT)

# contracts
NORMAL, WEDDING, QUIET_SOLO, SOLO = 0, 1, 2, 3
CONTRACTS = ("normal", "wedding", "quiet_solo", "solo")
# action verbs of the log
V_PICKUP, V_DISCARD, V_PASS, V_SOLO, V_WEDDING, V_QUIET, V_PLAY = range(7)
VERBS = ("pickup", "discard", "pass", "solo", "wedding", "quiet_solo", "play")
# per-deal result columns
(D_DEALER, D_CONTRACT, D_DECLARER, D_TRUMP, D_TEAM0, D_CP0, D_CP1, D_WINNER, D_SCHNEIDER,
 D_SCHWARZ, D_OLD_ONES, D_TRICKS0, D_CALLED, D_TAKER, D_SCORE) = range(15)
D_FIELDS = D_SCORE + 4
# per-deal start log: dealer, 4 hands (officers: face-up), skat, actions, officers'
# face-up order (2 x 8) and face-down order (2 x 8)
S_DEALER, S_HANDS, S_SKAT, S_NACT, S_UP, S_DOWN = 0, 1, 5, 6, 7, 23
S_FIELDS = 39
MAX_ACTIONS = 48

_VDECK = np.array(VARIANT_DECK, dtype=np.uint64)
_VHAND = np.array(VARIANT_HAND, dtype=np.int64)
_VSKAT = np.array(VARIANT_SKAT, dtype=np.int64)
_BQ = np.uint64(BLACK_QUEENS)
_UQC = np.uint64(1 << QC)
_UQS = np.uint64(1 << QS)


@njit(cache=True, inline="always")
def _holder(hands, n, bit):
    for p in range(n):
        if (hands[p] & bit) != U0:
            return p
    return -1


@njit(cache=True)
def knowledge(p, n, contract, declarer, hand, called, called_by, teams_public, team0,
              qc_by, qs_by):
    """What seat ``p`` knows of the sides: (friends, foes, declaring) as seat masks."""
    allm = np.uint64((1 << n) - 1)
    me = U1 << np.uint64(p)
    others = allm & ~me
    if teams_public or contract == SOLO or (contract == QUIET_SOLO and p == declarer):
        t0 = np.uint64(team0)
        if (t0 & me) != U0:
            return t0 & ~me, allm & ~t0, True
        return allm & ~t0 & ~me, t0, False
    dbit = U1 << np.uint64(declarer) if declarer >= 0 else U0
    if contract == WEDDING:
        if p == declarer:
            if called_by >= 0:
                f = U1 << np.uint64(called_by)
                return f, others & ~f, True
            return U0, U0, True
        if called >= 0 and (((hand >> np.uint64(called)) & U1) != U0 or called_by == p):
            return dbit, others & ~dbit, True
        foes = dbit
        if called_by >= 0:
            foes |= U1 << np.uint64(called_by)
            return others & ~foes, foes, False
        cand = others & ~dbit
        if called >= 0 and popcount(cand) == 1:
            foes |= cand
        return U0, foes, False
    # a normal game as the player sees it (a quiet solo looks like one to the others)
    has_c = (hand & _UQC) != U0 or qc_by == p
    has_s = (hand & _UQS) != U0 or qs_by == p
    if has_c or has_s:
        other = qs_by if has_c else qc_by
        if other >= 0:
            f = U1 << np.uint64(other)
            return f, others & ~f, True
        return U0, U0, True
    foes = U0
    if qc_by >= 0:
        foes |= U1 << np.uint64(qc_by)
    if qs_by >= 0:
        foes |= U1 << np.uint64(qs_by)
    if qc_by >= 0 and qs_by >= 0:
        return others & ~foes, foes, False
    return U0, foes, False


@njit(cache=True)
def deal_value(rules, contract, n, team0, cp0, tricks0, ntricks, officers):
    """(winner, schneider, schwarz, value, lone_mult0, lone_mult1) of a finished deal.

    winner is 0 or 1 (index into the teams), -1 for a drawn Officers' game."""
    if officers and cp0 == 60:
        return -1, False, False, 0
    win0 = cp0 >= 61
    lose_pts = 120 - cp0 if win0 else cp0
    lose_tricks = ntricks - tricks0 if win0 else tricks0
    schneider = lose_pts < rules[R_SCHNEIDER_BELOW]
    schwarz = lose_tricks == 0
    v = rules[R_SOLO_BASE] if (contract == SOLO or contract == QUIET_SOLO) else rules[R_BASE]
    if schneider:
        v += rules[R_SCHNEIDER]
    if schwarz:
        v += rules[R_SCHWARZ]
    return (0 if win0 else 1), schneider, schwarz, v


@njit(cache=True)
def seat_scores(n, team0, winner, value, out):
    """Score change per seat into ``out``: equal sides ±value each, a lone player
    ±n×value against n others who pay ∓value each."""
    size0 = 0
    for p in range(n):
        size0 += (team0 >> p) & 1
    size1 = n - size0
    for p in range(n):
        in0 = (team0 >> p) & 1
        if winner < 0:
            out[p] = 0
            continue
        sign = 1 if (in0 == 1) == (winner == 0) else -1
        own = size0 if in0 == 1 else size1
        other = size1 if in0 == 1 else size0
        mult = other if (own == 1 and other > 1) else 1
        out[p] = sign * mult * value


@njit(cache=True)
def play_game(rules, policies, seed, index, dout, slog, alog, do_log):
    """Play game ``index`` of run ``seed``: one row of ``dout`` per deal."""
    variant = rules[R_VARIANT]
    n = rules[R_PLAYERS]
    ndeals = rules[R_DEALS]
    officers = variant == V_OFFICERS
    hs = _VHAND[variant]
    skat_n = _VSKAT[variant]
    deck_mask = _VDECK[variant]
    lust = rules[R_LUST] != 0
    suits = rules[R_SOLO_SUITS]
    deadline = rules[R_DEADLINE]
    ntricks = hs
    state = game_stream(seed, index)
    state, dealer = bounded(state, n)

    deck = np.empty(32, dtype=np.int64)
    ndeck = mask_ids(deck_mask, deck)
    hands = np.zeros(4, dtype=np.uint64)
    tpts = np.zeros(4, dtype=np.int64)
    ntr = np.zeros(4, dtype=np.int64)
    under = np.full(16, -1, dtype=np.int64)
    slot_of = np.zeros(32, dtype=np.int64)
    scores = np.zeros(4, dtype=np.int64)

    for d in range(ndeals):
        state = shuffle_inplace(state, deck, ndeck)
        skat = U0
        if officers:
            for p in range(2):
                up = U0
                for i in range(8):
                    c = deck[16 * p + i]
                    up |= U1 << np.uint64(c)
                    slot_of[c] = 8 * p + i
                    under[8 * p + i] = deck[16 * p + 8 + i]
                hands[p] = up
        else:
            for p in range(n):
                hm = U0
                for i in range(hs):
                    hm |= U1 << np.uint64(deck[p * hs + i])
                hands[p] = hm
            for i in range(skat_n):
                skat |= U1 << np.uint64(deck[n * hs + i])
        forehand = dealer + 1
        if forehand >= n:
            forehand -= n
        nact = 0
        if do_log:
            slog[d, S_DEALER] = dealer
            for p in range(n):
                slog[d, S_HANDS + p] = np.int64(hands[p])
            slog[d, S_SKAT] = np.int64(skat)
            if officers:
                for i in range(16):
                    slog[d, S_UP + i] = deck[(i // 8) * 16 + (i % 8)]
                    slog[d, S_DOWN + i] = under[i]
        taker = -1
        discards = U0
        if skat_n > 0:
            taker = _holder(hands, n, _UQC)
            if taker < 0:
                taker = _holder(hands, n, _UQS)
            if taker < 0:
                taker = forehand
            if do_log:
                alog[d, nact, 0] = taker
                alog[d, nact, 1] = V_PICKUP
                alog[d, nact, 2] = -1
            nact += 1
            hands[taker] |= skat
            for k in range(2):
                state, c = choose_discard(policies[taker], state, hands[taker])
                hands[taker] ^= U1 << np.uint64(c)
                discards |= U1 << np.uint64(c)
                if do_log:
                    alog[d, nact, 0] = taker
                    alog[d, nact, 1] = V_DISCARD
                    alog[d, nact, 2] = c
                nact += 1
        contract = NORMAL
        declarer = -1
        trump = 3
        called = -1
        first_trick = False
        team0 = 0
        old_ones = 0
        if officers:
            team0 = 1 << forehand
        else:
            oo = -1
            for p in range(n):
                if (hands[p] & _BQ) == _BQ:
                    oo = p
            old_ones = 1 if oo >= 0 else 0
            if lust:
                for i in range(n):
                    p = forehand + i
                    if p >= n:
                        p -= n
                    state, s = choose_lust(policies[p], state, hands[p], suits, hs)
                    if do_log:
                        alog[d, nact, 0] = p
                        alog[d, nact, 1] = V_PASS if s < 0 else V_SOLO
                        alog[d, nact, 2] = s
                    nact += 1
                    if s >= 0:
                        contract = SOLO
                        declarer = p
                        trump = s
                        team0 = 1 << p
                        break
            if contract == NORMAL:
                if oo >= 0:
                    callable_mask = deck_mask & ~hands[oo] & ~discards
                    state, kind, card = choose_old_ones(policies[oo], state, hands[oo],
                                                        callable_mask, hs)
                    declarer = oo
                    team0 = 1 << oo
                    if kind == 0:
                        contract = QUIET_SOLO
                    else:
                        contract = WEDDING
                        if kind == 1:
                            called = card
                            team0 |= 1 << _holder(hands, n, U1 << np.uint64(card))
                        else:
                            first_trick = True
                    if do_log:
                        alog[d, nact, 0] = oo
                        alog[d, nact, 1] = V_QUIET if kind == 0 else V_WEDDING
                        alog[d, nact, 2] = card if kind == 1 else -1
                    nact += 1
                else:
                    team0 = (1 << _holder(hands, n, _UQC)) | (1 << _holder(hands, n, _UQS))
        # ----- the tricks
        tm = TRUMP_MASK[trump]
        cbit = U1 << np.uint64(called) if called >= 0 else U0
        leader = forehand
        played = U0
        qc_by = -1
        qs_by = -1
        called_by = -1
        teams_public = contract == SOLO or officers
        for p in range(n):
            tpts[p] = 0
            ntr[p] = 0
        for t in range(ntricks):
            fmask = U0
            elig = U0
            lead_card = -1
            win_card = -1
            win_seat = leader
            win_pow = -1
            trick_pts = 0
            p = leader
            for i in range(n):
                avail = hands[p]
                if i == 0:
                    legal = avail
                else:
                    f = avail & fmask
                    legal = f if f != U0 else avail
                if (legal & cbit) != U0:
                    legal = cbit
                if policies[p] == RANDOM:
                    state, k = bounded(state, popcount(legal))
                    card = kth_bit(legal, k)
                else:
                    friends, foes, declaring = knowledge(
                        p, n, contract, declarer, hands[p], called, called_by, teams_public,
                        team0, qc_by, qs_by)
                    rest = U0
                    q = p
                    for j in range(i + 1, n):
                        q += 1
                        if q >= n:
                            q -= n
                        rest |= U1 << np.uint64(q)
                    outside = deck_mask & ~played & ~hands[p]
                    if p == taker:
                        outside &= ~discards
                    card = heuristic_card(trump, legal, hands[p], outside, i, n, lead_card,
                                          win_card, win_seat, trick_pts, rest, friends, foes,
                                          declaring)
                bit = U1 << np.uint64(card)
                hands[p] ^= bit
                played |= bit
                if officers:
                    s = slot_of[card]
                    u = under[s]
                    if u >= 0:
                        hands[p] |= U1 << np.uint64(u)
                        slot_of[u] = s
                        under[s] = -1
                if do_log:
                    alog[d, nact, 0] = p
                    alog[d, nact, 1] = V_PLAY
                    alog[d, nact, 2] = card
                nact += 1
                trick_pts += CARD_POINTS[card]
                if i == 0:
                    lead_card = card
                    fmask = FOLLOW_MASK[trump, card]
                    elig = fmask | tm
                    win_card = card
                    win_seat = p
                    win_pow = POWER[trump, card]
                elif (bit & elig) != U0:
                    pw = POWER[trump, card]
                    if pw > win_pow:
                        win_pow = pw
                        win_card = card
                        win_seat = p
                if card == QC:
                    qc_by = p
                elif card == QS:
                    qs_by = p
                if card == called:
                    called_by = p
                p += 1
                if p >= n:
                    p = 0
            tpts[win_seat] += trick_pts
            ntr[win_seat] += 1
            leader = win_seat
            if first_trick and not teams_public:
                if win_seat != declarer:
                    team0 |= 1 << win_seat
                    teams_public = True
                elif t + 1 >= deadline:
                    teams_public = True
            elif contract == WEDDING and called_by >= 0:
                teams_public = True
        # ----- the score
        cp0 = 0
        tricks0 = 0
        for p in range(n):
            if (team0 >> p) & 1:
                cp0 += tpts[p]
                tricks0 += ntr[p]
        if taker >= 0 and (team0 >> taker) & 1:
            m = discards
            while m != U0:
                cp0 += CARD_POINTS[lowest_bit(m)]
                m &= m - U1
        winner, schneider, schwarz, value = deal_value(rules, contract, n, team0, cp0,
                                                       tricks0, ntricks, officers)
        row = dout[d]
        row[D_DEALER] = dealer
        row[D_CONTRACT] = contract
        row[D_DECLARER] = declarer
        row[D_TRUMP] = trump
        row[D_TEAM0] = team0
        row[D_CP0] = cp0
        row[D_CP1] = 120 - cp0
        row[D_WINNER] = winner
        row[D_SCHNEIDER] = schneider
        row[D_SCHWARZ] = schwarz
        row[D_OLD_ONES] = old_ones
        row[D_TRICKS0] = tricks0
        row[D_CALLED] = called if not first_trick else -2
        row[D_TAKER] = taker
        seat_scores(n, team0, winner, value, row[D_SCORE:D_SCORE + 4])
        for p in range(n):
            scores[p] += row[D_SCORE + p]
        if do_log:
            slog[d, S_NACT] = nact
        dealer += 1
        if dealer >= n:
            dealer = 0
    return ndeals


@njit(cache=True, parallel=True)
def play_batch(rules, policies, seed, start, count, dout):
    """Play games ``start .. start+count-1`` in parallel; ``dout`` has
    ``count * deals`` rows, game g's deals in rows ``g*deals ..``."""
    nd = rules[R_DEALS]
    for g in prange(count):
        slog = np.zeros((1, S_FIELDS), dtype=np.int64)
        alog = np.zeros((1, 1, 3), dtype=np.int16)
        play_game(rules, policies, seed, start + g, dout[g * nd:(g + 1) * nd], slog, alog,
                  False)


@njit(cache=True)
def play_logged(rules, policies, seed, index, dout, slog, alog):
    """One game with its per-deal start and action logs (for records)."""
    return play_game(rules, policies, seed, index, dout, slog, alog, True)
