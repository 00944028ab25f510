"""Front Toward Enemy: US and NVA/VC firefights in Vietnam, d10 activation (the FTE rulebook and its errata)."""
from . import charts, checks, errata, los, state, terrain, units  # noqa: F401  (registers their rules)
from .rules_index import SECTIONS

__all__ = ["SECTIONS"]
