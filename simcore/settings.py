"""How a run is played, as one object passed from the CLI through the runner,
sweeps, comparisons and batches."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

#: names of the settings (the keyword arguments ``simulate`` and friends accept)
FIELDS = ("games", "seed", "threads", "chunk_size", "summary_only", "resume", "scheduler",
          "workers", "dashboard", "connect_timeout")


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
    ``simcore.cluster.open_executor``).
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

    def replace(self, **changes) -> "RunSettings":
        """A copy with some settings changed."""
        return dataclasses.replace(self, **changes)

    @property
    def on_cluster(self) -> bool:
        """Whether the chunks go to a Dask cluster."""
        return self.scheduler is not None or self.workers is not None


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
