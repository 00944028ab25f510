"""The printed worked examples of Rules 1-10, set up and replayed through the engine.

The C 8 Movement Example states paths, vulnerability points and which
battalions were pinned, but not the dice, the battery positions or which
battery fired at which battalion. :data:`PRINTED_ASSIGNMENT` and
:data:`PRINTED_DICE` are one reading that reproduces every stated fact; the
widgets let a reader change both.
"""
from __future__ import annotations

import copy
import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..core import Dice, Resolution
from ..core.errors import DataError, RuleViolation
from ..core.mapdata import MapData
from ..core.schema import AnyValue, Convert, Either, Invalid, Map, Nullable, Opt, Record, Str, load_file, place
from ..core.copies import record_deepcopy
from ..core.yamlio import load_once, read_yaml
from .movement import MovementPhase
from .replacements import REINFORCEMENTS_SECTION, REPLACEMENTS_SECTION, reserves_from_sections
from .supply import SUPPLY_SECTION, supply_from_section
from .stacking import stacking_problem
from .state import CitadelState, START_DATE, battle_date
from .terrain import MAPS, load_citadel_map
from .units import COUNTERS, Side, UnitState

SCENARIOS = Path(__file__).parent / "data" / "scenarios"

# The four battalions in the order the example moves them, and their first-step paths (C 8 example).
FIRST_LEGS = {
    "1st Bn": ["1010", "1111", "1112"],
    "2nd Bn": ["1011", "1112", "1113"],
    "3rd Bn": ["0814", "0915", "1015"],
    "4th Bn": ["0519", "0618", "0718"],
}
# Where each battalion heads afterwards: candidate routes, tried in order; the first whose next hex is
# enterable is taken. The printed continuations are 1212-1313-1413 (1113 being barred) and 0817-0917-1017.
ONWARD_ROUTES = {
    "1st Bn": [["1113", "1213", "1313", "1413"], ["1212", "1313", "1413"]],
    "2nd Bn": [["1213", "1314"]],
    "3rd Bn": [["1115", "1215"]],
    "4th Bn": [["0817", "0917", "1017", "1117", "1216"]],
}
BATTERIES = ["105-A", "105-B", "105-C", "120-A", "120-B"]
# One reading of "each firing battery fires at one Vietminh battalion": the three 105s and one 120.
PRINTED_ASSIGNMENT = {"1st Bn": "105-A", "2nd Bn": "105-B", "3rd Bn": "105-C", "4th Bn": "120-A"}
# Dice that give the printed outcome: 1st and 4th not pinned, 2nd and 3rd pinned; then 120-B pins the 4th.
PRINTED_DICE = [6, 2, 3, 4, 1]


#: The last day a scenario may start on: the fall of the camp (May 7, 1954).


def _known_counters(v: dict) -> None:
    ids = {c.id for c in v["counters"]}
    for uid in v["placements"]:
        if uid not in ids:
            raise Invalid(f"placements.{uid}", "names no counter of this scenario")


#: A Citadel scenario file: its map, its counters, where each starts and the date.
SCENARIO = Record(
    {"name": Str(min_len=1, max_len=200), "map": Str(pattern=r"[\w.-]{1,80}\.ya?ml", what="a map file name"),
     "counters": COUNTERS,
     "placements": Map(Str(min_len=1, max_len=40), Nullable(Str(key=True, max_len=12, what="a hex label")),
                       max_len=2000)},
    {"date": Opt(Either(Convert(Str(max_len=40), battle_date), Convert(AnyValue(), battle_date, "a date such as 1954-03-17")),
                 dt.date(1954, 3, 17)),
     "notes": Opt(Str(), ""),
     # C 20-23, C 15, C 16: stocks, French replacement caps and the reinforcement schedule (all optional)
     "supply": Opt(SUPPLY_SECTION, None), "replacements": Opt(REPLACEMENTS_SECTION, None),
     "reinforcements": Opt(REINFORCEMENTS_SECTION, None)},
    check=_known_counters, what="a scenario {name, map, counters, placements, date}")


def _placed_on(m: MapData, v: dict) -> None:
    """Every placement is a hex of the scenario's map, and the stacks it makes are legal (C 6)."""
    counters = {c.id: c for c in v["counters"]}
    stacks: dict = {}
    for uid, label in v["placements"].items():
        if label is None:
            continue
        try:
            h = m.hex(label)
        except DataError as e:
            raise Invalid(f"placements.{uid}", f"{label!r}: {e.reason} (the map file is {Path(m.source).name})") \
                from None
        stack = stacks.setdefault((h, counters[uid].side), [])
        stack.append(UnitState(counters[uid], h))
        problem = stacking_problem(stack)
        if problem:
            raise Invalid(f"placements.{uid}", f"breaks stacking in {label} (C 6): {problem}")


def load_scenario(path: str | Path) -> CitadelState:
    """A scenario's position, read afresh. A problem of the scenario names its field in the scenario file (an
    off-map placement is ``placements.<unit>``); a problem of its map file names the map file."""
    raw = read_yaml(path)
    v = load_file(path, SCENARIO, raw)
    map_path = MAPS / v["map"]
    if not map_path.is_file():
        raise place(DataError(str(path), "map", f"names no map file (looked for {map_path})"), raw)
    m = load_citadel_map(map_path)
    try:
        _placed_on(m, v)
    except Invalid as e:
        raise place(DataError(str(path), e.path, e.reason), raw) from None
    placements = v["placements"]
    for day, units in (v["reinforcements"] or {}).items():
        for uid in units:
            if uid not in {c.id for c in v["counters"]} or placements.get(uid) is not None:
                raise place(DataError(str(path), f"reinforcements.{day}", f"{uid!r} must be a counter of the "
                                                                         f"scenario with no placement"), raw)
    state = CitadelState.build(m, [(c, placements.get(c.id)) for c in v["counters"]], date=v["date"],
                               phase="VM movement")
    state.supply = supply_from_section(v["supply"])
    state.reserves = reserves_from_sections(v["replacements"], v["reinforcements"])
    return state


def anne_marie_setup(path: str | Path | None = None) -> CitadelState:
    """The position at the start of the example's Vietminh movement phase: a new copy each call, read again when
    the file changes (:func:`load_scenario` reads it on every call)."""
    return load_once(load_scenario, SCENARIOS / "anne_marie.yaml" if path is None else path)


@dataclass
class ExampleRun:
    phase: MovementPhase
    shots: list[dict] = field(default_factory=list)       # firer, target, hex, column, roll, code, pinned
    barred: list[tuple[str, str, str]] = field(default_factory=list)   # unit, hex refused, reason
    log: Resolution = field(default_factory=Resolution)

    __deepcopy__ = record_deepcopy


def _onward(phase: MovementPhase, uid: str, run: ExampleRun) -> None:
    """Move a resumable battalion along its first usable onward route, up to where the rules stop it."""
    st = phase.state
    u = st.unit(uid)
    for route in ONWARD_ROUTES[uid]:
        here = st.label(u.hex)
        rest = route[route.index(here) + 1:] if here in route else route
        if not rest:
            phase.stop(uid)
            return
        try:
            stop, _ = phase.preview(uid, rest)
            run.log.extend(phase.move(uid, rest[:stop + 1]))
            return
        except RuleViolation as e:
            run.barred.append((uid, rest[0], e.reason))
            run.log.add(e.rule, f"{uid} may not take the route through {rest[0]}: {e.reason}")
    phase.stop(uid)


class MovementExample:
    """The C 8 Movement Example as a step-by-step driver: one opportunity-fire shot per :meth:`shoot`.

    Moves happen as in the example; ``assignment`` maps battalion -> battery for
    the first round of opportunity fire (a battalion left out is not fired at).
    In later rounds the batteries that have not fired shoot at new VPs in the
    order ``later_firers`` (default: :data:`BATTERIES` order). Battalions that
    are not pinned carry on along :data:`ONWARD_ROUTES`. The driver can be
    copied at any shot, which is how the widgets enumerate every branch.
    """

    def __init__(self, assignment: dict[str, str] | None = None, later_firers: Sequence[str] | None = None,
                 state: CitadelState | None = None):
        st = state or anne_marie_setup()
        st.tables()                        # read the charts now, so that every copy of the example shares them
        self.phase = MovementPhase(st, Side.VIETMINH)
        self.run = ExampleRun(self.phase)
        self.assignment = dict(PRINTED_ASSIGNMENT if assignment is None else assignment)
        self.later_firers = list(later_firers or BATTERIES)
        unknown = (set(self.assignment.values()) | set(self.later_firers)) - set(BATTERIES)
        if unknown:
            raise RuleViolation("C 8", f"no such battery in the example: {sorted(unknown)}")
        self.round = 1
        self.plan: list[tuple[str, str]] = []
        for uid, leg in FIRST_LEGS.items():
            self.run.log.extend(self.phase.move(uid, leg))
        self._open_fire()

    @property
    def state(self) -> CitadelState:
        return self.phase.state

    @property
    def pending(self) -> tuple[str, str] | None:
        """The next (battery, battalion) shot, or None when the phase is over."""
        return self.plan[0] if self.plan else None

    def _open_fire(self) -> None:
        while True:
            order = [vp.unit for vp in self.phase.end_moves()]
            if self.round == 1:
                self.plan = [(self.assignment[t], t) for t in order if t in self.assignment]
            else:
                free = [b for b in self.later_firers if b not in self.phase.fired]
                self.plan = []
                for t in order:
                    ok = [b for b in free if b in self.phase.eligible_firers(t)]
                    if ok:
                        self.plan.append((ok[0], t))
                        free.remove(ok[0])
            if self.plan:
                return
            if not self._next_round():
                return

    def _next_round(self) -> bool:
        self.run.log.extend(self.phase.end_fire())
        movers = self.phase.paused_or_resumable()
        if not movers:
            return False
        for uid in movers:
            _onward(self.phase, uid, self.run)
        self.round += 1
        return True

    def shoot(self, dice: Dice) -> Resolution:
        """Resolve the pending shot with ``dice`` and move the example on to the next shot."""
        if not self.plan:
            raise RuleViolation("C 8", "the movement phase is over; no shot is pending")
        firer, target = self.plan.pop(0)
        st = self.state
        res = self.phase.opportunity_fire(firer, target, dice)
        self.run.log.extend(res)
        r = res.result
        self.run.shots.append({"round": self.round, "firer": firer, "target": target,
                               "hex": st.label(self.phase.records[target].vps[-1].hex),
                               "column": r["column"], "roll": r["roll"], "code": r["code"],
                               "pinned": target in r["pinned"]})
        if not self.plan and self._next_round():
            self._open_fire()
        return res

    def shot_code(self, dice: Dice) -> str:
        """The result code the pending shot would give with ``dice``, on a copy of the phase: the example itself
        does not move on (what :meth:`shoot` does after the shot does not change the shot's result)."""
        if not self.plan:
            raise RuleViolation("C 8", "the movement phase is over; no shot is pending")
        st = self.state
        shared = {id(v): v for v in (st.map, st.charts) if v is not None}
        phase = copy.deepcopy(self.phase, shared)
        return phase.opportunity_fire(*self.plan[0], dice).result["code"]

    def copy(self) -> "MovementExample":
        new = copy.copy(self)
        st = self.state                                   # the map and charts never change: shared, not copied
        shared = {id(v): v for v in (st.map, st.charts) if v is not None}
        new.phase, new.run, new.plan = copy.deepcopy((self.phase, self.run, self.plan), shared)
        new.run.phase = new.phase
        return new

    def key(self) -> tuple:
        """A canonical description of where the example stands (for memoised enumeration)."""
        units = tuple((u.id, u.hex, u.losses, u.inverted, u.pinned, u.eliminated) for u in self.state.units.values())
        recs = tuple((r.unit, r.status, tuple(r.entered), tuple((v.hex, v.fired_by) for v in r.vps))
                     for r in self.phase.records.values())
        return units, recs, tuple(self.plan), self.round


def replay_movement_example(dice: Dice, assignment: dict[str, str] | None = None,
                            later_firers: Sequence[str] | None = None,
                            state: CitadelState | None = None) -> ExampleRun:
    """Run the whole C 8 Movement Example with ``dice`` (random, scripted, ...); see :class:`MovementExample`."""
    ex = MovementExample(assignment, later_firers, state)
    while ex.pending:
        ex.shoot(dice)
    return ex.run
