"""Rule 3: the sequence of play as data, and a game object with legal actions, apply and replay.

Phases whose rules are not yet executable (reorganization, air, recovery, political points) are stepped
through with :class:`EndPhase` only; the Events, Movement and Combat phases act.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable

from ..core import Dice, Resolution, ScriptedDice, implements
from ..core.dice import RecordingDice
from ..core.errors import RuleViolation
from .combat import Combat, Readings, Side, crt_chooser, resolve_combat
from .borders import attack_problem
from .events import roll_event
from .movement import move
from .political import PoliticalPoints
from .militia import advance_into, defending_strengths
from .optional import AmbushLog, GeneralOffensive, ambush, check_ambush, form_force, overrun
from .results import advance, apply_result
from .stacking import end_of_phase_stacking
from .state import IndochinaState
from .weather import weather
from .zoc import enemy_zoc


@dataclass(frozen=True)
class Phase:
    id: str
    side: Side | None
    kind: str


def _player_turn(side: Side) -> list[Phase]:
    s = side.value
    air = "FEF Defensive Air" if side is Side.COMMUNIST else "FEF Offensive Air"
    return [Phase(f"{s} Mobilization", side, "mobilization"), Phase(f"{s} Reorganization", side, "reorganization"),
            Phase(f"{s} Movement", side, "movement"), Phase(air, Side.FEF, "air"),
            Phase(f"{s} Combat", side, "combat"), Phase(f"{s} Recovery", side, "recovery")]


SEQUENCE: tuple[Phase, ...] = (Phase("Events", None, "events"), *_player_turn(Side.COMMUNIST),
                               *_player_turn(Side.FEF), Phase("Political Points", None, "political"),
                               Phase("End of Turn", None, "end"))


@dataclass(frozen=True)
class Move:
    unit: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class Attack:
    attackers: tuple[str, ...]
    defender_hex: str
    table: str


@dataclass(frozen=True)
class Advance:
    units: tuple[str, ...]
    path: tuple[str, ...]


@dataclass(frozen=True)
class DeclineAdvance:
    pass


@dataclass(frozen=True)
class Overrun:
    units: tuple[str, ...]
    target: str
    table: str


@dataclass(frozen=True)
class DeclareAmbush:
    hex: str
    table: str


@dataclass(frozen=True)
class DeclineAmbush:
    pass


@dataclass(frozen=True)
class DeclareGeneralOffensive:
    pass


@dataclass(frozen=True)
class RollEvent:
    pass


@dataclass(frozen=True)
class EndPhase:
    pass


@implements("IC 3.0", "IC 3.1", "IC 3.2")
@dataclass
class IndochinaGame:
    """A game in progress: the position, the political points, the calendar and the current phase."""

    state: IndochinaState
    points: PoliticalPoints
    year: int = 1950
    month: int = 10
    turns_left: int = 6
    phase_index: int = 0
    moved: set[str] = field(default_factory=set)
    attacked: set[str] = field(default_factory=set)
    event_rolled: bool = False
    pending_advance: tuple | None = None       # (attackers, defender hex, hexes allowed) after DE/DR
    pending_ambush: tuple | None = None        # (moving unit, hex it came from, candidate ambush hexes)
    optional_rules: bool = True                # overruns, ambushes and the General Offensive (27, 28, 31)
    total_turns: int = 0
    general_offensive: GeneralOffensive = field(default_factory=GeneralOffensive)
    ambush_log: AmbushLog | None = None

    def __post_init__(self) -> None:
        if not self.total_turns:
            self.total_turns = self.turns_left

    @property
    def turn(self) -> int:
        return self.total_turns - self.turns_left + 1
    history: list[tuple[object, tuple[int, ...]]] = field(default_factory=list)
    log: Resolution = field(default_factory=Resolution)

    @property
    def phase(self) -> Phase:
        return SEQUENCE[self.phase_index]

    @property
    def over(self) -> bool:
        return self.turns_left <= 0 or self.points.game_over is not None

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list:
        """Every action the rules allow now. Moves are listed one hex at a time (a unit moves once, 9.1)."""
        if self.over:
            return []
        p, st = self.phase, self.state
        out: list = []
        if p.kind == "events" and not self.event_rolled:
            return [RollEvent()]
        if self.pending_ambush:
            mover, came_from, candidates = self.pending_ambush
            return [DeclareAmbush(h, t) for h in candidates for t in ("Mobile", "Assault")] + [DeclineAmbush()]
        if (self.optional_rules and p.id == "Communist Mobilization" and self.general_offensive.turn_declared is None
                and self.turn <= self.total_turns - 2):
            out.append(DeclareGeneralOffensive())
        if p.kind == "movement":
            for u in st.on_map(p.side):
                if u.id in self.moved:
                    continue
                for n in st.map.neighbors(u.hex):
                    trial = st.copy()
                    try:
                        move(trial, u.id, [st.label(n)])
                    except RuleViolation:
                        continue
                    out.append(Move(u.id, (st.label(n),)))
            if self.optional_rules:
                from .optional import OVERRUN_COST
                for u in st.on_map(p.side):
                    if u.id in self.moved or u.movement < OVERRUN_COST or u.parenthesized or u.strength <= 0:
                        continue
                    for n in st.map.neighbors(u.hex):
                        if st.units_at(n, p.side.enemy) and not attack_problem(st, p.side.value, n):
                            out.append(Overrun((u.id,), st.label(n), "Mobile"))
        if p.kind == "combat" and self.pending_advance:
            units, hex_, allowed = self.pending_advance
            movers = tuple(u for u in units if st.unit(u).on_map and st.unit(u).counter.type != "militia")
            options = [DeclineAdvance()]
            if movers:
                options.append(Advance(movers, (hex_,)))
                if allowed > 1:
                    options += [Advance(movers, (hex_, st.label(n))) for n in st.map.neighbors(st.map.hex(hex_))
                                if not st.units_at(n, p.side.enemy)]
            return options
        if p.kind == "combat":
            targets = {u.hex for u in st.on_map(p.side.enemy)}
            if p.side is Side.COMMUNIST:
                targets |= {h for h in st.map.hexes if st.fef_militia(h) and not st.units_at(h)}
            for h in targets:
                if attack_problem(st, p.side.value, h):
                    continue
                ready = [u for u in st.on_map(p.side) if u.hex.is_adjacent(h) and u.id not in self.attacked
                         and not u.parenthesized and u.strength > 0]
                if not ready:
                    continue
                group = tuple(sorted(u.id for u in ready))
                for table in ("Mobile", "Assault"):
                    out.append(Attack(group, st.label(h), table))
                for u in ready:
                    out.append(Attack((u.id,), st.label(h), "Mobile"))
        return out + [EndPhase()]

    # ------------------------------------------------------------------ apply
    def apply(self, action, dice: Dice) -> Resolution:
        """Carry out one action; the action and every die it used go into ``history``."""
        if self.over:
            raise RuleViolation("IC 3.2", "the game is over")
        recording = RecordingDice(dice)
        res = self._apply(action, recording)
        self.history.append((action, tuple(recording.values)))
        self.log.extend(res)
        return res

    def _apply(self, action, dice: Dice) -> Resolution:
        p, st = self.phase, self.state
        if isinstance(action, EndPhase):
            return self._end_phase(dice)
        if isinstance(action, RollEvent):
            if p.kind != "events" or self.event_rolled:
                raise RuleViolation("IC 3.1", "the event roll belongs to the Events Phase, once a turn")
            res = Resolution()
            roll_event(dice, res)
            self.event_rolled = True
            return res
        if isinstance(action, (DeclareAmbush, DeclineAmbush)):
            return self._ambush(action, dice)
        if self.pending_ambush:
            raise RuleViolation("IC 28.1", "the non-phasing player first declares or declines the ambush")
        if isinstance(action, DeclareGeneralOffensive):
            if not self.optional_rules:
                raise RuleViolation("IC 31.0", "the General Offensive is an optional rule, switched off")
            return self.general_offensive.declare(self.points, dice, turn=self.turn, total_turns=self.total_turns,
                                                  phase_id=p.id)
        if isinstance(action, Overrun):
            return self._overrun(action, dice)
        if isinstance(action, Move):
            if p.kind != "movement":
                raise RuleViolation("IC 3.1", f"units move in their Movement Phase, not in the {p.id} Phase")
            u = st.unit(action.unit)
            if u.side is not p.side:
                raise RuleViolation("IC 9.1", f"only the phasing player's units move ({action.unit} is {u.side.value})")
            if action.unit in self.moved:
                raise RuleViolation("IC 9.1", f"{action.unit} has already moved this phase")
            came_from = st.label(u.hex)
            res = move(st, action.unit, list(action.path))
            self.moved.add(action.unit)
            if self.optional_rules and len(action.path) == 1:
                self._offer_ambush(action.unit, came_from)
            return res
        if isinstance(action, Attack):
            if self.pending_advance:
                raise RuleViolation("IC 13.61", "the last combat's advance comes first (Advance or DeclineAdvance)")
            return self._attack(action, dice)
        if isinstance(action, (Advance, DeclineAdvance)):
            return self._advance(action)
        raise RuleViolation("IC 3.1", f"{action!r} is not an action of this game")

    @implements("IC 13.11")
    def _attack(self, a: Attack, dice: Dice) -> Resolution:
        p, st = self.phase, self.state
        if p.kind != "combat":
            raise RuleViolation("IC 13.0", f"land combat happens in the Combat Phase, not the {p.id} Phase")
        h = st.map.hex(a.defender_hex)
        china = attack_problem(st, p.side.value, h)
        if china:
            raise RuleViolation("IC 22.3", china)
        attackers = [st.unit(x) for x in a.attackers]
        defenders = st.units_at(h, p.side.enemy)
        strengths, militia_alone = defending_strengths(st, h)
        if not defenders and not (militia_alone and p.side is Side.COMMUNIST):
            raise RuleViolation("IC 13.1", f"{a.defender_hex} holds no enemy units")
        for u in attackers:
            if u.side is not p.side or not u.on_map:
                raise RuleViolation("IC 13.1", f"{u.id} cannot attack for the {p.side.value} player")
            if not u.hex.is_adjacent(h):
                raise RuleViolation("IC 13.11", f"{u.id} is not adjacent to {a.defender_hex}")
            if u.id in self.attacked:
                raise RuleViolation("IC 13.11", f"{u.id} has already attacked this phase")
            if u.parenthesized:
                raise RuleViolation("IC 2.31", f"{u.id} has a bracketed strength and may only defend")
        if p.side is Side.FEF:
            strengths = tuple(u.strength for u in defenders)
        c = Combat(p.side, tuple(u.strength for u in attackers), strengths,
                   terrain=st.terrain(h), monsoon=st.monsoon, militia_alone=militia_alone,
                   general_offensive=p.side is Side.COMMUNIST and self.general_offensive.active(self.turn),
                   attackers_all_light=all(u.counter.unit_class == "Light" for u in attackers))
        res = resolve_combat(c, a.table, crt_chooser(c), dice, Readings.ONE_THIRD)
        self.attacked.update(a.attackers)
        retreats = {}
        for group, side in ((defenders, p.side.enemy), (attackers, p.side)):
            for u in group:
                retreats[u.id] = self._default_retreat(u)
        out = apply_result(st, res.result["result"], list(a.attackers), a.defender_hex, a.table,
                           {"retreats": retreats}, militia_alone=militia_alone)
        res.extend(out)
        if out.result["advance"]:
            self.pending_advance = (a.attackers, a.defender_hex, out.result["advance"])
        return res

    def _offer_ambush(self, uid: str, came_from: str) -> None:
        """After a one-hex step from one enemy ZOC into another, list the hexes that may ambush (28.1, 28.4)."""
        st = self.state
        if self.ambush_log is None or self.ambush_log.phasing is not self.phase.side:
            self.ambush_log = AmbushLog(self.phase.side)
        u = st.unit(uid)
        candidates = []
        for n in st.map.neighbors(u.hex):
            try:
                check_ambush(st, [uid], came_from, st.label(n), self.ambush_log)
            except RuleViolation:
                continue
            candidates.append(st.label(n))
        if candidates:
            self.pending_ambush = (uid, came_from, tuple(candidates))

    def _ambush(self, action, dice: Dice) -> Resolution:
        if not self.pending_ambush:
            raise RuleViolation("IC 28.1", "no ambush can be declared now")
        uid, came_from, candidates = self.pending_ambush
        self.pending_ambush = None
        if isinstance(action, DeclineAmbush):
            res = Resolution()
            res.add("IC 28.1", f"no ambush against {uid}")
            return res
        if action.hex not in candidates:
            raise RuleViolation("IC 28.4", f"{action.hex} may not ambush {uid}")
        c_side = self.phase.side
        probe = Combat(c_side, (1,), (1,), mode="ambush",
                       attackers_all_light=self.state.unit(uid).counter.unit_class == "Light")
        return ambush(self.state, [uid], came_from, action.hex, self.ambush_log, action.table, dice,
                      chosen_by=crt_chooser(probe), choices=self._default_choices())

    def _overrun(self, action: Overrun, dice: Dice) -> Resolution:
        p, st = self.phase, self.state
        if not self.optional_rules:
            raise RuleViolation("IC 27.0", "overruns are an optional rule, switched off")
        if p.kind != "movement":
            raise RuleViolation("IC 27.1", "overruns happen during the phasing player's movement")
        for u in action.units:
            if st.unit(u).side is not p.side:
                raise RuleViolation("IC 27.2", f"{u} is not the phasing player's unit")
            if u in self.moved:
                raise RuleViolation("IC 9.1", f"{u} has already moved this phase")
        force = form_force(st, list(action.units))
        res = overrun(st, force, action.target, action.table, dice, choices=self._default_choices())
        self.moved.update(action.units)
        return res

    def _advance(self, action) -> Resolution:
        if not self.pending_advance:
            raise RuleViolation("IC 13.61", "no combat result allows an advance now")
        units, hex_, allowed = self.pending_advance
        self.pending_advance = None
        res = Resolution()
        if isinstance(action, DeclineAdvance):
            res.add("IC 13.61", "the attackers stay where they are")
            return res
        if not set(action.units) <= set(units):
            raise RuleViolation("IC 13.61", "only units that took part in the attack may advance")
        if any(self.state.unit(u).counter.type == "militia" for u in action.units):
            raise RuleViolation("IC 17.321", "militia never advance after combat")
        res.extend(advance(self.state, list(action.units), list(action.path), allowed, hex_))
        advance_into(self.state, self.state.map.hex(hex_), self.phase.side, "", res)
        return res

    def _default_choices(self) -> dict:
        return {"retreats": {u.id: self._default_retreat(u) for u in self.state.on_map()}}

    def _default_retreat(self, u) -> str:
        """A stated default choice for the owner: the first hex, in label order, that is legal and outside
        enemy zones if possible."""
        st = self.state
        zoc = enemy_zoc(st, u.side)
        options = []
        for n in st.map.neighbors(u.hex):
            if st.units_at(n, u.side.enemy):
                continue
            from .results import _enterable
            if _enterable(st, u.id, u.hex, n):
                continue
            options.append((n in zoc, st.label(n)))
        return min(options)[1] if options else st.label(u.hex)

    @implements("IC 10.21", "IC 26.1", "IC 2.37")
    def _end_phase(self, dice: Dice) -> Resolution:
        res = Resolution()
        p = self.phase
        if self.pending_advance:
            raise RuleViolation("IC 13.61", "settle the last combat's advance first")
        if self.pending_ambush:
            raise RuleViolation("IC 28.1", "the ambush must be declared or declined first")
        if p.kind in ("movement", "combat"):
            for side in (Side.COMMUNIST, Side.FEF):
                end_of_phase_stacking(self.state, side, p.kind, res)
        if p.kind == "events" and not self.event_rolled:
            raise RuleViolation("IC 6.0", "roll for the turn's event first")
        self.moved.clear()
        self.attacked.clear()
        self.phase_index += 1
        if self.phase_index == len(SEQUENCE):
            self.phase_index = 0
            self.turns_left -= 1
            self.event_rolled = False
            self.month = self.month % 12 + 1
            self.year += self.month == 1
            self.state.monsoon = weather(self.month) == "Monsoon"
            res.add("IC 3.1", f"a new turn: {self.year}-{self.month:02d}, {weather(self.month)} weather")
        res.add("IC 3.1", f"now: {self.phase.id} Phase")
        return res


def replay(make_game, history: Iterable[tuple[object, tuple[int, ...]]]) -> IndochinaGame:
    """Rebuild a game from a fresh start and its history of actions and dice."""
    g = make_game()
    for i, (action, rolls) in enumerate(history):
        with ScriptedDice(list(rolls), source=f"history[{i}]") as d:
            g.apply(action, d)
    return g
