"""The reconstructed map of Indochina (wargames/indochina/data/maps/indochina.yaml, made by tools/indochina_map.py):
it loads, holds every place the scenarios name in the right country, keeps real geography's order, and the
generator reproduces it byte for byte."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from wargames.core import Hex
from wargames.core.errors import DataError
from wargames.core.mapdata import MAX_HEXES
from wargames.indochina.state import MAPS, indochina_map, load_indochina_map
from . import yamlc

ROOT = Path(__file__).resolve().parent.parent
SCENARIOS = ROOT / "wargames" / "indochina" / "data" / "scenarios"
TOOL = ROOT / "tools" / "indochina_map.py"
NORTH, SOUTH = Hex(0, -1), Hex(0, 1)
WATER = ("all_sea", "all_lake")
INDOCHINA = ("Vietnam", "Laos", "Cambodia")

# IC 38's places and the countries its notes give them ("in Vietnam", "in Laos"), besides the scenario files
IC38 = {"Mon Cai": "Vietnam", "Lang Son": "Vietnam", "Cao Bang": "Vietnam", "Hai Giang": "Vietnam",
        "Lao Cay": "Vietnam", "Hoa Binh": "Vietnam", "Dien Bien Phu": "Vietnam", "Ninh Binh": "Vietnam",
        "Than Hoa": "Vietnam", "Vinh": "Vietnam", "Dong Hai": "Vietnam", "Qui Nhon": "Vietnam",
        "Quang Nai": "Vietnam", "Long Xuyen": "Vietnam", "Cao Mao": "Vietnam", "Bac Lieu": "Vietnam",
        "Sam Neua": "Laos", "Hanoi": "Vietnam", "Haiphong": "Vietnam", "Thai Binh": "Vietnam",
        "Saigon": "Vietnam", "Phnom Penh": "Cambodia", "Vientiane": "Laos", "Luang Prabang": "Laos",
        "Na Sanh": "Vietnam", "Pleiku": "Vietnam", "Hue": "Vietnam"}
BORDER_FORTS = ("Mon Cai", "Lang Son", "Cao Bang", "Hai Giang", "Lao Cay")


@pytest.fixture(scope="module")
def m():
    return indochina_map()


@pytest.fixture(scope="module")
def named(m):
    out: dict[str, list[Hex]] = {}
    for h, info in m.hexes.items():
        if info.attr("name"):
            out.setdefault(info.attr("name"), []).append(h)
    return out


def at(m, named, name) -> Hex:
    hexes = named.get(name, [])
    assert len(hexes) == 1, f"{name} is in {len(hexes)} hexes"
    return hexes[0]


def row(m, h):
    return m.layout.to_offset(h)[1]


def col(m, h):
    return m.layout.to_offset(h)[0]


def component(m, start: Hex, ok) -> set[Hex]:
    seen, edge = {start}, [start]
    while edge:
        edge = [n for h in edge for n in m.neighbors(h) if n not in seen and ok(n) and not seen.add(n)]
    return seen


def scenario_places() -> dict[str, str | None]:
    """Every place name the scenario files use, with the country they give it (None: not given)."""
    out: dict[str, str | None] = {}

    def walk(v):
        if isinstance(v, dict):
            if isinstance(v.get("name"), str) and "country" in v:
                out[v["name"]] = v["country"]
            for key in ("places", "all_except"):
                if isinstance(v.get(key), list):
                    for n in v[key]:
                        out.setdefault(n, None)
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)

    for path in sorted(SCENARIOS.glob("*.yaml")):
        walk(yamlc.safe_load(path.read_text()))
    return out


@pytest.mark.rule("IC 2.2", "IC 2.37")
def test_the_map_loads_and_stays_under_the_cap(m):
    assert 1500 < len(m.hexes) < MAX_HEXES
    assert indochina_map() is not m                      # a new copy each call, as demo_map
    assert {i.attr("country") for i in m.hexes.values()} == {"Vietnam", "Laos", "Cambodia", "China",
                                                             "Thailand", "Burma", "sea"}


@pytest.mark.rule("IC 38")
def test_every_scenario_place_is_one_hex_in_its_country(m, named):
    places = scenario_places()
    assert {"Mon Cai", "Sam Neua", "Na Sanh", "Phnom Penh", "Thai Binh"} <= set(places)
    for name, country in {**{k: None for k in places}, **IC38}.items():
        h = at(m, named, name)
        want = country or places.get(name) or IC38.get(name)
        assert want, name
        assert m.info(h).attr("country") == want, name
        if name in places and places[name]:
            assert places[name] == want, name


@pytest.mark.rule("IC 2.37")
def test_real_geography_keeps_its_order(m, named):
    hanoi, hue, saigon = (at(m, named, n) for n in ("Hanoi", "Hue", "Saigon"))
    assert row(m, hanoi) < row(m, hue) < row(m, saigon)
    assert col(m, at(m, named, "Vientiane")) < col(m, hanoi)
    assert col(m, at(m, named, "Luang Prabang")) < col(m, at(m, named, "Vientiane")) + 2
    assert m.info(at(m, named, "Phnom Penh")).attr("country") == "Cambodia"
    assert row(m, at(m, named, "Haiphong")) < row(m, at(m, named, "Vinh")) < row(m, at(m, named, "Tourane"))
    # 25 km a hex: Hanoi to Saigon is about 1,140 km in a straight line, so about 45 hexes
    assert 40 <= hanoi.distance(saigon) <= 52
    assert 2 <= hanoi.distance(at(m, named, "Haiphong")) <= 5


@pytest.mark.rule("IC 38", "IC 22.3")
def test_the_five_border_forts_touch_china(m, named):
    for name in BORDER_FORTS:
        h = at(m, named, name)
        assert m.info(h).attr("country") == "Vietnam", name
        assert any(m.info(n).attr("country") == "China" for n in m.neighbors(h)), name
        assert "IC 38" in m.info(h).provenance.source, name


@pytest.mark.rule("IC 23.11")
def test_the_four_printed_ports_and_saigons_river_exit(m, named):
    ports = {i.attr("port") for i in m.hexes.values() if i.attr("port")}
    assert ports == {"Haiphong", "Cam Ranh", "Saigon", "Veal Renh"}
    for name in ports:
        h = at(m, named, name)
        assert m.info(h).attr("port") == name
        assert m.terrain(h) not in WATER
    haiphong = at(m, named, "Haiphong")
    assert m.has(haiphong, "coast") and any(m.terrain(n) == "all_sea" for n in m.neighbors(haiphong))
    saigon = at(m, named, "Saigon")
    access = m.info(saigon).attr("sea_access")
    exit_hex = m.hex(access) if access else saigon + SOUTH
    assert m.has(exit_hex, "river") and any(m.terrain(n) == "all_sea" for n in m.neighbors(exit_hex))


@pytest.mark.rule("IC 18.1")
def test_tonle_sap_is_lake(m, named):
    lake = [h for h, i in m.hexes.items() if i.terrain == "all_lake"]
    assert len(lake) >= 3
    assert all(m.info(h).attr("country") == "Cambodia" for h in lake)
    assert component(m, lake[0], lambda h: m.terrain(h) == "all_lake") == set(lake)
    near = {at(m, named, n) for n in ("Siem Reap", "Pursat", "Kompong Chhnang", "Battambang")}
    assert all(min(h.distance(n) for n in near) <= 3 for h in lake)


@pytest.mark.rule("IC 9.74", "IC 18.1")
def test_the_mekong_runs_from_laos_to_the_sea(m, named):
    start = at(m, named, "Luang Prabang")
    assert m.has(start, "river")
    river = component(m, start, lambda h: m.has(h, "river"))
    for name in ("Vientiane", "Thakhek", "Savannakhet", "Pakse", "Stung Treng", "Kratie", "Phnom Penh"):
        h = at(m, named, name)
        assert h in river or any(n in river for n in m.neighbors(h)), name
    assert any(m.terrain(n) == "all_sea" for h in river for n in m.neighbors(h))
    red = component(m, at(m, named, "Hanoi"), lambda h: m.has(h, "river"))
    assert at(m, named, "Hanoi") in red and any(m.terrain(n) == "all_sea" for h in red for n in m.neighbors(h))


@pytest.mark.rule("IC 9.71")
@pytest.mark.parametrize("route, stops", [
    ("RC 4", ("Mon Cai", "Lang Son", "That Khe", "Dong Khe", "Cao Bang")),
    ("RC 1", ("Hanoi", "Vinh", "Hue", "Tourane", "Qui Nhon", "Nha Trang", "Saigon")),
    ("RC 13", ("Saigon", "Kratie", "Pakse", "Savannakhet", "Vientiane", "Luang Prabang")),
    ("RC 6", ("Hanoi", "Hoa Binh", "Son La", "Lai Chau")),
    ("RC 9", ("Quang Tri", "Savannakhet")),
])
def test_routes_are_connected_road_chains(m, named, route, stops):
    hexes = {h for h, i in m.hexes.items() if route in (i.attr("routes") or ())}
    assert hexes and all(m.has(h, "road") for h in hexes)
    assert not any(m.terrain(h) in WATER for h in hexes)
    for name in stops:
        assert at(m, named, name) in hexes, name
    assert component(m, at(m, named, stops[0]), lambda h: h in hexes) == hexes


@pytest.mark.rule("IC 15.24")
def test_china_has_a_north_edge_with_routes(m):
    edge = [h for h, i in m.hexes.items() if i.attr("north_edge")]
    assert edge and all(m.info(h).attr("country") == "China" for h in edge)
    assert all(h + NORTH not in m for h in edge)
    china = [h for h, i in m.hexes.items() if i.attr("country") == "China"]
    assert all(m.info(h).attr("north_edge") for h in china if h + NORTH not in m)
    assert any(m.has(h, "road") or m.has(h, "trail") for h in edge)


@pytest.mark.rule("IC 2.2")
def test_indochina_never_touches_the_open_edge(m):
    for h, info in m.hexes.items():
        if info.attr("country") in INDOCHINA:
            assert len(m.neighbors(h)) == 6, m.label(h)
    assert all(i.terrain == "all_sea" for i in m.hexes.values() if i.attr("country") == "sea")
    assert all(i.terrain != "all_sea" for i in m.hexes.values() if i.attr("country") != "sea")


@pytest.mark.rule("IC 22.4", "IC 38")
def test_the_thai_border_is_measurable_from_cambodia(m, named):
    thai = [h for h, i in m.hexes.items() if i.attr("country") == "Thailand"]
    for name in ("Sisophon", "Battambang"):
        assert min(at(m, named, name).distance(t) for t in thai) <= 4, name
    assert min(at(m, named, "Sisophon").distance(t) for t in thai) <= 3
    assert any(m.info(n).attr("country") == "Thailand" for h in m.hexes
               if m.info(h).attr("country") == "Laos" for n in m.neighbors(h))


@pytest.mark.rule("IC 17.0")
def test_towns_and_cities_have_militia_names_and_provenance(m, named):
    urban = [h for h, i in m.hexes.items() if "town" in i.features or "city" in i.features]
    assert len(urban) > 100
    for h in urban:
        info = m.info(h)
        assert info.attr("name"), m.label(h)
        assert 1 <= info.attr("militia") <= 3, m.label(h)
        assert info.provenance.kind == "reconstructed" and info.provenance.source, m.label(h)
        assert not ("town" in info.features and "city" in info.features)
    assert m.has(at(m, named, "Da Lat"), "town") and "errata" in m.info(at(m, named, "Da Lat")).provenance.source
    assert "Angkor Wat" not in named
    cities = {m.info(h).attr("name") for h in urban if m.has(h, "city")}
    assert {"Hanoi", "Haiphong", "Saigon", "Phnom Penh", "Vientiane"} <= cities
    for name in ("Sam Neua", "Hue"):
        assert "IC 38" in m.info(at(m, named, name)).provenance.source


def test_the_generator_reproduces_the_shipped_file(tmp_path):
    out = tmp_path / "indochina.yaml"
    subprocess.run([sys.executable, str(TOOL), "--out", str(out), "--quiet"], check=True, timeout=120)
    assert out.read_bytes() == (MAPS / "indochina.yaml").read_bytes()


def _hostile(tmp_path, edit):
    doc = yamlc.safe_load((MAPS / "indochina.yaml").read_text())
    edit(doc)
    path = tmp_path / "bad.yaml"
    path.write_text(yamlc.safe_dump(doc, sort_keys=False))
    return path


def test_a_hostile_terrain_names_its_hex(tmp_path, m, named):
    lab = m.label(at(m, named, "Pleiku"))
    path = _hostile(tmp_path, lambda d: d["hexes"][lab].update(terrain="lava"))
    with pytest.raises(DataError) as e:
        load_indochina_map(path)
    assert f"hexes[{lab}]" in str(e.value) and "terrain" in str(e.value)


def test_a_sea_access_to_a_missing_hex_names_its_hex(tmp_path, m, named):
    lab = m.label(at(m, named, "Saigon"))
    path = _hostile(tmp_path, lambda d: d["hexes"][lab].update(sea_access="9999"))
    with pytest.raises(DataError) as e:
        load_indochina_map(path)
    assert f"hexes[{lab}].sea_access" in str(e.value)


def test_a_hostile_country_and_route_name_their_hex(tmp_path, m, named):
    lab = m.label(at(m, named, "Hanoi"))
    for field, value in (("country", "Atlantis"), ("routes", "RC 1"), ("militia", 12)):
        path = _hostile(tmp_path, lambda d: d["hexes"][lab].update({field: value}))
        with pytest.raises(DataError) as e:
            load_indochina_map(path)
        assert f"hexes[{lab}]" in str(e.value), field


@pytest.mark.rule("IC 9.5", "IC 10.12")
@pytest.mark.parametrize("name, terrain", [
    ("Hanoi", "cultivated"), ("Nam Dinh", "cultivated"), ("My Tho", "cultivated"), ("Can Tho", "cultivated"),
    ("Hue", "cultivated"), ("Cao Mao", "swamp"), ("Cao Bang", "mountain"), ("Lao Cay", "mountain"),
    ("Sam Neua", "mountain"), ("Da Lat", "mountain"), ("Pleiku", "jungle"), ("Ban Me Thuot", "jungle"),
    ("Phnom Penh", "clear"), ("Battambang", "clear"), ("Vientiane", "clear"), ("Xieng Khouang", "clear"),
    ("Dien Bien Phu", "cultivated"),
])
def test_places_sit_in_their_real_terrain(m, named, name, terrain):
    assert m.terrain(at(m, named, name)) == terrain


@pytest.mark.rule("IC 9.5")
def test_the_regions_have_their_terrain(m, named):
    def share(country, terrain):
        hexes = [i for i in m.hexes.values() if i.attr("country") == country]
        return sum(i.terrain == terrain for i in hexes) / len(hexes)
    assert share("Laos", "mountain") > 0.4 and share("Cambodia", "clear") > 0.4
    assert share("Vietnam", "cultivated") > 0.15 and share("Vietnam", "swamp") > 0.02
    reeds = [h for h, i in m.hexes.items() if i.terrain == "swamp" and i.attr("country") == "Vietnam"]
    assert any(h.distance(at(m, named, "Saigon")) <= 5 for h in reeds)
    assert any(h.distance(at(m, named, "Cao Mao")) <= 2 for h in reeds)
