"""tricksim's engine: fast Monte Carlo play of trick-taking card games.

Public API: ``simulate`` (play a batch and summarize), ``sweep`` and
``compare`` (rule variants on the same seeds), ``engine`` (one game, one
decision at a time), ``get_game`` (a game's rules, policies, records),
``RunSettings``, ``write_run`` and ``write_records``.

The names are imported on first use, so that ``import simcore`` (and
``tricksim --help``) does not pay for numba, pandas and scipy.
"""
__version__ = "0.1.0"

import sys as _sys  # noqa: E402
import types as _types  # noqa: E402

from ._cache import configure_numba_cache  # noqa: E402
from .running._dask_worker import ignore_ctrl_c_in_a_starting_worker  # noqa: E402

configure_numba_cache()
ignore_ctrl_c_in_a_starting_worker()

_LAZY = {
    "simulate": "numba_players", "write_records": "running.runner",
    "write_run": "running.runner", "RunResult": "running.runner",
    "sweep": "experiments.sweep", "compare": "experiments.sweep", "engine": "engine",
    "get_game": "registry", "game_names": "registry", "RunSettings": "running.settings",
}

__all__ = sorted(_LAZY) + ["__version__"]


#: public functions named like the submodule that defines them: importing the
#: submodule (a game's api importing ``simcore.engine.EngineBase``) must not replace
#: the function ``simcore.engine`` by the module
_SHADOWED = frozenset({"engine"})


class _Package(_types.ModuleType):
    def __setattr__(self, name, value):
        if name in _SHADOWED and isinstance(value, _types.ModuleType):
            return          # the module stays reachable as sys.modules["simcore.engine"]
        super().__setattr__(name, value)


_sys.modules[__name__].__class__ = _Package


def __getattr__(name):
    if name in _LAZY:
        from importlib import import_module
        value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'simcore' has no attribute '{name}'")
