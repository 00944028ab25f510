"""Hostile-input suite: the fte loaders and their samples (every chart file, the three FRAGOs, the map)."""
from __future__ import annotations

from wargames.fte import charts
from wargames.fte.game import FRAGOS, load_frago
from wargames.fte.ruleset import Ruleset
from wargames.fte.terrain import MAPS, load_fte_map

from .cases import Loader

LOADERS: list[Loader] = [
    *(Loader(f"fte {file.removesuffix('.yaml')} chart", charts.DATA / file, load)
      for file, load in Ruleset.CHARTS.values()),
    *(Loader(f"fte {name} FRAGO", FRAGOS / f"{name}.yaml", load_frago) for name in ("demo", "lz", "air")),
    Loader("fte demo map", MAPS / "demo.yaml", load_fte_map),
]
