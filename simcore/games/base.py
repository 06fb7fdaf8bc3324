"""What every game provides to the runner, the statistics, the records and the CLI.

A game is one package whose ``GameEntry`` hands over a ``GAME`` object that follows
this interface (``simcore.protocols.GameProtocol``), registered by one
``simcore.games.register_game`` call (docs/adding-a-game.md).

Chunks: ``run_chunk`` plays games ``start .. start+count-1`` and returns a
dict of *tables*: ``{"games": {column: array}, ...}``; every table's columns
are numpy arrays of equal length (2-D arrays of shape (rows, seats) for
per-seat values).  ``games`` has one row per game, in index order; a game
may add others (Schnapsen: ``deals``).  ``aggregate`` reduces a chunk to
additive sums (numbers or numpy arrays) so that a run's summary needs
constant memory; ``summarize`` turns the summed aggregates into frames.

Summary-only chunks: ``run_chunk(..., summary_only=True)`` builds no tables;
the game's kernels sum the chunk's aggregates as they play (per-block
accumulators in the parallel loop, then one small reduction) and return
``{"aggregates": {...}}``, which ``aggregate`` passes through.  Those
aggregates must equal ``aggregate`` of the chunk's tables exactly (same keys,
types, dtypes and values: ``tests/test_summary_only.py``), so a run's summary
is the same bit for bit with or without ``--summary-only`` and the chunk files
of a checkpointed run hold the same numbers either way.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import RulesError
from ..options import RuleBook, RuleSet


class Game:
    """Base class of a game; subclasses fill in the abstract parts."""

    name: str = ""
    rulebook: RuleBook
    policies: tuple[str, ...] = ("random",)
    description: str = ""
    #: cheap settings of the game's searching policies (``pimc:worlds=2``) that the
    #: conformance test plays on a few games; empty when no player searches
    search_policies: tuple[str, ...] = ()

    def policy_help(self) -> list[str]:
        """One line per policy: its name, its parameters with their defaults and what
        it does (``tricksim rules GAME`` prints these; from ``<game>/players.py``)."""
        from . import get_policy_help
        return get_policy_help(self.name)

    # ----- rules -------------------------------------------------------
    def build_rules(self, preset=None, rules_file=None, assignments=(), players=None) -> RuleSet:
        """A validated rule set from a preset, a TOML file, ``--set`` pairs and ``--players``."""
        from ..errors import ApiError
        if isinstance(assignments, (str, bytes)):
            raise ApiError(f"assignments must be a list of 'NAME=VALUE' strings, not one "
                           f"string: write [{assignments!r}]")
        if isinstance(players, bool) or players is not None and not isinstance(players, int):
            raise ApiError(f"players must be an integer or None, not {players!r}")
        overrides = {}
        if players is not None:
            if "players" in self.rulebook.options:
                overrides["players"] = players
        rules = self.rulebook.build(preset, rules_file, assignments, overrides)
        if players is not None and "players" not in self.rulebook.options \
                and players != self.seats(rules):
            raise RulesError(f"{self.name} with these rules is played by {self.seats(rules)} "
                             f"players, not {players}")
        return rules

    def seats(self, rules: RuleSet) -> int:
        """Number of seats (players) under ``rules``."""
        raise NotImplementedError

    #: keys of the parameters a searching player takes in its name
    #: (``pimc:worlds=8,goal=deal``): a policy list split at their commas is joined back
    policy_parameter_keys: tuple[str, ...] = ()

    def parse_policy(self, name: str) -> int:
        """The kernel id of policy ``name``; ValueError naming what is allowed."""
        if name not in self.policies:
            raise ValueError(f"unknown policy '{name}' for {self.name}; policies: "
                             + ", ".join(self.policies))
        return self.policies.index(name)

    def policy_name(self, pid: int) -> str:
        """The canonical name of kernel id ``pid``."""
        return self.policies[pid]

    def policy_ids(self, names, rules: RuleSet) -> tuple[list[str], np.ndarray]:
        """Resolve a policy list (one name for every seat, or one per seat): canonical
        names and kernel ids."""
        from ..players import is_user_policy
        names = self.policy_names(names, rules)
        for s in names:
            if is_user_policy(s):
                raise RulesError(f"'{s}' is a Python player (MODULE:ATTR); Python players "
                                 "run in simulate, sweep, compare, hand, tournament, play and "
                                 "analyse, driven from Python, not in this command's batch "
                                 "kernels")
        try:
            ids = [self.parse_policy(s) for s in names]
        except ValueError as e:
            raise RulesError(str(e)) from None
        return [self.policy_name(i) for i in ids], np.array(ids, dtype=np.int64)

    def policy_names(self, names, rules: RuleSet) -> list[str]:
        """A policy list (the CLI's comma-separated text or a list; one name for every
        seat, or one per seat) as one name per seat, ``pimc`` parameters joined back;
        RulesError if the count does not fit.  The names themselves are not checked."""
        from ..pimc_names import join_pimc_parameters
        n = self.seats(rules)
        if isinstance(names, str):          # the CLI's form: one name or a comma list
            names = names.split(",")
        if names is not None and not all(isinstance(s, str) for s in names):
            raise RulesError(f"policies must be policy names (strings), one for every seat "
                             f"or one per seat, not {names!r}; policies: "
                             + ", ".join(self.policies))
        names = [s.strip() for s in names] if names else ["random"]
        names = join_pimc_parameters(names, self.policy_parameter_keys)
        if len(names) == 1:
            names = names * n
        if len(names) != n:
            raise RulesError(f"--policy lists {len(names)} players but {self.name} with these "
                             f"rules has {n} seats; give one name or {n} comma-separated names")
        return names

    # ----- play --------------------------------------------------------
    def run_chunk(self, rules: RuleSet, policy_ids: np.ndarray, seed: int, start: int,
                  count: int, summary_only: bool = False) -> dict[str, dict[str, np.ndarray]]:
        """Play ``count`` games from index ``start`` (numba threads in parallel); with
        ``summary_only`` only their aggregates, ``{"aggregates": {...}}`` (see above)."""
        raise NotImplementedError

    def played_chunk(self, rules: RuleSet, start: int, scored: list) -> dict:
        """``run_chunk``'s tables (not summary-only) for games ``start ..`` played outside
        the kernels (Python players, ``simcore.players``): ``scored[g]`` holds game
        ``start + g``'s scored states, one per deal (``Engine._play``'s ``scored``), the
        last at the game's end.  ``aggregate``, ``summarize`` and ``frames`` take it as
        they take a kernel chunk."""
        raise NotImplementedError

    def numba_kernels(self, rules: RuleSet):
        """The game's side of a run with a user's numba player in some seats: a
        ``simcore.numba_players.NumbaKernels`` (cached kernels that start a game, play
        the built-in seats up to the numba player's turn writing the deal rows
        ``run_chunk`` writes, write the seat's observation, apply an action; and the
        chunk's tables from those rows)."""
        raise NotImplementedError

    def aggregate(self, chunk: dict, rules: RuleSet) -> dict[str, Any]:
        """Additive sums of a chunk (summed over chunks by the runner); a summary-only
        chunk's ``aggregates`` as they are."""
        raise NotImplementedError

    def summarize(self, agg: dict, rules: RuleSet, policies: list[str]) -> dict:
        """Frames from summed aggregates: at least ``seats`` (one row per seat) and
        ``game`` (columns metric, value, low, high)."""
        raise NotImplementedError

    def game_metrics(self, summary: dict, rules: RuleSet):
        """Game-level figures of a summary as one metric frame (metric, value, low,
        high): the sections the contract declares; sweeps tabulate and plot these
        per variant."""
        import pandas as pd
        sections = self.contract(rules).metric_sections
        return pd.concat([summary[name] for name in sections if name in summary],
                         ignore_index=True)

    def contract(self, rules: RuleSet):
        """What generic code (fairness, sweeps, comparisons, plots) needs from the
        game under ``rules``: a ``simcore.contract.GameContract``."""
        raise NotImplementedError

    def engine(self, rules: RuleSet):
        """The per-decision Python API under ``rules`` (see ``simcore.engine``)."""
        raise NotImplementedError

    def records(self, rules: RuleSet, policies: list[str], policy_ids: np.ndarray, seed: int,
                start: int, count: int) -> list[dict]:
        """The records of games ``start .. start+count-1`` of run ``seed``."""
        raise NotImplementedError

    def records_jsonl(self, rules: RuleSet, policies: list[str], policy_ids: np.ndarray,
                      seed: int, start: int, count: int, script=None) -> bytes:
        """The same records as JSON Lines: UTF-8 bytes, one compact line per record
        (``json.dumps(record, separators=(",", ":"))``), each ending in a newline.

        A run with a user's numba player (``simcore.numba_players``) gives its part as a
        ``simcore.records.Script``: the seats it plays, its actions in each game as its
        batch loop logged them (the logging kernels play them in those seats,
        ``simcore.records.scripted``) and the games' final states (for a game whose
        logging needs its outcome first)."""
        raise NotImplementedError

    def frames(self, chunk: dict, rules: RuleSet, policies: list[str]) -> dict:
        """Chunk tables as pandas frames (``games`` and any extra table)."""
        raise NotImplementedError

    # ----- records -----------------------------------------------------
    def record(self, rules: RuleSet, policies: list[str], policy_ids: np.ndarray, seed: int,
               index: int) -> dict:
        """The record (records contract) of game ``index`` of run ``seed``."""
        raise NotImplementedError

    def replay(self, record: dict) -> None:
        """Check a record action by action; raise ReplayError at the first fault."""
        raise NotImplementedError
