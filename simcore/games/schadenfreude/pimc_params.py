"""The ``pimc`` player's parameters and their bounds (no imports: ``tricksim rules`` and
``--help`` read them without loading numba)."""

PIMC_WORLDS = 32                # default worlds per decision
PIMC_MAX_WORLDS = 1024
PIMC_DEPTH = 0                  # default tricks searched in each world before the leaf value
PIMC_MAX_DEPTH = 12             # 12: every trick (to the round's end)
PIMC_PLAYOUT = 1                # default leaf value: 1 the heuristic plays the round out
