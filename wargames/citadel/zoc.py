"""Rule 5: zones of control."""
from __future__ import annotations

from ..core import Hex, implements
from .state import CitadelState
from .units import Side


@implements("C 5")
def zone_of_control(state: CitadelState, side: Side) -> set[Hex]:
    """Every hex next to a ground unit of ``side``. Enemy units and ZOCs do not cancel it (C 5)."""
    out: set[Hex] = set()
    for u in state.on_board(side):
        out.update(n for n in u.hex.neighbors())
    return out


def in_enemy_zoc(state: CitadelState, side: Side, h: Hex) -> bool:
    return h in zone_of_control(state, side.enemy)


def zoc_sources(state: CitadelState, side: Side, h: Hex) -> list[str]:
    """Which units of ``side`` project a ZOC into ``h`` (for explanations)."""
    return [u.id for u in state.on_board(side) if u.hex.is_adjacent(h)]
