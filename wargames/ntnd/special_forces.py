"""NT 15.2.3: the Allied player withdraws a Green Beret for a while.

A Green Beret never moves once placed, but in a reinforcement phase the Allied player may take it off the map and
put it back in a later reinforcement phase (15.2.3). Taking it away is as bad for the local forces as losing it:
the militia and Montagnards in its zone of influence that are not in a town or city leave play with it, back to
the counter mix, without political points (15.2.3.2; and 16.5 for the Montagnards).

Readings: the withdrawn Green Beret waits on the Turn Record for the next turn (``state.purchased``), so it
comes back through the ordinary arrival procedure (:func:`.reinforcement.enter`, with the placement limits of
15.1) in any later reinforcement phase. A militia or Montagnard unit that is also inside another Green Beret's
zone of influence stays (the same reading as for an eliminated Green Beret).
"""
from __future__ import annotations

from ..core import Resolution, implements
from ..core.errors import RuleViolation
from .state import NtndState
from .engagement import green_beret_dependants
from .zones import zoi_hexes

RULE = "NT 15.2.3"
PHASE = "reinforcement"


@implements("NT 15.2.3", "NT 15.2.3.2", "NT 16.5")
def withdraw_green_beret(state: NtndState, unit: str, *, res: Resolution | None = None) -> NtndState:
    """Take ``unit``, a Green Beret on the map, off it in the reinforcement phase; it may return from the next
    turn. The militia and Montagnards it alone supported, outside towns and cities, leave play. Returns the new
    position; RuleViolation when the unit or the phase is wrong."""
    if state.phase != PHASE:
        raise RuleViolation(RULE, f"Green Berets are withdrawn in the reinforcement phase, not in "
                                  f"{state.phase.replace('_', ' ')}")
    if unit not in state.pieces or state.counter(unit).type != "green_beret":
        raise RuleViolation(RULE, f"{unit} is not a Green Beret on the map")
    if state.in_zone(unit):
        raise RuleViolation("NT 15.1", f"{unit} stands in an off-board zone, where no Green Beret is placed")
    zone = zoi_hexes(state, unit)
    new = state.copy()
    new.remove(unit, eliminated=False)
    new.purchased[unit] = state.turn + 1
    gone = green_beret_dependants(new, zone)
    for u in gone:
        new.remove(u, eliminated=False)
    if res is not None:
        res.add(RULE, f"{unit} is withdrawn; it may return from turn {state.turn + 1}", result=unit)
        if gone:
            res.add("NT 15.2.3.2", f"without it, {', '.join(gone)} leave play (no political points)", result=gone)
    return new


__all__ = ["PHASE", "RULE", "withdraw_green_beret"]
