"""``tricksim play GAME``: play one game in the terminal against the bots.

The game is stepped through the per-decision API (``simcore.engine``); the
bots choose with the same calls the batch run makes; the game's narrator
(``simcore/games/<game>/show.py``) words what the human's seat may know.
Input is read line by line from stdin, so a script (or a test) can play.
"""
from __future__ import annotations

import json
import secrets
import sys
from dataclasses import dataclass

import click

from cli.option_groups import RuleChoice, gather

from simcore.errors import TricksimError
from simcore.text import counted
from simcore.games import get_game, players_help
from simcore.pimc_names import split_policy_text
from simcore.players import PythonPlayer, decider, is_user_policy

HUMAN = "human"


def bot_policies(eng, policy: str | None, seat: int, default: str) -> list[str]:
    """One policy name per seat, ``human`` at ``seat``: ``policy`` is one name for
    every bot, or one per seat with ``human`` at the human's seat (None: the game's
    strongest player).  TricksimError (one line) for anything else."""
    n = eng.seats
    keys = get_game(eng.game).policy_parameter_keys
    names = split_policy_text(policy, keys) if policy else [default]
    if len(names) == 1:
        if names[0] == HUMAN:
            raise TricksimError(f"--policy names the bots' players; '{HUMAN}' is you "
                                "(--seat)")
        names = [names[0] if p != seat else HUMAN for p in range(n)]
    elif len(names) != n:
        raise TricksimError(f"--policy lists {counted(len(names), 'player')}, the game has "
                            f"{n} seats; "
                            f"give one name for every bot, or {n} names with '{HUMAN}' at "
                            f"your seat ({seat})")
    elif names[seat] != HUMAN or names.count(HUMAN) != 1:
        raise TricksimError(f"--policy lists one name per seat: put '{HUMAN}' at your seat "
                            f"({seat}, --seat) and only there; got {','.join(names)}")
    for p, name in enumerate(names):
        if p != seat and not is_user_policy(name):
            try:
                eng.check_policy(name)
            except ValueError as exc:
                raise TricksimError(f"--policy: {exc}") from None
    return names


def check_save(save: str | None, force: bool) -> None:
    """Refuse, before anything is played, a --save path that would overwrite a
    file without --force or that cannot be written safely."""
    if not save:
        return
    from simcore.statistics.stats import check_output_path
    how = check_output_path(save)
    if how == "replace" and not force:
        raise TricksimError(f"--save '{save}' exists; give --force to replace it, or "
                            "another name")


def read_choice(narr, eng, st, legal: list[int]) -> int | None:
    """The human's action, read from stdin until it names a legal one: a listed
    number, a short code (a card's name such as ``QC``) or the action's words,
    any case.  None for ``quit``; TricksimError at the end of the input."""
    labels = [narr.label(st, a) for a in legal]
    menu = "  ".join(f"{i + 1}) {lab}" for i, lab in enumerate(labels))
    click.echo(f"your choices: {menu}")
    while True:
        click.echo("> ", nl=False)
        line = sys.stdin.readline()
        if not sys.stdin.isatty():
            click.echo(line.rstrip("\n"))         # a transcript shows what was typed
        if not line:
            raise TricksimError("the input ended before the game did; nothing is saved "
                                "(type 'quit' to stop a game)")
        text = " ".join(line.split()).lower()
        if text == "quit":
            return None
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        for a, lab in zip(legal, labels):
            if text in (lab.lower(), eng.describe(a).lower()):
                return a
        click.echo(f"'{line.strip()}' is not a legal choice here; choose one of: {menu} "
                   "(the number or the code), or 'quit'")


def play_command(games, rule_options, user_errors, note_cold_cache):
    """The ``play`` command, built with the CLI's shared helpers (passed in by
    cli/main.py: this module does not import cli.main, which ``python -m cli.main``
    runs as ``__main__``, so importing it back would be circular)."""

    @click.command()
    @click.argument("game", type=games)
    @rule_options
    @click.option("--seat", type=int, default=0, show_default=True, help="Your seat (from 0).")
    @click.option("--policy", default=None,
                  help="The bots' player: one name for every bot, or one per seat with 'human' "
                       "at yours (e.g. human,heuristic,random,random); your own Python "
                       "player as MODULE:ATTR (docs/players-api.md)  [default: the game's "
                       "strongest player]. " + players_help())
    @click.option("--seed", type=int, default=None,
                  help="Run seed of the deal (drawn and printed if omitted).")
    @click.option("--index", type=int, default=0, show_default=True,
                  help="Game number within the seed's run: --seed S --index I deals what "
                       "`simulate --seed S` deals as game I.")
    @click.option("--save", type=click.Path(dir_okay=False), default=None,
                  help="At the end, write the game's record (one JSON line) to this file; "
                       "`tricksim replay FILE --show` and `tricksim analyse FILE` read it.  "
                       "Without --save you are asked for a file name at the end.")
    @click.option("--force", is_flag=True, help="Let --save replace an existing file.")
    @click.option("--no-save", "no_save", is_flag=True,
                  help="Don't ask at the end whether to save the record (for scripts).")
    @user_errors
    @gather("rule_choice", RuleChoice)
    @gather("saving", Saving)
    def play(game, rule_choice, seat, policy, seed, index, saving):
        """Play GAME in the terminal against the bots.

        Shows what your seat may see (your hand, the table, what is public) and
        lists your legal choices, numbered; type the number, the card's name
        (e.g. QC) or the action's words (e.g. close, marriage H), or 'quit'.
        Illegal or unknown input is refused with the choices listed again. The
        same --seed and --index deal the same first deal (later deals also depend
        on the random bots' draws).  Input is read line by line from stdin, so a
        script can play too.

        At the end, without --save, you are asked for a file name to save the
        game's record (an empty answer or the end of the input saves nothing; an
        existing file is replaced only if you confirm); --no-save skips the
        question.

        \b
        Examples:
          tricksim play schnapsen --seed 1
          tricksim play wendish --preset dreiwendsch --seat 2 --policy heuristic --save my.jsonl
          tricksim play schadenfreude --players 3 --policy human,random,heuristic
        """
        if saving.save and saving.no_save:
            raise TricksimError("--save and --no-save contradict each other; give one")
        return play_game(game, rule_choice, seat, policy, seed, index, saving,
                         note_cold_cache)

    return play


@dataclass(frozen=True)
class Saving:
    """What becomes of the game's record at the end (``--save``, ``--force``, ``--no-save``):
    written to ``save`` (an existing file replaced only with ``force``), or, without
    ``save``, the user asked for a file name unless ``no_save``."""

    save: str | None
    force: bool
    no_save: bool

    def check(self) -> None:
        """Refuse a --save path that cannot be written, before the game starts."""
        check_save(self.save, self.force)

    def finish(self, record: dict, seat: int) -> None:
        """Save the finished game's record as chosen (or ask where)."""
        if self.save:
            save_record(record, self.save)
            click.echo(f"saved the record to {self.save}")
            usage_lines(record, self.save, seat)
        elif not self.no_save:
            ask_and_save(record, seat)


def play_game(game: str, rule_choice: RuleChoice, seat: int, policy, seed, index: int,
              saving: Saving, note_cold_cache=None) -> None:
    """Play one game against the bots on stdin/stdout (what ``tricksim play`` does): at
    the end the record is saved as ``saving`` says.  TricksimError (one line) for bad
    options or input ending before the game does."""
    from simcore.analysis.show import narrator_class

    g = get_game(game)
    rules = rule_choice.build(game)
    eng = g.engine(rules)
    n = eng.seats
    if not 0 <= seat < n:
        raise TricksimError(f"--seat {seat} is not a seat of this game; allowed: 0 to {n - 1}")
    names = bot_policies(eng, policy, seat, g.contract(rules).strongest_policy)
    seats = [PythonPlayer.of(x) if p != seat and is_user_policy(x) else x
             for p, x in enumerate(names)]
    seed = _checked_deal(seed, index)
    saving.check()
    if note_cold_cache is not None:
        note_cold_cache(game)
    narr = narrator_class(game)(eng, viewer=seat)
    click.echo(f"{game}, seed {seed}, index {index}: you are seat {seat}; "
               + ", ".join(f"seat {p} {names[p]}" for p in range(n) if p != seat))
    click.echo("rules: " + rules.canonical())
    click.echo(narr.legend)
    click.echo("type the number of a choice, its code or 'quit'")
    st = eng.new(seed, index)
    deals = _play_deals(eng, narr, st, seat, decider(eng, seed, index, seats))
    if deals is None:
        click.echo("quit: the game is not finished, nothing is saved")
        return
    click.echo("")
    click.echo("\n".join(narr.result(st)))
    record = {"game": game, "rules": rules.to_dict(), "seed": int(seed), "index": int(index),
              "policies": names, "deals": deals, "result": eng.result(st)}
    saving.finish(record, seat)


def _checked_deal(seed, index: int) -> int:
    """The run seed (drawn if None) after checking it and the game index."""
    from simcore.running.runner import MAX_SEED
    if seed is None:
        seed = secrets.randbelow(MAX_SEED + 1)
    if not 0 <= seed <= MAX_SEED:
        raise TricksimError(f"--seed {seed} is not allowed; allowed: 0 to {MAX_SEED}")
    if not 0 <= index <= MAX_SEED:
        raise TricksimError(f"--index {index} is not allowed; allowed: 0 to {MAX_SEED}")
    return seed


def _play_deals(eng, narr, st, seat: int, decide) -> list | None:
    """Play the game from state ``st`` to its end: the human's choices read at ``seat``,
    the bots' from ``decide``, everything narrated as that seat may see it; the deals'
    records, or None if the human quit."""
    deals = []
    while True:
        start = eng.deal_start(st)
        actions = []
        click.echo("")
        click.echo("\n".join(narr.deal_start(st)))
        while not eng.deal_over(st):
            p = eng.to_move(st)
            if p == seat:
                click.echo("\n".join(narr.view(st, seat)))
                a = read_choice(narr, eng, st, narr.menu_order(st, eng.legal(st)))
                if a is None:
                    return None
            else:
                a = decide(st, p, len(deals), len(actions))
            item = eng.action_to_record(st, a)
            if item is not None:              # None: an action a record leaves implicit
                actions.append(item)
            before = st.copy()
            eng.apply(st, a)
            for line in narr.action(before, a, st):    # nothing the seat may not know
                click.echo(line)
        deals.append({"start": start, "actions": actions, "end": eng.deal_end(st)})
        click.echo("\n".join(narr.deal_end(st)))
        if eng.game_over(st):
            return deals
        eng.next_deal(st)


def save_record(record: dict, path) -> None:
    """Write ``record`` as one JSON line to ``path``, whole or not at all, after checking
    that it replays (as ``tricksim replay`` would); TricksimError (one line) if the path
    cannot be written."""
    from simcore.records import replay_one
    from simcore.statistics.stats import atomic_write

    replay_one(json.loads(json.dumps(record)))       # what is saved replays valid
    text = json.dumps(record, separators=(",", ":")) + "\n"

    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)

    atomic_write(path, write)


def usage_lines(record: dict, path, seat: int) -> None:
    """Print how to view and analyse a saved game: ``replay --show``, and ``analyse`` at
    the human's first card play (verb ``play`` in every game's records) of deal 0."""
    q = _quote(path)
    click.echo(f"  view it:    tricksim replay {q} --show")
    acts = record["deals"][0]["actions"]
    at = next((k for k, a in enumerate(acts) if a[0] == seat and a[1] == "play"), None)
    if at is not None:
        click.echo(f"  analyse it: tricksim analyse {q} --deal 0 --at {at}   (before your "
                   "first card)")


def _quote(path) -> str:
    import shlex
    return shlex.quote(str(path))


def _ask(question: str) -> str | None:
    """One answer line from stdin (stripped), None at the end of the input; the typed
    line is echoed when stdin is not a terminal, so a transcript shows it."""
    click.echo(question, nl=False)
    line = sys.stdin.readline()
    if not sys.stdin.isatty():
        click.echo(line.rstrip("\n"))
    return None if not line else line.strip()


def ask_and_save(record: dict, seat: int) -> None:
    """At the end of a game played without --save: ask for a file name until the record
    is saved or the user declines (an empty answer) or the input ends.  An existing file
    is replaced only when the user confirms; a path tricksim refuses (a folder, a link,
    a file it cannot write) gets one line and the question again."""
    from simcore.statistics.stats import check_output_path
    ended = "the input ended at the question: the record is not saved"
    while True:
        name = _ask("save the record? file name (empty: don't save): ")
        if name is None:
            click.echo(ended)
            return
        if not name:
            click.echo("not saved")
            return
        try:
            how = check_output_path(name)
        except TricksimError as exc:
            click.echo(f"{exc}; give another name, or nothing to skip")
            continue
        if how == "replace":
            yes = _ask(f"'{name}' exists; replace it? [y/N]: ")
            if yes is None:
                click.echo(ended)
                return
            if yes.lower() not in ("y", "yes"):
                click.echo(f"'{name}' is kept as it was; give another name, or nothing to "
                           "skip")
                continue
        try:
            save_record(record, name)
        except TricksimError as exc:
            click.echo(f"{exc}; give another name, or nothing to skip")
            continue
        click.echo(f"saved the record to {name}")
        usage_lines(record, name, seat)
        return
