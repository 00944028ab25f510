"""Rule 12: air operations. Bombardment on the reconstructed Bombardment Table, air transport on its AT line.

Only the FEF has air units. They come in groups (one to three per counter, traded like small change, 12.1), wait
in the Available box, fly once, and rest in the Completed box until the turn ends (12.21). Each air phase flies
its strikes first and its transports afterwards (12.11).

A **strike** (12.3) is described by plain data, since the map and unit layers do not exist yet:

- :class:`GroundUnit`: one Communist unit in the target hex (an id, disrupted or not, its kind, its strength);
- :class:`TargetHex`: those units plus the facts the rules ask about the hex (FEF units present, artillery
  next door, coastal, next to FEF land units, in China, struck by an atomic bomb this turn);
- :class:`Strike`: how many airstrike groups, naval strikes and B-29 units attack the hex, and (for the
  experimental range rule) how far each airstrike flew.

Our reading of how several strike units combine (catalog B5 #20): everything placed on one hex is **one**
attack with **one** roll; the number of groups in it picks the table's line. :func:`airstrike` checks the
restrictions, adds the modifiers, rolls one die, reads the table, takes antiaircraft losses and applies the
B-result to the units, returning a :class:`~wargames.core.log.Resolution` whose ``result`` is a hashable
:class:`StrikeOutcome`. The same code runs with scripted, random or enumerated dice.

An **air transport** (12.4) is an :class:`AirMission` (a :class:`Cargo` flown between two :class:`Place`
records); :func:`air_transport` checks where it may start and land and, near Communist units, rolls on the AT
line (12.52). :class:`AirPool` and :class:`AirPhase` keep the boxes and the order of an air phase.
"""
from __future__ import annotations

import math
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
RANGE_RULE = "IC Exp Aircraft Range"

# Air unit types (12.1: groups of one type never turn into another type).
AIRSTRIKE, TRANSPORT, NAVAL, B29 = "airstrike", "air transport", "naval strike", "B-29"
AIR_TYPES = (AIRSTRIKE, TRANSPORT, NAVAL, B29)
COUNTER_SIZES = (1, 2, 3)                 # 12.1: a counter holds one to three groups

EFFECTS = ("eliminate_disrupted", "disrupt_effective")
ALL = "all"
REQUIRED_DRMS = ("artillery", "overrun", "range_near", "range_mid", "range_far")
UNIT_KINDS = ("unit", "artillery", "cadre", "militia")

# What one air transport group can carry (12.4, 15.72). Divisions must first break down (8.11).
CARGO_SIZES = ("group", "regiment", "brigade", "battalion", "cadre", "supply")
NOT_FLOWN = ("division", "base", "militia")
NO_AIR_TERRAIN = ("mountain",)            # 12.44 (B5 #18: parachute landings too)
AIR_TRANSPORT_MP = {"errata": 2, "12.43": 0}   # B5 #5: the TEC errata against 12.43


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


# --------------------------------------------------------------------------- the target and the strike

@dataclass(frozen=True)
class GroundUnit:
    """One Communist unit in the struck hex. ``strength`` is the combat strength on its current face."""

    id: str
    disrupted: bool = False
    kind: str = "unit"             # unit, artillery, cadre or militia
    strength: int = 1

    @property
    def combat_unit(self) -> bool:   # 2.35: a combat strength of one or more, parenthesized or not
        return self.strength >= 1


@dataclass(frozen=True)
class TargetHex:
    """The hex under attack, as far as the air rules ask about it."""

    units: tuple[GroundUnit, ...]
    label: str = "target"
    fef_units: bool = False                  # FEF units share the hex (12.32)
    artillery_adjacent: bool = False         # Communist artillery next door (12.54); artillery in the hex is in units
    coastal: bool = False                    # a coastal hex or next to one (12.6(1))
    next_to_fef_land_units: bool = False     # 12.7(2)
    in_china: bool = False                   # 22.3
    atomic_bombed: bool = False              # an atomic bomb hit it this turn (30.4)

    @property
    def artillery_near(self) -> bool:
        return self.artillery_adjacent or any(u.kind == "artillery" for u in self.units)


@dataclass(frozen=True)
class Strike:
    """The strike units in one attack. ``ranges``: for the experimental range rule, the distance each airstrike
    unit flew from its base (empty: the rule is not in use)."""

    airstrike: int = 0
    naval: int = 0
    b29: int = 0
    ranges: tuple[int, ...] = ()

    @property
    def groups(self) -> int:
        return self.airstrike + self.naval + self.b29

    def __add__(self, other: "Strike") -> "Strike":
        return Strike(self.airstrike + other.airstrike, self.naval + other.naval, self.b29 + other.b29,
                      self.ranges + other.ranges)

    def describe(self) -> str:
        parts = [f"{n} {name}{'s' if n != 1 else ''}" for n, name in
                 ((self.airstrike, "airstrike group"), (self.naval, "naval strike"), (self.b29, "B-29 unit")) if n]
        return " + ".join(parts) or "no strike units"


@dataclass(frozen=True)
class StrikeOutcome:
    """What one bombardment did (hashable, so exact odds can be enumerated over it)."""

    cell: str                      # the entry read, e.g. "A1+B1"
    ground: str                    # NE, B1, B2, B3
    line: str
    roll: int
    modified: int
    air_lost: int                  # airstrike groups shot down
    eliminated: tuple[str, ...]
    disrupted: tuple[str, ...]
    units: tuple[GroundUnit, ...]  # the hex's units afterwards

    def to_dict(self) -> dict:
        return asdict(self)


# The owning (Communist) player picks which units a result takes: chooser(action, candidates, n) -> ids.
Chooser = Callable[[str, tuple[GroundUnit, ...], int], Sequence[str]]


def weakest_first(action: str, candidates: tuple[GroundUnit, ...], n: int) -> list[str]:
    """The default owner's choice: give up the weakest units, in the order listed on ties."""
    order = sorted(range(len(candidates)), key=lambda i: (candidates[i].strength, i))
    return [candidates[i].id for i in order[:n]]


def _check_counts(strike: Strike) -> None:
    for name, n in (("airstrike", strike.airstrike), ("naval", strike.naval), ("b29", strike.b29)):
        if not isinstance(n, int) or isinstance(n, bool) or n < 0:
            raise RuleViolation("IC 12.33", f"{name} groups must be a whole number of 0 or more, not {n!r}")
    if strike.groups < 1:
        raise RuleViolation("IC 12.33", "a bombardment needs at least one strike unit in the hex")


@implements("IC 12.31", "IC 12.32", "IC 12.6", "IC 12.7", "IC 30.4")
def check_strike(target: TargetHex, strike: Strike) -> None:
    """Raise RuleViolation if the rules forbid this strike on this hex."""
    _check_counts(strike)
    ids = [u.id for u in target.units]
    if len(ids) != len(set(ids)):
        raise DataError(target.label, "units", "two units share one id")
    for u in target.units:
        if u.kind not in UNIT_KINDS:
            raise DataError(target.label, f"units[{u.id}].kind", f"must be one of {', '.join(UNIT_KINDS)}, not {u.kind!r}")
        if not isinstance(u.strength, int) or u.strength < 0:
            raise DataError(target.label, f"units[{u.id}].strength", f"must be a whole number of 0 or more, not {u.strength!r}")
    if target.in_china:
        raise RuleViolation("IC 22.3", "the FEF may never attack into China, from the air either")
    if target.fef_units:
        raise RuleViolation("IC 12.32", "a hex holding FEF units cannot be bombarded")
    if not target.units:
        raise RuleViolation("IC 12.32", "strikes go only on hexes holding enemy ground units")
    if all(u.kind in ("militia", "cadre") for u in target.units):
        raise RuleViolation("IC 12.32", "a hex holding nothing but militia and cadres cannot be struck")
    if target.atomic_bombed:
        raise RuleViolation("IC 30.4", "a hex hit by an atomic bomb takes no other strikes in the same turn")
    if strike.naval and not target.coastal:
        raise RuleViolation("IC 12.6", "naval strikes reach only coastal hexes and hexes next to them")
    if strike.b29 and (strike.airstrike or strike.naval):
        raise RuleViolation("IC 12.7", "B-29s attack alone: no other airstrikes or naval strikes in the same attack")
    if strike.b29 and target.next_to_fef_land_units:
        raise RuleViolation("IC 12.7", "B-29s may not bombard a hex next to FEF land units")


@implements(RANGE_RULE)
def range_modifier(ranges: Sequence[int], table: BombardmentTable | None = None) -> tuple[DRM, str]:
    """The experimental range modifier for one attack: all within 3 hexes +1; any from 7 or more -1; else 0."""
    t = table or default_table()
    if not ranges:
        raise RuleViolation(RANGE_RULE, "the range rule needs the range of every airstrike in the attack")
    bad = [r for r in ranges if not isinstance(r, int) or isinstance(r, bool) or r < 1]
    if bad:
        raise RuleViolation(RANGE_RULE, f"a range counts hexes from a base to the target, at least 1, not {bad[0]!r}")
    if any(r >= 7 for r in ranges):
        return t.drms["range_far"], f"a strike flew {max(ranges)} hexes (7 or more)"
    if all(r <= 3 for r in ranges):
        return t.drms["range_near"], f"every strike flew 3 hexes or fewer ({', '.join(map(str, ranges))})"
    return t.drms["range_mid"], f"the longest flight was {max(ranges)} hexes (4-6)"


FRENCH_CARRIER_STRIKES = 2


@implements(RANGE_RULE)
def check_carrier_basing(french_at_sea: int, us_at_sea: int = 0, us_airstrikes: int = 0) -> None:
    """Range rule: carriers may base two French airstrike groups, and up to half the US airstrikes (rounded up).

    B-29s need no base and do not count toward the US total.
    """
    if french_at_sea > FRENCH_CARRIER_STRIKES:
        raise RuleViolation(RANGE_RULE, f"carriers hold {FRENCH_CARRIER_STRIKES} French airstrike groups, not {french_at_sea}")
    limit = math.ceil(us_airstrikes / 2)
    if us_at_sea > limit:
        raise RuleViolation(RANGE_RULE, f"at most half of {us_airstrikes} US airstrike groups, rounded up ({limit}), "
                                        f"may fly from carriers, not {us_at_sea}")


@implements("IC 12.54", "IC 27.5", RANGE_RULE)
def strike_modifiers(target: TargetHex, strike: Strike, overrun: bool = False,
                     table: BombardmentTable | None = None) -> list[tuple[DRM, str]]:
    """Every modifier for this attack, each with the reason it applies."""
    t = table or default_table()
    out: list[tuple[DRM, str]] = []
    if target.artillery_near and strike.airstrike:
        where = "in" if any(u.kind == "artillery" for u in target.units) else "next to"
        out.append((t.drms["artillery"], f"Communist artillery {where} the target hex"))
    if overrun:
        out.append((t.drms["overrun"], "an airstrike called in during an overrun"))
    if strike.ranges and strike.airstrike:
        if len(strike.ranges) > strike.airstrike:
            raise RuleViolation(RANGE_RULE, f"{len(strike.ranges)} ranges for {strike.airstrike} airstrike groups")
        out.append(range_modifier(strike.ranges, t))
    return out


def _apply_case(case: Case, units: list[GroundUnit], choose: Chooser, res: Resolution,
                eliminated: list[str], disrupted: list[str]) -> list[GroundUnit]:
    if case.effect == "eliminate_disrupted":
        pool = tuple(u for u in units if u.disrupted and u.combat_unit and u.kind != "militia")
        action = "eliminate"
    else:
        pool = tuple(u for u in units if not u.disrupted and u.kind != "militia")
        action = "disrupt"
    n = len(pool) if case.count == ALL else min(case.count, len(pool))
    if n == len(pool):
        picked = [u.id for u in pool]
    else:
        picked = list(choose(action, pool, n))
        if len(picked) != n or len(set(picked)) != n or not set(picked) <= {u.id for u in pool}:
            raise RuleViolation(TABLE_RULE, f"the owner must pick {n} of {[u.id for u in pool]} to {action}, "
                                            f"not {picked}")
    mark = " (reconstructed case)" if case.provenance.reconstructed else ""
    if not pool:
        res.add(TABLE_RULE, f"{case.describe()}: there is none{mark}", result=[])
        return units
    res.add(TABLE_RULE, f"{case.describe()}: {', '.join(picked)}{mark}", result=picked)
    if action == "eliminate":
        eliminated += picked
        return [u for u in units if u.id not in picked]
    disrupted += picked
    return [replace(u, disrupted=True) if u.id in picked else u for u in units]


@implements(TABLE_RULE, "IC 17.34", "IC Errata")
def apply_result(code: str, units: Sequence[GroundUnit], *, errata: bool = True,
                 table: BombardmentTable | None = None, choose: Chooser | None = None,
                 res: Resolution | None = None) -> tuple[tuple[GroundUnit, ...], tuple[str, ...], tuple[str, ...]]:
    """Apply a ground result to every unit of the hex, case by case in the printed order.

    Returns (units afterwards, eliminated ids, disrupted ids). Communist militia is never touched (17.34).
    With ``errata=False`` the cases the errata struck apply again (to compare with the original table).
    """
    t = table or default_table()
    res = res if res is not None else Resolution()
    result = t.results[code]
    militia = [u.id for u in units if u.kind == "militia"]
    if militia and result.active(errata):
        res.add("IC 17.34", f"Communist militia ({', '.join(militia)}) is never hurt by bombardment")
    current, eliminated, disrupted = list(units), [], []
    for i, case in enumerate(result.cases, start=1):
        if errata and case.struck:
            res.add("IC Errata", f"{code} case ({i}) ({case.describe()}) is struck: {case.struck}")
            continue
        current = _apply_case(case, current, choose or weakest_first, res, eliminated, disrupted)
    return tuple(current), tuple(eliminated), tuple(disrupted)


@implements("IC 12.0", "IC 12.3", "IC 12.31", "IC 12.33", "IC 12.35", "IC 12.5", "IC 12.51", "IC 12.53",
            "IC 12.6", "IC 12.7", TABLE_RULE)
def airstrike(dice: Dice, target: TargetHex, strike: Strike, *, overrun: bool = False, errata: bool = True,
              table: BombardmentTable | None = None, choose: Chooser | None = None,
              res: Resolution | None = None) -> Resolution:
    """Resolve one bombardment of one hex: every strike unit placed there, one roll (12.33, 12.35)."""
    t = table or default_table()
    res = res if res is not None else Resolution()
    check_strike(target, strike)
    res.add("IC 12.32", f"{target.label}: {len(target.units)} Communist unit(s), a legal target")
    line = t.line_for(strike.groups)
    res.add("IC 12.35", f"one attack on {target.label} by {strike.describe()}: {strike.groups} group(s), "
                        f"line {line.label}", result=line.label)
    drms = strike_modifiers(target, strike, overrun, t)
    for drm, why in drms:
        res.add(drm.rule, f"{why}: {drm.value:+d}" + (" (reconstructed value)" if drm.provenance.reconstructed else ""),
                result=drm.value)
    if strike.ranges and not strike.airstrike:
        res.add(RANGE_RULE, "range counts only for airstrikes: naval strikes and B-29s ignore it")
    if target.artillery_near and not strike.airstrike:
        res.add("IC 12.54", "the artillery modifier is flak: naval strikes and B-29s ignore it")
    total = sum(d.value for d, _ in drms)
    roll = dice.roll(DIE, f"bombardment of {target.label}")
    modified = roll + total
    row, cell = t.read(line, modified)
    value: StrikeCell = cell.value
    edge = ""
    if row != modified:
        edge = f"; {modified} is off the table, read as {row}"
    res.add("IC 12.33", f"roll {roll}" + (f", modified {total:+d} = {modified}" if total else "")
            + f"{edge}: {value.text} on line {line.label}"
            + (" (reconstructed entry)" if cell.provenance.reconstructed else ""),
            arithmetic=f"{roll} {total:+d} = {modified}" if total else "", result=value.text, roll=roll)
    lost = 0
    if value.air_losses:
        if strike.airstrike:
            lost = min(value.air_losses, strike.airstrike)
            res.add("IC 12.51", f"flak shoots down {lost} airstrike group(s); they are removed from play (12.53)",
                    result=lost)
        else:
            rule = "IC 12.7" if strike.b29 else "IC 12.6"
            res.add(rule, f"{'B-29s' if strike.b29 else 'naval strikes'} ignore antiaircraft fire: no loss")
    meaning = t.results[value.ground].meaning
    res.add(TABLE_RULE, f"{value.ground}: {meaning}")
    units, eliminated, disrupted = apply_result(value.ground, target.units, errata=errata, table=t,
                                                choose=choose, res=res)
    res.result = StrikeOutcome(value.text, value.ground, line.label, roll, modified, lost, eliminated,
                               disrupted, units)
    return res


def strike_odds(target: TargetHex, strike: Strike, key: Callable[[StrikeOutcome], Any] = lambda o: o.ground,
                **kw) -> Distribution:
    """The exact distribution of ``key(outcome)`` for this strike (by default the ground result)."""
    return enumerate_outcomes(lambda d: key(airstrike(d, target, strike, **kw).result))


# --------------------------------------------------------------------------- air transport

@dataclass(frozen=True)
class Place:
    """A hex an air mission starts from or lands on (or the off-map staging area)."""

    label: str = ""
    terrain: str = "clear"
    airfield: bool = False             # an FEF city, town, base or fortification (12.41)
    fef_units: bool = False            # an FEF land unit occupies it
    enemy_units: bool = False          # Communist units occupy it
    next_to_communists: bool = False   # a Communist unit is adjacent (12.52)
    artillery_near: bool = False       # Communist artillery in or next to it (12.54)
    prohibited: bool = False           # terrain prohibited to the cargo
    in_china: bool = False
    staging_area: bool = False         # the Far Eastern Staging Area (23.13, 23.14)


@dataclass(frozen=True)
class Cargo:
    id: str
    size: str = "group"                # group, regiment, brigade, battalion, cadre, or supply (a marker)
    airborne: bool = False             # parachute units (19.0)
    dna: bool = False


@dataclass(frozen=True)
class AirMission:
    """One air transport group carrying one cargo from ``origin`` to ``destination``."""

    cargo: Cargo
    origin: Place
    destination: Place


@dataclass(frozen=True)
class TransportOutcome:
    code: str                          # an AT-line code, or "OK" when no roll was needed
    rolled: bool
    roll: int | None
    modified: int | None
    air_unit_kept: bool
    mission_completed: bool
    landing: str                       # airfield, parachute or supply drop

    def to_dict(self) -> dict:
        return asdict(self)


@implements("IC 12.4", "IC 12.41", "IC 12.44", "IC 12.45", "IC 12.46", "IC 15.72", "IC 19.0", "IC 19.1",
            "IC 19.2", "IC 23.13", "IC 23.14", "IC 27.5")
def check_air_mission(m: AirMission, during_overrun: bool = False) -> str:
    """Raise RuleViolation if the mission is illegal; otherwise return how it lands."""
    c, o, d = m.cargo, m.origin, m.destination
    if during_overrun:
        raise RuleViolation("IC 27.5", "no air transport may fly during an overrun")
    if c.dna:
        raise RuleViolation("IC 12.4", "DNA units cannot be flown")
    if c.size in NOT_FLOWN:
        why = {"division": "a division must first break down into groups or regiments (8.11)",
               "base": "bases are not among the loads an air transport carries",
               "militia": "militia never moves"}[c.size]
        raise RuleViolation("IC 12.4", f"{c.id} cannot be flown: {why}")
    if c.size not in CARGO_SIZES:
        raise DataError("air mission", "cargo.size", f"must be one of {', '.join(CARGO_SIZES + NOT_FLOWN)}, not {c.size!r}")
    if not o.staging_area:
        if not o.airfield:
            raise RuleViolation("IC 12.41", f"{c.id} must start on an FEF city, town, base or fortification "
                                            f"(an airfield); {o.label or 'the start hex'} has none")
        if o.terrain in NO_AIR_TERRAIN or o.prohibited:
            raise RuleViolation("IC 12.44", f"no air mission may start in a {o.terrain if not o.prohibited else 'prohibited'} hex")
    if d.staging_area:
        raise RuleViolation("IC 12.41", "air transport lands on a map hex")
    if d.in_china:
        raise RuleViolation("IC 22.3", "the FEF may never enter China")
    if d.terrain in NO_AIR_TERRAIN or d.prohibited:
        raise RuleViolation("IC 12.44", f"no air mission may end in a {d.terrain if not d.prohibited else 'prohibited'} "
                                        "hex (parachute landings included, our reading of 12.44 against 19.1)")
    if d.airfield and d.fef_units and not d.enemy_units:
        return "airfield"
    if c.size == "supply":
        if d.enemy_units:
            raise RuleViolation("IC 12.46", "supplies cannot be dropped on a hex holding Communist units")
        return "supply drop"
    if c.airborne:
        if d.enemy_units:
            raise RuleViolation("IC 12.45", "airborne units cannot land on a hex holding Communist units")
        return "parachute"
    raise RuleViolation("IC 12.41", f"{c.id} is not airborne, so it must land on an FEF-occupied city, town, base "
                                    "or fortification")


@implements("IC 12.4", "IC 12.5", "IC 12.52", "IC 12.53", "IC 12.54", TABLE_RULE)
def air_transport(dice: Dice, m: AirMission, *, during_overrun: bool = False,
                  table: BombardmentTable | None = None, res: Resolution | None = None) -> Resolution:
    """Fly one air transport group with its cargo, rolling on the AT line if either end is next to Communists."""
    t = table or default_table()
    res = res if res is not None else Resolution()
    landing = check_air_mission(m, during_overrun)
    start = "the Far Eastern Staging Area" if m.origin.staging_area else (m.origin.label or "an airfield")
    rule = {"airfield": "IC 12.41", "parachute": "IC 12.45", "supply drop": "IC 12.46"}[landing]
    if m.origin.staging_area:
        rule = "IC 23.14" if landing != "airfield" else "IC 23.13"
    res.add(rule, f"{m.cargo.id} flies from {start} to {m.destination.label or 'its destination'} ({landing})")
    near = (m.origin.next_to_communists and not m.origin.staging_area) or m.destination.next_to_communists
    if not near:
        res.add("IC 12.52", "neither end is next to Communist units: no antiaircraft roll")
        res.result = TransportOutcome("OK", False, None, None, True, True, landing)
        return res
    total = 0
    if m.destination.artillery_near:
        drm = t.drms["artillery"]
        total += drm.value
        res.add("IC 12.54", f"Communist artillery near the landing hex: {drm.value:+d}"
                + (" (reconstructed value)" if drm.provenance.reconstructed else ""), result=drm.value)
    roll = dice.roll(DIE, f"AT line for {m.cargo.id}")
    modified = roll + total
    row, cell = t.read(t.at_line, modified)
    r = t.at_results[cell.value]
    edge = f"; {modified} is off the table, read as {row}" if row != modified else ""
    res.add("IC 12.52", f"AT line: roll {roll}" + (f", modified {total:+d} = {modified}" if total else "")
            + f"{edge}: {r.code} ({r.meaning})" + (" (reconstructed entry)" if cell.provenance.reconstructed else ""),
            arithmetic=f"{roll} {total:+d} = {modified}" if total else "", result=r.code, roll=roll)
    if not r.air_unit_kept:
        res.add("IC 12.53", "the air transport group is eliminated and removed from play")
    elif not r.mission_completed:
        res.add("IC 12.53", "the mission aborts: the group goes to the Completed box and the cargo stays put")
    res.result = TransportOutcome(r.code, True, roll, modified, r.air_unit_kept, r.mission_completed, landing)
    return res


def transport_odds(m: AirMission, key: Callable[[TransportOutcome], Any] = lambda o: o.code, **kw) -> Distribution:
    return enumerate_outcomes(lambda d: key(air_transport(d, m, **kw).result))


@implements("IC 12.43")
def air_transport_cost(reading: str = "errata") -> int:
    """Movement points an air move costs: 2 by the TEC errata (our default), 0 by 12.43 as printed (B5 #5)."""
    if reading not in AIR_TRANSPORT_MP:
        raise RuleViolation("IC 12.43", f"the reading is 'errata' or '12.43', not {reading!r}")
    return AIR_TRANSPORT_MP[reading]


# --------------------------------------------------------------------------- air units, boxes and phases

@implements("IC 12.1")
def regroup(counters: Sequence[tuple[str, int]], into: Sequence[tuple[str, int]]) -> tuple[tuple[str, int], ...]:
    """Trade air counters like change (12.1): the same groups of each type, in counters of one to three."""
    for kind, n in list(counters) + list(into):
        if kind not in AIR_TYPES:
            raise RuleViolation("IC 12.1", f"{kind!r} is not an air unit type; expected one of {', '.join(AIR_TYPES)}")
        if n not in COUNTER_SIZES:
            raise RuleViolation("IC 12.1", f"an air counter holds one to three groups, not {n}")
    for kind in AIR_TYPES:
        before = sum(n for k, n in counters if k == kind)
        after = sum(n for k, n in into if k == kind)
        if before != after:
            raise RuleViolation("IC 12.1", f"{kind}: {before} group(s) cannot become {after}; groups never change type")
    return tuple(into)


@implements("IC 12.2", "IC 12.21", "IC 12.23", "IC 12.53")
@dataclass
class AirPool:
    """The Air Units Available and Completed boxes, counted in groups of each type (our reading of B5 #19)."""

    available: dict[str, int]
    completed: dict[str, int] = field(default_factory=dict)
    eliminated: dict[str, int] = field(default_factory=dict)
    log: Resolution = field(default_factory=Resolution)

    def __post_init__(self) -> None:
        for box in (self.available, self.completed, self.eliminated):
            for kind, n in box.items():
                if kind not in AIR_TYPES:
                    raise RuleViolation("IC 12.1", f"{kind!r} is not an air unit type")
                if n < 0:
                    raise RuleViolation("IC 12.21", f"{kind}: a box cannot hold {n} groups")

    def take(self, kind: str, groups: int, why: str = "a mission") -> None:
        """Put groups on the map for a mission (12.21)."""
        if kind not in AIR_TYPES:
            raise RuleViolation("IC 12.1", f"{kind!r} is not an air unit type")
        have = self.available.get(kind, 0)
        if groups > have:
            raise RuleViolation("IC 12.21", f"{groups} {kind} group(s) wanted for {why}, but only {have} available")
        self.available[kind] = have - groups
        self.log.add("IC 12.21", f"{groups} {kind} group(s) fly {why}")

    def complete(self, kind: str, groups: int) -> None:
        if groups:
            self.completed[kind] = self.completed.get(kind, 0) + groups
            self.log.add("IC 12.21", f"{groups} {kind} group(s) go to the Completed box")

    def eliminate(self, kind: str, groups: int) -> None:
        if groups:
            self.eliminated[kind] = self.eliminated.get(kind, 0) + groups
            self.log.add("IC 12.53", f"{groups} {kind} group(s) eliminated, out of play for good")

    def end_of_turn(self) -> None:
        """Everything in the Completed box is available again next turn (12.21, 12.23)."""
        for kind, n in self.completed.items():
            self.available[kind] = self.available.get(kind, 0) + n
        if any(self.completed.values()):
            self.log.add("IC 12.23", f"end of turn: {dict(self.completed)} return to the Available box")
        self.completed = {}


def _take_strike(pool: AirPool, strike: Strike, why: str) -> None:
    """Take every strike unit of an attack from the Available box, or none if any type falls short."""
    wanted = [(k, n) for k, n in ((AIRSTRIKE, strike.airstrike), (NAVAL, strike.naval), (B29, strike.b29)) if n]
    for kind, n in wanted:
        if n > pool.available.get(kind, 0):
            raise RuleViolation("IC 12.21", f"{n} {kind} group(s) wanted for {why}, but only "
                                            f"{pool.available.get(kind, 0)} available")
    for kind, n in wanted:
        pool.take(kind, n, why)


@implements("IC 12.11", "IC 12.22", "IC 12.34", "IC 12.36", "IC 12.37", "IC 12.42", "IC 15.33")
@dataclass
class AirPhase:
    """One FEF air phase: extra sorties first (offensive phase only), then every strike placed, then resolved
    one hex at a time, then air transports."""

    pool: AirPool
    kind: str = "offensive"                # offensive (FEF turn) or defensive (Communist turn)
    errata: bool = True
    table: BombardmentTable | None = None
    committed: dict[str, tuple[TargetHex, Strike]] = field(default_factory=dict)
    bombarded: list[str] = field(default_factory=list)
    stage: str = "start"                   # start, strikes placed, resolving, transport
    log: Resolution = field(default_factory=Resolution)

    def __post_init__(self) -> None:
        if self.kind not in ("offensive", "defensive"):
            raise RuleViolation("IC 12.32", f"an air phase is offensive or defensive, not {self.kind!r}")

    def increased_sorties(self, kind: str, groups: int, supply_points: int) -> int:
        """12.22 / 15.33: at the start of the offensive phase, one supply point per group brings it back.

        Returns the supply points left. Groups are the unit of payment, since counters split freely (12.1).
        """
        if self.kind != "offensive":
            raise RuleViolation("IC 12.22", "extra sorties are bought only in the FEF Offensive Air Phase")
        if self.stage != "start":
            raise RuleViolation("IC 12.22", "extra sorties are bought at the very start of the phase, before any mission")
        if groups > self.pool.completed.get(kind, 0):
            raise RuleViolation("IC 12.22", f"only {self.pool.completed.get(kind, 0)} {kind} group(s) are in the "
                                            f"Completed box, not {groups}")
        if groups > supply_points:
            raise RuleViolation("IC 15.33", f"{groups} extra sorties cost {groups} supply points; only {supply_points} left")
        self.pool.completed[kind] = self.pool.completed.get(kind, 0) - groups
        self.pool.available[kind] = self.pool.available.get(kind, 0) + groups
        self.log.add("IC 15.33", f"{groups} {kind} group(s) back to Available for {groups} supply point(s)",
                     arithmetic=f"{supply_points} - {groups} = {supply_points - groups}")
        return supply_points - groups

    def commit(self, target: TargetHex, strike: Strike) -> None:
        """Place strike units on a hex (12.34); more units on the same hex join the same attack (12.35)."""
        if self.stage not in ("start", "strikes placed"):
            why = ("that hex was already bombarded this phase" if target.label in self.bombarded
                   else "every strike is placed before the first is resolved")
            raise RuleViolation("IC 12.37" if target.label in self.bombarded else "IC 12.34", why)
        merged = strike
        if target.label in self.committed:
            old_target, old = self.committed[target.label]
            if old_target != target:
                raise DataError("air phase", target.label, "two different descriptions of one hex")
            merged = old + strike
        _check_counts(strike)
        check_strike(target, merged)
        _take_strike(self.pool, strike, f"a strike on {target.label}")
        self.committed[target.label] = (target, merged)
        self.stage = "strikes placed"
        self.log.add("IC 12.34", f"{strike.describe()} placed on {target.label}"
                     + (f" (now {merged.describe()})" if merged != strike else ""))

    def pending(self) -> list[str]:
        return [h for h in self.committed if h not in self.bombarded]

    def resolve(self, dice: Dice, label: str | None = None, choose: Chooser | None = None) -> Resolution:
        """Resolve one placed strike (the named hex, or the first placed)."""
        todo = self.pending()
        if not todo:
            raise RuleViolation("IC 12.34", "no placed strike is waiting to be resolved")
        label = label or todo[0]
        if label not in todo:
            raise RuleViolation("IC 12.37", f"{label} has no strike waiting (each hex is bombarded once per phase)")
        target, strike = self.committed[label]
        self.stage = "resolving"
        res = airstrike(dice, target, strike, errata=self.errata, table=self.table, choose=choose)
        out: StrikeOutcome = res.result
        self.bombarded.append(label)
        self.pool.complete(AIRSTRIKE, strike.airstrike - out.air_lost)
        self.pool.eliminate(AIRSTRIKE, out.air_lost)
        self.pool.complete(NAVAL, strike.naval)
        self.pool.complete(B29, strike.b29)
        res.add("IC 12.36", "the surviving strike units go to the Completed box")
        self.log.extend(res)
        return res

    def resolve_all(self, dice: Dice, choose: Chooser | None = None) -> list[Resolution]:
        return [self.resolve(dice, h, choose) for h in self.pending()]

    def transport(self, dice: Dice, mission: AirMission) -> Resolution:
        """Fly one air transport group (12.42: only once every placed strike is resolved)."""
        if self.pending():
            raise RuleViolation("IC 12.42", f"air transport waits until every placed strike is resolved "
                                            f"({', '.join(self.pending())} still waiting, 12.11)")
        check_air_mission(mission)
        self.pool.take(TRANSPORT, 1, f"carrying {mission.cargo.id}")
        self.stage = "transport"
        res = air_transport(dice, mission, table=self.table)
        out: TransportOutcome = res.result
        (self.pool.complete if out.air_unit_kept else self.pool.eliminate)(TRANSPORT, 1)
        self.log.extend(res)
        return res


@implements("IC 27.5")
def overrun_airstrike(pool: AirPool, dice: Dice, target: TargetHex, strike: Strike, **kw) -> Resolution:
    """27.3(2), 27.5: an airstrike called into an overrun, with the overrun modifier, from the Available box."""
    check_strike(target, strike)
    _take_strike(pool, strike, f"an overrun strike on {target.label}")
    res = airstrike(dice, target, strike, overrun=True, **kw)
    out: StrikeOutcome = res.result
    pool.complete(AIRSTRIKE, strike.airstrike - out.air_lost)
    pool.eliminate(AIRSTRIKE, out.air_lost)
    pool.complete(NAVAL, strike.naval)
    pool.complete(B29, strike.b29)
    return res
