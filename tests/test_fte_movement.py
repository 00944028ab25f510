"""FTE movement (F 6.1-6.10): the Movement Example (catalog F-E2, F-E3) and the rules around it."""
from __future__ import annotations

from fractions import Fraction

import pytest

from wargames.core import Resolution, ScriptedDice, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.fte.errata import reading
from wargames.fte.movement import (abandon, allowance, check_capacity, entry_problem, move, reachable,
                                   troops_aboard)
from wargames.fte.state import FteState, place
from wargames.fte.terrain import demo_map
from wargames.fte.units import CasualtyMarker, Unit


def ft(uid, h, st, side="US", **kw):
    kw.setdefault("fire_rating", 4)
    kw.setdefault("weapon", "SA")
    return Unit(uid, side, hex=st.hex(h), **kw)


def heli(uid, h, st, altitude="treetop", **kw):
    return Unit(uid, "US", kind="helicopter", role=kw.pop("role", "slick"), altitude=altitude, defense=1,
                hex=st.hex(h), **kw)


def apc(uid, h, st, **kw):
    return Unit(uid, "US", kind="vehicle", role="apc", fire_rating=5, weapon="DP", defense=1, hex=st.hex(h), **kw)


def go(st, ids, path, dice=(), **kw):
    with ScriptedDice(list(dice)) as d:
        return move(st, ids, path, d, Resolution(), **kw)


@pytest.fixture
def st():
    return FteState(demo_map())


# --------------------------------------------------------------------------- the Movement Example

@pytest.mark.rule("F 6.4", "F 6.5", "F TEC")
def test_movement_example_trail_unit_spends_1_1_3(st):
    place(st, [ft("A", "19.17", st)])
    res = go(st, "A", ["19.18", "19.19", "20.19"])
    costs = [s.inputs["cost"] for s in res.find("F 6.5")]
    assert costs == [1, 1, 3]
    assert res.result["spent"] == 5 == res.result["allowance"]
    assert "trail 1 instead of jungle 2" in res.find("F 6.5")[0].text     # jungle would have cost 2
    assert "slope 2" in res.find("F 6.5")[2].text
    assert st.unit("A").hex == st.hex("20.19") and not st.unit("A").exhausted


@pytest.mark.rule("F 6.4", "F 6.6")
def test_movement_example_double_time_spends_8_of_9(st):
    place(st, [ft("B", "21.17", st)])
    res = go(st, "B", ["22.17", "23.18", "23.19", "23.20"], double_time=True)
    assert [s.inputs["cost"] for s in res.find("F 6.5")] == [4, Fraction(3, 2), Fraction(3, 2), 1]
    assert res.result["spent"] == 8 and res.result["allowance"] == 9
    assert "jungle 2 + slope 2" in res.find("F 6.5")[0].text
    assert st.unit("B").exhausted and res.find("F 6.6")            # Exhausted at the end


@pytest.mark.rule("F 6.4", "F 6.6")
def test_movement_example_22_20_legal_23_21_not(st):
    place(st, [ft("B", "21.17", st)])
    res = go(st, "B", ["22.17", "23.18", "23.19", "23.20", "22.20"], double_time=True)
    assert res.result["spent"] == 9
    st2 = FteState(demo_map())
    place(st2, [ft("B", "21.17", st2)])
    with pytest.raises(RuleViolation) as e:
        go(st2, "B", ["22.17", "23.18", "23.19", "23.20", "23.21"], double_time=True)
    assert e.value.rule == "F 6.4" and "costs 1½ MP" in e.value.reason and "only 1 of 9" in e.value.reason
    # an illegal move changes nothing
    assert st2.unit("B").hex == st2.hex("21.17") and not st2.unit("B").exhausted


@pytest.mark.rule("F 6.4", "F 6.6")
def test_movement_example_without_double_time_stops_short(st):
    place(st, [ft("B", "21.17", st)])
    with pytest.raises(RuleViolation) as e:
        go(st, "B", ["22.17", "23.18"])
    assert e.value.rule == "F 6.4"


@pytest.mark.rule("F 6.4", "F 6.6")
def test_reachable_matches_the_example(st):
    place(st, [ft("A", "19.17", st), ft("B", "21.17", st)])
    reach = reachable(st, "B", double_time=True)
    # The example's route is the cheapest way to its first three hexes ...
    assert [reach[st.hex(h)] for h in ("22.17", "23.18", "23.19")] == [4, Fraction(11, 2), Fraction(13, 2)]
    # ... but the map offers a cheaper climb to 23.20 (via 22.19 and the slope: 4 + 1 + 2), which leaves
    # room for 23.21 (7 + 1½ = 8½ of 9).
    assert reach[st.hex("23.20")] == 7 and reach[st.hex("23.21")] == Fraction(17, 2)
    assert reachable(st, "A")[st.hex("20.19")] == 5
    assert set(reachable(st, "A", stealthy=True)) <= {st.hex("19.17"), *st.hex("19.17").neighbors()}
    assert reachable(st, "B")[st.hex("22.17")] == 4 and st.hex("23.18") not in reachable(st, "B")


# --------------------------------------------------------------------------- allowances

@pytest.mark.rule("F 6.3", "F 6.6", "F 7.5.2", "F 19.1")
def test_allowances(st):
    place(st, [ft("A", "20.22", st), apc("V", "23.24", st), heli("H", "22.19", st),
               heli("G", "20.20", st, altitude="ground")])
    a = st.unit("A")
    assert allowance(st, a)[0] == 5 and allowance(st, a, double_time=True)[0] == 9
    assert allowance(st, st.unit("V"))[0] == 15
    assert allowance(st, st.unit("H"))[0] == 20 and allowance(st, st.unit("G"))[0] == 2
    st.casualties["W1"] = CasualtyMarker("W1", "WIA", "US", carried_by="A")
    st.casualties["K1"] = CasualtyMarker("K1", "KIA", "US", carried_by="A")
    a.carrying = ["W1", "K1"]
    a.injury = True
    assert allowance(st, a)[0] == 5 - 2 - 1
    assert allowance(st, a, double_time=True)[0] == 9 - 2 - 1      # the revision keeps Double Time
    st.readings = reading(injury_allows_double_time=False)
    with pytest.raises(RuleViolation) as e:
        allowance(st, a, double_time=True)
    assert e.value.rule == "F 19.1"
    a.exhausted = True
    st.readings = reading()
    with pytest.raises(RuleViolation) as e:
        go(st, "A", ["20.21"], double_time=True)
    assert e.value.rule == "F 6.6"


@pytest.mark.rule("F 6.4", "F 7.5.2")
def test_carrying_slows_and_dropping_before_setting_off_does_not(st):
    place(st, [ft("A", "19.17", st)])
    st.casualties["W1"] = CasualtyMarker("W1", "WIA", "US", hex=st.hex("19.17"), carried_by="A")
    st.unit("A").carrying = ["W1"]
    with pytest.raises(RuleViolation):
        go(st, "A", ["19.18", "19.19", "20.19"])        # 5 MP of path, 4 MP left
    res = go(st, "A", ["19.18", "19.19", "20.19"], drop={"W1": "19.17"})
    assert res.result["allowance"] == 5
    assert st.casualties["W1"].hex == st.hex("19.17") and st.casualties["W1"].carried_by is None
    assert st.unit("A").carrying == []


@pytest.mark.rule("F 7.5.2")
def test_dropping_on_the_way(st):
    place(st, [ft("A", "20.22", st)])
    st.casualties["W1"] = CasualtyMarker("W1", "WIA", "US", hex=st.hex("20.22"), carried_by="A")
    st.unit("A").carrying = ["W1"]
    go(st, "A", ["20.21", "21.21", "22.21"], drop={"W1": "20.21"})
    assert st.casualties["W1"].hex == st.hex("20.21")
    with pytest.raises(RuleViolation):
        go(st, "A", ["22.22"], drop={"W9": "22.22"})


# --------------------------------------------------------------------------- stacking (F 6.2)

@pytest.mark.rule("F 6.2")
def test_never_into_an_enemy_hex_even_concealed(st):
    place(st, [ft("A", "20.22", st), ft("N", "20.21", st, side="NVA", concealed=True)])
    with pytest.raises(RuleViolation) as e:
        go(st, "A", ["20.21"])
    assert e.value.rule == "F 6.2" and "concealed" in e.value.reason
    assert st.unit("A").hex == st.hex("20.22")


@pytest.mark.rule("F 6.2", "F 17.1", "F 28.0")
def test_medics_civilians_and_markers_alone_do_not_block(st):
    place(st, [ft("A", "20.22", st), ft("N", "20.24", st, side="NVA"),
               Unit("M", "NVA", role="medic", men=1, hex=st.hex("20.21")),
               Unit("C", "VC", role="civilians", hex=st.hex("21.22"))])
    st.casualties["K"] = CasualtyMarker("K", "KIA", "NVA", hex=st.hex("20.23"))
    go(st, "A", ["20.21"])
    place(st, [ft("B", "21.23", st)])
    go(st, "B", ["21.22"])
    place(st, [ft("D", "19.23", st)])
    go(st, "D", ["20.23"])


@pytest.mark.rule("F 6.2")
def test_civilians_never_with_nva_vc_infantry(st):
    place(st, [ft("N", "20.22", st, side="NVA"), Unit("C", "VC", role="civilians", hex=st.hex("20.21"))])
    with pytest.raises(RuleViolation):
        go(st, "N", ["20.21"])
    with pytest.raises(RuleViolation):
        go(st, "C", ["20.22"])


@pytest.mark.rule("F 6.2")
def test_vehicle_and_helicopter_limits(st):
    place(st, [apc("V1", "23.24", st), apc("V2", "23.24", st), apc("V3", "23.25", st),
               heli("H1", "20.22", st), heli("H2", "20.21", st), heli("X", "21.22", st, destroyed=True)])
    with pytest.raises(RuleViolation) as e:
        go(st, "V3", ["23.24"])
    assert e.value.rule == "F 6.2" and "3 vehicles" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        go(st, "H2", ["20.22"])
    assert "helicopters" in e.value.reason
    go(st, "H2", ["21.22"])                 # a destroyed helicopter does not count
    go(st, ["V1", "V2"], ["23.23"])         # two vehicles may move as a stack


@pytest.mark.rule("F 6.2")
def test_stacking_applies_on_the_way_through(st):
    place(st, [ft("A", "20.22", st), ft("N", "21.22", st, side="NVA")])
    with pytest.raises(RuleViolation):
        go(st, "A", ["21.22", "22.21"])


@pytest.mark.rule("F 6.1")
def test_a_stack_moves_together(st):
    place(st, [ft("A", "20.22", st), ft("B", "20.22", st), ft("C", "20.21", st), apc("V", "20.22", st)])
    res = go(st, ["A", "B"], ["20.21", "21.21"])       # jungle 2 + clear 1
    assert st.unit("A").hex == st.unit("B").hex == st.hex("21.21") and res.result["spent"] == 3
    with pytest.raises(RuleViolation):
        go(st, ["A", "C"], ["21.20"])                 # not in the same hex
    with pytest.raises(RuleViolation):
        go(st, ["A", "V"], ["21.20"])                 # infantry and a vehicle


# --------------------------------------------------------------------------- bad paths

@pytest.mark.rule("F 6.4", "F 1.2")
def test_bad_paths(st):
    place(st, [ft("A", "20.22", st)])
    with pytest.raises(RuleViolation) as e:
        go(st, "A", ["20.24"])
    assert "not adjacent" in e.value.reason
    place(st, [ft("E", "25.20", st)])
    with pytest.raises(RuleViolation) as e:
        go(st, "E", ["26.20"])                         # no dot between the two excerpts
    assert e.value.rule == "F 1.2"
    with pytest.raises(RuleViolation):
        go(st, "A", [])


@pytest.mark.rule("F 6.5", "F TEC")
def test_vehicles_keep_out_of_jungle(st):
    place(st, [apc("V", "21.20", st)])
    with pytest.raises(RuleViolation) as e:
        go(st, "V", ["20.19"])                         # jungle, and no trail through jungle for vehicles
    assert e.value.rule == "F 6.5"


# --------------------------------------------------------------------------- concealment and opportunity fire

@pytest.mark.rule("F 6.1")
def test_concealment_lost_in_sight_of_a_visible_enemy(st):
    place(st, [ft("A", "20.22", st, concealed=True), ft("B", "62.21", st, concealed=True),
               ft("N", "21.20", st, side="NVA"), Unit("C", "VC", role="civilians", hex=st.hex("62.20")),
               ft("H", "61.22", st, side="NVA", concealed=True)])
    res = go(st, "A", ["21.22"])
    assert not st.unit("A").concealed and res.result["concealment_lost"] == ["A"]
    assert "enemy N" in res.find("F 6.1")[-1].text
    go(st, "B", ["62.22"])                         # only Civilians and a concealed enemy nearby
    assert st.unit("B").concealed


@pytest.mark.rule("F 6.1", "F 21.0")
def test_opfire_is_offered_at_each_hex_and_can_stop_the_move(st):
    place(st, [ft("A", "20.22", st)])
    seen = []

    def opfire(state, ids, h, dice, res):
        seen.append(state.label(h))
        return state.label(h) == "21.21"
    res = go(st, "A", ["20.21", "21.21", "22.21"], opfire=opfire)
    assert seen == ["20.21", "21.21"] and res.result["stopped"]
    assert st.unit("A").hex == st.hex("21.21")


# --------------------------------------------------------------------------- stealthy movement (F 6.7)

@pytest.mark.rule("F 6.7")
def test_stealthy_check_uses_the_destination_concealment_modifier(st):
    place(st, [ft("A", "20.22", st, concealed=True, tq=4)])
    res = go(st, "A", ["20.21"], dice=[4], stealthy=True)      # jungle -3: 4 - 3 = 1 <= 4
    assert st.unit("A").concealed and st.unit("A").hex == st.hex("20.21")
    assert res.find("F 6.7")[0].arithmetic == "4 -3 concealment modifier of jungle in 20.21 (F 6.7) = 1 vs TQ 4"
    res = go(st, "A", ["20.22"], dice=[4], stealthy=True)      # clear +1: 4 + 1 = 5 > 4, moves anyway
    assert not st.unit("A").concealed and st.unit("A").hex == st.hex("20.22")


@pytest.mark.rule("F 6.7")
def test_stealthy_odds_into_clear_are_three_in_ten():
    def attempt(dice):
        s = FteState(demo_map())
        place(s, [ft("A", "20.21", s, concealed=True, tq=4)])
        move(s, "A", ["20.22"], dice, Resolution(), stealthy=True)
        return s.unit("A").concealed
    assert enumerate_outcomes(attempt)[True] == Fraction(3, 10)


@pytest.mark.rule("F 6.7")
def test_stealthy_is_one_hex_and_passes_stealthy_to_opfire(st):
    place(st, [ft("A", "20.22", st, concealed=True), ft("N", "22.19", st, side="NVA")])
    with pytest.raises(RuleViolation) as e:
        go(st, "A", ["20.21", "21.21"], stealthy=True)
    assert e.value.rule == "F 6.7"
    flags = []
    go(st, "A", ["21.22"], dice=[1], stealthy=True,
       opfire=lambda s, ids, h, d, r, **kw: flags.append(kw.get("stealthy")) or False)
    assert flags == [True] and st.unit("A").concealed      # no LoS-based loss for a stealthy mover


@pytest.mark.rule("F 6.7", "F 22.0")
def test_dummy_failing_stealth_is_removed(st):
    place(st, [Unit("D", "NVA", role="dummy", tq=3, concealed=True, hex=st.hex("20.21"))])
    go(st, "D", ["20.22"], dice=[9], stealthy=True)
    assert st.unit("D").hex is None


# --------------------------------------------------------------------------- helicopters (F 6.8)

@pytest.mark.rule("F 6.8")
def test_helicopter_flies_at_one_mp_a_hex_and_changes_altitude_by_one(st):
    place(st, [heli("H", "20.22", st, altitude="high")])
    calls = []
    res = go(st, "H", ["21.22", "22.21", "23.21", "24.20"], altitude_end="treetop",
             opfire=lambda s, ids, h, d, r: calls.append(s.label(h)) or False)
    assert res.result["spent"] == 4 and st.unit("H").altitude == "treetop"
    assert calls == ["21.22", "22.21", "23.21", "24.20", "24.20"]    # the altitude change draws fire too
    with pytest.raises(RuleViolation):
        go(st, "H", ["23.21"], altitude_start="high", altitude_end="ground")
    with pytest.raises(RuleViolation) as e:
        go(st, "H", [], altitude_start="treetop")
    assert "one level" in e.value.reason


@pytest.mark.rule("F 6.8")
def test_no_landing_in_jungle_or_hamlet_and_two_mp_on_the_ground(st):
    place(st, [heli("H", "24.22", st)])
    with pytest.raises(RuleViolation) as e:
        go(st, "H", ["24.23"], altitude_end="ground")        # hamlet
    assert e.value.rule == "F 6.8"
    go(st, "H", ["23.23"], altitude_end="ground")
    assert st.unit("H").altitude == "ground"
    with pytest.raises(RuleViolation):
        go(st, "H", ["23.24", "23.25", "23.26"])             # 3 MP at ground level, 2 allowed
    go(st, "H", ["23.24", "23.25"])


@pytest.mark.rule("F 6.8", "F 5.0")
def test_hover_is_a_move_open_to_opfire(st):
    place(st, [heli("H", "22.19", st)])
    calls = []
    res = go(st, "H", [], opfire=lambda s, ids, h, d, r: calls.append(s.label(h)) or False)
    assert calls == ["22.19"] and res.result["path"] == [] and "hovers" in res.text()


# --------------------------------------------------------------------------- transport (F 6.9)

@pytest.mark.rule("F 6.9")
def test_troops_aboard_and_loaded_units_move_with_the_carrier(st):
    place(st, [heli("S", "23.23", st, altitude="ground"), ft("A", "23.23", st, men=4, loaded_in="S"),
               Unit("L", "US", role="leader", men=1, hex=st.hex("23.23"), loaded_in="S", injury=True)])
    st.casualties["W"] = CasualtyMarker("W", "WIA", "US", hex=st.hex("23.23"), carried_by="A")
    st.unit("A").carrying = ["W"]
    assert troops_aboard(st, "S") == 4 + 1 + 1 + 1
    check_capacity(st, "S")
    with pytest.raises(RuleViolation) as e:
        check_capacity(st, "S", extra=1)
    assert e.value.rule == "F 6.9" and "takes 7" in e.value.reason
    with pytest.raises(RuleViolation) as e:
        go(st, "A", ["23.24"])
    assert e.value.rule == "F 6.9"
    go(st, "S", ["23.24"], altitude_start="treetop")
    assert st.unit("A").hex == st.unit("L").hex == st.casualties["W"].hex == st.hex("23.24")
    assert apc("V", "23.26", st).capacity == 8


# --------------------------------------------------------------------------- leaving the map

@pytest.mark.rule("F 6.1", "F 6.5", "F 7.5.3")
def test_leaving_the_map(st):
    place(st, [ft("A", "17.23", st), ft("N", "17.24", st, side="NVA")])
    with pytest.raises(RuleViolation):
        go(st, "A", [], exit_map=True)                       # nothing to evacuate
    st.casualties["W"] = CasualtyMarker("W", "WIA", "NVA", hex=st.hex("17.24"), carried_by="N")
    st.unit("N").carrying = ["W"]
    res = go(st, "N", [], exit_map=True)
    assert res.result["exited"] and res.result["spent"] == 1
    assert st.unit("N").hex is None and "W" not in st.casualties and st.vp["NVA/VC"] == 1
    st.casualties["K"] = CasualtyMarker("K", "KIA", "US", hex=st.hex("17.23"), carried_by="A")
    st.unit("A").carrying = ["K"]
    with pytest.raises(RuleViolation) as e:
        go(st, "A", [], exit_map=True)                       # US infantry need a scenario rule
    assert e.value.rule == "F 7.5.3"
    st.us_may_carry_off = True
    go(st, "A", [], exit_map=True)
    assert st.vp["US"] == 2
    place(st, [ft("B", "20.22", st)])
    with pytest.raises(RuleViolation):
        go(st, "B", [], exit_map=True, scenario_exit=True)   # not an edge hex
    go(st, "B", ["19.23", "18.23", "17.23"], exit_map=True, scenario_exit=True)


# --------------------------------------------------------------------------- immobilized vehicles (F 6.10)

@pytest.mark.rule("F 6.10")
def test_abandoning_an_immobilized_vehicle(st):
    place(st, [apc("V", "23.24", st, immobilized=True), ft("A", "23.24", st, loaded_in="V")])
    st.casualties["K"] = CasualtyMarker("K", "KIA", "US", hex=st.hex("23.24"), carried_by="V")
    with pytest.raises(RuleViolation) as e:
        go(st, "V", ["23.25"])
    assert e.value.rule == "F 6.10"
    res = Resolution()
    crew = abandon(st, "V", res)
    assert crew.suppressed and crew.reduced and crew.activated and crew.hex == st.hex("23.24")
    a = st.unit("A")
    assert a.loaded_in is None and a.activated and a.on_map
    assert st.casualties["K"].carried_by is None and st.casualties["K"].hex == st.hex("23.24")
    assert st.unit("V").hex is None
    with pytest.raises(RuleViolation):
        abandon(st, "V", Resolution())


@pytest.mark.rule("F 6.2")
def test_entry_problem_reports_rule_and_reason(st):
    place(st, [ft("A", "20.22", st), ft("N", "20.21", st, side="NVA")])
    assert entry_problem(st, [st.unit("A")], st.hex("20.23")) == ("", "")
    assert entry_problem(st, [st.unit("A")], st.hex("20.21"))[0] == "F 6.2"
