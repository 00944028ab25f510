"""Rule 18.4 in play: DNA amphibious movement as actions of :class:`~wargames.indochina.game.Game`.

:class:`RiverinePlay` is a mixin of the game. In the FEF Movement Phase:

1. :class:`Embark` puts one friendly regiment or group (never a division, nor militia) aboard a DNA in its hex,
   before either has moved, at no movement cost (18.41(1), 18.42);
2. the DNA's ordinary ``Move`` carries it (18.41(2)); the passenger makes no move of its own this phase, alone,
   in a force or in an overrun (18.44);
3. :class:`Disembark` sets it down in the DNA's hex, at no cost, and the DNA moves no further (18.42, 18.44);
   whatever is still aboard when the phase ends is set down there automatically (18.41(3), 18.42): the rule
   leaves no choice of place, so there is no prompt, only a line in the log.

A DNA (with or without a passenger) may overrun an adjacent enemy hex from where it starts, and a moving DNA
may be ambushed; the passenger's factors do not count and it shares the DNA's fate: it goes where the DNA retreats, is disrupted when the DNA is,
and is eliminated with it (18.43). The passenger is a unit on the map in the DNA's hex all along, so it counts
for stacking there (18.42) and a carried base supplies from there like any base (18.45).

Readings: the passenger lands in the DNA's own hex (no rule moves it on to another hex); a DNA carrying a unit
may not end its move where the unit could not be set down (9.5); a DNA that has moved takes nobody aboard
(18.41(1): both start in the hex); "disrupted" in 18.43 is the DNA's disruption passed on, with the usual
effect of a second disruption (14.4).

A DNA moves hex by hex, so where a step goes from one enemy ZOC into another the Communist player may ambush it
(28.1); the ambush is fought by the DNA alone, and its passenger shares the result as in an overrun (18.43).

Not in play: the passenger's record ends with the Movement Phase, so an air transport later in the same game
turn is not refused (18.44).

The riverine part of the position is ``self.riverine`` (a :class:`~wargames.indochina.riverine.RiverineTurn`),
shown by :meth:`RiverinePlay._dna_position`; a combat the DNA fights keeps what it needs in the combat record.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from fractions import Fraction

from ..core.actions import Action
from ..core.errors import RuleViolation
from ..core.game import handles
from ..core.log import Resolution
from ..core.rules import implements
from .combat import Side
from .riverine import disembark, dna_move, embark, end_of_movement, is_dna, landing_problem, passenger_shares_fate


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class Embark(Action):
    """Put ``unit`` aboard the DNA ``dna`` in its hex (18.41(1), 18.42)."""

    dna: str
    unit: str


@dataclass(frozen=True)
class Disembark(Action):
    """Set the DNA's passenger down in the DNA's hex; the DNA moves no further this phase (18.42, 18.44)."""

    dna: str


RIVERINE_ACTIONS = (Embark, Disembark)


# --------------------------------------------------------------------------- the mixin

class RiverinePlay:
    """DNA amphibious movement for :class:`~wargames.indochina.game.Game` (18.4-18.45)."""

    # ------------------------------------------------------------------ the position
    def _dna_position(self) -> dict:
        t = self.riverine
        return {"carried": dict(sorted(t.carried.items())), "moved": sorted(t.moved),
                "carried_this_turn": sorted(t.carried_this_turn), "dropped": sorted(t.dropped)}

    def _dna_invariants(self) -> list[str]:
        st, t, out = self.state, self.riverine, []
        if t.carried and self.phase.kind != "movement":
            out.append(f"units still aboard a DNA outside a Movement Phase: {sorted(t.carried.values())} (IC 18.42)")
        for dna, uid in t.carried.items():
            d, u = st.unit(dna), st.unit(uid)
            if not (d.on_map and u.on_map and d.hex == u.hex):
                out.append(f"{uid} is aboard {dna} but not in its hex (IC 18.41)")
        if len(set(t.carried.values())) != len(t.carried):
            out.append("a unit is aboard two DNAs (IC 18.42)")
        return out

    # ------------------------------------------------------------------ prompts and candidates
    def _dna_candidates(self) -> list[Action]:
        """Boarding, landing, and a DNA's overrun from its hex (the passenger stays out of it, 18.43): the
        actions worth offering, which the checks then sort."""
        st, t, side = self.state, self.riverine, self.phase.side
        out: list[Action] = []
        for d in sorted((u for u in st.on_map(side) if is_dna(u)), key=lambda u: u.id):
            if t.passenger(d.id):
                out.append(Disembark(d.id))
            elif d.id not in self.moved:
                out += [Embark(d.id, u.id) for u in sorted(st.units_at(d.hex, side), key=lambda u: u.id)
                        if u is not d]
            if d.id not in self.moved:
                out += [self._overrun_action((d.id,), st.label(n)) for n in st.map.neighbors(d.hex)
                        if st.units_at(n, side.enemy)]
        return out

    # ------------------------------------------------------------------ checks
    def check_action(self, action: Action) -> None:
        if isinstance(action, Embark):
            self._check_embark(action)
        elif isinstance(action, Disembark):
            self._check_disembark(action)
        else:
            super().check_action(action)

    def _dna_phase_checks(self, rule: str, what: str) -> None:
        if self.phase.kind != "movement" or self.phase.side is not Side.FEF:
            raise RuleViolation(rule, f"{what} happens in the FEF Movement Phase, not in the {self.phase.id} Phase")
        self._no_decision()

    def _check_embark(self, a: Embark) -> None:
        self._dna_phase_checks("IC 18.41", "boarding a DNA")
        st = self.state
        u = st.unit(a.unit)
        if u.counter.type == "militia":
            raise RuleViolation("IC 17.3", f"{a.unit} is militia, which never moves")
        if a.dna in self.riverine.dropped:
            raise RuleViolation("IC 18.44", f"{a.dna} has set a unit down this phase and takes no other")
        if a.dna in self.moved:
            raise RuleViolation("IC 18.41", f"{a.dna} has already moved: a unit boards where both start the phase")
        if a.unit in self.moved:
            raise RuleViolation("IC 18.41", f"{a.unit} has already moved this phase: it must start in the DNA's hex")
        for uid in (a.dna, a.unit):
            self.staging.check_may_move(uid)
        embark(st.copy(), self._dna_turn_copy(), a.dna, a.unit)

    def _check_disembark(self, a: Disembark) -> None:
        self._dna_phase_checks("IC 18.41", "setting a unit down from a DNA")
        disembark(self.state.copy(), self._dna_turn_copy(), a.dna)

    def _dna_turn_copy(self):
        return copy.deepcopy(self.riverine)

    @implements("IC 18.44")
    def _dna_check_movers(self, units, path=None) -> None:
        """18.44: a unit carried this phase makes no move of its own (alone, in a force or an overrun), and a DNA
        that has set its passenger down moves no further; a DNA with a passenger ends its move where the
        passenger can be set down (9.5). For the game's move, force and overrun checks to call."""
        t, st = self.riverine, self.state
        for uid in units:
            if uid in t.carried_this_turn:
                raise RuleViolation("IC 18.44", f"{uid} is carried by DNA this turn and may make no other move")
            if uid in t.dropped:
                raise RuleViolation("IC 18.44", f"{uid} has set a unit down and may not move on this phase")
        if path and len(units) == 1 and t.passenger(units[0]):
            rider = t.passenger(units[0])
            problem = landing_problem(st, rider, st.map.hex(path[-1]))
            if problem:
                raise RuleViolation("IC 9.5", f"{units[0]} carries {rider}, which it must set down where it ends "
                                              f"its move (18.42): {problem}")

    # ------------------------------------------------------------------ handlers
    @handles(Embark)
    @implements("IC 18.4", "IC 18.41", "IC 18.42")
    def _embark(self, a: Embark, dice, res: Resolution) -> None:
        self._check_embark(a)
        res.extend(embark(self.state, self.riverine, a.dna, a.unit))

    @handles(Disembark)
    @implements("IC 18.41", "IC 18.42", "IC 18.44")
    def _disembark(self, a: Disembark, dice, res: Resolution) -> None:
        self._check_disembark(a)
        res.extend(disembark(self.state, self.riverine, a.dna))

    # ------------------------------------------------------------------ the DNA's move, open to ambush
    @implements("IC 18.1", "IC 18.41", "IC 28.1")
    def _dna_walk(self, uid: str, path: list[str], spent: Fraction, res: Resolution) -> None:
        """Move a DNA (and its passenger, 18.41(2)) hex by hex along the water; where a step goes from one
        enemy ZOC into another and a hex may ambush, stop and ask the non-phasing player (28.1), as for any
        unit. For the game's Move to call."""
        st, t = self.state, self.riverine
        self.moved.add(uid)
        self._walk(uid, path, spent, res, step_by=lambda label, done: dna_move(st, uid, [label], t, already_spent=done))

    def _dna_go_on(self, uid: str, rest: list[str], amb: dict, res: Resolution) -> None:
        """After an ambush that did not stop it (or none), the DNA follows the rest of its path (28.52)."""
        try:
            dna_move(self.state.copy(), uid, rest, copy.deepcopy(self.riverine), already_spent=amb["spent"])
        except RuleViolation as e:
            res.add("IC 28.52", f"{uid} stops in {amb['at']}: the rest of its path is no longer open ({e.reason})")
            return
        self._dna_walk(uid, rest, Fraction(amb["spent"]), res)

    # ------------------------------------------------------------------ the end of the Movement Phase
    @implements("IC 18.41", "IC 18.42")
    def _dna_end_of_movement(self, res: Resolution) -> None:
        """18.41(3), 18.42: whatever is still aboard is set down in its DNA's hex as the Movement Phase ends
        (no choice is left to the player). A passenger that could not be set down there is lost with nowhere to
        go (our reading; legal play never leaves a carrier on a lake: the Move check keeps it off, and no zone
        of control, retreat or ambush reaches an all-lake hex). For the game's end of phase to call."""
        st, t = self.state, self.riverine
        for dna in sorted(t.carried):
            uid = t.carried[dna]
            problem = landing_problem(st, uid, st.unit(dna).hex)
            if problem:
                u = st.unit(uid)
                u.eliminated, u.hex = True, None
                del t.carried[dna]
                res.add("IC 18.42", f"{problem}, and it must be set down as the movement ends: it is eliminated")
        if t.carried:
            res.add("IC 18.41", "the Movement Phase ends: every unit still aboard a DNA is set down in its hex")
            res.extend(end_of_movement(st, t))

    # ------------------------------------------------------------------ combat (18.43)
    def _dna_combat_started(self, cb: dict) -> None:
        """Note, for each DNA with a passenger in this combat, whether it was disrupted when the combat began;
        a carried base goes into the combat's bases (a lost base, 15.6). For the game's combat start to call."""
        st, t = self.state, self.riverine
        aboard = {}
        for dna, uid in sorted(t.carried.items()):
            if dna in cb["attackers"]:                  # only the phasing FEF carries: its DNA attacks
                aboard[dna] = {"passenger": uid, "disrupted": st.unit(dna).disrupted}
                if st.unit(uid).counter.type == "base" and uid not in cb["bases"]:
                    cb["bases"] = sorted([*cb["bases"], uid])
        if aboard:
            cb["dna"] = aboard

    @implements("IC 18.43")
    def _dna_combat_over(self, cb: dict, res: Resolution) -> None:
        """18.43: the passenger shares what the combat did to its DNA: it is eliminated with it, disrupted when
        it was disrupted, and goes where it retreated or advanced. For the game's end of combat to call."""
        st, t = self.state, self.riverine
        for dna, was in sorted(cb.get("dna", {}).items()):
            d, uid = st.unit(dna), was["passenger"]
            if not d.on_map:
                res.extend(passenger_shares_fate(st, t, dna, "eliminated"))
                continue
            if d.disrupted and not was["disrupted"]:
                res.extend(passenger_shares_fate(st, t, dna, "disrupted"))
            u = st.unit(uid)
            if u.on_map and u.hex != d.hex:
                u.hex = d.hex
                res.extend(passenger_shares_fate(st, t, dna, "retreat"))
