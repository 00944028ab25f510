"""Rules 12.4 and 19: air transport and airborne operations, on the Bombardment Table's AT line.

An air transport is an :class:`AirMission`: a :class:`Cargo` flown between two :class:`Place` records.
:func:`air_transport` checks where it may start and land (12.41-12.46; parachute drops, 19) and, near
Communist units, rolls on the AT line (12.52).
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from ..core import Cell, Dice, Distribution, Provenance, Resolution, enumerate_outcomes, implements
from ..core.charts import Constraint, failed_constraints, parse_column_label
from ..core.errors import DataError, RuleViolation
from ..core.dice import roll_die
from .bombardment import DIE, TABLE_RULE, BombardmentTable, shipped_table

# What one air transport group can carry (12.4, 15.72). Divisions must first break down (8.11).
CARGO_SIZES = ("group", "regiment", "brigade", "battalion", "cadre", "supply")
NOT_FLOWN = ("division", "base", "militia")
NO_AIR_TERRAIN = ("mountain",)            # 12.44 (B5 #18: parachute landings too)
AIR_TRANSPORT_MP = {"errata": 2, "12.43": 0}   # B5 #5: the TEC errata against 12.43


# --------------------------------------------------------------------------- air transport

@dataclass(frozen=True)
class Place:
    """A hex an air mission starts from or lands on (or the off-map staging area)."""

    label: str = ""
    terrain: str = "clear"
    airfield: bool = False             # an FEF city, town, base or fortification (12.41)
    fef_units: bool = False            # an FEF land unit occupies it
    enemy_units: bool = False          # Communist units occupy it
    next_to_communists: bool = False   # a Communist unit is adjacent (12.52)
    artillery_near: bool = False       # Communist artillery in or next to it (12.54)
    prohibited: bool = False           # terrain prohibited to the cargo
    in_china: bool = False
    staging_area: bool = False         # the Far Eastern Staging Area (23.13, 23.14)


@dataclass(frozen=True)
class Cargo:
    id: str
    size: str = "group"                # group, regiment, brigade, battalion, cadre, or supply (a marker)
    airborne: bool = False             # parachute units (19.0)
    dna: bool = False


@dataclass(frozen=True)
class AirMission:
    """One air transport group carrying one cargo from ``origin`` to ``destination``."""

    cargo: Cargo
    origin: Place
    destination: Place


@dataclass(frozen=True)
class TransportOutcome:
    code: str                          # an AT-line code, or "OK" when no roll was needed
    rolled: bool
    roll: int | None
    modified: int | None
    air_unit_kept: bool
    mission_completed: bool
    landing: str                       # airfield, parachute or supply drop

    def to_dict(self) -> dict:
        return asdict(self)


@implements("IC 12.4", "IC 12.41", "IC 12.44", "IC 12.45", "IC 12.46", "IC 15.72", "IC 19.0", "IC 19.1",
            "IC 19.2", "IC 23.13", "IC 23.14", "IC 27.5")
def check_air_mission(m: AirMission, during_overrun: bool = False) -> str:
    """Raise RuleViolation if the mission is illegal; otherwise return how it lands."""
    c, o, d = m.cargo, m.origin, m.destination
    if during_overrun:
        raise RuleViolation("IC 27.5", "no air transport may fly during an overrun")
    if c.dna:
        raise RuleViolation("IC 12.4", "DNA units cannot be flown")
    if c.size in NOT_FLOWN:
        why = {"division": "a division must first break down into groups or regiments (8.11)",
               "base": "bases are not among the loads an air transport carries",
               "militia": "militia never moves"}[c.size]
        raise RuleViolation("IC 12.4", f"{c.id} cannot be flown: {why}")
    if c.size not in CARGO_SIZES:
        raise DataError("air mission", "cargo.size", f"must be one of {', '.join(CARGO_SIZES + NOT_FLOWN)}, not {c.size!r}")
    if not o.staging_area:
        if not o.airfield:
            raise RuleViolation("IC 12.41", f"{c.id} must start on an FEF city, town, base or fortification "
                                            f"(an airfield); {o.label or 'the start hex'} has none")
        if o.terrain in NO_AIR_TERRAIN or o.prohibited:
            raise RuleViolation("IC 12.44", f"no air mission may start in a {o.terrain if not o.prohibited else 'prohibited'} hex")
    if d.staging_area:
        raise RuleViolation("IC 12.41", "air transport lands on a map hex")
    if d.in_china:
        raise RuleViolation("IC 22.3", "the FEF may never enter China")
    if d.terrain in NO_AIR_TERRAIN or d.prohibited:
        raise RuleViolation("IC 12.44", f"no air mission may end in a {d.terrain if not d.prohibited else 'prohibited'} "
                                        "hex (parachute landings included, our reading of 12.44 against 19.1)")
    if d.airfield and d.fef_units and not d.enemy_units:
        return "airfield"
    if c.size == "supply":
        if d.enemy_units:
            raise RuleViolation("IC 12.46", "supplies cannot be dropped on a hex holding Communist units")
        return "supply drop"
    if c.airborne:
        if d.enemy_units:
            raise RuleViolation("IC 12.45", "airborne units cannot land on a hex holding Communist units")
        return "parachute"
    raise RuleViolation("IC 12.41", f"{c.id} is not airborne, so it must land on an FEF-occupied city, town, base "
                                    "or fortification")


@implements("IC 12.4", "IC 12.5", "IC 12.52", "IC 12.53", "IC 12.54", TABLE_RULE)
def air_transport(dice: Dice, m: AirMission, *, during_overrun: bool = False,
                  table: BombardmentTable | None = None, res: Resolution | None = None) -> Resolution:
    """Fly one air transport group with its cargo, rolling on the AT line if either end is next to Communists."""
    t = table or shipped_table()
    res = res if res is not None else Resolution()
    landing = check_air_mission(m, during_overrun)
    start = "the Far Eastern Staging Area" if m.origin.staging_area else (m.origin.label or "an airfield")
    rule = {"airfield": "IC 12.41", "parachute": "IC 12.45", "supply drop": "IC 12.46"}[landing]
    if m.origin.staging_area:
        rule = "IC 23.14" if landing != "airfield" else "IC 23.13"
    res.add(rule, f"{m.cargo.id} flies from {start} to {m.destination.label or 'its destination'} ({landing})")
    near = (m.origin.next_to_communists and not m.origin.staging_area) or m.destination.next_to_communists
    if not near:
        res.add("IC 12.52", "neither end is next to Communist units: no antiaircraft roll")
        res.result = TransportOutcome("OK", False, None, None, True, True, landing)
        return res
    total = 0
    if m.destination.artillery_near:
        drm = t.drms["artillery"]
        total += drm.value
        res.add("IC 12.54", f"Communist artillery near the landing hex: {drm.value:+d}"
                + (" (reconstructed value)" if drm.provenance.reconstructed else ""), result=drm.value)
    roll = roll_die(dice, DIE, f"AT line for {m.cargo.id}")
    modified = roll + total
    row, cell = t.read(t.at_line, modified)
    r = t.at_results[cell.value]
    edge = f"; {modified} is off the table, read as {row}" if row != modified else ""
    res.add("IC 12.52", f"AT line: roll {roll}" + (f", modified {total:+d} = {modified}" if total else "")
            + f"{edge}: {r.code} ({r.meaning})" + (" (reconstructed entry)" if cell.provenance.reconstructed else ""),
            arithmetic=f"{roll} {total:+d} = {modified}" if total else "", result=r.code, roll=roll)
    if not r.air_unit_kept:
        res.add("IC 12.53", "the air transport group is eliminated and removed from play")
    elif not r.mission_completed:
        res.add("IC 12.53", "the mission aborts: the group goes to the Completed box and the cargo stays put")
    res.result = TransportOutcome(r.code, True, roll, modified, r.air_unit_kept, r.mission_completed, landing)
    return res


def transport_odds(m: AirMission, key: Callable[[TransportOutcome], Any] = lambda o: o.code, **kw) -> Distribution:
    return enumerate_outcomes(lambda d: key(air_transport(d, m, **kw).result))


@implements("IC 12.43")
def air_transport_cost(reading: str = "errata") -> int:
    """Movement points an air move costs: 2 by the TEC errata (our default), 0 by 12.43 as printed (B5 #5)."""
    if reading not in AIR_TRANSPORT_MP:
        raise RuleViolation("IC 12.43", f"the reading is 'errata' or '12.43', not {reading!r}")
    return AIR_TRANSPORT_MP[reading]
