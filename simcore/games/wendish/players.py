"""Wendish Schafkopf's players as ``tricksim rules`` lists them (no imports of the
kernels: the rules listing stays fast)."""
from .pimc_params import (CONTRACT_METHODS, EXPERT_SEARCH_TRICKS, EXPERT_WORLDS,
                          PIMC_CONTRACTS, PIMC_MAX_CWORLDS, PIMC_MAX_STOP, PIMC_MAX_TRICKS,
                          PIMC_MAX_WORLDS, PIMC_MODEL_TRICKS, PIMC_STOP, PIMC_TRICKS,
                          PIMC_WORLDS, PLAYOUT_WORLDS_PER_WORLD)

#: the players ``--policy`` takes, as every command's help lists them
PLAYERS = ("random", "heuristic", "expert", "pimc")
#: the pimc player's parameters with their defaults, as written in its name (cworlds'
#: default depends on the contract method: words, not a value)
PIMC_DEFAULTS = {"worlds": PIMC_WORLDS, "contracts": PIMC_CONTRACTS,
                 "cworlds": f"{PLAYOUT_WORLDS_PER_WORLD} x worlds for playout, worlds for "
                            "search", "tricks": PIMC_TRICKS, "stop": PIMC_STOP}

#: the players a designer's run (simulate, sweep, compare, batch) seats when none are
#: given: one name for every seat (see ``simcore.games.design_players``)
DESIGN_PLAYERS = "expert"
#: why random players mislead here, said once by a run that seats one (None: they do not);
#: the share from `tricksim simulate wendish --policy random --games 20000 --seed 1`
RANDOM_DISTORTS = ("random players bid at random: four of them play a solo in 99.86% of "
                   "deals, so the figures describe a game nobody plays")


def policy_help() -> list[str]:
    """One line per policy: its name, parameters with defaults, and what it does."""
    return ["random     every decision uniform over its legal choices",
            "heuristic  a hand-written player: contracts by the expected deal score under "
            "the tariff, skat discards, card play by simple rules",
            "expert     the heuristic's contracts and discards; cards by a scorer learned "
            "from pimc's play (benchmarks/train_expert_wendish.py), the last "
            f"{EXPERT_SEARCH_TRICKS[0]} tricks of a deal ({EXPERT_SEARCH_TRICKS[1]} in "
            f"three-player and Officers') by pimc's open-card search over {EXPERT_WORLDS} "
            "sampled worlds (fast: few cards are left there)",
            f"pimc[:worlds=N][,contracts=M][,cworlds=K][,tricks=T][,stop=Z]  card play: "
            "samples N "
            "worlds of the "
            f"unseen cards (default {PIMC_WORLDS}, 1 to {PIMC_MAX_WORLDS}) consistent with "
            "what it saw, solves each with all cards open and plays the best mean deal score "
            "under the tariff; contracts (discards, Lust Solo, the Old Ones' choice) by M = "
            f"{' | '.join(CONTRACT_METHODS)} (default {PIMC_CONTRACTS}): the heuristic's "
            "choice, or every legal choice tried on K sampled worlds (1 to "
            f"{PIMC_MAX_CWORLDS}; default {PLAYOUT_WORLDS_PER_WORLD} N for playout, N for "
            "search), each world played out by the heuristic (playout) or solved with all "
            "cards open (search), the best mean deal score taken; tricks=T: searches the "
            f"last T tricks of a deal only, the expert's choice before (1 to "
            f"{PIMC_MAX_TRICKS}, or auto: {PIMC_MODEL_TRICKS} in four, the expert's learned "
            f"scorer playing the tricks before, every trick elsewhere; default "
            f"{PIMC_TRICKS}); stop=Z: a "
            "card's search over worlds stops once it is Z tenths of a standard error behind "
            f"the best (0 to {PIMC_MAX_STOP}, 0: never; default {PIMC_STOP})"]


#: one core's seconds one ``pimc`` seat spends per world it samples, per deal, by the
#: tricks it searches (``tricks``; more than 7: the whole deal): the search's cost
#: falls steeply with the cards left (four players, 8 card decisions: 7.6, 1.9, 0.5,
#: 0.1 ms a card at 8 worlds for tricks=16, 7, 6, 5; CPU on a loaded machine,
#: benchmarks/bench_pimc_wendish_speed.py)
PIMC_SECONDS_PER_WORLD_DEAL = {8: 0.0076, 7: 0.0019, 6: 0.0005, 5: 0.0001}


def search_seconds(names, rules) -> float:
    """An estimate of one core's seconds a game costs with these canonical player
    names: pimc's worlds times a per-deal constant (by its ``tricks``) for every
    searching seat, times the game's deals; 0.0 when no seat searches.  The runner
    sizes a searching run's chunks by it (``simcore.running.chunking``)."""
    import re
    from simcore.running.chunking import pimc_worlds
    total = 0.0
    for n in names:
        worlds = pimc_worlds(n, PIMC_WORLDS)
        if worlds:
            m = re.search(r"(?:^pimc:|,)tricks=(\w+)", n)
            t = m[1] if m else PIMC_TRICKS
            if t == "auto":
                t = PIMC_MODEL_TRICKS if rules["variant"] == "four" else PIMC_MAX_TRICKS
            t = int(t)
            total += worlds * PIMC_SECONDS_PER_WORLD_DEAL[min(max(t, 5), 8)]
    return total * rules["deals"]
