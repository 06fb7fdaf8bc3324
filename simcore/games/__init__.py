"""The games tricksim ships, one package each (docs/adding-a-game.md); the registry
that hands them over is ``simcore.registry``, whose names are re-exported here."""
from ..registry import (BUILT_IN, REGISTRY, design_players, game_entry,  # noqa: F401
                        game_names, get_game, get_hand, get_narrator, get_players,
                        get_policy_help, get_rulebook, players_help, players_line,
                        players_text, random_play_note, register_game)
