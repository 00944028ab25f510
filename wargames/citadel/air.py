"""Section II, airpower (C 25-C 33): the Air Chart as game state and the procedures of every air rule.

The Air Chart's boxes hold air counters by id (``"B26-1"``); counters on the map this phase are
:class:`Sortie` records. Every count the air rules use counts counters (catalog C-5 item 24). The phases
are played through ``citadel.Game`` by the mixins of :mod:`airplay`; the functions here do the rules.

Readings of silent or ambiguous points (each is in the book's air chapter):

- attack totals after the altitude factor are rounded down, in the defender's favour (C-5 item 23);
- antiaircraft odds are rounded down to a column, in the aircraft's favour; below the first column the fire
  has no effect (C-5 item 26); a K or A hits every counter fired at together;
- a pinned antiaircraft unit may not fire, as no pinned unit fires (C 9);
- overcast turns back floor(n/2) counters of each type and base on a mission, base zone first (C-E17);
- a split personnel unit lands in the hex of the first of its aircraft that arrives.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

from ..core import Dice, Hex, Resolution, implements
from ..core.dice import roll_die
from ..core.errors import DataError, RuleViolation
from .air_charts import ALTITUDES, AirCharts, AirType
from .air_marks import REVETMENT, air_attacked, air_spotted, destroyed_on_ground, revetment_hex  # noqa: F401
from .stacking import stacking_problem
from .terrain import hexes_with, runway_end
from .supply import AIR_CARGO, air_drop_recovered, in_force, reduce_receipts
from .units import Side, UnitClass, UnitState

#: The boxes of the Air Chart (C 26.F, C 28.A, C 29), and the revetment hex on the map (C 31).
BOXES = {"available": "Available and Serviceable", "flown": "Unavailable and Flown",
         "aborted": "Aborted and Unserviceable", "shot_down": "Shot Down", "destroyed": "Permanently Destroyed",
         "destroyed_on_ground": "Destroyed on Ground", "revetment": "the revetment hex", "withdrawn": "withdrawn"}
FACINGS = {"N": (0, -1), "NE": (1, -1), "SE": (1, 0), "S": (0, 1), "SW": (-1, 1), "NW": (-1, 0)}
ALTITUDE_FACTOR = {"low": Fraction(1), "medium": Fraction(1, 2), "high": Fraction(1, 4)}   # C 26.A
AA_RANGE = {"37mm": 10, "20mm": 8, ".50cal": 6}                                             # C 28.B
#: Flight paths (C 28.C): hexes behind and in front of the target hex; spotters orbit their six neighbours.
PATHS = {"fighter-bomber": (5, 0), "bomber": (10, 2), "transport": (15, 5)}
RUNWAY_END = "1918"                       # C 28.D
STRATEGIC_BATTERIES, STRATEGIC_GUNS, STRATEGIC_SHIFT = 8, 4, -4      # C 28.F, C 26.D
#: The most the Vietminh receive a turn (C 23.B): bombing beyond it has no effect (C 26.D).
VM_RECEIPTS = {"ammo_105": 10, "ammo_120": 5, "ammo_75_howitzer": 5, "ammo_75_recoilless": 4}
STRIKE_START = dt.date(1954, 4, 20)       # C 32
ROTATION = dt.date(1954, 5, 1)            # C 33


@dataclass
class Sortie:
    """Air counters placed together on a hex for one mission this phase (C 26, C 28.C)."""

    mission: str                  # tactical, flak, spotting, transport
    aircraft: list[str]
    hex: Hex
    altitude: str
    facing: str
    cargo: str = ""
    amount: int = 0
    unit: str = ""
    took_off: list[str] = field(default_factory=list)    # flew from Dien Bien Phu (C 28.D)
    done: bool = False


@dataclass
class Stack:
    """A strategic bombing stack (C 26.D)."""

    aircraft: list[str]
    altitude: str
    fired_on: bool = False


@dataclass
class AirState:
    """The Air Chart and the air rules' bookkeeping (C 25-C 33)."""

    counters: dict[str, str]                 # id -> type
    box: dict[str, str]                      # id -> box (BOXES)
    inverted: set[str] = field(default_factory=set)        # unserviceable in the revetment (C 29.C)
    weather: dict[str, str] = field(default_factory=lambda: {"valley": "clear", "supply_lines": "clear",
                                                              "delta": "clear"})
    sorties: list[Sortie] = field(default_factory=list)
    stacks: list[Stack] = field(default_factory=list)
    stage: str = ""
    aa_fired: set[str] = field(default_factory=set)
    fired_at: set[str] = field(default_factory=set)
    takeoff_fired_at: set[str] = field(default_factory=set)
    suppressed: dict[Hex, list[str]] = field(default_factory=dict)   # flak-suppressed hex -> its aircraft
    abort_choice: list[str] = field(default_factory=list)   # aborted, may go to the revetment (C 28.A)
    landing: list[str] = field(default_factory=list)         # based at Dien Bien Phu, to land (C 31)
    spotted: dict[Hex, int] = field(default_factory=dict)    # hex -> player turn start (C 26.C)
    attacked: dict[Hex, int] = field(default_factory=dict)   # hex -> fire phase start (C 26.A)
    bombed: dict[str, int] = field(default_factory=dict)     # this turn's Vietminh supply destroyed (C 26.D)
    delivered: dict[str, int] = field(default_factory=dict)  # this turn's French receipts by air (C 26.E)
    captured: dict[str, int] = field(default_factory=dict)   # drops the Vietminh recover (C 26.E)
    delta: dict[str, int] = field(default_factory=lambda: {"infantry": 0, "heavy weapons": 0})  # C 28.G
    personnel: dict[str, list] = field(default_factory=dict)  # unit -> [[hex, sp], ...] delivered this phase
    strikes: dict[str, int] = field(default_factory=lambda: {"sixes": 0, "american": 0, "american_day": 0,
                                                              "french": 0})

    def in_box(self, box: str, type_: str | None = None) -> list[str]:
        return [a for a in sorted(self.counters, key=_order) if self.box[a] == box
                and (type_ is None or self.counters[a] == type_)]

    def to_dict(self) -> dict:
        boxes: dict[str, list[str]] = {}
        for a in sorted(self.counters, key=_order):
            boxes.setdefault(BOXES[self.box[a]], []).append(a + (" (inverted)" if a in self.inverted else ""))
        return {"boxes": boxes, "weather": dict(self.weather), "stage": self.stage,
                "sorties": [{"mission": s.mission, "aircraft": list(s.aircraft), "altitude": s.altitude,
                             "facing": s.facing, "cargo": s.cargo} for s in self.sorties],
                "bombed": dict(self.bombed), "delivered": dict(self.delivered), "captured": dict(self.captured),
                "strikes": dict(self.strikes)}


def _order(aid: str) -> tuple:
    t, _, n = aid.rpartition("-")
    return (t, int(n) if n.isdigit() else 0, aid)


def new_air_state(holdings: dict[str, int], unserviceable: dict[str, int] | None = None,
                  revetment: dict[str, int] | None = None) -> AirState:
    """An Air Chart with ``holdings`` counters of each type Available and Serviceable, ``unserviceable`` in the
    Aborted and Unserviceable box (SR 1, Scenario Information Chart) and ``revetment`` in the revetment hex."""
    counters, box, n = {}, {}, {}
    for where, counts in (("available", holdings), ("aborted", unserviceable or {}), ("revetment", revetment or {})):
        for t, k in counts.items():
            for _ in range(k):
                n[t] = n.get(t, 0) + 1
                counters[f"{t}-{n[t]}"] = t
                box[f"{t}-{n[t]}"] = where
    return AirState(counters, box)


# --------------------------------------------------------------------------- lookups

def charts(state) -> AirCharts:
    if state.air_charts is None:
        from .air_charts import default_air_charts
        state.air_charts = default_air_charts()
    return state.air_charts


def air_type(state, aid: str) -> AirType:
    try:
        return charts(state).air_units[state.air.counters[aid]]
    except KeyError:
        raise RuleViolation("C 25", f"{aid} is not an air counter of this game") from None


def runway_end_hex(state) -> Hex:
    """The runway's north-west end, 1918 (C 28.D): the hex the map marks, else the printed label."""
    m = state.map
    return runway_end(m) if hexes_with(m, "runway_end") else m.hex(RUNWAY_END)


def facing_vector(facing: str) -> Hex:
    try:
        return Hex(*FACINGS[facing])
    except KeyError:
        raise RuleViolation("C 28.C", f"{facing!r} is not a hexside direction ({', '.join(FACINGS)})") from None


@implements("C 28")
def flight_path(category: str, target: Hex, facing: str) -> list[Hex]:
    """The hexes an aircraft flies through to reach ``target`` facing ``facing`` (C 28.C)."""
    if category == "spotter":
        return target.neighbors()
    behind, ahead = PATHS[category]
    d = facing_vector(facing)
    out = []
    for k in range(1, behind + 1):
        out.append(Hex(target.q - d.q * k, target.r - d.r * k))
    for k in range(1, ahead + 1):
        out.append(Hex(target.q + d.q * k, target.r + d.r * k))
    return out


@implements("C 28")
def in_takeoff_cone(state, h: Hex) -> bool:
    """Whether ``h`` lies in the take-off pattern (C 28.D): the hexes a map marks ``takeoff_cone``, or else the
    60-degree cone opening north-west from the runway end, its edges included (reading)."""
    m = state.map
    marked = [x for x in m.hexes if m.info(x).attr("takeoff_cone") or m.info(x).attr("take_off_cone")]
    if marked:
        return h in marked
    end = runway_end_hex(state)
    q, r = h.q - end.q, h.r - end.r
    s = -q - r
    return abs(r) <= min(-q, s)


def gun_of(u: UnitState) -> str | None:
    """The gun an antiaircraft counter shows: 37mm, 20mm or .50cal (one strength point is one gun, C 28.A)."""
    if u.counter.type != "antiaircraft":
        return None
    return {"37": "37mm", "20": "20mm", ".50": ".50cal", "50": ".50cal"}.get(u.counter.ordnance)


def aa_units(state) -> list[UnitState]:
    return [u for u in state.on_board(Side.VIETMINH) if gun_of(u)]


# --------------------------------------------------------------------------- weather (C 27)

@implements("C 27")
def roll_weather(state, dice: Dice, res: Resolution) -> None:
    """Three rolls: the valley, the Vietminh supply lines, the Red River delta; +1 in May."""
    table = charts(state).weather
    plus = 1 if state.date.month == 5 else 0
    for zone, name in (("valley", "the valley of Dien Bien Phu"), ("supply_lines", "the Vietminh supply lines"),
                       ("delta", "the Red River delta")):
        roll = roll_die(dice, 6, f"weather over {name}")
        cell = table.get("weather", roll + plus)
        state.air.weather[zone] = cell.value
        res.add("C 27", f"weather over {name}: roll {roll}" + (" +1 (May)" if plus else "") + f" = {roll + plus}: "
                f"{cell.value}", result=cell.value, roll=roll, zone=zone, provenance=cell.provenance.kind)


def based_in_delta(state, aid: str) -> bool:
    return state.air.box[aid] != "revetment" and not air_type(state, aid).carrier


@implements("C 27")
def weather_problem(state, aircraft: Sequence[str], target_zone: str) -> str | None:
    """Why storm forbids this mission, or None (C 27.A: storm over the target or over the delta base)."""
    w = state.air.weather
    if w[target_zone] == "storm":
        where = "Dien Bien Phu" if target_zone == "valley" else "the Vietminh supply lines"
        return f"storm over {where}: no air missions there"
    stuck = [a for a in aircraft if based_in_delta(state, a) and w["delta"] == "storm"]
    if stuck:
        return f"storm over the Red River delta: {', '.join(stuck)} cannot fly from there"
    return None


@implements("C 27")
def turn_back(state, aircraft: Sequence[str], target_zone: str, res: Resolution) -> list[str]:
    """Overcast turns back half (rounded down) of each type on the mission, over the base, then over the target.

    Counters are grouped by type and base (delta, carrier, Dien Bien Phu), since only delta-based ones meet the
    delta's weather. Turned-back counters go to Unavailable and Flown; the rest fly on."""
    st, w = state.air, state.air.weather
    groups: dict[tuple, list[str]] = {}
    for a in aircraft:
        groups.setdefault((st.counters[a], based_in_delta(state, a)), []).append(a)
    going = []
    for (t, delta), ids in groups.items():
        zones = (["delta"] if delta else []) + [target_zone]
        for z in zones:
            if w[z] == "overcast":
                back = len(ids) // 2
                if back:
                    turned, ids = ids[len(ids) - back:], ids[:len(ids) - back]
                    for a in turned:
                        st.box[a] = "flown"
                    res.add("C 27", f"overcast over the {z.replace('_', ' ')}: {back} of {back + len(ids)} {t} "
                            f"turned back ({', '.join(turned)}); {len(ids)} go on",
                            arithmetic=f"{back + len(ids)} - floor({back + len(ids)}/2) = {len(ids)}", result=len(ids))
        going += ids
    return going


# --------------------------------------------------------------------------- which aircraft may fly

def may_fly(state, aid: str, mission: str) -> str | None:
    """Why ``aid`` may not fly ``mission`` now, or None (C 26, C 26.F, C 31)."""
    st = state.air
    t = air_type(state, aid)
    if st.box.get(aid) == "revetment":
        if aid in st.inverted:
            return f"{aid} is unserviceable (inverted) in the revetment"
        if mission in ("strategic", "transport"):
            return f"{aid} is based at Dien Bien Phu and flies only against targets on the map (C 31)"
    elif st.box.get(aid) != "available":
        return f"{aid} is in the {BOXES[st.box.get(aid, 'withdrawn')]} box, not Available and Serviceable (C 26.F)"
    if any(aid in s.aircraft for s in st.sorties) or any(aid in s.aircraft for s in st.stacks):
        return f"{aid} already flies a mission this phase"
    ok = {"tactical": ("fighter-bomber", "bomber"), "flak": ("fighter-bomber", "bomber"), "spotting": ("spotter",),
          "transport": ("transport",), "strategic": ("fighter-bomber", "bomber")}[mission]
    if t.category not in ok and not (mission == "strategic" and t.name == "C119"):
        return f"a {t.category} ({t.name}) cannot fly {mission} missions (C 26)"
    if t.name == "C119" and st.strikes["american"] and st.strikes["american_day"] <= 3:
        return "the American pilots are on strike: no C119 flies in its first three days (C 32.C)"
    return None


def able(state, mission: str) -> list[str]:
    """Every counter that may fly ``mission`` now (ignoring the weather)."""
    if state.air is None:
        return []
    return [a for a in sorted(state.air.counters, key=_order) if may_fly(state, a, mission) is None]


# --------------------------------------------------------------------------- placement (C 26.A-C, C 26.E)

@implements("C 26")
def place_sortie(state, mission: str, aircraft: Sequence[str], target: str, altitude: str, facing: str,
                 res: Resolution, cargo: str = "", amount: int = 0, unit: str = "") -> Sortie | None:
    """Put counters on a hex for a mission; check every rule of the placement. Returns the sortie (or None when
    overcast turned every counter back)."""
    st = state.air
    if not aircraft:
        raise RuleViolation("C 26", "name at least one air counter")
    if len(set(aircraft)) != len(aircraft):
        raise RuleViolation("C 26", "a counter is named twice")
    for a in aircraft:
        why = may_fly(state, a, mission)
        if why:
            raise RuleViolation("C 26", why)
    if altitude not in ALTITUDES:
        raise RuleViolation("C 26.A", f"altitude is low, medium or high, not {altitude!r}")
    facing_vector(facing)
    h = state.map.hex(target)
    here = [s for s in st.sorties if s.hex == h and s.aircraft]
    if here and mission != "transport":
        raise RuleViolation("C 26.A", f"aircraft already fly over {target}: place every counter for a hex at once")
    if here and (here[0].mission != mission or here[0].altitude != altitude or here[0].facing != facing):
        raise RuleViolation("C 26.A", f"aircraft already in {target} fly {here[0].mission} at {here[0].altitude} "
                                      f"facing {here[0].facing}: all in a hex fly alike (C 26.A, C 28.C)")
    cats = {air_type(state, a).category for a in aircraft}
    if mission == "flak":
        if altitude != "low":
            raise RuleViolation("C 26.B", "flak suppression is flown at low altitude")
        if not [u for u in aa_units(state) if u.hex == h]:
            raise RuleViolation("C 26.B", f"there is no antiaircraft unit in {target} to suppress")
    if mission == "tactical":
        if not state.units_at(h, Side.VIETMINH):
            raise RuleViolation("C 26.A", f"there is no Vietminh unit in {target} to attack")
        if "bomber" in cats and any(state.units_at(n, Side.FRENCH) for n in h.neighbors()):
            raise RuleViolation("C 26.A", f"bombers may not strike {target}: it is next to French ground units")
    if mission == "transport":
        others = [s for s in st.sorties if s.mission == "transport" and s.facing != facing]
        if others:
            raise RuleViolation("C 28.C", f"all transports on the map face the same way ({others[0].facing})")
        from .zoc import in_enemy_zoc
        ok = [x for x in [h, *h.neighbors()] if state.units_at(x, Side.FRENCH)
              and not in_enemy_zoc(state, Side.FRENCH, x)]
        if not ok:
            raise RuleViolation("C 26.E", f"{target} is neither on nor next to a French-held hex outside a Vietminh "
                                          f"zone of control")
        check_cargo(state, aircraft, cargo, amount, unit, h)
    why = weather_problem(state, aircraft, "valley")
    if why:
        raise RuleViolation("C 27", why)
    res.add("C 26", f"{mission} mission: {', '.join(aircraft)} to {target} at {altitude} altitude facing {facing}"
            + (f", carrying {amount} {cargo}" + (f" of {unit}" if unit else "") if cargo else ""))
    took_off = [a for a in aircraft if st.box[a] == "revetment"]
    going = turn_back(state, aircraft, "valley", res)
    if not going:
        return None
    if cargo and len(going) < len(aircraft):
        amount = amount * len(going) // len(aircraft)
        res.add("C 27", f"the counters turned back keep their cargo: {amount} {cargo} still flies", result=amount)
    s = Sortie(mission, list(going), h, altitude, facing, cargo, amount, unit, [a for a in took_off if a in going])
    st.sorties.append(s)
    if mission == "flak":
        st.suppressed[h] = list(going)
    return s


@implements("C 26")
def check_cargo(state, aircraft: Sequence[str], cargo: str, amount: int, unit: str, h: Hex) -> None:
    """One kind of cargo per aircraft, within the cargo values (C 26.E); a unit split over two aircraft lands on
    adjacent hexes."""
    ac = charts(state)
    w = ac.transport_weights.weight("personnel" if cargo == "replacements" else cargo)   # men weigh alike
    room = sum(air_type(state, a).cargo for a in aircraft) // w
    if amount < 1 or amount > room:
        raise RuleViolation("C 26.E", f"{', '.join(aircraft)} can carry 1 to {room} of {cargo} (weight {w} a point)")
    if cargo == "personnel":
        from .replacements import due_reinforcements
        u = state.unit(unit) if unit else None
        if u is None or u.side is not Side.FRENCH or u.on_board or u.eliminated or u.counter.cls is UnitClass.TANK:
            raise RuleViolation("C 26.E", f"{unit or '(no unit)'} is not a French unit waiting in the delta")
        schedule = state.reserves.schedule if getattr(state, "reserves", None) is not None else {}
        if any(unit in units for units in schedule.values()) and unit not in due_reinforcements(state, Side.FRENCH):
            raise RuleViolation("C 16", f"{unit} is a reinforcement not yet due: it is not in the delta today")
        carried = sum(s.amount for s in state.air.sorties if s.unit == unit)
        if carried + amount > u.strength:
            raise RuleViolation("C 26.E", f"{unit} has {u.strength} strength points; {carried} already fly")
        far = [s for s in state.air.sorties if s.unit == unit and s.hex.distance(h) > 1]
        if far:
            raise RuleViolation("C 26.E", f"the parts of {unit} must drop on the same or adjacent hexes")
        first = next((s.hex for s in state.air.sorties if s.unit == unit and s.cargo == "personnel"), h)
        problem = stacking_problem([*state.units_at(first, Side.FRENCH), u])
        if problem:
            raise RuleViolation("C 6", f"{unit} would land in {state.label(first)}: {problem}")
    elif cargo == "replacements":
        flown_replacements(state, unit, amount, h)
    elif unit:
        raise RuleViolation("C 26.E", "only personnel and replacements name a unit")


@implements("C 15")
def flown_replacements(state, unit: str, amount: int, h: Hex) -> None:
    """Replacements under the advanced air rules are flown in (C 15.B): the points go to a French unit on the map
    in or next to the drop hex (our reading), within what it may absorb and what is left of the pool (C 15.C),
    counting the points already in the air for it."""
    from .replacements import check_replacement, replacement_kind, reserves_of
    if not unit:
        raise RuleViolation("C 15", "name the French unit on the map that takes the replacements")
    u = state.unit(unit)
    if u.side is not Side.FRENCH or not u.on_board or u.hex.distance(h) > 1:
        raise RuleViolation("C 15", f"{unit} is not a French unit on the map in or next to {state.label(h)}")
    flying = [s for s in state.air.sorties if s.cargo == "replacements"]
    check_replacement(state, Side.FRENCH, unit, sum(s.amount for s in flying if s.unit == unit) + amount)
    kind = replacement_kind(u)
    left = reserves_of(state).french_left[kind] - sum(s.amount for s in flying
                                                      if replacement_kind(state.unit(s.unit)) == kind)
    if amount > left:
        raise RuleViolation("C 15", f"only {left} French {kind} replacement point(s) are left to fly in")


# --------------------------------------------------------------------------- antiaircraft fire (C 28)

@implements("C 28")
def aa_problem(state, gun_unit: UnitState, sortie: Sortie, aircraft: Sequence[str], takeoff: bool) -> str | None:
    """Why this antiaircraft unit may not fire at these aircraft, or None (C 28.B-E)."""
    st = state.air
    gun = gun_of(gun_unit)
    if gun is None:
        return f"{gun_unit.id} is not an antiaircraft unit"
    if not gun_unit.on_board:
        return f"{gun_unit.id} is not on the map"
    if gun_unit.id in st.aa_fired:
        return f"{gun_unit.id} has already fired this phase (C 28.E)"
    if gun_unit.pinned and (gun_unit.pinned_at is None or gun_unit.pinned_at < state.fire_phase_start):
        return f"{gun_unit.id} is pinned (C 9)"
    supp = st.suppressed.get(gun_unit.hex)
    if supp is not None and not set(aircraft) <= set(supp):
        return f"{gun_unit.id} is under flak suppression and may fire only at its attackers (C 26.B)"
    altitude = "low" if takeoff else sortie.altitude
    if charts(state).aa_altitude.multiplier(gun, altitude) is None:
        return f"a {gun} gun cannot fire at {altitude} altitude (C 28.A)"
    rng = AA_RANGE[gun]
    if takeoff:
        end = runway_end_hex(state)
        if not in_takeoff_cone(state, gun_unit.hex):
            return f"{gun_unit.id} is not in the take-off pattern (C 28.D)"
        if gun_unit.hex.distance(end) > rng:
            return f"{gun_unit.id} is out of range of the runway end {state.label(end)} (C 28.D)"
        return None
    cat = air_type(state, sortie.aircraft[0]).category
    hexes = [sortie.hex, *flight_path(cat, sortie.hex, sortie.facing)]
    if min(gun_unit.hex.distance(x) for x in hexes) > rng:
        return f"{gun_unit.id} ({gun}, range {rng}) reaches neither the aircraft nor its flight path (C 28.B)"
    return None


@implements("C 28")
def aa_fire(state, gun_ids: Sequence[str], aircraft: Sequence[str], takeoff: bool, dice: Dice,
            res: Resolution) -> str:
    """Antiaircraft units fire together at counters of one hex (C 28.A); returns K, A or -."""
    st, ac = state.air, charts(state)
    if not gun_ids or not aircraft:
        raise RuleViolation("C 28.A", "name the guns and the aircraft they fire at")
    sorties = {id(s): s for s in st.sorties for a in aircraft if a in s.aircraft}
    found = {a for s in sorties.values() for a in s.aircraft}
    missing = [a for a in aircraft if a not in found]
    if missing:
        raise RuleViolation("C 28.A", f"{', '.join(missing)} is not on the map this phase")
    if len({s.hex for s in sorties.values()}) != 1:
        raise RuleViolation("C 28.A", "guns firing together fire at aircraft of one hex")
    sortie = next(iter(sorties.values()))
    if takeoff:
        late = [a for a in aircraft if not any(a in s.took_off for s in sorties.values())]
        if late:
            raise RuleViolation("C 28.D", f"{', '.join(late)} did not take off from Dien Bien Phu")
    fired = st.takeoff_fired_at if takeoff else st.fired_at
    again = [a for a in aircraft if a in fired]
    if again:
        raise RuleViolation("C 28.E", f"{', '.join(again)} has already been fired at" + (" taking off" if takeoff else "")
                            + " this phase")
    total = Fraction(0)
    altitude = "low" if takeoff else sortie.altitude
    for gid in gun_ids:
        u = state.unit(gid)
        if u.side is not Side.VIETMINH:
            raise RuleViolation("C 28", f"{gid} is not a Vietminh unit")
        why = aa_problem(state, u, sortie, aircraft, takeoff)
        if why:
            raise RuleViolation("C 28", why)
        gun = gun_of(u)
        mult = ac.aa_altitude.multiplier(gun, altitude)
        double = 2 if takeoff or u.hex == sortie.hex else 1
        part = u.strength * mult * double
        total += part
        res.add("C 28", f"{gid}: {u.strength} {gun} guns x{mult} at {altitude} altitude"
                + (" x2 (take-off pattern)" if takeoff else " x2 (same hex)" if double == 2 else "") + f" = {part}",
                arithmetic=f"{u.strength} x {mult}" + (" x 2" if double == 2 else "") + f" = {part}", result=part,
                provenance=ac.aa_altitude.guns[gun][altitude].provenance.kind)
    defence = sum(air_type(state, a).defence for a in aircraft)
    col = ac.aa_column(total, defence)
    for gid in gun_ids:
        st.aa_fired.add(gid)
    fired.update(aircraft)
    if col is None:
        res.add("C 28.A", f"{total} guns against defence {defence}: below the first column, no effect", result="-")
        return "-"
    label = ac.aa_fire.columns[col].label
    roll = roll_die(dice, 6, f"antiaircraft fire at {', '.join(aircraft)}")
    cell = ac.aa_fire.lookup(col, roll)
    res.add("C 28.A", f"{total} guns against defence {defence} -> {label}; roll {roll}: {cell.value}",
            result=cell.value, roll=roll, column=label, provenance=cell.provenance.kind)
    if cell.value == "K" or (cell.value == "A" and takeoff):
        if takeoff and cell.value == "A":
            res.add("C 28.D", "aborted while taking off: shot down instead")
        for a in aircraft:
            _leave_map(state, a, "shot_down", res)
    elif cell.value == "A":
        for a in aircraft:
            if air_type(state, a).may_base_at_dien_bien_phu and revetment_hex(state) is not None:
                _leave_map(state, a, None, res)
                st.abort_choice.append(a)
            else:
                _leave_map(state, a, "aborted", res)
    return cell.value


def _leave_map(state, aid: str, box: str | None, res: Resolution) -> None:
    """A counter hit by antiaircraft fire leaves its sortie; personnel it carried go back to the delta (C 28.G)."""
    st = state.air
    for s in st.sorties:
        if aid in s.aircraft:
            share = s.amount // len(s.aircraft) if s.cargo else 0
            if s.cargo:
                s.amount -= share
                res.add("C 28.G", f"{aid}'s cargo ({share} {s.cargo}) "
                        + ("goes back to the Red River delta" if s.cargo == "personnel" else "is destroyed"))
            s.aircraft.remove(aid)
    if box is not None:
        st.box[aid] = box
        res.add("C 28.A", f"{aid} to the {BOXES[box]} box", unit=aid, result=box)


@implements("C 28", "C 31")
def abort_to(state, aid: str, where: str, res: Resolution) -> None:
    """The French place an aborted counter in Aborted and Unserviceable or, inverted, in the revetment (C 28.A)."""
    st = state.air
    if aid not in st.abort_choice:
        raise RuleViolation("C 28.A", f"{aid} is not an aborted counter awaiting its box")
    if where not in ("aborted", "revetment"):
        raise RuleViolation("C 28.A", "an aborted counter goes to 'aborted' or 'revetment'")
    st.abort_choice.remove(aid)
    st.box[aid] = where
    if where == "revetment":
        st.inverted.add(aid)
    res.add("C 28.A", f"{aid} aborted: " + ("inverted in the revetment hex" if where == "revetment"
                                            else "to Aborted and Unserviceable"))


# --------------------------------------------------------------------------- attacks (C 26.A-C)

@implements("C 26")
def attack_total(state, aircraft: Sequence[str], altitude: str, res: Resolution, rule: str = "C 26.A") -> int:
    """Attack values summed, times 1, 1/2 or 1/4 for altitude, rounded down (reading, C-5 item 23)."""
    raw = sum(air_type(state, a).attack for a in aircraft)
    f = ALTITUDE_FACTOR[altitude]
    total = int(raw * f)         # floor: the values are never negative
    res.add(rule, f"{len(aircraft)} counter(s) attack {raw} at {altitude} altitude x{f} = {total}"
            + (" (rounded down)" if raw * f != total else ""), arithmetic=f"{raw} x {f} = {total}", result=total)
    return total


@implements("C 26")
def spot(state, sortie: Sortie, res: Resolution) -> None:
    """A surviving spotter spots its hex and the six around it for the rest of the player turn (C 26.C)."""
    sortie.done = True
    if not sortie.aircraft:
        return
    for x in [sortie.hex, *sortie.hex.neighbors()]:
        state.air.spotted[x] = state.player_turn_start
    res.add("C 26.C", f"{', '.join(sortie.aircraft)} spots {state.label(sortie.hex)} and its six neighbours for the "
                      f"rest of the player turn")


# --------------------------------------------------------------------------- transport (C 26.E, C 28.G)

@implements("C 26", "C 28")
def drop(state, sortie: Sortie, dice: Dice, res: Resolution) -> None:
    """Roll for a supply drop (d6, +1 medium, +2 high): 1-5 French, 6 lost, 7-8 Vietminh. Personnel land."""
    st = state.air
    sortie.done = True
    if not sortie.aircraft or not sortie.amount:
        return
    if sortie.cargo == "personnel":
        st.personnel.setdefault(sortie.unit, []).append([sortie.hex, sortie.amount])
        res.add("C 26.E", f"{sortie.amount} strength point(s) of {sortie.unit} drop on {state.label(sortie.hex)} "
                          f"(no roll for personnel)")
        return
    if sortie.cargo == "replacements":
        from .replacements import take_replacement
        res.add("C 26.E", f"{sortie.amount} replacement point(s) for {sortie.unit} drop on "
                          f"{state.label(sortie.hex)} (no roll for personnel)")
        take_replacement(state, Side.FRENCH, sortie.unit, sortie.amount, res)
        return
    plus = {"low": 0, "medium": 1, "high": 2}[sortie.altitude]
    roll = roll_die(dice, 6, f"drop of {sortie.cargo} on {state.label(sortie.hex)}")
    n = roll + plus
    who = "French" if n <= 5 else "nobody" if n == 6 else "Vietminh"
    book = st.delivered if who == "French" else st.captured if who == "Vietminh" else None
    if book is not None:
        book[sortie.cargo] = book.get(sortie.cargo, 0) + sortie.amount
    res.add("C 26.E", f"drop of {sortie.amount} {sortie.cargo}: roll {roll}" + (f" +{plus} ({sortie.altitude})"
            if plus else "") + f" = {n}: recovered by {who}", result=who, roll=roll)
    air_drop_recovered(state, who, sortie.cargo, sortie.amount, res)        # into the stocks of Section I (C 23)


@implements("C 28")
def land_personnel(state, res: Resolution) -> None:
    """Place each unit dropped this phase; strength points that did not arrive go back as replacements (C 28.G)."""
    from .replacements import reserves_of
    st = state.air
    reserves = reserves_of(state)
    for uid, parts in st.personnel.items():
        u = state.unit(uid)
        got = sum(sp for _, sp in parts)
        short = u.counter.strength - got
        u.hex = parts[0][0]
        if any(uid in units for units in reserves.schedule.values()):
            reserves.arrived.add(uid)                     # a scheduled reinforcement has arrived (C 16)
        if short > 0:
            c = u.counter
            if c.cls is UnitClass.INFANTRY and c.reduced_strength is not None:
                u.inverted = True
                u.losses = max(0, c.reduced_strength - got)
                kind = "infantry"
            else:
                u.losses = short
                kind = "heavy weapons"
            st.delta[kind] += short
            reserves.french_left[kind] += short           # the French replacement pool of C 15.B
            kind = "infantry" if kind == "infantry" else "heavy weapons class"
            res.add("C 28.G", f"{uid} lands in {state.label(u.hex)} with {got} of {c.strength} strength points"
                    + (", reduced side up" if u.inverted else f", step-reduction marker {short}")
                    + f"; {short} point(s) added to the French {kind} replacements",
                    result=got, arithmetic=f"{c.strength} - {got} = {short}")
        else:
            res.add("C 26.E", f"{uid} lands in {state.label(u.hex)} at full strength")
    st.personnel.clear()


# --------------------------------------------------------------------------- strategic bombing (C 26.D, C 28.F)

@implements("C 26", "C 28")
def bomb(state, stack: Stack, dice: Dice, res: Resolution) -> None:
    """One stack attacks the supply lines on the fire CRT, four columns left; each loss is a supply point whose
    kind one more die gives (C 26.D). Pins have no effect."""
    crt, _, _ = state.tables()
    ac = charts(state)
    if not stack.aircraft:
        res.add("C 26.D", "no aircraft of this stack is left: no attack")
        return
    total = attack_total(state, stack.aircraft, stack.altitude, res, "C 26.D")
    if total < 1:
        return
    col = crt.column_for(total)
    final, over = crt.shift(col, STRATEGIC_SHIFT)
    roll = roll_die(dice, 6, "strategic bombing")
    result = crt.lookup(final, roll).value
    res.add("C 26.D", f"{total} -> {crt.columns[col].label}, {STRATEGIC_SHIFT} columns -> "
            f"{crt.columns[final].label}" + (f" ({abs(over)} past the edge)" if over else "")
            + f"; roll {roll}: {result.code}" + (" (P has no effect)" if result.pinned else ""),
            result=result.losses, roll=roll, column=crt.columns[final].label)
    if result.losses:
        r2 = roll_die(dice, 6, "supply bombing table")
        kind = ac.supply_bombing.get("supply", r2).value
        state.air.bombed[kind] = state.air.bombed.get(kind, 0) + result.losses
        res.add("C 26.D", f"supply bombing roll {r2}: {result.losses} point(s) of {kind} destroyed",
                result=kind, roll=r2)
        if in_force(state):                     # the day's Vietminh receipts are cut (C 23.B)
            reduce_receipts(state, AIR_CARGO[kind], result.losses, res)


@implements("C 26")
def effective_bombing(state, kind: str, scheduled: int | None = None) -> int:
    """The cut in this turn's Vietminh receipts of ``kind``: bombing beyond the receipts has no effect (C 26.D)."""
    if scheduled is None:
        scheduled = VM_RECEIPTS.get(kind, 27 if state.date.month == 5 else 25)
    return min(state.air.bombed.get(kind, 0), scheduled)


@implements("C 28")
def battery_fire(state, stack_index: int, aircraft: Sequence[str], dice: Dice, res: Resolution) -> str:
    """One of the eight off-map 37mm batteries (four guns, not doubled) fires at one stack (C 28.F). As over the
    map (C 28.A), an aborted counter that may use the Dien Bien Phu airfield waits for the French player to
    place it in the Aborted and Unserviceable box or, inverted, in the revetment (``abort_choice``)."""
    st, ac = state.air, charts(state)
    used = sum(1 for s in st.stacks if s.fired_on)
    if used >= STRATEGIC_BATTERIES:
        raise RuleViolation("C 28.F", "all eight supply-line batteries have fired")
    if not 0 <= stack_index < len(st.stacks):
        raise RuleViolation("C 28.F", f"there is no bombing stack {stack_index}")
    stack = st.stacks[stack_index]
    if stack.fired_on:
        raise RuleViolation("C 28.F", "no more than one battery fires at a stack")
    if not aircraft or not set(aircraft) <= set(stack.aircraft):
        raise RuleViolation("C 28.F", "a battery fires at aircraft of the stack it engages")
    stack.fired_on = True
    mult = ac.aa_altitude.multiplier("37mm", stack.altitude)
    guns = STRATEGIC_GUNS * mult
    defence = sum(air_type(state, a).defence for a in aircraft)
    col = ac.aa_column(guns, defence)
    if col is None:
        res.add("C 28.F", f"{guns} guns against defence {defence}: below the first column, no effect")
        return "-"
    roll = roll_die(dice, 6, f"supply-line battery at stack {stack_index}")
    value = ac.aa_fire.lookup(col, roll).value
    res.add("C 28.F", f"a 37mm battery: {STRATEGIC_GUNS} guns x{mult} = {guns} against defence {defence} -> "
            f"{ac.aa_fire.columns[col].label}; roll {roll}: {value}", result=value, roll=roll)
    if value in ("K", "A"):
        for a in aircraft:
            stack.aircraft.remove(a)
        res.add("C 28.A", f"{', '.join(aircraft)} " + ("shot down" if value == "K" else "aborted"))
        for a in aircraft:            # the procedure is that of C 28.A: the French place what may use the airfield
            if value == "A" and air_type(state, a).may_base_at_dien_bien_phu and revetment_hex(state) is not None:
                st.abort_choice.append(a)
            else:
                st.box[a] = "shot_down" if value == "K" else "aborted"
    return value


# --------------------------------------------------------------------------- maintenance (C 29), C 30-33

@implements("C 29")
def return_to_duty(state, res: Resolution) -> None:
    """Step A: everything in Unavailable and Flown goes to Available and Serviceable."""
    back = state.air.in_box("flown")
    for a in back:
        state.air.box[a] = "available"
    res.add("C 29", f"return to duty: {', '.join(back) or 'nothing'} to Available and Serviceable")


@implements("C 29")
def cull(state, type_: str, source: str, destroy: int, restore: int, res: Resolution) -> None:
    """Step B: ``destroy`` counters of a type to Permanently Destroyed and up to three times as many returned:
    from Shot Down to Aborted and Unserviceable, or from Destroyed on Ground inverted into the revetment."""
    st = state.air
    if source not in ("shot_down", "destroyed_on_ground"):
        raise RuleViolation("C 29", "culling takes counters from 'shot_down' or 'destroyed_on_ground'")
    pool = st.in_box(source, type_)
    if destroy < 1:
        raise RuleViolation("C 29", "a counter must be permanently destroyed for any to return")
    if restore < 0 or restore > 3 * destroy:
        raise RuleViolation("C 29", f"up to three return for each one destroyed: {destroy} destroyed allow "
                                    f"{3 * destroy}, not {restore}")
    if destroy + restore > len(pool):
        raise RuleViolation("C 29", f"the {BOXES[source]} box holds {len(pool)} {type_}")
    if source == "destroyed_on_ground" and restore and revetment_hex(state) is None:
        raise RuleViolation("C 29", "no revetment hex on this map")
    for a in pool[:destroy]:
        st.box[a] = "destroyed"
    for a in pool[destroy:destroy + restore]:
        if source == "shot_down":
            st.box[a] = "aborted"
        else:
            st.box[a] = "revetment"
            st.inverted.add(a)
    res.add("C 29", f"culling {type_}: {destroy} permanently destroyed, {restore} returned "
            + ("to Aborted and Unserviceable" if source == "shot_down" else "inverted to the revetment hex")
            + (f"; {3 * destroy - restore} return(s) forgone for good" if restore < 3 * destroy else ""),
            arithmetic=f"{restore} <= 3 x {destroy}", result=restore)


@implements("C 29")
def routine_maintenance(state, dice: Dice, res: Resolution) -> None:
    """Step C: a die for each counter in Aborted and Unserviceable and each inverted one in the revetment;
    4-6 returns it to service."""
    st = state.air
    for a in st.in_box("aborted") + [x for x in st.in_box("revetment") if x in st.inverted]:
        roll = roll_die(dice, 6, f"routine maintenance of {a}")
        if roll >= 4:
            if st.box[a] == "aborted":
                st.box[a] = "available"
            else:
                st.inverted.discard(a)
        res.add("C 29", f"maintenance of {a}: roll {roll}: " + ("back in service" if roll >= 4 else "still unserviceable"),
                roll=roll, unit=a)


@implements("C 33")
def naval_rotation(state, res: Resolution) -> None:
    """On the May 1 turn the SB2C and F6F leave play and four F4U counters arrive (C 33)."""
    st = state.air
    gone = [a for a in sorted(st.counters, key=_order) if st.counters[a] in ("SB2C", "F6F")
            and st.box[a] != "withdrawn"]
    for a in gone:
        st.box[a] = "withdrawn"
    n = sum(1 for t in st.counters.values() if t == "F4U")
    new = []
    for k in range(n + 1, n + 5):
        st.counters[f"F4U-{k}"] = "F4U"
        st.box[f"F4U-{k}"] = "available"
        new.append(f"F4U-{k}")
    res.add("C 33", f"naval rotation: {', '.join(gone) or 'no SB2C or F6F'} leave play; {', '.join(new)} arrive")


@implements("C 32")
def strike_roll(state, dice: Dice, res: Resolution) -> None:
    """From April 20, a die before the availability rolls: the first six starts an American strike, the second a
    French one, each lasting a die roll of days (C 32.A-B)."""
    s = state.air.strikes
    for group in ("american", "french"):
        if s[group]:
            s[group] -= 1
            if group == "american":
                s["american_day"] = s["american_day"] + 1 if s[group] else 0
            if not s[group]:
                res.add("C 32", f"the {group.capitalize()} pilots' strike is over")
    if state.date < STRIKE_START or s["sixes"] >= 2:
        return
    roll = roll_die(dice, 6, "civilian pilots' strike")
    if roll != 6:
        res.add("C 32", f"strike roll {roll}: no strike", roll=roll)
        return
    s["sixes"] += 1
    group = "american" if s["sixes"] == 1 else "french"
    days = roll_die(dice, 6, f"length of the {group} pilots' strike")
    s[group] = days
    if group == "american":
        s["american_day"] = 1
    res.add("C 32", f"strike roll 6: the {group.capitalize()} pilots strike for {days} day(s)", roll=roll, result=days)


@implements("C 30", "C 32")
def transport_availability(state, dice: Dice, res: Resolution) -> None:
    """C47 counters equal to a die, C119 counters equal to half a die (rounded down), go to other missions; a
    French strike doubles the C47 roll, an American one stops the C119s or, after three days, the halving."""
    st = state.air
    s = st.strikes
    r1 = roll_die(dice, 6, "C47 counters committed elsewhere")
    n47 = r1 * 2 if s["french"] else r1
    r2 = roll_die(dice, 6, "C119 counters committed elsewhere")
    halve = not (s["american"] and s["american_day"] > 3)
    n119 = r2 // 2 if halve else r2
    for t, n, text in (("C47", n47, f"roll {r1}" + (" x2 (French pilots on strike)" if s["french"] else "")),
                       ("C119", n119, f"roll {r2}" + (" / 2 rounded down" if halve else
                                                        " not halved (American pilots on strike)"))):
        pool = st.in_box("available", t)
        gone = pool[:n]
        for a in gone:
            st.box[a] = "flown"
        res.add("C 30", f"{t}: {text} = {n} committed elsewhere; {len(gone)} of {len(pool)} to Unavailable and Flown",
                result=n)
    if s["american"] and s["american_day"] <= 3:
        grounded = st.in_box("available", "C119")
        res.add("C 32", "American pilots on strike (days 1-3): no C119 may fly" + (
            f" ({', '.join(grounded)} stay on the ground)" if grounded else ""))


def end_phase_air(state) -> None:
    """Clear the per-phase bookkeeping when an air phase ends."""
    st = state.air
    st.sorties = [s for s in st.sorties if not s.done]
    st.aa_fired.clear()
    st.fired_at.clear()
    st.takeoff_fired_at.clear()
    st.suppressed.clear()
    st.stage = ""
