"""Schnapsen's players as ``tricksim rules`` lists them (no imports of the kernels:
the rules listing stays fast)."""
from .pimc_params import (PIMC_GOAL, PIMC_GOALS, PIMC_MAX_STOP, PIMC_MAX_WORLDS, PIMC_STOP,
                          PIMC_TALON, PIMC_TALONS, PIMC_WORLDS)

#: the players ``--policy`` takes, as every command's help lists them
PLAYERS = ("random", "heuristic", "sloppy", "expert", "pimc")
#: the pimc player's parameters with their defaults, as written in its name
PIMC_DEFAULTS = {"worlds": PIMC_WORLDS, "goal": PIMC_GOAL, "marriage_claim": 1,
                 "stop": PIMC_STOP, "talon": PIMC_TALON}

#: the players a designer's run (simulate, sweep, compare, batch) seats when none are
#: given: one name for every seat (see ``simcore.games.design_players``)
DESIGN_PLAYERS = "expert"
#: why random players mislead here, said once by a run that seats one (None: they do not)
RANDOM_DISTORTS = ("random players close, meld and claim at random (a random player wins "
                   "0.9% of matches against the heuristic), so the figures say little about "
                   "Schnapsen as people play it")


def policy_help() -> list[str]:
    """One line per policy: its name, parameters with defaults, and what it does."""
    return ["random     a legal action at random",
            "heuristic  a hand-written player: trump control, marriages, closing and "
            "claims by simple rules",
            "sloppy     the heuristic with a 10% chance per claim of miscounting by up to "
            "10 points (what miscounting costs)",
            "expert     fast and strong: the heuristic while cards are drawn, closing only "
            "when the closed deal wins in each of 8 sampled opponent hands; exact play "
            "once the talon is used up (every card known), the best mean over 6 sampled "
            "opponent hands once it is closed",
            f"pimc[:worlds=N,goal=G,marriage_claim=M]  samples N worlds of the unseen cards (default "
            f"{PIMC_WORLDS}, 1 to {PIMC_MAX_WORLDS}) consistent with what it saw, solves "
            "each with all cards open, plays the best mean game points (goal=points, the "
            "default) or the action winning the most worlds, then the best mean "
            f"(goal=deal: for play where only the deal counts; goal {'|'.join(PIMC_GOALS)}, "
            f"default {PIMC_GOAL}); marriage_claim=0: never claims right after a marriage, "
            "nor counts on it in its searches (as where a marriage's points count from the "
            "next trick won; default 1); stop=K: from the K-th world on, an action never "
            "better than the best so far in any world is dropped, and sampling ends when one "
            f"is left (0 to {PIMC_MAX_STOP}, default {PIMC_STOP}; 0: every action in every "
            "world); talon=T: searches only once at most T cards are left in the talon, "
            f"the expert's choice before ({'|'.join(map(str, PIMC_TALONS))}, default "
            f"{PIMC_TALON}; 10: every decision)"]


#: one core's seconds one ``pimc`` seat spends per world it samples, per match of
#: 7 match points, by ``talon`` (the search's cost falls steeply as the talon shrinks:
#: talon=10, every decision searched, about 43 decisions of its own at 18 ms for 8
#: worlds; talon=6 1.4 ms and talon=4 0.3 ms a decision, CPU on a loaded machine)
PIMC_SECONDS_PER_WORLD = {10: 0.1, 8: 0.03, 6: 0.008, 4: 0.002, 2: 0.001, 0: 0.001}


def search_seconds(names, rules) -> float:
    """An estimate of one core's seconds a match costs with these canonical player
    names: pimc's worlds times a per-match constant (by its ``talon``) for every
    searching seat, scaled by the match's length (``match_points``); 0.0 when no seat
    searches.  The runner sizes a searching run's chunks by it (``simcore.running.chunking``)."""
    import re
    from simcore.running.chunking import pimc_worlds
    total = 0.0
    for n in names:
        worlds = pimc_worlds(n, PIMC_WORLDS)
        if worlds:
            m = re.search(r"(?:^pimc:|,)talon=(\d+)", n)
            total += worlds * PIMC_SECONDS_PER_WORLD[int(m[1]) if m else PIMC_TALON]
    return total * rules["match_points"] / 7
