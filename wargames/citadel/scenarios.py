"""Scenario Rules 1-3 and the eight scenario outlines, as data.

The order of battle (``data/oob/french.yaml``, ``vietminh.yaml``, ``air.yaml``) and the scenario outlines
(``data/scenarios/scenario1.yaml`` ... ``scenario8.yaml``) are files an owner may replace with printed data. This
module reads them and turns the printed notation into concrete entries:

- a French disposition such as ``"1(R1) and SAS(R1) companies of 8 French Parachute Battalion"`` becomes one
  :class:`Placement` a counter, each with its inversion and step-loss marker (SR 1.A.5). The shipped files
  write the same entry in a short form that names the formation by its order-of-battle id,
  ``"8BPC: 1(R1), SAS(R1)"`` (so that they do not reproduce the booklet's lists); owners may type either;
- a Vietminh regiment's ``"1; NL; 1; R7"`` becomes the state of each of its battalions, ``do`` taken from the
  previous scenario (SR 1.B.4);
- the victory conditions are data that :func:`evaluate_victory` scores (SR 3 and each outline).

A bad file raises :class:`~wargames.core.errors.DataError` naming the file, the entry and the reason.
"""
from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core import implements
from ..core.errors import DataError
from ..core.schema import (AnyValue, At, Convert, Either, Int, List, Map, Nullable, Opt, Record, Str, Tuple,
                           load_file, place)
from ..core.yamlio import read_yaml
from .state import LAST_DATE, battle_date
from .units import COUNTERS, Counter, UnitClass

DATA = Path(__file__).parent / "data"
OOB_DIR, SCENARIO_DIR = DATA / "oob", DATA / "scenarios"
WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


# --------------------------------------------------------------------------- order of battle

@dataclass(frozen=True)
class OrderOfBattle:
    """Counters of one or both sides, and the printed names of the formations their ids end with."""

    counters: dict[str, Counter]
    formations: dict[str, str]                 # printed name (lower case) -> formation id
    regiments: dict[str, dict] = field(default_factory=dict)   # Vietminh infantry regiments (HQ markers)

    def members(self, fid: str) -> list[Counter]:
        return [c for cid, c in self.counters.items() if cid.endswith("/" + fid)]

    def __add__(self, other: "OrderOfBattle") -> "OrderOfBattle":
        return OrderOfBattle({**self.counters, **other.counters}, {**self.formations, **other.formations},
                             {**self.regiments, **other.regiments})


_FORMATION = Record({"id": Str(min_len=1, max_len=40), "names": List(Str(min_len=1, max_len=120), min_len=1)},
                    {"kind": Str(max_len=40)}, what="a formation {id, names}")
_REGIMENT = Record({"id": Str(min_len=1, max_len=40), "division": Str(key=True, max_len=10)},
                   {"names": List(Str(max_len=120)), "provenance": Str(max_len=2000)}, what="a regiment")
OOB_FILE = Record({"side": Str(["French", "Vietminh"]), "formations": List(_FORMATION, min_len=1),
                   "counters": COUNTERS}, {"regiments": Opt(List(_REGIMENT), [])},
                  what="an order of battle {side, formations, counters}")


@implements("C 4", "C Chart 2")
def load_oob(path: str | Path) -> OrderOfBattle:
    """One side's order of battle. Every counter id is ``<designation>/<formation>`` with a listed formation."""
    raw = read_yaml(path)
    v = load_file(path, OOB_FILE, raw)
    fids, names = set(), {}
    for i, f in enumerate(v["formations"]):
        if f["id"] in fids:
            raise place(DataError(str(path), f"formations[{i}].id", f"repeats the formation {f['id']!r}"), raw)
        fids.add(f["id"])
        for n in f["names"]:
            if n.lower() in names:
                raise place(DataError(str(path), f"formations[{i}].names", f"{n!r} names two formations"), raw)
            names[n.lower()] = f["id"]
    for i, c in enumerate(v["counters"]):
        if c.side.value != v["side"]:
            raise place(DataError(str(path), f"counters[{i}].side", f"is {c.side.value}, not the file's {v['side']}"),
                        raw)
        if "/" not in c.id or c.id.split("/", 1)[1] not in fids:
            raise place(DataError(str(path), f"counters[{i}].id",
                                  f"{c.id!r} is not <designation>/<formation> with a formation of this file"), raw)
    regiments = {r["id"]: r for r in v["regiments"]}
    return OrderOfBattle({c.id: c for c in v["counters"]}, names, regiments)


@lru_cache(maxsize=4)
def _shipped_oob() -> OrderOfBattle:
    return load_oob(OOB_DIR / "french.yaml") + load_oob(OOB_DIR / "vietminh.yaml")


def shipped_oob() -> OrderOfBattle:
    """Both sides' shipped orders of battle (read once)."""
    return _shipped_oob()


# --------------------------------------------------------------------------- air units (Chart 3)

@dataclass(frozen=True)
class AirUnit:
    """An air counter type of the order of battle (C 25): how many counters exist, and when a carrier type comes
    or goes (C 33). Its values (attack or cargo, defence) are the Air Units chart's (``air_charts``)."""

    type: str
    counters: int
    arrives: dt.date | None = None
    leaves: dt.date | None = None
    provenance: dict = field(default_factory=dict)


_DATE = Convert(AnyValue(), battle_date, "a date such as 1954-03-17")
AIR_UNIT = Record(
    {"type": Str(min_len=1, max_len=20), "counters": Int(0, 99)},
    {"arrives": _DATE, "leaves": _DATE, "provenance": Opt(Map(Str(max_len=40), Str(max_len=2000)), {})},
    build=lambda v: AirUnit(**v), what="an air unit {type, counters}")
AIR_FILE = Record({"aircraft": List(AIR_UNIT, min_len=1)}, what="an air chart {aircraft}")


@implements("C 25", "C Chart 3")
def load_air_units(path: str | Path | None = None) -> dict[str, AirUnit]:
    """How many counters of each air type exist, by type (C 25; values: ``air_charts.load_air_units``)."""
    path = OOB_DIR / "air.yaml" if path is None else path
    from .air_charts import default_air_charts
    types = default_air_charts().air_units
    units = load_file(path, AIR_FILE)["aircraft"]
    out = {}
    for i, u in enumerate(units):
        if u.type in out:
            raise DataError(str(path), f"aircraft[{i}].type", f"repeats {u.type!r}")
        if u.type not in types:
            raise DataError(str(path), f"aircraft[{i}].type", f"{u.type!r} is no type of the Air Units chart "
                                                              f"({', '.join(types)})")
        out[u.type] = u
    return out


# --------------------------------------------------------------------------- notation (SR 1.A.5, SR 1.B.4)

@dataclass(frozen=True)
class Placement:
    """One counter as a scenario sets it up: face down (inverted) or up, and the step-loss marker under it."""

    counter: str
    inverted: bool = False
    losses: int = 0
    note: str = ""


_NOTE = re.compile(r"R\d*|\d+")
_COUNT_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_NOUNS = r"companies|company|batteries|battery|platoons|platoon|sections|section|battalions|battalion"
#: Designations printed as words, and the short form the counter ids use.
DESIGNATION_WORDS = {"medium mortar": "M", "heavy mortar": "H", "heavy weapons": "HW"}


@implements("C SR 1")
def parse_notation(note: str) -> tuple[bool, int]:
    """``R`` inverted; ``n`` n strength points lost; ``Rn`` inverted and n more lost (SR 1.A.5.b, SR 1.B.4).

    ``NL`` (no losses) is the Vietminh chart's way of writing nothing lost."""
    note = note.strip()
    if note == "NL":
        return False, 0
    if not _NOTE.fullmatch(note):
        raise ValueError(f"{note!r} is not a loss notation (R, a number, R and a number, or NL)")
    inverted = note.startswith("R")
    digits = note[1:] if inverted else note
    return inverted, int(digits) if digits else 0


def _normalise(text: str) -> str:
    s = " ".join(text.split()).rstrip(".")
    return re.sub(r"\s+\((R?\d*)\)", r"(\1)", s)          # "11 (2) battery" -> "11(2) battery"


def _items(listing: str) -> list[tuple[str, str | None]]:
    """``"1(R), 2(R), and HHC"`` -> [("1", "R"), ("2", "R"), ("HHC", None)]."""
    out = []
    for part in re.split(r",\s*(?:and\s+)?|\s+and\s+", listing):
        part = part.strip()
        if not part:
            continue
        m = re.fullmatch(r"(.+?)(?:\(([^)]*)\))?", part)
        desig, note = m.group(1).strip(), m.group(2)
        out.append((DESIGNATION_WORDS.get(desig.lower(), desig), note))
    return out


@dataclass(frozen=True)
class ParsedEntry:
    """What a printed unit entry says, before it is looked up: a formation and either all of it or some members."""

    formation: str                        # the printed formation name
    items: tuple = ()                     # ((designation, notation or None), ...); empty = the whole formation
    count: int | None = None              # "(five companies)"


@implements("C SR 1")
def parse_entry(text: str) -> ParsedEntry:
    """Split a printed unit entry (SR 1.A.3-5) into its formation and the members it names."""
    s = _normalise(text)
    m = re.fullmatch(r"(?P<f>.+?) \((?P<n>\w+) (?:companies|platoons|batteries)\)", s)
    if m:
        n = m.group("n").lower()
        count = _COUNT_WORDS.get(n, int(n) if n.isdigit() else None)
        if count is None:
            raise ValueError(f"{m.group('n')!r} is not a number of companies")
        return ParsedEntry(m.group("f"), (), count)
    m = re.fullmatch(r"Tanks (?P<list>.+)", s)
    if m:
        return ParsedEntry("Tanks", tuple(_items(m.group("list"))))
    m = re.fullmatch(rf"(?P<list>.+?) (?:{_NOUNS})(?:\((?P<note>[^)]*)\))? of (?:the )?(?P<f>.+)", s, flags=re.I)
    if m:
        items = _items(m.group("list"))
        if m.group("note") is not None:
            if len(items) != 1 or items[0][1] is not None:
                raise ValueError("a loss notation after the noun must follow a single designation")
            items = [(items[0][0], m.group("note"))]
        return ParsedEntry(m.group("f"), tuple(items))
    return ParsedEntry(s)                 # a formation named alone, or "<designations> <formation name>"


def _compact_entry(text: str, oob: OrderOfBattle) -> ParsedEntry | None:
    """The shipped files' short form, which names the formation by its id: ``"6BPC (5)"`` is the whole battalion,
    printed with five companies; ``"8BPC: 1(R1), SAS(R1)"`` lists members with the printed loss notation."""
    s = _normalise(text)
    fids = set(oob.formations.values())
    m = re.fullmatch(r"(?P<fid>[\w-]+?) ?(?:\((?P<n>\d+)\))?", s)
    if m and m.group("fid") in fids:
        return ParsedEntry("#" + m.group("fid"), (), int(m.group("n")) if m.group("n") else None)
    m = re.fullmatch(r"(?P<fid>[\w-]+): (?P<list>.+)", s)
    if m:
        if m.group("fid") not in fids:
            raise ValueError(f"{m.group('fid')!r} is no formation id of the order of battle")
        return ParsedEntry("#" + m.group("fid"), tuple(_items(m.group("list"))))
    return None


def _find_formation(entry: ParsedEntry, oob: OrderOfBattle) -> tuple[str, tuple]:
    if entry.formation.startswith("#"):
        return entry.formation[1:], entry.items
    name = entry.formation.lower()
    if name in oob.formations:
        return oob.formations[name], entry.items
    if not entry.items and entry.count is None:           # "416 T'ai Light Company", "1(3) Foreign Legion ..."
        for known in sorted(oob.formations, key=len, reverse=True):
            if name.endswith(" " + known):
                return oob.formations[known], tuple(_items(entry.formation[:-len(known)].strip()))
    raise ValueError(f"{entry.formation!r} is no formation of the order of battle")


@implements("C SR 1", "C SR 2")
def resolve_entry(text: str, oob: OrderOfBattle | None = None) -> list[Placement]:
    """The counters a printed unit entry places, each with its inversion and losses (SR 1.A.5, SR 2.1)."""
    oob = shipped_oob() if oob is None else oob
    entry = _compact_entry(text, oob) or parse_entry(text)
    fid, items = _find_formation(entry, oob)
    if not items:
        members = oob.members(fid)
        if entry.count is not None and entry.count != len(members):
            raise ValueError(f"prints {entry.count} counters but the order of battle's {fid} has {len(members)}")
        return [Placement(c.id) for c in members]
    out = []
    for desig, note in items:
        cid = f"{desig}/{fid}"
        counter = oob.counters.get(cid)
        if counter is None:
            have = ", ".join(c.id.split("/")[0] for c in oob.members(fid))
            raise ValueError(f"names no counter {cid!r} (the order of battle's {fid} has {have})")
        inverted, losses = parse_notation(note) if note is not None else (False, 0)
        out.append(_checked(counter, inverted, losses))
    return out


def _checked(c: Counter, inverted: bool, losses: int) -> Placement:
    """A placement the counter can bear: only infantry is inverted, and the losses leave it standing (C 9.3-4)."""
    if inverted and c.cls is not UnitClass.INFANTRY:
        raise ValueError(f"{c.id} is not backprinted infantry and cannot start inverted")
    left = (c.reduced_strength if inverted else c.strength) - losses
    if left <= 0:
        raise ValueError(f"{c.id} with {losses} lost{' after inversion' if inverted else ''} would be eliminated")
    note = ""
    if c.cls is UnitClass.INFANTRY and not inverted and losses >= (c.critical_loss_level or 99):
        note = (f"printed with {losses} lost and not inverted, although C 9.3 inverts a {c.size} at "
                f"{c.critical_loss_level} (set up as printed)")
    return Placement(c.id, inverted, losses, note)


@implements("C SR 1")
def parse_regiment_state(text: str) -> list[str] | str:
    """A Vietminh regiment's chart entry: ``"NL"`` or ``"do"`` for the whole regiment, or one notation a
    battalion separated by semicolons (each ``NL``, ``do``, ``R``, a number, or ``R`` and a number)."""
    s = str(text).strip()
    if s in ("NL", "do"):
        return s
    parts = [p.strip() for p in s.split(";")]
    for p in parts:
        if p != "do":
            parse_notation(p)
    return parts


# --------------------------------------------------------------------------- dates and trenches

@implements("C SR 1", "C Turn Record Chart")
def days(scenario: "ScenarioOutline") -> list[dt.date]:
    """The scenario's game turns, one a day (C 2, SR 1.A.1)."""
    return [scenario.start + dt.timedelta(days=i) for i in range(scenario.days)]


#: A tunnel or a weapons pit counts as this many trench hexes (SR 1.B.5, SR 2.2; C 18's four hexes a dig).
TUNNEL_OR_PIT = 4


@implements("C SR 1", "C SR 2")
def trench_equivalents(trenches: int = 0, tunnels: int = 0, pits: int = 0) -> int:
    """Trench hex equivalents of a Vietminh set-up."""
    if min(trenches, tunnels, pits) < 0:
        raise ValueError("counts of trenches, tunnels and pits cannot be negative")
    return trenches + TUNNEL_OR_PIT * (tunnels + pits)


def within_trench_allowance(scenario: "ScenarioOutline", trenches: int = 0, tunnels: int = 0, pits: int = 0) -> bool:
    """Whether a set-up's works fit the chart's trench hex equivalents (SR 2.2)."""
    return trench_equivalents(trenches, tunnels, pits) <= scenario.information["vm_trenches"]


# --------------------------------------------------------------------------- strongpoints

@dataclass(frozen=True)
class Strongpoints:
    complexes: dict[str, tuple[str, ...]]
    codes: dict[str, str]                 # complex letter -> complex name
    hills: frozenset
    independent: tuple[str, ...]

    @property
    def all(self) -> frozenset:
        return frozenset(sp for sps in self.complexes.values() for sp in sps) | frozenset(self.independent)

    def code(self, name: str) -> str:
        """A strongpoint's name on the map as the scenarios write it: ``"H7"`` -> ``"H-7"``, ``"Junon"`` ->
        ``"Juno"``, ``"I-5"`` -> ``"Weime, I-5"``."""
        from .terrain import ALIASES
        m = re.fullmatch(r"([A-Z]{1,2})-?(\d)", name.strip())
        t = f"{m.group(1)}-{m.group(2)}" if m else name.strip()
        return ALIASES.get(t, t)

    def expand(self, names) -> set[str]:
        """Strongpoints meant by complex names and strongpoint codes (a complex stands for all its strongpoints)."""
        out = set()
        for n in names:
            if n in self.complexes:
                out |= set(self.complexes[n])
            else:
                c = self.code(n)
                if c not in self.all:
                    raise ValueError(f"{n!r} is no strongpoint or complex of the roster")
                out.add(c)
        return out


def roster_from_map(m) -> Strongpoints:
    """The strongpoint roster a map defines (C 14.A): complexes by alpha code, the hill strongpoints (any hex on
    a hill) and the independent ones. Names are the map's ("Weime, I-5" is I-5 of Isabelle). Worked out once
    per map."""
    return m.derived("strongpoint roster", lambda: _roster(m))


def _roster(m) -> Strongpoints:
    from .terrain import COMPLEXES, complex_of, strongpoints
    cx: dict[str, list[str]] = {}
    independent, hills = [], set()
    for name, hexes in sorted(strongpoints(m).items()):
        code = complex_of(name)
        if code is None:
            independent.append(name)
        else:
            cx.setdefault(COMPLEXES[code], []).append(name)
        if any(m.terrain(h) == "hill" for h in hexes):
            hills.add(name)
    return Strongpoints({k: tuple(v) for k, v in cx.items()}, {c: n for c, n in COMPLEXES.items() if n in cx},
                        frozenset(hills), tuple(independent))


def load_strongpoints(m=None) -> Strongpoints:
    """The roster of the valley map (default) or of ``m``, an owner's printed map."""
    if m is None:
        from .terrain import valley_map
        m = valley_map()
    return roster_from_map(m)


def parse_place(text: str) -> tuple[str, list[str]]:
    """``"Dominique (except D1, D2, D5 and D6)"`` -> ("Dominique", ["D1", "D2", "D5", "D6"]) (SR 1.A.5)."""
    m = re.fullmatch(r"(.+?)\s*\(except ([^)]*)\)", text.strip())
    if not m:
        return text.strip(), []
    return m.group(1), [x for x in re.split(r",\s*(?:and\s+)?|\s+and\s+", m.group(2)) if x]


# --------------------------------------------------------------------------- scenario outlines

_ENTRY = Either(Str(min_len=1, max_len=300),
                Record({"printed": Str(min_len=1, max_len=300)},
                       {"read_as": Str(max_len=300), "note": Str(max_len=1000)}, what="{printed, read_as, note}"))
_GROUP = Record({"at": Str(min_len=1, max_len=120), "units": List(_ENTRY, min_len=1)}, {"note": Str(max_len=1000)},
                what="a group {at, units}")
_ARRIVAL = Record({"date": _DATE, "units": List(_ENTRY, min_len=1)}, what="a reinforcement {date, units}")
_SAME = Record({"same_as": Int(1, 8)}, what="{same_as: <scenario number>}")
_SUPPLY = Map(Str(key=True, max_len=10), Int(0, 9999))
_INFO = Record(
    {}, {"same_as": Int(1, 8), "french_supply": _SUPPLY, "french_aircraft": Map(Str(max_len=20), Int(0, 99)),
         "french_aircraft_aborted": Map(Str(max_len=20), Int(0, 99)), "vm_supply": _SUPPLY,
         "vm_regiments": Map(Str(key=True, max_len=10), Str(key=True, max_len=80)), "vm_trenches": Int(0, 9999),
         "french_replacements": Record({"infantry": Int(0, 99), "artillery": Int(0, 99)}),
         "vm_strongpoints": List(Str(key=True, max_len=40)),
         "provenance": Map(Str(max_len=80), Str(max_len=2000))},
    what="a Scenario Information Chart column")
INFO_FIELDS = ("french_supply", "french_aircraft", "french_aircraft_aborted", "vm_supply", "vm_regiments",
               "vm_trenches", "french_replacements", "vm_strongpoints")
_VICTORY_KINDS = ("complexes", "aa_batteries", "victory_points", "key_strongpoint", "all_strongpoints")
_VICTORY = Record({}, {"same_as": Int(1, 8), "kind": Str(_VICTORY_KINDS), "levels": Map(Str(max_len=20), Int(0, 99)),
                       "loss_reduction": Record({"over": Int(0, 9999), "levels": Int(1, 3)}),
                       "french_win_at": Int(1, 99), "per_strongpoint": Int(1, 99), "hill_multiplier": Int(1, 9),
                       "loss_penalty": Record({"per": Int(1, 999), "points": Int(1, 99)}),
                       "bands": Map(Str(max_len=20), Tuple(Int(0, 999), Nullable(Int(0, 999)))),
                       "key": Str(max_len=20), "others": Int(1, 99), "automatic_loss_over": Int(0, 9999)},
                  what="victory conditions")
SCENARIO_FILE = Record(
    {"number": Int(1, 8), "title": Str(min_len=1, max_len=200), "start": _DATE, "days": Int(1, 60),
     "weekdays": Tuple(Str(WEEKDAYS), Str(WEEKDAYS)), "victory": _VICTORY,
     "french_reinforcements": List(_ARRIVAL), "vm_reinforcements": List(_ARRIVAL),
     "french_dispositions": Either(List(_GROUP), _SAME), "information": _INFO},
    {"player_turn": Str(["French", "Vietminh"]), "length_note": Str(max_len=2000),
     "vm_dispositions": Opt(List(_GROUP), []), "vm_withheld": Opt(List(_ENTRY), []),
     "partial_setup": Opt(AnyValue(), False)},
    what="a scenario outline")


@dataclass
class Group:
    """The counters a disposition group sets up in one place; ``vm_held`` are its "(except ...)" strongpoints."""

    at: str
    vm_held: list[str]
    placements: list[Placement]


@dataclass
class ScenarioOutline:
    number: int
    title: str
    start: dt.date
    days: int
    weekdays: tuple[str, str]
    victory: dict
    french: list[Group]
    vietminh: list[Group]
    french_reinforcements: dict[dt.date, list[Placement]]
    vm_reinforcements: dict[dt.date, list[Placement]]
    withheld: list[Placement]
    information: dict
    source: str
    player_turn: str | None = None
    length_note: str = ""
    partial_setup: bool = False

    @property
    def end(self) -> dt.date:
        return self.start + dt.timedelta(days=self.days - 1)

    def placements(self) -> list[Placement]:
        return [p for g in self.french + self.vietminh for p in g.placements]


def _path(name_or_path: int | str | Path) -> Path:
    if isinstance(name_or_path, int) or (isinstance(name_or_path, str) and name_or_path.isdigit()):
        return SCENARIO_DIR / f"scenario{int(name_or_path)}.yaml"
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") or p.exists():
        return p
    return SCENARIO_DIR / f"{name_or_path}.yaml"


def _entry_text(e) -> str:
    return e if isinstance(e, str) else e.get("read_as") or e["printed"]


class _Resolver:
    """Resolves one file's entries, naming the file, field and line of any problem."""

    def __init__(self, path: Path, raw, oob: OrderOfBattle):
        self.path, self.raw, self.oob = path, raw, oob

    def error(self, fld: str, reason: str) -> DataError:
        return place(DataError(str(self.path), fld, reason), self.raw)

    def entries(self, entries, fld: str) -> list[Placement]:
        out = []
        for i, e in enumerate(entries):
            try:
                out += resolve_entry(_entry_text(e), self.oob)
            except ValueError as err:
                raise self.error(f"{fld}[{i}]", f"{_entry_text(e)!r}: {err}") from None
        return out


def _sibling(path: Path, n: int) -> Path:
    return path.parent / f"scenario{n}.yaml"


@implements("C SR 1", "C Scenario Information Chart", *(f"C Sc {n}" for n in range(1, 9)))
def load_scenario_outline(name_or_path: int | str | Path, oob: OrderOfBattle | None = None) -> ScenarioOutline:
    """A scenario outline and its information chart, every unit resolved against the order of battle.

    ``name_or_path``: a scenario number (1-8), a name such as ``"scenario3"``, or a file path. ``same_as`` fields
    are read from the sibling file of that number."""
    path = _path(name_or_path)
    oob = shipped_oob() if oob is None else oob
    raw = read_yaml(path)
    v = load_file(path, SCENARIO_FILE, raw)
    r = _Resolver(path, raw, oob)
    sps = load_strongpoints()

    def borrowed(value: dict, fld: str) -> dict:
        if "same_as" not in value or value["same_as"] is None:
            return value
        other = load_file(_sibling(path, value["same_as"]), SCENARIO_FILE)[fld]
        return {**other, **{k: x for k, x in value.items() if x not in (None, {}) and k != "same_as"}}

    info = borrowed(v["information"], "information")
    missing = [k for k in INFO_FIELDS if info.get(k) is None]
    if missing:
        raise r.error("information", f"lacks {', '.join(missing)}")
    victory = borrowed(v["victory"], "victory")
    groups_raw = v["french_dispositions"]
    groups_src = path
    if isinstance(groups_raw, dict):
        groups_src = _sibling(path, groups_raw["same_as"])
        groups_raw = load_file(groups_src, SCENARIO_FILE)["french_dispositions"]
    try:
        vm_held = sps.expand(info["vm_strongpoints"])
    except ValueError as e:
        raise r.error("information.vm_strongpoints", str(e)) from None

    def groups(gs, fld, resolver):
        out = []
        for i, g in enumerate(gs):
            where, excepted = parse_place(g["at"])
            try:
                codes = sps.expand(excepted)
            except ValueError as e:
                raise resolver.error(f"{fld}[{i}].at", str(e)) from None
            if not codes <= vm_held:
                raise resolver.error(f"{fld}[{i}].at", f"excepts {sorted(codes - vm_held)}, which the information "
                                                       "chart's vm_strongpoints does not list")
            if where in sps.complexes and set(sps.complexes[where]) <= vm_held:
                raise resolver.error(f"{fld}[{i}].at", f"{where} is wholly in Vietminh hands at the start")
            out.append(Group(g["at"], sorted(codes), resolver.entries(g["units"], f"{fld}[{i}].units")))
        return out

    french = groups(groups_raw, "french_dispositions",
                    r if groups_src == path else _Resolver(groups_src, read_yaml(groups_src), oob))
    vietminh = groups(v["vm_dispositions"], "vm_dispositions", r)
    placed: dict[str, str] = {}
    for side, gs in (("french_dispositions", french), ("vm_dispositions", vietminh)):
        for i, g in enumerate(gs):
            for p in g.placements:
                if p.counter in placed:
                    raise r.error(f"{side}[{i}].units", f"places {p.counter} again (already in {placed[p.counter]})")
                placed[p.counter] = g.at

    def arrivals(lst, fld):
        out: dict[dt.date, list[Placement]] = {}
        for i, a in enumerate(lst):
            if not v["start"] <= a["date"] <= v["start"] + dt.timedelta(days=v["days"] - 1):
                raise r.error(f"{fld}[{i}].date", f"{a['date']} falls outside the scenario")
            ps = r.entries(a["units"], f"{fld}[{i}].units")
            for p in ps:
                if p.counter in placed:
                    raise r.error(f"{fld}[{i}].units", f"{p.counter} arrives but is already set up at {placed[p.counter]}")
            out.setdefault(a["date"], []).extend(ps)
        return out

    fr = arrivals(v["french_reinforcements"], "french_reinforcements")
    vr = arrivals(v["vm_reinforcements"], "vm_reinforcements")
    withheld = r.entries(v["vm_withheld"], "vm_withheld")
    for p in withheld:
        if p.counter in placed:
            raise r.error("vm_withheld", f"{p.counter} is withheld but also set up at {placed[p.counter]}")
    last = v["start"] + dt.timedelta(days=v["days"] - 1)
    if last > LAST_DATE:
        raise r.error("days", f"the scenario would run to {last}, past the fall of the camp on {LAST_DATE}")
    printed = (WEEKDAYS[v["start"].weekday()], WEEKDAYS[last.weekday()])
    if tuple(v["weekdays"]) != printed:
        raise r.error("weekdays", f"{list(v['weekdays'])} disagree with the calendar, which gives {list(printed)}")
    air = load_air_units()
    for k in ("french_aircraft", "french_aircraft_aborted"):
        for t, n in info[k].items():
            if t not in air:
                raise r.error(f"information.{k}.{t}", "is no air unit type of air.yaml")
    for t in air:
        n = info["french_aircraft"].get(t, 0) + info["french_aircraft_aborted"].get(t, 0)
        if n > air[t].counters:
            raise r.error(f"information.french_aircraft.{t}", f"{n} counters, but only {air[t].counters} exist")
    for reg, text in info["vm_regiments"].items():
        if reg not in oob.regiments:
            raise r.error(f"information.vm_regiments.{reg}", "is no Vietminh infantry regiment of the order of battle")
        try:
            parts = parse_regiment_state(text)
        except ValueError as e:
            raise r.error(f"information.vm_regiments.{reg}", str(e)) from None
        if isinstance(parts, list) and len(parts) != len(_battalions(oob, reg)):
            raise r.error(f"information.vm_regiments.{reg}",
                          f"gives {len(parts)} battalions; the regiment has {len(_battalions(oob, reg))}")
    return ScenarioOutline(v["number"], v["title"], v["start"], v["days"], tuple(v["weekdays"]), victory, french,
                           vietminh, fr, vr, withheld, info, str(path), v["player_turn"], v["length_note"] or "",
                           bool(v["partial_setup"]))


def _battalions(oob: OrderOfBattle, regiment: str) -> list[Counter]:
    return sorted((c for c in oob.counters.values() if c.regiment == regiment and c.is_battalion),
                  key=lambda c: c.id)


@implements("C SR 1", "C SR 2", "C Scenario Information Chart")
def vm_strengths(scenario: ScenarioOutline | int, oob: OrderOfBattle | None = None) -> dict[str, Placement]:
    """Every Vietminh battalion's starting state (SR 1.B.4, SR 2.3): ``do`` is read from the previous scenario."""
    sc = scenario if isinstance(scenario, ScenarioOutline) else load_scenario_outline(scenario, oob)
    oob = shipped_oob() if oob is None else oob
    path = Path(sc.source)
    previous: dict[str, Placement] | None = None
    out = {}
    for reg, text in sc.information["vm_regiments"].items():
        bns = _battalions(oob, reg)
        parts = parse_regiment_state(text)
        parts = [parts] * len(bns) if isinstance(parts, str) else parts
        for c, note in zip(bns, parts):
            if note == "do":
                if sc.number == 1:
                    raise DataError(str(path), f"information.vm_regiments.{reg}", "'do' has no earlier scenario")
                if previous is None:
                    previous = vm_strengths(load_scenario_outline(_sibling(path, sc.number - 1), oob), oob)
                if c.id not in previous:
                    raise DataError(str(path), f"information.vm_regiments.{reg}",
                                    f"'do', but scenario {sc.number - 1} does not list {c.id}")
                out[c.id] = previous[c.id]
            else:
                try:
                    out[c.id] = _checked(c, *parse_notation(note))
                except ValueError as e:
                    raise DataError(str(path), f"information.vm_regiments.{reg}", str(e)) from None
    return out


@implements("C SR 2")
def absent_at_start(scenario: ScenarioOutline) -> set[str]:
    """Vietminh counters not on the map at the start: withheld by SR 2.3 or arriving later as reinforcements."""
    return {p.counter for p in scenario.withheld} | {p.counter for ps in scenario.vm_reinforcements.values()
                                                     for p in ps}


def vm_held_at_start(scenario: ScenarioOutline) -> set[str]:
    """The strongpoints the Vietminh hold when the scenario begins (SR 1.B.7)."""
    return load_strongpoints().expand(scenario.information["vm_strongpoints"])


# --------------------------------------------------------------------------- victory (SR 3)

@dataclass(frozen=True)
class Victory:
    winner: str                 # "French" or "Vietminh"
    level: str | None           # marginal, tactical, strategic, or None
    reason: str


_LEVELS = ("marginal", "tactical", "strategic")


@implements("C SR 3", *(f"C Sc {n}" for n in range(1, 9)))
def evaluate_victory(scenario: ScenarioOutline, vm_held_at_end, vm_losses: int = 0,
                     aa_batteries_destroyed: int = 0) -> Victory:
    """Score a scenario's end. Only strongpoints the Vietminh did not hold at the start earn anything (SR 1.A.2)."""
    sps = load_strongpoints()
    v = scenario.victory
    end = sps.expand(vm_held_at_end)
    start = vm_held_at_start(scenario)
    new = end - start
    kind = v["kind"]
    if kind == "aa_batteries":
        if aa_batteries_destroyed >= v["french_win_at"]:
            return Victory("French", None, f"{aa_batteries_destroyed} antiaircraft batteries destroyed")
        return Victory("Vietminh", None, f"only {aa_batteries_destroyed} antiaircraft batteries destroyed")
    if kind == "complexes":
        taken = [n for n, c in sps.complexes.items() if set(c) <= end and not set(c) <= start]
        level = max((i for i, name in enumerate(_LEVELS) if len(taken) >= v["levels"][name]), default=-1)
        why = f"complexes captured: {taken or 'none'}"
        if level >= 0 and vm_losses > v["loss_reduction"]["over"]:
            level -= v["loss_reduction"]["levels"]
            why += f"; Vietminh losses {vm_losses} > {v['loss_reduction']['over']} lower the result"
        return Victory("Vietminh", _LEVELS[level], why) if level >= 0 else Victory("French", None, why)
    if kind == "victory_points":
        vp = sum(v["per_strongpoint"] * (v["hill_multiplier"] if sp in sps.hills else 1) for sp in new)
        vp -= v["loss_penalty"]["points"] * (vm_losses // v["loss_penalty"]["per"])
        for name in reversed(_LEVELS):
            lo, hi = v["bands"][name]
            if vp >= lo and (hi is None or vp <= hi):
                return Victory("Vietminh", name, f"{vp} victory points")
        return Victory("French", None, f"{vp} victory points")
    if kind == "key_strongpoint":
        key = sps.code(v["key"])
        if key in new or len(new - {key}) >= v["others"]:
            return Victory("Vietminh", None, f"holds {sorted(new)}")
        return Victory("French", None, f"the Vietminh took only {', '.join(sorted(new))}" if new else
                       "the Vietminh took no strongpoint")
    if kind == "all_strongpoints":
        if vm_losses > v["automatic_loss_over"]:
            return Victory("French", None, f"Vietminh losses {vm_losses} > {v['automatic_loss_over']}: automatic loss")
        if sps.all <= end:
            return Victory("Vietminh", None, "every strongpoint held")
        return Victory("French", None, f"{len(sps.all - end)} strongpoints still French")
    raise ValueError(f"unknown victory kind {kind!r}")


__all__ = ["AirUnit", "Group", "OrderOfBattle", "ParsedEntry", "Placement", "ScenarioOutline", "Strongpoints",
           "Victory", "absent_at_start", "days", "evaluate_victory", "load_air_units", "load_oob",
           "load_scenario_outline", "load_strongpoints", "parse_entry", "parse_notation", "parse_place",
           "parse_regiment_state", "resolve_entry", "shipped_oob", "trench_equivalents", "vm_held_at_start",
           "vm_strengths", "within_trench_allowance"]
