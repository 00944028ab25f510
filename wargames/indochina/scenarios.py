"""The scenarios a :class:`~wargames.indochina.game.Game` can be set up with.

The rulebook's three scenarios (38.0, data in :mod:`scenario_data`) are played on the reconstructed map of
Indochina (:func:`~wargames.indochina.state.indochina_map`) with the reconstructed counter mix
(:mod:`counters`); the players set their units up through the game's prompts (:mod:`deployment`). The
schematic "highlands demo" stays for the chapters' small examples.
"""
from __future__ import annotations

from ..core.errors import DataError
from .combat import Side
from .political import PoliticalPoints
from .deployment import initial_control
from .scenario_data import NAMES, Scenario, game_length, load_scenario, starting_points, starting_supply
from .state import IndochinaState, demo_map, indochina_map
from .units import Counter

SCENARIOS = {"highlands demo": "Pleiku and the road, October 1950: an FEF mobile group and garrison against "
                               "three Viet Minh regiments, six turns (schematic map, reconstructed)",
             **{n: f"{load_scenario(n).title} ({load_scenario(n).first_turn.label} to "
                   f"{load_scenario(n).last_turn.label}; reconstructed map)" for n in NAMES}}


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


def rulebook_scenario(name: str, extended: bool = False) -> tuple[IndochinaState, PoliticalPoints, dict, Scenario]:
    """A rulebook scenario before its set-up: the map with no units, who holds each city and town (38), the
    political and supply points and the calendar. The players then place their units (:mod:`deployment`).
    ``extended`` plays a scenario's optional extension where it has one (Scenario 2, special rule c)."""
    sc = load_scenario(name)
    m = indochina_map()
    control = initial_control(sc, m)
    communist = {label for label, side in control.items() if side is Side.COMMUNIST}
    neutral = {label for label, side in control.items() if side is None}
    st = IndochinaState(m, {}, communist_cities=communist, neutral_cities=neutral)
    # with rule 5.0 switched off (38 Introductory a) the indexes are kept at an inert 50 that nothing changes
    points = starting_points(sc) if sc.political_points is not None else PoliticalPoints(fef=50, communist=50)
    calendar = {"year": sc.first_turn.year, "month": sc.first_turn.month, "turns": game_length(sc, extended and sc.extension is not None),
                "supply": {s.value: starting_supply(sc, s) for s in Side}}
    return st, points, calendar, sc


def setup_scenario(name: str) -> tuple[IndochinaState, PoliticalPoints, dict]:
    """The position, the political indexes and the calendar (year, month, turns) a scenario starts with."""
    if name != "highlands demo":
        raise DataError("scenarios", name, f"is not a scenario; the scenarios are {', '.join(SCENARIOS)}")
    st = IndochinaState.build(demo_map(), highlands_units(), source=f"scenario {name}")
    # supply points: reconstructed, a few of each side's, as a small scenario's opening stock (15.1)
    return st, PoliticalPoints(fef=50, communist=50), {"year": 1950, "month": 10, "turns": 6,
                                                       "supply": {"FEF": 4, "Communist": 3}}


# --------------------------------------------------------------------------- the FEF Air Units Available box (12.21)

#: The demonstration's air box: two airstrike groups, one air transport group and the naval bombardment marker.
#: Reconstructed (the demonstration scenario is ours): about a third of scenario 1's box, for a small front.
DEMO_AIR_BOX = {"airstrike": 2, "air transport": 1, "naval strike": 1}
#: Scenario entries of the "Air Available Box" deployment, by unit type, and the air type each one is (12.1, 12.6).
AIR_ENTRY_TYPES = {"airstrike": "airstrike", "air transport": "air transport", "naval bombardment": "naval strike",
                    "naval strike": "naval strike", "B-29": "B-29"}


def demo_air_box(scenario: str = "highlands demo") -> dict[str, int]:
    """The groups of each air type a scenario puts in the FEF Air Units Available box (12.21).

    The demonstration's box is reconstructed (:data:`DEMO_AIR_BOX`); a rulebook scenario's comes from its
    deployment "where: Air Available Box" in ``data/scenarios`` (text: 38, the scenario's FEF set-up)."""
    if scenario == "highlands demo":
        return dict(DEMO_AIR_BOX)
    from .scenario_data import load_scenario            # only the rulebook scenarios need the scenario files
    sc = load_scenario(scenario)
    box: dict[str, int] = {}
    for dep in sc.sides[Side.FEF].deployment:
        if dep.where != "Air Available Box":
            continue
        for entry in dep.units:
            kind = AIR_ENTRY_TYPES.get(entry.type)
            if kind is None:
                raise DataError(sc.source, f"sides.FEF.deployment[Air Available Box].{entry.type}",
                                f"is not an air unit type; expected one of {', '.join(AIR_ENTRY_TYPES)}")
            box[kind] = box.get(kind, 0) + entry.count
    return box
