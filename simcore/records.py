"""Game records (JSON Lines): reading, dispatch to each game's replay, and checks
shared by all games.  The format is the records contract documented in
docs/records.md."""
from __future__ import annotations

import json
import math
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


#: the longest record line read; a long Schadenfreude game (100,000 rounds) takes
#: about 130 MB, so this allows any record tricksim writes while a file without
#: line breaks (``replay /dev/zero``) is refused after a bounded read
MAX_RECORD_BYTES = 1 << 28

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def check_numbers(record) -> None:
    """Refuse any number a record cannot hold: an integer outside the 64-bit range
    (the engine's arrays are int64) or a float that is not finite.  Runs before a
    game's replay sees the record; the error names where the number is."""
    stack = [(record, "")]
    while stack:
        value, where = stack.pop()
        if isinstance(value, dict):
            stack.extend((v, f"{where}.{k}" if where else str(k)) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((v, f"{where}[{i}]") for i, v in enumerate(value))
        elif isinstance(value, bool):
            continue
        elif isinstance(value, int) and not _INT64_MIN <= value <= _INT64_MAX:
            digits = len(str(abs(value)))
            shown = str(value) if digits <= 30 else f"an integer of {digits} digits"
            fail(f"'{where}' is {shown}, outside the 64-bit integer range "
                 f"({_INT64_MIN} to {_INT64_MAX}) a record allows")
        elif isinstance(value, float) and not math.isfinite(value):
            fail(f"'{where}' is {value}, not a finite number")


def replay_one(record) -> None:
    """Replay one parsed record; raise ReplayError at the first fault."""
    require(isinstance(record, dict), "a record must be a JSON object")
    name = record.get("game")
    require(isinstance(name, str) and name in REGISTRY,
            f"unknown game {name!r}; games: " + ", ".join(REGISTRY))
    check_numbers(record)
    try:
        get_game(name).replay(record)
    except ReplayError:
        raise
    except TricksimError as exc:  # e.g. a bad rules object or card name
        raise ReplayError(str(exc)) from None


def _reject_constant(name):
    raise ValueError(f"{name} is not a JSON number")


def parse_line(raw: bytes):
    """One record line (bytes) as a JSON value; ReplayError if it is not UTF-8 or not
    JSON (NaN and Infinity, which JSON does not have, included)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        fail(f"not UTF-8 text: byte 0x{raw[exc.start]:02x} at column {exc.start + 1}; "
             "records are UTF-8")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        fail(f"not valid JSON: {exc.msg} (column {exc.colno})")
    except ValueError as exc:
        fail(f"not valid JSON: {exc}")
    except RecursionError:
        fail("not a record: JSON nested too deeply")


def replay_file(path):
    """Replay every record of a JSON Lines file; returns (records, failures).

    Each line is decoded and parsed on its own, so a line that is not UTF-8 or
    not JSON fails as that record and the others are still replayed.  A line
    longer than ``MAX_RECORD_BYTES`` fails and ends the reading (the next line
    cannot be found without reading it all)."""
    failures = []
    count = 0
    try:
        fh = open(path, "rb")
    except OSError as exc:
        raise TricksimError(f"cannot read '{path}': {exc.strerror or exc}") from None
    except ValueError as exc:                  # e.g. a NUL byte in the path
        raise TricksimError(f"cannot read {str(path)!r}: {exc}") from None
    with fh:
        line_no = 0
        while True:
            try:
                raw = fh.readline(MAX_RECORD_BYTES + 1)
            except OSError as exc:
                raise TricksimError(f"cannot read '{path}': {exc.strerror or exc}") from None
            if not raw:
                break
            line_no += 1
            if len(raw) > MAX_RECORD_BYTES and not raw.endswith(b"\n"):
                count += 1
                failures.append(ReplayFailure(
                    line_no, f"longer than {MAX_RECORD_BYTES:,} bytes; allowed: one record "
                             f"per line of at most {MAX_RECORD_BYTES:,} bytes (the rest of "
                             "the file is not read)"))
                break
            if not raw.strip():
                continue
            count += 1
            try:
                replay_one(parse_line(raw))
            except ReplayError as exc:
                failures.append(ReplayFailure(line_no, str(exc), exc.deal, exc.action))
    return count, failures
