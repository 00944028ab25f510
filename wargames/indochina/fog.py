"""Rule 21: fog of war. What each player may see of the other's stacks."""
from __future__ import annotations

from typing import Iterable

from ..core import implements
from .borders import INDOCHINA, country
from .combat import Side
from .state import IndochinaState
from .zoc import zoc_hexes


@implements("IC 21.0", "IC 21.1", "IC 21.2", "IC 21.3")
def player_view(st: IndochinaState, viewer: Side, revealed: Iterable[str] = (), adjacent_to: Iterable[str] = ()) -> dict:
    """The position as ``viewer`` may see it: its own units in full; enemy stacks in full only where the
    rules open them, otherwise just their size.

    Enemy stacks are open in the hexes of a combat being resolved and those an event reveals (``revealed``,
    21.1(1), 21.2), and the Communist player sees every FEF unit inside Vietnam, Laos and Cambodia
    (21.1(2)). Next to a unit that has just moved (``adjacent_to``), a closed stack still tells whether it
    has a ZOC (21.3).
    """
    open_hexes = set(revealed)
    near = {st.map.hex(h) for h in adjacent_to}
    out: dict[str, list[dict]] = {}
    for u in st.on_map():
        lab = st.label(u.hex)
        if u.side is viewer:
            out.setdefault(lab, []).append({"id": u.id, "strength": u.strength, "disrupted": u.disrupted})
            continue
        seen = lab in open_hexes or (viewer is Side.COMMUNIST and country(st, u.hex) in INDOCHINA)
        if seen:
            out.setdefault(lab, []).append({"id": u.id, "strength": u.strength, "disrupted": u.disrupted,
                                            "enemy": True})
        else:
            entry = {"enemy": True, "hidden": True}
            if any(u.hex.is_adjacent(n) for n in near):
                entry["has_zoc"] = bool(zoc_hexes(st, u))
            out.setdefault(lab, []).append(entry)
    return out
