"""The Bombardment Table as data (12.33, 12.51 and the errata): its lines, cells, modifiers and the AT line.

The table is printed on the map and absent from the text, so the shipped ``bombardment.yaml`` is a
reconstruction with a provenance on every value; :data:`CONSTRAINTS` lists what the text implies about it.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Sequence

from ..core import Cell, Dice, Distribution, Provenance, Resolution, enumerate_outcomes, implements
from ..core.charts import (Constraint, failed_constraints, parse_column_label, parse_provenance, read_data_file,
                           require)
from ..core.errors import DataError, RuleViolation

DATA = Path(__file__).parent / "data" / "charts"
DIE = 6                                   # 12.33: one die
TABLE_RULE = "IC Bombardment Table"
EFFECTS = ("eliminate_disrupted", "disrupt_effective")
ALL = "all"
REQUIRED_DRMS = ("artillery", "overrun", "range_near", "range_mid", "range_far")


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


def _parse_cases(spec: Any, file: str, where: str, default: Provenance) -> tuple[Case, ...]:
    if not isinstance(spec, list):
        raise DataError(file, where, f"must be a list of cases, not {type(spec).__name__}")
    out = []
    for i, c in enumerate(spec):
        w = f"{where}[{i}]"
        effect = require(c, "effect", str, file, w)
        if effect not in EFFECTS:
            raise DataError(file, f"{w}.effect", f"{effect!r} is not an effect; expected one of {', '.join(EFFECTS)}")
        count = require(c, "count", (int, str), file, w)
        if isinstance(count, bool) or (isinstance(count, str) and count != ALL) or (isinstance(count, int) and count < 1):
            raise DataError(file, f"{w}.count", f"must be a whole number of units (1 or more) or 'all', not {count!r}")
        struck = c.get("struck", "")
        if not isinstance(struck, str):
            raise DataError(file, f"{w}.struck", "must be a string saying which erratum removed the case")
        out.append(Case(effect, count, parse_provenance(c.get("provenance"), file, f"{w}.provenance", default), struck))
    return tuple(out)


def _strike_cell(raw: Any, results: dict, losses: dict, file: str, where: str) -> StrikeCell:
    if not isinstance(raw, str) or not raw.strip():
        raise DataError(file, where, f"{raw!r} is not a result such as 'B1', 'A1' or 'A1+B1'")
    parts = [p.strip() for p in raw.split("+")]
    air = [p for p in parts if p in losses]
    ground = [p for p in parts if p in results]
    unknown = [p for p in parts if p not in losses and p not in results]
    if unknown:
        raise DataError(file, where, f"{unknown[0]!r} is not a result code; expected one of "
                                     f"{', '.join(list(results) + list(losses))}")
    if len(air) > 1 or len(ground) > 1:
        raise DataError(file, where, f"{raw!r} combines more than one loss or more than one ground result")
    if not ground and "NE" not in results:
        raise DataError(file, where, f"{raw!r} has no ground result and the table has no NE code to stand for none")
    return StrikeCell(raw, ground[0] if ground else "NE", losses[air[0]][0] if air else 0)


@implements(TABLE_RULE, "IC 12.33", "IC 12.51")
def load_bombardment_table(path: str | Path | None = None, data: Any = None) -> BombardmentTable:
    """Load a Bombardment Table from YAML (the shipped reconstruction or an owner's printed table)."""
    file, data, default = read_data_file(path or DATA / "bombardment.yaml", data)
    name = require(data, "name", str, file)
    rule = require(data, "rule", str, file)
    rolls = require(data, "rolls", dict, file)
    low, high = require(rolls, "low", int, file, "rolls"), require(rolls, "high", int, file, "rolls")
    if not (low <= 1 and high >= DIE):
        raise DataError(file, "rolls", f"entries {low} to {high} must cover every roll of the die, 1 to {DIE}")

    results: dict[str, ResultCode] = {}
    for rank, (code, spec) in enumerate(require(data, "results", dict, file).items()):
        where = f"results.{code}"
        meaning = require(spec, "meaning", str, file, where)
        cases = _parse_cases(spec.get("cases", []), file, f"{where}.cases", default)
        prov = parse_provenance(spec.get("provenance"), file, f"{where}.provenance", default)
        results[str(code)] = ResultCode(str(code), meaning, cases, prov, rank)
    if not results:
        raise DataError(file, "results", "must name at least one result code")

    losses: dict[str, tuple[int, Provenance]] = {}
    for code, spec in (data.get("air_losses") or {}).items():
        where = f"air_losses.{code}"
        n = require(spec, "groups", int, file, where)
        if n < 1:
            raise DataError(file, f"{where}.groups", f"an antiaircraft loss costs at least one group, not {n}")
        if code in results:
            raise DataError(file, where, "is also a result code")
        losses[str(code)] = (n, parse_provenance(spec.get("provenance"), file, f"{where}.provenance", default))

    at_results: dict[str, ATResult] = {}
    for code, spec in require(data, "at_results", dict, file).items():
        where = f"at_results.{code}"
        air_unit = require(spec, "air_unit", str, file, where)
        mission = require(spec, "mission", str, file, where)
        if air_unit not in ("kept", "eliminated"):
            raise DataError(file, f"{where}.air_unit", f"must be 'kept' or 'eliminated', not {air_unit!r}")
        if mission not in ("completed", "aborted"):
            raise DataError(file, f"{where}.mission", f"must be 'completed' or 'aborted', not {mission!r}")
        at_results[str(code)] = ATResult(str(code), require(spec, "meaning", str, file, where), air_unit == "kept",
                                         mission == "completed",
                                         parse_provenance(spec.get("provenance"), file, f"{where}.provenance", default))

    line_specs = require(data, "lines", dict, file)
    if "AT" not in line_specs:
        raise DataError(file, "lines.AT", "is missing: air transport near Communist units rolls on the AT line (12.52)")
    overrides = data.get("cells") or {}
    if not isinstance(overrides, dict):
        raise DataError(file, "cells", "must be a mapping of 'line/roll' to provenance")
    line_prov = data.get("line_provenance") or {}
    if not isinstance(line_prov, dict):
        raise DataError(file, "line_provenance", "must be a mapping of line label to provenance")
    width = high - low + 1
    lines: list[Line] = []
    at_line: Line | None = None
    for label, row in line_specs.items():
        label = str(label)
        where = f"lines.{label}"
        if not isinstance(row, list) or len(row) != width:
            got = len(row) if isinstance(row, list) else type(row).__name__
            raise DataError(file, where, f"must list {width} entries, one per modified roll {low} to {high} (got {got})")
        cells = {}
        for r, raw in zip(range(low, high + 1), row):
            cell_name = f"{where}[{r}]"
            if label == "AT":
                if not isinstance(raw, str) or raw not in at_results:
                    raise DataError(file, cell_name, f"{raw!r} is not an AT result; expected one of {', '.join(at_results)}")
                value: Any = raw
            else:
                value = _strike_cell(raw, results, losses, file, cell_name)
            prov = parse_provenance(overrides.get(f"{label}/{r}"), file, f"cells[{label}/{r}]", default)
            cells[r] = Cell(value, prov)
        lp = parse_provenance(line_prov[label], file, f"line_provenance.{label}") if label in line_prov else None
        if label == "AT":
            at_line = Line("AT", None, None, cells, lp)
        else:
            col = parse_column_label(label, file, where)
            lines.append(Line(label, col.low, col.high, cells, lp))
    if not lines:
        raise DataError(file, "lines", "must have at least one strike line besides AT")
    if lines[0].low != 1:
        raise DataError(file, f"lines.{lines[0].label}", "the first strike line must start at one group")
    for a, b in zip(lines, lines[1:]):
        if a.high is None or b.low != a.high + 1:
            raise DataError(file, f"lines.{b.label}", f"must start right after line {a.label!r} (no gap or overlap)")
    if lines[-1].high is not None:
        raise DataError(file, f"lines.{lines[-1].label}", "the last strike line must be open-ended (like '8+'): "
                                                         "any number of strikes may attack one hex (12.35)")
    known = {f"{line.label}/{r}" for line in lines + [at_line] for r in range(low, high + 1)}
    unknown = [k for k in overrides if k not in known]
    if unknown:
        raise DataError(file, f"cells[{unknown[0]}]", "names no entry of this table")
    stray = [k for k in line_prov if str(k) not in line_specs]
    if stray:
        raise DataError(file, f"line_provenance.{stray[0]}", "names no line of this table")

    drms: dict[str, DRM] = {}
    drm_specs = require(data, "drms", dict, file)
    for key in REQUIRED_DRMS:
        if key not in drm_specs:
            raise DataError(file, f"drms.{key}", "is missing")
    for key, spec in drm_specs.items():
        where = f"drms.{key}"
        if key not in REQUIRED_DRMS:
            raise DataError(file, where, f"is not a modifier the rules name; expected {', '.join(REQUIRED_DRMS)}")
        drms[key] = DRM(key, require(spec, "value", int, file, where), require(spec, "rule", str, file, where),
                        parse_provenance(spec.get("provenance"), file, f"{where}.provenance", default))
    return BombardmentTable(name, rule, low, high, results, losses, at_results, lines, at_line, drms, file,
                            data.get("notes", ""))


@lru_cache(maxsize=None)
def default_table() -> BombardmentTable:
    return load_bombardment_table()


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
    return failed_constraints(CONSTRAINTS, table or default_table())
