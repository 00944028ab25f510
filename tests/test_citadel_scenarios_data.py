"""Citadel's orders of battle, scenario outlines and Scenario Information Chart, as data (SR 1-3, Chart 2-3).

Golden tests for the printed notation examples (SR 1.A.5, SR 1.B.4, SR 1.B.5, SR 1.A.2), the scenario dates,
and that every unit the outlines name is a counter of the order of battle; bad files name the file and entry.
"""
from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from wargames.citadel import scenarios as S
from wargames.citadel.scenarios import Placement
from wargames.citadel.units import UnitClass
from wargames.core.errors import DataError
from . import yamlc

ALL = range(1, 9)
HW121 = {"1/121HW", "2/121HW"}


@pytest.fixture(scope="module")
def outlines():
    return {n: S.load_scenario_outline(n) for n in ALL}


# --------------------------------------------------------------------------- printed examples

@pytest.mark.rule("C SR 1")
def test_printed_company_notation_inverted_with_one_more_loss():
    """C-E21: "1 (R1) company of 8 French Parachute Battalion" is its first company, face down, one step lost."""
    assert S.resolve_entry("1 (R1) company of 8 French Parachute Battalion") == [Placement("1/8BPC", True, 1)]
    assert S.parse_notation("R") == (True, 0) and S.parse_notation("3") == (False, 3)
    assert S.parse_notation("NL") == (False, 0)


@pytest.mark.rule("C SR 1")
def test_battery_and_platoon_notation_after_the_noun():
    assert S.resolve_entry("11 battery(2) of 4/4 Colonial Artillery Battalion") == [Placement("11/IV-4RAC", False, 2)]
    assert S.resolve_entry("Heavy Mortar platoon (1) of 2/5 Foreign Legion Composite Mortar Company") == \
        [Placement("H/2-5CMMLE", False, 1)]
    assert S.resolve_entry("1(3) Foreign Legion Heavy Airborne Mortar Company") == [Placement("1/CEMLP", False, 3)]


@pytest.mark.rule("C SR 1")
def test_short_form_of_the_shipped_files_reads_as_the_printed_entry():
    assert S.resolve_entry("8BPC: 1(R1), SAS(R)") == \
        S.resolve_entry("1(R1) and SAS(R) companies of 8 French Parachute Battalion") == \
        [Placement("1/8BPC", True, 1), Placement("SAS/8BPC", True, 0)]
    assert S.resolve_entry("6BPC (5)") == S.resolve_entry("6 Colonial Parachute Battalion (five companies)")
    with pytest.raises(ValueError, match="no formation id"):
        S.resolve_entry("9BPC: 1")


@pytest.mark.rule("C SR 1")
def test_five_companies_means_four_line_companies_and_the_hhc():
    got = S.resolve_entry("6 Colonial Parachute Battalion (five companies)")
    assert sorted(p.counter for p in got) == ["1/6BPC", "2/6BPC", "3/6BPC", "4/6BPC", "HHC/6BPC"]
    assert all(p == Placement(p.counter) for p in got)              # whole battalion at full strength
    oob = S.shipped_oob()
    line = [oob.counters[f"{n}/6BPC"] for n in range(1, 5)]
    assert {(c.strength, c.morale) for c in line} == {(3, 4)}      # C 6's "3-4"
    assert {c.reduced_strength for c in line} == {2}               # C 28.G


@pytest.mark.rule("C SR 1")
def test_printed_regiment_notation_for_36_regiment_in_scenario_3(outlines):
    """C-E22: 1; NL; 1; R7 -- and a battalion can be R7 without being eliminated."""
    assert outlines[3].information["vm_regiments"]["36"] == "1; NL; 1; R7"
    st = S.vm_strengths(outlines[3])
    assert [(st[f"{b}/36"].inverted, st[f"{b}/36"].losses) for b in range(1, 5)] == [(False, 1), (False, 0), (False, 1), (True, 7)]
    c = S.shipped_oob().counters["4/36"]
    assert c.strength >= 13 and c.reduced_strength - 7 > 0


@pytest.mark.rule("C SR 1")
def test_do_is_the_previous_scenarios_state(outlines):
    assert outlines[3].information["vm_regiments"]["141"] == "do"
    assert S.vm_strengths(outlines[3])["1/141"] == S.vm_strengths(outlines[2])["1/141"] == \
        Placement("1/141", True, 0)


@pytest.mark.rule("C SR 1", "C SR 2")
def test_trench_equivalents_count_a_tunnel_or_pit_as_four(outlines):
    """C-E23."""
    assert S.trench_equivalents(trenches=3, tunnels=1, pits=2) == 15
    assert S.trench_equivalents(tunnels=1) == S.trench_equivalents(pits=1) == S.trench_equivalents(trenches=4)
    allowance = outlines[3].information["vm_trenches"]
    assert S.within_trench_allowance(outlines[3], trenches=allowance)
    assert not S.within_trench_allowance(outlines[3], trenches=allowance - 3, pits=1)


@pytest.mark.rule("C SR 1", "C SR 3", "C Sc 3")
def test_scenario_3_vietminh_hold_the_three_northern_complexes_and_score_nothing_for_them(outlines):
    """C-E20: no victory points for Beatrice, Gabrielle or Anne-Marie, held from the start."""
    sc = outlines[3]
    assert set(sc.information["vm_strongpoints"]) == {"Beatrice", "Gabrielle", "Anne-Marie"}
    assert S.evaluate_victory(sc, ["Beatrice", "Gabrielle", "Anne-Marie"]).winner == "French"
    # D-1 is a hill (10 VP, tactical); two flat Huguettes make 10 (marginal); 10 SP lost cost one point
    assert S.evaluate_victory(sc, ["Beatrice", "D-1", "E-1"]) == S.Victory("Vietminh", "tactical", "20 victory points")
    assert S.evaluate_victory(sc, ["H-1", "H-2"]).level == "marginal"
    assert S.evaluate_victory(sc, ["H-1", "H-2"], vm_losses=19).reason == "9 victory points"
    assert S.evaluate_victory(sc, ["H-1"], vm_losses=10).winner == "French"           # 5 - 1 = 4


# --------------------------------------------------------------------------- dates

@pytest.mark.rule("C SR 1", "C Sc 1", "C Sc 8", "C Turn Record Chart")
def test_scenario_dates_and_printed_weekdays(outlines):
    d1 = S.days(outlines[1])
    assert d1 == [dt.date(1954, 3, 13) + dt.timedelta(days=i) for i in range(4)]
    assert len(S.days(outlines[8])) == 56 and S.days(outlines[8])[-1] == dt.date(1954, 5, 7)
    assert S.days(outlines[2]) == [dt.date(1954, 3, 28)] and outlines[2].player_turn == "French"
    lengths = {n: len(S.days(outlines[n])) for n in ALL}
    assert lengths == {1: 4, 2: 1, 3: 5, 4: 7, 5: 7, 6: 5, 7: 7, 8: 56}
    names = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
    for sc in outlines.values():
        ds = S.days(sc)
        assert (names[ds[0].weekday()], names[ds[-1].weekday()]) == sc.weekdays


# --------------------------------------------------------------------------- dispositions and reinforcements

@pytest.mark.rule("C SR 2")
@pytest.mark.parametrize("n", ALL)
def test_every_disposition_is_a_counter_placed_once(outlines, n):
    sc, oob = outlines[n], S.shipped_oob()
    ids = [p.counter for p in sc.placements()]
    assert ids and len(ids) == len(set(ids))
    assert all(i in oob.counters for i in ids)
    for date, ps in list(sc.french_reinforcements.items()) + list(sc.vm_reinforcements.items()):
        assert sc.start <= date <= sc.end
        assert all(p.counter in oob.counters and p.counter not in ids for p in ps)


@pytest.mark.rule("C SR 2", "C Sc 1")
def test_scenario_1_as_printed(outlines):
    sc = outlines[1]
    where = {g.at: {p.counter for p in g.placements} for g in sc.french}
    assert where["Anne-Marie"] == {"10/3BT", "11/3BT", "HHC/3BT"}
    assert {"9/3BT", "12/3BT", "250/CSM", "251/CSM", "401/CSM", "M/1-3CMMLE"} <= where["Huguette"]
    assert len(where["Beatrice"]) == 5 and len(sc.placements()) == 38
    assert sorted(p.counter for p in sc.french_reinforcements[dt.date(1954, 3, 14)])[0] == "1/5BPVN"
    assert outlines[8].french == sc.french                                   # "as in scenario 1"


@pytest.mark.rule("C SR 1", "C Sc 4")
def test_except_lists_are_vietminh_strongpoints(outlines):
    g = [g for g in outlines[4].french if g.at.startswith("Dominique")][0]
    assert g.vm_held == ["D-1", "D-2", "D-5", "D-6"]
    for sc in outlines.values():
        for grp in sc.french:
            assert set(grp.vm_held) <= S.vm_held_at_start(sc)


@pytest.mark.rule("C Sc 2")
def test_scenario_2_vietminh_set_up_merges_am2_and_flags_the_repeated_battery(outlines):
    sc = outlines[2]
    am2 = [g for g in sc.vietminh if g.at == "AM-2"]
    assert len(am2) == 1
    assert {p.counter for p in am2[0].placements} == {"5/2-367", "3/57", "9/3-367"}
    raw = yamlc.safe_load(Path(sc.source).read_text())
    flagged = [u for g in raw["vm_dispositions"] for u in g["units"] if isinstance(u, dict)]
    assert flagged[0]["printed"].startswith("4 battery of 2/367") and "note" in flagged[0]
    aa = [p.counter for p in sc.placements() if S.shipped_oob().counters[p.counter].type == "antiaircraft"]
    assert len(aa) == 8
    assert S.evaluate_victory(sc, [], aa_batteries_destroyed=2).winner == "French"
    assert S.evaluate_victory(sc, [], aa_batteries_destroyed=1).winner == "Vietminh"


@pytest.mark.rule("C SR 2")
def test_121_heavy_weapons_company_absent_at_start_except_in_6_and_7(outlines):
    for n in ALL:
        absent = HW121 <= S.absent_at_start(outlines[n])
        assert absent == (n not in (6, 7)), n
    assert {p.counter for p in outlines[5].vm_reinforcements[dt.date(1954, 4, 15)]} == HW121
    assert not outlines[5].withheld


@pytest.mark.rule("C SR 2", "C Sc 3")
def test_one_50cal_battery_withheld_in_scenario_3_only(outlines):
    def fifties(sc):
        oob = S.shipped_oob()
        return {c for c in S.absent_at_start(sc) if oob.counters[c].ordnance == ".50"}
    assert len(fifties(outlines[3])) == 1
    assert all(not fifties(outlines[n]) for n in ALL if n != 3)


@pytest.mark.rule("C SR 2", "C Scenario Information Chart")
def test_inverted_vietminh_battalions_stay_inverted_until_scenario_8(outlines):
    """C 15.C: replacements never lift a unit above its critical loss level, so the reconstructed chart may not
    turn a face-down battalion face up again within the campaign (scenario 8 restarts on March 13)."""
    seen: set[str] = set()
    for n in range(1, 8):
        st = S.vm_strengths(outlines[n])
        assert seen <= {b for b, p in st.items() if p.inverted}, n
        seen |= {b for b, p in st.items() if p.inverted}
    assert not any(p.inverted or p.losses for p in S.vm_strengths(outlines[8]).values())


@pytest.mark.rule("C Scenario Information Chart")
def test_information_chart_columns(outlines):
    assert outlines[8].information["french_replacements"] == {"infantry": 20, "artillery": 12}    # C 15.B
    for n in range(1, 8):
        rep = outlines[n].information["french_replacements"]
        assert rep["infantry"] <= 20 and rep["artillery"] <= 12
    assert set(outlines[1].information["vm_supply"]) == {"GSP", "105", "120", "75H", "75RR"}
    assert set(outlines[1].information["french_supply"]) == {"GSP", "105", "155", "120"}
    assert outlines[1].information["french_aircraft"]["F8F"] >= 2 and \
        outlines[1].information["french_aircraft"]["Cricket"] >= 3                               # SR 2.4
    assert outlines[8].information["vm_regiments"] == outlines[1].information["vm_regiments"]


# --------------------------------------------------------------------------- victory

@pytest.mark.rule("C SR 3", "C Sc 1")
def test_scenario_1_victory_levels_and_the_casualty_reduction(outlines):
    sc = outlines[1]
    assert S.evaluate_victory(sc, ["Beatrice"]).level == "marginal"
    assert S.evaluate_victory(sc, ["Beatrice", "Gabrielle"]).level == "tactical"
    assert S.evaluate_victory(sc, ["Beatrice", "Gabrielle"], vm_losses=101).level == "marginal"
    assert S.evaluate_victory(sc, ["Beatrice", "Gabrielle"], vm_losses=100).level == "tactical"
    assert S.evaluate_victory(sc, ["Beatrice"], vm_losses=101).winner == "French"
    assert S.evaluate_victory(sc, ["B-1", "B-2"]).winner == "French"          # a complex is all of it


@pytest.mark.rule("C SR 3", "C Sc 5", "C Sc 6", "C Sc 7", "C Sc 8")
def test_key_strongpoint_and_all_strongpoint_victories(outlines):
    assert S.evaluate_victory(outlines[5], ["H6"]).winner == "Vietminh"
    assert S.evaluate_victory(outlines[5], ["H-1", "H-2", "H-3"]).winner == "French"
    assert S.evaluate_victory(outlines[5], ["H-1", "H-2", "H-3", "E-1"]).winner == "Vietminh"
    assert S.evaluate_victory(outlines[5], ["H-7", "D-1", "D-2", "D-5"]).winner == "French"   # held at start
    assert S.evaluate_victory(outlines[6], ["H-1"]).winner == "Vietminh"
    everything = sorted(S.load_strongpoints().all)
    assert S.evaluate_victory(outlines[7], everything).winner == "Vietminh"
    assert S.evaluate_victory(outlines[7], everything, vm_losses=101).winner == "French"
    assert S.evaluate_victory(outlines[8], everything, vm_losses=500).winner == "Vietminh"
    assert S.evaluate_victory(outlines[8], everything[1:]).winner == "French"


# --------------------------------------------------------------------------- order of battle

@pytest.mark.rule("C 4", "C Chart 2")
def test_order_of_battle_values_and_provenance():
    oob = S.shipped_oob()
    assert all(c.provenance.startswith(("text:", "reconstructed:")) for c in oob.counters.values())
    tanks = [c for c in oob.counters.values() if c.cls is UnitClass.TANK]
    assert len(tanks) == 10 and {(c.strength, c.reduced_strength, c.morale_modifier) for c in tanks} == {(3, 1, 3)}
    assert {c.strength for c in oob.counters.values() if c.ordnance == "105"} == {4}            # C 9, C 22
    assert oob.counters["1/CEMLP"].strength == 8                                                  # C 22
    for reg in oob.regiments:
        members = [c for c in oob.counters.values() if c.regiment == reg]
        assert sum(c.is_battalion for c in members) == 4 and len(members) == 5                  # C 8
        assert all(c.strength >= 13 and c.critical_loss_level == 5 for c in members if c.is_battalion)
    assert "9" not in oob.regiments and "57" in oob.regiments
    assert all(c.regiment is None for c in oob.counters.values()
               if c.side.value == "Vietminh" and c.cls is UnitClass.HEAVY_WEAPONS and not c.id.startswith("HW/"))


@pytest.mark.rule("C 25", "C Chart 3")
def test_air_units():
    air = S.load_air_units()
    assert air["F4U"].counters == 4 and air["F4U"].arrives == dt.date(1954, 5, 1)
    assert air["SB2C"].leaves == air["F6F"].leaves == dt.date(1954, 5, 1)
    assert air["Cricket"].counters == 3                       # SR 2.4 puts three in the revetment
    assert all(u.provenance.get("counters") for u in air.values())
    from wargames.citadel.air_charts import default_air_charts
    assert set(air) == set(default_air_charts().air_units)    # one table of values, one count per type


@pytest.mark.rule("C 25")
def test_an_air_type_unknown_to_the_air_units_chart_names_the_file_and_entry(tmp_path):
    p = tmp_path / "air.yaml"
    p.write_text((S.OOB_DIR / "air.yaml").read_text().replace("type: PB4Y", "type: B17"))
    with pytest.raises(DataError) as e:
        S.load_air_units(p)
    assert e.value.file == str(p) and e.value.field == "aircraft[2].type" and "B17" in e.value.reason


# --------------------------------------------------------------------------- bad files

def _copy(tmp_path: Path, n: int) -> Path:
    for f in S.SCENARIO_DIR.glob("scenario*.yaml"):
        shutil.copy(f, tmp_path / f.name)
    return tmp_path / f"scenario{n}.yaml"


@pytest.mark.rule("C SR 1")
def test_unknown_unit_names_the_file_and_entry(tmp_path):
    p = _copy(tmp_path, 3)
    p.write_text(p.read_text().replace('"CSM: 414"', '"CSM: 415"'))
    with pytest.raises(DataError) as e:
        S.load_scenario_outline(p)
    assert e.value.file == str(p) and e.value.field == "french_dispositions[2].units[0]"
    assert "415/CSM" in e.value.reason and e.value.line is not None


@pytest.mark.rule("C SR 1")
def test_bad_notation_names_the_file_and_entry(tmp_path):
    p = _copy(tmp_path, 4)
    p.write_text(p.read_text().replace("I-2REI: 1, 2(R), 3, 4(R), HHC", "I-2REI: 1, 2(R), 3, 4(X), HHC"))
    with pytest.raises(DataError) as e:
        S.load_scenario_outline(p)
    assert e.value.field == "french_dispositions[0].units[0]" and "'X' is not a loss notation" in e.value.reason


@pytest.mark.rule("C SR 1")
def test_bad_regiment_notation_and_eliminating_losses(tmp_path):
    p = _copy(tmp_path, 3)
    p.write_text(p.read_text().replace('"1; NL; 1; R7"', '"1; NL; 1; Q7"'))
    with pytest.raises(DataError) as e:
        S.load_scenario_outline(p)
    assert e.value.field == "information.vm_regiments.36"
    p.write_text(p.read_text().replace('"1; NL; 1; Q7"', '"1; NL; 1; R9"'))
    with pytest.raises(DataError, match="would be eliminated"):
        S.vm_strengths(S.load_scenario_outline(p))


@pytest.mark.rule("C SR 1", "C SR 2")
def test_unit_placed_twice_and_wrong_company_count(tmp_path):
    p = _copy(tmp_path, 1)
    p.write_text(p.read_text().replace('"CSM: 248"', '"CSM: 250"'))
    with pytest.raises(DataError, match="places 250/CSM again") as e:
        S.load_scenario_outline(p)
    assert e.value.field == "french_dispositions[4].units"
    with pytest.raises(ValueError, match="prints 4 counters"):
        S.resolve_entry("6 Colonial Parachute Battalion (four companies)")


@pytest.mark.rule("C SR 1")
def test_except_list_must_be_on_the_chart_and_weekdays_must_match(tmp_path):
    p = _copy(tmp_path, 6)
    p.write_text(p.read_text().replace("Huguette (except H6 and H7)", "Huguette (except H5 and H7)"))
    with pytest.raises(DataError, match="H-5") as e:
        S.load_scenario_outline(p)
    assert e.value.field == "french_dispositions[0].at"
    p = _copy(tmp_path, 7)
    p.write_text(p.read_text().replace("weekdays: [Saturday, Friday]", "weekdays: [Sunday, Friday]"))
    with pytest.raises(DataError) as e:
        S.load_scenario_outline(p)
    assert e.value.field == "weekdays"


@pytest.mark.rule("C 4")
def test_bad_oob_file_names_the_counter(tmp_path):
    src = (S.OOB_DIR / "french.yaml").read_text()
    p = tmp_path / "french.yaml"
    p.write_text(src.replace('id: "1/8BPC"', 'id: "1/9BPC"'))
    with pytest.raises(DataError) as e:
        S.load_oob(p)
    assert e.value.file == str(p) and e.value.field.startswith("counters[") and "1/9BPC" in e.value.reason
