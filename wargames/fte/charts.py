"""Front Toward Enemy's charts as data, each value with a provenance, and the constraints the text puts on them.

Most of FTE's charts are printed only in part (catalog F-3). The shipped YAML files complete them with
reconstructed values; :data:`CONSTRAINTS` lists everything the rules and the worked examples imply, and
:func:`check_constraints` runs them on the shipped charts or on charts an owner types in from the printed
sheet (:func:`load_charts`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..core import ColumnTable, Provenance, implements, load_column_table
from ..core.charts import Constraint, failed_constraints, parse_provenance, read_data_file, require
from ..core.errors import DataError

DATA = Path(__file__).parent / "data" / "charts"

EFFECTS = ("KIA", "WIA", "B", "S", "S?")
#: Severity of a Target Effects result: lower is worse for the target.
SEVERITY = {e: i for i, e in enumerate(EFFECTS)}
WEAPON_COLUMNS = {"SA": "small_arms", "DP": "dual_purpose", "HE": "he"}
TERRAINS = ("clear", "hamlet", "grass", "rice_paddy", "jungle")
MOVE_CLASSES = ("infantry", "vehicle", "helicopter_air", "helicopter_ground")


# --------------------------------------------------------------------------- cell parsers

def _effect(raw: Any, file: str, cell: str) -> str:
    if raw not in EFFECTS:
        raise DataError(file, cell, f"{raw!r} is not a fire effect; expected one of {', '.join(EFFECTS)}")
    return raw


@dataclass(frozen=True)
class FireMissionResult:
    """A Fire Request Table entry: a mission type and its delay in turns, or a denial."""

    mission: str | None  # "BN Mortar", "ARTY" or None for denied
    delay: int | None

    @property
    def denied(self) -> bool:
        return self.mission is None

    def __str__(self) -> str:
        return "Request Denied" if self.denied else f"{self.mission} {self.delay}"


def _fire_request(raw: Any, file: str, cell: str) -> FireMissionResult:
    if raw == "Denied":
        return FireMissionResult(None, None)
    text = str(raw)
    for kind in ("BN Mortar", "ARTY"):
        if text.startswith(kind + " ") and text[len(kind) + 1:].isdigit():
            return FireMissionResult(kind, int(text[len(kind) + 1:]))
    raise DataError(file, cell, f"{raw!r} is not a fire mission like 'BN Mortar 1', 'ARTY 2' or 'Denied'")


def _arrival(raw: Any, file: str, cell: str) -> int | None:
    if raw == "Denied":
        return None
    if isinstance(raw, int) and not isinstance(raw, bool) and raw >= 1:
        return raw
    raise DataError(file, cell, f"{raw!r} is not a number of turns (1 or more) or 'Denied'")


EVENTS = ("Injury", "Low Ammo", "Hero", "Rally", "Higher HQ", "Check Fire", "Aerial Observer", "AH-1 Cobras",
          "NVA Artillery", "VC", "No Event")


def _event(raw: Any, file: str, cell: str) -> str:
    if raw not in EVENTS:
        raise DataError(file, cell, f"{raw!r} is not a random event; expected one of {', '.join(EVENTS)}")
    return raw


# --------------------------------------------------------------------------- terrain effects

@dataclass(frozen=True)
class Valued:
    """A chart value with its provenance."""

    value: Any
    provenance: Provenance


@dataclass
class TerrainChart:
    """The Terrain Effects Chart: per terrain, its concealment and fire modifiers, movement costs and blocking;
    per feature (trail, road, slope), its movement cost and modifiers."""

    terrain: dict[str, dict[str, Valued]]
    features: dict[str, dict[str, Valued]]
    source: str = "<memory>"

    def value(self, terrain: str, key: str) -> Any:
        return self.terrain[terrain][key].value

    def feature(self, feature: str, key: str) -> Any:
        return self.features[feature][key].value

    def cells(self):
        for t, row in self.terrain.items():
            for k, v in row.items():
                yield (t, k), v
        for f, row in self.features.items():
            for k, v in row.items():
                yield (f, k), v


def _cost(raw: Any, file: str, cell: str) -> Fraction | None:
    if raw == "P":
        return None
    try:
        value = Fraction(str(raw))
    except (ValueError, ZeroDivisionError):
        raise DataError(file, cell, f"{raw!r} is not a movement cost (a number, '1.5' or 'P')") from None
    if value < 0:
        raise DataError(file, cell, f"a movement cost cannot be negative ({raw!r})")
    return value


def _int(raw: Any, file: str, cell: str) -> int:
    if not isinstance(raw, int) or isinstance(raw, bool):
        raise DataError(file, cell, f"must be a whole number, not {raw!r}")
    return raw


def _bool(raw: Any, file: str, cell: str) -> bool:
    if not isinstance(raw, bool):
        raise DataError(file, cell, f"must be true or false, not {raw!r}")
    return raw


_TERRAIN_KEYS = {"concealment": _int, "fire": _int, "blocking": _bool, **{k: _cost for k in MOVE_CLASSES}}
_FEATURE_KEYS = {"opportunity_fire": _int, **{k: _cost for k in MOVE_CLASSES}}


def _rows(spec: Any, keys: dict, required: tuple, file: str, where: str, default: Provenance) -> dict:
    if not isinstance(spec, dict):
        raise DataError(file, where, "must be a mapping")
    out = {}
    for name, row in spec.items():
        w = f"{where}.{name}"
        if not isinstance(row, dict):
            raise DataError(file, w, "must be a mapping of values")
        provs = row.get("provenance") or {}
        if not isinstance(provs, dict):
            raise DataError(file, f"{w}.provenance", "must map each value to its provenance")
        if "kind" in provs:  # one provenance for the whole row
            provs = {k: provs for k in row if k != "provenance"}
        vals = {}
        for k in required:
            if k not in row:
                raise DataError(file, f"{w}.{k}", "is missing")
        for k, raw in row.items():
            if k == "provenance":
                continue
            if k not in keys:
                raise DataError(file, f"{w}.{k}", f"unknown column; expected one of {', '.join(keys)}")
            prov = parse_provenance(provs.get(k), file, f"{w}.provenance.{k}", default)
            vals[k] = Valued(keys[k](raw, file, f"{w}.{k}"), prov)
        extra = set(provs) - set(vals)
        if extra:
            raise DataError(file, f"{w}.provenance.{sorted(extra)[0]}", "names no value of this row")
        out[str(name)] = vals
    return out


@implements("F TEC")
def load_terrain_chart(path: str | Path = DATA / "terrain_effects.yaml", data: Any = None) -> TerrainChart:
    """Load a Terrain Effects Chart; every terrain needs every column, features only movement costs."""
    file, data, default = read_data_file(path, data)
    terrain = _rows(require(data, "terrain", dict, file), _TERRAIN_KEYS, tuple(_TERRAIN_KEYS), file, "terrain", default)
    unknown = set(terrain) - set(TERRAINS)
    if unknown:
        raise DataError(file, f"terrain.{sorted(unknown)[0]}", f"unknown terrain; expected one of {', '.join(TERRAINS)}")
    features = _rows(require(data, "features", dict, file), _FEATURE_KEYS, MOVE_CLASSES, file, "features", default)
    for f in ("trail", "road", "slope"):
        if f not in features:
            raise DataError(file, f"features.{f}", "is missing")
    return TerrainChart(terrain, features, file)


# --------------------------------------------------------------------------- VP chart and marker DRMs

@dataclass
class PointsChart:
    """Rows of named events, each with a value per column (VP chart: US and NVA/VC; markers: fire and tq)."""

    name: str
    rule: str
    rows: dict[str, dict[str, Valued]]
    titles: dict[str, str] = field(default_factory=dict)
    source: str = "<memory>"

    def value(self, row: str, column: str) -> int:
        return self.rows[row][column].value


def _points(path, data, key: str, columns: tuple[str, ...]) -> PointsChart:
    file, data, default = read_data_file(path, data)
    name = require(data, "name", str, file)
    rule = require(data, "rule", str, file)
    spec = require(data, key, dict, file)
    rows, titles = {}, {}
    for row_name, row in spec.items():
        w = f"{key}.{row_name}"
        if not isinstance(row, dict):
            raise DataError(file, w, "must be a mapping")
        provs = row.get("provenance") or {}
        if isinstance(provs, dict) and "kind" in provs:
            provs = {c: provs for c in columns}
        vals = {}
        for c in columns:
            if c not in row:
                raise DataError(file, f"{w}.{c}", "is missing")
            vals[c] = Valued(_int(row[c], file, f"{w}.{c}"),
                             parse_provenance(provs.get(c), file, f"{w}.provenance.{c}", default))
        extra = set(row) - set(columns) - {"provenance", "title"}
        if extra:
            raise DataError(file, f"{w}.{sorted(extra)[0]}", f"unknown column; expected {', '.join(columns)}")
        rows[str(row_name)] = vals
        titles[str(row_name)] = str(row.get("title", row_name))
    return PointsChart(name, rule, rows, titles, file)


VP_EVENTS = ("enemy_kia", "enemy_wia", "capture_wia", "wia_evacuated", "kia_evacuated", "dow", "rtd",
             "helicopter_destroyed", "helicopter_downed", "vehicle_destroyed", "cache_revealed", "cache_destroyed", "civilian_casualty")
MARKERS = ("exhausted", "low_ammo", "carrying_kia", "suppressed", "broken", "hero")


@implements("F VP Chart")
def load_vp_chart(path: str | Path = DATA / "victory_points.yaml", data: Any = None) -> PointsChart:
    chart = _points(path, data, "events", ("US", "NVA/VC"))
    missing = [e for e in VP_EVENTS if e not in chart.rows]
    if missing:
        raise DataError(chart.source, f"events.{missing[0]}", "is missing")
    return chart


@implements("F Marker DRMs")
def load_marker_drms(path: str | Path = DATA / "markers.yaml", data: Any = None) -> PointsChart:
    chart = _points(path, data, "markers", ("fire", "tq"))
    missing = [m for m in MARKERS if m not in chart.rows]
    if missing:
        raise DataError(chart.source, f"markers.{missing[0]}", "is missing")
    return chart


# --------------------------------------------------------------------------- roll tables

@implements("F TET")
def load_target_effects(path: str | Path = DATA / "target_effects.yaml", data: Any = None) -> ColumnTable:
    table = load_column_table(path, _effect, data, named_columns=True)
    _need_columns(table, tuple(WEAPON_COLUMNS.values()))
    return table


@implements("F Fire Request Table")
def load_fire_request(path: str | Path = DATA / "fire_request.yaml", data: Any = None) -> ColumnTable:
    table = load_column_table(path, _fire_request, data, named_columns=True)
    _need_columns(table, ("US", "NVA"))
    return table


@implements("F Medevac Table")
def load_medevac(path: str | Path = DATA / "medevac.yaml", data: Any = None) -> ColumnTable:
    table = load_column_table(path, _arrival, data, named_columns=True)
    _need_columns(table, ("arrival",))
    return table


@implements("F Random Event Table")
def load_random_events(path: str | Path = DATA / "random_events.yaml", data: Any = None) -> ColumnTable:
    table = load_column_table(path, _event, data, named_columns=True)
    _need_columns(table, ("US", "NVA/VC"))
    return table


def _need_columns(table: ColumnTable, names: tuple[str, ...]) -> None:
    have = [c.label for c in table.columns]
    for n in names:
        if n not in have:
            raise DataError(table.source, "columns", f"must include {n!r} (has {have})")
    if table.rows != list(range(1, 11)):
        raise DataError(table.source, "rows", "must be the ten rolls of a d10, 1 to 10")


# --------------------------------------------------------------------------- the chart set

@dataclass
class Charts:
    """Every FTE chart the engine reads."""

    tec: TerrainChart
    tet: ColumnTable
    fire_request: ColumnTable
    medevac: ColumnTable
    events: ColumnTable
    vp: PointsChart
    markers: PointsChart
    fire_missions: Any = None       # the FireMissionChart of wargames.fte.fire_missions (None: the shipped one)


@lru_cache(maxsize=None)
def default_charts() -> Charts:
    """The shipped charts (printed values plus marked reconstructions)."""
    return Charts(load_terrain_chart(), load_target_effects(), load_fire_request(), load_medevac(),
                  load_random_events(), load_vp_chart(), load_marker_drms())


def load_charts(directory: str | Path) -> Charts:
    """Load an owner's printed charts from a directory holding any of the shipped file names; files that are
    absent fall back to the shipped ones."""
    d = Path(directory)
    shipped = default_charts()

    def pick(name, loader, fallback):
        p = d / name
        return loader(p) if p.exists() else fallback

    return Charts(pick("terrain_effects.yaml", load_terrain_chart, shipped.tec),
                  pick("target_effects.yaml", load_target_effects, shipped.tet),
                  pick("fire_request.yaml", load_fire_request, shipped.fire_request),
                  pick("medevac.yaml", load_medevac, shipped.medevac),
                  pick("random_events.yaml", load_random_events, shipped.events),
                  pick("victory_points.yaml", load_vp_chart, shipped.vp),
                  pick("markers.yaml", load_marker_drms, shipped.markers))


# --------------------------------------------------------------------------- constraints (catalog F-3)

def _tet(c: Charts, col: str, roll: int) -> str:
    return c.tet.get(col, roll).value


def _monotone(c: Charts) -> bool:
    for col in WEAPON_COLUMNS.values():
        sev = [SEVERITY[_tet(c, col, r)] for r in range(1, 11)]
        if any(b < a for a, b in zip(sev, sev[1:])):
            return False
    return True


def _fr(c: Charts, col: str, roll: int) -> str:
    return str(c.fire_request.get(col, roll).value)


CONSTRAINTS: list[Constraint] = [
    # Terrain Effects Chart
    Constraint("TEC-printed", "F 6.1", "the printed Clear, Hamlet and Grass rows and the Rice Paddy modifiers",
               lambda c: [[c.tec.value(t, k) for k in ("concealment", "fire", "infantry", "vehicle", "helicopter_air",
                                                        "helicopter_ground")] for t in ("clear", "hamlet", "grass")]
               == [[1, 0, 1, 2, 1, 1], [-2, 2, 1, 3, 1, None], [-1, 1, 1, 3, 1, 1]]
               and (c.tec.value("rice_paddy", "concealment"), c.tec.value("rice_paddy", "fire")) == (0, 1)),
    Constraint("TEC-jungle-fire", "Fire and Assault Examples", "jungle fire modifier +2",
               lambda c: c.tec.value("jungle", "fire") == 2),
    Constraint("TEC-jungle-move", "Movement Example", "jungle costs infantry 2 MP",
               lambda c: c.tec.value("jungle", "infantry") == 2),
    Constraint("TEC-trail", "Movement Example", "a trail costs infantry 1 MP",
               lambda c: c.tec.feature("trail", "infantry") == 1),
    Constraint("TEC-slope", "Movement Example", "a slope adds 2 MP for infantry, even on a trail",
               lambda c: c.tec.feature("slope", "infantry") == 2),
    Constraint("TEC-paddy", "Movement Example", "rice paddy costs infantry 1½ MP (hexes 23.18, 23.19, 23.21)",
               lambda c: c.tec.value("rice_paddy", "infantry") == Fraction(3, 2)),
    Constraint("TEC-heli-air", "F 6.8", "helicopters at High or Treetop pay 1 MP a hex in every terrain, slopes free",
               lambda c: all(c.tec.value(t, "helicopter_air") == 1 for t in c.tec.terrain)
               and c.tec.feature("slope", "helicopter_air") == 0),
    Constraint("TEC-heli-ground", "F 6.8", "no helicopter at ground level in jungle or hamlet",
               lambda c: c.tec.value("jungle", "helicopter_ground") is None
               and c.tec.value("hamlet", "helicopter_ground") is None),
    Constraint("TEC-blocking", "F 7.3.2", "hamlet, grass and jungle block LoS; clear and rice paddy do not",
               lambda c: {t for t in c.tec.terrain if c.tec.value(t, "blocking")} == {"hamlet", "grass", "jungle"}),
    Constraint("TEC-opfire", "TEC note a", "opportunity fire against a unit on a trail or road -1",
               lambda c: c.tec.feature("trail", "opportunity_fire") == -1 and c.tec.feature("road", "opportunity_fire") == -1),
    Constraint("TEC-clear-conceal", "Assault Example", "hex 20.20 (clear) has fire modifier 0",
               lambda c: c.tec.value("clear", "fire") == 0),
    # Target Effects Table
    Constraint("TET-printed", "F 7.4", "the printed rows 1-6 and small arms 7",
               lambda c: [[_tet(c, col, r) for col in ("small_arms", "dual_purpose", "he")] for r in range(1, 7)]
               == [["KIA", "KIA", "KIA"], ["WIA", "KIA", "KIA"], ["WIA", "WIA", "WIA"], ["B", "WIA", "WIA"],
                   ["B", "B", "WIA"], ["S", "B", "B"]] and _tet(c, "small_arms", 7) == "S"),
    Constraint("TET-SA8", "Assault Example", "small arms 8 is S", lambda c: _tet(c, "small_arms", 8) == "S"),
    Constraint("TET-SA9", "Assault Example", "small arms 9 is S?", lambda c: _tet(c, "small_arms", 9) == "S?"),
    Constraint("TET-B5", "Assault Example", "the NVA's effect roll of 5 breaks: 5 is B in its column (not HE)",
               lambda c: _tet(c, "small_arms", 5) == "B"),
    Constraint("TET-HE1", "Fire Example", "HE 1 is KIA", lambda c: _tet(c, "he", 1) == "KIA"),
    Constraint("TET-monotone", "F 7.4", "each column only gets milder as the roll rises", _monotone),
    Constraint("TET-possible", "F 7.4 legend", "S? appears in every column",
               lambda c: all(any(_tet(c, col, r) == "S?" for r in range(1, 11)) for col in WEAPON_COLUMNS.values())),
    # Fire Request Table
    Constraint("FR-printed", "F 13.0", "the printed rows 1-8",
               lambda c: [[_fr(c, col, r) for col in ("US", "NVA")] for r in range(1, 9)] ==
               [["BN Mortar 0"] * 2, ["BN Mortar 1"] * 2, ["BN Mortar 1", "BN Mortar 2"], ["ARTY 1", "BN Mortar 2"],
                ["BN Mortar 2", "BN Mortar 3"], ["ARTY 2", "Request Denied"], ["ARTY 3", "Request Denied"],
                ["Request Denied"] * 2]),
    Constraint("FR-1", "F 13.0", "a roll of 1 is a BN Mortar mission with no delay",
               lambda c: all(_fr(c, col, 1) == "BN Mortar 0" for col in ("US", "NVA"))),
    Constraint("FR-10", "F 13.0", "a roll of 10 is always denied",
               lambda c: all(_fr(c, col, 10) == "Request Denied" for col in ("US", "NVA"))),
    # Medevac, random events
    Constraint("MED-printed", "F 12.0", "the printed Medevac Request Table",
               lambda c: [c.medevac.get("arrival", r).value for r in range(1, 11)] == [1, 2, 2, 3, 3, 4, 4, 5, 5, None]),
    Constraint("RE-printed", "F 19.0", "the printed rows 1-8 and the No Event of row 9",
               lambda c: [c.events.get("US", r).value for r in range(1, 9)] ==
               ["Injury", "Low Ammo", "Hero", "Rally", "Higher HQ", "Check Fire", "Aerial Observer", "AH-1 Cobras"]
               and [c.events.get("NVA/VC", r).value for r in range(7, 9)] == ["NVA Artillery", "VC"]
               and c.events.get("US", 9).value == "No Event"),
    # Victory points
    Constraint("VP-printed", "F 29.0", "the printed rows of the VP chart",
               lambda c: [(c.vp.value(e, "US"), c.vp.value(e, "NVA/VC")) for e in
                          ("enemy_kia", "enemy_wia", "capture_wia", "wia_evacuated", "kia_evacuated", "dow", "rtd")]
               == [(3, 4), (3, 4), (2, 3), (3, 1), (2, 1), (-2, -1), (2, 2)]),
    Constraint("VP-fire-example", "Fire Example", "the US gains 3 VP for an NVA KIA",
               lambda c: c.vp.value("enemy_kia", "US") == 3),
    Constraint("VP-cases", "Errata clarification, cases 1-3",
               "NVA +4 for a US WIA; US DOW -2, KIA evacuated +2, RTD +2, WIA evacuated +3",
               lambda c: (c.vp.value("enemy_wia", "NVA/VC"), c.vp.value("dow", "US"), c.vp.value("kia_evacuated", "US"),
                          c.vp.value("rtd", "US"), c.vp.value("wia_evacuated", "US")) == (4, -2, 2, 2, 3)),
    Constraint("VP-helicopter", "F 29.0", "a destroyed helicopter is worth 8 to the NVA/VC (only the US has them)",
               lambda c: c.vp.value("helicopter_destroyed", "NVA/VC") == 8),
    # Marker DRMs
    Constraint("MK-text", "F 6.6, F 19.2, F 7.5.2", "Exhausted +1 fire and TQ, Low Ammo +1 fire, carrying a KIA +1 TQ",
               lambda c: (c.markers.value("exhausted", "fire"), c.markers.value("exhausted", "tq"),
                          c.markers.value("low_ammo", "fire"), c.markers.value("carrying_kia", "tq")) == (1, 1, 1, 1)),
    Constraint("MK-status", "F 1.2", "status markers only hurt, except the Hero's",
               lambda c: all(c.markers.value(m, k) >= 0 for m in ("suppressed", "broken") for k in ("fire", "tq"))
               and c.markers.value("broken", "tq") >= c.markers.value("suppressed", "tq")),
]


def check_constraints(charts: Charts | None = None) -> list[str]:
    """The ids of the constraints the charts break (empty when they satisfy them all)."""
    return failed_constraints(CONSTRAINTS, charts or default_charts())
