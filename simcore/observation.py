"""Observation tensors and legal-action masks: one fixed-size numeric encoding per game.

Each game declares, field by field, what one seat may know
(``simcore/games/<game>/observation.py``); the fields read the words that the game's
``observe`` kernel writes (its ``O_*`` layout) and spread them into a flat float32
vector that a user's player, an environment or a learned model takes as it is:

- ``value``: the word itself (a count, a seat, -1 for none, a phase number);
- ``cards``: a card mask spread into one 0/1 column per card of the deck;
- ``card``: a card id spread into a one-hot over the deck (all 0 for -1, none).

A field may span ``count`` consecutive words (one per seat or per trick position);
every game pads those to its largest table, so the size does not depend on the
variant. Seats are absolute (the ``seat`` field says which seat observes).

    >>> from simcore import engine
    >>> eng = engine("schnapsen")
    >>> s = eng.new(seed=1, index=0)
    >>> eng.observation(s, eng.to_move(s)).shape, eng.action_mask(s).sum()  # doctest: +SKIP

The field tables in ``docs/players-api.md`` are generated from these declarations
(``python -m simcore.observation docs/players-api.md`` rewrites them; a test checks).
"""
from __future__ import annotations

import re
import sys
from dataclasses import dataclass

import numpy as np

KINDS = ("value", "cards", "card")
_KIND_CODE = {k: i for i, k in enumerate(KINDS)}


@dataclass(frozen=True)
class ObsField:
    """One field of an observation: ``count`` words of the game's ``observe`` output
    from ``word`` on, each encoded by ``kind`` (see the module text)."""

    name: str
    word: int
    kind: str
    doc: str
    count: int = 1

    def width(self, n_cards: int) -> int:
        """How many columns of the tensor this field fills."""
        return self.count * (1 if self.kind == "value" else n_cards)


class ObservationSpec:
    """A game's observation: its fields, their columns, and ``encode`` from the raw words."""

    def __init__(self, game: str, n_cards: int, n_words: int, n_actions: int,
                 fields: tuple[ObsField, ...], standing=None, standing_name: str = ""):
        self.game = game
        #: ``standing(result) -> list``: each seat's standing in a finished game's
        #: ``result`` (records contract), higher is better; a seat beats another in a
        #: game when its standing is higher (tournaments, Python players' summaries)
        self.standing = standing
        #: what a standing is (``win``: 1 for a winner, else 0; ``score``)
        self.standing_name = standing_name
        self.n_cards = n_cards
        self.n_actions = n_actions
        self.fields = tuple(fields)
        names = [f.name for f in self.fields]
        if len(set(names)) != len(names):
            raise ValueError(f"{game}: an observation field is declared twice")
        src, kind, bit, self.offsets = [], [], [], {}
        at = 0
        for f in self.fields:
            if f.kind not in _KIND_CODE:
                raise ValueError(f"{game}: field {f.name} has kind {f.kind!r}; kinds: "
                                 + ", ".join(KINDS))
            if not 0 <= f.word <= f.word + f.count - 1 < n_words:
                raise ValueError(f"{game}: field {f.name} reads words {f.word}.."
                                 f"{f.word + f.count - 1}; observe writes {n_words}")
            self.offsets[f.name] = (at, at + f.width(n_cards))
            at += f.width(n_cards)
            per = 1 if f.kind == "value" else n_cards
            for i in range(f.count):
                src += [f.word + i] * per
                kind += [_KIND_CODE[f.kind]] * per
                bit += list(range(per)) if per > 1 else [0]
        self.size = at
        self._src = np.array(src, dtype=np.int64)
        self._kind = np.array(kind, dtype=np.int64)
        self._bit = np.array(bit, dtype=np.int64)

    def encode(self, words: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """The float32 tensor (``size`` values) of one seat's raw ``observe`` words."""
        w = np.asarray(words, dtype=np.int64)[self._src]
        bits = (w >> self._bit) & 1
        enc = np.where(self._kind == 0, w, np.where(self._kind == 1, bits,
                                                    (w == self._bit).astype(np.int64)))
        if out is None:
            return enc.astype(np.float32)
        out[:] = enc
        return out

    def field(self, tensor: np.ndarray, name: str) -> np.ndarray:
        """The columns of field ``name`` in an encoded tensor."""
        lo, hi = self.offsets[name]
        return tensor[lo:hi]

    def table(self) -> str:
        """The field table (markdown) that docs/players-api.md shows for this game."""
        head = ["| columns | field | kind | what |", "|---|---|---|---|"]
        rows = []
        for f in self.fields:
            lo, hi = self.offsets[f.name]
            kind = f.kind if f.count == 1 else f"{f.count} × {f.kind}"
            if f.kind != "value":
                kind += f" ({self.n_cards} cards)"
            cols = str(lo) if hi - lo == 1 else f"{lo}–{hi - 1}"
            rows.append(f"| {cols} | `{f.name}` | {kind} | {f.doc} |")
        tail = [f"", f"{self.size} columns (float32); action mask: {self.n_actions} actions "
                f"(bool)."]
        return "\n".join(head + rows + tail)


def action_mask(n_actions: int, legal) -> np.ndarray:
    """A bool array of ``n_actions`` with the ``legal`` action codes set."""
    mask = np.zeros(n_actions, dtype=bool)
    mask[np.asarray(legal, dtype=np.int64)] = True
    return mask


_BLOCK = re.compile(r"(<!-- observation:(\w+) -->\n)(.*?)(<!-- /observation -->)", re.S)


def render_docs(text: str) -> str:
    """``text`` with every ``<!-- observation:GAME -->`` ... ``<!-- /observation -->``
    block replaced by GAME's field table under its default rules."""
    from .registry import get_game

    def block(m):
        g = get_game(m.group(2))
        spec = g.engine(g.build_rules()).observation_spec
        return m.group(1) + spec.table() + "\n" + m.group(4)
    return _BLOCK.sub(block, text)


def main(argv=None) -> int:
    """``python -m simcore.observation FILE``: regenerate the field tables in FILE."""
    from pathlib import Path
    from .statistics.stats import write_text
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m simcore.observation docs/players-api.md", file=sys.stderr)
        return 2
    path = Path(args[0])
    text = path.read_text()
    new = render_docs(text)
    if new != text:
        write_text(new, path)
    print(f"{path}: {'updated' if new != text else 'already up to date'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
