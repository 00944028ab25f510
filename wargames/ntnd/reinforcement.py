"""The Allied reinforcement and replacement phase (NT 4.2, 4.3, 4.5.2-4.5.3, 5.2-5.8, 15.1-15.2, 16.2-16.5,
23.3-23.6, 24.2.1, 24.2.6, 24.3.1-24.3.3, 28.3, 28.4.1, 28.6, 28.11.4-28.11.5).

Each procedure takes the position and the Allied player's choices, and returns a new position with the steps
(:class:`~wargames.core.log.Resolution`); a refused choice raises RuleViolation and leaves the position as it
was. What Vietnamization, the elections and the peace party change (US points, the political price of a
replacement, the withdrawals owed, the cap on US ground units) is read from ``state.policy``.

Replacement points are exact fractions: South Vietnamese points come in halves (7.3.1) and under Full
Vietnamization some units cost half a point (24.2.6). A pool keeps at most its half point from one turn to the
next (4.2.6): :func:`close_replacements` forfeits the rest.
"""
from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from typing import Iterable, Mapping

from ..core import implements
from ..core.dice import Dice, roll_die
from ..core.errors import RuleViolation
from ..core.log import Resolution
from ..core.hexgrid import Hex
from .hearts_minds import svn_replacement_points
from .political import immediate_points
from .politics import arvn_points_for_withdrawals
from .state import NtndState
from .units import AIR, LAOS_CAPITALS, POOLS, SVN_CORPS, TRANSFERABLE_TYPES, Counter, check_corps_assignment, pools_that_may_replace, schedule

HALF = Fraction(1, 2)
SVN_POINTS_CAP = 2                                   # 4.2.2: "up to two"
BUILT = ("militia", "montagnard", "firebase")        # 4.2.3, 16.5: raised new, not replaced
IMMEDIATE = ("militia", "montagnard", "firebase")    # 4.2.7, 16.3: on the map at once
MONTAGNARD_AREAS = ("Laos", "I", "II")               # 15.2, 16.2
PHOENIX_DELAY = 4                                    # 28.4.1
USMC_III_COST = 2                                    # 28.3.1 (and the brigades of the 28.3.2 option): US points
#: 28.3.2: the brigades its option makes bought, like the USMC III, instead of scheduled
BOUGHT_BRIGADES = ("US 3/82", "US 1/5 Mech")
MARK_FIREBASE_MOVED = "NT 5.8 moved"
MARK_CHANGING_CORPS = "NT 5.7 changing corps"
MARK_RANGER_REASSIGNED = "NT 28.5 reassigned"
RANGERS_FROM = {6: 1, 24: 2}                         # 28.5: from Jan/Feb 1966 one a turn, from Jan/Feb 1969 two


def _pools(points: Mapping[str, Fraction]) -> str:
    return ", ".join(f"{p} {v}" for p, v in points.items() if v)


# ------------------------------------------------------------------------------------------- income

@implements("NT 4.2.2", "NT 7.3.1")
def income(state: NtndState, extra: Mapping[str, int | Fraction] | None = None,
           next_turn: Iterable[str] = ()) -> dict[str, Fraction]:
    """This turn's points by pool: US from the policy (4.2.2, 23.4, 24.2.5), one SEATO, one Indochinese, the
    South Vietnamese points of 7.3.1 (:func:`.hearts_minds.svn_replacement_points`, which a random event's
    ``next_turn`` flags may withhold); ``extra`` adds what random events or the rally (26.7) give."""
    points = {"US": Fraction(state.policy.us_replacement_points()), "SEATO": Fraction(1),
              "Indochinese": Fraction(1), "SVN": svn_replacement_points(state, next_turn=next_turn)}
    for pool, n in (extra or {}).items():
        if pool not in POOLS:
            raise RuleViolation("NT 4.2.2", f"{pool!r} is not a replacement pool ({', '.join(POOLS)})")
        points[pool] += Fraction(n)
    return points


@implements("NT 4.2.2")
def receive_replacements(state: NtndState, extra: Mapping[str, int | Fraction] | None = None,
                         res: Resolution | None = None, next_turn: Iterable[str] = ()) -> tuple[NtndState, Resolution]:
    """Add this turn's points to the pools (which hold only the halves saved last turn, 4.2.6); ``extra`` and
    ``next_turn`` are what last turn's random event left (its points by pool, and its flags)."""
    res = res if res is not None else Resolution()
    got = income(state, extra, next_turn)
    new = state.copy()
    for pool, n in got.items():
        new.replacement_points[pool] = new.replacement_points.get(pool, Fraction(0)) + n
    res.add("NT 4.2.2", f"replacement points received: {_pools(got)}", arithmetic=_pools(new.replacement_points),
            result=dict(new.replacement_points))
    res.result = dict(new.replacement_points)
    return new, res


@implements("NT 26.7")
def rally(state: NtndState, dice: Dice, res: Resolution | None = None) -> NtndState:
    """26.7: on the turn the South Vietnamese rally after a National Uprising (:meth:`Policy.rally_turn`), the
    Allied player rolls one die and gains that many replacement points (our reading: South Vietnamese points,
    since the rally is theirs). Any other turn: the position unchanged."""
    if state.policy.rally_turn() != state.turn:
        return state
    die = roll_die(dice, 6, "NT 26.7 South Vietnamese rally")
    new = state.copy()
    new.replacement_points["SVN"] = new.replacement_points.get("SVN", Fraction(0)) + die
    if res is not None:
        res.add("NT 26.7", f"the South Vietnamese rally: die {die}, {die} SVN replacement point(s)", roll=die,
                result=die)
    return new


@implements("NT 4.2.6")
def close_replacements(state: NtndState, res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """End of the phase: a pool may keep a half point it could not spend (4.2.6); everything else is lost."""
    res = res if res is not None else Resolution()
    new = state.copy()
    lost = {}
    for pool, n in state.replacement_points.items():
        kept = HALF if n - int(n) == HALF else Fraction(0)
        new.replacement_points[pool] = kept
        lost[pool] = n - kept
    res.add("NT 4.2.6", f"forfeited: {_pools(lost) or 'nothing'}; saved: {_pools(new.replacement_points) or 'nothing'}",
            result=lost)
    res.result = lost
    return new, res


@implements("NT 4.5.2", "NT 4.5.3")
def draft(state: NtndState, dice: Dice, res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """A South Vietnamese draft: one die of SVN points for this turn (4.5.2), each costing as many political
    points as this is the year's draft: 1 for the first, 2 for the second, and so on (4.5.3). The count of drafts
    (``drafts_this_year``) goes back to zero when a new game-year starts (the game's turn change)."""
    res = res if res is not None else Resolution()
    die = roll_die(dice, 6, "NT 4.5.2 draft")
    nth = state.drafts_this_year + 1
    cost = die * nth
    new = state.copy()
    new.replacement_points["SVN"] = new.replacement_points.get("SVN", Fraction(0)) + die
    new.drafts_this_year = nth
    new.track = state.track.add(-cost, state.policy, state.turn)
    res.add("NT 4.5.3" if nth > 1 else "NT 4.5.2", f"draft {nth} of the year: die {die}, {die} SVN points for "
            f"{cost} political points", arithmetic=f"{die} x {nth} = {cost}", die=die, result=die)
    res.result = die
    return new, res


# ------------------------------------------------------------------------------------------- purchases

@implements("NT 28.3.1")
@implements("NT 4.2.3", "NT 24.2.6", "NT 16.5", "NT 28.3.2")
def unit_cost(state: NtndState, counter: Counter) -> tuple[tuple[str, Fraction], ...]:
    """What a counter costs, pool by pool: its listed cost (one point; Montagnards a US point, 16.5; the USMC III
    two, 28.3.1, and so do the brigades of the 28.3.2 option; the Para-Commando one Indochinese and one US,
    28.11.5). Under Full Vietnamization ARVN and Cambodian militia and Montagnards cost half a point (24.2.6)."""
    factor = state.policy.build_cost_factor(counter.type, counter.nationality)
    if counter.id in state.bought_anytime:
        return (("US", Fraction(USMC_III_COST)),)
    return tuple((pool, Fraction(n) * factor) for pool, n in counter.replacement_cost)


@implements("NT 4.3.2", "NT 23.7")
def _buyable(state: NtndState, counter: Counter) -> str:
    """Why this counter may be bought now ("dead", "built", "scheduled"), or RuleViolation."""
    uid = counter.id
    if counter.side != "allied":
        raise RuleViolation("NT 4.2.3", f"{uid} is not an Allied counter")
    if uid in state.withdrawn:
        raise RuleViolation("NT 4.3.2", f"{uid} has been withdrawn and may not return")
    if uid in state.pieces or uid in state.purchased or uid in state.air:
        raise RuleViolation("NT 4.4", f"{uid} is already in play or bought")
    if uid in state.dead:
        return "dead"
    if uid in state.bought_anytime:
        return "scheduled"
    first = schedule().turn_of(uid, "buyable")
    if first is not None:
        if state.turn < first:
            raise RuleViolation("NT 4.2.1", f"{uid} may be bought from turn {first}, not on turn {state.turn}")
        return "scheduled"
    if counter.type in BUILT:
        return "built"
    if counter.type == "phoenix":
        up = state.policy.uprising
        if up is None or state.turn < up + PHOENIX_DELAY:
            raise RuleViolation("NT 28.4.1", "Phoenix units are raised from four turns after the National Uprising")
        return "built"
    raise RuleViolation("NT 4.2.3", f"{uid} has not been eliminated: only eliminated units, militia and "
                                    f"firebases are bought")


@implements("NT 4.2.3", "NT 4.2.5", "NT 4.2.6", "NT 4.2.7", "NT 23.4", "NT 24.2.4", "NT 5.6.1", "NT 5.6.2")
def purchase(state: NtndState, unit: str, *, pay: Mapping[str, int | Fraction] | None = None,
             location: str | None = None, next_turn: Iterable[str] = (),
             res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """Buy one counter with replacement points.

    Eliminated units (4.2.3), militia, Montagnards and firebases (4.2.3, 16.5), Phoenix units (28.4.1) and the
    schedule's buyable units (28.3, 28.11.5) may be bought. ``pay`` says which pools pay how much (default: the
    counter's listed pools); each pool must be one that may pay for the unit (4.2.5), and two half points of
    different pools may combine (4.2.6). An eliminated US or SEATO unit also costs political points, as the
    policy says (4.2.3, 24.2.4, 24.4; never a US unit after a peace-party win, 23.4). Militia, Montagnards and
    firebases are placed at once at ``location`` (4.2.7, 5.6.1-5.6.2, 16.3); the rest wait on the Turn Record
    for next turn's reinforcement phase.
    """
    res = res if res is not None else Resolution()
    counter = state.counter(unit)
    why = _buyable(state, counter)
    cost = unit_cost(state, counter)
    total = sum((n for _, n in cost), Fraction(0))
    payment = {p: Fraction(n) for p, n in (pay or dict(cost)).items() if n}
    allowed = pools_that_may_replace(counter)
    for pool in payment:
        if pool not in allowed:
            raise RuleViolation("NT 4.2.5", f"{pool} points may not pay for {unit} (only {', '.join(sorted(allowed))})")
    if len(cost) > 1 and payment != dict(cost):
        raise RuleViolation("NT 4.2.3", f"{unit} costs exactly {_pools(dict(cost))}")
    if sum(payment.values(), Fraction(0)) != total:
        raise RuleViolation("NT 4.2.3", f"{unit} costs {total} point(s), not {sum(payment.values())}")
    for pool, n in payment.items():
        if state.replacement_points.get(pool, Fraction(0)) < n:
            raise RuleViolation("NT 4.2.6", f"the {pool} pool holds {state.replacement_points.get(pool, 0)}, "
                                            f"not {n}")
    pp = 0
    if why == "dead":
        # 4.2.3 and 24.2.4, or a random event's charge (21); raises for a US unit after a peace-party win (23.4)
        pp = -immediate_points("replaced", counter, policy=state.policy, next_turn=next_turn).points
        if counter.type in BUILT:
            pp = 0
    new = state.copy()
    for pool, n in payment.items():
        new.replacement_points[pool] -= n
    if pp:
        new.track = state.track.add(-pp, state.policy, state.turn)
    if counter.type in IMMEDIATE:
        if location is None:
            raise RuleViolation("NT 4.2.7", f"{unit} is placed at once: give its hex")
        check_placement(state, counter, location)
        new.dead.discard(unit)
        new.place(unit, location)
        where = f"placed at {location}"
    else:
        new.dead.discard(unit)
        new.purchased[unit] = state.turn + 1
        where = f"on the Turn Record for turn {state.turn + 1}"
    res.add("NT 4.2.3", f"{unit} bought for {_pools(payment)}" + (f" and {pp} political points" if pp else "")
            + f"; {where}", unit=unit, pp=pp, result=unit)
    res.result = unit
    return new, res


# ------------------------------------------------------------------------------------------- where units go

def _hex(state: NtndState, location: str, rule: str) -> Hex:
    if location in state.geography.zones:
        raise RuleViolation(rule, f"this unit is placed in a map hex, not in the {location} zone")
    return state.geography.hex(location)


@implements("NT 16.2")
def montagnard_limit(state: NtndState) -> int:
    """16.2: one Montagnard for each of Laos, I and II Corps that is pro-Allied or Allied-Controlled, and a fourth
    once Laos has joined the Allies or all three are Allied-Controlled."""
    boxes = [state.hearts_minds.get(a) for a in MONTAGNARD_AREAS]
    limit = sum(b in ("pro_allied", "allied_control") for b in boxes)
    if state.standing.get("Laos") == "allied" or all(b == "allied_control" for b in boxes):
        limit += 1
    return limit


def _has(state: NtndState, location: str, pred) -> bool:
    return any(pred(state.counter(u)) for u in state.at(location))


@implements("NT 5.6.1", "NT 5.6.2", "NT 15.2", "NT 16.3", "NT 16.4", "NT 28.4.1")
def check_placement(state: NtndState, counter: Counter, location: str) -> None:
    """Where a militia, Montagnard, firebase or Phoenix unit may be put into play.

    - SVN militia: a South Vietnamese town or city with a South Vietnamese unit in it (5.6.1), or a South
      Vietnamese hex with a Green Beret (15.2);
    - Laotian and Cambodian militia: a hex of their country with a US Green Beret (5.6.1); never North Vietnam;
    - Montagnards: a mountain hex of Laos, I or II Corps with a Green Beret (15.2, 16.3), within the 16.2 limit;
    - firebases: a hex with a non-militia ground combat unit of their nationality; the SEATO firebase with any
      SEATO unit (5.6.2);
    - Phoenix: a South Vietnamese hex, one per corps (28.4.1).
    """
    geo, t = state.geography, counter.type
    gb = lambda c: c.type == "green_beret"        # noqa: E731
    if t == "militia":
        h = _hex(state, location, "NT 5.6.1")
        country = geo.country(h)
        if counter.nationality == "SVN":
            held = geo.is_settlement(h) and _has(state, location, lambda c: c.nationality == "SVN")
            ok = country == "SVN" and (held or _has(state, location, gb))
        else:
            home = "Laos" if counter.nationality == "Laotian" else "Cambodia"
            ok = country == home and _has(state, location, gb)
        if not ok:
            raise RuleViolation("NT 5.6.1", f"{counter.id} may not be raised at {location}: SVN militia go to a "
                                            f"South Vietnamese town or city held by SVN units or to a Green Beret; "
                                            f"Laotian and Cambodian militia only to a Green Beret in their country")
    elif t == "montagnard":
        h = _hex(state, location, "NT 16.3")
        if geo.area(h) not in MONTAGNARD_AREAS or geo.terrain(h) != "mountain" or not _has(state, location, gb):
            raise RuleViolation("NT 16.3", "Montagnards are raised by a Green Beret in a mountain hex of Laos, "
                                           "I or II Corps")
        in_play = sum(1 for u in state.pieces if state.counter(u).type == "montagnard")
        if in_play + 1 > montagnard_limit(state):
            raise RuleViolation("NT 16.2", f"{in_play} Montagnards are in play; the Hearts and Minds track allows "
                                           f"{montagnard_limit(state)}")
    elif t == "firebase":
        _hex(state, location, "NT 5.6.2")
        same = (lambda c: c.seato) if counter.nationality == "SEATO" else \
            (lambda c: c.nationality == counter.nationality)
        if not _has(state, location, lambda c: c.ground_combat and c.type not in ("militia", "montagnard")
                    and same(c)):
            raise RuleViolation("NT 5.6.2", f"{counter.id} goes to a hex with a non-militia ground combat unit "
                                            f"of its nationality")
    elif t == "phoenix":
        h = _hex(state, location, "NT 28.4.1")
        if geo.country(h) != "SVN":
            raise RuleViolation("NT 28.4.1", "Phoenix units are placed only in South Vietnam")
        area = geo.area(h)
        if any(state.counter(u).type == "phoenix" and state.area_of(p.location) == area
               for u, p in state.pieces.items()):
            raise RuleViolation("NT 28.4.1", f"{area} Corps already has a Phoenix unit")
    else:
        raise RuleViolation("NT 5.6", f"{counter.id} is not placed this way")


@implements("NT 5.4")
def entry_points(state: NtndState, corps: str) -> tuple[str, ...]:
    """Where a unit of ``corps`` enters (5.4): its headquarters; if the enemy holds it, any other major city of
    the corps that is vacant or Allied; failing that, Saigon (or the unit waits)."""
    geo = state.geography
    hq = geo.headquarters(corps)
    hq_label = hq if isinstance(hq, str) else geo.label(hq)
    enemy = lambda loc: state.side_at(loc) == "communist"      # noqa: E731
    if not enemy(hq_label):
        return (hq_label,)
    others = tuple(geo.label(h) for h in geo.settlements(corps).values()
                   if geo.is_city(h) and geo.label(h) != hq_label and not enemy(geo.label(h)))
    if others:
        return others
    saigon = geo.label(geo.hq_hex("III"))
    return () if enemy(saigon) else (saigon,)


@implements("NT 4.2.1", "NT 4.2.7", "NT 24.2.1", "NT 24.2.2", "NT 24.2.3")
def arrivals(state: NtndState) -> tuple[str, ...]:
    """Units that may enter now: scheduled reinforcements whose turn has come, delayed ones included (4.2.1; not
    the brigades the 28.3.2 option makes bought instead), and purchases whose Turn Record turn has come (4.2.7).
    Under Full Vietnamization every US ground combat unit of the schedule may be called forward at once, within
    the six on the board (24.2.1); the US fleet, patrol boats, air units and firebases (24.2.2) and every SEATO
    unit (24.2.3) still keep the schedule's turns."""
    out = []
    sched = schedule()
    full = state.policy.full_in_effect
    for uid in sched.counters("arrive"):
        first = sched.turn_of(uid, "arrive")
        c = state.counter(uid)
        called = full and c.nationality == "US" and c.ground_combat          # 24.2.1: any six, at once
        if (first <= state.turn or called) and uid not in state.pieces and uid not in state.air \
                and uid not in state.dead and uid not in state.withdrawn and uid not in state.purchased \
                and uid not in state.bought_anytime:
            out.append(uid)
    out += [u for u, t in state.purchased.items() if t <= state.turn]
    return tuple(out)


@implements("NT 4.2.1", "NT 5.2", "NT 5.3.2", "NT 5.4", "NT 5.5", "NT 5.6", "NT 15.1", "NT 24.2.1", "NT 28.6.1",
            "NT 28.11.4", "NT 28.11.5")
def enter(state: NtndState, unit: str, location: str | None = None, *, corps: str | None = None,
          res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """Bring a reinforcement or a bought unit into play.

    - Air units go to the air box, available (5.6).
    - Attached units name their ``corps`` (5.2; the units of one group share it, 5.2.2, so a returning brigade
      joins its division's corps, 5.3.2) and enter at one of :func:`entry_points` (5.4).
    - Unattached units (5.5) enter at an entry point of any corps and have no corps.
    - Green Berets: any hex of South Vietnam, Laos or Cambodia that is not a town or city (15.1); militia,
      Montagnards, firebases and Phoenix units as :func:`check_placement`; the fleet and patrol boats at a corps
      headquarters or an all-sea hex (5.6).
    - The Thai 333, the Laotian Guard and the Para-Commando at Luang Prabang or Vientiane (28.6.1, 28.11.4-5).
    - Under Full Vietnamization no more than six US ground combat units may be on the board (24.2.1).
    """
    res = res if res is not None else Resolution()
    if unit not in arrivals(state):
        due = schedule().turn_of(unit, "arrive") or state.purchased.get(unit)
        raise RuleViolation("NT 4.2.1", f"{unit} is not due" + (f" before turn {due}" if due else ""))
    c = state.counter(unit)
    geo = state.geography
    new = state.copy()
    new.purchased.pop(unit, None)
    if c.movement_class == "air_fleet" and c.type != "fleet":
        new.air[unit] = "available"
        res.add("NT 5.6", f"{unit} joins the air units box, available", result=unit)
        res.result = unit
        return new, res
    if location is None:
        raise RuleViolation("NT 5.4", f"give the location where {unit} enters")
    limit = state.policy.us_ground_limit()
    if limit is not None and c.nationality == "US" and c.ground_combat:
        on_board = sum(1 for u, p in state.pieces.items() if state.counter(u).nationality == "US"
                       and state.counter(u).ground_combat and p.location not in geo.zones)
        if on_board + 1 > limit:
            raise RuleViolation("NT 24.2.1", f"{on_board} US ground combat units are on the board; Full "
                                             f"Vietnamization allows {limit}")
    stored_corps = None
    if c.tags & {"thai_333", "laotian_guard", "para_commando"}:
        if location not in LAOS_CAPITALS:
            raise RuleViolation("NT 28.6.1" if "thai_333" in c.tags else "NT 28.11.4",
                                f"{unit} is placed at Luang Prabang or Vientiane")
        if c.attachment == "attached":
            stored_corps = "Laos"
    elif c.attachment == "attached":
        if corps is None:
            raise RuleViolation("NT 5.2", f"{unit} must be attached to a corps")
        group = {state.counter(u): p.corps for u, p in state.pieces.items()
                 if p.corps is not None and state.counter(u).corps_group is not None
                 and state.counter(u).corps_group == c.corps_group}
        group[c] = corps
        check_corps_assignment(group)
        points = entry_points(state, corps)
        if location not in points:
            where = " or ".join(points) or "no free city (it waits)"
            raise RuleViolation("NT 5.4", f"{unit} enters {corps} Corps at {where}, not {location}")
        stored_corps = corps
    elif c.attachment == "unattached":
        if not any(location in entry_points(state, k) for k in ("I", "II", "III", "IV", "Laos", "Cambodia")):
            raise RuleViolation("NT 5.5", f"{unit} enters at a corps headquarters (5.4), not {location}")
    elif c.type == "green_beret":
        h = _hex(state, location, "NT 15.1")
        if geo.country(h) not in ("SVN", "Laos", "Cambodia") or geo.is_settlement(h):
            raise RuleViolation("NT 15.1", "Green Berets go to a hex of South Vietnam, Laos or Cambodia that is not "
                                           "a town or city")
    elif c.type in ("fleet", "patrol_boat"):
        hqs = {geo.label(geo.hq_hex(k)) for k in ("I", "II", "III", "IV", "Cambodia")}
        if location not in hqs and not (location not in geo.zones and geo.is_all_sea(geo.hex(location))):
            raise RuleViolation("NT 5.6", f"{unit} enters at a corps headquarters city or an all-sea hex")
    else:
        check_placement(state, c, location)
    new.dead.discard(unit)
    new.place(unit, location, corps=stored_corps)
    res.add("NT 5.4", f"{unit} enters at {location}" + (f", attached to {stored_corps}" if stored_corps else ""),
            unit=unit, location=location, result=unit)
    res.result = unit
    return new, res


# ------------------------------------------------------------------------------------------- withdrawals

@implements("NT 4.3.1")
def may_leave_from(state: NtndState, unit: str) -> bool:
    """4.3.1: a unit leaves from a town or city hex or a Laotian zone on the west edge of the map; air units,
    the fleet and Green Berets leave from anywhere; a unit on the Turn Record can always be given up."""
    c = state.counter(unit)
    if unit in state.air or unit in state.purchased or c.type in ("fleet", "green_beret") \
            or c.movement_class == "air_fleet":
        return True
    if unit not in state.pieces:
        return False
    loc = state.piece(unit).location
    geo = state.geography
    if loc in geo.zones:
        z = geo.zone(loc)
        return z.country == "Laos" and z.west_edge
    return geo.is_settlement(geo.hex(loc))


@implements("NT 4.3.1", "NT 4.3.3")
def due_withdrawals(state: NtndState) -> tuple[str, ...]:
    """Scheduled withdrawals whose turn has come and that are still in the game (4.3.1); the Thai QC goes on
    its turn even from the dead pile (4.3.3)."""
    out = []
    sched = schedule()
    for uid in sched.counters("withdraw"):
        if sched.turn_of(uid, "withdraw") <= state.turn and uid not in state.withdrawn and (
                uid in state.pieces or uid in state.purchased or uid in state.air or
                (uid in state.dead and "thai_qc" in state.counter(uid).tags)):
            out.append(uid)
    return tuple(out)


@implements("NT 4.3.1", "NT 4.3.3")
def leaving_now(state: NtndState) -> tuple[str, ...]:
    """The scheduled withdrawals that are due and able to leave now: from where a unit may leave (4.3.1), the
    Thai QC from anywhere (4.3.3)."""
    return tuple(u for u in due_withdrawals(state) if "thai_qc" in state.counter(u).tags or may_leave_from(state, u))


@implements("NT 4.3.1", "NT 4.3.2", "NT 4.3.3", "NT 23.3", "NT 23.3.1", "NT 23.3.2", "NT 23.3.3", "NT 23.6",
            "NT 24.3.1", "NT 24.3.2", "NT 24.3.3")
def withdraw_units(state: NtndState, units: Iterable[str], *, die: int | None = None,
                   res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """The phase's withdrawals, all at once.

    ``units`` lists every unit the Allied player takes out. It must hold each scheduled withdrawal that is due
    and able to leave (4.3.1; the QC regardless of place, 4.3.3). The others count toward what the policy
    orders (23.3 the peace party's ``die`` of US units, 23.6 a SEATO unit under 100 points, 24.3.1 Partial
    Vietnamization's two to ten US or SEATO units), with the political points of 23.3.1-23.3.2 and 24.3.2 and
    the ARVN point per four US units of 24.3.3 (added to this turn's SVN pool).
    """
    res = res if res is not None else Resolution()
    units = list(dict.fromkeys(units))
    due = due_withdrawals(state)
    for uid in units:
        c = state.counter(uid)
        if c.side != "allied":
            raise RuleViolation("NT 4.3.1", f"{uid} is not an Allied unit")
        qc = "thai_qc" in c.tags and uid in due
        if not qc and not may_leave_from(state, uid):
            raise RuleViolation("NT 4.3.1", f"{uid} is not in a town, a city or a Laotian zone on the west edge")
    for uid in leaving_now(state):
        if uid not in units:
            raise RuleViolation("NT 4.3.1" if "thai_qc" not in state.counter(uid).tags else "NT 4.3.3",
                                f"{uid} is scheduled to leave and can: it must be withdrawn")
    policy = state.policy
    orders = policy.withdrawals(die, state.track.points) if policy.peace_party else policy.withdrawals()
    political = [u for u in units if u not in due]
    us = [u for u in political if state.counter(u).nationality == "US"]
    seato = [u for u in political if state.counter(u).seato]
    if len(us) + len(seato) < len(political):
        raise RuleViolation("NT 4.3.1", "only the units the schedule or the policy names may be withdrawn: "
                            + ", ".join(u for u in political if u not in us + seato))
    if orders.maximum == 0 and political:
        raise RuleViolation("NT 4.3.1", "no withdrawal is ordered this turn")
    if policy.peace_party:
        if len(seato) > orders.seato:
            raise RuleViolation("NT 23.6", f"{orders.seato} SEATO unit(s) are to leave this turn, not {len(seato)}")
        seato_left = any(state.counter(u).seato for u in withdrawal_pool(state) if u not in units)
        if len(seato) < orders.seato and seato_left:
            raise RuleViolation("NT 23.6", f"{orders.seato} SEATO unit(s) must be withdrawn this turn")
        counted = us
    else:
        counted = us + seato
    if policy.partial_in_effect and not policy.peace_party:
        # 24.3.1: at least two a turn, or every unit that can leave if fewer can (our reading)
        orders = replace(orders, required=min(orders.required, len(withdrawal_pool(state))))
        _check_air_withdrawal(state, units, orders.required)
    pp = orders.points(len(counted)) if orders.maximum else 0
    new = state.copy()
    for uid in units:
        new.withdraw(uid)
        new.air.pop(uid, None)
    us_out = sum(1 for u in units if state.counter(u).nationality == "US")
    arvn = arvn_points_for_withdrawals(us_out) if policy.partial_in_effect else 0
    if pp:
        new.track = state.track.add(pp, policy, state.turn)
    if arvn:
        new.replacement_points["SVN"] = new.replacement_points.get("SVN", Fraction(0)) + arvn
    res.add("NT 4.3.1", f"withdrawn: {', '.join(units) or 'none'}; political points {pp:+d}"
            + (f"; {arvn} ARVN point(s)" if arvn else ""), pp=pp, arvn=arvn, result=tuple(units))
    res.result = tuple(units)
    return new, res


@implements("NT 24.3.5")
def transfer_to_arvn(state: NtndState, unit: str, res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """24.3.5: under Partial Vietnamization the Allied player may hand a US helicopter gunship (in the air box)
    or a US firebase (on the map) to the ARVN. From then on it is a South Vietnamese counter for every rule (it
    no longer counts among the American units to withdraw, 23.3 and 24.3), and if it is eliminated only a US
    replacement point brings it back (our reading: with no US replacement's political cost, since it is ARVN)."""
    res = res if res is not None else Resolution()
    if not state.policy.partial_in_effect:
        raise RuleViolation("NT 24.3.5", "US gunships and firebases go to the ARVN only under Partial "
                                         "Vietnamization")
    c = state.mix.get(unit)
    if c.nationality != "US" or c.type not in TRANSFERABLE_TYPES:
        raise RuleViolation("NT 24.3.5", f"{unit} is not a US helicopter gunship or firebase")
    if unit in state.transferred:
        raise RuleViolation("NT 24.3.5", f"{unit} is ARVN already")
    if unit not in transferable(state):
        raise RuleViolation("NT 24.3.5", f"{unit} is handed over from the air box (a gunship) or the map "
                                         f"(a firebase)")
    new = state.copy()
    new.transferred = state.transferred | {unit}
    res.add("NT 24.3.5", f"{unit} is handed to the ARVN", unit=unit, result=unit)
    res.result = unit
    return new, res


def transferable(state: NtndState) -> tuple[str, ...]:
    """24.3.5: the US pieces that may be handed to the ARVN now: gunships in the air box, firebases on the map
    (none unless Partial Vietnamization is in effect)."""
    if not state.policy.partial_in_effect:
        return ()
    where = {"gunship": state.air, "firebase": state.pieces}
    return tuple(sorted(u for kind, place in where.items() for u in place if u not in state.transferred
                        and state.mix.get(u).type == kind and state.mix.get(u).nationality == "US"))


def american_units_in_play(state: NtndState) -> bool:
    """23.3: whether any American unit is on the map (or in a zone) or paid for as a replacement."""
    return any(state.counter(u).nationality == "US" for u in list(state.pieces) + list(state.purchased))


@implements("NT 4.3.1", "NT 23.3", "NT 23.6", "NT 24.3.1")
def withdrawal_pool(state: NtndState) -> tuple[str, ...]:
    """The units the policy's withdrawals may take this turn: US and SEATO units in play (on the map, paid for,
    or in the air box) that are not scheduled to leave and are where a unit may leave from (4.3.1)."""
    due = set(due_withdrawals(state))
    in_play = list(state.pieces) + list(state.purchased) + list(state.air)
    return tuple(sorted(u for u in dict.fromkeys(in_play) if u not in due and (
        state.counter(u).nationality == "US" or state.counter(u).seato) and may_leave_from(state, u)))


@implements("NT 4.3.1", "NT 4.3.3", "NT 23.3", "NT 23.6", "NT 24.3.1")
def withdrawals_owed(state: NtndState, die: int | None = None) -> bool:
    """Whether the reinforcement phase owes a withdrawal decision before it ends: a scheduled unit due and able
    to leave (4.3.1, the QC always, 4.3.3), the peace party's die or SEATO unit (23.3, 23.6), or Partial
    Vietnamization's two units while any can leave (24.3.1)."""
    if leaving_now(state):
        return True
    policy = state.policy
    if policy.peace_party:
        orders = policy.withdrawals(die or 0, state.track.points)
        return bool(orders.required or orders.seato)
    return policy.partial_in_effect and bool(withdrawal_pool(state))


def _air_kind(state: NtndState, unit: str) -> str:
    c = state.counter(unit)
    return "usmc" if "usmc" in c.tags else c.type


@implements("NT 24.3.6")
def air_to_withdraw(state: NtndState) -> dict[str, int]:
    """24.3.6: once no US ground combat unit is left in play, the US air units that must go, by kind (``sac``,
    ``usmc``, ``fighter``, ...): all but one SAC and one USMC air unit; the gunships may stay. Empty while US
    ground units remain."""
    in_play = set(state.pieces) | set(state.purchased) | set(state.air)
    if any(state.counter(u).nationality == "US" and state.counter(u).ground_combat for u in in_play):
        return {}
    air = [u for u in in_play if state.counter(u).nationality == "US" and state.counter(u).type in AIR["allied"]
           and state.counter(u).type != "gunship"]
    kinds: dict[str, int] = {}
    for u in air:
        kinds[_air_kind(state, u)] = kinds.get(_air_kind(state, u), 0) + 1
    owed = {}
    for kind, n in kinds.items():
        n -= kind in ("sac", "usmc")                    # one of each may stay
        if n:
            owed[kind] = n
    return owed


def _check_air_withdrawal(state: NtndState, units: list[str], required: int) -> None:
    """24.3.6: with the US ground units gone, the turn's withdrawals include the air units that must go, as many
    as 24.3.1's minimum while any are left (our reading of "begin withdrawing")."""
    owed = air_to_withdraw(state)
    if not owed:
        return
    taken: dict[str, int] = {}
    for u in units:
        k = _air_kind(state, u)
        if k in owed and state.counter(u).nationality == "US":
            taken[k] = min(taken.get(k, 0) + 1, owed[k])
    need = min(required, sum(owed.values()))
    if sum(taken.values()) < need:
        raise RuleViolation("NT 24.3.6", f"the US ground units are gone: withdraw {need} US air unit(s) of those "
                                         f"that must go ({', '.join(f'{n} {k}' for k, n in sorted(owed.items()))})")


# ------------------------------------------------------------------------------------------- 5.7 and 5.8

@implements("NT 5.8", "NT 5.6.2")
def move_firebase(state: NtndState, unit: str, to: str, res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """5.8: lift one US firebase, and one ARVN or SEATO firebase, to a hex with a non-militia ground combat unit
    of its nationality, regardless of distance or enemies. Moved firebases carry a mark for the rest of the
    turn (the game clears marks when the turn ends)."""
    res = res if res is not None else Resolution()
    c = state.counter(unit)
    if c.type != "firebase" or unit not in state.pieces:
        raise RuleViolation("NT 5.8", f"{unit} is not a firebase in play")
    us = c.nationality == "US"
    for other, p in state.pieces.items():
        oc = state.counter(other)
        if oc.type == "firebase" and p.marked(MARK_FIREBASE_MOVED) and (oc.nationality == "US") == us:
            raise RuleViolation("NT 5.8", f"{other} has already been moved this phase "
                                          f"({'one US firebase' if us else 'one ARVN or SEATO firebase'} a turn)")
    probe = state.copy()
    probe.remove(unit, eliminated=False)
    check_placement(probe, c, to)
    new = state.copy()
    new.update(unit, location=to, marks=state.piece(unit).marks | {MARK_FIREBASE_MOVED})
    res.add("NT 5.8", f"{unit} moves to {to}", result=to)
    res.result = to
    return new, res


@implements("NT 5.7", "NT 5.2.2")
def reassign_corps(state: NtndState, group: str, corps: str,
                   res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """5.7: move a whole group (all the Marines, all ROK units, the brigades of one US or SEATO division) to
    another South Vietnamese corps. Its units in play are marked: this turn they must keep clear of enemy units
    and end in the new corps (the movement rules read the mark); its eliminated units come back to the new
    corps."""
    res = res if res is not None else Resolution()
    members = [u for u, p in state.pieces.items() if state.counter(u).corps_group == group]
    if not members:
        raise RuleViolation("NT 5.7", f"no unit of the {group} group is in play")
    if corps not in SVN_CORPS:
        raise RuleViolation("NT 5.2.2", f"{group} may be attached only to a South Vietnamese corps, not {corps}")
    if all(state.piece(u).corps == corps for u in members):
        raise RuleViolation("NT 5.7", f"{group} is already attached to {corps} Corps")
    check_corps_assignment({state.counter(u): corps for u in members})
    new = state.copy()
    for u in members:
        new.update(u, corps=corps, marks=state.piece(u).marks | {MARK_CHANGING_CORPS})
    res.add("NT 5.7", f"{group} ({', '.join(members)}) reassigned to {corps} Corps", result=corps)
    res.result = corps
    return new, res



@implements("NT 28.5")
def ranger_changes_allowed(turn: int) -> int:
    """28.5: ARVN Rangers keep their corps through 1965; from Jan/Feb 1966 one may change corps a turn, from
    Jan/Feb 1969 two."""
    return max((n for first, n in RANGERS_FROM.items() if turn >= first), default=0)


@implements("NT 28.5")
def reassign_ranger(state: NtndState, unit: str, corps: str,
                    res: Resolution | None = None) -> tuple[NtndState, Resolution]:
    """28.5: attach an ARVN Ranger in play to another South Vietnamese corps, within the turn's allowance.
    Reassigned Rangers carry a mark for the rest of the turn (the game clears marks when the turn ends)."""
    res = res if res is not None else Resolution()
    c = state.counter(unit)
    if c.type != "ranger" or c.nationality != "SVN":
        raise RuleViolation("NT 28.5", f"{unit} is not an ARVN Ranger")
    piece = state.piece(unit)
    if corps not in SVN_CORPS:
        raise RuleViolation("NT 5.2.3", f"an ARVN Ranger is attached to a South Vietnamese corps, not {corps}")
    if piece.corps == corps:
        raise RuleViolation("NT 28.5", f"{unit} is already attached to {corps} Corps")
    allowed = ranger_changes_allowed(state.turn)
    done = sum(1 for p in state.pieces.values() if p.marked(MARK_RANGER_REASSIGNED))
    if done >= allowed:
        raise RuleViolation("NT 28.5", f"{allowed} Ranger(s) may change corps this turn, and {done} already have")
    new = state.copy()
    new.update(unit, corps=corps, marks=piece.marks | {MARK_RANGER_REASSIGNED})
    res.add("NT 28.5", f"{unit} reassigned to {corps} Corps", result=corps)
    res.result = corps
    return new, res
