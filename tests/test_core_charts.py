"""Tests for wargames.core.charts: column tables, shifts, provenance and the validating YAML loader."""
from __future__ import annotations

import copy

import pytest

from wargames.core.schema import Int
from wargames.core.charts import (
    Cell, Column, ColumnTable, Provenance, load_column_table, parse_column_label, read_yaml,
)
from wargames.core.errors import DataError, RuleViolation
from . import yamlc


int_cell = Int(-99, 99)      # a cell schema: whole numbers only (not true/false)


VALID = {
    "name": "test CRT",
    "rule": "T 9",
    "rows": [1, 2, 3],
    "provenance": {"kind": "reconstructed", "source": "our own values"},
    "columns": ["1-2", "3", "4-90", "91+"],
    "results": {
        1: [0, 0, 1, 2],
        2: [0, 1, 2, 3],
        3: [1, 2, 3, 4],
    },
    "cells": {
        "3/2": {"kind": "example", "source": "Example A"},
        "91+/3": {"kind": "text", "source": "T 9.2"},
    },
    "column_provenance": {"91+": {"kind": "text", "source": "T 9.1"}},
    "notes": "a small test table",
}


def write(tmp_path, data, name="chart.yaml"):
    path = tmp_path / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_text(yamlc.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


@pytest.fixture
def table(tmp_path) -> ColumnTable:
    return load_column_table(write(tmp_path, VALID), int_cell)


# =========================================================================== a valid table

def test_valid_table_loads(table, tmp_path):
    assert table.name == "test CRT"
    assert table.rule == "T 9"
    assert table.rows == [1, 2, 3]
    assert [c.label for c in table.columns] == ["1-2", "3", "4-90", "91+"]
    assert table.columns[-1] == Column("91+", 91, None)
    assert table.source == str(tmp_path / "chart.yaml")
    assert table.notes == "a small test table"
    assert len(table.cells) == 12
    assert table.column_provenance == {"91+": Provenance("text", "T 9.1")}


def test_column_for_ranges(table):
    expected = {1: 0, 2: 0, 3: 1, 4: 2, 50: 2, 90: 2, 91: 3, 92: 3, 10_000: 3}
    for value, index in expected.items():
        assert table.column_for(value) == index, value


def test_column_for_below_the_table_is_a_rule_violation(table):
    with pytest.raises(RuleViolation) as ei:
        table.column_for(0)
    assert ei.value.rule == "T 9"
    assert "0" in ei.value.reason


def test_index_by_label(table):
    assert table.index("4-90") == 2
    with pytest.raises(KeyError):
        table.index("5")


@pytest.mark.parametrize("index, by, expected", [
    (0, -2, (0, -2)),
    (1, -1, (0, 0)),
    (1, -3, (0, -2)),
    (1, 1, (2, 0)),
    (2, 1, (3, 0)),
    (2, 3, (3, 2)),
    (3, 0, (3, 0)),
    (0, 0, (0, 0)),
])
def test_shift_clamps_and_reports_overrun(table, index, by, expected):
    assert table.shift(index, by) == expected


def test_shift_never_loses_columns_silently(table):
    for index in range(len(table.columns)):
        for by in range(-6, 7):
            new, lost = table.shift(index, by)
            assert 0 <= new < len(table.columns)
            assert new + lost == index + by


def test_lookup(table):
    cell = table.lookup(table.column_for(3), 2)
    assert isinstance(cell, Cell)
    assert cell.value == 1
    assert cell.provenance == Provenance("example", "Example A")
    assert cell.provenance.mark() == "E"
    other = table.lookup(0, 1)
    assert other.value == 0
    assert other.provenance == Provenance("reconstructed", "our own values")
    assert other.provenance.reconstructed
    assert table.lookup(3, 3).provenance.kind == "text"
    assert table.lookup(3, 3).value == 4


def test_lookup_of_a_missing_roll_is_a_rule_violation(table):
    with pytest.raises(RuleViolation) as ei:
        table.lookup(0, 7)
    assert ei.value.rule == "T 9"


def test_provenance_counts(table):
    assert table.provenance_counts() == {"reconstructed": 10, "example": 1, "text": 1}


def test_default_provenance_is_printed(tmp_path):
    data = copy.deepcopy(VALID)
    del data["provenance"]
    del data["cells"]
    t = load_column_table(write(tmp_path, data, "mine.yaml"), int_cell)
    assert {c.provenance.kind for c in t.cells.values()} == {"printed"}
    assert "mine.yaml" in t.lookup(0, 1).provenance.source
    assert t.lookup(0, 1).provenance.mark() == "P"


def test_provenance_as_a_plain_kind_string(tmp_path):
    data = copy.deepcopy(VALID)
    data["provenance"] = "reconstructed"
    t = load_column_table(write(tmp_path, data), int_cell)
    assert t.lookup(0, 1).provenance == Provenance("reconstructed", "")


def test_loading_from_data_without_a_file():
    t = load_column_table("in-memory.yaml", int_cell, data=copy.deepcopy(VALID))
    assert t.source == "in-memory.yaml"
    assert t.lookup(1, 2).value == 1


def test_provenance_model():
    with pytest.raises(ValueError):
        Provenance("guessed")
    assert [Provenance(k).mark() for k in ("text", "example", "reconstructed", "printed")] == ["T", "E", "R", "P"]
    assert not Provenance("text", "C 9").reconstructed


@pytest.mark.parametrize("label, low, high", [("5", 5, 5), ("9-10", 9, 10), ("91+", 91, None), (" 3-4 ", 3, 4)])
def test_parse_column_label(label, low, high):
    col = parse_column_label(label, "f", "columns[0]")
    assert (col.low, col.high) == (low, high)


# =========================================================================== bad files

def mutated(**changes):
    data = copy.deepcopy(VALID)
    for key, value in changes.items():
        if value is DELETE:
            del data[key]
        else:
            data[key] = value
    return data


DELETE = object()


def _without_row(n):
    data = copy.deepcopy(VALID)
    del data["results"][n]
    return data


def _with_row(n, row):
    data = copy.deepcopy(VALID)
    data["results"][n] = row
    return data


def _with_cell(n, i, value):
    data = copy.deepcopy(VALID)
    data["results"][n][i] = value
    return data


BAD = {
    "missing row": (_without_row(3), "results[3]"),
    "short row": (_with_row(2, [0, 1, 2]), "results[2]"),
    "long row": (_with_row(2, [0, 1, 2, 3, 4]), "results[2]"),
    "row not a list": (_with_row(2, 7), "results[2]"),
    "ill-typed cell": (_with_cell(2, 1, "two"), "results[2][3]"),
    "bool cell": (_with_cell(1, 3, True), "results[1][91+]"),
    "extra row": (_with_row(4, [0, 0, 0, 0]), "results[4]"),
    "gap between columns": (mutated(columns=["1-2", "4-90", "91+", "95+"]), "columns[1]"),
    "overlap between columns": (mutated(columns=["1-3", "3", "4-90", "91+"]), "columns[1]"),
    "open column not last": (mutated(columns=["1-2", "3+", "4-90", "91+"]), "columns[2]"),
    "bad column label": (mutated(columns=["1-2", "three", "4-90", "91+"]), "columns[1]"),
    "reversed column range": (mutated(columns=["1-2", "3", "90-4", "91+"]), "columns[2]"),
    "no columns": (mutated(columns=[]), "columns"),
    "bad provenance kind": (mutated(provenance={"kind": "guess"}), "provenance.kind"),
    "example provenance without source": (mutated(provenance={"kind": "example"}), "provenance.source"),
    "text provenance without source": (mutated(provenance="text"), "provenance.source"),
    "bad override kind": (mutated(cells={"3/2": {"kind": "rumour"}}), "cells[3/2].kind"),
    "override example without source": (mutated(cells={"3/2": {"kind": "example"}}), "cells[3/2].source"),
    "override naming no cell": (mutated(cells={"3/9": {"kind": "reconstructed"}}), "cells[3/9]"),
    "override naming no column": (mutated(cells={"5/1": {"kind": "reconstructed"}}), "cells[5/1]"),
    "missing name": (mutated(name=DELETE), "name"),
    "missing rule": (mutated(rule=DELETE), "rule"),
    "rule not a string": (mutated(rule=9), "rule"),
    "missing results": (mutated(results=DELETE), "results"),
    "row label not an int": (mutated(rows=[1, "two", 3]), "rows[1]"),
    "column provenance not a mapping": (mutated(column_provenance=["91+"]), "column_provenance"),
    "column provenance naming no column": (mutated(column_provenance={"92+": "reconstructed"}),
                                           "column_provenance[92+]"),
    "cells overrides not a mapping": (mutated(cells=["3/2"]), "cells"),
    "bad column provenance": (mutated(column_provenance={"91+": {"kind": "example"}}), "column_provenance[91+].source"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_file_raises_data_error_naming_file_and_cell(tmp_path, case):
    data, field = BAD[case]
    path = write(tmp_path, data)
    with pytest.raises(DataError) as ei:
        load_column_table(path, int_cell)
    err = ei.value
    assert err.file == str(path)
    assert err.field == field, f"{case}: {err}"
    assert err.reason
    assert str(path) in str(err) and field in str(err)


def test_invalid_yaml_names_the_line(tmp_path):
    path = write(tmp_path, "name: test\nrule: T 9\nrows: [1, 2\ncolumns: [\"1\"]\n")
    with pytest.raises(DataError) as ei:
        load_column_table(path, int_cell)
    err = ei.value
    assert err.file == str(path)
    assert err.field == "(file)" and err.line == 4 and err.column == 8
    assert "YAML" in err.reason and "line 4" in str(err)


def test_invalid_yaml_line_number_is_right(tmp_path):
    path = write(tmp_path, "a: 1\nb: 2\nc: : :\n")
    with pytest.raises(DataError) as ei:
        read_yaml(path)
    assert ei.value.line == 3


def test_missing_file(tmp_path):
    path = tmp_path / "nowhere.yaml"
    with pytest.raises(DataError) as ei:
        load_column_table(path, int_cell)
    assert ei.value.file == str(path)
    assert ei.value.field == "(file)"


def test_top_level_not_a_mapping(tmp_path):
    path = write(tmp_path, "- 1\n- 2\n")
    with pytest.raises(DataError) as ei:
        load_column_table(path, int_cell)
    assert ei.value.file == str(path)
    assert ei.value.field == "(top level)"


def test_empty_file(tmp_path):
    path = write(tmp_path, "")
    with pytest.raises(DataError) as ei:
        load_column_table(path, int_cell)
    assert ei.value.file == str(path)


def test_a_chart_value_is_shared_by_copies_unless_it_could_change():
    import copy
    from wargames.citadel.air_charts import Valued as AirValued
    from wargames.core.charts import Cell, Provenance
    from wargames.fte.charts import Valued
    p = Provenance("text")
    for kind in (Cell, Valued, AirValued):
        fixed, loose = kind((1, "a"), p), kind([1, 2], p)
        assert copy.deepcopy(fixed) is fixed
        other = copy.deepcopy(loose)
        assert other == loose and other is not loose and other.value is not loose.value
