"""The ``pimc`` player's parameters and their bounds (no imports: ``tricksim rules``
reads them without loading numba)."""

PIMC_WORLDS = 8         # default worlds per decision
PIMC_MAX_WORLDS = 1024
#: how the contract decisions (discards, Lust Solo, the Old Ones' choice) are taken:
#: ``heuristic`` the tariff-aware heuristic; ``playout`` every legal choice on the same
#: sampled worlds, each world played out by the heuristic; ``search`` the same worlds
#: solved with all cards open at the tariff's score bands
CONTRACT_METHODS = ("heuristic", "playout", "search")
PIMC_CONTRACTS = "heuristic"  # default contract method (the others measured no stronger)
#: worlds per contract decision (``cworlds``): by default ``worlds`` for ``search`` and
#: this many times ``worlds`` for ``playout`` (a playout costs far less than a solve)
PLAYOUT_WORLDS_PER_WORLD = 32
PIMC_MAX_CWORLDS = 8192
#: card play searched over the last ``tricks`` tricks of a deal only, the expert's choice
#: before (``tricks=16``: every card searched; no deal has more tricks).  Default 16:
#: ``worlds=16,tricks=6`` costs about 1 ms a card (four players) against 7.6 but was
#: weaker on 800 paired deals of seed 1 (-0.033 [-0.060, -0.007] a deal;
#: results/benchmarks/pimc_wendish_speed_four_1.json), so the default is unchanged
PIMC_MAX_TRICKS = 16
PIMC_TRICKS = PIMC_MAX_TRICKS
