"""No Trumpets No Drums, rule 8: movement, one hex at a time.

A move is a sequence of single steps, because the enemy may interrupt it between two hexes: an ambush (20.2),
or an infiltration roll that fails (8.5.2). So a move is a :class:`Move` record (the unit's allowance and what it
has spent), begun by :func:`begin_move`; each step is priced by :func:`step_cost`, judged by :func:`check_step`
and made by :func:`step`, which returns the new position and the new record. The later Game asks the Communist
player between two steps.

Readings (each also stated where the code applies it):

* "Along" a road or trail (8.2.7): the step's two hexes both carry the route and, where the map names its routes
  (the shipped map does), share one named route of that kind; a named route is a road when every hex it passes
  has a road, otherwise a trail. Two parallel roads in adjacent hexes are not one road.
* Halvings: the monsoon (8.2.1, face-up units, the chart says which classes) and being out of supply at the start
  of the movement phase (18.2.1.3) each halve the allowance, and both together quarter it.
* Local VC (8.3) hits every Allied unit except naval, patrol and airmobile ones (7.4.3 names those exemptions
  for the same penalty), rangers included: they pay 1, plus 1 in a non-clear hex.
* A zone of control stops a face-up unit in the hex it enters (8.5.2), whether or not it began the move in a
  zone (8.5.2.1: leaving is free, entering any zone-of-control hex stops it). A zone of control does not reach
  into all-sea hexes (where no ground unit goes), so the fleet at sea ignores it.
* A zone of influence doubles the cost of each of its hexes that a face-up Communist unit enters, wherever the
  unit began (8.5.3.1); an inverted unit must infiltrate into each such hex.
* Airmobile units (8.2, 5.5): in clear weather their unlimited move stays within the area they started in and
  the areas bordering it (inventory 6.15: "its corps" is the one it occupies); in the monsoon they have 9 points.
* Corps confinement (5.3, 5.3.1): an attached unit enters only its corps and a bordering Laos or Cambodia; one
  that starts its move outside them (after a retreat) may move anywhere, as it must find its way back.
* Neutrality (10.2, 10.5.1, 10.8): moving into a neutral state is not refused; the step returns a
  :class:`Consequence` the caller charges (political points, the state joining the Allies, North Vietnam invaded).
* A zone step (9.1) is the unit's whole move: it must be the first step and ends the move. The exception is a
  Communist supply unit sailing out of Haiphong (8.6.1): 1 point into a coastal hex that Haiphong borders.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Iterable

from ..core import Dice, Distribution, Hex, Resolution, enumerate_outcomes, implements
from ..core.errors import RuleViolation
from .calendar import Turn
from .charts import Allowance, NtndCharts, default_charts, movement_allowance, movement_class, terrain_cost
from .geography import CORPS, Geography
from .naval import is_naval
from .neutrality import ends_neutrality_by_move, violations_by_move
from .state import NtndState
from .units import LAOS_CAPITALS, airmobile_symbol
from .zones import enemy_zoc, enemy_zoi, in_green_beret_zoi, neutral_to

#: 8.4: the first turn of the improved Ho Chi Minh Trail (Jan/Feb 1971)
IMPROVED_TRAIL_TURN = Turn.of("Jan/Feb", 1971).number   # 8.4
#: 8.4: the countries of the improved trail's hexes
TRAIL_COUNTRIES = ("Laos", "NV")
#: 8.2.2 and 8.9.1: guerrillas, and their home countries
GUERRILLA_HOMES = {"VC": "SVN", "PL": "Laos", "KR": "Cambodia"}
GUERRILLA_TYPES = ("cadre", "regiment")
MILITIA_HOMES = {"SVN": "SVN", "Laotian": "Laos", "Cambodian": "Cambodia"}
#: 8.5.2: hexes where infiltration succeeds on 4-6 rather than 5-6 (zones count as non-clear, 9.2)
HARD_TERRAIN = ("mountain", "jungle", "swamp")


@implements("NT 8.2.1")
def is_monsoon(turn: int) -> bool:
    """Monsoon turns are May/Jun and Jul/Aug (8.2 note), from the Turn Record."""
    return Turn(turn).monsoon


def improved_trail_open(turn: int) -> bool:
    """8.4: from Jan/Feb 1971 (turn 36) on."""
    return turn >= IMPROVED_TRAIL_TURN


def is_guerrilla(state: NtndState, unit: str) -> bool:
    c = state.counter(unit)
    return c.side == "communist" and c.nationality in GUERRILLA_HOMES and c.type in GUERRILLA_TYPES


# --------------------------------------------------------------------------------------------- roads and trails
_ROUTE_KINDS: dict[int, tuple[object, dict[str, str]]] = {}     # id(map) -> (map, kinds); the map is kept alive


def _route_kinds(g: Geography) -> dict[str, str]:
    kinds = _ROUTE_KINDS.get(id(g.map), (None, None))[1]
    if kinds is None:
        hexes: dict[str, list[Hex]] = {}
        for h, info in g.map.hexes.items():
            for name in info.attr("routes") or ():
                hexes.setdefault(name, []).append(h)
        kinds = {name: "road" if all(g.has(h, "road") for h in hs) else "trail" for name, hs in hexes.items()}
        _ROUTE_KINDS[id(g.map)] = (g.map, kinds)
    return kinds


@implements("NT 8.2.7")
def route_between(g: Geography, a: Hex, b: Hex) -> str | None:
    """The route a step from ``a`` to adjacent ``b`` follows: "road", "trail" or None (see the module's reading:
    both hexes carry it and, on a map that names its routes, they share a named route of that kind)."""
    if not a.is_adjacent(b):
        return None
    kinds = _route_kinds(g)
    names_a, names_b = g.map.info(a).attr("routes"), g.map.info(b).attr("routes")
    for kind in ("road", "trail"):
        if not (g.has(a, kind) and g.has(b, kind)):
            continue
        if not kinds:                          # a map without route names: the features alone decide
            return kind
        if any(kinds.get(n) == kind for n in set(names_a or ()) & set(names_b or ())):
            return kind
    return None


# --------------------------------------------------------------------------------------------- records
@dataclass(frozen=True)
class Consequence:
    """Something a step sets off that the caller must settle: a neutrality violation (10.2: a die of political
    points, an H&M shift), a neutral state joining the Allies (10.5.1), an invasion of North Vietnam (10.8), the
    fleet pushed out to sea (14.2.1)."""

    rule: str
    kind: str            # "neutrality_violation", "joins_allies", "nv_invasion", "fleet_displaced"
    side: str
    country: str | None
    unit: str
    where: str
    detail: object = field(default=None, compare=False)   # the neutrality module's own record, to charge it by

    def __str__(self) -> str:
        return f"{self.rule}: {self.kind.replace('_', ' ')} ({self.unit} at {self.where})"


@dataclass(frozen=True)
class Move:
    """One unit's move in progress. ``points`` is the allowance (None: unlimited); ``spent`` what the steps so
    far cost; ``stopped`` the rule that ended the move early, if any."""

    unit: str
    start: str
    allowance: Allowance
    points: Fraction | None
    basic_points: Fraction | None        # 8.4: the allowance without the improved trail
    spent: Fraction = Fraction(0)
    path: tuple[str, ...] = ()
    by_sea: bool = False                 # 8.6.1: a Communist supply unit's sea move
    out_of_supply: bool = False
    monsoon: bool = False
    start_area: str | None = None
    stopped: str | None = None
    consequences: tuple[Consequence, ...] = ()
    landed: bool = False                 # 8.6.4.3: came ashore with the fleet this move (corps limits lifted)

    @property
    def location(self) -> str:
        return self.path[-1] if self.path else self.start

    @property
    def left(self) -> Fraction | None:
        return None if self.points is None else self.points - self.spent


@dataclass(frozen=True)
class StepCheck:
    """What a legal step needs: its cost (None: a zone step, the whole turn), whether the unit must infiltrate
    ("zoc", "zoi" or "sea"), the rule that stops it on arrival, and the consequences to charge."""

    cost: Fraction | None
    infiltrate: str | None
    stop: str | None
    consequences: tuple[Consequence, ...]


@dataclass(frozen=True)
class Infiltration:
    """One infiltration roll (8.5.2, 8.5.3, 8.6.2)."""

    roll: int
    need: int
    success: bool
    flip: bool           # failed into a zone of control: turned face up (8.5.2)
    eliminated: bool     # failed at sea next to a patrol boat or the fleet (8.6.2)


# --------------------------------------------------------------------------------------------- allowance
@implements("NT 8.2", "NT 8.2.1", "NT 8.4", "NT 18.2.1.3", "NT 15.2.1", "NT 11.1.4")
def begin_move(state: NtndState, unit: str, *, in_supply: bool, by_sea: bool = False,
               charts: NtndCharts | None = None, res: Resolution | None = None) -> Move:
    """Start a unit's move: its allowance this turn. ``in_supply``: whether it began the movement phase in supply
    (18.2.1.3; see :func:`wargames.ntnd.supply.in_supply`). ``by_sea``: a Communist supply unit moving by sea
    (8.6.1)."""
    charts = charts or default_charts()
    note = res.add if res is not None else (lambda *a, **k: None)
    piece, c = state.piece(unit), state.counter(unit)
    g = state.geography
    if c.type in ("gunship", "fighter", "carrier", "sac", "soa"):
        raise RuleViolation("NT 8.2.5", f"{unit}: air units are placed where they operate, not moved hex by hex")
    if c.nationality == "Cambodian" and state.standing.get("Cambodia") == "neutral":
        raise RuleViolation("NT 10.3.1", f"{unit}: Cambodian units cannot move while Cambodia is neutral")
    here = state.hex_of(unit)
    gb = here is not None and c.type in ("militia", "montagnard") and in_green_beret_zoi(state, here)
    carried = state.helicopter_of(unit) is not None               # 11.1.4: it moves as an airmobile unit
    row = movement_class(c.side, "airmobile" if carried else c.type, in_green_beret_zoi=gb, charts=charts)
    monsoon = is_monsoon(state.turn)
    if by_sea:
        if c.type != "supply":
            raise RuleViolation("NT 8.6.1", f"{unit}: only Communist supply units move by sea")
        if not (piece.location == "Haiphong" or (here is not None and (g.is_coastal(here) or
                                                                      g.has(here, "major_river")))):
            raise RuleViolation("NT 8.6.1", f"{unit}: a sea move begins in Haiphong or on a coastal or major river hex")
        if piece.location == "Haiphong" and state.policy.haiphong_mined:
            raise RuleViolation("NT 14.2.2", "Haiphong is mined: no sea movement into or out of it")
    trail = (c.type == "supply" and not by_sea and improved_trail_open(state.turn) and here is not None
             and g.country(here) in TRAIL_COUNTRIES)
    allowance = movement_allowance(row, monsoon, face_up=piece.face_up, improved_trail=trail, charts=charts)
    if allowance.kind == "immobile":
        raise RuleViolation("NT 8.2", f"{unit} is immobile (a {c.type.replace('_', ' ')})")
    points = allowance.points
    note("NT 8.2", f"{unit}: {row} allowance " + (str(points) if points is not None else allowance.kind)
         + (" (halved: monsoon)" if allowance.halved else "") + (" (improved trail, 8.4)" if trail else ""),
         result=points)
    basic = None
    if trail:
        basic = movement_allowance(row, monsoon, face_up=piece.face_up, charts=charts).points
    if not in_supply and points is not None:
        points, basic = points / 2, (None if basic is None else basic / 2)
        note("NT 18.2.1.3", f"out of supply at the start of the movement phase: halved to {points}", result=points)
    return Move(unit, piece.location, allowance, points, basic, by_sea=by_sea, out_of_supply=not in_supply,
                monsoon=monsoon, start_area=state.area_of(piece.location))


# --------------------------------------------------------------------------------------------- cost
def _local_vc(state: NtndState, area: str | None, charts: NtndCharts) -> bool:
    box = state.hearts_minds.get(area) if area else None
    if box is None:
        return False
    b = charts.hearts_minds.box(box)
    return b.side == "communist" and b.level == 2


@implements("NT 8.1", "NT 8.2.2", "NT 8.2.4", "NT 8.2.6", "NT 8.2.7", "NT 8.3", "NT 7.4.3", "NT 8.5.3", "NT 8.6.1",
            "NT 28.6")
def step_cost(state: NtndState, unit: str, from_loc: str, to_loc: str, *, by_sea: bool = False,
              charts: NtndCharts | None = None, res: Resolution | None = None) -> Fraction | None:
    """Movement points for ``unit`` to step from ``from_loc`` into the adjacent ``to_loc`` (exact). None: a zone
    step, which takes the whole turn (9.1). The unit's face and the H&M markers are read from ``state``, which is
    the position at the start of the movement phase as far as 8.3 is concerned. Raises RuleViolation when no unit
    of that kind may enter the hex (all-sea for ground units, 8.2.4 for boats)."""
    charts = charts or default_charts()
    g = state.geography
    note = res.add if res is not None else (lambda *a, **k: None)
    c, piece = state.counter(unit), state.piece(unit)
    if by_sea and from_loc == "Haiphong" and to_loc not in g.zones:
        b = g.hex(to_loc)
        if b not in g.zone("Haiphong").border_hexes or not (g.is_coastal(b) or g.has(b, "major_river")):
            raise RuleViolation("NT 8.6.1", f"by sea, Haiphong opens only onto the coastal hexes it borders, "
                                            f"not {to_loc}")
        note("NT 8.6.1", "out of Haiphong by sea: 1", result=Fraction(1))
        return Fraction(1)
    if from_loc in g.zones or to_loc in g.zones:
        note("NT 9.1", f"{from_loc} to {to_loc}: a zone step takes the whole turn")
        return None
    a, b = g.hex(from_loc), g.hex(to_loc)
    if not a.is_adjacent(b):
        raise RuleViolation("NT 8.1", f"{to_loc} is not next to {from_loc}: a move goes one hex at a time")
    if c.type == "fleet":
        if not (g.is_all_sea(b) or g.is_coastal(b)):
            raise RuleViolation("NT 8.2.3", f"the fleet enters only all-sea and coastal hexes, not {to_loc}")
        note("NT 8.2.3", "the fleet: unlimited movement", result=Fraction(0))
        return Fraction(0)
    if c.type == "patrol_boat" or by_sea:
        ok = g.naval(b) and not (by_sea and g.is_all_sea(b))
        if not ok:
            rule = "NT 8.6.2" if by_sea else "NT 8.2.4"
            raise RuleViolation(rule, f"{unit} may not enter {to_loc} on water ("
                                      + ("coastal or major river hexes only" if by_sea else
                                         "sea, coastal or major river hexes only") + ")")
        note("NT 8.6.1" if by_sea else "NT 8.2.4", "1 a hex on water", result=Fraction(1))
        return Fraction(1)
    if g.is_all_sea(b):
        raise RuleViolation("NT 8.2.3", f"ground units never enter the all-sea hex {to_loc}")
    flies = airmobile_symbol(c) or state.helicopter_of(unit) is not None       # 11.1.4 and its note, 28.2
    # 8.2.2: rangers (the Thai 333 among them, 28.6) pay no terrain
    pays_terrain = piece.face_up and not (flies or c.type in ("ranger", "supply") or is_guerrilla(state, unit))
    local_vc = (c.side == "allied" and not flies and not is_naval(state, unit)       # 8.3, 7.4.3, 14 preamble
                and _local_vc(state, g.area(b), charts))
    zoi = c.side == "communist" and piece.face_up and b in enemy_zoi(state, c.side)
    features = [f for f in ("road", "trail", "town", "city", "minor_river", "major_river", "coastal") if g.has(b, f)]
    along = route_between(g, a, b)
    return terrain_cost(g.terrain(b), features, pays_terrain=pays_terrain, along=along, enemy_zoi=zoi,
                        local_vc=local_vc, charts=charts, res=res)


# --------------------------------------------------------------------------------------------- legality
def _allowed_countries(state: NtndState, unit: str) -> tuple[str, ...] | None:
    """8.9.1, 8.9.2, 10.3.2, 10.3.3: the countries a unit may never leave (None: no such limit)."""
    c = state.counter(unit)
    if is_guerrilla(state, unit):
        return (GUERRILLA_HOMES[c.nationality],)
    if c.type == "militia":
        return (MILITIA_HOMES[c.nationality],)
    if c.nationality == "Laotian":
        return ("Laos",)
    if c.nationality == "Cambodian":
        return ("Cambodia",)
    return None


def _may_operate(state: NtndState, unit: str, area: str | None) -> bool:
    corps = state.piece(unit).corps
    if area is None or corps is None:
        return True
    if corps in CORPS:
        return state.geography.may_operate_in(corps, area)
    return area == corps


def _river_boat_near(state: NtndState, h: Hex) -> bool:
    """14.1.3: an Allied patrol boat within two hexes of river hex ``h``, counted along adjacent river hexes."""
    g = state.geography
    if g.river(h) is None:
        return False
    boats = {state.hex_of(u) for u in state.units("allied") if state.counter(u).type == "patrol_boat"
             and not state.in_zone(u)}
    frontier, seen = {h}, {h}
    for _ in range(3):
        if frontier & boats:
            return True
        frontier = {n for x in frontier for n in g.map.neighbors(x) if n not in seen and g.river(n) is not None}
        seen |= frontier
    return False


@implements("NT 8.1", "NT 8.5.2", "NT 8.5.2.1", "NT 8.5.3", "NT 8.5.3.1", "NT 5.3", "NT 5.3.1", "NT 5.5",
            "NT 8.9.1", "NT 8.9.2", "NT 8.9.4", "NT 9.1", "NT 9.1.1.1", "NT 10.2", "NT 10.2.3.1", "NT 10.5.1",
            "NT 10.7", "NT 10.8", "NT 14.1.3", "NT 14.2.1", "NT 8.6.2", "NT 28.11.4")
def check_step(state: NtndState, move: Move, to_loc: str, *, enemy_declared: Iterable[str] = (),
               amphibious: bool = False, charts: NtndCharts | None = None,
               res: Resolution | None = None) -> StepCheck:
    """Judge the next step of ``move`` into ``to_loc``; raise RuleViolation(rule, reason) if it is illegal.
    ``enemy_declared``: the neutral countries the enemy has announced its zones of control reach into (10.2).
    ``amphibious``: the step is a landing by sea (8.6.4, see :func:`amphibious_cost`); the caller keeps count of
    the two landings a turn allows."""
    charts = charts or default_charts()
    g = state.geography
    unit, here = move.unit, move.location
    c, piece = state.counter(unit), state.piece(unit)
    side = c.side
    if move.stopped:
        raise RuleViolation(move.stopped, f"{unit} has had to stop at {here}")
    if "laotian_guard" in c.tags and to_loc not in LAOS_CAPITALS:
        raise RuleViolation("NT 28.11.4", f"the Laotian Guard moves only between {' and '.join(LAOS_CAPITALS)}")
    consequences: list[Consequence] = []
    stop = None

    # whole-turn zone steps (9.1) and who may be in a zone at all
    sea_exit = move.by_sea and here == "Haiphong" and to_loc not in g.zones    # 8.6.1: no whole-turn zone step
    if (here in g.zones or to_loc in g.zones) and not sea_exit:
        a = here if here in g.zones else g.hex(here)
        b = to_loc if to_loc in g.zones else g.hex(to_loc)
        if not g.zone_step(a, b):
            raise RuleViolation("NT 9.1", f"{to_loc} is not next to {here}")
        if move.path:
            raise RuleViolation("NT 9.1", "a move into or out of an off-board zone takes the whole turn")
        if c.type == "fleet" and to_loc != "Haiphong" and to_loc in g.zones:
            raise RuleViolation("NT 9.1.1.1", "the fleet may enter Haiphong but no other zone")
        if to_loc == "China" and side == "allied":
            raise RuleViolation("NT 10.7", "Allied ground units may not invade China")
        if move.allowance.kind == "restricted" and to_loc not in move.allowance.zones:
            raise RuleViolation("NT 8.2.5", f"{unit} operates only in {', '.join(move.allowance.zones)}")
        homes = _allowed_countries(state, unit)
        country = g.zone(to_loc).country if to_loc in g.zones else g.country(b)
        if homes is not None and country not in homes:
            raise RuleViolation("NT 8.9.1", f"{unit} may not leave {homes[0]}")
        note = res.add if res is not None else (lambda *a, **k: None)
        note("NT 9.1", f"{unit}: {here} to {to_loc}, the whole turn")
        found = list(_enemy_hex(state, side, to_loc)) if to_loc not in g.zones else []
        found += _neutrality(state, unit, to_loc)
        for q in found:
            note(q.rule, str(q))
        return StepCheck(None, None, "NT 9.1", tuple(found))
    if move.allowance.kind == "restricted":
        raise RuleViolation("NT 8.2.5", f"{unit} operates only in {', '.join(move.allowance.zones)}")

    if amphibious:
        cost = amphibious_cost(state, move, to_loc, res=res)
    else:
        cost = step_cost(state, unit, here, to_loc, by_sea=move.by_sea, charts=charts, res=res)
    b = g.hex(to_loc)

    consequences.extend(_enemy_hex(state, side, to_loc))

    # allowance (8.1), with 8.4's fall-back when a supply unit leaves Laos and North Vietnam
    points = move.points
    if move.basic_points is not None and g.country(b) not in TRAIL_COUNTRIES:
        points = move.basic_points
    if points is not None and move.spent + cost > points:
        raise RuleViolation("NT 8.1", f"{unit} has {points - move.spent} of {points} points left; "
                                      f"{to_loc} costs {cost}"
                            + (" (off the improved trail, 8.4: the basic allowance)" if points != move.points
                               else ""))

    # where a unit may go: airmobile range (8.2), corps (5.3), home countries (8.9), Green Beret zones (15.2.1)
    area = g.area(b)
    if move.allowance.scope == "corps_or_adjacent" and area != move.start_area and \
            area not in g.areas_bordering(move.start_area):
        raise RuleViolation("NT 8.2", f"{unit}: an airmobile move stays within {move.start_area} and the areas "
                                      f"bordering it; {to_loc} is in {area}")
    if move.allowance.scope == "green_beret_zoi" and not in_green_beret_zoi(state, b):
        raise RuleViolation("NT 15.2.1", f"{unit} moves only inside a Green Beret's zone of influence")
    homes = _allowed_countries(state, unit)
    if homes is not None and g.country(b) not in homes:
        rule = "NT 8.9.1" if (is_guerrilla(state, unit) or c.type == "militia") else "NT 8.9.2"
        raise RuleViolation(rule, f"{unit} may not leave {homes[0]}")
    if c.attachment == "attached" and not (amphibious or move.landed) and _may_operate(state, unit, move.start_area) and \
            not _may_operate(state, unit, area):
        raise RuleViolation("NT 5.3", f"{unit} is attached to {piece.corps} and may not enter {area}")

    # zones of control and influence (8.5.2, 8.5.3), rivers near patrol boats (14.1.3)
    infiltrate = None
    in_zoc = b in enemy_zoc(state, side, declared=enemy_declared)
    in_zoi = side == "communist" and b in enemy_zoi(state, side)
    if move.by_sea:
        if any(state.counter(u).type in ("patrol_boat", "fleet") for n in g.map.neighbors(b) + [b]
               for u in state.at(g.label(n)) if state.side_of(u) == "allied"):
            infiltrate = "sea"
    elif not piece.face_up and (in_zoc or in_zoi):
        infiltrate = "zoc" if in_zoc else "zoi"
    elif piece.face_up and in_zoc:
        stop = "NT 8.5.2"
    if side == "communist" and c.ground_combat and _river_boat_near(state, b):
        stop = stop or "NT 14.1.3"

    consequences.extend(_neutrality(state, unit, to_loc))
    if res is not None:
        for q in consequences:
            res.add(q.rule, str(q))
        if stop:
            res.add(stop, f"{unit} must stop in {to_loc}")
        if infiltrate:
            res.add("NT 8.5.2" if infiltrate == "zoc" else "NT 8.5.3" if infiltrate == "zoi" else "NT 8.6.2",
                    f"{unit} must infiltrate into {to_loc}")
    return StepCheck(cost, infiltrate, stop, tuple(consequences))


def _enemy_hex(state: NtndState, side: str, to_loc: str) -> tuple[Consequence, ...]:
    """A map hex holding enemy units is closed (8.5, 19.1: the two sides never share a hex), whether the step
    comes from a hex or from an off-board zone; only the fleet gives way to Communist units (14.2.1)."""
    enemies = [u for u in state.at(to_loc) if state.side_of(u) != side]
    if not enemies:
        return ()
    if side == "communist" and all(state.counter(u).type == "fleet" for u in enemies):
        return (Consequence("NT 14.2.1", "fleet_displaced", "allied", None, enemies[0], to_loc),)
    raise RuleViolation("NT 8.5", f"{to_loc} holds enemy units ({', '.join(enemies)})")


def _neutrality(state: NtndState, unit: str, to_loc: str) -> tuple[Consequence, ...]:
    """What the step does to a neutral state or North Vietnam, as :mod:`.neutrality` rules it: a violation (10.2),
    an invasion (10.8) or the end of a neutrality (10.5.1). Consequences, not refusals (but 10.7 and the
    limits of 10.2.3 refuse)."""
    side = state.side_of(unit)
    found = [Consequence(v.rule, "nv_invasion" if v.country == "NV" else "neutrality_violation", side, v.country,
                         unit, to_loc, v) for v in violations_by_move(state, unit, to_loc)]
    ends = ends_neutrality_by_move(state, unit, to_loc)
    if ends is not None:
        found.append(Consequence("NT 10.5.1", "joins_allies", side, ends[0], unit, to_loc, ends))
    return tuple(found)


@implements("NT 8.6.4", "NT 8.6.4.1", "NT 8.6.4.2", "NT 8.6.4.3")
def amphibious_cost(state: NtndState, move: Move, to_loc: str, *, res: Resolution | None = None) -> Fraction:
    """The cost of an amphibious landing (8.6.4): a marine or ranger unit in a coastal town or city sails to any
    other coastal hex for half its allowance (8.6.4.1), and may then move on inland. The fleet must already be in
    the landing hex (8.6.4.2: the caller moves it there first). A marine may land outside its corps (8.6.4.3)."""
    g = state.geography
    c = state.counter(move.unit)
    if c.type not in ("marine", "ranger"):
        raise RuleViolation("NT 8.6.4", f"only marines and rangers land from the sea, not {move.unit}")
    here = move.location
    if here in g.zones or not (g.is_coastal(g.hex(here)) and g.is_settlement(g.hex(here))):
        raise RuleViolation("NT 8.6.4", f"{move.unit} must embark in a coastal town or city, not {here}")
    if to_loc in g.zones or not g.is_coastal(g.hex(to_loc)) or to_loc == here:
        raise RuleViolation("NT 8.6.4", f"a landing goes to another coastal hex, not {to_loc}")
    if not any(state.counter(u).type == "fleet" for u in state.at(to_loc)):
        raise RuleViolation("NT 8.6.4.2", f"the fleet must be at {to_loc} for the landing")
    if move.points is None:
        raise RuleViolation("NT 8.6.4.1", f"{move.unit} has no allowance to halve")
    cost = move.points / 2
    if res is not None:
        res.add("NT 8.6.4.1", f"{move.unit} lands at {to_loc} from {here}: half its {move.points} points",
                result=cost)
    return cost


# --------------------------------------------------------------------------------------------- infiltration
@implements("NT 8.5.2", "NT 8.5.3", "NT 8.6.2", "NT 9.2")
def infiltration_need(state: NtndState, to_loc: str, kind: str = "zoc") -> int:
    """The lowest die roll that infiltrates into a hex: 4 where it has a town or city or is mountain, jungle or
    swamp (or is a zone, 9.2), else 5 (8.5.2); 4 at sea next to a patrol boat or the fleet (8.6.2)."""
    g = state.geography
    if kind == "sea" or to_loc in g.zones:
        return 4
    h = g.hex(to_loc)
    return 4 if g.terrain(h) in HARD_TERRAIN or g.is_settlement(h) else 5


def infiltrate(state: NtndState, unit: str, to_loc: str, dice: Dice, *, kind: str = "zoc",
               res: Resolution | None = None) -> Infiltration:
    """Roll one infiltration into ``to_loc`` (one die per unit or stack and per hex, 8.5.2). ``kind``: "zoc"
    (failure flips the unit face up), "zoi" (no flip, 8.5.3) or "sea" (failure eliminates it, 8.6.2). Either way a
    failed unit stays where it is and ends its move."""
    if kind not in ("zoc", "zoi", "sea"):
        raise ValueError(f"kind is 'zoc', 'zoi' or 'sea', not {kind!r}")
    need = infiltration_need(state, to_loc, kind)
    roll = dice.roll(6, f"infiltration into {to_loc}", classes=lambda f: f >= need)
    ok = roll >= need
    out = Infiltration(roll, need, ok, flip=not ok and kind == "zoc", eliminated=not ok and kind == "sea")
    if res is not None:
        rule = {"zoc": "NT 8.5.2", "zoi": "NT 8.5.3", "sea": "NT 8.6.2"}[kind]
        res.add(rule, f"{unit} infiltrates into {to_loc}: rolled {roll}, needs {need}+ -> "
                + ("in" if ok else "fails" + (", turned face up" if out.flip else "")
                   + (", eliminated" if out.eliminated else "")), result=out)
    return out


def infiltration_odds(state: NtndState, unit: str, to_locs: Iterable[str], kind: str = "zoc") -> Distribution:
    """The exact chance of infiltrating through a row of hexes, one roll each, stopping at the first failure:
    a distribution over how many hexes were entered."""
    to_locs = tuple(to_locs)

    def run(dice: Dice) -> int:
        for i, loc in enumerate(to_locs):
            if not infiltrate(state, unit, loc, dice, kind=kind).success:
                return i
        return len(to_locs)

    return enumerate_outcomes(run)


# --------------------------------------------------------------------------------------------- one step
def step(state: NtndState, move: Move, to_loc: str, *, dice: Dice | None = None, enemy_declared: Iterable[str] = (),
         amphibious: bool = False, charts: NtndCharts | None = None,
         res: Resolution | None = None) -> tuple[NtndState, Move, Resolution]:
    """Make one step: check it, roll any infiltration, and return the new position, the updated move and the
    resolution (whose ``result`` is the :class:`StepCheck`). The given state is never changed; an illegal step
    raises RuleViolation."""
    res = res if res is not None else Resolution()
    check = check_step(state, move, to_loc, enemy_declared=enemy_declared, amphibious=amphibious, charts=charts,
                       res=res)
    new = state.copy()
    unit = move.unit
    if check.infiltrate:
        if dice is None:
            raise RuleViolation("NT 8.5.2", f"{unit} must roll to infiltrate into {to_loc}: dice are needed")
        roll = infiltrate(state, unit, to_loc, dice, kind=check.infiltrate, res=res)
        if not roll.success:
            if roll.eliminated:
                new.remove(unit)
            elif roll.flip:
                new.update(unit, face_up=True)
            res.result = check
            return new, replace(move, stopped={"zoc": "NT 8.5.2", "zoi": "NT 8.5.3", "sea": "NT 8.6.2"}
                                [check.infiltrate]), res
    new.update(unit, location=to_loc)
    spent = move.spent + (check.cost or 0)
    if check.cost is None and move.points is not None:
        spent = move.points
    stopped = check.stop
    res.result = check
    return new, replace(move, spent=spent, path=move.path + (to_loc,), stopped=stopped, landed=move.landed or amphibious,
                        consequences=move.consequences + check.consequences), res


__all__ = ["Consequence", "amphibious_cost", "IMPROVED_TRAIL_TURN", "Infiltration", "Move", "StepCheck", "begin_move", "check_step",
           "improved_trail_open", "infiltrate", "infiltration_need", "infiltration_odds", "is_guerrilla", "is_monsoon",
           "route_between", "step", "step_cost"]
