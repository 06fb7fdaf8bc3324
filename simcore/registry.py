"""The game registry: a new game is a package plus one ``register_game`` call.

Every game is a ``simcore.protocols.GameEntry``: its name and a loader for each
plug-in point (the ``Game``, its rule book, players, narrator and hand analysis; the
Protocols in ``simcore.protocols`` say what each must provide), named as entry points
(``"package.module:attribute"``) and loaded on first use.  Generic code asks this
module for them; nothing finds a game's module by its name, and nothing here imports
a game: the registry sits below every game in the import graph (the games import the
generic modules, never the other way round; tests/test_imports.py checks it), and
listing the games, their rules and players imports no kernels (``tricksim --help``,
``tricksim rules``).  ``simcore.games`` re-exports these names."""
from .errors import TricksimError
from .protocols import GameEntry, entry_point

#: the registered games by name, in the order help and listings show them
REGISTRY: dict[str, GameEntry] = {}


def register_game(entry: GameEntry) -> None:
    """Add a game (its ``GameEntry``) to the registry; every command, the API and
    the conformance test then take it.  ValueError for a name already taken."""
    if not isinstance(entry, GameEntry):
        raise ValueError(f"register_game takes a GameEntry, not {type(entry).__name__}")
    if entry.name in REGISTRY and REGISTRY[entry.name] != entry:
        raise ValueError(f"a game called {entry.name!r} is registered already")
    REGISTRY[entry.name] = entry


# the games tricksim ships: each plug-in named literally, as an entry point
register_game(GameEntry(
    name="schadenfreude", rulebook=entry_point("simcore.games.schadenfreude.rules:RULEBOOK"),
    game=entry_point("simcore.games.schadenfreude.game:GAME"),
    players=entry_point("simcore.games.schadenfreude.players"),
    narrator=entry_point("simcore.games.schadenfreude.show:Narrator"),
    hand=entry_point("simcore.games.schadenfreude.hand")))
register_game(GameEntry(
    name="schnapsen", rulebook=entry_point("simcore.games.schnapsen.rules:RULEBOOK"),
    game=entry_point("simcore.games.schnapsen.game:GAME"),
    players=entry_point("simcore.games.schnapsen.players"),
    narrator=entry_point("simcore.games.schnapsen.show:Narrator"),
    hand=entry_point("simcore.games.schnapsen.hand")))
register_game(GameEntry(
    name="wendish", rulebook=entry_point("simcore.games.wendish.rules:RULEBOOK"),
    game=entry_point("simcore.games.wendish.game:GAME"),
    players=entry_point("simcore.games.wendish.players"),
    narrator=entry_point("simcore.games.wendish.show:Narrator"),
    hand=entry_point("simcore.games.wendish.hand")))

#: the games tricksim ships (registered above; a game registered later, such as the
#: tests' toy game, is not among them)
BUILT_IN = tuple(REGISTRY)


def game_entry(name: str) -> GameEntry:
    """The registry entry of a game by name; TricksimError for an unknown one."""
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise TricksimError(f"unknown game '{name}'; games: " + ", ".join(REGISTRY)) from None


def get_game(name: str):
    """The ``Game`` object of a game by name; TricksimError for an unknown one."""
    return game_entry(name).game()


def get_rulebook(name: str):
    """A game's rule options and presets (its ``RULEBOOK``) without importing its
    kernels: what ``tricksim rules`` needs, in a fraction of a second."""
    return game_entry(name).rulebook()


def get_players(name: str):
    """A game's players (a ``simcore.protocols.PlayersProtocol``: ``PLAYERS``,
    ``PIMC_DEFAULTS``, ``DESIGN_PLAYERS``, ``policy_help`` ...), no kernels imported."""
    return game_entry(name).players()


def get_narrator(name: str):
    """A game's ``Narrator`` class (``simcore.protocols.NarratorProtocol``)."""
    return game_entry(name).narrator()


def get_hand(name: str):
    """A game's hand and position analysis (``simcore.protocols.HandProtocol``)."""
    return game_entry(name).hand()


def get_policy_help(name: str) -> list[str]:
    """A game's players, one line each, without importing its kernels."""
    return get_players(name).policy_help()


def players_help() -> str:
    """Every game's players and the pimc player's defaults in one sentence, for the
    ``--policy`` help of every command (each game's ``PLAYERS`` and ``PIMC_DEFAULTS``;
    no kernels imported, so ``--help`` stays fast)."""
    parts = []
    for name in REGISTRY:
        players = get_players(name)
        listed = []
        for player in players.PLAYERS:
            if player == "pimc":
                defaults = ", ".join(f"{k}={v}" for k, v in players.PIMC_DEFAULTS.items())
                player += f" (defaults {defaults})"
            listed.append(player)
        parts.append(f"{name}: {', '.join(listed)}")
    return ("Players of " + "; ".join(parts) + ". pimc searches sampled deals and is much "
            "slower; `tricksim rules GAME` says what each player does.")


def game_names():
    """Names of all registered games."""
    return list(REGISTRY)


def design_players(name: str) -> list[str]:
    """The players a designer's run of this game seats when none are given (its
    ``DESIGN_PLAYERS``: one name for every seat, or one per seat)."""
    return get_players(name).DESIGN_PLAYERS.split(",")


def random_play_note(name: str, policies) -> str:
    """One sentence saying that random play distorts this game's figures, when a seat of
    ``policies`` (canonical names) is random and the game declares why
    (its players' ``RANDOM_DISTORTS``); else ""."""
    why = get_players(name).RANDOM_DISTORTS
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
