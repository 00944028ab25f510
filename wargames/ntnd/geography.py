"""No Trumpets No Drums: the map of Indochina and what the rules ask of it.

The rulebook prints no map. The shipped one, ``data/maps/indochina.yaml``, is our reconstruction from real
geography (tools/ntnd_map.py, 40 km a hex); an owner of the printed map can load theirs with :func:`load_map`.
A map is a :class:`~wargames.core.mapdata.MapData` (hexes with terrain, features, country, area, settlement
name, corps headquarters) plus the off-board zones of NT 9.1 with their neighbours and the hexes they border.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from ..core import Hex, implements
from ..core.charts import PROVENANCE, Provenance
from ..core.errors import DataError
from ..core.mapdata import MapData, load_map as load_core_map
from ..core.schema import At, Bool, List, Opt, Record, Str, place
from ..core.yamlio import Mapping, read_yaml

MAPS = Path(__file__).parent / "data" / "maps"
SHIPPED = MAPS / "indochina.yaml"

TERRAINS = ("clear", "jungle", "swamp", "mountain", "all_sea")
FEATURES = ("road", "trail", "minor_river", "major_river", "coastal", "town", "city")
SIDE_FEATURES = ("all_sea", "all_lake")
COUNTRIES = ("NV", "SVN", "Laos", "Cambodia", "Thailand", "China", "sea")
#: the countries units play in; Thailand and China, if a map shows them, are edge land no unit enters
PLAYABLE = ("NV", "SVN", "Laos", "Cambodia")
CORPS = ("I", "II", "III", "IV")
AREAS = CORPS + ("Laos", "Cambodia", "NV")
#: NT 5.1: the headquarters of each corps (text); Laos's is the off-board zone of Luang Prabang
HEADQUARTERS = {"I": "Da Nang", "II": "Nha Trang", "III": "Saigon", "IV": "Soc Trang",
                "Cambodia": "Phnom Penh", "Laos": "Luang Prabang"}
#: NT 9.1: the off-board zones (text)
ZONES = ("China", "Hanoi", "Haiphong", "Plain of Jars", "Luang Prabang", "Vientiane")

HEX_ATTRS = {"country": Str(COUNTRIES, what="a country of the map (or 'sea')"),
             "area": Str(AREAS, what="a corps or country area"),
             "name": Str(min_len=1, max_len=100),
             "hq": Str(tuple(HEADQUARTERS), what="the corps or country headquartered here (5.1)"),
             "routes": List(Str(min_len=1, max_len=60), max_len=20, unique=True, tuple_=True),
             "rivers": List(Str(min_len=1, max_len=60), max_len=10, unique=True, tuple_=True)}
_LABEL = Str(min_len=1, max_len=12, what="a hex label")
ZONE_SCHEMA = List(Record(
    {"name": Str(ZONES, what="an off-board zone of NT 9.1"), "country": Str(COUNTRIES),
     "adjacent": List(Str(ZONES), max_len=5, unique=True, tuple_=True),
     "border_hexes": List(_LABEL, max_len=200, unique=True, tuple_=True)},
    {"hq": Opt(Str(tuple(HEADQUARTERS))), "sea_access": Opt(Bool(), False), "west_edge": Opt(Bool(), False),
     "provenance": Opt(PROVENANCE), "links_provenance": Opt(PROVENANCE)},
    what="a zone {name, country, adjacent, border_hexes, ...}"), min_len=1, max_len=20)


@dataclass(frozen=True)
class Zone:
    """An off-board zone (NT 9.1): its neighbouring zones and the map hexes that border it."""

    name: str
    country: str
    adjacent: tuple[str, ...]
    border_hexes: frozenset[Hex]
    hq: str | None = None
    sea_access: bool = False        # the fleet may enter it from the sea hexes it borders (Haiphong, 8.6.1)
    west_edge: bool = False         # a Laotian zone next to the west map edge (4.3.1)
    provenance: Provenance = Provenance("text", "NT 9.1")
    links_provenance: Provenance = Provenance("reconstructed")


@dataclass
class Geography:
    """A No Trumpets No Drums map: the hexes (``map``) and the off-board zones. Read-only in play."""

    map: MapData
    zones: dict[str, Zone]

    def _memo(self, key: tuple, compute):
        """A value read from the map, worked out once (the map does not change in play)."""
        memo = self.__dict__.setdefault("_memo_values", {})
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    # -- hexes
    def hex(self, label: str) -> Hex:
        return self.map.hex(label)

    def label(self, h: Hex) -> str:
        return self.map.label(h)

    def country(self, h: Hex) -> str:
        return self.map.info(h).attr("country")

    def area(self, h: Hex) -> str | None:
        """The corps or country area of a hex (None for sea)."""
        return self.map.info(h).attr("area")

    def terrain(self, h: Hex) -> str:
        return self.map.terrain(h)

    def has(self, h: Hex, feature: str) -> bool:
        return self.map.has(h, feature)

    def is_city(self, h: Hex) -> bool:
        """A major city (the rules' "city")."""
        return self.map.has(h, "city")

    def is_town(self, h: Hex) -> bool:
        return self.map.has(h, "town")

    def is_settlement(self, h: Hex) -> bool:
        """A town or city hex."""
        return self.map.has(h, "town") or self.map.has(h, "city")

    def is_coastal(self, h: Hex) -> bool:
        return self.map.has(h, "coastal")

    def is_all_sea(self, h: Hex) -> bool:
        return self.map.terrain(h) == "all_sea"

    def river(self, h: Hex) -> str | None:
        """"major", "minor" or None: the river in a hex (terrain chart: attackers on a river)."""
        return "major" if self.map.has(h, "major_river") else "minor" if self.map.has(h, "minor_river") else None

    def naval(self, h: Hex) -> bool:
        """A hex patrol boats may enter: all-sea, coastal or major river (8.2.4)."""
        return self.is_all_sea(h) or self.is_coastal(h) or self.map.has(h, "major_river")

    def name(self, h: Hex) -> str | None:
        return self.map.info(h).attr("name")

    def settlements(self, area: str | None = None) -> dict[str, Hex]:
        """Named towns and cities, by name (of one area if given)."""
        return dict(self._memo(("settlements", area), lambda: {
            self.name(h): h for h, i in sorted(self.map.hexes.items())
            if self.is_settlement(h) and (area is None or i.attr("area") == area)}))

    def place(self, name: str) -> Hex:
        """The hex of a named place (town, city or named site such as Lang Vei)."""
        places = self._memo("places", lambda: {n: h for h, i in reversed(self.map.hexes.items())
                                               if (n := i.attr("name")) is not None})
        if name not in places:
            raise KeyError(f"no place called {name!r} on {self.map.name}")
        return places[name]

    def hexes_of(self, area: str) -> list[Hex]:
        return list(self._memo(("hexes_of", area), lambda: tuple(
            sorted(h for h, i in self.map.hexes.items() if i.attr("area") == area))))

    def hexes_of_country(self, country: str) -> tuple[Hex, ...]:
        """The hexes of a country (North Vietnam's, say), in map order."""
        return self._memo(("country", country), lambda: tuple(h for h in self.map.hexes
                                                              if self.country(h) == country))

    @implements("NT 5.1")
    def headquarters(self, area: str) -> Hex | str:
        """The headquarters of a corps or country (5.1): a city hex, or for Laos the Luang Prabang zone."""
        if area not in HEADQUARTERS:
            raise KeyError(f"{area!r} has no headquarters (5.1 lists {', '.join(HEADQUARTERS)})")
        return self._memo(("headquarters", area), lambda: self._find_headquarters(area))

    def _find_headquarters(self, area: str) -> Hex | str:
        for h, i in self.map.hexes.items():
            if i.attr("hq") == area:
                return h
        for z in self.zones.values():
            if z.hq == area:
                return z.name
        raise DataError(self.map.source, "hq", f"no hex or zone is the headquarters of {area}")

    def hq_hex(self, area: str) -> Hex:
        """The headquarters hex of a corps or of Cambodia (Laos's is a zone: see :meth:`headquarters`)."""
        hq = self.headquarters(area)
        if not isinstance(hq, Hex):
            raise KeyError(f"the {area} headquarters is the off-board zone {hq}, not a hex")
        return hq

    # -- hexsides
    def side(self, a: Hex, b: Hex) -> frozenset[str]:
        return self.map.side(a, b)

    def all_sea_side(self, a: Hex, b: Hex) -> bool:
        return "all_sea" in self.map.side(a, b)

    def all_lake_side(self, a: Hex, b: Hex) -> bool:
        return "all_lake" in self.map.side(a, b)

    def border_side(self, a: Hex, b: Hex) -> bool:
        """Two adjacent land hexes of different countries: a border hexside (neutral while that country is
        neutral, 10.1)."""
        ca, cb = self.country(a), self.country(b)
        return a.is_adjacent(b) and ca != cb and "sea" not in (ca, cb)

    # -- areas
    def areas_bordering(self, area: str) -> set[str]:
        """The other areas with a hex next to one of ``area``'s hexes."""
        out = set()
        for h in self.hexes_of(area):
            for n in self.map.neighbors(h):
                other = self.area(n)
                if other is not None and other != area:
                    out.add(other)
        return out

    @implements("NT 5.3.1")
    def may_operate_in(self, corps: str, area: str) -> bool:
        """Where a unit attached to ``corps`` may operate (5.3.1): its own corps, and Laos or Cambodia if
        that country borders the corps."""
        if corps not in CORPS:
            raise KeyError(f"{corps!r} is not a corps of South Vietnam")
        return area == corps or (area in ("Laos", "Cambodia") and area in self.areas_bordering(corps))

    # -- zones
    def zone(self, name: str) -> Zone:
        try:
            return self.zones[name]
        except KeyError:
            raise KeyError(f"{name!r} is not an off-board zone (9.1: {', '.join(ZONES)})") from None

    def zones_bordering(self, h: Hex) -> list[str]:
        """The zones a map hex borders."""
        return [z.name for z in self.zones.values() if h in z.border_hexes]

    @implements("NT 9.1")
    def zone_step(self, a: str | Hex, b: str | Hex) -> bool:
        """Whether a move from ``a`` to ``b`` is one zone step, which takes a whole turn (9.1): zone to
        adjacent zone, or zone to a hex bordering it, or back. Hex to hex is ordinary movement, not a zone
        step."""
        if isinstance(a, Hex) and isinstance(b, Hex):
            return False
        if isinstance(a, Hex):
            a, b = b, a
        za = self.zone(a)
        if isinstance(b, Hex):
            return b in za.border_hexes
        self.zone(b)
        return b in za.adjacent

    def neighbours(self, location: str) -> list[str]:
        """The hexes and zones one step from ``location`` (a label or a zone's name; 9.1: zones border hexes
        and other zones)."""
        if location in self.zones:
            z = self.zone(location)
            return list(z.adjacent) + sorted(self.label(h) for h in z.border_hexes)
        h = self.hex(location)
        return [self.label(n) for n in self.map.neighbors(h)] + self.zones_bordering(h)

    def next_to(self, a: str, b: str) -> bool:
        """Whether ``b`` is one step from ``a``: neighbouring hexes, or a zone step (9.1)."""
        if a in self.zones or b in self.zones:
            return self.zone_step(*(x if x in self.zones else self.hex(x) for x in (a, b)))
        return self.hex(a).is_adjacent(self.hex(b))


# ---------------------------------------------------------------------------------------------------- loading
def load_map(path: str | Path) -> Geography:
    """Load and check a No Trumpets No Drums map file; a bad value raises DataError naming file and field."""
    file = str(path)
    raw = read_yaml(path)
    if not isinstance(raw, dict):
        raise DataError(file, "(top level)", "must be a mapping (a map file)")
    rest = Mapping({k: v for k, v in raw.items() if k != "zones"})
    rest.mark, rest.marks = getattr(raw, "mark", None), getattr(raw, "marks", {})
    m = load_core_map(path, TERRAINS, FEATURES, SIDE_FEATURES, data=rest, attrs=HEX_ATTRS)
    for h, info in m.hexes.items():
        where = f"hexes[{m.label(h)}]"
        country, area = info.attr("country"), info.attr("area")
        if country is None:
            raise place(DataError(file, where, "has no country"), raw)
        if (info.terrain == "all_sea") != (country == "sea"):
            raise place(DataError(file, where, f"terrain {info.terrain} but country {country}"), raw)
        want = {"NV": ("NV",), "SVN": CORPS, "Laos": ("Laos",), "Cambodia": ("Cambodia",)}.get(country, (None,))
        if area not in want:
            raise place(DataError(file, f"{where}.area", f"{area!r} does not fit country {country}"), raw)
        hq = info.attr("hq")
        if hq is not None and (hq != area or info.attr("name") != HEADQUARTERS[hq]):
            raise place(DataError(file, f"{where}.hq", f"5.1 puts the {hq} headquarters at "
                                                       f"{HEADQUARTERS[hq]}, not here"), raw)
    zones = _load_zones(file, raw, m)
    return Geography(m, zones)


def _load_zones(file: str, raw, m: MapData) -> dict[str, Zone]:
    if "zones" not in raw:
        raise DataError(file, "zones", "is missing (the off-board zones of 9.1)")
    items = ZONE_SCHEMA.check(raw["zones"], At(file, "zones", (getattr(raw, "marks", None) or {}).get("zones")))
    zones: dict[str, Zone] = {}
    for i, z in enumerate(items):
        where = f"zones[{i}]"
        if z["name"] in zones:
            raise place(DataError(file, f"{where}.name", f"names {z['name']} twice"), raw)
        hexes = []
        for j, lab in enumerate(z["border_hexes"]):
            try:
                hexes.append(m.hex(lab))
            except DataError as e:
                raise place(DataError(file, f"{where}.border_hexes[{j}]", e.reason), raw) from None
        zones[z["name"]] = Zone(z["name"], z["country"], z["adjacent"], frozenset(hexes), z["hq"], z["sea_access"],
                                z["west_edge"], z["provenance"] or Provenance("text", "NT 9.1"),
                                z["links_provenance"] or Provenance("reconstructed"))
    missing = [n for n in ZONES if n not in zones]
    if missing:
        raise DataError(file, "zones", f"lacks {', '.join(missing)} (9.1 names six zones)")
    for i, z in enumerate(zones.values()):
        for other in z.adjacent:
            if z.name not in zones[other].adjacent:
                raise place(DataError(file, f"zones[{i}].adjacent", f"{z.name} lists {other}, but {other} does "
                                                                     f"not list {z.name}"), raw)
    if zones["Luang Prabang"].hq != "Laos":
        raise DataError(file, "zones", "5.1 makes Luang Prabang the Laotian headquarters (hq: Laos)")
    return zones


@functools.lru_cache(maxsize=None)
def shipped_map() -> Geography:
    """The reconstructed map, read once per process (treat it as read-only)."""
    return load_map(SHIPPED)


def hq_hex(area: str) -> Hex:
    """The headquarters hex of a corps or of Cambodia on the shipped map (5.1)."""
    return shipped_map().hq_hex(area)


__all__ = ["AREAS", "CORPS", "COUNTRIES", "FEATURES", "HEADQUARTERS", "SIDE_FEATURES", "TERRAINS", "ZONES",
           "Geography", "Zone", "hq_hex", "load_map", "shipped_map"]
