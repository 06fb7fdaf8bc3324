"""tricksim's engine: fast Monte Carlo play of trick-taking card games.

Public API: ``simulate`` (play a batch and summarize), ``get_game`` (a game's
rules, policies, records), ``write_run`` and ``write_records``.
"""
__version__ = "0.1.0"

from ._cache import configure_numba_cache  # noqa: E402

configure_numba_cache()

from .games import get_game, game_names  # noqa: E402
from .runner import RunResult, simulate, write_records, write_run  # noqa: E402

__all__ = ["simulate", "get_game", "game_names", "write_run", "write_records", "RunResult",
           "__version__"]
