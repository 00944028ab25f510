"""The sequence of play (F 3.0), reinforcements (F 4.0), the end of turn (F 20.0), and a replayable game loop.

A FRAGO (scenario) is data: map, turns, chits, first player, units, sites and reinforcements
(:func:`load_frago`). :class:`FteGame` runs it: :meth:`FteGame.legal_actions` lists what may be done now and
:meth:`FteGame.apply` does one action with injected dice, raising :class:`RuleViolation` for an illegal one.
Every action and the dice it used go into an append-only history, so :func:`replay` rebuilds the game exactly.
The turn's steps after the activation phase (fire missions, casualty checks, concealment, end of turn) run
automatically when the cup is empty.
"""
from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, Callable, Iterable

from ..core import Hex, RandomDice, Resolution, ScriptedDice, implements
from ..core.charts import read_data_file, require
from ..core.dice import RecordingDice
from ..core.errors import DataError, RuleViolation
from . import actions as act_mod
from .activation import ActivationPhase, Activation, activatable, check_action, start_phase
from .assault import AssaultPlan, assault
from .casualties import check_casualties
from .concealment import concealment_phase, conceal_reinforcement
from .errata import ERRATA, Readings
from .events import random_event
from .fire import check_fire, fire
from .fire_missions import execute_fire_missions
from .movement import move
from .opfire import eligible_opfirers, ended_activation, opportunity_fire
from .state import FteState, place
from .terrain import MAPS, demo_map, load_fte_map
from .units import Site, Unit
from .victory import winner

FRAGOS = Path(__file__).parent / "data" / "fragos"
_UNIT_FIELDS = {f.name for f in fields(Unit)}


# --------------------------------------------------------------------------- FRAGOs as data

@dataclass
class Frago:
    """A scenario card: what the rules leave to the scenario (F 3.0, 4.0, 5.0, 7.5.3, 29.0)."""

    name: str
    note: str
    turns: int
    first_player: str
    chits: dict[str, int]
    random_event: bool
    units: list[dict]
    sites: list[dict] = field(default_factory=list)
    reinforcements: list[dict] = field(default_factory=list)   # {turn, hexes, units}
    key_terrain: list[dict] = field(default_factory=list)      # {hex, player, points}: held at the end
    us_may_carry_off: bool = False
    map_path: str | None = None
    source: str = "<memory>"


def _unit(spec: Any, file: str, where: str) -> Unit:
    if not isinstance(spec, dict):
        raise DataError(file, where, "must be a mapping of unit fields")
    unknown = set(spec) - _UNIT_FIELDS
    if unknown:
        raise DataError(file, f"{where}.{sorted(unknown)[0]}", f"is not a unit field; expected some of "
                                                               f"{', '.join(sorted(_UNIT_FIELDS))}")
    require(spec, "id", str, file, where)
    require(spec, "side", str, file, where)
    data = dict(spec)
    data.pop("hex", None)
    try:
        return Unit(**data)
    except DataError as e:
        raise DataError(file, f"{where}.{str(e.field).split('.')[-1]}", e.reason) from None
    except TypeError as e:
        raise DataError(file, where, str(e)) from None


@implements("F 3.0")
def load_frago(path: str | Path) -> Frago:
    """Load a FRAGO from YAML; every problem names the file and the field."""
    file, data, _ = read_data_file(path)
    name = require(data, "name", str, file)
    note = require(data, "note", str, file)
    turns = require(data, "turns", int, file)
    if turns < 1:
        raise DataError(file, "turns", "must be at least 1")
    first = require(data, "first_player", str, file)
    if first not in ("US", "NVA/VC"):
        raise DataError(file, "first_player", f"must be 'US' or 'NVA/VC', not {first!r}")
    chits = require(data, "chits", dict, file)
    for p in ("US", "NVA/VC"):
        n = require(chits, p, int, file, "chits")
        if n < 0:
            raise DataError(file, f"chits.{p}", "cannot be negative")
    units = require(data, "units", list, file)
    for i, spec in enumerate(units):
        _unit(spec, file, f"units[{i}]")
        require(spec, "hex", str, file, f"units[{i}]")
    sites = data.get("sites") or []
    for i, spec in enumerate(sites):
        for k in ("id", "kind", "side", "hex"):
            require(spec, k, str, file, f"sites[{i}]")
        if spec["kind"] not in Site.KINDS:
            raise DataError(file, f"sites[{i}].kind", f"must be one of {', '.join(Site.KINDS)}")
    reinf = data.get("reinforcements") or []
    for i, r in enumerate(reinf):
        require(r, "turn", int, file, f"reinforcements[{i}]")
        require(r, "hexes", list, file, f"reinforcements[{i}]")
        for j, spec in enumerate(require(r, "units", list, file, f"reinforcements[{i}]")):
            _unit(spec, file, f"reinforcements[{i}].units[{j}]")
    key = data.get("key_terrain") or []
    for i, k in enumerate(key):
        require(k, "hex", str, file, f"key_terrain[{i}]")
        require(k, "player", str, file, f"key_terrain[{i}]")
        require(k, "points", int, file, f"key_terrain[{i}]")
    return Frago(name, note, turns, first, {p: chits[p] for p in ("US", "NVA/VC")},
                 bool(data.get("random_event", True)), units, sites, reinf, key,
                 bool(data.get("us_may_carry_off", False)), data.get("map"), file)


def demo_frago() -> Frago:
    """The shipped demonstration FRAGO (our own, not a published scenario)."""
    return load_frago(FRAGOS / "demo.yaml")


@implements("F 3.0")
def setup(frago: Frago, readings: Readings = ERRATA) -> FteState:
    """Set a FRAGO up: the map, the units in their hexes, the sites, the chits and the scenario's rules."""
    m = demo_map() if frago.map_path in (None, "demo") else load_fte_map(Path(frago.source).parent / frago.map_path)
    state = FteState(m, readings=readings, last_turn=frago.turns, first_player=frago.first_player,
                     us_may_carry_off=frago.us_may_carry_off)
    state.cup.chits = dict(frago.chits)
    state.cup.random_event = frago.random_event
    units = []
    for i, spec in enumerate(frago.units):
        u = _unit(spec, frago.source, f"units[{i}]")
        u.hex = _hex(m, spec["hex"], frago.source, f"units[{i}].hex")
        units.append(u)
    place(state, units)
    for i, spec in enumerate(frago.sites):
        h = _hex(m, spec["hex"], frago.source, f"sites[{i}].hex")
        state.sites[spec["id"]] = Site(spec["id"], spec["kind"], spec["side"], h, bool(spec.get("revealed", False)))
    return state


def _hex(m, label: str, file: str, where: str) -> Hex:
    try:
        return m.hex(label)
    except DataError as e:
        raise DataError(file, where, e.reason) from None


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class Draw:
    """Draw the next chit (or take the turn's first activation, or run the end of the turn)."""


@dataclass(frozen=True)
class Activate:
    how: str
    units: tuple[str, ...] = ()
    leader: str | None = None


@dataclass(frozen=True)
class Pass:
    """The player whose chit was drawn passes (F 5.1)."""


@dataclass(frozen=True)
class EndActivation:
    """Finish the current activation (F 5.0)."""


@dataclass(frozen=True)
class Move:
    units: tuple[str, ...]
    path: tuple[str, ...]
    double_time: bool = False
    stealthy: bool = False


@dataclass(frozen=True)
class Fire:
    firers: tuple[str, ...]
    target: str
    observed: bool = False


@dataclass(frozen=True)
class Assault:
    attackers: tuple[str, ...]
    target: str
    combine: bool = True


@dataclass(frozen=True)
class Search:
    unit: str


@dataclass(frozen=True)
class Recover:
    unit: str


@dataclass(frozen=True)
class DestroyCache:
    unit: str


@dataclass(frozen=True)
class RequestMedevac:
    unit: str


@dataclass(frozen=True)
class RequestFireMission:
    unit: str
    target: str


ACTION_NAME = {Move: "move", Fire: "fire", Assault: "assault", Search: "search", Recover: "recover",
               DestroyCache: "destroy_cache", RequestMedevac: "request_medevac",
               RequestFireMission: "request_fire_mission"}

#: Who attempts opportunity fire: ``policy(state, target_id, eligible_ids) -> ids`` (default: nobody).
OpfirePolicy = Callable[[FteState, str, list[str]], list[str]]


def fire_all(state: FteState, target: str, eligible: list[str]) -> list[str]:
    """An opportunity-fire policy: every eligible unit tries."""
    return list(eligible)


# --------------------------------------------------------------------------- the game

@dataclass
class FteGame:
    """A FRAGO in play: the state, where the turn stands, and the history that replays it."""

    frago: Frago
    state: FteState
    opfire_policy: OpfirePolicy | None = None
    phase: ActivationPhase | None = None
    acted: dict[str, list[str]] = field(default_factory=dict)
    history: list[tuple[Any, tuple[int, ...]]] = field(default_factory=list)
    log: Resolution = field(default_factory=Resolution)
    result: str | None = None
    started: bool = False

    @classmethod
    def new(cls, frago: Frago | None = None, readings: Readings = ERRATA,
            opfire_policy: OpfirePolicy | None = None) -> "FteGame":
        frago = frago or demo_frago()
        return cls(frago, setup(frago, readings), opfire_policy)

    @property
    def over(self) -> bool:
        return self.result is not None

    # ------------------------------------------------------------------ what may be done
    def legal_actions(self) -> list[Any]:
        """Every action allowed now (moves are listed one hex at a time; longer paths go to :meth:`apply`)."""
        if self.over:
            return []
        ph = self.phase
        if ph is None or (ph.active is None and ph.current is None):
            return [Draw()]
        if ph.active is None:
            return [Activate(a.how, a.units, a.leader) for a in activatable(self.state, ph.current)
                    if a.how != "pass"] + [Pass()]
        out: list[Any] = [EndActivation()]
        for uid in ph.active.units:
            u = self.state.units.get(uid)
            if u is None or not u.on_map:
                continue
            for cand in self._candidates(u):
                if self._allowed(cand):
                    out.append(cand)
        return out

    def _candidates(self, u: Unit) -> list[Any]:
        s = self.state
        out: list[Any] = [Move((u.id,), (s.label(n),)) for n in s.map.neighbors(u.hex)]
        if u.is_combat:
            out += [Fire((u.id,), e.id) for e in s.on_map() if e.player != u.player]
        enemy_hexes = {e.hex for e in s.on_map() if e.player != u.player and e.hex.is_adjacent(u.hex)}
        out += [Assault((u.id,), s.label(h)) for h in sorted(enemy_hexes)]
        out += [Search(u.id), Recover(u.id), DestroyCache(u.id), RequestMedevac(u.id)]
        if u.is_leader or u.role == "fo":
            seen = {e.hex for e in s.on_map() if e.player != u.player and not e.concealed}
            out += [RequestFireMission(u.id, s.label(h)) for h in sorted(seen)]
        return out

    def _allowed(self, action) -> bool:
        """Try an action on a copy of the game (its dice are random; only legality is asked)."""
        trial = self._copy()
        try:
            trial._do(action, RandomDice(0), Resolution())
        except RuleViolation:
            return False
        return True

    def _copy(self) -> "FteGame":
        import copy
        new = copy.copy(self)
        new.state = self.state.copy()
        if self.phase is not None:
            new.phase = copy.copy(self.phase)
            new.phase.state = new.state
            new.phase.history = list(self.phase.history)
        new.acted = {k: list(v) for k, v in self.acted.items()}
        new.history = list(self.history)
        new.log = Resolution()
        return new

    # ------------------------------------------------------------------ doing it
    def apply(self, action, dice) -> Resolution:
        """Do one action with these dice; record it and the dice it used. Illegal actions raise
        RuleViolation and change nothing."""
        if self.over:
            raise RuleViolation("F 20.0", "the scenario is over")
        trial = self._copy()
        rec = RecordingDice(dice)
        res = Resolution()
        trial._do(action, rec, res)
        self.state, self.phase, self.acted, self.result, self.started = (trial.state, trial.phase, trial.acted,
                                                                          trial.result, trial.started)
        self.history.append((action, tuple(rec.values)))
        self.log.extend(res)
        return res

    def _do(self, action, dice, res: Resolution) -> None:
        s, ph = self.state, self.phase
        if isinstance(action, Draw):
            if ph is not None and (ph.active is not None or ph.current is not None):
                raise RuleViolation("F 5.0", "an activation is pending: act, pass or end it before drawing")
            self._draw(dice, res)
            return
        if ph is None or ph.current is None and ph.active is None:
            raise RuleViolation("F 5.0", "no activation is pending: draw a chit first")
        if isinstance(action, Activate):
            if ph.active is not None:
                raise RuleViolation("F 5.0", "an activation is already in progress")
            ph.activate(ph.current, action.how, action.units, res, leader=action.leader)
            self.acted = {u: [] for u in ph.active.units}
            return
        if isinstance(action, Pass):
            if ph.active is not None:
                raise RuleViolation("F 5.1", "a player passes instead of activating, not during an activation")
            ph.pass_(ph.current, res)
            return
        if ph.active is None:
            raise RuleViolation("F 5.0", "activate units (or pass) before taking actions")
        if isinstance(action, EndActivation):
            ph.end(res)
            self.acted = {}
            return
        name = ACTION_NAME.get(type(action))
        if name is None:
            raise RuleViolation("F 5.1", f"{action!r} is not an action of this game")
        actors = self._actors(action)
        for uid in actors:
            if uid not in ph.active.units:
                raise RuleViolation("F 5.0", f"{uid} is not part of the current activation")
            if uid not in self.acted:
                raise RuleViolation("F 5.0", f"{uid} is not part of the current activation")
            check_action(s, s.unit(uid), name, self.acted[uid], ph.active)
        self._act(action, dice, res)
        for uid in actors:
            self.acted[uid].append(name)
            if name != "search":
                act_mod.clear_searching(s.unit(uid), res)

    @staticmethod
    def _actors(action) -> tuple[str, ...]:
        for attr in ("units", "firers", "attackers"):
            if hasattr(action, attr):
                return tuple(getattr(action, attr))
        return (action.unit,)

    def _opfire(self):
        if self.opfire_policy is None:
            return None
        policy = self.opfire_policy

        def hook(state, mover_ids, h, dice, res, **kw):
            for mid in mover_ids:
                if not state.units[mid].on_map:
                    continue
                firers = policy(state, mid, eligible_opfirers(state, mid))
                if firers:
                    out = opportunity_fire(state, firers, mid, dice, res, stealthy=kw.get("stealthy", False))
                    return ended_activation(out)
            return False
        return hook

    def _act(self, action, dice, res: Resolution) -> None:
        s = self.state
        if isinstance(action, Move):
            move(s, list(action.units), list(action.path), dice, res, double_time=action.double_time,
                 stealthy=action.stealthy, opfire=self._opfire())
        elif isinstance(action, Fire):
            fire(s, list(action.firers), action.target, dice, res, observed=action.observed)
        elif isinstance(action, Assault):
            run = assault(s, AssaultPlan(action.attackers, action.target, combine=action.combine), dice)
            res.extend(run.res)
        elif isinstance(action, Search):
            act_mod.search(s, action.unit, dice, res)
        elif isinstance(action, Recover):
            done = act_mod.recover(s, action.unit, res)
            if not done:
                raise RuleViolation("F 10.0", f"{action.unit} has nothing to recover from")
        elif isinstance(action, DestroyCache):
            act_mod.destroy_cache(s, action.unit, res, dice=dice)
        elif isinstance(action, RequestMedevac):
            act_mod.request_medevac(s, action.unit, dice, res)
        elif isinstance(action, RequestFireMission):
            act_mod.request_fire_mission(s, action.unit, action.target, dice, res)

    # ------------------------------------------------------------------ the turn
    def _draw(self, dice, res: Resolution) -> None:
        if not self.started:
            self.started = True
            self._start_turn(res)
        while True:
            who = self.phase.next(dice, res)
            if who == "event":
                random_event(self.state, dice, res)
                continue
            if who is None:
                self._end_turn(dice, res)
                if self.over:
                    return
                self._start_turn(res)
                continue
            return

    @implements("F 3.0", "F 4.0")
    def _start_turn(self, res: Resolution) -> None:
        """Step a: reinforcements enter on their edge hexes (concealed unless loaded, F 18.2) and a due medevac
        arrives (F 12.0); then step b, the activation phase, opens with a full cup (F 5.0)."""
        s = self.state
        res.add("F 3.0", f"turn {s.turn} of {s.last_turn}: place reinforcements", result=s.turn)
        for i, r in enumerate(self.frago.reinforcements):
            if r["turn"] != s.turn:
                continue
            hexes = [_hex(s.map, h, self.frago.source, f"reinforcements[{i}].hexes") for h in r["hexes"]]
            for j, spec in enumerate(r["units"]):
                u = _unit(spec, self.frago.source, f"reinforcements[{i}].units[{j}]")
                u.hex = hexes[j % len(hexes)]
                if u.kind != "infantry" and any(v.kind == u.kind for v in s.units_at(u.hex)):
                    raise DataError(self.frago.source, f"reinforcements[{i}].hexes", "would overstack (F 6.2)")
                u.entered_turn = s.turn
                place(s, [u])
                res.add("F 4.0", f"{u.id} enters in {s.label(u.hex)}", unit=u.id)
                conceal_reinforcement(s, u, res)
        if s.medevac_turn == s.turn:
            act_mod.medevac_arrives(s, res)
        self.phase = start_phase(s, res)

    @implements("F 3.0", "F 20.0")
    def _end_turn(self, dice, res: Resolution) -> None:
        """Steps c-f: execute fire missions (F 16.0), check casualties (F 17.0), check concealment (F 18.0),
        then end the turn: Activation Complete markers off, departures due, Higher HQ lifted, the turn marker
        advanced and every chit back in the cup (F 20.0); after the last turn, the winner (F 29.0)."""
        s = self.state
        res.add("F 3.0", "the cup is empty: execute fire missions, check casualties, check concealment")
        execute_fire_missions(s, dice, res)
        check_casualties(s, dice, res)
        concealment_phase(s, dice, res)
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
            self.result = winner(s, res)
            return
        s.turn += 1
        s.cup.refill()
        res.add("F 20.0", f"turn marker advanced to {s.turn}; every chit returns to the cup", result=s.turn)


@implements("F 3.0")
def replay(frago: Frago, history: Iterable[tuple[Any, tuple[int, ...]]], readings: Readings = ERRATA,
           opfire_policy: OpfirePolicy | None = None) -> FteGame:
    """Rebuild a game from its history of actions and dice."""
    game = FteGame.new(frago, readings, opfire_policy)
    for i, (action, rolls) in enumerate(history):
        with ScriptedDice(list(rolls), source=f"history[{i}]") as d:
            game.apply(action, d)
    return game


__all__ = ["Frago", "FteGame", "load_frago", "demo_frago", "setup", "replay", "Draw", "Activate", "Pass",
           "EndActivation", "Move", "Fire", "Assault", "Search", "Recover", "DestroyCache", "RequestMedevac",
           "RequestFireMission", "fire_all"]
