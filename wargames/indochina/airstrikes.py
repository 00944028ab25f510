"""Rules 12.3 and 12.5-12.7: airstrikes, naval strikes and B-29 missions against one hex.

A strike is plain data: :class:`GroundUnit` (one Communist unit in the target hex), :class:`TargetHex` (those
units and the facts the rules ask about the hex) and :class:`Strike` (how many groups of each kind attack,
and how far each airstrike flew for the experimental range rule). Everything placed on one hex is one attack
with one roll (our reading, catalog B5 #20): :func:`airstrike` checks the restrictions, adds the modifiers,
rolls, reads the Bombardment Table, takes antiaircraft losses and applies the result.
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
from .bombardment import ALL, DIE, TABLE_RULE, BombardmentTable, Case, DRM, StrikeCell, shipped_table

RANGE_RULE = "IC Exp Aircraft Range"
UNIT_KINDS = ("unit", "artillery", "cadre", "militia")


# --------------------------------------------------------------------------- the target and the strike

@dataclass(frozen=True)
class GroundUnit:
    """One Communist unit in the struck hex. ``strength`` is the combat strength on its current face."""

    id: str
    disrupted: bool = False
    kind: str = "unit"             # unit, artillery, cadre or militia
    strength: int = 1

    @property
    def combat_unit(self) -> bool:   # 2.35: a combat strength of one or more, parenthesized or not
        return self.strength >= 1


@dataclass(frozen=True)
class TargetHex:
    """The hex under attack, as far as the air rules ask about it."""

    units: tuple[GroundUnit, ...]
    label: str = "target"
    fef_units: bool = False                  # FEF units share the hex (12.32)
    artillery_adjacent: bool = False         # Communist artillery next door (12.54); artillery in the hex is in units
    coastal: bool = False                    # a coastal hex or next to one (12.6(1))
    next_to_fef_land_units: bool = False     # 12.7(2)
    in_china: bool = False                   # 22.3
    atomic_bombed: bool = False              # an atomic bomb hit it this turn (30.4)

    @property
    def artillery_near(self) -> bool:
        return self.artillery_adjacent or any(u.kind == "artillery" for u in self.units)


@dataclass(frozen=True)
class Strike:
    """The strike units in one attack. ``ranges``: for the experimental range rule, the distance each airstrike
    unit flew from its base (empty: the rule is not in use)."""

    airstrike: int = 0
    naval: int = 0
    b29: int = 0
    ranges: tuple[int, ...] = ()

    @property
    def groups(self) -> int:
        return self.airstrike + self.naval + self.b29

    def __add__(self, other: "Strike") -> "Strike":
        return Strike(self.airstrike + other.airstrike, self.naval + other.naval, self.b29 + other.b29,
                      self.ranges + other.ranges)

    def describe(self) -> str:
        parts = [f"{n} {name}{'s' if n != 1 else ''}" for n, name in
                 ((self.airstrike, "airstrike group"), (self.naval, "naval strike"), (self.b29, "B-29 unit")) if n]
        return " + ".join(parts) or "no strike units"


@dataclass(frozen=True)
class StrikeOutcome:
    """What one bombardment did (hashable, so exact odds can be enumerated over it)."""

    cell: str                      # the entry read, e.g. "A1+B1"
    ground: str                    # NE, B1, B2, B3
    line: str
    roll: int
    modified: int
    air_lost: int                  # airstrike groups shot down
    eliminated: tuple[str, ...]
    disrupted: tuple[str, ...]
    units: tuple[GroundUnit, ...]  # the hex's units afterwards

    def to_dict(self) -> dict:
        return asdict(self)


# The owning (Communist) player picks which units a result takes: chooser(action, candidates, n) -> ids.
Chooser = Callable[[str, tuple[GroundUnit, ...], int], Sequence[str]]


def weakest_first(action: str, candidates: tuple[GroundUnit, ...], n: int) -> list[str]:
    """The default owner's choice: give up the weakest units, in the order listed on ties."""
    order = sorted(range(len(candidates)), key=lambda i: (candidates[i].strength, i))
    return [candidates[i].id for i in order[:n]]


def check_counts(strike: Strike) -> None:
    for name, n in (("airstrike", strike.airstrike), ("naval", strike.naval), ("b29", strike.b29)):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise RuleViolation("IC 12.33", f"{name} groups must be a whole number of 0 or more, not {n!r}")
    if strike.groups < 1:
        raise RuleViolation("IC 12.33", "a bombardment needs at least one strike unit in the hex")


@implements("IC 12.31", "IC 12.32", "IC 12.6", "IC 12.7", "IC 30.4")
def check_strike(target: TargetHex, strike: Strike) -> None:
    """Raise RuleViolation if the rules forbid this strike on this hex."""
    check_counts(strike)
    ids = [u.id for u in target.units]
    if len(ids) != len(set(ids)):
        raise DataError(target.label, "units", "two units share one id")
    for u in target.units:
        if u.kind not in UNIT_KINDS:
            raise DataError(target.label, f"units[{u.id}].kind", f"must be one of {', '.join(UNIT_KINDS)}, not {u.kind!r}")
        if not isinstance(u.strength, int) or u.strength < 0:
            raise DataError(target.label, f"units[{u.id}].strength", f"must be a whole number of 0 or more, not {u.strength!r}")
    if target.in_china:
        raise RuleViolation("IC 22.3", "the FEF may never attack into China, from the air either")
    if target.fef_units:
        raise RuleViolation("IC 12.32", "a hex holding FEF units cannot be bombarded")
    if not target.units:
        raise RuleViolation("IC 12.32", "strikes go only on hexes holding enemy ground units")
    if all(u.kind in ("militia", "cadre") for u in target.units):
        raise RuleViolation("IC 12.32", "a hex holding nothing but militia and cadres cannot be struck")
    if target.atomic_bombed:
        raise RuleViolation("IC 30.4", "a hex hit by an atomic bomb takes no other strikes in the same turn")
    if strike.naval and not target.coastal:
        raise RuleViolation("IC 12.6", "naval strikes reach only coastal hexes and hexes next to them")
    if strike.b29 and (strike.airstrike or strike.naval):
        raise RuleViolation("IC 12.7", "B-29s attack alone: no other airstrikes or naval strikes in the same attack")
    if strike.b29 and target.next_to_fef_land_units:
        raise RuleViolation("IC 12.7", "B-29s may not bombard a hex next to FEF land units")


@implements(RANGE_RULE)
def range_modifier(ranges: Sequence[int], table: BombardmentTable | None = None) -> tuple[DRM, str]:
    """The experimental range modifier for one attack: all within 3 hexes +1; any from 7 or more -1; else 0."""
    t = table or shipped_table()
    if not ranges:
        raise RuleViolation(RANGE_RULE, "the range rule needs the range of every airstrike in the attack")
    bad = [r for r in ranges if not isinstance(r, int) or isinstance(r, bool) or r < 1]
    if bad:
        raise RuleViolation(RANGE_RULE, f"a range counts hexes from a base to the target, at least 1, not {bad[0]!r}")
    if any(r >= 7 for r in ranges):
        return t.drms["range_far"], f"a strike flew {max(ranges)} hexes (7 or more)"
    if all(r <= 3 for r in ranges):
        return t.drms["range_near"], f"every strike flew 3 hexes or fewer ({', '.join(map(str, ranges))})"
    return t.drms["range_mid"], f"the longest flight was {max(ranges)} hexes (4-6)"


FRENCH_CARRIER_STRIKES = 2


@implements(RANGE_RULE)
def check_carrier_basing(french_at_sea: int, us_at_sea: int = 0, us_airstrikes: int = 0) -> None:
    """Range rule: carriers may base two French airstrike groups, and up to half the US airstrikes (rounded up).

    B-29s need no base and do not count toward the US total.
    """
    if french_at_sea > FRENCH_CARRIER_STRIKES:
        raise RuleViolation(RANGE_RULE, f"carriers hold {FRENCH_CARRIER_STRIKES} French airstrike groups, not {french_at_sea}")
    limit = math.ceil(us_airstrikes / 2)
    if us_at_sea > limit:
        raise RuleViolation(RANGE_RULE, f"at most half of {us_airstrikes} US airstrike groups, rounded up ({limit}), "
                                        f"may fly from carriers, not {us_at_sea}")


def _base_hexes(st) -> list:
    """The hexes of the FEF's combat-effective base units (the range rule measures from any of them)."""
    return [u.hex for u in st.units.values() if u.on_map and u.counter.side.value == "FEF"
            and u.counter.type == "base" and not u.disrupted]


@implements(RANGE_RULE)
def base_range(st, target) -> int | None:
    """Hexes from the nearest combat-effective FEF base unit to ``target`` (None: no such base)."""
    found = [h.distance(target) for h in _base_hexes(st)]
    return min(found) if found else None


@implements(RANGE_RULE)
def carrier_range(st, target) -> int | None:
    """Hexes from the nearest all-sea hex (a carrier may be on any of them) to ``target``."""
    found = [h.distance(target) for h in st.map.hexes if st.terrain(h) == "all_sea"]
    return min(found) if found else None


@implements(RANGE_RULE)
def flight_ranges(st, target, airstrike: int, carrier: int = 0) -> tuple[int, ...]:
    """The range each airstrike group of one attack flies: ``carrier`` of them from the nearest sea hex, the
    rest from the nearest base. Raises RuleViolation when a group has nowhere to fly from."""
    if not 0 <= carrier <= airstrike:
        raise RuleViolation(RANGE_RULE, f"{carrier} carrier-based groups out of {airstrike} airstrike groups")
    land = airstrike - carrier
    out: list[int] = []
    if land:
        r = base_range(st, target)
        if r is None:
            raise RuleViolation(RANGE_RULE, "no combat-effective FEF base unit is on the map to fly from; only "
                                            "carrier-based airstrikes can fly")
        out += [r] * land
    if carrier:
        r = carrier_range(st, target)
        if r is None:
            raise RuleViolation(RANGE_RULE, "the map has no sea hex for a carrier")
        out += [r] * carrier
    return tuple(out)


@implements("IC 12.54", "IC 27.5", RANGE_RULE)
def strike_modifiers(target: TargetHex, strike: Strike, overrun: bool = False,
                     table: BombardmentTable | None = None) -> list[tuple[DRM, str]]:
    """Every modifier for this attack, each with the reason it applies."""
    t = table or shipped_table()
    out: list[tuple[DRM, str]] = []
    if target.artillery_near and strike.airstrike:
        where = "in" if any(u.kind == "artillery" for u in target.units) else "next to"
        out.append((t.drms["artillery"], f"Communist artillery {where} the target hex"))
    if overrun:
        out.append((t.drms["overrun"], "an airstrike called in during an overrun"))
    if strike.ranges and strike.airstrike:
        if len(strike.ranges) > strike.airstrike:
            raise RuleViolation(RANGE_RULE, f"{len(strike.ranges)} ranges for {strike.airstrike} airstrike groups")
        out.append(range_modifier(strike.ranges, t))
    return out


def _apply_case(case: Case, units: list[GroundUnit], choose: Chooser, res: Resolution,
                eliminated: list[str], disrupted: list[str]) -> list[GroundUnit]:
    if case.effect == "eliminate_disrupted":
        pool = tuple(u for u in units if u.disrupted and u.combat_unit and u.kind != "militia")
        action = "eliminate"
    else:
        pool = tuple(u for u in units if not u.disrupted and u.kind != "militia")
        action = "disrupt"
    n = len(pool) if case.count == ALL else min(case.count, len(pool))
    if n == len(pool):
        picked = [u.id for u in pool]
    else:
        picked = list(choose(action, pool, n))
        if len(picked) != n or len(set(picked)) != n or not set(picked) <= {u.id for u in pool}:
            raise RuleViolation(TABLE_RULE, f"the owner must pick {n} of {[u.id for u in pool]} to {action}, "
                                            f"not {picked}")
    mark = " (reconstructed case)" if case.provenance.reconstructed else ""
    if not pool:
        res.add(TABLE_RULE, f"{case.describe()}: there is none{mark}", result=[])
        return units
    res.add(TABLE_RULE, f"{case.describe()}: {', '.join(picked)}{mark}", result=picked)
    if action == "eliminate":
        eliminated += picked
        return [u for u in units if u.id not in picked]
    disrupted += picked
    return [replace(u, disrupted=True) if u.id in picked else u for u in units]


@implements(TABLE_RULE, "IC 17.34", "IC Errata")
def apply_result(code: str, units: Sequence[GroundUnit], *, errata: bool = True,
                 table: BombardmentTable | None = None, choose: Chooser | None = None,
                 res: Resolution | None = None) -> tuple[tuple[GroundUnit, ...], tuple[str, ...], tuple[str, ...]]:
    """Apply a ground result to every unit of the hex, case by case in the printed order.

    Returns (units afterwards, eliminated ids, disrupted ids). Communist militia is never touched (17.34).
    With ``errata=False`` the cases the errata struck apply again (to compare with the original table).
    """
    t = table or shipped_table()
    res = res if res is not None else Resolution()
    result = t.results[code]
    militia = [u.id for u in units if u.kind == "militia"]
    if militia and result.active(errata):
        res.add("IC 17.34", f"Communist militia ({', '.join(militia)}) is never hurt by bombardment")
    current, eliminated, disrupted = list(units), [], []
    for i, case in enumerate(result.cases, start=1):
        if errata and case.struck:
            res.add("IC Errata", f"{code} case ({i}) ({case.describe()}) is struck: {case.struck}")
            continue
        current = _apply_case(case, current, choose or weakest_first, res, eliminated, disrupted)
    return tuple(current), tuple(eliminated), tuple(disrupted)


@implements("IC 12.0", "IC 12.3", "IC 12.31", "IC 12.33", "IC 12.35", "IC 12.5", "IC 12.51", "IC 12.53",
            "IC 12.6", "IC 12.7", TABLE_RULE)
def airstrike(dice: Dice, target: TargetHex, strike: Strike, *, overrun: bool = False, errata: bool = True,
              table: BombardmentTable | None = None, choose: Chooser | None = None,
              res: Resolution | None = None) -> Resolution:
    """Resolve one bombardment of one hex: every strike unit placed there, one roll (12.33, 12.35)."""
    t = table or shipped_table()
    res = res if res is not None else Resolution()
    check_strike(target, strike)
    res.add("IC 12.32", f"{target.label}: {len(target.units)} Communist unit(s), a legal target")
    line = t.line_for(strike.groups)
    res.add("IC 12.35", f"one attack on {target.label} by {strike.describe()}: {strike.groups} group(s), "
                        f"line {line.label}", result=line.label)
    drms = strike_modifiers(target, strike, overrun, t)
    for drm, why in drms:
        res.add(drm.rule, f"{why}: {drm.value:+d}" + (" (reconstructed value)" if drm.provenance.reconstructed else ""),
                result=drm.value)
    if strike.ranges and not strike.airstrike:
        res.add(RANGE_RULE, "range counts only for airstrikes: naval strikes and B-29s ignore it")
    if target.artillery_near and not strike.airstrike:
        res.add("IC 12.54", "the artillery modifier is flak: naval strikes and B-29s ignore it")
    total = sum(d.value for d, _ in drms)
    roll = roll_die(dice, DIE, f"bombardment of {target.label}")
    modified = roll + total
    row, cell = t.read(line, modified)
    value: StrikeCell = cell.value
    edge = ""
    if row != modified:
        edge = f"; {modified} is off the table, read as {row}"
    res.add("IC 12.33", f"roll {roll}" + (f", modified {total:+d} = {modified}" if total else "")
            + f"{edge}: {value.text} on line {line.label}"
            + (" (reconstructed entry)" if cell.provenance.reconstructed else ""),
            arithmetic=f"{roll} {total:+d} = {modified}" if total else "", result=value.text, roll=roll)
    lost = 0
    if value.air_losses:
        if strike.airstrike:
            lost = min(value.air_losses, strike.airstrike)
            res.add("IC 12.51", f"flak shoots down {lost} airstrike group(s); they are removed from play (12.53)",
                    result=lost)
        else:
            rule = "IC 12.7" if strike.b29 else "IC 12.6"
            res.add(rule, f"{'B-29s' if strike.b29 else 'naval strikes'} ignore antiaircraft fire: no loss")
    meaning = t.results[value.ground].meaning
    res.add(TABLE_RULE, f"{value.ground}: {meaning}")
    units, eliminated, disrupted = apply_result(value.ground, target.units, errata=errata, table=t,
                                                choose=choose, res=res)
    res.result = StrikeOutcome(value.text, value.ground, line.label, roll, modified, lost, eliminated,
                               disrupted, units)
    return res


def strike_odds(target: TargetHex, strike: Strike, key: Callable[[StrikeOutcome], Any] = lambda o: o.ground,
                **kw) -> Distribution:
    """The exact distribution of ``key(outcome)`` for this strike (by default the ground result)."""
    return enumerate_outcomes(lambda d: key(airstrike(d, target, strike, **kw).result))
