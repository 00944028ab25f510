"""Where a unit may stand and how it is put there (F 6.2 stacking and enemy hexes, the map edge).

Movement, retreats, assaults, helicopters being downed and reinforcements all place units through these
functions, so they live apart from the Move action.
"""
from __future__ import annotations

from typing import Sequence

from ..core import Hex, implements
from .sites import leave_hex
from .state import FteState
from .units import Unit


@implements("F 6.2")
def entry_problem(state: FteState, movers: Sequence[Unit], h: Hex) -> tuple[str, str]:
    """Why the movers may not enter (or stand in) hex h, as (rule, reason); ("", "") if they may.

    Never a hex holding an enemy unit, even a concealed one, unless every enemy there is a Medic (F 6.2,
    F 17.1) or Civilians (a US unit may enter their hex, F 28.0); casualty markers never block. At most two
    vehicles or one (not destroyed) helicopter; Civilians never with NVA/VC infantry (F 6.2).
    """
    if h not in state.map:
        return "F 1.2", "that hex has no dot: it is out of play"
    ids = {u.id for u in movers}
    me = movers[0].player
    here = [u for u in state.units_at(h) if u.id not in ids]
    enemies = [u for u in here if u.player != me]
    blocking = [u for u in enemies if u.role not in ("medic", "civilians")]
    if blocking:
        hidden = " (concealed)" if any(u.concealed for u in blocking) else ""
        return "F 6.2", (f"{state.label(h)} holds the enemy unit {blocking[0].id}{hidden}; only a hex whose "
                         "enemies are all Medics (or Civilians) may be entered")
    vehicles = sum(u.kind == "vehicle" for u in here) + sum(u.kind == "vehicle" for u in movers)
    if vehicles > 2:
        return "F 6.2", f"{state.label(h)} would hold {vehicles} vehicles; the limit is 2"
    helis = sum(u.kind == "helicopter" and not u.destroyed for u in here) + sum(u.kind == "helicopter" for u in movers)
    if helis > 1:
        return "F 6.2", f"{state.label(h)} would hold {helis} helicopters; the limit is 1 (destroyed ones do not count)"
    nva_inf = lambda u: u.player == "NVA/VC" and u.kind == "infantry" and u.role != "civilians"  # noqa: E731
    if any(u.role == "civilians" for u in movers) and any(nva_inf(u) for u in here):
        return "F 6.2", f"Civilians may never stack with NVA/VC infantry ({state.label(h)})"
    if any(nva_inf(u) for u in movers) and any(u.role == "civilians" for u in here):
        return "F 6.2", f"NVA/VC infantry may never stack with Civilians ({state.label(h)})"
    return "", ""


def map_edge(state: FteState, h: Hex) -> bool:
    """A hex from which a unit can step off the map: one of its neighbours has no dot."""
    return any(n not in state.map for n in h.neighbors())


def place_unit(state: FteState, u: Unit, h: Hex) -> None:
    """Put a unit in hex h with what it carries and what is loaded in it (leaving any bunker or foxholes)."""
    leave_hex(state, u)
    u.hex = h
    for cid in u.carrying:
        if cid in state.casualties:
            state.casualties[cid].hex = h
    for v in state.units.values():
        if v.loaded_in == u.id:
            v.hex = h
            for cid in v.carrying:
                if cid in state.casualties:
                    state.casualties[cid].hex = h
    for m in state.casualties.values():
        if m.carried_by == u.id:
            m.hex = h


__all__ = ["entry_problem", "map_edge", "place_unit"]
