"""NT 11-12 in play: the Allied air missions of the Allied Reaction and Air Operations phases through ``Game.apply``.

The Allied player puts the phase's missions in the air in one action (:class:`FlyMissions`, 11.2), and the
unavailable box comes back; then each mission is resolved in turn (:class:`ResolveMission`): the dogfight over a
zone with interceptors (11.5), the anti-aircraft fire (12.1-12.2), and the bombing, ground support or supply.
Each choice the rules give a player after the dice is a prompt: the Allied player's losses
(:class:`ChooseAirLosses`), the interceptors the Communist player gives up (:class:`ChooseInterceptors`), and the
unit a bomb destroys (:class:`ChooseVictims`). The dice of a mission are rolled once; when a choice follows them,
they are kept in the position and the mission is finished with the same values once the player has chosen.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..core.actions import Action
from ..core.dice import Preceded, RecordingDice
from ..core.errors import RuleViolation
from ..core.game import handles
from ..core.log import Resolution
from ..core.rules import implements
from . import air
from . import neutrality as nt10

AIR_PHASES = (air.REACTION_PHASE, air.AIR_PHASE)


@dataclass(frozen=True)
class FlyMissions(Action):
    """NT 11.2: the phase's missions, each (kind, target, air units); kind is bombing, ground_support, supply or
    transport (a transport's target is the ground unit the helicopter joins)."""

    missions: tuple[tuple[str, str, tuple[str, ...]], ...]


@dataclass(frozen=True)
class ResolveMission(Action):
    """NT 11-12: resolve the next mission in the air (its dogfight, its anti-aircraft fire, then its effect)."""


@dataclass(frozen=True)
class ChooseAirLosses(Action):
    """NT 12.1.1, 11.5: the Allied air units the hits bring down, chosen by the Allied player."""

    units: tuple[str, ...]


@dataclass(frozen=True)
class ChooseInterceptors(Action):
    """NT 11.5: the interceptors the Communist player loses in a dogfight."""

    units: tuple[str, ...]


@dataclass(frozen=True)
class ChooseVictims(Action):
    """NT 11.1.1.2: the Communist units a successful bombing destroys, in the order he gives them up."""

    units: tuple[str, ...]


AIR_ACTIONS = (FlyMissions, ResolveMission, ChooseAirLosses, ChooseInterceptors, ChooseVictims)


@dataclass
class AirBook:
    """The air war of the current phase and turn."""

    flown: bool = False                                 # FlyMissions made this phase
    flights: tuple = ()                                 # missions in the air, not yet resolved
    step: dict | None = None                            # the mission being resolved: its rolls and what is owed
    already_bombed: frozenset[str] = frozenset()        # NT 11.4: hexes strategically bombed this turn
    ground_support: tuple[tuple[str, int], ...] = ()    # NT 11.1.2: (hex, air units through) this turn
    supplied_from: tuple[str, ...] = ()                 # NT 11.1.3: each supply mission's hex or zone this turn
    politics: frozenset[str] = frozenset()              # NT 24.2.8: countries already charged this turn
    dogfought: frozenset[str] = frozenset()             # NT 11.5: zones whose dogfight is fought this phase
    bombed_towns: tuple[str, ...] = ()                  # NT 7.5: towns and cities bombed this phase

    def __deepcopy__(self, memo) -> "AirBook":
        new = dataclasses.replace(self)
        new.step = None if self.step is None else dict(self.step)
        return new


class AirPlay:
    """The Game's air missions (mixed into :class:`wargames.ntnd.game.Game`)."""

    def air_decision(self) -> tuple[str, str, str] | None:
        step = self.airbook.step
        if step is None:
            return None
        if step["owed"] == "allied_losses":
            return "allied", step["rule"], f"choose the air units lost over {step['mission'].target}"
        if step["owed"] == "interceptors":
            return "communist", "NT 11.5", f"choose {step['kills']} interceptor(s) lost over {step['mission'].target}"
        return "communist", "NT 11.1.1.2", f"choose the unit(s) the bombing of {step['mission'].target} destroys"

    def _air_phase(self, rule: str) -> None:
        self._require(*AIR_PHASES, rule=rule)

    @handles(FlyMissions)
    @implements("NT 11.2", "NT 11.3", "NT 8.8.1.2", "NT 3.2.5")
    def _fly(self, a: FlyMissions, dice, res: Resolution) -> None:
        """11.2: all the phase's missions are placed, then the unavailable box comes back; in the Allied reaction
        phase only ground support over the attackers of announced attacks (8.8.1.2, 11.3)."""
        self._air_phase("NT 11.2")
        b = self.airbook
        if b.flown:
            raise RuleViolation("NT 11.2", "the missions of a phase are placed all at once, and they are placed")
        try:
            missions = [air.Mission(kind, target, tuple(units)) for kind, target, units in a.missions]
        except (TypeError, ValueError):
            raise RuleViolation("NT 11.1", "each mission is (kind, target, air units)") from None
        if "no_allied_air_missions" in getattr(self.state.next_turn, "flags", ()) and missions:
            raise RuleViolation("NT 21.1", "a random event grounds the Allied air missions this turn")
        combat = None
        if self.phase.id == air.REACTION_PHASE:
            combat = {self.state.piece(u).location for att, _ in self.book.announced for u in att
                      if u in self.state.pieces}
        self.state = air.assign_missions(self.state, missions, already_bombed=b.already_bombed,
                                         combat_hexes=combat, res=res)
        self.state = air.refresh_unavailable(self.state, res)
        b.flown = True
        b.flights = tuple(m for m in missions if m.kind != "transport")
        b.already_bombed = b.already_bombed | {m.target for m in missions if m.kind == "bombing"
                                               and m.target not in self.state.geography.zones}
        self._air_politics(missions, dice, res)

    @implements("NT 24.2.8", "NT 23.5", "NT 10.2.3.1")
    def _air_politics(self, missions, dice, res: Resolution) -> None:
        """What the missions cost at once: 24.2.8 (each country once a turn), 23.5, and the neutral states that
        missions other than bombing violate (10.2.3.1)."""
        pol = air.air_politics(self.state, missions)
        st = self.state
        new_countries = pol.countries - self.airbook.politics
        cost = st.policy.air_operations_pp(len(new_countries)) + st.policy.bombing_pp(len(pol.us_bombed))
        self.airbook.politics = self.airbook.politics | new_countries
        if cost:
            st.track = st.track.add(-cost, st.policy, st.turn)
            res.add("NT 24.2.8", f"air operations cost {cost} political point(s)", result=-cost)
        broken = tuple(nt10.Violation("allied", c, m.units[0], m.target, "NT 10.2", f"air mission over {c}")
                       for c, m in pol.violations)
        self._neutrality(broken, None, dice, res)

    @handles(ResolveMission)
    @implements("NT 11.5")
    def _resolve_mission(self, a: ResolveMission, dice, res: Resolution) -> None:
        """The next mission: over a zone with interceptors the Allied fighters of every mission there dogfight
        first, once a phase (11.5); then the mission's anti-aircraft fire and its effect."""
        self._air_phase("NT 11.2")
        b = self.airbook
        if b.step is not None:
            raise RuleViolation(b.step["rule"], "a mission is waiting for a choice")
        if not b.flights:
            raise RuleViolation("NT 11.2", "no mission is in the air")
        m = b.flights[0]
        b.step = {"mission": m, "rule": "NT 12.1.1", "owed": None, "survivors": m.units, "shot_down": ()}
        over = [f for f in b.flights if f.target == m.target]
        fighters = [u for f in over for u in f.units if self.state.counter(u).type in air.FIGHTERS]
        if m.target in self.state.geography.zones and m.target not in b.dogfought and fighters \
                and air.interceptors_in(self.state, m.target):
            rec = RecordingDice(dice)
            try:
                air.dogfight(self.state, m.target, over, rec)
            except RuleViolation:
                pass                                   # a choice follows the rolls: asked for below
            b.step["dogfight_rolls"] = tuple(rec.values)
            b.dogfought = b.dogfought | {m.target}
            self._dogfight_or_ask(dice, res)
            return
        self._aa_fire(dice, res)

    def _dogfight_or_ask(self, dice, res: Resolution) -> None:
        """Settle the dogfight with its rolls once both players have chosen what they lose."""
        b, step = self.airbook, self.airbook.step
        m = step["mission"]
        over = [f for f in b.flights if f.target == m.target]
        mine = air.interceptors_in(self.state, m.target)
        n_f = len([u for f in over for u in f.units if self.state.counter(u).type in air.FIGHTERS])
        rolls = step["dogfight_rolls"]
        legal = air.legal_dogfight_losses(self.state, m.target, over, rolls[n_f:])
        if len(legal) > 1 and "dogfight_losses" not in step:
            step.update(owed="allied_losses", rule="NT 11.5", options=legal)
            return
        kills = min(sum(1 for r in rolls[:n_f] if r in air.FIGHTER_KILLS), len(mine))
        if 0 < kills < len(mine) and "interceptor_losses" not in step:
            step.update(owed="interceptors", kills=kills)
            return
        self.state, left, fought = air.dogfight(self.state, m.target, over, Preceded(rolls, dice),
                                                losses=step.get("dogfight_losses"),
                                                interceptor_losses=step.get("interceptor_losses"), res=res)
        survivors = {u for f in left for u in f.units}
        lost = {u for f in over for u in f.units} - survivors
        b.flights = tuple(air.Mission(f.kind, f.target, tuple(u for u in f.units if u not in lost))
                          if f.target == m.target else f for f in b.flights)
        b.flights = tuple(f for f in b.flights if f.units)
        step.update(owed=None, rule="NT 12.1.1", survivors=tuple(u for u in m.units if u not in lost),
                    shot_down=tuple(u for u in m.units if u in lost))
        if not step["survivors"]:
            b.step = None
            return
        self._aa_fire(dice, res)

    def _aa_fire(self, dice, res: Resolution) -> None:
        step = self.airbook.step
        fire = air.roll_aa(self.state, step["mission"], dice, targets=step["survivors"], charts=self._charts(),
                           res=res)
        step["fire"] = fire
        legal = air.legal_losses(fire)
        if len(legal) > 1:
            step.update(owed="allied_losses", rule="NT 12.1.1", options=legal)
            return
        step["losses"] = tuple(sorted(legal[0]))
        self._finish_mission(dice, res)

    def _finish_mission(self, dice, res: Resolution) -> None:
        b, step = self.airbook, self.airbook.step
        m, fire = step["mission"], step["fire"]
        if m.kind == "bombing":
            if "bomb_rolls" not in step:
                rec = RecordingDice(dice)
                try:
                    self.state, done = air.resolve_bombing(self.state, m, fire, rec, losses=step["losses"],
                                                           shot_down=step["shot_down"], res=res)
                except RuleViolation as e:
                    if e.rule != "NT 11.1.1.2":
                        raise
                    step.update(bomb_rolls=tuple(rec.values), owed="victims", rule="NT 11.1.1.2")
                    return
                self._bombed(done, res)
            else:
                self.state, done = air.resolve_bombing(self.state, m, fire, Preceded(step["bomb_rolls"], dice),
                                                       losses=step["losses"], victims=step["victims"],
                                                       shot_down=step["shot_down"], res=res)
                self._bombed(done, res)
        elif m.kind == "ground_support":
            self.state, done = air.resolve_ground_support(self.state, m, fire, losses=step["losses"],
                                                          shot_down=step["shot_down"], res=res)
            if done.survivors:
                b.ground_support = b.ground_support + ((m.target, len(done.survivors)),)
        else:
            self.state, done = air.resolve_supply(self.state, m, fire, losses=step["losses"],
                                                  shot_down=step["shot_down"], res=res)
            if done.source:
                b.supplied_from = b.supplied_from + (done.source,)
        b.flights, b.step = b.flights[1:], None

    def _bombed(self, done, res: Resolution) -> None:
        """A bombed town or city is remembered for 7.5."""
        if done.town_area is not None:
            self.airbook.bombed_towns = self.airbook.bombed_towns + (done.mission.target,)

    @handles(ChooseAirLosses)
    def _choose_air_losses(self, a: ChooseAirLosses, dice, res: Resolution) -> None:
        step = self.airbook.step
        if step is None or step["owed"] != "allied_losses":
            raise RuleViolation("NT 12.1.1", "no air losses are owed now")
        if frozenset(a.units) not in step["options"]:
            raise RuleViolation(step["rule"], "the losses are one of: " + "; ".join(
                ", ".join(sorted(o)) for o in step["options"]))
        if step["rule"] == "NT 11.5":
            step["dogfight_losses"] = tuple(a.units)
            step["owed"] = None
            self._dogfight_or_ask(dice, res)
            return
        step["losses"] = tuple(a.units)
        step["owed"] = None
        self._finish_mission(dice, res)

    @handles(ChooseInterceptors)
    def _choose_interceptors(self, a: ChooseInterceptors, dice, res: Resolution) -> None:
        step = self.airbook.step
        if step is None or step["owed"] != "interceptors":
            raise RuleViolation("NT 11.5", "no interceptor losses are owed now")
        mine = air.interceptors_in(self.state, step["mission"].target)
        if len(a.units) != step["kills"] or len(set(a.units)) != len(a.units) or not set(a.units) <= set(mine):
            raise RuleViolation("NT 11.5", f"choose {step['kills']} of {', '.join(mine)}")
        step["interceptor_losses"] = tuple(a.units)
        step["owed"] = None
        self._dogfight_or_ask(dice, res)

    @handles(ChooseVictims)
    def _choose_victims(self, a: ChooseVictims, dice, res: Resolution) -> None:
        step = self.airbook.step
        if step is None or step["owed"] != "victims":
            raise RuleViolation("NT 11.1.1.2", "no bombing waits for its victims")
        step["victims"] = tuple(a.units)
        self._finish_mission(dice, res)

    def _air_candidates(self):
        b, st = self.airbook, self.state
        step = b.step
        if step is not None:
            if step["owed"] == "allied_losses":
                for o in step["options"][:6]:
                    yield ChooseAirLosses(tuple(sorted(o)))
            elif step["owed"] == "interceptors":
                import itertools
                mine = air.interceptors_in(st, step["mission"].target)
                for pick in itertools.islice(itertools.combinations(mine, step["kills"]), 6):
                    yield ChooseInterceptors(pick)
            else:
                units = air.bombing_victims(st, step["mission"].target)
                for u in units[:6]:
                    yield ChooseVictims((u, *[v for v in units if v != u]))
            return
        if b.flights:
            yield ResolveMission()
            return
        if b.flown:
            return
        yield FlyMissions(())
        ready = sorted(u for u, box in st.air.items() if box == "available")
        kinds = {u: st.counter(u).type for u in ready}
        if self.phase.id == air.REACTION_PHASE:
            targets = sorted({st.piece(u).location for att, _ in self.book.announced for u in att
                              if u in st.pieces})
        else:
            targets = sorted({st.piece(u).location for u in st.units("communist", face_up=True)})
        for t in self._sample(targets, 4):
            gs = [u for u in ready if kinds[u] in air.MISSION_TYPES["ground_support"]][:2]
            if gs:
                yield FlyMissions((("ground_support", t, tuple(gs)),))
            if self.phase.id == air.AIR_PHASE:
                sac = [u for u in ready if kinds[u] == "sac"][:1]
                if sac:
                    yield FlyMissions((("bombing", t, tuple(sac)),))
                f2 = [u for u in ready if kinds[u] in air.FIGHTERS][:2]
                if len(f2) == 2:
                    yield FlyMissions((("bombing", t, tuple(f2)),))

    def _air_phase_done(self, res: Resolution) -> None:
        """Leaving an air phase: 11.2's box change happens every phase, flown or not."""
        b = self.airbook
        if b.flights or b.step is not None:
            raise RuleViolation("NT 11.2", "every mission in the air is resolved before the phase ends")
        if not b.flown:
            self.state = air.refresh_unavailable(self.state, res)
        if b.bombed_towns:
            from .hearts_minds import bombing_shift
            self.state = bombing_shift(self.state, b.bombed_towns, charts=self._charts(), res=res)
        b.flown, b.dogfought, b.bombed_towns = False, frozenset(), ()
