"""Rule 23: the FEF's Far Eastern Staging Area, an off-map box, and the ways out of it onto the map.

Units wait off the map in the staging area, which holds any number (23.0, 23.3) and takes no part in the
fighting (23.4). From there they arrive by sea through a port (23.11), by amphibious invasion on a coastal hex
(23.12), by air transport or airborne assault (23.13, 23.14, in :mod:`wargames.indochina.air`); air units go
straight to the Air Units box (23.15). DNA flotillas arrive only by sea (23.16). Nothing goes back (23.2).

A map marks a port with an attribute ``port: <name>`` on the hex (as the logistics rules read it); Saigon's
river exit may be named with ``sea_access: <label>``, otherwise the hex straight south is used (23.11(2)).

Readings (flagged in the chapter): a port is usable only with a combat-effective FEF base in it (23.11's
first sentence, stricter than 23.11(1)); port capacity counts a division as three regiments/groups and
anything smaller than a regiment as nothing; a unit starting its turn in a port hex may invade from there
whether or not the port is otherwise usable (23.121).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .combat import Side
from .state import IndochinaState
from .units import UnitState

PRINTED_PORTS = ("Haiphong", "Cam Ranh", "Saigon", "Veal Renh")    # 23.11(1) note
PORT_CAPACITY = 3                 # regiments/groups (one division) per port per turn, 23.11(1)
AMPHIBIOUS_CAPACITY = 1           # one regiment/group or smaller unit per turn, 23.12(1)
US_AMPHIBIOUS_CAPACITY = 3        # three regiments/groups or one division, 23.12(2)
SOUTH = Hex(0, 1)                 # flat-topped axial: the hex straight below
METHODS = ("naval transport", "amphibious invasion", "air transport", "airborne assault")


def port_load(u: UnitState) -> int:
    """Regiment/group equivalents a unit uses of a port's capacity: division 3, regiment/group 1, smaller 0."""
    size = u.counter.size
    return 3 if size == "division" else 1 if size in ("group", "regiment") else 0


def amphibious_load(u: UnitState, us_ground: bool) -> int:
    """Amphibious capacity used: one unit of regiment/group size or smaller (23.12(1)); with US Ground
    intervention a division counts 3 and every smaller unit 1 (23.12(2))."""
    if u.counter.size == "division":
        if not us_ground:
            raise RuleViolation("IC 23.12", f"{u.id} is a division; without US Ground intervention only one "
                                "regiment/group or smaller unit may land amphibiously")
        return 3
    return 1


@implements("IC 23.0", "IC 23.1", "IC 23.3", "IC 23.122")
@dataclass
class StagingArea:
    """The off-map box. ``units`` are the ids waiting there (any number, 23.3); per-turn usage is kept in
    ``port_used`` (port label -> load), ``amphibious_used`` and ``spent`` (units whose naval or amphibious
    move used up all their movement, 23.122)."""

    units: set[str] = field(default_factory=set)
    port_used: dict[str, int] = field(default_factory=dict)
    amphibious_used: int = 0
    spent: set[str] = field(default_factory=set)
    us_ground: bool = False

    def place(self, st: IndochinaState, uid: str) -> Resolution:
        """A reinforcement goes into the staging area (23.1): FEF only, from off the map (23.2)."""
        u = st.unit(uid)
        if u.side is not Side.FEF:
            raise RuleViolation("IC 23.0", f"{uid} is Communist; the staging area is the FEF's")
        if u.on_map:
            raise RuleViolation("IC 23.2", f"{uid} is on the map and may never go back to the staging area")
        if u.eliminated:
            raise RuleViolation("IC 23.1", f"{uid} is eliminated")
        self.units.add(uid)
        res = Resolution()
        res.add("IC 23.1", f"{uid} waits in the Far Eastern Staging Area", result=uid)
        res.add("IC 23.3", f"{len(self.units)} unit(s) now in the staging area; it has no limit")
        return res

    def new_turn(self) -> None:
        self.port_used.clear()
        self.amphibious_used = 0
        self.spent.clear()

    def check_may_move(self, uid: str) -> None:
        """A unit that arrived by sea has used all its movement this turn (23.122)."""
        if uid in self.spent:
            raise RuleViolation("IC 23.122", f"{uid} used naval or amphibious movement and may not move again "
                                "this turn")

    def _take(self, uid: str) -> None:
        if uid not in self.units:
            raise RuleViolation("IC 23.1", f"{uid} is not in the Far Eastern Staging Area")


# ------------------------------------------------------------------------------------------------ ports
def is_port(st: IndochinaState, h: Hex) -> bool:
    return st.is_port(h)


def port_name(st: IndochinaState, h: Hex) -> str:
    p = st.map.info(h).attr("port")
    return p if isinstance(p, str) else st.map.info(h).attr("name", st.label(h))


@implements("IC 23.11")
def port_problem(st: IndochinaState, h: Hex) -> str:
    """Why the FEF may not land through this hex by sea, or ``""`` (23.11, 23.11(2)). Enemy ZOCs do not matter."""
    if not is_port(st, h):
        return f"{st.label(h)} is not a port"
    if not any(u.counter.type == "base" and not u.disrupted for u in st.units_at(h, Side.FEF)):
        return f"{port_name(st, h)} holds no combat-effective FEF base"
    if port_name(st, h) == "Saigon":
        access = st.map.info(h).attr("sea_access")
        exit_hex = st.map.hex(str(access)) if access else h + SOUTH
        if exit_hex in st.map and st.units_at(exit_hex, Side.COMMUNIST):
            return f"Saigon's river exit to the sea ({st.label(exit_hex)}) holds enemy units"
    return ""


@implements("IC 23.11", "IC 23.122", "IC 23.2")
def naval_transport(st: IndochinaState, area: StagingArea, uid: str, port: str) -> Resolution:
    """Ship a unit from the staging area to a usable port: at most three regiments/groups (or one division)
    per port per turn, smaller units free (23.11(1)); it may not move again this turn (23.122)."""
    area._take(uid)
    h = st.map.hex(port)
    why = port_problem(st, h)
    if why:
        raise RuleViolation("IC 23.11", f"{uid} cannot land at {port}: {why}")
    u = st.unit(uid)
    load = port_load(u)
    used = area.port_used.get(port, 0)
    if used + load > PORT_CAPACITY:
        raise RuleViolation("IC 23.11", f"{port_name(st, h)} has landed {used} of {PORT_CAPACITY} regiment/group "
                            f"equivalents this turn; {uid} ({u.counter.size}) needs {load}")
    res = Resolution()
    area.port_used[port] = used + load
    area.units.discard(uid)
    u.hex = h
    area.spent.add(uid)
    res.add("IC 23.11", f"{uid} lands by sea at {port_name(st, h)} ({port})",
            arithmetic=f"{used} + {load} = {used + load} of {PORT_CAPACITY}", result=port)
    res.add("IC 23.122", f"{uid} has used all its movement this turn")
    res.result = {"unit": uid, "hex": port, "port_used": used + load}
    return res


# ------------------------------------------------------------------------------------- amphibious invasion
@implements("IC 23.12", "IC 23.121", "IC 23.122", "IC 23.16")
def amphibious_invasion(st: IndochinaState, area: StagingArea, uid: str, target: str) -> Resolution:
    """Land a unit on a coastal hex free of enemy units (an enemy ZOC is allowed), from the staging area or,
    if it began its turn in a port hex, from there (23.121). Capacity per turn is shared (23.12(1)-(2));
    the lander uses all its movement (23.122)."""
    u = st.unit(uid)
    if u.side is not Side.FEF:
        raise RuleViolation("IC 23.12", "amphibious invasion is for FEF units")
    res = Resolution()
    if uid in area.units:
        origin = "the Far Eastern Staging Area"
    elif u.on_map and is_port(st, u.hex):
        if uid in area.spent:
            raise RuleViolation("IC 23.122", f"{uid} has already used all its movement this turn")
        origin = f"the port at {st.label(u.hex)}"
        res.add("IC 23.121", f"{uid} began its turn in a port hex and may invade from it")
    else:
        raise RuleViolation("IC 23.121", f"{uid} is neither in the staging area nor in a port hex")
    h = st.map.hex(target)
    if st.terrain(h) == "all_sea" or not st.has(h, "coast"):
        raise RuleViolation("IC 23.12", f"{target} is not a coastal land hex")
    if st.units_at(h, Side.COMMUNIST):
        raise RuleViolation("IC 23.12", f"{target} holds enemy units")
    cap = US_AMPHIBIOUS_CAPACITY if area.us_ground else AMPHIBIOUS_CAPACITY
    load = amphibious_load(u, area.us_ground)
    if area.amphibious_used + load > cap:
        raise RuleViolation("IC 23.12", f"amphibious capacity is {cap} this turn, {area.amphibious_used} used; "
                            f"{uid} needs {load}")
    before = area.amphibious_used
    area.amphibious_used += load
    area.units.discard(uid)
    u.hex = h
    area.spent.add(uid)
    res.add("IC 23.12", f"{uid} lands amphibiously from {origin} on {target}"
            + (" (US Ground intervention: capacity 3)" if area.us_ground else ""),
            arithmetic=f"{before} + {load} = {area.amphibious_used} of {cap}", result=target)
    if u.counter.type == "DNA":
        res.add("IC 23.16", f"{uid} is a DNA: it may enter the map this way")
    res.add("IC 23.122", f"{uid} has used all its movement this turn")
    res.result = {"unit": uid, "hex": target, "amphibious_used": area.amphibious_used}
    return res


# ----------------------------------------------------------------------------------- other means and bans
@implements("IC 23.1", "IC 23.16")
def check_entry_method(st: IndochinaState, area: StagingArea, uid: str, method: str) -> None:
    """May this unit leave the staging area this way? DNA only by sea (23.16); airborne assault only for
    airborne units (23.14); air transport and airborne assault themselves are in the air rules."""
    area._take(uid)
    if method not in METHODS:
        raise RuleViolation("IC 23.1", f"{method!r} is not a way onto the map; the ways are {METHODS}")
    u = st.unit(uid)
    if u.counter.type == "DNA" and method not in ("naval transport", "amphibious invasion"):
        raise RuleViolation("IC 23.16", f"{uid} is a DNA and enters only by naval transport or amphibious invasion")
    if method == "airborne assault" and u.counter.type != "airborne infantry":
        raise RuleViolation("IC 23.14", f"only airborne units make airborne assaults, not {uid}")


@implements("IC 23.15")
def air_units_arrive(air_units: dict[str, int]) -> Resolution:
    """Air units from the staging area go straight to the Air Units box, ready to fly this turn (23.15)."""
    res = Resolution()
    for kind, groups in sorted(air_units.items()):
        if not isinstance(groups, int) or groups < 0:
            raise RuleViolation("IC 23.15", f"{kind}: a number of groups must be 0 or more")
        res.add("IC 23.15", f"{groups} {kind} group(s) go to the Air Units box without transport", result=groups)
    res.result = dict(air_units)
    return res


@implements("IC 23.2")
def return_to_staging(st: IndochinaState, area: StagingArea, uid: str) -> None:
    """Never allowed for a unit on the map (23.2)."""
    u = st.unit(uid)
    if u.on_map or uid not in area.units:
        raise RuleViolation("IC 23.2", f"{uid} has been on the map and may not go back to the staging area")


@implements("IC 23.4")
def check_combat_units(area: StagingArea, unit_ids: list[str], side: Side = Side.FEF) -> None:
    """No unit in the staging area adds strength to a combat on the map, and no Communist unit attacks or
    moves into it (23.4)."""
    for uid in unit_ids:
        if uid in area.units:
            raise RuleViolation("IC 23.4", f"{uid} is in the staging area and adds nothing to a combat on the map")


@implements("IC 23.4")
def check_communist_target(side: Side, destination: str) -> None:
    """The Communist player never moves or attacks into the staging area (23.4)."""
    if side is Side.COMMUNIST and destination == "staging area":
        raise RuleViolation("IC 23.4", "Communist units never move or attack into the Far Eastern Staging Area")


@implements("IC 29.31")
def place_intervention_units(area: "StagingArea", st: IndochinaState, uids: list[str]) -> Resolution:
    """29.31: US and French intervention land units start in the staging area and enter the map from there by
    the normal means (ports, air or amphibious landing)."""
    res = Resolution()
    for uid in uids:
        nat = st.unit(uid).counter.nationality or "French"
        if nat not in ("US", "French"):
            raise RuleViolation("IC 29.31", f"{uid} is {nat}; only US and French intervention units arrive this way")
        res.extend(area.place(st, uid))
    return res
