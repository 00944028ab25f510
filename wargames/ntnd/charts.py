"""No Trumpets No Drums' charts as data, each value with its provenance, and the lookups the rules use.

The rule text prints four charts in full: the movement allowances (8.2), the anti-aircraft table (12.1.1), the
South Vietnamese morale table (25.4.1) and the political point awards (22.4). It prints part of the Terrain
Effects Chart (the defence modifiers of 19.2.3) and of the Hearts and Minds track (7), and none of the Random
Events (21) or Communist Aid (27) charts. Every file in ``data/charts`` marks each value ``text`` (with its
rule), ``reconstructed`` (with the reason) or, in an owner's file without a provenance, ``printed``.

:class:`NtndCharts` bundles them as a :class:`~wargames.core.game.Ruleset` does: ``load_charts(folder)`` reads
an owner's printed charts (any of the file names of :data:`CHART_FILES`; the rest stay ours), and every lookup
below takes ``charts=`` (default: the shipped ones). :data:`CONSTRAINTS` lists what the text implies about the
charts; :func:`check_constraints` runs them on any bundle. A bad file raises
:class:`~wargames.core.errors.DataError` naming the file, the cell and the reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable, Iterable

from ..core import Dice, Provenance, Resolution, implements
from ..core.charts import PROVENANCE, Constraint, failed_constraints, file_provenance
from ..core.dice import check_face, roll_die
from ..core.errors import RuleViolation
from ..core.game import Reading, Ruleset
from ..core.schema import (At, Bool, Convert, Either, Int, Invalid, List, Map, Opt, Record, Schema, Str,
                           load_file)
from ..core.yamlio import mark_of, read_yaml

DATA = Path(__file__).parent / "data" / "charts"

SIDES = ("communist", "allied")
NAME = Str(min_len=1, max_len=200)
RULE = Str(min_len=1, max_len=40)
TEXT = Str(max_len=2000)
KEY = Str(pattern=r"[a-z][a-z0-9_]{0,59}", what="a name in lower case with underscores (e.g. 'allied_ground')")
UNIT_TYPES = ("cadre", "division", "regiment", "sapper", "tank", "artillery", "sam", "dummy", "vc_base", "supply",
              "interceptor", "airmobile", "infantry", "ranger", "marine", "militia", "montagnard", "green_beret",
              "phoenix", "mechanized", "armor", "firebase", "patrol_boat", "fleet", "gunship", "fighter", "carrier",
              "sac", "soa")
UNIT_TYPE = Str(UNIT_TYPES, what="a unit type of the NTND vocabulary (e.g. 'division', 'sam', 'infantry')")
ZONES = ("China", "Hanoi", "Haiphong", "Plain of Jars", "Luang Prabang", "Vientiane")
AREAS = ("I", "II", "III", "IV", "Laos", "Cambodia")
HEADER = {"name": NAME, "rule": RULE}
HEADER_OPTIONAL = {"provenance": Opt(PROVENANCE), "notes": Opt(Str(), "")}
DIE = range(1, 7)


def _optional_provenance(default: Provenance) -> Opt:
    return Opt(PROVENANCE, default)


def read_chart(path: str | Path, schema_for: Callable[[Provenance], Schema], data: Any = None) -> Any:
    """Read a chart file and check it with ``schema_for(default)``; ``default`` is the file's own top-level
    provenance, or ``printed`` for an owner's file that gives none."""
    file = str(path)
    raw = read_yaml(path) if data is None else data
    own = None
    if isinstance(raw, dict) and "provenance" in raw:
        own = PROVENANCE.check(raw["provenance"], At(file, "provenance", mark_of(raw, "provenance")))
    return load_file(path, schema_for(file_provenance(path, own)), raw)


def _fraction(raw: Any) -> Fraction:
    try:
        return Fraction(str(raw))
    except (ValueError, ZeroDivisionError):
        raise ValueError(f"{raw!r} is not an exact number such as 2 or '5/2'") from None


def _cost(lo: Fraction, hi: Fraction, prohibited: bool = False) -> Schema:
    """A movement cost from ``lo`` to ``hi``: a whole number or a fraction written as text ('1/2')."""
    def check(v: Any) -> Fraction | None:
        if prohibited and v == "prohibited":
            return None
        f = _fraction(v)
        if not lo <= f <= hi:
            raise ValueError(f"must be from {lo} to {hi}, not {f}")
        return f
    what = f"a cost from {lo} to {hi} (a whole number or text such as '5/2')" + (" or 'prohibited'" if prohibited
                                                                                else "")
    return Either(Convert(Int(), check, what), Convert(Str(pattern=r"prohibited|\d{1,2}(/\d{1,2})?", what=what),
                                                        check, what))


# =========================================================================== 8.2 movement allowances

ALLOWANCE_WORDS = ("unlimited", "restricted", "immobile")


@dataclass(frozen=True)
class MovementClass:
    """One row of the 8.2 table: who it covers and their allowance (points, or one of ALLOWANCE_WORDS)."""

    name: str
    side: str
    types: tuple[str, ...]
    allowance: int | str
    monsoon: str | int                # "halved", "unchanged" or the printed monsoon allowance
    provenance: Provenance
    scope: str = ""                   # where an unlimited allowance reaches
    zones: tuple[str, ...] = ()       # where a restricted unit may be
    when: str = ""                    # the condition that selects this row (militia inside a Green Beret zone)
    improved_trail: int | None = None     # 8.4: the allowance on the improved Ho Chi Minh Trail
    improved_trail_provenance: Provenance | None = None


@dataclass(frozen=True)
class Allowance:
    """A unit's movement allowance this turn: ``points`` (None when unlimited, restricted or immobile)."""

    unit_class: str
    kind: str                         # "points", "unlimited", "restricted" or "immobile"
    points: Fraction | None
    provenance: Provenance
    scope: str = ""
    zones: tuple[str, ...] = ()
    halved: bool = False


@dataclass
class MovementAllowances:
    name: str
    rule: str
    classes: dict[str, MovementClass]

    def row(self, unit_class: str) -> MovementClass:
        try:
            return self.classes[unit_class]
        except KeyError:
            raise KeyError(f"the movement table has no class {unit_class!r}; it has {', '.join(self.classes)}") \
                from None


def _movement_schema(default: Provenance) -> Record:
    def check(v: dict) -> None:
        for name, row in v["classes"].items():
            if isinstance(row.allowance, str) and row.allowance != "unlimited" and row.monsoon != "halved" \
                    and row.monsoon != "unchanged":
                raise Invalid(f"classes.{name}.monsoon", f"a {row.allowance} class has no monsoon allowance")
            if row.allowance == "restricted" and not row.zones:
                raise Invalid(f"classes.{name}.zones", "a restricted class must list the zones it may be in")
        seen: dict[tuple[str, str, str], str] = {}
        for name, row in v["classes"].items():
            for t in row.types:
                key = (row.side, t, row.when)
                if key in seen:
                    raise Invalid(f"classes.{name}.types", f"{t!r} is already in class {seen[key]!r}")
                seen[key] = name

    row = Record({"side": Str(SIDES), "types": List(UNIT_TYPE, min_len=1, unique=True, tuple_=True),
                  "allowance": Either(Int(1, 99), Str(ALLOWANCE_WORDS, what="a number of points, 'unlimited', "
                                                                              "'restricted' or 'immobile'"))},
                 {"monsoon": Opt(Either(Int(1, 99), Str(("halved", "unchanged"))), "halved"),
                  "scope": Opt(Str(max_len=60), ""), "zones": Opt(List(Str(ZONES), unique=True, tuple_=True), ()),
                  "when": Opt(Str(("green_beret_zoi",)), ""), "notes": Opt(TEXT, ""),
                  "improved_trail": Opt(Int(1, 99)), "improved_trail_provenance": Opt(PROVENANCE),
                  "provenance": _optional_provenance(default)})

    def build(v: dict) -> MovementAllowances:
        return MovementAllowances(v["name"], v["rule"], v["classes"])

    classes = Convert(Map(KEY, row, min_len=1, max_len=40),
                      lambda m: {k: MovementClass(k, r["side"], r["types"], r["allowance"], r["monsoon"],
                                                  r["provenance"], r["scope"], r["zones"], r["when"],
                                                  r["improved_trail"], r["improved_trail_provenance"] or default)
                                 for k, r in m.items()})
    return Record({**HEADER, "classes": classes}, HEADER_OPTIONAL, check=check, build=build)


def load_movement_allowances(path: str | Path) -> MovementAllowances:
    """Load the 8.2 movement allowance table."""
    return read_chart(path, _movement_schema)


def movement_class(side: str, unit_type: str, *, in_green_beret_zoi: bool = False,
                   charts: "NtndCharts | None" = None) -> str:
    """The 8.2 row a unit moves by: its side and type; militia and Montagnards inside a Green Beret's zone
    of influence have their own row (15.2.1). A helicopter-carried unit moves as ``airmobile`` (11.1.4)."""
    table = charts_in_use(charts).movement
    when = "green_beret_zoi" if in_green_beret_zoi else ""
    rows = [r for r in table.classes.values() if r.side == side and unit_type in r.types]
    for r in rows:
        if r.when == when:
            return r.name
    for r in rows:
        if not r.when:
            return r.name
    raise KeyError(f"no row of the movement table covers a {side} {unit_type!r}")


@implements("NT 8.2", "NT 8.2.1", "NT 8.4")
def movement_allowance(unit_class: str, monsoon: bool, *, face_up: bool = True, improved_trail: bool = False,
                       charts: "NtndCharts | None" = None) -> Allowance:
    """A class's allowance (8.2). In a monsoon turn a face-up unit's allowance is halved unless its row says
    otherwise (8.2.1: the fleet and patrol boats keep theirs; airmobile units have a printed monsoon value of 9,
    which is final and not halved again, catalog A5.5); inverted units are never halved. ``improved_trail``: the
    caller has found that 8.4 applies (from Jan/Feb 1971, a supply unit moving only within the hexes of Laos and
    North Vietnam), so the row's improved allowance replaces the basic one, and the monsoon still halves it."""
    row = charts_in_use(charts).movement.row(unit_class)
    base = row.allowance
    provenance = row.provenance
    if improved_trail:
        if row.improved_trail is None:
            raise RuleViolation("NT 8.4", f"the improved trail raises only supply units' allowance, not {row.name}'s")
        base, provenance = row.improved_trail, row.improved_trail_provenance
    if monsoon and isinstance(row.monsoon, int):
        return Allowance(row.name, "points", Fraction(row.monsoon), row.provenance, "", row.zones)
    if isinstance(base, str):
        return Allowance(row.name, base, None, row.provenance, row.scope, row.zones)
    halve = monsoon and face_up and row.monsoon == "halved"
    points = Fraction(base, 2) if halve else Fraction(base)
    return Allowance(row.name, "points", points, provenance, row.scope, row.zones, halve)


# =========================================================================== 12.1.1 anti-aircraft

@dataclass(frozen=True)
class AARow:
    name: str
    types: tuple[str, ...]
    hits: frozenset[int]
    provenance: Provenance


@dataclass
class AntiAircraft:
    name: str
    rule: str
    units: dict[str, AARow]
    sac_modifier: int
    sac_modifier_provenance: Provenance
    linebacker_types: tuple[str, ...] = ()
    linebacker_sac: frozenset[int] = frozenset()
    linebacker_other: frozenset[int] = frozenset()
    linebacker_provenance: Provenance | None = None

    def row_for(self, unit_type: str) -> AARow:
        for r in self.units.values():
            if unit_type in r.types:
                return r
        raise RuleViolation("NT 12.1.1", f"a {unit_type} has no anti-aircraft fire")


ROLLS = Convert(List(Int(1, 6), min_len=1, max_len=6, unique=True), frozenset, "a list of die rolls from 1 to 6")


def _aa_schema(default: Provenance) -> Record:
    row = Record({"types": List(UNIT_TYPE, min_len=1, unique=True, tuple_=True), "hits": ROLLS},
                 {"provenance": _optional_provenance(default)})
    linebacker = Record({"types": List(UNIT_TYPE, min_len=1, unique=True, tuple_=True), "sac": ROLLS,
                         "other": ROLLS}, {"provenance": _optional_provenance(default)})

    def check(v: dict) -> None:
        seen: dict[str, str] = {}
        for name, r in v["units"].items():
            for t in r["types"]:
                if t in seen:
                    raise Invalid(f"units.{name}.types", f"{t!r} is already in row {seen[t]!r}")
                seen[t] = name

    def build(v: dict) -> AntiAircraft:
        lb = v["linebacker"]
        return AntiAircraft(v["name"], v["rule"],
                            {k: AARow(k, r["types"], r["hits"], r["provenance"]) for k, r in v["units"].items()},
                            v["sac_modifier"], v["sac_modifier_provenance"] or default,
                            lb["types"] if lb else (), lb["sac"] if lb else frozenset(),
                            lb["other"] if lb else frozenset(), lb["provenance"] if lb else None)

    return Record({**HEADER, "units": Map(KEY, row, min_len=1, max_len=20), "sac_modifier": Int(-6, 0)},
                  {**HEADER_OPTIONAL, "sac_modifier_provenance": Opt(PROVENANCE), "linebacker": Opt(linebacker)},
                  check=check, build=build)


def load_anti_aircraft(path: str | Path) -> AntiAircraft:
    """Load the 12.1.1 anti-aircraft table."""
    return read_chart(path, _aa_schema)


def aa_hit_rolls(unit_type: str, *, sac: bool = False, linebacker: bool = False,
                 charts: "NtndCharts | None" = None) -> frozenset[int]:
    """The natural die rolls with which one AA unit of this type shoots down an air unit."""
    table = charts_in_use(charts).anti_aircraft
    if linebacker and unit_type in table.linebacker_types:
        return table.linebacker_sac if sac else table.linebacker_other
    hits = table.row_for(unit_type).hits
    shift = table.sac_modifier if sac else 0
    return frozenset(r for r in DIE if r + shift in hits)


@implements("NT 12.1.1", "NT 12.1.2", "NT 11.9.2")
def aa_hit(unit_type: str, roll: int, *, sac: bool = False, linebacker: bool = False,
           charts: "NtndCharts | None" = None) -> bool:
    """Does one AA unit's die roll shoot down an air unit? 12.1.2 takes one from the die against a SAC
    bomber; under Linebacker (11.9.2, from Jan/Feb 1972) a SAM's printed values there are final."""
    _check_die(roll, "NT 12.1.1")
    return roll in aa_hit_rolls(unit_type, sac=sac, linebacker=linebacker, charts=charts)


def _check_die(roll: int, rule: str) -> None:
    check_face(roll, 6, rule, "the die roll")


# =========================================================================== 25.4.1 South Vietnamese morale

@dataclass(frozen=True)
class MoraleCondition:
    name: str
    modifier: int
    meaning: str
    provenance: Provenance


@dataclass
class SvnMoraleTable:
    name: str
    rule: str
    conditions: dict[str, MoraleCondition]


SVN_CONDITIONS = ("attacking", "arvn_numerical_advantage", "arvn_controlled_area", "communist_numerical_advantage",
                  "communist_controlled_area")


def _svn_schema(default: Provenance) -> Record:
    cond = Record({"modifier": Int(-3, 3)}, {"meaning": Opt(TEXT, ""), "provenance": _optional_provenance(default)})

    def check(v: dict) -> None:
        for c in SVN_CONDITIONS:
            if c not in v["conditions"]:
                raise Invalid(f"conditions.{c}", "is missing (25.4.1 names five conditions)")

    return Record({**HEADER, "conditions": Map(Str(SVN_CONDITIONS), cond, min_len=1)}, HEADER_OPTIONAL, check=check,
                  build=lambda v: SvnMoraleTable(v["name"], v["rule"], {
                      k: MoraleCondition(k, c["modifier"], c["meaning"], c["provenance"])
                      for k, c in v["conditions"].items()}))


def load_svn_morale(path: str | Path) -> SvnMoraleTable:
    """Load the 25.4.1 South Vietnamese morale table."""
    return read_chart(path, _svn_schema)


def svn_morale_conditions(*, attacking: bool, allied_units: int, communist_units: int,
                          area_box: str) -> tuple[str, ...]:
    """Which 25.4.1 conditions hold for an ARVN unit in a battle: whether it attacks, which side has more
    ground combat units (our reading of "numerical advantage": strictly more), and the area's marker box."""
    out = []
    if attacking:
        out.append("attacking")
    if allied_units > communist_units:
        out.append("arvn_numerical_advantage")
    if area_box == "allied_control":
        out.append("arvn_controlled_area")
    if communist_units > allied_units:
        out.append("communist_numerical_advantage")
    if area_box == "communist_control":
        out.append("communist_controlled_area")
    return tuple(out)


@implements("NT 25.4.1")
def svn_morale(conditions: Iterable[str], *, charts: "NtndCharts | None" = None,
               res: Resolution | None = None) -> int:
    """The total die-roll modifier of the 25.4.1 conditions that hold (each counted once)."""
    table = charts_in_use(charts).svn_morale
    total = 0
    for name in dict.fromkeys(conditions):
        if name not in table.conditions:
            raise KeyError(f"the South Vietnamese morale table has no condition {name!r}")
        c = table.conditions[name]
        total += c.modifier
        if res is not None:
            res.add("NT 25.4.1", f"{c.meaning or name}: {c.modifier:+d}", result=c.modifier)
    return total


@implements("NT 25.4.1")
def svn_deserts(roll: int, printed_morale: int, modifier: int) -> bool:
    """A demoralized ARVN unit deserts when its modified die is higher than its printed value (25.4.1)."""
    _check_die(roll, "NT 25.4.1")
    return roll + modifier > printed_morale


# =========================================================================== 22.4 political points

TIMINGS = ("immediate", "allied_phase", "both_phases")
_STARS = {"*": "immediate", "**": "allied_phase", "***": "both_phases"}
PER = ("unit", "area", "town", "city", "occurrence")


@dataclass(frozen=True)
class PoliticalItem:
    """One 22.4 award: signed points for the Allied total, what they count and when (22.3's legend)."""

    name: str
    points: int
    per: str
    marks: str
    timing: str
    not_if_neutral: bool              # ^: not in a state that is still neutral
    instead_of: str                   # ^^: the item it replaces
    meaning: str
    line: int
    provenance: Provenance


@dataclass
class PoliticalPoints:
    name: str
    rule: str
    items: dict[str, PoliticalItem]


def _parse_marks(marks: str) -> tuple[str, bool, bool]:
    stars = marks.rstrip("^")
    carets = marks[len(stars):]
    if stars not in _STARS or carets not in ("", "^", "^^"):
        raise ValueError(f"{marks!r} is not a mark of 22.3: one to three '*', then nothing, '^' or '^^'")
    return _STARS[stars], carets == "^", carets == "^^"


def _pp_schema(default: Provenance) -> Record:
    item = Record({"points": Int(-99, 99), "per": Str(PER), "marks": Str(max_len=8)},
                  {"instead_of": Opt(KEY, ""), "meaning": Opt(TEXT, ""), "line": Opt(Int(0, 100_000), 0),
                   "provenance": _optional_provenance(default)})

    def check(v: dict) -> None:
        for name, it in v["items"].items():
            try:
                _, _, replaces = _parse_marks(it["marks"])
            except ValueError as e:
                raise Invalid(f"items.{name}.marks", str(e)) from None
            if replaces != bool(it["instead_of"]):
                raise Invalid(f"items.{name}.instead_of", "an item marked '^^' names the item it replaces, and "
                                                          "only such an item does")
            if it["instead_of"] and it["instead_of"] not in v["items"]:
                raise Invalid(f"items.{name}.instead_of", f"names no item ({it['instead_of']!r})")

    def build(v: dict) -> PoliticalPoints:
        items = {}
        for name, it in v["items"].items():
            timing, neutral, _ = _parse_marks(it["marks"])
            items[name] = PoliticalItem(name, it["points"], it["per"], it["marks"], timing, neutral,
                                        it["instead_of"], it["meaning"], it["line"], it["provenance"])
        return PoliticalPoints(v["name"], v["rule"], items)

    return Record({**HEADER, "items": Map(KEY, item, min_len=1, max_len=60)}, HEADER_OPTIONAL, check=check,
                  build=build)


def load_political_points(path: str | Path) -> PoliticalPoints:
    """Load the 22.4 political point awards."""
    return read_chart(path, _pp_schema)


@implements("NT 22.3")
def pp_items(timing: str, *, charts: "NtndCharts | None" = None) -> list[PoliticalItem]:
    """The awards with one 22.3 timing: ``immediate`` (*), ``allied_phase`` (**) or ``both_phases`` (***)."""
    if timing not in TIMINGS:
        raise ValueError(f"a 22.3 timing is one of {TIMINGS}, not {timing!r}")
    return [it for it in charts_in_use(charts).political_points.items.values() if it.timing == timing]


@implements("NT 22.3")
def political_phase_items(side: str, *, charts: "NtndCharts | None" = None) -> list[PoliticalItem]:
    """The awards counted in a side's political phase: *** items in both phases (so twice a turn, catalog A5.1),
    ** items only in the Allied one."""
    if side not in SIDES:
        raise ValueError(f"a side is one of {SIDES}, not {side!r}")
    wanted = ("allied_phase", "both_phases") if side == "allied" else ("both_phases",)
    return [it for it in charts_in_use(charts).political_points.items.values() if it.timing in wanted]


# =========================================================================== Terrain Effects Chart

@dataclass(frozen=True)
class TerrainRow:
    """A terrain type or a hex feature: its cost (a terrain's cost to enter, a feature's added cost; None:
    prohibited), its defence bonus, its bonus when every attacker stands on it, and a provenance per field."""

    name: str
    cost: Fraction | None
    defence: int
    attackers_on: int
    provenance: dict[str, Provenance]


@dataclass
class TerrainEffects:
    name: str
    rule: str
    terrain: dict[str, TerrainRow]
    features: dict[str, TerrainRow]
    routes: dict[str, tuple[Fraction, Provenance]]

    def provenance(self, row: str, column: str) -> Provenance:
        """The provenance of one cell: ``provenance("mountain", "cost")``, ``provenance("road", "cost")``."""
        if row in self.routes:
            return self.routes[row][1]
        r = self.terrain.get(row) or self.features.get(row)
        if r is None or column not in r.provenance:
            raise KeyError(f"the TEC has no cell {row}/{column}")
        return r.provenance[column]


TERRAIN_TYPES = ("clear", "jungle", "swamp", "mountain", "all_sea")
FEATURES = ("town", "city", "minor_river", "major_river", "coastal")
ROUTES = ("road", "trail")
COLUMNS = ("cost", "defence", "attackers_on")


def _tec_schema(default: Provenance) -> Record:
    def row(prohibited: bool, lo: Fraction):
        cells = Map(Str(COLUMNS), PROVENANCE, max_len=3)
        return Record({"cost": _cost(lo, Fraction(6), prohibited)},
                      {"defence": Opt(Int(0, 5), 0), "attackers_on": Opt(Int(0, 5), 0), "provenance": Opt(cells, {})})

    route = Record({"cost": _cost(Fraction(1, 4), Fraction(6))}, {"provenance": _optional_provenance(default)})

    def made(m: dict) -> dict:
        return {k: TerrainRow(k, r["cost"], r["defence"], r["attackers_on"],
                              {c: r["provenance"].get(c, default) for c in COLUMNS}) for k, r in m.items()}

    def check(v: dict) -> None:
        for table, names in (("terrain", TERRAIN_TYPES), ("features", FEATURES)):
            for t in names:
                if t not in v[table]:
                    raise Invalid(f"{table}.{t}", "is missing (every terrain and feature of the map needs a row)")
        for r in ROUTES:
            if r not in v["routes"]:
                raise Invalid(f"routes.{r}", "is missing (8.2.7 gives roads and trails a cost)")

    return Record({**HEADER, "terrain": Convert(Map(Str(TERRAIN_TYPES), row(True, Fraction(1, 4)), min_len=1),
                                                made),
                   "features": Convert(Map(Str(FEATURES), row(False, Fraction(0))), made),
                   "routes": Convert(Map(Str(ROUTES), route), lambda m: {k: (r["cost"], r["provenance"])
                                                                        for k, r in m.items()})},
                  HEADER_OPTIONAL, check=check,
                  build=lambda v: TerrainEffects(v["name"], v["rule"], v["terrain"], v["features"], v["routes"]))


def load_terrain_effects(path: str | Path) -> TerrainEffects:
    """Load the Terrain Effects Chart."""
    return read_chart(path, _tec_schema)


@implements("NT 8.2.2", "NT 8.2.6", "NT 8.2.7", "NT 8.3")
def terrain_cost(terrain: str, features: Iterable[str] = (), *, pays_terrain: bool = True,
                 along: str | None = None, enemy_zoi: bool = False, local_vc: bool = False,
                 charts: "NtndCharts | None" = None, res: Resolution | None = None) -> Fraction | None:
    """Movement points to enter one hex (None: a ground unit may not enter it).

    * ``pays_terrain=False``: the units of 8.2.2 (airmobile, rangers, guerrillas, supply, inverted) pay 1
      whatever the terrain; everyone else pays the TEC's terrain cost plus any river crossing (8.2.6).
    * ``along="road"`` or ``"trail"`` when the move follows one into the hex: a trail costs 1 and a road 1/2,
      whatever else is in the hex (8.2.7; a road bridges its river). Every class gets it (our reading).
    * ``local_vc``: the hex is in a Communist-Controlled area at the start of an Allied movement phase (8.3): no
      road or trail benefit, and a non-clear hex costs 1 more; river crossings are not raised. 7.4.3 is the same
      penalty written twice (catalog A5.4): it is added once. The caller leaves it off for units 7.4.3 exempts.
    * ``enemy_zoi``: a face-up Communist unit entering an Allied zone of influence pays double (8.5.3).
    """
    tec = charts_in_use(charts).terrain_effects
    feats = tuple(dict.fromkeys(features))
    if terrain not in tec.terrain:
        raise KeyError(f"the TEC has no terrain {terrain!r}")
    for f in feats:
        if f not in tec.features and f not in ROUTES:
            raise KeyError(f"the TEC has no feature {f!r}")
    base = tec.terrain[terrain].cost
    if base is None:
        if res is not None:
            res.add("NT 19.3", f"no ground unit enters {terrain}", result=None)
        return None
    if along is not None and along not in feats:
        raise RuleViolation("NT 8.2.7", f"the hex has no {along} to move along")
    note = res.add if res is not None else (lambda *a, **k: None)
    if along is not None and not local_vc:
        cost = tec.routes[along][0]
        note("NT 8.2.7", f"along a {along}: {cost}", result=cost)
    elif not pays_terrain:
        cost = Fraction(1)
        note("NT 8.2.2", "1 whatever the terrain", result=cost)
    else:
        cost = base
        note("NT 8.2.6", f"{terrain}: {base}", result=base)
        for f in feats:
            if f in tec.features and tec.features[f].cost:
                cost += tec.features[f].cost
                note("NT 8.2.6", f"{f.replace('_', ' ')} crossing: +{tec.features[f].cost}", result=cost)
    if local_vc:
        if along is not None:
            note("NT 8.3", f"Local VC: no {along} benefit")
        if terrain != "clear":
            cost += 1
            note("NT 8.3", "Local VC: +1 for a non-clear hex", result=cost)
    if enemy_zoi:
        cost *= 2
        note("NT 8.5.3", "zone of influence: double", result=cost)
    return cost


@implements("NT 19.2.3", "NT 28.7.2")
def defence_modifier(terrain: str, features: Iterable[str] = (), attacker_hexes: Iterable[Iterable[str]] = (),
                     *, sapper: bool = False, charts: "NtndCharts | None" = None,
                     res: Resolution | None = None) -> int:
    """The defender's terrain bonus (19.2.3), all rows cumulative: the hex's terrain and settlement, plus a river
    bonus when every attacking hex has that river (major +2; else minor or major +1: a major river is at least a
    river). ``attacker_hexes`` gives each attacking hex's features; a zone counts as clear (9.2). A sapper among
    the attackers takes the whole bonus away (28.7.2: the chart's bonus, river rows included)."""
    tec = charts_in_use(charts).terrain_effects
    note = res.add if res is not None else (lambda *a, **k: None)
    if terrain not in tec.terrain:
        raise KeyError(f"the TEC has no terrain {terrain!r}")
    rows = [(terrain, tec.terrain[terrain].defence)]
    for f in dict.fromkeys(features):
        if f in ROUTES:
            continue
        if f not in tec.features:
            raise KeyError(f"the TEC has no feature {f!r}")
        rows.append((f, tec.features[f].defence))
    hexes = [set(h) for h in attacker_hexes]
    if hexes:
        if all("major_river" in h for h in hexes):
            rows.append(("every attacker on a major river", tec.features["major_river"].attackers_on))
        elif all(h & {"minor_river", "major_river"} for h in hexes):
            rows.append(("every attacker on a river", tec.features["minor_river"].attackers_on))
    rows = [(name, v) for name, v in rows if v]
    total = sum(v for _, v in rows)
    if sapper and rows:
        note("NT 28.7.2", f"a sapper attacks: no terrain bonus (would be +{total})", result=0)
        return 0
    for name, v in rows:
        note("NT 19.2.3", f"{name.replace('_', ' ')}: +{v}", result=v)
    return total


# =========================================================================== 21 Random Events

EVENT_NUMBERS = tuple(10 * t + o for t in (1, 2, 3) for o in DIE)
POOLS = ("US", "SEATO", "Indochinese", "SVN")
NEXT_TURN = ("no_svn_replacements", "laotian_intervention", "us_replacements_cost_pp", "no_allied_air_missions")
STATES = ("Laos", "Cambodia", "SVN")
EFFECTS = Record({}, {"political": Opt(Int(-50, 50), 0), "political_dice": Opt(Int(-4, 4), 0),
                      "replacements": Opt(Map(Str(POOLS), Int(-4, 4)), {}),
                      "communist_units": Opt(Map(UNIT_TYPE, Int(1, 6)), {}),
                      "place": Opt(Str(max_len=60), ""), "coup": Opt(Str(STATES), ""),
                      "requires_neutral": Opt(Str(("Laos", "Cambodia")), ""),
                      "hearts_minds": Opt(Int(-2, 2), 0),
                      "next_turn": Opt(List(Str(NEXT_TURN), unique=True, tuple_=True), ())},
                 what="an event's effects")


@dataclass(frozen=True)
class Event:
    number: int
    name: str
    effect: str
    once: bool
    provenance: Provenance
    effects: dict = field(default_factory=dict, compare=False, hash=False)

    def void(self, neutral_states: Iterable[str]) -> bool:
        """21.2: an event tied to a neutral state is void once that state has joined a side."""
        state = self.effects.get("requires_neutral", "")
        return bool(state) and state not in set(neutral_states)


@dataclass
class RandomEvents:
    name: str
    rule: str
    events: dict[int, Event]


def _events_schema(default: Provenance) -> Record:
    event = Record({"name": NAME, "effect": TEXT},
                   {"once": Opt(Bool(), False), "effects": Opt(EFFECTS), "provenance": _optional_provenance(default)})

    def check(v: dict) -> None:
        for n in EVENT_NUMBERS:
            if n not in v["events"]:
                raise Invalid(f"events[{n}]", "is missing: 21.1 gives every reading from 11 to 36 an event")
        for n in v["events"]:
            if n not in EVENT_NUMBERS:
                raise Invalid(f"events[{n}]", "is not a reading with an event (11-16, 21-26, 31-36; 41-66 has "
                                              "none, 21.1)")

    empty = EFFECTS.check({}, At("events"))
    return Record({**HEADER, "events": Map(Int(), event)}, HEADER_OPTIONAL, check=check,
                  build=lambda v: RandomEvents(v["name"], v["rule"], {
                      n: Event(n, e["name"], e["effect"], e["once"], e["provenance"], e["effects"] or empty)
                      for n, e in sorted(v["events"].items())}))


def load_random_events(path: str | Path) -> RandomEvents:
    """Load the Random Events chart (18 events, 11-36)."""
    return read_chart(path, _events_schema)


@implements("NT 21.1", "NT 21.2")
def random_event(comm_die: int, allied_die: int, *, occurred: Iterable[int] = (),
                 neutral_states: Iterable[str] = ("Laos", "Cambodia"), charts: "NtndCharts | None" = None,
                 res: Resolution | None = None) -> Event | None:
    """The event two dice give (21.1): the Communist die is the tens, the Allied die the ones; 41-66 is none.
    None as well for a once-per-game event already in ``occurred`` or an event tied to a state that is no
    longer neutral (21.2). The event's effects apply during the next turn."""
    _check_die(comm_die, "NT 21.1")
    _check_die(allied_die, "NT 21.1")
    number = 10 * comm_die + allied_die
    note = res.add if res is not None else (lambda *a, **k: None)
    event = charts_in_use(charts).random_events.events.get(number)
    if event is None:
        note("NT 21.1", f"dice {comm_die} and {allied_die} read {number}: no event", result=None)
        return None
    if event.once and number in set(occurred):
        note("NT 21.2", f"{number}: {event.name} happens once a game and has happened", result=None)
        return None
    if event.void(neutral_states):
        note("NT 21.2", f"{number}: {event.name} is void, {event.effects['requires_neutral']} is no longer neutral",
             result=None)
        return None
    note("NT 21.1", f"dice {comm_die} and {allied_die} read {number}: {event.name}"
         + (" (reconstructed entry)" if event.provenance.reconstructed else ""), result=number)
    return event


def roll_random_event(dice: Dice, *, occurred: Iterable[int] = (),
                      neutral_states: Iterable[str] = ("Laos", "Cambodia"), charts: "NtndCharts | None" = None,
                      res: Resolution | None = None) -> int | None:
    """21.1 with dice: the Communist die, then the Allied die. Returns the event's number (None: no event)."""
    comm = roll_die(dice, 6, "random event: Communist die (tens)")
    allied = roll_die(dice, 6, "random event: Allied die (ones)")
    event = random_event(comm, allied, occurred=occurred, neutral_states=neutral_states, charts=charts, res=res)
    return None if event is None else event.number


# =========================================================================== 27 Communist Aid

AID_COUNTRIES = ("China", "USSR")
AID_RESULTS = ("none", "aid")
LOWEST_MODIFIED, HIGHEST_MODIFIED = -1, 9          # 1 - 2 and 6 + 2 + 1


@dataclass(frozen=True)
class AidModifier:
    name: str
    value: int
    group: str
    countries: tuple[str, ...]
    provenance: Provenance


@dataclass(frozen=True)
class AidCountry:
    name: str
    units: tuple[str, ...]
    place: str
    units_provenance: Provenance
    results: dict[int, str]
    provenance: Provenance


@dataclass
class CommunistAid:
    name: str
    rule: str
    modifiers: dict[str, AidModifier]
    countries: dict[str, AidCountry]


@dataclass(frozen=True)
class AidResult:
    country: str
    roll: int
    modified: int
    granted: bool
    units: tuple[str, ...]
    applied: tuple[str, ...]


def _aid_schema(default: Provenance) -> Record:
    mod = Record({"value": Int(-6, 6)}, {"group": Opt(KEY, ""), "provenance": _optional_provenance(default),
                                         "countries": Opt(List(Str(AID_COUNTRIES), min_len=1, unique=True,
                                                               tuple_=True), AID_COUNTRIES)})
    country = Record({"units": List(UNIT_TYPE, min_len=1, unique=True, tuple_=True),
                      "results": Map(Int(-20, 20), Str(AID_RESULTS))},
                     {"place": Opt(TEXT, ""), "units_provenance": _optional_provenance(default),
                      "provenance": _optional_provenance(default)})

    def check(v: dict) -> None:
        for c in AID_COUNTRIES:
            if c not in v["countries"]:
                raise Invalid(f"countries.{c}", "is missing (27.1: China and the Soviet Union roll apart)")
            for n in range(LOWEST_MODIFIED, HIGHEST_MODIFIED + 1):
                if n not in v["countries"][c]["results"]:
                    raise Invalid(f"countries.{c}.results[{n}]",
                                  f"is missing: every modified roll from {LOWEST_MODIFIED} to {HIGHEST_MODIFIED} "
                                  "can happen")

    def build(v: dict) -> CommunistAid:
        mods = {k: AidModifier(k, m["value"], m["group"], m["countries"], m["provenance"])
                for k, m in v["modifiers"].items()}
        countries = {k: AidCountry(k, c["units"], c["place"], c["units_provenance"], dict(sorted(c["results"].items())),
                                   c["provenance"]) for k, c in v["countries"].items()}
        return CommunistAid(v["name"], v["rule"], mods, countries)

    return Record({**HEADER, "modifiers": Map(KEY, mod), "countries": Map(Str(AID_COUNTRIES), country)},
                  HEADER_OPTIONAL, check=check, build=build)


def load_communist_aid(path: str | Path) -> CommunistAid:
    """Load the Communist Aid chart."""
    return read_chart(path, _aid_schema)


@implements("NT 27.1.1")
def aid_result(country: str, roll: int, modifiers: Iterable[str] = (), *, charts: "NtndCharts | None" = None,
               res: Resolution | None = None) -> AidResult:
    """One aid roll for China or the USSR (27.1). The modifiers that apply are added: -2 Full Vietnamization,
    else -1 for Partial Vietnamization or an election withdrawal (one group: the largest counts, 27.1.1), +2 when
    Allied ground units are in North Vietnam (27.1.2), +1 for the Soviet roll if Haiphong is mined (14.2.2)."""
    aid = charts_in_use(charts).communist_aid
    if country not in aid.countries:
        raise KeyError(f"the aid chart has no country {country!r}")
    _check_die(roll, "NT 27.1")
    note = res.add if res is not None else (lambda *a, **k: None)
    chosen: dict[str, AidModifier] = {}
    for name in dict.fromkeys(modifiers):
        if name not in aid.modifiers:
            raise KeyError(f"the aid chart has no modifier {name!r}")
        m = aid.modifiers[name]
        if country not in m.countries:
            note("NT 27.1", f"{name.replace('_', ' ')} does not change the {country} roll")
            continue
        key = m.group or name
        if key not in chosen or abs(m.value) > abs(chosen[key].value):
            chosen[key] = m
    total = roll + sum(m.value for m in chosen.values())
    for m in chosen.values():
        note("NT 27.1.1" if m.group else "NT 27.1.2", f"{m.name.replace('_', ' ')}: {m.value:+d}")
    c = aid.countries[country]
    clamped = min(max(total, min(c.results)), max(c.results))
    granted = c.results[clamped] == "aid"
    note("NT 27.1", f"{country}: roll {roll}, modified {total}: " + ("aid granted" if granted else "no aid"),
         result=granted)
    return AidResult(country, roll, total, granted, c.units if granted else (), tuple(m.name for m in chosen.values()))


def roll_aid(dice: Dice, country: str, modifiers: Iterable[str] = (), *, charts: "NtndCharts | None" = None,
             res: Resolution | None = None) -> AidResult:
    """27.1 with dice: one die for one country's aid."""
    return aid_result(country, roll_die(dice, 6, f"{country} aid"), modifiers, charts=charts, res=res)


# =========================================================================== 7 Hearts and Minds track

@dataclass(frozen=True)
class Box:
    id: str
    name: str
    side: str          # "communist", "allied" or "none"
    level: int         # 0 neutral, 1 "pro", 2 control
    provenance: Provenance


@dataclass
class HeartsMindsTrack:
    """The track's boxes from the Communist end (index 0) to the Allied end, and the areas with a marker."""

    name: str
    rule: str
    areas: tuple[str, ...]
    boxes: tuple[Box, ...]

    def index(self, box: str) -> int:
        for i, b in enumerate(self.boxes):
            if b.id == box:
                return i
        raise KeyError(f"the Hearts and Minds track has no box {box!r}; it has {', '.join(self.ids)}")

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(b.id for b in self.boxes)

    def box(self, box: str) -> Box:
        return self.boxes[self.index(box)]

    def shift(self, box: str, steps: int, *, excess: str = "refuse", rule: str = "NT 7") -> tuple[str, int]:
        """Move a marker ``steps`` boxes (positive: toward Allied Control). Returns (new box, boxes lost).

        The text never moves a marker past an end: 10.2.1 leaves it where it is when the moving side
        already controls the area. So ``excess="lose"`` (a move the rules impose) stops at the end and reports
        how many boxes were lost; ``excess="refuse"`` (a player spending points, 7.2.2 and 7.4) raises
        RuleViolation rather than spend a point that cannot move the marker."""
        if excess not in ("refuse", "lose"):
            raise ValueError(f"excess is 'refuse' or 'lose', not {excess!r}")
        i = self.index(box)
        target = i + steps
        end = min(max(target, 0), len(self.boxes) - 1)
        lost = abs(target - end)
        if lost and excess == "refuse":
            where = self.boxes[-1 if steps > 0 else 0].name
            raise RuleViolation(rule, f"the marker cannot move {abs(steps)} box(es) from {self.boxes[i].name}: "
                                      f"{lost} would pass {where}, the end of the track")
        return self.boxes[end].id, lost


def _hm_schema(default: Provenance) -> Record:
    box = Record({"id": KEY, "name": NAME, "side": Str(("communist", "allied", "none")), "level": Int(0, 2)},
                 {"provenance": _optional_provenance(default)},
                 build=lambda b: Box(b["id"], b["name"], b["side"], b["level"], b["provenance"]))

    def check(v: dict) -> None:
        ids = [b.id for b in v["boxes"]]
        if len(set(ids)) != len(ids):
            raise Invalid("boxes", "names a box twice")
        sides = [b.side for b in v["boxes"]]
        order = {"communist": 0, "none": 1, "allied": 2}
        if [order[s] for s in sides] != sorted(order[s] for s in sides):
            raise Invalid("boxes", "must run from the Communist boxes through any neutral box to the Allied ones")

    return Record({**HEADER, "areas": List(Str(AREAS), min_len=1, unique=True, tuple_=True),
                   "boxes": List(box, min_len=2, max_len=9, tuple_=True)}, HEADER_OPTIONAL, check=check,
                  build=lambda v: HeartsMindsTrack(v["name"], v["rule"], v["areas"], v["boxes"]))


def load_hearts_minds(path: str | Path) -> HeartsMindsTrack:
    """Load the Hearts and Minds track (areas and boxes; starting positions are scenario data)."""
    return read_chart(path, _hm_schema)


# =========================================================================== the bundle

CHART_FILES = {
    "movement": ("movement_allowances.yaml", load_movement_allowances),
    "anti_aircraft": ("anti_aircraft.yaml", load_anti_aircraft),
    "svn_morale": ("svn_morale.yaml", load_svn_morale),
    "political_points": ("political_points.yaml", load_political_points),
    "terrain_effects": ("terrain_effects.yaml", load_terrain_effects),
    "random_events": ("random_events.yaml", load_random_events),
    "communist_aid": ("communist_aid.yaml", load_communist_aid),
    "hearts_minds": ("hearts_minds.yaml", load_hearts_minds),
}


class NtndCharts(Ruleset):
    """No Trumpets No Drums' charts, each the shipped file unless an owner's folder replaced it
    (``load_charts(folder)``). The game's Ruleset can take ``CHARTS`` over as it stands."""

    GAME = "No Trumpets No Drums"
    DEFAULTS = DATA
    CHARTS = CHART_FILES
    #: the optional rules of chapter 28 that no other rule depends on (inventory 6.3: 28.1, 28.5, 28.7, 28.9,
    #: 28.10 and 28.11 are cited by the core rules, so they are always in play)
    READINGS = {
        "armour_shock": Reading(True, "NT 28.8", "optional rule 28.8, the NVA armour shock, on or off"),
        "bought_brigades": Reading(False, "NT 28.3.2", "the option of 28.3.2: the US 3/82 Airborne and 1/5 Mech "
                                   "brigades are bought like the USMC III (two US points, on any turn) instead of "
                                   "arriving on the schedule"),
    }

    @property
    def movement(self) -> MovementAllowances:
        return self.chart("movement")

    @property
    def anti_aircraft(self) -> AntiAircraft:
        return self.chart("anti_aircraft")

    @property
    def svn_morale(self) -> SvnMoraleTable:
        return self.chart("svn_morale")

    @property
    def political_points(self) -> PoliticalPoints:
        return self.chart("political_points")

    @property
    def terrain_effects(self) -> TerrainEffects:
        return self.chart("terrain_effects")

    @property
    def random_events(self) -> RandomEvents:
        return self.chart("random_events")

    @property
    def communist_aid(self) -> CommunistAid:
        return self.chart("communist_aid")

    @property
    def hearts_minds(self) -> HeartsMindsTrack:
        return self.chart("hearts_minds")

    def check(self) -> list[str]:
        """The ids of the constraints these charts break (empty when all hold)."""
        return check_constraints(self)


def load_charts(folder: str | Path) -> NtndCharts:
    """An owner's printed charts from a folder (any of the files of :data:`CHART_FILES`; the others stay ours)."""
    return NtndCharts.load(folder)


def default_charts() -> NtndCharts:
    """The shipped charts (a new bundle; each chart a fresh copy on first use)."""
    return NtndCharts.default()


_SHIPPED: list[NtndCharts] = []


def charts_in_use(charts: NtndCharts | None) -> NtndCharts:
    """The charts a rule reads: those given (an owner's), or else the shipped ones, read once per process."""
    if charts is not None:
        return charts
    if not _SHIPPED:
        _SHIPPED.append(NtndCharts.default())
    return _SHIPPED[0]


# =========================================================================== constraints the text sets

def _costs(c: NtndCharts) -> dict[str, Fraction]:
    """The cost of entering a hex of each non-clear kind: each terrain, and a clear hex with each river."""
    tec = c.terrain_effects
    out = {t: r.cost for t, r in tec.terrain.items() if t != "clear" and r.cost is not None}
    for f in ("minor_river", "major_river"):
        if f in tec.features:
            out[f"clear+{f}"] = tec.terrain["clear"].cost + tec.features[f].cost
    return out


def _monsoon_points(c: NtndCharts, unit_class: str) -> Fraction:
    return movement_allowance(unit_class, True, charts=c).points


def _enterable(c: NtndCharts, unit_class: str, worst: Callable[[Fraction, str], Fraction]) -> bool:
    budget = _monsoon_points(c, unit_class)
    return all(worst(cost, kind) <= budget for kind, cost in _costs(c).items())


def _monotone(results: dict[int, str]) -> bool:
    ranks = [AID_RESULTS.index(results[n]) for n in sorted(results)]
    return ranks == sorted(ranks)


def _events(c: NtndCharts) -> list[Event]:
    return list(c.random_events.events.values())


def _tec(c: NtndCharts) -> TerrainEffects:
    return c.terrain_effects


CONSTRAINTS: list[Constraint] = [
    # 8.2, 12.1.1, 25.4.1 and 22.4 are printed in full: an owner's chart must agree with the text
    Constraint("move-text", "NT 8.2", "the printed allowances: Communist supply 12, other Communist 10, Allied "
               "ground 12, patrol boats 18, airmobile unlimited (9 in the monsoon), air and fleet unlimited",
               lambda c: (c.movement.row("communist_supply").allowance, c.movement.row("communist_other").allowance,
                          c.movement.row("allied_ground").allowance, c.movement.row("patrol_boat").allowance,
                          c.movement.row("airmobile").allowance, c.movement.row("airmobile").monsoon,
                          c.movement.row("allied_air_fleet").allowance)
               == (12, 10, 12, 18, "unlimited", 9, "unlimited")),
    Constraint("move-immobile", "NT 8.2", "Green Berets, militia, firebases and VC Bases are immobile; interceptors "
               "stay in Hanoi, Haiphong and China",
               lambda c: all(c.movement.row(movement_class(s, t, charts=c)).allowance == "immobile" for s, t in
                             (("allied", "green_beret"), ("allied", "militia"), ("allied", "firebase"),
                              ("communist", "vc_base")))
               and set(c.movement.row("interceptor").zones) == {"Hanoi", "Haiphong", "China"}),
    Constraint("aa-text", "NT 12.1.1", "NVA division and armour hit on 6, artillery on 5-6, SAM and interceptor "
               "on 4-6; -1 against SAC (12.1.2)",
               lambda c: [sorted(aa_hit_rolls(t, charts=c)) for t in ("division", "tank", "artillery", "sam",
                                                                       "interceptor")]
               == [[6], [6], [5, 6], [4, 5, 6], [4, 5, 6]] and c.anti_aircraft.sac_modifier == -1),
    Constraint("svn-text", "NT 25.4.1", "attacking -1, ARVN advantage -1, ARVN-controlled area -1, Communist "
               "advantage +1, Communist-controlled area +1",
               lambda c: [c.svn_morale.conditions[k].modifier for k in SVN_CONDITIONS] == [-1, -1, -1, 1, 1]),
    Constraint("pp-text", "NT 22.4", "the fourteen awards with their printed points and marks",
               lambda c: {k: (i.points, i.marks) for k, i in c.political_points.items.items()} == PP_TEXT),
    # the Terrain Effects Chart (inventory section 3)
    Constraint("tec-defence-text", "NT 19.2.3", "city +2, mountain +2, jungle and swamp +1; every attacker on a "
               "minor river +1, on a major river +2",
               lambda c: (_tec(c).features["city"].defence, _tec(c).terrain["mountain"].defence,
                          _tec(c).terrain["jungle"].defence, _tec(c).terrain["swamp"].defence,
                          _tec(c).features["minor_river"].attackers_on, _tec(c).features["major_river"].attackers_on)
               == (2, 2, 1, 1, 1, 2)),
    Constraint("tec-clear-road-trail", "NT 8.2.6, 8.2.7", "clear costs 1, a road 1/2 and a trail 1",
               lambda c: (_tec(c).terrain["clear"].cost, _tec(c).routes["road"][0], _tec(c).routes["trail"][0])
               == (1, Fraction(1, 2), 1)),
    Constraint("tec-non-clear-over-one", "NT 8.2.6", "every non-clear hex (jungle, swamp, mountain, a river) costs "
               "other ground units more than 1",
               lambda c: all(k in _costs(c) for k in ("jungle", "swamp", "mountain", "clear+minor_river",
                                                       "clear+major_river"))
               and all(v > 1 for v in _costs(c).values())),
    Constraint("tec-monsoon-zoi", "NT 8.2.1, 8.5.3", "in the monsoon (allowance halved) a face-up Communist unit "
               "can still enter a hex of any one terrain at double cost in a zone of influence",
               lambda c: _enterable(c, "communist_other", lambda cost, kind: 2 * cost)),
    Constraint("tec-monsoon-local-vc", "NT 8.2.1, 8.3", "in the monsoon an Allied ground unit can still enter a "
               "hex of any one terrain with the Local VC +1",
               lambda c: _enterable(c, "allied_ground",
                                    lambda cost, kind: cost + (0 if kind.startswith("clear+") else 1))),
    Constraint("tec-halving-meaningful", "NT 8.2.1", "after halving, movement still means something: a face-up "
               "unit can cross at least two hexes of any one non-clear kind in a monsoon turn",
               lambda c: all(_monsoon_points(c, k) // v >= 2
                             for k in ("communist_other", "allied_ground") for v in _costs(c).values())),
    Constraint("tec-river-crossing", "NT 8.3", "entering a river hex costs more (8.3 leaves 'river crossings' "
               "alone); a major river at least as much as a minor one",
               lambda c: 0 < _tec(c).features["minor_river"].cost <= _tec(c).features["major_river"].cost),
    Constraint("tec-town-bonus", "NT 28.7.2", "a town gives a defence bonus (sappers cancel it), no more than a "
               "city's", lambda c: 0 < _tec(c).features["town"].defence <= _tec(c).features["city"].defence),
    Constraint("tec-sea-prohibited", "NT 19.3", "ground units never enter all-sea hexes",
               lambda c: _tec(c).terrain["all_sea"].cost is None),
    # the Random Events chart
    Constraint("events-18", "NT 21.1", "two dice, Communist tens: 11-36 hold 18 events, 41-66 none",
               lambda c: sorted(c.random_events.events) == list(EVENT_NUMBERS)),
    Constraint("events-coups", "NT 2, 21.2", "coups in the named neutral states, Laos and Cambodia, each once",
               lambda c: {e.effects["coup"] for e in _events(c) if e.effects["coup"] and e.once
                          and e.effects["requires_neutral"] == e.effects["coup"]} >= {"Laos", "Cambodia"}),
    Constraint("events-communist-units", "NT 4.1.5", "some event gives the Communist player units",
               lambda c: any(e.effects["communist_units"] for e in _events(c))),
    Constraint("events-allied-replacements", "NT 4.2.2", "some events change Allied replacement points",
               lambda c: any(e.effects["replacements"] for e in _events(c))),
    Constraint("events-us-replacement-pp", "NT 24.2.4", "an event makes replaced US units cost political points "
               "under Full Vietnamization",
               lambda c: any("us_replacements_cost_pp" in e.effects["next_turn"] for e in _events(c))),
    Constraint("events-laotian-intervention", "NT 28.1.1", "an event is the Laotian intervention",
               lambda c: any("laotian_intervention" in e.effects["next_turn"] for e in _events(c))),
    Constraint("events-once", "NT 21.2", "some events are once a game (the asterisk) and some are not",
               lambda c: 0 < sum(e.once for e in _events(c)) < len(_events(c))),
    # the Communist Aid chart
    Constraint("aid-modifiers-text", "NT 27.1.1, 27.1.2, 14.2.2", "-2 Full Vietnamization, -1 Partial or an "
               "election withdrawal (not added together), +2 invasion of the North, +1 Soviet if Haiphong is mined",
               lambda c: {k: (m.value, bool(m.group), m.countries) for k, m in c.communist_aid.modifiers.items()}
               == AID_MODIFIERS_TEXT
               and len({m.group for m in c.communist_aid.modifiers.values() if m.value < 0}) == 1),
    Constraint("aid-units-text", "NT 27.2, 27.3", "China: supply, SAM or cadre; USSR: supply, SAM, artillery, "
               "interceptor or armour",
               lambda c: (set(c.communist_aid.countries["China"].units), set(c.communist_aid.countries["USSR"].units))
               == ({"supply", "sam", "cadre"}, {"supply", "sam", "artillery", "interceptor", "tank"})),
    Constraint("aid-monotone", "NT 27.1 (design)", "a higher modified roll is never worse",
               lambda c: all(_monotone(x.results) for x in c.communist_aid.countries.values())),
    Constraint("aid-a-real-roll", "NT 27.1", "an unmodified roll can grant aid, and not every one does",
               lambda c: all(x.results[6] == "aid" and x.results[1] == "none"
                             for x in c.communist_aid.countries.values())),
    Constraint("aid-modifiers-matter", "NT 27.1.1", "Full Vietnamization can turn a granting roll into none",
               lambda c: all(any(x.results[r] == "aid" and x.results[r - 2] == "none" for r in DIE)
                             for x in c.communist_aid.countries.values())),
    # the Hearts and Minds track
    Constraint("hm-areas", "NT 7, 5.1", "six areas: the four corps, Laos and Cambodia",
               lambda c: set(c.hearts_minds.areas) == set(AREAS)),
    Constraint("hm-named-boxes", "NT 7.2.2, 7.3.2, 7.4.2, 22.4", "Communist Control, pro-Communist, pro-Allied and "
               "Allied Control in that order, the controls at the ends",
               lambda c: [b for b in c.hearts_minds.ids if b != "neutral"]
               == ["communist_control", "pro_communist", "pro_allied", "allied_control"]),
]

#: the 22.4 list as printed (rulebook L764-777): points and marks
PP_TEXT = {
    "communist_unit_eliminated": (1, "*"), "allied_unit_eliminated": (-1, "*"), "seato_unit_replaced": (-2, "*"),
    "us_unit_replaced": (-2, "*"), "area_pro_allied": (1, "**"), "area_allied_control": (2, "**"),
    "area_pro_communist": (-1, "***"), "area_communist_control": (-2, "***"), "all_towns_allied": (2, "**^"),
    "no_communist_units": (3, "**^"), "only_inverted_communists": (2, "**^"), "town_held_by_communists": (-1, "***^"),
    "city_held_by_communists": (-2, "***^"), "saigon_held_by_communists": (-25, "***^^"),
}

#: the aid modifiers of 27.1.1, 27.1.2 and 14.2.2: (value, in a no-stacking group, countries)
AID_MODIFIERS_TEXT = {
    "full_vietnamization": (-2, True, AID_COUNTRIES), "partial_vietnamization": (-1, True, AID_COUNTRIES),
    "election_withdrawal": (-1, True, AID_COUNTRIES), "allied_ground_units_in_north_vietnam": (2, False, AID_COUNTRIES),
    "haiphong_mined": (1, False, ("USSR",)),
}


def check_constraints(charts: NtndCharts | None = None) -> list[str]:
    """The ids of the constraints a chart bundle breaks (empty when all hold)."""
    return failed_constraints(CONSTRAINTS, charts_in_use(charts))


__all__ = [
    "AID_COUNTRIES", "AREAS", "CHART_FILES", "CONSTRAINTS", "Allowance", "AidResult", "Box", "Event",
    "HeartsMindsTrack", "NtndCharts", "PoliticalItem", "TerrainEffects", "aa_hit", "aa_hit_rolls", "aid_result",
    "check_constraints", "default_charts", "defence_modifier", "load_charts", "movement_allowance", "movement_class",
    "political_phase_items", "pp_items", "random_event", "roll_aid", "roll_random_event", "svn_deserts",
    "svn_morale", "svn_morale_conditions", "terrain_cost",
]
