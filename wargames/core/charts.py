"""Charts as data: column tables with column shifts, and a provenance on every cell.

Provenance kinds:

- ``text``: stated in the rule text (``source`` names the rule);
- ``example``: forced by a printed worked example (``source`` names it);
- ``reconstructed``: the project's own value, chosen to satisfy every constraint;
- ``printed``: loaded by a game owner from their printed chart.

YAML files are validated as they load; any problem raises
:class:`~wargames.core.errors.DataError` naming the file, the cell and the reason.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

import yaml

from .errors import DataError, RuleViolation

KINDS = ("text", "example", "reconstructed", "printed")


@dataclass(frozen=True)
class Provenance:
    kind: str
    source: str = ""

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"provenance kind must be one of {KINDS}, not {self.kind!r}")

    @property
    def reconstructed(self) -> bool:
        return self.kind == "reconstructed"

    def mark(self) -> str:
        """A short visible mark for the book: R for reconstructed, E for example, T for text, P for printed."""
        return {"text": "T", "example": "E", "reconstructed": "R", "printed": "P"}[self.kind]


@dataclass(frozen=True)
class Cell:
    value: Any
    provenance: Provenance


@dataclass(frozen=True)
class Column:
    """A column identified by a label and, for strength columns, the range it covers."""

    label: str
    low: int | None = None
    high: int | None = None  # None: open-ended ("91+")

    def contains(self, value: int) -> bool:
        return (self.low is None or value >= self.low) and (self.high is None or value <= self.high)


@dataclass
class ColumnTable:
    """A chart read by column and die roll, e.g. a fire CRT."""

    name: str
    rule: str
    columns: list[Column]
    rows: list[int]
    cells: dict[tuple[str, int], Cell]
    source: str = "<memory>"
    notes: str = ""
    column_provenance: dict[str, Provenance] = field(default_factory=dict)

    def index(self, label: str) -> int:
        for i, c in enumerate(self.columns):
            if c.label == label:
                return i
        raise KeyError(f"{self.name} has no column {label!r}")

    def column_for(self, value: int) -> int:
        """The index of the column whose range holds ``value``."""
        for i, c in enumerate(self.columns):
            if c.contains(value):
                return i
        raise RuleViolation(self.rule, f"a total of {value} falls in no column of the {self.name}")

    def shift(self, index: int, by: int) -> tuple[int, int]:
        """Shift ``by`` columns (negative = left). Returns (new index, columns lost to the table edge).

        Clamping at the edge is never silent: the second value says how far the
        shift overran, so the caller records it in its Resolution.
        """
        target = index + by
        clamped = min(max(target, 0), len(self.columns) - 1)
        return clamped, target - clamped

    def lookup(self, index: int, roll: int) -> Cell:
        col = self.columns[index]
        try:
            return self.cells[(col.label, roll)]
        except KeyError:
            raise RuleViolation(self.rule, f"{self.name} has no row for a roll of {roll}") from None

    def get(self, label: str, roll: int) -> Cell:
        """The cell of a named column for a die roll."""
        return self.lookup(self.index(label), roll)

    def provenance_counts(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for cell in self.cells.values():
            out[cell.provenance.kind] = out.get(cell.provenance.kind, 0) + 1
        return out


# --------------------------------------------------------------------------- YAML loading

@dataclass(frozen=True)
class Constraint:
    """Something the rule text implies about a chart: ``check(*charts)`` is True when a chart set obeys it."""

    id: str
    source: str
    text: str
    check: Callable[..., bool]


def failed_constraints(constraints: list[Constraint], *charts: Any) -> list[str]:
    """The ids of the constraints these charts break; a chart so broken that a check cannot run fails it."""
    failed = []
    for c in constraints:
        try:
            ok = c.check(*charts)
        except (KeyError, IndexError, ValueError, AttributeError, RuleViolation, DataError):
            ok = False
        if not ok:
            failed.append(c.id)
    return failed


def read_yaml(path: str | Path) -> Any:
    """Read a YAML file; a missing file or a syntax error raises DataError naming the file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise DataError(p, "(file)", f"cannot be read: {e.strerror or e}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark else "(file)"
        raise DataError(p, where, f"is not valid YAML: {getattr(e, 'problem', e)}") from None


def require(data: Any, key: str, typ: type | tuple, file: str, where: str = "") -> Any:
    """Fetch ``data[key]`` and check its type, or raise DataError naming the field."""
    field_name = f"{where}.{key}" if where else key
    if not isinstance(data, dict):
        raise DataError(file, where or "(top level)", f"must be a mapping, not {type(data).__name__}")
    if key not in data:
        raise DataError(file, field_name, "is missing")
    value = data[key]
    if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
        names = typ.__name__ if isinstance(typ, type) else " or ".join(t.__name__ for t in typ)
        raise DataError(file, field_name, f"must be {names}, not {type(value).__name__} ({value!r})")
    return value


def parse_provenance(data: Any, file: str, where: str, default: Provenance | None = None) -> Provenance:
    """Read ``{kind: ..., source: ...}`` (or just a kind string)."""
    if data is None:
        if default is None:
            raise DataError(file, where, "has no provenance")
        return default
    if isinstance(data, str):
        data = {"kind": data}
    kind = require(data, "kind", str, file, where)
    if kind not in KINDS:
        raise DataError(file, f"{where}.kind", f"must be one of {', '.join(KINDS)}, not {kind!r}")
    source = data.get("source", "")
    if not isinstance(source, str):
        raise DataError(file, f"{where}.source", "must be a string")
    if kind in ("text", "example") and not source:
        raise DataError(file, f"{where}.source", f"a {kind!r} value must name its rule or example")
    return Provenance(kind, source)


def odds_value(label: str) -> Fraction:
    """The ratio of an odds column: ``"3/1"`` -> 3, ``"1/2"`` -> 1/2."""
    a, _, b = label.partition("/")
    return Fraction(int(a), int(b))


def read_data_file(path: str | Path, data: Any = None) -> tuple[str, Any, Provenance]:
    """Read a chart or map file: (file name, its data, the default provenance of its values).

    The default is the file's top-level ``provenance``; a file without one was typed in by a game owner
    from a printed chart, so its values are ``printed``.
    """
    file = str(path)
    if data is None:
        data = read_yaml(path)
    if not isinstance(data, dict):
        raise DataError(file, "(top level)", f"must be a mapping, not {type(data).__name__}")
    default = parse_provenance(data.get("provenance"), file, "provenance",
                               Provenance("printed", f"loaded from {Path(file).name}"))
    return file, data, default


def parse_column_label(label: str, file: str, where: str) -> Column:
    """Strength columns are ``"9-10"``, ``"5"`` or ``"91+"``; odds columns are ``"3/1"`` or ``"1/2"``."""
    text = str(label).strip()
    if "/" in text:
        a, _, b = text.partition("/")
        if not (a.isdigit() and b.isdigit() and "1" in (a, b) and int(a) > 0 and int(b) > 0):
            raise DataError(file, where, f"{label!r} is not an odds column like '3/1' or '1/2'")
        return Column(text)
    try:
        if text.endswith("+"):
            return Column(text, int(text[:-1]), None)
        if "-" in text:
            lo, hi = text.split("-", 1)
            lo_i, hi_i = int(lo), int(hi)
            if lo_i > hi_i:
                raise ValueError
            return Column(text, lo_i, hi_i)
        v = int(text)
        return Column(text, v, v)
    except ValueError:
        raise DataError(file, where, f"{label!r} is not a column range like '9-10', '5' or '91+'") from None


def load_column_table(path: str | Path, parse_value: Callable[[Any, str, str], Any],
                      data: Any = None, named_columns: bool = False) -> ColumnTable:
    """Load a column table from YAML.

    Layout::

        name: fire CRT
        rule: C 9
        rows: [1, 2, 3, 4, 5, 6]          # die rolls
        provenance: {kind: reconstructed, source: ...}   # default for cells
        columns: ["1", "2", "3-4", ...]
        results:                           # one list per row, in column order
          1: [...]
        by_column:                         # or: one list per column, in row order
          "9-10": [...]
        cells:                             # provenance overrides, keyed "column/roll"
          "31-40/4": {kind: example, source: ...}

    ``parse_value(raw, file, cell_name)`` validates and converts one cell. With ``named_columns`` the
    columns are names read by die roll ("small_arms", "US"), not strength or odds ranges.
    """
    file, data, default = read_data_file(path, data)
    name = require(data, "name", str, file)
    rule = require(data, "rule", str, file)
    rows = require(data, "rows", list, file)
    for i, r in enumerate(rows):
        if not isinstance(r, int) or isinstance(r, bool):
            raise DataError(file, f"rows[{i}]", f"must be an integer roll, not {r!r}")
    labels = require(data, "columns", list, file)
    if not labels:
        raise DataError(file, "columns", "must list at least one column")
    if named_columns:
        for i, lab in enumerate(labels):
            if not isinstance(lab, str) or not lab:
                raise DataError(file, f"columns[{i}]", f"must be a column name, not {lab!r}")
        if len(set(labels)) != len(labels):
            raise DataError(file, "columns", "names a column twice")
        columns = [Column(lab) for lab in labels]
    else:
        columns = [parse_column_label(lab, file, f"columns[{i}]") for i, lab in enumerate(labels)]
    odds = [] if named_columns else [c for c in columns if "/" in c.label]
    if odds and len(odds) != len(columns):
        raise DataError(file, "columns", "mixes odds columns ('3/1') with strength columns ('9-10')")
    if odds:
        ratios = [odds_value(c.label) for c in columns]
        for i, (a, b) in enumerate(zip(ratios, ratios[1:])):
            if b <= a:
                raise DataError(file, f"columns[{i + 1}]", f"odds columns must rise from left to right")
    for i, (a, b) in enumerate(zip(columns, columns[1:]) if not (odds or named_columns) else ()):
        if a.high is None or b.low is None or b.low != a.high + 1:
            raise DataError(file, f"columns[{i + 1}]",
                            f"column {b.label!r} must start right after {a.label!r} (no gap or overlap)")
    if "by_column" in data and "results" not in data:
        # The same table written one column at a time: {column: [cell for each roll, in row order]}.
        by_col = require(data, "by_column", dict, file)
        for lab in by_col:
            if str(lab) not in {c.label for c in columns}:
                raise DataError(file, f"by_column[{lab}]", "names no column of this table")
        for c in columns:
            vals = by_col.get(c.label)
            if not isinstance(vals, list) or len(vals) != len(rows):
                got = len(vals) if isinstance(vals, list) else "none"
                raise DataError(file, f"by_column[{c.label}]", f"must list {len(rows)} cells, one per roll (got {got})")
        data = {**data, "results": {r: [by_col[c.label][i] for c in columns] for i, r in enumerate(rows)}}
    results = require(data, "results", dict, file)
    overrides = data.get("cells") or {}
    if not isinstance(overrides, dict):
        raise DataError(file, "cells", "must be a mapping of 'column/roll' to provenance")
    cells: dict[tuple[str, int], Cell] = {}
    for r in rows:
        if r not in results:
            raise DataError(file, f"results[{r}]", "is missing (every roll needs a row)")
        row = results[r]
        if not isinstance(row, list) or len(row) != len(columns):
            got = len(row) if isinstance(row, list) else type(row).__name__
            raise DataError(file, f"results[{r}]", f"must list {len(columns)} cells, one per column (got {got})")
        for col, raw in zip(columns, row):
            cell_name = f"results[{r}][{col.label}]"
            value = parse_value(raw, file, cell_name)
            prov = parse_provenance(overrides.get(f"{col.label}/{r}"), file, f"cells[{col.label}/{r}]", default)
            cells[(col.label, r)] = Cell(value, prov)
    extra = set(results) - set(rows)
    if extra:
        raise DataError(file, f"results[{sorted(extra, key=str)[0]}]", "is not one of the listed rows")
    unknown = [k for k in overrides if not any(k == f"{c.label}/{r}" for c in columns for r in rows)]
    if unknown:
        raise DataError(file, f"cells[{unknown[0]}]", "names no cell of this table")
    col_prov = {}
    col_prov_data = data.get("column_provenance") or {}
    if not isinstance(col_prov_data, dict):
        raise DataError(file, "column_provenance", "must be a mapping of column label to provenance")
    for lab, pv in col_prov_data.items():
        if str(lab) not in {c.label for c in columns}:
            raise DataError(file, f"column_provenance[{lab}]", "names no column of this table")
        col_prov[str(lab)] = parse_provenance(pv, file, f"column_provenance[{lab}]")
    return ColumnTable(name, rule, columns, rows, cells, file, data.get("notes", ""), col_prov)
