"""Rules 12 and 19 in play: the two FEF Air Phases as actions, prompts and a part of the position.

:class:`AirPlay` is a mixin of :class:`~wargames.indochina.game.Game`. In the FEF Defensive Air Phase (in the
Communist player turn) and the FEF Offensive Air Phase the FEF player, the only side with air units (12.0):

1. in the Offensive phase only, before any mission, buys back groups from the Completed box for one supply
   point each (:class:`IncreaseSorties`, 12.22, 15.33);
2. places every strike he wants (:class:`CommitStrike`, 12.34): airstrike groups, the naval bombardment
   marker (12.6) and B-29s (12.7), each hex at most once a phase (12.37);
3. resolves the placed strikes one at a time in the order he picks (:class:`ResolveStrike`); where the
   Bombardment Table leaves the choice of the unit it hits to the owner, the Communist player answers a
   prompt (:class:`ChooseStrikeLoss`);
4. then flies air transports (:class:`AirTransport`, 12.4, 19), rolling on the AT line when either end is
   next to Communist units (12.52);
   and airborne supply markers from the Air Mission box (:class:`AirDropSupply`, 15.72, 12.46) when the
   position keeps a supply ledger;
5. ends the phase with ``EndPhase`` once no placed strike is left unresolved.

Helpers for the rest of the game: :meth:`AirPlay._air_ground` (the Typhoon event), :meth:`AirPlay._air_receive`
(new air units, 7.43) and :meth:`AirPlay._air_receive_supply_marker` (15.71). With the experimental range
rule switched on (the ``aircraft_range`` reading) every airstrike takes the range modifier, measured from the
nearest combat-effective FEF base unit, or from the sea for the groups ``CommitStrike.carrier`` names (two a
phase). Airstrikes called into overruns (27.5) are in :mod:`experimental_play`.

The air part of the position is ``self.air``: plain JSON-able data (the boxes, counted in groups of each type,
12.1, and the phase in progress), so a save made in the middle of a phase replays to the same point.
"""
from __future__ import annotations

import copy
import math
from dataclasses import dataclass

from ..core.actions import Action
from ..core.dice import ScriptedDice
from ..core.errors import DataError, RuleViolation
from ..core.game import handles
from ..core.log import Resolution
from ..core.rules import implements
from .air import AIR_TYPES, AIRSTRIKE, B29, NAVAL, TRANSPORT
from .airstrikes import (FRENCH_CARRIER_STRIKES, RANGE_RULE, GroundUnit, Strike, StrikeOutcome, TargetHex, airstrike,
                         check_carrier_basing, check_strike, flight_ranges)
from .bombardment import TABLE_RULE
from .borders import border_problem
from .combat import Side
from .sides import side_named
from .disruption import disrupt
from .militia import revert_abandoned_cities
from .scenarios import AIR_ENTRY_TYPES, demo_air_box
from .logistics import land_airborne_supply
from .transport import AirMission, Cargo, Place, TransportOutcome, air_transport, check_air_mission

OFFENSIVE = "FEF Offensive Air"             # the phase with increased sorties (12.22)
NO_FLIGHT_TERRAIN = ("mountain",)           # 12.44
STRIKE_TYPES = (AIRSTRIKE, NAVAL, B29)
PROHIBITED = ("all_sea", "all_lake")          # hexes no land unit may enter (our reading of "prohibited", 12.44)


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class IncreaseSorties(Action):
    """At the start of the FEF Offensive Air Phase, move groups of one type from Completed back to Available,
    one FEF supply point per group (12.22, 15.33)."""

    kind: str
    groups: int = 1


@dataclass(frozen=True)
class CommitStrike(Action):
    """Place strike units on a hex holding Communist units (12.32, 12.34): airstrike groups, naval strikes
    (12.6) and B-29 units (12.7). More units on a hex already placed join the same attack (12.35)."""

    hex: str
    airstrike: int = 0
    naval: int = 0
    b29: int = 0
    carrier: int = 0          # experimental range rule: how many of the airstrike groups fly from a carrier


@dataclass(frozen=True)
class ResolveStrike(Action):
    """Resolve the strike placed on one hex: one roll on the Bombardment Table (12.33, 12.34)."""

    hex: str


@dataclass(frozen=True)
class ChooseStrikeLoss(Action):
    """The owner picks a unit a Bombardment Table result hits, where the result leaves the choice to him."""

    side: str
    unit: str


@dataclass(frozen=True)
class AirTransport(Action):
    """One air transport group flies one FEF land unit from ``origin`` (its hex) to ``destination`` (12.4, 19)."""

    unit: str
    origin: str
    destination: str


@dataclass(frozen=True)
class AirDropSupply(Action):
    """One air transport group flies an airborne supply marker from the Air Mission box to ``destination``
    (15.72, 12.46, 19.2)."""

    destination: str


AIR_ACTIONS = (IncreaseSorties, CommitStrike, ResolveStrike, ChooseStrikeLoss, AirTransport, AirDropSupply)


class NeedPick(Exception):
    """Raised inside a bombardment (in an Air Phase or an overrun) when the owner has yet to choose the unit(s)
    a case hits."""

    def __init__(self, action: str, candidates: list[str], n: int):
        super().__init__(action)
        self.action, self.candidates, self.n = action, candidates, n


class KeptDice:
    """Dice that remember what they rolled (a strike's roll is kept while the owner chooses)."""

    def __init__(self, dice):
        self.dice, self.values = dice, []

    def roll(self, sides: int = 6, why: str = "", classes=None) -> int:
        v = self.dice.roll(sides, why, classes)
        self.values.append(v)
        return v


def _fresh_phase() -> dict:
    return {"stage": "start", "committed": {}, "order": [], "bombarded": [], "resolving": None, "flown": [],
            "sorties": 0, "carrier": {}}


def _count(box: dict, kind: str) -> int:
    return int(box.get(kind, 0))



# --------------------------------------------------------------------------- the mixin

class AirPlay:
    """The Air Phases of :class:`~wargames.indochina.game.Game` (12, 19, 26.3(1))."""

    # ------------------------------------------------------------------ the air part of the position
    @implements("IC 12.2", "IC 12.21", "IC 26.3")
    def _air_setup(self) -> None:
        box = demo_air_box(self.scenario)
        for kind, n in box.items():
            if kind not in AIR_TYPES or not isinstance(n, int) or n < 0:
                raise DataError(f"scenario {self.scenario}", f"air box.{kind}", "must be an air type with a whole "
                                                                               "number of groups")
        self.air = {"available": {k: n for k, n in box.items() if n}, "completed": {}, "eliminated": {},
                    "aside": {}, "owned": {k: n for k, n in box.items() if n}, "grounded": None,
                    "supply_markers": 0, "markers_flown": 0, "phase": _fresh_phase()}
        self._monsoon_split(Resolution())

    def _air_position(self) -> dict:
        return copy.deepcopy(self.air)

    def _logistics(self):
        """The FEF supply ledger (a :class:`~wargames.indochina.logistics.Logistics`), or None if the
        position keeps none yet."""
        return getattr(self, "logistics", None)

    @implements("IC 26.3")
    def _monsoon_split(self, res: Resolution) -> None:
        """26.3(1): in a monsoon turn half the groups of each type, rounded up, are available; the rest wait aside
        for a later turn. Groups of one type are interchangeable (12.1), so the count is the whole choice."""
        air = self.air
        for kind in AIR_TYPES:
            total = _count(air["available"], kind) + _count(air["aside"], kind)
            if not total:
                continue
            usable = math.ceil(total / 2) if self.state.monsoon else total
            air["available"][kind] = usable
            if total - usable:
                air["aside"][kind] = total - usable
            else:
                air["aside"].pop(kind, None)
        if self.state.monsoon and any(air["aside"].values()):
            res.add("IC 26.3", "monsoon: half the FEF air units of each type, rounded up, are available this turn; "
                               f"set aside {dict(sorted(air['aside'].items()))}")

    @implements("IC 12.21", "IC 12.23")
    def _air_end_of_turn(self, res: Resolution) -> None:
        """End of the game turn: the Completed box goes back to Available (12.21); the new turn's weather
        decides how many may fly (26.3(1))."""
        air = self.air
        back = {k: n for k, n in air["completed"].items() if n}
        for kind, n in back.items():
            air["available"][kind] = _count(air["available"], kind) + n
        air["completed"] = {}
        air["grounded"] = None
        if back:
            res.add("IC 12.21", f"end of turn: the Completed air units {dict(sorted(back.items()))} are available "
                                "again")
        self._monsoon_split(res)

    def _air_ground(self, why: str, res: Resolution, rule: str = "IC Random Events Table") -> None:
        """No air operation for the rest of this game turn (the Typhoon event); lifted at the end of the turn.
        For the events code to call."""
        self.air["grounded"] = {"why": why, "rule": rule}
        res.add(rule, f"{why}: no FEF air operation for the rest of this turn")

    @implements("IC 7.43", "IC 23.15")
    def _air_receive(self, kind: str, groups: int, res: Resolution, rule: str = "IC 7.43") -> None:
        """New air or naval strike units go straight into the Available box, ready at once (7.43). For the
        mobilization and assistance code to call."""
        kind = AIR_ENTRY_TYPES.get(kind, kind)          # "naval bombardment" (the charts' name) is a naval strike
        if kind not in AIR_TYPES:
            raise DataError("air units", kind, f"is not an air unit type; the types are {', '.join(AIR_TYPES)}")
        if not isinstance(groups, int) or isinstance(groups, bool) or groups < 1:
            raise DataError("air units", kind, f"must arrive in a whole number of groups, not {groups!r}")
        for box in ("available", "owned"):
            self.air[box][kind] = _count(self.air[box], kind) + groups
        res.add(rule, f"{groups} {kind} group(s) enter the FEF Air Units Available box")

    @implements("IC 15.71")
    def _air_receive_supply_marker(self, res: Resolution, n: int = 1) -> None:
        """Airborne supply markers bought in a mobilization phase wait in the Air Mission box (15.71). For the
        mobilization code to call."""
        if not isinstance(n, int) or isinstance(n, bool) or n < 1:
            raise DataError("airborne supply", "markers", f"must be a whole number of 1 or more, not {n!r}")
        self.air["supply_markers"] += n
        res.add("IC 15.71", f"{n} airborne supply marker(s) placed in the FEF Air Mission box")

    def _player_turn(self) -> int:
        return self.player_turn

    def _air_phase_ended(self, res: Resolution) -> None:
        if self.phase.kind == "air":
            self.air["phase"] = _fresh_phase()

    def _air_invariants(self) -> list[str]:
        air, out = self.air, []
        ph = air["phase"]
        for kind in AIR_TYPES:
            held = sum(_count(air[box], kind) for box in ("available", "completed", "eliminated", "aside"))
            held += sum(_count(c, kind) for c in ph["committed"].values())
            if held != _count(air["owned"], kind):
                out.append(f"{kind}: {held} group(s) in the boxes and on the map, but the FEF has "
                           f"{_count(air['owned'], kind)} (IC 12.21)")
            for box in ("available", "completed", "eliminated", "aside"):
                if _count(air[box], kind) < 0:
                    out.append(f"{kind}: a negative count in the {box} box (IC 12.21)")
        if self.phase.kind != "air" and (ph["committed"] or ph["flown"] or ph["bombarded"]):
            out.append("air missions are recorded outside an Air Phase (IC 12.32)")
        if air["supply_markers"] < 0 or air["markers_flown"] < 0:
            out.append("a negative count of airborne supply markers (IC 15.71)")
        if set(ph["committed"]) & set(ph["bombarded"]):
            out.append("a hex is both waiting for a strike and already bombarded (IC 12.37)")
        if ph["resolving"] is not None and ph["resolving"]["hex"] not in ph["committed"]:
            out.append("a strike waits for a loss choice on a hex with no strike placed (IC 12.34)")
        return out

    # ------------------------------------------------------------------ prompts
    def _air_decision(self) -> tuple[str, str, str, str] | None:
        if self.phase.kind != "air":
            return None
        ph = self.air["phase"]
        r = ph["resolving"]
        if r is not None:
            need = r["need"]
            return (Side.COMMUNIST.value, TABLE_RULE, f"choose {need['n']} of {', '.join(need['candidates'])} in "
                    f"{r['hex']} for the bombardment to {need['action']}", "loss")
        if ph["committed"]:
            return (Side.FEF.value, "IC 12.34", f"resolve the strikes placed on {', '.join(ph['order'])} one at a "
                    "time, in the order you choose" + (" (more strikes may still be placed)"
                                                       if ph["stage"] == "placing" else ""), "strikes")
        return None

    def _air_candidates(self) -> list[Action]:
        st, air = self.state, self.air
        ph = air["phase"]
        if ph["resolving"] is not None:
            return [ChooseStrikeLoss(Side.COMMUNIST.value, u) for u in ph["resolving"]["need"]["candidates"]]
        if air["grounded"] is not None:
            return []
        out: list[Action] = []
        lg = self._logistics()
        if self.phase.id == OFFENSIVE and ph["stage"] == "start" and lg is not None:
            for kind in AIR_TYPES:
                n = min(_count(air["completed"], kind), lg.points.get(Side.FEF, 0))
                out += [IncreaseSorties(kind, g) for g in sorted({1, n}) if g >= 1]
        if ph["stage"] in ("start", "placing"):
            a, nv, b = (_count(air["available"], k) for k in STRIKE_TYPES)
            for h in sorted({u.hex for u in st.on_map(Side.COMMUNIST)}, key=st.label):
                lab = st.label(h)
                if lab in ph["bombarded"]:
                    continue
                out += [CommitStrike(lab, airstrike=g) for g in sorted({1, a}) if g >= 1]
                left = self._carriers_left(ph)
                if left:                          # experimental range rule: some groups fly from a carrier
                    out += [CommitStrike(lab, airstrike=g, carrier=min(g, left)) for g in sorted({1, a}) if g >= 1]
                if nv:
                    out.append(CommitStrike(lab, naval=1))
                if b:
                    out.append(CommitStrike(lab, b29=b))
        out += [ResolveStrike(h) for h in ph["order"]]
        if not ph["committed"] and _count(air["available"], TRANSPORT):
            out += self._transport_candidates(ph)
            if air["supply_markers"] and self._logistics() is not None:
                out += [AirDropSupply(st.label(h)) for h in sorted({u.hex for u in st.on_map(Side.FEF)}, key=st.label)]
        return out

    def _transport_candidates(self, ph: dict) -> list[Action]:
        """Flights from an airfield to an FEF-occupied airfield (12.41) and, for airborne units, drops next to
        units of either side (12.45, 19.1): the hexes worth offering; any other legal hex may still be named."""
        st = self.state
        hexes = st.map.hexes
        bases = {u.hex for u in st.on_map(Side.FEF) if u.counter.type == "base"}
        fields = [h for h in hexes if ((st.is_urban(h) and st.controller(h) is Side.FEF) or st.has(h, "fortification")
                                       or h in bases) and st.terrain(h) not in NO_FLIGHT_TERRAIN]
        occupied = {u.hex for u in st.on_map()}
        drops = sorted({n for h in occupied for n in st.map.neighbors(h)} - occupied, key=st.label)
        out: list[Action] = []
        occ = self._occupancy()
        for u in sorted(st.on_map(Side.FEF), key=lambda u: u.id):
            if u.id in ph["flown"] or u.counter.type in ("militia", "base", "DNA") or u.counter.size == "division" \
                    or u.hex not in fields:
                continue
            start = st.label(u.hex)
            out += [AirTransport(u.id, start, st.label(h)) for h in fields
                    if h != u.hex and self._fef_occupied(h, u.id, occ)]
            if u.counter.type == "airborne infantry":
                out += [AirTransport(u.id, start, st.label(h)) for h in drops]
        return out

    # ------------------------------------------------------------------ fast legality checks
    def check_action(self, action: Action) -> None:
        if isinstance(action, IncreaseSorties):
            self._check_sorties(action)
        elif isinstance(action, CommitStrike):
            self._check_commit(action)
        elif isinstance(action, ResolveStrike):
            self._check_resolve(action)
        elif isinstance(action, ChooseStrikeLoss):
            self._check_loss(action)
        elif isinstance(action, AirTransport):
            self._check_transport(action)
        elif isinstance(action, AirDropSupply):
            self._check_supply_drop(action)
        else:
            super().check_action(action)

    def _air_phase_checks(self, rule: str, what: str) -> dict:
        p = self.phase
        if p.kind != "air":
            raise RuleViolation(rule, f"{what} happens in an FEF Air Phase, not in the {p.id} Phase")
        if self.combat is not None or self.ambush is not None:
            self._no_decision()
        ph = self.air["phase"]
        if ph["resolving"] is not None:
            d = self._air_decision()
            raise RuleViolation(d[1], f"the {d[0]} player must first {d[2]}")
        g = self.air["grounded"]
        if g is not None:
            raise RuleViolation(g["rule"], f"no air operation this turn: {g['why']}")
        return ph

    # ------------------------------------------------------------------ increased sorties (12.22, 15.33)
    def _check_sorties(self, a: IncreaseSorties):
        ph = self._air_phase_checks("IC 12.22", "buying extra sorties")
        if self.phase.id != OFFENSIVE:
            raise RuleViolation("IC 12.22", "extra sorties are bought only in the FEF Offensive Air Phase")
        if ph["stage"] != "start":
            raise RuleViolation("IC 12.22", "extra sorties are bought at the start of the phase, before any mission")
        if not isinstance(a.kind, str) or a.kind not in AIR_TYPES:
            raise RuleViolation("IC 12.1", f"{a.kind!r} is not an air unit type; the types are {', '.join(AIR_TYPES)}")
        if not isinstance(a.groups, int) or isinstance(a.groups, bool) or a.groups < 1:
            raise RuleViolation("IC 12.22", f"name a whole number of groups, 1 or more, not {a.groups!r}")
        have = _count(self.air["completed"], a.kind)
        if a.groups > have:
            raise RuleViolation("IC 12.22", f"only {have} {a.kind} group(s) are in the Completed box, not {a.groups}")
        lg = self._logistics()
        if lg is None:
            raise RuleViolation("IC 15.33", "this position keeps no FEF supply points yet, so no sortie can be bought")
        if a.groups > lg.points.get(Side.FEF, 0):
            raise RuleViolation("IC 15.33", f"{a.groups} extra sortie(s) cost {a.groups} supply point(s); the FEF "
                                            f"has {lg.points.get(Side.FEF, 0)}")
        return lg

    @handles(IncreaseSorties)
    @implements("IC 12.22", "IC 15.33")
    def _increase_sorties(self, a: IncreaseSorties, dice, res: Resolution) -> None:
        lg = self._check_sorties(a)
        lg.spend(Side.FEF, a.groups, "IC 15.33", f"{a.groups} extra {a.kind} sortie(s)", res)
        air = self.air
        air["completed"][a.kind] -= a.groups
        if not air["completed"][a.kind]:
            del air["completed"][a.kind]
        air["available"][a.kind] = _count(air["available"], a.kind) + a.groups
        air["phase"]["sorties"] += a.groups
        res.add("IC 12.22", f"{a.groups} {a.kind} group(s) move from Completed back to Available")

    # ------------------------------------------------------------------ strikes (12.3, 12.6, 12.7)
    def _target(self, label: str) -> TargetHex:
        st = self.state
        h = st.map.hex(label)
        near = [n for n in st.map.neighbors(h)]
        occ = self._occupancy()

        def at(x, side):
            return [u for u in occ.get(x, ()) if u.side is side]

        units = []
        for u in at(h, Side.COMMUNIST):
            t = u.counter.type
            kind = t if t in ("artillery", "cadre", "militia") else "unit"
            units.append(GroundUnit(u.id, u.disrupted, kind, u.strength))
        return TargetHex(tuple(sorted(units, key=lambda g: g.id)), label,
                         fef_units=bool(at(h, Side.FEF)) or st.fef_militia(h) > 0,
                         artillery_adjacent=any(u.counter.type == "artillery" for n in near
                                                for u in at(n, Side.COMMUNIST)),
                         coastal=self._coastal(h) or any(self._coastal(n) for n in near),
                         next_to_fef_land_units=any(at(n, Side.FEF) for n in near),
                         in_china=str(st.map.info(h).attr("country", "Vietnam")) == "China")

    def _coastal(self, h) -> bool:
        """A coastal land hex: marked coast, or next to an all-sea hex (12.6(1))."""
        st = self.state
        if st.terrain(h) in PROHIBITED:
            return False
        return st.has(h, "coast") or any(st.terrain(n) == "all_sea" for n in st.map.neighbors(h))

    @staticmethod
    def _strike_of(c: dict) -> Strike:
        return Strike(_count(c, AIRSTRIKE), _count(c, NAVAL), _count(c, B29))

    @implements("IC 12.1", "IC 12.11", "IC 12.37")
    def _check_commit(self, a: CommitStrike) -> tuple[TargetHex, Strike, Strike]:
        ph = self._air_phase_checks("IC 12.32", "a bombardment")
        for name in ("airstrike", "naval", "b29"):
            n = getattr(a, name)
            if not isinstance(n, int) or isinstance(n, bool) or n < 0:
                raise RuleViolation("IC 12.33", f"{name} groups must be a whole number of 0 or more, not {n!r}")
        strike = Strike(a.airstrike, a.naval, a.b29)
        if strike.groups < 1:
            raise RuleViolation("IC 12.33", "a strike needs at least one strike unit")
        self._check_carrier(a, ph)
        if not isinstance(a.hex, str):
            raise RuleViolation("IC 12.32", "a strike is placed on a hex label")
        self.state.map.hex(a.hex)                                  # an unknown hex is an IllegalName
        if a.hex in ph["bombarded"]:
            raise RuleViolation("IC 12.37", f"{a.hex} was already bombarded this phase")
        if ph["stage"] == "transport":
            raise RuleViolation("IC 12.11", "every strike is flown before the first air transport")
        if ph["stage"] == "resolving":
            raise RuleViolation("IC 12.34", "every strike is placed at the start of the phase, before the first is "
                                            "resolved")
        for kind, n in zip(STRIKE_TYPES, (a.airstrike, a.naval, a.b29)):
            have = _count(self.air["available"], kind)
            if n > have:
                raise RuleViolation("IC 12.21", f"{n} {kind} group(s) wanted, but only {have} in the Available box")
        target = self._target(a.hex)
        merged = strike + self._strike_of(ph["committed"].get(a.hex, {}))
        check_strike(target, merged)
        if self.ruleset["aircraft_range"] and a.airstrike:
            flight_ranges(self.state, self.state.map.hex(a.hex), merged.airstrike,
                          ph["carrier"].get(a.hex, 0) + a.carrier)
        return target, strike, merged

    def _carriers_left(self, ph: dict) -> int:
        """Experimental range rule: how many more airstrike groups carriers may launch this phase (none while
        the rule is off)."""
        if not self.ruleset["aircraft_range"]:
            return 0
        return max(0, FRENCH_CARRIER_STRIKES - sum(ph["carrier"].values()))

    @implements(RANGE_RULE)
    def _check_carrier(self, a: CommitStrike, ph: dict) -> None:
        """Carrier-based airstrikes exist only under the range rule, at most two French groups a phase (our
        reading: the boxes do not tell French from US groups, so every group counts as French)."""
        if not isinstance(a.carrier, int) or isinstance(a.carrier, bool) or a.carrier < 0:
            raise RuleViolation(RANGE_RULE, f"carrier groups are a whole number of 0 or more, not {a.carrier!r}")
        if not a.carrier:
            return
        if not self.ruleset["aircraft_range"]:
            raise RuleViolation(RANGE_RULE, "the experimental Aircraft Range rule is not in use: no strike flies "
                                            "from a carrier")
        if a.carrier > a.airstrike:
            raise RuleViolation(RANGE_RULE, f"{a.carrier} carrier-based groups, but only {a.airstrike} airstrike "
                                            "group(s) in this strike")
        check_carrier_basing(sum(ph["carrier"].values()) + a.carrier)

    @handles(CommitStrike)
    @implements("IC 12.21", "IC 12.32", "IC 12.34", "IC 12.35", "IC 12.6", "IC 12.7", "IC 22.3")
    def _commit_strike(self, a: CommitStrike, dice, res: Resolution) -> None:
        target, strike, merged = self._check_commit(a)
        air, ph = self.air, self.air["phase"]
        placed = ph["committed"].setdefault(a.hex, {})
        for kind, n in zip(STRIKE_TYPES, (a.airstrike, a.naval, a.b29)):
            if n:
                air["available"][kind] -= n
                if not air["available"][kind]:
                    del air["available"][kind]
                placed[kind] = _count(placed, kind) + n
        if a.carrier:
            ph["carrier"][a.hex] = ph["carrier"].get(a.hex, 0) + a.carrier
        if a.hex not in ph["order"]:
            ph["order"].append(a.hex)
        ph["stage"] = "placing"
        res.add("IC 12.34", f"{strike.describe()} placed on {a.hex}"
                + (f" (the attack there is now {merged.describe()}, 12.35)" if merged != strike else ""))

    def _check_resolve(self, a: ResolveStrike) -> dict:
        ph = self._air_phase_checks("IC 12.34", "resolving a strike")
        if not isinstance(a.hex, str):
            raise RuleViolation("IC 12.34", "a strike is resolved on a hex label")
        if a.hex not in ph["committed"]:
            if a.hex in ph["bombarded"]:
                raise RuleViolation("IC 12.37", f"{a.hex} was already bombarded this phase")
            raise RuleViolation("IC 12.34", f"no strike is placed on {a.hex}"
                                + (f"; strikes wait on {', '.join(ph['order'])}" if ph["order"] else ""))
        return ph

    def _bombard(self, label: str, dice, picks: list[str]) -> Resolution:
        """One run of the bombardment of ``label`` with the owner's picks so far; raises NeedPick when the
        table leaves a choice not yet made."""
        ph = self.air["phase"]
        cursor = [0]

        def choose(action, pool, n):
            got = picks[cursor[0]:cursor[0] + n]
            if len(got) < n:
                raise NeedPick(action, [u.id for u in pool if u.id not in got], n - len(got))
            cursor[0] += n
            return got

        strike = self._strike_of(ph["committed"][label])
        if self.ruleset["aircraft_range"] and strike.airstrike:          # the experimental range modifier
            strike = Strike(strike.airstrike, strike.naval, strike.b29,
                            flight_ranges(self.state, self.state.map.hex(label), strike.airstrike,
                                          ph["carrier"].get(label, 0)))
        return airstrike(dice, self._target(label), strike,
                         errata=self.ruleset["bombardment_errata"], table=self.ruleset.chart("bombardment"),
                         choose=choose)

    @handles(ResolveStrike)
    @implements("IC 12.33", "IC 12.34", "IC 12.5", "IC 12.51", TABLE_RULE)
    def _resolve_strike(self, a: ResolveStrike, dice, res: Resolution) -> None:
        ph = self._check_resolve(a)
        ph["stage"] = "resolving"
        try:
            check_strike(self._target(a.hex), self._strike_of(ph["committed"][a.hex]))
        except RuleViolation as e:          # the hex changed since the placement: the mission is called off
            placed = ph["committed"].pop(a.hex)
            ph["order"].remove(a.hex)
            ph["carrier"].pop(a.hex, None)
            for kind, n in placed.items():
                self.air["available"][kind] = _count(self.air["available"], kind) + n
            res.add(e.rule, f"the strike on {a.hex} is called off ({e.reason}); its units go back to the Available "
                            "box unflown")
            return
        cap = KeptDice(dice)
        try:
            out = self._bombard(a.hex, cap, [])
        except NeedPick as e:
            ph["resolving"] = {"hex": a.hex, "roll": cap.values[0], "picks": [],
                               "need": {"action": e.action, "candidates": e.candidates, "n": e.n}}
            res.add("IC 12.33", f"bombardment of {a.hex}: roll {cap.values[0]}; the result leaves the choice to the "
                                f"Communist player, who picks {e.n} of {', '.join(e.candidates)} to {e.action}",
                    roll=cap.values[0])
            return
        self._strike_done(a.hex, out, res)

    def _check_loss(self, a: ChooseStrikeLoss) -> dict:
        p = self.phase
        r = self.air["phase"]["resolving"] if p.kind == "air" else None
        if r is None:
            raise RuleViolation(TABLE_RULE, "no bombardment result waits for the owner's choice")
        if side_named(a.side) is not Side.COMMUNIST:
            raise RuleViolation(TABLE_RULE, f"the owner of the bombarded units (Communist) chooses, not the "
                                            f"{a.side} player")
        if not isinstance(a.unit, str) or a.unit not in r["need"]["candidates"]:
            raise RuleViolation(TABLE_RULE, f"{a.unit} is not one of the units to choose from "
                                            f"({', '.join(r['need']['candidates'])})")
        return r

    @handles(ChooseStrikeLoss)
    def _choose_strike_loss(self, a: ChooseStrikeLoss, dice, res: Resolution) -> None:
        r = self._check_loss(a)
        r["picks"].append(a.unit)
        res.add(TABLE_RULE, f"the Communist player picks {a.unit} to {r['need']['action']}")
        try:
            out = self._bombard(r["hex"], ScriptedDice([r["roll"]], source="the kept bombardment roll"),
                                list(r["picks"]))
        except NeedPick as e:
            r["need"] = {"action": e.action, "candidates": e.candidates, "n": e.n}
            return
        self.air["phase"]["resolving"] = None
        self._strike_done(r["hex"], out, res)

    @implements("IC 12.36", "IC 12.53", "IC 17.34")
    def _strike_done(self, label: str, out: Resolution, res: Resolution) -> None:
        """Apply a finished bombardment: the ground result, the flak losses, the mission to Completed."""
        res.extend(out)
        o: StrikeOutcome = out.result
        st, air, ph = self.state, self.air, self.air["phase"]
        for uid in o.eliminated:
            st.unit(uid).eliminated = True
        for uid in o.disrupted:
            disrupt(st.unit(uid), "bombardment", res)
        placed = ph["committed"].pop(label)
        ph["order"].remove(label)
        ph["bombarded"].append(label)
        kept = {k: _count(placed, k) for k in STRIKE_TYPES}
        if o.air_lost:
            kept[AIRSTRIKE] -= o.air_lost
            air["eliminated"][AIRSTRIKE] = _count(air["eliminated"], AIRSTRIKE) + o.air_lost
        for kind, n in kept.items():
            if n:
                air["completed"][kind] = _count(air["completed"], kind) + n
        res.add("IC 12.36", f"the strike units of {label} go to the Completed box"
                + (f"; {o.air_lost} airstrike group(s) shot down are out of play (12.53)" if o.air_lost else ""))
        revert_abandoned_cities(st, res)
        res.result = o.to_dict()

    # ------------------------------------------------------------------ air transport (12.4, 19)
    @implements("IC 20.0", "IC 20.2")
    def _airfield(self, h) -> bool:
        """12.41: an FEF city or town, or a fortification or FEF base in the hex (a base is an airfield, 20.2)."""
        st = self.state
        return (st.is_urban(h) and st.controller(h) is Side.FEF) or st.has(h, "fortification") or any(
            u.counter.type == "base" for u in st.units_at(h, Side.FEF))

    def _fef_occupied(self, h, cargo: str, occ: dict | None = None) -> bool:
        """An FEF land unit other than the cargo is there, or the FEF militia of an FEF city or town (17.13)."""
        occ = self._occupancy() if occ is None else occ
        return any(u.side is Side.FEF and u.id != cargo for u in occ.get(h, ())) or \
            self.state.fef_militia(h) > 0

    def _cached_legal(self):
        """While the legal actions are listed the position stands still: the flight checks share one index of
        which units stand where."""
        self._air_occ = None
        self._air_listing = True
        try:
            return super()._cached_legal()
        finally:
            self._air_listing, self._air_occ = False, None

    def _dispatch(self, action: Action, dice, res: Resolution) -> None:
        """Handlers change the position, so they never read the listing's index (a legality probe of another
        action runs its handler on the position in the middle of a listing)."""
        listing = getattr(self, "_air_listing", False)
        self._air_listing = False
        try:
            super()._dispatch(action, dice, res)
        finally:
            self._air_listing = listing

    def _occupancy(self) -> dict:
        """Hex -> the units on it (a pass over the units, not one per hex asked about); built once per listing
        of the legal actions."""
        if getattr(self, "_air_listing", False):
            if self._air_occ is None:
                self._air_occ = self._occupancy_now()
            return self._air_occ
        return self._occupancy_now()

    def _occupancy_now(self) -> dict:
        out: dict = {}
        for u in self.state.on_map():
            out.setdefault(u.hex, []).append(u)
        return out

    def _place(self, h, cargo: str, occ: dict | None = None) -> Place:
        st = self.state
        occ = self._occupancy() if occ is None else occ
        near = list(st.map.neighbors(h))
        here = occ.get(h, [])
        communists = [u for n in [h, *near] for u in occ.get(n, []) if u.side is Side.COMMUNIST]
        airfield = (st.is_urban(h) and st.controller(h) is Side.FEF) or st.has(h, "fortification") or any(
            u.side is Side.FEF and u.counter.type == "base" for u in here)
        fef = any(u.side is Side.FEF and u.id != cargo for u in here) or st.fef_militia(h) > 0
        return Place(st.label(h), st.terrain(h), airfield=airfield, fef_units=fef,
                     enemy_units=any(u.side is Side.COMMUNIST for u in here),
                     next_to_communists=any(u.hex != h for u in communists),
                     artillery_near=any(u.counter.type == "artillery" for u in communists),
                     prohibited=st.terrain(h) in PROHIBITED,
                     in_china=str(st.map.info(h).attr("country", "Vietnam")) == "China")

    def _check_transport(self, a: AirTransport) -> AirMission:
        ph = self._air_phase_checks("IC 12.42", "air transport")
        st = self.state
        if ph["committed"]:
            raise RuleViolation("IC 12.42", f"air transport waits until every placed strike is resolved "
                                            f"({', '.join(ph['order'])} still waiting)")
        if not _count(self.air["available"], TRANSPORT):
            raise RuleViolation("IC 12.41", "no air transport group is left in the Available box")
        if not all(isinstance(x, str) for x in (a.unit, a.origin, a.destination)):
            raise RuleViolation("IC 12.4", "an air transport names a unit and two hex labels")
        riverine = getattr(self, "riverine", None)
        if riverine is not None and a.unit in riverine.carried_this_turn:
            raise RuleViolation("IC 18.44", f"{a.unit} was carried by DNA this turn and may make no other move")
        u = st.unit(a.unit)
        if u.side is not Side.FEF or not u.on_map:
            raise RuleViolation("IC 12.4", f"{a.unit} is not an FEF land unit on the map")
        if a.unit in ph["flown"]:
            raise RuleViolation("IC 12.41", f"{a.unit} has already been flown this phase")
        here = st.label(u.hex)
        if a.origin != here:
            raise RuleViolation("IC 12.41", f"{a.unit} is in {here}, not {a.origin}: a flight starts where the unit is")
        dest = st.map.hex(a.destination)
        if dest == u.hex:
            raise RuleViolation("IC 12.41", "a flight lands in another hex than the one it starts from")
        problem = border_problem(st, u, u.hex, dest)          # a flight crosses borders as a move does (22)
        if problem:
            rule = next((f"IC {r}" for r in ("22.3", "22.4") if f"({r})" in problem), "IC 22.1")
            raise RuleViolation(rule, f"{a.unit} may not fly to {a.destination}: {problem}")
        c = u.counter
        size = {"militia": "militia", "base": "base"}.get(c.type, c.size)
        cargo = Cargo(a.unit, size, airborne=c.type == "airborne infantry", dna=c.type == "DNA")
        occ = self._occupancy()
        mission = AirMission(cargo, self._place(u.hex, a.unit, occ), self._place(dest, a.unit, occ))
        check_air_mission(mission)
        return mission

    @handles(AirTransport)
    @implements("IC 12.4", "IC 12.41", "IC 12.42", "IC 12.44", "IC 12.45", "IC 12.52", "IC 12.53", "IC 12.54",
                "IC 19.0", "IC 19.1", "IC 22.1")
    def _air_transport(self, a: AirTransport, dice, res: Resolution) -> None:
        mission = self._check_transport(a)
        air, ph = self.air, self.air["phase"]
        air["available"][TRANSPORT] -= 1
        if not air["available"][TRANSPORT]:
            del air["available"][TRANSPORT]
        ph["stage"] = "transport"
        ph["flown"].append(a.unit)
        out = air_transport(dice, mission, table=self.ruleset.chart("bombardment"), res=res)
        o: TransportOutcome = out.result
        box = "completed" if o.air_unit_kept else "eliminated"
        air[box][TRANSPORT] = _count(air[box], TRANSPORT) + 1
        if o.mission_completed:
            u = self.state.unit(a.unit)
            u.hex = self.state.map.hex(a.destination)
            res.add("IC 12.41", f"{a.unit} lands in {a.destination} ({o.landing})")
        else:
            res.add("IC 12.53", f"{a.unit} stays in {a.origin}")
        res.result = o.to_dict()

    # ------------------------------------------------------------------ airborne supply (15.7, 12.46, 19.2)
    def _check_supply_drop(self, a: AirDropSupply):
        ph = self._air_phase_checks("IC 15.72", "an airborne supply drop")
        st = self.state
        if ph["committed"]:
            raise RuleViolation("IC 12.42", f"air transport waits until every placed strike is resolved "
                                            f"({', '.join(ph['order'])} still waiting)")
        if not _count(self.air["available"], TRANSPORT):
            raise RuleViolation("IC 15.72", "no air transport group is left in the Available box to carry the marker")
        if not self.air["supply_markers"]:
            raise RuleViolation("IC 15.71", "no airborne supply marker waits in the Air Mission box")
        lg = self._logistics()
        if lg is None:
            raise RuleViolation("IC 15.7", "this position keeps no supply ledger yet, so no airborne supply can land")
        if not isinstance(a.destination, str):
            raise RuleViolation("IC 15.72", "a supply drop names a hex label")
        dest = st.map.hex(a.destination)
        if not st.units_at(dest, Side.FEF):
            raise RuleViolation("IC 15.75", f"a marker landing in {a.destination}, with no FEF land unit there, would "
                                            "be lost at once (our reading: such a drop is refused)")
        box = Place("the Air Mission box", airfield=True)          # the marker waits off the map (15.71)
        mission = AirMission(Cargo("airborne supply", "supply"), box, self._place(dest, ""))
        check_air_mission(mission)
        return lg, mission

    @handles(AirDropSupply)
    @implements("IC 15.72", "IC 12.46", "IC 19.2", "IC 12.52")
    def _air_drop_supply(self, a: AirDropSupply, dice, res: Resolution) -> None:
        lg, mission = self._check_supply_drop(a)
        air, ph = self.air, self.air["phase"]
        air["available"][TRANSPORT] -= 1
        if not air["available"][TRANSPORT]:
            del air["available"][TRANSPORT]
        ph["stage"] = "transport"
        out = air_transport(dice, mission, table=self.ruleset.chart("bombardment"), res=res)
        o: TransportOutcome = out.result
        box = "completed" if o.air_unit_kept else "eliminated"
        air[box][TRANSPORT] = _count(air[box], TRANSPORT) + 1
        if o.mission_completed:
            air["supply_markers"] -= 1
            air["markers_flown"] += 1
            res.extend(land_airborne_supply(self.state, lg, f"FEF airborne supply {air['markers_flown']}", Side.FEF,
                                            a.destination, self._player_turn()))
        else:
            res.add("IC 12.53", "the marker stays in the Air Mission box")
        res.result = o.to_dict()
