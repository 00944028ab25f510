"""Rule 5.2: the Political Points Table, reconstructed, and the scoring it drives.

The printed table is on the map. The text gives only its two kinds of entry: points for eliminated units
(5.2(2)) and points for capturing and holding cities and towns, scored in the Political Points Phase (5.2(3)).
Every amount in ``data/charts/political_points.yaml`` is therefore a reconstruction (provenance ``R``), and
:data:`CONSTRAINTS` lists what the text implies about any table, printed or reconstructed.

:func:`score_eliminations` and :func:`score_cities` net each side's gains and losses into one change (5.23)
through :class:`~wargames.indochina.political.PoliticalPoints`, which applies the cap of 100 (5.21).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..core import Provenance, Resolution, implements
from ..core.charts import Constraint, failed_constraints
from ..core.schema import Int, List, Map, Record
from ..core.errors import DataError, RuleViolation
from .combat import Side
from .fields import HEADER, HEADER_OPTIONAL, NAME, POINTS, Invalid, field_path, load_chart, provenance, shipped
from .political import PoliticalPoints

DATA = Path(__file__).parent / "data" / "charts"
CATEGORIES = ("division", "group", "regiment", "battalion", "cadre", "base", "militia")
POLITICAL_POINTS_PHASE = "Political Points"
INDOCHINA = ("Vietnam", "Laos", "Cambodia")


@dataclass(frozen=True)
class Amount:
    """What one entry of the table is worth: points off the owner's index and points to the enemy's."""

    owner_loses: int
    enemy_gains: int
    provenance: Provenance


@dataclass(frozen=True)
class PoliticalTable:
    groups: dict[Side, dict[str, tuple[str, ...]]]          # side -> group -> nationalities
    eliminations: dict[tuple[Side, str, str], Amount]     # (side, group, category) -> amount
    capture_city: Amount                                  # owner_loses = what the loser loses
    capture_town: Amount
    hold_city: int
    towns_per_point: int
    city_provenance: Provenance
    file: str = "<memory>"

    def group_of(self, side: Side, nationality: str) -> str:
        for group, nats in self.groups[side].items():
            if nationality == group or nationality in nats:
                return group
        raise DataError(self.file, f"nationality_groups.{side.value}",
                        f"no group lists the {side.value} nationality {nationality!r}")

    def amount(self, side: Side, nationality: str, unit_type: str, size: str) -> Amount:
        category = unit_type if unit_type in ("base", "militia") else size
        if category == "brigade":
            category = "group"                                   # 2.31: group, mobile group and brigade alike
        key = (side, self.group_of(side, nationality), category)
        if key not in self.eliminations:
            raise DataError(self.file, f"eliminations.{side.value}.{key[1]}.{category}", "is missing")
        return self.eliminations[key]


def _groups_match(v: dict) -> None:
    """Every nationality group of a side has its elimination rows, and no row names another group."""
    for side in Side:
        groups, rows = v["nationality_groups"][side.value], v["eliminations"][side.value]
        for name in groups:
            if name not in rows:
                raise Invalid(field_path("eliminations", side.value, name), "is missing (every nationality group needs "
                                                                   "its rows)")
        for name in rows:
            if name not in groups:
                raise Invalid(field_path("eliminations", side.value, name), "names no nationality group")


def _schema(file: str, default: Provenance) -> Record:
    amount = Record({"owner_loses": POINTS, "enemy_gains": POINTS}, {"provenance": provenance(default)},
                    build=lambda a: Amount(a["owner_loses"], a["enemy_gains"], a["provenance"]))

    def per_side(item: Record) -> Record:
        return Record({side.value: Map(NAME, item, min_len=1, max_len=20) for side in Side})

    capture = Record({"loser_loses": POINTS, "gains": POINTS})
    cities = Record({"capture_city": capture, "capture_town": capture, "hold_city": POINTS,
                     "towns_per_point": Int(1, 99)}, {"provenance": provenance(default)})

    def build(v: dict) -> PoliticalTable:
        c = v["cities"]
        city, town = (Amount(c[k]["loser_loses"], c[k]["gains"], c["provenance"])
                      for k in ("capture_city", "capture_town"))
        groups = {side: {name: tuple(nats) for name, nats in v["nationality_groups"][side.value].items()}
                  for side in Side}
        elims = {(side, name, cat): a for side in Side
                 for name, rows in v["eliminations"][side.value].items() for cat, a in rows.items()}
        return PoliticalTable(groups, elims, city, town, c["hold_city"], c["towns_per_point"], c["provenance"], file)

    return Record({**HEADER, "nationality_groups": per_side(List(NAME, min_len=1, max_len=40, unique=True)),
                   "eliminations": per_side(Record({cat: amount for cat in CATEGORIES})), "cities": cities},
                  HEADER_OPTIONAL, check=_groups_match, build=build)


@implements("IC Political Points Table")
def load_political_table(path: str | Path | None = None) -> PoliticalTable:
    """Load and check a Political Points Table (the reconstruction, or an owner's printed one); a new object
    on every call."""
    path = DATA / "political_points.yaml" if path is None else path
    return load_chart(path, lambda default: _schema(str(path), default))


# --------------------------------------------------------------------------- scoring

@dataclass(frozen=True)
class Loss:
    """An eliminated unit as the table sees it (a :class:`~wargames.indochina.units.Counter` also fits)."""

    side: Side
    nationality: str
    type: str
    size: str
    id: str = ""


def _apply(points: PoliticalPoints, gains: dict[Side, int], losses: dict[Side, int], rule: str, why: str,
           res: Resolution) -> None:
    for side in Side:
        g, l = gains.get(side, 0), losses.get(side, 0)
        if g or l:
            before = points.of(side)
            after = points.change(side, gains=g, losses=l, why=why)
            res.add(rule, f"{side.value}: +{g} -{l} political points ({why}), netted (IC 5.23)",
                    arithmetic=f"{before} + {g} - {l} -> {after}", result=after)


@implements("IC 5.2", "IC Political Points Table")
def score_eliminations(points: PoliticalPoints, eliminated: Iterable[Any],
                       table: PoliticalTable | None = None, res: Resolution | None = None) -> Resolution:
    """5.2(2): each eliminated unit costs its owner and rewards the enemy by the table's amounts.

    All the eliminations scored together are netted per side before the index moves (5.23).
    """
    table = table or shipped("political_points")
    res = res if res is not None else Resolution()
    gains: dict[Side, int] = {}
    losses: dict[Side, int] = {}
    for u in eliminated:
        side = Side(u.side)
        nat = getattr(u, "nationality", "") or ""
        if not nat:
            raise DataError(table.file, f"unit {getattr(u, 'id', '?')}",
                            "an eliminated unit needs a nationality to be scored")
        a = table.amount(side, nat, u.type, u.size)
        losses[side] = losses.get(side, 0) + a.owner_loses
        gains[side.enemy] = gains.get(side.enemy, 0) + a.enemy_gains
        res.add("IC 5.2", f"{nat} {u.type} {u.size} {getattr(u, 'id', '')} eliminated: {side.value} -{a.owner_loses}, "
                f"{side.enemy.value} +{a.enemy_gains} ({a.provenance.mark()})".replace("  ", " "),
                owner_loses=a.owner_loses, enemy_gains=a.enemy_gains)
    _apply(points, gains, losses, "IC 5.2", "units eliminated", res)
    res.result = (points.fef, points.communist)
    return res


@dataclass(frozen=True)
class Holdings:
    """One side's cities and towns at a Political Points Phase (Indochina only)."""

    cities: int = 0
    towns: int = 0
    captured_cities: int = 0          # taken from the enemy since the last Political Points Phase
    captured_towns: int = 0

    def __post_init__(self) -> None:
        for f in ("cities", "towns", "captured_cities", "captured_towns"):
            v = getattr(self, f)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise DataError("holdings", f, f"must be a whole number >= 0, not {v!r}")
        if self.captured_cities > self.cities or self.captured_towns > self.towns:
            raise DataError("holdings", "captured", "a captured city or town is one the side now holds")


@implements("IC 5.2", "IC Political Points Table")
def score_cities(points: PoliticalPoints, holdings: dict[Side, Holdings], phase: str = POLITICAL_POINTS_PHASE,
                 table: PoliticalTable | None = None, res: Resolution | None = None) -> Resolution:
    """5.2(3): points for cities and towns captured and held, scored only in the Political Points Phase."""
    if phase != POLITICAL_POINTS_PHASE:
        raise RuleViolation("IC 5.2", f"cities and towns are scored in the Political Points Phase, not in {phase!r}")
    table = table or shipped("political_points")
    res = res if res is not None else Resolution()
    gains: dict[Side, int] = {}
    losses: dict[Side, int] = {}
    mark = table.city_provenance.mark()
    for side, h in holdings.items():
        side = Side(side)
        g = (h.captured_cities * table.capture_city.enemy_gains + h.captured_towns * table.capture_town.enemy_gains
             + h.cities * table.hold_city + h.towns // table.towns_per_point)
        lost = h.captured_cities * table.capture_city.owner_loses + h.captured_towns * table.capture_town.owner_loses
        gains[side] = gains.get(side, 0) + g
        losses[side.enemy] = losses.get(side.enemy, 0) + lost
        res.add("IC 5.2", f"{side.value} holds {h.cities} cities and {h.towns} towns, captured {h.captured_cities} "
                f"cities and {h.captured_towns} towns: +{g}, enemy -{lost} ({mark})",
                arithmetic=f"{h.captured_cities}x{table.capture_city.enemy_gains} + {h.captured_towns}x"
                           f"{table.capture_town.enemy_gains} + {h.cities}x{table.hold_city} + "
                           f"{h.towns}//{table.towns_per_point} = {g}", result=g)
    _apply(points, gains, losses, "IC 5.2", "cities and towns", res)
    res.result = (points.fef, points.communist)
    return res


# --------------------------------------------------------------------------- constraints

def _sizes_monotone(t: PoliticalTable) -> bool:
    for (side, group, _), _a in t.eliminations.items():
        e = {c: t.eliminations[(side, group, c)] for c in CATEGORIES}
        for big, small in (("division", "group"), ("group", "battalion"), ("regiment", "battalion")):
            if e[big].owner_loses < e[small].owner_loses or e[big].enemy_gains < e[small].enemy_gains:
                return False
    return True


def _intervention_heavier(t: PoliticalTable) -> bool:
    pairs = ((Side.FEF, "US", "French"), (Side.COMMUNIST, "Chinese", "Viet Minh"))
    return all(t.eliminations[(s, big, c)].owner_loses >= t.eliminations[(s, small, c)].owner_loses
               for s, big, small in pairs for c in CATEGORIES)


CONSTRAINTS: list[Constraint] = [
    Constraint("pp-eliminations", "IC 5.2(2)", "every nationality group of both sides has an amount for every "
               "unit size", lambda t: all((s, g, c) in t.eliminations for s in Side for g in t.groups[s]
                                          for c in CATEGORIES)),
    Constraint("pp-elimination-matters", "IC 5.2(2)", "losing a combat unit costs or gains points somewhere",
               lambda t: all(any(a.owner_loses + a.enemy_gains > 0 for (s, _, c), a in t.eliminations.items()
                                 if s is side and c == "division") for side in Side)),
    Constraint("pp-cities", "IC 5.2(3)", "capturing and holding cities and towns both score",
               lambda t: t.capture_city.enemy_gains > 0 and t.capture_town.enemy_gains > 0 and t.hold_city > 0),
    Constraint("pp-city-over-town", "IC 24.1(1)", "a city is worth at least a town (Military Victory needs all cities)",
               lambda t: t.capture_city.enemy_gains >= t.capture_town.enemy_gains
               and t.capture_city.owner_loses >= t.capture_town.owner_loses),
    Constraint("pp-bounded", "IC 5.21, 24.1(2)", "no single entry reaches the 60-point Political Victory margin",
               lambda t: all(max(a.owner_loses, a.enemy_gains) < 60 for a in t.eliminations.values())
               and max(t.capture_city.enemy_gains, t.hold_city) < 60),
    Constraint("pp-size-monotone", "design", "a bigger unit is never worth less than a smaller one of its group",
               _sizes_monotone),
    Constraint("pp-intervention-heavier", "design (IC 29.0)", "a US or Chinese loss weighs at least as much as a "
               "French or Viet Minh one of the same size", _intervention_heavier),
    Constraint("pp-both-sides", "IC 5.1", "the table scores both sides' losses",
               lambda t: {s for s, _, _ in t.eliminations} == set(Side)),
]


def check_constraints(table: PoliticalTable | None = None) -> list[str]:
    """The ids of the constraints this table breaks (empty when all hold)."""
    return failed_constraints(CONSTRAINTS, table or shipped("political_points"))
