"""The experimental rules and 27.5 in play: Ruleset switches, actions, prompts and a part of the position.

:class:`ExperimentalPlay` is a mixin of :class:`~wargames.indochina.game.Game`. Each experimental rule is a
Ruleset reading, off by default; while it is off its actions are refused under its rule id.

* Going Underground (``underground``): the EndPhase of either Movement Phase opens an Underground step
  (our reading of the "Underground Phase": a step of the Movement Phase that the Communist player closes with
  :class:`EndUnderground`; the step is skipped when he has no cadre, guerrilla or militia on the map and none
  hidden). In it he takes qualified units off the map (:class:`GoUnderground`) and brings back units hidden in
  an earlier step (:class:`Resurface`) on or next to the hex they left. Our reading: an FEF city or town whose
  FEF militia is still there counts as an enemy-held hex (17.13), so nobody resurfaces in it. End-of-phase
  stacking (10.21) is checked after the step. The FEF player's view shows only how many units are
  underground, not which or where from.
* Aircraft Range (``aircraft_range``): the range modifier of every FEF airstrike, in the Air Phases and in
  overruns, measured from the nearest combat-effective FEF base unit; ``carrier`` on :class:`CommitStrike`
  and :class:`CallAirstrike` names how many of the groups fly from a carrier (measured from the nearest sea
  hex), at most two a phase (the boxes do not tell French from US groups: all count as French).
* Naval Operations (``naval_operations``): :class:`AmphibiousAssault` lands staging-area units on an enemy-held
  coastal hex through a combat fought normally from the adjacent all-sea hex (our reading: the landing force
  waits on that sea hex while the combat is resolved; a result that lets it advance lets it land, by
  :class:`~wargames.indochina.game.Advance` into the hex; otherwise, or if it declines, it goes back to the
  staging area, retreat results included; losses the CRT inflicts on it stand). ``supply`` spends the Attack
  Enhancement point to double it with no line of supply. Lines of supply the game checks (Attack
  Enhancement, forced march, fortification) may also cross lake and sea hexes (the water line of
  :mod:`experimental`).
* 27.5 (not experimental): once an overrun or an ambush (28.2: executed like an overrun) is declared, the FEF
  player, attacking or defending, may call airstrike groups from the Available box against the enemy hex
  (:class:`CallAirstrike`), with the overrun modifier, once per combat. Our readings: the call is open until
  the CRT is chosen (the combat's own prompt stays; not calling is declining), so the step of 27.3(2) comes
  before the resolution of 27.3(3); only airstrike groups fly, not naval strikes or B-29s ("airstrike
  units"); the strike is not an Air Phase mission (12.37's once-a-phase limit does not apply), and no air
  transport is offered during it. Where the result leaves the unit to its owner, the Communist player
  answers :class:`ChooseAirstrikeLoss`.
"""
from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass

from ..core.actions import Action
from ..core.dice import ScriptedDice
from ..core.errors import RuleViolation
from ..core.game import handles
from ..core.log import Resolution
from ..core.rules import implements
from .air import AIRSTRIKE
from .air_play import KeptDice, NeedPick
from .airstrikes import RANGE_RULE, Strike, StrikeOutcome, airstrike, check_carrier_basing, check_strike, flight_ranges
from .bombardment import TABLE_RULE
from .combat import Combat, Side, combat_terrain
from .sides import side_named
from .disruption import disrupt
from .experimental import NAVAL, UNDERGROUND, HIDING_TYPES, GoingUnderground, NavalOperations
from .logistics import logistical_cost
from .militia import defending_strengths, revert_abandoned_cities
from .stacking import stack_total, stacking_limit

OVERRUN_STRIKE = "IC 27.5"
AIR_WINDOW = ("defend", "enhance", "table")       # the combat stages before the CRT is chosen (27.3(2)-(3))


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class GoUnderground(Action):
    """In an Underground step the Communist player takes a cadre, guerrilla or militia off the map (Exp)."""

    unit: str


@dataclass(frozen=True)
class Resurface(Action):
    """In a later Underground step a hidden unit comes back on, or next to, the hex it left (Exp)."""

    unit: str
    hex: str


@dataclass(frozen=True)
class EndUnderground(Action):
    """The Communist player closes the Underground step; the Movement Phase then ends (Exp)."""


@dataclass(frozen=True)
class CallAirstrike(Action):
    """The FEF calls airstrike groups into the overrun or ambush being declared (27.3(2), 27.5); ``carrier``
    of them fly from a carrier (experimental range rule)."""

    side: str
    airstrike: int = 1
    carrier: int = 0


@dataclass(frozen=True)
class ChooseAirstrikeLoss(Action):
    """The Communist player picks a unit an overrun airstrike's result hits, where it leaves him the choice."""

    side: str
    unit: str


@dataclass(frozen=True)
class AmphibiousAssault(Action):
    """Staging-area units invade an enemy-held coastal hex from an adjacent all-sea hex (Exp Naval
    Operations); ``supply`` spends supply to double them, with no line of supply."""

    units: tuple[str, ...]
    target: str
    sea: str
    supply: bool = False


EXPERIMENTAL_ACTIONS = (GoUnderground, Resurface, EndUnderground, CallAirstrike, ChooseAirstrikeLoss,
                        AmphibiousAssault)





def _whole(n, rule: str, what: str) -> None:
    if not isinstance(n, int) or isinstance(n, bool) or n < 0:
        raise RuleViolation(rule, f"{what} must be a whole number of 0 or more, not {n!r}")


# --------------------------------------------------------------------------- the mixin

class ExperimentalPlay:
    """The experimental rules and the airstrikes of 27.5 for :class:`~wargames.indochina.game.Game`."""

    # ------------------------------------------------------------------ the position
    def _exp_setup(self) -> None:
        #: hidden: unit -> [hex it left, step it left in]; step: the open Underground step (or None);
        #: steps: Underground steps opened so far; closing: the step just closed (the phase may end);
        #: carrier: carrier-based overrun strikes this phase [turn, phase index, groups]; strike: an overrun
        #: airstrike waiting for the owner's loss choice.
        self.exp = {"hidden": {}, "step": None, "steps": 0, "closing": False, "carrier": [0, 0, 0],
                    "strike": None}

    def _exp_position(self) -> dict:
        e = self.exp
        return {"hidden": {u: list(v) for u, v in sorted(e["hidden"].items())}, "step": e["step"],
                "steps": e["steps"], "carrier": list(e["carrier"]),
                "strike": None if e["strike"] is None else dict(e["strike"])}

    def _exp_visible(self, viewer: Side) -> dict:
        """What ``viewer`` sees of this part: the Communist player his own records; the FEF player only how
        many units are underground (the hexes they left are the Communist player's record)."""
        pos = self._exp_position()
        if viewer is Side.FEF:
            pos["hidden"] = len(pos["hidden"])
        return pos

    def _exp_invariants(self) -> list[str]:
        out, st, cb = [], self.state, self.combat
        for uid, (label, _) in self.exp["hidden"].items():
            u = st.units.get(uid)
            if u is None:
                out.append(f"{uid} is underground but is not a unit ({UNDERGROUND})")
                continue
            if u.hex is not None or u.eliminated:
                out.append(f"{uid} is underground but also on the map or eliminated ({UNDERGROUND})")
            if u.side is not Side.COMMUNIST or u.counter.type not in HIDING_TYPES:
                out.append(f"{uid} is underground but is no Communist cadre, guerrilla or militia ({UNDERGROUND})")
        if (self.exp["strike"] is None) != (cb is None or cb["stage"] != "airstrike"):
            out.append(f"an overrun airstrike's loss choice and its combat disagree ({OVERRUN_STRIKE})")
        if self.exp["step"] is not None and self.phase.kind != "movement":
            out.append(f"an Underground step is open outside a Movement Phase ({UNDERGROUND})")
        if cb is not None and cb.get("kind") == "amphibious":
            sea = st.map.hex(cb["landing"]["sea"])
            if any(st.unit(u).on_map and st.unit(u).hex not in (sea, st.map.hex(cb["hex"])) for u in cb["attackers"]):
                out.append(f"a landing unit is neither at sea nor on the beach ({NAVAL})")
        return out

    # ------------------------------------------------------------------ prompts and candidates
    def _exp_decision(self) -> tuple[str, str, str, str] | None:
        e, cb = self.exp, self.combat
        if e["strike"] is not None:
            need = e["strike"]["need"]
            return (Side.COMMUNIST.value, TABLE_RULE, f"choose {need['n']} of {', '.join(need['candidates'])} in "
                    f"{e['strike']['hex']} for the overrun airstrike to {need['action']}", "loss")
        if e["step"] is not None:
            return (Side.COMMUNIST.value, UNDERGROUND, "take cadres, guerrillas and militia off the map or bring "
                    "hidden units back, then end the Underground step", "underground")
        return None

    def _exp_open(self) -> bool:
        """Whether a step of this module waits for an answer (its actions are then the only ones)."""
        return self.exp["strike"] is not None or self.exp["step"] is not None

    def _exp_candidates(self) -> list[Action]:
        st, e, cb = self.state, self.exp, self.combat
        if e["strike"] is not None:
            return [ChooseAirstrikeLoss(Side.COMMUNIST.value, u) for u in e["strike"]["need"]["candidates"]]
        out = []
        for u in sorted(st.on_map(Side.COMMUNIST), key=lambda u: u.id):
            if u.counter.type in HIDING_TYPES:
                out.append(GoUnderground(u.id))
        for uid, (label, n) in sorted(e["hidden"].items()):
            if n < e["step"]:
                h = st.map.hex(label)
                out += [Resurface(uid, st.label(x)) for x in [h, *st.map.neighbors(h)]]
        return out + [EndUnderground()]

    def check_action(self, action: Action) -> None:
        if isinstance(action, GoUnderground):
            self._check_go_underground(action)
        elif isinstance(action, Resurface):
            self._check_resurface(action)
        elif isinstance(action, EndUnderground):
            self._check_end_underground()
        elif isinstance(action, CallAirstrike):
            self._check_call(action)
        elif isinstance(action, ChooseAirstrikeLoss):
            self._check_strike_loss(action)
        elif isinstance(action, AmphibiousAssault):
            self._check_assault(action)
        else:
            super().check_action(action)

    # ------------------------------------------------------------------ Going Underground
    def _underground(self) -> GoingUnderground:
        st = self.state
        return GoingUnderground(bool(self.ruleset["underground"]),
                                {u: (st.map.hex(lab), n) for u, (lab, n) in self.exp["hidden"].items()})

    def _underground_step(self) -> int:
        if not self.ruleset["underground"]:
            raise RuleViolation(UNDERGROUND, "the experimental Going Underground rule is not in use")
        if self.exp["step"] is None:
            self._no_decision()
            raise RuleViolation(UNDERGROUND, "units go underground or resurface only in an Underground step, at "
                                             "the end of a Movement Phase")
        return self.exp["step"]

    @implements(UNDERGROUND)
    def _exp_underground_opens(self, res: Resolution) -> bool:
        """At the end of either Movement Phase, with the rule in use, open the Underground step (and keep the
        phase going) unless the Communist player has nothing to hide or bring back."""
        e = self.exp
        if e["closing"]:
            e["closing"] = False
            return False
        if self.phase.kind != "movement" or not self.ruleset["underground"]:
            return False
        if not e["hidden"] and not any(u.counter.type in HIDING_TYPES for u in self.state.on_map(Side.COMMUNIST)):
            return False
        e["steps"] += 1
        e["step"] = e["steps"]
        res.add(UNDERGROUND, f"the {self.phase.id} Phase ends with Underground step {e['step']}: the Communist "
                             "player may hide cadres, guerrillas and militia or bring hidden units back")
        return True

    def _check_go_underground(self, a: GoUnderground):
        n = self._underground_step()
        st = self.state
        if not isinstance(a.unit, str) or a.unit not in st.units:
            raise RuleViolation(UNDERGROUND, f"{a.unit!r} is not a unit")
        trial = st.copy()
        out = self._underground().go_underground(trial, a.unit, n)
        return n, out

    @handles(GoUnderground)
    @implements(UNDERGROUND, "IC 17.33")
    def _go_underground(self, a: GoUnderground, dice, res: Resolution) -> None:
        n, _ = self._check_go_underground(a)
        gu = self._underground()
        res.extend(gu.go_underground(self.state, a.unit, n))
        self.exp["hidden"] = {u: [self.state.label(h), k] for u, (h, k) in gu.hidden.items()}
        revert_abandoned_cities(self.state, res)

    def _check_resurface(self, a: Resurface):
        n = self._underground_step()
        st = self.state
        if not isinstance(a.unit, str) or not isinstance(a.hex, str):
            raise RuleViolation(UNDERGROUND, "a unit resurfaces by its id on a hex label")
        h = st.map.hex(a.hex)
        if st.fef_militia(h) > 0:
            raise RuleViolation(UNDERGROUND, f"{a.hex} holds FEF militia, an enemy unit in its hex (17.13)")
        if a.unit in st.units and st.unit(a.unit).counter.type == "militia":
            if any(u.counter.type == "militia" for u in st.units_at(h, Side.COMMUNIST)):
                raise RuleViolation("IC 17.35", f"{a.hex} already holds a Communist militia")
            if a.hex in st.neutral_cities:
                raise RuleViolation("IC 17.35", f"{a.hex} is held by nobody: entering it raises a militia there "
                                                "(38 Introductory f), and a hex holds one militia")
        self._underground().resurface(st.copy(), a.unit, a.hex, n)
        return n

    @handles(Resurface)
    @implements(UNDERGROUND)
    def _resurface(self, a: Resurface, dice, res: Resolution) -> None:
        n = self._check_resurface(a)
        gu = self._underground()
        res.extend(gu.resurface(self.state, a.unit, a.hex, n))
        self.exp["hidden"] = {u: [self.state.label(h), k] for u, (h, k) in gu.hidden.items()}

    def _check_end_underground(self) -> None:
        self._underground_step()

    @handles(EndUnderground)
    def _end_underground(self, a: EndUnderground, dice, res: Resolution) -> None:
        self._check_end_underground()
        res.add(UNDERGROUND, f"Underground step {self.exp['step']} is over "
                f"({len(self.exp['hidden'])} unit(s) underground)")
        self.exp["step"] = None
        self.exp["closing"] = True
        self._next_phase(res)

    # ------------------------------------------------------------------ airstrikes in overruns (27.5)
    def _exp_carriers_left(self) -> int:
        """Experimental range rule: carrier-based groups still free this phase outside the Air Phases."""
        if not self.ruleset["aircraft_range"]:
            return 0
        turn, index, n = self.exp["carrier"]
        used = n if (turn, index) == (self.turn, self.phase_index) else 0
        return max(0, 2 - used)

    def _air_target_of(self, cb: dict) -> str:
        """27.3(2): the defender's hex when the FEF attacks, the attackers' hex when it defends."""
        if cb["side"] == Side.FEF.value:
            return cb["hex"]
        st = self.state
        here = [st.unit(u).hex for u in cb["attackers"] if st.unit(u).on_map]
        return st.label(here[0]) if here else cb["hex"]

    def _exp_combat_offers(self, cb: dict) -> list[Action]:
        """27.3(2): while an overrun or ambush waits to be resolved (until its CRT is chosen), the FEF may call
        airstrike groups against the enemy hex, once per combat; the combat's own prompt stays as it is."""
        if cb["kind"] not in ("overrun", "ambush") or cb["stage"] not in AIR_WINDOW or cb.get("air_called") \
                or not int(self.air["available"].get(AIRSTRIKE, 0)):
            return []
        fef = Side.FEF.value
        have = int(self.air["available"].get(AIRSTRIKE, 0))
        out: list[Action] = [CallAirstrike(fef, g) for g in sorted({1, have})]
        left = self._exp_carriers_left()
        if left:
            out += [CallAirstrike(fef, g, min(g, left)) for g in sorted({1, have})]
        return out

    def _check_call(self, a: CallAirstrike):
        cb = self.combat
        if self.exp["strike"] is not None:
            self._no_decision()
        if cb is None or cb["kind"] not in ("overrun", "ambush"):
            raise RuleViolation(OVERRUN_STRIKE, "airstrikes are called into an overrun or ambush being declared")
        if cb["stage"] not in AIR_WINDOW:
            raise RuleViolation(OVERRUN_STRIKE, f"the {cb['kind']} on {cb['hex']} is being resolved: airstrikes "
                                                "come before the CRT is chosen (27.3)")
        if cb.get("air_called"):
            raise RuleViolation(OVERRUN_STRIKE, f"the FEF has already called airstrikes into this {cb['kind']}")
        if side_named(a.side) is not Side.FEF:
            raise RuleViolation(OVERRUN_STRIKE, f"the French player calls in airstrikes, not the {a.side} player")
        g = self.air["grounded"]
        if g is not None:
            raise RuleViolation(g["rule"], f"no air operation this turn: {g['why']}")
        if self._in_force("no air operations"):
            raise RuleViolation("IC 6.0", "this turn's event grounds the air units")
        _whole(a.airstrike, OVERRUN_STRIKE, "airstrike groups")
        _whole(a.carrier, RANGE_RULE, "carrier groups")
        if a.airstrike < 1:
            raise RuleViolation(OVERRUN_STRIKE, "call at least one airstrike group, or decline")
        have = int(self.air["available"].get(AIRSTRIKE, 0))
        if a.airstrike > have:
            raise RuleViolation("IC 12.21", f"{a.airstrike} airstrike group(s) wanted, but only {have} in the "
                                            "Available box")
        if a.carrier:
            if not self.ruleset["aircraft_range"]:
                raise RuleViolation(RANGE_RULE, "the experimental Aircraft Range rule is not in use: no strike "
                                                "flies from a carrier")
            if a.carrier > a.airstrike:
                raise RuleViolation(RANGE_RULE, f"{a.carrier} carrier-based groups out of {a.airstrike}")
            check_carrier_basing(2 - self._exp_carriers_left() + a.carrier)
        label = self._air_target_of(cb)
        strike = Strike(airstrike=a.airstrike)
        target = self._target(label)
        check_strike(target, strike)
        if self.ruleset["aircraft_range"]:
            strike = Strike(airstrike=a.airstrike, ranges=flight_ranges(
                self.state, self.state.map.hex(label), a.airstrike, a.carrier))
        return label, target, strike

    def _overrun_bombard(self, target, strike, dice, picks: list[str]) -> Resolution:
        cursor = [0]

        def choose(action, pool, n):
            got = picks[cursor[0]:cursor[0] + n]
            if len(got) < n:
                raise NeedPick(action, [u.id for u in pool if u.id not in got], n - len(got))
            cursor[0] += n
            return got

        return airstrike(dice, target, strike, overrun=True, errata=self.ruleset["bombardment_errata"],
                         table=self.ruleset.chart("bombardment"), choose=choose)

    @handles(CallAirstrike)
    @implements(OVERRUN_STRIKE, "IC 27.3", RANGE_RULE)
    def _call_airstrike(self, a: CallAirstrike, dice, res: Resolution) -> None:
        label, target, strike = self._check_call(a)
        cb = self.combat
        cb["air_called"] = True
        if a.carrier:
            turn, index, n = self.exp["carrier"]
            n = n if (turn, index) == (self.turn, self.phase_index) else 0
            self.exp["carrier"] = [self.turn, self.phase_index, n + a.carrier]
        res.add(OVERRUN_STRIKE, f"{a.airstrike} airstrike group(s) called against {label}"
                + (f", {a.carrier} from a carrier" if a.carrier else ""))
        kept = KeptDice(dice)
        try:
            out = self._overrun_bombard(target, strike, kept, [])
        except NeedPick as e:
            self.exp["strike"] = {"hex": label, "airstrike": a.airstrike, "ranges": list(strike.ranges),
                                  "roll": kept.values[0], "picks": [],
                                  "need": {"action": e.action, "candidates": e.candidates, "n": e.n}}
            cb["after_air"], cb["stage"] = cb["stage"], "airstrike"     # the combat waits for the pick
            res.add("IC 12.33", f"roll {kept.values[0]}: the result leaves the choice to the Communist player",
                    roll=kept.values[0])
            return
        self._exp_strike_done(out, a.airstrike, res)

    def _check_strike_loss(self, a: ChooseAirstrikeLoss) -> dict:
        s = self.exp["strike"]
        if s is None:
            self._no_decision()
            raise RuleViolation(TABLE_RULE, "no overrun airstrike waits for the owner's choice")
        if side_named(a.side) is not Side.COMMUNIST:
            raise RuleViolation(TABLE_RULE, f"the owner of the struck units (Communist) chooses, not the {a.side} "
                                            "player")
        if not isinstance(a.unit, str) or a.unit not in s["need"]["candidates"]:
            raise RuleViolation(TABLE_RULE, f"{a.unit} is not one of {', '.join(s['need']['candidates'])}")
        return s

    @handles(ChooseAirstrikeLoss)
    def _choose_airstrike_loss(self, a: ChooseAirstrikeLoss, dice, res: Resolution) -> None:
        s = self._check_strike_loss(a)
        s["picks"].append(a.unit)
        res.add(TABLE_RULE, f"the Communist player picks {a.unit} to {s['need']['action']}")
        strike = Strike(airstrike=s["airstrike"], ranges=tuple(s["ranges"]))
        try:
            out = self._overrun_bombard(self._target(s["hex"]), strike,
                                        ScriptedDice([s["roll"]], source="the kept overrun airstrike roll"),
                                        list(s["picks"]))
        except NeedPick as e:
            s["need"] = {"action": e.action, "candidates": e.candidates, "n": e.n}
            return
        self.exp["strike"] = None
        self._exp_strike_done(out, s["airstrike"], res)

    @implements("IC 12.36", "IC 12.53", "IC 17.34")
    def _exp_strike_done(self, out: Resolution, groups: int, res: Resolution) -> None:
        """The overrun airstrike's result stands; the groups go to Completed (or are shot down); the combat goes
        on with what is left."""
        res.extend(out)
        o: StrikeOutcome = out.result
        st, air = self.state, self.air
        for uid in o.eliminated:
            st.unit(uid).eliminated = True
        for uid in o.disrupted:
            disrupt(st.unit(uid), "bombardment", res)
        air["available"][AIRSTRIKE] = int(air["available"].get(AIRSTRIKE, 0)) - groups
        if not air["available"][AIRSTRIKE]:
            del air["available"][AIRSTRIKE]
        if groups - o.air_lost:
            air["completed"][AIRSTRIKE] = int(air["completed"].get(AIRSTRIKE, 0)) + groups - o.air_lost
        if o.air_lost:
            air["eliminated"][AIRSTRIKE] = int(air["eliminated"].get(AIRSTRIKE, 0)) + o.air_lost
        res.add("IC 12.36", "the airstrike groups go to the Completed box"
                + (f"; {o.air_lost} shot down are out of play (12.53)" if o.air_lost else ""))
        revert_abandoned_cities(st, res)
        self._exp_resume_combat(res)

    @implements("IC 27.3")
    def _exp_resume_combat(self, res: Resolution) -> None:
        """After the airstrike step: the combat is fought with the units left (27.3(3)); with no defender or
        no attacker left there is nothing to resolve."""
        cb, st = self.combat, self.state
        cb["stage"] = cb.pop("after_air", cb["stage"])
        c: Combat = cb["combat"]
        h = st.map.hex(cb["hex"])
        attackers = [u for u in cb["attackers"] if st.unit(u).on_map and not st.unit(u).parenthesized
                     and st.unit(u).strength > 0]
        defenders = st.units_at(h, c.defender)
        if not attackers or not defenders:
            who = "attacker" if not attackers else "defender"
            res.add("IC 27.3", f"no {who} is left after the airstrike: the {cb['kind']} is not resolved")
            self.combat = None
            force = cb.get("force")
            if force is not None:
                force.units = [u for u in force.units if st.unit(u).on_map]
                force.stopped = force.stopped or not force.units
            if cb["kind"] == "ambush" and attackers:
                self._go_on(cb["moving"], res)
            return
        cb["attackers"] = attackers
        cb["combat"] = dataclasses.replace(c, attack=tuple(st.unit(u).strength for u in attackers),
                                           defence=tuple(u.strength for u in defenders))
        if cb["stage"] == "defend" and stack_total(st, h, c.defender) <= stacking_limit(st, h):
            cb["stage"] = "enhance"                      # the losses ended the overstacking (10.22)
        self._skip_enhancement()

    # ------------------------------------------------------------------ Naval Operations
    def _naval(self) -> NavalOperations:
        return NavalOperations(bool(self.ruleset["naval_operations"]))

    def _check_assault(self, a: AmphibiousAssault):
        naval = self._naval()
        if not naval.enabled:
            raise RuleViolation(NAVAL, "the experimental Naval Operations rule is not in use")
        self._check_staging_move(NAVAL)
        if not isinstance(a.units, tuple) or not a.units or len(set(a.units)) != len(a.units):
            raise RuleViolation(NAVAL, "name each landing unit once")
        if not all(isinstance(x, str) for x in (*a.units, a.target, a.sea)) or not isinstance(a.supply, bool):
            raise RuleViolation(NAVAL, "an assault names units, a target hex, a sea hex and whether supply is spent")
        st = self.state
        for uid in a.units:
            if uid not in self.staging.units:
                raise RuleViolation(NAVAL, f"{uid} is not in the Far Eastern Staging Area")
            self.staging.check_may_move(uid)
            if st.unit(uid).strength <= 0 or st.unit(uid).parenthesized:
                raise RuleViolation("IC 2.31", f"{uid} has no attack strength")
        h = st.map.hex(a.target)
        if h not in self._indochina_coast():
            raise RuleViolation("IC 23.12", f"{a.target} is not a coastal land hex of Vietnam, Laos or Cambodia")
        if a.supply:
            cost = logistical_cost("attack")
            if self.logistics.points[Side.FEF] < cost:
                raise RuleViolation(NAVAL, f"invasion supply costs {cost} supply point(s); the FEF has "
                                           f"{self.logistics.points[Side.FEF]}")
        naval.amphibious_assault(st.copy(), copy.deepcopy(self.staging), a.units, a.target, a.sea)
        return naval

    def _exp_assault_candidates(self) -> list[Action]:
        """Assaults worth offering in the FEF Movement Phase: each staging unit alone, and all of them, against
        each enemy-held coastal hex next to an all-sea hex, with and without invasion supply."""
        if not self.ruleset["naval_operations"] or not self.staging.units or self.phase.id != "FEF Movement":
            return []
        st = self.state
        ready = sorted(u for u in self.staging.units if u not in self.staging.spent)
        if not ready:
            return []
        groups = [(u,) for u in ready] + ([tuple(ready)] if len(ready) > 1 else [])
        enemy = {u.hex for u in st.on_map(Side.COMMUNIST)}
        out: list[Action] = []
        for h in self._indochina_coast():
            if h not in enemy:
                continue
            for sea in sorted((n for n in st.map.neighbors(h) if st.terrain(n) == "all_sea"), key=st.label)[:1]:
                for g in groups:
                    out.append(AmphibiousAssault(g, st.label(h), st.label(sea)))
                    if self.logistics.points[Side.FEF] >= logistical_cost("attack"):
                        out.append(AmphibiousAssault(g, st.label(h), st.label(sea), True))
        return out

    @handles(AmphibiousAssault)
    @implements(NAVAL, "IC 23.12")
    def _amphibious_assault(self, a: AmphibiousAssault, dice, res: Resolution) -> None:
        naval = self._check_assault(a)
        st = self.state
        res.extend(naval.amphibious_assault(st, self.staging, a.units, a.target, a.sea))
        sea, h = st.map.hex(a.sea), st.map.hex(a.target)
        for uid in a.units:
            self.staging.units.discard(uid)
            st.unit(uid).hex = sea
        self.moved.update(a.units)
        strengths = tuple(st.unit(u).strength for u in a.units)
        if a.supply:
            res.extend(naval.invasion_supply(self.logistics, strengths))
        defence, militia_alone = defending_strengths(st, h)
        c = Combat(Side.FEF, strengths, defence, attack_enhanced=a.supply, terrain=combat_terrain(st, h),
                   fortified=self._fortified(h, Side.COMMUNIST), monsoon=st.monsoon, militia_alone=militia_alone,
                   attackers_all_light=all(st.unit(u).counter.unit_class == "Light" for u in a.units))
        self._start_combat("amphibious", c, list(a.units), a.target, res)
        self.combat["landing"] = {"sea": a.sea, "units": list(a.units)}

    @implements(NAVAL)
    def _exp_after_losses(self) -> None:
        """An amphibious assault: landing units the result makes retreat go back to the staging area instead;
        a result that lets them advance lets them land, one hex only."""
        cb = self.combat
        if cb is None or cb["kind"] != "amphibious":
            return
        cb["retreats"] = [u for u in cb["retreats"] if u not in cb["landing"]["units"]]
        cb["advance"] = min(1, cb["advance"])

    @implements(NAVAL)
    def _exp_landing_done(self, cb: dict, res: Resolution) -> None:
        """After the assault: units on the beach have landed (their move is over, 23.122); units still at sea
        go back to the staging area with no further penalty."""
        st = self.state
        sea, beach = st.map.hex(cb["landing"]["sea"]), st.map.hex(cb["hex"])
        back, landed = [], []
        for uid in cb["landing"]["units"]:
            u = st.unit(uid)
            if not u.on_map:
                continue
            if u.hex == beach:
                landed.append(uid)
                self.staging.spent.add(uid)
            elif u.hex == sea:
                u.hex = None
                self.staging.units.add(uid)
                self.staging.spent.add(uid)
                back.append(uid)
        if landed:
            res.add(NAVAL, f"{', '.join(landed)} land on {cb['hex']}")
        if back:
            res.add(NAVAL, f"{', '.join(back)} go back to the Far Eastern Staging Area, no further penalty")

    # ------------------------------------------------------------------ river and coastal traffic
    @implements(NAVAL, "IC 15.2")
    def _exp_water_line(self, side: Side, h) -> bool:
        """With Naval Operations in use, a line of supply the land search missed may still cross lake and sea
        hexes (remembered per position and hex while the legal actions are listed)."""
        if not self.ruleset["naval_operations"]:
            return False
        key = (len(self.history), self.phase_index)
        memo = getattr(self, "_water_memo", None)
        if memo is None or memo[0] != key:
            memo = (key, {})
            self._water_memo = memo
        if (side, h) not in memo[1]:
            got = self._naval().trace_water_los(self.state, side, h, self.logistics.year)
            memo[1][(side, h)] = got.result is not None
        return memo[1][(side, h)]
