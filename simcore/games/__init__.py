"""The game registry: a new game is a subpackage plus one line here."""
from importlib import import_module

from ..errors import TricksimError

REGISTRY = {
    "schadenfreude": "simcore.games.schadenfreude",
    "schnapsen": "simcore.games.schnapsen",
    "wendish": "simcore.games.wendish",
}


def get_game(name: str):
    """The ``GAME`` object of a game by name; TricksimError for an unknown one."""
    if name not in REGISTRY:
        raise TricksimError(f"unknown game '{name}'; games: " + ", ".join(REGISTRY))
    return import_module(REGISTRY[name]).GAME


def game_names():
    """Names of all registered games."""
    return list(REGISTRY)
