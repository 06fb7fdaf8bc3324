"""Game records (JSON Lines): reading, dispatch to each game's replay, and checks
shared by all games.  The format is the records contract documented in
docs/records.md."""
from __future__ import annotations

import json
from dataclasses import dataclass

from .errors import ReplayError, TricksimError
from .games import REGISTRY, get_game


@dataclass
class ReplayFailure:
    """One record that did not replay: where and why."""

    line: int
    message: str
    deal: int | None = None
    action: int | None = None

    def __str__(self):
        where = f"record {self.line}"
        if self.deal is not None:
            where += f", deal {self.deal}"
        if self.action is not None:
            where += f", action {self.action}"
        return f"{where}: {self.message}"


def fail(message, deal=None, action=None):
    """Raise a ReplayError naming the deal and action (both counted from 0)."""
    raise ReplayError(message, deal, action)


def require(cond, message, deal=None, action=None):
    """``fail`` unless ``cond``."""
    if not cond:
        fail(message, deal, action)


def parse_cards(value, parse_card, what, deal=None, action=None) -> list[int]:
    """Card ids of a record's list of card names, or a ReplayError naming ``what``."""
    require(isinstance(value, list), f"{what} must be a list of cards", deal, action)
    try:
        return [parse_card(c) for c in value]
    except TricksimError as exc:
        fail(f"{what}: {exc}", deal, action)


def check_common(record, seats_expected=None):
    """Checks every game's record needs: its top-level keys and their types."""
    require(isinstance(record, dict), "a record must be a JSON object")
    for key in ("game", "rules", "seed", "index", "policies", "deals", "result"):
        require(key in record, f"missing key '{key}'")
    require(isinstance(record["seed"], int) and not isinstance(record["seed"], bool)
            and record["seed"] >= 0, "'seed' must be a non-negative integer")
    require(isinstance(record["index"], int) and not isinstance(record["index"], bool)
            and record["index"] >= 0, "'index' must be a non-negative integer")
    require(isinstance(record["deals"], list) and record["deals"], "'deals' must be a "
            "non-empty list")
    require(isinstance(record["policies"], list)
            and all(isinstance(p, str) for p in record["policies"]),
            "'policies' must be a list of names")
    if seats_expected is not None:
        require(len(record["policies"]) == seats_expected,
                f"'policies' names {len(record['policies'])} seats, the rules have "
                f"{seats_expected}")
    require(isinstance(record["result"], dict), "'result' must be an object")


def replay_one(record) -> None:
    """Replay one parsed record; raise ReplayError at the first fault."""
    require(isinstance(record, dict), "a record must be a JSON object")
    name = record.get("game")
    require(name in REGISTRY, f"unknown game {name!r}; games: " + ", ".join(REGISTRY))
    try:
        get_game(name).replay(record)
    except ReplayError:
        raise
    except TricksimError as exc:  # e.g. a bad rules object or card name
        raise ReplayError(str(exc)) from None


def replay_file(path):
    """Replay every record of a JSON Lines file; returns (records, failures)."""
    failures = []
    count = 0
    try:
        fh = open(path, encoding="utf-8")
    except OSError as exc:
        raise TricksimError(f"cannot read '{path}': {exc.strerror or exc}") from None
    with fh:
        for line_no, line in enumerate(fh, 1):
            if not line.strip():
                continue
            count += 1
            try:
                record = json.loads(line)
            except json.JSONDecodeError as exc:
                failures.append(ReplayFailure(line_no, f"not valid JSON: {exc.msg} "
                                                       f"(column {exc.colno})"))
                continue
            try:
                replay_one(record)
            except ReplayError as exc:
                failures.append(ReplayFailure(line_no, str(exc), exc.deal, exc.action))
    return count, failures
