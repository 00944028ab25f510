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

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Callable

from .copies import immutable, record_deepcopy, valued_deepcopy
from .errors import DataError, RuleViolation
from .schema import (AnyValue, At, Convert, Either, Int, Invalid, List, Map, Nullable, Opt, Record, Schema, Str,
                     load_file)
from .yamlio import mark_of, read_yaml, short

KINDS = ("text", "example", "reconstructed", "printed")


@dataclass(frozen=True)
@immutable
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

    __deepcopy__ = valued_deepcopy


@dataclass(frozen=True)
@immutable
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

    __deepcopy__ = record_deepcopy      # a copy shares the immutable columns, cells and provenance

    name: str
    rule: str
    columns: list[Column]
    rows: list[int]
    cells: dict[tuple[str, int], Cell]
    source: str = "<memory>"
    notes: str = ""
    column_provenance: dict[str, Provenance] = field(default_factory=dict)
    extra: dict[str, Any] = field(default_factory=dict)   # a game's own optional fields of the file

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


def _provenance(v: dict) -> Provenance:
    if v["kind"] in ("text", "example") and not v["source"]:
        raise Invalid("source", f"a {v['kind']!r} value must name its rule or example")
    return Provenance(v["kind"], v["source"])


#: A provenance: ``{kind: ..., source: ...}``, or just the kind.
PROVENANCE = Either(
    Convert(Str(KINDS), lambda kind: _provenance({"kind": kind, "source": ""})),
    Record({"kind": Str(KINDS)}, {"source": Opt(Str(), "")}, build=_provenance, what="a provenance {kind, source}"))


def file_provenance(path: str | Path, value: Provenance | None) -> Provenance:
    """A file's default provenance: its top-level ``provenance``, else ``printed`` (an owner's typed chart)."""
    return value if value is not None else Provenance("printed", f"loaded from {Path(str(path)).name}")


def odds_value(label: str) -> Fraction:
    """The ratio of an odds column: ``"3/1"`` -> 3, ``"1/2"`` -> 1/2."""
    a, _, b = label.partition("/")
    return Fraction(int(a), int(b))


def parse_column_label(label: str, file: str, where: str) -> Column:
    """Strength columns are ``"9-10"``, ``"5"`` or ``"91+"``; odds columns are ``"3/1"`` or ``"1/2"``."""
    text = str(label).strip()
    if "/" in text:
        a, _, b = text.partition("/")
        if not (a.isdigit() and b.isdigit() and len(a) < 4 and len(b) < 4 and "1" in (a, b)
                and int(a) > 0 and int(b) > 0):
            raise DataError(file, where, f"{short(label)} is not an odds column like '3/1' or '1/2'")
        return Column(text)
    m = re.fullmatch(r"(\d{1,4})(?:(\+)|-(\d{1,4}))?", text)
    if not m or (m.group(3) and int(m.group(1)) > int(m.group(3))):
        raise DataError(file, where, f"{short(label)} is not a column range like '9-10', '5' or '91+'")
    lo = int(m.group(1))
    return Column(text, lo, None if m.group(2) else int(m.group(3) or lo))


def column_table_schema(named_columns: bool = False, extra: dict | None = None) -> Record:
    """The layout of a column table file (see :func:`load_column_table`); ``extra`` adds optional fields.

    The cells themselves are checked by :func:`load_column_table`, which names each by roll and column label."""
    label = Str(key=True, min_len=1, max_len=40)
    roll = Int(-20, 120)

    def check(v: dict) -> None:
        labels = v["columns"]
        if named_columns:
            columns = [Column(lab) for lab in labels]
        else:
            columns = []
            for i, lab in enumerate(labels):
                try:
                    columns.append(parse_column_label(lab, "", f"columns[{i}]"))
                except DataError as e:
                    raise Invalid(f"columns[{i}]", e.reason) from None
            odds = [c for c in columns if "/" in c.label]
            if odds and len(odds) != len(columns):
                raise Invalid("columns", "mixes odds columns ('3/1') with strength columns ('9-10')")
            if odds:
                ratios = [odds_value(c.label) for c in columns]
                for i, (a, b) in enumerate(zip(ratios, ratios[1:])):
                    if b <= a:
                        raise Invalid(f"columns[{i + 1}]", "odds columns must rise from left to right")
            else:
                for i, (a, b) in enumerate(zip(columns, columns[1:])):
                    if a.high is None or b.low is None or b.low != a.high + 1:
                        raise Invalid(f"columns[{i + 1}]",
                                      f"column {b.label!r} must start right after {a.label!r} (no gap or overlap)")
        v["_columns"] = columns
        rows, n = v["rows"], len(columns)
        if (v["results"] is None) == (v["by_column"] is None):
            raise Invalid("results", "give the cells once: either 'results' (by roll) or 'by_column'")
        if v["results"] is not None:
            for r in rows:
                if r not in v["results"]:
                    raise Invalid(f"results[{r}]", "is missing (every roll needs a row)")
            for r, row in v["results"].items():
                if r not in rows:
                    raise Invalid(f"results[{r}]", "is not one of the listed rows")
                if len(row) != n:
                    raise Invalid(f"results[{r}]", f"must list {n} cells, one per column (got {len(row)})")
        else:
            for lab, col in v["by_column"].items():
                if lab not in labels:
                    raise Invalid(f"by_column[{lab}]", "names no column of this table")
                if len(col) != len(rows):
                    raise Invalid(f"by_column[{lab}]", f"must list {len(rows)} cells, one per roll (got {len(col)})")
            for lab in labels:
                if lab not in v["by_column"]:
                    raise Invalid(f"by_column[{lab}]", f"is missing (must list {len(rows)} cells, one per roll)")
        names = {f"{lab}/{r}" for lab in labels for r in rows}
        for k in v["cells"]:
            if k not in names:
                raise Invalid(f"cells[{k}]", "names no cell of this table")
        for k in v["column_provenance"]:
            if k not in labels:
                raise Invalid(f"column_provenance[{k}]", "names no column of this table")

    return Record(
        {"name": Str(min_len=1, max_len=200), "rule": Str(min_len=1, max_len=40),
         "rows": List(roll, min_len=1, max_len=200, unique=True),
         "columns": List(label, min_len=1, max_len=100, unique=True)},
        {"results": Opt(Nullable(Map(roll, List(AnyValue(), max_len=100)))),
         "by_column": Opt(Nullable(Map(label, List(AnyValue(), max_len=200)))),
         "cells": Opt(Map(Str(max_len=60), PROVENANCE), {}),
         "column_provenance": Opt(Map(label, PROVENANCE), {}),
         "provenance": Opt(PROVENANCE), "notes": Opt(Str(), ""), **(extra or {})},
        check=check)


def load_column_table(path: str | Path, cell: Schema,
                      data: Any = None, named_columns: bool = False, extra: dict | None = None) -> ColumnTable:
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

    ``cell`` is the schema of one cell. With ``named_columns`` the columns are names read by die roll
    ("small_arms", "US"), not strength or odds ranges.
    """
    file = str(path)
    raw = read_yaml(path) if data is None else data
    v = load_file(path, column_table_schema(named_columns, extra), raw)
    default = file_provenance(path, v["provenance"])
    columns, rows = v["_columns"], v["rows"]
    by_row = v["results"] is not None
    raw_rows = dict(raw["results"]) if by_row else {}
    raw_cols = {} if by_row else {str(k): x for k, x in raw["by_column"].items()}
    cells = {}
    for i, r in enumerate(rows):
        for j, c in enumerate(columns):
            if by_row:       # results: {roll: [one cell per column]}
                line, k = raw_rows[r], j
                at = At(file, f"results[{r}][{c.label}]", mark_of(line, j))
            else:            # by_column: {column: [one cell per roll]}
                line, k = raw_cols[c.label], i
                at = At(file, f"by_column[{c.label}][{i}]", mark_of(line, i))
            try:
                value = cell.check(line[k], at)
            except DataError as e:
                raise (e if by_row else e.explained(f" (roll {r})")) from None
            cells[(c.label, r)] = Cell(value, v["cells"].get(f"{c.label}/{r}", default))
    return ColumnTable(v["name"], v["rule"], columns, rows, cells, file, v["notes"], v["column_provenance"],
                       {k: v[k] for k in (extra or {})})
