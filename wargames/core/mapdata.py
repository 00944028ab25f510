"""Map data: terrain per hex, features per hexside, printed labels at the boundary.

A map declares its offset layout (Citadel: "even-q", labels XXYY) and, because
both of Citadel's sheets reuse the same labels, the sheet it belongs to.
Every hex and hexside carries a provenance, since most printed maps are absent
from the rulebook text and our excerpts are partly reconstructed.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable

from .charts import PROVENANCE, Provenance, file_provenance
from .errors import DataError
from .hexgrid import Hex, OffsetLayout, SheetedLayout, hexside
from .schema import (Convert, Either, Int, IntRange, Invalid, List, Map, Opt, Record, Schema, Str, Tuple,
                     load_file, place)
from .copies import immutable
from .yamlio import read_yaml


@dataclass(frozen=True)
class HexInfo:
    terrain: str
    features: frozenset[str] = frozenset()
    attrs: tuple[tuple[str, Any], ...] = ()
    provenance: Provenance = Provenance("reconstructed")

    def __deepcopy__(self, memo) -> "HexInfo":
        return self if all(isinstance(v, (str, int, float, bool, frozenset, type(None))) or (
            isinstance(v, tuple) and all(isinstance(x, (str, int)) for x in v)) for _, v in self.attrs) else \
            HexInfo(self.terrain, self.features, copy.deepcopy(self.attrs, memo), self.provenance)

    def attr(self, key: str, default: Any = None) -> Any:
        for k, v in reversed(self.attrs):           # the last one written wins, as in a dict
            if k == key:
                return v
        return default


@dataclass(frozen=True)
@immutable
class SideInfo:
    features: frozenset[str]
    provenance: Provenance = Provenance("reconstructed")


@dataclass
class MapData:
    name: str
    sheet: str
    layout: OffsetLayout | SheetedLayout
    hexes: dict[Hex, HexInfo]
    hexsides: dict[frozenset, SideInfo] = field(default_factory=dict)
    source: str = "<memory>"

    def __post_init__(self):
        # What is worked out from the layout or the whole map once and remembered: parsed labels, labels of
        # hexes, and :meth:`derived` values. A map does not change in play.
        self._parsed: dict[str, Hex] = {}
        self._labels: dict[Hex, str] = {}
        self._derived: dict[Any, Any] = {}

    # -- labels
    def hex(self, label: str) -> Hex:
        """The hex with this printed label; malformed or off-map labels raise DataError. Parsed labels are
        remembered (the layout never changes), so play that names hexes by label pays the parse once."""
        h = self.parse(label)
        if h not in self.hexes:
            raise DataError(self.name if self.source == "<memory>" else self.source, repr(label),
                            f"hex {label} is not on this map ({self.name}, {self.sheet} sheet)")
        return h

    def parse(self, label: str) -> Hex:
        """The hex a printed label names, whether or not it is on this map (a malformed label raises DataError).
        Parsed labels are remembered: the layout never changes."""
        parsed = self._parsed
        h = parsed.get(label) if isinstance(label, str) else None
        if h is None:
            h = self.layout.parse(label, source=self.name if self.source == "<memory>" else self.source)
            if isinstance(label, str):
                parsed[label] = h
        return h

    def label(self, h: Hex) -> str:
        labels = self._labels
        text = labels.get(h)
        if text is None:
            text = labels[h] = self.layout.label(h)
        return text

    def key(self, h: Hex) -> str:
        """A label that includes the sheet, e.g. ``"north:1316"``."""
        return f"{self.sheet}:{self.label(h)}"

    # -- queries
    def __contains__(self, h: Hex) -> bool:
        return h in self.hexes

    def info(self, h: Hex) -> HexInfo:
        return self.hexes[h]

    def derived(self, key: Any, compute: Callable[[], Any]) -> Any:
        """``compute()``, a value worked out from the map alone (its villages, its jungle hexes), remembered under
        ``key``: a map does not change in play. The value is shared, so callers must not change it."""
        memo = self._derived
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    def terrain(self, h: Hex) -> str:
        return self.hexes[h].terrain

    def has(self, h: Hex, feature: str) -> bool:
        return feature in self.hexes[h].features

    def side(self, a: Hex, b: Hex) -> frozenset[str]:
        if not self.hexsides:
            return frozenset()
        info = self.hexsides.get(hexside(a, b))
        return info.features if info else frozenset()

    def neighbors(self, h: Hex) -> list[Hex]:
        """The adjacent hexes on the map (remembered per hex while the set of hexes stays the same)."""
        memo = self.__dict__.get("_neighbors")
        if memo is None or memo[0] != len(self.hexes):
            memo = (len(self.hexes), {})
            self.__dict__["_neighbors"] = memo
        got = memo[1].get(h)
        if got is None:
            got = memo[1][h] = tuple(n for n in h.neighbors() if n in self.hexes)
        return list(got)


MAX_HEXES = 20_000      # the largest printed map of the four games has under 3,000 hexes


def map_schema(terrains: Iterable[str], features: Iterable[str], side_features: Iterable[str],
               attrs: dict[str, Schema] | None = None) -> Record:
    """The layout of a map file (see :func:`load_map`) for one game's vocabulary.

    ``attrs`` declares the game's own per-hex fields (Citadel ``strongpoint``, Indochina ``country``); a map
    with any other field is refused.
    """
    terrain = Str(sorted(terrains))
    label = Str(key=True, min_len=1, max_len=12, what="a hex label")
    hex_fields = {"features": Opt(List(Str(sorted(features)), max_len=20, unique=True), []),
                  "provenance": Opt(PROVENANCE)}
    hex_spec = Record({"terrain": terrain}, {**hex_fields, **{k: Opt(v) for k, v in (attrs or {}).items()}},
                      what="a hex {terrain, features, ...}")
    digits = Int(1, 4)
    fill = Record({"cols": IntRange(0, 9999), "rows": IntRange(0, 9999), "terrain": terrain},
                  {"sheet": Opt(Str(pattern=r"[A-Z]{1,2}", what="a sheet letter"))},
                  what="a fill rectangle {cols, rows, terrain, sheet}")
    sheet = Record({"letter": Str(pattern=r"[A-Z]{1,2}", what="a sheet letter such as 'N'"),
                    "row_offset": Int(0, 9999)}, what="a sheet {letter, row_offset}")
    side = Record({"between": Tuple(label, label), "features": List(Str(sorted(side_features)), min_len=1,
                                                                     max_len=10, unique=True)},
                  {"provenance": Opt(PROVENANCE)}, what="a hexside {between, features}")

    def check(v: dict) -> None:
        lay = v["layout"]
        if v["sheets"]:
            try:
                lay = v["layout"] = SheetedLayout(lay, tuple((s["letter"], s["row_offset"]) for s in v["sheets"]))
            except ValueError as e:
                raise Invalid("sheets", str(e)) from None
        for i, rect in enumerate(v["fill"]):
            where = "fill" if len(v["fill"]) == 1 else f"fill[{i}]"
            if isinstance(lay, SheetedLayout):
                if rect["sheet"] not in dict(lay.sheets):
                    raise Invalid(f"{where}.sheet", f"must name one of the sheets ({'/'.join(dict(lay.sheets))})")
                first, last = lay.span(rect["sheet"])
                if rect["rows"][0] < first or (last is not None and rect["rows"][1] > last):
                    raise Invalid(f"{where}.rows", f"goes past sheet {rect['sheet']}'s rows")
            elif rect["sheet"] is not None:
                raise Invalid(f"{where}.sheet", "names a sheet, but the map has no sheets section")
            for axis, digits_ in (("cols", lay.col_digits), ("rows", lay.row_digits)):
                if rect[axis][1] >= 10 ** digits_:
                    raise Invalid(f"{where}.{axis}", f"goes past {10 ** digits_ - 1}, the highest "
                                                     f"{digits_}-digit label")
        size = sum((r["cols"][1] - r["cols"][0] + 1) * (r["rows"][1] - r["rows"][0] + 1) for r in v["fill"])
        if size + len(v["hexes"]) > MAX_HEXES:
            raise Invalid("fill", f"makes a map of {size + len(v['hexes']):,} hexes; a map may have at most "
                                  f"{MAX_HEXES:,}")
        if not v["hexes"] and not v["fill"]:
            raise Invalid("hexes", "is missing (give hexes, a fill rectangle, or both)")

    layout = Record({}, {"parity": Opt(Str(("even-q", "odd-q")), "even-q"), "col_digits": Opt(digits, 2),
                         "row_digits": Opt(digits, 2), "separator": Opt(Str(max_len=2), "")},
                    build=lambda v: OffsetLayout(v["parity"], v["col_digits"], v["row_digits"], v["separator"]),
                    what="a layout {parity, col_digits, row_digits, separator}")
    return Record(
        {"name": Str(min_len=1, max_len=200), "sheet": Str(min_len=1, max_len=40), "layout": layout},
        {"provenance": Opt(PROVENANCE), "notes": Opt(Str(), ""),
         "fill": Opt(Either(Convert(fill, lambda r: [r]), List(fill, max_len=100)), []),
         "sheets": Opt(List(sheet, min_len=1, max_len=10), []),
         "hexes": Opt(Map(label, hex_spec, max_len=MAX_HEXES), {}),
         "hexsides": Opt(List(side, max_len=10 * MAX_HEXES), [])},
        check=check, what="a map")


def load_map(path: str | Path, terrains: Iterable[str], features: Iterable[str],
             side_features: Iterable[str], data: Any = None, attrs: dict[str, Schema] | None = None) -> MapData:
    """Load a map from YAML, checking terrain and feature names against the game's vocabulary.

    Layout::

        name: ...
        sheet: north
        layout: {parity: even-q, col_digits: 2, row_digits: 2}
        provenance: {kind: reconstructed, source: ...}      # default for every hex and hexside
        fill: {cols: [3, 22], rows: [6, 24], terrain: clear}  # optional rectangle, or a list of them
        sheets:                                               # optional: printed sheets joined into one map
          - {letter: N, row_offset: 0}                        # labels "N1316"; fills then name their sheet
          - {letter: S, row_offset: 33}                       # S row 01 lies below N row 33
        hexes:
          "1316": {terrain: clear, features: [strongpoint], strongpoint: AM-1, provenance: ...}
        hexsides:
          - {between: ["1316", "1315"], features: [barbed_wire]}

    ``attrs`` declares the game's own per-hex fields and their schemas. With ``sheets`` the map's layout is a
    :class:`~wargames.core.hexgrid.SheetedLayout` and every label names its sheet.
    """
    file = str(path)
    raw = read_yaml(path) if data is None else data
    v = load_file(path, map_schema(terrains, features, side_features, attrs), raw)
    layout = v["layout"]
    default = file_provenance(path, v["provenance"])
    hexes: dict[Hex, HexInfo] = {}
    for rect in v["fill"]:
        shift = layout.offset(rect["sheet"]) if rect["sheet"] else 0
        for c in range(rect["cols"][0], rect["cols"][1] + 1):
            for r in range(rect["rows"][0], rect["rows"][1] + 1):
                hexes[layout.to_hex(c, r + shift)] = HexInfo(rect["terrain"], provenance=default)

    def parsed(lab: str, where: str) -> Hex:
        try:
            return layout.parse(lab, source=file)
        except DataError as e:
            raise place(DataError(file, where, f"{lab!r} is {e.reason}"), raw) from None

    for lab, spec in v["hexes"].items():
        h = parsed(lab, f"hexes[{lab}]")
        extra = tuple(sorted((k, val) for k, val in spec.items()
                             if k not in ("terrain", "features", "provenance") and val is not None))
        hexes[h] = HexInfo(spec["terrain"], frozenset(spec["features"]), extra, spec["provenance"] or default)
    sides: dict[frozenset, SideInfo] = {}
    for i, spec in enumerate(v["hexsides"]):
        where = f"hexsides[{i}].between"
        (la, lb) = spec["between"]
        a, b = parsed(la, f"{where}[0]"), parsed(lb, f"{where}[1]")
        if not a.is_adjacent(b):
            raise place(DataError(file, where, f"{la} and {lb} are not adjacent"), raw)
        for h, lab in ((a, la), (b, lb)):
            if h not in hexes:
                raise place(DataError(file, where, f"hex {lab} is not on the map"), raw)
        key = hexside(a, b)
        old = sides.get(key)
        sides[key] = SideInfo((old.features if old else frozenset()) | frozenset(spec["features"]),
                              spec["provenance"] or default)
    return MapData(v["name"], v["sheet"], layout, hexes, sides, file)


def copy_sharing(obj: Any, *attrs: str) -> Any:
    """Deep-copy ``obj`` but share its attributes ``attrs`` (maps, charts: data that never changes in play)."""
    memo = {id(v): v for v in (getattr(obj, a) for a in attrs) if v is not None}
    return copy.deepcopy(obj, memo)


def copy_sharing_map(obj: Any, holder: Any = None) -> Any:
    """Deep-copy ``obj`` while sharing the (immutable) map held in ``holder.map`` (default: ``obj.map``).

    Game states and phases are copied for undo and for enumeration; the map never changes, so copying it
    would only cost time.
    """
    holder = obj if holder is None else holder
    m, holder.map = holder.map, None
    try:
        new = copy.deepcopy(obj)
    finally:
        holder.map = m
    return new, m
