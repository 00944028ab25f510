"""Tests for wargames.core.mapdata: terrain per hex, hexside features, labels at the boundary."""
from __future__ import annotations

import copy

import pytest

from wargames.core.schema import Str
from wargames.core.charts import Provenance
from wargames.core.errors import DataError
from wargames.core.hexgrid import Hex, OffsetLayout
from wargames.core.mapdata import MapData, load_map
from . import yamlc

TERRAINS = ["clear", "woods", "swamp"]
FEATURES = ["village", "strongpoint"]
SIDE_FEATURES = ["wire", "stream"]

VALID = {
    "name": "test map",
    "sheet": "north",
    "layout": {"parity": "even-q", "col_digits": 2, "row_digits": 2},
    "provenance": {"kind": "reconstructed", "source": "drawn for the tests"},
    "fill": {"cols": [1, 4], "rows": [1, 4], "terrain": "clear"},
    "hexes": {
        "0202": {"terrain": "woods", "features": ["village"], "strongpoint": "AM-1"},
        "0303": {"terrain": "swamp", "provenance": {"kind": "example", "source": "Example 1"}},
        "0505": {"terrain": "clear"},
    },
    "hexsides": [
        {"between": ["0202", "0203"], "features": ["wire"]},
        {"between": ["0203", "0202"], "features": ["stream"]},
        {"between": ["0303", "0403"], "features": ["stream"], "provenance": {"kind": "text", "source": "T 4"}},
    ],
}


def write(tmp_path, data, name="map.yaml"):
    path = tmp_path / name
    if isinstance(data, str):
        path.write_text(data, encoding="utf-8")
    else:
        path.write_text(yamlc.safe_dump(data, sort_keys=False), encoding="utf-8")
    return path


ATTRS = {"strongpoint": Str(min_len=1)}     # the per-hex field this test map declares


def load(path):
    return load_map(path, TERRAINS, FEATURES, SIDE_FEATURES, attrs=ATTRS)


@pytest.fixture
def m(tmp_path) -> MapData:
    return load(write(tmp_path, VALID))


# =========================================================================== a valid map

def test_map_loads(m, tmp_path):
    assert m.name == "test map"
    assert m.sheet == "north"
    assert m.layout == OffsetLayout("even-q", 2, 2, "")
    assert m.source == str(tmp_path / "map.yaml")
    assert len(m.hexes) == 16 + 1  # the 4x4 fill plus 0505


def test_terrain_features_and_attributes(m):
    h = m.hex("0202")
    assert m.terrain(h) == "woods"
    assert m.has(h, "village")
    assert not m.has(h, "strongpoint")
    assert m.info(h).attr("strongpoint") == "AM-1"
    assert m.info(h).attr("missing", "default") == "default"
    assert m.terrain(m.hex("0101")) == "clear"
    assert m.terrain(m.hex("0303")) == "swamp"


def test_provenance_per_hex(m):
    assert m.info(m.hex("0303")).provenance == Provenance("example", "Example 1")
    assert m.info(m.hex("0101")).provenance == Provenance("reconstructed", "drawn for the tests")
    assert m.info(m.hex("0202")).provenance.kind == "reconstructed"


def test_side_features_both_ways_round(m):
    a, b = m.hex("0202"), m.hex("0203")
    assert m.side(a, b) == m.side(b, a) == frozenset({"wire", "stream"})
    c, d = m.hex("0303"), m.hex("0403")
    assert m.side(c, d) == m.side(d, c) == frozenset({"stream"})
    assert m.hexsides[frozenset({c, d})].provenance == Provenance("text", "T 4")
    # A hexside with nothing on it.
    assert m.side(m.hex("0101"), m.hex("0102")) == frozenset()


def test_side_of_non_adjacent_hexes_is_refused(m):
    with pytest.raises(ValueError):
        m.side(m.hex("0101"), m.hex("0103"))


def test_labels_and_keys(m):
    h = m.hex("0304")
    assert m.label(h) == "0304"
    assert m.key(h) == "north:0304"
    assert h in m
    assert Hex(50, 50) not in m


def test_neighbours_stay_on_the_map(m):
    corner = m.hex("0101")
    ns = m.neighbors(corner)
    assert all(n in m for n in ns)
    # Column 1 is odd (higher), so 0101 touches 0200 (off the map) and 0201, not 0202.
    assert {m.label(n) for n in ns} == {"0102", "0201"}
    assert len(m.neighbors(m.hex("0202"))) == 6


@pytest.mark.parametrize("label", ["0909", "0000", "0505x", "2a02", "", "02.02", "202"])
def test_hex_lookup_raises_data_error(m, label):
    with pytest.raises(DataError) as ei:
        m.hex(label)
    assert repr(label) in ei.value.field


def test_off_map_label_names_the_sheet(m):
    with pytest.raises(DataError) as ei:
        m.hex("0909")
    assert "0909" in str(ei.value)
    assert "north" in ei.value.reason


def test_fte_style_map(tmp_path):
    data = {
        "name": "fte",
        "sheet": "A",
        "layout": {"parity": "even-q", "separator": "."},
        "hexes": {"23.23": {"terrain": "clear"}, "23.24": {"terrain": "woods"}},
        "hexsides": [{"between": ["23.23", "23.24"], "features": ["wire"]}],
    }
    m = load(write(tmp_path, data))
    h = m.hex("23.23")
    assert m.label(h) == "23.23"
    assert m.side(h, m.hex("23.24")) == {"wire"}
    assert m.info(h).provenance.kind == "printed"  # default when the file gives none


def test_load_from_data():
    m = load_map("memory", TERRAINS, FEATURES, SIDE_FEATURES, data=copy.deepcopy(VALID), attrs=ATTRS)
    assert m.source == "memory"
    assert m.terrain(m.hex("0202")) == "woods"


# =========================================================================== bad maps

def mutated(path_and_values):
    data = copy.deepcopy(VALID)
    for keys, value in path_and_values:
        target = data
        for k in keys[:-1]:
            target = target[k]
        if value is DELETE:
            del target[keys[-1]]
        else:
            target[keys[-1]] = value
    return data


DELETE = object()

BAD = {
    "unknown terrain": ([(("hexes", "0202", "terrain"), "lava")], "hexes[0202].terrain"),
    "unknown feature": ([(("hexes", "0202", "features"), ["castle"])], "hexes[0202].features[0]"),
    "features not a list": ([(("hexes", "0202", "features"), "village")], "hexes[0202].features"),
    "hex without terrain": ([(("hexes", "0202", "terrain"), DELETE)], "hexes[0202].terrain"),
    "hex spec not a mapping": ([(("hexes", "0202"), "woods")], "hexes[0202]"),
    "unknown hexside feature": ([(("hexsides", 0, "features"), ["moat"])], "hexsides[0].features[0]"),
    "hexside between non-adjacent": ([(("hexsides", 1, "between"), ["0202", "0204"])], "hexsides[1].between"),
    "hexside naming three hexes": ([(("hexsides", 0, "between"), ["0202", "0203", "0204"])],
                                   "hexsides[0].between"),
    "hexside off the map": ([(("hexsides", 2, "between"), ["0505", "0605"])], "hexsides[2].between"),
    "hexside without features": ([(("hexsides", 0, "features"), DELETE)], "hexsides[0].features"),
    "hexside bad provenance": ([(("hexsides", 2, "provenance"), {"kind": "example"})],
                               "hexsides[2].provenance.source"),
    "hex bad provenance": ([(("hexes", "0303", "provenance"), {"kind": "bogus"})], "hexes[0303].provenance.kind"),
    "unknown fill terrain": ([(("fill", "terrain"), "lava")], "fill.terrain"),
    "fill without rows": ([(("fill", "rows"), DELETE)], "fill.rows"),
    "unknown parity": ([(("layout", "parity"), "odd-r")], "layout.parity"),
    "missing name": ([(("name",), DELETE)], "name"),
    "missing sheet": ([(("sheet",), DELETE)], "sheet"),
    "missing layout": ([(("layout",), DELETE)], "layout"),
    "bad default provenance": ([(("provenance",), {"kind": "text"})], "provenance.source"),
    "huge fill rectangle": ([(("fill", "rows"), [0, 10 ** 9])], "fill.rows[1]"),
    "fill past the label digits": ([(("fill", "cols"), [0, 120])], "fill.cols"),
    "fill of too many hexes": ([(("layout", "col_digits"), 3), (("layout", "row_digits"), 3),
                                (("fill", "cols"), [0, 999]), (("fill", "rows"), [0, 999])], "fill"),
    "fill low above high": ([(("fill", "cols"), [5, 2])], "fill.cols"),
    "fill rows not numbers": ([(("fill", "rows"), ["a", 3])], "fill.rows[0]"),
    "col_digits of 10**12": ([(("layout", "col_digits"), 10 ** 12)], "layout.col_digits"),
    "hexsides not a list": ([(("hexsides",), 7)], "hexsides"),
    "unknown layout key": ([(("layout", "spacing"), 2)], "layout.spacing"),
    "unknown top-level key": ([(("colour",), "red")], "colour"),
    "undeclared hex field": ([(("hexes", "0202", "colour"), "red")], "hexes[0202].colour"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_map_raises_data_error_naming_the_field(tmp_path, case):
    changes, field = BAD[case]
    path = write(tmp_path, mutated(changes))
    with pytest.raises(DataError) as ei:
        load(path)
    err = ei.value
    assert err.file == str(path)
    assert err.field == field, f"{case}: {err}"
    assert err.reason


def test_malformed_hex_label_in_file(tmp_path):
    data = copy.deepcopy(VALID)
    data["hexes"]["2a02"] = {"terrain": "clear"}
    path = write(tmp_path, data)
    with pytest.raises(DataError) as ei:
        load(path)
    assert ei.value.file == str(path)
    assert "2a02" in ei.value.field and ei.value.line


def test_malformed_label_in_hexside(tmp_path):
    data = copy.deepcopy(VALID)
    data["hexsides"][0]["between"] = ["0202", "02-03"]
    path = write(tmp_path, data)
    with pytest.raises(DataError) as ei:
        load(path)
    assert ei.value.file == str(path)
    assert ei.value.field == "hexsides[0].between[1]" and "02-03" in ei.value.reason and ei.value.line


def test_missing_map_file(tmp_path):
    with pytest.raises(DataError) as ei:
        load(tmp_path / "absent.yaml")
    assert ei.value.field == "(file)"


def test_unquoted_label_read_by_yaml_as_octal_is_not_silently_misplaced(tmp_path):
    """YAML 1.1 reads an unquoted 0517 as the octal integer 335: the loader must refuse it, not misplace it."""
    text = ("name: t\nsheet: s\nlayout: {parity: even-q}\n"
            "hexes:\n  0517: {terrain: clear}\n")
    path = write(tmp_path, text)
    with pytest.raises(DataError) as ei:
        load(path)
    assert ei.value.file == str(path)
    assert "335" in ei.value.field


def test_unquoted_label_without_leading_zero_octal_digits_loads(tmp_path):
    text = ("name: t\nsheet: s\nlayout: {parity: even-q}\n"
            "hexes:\n  1316: {terrain: clear}\n  0819: {terrain: woods}\n")
    m = load(write(tmp_path, text))
    assert m.terrain(m.hex("1316")) == "clear"
    assert m.terrain(m.hex("0819")) == "woods"


def test_hex_attributes_are_declared_by_the_game(tmp_path):
    from wargames.core.schema import Str
    data = copy.deepcopy(VALID)
    data["hexes"]["0303"]["strongpoint"] = "AM-1"
    path = write(tmp_path, data)
    attrs = {"strongpoint": Str(("AM-1", "AM-2"))}
    m = load_map(path, TERRAINS, FEATURES, SIDE_FEATURES, attrs=attrs)
    assert m.info(m.hex("0303")).attr("strongpoint") == "AM-1"
    data["hexes"]["0303"]["strongpoint"] = "AM-9"
    with pytest.raises(DataError) as ei:
        load_map(write(tmp_path, data), TERRAINS, FEATURES, SIDE_FEATURES, attrs=attrs)
    assert ei.value.field == "hexes[0303].strongpoint" and ei.value.line
    data["hexes"]["0303"] = {"terrain": "clear", "colour": "red"}
    with pytest.raises(DataError) as ei:
        load_map(write(tmp_path, data), TERRAINS, FEATURES, SIDE_FEATURES, attrs=attrs)
    assert ei.value.field == "hexes[0303].colour" and "not a field" in ei.value.reason


def test_a_derived_value_is_worked_out_once_per_map_and_kept_apart_by_key(m):
    calls = []

    def villages():
        calls.append(1)
        return sorted(m.hexes)[:2]

    first = m.derived("v", villages)
    assert m.derived("v", villages) is first and len(calls) == 1
    assert m.derived("w", lambda: 7) == 7
    other = copy.deepcopy(m)                # a copy keeps what it was given (the map does not change)
    assert other.derived("v", villages) == first and len(calls) == 1
