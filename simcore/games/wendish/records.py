"""Wendish Schafkopf records: action codes to and from the record's JSON, records
built in bulk from the logging batch loop, and replay through the engine's kernels.

Nothing here knows a rule: legality, the play and the scores are the engine's
(engine.py); this module converts, and words the engine's verdicts as messages.
"""
from __future__ import annotations

import gc
import json
from operator import itemgetter

import numpy as np

from ...text import counted
from ...errors import TricksimError
from ...records import check_common, fail, parse_cards, require, require_same, scripted
from .cards import (BLACK_QUEENS, N_CARDS, SUITS, V_OFFICERS, VARIANT_DECK, VARIANT_HAND,
                    VARIANT_SKAT, card_name, mask_of, parse_card)
from .engine import (A_DISCARD, A_FIRST_TRICK, A_PASS, A_PICKUP, A_PLAY, A_QUIET, A_SOLO,
                     A_WEDDING, CONTRACTS, N_ACTIONS, P_DISCARD, P_DONE, P_LUST, P_OLD_ONES,
                     P_PICKUP, PHASES, STATE_SIZE, ST_CALLED, ST_CONTRACT, ST_CP0,
                     ST_DECLARER, ST_DELTA, ST_HAND, ST_N, ST_NDEALS, ST_PHASE, ST_SCHNEIDER,
                     ST_SCHWARZ, ST_SCORE, ST_TEAM0, ST_TO_MOVE, ST_TRICK, ST_TRICK_N,
                     ST_TRUMP, ST_VARIANT, ST_WINNER, py_start_deal, run_actions)
from .play import (D_CONTRACT, D_CP0, D_DEALER, D_DECLARER, D_FIELDS, D_SCHNEIDER, D_SCHWARZ, D_SCORE,
                   D_TEAM0, D_TRUMP, D_WINNER, L_DECK, L_FIELDS, L_NACT, LOG_SHIFT,
                   MAX_ACTIONS, play_logged)
from .rules import (R_DEALS, R_PLAYERS, R_VARIANT, RULEBOOK, is_officers, rules_array, seats_of,
                    variant_index)

CARD_NAMES = tuple(card_name(c) for c in range(N_CARDS))
_NAME_ARRAY = np.array(CARD_NAMES, dtype=object)


# ----- action codes and the record's verbs ------------------------------------------
def action_json(seat: int, code: int) -> list:
    """The record item ``[seat, verb]`` or ``[seat, verb, argument]`` of an action."""
    if code < A_DISCARD:
        return [seat, "play", CARD_NAMES[code]]
    if code < A_PICKUP:
        return [seat, "discard", CARD_NAMES[code - A_DISCARD]]
    if code == A_PICKUP:
        return [seat, "pickup"]
    if code == A_PASS:
        return [seat, "pass"]
    if code < A_QUIET:
        return [seat, "solo", SUITS[code - A_SOLO]]
    if code == A_QUIET:
        return [seat, "quiet_solo"]
    if code == A_FIRST_TRICK:
        return [seat, "wedding", "first_trick"]
    if code < N_ACTIONS:
        return [seat, "wedding", CARD_NAMES[code - A_WEDDING]]
    raise ValueError(f"{code!r} is not a Wendish Schafkopf action code (0 to {N_ACTIONS - 1})")


def describe(code: int) -> str:
    """An action in words, e.g. ``play QC``, ``wedding first_trick``."""
    return " ".join(action_json(0, code)[1:])


_BY_CARD = {name: c for c, name in enumerate(CARD_NAMES)}
_PLAIN = {"pickup": A_PICKUP, "pass": A_PASS, "quiet_solo": A_QUIET}


def action_code(verb, arg=None):
    """The code of a record's verb and argument, None if they name no action."""
    if arg is None:
        return _PLAIN.get(verb)
    if verb == "play":
        c = _BY_CARD.get(arg)
        return None if c is None else A_PLAY + c
    if verb == "discard":
        c = _BY_CARD.get(arg)
        return None if c is None else A_DISCARD + c
    if verb == "solo":
        return A_SOLO + SUITS.index(arg) if isinstance(arg, str) and len(arg) == 1 \
            and arg in SUITS else None
    if verb == "wedding":
        if arg == "first_trick":
            return A_FIRST_TRICK
        c = _BY_CARD.get(arg)
        return None if c is None else A_WEDDING + c
    return None


# every log entry (seat << LOG_SHIFT | code) as a ready item
_LOGGED = [None] * (4 << LOG_SHIFT)
for _s in range(4):
    for _c in range(N_ACTIONS):
        _LOGGED[(_s << LOG_SHIFT) | _c] = tuple(action_json(_s, _c))


# ----- the deal's start -----------------------------------------------------------------
def start_deck(variant: int, n: int, hands, skat, face_down=()) -> np.ndarray:
    """The engine's card order of a deal's start (cards as ids): the hands one after
    the other, then the skat; Officers: per seat 8 face-up cards, then the 8 under them."""
    deck = np.zeros(32, dtype=np.int64)
    if variant == V_OFFICERS:
        order = [c for p in range(2) for c in list(hands[p]) + list(face_down[p])]
    else:
        order = [c for h in hands for c in h] + list(skat)
    deck[:len(order)] = order
    return deck


def deck_start(variant: int, n: int, dealer: int, deck) -> dict:
    """A record's ``start`` from the engine's card order."""
    deck = [int(c) for c in deck]
    if variant == V_OFFICERS:
        return {"dealer": dealer,
                "hands": [[CARD_NAMES[c] for c in deck[16 * p:16 * p + 8]] for p in range(2)],
                "skat": [],
                "face_down": [[CARD_NAMES[c] for c in deck[16 * p + 8:16 * p + 16]]
                              for p in range(2)]}
    hs = VARIANT_HAND[variant]
    return {"dealer": dealer,
            "hands": [[CARD_NAMES[c] for c in sorted(deck[p * hs:(p + 1) * hs])]
                      for p in range(n)],
            "skat": [CARD_NAMES[c] for c in sorted(deck[n * hs:n * hs + VARIANT_SKAT[variant]])]}


def end_of(n, fields, scores):
    """A deal's ``end`` object (records contract) from its ``fields`` (contract,
    declarer, trump, team0, cp0, winner, schneider, schwarz: ``STATE_END(state)`` or
    ``ROW_END(result_row)``) and its seats' ``scores``."""
    contract, declarer, trump, team0, cp0, winner, schneider, schwarz = fields
    return {
        "contract": CONTRACTS[contract],
        "declarer": None if declarer < 0 else int(declarer),
        "trump": SUITS[trump],
        "teams": [[p for p in range(n) if team0 >> p & 1],
                  [p for p in range(n) if not team0 >> p & 1]],
        "card_points": [int(cp0), 120 - int(cp0)],
        "winner": None if winner < 0 else int(winner),
        "schneider": bool(schneider), "schwarz": bool(schwarz),
        "scores": [int(x) for x in scores[:n]],
    }


#: ``end_of``'s fields of the deal end held by a state, and by a result row (``D_*``)
STATE_END = itemgetter(ST_CONTRACT, ST_DECLARER, ST_TRUMP, ST_TEAM0, ST_CP0, ST_WINNER,
                       ST_SCHNEIDER, ST_SCHWARZ)
ROW_END = itemgetter(D_CONTRACT, D_DECLARER, D_TRUMP, D_TEAM0, D_CP0, D_WINNER, D_SCHNEIDER,
                     D_SCHWARZ)


def state_end(st) -> dict:
    """The ``end`` of the finished deal held by a state."""
    n = int(st[ST_N])
    return end_of(n, STATE_END(st), st[ST_DELTA:ST_DELTA + n])


# ----- records from the logging batch loop ----------------------------------------
def _logged_run(rules, policy_ids, seed, start, count, user=None, script=None):
    """One parallel logging run: (result rows, per-deal action counts, action logs,
    card orders as (count, deals, 32) card ids); ``user``, ``script``: a numba player's
    seats and its logged actions (``simcore.records.scripted``), none by default."""
    nd = rules["deals"]
    dout = np.zeros((count * nd, D_FIELDS), dtype=np.int64)
    slog = np.zeros((count, nd, L_FIELDS), dtype=np.int64)
    alog = np.zeros((count, nd, MAX_ACTIONS), dtype=np.int16)
    ids = np.asarray(policy_ids, dtype=np.int64)
    play_logged(rules_array(rules), ids, *scripted(len(ids), count, user, script),
                np.uint64(seed), start, count, dout, slog, alog)
    # the packed card-order words' bytes, little-endian, are the cards in order
    words = np.ascontiguousarray(slog[:, :, L_DECK:L_DECK + 4]).astype("<i8")
    decks = words.view(np.uint8).reshape(count, nd, 32)
    return dout.tolist(), slog[:, :, L_NACT].tolist(), alog.tolist(), decks


def _start_cards(variant, n, decks, names):
    """Per game and deal: the hands (sorted; Officers: face-up in slot order) and the
    skat (Officers: the face-down cards), as nested lists of ``names`` items."""
    if variant == V_OFFICERS:
        piles = decks.reshape(decks.shape[0], decks.shape[1], 2, 16)
        return names[piles[..., :8]].tolist(), names[piles[..., 8:]].tolist()
    hs = VARIANT_HAND[variant]
    count, nd = decks.shape[:2]
    hands = np.sort(decks[:, :, :n * hs].reshape(count, nd, n, hs), axis=-1)
    skat = np.sort(decks[:, :, n * hs:n * hs + VARIANT_SKAT[variant]], axis=-1)
    return names[hands].tolist(), names[skat].tolist()


def _without_gc(fn):
    """Run ``fn()`` with the cyclic collector off: building millions of small lists
    would otherwise rescan them again and again."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        return fn()
    finally:
        if was_on:
            gc.enable()


def build_records(rules, policies, policy_ids, seed, start, count) -> list[dict]:
    """The records of games ``start .. start+count-1`` of run ``seed``: one parallel
    logging run of the batch loop, then the JSON objects in bulk."""
    return _without_gc(lambda: _json_records(rules, policies, policy_ids, seed, start, count))


def _json_records(rules, policies, policy_ids, seed, start, count):
    n = seats_of(rules)
    nd = rules["deals"]
    variant = variant_index(rules)
    rows, nact, alog, decks = _logged_run(rules, policy_ids, seed, start, count)
    hands_l, other_l = _start_cards(variant, n, decks, _NAME_ARRAY)
    officers = is_officers(rules)
    rules_dict = rules.to_dict()
    pols = list(policies)
    logged = _LOGGED
    out = []
    for g in range(count):
        total = [0] * n
        deals = []
        for d in range(nd):
            row = rows[g * nd + d]
            if officers:
                start_obj = {"dealer": row[D_DEALER], "hands": hands_l[g][d], "skat": [],
                             "face_down": other_l[g][d]}
            else:
                start_obj = {"dealer": row[D_DEALER], "hands": hands_l[g][d],
                             "skat": other_l[g][d]}
            actions = [list(logged[x]) for x in alog[g][d][:nact[g][d]]]
            scores = row[D_SCORE:D_SCORE + n]
            end = end_of(n, ROW_END(row), scores)
            total = [a + b for a, b in zip(total, scores)]
            deals.append({"start": start_obj, "actions": actions, "end": end})
        out.append({"game": "wendish", "rules": dict(rules_dict), "seed": int(seed),
                    "index": int(start + g), "policies": list(pols), "deals": deals,
                    "result": {"scores": total}})
    return out


def _dumps(x):
    return json.dumps(x, separators=(",", ":"))


_QUOTED = np.array([_dumps(c) for c in CARD_NAMES], dtype=object)
_LOGGED_TEXT = [None if x is None else _dumps(list(x)) for x in _LOGGED]
_BOOL = ("false", "true")


def build_jsonl(rules, policies, policy_ids, seed, start, count, user=None,
                script=None) -> list[str]:
    """``build_records`` as JSON text, one compact line per record (without the
    newline), exactly ``json.dumps(record, separators=(",", ":"))``, written straight
    from the logs (several times faster than building dicts and dumping them);
    ``user``, ``script``: a numba player's seats and logged actions (``_logged_run``)."""
    return _without_gc(lambda: _text_records(rules, policies, policy_ids, seed, start, count,
                                             user, script))


def _text_records(rules, policies, policy_ids, seed, start, count, user=None, script=None):
    n = seats_of(rules)
    nd = rules["deals"]
    variant = variant_index(rules)
    rows, nact, alog, decks = _logged_run(rules, policy_ids, seed, start, count, user, script)
    hands_l, other_l = _start_cards(variant, n, decks, _QUOTED)
    officers = is_officers(rules)
    head = (f'{{"game":"wendish","rules":{_dumps(rules.to_dict())},"seed":{int(seed)},'
            f'"index":')
    pols = f',"policies":{_dumps(list(policies))},"deals":['
    teams = [_dumps([[p for p in range(n) if t >> p & 1], [p for p in range(n)
                                                            if not t >> p & 1]])
             for t in range(1 << n)]
    contracts = [_dumps(c) for c in CONTRACTS]
    trumps = [_dumps(c) for c in SUITS]
    text = _LOGGED_TEXT
    join = ",".join
    out = []
    for g in range(count):
        total = [0] * n
        parts = []
        for d in range(nd):
            row = rows[g * nd + d]
            hands = "],[".join(join(h) for h in hands_l[g][d])
            if officers:
                down = "],[".join(join(h) for h in other_l[g][d])
                start_t = (f'{{"dealer":{row[D_DEALER]},"hands":[[{hands}]],"skat":[],'
                           f'"face_down":[[{down}]]}}')
            else:
                start_t = (f'{{"dealer":{row[D_DEALER]},"hands":[[{hands}]],'
                           f'"skat":[{join(other_l[g][d])}]}}')
            acts = join([text[x] for x in alog[g][d][:nact[g][d]]])
            scores = row[D_SCORE:D_SCORE + n]
            total = [a + b for a, b in zip(total, scores)]
            decl = row[D_DECLARER]
            win = row[D_WINNER]
            cp0 = row[D_CP0]
            end_t = (f'{{"contract":{contracts[row[D_CONTRACT]]},'
                     f'"declarer":{"null" if decl < 0 else decl},'
                     f'"trump":{trumps[row[D_TRUMP]]},"teams":{teams[row[D_TEAM0]]},'
                     f'"card_points":[{cp0},{120 - cp0}],'
                     f'"winner":{"null" if win < 0 else win},'
                     f'"schneider":{_BOOL[row[D_SCHNEIDER] != 0]},'
                     f'"schwarz":{_BOOL[row[D_SCHWARZ] != 0]},'
                     f'"scores":[{join(map(str, scores))}]}}')
            parts.append(f'{{"start":{start_t},"actions":[{acts}],"end":{end_t}}}')
        out.append(f'{head}{start + g}{pols}{join(parts)}],"result":{{"scores":'
                   f'[{join(map(str, total))}]}}}}')
    return out


# ----- why an action is not legal ------------------------------------------------
def _card_arg(arg):
    try:
        return parse_card(arg)
    except TricksimError as exc:
        return str(exc)


def _need(phase, verb, want, arg, with_arg):
    if verb != want:
        return f"expected '{want}' in phase {phase}, got '{verb}'"
    if with_arg and arg is None:
        return f"'{verb}' needs an argument"
    if not with_arg and arg is not None:
        return f"'{verb}' takes no argument"
    return None


def explain(rules, r, st, seat, verb, arg=None) -> str:
    """Why ``[seat, verb, arg]`` is not a legal action in state ``st`` (the rule
    broken, in words)."""
    ph = int(st[ST_PHASE])
    phase = PHASES[ph]
    if ph == P_DONE:
        return "an action after the last trick"
    who = int(st[ST_TO_MOVE])
    if seat != who:
        return f"it is seat {who}'s turn ({phase}), not seat {seat}'s"
    hand = int(st[ST_HAND + seat])
    if ph == P_PICKUP:
        return _need(phase, verb, "pickup", arg, False) or "pickup is not legal here"
    if ph == P_DISCARD:
        msg = _need(phase, verb, "discard", arg, True)
        if msg:
            return msg
        c = _card_arg(arg)
        if isinstance(c, str):
            return c
        if not hand >> c & 1:
            return f"seat {seat} does not hold {arg}"
        if (1 << c) & BLACK_QUEENS:
            return "a black queen may not be discarded"
        return f"discard {arg} is not legal here"
    if ph == P_LUST:
        if verb == "pass":
            return _need(phase, verb, "pass", arg, False) or "pass is not legal here"
        if verb != "solo":
            return f"expected 'pass' or 'solo' in the Lust Solo round, got '{verb}'"
        return (f"solo {arg!r}: the suit must be one of solo_suits "
                + ",".join(rules["solo_suits"]))
    if ph == P_OLD_ONES:
        if verb == "quiet_solo":
            return _need(phase, verb, "quiet_solo", arg, False) or "quiet_solo is not legal"
        if verb != "wedding":
            return (f"the holder of both black queens must choose 'quiet_solo' or "
                    f"'wedding', not '{verb}'")
        msg = _need(phase, verb, "wedding", arg, True)
        if msg:
            return msg
        c = _card_arg(arg)
        if isinstance(c, str):
            return c
        return (f"wedding {arg}: the called card must be in another player's hand (not "
                "held nor discarded by the caller)")
    # play
    msg = _need(phase, verb, "play", arg, True)
    if msg:
        return msg
    c = _card_arg(arg)
    if isinstance(c, str):
        return c
    officers = int(st[ST_VARIANT]) == V_OFFICERS
    if not hand >> c & 1:
        return f"seat {seat} does not hold {arg}" + (" face up" if officers else "")
    called = int(st[ST_CALLED])
    if called >= 0 and hand >> called & 1 and called != c:
        return (f"seat {seat} must play the called card {CARD_NAMES[called]} at the first "
                "trick where it is legal")
    if int(st[ST_TRICK_N]) > 0:
        return (f"seat {seat} must follow the suit led ({CARD_NAMES[int(st[ST_TRICK])]}; "
                f"trumps are one suit) and may not play {arg}")
    return f"play {arg} is not legal here"


# ----- replay ---------------------------------------------------------------------
def _cards(value, what, deal, action=None):
    return parse_cards(value, parse_card, what, deal, action)


def _teams_sorted(got):
    """A record's ``end`` with the seats inside each team sorted (their order is free)."""
    if not isinstance(got, dict):
        return got
    g = dict(got)
    teams = g.get("teams")
    if isinstance(teams, list) and all(isinstance(t, list) and all(type(p) is int for p in t)
                                       for t in teams):
        g["teams"] = [sorted(t) for t in teams]
    return g


def check_start(rules, deal, d, first_dealer):
    """Check a deal's ``start`` against the rules; returns (dealer, card order)."""
    n = seats_of(rules)
    variant = variant_index(rules)
    officers = is_officers(rules)
    hand_size = VARIANT_HAND[variant]
    require(isinstance(deal, dict) and all(k in deal for k in ("start", "actions", "end")),
            "a deal needs 'start', 'actions' and 'end'", d)
    start = deal["start"]
    require(isinstance(start, dict), "'start' must be an object", d)
    for key in ("dealer", "hands", "skat"):
        require(key in start, f"start is missing '{key}'", d)
    dealer = start["dealer"]
    require(isinstance(dealer, int) and not isinstance(dealer, bool) and 0 <= dealer < n,
            f"start.dealer {dealer!r} is not a seat (0 to {n - 1})", d)
    if first_dealer is not None:
        want = (first_dealer + d) % n
        require(dealer == want, f"start.dealer is {dealer}; the dealer rotates, so deal {d} "
                f"is dealt by seat {want}", d)
    require(isinstance(start["hands"], list) and len(start["hands"]) == n,
            f"start.hands must hold {n} hands", d)
    hands = [_cards(h, f"start.hands[{p}]", d) for p, h in enumerate(start["hands"])]
    skat = _cards(start["skat"], "start.skat", d)
    down = []
    if officers:
        require(isinstance(start.get("face_down"), list) and len(start["face_down"]) == 2,
                "start.face_down must hold 2 lists (Officers' Schafkopf)", d)
        down = [_cards(x, f"start.face_down[{p}]", d) for p, x in enumerate(start["face_down"])]
        for p in range(2):
            require(len(hands[p]) == 8 and len(down[p]) == 8, f"seat {p} must have 8 "
                    "face-up cards each on one of 8 face-down cards", d)
    else:
        for p in range(n):
            require(len(hands[p]) == hand_size, f"seat {p} holds {counted(len(hands[p]), 'card')}; "
                    f"the rules deal {hand_size}", d)
    require(len(skat) == VARIANT_SKAT[variant], f"the skat holds {counted(len(skat), 'card')}; the "
            f"rules put {VARIANT_SKAT[variant]} there", d)
    seen = [c for h in hands for c in h] + skat + [c for x in down for c in x]
    require(len(seen) == len(set(seen)), "a card is dealt twice", d)
    require(mask_of(seen) == VARIANT_DECK[variant], "the cards dealt are not exactly the deck "
            "of these rules", d)
    return dealer, start_deck(variant, n, hands, skat, down)


def _action_items(actions, d):
    """Seats and codes of a deal's actions up to the first that names no action (its
    index, or len(actions)); malformed items fail at once."""
    m = len(actions)
    seats = np.zeros(m, dtype=np.int64)
    codes = np.zeros(m, dtype=np.int64)
    for a, act in enumerate(actions):
        require(isinstance(act, list) and len(act) in (2, 3) and type(act[0]) is int
                and isinstance(act[1], str), f"action {act!r} is not [seat, verb] or "
                "[seat, verb, argument]", d, a)
        code = action_code(act[1], act[2] if len(act) == 3 else None)
        if code is None:
            return seats, codes, a
        seats[a] = act[0]
        codes[a] = code
    return seats, codes, m


def play_deal_actions(rules, r, st, actions, d):
    """Apply a deal's record actions to ``st`` through the engine; a ReplayError names
    the first one that is not legal and why."""
    seats, codes, m = _action_items(actions, d)
    k = run_actions(r, st, seats, codes, m)
    if k < len(actions):
        act = actions[k]
        require(isinstance(act, list) and len(act) in (2, 3) and type(act[0]) is int
                and isinstance(act[1], str), f"action {act!r} is not [seat, verb] or "
                "[seat, verb, argument]", d, k)
        fail(explain(rules, r, st, act[0], act[1], act[2] if len(act) == 3 else None), d, k)


def new_state(r) -> np.ndarray:
    """A zeroed state with the game header of the rules array ``r``."""
    st = np.zeros(STATE_SIZE, dtype=np.int64)
    st[ST_N] = r[R_PLAYERS]
    st[ST_NDEALS] = r[R_DEALS]
    st[ST_VARIANT] = r[R_VARIANT]
    return st


def replay_record(record) -> None:
    """Check a Wendish Schafkopf record action by action (records contract)."""
    require(isinstance(record, dict), "a record must be a JSON object")
    rules = RULEBOOK.from_dict(record.get("rules"), strict=True)
    n = seats_of(rules)
    check_common(record, n)
    r = rules_array(rules)
    deals = record["deals"]
    require(len(deals) == rules["deals"], f"the record has {counted(len(deals), 'deal')}; the rules "
            f"play {rules['deals']}")
    total = [0] * n
    first_dealer = None
    st = new_state(r)
    for d, deal in enumerate(deals):
        dealer, deck = check_start(rules, deal, d, first_dealer)
        if first_dealer is None:
            first_dealer = dealer
        st[ST_SCORE:ST_SCORE + 4] = 0
        st[ST_SCORE:ST_SCORE + n] = total
        py_start_deal(r, st, d, dealer, deck)
        actions = deal["actions"]
        require(isinstance(actions, list), "'actions' must be a list", d)
        play_deal_actions(rules, r, st, actions, d)
        require(int(st[ST_PHASE]) == P_DONE, f"the deal ends before it is over (next: seat "
                f"{int(st[ST_TO_MOVE])}, {PHASES[int(st[ST_PHASE])]})", d)
        end = state_end(st)
        require_same(_teams_sorted(deal["end"]), end, "end", d)
        total = [a + b for a, b in zip(total, end["scores"])]
    res = record["result"]
    require_same(res, {"scores": total}, "result")
