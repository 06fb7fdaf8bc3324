"""Wendish Schafkopf's players as ``tricksim rules`` lists them (no imports of the
kernels: the rules listing stays fast)."""
from .pimc_params import PIMC_MAX_WORLDS, PIMC_WORLDS


def policy_help() -> list[str]:
    """One line per policy: its name, parameters with defaults, and what it does."""
    return ["random     every decision uniform over its legal choices",
            "heuristic  a hand-written player: contracts by the expected deal score under "
            "the tariff, skat discards, card play by simple rules",
            f"pimc[:worlds=N]  card play: samples N worlds of the unseen cards (default "
            f"{PIMC_WORLDS}, 1 to {PIMC_MAX_WORLDS}) consistent with what it saw, solves "
            "each with all cards open and plays the best mean deal score under the tariff; "
            "contracts and skat as the heuristic"]
