"""What each word of a Schadenfreude state may hold (engine.py lists the words), and
the facts across words that the kernels rely on; ``Engine`` checks a state against
both before a kernel sees it (``simcore.state_check``)."""
from __future__ import annotations

from ...text import counted
from ...state_check import Field, StateSpec, mask_field, popcount
from .cards import CARD_RANK, SUIT_MASK, deck_mask
from .engine import (MAX_SEATS, PLAYING, S_BUST, S_DECK, S_FIRST_LEADER, S_FOLLOW, S_HAND,
                     S_LEAD, S_LEADER, S_OFFSUIT, S_PILE, S_PLAYED, S_POINTS, S_RANK_POS,
                     S_RNG, S_ROUND, S_SCORE, S_SPARE, S_SPARE_LEFT, S_STATUS, S_TO_MOVE,
                     S_TRICK, S_TRICK_LEADER, S_TRICK_NUM, S_TRICK_POS, S_UNFINISHED,
                     S_VOID, S_WINNER, STATE_SIZE)
from .rules import SCORE_BOUND

_SUITS = [int(m) for m in SUIT_MASK]
_RANK = [int(x) for x in CARD_RANK]


def _per_seat(name, offset, n, **allowed):
    """One field for the ``n`` seats at the table, one (always 0) for the empty places."""
    out = [Field(name, offset, n, **allowed)]
    if n < MAX_SEATS:
        out.append(Field(name + "_unused", offset + n, MAX_SEATS - n, 0, 0,
                         what="0 (no seat there)"))
    return out


def fields(rules) -> list[Field]:
    """The state's words under ``rules``, each with what it may hold."""
    n, h = rules["players"], rules["hand_size"]
    deck = deck_mask(rules["values"])
    seat = dict(lo=0, hi=n - 1, what=f"a seat, 0 to {n - 1}")
    cards = dict(lo=0, hi=deck, mask=deck, what="a card mask within the rules' deck")
    points = dict(lo=-SCORE_BOUND, hi=SCORE_BOUND, what=f"-{SCORE_BOUND} to {SCORE_BOUND}")
    return [
        Field("rng", S_RNG),
        Field("spare", S_SPARE, 1, 0, 2**32 - 1),
        Field("spare_left", S_SPARE_LEFT, 1, 0, 1),
        Field("first_leader", S_FIRST_LEADER, **seat),
        Field("round", S_ROUND, 1, 0, int(rules["max_rounds"])),
        Field("status", S_STATUS, 1, 0, 2, what="PLAYING, ROUND_OVER or GAME_OVER (0 to 2)"),
        mask_field("bust", S_BUST, (1 << n) - 1, 1, "a seat mask"),
        Field("winner", S_WINNER, 1, -1, n - 1, what=f"a seat (0 to {n - 1}), or -1"),
        Field("unfinished", S_UNFINISHED, 1, 0, 1),
        Field("leader", S_LEADER, **seat),
        Field("trick_leader", S_TRICK_LEADER, **seat),
        Field("to_move", S_TO_MOVE, 1, -1, n - 1, what=f"a seat (0 to {n - 1}), or -1"),
        Field("trick_pos", S_TRICK_POS, 1, 0, n - 1),
        Field("trick_num", S_TRICK_NUM, 1, 0, h),
        mask_field("lead", S_LEAD, deck_mask_all(), 1, "0 or a suit's card mask"),
        Field("follow", S_FOLLOW, 1, 0, 2**14 - 1),
        Field("rank_pos", S_RANK_POS, 1, 0, 2**42 - 1),
        Field("offsuit", S_OFFSUIT, **cards),
        Field("played", S_PLAYED, **cards),
        Field("trick", S_TRICK, MAX_SEATS, -1, 49, what="a card (0 to 49), or -1"),
        *_per_seat("hand", S_HAND, n, **cards),
        *_per_seat("pile", S_PILE, n, **cards),
        *_per_seat("points", S_POINTS, n, **points),
        *_per_seat("score", S_SCORE, n, **points),
        Field("deck", S_DECK, 50, 0, 49, what="a card, 0 to 49"),
        *_per_seat("void", S_VOID, n, lo=0, hi=deck_mask_all(), mask=deck_mask_all(),
                   what="a mask of whole suits"),
    ]


def deck_mask_all() -> int:
    return (1 << 48) - 1


def consistency_of(rules):
    """The cross-field check of states under ``rules``: words -> why not, or None."""
    n, h = rules["players"], rules["hand_size"]
    deck = deck_mask(rules["values"])
    ordered = sorted(c for c in range(50) if deck >> c & 1)
    nd = len(ordered)

    def check(w: list[int]) -> str | None:
        order = w[S_DECK:S_DECK + nd]
        # (the deck's order is not checked against the hands: positions built by hand,
        # or worlds re-dealt by a sampler, keep an old order; only its cards must be cards)
        if not set(order) <= set(ordered):
            return "field deck holds a card that is not in the rules' deck"
        played = w[S_PLAYED]
        seen = played
        for p in range(n):
            hand = w[S_HAND + p]
            if seen & hand:
                return f"field hand[{p}] shares a card with another hand or the played cards"
            seen |= hand
        status, pos, num = w[S_STATUS], w[S_TRICK_POS], w[S_TRICK_NUM]
        tl = w[S_TRICK_LEADER]
        if status == PLAYING:
            if num >= h:
                return f"field trick_num is {num} in a round of {counted(h, 'trick')} still played"
            if w[S_TO_MOVE] != (tl + pos) % n:
                return "field to_move is not the seat after the trick's last card"
        elif w[S_TO_MOVE] != -1 or pos or num != h:
            return "a scored round has no one to move, no trick open and every trick done"
        if popcount(played) != num * n + pos:
            return "the played cards are not the finished tricks' and the open trick's"
        for i in range(n):
            held = popcount(w[S_HAND + (tl + i) % n])
            if held != h - num - (1 if i < pos else 0):
                return f"seat {(tl + i) % n} holds {counted(held, 'card')}, not what the tricks leave"
        lead = follow = rank_pos = offsuit = trick = 0
        for i in range(pos):
            a = w[S_TRICK + i]
            if a < 0 or not played >> a & 1 or trick >> a & 1:
                return f"field trick[{i}] is not a card played to this trick"
            trick |= 1 << a
            if a < 48 and lead == 0:
                lead = _SUITS[a // 12]
            fol = a >= 48 or bool(lead >> a & 1)
            rk = _RANK[a]
            if fol:
                follow |= 1 << rk
                rank_pos |= i << (3 * rk)
            else:
                offsuit |= 1 << a
        if (w[S_LEAD], w[S_FOLLOW], w[S_RANK_POS], w[S_OFFSUIT]) != (
                lead, follow, rank_pos, offsuit):
            return "fields lead, follow, rank_pos and offsuit do not match the trick's cards"
        piles = 0
        for p in range(n):
            pile = w[S_PILE + p]
            if pile & ~played or pile & piles:
                return f"field pile[{p}] holds a card not played or in another pile"
            piles |= pile
        return None

    return check


def state_spec(rules) -> StateSpec:
    """The Schadenfreude ``StateSpec`` under ``rules``."""
    return StateSpec("schadenfreude", STATE_SIZE, fields(rules), consistency_of(rules))
