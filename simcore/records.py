"""Game records (JSON Lines): reading, dispatch to each game's replay, and checks
shared by all games.  The format is the records contract documented in
docs/records.md."""
from __future__ import annotations

import json
import math
import numbers
from dataclasses import dataclass

import numpy as np

from .errors import ReplayError, TricksimError
from .text import counted
from .registry import REGISTRY, get_game


@dataclass(frozen=True)
class Script:
    """A numba player's part of a run, for the records (``Game.records_jsonl``): the
    seats it plays (``user``, bool per seat), its actions in each game as its batch loop
    logged them (``actions``, int16, a row per game) and the games' final states
    (``finals``, for a game whose logging needs its outcome first; None if not)."""

    user: np.ndarray
    actions: np.ndarray
    finals: np.ndarray | None = None


def scripted(seats: int, count: int, user=None, script=None) -> tuple:
    """The ``user`` and ``script`` arguments of a game's logging kernels: which seats
    play a numba player's logged actions (bool per seat) and each game's actions of
    them in turn (int16, a row per game), as ``simcore.numba_players`` logs them; by
    default no such seat (an empty script: the kernels' types stay the same, so they
    compile once for both uses)."""
    if user is None:
        return np.zeros(seats, np.bool_), np.zeros((count, 0), np.int16)
    return np.asarray(user, np.bool_), np.ascontiguousarray(script, np.int16)


@dataclass
class ReplayFailure:
    """One record that did not replay: where and why."""

    line: int
    message: str
    deal: int | None = None
    action: int | None = None
    #: the record's number in the file, from 0 (blank lines skipped), as ``analyse
    #: --index`` counts records; None: unknown (the line alone is named)
    record: int | None = None

    def __str__(self):
        where = record_label(self.record, self.line)
        if self.deal is not None:
            where += f", deal {self.deal}"
        if self.action is not None:
            where += f", action {self.action}"
        return f"{where}: {self.message}"


def record_label(number: int | None, line: int | None) -> str:
    """How a record of a file is named in messages: its number from 0 (blank lines
    skipped; ``analyse --index`` takes it) and its line from 1, as an editor counts:
    ``record 0 (line 1)``."""
    if number is None:
        return f"line {line}" if line is not None else "the record"
    return f"record {number}" + (f" (line {line})" if line is not None else "")


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
                f"'policies' names {counted(len(record['policies']), 'seat')}, the rules have "
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
        elif isinstance(value, float):
            if not math.isfinite(value):
                fail(f"'{where}' is {value}, not a finite number")
            fail(f"'{where}' is {value!r}, a number with a fraction or exponent; a record's "
                 "numbers are integers (write 3, not 3.0)")


def _kind(value) -> str:
    """The JSON type of a value, as named in a mismatch."""
    if value is None:
        return "null"
    if isinstance(value, (bool, np.bool_)):
        return "a boolean"
    if isinstance(value, numbers.Integral):
        return "an integer"
    if isinstance(value, float):
        return "a float"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def _shown(value) -> str:
    """A value as JSON, cut to 60 characters."""
    text = json.dumps(value, default=lambda v: v.item() if hasattr(v, "item") else repr(v))
    return text if len(text) <= 60 else text[:57] + "..."


def first_difference(got, want, where: str) -> str | None:
    """Where a record's value ``got`` first differs from the engine's ``want``, as one
    sentence naming the field (``end.card_points[1] is 40; the rules give 41``), or
    None if they agree.  JSON types are strict: ``true`` is not ``1`` and ``"3"`` is
    not ``3``.  Keys of ``got`` that ``want`` does not have are ignored (a reader
    ignores keys it does not know)."""
    if isinstance(want, dict):
        if not isinstance(got, dict):
            return f"{where} is {_shown(got)} ({_kind(got)}); the rules give an object"
        for key, value in want.items():
            if key not in got:
                return f"{where} is missing '{key}' (the rules give {_shown(value)})"
            diff = first_difference(got[key], value, f"{where}.{key}")
            if diff:
                return diff
        return None
    if isinstance(want, list):
        if not isinstance(got, list):
            return f"{where} is {_shown(got)} ({_kind(got)}); the rules give {_shown(want)}"
        if len(got) != len(want):
            return (f"{where} holds {counted(len(got), 'value')}; the rules give {len(want)}: "
                    f"{_shown(want)}")
        for i, (g, w) in enumerate(zip(got, want)):
            diff = first_difference(g, w, f"{where}[{i}]")
            if diff:
                return diff
        return None
    if _kind(got) != _kind(want):
        return f"{where} is {_shown(got)} ({_kind(got)}); the rules give {_shown(want)}"
    if got != want:
        return f"{where} is {_shown(got)}; the rules give {_shown(want)}"
    return None


def require_same(got, want, where: str, deal=None, action=None) -> None:
    """``fail`` naming the first field where ``got`` differs from ``want``."""
    diff = first_difference(got, want, where)
    if diff:
        fail(diff, deal, action)


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


def record_lines(path):
    """The lines of a JSON Lines file as ``(line number, raw bytes, too_long)``, read at
    most ``MAX_RECORD_BYTES`` at a time (``too_long``: the line is longer, and the next
    line cannot be found without reading it all, so a caller stops there). TricksimError
    in one line when the file cannot be opened or read."""
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
                return
            line_no += 1
            yield line_no, raw, len(raw) > MAX_RECORD_BYTES and not raw.endswith(b"\n")


def replay_file(path):
    """Replay every record of a JSON Lines file; returns (records, failures).
    A file without a record (empty, or blank lines only) is a TricksimError.

    Each line is decoded and parsed on its own, so a line that is not UTF-8 or
    not JSON fails as that record and the others are still replayed.  A line
    longer than ``MAX_RECORD_BYTES`` fails and ends the reading (the next line
    cannot be found without reading it all)."""
    failures = []
    count = 0
    for line_no, raw, too_long in record_lines(path):
        if too_long:
            count += 1
            failures.append(ReplayFailure(
                line_no, f"longer than {MAX_RECORD_BYTES:,} bytes; allowed: one record "
                         f"per line of at most {MAX_RECORD_BYTES:,} bytes (the rest of "
                         "the file is not read)", record=count - 1))
            break
        if not raw.strip():
            continue
        count += 1
        try:
            replay_one(parse_line(raw))
        except ReplayError as exc:
            failures.append(ReplayFailure(line_no, str(exc), exc.deal, exc.action,
                                          count - 1))
    if count == 0:
        raise TricksimError(f"'{path}' holds no records; allowed: a JSON Lines file of one "
                            "or more records, one per line")
    return count, failures
