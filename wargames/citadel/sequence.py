"""Rule 7: the sequence of play, as data the engine steps through."""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..core import implements
from .units import Side


@dataclass(frozen=True)
class Phase:
    id: str
    segment: str
    name: str
    side: Side | None = None      # whose phase it is (None: both or neither)
    kind: str = "admin"           # movement, indirect fire, air, direct fire, melee, return, admin


def _player_turn(side: Side) -> list[Phase]:
    short = "VM" if side is Side.VIETMINH else "French"
    seg = f"{side.value} Player Turn"
    return [
        Phase(f"{short} movement", seg, f"{side.value} movement ({side.enemy.value} opportunity fire)", side, "movement"),
        Phase(f"{short} turn: VM indirect fire", seg, "Indirect fire: Vietminh indirect fire", Side.VIETMINH, "indirect fire"),
        Phase(f"{short} turn: French air placement", seg, "Indirect fire: French tactical air, aircraft placement", Side.FRENCH, "air"),
        Phase(f"{short} turn: antiaircraft fire", seg, "Indirect fire: French tactical air, antiaircraft fire", Side.VIETMINH, "air"),
        Phase(f"{short} turn: aircraft attacks", seg, "Indirect fire: French tactical air, aircraft attacks", Side.FRENCH, "air"),
        Phase(f"{short} turn: French indirect fire", seg, "Indirect fire: French indirect fire", Side.FRENCH, "indirect fire"),
        Phase(f"{short} direct fire", seg, "Direct fire", None, "direct fire"),
        Phase(f"{short} melee", seg, "Melee", side, "melee"),
        Phase(f"{short} return", seg, f"{side.value} return", side, "return"),
    ]


# C 7, in order. Reading (catalog C-5 item 9): "Indirect Fire Phase (as above)" in the French player turn
# repeats the same sub-order, and both sides may fire in every fire phase.
SEQUENCE: tuple[Phase, ...] = tuple([
    Phase("weather", "Initial Segment", "Weather determination"),
    Phase("aircraft maintenance", "Initial Segment", "Aircraft maintenance"),
    Phase("transport availability", "Initial Segment", "Transport availability"),
    Phase("tank repair", "Initial Segment", "Tank repair"),
    *_player_turn(Side.VIETMINH),
    *_player_turn(Side.FRENCH),
    Phase("supply and transport", "Terminal Segment", "French supply and transport mission"),
    Phase("strategic bombing", "Terminal Segment", "French strategic bombing"),
])


@implements("C 7")
def phase_named(phase_id: str) -> Phase:
    for p in SEQUENCE:
        if p.id == phase_id:
            return p
    raise KeyError(f"no phase {phase_id!r} in the Citadel sequence of play")


@implements("C 7", "C 2")
def next_phase(phase_id: str, date: dt.date) -> tuple[str, dt.date]:
    """The phase after ``phase_id``; after the last phase a new day (turn) begins (C 2: one turn is one day)."""
    ids = [p.id for p in SEQUENCE]
    i = ids.index(phase_id)
    if i + 1 < len(ids):
        return ids[i + 1], date
    return ids[0], date + dt.timedelta(days=1)


def player_turn_of(phase_id: str) -> str | None:
    """Which player turn a phase belongs to (pins last until the end of the melee phase, C 9)."""
    seg = phase_named(phase_id).segment
    return seg if "Player Turn" in seg else None
