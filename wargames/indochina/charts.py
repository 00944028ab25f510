"""Indochina's combat charts as data: the Mobile and Assault CRTs and the TEC's combat shifts.

All are printed on the map and absent from the rulebook text, so the shipped files are reconstructions with
a provenance on every value. :data:`CONSTRAINTS` lists what the text implies about them (catalog B3.1,
B3.3); :func:`check_constraints` runs them on any chart an owner loads.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from ..core import ColumnTable, Provenance, implements, load_column_table
from ..core.charts import Constraint, failed_constraints, odds_value
from ..core.schema import Convert, Either, Int, Map, Number, Opt, Record, Str
from .fields import HEADER_OPTIONAL, NAME, RULE, fresh, load_chart, provenance, shipped

DATA = Path(__file__).parent / "data" / "charts"

# Result codes: the six the text names (DE, DR, DD, BB, SK, and "no effect", written NE here) and the
# attacker results it implies (27.42: the attacker may be forced to retreat, disrupted or eliminated).
RESULTS = {
    "AE": "one attacking unit eliminated (attacker's choice), the rest disrupted",
    "AR": "all attackers disrupted and retreat one hex",
    "AD": "one attacking unit disrupted (attacker's choice)",
    "NE": "no effect",
    "BB": "one unit on each side disrupted (each owner's choice)",
    "SK": "one defending unit disrupted (defender's choice)",
    "DD": "every defending unit disrupted",
    "DR": "every defending unit disrupted and retreats one hex; the attacker may advance",
    "DE": "every defending unit eliminated; the attacker may advance",
}
RESULT_PROVENANCE = {
    "DE": "text", "DR": "text", "DD": "text", "BB": "text", "SK": "text", "NE": "text",
    "AE": "reconstructed", "AR": "reconstructed", "AD": "reconstructed",
}
# Best for the defender first: what "a higher column is never worse for the attacker" compares.
ATTACKER_RANK = {"AE": 0, "AR": 1, "AD": 2, "NE": 3, "BB": 4, "SK": 5, "DD": 6, "DR": 7, "DE": 8}


#: one cell of a CRT
RESULT = Str(tuple(RESULTS), what=f"a combat result ({', '.join(RESULTS)})")


@implements("IC Mobile CRT", "IC Assault CRT")
def load_crt(path: str | Path) -> ColumnTable:
    """Load a Mobile or Assault CRT (odds columns, one die)."""
    return load_column_table(path, RESULT)


@dataclass(frozen=True)
class TerrainShift:
    """One TEC row: left shifts for an FEF or a Communist defender (13.21(1)) and the movement cost (9.21)."""

    fef: int
    communist: int
    provenance: Provenance
    heavy: Fraction | None = None       # None: prohibited (9.5)
    light: Fraction | None = None


def _cost_text(raw: str) -> Fraction | None:
    if raw == "prohibited":
        return None
    try:
        return _positive(Fraction(raw))
    except ZeroDivisionError:
        raise ValueError(f"{raw!r} divides by zero") from None


MAX_COST = 6       # no printed cost comes near it; a hex no unit may enter is written "prohibited" (9.5)


def _positive(v: Fraction) -> Fraction:
    if not 0 < v <= MAX_COST:
        raise ValueError(f"a movement cost must be more than 0 and at most {MAX_COST}, not {v}")
    return v


#: a movement cost: a whole number, a fraction written as text ("1/4"), a decimal, or "prohibited" (9.5)
COST = Either(Convert(Int(1, MAX_COST), Fraction),
              Convert(Number(0, MAX_COST), lambda x: _positive(Fraction(str(x)))),
              Convert(Str(pattern=r"prohibited|\d{1,2}(/\d{1,2})?",
                          what="a movement cost (a number such as 2 or '1/4', or 'prohibited')"), _cost_text))


class TerrainEffects(dict):
    """The TEC's rows by terrain name, with ``routes``: the cost per hex along a road or trail, (Heavy, Light)."""

    routes: dict[str, tuple[Fraction, Fraction]]


def _tec(v: dict) -> TerrainEffects:
    out = TerrainEffects(v["terrain"])
    out.routes = v["routes"]
    return out


def _tec_schema(default: Provenance) -> Record:
    shift = Int(0, 5)
    row = Record({"fef": shift, "communist": shift},
                 {"heavy": Opt(COST, Fraction(1)), "light": Opt(COST, Fraction(1)), "provenance": provenance(default)},
                 build=lambda r: TerrainShift(r["fef"], r["communist"], r["provenance"], r["heavy"], r["light"]))
    route = Record({"heavy": COST, "light": COST}, {"provenance": provenance(default)},
                   build=lambda r: (r["heavy"], r["light"]))
    return Record({"terrain": Map(NAME, row, min_len=1, max_len=100)},
                  {**HEADER_OPTIONAL, "name": Opt(NAME, ""), "rule": Opt(RULE, ""),
                   "routes": Opt(Map(NAME, route, max_len=20), {})}, build=_tec)


@implements("IC TEC")
def load_terrain_effects(path: str | Path | None = None) -> TerrainEffects:
    """Load a Terrain Effects Chart (a new object on every call)."""
    return load_chart(DATA / "terrain_effects.yaml" if path is None else path, _tec_schema)


def route_costs(path: str | Path | None = None) -> dict[str, tuple[Fraction, Fraction]]:
    """Cost per hex moving along a road or trail, (Heavy, Light) (9.71)."""
    return load_terrain_effects(path).routes


def default_charts() -> tuple[ColumnTable, ColumnTable, dict[str, TerrainShift]]:
    """The shipped (Mobile CRT, Assault CRT, TEC): a new copy on every call."""
    return fresh("mobile_crt"), fresh("assault_crt"), fresh("terrain_effects")


def shipped_charts() -> tuple[ColumnTable, ColumnTable, dict[str, TerrainShift]]:
    """The shipped (Mobile CRT, Assault CRT, TEC) the combat procedures read when given none (shared: read
    only; see :func:`~wargames.indochina.fields.shipped`)."""
    return shipped("mobile_crt"), shipped("assault_crt"), shipped("terrain_effects")


# --------------------------------------------------------------------------- constraints

def _labels(t: ColumnTable) -> list[str]:
    return [c.label for c in t.columns]


def _monotone(t: ColumnTable) -> bool:
    n = len(t.columns)
    for r in t.rows:
        ranks = [ATTACKER_RANK[t.lookup(i, r).value] for i in range(n)]
        if ranks != sorted(ranks):
            return False
    for i in range(n):
        ranks = [ATTACKER_RANK[t.lookup(i, r).value] for r in t.rows]
        if ranks != sorted(ranks):
            return False
    return True


def _expected_rank(t: ColumnTable, label: str) -> Fraction:
    i = t.index(label)
    return sum((Fraction(ATTACKER_RANK[t.lookup(i, r).value], len(t.rows)) for r in t.rows), Fraction(0))


CONSTRAINTS: list[Constraint] = [
    Constraint("crt-d6", "IC 13.2(6)", "each CRT is read with one die",
               lambda m, a, tec: m.rows == a.rows == [1, 2, 3, 4, 5, 6]),
    Constraint("crt-2-to-7", "IC 13.21, 13.22 examples", "columns 2/1 to 7/1 exist and are consecutive",
               lambda m, a, tec: all(_labels(t)[_labels(t).index("2/1"):_labels(t).index("7/1") + 1]
                                     == ["2/1", "3/1", "4/1", "5/1", "6/1", "7/1"] for t in (m, a))),
    Constraint("crt-7-highest", "IC 13.22", "7/1 is the rightmost column",
               lambda m, a, tec: _labels(m)[-1] == _labels(a)[-1] == "7/1"),
    Constraint("crt-1-2", "IC 13.2(e) example", "a 1/2 column exists, and 1/1 between it and 2/1",
               lambda m, a, tec: all(_labels(t)[_labels(t).index("1/2"):_labels(t).index("2/1") + 1]
                                     == ["1/2", "1/1", "2/1"] for t in (m, a))),
    Constraint("crt-whole-ratios", "IC 13.2(3)", "every column is a whole-number ratio x/1 or 1/x",
               lambda m, a, tec: all(odds_value(l).numerator == 1 or odds_value(l).denominator == 1
                                     for t in (m, a) for l in _labels(t))),
    Constraint("crt-same-columns", "IC 13.3", "both tables share one set of odds columns",
               lambda m, a, tec: _labels(m) == _labels(a)),
    Constraint("crt-named-results", "IC 16.3, 17.234, 17.321, 27.42", "DE, DR, DD, BB, SK and NE all appear",
               lambda m, a, tec: {"DE", "DR", "DD", "BB", "SK", "NE"}
               <= {c.value for t in (m, a) for c in t.cells.values()}),
    Constraint("crt-attacker-results", "IC 27.42", "some results make the attacker retreat, disrupt or lose units",
               lambda m, a, tec: {"AR", "AD", "AE"} <= {c.value for t in (m, a) for c in t.cells.values()}),
    Constraint("crt-dd-and-bb", "IC 16.3(2)", "DD and BB both occur (a fortified FEF defender may turn a DD into a BB)",
               lambda m, a, tec: {"DD", "BB"} <= {c.value for t in (m, a) for c in t.cells.values()}),
    Constraint("crt-monotone", "design", "a higher column or a higher roll is never worse for the attacker",
               lambda m, a, tec: _monotone(m) and _monotone(a)),
    Constraint("crt-assault-for-forts", "IC 13.31 example", "at 2/1 the Assault CRT is no better for the attacker than Mobile (the fortified FEF picks it)",
               lambda m, a, tec: _expected_rank(a, "2/1") <= _expected_rank(m, "2/1")),
    Constraint("tec-two-sides", "IC 13.21(1)", "terrain shifts differ between FEF and Communist defenders somewhere",
               lambda m, a, tec: any(t.fef != t.communist for t in tec.values())),
    Constraint("tec-fef-two", "IC 13.21 example", "some terrain gives an FEF defender two left shifts",
               lambda m, a, tec: any(t.fef == 2 for t in tec.values())),
    Constraint("tec-light-terrain", "IC 20.1", "jungle, mountain and swamp give Communist defenders shifts",
               lambda m, a, tec: all(tec[k].communist > 0 for k in ("jungle", "mountain", "swamp"))),
    Constraint("tec-heavy-pays-more", "IC 9.73", "Heavy units pay more than Light ones in jungle, swamp and mountain",
               lambda m, a, tec: all(tec[k].heavy > tec[k].light for k in ("jungle", "mountain", "swamp"))),
    Constraint("tec-sea-prohibited", "IC 13.9", "land units never enter all-sea hexes",
               lambda m, a, tec: tec["all_sea"].heavy is None and tec["all_sea"].light is None),
    Constraint("tec-roads", "IC 9.71", "roads cost Heavy units 1/4 and Light units 1/2 per hex",
               lambda m, a, tec: getattr(tec, "routes", None) is not None
               and tec.routes["road"] == (Fraction(1, 4), Fraction(1, 2))),
]


def check_constraints(mobile: ColumnTable | None = None, assault: ColumnTable | None = None,
                      tec: dict | None = None) -> list[str]:
    """The ids of the constraints these charts break (empty when all hold)."""
    dm, da, dt = shipped_charts()
    return failed_constraints(CONSTRAINTS, mobile or dm, assault or da, tec or dt)
