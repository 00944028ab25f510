"""The map vocabulary (F 1.2, F 6.1, F 7.3.2): terrain per hex, trails and roads, elevation and slopes.

Each hex has one terrain (the colour of its centre dot) and an ``elevation`` (default 0). We record slopes
through elevation: a hexside between two hexes of different elevation is a slope, and its elevation is that
of its higher side. The printed slope graphics do not follow hexsides exactly (F 7.3.2); a map file can still
name extra slope hexsides, whose elevation is then the higher of the two hexes. Hexes without a dot are
simply absent from the map: they cannot be entered, and LoS cannot pass through them (F 1.2).
"""
from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from ..core import Hex, implements
from ..core.hexgrid import hexside
from ..core.mapdata import MapData, load_map
from ..core.schema import Int
from ..core.yamlio import load_once
from .charts import TERRAINS, Charts, default_charts

FEATURES = ("trail", "road", "tunnel")
HEXSIDE_FEATURES = ("slope",)
MAPS = Path(__file__).parent / "data" / "maps"


#: A hex's own fields beyond terrain and features: its elevation (default 0; the demo map's hill is 1 or 2).
HEX_ATTRS = {"elevation": Int(0, 20)}


def load_fte_map(path: str | Path) -> MapData:
    """Load an FTE map, checking terrain and feature names against the Terrain Effects Chart."""
    return load_map(path, TERRAINS, FEATURES, HEXSIDE_FEATURES, attrs=HEX_ATTRS)


def demo_map() -> MapData:
    """The shipped demonstration map (reconstructed): every hex the printed examples name; the caller's own
    copy (the file is read once per version of it)."""
    return load_once(load_fte_map, MAPS / "demo.yaml")


def elevation(m: MapData, h: Hex) -> int:
    return int(m.info(h).attr("elevation", 0))


def is_slope(m: MapData, a: Hex, b: Hex) -> bool:
    """A slope lies on the hexside between adjacent a and b (F 7.3.2)."""
    return elevation(m, a) != elevation(m, b) or "slope" in m.side(a, b)


def slope_elevation(m: MapData, a: Hex, b: Hex) -> int:
    """A slope's elevation is that of its higher ("Up Slope") side."""
    return max(elevation(m, a), elevation(m, b))


def blocking(m: MapData, h: Hex, charts: Charts | None = None) -> bool:
    """Hamlet, grass and jungle are Blocking Terrain (F 7.3.2)."""
    return (charts or default_charts()).tec.value(m.terrain(h), "blocking")


@implements("F TEC")
def way_used(m: MapData, a: Hex, b: Hex, move_class: str) -> str | None:
    """The road or trail a unit of this movement class uses to go from a into adjacent b: one that joins both
    hexes (TEC note d), never a trail through jungle for a vehicle (note c), and none for a helicopter, which
    pays one MP a hex whatever is below it (F 6.8)."""
    if move_class.startswith("helicopter"):
        return None
    for way in ("road", "trail"):
        if m.has(a, way) and m.has(b, way):
            if way == "trail" and move_class == "vehicle" and "jungle" in (m.terrain(a), m.terrain(b)):
                continue
            return way
    return None


@implements("F 6.5", "F TEC")
def move_cost(m: MapData, a: Hex, b: Hex, move_class: str, charts: Charts | None = None) -> Fraction | None:
    """MP to move from a into adjacent b for a movement class (None: prohibited).

    A trail or road joining a and b replaces b's terrain cost, but vehicles may not use a trail through jungle
    (TEC notes c, d); crossing a slope hexside adds the slope cost in either direction.
    """
    tec = (charts or default_charts()).tec
    way = way_used(m, a, b, move_class)
    cost = tec.value(m.terrain(b), move_class) if way is None else tec.feature(way, move_class)
    if cost is None:
        return None
    if is_slope(m, a, b):
        extra = tec.feature("slope", move_class)
        if extra is None:
            return None
        cost += extra
    return Fraction(cost)


__all__ = ["FEATURES", "HEXSIDE_FEATURES", "load_fte_map", "demo_map", "elevation", "is_slope",
           "slope_elevation", "blocking", "way_used", "move_cost", "hexside"]
