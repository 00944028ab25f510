"""Hostile-input suite: the citadel loaders and their samples.

A folder of owner's charts (``Ruleset.load``) reads each file with the same chart loaders listed here."""
from __future__ import annotations

from wargames.citadel import charts
from wargames.citadel.examples import SCENARIOS, load_scenario
from wargames.citadel.terrain import MAPS, load_citadel_map

from .cases import Loader

LOADERS: list[Loader] = [
    Loader("citadel fire_crt chart", charts.DATA / "fire_crt.yaml", charts.load_fire_crt),
    Loader("citadel range_modifiers chart", charts.DATA / "range_modifiers.yaml", charts.load_range_table),
    Loader("citadel terrain_effects chart", charts.DATA / "terrain_effects.yaml", charts.load_terrain_effects),
    Loader("citadel anne_marie map", MAPS / "anne_marie.yaml", load_citadel_map),
    Loader("citadel anne_marie scenario", SCENARIOS / "anne_marie.yaml", load_scenario),
]
