"""The Bombardment Table as data (12.33, 12.51 and the errata): its lines, cells, modifiers and the AT line.

The table is printed on the map and absent from the text, so the shipped ``bombardment.yaml`` is a
reconstruction with a provenance on every value; :data:`CONSTRAINTS` lists what the text implies about it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..core import Cell, Provenance, implements
from ..core.charts import PROVENANCE, Constraint, failed_constraints, parse_column_label
from ..core.errors import DataError, RuleViolation
from ..core.schema import Const, Either, Int, List, Map, Opt, Record, Str
from ..core.yamlio import short
from .fields import (HEADER, HEADER_OPTIONAL, RULE, TEXT, Invalid, field_path, fresh, load_chart, provenance,
                     shipped)

DATA = Path(__file__).parent / "data" / "charts"
DIE = 6                                   # 12.33: one die
TABLE_RULE = "IC Bombardment Table"
EFFECTS = ("eliminate_disrupted", "disrupt_effective")
ALL = "all"
REQUIRED_DRMS = ("artillery", "overrun", "range_near", "range_mid", "range_far")
MAX_COUNT = 6       # units one case may take: a full stack is two divisions, six regiments (10.2); more is "all"


# --------------------------------------------------------------------------- the table as data

@dataclass(frozen=True)
class Case:
    """One numbered case of a B-result: an effect on the struck units, how many, and its provenance."""

    effect: str                    # eliminate_disrupted or disrupt_effective
    count: int | str               # a number, or "all"
    provenance: Provenance
    struck: str = ""               # non-empty: the errata removed this case

    def describe(self) -> str:
        n = "every" if self.count == ALL else str(self.count)
        what = "disrupted combat unit" if self.effect == "eliminate_disrupted" else "combat-effective unit"
        verb = "eliminate" if self.effect == "eliminate_disrupted" else "disrupt"
        plural = "s" if self.count not in (1, ALL) else ""
        return f"{verb} {n} {what}{plural}"


@dataclass(frozen=True)
class ResultCode:
    code: str
    meaning: str
    cases: tuple[Case, ...]
    provenance: Provenance
    rank: int                      # position in the file: weakest first

    def active(self, errata: bool = True) -> tuple[Case, ...]:
        return tuple(c for c in self.cases if not (errata and c.struck))


@dataclass(frozen=True)
class StrikeCell:
    """A strike entry: an antiaircraft loss (groups shot down) and a ground result, e.g. ``A1+B1``."""

    text: str
    ground: str
    air_losses: int


@dataclass(frozen=True)
class ATResult:
    code: str
    meaning: str
    air_unit_kept: bool
    mission_completed: bool
    provenance: Provenance


@dataclass(frozen=True)
class DRM:
    name: str
    value: int
    rule: str
    provenance: Provenance


@dataclass
class Line:
    """One line of the table: a range of strike groups (or the AT line) and one entry per modified roll."""

    label: str
    low: int | None
    high: int | None
    cells: dict[int, Cell]
    provenance: Provenance | None = None      # a mark on the line itself (the AT line's existence is text)

    def holds(self, groups: int) -> bool:
        return (self.low is None or groups >= self.low) and (self.high is None or groups <= self.high)


@dataclass
class BombardmentTable:
    name: str
    rule: str
    low: int                                  # the lowest entry also reads every lower modified roll
    high: int                                 # the highest entry also reads every higher one
    results: dict[str, ResultCode]
    air_losses: dict[str, tuple[int, Provenance]]
    at_results: dict[str, ATResult]
    lines: list[Line]                         # strike lines, fewest groups first
    at_line: Line
    drms: dict[str, DRM]
    source: str = "<memory>"
    notes: str = ""

    @property
    def rolls(self) -> list[int]:
        return list(range(self.low, self.high + 1))

    def line_for(self, groups: int) -> Line:
        for line in self.lines:
            if line.holds(groups):
                return line
        raise RuleViolation(TABLE_RULE, f"{groups} strike groups fall on no line of the {self.name}")

    def read(self, line: Line, modified: int) -> tuple[int, Cell]:
        """The entry for a modified roll; rolls past either end read the end entry."""
        row = min(max(modified, self.low), self.high)
        return row, line.cells[row]

    def provenance_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for line in self.lines + [self.at_line]:
            for cell in line.cells.values():
                out[cell.provenance.kind] = out.get(cell.provenance.kind, 0) + 1
        return out


def _strike_cell(raw: str, results: dict, losses: dict) -> StrikeCell:
    parts = [p.strip() for p in raw.split("+")]
    air = [p for p in parts if p in losses]
    ground = [p for p in parts if p in results]
    unknown = [p for p in parts if p not in losses and p not in results]
    if unknown:
        raise ValueError(f"{short(unknown[0])} is not a result code; expected one of "
                         f"{', '.join(list(results) + list(losses))}")
    if len(air) > 1 or len(ground) > 1:
        raise ValueError(f"{short(raw)} combines more than one loss or more than one ground result")
    if not ground and "NE" not in results:
        raise ValueError(f"{short(raw)} has no ground result and the table has no NE code to stand for none")
    return StrikeCell(raw, ground[0] if ground else "NE", losses[air[0]][0] if air else 0)


CODE = Str(pattern=r"[A-Za-z][A-Za-z0-9]{0,7}", what="a result code such as 'B1' (a letter, then letters or digits)")
LABEL = Str(key=True, min_len=1, max_len=20, what="a line label ('1', '3-4', '8+' or 'AT')")


def _lines(v: dict, default: Provenance) -> tuple[list[Line], Line]:
    """The strike lines and the AT line, each cell read against the codes the file declares."""
    low, high = v["rolls"]["low"], v["rolls"]["high"]
    results, losses, at_results = v["results"], v["air_losses"], v["at_results"]
    for code in losses:
        if code in results:
            raise Invalid(field_path("air_losses", code), "is also a result code")
    if "AT" not in v["lines"]:
        raise Invalid("lines.AT", "is missing: air transport near Communist units rolls on the AT line (12.52)")
    width = high - low + 1
    lines, at_line = [], None
    for label, row in v["lines"].items():
        where = field_path("lines", label)
        if len(row) != width:
            raise Invalid(where, f"must list {width} entries, one per modified roll {low} to {high} (got {len(row)})")
        cells = {}
        for i, (r, raw) in enumerate(zip(range(low, high + 1), row)):
            if label == "AT":
                if raw not in at_results:
                    raise Invalid(f"{where}[{i}]", f"{short(raw)} is not an AT result; expected one of "
                                                   f"{', '.join(at_results)}")
                value: Any = raw
            else:
                try:
                    value = _strike_cell(raw, results, losses)
                except ValueError as e:
                    raise Invalid(f"{where}[{i}]", str(e)) from None
            cells[r] = Cell(value, v["cells"].get(f"{label}/{r}", default))
        if label == "AT":
            at_line = Line("AT", None, None, cells, v["line_provenance"].get(label))
            continue
        try:
            col = parse_column_label(label, "", where)
        except DataError as e:
            raise Invalid(where, e.reason) from None
        lines.append(Line(label, col.low, col.high, cells, v["line_provenance"].get(label)))
    if not lines:
        raise Invalid("lines", "must have at least one strike line besides AT")
    if lines[0].low != 1:
        raise Invalid(field_path("lines", lines[0].label), "the first strike line must start at one group")
    for a, b in zip(lines, lines[1:]):
        if a.high is None or b.low != a.high + 1:
            raise Invalid(field_path("lines", b.label), f"must start right after line {a.label!r} (no gap or overlap)")
    if lines[-1].high is not None:
        raise Invalid(field_path("lines", lines[-1].label), "the last strike line must be open-ended (like '8+'): any "
                                                   "number of strikes may attack one hex (12.35)")
    known = {f"{label}/{r}" for label in v["lines"] for r in range(low, high + 1)}
    for k in v["cells"]:
        if k not in known:
            raise Invalid(field_path("cells", k), "names no entry of this table")
    for k in v["line_provenance"]:
        if k not in v["lines"]:
            raise Invalid(field_path("line_provenance", k), "names no line of this table")
    return lines, at_line


def _schema(file: str, default: Provenance) -> Record:
    prov = provenance(default)
    case = Record({"effect": Str(EFFECTS), "count": Either(Int(1, MAX_COUNT), Const(ALL))},
                  {"struck": Opt(Str(), ""), "provenance": prov},
                  build=lambda c: Case(c["effect"], c["count"], c["provenance"], c["struck"]))
    result = Record({"meaning": TEXT}, {"cases": Opt(List(case, max_len=20), []), "provenance": prov})
    loss = Record({"groups": Int(1, 99)}, {"provenance": prov}, build=lambda x: (x["groups"], x["provenance"]))
    at_result = Record({"meaning": TEXT, "air_unit": Str(("kept", "eliminated")),
                        "mission": Str(("completed", "aborted"))}, {"provenance": prov})
    drm = Record({"value": Int(-6, 6), "rule": RULE}, {"provenance": prov})

    def build(v: dict) -> BombardmentTable:
        lines, at_line = _lines(v, default)
        results = {code: ResultCode(code, r["meaning"], tuple(r["cases"]), r["provenance"], rank)
                   for rank, (code, r) in enumerate(v["results"].items())}
        at_results = {code: ATResult(code, r["meaning"], r["air_unit"] == "kept", r["mission"] == "completed",
                                     r["provenance"]) for code, r in v["at_results"].items()}
        drms = {key: DRM(key, d["value"], d["rule"], d["provenance"]) for key, d in v["drms"].items()}
        return BombardmentTable(v["name"], v["rule"], v["rolls"]["low"], v["rolls"]["high"], results,
                                v["air_losses"], at_results, lines, at_line, drms, file, v["notes"])

    return Record(
        {**HEADER,
         # the lowest entry must serve a natural 1 and the highest a natural 6 (12.33: one die)
         "rolls": Record({"low": Int(-20, 1), "high": Int(DIE, 30)}),
         "results": Map(CODE, result, min_len=1, max_len=20),
         "at_results": Map(CODE, at_result, min_len=1, max_len=20),
         "lines": Map(LABEL, List(Str(max_len=40), max_len=60), min_len=1, max_len=40),
         "drms": Record({key: drm for key in REQUIRED_DRMS}, what="the modifiers the rules name")},
        {**HEADER_OPTIONAL, "air_losses": Opt(Map(CODE, loss, max_len=20), {}),
         "cells": Opt(Map(Str(max_len=60), PROVENANCE, max_len=2000), {}),
         "line_provenance": Opt(Map(LABEL, PROVENANCE, max_len=40), {})},
        build=build)


@implements(TABLE_RULE, "IC 12.33", "IC 12.51")
def load_bombardment_table(path: str | Path | None = None, data: Any = None) -> BombardmentTable:
    """Load a Bombardment Table from YAML (the shipped reconstruction or an owner's printed table); a new
    object on every call."""
    path = DATA / "bombardment.yaml" if path is None else path
    return load_chart(path, lambda default: _schema(str(path), default), data)


def default_table() -> BombardmentTable:
    """The shipped table: a new copy on every call."""
    return fresh("bombardment")


def shipped_table() -> BombardmentTable:
    """The shipped table the air procedures read when given none (shared: read only; see
    :func:`~wargames.indochina.fields.shipped`)."""
    return shipped("bombardment")


# --------------------------------------------------------------------------- constraints (catalog B3.2)

def _strike_cells(t: BombardmentTable):
    return [c.value for line in t.lines for c in line.cells.values()]


def _case_total(t: BombardmentTable, code: str, effect: str, errata: bool = True) -> float:
    return sum(float("inf") if c.count == ALL else c.count
               for c in t.results[code].active(errata) if c.effect == effect)


def _monotone(t: BombardmentTable) -> bool:
    """A higher roll or more groups never gives a weaker ground result or more air losses."""
    def worse(a: StrikeCell, b: StrikeCell) -> bool:   # is b worse for the FEF than a?
        return t.results[b.ground].rank < t.results[a.ground].rank or b.air_losses > a.air_losses

    for line in t.lines:
        for r in t.rolls[:-1]:
            if worse(line.cells[r].value, line.cells[r + 1].value):
                return False
    for a, b in zip(t.lines, t.lines[1:]):
        for r in t.rolls:
            if worse(a.cells[r].value, b.cells[r].value):
                return False
    at = [t.at_results[t.at_line.cells[r].value] for r in t.rolls]
    return all(b.air_unit_kept >= a.air_unit_kept and b.mission_completed >= a.mission_completed
               for a, b in zip(at, at[1:]))


def _severity_rises(t: BombardmentTable) -> bool:
    """B1 < B2 < B3: each disrupts at least as many units as the one before, and B3 alone eliminates."""
    d = [_case_total(t, c, "disrupt_effective") for c in ("B1", "B2", "B3")]
    e = [_case_total(t, c, "eliminate_disrupted") for c in ("B1", "B2", "B3")]
    return d[0] <= d[1] <= d[2] and e[0] == e[1] == 0 < e[2] and d[0] > 0


CONSTRAINTS: list[Constraint] = [
    Constraint("bt-one-die", "IC 12.33", "read with one die plus modifiers: every natural roll 1-6 has an entry, "
               "and the modifiers are not all zero",
               lambda t: t.low <= 1 and t.high >= DIE and any(m.value for m in t.drms.values())),
    Constraint("bt-b-codes", "Errata, Bombardment Chart", "the results include B1, B2 and B3, and the table uses each",
               lambda t: {"B1", "B2", "B3"} <= set(t.results) and {"B1", "B2", "B3"} <= {c.ground for c in _strike_cells(t)}),
    Constraint("bt-errata-b1-b2", "Errata, Bombardment Chart (B1, B2)", "B1 and B2 each had a first case that "
               "eliminated disrupted units, and with the errata neither eliminates any",
               lambda t: all(t.results[c].cases and t.results[c].cases[0].effect == "eliminate_disrupted"
                             and t.results[c].cases[0].struck
                             and _case_total(t, c, "eliminate_disrupted") == 0 for c in ("B1", "B2"))),
    Constraint("bt-errata-b3", "Errata, Bombardment Chart (B3)", "B3's first case eliminates exactly one disrupted "
               "combat unit and is joined by a second case",
               lambda t: len(t.results["B3"].active()) >= 2
               and t.results["B3"].active()[0] == t.results["B3"].cases[0]
               and (t.results["B3"].cases[0].effect, t.results["B3"].cases[0].count) == ("eliminate_disrupted", 1)),
    Constraint("bt-at-line", "IC 12.52, IC 12.53", "an AT line exists, and on it some results eliminate the air "
               "unit and some abort the mission",
               lambda t: any(not t.at_results[c.value].air_unit_kept for c in t.at_line.cells.values())
               and any(not t.at_results[c.value].mission_completed and t.at_results[c.value].air_unit_kept
                       for c in t.at_line.cells.values())),
    Constraint("bt-aa-losses", "IC 12.51", "some bombardment results cost air units",
               lambda t: any(c.air_losses > 0 for c in _strike_cells(t))),
    Constraint("bt-no-effect", "IC 12.33", "a strike can have no effect at all",
               lambda t: any(c.ground == "NE" and not c.air_losses for c in _strike_cells(t))
               and not t.results["NE"].cases),
    Constraint("bt-artillery-penalty", "IC 12.54", "Communist artillery near the target gives a modifier that hurts "
               "the FEF (heavier flak)", lambda t: t.drms["artillery"].value < 0),
    Constraint("bt-overrun-negative", "IC 27.5", "airstrikes during overruns have a negative modifier",
               lambda t: t.drms["overrun"].value < 0),
    Constraint("bt-range-values", "IC Exp Aircraft Range", "range modifiers are +1 (1-3 hexes), 0 (4-6) and -1 (7+)",
               lambda t: (t.drms["range_near"].value, t.drms["range_mid"].value, t.drms["range_far"].value) == (1, 0, -1)),
    Constraint("bt-high-roll-helps", "IC Exp Aircraft Range", "the +1 for short flights only helps if a higher "
               "roll is never worse for the FEF; more groups are never worse either (12.35)", _monotone),
    Constraint("bt-severity", "Errata, Bombardment Chart", "B1, B2 and B3 rise in strength, and after the errata only "
               "B3 eliminates", _severity_rises),
    Constraint("bt-any-number-of-groups", "IC 12.35", "every number of strike groups has a line (the last is open-ended)",
               lambda t: t.lines[0].low == 1 and t.lines[-1].high is None),
    Constraint("bt-at-modifiers-fit", "IC 12.54", "every modified roll a transport can make has an AT entry "
               "without leaving the table's range by more than the artillery penalty",
               lambda t: t.low <= 1 + min(0, t.drms["artillery"].value)),
]


def check_constraints(table: BombardmentTable | None = None) -> list[str]:
    """The ids of the constraints this table breaks (empty when all hold)."""
    return failed_constraints(CONSTRAINTS, table or shipped_table())
