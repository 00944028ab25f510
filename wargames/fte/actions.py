"""The non-combat actions: Search (F 9.0), Recover (F 10.0), Destroy Cache (F 11.0), Request Medevac (F 12.0),
Request Fire Mission (F 13.0), Load (F 14.0) and Unload (F 15.0), with the helicopters' comings and goings.

Each action checks who may take it and raises :class:`~wargames.core.errors.RuleViolation` otherwise, rolls its
dice through ``dice`` and writes its steps into a :class:`~wargames.core.Resolution`. Actions that draw
Opportunity Fire (F 21.0) take an optional callback ``opfire(state, unit_ids, hex, dice, res) -> bool``: this
module calls it at the moment the rule allows and the callback resolves the fire (it returns True when a result
stopped the activation). Marking units Activation Complete is the activation code's job, except for unloaded
units, which the Unload action itself marks (F 15.0).

Helicopter bookkeeping lives in :class:`~wargames.fte.units.Unit` fields: ``entered_turn``,
``brought_reinforcements``, ``move_only`` (a slick that unloaded reinforcements), ``leaves_turn`` (the last
turn it may stay: medevacs, reinforcement slicks, hogs, the random event's Cobras) and ``loaded_from`` (a medevac's
single loading hex).
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from ..core import Hex, Resolution, implements
from ..core.errors import DataError, RuleViolation
from ..core.dice import roll_die
from .casualties import attach, detach, leave_map, load_count, marker, marker_hex
from .casualties import pick_up as pick_up_marker, transfer as transfer_marker
from .charts import FireMissionResult
from .checks import Drm, tq_check
from .concealment import lose_concealment_if_seen, strip_on_load
from .los import line_of_sight
from .movement import map_edge, troops_aboard
from .sites import DESTRUCTIBLE, destroy_site, leave_hex, reveal_hidden_in_hex
from .state import FireMission, FteState
from .units import Unit, player

OpFire = Callable[[FteState, list, Hex, Any, Resolution], bool]


# --------------------------------------------------------------------------- helpers

def edge_hexes(state: FteState) -> list[Hex]:
    """Hexes on a map edge: in play, with at least one neighbour that is not (sorted by label)."""
    return sorted((h for h in state.map.hexes if map_edge(state, h)), key=state.label)


def _actor(state: FteState, uid: str, rule: str, action: str) -> Unit:
    """The acting unit, checked against the restrictions every action shares."""
    u = state.unit(uid)
    if u.loaded_in is not None:
        raise RuleViolation("F 14.0", f"{uid} is loaded in {u.loaded_in}; a loaded unit cannot be activated")
    if not u.on_map:
        raise RuleViolation(rule, f"{uid} is not on the map")
    if u.role == "dummy":
        raise RuleViolation("F 22.0", f"{uid} is a Dummy unit; it may only move")
    if u.role == "civilians":
        raise RuleViolation("F 28.0", f"{uid} is a Civilians marker; it may only move")
    if u.role == "sapper" and action != "Recover":
        raise RuleViolation("F 27.0", f"{uid} is a Sapper; it may only assault")
    if u.broken and action != "Recover":
        raise RuleViolation("F 7.4", f"{uid} is Broken; it may only Recover or Move, not {action}")
    return u


@implements("F 9.0")
def clear_searching(unit: Unit, res: Resolution | None = None) -> None:
    """Searching markers go when the unit takes any action other than Search (F 9.0)."""
    if unit.searching and res is not None:
        res.add("F 9.0", f"{unit.id} loses its {unit.searching} Searching marker(s): it took another action")
    unit.searching = 0


# --------------------------------------------------------------------------- F 9.0 Search

@implements("F 9.0", "F 23.0")
def search(state: FteState, uid: str, dice, res: Resolution, *, opfire: OpFire | None = None) -> bool:
    """An infantry unit standing on a hidden enemy site (cache, dummy cache, tunnel, foxholes or bunker)
    takes a TQ check, helped by -1 for each Searching marker it has. Success reveals every such site in the hex:
    a dummy cache is removed, the others stay revealed for good, and each revealed cache, tunnel or bunker (not
    foxholes) scores for the searcher. Failure adds a Searching marker. A Concealed searcher in LoS of a Visible
    enemy loses its marker, and Opportunity Fire may follow the check (F 9.0, F 23.0-25.0)."""
    u = _actor(state, uid, "F 9.0", "Search")
    if not u.infantry:
        raise RuleViolation("F 9.0", f"{uid} is not an infantry unit")
    hidden = [s for s in sorted(state.sites.values(), key=lambda s: s.id)
              if s.hex == u.hex and not s.revealed and player(s.side) != u.player]
    if not hidden:
        raise RuleViolation("F 9.0", f"there is no hidden enemy cache in {state.label(u.hex)}")
    lose_concealment_if_seen(state, u, res, "F 9.0", "search")
    extra = [Drm(-u.searching, "F 9.0", f"{u.searching} Searching marker(s)")] if u.searching else []
    ok = tq_check(state, u, dice, res, "F 9.0", "a search", extra)
    if ok:
        u.searching = 0
        reveal_hidden_in_hex(state, u.hex, u.player, res, "F 9.0")
    else:
        u.searching += 1
        res.add("F 9.0", f"{uid} now has {u.searching} Searching marker(s) (-{u.searching} on its next search)",
                result=u.searching)
    if opfire is not None:
        opfire(state, [uid], u.hex, dice, res)
    res.result = ok
    return ok


# --------------------------------------------------------------------------- F 10.0 Recover

@implements("F 10.0", "F 19.2")
def recover(state: FteState, uid: str, res: Resolution, *, pick_up: str | None = None,
            transfer: tuple[str, str] | None = None) -> list[str]:
    """Recover (F 10.0): the unit sheds its Exhausted marker, drops Suppressed (or goes from Broken to
    Suppressed; a Broken vehicle or helicopter stays Broken), sheds Low Ammo where F 19.2 allows it, and may
    pick up one casualty marker lying in its hex or hand one it carries to another infantry unit there.
    Returns what changed."""
    u = _actor(state, uid, "F 10.0", "Recover")
    clear_searching(u, res)
    done = []
    if u.exhausted:
        u.exhausted = False
        done.append("exhausted")
        res.add("F 10.0", f"{uid} removes its Exhausted marker")
    if u.broken:
        if u.kind in ("vehicle", "helicopter"):
            res.add("F 10.0", f"{uid} is a Broken {u.kind}: it may not remove the Broken marker")
        else:
            u.broken, u.suppressed = False, True
            done.append("broken->suppressed")
            res.add("F 10.0", f"{uid} turns its Broken marker into a Suppressed marker")
    elif u.suppressed:
        u.suppressed = False
        done.append("suppressed")
        res.add("F 10.0", f"{uid} removes its Suppressed marker")
    if u.low_ammo:
        why = low_ammo_source(state, u)
        if u.kind in ("vehicle", "helicopter"):
            res.add("F 19.2", f"{uid} is a {u.kind}: it may not remove its Low Ammo marker")
        elif why:
            u.low_ammo = False
            done.append("low_ammo")
            res.add("F 19.2", f"{uid} removes its Low Ammo marker ({why})")
        else:
            res.add("F 19.2", f"{uid} keeps its Low Ammo marker: no friendly non-leader combat unit without Low "
                              "Ammo (or, for the NVA/VC, no ammo cache) in its hex")
    if pick_up is not None and transfer is not None:
        raise RuleViolation("F 10.0", "a Recover action picks up one marker or hands one over, not both")
    if pick_up is not None:
        pick_up_marker(state, uid, pick_up, res)
        done.append(f"picked up {pick_up}")
    if transfer is not None:
        mid, to = transfer
        transfer_marker(state, uid, mid, to, res)
        done.append(f"handed {mid} to {to}")
    res.result = done
    return done


def low_ammo_source(state: FteState, u: Unit) -> str:
    """Why the unit may shed Low Ammo in its hex (F 19.2), or "" if it may not."""
    for o in sorted(state.units_at(u.hex, u.player), key=lambda x: x.id):
        if o.id != u.id and o.is_combat and not o.is_leader and not o.low_ammo:
            return f"cross-levelling with {o.id}"
    if u.player == "NVA/VC":
        for s in state.sites.values():
            if s.hex == u.hex and s.kind == "ammo" and player(s.side) == "NVA/VC":
                return f"the ammo cache {s.id} (it stays hidden)" if not s.revealed else f"the ammo cache {s.id}"
    return ""


# --------------------------------------------------------------------------- F 11.0 Destroy Cache

@implements("F 11.0", "F 24.0")
def destroy_cache(state: FteState, uid: str, res: Resolution, *, site: str | None = None, dice=None,
                  opfire: OpFire | None = None) -> str:
    """A US infantry unit, not Suppressed, destroys one revealed enemy cache, tunnel or bunker in its hex
    (foxholes cannot be destroyed), scoring for the US. It loses concealment in LoS of a Visible enemy and
    draws Opportunity Fire, which we resolve after the destruction (F 11.0, F 24.0, F 25.0)."""
    u = _actor(state, uid, "F 11.0", "Destroy Cache")
    if u.player != "US" or not u.infantry:
        raise RuleViolation("F 11.0", f"{uid}: only American infantry destroy caches")
    if u.suppressed:
        raise RuleViolation("F 11.0", f"{uid} is Suppressed")
    here = [s for s in sorted(state.sites.values(), key=lambda s: s.id)
            if s.hex == u.hex and s.revealed and player(s.side) != u.player]
    if site is not None:
        chosen = [s for s in here if s.id == site]
        if not chosen:
            raise RuleViolation("F 11.0", f"{site} is not a revealed enemy site in {state.label(u.hex)}")
        target = chosen[0]
        if target.kind == "foxholes":
            raise RuleViolation("F 25.0", "foxholes cannot be destroyed")
    else:
        able = [s for s in here if s.kind in DESTRUCTIBLE]
        if not able:
            raise RuleViolation("F 11.0", f"no revealed enemy cache, tunnel or bunker in {state.label(u.hex)}")
        target = able[0]
    if target.kind not in DESTRUCTIBLE:
        raise RuleViolation("F 11.0", f"{target.id} is a {target.kind}, which cannot be destroyed")
    clear_searching(u, res)
    lose_concealment_if_seen(state, u, res, "F 11.0", "destroy_cache")
    destroy_site(state, target.id, u.player, res, "F 11.0")
    if opfire is not None:
        opfire(state, [uid], u.hex, dice, res)
    res.result = target.id
    return target.id


# --------------------------------------------------------------------------- F 12.0 Request Medevac

@implements("F 12.0", "F Medevac Table")
def request_medevac(state: FteState, leader_id: str, dice, res: Resolution) -> int | None:
    """A US leader, neither Broken nor Suppressed, rolls on the Medevac Request Table. Only one request may be
    pending, and none while a medevac is on the map. Returns the arrival turn, or None if denied (F 12.0)."""
    u = _actor(state, leader_id, "F 12.0", "Request Medevac")
    if u.player != "US" or not u.is_leader or not u.infantry:
        raise RuleViolation("F 12.0", f"{leader_id}: only an American leader may request a medevac")
    if u.suppressed:
        raise RuleViolation("F 12.0", f"{leader_id} is Suppressed")
    if state.medevac_turn is not None:
        raise RuleViolation("F 12.0", f"a medevac is already pending (due on turn {state.medevac_turn})")
    if state.medevac_unit is not None:
        raise RuleViolation("F 12.0", f"the medevac {state.medevac_unit} has not left the map yet")
    clear_searching(u, res)
    roll = roll_die(dice, 10, f"Medevac Request Table for {leader_id}")
    delay = state.charts.medevac.get("arrival", roll).value
    if delay is None:
        res.add("F 12.0", f"{leader_id} requests a medevac: roll {roll}, request denied", result=None, roll=roll)
        res.result = None
        return None
    state.medevac_turn = state.turn + delay
    res.add("F 12.0", f"{leader_id} requests a medevac: roll {roll}, one UH-1 slick arrives in {delay} turn(s)",
            arithmetic=f"turn {state.turn} + {delay} = {state.medevac_turn}", result=state.medevac_turn, roll=roll)
    res.result = state.medevac_turn
    return state.medevac_turn


#: The counters are absent from the text: our own values for the UH-1 slick that flies the medevac.
MEDEVAC_TEMPLATE = dict(side="US", kind="helicopter", role="slick", tq=5, defense=1, men=4)


@implements("F 12.0", "F 4.0")
def medevac_arrives(state: FteState, res: Resolution, *, where: str | Hex | None = None,
                    altitude: str = "treetop", unit: Unit | None = None) -> Unit:
    """On its arrival turn the medevac enters as a reinforcement on any map edge hex, at Treetop or High
    (F 4.0, F 12.0). Default hex: the first edge hex (by label) with no helicopter."""
    if state.medevac_turn is None or state.medevac_turn != state.turn:
        raise RuleViolation("F 12.0", f"no medevac is due on turn {state.turn}")
    if unit is None:
        unit = Unit(state.new_id("Medevac"), altitude=altitude, **MEDEVAC_TEMPLATE)
    if unit.role != "slick" or unit.player != "US":
        raise RuleViolation("F 12.0", "the medevac is an American UH-1 slick")
    h = _entry_hex(state, where, "F 12.0", altitude)
    helicopter_enters(state, unit, h, altitude, res)
    state.medevac_turn = None
    state.medevac_unit = unit.id
    res.add("F 12.0", f"the medevac {unit.id} arrives in {state.label(h)} at {altitude} level", result=unit.id)
    return unit


def _entry_hex(state: FteState, where, rule: str, altitude: str) -> Hex:
    edges = edge_hexes(state)
    if where is None:
        free = [h for h in edges if not _helicopter_in(state, h)
                and (altitude != "ground" or state.charts.tec.value(state.map.terrain(h), "helicopter_ground") is not None)]
        if not free:
            raise RuleViolation("F 6.2", "no map edge hex is free of helicopters")
        return free[0]
    h = state.hex(where)
    if h not in edges:
        raise RuleViolation(rule, f"{state.label(h)} is not on a map edge")
    if _helicopter_in(state, h):
        raise RuleViolation("F 6.2", f"{state.label(h)} already holds a helicopter")
    return h


def _helicopter_in(state: FteState, h: Hex) -> bool:
    return any(u.kind == "helicopter" for u in state.units_at(h))


@implements("F 4.0", "F 6.8", "F 15.0")
def helicopter_enters(state: FteState, heli: Unit, where: Hex, altitude: str, res: Resolution,
                      passengers: Iterable[Unit] = ()) -> Unit:
    """A helicopter enters the map at Treetop or High (F 4.0, F 6.8), perhaps with infantry aboard. A US slick
    bringing infantry is a reinforcement slick (F 15.0); a hog must leave three turns after it enters."""
    if heli.kind != "helicopter":
        raise RuleViolation("F 6.8", f"{heli.id} is not a helicopter")
    if altitude not in ("treetop", "high"):
        raise RuleViolation("F 4.0", "helicopters enter at Treetop or High level")
    if heli.id not in state.units:
        state.units[heli.id] = heli
    heli.hex, heli.altitude = where, altitude
    heli.entered_turn = state.turn
    passengers = list(passengers)
    load = sum(p.men + load_count(state, p) for p in passengers)
    if load > heli.capacity:
        raise RuleViolation("F 6.9", f"{heli.id} carries at most {heli.capacity} troops, not {load}")
    for p in passengers:
        if p.id not in state.units:
            state.units[p.id] = p
        p.loaded_in, p.hex, p.concealed = heli.id, where, False
    if heli.role == "slick" and heli.player == "US" and passengers:
        heli.brought_reinforcements = True
    if heli.role == "hog":
        heli.leaves_turn = state.turn + 3
        res.add("F 15.0", f"the hog {heli.id} must leave by the end of turn {state.turn + 3}, three turns after "
                          "it entered", result=state.turn + 3)
    res.add("F 4.0", f"{heli.id} enters in {state.label(where)} at {altitude} level"
                     + (f" carrying {', '.join(p.id for p in passengers)}" if passengers else ""))
    return heli


@implements("F 12.0", "F 15.0", "F 19.6")
def departures_due(state: FteState) -> list[str]:
    """Helicopters still on the map whose last turn has come: medevacs after loading, reinforcement slicks after
    unloading, hogs (F 12.0, F 15.0) and the Cobras of the random event (F 19.6), each by its ``leaves_turn``."""
    return [u.id for u in sorted(state.on_map(), key=lambda x: x.id)
            if u.leaves_turn is not None and u.leaves_turn <= state.turn and not u.downed]


@implements("F 12.0", "F 15.0", "F 19.6")
def enforce_departures(state: FteState, res: Resolution) -> list[str]:
    """At the end of a turn, every helicopter that had to be gone by now leaves, taking its load off the map
    (its casualties count as evacuated). Call it from the end of the turn (F 20.0)."""
    gone = departures_due(state)
    for uid in gone:
        u = state.unit(uid)
        rule = "F 19.6" if u.role == "cobra" else "F 12.0" if uid == state.medevac_unit else "F 15.0"
        res.add(rule, f"{uid} had to leave by the end of turn {u.leaves_turn} and leaves the map now", unit=uid)
        leave_map(state, uid, res, edge_check=False)
    if state.cobras_leave is not None and state.cobras_leave <= state.turn:
        state.cobras_leave = None
    return gone


# --------------------------------------------------------------------------- F 13.0 Request Fire Mission

@implements("F 13.0", "F Fire Request Table", "F 19.8")
def request_fire_mission(state: FteState, requester_id: str, target: str | Hex, dice,
                         res: Resolution) -> FireMission | None:
    """A US or NVA leader or forward observer, neither Broken nor Suppressed, asks for fire on a hex in his LoS
    or holding or next to a Visible enemy. d10 on the Fire Request Table: -1 for an FO, +1 for each pending
    mission of his side; a natural 10 is denied and a natural 1 is a BN Mortar mission with no delay; a
    modified roll past 10 is denied. A US request made while the Aerial Observer is up has its delay cut by
    one turn (F 19.8). Returns the scheduled mission, or None if denied (F 13.0)."""
    u = _actor(state, requester_id, "F 13.0", "Request Fire Mission")
    if u.role not in ("leader", "fo") or not u.infantry:
        raise RuleViolation("F 13.0", f"{requester_id}: only leaders and forward observers request fire missions")
    if u.side == "VC" and state.readings.nva_only_fire_requests:
        raise RuleViolation("F 13.0", f"{requester_id} is VC; only American and NVA leaders and FOs may request "
                                      "fire missions (errata)")
    if u.suppressed:
        raise RuleViolation("F 13.0", f"{requester_id} is Suppressed")
    h = state.hex(target)
    check_fire_target(state, u.player, h, "F 13.0", observers=[u])
    clear_searching(u, res)
    pending = [m for m in state.fire_missions if m.side == u.player]
    drms = ([Drm(-1, "F 13.0", "forward observer")] if u.role == "fo" else []) + \
           ([Drm(len(pending), "F 13.0", f"{len(pending)} pending fire mission(s)")] if pending else [])
    roll = roll_die(dice, 10, f"Fire Request Table for {requester_id}")
    mod = sum(d.value for d in drms)
    column = "US" if u.player == "US" else "NVA"
    arith = f"{roll}" + "".join(f" {d.text()}" for d in drms) + (f" = {roll + mod}" if drms else "")
    if roll == 10:
        result = None
        why = "a natural 10 is always denied"
    elif roll == 1:
        result = FireMissionResult("BN Mortar", 0)
        why = "a natural 1 is always a BN Mortar mission with no delay"
    elif roll + mod > 10:
        result, why = None, "a modified roll past 10 is denied"
    else:
        row = roll + mod
        result = state.charts.fire_request.get(column, row).value
        why = f"row {row}"
        if result.denied:
            result = None
    if result is None:
        res.add("F 13.0", f"{requester_id} requests fire on {state.label(h)}: request denied ({why})",
                arithmetic=arith, result=None, roll=roll)
        res.result = None
        return None
    delay = result.delay
    text = f"{result.mission} with a delay of {delay}"
    if u.player == "US" and state.aerial_observer and delay > 0:
        delay -= 1
        text += f", cut to {delay} by the Aerial Observer (F 19.8)"
    mission = FireMission(u.player, result.mission, h, state.turn + delay, requester_id)
    state.fire_missions.append(mission)
    res.add("F 13.0", f"{requester_id} requests fire on {state.label(h)}: {text} ({why}); it executes on turn "
                      f"{mission.turn}", arithmetic=arith, result=mission, roll=roll)
    res.result = mission
    return mission


@implements("F 13.0", "F 19.9")
def check_fire_target(state: FteState, who: str, h: Hex, rule: str, observers: Iterable[Unit]) -> str:
    """A fire mission's target hex must be in an observer's LoS, or hold or touch a Visible enemy unit
    (Civilians markers do not count). Returns the reason it qualifies."""
    if h not in state.map:
        raise RuleViolation(rule, f"{h} is not on the map")
    for o in observers:
        if o.hex is not None and line_of_sight(state, o.hex, h, a_altitude=o.altitude):
            return f"in the LoS of {o.id}"
    for e in sorted(state.on_map(), key=lambda x: x.id):
        if e.player != who and not e.concealed and e.role != "civilians" and (e.hex == h or e.hex.is_adjacent(h)):
            return f"{'holds' if e.hex == h else 'next to'} the Visible enemy {e.id}"
    raise RuleViolation(rule, f"{state.label(h)} is neither in an observer's LoS nor in or next to a hex with a "
                              "Visible enemy unit")


# --------------------------------------------------------------------------- F 14.0 Load, F 15.0 Unload

def _transport(state: FteState, tid: str, rule: str, action: str) -> Unit:
    t = state.unit(tid)
    if t.kind not in ("vehicle", "helicopter") or t.capacity == 0:
        raise RuleViolation(rule, f"{tid} cannot transport troops")
    if not t.on_map:
        raise RuleViolation(rule, f"{tid} is not on the map")
    if t.kind == "helicopter" and t.altitude != "ground":
        raise RuleViolation(rule, f"{tid} is at {t.altitude} level; a helicopter must be at ground level to "
                                  f"{action.lower()}")
    if t.broken:
        raise RuleViolation("F 7.4", f"{tid} is Broken: it may only " +
                            ("move to leave the map" if t.kind == "helicopter" else "Recover or Move"))
    if t.move_only and not (action == "Load" and state.readings.unload_slick_may_load_casualties):
        raise RuleViolation("F 15.0", f"{tid} unloaded reinforcements: it may only move")
    return t


@implements("F 14.0", "F 6.9", "F 12.0", "F 15.0")
def load(state: FteState, transport_id: str, res: Resolution, *, units: Iterable[str] = (),
         markers: Iterable[str] = (), dice=None, opfire: OpFire | None = None, opfire_when: str = "after") -> dict:
    """Load friendly infantry units and casualty markers in the transport's hex (F 14.0).

    A helicopter must be at ground level. Markers are loaded only while a friendly infantry unit is in the hex
    (they never load themselves); an infantry unit brings the markers it carries. Capacity: 7 troops for a slick,
    8 for a vehicle, each marker one troop (F 6.9). A medevac takes KIA, WIA and Injury markers only, from one
    hex, and must leave the turn after it loads (F 12.0). A slick that unloaded reinforcements may not load,
    except WIA/KIA markers under the errata (F 15.0). Opportunity Fire may come before the load (at the
    transport and the loading units) or after it (at the transport).
    """
    t = _transport(state, transport_id, "F 14.0", "Load")
    if t.downed:
        raise RuleViolation("F 7.4", f"{transport_id} is downed: it may only unload")
    units, markers = list(units), list(markers)
    if not units and not markers:
        raise RuleViolation("F 14.0", "nothing to load")
    if t.move_only and units:
        raise RuleViolation("F 15.0", f"{transport_id} unloaded reinforcements: it may load only WIA/KIA markers")
    medevac = transport_id == state.medevac_unit
    if medevac:
        if units:
            raise RuleViolation("F 12.0", "only KIA and WIA markers may be loaded onto a medevac")
        lf = t.loaded_from
        if lf is not None and lf != t.hex:
            raise RuleViolation("F 12.0", f"the medevac loaded in {state.label(lf)}; it loads from a single hex")
    if opfire_when not in ("before", "after"):
        raise DataError("load", "opfire_when", "must be 'before' or 'after'")
    _check_load(state, t, units, markers)
    if opfire is not None and opfire_when == "before":
        opfire(state, [transport_id] + units, t.hex, dice, res)
        if not t.on_map or t.destroyed or t.broken or t.downed or t.kind == "helicopter" and t.altitude != "ground":
            res.add("F 14.0", f"{transport_id} can no longer load after the Opportunity Fire")
            res.result = {"units": [], "markers": []}
            return res.result
        units = [x for x in units if x in state.units and state.units[x].on_map and state.units[x].hex == t.hex]
        markers = [x for x in markers if x in state.casualties and marker_hex(state, state.casualties[x]) == t.hex]
        _check_load(state, t, units, markers)
    for uid in units:
        u = state.unit(uid)
        leave_hex(state, u)
        u.loaded_in = t.id
        strip_on_load(state, u, res)
        res.add("F 14.0", f"{uid} ({u.men} men{f', carrying {len(u.carrying)}' if u.carrying else ''}) "
                          f"loads into {transport_id}")
    for mid in markers:
        m = marker(state, mid)
        if m.carried_by in units:
            continue                       # it travels with its carrier
        attach(state, m, t)
        res.add("F 14.0", f"the {m.kind} marker {mid} is loaded into {transport_id}")
    res.add("F 6.9", f"{transport_id} now holds {troops_aboard(state, t)} of {t.capacity} troops",
            result=troops_aboard(state, t))
    if medevac and t.loaded_from is None:
        t.loaded_from = t.hex
        t.leaves_turn = state.turn + 1
        res.add("F 12.0", f"the medevac has loaded: it must leave the map on turn {state.turn + 1}",
                result=state.turn + 1)
    if opfire is not None and opfire_when == "after":
        opfire(state, [transport_id], t.hex, dice, res)
    res.result = {"units": units, "markers": markers}
    return res.result


def _check_load(state: FteState, t: Unit, units: list[str], markers: list[str]) -> None:
    for uid in units:
        u = state.unit(uid)
        if not u.infantry or u.role in ("civilians", "dummy"):
            raise RuleViolation("F 14.0", f"{uid} is not an infantry unit that can be loaded")
        if u.player != t.player:
            raise RuleViolation("F 14.0", f"{uid} is an enemy unit")
        if not u.on_map or u.hex != t.hex:
            raise RuleViolation("F 14.0", f"{uid} is not in {t.id}'s hex")
    infantry_here = [u for u in state.units_at(t.hex, t.player) if u.infantry and u.role not in ("civilians", "dummy")]
    extra = 0
    for mid in markers:
        m = marker(state, mid)
        if m.player != t.player:
            raise RuleViolation("F 14.0", f"{mid} is an enemy casualty; it is captured or removed, not loaded")
        if m.carried_by == t.id:
            raise RuleViolation("F 14.0", f"{mid} is already aboard {t.id}")
        if marker_hex(state, m) != t.hex or (m.carried_by is not None and not state.unit(m.carried_by).on_map):
            raise RuleViolation("F 14.0", f"{mid} is not in {t.id}'s hex")
        if not infantry_here:
            raise RuleViolation("F 14.0", f"{mid} cannot load itself: no friendly infantry unit is in the hex")
        if m.carried_by not in units:
            extra += 1
    need = sum(state.unit(x).men + load_count(state, state.unit(x)) for x in units) + extra
    have = troops_aboard(state, t)
    if have + need > t.capacity:
        raise RuleViolation("F 6.9", f"{t.id} holds {have} troops and may take {t.capacity}; loading {need} more "
                                     "would exceed its capacity")


@implements("F 15.0", "F 6.9", "F 7.4", "F Clarifications")
def unload(state: FteState, transport_id: str, res: Resolution, *, units: Iterable[str] | None = None,
           markers: Iterable[str] | None = None, carry: dict[str, str] | None = None, auto_carry: bool = True,
           dice=None, opfire: OpFire | None = None, opfire_when: str = "after") -> dict:
    """Unload passengers and loaded markers into the transport's hex (F 15.0); by default everything aboard.

    A helicopter must be at ground level; a downed one may still unload, and once empty it is left as a wreck
    (F 7.4). Unloaded infantry count as activated this turn. Loaded markers may go straight to an unloading
    unit (errata clarification): ``carry`` maps a marker to its new carrier; with ``auto_carry`` the others go
    to the first unloaded units with room, the rest lie in the hex. A US slick that brought reinforcements may
    afterwards only move and must leave the next turn (F 15.0). Opportunity Fire may come before the unload
    (at the transport) or after it (at the transport and the unloaded units).
    """
    t = _transport(state, transport_id, "F 15.0", "Unload")
    aboard = sorted(u.id for u in state.units.values() if u.loaded_in == transport_id)
    units = aboard if units is None else list(units)
    markers = list(t.carrying) if markers is None else list(markers)
    for uid in units:
        if uid not in aboard:
            raise RuleViolation("F 15.0", f"{uid} is not aboard {transport_id}")
    for mid in markers:
        if marker(state, mid).carried_by != transport_id:
            raise RuleViolation("F 15.0", f"{mid} is not aboard {transport_id}")
    if not units and not markers:
        raise RuleViolation("F 15.0", f"{transport_id} has nothing to unload")
    if opfire_when not in ("before", "after"):
        raise DataError("unload", "opfire_when", "must be 'before' or 'after'")
    if opfire is not None and opfire_when == "before":
        opfire(state, [transport_id], t.hex, dice, res)
        if not t.on_map or t.destroyed:
            res.add("F 15.0", f"{transport_id} is gone before it could unload")
            res.result = {"units": [], "markers": []}
            return res.result
    for uid in units:
        u = state.unit(uid)
        u.loaded_in, u.hex, u.activated = None, t.hex, True
        res.add("F 15.0", f"{uid} unloads in {state.label(t.hex)} and counts as activated this turn")
    carry = dict(carry or {})
    for mid, who in carry.items():
        if mid not in markers or who not in units:
            raise RuleViolation("F 15.0", f"{mid} can only be handed to a unit unloading with it")
    for mid in markers:
        m = marker(state, mid)
        who = carry.get(mid)
        if who is None and auto_carry:
            who = next((x for x in units if state.unit(x).infantry and state.unit(x).player == m.player
                        and load_count(state, state.unit(x)) < state.unit(x).carry_limit), None)
        if who is not None:
            cu = state.unit(who)
            if load_count(state, cu) + 1 > cu.carry_limit:
                raise RuleViolation("F 7.5.2", f"{who} cannot carry another marker")
            attach(state, m, cu)
            res.add("F Clarifications", f"the {m.kind} marker {mid} comes off {transport_id} carried by {who}")
        else:
            detach(state, m)
            m.hex = t.hex
            res.add("F 15.0", f"the {m.kind} marker {mid} is unloaded into {state.label(t.hex)}")
    if t.role == "slick" and t.player == "US" and t.brought_reinforcements and units:
        t.brought_reinforcements = False
        t.move_only = True
        t.leaves_turn = state.turn + 1
        res.add("F 15.0", f"{transport_id} unloaded reinforcements: it may now only move, and must leave the map "
                          f"on turn {state.turn + 1}", result=state.turn + 1)
    if t.downed and troops_aboard(state, t) == 0:
        t.destroyed = True
        res.add("F 7.4", f"the downed {transport_id} is empty and is left as a wreck")
    if opfire is not None and opfire_when == "after":
        opfire(state, [transport_id] + [u for u in units if state.units[u].on_map], t.hex, dice, res)
    res.result = {"units": units, "markers": markers}
    return res.result


__all__ = ["search", "recover", "destroy_cache", "request_medevac", "medevac_arrives", "helicopter_enters",
           "departures_due", "enforce_departures", "request_fire_mission", "check_fire_target", "load", "unload",
           "troops_aboard", "edge_hexes", "clear_searching", "low_ammo_source"]
