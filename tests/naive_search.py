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
"""
from __future__ import annotations

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
