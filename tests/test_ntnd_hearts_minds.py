"""NT 7 Hearts and Minds (with 10.2.1, 10.5.1, 15.3, 26.8, 28.4.2): one test per condition, scripted dice, and
exact odds where a roll decides (the same procedures run under core.dist enumeration)."""
from fractions import Fraction as F

import pytest

from wargames.core import Resolution, ScriptedDice, enumerate_outcomes
from wargames.core.errors import RuleViolation
from wargames.ntnd import hearts_minds as hm
from wargames.ntnd.politics import Policy
from wargames.ntnd.state import NtndState

AREAS = ("I", "II", "III", "IV", "Laos", "Cambodia")
I_TOWNS = ("1310", "1409", "1510", "1610", "1811", "1812", "1913", "1914", "2014")
LAOS_TOWNS = ("0405", "0708", "0711", "0906", "1014", "1111", "1210", "1212", "1415")
I_COUNTRY = "1410"       # an I Corps hex with no town
LAOS_COUNTRY = "0104"


def position(**boxes) -> NtndState:
    s = NtndState(turn=10, phase="hearts_minds")
    s.hearts_minds = {a: boxes.get(a, "neutral") for a in AREAS}
    s.replacement_points = {"US": F(2), "SEATO": F(1), "Indochinese": F(1), "SVN": F(1)}
    return s



def us(n: int) -> str:
    return ["US 1/1", "US 2/1", "US 3/1", "US 1/1 Cav", "US 2/1 Cav", "US 3/1 Cav", "USMC 1", "USMC 5", "USMC 7",
            "US 11 ACR"][n]


# ------------------------------------------------------------------------------------------------ 7.2 spending

@pytest.mark.rule("NT 7.2.1")
@pytest.mark.parametrize("pool,area", [("SVN", "Laos"), ("SVN", "Cambodia"), ("Indochinese", "I"),
                                       ("Indochinese", "IV")])
def test_pools_reach_only_their_areas(pool, area):
    s = position()
    with pytest.raises(RuleViolation) as e:
        hm.check_allocation(s, {(pool, area): 1})
    assert e.value.rule == "NT 7.2.1"


@pytest.mark.rule("NT 7.2.1")
@pytest.mark.parametrize("pool,area", [("US", "Laos"), ("SEATO", "Cambodia"), ("US", "I"), ("SVN", "IV"),
                                       ("Indochinese", "Laos")])
def test_pools_reach_their_areas(pool, area):
    assert hm.check_allocation(position(), {(pool, area): 1}) == {area: 1}


@pytest.mark.rule("NT 4.2.6")
def test_half_points_combine_into_whole_points_only():
    s = position()
    s.replacement_points["SVN"] = F(1, 2)
    assert hm.check_allocation(s, {("SVN", "I"): F(1, 2), ("US", "I"): F(1, 2)}) == {"I": 1}
    with pytest.raises(RuleViolation, match="half points"):
        hm.check_allocation(s, {("SVN", "I"): F(1, 2)})


@pytest.mark.rule("NT 7.2.1")
def test_a_pool_cannot_overspend():
    with pytest.raises(RuleViolation, match="holds 1"):
        hm.check_allocation(position(), {("SEATO", "I"): 2})


@pytest.mark.rule("NT 7.2.2")
def test_no_point_beyond_allied_control():
    s = position(I="pro_allied")
    assert hm.check_allocation(s, {("US", "I"): 1}) == {"I": 1}
    with pytest.raises(RuleViolation, match="only 1 point"):
        hm.check_allocation(s, {("US", "I"): 2})


@pytest.mark.rule("NT 7.2.1")
@pytest.mark.parametrize("points,lost", [(1, 1), (2, 1), (3, 2), (4, 2), (5, 3)])
def test_corruption_takes_half_rounded_up_on_1_or_2(points, lost):
    dist = enumerate_outcomes(lambda d: hm.corruption_loss(points, d))
    assert dict(dist) == {0: F(2, 3), lost: F(1, 3)}
    for roll, expect in ((1, lost), (2, lost), (3, 0), (6, 0)):
        with ScriptedDice([roll]) as d:
            assert hm.corruption_loss(points, d) == expect


@pytest.mark.rule("NT 7.2.2")
def test_each_point_moves_the_marker_and_every_point_leaves_its_pool():
    s = position(I="pro_communist")
    res = Resolution()
    with ScriptedDice([3]) as d:
        new = hm.spend_replacement_points(s, {("US", "I"): 1, ("SVN", "I"): 1, ("SEATO", "Laos"): 1}, d, res=res)
    assert new.hearts_minds["I"] == "pro_allied" and new.hearts_minds["Laos"] == "pro_allied"
    assert new.replacement_points == {"US": 1, "SEATO": 0, "Indochinese": 1, "SVN": 0}
    assert s.hearts_minds["I"] == "pro_communist" and s.replacement_points["US"] == 2   # the old position stands


@pytest.mark.rule("NT 7.2.1")
def test_the_allied_player_chooses_which_points_corruption_takes():
    s = position()
    alloc = {("US", "I"): 2, ("SEATO", "Laos"): 1}
    with ScriptedDice([2]) as d:
        new = hm.spend_replacement_points(s, alloc, d, lose={"I": 2})
    assert (new.hearts_minds["I"], new.hearts_minds["Laos"]) == ("neutral", "pro_allied")
    assert new.replacement_points["US"] == 0 and new.replacement_points["SEATO"] == 0   # lost points are spent
    with ScriptedDice([1]) as d:
        new = hm.spend_replacement_points(s, alloc, d, lose={"I": 1, "Laos": 1})
    assert (new.hearts_minds["I"], new.hearts_minds["Laos"]) == ("pro_allied", "neutral")
    for wrong in (None, {"I": 1}, {"Laos": 2}, {"II": 2}):
        with pytest.raises(RuleViolation, match="corruption takes 2"), ScriptedDice([2]) as d:
            hm.spend_replacement_points(s, alloc, d, lose=wrong)


@pytest.mark.rule("NT 7.2.2")
def test_points_from_communist_control_are_rolled_for():
    s = position(I="communist_control")
    with ScriptedDice([5, 3, 4]) as d:     # no corruption; first point wasted on 3, second moves the marker
        new = hm.spend_replacement_points(s, {("US", "I"): 2}, d)
    assert new.hearts_minds["I"] == "pro_communist"
    with ScriptedDice([5, 4]) as d:        # the first point moves it out; the second needs no roll
        assert hm.spend_replacement_points(s, {("US", "I"): 2}, d).hearts_minds["I"] == "neutral"


@pytest.mark.rule("NT 7.2.1", "NT 7.2.2")
def test_exact_odds_of_two_points_from_communist_control():
    s = position(I="communist_control")
    dist = enumerate_outcomes(lambda d: hm.spend_replacement_points(s, {("US", "I"): 2}, d,
                                                                    lose={"I": 1}).hearts_minds["I"])
    assert dict(dist) == {"neutral": F(1, 3), "pro_communist": F(1, 3), "communist_control": F(1, 3)}
    # from any other box no point is rolled for: only corruption matters
    s2 = position(I="pro_communist")
    dist = enumerate_outcomes(lambda d: hm.spend_replacement_points(s2, {("US", "I"): 2}, d,
                                                                    lose={"I": 1}).hearts_minds["I"])
    assert dict(dist) == {"pro_allied": F(2, 3), "neutral": F(1, 3)}


# ------------------------------------------------------------------------------------------------ 7.3 occupation

def hold(s, towns):
    for k, label in enumerate(towns):
        s.place(us(k), label)
    return s


@pytest.mark.rule("NT 7.3")
def test_holding_every_town_moves_the_marker():
    s = hold(position(I="pro_communist"), I_TOWNS)
    with ScriptedDice([]) as d:
        assert hm.occupation_shift(s, d).hearts_minds["I"] == "neutral"
    s.remove(us(0), eliminated=False)              # one town empty: nothing
    with ScriptedDice([]) as d:
        assert hm.occupation_shift(s, d).hearts_minds["I"] == "pro_communist"


@pytest.mark.rule("NT 7.3")
def test_occupation_from_communist_control_needs_4_to_6():
    s = hold(position(I="communist_control"), I_TOWNS)
    dist = enumerate_outcomes(lambda d: hm.occupation_shift(s, d).hearts_minds["I"])
    assert dict(dist) == {"pro_communist": F(1, 2), "communist_control": F(1, 2)}
    with ScriptedDice([3]) as d:
        assert hm.occupation_shift(s, d).hearts_minds["I"] == "communist_control"


@pytest.mark.rule("NT 7.3")
def test_occupation_leaves_allied_control_where_it_is():
    s = hold(position(I="allied_control"), I_TOWNS)
    with ScriptedDice([]) as d:
        assert hm.occupation_shift(s, d).hearts_minds["I"] == "allied_control"


@pytest.mark.rule("NT 8.9.1", "NT 7.3")
def test_militia_abroad_do_not_hold_towns():
    s = position(Laos="pro_communist")
    units = ["Lao inf 1", "Lao inf 2", "Lao ranger 1", "Lao ranger 2", "Lao militia 1", "Lao militia 2",
             "Lao militia 3", "Lao Guard", "SVN militia 1"]
    for u, label in zip(units, LAOS_TOWNS):
        s.place(u, label)
    with ScriptedDice([]) as d:
        assert hm.occupation_shift(s, d).hearts_minds["Laos"] == "pro_communist"
    s.remove("SVN militia 1", eliminated=False)
    s.place("Lao ParaCdo", LAOS_TOWNS[-1])
    with ScriptedDice([]) as d:
        assert hm.occupation_shift(s, d).hearts_minds["Laos"] == "neutral"


@pytest.mark.rule("NT 22.4", "NT 6.2.1")
def test_inverted_communists_do_not_hold_a_town_but_face_up_ones_do():
    s = position()
    s.place("VC cadre 1", "1610", face_up=False)
    assert hm.holder(s, "1610") is None
    s.update("VC cadre 1", face_up=True)
    assert hm.holder(s, "1610") == "communist"
    s.place("PL cadre 1", "1409")
    assert hm.holder(s, "1409") is None            # a Pathet Lao cadre abroad (8.9.1)


# ------------------------------------------------------------------------------------------------ what boxes give

@pytest.mark.rule("NT 7.3.1", "NT 4.2.2")
@pytest.mark.parametrize("boxes,points", [
    ({"I": "pro_allied"}, F(1, 2)), ({"I": "allied_control"}, F(1)),
    ({"I": "pro_allied", "II": "pro_allied", "III": "allied_control"}, F(2)),
    ({"I": "allied_control", "II": "allied_control", "III": "allied_control"}, F(2)),
    ({"Laos": "allied_control", "Cambodia": "pro_allied"}, F(0)),
    ({"I": "pro_communist", "II": "neutral"}, F(0))])
def test_svn_replacement_points(boxes, points):
    assert hm.svn_replacement_points(position(**boxes)) == points


@pytest.mark.rule("NT 7.3.1")
def test_an_event_can_withhold_the_svn_points():
    assert hm.svn_replacement_points(position(I="allied_control"), next_turn={"no_svn_replacements"}) == 0


@pytest.mark.rule("NT 7.3.3")
def test_militia_morale_bonus_only_in_allied_control():
    s = position(I="allied_control", II="pro_allied")
    s.place("SVN militia 1", I_COUNTRY)
    s.place("SVN militia 2", "1614")
    s.place("ARVN 1", "1411")
    assert [hm.militia_morale_bonus(s, u) for u in ("SVN militia 1", "SVN militia 2", "ARVN 1")] == [1, 0, 0]


@pytest.mark.rule("NT 7.3.4")
def test_no_guerrillas_into_allied_control():
    s = position(I="allied_control", II="pro_allied")
    assert not hm.guerrillas_may_be_placed(s, "I")
    assert hm.guerrillas_may_be_placed(s, "II")


@pytest.mark.rule("NT 7.3.4", "NT 26.8")
def test_uprising_placement_roll():
    s = position(I="allied_control")
    assert dict(enumerate_outcomes(lambda d: hm.uprising_placement(s, "I", d))) == {True: F(2, 3), False: F(1, 3)}
    with ScriptedDice([5]) as d:
        assert not hm.uprising_placement(s, "I", d)
    with ScriptedDice([4]) as d:
        assert hm.uprising_placement(s, "I", d)
    with ScriptedDice([]) as d:                    # a pro-Allied corps: no roll
        assert hm.uprising_placement(s, "II", d)
    s.policy = Policy(vietnamization="full")       # Full Vietnamization: every placement rolls (26.8)
    assert hm.uprising_placement_roll_needed(s, "II")


@pytest.mark.rule("NT 7.4.1")
def test_communist_control_recruits():
    s = position(I="communist_control", Laos="communist_control", II="pro_communist")
    assert hm.control_recruits(s) == {"I": {"regiment": 1, "cadre": 1, "supply": 1},
                                      "Laos": {"regiment": 1, "cadre": 1, "supply": 1}}


@pytest.mark.rule("NT 7.4.3")
def test_allied_movement_penalty_in_communist_control():
    s = position(I="communist_control", II="pro_communist")
    assert hm.allied_movement_penalty(s, "I") and not hm.allied_movement_penalty(s, "II")
    assert not hm.allied_movement_penalty(s, "NV")


# ------------------------------------------------------------------------------------------------ 7.4 Communist

def guerrillas(**boxes):
    s = position(**boxes)
    s.place("VC cadre 1", I_COUNTRY, face_up=False)
    s.place("VC cadre 2", "1411")
    s.place("supply 1", "1511")
    return s


@pytest.mark.rule("NT 7.4")
def test_terror_squads_and_bribes_move_the_marker_and_go_back_to_the_mix():
    s = guerrillas(I="pro_allied")
    with ScriptedDice([]) as d:
        new = hm.terror_and_bribes(s, "I", ["VC cadre 1", "supply 1"], d)
    assert new.hearts_minds["I"] == "pro_communist"
    assert "VC cadre 1" not in new.pieces and "VC cadre 1" not in new.dead
    assert any(c.id == "VC cadre 1" for c in new.available("communist"))
    assert new.track == s.track                    # no political points (7.4)


@pytest.mark.rule("NT 7.4")
def test_from_allied_control_each_unit_rolls():
    s = guerrillas(I="allied_control")
    with ScriptedDice([3, 4]) as d:                # the first has no effect; the second moves it out
        assert hm.terror_and_bribes(s, "I", ["VC cadre 1", "VC cadre 2"], d).hearts_minds["I"] == "pro_allied"
    dist = enumerate_outcomes(lambda d: hm.terror_and_bribes(s, "I", ["VC cadre 1", "VC cadre 2"], d)
                              .hearts_minds["I"])
    assert dict(dist) == {"neutral": F(1, 2), "pro_allied": F(1, 4), "allied_control": F(1, 4)}


@pytest.mark.rule("NT 15.3")
def test_green_berets_make_the_first_units_roll():
    s = guerrillas(I="neutral")
    s.place("US GB 1", "1512")
    dist = enumerate_outcomes(lambda d: hm.terror_and_bribes(s, "I", ["VC cadre 1", "VC cadre 2"], d)
                              .hearts_minds["I"])
    assert dict(dist) == {"communist_control": F(1, 2), "pro_communist": F(1, 2)}   # only the first rolls
    s.place("US GB 2", "1610")
    dist = enumerate_outcomes(lambda d: hm.terror_and_bribes(s, "I", ["VC cadre 1", "VC cadre 2"], d)
                              .hearts_minds["I"])
    assert dist["communist_control"] == F(1, 4)


@pytest.mark.rule("NT 7.4", "NT 8.9.1")
def test_terror_refusals():
    s = guerrillas(I="neutral")
    s.place("PL cadre 1", "1512")        # a Pathet Lao cadre in I Corps: abroad
    s.place("NVA 304", "1914")
    s.place("KR cadre 1", LAOS_COUNTRY)
    cases = [(["PL cadre 1"], "NT 8.9.1"), (["NVA 304"], "NT 7.4"), (["KR cadre 1"], "NT 7.4"),
             (["VC cadre 1", "VC cadre 1"], "NT 7.4"), (["VC cadre 1", "VC cadre 2", "supply 1"], "NT 7.4")]
    for units, rule in cases:
        with pytest.raises(RuleViolation) as e, ScriptedDice([]) as d:
            hm.terror_and_bribes(s, "I", units, d)
        assert e.value.rule == rule, units
    assert "VC cadre 1" in s.pieces


@pytest.mark.rule("NT 28.4.2")
def test_phoenix():
    s = position(I="communist_control", II="pro_communist")
    s.place("SVN Phoenix 1", I_COUNTRY)
    s.place("SVN Phoenix 2", "1614")
    assert dict(enumerate_outcomes(lambda d: hm.expend_phoenix(s, "SVN Phoenix 1", d).hearts_minds["I"])) == \
        {"pro_communist": F(1, 2), "communist_control": F(1, 2)}
    assert dict(enumerate_outcomes(lambda d: hm.expend_phoenix(s, "SVN Phoenix 2", d).hearts_minds["II"])) == \
        {"neutral": F(2, 3), "pro_communist": F(1, 3)}
    with ScriptedDice([3]) as d:
        new = hm.expend_phoenix(s, "SVN Phoenix 2", d)
    assert new.hearts_minds["II"] == "neutral" and "SVN Phoenix 2" not in new.pieces
    assert "SVN Phoenix 2" not in new.dead and new.track == s.track


# ------------------------------------------------------------------------------------------------ forced moves

@pytest.mark.rule("NT 7.5")
def test_bombing_moves_each_bombed_area_once():
    s = position(I="pro_allied", II="neutral")
    new = hm.bombing_shift(s, ["1610", "1811", "2118", "1004", I_COUNTRY])
    assert (new.hearts_minds["I"], new.hearts_minds["II"], new.hearts_minds["III"]) == \
        ("neutral", "pro_communist", "neutral")
    assert hm.bombing_shift(position(I="communist_control"), ["1610"]).hearts_minds["I"] == "communist_control"
    assert hm.bombing_shift(s, [I_COUNTRY]).hearts_minds == s.hearts_minds


@pytest.mark.rule("NT 10.2.1")
def test_violation_moves_away_from_the_violator_unless_he_controls():
    s = position(Laos="neutral", Cambodia="communist_control")
    assert hm.violation_shift(s, "Laos", "allied").hearts_minds["Laos"] == "pro_communist"
    assert hm.violation_shift(s, "Laos", "communist").hearts_minds["Laos"] == "pro_allied"
    assert hm.violation_shift(s, "Cambodia", "communist").hearts_minds["Cambodia"] == "communist_control"
    assert hm.violation_shift(s, "Cambodia", "allied").hearts_minds["Cambodia"] == "communist_control"
    s2 = position(Laos="allied_control")
    assert hm.violation_shift(s2, "Laos", "allied").hearts_minds["Laos"] == "allied_control"
    assert hm.violation_shift(s2, "Laos", "communist").hearts_minds["Laos"] == "allied_control"


@pytest.mark.rule("NT 10.5.1")
def test_communist_entry_moves_one_or_two_boxes():
    s = position(Cambodia="pro_communist")
    assert hm.communist_entry_shift(s, "Cambodia", nva=False).hearts_minds["Cambodia"] == "neutral"
    assert hm.communist_entry_shift(s, "Cambodia", nva=True).hearts_minds["Cambodia"] == "pro_allied"


@pytest.mark.rule("NT 7")
def test_unknown_area_or_missing_marker():
    s = position()
    with pytest.raises(RuleViolation):
        hm.box(s, "NV")
    del s.hearts_minds["I"]
    with pytest.raises(RuleViolation, match="not been placed"):
        hm.box(s, "I")
