"""Victory (F 29.0): points are scored as things happen (``FteState.award``, which never lets a total fall
below zero); at the end the side with more points wins, and a tie goes to the NVA/VC.

The errata's clarification of casualty points is a statement about the *difference* between the two totals:
the side that causes a casualty scores, the owner then recovers some of it by a return to duty or an evacuation,
and loses more if the wounded man dies (cases 1-3, checked in the tests and in the chapter).
"""
from __future__ import annotations

from ..core import Resolution, implements
from .state import FteState

US, NVA = "US", "NVA/VC"


@implements("F 29.0")
def net(state: FteState, side: str = US) -> int:
    """A side's lead in points over the other (negative when behind)."""
    other = NVA if side == US else US
    return state.vp[side] - state.vp[other]


@implements("F 29.0")
def winner(state: FteState, res: Resolution | None = None) -> str:
    """The side with more victory points wins; a tie goes to the NVA/VC (F 29.0)."""
    us, nva = state.vp[US], state.vp[NVA]
    who = US if us > nva else NVA
    if res is not None:
        why = "more points" if us != nva else "a tie goes to the NVA/VC"
        res.add("F 29.0", f"US {us} VP, NVA/VC {nva} VP: {who} wins ({why})", arithmetic=f"{us} vs {nva}",
                result=who)
        res.result = who
    return who


__all__ = ["net", "winner"]
