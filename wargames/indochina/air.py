"""Rule 12.1-12.2: air units, the Available and Completed boxes, and the order of an air phase.

Only the FEF has air units. They come in groups (one to three per counter, traded like small change, 12.1), wait
in the Available box, fly once, and rest in the Completed box until the turn ends (12.21). Each air phase flies
its strikes first and its transports afterwards (12.11).

The rest of rule 12 lives in the modules that mirror it: :mod:`bombardment` (the Bombardment Table),
:mod:`airstrikes` (12.3, 12.5-12.7) and :mod:`transport` (12.4 and airborne operations, 19). Their names are
re-exported here, so ``from wargames.indochina.air import airstrike`` keeps working.
"""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Sequence

from ..core import Cell, Dice, Distribution, Provenance, Resolution, enumerate_outcomes, implements
from ..core.charts import Constraint, failed_constraints, parse_column_label
from ..core.errors import DataError, RuleViolation
from .airstrikes import (FRENCH_CARRIER_STRIKES, RANGE_RULE, UNIT_KINDS, Chooser, GroundUnit, Strike, StrikeOutcome,
                         TargetHex, airstrike, apply_result, check_carrier_basing, check_counts, check_strike,
                         range_modifier, strike_modifiers, strike_odds, weakest_first)
from .bombardment import (ALL, CONSTRAINTS, DATA, DIE, DRM, EFFECTS, REQUIRED_DRMS, TABLE_RULE, ATResult,
                          BombardmentTable, Case, Line, ResultCode, StrikeCell, check_constraints, default_table,
                          load_bombardment_table)
from .transport import (AIR_TRANSPORT_MP, CARGO_SIZES, NO_AIR_TERRAIN, NOT_FLOWN, AirMission, Cargo, Place,
                        TransportOutcome, air_transport, air_transport_cost, check_air_mission, transport_odds)

# Air unit types (12.1: groups of one type never turn into another type).
AIRSTRIKE, TRANSPORT, NAVAL, B29 = "airstrike", "air transport", "naval strike", "B-29"
AIR_TYPES = (AIRSTRIKE, TRANSPORT, NAVAL, B29)
COUNTER_SIZES = (1, 2, 3)                 # 12.1: a counter holds one to three groups


# --------------------------------------------------------------------------- air units, boxes and phases

@implements("IC 12.1")
def regroup(counters: Sequence[tuple[str, int]], into: Sequence[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """Trade air counters like change (12.1): the same groups of each type, in counters of one to three."""
    for kind, n in list(counters) + list(into):
        if kind not in AIR_TYPES:
            raise RuleViolation("IC 12.1", f"{kind!r} is not an air unit type; expected one of {', '.join(AIR_TYPES)}")
        if n not in COUNTER_SIZES:
            raise RuleViolation("IC 12.1", f"an air counter holds one to three groups, not {n}")
    for kind in AIR_TYPES:
        before = sum(n for k, n in counters if k == kind)
        after = sum(n for k, n in into if k == kind)
        if before != after:
            raise RuleViolation("IC 12.1", f"{kind}: {before} group(s) cannot become {after}; groups never change type")
    return tuple(into)


@implements("IC 12.2", "IC 12.21", "IC 12.23", "IC 12.53")
@dataclass
class AirPool:
    """The Air Units Available and Completed boxes, counted in groups of each type (our reading of B5 #19)."""

    available: dict[str, int]
    completed: dict[str, int] = field(default_factory=dict)
    eliminated: dict[str, int] = field(default_factory=dict)
    log: Resolution = field(default_factory=Resolution)

    def __post_init__(self) -> None:
        for box in (self.available, self.completed, self.eliminated):
            for kind, n in box.items():
                if kind not in AIR_TYPES:
                    raise RuleViolation("IC 12.1", f"{kind!r} is not an air unit type")
                if n < 0:
                    raise RuleViolation("IC 12.21", f"{kind}: a box cannot hold {n} groups")

    def take(self, kind: str, groups: int, why: str = "a mission") -> None:
        """Put groups on the map for a mission (12.21)."""
        if kind not in AIR_TYPES:
            raise RuleViolation("IC 12.1", f"{kind!r} is not an air unit type")
        have = self.available.get(kind, 0)
        if groups > have:
            raise RuleViolation("IC 12.21", f"{groups} {kind} group(s) wanted for {why}, but only {have} available")
        self.available[kind] = have - groups
        self.log.add("IC 12.21", f"{groups} {kind} group(s) fly {why}")

    def complete(self, kind: str, groups: int) -> None:
        if groups:
            self.completed[kind] = self.completed.get(kind, 0) + groups
            self.log.add("IC 12.21", f"{groups} {kind} group(s) go to the Completed box")

    def eliminate(self, kind: str, groups: int) -> None:
        if groups:
            self.eliminated[kind] = self.eliminated.get(kind, 0) + groups
            self.log.add("IC 12.53", f"{groups} {kind} group(s) eliminated, out of play for good")

    def end_of_turn(self) -> None:
        """Everything in the Completed box is available again next turn (12.21, 12.23)."""
        for kind, n in self.completed.items():
            self.available[kind] = self.available.get(kind, 0) + n
        if any(self.completed.values()):
            self.log.add("IC 12.23", f"end of turn: {dict(self.completed)} return to the Available box")
        self.completed = {}


def _take_strike(pool: AirPool, strike: Strike, why: str) -> None:
    """Take every strike unit of an attack from the Available box, or none if any type falls short."""
    wanted = [(k, n) for k, n in ((AIRSTRIKE, strike.airstrike), (NAVAL, strike.naval), (B29, strike.b29)) if n]
    for kind, n in wanted:
        if n > pool.available.get(kind, 0):
            raise RuleViolation("IC 12.21", f"{n} {kind} group(s) wanted for {why}, but only "
                                            f"{pool.available.get(kind, 0)} available")
    for kind, n in wanted:
        pool.take(kind, n, why)


@implements("IC 12.11", "IC 12.22", "IC 12.34", "IC 12.36", "IC 12.37", "IC 12.42", "IC 15.33")
@dataclass
class AirPhase:
    """One FEF air phase: extra sorties first (offensive phase only), then every strike placed, then resolved
    one hex at a time, then air transports."""

    pool: AirPool
    kind: str = "offensive"                # offensive (FEF turn) or defensive (Communist turn)
    errata: bool = True
    table: BombardmentTable | None = None
    committed: dict[str, tuple[TargetHex, Strike]] = field(default_factory=dict)
    bombarded: list[str] = field(default_factory=list)
    stage: str = "start"                   # start, strikes placed, resolving, transport
    log: Resolution = field(default_factory=Resolution)

    def __post_init__(self) -> None:
        if self.kind not in ("offensive", "defensive"):
            raise RuleViolation("IC 12.32", f"an air phase is offensive or defensive, not {self.kind!r}")

    def increased_sorties(self, kind: str, groups: int, supply_points: int) -> int:
        """12.22 / 15.33: at the start of the offensive phase, one supply point per group brings it back.

        Returns the supply points left. Groups are the unit of payment, since counters split freely (12.1).
        """
        if self.kind != "offensive":
            raise RuleViolation("IC 12.22", "extra sorties are bought only in the FEF Offensive Air Phase")
        if self.stage != "start":
            raise RuleViolation("IC 12.22", "extra sorties are bought at the very start of the phase, before any mission")
        if groups > self.pool.completed.get(kind, 0):
            raise RuleViolation("IC 12.22", f"only {self.pool.completed.get(kind, 0)} {kind} group(s) are in the "
                                            f"Completed box, not {groups}")
        if groups > supply_points:
            raise RuleViolation("IC 15.33", f"{groups} extra sorties cost {groups} supply points; only {supply_points} left")
        self.pool.completed[kind] = self.pool.completed.get(kind, 0) - groups
        self.pool.available[kind] = self.pool.available.get(kind, 0) + groups
        self.log.add("IC 15.33", f"{groups} {kind} group(s) back to Available for {groups} supply point(s)",
                     arithmetic=f"{supply_points} - {groups} = {supply_points - groups}")
        return supply_points - groups

    def commit(self, target: TargetHex, strike: Strike) -> None:
        """Place strike units on a hex (12.34); more units on the same hex join the same attack (12.35)."""
        if self.stage not in ("start", "strikes placed"):
            why = ("that hex was already bombarded this phase" if target.label in self.bombarded
                   else "every strike is placed before the first is resolved")
            raise RuleViolation("IC 12.37" if target.label in self.bombarded else "IC 12.34", why)
        merged = strike
        if target.label in self.committed:
            old_target, old = self.committed[target.label]
            if old_target != target:
                raise DataError("air phase", target.label, "two different descriptions of one hex")
            merged = old + strike
        check_counts(strike)
        check_strike(target, merged)
        _take_strike(self.pool, strike, f"a strike on {target.label}")
        self.committed[target.label] = (target, merged)
        self.stage = "strikes placed"
        self.log.add("IC 12.34", f"{strike.describe()} placed on {target.label}"
                     + (f" (now {merged.describe()})" if merged != strike else ""))

    def pending(self) -> list[str]:
        return [h for h in self.committed if h not in self.bombarded]

    def resolve(self, dice: Dice, label: str | None = None, choose: Chooser | None = None) -> Resolution:
        """Resolve one placed strike (the named hex, or the first placed)."""
        todo = self.pending()
        if not todo:
            raise RuleViolation("IC 12.34", "no placed strike is waiting to be resolved")
        label = label or todo[0]
        if label not in todo:
            raise RuleViolation("IC 12.37", f"{label} has no strike waiting (each hex is bombarded once per phase)")
        target, strike = self.committed[label]
        self.stage = "resolving"
        res = airstrike(dice, target, strike, errata=self.errata, table=self.table, choose=choose)
        out: StrikeOutcome = res.result
        self.bombarded.append(label)
        self.pool.complete(AIRSTRIKE, strike.airstrike - out.air_lost)
        self.pool.eliminate(AIRSTRIKE, out.air_lost)
        self.pool.complete(NAVAL, strike.naval)
        self.pool.complete(B29, strike.b29)
        res.add("IC 12.36", "the surviving strike units go to the Completed box")
        self.log.extend(res)
        return res

    def resolve_all(self, dice: Dice, choose: Chooser | None = None) -> list[Resolution]:
        return [self.resolve(dice, h, choose) for h in self.pending()]

    def transport(self, dice: Dice, mission: AirMission) -> Resolution:
        """Fly one air transport group (12.42: only once every placed strike is resolved)."""
        if self.pending():
            raise RuleViolation("IC 12.42", f"air transport waits until every placed strike is resolved "
                                            f"({', '.join(self.pending())} still waiting, 12.11)")
        check_air_mission(mission)
        self.pool.take(TRANSPORT, 1, f"carrying {mission.cargo.id}")
        self.stage = "transport"
        res = air_transport(dice, mission, table=self.table)
        out: TransportOutcome = res.result
        (self.pool.complete if out.air_unit_kept else self.pool.eliminate)(TRANSPORT, 1)
        self.log.extend(res)
        return res


@implements("IC 27.5")
def overrun_airstrike(pool: AirPool, dice: Dice, target: TargetHex, strike: Strike, **kw) -> Resolution:
    """27.3(2), 27.5: an airstrike called into an overrun, with the overrun modifier, from the Available box."""
    check_strike(target, strike)
    _take_strike(pool, strike, f"an overrun strike on {target.label}")
    res = airstrike(dice, target, strike, overrun=True, **kw)
    out: StrikeOutcome = res.result
    pool.complete(AIRSTRIKE, strike.airstrike - out.air_lost)
    pool.eliminate(AIRSTRIKE, out.air_lost)
    pool.complete(NAVAL, strike.naval)
    pool.complete(B29, strike.b29)
    return res
