"""Wendish Schafkopf (Wendischer Schafkopf) and its variants Dreiwendsch, Dreiwendsch
with sharp cards and Officers' Schafkopf."""

__all__ = ["GAME"]


def __getattr__(name):
    # GAME (and with it the kernels, numba and pandas) is imported on first use, so
    # that the rule book alone (rules.py) loads in a fraction of a second
    if name == "GAME":
        from .game import GAME
        return GAME
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
