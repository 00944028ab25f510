"""Casualty markers (F 7.5.1-7.5.3), the casualty check (F 17.0) and medics (F 17.1).

A KIA, WIA or Injury marker is a :class:`~wargames.fte.units.CasualtyMarker`. It lies in a hex (``carried_by``
None), is carried by an infantry unit, or is loaded straight into a vehicle or helicopter (``carried_by`` names
that unit, whose ``carrying`` lists it, and ``hex`` follows the carrier). Markers never move on their own
(F 7.5.2).

The Injury of F 19.1 starts on its unit as the ``Unit.injury`` flag (the unit carries its own Injury marker:
-1 MP, one troop aboard a transport). Once dropped it becomes an ``Injury`` casualty marker like any WIA: it can
be picked up, carried, loaded, evacuated and captured (F 7.5.1 and the errata clarifications). It is not rolled
for in the casualty check, which the text applies to WIA markers only.

Evacuation (F 7.5.3) and the casualty check (F 17.0) score the Victory Point chart for the side that owns the
casualty; capturing an enemy WIA or Injury scores for the captor.
"""
from __future__ import annotations

from ..core import Hex, Resolution, implements
from ..core.errors import DataError, RuleViolation
from ..core.dice import roll_die
from .state import FteState
from .units import CasualtyMarker, Unit, player

CASUALTY_KINDS = ("KIA", "WIA", "Injury")
#: The VP chart row a friendly marker scores when evacuated (F 7.5.3).
EVACUATION_EVENT = {"KIA": "kia_evacuated", "WIA": "wia_evacuated", "Injury": "wia_evacuated"}


# --------------------------------------------------------------------------- where things are

def unit_hex(state: FteState, unit: Unit) -> Hex | None:
    """The hex a unit is in; a loaded unit is wherever its transport is (F 6.9)."""
    if unit.loaded_in is not None:
        return unit_hex(state, state.unit(unit.loaded_in))
    return unit.hex


def marker_hex(state: FteState, marker: CasualtyMarker) -> Hex | None:
    """The hex a casualty marker is in: its own hex, or its carrier's."""
    if marker.carried_by is None:
        return marker.hex
    return unit_hex(state, state.unit(marker.carried_by))


def marker(state: FteState, mid: str) -> CasualtyMarker:
    try:
        return state.casualties[mid]
    except KeyError:
        raise DataError("state", mid, "no such casualty marker") from None


def carried(state: FteState, unit: Unit) -> list[CasualtyMarker]:
    """The casualty markers a unit carries (or, for a transport, holds loaded)."""
    return [state.casualties[m] for m in unit.carrying if m in state.casualties]


def place_marker(state: FteState, kind: str, side: str, where: Hex, res: Resolution, rule: str,
                 mid: str | None = None) -> CasualtyMarker:
    """Put a new KIA, WIA or Injury marker in a hex (no points: the caller scores whatever caused it)."""
    if kind not in CASUALTY_KINDS:
        raise DataError("casualties", "kind", f"must be one of {CASUALTY_KINDS}, not {kind!r}")
    if where not in state.map:
        raise RuleViolation(rule, f"a casualty marker cannot be placed off the map ({where})")
    mid = mid or state.new_id(kind)
    if mid in state.casualties:
        raise DataError("state", mid, "the same casualty marker id is used twice")
    m = CasualtyMarker(mid, kind, side, hex=where)
    state.casualties[mid] = m
    article = "an" if side == "NVA" else "a"
    res.add(rule, f"{article} {side} {kind} marker ({mid}) is placed in {state.label(where)}", result=mid, marker=mid)
    return m


def attach(state: FteState, m: CasualtyMarker, carrier: Unit) -> None:
    detach(state, m)
    m.carried_by, m.hex = carrier.id, unit_hex(state, carrier)
    carrier.carrying.append(m.id)


def detach(state: FteState, m: CasualtyMarker) -> None:
    if m.carried_by is not None:
        holder = state.units.get(m.carried_by)
        if holder is not None and m.id in holder.carrying:
            holder.carrying.remove(m.id)
    m.carried_by = None


@implements("F 7.5.2", "F 19.1")
def load_count(state: FteState, unit: Unit) -> int:
    """Casualties an infantry unit is carrying: its markers plus its own Injury marker (F 7.5.2, F 19.1)."""
    return len(carried(state, unit)) + (1 if unit.injury else 0)


def _check_carrier(state: FteState, unit: Unit, m: CasualtyMarker, rule: str) -> None:
    if not unit.infantry:
        raise RuleViolation(rule, f"{unit.id} is not an infantry unit; only infantry carry casualty markers")
    if not unit.on_map:
        raise RuleViolation(rule, f"{unit.id} is not on the map (loaded or gone)")
    if m.player != unit.player:
        raise RuleViolation(rule, f"{unit.id} cannot carry an enemy {m.kind} ({m.id}); enemy casualties are "
                                  "captured or removed instead (F 7.5.3)")
    if load_count(state, unit) + 1 > unit.carry_limit:
        raise RuleViolation("F 7.5.2", f"{unit.id} ({unit.men} men) may carry {unit.carry_limit} KIA/WIA and "
                                       f"already carries {load_count(state, unit)}")


@implements("F 7.5.2")
def carry_new(state: FteState, mid: str, carrier_id: str, res: Resolution) -> None:
    """A marker just created may be taken up at once by an infantry unit in its hex (F 7.5.2)."""
    m, u = marker(state, mid), state.unit(carrier_id)
    if m.carried_by is not None or m.hex != u.hex:
        raise RuleViolation("F 7.5.2", f"{carrier_id} is not in the hex of {mid}, or {mid} is already carried")
    _check_carrier(state, u, m, "F 7.5.2")
    attach(state, m, u)
    res.add("F 7.5.2", f"{carrier_id} takes up the new {m.kind} marker {mid} at once", result=mid)


@implements("F 7.5.2", "F 10.0")
def pick_up(state: FteState, unit_id: str, mid: str, res: Resolution) -> None:
    """Pick up a marker lying alone in the unit's hex (part of a Recover action, F 7.5.2, F 10.0)."""
    m, u = marker(state, mid), state.unit(unit_id)
    if m.carried_by is not None:
        raise RuleViolation("F 7.5.2", f"{mid} is carried by {m.carried_by}; use a transfer instead")
    if m.hex != u.hex:
        raise RuleViolation("F 7.5.2", f"{mid} is not in {unit_id}'s hex")
    _check_carrier(state, u, m, "F 7.5.2")
    attach(state, m, u)
    res.add("F 7.5.2", f"{unit_id} picks up the {m.kind} marker {mid} "
                       f"(now carries {load_count(state, u)} of {u.carry_limit})", result=mid)


@implements("F 7.5.2", "F 10.0")
def transfer(state: FteState, from_id: str, mid: str, to_id: str, res: Resolution) -> None:
    """Hand a carried marker to another infantry unit in the hex; the receiver need not be activated and
    may have finished its activation (F 7.5.2, F 10.0)."""
    m, giver, taker = marker(state, mid), state.unit(from_id), state.unit(to_id)
    if m.carried_by != from_id:
        raise RuleViolation("F 7.5.2", f"{from_id} does not carry {mid}")
    if from_id == to_id or taker.hex != giver.hex or not giver.on_map:
        raise RuleViolation("F 7.5.2", f"{to_id} must be another unit in {from_id}'s hex")
    _check_carrier(state, taker, m, "F 7.5.2")
    attach(state, m, taker)
    res.add("F 7.5.2", f"{from_id} hands the {m.kind} marker {mid} to {to_id}", result=mid)


@implements("F 7.5.2")
def drop(state: FteState, unit_id: str, mid: str, res: Resolution) -> None:
    """Leave a carried marker in the unit's hex, declared during a Move action before the unit leaves
    (F 7.5.2; an Injury may be dropped like a WIA, errata clarifications)."""
    m, u = marker(state, mid), state.unit(unit_id)
    if m.carried_by != unit_id or not u.infantry:
        raise RuleViolation("F 7.5.2", f"{unit_id} does not carry {mid}")
    if not u.on_map:
        raise RuleViolation("F 7.5.2", f"{unit_id} is loaded; markers are unloaded with the transport (F 15.0)")
    detach(state, m)
    m.hex = u.hex
    res.add("F 7.5.2", f"{unit_id} drops the {m.kind} marker {mid} in {state.label(u.hex)}", result=mid)


@implements("F 7.5.2", "F 19.1", "F Clarifications")
def drop_injury(state: FteState, unit_id: str, res: Resolution) -> CasualtyMarker:
    """An injured unit leaves its Injury marker in its hex, as it may drop a WIA (errata clarification): the
    unit is whole again and the marker now lies there like a WIA."""
    u = state.unit(unit_id)
    if not u.injury:
        raise RuleViolation("F 19.1", f"{unit_id} has no Injury marker")
    if not u.on_map:
        raise RuleViolation("F 7.5.2", f"{unit_id} is loaded; markers are unloaded with the transport (F 15.0)")
    u.injury = False
    m = place_marker(state, "Injury", u.side, u.hex, res, "F 19.1")
    res.add("F 7.5.2", f"{unit_id} drops its Injury marker ({m.id}) in {state.label(u.hex)}", result=m.id)
    return m


# --------------------------------------------------------------------------- evacuation

def drop_all(state: FteState, u: Unit, where: Hex) -> None:
    """Every marker a unit carries is left in ``where`` (the unit is gone or can no longer carry)."""
    for mid in list(u.carrying):
        m = state.casualties.get(mid)
        if m is not None:
            detach(state, m)
            m.hex = where


@implements("F 7.5.3")
def evacuate_marker(state: FteState, mid: str, res: Resolution) -> int:
    """Score and remove one evacuated marker: the owning player gains the chart's points (F 7.5.3)."""
    m = marker(state, mid)
    detach(state, m)
    del state.casualties[mid]
    return state.award(m.player, EVACUATION_EVENT[m.kind], res, "F 7.5.3")


@implements("F 7.5.3", "F Clarifications")
def leave_map(state: FteState, unit_id: str, res: Resolution, *, tunnel: bool = False,
              edge_check: bool = True) -> list[str]:
    """A unit leaves the map (or, for the NVA/VC, goes down a tunnel) with whatever it carries.

    Vehicles and helicopters evacuate every friendly marker aboard, their passengers' included, and their
    passengers leave with them. An infantry unit that carries markers off evacuates them and is out of play for
    good (F 7.5.3): the NVA/VC may do so at any edge or into a tunnel in its hex; US infantry only where the
    scenario allows (``state.us_may_carry_off``). A Broken leader aboard a departing helicopter costs his side an
    activation chit (errata clarifications). Returns the evacuated marker ids. The 1 MP for leaving is the
    movement code's business (F 6.5); ``edge_check=False`` lets a helicopter that had to leave go from anywhere.
    """
    u = state.unit(unit_id)
    if not u.on_map:
        raise RuleViolation("F 7.5.3", f"{unit_id} is not on the map")
    where = u.hex
    if tunnel:
        if u.player != "NVA/VC" or not u.infantry:
            raise RuleViolation("F 7.5.3", "only NVA/VC infantry carry casualties into a tunnel")
        has_tunnel = state.map.has(where, "tunnel") or any(
            s.kind == "tunnel" and s.hex == where and s.side != "US" for s in state.sites.values())
        if not has_tunnel:
            raise RuleViolation("F 7.5.3", f"there is no tunnel in {state.label(where)}")
    elif edge_check and not any(n not in state.map for n in where.neighbors()):
        raise RuleViolation("F 6.1", f"{state.label(where)} is not on a map edge")
    if u.infantry and not (u.carrying or u.injury):
        raise RuleViolation("F 7.5.3", f"{unit_id} carries no casualty; infantry leave the map or go down a tunnel "
                                       "to evacuate them (F 6.1)")
    if u.infantry and u.player == "US" and not state.us_may_carry_off:
        raise RuleViolation("F 7.5.3", "US infantry may carry casualties off the map only where the scenario "
                                       "allows it; the US evacuates by vehicle or helicopter")
    aboard = [p for p in state.units.values() if p.loaded_in == unit_id]
    evacuated: list[str] = []
    for holder in [u] + aboard:
        for mid in list(holder.carrying):
            m = state.casualties.get(mid)
            if m is None:
                continue
            if m.player != u.player:      # never happens by the rules; kept for safety
                raise DataError("state", mid, f"{unit_id} holds an enemy marker")
            evacuated.append(mid)
            res.add("F 7.5.3", f"the {m.player} {m.kind} marker {mid} is evacuated "
                               f"{'down the tunnel' if tunnel else 'off the map'} with {unit_id}")
            evacuate_marker(state, mid, res)
    for holder in [u] + aboard:
        if holder.injury and (holder is not u or u.infantry):
            res.add("F 7.5.3", f"the Injury marker on {holder.id} is evacuated with it")
            state.award(holder.player, "wia_evacuated", res, "F 7.5.3")
            holder.injury = False
    for p in aboard:
        if p.is_leader and p.broken and u.kind == "helicopter":
            state.remove_chit(p.player, res, "F Clarifications", f"the Broken leader {p.id} leaves on {unit_id}")
        p.hex, p.loaded_in = None, None
        res.add("F 7.5.3", f"{p.id} leaves the map aboard {unit_id}")
    u.hex = None
    if state.medevac_unit == unit_id:
        state.medevac_unit = None
        res.add("F 12.0", f"the medevac {unit_id} has left: a new medevac may be requested")
    gone = "for good" if u.infantry else ""
    res.add("F 7.5.3", f"{unit_id} leaves {state.label(where)} {'down a tunnel' if tunnel else 'off the map'}"
                       f"{' and is out of play ' + gone if gone else ''}", result=evacuated)
    return evacuated


# --------------------------------------------------------------------------- alone with the enemy

#: Markers that are not fighting units: they neither guard nor capture casualties (our reading).
NOT_PRESENT = ("civilians", "dummy")


@implements("F 7.5.3", "F 17.1", "F 19.1")
def check_hex(state: FteState, where: Hex, res: Resolution) -> list[str]:
    """Settle a hex that holds enemy units: a Medic with no other friendly unit there is eliminated (scored as
    a KIA by the enemy, F 17.1); then a KIA marker lying with no friendly unit is removed and a WIA or Injury
    is captured (the captor scores Capture Enemy WIA/Injury, F 7.5.3, F 19.1). Carried and loaded markers are
    never alone; Civilians markers and Dummy units count on neither side. Call it whenever units enter or leave a hex. Returns what was removed."""
    gone: list[str] = []
    present = [u for u in state.units_at(where) if u.role not in NOT_PRESENT]
    for side_player in ("US", "NVA/VC"):
        enemies = [u for u in present if u.player != side_player]
        if not enemies:
            continue
        friends = [u for u in present if u.player == side_player]
        if friends and all(u.role == "medic" for u in friends):
            for medic in friends:
                medic.hex = None
                drop_all(state, medic, where)
                gone.append(medic.id)
                res.add("F 17.1", f"the medic {medic.id} is alone with the enemy in {state.label(where)} and is "
                                  "eliminated", result=medic.id)
                state.award(enemies[0].player, "enemy_kia", res, "F 17.1")
            friends = []
        if friends:
            continue
        for m in [c for c in state.casualties_at(where) if c.player == side_player]:
            del state.casualties[m.id]
            gone.append(m.id)
            if m.kind == "KIA":
                res.add("F 7.5.3", f"the {side_player} KIA marker {m.id} is alone with the enemy in "
                                   f"{state.label(where)} and is removed", result=m.id)
            else:
                rule = "F 19.1" if m.kind == "Injury" else "F 7.5.3"
                res.add(rule, f"the {side_player} {m.kind} marker {m.id} is alone with the enemy in "
                              f"{state.label(where)} and is captured", result=m.id)
                state.award(enemies[0].player, "capture_wia", res, rule)
    return gone


def check_all(state: FteState, res: Resolution) -> list[str]:
    """:func:`check_hex` for every hex that holds units of both players."""
    hexes = sorted({u.hex for u in state.on_map()}, key=lambda h: (h.q, h.r))
    out: list[str] = []
    for h in hexes:
        if len({u.player for u in state.units_at(h)}) > 1:
            out += check_hex(state, h, res)
    return out


# --------------------------------------------------------------------------- the casualty check

DOW_FROM = 9   # F 17.0: a modified 9 or 10 dies of wounds
RTD_TO = 2     # F 17.0: a modified 1 or 2 returns to duty


@implements("F 17.0")
def casualty_result(roll: int, medic: bool) -> tuple[str, int]:
    """The casualty check's verdict for one d10 roll: ("DOW" | "RTD" | "remains", modified roll).

    The roll is read as it stands (F 1.2's natural 1 and 10 do not apply; the table itself sets 1-2 and 9-10),
    less 1 with a Medic in the hex (F 17.0, F 17.1).
    """
    total = roll - (1 if medic else 0)
    if total >= DOW_FROM:
        return "DOW", total
    if total <= RTD_TO:
        return "RTD", total
    return "remains", total


@implements("F 17.1")
def medic_with(state: FteState, m: CasualtyMarker) -> Unit | None:
    """A friendly Medic in the same hex as the marker (a medic loaded in the same transport counts too)."""
    where = marker_hex(state, m)
    for u in sorted(state.units.values(), key=lambda x: x.id):
        if u.role == "medic" and u.player == m.player and u.hex is not None and not u.destroyed \
                and unit_hex(state, u) == where:
            return u
    return None


@implements("F 17.0", "F 17.1")
def check_wia(state: FteState, mid: str, dice, res: Resolution) -> str:
    """Roll the casualty check for one WIA marker: DOW turns it into a KIA and costs its owner the DOW points;
    RTD removes it and gains the owner the RTD points; otherwise it stays (F 17.0)."""
    m = marker(state, mid)
    if m.kind != "WIA":
        raise RuleViolation("F 17.0", f"{mid} is a {m.kind} marker; only WIA markers are checked")
    medic = medic_with(state, m)
    roll = roll_die(dice, 10, f"casualty check for {mid}")
    verdict, total = casualty_result(roll, medic is not None)
    arith = f"{roll} - 1 (medic {medic.id}) = {total}" if medic else f"{roll}"
    if verdict == "DOW":
        m.kind = "KIA"
        res.add("F 17.0", f"{m.player} WIA {mid} dies of wounds and becomes a KIA", arithmetic=f"{arith} >= 9",
                result="DOW", marker=mid, roll=roll)
        state.award(m.player, "dow", res, "F 17.0")
    elif verdict == "RTD":
        res.add("F 17.0", f"{m.player} WIA {mid} returns to duty and is removed", arithmetic=f"{arith} <= 2",
                result="RTD", marker=mid, roll=roll)
        detach(state, m)
        del state.casualties[mid]
        state.award(m.player, "rtd", res, "F 17.0")
    else:
        res.add("F 17.0", f"{m.player} WIA {mid} remains", arithmetic=f"{arith}: 3-8", result="remains",
                marker=mid, roll=roll)
    return verdict


@implements("F 17.0")
def check_casualties(state: FteState, dice, res: Resolution, players: tuple[str, ...] = ("US", "NVA/VC")) -> dict:
    """The Check Casualties phase (F 3.0 step d, F 17.0): each player rolls for each of his WIA markers,
    the US first, markers in id order. Returns marker id -> verdict."""
    out = {}
    for p in players:
        for mid in sorted(k for k, c in state.casualties.items() if c.kind == "WIA" and c.player == p):
            out[mid] = check_wia(state, mid, dice, res)
    res.result = out
    return out


__all__ = ["CASUALTY_KINDS", "unit_hex", "marker_hex", "carried", "load_count", "place_marker", "carry_new",
           "pick_up", "transfer", "attach", "detach", "drop", "drop_injury", "evacuate_marker", "leave_map", "check_hex", "check_all",
           "casualty_result", "medic_with", "check_wia", "check_casualties", "player"]
