"""The schema mechanism (wargames.core.schema): types, ranges, choices, unknown keys, paths and lines."""
from __future__ import annotations

import pytest

from wargames.core.errors import DataError
from wargames.core.schema import (At, Bool, Const, Convert, Either, Int, IntRange, Invalid, List, Map, Nullable,
                                  Number, Opt, Record, Str, Tuple, load_file)
from wargames.core.yamlio import parse_yaml

pytestmark = pytest.mark.rule()

UNIT = Record({"id": Str(min_len=1), "tq": Int(0, 9), "concealed": Bool()},
              {"notes": Opt(Str(), ""), "hexes": Opt(List(Str(key=True), min_len=1), ["0101"])})
FILE = Record({"units": List(UNIT, min_len=1, unique=False)}, {"turns": Opt(Nullable(Int(1, 20)))})


def err(schema, text: str) -> DataError:
    with pytest.raises(DataError) as ei:
        schema.check(doc := parse_yaml(text, "f.yaml"), At("f.yaml", "", doc.mark if hasattr(doc, "mark") else None))
    return ei.value


def test_good_file_with_defaults():
    doc = parse_yaml("units:\n  - {id: A, tq: 5, concealed: false}\n", "f")
    v = FILE.check(doc, At("f"))
    assert v == {"units": [{"id": "A", "tq": 5, "concealed": False, "notes": "", "hexes": ["0101"]}],
                 "turns": None}


@pytest.mark.parametrize("text,field,line,reason", [
    ("units:\n  - {id: A, tq: high, concealed: false}\n", "units[0].tq", 2, "whole number from 0 to 9"),
    ("units:\n  - {id: A, tq: -7, concealed: false}\n", "units[0].tq", 2, "not -7"),
    ("units:\n  - {id: A, tq: 10, concealed: false}\n", "units[0].tq", 2, "not 10"),
    ("units:\n  - {id: A, tq: true, concealed: false}\n", "units[0].tq", 2, "true/false"),
    ("units:\n  - id: A\n    tq: 3\n    concealed: 'no'\n", "units[0].concealed", 4, "true or false"),
    ("units:\n  - {id: A, tq: 3}\n", "units[0].concealed", 2, "missing"),
    ("units:\n  - {id: A, tq: 3, concealed: true, colour: red}\n", "units[0].colour", 2, "not a field"),
    ("units: []\n", "units", 1, "at least 1"),
    ("units: 7\n", "units", 1, "must be a list"),
    ("units:\n  - {id: A, tq: 3, concealed: true, hexes: []}\n", "units[0].hexes", 2, "at least 1"),
    ("units:\n  - {id: '', tq: 3, concealed: true}\n", "units[0].id", 2, "characters"),
    ("units:\n  - {id: A, tq: 3, concealed: true}\nturns: 99\n", "turns", 3, "from 1 to 20"),
    ("units:\n  - {id: A, tq: 3, concealed: true}\nextra: 1\n", "extra", 3, "not a field"),
])
def test_errors_name_field_line_and_reason(text, field, line, reason):
    e = err(FILE, text)
    assert (e.field, e.line, e.file) == (field, line, "f.yaml") and reason in e.reason, str(e)


def test_choices_pattern_and_key_labels():
    s = Str(("clear", "woods"))
    assert s.check("woods", At("f")) == "woods"
    with pytest.raises(DataError, match="'lava' is not one of 'clear', 'woods'"):
        s.check("lava", At("f", "terrain"))
    hexl = Str(pattern=r"\d{4}", key=True)
    assert hexl.check(1316, At("f")) == "1316"
    with pytest.raises(DataError):
        hexl.check("13a6", At("f"))
    with pytest.raises(DataError):
        Str().check(7, At("f"))


def test_numbers_consts_tuples_ranges():
    assert Number(0, 1).check(0.5, At("f")) == 0.5
    for bad in (True, "x", 2.0, float("nan")):
        with pytest.raises(DataError):
            Number(0, 1).check(bad, At("f"))
    assert Const(1).check(1, At("f")) == 1
    for bad in (2, True, "1"):
        with pytest.raises(DataError):
            Const(1).check(bad, At("f"))
    assert Tuple(Int(), Str()).check([1, "a"], At("f")) == (1, "a")
    with pytest.raises(DataError, match="list of 2"):
        Tuple(Int(), Str()).check([1], At("f"))
    assert IntRange(0, 99).check([3, 5], At("f")) == (3, 5)
    for bad in ([5, 3], [0, 100], [0, 10 ** 9]):
        with pytest.raises(DataError):
            IntRange(0, 99).check(bad, At("f"))


def test_either_by_type_and_nullable():
    s = Either(Const("every"), List(Int(1, 12), min_len=1))
    assert s.check("every", At("f")) == "every" and s.check([1, 2], At("f")) == [1, 2]
    for bad in (7, "some", [], True):
        with pytest.raises(DataError):
            s.check(bad, At("f"))
    assert Nullable(Int(0, 1)).check(None, At("f")) is None
    with pytest.raises(DataError):
        Int(0, 1).check(None, At("f"))


def test_map_keys_and_unique_lists():
    m = Map(Int(1, 6), Str())
    assert m.check({1: "a"}, At("f")) == {1: "a"}
    with pytest.raises(DataError, match="from 1 to 6"):
        m.check({7: "a"}, At("f", "rows"))
    with pytest.raises(DataError, match="repeats"):
        List(Int(), unique=True).check([1, 1], At("f"))
    with pytest.raises(DataError, match="twice"):
        Map(Str(key=True), Int()).check({1: 1, "1": 2}, At("f"))


def test_cross_checks_are_placed_at_their_field():
    def same_total(v):
        if sum(v["parts"]) != v["total"]:
            raise Invalid("total", f"is {v['total']} but the parts add up to {sum(v['parts'])}")
    rec = Record({"total": Int(0, 100), "parts": List(Int(0, 100))}, check=same_total)
    e = err(rec, "parts: [1, 2]\ntotal: 4\n")
    assert (e.field, e.line) == ("total", 2) and "add up to 3" in e.reason
    conv = Record({"hex": Convert(Str(key=True), lambda h: int(h) if int(h) < 5000 else
                                  (_ for _ in ()).throw(ValueError(f"{h} is off the map")))})
    e = err(conv, "hex: 9999\n")
    assert (e.field, e.line) == ("hex", 1) and "off the map" in e.reason


def test_load_file_reads_with_the_safe_reader(tmp_path):
    p = tmp_path / "u.yaml"
    p.write_text("units:\n  - {id: A, tq: 3, concealed: true}\n  - {id: B, tq: 30, concealed: true}\n")
    with pytest.raises(DataError) as ei:
        load_file(p, FILE)
    assert (ei.value.file, ei.value.field, ei.value.line) == (str(p), "units[1].tq", 3)
    assert str(ei.value).endswith("(line 3, column 13)")
