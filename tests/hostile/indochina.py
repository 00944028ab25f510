"""Hostile-input suite: the Indochina loaders and their samples (every chart, the demo map, the scenarios)."""
from __future__ import annotations

from wargames.indochina.assistance import load_assistance, load_full_chart
from wargames.indochina.atomic import load_atomic_table
from wargames.indochina.bombardment import load_bombardment_table
from wargames.indochina.charts import DATA as CHARTS, load_crt, load_terrain_effects
from wargames.indochina.combat import Side
from wargames.indochina.counters import COUNTERS, load_counters
from wargames.indochina.events import load_events
from wargames.indochina.mobilization import load_mobilization_chart
from wargames.indochina.political_table import load_political_table
from wargames.indochina.scenario_data import DATA as SCENARIOS, NAMES, load_scenario
from wargames.indochina.state import MAPS, load_indochina_map

from .cases import Loader

_CHARTS = {
    "mobile_crt": load_crt,
    "assault_crt": load_crt,
    "terrain_effects": load_terrain_effects,
    "bombardment": load_bombardment_table,
    "atomic_bomb": load_atomic_table,
    "us_assistance": lambda p: load_assistance(Side.FEF, p),
    "chinese_assistance": lambda p: load_assistance(Side.COMMUNIST, p),
    "mobilization": load_mobilization_chart,
    "mobilization_full": load_full_chart,
    "political_points": load_political_table,
    "random_events": load_events,
}

LOADERS: list[Loader] = (
    [Loader(f"indochina {name} chart", CHARTS / f"{name}.yaml", load) for name, load in _CHARTS.items()]
    + [Loader(f"indochina {name} scenario", SCENARIOS / f"{name}.yaml", load_scenario) for name in NAMES]
    + [Loader("indochina demo map", MAPS / "demo.yaml", load_indochina_map)]
    + [Loader("indochina counters", COUNTERS, load_counters)]
)
