"""NT 5.7: how a group that changes corps moves in the turn of the change.

:func:`wargames.ntnd.reinforcement.reassign_corps` attaches the group to its new corps and marks its units in play
(``MARK_CHANGING_CORPS``, cleared when the turn ends). For the rest of that turn those units must keep away from
the enemy: each move starts and ends in a hex next to no enemy unit, and never enters one that is next to an
enemy unit, inverted units included; and by the end of the turn every one of them must stand in the new corps.

The game's movement phases call :func:`check_start` when a marked unit begins a move and :func:`check_step`
before each step (every hex entered, the last one included, so the end of the move is covered too); the end of
the Allied movement phase reads :func:`stragglers`, the marked units not in their new corps.

"Next to" a hex means the six hexes around it and the off-board zones it borders; next to a zone, the hexes on
its border and the zones adjacent to it (our reading: 9.1 links a zone to those, and nothing else; see
:meth:`.geography.Geography.neighbours`).
"""
from __future__ import annotations

from ..core import implements
from ..core.errors import RuleViolation
from .reinforcement import MARK_CHANGING_CORPS
from .state import NtndState

RULE = "NT 5.7"


def changing_corps(state: NtndState, unit: str) -> bool:
    """Whether ``unit`` belongs to a group that changed corps this turn."""
    return unit in state.pieces and state.piece(unit).marked(MARK_CHANGING_CORPS)


def enemies_next_to(state: NtndState, location: str, side: str) -> list[str]:
    """The enemy units of ``side``, face up or inverted, in the places next to ``location``."""
    return sorted(u for loc in state.geography.neighbours(location) for u in state.at(loc) if state.side_of(u) != side)


@implements("NT 5.7")
def check_start(state: NtndState, unit: str) -> None:
    """A unit of a group changing corps begins its move in a hex next to no enemy unit (5.7); RuleViolation."""
    if not changing_corps(state, unit):
        return
    here = state.piece(unit).location
    near = enemies_next_to(state, here, state.side_of(unit))
    if near:
        raise RuleViolation(RULE, f"{unit} is changing corps and may not move from {here}: it is next to "
                                  f"{', '.join(near)}")


@implements("NT 5.7")
def check_step(state: NtndState, unit: str, to: str) -> None:
    """A unit of a group changing corps never enters a hex next to an enemy unit, even an inverted one (5.7);
    RuleViolation."""
    if not changing_corps(state, unit):
        return
    near = enemies_next_to(state, to, state.side_of(unit))
    if near:
        raise RuleViolation(RULE, f"{unit} is changing corps and may not enter {to}, next to {', '.join(near)}")


@implements("NT 5.7")
def stragglers(state: NtndState) -> tuple[str, ...]:
    """The units of groups that changed corps this turn and are not in their new corps (5.7: all of them end the
    turn there). The caller decides what becomes of them; the rule names no penalty."""
    out = []
    for unit, piece in sorted(state.pieces.items()):
        if piece.marked(MARK_CHANGING_CORPS) and state.area_of(piece.location) != piece.corps:
            out.append(unit)
    return tuple(out)


__all__ = ["RULE", "changing_corps", "check_start", "check_step", "enemies_next_to", "stragglers"]
