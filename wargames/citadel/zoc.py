"""Rule 5: zones of control."""
from __future__ import annotations

from ..core import Hex, implements
from .state import CitadelState
from .units import Side


@implements("C 5")
def zone_of_control(state: CitadelState, side: Side) -> frozenset[Hex]:
    """Every hex next to a ground unit of ``side``. Enemy units and ZOCs do not cancel it (C 5).

    The answer is remembered for the hexes the side's units stand in (the last one per side)."""
    where = frozenset(u.hex for u in state.units.values() if u.side is side and u.on_board)
    memo = _MEMO.get(side)
    if memo is not None and memo[0] == where:
        return memo[1]
    out = frozenset(n for h in where for n in h.neighbors())
    _MEMO[side] = (where, out)
    return out


#: side -> (the hexes its units stand in, their zone of control); shared by every state, since the zone depends
#: on nothing else.
_MEMO: dict = {}


def in_enemy_zoc(state: CitadelState, side: Side, h: Hex) -> bool:
    return h in zone_of_control(state, side.enemy)


def zoc_sources(state: CitadelState, side: Side, h: Hex) -> list[str]:
    """Which units of ``side`` project a ZOC into ``h`` (for explanations)."""
    return [u.id for u in state.on_board(side) if u.hex.is_adjacent(h)]
