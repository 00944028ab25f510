"""Rule 10: two divisions a hex (one in mountains), checked at the end of a phase."""
from __future__ import annotations

from fractions import Fraction

from ..core import Hex, Resolution, implements
from ..core.errors import RuleViolation
from .combat import Side
from .state import IndochinaState
from .disruption import disrupt
from .units import stacking_value

LIMIT = Fraction(2)
MOUNTAIN_LIMIT = Fraction(1)


@implements("IC 10.0", "IC 10.1", "IC 10.12")
def stacking_limit(st: IndochinaState, h: Hex) -> Fraction:
    return MOUNTAIN_LIMIT if st.terrain(h) == "mountain" else LIMIT


def stack_total(st: IndochinaState, h: Hex, side: Side) -> Fraction:
    return sum((stacking_value(u.counter) for u in st.units_at(h, side)), Fraction(0))


@implements("IC 10.2", "IC 10.21", "IC 14.3", "IC 25.3")
def end_of_phase_stacking(st: IndochinaState, side: Side, phase: str, res: Resolution | None = None) -> list[str]:
    """At the end of a movement or combat phase every unit in an overstacked hex is disrupted (10.21).

    Overstacking never eliminates a unit that has a disrupted side: a second disruption from it leaves the
    unit disrupted (14.4). A Death Commando has none and is eliminated (25.3). Returns the ids hit.
    """
    res = res if res is not None else Resolution()
    if phase not in ("movement", "combat"):
        return []
    hit = []
    for h in {u.hex for u in st.on_map(side)}:
        total, limit = stack_total(st, h, side), stacking_limit(st, h)
        if total > limit:
            res.add("IC 10.21", f"{st.label(h)} holds {total} divisions against a limit of {limit}: "
                    f"every unit there is disrupted", result=total)
            for u in st.units_at(h, side):
                if not u.disrupted or u.counter.type == "death commando":
                    disrupt(u, "overstacking", res)         # a Death Commando is eliminated (25.3)
                    hit.append(u.id)
    return hit


@implements("IC 10.3")
def check_not_with_enemy(st: IndochinaState, h: Hex, side: Side) -> None:
    if st.units_at(h, side.enemy):
        raise RuleViolation("IC 10.3", f"{st.label(h)} holds enemy land units; the two sides never share a hex")
