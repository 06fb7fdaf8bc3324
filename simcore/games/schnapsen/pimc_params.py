"""The ``pimc`` player's parameters and their bounds (no imports: ``tricksim rules``
reads them without loading numba)."""

PIMC_WORLDS = 8         # default worlds per decision
PIMC_MAX_WORLDS = 1024
PIMC_GOALS = ("points", "deal")   # what a world's solve is worth: game points, or the deal won
PIMC_GOAL = "points"    # default
PIMC_STOP = 0           # default: off (stop=2, 3 were weaker: see solver.pimc_choose)
PIMC_MAX_STOP = 15
PIMC_TALON = 6          # default: search only once at most 6 cards are left in the talon,
                        # the expert's choice before (10: search at every decision, the
                        # default until 2026-12-03: it lost 59.5% of 200 paired matches to
                        # talon=6, which also won 74.0% of 1,500 against the heuristic
                        # against its 67.2%, at 1.4 ms a decision instead of 18)
PIMC_TALONS = (0, 2, 4, 6, 8, 10)
