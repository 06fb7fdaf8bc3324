"""Plain open-card references for the solvers, on the naive rule references (no engine
kernel, no solver code): every legal card or action by the naive rules, the trick
winners and the card points by the naive rules, a memo on the position as the only
speed-up.

- ``wendish_value(st, deadline)``: the final card points of the first team
  (``ST_TEAM0``, discards counted for their taker's side) under best open play, the
  first team's seats maximising, the others minimising (in an open ``wedding
  first_trick`` a seat joins the first team with the first trick it wins, within the
  deadline); the engine state is only read to set the position up (hands by card
  name, the trick so far, the sides, the points won).
- ``schnapsen_value(deal, seat)``: a ``naive_schnapsen.NaiveDeal`` played out by
  minimax over its legal items (resigning left out): the game points, positive when
  ``seat`` wins them.
- ``schadenfreude_value(st, rules, depth)``: plain max-n over the naive Schadenfreude
  rules (``naive_schadenfreude``: legal cards, trick winner, what the winner
  collects, cancelling pairs, floor, bust, the game's winner), each seat's utility
  vector at the end of the search: a finished game gives its winner 1 (nobody: all
  0); otherwise each seat's share of exp(d(total) / 6), ``d`` the total up to 6 below
  the limit and falling three times as fast above that (the solver module's
  documented evaluation, written out again here).  The mover takes the child best
  for itself, the lowest card id on a tie.
"""
from __future__ import annotations

import math

import naive_schadenfreude as NS
from naive_schnapsen import NaiveDeal
from naive_wendish import POINTS, naive_legal_plays, trick_winner


# ----- Wendish --------------------------------------------------------------------------
def _names(mask):
    from simcore.games.wendish.cards import card_name
    return frozenset(card_name(c) for c in range(32) if int(mask) >> c & 1)


def wendish_position(st, deadline):
    """The card-play position of engine state ``st`` in names and sets."""
    from simcore.games.wendish import engine as E
    from simcore.games.wendish.cards import card_name
    n = int(st[E.ST_N])
    officers = int(st[E.ST_VARIANT]) == 3
    under = {}
    if officers:
        for c in range(32):
            u = (int(st[E.ST_UNDER + (c >> 3)]) >> (8 * (c & 7)) & 255) - 1
            if u >= 0:
                under[card_name(c)] = card_name(u)
    hands = tuple(_names(st[E.ST_HAND + q]) for q in range(n))
    tn = int(st[E.ST_TRICK_N])
    leader = int(st[E.ST_LEADER])
    trick = tuple(((leader + i) % n, card_name(int(st[E.ST_TRICK + i]))) for i in range(tn))
    team = frozenset(q for q in range(n) if int(st[E.ST_TEAM0]) >> q & 1)
    cbit = int(st[E.ST_CBIT])
    called = card_name(cbit.bit_length() - 1) if cbit else None
    open_wedding = int(st[E.ST_FIRST_TRICK]) != 0 and int(st[E.ST_TEAMS_PUBLIC]) == 0
    taker = int(st[E.ST_TAKER])
    disc = sum(POINTS[c[0]] for c in _names(st[E.ST_DISCARDS]))
    pts = [int(st[E.ST_PTS + q]) for q in range(n)]
    return {"n": n, "hands": hands, "trick": trick, "team": team, "called": called,
            "trump": "CSHD"[int(st[E.ST_TRUMP])], "under": under, "open": open_wedding,
            "declarer": int(st[E.ST_DECLARER]), "done": int(st[E.ST_TRICKS_DONE]),
            "deadline": deadline, "taker": taker, "disc": disc, "pts": pts,
            "to_move": (leader + tn) % n}


def wendish_value(st, deadline):
    pos = wendish_position(st, deadline)
    n, trump, under = pos["n"], pos["trump"], pos["under"]
    decl, taker, disc = pos["declarer"], pos["taker"], pos["disc"]
    memo = {}

    def future(hands, trick, mover, team, open_, done):
        """(points of the final first team from here on, plus the discards if their
        taker joins it from here on)."""
        if not any(hands):
            return 0
        key = (hands, trick, mover, team, open_, done)
        if key in memo:
            return memo[key]
        legal = naive_legal_plays(hands[mover], [c for _, c in trick], trump, pos["called"])
        maxing = mover in team
        best = None
        for c in legal:
            h = list(hands)
            h[mover] = h[mover] - {c} | ({under[c]} if c in under else set())
            h = tuple(frozenset(x) for x in h)
            t = trick + ((mover, c),)
            if len(t) < n:
                v = future(h, t, (mover + 1) % n, team, open_, done)
            else:
                cards = [x for _, x in t]
                w = t[trick_winner(cards, trump)][0]
                gain = sum(POINTS[x[0]] for x in cards)
                new_team, new_open = team, open_
                if open_:
                    if w != decl:
                        new_team, new_open = team | {w}, False
                    elif done + 1 >= pos["deadline"]:
                        new_open = False
                v = future(h, (), w, new_team, new_open, done + 1)
                if w in new_team:
                    v += gain
                if taker >= 0 and taker not in team and taker in new_team:
                    v += disc
            if best is None or (v > best if maxing else v < best):
                best = v
        memo[key] = best
        return best

    team = pos["team"]
    base = sum(pos["pts"][q] for q in team) + (disc if taker in team else 0)
    return base + future(pos["hands"], pos["trick"], pos["to_move"], team, pos["open"],
                         pos["done"])


# ----- Schnapsen -------------------------------------------------------------------------
def _clone(d: NaiveDeal) -> NaiveDeal:
    c = object.__new__(NaiveDeal)
    c.__dict__.update(d.__dict__)
    c.hands = [set(h) for h in d.hands]
    c.talon = list(d.talon)
    c.points = list(d.points)
    c.marriages = list(d.marriages)
    c.tricks = list(d.tricks)
    c.needed = list(d.needed)
    return c


def _schnapsen_key(d):
    return (frozenset(d.hands[0]), frozenset(d.hands[1]), tuple(d.talon), d.trump_card,
            d._under, d.closer, d.snap, tuple(d.points), tuple(d.marriages), tuple(d.tricks),
            d.leader, d.phase, d.step, d.married, d.lead_card)


def schnapsen_value(deal: NaiveDeal, seat: int) -> int:
    memo = {}

    def value(d):
        if d.phase == "over":
            w, gp, _ = d.result
            return gp if w == seat else -gp
        key = _schnapsen_key(d)
        if key in memo:
            return memo[key]
        maxing = d.to_act() == seat
        best = None
        for item in sorted(d.legal()):
            if item[1] == "resign":
                continue
            c = _clone(d)
            c.apply(item)
            v = value(c)
            if best is None or (v > best if maxing else v < best):
                best = v
        memo[key] = best
        return best

    return value(deal)


# ----- Schadenfreude -----------------------------------------------------------------------
def _shares(totals, limit):
    """Each seat's share of exp(d(total) / 6) (no seat over the limit)."""
    peak = float(limit) - 6.0
    d = [float(t) if t <= peak else peak - 3.0 * (float(t) - peak) for t in totals]
    top = max(d)
    e = [math.exp((x - top) / 6.0) for x in d]
    s = 0.0
    for x in e:
        s += x
    return tuple(x / s for x in e)


def _one_hot(n, seat):
    return tuple(1.0 if p == seat else 0.0 for p in range(n))


def schadenfreude_position(st, rules):
    """The round in progress in engine state ``st``, in card names and lists."""
    from simcore.games.schadenfreude import engine as E
    from simcore.games.schadenfreude.cards import card_name
    n = rules["players"]

    def names(mask):
        return frozenset(card_name(c) for c in range(50) if int(mask) >> c & 1)
    tl = int(st[E.S_TRICK_LEADER])
    trick = tuple(((tl + i) % n, card_name(int(st[E.S_TRICK + i])))
                  for i in range(int(st[E.S_TRICK_POS])))
    return {"hands": tuple(names(st[E.S_HAND + p]) for p in range(n)), "trick": trick,
            "mover": int(st[E.S_TO_MOVE]), "done": int(st[E.S_TRICK_NUM]),
            "piles": tuple(names(st[E.S_PILE + p]) for p in range(n)),
            "scores": [int(st[E.S_SCORE + p]) for p in range(n)],
            "round": int(st[E.S_ROUND])}


def schadenfreude_value(st, rules, depth):
    """Max-n utility vector of the position ``st`` searched ``depth`` tricks deep (the
    current trick the first; the whole round with ``depth`` at least the tricks left
    or with at most two tricks left), by the naive rules (module doc)."""
    from simcore.games.schadenfreude.cards import parse_card
    pos = schadenfreude_position(st, rules)
    n, limit, floor = rules["players"], rules["limit"], rules["floor"]
    left = rules["hand_size"] - pos["done"]
    stop = None if (left <= 2 or depth >= left) else pos["done"] + depth
    memo = {}

    def leaf(piles, over):
        points = [NS.pile_points(list(p)) for p in piles]
        if over:
            scores = NS.new_scores(pos["scores"], points, floor)
            if any(s > limit for s in scores):
                w = NS.game_winner(scores, limit, rules["all_bust"])
                return _one_hot(n, w)
            if pos["round"] + 1 >= rules["max_rounds"]:
                return _one_hot(n, None)            # stopped unfinished: no winner
            return _shares(scores, limit)
        totals = NS.new_scores(pos["scores"], points, floor)
        if any(t > limit for t in totals):
            # as if the round ended here: the highest total held by one seat not bust
            ok = [t for t in totals if t <= limit]
            single = [t for t in ok if ok.count(t) == 1]
            w = totals.index(max(single)) if single and len(ok) else None
            return _one_hot(n, w)
        return _shares(totals, limit)

    def value(hands, trick, mover, piles, done):
        if not any(hands):
            return leaf(piles, True)
        if not trick and stop is not None and done >= stop:
            return leaf(piles, False)
        key = (hands, trick, mover, piles, done)
        if key in memo:
            return memo[key]
        legal = sorted(NS.legal_cards(hands[mover], [c for _, c in trick]), key=parse_card)
        best = None
        for c in legal:
            h = list(hands)
            h[mover] = hands[mover] - {c}
            h = tuple(h)
            t = trick + ((mover, c),)
            if len(t) < n:
                v = value(h, t, (mover + 1) % n, piles, done)
            else:
                w, got = NS.trick_winner(list(t))
                pile = list(piles[w])
                for x in got:
                    NS.add_to_pile(pile, x, rules["pairs"])
                new = list(piles)
                new[w] = frozenset(pile)
                v = value(h, (), w, tuple(new), done + 1)
            if best is None or v[mover] > best[mover]:
                best = v
        memo[key] = best
        return best

    return value(pos["hands"], pos["trick"], pos["mover"], pos["piles"], pos["done"])
