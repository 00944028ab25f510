"""Random events (F 19.0-19.10).

When the Random Event chit comes out of the cup, a first d10 picks whose event it is (even: US, odd: NVA/VC) and
a second d10 reads that side's column of the Random Event Table. The event then belongs to that side, whoever drew
the chit (catalog F-5 item 17). Before the table is read, the side's Hero marker (F 19.4) and, for the US, the
Aerial Observer (F 19.8) go: each lasts until its side's next random event.

In a game every choice an event gives a player is a prompt answered by that player (:mod:`wargames.fte.game`):
the unit of Injury, Low Ammo, Hero and Rally, the NVA Artillery's target, each Cobra's edge hex and altitude
(:func:`cobra_enters`) and each VC item's hex (:func:`place_vc_item`). Called directly, as the book's chapters do,
the procedures take the choice in ``choices`` keyed by the event's name; without one they fall back on a documented
default, listed in :data:`DEFAULTS`, so that a direct call is reproducible. The game never uses these defaults.
Counters whose values the text never prints (Cobras, the VC arrivals) are built from our own templates
(:data:`TEMPLATES`), marked reconstructed; pass your own units to override them.
"""
from __future__ import annotations

from typing import Any

from ..core import Hex, Resolution, implements
from ..core.errors import DataError, RuleViolation
from ..core.dice import roll_die
from .actions import check_fire_target, edge_hexes, helicopter_enters
from .placement import entry_problem
from .state import FireMission, FteState
from .units import Unit

US, NVA = "US", "NVA/VC"

#: The default each choice falls back on when a direct call of the library gives none (never used by the game,
#: which asks the player).
DEFAULTS = {
    "Injury": "the opponent marks the eligible unit (Visible, 3 or 4 men, infantry) with the lowest id",
    "Low Ammo": "the opponent marks the eligible combat unit with the lowest id, Visible units first",
    "Hero": "the side's unit with the lowest id",
    "Rally": "the Broken unit with the lowest id, else the Suppressed unit with the lowest id",
    "AH-1 Cobras": "the first two map-edge hexes by label that hold no helicopter, at Treetop level",
    "VC": "all four items (one item, the fire team, under the original 'or'); the commander, fire team and dummy in "
          "the first eligible hex nearest a hamlet (by label), the civilians in the next hex with no NVA/VC infantry",
    "NVA Artillery": "the hex of the Visible US unit with the lowest id (no event if no US unit is Visible and no "
                     "target is given)",
}

#: Our own values for counters the text does not describe (reconstructed).
TEMPLATES = {
    "cobra": dict(side="US", kind="helicopter", role="cobra", fire_rating=6, weapon="DP", tq=5, range=6,
                  defense=1, men=2),
    "commander": dict(side="VC", role="leader", tq=5, men=1),
    "fire_team": dict(side="VC", role="fire_team", fire_rating=4, weapon="SA", tq=4, men=4),
    "dummy": dict(side="VC", role="dummy", tq=4, men=1),
    "civilians": dict(side="VC", role="civilians", tq=3, men=1),
}
VC_ITEMS = ("commander", "fire_team", "dummy", "civilians")
VC_LIMIT = 2          # F 19.7: the VC event happens at most twice
COBRA_TURNS = 3       # F 19.6: the turn they arrive counts as the first


def _opponent(side: str) -> str:
    return NVA if side == US else US


def _by_id(units) -> list[Unit]:
    return sorted(units, key=lambda u: u.id)


def _unit_choice(state: FteState, choice: Any, eligible: list[Unit], rule: str, what: str) -> Unit:
    if choice is None:
        return eligible[0]
    if choice not in {u.id for u in eligible}:
        raise RuleViolation(rule, f"{choice} is not {what} (eligible: {', '.join(u.id for u in eligible)})")
    return state.unit(choice)


# --------------------------------------------------------------------------- the procedure

@implements("F 19.0", "F Random Event Table", "F 19.4", "F 19.8")
def random_event(state: FteState, dice, res: Resolution, choices: dict[str, Any] | None = None, *,
                 defer: bool = False) -> dict:
    """Draw of the Random Event chit (F 19.0): parity of a d10 names the side, a second d10 the event. The side's
    Hero marker and (US) the Aerial Observer are removed first. Returns {side, roll, event, outcome}. With
    ``defer`` the event is only drawn (outcome None): the game then asks the player who chooses and calls
    :func:`resolve_event` with the answer."""
    choices = choices or {}
    r1 = roll_die(dice, 10, "random event: whose event (even US, odd NVA/VC)")
    side = US if r1 % 2 == 0 else NVA
    res.add("F 19.0", f"random event: first roll {r1} is {'even, a' if r1 % 2 == 0 else 'odd, an'} {side} event",
            result=side, roll=r1)
    if side in state.hero:
        uid = state.hero.pop(side)
        if uid in state.units:
            state.units[uid].hero = False
        res.add("F 19.4", f"the {side} Hero marker comes off {uid} at the side's next random event")
    if side == US and state.aerial_observer:
        state.aerial_observer = False
        res.add("F 19.8", "the Aerial Observer leaves at the next US random event")
    r2 = roll_die(dice, 10, f"Random Event Table, {side} column")
    cell = state.charts.events.get(side, r2)
    mark = " [reconstructed]" if cell.provenance.reconstructed else ""
    res.add("F 19.0", f"second roll {r2}: {cell.value}{mark}", result=cell.value, roll=r2)
    if defer:
        res.result = {"side": side, "roll": r2, "event": cell.value, "outcome": None}
        return res.result
    outcome = resolve_event(state, side, cell.value, dice, res, choices.get(cell.value))
    res.result = {"side": side, "roll": r2, "event": cell.value, "outcome": outcome}
    return res.result


#: The events whose rule gives a player the choice of a unit: who chooses ("side" or "opponent") and whether
#: the chooser may decline (F 19.1-19.4).
UNIT_CHOICES = {"Injury": ("opponent", False), "Low Ammo": ("opponent", True), "Hero": ("side", False),
                "Rally": ("side", False)}


def eligible_units(state: FteState, side: str, event: str) -> list[Unit]:
    """The units an event of :data:`UNIT_CHOICES` may be given to (empty: the event fizzles)."""
    if event == "Injury":
        if injury_on_map(state):
            return []
        return _by_id(u for u in state.on_map(side) if u.infantry and not u.concealed and u.men in (3, 4)
                      and u.role not in ("civilians", "dummy"))
    if event == "Low Ammo":
        return sorted((u for u in state.on_map(side) if u.is_combat and not u.low_ammo),
                      key=lambda u: (u.concealed, u.id))
    if event == "Hero":
        return _by_id(state.on_map(side))
    if event == "Rally":
        return _by_id(u for u in state.on_map(side) if u.broken) + _by_id(
            u for u in state.on_map(side) if u.suppressed and not u.broken)
    raise DataError("events", "event", f"{event!r} gives no choice of a unit")


def chooser(side: str, event: str) -> str:
    """The player who picks the unit of an event of :data:`UNIT_CHOICES`."""
    return side if UNIT_CHOICES[event][0] == "side" else _opponent(side)


@implements("F 19.0")
def resolve_event(state: FteState, side: str, event: str, dice, res: Resolution, choice: Any = None) -> str:
    """Carry out one event for ``side``; returns a short word for what happened ("No Event" when it fizzles)."""
    handlers = {"Injury": injury, "Low Ammo": low_ammo, "Hero": hero, "Rally": rally, "Higher HQ": higher_hq,
                "AH-1 Cobras": cobras, "VC": vc, "Aerial Observer": aerial_observer,
                "NVA Artillery": nva_artillery, "Check Fire": check_fire, "No Event": no_event}
    if side not in (US, NVA):
        raise DataError("events", "side", f"{side!r} is not a player")
    if event not in handlers:
        raise DataError("events", "event", f"{event!r} is not a random event")
    if event in ("AH-1 Cobras", "Aerial Observer") and side != US:
        raise RuleViolation("F 19.0", f"{event} is a US event")
    if event in ("VC", "NVA Artillery") and side != NVA:
        raise RuleViolation("F 19.0", f"{event} is an NVA/VC event")
    return handlers[event](state, side, dice, res, choice)


def no_event(state: FteState, side: str, dice, res: Resolution, choice: Any = None, why: str = "") -> str:
    res.add("F 19.0", f"No Event{': ' + why if why else ''}", result="No Event")
    return "No Event"


# --------------------------------------------------------------------------- the events

def injury_on_map(state: FteState) -> bool:
    """Is the Injury marker in play: on a unit (on the map or aboard a transport) or lying or carried as a
    marker?"""
    on_unit = any(u.injury and u.hex is not None for u in state.units.values())
    return on_unit or any(c.kind == "Injury" for c in state.casualties.values())


@implements("F 19.1")
def injury(state: FteState, side: str, dice, res: Resolution, choice: str | None = None) -> str:
    """The opponent puts the Injury marker on one of the side's Visible three- or four-man infantry units (no
    loss of strength). Nothing happens if the marker is already in play or no unit qualifies (F 19.1). The unit
    loses 1 MP while it carries the marker and it scores like a WIA when evacuated or captured."""
    if injury_on_map(state):
        return no_event(state, side, dice, res, why="the Injury marker is already on the map (F 19.1)")
    eligible = eligible_units(state, side, "Injury")
    if not eligible:
        return no_event(state, side, dice, res, why="no Visible three- or four-man unit (F 19.1)")
    u = _unit_choice(state, choice, eligible, "F 19.1", "a Visible three- or four-man infantry unit")
    u.injury = True
    res.add("F 19.1", f"{_opponent(side)} places the Injury marker on {u.id}: -1 MP while it carries it"
            + ("" if state.readings.injury_allows_double_time else ", and no Double Time (original F 19.1)"),
            result=u.id, unit=u.id)
    return u.id


@implements("F 19.2")
def low_ammo(state: FteState, side: str, dice, res: Resolution, choice: str | None = None) -> str:
    """The opponent may mark one of the side's combat units Low Ammo: +1 on its fire attacks until it recovers
    (F 19.2, F 10.0). ``choice=False`` declines."""
    if choice is False:
        return no_event(state, side, dice, res, why=f"{_opponent(side)} declines to place the marker")
    eligible = eligible_units(state, side, "Low Ammo")
    if not eligible:
        return no_event(state, side, dice, res, why="no combat unit without Low Ammo")
    u = _unit_choice(state, choice, eligible, "F 19.2", "a combat unit without Low Ammo")
    u.low_ammo = True
    res.add("F 19.2", f"{_opponent(side)} puts a Low Ammo marker on {u.id} (+1 to its fire attacks)",
            result=u.id, unit=u.id)
    return u.id


@implements("F 19.4")
def hero(state: FteState, side: str, dice, res: Resolution, choice: str | None = None) -> str:
    """The side puts its Hero marker on one of its units, until the side's next random event (F 19.4). The
    marker's effect is not in the text; our marker chart gives it -1 to fire and TQ rolls (reconstructed)."""
    eligible = eligible_units(state, side, "Hero")
    if not eligible:
        return no_event(state, side, dice, res, why="no unit on the map")
    u = _unit_choice(state, choice, eligible, "F 19.4", "a friendly unit on the map")
    u.hero = True
    state.hero[side] = u.id
    res.add("F 19.4", f"{side} places its Hero marker on {u.id}", result=u.id, unit=u.id)
    return u.id


@implements("F 19.3")
def rally(state: FteState, side: str, dice, res: Resolution, choice: str | None = None) -> str:
    """Take the Broken or the Suppressed marker off one of the side's units; no event if none has one
    (F 19.3)."""
    eligible = eligible_units(state, side, "Rally")
    if not eligible:
        return no_event(state, side, dice, res, why="no Broken or Suppressed unit (F 19.3)")
    u = _unit_choice(state, choice, eligible, "F 19.3", "a Broken or Suppressed friendly unit")
    what = "Broken" if u.broken else "Suppressed"
    if u.broken:
        u.broken = False
    else:
        u.suppressed = False
    res.add("F 19.3", f"{u.id} rallies: its {what} marker is removed", result=u.id, unit=u.id)
    return u.id


@implements("F 19.5")
def higher_hq(state: FteState, side: str, dice, res: Resolution, choice: Any = None) -> str:
    """The side reports to higher headquarters: no Leader activations for it for the rest of this turn
    (F 19.5; the activation rules read ``state.higher_hq``)."""
    state.higher_hq.add(side)
    res.add("F 19.5", f"{side} may make no Leader activations for the rest of turn {state.turn}", result=side)
    return side


def cobras_present(state: FteState) -> bool:
    """Are the Cobras of an earlier event still on the map? (A FRAGO's own Cobras are not "the AH-1s" of F 19.6.)"""
    return any(u.role == "cobra" and u.leaves_turn is not None for u in state.on_map(US))


def cobra_hexes(state: FteState) -> list[Hex]:
    """The map-edge hexes where a Cobra may come in now: one helicopter a hex, no enemy unit (F 6.2)."""
    probe = Unit("AH-1", altitude="treetop", **TEMPLATES["cobra"])
    return [h for h in edge_hexes(state) if not entry_problem(state, [probe], h)[0]]


@implements("F 19.6", "F 4.0")
def cobra_enters(state: FteState, where: Hex, altitude: str, res: Resolution, unit: Unit | None = None) -> Unit:
    """One of the event's two AH-1 Cobras comes in on a map-edge hex at Treetop or High (F 19.6, F 4.0). Counting
    the turn it arrives as the first, it stays three game turns: it must be off the map by the end of turn + 2."""
    u = unit or Unit(state.new_id("AH1-"), altitude="treetop", **TEMPLATES["cobra"])
    if u.role != "cobra" or u.player != US:
        raise RuleViolation("F 19.6", f"{u.id} is not an American AH-1 Cobra")
    if where not in edge_hexes(state):
        raise RuleViolation("F 19.6", f"{state.label(where)} is not on a map edge")
    rule, why = entry_problem(state, [u], where)
    if rule:
        raise RuleViolation(rule, why)
    helicopter_enters(state, u, where, altitude, res)
    u.leaves_turn = state.cobras_leave = state.turn + COBRA_TURNS - 1
    res.add("F 19.6", f"the AH-1 Cobra {u.id} stays {COBRA_TURNS} game turns, this one included: it must leave the "
                      f"map by the end of turn {u.leaves_turn}", result=u.leaves_turn, unit=u.id)
    return u


@implements("F 19.6")
def cobras(state: FteState, side: str, dice, res: Resolution, choice: Any = None) -> str:
    """Two AH-1 Cobras arrive at once on any map edge, one helicopter per hex, at Treetop or High; they stay three
    game turns and must be gone by the end of the third, the turn of arrival counting as the first. Ignored while
    the event's Cobras are on the map (F 19.6).

    ``choice``: a list of two hex labels, or {"hexes": [...], "altitude": "high", "units": [Unit, Unit]}; without
    one, the default of :data:`DEFAULTS` (the game asks the US player instead, :func:`cobra_enters`)."""
    if cobras_present(state):
        return no_event(state, side, dice, res, why="the Cobras are already on the map (F 19.6)")
    spec = {"hexes": choice} if isinstance(choice, (list, tuple)) else dict(choice or {})
    altitude = spec.get("altitude", "treetop")
    units = list(spec.get("units") or [Unit(state.new_id("AH1-"), altitude=altitude, **TEMPLATES["cobra"])
                                       for _ in range(2)])
    if len(units) != 2 or any(u.role != "cobra" for u in units):
        raise RuleViolation("F 19.6", "the event brings exactly two AH-1 Cobras")
    free = cobra_hexes(state)
    if spec.get("hexes") is not None:
        hexes = [state.hex(h) for h in spec["hexes"]]
        if len(hexes) != 2 or hexes[0] == hexes[1]:
            raise RuleViolation("F 6.2", "two Cobras need two different hexes (one helicopter per hex)")
        for h in hexes:
            if h not in free:
                raise RuleViolation("F 19.6", f"{state.label(h)} is not a map-edge hex a Cobra may enter "
                                              "(no helicopter or enemy unit there)")
    else:
        hexes = free[:2]
    for u, h in zip(units, hexes):
        cobra_enters(state, h, altitude, res, u)
    res.add("F 19.6", f"two AH-1 Cobras ({', '.join(u.id for u in units)}) arrive; they must leave the map by the "
                      f"end of turn {state.cobras_leave}", result=[u.id for u in units])
    return "Cobras"


def hamlets(state: FteState) -> list[Hex]:
    """The map's hamlet hexes, by label."""
    return sorted((h for h in state.map.hexes if state.map.terrain(h) == "hamlet"), key=state.label)


def _near_hamlet(state: FteState, h: Hex) -> int | None:
    ds = [h.distance(x) for x in hamlets(state)]
    return min(ds) if ds and min(ds) <= 3 else None


def vc_hex_problem(state: FteState, h: Hex, item: str, placed: dict[str, Hex] | None = None) -> str:
    """Why the VC ``item`` may not go in h (empty string: it may): within three hexes of a hamlet (F 19.7), in no
    hex with American units, Civilians never with NVA/VC infantry (F 6.2). ``placed``: items of the same event
    chosen but not yet on the map."""
    placed = placed or {}
    if h not in state.map:
        return "that hex is not in play"
    if _near_hamlet(state, h) is None:
        return "it is more than three hexes from every hamlet"
    if state.units_at(h, US):
        return "it holds American units (F 6.2)"
    here = state.units_at(h, NVA)
    infantry_here = any(u.infantry and u.role != "civilians" for u in here) or any(
        p == h for k, p in placed.items() if k != "civilians")
    civ_here = any(u.role == "civilians" for u in here) or placed.get("civilians") == h
    if item == "civilians" and infantry_here:
        return "Civilians may not stack with NVA/VC infantry (F 6.2)"
    if item != "civilians" and civ_here:
        return "NVA/VC infantry may not stack with Civilians (F 6.2)"
    return ""


def vc_hexes(state: FteState, item: str) -> list[Hex]:
    """Where the VC ``item`` may go now, nearest a hamlet first, then by label."""
    return sorted((h for h in state.map.hexes if not vc_hex_problem(state, h, item)),
                  key=lambda h: (_near_hamlet(state, h), state.label(h)))


def vc_items(state: FteState) -> tuple[tuple[str, ...], bool]:
    """The items the VC event places and whether the player picks just one of them: all four by the errata, one
    under the original "or" (F 19.7)."""
    return VC_ITEMS, not state.readings.vc_event_places_all


@implements("F 19.7")
def place_vc_item(state: FteState, item: str, h: Hex, res: Resolution, unit: Unit | None = None) -> Unit:
    """Place one item of the VC event, Concealed, in a hex where it may go (F 19.7, F 6.2)."""
    if item not in VC_ITEMS:
        raise DataError("events", "VC.items", f"{item!r} is not one of {', '.join(VC_ITEMS)}")
    why = vc_hex_problem(state, h, item)
    if why:
        raise RuleViolation("F 19.7", f"the VC {item.replace('_', ' ')} cannot go in {state.label(h)}: {why}")
    u = unit or Unit(state.new_id(f"VC-{item}-"), **TEMPLATES[item])
    if u.side != "VC":
        raise RuleViolation("F 19.7", f"{u.id} is not a VC counter")
    if u.id in state.units and state.units[u.id].on_map:
        raise RuleViolation("F 19.7", f"{u.id} is already on the map")
    u.hex, u.concealed = h, True
    state.units[u.id] = u
    res.add("F 19.7", f"the VC {item.replace('_', ' ')} {u.id} is placed Concealed in {state.label(u.hex)} "
                      f"({_near_hamlet(state, u.hex)} hex(es) from a hamlet)", unit=u.id)
    return u


@implements("F 19.7")
def vc_chit(state: FteState, res: Resolution, made: list[str] | None = None) -> None:
    """The VC event's extra NVA/VC activation chit goes into the cup, and the event is counted (twice a game)."""
    state.cup.chits[NVA] += 1
    state.cup.cup.append(NVA)
    state.vc_events += 1
    res.add("F 19.7", f"one NVA/VC activation chit is added to the cup (VC event {state.vc_events} of {VC_LIMIT})",
            result=list(made or []))


@implements("F 19.7", "F Errata")
def vc(state: FteState, side: str, dice, res: Resolution, choice: Any = None) -> str:
    """VC reinforcements (F 19.7): a commander, a fire team, a dummy unit and a civilians marker, all VC (all four
    by the errata; the original text places one of them), all Concealed, each within three hexes of some hamlet hex,
    as the counter mix allows; one more NVA/VC activation chit goes into the cup. Only twice a game; later VC
    results are No Event.

    ``choice``: {"items": [...], "hexes": {item: label}, "units": {item: Unit}}; ``items`` names what the counter
    mix still has (the original reading needs exactly one). Without hexes, the default of :data:`DEFAULTS` (the game
    asks the NVA/VC player instead, :func:`place_vc_item`)."""
    if state.vc_events >= VC_LIMIT:
        return no_event(state, side, dice, res, why=f"the VC event has already happened {VC_LIMIT} times (F 19.7)")
    spec = dict(choice or {})
    every, one_of = vc_items(state)
    items = list(spec.get("items") or (every if not one_of else ("fire_team",)))
    for it in items:
        if it not in VC_ITEMS:
            raise DataError("events", "VC.items", f"{it!r} is not one of {', '.join(VC_ITEMS)}")
    if one_of and len(items) != 1:
        raise RuleViolation("F 19.7", "the original VC event places one item, not several")
    if not items:
        return no_event(state, side, dice, res, why="the counter mix has no VC items left")
    if not hamlets(state):
        return no_event(state, side, dice, res, why="the map has no hamlet")
    wanted = {k: state.hex(v) for k, v in (spec.get("hexes") or {}).items()}
    candidates = sorted((h for h in state.map.hexes if _near_hamlet(state, h) is not None),
                        key=lambda h: (_near_hamlet(state, h), state.label(h)))
    placed: dict[str, Hex] = {}
    for it in items:
        if it in wanted:
            why = vc_hex_problem(state, wanted[it], it, placed)
            if why:
                raise RuleViolation("F 19.7", f"the VC {it} cannot go in {state.label(wanted[it])}: {why}")
            placed[it] = wanted[it]
            continue
        h = next((c for c in candidates if not vc_hex_problem(state, c, it, placed)), None)
        if h is None:
            raise RuleViolation("F 19.7", f"no hex within three hexes of a hamlet can take the VC {it}")
        placed[it] = h
    units = spec.get("units") or {}
    made = [place_vc_item(state, it, placed[it], res, units.get(it)).id for it in items]
    vc_chit(state, res, made)
    return "VC"


@implements("F 19.8")
def aerial_observer(state: FteState, side: str, dice, res: Resolution, choice: Any = None) -> str:
    """The US gains an Aerial Observer until its next random event: new fire requests are one turn quicker and
    accuracy rolls get -2 (F 19.8; applied in F 13.0 and F 16.0). It is a reminder, not a unit."""
    state.aerial_observer = True
    res.add("F 19.8", "the US has an Aerial Observer: new fire requests 1 turn quicker, accuracy -2", result=True)
    return "Aerial Observer"


@implements("F 19.9", "F 16.0")
def nva_artillery(state: FteState, side: str, dice, res: Resolution, choice: Any = None) -> str:
    """The NVA player secretly targets a hex in the LoS of an NVA leader, or holding or next to a Visible US
    unit; an artillery mission executes there in ceil(d10/3) turns (F 19.9, through F 16.0). Without a ``choice``,
    the default of :data:`DEFAULTS` (the game asks the NVA/VC player)."""
    leaders = _by_id(u for u in state.on_map(NVA) if u.side == "NVA" and u.is_leader)
    if choice is None:
        seen = _by_id(u for u in state.on_map(US) if not u.concealed)
        if not seen:
            return no_event(state, side, dice, res, why="no target given and no Visible US unit to aim at")
        target = seen[0].hex
    else:
        target = state.hex(choice)
    why = check_fire_target(state, NVA, target, "F 19.9", observers=leaders)
    roll = roll_die(dice, 10, "NVA Artillery delay")
    delay = -(-roll // 3)
    mission = FireMission(NVA, "ARTY", target, state.turn + delay, "NVA Artillery event")
    state.fire_missions.append(mission)
    res.add("F 19.9", f"NVA artillery on {state.label(target)} ({why}): delay roll {roll}, executes on turn "
                      f"{mission.turn}", arithmetic=f"ceil({roll}/3) = {delay}", result=mission, roll=roll)
    return "NVA Artillery"


@implements("F 19.10")
def check_fire(state: FteState, side: str, dice, res: Resolution, choice: Any = None) -> str:
    """Every pending fire mission of the side that drew the event is cancelled (F 19.10)."""
    gone = [m for m in state.fire_missions if m.side == side]
    state.fire_missions = [m for m in state.fire_missions if m.side != side]
    res.add("F 19.10", f"Check Fire: {len(gone)} pending {side} fire mission(s) cancelled", result=len(gone))
    return "Check Fire"


__all__ = ["random_event", "resolve_event", "injury", "low_ammo", "hero", "rally", "higher_hq", "cobras", "vc",
           "aerial_observer", "nva_artillery", "check_fire", "no_event", "injury_on_map", "DEFAULTS", "TEMPLATES",
           "cobras_present", "cobra_hexes", "cobra_enters", "hamlets", "vc_hex_problem", "vc_hexes", "vc_items",
           "place_vc_item", "vc_chit", "COBRA_TURNS", "VC_ITEMS", "VC_LIMIT"]
