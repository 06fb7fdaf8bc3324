"""Schnapsen (Austrian rules): rules, kernels, players and records (see the package modules)."""
from .game import GAME

__all__ = ["GAME"]
