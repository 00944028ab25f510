"""Rule 9: movement points by class and terrain, roads and trails, infiltration, forced march."""
from __future__ import annotations

from fractions import Fraction
from typing import Sequence

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .charts import shipped_charts
from .state import IndochinaState
from .borders import border_problem
from .zoc import enemy_zoc

INFILTRATION = 2       # 11.42


@implements("IC 9.2", "IC 9.21", "IC 9.22", "IC 9.7", "IC 9.71", "IC 9.72", "IC 9.73", "IC 9.74", "IC 26.3")
def step_cost(st: IndochinaState, uid: str, a: Hex, b: Hex) -> tuple[Fraction, str]:
    """Movement points to step from ``a`` into ``b``, and how they were reckoned."""
    tec = st.tec()
    u = st.unit(uid)
    heavy = u.counter.unit_class == "Heavy"
    terr = st.terrain(b)
    row = tec.get(terr)
    cost = None if row is None else (row.heavy if heavy else row.light)
    road = st.has(a, "road") and st.has(b, "road")
    trail = st.has(a, "trail") and st.has(b, "trail")
    if cost is None and not road:
        raise RuleViolation("IC 9.5", f"{u.id} may not enter {terr.replace('_', ' ')} ({st.label(b)})")
    routes = getattr(tec, "routes", None) or shipped_charts()[2].routes
    if road:
        cost, how = routes["road"][0 if heavy else 1], "along the road (9.71)"
    elif trail:
        cost, how = routes["trail"][0 if heavy else 1], "along the trail"
    else:
        how = f"{terr.replace('_', ' ')}, {'Heavy' if heavy else 'Light'} unit (9.21)"
    if st.monsoon and not road:
        cost += 1
        how += "; monsoon +1 (26.3)"
    return cost, how


@implements("IC 9.0", "IC 9.1", "IC 9.3", "IC 9.4", "IC 9.5", "IC 9.6", "IC 11.4", "IC 11.41", "IC 11.42", "IC 17.2", "IC 17.3")
def move(st: IndochinaState, uid: str, path: Sequence[str], forced_march: bool = False,
         already_spent: Fraction = Fraction(0)) -> Resolution:
    """Move one unit along ``path`` (hex labels), paying each hex's cost; raises if the move is illegal.

    Militia never move (17.3), not even the one hex of 9.3. A unit may always move one hex (9.3) unless that hex is prohibited, holds an enemy unit, or the step
    goes straight from one enemy ZOC to another. Forced march doubles the movement factor (9.4; its
    supply point is paid by the logistics rules). ``already_spent``: points this unit used earlier in the
    same move (a move that went on after an ambush, 28.52).
    """
    u = st.unit(uid)
    if not u.on_map:
        raise RuleViolation("IC 9.1", f"{uid} is not on the map")
    if not path:
        raise RuleViolation("IC 9.1", "a move needs at least one hex")
    if u.counter.type == "militia":
        raise RuleViolation("IC 17.3", f"{uid} is militia: militia never move (the one-hex minimum of 9.3 is "
                                       f"for units with a movement factor)")
    res = Resolution()
    allowance = Fraction(u.movement * (2 if forced_march else 1))
    if forced_march:
        res.add("IC 9.4", f"forced march doubles {u.movement} to {allowance}")
    zoc = enemy_zoc(st, u.side)
    spent = Fraction(already_spent)
    cur = u.hex
    hexes = [st.map.hex(p) for p in path]
    for i, nxt in enumerate(hexes):
        if not cur.is_adjacent(nxt):
            raise RuleViolation("IC 9.1", f"{st.label(nxt)} is not adjacent to {st.label(cur)}")
        if st.units_at(nxt, u.side.enemy):
            raise RuleViolation("IC 9.5", f"{st.label(nxt)} holds enemy units")
        if u.side.value == "Communist" and st.fef_militia(nxt) > 0:
            raise RuleViolation("IC 17.2", f"{st.label(nxt)} holds FEF militia ({st.fef_militia(nxt)}), which counts "
                                           f"as a unit there: a Communist unit enters it only by advancing after combat")
        crossing = border_problem(st, u, cur, nxt)
        if crossing:
            raise RuleViolation("IC 22.1", f"{uid} may not enter {st.label(nxt)}: {crossing}")
        cost, how = step_cost(st, uid, cur, nxt)
        if cur in zoc and nxt in zoc:
            cost += INFILTRATION
            how += f"; from one enemy ZOC into another +{INFILTRATION} (11.42)"
        if spent + cost > allowance:
            first_hex = i == 0 and not already_spent and not (cur in zoc and nxt in zoc)
            if not first_hex:
                raise RuleViolation("IC 9.0", f"{uid} has {allowance - spent} MP left and {st.label(nxt)} costs {cost}")
            res.add("IC 9.3", f"{st.label(nxt)} costs {cost}, more than {allowance}, but a unit may always move one hex")
        spent += cost
        res.add("IC 9.21", f"{uid} enters {st.label(nxt)}: {cost} MP ({how}), {spent} of {allowance} used",
                result=cost, hex=st.label(nxt))
        cur = nxt
    u.hex = cur
    res.result = {"unit": uid, "hex": st.label(cur), "spent": spent, "allowance": allowance}
    return res
