"""Rules 7.1, 7.24, 7.3-7.7 and 5.31-5.32: US and Chinese military assistance, the full Mobilization Chart and
where reinforcements may be placed.

All three charts are printed on the map and absent from the text, so the shipped files are reconstructions
with a provenance on every value: ``us_assistance.yaml`` and ``chinese_assistance.yaml`` (7.3) and
``mobilization_full.yaml`` (7.21, keeping the three rows the text gives). :data:`CONSTRAINTS` lists what the
text implies about them; :func:`check_constraints` runs them on any chart an owner loads.

* :func:`roll_assistance`: one die on one's own table at the start of the Mobilization Phase, before any
  political point is spent (7.3); supply and units are free (7.31); a unit missing from the counter mix is
  not received (7.24).
* :func:`mobilize_unit`: spend political points for a unit of the full chart (5.31, 7.21-7.23, 7.71), with
  US and Chinese units only as replacements for lost intervention units (5.32, 7.72).
* :func:`place_reinforcement` and :func:`check_placement`: where a new unit may go (7.4-7.45).

The phase is a small record (:class:`AssistancePhase`) so these stay plain functions of a
:class:`~wargames.indochina.political.PoliticalPoints` and a :class:`Place`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any

from ..core import Dice, Provenance, Resolution, implements
from ..core.charts import Constraint, failed_constraints
from ..core.schema import Bool, Convert, Int, List, Map, Opt, Record, Str
from ..core.errors import DataError, RuleViolation
from ..core.dice import roll_die
from .combat import Side
from .mobilization import COSTLY_TERRAIN, FESA
from .fields import (DIE_ROLL, HEADER, HEADER_OPTIONAL, NAME, POINTS, SIDE, Invalid, every_roll, load_chart,
                     provenance, shipped)
from .political import PoliticalPoints
from .units import SIZES, TYPES

DATA = Path(__file__).parent / "data" / "charts"
AIR_AVAILABLE = "Air Available"
CHINA = "China"
INDOCHINA = ("Vietnam", "Laos", "Cambodia")
AREAS = (FESA, AIR_AVAILABLE, CHINA)
OFF_MAP = (FESA, AIR_AVAILABLE)              # boxes, not hexes: 7.23's one-per-hex limit does not reach them
AIR_NAVAL_TYPES = ("airstrike", "air transport", "naval bombardment")
ROW_TYPES = TYPES + AIR_NAVAL_TYPES
TABLE_FILES = {Side.FEF: "us_assistance.yaml", Side.COMMUNIST: "chinese_assistance.yaml"}
TABLE_NAMES = {Side.FEF: "US", Side.COMMUNIST: "Chinese"}


# =========================================================================== the full Mobilization Chart

@dataclass(frozen=True)
class Location:
    """Where a row's unit is placed: on a friendly unit of a type (``on``) or in an area, maybe in a country."""

    on: str = ""
    area: str = ""
    country: str = ""

    def describe(self) -> str:
        if self.on:
            where = f"on a combat-effective friendly {self.on}"
        else:
            where = {AIR_AVAILABLE: f"in the {AIR_AVAILABLE} box", CHINA: "anywhere in China"}.get(self.area,
                                                                                             f"in the {self.area}")
        return where + (f" in {self.country}" if self.country else "")


@dataclass(frozen=True)
class ChartRow:
    name: str
    side: Side
    nationality: str
    type: str
    size: str
    cost: int
    location: Location
    provenance: Provenance
    intervention: bool = False          # a US or Chinese unit (7.72)
    counter_mix_exempt: bool = False    # Communist militia (7.24, 17.36)


def _location(v: dict) -> Location:
    if bool(v["on"]) == bool(v["area"]):
        raise ValueError("needs exactly one of 'on' (a unit type) or 'area'")
    return Location(v["on"], v["area"], v["country"])


LOCATION = Record({}, {"on": Opt(Str(TYPES, what="a 2.31 unit type"), ""), "area": Opt(Str(AREAS), ""),
                       "country": Opt(Str(INDOCHINA + ("Indochina", CHINA), what="a country of the map"), "")},
                  build=_location, what="a location {on or area, country}")


def _full_chart_schema(default: Provenance) -> Record:
    row = Record({"side": SIDE, "nationality": NAME, "type": Str(ROW_TYPES, what="a 2.31 unit type"),
                  "size": Str(SIZES + ("brigade", "marker")), "cost": Int(1, 99), "location": LOCATION},
                 {"intervention": Opt(Bool(), False), "counter_mix_exempt": Opt(Bool(), False),
                  "provenance": provenance(default)})
    return Record({**HEADER, "units": Map(NAME, row, min_len=1, max_len=300)}, HEADER_OPTIONAL,
                  build=lambda v: {name: ChartRow(name, **r) for name, r in v["units"].items()})


@implements("IC Mobilization Chart", "IC 7.21")
def load_full_chart(path: str | Path | None = None) -> dict[str, ChartRow]:
    """Load a full Mobilization Chart (the reconstruction, or an owner's printed one); a new dict each call."""
    return load_chart(DATA / "mobilization_full.yaml" if path is None else path, _full_chart_schema)


# =========================================================================== the assistance tables

@dataclass(frozen=True)
class AssistanceEntry:
    roll: int
    supply: int
    units: tuple[str, ...]
    provenance: Provenance


@dataclass(frozen=True)
class AssistanceTable:
    name: str
    side: Side
    entries: dict[int, AssistanceEntry]
    file: str


def _assistance_schema(default: Provenance) -> Record:
    chart = shipped("mobilization_full")        # the units an entry names are rows of the shipped chart

    def units(names: list[str]) -> tuple[str, ...]:
        for i, u in enumerate(names):
            if u not in chart:
                raise Invalid(f"[{i}]", f"{u!r} has no row in the full Mobilization Chart")
        return tuple(names)

    entry = Record({"supply": POINTS}, {"units": Opt(Convert(List(NAME, max_len=20), units), ()),
                                        "provenance": provenance(default)},
                   what="an entry {supply, units} (assistance costs no political points, 7.31)")
    return Record({**HEADER, "side": SIDE, "results": Map(DIE_ROLL, entry)}, HEADER_OPTIONAL,
                  check=every_roll(range(1, 7), "results"),
                  build=lambda v: (v["name"], v["side"],
                                   {n: AssistanceEntry(n, e["supply"], e["units"], e["provenance"])
                                    for n, e in sorted(v["results"].items())}))


@implements("IC US Military Assistance Table", "IC Chinese Military Assistance Table")
def load_assistance(side: Side | str = Side.FEF, path: str | Path | None = None) -> AssistanceTable:
    """The US table (FEF) or the Chinese table (Communist), one entry per die roll 1-6 (a new object each call)."""
    path = DATA / TABLE_FILES[Side(side)] if path is None else path
    name, table_side, entries = load_chart(path, _assistance_schema)
    return AssistanceTable(name, table_side, entries, str(path))


# =========================================================================== sources, counter mix, phase

class Source(str, Enum):
    """7.1: the three ways reinforcements arrive."""

    MOBILIZATION = "political point expenditure"     # 7.1(1)
    ASSISTANCE = "military assistance"                # 7.1(2)
    EVENT = "random event"                            # 7.1(3)


@implements("IC 7.1")
def costs_political_points(source: Source) -> bool:
    """7.1 with 7.22 and 7.31: only mobilization is paid for; assistance and event units are free.
    All three arrive in the friendly Mobilization Phase (the text's "Reinforcement Phase", catalog B5 #7)."""
    return Source(source) is Source.MOBILIZATION


@implements("IC 7.24")
def counters_available(unit_type: str, counter_mix: dict[str, int], in_play: dict[str, int] | None = None,
                       chart: dict[str, ChartRow] | None = None) -> int | None:
    """How many counters of a type are free to enter play: the counter mix less those in play (7.24).

    ``None`` means no limit: Communist militia is not bound by the counter mix (7.24's exception, 17.36).
    Eliminated counters are not in play and so are free again (7.6).
    """
    row = (chart or shipped("mobilization_full")).get(unit_type)
    if row is not None and row.counter_mix_exempt:
        return None
    total = counter_mix.get(unit_type, 0)
    return max(total - (in_play or {}).get(unit_type, 0), 0)


@implements("IC 7.6")
def eliminate(in_play: dict[str, int], unit_type: str) -> dict[str, int]:
    """7.6: an eliminated unit leaves play and its counter may come back later as a reinforcement of its type."""
    if in_play.get(unit_type, 0) < 1:
        raise RuleViolation("IC 7.6", f"no {unit_type} is in play to be eliminated")
    out = dict(in_play)
    out[unit_type] -= 1
    return out


@dataclass(frozen=True)
class Friendly:
    """A friendly unit already in a hex: its type, whether it is combat effective, and whether it was
    mobilized this phase (7.21(3))."""

    type: str
    effective: bool = True
    new: bool = False


@dataclass(frozen=True)
class Place:
    """Where a player wants to put a new unit: a hex (label, country, terrain, friendly units) or an area."""

    where: str
    country: str = ""
    terrain: str = "clear"
    friendly: tuple[Friendly, ...] = ()

    @classmethod
    def area(cls, name: str) -> "Place":
        if name not in OFF_MAP:
            raise DataError("place", "where", f"{name!r} is not an off-map area ({', '.join(OFF_MAP)})")
        return cls(name)

    @property
    def off_map(self) -> bool:
        return self.where in OFF_MAP


@dataclass(frozen=True)
class Placement:
    """A unit put into play: where, at what cost, and its state on arrival (7.43, 7.5)."""

    unit_type: str
    where: str
    cost: int
    source: Source
    ready: bool = False            # 7.43: air and naval strikes can be used at once
    movement_spent: int = 0        # 7.5: placing a unit costs none of its movement


@dataclass
class AssistancePhase:
    """What a side has done in its current Mobilization Phase (7.2, 7.3)."""

    side: Side
    placed: dict[str, str] = field(default_factory=dict)       # hex -> unit type placed this phase
    spent: int = 0                                             # political points spent so far
    assistance_rolled: bool = False
    pending: list[str] = field(default_factory=list)           # assistance units still to be placed
    placements: list[Placement] = field(default_factory=list)
    log: Resolution = field(default_factory=Resolution)


# =========================================================================== placement

@implements("IC 7.2", "IC 7.21", "IC 7.23", "IC 7.4", "IC 7.41", "IC 7.42", "IC 7.43", "IC 7.44", "IC 7.45",
            "IC Mobilization Chart")
def check_placement(row: ChartRow, side: Side, place: Place, phase: AssistancePhase | None = None,
                    res: Resolution | None = None) -> None:
    """Raise RuleViolation unless ``place`` is where the chart row's unit may be put (7.4-7.45, 7.21(3), 7.23)."""
    res = res if res is not None else Resolution()
    loc = row.location
    if row.side is not side:
        raise RuleViolation("IC 7.21", f"the {side.value} player cannot bring in a {row.name}")
    if loc.area == FESA:
        if side is not Side.FEF:
            raise RuleViolation("IC 7.42", "only the FEF has a Far Eastern Staging Area")
        if place.where != FESA:
            raise RuleViolation("IC 7.42", f"a {row.name} is placed in the {FESA}, not in {place.where}")
    elif loc.area == AIR_AVAILABLE:
        if place.where != AIR_AVAILABLE:
            raise RuleViolation("IC 7.43", f"a {row.name} is placed in the {AIR_AVAILABLE} box, not in {place.where}")
    else:
        if place.off_map:
            raise RuleViolation("IC 7.41", f"a {row.name} is placed {loc.describe()}, not in the {place.where}")
        if place.country == CHINA and side is not Side.COMMUNIST:
            raise RuleViolation("IC 7.45", "only the Communist player may place units in China")
        if loc.area == CHINA and place.country != CHINA:
            raise RuleViolation("IC 7.45", f"a {row.name} is placed in China, not in {place.country or place.where}")
        want = loc.country
        if want == "Indochina" and place.country not in INDOCHINA or want in INDOCHINA + (CHINA,) \
                and place.country != want:
            raise RuleViolation("IC 7.41", f"a {row.name} is placed {loc.describe()}; {place.where} is in "
                                           f"{place.country or 'no stated country'}")
        if loc.on:
            hosts = [f for f in place.friendly if f.type == loc.on]
            if not hosts:
                raise RuleViolation("IC 7.44", f"a {row.name} needs a friendly {loc.on} in {place.where}; "
                                               "with none there it may not be mobilized there this turn")
            if not any(f.effective for f in hosts):
                raise RuleViolation("IC 7.44", f"the {loc.on} in {place.where} is disrupted; the unit a new "
                                               "unit is placed on must be combat effective")
            if not any(f.effective and not f.new for f in hosts):
                raise RuleViolation("IC 7.21", f"the {loc.on} in {place.where} was itself mobilized this phase; "
                                               "a new unit may not be placed on it")
    if phase is not None and not place.off_map and place.where in phase.placed:
        raise RuleViolation("IC 7.23", f"{place.where} already received a new unit this phase "
                                       f"({phase.placed[place.where]}); one unit per hex per phase")
    res.add("IC 7.41", f"{row.name} may be placed in {place.where} ({loc.describe()}; chart row "
                       f"{row.provenance.mark()})")


@implements("IC 7.5")
def _record(phase: AssistancePhase | None, row: ChartRow, place: Place, cost: int, source: Source,
            res: Resolution) -> Placement:
    ready = row.location.area == AIR_AVAILABLE
    p = Placement(row.name, place.where, cost, source, ready=ready)
    if ready:
        res.add("IC 7.43", f"{row.name} goes to the {AIR_AVAILABLE} box, ready for use at once")
    res.add("IC 7.5", f"{row.name} may move and fight this turn; placing it spent none of its movement",
            result=0)
    if phase is not None:
        if not place.off_map:
            phase.placed[place.where] = row.name
        phase.placements.append(p)
    return p


def _mix_check(row: ChartRow, counter_mix: dict[str, int] | None, in_play: dict[str, int] | None) -> bool:
    if counter_mix is None:
        return True
    free = counters_available(row.name, counter_mix, in_play)
    return free is None or free > 0


@implements("IC 5.3", "IC 5.31", "IC 5.32", "IC 7.72", "IC 7.7", "IC 7.71")
def mobilize_unit(points: PoliticalPoints, side: Side, unit_type: str, place: Place,
                  phase: AssistancePhase | None = None, *, counter_mix: dict[str, int] | None = None,
                  in_play: dict[str, int] | None = None, intervention_losses: dict[str, int] | None = None,
                  chart: dict[str, ChartRow] | None = None) -> Resolution:
    """Spend political points for one unit of the full Mobilization Chart and place it (5.31, 7.2-7.23, 7.7).

    US and Chinese units (``intervention`` rows) may only replace intervention units lost earlier (7.72); their
    price comes off the buyer's own index (5.32, our reading in catalog B5 #10). ``intervention_losses`` counts
    those losses by unit type and is lowered by one for each replacement.
    """
    chart = chart or shipped("mobilization_full")
    res = Resolution()
    row = chart.get(unit_type)
    if row is None:
        raise DataError(str(DATA / "mobilization_full.yaml"), f"units.{unit_type}", "has no Mobilization Chart row")
    if phase is not None and phase.side is not side:
        raise RuleViolation("IC 7.2", f"it is the {phase.side.value} Mobilization Phase, not the {side.value} one")
    if row.intervention:
        lost = (intervention_losses or {}).get(unit_type, 0)
        if lost < 1:
            raise RuleViolation("IC 7.72", f"a {unit_type} may only be bought to replace an intervention unit "
                                           "lost earlier, and none has been lost")
    check_placement(row, side, place, phase, res)
    if not _mix_check(row, counter_mix, in_play):
        raise RuleViolation("IC 7.24", f"every {unit_type} counter of the counter mix is in play")
    cost = row.cost
    if side is Side.COMMUNIST and place.terrain in COSTLY_TERRAIN:
        cost += 1
        res.add("IC 7.71", f"a Communist unit placed in {place.terrain} costs 1 more", arithmetic=f"{row.cost} + 1")
    before = points.of(side)
    points.spend(side, cost, why=f"mobilize a {unit_type}")       # 5.33: raises when the points are not there
    res.add("IC 5.32" if row.intervention else "IC 5.31",
            f"{side.value} spends {cost} political points on a {unit_type} ({row.provenance.mark()})"
            + (" to replace a lost intervention unit (IC 7.72)" if row.intervention else ""),
            arithmetic=f"{before} - {cost} = {points.of(side)}", result=cost)
    if row.intervention:
        intervention_losses[unit_type] -= 1
    if phase is not None:
        phase.spent += cost
    if in_play is not None and not row.counter_mix_exempt:
        in_play[unit_type] = in_play.get(unit_type, 0) + 1
    res.result = _record(phase, row, place, cost, Source.MOBILIZATION, res)
    if phase is not None:
        phase.log.extend(res)
    return res


@implements("IC 7.22", "IC 7.31", "IC 7.41")
def place_reinforcement(side: Side, unit_type: str, place: Place, phase: AssistancePhase | None = None,
                        source: Source = Source.ASSISTANCE, chart: dict[str, ChartRow] | None = None) -> Resolution:
    """Place a free reinforcement (assistance or event): the same placement rules, no political points (7.22, 7.31)."""
    if costs_political_points(source):
        raise RuleViolation("IC 7.22", "a mobilized unit is paid for: use mobilize_unit")
    chart = chart or shipped("mobilization_full")
    row = chart.get(unit_type)
    if row is None:
        raise DataError(str(DATA / "mobilization_full.yaml"), f"units.{unit_type}", "has no Mobilization Chart row")
    res = Resolution()
    if phase is not None and source is Source.ASSISTANCE:
        if unit_type not in phase.pending:
            raise RuleViolation("IC 7.31", f"no {unit_type} is waiting from this phase's assistance roll")
    check_placement(row, side, place, phase, res)
    if phase is not None and source is Source.ASSISTANCE:
        phase.pending.remove(unit_type)
    res.add("IC 7.31", f"{unit_type} from {source.value}: no political points", result=0)
    res.result = _record(phase, row, place, 0, source, res)
    if phase is not None:
        phase.log.extend(res)
    return res


# =========================================================================== the assistance roll

@dataclass(frozen=True)
class AssistanceResult:
    roll: int
    supply: int
    units: tuple[str, ...]                 # received
    not_received: tuple[str, ...] = ()     # called for but absent from the counter mix (7.24)


@implements("IC 7.3", "IC 7.31", "IC US Military Assistance Table", "IC Chinese Military Assistance Table")
def roll_assistance(dice: Dice, side: Side, *, table: AssistanceTable | None = None,
                    phase: AssistancePhase | None = None, points: PoliticalPoints | None = None,
                    logistics: Any = None, counter_mix: dict[str, int] | None = None,
                    in_play: dict[str, int] | None = None) -> Resolution:
    """7.3: at the start of his Mobilization Phase a player rolls one die on his own assistance table.

    The FEF rolls the US table, the Communist player the Chinese one. It must come before any political point
    is spent in the phase, once per phase. Supply points go to ``logistics`` (a
    :class:`~wargames.indochina.logistics.Logistics`) when one is given; units join ``phase.pending`` to be
    placed with :func:`place_reinforcement`. Nothing costs political points (7.31): ``points`` is only checked
    to be unchanged.
    """
    side = Side(side)
    table = table or shipped("us_assistance" if side is Side.FEF else "chinese_assistance")
    res = Resolution()
    if table.side is not side:
        raise RuleViolation("IC 7.3", f"the {side.value} player rolls on the {TABLE_NAMES[side]} table, "
                                      f"not the {table.name}")
    if phase is not None:
        if phase.side is not side:
            raise RuleViolation("IC 7.3", f"the roll comes in the {side.value} player's own Mobilization Phase")
        if phase.assistance_rolled:
            raise RuleViolation("IC 7.3", "military assistance is rolled once, at the start of the phase")
        if phase.spent or phase.placements:
            raise RuleViolation("IC 7.3", "military assistance is rolled before any political point is spent")
    pp_before = (points.fef, points.communist) if points is not None else None
    roll = roll_die(dice, 6, f"{TABLE_NAMES[side]} military assistance")
    entry = table.entries[roll]
    res.add("IC 7.3", f"{side.value} rolls {roll} on the {table.name}: {entry.supply} supply point(s)"
            + (f" and {', '.join(entry.units)}" if entry.units else "") + f" ({entry.provenance.mark()})",
            roll=roll, result=entry.supply)
    received, missing = [], []
    chart = shipped("mobilization_full")
    for u in entry.units:
        row = chart[u]
        if _mix_check(row, counter_mix, in_play):
            received.append(u)
            if in_play is not None and not row.counter_mix_exempt:
                in_play[u] = in_play.get(u, 0) + 1
        else:
            missing.append(u)
            res.add("IC 7.24", f"no {u} counter is free in the counter mix: it is not received")
    if logistics is not None and entry.supply:
        logistics.gain(side, entry.supply, "IC 7.3", f"{TABLE_NAMES[side]} military assistance", res)
    res.add("IC 7.31", "assistance supply and units cost no political points", result=0)
    if pp_before is not None and (points.fef, points.communist) != pp_before:
        raise RuleViolation("IC 7.31", "military assistance changed a political point index")
    if phase is not None:
        phase.assistance_rolled = True
        phase.pending.extend(received)
        phase.log.extend(res)
    res.result = AssistanceResult(roll, entry.supply, tuple(received), tuple(missing))
    return res


# =========================================================================== constraints

def _row(chart, name, **want) -> bool:
    r = chart.get(name)
    return r is not None and all(getattr(r, k) == v for k, v in want.items()) and not r.provenance.reconstructed


def _supply_monotone(t: AssistanceTable) -> bool:
    s = [t.entries[n].supply for n in range(1, 7)]
    return s == sorted(s)


def _assistance_units_ok(t: AssistanceTable, chart) -> bool:
    rows = [chart[u] for e in t.entries.values() for u in e.units]
    return all(r.side is t.side and not r.intervention for r in rows)


CONSTRAINTS: list[Constraint] = [
    Constraint("ma-sides", "IC 7.3", "the FEF rolls the US table and the Communist player the Chinese table",
               lambda us, cn, ch: us.side is Side.FEF and cn.side is Side.COMMUNIST),
    Constraint("ma-d6", "IC 7.3", "each table is read with one die: exactly the rolls 1-6",
               lambda us, cn, ch: sorted(us.entries) == sorted(cn.entries) == [1, 2, 3, 4, 5, 6]),
    Constraint("ma-supply", "IC 7.3", "every result gives supply points",
               lambda us, cn, ch: all(e.supply > 0 for t in (us, cn) for e in t.entries.values())),
    Constraint("ma-possible-units", "IC 7.3", "units are possible, not certain: some results give units, some none",
               lambda us, cn, ch: all(any(e.units for e in t.entries.values())
                                      and any(not e.units for e in t.entries.values()) for t in (us, cn))),
    Constraint("ma-own-units", "IC 7.3, 7.72", "assistance units belong to the roller and are not US or Chinese "
               "intervention units", lambda us, cn, ch: _assistance_units_ok(us, ch) and _assistance_units_ok(cn, ch)),
    Constraint("ma-monotone", "design", "a higher roll never gives fewer supply points",
               lambda us, cn, ch: _supply_monotone(us) and _supply_monotone(cn)),
    Constraint("mc-text-rows", "IC 7.22 example, 17.31", "the three rows the text gives keep their cost and place",
               lambda us, cn, ch: _row(ch, "VNA infantry group", side=Side.FEF, cost=1,
                                       location=Location(on="base", country="Vietnam"))
               and _row(ch, "French mechanized group", side=Side.FEF, cost=3, location=Location(area=FESA))
               and _row(ch, "Communist militia", side=Side.COMMUNIST, cost=1, type="militia")
               and ch["Communist militia"].location.on == "cadre"),
    Constraint("mc-every-type", "IC 2.31, 7.21", "every land unit type a side fields has a row for that side",
               # (no French artillery nor Viet Minh light infantry: the text names none, nor does our counter mix)
               lambda us, cn, ch: {"mechanized", "regular infantry", "light infantry", "airborne infantry",
                                   "marine infantry", "gendarmerie", "base", "DNA", "airstrike",
                                   "naval bombardment"} <= {r.type for r in ch.values() if r.side is Side.FEF}
               and {"regular infantry", "artillery", "cadre", "guerrilla", "militia", "base",
                    "death commando", "mechanized"} <= {r.type for r in ch.values() if r.side is Side.COMMUNIST}),
    Constraint("mc-intervention-rows", "IC 5.32, 7.72", "US and Chinese rows exist and are marked as intervention "
               "replacements", lambda us, cn, ch: all(r.intervention == (r.nationality in ("US", "Chinese"))
                                                      for r in ch.values())
               and {r.side for r in ch.values() if r.intervention} == set(Side)),
    Constraint("mc-fesa-fef", "IC 7.21(3), 7.42", "only FEF rows use the Far Eastern Staging Area",
               lambda us, cn, ch: all(r.side is Side.FEF for r in ch.values() if r.location.area == FESA)),
    Constraint("mc-air-available", "IC 7.43", "FEF air and naval strikes go to the Air Available box",
               lambda us, cn, ch: all(r.location.area == AIR_AVAILABLE for r in ch.values()
                                      if r.type in AIR_NAVAL_TYPES)),
    Constraint("mc-china", "IC 7.21(3), 7.45", "some Communist units may be placed in China, no FEF unit",
               lambda us, cn, ch: any(r.location.area == CHINA for r in ch.values() if r.side is Side.COMMUNIST)
               and not any(CHINA in (r.location.area, r.location.country) for r in ch.values()
                           if r.side is Side.FEF)),
    Constraint("mc-usually-on-a-unit", "IC 7.21(3)", "placement is usually on a friendly unit of a type",
               lambda us, cn, ch: sum(1 for r in ch.values() if r.location.on) * 2 > len(ch) - sum(
                   1 for r in ch.values() if r.location.area == AIR_AVAILABLE)),
    Constraint("mc-militia-exempt", "IC 7.24, 17.36", "only Communist militia is outside the counter-mix limit",
               lambda us, cn, ch: [r.name for r in ch.values() if r.counter_mix_exempt] == ["Communist militia"]),
    Constraint("mc-size-monotone", "design", "a division never costs less than a group or regiment of the same "
               "nationality and type", lambda us, cn, ch: all(
                   d.cost >= g.cost for d in ch.values() for g in ch.values()
                   if d.size == "division" and g.size in ("group", "regiment")
                   and (d.nationality, d.type) == (g.nationality, g.type))),
]


def check_constraints(us: AssistanceTable | None = None, chinese: AssistanceTable | None = None,
                      chart: dict[str, ChartRow] | None = None) -> list[str]:
    """The ids of the constraints these charts break (empty when all hold)."""
    return failed_constraints(CONSTRAINTS, us or shipped("us_assistance"), chinese or shipped("chinese_assistance"),
                              chart or shipped("mobilization_full"))

