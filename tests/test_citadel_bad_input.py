"""Bad input: every illegal action or broken data file raises the right error, naming the rule or the file and cell.

Rule problems raise :class:`RuleViolation` (``.rule`` is the rule id); data problems raise :class:`DataError`
(``.file`` and ``.field`` say where). Each test checks both the type and what the message names.
"""
from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from wargames.citadel import CitadelState, Counter, Side, UnitClass
from wargames.citadel import charts
from wargames.citadel.examples import PRINTED_DICE, anne_marie_setup, replay_movement_example
from wargames.citadel.fire import FirePhase
from wargames.citadel.movement import MovementPhase
from wargames.citadel.terrain import MAPS, load_citadel_map
from wargames.citadel.units import load_counters
from wargames.core import ScriptedDice
from wargames.core.errors import DataError, RuleViolation
from wargames.core.hexgrid import OffsetLayout
from wargames.core.mapdata import HexInfo, MapData
from . import yamlc

LAY = OffsetLayout()
VM, FR = Side.VIETMINH, Side.FRENCH


def _map() -> MapData:
    hexes = {LAY.to_hex(c, r): HexInfo("clear") for c in range(1, 21) for r in range(1, 21)}
    return MapData("test map", "north", LAY, hexes)


def _bn(uid: str) -> Counter:
    return Counter(uid, VM, UnitClass.INFANTRY, uid, 14, size="battalion", type="infantry", parent=uid,
                   morale=4, reduced_strength=9, reduced_morale=3)


def _coy(uid: str) -> Counter:
    return Counter(uid, FR, UnitClass.INFANTRY, uid, 3, size="company", type="infantry", parent="P",
                   morale=4, reduced_strength=2, reduced_morale=3)


def _battery(uid: str, side: Side = FR) -> Counter:
    return Counter(uid, side, UnitClass.HEAVY_WEAPONS, uid, 4, size="company", type="howitzer", ordnance="105")


def _phase(extra=()):
    st = CitadelState.build(_map(), [(_bn("Bn"), "1001"), (_battery("F1"), "1820"), (_battery("F2"), "1720"),
                                     *extra], date=dt.date(1954, 3, 20))
    return st, MovementPhase(st, VM)


# ---------------------------------------------------------------- hex labels

@pytest.mark.rule("C 8")
@pytest.mark.parametrize("label, words", [("13a6", "not a hex label"), ("9999", "not on this map"),
                                          ("131", "not a hex label"), ("", "not a hex label")])
def test_bad_hex_labels_name_the_label(label, words):
    m = _map()
    with pytest.raises(DataError) as e:
        m.hex(label)
    assert repr(label) == e.value.field and words in e.value.reason and e.value.file == "test map"
    st, ph = _phase()
    with pytest.raises(DataError) as e:
        ph.move("Bn", ["1002", label])
    assert repr(label) in str(e.value)
    with pytest.raises(DataError) as e:
        CitadelState.build(_map(), [(_bn("Bn"), label or "0")])
    assert repr(label or "0") in str(e.value)


@pytest.mark.rule("C 8")
def test_the_shipped_map_rejects_labels_off_the_excerpt():
    st = anne_marie_setup()
    with pytest.raises(DataError) as e:
        st.map.hex("9999")
    assert "'9999'" in str(e.value) and "not on this map" in str(e.value)
    with pytest.raises(DataError) as e:
        st.map.hex("13a6")
    assert "'13a6'" in str(e.value)


# ---------------------------------------------------------------- illegal moves

@pytest.mark.rule("C 8")
def test_entering_a_hex_holding_a_pinned_unit():
    st, ph = _phase([(_bn("Stuck"), "1002")])
    st.unit("Stuck").pinned = True
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", ["1002", "1003"])
    assert e.value.rule == "C 8" and "1002" in str(e.value) and "pinned unit Stuck" in str(e.value)
    assert st.unit("Bn").hex == LAY.parse("1001")


@pytest.mark.rule("C 6", "C 8")
def test_breaking_stacking_at_a_pause_or_end_hex():
    st, ph = _phase([(_bn("There"), "1004"), (_bn("Also"), "1105")])
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", ["1002", "1003", "1004"])          # pauses at clear hex #3, where a battalion stands
    assert e.value.rule == "C 6" and "1004" in str(e.value) and "battalion" in str(e.value)
    with pytest.raises(RuleViolation) as e:
        ph.move("Also", ["1104", "1004"])                 # a move may not end in a full hex...
    assert e.value.rule == "C 6" and "1004" in str(e.value)
    assert "Also" not in ph.records                       # the refused move left no record behind
    ph.move("Also", ["1104", "1004", "1005"])             # ...but may pass through it
    assert st.unit("Also").hex == LAY.parse("1005")
    ph.move("Bn", ["1002", "1003"])                        # stopping short is fine
    assert st.unit("Bn").hex == LAY.parse("1003")
    ph.end_moves()
    assert ph.window_open


@pytest.mark.rule("C 8", "C 9")
def test_moving_a_pinned_unit():
    st, ph = _phase()
    st.unit("Bn").pinned = True
    with pytest.raises(RuleViolation) as e:
        ph.move("Bn", ["1002"])
    assert e.value.rule == "C 8" and "Bn is pinned" in str(e.value)


@pytest.mark.rule("C 8")
def test_other_malformed_moves():
    st, ph = _phase([(_coy("F"), "1510")])
    cases = [
        (lambda: ph.move([], ["1002"]), "at least one unit"),
        (lambda: ph.move("Bn", []), "at least one hex"),
        (lambda: ph.move("Bn", ["1003"]), "not adjacent"),
        (lambda: ph.move("F", ["1511"]), "French unit"),
        (lambda: ph.end_fire(), "no opportunity fire is open"),
        (lambda: ph.opportunity_fire("F1", "Bn", ScriptedDice([1])), "end_moves"),
    ]
    for call, words in cases:
        with pytest.raises(RuleViolation) as e:
            call()
        assert e.value.rule == "C 8" and words in e.value.reason, words
    with pytest.raises(DataError) as e:
        ph.move("Nobody", ["1002"])
    assert e.value.field == "Nobody"


# ---------------------------------------------------------------- firing twice

@pytest.mark.rule("C 8")
def test_opportunity_fire_by_a_unit_that_already_fired():
    st, ph = _phase([(_bn("Bn2"), "0501")])
    ph.move("Bn", ["1002", "1003", "1004"])
    ph.move("Bn2", ["0502", "0503", "0504"])
    ph.end_moves()
    with ScriptedDice([6]) as d:
        ph.opportunity_fire("F1", "Bn", d)
    with pytest.raises(RuleViolation) as e:
        ph.opportunity_fire("F1", "Bn2", ScriptedDice([6]))
    assert e.value.rule == "C 8" and "F1" in str(e.value) and "already fired" in str(e.value)
    with pytest.raises(RuleViolation) as e:
        ph.opportunity_fire("F2", "Bn", ScriptedDice([6]))
    assert e.value.rule == "C 8" and "only one unit may fire at each VP" in str(e.value)


@pytest.mark.rule("C 9.5")
def test_fire_phase_unit_firing_twice():
    st = CitadelState.build(_map(), [(_bn("V1"), "1010"), (_bn("V2"), "1210"), (_battery("F1"), "1016"),
                                     (_battery("F2"), "1216")])
    fp = FirePhase(st, "indirect", FR)
    with ScriptedDice([6]) as d:
        fp.fire(["F1"], "1010", d)
    with pytest.raises(RuleViolation) as e:
        fp.fire(["F1"], "1210", ScriptedDice([6]))
    assert e.value.rule == "C 9.5" and "F1 has already fired" in str(e.value)
    with pytest.raises(RuleViolation) as e:
        fp.fire(["F2"], "1010", ScriptedDice([6]))
    assert e.value.rule == "C 9.5" and "V1" in str(e.value)
    with pytest.raises(RuleViolation) as e:
        fp.fire(["F2"], "1510", ScriptedDice([6]))         # nobody there
    assert e.value.rule == "C 9" and "no enemy units in 1510" in str(e.value)


@pytest.mark.rule("C 9.2")
def test_bad_loss_allocation_names_the_rule():
    st = CitadelState.build(_map(), [(_bn("V1"), "1010"), (_battery("F1"), "1016"), (_battery("F2"), "1017"),
                                     (_battery("F3"), "1018")])
    fp = FirePhase(st, "indirect", FR)
    with pytest.raises(RuleViolation) as e:                # 36 at 31-40, roll 2: three losses
        fp.fire(["F1", "F2", "F3"], "1010", ScriptedDice([2]), allocation=["V1"])
    assert e.value.rule == "C 9.2" and "names 1 unit(s) but 3" in str(e.value)
    assert st.unit("V1").losses == 0 and not st.unit("V1").pinned


# ---------------------------------------------------------------- dice scripts

@pytest.mark.rule("C 8")
def test_a_dice_script_that_runs_out_names_the_roll():
    with pytest.raises(DataError) as e:
        replay_movement_example(ScriptedDice(PRINTED_DICE[:1], source="my dice"))
    assert e.value.file == "my dice"
    assert e.value.field == "roll 2 (fire at 1113)" and "run out" in e.value.reason


@pytest.mark.rule("C 8")
def test_a_dice_script_with_rolls_left_over_or_impossible_values():
    with pytest.raises(DataError) as e:
        with ScriptedDice(PRINTED_DICE + [3], source="my dice") as d:
            replay_movement_example(d)
    assert e.value.file == "my dice" and e.value.field == "roll 6" and "never used" in e.value.reason
    with pytest.raises(DataError) as e:
        replay_movement_example(ScriptedDice([6, 7], source="my dice"))
    assert e.value.field == "roll 2 (fire at 1113)" and "not a roll of a d6" in e.value.reason


# ---------------------------------------------------------------- chart files

def _write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


@pytest.mark.rule("C 9")
def test_crt_with_a_missing_cell_names_file_and_row(tmp_path):
    src = (charts.DATA / "fire_crt.yaml").read_text()
    row5 = '  5: ["-", "-", "-", "-", "-", "1", "1", "2", "2P", "2P", "3P", "3P", "3P", "4P", "4P"]'
    assert row5 in src
    p = _write(tmp_path, "crt.yaml", src.replace(row5, row5.replace('"-", ', "", 1)))
    with pytest.raises(DataError) as e:
        charts.load_fire_crt(p)
    assert e.value.file == str(p) and e.value.field == "results[5]" and "15 cells" in e.value.reason
    assert str(p) in str(e.value)
    p = _write(tmp_path, "crt2.yaml", src.replace(row5 + "\n", ""))
    with pytest.raises(DataError) as e:
        charts.load_fire_crt(p)
    assert e.value.field == "results[5]" and "missing" in e.value.reason


@pytest.mark.rule("C 9")
@pytest.mark.parametrize("bad", ["true", "[1]", '"2X"', "-1", '"P2"', "1", '"10P"', '"0"'])
def test_crt_with_an_ill_typed_cell_names_file_and_cell(tmp_path, bad):
    src = (charts.DATA / "fire_crt.yaml").read_text()
    old = '  3: ["-", "-", "-", "1"'
    p = _write(tmp_path, "crt.yaml", src.replace(old, f'  3: ["-", "-", "-", {bad}'))
    with pytest.raises(DataError) as e:
        charts.load_fire_crt(p)
    assert e.value.file == str(p) and e.value.field == "results[3][7-8]" and "a fire result" in e.value.reason
    assert (e.value.line, e.value.column) == (24, 22)        # the cell's own place in the file


@pytest.mark.rule("C 9")
def test_range_and_terrain_tables_with_ill_typed_values(tmp_path):
    src = (charts.DATA / "range_modifiers.yaml").read_text()
    old = "{ranges: [3, 6], multiplier: 2}"
    assert old in src
    p = _write(tmp_path, "ranges.yaml", src.replace(old, '{ranges: [3, 6], multiplier: "x2"}'))
    with pytest.raises(DataError) as e:
        charts.load_range_table(p)
    assert e.value.file == str(p) and e.value.field == "weapons.howitzer_105[1].multiplier"
    tec = (charts.DATA / "terrain_effects.yaml").read_text()
    old = "  hill:           {fire_shift: -1, melee_shift: 0}"
    assert old in tec
    p = _write(tmp_path, "tec.yaml", tec.replace(old, "  hill:           {fire_shift: minus one, melee_shift: 0}"))
    with pytest.raises(DataError) as e:
        charts.load_terrain_effects(p)
    assert e.value.file == str(p) and e.value.field == "terrain.hill.fire_shift" and "whole number" in e.value.reason
    assert e.value.line == tec.splitlines().index(old) + 1
    p = _write(tmp_path, "broken.yaml", "name: [unclosed\n")
    with pytest.raises(DataError) as e:
        charts.load_fire_crt(p)
    assert e.value.file == str(p) and "YAML" in e.value.reason


# ---------------------------------------------------------------- map files

_MAP = """
name: test excerpt
sheet: north
layout: {parity: even-q, col_digits: 2, row_digits: 2}
provenance: {kind: reconstructed, source: test}
fill: {cols: [1, 4], rows: [1, 4], terrain: clear}
hexes:
  "0202": {terrain: TERRAIN}
hexsides:
  - {between: ["0101", "0102"], features: [SIDE]}
"""


@pytest.mark.rule("C 13")
def test_map_with_an_unknown_terrain(tmp_path):
    ok = load_citadel_map(_write(tmp_path, "ok.yaml", _MAP.replace("TERRAIN", "hill").replace("SIDE", "river")))
    assert ok.terrain(ok.hex("0202")) == "hill"
    p = _write(tmp_path, "map.yaml", _MAP.replace("TERRAIN", "lava").replace("SIDE", "river"))
    with pytest.raises(DataError) as e:
        load_citadel_map(p)
    assert e.value.file == str(p) and e.value.field == "hexes[0202].terrain" and "'lava'" in e.value.reason
    assert "full_jungle" in e.value.reason                       # it lists what is allowed


@pytest.mark.rule("C 13")
@pytest.mark.parametrize("edit, field, words", [
    (lambda s: s.replace("SIDE", "moat"), "hexsides[0].features[0]", "'moat'"),
    (lambda s: s.replace('"0101", "0102"', '"0101", "0303"'), "hexsides[0].between", "not adjacent"),
    (lambda s: s.replace('"0202": {terrain: TERRAIN}', '"02x2": {terrain: TERRAIN}'), "hexes[02x2]", "not a hex label"),
    (lambda s: s.replace("terrain: clear}", "terrain: tundra}"), "fill.terrain", "'tundra'"),
    (lambda s: s.replace('"0202": {terrain: TERRAIN}', '"0202": {terrain: hill, features: [castle]}'),
     "hexes[0202].features[0]", "'castle'"),
    (lambda s: s.replace('"0202": {terrain: TERRAIN}', '"0202": {terrain: TERRAIN, zone: Z1}'), "hexes[0202].zone",
     "full_jungle"),
    (lambda s: s.replace('"0202": {terrain: TERRAIN}', '"0202": {terrain: TERRAIN, zone: north}'), "hexes[0202].zone",
     "a jungle zone"),
    (lambda s: s.replace('"0202": {terrain: TERRAIN}', '"0202": {terrain: TERRAIN, strongpoint: AM-1}'),
     "hexes[0202].strongpoint", "no strongpoint"),
    (lambda s: s.replace('"0202": {terrain: TERRAIN}', '"0202": {terrain: TERRAIN, colour: red}'),
     "hexes[0202].colour", "not a field"),
])
def test_map_with_other_bad_entries(tmp_path, edit, field, words):
    text = edit(_MAP).replace("TERRAIN", "hill").replace("SIDE", "river")
    p = _write(tmp_path, "map.yaml", text)
    with pytest.raises(DataError) as e:
        load_citadel_map(p)
    assert e.value.file == str(p) and e.value.field == field and words in e.value.reason
    lines = text.splitlines()
    keyword = field[6:10] if field.startswith("hexes") else "fill" if field.startswith("fill") else "between"
    assert e.value.line == next(i for i, line in enumerate(lines, 1) if keyword in line)   # the field's own line


@pytest.mark.rule("C 13")
def test_the_shipped_map_loads():
    m = load_citadel_map(MAPS / "anne_marie.yaml")
    assert m.sheet == "north" and "strongpoint" in m.info(m.hex("1316")).features


# ---------------------------------------------------------------- counter records and scenario files

@pytest.mark.rule("C 4", "C Chart 2")
def test_counter_records_name_the_record_and_field():
    rec = {"id": "A", "side": "French", "class": "heavy weapons", "name": "a", "size": "company",
           "type": "howitzer", "ordnance": "105", "strength": 4}
    with pytest.raises(DataError) as e:
        load_counters([rec, {**rec, "id": "B", "strength": "four"}], "oob.yaml")
    assert e.value.file == "oob.yaml" and e.value.field == "counters[1].strength"
    with pytest.raises(DataError) as e:
        load_counters([{**rec, "side": "Chinese"}], "oob.yaml")
    assert e.value.field == "counters[0].side" and "Chinese" in e.value.reason
    with pytest.raises(DataError) as e:
        load_counters([{**rec, "type": "trebuchet"}], "oob.yaml")
    assert e.value.field == "counters[0].type"
    # an ordnance written as a number (ordnance: 120) is read as the designation "120"
    [c] = load_counters([{**rec, "type": "infantry weapons", "ordnance": 120}], "oob.yaml")
    assert c.ordnance == "120"


@pytest.mark.rule("C 8")
def test_scenario_file_placing_an_unknown_counter(tmp_path):
    from wargames.citadel.examples import SCENARIOS
    data = yamlc.safe_load((SCENARIOS / "anne_marie.yaml").read_text())
    data["placements"]["Ghost Bn"] = "1010"
    p = _write(tmp_path, "scen.yaml", yamlc.safe_dump(data))
    with pytest.raises(DataError) as e:
        anne_marie_setup(p)
    assert e.value.file == str(p) and e.value.field == "placements.Ghost Bn"
    data["placements"].pop("Ghost Bn")
    data["placements"]["1st Bn"] = "13a6"
    p = _write(tmp_path, "scen2.yaml", yamlc.safe_dump(data))
    with pytest.raises(DataError) as e:
        anne_marie_setup(p)
    assert "'13a6'" in str(e.value) and e.value.file == str(p) and e.value.field == "placements.1st Bn"


_SCENARIO = (Path(__file__).parent.parent / "wargames" / "citadel" / "data" / "scenarios" / "anne_marie.yaml")


@pytest.mark.rule("C 2", "C 6", "C 8")
@pytest.mark.parametrize("old, new, field, words", [
    ('"1st Bn": "0910"', '"1st Bn": "9999"', "placements.1st Bn", "'9999': hex 9999 is not on this map"),   # off the map
    ('"105-A": "1720"', '"105-A": "2201"', "placements.105-A", "not on this map"),
    ('"2nd Bn": "0911"', '"2nd Bn": "0910"', "placements.2nd Bn", "breaks stacking in 0910"),      # two battalions
    ("morale: 4, reduced_strength: 9", "morale: -7, reduced_strength: 9", "counters[7].morale", "from 0 to 9"),
    ("strength: 14", "strength: 1000000", "counters[7].strength", "from 1 to 60"),
    ('{id: "2nd Bn"', '{id: "1st Bn"', "counters[8].id", "repeats the id '1st Bn'"),
    ("date: 1954-03-17", "date: 1999-03-17", "date", "within the battle"),
    ("date: 1954-03-17", "date: seven", "date", "not a date"),
    ("map: anne_marie.yaml", "map: no_such_map.yaml", "map", "names no map file"),
    ("map: anne_marie.yaml", "map: ../../../etc/passwd", "map", "a map file name"),
    ("class: combat infantry, name: \"1st Battalion\"", "class: cavalry, name: \"1st Battalion\"",
     "counters[7].class", "'cavalry'"),
])
def test_scenario_errors_name_the_scenario_field_and_line(tmp_path, old, new, field, words):
    """Every scenario problem names the scenario file (not the map), the path to the field and its line."""
    src = _SCENARIO.read_text()
    assert old in src, old
    p = _write(tmp_path, "scenario.yaml", src.replace(old, new, 1))
    with pytest.raises(DataError) as e:
        anne_marie_setup(p)
    assert e.value.file == str(p) and e.value.field == field and words in e.value.reason, e.value
    assert e.value.line == src[:src.index(old)].count("\n") + 1           # the edited line


@pytest.mark.rule("C 2", "C 13")
def test_a_broken_map_named_by_a_scenario_is_reported_in_the_map_file(tmp_path, monkeypatch):
    from wargames.citadel import examples
    maps = tmp_path / "maps"
    maps.mkdir()
    src = (MAPS / "anne_marie.yaml").read_text()
    assert "terrain: airfield" in src
    (maps / "anne_marie.yaml").write_text(src.replace("terrain: airfield", "terrain: lava", 1))
    monkeypatch.setattr(examples, "MAPS", maps)
    with pytest.raises(DataError) as e:
        examples.load_scenario(examples.SCENARIOS / "anne_marie.yaml")
    assert e.value.file == str(maps / "anne_marie.yaml") and e.value.field.endswith(".terrain")
    assert e.value.line == src[:src.index("terrain: airfield")].count("\n") + 1


@pytest.mark.rule("C 2")
def test_an_edited_scenario_or_chart_reloads_fresh_and_no_two_callers_share_one(tmp_path):
    """No cache by path: editing a file and loading it again sees the edit; each load is a new object."""
    from wargames.citadel.examples import load_scenario
    p = _write(tmp_path, "scenario.yaml", _SCENARIO.read_text())
    a = load_scenario(p)
    p.write_text(p.read_text().replace('"1st Bn": "0910"', '"1st Bn": "0810"'))
    b = load_scenario(p)
    assert (a.label(a.unit("1st Bn").hex), b.label(b.unit("1st Bn").hex)) == ("0910", "0810")
    assert a.map is not b.map and anne_marie_setup().map is not anne_marie_setup().map
    crt = _write(tmp_path, "fire_crt.yaml", (charts.DATA / "fire_crt.yaml").read_text())
    assert charts.load_fire_crt(crt).get("9-10", 2).value.code == "2P"
    crt.write_text(crt.read_text().replace('  2: ["-", "-", "1P", "1P", "2P"', '  2: ["-", "-", "1P", "1P", "3P"'))
    assert charts.load_fire_crt(crt).get("9-10", 2).value.code == "3P"
    assert charts.load_fire_crt() is not charts.load_fire_crt()
    from wargames.citadel.terrain import anne_marie_map
    assert anne_marie_map() is not anne_marie_map()


@pytest.mark.rule("C 9")
def test_a_missing_chart_file_or_folder_is_an_error_not_the_shipped_chart(tmp_path):
    from wargames.citadel.game import Ruleset
    for load in (charts.load_fire_crt, charts.load_range_table, charts.load_terrain_effects):
        with pytest.raises(DataError) as e:
            load(tmp_path / "typo-dir" / "chart.yaml")
        assert e.value.file.endswith("chart.yaml") and "cannot be read" in e.value.reason
    with pytest.raises(DataError) as e:
        Ruleset.load(tmp_path / "typo-dir")
    assert "no such folder" in e.value.reason


@pytest.mark.rule("C 9", "C 13")
@pytest.mark.parametrize("chart, old, new, field, words", [
    ("range_modifiers.yaml", "    - {ranges: [25, 60], multiplier: 2}\n", "", "weapons", None),
    ("range_modifiers.yaml", "  mortar_81:", "  mortar_99:", "weapons.mortar_99", "not a field"),
    ("range_modifiers.yaml", "{ranges: [25, 60], multiplier: 2}", "{ranges: [25, 1000000], multiplier: 2}",
     "weapons.howitzer_155[3].ranges[1]", "from 1 to 200"),
    ("range_modifiers.yaml", "{ranges: [25, 60], multiplier: 2}", "{ranges: [60, 25], multiplier: 2}",
     "weapons.howitzer_155[3].ranges", "low <= high"),
    ("terrain_effects.yaml", "  airfield:       {fire_shift: 0, melee_shift: 0}\n", "", "terrain.airfield", "missing"),
    ("terrain_effects.yaml", "  hill:           {fire_shift: -1,", "  hill:           {fire_shift: -1000000,",
     "terrain.hill.fire_shift", "from -10 to 10"),
    ("terrain_effects.yaml", "  road:           {fire_shift: 0}", "  moat:           {fire_shift: 0}",
     "features.moat", "not a field"),
])
def test_range_and_terrain_charts_are_strict(tmp_path, chart, old, new, field, words):
    src = (charts.DATA / chart).read_text()
    assert old in src
    p = _write(tmp_path, chart, src.replace(old, new, 1))
    load = charts.load_range_table if chart.startswith("range") else charts.load_terrain_effects
    if words is None:                                       # a shorter band list is still a table
        assert load(p).max_range("howitzer_155") == 24
        return
    with pytest.raises(DataError) as e:
        load(p)
    assert e.value.file == str(p) and e.value.field == field and words in e.value.reason and e.value.line
