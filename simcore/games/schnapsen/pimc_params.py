"""The ``pimc`` player's parameters and their bounds (no imports: ``tricksim rules``
reads them without loading numba)."""

PIMC_WORLDS = 8         # default worlds per decision
PIMC_MAX_WORLDS = 1024
PIMC_GOALS = ("points", "deal")   # what a world's solve is worth: game points, or the deal won
PIMC_GOAL = "points"    # default
PIMC_STOP = 0           # default: off (stop=2, 3 were weaker: see solver.pimc_choose)
PIMC_MAX_STOP = 15
