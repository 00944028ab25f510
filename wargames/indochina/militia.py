"""Rule 17: militia. FEF militia is a strength printed in each FEF city and town; Communist militia are 1-0
units that mark Communist control."""
from __future__ import annotations

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .combat import Side
from .state import IndochinaState
from .units import Counter, UnitState

@implements("IC 17.0", "IC 17.1", "IC 17.2", "IC 17.21", "IC 17.22", "IC 17.23", "IC 17.231")
def defending_strengths(st: IndochinaState, h: Hex) -> tuple[tuple[int, ...], bool]:
    """The defence of a hex: its units' strengths plus any FEF militia (17.23), and whether the militia
    defends alone (then it may not be enhanced in any way, 17.231)."""
    units = [u for u in st.on_map() if u.hex == h]
    strengths = tuple(u.strength for u in units)
    militia = st.fef_militia(h) if not units or units[0].side is Side.FEF else 0
    if militia:
        strengths += (militia,)
    return strengths, bool(militia) and not units


def communist_militia(uid: str) -> Counter:
    """A 1-0 Communist militia counter: Light, no movement (17.3). Any number may be made (17.36)."""
    return Counter(uid, Side.COMMUNIST, "militia", "battalion", 1, 0, 1, 0, cls="Light")


@implements("IC 17.31", "IC 17.35")
def place_communist_militia(st: IndochinaState, at: str, on_cadre: bool = True) -> UnitState:
    """Put a 1-0 Communist militia in a hex, never two in one hex (17.35). Mobilized militia go on an
    undisrupted Communist cadre (17.31); captured cities get one free (17.33)."""
    h = st.map.hex(at)
    here = st.units_at(h, Side.COMMUNIST)
    if any(u.counter.type == "militia" for u in here):
        raise RuleViolation("IC 17.35", f"{at} already holds a Communist militia")
    if on_cadre and not any(u.counter.type == "cadre" and not u.disrupted for u in here):
        raise RuleViolation("IC 17.31", f"mobilized militia go on an undisrupted Communist cadre; {at} has none")
    n = sum(1 for u in st.units.values() if u.counter.type == "militia")
    c = communist_militia(f"militia {n + 1}")
    u = UnitState(c, h)
    st.units[c.id] = u
    return u


@implements("IC 17.13", "IC 17.232", "IC 17.233", "IC 17.234", "IC 17.33", "IC 17.322")
def advance_into(st: IndochinaState, h: Hex, side: Side, code: str, res: Resolution) -> None:
    """Control of a city or town changes only when an enemy unit advances into it after combat (17.13).

    FEF militia: eliminated then, after a DE or DR, or after SK, BB or DD when it defended alone (17.232,
    17.234); the Communist places a free 1-0 militia (17.33). A Communist militia in a city that the FEF
    clears and enters is removed, and the FEF's own militia returns (17.322, 17.33).
    """
    if not st.is_urban(h):
        return
    lab = st.label(h)
    if side is Side.COMMUNIST and st.controller(h) is Side.FEF:
        st.communist_cities.add(lab)
        res.add("IC 17.232", f"the Viet Minh advance into {lab}: its FEF militia is eliminated and control changes")
        u = place_communist_militia(st, lab, on_cadre=False)
        res.add("IC 17.33", f"a free Communist militia ({u.id}) marks {lab} as Communist")
    elif side is Side.FEF and st.controller(h) is Side.COMMUNIST and st.map.info(h).attr("country") != "China":
        for u in st.units_at(h, Side.COMMUNIST):
            if u.counter.type == "militia":
                u.eliminated = True
        st.communist_cities.discard(lab)
        res.add("IC 17.322", f"the FEF retakes {lab}: the Communist militia goes and the FEF militia returns")


@implements("IC 17.33", "IC 17.322")
def revert_abandoned_cities(st: IndochinaState, res: Resolution) -> list[str]:
    """A city or town is Communist only while its Communist militia is there: once the militia is removed
    for any reason (eliminated, retreated), control goes back to the FEF and its militia is active again
    (17.33). China stays Communist. Returns the labels that reverted."""
    out = []
    for lab in sorted(st.communist_cities):
        h = st.map.hex(lab)
        if st.map.info(h).attr("country") == "China":
            continue
        if not any(u.counter.type == "militia" for u in st.units_at(h, Side.COMMUNIST)):
            st.communist_cities.discard(lab)
            out.append(lab)
            res.add("IC 17.33", f"{lab} has lost its Communist militia: it reverts to the FEF, whose militia "
                                f"({st.fef_militia(h)}) is active again")
    return out


@implements("IC 17.3", "IC 17.32", "IC 17.321")
def militia_outside_cities(st: IndochinaState, u: UnitState, code: str, res: Resolution) -> bool:
    """A Communist militia outside cities retreats on DR and is eliminated by any disruption (17.321).
    Returns True when the militia was removed."""
    if u.counter.type != "militia" or st.is_urban(u.hex):
        return False
    if code in ("DD", "SK", "BB"):
        u.eliminated = True
        res.add("IC 17.321", f"{u.id}: disruption eliminates a militia outside cities")
        return True
    return False
