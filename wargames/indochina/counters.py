"""The counter mix as data (IC 2.31, 2.32, 7.24, 11.11): front and back values of every land counter the three
scenarios, their reinforcements and the intervention rules name, and how many the mix holds.

The counter sheet is absent from the text. ``data/counters.yaml`` gives one row per (side, nationality, type,
size): the front (combat effective) and back (disrupted) strength and movement written as on a counter
(``"6-8"``, ``"(1)+2"``: a sign of ``+`` for Light, ``-`` for Heavy, a parenthesized strength that only
defends), the class when it differs from the 11.11 default, the count (the 7.24 limit; Communist militia are
unlimited, 17.36) and a provenance. Rows the Counter Sheet Corrections or the counter errata fix are ``text``;
the rest are ``reconstructed``, each naming what it was scaled from.

The scenario files use words that are not the unit types or sizes of :mod:`units` ("infantry", "commando",
"brigade", no size for a base); the file's ``mappings`` turn them into the units.py vocabulary, each with its
reason, and :func:`resolve` applies them. :func:`make_counter` builds a :class:`~wargames.indochina.units.Counter`
and :func:`counter_id` gives the readable id scheme ("FR mech gp 3", "VM reg inf div 1", "KI guer 2").
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..core import implements
from ..core.charts import Provenance
from ..core.errors import DataError, RuleViolation
from ..core.schema import Const, Either, Int, Invalid, List, Nullable, Opt, Record, Str
from .combat import Side
from .fields import NAME, SIDE, load_chart, provenance
from .units import SIZES, TYPES, Counter, default_class, stacking_value

COUNTERS = Path(__file__).parent / "data" / "counters.yaml"
COUNTER_SHEET = 280                      # IC 2.1: the game's counters, land, air and markers together

NATIONALITIES = {
    Side.FEF: ("French", "Vietnamese National Army", "Cambodian National Army", "Laotian National Army", "US",
               "British", "Nationalist Chinese"),
    Side.COMMUNIST: ("Viet Minh", "Khmer Issarak", "Pathet Lao", "Chinese"),
}
#: short forms for unit ids
NATION_ABBREV = {"French": "FR", "Vietnamese National Army": "VNA", "Cambodian National Army": "CNA",
                 "Laotian National Army": "LNA", "US": "US", "British": "BR", "Nationalist Chinese": "NC",
                 "Viet Minh": "VM", "Khmer Issarak": "KI", "Pathet Lao": "PL", "Chinese": "PRC"}
TYPE_ABBREV = {"DNA": "DNA", "airborne infantry": "abn inf", "artillery": "art", "base": "base", "cadre": "cadre",
               "death commando": "DC", "gendarmerie": "gend", "guerrilla": "guer", "light infantry": "lt inf",
               "marine infantry": "mar inf", "mechanized": "mech", "militia": "militia",
               "regular infantry": "reg inf"}
SIZE_ABBREV = {"division": "div", "group": "gp", "regiment": "reg", "battalion": "", "cadre": ""}

_VALUE = re.compile(r"^(\()?(\d{1,2})(\))?([+-])(\d{1,2})$")


@dataclass(frozen=True)
class Value:
    """One side of a counter: strength, movement, class sign and whether the strength is parenthesized."""

    strength: int
    movement: int
    cls: str                             # "Light" (+) or "Heavy" (-)
    parenthesized: bool

    def __str__(self) -> str:
        s = f"({self.strength})" if self.parenthesized else str(self.strength)
        return f"{s}{'+' if self.cls == 'Light' else '-'}{self.movement}"


def parse_value(text: str) -> Value:
    """``"6-8"`` -> 6, 8, Heavy; ``"(1)+2"`` -> 1, 2, Light, parenthesized (2.31, 2.32)."""
    m = _VALUE.match(text.strip())
    if not m or bool(m.group(1)) != bool(m.group(3)):
        raise ValueError(f"{text!r} is not a counter value such as '6-8' or '(1)+2' (strength, + or -, movement)")
    return Value(int(m.group(2)), int(m.group(5)), "Light" if m.group(4) == "+" else "Heavy", bool(m.group(1)))


VALUE = Str(min_len=3, max_len=9, what="a counter value such as '6-8' or '(1)+2'")


@dataclass(frozen=True)
class CounterRow:
    side: Side
    nationality: str
    type: str
    size: str
    front: Value
    back: Value | None                   # None: no disrupted side (a Death Commando, 25.3)
    cls: str                             # the row's class: printed, or the 11.11 default
    count: int | None                    # None: unlimited (Communist militia, 17.36)
    provenance: Provenance

    @property
    def key(self) -> tuple[Side, str, str, str]:
        return (self.side, self.nationality, self.type, self.size)


@dataclass(frozen=True)
class Mapping:
    """A scenario word turned into the units.py vocabulary: matches on nationality ("any", a side, or a
    nationality), type and size (each optional), and changes what it names."""

    nationality: str
    reason: str
    type: str | None = None
    size: str | None = None
    size_given: bool = False             # whether the mapping matches on the size (``size: ~`` = no size)
    to_type: str | None = None
    to_size: str | None = None
    to_nationality: str | None = None

    def matches(self, side: Side, nationality: str, type_: str, size: str | None) -> bool:
        if self.nationality not in ("any", side.value, nationality):
            return False
        if self.type is not None and self.type != type_:
            return False
        if self.size_given and self.size != size:
            return False
        return True


@dataclass(frozen=True)
class CounterMix:
    rows: tuple[CounterRow, ...]
    mappings: tuple[Mapping, ...]
    source: str
    provenance: Provenance

    def row(self, side: Side, nationality: str, type_: str, size: str) -> CounterRow:
        for r in self.rows:
            if r.key == (side, nationality, type_, size):
                return r
        raise RuleViolation("IC 7.24", f"the counter mix holds no {side.value} {nationality} {type_} {size}")

    def limit(self, side: Side, nationality: str, type_: str, size: str) -> int | None:
        """7.24: how many of this counter exist (None: unlimited, 17.36)."""
        return self.row(side, nationality, type_, size).count

    def land_total(self) -> int:
        return sum(r.count for r in self.rows if r.count is not None)


def _mapping(v: dict) -> Mapping:
    return Mapping(v["nationality"], v["reason"], v["type"], v["size"], v["size_given"], v["to_type"],
                   v["to_size"], v["to_nationality"])


class _SizeKey(Record):
    """A mapping record that remembers whether ``size`` was written (``size: ~`` matches a unit with no size)."""

    def check(self, value, at):
        out = super().check(value, at)
        if isinstance(value, dict):
            return _mapping({**out.__dict__, "size_given": "size" in value}) if isinstance(out, Mapping) else out
        return out


MAPPING = _SizeKey(
    {"nationality": NAME, "reason": Str(min_len=1, max_len=1000)},
    {"type": Opt(Str(min_len=1, max_len=60)), "size": Opt(Nullable(Str(min_len=1, max_len=60))),
     "to_type": Opt(Str(TYPES)), "to_size": Opt(Str(SIZES)), "to_nationality": Opt(NAME)},
    build=lambda v: _mapping({**v, "size_given": False}), what="a mapping {nationality, reason, ...}")


def _row_check(v: dict) -> None:
    side = v["side"]
    if v["nationality"] not in NATIONALITIES[side]:
        raise Invalid("nationality", f"{v['nationality']!r} is not a nationality of the {side.value} player "
                                     f"({', '.join(NATIONALITIES[side])}; IC 4.1, 4.2)")
    cls = v["class"] or default_class(side, v["type"])
    for key in ("front", "back"):
        text = v[key]
        if text is None:
            if key == "front":
                raise Invalid(key, "is missing")
            continue
        try:
            val = parse_value(text)
        except ValueError as e:
            raise Invalid(key, str(e)) from None
        if val.cls != cls:
            raise Invalid(key, f"{text!r} carries the {val.cls} sign but the row's class is {cls} "
                               f"({'printed' if v['class'] else 'IC 11.11 default'}; IC 2.32)")
    if v["back"] is None and v["type"] != "death commando":
        raise Invalid("back", "may be left out only for a Death Commando (IC 25.3: no disrupted side)")
    if v["count"] == "unlimited" and v["type"] != "militia":
        raise Invalid("count", "only militia are unlimited (IC 7.24, 17.36)")
    front = parse_value(v["front"])
    if front.strength == 1 and v["back"] is not None:
        back = parse_value(v["back"])
        if not (back.strength == 1 and back.parenthesized):
            raise Invalid("back", "a front strength of 1 has a parenthesized (1) on the reverse (counter errata)")


def _row(default: Provenance) -> Record:
    def build(v: dict) -> CounterRow:
        cls = v["class"] or default_class(v["side"], v["type"])
        back = None if v["back"] is None else parse_value(v["back"])
        return CounterRow(v["side"], v["nationality"], v["type"], v["size"], parse_value(v["front"]), back, cls,
                          None if v["count"] == "unlimited" else v["count"], v["provenance"])

    return Record({"side": SIDE, "nationality": NAME, "type": Str(TYPES), "size": Str(SIZES), "front": VALUE,
                   "back": Nullable(VALUE), "count": Either(Int(1, 99), Const("unlimited"))},
                  {"class": Opt(Str(("Heavy", "Light"))), "provenance": provenance(default)},
                  check=_row_check, build=build, what="a counter row")


def _unique(v: dict) -> None:
    seen: dict = {}
    for i, r in enumerate(v["counters"]):
        if r.key in seen:
            raise Invalid(f"counters[{i}]", f"repeats counters[{seen[r.key]}] ({r.side.value} {r.nationality} "
                                            f"{r.type} {r.size})")
        seen[r.key] = i
    total = sum(r.count for r in v["counters"] if r.count is not None)
    if total > COUNTER_SHEET:
        raise Invalid("counters", f"hold {total} counters, more than the {COUNTER_SHEET} of the sheet (IC 2.1)")


def _schema(file: str, default: Provenance) -> Record:
    return Record({"name": NAME, "rule": Str(min_len=1, max_len=40),
                   "counters": List(_row(default), min_len=1, max_len=300, tuple_=True)},
                  {"provenance": Opt(Record({"kind": Str()}, {"source": Opt(Str(), "")})),
                   "mappings": Opt(List(MAPPING, max_len=100, tuple_=True), ()), "notes": Opt(Str(), "")},
                  check=_unique,
                  build=lambda v: CounterMix(v["counters"], v["mappings"], file, default))


@implements("IC 2.31", "IC 2.32", "IC 7.24", "IC Counter Corrections")
def load_counters(path: str | Path = COUNTERS) -> CounterMix:
    """Read and check a counter file; bad data raises DataError naming the file and the field."""
    return load_chart(path, lambda default: _schema(str(path), default))


_MIX: list = []


def counter_mix() -> CounterMix:
    """The shipped counter mix, read once per version of the file. Every part of it is immutable (frozen
    records and tuples), so callers share one copy."""
    st = COUNTERS.stat()
    version = (st.st_size, st.st_mtime_ns)
    if not _MIX or _MIX[0] != version:
        _MIX[:] = [version, load_counters(COUNTERS)]
    return _MIX[1]


# --------------------------------------------------------------------------------------- scenario words

@dataclass(frozen=True)
class Resolved:
    nationality: str                     # the counter's nationality (British, Nationalist Chinese kept)
    sheet_nationality: str               # whose counters are used (US, Chinese)
    type: str
    size: str
    notes: tuple[str, ...]               # the mappings applied, with their reasons


def resolve(side: Side, nationality: str | None, type_: str, size: str | None,
            mix: CounterMix | None = None) -> Resolved:
    """A scenario's (nationality, type, size) in the units.py vocabulary, with the mappings that were used."""
    mix = mix or counter_mix()
    nat = nationality or ("French" if side is Side.FEF else "Viet Minh")
    sheet, t, s, notes = nat, type_, size, []
    for m in mix.mappings:
        if m.matches(side, nat, t, s):
            t = m.to_type or t
            s = m.to_size if m.to_size is not None else s
            sheet = m.to_nationality or sheet
            notes.append(m.reason)
    if s is None and t == "cadre":
        s = "cadre"
    if t not in TYPES:
        raise RuleViolation("IC 2.31", f"{type_!r} is no unit type of 2.31 and no mapping turns it into one")
    if s not in SIZES:
        raise RuleViolation("IC 2.31", f"{size!r} is no unit size of 2.31 and no mapping turns it into one")
    return Resolved(nat, sheet, t, s, tuple(notes))


def counter_id(nationality: str, type_: str, size: str, n: int) -> str:
    """A stable, readable id: "FR mech gp 3", "VM reg inf div 1", "KI guer 2", "VM militia 4"."""
    parts = [NATION_ABBREV.get(nationality, nationality), TYPE_ABBREV.get(type_, type_),
             SIZE_ABBREV.get(size, size), str(n)]
    return " ".join(p for p in parts if p)


def free_counter_id(units, nationality: str, type_: str, size: str, taken=()) -> str:
    """The id for a new counter of this kind: numbered after those of its kind in ``units`` (id -> unit), and
    used by no unit there nor in ``taken``."""
    n = 1 + sum(1 for u in units.values() if (u.counter.nationality, u.counter.type, u.counter.size)
                == (nationality, type_, size))
    uid = counter_id(nationality, type_, size, n)
    while uid in units or uid in taken:
        n += 1
        uid = counter_id(nationality, type_, size, n)
    return uid


@implements("IC 2.31", "IC 2.32", "IC 11.11", "IC Counter Corrections")
def make_counter(side: Side, nationality: str | None, type_: str, size: str | None, id: str,
                 mix: CounterMix | None = None) -> Counter:
    """The counter of a scenario's unit, with its values from the counter file."""
    mix = mix or counter_mix()
    r = resolve(side, nationality, type_, size, mix)
    sheet_side = side if r.sheet_nationality in NATIONALITIES[side] else side.enemy
    row = mix.row(sheet_side, r.sheet_nationality, r.type, r.size)
    cls = row.cls
    if r.nationality == "Nationalist Chinese":
        cls = "Heavy"                    # IC 38 Introductory special rule d: ignore the counter's + sign
    back = row.back or Value(0, 0, cls, False)
    return Counter(id, side, r.type, r.size, row.front.strength, row.front.movement, back.strength, back.movement,
                   cls=cls, parenthesized=row.front.parenthesized, disrupted_parenthesized=back.parenthesized,
                   nationality=r.nationality)


def division_parts_consistent(mix: CounterMix | None = None) -> list[str]:
    """8.2: every division row whose nationality has an equivalent sums its parts' strengths and moves as the
    slowest part, front and back. Returns the problems (empty when consistent)."""
    from .reorganization import EQUIVALENTS
    mix = mix or counter_mix()
    out = []
    for e in EQUIVALENTS:
        side = Side.FEF if e.nationality in NATIONALITIES[Side.FEF] else Side.COMMUNIST
        try:
            div = mix.row(side, e.nationality, e.division, "division")
        except RuleViolation:
            continue
        parts = [mix.row(side, e.nationality, t, e.part_size) for t in e.part_types()]
        for face in ("front", "back"):
            vals = [getattr(p, face) for p in parts]
            want_s, want_m = sum(v.strength for v in vals), min(v.movement for v in vals)
            got = getattr(div, face)
            if (got.strength, got.movement) != (want_s, want_m):
                out.append(f"{e.nationality} {e.division} division {face} {got} but its {e.rule} parts give "
                           f"{want_s} and {want_m}")
    return out


__all__ = ["COUNTERS", "CounterMix", "CounterRow", "Mapping", "Resolved", "Value", "counter_id", "counter_mix",
           "division_parts_consistent", "load_counters", "make_counter", "parse_value", "resolve"]
