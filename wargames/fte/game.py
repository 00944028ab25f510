"""The sequence of play (F 3.0), reinforcements (F 4.0), the end of turn (F 20.0): FTE as a :class:`Game`.

A FRAGO (scenario) is data: map, turns, chits, first player, units, sites and reinforcements
(:mod:`wargames.fte.frago`). :class:`Game` plays it through the shared protocol of :mod:`wargames.core.game`:
``Game.new("demo")``, ``legal_actions``, ``apply(action, dice)``, ``prompt``, ``undo``, ``save``/``load``.

Every decision a rule gives a player is a prompt answered by an action of that player, so it enters the
history. A stack of pending decisions (``Game.pending``) holds the procedures that wait for one:

- a Move is walked hex by hex (:func:`~wargames.fte.movement.advance_move`); in each hex where enemy units
  could take opportunity fire the move waits while the enemy is asked, one firing group at a time, each
  asked after the previous group's result (F 6.1, F 21.0);
- a broken unit's owner chooses its retreat path, and each hex of the retreat is open to opportunity fire
  (F 7.4, F 21.0);
- an assault waits for the defenders' opportunity fire, for each round's targets, for the retreats of its
  broken units, and for the attacker's choice to advance into a cleared hex (F 8.0);
- Search and Destroy Cache are open to opportunity fire after they are done, a Load or Unload before and after
  (F 14.0, F 15.0), and so is getting into or out of a bunker or foxholes during a Move (F 21.0, F 24.0,
  F 25.0); whenever the US player is asked about opportunity fire he may fire a claymore too (F 26.0);
- at set-up each player may have booby traps or claymores to plot in secret (F 26.0); each turn's reinforcements
  are placed by their owner (F 4.0); a new KIA or WIA marker may be taken up at once by a friendly unit in its
  hex (F 7.5.2);
- a downed helicopter's owner sets it down (F 7.4); an American unit that entered a Civilians hex may question
  them and the NVA/VC player chooses what to show (F 28.0);
- random events ask the player the rule names for their unit, target or placement (F 19.1-19.4, F 19.6,
  F 19.7, F 19.9); the medevac's arrival hex is the US player's (F 12.0); each fire mission due may be called
  off (F 16.0); each player chooses which units try to become concealed (F 18.0).

The turn's steps after the activation phase (fire missions, casualty checks, concealment, end of turn) run
when the cup is empty.
"""
from __future__ import annotations

import copy
import dataclasses
import itertools
from dataclasses import dataclass, field, fields
from fractions import Fraction
from typing import Any

from ..core import Hex, Resolution, implements
from ..core.errors import DataError, RuleViolation
from ..core.yamlio import load_once
from ..core.game import Action, Game as CoreGame, Outcome, Prompt, handles
from . import actions as act_mod
from .activation import ActivationPhase, activatable, check_action as check_unit_action, start_phase
from .assault import AssaultPlan, AssaultRun, check_assault
from .casualties import carry_new, check_casualties, load_count
from .concealment import cannot_conceal, conceal_reinforcement, public_view, try_to_conceal
from .events import (UNIT_CHOICES, VC_LIMIT, chooser, cobra_enters, cobra_hexes, cobras_present, eligible_units,
                     hamlets, place_vc_item, random_event, resolve_event, vc_chit, vc_hexes, vc_items)
from .fire import (check_fire, check_retreat_path, combine_groups, eliminate_cornered, fire, land_downed,
                   landing_options, retreat_into, retreat_options)
from .frago import FRAGOS, Frago, demo_frago, load_frago, new_unit, reinforcement_unit, setup
from .fire_missions import cancel_fire_mission, due as missions_due, execute_mission
from .movement import (MovePlan, abandon, advance_move, finish_move, move_class, movers_stopped, path_off_map,
                       plan_move)
from .opfire import eligible_opfirers, ended_activation, opportunity_fire
from .placement import entry_problem, place_unit
from .ruleset import Ruleset
from .sites import enter_fort, exit_fort, public_sites, sites_at
from .special import (check_interrogation, check_shown, interrogation_candidates, question, remove_civilians,
                      reveal_shown)
from .state import FteState, place
from .terrain import way_used
from .traps import arrive, claymore_ready, detonate_claymore, plot_booby_trap, plot_claymore, plot_hexes
from .units import Unit, player
from .victory import winner

# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class Draw(Action):
    """Draw the next chit (or take the turn's first activation, or run the end of the turn) (F 5.0)."""


@dataclass(frozen=True)
class Activate(Action):
    """Activate units one of the ways of F 5.1 (``how``: leader, hex, unit, helicopters, vehicles)."""

    how: str
    units: tuple[str, ...] = ()
    leader: str | None = None


@dataclass(frozen=True)
class Pass(Action):
    """The player whose chit was drawn passes (F 5.1)."""


@dataclass(frozen=True)
class EndActivation(Action):
    """Finish the current activation (F 5.0)."""


@dataclass(frozen=True)
class Move(Action):
    """A Move action (F 6.0): the hexes entered in order; a helicopter may hover (no hexes) or change
    altitude at the start or the end; ``drop`` leaves carried markers in hexes of the move (F 7.5.2);
    infantry may leave a bunker or foxholes at the start and enter one at the end, for no MP, drawing
    opportunity fire outside the cover (F 24.0, F 25.0)."""

    units: tuple[str, ...]
    path: tuple[str, ...] = ()
    double_time: bool = False
    stealthy: bool = False
    altitude_start: str | None = None
    altitude_end: str | None = None
    exit_map: bool = False
    drop: tuple[tuple[str, str], ...] = ()
    leave_fort: bool = False            # leave a bunker or foxholes at the start (F 24.0, F 25.0)
    fort: str | None = None             # enter the bunker or foxholes of the last hex at the end


@dataclass(frozen=True)
class Abandon(Action):
    """The Move action of an immobilized vehicle: its crew and passengers get out and it is removed (F 6.10)."""

    vehicle: str


@dataclass(frozen=True)
class DetonateClaymore(Action):
    """The US player fires a plotted claymore during his activation; it takes no unit's action (F 26.0)."""

    hex: str


@dataclass(frozen=True)
class Fire(Action):
    """A Fire action (F 7.0): the firers, primary first, at one target unit."""

    firers: tuple[str, ...]
    target: str
    observed: bool = False


@dataclass(frozen=True)
class Assault(Action):
    """An Assault action (F 8.0) on a hex; ``combine``: the attackers fire as one attack led by ``primary``."""

    attackers: tuple[str, ...]
    target: str
    combine: bool = True
    primary: str | None = None


@dataclass(frozen=True)
class Search(Action):
    """A Search action (F 9.0)."""

    unit: str


@dataclass(frozen=True)
class Recover(Action):
    """A Recover action (F 10.0), perhaps picking up a marker or handing one to ``transfer_to``."""

    unit: str
    pick_up: str | None = None
    transfer: str | None = None
    transfer_to: str | None = None


@dataclass(frozen=True)
class DestroyCache(Action):
    """A Destroy Cache action (F 11.0)."""

    unit: str
    site: str | None = None


@dataclass(frozen=True)
class RequestMedevac(Action):
    """A Request Medevac action (F 12.0)."""

    unit: str


@dataclass(frozen=True)
class RequestFireMission(Action):
    """A Request Fire Mission action (F 13.0) on a hex."""

    unit: str
    target: str


@dataclass(frozen=True)
class Load(Action):
    """A Load action (F 14.0): friendly infantry and casualty markers in the transport's hex get aboard."""

    transport: str
    units: tuple[str, ...] = ()
    markers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Unload(Action):
    """An Unload action (F 15.0): the named passengers and markers get off; ``carry`` hands markers to
    unloading units (marker, unit) (errata clarification)."""

    transport: str
    units: tuple[str, ...] = ()
    markers: tuple[str, ...] = ()
    carry: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class OpFire(Action):
    """Answer to an opportunity-fire prompt: these units (combining, first one primary) try to fire at the
    target (F 21.0)."""

    firers: tuple[str, ...]
    target: str


@dataclass(frozen=True)
class HoldFire(Action):
    """Answer to an opportunity-fire prompt: no (further) unit fires at this trigger (F 21.0)."""


@dataclass(frozen=True)
class Retreat(Action):
    """Answer to a retreat prompt: the broken unit's two hexes, chosen by its owner (F 7.4)."""

    unit: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class Plot(Action):
    """Answer to a set-up prompt: the hex where the player secretly plots his next booby trap (NVA/VC) or claymore
    (US) (F 26.0)."""

    kind: str
    hex: str


@dataclass(frozen=True)
class Carry(Action):
    """Answer to the prompt after a KIA or WIA marker appears: the friendly infantry unit in its hex that takes
    it up at once (None: it stays on the ground) (F 7.5.2)."""

    marker: str
    unit: str | None = None


@dataclass(frozen=True)
class Advance(Action):
    """Answer to the advance prompt after a cleared assault: the units that advance (none: stay), and the
    bunker or foxholes they enter (F 8.0, F 24.0, F 25.0)."""

    units: tuple[str, ...] = ()
    fort: str | None = None


@dataclass(frozen=True)
class AssaultTarget(Action):
    """Answer to an assault round's prompt: the enemy unit this firer (a group's primary) shoots (F 8.0)."""

    firer: str
    target: str


@dataclass(frozen=True)
class Land(Action):
    """Answer to the prompt for a downed helicopter: the hex where its owner sets it down (F 7.4)."""

    unit: str
    hex: str


@dataclass(frozen=True)
class Interrogate(Action):
    """Answer to the interrogation prompt: the American unit that questions the Civilians (None: nobody)
    (F 28.0)."""

    civilians: str
    unit: str | None = None


@dataclass(frozen=True)
class Show(Action):
    """Answer to the prompt after a successful interrogation: what the NVA/VC player reveals (F 28.0)."""

    items: tuple[str, ...]


@dataclass(frozen=True)
class FireMissionOrder(Action):
    """Answer to the prompt of the Execute Fire Missions step: the first mission due goes ahead, or the side
    that asked for it calls it off before its accuracy roll (F 16.0)."""

    cancel: bool = False


@dataclass(frozen=True)
class MedevacEntry(Action):
    """Answer to the prompt of an arriving medevac: the map-edge hex where it enters and its altitude
    (F 12.0, F 4.0)."""

    hex: str
    altitude: str = "treetop"


@dataclass(frozen=True)
class Conceal(Action):
    """Answer to the concealment prompt of F 18.2: the units of the player that try to become concealed
    (the others stay visible by their owner's choice)."""

    units: tuple[str, ...] = ()


@dataclass(frozen=True)
class EventTarget(Action):
    """Answer to the NVA Artillery event's prompt: the hex the NVA player targets (F 19.9)."""

    hex: str


@dataclass(frozen=True)
class EventChoice(Action):
    """Answer to a random event's prompt: the unit that gets the marker (None: decline, where the rule lets
    the chooser decline) (F 19.1-19.4)."""

    unit: str | None = None


@dataclass(frozen=True)
class PlaceReinforcement(Action):
    """Answer to the Place Reinforcements prompt: a reinforcement (a transport with its passengers aboard) enters
    in a hex of its group's map edge, a helicopter at Treetop or High (F 4.0, F 6.8)."""

    unit: str
    hex: str
    altitude: str | None = None


@dataclass(frozen=True)
class PlaceCobra(Action):
    """Answer to the AH-1 Cobras event's prompt: the map-edge hex and altitude of the next Cobra (F 19.6)."""

    hex: str
    altitude: str = "treetop"


@dataclass(frozen=True)
class PlaceVC(Action):
    """Answer to the VC event's prompt: the hex of the next VC item, within three hexes of a hamlet (F 19.7)."""

    item: str
    hex: str


ACTION_NAME = {Move: "move", Abandon: "move", Fire: "fire", Assault: "assault", Search: "search", Recover: "recover",
               DestroyCache: "destroy_cache", RequestMedevac: "request_medevac",
               RequestFireMission: "request_fire_mission", Load: "load", Unload: "unload"}
ANSWERS = (OpFire, HoldFire, DetonateClaymore, Carry, Plot, Retreat, Advance, EventChoice, AssaultTarget, Conceal,
           Land, Interrogate, Show, FireMissionOrder, MedevacEntry, EventTarget, PlaceReinforcement, PlaceCobra, PlaceVC)
EVENT_RULES = {"Injury": "F 19.1", "Low Ammo": "F 19.2", "Rally": "F 19.3", "Hero": "F 19.4",
               "NVA Artillery": "F 19.9"}


# --------------------------------------------------------------------------- pending decisions

@dataclass
class MoveStep:
    """A Move under way (its plan and progress)."""

    plan: MovePlan
    asked: int = 0          # hexes of the path already offered for an interrogation (F 28.0)

    def copy(self, state: FteState) -> "MoveStep":
        return MoveStep(self.plan.copy(), self.asked)


@dataclass
class FortStep:
    """At the end of a Move the units get into the bunker or foxholes of their hex, opportunity fire first
    (at them still outside, F 24.0, F 25.0)."""

    units: list[str]
    kind: str
    fired: bool = False
    stopped: list[str] = field(default_factory=list)

    def copy(self, state: FteState) -> "FortStep":
        return FortStep(list(self.units), self.kind, self.fired, list(self.stopped))


@dataclass
class PlotStep:
    """At set-up a player plots his booby traps or claymores one by one, in secret (F 26.0)."""

    player: str
    kind: str               # "booby_trap" or "claymore"
    left: int

    def copy(self, state: FteState) -> "PlotStep":
        return PlotStep(self.player, self.kind, self.left)


@dataclass
class CarryStep:
    """A new casualty marker that a friendly infantry unit in its hex may take up at once (F 7.5.2)."""

    marker: str

    def copy(self, state: FteState) -> "CarryStep":
        return CarryStep(self.marker)


@dataclass
class LoadStep:
    """A Load or Unload declared: the enemy may fire before it is done (``OpFireStep`` "load_before") and after
    (F 14.0, F 15.0); units whose activation the first fire ended take no part."""

    kind: str                       # "load" or "unload"
    transport: str
    units: list[str]
    markers: list[str]
    carry: dict[str, str] = field(default_factory=dict)
    stopped: list[str] = field(default_factory=list)

    def copy(self, state: FteState) -> "LoadStep":
        return LoadStep(self.kind, self.transport, list(self.units), list(self.markers), dict(self.carry),
                        list(self.stopped))


@dataclass
class InterrogateStep:
    """American units that entered a Civilians hex may question them (``stage`` "ask"); after a pass the
    NVA/VC player chooses what to show (``stage`` "show") (F 28.0)."""

    civilians: str
    questioners: list[str]
    stage: str = "ask"
    questioner: str | None = None

    def copy(self, state: FteState) -> "InterrogateStep":
        return InterrogateStep(self.civilians, list(self.questioners), self.stage, self.questioner)


@dataclass
class OpFireStep:
    """An opportunity-fire prompt: the enemy of ``targets`` may fire at one of them in ``hex``.

    ``why``: move, retreat, assault (the defenders before the TQ checks), search, destroy_cache, load, unload.
    ``stopped``: targets whose activation a result ended; ``used``: units that used their extra attempt at a
    retreating unit (F 21.0).
    """

    targets: list[str]
    hex: Hex
    why: str
    stealthy: bool = False
    firers: list[str] | None = None     # only these may fire (the defenders of an assaulted hex)
    stopped: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    way: str | None = None              # the trail or road the targets used to enter the hex (TEC note a)

    def copy(self, state: FteState) -> "OpFireStep":
        return OpFireStep(list(self.targets), self.hex, self.why, self.stealthy,
                          None if self.firers is None else list(self.firers), list(self.stopped), list(self.used),
                          self.way)


@dataclass
class RetreatStep:
    """A broken unit's retreat: its owner's path (None until chosen), and how far it has got (F 7.4)."""

    unit: str
    away_from: str | None
    by: str
    path: list[str] | None = None
    index: int = 0
    used: list[str] = field(default_factory=list)

    def copy(self, state: FteState) -> "RetreatStep":
        return RetreatStep(self.unit, self.away_from, self.by, None if self.path is None else list(self.path),
                           self.index, list(self.used))


@dataclass
class AssaultStep:
    """An assault under way (F 8.0): its run (which shares the game's state) waiting between steps."""

    run: AssaultRun
    advance_prompt: bool = False
    asking: list[str] = field(default_factory=list)         # firers still to name their target this round
    chosen: list[tuple[str, str]] = field(default_factory=list)

    def copy(self, state: FteState) -> "AssaultStep":
        r = self.run
        run = AssaultRun(state, r.plan, Resolution(), r.phase, r.round, list(r.in_assault), list(r.pending),
                         [list(x) for x in r.rounds], r.result)
        return AssaultStep(run, self.advance_prompt, list(self.asking), list(self.chosen))


@dataclass
class LandingStep:
    """A downed helicopter waiting for its owner to set it down (F 7.4)."""

    unit: str

    def copy(self, state: FteState) -> "LandingStep":
        return LandingStep(self.unit)


@dataclass
class MedevacStep:
    """The requested medevac is due this turn and waits for the US player to bring it in (F 12.0)."""

    def copy(self, state: FteState) -> "MedevacStep":
        return MedevacStep()


@dataclass
class MissionsStep:
    """The Execute Fire Missions step (F 16.0): each mission due waits for its side's go-ahead."""

    def copy(self, state: FteState) -> "MissionsStep":
        return MissionsStep()


@dataclass
class ConcealStep:
    """The Check for Concealment phase waits for ``player``'s choice of units (F 18.0: the US first)."""

    player: str

    def copy(self, state: FteState) -> "ConcealStep":
        return ConcealStep(self.player)


@dataclass
class EventStep:
    """A random event that waits for a player to choose its unit (F 19.1-19.4)."""

    side: str
    event: str

    def copy(self, state: FteState) -> "EventStep":
        return EventStep(self.side, self.event)


@dataclass
class ReinforceStep:
    """The Place Reinforcements step (F 4.0): the reinforcements due wait for their owners to place them."""

    def copy(self, state: FteState) -> "ReinforceStep":
        return ReinforceStep()


@dataclass
class CobraStep:
    """The AH-1 Cobras event: the US player brings the two Cobras in, one at a time (F 19.6)."""

    placed: list[str] = field(default_factory=list)

    def copy(self, state: FteState) -> "CobraStep":
        return CobraStep(list(self.placed))


@dataclass
class VCStep:
    """The VC event: the NVA/VC player places its items, one at a time (F 19.7); ``one_of``: the original
    reading, where he places just one item of his choice."""

    items: list[str]
    one_of: bool = False
    made: list[str] = field(default_factory=list)

    def copy(self, state: FteState) -> "VCStep":
        return VCStep(list(self.items), self.one_of, list(self.made))


def _plain(value: Any, state: FteState) -> Any:
    """Any part of the position as JSON-able data (hexes as labels, fractions as text)."""
    if isinstance(value, Hex):
        return state.label(value) if value in state.map else str(value)
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, Fraction):
        return str(value)
    if isinstance(value, dict):
        return {str(_plain(k, state)): _plain(v, state) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if isinstance(value, (set, frozenset)):
        return sorted(_plain(v, state) for v in value)
    if isinstance(value, (list, tuple)):
        return [_plain(v, state) for v in value]
    if isinstance(value, AssaultRun):
        return {"plan": _plain(value.plan, state), "phase": value.phase, "round": value.round,
                "in_assault": list(value.in_assault), "pending": _plain(value.pending, state), "result": value.result}
    if dataclasses.is_dataclass(value):
        return {"kind": type(value).__name__,
                **{f.name: _plain(getattr(value, f.name), state) for f in fields(value)
                   if f.name not in ("state", "map", "charts", "readings", "history")}}
    raise DataError("position", type(value).__name__, "is not plain data")


def _mask(value: Any, hidden: set[str]) -> Any:
    """The other side's concealed units named only as "concealed" (in activations, pending decisions...)."""
    if isinstance(value, str):
        return "concealed" if value in hidden else value
    if isinstance(value, dict):
        return {_mask(k, hidden): _mask(v, hidden) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask(v, hidden) for v in value]
    return value


def _frago(name: str) -> Frago:
    """A shipped FRAGO for a new game: read once per version of its file, each game its own copy."""
    return load_once(load_frago, FRAGOS / f"{name}.yaml")


def _scenarios() -> dict[str, str]:
    out = {}
    for p in sorted(FRAGOS.glob("*.yaml")):
        out[p.stem] = load_frago(p).name
    return out


# --------------------------------------------------------------------------- the game

class Game(CoreGame):
    """A FRAGO in play through the shared protocol (F 3.0): prompts for every decision the rules give."""

    NAME = "FTE"
    PLAY_RULE = "F 3.0"
    ACTIONS = (Draw, Activate, Pass, EndActivation, Move, Abandon, DetonateClaymore, Fire, Assault, Search, Recover, DestroyCache,
               RequestMedevac, RequestFireMission, Load, Unload, OpFire, HoldFire, Carry, Plot, Retreat, Advance, EventChoice,
               AssaultTarget, Conceal, Land, Interrogate, Show, FireMissionOrder, MedevacEntry, EventTarget,
               PlaceReinforcement, PlaceCobra, PlaceVC)
    SCENARIOS = _scenarios()
    DEFAULT_SCENARIO = "demo"
    RULESET = Ruleset
    POSITION = ("state", "phase", "acted", "ended", "pending", "started", "finished")
    NOT_IN_PLAY = {
        "F 6.10": "rare in random play (a vehicle must first be immobilized by a WIA result, then activated to "
                  "abandon it); reached in longer runs of make fuzz, and through Game.apply by tests/"
                  "test_fte_protocol.py::test_abandoning_a_vehicle_and_destroying_a_cache_are_played_through_apply",
        "F 11.0": "rare in random play (a hidden cache must first be found by a successful Search); reached in "
                  "longer runs of make fuzz, and through Game.apply by tests/test_fte_protocol.py::"
                  "test_abandoning_a_vehicle_and_destroying_a_cache_are_played_through_apply",
    }
    GIVEN_FRAGOS: dict[str, Frago] = {}

    @classmethod
    def for_frago(cls, frago: Frago, scenario: str = "custom") -> type["Game"]:
        """A Game class whose one scenario is this FRAGO (an owner's card, or a test's)."""
        return type(f"{cls.__name__}_{scenario.replace(' ', '_')}", (cls,),
                    {"SCENARIOS": {scenario: frago.name}, "DEFAULT_SCENARIO": scenario,
                     "GIVEN_FRAGOS": {scenario: frago}})

    # ------------------------------------------------------------------ setting up
    def setup(self, scenario: str) -> None:
        self.frago = self.GIVEN_FRAGOS.get(scenario) or _frago(scenario)
        self.state = setup(self.frago, self.ruleset.errata(), self.ruleset.charts())
        self.state.defer_retreats = True
        self.phase: ActivationPhase | None = None
        self.acted: dict[str, list[str]] = {}
        self.ended: list[str] = []          # active units whose activation opportunity fire ended (F 7.4)
        self.pending: list = []
        self.started = False
        self.finished: Outcome | None = None
        self._markers_seen: set[str] = set(self.state.casualties)      # to notice new ones (F 7.5.2)
        plots = self.frago.plots                # the secret plots of F 26.0, the NVA/VC player's asked first
        for player_, kind in (("US", "claymore"), ("NVA/VC", "booby_trap")):
            if plots.get(kind + "s") and plot_hexes(self.state, kind):
                self.pending.append(PlotStep(player_, kind, plots[kind + "s"]))

    def shared(self):
        s = self.state
        return (s.map, s.charts, s.readings, self.frago)

    def _snapshot(self) -> dict:
        st = self.state.copy()
        ph = None
        if self.phase is not None:
            ph = copy.copy(self.phase)
            ph.state = st
            ph.history = list(self.phase.history)
        return {"state": st, "phase": ph, "acted": {k: list(v) for k, v in self.acted.items()},
                "ended": list(self.ended), "pending": [p.copy(st) for p in self.pending],
                "started": self.started, "finished": self.finished}

    # ------------------------------------------------------------------ the position
    def position(self) -> dict:
        s = self.state
        ph = self.phase
        phase = None if ph is None else {
            "first_pending": ph.first_pending, "current": ph.current, "chit": ph.chit,
            "active": _plain(ph.active, s), "activations": _plain(ph.history, s), "draws": ph.draws,
            "returned": ph.returned}
        keep = ("map", "charts", "readings")
        state = {f.name: _plain(getattr(s, f.name), s) for f in fields(s) if f.name not in keep}
        return {"state": state, "phase": phase, "acted": _plain(self.acted, s), "ended": list(self.ended),
                "pending": [_plain(p, s) for p in self.pending], "started": self.started,
                "finished": None if self.finished is None else self.finished.to_dict()}

    @implements("F 18.1", "F 22.0", "F 23.0")
    def visible(self, side: str) -> dict:
        """What ``side`` may see: the other side's concealed units (dummies among them) show only a marker, its
        nationality and hex (F 18.1, F 22.0); its hidden sites show only "?" (F 23.0)."""
        if side not in ("US", "NVA/VC"):
            raise DataError("view", "side", f"{side!r} is not a player; expected US or NVA/VC")
        pos = self.position()
        s = self.state
        hidden = {u.id for u in s.units.values() if u.player != side and u.concealed}
        units = [public_view(s, u, side) for u in sorted(s.units.values(), key=lambda u: (u.hex is None, u.id))]
        pos["state"] = {k: v for k, v in pos["state"].items() if k not in ("units", "sites", "booby_traps",
                                                                           "claymores", "next_id")}
        pos["state"]["units"] = units
        pos["state"]["sites"] = sorted(public_sites(s, side), key=lambda d: (d["hex"], d["kind"], d.get("id", "")))
        pos["state"]["booby_traps"] = sorted(s.label(h) for h, p in s.booby_traps.items() if p == side)
        pos["state"]["claymores"] = sorted(s.label(h) for h in s.claymores) if side == "US" else []
        pos["acted"] = {k: v for k, v in pos["acted"].items() if k not in hidden}
        return _mask(pos, hidden)

    def names(self) -> dict[str, list[str]]:
        s = self.state
        return {"units": sorted(s.units), "hexes": sorted(s.label(h) for h in list(s.map.hexes)[:40]),
                "markers": sorted(s.casualties), "sites": sorted(s.sites),
                "how": ["leader", "hex", "unit", "helicopters", "vehicles", "pass"],
                "altitudes": ["high", "treetop", "ground"]}

    def result(self) -> Outcome | None:
        return self.finished

    # ------------------------------------------------------------------ invariants
    def invariants(self) -> list[str]:
        """Stacking (two vehicles, one helicopter), no enemy units sharing a hex (Medics and Civilians apart),
        Civilians never with NVA/VC infantry, VP never below zero, a unit activated once a turn, loaded units
        and carried markers where their carrier is, fort occupants in their site's hex."""
        s = self.state
        out = []
        by_hex: dict[Hex, list[Unit]] = {}
        for u in s.on_map():
            by_hex.setdefault(u.hex, []).append(u)
        for h, here in by_hex.items():
            lab = s.label(h) if h in s.map else str(h)
            if h not in s.map:
                out.append(f"{here[0].id} stands in {lab}, which is not in play")
            if sum(u.kind == "vehicle" for u in here) > 2:
                out.append(f"{lab} holds more than two vehicles (F 6.2)")
            if sum(u.kind == "helicopter" and not u.destroyed for u in here) > 1:
                out.append(f"{lab} holds more than one helicopter (F 6.2)")
            players = {u.player for u in here if u.role not in ("civilians", "medic")}
            if len(players) > 1:
                out.append(f"{lab} holds units of both players: {', '.join(sorted(u.id for u in here))} (F 6.2)")
            if any(u.role == "civilians" for u in here) and any(
                    u.player == "NVA/VC" and u.kind == "infantry" and u.role != "civilians" for u in here):
                out.append(f"{lab} holds Civilians with NVA/VC infantry (F 6.2)")
        for who, vp in s.vp.items():
            if vp < 0:
                out.append(f"{who} has {vp} VP (F 29.0: never below zero)")
        for who, n in s.cup.chits.items():
            if n < 0 or s.cup.cup.count(who) > n:
                out.append(f"{who} has {s.cup.cup.count(who)} chits in the cup but owns {n} (F 5.0)")
        if self.phase is not None:
            seen: dict[str, int] = {}
            acts = list(self.phase.history) + ([self.phase.active] if self.phase.active else [])
            for a in acts:
                for uid in a.units:
                    seen[uid] = seen.get(uid, 0) + 1
            out += [f"{uid} was activated {n} times this turn (F 5.0)" for uid, n in seen.items() if n > 1]
        for u in s.units.values():
            if u.loaded_in is not None:
                c = s.units.get(u.loaded_in)
                if c is None or c.hex != u.hex:
                    out.append(f"{u.id} is loaded in {u.loaded_in}, which is not where it is (F 6.9)")
            for cid in u.carrying:
                m = s.casualties.get(cid)
                if m is None or m.carried_by != u.id:
                    out.append(f"{u.id} carries {cid}, which is not marked as carried by it (F 7.5.2)")
            if u.fort is not None:
                homes = [x for x in sites_at(s, u.hex, u.fort) if u.id in x.occupants] if u.hex else []
                if len(homes) != 1:
                    out.append(f"{u.id} is in a {u.fort} that is not in its hex (F 24.0, F 25.0)")
        for m in s.casualties.values():
            if m.carried_by is not None:
                c = s.units.get(m.carried_by)
                if c is None or m.id not in c.carrying:
                    out.append(f"the marker {m.id} is carried by {m.carried_by}, which does not carry it")
        if s.retreats_due:
            out.append(f"retreats left unresolved: {s.retreats_due}")
        return out

    # ------------------------------------------------------------------ prompts
    def current_prompt(self) -> Prompt | None:
        s, top = self.state, (self.pending[-1] if self.pending else None)
        if isinstance(top, OpFireStep):
            enemy = "NVA/VC" if s.unit(top.targets[0]).player == "US" else "US"
            what = {"retreat": f"opportunity fire at the retreating {top.targets[0]} in {s.label(top.hex)}?",
                    "assault": f"defenders' opportunity fire at the units assaulting {s.label(top.hex)}?",
                    "load_before": f"opportunity fire at {s.label(top.hex)} before the {top.targets[0]} loads or "
                                   "unloads (or hold, and perhaps fire after)?"
                    }.get(top.why, f"opportunity fire at {s.label(top.hex)}?")
            return Prompt(enemy, "F 8.0" if top.why == "assault" else "F 21.0", what, "opportunity_fire")
        if isinstance(top, PlotStep):
            return Prompt(top.player, "F 26.0", f"set-up: plot a {top.kind.replace('_', ' ')} in secret ({top.left} "
                                                "left): in which hex?", "plot")
        if isinstance(top, CarryStep):
            m = s.casualties[top.marker]
            return Prompt(m.player, "F 7.5.2", f"the new {m.kind} marker {m.id} in {s.label(m.hex)}: does one of your "
                                               "units there carry it at once?", "carry")
        if isinstance(top, RetreatStep):
            u = s.unit(top.unit)
            away = f" away from {top.away_from}" if top.away_from else ""
            return Prompt(u.player, "F 7.4", f"retreat the broken {u.id} two hexes from {s.label(u.hex)}{away}",
                          "retreat")
        if isinstance(top, InterrogateStep):
            if top.stage == "ask":
                return Prompt("US", "F 28.0", f"interrogate the civilians in {s.label(s.unit(top.civilians).hex)}?",
                              "interrogate")
            return Prompt("NVA/VC", "F 28.0", f"the civilians talked to {top.questioner}: which of your concealed "
                                              "units or hidden sites do you reveal?", "show")
        if isinstance(top, LandingStep):
            u = s.unit(top.unit)
            return Prompt(u.player, "F 7.4", f"where does the downed {u.id} come down?", "land")
        if isinstance(top, MedevacStep):
            return Prompt("US", "F 12.0", "the medevac arrives: in which map-edge hex, at which altitude?", "medevac")
        if isinstance(top, MissionsStep):
            m = missions_due(s)[0]
            return Prompt(m.side, "F 16.0", f"the {m.mission} mission on {s.label(m.target)} is due: execute it or "
                                            "call it off?", "fire_mission")
        if isinstance(top, ConcealStep):
            return Prompt(top.player, "F 18.2", "which units try to become concealed?", "conceal")
        if isinstance(top, ReinforceStep):
            who, offers = self._placer()
            ids = ", ".join(dict.fromkeys(a.unit for a in offers))
            return Prompt(who, "F 4.0", f"place your reinforcements on their map edge: {ids}", "reinforce")
        if isinstance(top, CobraStep):
            return Prompt("US", "F 19.6", f"AH-1 Cobras: on which map-edge hex, at which altitude, does the "
                                          f"{'second' if top.placed else 'first'} Cobra arrive?", "event")
        if isinstance(top, VCStep):
            what = "which VC item goes where" if top.one_of else f"where does the VC {top.items[0].replace('_', ' ')} go"
            return Prompt("NVA/VC", "F 19.7", f"VC event: {what}, within three hexes of a hamlet?", "event")
        if isinstance(top, EventStep) and top.event == "NVA Artillery":
            return Prompt("NVA/VC", "F 19.9", "NVA artillery: which hex does it target?", "event")
        if isinstance(top, EventStep):
            verb = "take" if chooser(top.side, top.event) == top.side else "give"
            return Prompt(chooser(top.side, top.event), EVENT_RULES[top.event],
                          f"random event {top.event}: which {top.side} unit does it {verb}?", "event")
        if isinstance(top, AssaultStep) and top.asking:
            firer = s.unit(top.asking[0])
            return Prompt(firer.player, "F 8.0", f"assault round {top.run.round}: which unit does {firer.id} fire at?",
                          "assault_target")
        if isinstance(top, AssaultStep) and top.advance_prompt:
            return Prompt(top.run.attacker_player, "F 8.0", f"advance into the cleared hex {top.run.plan.target}?",
                          "advance")
        ph = self.phase
        if ph is None or (ph.active is None and ph.current is None):
            return Prompt(s.first_player, "F 5.0", "draw the next activation chit", "draw")
        if ph.active is None:
            return Prompt(ph.current, "F 5.1", "activate units or pass", "activate")
        return Prompt(ph.active.player, "F 5.0", "act with the activated units, or end the activation")

    # ------------------------------------------------------------------ candidates
    def candidates(self):
        if self.pending:
            return self._answers(self.pending[-1])
        ph = self.phase
        if ph is None or (ph.active is None and ph.current is None):
            return [Draw()]
        if ph.active is None:
            return [Activate(a.how, a.units, a.leader) for a in activatable(self.state, ph.current)
                    if a.how != "pass"] + [Pass()]
        out: list[Action] = [EndActivation()]
        active = [self.state.units[uid] for uid in ph.active.units if uid in self.state.units]
        active = [u for u in active if u.on_map]
        for u in active:
            out += self._unit_candidates(u)
        if ph.active.player == "US":
            s = self.state
            out += [DetonateClaymore(s.label(h)) for h in sorted(s.claymores, key=s.label)
                    if any(e.player != "US" for e in s.units_at(h))]
        combat = [u.id for u in active if u.is_combat]
        if len(combat) > 1:
            for e in self._enemies(active[0].player):
                out.append(Fire(tuple(combat), e.id))
        by_hex: dict[Hex, list[str]] = {}
        for u in active:
            if u.infantry:
                by_hex.setdefault(u.hex, []).append(u.id)
        for h, ids in by_hex.items():
            if len(ids) > 1:
                out += [Move(tuple(ids), (self.state.label(n),)) for n in self.state.map.neighbors(h)]
        return out

    def _enemies(self, player: str) -> list[Unit]:
        return [e for e in self.state.on_map() if e.player != player and not e.destroyed]

    def _unit_candidates(self, u: Unit) -> list[Action]:
        s = self.state
        lab = s.label
        out: list[Action] = []
        nbrs = [n for n in s.map.neighbors(u.hex)]
        if u.kind == "helicopter":
            out.append(Move((u.id,)))
            for alt in ("high", "treetop", "ground"):
                out.append(Move((u.id,), altitude_start=alt))
            out += [Move((u.id,), (lab(n),)) for n in nbrs]
            aboard = any(v.loaded_in == u.id for v in s.units.values()) or any(
                m.carried_by == u.id for m in s.casualties.values())
            if u.broken or aboard or u.leaves_turn is not None or u.move_only or u.role == "cobra":
                way = path_off_map(s, u)
                if way is not None:                       # fly off the map by a shortest way (F 6.5, F 7.4)
                    out.append(Move((u.id,), tuple(lab(h) for h in way), exit_map=True,
                                    altitude_start="treetop" if u.altitude == "ground" else None))
        else:
            out += [Move((u.id,), (lab(n),), leave_fort=bool(u.fort)) for n in nbrs]
            if u.infantry:
                if u.fort:
                    out.append(Move((u.id,), leave_fort=True))
                for h in [u.hex, *nbrs]:
                    for kind in ("bunker", "foxholes"):
                        if sites_at(s, h, kind) and not (h == u.hex and u.fort):
                            out.append(Move((u.id,), () if h == u.hex else (lab(h),), fort=kind,
                                            leave_fort=bool(u.fort)))
            if u.kind == "vehicle" and u.immobilized:
                out.append(Abandon(u.id))
            if u.infantry and u.concealed:
                out += [Move((u.id,), (lab(n),), stealthy=True) for n in nbrs]
            if u.carrying or any(v.loaded_in == u.id for v in s.units.values()) or u.injury:
                out.append(Move((u.id,), exit_map=True, leave_fort=bool(u.fort)))
        if u.is_combat:
            out += [Fire((u.id,), e.id) for e in self._enemies(u.player)]
            if u.role == "mortar":
                out += [Fire((u.id,), e.id, observed=True) for e in self._enemies(u.player)]
        enemy_hexes = {e.hex for e in self._enemies(u.player) if e.hex.is_adjacent(u.hex)}
        out += [Assault((u.id,), lab(h)) for h in sorted(enemy_hexes, key=lab)]
        if u.infantry:
            out += [Search(u.id), DestroyCache(u.id), RequestMedevac(u.id)]
        out.append(Recover(u.id))
        for m in s.casualties_at(u.hex):
            out.append(Recover(u.id, pick_up=m.id))
        if u.is_leader or u.role == "fo":
            seen = {e.hex for e in self._enemies(u.player) if not e.concealed}
            out += [RequestFireMission(u.id, lab(h)) for h in sorted(seen, key=lab)]
        if u.capacity:
            here = [v for v in s.units_at(u.hex, u.player) if v.infantry and v.role not in ("dummy", "civilians")
                    and v.id != u.id]
            for v in here:
                out.append(Load(u.id, units=(v.id,)))
            carried = [m for v in here for m in s.casualties.values() if m.carried_by == v.id]
            for m in s.casualties_at(u.hex) + carried:           # loose, or handed up by their carriers (F 14.0)
                if m.player == u.player:
                    out.append(Load(u.id, markers=(m.id,)))
            aboard = tuple(sorted(v.id for v in s.units.values() if v.loaded_in == u.id))
            markers = tuple(m.id for m in s.casualties.values() if m.carried_by == u.id)
            if aboard or markers:
                out.append(Unload(u.id, units=aboard, markers=markers))
        return out

    def _opfire_targets(self, step: OpFireStep) -> list[str]:
        s = self.state
        def here(u: Unit) -> bool:
            if step.why == "assault":       # the assaulting units stand next to the defenders' hex
                return not u.broken and not u.suppressed and u.hex.is_adjacent(step.hex)
            return u.hex == step.hex
        return [t for t in step.targets if t in s.units and s.units[t].on_map and not s.units[t].destroyed
                and here(s.units[t])
                and not any(r[0] == t for r in s.retreats_due)]

    def _eligible(self, step: OpFireStep, target: str) -> list[str]:
        s = self.state
        ids = eligible_opfirers(s, target, retreating=step.why == "retreat", used_on_retreat=set(step.used))
        if step.firers is not None:
            ids = [i for i in ids if i in step.firers]
        return ids

    def _answers(self, top) -> list[Action]:
        s = self.state
        if isinstance(top, OpFireStep):
            out: list[Action] = []
            for t in self._opfire_targets(top):
                for group in combine_groups(s, self._eligible(top, t)):
                    out.append(OpFire(tuple(group), t))
                    if len(group) > 1:
                        out += [OpFire((g,), t) for g in group]
            return out + self._claymores(top) + [HoldFire()]
        if isinstance(top, CarryStep):
            return [Carry(top.marker, uid) for uid in self._carriers(top.marker)] + [Carry(top.marker)]
        if isinstance(top, PlotStep):
            return [Plot(top.kind, s.label(h)) for h in plot_hexes(self.state, top.kind)]
        if isinstance(top, RetreatStep):
            u = s.unit(top.unit)
            away = s.hex(top.away_from) if top.away_from else None
            return [Retreat(u.id, tuple(s.label(h) for h in p)) for p in retreat_options(s, u, away)]
        if isinstance(top, InterrogateStep):
            if top.stage == "ask":
                return [Interrogate(top.civilians, q) for q in top.questioners] + [Interrogate(top.civilians)]
            q, civ = s.unit(top.questioner), s.unit(top.civilians)
            cands = interrogation_candidates(s, q, civ)
            return [Show(tuple(x)) for x in itertools.combinations(cands, min(2, len(cands)))]
        if isinstance(top, LandingStep):
            u = s.unit(top.unit)
            return [Land(u.id, s.label(h)) for h in landing_options(s, u)]
        if isinstance(top, MedevacStep):
            free = [h for h in act_mod.edge_hexes(s) if not any(u.kind == "helicopter" and not u.destroyed
                                                                for u in s.units_at(h))]
            return [MedevacEntry(s.label(h), alt) for h in free for alt in ("treetop", "high")]
        if isinstance(top, MissionsStep):
            return [FireMissionOrder(), FireMissionOrder(cancel=True)]
        if isinstance(top, ConcealStep):
            able = tuple(self._may_conceal(top.player))
            return [Conceal(able), Conceal()] + ([Conceal((u,)) for u in able] if len(able) > 1 else [])
        if isinstance(top, ReinforceStep):
            return self._placer()[1]
        if isinstance(top, CobraStep):
            return [PlaceCobra(s.label(h), alt) for h in cobra_hexes(s) for alt in ("treetop", "high")]
        if isinstance(top, VCStep):
            return [PlaceVC(it, s.label(h)) for it in (top.items if top.one_of else top.items[:1])
                    for h in vc_hexes(s, it)]
        if isinstance(top, EventStep) and top.event == "NVA Artillery":
            return [EventTarget(s.label(h)) for h in self._artillery_targets()]
        if isinstance(top, EventStep):
            out = [EventChoice(u.id) for u in eligible_units(s, top.side, top.event)]
            return out + ([EventChoice()] if UNIT_CHOICES[top.event][1] else [])
        if isinstance(top, AssaultStep) and top.asking:
            return [AssaultTarget(top.asking[0], t) for t in self._assault_targets(top, top.asking[0])]
        if isinstance(top, AssaultStep) and top.advance_prompt:
            fighters = tuple(u.id for u in top.run.fighting_attackers())
            out = [Advance(fighters)] + ([Advance((f,)) for f in fighters] if len(fighters) > 1 else [])
            h = top.run.hex
            for kind in ("bunker", "foxholes"):
                if sites_at(s, h, kind):
                    out.append(Advance(fighters, kind))
            return out + [Advance()]
        return []

    # ------------------------------------------------------------------ legality, fast where it matters
    def check_action(self, action: Action) -> None:
        """Moves and fire attacks are checked directly (the whole path, the LoS and range); anything else is
        tried on a copy of the position."""
        if not self.pending and isinstance(action, (Move, Fire)):
            self._actor_checks(action)
            s = self.state
            if isinstance(action, Move):
                self._plan(action)
            else:
                check_fire(s, [s.unit(f) for f in action.firers], s.unit(action.target), observed=action.observed)
            return
        super().check_action(action)

    def _dispatch(self, action: Action, dice, res: Resolution) -> None:
        top = self.pending[-1] if self.pending else None
        if top is not None and not isinstance(action, ANSWERS):
            p = self.current_prompt()
            raise RuleViolation(p.rule, f"a decision is pending first: {p}")
        self._markers_seen = set(self.state.casualties)
        super()._dispatch(action, dice, res)
        self._run(dice, res)

    def _actor_checks(self, action: Action) -> list[str]:
        ph, s = self.phase, self.state
        if ph is None or ph.active is None:
            raise RuleViolation("F 5.0", "activate units (or pass) before taking actions")
        name = ACTION_NAME[type(action)]
        actors = self._actors(action)
        if not actors:
            raise RuleViolation("F 5.0", "name the unit that acts")
        for uid in actors:
            u = s.unit(uid)
            if uid not in ph.active.units or uid not in self.acted:
                raise RuleViolation("F 5.0", f"{uid} is not part of the current activation")
            if uid in self.ended:
                raise RuleViolation("F 7.4", f"opportunity fire ended {uid}'s activation")
            check_unit_action(s, u, name, self.acted[uid], ph.active)
            if ph.active.how == "helicopters":
                k = len(self.acted[uid])
                done = [acts[k] for o, acts in self.acted.items() if o != uid and len(acts) > k]
                if done and done[0] != name:
                    raise RuleViolation("F 5.1", f"helicopters activated together take the same actions: the "
                                                 f"others' action {k + 1} was {done[0].replace('_', ' ')}")
        return actors

    @staticmethod
    def _actors(action: Action) -> tuple[str, ...]:
        if hasattr(action, "transport"):
            return (action.transport,)
        if hasattr(action, "vehicle"):
            return (action.vehicle,)
        for attr in ("units", "firers", "attackers"):
            if hasattr(action, attr):
                return tuple(dict.fromkeys(getattr(action, attr)))
        return (action.unit,)

    def _acted(self, action: Action, res: Resolution) -> None:
        name = ACTION_NAME[type(action)]
        for uid in self._actors(action):
            self.acted[uid].append(name)
            if name != "search" and uid in self.state.units:
                act_mod.clear_searching(self.state.units[uid], res)

    def _plan(self, a: Move) -> MovePlan:
        s = self.state
        drop = {}
        for pair in a.drop:
            if len(pair) != 2:
                raise RuleViolation("F 7.5.2", "each dropped marker is given as [marker, hex]")
            drop[pair[0]] = s.hex(pair[1])
        plan = plan_move(s, list(a.units), [s.hex(h) for h in a.path], double_time=a.double_time,
                         stealthy=a.stealthy, drop=drop, altitude_start=a.altitude_start,
                         altitude_end=a.altitude_end, exit_map=a.exit_map, stay=a.leave_fort or a.fort is not None)
        self._check_forts(a, plan)
        return plan

    def _check_forts(self, a: Move, plan: MovePlan) -> None:
        """Leaving and entering cover as part of a Move (F 24.0, F 25.0), checked before anything moves."""
        s = self.state
        movers = [s.unit(u) for u in a.units]
        if a.leave_fort and not all(u.fort for u in movers):
            raise RuleViolation("F 24.0", "only units in a bunker or foxholes can leave one")
        if a.fort is None:
            if (a.path or a.exit_map) and any(u.fort for u in movers) and not a.leave_fort:
                raise RuleViolation("F 24.0", "a unit in a bunker or foxholes leaves it (leave_fort) before moving on")
            return
        if a.exit_map:
            raise RuleViolation("F 24.0", "a unit leaving the map enters no bunker or foxholes")
        if a.fort not in ("bunker", "foxholes"):
            raise RuleViolation("F 24.0", f"{a.fort!r} is neither a bunker nor foxholes")
        rule = "F 24.0" if a.fort == "bunker" else "F 25.0"
        end = plan.hexes[-1] if plan.hexes else plan.start
        if any(u.fort for u in movers) and not a.leave_fort:
            raise RuleViolation(rule, "a unit already in cover leaves it before entering another")
        found = [x for x in sites_at(s, end, a.fort) if x.revealed or (x.side == "US") == (movers[0].player == "US")]
        if not found:
            raise RuleViolation("F 23.0", f"no {a.fort} known to {movers[0].player} is in {s.label(end)}")
        inside = [o for o in found[0].occupants if o in s.units and s.units[o].on_map and o not in a.units]
        if not all(u.infantry for u in movers) or len(inside) + len(movers) > 2:
            raise RuleViolation(rule, f"a {a.fort} holds up to two infantry units")

    # ------------------------------------------------------------------ the activation phase
    @handles(Draw)
    def _on_draw(self, action, dice, res):
        ph = self.phase
        if ph is not None and (ph.active is not None or ph.current is not None):
            raise RuleViolation("F 5.0", "an activation is pending: act, pass or end it before drawing")
        if not self.started:
            self.started = True
            self._start_turn(res)
            if self.pending:
                return
        while True:
            who = self.phase.next(dice, res)
            if who == "event":
                drawn = random_event(self.state, dice, res, defer=True)
                side, event = drawn["side"], drawn["event"]
                step = self._event_step(side, event)
                if step is not None:
                    self.pending.append(step)      # the player the rule names chooses
                    return
                resolve_event(self.state, side, event, dice, res)
                if self.state.retreats_due:
                    return              # the retreats first; the next Draw goes on with the cup
                continue
            if who is None:
                self._end_turn(dice, res)           # the concealment prompts follow; then the next turn
                return
            return

    @handles(Activate)
    def _on_activate(self, action, dice, res):
        ph = self.phase
        if ph is None or ph.current is None:
            raise RuleViolation("F 5.0", "no activation is pending: draw a chit first")
        if ph.active is not None:
            raise RuleViolation("F 5.0", "an activation is already in progress")
        if action.how == "pass":
            raise RuleViolation("F 5.1", "to pass, use the Pass action")
        ph.activate(ph.current, action.how, action.units, res, leader=action.leader)
        self.acted = {u: [] for u in ph.active.units}
        self.ended = []

    @handles(Pass)
    def _on_pass(self, action, dice, res):
        ph = self.phase
        if ph is None or ph.current is None:
            raise RuleViolation("F 5.0", "no activation is pending: draw a chit first")
        if ph.active is not None:
            raise RuleViolation("F 5.1", "a player passes instead of activating, not during an activation")
        ph.pass_(ph.current, res)

    def _owes_move(self, uid: str) -> bool:
        """An activated helicopter that has not yet taken the Move its activation requires, and could take one now
        (hovering, or flying off when broken); a downed one owes none (F 5.0, F 7.4)."""
        u, s = self.state.units.get(uid), self.state
        if (u is None or u.kind != "helicopter" or not u.on_map or u.destroyed or u.downed or uid in self.ended
                or "move" in self.acted.get(uid, [])):
            return False
        moves = [Move((uid,))]
        if u.broken:
            way = path_off_map(s, u)
            moves = [] if way is None else [Move((uid,), tuple(s.label(h) for h in way), exit_map=True,
                                                 altitude_start="treetop" if u.altitude == "ground" else None)]
        return any(self.why_illegal(m) is None for m in moves)

    @handles(EndActivation)
    def _on_end(self, action, dice, res):
        ph = self.phase
        if ph is None or ph.active is None:
            raise RuleViolation("F 5.0", "no activation is in progress")
        for uid in ph.active.units:
            if self._owes_move(uid):
                raise RuleViolation("F 5.0", f"{uid} must take its Move action first (a helicopter may hover in "
                                             "place, and is then still open to opportunity fire)"
                                    + ("; broken, it flies off the map" if self.state.units[uid].broken else ""))
        ph.end(res)
        self.acted, self.ended = {}, []

    # ------------------------------------------------------------------ the actions of F 6.0-15.0
    @handles(Move)
    def _on_move(self, action, dice, res):
        self._actor_checks(action)
        plan = self._plan(action)
        self._acted(action, res)
        if action.fort is not None:
            self.pending.append(FortStep(list(action.units), action.fort))
        self.pending.append(MoveStep(plan))
        if action.leave_fort:
            for uid in action.units:
                exit_fort(self.state, uid, res)
            self.pending.append(OpFireStep(list(action.units), plan.start, "move"))   # outside the cover

    @handles(Abandon)
    def _on_abandon(self, action, dice, res):
        self._actor_checks(action)
        self._acted(action, res)
        abandon(self.state, action.vehicle, res)

    def _claymores(self, top: OpFireStep) -> list[Action]:
        """Claymores the US player may fire at an opportunity-fire moment of his: those with enemy units in their
        hex, or in the hex the enemy assaults (F 26.0)."""
        s = self.state
        if not self._claymore_owner(top):
            return []
        return [DetonateClaymore(s.label(h)) for h in sorted(s.claymores, key=s.label) if claymore_ready(s, h)
                and (any(e.player != "US" for e in s.units_at(h)) or (top.why == "assault" and h == top.hex))]

    def _claymore_owner(self, top) -> bool:
        """The US player is the one asked about this opportunity fire (so he may fire a claymore now)."""
        return isinstance(top, OpFireStep) and self.state.unit(top.targets[0]).player != "US"

    @handles(DetonateClaymore)
    def _on_claymore(self, action, dice, res):
        """A claymore goes off whenever the American player chooses (F 26.0): during his activations, or when
        the enemy moves, assaults or acts in his sight (the moments he is asked about opportunity fire)."""
        ph, s = self.phase, self.state
        top = self.pending[-1] if self.pending else None
        if top is None and (ph is None or ph.active is None or ph.active.player != "US"):
            raise RuleViolation("F 26.0", "the American player fires a claymore during his activations or when the "
                                          "enemy draws his opportunity fire")
        if top is not None and not self._claymore_owner(top):
            raise RuleViolation("F 26.0", "answer the pending decision first")
        h = s.hex(action.hex)
        assaulting = [t for t in self._opfire_targets(top)] if (
            top is not None and top.why == "assault" and h == top.hex) else []
        out = detonate_claymore(s, h, dice, res, assaulting=assaulting)
        if top is not None:
            for uid, o in out.items():
                if uid in top.targets and o.hit and o.applied not in (None, "none"):
                    top.stopped.append(uid)          # hit while acting: its activation is over (F 7.4)
                    if uid in self.acted and uid not in self.ended:
                        self.ended.append(uid)

    @handles(Fire)
    def _on_fire(self, action, dice, res):
        self._actor_checks(action)
        self._acted(action, res)
        fire(self.state, list(action.firers), action.target, dice, res, observed=action.observed)

    @handles(Assault)
    def _on_assault(self, action, dice, res):
        self._actor_checks(action)
        plan = AssaultPlan(tuple(action.attackers), action.target, combine=action.combine, primary=action.primary,
                           advance=True)
        if action.primary is not None and action.primary not in action.attackers:
            raise RuleViolation("F 7.1", f"the primary {action.primary} is not one of the assaulting units")
        check_assault(self.state, plan)
        self._acted(action, res)
        run = AssaultRun(self.state, plan)
        run.step(dice)                              # eligibility, the assaulting units lose concealment
        res.extend(run.res)
        run.res = Resolution()
        self.pending.append(AssaultStep(run))

    @handles(Search)
    def _on_search(self, action, dice, res):
        self._actor_checks(action)
        self._acted(action, res)
        act_mod.search(self.state, action.unit, dice, res)
        self._opfire_after([action.unit], "search")

    @handles(Recover)
    def _on_recover(self, action, dice, res):
        self._actor_checks(action)
        if (action.transfer is None) != (action.transfer_to is None):
            raise RuleViolation("F 10.0", "a transfer names the marker and the unit that takes it")
        self._acted(action, res)
        done = act_mod.recover(self.state, action.unit, res, pick_up=action.pick_up,
                               transfer=(action.transfer, action.transfer_to) if action.transfer else None)
        if not done:
            raise RuleViolation("F 10.0", f"{action.unit} has nothing to recover from")

    @handles(DestroyCache)
    def _on_destroy(self, action, dice, res):
        self._actor_checks(action)
        self._acted(action, res)
        act_mod.destroy_cache(self.state, action.unit, res, site=action.site, dice=dice)
        self._opfire_after([action.unit], "destroy_cache")

    @handles(RequestMedevac)
    def _on_medevac(self, action, dice, res):
        self._actor_checks(action)
        self._acted(action, res)
        act_mod.request_medevac(self.state, action.unit, dice, res)

    @handles(RequestFireMission)
    def _on_fire_mission(self, action, dice, res):
        self._actor_checks(action)
        self._acted(action, res)
        act_mod.request_fire_mission(self.state, action.unit, action.target, dice, res)

    @handles(Load)
    def _on_load(self, action, dice, res):
        self._actor_checks(action)
        act_mod.load(self.state.copy(), action.transport, Resolution(), units=action.units, markers=action.markers)
        self._acted(action, res)
        self._declare_load(LoadStep("load", action.transport, list(action.units), list(action.markers)), res)

    @handles(Unload)
    def _on_unload(self, action, dice, res):
        self._actor_checks(action)
        carry = {}
        for pair in action.carry:
            if len(pair) != 2:
                raise RuleViolation("F 15.0", "each carried marker is given as [marker, unit]")
            carry[pair[0]] = pair[1]
        act_mod.unload(self.state.copy(), action.transport, Resolution(), units=list(action.units),
                       markers=list(action.markers), carry=carry, auto_carry=False)
        self._acted(action, res)
        self._declare_load(LoadStep("unload", action.transport, list(action.units), list(action.markers), carry),
                           res)

    def _declare_load(self, step: LoadStep, res: Resolution) -> None:
        """The enemy may fire before the Load or Unload is done, at the transport (and at the units getting
        aboard), or wait and fire after it (F 14.0, F 15.0)."""
        s = self.state
        t = s.unit(step.transport)
        res.add("F 14.0" if step.kind == "load" else "F 15.0",
                f"{t.id} is to {step.kind} in {s.label(t.hex)}: opportunity fire may come before or after")
        self.pending.append(step)
        self.pending.append(OpFireStep([t.id] + (step.units if step.kind == "load" else []), t.hex, "load_before"))

    def _finish_load(self, step: LoadStep, dice, res: Resolution) -> None:
        """Carry out a declared Load or Unload with whoever is still able, then the fire after it."""
        s = self.state
        t = s.unit(step.transport)
        rule = "F 14.0" if step.kind == "load" else "F 15.0"
        if t.id in step.stopped or not t.on_map or t.destroyed or t.broken or t.altitude not in (None, "ground"):
            res.add(rule, f"the opportunity fire stopped {t.id}: nothing is {step.kind}ed")
            return
        try:
            if step.kind == "load":
                units = [u for u in step.units if u not in step.stopped and s.units[u].on_map
                         and s.units[u].hex == t.hex]
                markers = [m for m in step.markers if m in s.casualties]
                out = act_mod.load(s, t.id, res, units=units, markers=markers, dice=dice)
                after = [t.id]
            else:
                out = act_mod.unload(s, t.id, res, units=step.units, markers=step.markers, carry=step.carry,
                                     auto_carry=False, dice=dice)
                after = [t.id] + list(out["units"])
        except RuleViolation as e:
            res.add(e.rule, f"after the opportunity fire {t.id} cannot {step.kind}: {e.reason}")
            return
        self._opfire_after(after, step.kind)

    def _opfire_after(self, targets: list[str], why: str) -> None:
        """Opportunity fire at the unit(s) that took the action, once it is done (F 21.0)."""
        s = self.state
        live = [t for t in targets if s.units[t].on_map]
        if live:
            self.pending.append(OpFireStep(live, s.units[live[0]].hex, why))

    # ------------------------------------------------------------------ answers to prompts
    @handles(OpFire)
    def _on_opfire(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, OpFireStep):
            raise RuleViolation("F 21.0", "no opportunity fire is offered now")
        s = self.state
        if action.target not in self._opfire_targets(top):
            raise RuleViolation("F 21.0", f"{action.target} did not trigger this opportunity fire, or is gone")
        firers = list(action.firers)
        if not firers or len(set(firers)) != len(firers):
            raise RuleViolation("F 21.0", "name each firing unit once")
        allowed = self._eligible(top, action.target)
        for f in firers:
            s.unit(f)
            if f not in allowed:
                raise RuleViolation("F 8.0" if top.why == "assault" else "F 21.0",
                                    f"{f} may not attempt opportunity fire at {action.target} now")
        target = s.unit(action.target)
        for f in firers:            # the fire itself must be possible whatever the Troop Quality checks roll
            check_fire(s, [s.unit(f)], target, opportunity=True)
        if len(combine_groups(s, firers)) > 1:
            raise RuleViolation("F 21.0", "units that combine opportunity fire must be in or next to the hex of a "
                                          "unit they combine with")
        used = set(top.used)
        out = opportunity_fire(s, firers, action.target, dice, res, stealthy=top.stealthy,
                               retreating=top.why == "retreat", used_on_retreat=used, way=top.way)
        top.used = sorted(used)
        if ended_activation(out):
            top.stopped.append(action.target)
            if action.target in self.acted and action.target not in self.ended:
                self.ended.append(action.target)

    @handles(HoldFire)
    def _on_hold(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, OpFireStep):
            raise RuleViolation("F 21.0", "no opportunity fire is offered now")
        res.add("F 21.0", f"no {'further ' if top.stopped or top.used else ''}opportunity fire at "
                          f"{self.state.label(top.hex)}")
        self._close_opfire(res)

    def _close_opfire(self, res: Resolution) -> None:
        step = self.pending.pop()
        below = self.pending[-1] if self.pending else None
        if step.why == "move" and isinstance(below, MoveStep):
            movers_stopped(self.state, below.plan, step.hex, step.stopped, res)
        if step.why in ("fort", "load_before") and isinstance(below, (FortStep, LoadStep)):
            below.stopped = list(step.stopped)
        if step.why == "retreat" and isinstance(below, RetreatStep) and below.unit == step.targets[0]:
            below.used = list(step.used)

    def _assault_targets(self, top: AssaultStep, firer: str) -> list[str]:
        run = top.run
        if self.state.unit(firer).player == run.attacker_player:
            return [d.id for d in run.defenders()]
        return [u.id for u in run.fighting_attackers()]

    @staticmethod
    def _round_firers(run: AssaultRun, side: str) -> list[str]:
        """Who names a target this round: each attacker (or, combining, the primary) and each defender."""
        if side == "defender":
            return [d.id for d in run.fighting_defenders()] if run.fighting_attackers() else []
        fighters = [u for u in run.fighting_attackers() if u.is_combat]
        if not fighters:
            return []
        if run.plan.combine:
            prim = run.plan.primary if run.plan.primary in [u.id for u in fighters] else fighters[0].id
            return [prim]
        return [u.id for u in fighters]

    @handles(AssaultTarget)
    def _on_assault_target(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, AssaultStep) or not top.asking:
            raise RuleViolation("F 8.0", "no assault round waits for a target")
        if action.firer != top.asking[0]:
            raise RuleViolation("F 8.0", f"{top.asking[0]} names its target now, not {action.firer}")
        self.state.unit(action.target)
        if action.target not in self._assault_targets(top, action.firer):
            raise RuleViolation("F 8.0", f"{action.target} is not an opposing unit in this assault")
        top.chosen.append((action.firer, action.target))
        top.asking.pop(0)

    @handles(Interrogate)
    def _on_interrogate(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, InterrogateStep) or top.stage != "ask" or action.civilians != top.civilians:
            raise RuleViolation("F 28.0", "no Civilians marker waits to be questioned")
        if action.unit is None:
            res.add("F 28.0", f"the civilians {top.civilians} are not questioned")
            self.pending.pop()
            return
        s = self.state
        s.unit(action.unit)
        if action.unit not in top.questioners:
            raise RuleViolation("F 28.0", f"{action.unit} did not just enter the Civilians hex")
        q, civ = check_interrogation(s, action.unit, top.civilians)
        if not question(s, q, civ, dice, res):
            res.add("F 28.0", "the civilians tell nothing", result=[])
            remove_civilians(s, civ, res)
            self.pending.pop()
            return
        cands = interrogation_candidates(s, q, civ)
        if len(cands) <= 2:                     # no choice: everything there is comes out
            reveal_shown(s, civ, cands, res)
            remove_civilians(s, civ, res)
            self.pending.pop()
            return
        top.stage, top.questioner = "show", q.id

    @handles(Show)
    def _on_show(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, InterrogateStep) or top.stage != "show":
            raise RuleViolation("F 28.0", "nothing is to be shown now")
        s = self.state
        q, civ = s.unit(top.questioner), s.unit(top.civilians)
        reveal_shown(s, civ, check_shown(s, q, civ, list(action.items)), res)
        remove_civilians(s, civ, res)
        self.pending.pop()

    @handles(MedevacEntry)
    def _on_medevac_entry(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, MedevacStep):
            raise RuleViolation("F 12.0", "no medevac is arriving now")
        if action.altitude not in ("treetop", "high"):
            raise RuleViolation("F 4.0", "helicopters enter at Treetop or High level")
        act_mod.medevac_arrives(self.state, res, where=action.hex, altitude=action.altitude)
        self.pending.pop()

    @handles(FireMissionOrder)
    def _on_mission(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        s = self.state
        if not isinstance(top, MissionsStep) or not missions_due(s):
            raise RuleViolation("F 16.0", "no fire mission is due now")
        m = missions_due(s)[0]
        if action.cancel:
            cancel_fire_mission(s, m, res, who=m.side)
        else:
            execute_mission(s, m, dice, res, s.charts.fire_missions)

    @handles(Land)
    def _on_land(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, LandingStep):
            raise RuleViolation("F 7.4", "no downed helicopter waits to be set down")
        if action.unit != top.unit:
            raise RuleViolation("F 7.4", f"{top.unit} is the helicopter to set down, not {action.unit}")
        s = self.state
        land_downed(s, s.unit(top.unit), s.hex(action.hex), res)
        self.pending.pop()

    def _may_conceal(self, player: str) -> list[str]:
        s = self.state
        return [u.id for u in sorted(s.on_map(player), key=lambda u: u.id) if not cannot_conceal(s, u)]

    @handles(Conceal)
    def _on_conceal(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, ConcealStep):
            raise RuleViolation("F 18.0", "it is not the Check for Concealment phase")
        able = self._may_conceal(top.player)
        for uid in action.units:
            u = self.state.unit(uid)
            if uid not in able:
                why = cannot_conceal(self.state, u) or f"it is not a unit of {top.player}"
                raise RuleViolation("F 18.2", f"{uid} cannot try to become concealed: {why}")
        if len(set(action.units)) != len(action.units):
            raise RuleViolation("F 18.2", "name each unit once")
        self.pending.pop()
        self._conceal(top.player, set(action.units), dice, res)

    @implements("F 18.0", "F 18.2")
    def _conceal(self, player: str, trying: set[str], dice, res: Resolution) -> None:
        """One player's concealment checks (the US player first, then the NVA/VC player, F 18.0); then the
        NVA/VC player's prompt, or the end of the turn."""
        s = self.state
        res.add("F 18.0", f"{player} checks for concealment", player=player)
        for uid in self._may_conceal(player):
            u = s.units[uid]
            if u.on_map and not u.concealed:
                try_to_conceal(s, u, dice, res, decline=uid not in trying)
        if player == "US":
            self.pending.append(ConcealStep("NVA/VC"))
        else:
            self._finish_turn(res)

    def _artillery_targets(self) -> list[Hex]:
        """The NVA Artillery targets offered (F 19.9): the hexes holding or next to a Visible US unit, and an NVA
        leader's own hex and the hexes next to it, which he always sees (F 7.3.1). None: the event has no target
        and fizzles. Any other hex an NVA leader sees is accepted as well (tracing every line of sight on the map
        to list them all would be slow)."""
        s = self.state
        out = set()
        for u in s.on_map():
            if u.player == "US" and not u.concealed or u.side == "NVA" and u.is_leader:
                out |= {h for h in [u.hex, *s.map.neighbors(u.hex)] if h in s.map}
        return sorted(out, key=s.label)

    @handles(EventTarget)
    def _on_event_target(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, EventStep) or top.event != "NVA Artillery":
            raise RuleViolation("F 19.9", "no NVA artillery waits for a target")
        resolve_event(self.state, top.side, top.event, dice, res, action.hex)
        self.pending.pop()

    @handles(EventChoice)
    def _on_event_choice(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, EventStep) or top.event not in UNIT_CHOICES:
            raise RuleViolation("F 19.0", "no random event waits for the choice of a unit")
        s = self.state
        if action.unit is None:
            if not UNIT_CHOICES[top.event][1]:
                raise RuleViolation(EVENT_RULES[top.event], f"the {top.event} event must be given to a unit")
            choice = False
        else:
            s.unit(action.unit)
            choice = action.unit
        resolve_event(s, top.side, top.event, dice, res, choice)
        self.pending.pop()

    @handles(Plot)
    def _on_plot(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, PlotStep) or action.kind != top.kind:
            raise RuleViolation("F 26.0", "booby traps and claymores are plotted at set-up, one at a time")
        (plot_booby_trap if top.kind == "booby_trap" else plot_claymore)(self.state, self.state.hex(action.hex), res)
        top.left -= 1
        if top.left == 0:
            self.pending.pop()

    def _carriers(self, mid: str) -> list[str]:
        """Friendly infantry units in a loose marker's hex with room to carry it (F 7.5.2)."""
        s = self.state
        m = s.casualties.get(mid)
        if m is None or m.carried_by is not None or m.hex is None:
            return []
        return [u.id for u in s.units_at(m.hex, m.player)
                if u.infantry and load_count(s, u) < u.carry_limit]

    @handles(Carry)
    def _on_carry(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, CarryStep) or action.marker != top.marker:
            raise RuleViolation("F 7.5.2", "no new casualty marker waits to be taken up")
        if action.unit is not None:
            if action.unit not in self._carriers(top.marker):
                raise RuleViolation("F 7.5.2", f"{action.unit} is no friendly infantry unit in the marker's hex with "
                                               "room to carry it")
            carry_new(self.state, top.marker, action.unit, res)
        else:
            res.add("F 7.5.2", f"{top.marker} stays on the ground")
        self.pending.pop()

    def _event_step(self, side: str, event: str):
        """The prompt a random event needs, or None when nobody has a choice (it fizzles or simply happens)."""
        s = self.state
        if event in UNIT_CHOICES:
            return EventStep(side, event) if eligible_units(s, side, event) else None
        if event == "NVA Artillery":
            return EventStep(side, event) if side == "NVA/VC" and self._artillery_targets() else None
        if event == "AH-1 Cobras" and side == "US" and not cobras_present(s):
            return CobraStep()
        if event == "VC" and side == "NVA/VC" and s.vc_events < VC_LIMIT and hamlets(s):
            items, one_of = vc_items(s)
            return VCStep(list(items), one_of)
        return None

    @handles(PlaceCobra)
    def _on_place_cobra(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, CobraStep):
            raise RuleViolation("F 19.6", "no AH-1 Cobra waits to come in")
        s = self.state
        top.placed.append(cobra_enters(s, s.hex(action.hex), action.altitude, res).id)

    @handles(PlaceVC)
    def _on_place_vc(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, VCStep):
            raise RuleViolation("F 19.7", "no VC item waits to be placed")
        if action.item not in (top.items if top.one_of else top.items[:1]):
            raise RuleViolation("F 19.7", f"the VC {top.items[0].replace('_', ' ')} is placed now, not {action.item!r}"
                                if not top.one_of else f"{action.item!r} is not one of {', '.join(top.items)}")
        s = self.state
        top.made.append(place_vc_item(s, action.item, s.hex(action.hex), res).id)
        top.items = [] if top.one_of else top.items[1:]

    @handles(PlaceReinforcement)
    def _on_place_reinforcement(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, ReinforceStep):
            raise RuleViolation("F 4.0", "no reinforcement waits to be placed")
        s = self.state
        who, _ = self._placer()
        pieces = {spec["id"]: (i, spec) for i, spec in self._pieces()}
        if action.unit not in pieces:
            raise RuleViolation("F 4.0", f"{action.unit} is no reinforcement waiting to enter (a unit loaded in "
                                         "another enters with its transport)")
        i, spec = pieces[action.unit]
        if player(spec["side"]) != who:
            raise RuleViolation("F 4.0", f"the {who} player is placing his reinforcements now")
        group, h = self.frago.reinforcements[i], s.hex(action.hex)
        if h not in {s.hex(label) for label in group["hexes"]}:
            raise RuleViolation("F 4.0", f"{action.unit} enters on its map edge: {', '.join(group['hexes'])}")
        heli = spec["kind"] == "helicopter"
        if heli and action.altitude not in ("treetop", "high"):
            raise RuleViolation("F 4.0", "a helicopter enters the map at Treetop or High level")
        if not heli and action.altitude is not None:
            raise RuleViolation("F 6.8", "only helicopters have an altitude")
        u = reinforcement_unit(spec, action.altitude or "treetop")
        rule, why = entry_problem(s, [u], h)
        if rule:
            raise RuleViolation(rule, why)
        aboard = [new_unit(p) for p in group["units"] if p["loaded_in"] == u.id]
        if heli:
            act_mod.helicopter_enters(s, u, h, action.altitude, res, aboard)
        else:
            u.hex = h
            for p in aboard:
                p.hex, p.concealed = h, False
            place(s, [u, *aboard])
            res.add("F 4.0", f"{u.id} enters in {s.label(h)}" + (f" carrying {', '.join(p.id for p in aboard)}"
                                                                 if aboard else ""), unit=u.id)
        for v in (u, *aboard):
            v.entered_turn = s.turn
            conceal_reinforcement(s, v, res)
        arrive(s, h, [u.id], dice, res)                 # F 7.5.3, F 26.0

    @handles(Retreat)
    def _on_retreat(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, RetreatStep) or top.path is not None:
            raise RuleViolation("F 7.4", "no broken unit is waiting to retreat")
        if action.unit != top.unit:
            raise RuleViolation("F 7.4", f"{top.unit} is the unit that retreats, not {action.unit}")
        s = self.state
        u = s.unit(top.unit)
        path = check_retreat_path(s, u, s.hex(top.away_from) if top.away_from else None, list(action.path))
        top.path = [s.label(h) for h in path]

    @handles(Advance)
    def _on_advance(self, action, dice, res):
        top = self.pending[-1] if self.pending else None
        if not isinstance(top, AssaultStep) or not top.advance_prompt:
            raise RuleViolation("F 8.0", "no cleared assault hex waits for an advance")
        run, s = top.run, self.state
        fighters = [u.id for u in run.fighting_attackers()]
        if len(set(action.units)) != len(action.units):
            raise RuleViolation("F 8.0", "name each advancing unit once")
        for uid in action.units:
            s.unit(uid)
            if uid not in fighters:
                raise RuleViolation("F 8.0", f"{uid} may not advance: only assaulting units still in the fight "
                                             "(neither suppressed nor broken) advance")
        if action.fort is not None and not action.units:
            raise RuleViolation("F 8.0", "only advancing units enter a bunker or foxholes")
        for uid in action.units:
            place_unit(s, s.unit(uid), run.hex)
            res.add("F 8.0", f"{uid} advances into {run.plan.target} without drawing opportunity fire", unit=uid)
        if action.units:
            arrive(s, run.hex, list(action.units), dice, res)          # F 7.5.3, F 26.0
        for uid in action.units:
            if action.fort and s.unit(uid).on_map and s.unit(uid).hex == run.hex:
                enter_fort(s, uid, action.fort, res, advancing=True)
        if not action.units:
            res.add("F 8.0", "the attackers stay where they are")
        run.plan = dataclasses.replace(run.plan, advance=False)
        top.advance_prompt = False

    # ------------------------------------------------------------------ carrying procedures on
    def _run(self, dice, res: Resolution) -> None:
        """Carry the pending procedures on until one needs a player's decision (or none is left)."""
        s = self.state
        while True:
            if s.retreats_due:
                due, s.retreats_due = list(s.retreats_due), []
                for uid, away, by in reversed(due):
                    self.pending = [p for p in self.pending if not (isinstance(p, RetreatStep) and p.unit == uid)]
                    self.pending.append(RetreatStep(uid, away, by))
                # the first due is on top
                continue
            if s.landings_due:
                due, s.landings_due = list(s.landings_due), []
                self.pending += [LandingStep(uid) for uid in reversed(due)]
                continue
            fresh = [mid for mid in s.casualties if mid not in self._markers_seen]
            if fresh:                   # each new marker may be taken up at once (F 7.5.2), the first asked first
                self._markers_seen |= set(fresh)
                self.pending += [CarryStep(mid) for mid in reversed(fresh)]
            if not self.pending:
                return
            top = self.pending[-1]
            if isinstance(top, OpFireStep):
                if any(self._eligible(top, t) for t in self._opfire_targets(top)) or (
                        self._opfire_targets(top) and self._claymores(top)):
                    return
                self._close_opfire(res)
            elif isinstance(top, MoveStep):
                plan = top.plan
                if plan.entered and top.asked < len(plan.entered):
                    top.asked = len(plan.entered)
                    h = plan.here
                    civs = [u for u in s.units_at(h) if u.role == "civilians" and u.player == "NVA/VC"]
                    qs = [uid for uid in plan.ids if s.units[uid].on_map and s.units[uid].hex == h
                          and s.units[uid].side == "US"]
                    if civs and qs:
                        self.pending.append(InterrogateStep(civs[0].id, qs))
                        continue
                at = advance_move(s, top.plan, dice, res)
                if at is None:
                    finish_move(s, top.plan, res)
                    self.pending.pop()
                else:
                    way = None
                    if plan.entered and plan.entered[-1] == at:
                        prev = plan.entered[-2] if len(plan.entered) > 1 else plan.start
                        way = way_used(s.map, prev, at, plan.cls)
                    self.pending.append(OpFireStep(list(top.plan.active), at, "move", stealthy=top.plan.stealthy,
                                                   way=way))
            elif isinstance(top, RetreatStep):
                u = s.units.get(top.unit)
                if u is None or not u.on_map:
                    self.pending.pop()
                elif top.path is None:
                    away = s.hex(top.away_from) if top.away_from else None
                    if retreat_options(s, u, away):
                        return
                    eliminate_cornered(s, u, res, top.by)
                    self.pending.pop()
                elif top.index < len(top.path):
                    h = s.hex(top.path[top.index])
                    top.index += 1
                    way = way_used(s.map, u.hex, h, move_class(u))
                    retreat_into(s, u, h, res)
                    self.pending.append(OpFireStep([u.id], h, "retreat", used=list(top.used), way=way))
                    arrive(s, h, [u.id], dice, res)                # F 7.5.3, F 26.0, before the fire
                else:
                    res.add("F 7.4", f"{u.id} ends its retreat in {s.label(u.hex)}", unit=u.id)
                    self.pending.pop()
            elif isinstance(top, AssaultStep):
                if self._assault_step(top, dice, res):
                    return
            elif isinstance(top, FortStep):
                live = [u for u in top.units if s.units[u].on_map and not s.units[u].destroyed]
                if not top.fired:
                    top.fired = True
                    if live:
                        here = s.units[live[0]].hex
                        res.add("F 24.0" if top.kind == "bunker" else "F 25.0",
                                f"{', '.join(live)} get into the {top.kind}: the enemy may fire first, outside the "
                                "cover")
                        self.pending.append(OpFireStep(live, here, "fort"))
                    continue
                self.pending.pop()
                for uid in live:
                    u = s.units[uid]
                    if uid in top.stopped or uid in self.ended or u.fort is not None:
                        res.add("F 24.0", f"{uid} does not get into the {top.kind}", unit=uid)
                        continue
                    try:
                        enter_fort(s, uid, top.kind, res)
                    except RuleViolation as e:
                        res.add(e.rule, f"{uid} does not get into the {top.kind}: {e.reason}", unit=uid)
            elif isinstance(top, CarryStep):
                if self._carriers(top.marker):
                    return
                self.pending.pop()
            elif isinstance(top, PlotStep):
                if plot_hexes(self.state, top.kind):
                    return
                res.add("F 26.0", f"no hex is left to plot a {top.kind.replace('_', ' ')} in")
                self.pending.pop()
            elif isinstance(top, LoadStep):
                self.pending.pop()
                self._finish_load(top, dice, res)
            elif isinstance(top, InterrogateStep):
                civ = s.units.get(top.civilians)
                if civ is not None and civ.on_map:
                    return
                self.pending.pop()
            elif isinstance(top, LandingStep):
                u = s.units.get(top.unit)
                if u is not None and u.on_map and not u.destroyed and u.altitude != "ground" and landing_options(s, u):
                    return
                self.pending.pop()
            elif isinstance(top, MedevacStep):
                if s.medevac_turn == s.turn:
                    return
                self.pending.pop()
            elif isinstance(top, MissionsStep):
                if missions_due(s):
                    return
                self.pending.pop()
                check_casualties(s, dice, res)                   # step d, then the concealment prompts
                self.pending.append(ConcealStep("US"))
            elif isinstance(top, ConcealStep):
                if self._may_conceal(top.player):
                    return
                self.pending.pop()
                self._conceal(top.player, set(), dice, res)
            elif isinstance(top, EventStep):
                if (self._artillery_targets() if top.event == "NVA Artillery"
                        else eligible_units(s, top.side, top.event)):
                    return
                self.pending.pop()
                resolve_event(s, top.side, top.event, dice, res)
            elif isinstance(top, ReinforceStep):
                if self._placer()[0] is not None:
                    return
                self.pending.pop()
                for _, spec in self._pieces():
                    res.add("F 4.0", f"{spec['id']} finds every hex of its map edge closed to it (F 6.2): it tries "
                                     "again next turn", unit=spec["id"])
                self._open_activation(res)
            elif isinstance(top, CobraStep):
                if len(top.placed) < 2 and cobra_hexes(s):
                    return
                self.pending.pop()
                if len(top.placed) < 2:
                    res.add("F 19.6", f"no map-edge hex is open to {'a' if not top.placed else 'the second'} Cobra")
            elif isinstance(top, VCStep):
                if top.one_of and not any(vc_hexes(s, it) for it in top.items):
                    top.items = []
                while top.items and not top.one_of and not vc_hexes(s, top.items[0]):
                    res.add("F 19.7", f"no hex within three hexes of a hamlet can take the VC "
                                      f"{top.items.pop(0).replace('_', ' ')}")
                if top.items:
                    return
                self.pending.pop()
                vc_chit(s, res, top.made)
            else:
                raise RuntimeError(f"unknown pending step {top!r}")

    def _assault_step(self, top: AssaultStep, dice, res: Resolution) -> bool:
        """One step of a pending assault; True when it waits for a decision."""
        run = top.run
        if top.advance_prompt:
            return True
        if run.phase == "opfire":
            run.phase = "tq"
            defenders = [d.id for d in run.defenders()]
            self.pending.append(OpFireStep(list(run.plan.attackers), run.hex, "assault", firers=defenders))
            return False
        if run.phase == "finish" and run.plan.advance:
            cleared = not [d for d in run.defenders() if not d.broken]
            if cleared and not run.defenders() and run.fighting_attackers():
                top.advance_prompt = True
                return True
        if run.phase == "done":
            self.pending.pop()
            return False
        if run.phase in ("attackers", "defenders"):
            if top.asking:
                return True
            side = "attacker" if run.phase == "attackers" else "defender"
            if not top.chosen:                    # first the round's firers name their targets
                firers = self._round_firers(run, side)
                pick = [f for f in firers if len(self._assault_targets(top, f)) > 1]
                forced = [(f, self._assault_targets(top, f)[0]) for f in firers
                          if len(self._assault_targets(top, f)) == 1]
                top.chosen = [("", side)] + forced
                if pick:
                    top.asking = pick
                    return True
            pairs = tuple(p for p in top.chosen[1:])
            key = "attacker_targets" if side == "attacker" else "defender_targets"
            run.plan = dataclasses.replace(run.plan, **{key: pairs})
            top.chosen = []
        run.step(dice)
        res.extend(run.res)
        run.res = Resolution()
        return False

    # ------------------------------------------------------------------ the turn
    @implements("F 3.0", "F 4.0", "F 29.0")
    def _start_turn(self, res: Resolution) -> None:
        """Step a, Place Reinforcements: the FRAGO's extra activation chits for this turn join the pool (F 4.0),
        and the reinforcements due wait for their owners to place them (:class:`ReinforceStep`); once they are
        placed, a due medevac arrives (F 12.0) and step b, the activation phase, opens with a full cup (F 5.0).
        The first turn also reports the FRAGO's starting VP (F 29.0)."""
        s = self.state
        res.add("F 3.0", f"turn {s.turn} of {s.last_turn}: place reinforcements", result=s.turn)
        if s.turn == 1 and any(self.frago.vp.values()):
            res.add("F 29.0", f"the FRAGO's starting VP: US {s.vp['US']}, NVA/VC {s.vp['NVA/VC']}", result=dict(s.vp))
        for x in self.frago.extra_chits:
            if x["turn"] == s.turn:
                s.cup.chits[x["player"]] += x["count"]
                res.add("F 4.0", f"the FRAGO adds {x['count']} {x['player']} activation chit(s): {x['player']} now has "
                                 f"{s.cup.chits[x['player']]}", result=s.cup.chits[x["player"]], player=x["player"])
        if self._pieces():
            self.pending.append(ReinforceStep())
        else:
            self._open_activation(res)

    def _open_activation(self, res: Resolution) -> None:
        """The reinforcements are in: a due medevac arrives (F 12.0), then the activation phase opens (F 5.0)."""
        s = self.state
        self.phase = start_phase(s, res)
        if s.medevac_turn == s.turn:
            self.pending.append(MedevacStep())      # the US player brings it in on a map edge (F 12.0)

    def _pieces(self) -> list[tuple[int, dict]]:
        """The reinforcements due by this turn and not yet on the map, as (group index, spec) of each piece: a
        unit loaded in no other, its passengers entering with it (F 4.0). A piece that found every hex of its
        edge closed on an earlier turn is still due."""
        s = self.state
        return [(i, spec) for i, r in enumerate(self.frago.reinforcements) if r["turn"] <= s.turn
                for spec in r["units"] if spec["loaded_in"] is None and spec["id"] not in s.units]

    def _placements(self, i: int, spec: dict) -> list[PlaceReinforcement]:
        """Where a piece may enter now: its group's hexes within the stacking limits, a helicopter at Treetop or
        High (F 4.0, F 6.2, F 6.8)."""
        s = self.state
        probe = reinforcement_unit(spec)
        alts = ("treetop", "high") if probe.kind == "helicopter" else (None,)
        return [PlaceReinforcement(spec["id"], label, alt) for label in dict.fromkeys(self.frago.reinforcements[i]["hexes"])
                if not entry_problem(s, [probe], s.hex(label))[0] for alt in alts]

    def _placer(self) -> tuple[str | None, list[PlaceReinforcement]]:
        """The player who places now (the owner of the first piece in the FRAGO's order that can enter) and the
        placements open to him."""
        who, out = None, []
        for i, spec in self._pieces():
            if who is not None and player(spec["side"]) != who:
                continue
            offers = self._placements(i, spec)
            if offers:
                who = player(spec["side"])
                out += offers
        return who, out

    @implements("F 3.0", "F 16.0", "F 17.0")
    def _end_turn(self, dice, res: Resolution) -> None:
        """Steps c-e: execute fire missions (F 16.0; the side that asked for each one may still call it off),
        check casualties (F 17.0), then the Check for Concealment phase (F 18.0), where each player, the US
        first, is asked which of his units try to hide."""
        res.add("F 3.0", "the cup is empty: execute fire missions, check casualties, check concealment")
        self.pending.append(MissionsStep())

    @implements("F 3.0", "F 20.0")
    def _finish_turn(self, res: Resolution) -> None:
        """Step f, the end of the turn: Activation Complete markers off, departures due, Higher HQ lifted, the
        turn marker advanced and every chit back in the cup (F 20.0), and the next turn's reinforcements; after
        the last turn, the winner (F 29.0)."""
        s = self.state
        cleared = [u.id for u in s.units.values() if u.activated]
        for uid in cleared:
            s.units[uid].activated = False
        res.add("F 20.0", f"Activation Complete markers removed from {len(cleared)} unit(s)", units=cleared)
        act_mod.enforce_departures(s, res)
        s.higher_hq.clear()
        self.phase = None
        if s.turn >= s.last_turn:
            for k in self.frago.key_terrain:
                h = s.map.hex(k["hex"])
                holders = {u.player for u in s.units_at(h) if u.infantry and u.role not in ("dummy", "civilians")}
                if holders == {k["player"]}:
                    s.vp[k["player"]] += k["points"]
                    res.add("F 29.0", f"{k['player']} holds {k['hex']}: +{k['points']} VP (FRAGO special rule)")
            who = winner(s, res)
            us, nva = s.vp["US"], s.vp["NVA/VC"]
            self.finished = Outcome(who, "win", "F 29.0", f"US {us} VP, NVA/VC {nva} VP"
                                    + (" (a tie goes to the NVA/VC)" if us == nva else ""))
            return
        s.turn += 1
        s.cup.refill()
        res.add("F 20.0", f"turn marker advanced to {s.turn}; every chit returns to the cup", result=s.turn)
        self._start_turn(res)

__all__ = ["Frago", "Game", "Ruleset", "load_frago", "demo_frago", "setup", "Draw", "Activate", "Pass", "Abandon", "DetonateClaymore",
           "EndActivation", "Move", "Fire", "Assault", "Search", "Recover", "DestroyCache", "RequestMedevac",
           "RequestFireMission", "Load", "Unload", "OpFire", "HoldFire", "Carry", "Plot", "Retreat", "Advance",
           "EventChoice", "AssaultTarget", "Conceal", "Land", "Interrogate", "Show", "FireMissionOrder", "MedevacEntry",
           "EventTarget", "PlaceReinforcement", "PlaceCobra", "PlaceVC", "FRAGOS"]
