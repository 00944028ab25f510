"""Rule 18: DNA river flotillas, their movement on water, their ZOC, their combat and what they carry.

A DNA counter is an ordinary group-size FEF land unit (18.0) with these differences:

* it moves only through water hexes: a hex with a river or a coast, or an all-lake hex, at one movement
  point each whatever the terrain (18.1); the monsoon's +1 still applies, since it is weather, not terrain;
* its zone of control also reaches across lake and coastal hexsides (18.2);
* it may attack land hexes next to it, but advances and retreats only along water hexes; a retreat that
  would leave the water eliminates it (18.3);
* it may carry one regiment or group (never a division) that starts in its hex, and must set it down at the
  end of the movement phase (18.4, 18.41, 18.42); the passenger shares its fate in overruns and ambushes
  (18.43), moves no other way that turn, and the DNA stops once it has set a unit down (18.44); a carried
  base still supplies (18.45).

Readings (flagged in the chapter): all-sea hexes are not DNA hexes (the rule names river, lake and coastal
hexes; landing from the open sea is the experimental Naval Operations rule); a "lake hexside" touches an
all-lake hex and a "coastal hexside" joins two coastal or sea hexes; 18.43's disruption clause names the
carried unit twice, and is read as: when the DNA (the carrier) is disrupted, its passenger is disrupted too.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Sequence

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .borders import border_problem
from .combat import Side
from .disruption import disrupt
from .state import IndochinaState
from .units import UnitState
from .zoc import zoc_hexes

DNA_COST = 1                          # 18.1
INFILTRATION = 2                      # 11.42
CARRYABLE_SIZES = ("group", "regiment", "battalion", "cadre")   # 18.42: one regiment/group, no division
OVERRUN_MODES = ("overrun", "ambush")


# ------------------------------------------------------------------------------------------------ 18.0
@implements("IC 18.0")
def is_dna(u: UnitState) -> bool:
    """A DNA is a land unit of type ``"DNA"``; it stacks and fights as a group (18.0)."""
    return u.counter.type == "DNA"


def _need_dna(st: IndochinaState, uid: str, rule: str) -> UnitState:
    u = st.unit(uid)
    if not is_dna(u):
        raise RuleViolation(rule, f"{uid} is a {u.counter.type} unit, not a DNA")
    if u.counter.size != "group":
        raise RuleViolation("IC 18.0", f"{uid}: a DNA counts as a group-size unit, not a {u.counter.size}")
    if u.side is not Side.FEF:
        raise RuleViolation("IC 18.4", f"{uid}: only the FEF has DNA flotillas")
    return u


@implements("IC 18.1")
def is_water_hex(st: IndochinaState, h: Hex) -> bool:
    """River, lake or coastal hex: a ``river`` or ``coast`` feature, or all-lake terrain (18.1)."""
    return h in st.map and (st.has(h, "river") or st.has(h, "coast") or st.terrain(h) == "all_lake")


def _coastal(st: IndochinaState, h: Hex) -> bool:
    return h in st.map and (st.has(h, "coast") or st.terrain(h) == "all_sea")


# ------------------------------------------------------------------------------------------------ 18.2
@implements("IC 18.2")
def dna_zoc_hexes(st: IndochinaState, u: UnitState) -> set[Hex]:
    """A DNA's ZOC: the normal one (rule 11), plus every hex across a lake or coastal hexside (18.2).

    A lake hexside touches an all-lake hex; a coastal hexside joins two hexes that are coastal or all sea.
    Other units keep their normal ZOC.
    """
    out = zoc_hexes(st, u)
    if not is_dna(u) or not u.on_map or u.parenthesized:
        return out
    for n in st.map.neighbors(u.hex):
        lake = st.terrain(n) == "all_lake" or st.terrain(u.hex) == "all_lake"
        coast = _coastal(st, u.hex) and _coastal(st, n)
        if lake or coast:
            out.add(n)
    return out


def enemy_zoc_with_dna(st: IndochinaState, side: Side) -> set[Hex]:
    """Every hex in the ZOC of an enemy unit, DNA reaching across water (18.2)."""
    out: set[Hex] = set()
    for u in st.on_map(side.enemy):
        out |= dna_zoc_hexes(st, u)
    return out


# ---------------------------------------------------------------------------------------- 18.4 bookkeeping
@implements("IC 18.4", "IC 18.41", "IC 18.44")
@dataclass
class RiverineTurn:
    """One FEF movement phase of DNA amphibious movement (18.4).

    ``carried`` maps a DNA to the unit it carries; ``moved`` holds units that moved some other way this turn;
    ``carried_this_turn`` units may move no other way (18.44); ``dropped`` DNAs may not move on (18.44).
    """

    carried: dict[str, str] = field(default_factory=dict)
    moved: set[str] = field(default_factory=set)
    carried_this_turn: set[str] = field(default_factory=set)
    dropped: set[str] = field(default_factory=set)

    def passenger(self, dna: str) -> str | None:
        return self.carried.get(dna)

    def note_moved(self, uid: str) -> None:
        """Record a unit's ordinary move; a unit already carried by DNA this turn may not make one (18.44)."""
        if uid in self.carried_this_turn:
            raise RuleViolation("IC 18.44", f"{uid} was carried by DNA this turn and may make no other move")
        self.moved.add(uid)


@implements("IC 18.41", "IC 18.42", "IC 18.44")
def embark(st: IndochinaState, turn: RiverineTurn, dna: str, uid: str) -> Resolution:
    """Put ``uid`` aboard ``dna``: same hex, friendly, one regiment/group or smaller, not yet moved; no MP cost."""
    d = _need_dna(st, dna, "IC 18.41")
    u = st.unit(uid)
    res = Resolution()
    if dna in turn.dropped:
        raise RuleViolation("IC 18.44", f"{dna} has already set a unit down this turn")
    if turn.passenger(dna):
        raise RuleViolation("IC 18.42", f"{dna} already carries {turn.passenger(dna)}; a DNA carries one unit")
    if uid in turn.carried.values():
        raise RuleViolation("IC 18.42", f"{uid} is already aboard a DNA")
    if u.side is not d.side or is_dna(u):
        raise RuleViolation("IC 18.41", f"{dna} carries friendly land units, not {uid}")
    if not u.on_map or u.hex != d.hex:
        raise RuleViolation("IC 18.41", f"{uid} must start in the DNA's hex ({st.label(d.hex)})")
    if u.counter.size not in CARRYABLE_SIZES:
        raise RuleViolation("IC 18.42", f"{uid} is a {u.counter.size}; a DNA carries one regiment or group, "
                            "never a division")
    if uid in turn.moved or uid in turn.carried_this_turn:
        raise RuleViolation("IC 18.44", f"{uid} has already moved this turn")
    turn.carried[dna] = uid
    turn.carried_this_turn.add(uid)
    res.add("IC 18.41", f"{uid} boards {dna} at {st.label(d.hex)}", result=uid)
    res.add("IC 18.42", f"{dna} carries one {u.counter.size}; boarding costs no movement points")
    res.result = {"dna": dna, "carried": uid}
    return res


def _prohibited(st: IndochinaState, u: UnitState, h: Hex) -> bool:
    tec = st.tec()
    row = tec.get(st.terrain(h))
    if row is None:           # terrain the chart does not list (all lake): no unit may stop there (9.5)
        return True
    return (row.heavy if u.counter.unit_class == "Heavy" else row.light) is None


def landing_problem(st: IndochinaState, uid: str, h: Hex) -> str | None:
    """Why ``uid`` could not be set down in ``h`` (terrain it may not enter, 9.5), or None."""
    if _prohibited(st, st.unit(uid), h):
        return f"{uid} may not be set down in {st.terrain(h).replace('_', ' ')} ({st.label(h)})"
    return None


@implements("IC 18.41", "IC 18.42", "IC 18.44")
def disembark(st: IndochinaState, turn: RiverineTurn, dna: str) -> Resolution:
    """Set the passenger down in the DNA's hex at no cost; the DNA moves no further this turn (18.44)."""
    d = _need_dna(st, dna, "IC 18.41")
    uid = turn.passenger(dna)
    if uid is None:
        raise RuleViolation("IC 18.41", f"{dna} carries nothing to set down")
    problem = landing_problem(st, uid, d.hex)
    if problem:
        raise RuleViolation("IC 9.5", problem)
    del turn.carried[dna]
    turn.dropped.add(dna)
    res = Resolution()
    res.add("IC 18.41", f"{dna} sets {uid} down at {st.label(d.hex)}", result=uid)
    res.add("IC 18.44", f"{dna} may not move again this turn; {uid} makes no other move this turn")
    res.result = {"dna": dna, "landed": uid, "hex": st.label(d.hex)}
    return res


@implements("IC 18.42")
def end_of_movement(st: IndochinaState, turn: RiverineTurn) -> Resolution:
    """Every passenger is set down at the end of the movement phase (18.41(3), 18.42)."""
    res = Resolution()
    for dna in sorted(turn.carried):
        res.extend(disembark(st, turn, dna))
    return res


# ------------------------------------------------------------------------------------------------ 18.1
@implements("IC 18.1", "IC 18.2", "IC 18.41", "IC 18.44")
def dna_move(st: IndochinaState, dna: str, path: Sequence[str], turn: RiverineTurn | None = None,
             already_spent: Fraction | int = 0) -> Resolution:
    """Move a DNA (and what it carries) along ``path``: water hexes only, one MP each (18.1).

    Enemy ZOCs act on it normally (18.2): going straight from one enemy ZOC to another costs two more
    (11.42), and a unit may always move one hex (9.3). Monsoon adds one per hex (26.3). ``already_spent``
    (more than 0) goes on with a move begun earlier in the phase, stopped for an ambush answer (28.1).
    """
    turn = turn if turn is not None else RiverineTurn()
    d = _need_dna(st, dna, "IC 18.1")
    if not d.on_map:
        raise RuleViolation("IC 18.1", f"{dna} is not on the map")
    if dna in turn.dropped:
        raise RuleViolation("IC 18.44", f"{dna} set a unit down this turn and may not move on")
    going_on = Fraction(already_spent) > 0
    if dna in turn.moved and not going_on:
        raise RuleViolation("IC 18.1", f"{dna} has already moved this turn")
    if not path:
        raise RuleViolation("IC 18.1", "a move needs at least one hex")
    res = Resolution()
    allowance = Fraction(d.movement)
    zoc = enemy_zoc_with_dna(st, d.side)
    spent, cur = Fraction(already_spent), d.hex
    for i, label in enumerate(path):
        nxt = st.map.hex(label)
        if not cur.is_adjacent(nxt):
            raise RuleViolation("IC 18.1", f"{label} is not adjacent to {st.label(cur)}")
        if not is_water_hex(st, nxt):
            raise RuleViolation("IC 18.1", f"{dna} moves only through river, lake and coastal hexes; {label} is "
                                f"{st.terrain(nxt).replace('_', ' ')} with no river or coast")
        if st.units_at(nxt, d.side.enemy):
            raise RuleViolation("IC 9.5", f"{label} holds enemy units")
        crossing = border_problem(st, d, cur, nxt)
        if crossing:
            raise RuleViolation("IC 22.1", f"{dna} may not enter {label}: {crossing}")
        cost, how = Fraction(DNA_COST), "water hex, terrain ignored (18.1)"
        if st.monsoon:
            cost += 1
            how += "; monsoon +1 (26.3)"
        if cur in zoc and nxt in zoc:
            cost += INFILTRATION
            how += f"; enemy ZOC to enemy ZOC +{INFILTRATION} (18.2, 11.42)"
        if spent + cost > allowance:
            if i != 0 or going_on or (cur in zoc and nxt in zoc):
                raise RuleViolation("IC 18.1", f"{dna} has {allowance - spent} MP left and {label} costs {cost}")
            res.add("IC 9.3", f"{label} costs {cost}, more than {allowance}, but a unit may always move one hex")
        spent += cost
        res.add("IC 18.1", f"{dna} enters {label}: {cost} MP ({how}), {spent} of {allowance} used",
                result=cost, hex=label)
        cur = nxt
    d.hex = cur
    turn.moved.add(dna)
    rider = turn.passenger(dna)
    if rider:
        st.unit(rider).hex = cur
        res.add("IC 18.41", f"{rider} travels aboard {dna} to {st.label(cur)}", result=rider)
    res.result = {"unit": dna, "hex": st.label(cur), "spent": spent, "allowance": allowance, "carried": rider}
    return res


# ------------------------------------------------------------------------------------------------ 18.3
@implements("IC 18.3")
def check_dna_attack(st: IndochinaState, dna: str, target: str) -> Resolution:
    """A DNA attacks normally, including enemy units on adjacent land hexes with no river or coast (18.3)."""
    d = _need_dna(st, dna, "IC 18.3")
    h = st.map.hex(target)
    if not d.hex.is_adjacent(h):
        raise RuleViolation("IC 18.3", f"{dna} at {st.label(d.hex)} is not next to {target}")
    if not st.units_at(h, d.side.enemy):
        raise RuleViolation("IC 18.3", f"{target} holds no enemy unit to attack")
    res = Resolution()
    kind = "a water hex" if is_water_hex(st, h) else "a land hex with no river or coast"
    res.add("IC 18.3", f"{dna} may attack {target} ({kind}) from {st.label(d.hex)}", result=True)
    res.result = True
    return res


@implements("IC 18.3")
def water_hexes(st: IndochinaState, labels: Sequence[str]) -> list[str]:
    """The hexes of ``labels`` a DNA may retreat or advance into after combat: river, lake or coast (18.3)."""
    return [x for x in labels if isinstance(x, str) and is_water_hex(st, st.map.hex(x))]


@implements("IC 18.3", "IC 18.43")
def dna_advance(st: IndochinaState, dna: str, to: str, turn: RiverineTurn | None = None) -> Resolution:
    """Advance after combat: only into an adjacent water hex (18.3); a passenger advances with it (18.43)."""
    d = _need_dna(st, dna, "IC 18.3")
    h = st.map.hex(to)
    if not d.hex.is_adjacent(h):
        raise RuleViolation("IC 18.3", f"{to} is not next to {st.label(d.hex)}")
    if not is_water_hex(st, h):
        raise RuleViolation("IC 18.3", f"{dna} advances only into river, lake or coastal hexes, not {to}")
    d.hex = h
    res = Resolution()
    res.add("IC 18.3", f"{dna} advances into {to}", result=to)
    rider = turn.passenger(dna) if turn else None
    if rider:
        st.unit(rider).hex = h
        res.add("IC 18.43", f"{rider} advances aboard {dna}", result=rider)
    res.result = {"unit": dna, "hex": to}
    return res


@implements("IC 18.3", "IC 18.43")
def dna_retreat(st: IndochinaState, dna: str, path: Sequence[str], turn: RiverineTurn | None = None) -> Resolution:
    """Retreat along contiguous water hexes (18.3); a retreat onto any other hex eliminates the DNA instead,
    and with it its passenger (18.43). A passenger retreats with the DNA."""
    d = _need_dna(st, dna, "IC 18.3")
    res = Resolution()
    cur = d.hex
    for label in path:
        h = st.map.hex(label)
        if not cur.is_adjacent(h):
            raise RuleViolation("IC 18.3", f"{label} is not next to {st.label(cur)}")
        if not is_water_hex(st, h):
            res.add("IC 18.3", f"{dna} would have to retreat onto {label}, which has no river or coast: "
                    "it is eliminated instead", result="eliminated")
            res.extend(passenger_shares_fate(st, turn, dna, "eliminated"))
            d.eliminated, d.hex = True, None
            res.result = {"unit": dna, "eliminated": True}
            return res
        cur = h
    d.hex = cur
    res.add("IC 18.3", f"{dna} retreats along the water to {st.label(cur)}", result=st.label(cur))
    if turn and turn.passenger(dna):
        st.unit(turn.passenger(dna)).hex = cur
        res.add("IC 18.43", f"{turn.passenger(dna)} retreats aboard {dna}")
    res.result = {"unit": dna, "hex": st.label(cur), "eliminated": False}
    return res


# ------------------------------------------------------------------------------------------------ 18.43
@implements("IC 18.43")
def dna_combat_strengths(st: IndochinaState, turn: RiverineTurn, dna: str, mode: str) -> tuple[int, ...]:
    """The strengths a DNA brings: in an overrun or ambush its passenger's strength does not count (18.43)."""
    d = _need_dna(st, dna, "IC 18.43")
    rider = turn.passenger(dna)
    if rider and mode not in OVERRUN_MODES:
        return (d.strength, st.unit(rider).strength)
    return (d.strength,)


@implements("IC 18.43")
def passenger_shares_fate(st: IndochinaState, turn: RiverineTurn | None, dna: str, outcome: str) -> Resolution:
    """Apply a combat outcome of the DNA to its passenger: disrupted (with the usual effect of a second
    disruption, 14.4), eliminated (retreats and advances are carried out by :func:`dna_retreat` and
    :func:`dna_advance`)."""
    res = Resolution()
    if outcome not in ("disrupted", "eliminated", "retreat", "advance"):
        raise RuleViolation("IC 18.43", f"unknown outcome {outcome!r}")
    rider = turn.passenger(dna) if turn else None
    if not rider:
        return res
    u = st.unit(rider)
    if outcome == "disrupted":
        res.add("IC 18.43", f"{dna} is disrupted, so is {rider} aboard it", result="disrupted")
        if disrupt(u, "combat", res) == "eliminated":       # a second disruption eliminates it (14.4)
            u.hex = None
            del turn.carried[dna]
    elif outcome == "eliminated":
        u.eliminated, u.hex = True, None
        del turn.carried[dna]
        res.add("IC 18.43", f"{dna} is eliminated, and {rider} aboard it with it", result="eliminated")
    else:
        res.add("IC 18.43", f"{rider} goes with {dna} ({outcome})", result=outcome)
    return res


# ------------------------------------------------------------------------------------------------ 18.45
@implements("IC 18.45")
def riverine_supply(st: IndochinaState, turn: RiverineTurn, base: str, target: str,
                    year: int | None = None) -> Resolution:
    """A base aboard a DNA still supplies, if the usual line of supply exists from where it is (18.45)."""
    from .logistics import trace_los   # the logistics module is heavier; import on use

    u = st.unit(base)
    if u.counter.type != "base":
        raise RuleViolation("IC 18.45", f"{base} is not a base")
    aboard = [d for d, p in turn.carried.items() if p == base]
    res = Resolution()
    if aboard:
        res.add("IC 18.45", f"{base} is aboard {aboard[0]} at {st.label(u.hex)} and may still supply")
    los = trace_los(st, u.side, target, year, bases=[base])
    res.extend(los)
    res.result = los.result
    return res
