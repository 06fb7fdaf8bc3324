"""What each word of a Wendish state may hold (engine.py documents the words), and the
facts across words that the kernels rely on; ``Engine`` checks a state against both
before a kernel sees it (``simcore.state_check``)."""
from __future__ import annotations

from typing import NamedTuple

from ...text import counted
from ...state_check import Field, StateSpec, mask_field, popcount
from .cards import TRUMP_MASK, VARIANT_DECK, VARIANT_HAND, VARIANT_SKAT
from .engine import (P_DONE, P_PICKUP, P_PLAY, ST_CALLED, ST_CALLED_BY, ST_CBIT, ST_CONTRACT,
                     ST_CP0, ST_DEAL, ST_DEALER, ST_DECK, ST_DECLARER, ST_DELTA, ST_DISCARDS,
                     ST_ELIG, ST_FIRST_TRICK, ST_FMASK, ST_FOREHAND, ST_HAND, ST_LEADER,
                     ST_LUST_N, ST_N, ST_NDEALS, ST_NTR, ST_NTRICKS, ST_OLD_ONES, ST_PHASE,
                     ST_PLAYED, ST_PLAYED_BY, ST_PTS, ST_QC_BY, ST_QS_BY, ST_RNG, ST_SCHNEIDER,
                     ST_SCHWARZ, ST_SCORE, ST_SKAT, ST_TAKER, ST_TEAM0, ST_TEAMS_PUBLIC,
                     ST_TMASK, ST_TO_MOVE, ST_TRICK, ST_TRICK_N, ST_TRICK_PTS, ST_TRICKS0,
                     ST_TRICKS_DONE, ST_TRUMP, ST_UNDER, ST_VARIANT, ST_VOID, ST_WIN_CARD,
                     ST_WIN_POW, ST_WIN_SEAT, ST_WINNER, STATE_SIZE)
from .rules import is_officers, seats_of, variant_index

ALL = (1 << 32) - 1
_TMASK = [int(m) for m in TRUMP_MASK]


def _per_seat(name, offset, n, **allowed):
    """One field for the ``n`` seats at the table, one (always 0) for the empty places."""
    out = [Field(name, offset, n, **allowed)]
    if n < 4:
        out.append(Field(name + "_unused", offset + n, 4 - n, 0, 0, what="0 (no seat there)"))
    return out


def fields(rules) -> list[Field]:
    """The state's words under ``rules``, each with what it may hold."""
    n = seats_of(rules)
    v = variant_index(rules)
    deals = int(rules["deals"])
    deck = VARIANT_DECK[v]
    hand = VARIANT_HAND[v]
    seat = dict(lo=0, hi=n - 1, what=f"a seat, 0 to {n - 1}")
    seat_or_none = dict(lo=-1, hi=n - 1, what=f"a seat (0 to {n - 1}), or -1")
    cards = dict(lo=0, hi=deck, mask=deck, what="a card mask within the variant's deck")
    card_or_none = dict(lo=-1, hi=31, what="a card (0 to 31), or -1")
    return [
        Field("players", ST_N, 1, n, n, what=f"{n}, the rules' players"),
        Field("deals", ST_NDEALS, 1, deals, deals, what=f"{deals}, the rules' deals"),
        Field("variant", ST_VARIANT, 1, v, v, what=f"{v}, the rules' variant"),
        Field("rng", ST_RNG),
        Field("deal", ST_DEAL, 1, 0, deals - 1),
        Field("dealer", ST_DEALER, **seat),
        *_per_seat("score", ST_SCORE, n),
        Field("deck", ST_DECK, 4, what="card bytes"),
        Field("phase", ST_PHASE, 1, 0, 5, what="P_PICKUP to P_DONE (0 to 5)"),
        Field("to_move", ST_TO_MOVE, **seat_or_none),
        Field("forehand", ST_FOREHAND, **seat),
        *_per_seat("hand", ST_HAND, n, **cards),
        Field("skat", ST_SKAT, **cards),
        Field("taker", ST_TAKER, **seat_or_none),
        Field("discards", ST_DISCARDS, **cards),
        Field("lust_n", ST_LUST_N, 1, 0, n),
        Field("old_ones", ST_OLD_ONES, **seat_or_none),
        Field("contract", ST_CONTRACT, 1, 0, 3),
        Field("declarer", ST_DECLARER, **seat_or_none),
        Field("trump", ST_TRUMP, 1, 0, 3, what="a suit, 0 to 3"),
        Field("called", ST_CALLED, **card_or_none),
        Field("first_trick", ST_FIRST_TRICK, 1, 0, 1),
        mask_field("team0", ST_TEAM0, (1 << n) - 1, 1, "a seat mask"),
        Field("teams_public", ST_TEAMS_PUBLIC, 1, 0, 1),
        Field("cbit", ST_CBIT, **cards),
        mask_field("tmask", ST_TMASK, ALL, 1, "a trump mask"),
        Field("played", ST_PLAYED, **cards),
        Field("qc_by", ST_QC_BY, **seat_or_none),
        Field("qs_by", ST_QS_BY, **seat_or_none),
        Field("called_by", ST_CALLED_BY, **seat_or_none),
        Field("leader", ST_LEADER, **seat),
        Field("trick_n", ST_TRICK_N, 1, 0, n - 1),
        Field("trick", ST_TRICK, 4, **card_or_none),
        mask_field("fmask", ST_FMASK, ALL, 1, "a card mask"),
        mask_field("elig", ST_ELIG, ALL, 1, "a card mask"),
        Field("win_seat", ST_WIN_SEAT, **seat_or_none),
        Field("win_pow", ST_WIN_POW, 1, -1, 29),
        Field("win_card", ST_WIN_CARD, **card_or_none),
        Field("trick_pts", ST_TRICK_PTS, 1, 0, 120),
        Field("tricks_done", ST_TRICKS_DONE, 1, 0, hand),
        Field("ntricks", ST_NTRICKS, 1, hand, hand, what=f"{hand}, the variant's hand"),
        *_per_seat("points", ST_PTS, n, lo=0, hi=120),
        *_per_seat("tricks", ST_NTR, n, lo=0, hi=hand),
        Field("under", ST_UNDER, 4, what="card bytes"),
        Field("cp0", ST_CP0, 1, 0, 120),
        Field("tricks0", ST_TRICKS0, 1, 0, hand),
        Field("winner", ST_WINNER, 1, -1, 1),
        Field("schneider", ST_SCHNEIDER, 1, 0, 1),
        Field("schwarz", ST_SCHWARZ, 1, 0, 1),
        *_per_seat("delta", ST_DELTA, n),
        *_per_seat("played_by", ST_PLAYED_BY, n, **cards),
        *_per_seat("void", ST_VOID, n, lo=0, hi=ALL, mask=ALL, what="a card mask"),
    ]


def _bytes(words, count):
    return [(words[k >> 3] >> (8 * (k & 7))) & 0xFF for k in range(count)]


class _Shape(NamedTuple):
    """What a state's cross-field checks need to know of the rules."""

    n: int              # seats
    deck: int           # the variant's deck, a card mask
    ids: list           # its card ids
    ntricks: int        # tricks in a deal (cards in a hand)
    skat_n: int         # cards in the skat (0: none)
    officers: bool


def consistency_of(rules):
    """The cross-field check of states under ``rules``: words -> why not, or None.

    In order: where the cards are (deck, Officers' piles, skat, every card in one
    place), the played cards and the open trick, then the phase's fields."""
    v = variant_index(rules)
    deck = VARIANT_DECK[v]
    shape = _Shape(seats_of(rules), deck, [c for c in range(32) if deck >> c & 1],
                   VARIANT_HAND[v], VARIANT_SKAT[v], is_officers(rules))

    def check(w: list[int]) -> str | None:
        return _cards_placed(w, shape) or _tricks_played(w, shape) or _phase_fields(w, shape)

    return check


def _cards_placed(w, sh: _Shape) -> str | None:
    """Why the deck, Officers' piles or the skat are wrong, or a card is in two places
    or none; None if not."""
    n, deck = sh.n, sh.deck
    words = [x & ((1 << 64) - 1) for x in w[ST_DECK:ST_DECK + 4]]
    packed = sum(x << (64 * i) for i, x in enumerate(words))
    if not set(_bytes(words, len(sh.ids))) <= set(sh.ids) or packed >> (8 * len(sh.ids)):
        return "field deck holds a card that is not in the variant's deck"
    played = w[ST_PLAYED]
    phase = w[ST_PHASE]
    places = [w[ST_HAND + p] for p in range(n)] + [played]
    if sh.officers:
        under = _bytes([x & ((1 << 64) - 1) for x in w[ST_UNDER:ST_UNDER + 4]], 32)
        up = w[ST_HAND] | w[ST_HAND + 1]
        down = 0
        for c, b in enumerate(under):
            if not b:
                continue
            if b > 32 or down >> (b - 1) & 1:
                return f"field under: card {c} covers no card or a card covered twice"
            if up >> c & 1:             # still face up: the card under it lies face down
                down |= 1 << (b - 1)
            elif not played >> c & 1:   # played: the card under it turned up
                return f"field under: card {c} lies on a card but is neither held nor played"
        places.append(down & ~up & ~played)
    elif any(w[ST_UNDER:ST_UNDER + 4]):
        return "field under is 0 outside Officers"
    if sh.skat_n:
        places.append(w[ST_SKAT] if phase == P_PICKUP else w[ST_DISCARDS])
        if popcount(w[ST_SKAT]) != sh.skat_n:
            return f"field skat holds {counted(popcount(w[ST_SKAT]), 'card')}, not {sh.skat_n}"
    seen = 0
    for m in places:
        if seen & m:
            return "a card is in two places (hands, skat or discards, played)"
        seen |= m
    if phase != 1 and seen != deck:       # P_DISCARD: the discards are being chosen
        return "a card is nowhere (every card is in a hand, the skat or discards, played)"
    if phase == 1 and seen & ~deck:
        return "a card is not in the variant's deck"
    return None


def _tricks_played(w, sh: _Shape) -> str | None:
    """Why the played cards, who played them or the open trick are wrong; None if not."""
    played = w[ST_PLAYED]
    by = 0
    for p in range(sh.n):
        m = w[ST_PLAYED_BY + p]
        if by & m:
            return f"field played_by[{p}] shares a card with another seat's"
        by |= m
    if by != played:
        return "fields played_by are not the played cards"
    tn, done = w[ST_TRICK_N], w[ST_TRICKS_DONE]
    if popcount(played) != done * sh.n + tn:
        return "the played cards are not the finished tricks' and the open trick's"
    trick = 0
    for i in range(tn):
        c = w[ST_TRICK + i]
        if c < 0 or not played >> c & 1 or trick >> c & 1:
            return f"field trick[{i}] is not a card played to this trick"
        trick |= 1 << c
    if tn and w[ST_WIN_CARD] not in [w[ST_TRICK + i] for i in range(tn)]:
        return "field win_card is not a card of the open trick"
    return None


def _phase_fields(w, sh: _Shape) -> str | None:
    """Why the seat to move, the trump mask, the called card or the hands' sizes do not
    fit the phase; None if they do."""
    n, phase = sh.n, w[ST_PHASE]
    tn, done = w[ST_TRICK_N], w[ST_TRICKS_DONE]
    if phase == P_DONE:
        if w[ST_TO_MOVE] != -1:
            return "field to_move is -1 once the deal is over"
    elif w[ST_TO_MOVE] < 0:
        return "field to_move is a seat while the deal is played"
    elif phase == P_PLAY:
        if done >= sh.ntricks:
            return "every trick is done but the deal is still played"
        if w[ST_TO_MOVE] != (w[ST_LEADER] + tn) % n:
            return "field to_move is not the seat after the trick's last card"
    elif w[ST_PLAYED] or done or tn:
        return "cards are played only in phase P_PLAY"
    if phase in (P_PLAY, P_DONE) and w[ST_TMASK] != _TMASK[w[ST_TRUMP]]:
        return "field tmask is not the trump suit's mask"
    called, cbit = w[ST_CALLED], w[ST_CBIT]
    if cbit not in (0, 1 << called if called >= 0 else 0):
        return "field cbit is not the called card's bit"
    if not sh.officers and phase in (P_PLAY, P_DONE):
        for p in range(n):
            held = popcount(w[ST_HAND + p])
            if held + popcount(w[ST_PLAYED_BY + p]) != sh.ntricks:
                return f"seat {p} holds {counted(held, 'card')}, not what its tricks leave"
    return None


def state_spec(rules) -> StateSpec:
    """The Wendish ``StateSpec`` under ``rules``."""
    return StateSpec("wendish", STATE_SIZE, fields(rules), consistency_of(rules))
