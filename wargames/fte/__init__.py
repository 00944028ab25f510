"""Front Toward Enemy: US and NVA/VC firefights in Vietnam, d10 activation (the FTE rulebook and its errata)."""
from . import (assault, charts, checks, concealment, errata, fire, los, opfire, sites, special, state,  # noqa: F401
               terrain, traps, units)
from .rules_index import SECTIONS

__all__ = ["SECTIONS"]
