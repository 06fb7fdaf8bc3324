"""Schnapsen records: JSON to action codes and back, records built in bulk, replay.

There are no rules here: records are written from the action logs of the batch
kernel (play.play_logged, then jsonl.encode_records) and replayed through the engine's kernels
(``start_deal``, ``apply_sequence``); only the explanation of an illegal action
(why_illegal) reads the state in Python to name the rule it breaks.
"""
from __future__ import annotations

import gc
import json

import numpy as np

from ...text import counted
from ...errors import TricksimError
from ...records import check_common, fail, require, require_same, scripted
from .cards import DECK_MASK, RANKS, SUITS, card_name, mask_of, parse_card, parse_suit
from .engine import (A_CLAIM, A_CLOSE, A_EXCHANGE, A_MARRIAGE, A_PASS, A_RESIGN, AFTER_LAST,
                     LEAD, N_STATE, OVER, REASONS, S_CLOSER, S_DEAL, S_DEALER, S_FIRST_DEALER,
                     S_GAME_POINTS, S_HAND, S_LEAD_CARD, S_MARRIED, S_MATCH, S_PHASE, S_REASON,
                     S_STEP, S_TALON, S_TALON_LEFT, S_TRICKS, S_TRUMP, S_TRUMP_CARD, S_WINNER,
                     T_EXCHANGED, T_MARRIED, T_START, VERBS, apply_action, apply_sequence,
                     counted as card_points, follow_mask, marriage_suits, start_deal,
                     to_move as k_to_move)
from .jsonl import record_lines
from .play import (BLOCK, LOG_START, MAX_DEAL_ACTIONS, N_DEAL_COLUMNS, play_logged,
                   play_logged_block)
from .rules import RULEBOOK, max_deals, rules_array

CARD_NAMES = [card_name(c) for c in range(20)]
# record names of the cards of each suit's 5-bit slice of a hand mask, in id order
_SLICE_NAMES = [[[RANKS[k] + SUITS[s] for k in range(5) if m >> k & 1] for m in range(32)]
                for s in range(4)]
# the record item of every action code per seat (pass has none)
_ITEMS = [[None] * (A_RESIGN + 1) for _ in range(2)]
for _p in range(2):
    for _c in range(20):
        _ITEMS[_p][_c] = (_p, "play", CARD_NAMES[_c])
    for _s in range(4):
        _ITEMS[_p][A_MARRIAGE + _s] = (_p, "marriage", SUITS[_s])
    for _a, _v in ((A_EXCHANGE, "exchange"), (A_CLOSE, "close"), (A_CLAIM, "claim"),
                   (A_RESIGN, "resign")):
        _ITEMS[_p][_a] = (_p, _v)
_VERB_CODES = {"exchange": A_EXCHANGE, "close": A_CLOSE, "claim": A_CLAIM,
               "resign": A_RESIGN}


def hand_names(mask: int) -> list[str]:
    """Record names of the cards of a mask, in card-id order."""
    mask = int(mask)
    return (_SLICE_NAMES[0][mask & 31] + _SLICE_NAMES[1][mask >> 5 & 31]
            + _SLICE_NAMES[2][mask >> 10 & 31] + _SLICE_NAMES[3][mask >> 15 & 31])


def talon_names(word: int, n: int = 9) -> list[str]:
    """Record names of the first ``n`` cards of a packed talon word, next drawn first."""
    word = int(word)
    return [CARD_NAMES[word >> (5 * i) & 31] for i in range(n)]


def pack_talon(cards) -> int:
    """A talon (card ids, next drawn first) as the engine's packed word."""
    w = 0
    for i, c in enumerate(cards):
        w |= int(c) << (5 * i)
    return w


def action_item(seat: int, code: int) -> list | None:
    """The record item of action ``code`` by ``seat`` (None for the implicit pass)."""
    item = _ITEMS[seat][code] if 0 <= code <= A_RESIGN else None
    return None if item is None else list(item)


def describe(code: int) -> str:
    """An action code in words, e.g. ``play QH``, ``marriage H``."""
    if code == A_PASS:
        return "pass (no claim after the last trick)"
    if not 0 <= code <= A_RESIGN:
        return f"no action (code {code})"
    item = _ITEMS[0][code]
    return " ".join(item[1:])


# ----- records from the batch kernel ---------------------------------------------------
def play_logged_arrays(rules, policy_ids, seed, start, count, user=None, script=None) -> tuple:
    """Matches ``start .. start+count-1`` of run ``seed`` played by the logging kernel:
    (deals, winner, match points left, deal rows, deal starts, actions).  ``user``,
    ``script``: the seats of a numba player and each match's actions of it, as the
    players' batch loop logged them (``simcore.numba_players``); none by default."""
    md = max_deals(rules)
    rows = np.zeros((count, md, N_DEAL_COLUMNS), np.int16)
    logs = np.zeros((count, md, LOG_START), np.int64)
    acts = np.zeros((count, md * MAX_DEAL_ACTIONS), np.int8)
    deals = np.zeros(count, np.int16)
    winner = np.zeros(count, np.int8)
    left = np.zeros((count, 2), np.int16)
    user, script = scripted(2, count, user, script)
    args = (rules_array(rules), np.asarray(policy_ids, np.int64), user, script,
            np.uint64(seed), start)
    if count <= BLOCK:   # a few matches: no threads to wake
        play_logged_block(*args, 0, count, rows, logs, acts, deals, winner, left)
    else:
        play_logged(*args, count, rows, logs, acts, deals, winner, left)
    return deals, winner, left, rows, logs, acts


def build_record_lines(rules, policies, policy_ids, seed, start, count, user=None,
                       script=None) -> bytes:
    """The records of matches ``start .. start+count-1`` as JSON Lines (UTF-8 bytes), each
    exactly ``json.dumps(record, separators=(",", ":"))`` and a newline (``user``,
    ``script``: see ``play_logged_arrays``)."""
    logged = play_logged_arrays(rules, policy_ids, seed, start, count, user, script)
    return record_lines(rules, policies, seed, start, logged)


def build_records(rules, policies, policy_ids, seed, start, count) -> list[dict]:
    """The records of matches ``start .. start+count-1`` of run ``seed`` as dicts."""
    lines = build_record_lines(rules, policies, policy_ids, seed, start, count)
    gc_was_on = gc.isenabled()
    gc.disable()    # many small acyclic containers: the cyclic collector would cost 4x
    try:
        return [json.loads(line) for line in lines.splitlines()]
    finally:
        if gc_was_on:
            gc.enable()


# ----- reading records ---------------------------------------------------------------------
def _card(value, what, deal, action=None):
    try:
        return parse_card(value)
    except TricksimError as exc:
        fail(f"{what}: {exc}", deal, action)


def _cards(value, what, n, deal):
    require(isinstance(value, list) and len(value) == n, f"{what} must be a list of {n} cards",
            deal)
    return [_card(c, what, deal) for c in value]


def parse_start(start, d, dealer_allowed):
    """(dealer, hand masks, trump card, packed talon) of a deal's ``start``, checked."""
    require(isinstance(start, dict), "'start' must be an object", d)
    for key in ("dealer", "hands", "trump_card", "talon"):
        require(key in start, f"start is missing '{key}'", d)
    dealer = start["dealer"]
    require(isinstance(dealer, int) and not isinstance(dealer, bool)
            and dealer in dealer_allowed,
            f"dealer {dealer!r} is not allowed here; allowed: {sorted(dealer_allowed)} "
            "(the deal alternates)", d)
    require(isinstance(start["hands"], list) and len(start["hands"]) == 2,
            "start.hands must hold 2 hands", d)
    hands = [_cards(h, f"start.hands[{p}]", 5, d) for p, h in enumerate(start["hands"])]
    trump_card = _card(start["trump_card"], "start.trump_card", d)
    talon = _cards(start["talon"], "start.talon", 9, d)
    seen = hands[0] + hands[1] + [trump_card] + talon
    require(len(set(seen)) == len(seen), "a card is dealt twice", d)
    require(mask_of(seen) == DECK_MASK, "the deal is not exactly the 20 cards", d)
    return dealer, mask_of(hands[0]), mask_of(hands[1]), trump_card, pack_talon(talon)


def parse_item(act, d=None, a=None):
    """(seat, verb, argument, action code) of a record item; ReplayError if malformed."""
    require(isinstance(act, list) and len(act) in (2, 3) and isinstance(act[0], int)
            and not isinstance(act[0], bool) and act[0] in (0, 1)
            and isinstance(act[1], str), f"action {act!r} is not [seat, verb] or "
            "[seat, verb, argument] with seat 0 or 1", d, a)
    seat, verb = act[0], act[1]
    require(verb in VERBS, f"unknown verb {verb!r}; verbs: {', '.join(VERBS)}", d, a)
    needs_arg = verb in ("play", "marriage")
    require(len(act) == (3 if needs_arg else 2),
            f"'{verb}' takes {'one argument' if needs_arg else 'no argument'}", d, a)
    if verb == "play":
        arg = _card(act[2], "the card played", d, a)
        return seat, verb, arg, arg
    if verb == "marriage":
        try:
            arg = parse_suit(act[2])
        except TricksimError as exc:
            fail(f"marriage: {exc}", d, a)
        return seat, verb, arg, A_MARRIAGE + arg
    return seat, verb, None, _VERB_CODES[verb]


def replay_deal(r, rules, st, deal, d, upto=None):
    """Replay deal ``d`` (its start already applied to ``st``) action by action through
    the kernels; at the first fault a ReplayError naming the action and the rule.  With
    ``upto`` stop after that many actions (then no end check)."""
    actions = deal["actions"]
    require(isinstance(actions, list), "'actions' must be a list", d)
    n = len(actions) if upto is None else min(upto, len(actions))
    seats = np.zeros(n, np.int64)
    codes = np.zeros(n, np.int64)
    parsed = []
    bad = None
    for a in range(n):
        try:
            seat, verb, arg, code = parse_item(actions[a], d, a)
        except TricksimError as exc:
            bad = exc
            break
        seats[a] = seat
        codes[a] = code
        parsed.append((seat, verb, arg))
    k = len(parsed)
    done = apply_sequence(r, st, seats, codes, k)
    if done < k:
        seat, verb, arg = parsed[done]
        fail(why_illegal(rules, st, seat, verb, arg), d, done)
    if bad is not None:
        raise bad
    return n


def finish_deal(r, st):
    """End a deal whose actions stop after the last trick (the implicit pass); a reason
    if the deal cannot end here."""
    if st[S_PHASE] == AFTER_LAST:
        apply_action(r, st, A_PASS)
    if st[S_PHASE] != OVER:
        return "the deal's actions end before the deal is over"
    return None


def replay_record(record) -> None:
    """Check a Schnapsen record action by action (records contract)."""
    require(isinstance(record, dict), "a record must be a JSON object")
    rules = RULEBOOK.from_dict(record.get("rules"), strict=True)
    check_common(record, 2)
    deals = record["deals"]
    require(len(deals) <= max_deals(rules), f"{counted(len(deals), 'deal')}; a match of "
            f"{rules['match_points']} points takes at most {max_deals(rules)}")
    r = rules_array(rules)
    st = np.zeros(N_STATE, np.int64)
    st[S_MATCH] = st[S_MATCH + 1] = rules["match_points"]
    prev_dealer = None
    for d, deal in enumerate(deals):
        require(isinstance(deal, dict) and all(k in deal for k in ("start", "actions", "end")),
                "a deal needs 'start', 'actions' and 'end'", d)
        require(min(st[S_MATCH], st[S_MATCH + 1]) > 0,
                "the match was already won before this deal", d)
        allowed = {0, 1} if prev_dealer is None else {1 - prev_dealer}
        dealer, h0, h1, trump_card, talon = parse_start(deal["start"], d, allowed)
        if d == 0:
            st[S_FIRST_DEALER] = dealer
        st[S_DEAL] = d
        start_deal(r, st, dealer, h0, h1, trump_card, talon)
        replay_deal(r, rules, st, deal, d)
        reason = finish_deal(r, st)
        require(reason is None, reason, d)
        end = deal_end_of(st)
        require(isinstance(deal["end"], dict), "'end' must be an object", d)
        require_same(deal["end"], end, "end", d)
        prev_dealer = dealer
    left = [int(st[S_MATCH]), int(st[S_MATCH + 1])]
    require(min(left) <= 0, f"the match is not over: match points {left}")
    res = record["result"]
    winner = 0 if left[0] <= 0 else 1
    require_same(res, {"winner": winner, "match_points": left}, "result")


# ----- deal objects and refusals read from a state (the engine and replay share them) ----
def deal_end_of(st) -> dict:
    """A scored deal's ``end`` object (records contract)."""
    return {"winner": int(st[S_WINNER]), "game_points": int(st[S_GAME_POINTS]),
            "reason": REASONS[int(st[S_REASON])],
            "card_points": [int(card_points(st, 0)), int(card_points(st, 1))],
            "tricks": [int(st[S_TRICKS]), int(st[S_TRICKS + 1])]}


def deal_start_of(st) -> dict:
    """The ``start`` object of a deal not yet begun (state right after it was dealt)."""
    return {"dealer": int(st[S_DEALER]),
            "hands": [hand_names(st[S_HAND]), hand_names(st[S_HAND + 1])],
            "trump_card": card_name(int(st[S_TRUMP_CARD])),
            "talon": talon_names(st[S_TALON])}


def why_illegal(rules, st, seat, verb, arg) -> str:
    """The rule an action breaks in state ``st`` (it was found illegal by the kernels)."""
    phase = int(st[S_PHASE])
    if phase == OVER:
        return "an action after the deal has ended"
    tm = int(k_to_move(st))
    if seat != tm:
        return f"it is seat {tm}'s turn, not seat {seat}'s"
    step = int(st[S_STEP])
    strict = st[S_CLOSER] >= 0 or st[S_TALON_LEFT] == 0
    talon_left = int(st[S_TALON_LEFT])
    hand = int(st[S_HAND + seat])
    if verb == "claim":
        return ("a claim is allowed only right after winning a trick (before exchanging, "
                "closing or showing a marriage), right after a marriage, or after the last "
                "trick")
    if phase == AFTER_LAST:
        return f"after the last trick only its winner's claim may follow, not '{verb}'"
    if verb == "play":
        if not hand >> arg & 1:
            return f"seat {seat} does not hold {card_name(arg)}"
        if phase == LEAD:
            married = int(st[S_MARRIED])
            return (f"after the marriage in {SUITS[married]} seat {seat} must lead its king "
                    f"or queen, not {card_name(arg)}")
        lead = int(st[S_LEAD_CARD])
        legal = int(follow_mask(np.int64(hand), lead, int(st[S_TRUMP]), strict))
        return (f"the talon is closed or used up: seat {seat} must follow suit and beat "
                f"{card_name(lead)} if able, else trump if able; {card_name(arg)} is not "
                f"allowed (allowed: {' '.join(hand_names(legal))})")
    if phase != LEAD:
        return f"seat {seat} must answer the lead with a card, not '{verb}'"
    if step == T_MARRIED:
        return f"after a marriage seat {seat} must lead its king or queen (or claim)"
    if verb == "exchange":
        if step > T_START:
            return "the exchange comes before closing and showing a marriage"
        if strict:
            return "the trump jack may be exchanged only while the talon is open"
        jack = int(st[S_TRUMP]) * 5
        if talon_left < rules["exchange_min_talon"]:
            return (f"the talon holds {counted(talon_left, 'card')}; exchanging needs at least "
                    f"{rules['exchange_min_talon']}")
        return f"seat {seat} does not hold the trump jack {card_name(jack)}"
    if verb == "close":
        if step > T_EXCHANGED:
            return "closing comes before showing a marriage"
        if strict:
            return "the talon is already closed or used up"
        return (f"the talon holds {counted(talon_left, 'card')}; closing needs at least "
                f"{rules['close_min_talon']}")
    if verb == "marriage":
        if strict and not rules["marriage_after_close"]:
            return ("marriages may not be shown once the talon is closed or used up "
                    "(marriage_after_close = false)")
        if not int(marriage_suits(np.int64(hand))) >> arg & 1:
            return f"seat {seat} does not hold king and queen of {SUITS[arg]}"
        return "a marriage comes before the lead"   # pragma: no cover (steps above)
    return f"'{verb}' is not allowed here"          # pragma: no cover
