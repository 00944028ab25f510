"""Rule 3: the sequence of play as data, and :class:`Game`, Indochina on the shared game protocol.

Every decision a rule gives a player is a prompt answered by that player's action: the choice of CRT by the
player 13.31 names (:class:`ChooseTable`), the unit a result hits (:class:`ChooseUnit`, 13.5), each retreat
hex by the unit's owner (:class:`Retreat`, 13.62), the advance after combat by the attacker
(:class:`Advance` / :class:`DeclineAdvance`, 13.61) and the ambush by the non-phasing player
(:class:`DeclareAmbush` / :class:`DeclineAmbush`, 28.1). A combat in progress is kept in the position
(``combat``), so a game saved in the middle of one replays to the same point.

Phases whose rules are not yet executable in play (reorganization, air, recovery, political points) are
stepped through with :class:`EndPhase` only; the Events, Mobilization (the General Offensive), Movement
(with forces that move together and overrun, 27, and ambushes, 28) and Combat phases act.
"""
from __future__ import annotations

import copy
import dataclasses
import itertools
from dataclasses import dataclass
from fractions import Fraction

from ..core.actions import Action
from ..core.errors import DataError, RuleViolation
from ..core.game import Game as CoreGame, Outcome, Prompt, handles
from ..core.log import Resolution
from ..core.rules import implements
from ..core.sequence import Phase, Sequence
from .air_play import AIR_ACTIONS, AirPlay  # air:
from .borders import attack_problem
from .combat import TABLES, Combat, Side, combat_terrain, crt_chooser, resolve_combat
from .events import roll_event
from .fog import player_view
from .militia import advance_into, defending_strengths, revert_abandoned_cities
from .movement import move
from .optional import (OVERRUN_COST, AmbushLog, GeneralOffensive, check_ambush, declare_ambush, declare_overrun,
                       drop_off, end_ambush, end_overrun, force_step, form_force)
from .political import CAP
from .reorganization import employable
from .results import (PICKS, advance, apply_losses, cannot_retreat, pick_candidates, retreat, retreat_options,
                      two_hex_advance)
from .ruleset import Ruleset
from .scenarios import SCENARIOS, setup_scenario
from .stacking import end_of_phase_stacking, stack_total, stacking_limit
from .victory import Place, victory
from .weather import weather
from .units import stacking_value


def _player_turn(side: Side) -> list[Phase]:
    s = side.value
    air = "FEF Defensive Air" if side is Side.COMMUNIST else "FEF Offensive Air"
    return [Phase(f"{s} Mobilization", side, "mobilization", "IC 7.0"),
            Phase(f"{s} Reorganization", side, "reorganization", "IC 8.0"),
            Phase(f"{s} Movement", side, "movement", "IC 9.0"), Phase(air, Side.FEF, "air", "IC 12.0"),
            Phase(f"{s} Combat", side, "combat", "IC 13.0"), Phase(f"{s} Recovery", side, "recovery", "IC 14.0")]


SEQUENCE = Sequence((Phase("Events", None, "events", "IC 6.0"), *_player_turn(Side.COMMUNIST),
                     *_player_turn(Side.FEF), Phase("Political Points", None, "political", "IC 5.0"),
                     Phase("End of Turn", None, "end", "IC 3.1")))


# --------------------------------------------------------------------------- actions

@dataclass(frozen=True)
class RollEvent(Action):
    """Roll two dice on the Events Table (6.1)."""


@dataclass(frozen=True)
class EndPhase(Action):
    """End the current phase (3.1)."""


@dataclass(frozen=True)
class DeclareGeneralOffensive(Action):
    """The Communist player declares the General Offensive / General Uprising (31.1)."""


@dataclass(frozen=True)
class Move(Action):
    """Move one unit along a path of hexes (9.1)."""

    unit: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class Overrun(Action):
    """Units moving together overrun an adjacent enemy hex (27.1)."""

    units: tuple[str, ...]
    target: str


@dataclass(frozen=True)
class MoveForce(Action):
    """Units that start in one hex move together as a force (27.2), to overrun on the way or after an overrun."""

    units: tuple[str, ...]
    path: tuple[str, ...]


@dataclass(frozen=True)
class DropOff(Action):
    """A unit leaves its force; it moves no further this phase (27.2)."""

    unit: str


@dataclass(frozen=True)
class Attack(Action):
    """The phasing player's units attack one adjacent enemy hex (13.11); the CRT is chosen next (13.31)."""

    attackers: tuple[str, ...]
    defender_hex: str


@dataclass(frozen=True)
class ChooseDefenders(Action):
    """In an overstacked hex the defender picks the counted units, up to the stacking limit, that fight (10.22)."""

    side: str
    units: tuple[str, ...]


@dataclass(frozen=True)
class ChooseTable(Action):
    """The player 13.31 names chooses the Mobile or the Assault CRT."""

    side: str
    table: str


@dataclass(frozen=True)
class ConvertResult(Action):
    """FEF units defending a fortification turn a DD into a BB, or keep the DD (16.3(2), the FEF's option)."""

    side: str
    convert: bool


@dataclass(frozen=True)
class ChooseUnit(Action):
    """The owner chooses the unit a result hits (13.5: AE, AD, BB, SK)."""

    side: str
    unit: str


@dataclass(frozen=True)
class Retreat(Action):
    """The owner retreats one unit one hex (13.62)."""

    side: str
    unit: str
    hex: str


@dataclass(frozen=True)
class Advance(Action):
    """The attacker advances some of the attacking units after combat (13.61)."""

    side: str
    units: tuple[str, ...]
    path: tuple[str, ...]


@dataclass(frozen=True)
class DeclineAdvance(Action):
    """The attacker advances no unit (13.61)."""

    side: str


@dataclass(frozen=True)
class DeclareAmbush(Action):
    """The non-phasing player ambushes the moving unit from one hex (28.1)."""

    side: str
    hex: str


@dataclass(frozen=True)
class DeclineAmbush(Action):
    """The non-phasing player lets the moving unit go (28.1)."""

    side: str


ACTIONS = (RollEvent, EndPhase, DeclareGeneralOffensive, Move, MoveForce, DropOff, Overrun, Attack, ChooseDefenders,
           ChooseTable, ConvertResult, ChooseUnit, Retreat, Advance, DeclineAdvance, DeclareAmbush, DeclineAmbush)
ACTIONS = ACTIONS + AIR_ACTIONS  # air:


@implements("IC 3.2")
def game_length_reached(turns_left: int) -> bool:
    """3.2: the game ends once the scenario's number of game turns has been played."""
    return turns_left <= 0


def _plain_move(amb: dict | None) -> dict | None:
    """A move waiting on an ambush, as JSON-able data."""
    return None if amb is None else {**amb, "spent": str(amb["spent"]), "rest": list(amb["rest"])}


def _side(text: str) -> Side:
    try:
        return Side(text)
    except ValueError:
        raise DataError("action", "side", f"{text!r} is not a side; the sides are FEF and Communist") from None


# --------------------------------------------------------------------------- the game

class Game(AirPlay, CoreGame):  # air:
    """Indochina: the position, the political points, the calendar, the phase and any combat in progress."""

    NAME = "Indochina"
    PLAY_RULE = "IC 3.0"
    ACTIONS = ACTIONS
    SCENARIOS = SCENARIOS
    DEFAULT_SCENARIO = "highlands demo"
    RULESET = Ruleset
    POSITION = ("state", "points", "year", "month", "turns_left", "total_turns", "phase_index", "moved",
                "attacked", "event_rolled", "general_offensive", "ambush_log", "combat", "ambush", "forces",
                "air")  # air:
    NOT_IN_PLAY = {
        **{r: "the reorganization phase offers only EndPhase so far (the Indochina issue makes it playable)"
           for r in ("IC 4", "IC 8")},
        "IC 20": "building and using bases is not yet a phase action",
        "IC 7": "the mobilization phase's chart and assistance rolls are not yet phase actions",
        "IC 14.5": "the recovery phase offers only EndPhase so far",
        "IC 15": "supply is not yet traced in the game loop",
        "IC 16": "building fortifications is not yet a phase action",
        "IC 18": "the demonstration map has no riverine units or DNA",
        "IC 23": "the staging area is not in the demonstration scenario",
        "IC 29": "intervention is not in the demonstration scenario",
        "IC 30": "atomic bombs are not yet a phase action",
        "IC Exp": "the experimental rules are switches not yet offered in the game loop",
        "IC 38": "the rulebook scenarios give their set-ups in words only, with no hexes or counter values",
        "IC 21": "fog of war runs in Game.view, outside the actions",
    }

    def setup(self, scenario: str) -> None:
        self.state, self.points, calendar = setup_scenario(scenario)
        self.state.charts = self.ruleset.combat_charts()
        self.year, self.month, self.turns_left = calendar["year"], calendar["month"], calendar["turns"]
        self.total_turns = self.turns_left
        self.state.monsoon = self.weather() == "Monsoon"       # the opening month's weather (26.1)
        self.phase_index = 0
        self.moved: set[str] = set()
        self.attacked: set[str] = set()
        self.event_rolled = False
        self.general_offensive = GeneralOffensive()
        self.ambush_log: AmbushLog | None = None
        self.combat: dict | None = None        # the combat in progress and the decision it waits for
        self.ambush: dict | None = None        # a move the non-phasing player may ambush (28.1)
        self.forces: list = []                 # the forces that have overrun this phase (27.2, 27.33)
        self._air_setup()  # air: the FEF air boxes (12.21, 26.3(1))

    def shared(self):
        return (self.state.map, self.state.charts, *self.state.charts)

    # ------------------------------------------------------------------ reading the position
    @property
    def phase(self) -> Phase:
        return SEQUENCE[self.phase_index]

    @property
    def turn(self) -> int:
        return self.total_turns - self.turns_left + 1

    @property
    def over(self) -> bool:
        return self.outcome() is not None

    def option(self, name: str) -> bool:
        return bool(self.ruleset[name])

    @implements("IC 26.0", "IC 26.1")
    def weather(self) -> str:
        """The current turn's weather by its month (26.1); with the optional weather rule off, always Clear."""
        return weather(self.month) if self.option("weather") else "Clear"

    @implements("IC 24.1", "IC 5.22")
    def result(self) -> Outcome | None:
        if self.points.fef <= 0 and self.points.communist <= 0:
            return Outcome(None, "Draw", "IC 24.1",
                           "both political indexes fell to 0 together: the game ends in a Draw (24.1(4)(c))")
        winner = self.points.game_over
        if winner is not None:
            return Outcome(winner.value, "Decisive", "IC 5.22",
                           f"the {winner.enemy.value} political index fell to 0")
        if not game_length_reached(self.turns_left):
            return None
        out = victory(self._places(), self.points.fef, self.points.communist)
        return Outcome(out.winner.value if out.winner else None, out.level, "IC 24.1",
                       f"the last turn is over: {out.level}" + (f" for the {out.winner.value} player"
                                                               if out.winner else ""))

    def _places(self) -> list[Place]:
        st, out = self.state, []
        for h in st.map.hexes:
            if not st.is_urban(h):
                continue
            present = {u.side for u in st.units_at(h)}
            holder = present.pop() if len(present) == 1 else st.controller(h)
            out.append(Place(st.label(h), "city" if st.has(h, "city") else "town", holder,
                             str(st.map.info(h).attr("country", "Vietnam"))))
        return out

    def position(self) -> dict:
        st = self.state
        cb = self.combat
        combat = None if cb is None else {
            k: (sorted(v) if isinstance(v, set) else v) for k, v in cb.items()
            if k not in ("combat", "force", "moving")}
        if cb is not None:
            combat["moving"] = _plain_move(cb.get("moving"))
        if cb is not None and cb.get("force") is not None:
            f = cb["force"]
            combat["force"] = {"units": list(f.units), "spent": {u: str(s) for u, s in sorted(f.spent.items())},
                               "stopped": f.stopped}
        return {
            "units": {u.id: {"hex": st.label(u.hex) if u.hex is not None else None, "disrupted": u.disrupted,
                             "eliminated": u.eliminated} for u in sorted(st.units.values(), key=lambda u: u.id)},
            "monsoon": st.monsoon, "communist_cities": sorted(st.communist_cities),
            "points": {"FEF": self.points.fef, "Communist": self.points.communist},
            "year": self.year, "month": self.month, "turns_left": self.turns_left, "phase": self.phase.id,
            "moved": sorted(self.moved), "attacked": sorted(self.attacked), "event_rolled": self.event_rolled,
            "general_offensive": self.general_offensive.turn_declared,
            "ambushed": sorted(self.ambush_log.used) if self.ambush_log else [],
            "combat": combat,
            "forces": [{"units": list(f.units), "spent": {u: str(v) for u, v in sorted(f.spent.items())},
                        "stopped": f.stopped} for f in self.forces],
            "ambush": _plain_move(self.ambush),
            "air": self._air_position(),  # air:
        }

    def visible(self, side: str) -> dict:
        """What ``side`` may see (21.1-21.3): its own units; enemy stacks in full only where a combat is being
        resolved or, for the Communist player, inside Indochina; next to a unit that just moved, whether a
        closed stack has a ZOC."""
        viewer = _side(side)
        pos = self.position()
        del pos["units"]
        revealed = []
        if self.combat is not None:
            revealed = [self.combat["hex"]] + sorted({self.state.label(self.state.unit(u).hex)
                                                      for u in self.combat["attackers"] if self.state.unit(u).on_map})
        moved = self.history[-1].action if self.history else None
        near = [self.state.label(self.state.unit(moved.unit).hex)] if isinstance(moved, Move) and \
            self.state.unit(moved.unit).on_map else []
        pos["stacks"] = player_view(self.state, viewer, revealed, near)
        if pos["combat"] is not None and viewer.value != pos["combat"]["side"]:
            pos["combat"] = {k: v for k, v in pos["combat"].items() if k != "moving"}
        return pos

    def names(self) -> dict[str, list[str]]:
        st = self.state
        return {"units": sorted(st.units), "hexes": [st.label(h) for h in st.map.hexes],
                "sides": [s.value for s in Side], "tables": list(TABLES)}

    # ------------------------------------------------------------------ prompts
    def decision(self) -> tuple[str, str, str, str] | None:
        """The decision the game waits for: (side, rule, question, kind), or None in free play."""
        cb = self.combat
        if cb is not None:
            stage = cb["stage"]
            if stage == "defend":
                return (Side(cb["side"]).enemy.value, "IC 10.22", f"choose the units in the overstacked hex "
                        f"{cb['hex']} that defend, up to its stacking limit (every unit there takes the result)",
                        "defend")
            if stage == "table":
                return (cb["chooser"], "IC 13.31", "choose the CRT (Mobile or Assault) for the "
                        f"{cb['kind']} on {cb['hex']}", "table")
            if stage == "convert":
                return ("FEF", "IC 16.3", f"turn the DD result on {cb['hex']} into a BB, or keep it", "convert")
            if stage == "pick":
                who = cb["pick"]
                side = cb["side"] if who == "attacker" else Side(cb["side"]).enemy.value
                return (side, "IC 13.5", f"choose the {who}'s unit the {cb['code']} result "
                        f"{'eliminates' if dict(PICKS[cb['code']])[who] == 'eliminated' else 'disrupts'}", "loss")
            if stage == "retreat":
                uid = cb["retreats"][0]
                return (self.state.unit(uid).side.value, "IC 13.62", f"choose a retreat hex for {uid}", "retreat")
            if stage == "advance":
                return (cb["side"], "IC 13.61", f"advance after combat into {cb['hex']} (up to {cb['advance']} "
                        f"hex{'es' if cb['advance'] > 1 else ''}) or stay", "advance")
        if self.ambush is not None:
            a = self.ambush
            return (a["side"], "IC 28.1", f"ambush {', '.join(a['units'])} in {a['at']} from one of "
                    f"{', '.join(a['candidates'])}, or let it pass", "ambush")
        return self._air_decision()  # air:

    def current_prompt(self) -> Prompt:
        d = self.decision()
        if d is not None:
            return Prompt(*d)
        p = self.phase
        side = p.side.value if p.side is not None else Side.COMMUNIST.value
        if p.kind == "events" and not self.event_rolled:
            return Prompt(side, "IC 6.1", "roll for the turn's event", "play")
        return Prompt(side, p.rule, f"play the {p.id} Phase, then end it", "play")

    # ------------------------------------------------------------------ candidates
    def candidates(self):
        st, p = self.state, self.phase
        cb = self.combat
        if cb is not None:
            return self._combat_answers(cb)
        if self.ambush is not None:
            side = self.ambush["side"]
            return [DeclareAmbush(side, h) for h in self.ambush["candidates"]] + [DeclineAmbush(side)]
        if p.kind == "events" and not self.event_rolled:
            return [RollEvent()]
        out: list[Action] = []
        if p.id == "Communist Mobilization" and self.option("general_offensive") \
                and self.general_offensive.turn_declared is None and self.turn <= self.total_turns - 2:
            out.append(DeclareGeneralOffensive())
        if p.kind == "movement":
            for u in st.on_map(p.side):
                if u.id in self.moved or u.counter.type == "militia":         # militia never move (17.3)
                    continue
                out += [Move(u.id, (st.label(n),)) for n in st.map.neighbors(u.hex)]
            if self.option("overruns"):
                stacks: dict = {}
                for u in st.on_map(p.side):
                    if u.id in self.moved or u.movement < OVERRUN_COST or u.parenthesized or u.strength <= 0 \
                            or u.counter.type == "militia":
                        continue
                    stacks.setdefault(u.hex, []).append(u.id)
                for h, ids in stacks.items():
                    groups = [(uid,) for uid in sorted(ids)] + ([tuple(sorted(ids))] if len(ids) > 1 else [])
                    for n in st.map.neighbors(h):
                        if st.units_at(n, p.side.enemy):
                            out += [Overrun(g, st.label(n)) for g in groups]
                for f in self.forces:
                    if not f.stopped and f.units and f.remaining(st) >= OVERRUN_COST:
                        out += [Overrun(tuple(sorted(f.units)), st.label(n)) for n in st.map.neighbors(f.hex(st))
                                if st.units_at(n, p.side.enemy)]
                    if len(f.units) > 1:
                        out += [DropOff(uid) for uid in sorted(f.units)]
                    if not f.stopped and f.units and f.remaining(st) > 0:
                        out += [MoveForce(tuple(sorted(f.units)), (st.label(n),)) for n in st.map.neighbors(f.hex(st))]
                for h, ids in stacks.items():
                    if len(ids) > 1:
                        out += [MoveForce(tuple(sorted(ids)), (st.label(n),)) for n in st.map.neighbors(h)]
                    elif st.unit(ids[0]).movement > OVERRUN_COST:   # a lone unit may move, then overrun (27.1)
                        out += [MoveForce((ids[0],), (st.label(n),)) for n in st.map.neighbors(h)]
        if p.kind == "combat":
            targets = {u.hex for u in st.on_map(p.side.enemy)}
            if p.side is Side.COMMUNIST:
                targets |= {h for h in st.map.hexes if st.fef_militia(h) and not st.units_at(h)}
            for h in sorted(targets, key=st.label):
                ready = sorted(u.id for u in st.on_map(p.side) if u.hex.is_adjacent(h) and u.id not in self.attacked
                               and not u.parenthesized and u.strength > 0)
                if not ready:
                    continue
                out.append(Attack(tuple(ready), st.label(h)))
                if len(ready) > 1:
                    out += [Attack((uid,), st.label(h)) for uid in ready]
        if p.kind == "air":
            out += self._air_candidates()  # air:
        return out + [EndPhase()]

    def _combat_answers(self, cb: dict) -> list[Action]:
        st = self.state
        side = self.decision()[0]
        stage = cb["stage"]
        if stage == "defend":
            return [ChooseDefenders(side, pick) for pick in self._defence_picks(cb)]
        if stage == "table":
            return [ChooseTable(side, t) for t in TABLES]
        if stage == "convert":
            return [ConvertResult(side, True), ConvertResult(side, False)]
        if stage == "pick":
            return [ChooseUnit(side, u) for u in pick_candidates(st, cb["attackers"], cb["hex"], cb["pick"])]
        if stage == "retreat":
            uid = cb["retreats"][0]
            return [Retreat(side, uid, h) for h in retreat_options(st, uid)]
        movers = self._movers(cb)
        out: list[Action] = [DeclineAdvance(side)]
        groups = [tuple(movers)] + ([(m,) for m in movers] if len(movers) > 1 else [])
        out += [Advance(side, g, (cb["hex"],)) for g in groups]
        if cb["advance"] > 1:                                 # a second hex: qualified units only (13.61(1))
            fast = [m for m in movers if two_hex_advance(st.unit(m), cb["table"])]
            fast_groups = [tuple(fast)] + ([(m,) for m in fast] if len(fast) > 1 else []) if fast else []
            out += [Advance(side, g, (cb["hex"], st.label(n))) for g in fast_groups
                    for n in st.map.neighbors(st.map.hex(cb["hex"]))]
        return out

    def _defence_picks(self, cb: dict) -> list[tuple[str, ...]]:
        """The largest sets of counted units within the stacking limit (10.22), each in id order."""
        st = self.state
        h = st.map.hex(cb["hex"])
        counted = sorted(u.id for u in st.units_at(h, Side(cb["side"]).enemy) if stacking_value(u.counter) > 0)
        limit = stacking_limit(st, h)
        fits = [combo for r in range(len(counted), -1, -1) for combo in itertools.combinations(counted, r)
                if sum((stacking_value(st.unit(u).counter) for u in combo), Fraction(0)) <= limit]
        return [f for f in fits if not any(set(f) < set(g) for g in fits)]

    def _movers(self, cb: dict) -> list[str]:
        st = self.state
        return [u for u in cb["attackers"] if st.unit(u).on_map and st.unit(u).counter.type != "militia"]

    # ------------------------------------------------------------------ fast legality checks
    def check_action(self, action: Action) -> None:
        if isinstance(action, Move):
            self._check_move(action)
            move(self.state.copy(), action.unit, list(action.path))
        elif isinstance(action, Attack):
            self._check_attack(action)
        elif isinstance(action, EndPhase):
            self._check_end_phase()
        elif isinstance(action, ChooseTable):
            self._check_table(action)
        elif isinstance(action, MoveForce):
            self._check_move_force(action)
        elif isinstance(action, Overrun):
            self._check_overrun(action)
        else:
            super().check_action(action)

    def _no_decision(self, rule: str = "IC 3.1") -> None:
        d = self.decision()
        if d is not None:
            raise RuleViolation(d[1], f"the {d[0]} player must first {d[2]}")

    # ------------------------------------------------------------------ events, phases, General Offensive
    @handles(RollEvent)
    def _roll_event(self, action: RollEvent, dice, res: Resolution) -> None:
        self._no_decision()
        if self.phase.kind != "events" or self.event_rolled:
            raise RuleViolation("IC 3.1", "the event roll belongs to the Events Phase, once a turn")
        roll_event(dice, res, self.ruleset.chart("random_events"))
        self.event_rolled = True

    @handles(DeclareGeneralOffensive)
    def _general_offensive(self, action, dice, res: Resolution) -> None:
        self._no_decision()
        if not self.option("general_offensive"):
            raise RuleViolation("IC 31.0", "the General Offensive is an optional rule, switched off")
        if self.phase.id != "Communist Mobilization":
            raise RuleViolation("IC 31.1", "the General Offensive is declared at the start of a Communist player turn")
        res.extend(self.general_offensive.declare(self.points, dice, turn=self.turn, total_turns=self.total_turns,
                                                  phase_id=self.phase.id))

    def _check_end_phase(self) -> None:
        self._no_decision()
        if self.phase.kind == "events" and not self.event_rolled:
            raise RuleViolation("IC 6.0", "roll for the turn's event first")

    @handles(EndPhase)
    @implements("IC 3.0", "IC 3.1", "IC 10.21", "IC 26.1", "IC 2.37")
    def _end_phase(self, action, dice, res: Resolution) -> None:
        self._check_end_phase()
        p = self.phase
        if p.kind in ("movement", "combat"):
            for side in (Side.COMMUNIST, Side.FEF):
                end_of_phase_stacking(self.state, side, p.kind, res)
        self.moved.clear()
        self.attacked.clear()
        self.forces = []
        self.ambush_log = None
        self._air_phase_ended(res)  # air:
        self.phase_index, new_turn = SEQUENCE.after(self.phase_index)
        if new_turn:
            self.turns_left -= 1
            self.event_rolled = False
            self.month = self.month % 12 + 1
            self.year += self.month == 1
            self.state.monsoon = self.weather() == "Monsoon"
            self._air_end_of_turn(res)  # air: Completed back to Available (12.21), monsoon (26.3(1))
            res.add("IC 3.1", f"a new turn: {self.year}-{self.month:02d}, {self.weather()} weather"
                    + ("" if self.option("weather") else " (the optional weather rule is off)"))
            if game_length_reached(self.turns_left):
                res.add("IC 3.2", "the scenario's last turn is over: the game ends")
                res.extend(victory(self._places(), self.points.fef, self.points.communist).log)
        res.add("IC 3.1", f"now: {self.phase.id} Phase")

    # ------------------------------------------------------------------ movement and ambush
    def _check_move(self, a: Move) -> None:
        self._no_decision()
        p, st = self.phase, self.state
        if p.kind != "movement":
            raise RuleViolation("IC 3.1", f"units move in their Movement Phase, not in the {p.id} Phase")
        u = st.unit(a.unit)
        if u.side is not p.side:
            raise RuleViolation("IC 9.1", f"only the phasing player's units move ({a.unit} is {u.side.value})")
        if a.unit in self.moved:
            raise RuleViolation("IC 9.1", f"{a.unit} has already moved this phase")
        if not isinstance(a.path, tuple) or not all(isinstance(x, str) for x in a.path):
            raise RuleViolation("IC 9.1", "a path is a list of hex labels")

    @handles(Move)
    def _move(self, a: Move, dice, res: Resolution) -> None:
        self._check_move(a)
        move(self.state.copy(), a.unit, list(a.path))         # the whole path is legal now
        self.moved.add(a.unit)
        self._walk(a.unit, list(a.path), Fraction(0), res)

    def _walk(self, uid: str, path: list[str], spent: Fraction, res: Resolution) -> None:
        """Move hex by hex; where a step goes from one enemy ZOC into another and a hex may ambush, stop and
        ask the non-phasing player (28.1). The rest of the path waits for the answer."""
        st = self.state
        for i, label in enumerate(path):
            came_from = st.label(st.unit(uid).hex)
            step = move(st, uid, [label], already_spent=spent)
            res.extend(step)
            spent = Fraction(step.result["spent"])
            if self.option("ambushes"):
                candidates = self._ambush_hexes([uid], came_from)
                if candidates:
                    self.ambush = {"side": self.phase.side.enemy.value, "units": [uid], "force": None,
                                   "at": label, "came_from": came_from, "candidates": candidates,
                                   "rest": path[i + 1:], "spent": spent}
                    return

    def _walk_force(self, fi: int, path: list[str], res: Resolution) -> None:
        """Move a force hex by hex (27.2), stopping for an ambush answer as a single unit does (28.1)."""
        st, force = self.state, self.forces[fi]
        for i, label in enumerate(path):
            came_from = st.label(force.hex(st))
            res.extend(force_step(st, force, label))
            if self.option("ambushes"):
                candidates = self._ambush_hexes(force.units, came_from)
                if candidates:
                    self.ambush = {"side": self.phase.side.enemy.value, "units": list(force.units), "force": fi,
                                   "at": label, "came_from": came_from, "candidates": candidates,
                                   "rest": path[i + 1:], "spent": Fraction(0)}
                    return

    def _force_index(self, units) -> int | None:
        return next((i for i, f in enumerate(self.forces) if sorted(f.units) == sorted(units)), None)

    def _check_move_force(self, a: MoveForce):
        """Every check of a force's move, on copies: returns the force's index (None: a new force) and the force."""
        self._no_decision()
        p, st = self.phase, self.state
        if not self.option("overruns"):
            raise RuleViolation("IC 27.0", "forces move together for overruns, an optional rule switched off")
        if p.kind != "movement":
            raise RuleViolation("IC 3.1", f"units move in their Movement Phase, not in the {p.id} Phase")
        if not isinstance(a.path, tuple) or not a.path or not all(isinstance(x, str) for x in a.path):
            raise RuleViolation("IC 9.1", "a force moves along a path of one or more hex labels")
        fi = self._force_index(a.units)
        if fi is None:
            for uid in a.units:
                if st.unit(uid).side is not p.side:
                    raise RuleViolation("IC 27.2", f"{uid} is not the phasing player's unit")
                if uid in self.moved:
                    raise RuleViolation("IC 27.2", f"{uid} has already moved this phase and may not join a force")
            force = form_force(st, list(a.units))
        else:
            force = self.forces[fi]
            if force.stopped:
                raise RuleViolation("IC 27.42", f"this force has stopped for the phase ({force.stop_reason})")
        trial, trial_force = st.copy(), copy.deepcopy(force)
        for label in a.path:                                   # the whole path is legal now
            force_step(trial, trial_force, label)
        return fi, force

    @handles(DropOff)
    def _drop_off(self, a: DropOff, dice, res: Resolution) -> None:
        self._no_decision()
        if self.phase.kind != "movement":
            raise RuleViolation("IC 27.2", "units drop off a force during its Movement Phase")
        force = next((f for f in self.forces if a.unit in f.units), None)
        if force is None:
            raise RuleViolation("IC 27.2", f"{a.unit} is not part of a force")
        drop_off(force, a.unit)
        res.add("IC 27.2", f"{a.unit} drops off the force in {self.state.label(self.state.unit(a.unit).hex)}; "
                           f"it moves no further this phase")

    @handles(MoveForce)
    def _move_force(self, a: MoveForce, dice, res: Resolution) -> None:
        fi, force = self._check_move_force(a)
        if fi is None:
            self.forces.append(force)
            fi = len(self.forces) - 1
        self.moved.update(a.units)
        self._walk_force(fi, list(a.path), res)

    def _ambush_hexes(self, uids: list[str], came_from: str) -> list[str]:
        st = self.state
        if self.ambush_log is None or self.ambush_log.phasing is not self.phase.side:
            self.ambush_log = AmbushLog(self.phase.side)
        out = []
        for n in st.map.neighbors(st.unit(uids[0]).hex):
            try:
                check_ambush(st, list(uids), came_from, st.label(n), self.ambush_log)
            except RuleViolation:
                continue
            out.append(st.label(n))
        return sorted(out)

    def _ambush_answer(self, side: str) -> dict:
        if self.combat is not None:
            self._no_decision()
        if self.ambush is None:
            raise RuleViolation("IC 28.1", "no ambush can be declared now")
        if _side(side).value != self.ambush["side"]:
            raise RuleViolation("IC 28.1", f"the {self.ambush['side']} player (not moving) decides on the ambush, "
                                           f"not the {side} player")
        return self.ambush

    @handles(DeclineAmbush)
    def _decline_ambush(self, a: DeclineAmbush, dice, res: Resolution) -> None:
        amb = self._ambush_answer(a.side)
        self.ambush = None
        res.add("IC 28.1", f"no ambush against {', '.join(amb['units'])}")
        self._go_on(amb, res)

    @handles(DeclareAmbush)
    def _declare_ambush(self, a: DeclareAmbush, dice, res: Resolution) -> None:
        amb = self._ambush_answer(a.side)
        if a.hex not in amb["candidates"]:
            raise RuleViolation("IC 28.4", f"{a.hex} may not ambush {', '.join(amb['units'])}; the hexes that may are "
                                           f"{', '.join(amb['candidates'])}")
        c, attackers, ambushers, out = declare_ambush(self.state, list(amb["units"]), amb["came_from"], a.hex,
                                                      self.ambush_log)
        res.extend(out)
        self.ambush = None
        self._start_combat("ambush", c, attackers, a.hex, res, moving=amb)

    def _go_on(self, amb: dict, res: Resolution) -> None:
        """After an ambush that did not stop it (or none), the unit or force follows the rest of its path (28.52)."""
        rest = list(amb["rest"])
        if amb["force"] is not None:
            force = self.forces[amb["force"]]
            if not rest or force.stopped or not force.units:
                return
            trial, trial_force = self.state.copy(), copy.deepcopy(force)
            try:
                for label in rest:
                    force_step(trial, trial_force, label)
            except RuleViolation as e:
                res.add("IC 28.52", f"the force stops in {amb['at']}: the rest of its path is no longer open "
                                    f"({e.reason})")
                return
            self._walk_force(amb["force"], rest, res)
            return
        uid = amb["units"][0]
        if not rest or not self.state.unit(uid).on_map:
            return
        try:
            move(self.state.copy(), uid, rest, already_spent=amb["spent"])
        except RuleViolation as e:
            res.add("IC 28.52", f"{uid} stops in {amb['at']}: the rest of its path is no longer open ({e.reason})")
            return
        self._walk(uid, rest, Fraction(amb["spent"]), res)

    def _check_overrun(self, a: Overrun):
        """Every check of an overrun (declared on copies): the force (a new one unless it has overrun before)."""
        self._no_decision()
        p, st = self.phase, self.state
        if not self.option("overruns"):
            raise RuleViolation("IC 27.0", "overruns are an optional rule, switched off")
        if p.kind != "movement":
            raise RuleViolation("IC 27.1", "overruns happen during the phasing player's movement")
        fi = self._force_index(a.units)
        if fi is None:                         # a new force; one that has overrun may go on (27.33)
            for uid in a.units:
                if st.unit(uid).side is not p.side:
                    raise RuleViolation("IC 27.2", f"{uid} is not the phasing player's unit")
                if uid in self.moved:
                    raise RuleViolation("IC 9.1", f"{uid} has already moved this phase")
        problem = attack_problem(st, p.side.value, st.map.hex(a.target))
        if problem:
            raise RuleViolation("IC 22.3", problem)
        force = form_force(st, list(a.units)) if fi is None else self.forces[fi]
        declare_overrun(st.copy(), copy.deepcopy(force), a.target)
        return fi, force

    @handles(Overrun)
    def _overrun(self, a: Overrun, dice, res: Resolution) -> None:
        fi, force = self._check_overrun(a)
        c, attackers, out = declare_overrun(self.state, force, a.target)
        res.extend(out)
        if fi is None:
            self.forces.append(force)
        self.moved.update(a.units)
        self._start_combat("overrun", c, attackers, a.target, res, force=force)

    # ------------------------------------------------------------------ land combat
    def _check_attack(self, a: Attack) -> tuple[Combat, bool]:
        self._no_decision()
        p, st = self.phase, self.state
        if p.kind != "combat":
            raise RuleViolation("IC 13.0", f"land combat happens in the Combat Phase, not the {p.id} Phase")
        if not isinstance(a.attackers, tuple) or not a.attackers:
            raise RuleViolation("IC 13.1", "an attack needs at least one attacking unit")
        if len(set(a.attackers)) != len(a.attackers):
            raise RuleViolation("IC 13.11", "a unit is listed twice in the attack")
        h = st.map.hex(a.defender_hex)
        problem = attack_problem(st, p.side.value, h)
        if problem:
            raise RuleViolation("IC 22.3", problem)
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
            if u.parenthesized or u.strength <= 0:
                raise RuleViolation("IC 2.31", f"{u.id} has a bracketed or no strength and may only defend")
        for src in {u.hex for u in attackers}:
            if stack_total(st, src, p.side) > stacking_limit(st, src):
                employable(st, src, p.side, chosen=[u.id for u in attackers if u.hex == src
                                                     and stacking_value(u.counter) > 0])
        if p.side is Side.FEF:
            strengths = tuple(u.strength for u in defenders)
        c = Combat(p.side, tuple(u.strength for u in attackers), strengths,
                   terrain=combat_terrain(st, h), fortified=st.has(h, "fortification") and bool(defenders),
                   monsoon=st.monsoon, militia_alone=militia_alone,
                   general_offensive=p.side is Side.COMMUNIST and self.general_offensive.active(self.turn),
                   attackers_all_light=all(u.counter.unit_class == "Light" for u in attackers))
        return c, militia_alone

    @handles(Attack)
    @implements("IC 13.11", "IC 13.13", "IC 13.4")
    def _attack(self, a: Attack, dice, res: Resolution) -> None:
        c, militia_alone = self._check_attack(a)
        self.attacked.update(a.attackers)
        res.add("IC 13.2", f"{', '.join(a.attackers)} attack {a.defender_hex}")
        self._start_combat("attack", c, list(a.attackers), a.defender_hex, res, militia_alone=militia_alone)

    def _start_combat(self, kind: str, c: Combat, attackers: list[str], hex_: str, res: Resolution, *,
                      militia_alone: bool = False, force=None, moving: dict | None = None) -> None:
        chooser = crt_chooser(c)
        st, h = self.state, self.state.map.hex(hex_)
        overstacked = stack_total(st, h, c.defender) > stacking_limit(st, h)
        self.combat = {"kind": kind, "side": c.attacker.value, "attackers": list(attackers), "hex": hex_,
                       "combat": c, "chooser": chooser.value, "stage": "defend" if overstacked else "table",
                       "table": None, "code": None,
                       "picks": {}, "pick": None, "retreats": [], "advance": 0, "militia_alone": militia_alone,
                       "force": force, "moving": moving}
        res.add("IC 13.31", f"the {chooser.value} player chooses the CRT")

    @handles(ChooseDefenders)
    def _choose_defenders(self, a: ChooseDefenders, dice, res: Resolution) -> None:
        cb = self.combat
        if cb is None or cb["stage"] != "defend":
            self._no_decision()
            raise RuleViolation("IC 10.22", "no overstacked hex is waiting to pick its defenders")
        side = Side(cb["side"]).enemy
        if _side(a.side) is not side:
            raise RuleViolation("IC 10.22", f"the defender ({side.value}) picks the units that defend, not the "
                                            f"{a.side} player")
        if not isinstance(a.units, tuple) or len(set(a.units)) != len(a.units):
            raise RuleViolation("IC 10.22", "name each defending unit once")
        st, h = self.state, self.state.map.hex(cb["hex"])
        out = employable(st, h, side, chosen=a.units)
        res.extend(out)
        c = cb["combat"]
        extras = c.defence[len(st.units_at(h, side)):]             # an FEF militia's own strength (17.23)
        cb["combat"] = dataclasses.replace(c, defence=tuple(st.unit(u).strength for u in out.result) + extras)
        cb["stage"] = "table"

    def _check_table(self, a: ChooseTable) -> dict:
        cb = self.combat
        if cb is None or cb["stage"] != "table":
            d = self.decision()
            raise RuleViolation(d[1] if d else "IC 13.31", "no combat is waiting for its CRT"
                                + (f"; the {d[0]} player must first {d[2]}" if d else ""))
        if _side(a.side).value != cb["chooser"]:
            raise RuleViolation("IC 13.31", f"the {cb['chooser']} player chooses the CRT here, not the {a.side} player")
        if a.table not in TABLES:
            raise RuleViolation("IC 13.3", f"the CRT is Mobile or Assault, not {a.table!r}")
        return cb

    @handles(ChooseTable)
    def _choose_table(self, a: ChooseTable, dice, res: Resolution) -> None:
        cb = self._check_table(a)
        resolve_combat(cb["combat"], a.table, Side(cb["chooser"]), dice, self.ruleset.baseline, res,
                       charts=self.state.charts)
        cb["table"], cb["code"] = a.table, res.result["result"]
        c = cb["combat"]
        if cb["code"] == "DD" and c.defender is Side.FEF and c.fortified:
            cb["stage"] = "convert"
            return
        cb["stage"] = "pick"
        self._proceed(res)

    @handles(ConvertResult)
    def _convert(self, a: ConvertResult, dice, res: Resolution) -> None:
        cb = self.combat
        if cb is None or cb["stage"] != "convert":
            self._no_decision()
            raise RuleViolation("IC 16.3", "no DD result against a fortified FEF defence waits for the FEF's option")
        if _side(a.side) is not Side.FEF:
            raise RuleViolation("IC 16.3", f"the FEF player decides whether to turn the DD into a BB, not the "
                                           f"{a.side} player")
        if not isinstance(a.convert, bool):
            raise RuleViolation("IC 16.3", "convert is true or false")
        if a.convert:
            cb["code"] = "BB"
            res.add("IC 16.3", "the fortified FEF defender turns the DD into a BB")
        else:
            res.add("IC 16.3", "the FEF keeps the DD result")
        cb["stage"] = "pick"
        self._proceed(res)

    @handles(ChooseUnit)
    def _choose_unit(self, a: ChooseUnit, dice, res: Resolution) -> None:
        cb = self.combat
        if cb is None or cb["stage"] != "pick":
            self._no_decision()
            raise RuleViolation("IC 13.5", "no combat result waits for a unit to be chosen")
        side = self.decision()[0]
        if _side(a.side).value != side:
            raise RuleViolation("IC 13.5", f"the {side} player chooses which of his units the {cb['code']} result "
                                           f"hits, not the {a.side} player")
        options = pick_candidates(self.state, cb["attackers"], cb["hex"], cb["pick"])
        if a.unit not in options:
            raise RuleViolation("IC 13.5", f"{a.unit} is not one of the units to choose from ({', '.join(options)})")
        cb["picks"][cb["pick"]] = a.unit
        res.add("IC 13.5", f"the {side} player chooses {a.unit}")
        self._proceed(res)

    @handles(Retreat)
    def _retreat(self, a: Retreat, dice, res: Resolution) -> None:
        cb = self.combat
        if cb is None or cb["stage"] != "retreat":
            self._no_decision()
            raise RuleViolation("IC 13.62", "no unit has to retreat now")
        uid = cb["retreats"][0]
        owner = self.state.unit(uid).side.value
        if _side(a.side).value != owner:
            raise RuleViolation("IC 13.62", f"the owner ({owner}) chooses where {uid} retreats, "
                                            f"not the {a.side} player")
        if a.unit != uid:
            raise RuleViolation("IC 13.62", f"{uid} retreats now, not {a.unit}")
        options = retreat_options(self.state, uid)
        if a.hex not in options:
            raise RuleViolation("IC 13.62", f"{uid} may not retreat into {a.hex}; it may retreat into "
                                            f"{', '.join(options)}")
        retreat(self.state, uid, a.hex, res)
        cb["retreats"].pop(0)
        self._proceed(res)

    def _advance_checks(self, side: str) -> dict:
        cb = self.combat
        if cb is None or cb["stage"] != "advance":
            self._no_decision()
            raise RuleViolation("IC 13.61", "no combat result allows an advance now")
        if _side(side).value != cb["side"]:
            raise RuleViolation("IC 13.61", f"the attacker ({cb['side']}) decides the advance, not the {side} player")
        return cb

    @handles(DeclineAdvance)
    def _decline_advance(self, a: DeclineAdvance, dice, res: Resolution) -> None:
        cb = self._advance_checks(a.side)
        res.add("IC 13.61", "the attackers stay where they are")
        self._finish(cb, res)

    @handles(Advance)
    def _advance(self, a: Advance, dice, res: Resolution) -> None:
        cb = self._advance_checks(a.side)
        if not a.units or len(set(a.units)) != len(a.units):
            raise RuleViolation("IC 13.61", "name each advancing unit once")
        if not set(a.units) <= set(cb["attackers"]):
            raise RuleViolation("IC 13.61", "only units that took part in the attack may advance")
        if any(self.state.unit(u).counter.type == "militia" for u in a.units):
            raise RuleViolation("IC 17.321", "militia never advance after combat")
        if not set(a.units) <= set(self._movers(cb)):
            raise RuleViolation("IC 13.61", "only attacking units still on the map may advance")
        res.extend(advance(self.state, list(a.units), list(a.path), cb["advance"], cb["hex"], cb["table"]))
        advance_into(self.state, self.state.map.hex(cb["hex"]), Side(cb["side"]), cb["code"], res)
        self._finish(cb, res)

    def _proceed(self, res: Resolution) -> None:
        """Carry the combat in progress on until it needs a player's decision, or is over."""
        cb, st = self.combat, self.state
        if cb["stage"] == "pick":
            for who, _ in PICKS.get(cb["code"], ()):
                if who in cb["picks"]:
                    continue
                options = pick_candidates(st, cb["attackers"], cb["hex"], who)
                if len(options) > 1:
                    cb["pick"] = who
                    return
                cb["picks"][who] = options[0] if options else None
            out = apply_losses(st, cb["code"], cb["attackers"], cb["hex"], cb["table"], cb["picks"],
                               militia_alone=cb["militia_alone"])
            res.extend(out)
            cb["retreats"], cb["advance"], cb["pick"] = list(out.result["retreats"]), out.result["advance"], None
            cb["stage"] = "retreat"
        if cb["stage"] == "retreat":
            while cb["retreats"]:
                uid = cb["retreats"][0]
                if retreat_options(st, uid):
                    return
                cannot_retreat(st, uid, res)
                cb["retreats"].pop(0)
            cb["stage"] = "advance"
        if cb["kind"] == "attack" and cb["advance"] and self._movers(cb):
            return
        self._finish(cb, res)

    def _finish(self, cb: dict, res: Resolution) -> None:
        self.combat = None
        revert_abandoned_cities(self.state, res)              # a city whose militia went is FEF again (17.33)
        if cb["kind"] == "overrun":
            end_overrun(self.state, cb["force"], cb["code"], cb["advance"], res)
        elif cb["kind"] == "ambush":
            fi = cb["moving"]["force"]
            stopped = end_ambush(self.state, None if fi is None else self.forces[fi], cb["code"], cb["advance"], res)
            if not stopped:
                self._go_on(cb["moving"], res)

    # ------------------------------------------------------------------ invariants
    def invariants(self) -> list[str]:
        st, out = self.state, []
        where: dict = {}
        for u in st.units.values():
            if u.eliminated and u.hex is not None and u.on_map:
                out.append(f"{u.id} is eliminated but still on the map")
            if u.on_map:
                if u.hex not in st.map.hexes:
                    out.append(f"{u.id} is in a hex that is not on the map")
                where.setdefault(u.hex, set()).add(u.side)
            if u.strength < 0 or u.movement < 0:
                out.append(f"{u.id} has a negative strength or movement")
        for h, sides in where.items():
            if len(sides) > 1:
                out.append(f"both sides have units in {st.label(h)} (IC 10.3)")
        for side in Side:
            if self.points.of(side) > CAP:
                out.append(f"the {side.value} index is {self.points.of(side)}, above {CAP} (IC 5.21)")
        if self.history and isinstance(self.history[-1].action, EndPhase):
            ended = SEQUENCE[self.phase_index - 1] if self.phase_index else SEQUENCE[-1]
            if ended.kind in ("movement", "combat"):
                for h, sides in where.items():
                    for side in sides:
                        if stack_total(st, h, side) > stacking_limit(st, h) and \
                                not all(u.disrupted for u in st.units_at(h, side)):
                            out.append(f"{st.label(h)} is overstacked after the {ended.id} Phase but not all "
                                       f"its units are disrupted (IC 10.21)")
        for uid in self.moved | self.attacked:
            if uid not in st.units:
                out.append(f"{uid} is marked moved or attacked but is not a unit")
        cb = self.combat
        if cb is not None:
            if cb["stage"] == "retreat" and not cb["retreats"]:
                out.append("a combat waits for a retreat with nobody left to retreat")
            if any(uid not in st.units for uid in cb["attackers"]):
                out.append("a combat names an unknown attacker")
        if self.combat is None and self.ambush is None and self.phase.kind not in ("movement",) and self.moved:
            out.append("units are marked moved outside the Movement Phase")
        out += self._air_invariants()  # air:
        return out
