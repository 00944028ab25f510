"""Citadel's charts as data: the fire CRT, the range modifiers and the Terrain Effects Chart.

All three are absent from the rulebook text; the shipped YAML files are
reconstructions with a provenance on every value. Owners of the game can load
their printed charts with :func:`load_fire_crt`, :func:`load_range_table` and
:func:`load_terrain_effects`, and run :func:`check_constraints` to see whether a
chart agrees with everything the rulebook states.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from ..core import ColumnTable, Provenance, implements, load_column_table, read_yaml
from ..core.charts import Constraint, failed_constraints, parse_provenance, read_data_file, require
from ..core.errors import DataError, RuleViolation

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


_RESULT = re.compile(r"^(\d*)(P?)$")


def parse_fire_result(raw: Any, file: str, cell: str) -> FireResult:
    text = str(raw).strip() if isinstance(raw, (str, int)) and not isinstance(raw, bool) else None
    if text == "-":
        return FireResult(0, False)
    m = _RESULT.match(text) if text else None
    if not m or not text:
        raise DataError(file, cell, f"{raw!r} is not a fire result ('-', 'P', a loss count such as '2', or '2P')")
    return FireResult(int(m.group(1) or 0), bool(m.group(2)))


@implements("C Fire CRT")
def load_fire_crt(path: str | Path | None = None) -> ColumnTable:
    """Load a fire CRT (default: the shipped reconstruction)."""
    return load_column_table(path or DATA / "fire_crt.yaml", parse_fire_result)


# --------------------------------------------------------------------------- range modifiers

@dataclass(frozen=True)
class RangeBand:
    low: int
    high: int
    multiplier: int
    provenance: Provenance
    band_provenance: Provenance


@dataclass
class RangeTable:
    """Range bands per weapon class; a unit's strength is multiplied before totals are added (C 9)."""

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


@implements("C Range table")
def load_range_table(path: str | Path | None = None) -> RangeTable:
    file, data, default = read_data_file(path or DATA / "range_modifiers.yaml")
    weapons: dict[str, list[RangeBand]] = {}
    for name, bands in require(data, "weapons", dict, file).items():
        if not isinstance(bands, list) or not bands:
            raise DataError(file, f"weapons.{name}", "must be a non-empty list of range bands")
        out = []
        for i, b in enumerate(bands):
            where = f"weapons.{name}[{i}]"
            rng = require(b, "ranges", list, file, where)
            if len(rng) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in rng) or rng[0] > rng[1]:
                raise DataError(file, f"{where}.ranges", f"must be [low, high] whole numbers, not {rng!r}")
            mult = require(b, "multiplier", int, file, where)
            if mult < 1:
                raise DataError(file, f"{where}.multiplier", "must be at least 1")
            expected_low = out[-1].high + 1 if out else 1
            if rng[0] != expected_low:
                raise DataError(file, f"{where}.ranges", f"must start at range {expected_low} (no gap or overlap)")
            out.append(RangeBand(rng[0], rng[1], mult,
                                 parse_provenance(b.get("provenance"), file, f"{where}.provenance", default),
                                 parse_provenance(b.get("band_provenance"), file, f"{where}.band_provenance", default)))
        weapons[name] = out
    return RangeTable(weapons, file)


# --------------------------------------------------------------------------- terrain effects

@dataclass(frozen=True)
class TerrainEntry:
    fire_shift: int
    provenance: Provenance


@dataclass
class TerrainEffects:
    terrain: dict[str, TerrainEntry]
    features: dict[str, TerrainEntry]
    source: str


@implements("C TEC")
def load_terrain_effects(path: str | Path | None = None) -> TerrainEffects:
    file, data, default = read_data_file(path or DATA / "terrain_effects.yaml")

    def section(key: str) -> dict[str, TerrainEntry]:
        out = {}
        for name, spec in require(data, key, dict, file).items():
            where = f"{key}.{name}"
            out[name] = TerrainEntry(require(spec, "fire_shift", int, file, where),
                                     parse_provenance(spec.get("provenance"), file, f"{where}.provenance", default))
        return out

    return TerrainEffects(section("terrain"), section("features"), file)


@lru_cache(maxsize=None)
def default_charts() -> tuple[ColumnTable, RangeTable, TerrainEffects]:
    return load_fire_crt(), load_range_table(), load_terrain_effects()


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
