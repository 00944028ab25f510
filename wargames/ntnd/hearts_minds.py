"""NT 7: Hearts and Minds, the struggle for the population of each corps area and of Laos and Cambodia.

Each of the six areas has a marker on the Hearts and Minds track (:class:`~.charts.HeartsMindsTrack`, read from
the charts); ``NtndState.hearts_minds`` says which box it is in. This module moves the markers and answers the
questions other rules ask of them:

- the Allied player spends replacement points (7.2), after one corruption roll (7.2.1), a roll per point from the
  Communist Control box (7.2.2);
- holding every town and city moves a marker at the end of the Allied political phase (7.3);
- the Communist player expends cadres (terror squads) and supply units (bribes) (7.4), rolling from the Allied
  Control box and against Green Berets (15.3); the Allies expend Phoenix units (28.4.2);
- strategic bombing of a town or city (7.5) and violations of neutrality (10.2.1, 10.5.1) move markers;
- what a box gives: South Vietnamese replacement points (7.3.1), the militia bonus (7.3.3), the ban on guerrilla
  placement and the uprising's placement roll (7.3.4, 26.8), the Communist Control recruits (7.4.1), the Allied
  movement penalty (7.4.3). The political points of 7.3.2 and 7.4.2 are items of the ledger
  (:mod:`.political`).

Every procedure takes the position and returns a new one (the old one is never changed), rolls through ``dice``,
logs its steps in ``res`` and raises :class:`~wargames.core.errors.RuleViolation` for an illegal choice.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from math import ceil
from typing import Iterable, Mapping

from ..core import Dice, Resolution, implements
from ..core.dice import roll_die
from ..core.errors import RuleViolation
from .charts import HeartsMindsTrack, NtndCharts, charts_in_use
from .state import NtndState

CORPS = ("I", "II", "III", "IV")
INDOCHINA = ("Laos", "Cambodia")
#: NT 7.2.1 and 4.2.5: the areas each replacement-point pool may influence
POOL_AREAS = {"SVN": CORPS, "Indochinese": INDOCHINA, "US": CORPS + INDOCHINA, "SEATO": CORPS + INDOCHINA}
#: NT 8.9.1: the country a guerrilla or militia unit belongs to (it holds towns and acts as a terror squad only
#: there)
HOME = {"VC": "SVN", "PL": "Laos", "KR": "Cambodia", "SVN": "SVN", "Laotian": "Laos", "Cambodian": "Cambodia"}
GUERRILLAS = ("VC", "PL", "KR")
#: the die faces on which a point or unit has no effect (7.2.2, 7.3, 7.4, 15.3)
FAILS_ON = 3
def _track(charts: NtndCharts | None) -> HeartsMindsTrack:
    return charts_in_use(charts).hearts_minds


def _log(res: Resolution | None):
    return res.add if res is not None else (lambda *a, **k: None)


# ------------------------------------------------------------------------------------------- reading the track

def box(state: NtndState, area: str, charts: NtndCharts | None = None) -> str:
    """The box an area's marker is in (raises RuleViolation for an area without a marker)."""
    track = _track(charts)
    if area not in track.areas:
        raise RuleViolation("NT 7", f"{area!r} has no Hearts and Minds marker; the areas are "
                                    f"{', '.join(track.areas)}")
    if area not in state.hearts_minds:
        raise RuleViolation("NT 7", f"the {area} marker has not been placed on the track")
    return state.hearts_minds[area]


def control(state: NtndState, area: str, charts: NtndCharts | None = None) -> str | None:
    """The side whose Control box holds the area's marker, or None."""
    b = _track(charts).box(box(state, area, charts))
    return b.side if b.level == 2 else None


def leaning(state: NtndState, area: str, charts: NtndCharts | None = None) -> tuple[str, int]:
    """(side, level) of the area's box: level 2 control, 1 "pro", 0 the neutral box (side "none")."""
    b = _track(charts).box(box(state, area, charts))
    return b.side, b.level


def _room(track: HeartsMindsTrack, at: str, toward: str) -> int:
    """How many boxes a marker can still move toward a side's end."""
    i = track.index(at)
    return len(track.boxes) - 1 - i if toward == "allied" else i


def _roll(dice: Dice, why: str) -> int:
    return roll_die(dice, 6, why, classes=lambda v: v > FAILS_ON)


# ------------------------------------------------------------------------------------------- 7.2 Allied spending

@dataclass(frozen=True)
class Allocation:
    """Replacement points of one pool spent on one area's marker."""

    pool: str
    area: str
    points: Fraction


def _allocations(allocation: Mapping[tuple[str, str], object] | Iterable[Allocation]) -> tuple[Allocation, ...]:
    if isinstance(allocation, Mapping):
        return tuple(Allocation(p, a, Fraction(n)) for (p, a), n in allocation.items())
    return tuple(allocation)


@implements("NT 7.2", "NT 7.2.1", "NT 4.2.5", "NT 4.2.6")
def check_allocation(state: NtndState, allocation, charts: NtndCharts | None = None) -> dict[str, int]:
    """Check an Allied Hearts and Minds allocation and return the whole points it puts into each area.

    Each pool may reach only its areas (SVN points the four corps, Indochinese points Laos and Cambodia, US and
    SEATO points any area: 7.2.1, 4.2.5) and may not spend more than it holds. Half points combine into whole
    ones, and an area receives whole points only (4.2.6). No area may receive more points than there are boxes
    between its marker and Allied Control: such a point could move nothing (7.2.2)."""
    track = _track(charts)
    spent: dict[str, Fraction] = {}
    per_area: dict[str, Fraction] = {}
    for a in _allocations(allocation):
        if a.pool not in POOL_AREAS:
            raise RuleViolation("NT 4.2.5", f"{a.pool!r} is not a replacement-point pool ({', '.join(POOL_AREAS)})")
        if a.area not in POOL_AREAS[a.pool]:
            raise RuleViolation("NT 7.2.1", f"{a.pool} points may influence only {', '.join(POOL_AREAS[a.pool])}, "
                                            f"not {a.area}")
        if a.points <= 0 or a.points.denominator not in (1, 2):
            raise RuleViolation("NT 4.2.6", f"{a.points} is not a number of whole or half points to spend")
        spent[a.pool] = spent.get(a.pool, Fraction(0)) + a.points
        per_area[a.area] = per_area.get(a.area, Fraction(0)) + a.points
    for pool, n in spent.items():
        have = state.replacement_points.get(pool, Fraction(0))
        if n > have:
            raise RuleViolation("NT 7.2.1", f"the {pool} pool holds {have} points, not {n}")
    out = {}
    for area, n in per_area.items():
        if n.denominator != 1:
            raise RuleViolation("NT 4.2.6", f"{area} would receive {n} points: half points must combine into whole "
                                            f"points before they influence an area")
        at = box(state, area, charts)
        room = _room(track, at, "allied")
        if n > room:
            raise RuleViolation("NT 7.2.2", f"{area} is in {track.box(at).name}: only {room} point(s) can move its "
                                            f"marker, not {n}")
        out[area] = int(n)
    return out


@implements("NT 7.2.1")
def corruption_loss(points: int, dice: Dice, res: Resolution | None = None) -> int:
    """The corruption roll (7.2.1): one die for the whole allocation; on 1 or 2 half the points are lost, an odd
    half rounded up. Returns the points lost."""
    roll = roll_die(dice, 6, "NT 7.2.1 corruption", classes=lambda v: v <= 2)
    lost = ceil(Fraction(points, 2)) if roll <= 2 else 0
    _log(res)("NT 7.2.1", f"corruption roll {roll}: " + (f"half of {points} point(s), rounded up, lost: {lost}"
                                                          if lost else "no points lost"),
              arithmetic=f"ceil({points}/2) = {lost}" if lost else "", result=lost, roll=roll, points=points)
    return lost


@implements("NT 7.2", "NT 7.2.1", "NT 7.2.2")
def spend_replacement_points(state: NtndState, allocation, dice: Dice, *, lose: Mapping[str, int] | None = None,
                             charts: NtndCharts | None = None, res: Resolution | None = None) -> NtndState:
    """The Allied Hearts and Minds phase's spending (7.2): allocate, roll for corruption, then spend.

    ``allocation`` maps (pool, area) to points (or is a list of :class:`Allocation`). ``lose`` is the Allied
    player's choice of which points corruption takes, by area; it is needed only if the roll is 1 or 2, and must
    then add up to exactly the loss. Every allocated point leaves its pool, lost or not. Each remaining point
    moves the marker one box toward Allied Control; from the Communist Control box each point is rolled for
    first and is wasted on 1-3 (7.2.2)."""
    per_area = check_allocation(state, allocation, charts)
    track = _track(charts)
    total = sum(per_area.values())
    lost = corruption_loss(total, dice, res)
    losses = {}
    if lost:
        losses = {a: n for a, n in (lose or {}).items() if n}
        if sum(losses.values()) != lost or any(a not in per_area or not 0 < n <= per_area[a]
                                               for a, n in losses.items()):
            raise RuleViolation("NT 7.2.1", f"corruption takes {lost} point(s): the Allied player names which, "
                                            f"by area, out of {per_area} (got {lose})")
        _log(res)("NT 7.2.1", "the Allied player gives up " + ", ".join(f"{n} in {a}" for a, n in losses.items()),
                  result=losses)
    new = state.copy()
    for a in _allocations(allocation):
        new.replacement_points[a.pool] = new.replacement_points[a.pool] - a.points
    for area, n in per_area.items():
        for _ in range(n - losses.get(area, 0)):
            at = new.hearts_minds[area]
            if control_box(track, at) == "communist":
                roll = _roll(dice, f"NT 7.2.2 {area}: a point spent from Communist Control")
                if roll <= FAILS_ON:
                    _log(res)("NT 7.2.2", f"{area}: roll {roll} from {track.box(at).name}, the point is wasted",
                              result=at, area=area, roll=roll)
                    continue
            new.hearts_minds[area] = track.shift(at, +1, rule="NT 7.2.2")[0]
            _log(res)("NT 7.2.2", f"{area}: one point moves the marker to {track.box(new.hearts_minds[area]).name}",
                      result=new.hearts_minds[area], area=area)
    return new


def control_box(track: HeartsMindsTrack, at: str) -> str | None:
    """The side whose Control box ``at`` is, or None."""
    b = track.box(at)
    return b.side if b.level == 2 else None


# ------------------------------------------------------------------------------------------- 7.3 Allied occupation

def holds_for_politics(state: NtndState, unit: str) -> bool:
    """NT 8.9.1: a guerrilla or militia unit outside its own country does not hold a town for political points
    or Hearts and Minds, nor act as a terror squad there."""
    c = state.counter(unit)
    home = HOME.get(c.nationality) if (c.nationality in GUERRILLAS or c.type == "militia") else None
    if home is None:
        return True
    return _country(state, state.piece(unit).location) == home


def _country(state: NtndState, location: str) -> str:
    g = state.geography
    return g.zone(location).country if location in g.zones else g.country(g.hex(location))


@implements("NT 8.9.1", "NT 6.2.1")
def holder(state: NtndState, label: str, *, face_up_only: bool = True) -> str | None:
    """The side holding a town or city hex for political points and Hearts and Minds: the side of the units in
    it, counting only face-up Communist units (6.2.1, 22.4) and leaving out guerrillas and militia abroad (8.9.1)."""
    for unit in state.at(label):
        side = state.side_of(unit)
        if side == "communist" and face_up_only and not state.piece(unit).face_up:
            continue
        if holds_for_politics(state, unit):
            return side
    return None


def settlements(state: NtndState, area: str) -> dict[str, str]:
    """An area's towns and cities: hex label -> "town" or "city"."""
    g = state.geography
    return {g.label(h): "city" if g.is_city(h) else "town" for h in g.settlements(area).values()}


def allied_hold_all(state: NtndState, area: str) -> bool:
    """Allied units hold every town and city of the area (an area with none holds nothing)."""
    places = settlements(state, area)
    return bool(places) and all(holder(state, label) == "allied" for label in places)


@implements("NT 7.3")
def occupation_shift(state: NtndState, dice: Dice, *, charts: NtndCharts | None = None,
                     res: Resolution | None = None) -> NtndState:
    """End of the Allied political phase (7.3): each area whose towns and cities are all held by Allied units
    moves one box toward Allied Control; from the Communist Control box only on a roll of 4-6. A marker already
    in Allied Control stays."""
    track = _track(charts)
    new = state.copy()
    for area in track.areas:
        if area not in state.hearts_minds or not allied_hold_all(state, area):
            continue
        at = new.hearts_minds[area]
        if control_box(track, at) == "communist":
            roll = _roll(dice, f"NT 7.3 {area}: occupation from Communist Control")
            if roll <= FAILS_ON:
                _log(res)("NT 7.3", f"{area}: every town held, but roll {roll} from Communist Control: no move",
                          result=at, area=area, roll=roll)
                continue
        to, lost = track.shift(at, +1, excess="lose", rule="NT 7.3")
        new.hearts_minds[area] = to
        _log(res)("NT 7.3", f"{area}: every town and city held by Allied units; marker "
                  + ("stays in " if lost else "moves to ") + track.box(to).name, result=to, area=area)
    return new


# ------------------------------------------------------------------------------------------- what the boxes give

SVN_POINTS_CAP = 2       # NT 4.2.2: "up to two"


@implements("NT 7.3.1", "NT 4.2.2")
def svn_replacement_points(state: NtndState, *, next_turn: Iterable[str] = (),
                           charts: NtndCharts | None = None, res: Resolution | None = None) -> Fraction:
    """South Vietnamese replacement points at the start of the Allied replacement phase: half a point for each
    pro-Allied corps and one for each Allied-Controlled corps (7.3.1), two at most (4.2.2). A random event may
    withhold them for a turn (``next_turn`` holds its flags, :mod:`.events`)."""
    if "no_svn_replacements" in set(next_turn):
        _log(res)("NT 21.1", "a random event withholds the South Vietnamese points this turn", result=Fraction(0))
        return Fraction(0)
    total = Fraction(0)
    for corps in CORPS:
        side, level = leaning(state, corps, charts)
        if side == "allied":
            total += Fraction(level, 2)
    points = min(total, Fraction(SVN_POINTS_CAP))
    _log(res)("NT 7.3.1", f"South Vietnamese replacement points: {total}" + (f", capped at {points}"
                                                                              if points < total else ""),
              result=points)
    return points


@implements("NT 7.3.3")
def militia_morale_bonus(state: NtndState, unit: str, charts: NtndCharts | None = None) -> int:
    """+1 morale for a militia unit in an Allied-Controlled area at the start of a combat phase (7.3.3)."""
    if state.counter(unit).type != "militia":
        return 0
    area = state.area_of(state.piece(unit).location)
    if area not in _track(charts).areas or area not in state.hearts_minds:
        return 0
    return int(control(state, area, charts) == "allied")


@implements("NT 7.3.4", "NT 4.1.1")
def guerrillas_may_be_placed(state: NtndState, area: str, charts: NtndCharts | None = None) -> bool:
    """At the start of the Communist recruitment phase: no guerrilla may be recruited into an Allied-Controlled
    area (7.3.4; also 4.1.1). The National Uprising's units try anyway (:func:`uprising_placement`)."""
    return control(state, area, charts) != "allied"


@implements("NT 7.3.4", "NT 26.8")
def uprising_placement_roll_needed(state: NtndState, area: str, charts: NtndCharts | None = None) -> bool:
    """An uprising unit is rolled for before it is placed in an Allied-Controlled area (7.3.4) or anywhere while
    Full Vietnamization is in effect (26.8)."""
    return state.policy.full_in_effect or control(state, area, charts) == "allied"


@implements("NT 7.3.4", "NT 26.8")
def uprising_placement(state: NtndState, area: str, dice: Dice, *, charts: NtndCharts | None = None,
                       res: Resolution | None = None) -> bool:
    """Whether one uprising unit may be placed in ``area``: without a roll unless :func:`uprising_placement_roll_
    needed`; otherwise a 5 or 6 sends it back to the counter mix (no political points, 22.4) and 1-4 places it."""
    if not uprising_placement_roll_needed(state, area, charts):
        return True
    roll = roll_die(dice, 6, f"NT 7.3.4 uprising placement in {area}", classes=lambda v: v >= 5)
    placed = roll <= 4
    _log(res)("NT 7.3.4", f"{area}: uprising unit, roll {roll}: " + ("placed" if placed else
                                                                      "back to the counter mix, no points"),
              result=placed, area=area, roll=roll)
    return placed


@implements("NT 7.4.1", "NT 26.4")
def control_recruits(state: NtndState, charts: NtndCharts | None = None) -> dict[str, dict[str, int]]:
    """At the start of the Communist recruitment phase each Communist-Controlled area gives one regiment, one
    cadre and one supply unit, placed in that area (7.4.1), during the uprising too (26.4)."""
    return {area: {"regiment": 1, "cadre": 1, "supply": 1} for area in _track(charts).areas
            if area in state.hearts_minds and control(state, area, charts) == "communist"}


@implements("NT 7.4.3")
def allied_movement_penalty(state: NtndState, area: str, charts: NtndCharts | None = None) -> bool:
    """Whether Allied units pay one more movement point for mountain, swamp and jungle in this area (7.4.3): the
    area is Communist Controlled at the start of the Allied movement phase (naval, patrol and airmobile units
    are exempt; the movement rules apply the point)."""
    return area in _track(charts).areas and area in state.hearts_minds and \
        control(state, area, charts) == "communist"


# ------------------------------------------------------------------------------------------- 7.4 Communist

@implements("NT 7.4", "NT 15.3", "NT 8.9.1")
def terror_and_bribes(state: NtndState, area: str, units: Iterable[str], dice: Dice, *,
                      charts: NtndCharts | None = None, res: Resolution | None = None) -> NtndState:
    """The Communist Hearts and Minds phase in one area (7.4): each cadre (terror squad) or supply unit (bribe)
    in the area, in the order given, is eliminated back to the counter mix with no political points, and moves
    the marker one box toward Communist Control.

    A unit is rolled for, and wasted on 1-3, when the marker is in the Allied Control box (7.4), or when it is
    among the first N units of the phase in an area holding N Green Berets (15.3); one roll serves both. A cadre
    outside its own country cannot act (8.9.1), and no more units may be spent than there are boxes left toward
    Communist Control."""
    track = _track(charts)
    units = list(units)
    at = box(state, area, charts)
    if len(set(units)) != len(units):
        raise RuleViolation("NT 7.4", "a unit can be expended once")
    for unit in units:
        c = state.counter(unit)
        if c.side != "communist" or c.type not in ("cadre", "supply"):
            raise RuleViolation("NT 7.4", f"{unit} is neither a cadre nor a supply unit")
        if state.area_of(state.piece(unit).location) != area:
            raise RuleViolation("NT 7.4", f"{unit} is not in {area}")
        if not holds_for_politics(state, unit):
            raise RuleViolation("NT 8.9.1", f"{unit} is outside its own country and cannot act as a terror squad")
    room = _room(track, at, "communist")
    if len(units) > room:
        raise RuleViolation("NT 7.4", f"{area} is in {track.box(at).name}: only {room} unit(s) can move its "
                                      f"marker, not {len(units)}")
    berets = sum(1 for u in state.units("allied", area=area) if state.counter(u).type == "green_beret")
    new = state.copy()
    for k, unit in enumerate(units):
        new.remove(unit)
        at = new.hearts_minds[area]
        why = []
        if control_box(track, at) == "allied":
            why.append("from Allied Control (NT 7.4)")
        if k < berets:
            why.append(f"against {berets} Green Beret(s) (NT 15.3)")
        if why:
            roll = _roll(dice, f"NT 7.4 {area}: {unit}")
            if roll <= FAILS_ON:
                _log(res)("NT 7.4", f"{area}: {unit} rolls {roll} " + " and ".join(why) + ": no effect",
                          result=at, area=area, unit=unit, roll=roll)
                continue
        new.hearts_minds[area] = track.shift(at, -1, rule="NT 7.4")[0]
        _log(res)("NT 7.4", f"{area}: {unit} expended; marker to {track.box(new.hearts_minds[area]).name}",
                  result=new.hearts_minds[area], area=area, unit=unit)
    return new


@implements("NT 28.4.2")
def expend_phoenix(state: NtndState, unit: str, dice: Dice, *, charts: NtndCharts | None = None,
                   res: Resolution | None = None) -> NtndState:
    """Operation Phoenix (28.4.2): in the Allied Hearts and Minds phase a Phoenix unit is expended in its corps;
    one die moves the marker one box toward the Allies on 4-6 from Communist Control, on 3-6 otherwise. The
    unit leaves play (it may be mobilized again) without political points."""
    track = _track(charts)
    if state.counter(unit).type != "phoenix":
        raise RuleViolation("NT 28.4.2", f"{unit} is not a Phoenix unit")
    area = state.area_of(state.piece(unit).location)
    at = box(state, area, charts)
    if _room(track, at, "allied") == 0:
        raise RuleViolation("NT 28.4.2", f"{area} is already in {track.box(at).name}")
    need = 4 if control_box(track, at) == "communist" else 3
    roll = roll_die(dice, 6, f"NT 28.4.2 Phoenix in {area}", classes=lambda v: v >= need)
    new = state.copy()
    new.remove(unit, eliminated=False)
    if roll >= need:
        new.hearts_minds[area] = track.shift(at, +1, rule="NT 28.4.2")[0]
    _log(res)("NT 28.4.2", f"{area}: {unit} expended, roll {roll} (needs {need}+): marker "
              + (f"to {track.box(new.hearts_minds[area]).name}" if roll >= need else "stays"),
              result=new.hearts_minds[area], area=area, roll=roll)
    return new


# ------------------------------------------------------------------------------------------- forced moves

def _force(state: NtndState, area: str, steps: int, rule: str, why: str, charts, res) -> NtndState:
    track = _track(charts)
    at = box(state, area, charts)
    to, lost = track.shift(at, steps, excess="lose", rule=rule)
    new = state.copy()
    new.hearts_minds[area] = to
    _log(res)(rule, f"{area}: {why}; marker " + (f"to {track.box(to).name}" if to != at else
                                                 f"stays in {track.box(at).name}")
              + (f" ({lost} box(es) past the end of the track ignored)" if lost and to != at else ""),
              result=to, area=area)
    return new


@implements("NT 7.5")
def bombing_shift(state: NtndState, targets: Iterable[str], *, charts: NtndCharts | None = None,
                  res: Resolution | None = None) -> NtndState:
    """Allied strategic bombing of towns and cities (7.5): each area with a bombed town or city moves one box
    toward Communist Control, once however many of its towns were hit; other areas are untouched. ``targets``
    are the hex labels bombed this phase (targets that are not towns or cities, or lie outside the six areas,
    move nothing)."""
    g = state.geography
    track = _track(charts)
    areas = []
    for label in targets:
        h = g.hex(label)
        area = g.area(h)
        if g.is_settlement(h) and area in track.areas and area not in areas:
            areas.append(area)
    for area in areas:
        state = _force(state, area, -1, "NT 7.5", "a town or city was bombed", charts, res)
    return state.copy() if not areas else state


@implements("NT 10.2.1")
def violation_shift(state: NtndState, country: str, violator: str, *, charts: NtndCharts | None = None,
                    res: Resolution | None = None) -> NtndState:
    """A violation of Laos's or Cambodia's neutrality (10.2.1) moves that country's marker one box away from the
    violator, unless the violator already controls the country. (The political-point die is charged apart.)"""
    if country not in INDOCHINA:
        raise RuleViolation("NT 10.2.1", f"{country} is not a neutral state with a marker")
    if control(state, country, charts) == violator:
        _log(res)("NT 10.2.1", f"{country}: the {violator} player controls it, the marker stays",
                  result=box(state, country, charts))
        return state.copy()
    return _force(state, country, -1 if violator == "allied" else +1, "NT 10.2.1",
                  f"neutrality violated by the {violator} player", charts, res)


@implements("NT 10.5.1")
def communist_entry_shift(state: NtndState, country: str, *, nva: bool, charts: NtndCharts | None = None,
                          res: Resolution | None = None) -> NtndState:
    """A Communist attack on a neutral state (10.5.1) moves its marker toward Allied Control: one box if
    guerrillas did it, two if North Vietnamese units took part. (The change of standing is rule 10's.)"""
    if country not in INDOCHINA:
        raise RuleViolation("NT 10.5.1", f"{country} is not a neutral state")
    return _force(state, country, 2 if nva else 1, "NT 10.5.1",
                  "Communist " + ("NVA" if nva else "guerrilla") + " units broke its neutrality", charts, res)
