"""Wendish Schafkopf's players as ``tricksim rules`` lists them (no imports of the
kernels: the rules listing stays fast)."""
from .pimc_params import (CONTRACT_METHODS, PIMC_CONTRACTS, PIMC_MAX_CWORLDS, PIMC_MAX_WORLDS,
                          PIMC_WORLDS, PLAYOUT_WORLDS_PER_WORLD)

#: the players ``--policy`` takes, as every command's help lists them
PLAYERS = ("random", "heuristic", "expert", "pimc")
#: the pimc player's parameters with their defaults, as written in its name (cworlds'
#: default depends on the contract method: words, not a value)
PIMC_DEFAULTS = {"worlds": PIMC_WORLDS, "contracts": PIMC_CONTRACTS,
                 "cworlds": f"{PLAYOUT_WORLDS_PER_WORLD} x worlds for playout, worlds for "
                            "search"}


def policy_help() -> list[str]:
    """One line per policy: its name, parameters with defaults, and what it does."""
    return ["random     every decision uniform over its legal choices",
            "heuristic  a hand-written player: contracts by the expected deal score under "
            "the tariff, skat discards, card play by simple rules",
            "expert     the heuristic, but the last 3 tricks of a deal played by pimc's "
            "open-card search over 4 sampled worlds (fast: few cards are left there)",
            f"pimc[:worlds=N][,contracts=M][,cworlds=K]  card play: samples N worlds of the "
            f"unseen cards (default {PIMC_WORLDS}, 1 to {PIMC_MAX_WORLDS}) consistent with "
            "what it saw, solves each with all cards open and plays the best mean deal score "
            "under the tariff; contracts (discards, Lust Solo, the Old Ones' choice) by M = "
            f"{' | '.join(CONTRACT_METHODS)} (default {PIMC_CONTRACTS}): the heuristic's "
            "choice, or every legal choice tried on K sampled worlds (1 to "
            f"{PIMC_MAX_CWORLDS}; default {PLAYOUT_WORLDS_PER_WORLD} N for playout, N for "
            "search), each world played out by the heuristic (playout) or solved with all "
            "cards open (search), the best mean deal score taken"]


#: one core's seconds one ``pimc`` seat spends per world it samples, per deal (8 card
#: decisions at about 0.7 ms a world; measured end to end)
PIMC_SECONDS_PER_WORLD_DEAL = 0.0055


def search_seconds(names, rules) -> float:
    """An estimate of one core's seconds a game costs with these canonical player
    names: pimc's worlds times a per-deal constant for every searching seat, times the
    game's deals; 0.0 when no seat searches.  The runner sizes a searching run's
    chunks by it (``simcore.chunking``)."""
    from simcore.chunking import pimc_worlds
    worlds = sum(pimc_worlds(n, PIMC_WORLDS) or 0 for n in names)
    return worlds * PIMC_SECONDS_PER_WORLD_DEAL * rules["deals"]
