"""Line of sight (F 7.3): traced exactly from centre dot to centre dot.

The core's exact line trace reports the hexes a line enters, the hexsides it runs along and the vertices it
passes through; the rules here decide what each means. A line that only touches a hex at a corner, or runs
along one hexside of a single blocking hex, does not pass "through" it (the LoS Example's 20.20-19.19 line).
Hexes without a dot (absent from the map) block like blocking terrain (F 1.2).
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core import Hex, implements, trace_line
from .state import FteState
from .terrain import blocking, elevation, is_slope, slope_elevation
from .units import Unit


@dataclass(frozen=True)
class Sight:
    """Whether a line of sight exists, and the rule and reason that decided it."""

    clear: bool
    rule: str
    reason: str

    def __bool__(self) -> bool:
        return self.clear


def _blocks(state: FteState, h: Hex, friendly_of: str | None) -> str:
    """Why hex h blocks a line (empty string: it does not)."""
    if h not in state.map:
        return f"{_lab(state, h)}, a hex with no dot (out of play)"
    if blocking(state.map, h, state.charts):
        return f"{state.label(h)}, blocking terrain ({state.map.terrain(h).replace('_', ' ')})"
    if friendly_of is not None:
        for u in state.units_at(h, friendly_of):
            if u.role == "civilians":
                continue  # civilians never block (F 7.3.2)
            if u.kind in ("infantry", "vehicle") or (u.kind == "helicopter" and u.altitude == "ground"):
                return f"{state.label(h)}, where a friendly unit ({u.id}) blocks fire"
    return ""


def _lab(state: FteState, h: Hex) -> str:
    try:
        return state.label(h)
    except ValueError:
        return str(h)


@implements("F 7.3", "F 7.3.1", "F 7.3.2")
def line_of_sight(state: FteState, a: Hex, b: Hex, *, fire_by: str | None = None, mortar: bool = False,
                  a_altitude: str | None = None, b_altitude: str | None = None) -> Sight:
    """LoS between hexes a and b.

    ``fire_by`` names the firing player: that player's infantry, vehicles and ground-level helicopters in
    between then block, unless the fire is a mortar's (F 7.0, F 7.3.2). ``a_altitude``/``b_altitude`` give a
    helicopter's level at either end (F 7.3.3).
    """
    if a == b:
        return Sight(True, "F 7.3.1", "the same hex")
    if a.is_adjacent(b):
        return Sight(True, "F 7.3.1", "adjacent hexes always have LoS")
    blocker = None if mortar else fire_by
    air = [(x, alt) for x, alt in ((a, a_altitude), (b, b_altitude)) if alt in ("high", "treetop")]
    if air:
        return _helicopter_sight(state, a, b, a_altitude, b_altitude, blocker)
    t = trace_line(a, b)
    for h in t.intervening:
        why = _blocks(state, h, blocker)
        if why:
            return Sight(False, "F 7.3.1", f"the line passes through {why}")
    for h1, h2 in t.along:
        w1, w2 = _blocks(state, h1, blocker), _blocks(state, h2, blocker)
        if w1 and w2:
            return Sight(False, "F 7.3.1", f"the line runs along the {_lab(state, h1)}|{_lab(state, h2)} hexside "
                                           f"with blocking on both sides ({w1}; {w2})")
    paddies = [h for h in t.intervening if state.map.terrain(h) == "rice_paddy"]
    if len(paddies) >= 3:
        return Sight(False, "F 7.3.1", f"the line passes through {len(paddies)} rice paddy hexes "
                                       f"({', '.join(state.label(h) for h in paddies)})")
    ea, eb = elevation(state.map, a), elevation(state.map, b)
    high = max(ea, eb)
    higher = a if ea > eb else b
    sides = list(t.crossings) + [(h1, h2) for h1, h2 in t.along]
    for h1, h2 in sides:
        if h1 not in state.map or h2 not in state.map or not is_slope(state.map, h1, h2):
            continue
        lvl = slope_elevation(state.map, h1, h2)
        name = f"the slope on the {state.label(h1)}|{state.label(h2)} hexside (elevation {lvl})"
        if lvl > high:
            return Sight(False, "F 7.3.1", f"the line crosses {name}, higher than both ends")
        if ea != eb and lvl == high and higher not in (h1, h2):
            return Sight(False, "F 7.3.1", f"the line crosses {name}, level with the higher end "
                                           f"{state.label(higher)} but not on its hexside")
    return Sight(True, "F 7.3.1", "nothing on the line blocks it")


@implements("F 7.3.3")
def _helicopter_sight(state, a, b, a_alt, b_alt, blocker) -> Sight:
    """LoS with a helicopter in the air (F 7.3.3): only blocking terrain beside a ground end (and, at Treetop,
    beside the helicopter too) can block; slopes and rice paddies are looked over."""
    ends = []
    for end, alt, other_alt in ((a, a_alt, b_alt), (b, b_alt, a_alt)):
        if alt not in ("high", "treetop"):
            ends.append(end)                         # a ground end
        elif alt == "treetop":
            ends.append(end)                         # a treetop helicopter's own surroundings count
    t = trace_line(a, b)
    near = lambda h: any(h.is_adjacent(e) for e in ends)
    for h in t.intervening:
        why = _blocks(state, h, blocker)
        if why and near(h):
            return Sight(False, "F 7.3.3", f"the line passes through {why}, next to a ground unit or a treetop helicopter")
    for h1, h2 in t.along:
        w1, w2 = _blocks(state, h1, blocker), _blocks(state, h2, blocker)
        if w1 and w2 and (near(h1) or near(h2)):
            return Sight(False, "F 7.3.3", f"the line runs between two blocking hexes next to a ground end ({w1}; {w2})")
    return Sight(True, "F 7.3.3", "a helicopter in the air sees over everything but cover next to the ground end")


def unit_sight(state: FteState, viewer: Unit, target: Unit | Hex, *, fire: bool = False, mortar: bool = False) -> Sight:
    """LoS from a unit to a unit or hex; with ``fire`` the viewer's friendly units in between block (F 7.0)."""
    th = target.hex if isinstance(target, Unit) else target
    t_alt = target.altitude if isinstance(target, Unit) else None
    return line_of_sight(state, viewer.hex, th, fire_by=viewer.player if fire else None, mortar=mortar,
                         a_altitude=viewer.altitude, b_altitude=t_alt)


def sees(state: FteState, viewer: Unit, target: Unit | Hex, **kw) -> bool:
    return bool(unit_sight(state, viewer, target, **kw))
