"""Toy's players as ``tricksim rules`` and every ``--policy`` help list them."""

#: the players ``--policy`` takes
PLAYERS = ("random", "heuristic")
#: no searching player, so no pimc parameters
PIMC_DEFAULTS: dict = {}
#: a designer's run seats the heuristic in every seat
DESIGN_PLAYERS = "heuristic"
#: random players do not distort this game's figures more than any weak play
RANDOM_DISTORTS = None


def policy_help() -> list[str]:
    """One line per player: its name and what it does."""
    return ["random     a legal card at random",
            "heuristic  wins the trick with its lowest winning card if it can, else plays "
            "its lowest card; leads its highest card"]


def search_seconds(names, rules) -> float:
    """No player searches: every game costs microseconds (chunks by count)."""
    return 0.0
