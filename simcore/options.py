"""Rule options as data: declaration, parsing, validation and rule sets.

Every game declares its options once (name, kind, default, allowed values,
one-line doc) and its presets as plain dicts.  A rule set is built from a
preset, then a TOML file, then ``--set NAME=VALUE`` overrides, and is frozen.
An option the kernels read also declares its slot in the kernels' rule array (an
int64 array, one word a slot) and how its value is encoded there; a slot computed
from several options is declared as a ``Derived`` slot.  The rule book generates the
slot table and ``rules_array`` from these declarations, so an option is one
declaration plus the kernel line that reads it.
"""
from __future__ import annotations

import inspect

import tomllib
from dataclasses import dataclass, field
from operator import itemgetter
from types import MappingProxyType
from typing import Any, Callable, Mapping

import numpy as np

from .errors import RulesError
from .text import noun_for

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


#: the largest TOML file read (a rules file or a batch plan is a few hundred bytes;
#: the cap keeps ``--rules /dev/zero`` or a stray large file from filling memory)
MAX_TOML_BYTES = 1 << 20

#: integer option values must fit the kernels' int64 rule arrays
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1

#: ``Option.spec_hi`` of a count the rule spec leaves open ("a positive integer"):
#: the int64 range of the kernels' rule arrays
SPEC_UNBOUNDED = INT64_MAX
#: ``Option.spec_lo`` of an integer the rule spec leaves open below ("any integer")
SPEC_UNBOUNDED_LOW = INT64_MIN


def read_toml(path, what: str, error=RulesError, limit: int = MAX_TOML_BYTES) -> dict:
    """A TOML file's table; ``error`` (one line naming ``what`` and the path) if it
    is missing, unreadable, larger than ``limit`` bytes, not UTF-8 or not TOML.

    At most ``limit + 1`` bytes are read, so a device such as /dev/zero is
    refused after a bounded read."""
    try:
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
    except FileNotFoundError:
        raise error(f"{what} '{path}' does not exist") from None
    except OSError as exc:
        raise error(f"{what} '{path}' cannot be read: {exc.strerror or exc}") from None
    except ValueError as exc:                  # e.g. a NUL byte in the path
        raise error(f"{what} {str(path)!r} is not a usable file name: {exc}") from None
    if len(raw) > limit:
        raise error(f"{what} '{path}' holds more than {limit:,} bytes; allowed: a TOML "
                    f"text of at most {limit:,} bytes")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        raise error(f"{what} '{path}' is not UTF-8 text (byte 0x{raw[exc.start]:02x} on line "
                    f"{line}); allowed: a TOML file, which is UTF-8") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{what} '{path}' is not valid TOML: {exc}") from None
    except RecursionError:
        raise error(f"{what} '{path}' nests arrays or tables too deeply") from None


@dataclass(frozen=True)
class Option:
    """One rule option.

    kind: ``int``, ``bool``, ``choice``, ``int_list``, ``choice_list`` or
    ``int_or`` (an integer or one of ``choices``, e.g. ``floor = none``).
    ``default`` is a value, or a callable taking the other resolved values
    (for defaults that depend on, say, the number of players).
    """

    name: str
    kind: str
    default: Any
    doc: str
    choices: tuple = ()
    lo: int | None = None
    hi: int | None = None
    min_len: int = 1
    #: the largest value the rule spec allows when it is larger than ``hi`` (tricksim's
    #: own cap for simulate); ``SPEC_UNBOUNDED`` for "any positive integer".  Replay
    #: validates records of other programs against the spec's range, simulate keeps ``hi``
    spec_hi: int | None = None
    #: likewise the smallest value the rule spec allows when it is below ``lo``
    #: (``SPEC_UNBOUNDED_LOW`` for "any integer", Schadenfreude's ``floor``)
    spec_lo: int | None = None
    #: the name of the kernels' rule-array slot this option fills (``R_MATCH``), the
    #: constant the game's rules module exports; None: the kernels do not read it
    slot: str | None = None
    #: the value as the slot's integer: None for the kind's own encoding (``bool`` 0 or
    #: 1, ``int`` the value, ``choice`` its index in ``choices``), else a function of
    #: the value (e.g. ``equals("at_close")``); ``int_or`` and lists must give one
    encode: Callable[[Any], int] | None = None

    def __post_init__(self):
        if self.encode is not None and self.slot is None:
            raise ValueError(f"option '{self.name}': encode is given but no slot")
        if self.slot is not None and self.encode is None and self.kind not in _OWN_ENCODING:
            raise ValueError(f"option '{self.name}': a {self.kind} option needs encode= for "
                             f"its slot {self.slot}; the kinds with their own encoding: "
                             + ", ".join(_OWN_ENCODING))

    def encoded(self, value) -> int:
        """The value as the integer in the option's slot of the kernels' rule array."""
        if self.encode is not None:
            return int(self.encode(value))
        if self.kind == "choice":
            return self.choices.index(value)
        return int(value)

    def allowed(self, spec: bool = False) -> str:
        """Human description of the allowed values (with ``spec``: the spec's range)."""
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return "one of " + ", ".join(map(str, self.choices))
        hi = min(self.spec_hi, INT64_MAX) if spec and self.spec_hi is not None else self._hi
        lo = max(self.spec_lo, INT64_MIN) if spec and self.spec_lo is not None else self._lo
        if hi < INT64_MAX:
            rng = f" from {lo} to {hi}"
        elif lo > INT64_MIN:
            rng = f" of at least {lo} (at most {INT64_MAX}, the 64-bit limit)"
        else:
            rng = f" from {INT64_MIN} to {INT64_MAX} (the 64-bit limits)"
        if self.kind == "int":
            return "an integer" + rng
        if self.kind == "int_or":
            return "an integer" + rng + " or " + " / ".join(self.choices)
        if self.kind == "int_list":
            return (f"a list of at least {self.min_len} distinct values from "
                    + " ".join(map(str, self.choices)))
        if self.kind == "choice_list":
            return (f"a list of at least {self.min_len} distinct values from "
                    + " ".join(map(str, self.choices)))
        raise AssertionError(self.kind)

    def parse(self, raw: Any, spec: bool = False) -> Any:
        """Coerce a value from the command line (str), TOML or JSON; raise RulesError.
        With ``spec`` the range is the rule spec's (``spec_hi``), not tricksim's cap."""
        try:
            value = self._parse(raw)
        except (ValueError, TypeError):
            value = None
        if value is None and spec and (self.spec_hi is not None or self.spec_lo is not None):
            try:
                value = self._parse(raw, self.spec_hi, self.spec_lo)
            except (ValueError, TypeError):
                value = None
        if value is None:
            raise RulesError(f"option '{self.name}': {shown(raw)} is not allowed; allowed: "
                             f"{self.allowed(spec)}")
        return value

    def parse_json(self, raw: Any) -> Any:
        """A value of a record's ``rules`` object, held to the records contract exactly:
        integers as JSON integers (not strings, floats or booleans), booleans as JSON
        booleans, choices as their exact names, lists as JSON arrays; the range is the
        rule spec's.  RulesError otherwise."""
        k = self.kind
        if k == "bool":
            ok = type(raw) is bool
        elif k == "int":
            ok = type(raw) is int
        elif k == "int_or":
            ok = type(raw) is int or (type(raw) is str and raw in self.choices)
        elif k == "choice":
            ok = type(raw) is str and raw in self.choices
        elif k == "int_list":
            ok = type(raw) is list and all(type(v) is int for v in raw)
        else:
            ok = type(raw) is list and all(type(v) is str and v in self.choices for v in raw)
        if not ok:
            what = {"bool": "a JSON boolean", "int": "a JSON integer",
                    "int_or": "a JSON integer or " + " / ".join(f'"{c}"' for c in self.choices),
                    "choice": "one of " + ", ".join(f'"{c}"' for c in self.choices),
                    "int_list": "a JSON array of integers",
                    "choice_list": "a JSON array of " + ", ".join(f'"{c}"' for c in
                                                                  self.choices)}[k]
            raise RulesError(f"option '{self.name}': {shown(raw)} is not allowed in a record; "
                             f"allowed: {what} ({self.allowed(True)})")
        return self.parse(raw, spec=True)

    def _parse(self, raw, hi: int | None = None, lo: int | None = None):
        k = self.kind
        if k == "bool":
            if isinstance(raw, bool):
                return raw
            if isinstance(raw, str) and raw.strip().lower() in _TRUE | _FALSE:
                return raw.strip().lower() in _TRUE
            return None
        if k == "int":
            return self._int(raw, hi, lo)
        if k == "int_or":
            if isinstance(raw, str) and raw.strip().lower() in self.choices:
                return raw.strip().lower()
            return self._int(raw, hi, lo)
        if k == "choice":
            if isinstance(raw, str) and raw.strip() in self.choices:
                return raw.strip()
            return None
        if k in ("int_list", "choice_list"):
            items = raw
            if isinstance(raw, str):
                items = [s for s in raw.replace(" ", ",").split(",") if s != ""]
            if not isinstance(items, (list, tuple)):
                return None
            out = []
            for item in items:
                if k == "int_list":
                    v = self._int(item)
                    if v is None or v not in self.choices:
                        return None
                else:
                    v = item.strip() if isinstance(item, str) else None
                    if v not in self.choices:
                        return None
                out.append(v)
            if len(out) < self.min_len or len(set(out)) != len(out):
                return None
            return tuple(out)
        raise AssertionError(k)

    def _int(self, raw, hi: int | None = None, lo: int | None = None):
        if isinstance(raw, bool):
            return None
        if isinstance(raw, int):
            v = raw
        elif isinstance(raw, str):
            v = int(raw.strip())
        elif isinstance(raw, float) and raw.is_integer():
            v = int(raw)
        else:
            return None
        if not ((self._lo if lo is None else max(lo, INT64_MIN)) <= v
                <= (self._hi if hi is None else min(hi, INT64_MAX))):
            return None
        return v

    @property
    def _lo(self) -> int:
        """The smallest integer allowed: ``lo``, and never below int64."""
        return INT64_MIN if self.lo is None else max(self.lo, INT64_MIN)

    @property
    def _hi(self) -> int:
        """The largest integer allowed: ``hi``, and never above int64 (the kernels'
        rule arrays are int64)."""
        return INT64_MAX if self.hi is None else min(self.hi, INT64_MAX)

    def to_json(self, value):
        """The value as written in a record's ``rules`` object."""
        if isinstance(value, tuple):
            return list(value)
        return value

    def to_text(self, value) -> str:
        """The value as written on a command line (``--set name=TEXT``)."""
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, tuple):
            return ",".join(map(str, value))
        return str(value)


#: the option kinds whose slot encoding needs no ``encode`` (see ``Option.encoded``)
_OWN_ENCODING = ("bool", "int", "choice")


def equals(choice) -> Callable[[Any], int]:
    """An ``Option.encode`` giving 1 when the value is ``choice`` and 0 otherwise (a
    two-way choice the kernels read as a flag: ``closed_scoring == "at_close"``)."""
    def encode(value) -> int:
        return int(value == choice)
    encode.__qualname__ = encode.__name__ = f"equals({choice!r})"
    return encode


@dataclass(frozen=True)
class Derived:
    """A slot of the kernels' rule array computed from the whole rule set rather
    than from one option's value (the seats a variant has, whether a bound is on)."""

    slot: str
    #: the slot's integer, from the rule set's values (a name -> value mapping)
    value: Callable[[Mapping[str, Any]], int]
    doc: str


def shown(raw) -> str:
    """A value as quoted in an error: its repr, cut to 60 characters."""
    text = repr(raw)
    return text if len(text) <= 60 else text[:57] + "..."


@dataclass(frozen=True)
class RuleSet:
    """A complete, validated, frozen rule set of one game."""

    game: str
    values: Mapping[str, Any] = field(hash=False)
    order: tuple = ()

    def __getitem__(self, name):
        return self.values[name]

    def to_dict(self) -> dict:
        """Every option written out, JSON-ready (the record's ``rules`` object)."""
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in
                ((k, self.values[k]) for k in self.order)}

    def canonical(self) -> str:
        """A one-line canonical form, e.g. ``schadenfreude(players=4,limit=40,...)``."""
        parts = []
        for k in self.order:
            v = self.values[k]
            parts.append(f"{k}={','.join(map(str, v)) if isinstance(v, tuple) else v}")
        return f"{self.game}({';'.join(parts)})"


class RuleBook:
    """The options and presets of one game, how to build rule sets from them, and the
    layout of the kernels' rule array.

    The array's slots are those the options declare (``Option.slot``) and the
    ``derived`` ones, in declaration order (options first) or in the order ``layout``
    names them.  A game keeps a layout fixed once its kernels read it: numba's cache
    compiles the slot numbers into the kernels."""

    def __init__(self, game: str, options: tuple[Option, ...], presets: dict[str, dict],
                 check: Callable[[dict], None] | None = None,
                 aliases: Mapping[str, str] | None = None,
                 derived: tuple[Derived, ...] = (), layout: tuple[str, ...] | None = None):
        self.game = game
        self.options = {o.name: o for o in options}
        fillers = self._slot_fillers(options, derived, layout)
        self._fills = tuple(fillers.values())
        #: slot name -> index in the kernels' rule array
        self.slots = MappingProxyType({name: i for i, name in enumerate(fillers)})
        self.presets = presets
        #: other names a preset answers to (``three_sharp`` for Wendish's ``sharp``)
        self.aliases = dict(aliases or {})
        bad = [a for a, p in self.aliases.items() if p not in presets or a in presets]
        if bad:
            raise ValueError(f"{game}: preset aliases {bad} name no preset or shadow one")
        self.default_preset = next(iter(presets))
        self._check = check
        #: whether ``check`` takes ``spec`` (bounds that differ between tricksim's own
        #: runs and the rule spec's, which replay uses)
        self._check_spec = check is not None and "spec" in inspect.signature(check).parameters

    def _slot_fillers(self, options, derived, layout) -> dict:
        """Slot name -> a function of the option values giving its integer, in the
        array's order; ValueError for a slot declared twice or a layout that does not
        name each declared slot once."""
        fillers = {}
        for o in options:
            if o.slot is None:
                continue
            if o.encode is None and o.kind in ("bool", "int"):
                fill = itemgetter(o.name)        # the value itself (numpy makes a bool 0/1)
            else:
                fill = lambda v, name=o.name, encoded=o.encoded: encoded(v[name])
            fillers.setdefault(o.slot, []).append(fill)
        for d in derived:
            fillers.setdefault(d.slot, []).append(lambda v, value=d.value: int(value(v)))
        twice = [name for name, fs in fillers.items() if len(fs) > 1]
        if twice:
            raise ValueError(f"{self.game}: slots declared more than once: {twice}")
        order = tuple(fillers) if layout is None else tuple(layout)
        if sorted(order) != sorted(fillers):
            raise ValueError(f"{self.game}: layout {list(order)} must name each declared "
                             f"slot once: {sorted(fillers)}")
        return {name: fillers[name][0] for name in order}

    def slot(self, name: str) -> int:
        """The index of slot ``name`` in the kernels' rule array (a module constant of
        the game's rules); ValueError naming the declared slots for any other name."""
        try:
            return self.slots[name]
        except KeyError:
            raise ValueError(f"{self.game} declares no slot {name!r}; slots: "
                             + ", ".join(self.slots)) from None

    def rules_array(self, rules) -> np.ndarray:
        """The rule set as the small int64 array the kernels read, one declared slot a
        word (``slots``)."""
        values = rules.values if isinstance(rules, RuleSet) else rules
        return np.array([fill(values) for fill in self._fills], dtype=np.int64)

    def option(self, name: str) -> Option:
        """The option called ``name``, or a RulesError listing the known ones."""
        try:
            return self.options[name]
        except KeyError:
            raise RulesError(f"unknown option '{name}' for {self.game}; options: "
                             + ", ".join(self.options)) from None

    def preset_name(self, name: str | None) -> str:
        """The preset ``name`` means (an alias gives its preset; None the default);
        a RulesError listing the presets for a name that is none."""
        name = name or self.default_preset
        if name in self.presets:
            return name
        if name in self.aliases:
            return self.aliases[name]
        raise RulesError(f"unknown preset '{name}' for {self.game}; presets: "
                         + self.preset_list())

    def is_preset(self, name: str) -> bool:
        """Whether ``name`` names a preset (or an alias of one)."""
        return name in self.presets or name in self.aliases

    def preset_list(self) -> str:
        """The presets in words, each with its aliases: ``standard (also four), ...``."""
        out = []
        for name in self.presets:
            also = [a for a, p in self.aliases.items() if p == name]
            out.append(name + (f" (also {', '.join(also)})" if also else ""))
        return ", ".join(out)

    def preset(self, name: str | None) -> dict:
        """The raw values of a named preset (or of the preset an alias names)."""
        return dict(self.presets[self.preset_name(name)])

    def parse_assignments(self, pairs) -> dict:
        """Parse ``NAME=VALUE`` strings from the command line."""
        out = {}
        for pair in pairs:
            if "=" not in pair:
                raise RulesError(f"--set expects NAME=VALUE, got '{pair}'")
            name, raw = pair.split("=", 1)
            name = name.strip()
            out[name] = self.option(name).parse(raw)
        return out

    def typed_column(self, name: str, texts) -> list | None:
        """A table column of option ``name`` written as text (``to_text``) turned back
        into the option's own type: integers, booleans, choice names; a list stays
        text (``1,2,3``), and so does a column mixing integers and names (``floor``
        of ``none`` and 0).  None if ``name`` is not an option or a text does not parse."""
        opt = self.options.get(name)
        if opt is None:
            return None
        try:
            values = [opt.parse(t) for t in texts]
        except RulesError:
            return None
        if any(isinstance(v, tuple) for v in values) or len({type(v) for v in values}) > 1:
            return [opt.to_text(v) for v in values]
        return values

    def load_toml(self, path) -> dict:
        """Option values from a TOML file (a flat table of option names)."""
        data = read_toml(path, "rules file", RulesError)
        if isinstance(data.get(self.game), dict):  # allow a [game] table
            data = data[self.game]
        return {name: self.option(name).parse(value) for name, value in data.items()}

    def build(self, preset: str | None = None, rules_file=None, assignments=(),
              overrides: Mapping | None = None) -> RuleSet:
        """Preset, then TOML file, then ``--set`` pairs, then ``overrides``; validated."""
        values = self.preset(preset)
        if rules_file:
            values.update(self.load_toml(rules_file))
        values.update(self.parse_assignments(assignments))
        for name, raw in (overrides or {}).items():
            values[name] = self.option(name).parse(raw)
        return self.resolve(values)

    def from_dict(self, data: Mapping, strict: bool = False) -> RuleSet:
        """A rule set from a record's ``rules`` object (missing names take defaults).

        ``strict`` holds it to the records contract (``replay``): every option written
        out, each value of its exact JSON type (``Option.parse_json``), ranges those of
        the rule spec rather than tricksim's own caps."""
        if not isinstance(data, Mapping):
            raise RulesError("'rules' must be an object of option names")
        if not strict:
            values = {name: self.option(name).parse(v) for name, v in data.items()}
            return self.resolve(values)
        values = {name: self.option(name).parse_json(v) for name, v in data.items()}
        missing = [name for name in self.options if name not in values]
        if missing:
            raise RulesError(f"'rules' is missing {noun_for(len(missing), 'option')} "
                             + ", ".join(f"'{m}'" for m in missing)
                             + "; a record writes out every option of the rule set")
        return self.resolve(values, spec=True)

    def resolve(self, values: dict, spec: bool = False) -> RuleSet:
        """Fill defaults (fixed ones first, then those depending on others) and check.
        With ``spec`` integer ranges are the rule spec's (replay), not tricksim's caps."""
        values = dict(values)
        for name, v in list(values.items()):
            values[name] = self.option(name).parse(v, spec)
        for opt in self.options.values():
            if opt.name not in values and not callable(opt.default):
                values[opt.name] = opt.default
        for opt in self.options.values():
            if opt.name not in values:
                values[opt.name] = opt.parse(opt.default(values))
        if self._check_spec:
            self._check(values, spec=spec)
        elif self._check:
            self._check(values)
        order = tuple(self.options)
        return RuleSet(self.game, MappingProxyType({k: values[k] for k in order}), order)
