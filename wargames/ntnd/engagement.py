"""Rule 19 on a position: who may fight whom, the :class:`~wargames.ntnd.combat.Battle` a position makes, and
what a :class:`~wargames.ntnd.combat.CombatResult` then does to the position (losses, retreats, advance).

:mod:`.combat` resolves a described battle; this module describes it from an :class:`NtndState` and applies the
outcome. Every choice a player makes is a parameter, with a function listing the legal values. A combat phase,
in the order the Game calls them (``fought`` starts empty each combat phase, 19.1.3):

1. Allied combat phase only: :func:`reveal` (19.1.2).
2. Per battle, as the phasing player declares it: :func:`combat_candidates` lists what may be attacked and by
   whom; :func:`battle_from_state` checks the choice (through :func:`check_attack`) and builds the Battle;
   :func:`charge_attack` (24.4.6); ``combat.resolve(battle, dice)``; ``fought = record_battle(fought, battle)``.
3. :func:`apply_losses` with each side's pick among :func:`loss_choices` (and the result's other eliminations).
4. :func:`retreat_sequence`: side by side in that order (the defender first in a tie), each unit to one of
   :func:`retreat_options` with :func:`retreat` (``None`` when it has none: eliminated, 19.3.6); after each
   retreat, :func:`overstack_choices` at the hex entered and :func:`eliminate_overstack` (19.3.2).
5. :func:`advance` with the attacker's pick among :func:`advance_options` (19.4).

Eliminations score at once (22.3, :func:`.political.immediate_points`): an Allied unit goes to the dead pile, a
Communist one back to the mix (:meth:`NtndState.remove`). Every procedure returns a new state and leaves its
input unchanged; an illegal choice raises ``RuleViolation``.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Iterable, Mapping

from ..core import Resolution, implements
from ..core.errors import DataError, RuleViolation
from ..core.hexgrid import Hex as MapHex
from . import combat
from .charts import NtndCharts
from .combat import Adjustment, Battle, CombatResult, Desertion, Engaged, Support
from .hearts_minds import control, militia_morale_bonus
from .movement import GUERRILLA_HOMES, MILITIA_HOMES, is_guerrilla, is_monsoon
from .political import score_loss
from .scenarios import ALLIED_SLOTS, COMMUNIST_SLOTS
from .state import NtndState
from .units import artillery_dot
from .zones import in_green_beret_zoi, neutral_border, zoi_hexes

SIDES = ("communist", "allied")
#: units that never take part in a battle on either side: the fleet (14.2) and air units (11)
NOT_ENGAGED = frozenset({"fleet", "gunship", "fighter", "carrier", "sac", "soa", "interceptor"})
#: non-ground-combat units that may attack, but only alone (19.2.1, 13.1.3, 13.2.1, 14.1.1)
ATTACK_ALONE = frozenset({"artillery", "firebase", "patrol_boat"})
#: units that may not advance after combat (19.4; militia may inside a Green Beret's zone of influence)
IMMOBILE = frozenset({"firebase", "green_beret", "phoenix", "vc_base", "militia", "montagnard"})
#: units that cannot retreat: a firebase (19.3.7) or Green Beret (15.2.3.1) that must is eliminated instead
NEVER_RETREAT = frozenset({"firebase", "green_beret", "vc_base"})
FLEET_CAPACITY = 2          # 19.3.4 and 8.7: two units a turn, two aboard
ON_FLEET = "on_fleet"       # the piece mark of a unit that retreated onto the fleet (8.7)
SAIGON = "Saigon"
#: printed nationalities combat.Engaged does not list, and the one they fight as (a SEATO firebase is Allied)
_ENGAGED_NATION = {"SEATO": "ANZAC"}


def enemy(side: str) -> str:
    if side not in SIDES:
        raise ValueError(f"side is 'communist' or 'allied', not {side!r}")
    return "allied" if side == "communist" else "communist"


def _type(state: NtndState, unit: str) -> str:
    return state.counter(unit).type


def _is_zone(state: NtndState, location: str) -> bool:
    return location in state.geography.zones


def _hex(state: NtndState, location: str) -> MapHex | None:
    return None if _is_zone(state, location) else state.geography.hex(location)


def _engaged_defenders(state: NtndState, location: str, side: str) -> tuple[str, ...]:
    """The units of ``side`` at ``location`` that defend (19.1.1): every face-up one but the fleet and air units.
    Face-down units there (19.3.8) take no part."""
    return tuple(u for u in state.at(location) if state.side_of(u) == side and state.piece(u).face_up
                 and _type(state, u) not in NOT_ENGAGED)


def _hexside_block(state: NtndState, a: MapHex, b: MapHex, side: str,
                   violate: Iterable[str]) -> tuple[str, str] | None:
    """Why a unit in ``a`` may not attack into ``b`` (rule, reason), or None."""
    g = state.geography
    if g.all_sea_side(a, b):
        return "NT 19.1.2", "an all-sea hexside lies between them"
    if g.all_lake_side(a, b):
        return "NT 19.1.2", "an all-lake hexside lies between them"
    country = neutral_border(state, a, b, side)
    if country is not None and country not in set(violate):
        return "NT 10.2", (f"the hexside is the border of neutral {country}; attacking across it violates its "
                           f"neutrality (name {country} in ``violate`` to accept that)")
    return None


def _attacker_problem(state: NtndState, unit: str, location: str, side: str, fought: frozenset,
                      violate: Iterable[str]) -> tuple[str, str] | None:
    """Why one unit may not attack ``location`` (rule, reason), or None."""
    if unit not in state.pieces:
        return "NT 19.1", f"{unit} is not in play"
    c, p = state.counter(unit), state.piece(unit)
    if c.side != side:
        return "NT 19.1", f"{unit} is not a {side} unit"
    if not p.face_up:
        return "NT 6.2.1", f"{unit} is face down: only face-up units attack (an inverted unit fights by ambush)"
    if unit in fought:
        return "NT 19.1.3", f"{unit} has already fought this combat phase"
    if c.type == "vc_base":
        return "NT 28.9.5", "a VC Base may not attack"
    if not c.ground_combat and c.type not in ATTACK_ALONE:
        return "NT 19.2.1", f"a {c.type} is not a unit that attacks"
    if p.marked(ON_FLEET):
        return "NT 8.7", f"{unit} is aboard the fleet and must land first"
    if c.nationality == "Cambodian" and state.standing.get("Cambodia") == "neutral":
        return "NT 10.3.1", "Cambodian units may not attack while Cambodia is neutral"
    here = p.location
    if _is_zone(state, location) or _is_zone(state, here):
        if here != location:
            return "NT 9.3", "a battle in an off-board zone is fought by units in that zone (our reading)"
    else:
        a, b = state.geography.hex(here), state.geography.hex(location)
        if not a.is_adjacent(b):
            return "NT 19.1", f"{unit} at {here} is not adjacent to {location}"
        block = _hexside_block(state, a, b, side, violate)
        if block:
            return block
    home = MILITIA_HOMES.get(c.nationality) if c.type == "militia" else (
        GUERRILLA_HOMES.get(c.nationality) if is_guerrilla(state, unit) else None)
    if home is not None:
        country = (state.geography.zone(here).country if _is_zone(state, here)
                   else state.geography.country(state.geography.hex(here)))
        if country != home:
            return "NT 8.9.1", f"{unit} is outside {home} and may not take part in attacks there"
    return None


@implements("NT 19.1", "NT 19.1.1", "NT 19.1.2", "NT 19.1.3", "NT 9.3", "NT 10.2", "NT 10.3.1", "NT 8.9.1",
            "NT 28.9.5", "NT 6.2.1")
def check_attack(state: NtndState, attackers: Iterable[str], defender_location: str, side: str, *,
                 fought: Iterable[str] = (), violate: Iterable[str] = ()) -> tuple[str, ...]:
    """Check that ``attackers`` (of the phasing ``side``) may attack the units at ``defender_location`` and
    return the defending units: every face-up enemy unit there but the fleet and air units (19.1.1: a stack
    defends whole). Attackers are face up (19.1), adjacent (19.1) and not behind an all-sea or all-lake hexside
    (19.1.2), nor behind a neutral border unless its country is in ``violate`` (10.2); none, attacker or
    defender, is in ``fought`` (19.1.3). A support unit (artillery, firebase, patrol boat) attacks only alone
    (19.2.1). In an off-board zone the attackers are in that zone (9.3, our reading)."""
    attackers = tuple(attackers)
    fought = frozenset(fought)
    if not attackers:
        raise RuleViolation("NT 19.1", "an attack needs at least one attacking unit")
    if len(set(attackers)) != len(attackers):
        raise RuleViolation("NT 19.1", "a unit is named twice among the attackers")
    if not _is_zone(state, defender_location):
        try:
            state.geography.hex(defender_location)
        except (DataError, KeyError, ValueError) as e:
            raise RuleViolation("NT 19.1", f"{defender_location!r} is neither a hex of the map nor a zone") from e
    foe = enemy(side)
    if not any(state.side_of(u) == foe for u in state.at(defender_location)):
        raise RuleViolation("NT 19.1", f"no {foe} unit is at {defender_location}")
    defenders = _engaged_defenders(state, defender_location, foe)
    if not defenders:
        raise RuleViolation("NT 19.1", f"no face-up {foe} unit at {defender_location} can be attacked")
    again = [u for u in defenders if u in fought]
    if again:
        raise RuleViolation("NT 19.1.3", f"{', '.join(again)} already fought this combat phase")
    for u in attackers:
        problem = _attacker_problem(state, u, defender_location, side, fought, violate)
        if problem:
            raise RuleViolation(*problem)
    support_only = [u for u in attackers if not state.counter(u).ground_combat]
    if support_only and len(attackers) > 1:
        raise RuleViolation("NT 19.2.1", f"{', '.join(support_only)}: artillery, firebases and patrol boats "
                                         "attack only alone; with other units they give fire support instead")
    return defenders


@implements("NT 19.1.2", "NT 17.2", "NT 10.2.2")
def reveal(state: NtndState, *, violate: Iterable[str] = (), res: Resolution | None = None) -> NtndState:
    """At the start of the Allied combat phase every inverted Communist unit next to an Allied ground combat
    unit is turned face up (19.1.2), except behind an all-sea or all-lake hexside, or behind a neutral border
    the Allied player does not mean to attack across (``violate`` names the countries he does). In an off-board
    zone, those sharing the zone with an Allied ground combat unit (our reading of 9.3). A dummy turned up is
    removed to the mix, without points (17.2). Being revealed violates no neutrality (10.2.2)."""
    g = state.geography
    allied = [u for u in state.units("allied") if state.counter(u).ground_combat
              and not state.piece(u).marked(ON_FLEET)]
    near_hexes: dict[MapHex, list[MapHex]] = {}
    zones = set()
    for u in allied:
        loc = state.piece(u).location
        if _is_zone(state, loc):
            zones.add(loc)
        else:
            h = g.hex(loc)
            for n in g.map.neighbors(h):
                near_hexes.setdefault(n, []).append(h)
    new = state.copy()
    for u in state.units("communist", face_up=False):
        loc = state.piece(u).location
        if _is_zone(state, loc):
            hit = loc in zones
        else:
            h = g.hex(loc)
            hit = any(_hexside_block(state, a, h, "allied", violate) is None for a in near_hexes.get(h, ()))
        if not hit:
            continue
        if state.counter(u).type == "dummy":
            if res is not None:
                res.add("NT 17.2", f"{u} is a dummy: turned up, it is removed", unit=u)
            eliminate(new, u, res=res)
        else:
            new.update(u, face_up=True)
            if res is not None:
                res.add("NT 19.1.2", f"{u} at {loc} is turned face up", unit=u)
    return new


@dataclass(frozen=True)
class Candidate:
    """A hex or zone ``side`` may attack now, with the units that may take part (any non-empty set of them that
    :func:`check_attack` accepts)."""

    defender_location: str
    defenders: tuple[str, ...]
    attackers: tuple[str, ...]


def combat_candidates(state: NtndState, side: str, *, fought: Iterable[str] = (),
                      violate: Iterable[str] = ()) -> list[Candidate]:
    """Every enemy hex or zone ``side`` may attack this combat phase and who may join each attack (19.1)."""
    fought = frozenset(fought)
    foe = enemy(side)
    out = []
    locations = sorted({state.piece(u).location for u in state.units(foe, face_up=True)})
    for loc in locations:
        defenders = _engaged_defenders(state, loc, foe)
        if not defenders or any(u in fought for u in defenders):
            continue
        near = []
        for u in state.units(side, face_up=True):
            if _attacker_problem(state, u, loc, side, fought, violate) is None:
                near.append(u)
        if near:
            out.append(Candidate(loc, defenders, tuple(near)))
    return out


def record_battle(fought: Iterable[str], battle: Battle) -> frozenset[str]:
    """``fought`` with every unit engaged in ``battle`` added (19.1.3)."""
    return frozenset(fought) | {u.id for u in battle.attackers + battle.defenders}


# ------------------------------------------------------------------------------------------------ the Battle
def _distance(state: NtndState, unit: str, target: str) -> int | None:
    """Hexes from a unit to the hex under attack (0 in it); in a zone battle only units in that zone, at 0."""
    loc = state.piece(unit).location
    if _is_zone(state, target) or _is_zone(state, loc):
        return 0 if loc == target else None
    return state.hex_of(unit).distance(state.geography.hex(target))


@implements("NT 19.2.2", "NT 13.1.1", "NT 13.2.1", "NT 13.4", "NT 14.1", "NT 14.2", "NT 19.3.8", "NT 2.2 Note")
def fire_support_in_range(state: NtndState, defender_location: str, attacker: str, *,
                          out_of_supply: Iterable[str] = ()) -> tuple[Support, ...]:
    """Every face-up fire-support unit in range of the hex under attack (19.2.2): Communist artillery in or next
    to it, Allied firebases and the fleet within two hexes, patrol boats in or next to it. A face-down unit
    (19.3.8) gives none. ``out_of_supply``: the phasing side's support units without supply this turn (13.4:
    the other side's are always supplied)."""
    out_of_supply = frozenset(out_of_supply)
    for u in out_of_supply:
        if u not in state.pieces or state.side_of(u) != attacker:
            raise RuleViolation("NT 13.4", f"{u}: only the phasing side's support units can be out of supply "
                                           "(in the opponent's turn they always are supplied)")
    out = []
    for u, piece in state.pieces.items():
        t = _type(state, u)
        if not artillery_dot(state.counter(u)) or not piece.face_up:
            continue                                 # 2.2 note: only counters with the dot give fire support
        side, reach = combat.FIRE_SUPPORT[t]
        if state.side_of(u) != side:
            continue
        d = _distance(state, u, defender_location)
        if d is not None and d <= reach:
            out.append(Support(u, t, d, supplied=u not in out_of_supply))
    return tuple(out)


def _engaged(state: NtndState, unit: str, adjustments: list[Adjustment]) -> Engaged:
    c = state.counter(unit)
    return Engaged(unit, c.type, _ENGAGED_NATION.get(c.nationality, c.nationality), c.morale or 0,
                   tuple(adjustments), in_zone=state.in_zone(unit))


def us_ground_in_svn(state: NtndState) -> bool:
    """Whether a US ground combat unit is on a hex of South Vietnam (25.3, 25.4)."""
    g = state.geography
    for u in state.units("allied"):
        c = state.counter(u)
        if c.nationality == "US" and c.ground_combat and not state.in_zone(u) \
                and g.country(state.hex_of(u)) == "SVN":
            return True
    return False


@implements("NT 19.2", "NT 19.2.1", "NT 11.1.2", "NT 11.3", "NT 18.2.1.4", "NT 15.2.2", "NT 16.3", "NT 28.2.1",
            "NT 7.3.3", "NT 25.2", "NT 25.4.1", "NT 19.2.3", "NT 9.2", "NT 28.9.4", "NT 28.8", "NT 12.3")
def battle_from_state(state: NtndState, attackers: Iterable[str], defender_location: str, *,
                      side: str | None = None, fought: Iterable[str] = (), violate: Iterable[str] = (),
                      ground_support: Iterable[str] = (), airmobile_near_aa: Iterable[str] = (),
                      armour_shock: bool = False, out_of_supply: Iterable[str] = (), unsupplied: Iterable[str] = (),
                      points_at_turn_start: int | None = None, charts: NtndCharts | None = None) -> Battle:
    """The :class:`Battle` the position makes when ``attackers`` attack ``defender_location``.

    * morale (19.2.1): each unit's printed morale, -1 for each unit named in ``ground_support`` (11.1.2: one
      name per air unit that survived AA fire; Communist ground combat units only, each once, two per hex);
      +1 for militia and Montagnards in a Green Beret's zone of influence (15.2.2, 16.3) and for the 5SFM there
      (28.2.1); +1 for militia in an Allied-Controlled area (7.3.3); -1 for South Vietnamese ground combat units
      while ARVN is demoralized (25.1-25.2: ``points_at_turn_start`` below 50, by default the track now); -1 for
      each attacker in ``unsupplied``, the phasing side's units that began the combat phase out of supply
      (18.2.1.4; the defence is always supplied, 18.4);
    * the 25.4.1 desertion rolls when :meth:`Policy.morale_rules` says so, with the control of the area fought in;
    * fire support in range (:func:`fire_support_in_range`);
    * terrain of the defender's hex (a zone is clear, 9.2) and each attacking hex (for the river rows);
    * a VC Base in, or next to, the hex under attack or an attacking hex (28.9.4, our reading of "the combat");
    * ``armour_shock`` (28.8, the declared turn) and ``airmobile_near_aa`` (12.3), as the Game knows them."""
    attackers = tuple(attackers)
    if side is None:
        if not attackers or attackers[0] not in state.pieces:
            raise RuleViolation("NT 19.1", "an attack needs at least one attacking unit in play")
        side = state.side_of(attackers[0])
    defenders = check_attack(state, attackers, defender_location, side, fought=fought, violate=violate)
    engaged = attackers + defenders
    adjust: dict[str, list[Adjustment]] = {u: [] for u in engaged}
    # 11.1.2 ground support
    gs = tuple(ground_support)
    if gs and is_monsoon(state.turn):
        raise RuleViolation("NT 11.3", "no ground support missions are flown in monsoon turns")
    per_hex: dict[str, int] = {}
    for u in gs:
        if u not in adjust or state.side_of(u) != "communist" or not state.counter(u).ground_combat:
            raise RuleViolation("NT 11.1.2", f"{u}: ground support lowers an engaged Communist ground combat unit")
        if any(a.rule == "NT 11.1.2" for a in adjust[u]):
            raise RuleViolation("NT 11.1.2", f"{u}: a unit's morale is lowered by ground support only once")
        loc = state.piece(u).location
        per_hex[loc] = per_hex.get(loc, 0) + 1
        if per_hex[loc] > 2:
            raise RuleViolation("NT 11.1.2", f"at most two air units give ground support on one hex ({loc})")
        adjust[u].append(Adjustment(-1, "NT 11.1.2", "ground support"))
    for u in unsupplied:
        if u in attackers and state.counter(u).ground_combat:
            adjust[u].append(Adjustment(-1, "NT 18.2.1.4", "out of supply as the combat phase began"))
    points = state.track.points if points_at_turn_start is None else points_at_turn_start
    demoralized = state.policy.demoralized(points)
    for u in engaged:
        c = state.counter(u)
        if c.side != "allied":
            continue
        loc = state.piece(u).location
        h = _hex(state, loc)
        gb = h is not None and in_green_beret_zoi(state, h)
        if gb and c.type in ("militia", "montagnard"):
            adjust[u].append(Adjustment(+1, "NT 15.2.2", "in a Green Beret's zone of influence"))
        if gb and "5sfm" in c.tags:
            adjust[u].append(Adjustment(+1, "NT 28.2.1", "5SFM in a Green Beret's zone of influence"))
        if militia_morale_bonus(state, u, charts):
            adjust[u].append(Adjustment(+1, "NT 7.3.3", "militia in an Allied-Controlled area"))
        if demoralized and c.nationality == "SVN" and c.ground_combat:
            adjust[u].append(Adjustment(-1, "NT 25.2", "ARVN demoralized"))
    desertion = None
    if "NT 25.4" in state.policy.morale_rules(points, us_ground_in_svn(state)):
        area = state.area_of(defender_location)
        ctrl = control(state, area, charts) if area in state.hearts_minds else None
        desertion = Desertion(ctrl)
    engaged_of = {u: _engaged(state, u, adjust[u]) for u in engaged}
    # terrain
    g = state.geography
    if _is_zone(state, defender_location):
        dhex, ahexes = combat.Hex("zone"), ()
    else:
        dh = g.hex(defender_location)
        dhex = _battle_hex(state, dh)
        seen = dict.fromkeys(state.piece(u).location for u in attackers)
        ahexes = tuple(_battle_hex(state, g.hex(loc)) for loc in seen)
    # 28.9.4
    battle_hexes = {defender_location} | {state.piece(u).location for u in attackers}
    base_near = False
    for b in state.units("communist"):
        if _type(state, b) != "vc_base" or b in defenders:
            continue
        bl = state.piece(b).location
        if bl in battle_hexes or (not _is_zone(state, bl) and any(
                not _is_zone(state, x) and g.hex(x).is_adjacent(g.hex(bl)) for x in battle_hexes)):
            base_near = True
    return Battle(side, tuple(engaged_of[u] for u in attackers), tuple(engaged_of[u] for u in defenders),
                  fire_support_in_range(state, defender_location, side, out_of_supply=out_of_supply),
                  dhex, ahexes, base_near, armour_shock, tuple(airmobile_near_aa), desertion, charts)


def _battle_hex(state: NtndState, h: MapHex) -> combat.Hex:
    """What the Terrain Effects Chart reads of a map hex: its terrain (an all-sea hex, where only boats fight
    from, as clear) and its settlements, rivers and coast."""
    g = state.geography
    terrain = g.terrain(h) if g.terrain(h) in combat.TERRAINS else "clear"
    return combat.Hex(terrain, frozenset(f for f in ("town", "city", "minor_river", "major_river", "coastal")
                                         if g.has(h, f)))


@implements("NT 24.4.6")
def charge_attack(state: NtndState, battle: Battle, res: Resolution | None = None) -> NtndState:
    """An Allied attack by a force with US or SEATO ground combat units costs one political point at once while
    Full or Partial Vietnamization is in effect (24.4.6, :meth:`Policy.attack_pp`). Returns the new position."""
    with_them = battle.attacker == "allied" and any(
        u.ground_combat and (state.counter(u.id).nationality == "US" or state.counter(u.id).seato)
        for u in battle.attackers)
    points = -state.policy.attack_pp(with_them)
    new = state.copy()
    if points:
        new.track = state.track.add(points, state.policy, state.turn)
        if res is not None:
            res.add("NT 24.4.6", "an attack with US or SEATO ground units under Vietnamization",
                    arithmetic=f"{state.track.points} {points:+d} = {new.track.points}", result=points)
    return new


# ------------------------------------------------------------------------------------------------ eliminations
@implements("NT 22.3", "NT 22.4", "NT 15.2.3.2")
def eliminate(state: NtndState, unit: str, *, cause: str = "combat", res: Resolution | None = None) -> NtndState:
    """Eliminate one unit, in place on ``state`` (a copy the caller owns): Allied units to the dead pile,
    Communist ones to the mix; the track moves at once (22.3). A Green Beret takes with it the militia and
    Montagnards of its zone of influence that are not in a town or city (15.2.3.2, no points)."""
    counter = state.counter(unit)
    gb_zone = None
    if counter.type == "green_beret" and not state.in_zone(unit):
        gb_zone = zoi_hexes(state, unit)
    state.remove(unit, eliminated=cause == "combat" or cause == "desertion")
    if res is not None:
        res.add("NT 19.2.6", f"{unit} is eliminated ({cause})", unit=unit, cause=cause)
    score_loss(state, unit, cause=cause, res=res)
    for u in green_beret_dependants(state, gb_zone) if gb_zone else ():
        if u in state.pieces:
            eliminate(state, u, cause="green_beret_lost", res=res)
    return state


@implements("NT 15.2.3.2", "NT 16.5")
def green_beret_dependants(state: NtndState, zone) -> list[str]:
    """The militia and Montagnards that go with a Green Beret gone from ``state`` (its zone of influence was
    ``zone``): those in the zone, outside towns and cities, that no other Green Beret's zone covers (15.2.3.2)."""
    g, out = state.geography, []
    for u in sorted(state.pieces):
        if state.counter(u).type in ("militia", "montagnard") and state.side_of(u) == "allied" \
                and not state.in_zone(u):
            h = state.hex_of(u)
            if h in zone and not g.is_settlement(h) and not in_green_beret_zoi(state, h):
                out.append(u)
    return out


def loss_choices(result: CombatResult, side: str) -> list[tuple[str, ...]]:
    """The sets of ground combat units ``side`` may give up (19.2.6: ``losses`` of its engaged ones)."""
    out = result.of(side)
    return [tuple(c) for c in combinations(out.eligible, out.losses)]


@implements("NT 19.2.6", "NT 25.3", "NT 25.4.2", "NT 19.3.7", "NT 14.1.2", "NT 15.2.3.1", "NT 13.1", "NT 13.1.2")
def apply_losses(state: NtndState, result: CombatResult, chosen: Mapping[str, Iterable[str]], *,
                 res: Resolution | None = None) -> NtndState:
    """Apply a battle's eliminations: for each side, the ``chosen`` ground combat units (one of
    :func:`loss_choices`), the units the result eliminates outright (SAMs alone 13.3, a VC Base's hex 28.9.6),
    the units forced to retreat that are destroyed by it (firebase 19.3.7, Green Beret 15.2.3.1, patrol boat
    against armour or artillery 14.1.2), and deserters (25.4.1: to the dead pile or the mix, no points 25.3)."""
    chosen = {s: tuple(v) for s, v in chosen.items()}
    for s in chosen:
        if s not in SIDES:
            raise RuleViolation("NT 19.2.6", f"{s!r} is not a side")
    for s in SIDES:
        out = result.of(s)
        pick = chosen.get(s, ())
        if sorted(pick) not in [sorted(c) for c in loss_choices(result, s)]:
            raise RuleViolation("NT 19.2.6", f"the {s} player loses {out.losses} of "
                                             f"{', '.join(out.eligible) or 'no units'}, not {pick or 'none'}")
        missing = [u for u in pick + out.eliminated if u not in state.pieces]
        if missing:
            raise RuleViolation("NT 19.2.6", f"{', '.join(missing)} not in play")
    new = state.copy()
    for s in (result.defender.side, result.attacker.side):
        out = result.of(s)
        for u in out.deserted:
            if u in new.pieces:
                eliminate(new, u, cause="desertion", res=res)
        for u in chosen.get(s, ()) + out.eliminated:
            if u in new.pieces:
                eliminate(new, u, res=res)
        for u in out.destroyed_by_retreat:
            if u in out.retreat and u in new.pieces:
                eliminate(new, u, res=res)
    return new


# ------------------------------------------------------------------------------------------------ retreats
def retreating_units(state: NtndState, result: CombatResult, side: str, location: str) -> tuple[str, ...]:
    """The units of ``side`` that must now retreat one hex (19.2.6): the result's ``retreat`` still in play,
    with the face-down units of that side in the hex of the battle (19.3.8) when they were the defenders."""
    out = result.of(side)
    units = [u for u in out.retreat if u in state.pieces and u not in out.destroyed_by_retreat]
    if units and side == result.defender.side and not _is_zone(state, location):
        units += [u for u in state.at(location) if state.side_of(u) == side and not state.piece(u).face_up
                  and u not in units]
    return tuple(units)


@implements("NT 19.2.6", "NT 19.3.1")
def retreat_sequence(state: NtndState, result: CombatResult, location: str) -> list[tuple[str, tuple[str, ...],
                                                                                        tuple[str, ...]]]:
    """Who retreats, in the order the rules give: ``(side, must, may)`` triples. After a win only the loser
    moves, every unit of ``must`` (:func:`retreating_units`). In a tie the defender decides, and moves, first,
    then the attacker (19.2.6); ``may`` lists the units each may retreat or keep in place (our reading: unit by
    unit, as a retreating stack may split, 19.3.1)."""
    out = []
    for side in (result.defender.side, result.attacker.side):
        o = result.of(side)
        must = retreating_units(state, result, side, location)
        may = tuple(u for u in o.may_retreat if u in state.pieces)
        if must or may:
            out.append((side, must, may))
    return out


def _fleet(state: NtndState) -> str | None:
    fleets = [u for u in state.units("allied") if _type(state, u) == "fleet"]
    return fleets[0] if fleets else None


def _aboard(state: NtndState) -> int:
    return sum(1 for p in state.pieces.values() if p.marked(ON_FLEET))


def _enemy_at(state: NtndState, location: str, side: str) -> bool:
    return any(state.side_of(u) != side for u in state.at(location))


@implements("NT 19.3", "NT 19.3.3", "NT 19.3.4", "NT 19.3.5", "NT 19.3.9", "NT 8.7", "NT 8.6.2", "NT 13.2")
def retreat_options(state: NtndState, unit: str) -> list[str]:
    """Where ``unit`` may retreat (19.3): each adjacent hex free of enemy units that its type may enter (no
    all-sea hex or all-sea/all-lake hexside for land units; patrol boats stay on sea, coastal or major-river
    hexes, 8.6.2), across borders too (19.3.3), and each off-board zone the hex borders (19.3.9); ``"fleet"``
    for an Allied ground unit on a coastal hex while fewer than two are aboard (19.3.4, 8.7, not a firebase);
    for an Allied airmobile unit, any town or city held by friendly units within its airmobile range (19.3.5:
    its corps area and the areas bordering it, 9 hexes in the monsoon). A unit in a zone never retreats
    (19.3.9): no options."""
    piece, c = state.piece(unit), state.counter(unit)
    side, g = c.side, state.geography
    if _is_zone(state, piece.location) or piece.marked(ON_FLEET) or c.type in NEVER_RETREAT:
        return []
    h = g.hex(piece.location)
    out: list[str] = []
    for n in g.map.neighbors(h):
        label = g.label(n)
        if _enemy_at(state, label, side):
            continue
        if c.type == "patrol_boat":
            if not g.naval(n):
                continue
        elif g.is_all_sea(n) or g.all_sea_side(h, n) or g.all_lake_side(h, n):
            continue
        out.append(label)
    for z in g.zones_bordering(h):
        if c.type != "patrol_boat" and not _enemy_at(state, z, side):
            out.append(z)
    if side == "allied" and c.ground_combat and g.is_coastal(h) and _fleet(state) is not None \
            and _aboard(state) < FLEET_CAPACITY:
        out.append("fleet")
    if side == "allied" and c.airmobile:
        area = g.area(h)
        reach = ({area} | g.areas_bordering(area)) if area else set()
        for x, xi in sorted(g.map.hexes.items()):
            label = g.label(x)
            if x == h or label in out or not g.is_settlement(x):
                continue
            here = state.at(label)
            if not here or any(state.side_of(u) != "allied" for u in here):
                continue
            ok = x.distance(h) <= 9 if is_monsoon(state.turn) else xi.attr("area") in reach
            if ok:
                out.append(label)
    return out


@implements("NT 19.3", "NT 19.3.6", "NT 19.3.8", "NT 8.7")
def retreat(state: NtndState, unit: str, to: str | None, *, under_attack: Iterable[str] = (),
            result: CombatResult | None = None, res: Resolution | None = None) -> NtndState:
    """Retreat ``unit`` to ``to`` (one of :func:`retreat_options`). ``to=None`` is allowed only when there is no
    option: the unit is then eliminated (19.3.6). ``"fleet"`` puts it aboard the fleet, in the fleet's location
    (8.7). A unit that retreats into a hex in ``under_attack`` (hexes attacked this combat phase) is turned face
    down and takes no part in that battle (19.3.8). Check the stacking of ``to`` afterwards with
    :func:`overstack_choices` (19.3.2). Given the battle's ``result``, the unit must be one that retreats (or
    may, in a tie), and one the result says a retreat destroys (a patrol boat against armour or artillery,
    14.1.2) is eliminated instead."""
    if result is not None:
        side = state.side_of(unit)
        out = result.of(side)
        if unit not in retreating_units(state, result, side, state.piece(unit).location) + out.may_retreat:
            raise RuleViolation("NT 19.2.6", f"{unit} does not retreat after this battle")
        if unit in out.destroyed_by_retreat:
            if res is not None:
                res.add("NT 14.1.2", f"{unit} would retreat: it is eliminated instead", unit=unit)
            return eliminate(state.copy(), unit, res=res)
    options = retreat_options(state, unit)
    if to is None:
        if options:
            raise RuleViolation("NT 19.3.6", f"{unit} can retreat ({', '.join(options)}); only a unit with "
                                             "nowhere to go is eliminated")
        new = state.copy()
        if res is not None:
            res.add("NT 19.3.6", f"{unit} cannot retreat and is eliminated", unit=unit)
        return eliminate(new, unit, res=res)
    if to not in options:
        raise RuleViolation("NT 19.3", f"{unit} may not retreat to {to}: "
                                       f"{'its options are ' + ', '.join(options) if options else 'it has none'}")
    new = state.copy()
    if to == "fleet":
        new.update(unit, location=new.piece(_fleet(new)).location,
                   marks=new.piece(unit).marks | {ON_FLEET})
    else:
        new.update(unit, location=to, face_up=new.piece(unit).face_up and to not in set(under_attack))
    if res is not None:
        res.add("NT 19.3", f"{unit} retreats to {to}", unit=unit, to=to)
    return new


def _stack_excess(state: NtndState, location: str, side: str) -> list[tuple[list[str], int]]:
    """The groups over the limit at ``location`` (8.10.1): (units of the group, how many must go)."""
    if _is_zone(state, location):
        return []                                    # 8.10.1.3
    units = [u for u in state.at(location) if state.side_of(u) == side and not state.piece(u).marked(ON_FLEET)]
    slots = ALLIED_SLOTS if side == "allied" else COMMUNIST_SLOTS
    groups: dict[str, list[str]] = {}
    for u in units:
        if state.carries(u) is not None:
            continue                                 # 8.10.1.1: one unit with the ground unit it carries
        c = state.counter(u)
        if c.type in slots:
            groups.setdefault(slots[c.type], []).append(u)
        elif c.ground_combat or c.type == "dummy":
            groups.setdefault("ground", []).append(u)
    g = state.geography
    saigon = g.name(g.hex(location)) == SAIGON
    out = []
    for name, members in groups.items():
        limit = (3 if side == "allied" and saigon else 2) if name == "ground" else 1
        if len(members) > limit:
            out.append((members, len(members) - limit))
    return out


@implements("NT 19.3.2", "NT 8.10.1", "NT 8.10.1.1", "NT 8.10.1.2", "NT 8.10.1.3", "NT 2.2")
def overstack_choices(state: NtndState, location: str, side: str) -> list[tuple[str, ...]]:
    """The sets of ``side``'s units at ``location`` the owner may eliminate to end an overstack there (19.3.2);
    ``[()]`` when the stack is legal."""
    choice: list[tuple[str, ...]] = [()]
    for members, n in _stack_excess(state, location, side):
        choice = [a + b for a in choice for b in combinations(members, n)]
    return choice


@implements("NT 19.3.2", "NT 8.10.1.1")
def eliminate_overstack(state: NtndState, location: str, side: str, chosen: Iterable[str], *,
                        res: Resolution | None = None) -> NtndState:
    """Eliminate the ``chosen`` units (one of :func:`overstack_choices`) of an overstacked hex (19.3.2). A unit
    with a helicopter attached is one unit with it (8.10.1.1): the helicopter goes too (11.1.4)."""
    chosen = tuple(chosen)
    if sorted(chosen) not in [sorted(c) for c in overstack_choices(state, location, side)]:
        raise RuleViolation("NT 19.3.2", f"at {location} the {side} player must eliminate exactly the units over "
                                         f"the stacking limit, one of {overstack_choices(state, location, side)}")
    new = state.copy()
    for u in chosen:
        if res is not None:
            res.add("NT 19.3.2", f"{u} is over the stacking limit at {location}", unit=u)
        heli = new.helicopter_of(u)
        eliminate(new, u, res=res)
        if heli is not None:
            if res is not None:
                res.add("NT 8.10.1.1", f"{heli} is one unit with {u}: it goes too", unit=heli)
            eliminate(new, heli, res=res)
    return new


# ------------------------------------------------------------------------------------------------ advance
def _advance_problem(state: NtndState, unit: str, target: MapHex) -> str | None:
    c, g = state.counter(unit), state.geography
    if c.type in IMMOBILE:
        if c.type in ("militia", "montagnard") and in_green_beret_zoi(state, state.hex_of(unit)) \
                and in_green_beret_zoi(state, target):
            return None
        return f"a {c.type} is immobile"
    if c.type == "patrol_boat":
        return None if g.naval(target) else "a patrol boat stays on sea, coastal or major-river hexes"
    if g.is_all_sea(target):
        return "ground units never enter all-sea hexes"
    return None


@implements("NT 19.4")
def advance_options(state: NtndState, result: CombatResult, battle: Battle, defender_location: str, *,
                    retreated: Iterable[str] = ()) -> tuple[str, ...]:
    """The attacking units that may advance into the hex attacked (19.4): the attacker won, or tied and did not
    retreat (``retreated``: its units that did); the hex holds no enemy unit; each unit is still in play, in
    the hex it attacked from, and mobile (militia only within a Green Beret's zone of influence; not
    firebases). No advance into an off-board zone. Any set of them within the stacking limits may go."""
    side = battle.attacker
    if _is_zone(state, defender_location) or result.winner not in (side, None):
        return ()
    if result.winner is None and any(u.id in set(retreated) for u in battle.attackers):
        return ()
    if _enemy_at(state, defender_location, side):
        return ()
    target = state.geography.hex(defender_location)
    out = []
    for e in battle.attackers:
        if e.id not in state.pieces or e.id in set(retreated) or state.in_zone(e.id):
            continue
        if not state.hex_of(e.id).is_adjacent(target):
            continue
        if _advance_problem(state, e.id, target) is None:
            out.append(e.id)
    return tuple(out)


def advance(state: NtndState, result: CombatResult, battle: Battle, defender_location: str,
            units: Iterable[str], *, retreated: Iterable[str] = (), res: Resolution | None = None) -> NtndState:
    """Advance ``units`` (any of :func:`advance_options`) into the hex attacked (19.4), within its stacking
    limits (8.10.1)."""
    units = tuple(units)
    allowed = advance_options(state, result, battle, defender_location, retreated=retreated)
    wrong = [u for u in units if u not in allowed]
    if wrong or len(set(units)) != len(units):
        raise RuleViolation("NT 19.4", f"{', '.join(wrong) or 'a unit named twice'} may not advance "
                                       f"(may: {', '.join(allowed) or 'none'})")
    new = state.copy()
    for u in units:
        new.update(u, location=defender_location)
    if _stack_excess(new, defender_location, battle.attacker):
        raise RuleViolation("NT 19.4", f"advancing {', '.join(units)} would overstack {defender_location}")
    if res is not None and units:
        res.add("NT 19.4", f"{', '.join(units)} advance into {defender_location}", units=list(units))
    return new
