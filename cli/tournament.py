"""``tricksim tournament``: several players on the same deals, rated (simcore.experiments.tournament)."""
from __future__ import annotations

from datetime import datetime
from pathlib import Path

import click

from cli.option_groups import RuleChoice, gather


def register(cli, games_type, user_errors) -> None:
    """Add the ``tournament`` command to ``cli``."""

    @cli.command()
    @click.argument("game", type=games_type)
    @click.option("--players", "players", required=True,
                  help="Comma-separated players: built-in policy names (with parameters, "
                       "e.g. pimc:worlds=8) or your Python players as MODULE:ATTR "
                       "(docs/players-api.md). Two-seat games play every pairing; others "
                       "need one player per seat and rotate them through every seat.")
    @click.option("--preset", default=None, help="Named rule set (see `tricksim rules GAME`).")
    @click.option("--rules", "rules_file", type=click.Path(dir_okay=False), default=None,
                  help="TOML file of option = value lines, applied over the preset.")
    @click.option("--set", "assignments", multiple=True, metavar="NAME=VALUE",
                  help="Override one option (repeatable); lists comma-separated.")
    @click.option("--games", type=click.IntRange(min=1), default=200, show_default=True,
                  help="Games per lineup (pairing or rotation), the same game indices "
                       "(deals) in every lineup.")
    @click.option("--seed", type=int, default=None,
                  help="Run seed (drawn and recorded in tournament.json if omitted).")
    @click.option("--out", type=click.Path(file_okay=False), default=None,
                  help="Tournament folder (default results/<game>-tournament-<timestamp>/); "
                       "the same command into it resumes a stopped tournament.")
    @click.option("--player-timeout", type=click.FloatRange(min=0.001), default=10.0,
                  show_default=True,
                  help="Seconds a Python player may take for one decision.")
    @user_errors
    @gather("rule_given", ("preset", "rules_file", "assignments"))
    def tournament(game, players, rule_given, games, seed, out, player_timeout):
        """Rate several players of GAME against each other on the same deals.

        Plays every pairing (both seatings) in a two-seat game, or every seat
        rotation in a game of 3-5 seats (one player per seat: with Schadenfreude
        the number of players sets the table), each lineup on game indices
        0..GAMES-1 of the same run seed. Prints Bradley-Terry ratings (Elo scale,
        95% bootstrap intervals over deals) and each pair's share of comparisons
        won with paired intervals and Holm-corrected verdicts; writes ratings.csv,
        pairs.csv, tournament.png and report.md. Games are played one by one
        through the Engine API in this process.

        \b
        Examples:
          tricksim tournament schnapsen --players heuristic,random,sloppy --games 100 --seed 1
          tricksim tournament schadenfreude --players heuristic,random,expert --games 50 --seed 1
        """
        from simcore.games import get_game
        from simcore.statistics.stats import format_summary
        from simcore.experiments.tournament import tournament as run
        g = get_game(game)
        names = [p.strip() for p in players.split(",")]
        n_players = len(names) if "players" in g.rulebook.options else None
        rules = RuleChoice(n_players, **rule_given).build(game)
        out_dir = Path(out) if out else Path("results") / (
            f"{game}-tournament-{datetime.now().strftime('%Y%m%d-%H%M%S-%f')}")
        res = run(game, rules, players, games, seed, out_dir, timeout=player_timeout)
        click.echo(format_summary({"ratings (Bradley-Terry, Elo points)": res.ratings,
                                   "pairs (share of comparisons won)":
                                   res.pairs.drop(columns=["verdict"])}, "table"), nl=False)
        for v in res.pairs["verdict"]:
            click.echo(f"- {v}")
        from simcore.experiments.tournament import prior_note
        note = prior_note(res.ratings)
        if note:
            click.echo(note, err=True)
        click.echo(f"{res.lineups} lineups x {games} games (seed {res.seed}; "
                   f"{res.played} played, {res.resumed} resumed); wrote {out_dir}/", err=True)
