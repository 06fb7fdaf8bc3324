"""How a run is cut into chunks: by count for fast players, by cost for searching ones.

A chunk is the unit a run is checkpointed, resumed and spread over threads and Dask
workers in, so its boundaries are part of the run's identity (``RunPlan.chunk_size``,
recorded in ``run.json``).  They are therefore fixed by the command alone (game,
rules, players), never by timing: the same command always gives the same plan, and a
resumed run finds its chunk files.  An explicit ``--chunk-size`` wins.

- Players that do not search cost about a microsecond a game: chunks of
  ``DEFAULT_CHUNK`` games (the kernels' batch size) as before.
- A run where some seat searches (``pimc``) gets chunks of about ``CHUNK_SECONDS`` of
  one core's work, from the players' own estimate (each game's players declare
  ``search_seconds(names, rules)``: pimc's worlds times a per-game constant).  Such
  chunks are played several at a time, one per thread (``cluster.LocalExecutor``) or
  per Dask worker, so every thread has work, progress comes every few seconds, and a
  kill -9 loses at most the chunks in flight.  Results do not depend on the plan: each
  game's randomness derives from (seed, game index) alone, and the summary is the sum
  of the chunks' additive aggregates in chunk order.

What finishing chunks teach (the measured rate) refines the ETA only.
"""
from __future__ import annotations

import re

#: games per chunk when no player searches (the kernels' batch size)
DEFAULT_CHUNK = 1 << 16
#: one core's seconds of work a searching run's chunk is sized to
CHUNK_SECONDS = 2.0

_WORLDS = re.compile(r"(?:^pimc:|,)worlds=(\d+)")


def pimc_worlds(name: str, default: int) -> int | None:
    """The worlds of a canonical ``pimc`` policy name (``pimc:worlds=8,goal=deal`` -> 8),
    ``default`` for a bare ``pimc``; None for a player that does not search."""
    if not name.startswith("pimc"):
        return None
    m = _WORLDS.search(name)
    return int(m[1]) if m else default


def search_seconds(game: str, names, rules=None) -> float:
    """One core's seconds a game of ``game`` under ``rules`` (None: the default preset)
    costs with these (canonical) players, as the game's players estimate it
    (``search_seconds``); 0.0 when no seat searches."""
    from ..registry import get_players, get_rulebook
    if rules is None:
        rules = get_rulebook(game).build()
    return float(get_players(game).search_seconds(list(names), rules))


def cost_chunk_size(seconds_per_game: float, target: float | None = None) -> int:
    """Games per chunk for a run whose games cost ``seconds_per_game`` each on one core:
    about ``target`` seconds of work (default ``CHUNK_SECONDS``), at least 1, at most
    ``DEFAULT_CHUNK``."""
    if not seconds_per_game > 0:
        return DEFAULT_CHUNK
    target = CHUNK_SECONDS if target is None else target
    return max(1, min(DEFAULT_CHUNK, round(target / seconds_per_game)))


def planned_chunk_size(game: str, names, rules=None) -> int:
    """The chunk size of a run of ``game`` with players ``names`` when the command gives
    none: ``DEFAULT_CHUNK`` if no seat searches, else sized by cost (see above)."""
    return cost_chunk_size(search_seconds(game, names, rules))


def searches(game: str, names, rules=None) -> bool:
    """Whether some seat among ``names`` searches: its games cost far more than a
    kernel call's overhead, so chunks are sized by cost and played one per thread."""
    return search_seconds(game, names, rules) > 0
