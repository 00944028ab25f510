"""Front Toward Enemy's charts as data, each value with a provenance, and the constraints the text puts on them.

Most of FTE's charts are printed only in part (catalog F-3). The shipped YAML files complete them with
reconstructed values; :data:`CONSTRAINTS` lists everything the rules and the worked examples imply, and
:func:`check_constraints` runs them on the shipped charts or on charts an owner types in from the printed
sheet (:func:`load_charts`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core import ColumnTable, Hex, Provenance, implements, load_column_table
from ..core.charts import PROVENANCE, Constraint, failed_constraints, file_provenance
from ..core.copies import record_deepcopy, valued_deepcopy
from ..core.errors import DataError
from ..core.schema import (Bool, Const, Convert, Either, Int, Invalid, Map, Number, Opt, Record, Schema, Str,
                           load_file, place)
from ..core.yamlio import load_once, read_yaml
from .units import WEAPONS

DATA = Path(__file__).parent / "data" / "charts"

EFFECTS = ("KIA", "WIA", "B", "S", "S?")
#: Severity of a Target Effects result: lower is worse for the target.
SEVERITY = {e: i for i, e in enumerate(EFFECTS)}
WEAPON_COLUMNS = {"SA": "small_arms", "DP": "dual_purpose", "HE": "he"}
TERRAINS = ("clear", "hamlet", "grass", "rice_paddy", "jungle")
MOVE_CLASSES = ("infantry", "vehicle", "helicopter_air", "helicopter_ground")
#: The dearest movement cost a chart may give each class: the dearest printed cost is 4 MP, 6 leaves room for an
#: owner's chart and still catches a typo; a helicopter at ground level has 2 MP in all (F 6.8), so a dearer hex
#: is written P.
MOST_COST = {"infantry": 6, "vehicle": 6, "helicopter_air": 6, "helicopter_ground": 2}


# --------------------------------------------------------------------------- cells

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


def _request(text: str) -> FireMissionResult:
    if text == "Denied":
        return FireMissionResult(None, None)
    kind, _, delay = text.rpartition(" ")
    return FireMissionResult(kind, int(delay))


EVENTS = ("Injury", "Low Ammo", "Hero", "Rally", "Higher HQ", "Check Fire", "Aerial Observer", "AH-1 Cobras",
          "NVA Artillery", "VC", "No Event")

#: The cell of each roll table.
EFFECT = Str(EFFECTS, what=f"a fire effect, one of {', '.join(EFFECTS)}")
FIRE_REQUEST = Convert(Str(pattern=r"Denied|(BN Mortar|ARTY) \d", what="a fire mission like 'BN Mortar 1', "
                                                                       "'ARTY 2' or 'Denied'"), _request)
#: A medevac's wait in turns: the printed chart's longest is 5.
ARRIVAL = Either(Convert(Const("Denied"), lambda _: None), Int(1, 6))
EVENT = Str(EVENTS, what=f"a random event, one of {', '.join(EVENTS)}")


# --------------------------------------------------------------------------- rows of values with provenances

@dataclass(frozen=True)
class Valued:
    """A chart value with its provenance."""

    value: Any
    provenance: Provenance

    __deepcopy__ = valued_deepcopy


class _Whole(dict):
    """One provenance given for a whole row (so for values the row may leave out too)."""


class RowProvenance(Schema):
    """The provenance of a row of values: one ``{kind, source}`` for the whole row, or one per value name."""

    accepts = (dict,)

    def __init__(self, names: tuple):
        self.names = names
        key = Int(min(names), max(names)) if all(isinstance(n, int) for n in names) else Str(names)
        self.each = Map(key, PROVENANCE)

    def check(self, value, at):
        if isinstance(value, dict) and "kind" in value:
            return _Whole.fromkeys(self.names, PROVENANCE.check(value, at))
        return self.each.check(value, at)

    def describe(self):
        return "a provenance {kind, source}, or one per value of the row"


def valued_rows(required: dict, optional: dict | None = None, extra: dict | None = None) -> Record:
    """A row of chart values, each given its provenance (the row's, else the file's: see :func:`valued`).

    ``extra`` are fields of the row that are not values (a title)."""
    names = tuple(required) + tuple(optional or {})

    def build(v: dict) -> dict:
        provs = v.pop("provenance") or {}
        values = {k: x for k, x in v.items() if k in names and (k in required or x is not None)}
        for k in () if isinstance(provs, _Whole) else provs:
            if k not in values:
                raise Invalid(f"provenance.{k}" if isinstance(k, str) else f"provenance[{k}]",
                              "names no value of this row")
        return {"values": {k: (x, provs.get(k)) for k, x in values.items()},
                **{k: v[k] for k in (extra or {})}}

    return Record(required, {**{k: Opt(s) for k, s in (optional or {}).items()},
                             "provenance": Opt(RowProvenance(names)), **(extra or {})}, build=build)


def valued(row: dict, default: Provenance) -> dict[Any, Valued]:
    """A row built by :func:`valued_rows` as Valued entries, the file's provenance where the row gives none."""
    return {k: Valued(x, p or default) for k, (x, p) in row["values"].items()}


def _head(name: str, rule: str) -> dict:
    """The optional fields every chart file of FTE has."""
    return {"name": Opt(Str(min_len=1, max_len=200), name), "rule": Opt(Str(min_len=1, max_len=40), rule),
            "provenance": Opt(PROVENANCE), "notes": Opt(Str(), "")}


# --------------------------------------------------------------------------- terrain effects

@dataclass
class TerrainChart:
    """The Terrain Effects Chart: per terrain, its concealment and fire modifiers, movement costs and blocking;
    per feature (trail, road, slope), its movement cost and modifiers."""

    __deepcopy__ = record_deepcopy      # a copy shares what cannot change (cells, provenance)

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


def _cost(most: int) -> Schema:
    """A movement cost: a number from 0 to the class's MP (``1.5`` or ``"1.5"`` for one and a half), or P."""
    def fraction(raw):
        return None if raw == "P" else Fraction(str(raw))
    what = f"a movement cost from 0 to {most} MP (a number, '1.5' or 'P' for prohibited)"
    text = Str(pattern=r"P|\d{1,2}(\.\d{1,3})?", what=what)

    def within(raw):
        value = fraction(raw)
        if value is not None and value > most:
            raise ValueError(f"{raw} is not {what}")
        return value
    return Either(Convert(text, within, what), Convert(Number(0, most), within, what))


MODIFIER = Int(-9, 9)
_COSTS = {k: _cost(MOST_COST[k]) for k in MOVE_CLASSES}
TERRAIN_CHART = Record(
    {"terrain": Record({t: valued_rows({"concealment": MODIFIER, "fire": MODIFIER, "blocking": Bool(), **_COSTS})
                        for t in TERRAINS}),
     "features": Record({f: valued_rows(_COSTS, {"opportunity_fire": MODIFIER}) for f in ("trail", "road", "slope")})},
    _head("Terrain Effects Chart", "F TEC"), what="a Terrain Effects Chart")


@implements("F TEC")
def load_terrain_chart(path: str | Path = DATA / "terrain_effects.yaml", data: Any = None) -> TerrainChart:
    """Load a Terrain Effects Chart; every terrain needs every column, features only movement costs."""
    v = load_file(path, TERRAIN_CHART, data)
    default = file_provenance(path, v["provenance"])
    return TerrainChart({t: valued(row, default) for t, row in v["terrain"].items()},
                        {f: valued(row, default) for f, row in v["features"].items()}, str(path))


# --------------------------------------------------------------------------- VP chart and marker DRMs

@dataclass
class PointsChart:
    """Rows of named events, each with a value per column (VP chart: US and NVA/VC; markers: fire and tq)."""

    __deepcopy__ = record_deepcopy      # a copy shares what cannot change (cells, provenance)

    name: str
    rule: str
    rows: dict[str, dict[str, Valued]]
    titles: dict[str, str] = field(default_factory=dict)
    source: str = "<memory>"

    def value(self, row: str, column: str) -> int:
        return self.rows[row][column].value


VP_EVENTS = ("enemy_kia", "enemy_wia", "capture_wia", "wia_evacuated", "kia_evacuated", "dow", "rtd",
             "helicopter_destroyed", "helicopter_downed", "vehicle_destroyed", "cache_revealed", "cache_destroyed", "civilian_casualty")
MARKERS = ("exhausted", "low_ammo", "carrying_kia", "suppressed", "broken", "hero")


def _points_schema(key: str, rows: tuple[str, ...], columns: tuple[str, ...], points: Schema, what: str) -> Record:
    row = valued_rows({c: points for c in columns}, extra={"title": Opt(Str(min_len=1, max_len=200))})
    return Record({"name": Str(min_len=1, max_len=200), "rule": Str(min_len=1, max_len=40),
                   key: Record({r: row for r in rows})},
                  {"provenance": Opt(PROVENANCE), "notes": Opt(Str(), "")}, what=what)


VP_CHART = _points_schema("events", VP_EVENTS, ("US", "NVA/VC"), Int(-20, 20), "a Victory Point Chart")
MARKER_DRMS = _points_schema("markers", MARKERS, ("fire", "tq"), MODIFIER, "a chart of status marker DRMs")


def _points(path, data, schema: Record, key: str) -> PointsChart:
    v = load_file(path, schema, data)
    default = file_provenance(path, v["provenance"])
    rows = {name: valued(row, default) for name, row in v[key].items()}
    titles = {name: row["title"] or name for name, row in v[key].items()}
    return PointsChart(v["name"], v["rule"], rows, titles, str(path))


@implements("F VP Chart")
def load_vp_chart(path: str | Path = DATA / "victory_points.yaml", data: Any = None) -> PointsChart:
    return _points(path, data, VP_CHART, "events")


@implements("F Marker DRMs")
def load_marker_drms(path: str | Path = DATA / "markers.yaml", data: Any = None) -> PointsChart:
    return _points(path, data, MARKER_DRMS, "markers")


# --------------------------------------------------------------------------- roll tables

def _roll_table(path, data, cell: Schema, columns: tuple[str, ...]) -> ColumnTable:
    """A d10 table read by named column: every column of ``columns``, and the rolls 1 to 10."""
    raw = read_yaml(path) if data is None else data
    table = load_column_table(path, cell, raw, named_columns=True)
    have = [c.label for c in table.columns]
    if have != list(columns):
        raise place(DataError(str(path), "columns", f"must be {list(columns)}, not {have}"), raw)
    if table.rows != list(range(1, 11)):
        raise place(DataError(str(path), "rows", "must be the ten rolls of a d10, 1 to 10"), raw)
    return table


@implements("F TET")
def load_target_effects(path: str | Path = DATA / "target_effects.yaml", data: Any = None) -> ColumnTable:
    return _roll_table(path, data, EFFECT, tuple(WEAPON_COLUMNS.values()))


@implements("F Fire Request Table")
def load_fire_request(path: str | Path = DATA / "fire_request.yaml", data: Any = None) -> ColumnTable:
    return _roll_table(path, data, FIRE_REQUEST, ("US", "NVA"))


@implements("F Medevac Table")
def load_medevac(path: str | Path = DATA / "medevac.yaml", data: Any = None) -> ColumnTable:
    return _roll_table(path, data, ARRIVAL, ("arrival",))


@implements("F Random Event Table")
def load_random_events(path: str | Path = DATA / "random_events.yaml", data: Any = None) -> ColumnTable:
    return _roll_table(path, data, EVENT, ("US", "NVA/VC"))


# --------------------------------------------------------------------------- fire missions (F 16.0)

MISSIONS = ("BN Mortar", "ARTY")

#: Axial steps for the compass names the chart may use (flat-topped hexes, rows numbered down the map).
COMPASS = {"north": (0, -1), "north-east": (1, -1), "south-east": (1, 0), "south": (0, 1),
           "south-west": (-1, 1), "north-west": (-1, 0)}


@dataclass
class FireMissionChart:
    """The fire-mission values: accuracy, the d6 direction indicator and, per mission, rating, weapon class,
    radius of the area hit and the scatter divisor. Each value carries its provenance."""

    __deepcopy__ = record_deepcopy      # a copy shares what cannot change (cells, provenance)

    accuracy: dict[str, Valued]
    directions: dict[int, Valued]
    missions: dict[str, dict[str, Valued]]
    source: str = "<memory>"

    def mission(self, name: str, key: str) -> Any:
        try:
            return self.missions[name][key].value
        except KeyError:
            raise DataError(self.source, f"missions.{name}.{key}", "is missing") from None

    def direction(self, roll: int) -> Hex:
        """The axial step of a direction roll."""
        dq, dr = COMPASS[self.directions[roll].value]
        return Hex(dq, dr)

    def cells(self):
        for k, v in self.accuracy.items():
            yield ("accuracy", k), v
        for k, v in self.directions.items():
            yield ("directions", k), v
        for m, row in self.missions.items():
            for k, v in row.items():
                yield (m, k), v



_ACCURACY = valued_rows({"on_target_max": Int(1, 10), "observer_drm": Int(-9, 0), "always_scatters": Int(1, 10)})
_DIRECTIONS = valued_rows({roll: Str(tuple(COMPASS)) for roll in range(1, 7)})
_MISSION = valued_rows({"fire_rating": Int(1, 10), "weapon": Str(WEAPONS), "radius": Int(1, 10),
                        "scatter_divisor": Int(1, 10)})
FIRE_MISSION_CHART = Record(
    {"name": Str(min_len=1, max_len=200), "accuracy": _ACCURACY, "directions": _DIRECTIONS,
     "missions": Record({m: _MISSION for m in MISSIONS})},
    {"rule": Opt(Str(min_len=1, max_len=40), "F 16.0"), "provenance": Opt(PROVENANCE), "notes": Opt(Str(), "")},
    what="a fire-mission chart")


@implements("F 16.0")
def load_fire_mission_chart(path: str | Path = DATA / "fire_missions.yaml", data: Any = None) -> FireMissionChart:
    """Load the fire-mission chart; every bad value raises DataError naming the file, the cell and the line."""
    v = load_file(path, FIRE_MISSION_CHART, data)
    default = file_provenance(path, v["provenance"])
    return FireMissionChart(valued(v["accuracy"], default), valued(v["directions"], default),
                            {m: valued(row, default) for m, row in v["missions"].items()}, str(path))


def default_fire_mission_chart() -> FireMissionChart:
    """The shipped fire-mission chart: the caller's own copy."""
    return load_once(load_fire_mission_chart, DATA / "fire_missions.yaml")


# --------------------------------------------------------------------------- the chart set

@dataclass
class Charts:
    """Every FTE chart the engine reads."""

    __deepcopy__ = record_deepcopy      # a copy shares what cannot change (cells, provenance)

    tec: TerrainChart
    tet: ColumnTable
    fire_request: ColumnTable
    medevac: ColumnTable
    events: ColumnTable
    vp: PointsChart
    markers: PointsChart
    fire_missions: FireMissionChart | None = None   # None: the shipped one


#: Each chart of :class:`Charts`: its file name in ``data/charts`` (or an owner's folder) and its loader.
CHART_FILES = {
    "tec": ("terrain_effects.yaml", load_terrain_chart),
    "tet": ("target_effects.yaml", load_target_effects),
    "fire_request": ("fire_request.yaml", load_fire_request),
    "medevac": ("medevac.yaml", load_medevac),
    "events": ("random_events.yaml", load_random_events),
    "vp": ("victory_points.yaml", load_vp_chart),
    "markers": ("markers.yaml", load_marker_drms),
    "fire_missions": ("fire_missions.yaml", load_fire_mission_chart),
}


def default_charts() -> Charts:
    """The shipped charts (printed values plus marked reconstructions): the caller's own copy (each file is
    read once per version of it, :func:`~wargames.core.yamlio.load_once`)."""
    return Charts(**{name: load_once(load, DATA / file) for name, (file, load) in CHART_FILES.items()})


def load_charts(directory: str | Path) -> Charts:
    """Load an owner's printed charts from a directory holding any of the shipped file names (the others are
    the shipped ones). A missing directory, or a chart file there under another name, raises DataError.

    (:meth:`wargames.fte.Ruleset.load` reads the same folder with its ``ruleset.yaml`` of readings.)"""
    d = Path(directory)
    if not d.is_dir():
        raise DataError(str(d), "folder", "no such folder of charts")
    files = {file for file, _ in CHART_FILES.values()}
    for p in sorted(d.glob("*.y*ml")):
        if p.name not in files | {"ruleset.yaml"}:
            raise DataError(str(p), "file name", f"is not a chart of FTE; the charts are {', '.join(sorted(files))}")
    return Charts(**{name: load(d / file) if (d / file).is_file() else load()
                     for name, (file, load) in CHART_FILES.items()})


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
