"""Running: how a batch of games is played, cut into chunks, checkpointed and spread.

Holds the runner (``runner``), how a run is cut into chunks (``chunking``), the run
folder's checkpoints (``checkpoint``), the executors beside threads (``cluster``: Dask,
with its worker entry ``_dask_worker``), the settings one run is played with
(``settings``) and the progress counter commands read (``progress``).

May import: the core modules of ``simcore`` (registry, contract, records, folders,
errors, text, ...) and ``simcore.statistics``; never ``experiments``, ``analysis``, a
game by its module name, or the command line (checked by import-linter, see ``pyproject.toml``).
"""
