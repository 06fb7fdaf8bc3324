"""``tricksim hand`` and ``tricksim analyse``: one hand, one position."""
from __future__ import annotations

import time

import click

from simcore.errors import TricksimError
from simcore.analysis.budget import (DEFAULT_BUDGET, MIN_SAMPLES, MIN_SEARCH_SAMPLES,
                                     check_budget, check_threads)
from simcore.games import get_game, get_hand, players_help
from simcore.text import counted

from cli.games import GAMES
from cli.option_groups import HandPlay, OwnerHand, RecordPosition, RuleChoice, gather


def _budget_options(noun: str, cap_option: str):
    """``--budget`` and ``--threads``, as ``hand`` and ``analyse`` take them."""
    def deco(f):
        f = click.option("--threads", type=int, default=None,
                         help="Threads playing the " + noun + "s side by side (default: all "
                         "cores).")(f)
        f = click.option("--budget", type=float, default=DEFAULT_BUDGET, show_default=True,
                         metavar="SECONDS",
                         help="Without --policy: the seconds to spend. The strongest player "
                         "(the game's pimc, then cheaper pimc settings, then expert, then "
                         f"heuristic) whose {noun}s in that time give a useful interval (at "
                         f"least {MIN_SEARCH_SAMPLES:,} for a pimc setting, {MIN_SAMPLES:,} "
                         f"for the others, or {cap_option} if smaller) is taken, timed by a "
                         "short pilot; the first lines say who "
                         f"played and how many {noun}s, and whether cheaper players, played on "
                         f"the same {noun}s, answer differently.")(f)
        return f
    return deco


def _threads(threads):
    import os
    return check_threads(threads if threads is not None else os.cpu_count() or 1)


def _note_cold_cache(game: str) -> None:
    """The compile notice every command gives when the kernels are not cached yet."""
    from cli.main import note_cold_cache
    note_cold_cache(game)


def _positive(value, name, limit=10**8):
    if value < 1 or value > limit:
        raise TricksimError(f"{name} must be from 1 to {limit:,}, not {value}")


def _seed_in_range(seed):
    """The same --seed range as every other command (the runner's)."""
    from simcore.running.runner import MAX_SEED
    if not 0 <= seed <= MAX_SEED:
        raise TricksimError(f"--seed {seed} is not allowed; allowed: 0 to {MAX_SEED}")


def register(cli, rule_options, user_errors):
    """Add ``hand`` and ``analyse`` to the ``tricksim`` group."""
    from cli.main import player_timeout_option

    @cli.command()
    @click.argument("game", type=GAMES)
    @rule_options
    @click.option("--hand", "hand", required=True, metavar="CARDS",
                  help="The owner's cards in the rule texts' notation (e.g. 'AH TH KC QC JD'; "
                       "Officers': the face-up cards). Fewer than a full hand: the rest is dealt "
                       "at random.")
    @click.option("--seat", type=int, default=0, show_default=True, help="The owner's seat.")
    @click.option("--dealer", type=int, default=None,
                  help="Who deals (default: the seat before the owner, so the owner leads "
                       "or bids first).")
    @click.option("--trump-card", default=None, metavar="CARD",
                  help="Schnapsen: the face-up trump card (default: random).")
    @click.option("--takes-skat/--leaves-skat", "takes_skat", default=None,
                  help="Dreiwendsch: whether the owner takes the skat (default: as the deal "
                       "falls).")
    @click.option("--known", multiple=True, metavar="SEAT:CARDS",
                  help="Cards known to be in another seat's hand (repeatable).")
    @click.option("--policy", default=None, metavar="P[,P...]",
                  help="Players, one for every seat or one per seat, playing --deals deals "
                       "(default: the strongest that fits --budget). " + players_help())
    @click.option("--deals", type=int, default=10_000, show_default=True,
                  help="Deals to play (every choice plays the same deals); without --policy "
                       "at most this many.")
    @_budget_options("deal", "--deals")
    @click.option("--seed", type=int, default=1, show_default=True,
                  help="Seed of the random completion (deal i uses the stream of (seed, i)).")
    @click.option("--out", type=click.Path(dir_okay=False), default=None,
                  help="Write a PNG of the outcome distribution here (in a folder that "
                       "exists).")
    @player_timeout_option("its deals are played one by one on one thread, the owner's "
                           "start left to its player.")
    @user_errors
    @gather("rule_choice", RuleChoice)
    @gather("owner", OwnerHand)
    @gather("play", HandPlay)
    def hand(game, rule_choice, owner, play, out):
        """What are my chances with this hand?  Fix the owner's hand (and what else is
        known), deal the rest at random, play the deals and report P(win), the mean
        score with its 95% interval and the outcomes (players: --policy, or the strongest
        that fits --budget); where the owner has a choice at the
        start (Schnapsen's first lead, Wendish contracts, Dreiwendsch discards), every
        choice side by side on the same deals, the best marked with '*'.  Your own Python
        player plays as --policy MODULE:ATTR (docs/players-api.md); the owner's start is
        then its player's.

        \b
        Examples:
          tricksim hand schnapsen --hand "AH TH KH QH JC" --trump-card JH
          tricksim hand wendish --hand "QC QS QH JC AD TD AC AS"
          tricksim hand wendish --preset dreiwendsch --hand "QC QH JD AD TD 9D AS TS KS AH"
          tricksim hand wendish --preset officers --hand "QC JC AD TD AS AH KH 7C"
          tricksim hand schadenfreude --players 4 --hand "9C 9S 9H 8C 8S 10W 0W -3C"
        """
        run_hand(game, rule_choice.build(game), owner, play, out)

    return hand


def run_hand(game: str, rules, owner: OwnerHand, play: HandPlay, out) -> None:
    """``tricksim hand``: check the options, deal the rest of the owner's hand, play the
    deals (every start choice on the same deals) and print the answer."""
    from simcore.analysis.budget import Limits
    from simcore.analysis.positions import Question, budgeted, hand_play, parse_known, \
        split_policies, user_hand_play
    from simcore.players import player_names, uses_python
    from simcore.statistics.stats import check_output_path
    g = get_game(game)
    _positive(play.deals, "--deals")
    _seed_in_range(play.seed)
    check_budget(play.budget)
    threads = _threads(play.threads)
    if out is not None:
        from simcore.paths import check_file_path
        check_file_path(out, "--out")
        check_output_path(out)
    policy = play.policy
    user = policy is not None and uses_python(split_policies(g, policy))
    if policy is not None:                  # a bad --policy before any work
        player_names(g, rules, split_policies(g, policy))
    _note_cold_cache(game)
    mod = get_hand(game)
    su = mod.setup(rules, owner.seat, owner.dealer, owner.hand,
                   parse_known(owner.known, g.seats(rules)), trump_card=owner.trump_card,
                   takes_skat=owner.takes_skat)
    if user:            # game by game through the Engine, on this thread
        threads = 1
        if len(su.choices) > 1:
            su.notes.append("with a Python player the owner's start is its player's "
                            "(the start choices are compared with built-in players only)")
        su.choices = su.choices[:1]
    deal_play = (user_hand_play(g, mod, rules, su, play.seed, policy, play.player_timeout)
                 if user else hand_play(g, mod, rules, su, play.seed))
    ans = budgeted(g, rules, deal_play, policy, Limits(play.budget, threads, play.deals),
                   Question("deal", "this hand", lambda r: r[1][0],
                            f"P(win) of '{su.choices[0].label}'"))
    _print_hand(game, mod, su, ans, play.seed, out, threads)


def _print_hand(game: str, mod, su, ans, seed: int, out, threads: int) -> None:
    """Print ``hand``'s answer: who played, the deal's lines, every start choice's
    figures (the best marked), the notes and the best choice's outcomes (with ``out``
    also plotted there), then on stderr what was played in how long."""
    from simcore.analysis.positions import choice_table, distribution_table, \
        plot_outcomes, summarise
    scores, wins = ans.result[0], ans.result[1]
    deals = ans.samples
    labels = mod.labels(su, ans.result)
    results, best = summarise(labels, scores, wins)
    for line in ans.lines:
        click.echo(line)
    for line in su.lines:
        click.echo(line)
    click.echo(f"{counted(deals, 'deal')}, seed {seed}; {su.win_means}; {su.score_unit}")
    click.echo("")
    click.echo(choice_table(results, best, len(labels) > 1))
    if len(labels) > 1:
        click.echo("(* best mean score; every choice played on the same deals: 'vs best' "
                   "is the paired difference of the mean score)")
    for note in su.notes:
        click.echo(f"note: {note}")
    click.echo("")
    click.echo(distribution_table(scores[best], labels[best]))
    if out is not None:
        plot_outcomes(labels, scores, best, out, f"{game}: {su.lines[0]}"[:90])
        click.echo(f"wrote {out}")
    click.echo(f"{counted(deals, 'deal')} x {counted(len(labels), 'choice')} played "
               f"in {ans.seconds:.2f} s on {counted(threads, 'thread')}", err=True)


def register_analyse(cli, user_errors):
    """Add ``analyse`` to the ``tricksim`` group."""

    @cli.command()
    @click.argument("record_file", metavar="RECORD.jsonl", type=click.Path(dir_okay=False))
    @click.option("--index", type=int, default=0, show_default=True,
                  help="Which record of the file: from 0 in the file's order, blank lines "
                       "skipped, as `replay` numbers records.")
    @click.option("--deal", type=int, default=0, show_default=True,
                  help="Which deal of the record (from 0).")
    @click.option("--at", "at", type=int, required=True,
                  help="The position after this many actions of the deal (0: its start).")
    @click.option("--worlds", type=int, default=200, show_default=True,
                  help="Worlds sampled consistent with what the seat to move sees; without "
                       "--policy at most this many.")
    @click.option("--policy", default=None, metavar="P[,P...]",
                  help="Who plays each world out (default: the strongest that fits "
                       "--budget). " + players_help())
    @click.option("--budget", type=float, default=DEFAULT_BUDGET, show_default=True,
                  metavar="SECONDS",
                  help="Without --policy: the seconds to spend. The strongest player (the "
                       "game's pimc, then cheaper pimc settings, then expert, then heuristic) "
                       f"that plays --worlds worlds (at most {MIN_SEARCH_SAMPLES:,} needed for a "
                       f"pimc setting, {MIN_SAMPLES:,} for the others) in that time on one "
                       "thread is taken, timed by "
                       "a short pilot; the first lines say who played and how many worlds, and "
                       "whether cheaper players, on the same worlds, value the position "
                       "differently.")
    @click.option("--open", "exact", is_flag=True,
                  help="The exact open-card value of each action instead (all cards known, "
                       "as in the record).")
    @click.option("--seed", type=int, default=1, show_default=True,
                  help="Seed of the world sampling.")
    @user_errors
    @gather("where", RecordPosition)
    def analyse(record_file, where, worlds, policy, budget, exact, seed):
        """The position after action --at of deal --deal of record --index, seen by the
        seat to move: every legal action with its mean score and win rate over --worlds
        sampled worlds (each played out by --policy), or with --open its exact open-card
        value; the best marked '*', the record's own action '<'.  The record is
        replay-validated first (records of other programs that follow the contract work).

        \b
        Examples:
          tricksim simulate schnapsen --games 3 --seed 7 --policy heuristic --records s.jsonl
          tricksim analyse s.jsonl --index 1 --deal 0 --at 4
          tricksim analyse s.jsonl --index 1 --deal 0 --at 4 --open
        """
        from simcore.analysis.positions import (analyse_position, position_lines, position_table,
                                      read_record)
        index, deal, at = where.index, where.deal, where.at
        _positive(worlds, "--worlds", 100_000)
        _seed_in_range(seed)
        check_budget(budget)
        rec = read_record(record_file, index)
        _note_cold_cache(rec["game"])
        t0 = time.perf_counter()
        pos = analyse_position(rec, deal, at, policy, worlds, exact, seed, budget)
        took = time.perf_counter() - t0
        for line in pos.lines:
            click.echo(line)
        click.echo(f"{rec['game']} record {index}, deal {deal}, after {counted(at, 'action')}: "
                   f"seat {pos.seat} to move")
        for line in position_lines(rec, deal, at):
            click.echo(line)
        if pos.exact:
            click.echo("open-card values (every card known, as in the record), from seat "
                       f"{pos.seat}'s view")
        else:
            click.echo(f"{counted(pos.worlds, 'world')} consistent with seat {pos.seat}'s view "
                       f"({pos.tries:,} drawn), each played out by "
                       f"{pos.players}; "
                       "score and win as in "
                       f"'tricksim hand {rec['game']}'")
        click.echo(position_table(pos))
        click.echo("the record played: " + (pos.actual or "nothing more (the deal ends here)")
                   + ("" if pos.actual is None or pos.actual in pos.labels else
                      " (not valued here)"))
        click.echo(f"analysed in {took:.2f} s", err=True)
