"""Citadel's charts as data: the fire CRT, the range modifiers and the Terrain Effects Chart.

All three are absent from the rulebook text; the shipped YAML files are
reconstructions with a provenance on every value. Owners of the game can load
their printed charts with :func:`load_fire_crt`, :func:`load_range_table` and
:func:`load_terrain_effects`, and run :func:`check_constraints` to see whether a
chart agrees with everything the rulebook states.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..core import ColumnTable, Provenance, implements, load_column_table
from ..core.charts import PROVENANCE, Constraint, failed_constraints, file_provenance
from ..core.copies import immutable, record_deepcopy
from ..core.errors import DataError, RuleViolation
from ..core.game import Ruleset as BaseRuleset
from ..core.schema import Convert, Int, IntRange, Invalid, List, Opt, Record, Str, load_file
from .optional import READINGS as OPTIONAL_READINGS
from .terrain import TERRAINS
from .air_charts import AIR_CHARTS

DATA = Path(__file__).parent / "data" / "charts"


# --------------------------------------------------------------------------- fire CRT

@dataclass(frozen=True)
class FireResult:
    """A fire CRT result: step losses and/or a pin."""

    losses: int
    pinned: bool

    @property
    def code(self) -> str:
        return (str(self.losses) if self.losses else "") + ("P" if self.pinned else "") or "-"

    def __str__(self) -> str:
        return self.code

    def dominates(self, other: "FireResult") -> bool:
        """At least as good for the firer: no fewer losses and no lost pin."""
        return self.losses >= other.losses and (self.pinned or not other.pinned)


#: The highest loss count a fire result may show (the shipped chart's highest is 6).
MAX_LOSSES = 9


def _fire_result(text: str) -> FireResult:
    return FireResult(0, False) if text == "-" else FireResult(int(text.rstrip("P") or 0), text.endswith("P"))


#: One cell of the fire CRT: ``"-"``, ``"P"``, a loss count (``"2"``) or both (``"2P"``), written as text.
FIRE_RESULT = Convert(Str(pattern=rf"-|P|[1-{MAX_LOSSES}]P?", max_len=3,
                          what="a fire result in quotes ('-', 'P', a loss count such as '2', or '2P')"),
                      _fire_result)


@implements("C Fire CRT")
def load_fire_crt(path: str | Path | None = None) -> ColumnTable:
    """Load a fire CRT (default: the shipped reconstruction)."""
    return load_column_table(_given(path, "fire_crt.yaml"), FIRE_RESULT)


def _given(path: str | Path | None, default: str) -> Path:
    """The file to read: ``path``, or the shipped chart ``default`` when none is given."""
    return DATA / default if path is None else Path(path)


# --------------------------------------------------------------------------- range modifiers

@dataclass(frozen=True)
@immutable
class RangeBand:
    low: int
    high: int
    multiplier: int
    provenance: Provenance
    band_provenance: Provenance


@dataclass
class RangeTable:
    """Range bands per weapon class; a unit's strength is multiplied before totals are added (C 9)."""

    __deepcopy__ = record_deepcopy      # a copy shares what cannot change (cells, provenance)

    weapons: dict[str, list[RangeBand]]
    source: str

    def bands(self, weapon: str) -> list[RangeBand]:
        try:
            return self.weapons[weapon]
        except KeyError:
            raise DataError(self.source, f"weapons.{weapon}", "no range bands for this weapon") from None

    def band(self, weapon: str, rng: int) -> RangeBand | None:
        for b in self.bands(weapon):
            if b.low <= rng <= b.high:
                return b
        return None

    def max_range(self, weapon: str) -> int:
        return self.bands(weapon)[-1].high

    def lowest_band(self, weapon: str) -> RangeBand:
        return self.bands(weapon)[0]

    def multiplier(self, weapon: str, rng: int, rule: str = "C 9") -> int:
        b = self.band(weapon, rng)
        if b is None:
            raise RuleViolation(rule, f"a {weapon.replace('_', ' ')} cannot reach {rng} hexes "
                                      f"(maximum range {self.max_range(weapon)})")
        return b.multiplier


#: The rows of the range table, one per weapon class the engine fires with (fire_types.range_key).
WEAPONS = ("small_arms", "heavy_machine_gun", "recoilless_rifle_75", "mortar_81", "mortar_82", "mortar_120",
           "howitzer_75", "howitzer_105", "howitzer_155")
MAX_RANGE = 200     # hexes; the shipped table's longest band ends at 60


def _contiguous(weapons: dict[str, list[dict]]) -> None:
    """Each weapon's bands start at range 1 and follow each other with no gap or overlap."""
    for name, bands in weapons.items():
        expected = 1
        for i, b in enumerate(bands):
            if b["ranges"][0] != expected:
                raise Invalid(f"{name}[{i}].ranges", f"must start at range {expected} (no gap or overlap)")
            expected = b["ranges"][1] + 1


_BAND = Record({"ranges": IntRange(1, MAX_RANGE), "multiplier": Int(1, 10)},
               {"provenance": Opt(PROVENANCE), "band_provenance": Opt(PROVENANCE)},
               what="a range band {ranges, multiplier}")
#: The range modifiers file: for each weapon, its bands in order of range.
RANGE_TABLE = Record(
    {"weapons": Record({w: List(_BAND, min_len=1, max_len=20) for w in WEAPONS}, check=_contiguous,
                       what="a mapping of weapon classes to range bands")},
    {"name": Opt(Str(max_len=200), ""), "rule": Opt(Str(max_len=40), ""), "provenance": Opt(PROVENANCE),
     "notes": Opt(Str(), "")},
    what="a range table {weapons, ...}")


@implements("C Range table")
def load_range_table(path: str | Path | None = None) -> RangeTable:
    path = _given(path, "range_modifiers.yaml")
    v = load_file(path, RANGE_TABLE)
    default = file_provenance(path, v["provenance"])
    weapons = {name: [RangeBand(b["ranges"][0], b["ranges"][1], b["multiplier"], b["provenance"] or default,
                                b["band_provenance"] or default) for b in bands]
               for name, bands in v["weapons"].items()}
    return RangeTable(weapons, str(path))


# --------------------------------------------------------------------------- terrain effects

@dataclass(frozen=True)
@immutable
class TerrainEntry:
    fire_shift: int
    provenance: Provenance
    melee_shift: int = 0


@dataclass
class TerrainEffects:
    __deepcopy__ = record_deepcopy      # a copy shares what cannot change (cells, provenance)

    terrain: dict[str, TerrainEntry]
    features: dict[str, TerrainEntry]
    source: str


#: Entries of the TEC's ``features`` section the fire rules read (C 13, C 18, C 19.F); ``road`` may be listed.
TEC_FEATURES = ("trench", "strongpoint", "strongpoint_monsoon_swamp", "armor_bunker_tanks")
_ENTRY = Record({"fire_shift": Int(-10, 10)}, {"melee_shift": Opt(Int(-10, 10), 0), "provenance": Opt(PROVENANCE)},
               what="an entry {fire_shift, melee_shift}")
#: The terrain effects file: a fire shift for every terrain type and for the features fire reads.
TERRAIN_EFFECTS = Record(
    {"terrain": Record({t: _ENTRY for t in TERRAINS}, what="a mapping of every terrain type to its entry"),
     "features": Record({f: _ENTRY for f in TEC_FEATURES}, {"road": Opt(_ENTRY), "hill_bonus": Opt(_ENTRY)},
                        what="a mapping of features to their entries")},
    {"name": Opt(Str(max_len=200), ""), "rule": Opt(Str(max_len=40), ""), "provenance": Opt(PROVENANCE),
     "notes": Opt(Str(), "")},
    what="a terrain effects chart {terrain, features, ...}")


@implements("C TEC")
def load_terrain_effects(path: str | Path | None = None) -> TerrainEffects:
    path = _given(path, "terrain_effects.yaml")
    v = load_file(path, TERRAIN_EFFECTS)
    default = file_provenance(path, v["provenance"])

    def section(key: str) -> dict[str, TerrainEntry]:
        return {name: TerrainEntry(e["fire_shift"], e["provenance"] or default, e["melee_shift"])
                for name, e in v[key].items() if e is not None}

    return TerrainEffects(section("terrain"), section("features"), str(path))


# --------------------------------------------------------------------------- melee combat table

@dataclass(frozen=True)
class MeleeResult:
    """A Melee Combat Table cell: each side's strength-point losses, and whether its survivors retreat."""

    attacker_losses: int
    attacker_retreats: bool
    defender_losses: int
    defender_retreats: bool

    @property
    def code(self) -> str:
        return (f"{self.attacker_losses}{'r' if self.attacker_retreats else ''}/"
                f"{self.defender_losses}{'r' if self.defender_retreats else ''}")

    def __str__(self) -> str:
        return self.code

    def dominates(self, other: "MeleeResult") -> bool:
        """At least as good for the attacker."""
        return (self.attacker_losses <= other.attacker_losses and self.defender_losses >= other.defender_losses
                and (self.defender_retreats or not other.defender_retreats)
                and (other.attacker_retreats or not self.attacker_retreats))


def _melee_result(text: str) -> MeleeResult:
    a, d = text.split("/")
    return MeleeResult(int(a.rstrip("r")), a.endswith("r"), int(d.rstrip("r")), d.endswith("r"))


#: One cell of the MCT: "attacker/defender" losses, each with "r" when that side retreats ("1/2r").
MELEE_RESULT = Convert(Str(pattern=r"\dr?/\dr?", max_len=5,
                           what="a melee result in quotes such as '1/2r' (attacker/defender losses, r = retreat)"),
                       _melee_result)


@implements("C MCT")
def load_melee_crt(path: str | Path | None = None) -> ColumnTable:
    """Load a Melee Combat Table (default: the shipped reconstruction)."""
    return load_column_table(_given(path, "melee_crt.yaml"), MELEE_RESULT)


class Ruleset(BaseRuleset):
    """Citadel's charts: the fire CRT, the range modifiers and the terrain effects (C 9, C 13)."""

    GAME = "citadel"
    DEFAULTS = DATA
    READINGS = OPTIONAL_READINGS      # Section III's optional rules, off unless switched on (optional.py)
    CHARTS = {"fire_crt": ("fire_crt.yaml", load_fire_crt),
              "range_modifiers": ("range_modifiers.yaml", load_range_table),
              "terrain_effects": ("terrain_effects.yaml", load_terrain_effects),
              "melee_crt": ("melee_crt.yaml", load_melee_crt),
              **AIR_CHARTS}      # the Air Chart's tables and the air counters (air_charts.py)

    def tables(self) -> tuple[ColumnTable, RangeTable, TerrainEffects]:
        return self.chart("fire_crt"), self.chart("range_modifiers"), self.chart("terrain_effects")


def default_charts() -> tuple[ColumnTable, RangeTable, TerrainEffects]:
    """The shipped fire CRT, range table and TEC: each call a copy of its own (the Ruleset reads the files once)."""
    return Ruleset.default().tables()


# --------------------------------------------------------------------------- constraints

def _col(crt: ColumnTable, label: str) -> int:
    return crt.index(label)


def _cell(crt: ColumnTable, label: str, roll: int) -> FireResult:
    return crt.lookup(_col(crt, label), roll).value


def _monotone(crt: ColumnTable) -> bool:
    n = len(crt.columns)
    for r in crt.rows:
        for i in range(n - 1):
            if not crt.lookup(i + 1, r).value.dominates(crt.lookup(i, r).value):
                return False
    for i in range(n):
        for r1, r2 in zip(crt.rows, crt.rows[1:]):
            if not crt.lookup(i, r1).value.dominates(crt.lookup(i, r2).value):
                return False
    return True


# Every constraint that catalog section C-3.1 (and the TEC notes) derive from the text.
CONSTRAINTS: list[Constraint] = [
    Constraint("crt-d6", "C 3", "the CRT is read with one six-sided die (rows 1-6)",
               lambda crt, rt, te: crt.rows == [1, 2, 3, 4, 5, 6]),
    Constraint("crt-columns-named", "C 9", "columns 9-10, 19-22 and 31-40 exist",
               lambda crt, rt, te: all(any(c.label == lab for c in crt.columns) for lab in ("9-10", "19-22", "31-40"))),
    Constraint("crt-36", "C 9 fire example", "a total of 36 falls in column 31-40",
               lambda crt, rt, te: crt.columns[crt.column_for(36)].label == "31-40"),
    Constraint("crt-jungle-shift", "C 9 fire example", "31-40 shifted two columns left is 19-22",
               lambda crt, rt, te: crt.columns[crt.shift(_col(crt, "31-40"), -2)[0]].label == "19-22"),
    Constraint("crt-23-30", "C 9 fire example", "the single column between 19-22 and 31-40 covers 23-30",
               lambda crt, rt, te: crt.columns[_col(crt, "19-22") + 1].label == "23-30"),
    Constraint("crt-80-shift", "C 26.D example", "the column holding 80, shifted four left, is 31-40",
               lambda crt, rt, te: crt.columns[crt.shift(crt.column_for(80), -4)[0]].label == "31-40"),
    Constraint("crt-9-10-left", "C 9 loss-cap example", "9-10 lies left of 19-22 with at least one column covering 11-18 between",
               lambda crt, rt, te: _col(crt, "19-22") - _col(crt, "9-10") >= 2),
    Constraint("crt-9-10-roll-2", "C 9 loss-cap example", "roll 2 on 9-10 inflicts two losses",
               lambda crt, rt, te: _cell(crt, "9-10", 2).losses == 2),
    Constraint("crt-31-40-roll-4", "C 26.D example", "roll 4 on 31-40 inflicts three losses",
               lambda crt, rt, te: _cell(crt, "31-40", 4).losses == 3),
    Constraint("crt-has-pins", "C 9, C 26.D", "some results include a pin",
               lambda crt, rt, te: any(c.value.pinned for c in crt.cells.values())),
    Constraint("crt-monotone", "design", "a higher column or a lower roll is never worse for the firer",
               lambda crt, rt, te: _monotone(crt)),
    Constraint("range-105-9", "C 9 fire example", "a 105mm howitzer at 9 hexes is multiplied by 3",
               lambda crt, rt, te: rt.multiplier("howitzer_105", 9) == 3),
    Constraint("range-lowest-75-105", "C 10", "the lowest band of the 75mm and 105mm howitzers is 1-2 hexes",
               lambda crt, rt, te: all((rt.lowest_band(w).low, rt.lowest_band(w).high) == (1, 2)
                                       for w in ("howitzer_75", "howitzer_105"))),
    Constraint("range-lowest-155", "C 10", "the lowest band of the 155mm howitzer is 1-4 hexes",
               lambda crt, rt, te: (rt.lowest_band("howitzer_155").low, rt.lowest_band("howitzer_155").high) == (1, 4)),
    Constraint("tec-full-jungle", "C 9 fire example", "full jungle shifts fire two columns left",
               lambda crt, rt, te: te.terrain["full_jungle"].fire_shift == -2),
    Constraint("tec-strongpoint", "C 19.F", "a strongpoint shifts fire four columns left",
               lambda crt, rt, te: te.features["strongpoint"].fire_shift == -4),
    Constraint("tec-monsoon-strongpoint", "C 13", "a strongpoint in a monsoon swamp (from April 19) shifts only two",
               lambda crt, rt, te: te.features["strongpoint_monsoon_swamp"].fire_shift == -2),
    Constraint("tec-armor-bunker", "C 19.F", "tanks in the Armor bunker shift six",
               lambda crt, rt, te: te.features["armor_bunker_tanks"].fire_shift == -6),
]


def check_constraints(crt: ColumnTable | None = None, ranges: RangeTable | None = None,
                      tec: TerrainEffects | None = None) -> list[str]:
    """Return the ids of the constraints a set of charts breaks (empty when all hold)."""
    d_crt, d_rt, d_te = default_charts()
    return failed_constraints(CONSTRAINTS, crt or d_crt, ranges or d_rt, tec or d_te)
