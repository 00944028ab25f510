"""Section I, supply (Rules 20-24): general supply, ammunition, provision of supply and ammunition dumps.

The stocks of both sides are a layer of the state (:class:`Supply`, ``state.supply``); a scenario without a
``supply:`` section is played without Section I (``state.supply`` is None), and then none of these rules applies.

- C 20, C 21: in the weather phase each side spends its daily general supply points (GSP). A side that cannot
  spend the whole requirement spends what it has, goes without its light mortars for the day and loses strength
  to desertion; the owner picks the units, one prompt at a time (:class:`GeneralSupplyPlay`).
- C 22: the guns and heavy mortars that need ammunition use one point per strength point fired, and a unit may
  fire fewer strength points than it has (:func:`firing_strengths`, called by the fire procedure).
- C 23: the Vietminh receive a fixed allowance a day, less what strategic bombing destroys
  (:func:`reduce_receipts`), added at the end of the strategic bombing phase; French cargo delivered by the
  transport mission (:func:`deliver`) is added at the end of the supply and transport phase; cargo the French
  drop to the enemy is added to the Vietminh stocks at once (:func:`misdrop_to_vietminh`).
- C 24: an indirect fire phase that costs a French 105mm battery strength may also blow up an ammunition dump.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..core import Resolution, implements
from ..core.dice import roll_die
from ..core.errors import RuleViolation
from ..core.schema import Int, Map, Opt, Record, Str
from ..core.copies import record_deepcopy
from .play import PhasePlay
from .units import Side, UnitClass, UnitState

# --------------------------------------------------------------------------- kinds of supply

GSP = "GSP"
#: Every kind of supply point, with the words the resolutions use for it.
KINDS = {GSP: "general supply points", "105": "105mm ammunition", "155": "155mm ammunition",
         "120": "120mm mortar ammunition", "75H": "75mm howitzer ammunition",
         "75RR": "75mm recoilless rifle ammunition"}
#: The kinds each side keeps (C 22, C 23).
SIDE_KINDS = {Side.FRENCH: (GSP, "105", "155", "120"), Side.VIETMINH: (GSP, "105", "120", "75H", "75RR")}

#: C 20: the general supply points each side uses a day.
DAILY_GSP = {Side.FRENCH: 20, Side.VIETMINH: 25}
#: C 23.B: the most ammunition the Vietminh receive a day.
VM_AMMUNITION_RECEIPTS = {"105": 10, "120": 5, "75H": 5, "75RR": 4}
#: C 23.B: the most general supply the Vietminh receive a day, by month (March-April 25, May 27).
VM_GSP_RECEIPTS = {3: 25, 4: 25, 5: 27}
#: C 23.B: of what the French drop by mistake, only these kinds are any use to the Vietminh.
MISDROP_KINDS = (GSP, "105", "120")
#: The Air Chart's names for the kinds of supply (transport weight table, supply bombing table; C 26).
AIR_CARGO = {"gsp": GSP, "ammo_105": "105", "ammo_155": "155", "ammo_120": "120", "ammo_75_howitzer": "75H",
             "ammo_75_recoilless": "75RR"}


@dataclass
class Supply:
    """Both sides' stocks and the day's bookkeeping of Section I."""

    stocks: dict[Side, dict[str, int]]
    bombed: dict[str, int] = field(default_factory=dict)        # Vietminh receipts destroyed today (C 26.D)
    arriving: dict[str, int] = field(default_factory=dict)      # French cargo landed this supply phase (C 23.A)
    short: dict[Side, dt.date] = field(default_factory=dict)    # the day each side last went short of GSP (C 21)
    desertion: dict[Side, int] = field(default_factory=dict)    # supply desertion still to be chosen (C 21)
    deserted: dict[Side, list[str]] = field(default_factory=dict)   # units that already lost a point to it today
    dump_roll_at: int | None = None     # fire_phase_start of the indirect fire phase that rolled for dumps (C 24)
    airlift: bool = False               # the advanced air rules fly replacements and reinforcements in (C 15.B, C 16)

    __deepcopy__ = record_deepcopy

    def stock(self, side: Side, kind: str) -> int:
        return self.stocks[side].get(kind, 0)

    def to_dict(self) -> dict:
        return {"stocks": {s.value: dict(v) for s, v in self.stocks.items()}, "bombed": dict(self.bombed),
                "arriving": dict(self.arriving), "short": {s.value: d.isoformat() for s, d in self.short.items()},
                "desertion": {s.value: n for s, n in self.desertion.items()},
                "airlift": self.airlift}


def _stocks_of(side: Side):
    return Map(Str(SIDE_KINDS[side], what=f"a {side.value} supply kind ({', '.join(SIDE_KINDS[side])})"),
               Int(0, 100_000))


#: The ``supply:`` section of a scenario file: each side's stocks at the start (SR 1.B.1, SR 1.B.3).
SUPPLY_SECTION = Record({"French": _stocks_of(Side.FRENCH), "Vietminh": _stocks_of(Side.VIETMINH)},
                        {"airlift": Opt(Str(("yes", "no")), "no")},
                        what="a supply section {French: {GSP: .., '105': ..}, Vietminh: {..}}")


def supply_from_section(section: Mapping | None) -> Supply | None:
    """The stocks a scenario's ``supply:`` section gives (None: the scenario is played without Section I)."""
    if section is None:
        return None
    stocks = {side: {k: int(section[side.value].get(k, 0)) for k in SIDE_KINDS[side]} for side in Side}
    return Supply(stocks, airlift=section.get("airlift") == "yes")


def in_force(state) -> bool:
    return getattr(state, "supply", None) is not None


# --------------------------------------------------------------------------- C 20, C 21: general supply

@implements("C 20", "C 21")
def spend_general_supply(state, side: Side, res: Resolution) -> bool:
    """Spend a side's daily GSP, or all it has left if that is less; True if it went short (C 20, C 21).

    Spending is not optional: a side with points must spend them (C 21, last paragraph).
    """
    sup = state.supply
    need, have = DAILY_GSP[side], sup.stock(side, GSP)
    spent = min(need, have)
    sup.stocks[side][GSP] = have - spent
    if spent == need:
        res.add("C 20", f"the {side.value} player spends {spent} GSP for the day ({have} - {spent} = {have - spent} "
                        f"left)", arithmetic=f"{have} - {spent} = {have - spent}", side=side.value)
        return False
    sup.short[side] = state.date
    res.add("C 21", f"the {side.value} player needs {need} GSP but has {have}: spends {spent} and is out of general "
                    f"supply today", arithmetic=f"{have} < {need}", side=side.value)
    return True


def out_of_general_supply(state, side: Side) -> bool:
    """Whether ``side`` went short of GSP at the start of today (C 21)."""
    return in_force(state) and state.supply.short.get(side) == state.date


@implements("C 21")
def silenced_mortar(state, u: UnitState) -> bool:
    """French 81mm and Vietminh 82mm mortars may not fire on a day their side is out of general supply (C 21)."""
    light = "81" if u.side is Side.FRENCH else "82"
    return (u.counter.cls is UnitClass.HEAVY_WEAPONS and u.counter.ordnance == light
            and u.counter.type in ("infantry weapons", "airborne infantry weapons")
            and out_of_general_supply(state, u.side))


def desertion_candidates(state, side: Side) -> list[str]:
    """The combat infantry units that may still lose a point to supply desertion today: at most one point
    from each French company and from each Vietminh battalion (C 21)."""
    done = set(state.supply.deserted.get(side, ()))
    return sorted(u.id for u in state.on_board(side) if u.counter.cls is UnitClass.INFANTRY and u.id not in done)


@implements("C 21")
def roll_desertion(state, side: Side, dice, res: Resolution) -> int:
    """Roll how many strength points desert: one die for the French, twice one die for the Vietminh (C 21)."""
    roll = roll_die(dice, 6, f"{side.value} supply desertion")
    n = roll if side is Side.FRENCH else 2 * roll
    res.add("C 21", f"{side.value} desertion for want of supply: roll {roll}"
            + ("" if side is Side.FRENCH else f" x 2 = {n}") + f" strength points", roll=roll, result=n,
            side=side.value)
    return n


# --------------------------------------------------------------------------- C 22: ammunition

@implements("C 22")
def ammunition_kind(u: UnitState) -> str | None:
    """The ammunition a unit fires, or None if it needs none (C 22)."""
    c = u.counter
    if c.cls is not UnitClass.HEAVY_WEAPONS:
        return None
    if c.side is Side.FRENCH:
        if c.type == "howitzer" and c.ordnance in ("105", "155"):
            return c.ordnance
        if c.type in ("infantry weapons", "airborne infantry weapons") and c.ordnance == "120":
            return "120"
        return None
    if c.type == "howitzer" and c.ordnance in ("75", "105"):
        return "75H" if c.ordnance == "75" else "105"
    if c.type == "infantry weapons" and c.ordnance in ("120", "75"):
        return "120" if c.ordnance == "120" else "75RR"
    return None


@implements("C 22")
def firing_strengths(state, firer_ids: Sequence[str], asked: Mapping[str, int] | None = None,
                     full: Mapping[str, int] | None = None) -> dict[str, int]:
    """The strength points each firer fires (C 22): what the player asks for, between 1 and the unit's
    strength; without a request, everything the unit can fire.

    A unit whose fire costs ammunition fires no more than the points left (firers of one kind share the stock
    in the order they are named). Raises RuleViolation when a request is out of bounds or the stock is short.
    ``full`` gives each unit's strength (default: its current strength).
    """
    asked = dict(asked or {})
    for uid in asked:
        if uid not in firer_ids:
            raise RuleViolation("C 22", f"{uid} is not one of the firing units")
    left = {}
    if in_force(state):
        left = {(s, k): state.supply.stock(s, k) for s in Side for k in SIDE_KINDS[s] if k != GSP}
    out = {}
    for uid in firer_ids:
        u = state.unit(uid)
        strength = full[uid] if full and uid in full else u.strength
        want = asked.get(uid)
        if want is not None and not 1 <= want <= strength:
            raise RuleViolation("C 22", f"{uid} may fire from 1 to its {strength} strength points, not {want}")
        kind = ammunition_kind(u) if in_force(state) else None
        if kind is None:
            out[uid] = strength if want is None else want
            continue
        have = left[(u.side, kind)]
        if want is None:
            want = min(strength, have)
            if want < 1:
                raise RuleViolation("C 22", f"{uid} has no {KINDS[kind]} left to fire")
        elif want > have:
            raise RuleViolation("C 22", f"{uid} would fire {want} strength points but only {have} point(s) of "
                                        f"{KINDS[kind]} are left")
        left[(u.side, kind)] = have - want
        out[uid] = want
    return out


def strengths_asked(pairs) -> dict[str, int]:
    """The ``strengths`` of a Fire action, (unit, strength points) pairs, as a mapping; RuleViolation if malformed."""
    out: dict[str, int] = {}
    for p in pairs:
        if not (isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) and type(p[1]) is int):
            raise RuleViolation("C 22", f"strengths lists [unit, strength points] pairs, not {p!r}")
        if p[0] in out:
            raise RuleViolation("C 22", f"{p[0]} is given a strength twice")
        out[p[0]] = p[1]
    return out


@implements("C 22")
def consume_ammunition(state, fired: Mapping[str, int], res: Resolution) -> None:
    """Take one point of the right ammunition for every strength point fired (C 22)."""
    if not in_force(state):
        return
    for uid, points in fired.items():
        u = state.unit(uid)
        kind = ammunition_kind(u)
        if kind is None:
            continue
        stocks = state.supply.stocks[u.side]
        before = stocks.get(kind, 0)
        stocks[kind] = before - points
        res.add("C 22", f"{uid} fires {points} SP: {points} point(s) of {KINDS[kind]} used ({before} - {points} = "
                        f"{before - points} left)", arithmetic=f"{before} - {points} = {before - points}",
                unit=uid, result=points)


# --------------------------------------------------------------------------- C 23: provision of supply

@implements("C 23")
def vm_allowance(date: dt.date) -> dict[str, int]:
    """The most the Vietminh can receive on ``date`` (C 23.B)."""
    return {GSP: VM_GSP_RECEIPTS.get(date.month, VM_GSP_RECEIPTS[3]), **VM_AMMUNITION_RECEIPTS}


@implements("C 23")
def reduce_receipts(state, kind: str, points: int, res: Resolution | None = None) -> int:
    """Strategic bombing destroys ``points`` of today's Vietminh receipts of ``kind``; returns how many it really
    destroyed (what exceeds today's allowance has no effect, C 26.D)."""
    if kind not in SIDE_KINDS[Side.VIETMINH]:
        raise RuleViolation("C 23", f"the Vietminh receive no {kind!r} supply")
    if points < 0:
        raise RuleViolation("C 26.D", "bombing destroys a number of points, not a negative one")
    sup = state.supply
    cap = vm_allowance(state.date)[kind]
    done = sup.bombed.get(kind, 0)
    real = max(0, min(points, cap - done))
    sup.bombed[kind] = done + real
    if res is not None:
        res.add("C 23", f"bombing destroys {real} of today's {cap} {KINDS[kind]} for the Vietminh"
                + (f" (the other {points - real} exceed what they receive: no effect)" if real < points else ""),
                result=real)
    return real


@implements("C 23")
def misdrop_to_vietminh(state, kind: str, points: int, res: Resolution | None = None) -> int:
    """Cargo the French dropped into Vietminh hands: GSP, 105mm and 120mm points join the Vietminh stocks at once;
    other kinds are of no use to them (C 23.B). Returns the points added."""
    if points < 0:
        raise RuleViolation("C 23", "a drop is a number of points, not a negative one")
    if kind not in MISDROP_KINDS:
        if res is not None:
            res.add("C 23", f"{points} point(s) of {KINDS.get(kind, kind)} fall to the Vietminh, who cannot use them")
        return 0
    stocks = state.supply.stocks[Side.VIETMINH]
    stocks[kind] = stocks.get(kind, 0) + points
    if res is not None:
        res.add("C 23", f"{points} point(s) of {KINDS[kind]} dropped by mistake join the Vietminh stocks "
                        f"(now {stocks[kind]})", result=points)
    return points


@implements("C 23")
def deliver(state, kind: str, points: int, res: Resolution | None = None) -> None:
    """French cargo recovered from a transport mission; it joins the French stocks at the end of the supply and
    transport phase (C 23.A)."""
    if kind not in SIDE_KINDS[Side.FRENCH]:
        raise RuleViolation("C 23", f"the French keep no {kind!r} supply")
    if points < 0:
        raise RuleViolation("C 23", "a delivery is a number of points, not a negative one")
    sup = state.supply
    sup.arriving[kind] = sup.arriving.get(kind, 0) + points
    if res is not None:
        res.add("C 23", f"{points} point(s) of {KINDS[kind]} recovered by the French; they join the stocks at the "
                        f"end of the phase", result=points)


@implements("C 23")
def air_drop_recovered(state, who: str, cargo: str, points: int, res: Resolution) -> None:
    """A transport's supply drop (C 26.E) recovered by ``who``: the French stocks get it at the end of the phase
    (C 23.A), the Vietminh at once if it is of use to them (C 23.B); nobody's drop is lost."""
    if not in_force(state) or cargo not in AIR_CARGO:
        return
    if who == "French":
        deliver(state, AIR_CARGO[cargo], points, res)
    elif who == "Vietminh":
        misdrop_to_vietminh(state, AIR_CARGO[cargo], points, res)


class FrenchDeliveryPlay(PhasePlay):
    """End of the supply and transport phase: the cargo recovered joins the French stocks (C 23.A)."""

    @implements("C 23")
    def play_open(self, res: Resolution) -> bool:
        st = self.state
        if in_force(st):
            stocks = st.supply.stocks[Side.FRENCH]
            for kind, n in sorted(st.supply.arriving.items()):
                stocks[kind] = stocks.get(kind, 0) + n
            if st.supply.arriving:
                res.add("C 23", "French deliveries join the stocks: " + ", ".join(
                    f"{n} {KINDS[k]}" for k, n in sorted(st.supply.arriving.items())))
            st.supply.arriving = {}
        return False


class VietminhReceiptsPlay(PhasePlay):
    """End of the strategic bombing phase: the day's Vietminh receipts, less bombing, join their stocks (C 23.B)."""

    @implements("C 23")
    def play_open(self, res: Resolution) -> bool:
        st = self.state
        if not in_force(st):
            return False
        stocks = st.supply.stocks[Side.VIETMINH]
        parts = []
        for kind, cap in vm_allowance(st.date).items():
            got = cap - st.supply.bombed.get(kind, 0)
            stocks[kind] = stocks.get(kind, 0) + got
            parts.append(f"{got} {KINDS[kind]}" + (f" ({cap} - {cap - got} bombed)" if got < cap else ""))
        st.supply.bombed = {}
        res.add("C 23", "the Vietminh receive " + ", ".join(parts))
        return False


# --------------------------------------------------------------------------- C 24: ammunition dumps

@implements("C 24")
def dump_check(state, u: UnitState, dice, res: Resolution) -> None:
    """Called after every loss: the first French 105mm strength point lost in an indirect fire phase calls for
    the ammunition dump roll (1-4 nothing, 5 the 120mm dump, 6 the 105mm dump; a second die gives the points
    lost). Reading: the one roll a phase is made when the first such point is lost (fire in a phase is
    simultaneous, so nothing depends on the moment)."""
    if not in_force(state) or u.side is not Side.FRENCH:
        return
    c = u.counter
    if not (c.cls is UnitClass.HEAVY_WEAPONS and c.type == "howitzer" and c.ordnance == "105"):
        return
    if " turn: " not in state.phase:          # the steps of an indirect fire phase (sequence.py ids)
        return
    sup = state.supply
    if sup.dump_roll_at == state.fire_phase_start:
        return
    sup.dump_roll_at = state.fire_phase_start
    roll = roll_die(dice, 6, "ammunition dump")
    if roll <= 4:
        res.add("C 24", f"a French 105mm strength point is lost: dump roll {roll}, no dump is hit", roll=roll)
        return
    kind = "120" if roll == 5 else "105"
    lost = roll_die(dice, 6, "ammunition lost in the dump")
    stocks = sup.stocks[Side.FRENCH]
    before = stocks.get(kind, 0)
    stocks[kind] = max(0, before - lost)
    res.add("C 24", f"a French 105mm strength point is lost: dump roll {roll}, the {kind}mm dump is hit; roll {lost}: "
                    f"{before - stocks[kind]} point(s) of {KINDS[kind]} lost ({stocks[kind]} left)"
            + ("" if before >= lost else " (no more was there)"), roll=roll, result=before - stocks[kind])
