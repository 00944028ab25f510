"""Rule 6: stacking limits, which add together per class."""
from __future__ import annotations

from ..core import Hex, implements
from ..core.errors import RuleViolation
from .state import CitadelState
from .units import Side, UnitClass, UnitState

HEAVY_WEAPONS_LIMIT = 6


@implements("C 6", "C 6.1", "C 6.2", "C 6.3")
def stacking_problem(units: list[UnitState]) -> str | None:
    """Why these friendly units may not share a hex, or None if they may.

    Infantry: at most two companies, or one battalion (all companies of one
    parent battalion count as that battalion). Heavy weapons: at most six.
    Tanks: no limit. The three limits add together (C 6).
    """
    units = [u for u in units if not u.in_tunnel]          # underground, outside the hill's stack (C 18)
    inf = [u for u in units if u.counter.cls is UnitClass.INFANTRY]
    battalions = [u for u in inf if u.counter.size == "battalion"]
    companies = [u for u in inf if u.counter.size == "company"]
    if battalions:
        if len(battalions) > 1 or companies:
            names = ", ".join(u.id for u in inf)
            return f"a battalion may not share a hex with other infantry ({names})"
    # A company with no parent battalion (an independent company) is a battalion of its own (C 6.1).
    elif len(companies) > 2 and len({u.counter.parent or f"(independent) {u.id}" for u in companies}) > 1:
        return (f"{len(companies)} companies from more than one battalion exceed the limit of two companies "
                f"({', '.join(u.id for u in companies)})")
    weapons = [u for u in units if u.counter.cls is UnitClass.HEAVY_WEAPONS]
    if len(weapons) > HEAVY_WEAPONS_LIMIT:
        return f"{len(weapons)} heavy weapons units exceed the limit of {HEAVY_WEAPONS_LIMIT}"
    return None


def check_stacking(state: CitadelState, h: Hex, side: Side, adding: list[UnitState] = (), rule: str = "C 6") -> None:
    """Raise RuleViolation if ``adding`` cannot join the friendly units in ``h``. Enemy units never count."""
    ids = {u.id for u in adding}
    units = [u for u in state.units_at(h, side) if u.id not in ids] + list(adding)
    problem = stacking_problem(units)
    if problem:
        raise RuleViolation(rule, f"hex {state.label(h)}: {problem}")
