"""Schnapsen (Austrian rules): rules, kernels, players and records (see the package modules)."""

from ...protocols import GameEntry, entry_point

__all__ = ["GAME", "ENTRY"]

#: what the registry hands over (``simcore.games.register_game``); nothing is imported
#: before it is asked for
ENTRY = GameEntry(
    name="schnapsen",
    rulebook=entry_point("simcore.games.schnapsen.rules:RULEBOOK"),
    game=entry_point("simcore.games.schnapsen.game:GAME"),
    players=entry_point("simcore.games.schnapsen.players"),
    narrator=entry_point("simcore.games.schnapsen.show:Narrator"),
    hand=entry_point("simcore.games.schnapsen.hand"),
)


def __getattr__(name):
    # GAME (and with it the kernels, numba and pandas) is imported on first use, so
    # that the rule book alone (rules.py) loads in a fraction of a second
    if name == "GAME":
        from .game import GAME
        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
