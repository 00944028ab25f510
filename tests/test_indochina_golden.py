"""Golden tests: every Indochina worked example the engine covers, with its exact numbers."""
import pytest

from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.indochina import Combat, Side, crt_chooser, final_odds, raw_odds, resolve_combat
from wargames.indochina.events import roll_event
from wargames.indochina.mobilization import FESA, MobilizationPhase
from wargames.indochina.political import PoliticalPoints
from wargames.indochina.weather import monsoon_air_availability

COM, FEF = Side.COMMUNIST, Side.FEF


@pytest.mark.rule("IC 13.2", "IC 13.1", "IC 13.12", "IC 13.0")
def test_attacker_stronger_14_vs_5_is_2_to_1():
    label, how = raw_odds(14, 5)
    assert label == "2/1" and "2.80/1" in how
    raw, final, res = final_odds(Combat(COM, (14,), (5,)))
    assert (raw, final) == ("2/1", "2/1")           # "a final odds of 2/1": no shifts in the example
    raw, _, res = final_odds(Combat(COM, (8, 6), (3, 2)))   # several units on each side add up (13.12)
    assert raw == "2/1" and res.steps[0].text == "attack strength 8 + 6 = 14; defence 3 + 2 = 5"


@pytest.mark.rule("IC 13.2")
def test_defender_stronger_6_vs_10_is_1_to_2():
    label, how = raw_odds(6, 10)
    assert label == "1/2" and "1/1.67" in how
    assert final_odds(Combat(COM, (6,), (10,)))[1] == "1/2"


@pytest.mark.rule("IC 13.21", "IC 31.21")
def test_four_to_one_with_one_right_and_two_left_is_3_to_1():
    """4/1; General Offensive 1 right; terrain 2 left for an FEF defender -> 3/1."""
    c = Combat(COM, (8,), (2,), terrain="mountain", general_offensive=True)
    raw, final, res = final_odds(c)
    assert (raw, final) == ("4/1", "3/1")
    shift_steps = [s for s in res.steps if s.rule in ("IC 13.21", "IC 31.21") and s.result in (1, 2)]
    assert sorted(s.result for s in shift_steps) == [1, 2]
    assert res.steps[-1].arithmetic == "1 right - 2 left = -1"


@pytest.mark.rule("IC 13.22")
def test_ten_to_one_starts_at_7_to_1_and_two_left_gives_5_to_1():
    raw, final, res = final_odds(Combat(COM, (10,), (1,), terrain="mountain"))
    assert (raw, final) == ("10/1", "5/1")
    assert any("the baseline is 7/1" in s.text for s in res.steps)


@pytest.mark.rule("IC 13.31", "IC 16.3")
def test_fortified_fef_chooses_assault_and_odds_are_3_to_1_before_shifts():
    c = Combat(COM, (9,), (3,), fortified=True)
    assert crt_chooser(c) is FEF
    with ScriptedDice([4]) as d:
        res = resolve_combat(c, "Assault", FEF, d)
    assert res.result["raw"] == "3/1" and res.result["table"] == "Assault"
    assert res.result["column"] == "2/1"               # after the fortification's one left shift
    assert res.steps[0].text == "the FEF player chooses the Assault CRT"
    with pytest.raises(RuleViolation) as e:              # the Communist may not choose here
        resolve_combat(c, "Mobile", COM, ScriptedDice([4]))
    assert e.value.rule == "IC 13.31"


@pytest.mark.rule("IC 28.2", "IC 13.31")
def test_ambush_at_pleiku():
    """A mechanized (Heavy) FEF group is ambushed and must attack the VM regiment: two left, the Communist picks."""
    c = Combat(FEF, (6,), (3,), terrain="jungle", mode="ambush")
    assert crt_chooser(c) is COM
    raw, final, res = final_odds(c)
    assert raw == "2/1"
    assert [s.result for s in res.steps if s.rule == "IC 28.2"] == [2]
    assert final == "1/3"                               # 2/1, jungle 2 left, ambush 2 left: clamped at 1/3
    assert "nowhere to go" in res.steps[-1].text


@pytest.mark.rule("IC 26.3")
def test_monsoon_air_availability_6_and_3_give_3_and_2():
    res = Resolution()
    assert monsoon_air_availability({"airstrike": 6, "air transport": 3}, res) == {"airstrike": 3, "air transport": 2}
    assert [s.arithmetic for s in res.steps] == ["ceil(6/2) = 3", "ceil(3/2) = 2"]


@pytest.mark.rule("IC 6.1", "IC Random Events Table")
def test_random_event_reading_1_2_is_event_12():
    with ScriptedDice([1, 2]) as d:
        event = roll_event(d)
    assert (event.number, event.name) == (12, "Dau Tranh")
    assert event.provenance.kind == "reconstructed"        # the example gives the name only, not the effect


@pytest.mark.rule("IC 7.22", "IC 5.3")
def test_mobilization_example_vna_group_then_french_mechanized_group():
    pp = PoliticalPoints(fef=40, communist=40)
    phase = MobilizationPhase(FEF, pp)
    assert phase.mobilize("VNA infantry group", "Saigon base") == 1
    assert phase.mobilize("French mechanized group", FESA) == 3
    assert pp.fef == 36                                   # 4 points in all
    assert [s.result for s in phase.log.steps if s.rule == "IC 7.22"] == [1, 3]


@pytest.mark.rule("IC 15.71")
def test_buying_airborne_supply():
    from wargames.indochina.mobilization import AIRBORNE_SUPPLY_COST, create_airborne_supply
    pp = PoliticalPoints(fef=10, communist=10)
    box: list[str] = []
    phase = MobilizationPhase(FEF, pp)
    assert create_airborne_supply(phase, box, markers_in_play=0) == "airborne supply 1"
    assert pp.fef == 10 - AIRBORNE_SUPPLY_COST and box == ["airborne supply 1"]
    with pytest.raises(RuleViolation):
        create_airborne_supply(phase, box, markers_in_play=0, us=True)
    with pytest.raises(RuleViolation):
        create_airborne_supply(MobilizationPhase(COM, pp), box, markers_in_play=0)
