"""Schadenfreude records: written in bulk from logged games, replayed on the engine.

Writing: ``count_rounds`` and ``play_logged`` (play.py) play the games on the
engine in parallel and log every round; ``_emit`` (njit, parallel) writes each
record's JSON text exactly as ``json.dumps(record, separators=(",", ":"))``
would, so ``records`` is one ``json.loads`` per game.

Replay: this module only turns JSON into action codes and back and checks the
record's shape; the rules are the engine's (``start_deal``, ``lead_candidates``,
``apply_checked``, the scores, the end of the game and its winner).
"""
from __future__ import annotations

import json

import numpy as np
from numba import njit, prange

from ...bits import U0, U1, lowest_bit
from ...records import check_common, fail, parse_cards, require
from .cards import card_name, deck_mask, mask_cards, mask_of, parse_card
from .engine import (N_ACTIONS, S_BUST, S_PILE, S_POINTS, S_ROUND, S_SCORE, S_STATUS,
                     S_TO_MOVE, S_UNFINISHED, S_WINNER, STATE_SIZE, GAME_OVER, PLAYING,
                     apply_checked, init_game, lead_candidates, legal_cards, start_deal)
from .play import (L_ASIDE, L_HANDS, L_LEADER, L_PILES, L_POINTS, L_SCORES, LOG_WIDTH,
                   count_rounds, play_logged)
from .rules import RULEBOOK, rules_array

VERBS = ("play",)


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


_NAMES = np.zeros((50, 3), dtype=np.uint8)
_NAME_LEN = np.zeros(50, dtype=np.int64)
for _c in range(50):
    _nm = card_name(_c).encode()
    _NAMES[_c, :len(_nm)] = list(_nm)
    _NAME_LEN[_c] = len(_nm)

K_DEAL = _b('{"start":{"hands":[')
K_ASIDE = _b('],"aside":')
K_LEADER = _b(',"leader":')
K_SCORES = _b(',"scores":')
K_ACTIONS = _b('},"actions":[')
K_PLAY = _b(',"play",')
K_PILES = _b('],"end":{"piles":[')
K_POINTS = _b('],"points":')
K_END = _b('}}')
K_RESULT = _b('],"result":{"scores":')
K_WINNERS = _b(',"winners":')
K_BUST = _b(',"bust":')
K_UNFIN = _b(',"unfinished":')
K_TRUE = _b('true}}')
K_FALSE = _b('false}}')
ROUND_BYTES = 2200   # a round's text is shorter than this (50 cards at most)


@njit(cache=True, inline="always")
def _put(buf, pos, k):
    for i in range(len(k)):
        buf[pos + i] = k[i]
    return pos + len(k)


@njit(cache=True, inline="always")
def _put_int(buf, pos, v):
    if v < 0:
        buf[pos] = 45  # '-'
        pos += 1
        v = -v
    digits = 1
    t = v
    while t >= 10:
        t //= 10
        digits += 1
    for i in range(digits - 1, -1, -1):
        buf[pos + i] = 48 + v % 10
        v //= 10
    return pos + digits


@njit(cache=True, inline="always")
def _put_cards(buf, pos, mask, names, name_len):
    """A JSON list of card names, lowest card id first."""
    buf[pos] = 91  # '['
    pos += 1
    m = np.uint64(mask)
    first = True
    while m != U0:
        c = lowest_bit(m)
        m &= m - U1
        if not first:
            buf[pos] = 44  # ','
            pos += 1
        first = False
        buf[pos] = 34
        for i in range(name_len[c]):
            buf[pos + 1 + i] = names[c, i]
        buf[pos + 1 + name_len[c]] = 34
        pos += 2 + name_len[c]
    buf[pos] = 93  # ']'
    return pos + 1


@njit(cache=True, inline="always")
def _put_ints(buf, pos, row, col, n, log):
    buf[pos] = 91
    pos += 1
    for p in range(n):
        if p:
            buf[pos] = 44
            pos += 1
        pos = _put_int(buf, pos, log[row, col + p])
    buf[pos] = 93
    return pos + 1


@njit(cache=True, parallel=True)
def _emit(n, nh, start, offsets, log, seats, cards, games, heads, head_len, middle,
          names, name_len, text_off, buf, text_len):
    """Each game's record as JSON text into ``buf[text_off[g]:]``; its length to
    ``text_len[g]``.  ``heads`` holds the text up to ``"index":`` (``head_len``
    bytes), ``middle`` the text from ``,"policies":`` to ``"deals":[``."""
    for g in prange(len(offsets) - 1):
        pos = text_off[g]
        for i in range(head_len):
            buf[pos + i] = heads[i]
        pos = _put_int(buf, pos + head_len, start + g)
        pos = _put(buf, pos, middle)
        for row in range(offsets[g], offsets[g + 1]):
            if row > offsets[g]:
                buf[pos] = 44
                pos += 1
            pos = _put(buf, pos, K_DEAL)
            hands = U0
            for p in range(n):
                if p:
                    buf[pos] = 44
                    pos += 1
                pos = _put_cards(buf, pos, log[row, L_HANDS + p], names, name_len)
            pos = _put(buf, pos, K_ASIDE)
            pos = _put_cards(buf, pos, log[row, L_ASIDE], names, name_len)
            pos = _put(buf, pos, K_LEADER)
            pos = _put_int(buf, pos, log[row, L_LEADER])
            pos = _put(buf, pos, K_SCORES)
            if row == offsets[g]:
                buf[pos] = 91
                pos += 1
                for p in range(n):
                    if p:
                        buf[pos] = 44
                        pos += 1
                    buf[pos] = 48
                    pos += 1
                buf[pos] = 93
                pos += 1
            else:
                pos = _put_ints(buf, pos, row - 1, L_SCORES, n, log)
            pos = _put(buf, pos, K_ACTIONS)
            for k in range(nh):
                if k:
                    buf[pos] = 44
                    pos += 1
                buf[pos] = 91
                pos = _put_int(buf, pos + 1, seats[row, k])
                pos = _put(buf, pos, K_PLAY)
                c = cards[row, k]
                buf[pos] = 34
                for i in range(name_len[c]):
                    buf[pos + 1 + i] = names[c, i]
                buf[pos + 1 + name_len[c]] = 34
                buf[pos + 2 + name_len[c]] = 93
                pos += 3 + name_len[c]
            pos = _put(buf, pos, K_PILES)
            for p in range(n):
                if p:
                    buf[pos] = 44
                    pos += 1
                pos = _put_cards(buf, pos, log[row, L_PILES + p], names, name_len)
            pos = _put(buf, pos, K_POINTS)
            pos = _put_ints(buf, pos, row, L_POINTS, n, log)
            pos = _put(buf, pos, K_SCORES)
            pos = _put_ints(buf, pos, row, L_SCORES, n, log)
            pos = _put(buf, pos, K_END)
        pos = _put(buf, pos, K_RESULT)
        pos = _put_ints(buf, pos, offsets[g + 1] - 1, L_SCORES, n, log)
        pos = _put(buf, pos, K_WINNERS)
        buf[pos] = 91
        pos += 1
        if games[g, 0] >= 0:
            pos = _put_int(buf, pos, games[g, 0])
        buf[pos] = 93
        pos += 1
        pos = _put(buf, pos, K_BUST)
        buf[pos] = 91
        pos += 1
        first = True
        for p in range(n):
            if games[g, 1] >> p & 1:
                if not first:
                    buf[pos] = 44
                    pos += 1
                first = False
                pos = _put_int(buf, pos, p)
        buf[pos] = 93
        pos += 1
        pos = _put(buf, pos, K_UNFIN)
        pos = _put(buf, pos, K_TRUE if games[g, 2] else K_FALSE)
        text_len[g] = pos - text_off[g]


def records_text(rules, policies, policy_ids, seed, start, count) -> list[str]:
    """The records of games ``start .. start+count-1`` of run ``seed`` as JSON text,
    one string per game (``json.dumps(record, separators=(",", ":"))``)."""
    r = rules_array(rules)
    ids = np.asarray(policy_ids, dtype=np.int64)
    n, h = rules["players"], rules["hand_size"]
    rounds = np.zeros(count, dtype=np.int64)
    count_rounds(r, ids, np.uint64(seed), start, count, rounds)
    offsets = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(rounds, out=offsets[1:])
    total = int(offsets[-1])
    log = np.zeros((total, LOG_WIDTH), dtype=np.int64)
    seats = np.zeros((total, n * h), dtype=np.int8)
    cards = np.zeros((total, n * h), dtype=np.int8)
    games = np.zeros((count, 3), dtype=np.int64)
    play_logged(r, ids, np.uint64(seed), start, count, offsets, log, seats, cards,
                np.uint64(deck_mask(rules["values"])), games)
    sep = (",", ":")
    head = _b('{"game":"schadenfreude","rules":' + json.dumps(rules.to_dict(), separators=sep)
              + f',"seed":{int(seed)},"index":')
    middle = _b(',"policies":' + json.dumps(list(policies), separators=sep) + ',"deals":[')
    text_off = np.zeros(count + 1, dtype=np.int64)
    np.cumsum(rounds * ROUND_BYTES + 400, out=text_off[1:])
    buf = np.empty(int(text_off[-1]), dtype=np.uint8)
    text_len = np.zeros(count, dtype=np.int64)
    _emit(n, n * h, start, offsets, log, seats, cards, games, head, len(head), middle,
          _NAMES, _NAME_LEN, text_off, buf, text_len)
    raw = buf.tobytes()
    return [raw[o:o + k].decode() for o, k in zip(text_off[:-1].tolist(), text_len.tolist())]


def build_records(rules, policies, policy_ids, seed, start, count) -> list[dict]:
    """The records (dicts) of games ``start .. start+count-1`` of run ``seed``."""
    return [json.loads(t) for t in records_text(rules, policies, policy_ids, seed, start,
                                                count)]


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
        require(len(hd) == h, f"seat {p} holds {len(hd)} cards; the rules deal {h}", d)
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
    require(start["scores"] == cum, f"start.scores {start['scores']} do not match the "
            f"scores after the previous round {cum}", d)
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
    require(end.get("points") == points, f"end.points is {end.get('points')}; the rules "
            f"give {points}", d)
    require(end.get("scores") == scores, f"end.scores is {end.get('scores')}; the rules "
            f"give {scores}", d)


def result_of(st, n) -> dict:
    """The record's ``result`` of a finished game."""
    w = int(st[S_WINNER])
    bust = int(st[S_BUST])
    return {"scores": [int(x) for x in st[S_SCORE:S_SCORE + n]],
            "winners": [] if w < 0 else [w],
            "bust": [p for p in range(n) if bust >> p & 1],
            "unfinished": bool(st[S_UNFINISHED])}


def replay_record(record, visit=None) -> np.ndarray:
    """Check a Schadenfreude record action by action on the engine (records
    contract); returns the final state.  ``visit(st, d, a)``, if given, is called
    before each action ``a`` of deal ``d`` and after each deal (``a`` = None)."""
    require(isinstance(record, dict), "a record must be a JSON object")
    rules = RULEBOOK.from_dict(record.get("rules"))
    n = rules["players"]
    check_common(record, n)
    r = rules_array(rules)
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    init_game(r, st, np.uint64(record["seed"] % 2**64), record["index"] % 2**63)
    deals = record["deals"]
    require(len(deals) <= rules["max_rounds"], f"{len(deals)} rounds exceed max_rounds "
            f"{rules['max_rounds']}")
    for d, deal in enumerate(deals):
        require(isinstance(deal, dict) and all(k in deal for k in ("start", "actions", "end")),
                "a deal needs 'start', 'actions' and 'end'", d)
        start_round(r, st, deal["start"], d, rules)
        actions = deal["actions"]
        require(isinstance(actions, list), "'actions' must be a list", d)
        for a, item in enumerate(actions):
            if visit is not None:
                visit(st, d, a)
            play_item(r, st, item, d, a)
        require(int(st[S_STATUS]) != PLAYING, "the round ends before every card was played", d)
        check_end(st, deal["end"], d, n)
        if visit is not None:
            visit(st, d, None)
        last = d == len(deals) - 1
        if int(st[S_STATUS]) == GAME_OVER:
            if st[S_UNFINISHED]:
                require(last, "the game should have ended (max_rounds)", d)
            else:
                require(last, "the game should have ended after this round (someone is "
                        "over the limit)", d)
        else:
            require(not last, "the game ends while nobody is over the limit", d)
    res = record["result"]
    expect = result_of(st, n)
    for key, value in expect.items():
        got = res.get(key)
        if key in ("winners", "bust") and isinstance(got, list):
            got = sorted(got)
        require(got == value, f"result.{key} is {res.get(key)!r}; the rules give {value!r}")
    return st
