"""Where the air war meets the fire rules: the hexes French spotters have spotted this player turn (C 26.C, a way
of spotting under C 10), the hexes aircraft attack in this fire phase, where French guns may not fire (C 26.A),
and the revetment hex, whose parked aircraft share the losses of fire at it (C 31). Kept apart from ``air`` so
that the fire rules need not import the whole of the air war."""
from __future__ import annotations

from ..core import Hex, Resolution, implements
from ..core.errors import DataError
from .terrain import hexes_with, revetment_hex as terrain_revetment
from .units import Side

REVETMENT = "1917"                        # reconstructed: the printed map is absent (a map may mark `revetment`)


@implements("C 26", "C 10")
def air_spotted(state, h: Hex, side: Side) -> bool:
    """Whether a French spotter has spotted ``h`` this player turn (C 26.C; the hook of C 10's spotting)."""
    air = getattr(state, "air", None)
    return (side is Side.FRENCH and air is not None and h in air.spotted
            and air.spotted[h] == state.player_turn_start)


@implements("C 26")
def air_attacked(state, h: Hex) -> bool:
    """Whether aircraft attack ``h`` in this fire phase: no French indirect fire may go there (C 26.A)."""
    air = getattr(state, "air", None)
    if air is None:
        return False
    if air.attacked.get(h) == state.fire_phase_start:
        return True
    return any(s.hex == h and s.mission in ("tactical", "flak") and s.aircraft for s in air.sorties)


def revetment_hex(state) -> Hex | None:
    """The revetment hex (C 31): the one the map marks (``terrain.revetment_hex``), else our reconstructed 1917 on a
    map that marks none (the Anne-Marie excerpt), or None if the map has no such hex."""
    m = state.map
    if hexes_with(m, "revetment"):
        return terrain_revetment(m)
    try:
        return m.hex(REVETMENT)
    except DataError:
        return None


@implements("C 31")
def destroyed_on_ground(state, losses: int, res: Resolution) -> list[str]:
    """Enemy fire with losses on the revetment hex destroys that many air counters there (C 31)."""
    st = state.air
    if st is None or losses <= 0:
        return []
    there = st.in_box("revetment")[:losses]
    for a in there:
        st.box[a] = "destroyed_on_ground"
        st.inverted.discard(a)
    if there:
        res.add("C 31", f"{', '.join(there)} destroyed on the ground in the revetment", result=len(there))
    return there
