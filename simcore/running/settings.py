"""How a run is played, as one object passed from the CLI through the runner,
sweeps, comparisons and batches."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

#: names of the settings (the keyword arguments ``simulate`` and friends accept)
FIELDS = ("games", "seed", "threads", "chunk_size", "summary_only", "resume", "scheduler",
          "workers", "dashboard", "connect_timeout", "player_timeout")


@dataclass(frozen=True)
class RunSettings:
    """How to play a run: how many games from which seed, where (numba threads, a
    local Dask cluster of ``workers`` processes or the one at ``scheduler``) and
    what to keep.

    games: games to play (per variant in a sweep, per rule set in a comparison);
    seed: the run's seed (None: drawn, or taken from the run folder being
    resumed); threads: numba threads (None: all); chunk_size: games per chunk
    (None: the default, or the resumed folder's); summary_only: keep running
    aggregates only; resume: continue an unfinished run folder of the same plan;
    scheduler / workers / dashboard / connect_timeout: the Dask cluster (see
    ``simcore.running.cluster.open_executor``); player_timeout: the seconds a Python
    player (``simcore.players``) may take for one decision (None: no limit).
    """

    games: int = 10_000
    seed: int | None = None
    threads: int | None = None
    chunk_size: int | None = None
    summary_only: bool = False
    resume: bool = True
    scheduler: str | None = None
    workers: int | None = None
    dashboard: bool = False
    connect_timeout: float | None = None
    player_timeout: float | None = 10.0

    def __post_init__(self):
        check_settings(self)

    def replace(self, **changes) -> "RunSettings":
        """A copy with some settings changed."""
        return dataclasses.replace(self, **changes)

    @property
    def on_cluster(self) -> bool:
        """Whether the chunks go to a Dask cluster."""
        return self.scheduler is not None or self.workers is not None


#: the largest game count and seed a run takes (the engine's 64-bit game index)
_MAX_INT64 = 2**63 - 1


def _whole(value, name: str, lo: int, hi: int, allow_none: bool) -> None:
    from ..errors import ApiError
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) and not _is_np_int(value):
        raise ApiError(f"{name} must be an integer{' or None' if allow_none else ''}, not "
                       f"{value!r} ({type(value).__name__})")
    if lo is not None and not lo <= int(value) <= hi:
        raise ApiError(f"{name} {int(value)} is not allowed; allowed: {lo} to {hi}")


def _is_np_int(value) -> bool:
    import numpy as np
    return isinstance(value, np.integer)


def check_settings(s: "RunSettings") -> None:
    """ApiError (a TricksimError) naming the first setting of the wrong type, or a game
    count out of range (the other ranges are checked where a run starts, with the
    CLI's wording: the thread count depends on the machine, the seed on a resumed run)."""
    from ..errors import ApiError
    _whole(s.games, "games", None, None, False)
    if not 1 <= int(s.games) <= _MAX_INT64:
        raise ApiError(f"--games {int(s.games)} is not allowed; allowed: a positive integer, "
                       f"at most 2**63 - 1 = {_MAX_INT64}")
    for name in ("seed", "threads", "chunk_size", "workers"):
        _whole(getattr(s, name), name, None, None, True)
    for name in ("summary_only", "resume", "dashboard"):
        if not isinstance(getattr(s, name), (bool, type(None))):
            raise ApiError(f"{name} must be True or False, not {getattr(s, name)!r}")
    if s.player_timeout is not None and (isinstance(s.player_timeout, bool) or not isinstance(
            s.player_timeout, (int, float)) or not s.player_timeout > 0):
        raise ApiError(f"player_timeout must be a number of seconds above 0 or None, not "
                       f"{s.player_timeout!r}")
    if s.scheduler is not None and not isinstance(s.scheduler, str):
        raise ApiError(f"scheduler must be an address string such as 'tcp://HOST:8786', "
                       f"not {s.scheduler!r}")


def settings_from(settings: RunSettings | None, **given) -> RunSettings:
    """``settings`` (default: the defaults) with the keyword arguments that were
    given (not None-by-default leftovers) laid over it; an unknown name is a
    TypeError, as for any function."""
    unknown = set(given) - set(FIELDS)
    if unknown:
        raise TypeError(f"unknown run setting(s): {', '.join(sorted(unknown))}; "
                        f"known: {', '.join(FIELDS)}")
    base = settings or RunSettings()
    changes = {k: v for k, v in given.items() if v is not _UNSET}
    return base.replace(**changes) if changes else base


class _Unset:
    def __repr__(self):
        return "UNSET"


#: the default of a keyword argument that was not given
_UNSET = _Unset()
UNSET = _UNSET
