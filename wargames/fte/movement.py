"""The Move action (F 6.1-6.10): movement points, stacking, double time, stealth, helicopters, transport.

A unit, or a stack of units moving together, walks hex by adjacent hex and pays the Terrain Effects Chart's
cost for its movement class on entering each hex (:func:`wargames.fte.terrain.move_cost`); costs are exact
fractions, since rice paddies cost infantry 1½. A hex it cannot pay for in full is out of reach. Each hex
entered is checked against the stacking limits, may strip a concealed mover of its concealment, and gives
the enemy a chance at opportunity fire (an injected callback; F 21.0 lives in the fire module).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from heapq import heappop, heappush
from typing import Callable, Iterable, Sequence

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .casualties import leave_map
from .concealment import lose_concealment_if_seen, uncover
from .checks import Drm, tq_check
from .state import FteState
from .placement import entry_problem, map_edge, place_unit
from .terrain import is_slope, move_cost
from .traps import arrive
from .units import Unit

INFANTRY_MP = 5
DOUBLE_TIME_MP = 9
VEHICLE_MP = 15
HELICOPTER_AIR_MP = 20
HELICOPTER_GROUND_MP = 2
EXIT_COST = 1
ALTITUDES = ("ground", "treetop", "high")

#: Opportunity fire at movers entering a hex: ``opfire(state, mover_ids, hex, dice, res) -> stopped``.
#: ``stopped`` is True when the fire ended the movers' activation (the move stops there), or a collection of
#: the unit ids it stopped (the rest of the stack goes on). With Stealthy movement it is called with the
#: keyword ``stealthy=True`` as well (F 6.7: +1 to the fire).
OpFire = Callable[..., object]


# --------------------------------------------------------------------------- allowances and costs

def move_class(u: Unit, altitude: str | None = None) -> str:
    """The Terrain Effects Chart column a unit pays: infantry, vehicle, or helicopter in the air or on the
    ground (F 6.1, F 6.8)."""
    if u.kind == "helicopter":
        return "helicopter_ground" if (altitude or u.altitude) == "ground" else "helicopter_air"
    return u.kind


@implements("F 6.3", "F 6.6", "F 7.5.2", "F 19.1")
def allowance(state: FteState, u: Unit, *, double_time: bool = False, altitude: str | None = None,
              dropped: Iterable[str] = ()) -> tuple[Fraction, list[str]]:
    """A unit's movement points for one Move and the reasons: infantry 5 (9 at Double Time), less 1 for each
    KIA/WIA it carries (F 7.5.2) and 1 for an Injury (F 19.1); vehicles 15; helicopters 20 in the air and
    2 on the ground (F 6.3, F 6.8). Markers in ``dropped`` are left before the unit sets off and cost nothing.
    """
    if u.kind == "vehicle":
        return Fraction(VEHICLE_MP), [f"vehicle {VEHICLE_MP}"]
    if u.kind == "helicopter":
        alt = altitude or u.altitude
        mp = HELICOPTER_GROUND_MP if alt == "ground" else HELICOPTER_AIR_MP
        return Fraction(mp), [f"helicopter at {alt} level {mp}"]
    if double_time:
        if u.exhausted:
            raise RuleViolation("F 6.6", f"{u.id} is Exhausted and may not use Double Time")
        if u.injury and not state.readings.injury_allows_double_time:
            raise RuleViolation("F 19.1", f"{u.id} has an Injury marker and may not use Double Time "
                                          "(original F 19.1; the revision deletes this restriction)")
    mp = Fraction(DOUBLE_TIME_MP if double_time else INFANTRY_MP)
    why = [f"{'Double Time' if double_time else 'infantry'} {mp}"]
    carried = [c for c in u.carrying if c not in set(dropped)]
    if carried:
        mp -= len(carried)
        why.append(f"-{len(carried)} for carrying {', '.join(carried)} (F 7.5.2)")
    if u.injury:
        mp -= 1
        why.append("-1 for the Injury marker (F 19.1)")
    return max(mp, Fraction(0)), why


def cost_text(state: FteState, a: Hex, b: Hex, cls: str) -> str:
    """How the cost of a step adds up, in words: the terrain (or the trail or road used) plus any slope."""
    m, tec = state.map, state.charts.tec
    base = f"{m.terrain(b).replace('_', ' ')} {_mp(tec.value(m.terrain(b), cls))}"
    for way in ("road", "trail"):
        if m.has(a, way) and m.has(b, way):
            if way == "trail" and cls == "vehicle" and "jungle" in (m.terrain(a), m.terrain(b)):
                base += " (no trail through jungle for vehicles)"
                continue
            base = f"{way} {_mp(tec.feature(way, cls))} instead of {base}"
            break
    if is_slope(m, a, b) and tec.feature("slope", cls):
        base += f" + slope {_mp(tec.feature('slope', cls))}"
    return base


def _mp(x) -> str:
    if x is None:
        return "P"
    x = Fraction(x)
    if x.denominator == 1:
        return str(x.numerator)
    whole = x.numerator // x.denominator
    return f"{whole}½" if x - whole == Fraction(1, 2) and whole else str(x)


# --------------------------------------------------------------------------- stacking and entry

# --------------------------------------------------------------------------- transport

@implements("F 6.9", "F 7.5.2")
def troops_aboard(state: FteState, carrier: Unit | str) -> int:
    """Troops a vehicle or helicopter carries (F 6.9): the figures of each loaded unit, plus 1 for each KIA,
    WIA or Injury marker aboard (loaded itself or carried by a loaded unit) and 1 for a loaded unit's own
    Injury marker."""
    c = state.unit(carrier) if isinstance(carrier, str) else carrier
    loaded = [u for u in state.units.values() if u.loaded_in == c.id]
    markers = {m.id for m in state.casualties.values() if m.carried_by == c.id}
    for u in loaded:
        markers |= set(u.carrying)
    return sum(u.men for u in loaded) + len(markers) + sum(1 for u in loaded if u.injury)


def check_capacity(state: FteState, carrier: Unit | str, extra: int = 0) -> None:
    """Raise if ``extra`` more troops would overload the carrier (a slick 7, a vehicle 8; F 6.9)."""
    c = state.unit(carrier) if isinstance(carrier, str) else carrier
    if c.capacity == 0:
        raise RuleViolation("F 6.9", f"{c.id} cannot transport troops")
    total = troops_aboard(state, c) + extra
    if total > c.capacity:
        raise RuleViolation("F 6.9", f"{c.id} would carry {total} troops; it takes {c.capacity}")


# --------------------------------------------------------------------------- moving

def _hexes(state: FteState, path) -> list[Hex]:
    out = []
    for p in path:
        if isinstance(p, Hex):
            out.append(p)
        else:
            out.append(state.map.layout.parse(str(p), source="move path"))
    return out


def _lab(state: FteState, h: Hex) -> str:
    try:
        return state.label(h)
    except ValueError:
        return str(h)


@implements("F 6.1")
def concealment_on_entry(state: FteState, movers: Sequence[Unit], h: Hex, res: Resolution) -> list[str]:
    """A concealed mover that has just entered h loses its concealment if a Visible enemy unit (not Civilians)
    sees it there (F 6.1; the test itself is :func:`wargames.fte.concealment.lose_concealment_if_seen`,
    F 18.1). A dummy that loses it is removed (F 22.0). Returns the ids that lost it."""
    lost = []
    for u in movers:
        if u.concealed and lose_concealment_if_seen(state, u, res, "F 6.1", "move"):
            lost.append(u.id)
    return lost


@dataclass
class MovePlan:
    """A Move checked from start to finish before anything changes (F 6.1-6.9), and how far it has got.

    :func:`plan_move` builds it; :func:`advance_move` walks it hex by hex and stops at every point where the
    enemy may take opportunity fire (the hex entered, a hover, a change of altitude), returning that hex;
    :func:`movers_stopped` takes the units whose activation the fire ended out of the move; :func:`finish_move`
    ends it. Everything in it is plain data (unit ids, hexes, fractions), so a suspended move can be copied.
    """

    ids: list[str]
    start: Hex
    hexes: list[Hex]
    costs: list[Fraction]
    budget: Fraction
    allowances: dict[str, Fraction]
    reasons: dict[str, list[str]]
    cls: str
    kind: str
    double_time: bool = False
    stealthy: bool = False
    drop: dict[str, Hex] = field(default_factory=dict)
    carriers: dict[str, str] = field(default_factory=dict)      # marker id -> the mover carrying it
    altitude_start: str | None = None
    altitude_end: str | None = None
    exit_map: bool = False
    # progress
    stage: str = "start"            # start, walk, hover, altitude_end, exit, done
    index: int = 0                  # hexes of the path entered so far
    spent: Fraction = Fraction(0)
    active: list[str] = field(default_factory=list)
    entered: list[Hex] = field(default_factory=list)
    lost: list[str] = field(default_factory=list)
    stopped: bool = False
    exited: bool = False

    @property
    def here(self) -> Hex:
        return self.entered[-1] if self.entered else self.start

    def copy(self) -> "MovePlan":
        return replace(self, hexes=list(self.hexes), costs=list(self.costs), allowances=dict(self.allowances),
                       reasons={k: list(v) for k, v in self.reasons.items()}, drop=dict(self.drop),
                       carriers=dict(self.carriers), active=list(self.active), entered=list(self.entered),
                       lost=list(self.lost))


@implements("F 6.1", "F 6.4", "F 6.5", "F 6.6", "F 6.7", "F 6.8", "F 6.9")
def plan_move(state: FteState, unit_ids: str | Sequence[str], path: Sequence[str | Hex], *,
              double_time: bool = False, stealthy: bool = False, drop: dict[str, str | Hex] | None = None,
              altitude_start: str | None = None, altitude_end: str | None = None, exit_map: bool = False,
              scenario_exit: bool = False, stay: bool = False) -> MovePlan:
    """Check a whole Move before anything changes (raises RuleViolation) and return its plan.

    Every mover pays each hex's cost for its class and must have the MP left to enter it (F 6.4, F 6.5);
    the movers form one stack of one class; Double Time and Stealthy movement are for infantry (F 6.6,
    F 6.7); a helicopter changes altitude by one level, once (F 6.8); dropped markers must be carried by a
    mover and left in a hex of the move (F 7.5.2); leaving the map is checked against F 6.1 and F 7.5.3.
    """
    ids = [unit_ids] if isinstance(unit_ids, str) else list(dict.fromkeys(unit_ids))
    if not ids:
        raise RuleViolation("F 6.1", "name at least one unit to move")
    movers = [state.unit(i) for i in ids]
    first = movers[0]
    start = first.hex
    for u in movers:
        if u.loaded_in is not None:
            raise RuleViolation("F 6.9", f"{u.id} is loaded in {u.loaded_in}: it moves only with its carrier")
        if not u.on_map or u.destroyed:
            raise RuleViolation("F 6.1", f"{u.id} is not on the map")
        if u.hex != start:
            raise RuleViolation("F 6.1", f"a stack moves together from one hex: {u.id} is in {state.label(u.hex)}, "
                                         f"{first.id} in {state.label(start)}")
        if u.player != first.player:
            raise RuleViolation("F 6.1", "units of both players cannot move as one stack")
        if u.kind == "vehicle" and u.immobilized:
            raise RuleViolation("F 6.10", f"{u.id} is immobilized: its only move is to be abandoned (abandon())")
        if u.kind == "helicopter" and (u.downed or u.destroyed):
            raise RuleViolation("F 7.4", f"{u.id} is {'downed' if u.downed else 'destroyed'} and cannot fly")
        if u.kind == "helicopter" and u.broken and not exit_map:
            raise RuleViolation("F 7.4", f"{u.id} is broken: its only Move is to fly off the map")
    kinds = {u.kind for u in movers}
    if len(kinds) > 1:
        raise RuleViolation("F 5.1", "infantry, vehicles and helicopters are activated separately, so they cannot "
                                     "move as one stack")
    kind = first.kind
    if kind == "helicopter" and len(movers) > 1:
        raise RuleViolation("F 6.2", "a hex holds one helicopter, so helicopters never move as a stack")
    if (double_time or stealthy) and kind != "infantry":
        raise RuleViolation("F 6.3", "only infantry may use Double Time or Stealthy movement")
    if double_time and stealthy:
        raise RuleViolation("F 6.7", "a unit moves either at Double Time or stealthily, not both")
    if (altitude_start or altitude_end) and kind != "helicopter":
        raise RuleViolation("F 6.8", "only helicopters change altitude")
    if altitude_start and altitude_end:
        raise RuleViolation("F 6.8", "a helicopter changes altitude once in a Move: at its start or at its end")
    hexes = _hexes(state, path)
    if not hexes and kind != "helicopter" and not exit_map and not drop and not stay:
        raise RuleViolation("F 6.4", "the path enters no hex")
    if stealthy and (len(hexes) != 1 or exit_map):
        raise RuleViolation("F 6.7", f"stealthy movement enters exactly one hex, not {len(hexes)}")
    drop = {cid: (h if isinstance(h, Hex) else _hexes(state, [h])[0]) for cid, h in (drop or {}).items()}
    carriers = {cid: u for u in movers for cid in u.carrying}
    for cid, h in drop.items():
        if cid not in carriers:
            raise RuleViolation("F 7.5.2", f"no moving unit carries the marker {cid!r}")
        if h != start and h not in hexes:
            raise RuleViolation("F 7.5.2", f"{cid} can only be dropped in a hex of the move, not {_lab(state, h)}")
    altitude = first.altitude
    if altitude_start:
        _check_altitude(state, first, altitude, altitude_start, start)
        altitude = altitude_start
    cls = move_class(first, altitude)
    allowances, reasons = {}, {}
    for u in movers:
        early = [cid for cid, h in drop.items() if h == start and cid in u.carrying]
        allowances[u.id], reasons[u.id] = allowance(state, u, double_time=double_time, altitude=altitude,
                                                    dropped=early)
    budget = min(allowances.values())
    costs: list[Fraction] = []
    here, total = start, Fraction(0)
    for nxt in hexes:
        if nxt == here:
            raise RuleViolation("F 6.4", f"the path repeats {state.label(here)}: list only the hexes entered")
        if not here.is_adjacent(nxt):
            raise RuleViolation("F 6.4", f"{_lab(state, nxt)} is not adjacent to {state.label(here)}")
        if nxt not in state.map:
            raise RuleViolation("F 1.2", f"{_lab(state, nxt)} has no dot: it cannot be entered")
        cost = move_cost(state.map, here, nxt, cls, state.charts)
        if cost is None:
            raise RuleViolation("F 6.5", f"{state.label(nxt)} ({cost_text(state, here, nxt, cls)}) is prohibited to "
                                         f"{cls.replace('_', ' ')} movement")
        if total + cost > budget:
            raise RuleViolation("F 6.4", f"entering {state.label(nxt)} costs {_mp(cost)} MP "
                                         f"({cost_text(state, here, nxt, cls)}) but only {_mp(budget - total)} of "
                                         f"{_mp(budget)} MP are left")
        rule, why = entry_problem(state, movers, nxt)
        if rule:
            raise RuleViolation(rule, why)
        costs.append(cost)
        total += cost
        here = nxt
    if altitude_end:
        _check_altitude(state, first, altitude, altitude_end, here)
    if kind == "helicopter" and (altitude_end or altitude) == "ground" and state.charts.tec.value(
            state.map.terrain(here), "helicopter_ground") is None:
        raise RuleViolation("F 6.8", f"{first.id} cannot be at ground level in {state.map.terrain(here)} "
                                     f"({state.label(here)})")
    if exit_map:
        if total + EXIT_COST > budget:
            raise RuleViolation("F 6.4", f"leaving the map costs {EXIT_COST} MP but only {_mp(budget - total)} are left")
        _check_exit(state, movers, here, scenario_exit)
    return MovePlan(ids, start, hexes, costs, budget, allowances, reasons, cls, kind, double_time, stealthy, drop,
                    {cid: u.id for cid, u in carriers.items()}, altitude_start, altitude_end, exit_map,
                    active=list(ids))


def _dropping(state: FteState, plan: MovePlan, at: Hex, res: Resolution) -> None:
    for cid, h in plan.drop.items():
        if h == at:
            u = state.unit(plan.carriers[cid])
            if u.id in plan.active and cid in u.carrying:
                u.carrying.remove(cid)
                m = state.casualties[cid]
                m.carried_by, m.hex = None, at
                res.add("F 7.5.2", f"{u.id} drops {cid} in {state.label(at)}", unit=u.id, marker=cid)


def _still_moving(state: FteState, plan: MovePlan, at: Hex) -> None:
    plan.active = [uid for uid in plan.active if state.unit(uid).on_map and state.unit(uid).hex == at]


@implements("F 6.1", "F 6.5", "F 6.7", "F 6.8")
def advance_move(state: FteState, plan: MovePlan, dice, res: Resolution) -> Hex | None:
    """Carry the move on to its next opportunity-fire point and return that hex (None once the move is over).

    Entering a hex: a stealthy mover's TQ check first (F 6.7), the cost, the loss of concealment in a Visible
    enemy's sight (F 6.1), casualty markers met there (F 7.5.3, F 17.1) and booby traps (F 26.0); then the
    enemy may fire. A hover or a change of altitude is a fire point as well (F 5.0, F 6.8 and the errata).
    """
    first = state.unit(plan.ids[0])
    if plan.stage == "start":
        res.add("F 6.1", f"{', '.join(plan.ids)} {'move' if len(plan.ids) > 1 else 'moves'} from "
                         f"{state.label(plan.start)}"
                         + (" at Double Time" if plan.double_time else " stealthily" if plan.stealthy else ""),
                units=plan.ids, start=state.label(plan.start))
        for uid in plan.ids:
            res.add("F 6.3", f"{uid} has {_mp(plan.allowances[uid])} MP", arithmetic=" ".join(plan.reasons[uid]),
                    result=plan.allowances[uid], unit=uid)
        plan.stage = "walk"
        if plan.altitude_start:
            res.add("F 6.8", f"{first.id} changes altitude from {first.altitude} to {plan.altitude_start} at the "
                             "start of its Move", result=plan.altitude_start)
            first.altitude = plan.altitude_start
            return plan.start
        _dropping(state, plan, plan.start, res)
    if plan.stage == "walk":
        if plan.index == 0 and plan.altitude_start and not plan.stopped:
            _dropping(state, plan, plan.start, res)
        if plan.entered and not plan.stopped:
            _dropping(state, plan, plan.here, res)       # after the fire at the hex, as the unit goes on
        if plan.stopped or plan.index >= len(plan.hexes):
            plan.stage = "hover"
        else:
            here, nxt, cost = plan.here, plan.hexes[plan.index], plan.costs[plan.index]
            movers = [state.unit(uid) for uid in plan.active]
            if plan.stealthy:
                _stealthy_check(state, movers, nxt, dice, res)
                movers = [u for u in movers if u.hex is not None]
            plan.spent += cost
            for u in movers:
                place_unit(state, u, nxt)
            plan.entered.append(nxt)
            plan.index += 1
            res.add("F 6.5", f"enters {state.label(nxt)} for {_mp(cost)} MP ({cost_text(state, here, nxt, plan.cls)})",
                    arithmetic=f"{_mp(plan.spent - cost)} + {_mp(cost)} = {_mp(plan.spent)} of {_mp(plan.budget)}",
                    result=plan.spent, hex=state.label(nxt), cost=cost)
            if not plan.stealthy:
                plan.lost += concealment_on_entry(state, [u for u in movers if u.on_map], nxt, res)
            arrive(state, nxt, [u.id for u in movers], dice, res)       # F 7.5.3, F 17.1, F 26.0
            _still_moving(state, plan, nxt)
            if not plan.active:
                plan.stopped = True
                plan.stage = "hover"
            else:
                return nxt
    if plan.stage == "hover":
        plan.stage = "altitude_end"
        if plan.kind == "helicopter" and not plan.hexes and not plan.stopped and not plan.altitude_start:
            res.add("F 6.8", f"{first.id} hovers in {state.label(plan.start)}; it is still open to opportunity fire")
            return plan.start
    if plan.stage == "altitude_end":
        plan.stage = "exit"
        if plan.altitude_end and not plan.stopped:
            first.altitude = plan.altitude_end
            res.add("F 6.8", f"{first.id} changes altitude to {plan.altitude_end} at the end of its Move",
                    result=plan.altitude_end)
            return plan.here
    if plan.stage == "exit":
        plan.stage = "done"
        if plan.exit_map and not plan.stopped and plan.active:
            plan.spent += EXIT_COST
            res.add("F 6.5", f"leaves the map from {state.label(plan.here)} for {EXIT_COST} MP",
                    arithmetic=f"{_mp(plan.spent - EXIT_COST)} + {EXIT_COST} = {_mp(plan.spent)} of "
                               f"{_mp(plan.budget)}", result=plan.spent)
            _leave_map(state, [state.unit(uid) for uid in plan.active], res)
            plan.exited = True
    return None


def movers_stopped(state: FteState, plan: MovePlan, at: Hex, stopped: Iterable[str] | bool, res: Resolution) -> None:
    """After opportunity fire at ``at``: the units whose activation it ended (True: all of them) and those no
    longer in the hex leave the move; if none is left, the move ends there (F 7.4, F 21.0)."""
    if stopped is True:
        plan.active = []
    else:
        gone = set(stopped or ())
        plan.active = [uid for uid in plan.active if uid not in gone]
    _still_moving(state, plan, at)
    if not plan.active and not plan.stopped:
        plan.stopped = True
        res.add("F 21.0", f"opportunity fire ends the move in {state.label(at)}", hex=state.label(at))


@implements("F 6.6")
def finish_move(state: FteState, plan: MovePlan, res: Resolution) -> dict:
    """End the move: Double Time leaves an Exhausted marker on every mover still on the map (F 6.6)."""
    if plan.double_time:
        for uid in plan.ids:
            u = state.unit(uid)
            if u.on_map:
                u.exhausted = True
                res.add("F 6.6", f"{u.id} gets an Exhausted marker for its Double Time (its activation ends with "
                                 "this move)", unit=u.id)
    res.result = {"path": [state.label(h) for h in plan.entered], "spent": plan.spent, "allowance": plan.budget,
                  "stopped": plan.stopped, "exited": plan.exited, "concealment_lost": plan.lost}
    return res.result


def move(state: FteState, unit_ids: str | Sequence[str], path: Sequence[str | Hex], dice, res: Resolution, *,
         double_time: bool = False, stealthy: bool = False, opfire: OpFire | None = None,
         drop: dict[str, str | Hex] | None = None, altitude_start: str | None = None,
         altitude_end: str | None = None, exit_map: bool = False, scenario_exit: bool = False) -> Resolution:
    """Move a unit, or a stack of units together, along ``path`` (the hexes entered, in order): the plan of
    :func:`plan_move`, walked by :func:`advance_move` to its end.

    - ``double_time``: infantry get 9 MP and an Exhausted marker when the move ends (F 6.6).
    - ``stealthy``: infantry move one hex; a concealed mover first takes a TQ check modified by the
      destination's concealment modifier and keeps its concealment only if it passes (F 6.7).
    - ``opfire`` is called at every fire point (each hex entered, a hover, a change of altitude); the game
      itself stops there and prompts the enemy instead (:mod:`wargames.fte.game`).
    - ``drop`` maps a carried KIA/WIA marker to the hex (start or on the path) where it is left (F 7.5.2).
    - Helicopters: ``altitude_start`` or ``altitude_end`` changes the level by one, once in the Move
      (F 6.8); an empty path is a hover.
    - ``exit_map`` steps off the map from the last hex for 1 MP (F 6.5), allowed only to evacuate
      casualties (F 7.5.3) or when ``scenario_exit`` says the scenario allows it (F 6.1).

    ``res.result`` becomes a dict: ``path`` (labels entered), ``spent``, ``allowance``, ``stopped`` (opfire
    ended the move), ``exited``, ``concealment_lost``.
    """
    plan = plan_move(state, unit_ids, path, double_time=double_time, stealthy=stealthy, drop=drop,
                     altitude_start=altitude_start, altitude_end=altitude_end, exit_map=exit_map,
                     scenario_exit=scenario_exit)
    while True:
        at = advance_move(state, plan, dice, res)
        if at is None:
            break
        if opfire is not None:
            kw = {"stealthy": True} if stealthy else {}
            movers_stopped(state, plan, at, opfire(state, list(plan.active), at, dice, res, **kw), res)
    finish_move(state, plan, res)
    return res


def _check_altitude(state: FteState, heli: Unit, old: str, new: str, at: Hex) -> None:
    if new not in ALTITUDES:
        raise RuleViolation("F 6.8", f"{new!r} is not an altitude; expected one of {ALTITUDES}")
    if abs(ALTITUDES.index(new) - ALTITUDES.index(old)) != 1:
        raise RuleViolation("F 6.8", f"{heli.id} changes altitude one level at a time: {old} cannot become {new}")
    if new == "ground" and state.charts.tec.value(state.map.terrain(at), "helicopter_ground") is None:
        raise RuleViolation("F 6.8", f"{heli.id} cannot be at ground level in {state.map.terrain(at)} "
                                     f"({state.label(at)})")


@implements("F 6.7")
def _stealthy_check(state: FteState, movers: Sequence[Unit], to: Hex, dice, res: Resolution) -> None:
    """Each concealed stealthy mover checks TQ with the destination's concealment modifier: a pass keeps its
    concealment, a failure loses it; it moves in either way (F 6.7). A dummy that fails is removed (F 22.0)."""
    terrain = state.map.terrain(to)
    mod = state.charts.tec.value(terrain, "concealment")
    for u in movers:
        if not u.concealed:
            res.add("F 6.7", f"{u.id} is not concealed, so it takes no check for its stealthy move", unit=u.id)
            continue
        extra = [Drm(mod, "F 6.7", f"concealment modifier of {terrain.replace('_', ' ')} in {state.label(to)}")] \
            if mod else []
        ok = tq_check(state, u, dice, res, "F 6.7", f"stealthy movement into {state.label(to)}", extra)
        if not ok:
            uncover(state, u, res, "F 6.7", f"its stealthy check failed; it still moves into {state.label(to)}")
        else:
            res.add("F 6.7", f"{u.id} keeps its concealment", unit=u.id)


def _markers_with(state: FteState, movers: Sequence[Unit]) -> list:
    ids = {u.id for u in movers}
    loaded = [v for v in state.units.values() if v.loaded_in in ids]
    out = {}
    for u in list(movers) + loaded:
        for cid in u.carrying:
            if cid in state.casualties:
                out[cid] = state.casualties[cid]
    for m in state.casualties.values():
        if m.carried_by in ids:
            out[m.id] = m
    return list(out.values())


@implements("F 6.1")
def _check_exit(state: FteState, movers: Sequence[Unit], at: Hex, scenario_exit: bool) -> None:
    """Leaving the map: from an edge hex, and only to evacuate KIA/WIA or where the scenario allows (F 6.1).
    NVA/VC infantry carry casualties off any edge; US infantry only if the scenario allows; vehicles and
    helicopters transport them off (F 7.5.3). A broken helicopter flies off (F 7.4), and so may one the rules
    send away: a slick or hog with a departure turn (F 12.0, F 15.0) and the Cobras (F 19.6)."""
    if not map_edge(state, at):
        raise RuleViolation("F 6.1", f"{state.label(at)} is not on the map edge")
    if scenario_exit:
        return
    kind = movers[0].kind
    with_markers = bool(_markers_with(state, movers)) or any(
        v.injury for v in state.units.values() if v.loaded_in in {u.id for u in movers})
    if kind == "infantry":
        carrying = all(u.carrying or u.injury for u in movers)
        if not carrying:
            raise RuleViolation("F 6.1", "infantry leave the map only to carry KIA/WIA off (or when the scenario "
                                         "allows)")
        if movers[0].player == "US" and not state.us_may_carry_off:
            raise RuleViolation("F 7.5.3", "American infantry may carry casualties off only when the scenario says so; "
                                           "otherwise they go by vehicle or helicopter")
        return
    heli = movers[0]
    if kind == "helicopter" and (heli.broken or heli.leaves_turn is not None or heli.move_only
                                 or heli.role == "cobra"):
        return          # broken (F 7.4), or due to leave: slicks and hogs (F 12.0, F 15.0), Cobras (F 19.6)
    if not with_markers:
        raise RuleViolation("F 6.1", f"{movers[0].id} leaves the map only to evacuate KIA/WIA (or when the scenario "
                                     "allows)")


def _leave_map(state: FteState, movers: Sequence[Unit], res: Resolution) -> None:
    """Units step off the map. Whatever casualties go with them are evacuated and scored by
    :func:`wargames.fte.casualties.leave_map` (F 7.5.3); a unit with nothing to evacuate (leaving under a
    scenario rule) is simply gone."""
    for u in movers:
        if u.kind != "infantry" or u.carrying or u.injury:
            leave_map(state, u.id, res)
        else:
            u.hex = None
            res.add("F 6.1", f"{u.id} leaves the map, as the scenario allows", unit=u.id)


# --------------------------------------------------------------------------- immobilized vehicles

@implements("F 6.10")
def abandon(state: FteState, vehicle_id: str, res: Resolution, *, crew: Unit | None = None) -> Unit:
    """Abandon an immobilized vehicle (its Move action): a suppressed, reduced fire team (``crew``, or a
    default one) appears in its hex with Activation Complete, its passengers and casualty markers are set
    down there, the passengers with Activation Complete, and the vehicle is removed (F 6.10)."""
    v = state.unit(vehicle_id)
    if v.kind != "vehicle":
        raise RuleViolation("F 6.10", f"{v.id} is not a vehicle")
    if not v.immobilized:
        raise RuleViolation("F 6.10", f"{v.id} is not immobilized; only an immobilized vehicle is abandoned")
    if not v.on_map:
        raise RuleViolation("F 6.10", f"{v.id} is not on the map")
    h = v.hex
    if crew is None:
        crew = Unit(state.new_id(f"{v.id}-crew"), v.side, "infantry", "fire_team", fire_rating=3, weapon="SA",
                    tq=v.tq, range=4 if v.side == "US" else None, men=2)
    if crew.id in state.units:
        raise RuleViolation("F 6.10", f"the crew's id {crew.id} is already in use")
    crew.hex, crew.reduced, crew.suppressed, crew.activated = h, True, True, True
    state.units[crew.id] = crew
    res.add("F 6.10", f"{v.id} is abandoned: its crew {crew.id}, a reduced fire team, is placed in {state.label(h)} "
                      "Suppressed, with Activation Complete", unit=crew.id)
    for u in state.units.values():
        if u.loaded_in == v.id:
            u.loaded_in, u.hex, u.activated = None, h, True
            for cid in u.carrying:
                if cid in state.casualties:
                    state.casualties[cid].hex = h
            res.add("F 6.10", f"{u.id} gets off in {state.label(h)} with Activation Complete", unit=u.id)
    for m in state.casualties.values():
        if m.carried_by == v.id:
            m.carried_by, m.hex = None, h
            res.add("F 6.10", f"the {m.kind} marker {m.id} is set down in {state.label(h)}", marker=m.id)
    v.carrying = []
    v.hex = None
    res.add("F 6.10", f"{v.id} is removed from the map", unit=v.id)
    res.result = crew.id
    return crew


# --------------------------------------------------------------------------- reach

@implements("F 6.4", "F 6.5")
def path_off_map(state: FteState, u: Unit) -> list[Hex] | None:
    """A shortest way for a helicopter in the air (20 MP) to a map-edge hex it may stand in, as the hexes
    entered (empty if it is on the edge already); None if there is none (F 6.5, F 6.8)."""
    budget = HELICOPTER_AIR_MP - EXIT_COST
    came: dict[Hex, Hex | None] = {u.hex: None}
    frontier = [u.hex]
    for _ in range(budget + 1):
        for h in frontier:
            if map_edge(state, h):
                path = []
                while came[h] is not None:
                    path.append(h)
                    h = came[h]
                return path[::-1]
        nxt = []
        for h in frontier:
            for n in sorted(state.map.neighbors(h), key=state.label):
                if n not in came and not entry_problem(state, [u], n)[0]:
                    came[n] = h
                    nxt.append(n)
        frontier = nxt
    return None


def reachable(state: FteState, unit_id: str, double_time: bool = False, *, stealthy: bool = False) -> dict[Hex, Fraction]:
    """Every hex the unit could end a Move in, with the cheapest cost (its own hex at 0).

    Hexes holding enemies or that would overstack block the way; opportunity fire and concealment are not
    considered. Stealthy movement reaches only adjacent hexes.
    """
    u = state.unit(unit_id)
    if not u.on_map:
        raise RuleViolation("F 6.1", f"{u.id} is not on the map")
    if u.kind == "vehicle" and u.immobilized:
        return {u.hex: Fraction(0)}
    budget, _ = allowance(state, u, double_time=double_time)
    cls = move_class(u)
    best = {u.hex: Fraction(0)}
    heap = [(Fraction(0), state.label(u.hex), u.hex)]
    while heap:
        c, _, h = heappop(heap)
        if c > best.get(h, c):
            continue
        if stealthy and h != u.hex:
            continue
        for n in state.map.neighbors(h):
            step = move_cost(state.map, h, n, cls, state.charts)
            if step is None or c + step > budget:
                continue
            if entry_problem(state, [u], n)[0]:
                continue
            if n not in best or c + step < best[n]:
                best[n] = c + step
                heappush(heap, (c + step, state.label(n), n))
    if u.kind == "helicopter" and u.altitude == "ground":
        best = {h: c for h, c in best.items()
                if state.charts.tec.value(state.map.terrain(h), "helicopter_ground") is not None}
    return best


__all__ = ["MovePlan", "plan_move", "advance_move", "movers_stopped", "finish_move", "place_unit", "allowance", "abandon", "check_capacity", "concealment_on_entry", "cost_text", "entry_problem",
           "map_edge", "move", "move_class", "path_off_map", "reachable", "troops_aboard", "OpFire"]
