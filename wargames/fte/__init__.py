"""Front Toward Enemy: US and NVA/VC firefights in Vietnam, d10 activation (the FTE rulebook and its errata)."""
from . import (actions, activation, assault, casualties, charts, checks, concealment, errata, events, game,  # noqa: F401
               fire, fire_missions, los, movement, opfire, sites, special, state, terrain, traps, units, victory)
from .rules_index import SECTIONS

__all__ = ["SECTIONS"]
