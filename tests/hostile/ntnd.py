"""Hostile-input suite: the No Trumpets No Drums loaders (every chart, the map, the counter mix, the schedule, the
scenarios)."""
from __future__ import annotations

from wargames.ntnd.charts import CHART_FILES, DATA as CHARTS
from wargames.ntnd.geography import MAPS, load_map
from wargames.ntnd.scenarios import DATA as SCENARIOS, SCENARIOS as NAMES, load_scenario
from wargames.ntnd.units import COUNTERS, SCHEDULE, load_counters, load_schedule

from .cases import Loader

LOADERS: list[Loader] = (
    [Loader(f"ntnd {name} chart", CHARTS / file, load) for name, (file, load) in CHART_FILES.items()]
    + [Loader(f"ntnd {name} scenario", SCENARIOS / f"{name}.yaml", load_scenario) for name in NAMES]
    + [Loader("ntnd map", MAPS / "indochina.yaml", load_map)]
    + [Loader("ntnd counters", COUNTERS, load_counters)]
    + [Loader("ntnd schedule", SCHEDULE, load_schedule)]
)
