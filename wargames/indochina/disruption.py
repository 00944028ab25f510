"""Rule 14: combat effective and disrupted units; a second disruption from combat or retreat eliminates."""
from __future__ import annotations

from ..core import Resolution, implements
from .units import UnitState


@implements("IC 14.0", "IC 14.1", "IC 14.2", "IC 14.4", "IC 25.3")
def disrupt(u: UnitState, cause: str, res: Resolution) -> str:
    """Disrupt a unit. If it already is, combat or a retreat into an enemy ZOC eliminates it (14.4); other
    causes (overstacking) leave it disrupted. Death Commandos have no disrupted side (25.3)."""
    if u.counter.type == "death commando":
        u.eliminated = True
        res.add("IC 25.3", f"{u.id} is a Death Commando: disruption eliminates it", result="eliminated")
        return "eliminated"
    if u.disrupted:
        if cause in ("combat", "retreat"):
            u.eliminated = True
            res.add("IC 14.4", f"{u.id} is disrupted again by {cause}: eliminated", result="eliminated")
            return "eliminated"
        res.add("IC 14.4", f"{u.id} is already disrupted; {cause} leaves it so", result="disrupted")
        return "disrupted"
    u.disrupted = True
    res.add("IC 14.2", f"{u.id} is disrupted by {cause}: strength {u.strength}, movement {u.movement}",
            result="disrupted")
    return "disrupted"
