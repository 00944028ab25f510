"""The Indochina position: map, units, weather. Plain data; procedures work on it and report Resolutions."""
from __future__ import annotations

import copy

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from ..core import Hex, implements
from ..core.errors import DataError
from ..core.mapdata import MapData, load_map
from ..core.schema import Bool, Either, Int, List, Str, place
from ..core.yamlio import load_once, read_yaml
from .charts import shipped_charts
from .combat import Side
from .units import Counter, UnitState

MAPS = Path(__file__).parent / "data" / "maps"
TERRAINS = ("clear", "cultivated", "jungle", "swamp", "mountain", "all_sea", "all_lake")
FEATURES = ("road", "trail", "town", "city", "river", "coast", "fortification")
COUNTRIES = ("Vietnam", "Laos", "Cambodia", "China", "Thailand", "Burma", "sea")
#: the per-hex fields of an Indochina map besides terrain and features
HEX_ATTRS = {"country": Str(COUNTRIES, what="a country of the map (or 'sea')"),
             "name": Str(min_len=1, max_len=200),
             "militia": Int(0, 9),                          # the FEF militia printed in a city or town (17.0)
             "port": Either(Bool(), Str(min_len=1, max_len=200, what="the port's name")),      # 23.11
             "sea_access": Str(key=True, min_len=1, max_len=12, what="a hex label"),           # Saigon's exit
             "north_edge": Bool(),                          # a hex on the map's north edge (supply, 15.2)
             "routes": List(Str(min_len=1, max_len=60), max_len=20, unique=True, tuple_=True)}  # "RC 4", 9.7


@implements("IC 2.2")
def load_indochina_map(path: str | Path) -> MapData:
    """A map as data: hexes with terrain and features (2.2); the two off-map areas, the Air Unit Holding
    Area and the Far Eastern Staging Area, are kept by the air and staging rules."""
    raw = read_yaml(path)
    m = load_map(path, TERRAINS, FEATURES, ("border",), data=raw, attrs=HEX_ATTRS)
    for h, info in m.hexes.items():
        access = info.attr("sea_access")
        if access is not None and not _is_label(m, str(access)):
            field = f"hexes[{m.label(h)}].sea_access"
            raise place(DataError(str(path), field, f"{access!r} is not a hex of this map"), raw)
    return m


def _is_label(m: MapData, label: str) -> bool:
    """Whether ``label`` is a hex of ``m``."""
    try:
        m.hex(label)
    except DataError:
        return False
    return True


def demo_map() -> MapData:
    """The schematic demonstration map (reconstructed: the printed map is absent): a new copy on every call,
    of the file read once per version of it (:func:`~wargames.core.yamlio.load_once`)."""
    return load_once(load_indochina_map, MAPS / "demo.yaml")


def indochina_map() -> MapData:
    """The reconstructed map of Indochina (the printed map is absent): hexes placed by latitude and longitude at
    25 km a hex (2.37), made by ``tools/indochina_map.py``; a new copy on every call, as :func:`demo_map`."""
    return load_once(load_indochina_map, MAPS / "indochina.yaml")


@dataclass
class IndochinaState:
    map: MapData
    units: dict[str, UnitState]
    monsoon: bool = False
    communist_cities: set[str] = field(default_factory=set)   # city/town labels under Communist control (17.1)
    neutral_cities: set[str] = field(default_factory=set)     # held by neither side yet (38 Introductory f)
    charts: tuple | None = None         # (Mobile CRT, Assault CRT, TEC) of the ruleset; None: the shipped ones
    placed_ports: set[str] = field(default_factory=set)       # port markers put on the map in play (29.32)

    @classmethod
    def build(cls, m: MapData, placements: Iterable[tuple[Counter, str]], source: str = "set-up",
              **kw) -> "IndochinaState":
        """A position from (counter, hex label) pairs; ``source`` names the set-up in errors, which name the
        unit's placement (``placements.<unit>``), not the map."""
        units = {}
        for c, label in placements:
            where = f"placements.{c.id}"
            if c.id in units:
                raise DataError(source, where, "the same counter is placed twice")
            try:
                h = m.hex(str(label))
            except DataError as e:
                raise DataError(source, where, e.reason) from None
            units[c.id] = UnitState(c, h)
        return cls(m, units, **kw)

    def unit(self, uid: str) -> UnitState:
        try:
            return self.units[uid]
        except KeyError:
            raise DataError("state", uid, "no such unit") from None

    def on_map(self, side: Side | None = None) -> list[UnitState]:
        return [u for u in self.units.values() if u.hex is not None and not u.eliminated
                and (side is None or u.counter.side is side)]

    def units_at(self, h: Hex, side: Side | None = None) -> list[UnitState]:
        """The units on the map in hex ``h`` (of ``side``, if given), in the order of :meth:`on_map`."""
        if h is None:
            return []
        return [u for u in self.units.values() if u.hex == h and not u.eliminated
                and (side is None or u.counter.side is side)]

    def label(self, h: Hex) -> str:
        return self.map.label(h)

    def terrain(self, h: Hex) -> str:
        return self.map.terrain(h)

    def has(self, h: Hex, feature: str) -> bool:
        return self.map.has(h, feature)

    def is_port(self, h: Hex) -> bool:
        """A printed port (the map's feature or attribute) or a port marker placed in play (29.32)."""
        if self.has(h, "port") or bool(self.map.info(h).attr("port", False)):
            return True
        return bool(self.placed_ports) and self.label(h) in self.placed_ports

    def is_urban(self, h: Hex) -> bool:
        return self.has(h, "town") or self.has(h, "city")

    def controller(self, h: Hex) -> Side | None:
        """Who controls a city or town (17.1): the FEF unless a Communist militia holds it; China is Communist."""
        if not self.is_urban(h):
            return None
        if self.map.info(h).attr("country") == "China" or self.label(h) in self.communist_cities:
            return Side.COMMUNIST
        if self.label(h) in self.neutral_cities:
            return None
        return Side.FEF

    def fef_militia(self, h: Hex) -> int:
        """The FEF militia strength printed in an FEF-controlled city or town (17.0), else 0."""
        if self.controller(h) is not Side.FEF:
            return 0
        return int(self.map.info(h).attr("militia", 0))

    def tables(self) -> tuple:
        """The combat charts this position is played with: (Mobile CRT, Assault CRT, TEC)."""
        return self.charts or shipped_charts()

    def tec(self) -> dict:
        return self.tables()[2]

    def copy(self) -> "IndochinaState":
        """An independent copy; the map and the charts, which never change, are shared."""
        return copy.deepcopy(self)

    def __deepcopy__(self, memo) -> "IndochinaState":
        """A copy sharing the map and the charts (they never change in play); units are flat records, so each
        is copied field by field (the legal-move search copies positions thousands of times)."""
        new = object.__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(self.__dict__)
        units = {}
        for k, u in self.units.items():
            c = memo.get(id(u))
            if c is None:
                c = object.__new__(type(u))
                c.__dict__.update(u.__dict__)
                memo[id(u)] = c
            units[k] = c
        new.units = units
        new.communist_cities = set(self.communist_cities)
        new.neutral_cities = set(self.neutral_cities)
        new.placed_ports = set(self.placed_ports)
        return new
