"""``tricksim replay FILE --show``: one record as a readable account of the game."""
from __future__ import annotations

import click


def show(file, index) -> None:
    """Print the readable view of one record of ``file`` (the first, or the one whose
    ``index`` field is ``index``); a bad or missing record is one TricksimError line."""
    from simcore.analysis.show import pick_record, show_record

    line, record = pick_record(file, index)
    click.echo("\n".join(show_record(record, line)))
