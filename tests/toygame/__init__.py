"""Toy: a test-only fourth game, added as docs/adding-a-game.md says.

Two or three players, a 12-card deck (J Q K A of clubs, spades and hearts), all
cards dealt; the leader of the first trick is drawn; players follow suit when they
can, the highest card of the suit led takes the trick and leads the next; a trick is
worth one point (``last_bonus``: the last trick two). The seat with the most points
alone wins. It lives in ``tests/`` and is registered by one call in
``tests/conftest.py``: ``register_game(toygame.ENTRY)``. Its play is plain Python
(no numba: the suite stays fast); a real game's kernels are ``@njit(cache=True)``.
"""
from simcore.protocols import GameEntry, entry_point

ENTRY = GameEntry(
    name="toygame",
    rulebook=entry_point("toygame.rules:RULEBOOK"),
    game=entry_point("toygame.game:GAME"),
    players=entry_point("toygame.players"),
    narrator=entry_point("toygame.show:Narrator"),
    hand=entry_point("toygame.hand"),
    record_checker=entry_point("toygame.invariants:check_record"),
)
