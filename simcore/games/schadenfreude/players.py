"""Schadenfreude's players as ``tricksim rules`` lists them (no imports of the kernels:
the rules listing stays fast)."""
import re

from .pimc_params import (PIMC_CARDS, PIMC_DEPTH, PIMC_MAX_CARDS, PIMC_MAX_DEPTH, PIMC_MAX_STOP,
                          PIMC_MAX_WORLDS, PIMC_PLAYOUT, PIMC_STOP, PIMC_WORLDS)

#: the players ``--policy`` takes, as every command's help lists them
PLAYERS = ("random", "heuristic", "expert", "pimc")
#: the pimc player's parameters with their defaults, as written in its name
PIMC_DEFAULTS = {"worlds": PIMC_WORLDS, "depth": PIMC_DEPTH, "playout": PIMC_PLAYOUT,
                 "cards": PIMC_CARDS, "stop": PIMC_STOP}

#: the players a designer's run (simulate, sweep, compare, batch) seats when none are
#: given: one name for every seat (see ``simcore.games.design_players``)
DESIGN_PLAYERS = "expert"
#: why random players mislead here, said once by a run that seats one (None: they do not)
RANDOM_DISTORTS = None


def policy_help() -> list[str]:
    """One line per policy: its name, parameters with defaults, and what it does."""
    return ["random     a legal card at random",
            "heuristic  a hand-written player: weighs each card's chance to take the "
            "trick against what the points would do to its total (reads limit, pairs "
            "and all_bust)",
            "expert     with 5 or more cards in hand a learned card scorer fitted to "
            "pimc's values (four players; the heuristic with three and five), with 4, 3 "
            "or 2 cards pimc's flat Monte Carlo over a few sampled worlds by player count "
            "(four players: 4, 16, 32; stopping a card 1.0 standard error behind the "
            "best from 8 worlds on) with heuristic playouts to the round's end",
            f"pimc[:worlds=N,depth=D,playout=P,cards=C,stop=Z]  samples N worlds of the unseen cards "
            f"(default {PIMC_WORLDS}, 1 to {PIMC_MAX_WORLDS}) consistent with what it "
            f"saw; values each card in each world with all cards open: max-n search D "
            f"tricks deep (default {PIMC_DEPTH}: the card alone; {PIMC_MAX_DEPTH}: to "
            f"the round's end), then P=1 the heuristic plays the round out (default "
            f"{PIMC_PLAYOUT}) or P=0 the totals are evaluated; plays the best mean. "
            f"Searches only with at most C cards in hand (default {PIMC_CARDS}, 1 to "
            f"{PIMC_MAX_CARDS}), the heuristic's card before; stops sampling a card once "
            f"it is Z tenths of a standard error behind the best (default {PIMC_STOP}, 0 "
            f"never, to {PIMC_MAX_STOP})"]


#: one core's seconds one ``pimc`` seat spends per world it samples, per game, when it
#: searches every decision (cards=12, stop=0; measured end to end with the default depth
#: and playout)
PIMC_SECONDS_PER_WORLD = 0.004
_CARDS = re.compile(r",cards=(\d+)")
_STOP = re.compile(r",stop=(\d+)")


def search_seconds(names, rules) -> float:
    """An estimate of one core's seconds a game costs with these canonical player
    names: for every searching seat its worlds times a per-game constant, times the
    share of the search's work left with ``cards=C`` (a world's cost grows about as the
    square of the cards in hand: the sum of h*h for h <= C over that for h <= 12) and
    half of it with a stopping rule; 0.0 when no seat searches.  The runner sizes a
    searching run's chunks by it (``simcore.running.chunking``)."""
    from simcore.running.chunking import pimc_worlds
    total = 0.0
    for name in names:
        worlds = pimc_worlds(name, PIMC_WORLDS)
        if not worlds:
            continue
        m = _CARDS.search(name)
        cards = int(m[1]) if m else PIMC_CARDS
        m = _STOP.search(name)
        stop = int(m[1]) if m else PIMC_STOP
        share = sum(h * h for h in range(1, cards + 1)) / sum(h * h for h in range(1, 13))
        total += worlds * PIMC_SECONDS_PER_WORLD * share * (0.5 if stop else 1.0)
    return total
