"""Checking a state array before a kernel sees it (the Python per-decision API).

The kernels index their arrays without bounds checks, so a state that no kernel
wrote (a slice, the wrong dtype, a field set by hand to a value out of range, a
card in two hands) could read or write past an array and crash the interpreter.
Each game declares its state words once, as data (``<game>/layout.py``: a
``Field`` per word or run of words, with the values it may hold), plus the
cross-field facts its kernels rely on (``consistency``: every card in exactly one
place, counts that agree); ``StateSpec.check`` tests a state against both and
raises one ``TricksimError`` naming the first field that is wrong.  The batch
loop never goes through here: its kernels make their own states.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .errors import StateError

_I64_MIN = -(2**63)
_I64_MAX = 2**63 - 1


@dataclass(frozen=True)
class Field:
    """``count`` state words from ``offset`` called ``name``: each an integer from ``lo``
    to ``hi``; with ``mask`` a card (or seat) bit mask whose bits lie within ``mask``
    (``lo``/``hi`` are then 0 and ``mask``); ``what`` says in words what is allowed."""

    name: str
    offset: int
    count: int = 1
    lo: int = _I64_MIN
    hi: int = _I64_MAX
    mask: int | None = None
    what: str = ""

    def allowed(self) -> str:
        if self.what:
            return self.what
        if self.mask is not None:
            return f"a bit mask within {self.mask:#x}"
        if self.lo == _I64_MIN and self.hi == _I64_MAX:
            return "any 64-bit integer"
        return f"{self.lo} to {self.hi}"


def mask_field(name, offset, mask, count=1, what="") -> Field:
    """A word (or ``count`` words) holding a bit mask within ``mask``."""
    return Field(name, offset, count, 0, int(mask), int(mask), what)


class StateSpec:
    """The words of one game's state under one rule set: what each may hold, and the
    game's cross-field check (``consistency(words)`` returns a sentence naming what
    is inconsistent, or None)."""

    def __init__(self, game: str, size: int, fields, consistency: Callable | None = None):
        self.game = game
        self.size = size
        self.fields = tuple(fields)
        self.consistency = consistency
        owner = [None] * size
        for f in self.fields:
            for i in range(f.offset, f.offset + f.count):
                if not 0 <= i < size or owner[i] is not None:
                    raise AssertionError(f"{game}: state word {i} of field {f.name} "
                                         "is outside the state or declared twice")
                owner[i] = f
        missing = [i for i, f in enumerate(owner) if f is None]
        if missing:
            raise AssertionError(f"{game}: state words {missing} have no field")
        self._owner = owner
        self.lo = np.array([f.lo for f in owner], dtype=np.int64)
        self.hi = np.array([f.hi for f in owner], dtype=np.int64)
        self.outside = np.array([~f.mask if f.mask is not None else 0 for f in owner],
                                dtype=np.int64)

    def check(self, state) -> None:
        """StateError (a TricksimError) unless ``state`` is a whole, writable int64 state
        of this game whose every field is in range and whose fields agree."""
        if type(state) is not np.ndarray:
            raise StateError(f"a {self.game} state is a numpy int64 array of {self.size} "
                             f"words (from new or from_record), not {type(state).__name__}")
        if state.dtype != np.int64 or state.shape != (self.size,):
            raise StateError(f"a {self.game} state is a 1-D int64 array of {self.size} "
                             f"words; this one is {state.dtype} of shape {state.shape}")
        if not state.flags.c_contiguous or not state.flags.writeable:
            raise StateError(f"a {self.game} state must be a contiguous, writable array "
                             "(copy a view or slice with .copy())")
        bad = (state < self.lo) | (state > self.hi) | ((state & self.outside) != 0)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            f = self._owner[i]
            where = f.name if f.count == 1 else f"{f.name}[{i - f.offset}]"
            raise StateError(f"damaged {self.game} state: field {where} (word {i}) is "
                             f"{int(state[i])}; allowed: {f.allowed()}")
        if self.consistency is not None:
            why = self.consistency(state.tolist())
            if why:
                raise StateError(f"damaged {self.game} state: {why}")


def popcount(x: int) -> int:
    """Set bits of a non-negative int."""
    return bin(x).count("1")
