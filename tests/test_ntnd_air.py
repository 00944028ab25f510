"""No Trumpets No Drums, rules 11 (air operations) and 12 (anti-aircraft fire), on the shipped map.
Hexes used: 1915 clear (I Corps), 1916 and 1815 jungle (II Corps, next to 1915), Khe Sanh 1310 (I Corps,
mountain town), Tchepone 1210 (Laos), 1001 clear (North Vietnam). Turns: 10 = Sep/Oct 1966, 8 = Jul/Aug 1966
(monsoon), 17 = Nov/Dec 1967, 18 = Jan/Feb 1968, 41 = Nov/Dec 1971, 42 = Jan/Feb 1972."""
from fractions import Fraction as F

import pytest

from wargames.core import Resolution, ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.ntnd import air
from wargames.ntnd.air import Mission
from wargames.ntnd.combat import Adjustment
from wargames.ntnd.state import NtndState

SAC, SAC2 = "US SAC 1", "US SAC 2"
F1, F2, F3, F4 = "US F 2AD", "US F 3TFW", "US F 12TFW", "US F 35TFW"
CV, HELI, SOA, VNAF, VHELI = "US CV 1", "US heli 1", "US SOA", "VNAF F 1", "VNAF heli"
DIV, DIV2, SAM, ART, TANK = "NVA 304", "NVA 308", "NVA SAM 1", "NVA art 45", "NVA tank 202"
SUP, DUMMY, BASE, REG, INT, INT2 = "supply 1", "dummy 1", "VC base 1", "VC reg 1", "NVA int 921", "NVA int 923"
ALL_AIR = (SAC, SAC2, F1, F2, F3, F4, CV, HELI, SOA, VNAF, VHELI, "VNAF F 2")


def fresh(turn=10, phase=air.AIR_PHASE, pieces=(), unavailable=()):
    s = NtndState(turn=turn, phase=phase)
    for u in ALL_AIR:
        s.air[u] = "unavailable" if u in unavailable else "available"
    for unit, where, *face in pieces:
        s.place(unit, where, face_up=face[0] if face else True)
    return s


def snapshot(s):
    return (dict(s.air), dict(s.pieces), set(s.dead))


def refused(rule, fn, s, *a, **kw):
    before = snapshot(s)
    with pytest.raises(RuleViolation) as e:
        fn(s, *a, **kw)
    assert e.value.rule == rule, e.value
    assert snapshot(s) == before


def bomb(target, *units):
    return Mission("bombing", target, units)


# ------------------------------------------------------------------------------------------------ 11.2 / 11.3
@pytest.mark.rule("NT 11.2")
def test_air_box_cycle():
    s = fresh(pieces=[(DIV, "1915"), ("US 1/1", "1916")], unavailable=(F3,))
    m = [bomb("1915", SAC), Mission("supply", "1916", (F1,))]
    refused("NT 11.2", air.assign_missions, s, [bomb("1915", F3, F4)])
    with pytest.raises(RuleViolation, match="unavailable box"):
        air.assign_missions(s, [bomb("1915", F3, F4)])
    new = air.assign_missions(s, m)
    assert SAC not in new.air and F1 not in new.air and new.air[F3] == "unavailable"
    assert s.air[SAC] == "available"                      # the input state is untouched
    new = air.refresh_unavailable(new)
    assert new.air[F3] == "available"
    fire = air.roll_aa(new, m[0], ScriptedDice([1]))
    new, result = air.resolve_bombing(new, m[0], fire, ScriptedDice([1]))
    assert new.air[SAC] == "unavailable" and result.destroyed == ()
    # a unit that flew may not fly in the next player turn
    nxt = new.copy()
    nxt.phase = air.REACTION_PHASE
    refused("NT 11.2", air.assign_missions, nxt, [Mission("ground_support", "1915", (SAC,))])


@pytest.mark.rule("NT 11.2")
def test_unknown_and_doubled_units_refused():
    s = fresh(pieces=[(DIV, "1915")])
    del s.air[F1]
    refused("NT 11.2", air.assign_missions, s, [bomb("1915", F1, F2)])
    refused("NT 11.1", air.assign_missions, s, [bomb("1915", SAC), Mission("ground_support", "1915", (SAC,))])
    refused("NT 11.1", air.assign_missions, s, [bomb("1915", DIV)])
    refused("NT 11.1", air.assign_missions, s, [Mission("napalm", "1915", (SAC,))])


@pytest.mark.rule("NT 11.3")
def test_phases_and_monsoon():
    pieces = [(DIV, "1915"), ("US 1/1", "1916")]
    s = fresh(phase=air.REACTION_PHASE, pieces=pieces)
    air.assign_missions(s, [Mission("ground_support", "1915", (F1, HELI))])
    for m in (bomb("1915", SAC), Mission("supply", "1916", (F1,)), Mission("transport", "US 1/1", (HELI,))):
        refused("NT 11.3", air.assign_missions, s, [m])
    refused("NT 11.3", air.assign_missions, fresh(phase="combat", pieces=pieces),
            [Mission("ground_support", "1915", (F1,))])
    monsoon = fresh(turn=8, pieces=pieces)
    refused("NT 11.3", air.assign_missions, monsoon, [Mission("ground_support", "1915", (F1,))])
    air.assign_missions(monsoon, [bomb("1915", SAC)])        # bombing is not barred by the monsoon
    air.assign_missions(fresh(turn=10, pieces=pieces), [Mission("ground_support", "1915", (F1,))])


@pytest.mark.rule("NT 11.1.2", "NT 8.8.1.2")
def test_ground_support_only_over_battles():
    s = fresh(phase=air.REACTION_PHASE, pieces=[(DIV, "1915"), (DIV2, "1815")])
    air.assign_missions(s, [Mission("ground_support", "1915", (F1,))], combat_hexes=["1915"])
    refused("NT 11.1.2", air.assign_missions, s, [Mission("ground_support", "1815", (F1,))],
            combat_hexes=["1915"])


@pytest.mark.rule("NT 24.2.8", "NT 23.5", "NT 10.2.3.1")
def test_air_politics():
    s = fresh(pieces=[(DIV, "1001"), (DIV2, "Hanoi"), (REG, "1210"), ("Lao inf 1", "1211"), ("KR reg 1", "0119"),
                      (SAM, "1915"), ("US 1/1", "1916")])
    ms = [bomb("1001", SAC), bomb("Hanoi", F1, F2), bomb("1210", F3, F4), bomb("0119", VNAF, "VNAF F 2"),
          Mission("supply", "1211", (SOA,)), Mission("ground_support", "1915", (CV,)),
          Mission("supply", "1916", (HELI,))]
    p = air.air_politics(s, ms)
    assert p.countries == {"NV", "Laos", "Cambodia"}
    assert p.us_bombed == {"1001", "Hanoi", "Laos"}              # the VNAF raid on Cambodia is not US
    assert p.violated == frozenset()                            # bombing and the SOA in Laos are allowed
    p = air.air_politics(s, [Mission("supply", "1211", (HELI,))])
    assert p.violated == {"Laos"}
    # one violation per state, charged to its first mission that breaks it (not a bombing, not the SOA)
    lao, cam = Mission("supply", "1211", (HELI,)), Mission("supply", "0119", (VHELI,))
    p = air.air_politics(s, [bomb("1210", F3, F4), Mission("supply", "1211", (SOA,)), lao,
                             Mission("supply", "1211", (F1,)), cam])
    assert p.violations == (("Cambodia", cam), ("Laos", lao))
    s.standing["Laos"] = "allied"
    assert air.air_politics(s, [bomb("1210", F3, F4)]).countries == frozenset()


# ------------------------------------------------------------------------------------------------ 11.1.x limits
@pytest.mark.rule("NT 11.1.1", "NT 11.8")
def test_bombing_composition_and_niagara():
    s = fresh(pieces=[(DIV, "1915"), (DIV2, "1915")])
    air.assign_missions(s, [bomb("1915", SAC)])
    air.assign_missions(s, [bomb("1915", F1, F2)])
    refused("NT 11.1.1", air.assign_missions, s, [bomb("1915", F1)])
    refused("NT 11.1.1", air.assign_missions, s, [bomb("1915", F1, F2, F3)])
    refused("NT 11.1.1", air.assign_missions, s, [bomb("1915", HELI)])
    refused("NT 11.8", air.assign_missions, s, [bomb("1915", SAC, SAC2)])
    refused("NT 11.8", air.assign_missions, s, [bomb("1915", F1, F2, F3, F4)])
    late = fresh(turn=18, pieces=[(DIV, "1915"), (DIV2, "1915"), (SAM, "1916")])
    for units in ((SAC, SAC2), (F1, F2, F3, F4), (SAC, F1, F2)):
        air.assign_missions(late, [bomb("1915", *units)])
    refused("NT 11.1.1", air.assign_missions, late, [bomb("1915", SAC, SAC2, F1, F2)])
    refused("NT 11.8", air.assign_missions, late, [bomb("1916", SAC, SAC2)])     # one Communist unit only
    late.place(REG, "Hanoi")
    late.place(SUP, "Hanoi")
    refused("NT 11.8", air.assign_missions, late, [bomb("Hanoi", SAC, SAC2)])    # zones: separate missions
    refused("NT 11.1", air.assign_missions, late, [bomb("1916", "US 1/1")])
    refused("NT 11.1.1", air.assign_missions, fresh(pieces=[("US 1/1", "1915")]), [bomb("1915", SAC)])


@pytest.mark.rule("NT 11.4")
def test_once_per_hex_any_number_in_zones():
    s = fresh(pieces=[(DIV, "1915"), (DIV2, "Hanoi"), (SAM, "Hanoi")])
    refused("NT 11.4", air.assign_missions, s, [bomb("1915", SAC), bomb("1915", F1, F2)])
    refused("NT 11.4", air.assign_missions, s, [bomb("1915", SAC)], already_bombed=["1915"])
    air.assign_missions(s, [bomb("Hanoi", SAC), bomb("Hanoi", SAC2), bomb("Hanoi", F1, F2)])
    air.assign_missions(s, [bomb("1915", SAC), Mission("ground_support", "1915", (F1, F2))])


@pytest.mark.rule("NT 11.1.2")
def test_ground_support_limit_and_types():
    s = fresh(pieces=[(DIV, "1915")])
    air.assign_missions(s, [Mission("ground_support", "1915", (F1, HELI))])
    refused("NT 11.1.2", air.assign_missions, s, [Mission("ground_support", "1915", (F1, F2, F3))])
    refused("NT 11.1.2", air.assign_missions, s, [Mission("ground_support", "1915", (F1, F2)),
                                                  Mission("ground_support", "1915", (HELI,))])
    refused("NT 11.1.2", air.assign_missions, s, [Mission("ground_support", "1915", (SAC,))])
    refused("NT 11.1.2", air.assign_missions, s, [Mission("ground_support", "1916", (F1,))])


@pytest.mark.rule("NT 11.1.3")
def test_supply_mission():
    s = fresh(pieces=[("US 1/1", "1916"), (DIV, "1915")])
    air.assign_missions(s, [Mission("supply", "1916", (SAC,))])
    air.assign_missions(s, [Mission("supply", "1916", (HELI,))])
    refused("NT 11.1.3", air.assign_missions, s, [Mission("supply", "1915", (F1,))])
    refused("NT 11.1.3", air.assign_missions, s, [Mission("supply", "1916", (F1, F2))])


@pytest.mark.rule("NT 11.1.4", "NT 11.3.1", "NT 28.1.1")
def test_transport():
    s = fresh(pieces=[("US 1/1", "1916"), ("US 11 ACR", "1815"), ("US 1/5 Mech", "1815"), ("US 1/1 Cav", "1915"),
                      ("US FB 1", "1916"), ("ARVN 1", "1310"), ("Thai 333", "1210"), ("Thai BP 1", "1310")])
    new = air.assign_missions(s, [Mission("transport", "US 1/1", (HELI,))])
    assert HELI not in new.air and new.piece(HELI).location == "1916"
    assert air.helicopter_of(new, "US 1/1") == HELI and air.lost_with(new, ["US 1/1", "ARVN 1"]) == [HELI]
    assert air.helicopter_of(s, "US 1/1") is None
    for ground in ("US 11 ACR", "US 1/5 Mech", "US FB 1"):
        refused("NT 11.1.4", air.assign_missions, s, [Mission("transport", ground, (HELI,))])
    refused("NT 11.1.4 Note", air.assign_missions, s, [Mission("transport", "US 1/1 Cav", (HELI,))])
    refused("NT 11.1.4", air.assign_missions, s, [Mission("transport", "US 1/1", (F1,))])
    refused("NT 11.1.4", air.assign_missions, s, [Mission("transport", "US 1/1", (HELI, VHELI))])
    air.assign_missions(s, [Mission("transport", "ARVN 1", (SOA,))])
    air.assign_missions(s, [Mission("transport", "Thai 333", (SOA,))])
    refused("NT 28.1.1", air.assign_missions, s, [Mission("transport", "US 1/1", (SOA,))])
    refused("NT 28.1.1", air.assign_missions, s, [Mission("transport", "Thai BP 1", (SOA,))])
    # the helicopter stays on the map: the next refresh does not bring it back
    assert HELI not in air.refresh_unavailable(new).air


@pytest.mark.rule("NT 11.1.4")
def test_second_helicopter_refused():
    s = fresh(pieces=[("US 1/1", "1916")])
    s.air["US heli 2"] = "available"
    new = air.assign_missions(s, [Mission("transport", "US 1/1", (HELI,))])
    refused("NT 11.1.4", air.assign_missions, new, [Mission("transport", "US 1/1", ("US heli 2",))])


@pytest.mark.rule("NT 11.6")
def test_carriers_before_1968():
    pieces = [(DIV, "1915"), (DIV2, "1001"), (REG, "1210"), (SAM, "1916")]
    s = fresh(turn=17, pieces=pieces)
    air.assign_missions(s, [bomb("1001", CV, F1)])           # North Vietnam
    air.assign_missions(s, [bomb("1210", CV, F1)])           # Laos
    refused("NT 11.6", air.assign_missions, s, [bomb("1915", CV, F1)])
    s.place("USMC 1", "1310")                               # US Marines in I Corps open it
    air.assign_missions(s, [bomb("1915", CV, F1)])
    refused("NT 11.6", air.assign_missions, s, [bomb("1916", CV, F1)])      # II Corps has none
    air.assign_missions(fresh(turn=18, pieces=pieces), [bomb("1916", CV, F1)])


@pytest.mark.rule("NT 11.7")
def test_joint_us_arvn():
    s = fresh(turn=17, pieces=[(DIV, "1915"), (DIV2, "Hanoi")])
    refused("NT 11.7", air.assign_missions, s, [bomb("1915", F1, VNAF)])
    refused("NT 11.7", air.assign_missions, s, [bomb("1915", SAC), Mission("ground_support", "1915", (VNAF,))])
    air.assign_missions(s, [bomb("Hanoi", F1, VNAF)])                      # zones are exempt
    air.assign_missions(s, [bomb("1915", VNAF, "VNAF F 2")])
    air.assign_missions(fresh(turn=18, pieces=[(DIV, "1915")]), [bomb("1915", F1, VNAF)])


@pytest.mark.rule("NT 28.1.2", "NT 28.1.3")
def test_soa_countries():
    s = fresh(pieces=[(DIV, "1001"), (REG, "1210"), ("KR reg 1", "0119"), ("ARVN 1", "1310")])
    air.assign_missions(s, [bomb("1210", SOA)])
    refused("NT 28.1.2", air.assign_missions, s, [bomb("1001", SOA)])
    refused("NT 28.1.2", air.assign_missions, s, [bomb("0119", SOA)])
    s.standing["Cambodia"] = "allied"
    air.assign_missions(s, [bomb("0119", SOA)])
    air.assign_missions(s, [Mission("supply", "1310", (SOA,))])


# ------------------------------------------------------------------------------------------------ 12 AA fire
@pytest.mark.rule("NT 12.1", "NT 12.1.1")
def test_who_fires():
    s = fresh(pieces=[(DIV, "1915"), (SAM, "1915"), (REG, "1915"), (SUP, "1915"), (ART, "1815"), (TANK, "1815"),
                      ("US 1/1", "1916"), ("NVA 312", "1810")])
    assert air.aa_units(s, bomb("1915", SAC)) == [DIV, SAM]
    supply = air.aa_units(s, Mission("supply", "1916", (F1,)))
    assert sorted(supply) == sorted([DIV, SAM, ART, TANK])             # the units next to the supplied hex
    react = fresh(phase=air.REACTION_PHASE, pieces=[(DIV, "1915"), (SAM, "1915"), (ART, "1915")])
    assert air.aa_units(react, bomb("1915", F1), unsupplied=[SAM, ART, DIV]) == [DIV]
    assert air.aa_units(s, bomb("1915", F1), unsupplied=[SAM]) == [DIV, SAM]    # always supplied in defence


@pytest.mark.rule("NT 12.1.1", "NT 12.1.2", "NT 11.9.2")
def test_aa_values_and_modifiers():
    def hits(turn, shooter, target, roll):
        s = fresh(turn=turn, pieces=[(shooter, "1915")])
        fire = air.roll_aa(s, bomb("1915", target), ScriptedDice([roll]))
        return bool(fire.shots[0].hits)
    assert [r for r in range(1, 7) if hits(10, DIV, F1, r)] == [6]
    assert [r for r in range(1, 7) if hits(10, ART, F1, r)] == [5, 6]
    assert [r for r in range(1, 7) if hits(10, SAM, F1, r)] == [4, 5, 6]
    assert [r for r in range(1, 7) if hits(10, DIV, SAC, r)] == []          # 12.1.2: 6 - 1 = 5 misses
    assert [r for r in range(1, 7) if hits(10, ART, SAC, r)] == [6]
    assert [r for r in range(1, 7) if hits(10, SAM, SAC, r)] == [5, 6]
    assert [r for r in range(1, 7) if hits(41, SAM, F1, r)] == [4, 5, 6]    # Linebacker not yet
    assert [r for r in range(1, 7) if hits(42, SAM, SAC, r)] == [6]         # 11.9.2
    assert [r for r in range(1, 7) if hits(42, SAM, F1, r)] == [5, 6]
    assert [r for r in range(1, 7) if hits(42, ART, SAC, r)] == [6]         # other AA unchanged


@pytest.mark.rule("NT 12.1.1", "NT 12.2")
def test_allied_chooses_losses():
    s = fresh(turn=18, pieces=[(DIV, "1915"), (DIV2, "1915"), (ART, "1915")])
    m = bomb("1915", SAC, F1, F2)
    s = air.assign_missions(s, [m])
    fire = air.roll_aa(s, m, ScriptedDice([6, 3, 5]))     # division 6 (not vs SAC), division 3, artillery 5
    assert sorted(sorted(o) for o in air.legal_losses(fire)) == [[F1, F2]]
    fire = air.roll_aa(s, m, ScriptedDice([6, 1, 6]))     # artillery 6 can reach the SAC too
    assert sorted(sorted(o) for o in air.legal_losses(fire)) == [[F1, F2], [F1, SAC], [F2, SAC]]
    before = snapshot(s)
    with pytest.raises(RuleViolation) as e:
        air.resolve_bombing(s, m, fire, ScriptedDice([]))
    assert e.value.rule == "NT 12.1.1" and snapshot(s) == before
    with pytest.raises(RuleViolation):
        air.resolve_bombing(s, m, fire, ScriptedDice([]), losses=[SAC])
    assert air.choose_losses(fire, [F1, SAC, F2]) == {F1, SAC}      # his first choices that make a legal set
    assert air.choose_losses(fire, [F2, F1, SAC]) == {F1, F2}
    # lose the SAC and one fighter: the other fighter's pair is broken, so nothing bombs (12.2)
    new, r = air.resolve_bombing(s, m, fire, ScriptedDice([]), losses=[SAC, F1])
    assert r.lost == {SAC, F1} and r.rolls == () and new.dead >= {SAC, F1} and new.air[F2] == "unavailable"
    # keep the SAC: its attack goes in
    new, r = air.resolve_bombing(s, m, fire, ScriptedDice([6]), losses=[F1, F2], victims=[DIV2])
    assert r.lost == {F1, F2} and r.rolls == (6,) and r.destroyed == (DIV2,) and DIV2 not in new.pieces


# ------------------------------------------------------------------------------------------------ 11.1.1 bombing
def one_bombing(turn, target, units, pieces, rolls, **kw):
    s = fresh(turn=turn, pieces=pieces)
    m = bomb(target, *units)
    s = air.assign_missions(s, [m])
    dice = ScriptedDice(rolls)
    fire = air.roll_aa(s, m, dice)
    return air.resolve_bombing(s, m, fire, dice, **kw)


@pytest.mark.rule("NT 11.1.1.1", "NT 11.1.1.2", "NT 11.9.1")
def test_bombing_rolls():
    def kills(turn, target, units, roll, pieces=None):
        pieces = pieces or [(REG, target)]
        return bool(one_bombing(turn, target, units, pieces, [roll])[1].destroyed)
    assert [r for r in range(1, 7) if kills(10, "1915", (SAC,), r)] == [5, 6]          # clear hex
    assert [r for r in range(1, 7) if kills(10, "1916", (SAC,), r)] == [6]             # jungle
    assert [r for r in range(1, 7) if kills(10, "1001", (F1, F2), r)] == [5, 6]
    assert [r for r in range(1, 7) if kills(10, "Hanoi", (SAC,), r, [(SUP, "Hanoi")])] == [6]   # zone
    assert [r for r in range(1, 7) if kills(42, "Hanoi", (SAC,), r, [(SUP, "Hanoi")])] == [4, 5, 6]
    assert [r for r in range(1, 7) if kills(41, "Hanoi", (SAC,), r, [(SUP, "Hanoi")])] == [6]
    assert [r for r in range(1, 7) if kills(42, "Hanoi", (F1, F2), r, [(SUP, "Hanoi")])] == [6]  # SAC only
    assert [r for r in range(1, 7) if kills(42, "1916", (SAC,), r)] == [6]             # hexes as normal
    pj = [(REG, "Plain of Jars")]
    assert [r for r in range(1, 7) if kills(42, "Plain of Jars", (SOA,), r, pj)] == [6]  # a US SAC only


@pytest.mark.rule("NT 11.1.1.2", "NT 28.9.8")
def test_communist_chooses_victim():
    pieces = [(REG, "1916"), (SUP, "1916"), (DUMMY, "1916"), (BASE, "1916")]
    s = fresh(pieces=pieces)
    assert air.bombing_victims(s, "1916") == [REG, SUP, BASE]          # no dummy while supply is there
    assert air.bombing_victims(s, "1916", by_sac=False) == [REG, SUP]  # 28.9.8: only a SAC hits a base
    s.remove(SUP)
    assert DUMMY in air.bombing_victims(s, "1916", roll=5)
    assert BASE not in air.bombing_victims(s, "1916", roll=5)
    assert air.bombing_victims(s, "1916", exclude=[REG]) == [DUMMY, BASE]  # a unit already gone is not offered
    new, r = one_bombing(10, "1916", (SAC,), pieces, [6], victims=[DUMMY, SUP])
    assert r.destroyed == (SUP,)
    with pytest.raises(RuleViolation) as e:
        one_bombing(10, "1916", (SAC,), pieces, [6], victims=[DUMMY])
    assert e.value.rule == "NT 11.1.1.2"
    with pytest.raises(RuleViolation):
        one_bombing(10, "1916", (SAC,), pieces, [6])                    # a choice is needed
    new, r = one_bombing(10, "Hanoi", (SAC,), [(INT, "Hanoi")], [1, 6])  # AA miss, then a 6: no effect
    assert r.rolls == (6,) and r.destroyed == () and INT in new.pieces


@pytest.mark.rule("NT 11.8")
def test_niagara_two_attacks():
    pieces = [(DIV, "1916"), (DIV2, "1916")]
    new, r = one_bombing(18, "1916", (SAC, SAC2), pieces, [1, 1, 6, 6], victims=[DIV, DIV2])
    assert r.rolls == (6, 6) and r.destroyed == (DIV, DIV2)
    new, r = one_bombing(18, "1916", (F1, F2, F3, F4), pieces, [6, 1, 6], losses=[F2], victims=[DIV])
    assert r.lost == {F2} and r.rolls == (6,) and r.destroyed == (DIV,)


@pytest.mark.rule("NT 7.5")
def test_bombing_a_town_names_the_area():
    _, r = one_bombing(10, "1310", (SAC,), [(REG, "1310")], [1])
    assert r.town_area == "I"
    _, r = one_bombing(10, "1916", (SAC,), [(REG, "1916")], [1])
    assert r.town_area is None
    # 12.2: a SAC shot down over the town (the SAM's 6) never bombs it, so no marker moves.
    _, r = one_bombing(10, "1310", (SAC,), [(SAM, "1310"), (REG, "1310")], [6])
    assert r.lost == {SAC} and r.rolls == () and r.town_area is None


@pytest.mark.rule("NT 28.9.8", "NT 11.1.1.1")
def test_a_base_falls_only_to_a_sac_on_a_six():
    # In the mission's own procedure: a SAC's 6 may take the base, two fighters' 6 may not.
    _, r = one_bombing(10, "1916", (SAC,), [(BASE, "1916")], [6])
    assert r.destroyed == (BASE,)
    _, r = one_bombing(10, "1916", (F1, F2), [(BASE, "1916")], [6])
    assert r.rolls == (6,) and r.destroyed == ()
    # Exactly: over a clear hex a 5 destroys the regiment, and only a 6 may take the base (the Communist
    # player prefers to lose the base first here).
    s = fresh(pieces=[(BASE, "1915"), (REG, "1915")])
    d = air.bombing_odds(s, bomb("1915", SAC), victims=(BASE, REG))
    assert d.prob(lambda o: o[1] == (BASE,)) == F(1, 6) and d.prob(lambda o: o[1] == (REG,)) == F(1, 6)


# ------------------------------------------------------------------------------------------------ 11.5 dogfights
@pytest.mark.rule("NT 11.5")
def test_dogfight():
    s = fresh(pieces=[(INT, "Hanoi"), (INT2, "Hanoi"), (SUP, "Hanoi")])
    ms = [bomb("Hanoi", SAC), bomb("Hanoi", F1, F2)]
    s = air.assign_missions(s, ms)
    # fighters roll 3 (kill) and 2 (miss); interceptors roll 4 (kill) and 3 (miss): simultaneous
    new, left, d = air.dogfight(s, "Hanoi", ms, ScriptedDice([3, 2, 4, 3]), losses=[F1],
                                interceptor_losses=[INT2])
    assert d.allied_lost == {F1} and d.interceptors_lost == {INT2}
    assert F1 in new.dead and INT2 not in new.pieces and INT in new.pieces
    assert left == [bomb("Hanoi", SAC), bomb("Hanoi", F2)]
    assert sorted(sorted(o) for o in air.legal_dogfight_losses(s, "Hanoi", ms, [4, 3])) == [[F1], [F2], [SAC]]
    before = snapshot(s)
    with pytest.raises(RuleViolation):
        air.dogfight(s, "Hanoi", ms, ScriptedDice([3, 2, 4, 3]), losses=[F1])       # Communist must choose
    with pytest.raises(RuleViolation):
        air.dogfight(s, "Hanoi", ms, ScriptedDice([3, 2, 4, 3]), interceptor_losses=[INT])   # Allied choice
    assert snapshot(s) == before
    with pytest.raises(RuleViolation):
        air.dogfight(s, "Hanoi", [bomb("Hanoi", SAC)], ScriptedDice([]))              # no fighters
    assert [r for r in range(1, 7) if air.dogfight(s, "Hanoi", [bomb("Hanoi", F1, F2)],
            ScriptedDice([r, 1, 1, 1]), interceptor_losses=[INT])[2].interceptors_lost] == [3, 4, 5, 6]
    assert [r for r in range(1, 7) if air.dogfight(s, "Hanoi", [bomb("Hanoi", F1, F2)],
            ScriptedDice([1, 1, r, 1]), losses=[F1])[2].allied_lost] == [4, 5, 6]


@pytest.mark.rule("NT 11.5", "NT 12.2")
def test_fighters_dogfight_then_face_aa_then_bomb():
    s = fresh(pieces=[(INT, "Hanoi"), (SUP, "Hanoi")])
    m = bomb("Hanoi", F1, F2)
    s = air.assign_missions(s, [m])
    # dogfight: F1 3 (kills the interceptor), F2 1, interceptor 1; no AA left; bombing 6
    new, r, d = air.fly_bombing(ScriptedDice([3, 1, 1, 6]), s, m, victims=[SUP])
    assert d.interceptors_lost == {INT} and r.destroyed == (SUP,) and new.air[F1] == "unavailable"
    # the interceptor survives the dogfight and fires as AA as well (our reading): 4 downs a fighter
    new, r, d = air.fly_bombing(ScriptedDice([1, 1, 1, 4]), s, m, losses=[F2], victims=[SUP])
    assert r.lost == {F2} and r.rolls == ()


# ------------------------------------------------------------------------------------------------ 11.1.2 GS
@pytest.mark.rule("NT 11.1.2", "NT 12.2")
def test_ground_support_adjustments():
    s = fresh(pieces=[(DIV, "1916"), (REG, "1916"), (ART, "1916")])
    m = Mission("ground_support", "1916", (F1, HELI))
    s = air.assign_missions(s, [m])
    fire = air.roll_aa(s, m, ScriptedDice([6, 1]))        # division hits, artillery misses
    new, gs = air.resolve_ground_support(s, m, fire, losses=[HELI])
    assert gs.survivors == (F1,) and HELI in new.dead and new.air[F1] == "unavailable"
    assert air.ground_support_targets(s, "1916") == [DIV, REG]       # ground combat units only
    assert air.ground_support_adjustments(s, "1916", 1, [REG]) == {REG: air.GS}
    assert air.GS == Adjustment(-1, "NT 11.1.2", "ground support")
    assert air.ground_support_adjustments(s, "1916", 2) == {DIV: air.GS, REG: air.GS}
    for bad in ([REG, REG], [ART], [DIV, REG], []):
        with pytest.raises(RuleViolation):
            air.ground_support_adjustments(s, "1916", 1, bad)
    with pytest.raises(RuleViolation):
        air.ground_support_adjustments(s, "1916", 2, [REG, REG])     # one reduction per unit
    with pytest.raises(RuleViolation):
        air.ground_support_adjustments(s, "1916", 1)                 # the Allied player must choose
    assert air.ground_support_adjustments(s, "1916", 2, [REG, DIV]) == {REG: air.GS, DIV: air.GS}
    one = fresh(pieces=[(REG, "1916")])
    assert air.ground_support_adjustments(one, "1916", 2) == {REG: air.GS}   # never more than one each


# ------------------------------------------------------------------------------------------------ supply
@pytest.mark.rule("NT 11.1.3", "NT 12.1")
def test_air_supply_resolution():
    s = fresh(pieces=[("US 1/1", "1916"), (SAM, "1915")])
    m = Mission("supply", "1916", (F1,))
    s = air.assign_missions(s, [m])
    new, r = air.resolve_supply(s, m, air.roll_aa(s, m, ScriptedDice([3])))
    assert r.source == "1916" and new.air[F1] == "unavailable"
    new, r = air.resolve_supply(s, m, air.roll_aa(s, m, ScriptedDice([4])))
    assert r.source is None and F1 in new.dead


# ------------------------------------------------------------------------------------------------ 12.3
@pytest.mark.rule("NT 12.3")
def test_aa_combat_bonus():
    s = fresh(pieces=[(ART, "1915"), (DIV, "1815"), ("US 1/1 Cav", "1916"), ("US 2/1 Cav", "1310")])
    assert air.aa_combat_bonus(s, {"US 1/1 Cav": "1916"}, ["US 1/1 Cav"])
    assert not air.aa_combat_bonus(s, {"US 1/1 Cav": "1916"}, ["US 2/1 Cav"])    # must fight
    assert not air.aa_combat_bonus(s, {}, ["US 1/1 Cav"])                       # must have flown in
    assert not air.aa_combat_bonus(s, {"US 2/1 Cav": "1310"}, ["US 2/1 Cav"])   # no AA next to it
    s.update(ART, face_up=False)
    assert not air.aa_combat_bonus(s, {"US 1/1 Cav": "1916"}, ["US 1/1 Cav"])   # face up only
    s.place(SAM, "1915")
    assert air.airmobile_near_aa(s, {"US 1/1 Cav": "1916"}, ["US 1/1 Cav"]) == ("US 1/1 Cav",)
    # 12.3 reads hexes next to the AA: a unit that flew into a zone (even one bordering the AA) gains nothing.
    assert air.airmobile_near_aa(s, {"US 1/1 Cav": "Hanoi"}, ["US 1/1 Cav"]) == ()


# ------------------------------------------------------------------------------------------------ exact odds
@pytest.mark.rule("NT 11.1.1", "NT 12.1.1", "NT 12.1.2")
def test_exact_odds_inventory_figures():
    """The inventory's planner figures: two fighters against an NVA division and a SAM in jungle bomb 5/12 of
    the time and kill 5/72; a SAC gets through 2/3 of the time and kills 1/9."""
    s = fresh(pieces=[(DIV, "1916"), (SAM, "1916")])
    two = bomb("1916", F1, F2)
    d = air.bombing_odds(s, two)
    assert d.prob(lambda o: not o[0]) == F(5, 12)
    assert air.kill_chance(s, two) == F(5, 72)
    sac = bomb("1916", SAC)
    assert air.bombing_odds(s, sac).prob(lambda o: not o[0]) == F(2, 3)
    assert air.kill_chance(s, sac) == F(1, 9)
    clear = fresh(pieces=[(DIV, "1915"), (SAM, "1915")])
    assert air.kill_chance(clear, bomb("1915", SAC)) == F(2, 3) * F(1, 3)
    lb = fresh(turn=42, pieces=[(SUP, "Hanoi"), (SAM, "Hanoi")])
    assert air.kill_chance(lb, bomb("Hanoi", SAC)) == F(5, 6) * F(1, 2)
    assert air.kill_chance(fresh(turn=41, pieces=[(SUP, "Hanoi"), (SAM, "Hanoi")]),
                           bomb("Hanoi", SAC)) == F(2, 3) * F(1, 6)


@pytest.mark.rule("NT 11.5", "NT 11.1.1")
def test_exact_odds_with_dogfight():
    s = fresh(pieces=[(INT, "Hanoi"), (SUP, "Hanoi")])
    # fighters: no loss in the dogfight (1/2), interceptor killed (1 - (1/6)^2... computed by hand below)
    p_fighter_kill = 1 - F(2, 6) ** 2          # at least one fighter rolls 3-6
    p_no_loss_dogfight = F(1, 2)
    p_no_aa_hit_if_alive = F(1, 2)
    p = p_no_loss_dogfight * (p_fighter_kill + (1 - p_fighter_kill) * p_no_aa_hit_if_alive) * F(1, 6)
    assert air.kill_chance(s, bomb("Hanoi", F1, F2)) == p


def test_resolution_log():
    s = fresh(pieces=[(DIV, "1915")])
    m = bomb("1915", SAC)
    res = Resolution()
    s = air.assign_missions(s, [m], res=res)
    fire = air.roll_aa(s, m, ScriptedDice([6]), res=res)
    after, done = air.resolve_bombing(s, m, fire, ScriptedDice([5]), res=res)
    # the division destroyed by the bombing is eliminated and scores +1 at once (22.3)
    assert done.destroyed == (DIV,) and DIV not in after.pieces
    assert after.track.points == s.track.points + 1
    assert res.rules() == ["NT 11.2", "NT 12.1.1", "NT 11.1.1", "NT 19.2.6", "NT 22.3"]


@pytest.mark.rule("NT 22.3")
def test_aircraft_lost_to_aa_score_once():
    """An aircraft shot down is in the dead pile and moves the track by its 22.4 award, once."""
    s = fresh(pieces=[(DIV, "1915"), (SAM, "1915")])
    m = bomb("1915", SAC)
    s = air.assign_missions(s, [m])
    fire = air.roll_aa(s, m, ScriptedDice([1, 6]))         # the division misses, the SAM can down the SAC
    after, done = air.resolve_bombing(s, m, fire, ScriptedDice([]), losses=(SAC,))
    assert SAC in after.dead and done.destroyed == ()
    assert after.track.points == s.track.points - 1


@pytest.mark.rule("NT 12.1.1", "NT 12.2")
def test_survivor_odds():
    s = fresh(pieces=[(DIV, "1916"), (SAM, "1916"), (REG, "1916")])
    d = air.survivor_odds(s, Mission("ground_support", "1916", (F1, HELI)))
    assert dict(d) == {2: F(5, 12), 1: F(1, 2), 0: F(1, 12)}
    react = fresh(phase=air.REACTION_PHASE, pieces=[(DIV, "1916"), (SAM, "1916")])
    d = air.survivor_odds(react, Mission("ground_support", "1916", (F1,)), unsupplied=[SAM])
    assert dict(d) == {1: F(5, 6), 0: F(1, 6)}
