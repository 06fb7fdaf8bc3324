"""The ``pimc`` player's parameters and their bounds (no imports: ``tricksim rules`` and
``--help`` read them without loading numba)."""

PIMC_WORLDS = 64                # default worlds per decision (32 until 2026-12-03)
PIMC_MAX_WORLDS = 1024
PIMC_DEPTH = 0                  # default tricks searched in each world before the leaf value
PIMC_MAX_DEPTH = 12             # 12: every trick (to the round's end)
PIMC_PLAYOUT = 1                # default leaf value: 1 the heuristic plays the round out
PIMC_MAX_CARDS = 12             # cards in hand at most (cards=12: search at every decision)
PIMC_CARDS = 6                  # default: search with at most this many cards in hand, the
                                # heuristic's card before (12 until 2026-12-03: the full
                                # search, pimc:worlds=32,cards=12,stop=0, is 7-8 times slower
                                # and no stronger on paired deals; docs/schadenfreude.md)
PIMC_MAX_STOP = 63
PIMC_STOP = 15                  # default stopping rule (tenths of a standard error; 0: off)
