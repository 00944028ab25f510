"""Rules 29 and 30 in play: intervention and atomic bombs as actions, prompts and a part of the position.

:class:`InterventionPlay` is a mixin of :class:`~wargames.indochina.game.Game` (optional rule 29, the Ruleset
switch ``intervention``):

1. At the start of his Mobilization Phase, before the military assistance roll, a player may declare one
   increment (:class:`DeclareIntervention`, 29.1, 29.21, 29.41): the library rolls what arrives and moves
   the political indexes (29.21b, 29.411; the Ruleset reading ``intervention_overflow`` picks the optional
   variant).
2. What the increment leaves to the player is a prompt answered by :class:`ReceiveIntervention`: which French
   land or air units (29.1), which US divisions and air groups (29.21(1)-(2)), and the hex of China each
   Chinese unit is placed in (29.43). The fixed parts (naval strikes, the airborne supply marker, the US base
   and cadre, the Chinese base's kind) arrive at once.
3. From the fourth FEF Mobilization Phase after US Ground Intervention, :class:`PlaceUSPort` puts the US port
   on Tourane, Nha Trang or Qui Nhon (29.32); it then works as a printed port for the rest of the game.
4. While Chinese intervention is in effect, each turn opens with the Communist roll for the Chinese air force
   (:class:`RollChineseAirForce`, 29.44); the FEF player then picks the air groups kept on the ground
   (:class:`WithholdAirUnits`).
5. In either FEF Air Phase, :class:`AtomicAttack` drops one of the FEF's atomic bombs (30.1-30.3, 30.5); a hex
   bombed this turn takes no airstrike and no land attack until the next turn, and a hex struck from the air
   this turn takes no bomb (30.4, our reading of both halves); fallout is rolled at the end of every turn
   (30.6), for each land unit in a bombed hex.
6. The World War Three event ends the game with both sides losing while US or Chinese intervention is in
   effect (29.5).
"""
from __future__ import annotations

import copy
from dataclasses import dataclass

from ..core.actions import Action
from ..core.errors import RuleViolation
from ..core.game import Outcome, handles
from ..core.log import Resolution
from ..core.rules import implements
from .air import AIR_TYPES, AIRSTRIKE, NAVAL, TRANSPORT
from .air_play import CommitStrike
from .assistance import AIR_AVAILABLE, CHINA
from .atomic import atomic_attack
from .combat import Side
from .mobilization import FESA
from .optional import (INCREMENTS, US_PORT_HEXES, AtomicBombs, Intervention, check_chinese_placement,
                       check_us_port, chinese_air_force, declare_intervention, fallout)

FRENCH_AIR = (AIRSTRIKE, TRANSPORT)          # the "air units" of 29.1: airstrike and air transport groups (12.1)
US_DIVISIONS = ("US infantry division", "US mechanized division", "US airborne division", "US marine division")


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class DeclareIntervention(Action):
    """Bring in one intervention increment at the start of a friendly Mobilization Phase (29.1, 29.21, 29.41)."""

    increment: str


@dataclass(frozen=True)
class ReceiveIntervention(Action):
    """Take ``count`` of what a declared increment still owes: a Mobilization Chart row (a French or US unit into
    the staging area, a Chinese unit onto a hex of China) or an air type into the Air Available box."""

    side: str
    unit: str
    where: str
    count: int = 1


@dataclass(frozen=True)
class PlaceUSPort(Action):
    """Put the US port marker on Tourane, Nha Trang or Qui Nhon (29.32)."""

    hex: str


@dataclass(frozen=True)
class RollChineseAirForce(Action):
    """The Communist roll at the start of a turn while Chinese intervention is in effect (29.44)."""


@dataclass(frozen=True)
class WithholdAirUnits(Action):
    """The FEF player keeps ``groups`` air groups of one type on the ground this turn (29.44)."""

    kind: str
    groups: int = 1


@dataclass(frozen=True)
class AtomicAttack(Action):
    """Drop one atomic bomb on a hex (30.1)."""

    hex: str


INTERVENTION_ACTIONS = (DeclareIntervention, ReceiveIntervention, PlaceUSPort, RollChineseAirForce,
                        WithholdAirUnits, AtomicAttack)


def _fresh(start_year: int) -> dict:
    """The intervention part of the position: what is owed and when things were done (JSON-able)."""
    return {"start_year": start_year, "owed": [], "port": None, "air_roll": None, "withhold": 0,
            "struck": [], "struck_turn": None, "replaced": {}}


# --------------------------------------------------------------------------- the mixin

class InterventionPlay:
    """Intervention (29) and atomic bombs (30) in :class:`~wargames.indochina.game.Game`."""

    def _intervention_setup(self) -> None:
        self.intervention = Intervention()
        self.bombs = AtomicBombs()
        self.intervening = _fresh(self.year)

    def _intervention_position(self) -> dict:
        iv = self.intervening
        return {"declared": dict(sorted(self.intervention.declared.items())), "bombs": self.intervention.bombs,
                "fallout": sorted(self.bombs.fallout),
                "bombed": {str(t): sorted(v) for t, v in sorted(self.bombs.hit.items())},
                **copy.deepcopy({k: v for k, v in iv.items() if k != "start_year"})}

    # ------------------------------------------------------------------ prompts
    def _intervention_decision(self) -> tuple[str, str, str, str] | None:
        iv = self.intervening
        if iv["owed"]:
            o = iv["owed"][0]
            return (o["side"], o["rule"], f"choose what {o['increment']} brings: {o['left']} more of "
                    f"{', '.join(o['options'])}", "intervention")
        if iv["withhold"]:
            return (Side.FEF.value, "IC 29.44", f"the Chinese air force keeps {iv['withhold']} FEF air group(s) "
                    "on the ground this turn: choose them", "intervention")
        return None

    def _intervention_answers(self) -> list[Action]:
        iv = self.intervening
        if iv["owed"]:
            o = iv["owed"][0]
            out: list[Action] = []
            for name in o["options"]:
                for where in self._receipt_places(name):
                    counts = [1] if self._chart_area(name) == CHINA else sorted({1, o["left"]})
                    out += [ReceiveIntervention(o["side"], name, where, n) for n in counts]
            return out
        avail = self.air["available"]
        return [WithholdAirUnits(k, n) for k in AIR_TYPES if avail.get(k, 0)
                for n in sorted({1, min(iv["withhold"], avail[k])})]

    def _intervention_candidates(self) -> list[Action]:
        """The free-play actions: declarations, the US port, the Chinese air force roll and atomic attacks."""
        p, out = self.phase, []
        if not self.option("intervention"):
            return out
        if p.kind == "events" and self._air_roll_due():
            return [RollChineseAirForce()]
        mob = self.mobilization
        if p.kind == "mobilization" and mob is not None and not mob.assistance_rolled:
            out += [DeclareIntervention(k) for k, v in INCREMENTS.items() if v[0] is p.side]
        if p.id == "FEF Mobilization" and "US Ground Intervention" in self.intervention.declared \
                and self.intervening["port"] is None:
            out += [PlaceUSPort(t) for t in US_PORT_HEXES if self._town(t) is not None]
        if p.kind == "air" and self.intervention.bombs > 0:
            st = self.state
            out += [AtomicAttack(st.label(h)) for h in sorted({u.hex for u in st.on_map(Side.COMMUNIST)}, key=st.label)]
        return out

    def _air_roll_due(self) -> bool:
        return self.intervention.chinese and self.intervening["air_roll"] != self.turn

    # ------------------------------------------------------------------ checks
    def _check_option(self, rule: str) -> None:
        if not self.option("intervention"):
            raise RuleViolation(rule, "intervention is an optional rule, switched off")

    def _chart_area(self, name: str) -> str | None:
        return None if name in AIR_TYPES else self._chart()[name].location.area

    def _receipt_places(self, name: str) -> list[str]:
        if name in AIR_TYPES:
            return [AIR_AVAILABLE]
        row = self._chart()[name]
        if row.location.area == CHINA:
            return self._row_places(row)
        return [FESA]

    def _check_receipt(self, a: ReceiveIntervention) -> dict:
        iv = self.intervening
        if not iv["owed"]:
            self._no_decision()
            raise RuleViolation("IC 29.0", "no declared intervention is waiting to be received")
        o = iv["owed"][0]
        if a.side != o["side"]:
            raise RuleViolation(o["rule"], f"the {o['side']} player receives {o['increment']}, not the {a.side} player")
        if a.unit not in o["options"]:
            raise RuleViolation(o["rule"], f"{o['increment']} brings {', '.join(o['options'])}, not {a.unit!r}")
        if not isinstance(a.count, int) or isinstance(a.count, bool) or not 1 <= a.count <= o["left"]:
            raise RuleViolation(o["rule"], f"{o['increment']} still owes {o['left']}; {a.count!r} cannot be taken")
        if a.unit in AIR_TYPES:
            if a.where != AIR_AVAILABLE:
                raise RuleViolation("IC 7.43", f"air units go into the {AIR_AVAILABLE} box, not {a.where}")
            return o
        row = self._chart()[a.unit]
        if row.location.area == CHINA:
            if a.count != 1:
                raise RuleViolation("IC 29.43", "each Chinese unit is placed on its own hex choice: one at a time")
            self.state.map.hex(a.where)                 # an unknown hex is an IllegalName
            check_chinese_placement(self.state, a.where)
            if a.where not in self._row_places(row):
                raise RuleViolation("IC 29.43", f"{a.where} holds FEF units or is not land")
        elif a.where != FESA:
            raise RuleViolation("IC 29.31", f"US and French intervention land units go to the {FESA}, not {a.where}")
        for _ in range(a.count):
            self._check_counter_mix(row)                # 7.24; counted again below for each counter placed
        return o

    def check_action(self, action: Action) -> None:
        if isinstance(action, ReceiveIntervention):
            self._check_receipt(action)
            if action.count > 1 and action.unit not in AIR_TYPES:
                super().check_action(action)             # the counter mix for each of the counters
        elif isinstance(action, CommitStrike):
            self._check_not_bombed(action.hex, "airstrike")
            super().check_action(action)
        else:
            super().check_action(action)

    def _check_not_bombed(self, label: str, what: str) -> None:
        """30.4: a hex bombed this turn takes no airstrike, and (our reading) no land attack, until next turn."""
        if label in self.bombs.hit.get(self.turn, set()):
            raise RuleViolation("IC 30.4", f"{label} was hit by an atomic bomb this turn: no {what} on it until "
                                           "the next turn")

    def _dispatch(self, action: Action, dice, res: Resolution) -> None:
        if isinstance(action, CommitStrike):
            self._check_not_bombed(action.hex, "airstrike")
        elif type(action).__name__ == "RollEvent" and self.option("intervention") and self._air_roll_due():
            raise RuleViolation("IC 29.44", "the turn opens with the Communist roll for the Chinese air force")
        super()._dispatch(action, dice, res)
        if isinstance(action, CommitStrike):
            iv = self.intervening
            if iv["struck_turn"] != self.turn:
                iv["struck"], iv["struck_turn"] = [], self.turn
            if action.hex not in iv["struck"]:
                iv["struck"].append(action.hex)

    # ------------------------------------------------------------------ declaring and receiving
    @handles(DeclareIntervention)
    @implements("IC 29.0")
    def _declare_intervention(self, a: DeclareIntervention, dice, res: Resolution) -> None:
        """29.1, 29.21, 29.41: at the start of the Mobilization Phase (before the assistance roll, our reading of
        "the beginning"), roll for the increment and change the indexes; then owe the player his choices."""
        self._no_decision()
        self._check_option("IC 29.0")
        mob = self.mobilization
        if self.phase.kind == "mobilization" and mob is not None and mob.assistance_rolled:
            raise RuleViolation(INCREMENTS.get(a.increment, (None, None, None, None, "IC 29.0"))[4],
                                "intervention is declared at the beginning of the Mobilization Phase, before the "
                                "military assistance roll")
        out = declare_intervention(self.intervention, a.increment, self.points, dice, turn=self.turn,
                                   scenario_year=self.intervening["start_year"], phase_id=self.phase.id,
                                   no_overflow_loss=self.ruleset["intervention_overflow"] == "keep")
        res.extend(out)
        self._owe(a.increment, out.result["receives"], res)
        self._settle(res)

    @implements("IC 29.1", "IC 29.21a", "IC 29.31", "IC 29.43")
    def _owe(self, increment: str, receives: dict, res: Resolution) -> None:
        """Turn what an increment brings into the player's choices, and bring in its fixed parts at once."""
        owed = self.intervening["owed"]
        chart = self._chart()
        if increment == "French Emergency Reinforcements":
            land = [k for k, r in chart.items() if r.nationality == "French" and r.location.area != AIR_AVAILABLE]
            owed.append(self._owing(increment, "IC 29.1", Side.FEF, receives["French land/air units"],
                                    land + list(FRENCH_AIR)))
        elif increment == "US Air-Naval Support":
            owed.append(self._owing(increment, "IC 29.21a", Side.FEF, receives["airstrike/air transport groups"],
                                    list(FRENCH_AIR)))
            self._air_receive(NAVAL, receives["US naval strikes"], res, "IC 29.21a")
            self._air_receive_supply_marker(res, receives["airborne supply"])
        elif increment == "US Ground Intervention":
            owed.append(self._owing(increment, "IC 29.21a", Side.FEF, receives["US divisions"], list(US_DIVISIONS)))
            for name in ("US base", "US cadre"):
                self._bring_in(chart[name], FESA, res, intervention=True)
            self.staging.us_ground = True
            res.add("IC 23.12", "US Ground Intervention: the amphibious capacity is now three regiments/groups or "
                                "one division a turn (23.12(2))")
        elif increment.startswith("Chinese"):
            owed.append(self._owing(increment, "IC 29.43", Side.COMMUNIST, receives["Chinese infantry divisions"],
                                    ["Chinese infantry division"]))
            if receives.get("Chinese base"):
                owed.append(self._owing(increment, "IC 29.43", Side.COMMUNIST, 1, ["Chinese base"]))

    @staticmethod
    def _owing(increment: str, rule: str, side: Side, n: int, options: list[str]) -> dict:
        return {"increment": increment, "rule": rule, "side": side.value, "left": n, "options": options}

    def _settle(self, res: Resolution) -> None:
        """Drop what can no longer be received (every counter of its kinds in play, 7.24; no hex of China open)."""
        owed = self.intervening["owed"]
        while owed and not self._intervention_answers_legal(owed[0]):
            o = owed.pop(0)
            res.add("IC 7.24", f"{o['left']} of {o['increment']} cannot be received: no counter of "
                               f"{', '.join(o['options'])} is left in the counter mix, or no place is open")

    def _intervention_answers_legal(self, o: dict) -> bool:
        for name in o["options"]:
            if name in AIR_TYPES:
                return True
            try:
                self._check_counter_mix(self._chart()[name])
            except RuleViolation:
                continue
            if self._receipt_places(name):
                return True
        return False

    @handles(ReceiveIntervention)
    def _receive_intervention(self, a: ReceiveIntervention, dice, res: Resolution) -> None:
        o = self._check_receipt(a)
        if a.unit in AIR_TYPES:
            self._air_receive(a.unit, a.count, res, o["rule"])
        else:
            row = self._chart()[a.unit]
            for _ in range(a.count):
                self._check_counter_mix(row)
                self._bring_in(row, a.where, res, intervention=True)
        o["left"] -= a.count
        if not o["left"]:
            self.intervening["owed"].pop(0)
        self._settle(res)

    # ------------------------------------------------------------------ the US port
    def _town(self, name: str):
        """The hex of the town called ``name`` (the map's own names), or None."""
        st = self.state
        names = self._per_map("towns", lambda: {st.map.info(h).attr("name"): h for h in st.map.hexes
                                                if st.map.info(h).attr("name")})
        return names.get(name)

    @handles(PlaceUSPort)
    def _place_us_port(self, a: PlaceUSPort, dice, res: Resolution) -> None:
        self._no_decision()
        self._check_option("IC 29.32")
        if self.phase.id != "FEF Mobilization":
            raise RuleViolation("IC 29.32", f"the US port is placed in an FEF Mobilization Phase, not the {self.phase.id}")
        if self.intervening["port"] is not None:
            raise RuleViolation("IC 29.32", f"the US port is already on {self.intervening['port']}")
        h = self._town(a.hex)
        st = self.state
        there = h is not None and any(u.counter.nationality == "US" and not u.disrupted
                                      for u in st.units_at(h, Side.FEF))
        check_us_port(self.intervention, self.turn, a.hex, there)
        if h is None:
            raise RuleViolation("IC 29.32", f"{a.hex} is not on this map")
        st.placed_ports.add(st.label(h))
        self.intervening["port"] = a.hex
        res.add("IC 29.32", f"the US port is placed on {a.hex} ({st.label(h)}): a port like the printed ones from now "
                            "on, never destroyed")

    # ------------------------------------------------------------------ the Chinese air force
    @handles(RollChineseAirForce)
    def _roll_chinese_air_force(self, a: RollChineseAirForce, dice, res: Resolution) -> None:
        self._no_decision()
        self._check_option("IC 29.44")
        if self.phase.kind != "events" or not self._air_roll_due():
            raise RuleViolation("IC 29.44", "the Chinese air force roll opens a game turn while Chinese "
                                            "intervention is in effect")
        n = chinese_air_force(self.intervention, dice, res)
        self.intervening["air_roll"] = self.turn
        have = sum(self.air["available"].values())
        self.intervening["withhold"] = min(n, have)
        if have < n:
            res.add("IC 29.44", f"the FEF has only {have} air group(s) available: all of them stay on the ground")

    @handles(WithholdAirUnits)
    def _withhold_air(self, a: WithholdAirUnits, dice, res: Resolution) -> None:
        iv = self.intervening
        if not iv["withhold"]:
            self._no_decision()
            raise RuleViolation("IC 29.44", "no Chinese air force roll is waiting for the FEF's choice")
        avail = self.air["available"]
        if a.kind not in AIR_TYPES or not isinstance(a.groups, int) or isinstance(a.groups, bool) \
                or not 1 <= a.groups <= min(iv["withhold"], avail.get(a.kind, 0)):
            raise RuleViolation("IC 29.44", f"{a.groups!r} {a.kind} group(s) cannot be kept back: "
                                            f"{avail.get(a.kind, 0)} available, {iv['withhold']} to choose")
        avail[a.kind] -= a.groups
        self.air["aside"][a.kind] = self.air["aside"].get(a.kind, 0) + a.groups
        iv["withhold"] -= a.groups
        res.add("IC 29.44", f"{a.groups} {a.kind} group(s) stay on the ground this turn (back next turn)")

    # ------------------------------------------------------------------ atomic bombs
    @handles(AtomicAttack)
    def _atomic_attack(self, a: AtomicAttack, dice, res: Resolution) -> None:
        """30.1-30.5 in an FEF Air Phase (our reading: the bombs fly with the FEF air operations, so an event
        that grounds the air units stops them too)."""
        self._no_decision()
        self._check_option("IC 30.0")
        if self.phase.kind != "air":
            raise RuleViolation("IC 30.0", f"atomic bombs are dropped in an FEF Air Phase, not the {self.phase.id}")
        if self.air["grounded"] is not None:
            raise RuleViolation("IC 30.0", f"{self.air['grounded']['why']}: no FEF air operation this turn")
        iv = self.intervening
        if iv["struck_turn"] == self.turn and a.hex in iv["struck"]:
            raise RuleViolation("IC 30.4", f"{a.hex} took an airstrike this turn; an atomic bomb may not hit it too")
        if a.hex in self.bombs.hit.get(self.turn, set()):
            raise RuleViolation("IC 30.3", f"{a.hex} was already bombed this turn; one atomic bomb per hex per turn")
        if not self.state.units_at(self.state.map.hex(a.hex), Side.COMMUNIST):
            raise RuleViolation("IC 30.1", f"{a.hex} holds no Communist unit to attack (our reading: a bomb attacks "
                                           "an enemy-held hex)")
        res.extend(atomic_attack(self.state, self.intervention, self.bombs, a.hex, self.turn, dice))

    def _fallout(self, dice, res: Resolution) -> None:
        """30.6, at the end of each game turn."""
        if self.bombs.fallout:
            fallout(self.state, self.bombs, dice, res)

    # ------------------------------------------------------------------ World War Three
    @implements("IC 29.5")
    def _world_war_three(self, res: Resolution) -> bool:
        """29.5: with US or Chinese intervention in effect, the event ends the game and both sides lose."""
        if not self.intervention.us_or_chinese:
            return False
        self.ended = Outcome(None, "Both lose", "IC 29.5",
                             f"World War Three broke out in {self.year}-{self.month:02d}: both sides lose")
        res.add("IC 29.5", "US or Chinese intervention is in effect: World War Three breaks out and both sides lose")
        return True

    def _intervention_invariants(self) -> list[str]:
        out = []
        if self.intervention.bombs < 0:
            out.append(f"{self.intervention.bombs} atomic bombs")
        for o in self.intervening["owed"]:
            if o["left"] < 1:
                out.append(f"{o['increment']} owes {o['left']}")
        return out
