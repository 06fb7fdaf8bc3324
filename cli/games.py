"""The GAME argument of every command: the games registered when the command runs."""
from __future__ import annotations

import click

from simcore.games import game_names


class GameChoice(click.Choice):
    """``click.Choice`` over the registry, read when a command parses its arguments (not
    when the CLI is imported), so a game registered later is taken like the built-in
    ones."""

    def __init__(self):
        super().__init__(())

    @property
    def choices(self):
        return tuple(game_names())

    @choices.setter
    def choices(self, value):
        """(click sets the choices it was made with; the registry is the list.)"""


GAMES = GameChoice()
