"""Rule 26: Clear and Monsoon weather."""
from __future__ import annotations

import math

from ..core import Resolution, implements
from ..core.errors import RuleViolation

MONSOON_MONTHS = (5, 6, 7, 8, 9)


@implements("IC 26.0", "IC 26.1", "IC 26.2")
def weather(month: int) -> str:
    """October to April are Clear turns; May to September are Monsoon turns (26.1). Clear weather changes
    nothing (26.2); the Monsoon's effects are applied by the rules they touch (26.3)."""
    if not 1 <= month <= 12:
        raise RuleViolation("IC 26.1", f"{month} is not a month")
    return "Monsoon" if month in MONSOON_MONTHS else "Clear"


@implements("IC 26.3")
def monsoon_air_availability(air_units: dict[str, int], res: Resolution | None = None) -> dict[str, int]:
    """26.3(1): in a Monsoon turn half of each type of FEF air unit is available, fractions rounded up."""
    res = res if res is not None else Resolution()
    out = {}
    for kind, n in air_units.items():
        if n < 0:
            raise RuleViolation("IC 26.3", f"{kind}: a negative number of air units ({n})")
        out[kind] = math.ceil(n / 2)
        res.add("IC 26.3", f"{kind}: half of {n}, rounded up = {out[kind]}", arithmetic=f"ceil({n}/2) = {out[kind]}")
    return out
