"""A small demonstration set-up on the schematic map (reconstructed: for the chapters and the fuzz tests).

The rulebook's scenarios (38.0) need the full map and counter mix, which are absent from the text.
"""
from __future__ import annotations

from .combat import Side
from .game import IndochinaGame
from .political import PoliticalPoints
from .state import IndochinaState, demo_map
from .units import Counter


def highlands_demo() -> IndochinaGame:
    """Pleiku and the road, October 1950: an FEF mobile group and garrison against three Viet Minh regiments."""
    F, C = Side.FEF, Side.COMMUNIST
    units = [
        (Counter("GM 100", F, "mechanized", "group", 6, 8, 3, 4), "1515"),
        (Counter("2/1 RTA", F, "regular infantry", "group", 5, 6, 2, 3), "1516"),
        (Counter("BT 5", F, "light infantry", "battalion", 2, 6, 1, 4), "1614"),
        (Counter("GN Pleiku", F, "gendarmerie", "battalion", 1, 4, 0, 2, parenthesized=False), "1519"),
        (Counter("803 VM", C, "regular infantry", "regiment", 5, 6, 2, 4), "1415"),
        (Counter("108 VM", C, "regular infantry", "regiment", 4, 6, 2, 4), "1313"),
        (Counter("120 VM", C, "regular infantry", "regiment", 4, 6, 2, 4), "1317"),
        (Counter("Cadre A", C, "cadre", "cadre", 1, 4, 0, 2), "1214"),
    ]
    st = IndochinaState.build(demo_map(), units)
    return IndochinaGame(st, PoliticalPoints(fef=50, communist=50), year=1950, month=10, turns_left=6)
