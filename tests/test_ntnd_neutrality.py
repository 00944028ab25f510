"""NT 10 neutral states (with 8.9.4-8.9.5, 15.1, 19.3.3, 23.5, 28.1, 28.6, 28.11): one test per condition, on the
shipped map. Hexes: Khe Sanh 1310 (I Corps) borders Laos 1311/1209/Tchepone 1210 and North Vietnam 1309; 1110
and 1312 are in Laos; 1124 (III Corps) borders Cambodia 1123, next to Kratie 1122 (a town)."""

import pytest

from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.ntnd import neutrality as nt
from wargames.ntnd.events import NextTurn
from wargames.ntnd.politics import Policy, PoliticalTrack
from wargames.ntnd.state import NtndState

AREAS = ("I", "II", "III", "IV", "Laos", "Cambodia")


def pos(phase="movement", turn=10, **boxes) -> NtndState:
    s = NtndState(turn=turn, phase=phase, track=PoliticalTrack(100))
    s.hearts_minds = {a: boxes.get(a, "neutral") for a in AREAS}
    return s


def snapshot(s: NtndState):
    return (s.track.points, dict(s.standing), dict(s.hearts_minds), dict(s.pieces), set(s.withdrawn))


def rec(s) -> nt.Violations:
    return nt.Violations(s.turn)


# ------------------------------------------------------------------------------------------------ 10.2 moves

@pytest.mark.rule("NT 10.2", "NT 8.9.4", "NT 8.9.5")
def test_face_up_units_crossing_into_a_neutral_violate_it():
    s = pos()
    s.place("US 173 Abn", "1310", corps="I")
    s.place("NVA 304", "1309")
    s.place("supply 1", "1309")
    [v] = nt.violations_by_move(s, "US 173 Abn", "1311")
    assert (v.side, v.country, v.unit, v.rule) == ("allied", "Laos", "US 173 Abn", "NT 10.2")
    [v] = nt.violations_by_move(s, "NVA 304", "1209")
    assert (v.side, v.country) == ("communist", "Laos")
    assert nt.violations_by_move(s, "supply 1", "1209") == ()            # 8.9.4: supply moves freely
    s.update("NVA 304", face_up=False)
    assert nt.violations_by_move(s, "NVA 304", "1209") == ()             # inverted units never violate
    s.update("NVA 304", face_up=True, location="1110")
    assert nt.violations_by_move(s, "NVA 304", "1210") == ()             # inside Laos: no border crossed
    s.standing["Laos"] = "allied"
    assert nt.violations_by_move(s, "US 173 Abn", "1311") == ()          # 8.9.5: an Ally is entered freely


@pytest.mark.rule("NT 10.2.3.1", "NT 28.11.1", "NT 15.1", "NT 28.6.1")
def test_exemptions():
    s = pos()
    for unit in ("US GB 1", "SVN Montagnard 1", "Thai 333", "US SOA"):
        s.place(unit, "1311")
    s.place("US 173 Abn", "1311", corps="I")
    assert nt.exempt(s, "US GB 1", "Laos") == nt.exempt(s, "US GB 1", "Cambodia") == "NT 15.1"
    assert nt.exempt(s, "SVN Montagnard 1", "Laos") == nt.exempt(s, "Thai 333", "Laos") == "NT 10.2.3.1"
    assert nt.exempt(s, "US SOA", "Laos") == "NT 10.2.3.1"
    for unit in ("SVN Montagnard 1", "Thai 333", "US SOA", "US 173 Abn"):
        assert nt.exempt(s, unit, "Cambodia") is None                    # the Secret War is Laos only
    assert nt.exempt(s, "US 173 Abn", "Laos") is None
    s2 = pos()
    s2.place("Thai 333", "1310")
    assert nt.violations_by_move(s2, "Thai 333", "1311") == ()
    s2.place("US 1/1", "1310", corps="I")
    assert len(nt.violations_by_move(s2, "US 1/1", "1311")) == 1


@pytest.mark.rule("NT 10.2.3.1", "NT 21.1")
def test_the_laotian_intervention_event_opens_laos_for_its_turn():
    s = pos()
    s.place("US 1/1", "1310", corps="I")
    s.next_turn = NextTurn(s.turn, flags=frozenset({nt.INTERVENTION_FLAG}))
    assert nt.violations_by_move(s, "US 1/1", "1311") == ()
    assert nt.exempt(s, "US 1/1", "Cambodia") is None
    s.next_turn = NextTurn(s.turn + 1, flags=frozenset({nt.INTERVENTION_FLAG}))
    assert len(nt.violations_by_move(s, "US 1/1", "1311")) == 1


@pytest.mark.rule("NT 10.3", "NT 8.9.2")
def test_units_at_home_never_violate_their_country():
    s = pos()
    s.place("PL reg 1", "1110")
    s.place("Lao inf 1", "1411", corps="Laos")                 # forced out by a retreat, going home
    assert nt.violations_by_move(s, "Lao inf 1", "1311") == ()
    assert nt.exempt(s, "PL reg 1", "Laos") == "NT 10.3" and nt.exempt(s, "PL reg 1", "Cambodia") is None


@pytest.mark.rule("NT 10.8", "NT 10.7")
def test_north_vietnam_and_china():
    s = pos()
    s.place("US 173 Abn", "1310", corps="I")
    [v] = nt.violations_by_move(s, "US 173 Abn", "1309")
    assert (v.country, v.rule) == ("NV", "NT 10.8")
    s.place("NVA 304", "1310")
    s.update("NVA 304", location="1409")
    assert nt.violations_by_move(s, "NVA 304", "1309") == ()              # NV is no neutral to the Communist
    s.place("US 1/1", "Luang Prabang", corps="I")
    before = snapshot(s)
    with pytest.raises(RuleViolation) as e:
        nt.violations_by_move(s, "US 1/1", "China")
    assert e.value.rule == "NT 10.7" and snapshot(s) == before
    s.place("NVA 308", "Luang Prabang")
    assert nt.violations_by_move(s, "NVA 308", "China") == ()


# ------------------------------------------------------------------------------------------------ 10.3 limits

@pytest.mark.rule("NT 10.3.1", "NT 10.4")
def test_cambodian_units_neither_move_nor_attack_while_neutral():
    s = pos()
    s.place("Cam inf 1", "1122", corps="Cambodia")
    s.place("KR reg 1", "1123")
    for action, rule in (("move", "NT 10.3.1"), ("attack", "NT 10.4")):
        with pytest.raises(RuleViolation) as e:
            nt.check_move_or_attack(s, "Cam inf 1", action, to_location="1123", defenders=["KR reg 1"])
        assert e.value.rule == rule
        assert not nt.may_move_or_attack(s, "Cam inf 1", action, to_location="1123", defenders=["KR reg 1"])
    s.standing["Cambodia"] = "allied"
    assert nt.may_move_or_attack(s, "Cam inf 1", "move", to_location="1123")
    assert nt.may_move_or_attack(s, "Cam inf 1", "attack", to_location="1123", defenders=["KR reg 1"])


@pytest.mark.rule("NT 10.3.2", "NT 10.4", "NT 28.11.2")
def test_royal_lao_limits():
    s = pos()
    s.place("Lao inf 1", "1311", corps="Laos")
    s.place("Lao ranger 1", "1311", corps="Laos")
    s.place("NVA 304", "1210")
    s.place("NVA 308", "1410")
    with pytest.raises(RuleViolation, match="NT 10.3.2"):
        nt.check_move_or_attack(s, "Lao inf 1", "move", to_location="1410")
    assert nt.may_move_or_attack(s, "Lao inf 1", "move", to_location="1312")
    assert nt.may_move_or_attack(s, "Lao inf 1", "attack", to_location="1210", defenders=["NVA 304"])
    with pytest.raises(RuleViolation, match="NT 10.4"):                   # only in Laos
        nt.check_move_or_attack(s, "Lao inf 1", "attack", to_location="1410", defenders=["NVA 308"])
    s.update("NVA 304", face_up=False)
    with pytest.raises(RuleViolation, match="NT 10.3.2"):
        nt.check_move_or_attack(s, "Lao inf 1", "attack", to_location="1210", defenders=["NVA 304"])
    assert nt.may_move_or_attack(s, "Lao ranger 1", "attack", to_location="1210", defenders=["NVA 304"])
    s.update("NVA 304", face_up=True)                                     # revealed by Allied action (8.8.2.1)
    r = rec(s).excuse("NVA 304", "revealed")
    assert not nt.may_move_or_attack(s, "Lao inf 1", "attack", to_location="1210", defenders=["NVA 304"], record=r)
    assert nt.may_move_or_attack(s, "Lao ranger 1", "attack", to_location="1210", defenders=["NVA 304"], record=r)
    s.standing["Laos"] = "allied"
    assert nt.may_move_or_attack(s, "Lao inf 1", "attack", to_location="1210", defenders=["NVA 304"], record=r)


@pytest.mark.rule("NT 10.3.3")
def test_pathet_lao_and_khmer_rouge_stay_home():
    s = pos()
    s.place("PL reg 1", "1311")
    s.place("KR reg 1", "1123")
    with pytest.raises(RuleViolation, match="NT 10.3.3"):
        nt.check_move_or_attack(s, "PL reg 1", "move", to_location="1310")
    with pytest.raises(RuleViolation, match="NT 10.3.3"):
        nt.violations_by_move(s, "KR reg 1", "1124")
    assert nt.may_move_or_attack(s, "PL reg 1", "move", to_location="1312")
    s.place("US 1/1", "1310", corps="I")
    assert nt.may_move_or_attack(s, "US 1/1", "move", to_location="1311")   # not a neutral's own unit


# ------------------------------------------------------------------------------------------------ attacks

@pytest.mark.rule("NT 10.2", "NT 10.4", "NT 10.8", "NT 28.11.1")
def test_attacks_across_borders():
    s = pos()
    s.place("US 173 Abn", "1310", corps="I")
    s.place("Thai 333", "1410")
    s.place("NVA 304", "1210")
    s.place("NVA 308", "1309")
    r = rec(s)
    [v] = nt.violations_by_attack(s, r, ["US 173 Abn", "Thai 333"], "1210")
    assert (v.unit, v.country, v.rule) == ("US 173 Abn", "Laos", "NT 10.2")
    [v] = nt.violations_by_attack(s, r, ["US 173 Abn"], "1309")
    assert (v.country, v.rule) == ("NV", "NT 10.8")
    assert nt.violations_by_attack(s, r, ["NVA 308"], "1310") == ()       # into South Vietnam: nothing neutral
    s.standing["Laos"] = "allied"
    assert nt.violations_by_attack(s, r, ["US 173 Abn"], "1210") == ()


@pytest.mark.rule("NT 28.11.3")
def test_one_free_north_vietnamese_attack_in_laos_a_turn():
    s = pos()
    s.place("NVA 304", "1309")
    s.place("NVA 308", "1309")
    s.place("Lao inf 1", "1209", corps="Laos")
    r = rec(s)
    assert len(nt.violations_by_attack(s, r, ["NVA 304", "NVA 308"], "1209")) == 2
    assert nt.free_nva_choices(s, r, ["NVA 304", "NVA 308"], "1209") == ("NVA 304", "NVA 308")
    [v] = nt.violations_by_attack(s, r, ["NVA 304", "NVA 308"], "1209", free_nva="NVA 304")
    assert v.unit == "NVA 308"
    r = r.add(v, free_nva="NVA 304")
    with pytest.raises(RuleViolation, match="NT 28.11.3"):
        nt.violations_by_attack(s, r, ["NVA 308"], "1209", free_nva="NVA 308")
    with pytest.raises(RuleViolation, match="NT 28.11.3"):
        r.add(free_nva="NVA 308")
    assert r.next_turn(s.turn + 1).free_nva is None
    s.place("NVA 320", "1124")
    s.place("Cam inf 1", "1123", corps="Cambodia")
    with pytest.raises(RuleViolation, match="NT 28.11.3"):             # Laos only
        nt.violations_by_attack(s, rec(s), ["NVA 320"], "1123", free_nva="NVA 320")


@pytest.mark.rule("NT 10.2", "NT 8.5.1", "NT 10.8")
def test_zones_of_control_announced_across_a_border():
    s = pos()
    r = nt.declare_zoc(s, rec(s), "allied", "Laos")
    assert r.declared_by("allied") == ("Laos",) and r.countries("allied") == ("Laos",)
    assert nt.declare_zoc_choices(s, r, "allied") == ("Cambodia", "NV")
    assert nt.declare_zoc_choices(s, r, "communist") == ("Laos", "Cambodia")
    with pytest.raises(RuleViolation, match="already"):
        nt.declare_zoc(s, r, "allied", "Laos")
    with pytest.raises(RuleViolation, match="not neutral"):
        nt.declare_zoc(s, r, "communist", "NV")
    r = nt.declare_zoc(s, r, "allied", "NV")
    assert r.items[-1].rule == "NT 10.8" and r.declared_by("allied") == ("Laos", "NV")


@pytest.mark.rule("NT 10.2.3.1", "NT 28.1.1", "NT 28.1.2", "NT 28.1.3", "NT 10.7", "NT 10.8")
def test_air_missions():
    s = pos()
    for where in ("1311", "1123", "1309", "China"):
        assert nt.violations_by_air_mission(s, "US F 2AD", where, "strategic_bombing") == ()
    assert nt.violations_by_air_mission(s, "US F 2AD", "1309", "ground_support") == ()      # 10.8
    [v] = nt.violations_by_air_mission(s, "US F 2AD", "1311", "ground_support")
    assert (v.country, v.side) == ("Laos", "allied")
    assert len(nt.violations_by_air_mission(s, "US heli 1", "1123", "supply")) == 1
    for mission in nt.AIR_MISSIONS:
        assert nt.violations_by_air_mission(s, "US SOA", "1311", mission) == ()
    with pytest.raises(RuleViolation, match="NT 28.1.3"):
        nt.violations_by_air_mission(s, "US SOA", "1123", "ground_support")
    with pytest.raises(RuleViolation, match="NT 28.1.2"):
        nt.violations_by_air_mission(s, "US SOA", "1123", "strategic_bombing")
    s.standing["Cambodia"] = "allied"
    assert nt.violations_by_air_mission(s, "US SOA", "1123", "ground_support") == ()
    assert nt.violations_by_air_mission(s, "US heli 1", "1123", "supply") == ()
    with pytest.raises(RuleViolation, match="NT 11.1"):
        nt.violations_by_air_mission(s, "US 1/1", "1311", "ground_support")


# ------------------------------------------------------------------------------------------------ end of movement

@pytest.mark.rule("NT 10.2.2", "NT 10.2.3", "NT 8.9.4", "NT 10.8")
def test_face_up_units_left_in_a_neutral_at_the_end_of_movement():
    s = pos()
    s.place("NVA 304", "1209")
    s.place("NVA 308", "1110", face_up=False)
    s.place("PL reg 1", "1110")
    s.place("supply 1", "1110")
    s.place("NVA 320", "Plain of Jars")
    s.place("US 1/1", "1311", corps="I")
    s.place("US GB 1", "1312")
    s.place("US 173 Abn", "1309", corps="I")
    s.place("US F 2AD", "1312")
    r = rec(s)
    got = {(v.unit, v.country, v.rule) for v in nt.violations_at_end_of_movement(s, "communist", r)}
    assert got == {("NVA 304", "Laos", "NT 10.2.2"), ("NVA 320", "Laos", "NT 10.2.2")}
    got = {(v.unit, v.country, v.rule) for v in nt.violations_at_end_of_movement(s, "allied", r)}
    assert got == {("US 1/1", "Laos", "NT 10.2.2"), ("US 173 Abn", "NV", "NT 10.8")}
    s.standing["Laos"] = "allied"
    assert {v.unit for v in nt.violations_at_end_of_movement(s, "communist", r)} == set()


@pytest.mark.rule("NT 10.2.2", "NT 19.3.3", "NT 10.5.1")
def test_excused_until_the_next_movement_phase():
    s = pos()
    s.place("US 1/1", "1311", corps="I")          # retreated into Laos in the Communist combat phase
    s.place("NVA 304", "1209")                    # flipped up by a failed infiltration in its own movement
    r = rec(s).excuse("US 1/1", "retreat").excuse("NVA 304", "revealed")
    assert nt.violations_at_end_of_movement(s, "communist", r) == ()
    r = r.begin_movement(s, "allied")             # the Allied movement phase begins: he must leave now
    assert [v.unit for v in nt.violations_at_end_of_movement(s, "allied", r)] == ["US 1/1"]
    assert r.is_excused("NVA 304") and not r.is_excused("US 1/1")
    r = r.next_turn(s.turn + 1)                   # carried over the turn's end
    assert r.is_excused("NVA 304") and r.items == () and r.charged == frozenset()
    r = r.begin_movement(s, "communist")
    assert [v.unit for v in nt.violations_at_end_of_movement(s, "communist", r)] == ["NVA 304"]
    with pytest.raises(ValueError):
        r.excuse("NVA 304", "tired")


# ------------------------------------------------------------------------------------------------ charging

def violation(side, country, unit="US 1/1"):
    return nt.Violation(side, country, unit, "x", "NT 10.2", "test")


@pytest.mark.rule("NT 10.2.1")
def test_an_allied_violation_costs_a_die_and_a_box():
    s = pos()
    before = snapshot(s)
    res = Resolution()
    new, r = nt.charge_violations(s, rec(s).add(violation("allied", "Laos")), ScriptedDice([4]), res=res)
    assert new.track.points == 96 and new.hearts_minds["Laos"] == "pro_communist"
    assert r.charged == {("allied", "Laos")} and snapshot(s) == before
    assert "NT 10.2.1" in res.rules()


@pytest.mark.rule("NT 10.2.1")
def test_a_communist_violation_raises_the_allied_total():
    s = pos()
    new, _ = nt.charge_violations(s, rec(s).add(violation("communist", "Cambodia", "NVA 304")), ScriptedDice([3]))
    assert new.track.points == 103 and new.hearts_minds["Cambodia"] == "pro_allied"


@pytest.mark.rule("NT 10.2.1")
def test_no_box_for_a_country_the_violator_controls():
    s = pos(Laos="allied_control")
    new, _ = nt.charge_violations(s, rec(s).add(violation("allied", "Laos")), ScriptedDice([2]))
    assert new.track.points == 98 and new.hearts_minds["Laos"] == "allied_control"
    s = pos(Laos="communist_control")
    new, _ = nt.charge_violations(s, rec(s).add(violation("communist", "Laos", "NVA 304")), ScriptedDice([2]))
    assert new.track.points == 102 and new.hearts_minds["Laos"] == "communist_control"


@pytest.mark.rule("NT 10.2.1", "NT 10.2.3")
def test_one_die_per_country_per_turn():
    s = pos()
    r = rec(s).add(violation("allied", "Laos"), violation("allied", "Laos", "US 1/2"), violation("allied", "Cambodia"))
    new, r = nt.charge_violations(s, r, ScriptedDice([1, 6]))           # a third roll would fail
    assert new.track.points == 93
    new2, r = nt.charge_violations(new, r.add(violation("allied", "Laos")), ScriptedDice([]))
    assert new2.track.points == 93 and new2.hearts_minds == new.hearts_minds
    r = r.next_turn(s.turn + 1).add(violation("allied", "Laos"))       # a new turn: charged again
    new2.turn += 1
    new3, _ = nt.charge_violations(new2, r, ScriptedDice([5]))
    assert new3.track.points == 88
    before = snapshot(s)
    with pytest.raises(RuleViolation, match="NT 10.2.3"):             # a record of another turn
        nt.charge_violations(s, r, ScriptedDice([5]))
    assert snapshot(s) == before


@pytest.mark.rule("NT 23.5")
def test_the_peace_party_doubles_us_violations():
    s = pos()
    s.policy = Policy(peace_party=True)
    s.place("US 1/1", "1311", corps="I")
    s.place("ARVN 1", "1123", corps="III")
    new, _ = nt.charge_violations(s, rec(s).add(violation("allied", "Laos", "US 1/1")), ScriptedDice([4]))
    assert new.track.points == 92
    new, _ = nt.charge_violations(s, rec(s).add(violation("allied", "Laos", "ARVN 1")), ScriptedDice([4]))
    assert new.track.points == 96
    s.policy = Policy()
    new, _ = nt.charge_violations(s, rec(s).add(violation("allied", "Laos", "US 1/1")), ScriptedDice([4]))
    assert new.track.points == 96


@pytest.mark.rule("NT 10.8")
def test_north_vietnam_costs_ten_points_once_a_turn():
    s = pos()
    r = rec(s).add(violation("allied", "NV", "US 173 Abn"), violation("allied", "NV", "US 1/1"),
                   violation("allied", "Laos"))
    new, r = nt.charge_violations(s, r, ScriptedDice([3]))              # one die: Laos only
    assert new.track.points == 100 - 10 - 3
    assert r.charged == {("allied", "NV"), ("allied", "Laos")}
    again, r = nt.north_vietnam_invasion(new, r.add(violation("allied", "NV")))
    assert again.track.points == new.track.points
    quiet, r2 = nt.north_vietnam_invasion(s, rec(s))
    assert quiet.track.points == 100 and r2.charged == frozenset()
    new, _ = nt.north_vietnam_invasion(s, nt.declare_zoc(s, rec(s), "allied", "NV"))
    assert new.track.points == 90


# ------------------------------------------------------------------------------------------------ 10.5

@pytest.mark.rule("NT 10.5.1")
def test_a_communist_entering_a_town_ends_neutrality():
    s = pos()
    s.place("NVA 304", "1110")
    s.place("PL reg 1", "1110")
    assert nt.ends_neutrality_by_move(s, "NVA 304", "1210") == ("Laos", True)
    assert nt.ends_neutrality_by_move(s, "NVA 304", "1209") is None      # no town
    assert nt.ends_neutrality_by_move(s, "PL reg 1", "1210") is None     # at home (inventory 6.2)
    s.place("NVA 308", "1009")
    s.update("NVA 308", location="Plain of Jars")
    assert nt.ends_neutrality_by_move(s, "NVA 308", "Vientiane") is None  # zones are not towns
    s.update("NVA 304", face_up=False)
    assert nt.ends_neutrality_by_move(s, "NVA 304", "1210") is None
    s.update("NVA 304", face_up=True)
    s.standing["Laos"] = "allied"
    assert nt.ends_neutrality_by_move(s, "NVA 304", "1210") is None
    s.place("NVA 320", "1123")
    assert nt.ends_neutrality_by_move(s, "NVA 320", "1122") == ("Cambodia", True)


@pytest.mark.rule("NT 10.5.1", "NT 28.11.3")
def test_a_communist_attack_on_neutral_units_ends_neutrality():
    s = pos()
    s.place("Lao inf 1", "1209", corps="Laos")
    s.place("US GB 1", "1210")
    for u, where in (("NVA 304", "1309"), ("PL reg 1", "1110"), ("KR reg 1", "1123"), ("Cam inf 1", "1122")):
        s.place(u, where)
    r = rec(s)
    assert nt.ends_neutrality_by_attack(s, r, ["NVA 304"], ["Lao inf 1"]) == ("Laos", True)
    assert nt.ends_neutrality_by_attack(s, r, ["PL reg 1"], ["Lao inf 1"]) is None
    assert nt.ends_neutrality_by_attack(s, r, ["PL reg 1", "NVA 304"], ["Lao inf 1"], free_nva="NVA 304") is None
    assert nt.ends_neutrality_by_attack(s, r, ["PL reg 1"], ["US GB 1"]) is None
    assert nt.ends_neutrality_by_attack(s, r, ["NVA 304"], ["US GB 1"]) is None   # not a neutral unit
    assert nt.ends_neutrality_by_attack(s, r, ["KR reg 1"], ["Cam inf 1"]) == ("Cambodia", False)
    with pytest.raises(RuleViolation, match="NT 28.11.3"):
        nt.ends_neutrality_by_attack(s, r, ["NVA 304"], ["Cam inf 1"], free_nva="NVA 304")
    s.standing["Laos"] = "allied"
    assert nt.ends_neutrality_by_attack(s, r, ["NVA 304"], ["Lao inf 1"]) is None


@pytest.mark.rule("NT 10.5.1", "NT 10.6")
@pytest.mark.parametrize("by_nva,box", [(True, "allied_control"), (False, "pro_allied")])
def test_communist_entry(by_nva, box):
    s = pos()
    new = nt.communist_entry(s, "Laos", by_nva)
    assert new.standing["Laos"] == "allied" and new.hearts_minds["Laos"] == box
    assert s.standing["Laos"] == "neutral" and s.hearts_minds["Laos"] == "neutral"
    before = snapshot(new)
    with pytest.raises(RuleViolation) as e:
        nt.communist_entry(new, "Laos", by_nva)
    assert e.value.rule == "NT 10.6" and snapshot(new) == before
    with pytest.raises(RuleViolation):
        nt.communist_entry(s, "NV", by_nva)


@pytest.mark.rule("NT 10.5.2")
@pytest.mark.parametrize("laos,cost", [("allied_control", 14), ("pro_allied", 35), ("communist_control", 35)])
def test_coup(laos, cost):
    s = pos(phase="reinforcement", Laos=laos)
    assert nt.coup_choices(s) == ("Laos", "Cambodia")
    res = Resolution()
    new = nt.coup(s, "Laos", ScriptedDice([3, 4]), res=res)
    assert new.track.points == 100 - cost and new.standing["Laos"] == "allied"
    assert new.hearts_minds == s.hearts_minds and s.standing["Laos"] == "neutral"
    assert nt.coup_choices(new) == ("Cambodia",)


@pytest.mark.rule("NT 10.5.2", "NT 10.6")
def test_coup_refusals_leave_the_state_unchanged():
    s = pos(phase="movement")
    before = snapshot(s)
    with pytest.raises(RuleViolation, match="reinforcement"):
        nt.coup(s, "Laos", ScriptedDice([3, 4]))
    assert nt.coup_choices(s) == ()
    s = pos(phase="reinforcement")
    s.standing["Cambodia"] = "allied"
    before = snapshot(s)
    with pytest.raises(RuleViolation) as e:
        nt.coup(s, "Cambodia", ScriptedDice([3, 4]))
    assert e.value.rule == "NT 10.6" and snapshot(s) == before
    with pytest.raises(RuleViolation, match="NT 10.5.2"):
        nt.coup(s, "NV", ScriptedDice([3, 4]))


# ------------------------------------------------------------------------------------------------ 10.6 conquest

LAOS_TOWNS = ("0405", "0708", "0711", "0906", "1014", "1111", "1210", "1212", "1415")
LAOS_ZONES = ("Plain of Jars", "Luang Prabang", "Vientiane")


def occupied_laos():
    s = pos()
    s.standing["Laos"] = "allied"
    names = [f"NVA {n}" for n in ("304", "308", "312", "316", "320", "320B", "324B", "325", "325C", "341", "711",
                                  "968")]
    for unit, where in zip(names, LAOS_TOWNS + LAOS_ZONES):
        s.place(unit, where)
    return s


@pytest.mark.rule("NT 10.6")
def test_conquest_needs_every_town_city_and_zone_and_no_native_units():
    s = occupied_laos()
    assert nt.conquered(s, "Laos") and not nt.conquered(s, "Cambodia")
    s.place("Lao inf 1", "1312", corps="Laos")
    assert not nt.conquered(s, "Laos")
    s.remove("Lao inf 1")
    s.update("NVA 304", face_up=False)                   # an inverted unit holds nothing
    assert not nt.conquered(s, "Laos")
    s.update("NVA 304", face_up=True)
    s.update("NVA 968", location="1312")                 # Vientiane left empty
    assert not nt.conquered(s, "Laos")
    s = occupied_laos()
    s.standing["Laos"] = "neutral"                       # only a former neutral falls
    assert not nt.conquered(s, "Laos")


@pytest.mark.rule("NT 10.6", "NT 28.6.2")
def test_conquer_removes_the_countrys_units_for_good():
    s = occupied_laos()
    s.place("Thai 333", "1312")
    s.place("Lao inf 1", "1312", corps="Laos")
    s.remove("Lao inf 1")                                  # in the dead pile
    assert "Lao inf 1" in s.dead
    new = nt.conquer(s, "Laos")
    assert new.standing["Laos"] == "communist"
    lao = {c.id for c in s.mix if c.nationality == "Laotian"}
    assert lao | {"Thai 333"} <= new.withdrawn and "Lao inf 1" not in new.dead and "Thai 333" not in new.pieces
    assert not any(c.nationality == "Laotian" for c in new.available("allied"))
    assert not any(c.nationality == "Cambodian" for c in s.mix if c.id in new.withdrawn)
    with pytest.raises(RuleViolation, match="NT 4.3.2"):
        new.place("Lao ranger 1", "1312")
    assert s.standing["Laos"] == "allied" and "Thai 333" in s.pieces
    before = snapshot(new)
    with pytest.raises(RuleViolation, match="NT 10.6"):
        nt.conquer(new, "Laos")
    assert snapshot(new) == before


# ------------------------------------------------------------------------------------------------ a phase, as the game runs it

@pytest.mark.rule("NT 10.2", "NT 10.2.1", "NT 10.5.1")
def test_an_nva_march_on_tchepone():
    """Communist movement: a face-up NVA division crosses into neutral Laos (a violation, charged at once) and
    enters Tchepone (Laos joins the Allies). Movement's own consequences agree with this module's."""
    from wargames.ntnd import movement as mv
    s = pos()
    s.place("NVA 304", "1309")
    r = rec(s).begin_movement(s, "communist")
    move = mv.begin_move(s, "NVA 304", in_supply=True)
    dice = ScriptedDice([5])
    for to in ("1209", "1210"):
        found = nt.violations_by_move(s, "NVA 304", to)
        ends = nt.ends_neutrality_by_move(s, "NVA 304", to)
        s, move, res = mv.step(s, move, to)
        kinds = [q.kind for q in res.result.consequences]
        assert ("neutrality_violation" in kinds) == bool(found) and ("joins_allies" in kinds) == bool(ends)
        r = r.add(*found)
        s, r = nt.charge_violations(s, r, dice)
        if ends:
            s = nt.communist_entry(s, *ends)
    assert s.track.points == 105                               # the Communist die credits the Allies
    assert s.standing["Laos"] == "allied"
    assert s.hearts_minds["Laos"] == "allied_control"          # one box for the violation, two for the NVA entry
    assert nt.violations_at_end_of_movement(s, "communist", r) == ()   # Laos is no longer neutral
