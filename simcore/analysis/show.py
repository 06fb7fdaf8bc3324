"""A readable view of one game record, and the narration `tricksim play` prints.

Generic: picking a record from a JSON Lines file, checking it as ``replay``
does, stepping it through its game's engine and handing each step to the
game's narrator (its registry entry's ``narrator``: a ``Narrator`` class that
turns deal starts, actions, deal ends and the result into lines of text).
Nothing here knows a game's cards or phases.
"""
from __future__ import annotations

from ..errors import ReplayError, TricksimError
from ..registry import REGISTRY, get_game, get_narrator
from ..records import MAX_RECORD_BYTES, parse_line, record_label, record_lines, replay_one
from ..text import counted


def narrator_class(game: str):
    """The ``Narrator`` class of ``game`` (as its registry entry hands it over)."""
    return get_narrator(game)


def pick_record(path, index: int | None = None) -> tuple[str, object]:
    """The record to show from a JSON Lines file, as (its name in messages, parsed
    JSON): ``record N (line L)``, N counted from 0 as ``analyse --index`` counts.

    ``index`` None: the first record of the file (its first non-blank line).
    Otherwise the first record whose ``"index"`` field equals ``index`` (the game's
    number in its run: ``simulate --seed S`` plays it as game ``index``); lines that
    are not JSON objects are passed over in that search.  TricksimError (one line)
    when the file cannot be read, holds no record, or no record has that index; a
    ReplayError when the first record is not JSON."""
    seen: list[int] = []
    count = 0
    for line_no, raw, too_long in record_lines(path):
        if too_long:
            raise TricksimError(f"'{path}' line {line_no} is longer than "
                                f"{MAX_RECORD_BYTES:,} bytes; allowed: one record per "
                                "line of at most that length")
        if not raw.strip():
            continue
        count += 1
        if index is None:
            try:
                return record_label(count - 1, line_no), parse_line(raw)
            except ReplayError as exc:
                raise TricksimError(f"{record_label(count - 1, line_no)}: {exc}") \
                    from None
        try:
            rec = parse_line(raw)
        except ReplayError:
            continue
        got = rec.get("index") if isinstance(rec, dict) else None
        if isinstance(got, int) and not isinstance(got, bool):
            if got == index:
                return record_label(count - 1, line_no), rec
            seen.append(got)
    if count == 0:
        raise TricksimError(f"'{path}' holds no records; allowed: a JSON Lines file of one "
                            "or more records, one per line")
    if not seen:
        have = "no record there has an 'index'"
    else:
        have = "indices there: " + _ranges(sorted(set(seen)))
    raise TricksimError(f"no record with index {index} in '{path}'; {have}")


def _ranges(values: list[int]) -> str:
    """``0-9, 12, 20-21`` for sorted integers (at most eight runs shown)."""
    runs: list[list[int]] = []
    for v in values:
        if runs and v == runs[-1][1] + 1:
            runs[-1][1] = v
        else:
            runs.append([v, v])
    text = [f"{a}" if a == b else f"{a}-{b}" for a, b in runs[:8]]
    return ", ".join(text) + (", ..." if len(runs) > 8 else "")


def engine_for(record: dict):
    """The per-decision engine of a (checked) record's game under its rules."""
    g = get_game(record["game"])
    return g.engine(g.rulebook.from_dict(record["rules"]))


def show_record(record, line: int | str | None = None) -> list[str]:
    """The lines of a readable view of one record: its header, every deal (start,
    announcements, tricks with their winners, end) and the result.  The record is
    first checked as ``replay`` checks it; a fault is a TricksimError of one line
    naming the record (``line``: its name from ``pick_record``, or a line number), deal
    and action."""
    try:
        if not isinstance(record, dict):
            raise ReplayError("a record must be a JSON object")
        if record.get("game") not in REGISTRY:
            raise ReplayError(f"unknown game {record.get('game')!r}; games: "
                              + ", ".join(REGISTRY))
        replay_one(record)
    except ReplayError as exc:
        where = (line if isinstance(line, str) else
                 f"line {line}" if line is not None else "the record")
        if exc.deal is not None:
            where += f", deal {exc.deal}"
        if exc.action is not None:
            where += f", action {exc.action}"
        raise TricksimError(f"{where}: {exc} (replay checks it; --show shows valid "
                            "records only)") from None
    eng = engine_for(record)
    narr = narrator_class(record["game"])(eng)
    seats = len(record["policies"])
    out = [f"{record['game']}: seed {record['seed']}, index {record['index']}, "
           + counted(len(record['deals']), narr.deal_word),
           "rules: " + eng.rules.canonical(),
           "players: " + ", ".join(f"seat {p} {record['policies'][p]}" for p in range(seats)),
           narr.legend]
    st = None
    deals = record["deals"]
    for d, dj in enumerate(deals):
        if st is not None and not eng.game_over(st):
            eng.next_deal(st)
            if eng.deal_start(st) != dj["start"]:
                st = None
        if st is None or d == 0:
            st = eng.from_record(record, deal=d, upto=0)
        out.append("")
        out.extend(narr.deal_start(st))
        for k, item in enumerate(dj["actions"]):
            a = eng.action_from_record(st, item)
            before = st.copy()
            eng.apply(st, a)
            out.extend(numbered(k, narr.action(before, a, st)))
        if not eng.deal_over(st):              # an ending a record leaves implicit
            st = eng.from_record(record, deal=d)
        out.extend(narr.deal_end(st))
    out.append("")
    out.extend(narr.result(st))
    return out


class NarratorBase:
    """What every game's ``Narrator`` shares.  ``viewer`` None narrates as an
    onlooker who sees every card (``replay --show``); a seat number narrates what
    that seat may know (``play``), calling it "you"."""

    #: what the game calls one deal ("deal", Schadenfreude's "round")
    deal_word = "deal"
    #: one line saying how cards are written
    legend = ""

    def __init__(self, eng, viewer: int | None = None):
        self.eng = eng
        self.viewer = viewer

    def who(self, seat: int) -> str:
        """``seat 2``, or ``you`` for the viewer's seat."""
        return "you" if self.viewer is not None and seat == self.viewer else f"seat {seat}"

    def sees(self, seat: int) -> bool:
        """Whether the narration may show ``seat``'s hidden cards."""
        return self.viewer is None or seat == self.viewer

    def label(self, state, action: int) -> str:
        """The short code a player types for ``action`` (default: its description)."""
        return self.eng.describe(action)

    def card_key(self, state, name: str):
        """Where the card ``name`` goes in a hand as shown (default: as the engine lists
        cards).  A game's narrator sorts by suit, then rank, as its players do."""
        return 0

    def sorted_cards(self, state, names) -> list[str]:
        """Card names in the order hands are shown (``card_key``), everywhere the
        narration lists a hand: as dealt, before a move, cards drawn or turned up."""
        return sorted(names, key=lambda c: self.card_key(state, c))

    def card_of(self, action: int) -> str | None:
        """The card an action plays or puts away (its name), None for other actions."""
        return None

    def menu_order(self, state, legal) -> list[int]:
        """The legal actions as the choices menu lists them: the cards in the hand's
        order (so choice 1 is the hand's first playable card), then the other actions
        in the engine's order."""
        cards_ = [a for a in legal if self.card_of(a) is not None]
        rest = [a for a in legal if self.card_of(a) is None]
        return sorted(cards_, key=lambda a: self.card_key(state, self.card_of(a))) + rest


def numbered(k: int | None, lines: list[str]) -> list[str]:
    """An action's lines with its number in the deal (``k``, from 0) before the first:
    ``analyse --at K`` is the position just before it."""
    head = f"{k:>4}  " if k is not None else "      "
    return [(head if i == 0 else "      ") + line for i, line in enumerate(lines)]


def says(who: str, verb: str) -> str:
    """``you lead`` / ``seat 2 leads`` (``passes`` after an s)."""
    if who == "you":
        return f"{who} {verb}"
    return f"{who} {verb}es" if verb.endswith("s") else f"{who} {verb}s"


def cards(names) -> str:
    """Card names joined by spaces, or ``-`` for none."""
    return " ".join(names) if names else "-"
