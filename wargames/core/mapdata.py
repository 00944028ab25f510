"""Map data: terrain per hex, features per hexside, printed labels at the boundary.

A map declares its offset layout (Citadel: "even-q", labels XXYY) and, because
both of Citadel's sheets reuse the same labels, the sheet it belongs to.
Every hex and hexside carries a provenance, since most printed maps are absent
from the rulebook text and our excerpts are partly reconstructed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .charts import Provenance, parse_provenance, read_data_file, require
from .errors import DataError
from .hexgrid import Hex, OffsetLayout, hexside


@dataclass(frozen=True)
class HexInfo:
    terrain: str
    features: frozenset[str] = frozenset()
    attrs: tuple[tuple[str, Any], ...] = ()
    provenance: Provenance = Provenance("reconstructed")

    def attr(self, key: str, default: Any = None) -> Any:
        return dict(self.attrs).get(key, default)


@dataclass(frozen=True)
class SideInfo:
    features: frozenset[str]
    provenance: Provenance = Provenance("reconstructed")


@dataclass
class MapData:
    name: str
    sheet: str
    layout: OffsetLayout
    hexes: dict[Hex, HexInfo]
    hexsides: dict[frozenset, SideInfo] = field(default_factory=dict)
    source: str = "<memory>"

    # -- labels
    def hex(self, label: str) -> Hex:
        """The hex with this printed label; malformed or off-map labels raise DataError."""
        h = self.layout.parse(label, source=self.name if self.source == "<memory>" else self.source)
        if h not in self.hexes:
            raise DataError(self.name if self.source == "<memory>" else self.source, repr(label),
                            f"hex {label} is not on this map ({self.name}, {self.sheet} sheet)")
        return h

    def label(self, h: Hex) -> str:
        return self.layout.label(h)

    def key(self, h: Hex) -> str:
        """A label that includes the sheet, e.g. ``"north:1316"``."""
        return f"{self.sheet}:{self.label(h)}"

    # -- queries
    def __contains__(self, h: Hex) -> bool:
        return h in self.hexes

    def info(self, h: Hex) -> HexInfo:
        return self.hexes[h]

    def terrain(self, h: Hex) -> str:
        return self.hexes[h].terrain

    def has(self, h: Hex, feature: str) -> bool:
        return feature in self.hexes[h].features

    def side(self, a: Hex, b: Hex) -> frozenset[str]:
        info = self.hexsides.get(hexside(a, b))
        return info.features if info else frozenset()

    def neighbors(self, h: Hex) -> list[Hex]:
        return [n for n in h.neighbors() if n in self.hexes]


def load_map(path: str | Path, terrains: Iterable[str], features: Iterable[str],
             side_features: Iterable[str], data: Any = None) -> MapData:
    """Load a map from YAML, checking terrain and feature names against the game's vocabulary.

    Layout::

        name: ...
        sheet: north
        layout: {parity: even-q, col_digits: 2, row_digits: 2}
        provenance: {kind: reconstructed, source: ...}      # default for every hex and hexside
        fill: {cols: [3, 22], rows: [6, 24], terrain: clear}  # optional rectangle, or a list of them
        hexes:
          "1316": {terrain: clear, features: [strongpoint], strongpoint: AM-1, provenance: ...}
        hexsides:
          - {between: ["1316", "1315"], features: [barbed_wire]}
    """
    file, data, default = read_data_file(path, data)
    terrains, features, side_features = set(terrains), set(features), set(side_features)
    name = require(data, "name", str, file)
    sheet = require(data, "sheet", str, file)
    lay = require(data, "layout", dict, file)
    try:
        layout = OffsetLayout(lay.get("parity", "even-q"), lay.get("col_digits", 2),
                              lay.get("row_digits", 2), lay.get("separator", ""))
    except (ValueError, TypeError) as e:
        raise DataError(file, "layout", str(e)) from None
    hexes: dict[Hex, HexInfo] = {}
    fill = data.get("fill")
    fills = fill if isinstance(fill, list) else [] if fill is None else [fill]
    for i, rect in enumerate(fills):
        where = "fill" if not isinstance(fill, list) else f"fill[{i}]"
        cols = require(rect, "cols", list, file, where)
        rows = require(rect, "rows", list, file, where)
        terr = require(rect, "terrain", str, file, where)
        if terr not in terrains:
            raise DataError(file, f"{where}.terrain", f"unknown terrain {terr!r}; expected one of {sorted(terrains)}")
        for c in range(cols[0], cols[1] + 1):
            for r in range(rows[0], rows[1] + 1):
                hexes[layout.to_hex(c, r)] = HexInfo(terr, provenance=default)
    hexes_spec = data.get("hexes") or {}
    if not isinstance(hexes_spec, dict):
        raise DataError(file, "hexes", f"must be a mapping of hex label to terrain, not {type(hexes_spec).__name__}")
    if not hexes_spec and fill is None:
        raise DataError(file, "hexes", "is missing (give hexes, a fill rectangle, or both)")
    for label, spec in hexes_spec.items():
        where = f"hexes[{label}]"
        h = layout.parse(str(label), source=file)
        if not isinstance(spec, dict):
            raise DataError(file, where, "must be a mapping with at least 'terrain'")
        terr = require(spec, "terrain", str, file, where)
        if terr not in terrains:
            raise DataError(file, f"{where}.terrain", f"unknown terrain {terr!r}; expected one of {sorted(terrains)}")
        feats = spec.get("features", []) or []
        if not isinstance(feats, list):
            raise DataError(file, f"{where}.features", "must be a list")
        for f in feats:
            if f not in features:
                raise DataError(file, f"{where}.features", f"unknown feature {f!r}; expected one of {sorted(features)}")
        attrs = tuple(sorted((k, v) for k, v in spec.items() if k not in ("terrain", "features", "provenance")))
        prov = parse_provenance(spec.get("provenance"), file, f"{where}.provenance", default)
        hexes[h] = HexInfo(terr, frozenset(feats), attrs, prov)
    sides: dict[frozenset, SideInfo] = {}
    for i, spec in enumerate(data.get("hexsides") or []):
        where = f"hexsides[{i}]"
        pair = require(spec, "between", list, file, where)
        if len(pair) != 2:
            raise DataError(file, f"{where}.between", "must name exactly two hexes")
        a, b = (layout.parse(str(x), source=file) for x in pair)
        if not a.is_adjacent(b):
            raise DataError(file, f"{where}.between", f"{pair[0]} and {pair[1]} are not adjacent")
        for h, lab in ((a, pair[0]), (b, pair[1])):
            if h not in hexes:
                raise DataError(file, f"{where}.between", f"hex {lab} is not on the map")
        feats = require(spec, "features", list, file, where)
        for f in feats:
            if f not in side_features:
                raise DataError(file, f"{where}.features",
                                f"unknown hexside feature {f!r}; expected one of {sorted(side_features)}")
        prov = parse_provenance(spec.get("provenance"), file, f"{where}.provenance", default)
        key = hexside(a, b)
        old = sides.get(key)
        sides[key] = SideInfo((old.features if old else frozenset()) | frozenset(feats), prov)
    return MapData(name, sheet, layout, hexes, sides, file)


def copy_sharing(obj: Any, *attrs: str) -> Any:
    """Deep-copy ``obj`` but share its attributes ``attrs`` (maps, charts: data that never changes in play)."""
    import copy
    memo = {id(v): v for v in (getattr(obj, a) for a in attrs) if v is not None}
    return copy.deepcopy(obj, memo)


def copy_sharing_map(obj: Any, holder: Any = None) -> Any:
    """Deep-copy ``obj`` while sharing the (immutable) map held in ``holder.map`` (default: ``obj.map``).

    Game states and phases are copied for undo and for enumeration; the map never changes, so copying it
    would only cost time.
    """
    import copy
    holder = obj if holder is None else holder
    m, holder.map = holder.map, None
    try:
        new = copy.deepcopy(obj)
    finally:
        holder.map = m
    return new, m
