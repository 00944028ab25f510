"""The printed worked examples of Rules 1-10, set up and replayed through the engine.

The C 8 Movement Example states paths, vulnerability points and which
battalions were pinned, but not the dice, the battery positions or which
battery fired at which battalion. :data:`PRINTED_ASSIGNMENT` and
:data:`PRINTED_DICE` are one reading that reproduces every stated fact; the
widgets let a reader change both.
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

from ..core import Dice, Resolution
from ..core.charts import read_yaml, require
from ..core.errors import RuleViolation
from .movement import MovementPhase
from .state import CitadelState
from .terrain import MAPS, load_citadel_map
from .units import Side, load_counters

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


def anne_marie_setup(path: str | Path | None = None) -> CitadelState:
    """The position at the start of the example's Vietminh movement phase."""
    file = str(path or SCENARIOS / "anne_marie.yaml")
    data = read_yaml(file)
    m = load_citadel_map(MAPS / require(data, "map", str, file))
    counters = {c.id: c for c in load_counters(require(data, "counters", list, file), file)}
    placements = require(data, "placements", dict, file)
    unknown = set(placements) - set(counters)
    if unknown:
        from ..core.errors import DataError
        raise DataError(file, f"placements.{sorted(unknown)[0]}", "names no counter")
    date = data.get("date", dt.date(1954, 3, 17))
    return CitadelState.build(m, [(counters[i], placements.get(i)) for i in counters], date=date,
                              phase="VM movement")


@dataclass
class ExampleRun:
    phase: MovementPhase
    shots: list[dict] = field(default_factory=list)       # firer, target, hex, column, roll, code, pinned
    barred: list[tuple[str, str, str]] = field(default_factory=list)   # unit, hex refused, reason
    log: Resolution = field(default_factory=Resolution)


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


def replay_movement_example(dice: Dice, assignment: dict[str, str] | None = None,
                            later_firers: Sequence[str] | None = None,
                            state: CitadelState | None = None) -> ExampleRun:
    """Run the C 8 Movement Example through the engine.

    ``assignment`` maps battalion -> battery for the first round of opportunity
    fire (a battalion left out is not fired at). In later rounds the batteries
    that have not fired shoot at the new VPs in the order ``later_firers``
    (default: the remaining batteries in :data:`BATTERIES` order).
    """
    st = state or anne_marie_setup()
    phase = MovementPhase(st, Side.VIETMINH)
    run = ExampleRun(phase)
    assignment = PRINTED_ASSIGNMENT if assignment is None else assignment
    for uid, leg in FIRST_LEGS.items():
        run.log.extend(phase.move(uid, leg))
    rnd = 1
    while True:
        targets = phase.end_moves()
        order = [vp.unit for vp in targets]
        if rnd == 1:
            plan = [(assignment[t], t) for t in order if t in assignment]
        else:
            free = [b for b in (later_firers or BATTERIES) if b not in phase.fired]
            plan = []
            for t in order:
                ok = [b for b in free if b in phase.eligible_firers(t)]
                if ok:
                    plan.append((ok[0], t))
                    free.remove(ok[0])
        for firer, target in plan:
            res = phase.opportunity_fire(firer, target, dice)
            run.log.extend(res)
            r = res.result
            run.shots.append({"round": rnd, "firer": firer, "target": target,
                              "hex": st.label(phase.records[target].vps[-1].hex),
                              "column": r["column"], "roll": r["roll"], "code": r["code"],
                              "pinned": target in r["pinned"]})
        run.log.extend(phase.end_fire())
        movers = phase.paused_or_resumable()
        if not movers:
            break
        for uid in movers:
            _onward(phase, uid, run)
        rnd += 1
    return run
