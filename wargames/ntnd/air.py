"""No Trumpets No Drums, rules 11 and 12: Allied air missions, dogfights and Communist anti-aircraft fire.

The air box (11.2) lives in ``NtndState.air``: each Allied air unit in play is ``"available"`` or
``"unavailable"``. A phase's missions go through three calls, in the order 11.2 gives:

1. :func:`assign_missions` takes the units of each :class:`Mission` out of the available box (refusing any in the
   unavailable box) and puts them over their targets. While flying they are in neither box: the caller keeps the
   missions. A transport helicopter goes straight onto the map with its ground unit (11.3.1).
2. :func:`refresh_unavailable` moves the unavailable box back to the available box.
3. Each mission is resolved: dogfights in zones with interceptors (:func:`dogfight`), anti-aircraft fire
   (:func:`roll_aa`), then :func:`resolve_bombing`, :func:`resolve_ground_support` or :func:`resolve_supply`.
   The survivors go to the unavailable box; the units shot down go to the Allied dead pile (4.2.3).

Every choice the rules give a player is a parameter: the Allied player's losses (``losses``, listed by
:func:`legal_losses` / :func:`legal_dogfight_losses`), the Communist unit a bomb destroys (``victims``, listed
by :func:`bombing_victims`), the units whose morale ground support lowers (``targets``, listed by
:func:`ground_support_targets`). :func:`bombing_odds` enumerates the same procedure for exact chances.

Readings (each also stated where the code applies it):

* Losses (12.1.1, 11.5): every hit destroys one air unit while one it can reach is left; the Allied player picks
  which, and a mixed group is hit unit by unit, so a roll that brings down a fighter but not a SAC (12.1.2) must
  be taken on a fighter. A ``losses`` list is read as the Allied player's order of preference.
* A Niagara mission (11.8) is one mission of two attacks (each SAC alone, the fighters in pairs in the order
  listed); an attack bombs only if none of its own aircraft was shot down.
* "Only clear terrain" (11.1.1.1) is a hex whose terrain type is clear, whatever its features.
* Interceptors (11.5, 12.1.1): in a zone where Allied fighters fly, every interceptor there dogfights first; the
  survivors then fire as anti-aircraft units at each mission in the zone, as the chart lists them. Every AA unit
  fires once per mission, and AA units fire whether face up or inverted.
* VC Bases (28.9.8) can be chosen as the bombing loss only after a SAC's roll of 6.
* Ground support in a zone obeys the same two-unit limit as in a hex; supply in a zone draws fire from the zone
  itself and from the zones and hexes next to it.
* The SOA (28.1.1) carries South Vietnamese and Laotian units of any type and Thai rangers.
* Helicopters are attached in the Air Operations phase (11.3), not the movement phase that 3.2.3 names; the unit
  already moved this player turn, so it flies as airmobile from the next one, as 11.1.4 says. A helicopter's
  attachment is the mark ``transport:<unit>`` on its piece; it is never cleared by the turn's end.

:func:`air_politics` tells the Game what a batch of missions costs under 24.2.8 and 23.5 and which neutral states
it violates (10.2.3.1).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations
from typing import Hashable, Iterable, Mapping, Sequence

from ..core import Dice, Distribution, Resolution, enumerate_outcomes, implements
from ..core.dice import roll_die
from ..core.errors import RuleViolation
from .calendar import KEY_TURNS
from .charts import NtndCharts, aa_hit, aa_hit_rolls, charts_in_use
from .combat import Adjustment
from .engagement import eliminate
from .movement import is_monsoon
from .political import score_loss
from .state import TRANSPORT_MARK, NtndState
from .units import airmobile_symbol

#: the phase names this module reads from ``NtndState.phase`` (3.1.5, 3.2.5)
REACTION_PHASE = "allied_reaction"
AIR_PHASE = "air_operations"
MISSIONS = ("bombing", "ground_support", "supply", "transport")
ALLIED_AIR = ("gunship", "fighter", "carrier", "sac", "soa")
FIGHTERS = ("fighter", "carrier")                     # 11.6: carrier wings count as US fighters
BOMBERS = ("sac", "soa")                              # 28.1.2: the SOA bombs as a strategic bomber
#: 11.1.1-11.1.4 and 28.1: the air types that may fly each mission (the SOA flies every helicopter mission, 28.1,
#: and bombs as a strategic bomber, 28.1.2)
MISSION_TYPES = {"bombing": FIGHTERS + BOMBERS, "ground_support": FIGHTERS + ("gunship", "soa"),
                 "supply": ALLIED_AIR, "transport": ("gunship", "soa")}
#: 11.3: the phases in which each mission may be flown
MISSION_PHASES = {"bombing": (AIR_PHASE,), "ground_support": (REACTION_PHASE, AIR_PHASE),
                  "supply": (AIR_PHASE,), "transport": (AIR_PHASE,)}
GROUND_SUPPORT_LIMIT = 2                              # 11.1.2
JOINT_TURN = KEY_TURNS["joint_air"].turn.number       # 11.7
CARRIERS_ANYWHERE_TURN = KEY_TURNS["carriers_anywhere"].turn.number   # 11.6
NIAGARA_TURN = KEY_TURNS["niagara"].turn.number       # 11.8
LINEBACKER_TURN = KEY_TURNS["linebacker"].turn.number  # 11.9
CARRIER_COUNTRIES = ("NV", "Laos", "China")           # 11.6
SOA_COUNTRIES = ("Laos", "SVN")                       # 28.1.2-28.1.3 (and Cambodia once Allied)
INTERCEPTOR_ZONES = ("China", "Hanoi", "Haiphong")    # 11.5, 8.2.5
FIGHTER_KILLS = frozenset({3, 4, 5, 6})               # 11.5: a fighter's roll that destroys an interceptor
INTERCEPTOR_KILLS = frozenset({4, 5, 6})              # 11.5: an interceptor's roll that destroys an air unit
#: 13.4, 18.3: the AA units that need supply to fire in their own player turn
SUPPLY_BOUND_AA = ("artillery", "sam")
GS = Adjustment(-1, "NT 11.1.2", "ground support")


# ============================================================================================ missions
@dataclass(frozen=True)
class Mission:
    """One air mission: its kind (:data:`MISSIONS`), the air units flying it, and its target: a hex label or
    zone name, or for a transport mission the ground unit the helicopter joins."""

    kind: str
    target: str
    units: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", tuple(self.units))


def _fail(rule: str, reason: str):
    raise RuleViolation(rule, reason)


def _country(state: NtndState, location: str) -> str:
    g = state.geography
    if location in g.zones:
        return g.zone(location).country
    return g.country(g.hex(location))


def _communists(state: NtndState, location: str) -> list[str]:
    return [u for u in state.at(location) if state.side_of(u) == "communist"]


def _allies(state: NtndState, location: str) -> list[str]:
    return [u for u in state.at(location) if state.side_of(u) == "allied"]


def _soa_countries(state: NtndState) -> tuple[str, ...]:
    return SOA_COUNTRIES + (("Cambodia",) if state.standing.get("Cambodia") == "allied" else ())


def attacks(state: NtndState, mission: Mission) -> tuple[tuple[str, ...], ...]:
    """The attacks of a bombing mission (11.1.1, 11.8): each SAC or SOA alone, the fighters two by two."""
    bombers = [(u,) for u in mission.units if state.counter(u).type in BOMBERS]
    fighters = [u for u in mission.units if state.counter(u).type in FIGHTERS]
    return tuple(bombers) + tuple(tuple(fighters[i:i + 2]) for i in range(0, len(fighters), 2))


@implements("NT 11.1.1", "NT 11.8")
def _check_bombing(state: NtndState, m: Mission) -> None:
    types = [state.counter(u).type for u in m.units]
    bombers = sum(t in BOMBERS for t in types)
    fighters = sum(t in FIGHTERS for t in types)
    if not _communists(state, m.target):
        _fail("NT 11.1.1", f"{m.target}: strategic bombing needs a hex or zone with Communist units")
    if fighters % 2:
        _fail("NT 11.1.1", f"fighters bomb in pairs; {fighters} fighter(s) given")
    strikes = bombers + fighters // 2
    if strikes == 1:
        return
    if strikes == 2 and bombers <= 2:
        if state.turn < NIAGARA_TURN:
            _fail("NT 11.8", "massed bombing of one hex (two SAC or four fighters) only from Jan/Feb 1968")
        if m.target in state.geography.zones:
            _fail("NT 11.8", "a zone takes any number of separate bombing missions instead (11.4)")
        if len(_communists(state, m.target)) < 2:
            _fail("NT 11.8", f"{m.target}: massed bombing needs two Communist units in the hex")
        return
    _fail("NT 11.1.1", f"a bombing mission is one SAC or two fighters (two attacks from 1968, 11.8); "
          f"{len(m.units)} units given")


@implements("NT 11.1.1", "NT 11.1.2", "NT 11.1.3", "NT 11.1.4", "NT 11.1.4 Note", "NT 11.3", "NT 11.3.1", "NT 11.4",
            "NT 11.6", "NT 11.7", "NT 11.8", "NT 28.1", "NT 28.1.1", "NT 28.1.2", "NT 28.1.3", "NT 28.9.8")
def check_missions(state: NtndState, missions: Sequence[Mission], *, already_bombed: Iterable[str] = (),
                   combat_hexes: Iterable[str] | None = None) -> None:
    """Raise :class:`RuleViolation` for the first mission of a phase's batch that the rules forbid.
    ``already_bombed``: the hexes strategically bombed earlier this turn (11.4). ``combat_hexes``: if given, the
    hexes and zones of the enemy units taking part in this phase's battles (ground support is flown only over
    them, 11.1.2 and 8.8.1.2: in the reaction phase, the Communist attackers' hexes)."""
    fights = None if combat_hexes is None else set(combat_hexes)
    g = state.geography
    seen: set[str] = set()
    bombed = set(already_bombed)
    support: dict[str, int] = {}
    nations: dict[str, set[str]] = {}
    for m in missions:
        if m.kind not in MISSIONS:
            _fail("NT 11.1", f"{m.kind!r} is not an air mission ({', '.join(MISSIONS)})")
        if not m.units:
            _fail("NT 11.1", f"a {m.kind} mission needs at least one air unit")
        for u in m.units:
            c = state.counter(u)
            if airmobile_symbol(c):
                _fail("NT 11.1.4 Note", f"{u}'s own helicopters belong to it: they fly no missions")
            if c.side != "allied" or c.type not in ALLIED_AIR:
                _fail("NT 11.1", f"{u} is not an Allied air unit")
            if u in seen:
                _fail("NT 11.1", f"{u} is given two missions")
            seen.add(u)
            box = state.air.get(u)
            if box == "unavailable":
                _fail("NT 11.2", f"{u} is in the unavailable box: it flew in the previous player turn")
            if box != "available":
                _fail("NT 11.2", f"{u} is not in the air box")
            if c.type not in MISSION_TYPES[m.kind]:
                _fail({"bombing": "NT 11.1.1", "ground_support": "NT 11.1.2",
                       "transport": "NT 11.1.4"}.get(m.kind, "NT 11.1"), f"a {c.type} cannot fly {m.kind} missions")
        if state.phase not in MISSION_PHASES[m.kind]:
            _fail("NT 11.3", f"{m.kind} missions are flown only in the "
                  + " and ".join(p.replace("_", " ") for p in MISSION_PHASES[m.kind]) + f" phase, not {state.phase}")
        if m.kind == "transport":
            _check_transport(state, m)
            continue
        try:
            zone = m.target in g.zones or g.hex(m.target) is None
        except Exception:
            _fail("NT 9", f"{m.target!r} is neither a hex of the map nor an off-board zone")
        country = _country(state, m.target)
        types = {state.counter(u).type for u in m.units}
        if m.kind == "bombing":
            _check_bombing(state, m)
            if not zone:
                if m.target in bombed:
                    _fail("NT 11.4", f"{m.target} has already been bombed this turn")
                bombed.add(m.target)
            if "soa" in types and country not in _soa_countries(state):
                _fail("NT 28.1.2", f"the SOA bombs only in {', '.join(_soa_countries(state))}, not {country}")
        elif m.kind == "ground_support":
            if is_monsoon(state.turn):
                _fail("NT 11.3", "no ground support missions in monsoon turns")
            if not _communists(state, m.target):
                _fail("NT 11.1.2", f"{m.target}: ground support is flown over a hex with enemy units")
            if fights is not None and m.target not in fights:
                _fail("NT 11.1.2", f"{m.target}: ground support is flown over enemy units in a battle")
            support[m.target] = support.get(m.target, 0) + len(m.units)
            if support[m.target] > GROUND_SUPPORT_LIMIT:
                _fail("NT 11.1.2", f"{m.target}: at most {GROUND_SUPPORT_LIMIT} air units fly ground support "
                      f"over one hex")
            if "soa" in types and country not in _soa_countries(state):
                _fail("NT 28.1.3", f"the SOA flies ground support only in {', '.join(_soa_countries(state))}")
        else:   # supply
            if len(m.units) != 1:
                _fail("NT 11.1.3", "an air supply mission is flown by one air unit")
            if not _allies(state, m.target):
                _fail("NT 11.1.3", f"{m.target}: air supply goes to a hex held by Allied units")
            if "soa" in types and country not in _soa_countries(state):
                _fail("NT 28.1.3", f"the SOA flies supply only in {', '.join(_soa_countries(state))}")
        if "carrier" in types and state.turn < CARRIERS_ANYWHERE_TURN and not _carrier_target(state, m.target):
            _fail("NT 11.6", f"{m.target}: before Jan/Feb 1968 carrier wings strike only North Vietnam, Laos, "
                  f"China or a corps area holding US Marines")
        if not zone:
            nations.setdefault(m.target, set()).update(state.counter(u).nationality for u in m.units)
            if state.turn < JOINT_TURN and {"US", "SVN"} <= nations[m.target]:
                _fail("NT 11.7", f"{m.target}: US and South Vietnamese air units may share a hex only from "
                      f"Jan/Feb 1968")


def _carrier_target(state: NtndState, location: str) -> bool:
    """11.6: before 1968 a carrier wing's target lies in NV, Laos or China, or in a corps holding US Marines."""
    if _country(state, location) in CARRIER_COUNTRIES:
        return True
    area = state.area_of(location)
    if area not in ("I", "II", "III", "IV"):
        return False
    for u in state.units("allied", area=area):
        c = state.counter(u)
        if c.nationality == "US" and c.ground_combat and ("usmc" in c.tags or c.type == "marine"):
            return True
    return False


@implements("NT 11.1.4", "NT 11.1.4 Note", "NT 28.1.1")
def _check_transport(state: NtndState, m: Mission) -> None:
    if len(m.units) != 1:
        _fail("NT 11.1.4", "one helicopter is attached to one ground unit")
    heli = state.counter(m.units[0])
    ground = m.target
    if ground not in state.pieces or state.side_of(ground) != "allied":
        _fail("NT 11.1.4", f"{ground} is not an Allied unit on the map")
    c = state.counter(ground)
    if not c.ground_combat:
        _fail("NT 11.1.4", f"{ground} is not a ground combat unit")
    if c.mechanized:
        _fail("NT 11.1.4", f"{ground}: armoured, armoured cavalry and mechanized units cannot take helicopters")
    if airmobile_symbol(c):
        _fail("NT 11.1.4 Note", f"{ground} is airmobile already (its own helicopters): it takes no helicopter, "
                                f"and its helicopters fly no missions")
    if helicopter_of(state, ground) is not None:
        _fail("NT 11.1.4", f"{ground} already has a helicopter attached")
    if heli.type == "soa" and not (c.nationality in ("SVN", "Laotian") or (c.nationality == "Thai"
                                                                            and c.type == "ranger")):
        _fail("NT 28.1.1", f"the SOA carries only South Vietnamese, Laotian and Thai ranger units, not {ground}")


@implements("NT 11.2", "NT 11.3.1")
def assign_missions(state: NtndState, missions: Sequence[Mission], *, already_bombed: Iterable[str] = (),
                    combat_hexes: Iterable[str] | None = None, res: Resolution | None = None) -> NtndState:
    """11.2: put a phase's missions in the air. The units leave the available box (a unit in the unavailable box
    is refused); transport helicopters are placed on the map with their ground unit (11.3.1). Returns the new
    state; the caller keeps ``missions`` until each is resolved."""
    check_missions(state, missions, already_bombed=already_bombed, combat_hexes=combat_hexes)
    new = state.copy()
    for m in missions:
        for u in m.units:
            del new.air[u]
        if m.kind == "transport":
            heli = m.units[0]
            new.place(heli, state.piece(m.target).location)
            new.update(heli, marks=frozenset({TRANSPORT_MARK + m.target}))
        if res is not None:
            res.add("NT 11.2", f"{', '.join(m.units)} fly {m.kind.replace('_', ' ')} over {m.target}",
                    mission=m.kind, target=m.target)
    return new


@implements("NT 11.2")
def refresh_unavailable(state: NtndState, res: Resolution | None = None) -> NtndState:
    """11.2: once the phase's missions are placed, every unit in the unavailable box returns to the available
    box (they sat out one player turn)."""
    new = state.copy()
    back = [u for u, box in state.air.items() if box == "unavailable"]
    for u in back:
        new.air[u] = "available"
    if res is not None and back:
        res.add("NT 11.2", f"back to the available box: {', '.join(back)}", result=len(back))
    return new


@dataclass(frozen=True)
class AirPolitics:
    """What a batch of missions means for the political rules; the Game charges it once per turn."""

    countries: frozenset[str]           # 24.2.8: NV, China and neutral states Allied air units flew over
    us_bombed: frozenset[str]           # 23.5: neutral countries, China, and NV hexes or zones US units bombed
    #: 10.2.3.1: each neutral state where missions other than bombing were flown, with the first such mission
    violations: tuple[tuple[str, "Mission"], ...]

    @property
    def violated(self) -> frozenset[str]:
        return frozenset(c for c, _ in self.violations)


@implements("NT 24.2.8", "NT 23.5", "NT 10.2.3.1")
def air_politics(state: NtndState, missions: Sequence[Mission]) -> AirPolitics:
    """The countries and targets of a batch of missions that the political rules price (24.2.8 under Full
    Vietnamization, 23.5 after a peace-party win), and the neutral states whose neutrality the batch breaks
    (10.2.3.1: strategic bombing never does; in Laos the SOA may fly any mission)."""
    countries, bombed, violated = set(), set(), {}
    for m in missions:
        where = state.piece(m.target).location if m.kind == "transport" else m.target
        country = _country(state, where)
        neutral = state.standing.get(country) == "neutral"
        if country in ("NV", "China") or neutral:
            countries.add(country)
        us = any(state.counter(u).nationality == "US" for u in m.units)
        if m.kind == "bombing" and us:
            if country == "NV":
                bombed.add(where)
            elif country == "China" or neutral:
                bombed.add(country)
        soa_in_laos = country == "Laos" and all(state.counter(u).type == "soa" for u in m.units)
        if neutral and m.kind != "bombing" and not soa_in_laos:
            violated.setdefault(country, m)
    return AirPolitics(frozenset(countries), frozenset(bombed), tuple(sorted(violated.items())))


def _land(state: NtndState, survivors: Iterable[str], lost: Iterable[str], res: Resolution | None) -> NtndState:
    """11.2: the mission is over; survivors to the unavailable box, losses to the dead pile (4.2.3), each loss
    scoring at once (22.3)."""
    new = state.copy()
    for u in survivors:
        new.air[u] = "unavailable"
    for u in lost:
        new.air.pop(u, None)
        new.dead.add(u)
        score_loss(new, u, res=res)
    return new


# ============================================================================================ transport
def helicopter_of(state: NtndState, ground: str) -> str | None:
    """11.1.4: the helicopter attached to a ground unit, if any."""
    return state.helicopter_of(ground)


@implements("NT 11.1.4")
def lost_with(state: NtndState, eliminated: Iterable[str]) -> list[str]:
    """11.1.4: the helicopters that die with the eliminated ground units they carry (both count for points)."""
    return [h for h in (helicopter_of(state, u) for u in eliminated) if h is not None]


# ============================================================================================ anti-aircraft fire
@dataclass(frozen=True)
class Shot:
    """One AA unit's (or interceptor's) roll and the air units it can bring down (empty: a miss)."""

    unit: str
    type: str
    roll: int
    hits: frozenset[str]


@dataclass(frozen=True)
class Fire:
    """The rolls fired at one group of air units, all made before any loss is taken (12.2, 11.5)."""

    rule: str
    targets: tuple[str, ...]
    shots: tuple[Shot, ...]


def linebacker(turn: int) -> bool:
    """11.9: Operation Linebacker, from Jan/Feb 1972 to the end of the game."""
    return turn >= LINEBACKER_TURN


def _neighbours(state: NtndState, location: str) -> list[str]:
    g = state.geography
    if location in g.zones:
        z = g.zone(location)
        return list(z.adjacent) + [g.label(h) for h in z.border_hexes]
    h = g.hex(location)
    return [g.label(n) for n in g.map.neighbors(h)] + g.zones_bordering(h)


@implements("NT 12.1", "NT 13.4", "NT 18.3")
def aa_units(state: NtndState, mission: Mission, *, unsupplied: Iterable[str] = (),
             charts: NtndCharts | None = None) -> list[str]:
    """12.1: the Communist units that fire at a mission: those with AA in the target (bombing, ground support),
    and for a supply mission those in and next to it. In the Allied reaction phase (the Communist player's
    own turn) artillery and SAMs the caller lists as ``unsupplied`` stay silent (13.4, 18.3)."""
    table = charts_in_use(charts).anti_aircraft
    places = [mission.target]
    if mission.kind == "supply":
        places += _neighbours(state, mission.target)
    silent = set(unsupplied) if state.phase == REACTION_PHASE else set()
    out = []
    for place in places:
        for u in _communists(state, place):
            t = state.counter(u).type
            if any(t in r.types for r in table.units.values()) and not (t in SUPPLY_BOUND_AA and u in silent):
                out.append(u)
    return out


@implements("NT 12.1.1", "NT 12.1.2", "NT 11.9.2", "NT 12.2")
def roll_aa(state: NtndState, mission: Mission, dice: Dice, *, targets: Sequence[str] | None = None,
            unsupplied: Iterable[str] = (), charts: NtndCharts | None = None,
            res: Resolution | None = None) -> Fire:
    """12.1.1: each AA unit fires one die at the mission's air units (``targets``: those still flying, if some
    were lost in a dogfight). 12.1.2: one less against a SAC; 11.9.2: from 1972 SAMs use their Linebacker
    values."""
    targets = tuple(mission.units if targets is None else targets)
    lb = linebacker(state.turn)
    shots = []
    if not targets:
        return Fire("NT 12.1.1", targets, ())
    for u in aa_units(state, mission, unsupplied=unsupplied, charts=charts):
        t = state.counter(u).type
        roll = roll_die(dice, 6, f"NT 12.1.1 AA fire by {u}",
                        classes=_aa_classes(state, t, targets, lb, charts))
        hits = frozenset(a for a in targets
                         if aa_hit(t, roll, sac=state.counter(a).type == "sac", linebacker=lb, charts=charts))
        shots.append(Shot(u, t, roll, hits))
        if res is not None:
            res.add("NT 12.1.1", f"{u} ({t}) fires: {roll}: " + (f"can down {', '.join(sorted(hits))}" if hits
                                                                 else "miss"), roll=roll, result=len(hits) > 0)
    return Fire("NT 12.1.1", targets, tuple(shots))


def _aa_classes(state, t, targets, lb, charts):
    """Faces that reach the same air units lead to the same result (exact enumeration branches once per class)."""
    rolls = {a: aa_hit_rolls(t, sac=state.counter(a).type == "sac", linebacker=lb, charts=charts) for a in targets}
    return lambda face: frozenset(a for a in targets if face in rolls[a])


def _max_losses(fire: Fire, pool: Sequence[str]) -> list[frozenset[str]]:
    """The sets of air units the hits may destroy: as many as the hits can reach at once, each hit on a different
    unit it reaches."""
    hits = [s.hits & set(pool) for s in fire.shots if s.hits & set(pool)]
    for k in range(min(len(hits), len(pool)), 0, -1):
        found = []
        for group in combinations(pool, k):
            if any(all(g in h for g, h in zip(order, chosen))
                   for chosen in combinations(hits, k) for order in permutations(group)):
                found.append(frozenset(group))
        if found:
            return found
    return [frozenset()]


@implements("NT 12.1.1", "NT 11.5")
def legal_losses(fire: Fire) -> list[frozenset[str]]:
    """The sets of air units the Allied player may give up to these rolls (12.1.1: he chooses)."""
    return _max_losses(fire, fire.targets)


def choose_losses(fire: Fire, losses: Sequence[str] | None, rule: str = "NT 12.1.1") -> frozenset[str]:
    """The Allied player's losses: ``losses`` lists the air units in the order he would give them up; the legal
    set made of his earliest choices is taken. None is accepted only when the choice is forced."""
    options = _max_losses(fire, fire.targets)
    if len(options) == 1:
        return options[0]
    if losses is None:
        raise RuleViolation(rule, "the Allied player must choose his losses among "
                            + "; ".join(", ".join(sorted(o)) for o in options))
    order = list(losses)
    ranked = [(sorted(order.index(a) for a in o), o) for o in options if o <= set(order)]
    if not ranked:
        raise RuleViolation(rule, f"{', '.join(order)} is not a legal set of losses; choose one of "
                            + "; ".join(", ".join(sorted(o)) for o in options))
    return min(ranked, key=lambda r: r[0])[1]


# ============================================================================================ dogfights
@dataclass(frozen=True)
class Dogfight:
    """11.5: the rolls of both sides and what each lost."""

    allied_fire: tuple[Shot, ...]
    communist_fire: Fire
    allied_lost: frozenset[str]
    interceptors_lost: frozenset[str]


@implements("NT 11.5")
def interceptors_in(state: NtndState, zone: str) -> list[str]:
    return [u for u in state.at(zone) if state.counter(u).type == "interceptor"]


@implements("NT 11.5")
def dogfight(state: NtndState, zone: str, missions: Sequence[Mission], dice: Dice, *,
             losses: Sequence[str] | None = None, interceptor_losses: Sequence[str] | None = None,
             res: Resolution | None = None) -> tuple[NtndState, list[Mission], Dogfight]:
    """11.5: the Allied fighters over a zone holding interceptors fight them before anything else: each fighter
    rolls (3-6 kills an interceptor), each interceptor rolls (4-6 kills an air unit of the Allied player's
    choice, ``losses``), all at once. The Communist player picks his lost interceptors (``interceptor_losses``).
    Returns the state (Allied losses to the dead pile, interceptors back to the mix), the missions with their
    survivors (a mission with none left is dropped) and the record."""
    flying = [u for m in missions if m.target == zone for u in m.units]
    fighters = [u for u in flying if state.counter(u).type in FIGHTERS]
    mine = interceptors_in(state, zone)
    if not fighters or not mine:
        raise RuleViolation("NT 11.5", f"no dogfight over {zone}: it needs Allied fighters and Communist "
                            f"interceptors")
    ours = []
    for f in fighters:
        roll = roll_die(dice, 6, f"NT 11.5 {f} dogfights", classes=lambda r: r in FIGHTER_KILLS)
        ours.append(Shot(f, state.counter(f).type, roll, frozenset(mine) if roll in FIGHTER_KILLS else frozenset()))
    theirs = []
    for i in mine:
        roll = roll_die(dice, 6, f"NT 11.5 {i} dogfights", classes=lambda r: r in INTERCEPTOR_KILLS)
        theirs.append(Shot(i, "interceptor", roll, frozenset(flying) if roll in INTERCEPTOR_KILLS else frozenset()))
    fire = Fire("NT 11.5", tuple(flying), tuple(theirs))
    lost = choose_losses(fire, losses, "NT 11.5")
    kills = min(sum(1 for s in ours if s.hits), len(mine))
    if kills == len(mine) or kills == 0:
        dead_int = frozenset(mine[:kills])
    else:
        if interceptor_losses is None:
            raise RuleViolation("NT 11.5", f"the Communist player must choose {kills} of {', '.join(mine)}")
        chosen = [u for u in interceptor_losses if u in mine][:kills]
        if len(set(chosen)) != kills:
            raise RuleViolation("NT 11.5", f"choose {kills} interceptor(s) among {', '.join(mine)}")
        dead_int = frozenset(chosen)
    new = _land(state, (), lost, res)
    for i in dead_int:
        eliminate(new, i, res=res)
    left = [Mission(m.kind, m.target, tuple(u for u in m.units if u not in lost)) if m.target == zone else m
            for m in missions]
    if res is not None:
        res.add("NT 11.5", f"dogfight over {zone}: fighters roll {[s.roll for s in ours]}, interceptors roll "
                f"{[s.roll for s in theirs]}; lost {', '.join(sorted(lost)) or 'none'} and "
                f"{', '.join(sorted(dead_int)) or 'no interceptor'}", result=(len(lost), len(dead_int)))
    return new, [m for m in left if m.units], Dogfight(tuple(ours), fire, lost, dead_int)


def legal_dogfight_losses(state: NtndState, zone: str, missions: Sequence[Mission], fight_rolls: Sequence[int]
                          ) -> list[frozenset[str]]:
    """11.5: the sets of Allied air units the interceptors' rolls (``fight_rolls``, one per interceptor) may
    bring down over the zone; the Allied player picks one."""
    flying = tuple(u for m in missions if m.target == zone for u in m.units)
    shots = tuple(Shot("", "interceptor", r, frozenset(flying) if r in INTERCEPTOR_KILLS else frozenset())
                  for r in fight_rolls)
    return legal_losses(Fire("NT 11.5", flying, shots))


# ============================================================================================ bombing
@dataclass(frozen=True)
class Bombing:
    """11.1.1: the AA fire, the air units lost, each surviving attack's roll and the units destroyed."""

    mission: Mission
    lost: frozenset[str]
    rolls: tuple[int, ...]
    destroyed: tuple[str, ...]
    town_area: str | None = None     # 7.5: the area whose marker moves (a town or city was bombed)


def bombing_need(state: NtndState, location: str, attack: Sequence[str]) -> frozenset[int]:
    """11.1.1.1-11.1.1.2, 11.9.1: the rolls with which an attack destroys a unit: 5-6 in a clear hex, 6 in other
    hexes and in zones, and 4-6 for a US SAC over a zone under Linebacker."""
    g = state.geography
    if location in g.zones:
        if linebacker(state.turn) and any(state.counter(u).type == "sac" and state.counter(u).nationality == "US"
                                          for u in attack):
            return frozenset({4, 5, 6})
        return frozenset({6})
    return frozenset({5, 6}) if g.terrain(g.hex(location)) == "clear" else frozenset({6})


@implements("NT 11.1.1.2", "NT 28.9.8")
def bombing_victims(state: NtndState, location: str, *, roll: int = 6, by_sac: bool = True,
                    exclude: Iterable[str] = ()) -> list[str]:
    """The Communist units a successful attack may destroy (the Communist player picks one): any but
    interceptors; no dummy while a supply unit is there; a VC Base only to a SAC's 6 (28.9.8)."""
    units = [u for u in _communists(state, location) if u not in set(exclude)
             and state.counter(u).type != "interceptor"]
    if any(state.counter(u).type == "supply" for u in units):
        units = [u for u in units if state.counter(u).type != "dummy"]
    if not (by_sac and roll == 6):
        units = [u for u in units if state.counter(u).type != "vc_base"]
    return units


@implements("NT 11.1.1", "NT 11.1.1.1", "NT 11.1.1.2", "NT 11.8", "NT 11.9.1", "NT 12.2")
def resolve_bombing(state: NtndState, mission: Mission, fire: Fire, dice: Dice, *,
                    losses: Sequence[str] | None = None, victims: Sequence[str] | None = None,
                    shot_down: Iterable[str] = (), res: Resolution | None = None) -> tuple[NtndState, Bombing]:
    """Finish a bombing mission after its AA fire: the Allied player's losses (``losses``), then each attack
    with no aircraft lost rolls a die; on a success the Communist player destroys one unit of his choice
    (``victims``, his order of preference among :func:`bombing_victims`). ``shot_down``: units of the mission
    already lost in a dogfight (their attack is off too)."""
    if mission.kind != "bombing":
        raise RuleViolation("NT 11.1.1", f"not a bombing mission: {mission.kind}")
    chosen = choose_losses(fire, losses)
    lost = chosen | frozenset(shot_down)
    flying = [u for u in mission.units if u not in lost]
    new = _land(state, flying, chosen, res)
    rolls: list[int] = []
    destroyed: list[str] = []
    for attack in attacks(state, mission):
        if any(u in lost for u in attack):
            if res is not None:
                res.add("NT 12.2", f"{', '.join(attack)}: shot down before bombing", result=None)
            continue
        need = bombing_need(state, mission.target, attack)
        roll = roll_die(dice, 6, f"NT 11.1.1 bombing {mission.target}",
                        classes=lambda r: (r in need, r == 6))
        rolls.append(roll)
        by_sac = all(state.counter(u).type == "sac" for u in attack)
        options = bombing_victims(new, mission.target, roll=roll, by_sac=by_sac) if roll in need else []
        if res is not None:
            res.add("NT 11.1.1", f"bombing {mission.target}: {roll} (needs {min(need)}-6)", roll=roll,
                    result=bool(options))
        if not options:
            continue
        pick = _pick(options, victims, "NT 11.1.1.2", "the Communist player must choose the unit destroyed")
        eliminate(new, pick, res=res)
        destroyed.append(pick)
    g = state.geography
    town = None
    if rolls and mission.target not in g.zones and g.is_settlement(g.hex(mission.target)):
        town = state.area_of(mission.target)
    return new, Bombing(mission, lost, tuple(rolls), tuple(destroyed), town)


def _pick(options: list[str], preference: Sequence[str] | None, rule: str, why: str) -> str:
    if len(options) == 1 and preference is None:
        return options[0]
    for u in preference or ():
        if u in options:
            return u
    raise RuleViolation(rule, f"{why} among {', '.join(options)}")


# ============================================================================================ ground support
@dataclass(frozen=True)
class GroundSupport:
    mission: Mission
    lost: frozenset[str]
    survivors: tuple[str, ...]


@implements("NT 11.1.2", "NT 12.2")
def resolve_ground_support(state: NtndState, mission: Mission, fire: Fire, *,
                           losses: Sequence[str] | None = None, shot_down: Iterable[str] = (),
                           res: Resolution | None = None) -> tuple[NtndState, GroundSupport]:
    """A ground support mission after its AA fire: the survivors will each lower one enemy unit's morale
    (:func:`ground_support_adjustments`) and go to the unavailable box. ``shot_down``: units of the mission
    already lost in a dogfight (11.5)."""
    if mission.kind != "ground_support":
        raise RuleViolation("NT 11.1.2", f"not a ground support mission: {mission.kind}")
    lost = choose_losses(fire, losses)
    survivors = tuple(u for u in mission.units if u not in lost and u not in frozenset(shot_down))
    if res is not None:
        res.add("NT 11.1.2", f"ground support over {mission.target}: {len(survivors)} air unit(s) get through",
                result=len(survivors))
    return _land(state, survivors, lost, res), GroundSupport(mission, lost, survivors)


def ground_support_targets(state: NtndState, location: str) -> list[str]:
    """11.1.2: the enemy ground combat units in the hex whose morale ground support may lower."""
    return [u for u in _communists(state, location) if state.counter(u).ground_combat]


@implements("NT 11.1.2")
def ground_support_adjustments(state: NtndState, location: str, survivors: int,
                               targets: Sequence[str] | None = None) -> dict[str, Adjustment]:
    """11.1.2: each surviving air unit over the hex takes 1 from a different enemy ground combat unit's morale
    (none lowered twice; zero or less is allowed); the Allied player names the units (``targets``). Returns
    ``unit -> GS``, the adjustment for :class:`~wargames.ntnd.combat.Engaged`."""
    eligible = ground_support_targets(state, location)
    n = min(survivors, len(eligible))
    if targets is None:
        if n == len(eligible):
            return {u: GS for u in eligible}
        raise RuleViolation("NT 11.1.2", f"the Allied player must name {n} of {', '.join(eligible)}")
    chosen = list(targets)
    if len(set(chosen)) != len(chosen):
        raise RuleViolation("NT 11.1.2", "a unit's morale is lowered by ground support only once")
    if any(u not in eligible for u in chosen):
        raise RuleViolation("NT 11.1.2", f"ground support lowers enemy ground combat units in {location}: "
                            f"{', '.join(eligible)}")
    if len(chosen) != n:
        raise RuleViolation("NT 11.1.2", f"{survivors} surviving air unit(s) lower {n} unit(s), not {len(chosen)}")
    return {u: GS for u in chosen}


# ============================================================================================ supply
@dataclass(frozen=True)
class AirSupply:
    mission: Mission
    lost: frozenset[str]
    source: str | None       # the hex or zone that is a supply source this turn (None: shot down)


@implements("NT 11.1.3", "NT 12.2")
def resolve_supply(state: NtndState, mission: Mission, fire: Fire, *, losses: Sequence[str] | None = None,
                   shot_down: Iterable[str] = (), res: Resolution | None = None) -> tuple[NtndState, AirSupply]:
    """11.1.3: an air supply mission that survives the fire of the AA units in and next to its hex makes that hex
    a source of supply for the turn. ``shot_down``: units of the mission already lost in a dogfight (11.5)."""
    if mission.kind != "supply":
        raise RuleViolation("NT 11.1.3", f"not a supply mission: {mission.kind}")
    lost = choose_losses(fire, losses)
    survivors = tuple(u for u in mission.units if u not in lost and u not in frozenset(shot_down))
    source = mission.target if survivors else None
    if res is not None:
        res.add("NT 11.1.3", f"air supply to {mission.target}: " + ("delivered" if source else "shot down"),
                result=source)
    return _land(state, survivors, lost, res), AirSupply(mission, lost, source)


# ============================================================================================ 12.3
@implements("NT 12.3")
def airmobile_near_aa(state: NtndState, entries: Mapping[str, str], engaged: Iterable[str]) -> tuple[str, ...]:
    """12.3: the engaged Allied units that entered, by airmobile or reaction movement, a hex next to a face-up
    Communist artillery or SAM unit (``entries``: unit -> the hex its airmobile move entered). For
    ``Battle.airmobile_near_aa``."""
    g = state.geography
    out = []
    for u in engaged:
        where = entries.get(u)
        if where is None or where in g.zones:
            continue
        for n in g.map.neighbors(g.hex(where)):
            if any(state.counter(x).type in ("artillery", "sam") and state.piece(x).face_up
                   and state.side_of(x) == "communist" for x in state.at(g.label(n))):
                out.append(u)
                break
    return tuple(out)


def aa_combat_bonus(state: NtndState, entries: Mapping[str, str], engaged: Iterable[str]) -> bool:
    """12.3: whether the Communist combat total gains 1 (airmobile units flew in next to face-up AA)."""
    return bool(airmobile_near_aa(state, entries, engaged))


# ============================================================================================ exact odds
def fly_bombing(dice: Dice, state: NtndState, mission: Mission, losses: Sequence[str] | None = None,
                victims: Sequence[str] | None = None, dogfight_losses: Sequence[str] | None = None,
                interceptor_losses: Sequence[str] | None = None,
                unsupplied: Iterable[str] = ()) -> tuple[NtndState, Bombing | None, Dogfight | None]:
    """One bombing mission from placement to the end (11.5, 12, 11.1.1), for a mission already assigned: a
    dogfight if it brings fighters into a zone with interceptors, the AA fire at the survivors, the bombing."""
    fight = None
    if mission.target in state.geography.zones and interceptors_in(state, mission.target) and \
            any(state.counter(u).type in FIGHTERS for u in mission.units):
        state, left, fight = dogfight(state, mission.target, [mission], dice, losses=dogfight_losses,
                                      interceptor_losses=interceptor_losses)
        if not left:
            return state, None, fight
        survivors = left[0].units
    else:
        survivors = mission.units
    fire = roll_aa(state, mission, dice, targets=survivors, unsupplied=unsupplied)
    state, result = resolve_bombing(state, mission, fire, dice, losses=losses, victims=victims,
                                    shot_down=fight.allied_lost if fight else ())
    return state, result, fight


def _bombing_outcome(dice: Dice, state: NtndState, mission: Mission, losses, victims, unsupplied) -> Hashable:
    _, result, fight = fly_bombing(dice, state, mission, losses, victims, losses, victims, unsupplied)
    lost = frozenset(fight.allied_lost if fight else ()) | (result.lost if result else frozenset())
    return (tuple(sorted(lost)), result.destroyed if result else ())


@implements("NT 11.1.1", "NT 12.1.1")
def bombing_odds(state: NtndState, mission: Mission, *, losses: Sequence[str] | None = None,
                 victims: Sequence[str] | None = None, unsupplied: Iterable[str] = ()) -> Distribution:
    """The exact distribution of (air units lost, units destroyed) for a bombing mission, by enumerating
    :func:`fly_bombing`. ``losses`` and ``victims`` are the players' orders of preference (default: the
    mission's own order, and the target's units in the order they were placed)."""
    losses = tuple(mission.units if losses is None else losses)
    victims = tuple(_communists(state, mission.target) if victims is None else victims)
    return enumerate_outcomes(_bombing_outcome, state, mission, losses, victims, tuple(unsupplied))


def kill_chance(state: NtndState, mission: Mission, **kw) -> Fraction:
    """The exact chance that a bombing mission destroys at least one Communist unit."""
    return bombing_odds(state, mission, **kw).prob(lambda o: len(o[1]) > 0)


def _survivors(dice: Dice, state: NtndState, mission: Mission, losses, unsupplied) -> int:
    fire = roll_aa(state, mission, dice, unsupplied=unsupplied)
    return len(mission.units) - len(choose_losses(fire, losses))


@implements("NT 12.1.1", "NT 12.2")
def survivor_odds(state: NtndState, mission: Mission, *, losses: Sequence[str] | None = None,
                  unsupplied: Iterable[str] = ()) -> Distribution:
    """The exact distribution of how many of a mission's air units come through the AA fire (for ground support:
    how many enemy units lose a point of morale, at most one each)."""
    losses = tuple(mission.units if losses is None else losses)
    return enumerate_outcomes(_survivors, state, mission, losses, tuple(unsupplied))
