"""The reconstructed valley of Dien Bien Phu: two sheets joined, every fact the rulebook states, strongpoints
enclosed (C 14.A), positions as in the historical garrison, and the Anne-Marie excerpt as a window of it."""
from __future__ import annotations

import pytest

from wargames.core.errors import DataError
from wargames.citadel.terrain import (COMPLEXES, MAPS, anne_marie_map, complex_of, complex_strongpoints,
                                      dbp_airfield, jungle_zone, load_citadel_map, revetment_hex, runway_end,
                                      strongpoint_name, strongpoints, take_off_cone, valley_map, villages)
from . import yamlc


@pytest.fixture(scope="module")
def m():
    return valley_map()


def N(m, label):
    return m.hex("N" + label)


# --------------------------------------------------------------------------- sheets and labels

def test_the_seam_joins_the_sheets(m):
    last, first = m.hex("N2033"), m.hex("S2001")
    assert first in m.neighbors(last) and last in m.neighbors(first)
    # even column 20 hangs half a hex lower: N2033 touches three south hexes, odd N2133 only S2101
    assert {m.label(n) for n in m.neighbors(last) if m.label(n)[0] == "S"} == {"S1901", "S2001", "S2101"}
    assert {m.label(n) for n in m.neighbors(m.hex("N2133")) if m.label(n)[0] == "S"} == {"S2101"}
    assert m.side(m.hex("N2233"), m.hex("S2201")) == m.side(m.hex("S2201"), m.hex("N2233"))


@pytest.mark.parametrize("label", ["N0101", "N1316", "N4033", "S0101", "S0512", "S4033"])
def test_labels_round_trip(m, label):
    assert m.label(m.hex(label)) == label


@pytest.mark.parametrize("label, words", [("1316", "not a hex label"), ("X1316", "sheet 'X'"),
                                          ("N1334", "not on sheet N"), ("S4134", "not on this map"),
                                          ("N13a6", "not a hex label"), ("S0000", "not on sheet S")])
def test_bad_labels_name_the_file_and_label(m, label, words):
    with pytest.raises(DataError) as e:
        m.hex(label)
    assert e.value.file.endswith("valley.yaml") and repr(label) in e.value.field and words in str(e.value)


# --------------------------------------------------------------------------- the text's facts (catalog C-4)

@pytest.mark.rule("C 8")
def test_movement_example_path_hexes_are_clear(m):
    for lab in ["1010", "1111", "1112", "1011", "1113", "0814", "0915", "1015", "0519", "0618", "0718",
                "0817", "0917", "1017", "1212", "1313", "1413"]:
        assert m.terrain(N(m, lab)) == "clear" and not m.info(N(m, lab)).features, lab
    assert N(m, "1313").distance(N(m, "1414")) == 2 and N(m, "1413").is_adjacent(N(m, "1414"))


@pytest.mark.rule("C 13")
def test_hill_example(m):
    a, b, c = N(m, "2726"), N(m, "2826"), N(m, "2625")
    assert m.terrain(a) == m.terrain(b) == "hill"
    assert "hill" not in m.side(a, b)
    assert c.is_adjacent(a) and "hill" in m.side(c, a)


@pytest.mark.rule("C 14.A", "C 28.D")
def test_independent_strongpoint_and_runway_end(m):
    sp = strongpoints(m)
    assert sp["N2224"] == [N(m, "2224")] and complex_of("N2224") is None
    assert runway_end(m) == N(m, "1918") and m.terrain(N(m, "1918")) == "airfield"
    assert m.info(N(m, "1918")).provenance.kind == "text"


@pytest.mark.rule("C 28.D", "C 31")
def test_airfields_cone_and_revetment(m):
    main = dbp_airfield(m)
    assert N(m, "1918") in main and all(m.label(h).startswith("N") for h in main)
    assert revetment_hex(m) in main
    assert any(m.terrain(h) == "airfield" and m.label(h).startswith("S") for h in m.hexes)   # Isabelle's strip
    end = runway_end(m)
    cone = take_off_cone(m)
    assert cone and all(1 <= h.distance(end) <= 10 for h in cone)
    # the cone spreads north-west: every cone hex lies north of the runway end or west of it
    assert all(m.layout.to_offset(h)[1] < m.layout.to_offset(end)[1] for h in cone)
    # west of the runway, a drainage ditch
    assert any("drainage_ditch" in m.side(end, n) for n in m.neighbors(end))


# --------------------------------------------------------------------------- strongpoints (C 14)

@pytest.mark.rule("C 14.A")
def test_every_strongpoint_is_one_to_three_touching_hexes_enclosed(m):
    for name, hexes in strongpoints(m).items():
        assert 1 <= len(hexes) <= 3, name
        for h in hexes:
            assert "strongpoint" in m.info(h).features
            for n in m.neighbors(h):
                if n not in hexes:
                    assert m.side(h, n) & {"barbed_wire", "river"}, (name, m.label(h), m.label(n))
        if len(hexes) > 1:
            assert all(any(h.is_adjacent(o) for o in hexes if o != h) for h in hexes), name


SCENARIO_NAMES = ["H1", "H6", "H7", "D1", "D2", "D5", "D6", "E1", "AM2", "Francoise", "Juno", "Armor",
                  "Weime, I-5"]


@pytest.mark.rule("C 14.A", "C 19.F")
def test_complexes_and_named_strongpoints(m):
    sp = strongpoints(m)
    for code in COMPLEXES:
        assert complex_strongpoints(m, code), code
    for code, count in {"G": 5, "B": 4, "H": 7, "C": 5, "D": 6, "E": 4, "I": 5, "AM": 2}.items():
        assert len(complex_strongpoints(m, code)) == count, code
    for text in SCENARIO_NAMES:
        assert strongpoint_name(m, text) in sp
    assert complex_of("AM-1") == "AM" and complex_of("Weime, I-5") == "I"
    assert complex_of("Francoise") is complex_of("Juno") is complex_of("Armor") is None
    assert "armor_bunker" in m.info(sp["Armor"][0]).features
    with pytest.raises(DataError):
        strongpoint_name(m, "Z9")


@pytest.mark.rule("C 14.C")
def test_g5_is_ringed_by_the_other_gabrielles(m):
    sp = strongpoints(m)
    ring = {h for n in ("G-1", "G-2", "G-3", "G-4") for h in sp[n]}
    (g5,) = sp["G-5"]
    assert set(m.neighbors(g5)) <= ring and len(m.neighbors(g5)) == 6


def centre(m, hexes):
    cols, rows = zip(*(m.layout.to_offset(h) for h in hexes))
    return sum(cols) / len(cols), sum(rows) / len(rows)


def test_relative_positions(m):
    at = {code: centre(m, [h for hs in complex_strongpoints(m, code).values() for h in hs]) for code in COMPLEXES}
    north = lambda a, b: at[a][1] < at[b][1]          # noqa: E731
    assert north("G", "AM") and north("AM", "H") and north("H", "C") and north("D", "E") and north("C", "I")
    assert at["B"][0] > at["C"][0] and north("B", "C")                    # Beatrice north-east of the centre
    assert all(m.label(h).startswith("S") for hs in complex_strongpoints(m, "I").values() for h in hs)
    assert all(m.label(h).startswith("N") for c in ("G", "B", "AM", "H", "C", "D", "E")
               for hs in complex_strongpoints(m, c).values() for h in hs)
    # Dominique and Eliane lie east of the Nam Yum: a river hexside between each and the airstrip's row
    for code in ("D", "E"):
        for hs in complex_strongpoints(m, code).values():
            col, row = m.layout.to_offset(hs[0])
            assert any("river" in m.side(m.layout.to_hex(c, row), m.layout.to_hex(c + 1, row))
                       for c in range(15, col)), code
    # Gabrielle ~4 km (22 hexes of 200 yards) north of the centre, Isabelle ~5 km south
    armor = centre(m, strongpoints(m)["Armor"])
    assert 18 <= armor[1] - at["G"][1] <= 26 and 24 <= at["I"][1] - armor[1] <= 32


def test_villages_of_the_flak_raid_lie_west_and_north_west_of_the_airstrip(m):
    v = villages(m)
    assert set(v) == {"Ban Ong Pet", "Ban Me", "Ban Ban"}
    end = m.layout.to_offset(runway_end(m))
    assert all(m.layout.to_offset(h)[0] < end[0] for h in v.values())


# --------------------------------------------------------------------------- terrain, zones, roads

@pytest.mark.rule("C 13", "C 8")
def test_jungle_zones(m):
    zones = {h: jungle_zone(m, h) for h in m.hexes if m.terrain(h) == "full_jungle"}
    assert all(zones.values())
    for h, z in zones.items():
        for n in m.neighbors(h):
            if zones.get(n) not in (None, z):
                assert "full_jungle" in m.side(h, n), (m.label(h), m.label(n))
    # the south-east patch of the south sheet is a zone of its own, touching no other full jungle
    se = zones[m.hex("S4033")]
    patch = [h for h, z in zones.items() if z == se]
    assert all(m.label(h).startswith("S") for h in patch)
    assert not any(zones.get(n) not in (None, se) for h in patch for n in m.neighbors(h))
    # R.C. 4 leaves the east edge between two zones
    exit_ = [h for h in m.hexes if "road" in m.info(h).features and m.layout.to_offset(h)[0] == 40]
    assert exit_ and any(zones.get(n) not in (None, zones[exit_[0]]) for n in m.neighbors(exit_[0]))


def test_river_bridges_and_monsoon_swamps(m):
    river = [k for k, s in m.hexsides.items() if "river" in s.features]
    bridges = [k for k in river if all("road" in m.info(h).features for h in k)]
    assert len(river) > 60 and len(bridges) >= 3
    assert any(m.terrain(h) == "monsoon_swamp" and "strongpoint" in m.info(h).features for h in m.hexes)


# --------------------------------------------------------------------------- the excerpt is a window of the valley

def test_the_excerpt_is_the_valley_hex_for_hex(m):
    am = anne_marie_map()
    v = {am.label(h): (i.terrain, i.features, i.attrs, i.provenance) for h, i in am.hexes.items()}
    for lab, info in v.items():
        vi = m.info(N(m, lab))
        assert (vi.terrain, vi.features, vi.attrs, vi.provenance) == info, lab
    for a in am.hexes:
        for b in am.neighbors(a):
            assert am.side(a, b) == m.side(N(m, am.label(a)), N(m, am.label(b))), (am.label(a), am.label(b))


# --------------------------------------------------------------------------- bad files

BASE = """
name: t
sheet: valley
layout: {}
sheets: [{letter: N, row_offset: 0}, {letter: S, row_offset: 4}]
provenance: {kind: reconstructed, source: tests}
fill: [{sheet: N, cols: [1, 5], rows: [1, 4], terrain: clear}, {sheet: S, cols: [1, 5], rows: [1, 4], terrain: clear}]
hexes:
  N0302: {terrain: clear, features: [strongpoint], strongpoint: X-1}
  S0302: {terrain: hill}
hexsides: WIRE
"""


def wire(around: str) -> str:
    from wargames.core.hexgrid import OffsetLayout
    lay = OffsetLayout()
    col, row = int(around[1:3]), int(around[3:5])
    h = lay.to_hex(col, row)
    out = []
    for n in h.neighbors():
        c, r = lay.to_offset(n)
        out.append(f"{{between: [{around}, N{c:02d}{r:02d}], features: [barbed_wire]}}")
    return "[" + ", ".join(out) + "]"


def _load(tmp_path, text):
    p = tmp_path / "valley.yaml"
    p.write_text(text)
    return p, load_citadel_map(p)


def test_a_good_small_valley_loads(tmp_path):
    _, vm = _load(tmp_path, BASE.replace("WIRE", wire("N0302")))
    assert strongpoints(vm) == {"X-1": [vm.hex("N0302")]}
    assert vm.hex("S0101") in vm.neighbors(vm.hex("N0104"))


@pytest.mark.parametrize("edit, field, words", [
    (lambda t: t.replace("WIRE", "[]"), "hexes[N0302].strongpoint", "is open"),
    (lambda t: t.replace("WIRE", wire("N0302")).replace("S0302: {terrain: hill}",
                                                        "S0302: {terrain: hill, zone: Z1}"),
     "hexes[S0302].zone", "full_jungle"),
    (lambda t: t.replace("WIRE", "[]").replace("features: [strongpoint], ", ""), "hexes[N0302].strongpoint",
     "no strongpoint in its features"),
    (lambda t: t.replace("WIRE", "[]").replace("S0302: {terrain: hill}", "S0302: {terrain: hill}\n" + "\n".join(
        f"  N0{c}0{r}: {{terrain: clear, features: [strongpoint], strongpoint: X-1}}" for c, r in
        ((3, 3), (3, 4), (2, 3)))), "hexes[N0203].strongpoint", "has 4 hexes"),
    (lambda t: t.replace("WIRE", "[]").replace("S0302: {terrain: hill}", "S0302: {terrain: hill}\n"
                                               "  S0502: {terrain: clear, features: [strongpoint], strongpoint: X-1}"),
     "hexes[N0302].strongpoint", "is split"),
    (lambda t: t.replace("WIRE", "[]").replace("S0302: {terrain: hill}", "Q0302: {terrain: hill}"),
     "hexes[Q0302]", "sheet 'Q'"),
    (lambda t: t.replace("WIRE", "[]").replace("sheet: S, cols", "sheet: K, cols"), "fill[1].sheet",
     "one of the sheets"),
    (lambda t: t.replace("WIRE", "[]").replace("rows: [1, 4], terrain: clear}, {sheet: S",
                                               "rows: [1, 9], terrain: clear}, {sheet: S"), "fill[0].rows",
     "sheet N"),
])
def test_bad_valley_files_name_the_file_and_the_hex(tmp_path, edit, field, words):
    with pytest.raises(DataError) as e:
        _load(tmp_path, edit(BASE))
    assert e.value.file == str(tmp_path / "valley.yaml")
    assert e.value.field.startswith(field) and words in str(e.value), str(e.value)


def test_the_shipped_files_are_what_the_script_writes(tmp_path):
    """tools/citadel_valley.py is the source of both files; neither may drift from it by hand."""
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("citadel_valley", Path(__file__).parent.parent / "tools" /
                                                  "citadel_valley.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.write_valley(tmp_path / "valley.yaml")
    mod.write_excerpt(tmp_path / "anne_marie.yaml")
    for name in ("valley.yaml", "anne_marie.yaml"):
        assert (tmp_path / name).read_text() == (MAPS / name).read_text(), name
    data = yamlc.safe_load((MAPS / "valley.yaml").read_text())
    assert data["sheets"] == [{"letter": "N", "row_offset": 0}, {"letter": "S", "row_offset": 33}]
