"""Wendish Schafkopf (Wendischer Schafkopf) and its variants Dreiwendsch, Dreiwendsch
with sharp cards and Officers' Schafkopf."""
from .game import GAME  # noqa: F401
