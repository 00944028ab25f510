"""The Air Chart's tables and the air counters (Chart 3), as data with a provenance on every value.

The Air Chart is absent from the rulebook text: the weather table, the antiaircraft altitude and fire tables
and the supply bombing table are reconstructions; the transport weights follow from the C 26.E example.
Owners load their printed charts through :class:`citadel.Ruleset` (``Ruleset.load(folder)``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..core import ColumnTable, Provenance, implements, load_column_table
from ..core.charts import PROVENANCE, Constraint, failed_constraints, file_provenance, odds_value
from ..core.copies import valued_deepcopy
from ..core.errors import DataError, RuleViolation
from ..core.schema import Int, Invalid, Map, Nullable, Opt, Record, Str, load_file

DATA = Path(__file__).parent / "data" / "charts"

WEATHERS = ("clear", "overcast", "storm")
ALTITUDES = ("low", "medium", "high")
GUNS = ("37mm", "20mm", ".50cal")
AA_RESULTS = ("K", "A", "-")
#: The Vietminh supply kinds strategic bombing can destroy (C 23.B).
VM_SUPPLIES = ("ammo_105", "ammo_120", "ammo_75_howitzer", "ammo_75_recoilless", "gsp")
CARGOES = ("gsp", "ammo_155", "ammo_105", "ammo_120", "personnel")
CATEGORIES = ("fighter-bomber", "bomber", "spotter", "transport")

_META = {"provenance": Opt(PROVENANCE), "notes": Opt(Str(), ""), "name": Opt(Str(max_len=200), ""),
         "rule": Opt(Str(max_len=40), "")}


def _given(path, default: str) -> Path:
    return DATA / default if path is None else Path(path)


@implements("C Air Chart", "C 27")
def load_weather_table(path: str | Path | None = None) -> ColumnTable:
    """The weather table: one column, read by a d6 roll plus one in May (rows 1-7)."""
    return load_column_table(_given(path, "weather.yaml"), Str(WEATHERS), named_columns=True)


@implements("C Air Chart", "C 28")
def load_aa_fire_table(path: str | Path | None = None) -> ColumnTable:
    """The antiaircraft fire table: odds columns (guns : defence), a d6, results K, A or -."""
    return load_column_table(_given(path, "aa_fire.yaml"), Str(AA_RESULTS))


@implements("C Air Chart", "C 26")
def load_supply_bombing_table(path: str | Path | None = None) -> ColumnTable:
    return load_column_table(_given(path, "supply_bombing.yaml"), Str(VM_SUPPLIES), named_columns=True)


@dataclass(frozen=True)
class Valued:
    value: object
    provenance: Provenance

    __deepcopy__ = valued_deepcopy


@dataclass
class AltitudeTable:
    """Antiaircraft multipliers per gun and altitude; None: that gun cannot fire at that altitude (C 28.A)."""

    guns: dict[str, dict[str, Valued]]
    source: str

    def multiplier(self, gun: str, altitude: str) -> int | None:
        try:
            return self.guns[gun][altitude].value
        except KeyError:
            raise DataError(self.source, f"guns.{gun}.{altitude}", "no such gun or altitude") from None


_ALT_ENTRY = Record({"multiplier": Nullable(Int(1, 10))}, {"provenance": Opt(PROVENANCE)},
                    what="an entry {multiplier (null: cannot fire)}")
AA_ALTITUDE = Record({"guns": Record({g: Record({a: _ALT_ENTRY for a in ALTITUDES}) for g in GUNS})}, _META)


@implements("C Air Chart", "C 28")
def load_aa_altitude_table(path: str | Path | None = None) -> AltitudeTable:
    path = _given(path, "aa_altitude.yaml")
    v = load_file(path, AA_ALTITUDE)
    default = file_provenance(path, v["provenance"])
    return AltitudeTable({g: {a: Valued(e["multiplier"], e["provenance"] or default) for a, e in alts.items()}
                          for g, alts in v["guns"].items()}, str(path))


@dataclass
class TransportWeights:
    weights: dict[str, Valued]
    source: str

    def weight(self, cargo: str) -> int:
        try:
            return self.weights[cargo].value
        except KeyError:
            raise RuleViolation("C 26.E", f"{cargo!r} is not a cargo of the transport weight table "
                                          f"({', '.join(self.weights)})") from None


TRANSPORT_WEIGHTS = Record({"weights": Record({c: Record({"weight": Int(1, 100)}, {"provenance": Opt(PROVENANCE)})
                                               for c in CARGOES})}, _META)


@implements("C Air Chart", "C 26")
def load_transport_weights(path: str | Path | None = None) -> TransportWeights:
    path = _given(path, "transport_weights.yaml")
    v = load_file(path, TRANSPORT_WEIGHTS)
    default = file_provenance(path, v["provenance"])
    return TransportWeights({c: Valued(e["weight"], e["provenance"] or default) for c, e in v["weights"].items()},
                            str(path))


@implements("C 25", "C Chart 3")
@dataclass(frozen=True)
class AirType:
    """One type of air counter (Chart 3): its category (C 25), branch, aircraft per counter and values."""

    name: str
    category: str
    branch: str
    aircraft: int
    attack: int          # cargo value for transports (C 26.D lets the C119 bomb with it)
    defence: int
    provenance: Provenance

    @property
    def cargo(self) -> int:
        return self.attack if self.category == "transport" else 0

    @property
    def carrier(self) -> bool:
        """Navy fighter-bombers fly from the carriers in the Gulf of Tonkin (C 27.B)."""
        return self.branch == "navy" and self.category == "fighter-bomber"

    @property
    def may_base_at_dien_bien_phu(self) -> bool:
        """Air Force fighter-bombers and spotters may use the revetment (C 31)."""
        return self.branch == "airforce" and self.category in ("fighter-bomber", "spotter")


def _air_type_check(v: dict) -> None:
    for name, t in v["types"].items():
        if (t["cargo"] is None) == (t["category"] == "transport"):
            raise Invalid(f"types.{name}", "transports show a cargo value and no attack value; others the reverse")
        if t["category"] == "spotter" and t["attack"] != 0:
            raise Invalid(f"types.{name}.attack", "spotters have an attack value of zero (C 25)")
        if t["category"] in ("fighter-bomber", "bomber") and not t["attack"]:
            raise Invalid(f"types.{name}.attack", "fighter-bombers and bombers have an attack value above zero (C 25)")


AIR_UNITS = Record({"types": Map(Str(key=True, pattern=r"[A-Za-z0-9]{1,12}"), Record(
    {"category": Str(CATEGORIES), "branch": Str(("airforce", "navy")), "aircraft": Int(1, 8), "defence": Int(0, 40)},
    {"attack": Opt(Int(0, 200)), "cargo": Opt(Int(1, 200)), "provenance": Opt(PROVENANCE)}), min_len=1, max_len=40)},
    _META, check=_air_type_check)


@implements("C 25", "C Chart 3")
def load_air_units(path: str | Path | None = None) -> dict[str, AirType]:
    path = _given(path, "air_units.yaml")
    v = load_file(path, AIR_UNITS)
    default = file_provenance(path, v["provenance"])
    return {n: AirType(n, t["category"], t["branch"], t["aircraft"],
                       t["cargo"] if t["category"] == "transport" else t["attack"], t["defence"],
                       t["provenance"] or default) for n, t in v["types"].items()}


#: The Ruleset's air charts: name -> (file, loader).
AIR_CHARTS = {"weather": ("weather.yaml", load_weather_table),
              "aa_altitude": ("aa_altitude.yaml", load_aa_altitude_table),
              "aa_fire": ("aa_fire.yaml", load_aa_fire_table),
              "supply_bombing": ("supply_bombing.yaml", load_supply_bombing_table),
              "transport_weights": ("transport_weights.yaml", load_transport_weights),
              "air_units": ("air_units.yaml", load_air_units)}


@dataclass
class AirCharts:
    weather: ColumnTable
    aa_altitude: AltitudeTable
    aa_fire: ColumnTable
    supply_bombing: ColumnTable
    transport_weights: TransportWeights
    air_units: dict[str, AirType]

    @classmethod
    def of(cls, ruleset) -> "AirCharts":
        return cls(*(ruleset.chart(name) for name in AIR_CHARTS))

    def aa_column(self, guns: Fraction, defence: int) -> int | None:
        """The odds column for ``guns`` against ``defence``, rounded down; None below the first column."""
        ratio = Fraction(guns) / defence
        best = None
        for i, c in enumerate(self.aa_fire.columns):
            if odds_value(c.label) <= ratio:
                best = i
        return best


def default_air_charts() -> AirCharts:
    """The shipped Air Chart tables, each a copy of its own (read once per version of each file)."""
    from ..core.yamlio import load_once
    return AirCharts(*(load_once(loader, DATA / file) for file, loader in AIR_CHARTS.values()))


# --------------------------------------------------------------------------- constraints (catalog C-3 items 4-9)

def _weather_monotone(ac: AirCharts) -> bool:
    order = [WEATHERS.index(ac.weather.get("weather", r).value) for r in ac.weather.rows]
    return order == sorted(order)


def _aa_monotone(ac: AirCharts) -> bool:
    rank = {"K": 2, "A": 1, "-": 0}
    t = ac.aa_fire
    n = len(t.columns)
    for r in t.rows:
        for i in range(n - 1):
            if rank[t.lookup(i + 1, r).value] < rank[t.lookup(i, r).value]:
                return False
    for i in range(n):
        for r1, r2 in zip(t.rows, t.rows[1:]):
            if rank[t.lookup(i, r1).value] < rank[t.lookup(i, r2).value]:
                return False
    return True


def _can(ac: AirCharts, gun: str, alt: str) -> bool:
    return ac.aa_altitude.multiplier(gun, alt) is not None


AIR_CONSTRAINTS: list[Constraint] = [
    Constraint("weather-d6-may", "C 27", "the weather table is read with a d6 plus one in May: rolls 1-7",
               lambda ac: ac.weather.rows == [1, 2, 3, 4, 5, 6, 7]),
    Constraint("weather-results", "C 27", "every result is clear, overcast or storm, and each occurs",
               lambda ac: {ac.weather.get("weather", r).value for r in ac.weather.rows} == set(WEATHERS)),
    Constraint("weather-monotone", "design", "a higher roll (so May) never brings better weather",
               _weather_monotone),
    Constraint("aa-20mm-high", "C 28.A", "20mm guns cannot fire at high altitude",
               lambda ac: not _can(ac, "20mm", "high") and _can(ac, "20mm", "low") and _can(ac, "20mm", "medium")),
    Constraint("aa-50cal", "C 28.A", ".50cal guns cannot fire at medium or high altitude",
               lambda ac: not _can(ac, ".50cal", "medium") and not _can(ac, ".50cal", "high")
               and _can(ac, ".50cal", "low")),
    Constraint("aa-37mm-all", "C 28.A", "37mm guns may fire at every altitude (only the other two are barred)",
               lambda ac: all(_can(ac, "37mm", a) for a in ALTITUDES)),
    Constraint("aa-odds", "C 28.A", "the antiaircraft fire table has odds columns, a d6 and K and A results",
               lambda ac: all("/" in c.label for c in ac.aa_fire.columns) and ac.aa_fire.rows == [1, 2, 3, 4, 5, 6]
               and {"K", "A"} <= {c.value for c in ac.aa_fire.cells.values()}),
    Constraint("aa-monotone", "design", "better odds or a lower roll is never worse for the guns", _aa_monotone),
    Constraint("bombing-d6", "C 26.D", "the supply bombing table is read with a d6",
               lambda ac: ac.supply_bombing.rows == [1, 2, 3, 4, 5, 6]),
    Constraint("bombing-roll-1", "C 26.D example", "a roll of one destroys 105mm howitzer ammunition",
               lambda ac: ac.supply_bombing.get("supply", 1).value == "ammo_105"),
    Constraint("weights-c47", "C 26.E example", "a C47 (cargo 8) carries 1 GSP, 1 point of 155mm, 4 of 105mm or "
               "120mm ammunition, or 2 strength points of troops",
               lambda ac: [8 // ac.transport_weights.weight(c) for c in CARGOES] == [1, 1, 4, 4, 2]),
    Constraint("units-b26", "C 26.D example", "a B26 counter attacks with 40", lambda ac: ac.air_units["B26"].attack == 40),
    Constraint("units-c47", "C 26.E example", "a C47 counter carries 8", lambda ac: ac.air_units["C47"].cargo == 8),
    Constraint("units-aircraft", "C 25", "each counter is four aircraft, two for Cricket and PB4Y",
               lambda ac: all(t.aircraft == (2 if n in ("Cricket", "PB4Y") else 4) for n, t in ac.air_units.items())),
    Constraint("units-categories", "C 25", "the types fall in the four categories the rule lists",
               lambda ac: {n: t.category for n, t in ac.air_units.items()} == {
                   "F8F": "fighter-bomber", "SB2C": "fighter-bomber", "F4U": "fighter-bomber",
                   "F6F": "fighter-bomber", "B26": "bomber", "PB4Y": "bomber", "Cricket": "spotter",
                   "C47": "transport", "C119": "transport"}),
    Constraint("units-branches", "C 25", "the F8F and B26 are Air Force; SB2C, F4U, F6F and PB4Y are Navy",
               lambda ac: all(ac.air_units[n].branch == "airforce" for n in ("F8F", "B26")) and all(
                   ac.air_units[n].branch == "navy" for n in ("SB2C", "F4U", "F6F", "PB4Y"))),
]


def check_air_constraints(charts: AirCharts | None = None) -> list[str]:
    """The ids of the constraints an Air Chart breaks (empty when every one holds)."""
    return failed_constraints(AIR_CONSTRAINTS, charts or default_air_charts())
