"""Rule 15: logistics. Supply points, lines of supply from bases, and what the points buy.

The pieces, in rulebook order:

* :class:`Logistics` keeps each side's supply-point index (15.1, 15.11), the fortification markers
  bought with supply (15.31, 16.1) and the airborne supply markers on the map (15.7x). Spending more than
  the index holds is a :class:`~wargames.core.errors.RuleViolation`; losses stop at zero (15.6).
* :func:`trace_los` finds a line of supply from a friendly base to a hex (15.2-15.231, 11.6, 26.3(4)), after
  checking that the base itself reaches an ultimate supply source (:func:`ultimate_source`, 15.24, 15.241).
* The logistical functions of 15.3 check the line, charge the points and report: :func:`entrench`
  (15.31, 16.1), :func:`forced_march` (15.32, 9.4), :func:`attack_enhancement` and
  :func:`defense_enhancement` (15.34, 15.35, 13.23), :func:`recover` (14.5, 14.51, 15.36, 15.9).
* :func:`base_destroyed` applies the die-roll loss and the enemy's capture of supply (15.6).

Map vocabulary (our own; the printed map is absent from the text): a **base** is a unit whose counter type
is ``"base"`` (bases count as combat units, 20.2). A hex is a **city** with the ``city`` feature and a
**port** with a ``port`` feature or a true ``port`` attribute. The attribute ``country: China`` marks China;
a hex is on the **north edge** if its ``north_edge`` attribute is true or the hex north of it is off the map.
An all-sea hexside carries the hexside feature ``all_sea``.

Readings of unclear text (all in the chapter, rule15.md):

* FEF line (15.21): the road/trail part starts at the base and runs along a continuous road or trail (both
  hexes of each step share a road, or both share a trail); the off-road part (at most 2, 1 in the monsoon)
  comes after it. A base off any road can still supply the hexes within the off-road allowance.
* A disrupted FEF base shortens only the road/trail part (16 -> 8). A disrupted Communist base gives 3;
  in the monsoon the Communist radius is 3 whether or not the base is disrupted (the smaller limit wins).
* Every hex of the line after the base, the last one included, must be "friendly" (15.23): no enemy unit,
  and not in an enemy ZOC unless a unit of the tracing side stands there (11.6).
* Airborne supply pays for enhancement, recovery of one unit in its hex and fortification (15.74), never
  forced march (catalog B5 #30). Using a marker expends it.
* 15.6 capture: half of the points actually deducted (after the floor at zero), rounded up (catalog B5 #31).
* 15.9: a disrupted base that reaches an ultimate source may recover itself (its own hex is on its own line);
  once recovered it is combat effective, so it then supplies at the full lengths.
"""
from __future__ import annotations

import copy

from collections import deque
from dataclasses import dataclass, field
from typing import Iterable

from ..core import Hex, Resolution, implements
from ..core.dice import Dice, roll_die
from ..core.errors import DataError, RuleViolation
from ..core.paths import cheapest_path
from .combat import Side
from .state import IndochinaState
from .units import UnitState
from .zoc import enemy_zoc, zoc_hexes

# 15.21, 15.22, 26.3(4): the limits of a line of supply.
FEF_ROAD = 16
FEF_ROAD_DISRUPTED = 8
FEF_OFF_ROAD = 2
FEF_OFF_ROAD_MONSOON = 1
COMMUNIST_RADIUS = 6
COMMUNIST_RADIUS_DISRUPTED = 3
COMMUNIST_RADIUS_MONSOON = 3
CHINA_EDGE_YEAR = 1950          # 15.24(2)

NORTH = Hex(0, -1)              # flat-topped axial: the hex straight above


# ----------------------------------------------------------------------------------------------- the ledger
@dataclass
class AirborneSupply:
    """An airborne supply marker on the map (15.7). It never moves and ignores stacking and combat (15.73).

    ``dropped`` is the number of the player turn in which it landed (any increasing count of player turns).
    """

    id: str
    side: Side
    hex: Hex
    dropped: int


@implements("IC 15.0", "IC 15.1", "IC 15.11")
@dataclass
class Logistics:
    """The logistic position beside an :class:`IndochinaState`: supply points, fortifications, airborne supply.

    ``year`` is the calendar year of the current turn (it opens the Chinese north edge as a Communist source
    from 1950, 15.24). Points are whole numbers and never negative (15.1, 15.6).
    """

    points: dict[Side, int] = field(default_factory=lambda: {Side.FEF: 0, Side.COMMUNIST: 0})
    year: int | None = None
    fortifications: set[Hex] = field(default_factory=set)
    airborne: list[AirborneSupply] = field(default_factory=list)
    water_traffic: bool = False     # lines may also cross lake and sea (the experimental Naval Operations)

    def __post_init__(self) -> None:
        for side in Side:
            self.points.setdefault(side, 0)
        for side, n in self.points.items():
            _check_amount(n, f"points[{Side(side).value}]")

    def spend(self, side: Side, n: int, rule: str, what: str, res: Resolution) -> None:
        """Lower the side's index by ``n`` (15.11). More than the index holds is a violation of ``rule``."""
        _check_amount(n, "amount")
        have = self.points[side]
        if n > have:
            raise RuleViolation(rule, f"{what} costs {n} supply point(s) but the {side.value} index holds only {have}")
        self.points[side] = have - n
        res.add("IC 15.11", f"{side.value} spends {n} supply point(s) for {what}",
                arithmetic=f"{have} - {n} = {have - n}", result=have - n)

    def gain(self, side: Side, n: int, rule: str, why: str, res: Resolution) -> None:
        _check_amount(n, "amount")
        before = self.points[side]
        self.points[side] = before + n
        res.add(rule, f"{side.value} gains {n} supply point(s): {why}", arithmetic=f"{before} + {n} = {before + n}",
                result=before + n)

    def deduct(self, side: Side, n: int, rule: str, why: str, res: Resolution) -> int:
        """Lose up to ``n`` points, stopping at zero (15.6). Returns the number actually lost."""
        _check_amount(n, "amount")
        before = self.points[side]
        lost = min(n, before)
        self.points[side] = before - lost
        res.add(rule, f"{side.value} loses {lost} supply point(s): {why}"
                + ("" if lost == n else f" (only {before} left, the index stops at 0)"),
                arithmetic=f"{before} - {lost} = {before - lost}", result=lost)
        return lost

    def marker(self, marker_id: str) -> AirborneSupply:
        for m in self.airborne:
            if m.id == marker_id:
                return m
        raise RuleViolation("IC 15.74", f"there is no airborne supply marker {marker_id!r} on the map")


def _check_amount(n, where: str) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise DataError("logistics", where, f"supply points must be a whole number >= 0, not {n!r}")


@implements("IC 15.3")
def logistical_cost(function: str, in_enemy_zoc: bool = False) -> int:
    """What each logistical function of 15.3 costs in supply points.

    ``entrench`` 1 per fortification, ``forced march`` 1 per hex, ``sortie`` 1 per air unit (15.33, in
    :mod:`air`), ``attack`` / ``defense`` 1 per hex and combat, ``recovery`` 1 per unit or 2 in an enemy ZOC.
    """
    costs = {"entrench": 1, "forced march": 1, "sortie": 1, "attack": 1, "defense": 1, "recovery": 1}
    if function not in costs:
        raise DataError("logistics", "function", f"unknown logistical function {function!r}; one of {sorted(costs)}")
    return 2 if function == "recovery" and in_enemy_zoc else costs[function]


@implements("IC 15.4")
def supply_multiplier(enhanced: bool) -> int:
    """Spending is optional (15.4): without it units use their printed values (x1); with it, x2."""
    return 2 if enhanced else 1


@implements("IC 15.5", "IC 4.0", "IC 4.3")
def friendly_units(st: IndochinaState, side: Side, h: Hex) -> list[UnitState]:
    """Units a side's supply may serve in a hex: every nationality of that side alike (15.5, 4.3)."""
    return st.units_at(h, side)


# ------------------------------------------------------------------------------------------ hexes and routes
def _china(st: IndochinaState, h: Hex) -> bool:
    return st.map.info(h).attr("country") == "China"


def _north_edge(st: IndochinaState, h: Hex) -> bool:
    flag = st.map.info(h).attr("north_edge")
    return bool(flag) if flag is not None else (h + NORTH) not in st.map


def _routes(st: IndochinaState, side: Side) -> tuple[str, ...]:
    """Route types a line may follow: the FEF loses trails in the monsoon (26.3(4))."""
    return ("road",) if side is Side.FEF and st.monsoon else ("road", "trail")


def _on_route(st: IndochinaState, a: Hex, b: Hex, routes: tuple[str, ...]) -> bool:
    return any(st.has(a, r) and st.has(b, r) for r in routes)


def _enemy_zoc(st: IndochinaState, side: Side, ignore_heavy: bool = False) -> set[Hex]:
    if not ignore_heavy:
        return enemy_zoc(st, side)
    out: set[Hex] = set()
    for u in st.on_map(side.enemy):
        if ignore_heavy and u.counter.unit_class == "Heavy":
            continue
        out |= zoc_hexes(st, u)
    return out


def _occupancy(st: IndochinaState) -> dict[Side, set[Hex]]:
    """The hexes holding units of each side, found once for a whole search. The militia printed in an
    FEF-held city or town counts as an FEF unit there (17.2, 17.13): it closes the hex to Communist lines."""
    out: dict[Side, set[Hex]] = {s: set() for s in Side}
    for u in st.on_map():
        out[u.side].add(u.hex)
    out[Side.FEF] |= {h for h in _urban_hexes(st) if st.fef_militia(h) > 0}
    return out


def _urban_hexes(st: IndochinaState) -> list[Hex]:
    memo = _URBAN.get(id(st.map))
    if memo is None or memo[0] is not st.map:
        memo = (st.map, [h for h in st.map.hexes if st.is_urban(h)])
        _URBAN[id(st.map)] = memo
    return memo[1]


_URBAN: dict = {}


@implements("IC 15.23", "IC 15.231", "IC 11.6")
def supply_block(st: IndochinaState, side: Side, frm: Hex | None, h: Hex, zoc: set[Hex] | None = None,
                 occupied: dict[Side, set[Hex]] | None = None) -> str:
    """Why a line of supply of ``side`` may not enter ``h`` (from ``frm``), or ``""`` if it may.

    Closed: hexes off the map, all-sea hexes and hexsides, hexes with enemy units, China for the FEF (15.231),
    and hexes in an enemy ZOC that no unit of the side occupies (15.23, 11.6). Lakes and every other terrain
    are open and cost nothing extra.
    """
    if h not in st.map:
        return "off the map"
    if st.terrain(h) == "all_sea":
        return "an all-sea hex"
    if frm is not None and _across_sea(st, frm, h):
        return "across an all-sea hexside"
    occupied = _occupancy(st) if occupied is None else occupied
    if h in occupied[side.enemy]:
        return "enemy units"
    if side is Side.FEF and _china(st, h):
        return "China (closed to FEF supply)"
    zoc = _enemy_zoc(st, side) if zoc is None else zoc
    if h in zoc and h not in occupied[side]:
        return "an enemy ZOC with no friendly unit in it"
    return ""


def _across_sea(st: IndochinaState, frm: Hex, h: Hex) -> bool:
    return "all_sea" in st.map.side(frm, h)


def _supply_gate(st: IndochinaState, side: Side, zoc: set[Hex], occupied: dict[Side, set[Hex]]):
    """:func:`supply_block` as a yes/no for one search, where the position does not change: what closes a hex
    itself is found once per hex (a search enters a hex from up to six neighbours), the hexside at each step."""
    closed: dict[Hex, bool] = {}
    sea_sides = bool(st.map.hexsides)

    def blocked(frm: Hex, h: Hex) -> bool:
        shut = closed.get(h)
        if shut is None:
            shut = closed[h] = bool(supply_block(st, side, None, h, zoc, occupied))
        return shut or (sea_sides and _across_sea(st, frm, h))
    return blocked


# ------------------------------------------------------------------------------------ ultimate supply sources
def _is_source(st: IndochinaState, side: Side, h: Hex, year: int | None,
               occupancy: dict[Side, set[Hex]] | None = None) -> str:
    occupied = h in occupancy[side] if occupancy is not None else bool(st.units_at(h, side))
    if side is Side.FEF:
        occupied = occupied or st.fef_militia(h) > 0       # our reading: FEF militia occupies its hex (17.2, 24.1)
        if occupied and st.has(h, "city"):
            return "an FEF-occupied city"
        if occupied and st.is_port(h):
            return "an FEF-occupied port"
        return ""
    if occupied and st.has(h, "city"):
        return "a Communist-occupied city"
    if (year is not None and year >= CHINA_EDGE_YEAR and _china(st, h) and _north_edge(st, h)
            and (st.has(h, "road") or st.has(h, "trail"))):
        return f"a road or trail hex on China's north edge (open from {CHINA_EDGE_YEAR})"
    return ""


_SOURCES: dict = {}          # a position's fingerprint, side, base hex, year -> the search's Resolution


def _fingerprint(st: IndochinaState) -> tuple:
    """Everything a supply search reads from the position besides the map: who stands where, on which side
    of his counter, who controls the cities, and the weather."""
    return (id(st.map), id(st.charts), st.monsoon, frozenset(st.communist_cities), frozenset(st.neutral_cities),
            tuple(sorted((u.hex.q, u.hex.r, u.counter.side.value, u.counter.id, u.disrupted) for u in st.on_map())))


@implements("IC 15.24", "IC 15.241")
def ultimate_source(st: IndochinaState, side: Side, base_hex: Hex, year: int | None = None,
                    zoc: set[Hex] | None = None) -> Resolution:
    """Does a base reach an ultimate supply source? (:func:`_ultimate_source`, remembered per position: the
    legal-move search asks it again for every candidate that needs supply.)"""
    key = (_fingerprint(st), side, base_hex, year, None if zoc is None else frozenset(zoc))
    hit = _SOURCES.get(key)
    if hit is not None and hit[0] is st.map:
        return copy.deepcopy(hit[1])
    res = _ultimate_source(st, side, base_hex, year, zoc)
    if len(_SOURCES) > 256:
        _SOURCES.clear()
    _SOURCES[key] = (st.map, copy.deepcopy(res))
    return res


def _ultimate_source(st: IndochinaState, side: Side, base_hex: Hex, year: int | None = None,
                     zoc: set[Hex] | None = None) -> Resolution:
    """Does a base reach an ultimate supply source? Any length, through hexes :func:`supply_block` allows.

    FEF sources: a city or port with an FEF unit in it. Communist sources: a city with a Communist unit, or
    (from 1950) a road or trail hex of China on the north map edge. An occupied source counts even inside an
    enemy ZOC, since the occupant cancels the ZOC. ``result`` is the path, base first, or None.
    """
    res = Resolution()
    zoc = _enemy_zoc(st, side) if zoc is None else zoc
    occ = _occupancy(st)
    blocked = _supply_gate(st, side, zoc, occ)
    found = cheapest_path(base_hex, lambda h: bool(_is_source(st, side, h, year, occ)), st.map.neighbors,
                          lambda h, n: None if blocked(h, n) else 1)
    if found is not None:
        path, h = found[0], found[0][-1]
        res.add("IC 15.24", f"the base at {st.label(base_hex)} reaches {_is_source(st, side, h, year, occ)} at "
                f"{st.label(h)} in {len(path) - 1} hex(es): {_labels(st, path)}", result=st.label(h))
        res.result = tuple(path)
        return res
    extra = ("" if side is Side.FEF else
             f"; the China edge counts only from {CHINA_EDGE_YEAR}" + (f" (year {year})" if year else " (year unknown)"))
    res.add("IC 15.241", f"the base at {st.label(base_hex)} reaches no ultimate supply source through friendly "
            f"hexes{extra}", result=None)
    return res


# ------------------------------------------------------------------------------------------ lines of supply
@dataclass(frozen=True)
class SupplyLine:
    """A line found by :func:`trace_los`: the base, the hexes (base first) and the length of each part."""

    base: str
    path: tuple[Hex, ...]
    road: int = 0
    off_road: int = 0

    def to_dict(self) -> dict:
        return {"base": self.base, "hexes": len(self.path) - 1, "road": self.road, "off_road": self.off_road}


def los_limits(side: Side, base_disrupted: bool, monsoon: bool) -> tuple[int, int]:
    """(road/trail hexes, other hexes) a line may use. The Communist line has no road part."""
    if side is Side.FEF:
        road = FEF_ROAD_DISRUPTED if base_disrupted else FEF_ROAD
        return road, FEF_OFF_ROAD_MONSOON if monsoon else FEF_OFF_ROAD
    radius = COMMUNIST_RADIUS_DISRUPTED if base_disrupted else COMMUNIST_RADIUS
    if monsoon:
        radius = min(radius, COMMUNIST_RADIUS_MONSOON)
    return 0, radius


def supply_search(st: IndochinaState, side: Side, start: Hex, target: Hex, road_max: int, off_max: int,
            zoc: set[Hex], blocked=None) -> tuple[list[Hex], int, int] | None:
    """Breadth-first search over (hex, road hexes used, other hexes used): the shortest legal line.

    A road step needs both hexes on the same route type, and no road step may follow an off-road one.
    ``blocked(h, n, off_part)`` says whether the step h -> n is closed as a road (False) or an off-road
    (True) step; by default it is :func:`supply_block` either way. The experimental naval rule passes its own.
    """
    if blocked is None:
        gate = _supply_gate(st, side, zoc, _occupancy(st))

        def blocked(h: Hex, n: Hex, off_part: bool) -> bool:
            return gate(h, n)
    routes = _routes(st, side)
    begin = (start, 0, 0)
    prev: dict[tuple[Hex, int, int], tuple[Hex, int, int] | None] = {begin: None}
    # Breadth first, the first arrival at a hex with a given off-road count has used the fewest hexes, so the
    # fewest road hexes too: any later arrival there is no better (so the search is over hexes, not paths).
    seen: set[tuple[Hex, int]] = {(start, 0)}
    queue = deque([begin])
    while queue:
        state = queue.popleft()
        h, road, off = state
        if h == target:
            path = [state]
            while prev[path[-1]] is not None:
                path.append(prev[path[-1]])
            return [s[0] for s in reversed(path)], road, off
        for n in st.map.neighbors(h):
            left = (road_max - road if off == 0 else 0) + off_max - off - 1      # steps left after this one
            if n.distance(target) > left:                  # the target is out of reach from there
                continue
            nxt = []
            if off == 0 and road < road_max and _on_route(st, h, n, routes) and not blocked(h, n, False):
                nxt.append((n, road + 1, 0))
            if off < off_max and not blocked(h, n, True):
                nxt.append((n, road, off + 1))
            for s in nxt:
                if (s[0], s[2]) not in seen:
                    seen.add((s[0], s[2]))
                    prev[s] = state
                    queue.append(s)
    return None


def source_region(st: IndochinaState, side: Side, year: int | None = None, zoc: set[Hex] | None = None,
                  occupied: dict[Side, set[Hex]] | None = None) -> set[Hex]:
    """Every hex from which a line through friendly hexes reaches an ultimate supply source (15.24): a base
    there serves exactly when :func:`ultimate_source` finds a path from it. One search backwards from all the
    sources at once."""
    zoc = _enemy_zoc(st, side) if zoc is None else zoc
    occ = _occupancy(st) if occupied is None else occupied
    region = {h for h in st.map.hexes if _is_source(st, side, h, year, occ)}
    blocked = _supply_gate(st, side, zoc, occ)
    queue = deque(region)
    while queue:
        y = queue.popleft()
        for x in st.map.neighbors(y):
            if x not in region and not blocked(x, y):
                region.add(x)
                queue.append(x)
    return region


def supplied_hexes(st: IndochinaState, side: Side, year: int | None = None) -> set[Hex]:
    """Every hex some line of supply of ``side`` reaches now: the hexes :func:`trace_los` would find a line to,
    found with one search from each serving base instead of one search per hex (15.2-15.24)."""
    zoc = _enemy_zoc(st, side)
    occ = _occupancy(st)
    routes = _routes(st, side)
    out: set[Hex] = set()
    region = source_region(st, side, year, zoc, occ)
    blocked = _supply_gate(st, side, zoc, occ)
    for b in (u for u in st.on_map(side) if u.counter.type == "base"):
        if b.hex not in region:
            continue
        road_max, off_max = los_limits(side, b.disrupted, st.monsoon)
        seen = {(b.hex, 0)}
        queue = deque([(b.hex, 0, 0)])
        while queue:
            h, road, off = queue.popleft()
            out.add(h)
            for n in st.map.neighbors(h):
                nxt = []
                if off == 0 and road < road_max and _on_route(st, h, n, routes) and not blocked(h, n):
                    nxt.append((n, road + 1, 0))
                if off < off_max and not blocked(h, n):
                    nxt.append((n, road, off + 1))
                for state in nxt:
                    if (state[0], state[2]) not in seen:
                        seen.add((state[0], state[2]))
                        queue.append(state)
    return out


@implements("IC 15.2", "IC 15.21", "IC 15.22", "IC 26.3")
def trace_los(st: IndochinaState, side: Side, target: Hex | str, year: int | None = None,
              bases: Iterable[str] | None = None) -> Resolution:
    """Trace a line of supply for ``side`` to ``target``; ``result`` is a :class:`SupplyLine` or None.

    Every friendly base on the map is tried (or only ``bases``). A base serves only if it reaches an ultimate
    source (15.24). From it the FEF follows up to 16 road/trail hexes (8 from a disrupted base), then up to 2
    more hexes of any kind (1 in the monsoon, when trails are closed too) (15.21, 26.3). The Communist line
    runs up to 6 hexes of any kind (3 from a disrupted base or in the monsoon) (15.22, 26.3). Terrain costs
    nothing; the hexes must be friendly (15.23, 15.231, 11.6). The shortest line wins, then the base id.
    """
    if isinstance(target, str):
        target = st.map.hex(target)
    res = Resolution()
    zoc = _enemy_zoc(st, side)
    found: list[SupplyLine] = []
    wanted = set(bases) if bases is not None else None
    candidates = [u for u in st.on_map(side) if u.counter.type == "base" and (wanted is None or u.id in wanted)]
    if not candidates:
        res.add("IC 15.2", f"{side.value} has no base on the map to trace a line of supply from", result=None)
        return res
    for b in sorted(candidates, key=lambda u: u.id):
        src = ultimate_source(st, side, b.hex, year, zoc)
        if src.result is None:
            res.add("IC 15.24", f"base {b.id} at {st.label(b.hex)} cannot serve: {src.steps[-1].text}")
            continue
        road_max, off_max = los_limits(side, b.disrupted, st.monsoon)
        rule = "IC 15.21" if side is Side.FEF else "IC 15.22"
        if b.hex.distance(target) > road_max + off_max:    # too far for any line from this base
            res.add(rule, f"base {b.id} at {st.label(b.hex)} is {b.hex.distance(target)} hexes from "
                    f"{st.label(target)}, beyond its {road_max + off_max}-hex reach", inputs_base=b.id)
            continue
        state_word = "disrupted" if b.disrupted else "combat effective"
        if side is Side.FEF:
            limits = f"{road_max} road" + ("" if st.monsoon else "/trail") + f" hexes + {off_max} other"
        else:
            limits = f"{off_max} hexes"
        got = supply_search(st, side, b.hex, target, road_max, off_max, zoc)
        if got is None:
            res.add(rule, f"base {b.id} ({state_word}, {st.label(b.hex)}): no friendly line of at most {limits} "
                    f"reaches {st.label(target)}", inputs_base=b.id)
            continue
        path, road, off = got
        line = SupplyLine(b.id, tuple(path), road, off)
        found.append(line)
        part = f"{road} road/trail + {off} other" if side is Side.FEF else f"{off}"
        res.add(rule, f"base {b.id} ({state_word}, {st.label(b.hex)}) reaches {st.label(target)} in {part} "
                f"hex(es), limit {limits}: {_labels(st, path)}", result=line)
    if st.monsoon:
        res.add("IC 26.3", "monsoon: " + ("off-road part cut to 1 hex, no trails" if side is Side.FEF
                                          else "radius cut to 3 hexes"))
    if not found:
        why = supply_block(st, side, None, target, zoc)
        extra = f" ({st.label(target)} itself is closed: {why})" if why else ""
        res.add("IC 15.2", f"no line of supply reaches {st.label(target)}{extra}", result=None)
        res.result = None
        return res
    best = min(found, key=lambda s: (len(s.path), s.base))
    res.add("IC 15.2", f"line of supply from base {best.base}: {_labels(st, best.path)}", result=best)
    res.result = best
    return res


def _labels(st: IndochinaState, path: Iterable[Hex]) -> str:
    return " -> ".join(st.label(h) for h in path)


#: the line of supply over water (set by :mod:`experimental`, which builds on this module): (st, side, hex, year)
WATER_LINE = None


def _need_line(st: IndochinaState, side: Side, h: Hex, year: int | None, rule: str, what: str,
               res: Resolution, lg: "Logistics | None" = None) -> SupplyLine:
    los = trace_los(st, side, h, year)
    if los.result is None and lg is not None and lg.water_traffic and WATER_LINE is not None:
        los = WATER_LINE(st, side, h, year)                # river and coastal traffic (experimental)
    res.extend(los)
    if los.result is None:
        raise RuleViolation(rule, f"{what} needs a line of supply to {st.label(h)}, and none exists")
    return los.result


def _use_marker(st: IndochinaState, lg: Logistics, side: Side, marker_id: str, h: Hex, what: str,
                res: Resolution) -> None:
    m = lg.marker(marker_id)
    if m.side is not side:
        raise RuleViolation("IC 15.74", f"marker {marker_id} belongs to the {m.side.value} player")
    if m.hex != h:
        raise RuleViolation("IC 15.74", f"airborne supply serves only its own hex {st.label(m.hex)}, "
                            f"not {st.label(h)}")
    lg.airborne.remove(m)
    res.add("IC 15.74", f"airborne supply marker {marker_id} at {st.label(h)} pays for {what} and is used up")


def _hex(st: IndochinaState, h: Hex | str) -> Hex:
    return st.map.hex(h) if isinstance(h, str) else h


# ------------------------------------------------------------------------------------ logistical functions
@implements("IC 15.31", "IC 16.1")
def entrench(st: IndochinaState, lg: Logistics, side: Side, where: Hex | str,
             airborne: str | None = None) -> Resolution:
    """Build a fortification (Reorganization phase): a friendly combat unit in the hex, and one supply point
    through a line of supply or one airborne supply marker in the hex (15.31, 16.1). One per hex (16.2)."""
    h = _hex(st, where)
    res = Resolution()
    if not friendly_units(st, side, h):
        raise RuleViolation("IC 16.1", f"a fortification at {st.label(h)} needs a friendly combat unit there")
    if h in lg.fortifications:
        raise RuleViolation("IC 16.2", f"{st.label(h)} already has a fortification")
    if airborne is not None:
        _use_marker(st, lg, side, airborne, h, "a fortification", res)
    else:
        _need_line(st, side, h, lg.year, "IC 15.31", "a fortification", res, lg)
        lg.spend(side, logistical_cost("entrench"), "IC 15.31", f"a fortification at {st.label(h)}", res)
    lg.fortifications.add(h)
    res.add("IC 16.1", f"fortification placed at {st.label(h)}", result=st.label(h))
    res.result = st.label(h)
    return res


@implements("IC 15.32", "IC 9.4")
def forced_march(st: IndochinaState, lg: Logistics, side: Side, where: Hex | str) -> Resolution:
    """One supply point, paid when the units start moving, lets every friendly unit in one hex double its
    movement factor this Movement phase (15.32, 9.4). The hex must be in supply; airborne supply cannot pay
    (our reading). ``result`` maps unit id to its doubled allowance; move them with ``forced_march=True``."""
    h = _hex(st, where)
    res = Resolution()
    units = [u for u in friendly_units(st, side, h) if u.counter.type != "base" or u.movement > 0]
    if not units:
        raise RuleViolation("IC 15.32", f"no friendly unit at {st.label(h)} to force march")
    _need_line(st, side, h, lg.year, "IC 9.4", "forced march", res, lg)
    lg.spend(side, logistical_cost("forced march"), "IC 15.32", f"forced march from {st.label(h)}", res)
    allow = {u.id: u.movement * 2 for u in units}
    res.add("IC 9.4", "forced march doubles: " + ", ".join(f"{u.id} {u.movement} -> {allow[u.id]}" for u in units),
            result=allow)
    res.result = allow
    return res


def _enhance(st: IndochinaState, lg: Logistics, side: Side, where: Hex | str, airborne: str | None,
             rule: str, word: str) -> Resolution:
    h = _hex(st, where)
    res = Resolution()
    units = friendly_units(st, side, h)
    if not units:
        raise RuleViolation(rule, f"no friendly unit at {st.label(h)} to receive {word} enhancement")
    if airborne is not None:
        _use_marker(st, lg, side, airborne, h, f"{word} enhancement", res)
    else:
        _need_line(st, side, h, lg.year, rule, f"{word} enhancement", res, lg)
        lg.spend(side, logistical_cost(word), rule, f"{word} enhancement at {st.label(h)}", res)
    total = sum(u.strength for u in units)
    res.add(rule, f"{word} enhancement doubles the {len(units)} unit(s) at {st.label(h)} for one combat "
            f"(13.23)", arithmetic=f"{total} x {supply_multiplier(True)} = {total * 2}",
            result={"units": [u.id for u in units], "strength": total * 2})
    res.result = {"units": [u.id for u in units], "strength": total * 2, "factor": 2}
    return res


@implements("IC 15.34", "IC 13.23")
def attack_enhancement(st: IndochinaState, lg: Logistics, side: Side, where: Hex | str,
                       airborne: str | None = None) -> Resolution:
    """One supply point (or the hex's airborne supply) doubles all attackers from one hex for one combat
    (15.34); pass ``attack_enhanced=True`` to :class:`~wargames.indochina.combat.Combat` (13.23)."""
    return _enhance(st, lg, side, where, airborne, "IC 15.34", "attack")


@implements("IC 15.35", "IC 13.23")
def defense_enhancement(st: IndochinaState, lg: Logistics, side: Side, where: Hex | str,
                        airborne: str | None = None) -> Resolution:
    """One supply point (or the hex's airborne supply) doubles all defenders in one hex for one combat
    (15.35); pass ``defence_enhanced=True`` to :class:`~wargames.indochina.combat.Combat` (13.23)."""
    return _enhance(st, lg, side, where, airborne, "IC 15.35", "defense")


@implements("IC 14.5", "IC 14.51", "IC 15.36", "IC 15.9")
def recover(st: IndochinaState, lg: Logistics, uid: str, airborne: str | None = None) -> Resolution:
    """Flip one disrupted unit to its combat-effective side (friendly Recovery phase).

    It costs one supply point through a line of supply, two if the unit stands in an enemy ZOC, where a
    Light unit disregards the ZOC of Heavy enemy units (14.51, 15.36). Instead, an airborne supply marker in
    the unit's hex may pay for it (15.74). A disrupted base that reaches an ultimate source supplies itself
    through its own line (15.9).
    """
    u = st.unit(uid)
    res = Resolution()
    if not u.on_map:
        raise RuleViolation("IC 14.5", f"{uid} is not on the map")
    if not u.disrupted:
        raise RuleViolation("IC 15.36", f"{uid} is not disrupted, so there is nothing to recover")
    light = u.counter.unit_class == "Light"
    in_zoc = u.hex in _enemy_zoc(st, u.side, ignore_heavy=light)
    if light and not in_zoc and u.hex in _enemy_zoc(st, u.side):
        res.add("IC 14.51", f"{uid} is Light: the Heavy enemy ZOC on {st.label(u.hex)} does not count")
    cost = logistical_cost("recovery", in_zoc)
    res.add("IC 14.51", f"{uid} at {st.label(u.hex)} is {'in' if in_zoc else 'not in'} an enemy ZOC: "
            f"recovery costs {cost}", result=cost)
    if airborne is not None:
        _use_marker(st, lg, u.side, airborne, u.hex, f"the recovery of {uid}", res)
    else:
        line = _need_line(st, u.side, u.hex, lg.year, "IC 14.51", f"the recovery of {uid}", res, lg)
        if line.base == uid:
            res.add("IC 15.9", f"base {uid} is disrupted but reaches an ultimate source: it supplies its own recovery")
        lg.spend(u.side, cost, "IC 15.36", f"the recovery of {uid}", res)
    u.disrupted = False
    res.add("IC 15.36", f"{uid} recovers: strength {u.strength}, movement {u.movement}", result="recovered")
    res.result = "recovered"
    return res


# ----------------------------------------------------------------------------------- destruction and capture
@implements("IC 15.6")
def base_destroyed(st: IndochinaState, lg: Logistics, base_id: str, dice: Dice, land_combat: bool = True,
                   enemy_advanced: bool = False) -> Resolution:
    """A base eliminated by combat: its owner rolls one die and loses that many points (not below 0). After
    land combat with an enemy advance into the hex, the enemy gains half the points lost, rounded up."""
    b = st.unit(base_id)
    if b.counter.type != "base":
        raise RuleViolation("IC 15.6", f"{base_id} is a {b.counter.type}, not a base")
    res = Resolution()
    b.eliminated = True
    roll = roll_die(dice, 6, f"15.6 supply lost with base {base_id}")
    res.add("IC 15.6", f"base {base_id} eliminated; its owner rolls {roll}", result=roll)
    lost = lg.deduct(b.side, roll, "IC 15.6", f"base {base_id} destroyed", res)
    captured = 0
    if land_combat and enemy_advanced:
        captured = -(-lost // 2)
        lg.gain(b.side.enemy, captured, "IC 15.6",
                f"captured at {st.label(b.hex)}, half of {lost} rounded up", res)
    else:
        res.add("IC 15.6", "no capture: " + ("not land combat" if not land_combat else "no enemy unit advanced in"))
    res.result = {"roll": roll, "lost": lost, "captured": captured}
    return res


# ------------------------------------------------------------------------------------------ airborne supply
@implements("IC 15.7", "IC 15.73")
def land_airborne_supply(st: IndochinaState, lg: Logistics, marker_id: str, side: Side, where: Hex | str,
                         player_turn: int) -> Resolution:
    """Put an airborne supply marker on the map (the flight itself is :mod:`air`'s business, 12.46, 15.72).

    The marker never moves again and ignores stacking and combat results (15.73); it needs no line of supply.
    """
    h = _hex(st, where)
    if any(m.id == marker_id for m in lg.airborne):
        raise DataError("logistics", marker_id, "this airborne supply marker is already on the map")
    if st.units_at(h, side.enemy):
        raise RuleViolation("IC 15.7", f"airborne supply cannot land on enemy units at {st.label(h)}")
    lg.airborne.append(AirborneSupply(marker_id, side, h, player_turn))
    res = Resolution()
    res.add("IC 15.73", f"airborne supply {marker_id} lands at {st.label(h)} in player turn {player_turn}; "
            "it will not move", result=st.label(h))
    res.result = st.label(h)
    return res


@implements("IC 15.74", "IC 15.75")
def check_airborne_supply(st: IndochinaState, lg: Logistics, player_turn: int | None = None,
                          end_of_turn: bool = False) -> Resolution:
    """Remove airborne supply that is gone: the enemy is in its hex or no friendly unit is left there (15.75),
    or (``end_of_turn``) the player turn after its drop is ending (15.74)."""
    res = Resolution()
    keep = []
    for m in lg.airborne:
        why = ""
        if st.units_at(m.hex, m.side.enemy):
            why, rule = "the enemy occupies its hex", "IC 15.75"
        elif not st.units_at(m.hex, m.side):
            why, rule = "no friendly unit is left in its hex", "IC 15.75"
        elif end_of_turn and player_turn is not None and player_turn > m.dropped:
            why, rule = f"player turn {player_turn} follows its drop in turn {m.dropped}", "IC 15.74"
        if why:
            res.add(rule, f"airborne supply {m.id} at {st.label(m.hex)} removed: {why}", result=m.id)
        else:
            keep.append(m)
    lg.airborne[:] = keep
    res.result = [m.id for m in keep]
    return res
