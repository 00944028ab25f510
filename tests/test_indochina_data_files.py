"""Indochina's data files through the one schema: bad values named at their field and line, no stale or shared
cached data, and the cross-checks the loaders keep (sides, months, totals, rule ids, hexes on the map)."""
from __future__ import annotations

import copy

import pytest

from wargames.core.errors import DataError
from wargames.indochina import assistance as A
from wargames.indochina.assistance import load_assistance, load_full_chart
from wargames.indochina.atomic import load_atomic_table
from wargames.indochina.bombardment import default_table, load_bombardment_table
from wargames.indochina.charts import DATA, default_charts, load_crt, load_terrain_effects
from wargames.indochina.combat import Side
from wargames.indochina.events import load_events
from wargames.indochina.mobilization import load_mobilization_chart
from wargames.indochina.political_table import load_political_table
from wargames.indochina.ruleset import Ruleset
from wargames.indochina.scenario_data import load_scenario, scenario_path
from wargames.indochina.state import MAPS, demo_map, load_indochina_map
from . import yamlc

pytestmark = pytest.mark.rule("IC 38.0")

LOADERS = {
    "terrain_effects.yaml": load_terrain_effects,
    "mobile_crt.yaml": load_crt,
    "bombardment.yaml": load_bombardment_table,
    "atomic_bomb.yaml": load_atomic_table,
    "us_assistance.yaml": lambda p: load_assistance(Side.FEF, p),
    "chinese_assistance.yaml": lambda p: load_assistance(Side.COMMUNIST, p),
    "mobilization.yaml": load_mobilization_chart,
    "mobilization_full.yaml": load_full_chart,
    "political_points.yaml": load_political_table,
    "random_events.yaml": load_events,
}


def _copy(tmp_path, name: str, change=None):
    data = yamlc.safe_load((DATA / name).read_text(encoding="utf-8"))
    if change:
        change(data)
    p = tmp_path / name
    p.write_text(yamlc.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return p


def _refused(load, path) -> DataError:
    with pytest.raises(DataError) as e:
        load(path)
    assert e.value.file == str(path) and e.value.line is not None, e.value
    return e.value


@pytest.mark.rule("IC Bombardment Table")
def test_air_losses_seven_is_a_data_error_at_its_line(tmp_path):
    p = _copy(tmp_path, "bombardment.yaml", lambda d: d.__setitem__("air_losses", 7))
    e = _refused(load_bombardment_table, p)
    assert e.field == "air_losses" and "mapping" in e.reason
    assert p.read_text().splitlines()[e.line - 1].startswith("air_losses")


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_provenance_seven_is_a_data_error_in_every_chart(tmp_path, name):
    p = _copy(tmp_path, name, lambda d: d.__setitem__("provenance", 7))
    assert _refused(LOADERS[name], p).field == "provenance"


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_editing_a_chart_and_reloading_sees_the_edit(tmp_path, name):
    """No loader caches by path: the second load reads the file again."""
    p = _copy(tmp_path, name)
    first = LOADERS[name](p)
    p.write_text(p.read_text(encoding="utf-8").replace("name: ", "name: Edited ", 1), encoding="utf-8")
    second = LOADERS[name](p)
    assert second is not first
    if name in ("mobile_crt.yaml", "bombardment.yaml"):
        assert second.name.startswith("Edited") and not first.name.startswith("Edited")


@pytest.mark.rule("IC Random Events Table", "IC Atomic Bomb Table", "IC TEC", "IC Mobilization Chart")
def test_one_callers_change_never_shows_up_for_another():
    events = load_events()
    events[11] = "changed"
    assert load_events()[11] != "changed"
    tec = load_terrain_effects()
    del tec["jungle"]
    assert "jungle" in load_terrain_effects()
    chart = load_full_chart()
    chart.clear()
    assert load_full_chart() and A.counters_available("Communist militia", {}) is None
    atomic = load_atomic_table()
    atomic[1] = None
    assert load_atomic_table()[1] is not None
    table = default_table()
    table.lines.clear()
    assert default_table().lines
    mobile, _, tec = default_charts()
    tec.clear()
    assert default_charts()[2] and Ruleset.default().chart("terrain_effects")
    m = demo_map()
    m.hexes.clear()
    assert demo_map().hexes


def test_a_missing_file_or_folder_is_a_data_error(tmp_path):
    for load in LOADERS.values():
        with pytest.raises(DataError):
            load(tmp_path / "typo-dir" / "chart.yaml")
    with pytest.raises(DataError):
        load_events(tmp_path)                     # a folder is not a chart file


@pytest.mark.rule("IC TEC")
@pytest.mark.parametrize("value", ["seven", 0, -1, "1/0", 10 ** 6, True, [1]])
def test_a_bad_movement_cost_is_named(tmp_path, value):
    p = _copy(tmp_path, "terrain_effects.yaml", lambda d: d["terrain"]["jungle"].__setitem__("heavy", value))
    assert _refused(load_terrain_effects, p).field == "terrain.jungle.heavy"


@pytest.mark.rule("IC TEC")
def test_an_owner_tec_is_checked_for_its_own_road_costs(tmp_path):
    from wargames.indochina.charts import check_constraints
    p = _copy(tmp_path, "terrain_effects.yaml", lambda d: d["routes"]["road"].__setitem__("heavy", "1/2"))
    assert "tec-roads" in check_constraints(tec=load_terrain_effects(p))
    assert check_constraints(tec=load_terrain_effects()) == []


@pytest.mark.rule("IC Political Points Table")
def test_political_table_groups_must_match(tmp_path):
    p = _copy(tmp_path, "political_points.yaml",
              lambda d: d["eliminations"]["FEF"].__setitem__("Foreign Legion",
                                                             copy.deepcopy(d["eliminations"]["FEF"]["French"])))
    e = _refused(load_political_table, p)
    assert e.field == "eliminations.FEF[Foreign Legion]" and "names no nationality group" in e.reason
    p = _copy(tmp_path, "political_points.yaml", lambda d: d["eliminations"]["Communist"].pop("Chinese"))
    assert _refused(load_political_table, p).field == "eliminations.Communist.Chinese"


@pytest.mark.rule("IC Random Events Table")
def test_events_need_every_two_dice_reading(tmp_path):
    p = _copy(tmp_path, "random_events.yaml", lambda d: d["events"].__setitem__(17, d["events"].pop(16)))
    e = _refused(load_events, p)
    assert e.field == "events[16]" and "missing" in e.reason


@pytest.mark.rule("IC Mobilization Chart")
def test_full_chart_location_needs_on_or_area(tmp_path):
    def both(d):
        d["units"]["VNA infantry group"]["location"]["area"] = "China"
    e = _refused(load_full_chart, _copy(tmp_path, "mobilization_full.yaml", both))
    assert e.field == "units[VNA infantry group].location" and "exactly one" in e.reason


# --------------------------------------------------------------------------- scenarios

def _scenario(tmp_path, change, name="scenario1"):
    data = yamlc.safe_load(scenario_path(name).read_text(encoding="utf-8"))
    change(data)
    p = tmp_path / f"{name}.yaml"
    p.write_text(yamlc.safe_dump(data, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return p


@pytest.mark.parametrize("change,field", [
    (lambda d: d["special_rules"].__setitem__(1, 7), "special_rules[1]"),
    (lambda d: d["special_rules"][0].__setitem__("rules", ["IC 99.9"]), "special_rules[0].rules[0]"),
    (lambda d: d["special_rules"][0].__setitem__("applies_to", ["Martians"]), "special_rules[0].applies_to[0]"),
    (lambda d: d.__setitem__("provenance", 7), "provenance"),
    (lambda d: d["special_rules"][1].__setitem__("letter", "a"), "special_rules[1].letter"),
    (lambda d: d.__setitem__("rule", "IC 24.0"), "rule"),
    (lambda d: d.__setitem__("last_turn", "1950-08"), "last_turn"),
    (lambda d: d.__setitem__("setup_order", ["FEF", "FEF"]), "setup_order[1]"),
    (lambda d: d["sides"]["FEF"]["deployment"][0].__setitem__("within", 10 ** 6),
     "sides.FEF.deployment[0].within"),
    (lambda d: d["sides"]["FEF"]["deployment"][0].__setitem__("country", "Thailand"),
     "sides.FEF.deployment[0].country"),
    (lambda d: d["sides"]["FEF"]["reinforcements"][0].__setitem__("turns", ["1951-06", "1999-01"]),
     "sides.FEF.reinforcements[0].turns[1]"),
    (lambda d: d["sides"]["FEF"]["reinforcements"][0].__setitem__("units", []),
     "sides.FEF.reinforcements[0].units"),
    (lambda d: d["sides"]["FEF"]["fortifications"]["placements"][0].__setitem__("count", 2),
     "sides.FEF.fortifications.total"),
    (lambda d: d["control"]["FEF"].__setitem__("only", []), "control.FEF"),
    (lambda d: d["victory"].__setitem__("win_ratio", 2), "victory.win_ratio"),
    (lambda d: d["victory"].pop("rule"), "victory.rule"),
    (lambda d: d["sides"]["Communist"]["deployment"][0]["units"].append({"type": "cadre", "size": "cadre",
                                                                          "count": 1}),
     "sides.Communist.deployment[0].units"),
])
def test_scenario_errors_name_the_field_and_line(tmp_path, change, field):
    p = _scenario(tmp_path, change)
    e = _refused(load_scenario, p)
    assert e.field == field, e


def test_extension_and_points_victory_are_cross_checked(tmp_path):
    p = _scenario(tmp_path, lambda d: d["extension"].__setitem__("turns", 18), "scenario2")
    assert _refused(load_scenario, p).field == "extension.turns"
    p = _scenario(tmp_path, lambda d: d["extension"].__setitem__("last_turn", "1954-05"), "scenario2")
    assert _refused(load_scenario, p).field == "extension.last_turn"
    p = _scenario(tmp_path, lambda d: d["victory"].pop("win_ratio"), "introductory")
    assert _refused(load_scenario, p).field == "victory.win_ratio"


def test_editing_a_scenario_and_reloading_sees_the_edit(tmp_path):
    p = _scenario(tmp_path, lambda d: None)
    assert load_scenario(p).title.startswith("Scenario 1")
    p.write_text(p.read_text(encoding="utf-8").replace("Scenario 1.", "Edited.", 1), encoding="utf-8")
    assert load_scenario(p).title.startswith("Edited")


# --------------------------------------------------------------------------- the map

@pytest.mark.rule("IC 2.2")
@pytest.mark.parametrize("key,value,field", [
    ("country", "Atlantis", "hexes[1010].country"),
    ("militia", 10 ** 6, "hexes[1010].militia"),
    ("port", 7, "hexes[1010].port"),
    ("sea_access", "9999", "hexes[1010].sea_access"),
    ("capital", True, "hexes[1010].capital"),
])
def test_map_hex_fields_are_declared_and_checked(tmp_path, key, value, field):
    data = yamlc.safe_load((MAPS / "demo.yaml").read_text(encoding="utf-8"))
    data["hexes"]["1010"][key] = value
    p = tmp_path / "map.yaml"
    p.write_text(yamlc.safe_dump(data, sort_keys=False), encoding="utf-8")
    e = _refused(load_indochina_map, p)
    assert e.field == field, e


@pytest.mark.rule("IC 2.2")
def test_a_placement_error_names_the_placement_not_the_map():
    from wargames.indochina.state import IndochinaState
    from wargames.indochina.units import Counter
    c = Counter("803 VM", Side.COMMUNIST, "regular infantry", "regiment", 5, 6, 2, 4)
    with pytest.raises(DataError) as e:
        IndochinaState.build(demo_map(), [(c, "9999")], source="my set-up")
    assert (e.value.file, e.value.field) == ("my set-up", "placements.803 VM") and "9999" in e.value.reason
    with pytest.raises(DataError) as e:
        IndochinaState.build(demo_map(), [(c, "1415"), (c, "1416")])
    assert e.value.field == "placements.803 VM" and "twice" in e.value.reason


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_an_empty_path_is_not_the_shipped_chart(name):
    with pytest.raises(DataError):
        LOADERS[name]("")
