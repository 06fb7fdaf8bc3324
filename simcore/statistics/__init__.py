"""Statistics and plots: intervals, paired tests, verdicts and the result files of a run.

Holds ``stats`` (intervals, summaries, the run folder's tables), ``verdict`` (paired
comparisons worded as evidence, Holm's correction) and ``plots`` (matplotlib figures).

May import: the core modules of ``simcore`` that carry no kernels (errors, folders,
text, paths), numpy, pandas, scipy and matplotlib; never numba, the running layer, the
experiments or the analysis, and a game only through the registry (checked by
import-linter, see ``pyproject.toml``).
"""
