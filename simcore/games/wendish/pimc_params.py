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
#: before (``tricks=16``: every card searched; no deal has more tricks).  Four players:
#: the default ``auto`` (6 in four, since 6 December 2026) scored -0.003 [-0.041, +0.036]
#: (seed 1) and +0.013 [-0.031, +0.057] (seed 2) against ``tricks=16`` on 400 paired
#: deals each, at 0.39 ms a card end to end against 6.6-9.6 ms
#: (results/benchmarks/pimc_wendish_speed_four_{1,2}_w8t6.json, ..._{3,4}_time_t6.json);
#: ``tricks=7``, the default before, cost 1.1 ms a card and scored -0.014 [-0.043,
#: +0.014] (pimc_wendish_speed_four_1_tricks7.json)
PIMC_MAX_TRICKS = 16
#: ``tricks=auto``: this many last tricks searched where the expert has its learned card
#: scorer (Wendish four: the first two tricks are the scorer's), every trick elsewhere
PIMC_MODEL_TRICKS = 6
PIMC_TRICKS = "auto"
#: the stopping rule over worlds (``stop=Z``, tenths of a standard error; 0: every card
#: searched in every world): from STOP_MIN_WORLDS worlds on, a card stops being searched
#: once the leader beats it by more than Z/10 standard errors of their paired difference
#: (default off: ``stop=15`` cost -0.034 [-0.072, +0.003] against the full search where
#: ``tricks=7`` alone cost -0.014; pimc_wendish_speed_four_1_stop.json; measured before
#: the default became ``tricks=6``)
PIMC_MAX_STOP = 100
PIMC_STOP = 0
STOP_MIN_WORLDS = 4
#: the ``expert``'s search (expert.py): the last tricks of a deal it searches, by variant
#: (four, three, three_sharp, officers: four 2, the others 3; four's scorer, fitted on the
#: tricks before the last 3, plays the third-last too: a quarter less CPU a decision,
#: docs/wendish.md), and the worlds it samples per decision there
EXPERT_SEARCH_TRICKS = (2, 3, 3, 3)
EXPERT_WORLDS = 3
