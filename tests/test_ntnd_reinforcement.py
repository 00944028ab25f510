"""The Allied reinforcement and replacement phase (wargames.ntnd.reinforcement): NT 4.2, 4.3, 4.5.2-4.5.3, 5."""
from dataclasses import replace
from fractions import Fraction as F

import pytest

from wargames.core.dice import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.ntnd.politics import PoliticalTrack
from wargames.ntnd.reinforcement import (arrivals, close_replacements, draft, enter, entry_points, income,
                                         montagnard_limit, move_firebase, purchase, reassign_corps,
                                         reassign_ranger, receive_replacements, withdraw_units)
from wargames.ntnd.state import NtndState

SAIGON, BIEN_HOA, DA_NANG, HUE, NHA_TRANG = "1327", "1326", "1811", "1610", "2123"
PLEIKU, JUNGLE, MOUNTAIN_II = "1718", "1720", "1724"


def fresh(turn=1, points=None, **policy):
    s = NtndState(turn=turn, phase="reinforcement")
    s.hearts_minds.update({area: "neutral" for area in ("I", "II", "III", "IV", "Laos", "Cambodia")})
    if policy:
        s.policy = replace(s.policy, **policy)
    if points:
        s.replacement_points.update({k: F(v) for k, v in points.items()})
    return s


@pytest.mark.rule("NT 7.3.1", "NT 4.2.2", "NT 24.2.5", "NT 23.4")
def test_income():
    s = fresh()
    assert income(s)["SVN"] == 0
    s.hearts_minds.update(I="pro_allied", Laos="allied_control")       # Laos is not a corps of South Vietnam
    assert income(s)["SVN"] == F(1, 2)
    s.hearts_minds.update(II="allied_control")
    assert income(s)["SVN"] == F(3, 2)
    s.hearts_minds.update(III="allied_control", IV="allied_control")
    assert income(s)["SVN"] == 2                                     # "up to two"
    assert income(s, next_turn=("no_svn_replacements",))["SVN"] == 0   # a random event withholds them
    assert income(s) == {"US": 2, "SEATO": 1, "Indochinese": 1, "SVN": 2}
    s.policy = s.policy.declare_full(1)
    assert income(s, {"SVN": 3})["US"] == 3 and income(s, {"SVN": 3})["SVN"] == 5
    assert income(fresh(peace_party=True))["US"] == 1
    with pytest.raises(RuleViolation):
        income(s, {"Soviet": 1})
    s = fresh(points={"SVN": F(1, 2)})
    s.hearts_minds["I"] = "pro_allied"
    new, _ = receive_replacements(s)
    assert new.replacement_points["SVN"] == 1 and s.replacement_points["SVN"] == F(1, 2)


@pytest.mark.rule("NT 4.2.6")
def test_only_a_half_point_is_saved():
    s = fresh(points={"US": 2, "SVN": F(3, 2), "SEATO": F(1, 2), "Indochinese": 1})
    new, res = close_replacements(s)
    assert new.replacement_points == {"US": 0, "SEATO": F(1, 2), "Indochinese": 0, "SVN": F(1, 2)}
    assert res.result == {"US": 2, "SEATO": 0, "Indochinese": 1, "SVN": 1}


@pytest.mark.rule("NT 4.5.2", "NT 4.5.3")
def test_the_draft_costs_more_each_time_in_a_year():
    s = fresh()
    s, res = draft(s, ScriptedDice([4]))
    assert s.replacement_points["SVN"] == 4 and s.track.points == 96 and s.drafts_this_year == 1
    s, res = draft(s, ScriptedDice([3]))
    assert s.replacement_points["SVN"] == 7 and s.track.points == 90 and res.steps[0].rule == "NT 4.5.3"
    s.drafts_this_year = 2
    s, _ = draft(s, ScriptedDice([2]))
    assert s.track.points == 84


def dead(s, unit):
    s.dead.add(unit)
    return s


@pytest.mark.rule("NT 4.2.3", "NT 4.2.5", "NT 4.2.7", "NT 24.2.4", "NT 23.4", "NT 21.1")
def test_replacing_eliminated_units():
    s = dead(fresh(points={"SVN": 1, "US": 2, "SEATO": 1, "Indochinese": 1}), "ARVN 1")
    new, res = purchase(s, "ARVN 1", pay={"SVN": 1})
    assert new.purchased == {"ARVN 1": 2} and "ARVN 1" not in new.dead and new.track.points == 100
    assert new.replacement_points["SVN"] == 0 and s.replacement_points["SVN"] == 1
    new, _ = purchase(s, "ARVN 1", pay={"US": 1})                   # US points may be given as aid
    assert new.replacement_points["US"] == 1
    with pytest.raises(RuleViolation, match="NT 4.2.5"):
        purchase(s, "ARVN 1", pay={"Indochinese": 1})
    with pytest.raises(RuleViolation, match="NT 4.2.3"):
        purchase(s, "ARVN 2")                                        # never eliminated
    dead(s, "US 1/1")
    new, _ = purchase(s, "US 1/1")
    assert new.track.points == 98 and new.replacement_points["US"] == 1
    with pytest.raises(RuleViolation, match="NT 4.2.5"):
        purchase(s, "US 1/1", pay={"SVN": 1})
    rok = s.mix.select(nationality="ROK")[0].id
    dead(s, rok)
    assert purchase(s, rok)[0].track.points == 98
    full = s.copy()
    full.policy = full.policy.declare_full(1)
    assert purchase(full, "US 1/1")[0].track.points == 100 and purchase(full, rok)[0].track.points == 99
    # the random event that makes US replacements cost points again, for the turn after it (21)
    assert purchase(full, "US 1/1", next_turn=("us_replacements_cost_pp",))[0].track.points == 98
    peace = s.copy()
    peace.policy = replace(peace.policy, peace_party=True)
    with pytest.raises(RuleViolation, match="NT 23.4"):
        purchase(peace, "US 1/1")
    dead(s, "US FB 1")
    s.place("US 2/1", SAIGON)
    new, _ = purchase(s, "US FB 1", location=SAIGON)                 # built, not replaced: no political points
    assert new.track.points == 100 and new.replacement_points["US"] == 1
    poor = dead(fresh(points={"SVN": F(1, 2)}), "ARVN 1")
    with pytest.raises(RuleViolation, match="NT 4.2.6"):
        purchase(poor, "ARVN 1")
    poor.replacement_points["US"] = F(1, 2)
    new, _ = purchase(poor, "ARVN 1", pay={"SVN": F(1, 2), "US": F(1, 2)})     # two halves combine
    assert new.replacement_points["SVN"] == 0 and new.replacement_points["US"] == 0
    with pytest.raises(RuleViolation, match="costs 1"):
        purchase(poor, "ARVN 1", pay={"SVN": F(1, 2)})


@pytest.mark.rule("NT 5.6.1", "NT 5.6.2", "NT 4.2.7", "NT 24.2.6", "NT 4.2.1")
def test_militia_and_firebases_are_placed_at_once():
    s = fresh(points={"SVN": 2, "US": 2, "SEATO": 1, "Indochinese": 1})
    s.place("ARVN 22", PLEIKU)
    new, _ = purchase(s, "SVN militia 1", location=PLEIKU)
    assert new.piece("SVN militia 1").location == PLEIKU and new.replacement_points["SVN"] == 1
    with pytest.raises(RuleViolation, match="NT 5.6.1"):
        purchase(s, "SVN militia 1", location="1717")                 # Kontum: no SVN unit there
    with pytest.raises(RuleViolation, match="NT 5.6.1"):
        purchase(s, "SVN militia 1", location=JUNGLE)
    with pytest.raises(RuleViolation, match="NT 4.2.7"):
        purchase(s, "SVN militia 1")
    s.place("US GB 1", JUNGLE)
    purchase(s, "SVN militia 1", location=JUNGLE)                     # a Green Beret raises militia (15.2)
    with pytest.raises(RuleViolation, match="NT 5.6.1"):
        purchase(s, "Cam militia 1", location=JUNGLE)
    full = s.copy()
    full.policy = full.policy.declare_full(1)
    assert purchase(full, "SVN militia 1", location=PLEIKU)[0].replacement_points["SVN"] == F(3, 2)
    s.place("US 1/1", SAIGON)
    new, _ = purchase(s, "US FB 1", location=SAIGON)
    assert new.piece("US FB 1").location == SAIGON
    with pytest.raises(RuleViolation, match="NT 5.6.2"):
        purchase(s, "US FB 1", location=PLEIKU)                       # ARVN there, not US
    with pytest.raises(RuleViolation, match="NT 4.2.1"):
        purchase(s, "US FB 3", location=SAIGON)                      # buyable from turn 4
    with pytest.raises(RuleViolation, match="NT 5.6.2"):
        purchase(new, "ARVN FB 1", location=JUNGLE)                   # only militia and a GB: no
    svn = fresh(points={"SVN": 2})
    svn.place("ARVN 1", JUNGLE)
    with pytest.raises(RuleViolation, match="NT 5.6.1"):
        purchase(svn, "SVN militia 1", location=JUNGLE)                # SVN unit, but no town and no GB
    svn.place("SVN militia 2", "1722")
    svn.place("SVN Montagnard 1", "1722")
    with pytest.raises(RuleViolation, match="NT 5.6.2"):
        purchase(svn, "ARVN FB 1", location="1722")                   # militia do not anchor a firebase
    purchase(svn, "ARVN FB 1", location=JUNGLE)
    s.turn = 4
    rok = s.mix.select(nationality="ROK", type="infantry")[0].id
    s.place(rok, BIEN_HOA)
    purchase(s, "SEATO FB", location=BIEN_HOA)


@pytest.mark.rule("NT 16.2", "NT 16.3", "NT 16.5")
def test_montagnards():
    s = fresh(points={"US": 2})
    s.place("US GB 1", MOUNTAIN_II)
    assert montagnard_limit(s) == 0
    with pytest.raises(RuleViolation, match="NT 16.2"):
        purchase(s, "SVN Montagnard 1", location=MOUNTAIN_II)
    s.hearts_minds["II"] = "pro_allied"
    new, _ = purchase(s, "SVN Montagnard 1", location=MOUNTAIN_II)
    assert new.replacement_points["US"] == 1
    with pytest.raises(RuleViolation, match="NT 16.2"):
        purchase(new, "SVN Montagnard 2", location=MOUNTAIN_II)
    s.place("US GB 2", JUNGLE)
    with pytest.raises(RuleViolation, match="NT 16.3"):
        purchase(s, "SVN Montagnard 1", location=JUNGLE)
    s.hearts_minds.update(I="allied_control", II="allied_control", Laos="allied_control")
    assert montagnard_limit(s) == 4
    s.hearts_minds.update(I="pro_allied")
    assert montagnard_limit(s) == 3
    s.standing["Laos"] = "allied"
    assert montagnard_limit(s) == 4


@pytest.mark.rule("NT 5.2.2", "NT 5.3.2", "NT 5.4", "NT 4.2.1")
def test_reinforcements_enter_at_their_corps_headquarters():
    s = fresh()
    assert "USMC 9" in arrivals(s) and "US 173 Abn" not in arrivals(s)
    new, _ = enter(s, "USMC 9", DA_NANG, corps="I")
    assert new.piece("USMC 9").corps == "I"
    with pytest.raises(RuleViolation, match="NT 5.4"):
        enter(s, "USMC 9", HUE, corps="I")
    with pytest.raises(RuleViolation, match="NT 5.2"):
        enter(s, "USMC 9", DA_NANG)
    with pytest.raises(RuleViolation, match="NT 4.2.1"):
        enter(s, "US 173 Abn", SAIGON)
    new.turn = 40
    assert "USMC 9" not in arrivals(new) and "US 173 Abn" in arrivals(new)          # a delayed one still may
    with pytest.raises(RuleViolation, match="NT 5.2.2"):
        enter(new, "USMC 3", NHA_TRANG, corps="II")                    # the Marines share one corps
    enter(new, "USMC 3", DA_NANG, corps="I")
    held = fresh()
    held.place("VC cadre 1", DA_NANG, face_up=False)
    assert entry_points(held, "I") == (HUE,)
    enter(held, "USMC 9", HUE, corps="I")
    held.place("VC cadre 2", HUE, face_up=False)
    assert entry_points(held, "I") == (SAIGON,)
    held.place("VC cadre 3", SAIGON)
    assert entry_points(held, "I") == ()


@pytest.mark.rule("NT 5.5", "NT 5.6", "NT 15.1", "NT 24.2.1", "NT 4.2.7")
def test_other_arrivals():
    s = fresh(turn=2)
    new, _ = enter(s, "US 173 Abn", NHA_TRANG)
    assert new.piece("US 173 Abn").corps is None
    with pytest.raises(RuleViolation, match="NT 5.5"):
        enter(s, "US 173 Abn", PLEIKU)
    new, _ = enter(s, "US GB 1", JUNGLE)
    with pytest.raises(RuleViolation, match="NT 15.1"):
        enter(s, "US GB 1", PLEIKU)
    new, _ = enter(s, "US F 2AD")
    assert new.air["US F 2AD"] == "available" and "US F 2AD" not in arrivals(new)
    enter(s, "US Fleet", "0124")
    with pytest.raises(RuleViolation, match="NT 5.6"):
        enter(s, "US Fleet", JUNGLE)
    full = fresh(turn=40)
    full.policy = full.policy.declare_full(1)
    brigades = [c.id for c in full.mix.select(nationality="US", type="infantry")][:6]
    for b in brigades:
        full.place(b, SAIGON)
    full.place("USMC 1", "Hanoi")                                    # not on the board
    with pytest.raises(RuleViolation, match="NT 24.2.1"):
        enter(full, "USMC 9", DA_NANG, corps="I")
    full.remove(brigades[0])
    enter(full, "USMC 9", DA_NANG, corps="I")
    bought = fresh(turn=3)
    bought.purchased["ARVN 1"] = 4
    assert "ARVN 1" not in arrivals(bought)
    bought.turn = 4
    new, _ = enter(bought, "ARVN 1", SAIGON, corps="III")
    assert not new.purchased


@pytest.mark.rule("NT 4.3.1", "NT 4.3.2", "NT 4.3.3", "NT 23.7")
def test_scheduled_withdrawals():
    s = fresh(turn=20)
    dead(s, "Thai QC")
    with pytest.raises(RuleViolation, match="NT 4.3.3"):
        withdraw_units(s, [])
    new, _ = withdraw_units(s, ["Thai QC"])
    assert "Thai QC" in new.withdrawn and "Thai QC" not in new.dead
    s = fresh(turn=27)
    s.place("US 1/9", JUNGLE)
    s.place("US 2/9", SAIGON)
    with pytest.raises(RuleViolation, match="must be withdrawn"):
        withdraw_units(s, [])
    new, res = withdraw_units(s, ["US 2/9"])
    assert new.withdrawn == {"US 2/9"} and res.steps[0].inputs["pp"] == 0
    new.replacement_points["US"] = F(5)
    with pytest.raises(RuleViolation, match="NT 4.3.2"):
        purchase(new, "US 2/9")                                 # withdrawn for good (4.3.2, 23.7)
    with pytest.raises(RuleViolation, match="NT 4.3.1"):
        withdraw_units(s, ["US 2/9", "US 1/9"])
    s.place("US F 2AD", "Vientiane")
    s.update("US 1/9", location="Vientiane")                        # the west-edge Laotian zone
    withdraw_units(s, ["US 2/9", "US 1/9"])


@pytest.mark.rule("NT 23.3", "NT 23.3.1", "NT 23.3.2", "NT 23.6", "NT 24.3.1", "NT 24.3.2", "NT 24.3.3")
def test_political_withdrawals():
    s = fresh(turn=30)
    us = [c.id for c in s.mix.select(nationality="US", type="infantry")][:5]
    for u in us:
        s.place(u, SAIGON)
    with pytest.raises(RuleViolation, match="no withdrawal"):
        withdraw_units(s, us[:1])
    peace = s.copy()
    peace.policy = replace(peace.policy, peace_party=True)
    new, _ = withdraw_units(peace, us[:2], die=3)
    assert new.track.points == 98                                    # one short of 3: -2
    new, _ = withdraw_units(peace, us[:4], die=3)
    assert new.track.points == 101                                   # one beyond: +1
    rok = s.mix.select(nationality="ROK", type="infantry")[0].id
    peace.place(rok, BIEN_HOA)
    peace.track = PoliticalTrack(99)
    with pytest.raises(RuleViolation, match="NT 23.6"):
        withdraw_units(peace, us[:3], die=3)
    new, _ = withdraw_units(peace, us[:3] + [rok], die=3)
    assert new.track.points == 99
    partial = s.copy()
    partial.policy = partial.policy.declare_partial(30)
    with pytest.raises(RuleViolation, match="NT 24.3.1"):
        withdraw_units(partial, us[:1])
    new, _ = withdraw_units(partial, us[:4])
    assert new.track.points == 104 and new.replacement_points["SVN"] == 1
    new, _ = withdraw_units(partial, us[:3])
    assert new.track.points == 103 and new.replacement_points["SVN"] == 0
    with pytest.raises(RuleViolation, match="NT 4.3.1"):
        partial.place("ARVN 1", SAIGON)
        withdraw_units(partial, us[:2] + ["ARVN 1"])


@pytest.mark.rule("NT 5.8")
def test_moving_firebases():
    s = fresh()
    s.place("US 1/1", SAIGON)
    s.place("US 2/1", BIEN_HOA)
    s.place("ARVN 1", PLEIKU)
    s.place("ARVN 2", JUNGLE)
    s.place("US FB 1", SAIGON)
    s.place("US FB 2", SAIGON)
    s.place("ARVN FB 1", PLEIKU)
    new, _ = move_firebase(s, "US FB 1", BIEN_HOA)
    assert new.piece("US FB 1").location == BIEN_HOA
    with pytest.raises(RuleViolation, match="already been moved"):
        move_firebase(new, "US FB 2", BIEN_HOA)
    new, _ = move_firebase(new, "ARVN FB 1", JUNGLE)
    with pytest.raises(RuleViolation, match="NT 5.6.2"):
        move_firebase(s, "US FB 1", PLEIKU)
    with pytest.raises(RuleViolation, match="NT 5.8"):
        move_firebase(s, "US 1/1", PLEIKU)


@pytest.mark.rule("NT 5.7")
def test_a_whole_group_changes_corps():
    s = fresh()
    s.place("USMC 9", DA_NANG, corps="I")
    s.place("USMC 3", HUE, corps="I")
    new, _ = reassign_corps(s, "USMC", "II")
    assert {new.piece(u).corps for u in ("USMC 9", "USMC 3")} == {"II"}
    assert new.piece("USMC 9").marks
    with pytest.raises(RuleViolation, match="NT 5.2.2"):
        reassign_corps(s, "USMC", "Laos")
    with pytest.raises(RuleViolation, match="already"):
        reassign_corps(s, "USMC", "I")
    with pytest.raises(RuleViolation, match="no unit"):
        reassign_corps(s, "ROK", "II")


@pytest.mark.rule("NT 28.5")
def test_arvn_rangers_change_corps_slowly():
    s = fresh(turn=5)
    s.place("ARVN ranger 1", SAIGON, corps="III")
    s.place("ARVN ranger 2", SAIGON, corps="III")
    s.place("ARVN ranger 3", SAIGON, corps="III")
    with pytest.raises(RuleViolation, match="0 Ranger"):
        reassign_ranger(s, "ARVN ranger 1", "IV")                    # 1965
    s.turn = 6
    new, _ = reassign_ranger(s, "ARVN ranger 1", "IV")
    assert new.piece("ARVN ranger 1").corps == "IV"
    with pytest.raises(RuleViolation, match="1 Ranger"):
        reassign_ranger(new, "ARVN ranger 2", "IV")
    s.turn = 24
    new, _ = reassign_ranger(s, "ARVN ranger 1", "IV")
    new, _ = reassign_ranger(new, "ARVN ranger 2", "I")
    with pytest.raises(RuleViolation, match="2 Ranger"):
        reassign_ranger(new, "ARVN ranger 3", "IV")
    with pytest.raises(RuleViolation, match="already"):
        reassign_ranger(s, "ARVN ranger 1", "III")
    with pytest.raises(RuleViolation, match="NT 5.2.3"):
        reassign_ranger(s, "ARVN ranger 1", "Laos")
    s.place("ARVN 1", BIEN_HOA, corps="III")
    with pytest.raises(RuleViolation, match="not an ARVN Ranger"):
        reassign_ranger(s, "ARVN 1", "IV")


@pytest.mark.rule("NT 5.2.1", "NT 28.6.1", "NT 28.11.4")
def test_laotian_and_thai_special_entries():
    s = fresh(turn=32)
    s.dead |= {"Lao ranger 1", "Lao Guard"}
    s.replacement_points.update(Indochinese=F(2))
    s, _ = purchase(s, "Lao ranger 1")
    s, _ = purchase(s, "Lao Guard")
    s.turn = 33
    new, _ = enter(s, "Lao ranger 1", "Luang Prabang", corps="Laos")
    assert new.piece("Lao ranger 1").corps == "Laos"
    with pytest.raises(RuleViolation, match="NT 5.2.1"):
        enter(s, "Lao ranger 1", SAIGON, corps="III")
    new, _ = enter(s, "Lao Guard", "Vientiane")
    assert new.piece("Lao Guard").corps == "Laos"
    with pytest.raises(RuleViolation, match="NT 28.11.4"):
        enter(s, "Lao Guard", SAIGON, corps="Laos")
    s.place("PL cadre 1", "Vientiane")                               # the 333 comes in whoever is there
    new, _ = enter(s, "Thai 333", "Vientiane")
    assert new.piece("Thai 333").corps is None
    with pytest.raises(RuleViolation, match="NT 28.6.1"):
        enter(s, "Thai 333", "Plain of Jars")


@pytest.mark.rule("NT 24.3.6")
def test_with_the_us_ground_units_gone_the_air_units_begin_to_leave():
    from wargames.ntnd.reinforcement import air_to_withdraw
    s = fresh(turn=30)
    s.policy = s.policy.declare_partial(30)
    for u in ("US SAC 1", "US SAC 2", "US SAC 3", "USMC air 1", "US F 2AD", "US heli 1"):
        s.air[u] = "available"
    seato = [c.id for c in s.mix.select(nationality="ROK", type="infantry")[:2]]
    for u in seato:
        s.place(u, SAIGON)
    s.place("US 1/1", SAIGON)
    assert air_to_withdraw(s) == {}                             # a US ground unit is still there
    s.remove("US 1/1", eliminated=False)
    assert air_to_withdraw(s) == {"sac": 2, "fighter": 1}      # one SAC, one USMC air, the gunships stay
    with pytest.raises(RuleViolation, match="NT 24.3.6"):
        withdraw_units(s, seato)                                # two units, but no air unit
    with pytest.raises(RuleViolation, match="NT 24.3.6"):
        withdraw_units(s, seato + ["US heli 1", "US SAC 1"])    # a gunship does not count: one short
    new, _ = withdraw_units(s, ["US SAC 1", "US F 2AD"])
    assert "US SAC 1" in new.withdrawn and "US SAC 1" not in new.air
