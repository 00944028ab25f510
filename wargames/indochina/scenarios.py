"""The scenarios a :class:`~wargames.indochina.game.Game` can be set up with.

Only the demonstration set-up on the schematic map is playable: the rulebook's scenarios (38.0, listed as data
in :mod:`scenario_data`) need the printed map and counter mix, which are absent from the text.
"""
from __future__ import annotations

from ..core.errors import DataError
from .combat import Side
from .political import PoliticalPoints
from .state import IndochinaState, demo_map
from .units import Counter

SCENARIOS = {"highlands demo": "Pleiku and the road, October 1950: an FEF mobile group and garrison against "
                               "three Viet Minh regiments, six turns (schematic map, reconstructed)"}


def highlands_units() -> list[tuple[Counter, str]]:
    F, C = Side.FEF, Side.COMMUNIST
    return [
        (Counter("GM 100", F, "mechanized", "group", 6, 8, 3, 4), "1515"),
        (Counter("2/1 RTA", F, "regular infantry", "group", 5, 6, 2, 3), "1516"),
        (Counter("BT 5", F, "light infantry", "battalion", 2, 6, 1, 4), "1614"),
        (Counter("GN Pleiku", F, "gendarmerie", "battalion", 1, 4, 0, 2, parenthesized=False), "1519"),
        (Counter("803 VM", C, "regular infantry", "regiment", 5, 6, 2, 4), "1415"),
        (Counter("108 VM", C, "regular infantry", "regiment", 4, 6, 2, 4), "1313"),
        (Counter("120 VM", C, "regular infantry", "regiment", 4, 6, 2, 4), "1317"),
        (Counter("Cadre A", C, "cadre", "cadre", 1, 4, 0, 2), "1214"),
    ]


def setup_scenario(name: str) -> tuple[IndochinaState, PoliticalPoints, dict]:
    """The position, the political indexes and the calendar (year, month, turns) a scenario starts with."""
    if name != "highlands demo":
        raise DataError("scenarios", name, f"is not a scenario; the scenarios are {', '.join(SCENARIOS)}")
    st = IndochinaState.build(demo_map(), highlands_units(), source=f"scenario {name}")
    # supply points: reconstructed, a few of each side's, as a small scenario's opening stock (15.1)
    return st, PoliticalPoints(fef=50, communist=50), {"year": 1950, "month": 10, "turns": 6,
                                                       "supply": {"FEF": 4, "Communist": 3}}
