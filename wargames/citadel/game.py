"""Citadel played through the shared protocol: a scenario's set-up and its days of play (C 7, SR 2).

:class:`Game` steps through the sequence of play (C 7). In each player turn:

- the movement phase (C 8): the moving player moves units to their vulnerability points and ends the step's
  moves; the other player is then prompted to opportunity-fire, one battery (or unit) at one paused unit at a
  time, and ends the window; paused units that were not pinned move on in the next step;
- the indirect fire phase (C 9, C 10): Vietminh indirect fire, then French indirect fire, as one fire phase;
- the direct fire phase: the phasing player fires, then the other player;
- losses to a stack are shared out by prompts, the owner first (C 9.2).

The set-up and the other phases (weather, air, supply, melee, return ...) are played by the rule modules'
plays (:data:`PLAYS`, :mod:`play`); a phase no play covers is stepped over with a Resolution step saying so.

What may be done: ``legal_actions`` lists in full every decision with few forms. Where a decision has more
legal forms than are worth listing, it lists a sample spread over them, and ``len(legal_actions)`` counts the
sample: whole movement paths (one-hex steps are listed), air placements (a few groups of counters, hexes,
altitudes and two facings), transport drops (one point of general supply a counter), Vietminh set-up hexes
and return paths. Every legal action outside the sample is accepted all the same: ``action in
game.legal_actions``, ``why_illegal`` and ``apply`` judge the action itself, never the listing.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..core import Hex, Resolution, implements
from ..core.actions import Action
from ..core.errors import DataError, RuleViolation
from ..core.yamlio import load_once
from ..core.game import Game as BaseGame, Outcome, Prompt, handles

from .air_charts import AirCharts
from .charts import DATA, Ruleset
from .examples import SCENARIOS as SCENARIO_DIR, load_scenario
from .fire import FirePhase, PendingLosses, settle_forced, take_pick, unit_range_key
from .movement import MovementPhase
from .entrench import dig, dig_problem, tunnel_problem
from .melee import MeleePlay, recover_routed
from .play import EndPhase, PhasePlay
from .replacements import (FrenchReinforcementPlay, FrenchReplacementPlay, PlaceReinforcement, ReinforcementHandlers,
                           ReplacementHandlers, TaiDesertionPlay, TakeReplacement, VietminhReplacementPlay,
                           placement_candidates)
from .replacements import reserves_of
from .returnphase import ReturnPlay
from .rockets import LaunchRockets, RocketHex, RocketSalvoPlay
from .setup import SetupPlay, advanced_rules, scenario_state
from .tanks import TankRepairPlay
from .supply import FrenchDeliveryPlay, VietminhReceiptsPlay, strengths_asked
from .supply_play import Desert, GeneralSupplyPlay
from .airplay import (AIR_ACTIONS, AIR_PLAYS, AAPlay, load_air_scenario, AttackPlay, AvailabilityPlay, BombingPlay,
                      MaintenancePlay, PlacementPlay, TransportPlay, WeatherPlay)
from .sequence import CitadelGame, phase_named
from .stacking import stacking_problem
from .units import Side, UnitClass

CHARTS = DATA           # the shipped charts (the Ruleset's defaults)
AIR_SCENARIOS = ("anne_marie_air",)     # scenario files that add an Air Chart to a base scenario (air.py)


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class Move(Action):
    """Move a unit, or a stack that moves together, along a path of adjacent hexes (C 8)."""
    units: tuple[str, ...]
    path: tuple[str, ...]


@dataclass(frozen=True)
class AnnounceCrossing(Action):
    """Announce a river (or, for the Vietminh, wire) crossing: the unit's hex becomes a VP (C 8 item 3)."""
    unit: str
    toward: str


@dataclass(frozen=True)
class Stop(Action):
    """The owner ends a unit's movement (C 8, end of movement item 1)."""
    unit: str


@dataclass(frozen=True)
class EndMoves(Action):
    """The moving player ends this step's moves: the enemy's opportunity fire follows (C 8 procedure)."""


@dataclass(frozen=True)
class OpportunityFire(Action):
    """One enemy unit fires at one unit paused at a fresh vulnerability point (C 8)."""
    firer: str
    target: str


@dataclass(frozen=True)
class EndFire(Action):
    """The firing player fires no more at this step's vulnerability points (C 8)."""


@dataclass(frozen=True)
class StrategicMove(Action):
    """Move every surviving unit of a Vietminh regiment to another zone (C 8)."""
    regiment: str
    placements: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class ExitBoard(Action):
    """A Vietminh battery not assigned to a regiment leaves the map (C 8)."""
    unit: str


@dataclass(frozen=True)
class Reenter(Action):
    """An exited battery comes back on a full jungle hex in a later movement phase (C 8)."""
    unit: str
    hex: str


@dataclass(frozen=True)
class Dig(Action):
    """A Vietminh battalion digs up to four trench hexes, a tunnel complex or a weapons pit (C 18)."""
    battalion: str
    kind: str
    hexes: tuple[str, ...]


@dataclass(frozen=True)
class EnterTunnel(Action):
    """A 75mm recoilless rifle battery goes under the tunnel marker of its hill hex (C 18)."""
    unit: str


@dataclass(frozen=True)
class Fire(Action):
    """Units fire together at an enemy-held hex in a fire phase (C 9, C 10); ``strengths`` lists (unit, strength
    points) for units firing less than they have (C 22)."""
    firers: tuple[str, ...]
    target: str
    strengths: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class AllocateLoss(Action):
    """The player whose pick it is gives the next loss of a fire to one of the units hit (C 9.2)."""
    unit: str


ACTIONS = (Move, AnnounceCrossing, Stop, EndMoves, OpportunityFire, EndFire, StrategicMove, ExitBoard, Reenter,
           Dig, EnterTunnel, Fire, AllocateLoss, EndPhase, Desert, TakeReplacement, PlaceReinforcement, LaunchRockets,
           RocketHex, *MeleePlay.ACTIONS, *ReturnPlay.ACTIONS, *SetupPlay.ACTIONS, *AIR_ACTIONS,
           *TankRepairPlay.ACTIONS)

#: The plays that run in each phase played by a rule module, in order (play.py); phase ids as in sequence.py.
#: The air missions of a phase come first; supply deliveries and receipts come last in their phases: they
#: arrive at the end of them (C 23).
PLAYS: dict[str, tuple[type[PhasePlay], ...]] = {
    **AIR_PLAYS,
    "set-up": (SetupPlay,),
    "tank repair": (TankRepairPlay,),
    "weather": (WeatherPlay, GeneralSupplyPlay, TaiDesertionPlay),
    "supply and transport": (TransportPlay, FrenchReplacementPlay, FrenchReinforcementPlay, FrenchDeliveryPlay),
    "strategic bombing": (BombingPlay, VietminhReplacementPlay, VietminhReceiptsPlay),
    # the rocket salvo's later hexes (C 35) are prompted as a play of the Vietminh indirect fire steps
    "VM turn: VM indirect fire": (RocketSalvoPlay,), "French turn: VM indirect fire": (RocketSalvoPlay,),
    "VM melee": (MeleePlay,), "French melee": (MeleePlay,),
    "VM return": (ReturnPlay,), "French return": (ReturnPlay,),
}

#: Rules of later chapters that own the phases this edition steps over.
NOT_YET = {"admin": "C 27-C 30, C 19, C 23, C 26", "air": "C 25-C 28"}


# --------------------------------------------------------------------------- the game

def _max_range(st, ranges, u) -> int | None:
    """The longest range at which ``u`` could fire, or None when only the full check can tell (tanks, units
    with no range row)."""
    if u.counter.cls is UnitClass.TANK:
        return None
    try:
        return ranges.max_range(unit_range_key(st, u))
    except (DataError, RuleViolation):
        return None


class Game(SetupPlay, MeleePlay, ReturnPlay, GeneralSupplyPlay, TaiDesertionPlay, ReplacementHandlers,
           ReinforcementHandlers, RocketSalvoPlay, WeatherPlay, MaintenancePlay, AvailabilityPlay, PlacementPlay, AAPlay,
           AttackPlay, TransportPlay, BombingPlay, TankRepairPlay, BaseGame):
    """Citadel, Rules 1-10, from a scenario's set-up to the end of its last day."""

    NAME = "citadel"
    PLAY_RULE = "C 7"
    ACTIONS = ACTIONS
    SCENARIOS = {"anne_marie": "the Anne-Marie assault of the C 8 Movement Example, played as one day: four "
                               "Vietminh battalions against two T'ai companies and five French batteries",
                 "scenario1": "Sc 1, A-Day: Beatrice and Gabrielle, 13-16 March 1954",
                 "scenario2": "Sc 2, the Flak Raid: the French player turn of 28 March 1954",
                 "scenario3": "Sc 3, the first battles for the Five Hills and the Huguettes, 30 March-3 April",
                 "scenario4": "Sc 4, the second battle for the Five Hills, 4-10 April",
                 "scenario5": "Sc 5, the second battle for the Huguettes (1), 12-18 April",
                 "scenario6": "Sc 6, the second battle for the Huguettes (2), 19-23 April",
                 "scenario7": "Sc 7, the fall of Dien Bien Phu, 1-7 May",
                 "scenario8": "Sc 8, the whole battle, 13 March-7 May 1954",
                 "anne_marie_air": "the same assault over two days with the advanced rules' air power: a small "
                                   "French Air Chart against two Vietminh antiaircraft batteries"}
    DEFAULT_SCENARIO = "anne_marie"
    #: Random play of the long scenarios costs minutes; the reach measured for the book plays the demonstration
    #: days and the Flak Raid, and ``make fuzz`` plays all ten.
    REACH_SCENARIOS = ("anne_marie", "anne_marie_air", "scenario2")
    RULESET = Ruleset
    END_PHASE = EndPhase         # the shared action that ends a play (rule modules offer it without importing game)
    POSITION = ("seq", "fire_side", "pending", "days_left", "play_index")
    #: read at set-up from the scenario outline, never changed
    outline = None
    PASS_ACTIONS = (EndPhase, EndMoves, EndFire)    # random play closes phases this way (fuzz ``finish``)
    NOT_IN_PLAY: dict = {}       # every implemented section is reached by random play of REACH_SCENARIOS

    #: Our demonstration objective (C 2: scenarios are won by holding places): the Vietminh win if, when the
    #: day ends, they hold a hex of Anne-Marie (AM-1: 1316, 1416; AM-2: 1414) with no French unit left in it.
    OBJECTIVE = ("1316", "1416", "1414")

    @implements("C 2", "C 7")
    def setup(self, scenario: str) -> None:
        """The scenario's set-up at the start of its first Vietminh movement phase."""
        self.outline = None
        days = 1
        if scenario.startswith("scenario"):
            state, self.outline = scenario_state(int(scenario[len("scenario"):]))
            days = self.outline.days
            if self.ruleset.readings.get("advanced_rules", True):
                advanced_rules(state, self.outline)
        elif scenario in AIR_SCENARIOS:                # a base scenario plus an Air Chart (C 25-C 33)
            state, days = load_once(load_air_scenario, SCENARIO_DIR / f"{scenario}.yaml")
        else:
            state = load_once(load_scenario, SCENARIO_DIR / f"{scenario}.yaml")   # read once per file version
        state.charts = self.ruleset.tables()
        state.melee_crt = self.ruleset.chart("melee_crt")
        state.air_charts = AirCharts.of(self.ruleset)
        state.readings = dict(self.ruleset.readings)
        self.play_dice = self.dice
        self.seq = CitadelGame(state)
        self.fire_side: Side | None = None
        self.pending: PendingLosses | None = None
        self.days_left = days
        self.play_index: int | None = None
        self._open_phase(Resolution())

    # ------------------------------------------------------------------ views of the position
    @property
    def state(self):
        return self.seq.state

    @property
    def phase(self):
        return self.seq.phase

    def shared(self):
        st = self.state
        return (st.map, *st.tables(), st.mct(), *((st.air_charts,) if st.air_charts is not None else ()))

    def _movement(self) -> MovementPhase | None:
        return self.seq.movement() if self.phase.kind == "movement" else None

    def _fire_phase(self) -> FirePhase:
        p = self.phase
        kind = "direct" if p.kind == "direct fire" else "indirect"
        return FirePhase(self.state, kind, p.side if kind == "indirect" else None, self.seq.last_movement_index)

    def current_prompt(self) -> Prompt:
        if self.pending is not None:
            p = self.pending
            return Prompt(p.chooser.value, "C 9.2", f"choose the unit in {p.hex} to take loss {p.taken + 1} of "
                                                    f"{p.total}", "loss")
        play = self._play()
        if play is not None:
            return play.play_prompt(self)
        p = self.phase
        mp = self._movement()
        if mp is not None:
            if mp.window_open:
                targets = ", ".join(f"{vp.unit} in {self.state.label(vp.hex)}" for vp in mp.targets())
                return Prompt(mp.side.enemy.value, "C 8", f"opportunity fire at {targets}, or end opportunity fire",
                              "opportunity fire")
            return Prompt(mp.side.value, "C 8", f"move units (step {mp.step}), end the step's moves for "
                                                f"opportunity fire, or end the movement phase")
        kind = "direct" if p.kind == "direct fire" else "indirect"
        return Prompt(self.fire_side.value, "C 10", f"fire in the {kind} fire phase, or end your fire")

    def result(self) -> Outcome | None:
        st = self.state
        if self.phase.id == "set-up":
            return None
        if self.outline is not None:
            return self._scenario_result()
        for side in Side:
            if not st.on_board(side) and not [u for u in st.units.values() if u.side is side and u.off_board]:
                return Outcome(side.enemy.value, "decisive", "C 2", f"no {side.value} unit is left on the map")
        if self.days_left > 0:
            return None
        held = [lab for lab in self.OBJECTIVE if st.units_at(st.map.hex(lab), Side.VIETMINH)
                and not st.units_at(st.map.hex(lab), Side.FRENCH)]
        if held:
            return Outcome("Vietminh", "demonstration objective", "C 2",
                           f"the Vietminh hold {', '.join(held)} of Anne-Marie at the end of the day")
        return Outcome("French", "demonstration objective", "C 2", "Anne-Marie is still French at the end of the day")

    @implements("C SR 3")
    def _scenario_result(self) -> Outcome | None:
        """SR 3: the scenario's victory at its end; an automatic Vietminh loss on casualties stops play at once."""
        from .scenarios import evaluate_victory
        st, v = self.state, self.outline.victory
        limit = v.get("automatic_loss_over")
        if limit is not None and st.vm_losses > limit:
            return Outcome("French", "automatic victory", "C SR 3",
                           f"Vietminh losses of {st.vm_losses} strength points exceed {limit}")
        if self.days_left > 0:
            return None
        held = {name for name, side in st.control.items() if side is Side.VIETMINH}
        aa = sum(1 for u in st.units.values() if u.side is Side.VIETMINH and u.eliminated
                 and u.counter.type == "antiaircraft")
        won = evaluate_victory(self.outline, held, st.vm_losses, aa)
        return Outcome(won.winner, won.level or "victory", "C SR 3", won.reason)

    def position(self) -> dict:
        st = self.state
        units = {uid: {**u.to_dict(), "hex": st.label(u.hex) if u.hex is not None else None,
                       "pinned_at": u.pinned_at} for uid, u in sorted(st.units.items())}
        out = {"date": st.date.isoformat(), "phase": st.phase, "phase_index": st.phase_index, "units": units,
               "fired": sorted(st.fired), "fired_at": sorted(st.fired_at),
               "phase_losses": dict(sorted(st.phase_losses.items())),
               "fire_side": self.fire_side.value if self.fire_side else None, "days_left": self.days_left,
               "pending": None if self.pending is None else {
                   "hex": self.pending.hex, "targets": list(self.pending.targets), "taken": self.pending.taken,
                   "remaining": self.pending.remaining}}
        if st.supply is not None:
            out["supply"] = st.supply.to_dict()
        out["reserves"] = reserves_of(st).to_dict()
        if st.air is not None:
            out["air"] = st.air.to_dict()
        mp = self._movement()
        if mp is not None:
            out["movement"] = {"step": mp.step, "window_open": mp.window_open, "fired": sorted(mp.fired),
                               "records": mp.summary()}
        return out

    def names(self) -> dict[str, list[str]]:
        st = self.state
        return {"units": sorted(st.units), "hexes": sorted(st.label(h) for h in st.map.hexes)[:40],
                "regiments": sorted({u.counter.regiment for u in st.units.values() if u.counter.regiment})}

    def invariants(self) -> list[str]:
        st, out = self.state, []
        for h in {u.hex for u in st.on_board()}:
            for side in Side:
                problem = stacking_problem(st.units_at(h, side))
                if problem:
                    out.append(f"C 6: {st.label(h)}: {problem}")
            if st.units_at(h, Side.FRENCH) and st.units_at(h, Side.VIETMINH):
                out.append(f"C 8: enemy units share {st.label(h)}")
        for u in st.units.values():
            if u.on_board and u.strength <= 0:
                out.append(f"C 9.4: {u.id} has no strength left but is still on the map")
            if u.on_board and u.hex not in st.map:
                out.append(f"{u.id} is off the map")
            if u.losses < 0:
                out.append(f"{u.id} has negative losses")
        return out

    # ------------------------------------------------------------------ what may be done
    def candidates(self):
        st = self.state
        if self.pending is not None:
            return [AllocateLoss(uid) for uid in self.pending.options(st)]
        play = self._play()
        if play is not None:
            return play.play_candidates(self)
        mp = self._movement()
        if mp is not None:
            return self._movement_candidates(mp) + (placement_candidates(st, Side.VIETMINH)
                                                    if mp.side is Side.VIETMINH else [])
        out = self.rocket_candidates()
        fp = self._fire_phase()
        firers = [u for u in st.units.values() if u.side is self.fire_side and u.hex is not None and not u.off_board]
        _, ranges, _ = st.tables()
        reach = {f.id: _max_range(st, ranges, f) for f in firers}   # out of range is the commonest problem:
        # those pairs are skipped before the full check
        for h in sorted({u.hex for u in st.on_board(self.fire_side.enemy)}):
            able = [f.id for f in firers if (reach[f.id] is None or f.hex.distance(h) <= reach[f.id])
                    and not fp.problems([f.id], h)]
            out += [Fire((f,), st.label(h)) for f in able]
            if len(able) > 1:
                out.append(Fire(tuple(able), st.label(h)))
        return out + [EndPhase()]

    def _movement_candidates(self, mp: MovementPhase) -> list[Action]:
        st = self.state
        if mp.window_open:
            return [OpportunityFire(f, vp.unit) for vp in mp.targets() for f in mp.eligible_firers(vp.unit)] + [EndFire()]
        out: list[Action] = []
        for u in st.on_board(mp.side):
            rec = mp.records.get(u.id)
            if u.pinned or (rec is None and mp.step > 1) or (rec is not None and rec.status in ("done", "paused")):
                continue
            for n in st.map.neighbors(u.hex):
                out.append(Move((u.id,), (st.label(n),)))
                if mp.needs_announcement(u.hex, n) and not mp.exemption(u.hex):
                    out.append(AnnounceCrossing(u.id, st.label(n)))
            if rec is not None and rec.status in ("moving", "resumable"):
                out.append(Stop(u.id))
            if u.counter.cls is UnitClass.HEAVY_WEAPONS and mp.side is Side.VIETMINH and not u.counter.regiment:
                out.append(ExitBoard(u.id))
        for u in st.units.values():
            if u.off_board and u.side is mp.side and mp.step == 1:
                out += [Reenter(u.id, st.label(h)) for h in sorted(st.map.hexes)
                        if st.map.terrain(h) == "full_jungle"][:12]
        if mp.side is Side.VIETMINH and mp.step == 1:
            out += self._strategic_candidates(mp)
        if mp.side is Side.VIETMINH:
            out += self._dig_candidates()
        if any(r.status == "paused" or (r.status == "moving" and r.moved_in_step == mp.step)
               for r in mp.records.values()):
            out.append(EndMoves())
        out.append(EndPhase())
        return out

    def _dig_candidates(self) -> list[Action]:
        """Each battalion's one-hex digs next to it, and a new system in its own jungle hex (C 18)."""
        st, out = self.state, []
        for u in st.on_board(Side.VIETMINH):
            if u.counter.is_battalion:
                out.append(Dig(u.id, "trench", (st.label(u.hex),)))
                for n in st.map.neighbors(u.hex):
                    out += [Dig(u.id, k, (st.label(n),)) for k in ("trench", "tunnel", "weapons_pit")]
            elif u.hex in st.works and not u.in_tunnel:
                out.append(EnterTunnel(u.id))
        return out

    def _strategic_candidates(self, mp: MovementPhase) -> list[Action]:
        """One placement per regiment and destination zone: the zone's first free full jungle hexes."""
        st, m = self.state, self.state.map
        out = []
        zones: dict[str, list[Hex]] = {}
        for h in sorted(m.hexes):
            z = m.info(h).attr("zone")
            if z is not None and m.terrain(h) == "full_jungle":
                zones.setdefault(z, []).append(h)
        taken = {u.hex for u in st.on_board()}
        for reg in sorted({u.counter.regiment for u in st.on_board(Side.VIETMINH) if u.counter.regiment}):
            members = sorted(u.id for u in st.on_board(Side.VIETMINH) if u.counter.regiment == reg)
            for z, hexes in zones.items():
                free = [h for h in hexes if h not in taken]
                if len(free) >= len(members):
                    out.append(StrategicMove(reg, tuple((uid, st.label(h)) for uid, h in zip(members, free))))
        return out

    def check_action(self, action: Action) -> None:
        """Moves and fire are checked by the rules' own checks; other actions are tried on a copy."""
        play = self._play() if self.pending is None else None
        if play is not None and play.play_check(self, action):
            return
        mp = self._movement() if self.pending is None else None
        if isinstance(action, (Dig, EnterTunnel)) and mp is not None:
            self._check_works_action(action)
        elif isinstance(action, (StrategicMove, ExitBoard, Reenter, Stop)) and mp is not None:
            self._mover(mp)
            if isinstance(action, StrategicMove):
                mp.strategic_plan(action.regiment, dict(action.placements))
            elif isinstance(action, ExitBoard):
                mp.exit_board(action.unit, dry=True)
            elif isinstance(action, Reenter):
                mp.reenter(action.unit, action.hex, dry=True)
            else:
                mp.stop(action.unit, dry=True)
        elif isinstance(action, Move) and self.pending is None and self._movement() is not None:
            mp = self._movement()
            self._mover(mp)
            mp.plan_move(list(action.units), list(action.path))
        elif isinstance(action, Fire) and self.pending is None and self.phase.kind.endswith("fire"):
            self._check_fire(action)
        else:
            super().check_action(action)

    # ------------------------------------------------------------------ handlers: movement
    def _mp(self, rule: str = "C 7") -> MovementPhase:
        if self.pending is not None:
            raise RuleViolation("C 9.2", "the losses of the last fire must be allocated first")
        mp = self._movement()
        if mp is None:
            raise RuleViolation(rule, f"it is the {self.phase.name} phase, not a movement phase")
        return mp

    def _mover(self, mp: MovementPhase) -> None:
        if mp.window_open:
            raise RuleViolation("C 8", "the enemy is resolving opportunity fire; the moving player waits")

    @handles(Move)
    def _move(self, a: Move, dice, res: Resolution) -> None:
        mp = self._mp()
        self._mover(mp)
        res.extend(mp.move(list(a.units), list(a.path)))

    @handles(AnnounceCrossing)
    def _announce(self, a: AnnounceCrossing, dice, res: Resolution) -> None:
        mp = self._mp()
        self._mover(mp)
        res.extend(mp.announce_crossing(a.unit, a.toward))

    @handles(Stop)
    def _stop(self, a: Stop, dice, res: Resolution) -> None:
        mp = self._mp()
        self._mover(mp)
        mp.stop(a.unit)
        res.add("C 8", f"{a.unit} stops in {self.state.label(self.state.unit(a.unit).hex)}")

    @handles(StrategicMove)
    def _strategic(self, a: StrategicMove, dice, res: Resolution) -> None:
        res.extend(self._mp().strategic_move(a.regiment, dict(a.placements)))

    @handles(ExitBoard)
    def _exit(self, a: ExitBoard, dice, res: Resolution) -> None:
        res.extend(self._mp().exit_board(a.unit))

    @handles(Reenter)
    def _reenter(self, a: Reenter, dice, res: Resolution) -> None:
        res.extend(self._mp().reenter(a.unit, a.hex))

    def _check_works_action(self, a: Dig | EnterTunnel) -> None:
        """The checks of C 18 for digging and for going into a tunnel, in the moving player's movement phase."""
        mp = self._mp("C 18")
        self._mover(mp)
        st = self.state
        if isinstance(a, Dig):
            if mp.side is not Side.VIETMINH:
                raise RuleViolation("C 18", "only the Vietminh dig, in their own movement phase")
            dug = {uid for uid, phase in st.dug_in.items() if phase == st.phase_index}
            why = dig_problem(st, st.unit(a.battalion), a.kind, [st.map.hex(h) for h in a.hexes], dug)
        else:
            u = st.unit(a.unit)
            why = f"{u.id} is not a {mp.side.value} unit" if u.side is not mp.side else tunnel_problem(st, u)
        if why:
            raise RuleViolation("C 18", why)

    @handles(Dig)
    def _dig(self, a: Dig, dice, res: Resolution) -> None:
        self._check_works_action(a)
        st = self.state
        dig(st, st.unit(a.battalion), a.kind, [st.map.hex(h) for h in a.hexes], res)
        st.dug_in[a.battalion] = st.phase_index

    @handles(EnterTunnel)
    def _enter_tunnel(self, a: EnterTunnel, dice, res: Resolution) -> None:
        self._check_works_action(a)
        u = self.state.unit(a.unit)
        u.in_tunnel = True
        res.add("C 18", f"{u.id} goes into the tunnel complex in {self.state.label(u.hex)}")

    @handles(EndMoves)
    def _end_moves(self, a: EndMoves, dice, res: Resolution) -> None:
        mp = self._mp()
        if mp.window_open:
            raise RuleViolation("C 8", "opportunity fire is already open")
        targets = mp.end_moves()
        res.add("C 8", f"step {mp.step}: moves end; paused for opportunity fire: "
                + (", ".join(f"{v.unit} in {self.state.label(v.hex)}" for v in targets) or "nobody"))
        self._close_empty_window(mp, res)

    def _close_empty_window(self, mp: MovementPhase, res: Resolution) -> None:
        """With no paused unit left that an enemy unit may fire at, the window closes by itself."""
        if mp.window_open and not any(mp.eligible_firers(vp.unit) for vp in mp.targets()):
            res.add("C 8", f"no {mp.side.enemy.value} unit may fire at a paused unit: opportunity fire ends")
            res.extend(mp.end_fire())

    @handles(OpportunityFire)
    def _opfire(self, a: OpportunityFire, dice, res: Resolution) -> None:
        mp = self._mp()
        out = mp.opportunity_fire(a.firer, a.target, dice)
        res.extend(out)
        self.pending = out.result["pending_losses"]
        if self.pending is None:
            self._close_empty_window(mp, res)

    @handles(EndFire)
    def _end_fire(self, a: EndFire, dice, res: Resolution) -> None:
        res.extend(self._mp().end_fire())

    # ------------------------------------------------------------------ handlers: fire phases and losses
    def _check_fire(self, a: Fire) -> FirePhase:
        if self.pending is not None:
            raise RuleViolation("C 9.2", "the losses of the last fire must be allocated first")
        if self.phase.kind not in ("direct fire", "indirect fire"):
            raise RuleViolation("C 7", f"it is the {self.phase.name} phase, not a fire phase")
        if not a.firers:
            raise RuleViolation("C 9", "at least one unit must fire")
        for f in a.firers:
            if self.state.unit(f).side is not self.fire_side:
                raise RuleViolation("C 9", f"{f} is not a {self.fire_side.value} unit; the {self.fire_side.value} "
                                           f"player is firing now")
        if len(set(a.firers)) != len(a.firers):
            raise RuleViolation("C 9.5", "a unit fires once in a fire phase")
        fp = self._fire_phase()
        problems = fp.problems(list(a.firers), self.state.map.hex(a.target), strengths_asked(a.strengths))
        if problems:
            raise RuleViolation(*problems[0])
        return fp

    @handles(Fire)
    def _fire(self, a: Fire, dice, res: Resolution) -> None:
        out = self._check_fire(a).fire(list(a.firers), a.target, dice, strengths=strengths_asked(a.strengths))
        res.extend(out)
        self.pending = out.result["pending_losses"]

    @handles(AllocateLoss)
    def _allocate(self, a: AllocateLoss, dice, res: Resolution) -> None:
        if self.pending is None:
            raise RuleViolation("C 9.2", "no losses are waiting to be allocated")
        take_pick(self.state, self.pending, a.unit, dice, res)
        self.pending = settle_forced(self.state, self.pending, dice, res)
        mp = self._movement()
        if self.pending is None and mp is not None:
            mp.settle(res)
            self._close_empty_window(mp, res)

    @handles(EndPhase)
    def _end_phase(self, a: EndPhase, dice, res: Resolution) -> None:
        if self.pending is not None:
            raise RuleViolation("C 9.2", "the losses of the last fire must be allocated first")
        play = self._play()
        if play is not None:
            play.play_end(self, res)
            return
        mp = self._movement()
        if mp is not None:
            if mp.window_open:
                raise RuleViolation("C 8", "opportunity fire is open: the firing player ends it (EndFire)")
            due = self.vm_reinforcements_left()
            if due:
                raise RuleViolation("C 16", f"the reinforcements due today must be placed first: {', '.join(due)}")
            paused = [r.unit for r in mp.records.values() if r.status == "paused"]
            if paused:
                raise RuleViolation("C 8", f"{', '.join(paused)} paused at a vulnerability point: end the step's "
                                           f"moves so the enemy may fire first")
            for r in mp.records.values():
                if r.status in ("moving", "resumable") and self.state.unit(r.unit).on_board:
                    mp.stop(r.unit)
            res.add("C 8", f"{mp.side.value} movement ends")
            recover_routed(self.state, mp.side, res)
        elif self.phase.kind == "direct fire" and self.fire_side is self.phase_side():
            res.add("C 10", f"the {self.fire_side.value} player ends its direct fire; the "
                            f"{self.fire_side.enemy.value} player fires")
            self.fire_side = self.fire_side.enemy
            return
        else:
            res.add("C 10", f"the {self.fire_side.value} player ends its fire")
        self._next_phase(res)

    def phase_side(self) -> Side:
        """The phasing player (whose player turn it is)."""
        return Side.VIETMINH if "Vietminh" in self.phase.segment else Side.FRENCH

    # ------------------------------------------------------------------ the sequence of play
    def _next_phase(self, res: Resolution) -> None:
        self._advance(res)
        self._open_phase(res)

    def _advance(self, res: Resolution) -> None:
        """End the current phase (C 7); after the last phase of a day, one day of the scenario is over (C 2)."""
        before, ended = self.state.date, self.phase.id
        self.seq.advance()
        if self.outline is not None and self.outline.player_turn == ended.split()[0] and ended.endswith("return"):
            self.days_left = 0                    # Sc 2 is one player turn: it ends with that turn's return phase
            res.add("C SR 3", f"the scenario's {self.outline.player_turn} player turn is over")
        if self.state.date != before:
            self.days_left -= 1
            res.add("C 2", f"the day ends: {before.isoformat()} is over")

    def _open_phase(self, res: Resolution) -> None:
        """Begin the current phase, stepping over phases this edition cannot play or in which nobody can act."""
        while self.result() is None:
            p = self.phase
            if p.kind == "movement":
                self.seq.movement()
                res.add("C 8", f"{p.name}")
                return
            if p.kind in ("direct fire", "indirect fire"):
                self.fire_side = self.phase_side() if p.kind == "direct fire" else p.side
                if any(isinstance(c, (Fire, LaunchRockets)) for c in self.candidates()):
                    res.add("C 10", f"{p.name}: the {self.fire_side.value} player fires")
                    return
                if p.kind == "direct fire" and self.fire_side is self.phase_side():
                    self.fire_side = self.fire_side.enemy
                    if any(isinstance(c, Fire) for c in self.candidates()):
                        res.add("C 10", f"{p.name}: no {self.fire_side.enemy.value} unit can fire; the "
                                        f"{self.fire_side.value} player fires")
                        return
                res.add("C 10", f"{p.name}: no unit can fire")
            elif p.id in PLAYS:
                if self._open_plays(0, res):
                    return
            else:
                res.add("C 7", f"{p.name}: not executable in this edition ({NOT_YET.get(p.kind, 'a later rule')}); "
                               f"stepped over")
            self._advance(res)
        self.fire_side = None

    # ------------------------------------------------------------------ phases played by rule modules (play.py)
    def _play(self) -> type[PhasePlay] | None:
        """The play that holds the current decision, if the phase is one a rule module plays."""
        if self.play_index is None:
            return None
        return PLAYS[self.phase.id][self.play_index]

    def _open_plays(self, start: int, res: Resolution) -> bool:
        """Open the phase's plays from ``start`` on; True when one of them waits for a player."""
        plays = PLAYS[self.phase.id]
        for i in range(start, len(plays)):
            self.play_index = i
            if plays[i].play_open(self, res):
                return True
        self.play_index = None
        return False

    def _dispatch(self, action: Action, dice, res: Resolution) -> None:
        """Handlers and the plays they open share the action's dice (``play_dice``)."""
        outer, self.play_dice = getattr(self, "play_dice", None), dice
        try:
            super()._dispatch(action, dice, res)
        finally:
            self.play_dice = outer

    def play_done(self, res: Resolution) -> None:
        """The current play is over: open the phase's next play, or go on to the next phase."""
        if not self._open_plays(self.play_index + 1, res):
            self._next_phase(res)


__all__ = ["Game", "Ruleset", *[a.__name__ for a in ACTIONS]]
