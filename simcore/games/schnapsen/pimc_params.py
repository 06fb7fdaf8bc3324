"""The ``pimc`` player's parameters and their bounds (no imports: ``tricksim rules``
reads them without loading numba)."""

PIMC_WORLDS = 8         # default worlds per decision
PIMC_MAX_WORLDS = 1024
PIMC_GOALS = ("points", "deal")   # what a world's solve is worth: game points, or the deal won
PIMC_GOAL = "points"    # default
PIMC_STOP = 0           # default: off (stop=2, 3 were weaker: see solver.pimc_choose)
PIMC_MAX_STOP = 15
PIMC_TALON = 10         # default: search at every decision (talon=T: only once at most T
                        # cards are left in the talon; before, the expert's choice)
PIMC_TALONS = (0, 2, 4, 6, 8, 10)
