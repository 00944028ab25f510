"""Rule 10: weapon types, which fire phase each uses, line of sight and spotting."""
from __future__ import annotations

from ..core import Hex, Resolution, implements, trace_line
from ..core.errors import RuleViolation
from .air_marks import air_spotted
from .charts import RangeTable
from .state import CitadelState
from .terrain import is_jungle
from .units import Counter, Side, UnitClass

SMALL_ARMS, RECOILLESS, MORTAR, HOWITZER, HMG, TANK_GUNS = (
    "small arms", "recoilless rifle", "mortar", "howitzer", "heavy machine gun", "tank guns")


@implements("C 10")
def weapon_type(c: Counter) -> str:
    """C 10: infantry fire small arms; 75 = recoilless rifle; 81/82/120 = mortar; howitzers; French AA = HMG."""
    if c.cls is UnitClass.INFANTRY:
        return SMALL_ARMS
    if c.cls is UnitClass.TANK:
        return TANK_GUNS                  # small arms and a 75mm recoilless rifle (C 19.A, tanks.tank_fire_parts)
    if c.type in ("infantry weapons", "airborne infantry weapons"):
        if c.ordnance == "75":
            return RECOILLESS
        if c.ordnance in ("81", "82", "120"):
            return MORTAR
    if c.type == "howitzer":
        return HOWITZER
    if c.type == "antiaircraft":
        if c.side is Side.VIETMINH:
            raise RuleViolation("C 9", f"{c.id}: Vietminh antiaircraft units may not fire at ground units")
        return HMG
    raise RuleViolation("C 10", f"{c.id}: no weapon type for a {c.type} with ordnance {c.ordnance}")


def range_key(c: Counter) -> str:
    """The row of the range-modifier table a counter uses."""
    t = weapon_type(c)
    return {SMALL_ARMS: "small_arms", HMG: "heavy_machine_gun", RECOILLESS: "recoilless_rifle_75",
            TANK_GUNS: "recoilless_rifle_75"}.get(t, f"{t}_{c.ordnance}")


@implements("C 10")
def fire_mode(c: Counter, rng: int, ranges: RangeTable) -> str:
    """'direct' or 'indirect' (C 10). Howitzers fire direct within their lowest range band, else indirect."""
    t = weapon_type(c)
    if t == MORTAR:
        return "indirect"
    if t == HOWITZER:
        return "direct" if rng <= ranges.lowest_band(range_key(c)).high else "indirect"
    return "direct"


def _blocking_hex(state: CitadelState, h: Hex, firer_on_hill: bool, target_on_hill: bool) -> str | None:
    """Why an intervening hex blocks (conditions 1 and 2), or None."""
    if h not in state.map:
        return None
    hill = state.map.terrain(h) == "hill"
    if hill and not (firer_on_hill and target_on_hill):
        return f"hill hex {state.label(h)} lies between (condition 2)"
    if state.units_at(h) and not ((firer_on_hill or target_on_hill) and not hill):
        return f"units in {state.label(h)} block the line (condition 1)"
    return None


@implements("C 10")
def line_of_sight(state: CitadelState, a: Hex, b: Hex) -> Resolution:
    """C 10 line of sight, with the exact trace. ``result`` is True when the line is clear.

    Ties are decided explicitly: along a hexside (condition 4) the line is
    blocked if both flanking hexes block or the hexside is full jungle.
    Through a vertex (a case the rule does not name) we read it the same way:
    blocked only if both ways past the vertex are blocked.
    """
    res = Resolution()
    m = state.map
    tr = trace_line(a, b)
    fh = m.terrain(a) == "hill" if a in m else False
    th = m.terrain(b) == "hill" if b in m else False
    adjacent = a.distance(b) == 1
    res.add("C 10", f"line {state.label(a)} -> {state.label(b)}: passes through "
            f"{', '.join(state.label(h) for h in tr.intervening) or 'no hex'}"
            + (f"; runs along {len(tr.along)} hexside(s)" if tr.along else "")
            + (f"; through {len(tr.vertices)} vertex(es)" if tr.vertices else ""))
    reasons = []
    for h in tr.intervening:
        r = _blocking_hex(state, h, fh, th)
        if r:
            reasons.append(r)
    for x, y in tr.crossings:
        if "full_jungle" in m.side(x, y) and not adjacent:
            reasons.append(f"crosses the full jungle hexside {state.label(x)}|{state.label(y)} (condition 3)")
    for x, y in tr.along:
        bx, by = _blocking_hex(state, x, fh, th), _blocking_hex(state, y, fh, th)
        if "full_jungle" in m.side(x, y):
            reasons.append(f"runs along the full jungle hexside {state.label(x)}|{state.label(y)} (condition 4)")
        elif bx and by:
            reasons.append(f"runs along {state.label(x)}|{state.label(y)} with both sides blocking (condition 4)")
        else:
            res.add("C 10", f"runs along {state.label(x)}|{state.label(y)}: at most one side blocks, so the line is clear there")
    for before, after, beside in tr.vertices:
        direct = "full_jungle" in m.side(before, after) and not adjacent
        around = (_blocking_hex(state, beside, fh, th) is not None
                  or "full_jungle" in m.side(before, beside) or "full_jungle" in m.side(beside, after))
        if direct and around:
            reasons.append(f"passes through the corner of {state.label(beside)} with both ways blocked (vertex reading)")
    for r in reasons:
        res.add("C 10", f"blocked: {r}")
    res.result = not reasons
    res.add("C 10", "line of sight is clear" if res.result else "no line of sight")
    return res


@implements("C 10")
def spotted(state: CitadelState, target: Hex, firing_side: Side) -> tuple[bool, str]:
    """Whether a target hex is spotted for indirect fire by ground units (C 10, conditions 1-3, and C 26.C)."""
    if air_spotted(state, target, firing_side):
        return True, f"{state.label(target)} was spotted from the air this player turn (C 26.C)"
    if not is_jungle(state.map, target):
        return True, f"{state.label(target)} is not a jungle hex (spotting condition 1)"
    near = {id(u) for n in state.map.neighbors(target) for u in state.units_at(n, firing_side)}
    if near:
        u = next(u for u in state.units.values() if id(u) in near)      # named in roster order
        return True, f"{u.id} is adjacent to {state.label(target)} (spotting condition 2)"
    for u in state.units_at(target, firing_side.enemy):
        c = u.counter
        if c.cls is UnitClass.HEAVY_WEAPONS and c.ordnance == "75" and c.type != "howitzer":
            fired, moved = state.fired_in.get(u.id), state.moved_in.get(u.id, -1)
            if fired is not None and fired < state.phase_index and fired > moved:
                return True, f"{u.id} is a recoilless rifle that fired earlier and has not moved (spotting condition 3)"
    return False, f"{state.label(target)} is jungle and no friendly unit is adjacent (not spotted)"
