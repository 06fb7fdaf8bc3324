"""The players, listed once (issue 20, item 6): every command that takes --policy names
every game's players and the pimc player's defaults in its help, from the games'
players.py, and what players.py declares is what the games' parsers take."""
import pytest

from cli.main import cli
from simcore.games import game_names, get_game, get_players as _players


def _listed(game) -> str:
    """How the help lists ``game``'s players, built from the game's own engine."""
    g = get_game(game)
    if "pimc" not in _players(game).PLAYERS:
        return f"{game}: {', '.join(g.policies)}"
    defaults = ", ".join(f"{k}={v}" for k, v in _players(game).PIMC_DEFAULTS.items())
    return f"{game}: {', '.join(g.policies)}, pimc (defaults {defaults})"


@pytest.mark.parametrize("game", game_names())
def test_players_py_declares_what_the_game_takes(game):
    g = get_game(game)
    mod = _players(game)
    if "pimc" not in mod.PLAYERS:                # a game without a searching player
        assert mod.PLAYERS == tuple(g.policies) and mod.PIMC_DEFAULTS == {}
        return
    assert mod.PLAYERS == tuple(g.policies) + ("pimc",)
    assert tuple(mod.PIMC_DEFAULTS) == tuple(g.policy_parameter_keys)
    bare = g.parse_policy("pimc")
    for key, value in mod.PIMC_DEFAULTS.items():
        if " " in str(value):                    # a default in words (Wendish cworlds)
            continue
        assert g.parse_policy(f"pimc:{key}={value}") == bare, (key, value)
    if game == "wendish":                        # "32 x worlds for playout"
        worlds = mod.PIMC_DEFAULTS["worlds"]
        assert mod.PIMC_DEFAULTS["cworlds"].startswith(f"{mod.PLAYOUT_WORLDS_PER_WORLD} x ")
        assert g.parse_policy("pimc:contracts=playout") == g.parse_policy(
            f"pimc:contracts=playout,cworlds={mod.PLAYOUT_WORLDS_PER_WORLD * worlds}")
        assert g.parse_policy("pimc:contracts=search") == g.parse_policy(
            f"pimc:contracts=search,cworlds={worlds}")


def test_every_policy_help_names_every_player_and_default(invoke):
    commands = [name for name, cmd in sorted(cli.commands.items())
                if any(p.name == "policy" for p in cmd.params)]
    assert {"simulate", "sweep", "compare", "play", "hand", "analyse"} <= set(commands)
    for name in commands:
        res = invoke(name, "--help")
        assert res.exit_code == 0, res.output
        text = " ".join(res.stdout.split())
        for game in game_names():
            assert _listed(game) in text, (name, game, text)
        assert "Schnapsen also has" not in text and "default 16" not in text
