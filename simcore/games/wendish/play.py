"""The Wendish Schafkopf batch loops: the engine's kernels plus the policies.

A game is ``init_game``, then until it is over: a deal that is over writes its
row of results (``D_*`` columns) and the next deal is dealt; otherwise the seat to
move chooses and the action is applied.  Every game plays from its own stream
``game_stream(seed, index)``, so a game is the same whichever chunk or thread
plays it.  ``play_batch`` fills the result rows; ``play_logged`` also logs each
deal's start and actions, from which records.py builds records.
"""
import numpy as np
from numba import njit, prange

from .engine import (STATE_SIZE, ST_CONTRACT, ST_CP0, ST_DEALER, ST_DECK,
                     ST_DECLARER, ST_DELTA, ST_N, ST_OLD_ONES, ST_SCHNEIDER, ST_SCHWARZ,
                     ST_TAKER, ST_TEAM0, ST_TO_MOVE, ST_TRICKS0, ST_TRUMP, ST_WINNER,
                     apply_action, called_column, deal_over, game_over, init_game,
                     next_deal_into)
from .pimc import PIMC, choose_w, searches
from .rules import R_DEALS
from .solver import W_COLS, new_work_rows

# per-deal result columns
(D_DEALER, D_CONTRACT, D_DECLARER, D_TRUMP, D_TEAM0, D_CP0, D_CP1, D_WINNER, D_SCHNEIDER,
 D_SCHWARZ, D_OLD_ONES, D_TRICKS0, D_CALLED, D_TAKER, D_SCORE) = range(15)
D_FIELDS = D_SCORE + 4
# per-deal start log: dealer, the card order (4 words as ST_DECK), number of actions
L_DEALER, L_DECK, L_NACT = 0, 1, 5
L_FIELDS = 6
#: most actions in one deal (pickup, 2 discards, 4 Lust Solo calls, the Old Ones,
#: 32 cards)
MAX_ACTIONS = 40
#: an action's log entry is ``seat << LOG_SHIFT | code``
LOG_SHIFT = 8


@njit(cache=True, inline="always")
def write_row(st, row):
    """The deals table's row of a finished deal."""
    row[D_DEALER] = st[ST_DEALER]
    row[D_CONTRACT] = st[ST_CONTRACT]
    row[D_DECLARER] = st[ST_DECLARER]
    row[D_TRUMP] = st[ST_TRUMP]
    row[D_TEAM0] = st[ST_TEAM0]
    row[D_CP0] = st[ST_CP0]
    row[D_CP1] = 120 - st[ST_CP0]
    row[D_WINNER] = st[ST_WINNER]
    row[D_SCHNEIDER] = st[ST_SCHNEIDER]
    row[D_SCHWARZ] = st[ST_SCHWARZ]
    row[D_OLD_ONES] = 1 if st[ST_OLD_ONES] >= 0 else 0
    row[D_TRICKS0] = st[ST_TRICKS0]
    row[D_CALLED] = called_column(st)
    row[D_TAKER] = st[ST_TAKER]
    n = st[ST_N]
    for p in range(4):
        row[D_SCORE + p] = st[ST_DELTA + p] if p < n else 0


@njit(cache=True, inline="always")
def _log_start(st, slog):
    slog[L_DEALER] = st[ST_DEALER]
    for w in range(4):
        slog[L_DECK + w] = st[ST_DECK + w]


# Not inlined: play_batch, play_logged and play_aggregate each inlined a whole game, and
# numba compiled (and optimised) the game three times over; one call per game costs
# nothing measurable, and a cold cache compiles the Wendish kernels in about 40% less time.
@njit(cache=True)
def play_game(r, policies, user, script, seed, index, dout, st, deck, slog, alog, do_log,
              work, sdec):
    """Play game ``index`` of run ``seed``: one row of ``dout`` per deal; with
    ``do_log`` each deal's start into ``slog[d]`` and its actions into ``alog[d]``.
    ``st``, ``deck``: scratch (a state, 32 ints); ``work``: the solver's scratch space
    (one row when nobody searches); ``sdec[0]`` counts the searching players'
    decisions.  The seats with ``user[p]`` (a numba player's) play the actions of
    ``script`` in turn (its every decision, as the players' batch loop logged them)."""
    init_game(r, st, seed, index)
    d = 0
    nact = 0
    k = 0
    if do_log:
        _log_start(st, slog[0])
    while True:
        if deal_over(st):
            write_row(st, dout[d])
            if do_log:
                slog[d, L_NACT] = nact
            if game_over(st):
                break
            next_deal_into(r, st, deck)
            d += 1
            nact = 0
            if do_log:
                _log_start(st, slog[d])
        else:
            p = st[ST_TO_MOVE]
            if user[p]:
                a = np.int64(script[k])
                k += 1
            else:
                pid = policies[p]
                if pid & 7 == PIMC:
                    sdec[0] += 1
                a = choose_w(r, st, pid, work)
            if do_log:
                alog[d, nact] = (p << LOG_SHIFT) | a
                nact += 1
            apply_action(r, st, a)
    return d + 1


@njit(cache=True, inline="always")
def searching(policies):
    """Whether any player searches (``pimc``, ``expert``)."""
    search = False
    for p in range(len(policies)):
        search |= searches(policies[p])
    return search


@njit(cache=True, inline="always")
def _one_game(rules, policies, user, script, seed, index, dout, slog, alog, logged, search,
              sdec):
    """Game ``index`` on its own state, deck and search space (``play_game``): the
    body of ``play_batch`` and ``play_logged``, one game a task."""
    st = np.empty(STATE_SIZE, dtype=np.int64)
    deck = np.empty(32, dtype=np.int64)
    work = np.zeros((new_work_rows(search), W_COLS), dtype=np.int64)
    # bool(): a plain bool, not the caller's literal True/False, so that numba compiles
    # play_game once for both callers (a literal argument is a specialization of its own)
    play_game(rules, policies, user, script, seed, index, dout, st, deck, slog, alog,
              bool(logged), work, sdec)


@njit(cache=True, parallel=True, nogil=True)
def play_batch(rules, policies, seed, start, count, dout, sdec):
    """Play games ``start .. start+count-1`` in parallel; ``dout`` has
    ``count * deals`` rows, game g's deals in rows ``g*deals ..``; ``sdec[g]``: the
    searching players' decisions in game g."""
    nd = rules[R_DEALS]
    search = searching(policies)
    user = np.zeros(len(policies), dtype=np.bool_)     # no numba player's seat: read only
    script = np.zeros(0, dtype=np.int16)
    for g in prange(count):
        _one_game(rules, policies, user, script, seed, start + g, dout[g * nd:(g + 1) * nd],
                  np.zeros((1, L_FIELDS), dtype=np.int64), np.zeros((1, 1), dtype=np.int16),
                  False, search, sdec[g:g + 1])


@njit(cache=True, parallel=True)
def play_logged(rules, policies, user, script, seed, start, count, dout, slog, alog):
    """``play_batch`` that also logs every deal: ``slog[g, d]`` its start (``L_*``),
    ``alog[g, d, k]`` its k-th action as ``seat << LOG_SHIFT | code`` (``user``,
    ``script``: see ``play_game``; game ``g`` plays ``script[g]``)."""
    nd = rules[R_DEALS]
    search = searching(policies)
    for g in prange(count):
        _one_game(rules, policies, user, script[g], seed, start + g,
                  dout[g * nd:(g + 1) * nd], slog[g], alog[g], True, search,
                  np.zeros(1, dtype=np.int64))


# --summary-only: the chunk's aggregates summed inside the kernel, one int64
# accumulator row per block of games, summed over blocks by game.py.  Game-wide sums,
# then per-seat groups (4 columns each, in SEAT_SUMS order), then per-contract groups
# (N_CONTRACTS columns each, in CONTRACT_SUMS order).
AGG_BLOCK = 32
A_OLD_ONES, A_DRAWS = range(2)
A_SEATS = 2
SEAT_SUMS = ("game_score", "game_score_sq", "deal_score", "deal_score_sq", "deal_wins",
             "old_side_deals", "old_side_wins", "declarer_deals", "declarer_wins")
(P_GAME, P_GAME_SQ, P_DEAL, P_DEAL_SQ, P_WINS, P_OLD_DEALS, P_OLD_WINS, P_DECL_DEALS,
 P_DECL_WINS) = range(A_SEATS, A_SEATS + 4 * len(SEAT_SUMS), 4)
A_CONTRACTS = A_SEATS + 4 * len(SEAT_SUMS)
CONTRACT_SUMS = ("c_deals", "c_wins", "c_schneider", "c_schwarz", "c_cp", "c_cp_sq")


def agg_width(n_contracts) -> int:
    """Accumulator columns."""
    return A_CONTRACTS + len(CONTRACT_SUMS) * n_contracts


@njit(cache=True)
def _game_acc(r, policies, user, script, seed, index, dout, st, deck, slog, alog, gsum,
              normal, k, acc, work, sdec):
    """Play game ``index`` (its deal rows into ``dout``, as the table path writes them)
    and add its figures to ``acc`` (``user``, ``script``: no numba player's seat)."""
    nd = r[R_DEALS]
    play_game(r, policies, user, script, seed, index, dout, st, deck, slog, alog, bool(False),
              work, sdec)
    n = st[ST_N]
    for p in range(4):
        gsum[p] = 0
    for d in range(nd):
        row = dout[d]
        contract = row[D_CONTRACT]
        winner = row[D_WINNER]
        team0 = row[D_TEAM0]
        declarer = row[D_DECLARER]
        if row[D_OLD_ONES] != 0:
            acc[A_OLD_ONES] += row[D_OLD_ONES]
        if winner < 0:
            acc[A_DRAWS] += 1
        for p in range(n):
            s = row[D_SCORE + p]
            gsum[p] += s
            acc[P_DEAL + p] += s
            acc[P_DEAL_SQ + p] += s * s
            in0 = (team0 >> p) & 1
            if (winner == 0 and in0 == 1) or (winner == 1 and in0 == 0):
                acc[P_WINS + p] += 1
            if in0 == 1 and contract == normal:
                acc[P_OLD_DEALS + p] += 1
                if winner == 0:
                    acc[P_OLD_WINS + p] += 1
            if declarer == p:
                acc[P_DECL_DEALS + p] += 1
                if winner == 0:
                    acc[P_DECL_WINS + p] += 1
        if 0 <= contract < k:
            cp = row[D_CP0]
            acc[A_CONTRACTS + contract] += 1
            if winner == 0:
                acc[A_CONTRACTS + k + contract] += 1
            if row[D_SCHNEIDER] != 0:
                acc[A_CONTRACTS + 2 * k + contract] += 1
            if row[D_SCHWARZ] != 0:
                acc[A_CONTRACTS + 3 * k + contract] += 1
            acc[A_CONTRACTS + 4 * k + contract] += cp
            acc[A_CONTRACTS + 5 * k + contract] += cp * cp
    for p in range(n):
        acc[P_GAME + p] += gsum[p]
        acc[P_GAME_SQ + p] += gsum[p] * gsum[p]


@njit(cache=True, parallel=True)
def play_aggregate(rules, policies, seed, start, count, normal, n_contracts, acc):
    """Play games ``start .. start+count-1`` in parallel, block ``b`` of AGG_BLOCK games
    summing into ``acc[b]`` (zeros on entry); ``normal``: the normal game's contract
    code, ``n_contracts``: how many contracts there are (game.py sends searching
    players to the table path; they work here too)."""
    nd = rules[R_DEALS]
    search = searching(policies)
    # no numba player's script here (read-only, shared); made outside the prange loop:
    # numba 0.68's parfor lowering mistypes a zero-length array made inside it
    user = np.zeros(len(policies), dtype=np.bool_)
    script = np.zeros(0, dtype=np.int16)
    for b in prange((count + AGG_BLOCK - 1) // AGG_BLOCK):
        st = np.empty(STATE_SIZE, dtype=np.int64)
        deck = np.empty(32, dtype=np.int64)
        slog = np.zeros((1, L_FIELDS), dtype=np.int64)
        alog = np.zeros((1, 1), dtype=np.int16)
        dout = np.zeros((nd, D_FIELDS), dtype=np.int64)
        gsum = np.zeros(4, dtype=np.int64)
        local = np.zeros(acc.shape[1], dtype=np.int64)
        work = np.zeros((new_work_rows(search), W_COLS), dtype=np.int64)
        sdec = np.zeros(1, dtype=np.int64)
        for g in range(b * AGG_BLOCK, min(count, (b + 1) * AGG_BLOCK)):
            _game_acc(rules, policies, user, script, seed, start + g, dout, st, deck, slog,
                      alog, gsum, normal, n_contracts, local, work, sdec)
        acc[b, :] = local
