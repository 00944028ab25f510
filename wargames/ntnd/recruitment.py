"""The Communist recruitment phase (NT 4.1, 4.5.1, 7.3.4, 7.4.1, 26.3-26.8, 27.2-27.3).

:func:`entitlements` works out at the start of the phase what the Communist player may place this turn (and
rolls the 4.5.1 dice for held towns); :func:`place_recruit` places one unit against it, checking every limit, and
returns the new position with what is left of the entitlement. What the political state changes (the number of
basic cadres, how many may be Viet Cong, the NVA division cap, the uprising units, aid) is read from
``state.policy``, never worked out here. Whatever is not placed by the end of the phase is lost (4.1.6): an
entitlement belongs to one turn.

Zones of control and influence: the placement limits of 4.1.1 need to know which hexes Allied units reach. A
zone of control never reaches past the hexes next to its unit (8.5.1), which 4.1.1 already forbids for every
Allied combat or support unit; a zone of influence reaches two hexes (8.5.3). :func:`in_allied_reach` is that
small local query; a caller with a fuller zones module passes its own predicate as ``reach``.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

from ..core import implements
from ..core.dice import Dice, roll_die
from ..core.errors import RuleViolation
from ..core.hexgrid import Hex
from ..core.log import Resolution
from .state import NtndState
from .units import SUPPORT

#: NT 4.1.1, 6.1.3: the guerrilla nationality of each country ("their own country")
GUERRILLAS = {"SVN": "VC", "Laos": "PL", "Cambodia": "KR"}
#: the areas with a Hearts and Minds marker (7): the four corps, Laos and Cambodia
H_M_AREAS = ("I", "II", "III", "IV", "Laos", "Cambodia")
SVN_CORPS = ("I", "II", "III", "IV")
NVA_KINDS = ("artillery", "sam", "division")                    # NT 4.1.3
SUPPLY_ZONES = ("China", "Hanoi", "Haiphong")                   # NT 4.1.4
#: NT 27.2-27.3: what each country's aid may be, and where it appears ("cadre" goes where cadres go)
AID_KINDS = {"China": ("supply", "sam", "cadre"), "USSR": ("supply", "sam", "artillery", "interceptor", "tank")}
AID_ZONE = {"China": "China", "USSR": "Haiphong"}
GUERRILLA_KINDS = ("cadre", "regiment", "dummy")                # what 7.3.4 calls guerrillas (dummies pose as cadres)
SOURCES = ("basic", "dummy", "nva", "supply", "control", "extra", "uprising", "aid", "held_over", "event")
#: where a random event's units go (the chart names a country or a zone), by the country of the hex
EVENT_COUNTRIES = {"SVN": "South Vietnam", "Laos": "Laos", "Cambodia": "Cambodia"}
CONTROL = "communist_control"
ALLIED_CONTROL = "allied_control"


@dataclass(frozen=True)
class TownRoll:
    """One 4.5.1 roll: the area, its points (town 1, city 2) and the die; a cadre when the die is lower."""

    area: str
    points: int
    die: int

    @property
    def cadre(self) -> bool:
        return self.die < self.points


@dataclass(frozen=True)
class Entitlement:
    """What the Communist player may still place this turn.

    ``left`` maps a source and its place (an area, a zone, an aid country, or None) to the alternatives still
    open, each a mapping of slot -> count (a slot is a unit type, or ``"nva"``/``"aid"`` for a free choice among
    several types). The uprising's third and fourth turns offer two alternatives per corps; the first unit placed
    there picks one. ``deferred`` lists units that arrive in China next turn because Haiphong is mined (14.2.2,
    27.3); the game hands them back as ``held_over`` next turn.
    """

    turn: int
    left: Mapping[tuple[str, str | None], tuple[Mapping[str, int], ...]]
    viet_cong_basic: int
    town_rolls: tuple[TownRoll, ...] = ()
    deferred: tuple[str, ...] = ()

    def count(self, source: str, where: str | None = None) -> int:
        """Units still owed by one source (the largest alternative)."""
        return max((sum(a.values()) for a in self.left.get((source, where), ())), default=0)

    def total(self) -> int:
        return sum(self.count(s, w) for s, w in self.left)


# ------------------------------------------------------------------------------------------- where units may go

def allied_combat_or_support(state: NtndState, unit: str) -> bool:
    c = state.counter(unit)
    return c.side == "allied" and (c.ground_combat or c.type in SUPPORT["allied"])


@implements("NT 8.5.1", "NT 8.5.3")
def in_allied_reach(state: NtndState, h: Hex) -> bool:
    """Whether a hex holds, touches, or lies in the zone of control or influence of an Allied combat or support
    unit on the map. A zone of control covers only the unit's hex and its neighbours (8.5.1); a zone of influence
    (firebases, the fleet, Green Berets) reaches two hexes and crosses borders (8.5.3)."""
    geo = state.geography
    for unit, piece in state.pieces.items():
        if piece.location in geo.zones or not allied_combat_or_support(state, unit):
            continue
        reach = max(1, state.counter(unit).zoi_radius)
        if geo.hex(piece.location).distance(h) <= reach:
            return True
    return False


Reach = Callable[[NtndState, Hex], bool]


@implements("NT 4.1.1", "NT 7.3.4")
def check_cadre_hex(state: NtndState, location: str, nationality: str | None, *, reach: Reach = in_allied_reach,
                    rule: str = "NT 4.1.1") -> Hex:
    """The 4.1.1 limits on where a recruited guerrilla goes: a map hex of its own country (VC in South Vietnam,
    Pathet Lao in Laos, Khmer Rouge in Cambodia), neither clear nor a town or city, with no Allied combat or support
    unit in it, next to it or reaching it with a zone of control or influence. The Allied-Control limit of 7.3.4
    is checked by the caller, which knows whether an uprising is on."""
    geo = state.geography
    if location in geo.zones:
        raise RuleViolation(rule, f"a cadre is placed in a hex of its country, not in the {location} zone")
    h = geo.hex(location)
    country = geo.country(h)
    if nationality is not None and GUERRILLAS.get(country) != nationality:
        raise RuleViolation(rule, f"a {nationality} unit is placed in its own country, not in {country}")
    if nationality is None and country not in GUERRILLAS:
        raise RuleViolation(rule, f"{location} is in {country}, where no guerrilla is recruited")
    if geo.terrain(h) == "clear":
        raise RuleViolation(rule, f"{location} is clear terrain")
    if geo.is_settlement(h):
        raise RuleViolation(rule, f"{location} is a town or city")
    if reach(state, h):
        raise RuleViolation(rule, f"{location} is occupied by, next to, or in the zone of control or influence of "
                                  f"an Allied combat or support unit")
    return h


# ------------------------------------------------------------------------------------------- the entitlement

def us_units_in_play(state: NtndState) -> int:
    """US counters on the map, in a zone or in the air box (24.3.4 reads 'all American units')."""
    return sum(1 for u in set(state.pieces) | set(state.air) if state.counter(u).nationality == "US")


@implements("NT 4.5.1")
def town_points(state: NtndState, area: str) -> int:
    """4.5.1: towns (1 point) and cities (2) of an area held by face-up Communist combat units."""
    geo = state.geography
    points = 0
    for name, h in geo.settlements(area).items():
        units = state.at(geo.label(h))
        if any(state.side_of(u) == "communist" and state.piece(u).face_up and state.counter(u).ground_combat
               for u in units):
            points += 2 if geo.is_city(h) else 1
    return points


@implements("NT 4.1.1", "NT 4.1.2", "NT 4.1.3", "NT 4.1.4", "NT 21.1", "NT 4.5.1", "NT 7.4.1",
            "NT 26.2", "NT 26.3", "NT 26.4", "NT 26.5", "NT 27.2", "NT 27.3")
def entitlements(state: NtndState, dice: Dice | None = None, *, held_over: tuple[str, ...] = (),
                 events: tuple[tuple[Mapping[str, int], str], ...] = (),
                 res: Resolution | None = None) -> Entitlement:
    """What the Communist player receives at the start of his recruitment phase.

    - basic cadres (4.1.1), as many as the policy gives, of which at most ``viet_cong_basic_cadres`` Viet Cong
      (26.5); none during the uprising (26.2);
    - every dummy left in the mix (4.1.2);
    - two NVA artillery, SAM or division units in China (4.1.3);
    - a supply unit in each of China, Hanoi and Haiphong (4.1.4); Haiphong's goes to China next turn when the
      harbour is mined (14.2.2);
    - a regiment, a cadre and a supply unit in each Communist-Controlled area (7.4.1);
    - one extra cadre in each area whose die is lower than its held-town points (4.5.1; one die per area with
      points, in the order I, II, III, IV, Laos, Cambodia);
    - the uprising's units in each corps (26.3, from the policy);
    - one unit of each aid granted (27.2-27.3);
    - units held over from last turn's mined Haiphong, now due in China;
    - units that last turn's random events promised (4.1.5): ``events`` holds each event's units and place (a
      zone, or South Vietnam, Laos or Cambodia), as the Random Events chart gives them.
    """
    res = res if res is not None else Resolution()
    policy, turn = state.policy, state.turn
    left: dict[tuple[str, str | None], tuple[dict[str, int], ...]] = {}
    basic = policy.basic_cadres(turn, us_units_in_play(state))
    vc = min(basic, policy.viet_cong_basic_cadres(turn))
    res.add("NT 4.1.1", f"{basic} basic cadres, at most {vc} of them Viet Cong", basic=basic, viet_cong=vc)
    if basic:
        left[("basic", None)] = ({"cadre": basic},)
    dummies = len(state.available("communist", type="dummy"))
    if dummies:
        left[("dummy", None)] = ({"dummy": dummies},)
    res.add("NT 4.1.2", f"{dummies} dummies in the mix may be placed", dummies=dummies)
    left[("nva", "China")] = ({"nva": 2},)
    zones = SUPPLY_ZONES if not policy.haiphong_mined else ("China", "Hanoi")
    for zone in zones:
        left[("supply", zone)] = ({"supply": 1},)
    deferred = ("supply",) if policy.haiphong_mined else ()
    if deferred:
        res.add("NT 14.2.2", "Haiphong is mined: its supply unit arrives in China next turn")
    for area in H_M_AREAS:
        if state.hearts_minds.get(area) == CONTROL:
            left[("control", area)] = ({"regiment": 1, "cadre": 1, "supply": 1},)
            res.add("NT 7.4.1", f"{area} is Communist-Controlled: a regiment, a cadre and a supply unit", area=area)
    rolls = []
    for area in H_M_AREAS:
        points = town_points(state, area)
        if points:
            if dice is None:
                raise RuleViolation("NT 4.5.1", f"held towns in {area} call for a die: pass dice")
            roll = TownRoll(area, points, roll_die(dice, 6, f"NT 4.5.1 extra cadre in {area}"))
            rolls.append(roll)
            res.add("NT 4.5.1", f"{area}: die {roll.die} against {points} town points: "
                                f"{'an extra cadre' if roll.cadre else 'nothing'}", area=area, points=points,
                    die=roll.die, result=roll.cadre)
            if roll.cadre:
                left[("extra", area)] = ({"cadre": 1},)
    options = policy.uprising_recruits(turn)
    if options:
        for corps in SVN_CORPS:
            left[("uprising", corps)] = tuple(dict(o) for o in options)
        res.add("NT 26.3", f"uprising turn {policy.uprising_turn(turn)}: in each corps "
                           + " or ".join(", ".join(f"{n} {k}" for k, n in o.items()) for o in options))
    for country in sorted(policy.aid):
        left[("aid", country)] = ({"aid": 1},)
        res.add("NT 27.2" if country == "China" else "NT 27.3", f"{country} aid: one of {AID_KINDS[country]}")
    if held_over:
        counts: dict[str, int] = {}
        for kind in held_over:
            counts[kind] = counts.get(kind, 0) + 1
        left[("held_over", "China")] = (counts,)
    for units, place in events:
        if place == "Haiphong" and policy.haiphong_mined:
            deferred += tuple(k for k, n in units.items() for _ in range(n))
            res.add("NT 14.2.2", f"Haiphong is mined: the event's {dict(units)} arrive in China next turn")
            continue
        if place not in geo_places(state):
            raise RuleViolation("NT 21.1", f"an event places units in a zone or in "
                                            f"{', '.join(EVENT_COUNTRIES.values())}, not {place!r}")
        mine = dict(left.get(("event", place), ({},))[0])
        for kind, n in units.items():
            mine[kind] = mine.get(kind, 0) + n
        left[("event", place)] = (mine,)
        res.add("NT 21.1", f"random event: {dict(units)} in {place}")
    ent = Entitlement(turn, left, vc, tuple(rolls), deferred)
    res.result = ent
    return ent


def geo_places(state: NtndState) -> tuple[str, ...]:
    return tuple(state.geography.zones) + tuple(EVENT_COUNTRIES.values())


# ------------------------------------------------------------------------------------------- placing a recruit

def _slot(source: str, kind: str, where: str | None) -> str:
    if source == "nva":
        if kind not in NVA_KINDS:
            raise RuleViolation("NT 4.1.3", f"the two NVA units are artillery, SAM or divisions, not {kind}")
        return "nva"
    if source == "aid":
        if kind not in AID_KINDS[where]:
            raise RuleViolation("NT 27.2" if where == "China" else "NT 27.3",
                                f"{where} aid gives one of {', '.join(AID_KINDS[where])}, not {kind}")
        return "aid"
    return kind


def _take(ent: Entitlement, key: tuple[str, str | None], slot: str, rule: str) -> Entitlement:
    alternatives = ent.left.get(key, ())
    open_ = [a for a in alternatives if a.get(slot, 0) > 0]
    if not open_:
        source, where = key
        raise RuleViolation(rule, f"no {slot} is owed by {source} recruitment" + (f" in {where}" if where else "")
                            + " this turn")
    after = tuple({k: v - (k == slot) for k, v in a.items()} for a in open_)
    left = dict(ent.left)
    if all(sum(a.values()) == 0 for a in after):
        del left[key]
    else:
        left[key] = after
    return replace(ent, left=left)


_RULE = {"basic": "NT 4.1.1", "dummy": "NT 4.1.2", "nva": "NT 4.1.3", "supply": "NT 4.1.4", "control": "NT 7.4.1",
         "extra": "NT 4.5.1", "uprising": "NT 26.3", "aid": "NT 27.2", "held_over": "NT 14.2.2",
         "event": "NT 21.1"}


@implements("NT 16.6")
def no_montagnards(state: NtndState, kind: str, unit: str | None) -> None:
    """16.6: Montagnards are raised only by the Allies (16.2-16.5); no Communist recruit may be one."""
    if kind == "montagnard" or (unit is not None and unit in state.mix
                                and state.counter(unit).type == "montagnard"):
        raise RuleViolation("NT 16.6", "the Communist player never raises Montagnards")


@implements("NT 4.1.1", "NT 4.1.2", "NT 17.1", "NT 4.1.3", "NT 4.1.4", "NT 4.1.6", "NT 4.1.7", "NT 7.3.4", "NT 7.4.1",
            "NT 26.8", "NT 27.2", "NT 27.3", "NT 27.4", "NT 14.2.2", "NT 6.2")
def place_recruit(state: NtndState, ent: Entitlement, source: str, kind: str, location: str, *,
                  face_up: bool = True, nationality: str | None = None, unit: str | None = None,
                  country: str | None = None, dice: Dice | None = None, reach: Reach = in_allied_reach,
                  res: Resolution | None = None) -> tuple[NtndState, Entitlement, Resolution]:
    """Place one recruit of ``kind`` owed by ``source`` (one of :data:`SOURCES`) at ``location``.

    ``nationality`` picks VC, PL or KR for a cadre or regiment (default: the hex's country's); ``unit`` picks a
    particular counter; ``country`` names the aid (``"China"`` or ``"USSR"``). Returns the new position, what
    is left of the entitlement and the steps. Refused placements raise RuleViolation and change nothing.

    When the harbour is mined, Soviet aid is recorded in ``deferred`` for China next turn instead of placed
    (27.3, 14.2.2). The uprising's units may be sent into an Allied-Controlled area, and under Full
    Vietnamization they are all rolled for: on 5 or 6 the unit is lost back to the mix (7.3.4, 26.8).
    """
    if source not in SOURCES:
        raise RuleViolation("NT 4.1", f"unknown recruitment source {source!r}; one of {', '.join(SOURCES)}")
    no_montagnards(state, kind, unit)
    res = res if res is not None else Resolution()
    rule = _RULE[source]
    geo, policy = state.geography, state.policy
    on_map = location not in geo.zones
    area = state.area_of(location) if on_map else None

    # which allowance pays, and whether the place fits the source
    if source in ("basic", "dummy"):
        where = None
    elif source in ("control", "extra", "uprising"):
        if not on_map:
            raise RuleViolation(rule, f"these units are placed in their area's hexes, not in the {location} zone")
        where = area
    elif source == "aid":
        if country not in AID_KINDS:
            raise RuleViolation("NT 27.1", f"name the aid's country: China or USSR, not {country!r}")
        where = country
    elif source == "supply":
        where = location
    elif source == "event":
        where = location if not on_map else EVENT_COUNTRIES.get(geo.country(geo.hex(location)))
    else:
        where = "China"
    key = (source, where)
    if source == "aid":
        rule = "NT 27.2" if country == "China" else "NT 27.3"
    slot = _slot(source, kind, where)
    ent_after = _take(ent, key, slot, rule)

    # the counter
    if kind in ("cadre", "regiment"):
        if nationality is None and unit is not None:
            nationality = state.counter(unit).nationality
        if nationality is None:
            nationality = GUERRILLAS.get(geo.country(geo.hex(location))) if on_map else None
        if nationality not in ("VC", "PL", "KR"):
            raise RuleViolation(rule, f"a {kind} is Viet Cong, Pathet Lao or Khmer Rouge; place it in its country")
    elif kind in ("dummy",):
        nationality = None
    else:
        nationality = "NVA"
    counter = take_counter(state, kind, nationality, unit, rule)

    # Haiphong mined: Soviet aid waits a turn and comes in China (27.3, 14.2.2)
    if source == "aid" and country == "USSR" and policy.haiphong_mined:
        if location != "China":
            raise RuleViolation("NT 14.2.2", "Haiphong is mined: Soviet aid arrives in China on the following turn")
        res.add("NT 27.3", f"Soviet {kind} held over: it arrives in China next turn", kind=kind)
        ent_after = replace(ent_after, deferred=ent_after.deferred + (kind,))
        res.result = None
        return state, ent_after, res

    # where
    guerrilla = kind in GUERRILLA_KINDS
    if kind == "dummy" and face_up:
        raise RuleViolation("NT 4.1.2", "dummies are placed inverted")
    if kind == "tank" and not face_up:
        raise RuleViolation("NT 6.2", "tank regiments are never inverted")
    needs_cadre_hex = guerrilla and (source != "aid" or kind == "cadre")
    if needs_cadre_hex:
        check_cadre_hex(state, location, nationality, reach=reach, rule=rule)
    elif source == "aid":
        if location != AID_ZONE[country]:
            raise RuleViolation(rule, f"{country} aid of this kind appears in {AID_ZONE[country]}")
    elif source in ("nva", "held_over") and location != "China":
        raise RuleViolation(rule, "these units are placed in the China zone")
    if on_map and state.side_at(location) == "allied":
        raise RuleViolation(rule, f"Allied units hold {location}")

    # NVA divisions: the cap before the uprising (4.1.7)
    if kind == "division":
        cap = policy.nva_division_limit(state.turn)
        divisions = sum(1 for u in state.pieces if state.counter(u).type == "division"
                        and state.counter(u).nationality == "NVA")
        if cap is not None and divisions + 1 > cap:
            raise RuleViolation("NT 4.1.7", f"{divisions} NVA divisions are in play; at most {cap} before the "
                                            f"National Uprising")

    if source == "basic" and nationality == "VC":
        if ent.viet_cong_basic <= 0:
            raise RuleViolation("NT 26.5", "no more of this turn's basic cadres may be Viet Cong")
        ent_after = replace(ent_after, viet_cong_basic=ent.viet_cong_basic - 1)

    # 7.3.4 and 26.8: Allied Control, and the uprising's rolls
    new = state.copy()
    rolled = False
    if guerrilla and on_map and state.hearts_minds.get(area) == ALLIED_CONTROL:
        if source != "uprising":
            raise RuleViolation("NT 7.3.4", f"{area} is under Allied Control: no guerrilla may be recruited there "
                                            f"(only the uprising's units may try)")
        rolled = True
    if source == "uprising" and policy.full_in_effect:
        rolled = True
    if rolled:
        if dice is None:
            raise RuleViolation("NT 26.8", "this placement is rolled for: pass dice")
        die = roll_die(dice, 6, f"NT 26.8 placing {counter.id} in {area}")
        lost = die >= 5
        res.add("NT 26.8" if source == "uprising" else "NT 7.3.4",
                f"die {die}: {'lost, back to the mix at no political cost' if lost else 'placed'}", die=die,
                result=not lost)
        if lost:
            res.result = None
            return new, ent_after, res
    new.place(counter.id, location, face_up=face_up)
    res.add(rule, f"{counter.id} placed {'face up' if face_up else 'inverted'} at {location}", unit=counter.id,
            location=location, result=counter.id)
    res.result = counter.id
    return new, ent_after, res


@implements("NT 4.1.6")
def take_counter(state: NtndState, kind: str, nationality: str | None, unit: str | None, rule: str):
    filters = {"type": kind} if nationality is None else {"type": kind, "nationality": nationality}
    free = state.available("communist", **filters)
    if unit is not None:
        c = state.counter(unit)
        if c.type != kind or (nationality is not None and c.nationality != nationality):
            raise RuleViolation(rule, f"{unit} is not a {nationality or ''} {kind}".replace("  ", " "))
        if c not in free:
            raise RuleViolation("NT 4.1.6", f"{unit} is not available in the counter mix")
        return c
    if not free:
        raise RuleViolation("NT 4.1.6", f"no {nationality or ''} {kind} is left in the counter mix: the recruit is "
                                        f"forfeited".replace("  ", " "))
    return free[0]
