"""The reconstructed map of No Trumpets No Drums (wargames/ntnd/data/maps/indochina.yaml, made by
tools/ntnd_map.py) and wargames/ntnd/geography.py: one test per constraint the rules need of the map."""
from __future__ import annotations

import subprocess
import sys
from collections import deque
from pathlib import Path

import pytest

from wargames.core.errors import DataError
from wargames.ntnd import geography
from wargames.ntnd.geography import CORPS, HEADQUARTERS, SHIPPED, ZONES, load_map, shipped_map
from . import yamlc

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT / "tools" / "ntnd_map.py"


@pytest.fixture(scope="module")
def g():
    return shipped_map()


def steps(g, starts, goal, ok):
    """Fewest moves from one of ``starts`` to a hex where ``goal`` holds, through hexes where ``ok`` holds."""
    prev = {s: 0 for s in starts}
    todo = deque(starts)
    while todo:
        h = todo.popleft()
        if goal(h):
            return prev[h]
        for n in g.map.neighbors(h):
            if n not in prev and ok(n):
                prev[n] = prev[h] + 1
                todo.append(n)
    return None


# ------------------------------------------------------------------------------------------- the file itself
def test_the_map_is_even_q_with_xxyy_labels_and_40_km_hexes(g):
    m = g.map
    assert m.layout.parity == "even-q" and (m.layout.col_digits, m.layout.row_digits) == (2, 2)
    labels = sorted(m.label(h) for h in m.hexes)
    assert labels[0] == "0104" and labels[-1] == "2323"
    assert len(m.hexes) == 480
    assert "40 km a hex" in m.hexes[m.hex("1010")].provenance.source
    assert shipped_map() is g                        # read once per process


def test_provenance_is_reconstructed_but_for_the_names_the_rules_give(g):
    kinds = {i.provenance.kind for i in g.map.hexes.values()}
    assert kinds == {"reconstructed"}
    for area in ("I", "II", "III", "IV", "Cambodia"):
        assert "NT 5.1" in g.map.info(g.hq_hex(area)).provenance.source
    for name in ("Khe Sanh", "Lang Vei", "A Shau", "Iron Triangle"):
        assert "design note" in g.map.info(g.place(name)).provenance.source
    for z in g.zones.values():
        assert z.provenance.kind == "text" and "9.1" in z.provenance.source
        assert z.links_provenance.kind == "reconstructed"


def test_the_generator_reproduces_the_shipped_file(tmp_path):
    out = tmp_path / "indochina.yaml"
    subprocess.run([sys.executable, str(TOOL), "--out", str(out), "--quiet"], check=True, timeout=120)
    assert out.read_bytes() == SHIPPED.read_bytes()


# ------------------------------------------------------------------------------------------ 5.1 headquarters
@pytest.mark.rule("NT 5.1")
def test_each_corps_and_country_has_its_headquarters(g):
    for area, name in HEADQUARTERS.items():
        hq = g.headquarters(area)
        if area == "Laos":
            assert hq == "Luang Prabang" and g.zone(hq).hq == "Laos"
            with pytest.raises(KeyError):
                g.hq_hex("Laos")
        else:
            assert g.name(hq) == name and g.area(hq) == area and g.is_settlement(hq)
    assert geography.hq_hex("I") == g.place("Da Nang")
    assert g.is_town(g.hq_hex("IV")) and not g.is_city(g.hq_hex("IV"))      # 5.4: Soc Trang, "city/town"
    for area in ("I", "II", "III", "Cambodia"):
        assert g.is_city(g.hq_hex(area))
    with pytest.raises(KeyError):
        g.headquarters("NV")


# ------------------------------------------------------------------------------------- each corps, 25.3 / 5.4
@pytest.mark.parametrize("corps", CORPS)
def test_each_corps_has_two_cities_several_towns_a_port_and_rough_ground(g, corps):
    places = g.settlements(corps)
    cities = [n for n, h in places.items() if g.is_city(h)]
    towns = [n for n, h in places.items() if g.is_town(h)]
    assert len(cities) >= 2, cities
    assert len(towns) >= 5, towns
    assert any(g.is_coastal(h) for h in places.values())
    assert {g.terrain(h) for h in g.hexes_of(corps)} & {"mountain", "jungle", "swamp"}


@pytest.mark.parametrize("area", ("I", "II", "Laos"))
def test_montagnard_areas_have_mountains(g, area):
    assert sum(g.terrain(h) == "mountain" for h in g.hexes_of(area)) >= 5


def test_swamp_lies_in_the_delta_and_the_rung_sat(g):
    assert any(g.terrain(h) == "swamp" for h in g.hexes_of("IV"))
    assert any(g.terrain(h) == "swamp" for h in g.hexes_of("III"))


@pytest.mark.rule("NT 5.3.1")
def test_every_corps_borders_laos_or_cambodia(g):
    expected = {"I": {"Laos"}, "II": {"Laos", "Cambodia"}, "III": {"Cambodia"}, "IV": {"Cambodia"}}
    for corps, neutrals in expected.items():
        assert g.areas_bordering(corps) & {"Laos", "Cambodia"} == neutrals
        for country in ("Laos", "Cambodia"):
            assert g.may_operate_in(corps, country) == (country in neutrals)
        assert g.may_operate_in(corps, corps)
        assert not g.may_operate_in(corps, "NV")
    assert not g.may_operate_in("I", "II")
    with pytest.raises(KeyError):
        g.may_operate_in("Laos", "Cambodia")


def test_one_corps_is_longer_than_the_monsoon_airmobile_reach_of_9_hexes(g):
    length = {c: max(a.distance(b) for a in g.hexes_of(c) for b in g.hexes_of(c)) for c in CORPS}
    assert length == {"I": 9, "II": 12, "III": 6, "IV": 7}


# ------------------------------------------------------------------------------------------- places by name
NAMED = {"Khe Sanh": "I", "Lang Vei": "I", "A Shau": "I", "Hue": "I", "Quang Tri": "I", "Da Nang": "I",
         "Kontum": "II", "Pleiku": "II", "Ban Me Thuot": "II", "Nha Trang": "II", "Da Lat": "II", "Qui Nhon": "II",
         "Saigon": "III", "Bien Hoa": "III", "Tay Ninh": "III", "An Loc": "III", "Iron Triangle": "III",
         "Can Tho": "IV", "My Tho": "IV", "Soc Trang": "IV", "Phnom Penh": "Cambodia", "Kampot": "Cambodia",
         "Kompong Som": "Cambodia", "Tchepone": "Laos", "Savannakhet": "Laos", "Pakse": "Laos", "Vinh": "NV"}


def test_the_named_places_are_in_their_areas(g):
    hexes = {n: g.place(n) for n in NAMED}
    assert len(set(hexes.values())) == len(hexes)                 # each in its own hex
    assert {n: g.area(h) for n, h in hexes.items()} == NAMED
    assert g.place("Khe Sanh").is_adjacent(g.place("Lang Vei"))
    assert g.has(g.place("Khe Sanh"), "road") and "Route 9" in g.map.info(g.place("Lang Vei")).attr("routes")


# ----------------------------------------------------------------------------------------- Laos and Cambodia
def test_the_laos_panhandle_has_trails_towns_and_mountains(g):
    laos = g.hexes_of("Laos")
    assert sum(g.has(h, "trail") for h in laos) >= 10
    assert len(g.settlements("Laos")) >= 6
    assert any(g.terrain(h) == "mountain" for h in laos)


def test_cambodia_has_phnom_penh_towns_a_coast_and_the_tonle_sap(g):
    places = g.settlements("Cambodia")
    assert g.is_city(places["Phnom Penh"]) and len(places) >= 10
    assert g.is_coastal(places["Kampot"]) and g.is_coastal(places["Kompong Som"])
    lake = [k for k, s in g.map.hexsides.items() if "all_lake" in s.features]
    assert len(lake) >= 4
    for side in lake:                                             # all-lake hexsides in Cambodia only
        assert {g.country(h) for h in side} == {"Cambodia"}
    a, b = sorted(lake[0])
    assert g.all_lake_side(a, b) and not g.all_sea_side(a, b)


# ------------------------------------------------------------------------------------------ water (8.2, 14)
def test_coastal_hexes_are_exactly_the_land_next_to_all_sea(g):
    for h, info in g.map.hexes.items():
        by_sea = any(g.is_all_sea(n) for n in g.map.neighbors(h))
        assert g.is_coastal(h) == (by_sea and not g.is_all_sea(h)), g.label(h)


def test_all_sea_hexsides_join_two_coastal_land_hexes(g):
    sea = [k for k, s in g.map.hexsides.items() if "all_sea" in s.features]
    assert sea
    for side in sea:
        assert all(g.is_coastal(h) and not g.is_all_sea(h) for h in side)
        assert g.all_sea_side(*side) and not g.all_lake_side(*side)


def test_a_major_river_chain_runs_from_laos_to_the_sea(g):
    """Patrol boats (8.2.4) and supply by river (8.6.1) need a chain of major-river hexes."""
    river = lambda h: g.has(h, "major_river")          # noqa: E731
    laos = [h for h in g.hexes_of("Laos") if river(h)]
    assert laos
    n = steps(g, laos, lambda h: g.country(h) == "SVN" and g.is_coastal(h), river)
    assert n is not None and n >= 15
    assert g.river(g.place("Phnom Penh")) == "major" and g.river(g.place("Can Tho")) == "major"
    assert all(g.naval(h) for h in g.map.hexes if river(h) or g.is_coastal(h) or g.is_all_sea(h))
    assert not g.naval(g.place("Pleiku")) and not g.naval(g.place("Kontum"))
    for h in g.map.hexes:                               # a hex has one river class
        assert not (g.has(h, "major_river") and g.has(h, "minor_river"))


def test_minor_rivers_run_in_every_corps(g):
    for corps in CORPS + ("NV", "Laos", "Cambodia"):
        assert any(g.river(h) == "minor" for h in g.hexes_of(corps)), corps


# --------------------------------------------------------------------------------------------- roads, trails
def test_route_1_from_hue_to_saigon_is_22_road_hexes(g):
    road = lambda h: g.has(h, "road")                   # noqa: E731
    assert steps(g, [g.place("Hue")], lambda h: h == g.place("Saigon"), road) == 22
    route1 = [h for h, i in g.map.hexes.items() if "Route 1" in (i.attr("routes") or ())]
    assert {g.area(h) for h in route1} >= {"NV", "I", "II", "III", "Cambodia"}


@pytest.mark.parametrize("route, a, b", [("Route 9", "Quang Tri", "Savannakhet"), ("Route 19", "Qui Nhon", "Pleiku"),
                                         ("Route 13", "Saigon", "Pakse"), ("Route 4", "Saigon", "Soc Trang"),
                                         ("Route 14", "Kontum", "Ban Me Thuot")])
def test_lateral_roads_join_their_towns(g, route, a, b):
    on = lambda h: route in (g.map.info(h).attr("routes") or ())     # noqa: E731
    assert on(g.place(b))
    assert steps(g, [g.place(a)], lambda h: h == g.place(b), lambda h: g.has(h, "road")) is not None


def test_the_trail_from_north_vietnam_to_the_tri_border_is_12_hexes(g):
    def tri_border(h):
        around = {g.country(n) for n in g.map.neighbors(h)} | {g.country(h)}
        return {"Laos", "Cambodia", "SVN"} <= around
    trail = lambda h: g.has(h, "trail")                 # noqa: E731
    nv = [h for h in g.hexes_of("NV") if trail(h)]
    assert [g.name(h) for h in nv] == ["Mu Gia"]
    assert steps(g, nv, tri_border, trail) + 1 == 12       # hexes, counting both ends
    # the trail goes on into Cambodia, longer than a supply unit's 12 points (8.4 raises them to 15)
    assert steps(g, nv, lambda h: h == g.place("Snuol"), trail) > 15


# -------------------------------------------------------------------------------------------- borders, 10
def test_border_hexsides_lie_between_countries(g):
    ks, tch = g.place("Khe Sanh"), g.place("Tchepone")
    assert g.border_side(ks, tch)                       # Tchepone is the next hex, across the border
    laos_next = [n for n in g.map.neighbors(ks) if g.country(n) == "Laos"]
    assert laos_next and g.border_side(ks, laos_next[0])
    assert not g.border_side(ks, g.place("Lang Vei"))
    sea = next(n for n in g.map.neighbors(g.place("Da Nang")) if g.is_all_sea(n))
    assert not g.border_side(g.place("Da Nang"), sea)
    assert not g.border_side(ks, g.place("Savannakhet"))          # not adjacent
    nv = g.hexes_of("NV")
    assert any(g.country(n) == "SVN" for h in nv for n in g.map.neighbors(h))      # North borders South


# ------------------------------------------------------------------------------------------------ zones, 9.1
@pytest.mark.rule("NT 9.1")
def test_the_six_zones_and_their_neighbours(g):
    assert tuple(g.zones) == ZONES
    edges = {frozenset((z.name, o)) for z in g.zones.values() for o in z.adjacent}
    assert edges == {frozenset(p) for p in (("China", "Hanoi"), ("Hanoi", "Haiphong"), ("Hanoi", "Plain of Jars"),
                                            ("Plain of Jars", "Luang Prabang"), ("Luang Prabang", "Vientiane"),
                                            ("China", "Luang Prabang"))}
    assert g.zone_step("Hanoi", "China") and g.zone_step("China", "Hanoi")
    assert not g.zone_step("Haiphong", "China") and not g.zone_step("Vientiane", "Plain of Jars")
    with pytest.raises(KeyError):
        g.zone_step("Hanoi", "Peking")


@pytest.mark.rule("NT 9.1")
def test_zone_border_hexes(g):
    hanoi = g.zone("Hanoi").border_hexes
    assert len(hanoi) >= 3 and {g.country(h) for h in hanoi} == {"NV"}
    h = sorted(hanoi)[0]
    assert g.zone_step("Hanoi", h) and g.zone_step(h, "Hanoi") and "Hanoi" in g.zones_bordering(h)
    assert not g.zone_step("Plain of Jars", h)
    assert not g.zone_step(h, sorted(hanoi)[1])          # hex to hex is no zone step
    assert {g.country(h) for h in g.zone("Plain of Jars").border_hexes} == {"Laos"}
    assert not g.zone("China").border_hexes and not g.zone("Luang Prabang").border_hexes


def test_haiphong_has_sea_access(g):
    z = g.zone("Haiphong")
    assert z.sea_access and any(g.is_all_sea(h) for h in z.border_hexes)
    assert not any(o.sea_access for o in g.zones.values() if o.name != "Haiphong")


def test_vientiane_is_the_laotian_zone_on_the_west_edge(g):
    z = g.zone("Vientiane")
    assert z.west_edge and z.country == "Laos"
    west = min(h.q for h in g.map.hexes)
    assert {h.q for h in z.border_hexes} == {west} and {g.country(h) for h in z.border_hexes} == {"Laos"}
    assert [n for n, o in g.zones.items() if o.west_edge] == ["Vientiane"]


# ----------------------------------------------------------------------------------------------- hostile data
def _hostile(tmp_path, edit):
    doc = yamlc.safe_load(SHIPPED.read_text())
    edit(doc)
    path = tmp_path / "bad.yaml"
    path.write_text(yamlc.safe_dump(doc, sort_keys=False))
    return path


def test_a_bad_terrain_code_names_file_and_hex(tmp_path, g):
    lab = g.label(g.place("Pleiku"))
    path = _hostile(tmp_path, lambda d: d["hexes"][lab].update(terrain="lava"))
    with pytest.raises(DataError) as e:
        load_map(path)
    assert "bad.yaml" in str(e.value) and f"hexes[{lab}]" in str(e.value) and "terrain" in str(e.value)


@pytest.mark.parametrize("field, value", [("area", "V"), ("country", "Atlantis"), ("hq", "II"), ("features", ["port"]),
                                          ("terrain", "all_sea"), ("area", "II")])
def test_a_bad_hex_field_names_its_hex(tmp_path, g, field, value):
    lab = g.label(g.place("Da Nang"))
    path = _hostile(tmp_path, lambda d: d["hexes"][lab].update({field: value}))
    with pytest.raises(DataError) as e:
        load_map(path)
    assert f"hexes[{lab}]" in str(e.value)


@pytest.mark.parametrize("edit, where", [
    (lambda d: d["zones"][1]["border_hexes"].append("9999"), "zones[1].border_hexes"),
    (lambda d: d["zones"][2].update(adjacent=["China"]), "zones"),
    (lambda d: d["zones"][0].update(name="Moscow"), "zones[0].name"),
    (lambda d: d["zones"].pop(5), "zones"),
    (lambda d: d["zones"][4].pop("hq"), "zones"),
    (lambda d: d.pop("zones"), "zones"),
])
def test_bad_zones_are_refused(tmp_path, edit, where):
    with pytest.raises(DataError) as e:
        load_map(_hostile(tmp_path, edit))
    assert where in str(e.value) and "bad.yaml" in str(e.value)


@pytest.mark.rule("NT 9.1")
def test_one_step_away_counts_zones_both_ways():
    g = shipped_map()
    assert g.neighbours("1310") == ["1410", "1409", "1309", "1209", "1210", "1311"]
    assert g.neighbours("Hanoi")[:3] == ["China", "Haiphong", "Plain of Jars"] and "0601" in g.neighbours("Hanoi")
    assert "Hanoi" in g.neighbours("0601")
    assert g.next_to("1310", "1311") and not g.next_to("1310", "1312")
    assert g.next_to("Hanoi", "China") and g.next_to("0601", "Hanoi") and g.next_to("Hanoi", "0601")
    assert not g.next_to("Hanoi", "1310") and not g.next_to("Hanoi", "Hanoi")
