"""Executing fire missions (F 16.0): accuracy, scatter, the area hit, and an HE attack on every unit there.

In the Execute Fire Missions phase each mission due this turn is resolved in the order it was requested. Until
its accuracy roll the side that asked for it may call it off. A d10 of 1-6 lands on the target hex, 7-10
scatters; with the Aerial Observer up a US mission rolls 2 less, but a 10 still scatters. A scattering mission
drifts in the direction of a d6 read against the map's direction indicator, by ceil(d10/5) hexes for the
battalion mortars or ceil(d10/3) for artillery. The mortars then hit the impact hex and its six neighbours (7
hexes), artillery that and the next ring too (19 hexes). Every unit in those hexes, friend or foe, takes an HE
attack (:func:`wargames.fte.fire.he_attack`: the target's DRMs, but neither jungle nor concealment), except
helicopters at High level, which mortars and artillery cannot reach (F 7.0), and loaded units (F 6.9). A Broken
result from a fire mission does not retreat (F 7.4).

The fire ratings of the missions and the direction indicator are absent from the text; they are data in
``data/charts/fire_missions.yaml``, marked reconstructed, and :data:`CONSTRAINTS` lists what the rules demand
of them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from ..core import Hex, Resolution, implements, spiral
from ..core.charts import Constraint, failed_constraints
from ..core.errors import RuleViolation
from ..core.hexgrid import DIRECTIONS
from ..core.dice import roll_die
from .charts import MISSIONS, FireMissionChart, default_fire_mission_chart, load_fire_mission_chart
from .fire import FireOutcome, he_attack
from .state import FireMission, FteState


def _m(c: FireMissionChart, name: str, key: str) -> Any:
    return c.mission(name, key)


#: What the rules and the examples demand of the fire-mission chart (one test each).
CONSTRAINTS: list[Constraint] = [
    Constraint("FM-accuracy", "F 16.0", "1-6 on target, 7-10 scatter; Aerial Observer -2; a 10 always scatters",
               lambda c: (c.accuracy["on_target_max"].value, c.accuracy["observer_drm"].value,
                          c.accuracy["always_scatters"].value) == (6, -2, 10)),
    Constraint("FM-area", "F 16.0", "BN mortars hit 7 hexes (radius 1), artillery 19 (radius 2)",
               lambda c: [len(spiral(Hex(0, 0), _m(c, n, "radius"))) for n in MISSIONS] == [7, 19]),
    Constraint("FM-scatter", "F 16.0", "scatter ceil(d10/5) for BN mortars, ceil(d10/3) for artillery",
               lambda c: (_m(c, "BN Mortar", "scatter_divisor"), _m(c, "ARTY", "scatter_divisor")) == (5, 3)),
    Constraint("FM-he", "F 16.0, F 7.1", "fire missions are HE: jungle and concealment modifiers do not apply",
               lambda c: all(_m(c, n, "weapon") == "HE" for n in MISSIONS)),
    Constraint("FM-rating-range", "F 7.1", "ratings 2-9: a natural 1 always hits and a 10 always misses anyway",
               lambda c: all(2 <= _m(c, n, "fire_rating") <= 9 for n in MISSIONS)),
    Constraint("FM-rating-floor", "Fire Example", "battalion mortars are no weaker than the company mortar team (4)",
               lambda c: _m(c, "BN Mortar", "fire_rating") >= 4),
    Constraint("FM-rating-order", "F 16.0", "artillery, with the larger area, hits at least as hard as the mortars",
               lambda c: _m(c, "ARTY", "fire_rating") >= _m(c, "BN Mortar", "fire_rating")),
    Constraint("FM-directions", "F 16.0", "the d6 names each of a hex's six neighbours once",
               lambda c: sorted((c.direction(r).q, c.direction(r).r) for r in range(1, 7)) == sorted(DIRECTIONS)),
]


def check_constraints(chart: FireMissionChart | None = None) -> list[str]:
    """The ids of the constraints a fire-mission chart breaks (empty when it satisfies them all)."""
    return failed_constraints(CONSTRAINTS, chart or default_fire_mission_chart())


# --------------------------------------------------------------------------- accuracy and scatter

def _lab(state: FteState, h: Hex) -> str:
    try:
        return state.label(h) + ("" if h in state.map else " (off the map)")
    except ValueError:
        return f"{h} (off the map)"


def scatter_distance(roll: int, divisor: int) -> int:
    """ceil(roll / divisor): the hexes a scattering mission drifts (F 16.0)."""
    return -(-roll // divisor)


@implements("F 16.0", "F 19.8")
def accuracy(state: FteState, mission: FireMission, dice, res: Resolution,
             chart: FireMissionChart | None = None) -> tuple[bool, int]:
    """The accuracy d10: on target at 6 or less; a US mission rolls 2 less with the Aerial Observer up, but a
    natural 10 always scatters (F 16.0, F 19.8). Returns (on target, roll)."""
    chart = chart or default_fire_mission_chart()
    top = chart.accuracy["on_target_max"].value
    roll = roll_die(dice, 10, f"accuracy of the {mission.mission} mission on {_lab(state, mission.target)}")
    drm = chart.accuracy["observer_drm"].value if (state.aerial_observer and mission.side == "US") else 0
    if drm and roll == chart.accuracy["always_scatters"].value:
        ok, arith = False, f"a natural {roll} always scatters"
    else:
        ok = roll + drm <= top
        arith = f"{roll}{f' {drm:+d} (Aerial Observer)' if drm else ''} = {roll + drm} vs 1-{top}"
    res.add("F 16.0", f"accuracy roll {roll}: {'on target' if ok else 'the mission scatters'}", arithmetic=arith,
            result=ok, roll=roll)
    return ok, roll


@implements("F 16.0")
def scatter(state: FteState, mission: FireMission, dice, res: Resolution,
            chart: FireMissionChart | None = None) -> tuple[Hex, int, int]:
    """A d6 for the direction on the map's indicator, then a d10 for the distance. Returns (impact hex,
    direction roll, hexes)."""
    chart = chart or default_fire_mission_chart()
    d6 = roll_die(dice, 6, "scatter direction")
    step = chart.direction(d6)
    d10 = roll_die(dice, 10, "scatter distance")
    div = chart.mission(mission.mission, "scatter_divisor")
    n = scatter_distance(d10, div)
    impact = Hex(mission.target.q + step.q * n, mission.target.r + step.r * n)
    mark = " [reconstructed indicator]" if chart.directions[d6].provenance.reconstructed else ""
    res.add("F 16.0", f"scatter: direction {d6} ({chart.directions[d6].value}){mark}, distance roll {d10} -> "
                      f"{n} hex{'es' if n != 1 else ''}: lands in {_lab(state, impact)}",
            arithmetic=f"ceil({d10}/{div}) = {n}", result=impact, direction=d6, distance=n)
    return impact, d6, n


@dataclass
class MissionOutcome:
    """What one fire mission did."""

    mission: FireMission
    cancelled: bool = False
    accuracy_roll: int | None = None
    on_target: bool | None = None
    direction: int | None = None
    distance: int = 0
    impact: Hex | None = None
    area: list[Hex] = field(default_factory=list)
    attacks: list[FireOutcome] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)


@implements("F 16.0")
def area(state: FteState, impact: Hex, mission: str, chart: FireMissionChart | None = None) -> list[Hex]:
    """The hexes a mission hits around its impact point that are in play (7 for BN mortars, 19 for artillery,
    fewer at the map's edge)."""
    chart = chart or default_fire_mission_chart()
    return [h for h in spiral(impact, chart.mission(mission, "radius")) if h in state.map]


@implements("F 16.0", "F 7.0", "F 6.9")
def execute_mission(state: FteState, mission: FireMission, dice, res: Resolution,
                    chart: FireMissionChart | None = None) -> MissionOutcome:
    """Resolve one fire mission: accuracy, perhaps scatter, then an HE attack on every unit in the area
    (F 16.0). The mission leaves the pending list."""
    chart = chart or default_fire_mission_chart()
    if mission in state.fire_missions:
        state.fire_missions.remove(mission)
    out = MissionOutcome(mission)
    rating = chart.mission(mission.mission, "fire_rating")
    prov = chart.missions[mission.mission]["fire_rating"].provenance
    res.add("F 16.0", f"the {mission.side} {mission.mission} mission on {_lab(state, mission.target)} executes "
                      f"(fire rating {rating}{' [reconstructed]' if prov.reconstructed else ''})",
            mission=mission.mission, target=_lab(state, mission.target))
    out.on_target, out.accuracy_roll = accuracy(state, mission, dice, res, chart)
    impact = mission.target
    if not out.on_target:
        impact, out.direction, out.distance = scatter(state, mission, dice, res, chart)
    out.impact = impact
    out.area = area(state, impact, mission.mission, chart)
    res.add("F 16.0", f"{len(out.area)} hexes in play are hit around {_lab(state, impact)}",
            result=[state.label(h) for h in out.area])
    targets = [(h, u.id) for h in out.area for u in sorted(state.units_at(h), key=lambda x: x.id)]
    for h, uid in targets:
        u = state.units[uid]
        if not u.on_map or u.hex != h or u.destroyed:
            continue
        if u.kind == "helicopter" and u.altitude == "high":
            out.skipped.append(uid)
            res.add("F 7.0", f"{uid} is a helicopter at High level: mortars and artillery cannot reach it")
            continue
        out.attacks.append(he_attack(state, uid, rating, dice, res, rule="F 16.0", fire_mission=True))
    res.result = out
    return out


@implements("F 16.0")
def cancel_fire_mission(state: FteState, mission: FireMission, res: Resolution, who: str | None = None) -> None:
    """The side that asked for a mission may call it off at any time before its accuracy roll (F 16.0)."""
    if mission not in state.fire_missions:
        raise RuleViolation("F 16.0", "that fire mission is not pending (it has executed or was cancelled)")
    if who is not None and who != mission.side:
        raise RuleViolation("F 16.0", f"only {mission.side}, who asked for it, may cancel this mission")
    state.fire_missions.remove(mission)
    res.add("F 16.0", f"the {mission.side} {mission.mission} mission on {_lab(state, mission.target)} is cancelled")


def due(state: FteState) -> list[FireMission]:
    """Missions that execute this turn (any left over from earlier turns too), in the order requested."""
    return [m for m in state.fire_missions if m.turn <= state.turn]


@implements("F 16.0")
def execute_fire_missions(state: FteState, dice, res: Resolution, *,
                          cancel: Iterable[FireMission] | Callable[[FteState, FireMission], bool] = (),
                          chart: FireMissionChart | None = None) -> list[MissionOutcome]:
    """The Execute Fire Missions phase (F 3.0 step c): each mission due now is resolved in turn; those named in
    ``cancel`` (or for which ``cancel(state, mission)`` is true) are called off before their accuracy roll."""
    outs = []
    for m in due(state):
        drop = cancel(state, m) if callable(cancel) else any(m is c for c in cancel)
        if drop:
            cancel_fire_mission(state, m, res)
            outs.append(MissionOutcome(m, cancelled=True))
            continue
        outs.append(execute_mission(state, m, dice, res, chart))
    res.result = outs
    return outs


__all__ = ["FireMissionChart", "load_fire_mission_chart", "default_fire_mission_chart", "CONSTRAINTS",
           "check_constraints", "scatter_distance", "accuracy", "scatter", "area", "execute_mission",
           "cancel_fire_mission", "execute_fire_missions", "due", "MissionOutcome"]
