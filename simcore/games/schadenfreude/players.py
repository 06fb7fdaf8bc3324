"""Schadenfreude's players as ``tricksim rules`` lists them (no imports of the kernels:
the rules listing stays fast)."""
from .pimc_params import PIMC_DEPTH, PIMC_MAX_DEPTH, PIMC_MAX_WORLDS, PIMC_PLAYOUT, PIMC_WORLDS

#: the players ``--policy`` takes, as every command's help lists them
PLAYERS = ("random", "heuristic", "pimc")
#: the pimc player's parameters with their defaults, as written in its name
PIMC_DEFAULTS = {"worlds": PIMC_WORLDS, "depth": PIMC_DEPTH, "playout": PIMC_PLAYOUT}


def policy_help() -> list[str]:
    """One line per policy: its name, parameters with defaults, and what it does."""
    return ["random     a legal card at random",
            "heuristic  a hand-written player: weighs each card's chance to take the "
            "trick against what the points would do to its total (reads limit, pairs "
            "and all_bust)",
            f"pimc[:worlds=N,depth=D,playout=P]  samples N worlds of the unseen cards "
            f"(default {PIMC_WORLDS}, 1 to {PIMC_MAX_WORLDS}) consistent with what it "
            f"saw; values each card in each world with all cards open: max-n search D "
            f"tricks deep (default {PIMC_DEPTH}: the card alone; {PIMC_MAX_DEPTH}: to "
            f"the round's end), then P=1 the heuristic plays the round out (default "
            f"{PIMC_PLAYOUT}) or P=0 the totals are evaluated; plays the best mean"]
