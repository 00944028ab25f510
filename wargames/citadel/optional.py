"""Section III, optional Vietminh rules (C 34, C 35), switched on by readings of the :class:`~.charts.Ruleset`.

- ``battalion_mortars`` (C 34): in an indirect fire phase a Vietminh infantry battalion fires its own 82mm
  mortars, 4 strength points, 2 once it has flipped. It may not do so in the indirect fire phase right after a
  movement phase in which it entered a French zone of control (reading: it moved in that phase and now stands
  in a French zone of control). Reading (catalog C-5 item 33): the mortars need no ammunition, and the GSP
  penalty of C 21 silences them like the 82mm batteries.
- ``rockets`` (C 35): from the May 6 turn, once a day, in a Vietminh indirect fire step, forty fire factors fall
  on a hex and on each hex next to it, each hex resolved as indirect fire. Readings (catalog C-5 item 32): no
  range multiplier; each hex must be spotted; a hex whose units were already fired at this phase is not hit
  again (C 9.5); normal Vietminh indirect fire may join the rockets on the centre hex (``firers``).

The game copies the readings onto the state (``state.readings``) so the fire procedure can see them.
"""
from __future__ import annotations

import datetime as dt

from ..core import implements
from ..core.game import Reading
from .units import Side, UnitState

READINGS = {
    "battalion_mortars": Reading(False, "C 34", "Vietminh infantry battalions fire their organic 82mm mortars",
                                 (False, True)),
    "rockets": Reading(False, "C 35", "Vietminh rocket attacks from May 6", (False, True)),
    "advanced_rules": Reading(True, "C 20", "the eight scenarios are played with Sections I and II (supply and "
                              "air power), stocked from the Scenario Information Chart", (False, True)),
}

#: C 34: a battalion's mortars, full and flipped.
BATTALION_MORTARS, FLIPPED_BATTALION_MORTARS = 4, 2
#: C 35: the first day of rocket attacks, and their fire factors on each hex.
ROCKETS_FROM, ROCKET_FACTORS = dt.date(1954, 5, 6), 40


def reading(state, name: str) -> bool:
    return bool(getattr(state, "readings", {}).get(name, False))


@implements("C 34")
def organic_mortars(state, u: UnitState) -> int | None:
    """The strength a Vietminh battalion fires with its own mortars now, or None if it does not (C 34): only with
    the reading on, and only in an indirect fire phase."""
    if not reading(state, "battalion_mortars") or u.side is not Side.VIETMINH or not u.counter.is_battalion:
        return None
    if not state.phase.endswith("indirect fire"):      # the two indirect fire steps of C 7 (sequence.py ids)
        return None
    return FLIPPED_BATTALION_MORTARS if u.inverted else BATTALION_MORTARS


@implements("C 34")
def mortar_problems(state, u: UnitState, movement_phase_index: int | None) -> list[tuple[str, str]]:
    """Why a battalion may not fire its mortars now: it entered a French zone of control in the movement phase
    just before (C 34), or the Vietminh are out of general supply today (C 21)."""
    from .supply import out_of_general_supply
    out = []
    in_french_zoc = any(f.hex.is_adjacent(u.hex) for f in state.on_board(Side.FRENCH))   # C 5
    if movement_phase_index is not None and state.moved_in.get(u.id) == movement_phase_index and in_french_zoc:
        out.append(("C 34", f"{u.id} entered a French zone of control in the movement phase just before, so its "
                            f"mortars may not fire in this indirect fire phase"))
    if out_of_general_supply(state, u.side):
        out.append(("C 21", f"{u.id}: the Vietminh are out of general supply today; their 82mm mortars are silent"))
    return out


# --------------------------------------------------------------------------- C 35: rockets

@implements("C 35")
def rockets_available(state) -> str | None:
    """Why no rocket attack may be launched now, or None."""
    if not reading(state, "rockets"):
        return "the optional rocket rule is not in use"
    if state.date < ROCKETS_FROM:
        return f"rocket attacks begin with the May 6 turn (today is {state.date:%B} {state.date.day})"
    if state.rockets.get("day") == state.date.isoformat():
        return "only one rocket attack may be launched a day"
    return None
