"""Indochina rules 18 (DNA and riverine movement) and 23 (the Far Eastern Staging Area), and the experimental
Going Underground and Naval Operations rules, on a small schematic river-and-coast map."""
from fractions import Fraction

import pytest

from wargames.core.errors import RuleViolation
from wargames.indochina.combat import Side
from wargames.indochina.experimental import GoingUnderground, NavalOperations
from wargames.indochina.logistics import Logistics, trace_los
from wargames.indochina.riverine import (RiverineTurn, check_dna_attack, disembark, dna_advance,
                                         dna_combat_strengths, dna_move, dna_retreat, dna_zoc_hexes, embark,
                                         end_of_movement, is_dna, is_water_hex, passenger_shares_fate,
                                         riverine_supply)
from wargames.indochina.stacking import stack_total
from wargames.indochina.staging import (StagingArea, air_units_arrive, amphibious_invasion, check_combat_units,
                                        check_communist_target, check_entry_method, naval_transport,
                                        port_problem, return_to_staging)
from wargames.indochina.state import IndochinaState, load_indochina_map
from wargames.indochina.units import Counter, stacking_value
from wargames.indochina.zoc import zoc_hexes

COM, FEF = Side.COMMUNIST, Side.FEF

MAP = """\
name: Coast and river (schematic)
sheet: main
layout: {parity: even-q, col_digits: 2, row_digits: 2}
provenance: {kind: reconstructed, source: a small schematic map for the rule 18 and 23 tests}
fill: {cols: [10, 14], rows: [10, 14], terrain: clear}
hexes:
  "1010": {terrain: jungle}
  "1011": {terrain: jungle}
  "1012": {terrain: jungle}
  "1013": {terrain: jungle}
  "1014": {terrain: jungle, country: Laos}
  "1110": {terrain: swamp, features: [river]}
  "1111": {terrain: swamp, features: [river]}
  "1112": {terrain: swamp, features: [river]}
  "1113": {terrain: clear, features: [river, city], name: Saigon, port: Saigon, militia: 2}
  "1114": {terrain: swamp, features: [river]}
  "1210": {terrain: all_lake}
  "1310": {terrain: clear, features: [coast, city], name: Vinh}
  "1311": {terrain: clear, features: [coast]}
  "1312": {terrain: clear, features: [coast, town], name: Haiphong, port: Haiphong, militia: 1}
  "1313": {terrain: clear, features: [coast]}
  "1314": {terrain: clear, features: [coast, town], name: Cam Ranh}
  "1410": {terrain: all_sea}
  "1411": {terrain: all_sea}
  "1412": {terrain: all_sea}
  "1413": {terrain: all_sea}
  "1414": {terrain: all_sea}
"""


@pytest.fixture
def water_map(tmp_path):
    p = tmp_path / "coast.yaml"
    p.write_text(MAP, encoding="utf-8")
    return load_indochina_map(p)


def unit(uid, side=FEF, utype="regular infantry", size="group", s=6, m=6, ds=3, dm=3, **kw):
    return Counter(uid, side, utype, size, s, m, ds, dm, **kw)


def dna(uid="DNA 1", m=6):
    return unit(uid, FEF, "DNA", "group", 2, m, 1, m // 2)


def position(m, *placed, off_map=(), monsoon=False):
    st = IndochinaState.build(m, placed, monsoon=monsoon)
    for c in off_map:
        from wargames.indochina.units import UnitState
        st.units[c.id] = UnitState(c, None)
    return st


def h(st, label):
    return st.map.hex(label)


# ------------------------------------------------------------------------------------------------ rule 18
@pytest.mark.rule("IC 18.0")
def test_dna_is_a_group_size_fef_land_unit(water_map):
    st = position(water_map, (dna(), "1111"), (unit("GM 1"), "1111"))
    assert is_dna(st.unit("DNA 1")) and not is_dna(st.unit("GM 1"))
    assert stacking_value(st.unit("DNA 1").counter) == Fraction(1, 2)
    with pytest.raises(RuleViolation) as e:
        dna_move(st, "GM 1", ["1110"])
    assert e.value.rule == "IC 18.1"
    st2 = position(water_map, (unit("DNA big", utype="DNA", size="division"), "1111"))
    with pytest.raises(RuleViolation) as e:
        dna_move(st2, "DNA big", ["1110"])
    assert e.value.rule == "IC 18.0"


@pytest.mark.rule("IC 18.1")
def test_dna_moves_on_river_lake_and_coast_at_one_point_a_hex(water_map):
    st = position(water_map, (dna(), "1112"))
    assert is_water_hex(st, h(st, "1210")) and is_water_hex(st, h(st, "1311"))
    assert not is_water_hex(st, h(st, "1211")) and not is_water_hex(st, h(st, "1411"))
    res = dna_move(st, "DNA 1", ["1111", "1210", "1310", "1311"])
    assert res.result["spent"] == 4 and res.result["hex"] == "1311"      # swamp and lake cost 1 each
    with pytest.raises(RuleViolation) as e:
        dna_move(position(water_map, (dna(), "1112")), "DNA 1", ["1212"])   # clear land, no river
    assert e.value.rule == "IC 18.1"
    with pytest.raises(RuleViolation) as e:
        dna_move(position(water_map, (dna(), "1311")), "DNA 1", ["1411"])   # the open sea
    assert e.value.rule == "IC 18.1"
    with pytest.raises(RuleViolation) as e:
        dna_move(position(water_map, (dna(m=2), "1110")), "DNA 1", ["1111", "1112", "1113"])
    assert e.value.rule == "IC 18.1"
    wet = position(water_map, (dna(), "1112"), monsoon=True)
    assert dna_move(wet, "DNA 1", ["1111", "1110"]).result["spent"] == 4      # monsoon +1 a hex


@pytest.mark.rule("IC 18.2")
def test_dna_zoc_reaches_across_lake_and_coastal_hexsides(water_map):
    st = position(water_map, (dna(), "1111"), (unit("GM 1"), "1311"), (dna("DNA 2"), "1312"))
    assert h(st, "1210") in dna_zoc_hexes(st, st.unit("DNA 1"))            # the lake
    sea = {h(st, "1411"), h(st, "1412")}
    assert sea <= dna_zoc_hexes(st, st.unit("DNA 2"))
    assert not sea & zoc_hexes(st, st.unit("DNA 2"))                        # not by the plain rule 11
    assert not sea & dna_zoc_hexes(st, st.unit("GM 1"))                     # an ordinary unit: no change
    # enemy ZOCs act on a DNA normally: ZOC to ZOC costs two more
    st = position(water_map, (dna(), "1111"), (unit("VM", COM, size="regiment"), "1011"))
    res = dna_move(st, "DNA 1", ["1112"])
    assert res.result["spent"] == 3 and "11.42" in res.text()


@pytest.mark.rule("IC 18.3")
def test_dna_attacks_land_but_advances_and_retreats_only_on_water(water_map):
    st = position(water_map, (dna(), "1112"), (unit("VM", COM), "1212"))
    assert check_dna_attack(st, "DNA 1", "1212").result is True
    with pytest.raises(RuleViolation):
        check_dna_attack(st, "DNA 1", "1314")
    with pytest.raises(RuleViolation) as e:
        dna_advance(st, "DNA 1", "1212")
    assert e.value.rule == "IC 18.3"
    assert dna_advance(st, "DNA 1", "1111").result["hex"] == "1111"
    assert dna_retreat(st, "DNA 1", ["1110"]).result["eliminated"] is False
    res = dna_retreat(st, "DNA 1", ["1010"])                                # jungle: eliminated instead
    assert res.result["eliminated"] and st.unit("DNA 1").eliminated


@pytest.mark.rule("IC 18.4", "IC 18.41", "IC 18.42")
def test_dna_carries_one_group_and_sets_it_down_at_the_end_of_movement(water_map):
    st = position(water_map, (dna(), "1111"), (unit("GM 1"), "1111"), (unit("GM 2"), "1111"),
                  (unit("Div", size="division"), "1111"), (unit("GM far"), "1112"))
    turn = RiverineTurn()
    for who, rule in (("Div", "IC 18.42"), ("GM far", "IC 18.41")):
        with pytest.raises(RuleViolation) as e:
            embark(st, turn, "DNA 1", who)
        assert e.value.rule == rule
    embark(st, turn, "DNA 1", "GM 1")
    with pytest.raises(RuleViolation) as e:
        embark(st, turn, "DNA 1", "GM 2")
    assert e.value.rule == "IC 18.42"
    res = dna_move(st, "DNA 1", ["1112", "1113"], turn)
    assert st.unit("GM 1").hex == h(st, "1113") and res.result["carried"] == "GM 1"
    assert stack_total(st, h(st, "1113"), FEF) == 1                        # the passenger counts for stacking
    end = end_of_movement(st, turn)
    assert "IC 18.41" in end.rules() and not turn.carried
    vm = position(water_map, (unit("VM DNA", COM, "DNA", "group"), "1111"))
    with pytest.raises(RuleViolation) as e:
        dna_move(vm, "VM DNA", ["1110"])
    assert e.value.rule == "IC 18.4"


@pytest.mark.rule("IC 18.43")
def test_passenger_shares_the_dna_fate_and_adds_nothing_to_overruns(water_map):
    st = position(water_map, (dna(), "1111"), (unit("GM 1", s=5), "1111"))
    turn = RiverineTurn()
    embark(st, turn, "DNA 1", "GM 1")
    assert dna_combat_strengths(st, turn, "DNA 1", "overrun") == (2,)
    assert dna_combat_strengths(st, turn, "DNA 1", "ambush") == (2,)
    passenger_shares_fate(st, turn, "DNA 1", "disrupted")
    assert st.unit("GM 1").disrupted
    dna_retreat(st, "DNA 1", ["1110"], turn)
    assert st.unit("GM 1").hex == h(st, "1110")
    dna_retreat(st, "DNA 1", ["1010"], turn)                              # off the water: both eliminated
    assert st.unit("DNA 1").eliminated and st.unit("GM 1").eliminated


@pytest.mark.rule("IC 18.44")
def test_no_other_movement_for_the_passenger_and_no_moving_on_after_a_drop(water_map):
    st = position(water_map, (dna(), "1111"), (unit("GM 1"), "1111"), (unit("GM 2"), "1111"))
    turn = RiverineTurn()
    turn.note_moved("GM 2")
    with pytest.raises(RuleViolation) as e:
        embark(st, turn, "DNA 1", "GM 2")
    assert e.value.rule == "IC 18.44"
    embark(st, turn, "DNA 1", "GM 1")
    dna_move(st, "DNA 1", ["1112"], turn)
    disembark(st, turn, "DNA 1")
    with pytest.raises(RuleViolation) as e:
        turn.note_moved("GM 1")
    assert e.value.rule == "IC 18.44"
    with pytest.raises(RuleViolation) as e:
        dna_move(st, "DNA 1", ["1113"], turn)
    assert e.value.rule == "IC 18.44"


@pytest.mark.rule("IC 18.45")
def test_a_carried_base_still_supplies(water_map):
    st = position(water_map, (dna(), "1111"), (unit("Base", utype="base", size="battalion", s=1), "1111"),
                  (unit("GM Saigon"), "1113"))
    turn = RiverineTurn()
    embark(st, turn, "DNA 1", "Base")
    dna_move(st, "DNA 1", ["1112"], turn)
    res = riverine_supply(st, turn, "Base", "1212")
    assert res.result is not None and res.result.base == "Base" and "IC 18.45" in res.rules()


# ------------------------------------------------------------------------------------------------ rule 23
def staged(water_map, *extra_on_map, off=()):
    base = (unit("Base H", utype="base", size="battalion", s=1), "1312")
    return position(water_map, base, *extra_on_map, off_map=off)


@pytest.mark.rule("IC 23.0", "IC 23.1", "IC 23.3")
def test_the_staging_area_takes_any_number_of_fef_units(water_map):
    many = [unit(f"GM {i}") for i in range(40)]
    st = staged(water_map, (unit("VM", COM), "1010"), off=many + [unit("VM off", COM)])
    area = StagingArea()
    for c in many:
        area.place(st, c.id)
    assert len(area.units) == 40
    with pytest.raises(RuleViolation) as e:
        area.place(st, "VM off")
    assert e.value.rule == "IC 23.0"
    with pytest.raises(RuleViolation) as e:
        area.place(st, "Base H")
    assert e.value.rule == "IC 23.2"


@pytest.mark.rule("IC 23.11")
def test_port_capacity_and_usable_ports(water_map):
    off = [unit(f"GM {i}") for i in range(4)] + [unit("Bn", size="battalion"), unit("Div", size="division")]
    st = staged(water_map, (unit("VM", COM), "1311"), off=off)           # an enemy ZOC does not matter
    area = StagingArea()
    for c in off:
        area.place(st, c.id)
    for i in range(3):
        naval_transport(st, area, f"GM {i}", "1312")
    res = naval_transport(st, area, "Bn", "1312")                          # smaller units are free
    assert res.result["port_used"] == 3
    for who in ("GM 3", "Div"):
        with pytest.raises(RuleViolation) as e:
            naval_transport(st, area, who, "1312")
        assert e.value.rule == "IC 23.11"
    area.new_turn()
    assert naval_transport(st, area, "Div", "1312").result["port_used"] == 3
    assert "not a port" in port_problem(st, h(st, "1311"))
    assert "base" in port_problem(st, h(st, "1113"))                       # Saigon has no base
    st.unit("Base H").disrupted = True
    assert "combat-effective" in port_problem(st, h(st, "1312"))


@pytest.mark.rule("IC 23.11")
def test_saigon_needs_its_river_exit_clear(water_map):
    st = staged(water_map, (unit("Base S", utype="base", size="battalion", s=1), "1113"),
                (unit("VM", COM), "1114"), off=[unit("GM 1")])
    assert "river exit" in port_problem(st, h(st, "1113"))
    st.unit("VM").hex = h(st, "1014")
    assert port_problem(st, h(st, "1113")) == ""
    area = StagingArea()
    area.place(st, "GM 1")
    assert naval_transport(st, area, "GM 1", "1113").result["hex"] == "1113"


@pytest.mark.rule("IC 23.12")
def test_amphibious_invasion_capacity(water_map):
    off = [unit("GM 1"), unit("GM 2"), unit("Div", size="division")]
    st = staged(water_map, (unit("VM", COM), "1313"), off=off)
    area = StagingArea()
    for c in off:
        area.place(st, c.id)
    for target in ("1313", "1212", "1411"):                               # enemy-held, inland, open sea
        with pytest.raises(RuleViolation) as e:
            amphibious_invasion(st, area, "GM 1", target)
        assert e.value.rule == "IC 23.12"
    amphibious_invasion(st, area, "GM 1", "1314")                          # next to the enemy: allowed
    with pytest.raises(RuleViolation) as e:
        amphibious_invasion(st, area, "GM 2", "1311")
    assert e.value.rule == "IC 23.12"
    area.new_turn()
    with pytest.raises(RuleViolation):
        amphibious_invasion(st, area, "Div", "1311")
    us = StagingArea(units={"Div", "GM 2"}, us_ground=True)
    assert amphibious_invasion(st, us, "Div", "1311").result["amphibious_used"] == 3
    with pytest.raises(RuleViolation):
        amphibious_invasion(st, us, "GM 2", "1310")


@pytest.mark.rule("IC 23.121", "IC 23.122")
def test_invasion_from_a_port_and_naval_moves_use_all_movement(water_map):
    st = staged(water_map, (unit("GM port"), "1312"), (unit("GM inland"), "1212"), off=[unit("GM 1")])
    area = StagingArea()
    area.place(st, "GM 1")
    with pytest.raises(RuleViolation) as e:
        amphibious_invasion(st, area, "GM inland", "1310")
    assert e.value.rule == "IC 23.121"
    res = amphibious_invasion(st, area, "GM port", "1310")
    assert "IC 23.121" in res.rules() and area.amphibious_used == 1
    with pytest.raises(RuleViolation) as e:
        area.check_may_move("GM port")
    assert e.value.rule == "IC 23.122"
    naval_transport(st, area, "GM 1", "1312")
    with pytest.raises(RuleViolation) as e:
        area.check_may_move("GM 1")
    assert e.value.rule == "IC 23.122"


@pytest.mark.rule("IC 23.16", "IC 23.15")
def test_dna_only_by_sea_and_air_units_straight_to_the_air_box(water_map):
    st = staged(water_map, off=[dna("DNA 9"), unit("GM 1")])
    area = StagingArea()
    area.place(st, "DNA 9")
    area.place(st, "GM 1")
    for method in ("air transport", "airborne assault"):
        with pytest.raises(RuleViolation) as e:
            check_entry_method(st, area, "DNA 9", method)
        assert e.value.rule == "IC 23.16"
    check_entry_method(st, area, "DNA 9", "naval transport")
    with pytest.raises(RuleViolation) as e:
        check_entry_method(st, area, "GM 1", "airborne assault")
    assert e.value.rule == "IC 23.14"
    assert "IC 23.16" in amphibious_invasion(st, area, "DNA 9", "1311").rules()
    assert air_units_arrive({"airstrike": 2, "air transport": 1}).result == {"airstrike": 2, "air transport": 1}


@pytest.mark.rule("IC 23.2", "IC 23.4")
def test_no_return_and_no_fighting_from_the_staging_area(water_map):
    st = staged(water_map, off=[unit("GM 1")])
    area = StagingArea()
    area.place(st, "GM 1")
    with pytest.raises(RuleViolation) as e:
        return_to_staging(st, area, "Base H")
    assert e.value.rule == "IC 23.2"
    with pytest.raises(RuleViolation) as e:
        check_combat_units(area, ["Base H", "GM 1"])
    assert e.value.rule == "IC 23.4"
    check_combat_units(area, ["Base H"])
    with pytest.raises(RuleViolation) as e:
        check_communist_target(COM, "staging area")
    assert e.value.rule == "IC 23.4"


# ------------------------------------------------------------------------------------- experimental rules
@pytest.mark.rule("IC Exp Going Underground")
def test_going_underground_and_resurfacing(water_map):
    st = position(water_map, (unit("VM g", COM, "guerrilla", "battalion"), "1211"),
                  (unit("PL g", COM, "guerrilla", "battalion", nationality="Pathet Lao"), "1212"),
                  (unit("VM rgt", COM, size="regiment"), "1012"),
                  (unit("VM mil", COM, "militia", "battalion", 1, 0, 0, 0), "1113"),
                  (unit("VM mil 2", COM, "militia", "battalion", 1, 0, 0, 0), "1314"),
                  (unit("GM 1"), "1311"))
    st.communist_cities.add("1314")
    ug = GoingUnderground()
    for who in ("PL g", "VM rgt", "VM mil", "GM 1"):                      # abroad, not a cadre, city militia, FEF
        with pytest.raises(RuleViolation) as e:
            ug.go_underground(st, who, 1)
        assert e.value.rule == "IC Exp Going Underground"
    ug.go_underground(st, "VM g", 1)
    assert not st.unit("VM g").on_map
    with pytest.raises(RuleViolation):
        ug.resurface(st, "VM g", "1211", 1)                                # not in the same phase
    for bad in ("1311", "1210", "1014"):                                   # enemy, lake, too far
        with pytest.raises(RuleViolation):
            ug.resurface(st, "VM g", bad, 2)
    assert ug.resurface(st, "VM g", "1212", 2).result["hex"] == "1212"   # next to the enemy: allowed
    res = ug.go_underground(st, "VM mil 2", 2)
    assert "IC 17.33" in res.rules() and "1314" not in st.communist_cities
    with pytest.raises(RuleViolation):
        GoingUnderground(enabled=False).go_underground(st, "VM g", 3)


@pytest.mark.rule("IC Exp Naval Operations")
def test_amphibious_assault_and_invasion_supply(water_map):
    st = staged(water_map, (unit("VM", COM), "1313"), off=[unit("GM 1"), unit("GM 2")])
    area = StagingArea(units={"GM 1", "GM 2"})
    naval = NavalOperations()
    with pytest.raises(RuleViolation):
        naval.amphibious_assault(st, area, ["GM 1"], "1313", "1311")       # not from the sea
    with pytest.raises(RuleViolation):
        naval.amphibious_assault(st, area, ["GM 1"], "1314", "1413")       # nobody to assault: 23.12 instead
    naval.amphibious_assault(st, area, ["GM 1"], "1313", "1413")
    with pytest.raises(RuleViolation) as e:
        naval.amphibious_assault(st, area, ["GM 2"], "1313", "1413")       # capacity one a turn
    assert e.value.rule == "IC 23.12"
    res = naval.assault_outcome(st, area, ["GM 1"], "1313", may_advance=False)
    assert res.result == "returned" and "GM 1" in area.units
    area.new_turn()
    naval.amphibious_assault(st, area, ["GM 1"], "1313", "1413")
    with pytest.raises(RuleViolation):
        naval.assault_outcome(st, area, ["GM 1"], "1313", may_advance=True)   # the defender is still there
    st.unit("VM").eliminated = True
    assert naval.assault_outcome(st, area, ["GM 1"], "1313", may_advance=True).result == "landed"
    assert st.unit("GM 1").hex == h(st, "1313")
    lg = Logistics(points={FEF: 3, COM: 0})
    assert naval.invasion_supply(lg, (6,)).result == (12,) and lg.points[FEF] == 2
    with pytest.raises(RuleViolation) as e:
        NavalOperations(enabled=False).invasion_supply(lg, (6,))
    assert e.value.rule == "IC Exp Naval Operations"


@pytest.mark.rule("IC Exp Naval Operations")
def test_supply_lines_over_water_and_dna_zoc_at_sea(water_map):
    wall = [(unit(f"FEF {c}"), f"{c}12") for c in ("10", "11", "12")]
    st = position(water_map, (unit("VM base", COM, "base", "battalion", 1), "1310"), (unit("VM", COM), "1310"),
                  (unit("VM far", COM), "1314"), *wall, (unit("FEF 13"), "1312"))
    assert trace_los(st, COM, "1314").result is None                       # the land is walled off
    line = NavalOperations().trace_water_los(st, COM, "1314")
    assert line.result is not None and any(st.terrain(x) == "all_sea" for x in line.result.path)
    st.unit("FEF 13").counter = dna("FEF 13")                              # a DNA's ZOC reaches the sea
    assert NavalOperations().trace_water_los(st, COM, "1314").result is None


@pytest.mark.rule("IC 29.31")
def test_intervention_units_arrive_in_the_staging_area(water_map):
    from wargames.indochina.staging import place_intervention_units
    us = [Counter("US 1 Cav", FEF, "regular infantry", "division", 8, 6, 4, 3, nationality="US")]
    vna = [Counter("VNA 1", FEF, "regular infantry", "group", 4, 6, 2, 3, nationality="VNA")]
    st = staged(water_map, (unit("VM", COM), "1010"), off=us + vna)
    area = StagingArea()
    place_intervention_units(area, st, ["US 1 Cav"])
    assert "US 1 Cav" in area.units
    with pytest.raises(RuleViolation) as e:
        place_intervention_units(area, st, ["VNA 1"])
    assert e.value.rule == "IC 29.31"
