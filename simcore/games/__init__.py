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


def _players_module(name: str):
    if name not in REGISTRY:
        raise TricksimError(f"unknown game '{name}'; games: " + ", ".join(REGISTRY))
    return import_module(REGISTRY[name] + ".players")


def design_players(name: str) -> list[str]:
    """The players a designer's run of this game seats when none are given (its
    ``players.py``'s ``DESIGN_PLAYERS``: one name for every seat, or one per seat)."""
    return _players_module(name).DESIGN_PLAYERS.split(",")


def random_play_note(name: str, policies) -> str:
    """One sentence saying that random play distorts this game's figures, when a seat of
    ``policies`` (canonical names) is random and the game declares why
    (``RANDOM_DISTORTS`` in its ``players.py``); else ""."""
    why = _players_module(name).RANDOM_DISTORTS
    if not why or "random" not in policies:
        return ""
    return f"note: random players in {name}: {why}; --policy expert for play that means something"


def players_text(policies) -> str:
    """A policy list as a reader says it: ``expert in every seat`` or the list per seat."""
    policies = list(policies)
    if len(set(policies)) == 1:
        return f"{policies[0]} in every seat"
    return ", ".join(f"{p} (seat {i})" for i, p in enumerate(policies))


def players_line(policies, default: bool, sides=None) -> str:
    """The line a designer's command prints first: which players play, and whether they
    are the game's default.  ``sides``: for a comparison, {side label: policies} when A
    and B seat different players (``policies`` is then ignored)."""
    if sides and len({tuple(p) for p in sides.values()}) > 1:
        text = "; ".join(f"{label}: {players_text(p)}" for label, p in sides.items())
    else:
        text = players_text(next(iter(sides.values())) if sides else policies)
    return "players: " + text + (" (the game's default; --policy to change)" if default
                                 else " (as given)")
