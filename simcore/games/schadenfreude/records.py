"""Schadenfreude records: written in bulk from logged games, replayed on the engine.

Writing: ``play_batch`` (the batch run's kernel: rounds and results) and
``play_logged`` (play.py) play the games on the engine in parallel, the second
time logging every round; ``_texts`` (njit, parallel) writes each
record's JSON text exactly as ``json.dumps(record, separators=(",", ":"))``
would (``records_jsonl``), so a dict is one ``json.loads`` per game.

Replay: this module only turns JSON into action codes and back and checks the
record's shape; the rules are the engine's (``start_deal``, ``lead_candidates``,
``apply_checked``, the scores, the end of the game and its winner).
"""
from __future__ import annotations

import gc
import json

import numpy as np
from numba import njit, prange

from ...text import counted
from ...bits import U0, U1, lowest_bit
from ...records import check_common, parse_cards, require, require_same, scripted
from .cards import card_name, deck_mask, mask_cards, mask_of, parse_card
from .engine import (N_ACTIONS, S_BUST, S_PILE, S_POINTS, S_ROUND, S_SCORE, S_STATUS,
                     S_TO_MOVE, S_UNFINISHED, S_WINNER, STATE_SIZE, GAME_OVER, PLAYING,
                     apply_checked, init_game, lead_candidates, start_deal)
from .play import (L_ASIDE, L_HANDS, L_LEADER, L_PILES, L_POINTS, L_SCORES, LOG_WIDTH,
                   drive, play_batch, play_batch_search, play_logged, play_logged_rows,
                   play_rows, play_search_rows)
from .policies import uses_search
from .rules import RULEBOOK, rules_array

# ----- actions <-> record items -------------------------------------------------------

def action_to_item(seat: int, action: int) -> list:
    """The record item of ``action`` played by ``seat``: ``[seat, "play", card]``."""
    return [int(seat), "play", card_name(int(action))]


def item_to_action(item, deal=None, index=None) -> int:
    """The action code of a record item ``[seat, "play", card]`` (the seat is checked
    against the player to move by the caller); ReplayError if it is malformed."""
    require(isinstance(item, list) and len(item) == 3 and item[1] == "play",
            f"action {item!r} is not [seat, \"play\", card]", deal, index)
    return parse_cards([item[2]], parse_card, "the card played", deal, index)[0]


def describe(action: int) -> str:
    """``play 7H``."""
    return f"play {card_name(int(action))}"


def illegal_reason(code: int, seat: int, action: int) -> str:
    """Why ``apply_checked`` refused ``action`` (its code) for ``seat``."""
    if code == 1:
        return "an action after every card was played"
    if code == 2:
        return f"{action!r} is not an action (0..{N_ACTIONS - 1})"
    if code == 3:
        return f"seat {seat} does not hold {card_name(action)}"
    return (f"seat {seat} must follow the lead suit (or play a wild card) and may not "
            f"play {card_name(action)}")


# ----- writing records in bulk --------------------------------------------------------

def _b(text: str) -> np.ndarray:
    return np.frombuffer(text.encode(), dtype=np.uint8).copy()


# byte tables: a card's name in quotes then a comma ('"7H",'), and every action
# ('[2,"play","7H"]'), padded to fixed widths so that each is one fixed-size copy
_QNAME = np.zeros((50, 8), dtype=np.uint8)
_QNAME_LEN = np.zeros(50, dtype=np.int64)
_ACT = np.zeros((5 * 50, 16), dtype=np.uint8)
_ACT_LEN = np.zeros(5 * 50, dtype=np.int64)
for _c in range(50):
    _q = f'"{card_name(_c)}",'.encode()
    _QNAME[_c, :len(_q)] = list(_q)
    _QNAME_LEN[_c] = len(_q)
    for _s in range(5):
        _t = f'[{_s},"play","{card_name(_c)}"]'.encode()
        _ACT[_s * 50 + _c, :len(_t)] = list(_t)
        _ACT_LEN[_s * 50 + _c] = len(_t)

K_DEAL = _b('{"start":{"hands":[')
K_ASIDE = _b('],"aside":')
K_LEADER = _b(',"leader":')
K_SCORES = _b(',"scores":')
K_ACTIONS = _b('},"actions":[')
K_PILES = _b('],"end":{"piles":[')
K_POINTS = _b('],"points":')
K_END = _b('}}')
K_RESULT = _b('],"result":{"scores":')
K_WINNERS = _b(',"winners":')
K_BUST = _b(',"bust":')
K_UNFIN = _b(',"unfinished":')
K_TRUE = _b('true}}')
K_FALSE = _b('false}}')
SLACK = 16           # fixed-width copies may write this far past the text
TEXT_BLOCK = 16      # games per parallel task of ``_texts``


@njit(cache=True, inline="always")
def _put(buf, pos, k, w):
    if w:
        for i in range(len(k)):
            buf[pos + i] = k[i]
    return pos + len(k)


@njit(cache=True, inline="always")
def _put1(buf, pos, byte, w):
    if w:
        buf[pos] = byte
    return pos + 1


@njit(cache=True, inline="always")
def _put_int(buf, pos, v, w):
    if v < 0:
        pos = _put1(buf, pos, 45, w)  # '-'
        v = -v
    if v < 10:
        return _put1(buf, pos, 48 + v, w)
    digits = 1
    t = v
    while t >= 10:
        t //= 10
        digits += 1
    if w:
        for i in range(digits - 1, -1, -1):
            buf[pos + i] = 48 + v % 10
            v //= 10
    return pos + digits


@njit(cache=True, inline="always")
def _put_cards(buf, pos, mask, qname, qname_len, w):
    """A JSON list of card names, lowest card id first."""
    pos = _put1(buf, pos, 91, w)  # '['
    m = np.uint64(mask)
    if m == U0:
        return _put1(buf, pos, 93, w)
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if w:
            for i in range(8):
                buf[pos + i] = qname[c, i]
        pos += qname_len[c]
    _put1(buf, pos - 1, 93, w)  # the last comma becomes ']'
    return pos


@njit(cache=True, inline="always")
def _put_ints(buf, pos, row, col, n, log, w):
    pos = _put1(buf, pos, 91, w)
    for p in range(n):
        pos = _put_int(buf, pos, log[row, col + p], w)
        pos = _put1(buf, pos, 44, w)
    _put1(buf, pos - 1, 93, w)
    return pos


@njit(cache=True)
def _emit_game(g, pos, n, nh, start, offsets, log, seats, cards, games, head, middle, qname,
               qname_len, act, act_len, buf, w):
    """Game ``g``'s record as JSON text at ``buf[pos:]`` (written only if ``w``); returns
    the position after its newline.  ``head`` is the text up to ``"index":``,
    ``middle`` the text from ``,"policies":`` to ``"deals":[``."""
    pos = _put(buf, pos, head, w)
    pos = _put_int(buf, pos, start + g, w)
    pos = _put(buf, pos, middle, w)
    for row in range(offsets[g], offsets[g + 1]):
        if row > offsets[g]:
            pos = _put1(buf, pos, 44, w)
        pos = _put(buf, pos, K_DEAL, w)
        for p in range(n):
            pos = _put_cards(buf, pos, log[row, L_HANDS + p], qname, qname_len, w)
            pos = _put1(buf, pos, 44, w)
        pos = _put(buf, pos - 1, K_ASIDE, w)
        pos = _put_cards(buf, pos, log[row, L_ASIDE], qname, qname_len, w)
        pos = _put(buf, pos, K_LEADER, w)
        pos = _put_int(buf, pos, log[row, L_LEADER], w)
        pos = _put(buf, pos, K_SCORES, w)
        if row == offsets[g]:
            pos = _put1(buf, pos, 91, w)
            for p in range(n):
                pos = _put1(buf, pos, 48, w)
                pos = _put1(buf, pos, 44, w)
            _put1(buf, pos - 1, 93, w)
        else:
            pos = _put_ints(buf, pos, row - 1, L_SCORES, n, log, w)
        pos = _put(buf, pos, K_ACTIONS, w)
        for k in range(nh):
            j = seats[row, k] * 50 + cards[row, k]
            if w:
                for i in range(16):
                    buf[pos + i] = act[j, i]
            pos += act_len[j]
            pos = _put1(buf, pos, 44, w)
        pos = _put(buf, pos - 1, K_PILES, w)
        for p in range(n):
            pos = _put_cards(buf, pos, log[row, L_PILES + p], qname, qname_len, w)
            pos = _put1(buf, pos, 44, w)
        pos = _put(buf, pos - 1, K_POINTS, w)
        pos = _put_ints(buf, pos, row, L_POINTS, n, log, w)
        pos = _put(buf, pos, K_SCORES, w)
        pos = _put_ints(buf, pos, row, L_SCORES, n, log, w)
        pos = _put(buf, pos, K_END, w)
    pos = _put(buf, pos, K_RESULT, w)
    pos = _put_ints(buf, pos, offsets[g + 1] - 1, L_SCORES, n, log, w)
    pos = _put(buf, pos, K_WINNERS, w)
    pos = _put1(buf, pos, 91, w)
    if games[g, 0] >= 0:
        pos = _put_int(buf, pos, games[g, 0], w)
    pos = _put1(buf, pos, 93, w)
    pos = _put(buf, pos, K_BUST, w)
    pos = _put1(buf, pos, 91, w)
    first = True
    for p in range(n):
        if games[g, 1] >> p & 1:
            if not first:
                pos = _put1(buf, pos, 44, w)
            first = False
            pos = _put_int(buf, pos, p, w)
    pos = _put1(buf, pos, 93, w)
    pos = _put(buf, pos, K_UNFIN, w)
    pos = _put(buf, pos, K_TRUE if games[g, 2] else K_FALSE, w)
    return _put1(buf, pos, 10, w)  # newline


@njit(cache=True, inline="always")
def _text_of(g, n, nh, start, offsets, log, seats, cards, games, head, middle, qname,
             qname_len, act, act_len, out, buf, write):
    """Game ``g``'s record text: with ``write``, written at ``buf[out[g]:]``; without,
    only its length, into ``out[g]`` (``_emit_game``, one compiled call for both ways:
    inlining it twice, once per flag, cost about 20 s of a cold compile and no speed)."""
    if write:
        _emit_game(g, out[g], n, nh, start, offsets, log, seats, cards, games, head, middle,
                   qname, qname_len, act, act_len, buf, True)
    else:
        out[g] = _emit_game(g, 0, n, nh, start, offsets, log, seats, cards, games, head,
                            middle, qname, qname_len, act, act_len, buf, False)


@njit(cache=True)
def _texts_rows(n, nh, start, lo, hi, offsets, log, seats, cards, games, head, middle,
                qname, qname_len, act, act_len, out, buf, write):
    """``_text_of`` for games ``lo .. hi-1`` on the calling thread: the lengths first
    (``write`` False, ``out``: the lengths), then the texts (``out``: the offsets)."""
    for g in range(lo, hi):
        _text_of(g, n, nh, start, offsets, log, seats, cards, games, head, middle, qname,
                 qname_len, act, act_len, out, buf, write)


@njit(cache=True, parallel=True)
def _texts(n, nh, start, count, offsets, log, seats, cards, games, head, middle, qname,
           qname_len, act, act_len, out, buf, write):
    """``_texts_rows`` for the ``count`` games, in parallel (blocks of TEXT_BLOCK games;
    the body is not inlined here: numba's parallel passes over it took minutes to
    compile)."""
    for b in prange((count + TEXT_BLOCK - 1) // TEXT_BLOCK):
        _texts_rows(n, nh, start, b * TEXT_BLOCK, min(count, (b + 1) * TEXT_BLOCK), offsets,
                    log, seats, cards, games, head, middle, qname, qname_len, act, act_len,
                    out, buf, write)


def records_jsonl(rules, policies, policy_ids, seed, start, count, script=None) -> bytes:
    """The records of games ``start .. start+count-1`` of run ``seed`` as JSON Lines
    (UTF-8 bytes, one record a line, each line ``json.dumps(record,
    separators=(",", ":"))``).  A numba player's run (``simcore.numba_players``) gives
    its part as a ``simcore.records.Script``: its seats, its logged actions
    (``simcore.records.scripted``) and the games' final states (their rounds and
    outcomes: the first pass)."""
    user, actions, finals = (None, None, None) if script is None else (
        script.user, script.actions, script.finals)
    r = rules_array(rules)
    ids = np.asarray(policy_ids, dtype=np.int64)
    n, h = rules["players"], rules["hand_size"]
    run = (r, ids, np.uint64(seed), start)
    if finals is None:
        rounds = np.zeros(count, dtype=np.int32)
        winner = np.zeros(count, dtype=np.int8)
        bust = np.zeros(count, dtype=np.uint8)
        unfinished = np.zeros(count, dtype=np.bool_)
        outs = (rounds, np.zeros((count, n), np.int32), winner, bust, unfinished,
                np.zeros(count, dtype=np.int8))
        if uses_search(ids):    # searching players: one game a thread, with the decisions
            drive(play_batch_search, play_search_rows, run, count, *outs,
                  np.zeros(count, dtype=np.int64))
        else:
            drive(play_batch, play_rows, run, count, *outs)
    else:
        rounds, winner = finals[:, S_ROUND], finals[:, S_WINNER]
        bust, unfinished = finals[:, S_BUST], finals[:, S_UNFINISHED] != 0
    offsets = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(rounds, out=offsets[1:])
    total = int(offsets[-1])
    log = np.zeros((total, LOG_WIDTH), dtype=np.int64)
    seats = np.zeros((total, n * h), dtype=np.int8)
    cards = np.zeros((total, n * h), dtype=np.int8)
    drive(play_logged, play_logged_rows, run[:2] + scripted(n, count, user, actions) + run[2:],
          count, offsets, log, seats, cards, np.uint64(deck_mask(rules["values"])))
    # C order whatever the count (a transposed stack is Fortran order: a second compile)
    games = np.stack([winner, bust, unfinished], axis=1).astype(np.int64)
    sep = (",", ":")
    head = _b('{"game":"schadenfreude","rules":' + json.dumps(rules.to_dict(), separators=sep)
              + f',"seed":{int(seed)},"index":')
    middle = _b(',"policies":' + json.dumps(list(policies), separators=sep) + ',"deals":[')
    args = (offsets, log, seats, cards, games, head, middle, _QNAME, _QNAME_LEN, _ACT,
            _ACT_LEN)
    text_len = np.zeros(count, dtype=np.int64)
    drive(_texts, _texts_rows, (n, n * h, start), count, *args, text_len,
          np.empty(0, dtype=np.uint8), False)
    text_off = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(text_len, out=text_off[1:])
    buf = np.empty(int(text_off[-1]) + SLACK, dtype=np.uint8)
    drive(_texts, _texts_rows, (n, n * h, start), count, *args, text_off, buf, True)
    return buf[:int(text_off[-1])].tobytes()


def build_records(rules, policies, policy_ids, seed, start, count) -> list[dict]:
    """The records (dicts) of games ``start .. start+count-1`` of run ``seed``."""
    text = records_jsonl(rules, policies, policy_ids, seed, start, count).decode()
    gc_was = gc.isenabled()
    gc.disable()     # json.loads makes many small lists and no cycles
    try:
        return [json.loads(line) for line in text.splitlines()]
    finally:
        if gc_was:
            gc.enable()


# ----- replay on the engine -----------------------------------------------------------

def _names(mask):
    return [card_name(c) for c in mask_cards(mask)]


def _cards(value, what, deal, action=None):
    return parse_cards(value, parse_card, what, deal, action)


def check_start(start, d, rules) -> tuple[np.ndarray, int]:
    """The deck order (hands seat by seat, then the aside cards) and leader of a
    record's round start, after checking its shape and that it is exactly the deck
    of these rules; the scores and leader are the caller's (engine) checks."""
    n, h = rules["players"], rules["hand_size"]
    require(isinstance(start, dict), "'start' must be an object", d)
    for key in ("hands", "aside", "leader", "scores"):
        require(key in start, f"start is missing '{key}'", d)
    require(isinstance(start["hands"], list) and len(start["hands"]) == n,
            f"start.hands must hold {n} hands", d)
    hands = [_cards(hd, f"start.hands[{p}]", d) for p, hd in enumerate(start["hands"])]
    aside = _cards(start["aside"], "start.aside", d)
    seen = [c for hd in hands for c in hd] + aside
    require(len(seen) == len(set(seen)), "a card is dealt twice", d)
    for p, hd in enumerate(hands):
        require(len(hd) == h, f"seat {p} holds {counted(len(hd), 'card')}; the rules deal {h}", d)
    deck = deck_mask(rules["values"])
    require(mask_of(seen) == deck and len(seen) == bin(deck).count("1"),
            "the hands and the aside cards are not exactly the deck of these rules", d)
    return np.array(seen, dtype=np.int64), start["leader"]


def start_round(r, st, start, d, rules):
    """Check a record's round start against the state (scores, allowed leader) and
    start it on the engine."""
    order, leader = check_start(start, d, rules)
    n = rules["players"]
    cum = [int(x) for x in st[S_SCORE:S_SCORE + n]]
    require_same(start["scores"], cum, "start.scores", d)   # the scores after the last round
    allowed = int(lead_candidates(r, st))
    seats = [p for p in range(n) if allowed >> p & 1]
    require(type(leader) is int and leader in seats,
            f"leader {leader!r} is not allowed here; allowed: {seats}", d)
    start_deal(r, st, order, leader)


def play_item(r, st, item, d, a):
    """Check one record action against the engine and apply it."""
    require(isinstance(item, list) and len(item) == 3 and item[1] == "play",
            f"action {item!r} is not [seat, \"play\", card]", d, a)
    require(int(st[S_STATUS]) == PLAYING, "an action after every card was played", d, a)
    seat = int(st[S_TO_MOVE])
    require(type(item[0]) is int and item[0] == seat,
            f"it is seat {seat}'s turn, not seat {item[0]!r}'s", d, a)
    action = item_to_action(item, d, a)
    code = apply_checked(r, st, action)
    require(code == 0, illegal_reason(code, seat, action), d, a)


def check_end(st, end, d, n):
    """A record's round end against the engine's."""
    require(isinstance(end, dict), "'end' must be an object", d)
    piles = end.get("piles")
    require(isinstance(piles, list) and len(piles) == n, f"end.piles must hold {n} piles", d)
    for p in range(n):
        want = int(st[S_PILE + p])
        got = mask_of(_cards(piles[p], f"end.piles[{p}]", d))
        require(got == want and len(piles[p]) == bin(got).count("1"),
                f"end.piles[{p}] is {piles[p]}; the rules give {_names(want)}", d)
    points = [int(x) for x in st[S_POINTS:S_POINTS + n]]
    scores = [int(x) for x in st[S_SCORE:S_SCORE + n]]
    require_same(end, {"points": points, "scores": scores}, "end", d)


def result_of(st, n) -> dict:
    """The record's ``result`` of a finished game."""
    w = int(st[S_WINNER])
    bust = int(st[S_BUST])
    return {"scores": [int(x) for x in st[S_SCORE:S_SCORE + n]],
            "winners": [] if w < 0 else [w],
            "bust": [p for p in range(n) if bust >> p & 1],
            "unfinished": bool(st[S_UNFINISHED])}


def replay_record(record) -> np.ndarray:
    """Check a Schadenfreude record action by action on the engine (records
    contract); returns the final state."""
    require(isinstance(record, dict), "a record must be a JSON object")
    rules = RULEBOOK.from_dict(record.get("rules"), strict=True)
    n = rules["players"]
    check_common(record, n)
    r = rules_array(rules)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    init_game(r, st, np.uint64(record["seed"] % 2**64), record["index"] % 2**63)
    deals = record["deals"]
    require(len(deals) <= rules["max_rounds"], f"{counted(len(deals), 'round')} exceed max_rounds "
            f"{rules['max_rounds']}")
    for d, deal in enumerate(deals):
        require(isinstance(deal, dict) and all(k in deal for k in ("start", "actions", "end")),
                "a deal needs 'start', 'actions' and 'end'", d)
        start_round(r, st, deal["start"], d, rules)
        actions = deal["actions"]
        require(isinstance(actions, list), "'actions' must be a list", d)
        for a, item in enumerate(actions):
            play_item(r, st, item, d, a)
        require(int(st[S_STATUS]) != PLAYING, "the round ends before every card was played", d)
        check_end(st, deal["end"], d, n)
        last = d == len(deals) - 1
        if int(st[S_STATUS]) == GAME_OVER:
            if st[S_UNFINISHED]:
                require(last, "the game should have ended (max_rounds)", d)
            else:
                require(last, "the game should have ended after this round (someone is "
                        "over the limit)", d)
        else:
            require(not last, "the game ends while nobody is over the limit", d)
    res = dict(record["result"])
    for key in ("winners", "bust"):          # seat lists in any order
        if isinstance(res.get(key), list) and all(type(p) is int for p in res[key]):
            res[key] = sorted(res[key])
    require_same(res, result_of(st, n), "result")
    return st
