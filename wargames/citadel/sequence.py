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
    group: str = ""               # the steps of one fire phase share a group: their fire is simultaneous (C 9)

    @property
    def fire_phase(self) -> str:
        return self.group or self.id


def _player_turn(side: Side) -> list[Phase]:
    short = "VM" if side is Side.VIETMINH else "French"
    seg = f"{side.value} Player Turn"
    ind = f"{short} indirect fire phase"
    return [
        Phase(f"{short} movement", seg, f"{side.value} movement ({side.enemy.value} opportunity fire)", side, "movement"),
        Phase(f"{short} turn: VM indirect fire", seg, "Indirect fire: Vietminh indirect fire", Side.VIETMINH, "indirect fire", ind),
        Phase(f"{short} turn: French air placement", seg, "Indirect fire: French tactical air, aircraft placement", Side.FRENCH, "air", ind),
        Phase(f"{short} turn: antiaircraft fire", seg, "Indirect fire: French tactical air, antiaircraft fire", Side.VIETMINH, "air", ind),
        Phase(f"{short} turn: aircraft attacks", seg, "Indirect fire: French tactical air, aircraft attacks", Side.FRENCH, "air", ind),
        Phase(f"{short} turn: French indirect fire", seg, "Indirect fire: French indirect fire", Side.FRENCH, "indirect fire", ind),
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


#: Before the first turn: the scenario's set-up (SR 2).
SETUP = Phase("set-up", "Set-up", "Scenario set-up", None, "setup")


@implements("C 7")
def phase_named(phase_id: str) -> Phase:
    if phase_id == SETUP.id:
        return SETUP
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


class CitadelGame:
    """Steps a state through the sequence of play and hands out the procedure for the current phase."""

    def __init__(self, state, phase: str | None = None):
        self.state = state
        if phase is not None:
            phase_named(phase)
            state.phase = phase
        self.last_movement_index: int | None = None
        self._movement = None

    @property
    def phase(self) -> Phase:
        return phase_named(self.state.phase)

    @implements("C 7", "C 9")
    def advance(self) -> Phase:
        """End the current phase and begin the next. Pins come off at the end of every melee phase (C 9).

        The steps of the indirect fire phase (Vietminh fire, French air, French fire) make one fire phase:
        its bookkeeping (who fired, who was fired at, the one-loss cap) lasts until the whole phase ends, and
        units pinned or eliminated in it still fire in it, because fire in a fire phase is simultaneous (C 9;
        C 31 names the one exception, for aircraft).
        """
        st = self.state
        if self._movement is not None and not self._movement.finished:
            from ..core.errors import RuleViolation
            raise RuleViolation("C 8", "units are still moving or paused for opportunity fire")
        current = self.phase
        if current.kind == "movement":
            self.last_movement_index = st.phase_index
        if current.kind == "melee":
            for u in st.units.values():
                u.pinned, u.pinned_at = False, None
        if st.phase == SETUP.id:                 # the set-up ends where the scenario starts (SR 2, Sc 2)
            nxt_id, date = st.start_phase, st.date
        else:
            nxt_id, date = next_phase(st.phase, st.date)
        nxt = phase_named(nxt_id)
        if nxt.fire_phase != current.fire_phase or date != st.date:
            st.fired.clear()
            st.fired_at.clear()
            st.phase_losses.clear()
            st.strength_at_start.clear()
            for u in st.units.values():
                if u.eliminated:
                    u.hex = None
        st.phase, st.date = nxt_id, date
        st.phase_index += 1
        if nxt.fire_phase != current.fire_phase:
            st.fire_phase_start = st.phase_index
        if nxt.kind == "movement":
            st.player_turn_start = st.phase_index
        self._movement = None
        return self.phase

    def movement(self):
        from ..core.errors import RuleViolation
        from .movement import MovementPhase
        p = self.phase
        if p.kind != "movement":
            raise RuleViolation("C 7", f"it is the {p.name} phase, not a movement phase")
        if self._movement is None:
            self._movement = MovementPhase(self.state, p.side)
        return self._movement

    def fire_phase(self):
        from ..core.errors import RuleViolation
        from .fire import FirePhase
        p = self.phase
        if p.kind not in ("direct fire", "indirect fire"):
            raise RuleViolation("C 7", f"it is the {p.name} phase, not a fire phase")
        kind = "direct" if p.kind == "direct fire" else "indirect"
        return FirePhase(self.state, kind, p.side if kind == "indirect" else None, self.last_movement_index)
