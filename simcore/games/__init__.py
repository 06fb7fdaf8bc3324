"""The game registry: a new game is a subpackage plus one line here.

Every game subpackage has ``rules.py`` (its ``RULEBOOK``) and exposes ``GAME``
(a ``simcore.games.base.Game``)."""
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


def get_rulebook(name: str):
    """A game's rule options and presets (``<game>/rules.py``'s RULEBOOK) without
    importing its kernels: what ``tricksim rules`` needs, in a fraction of a second."""
    if name not in REGISTRY:
        raise TricksimError(f"unknown game '{name}'; games: " + ", ".join(REGISTRY))
    return import_module(REGISTRY[name] + ".rules").RULEBOOK


def get_policy_help(name: str) -> list[str]:
    """A game's players, one line each (``<game>/players.py``), without importing its
    kernels; a game without that module lists its policy names."""
    if name not in REGISTRY:
        raise TricksimError(f"unknown game '{name}'; games: " + ", ".join(REGISTRY))
    try:
        module = import_module(REGISTRY[name] + ".players")
    except ModuleNotFoundError as exc:
        if exc.name != REGISTRY[name] + ".players":
            raise
        return list(get_game(name).policies)
    return module.policy_help()


def players_help() -> str:
    """Every game's players and the pimc player's defaults in one sentence, for the
    ``--policy`` help of every command (from ``<game>/players.py``: its ``PLAYERS`` and
    ``PIMC_DEFAULTS``; no kernels imported, so ``--help`` stays fast)."""
    parts = []
    for name, package in REGISTRY.items():
        module = import_module(package + ".players")
        listed = []
        for player in module.PLAYERS:
            if player == "pimc":
                defaults = ", ".join(f"{k}={v}" for k, v in module.PIMC_DEFAULTS.items())
                player += f" (defaults {defaults})"
            listed.append(player)
        parts.append(f"{name}: {', '.join(listed)}")
    return ("Players of " + "; ".join(parts) + ". pimc searches sampled deals and is much "
            "slower; `tricksim rules GAME` says what each player does.")


def game_names():
    """Names of all registered games."""
    return list(REGISTRY)
