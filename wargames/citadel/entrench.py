"""Rule 18: Vietminh entrenchments, dug and filled in during play.

Trenches, tunnel complexes and weapons pits are a layer of the game state (``state.works``), seeded from the
map's printed works at set-up; the map itself never changes. A pit and a tunnel count as a trench wherever a
trench counts (C 18), and as four trench-hex equivalents (SR 1.B.5).
"""
from __future__ import annotations

import datetime as dt
from typing import Sequence

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .units import Side, UnitClass, UnitState

DIG_FROM = dt.date(1954, 3, 15)
TRENCH_HEXES_PER_PHASE = 4
MIN_STARTING_STRENGTH = 6
TRENCH_TERRAIN = ("clear", "swamp", "monsoon_swamp", "airfield")     # and any strongpoint hex (C 18)
TUNNEL_CAPACITY = 2
KINDS = ("trench", "tunnel", "weapons_pit")
EQUIVALENTS = {"trench": 1, "tunnel": 4, "weapons_pit": 4}


def works_at(state, h: Hex) -> str | None:
    """The trench, tunnel or weapons pit in a hex now (C 18), or None."""
    return state.works.get(h)


def trench_equivalents(works: dict) -> int:
    """Trench-hex equivalents of a set of works: a tunnel or a pit counts four (SR 1.B.5)."""
    return sum(EQUIVALENTS[k] for k in works.values())


def _may_hold(state, h: Hex, kind: str) -> str | None:
    """Why ``kind`` may not be dug in ``h`` by terrain, or None (C 18)."""
    m = state.map
    terr = m.terrain(h)
    if kind == "tunnel":
        return None if terr == "hill" else f"a tunnel complex is built only on a hill, and {state.label(h)} is {terr}"
    if terr in TRENCH_TERRAIN or "strongpoint" in m.info(h).features:
        return None
    return f"{state.label(h)} is {terr.replace('_', ' ')}; trenches go in clear, swamp, airfield or strongpoint hexes"


@implements("C 18")
def dig_problem(state, battalion: UnitState, kind: str, hexes: Sequence[Hex], dug_this_phase: set) -> str | None:
    """Why this battalion may not dig these works this movement phase, or None (C 18)."""
    if state.date < DIG_FROM:
        return f"the Vietminh dig from the {DIG_FROM:%B} {DIG_FROM.day} turn on"
    if battalion.side is not Side.VIETMINH or not battalion.counter.is_battalion:
        return f"{battalion.id} is not a Vietminh infantry battalion"
    if not battalion.on_board:
        return f"{battalion.id} is not on the map"
    if battalion.routed:
        return f"{battalion.id} is routed, and routed units may not entrench"
    if battalion.id in dug_this_phase:
        return f"{battalion.id} has already dug this movement phase"
    if kind not in KINDS:
        return f"{kind!r} is not a kind of work (trench, tunnel, weapons_pit)"
    limit = TRENCH_HEXES_PER_PHASE if kind == "trench" else 1
    if not 1 <= len(hexes) <= limit:
        return f"a battalion digs 1 to {limit} {kind.replace('_', ' ')} hex{'es' if limit > 1 else ''} a phase"
    if len(set(hexes)) != len(hexes):
        return "a hex is listed twice"
    system = set(state.works)
    start = battalion.hex
    for i, h in enumerate(hexes):
        if h not in state.map:
            return "a hex is off the map"
        if state.units_at(h, Side.FRENCH):
            return f"{state.label(h)} holds a French unit"
        if h in state.works:
            return f"{state.label(h)} already has a {state.works[h].replace('_', ' ')}"
        if kind == "trench" and i == 0 and h == start:
            if state.map.terrain(h) not in ("full_jungle", "partial_jungle"):
                return f"a new trench system starts in jungle, and {state.label(h)} is {state.map.terrain(h)}"
            if battalion.strength < MIN_STARTING_STRENGTH:
                return (f"{battalion.id} has {battalion.strength} strength points; a battalion needs "
                        f"{MIN_STARTING_STRENGTH} to start approach trenches")
        else:
            why = _may_hold(state, h, kind)
            if why:
                return why
            if not any(n in system for n in h.neighbors()):
                return f"{state.label(h)} is not next to a trench or tunnel"
            if kind == "weapons_pit" and not any(state.works.get(n) == "trench" for n in h.neighbors()):
                return f"a weapons pit is built next to a trench marker, and {state.label(h)} has none beside it"
        if i == 0 and h != start and not (h in system or any(n in system for n in h.neighbors())):
            return f"{state.label(h)} does not extend a system"
        if i == 0 and not (start == h or start in system or any(start.is_adjacent(x) for x in system | {h})):
            return f"{battalion.id} must stand in or next to the works it extends"
        system.add(h)
    return None


@implements("C 18")
def dig(state, battalion: UnitState, kind: str, hexes: Sequence[Hex], res: Resolution) -> None:
    """Place the works; they may be used in the same phase (C 18)."""
    for h in hexes:
        state.works[h] = kind
    where = ", ".join(state.label(h) for h in hexes)
    res.add("C 18", f"{battalion.id} digs {kind.replace('_', ' ')} in {where}", works=kind, hexes=where)


@implements("C 18")
def fill_in(state, res: Resolution) -> None:
    """At the end of a melee phase, works holding French combat infantry are filled in (C 18)."""
    for h in sorted(state.works):
        if any(u.counter.cls is UnitClass.INFANTRY for u in state.units_at(h, Side.FRENCH)):
            kind = state.works.pop(h)
            for u in state.units_at(h, Side.VIETMINH):
                u.in_tunnel = False
            res.add("C 18", f"French infantry in {state.label(h)} fill in the {kind.replace('_', ' ')}")


@implements("C 18")
def tunnel_problem(state, u: UnitState) -> str | None:
    """Why ``u`` may not go into the tunnel complex of its hex (only 75mm recoilless rifles, two at most)."""
    if state.works.get(u.hex) != "tunnel":
        return f"{state.label(u.hex)} has no tunnel complex"
    if u.counter.cls is not UnitClass.HEAVY_WEAPONS or u.counter.ordnance != "75" or u.counter.type != "infantry weapons":
        return "only 75mm recoilless rifle batteries occupy a tunnel complex"
    if u.in_tunnel:
        return f"{u.id} is already in the tunnel"
    inside = [x for x in state.units_at(u.hex) if x.in_tunnel]
    if len(inside) >= TUNNEL_CAPACITY:
        return f"the tunnel already holds {', '.join(x.id for x in inside)}"
    return None


@implements("C 18")
def silenced_in_trench(state, u: UnitState) -> bool:
    """A Vietminh weapons unit standing in a trench (not a pit, not a tunnel) may not fire (C 18)."""
    return (u.side is Side.VIETMINH and u.counter.cls is UnitClass.HEAVY_WEAPONS and not u.in_tunnel
            and state.works.get(u.hex) == "trench")
