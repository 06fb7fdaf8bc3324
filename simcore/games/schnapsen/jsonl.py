"""Schnapsen records as JSON Lines, written by a parallel kernel from the action logs.

``encode_records`` writes, for every match logged by ``play.play_logged``, exactly
the bytes of ``json.dumps(record, separators=(",", ":"))`` plus a newline: the
record's fixed parts (game, rules, seed, policies) come from Python once per
call, everything else is copied from small byte tables (card names, action
items, reasons) or printed as integers. Python's own encoder needs about 100
microseconds a record; this needs about one.
"""
import json

import numpy as np
from numba import njit, prange

from .cards import SUITS, card_name
from .engine import A_CLAIM, A_CLOSE, A_EXCHANGE, A_MARRIAGE, A_RESIGN, REASONS
from .play import (BLOCK, D_CP0, D_GP, D_REASON, D_TR0, D_WINNER, L_COUNT, L_DEALER, L_HAND0,
                   L_TALON, L_TRUMP_CARD)

_SEP = {"separators": (",", ":")}


def _table(texts):
    """Byte strings as a (n, width) uint8 table and their lengths."""
    width = max(1, max(len(t) for t in texts))
    out = np.zeros((len(texts), width), np.uint8)
    for i, t in enumerate(texts):
        out[i, :len(t)] = np.frombuffer(t, np.uint8)
    return out, np.array([len(t) for t in texts], np.int64)


def _item_text(code):
    seat, a = divmod(code, 32)
    if a < 20:
        return json.dumps([seat, "play", card_name(a)], **_SEP).encode()
    if A_MARRIAGE <= a < A_MARRIAGE + 4:
        return json.dumps([seat, "marriage", SUITS[a - A_MARRIAGE]], **_SEP).encode()
    verbs = {A_EXCHANGE: "exchange", A_CLOSE: "close", A_CLAIM: "claim", A_RESIGN: "resign"}
    return json.dumps([seat, verbs[a]], **_SEP).encode() if a in verbs else b""


# the byte tables the kernel copies from
CARDS, CARD_LEN = _table([f'"{card_name(c)}"'.encode() for c in range(20)])
ITEMS, ITEM_LEN = _table([_item_text(code) for code in range(64)])
REASON_TEXT, REASON_LEN = _table([f'"{r}"'.encode() for r in REASONS])
KEYS, KEY_LEN = _table([
    b'{"start":{"dealer":', b',"hands":[', b'],"trump_card":', b',"talon":[',
    b']},"actions":[', b'],"end":{"winner":', b',"game_points":', b',"reason":',
    b',"card_points":[', b'],"tricks":[', b']}}', b'],"result":{"winner":',
    b',"match_points":[', b']}}\n'])
(K_START, K_HANDS, K_TRUMP, K_TALON, K_ACTIONS, K_END, K_GP, K_REASON, K_CP, K_TRICKS,
 K_DEAL_END, K_RESULT, K_MP, K_RECORD_END) = range(14)
DEAL_BYTES = 420     # a deal's text without its actions is shorter than this
ITEM_BYTES = 18      # one action item and its comma


@njit(cache=True, inline="always")
def _put(buf, pos, table, lens, i):
    n = lens[i]
    for k in range(n):
        buf[pos + k] = table[i, k]
    return pos + n


@njit(cache=True, inline="always")
def _put_bytes(buf, pos, text):
    for k in range(text.shape[0]):
        buf[pos + k] = text[k]
    return pos + text.shape[0]


@njit(cache=True, inline="always")
def _put_int(buf, pos, v):
    if v < 0:
        buf[pos] = 45  # '-'
        pos += 1
        v = -v
    n = 1
    t = v
    while t >= 10:
        t //= 10
        n += 1
    for k in range(n - 1, -1, -1):
        buf[pos + k] = 48 + v % 10
        v //= 10
    return pos + n


@njit(cache=True, inline="always")
def _put_mask(buf, pos, mask):
    first = True
    for c in range(20):
        if (mask >> c) & 1:
            if not first:
                buf[pos] = 44  # ','
                pos += 1
            first = False
            pos = _put(buf, pos, CARDS, CARD_LEN, c)
    return pos


@njit(cache=True, _nrt=False)
def _encode_one(head, mid, index, deals, winner, left, rows, logs, acts, buf, pos):
    pos = _put_bytes(buf, pos, head)
    pos = _put_int(buf, pos, index)
    pos = _put_bytes(buf, pos, mid)
    a0 = 0
    for d in range(deals):
        if d > 0:
            buf[pos] = 44
            pos += 1
        lg = logs[d]
        row = rows[d]
        pos = _put(buf, pos, KEYS, KEY_LEN, K_START)
        pos = _put_int(buf, pos, lg[L_DEALER])
        pos = _put(buf, pos, KEYS, KEY_LEN, K_HANDS)
        buf[pos] = 91  # '['
        pos = _put_mask(buf, pos + 1, lg[L_HAND0])
        buf[pos] = 93  # ']'
        buf[pos + 1] = 44
        buf[pos + 2] = 91
        pos = _put_mask(buf, pos + 3, lg[L_HAND0 + 1])
        buf[pos] = 93
        pos = _put(buf, pos + 1, KEYS, KEY_LEN, K_TRUMP)
        pos = _put(buf, pos, CARDS, CARD_LEN, lg[L_TRUMP_CARD])
        pos = _put(buf, pos, KEYS, KEY_LEN, K_TALON)
        t = lg[L_TALON]
        for i in range(9):
            if i > 0:
                buf[pos] = 44
                pos += 1
            pos = _put(buf, pos, CARDS, CARD_LEN, (t >> (5 * i)) & 31)
        pos = _put(buf, pos, KEYS, KEY_LEN, K_ACTIONS)
        for i in range(lg[L_COUNT]):
            if i > 0:
                buf[pos] = 44
                pos += 1
            pos = _put(buf, pos, ITEMS, ITEM_LEN, acts[a0 + i])
        a0 += lg[L_COUNT]
        pos = _put(buf, pos, KEYS, KEY_LEN, K_END)
        pos = _put_int(buf, pos, row[D_WINNER])
        pos = _put(buf, pos, KEYS, KEY_LEN, K_GP)
        pos = _put_int(buf, pos, row[D_GP])
        pos = _put(buf, pos, KEYS, KEY_LEN, K_REASON)
        pos = _put(buf, pos, REASON_TEXT, REASON_LEN, row[D_REASON])
        pos = _put(buf, pos, KEYS, KEY_LEN, K_CP)
        pos = _put_int(buf, pos, row[D_CP0])
        buf[pos] = 44
        pos = _put_int(buf, pos + 1, row[D_CP0 + 1])
        pos = _put(buf, pos, KEYS, KEY_LEN, K_TRICKS)
        pos = _put_int(buf, pos, row[D_TR0])
        buf[pos] = 44
        pos = _put_int(buf, pos + 1, row[D_TR0 + 1])
        pos = _put(buf, pos, KEYS, KEY_LEN, K_DEAL_END)
    pos = _put(buf, pos, KEYS, KEY_LEN, K_RESULT)
    pos = _put_int(buf, pos, winner)
    pos = _put(buf, pos, KEYS, KEY_LEN, K_MP)
    pos = _put_int(buf, pos, left[0])
    buf[pos] = 44
    pos = _put_int(buf, pos + 1, left[1])
    return _put(buf, pos, KEYS, KEY_LEN, K_RECORD_END)


@njit(cache=True)
def encode_block(head, mid, start, lo, hi, deals, winner, left, rows, logs, acts, slots, buf,
                 lengths):
    """Write the record line of each match ``g`` in ``lo .. hi-1`` into
    ``buf[slots[g]:]``, its length into ``lengths[g]``."""
    for g in range(lo, hi):
        end = _encode_one(head, mid, start + g, deals[g], winner[g], left[g], rows[g],
                          logs[g], acts[g], buf, slots[g])
        lengths[g] = end - slots[g]


@njit(cache=True, parallel=True)
def encode_records(head, mid, start, deals, winner, left, rows, logs, acts, slots, buf,
                   lengths):
    """``encode_block`` over all matches, blocks in parallel."""
    count = deals.shape[0]
    for b in prange((count + BLOCK - 1) // BLOCK):
        encode_block(head, mid, start, b * BLOCK, min(count, (b + 1) * BLOCK), deals, winner,
                     left, rows, logs, acts, slots, buf, lengths)


@njit(cache=True)
def pack(buf, slots, lengths):
    """Move the lines to the front of ``buf``, one after the other; the total length."""
    pos = 0
    for g in range(slots.shape[0]):
        s = slots[g]
        for k in range(lengths[g]):
            buf[pos + k] = buf[s + k]
        pos += lengths[g]
    return pos


def record_lines(rules, policies, seed, start, logged) -> bytes:
    """JSON Lines of the matches in ``logged`` (the arrays ``play_logged`` filled:
    deals, winner, left, rows, logs, acts), one record a line."""
    deals, winner, left, rows, logs, acts = logged
    head = np.frombuffer(
        ('{"game":"schnapsen","rules":' + json.dumps(rules.to_dict(), **_SEP)
         + f',"seed":{int(seed)},"index":').encode(), np.uint8)
    mid = np.frombuffer((',"policies":' + json.dumps(list(policies), **_SEP)
                         + ',"deals":[').encode(), np.uint8)
    n_acts = logs[:, :, L_COUNT].sum(axis=1)
    bound = (head.size + mid.size + 80 + deals.astype(np.int64) * DEAL_BYTES
             + n_acts * ITEM_BYTES)
    slots = np.zeros(len(deals), np.int64)
    np.cumsum(bound[:-1], out=slots[1:])
    buf = np.empty(int(bound.sum()), np.uint8)
    lengths = np.zeros(len(deals), np.int64)
    args = (head, mid, start, deals.astype(np.int64), winner.astype(np.int64),
            left.astype(np.int64), rows, logs, acts, slots, buf, lengths)
    if len(deals) <= BLOCK:   # a few records: no threads to wake
        encode_block(*args[:3], 0, len(deals), *args[3:])
    else:
        encode_records(*args)
    return buf[:pack(buf, slots, lengths)].tobytes()
