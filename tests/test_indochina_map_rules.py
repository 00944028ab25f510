"""Indochina movement, stacking, zones of control, disruption and combat results on the demonstration map."""
from fractions import Fraction

import pytest

from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import DataError, RuleViolation
from wargames.indochina import Combat, Side, crt_chooser, final_odds
from wargames.indochina.disruption import disrupt
from wargames.indochina.movement import move, step_cost
from wargames.indochina.results import advance, apply_result, retreat
from wargames.indochina.stacking import end_of_phase_stacking, stacking_limit
from wargames.indochina.state import IndochinaState, demo_map
from wargames.indochina.units import Counter, default_class, stacking_value
from wargames.indochina.zoc import enemy_zoc, zoc_hexes

COM, FEF = Side.COMMUNIST, Side.FEF


def unit(uid, side, utype="regular infantry", size="group", s=6, m=6, ds=3, dm=3, **kw):
    return Counter(uid, side, utype, size, s, m, ds, dm, **kw)


def position(*placed, monsoon=False):
    return IndochinaState.build(demo_map(), placed, monsoon=monsoon)


@pytest.mark.rule("IC 11.11", "IC 2.31")
def test_unit_class_by_type():
    assert default_class(FEF, "mechanized") == "Heavy" and default_class(FEF, "light infantry") == "Light"
    assert default_class(COM, "regular infantry") == "Light" and default_class(COM, "artillery") == "Heavy"
    with pytest.raises(DataError):
        unit("x", FEF, utype="tank")


@pytest.mark.rule("IC 28.2", "IC 11.22", "IC 11.42", "IC 11.0", "IC 11.2")
def test_the_pleiku_ambush_position():
    """The VM regiment south-west of Pleiku has a ZOC on Pleiku and on the hex south of it."""
    st = position((unit("FEF mech", FEF, "mechanized", m=8), "1515"), (unit("VM rgt", COM, size="regiment"), "1415"))
    z = zoc_hexes(st, st.unit("VM rgt"))
    m = st.map
    assert m.hex("1515") in z and m.hex("1516") in z
    res = move(st, "FEF mech", ["1516"])                     # along the road, ZOC to ZOC: 1/4 + 2
    assert res.result["spent"] == Fraction(9, 4)
    assert "+2 (11.42)" in res.steps[-1].text
    c = Combat(FEF, (6,), (6,), terrain="jungle", mode="ambush")
    assert crt_chooser(c) is COM and [s for s in final_odds(c)[2].steps if s.rule == "IC 28.2"]


@pytest.mark.rule("IC 11.22", "IC 11.21", "IC 11.1")
def test_heavy_zoc_stops_at_rough_terrain_unless_a_route_leads_in():
    st = position((unit("FEF inf", FEF), "1315"), (unit("para", FEF, parenthesized=True), "1717"))
    z = zoc_hexes(st, st.unit("FEF inf"))
    assert st.map.hex("1215") in z            # jungle, but the trail joins 1315 and 1215
    assert st.map.hex("1214") not in z        # jungle without a route
    assert zoc_hexes(st, st.unit("para")) == set()        # a parenthesized strength has no ZOC


@pytest.mark.rule("IC 11.71", "IC 11.7")
def test_fef_zoc_does_not_enter_china():
    st = position((unit("FEF lt", FEF, "light infantry"), "1412"), (unit("VM", COM), "1612"))
    assert not any(st.map.info(h).attr("country") == "China" for h in zoc_hexes(st, st.unit("FEF lt")))
    assert any(st.map.info(h).attr("country") == "China" for h in zoc_hexes(st, st.unit("VM")))


@pytest.mark.rule("IC 9.21", "IC 9.71", "IC 9.73", "IC 26.3", "IC 9.2", "IC 9.7", "IC 9.22", "IC 9.72", "IC 9.74")
def test_movement_costs():
    st = position((unit("H", FEF, "mechanized"), "1515"), (unit("L", COM), "1315"))
    m = st.map
    assert step_cost(st, "H", m.hex("1515"), m.hex("1516"))[0] == Fraction(1, 4)     # road, Heavy
    assert step_cost(st, "L", m.hex("1515"), m.hex("1516"))[0] == Fraction(1, 2)     # road, Light
    assert step_cost(st, "H", m.hex("1515"), m.hex("1614"))[0] == 1                   # clear
    assert step_cost(st, "L", m.hex("1315"), m.hex("1314"))[0] == 1                   # clear
    assert step_cost(st, "H", m.hex("1313"), m.hex("1213"))[0] > step_cost(st, "L", m.hex("1313"), m.hex("1213"))[0]
    wet = position((unit("H", FEF, "mechanized"), "1515"), monsoon=True)
    assert step_cost(wet, "H", m.hex("1515"), m.hex("1516"))[0] == Fraction(1, 4)     # roads: no monsoon cost
    assert step_cost(wet, "H", m.hex("1515"), m.hex("1614"))[0] == 2


@pytest.mark.rule("IC 9.0", "IC 9.1", "IC 9.3", "IC 9.4", "IC 9.5", "IC 9.6", "IC 11.4", "IC 11.41")
def test_movement_allowance_minimum_hex_and_forced_march():
    st = position((unit("slow", FEF, "mechanized", m=2), "1313"), (unit("VM", COM), "1617"))
    with pytest.raises(RuleViolation) as e:
        move(st, "slow", ["1213", "1113"])                     # jungle costs a Heavy unit 3 each
    assert e.value.rule == "IC 9.0"
    res = move(st, "slow", ["1213"])                           # but one hex is always allowed
    assert any(s.rule == "IC 9.3" for s in res.steps)
    st2 = position((unit("slow", FEF, "mechanized", m=3), "1313"))
    out = move(st2, "slow", ["1213", "1113"], forced_march=True)          # 3 + 3 within the doubled 6
    assert out.result["allowance"] == 6 and out.result["spent"] == 6
    with pytest.raises(RuleViolation) as e:
        move(position((unit("a", FEF), "1515"), (unit("b", COM), "1516")), "a", ["1516"])
    assert e.value.rule == "IC 9.5"
    with pytest.raises(RuleViolation) as e:
        move(position((unit("a", FEF), "2020")), "a", ["2120"])     # all-sea
    assert e.value.rule == "IC 9.5"


@pytest.mark.rule("IC 10.3")
def test_the_two_sides_never_share_a_hex():
    from wargames.indochina.stacking import check_not_with_enemy
    st = position((unit("a", FEF), "1515"), (unit("b", COM), "1516"))
    check_not_with_enemy(st, st.map.hex("1514"), FEF)
    with pytest.raises(RuleViolation) as e:
        check_not_with_enemy(st, st.map.hex("1516"), FEF)
    assert e.value.rule == "IC 10.3"


@pytest.mark.rule("IC 13.9")
def test_no_attack_into_the_sea():
    with pytest.raises(RuleViolation) as e:
        final_odds(Combat(FEF, (6,), (2,), terrain="all_sea"))
    assert e.value.rule == "IC 13.9"


@pytest.mark.rule("IC 10.1", "IC 10.11", "IC 10.12", "IC 10.2", "IC 10.21", "IC 10.0", "IC 14.3")
def test_stacking():
    assert stacking_value(unit("d", FEF, size="division")) == 1
    assert stacking_value(unit("g", FEF)) == Fraction(1, 2)
    assert stacking_value(unit("c", COM, "cadre", size="cadre")) == 0
    groups = [(unit(f"g{i}", FEF), "1515") for i in range(4)]
    st = position(*groups)
    assert end_of_phase_stacking(st, FEF, "movement") == []                # four groups: exactly the limit
    st = position(*groups, (unit("g4", FEF), "1515"))
    assert end_of_phase_stacking(st, FEF, "reinforcement") == []           # only movement and combat phases
    assert len(end_of_phase_stacking(st, FEF, "combat")) == 5               # everyone disrupted
    assert stacking_limit(st, st.map.hex("1912")) == 1                      # mountain


@pytest.mark.rule("IC 14.4", "IC 14.0", "IC 14.1", "IC 14.2", "IC 25.3")
def test_second_disruption():
    st = position((unit("a", FEF), "1515"), (unit("dc", COM, "death commando", size="battalion"), "1616"))
    res = Resolution()
    assert disrupt(st.unit("a"), "combat", res) == "disrupted" and st.unit("a").strength == 3
    assert disrupt(st.unit("a"), "overstacking", res) == "disrupted"
    assert disrupt(st.unit("a"), "combat", res) == "eliminated"
    assert disrupt(st.unit("dc"), "combat", res) == "eliminated"


@pytest.mark.rule("IC 13.5", "IC 13.6", "IC 13.61", "IC 13.62", "IC 11.53", "IC 11.52", "IC 13.7", "IC 13.8")
def test_results_retreat_and_advance():
    st = position((unit("VM", COM, size="regiment"), "1314"), (unit("FEF", FEF), "1414"), (unit("FEF2", FEF), "1516"))
    res = apply_result(st, "DR", ["VM"], "1414", "Mobile", {"retreats": {"FEF": "1515"}})
    assert st.unit("FEF").disrupted and st.unit("FEF").hex == st.map.hex("1515")
    assert res.result["advance"] == 2                              # Light attackers on the Mobile CRT
    with pytest.raises(RuleViolation) as e:
        advance(st, ["VM"], ["1413"], 2, "1414")
    assert e.value.rule == "IC 13.61"
    advance(st, ["VM"], ["1414", "1413"], 2, "1414")
    assert st.unit("VM").hex == st.map.hex("1413")
    # a disrupted unit that retreats into an enemy ZOC is eliminated
    st = position((unit("a", FEF), "1515"), (unit("b", COM), "1715"))
    st.unit("a").disrupted = True
    assert retreat(st, "a", "1615", Resolution()) == "eliminated"
    with pytest.raises(RuleViolation):
        retreat(position((unit("a", FEF), "2020")), "a", "2120", Resolution())      # into the sea


@pytest.mark.rule("IC 13.5")
def test_each_result_code():
    for code in ("AE", "AR", "AD", "NE", "BB", "SK", "DD", "DE"):
        st = position((unit("A1", COM), "1314"), (unit("A2", COM), "1315"), (unit("D", FEF), "1414"))
        apply_result(st, code, ["A1", "A2"], "1414", "Assault", {"retreats": {"A1": "1214", "A2": "1215"}})
        hurt_att = [u for u in ("A1", "A2") if st.unit(u).disrupted or st.unit(u).eliminated]
        hurt_def = st.unit("D").disrupted or st.unit("D").eliminated
        assert bool(hurt_att) == (code in ("AE", "AR", "AD", "BB")), code
        assert hurt_def == (code in ("BB", "SK", "DD", "DE")), code
    with pytest.raises(RuleViolation):
        apply_result(st, "XX", ["A1"], "1414", "Mobile")


@pytest.mark.rule("IC 2.2", "IC 2.32", "IC 2.35", "IC 2.36", "IC Counter Corrections")
def test_components_definitions_and_counter_errata():
    from wargames.indochina.units import UnitState, counter_errata, is_combat_unit, modified_roll, occupies
    assert demo_map().name.startswith("Indochina")
    assert unit("x", FEF, "light infantry").unit_class == "Light"
    assert (modified_roll(3, +1), modified_roll(6, -1)) == (4, 5)             # the 2.36 examples
    weak = Counter("w", COM, "guerrilla", "battalion", 1, 4, 1, 4, parenthesized=False)
    assert counter_errata(weak) and not counter_errata(Counter("ok", COM, "guerrilla", "battalion", 1, 4, 1, 4,
                                                                 disrupted_parenthesized=True))
    st = position((unit("a", FEF, parenthesized=True, s=1), "1515"))
    assert is_combat_unit(st.unit("a"))                                      # bracketed 1 is still a combat unit
    assert occupies(list(st.units.values()), FEF, st.map.hex("1515"))
    assert not occupies(list(st.units.values()), FEF, st.map.hex("1516"))    # a ZOC does not occupy


@pytest.mark.rule("IC 26.0", "IC 26.2", "IC 25.0")
def test_weather_heading_and_death_commando_heading():
    from wargames.indochina.weather import weather
    assert {weather(m) for m in range(1, 13)} == {"Clear", "Monsoon"}
    clear = final_odds(Combat(COM, (9,), (3,)))[1]
    assert clear == "3/1"                                                     # clear weather: no shift at all
    assert final_odds(Combat(COM, (9,), (3,), terrain="city", death_commando=True))[1] == "2/1"   # city 2 left, DC 1 right
