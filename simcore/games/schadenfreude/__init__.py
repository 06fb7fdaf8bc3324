"""Schadenfreude: rules, kernels, players and records (see the package modules)."""

from ...protocols import GameEntry, entry_point

__all__ = ["GAME", "ENTRY"]

#: what the registry hands over (``simcore.games.register_game``); nothing is imported
#: before it is asked for
ENTRY = GameEntry(
    name="schadenfreude",
    rulebook=entry_point("simcore.games.schadenfreude.rules:RULEBOOK"),
    game=entry_point("simcore.games.schadenfreude.game:GAME"),
    players=entry_point("simcore.games.schadenfreude.players"),
    narrator=entry_point("simcore.games.schadenfreude.show:Narrator"),
    hand=entry_point("simcore.games.schadenfreude.hand"),
)


def __getattr__(name):
    # GAME (and with it the kernels, numba and pandas) is imported on first use, so
    # that the rule book alone (rules.py) loads in a fraction of a second
    if name == "GAME":
        from .game import GAME
        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
