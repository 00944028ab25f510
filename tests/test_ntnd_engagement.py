"""No Trumpets No Drums, rule 19 on a position (wargames/ntnd/engagement.py), on the shipped map.

Hexes used (reconstructed map): Qui Nhon 2118 (jungle city on the coast, II Corps) with its land neighbours
2017 (clear, coastal), 2018 (clear), 2119 (clear, coastal) and the sea hexes 2117, 2217, 2218; 2016 a coastal
town, 2120 a coastal town on a minor river, 2019 jungle; 1917 jungle. Khe Sanh 1310 (I Corps) borders Laos
1209/1210; 0326-0327 share an all-sea hexside, 0419-0420 an all-lake one (Cambodia); 0104 borders the
Vientiane and Plain of Jars zones.
"""
from fractions import Fraction

import pytest

from wargames.core import ScriptedDice
from wargames.core.errors import RuleViolation
from wargames.ntnd import combat
from wargames.ntnd import engagement as en
from wargames.ntnd.politics import PoliticalTrack
from wargames.ntnd.state import NtndState

F = Fraction
QUI_NHON = "2118"


def fresh(turn=1):
    return NtndState(turn=turn, phase="combat")


def printed_example():
    """The 19.2 example on the map: USMC 1 and ARVN 1 with a firebase in 2018; ARVN 2 and ARVN armour 1 with a
    patrol boat in 2119; the fleet at sea in 2218; the NVA 304 division, the VC 1st Regiment and an artillery
    group in Qui Nhon; a second artillery group next door in 2017. (The map has no city on a swamp hex; a city
    on a jungle hex gives the same +3.)"""
    s = fresh()
    for u, at in (("USMC 1", "2018"), ("ARVN 1", "2018"), ("US FB 1", "2018"), ("ARVN 2", "2119"),
                  ("ARVN armor 1", "2119"), ("ARVN PB 1", "2119"), ("US Fleet", "2218"),
                  ("NVA 304", QUI_NHON), ("VC reg 1", QUI_NHON), ("NVA art 45", QUI_NHON), ("NVA art 68", "2017")):
        s.place(u, at)
    return s


ATTACKERS = ("USMC 1", "ARVN 1", "ARVN 2", "ARVN armor 1")


def example_battle(s=None, **kw):
    kw.setdefault("ground_support", ("NVA 304", "VC reg 1"))
    return en.battle_from_state(s or printed_example(), ATTACKERS, QUI_NHON, **kw)


def play(battle, *rolls):
    with ScriptedDice(list(rolls)) as d:
        return combat.resolve(battle, d)


def snapshot(s):
    return (dict(s.pieces), set(s.dead), s.track.points)


# ------------------------------------------------------------------------------------------------ golden
@pytest.mark.rule("NT 19.2", "NT 19.2.1", "NT 19.2.2", "NT 19.2.3", "NT 19.2.4", "NT 19.2.5", "NT 19.2.6",
                  "NT 11.1.2")
def test_printed_example_built_from_the_map():
    b = example_battle()
    assert [(u.id, u.current_morale) for u in b.attackers] == [("USMC 1", 4), ("ARVN 1", 2), ("ARVN 2", 2),
                                                                ("ARVN armor 1", 3)]
    assert [(u.id, u.current_morale) for u in b.defenders] == [("NVA 304", 3), ("VC reg 1", 2), ("NVA art 45", 1)]
    assert sorted((s.id, s.distance) for s in b.support) == [("ARVN PB 1", 1), ("NVA art 45", 0),
                                                             ("NVA art 68", 1), ("US FB 1", 1), ("US Fleet", 1)]
    assert b.defender_hex.terrain == "jungle" and "city" in b.defender_hex.features
    assert not b.vc_base_near and b.desertion is None and not b.armour_shock
    res = play(b, 3, 2)
    totals = res.find("NT 19.2")[-1].result
    assert totals == {"allied": F(27, 4), "communist": F(15, 2)}             # 6.75 and 7.5
    r = res.result
    assert (r.winner, r.double) == ("allied", False)
    assert r.attacker.total == F(39, 4) and r.defender.total == F(19, 2)     # 9.75 and 9.5
    assert r.defender.losses == 1 and set(r.defender.eligible) == {"NVA 304", "VC reg 1"}
    assert r.defender.retreat == ("NVA 304", "VC reg 1", "NVA art 45")
    # the loser picks the division or the regiment; the rest (the artillery) retreats
    assert en.loss_choices(r, "communist") == [("NVA 304",), ("VC reg 1",)]
    s = printed_example()
    after = en.apply_losses(s, r, {"communist": ("VC reg 1",)})
    assert "VC reg 1" not in after.pieces and "VC reg 1" not in after.dead      # back to the mix
    assert after.track.points == s.track.points + 1                              # 22.4: +1, at once
    assert en.retreating_units(after, r, "communist", QUI_NHON) == ("NVA 304", "NVA art 45")


# ------------------------------------------------------------------------------------------------ 19.1
@pytest.mark.rule("NT 19.1", "NT 19.1.1", "NT 6.2.1")
def test_attack_needs_face_up_adjacent_units_and_takes_the_whole_stack():
    s = printed_example()
    assert en.check_attack(s, ("USMC 1",), QUI_NHON, "allied") == ("NVA 304", "VC reg 1", "NVA art 45")
    s2 = s.copy()
    s2.update("USMC 1", face_up=False)
    with pytest.raises(RuleViolation, match="face down") as e:
        en.check_attack(s2, ("USMC 1",), QUI_NHON, "allied")
    assert e.value.rule == "NT 6.2.1"
    s3 = s.copy()
    s3.place("US 1/1", "2019")                      # two hexes away
    with pytest.raises(RuleViolation, match="not adjacent"):
        en.check_attack(s3, ("US 1/1",), QUI_NHON, "allied")
    s4 = s.copy()
    for u in ("NVA 304", "VC reg 1", "NVA art 45"):
        s4.update(u, face_up=False)
    with pytest.raises(RuleViolation, match="no face-up"):
        en.check_attack(s4, ("USMC 1",), QUI_NHON, "allied")
    s5 = s.copy()
    s5.update("NVA art 45", face_up=False)          # retreated in face down (19.3.8): not engaged
    assert en.check_attack(s5, ("USMC 1",), QUI_NHON, "allied") == ("NVA 304", "VC reg 1")
    with pytest.raises(RuleViolation):
        en.check_attack(s, ("NVA 304",), QUI_NHON, "allied")   # not an Allied unit
    # the fleet and air units never defend (14.2)
    s6 = fresh()
    s6.place("US Fleet", "2117")
    s6.place("US F 2AD", "2117")
    s6.place("NVA art 68", "2017")
    with pytest.raises(RuleViolation, match="no face-up"):
        en.check_attack(s6, ("NVA art 68",), "2117", "communist")


@pytest.mark.rule("NT 19.1.3")
def test_no_unit_fights_twice():
    s = printed_example()
    with pytest.raises(RuleViolation, match="already fought"):
        en.check_attack(s, ("USMC 1",), QUI_NHON, "allied", fought={"USMC 1"})
    with pytest.raises(RuleViolation, match="already fought"):
        en.check_attack(s, ("USMC 1",), QUI_NHON, "allied", fought={"VC reg 1"})
    b = example_battle()
    fought = en.record_battle(frozenset(), b)
    assert fought == set(ATTACKERS) | {"NVA 304", "VC reg 1", "NVA art 45"}
    # only the firebase, which did not fight, may still attack the artillery next door (alone, 19.2.1)
    assert en.combat_candidates(s, "allied", fought=fought) == [en.Candidate("2017", ("NVA art 68",),
                                                                              ("US FB 1",))]
    # 2018 holds units that fought: its stack cannot be attacked again, even for its firebase
    assert en.combat_candidates(s, "communist", fought=fought) == []


@pytest.mark.rule("NT 19.1", "NT 19.2.1")
def test_candidates_and_support_units_attack_only_alone():
    s = printed_example()
    cands = {c.defender_location: c for c in en.combat_candidates(s, "allied")}
    assert set(cands) == {QUI_NHON, "2017"}
    assert set(cands[QUI_NHON].attackers) == set(ATTACKERS) | {"US FB 1", "ARVN PB 1"}
    assert set(cands["2017"].attackers) == {"USMC 1", "ARVN 1", "US FB 1"}
    assert en.check_attack(s, ("ARVN PB 1",), QUI_NHON, "allied")
    with pytest.raises(RuleViolation, match="only alone"):
        en.check_attack(s, ("ARVN 2", "ARVN PB 1"), QUI_NHON, "allied")
    comm = {c.defender_location: set(c.attackers) for c in en.combat_candidates(s, "communist")}
    assert comm["2018"] == {"NVA 304", "VC reg 1", "NVA art 45", "NVA art 68"}
    s.place("VC base 1", "2017")
    with pytest.raises(RuleViolation, match="VC Base"):
        en.check_attack(s, ("VC base 1",), "2018", "communist")
    s.place("supply 1", "2017")
    with pytest.raises(RuleViolation, match="not a unit that attacks"):
        en.check_attack(s, ("supply 1",), "2018", "communist")


@pytest.mark.rule("NT 19.1.2", "NT 10.2", "NT 10.3.1")
def test_hexsides_borders_and_neutral_units():
    s = fresh()
    s.place("Cam inf 1", "0326")
    s.place("KR reg 1", "0327")
    s.place("Cam inf 2", "0419")
    s.place("Cam inf 3", "0321")
    s.place("KR reg 2", "0420")
    s.standing["Cambodia"] = "allied"
    with pytest.raises(RuleViolation, match="all-sea"):
        en.check_attack(s, ("KR reg 1",), "0326", "communist")
    with pytest.raises(RuleViolation, match="all-lake"):
        en.check_attack(s, ("KR reg 2",), "0419", "communist")
    s.standing["Cambodia"] = "neutral"
    with pytest.raises(RuleViolation, match="NT 10.3.1|Cambodian"):
        en.check_attack(s, ("Cam inf 3",), "0420", "allied")
    s.standing["Cambodia"] = "allied"
    assert en.check_attack(s, ("Cam inf 3",), "0420", "allied") == ("KR reg 2",)
    k = fresh()
    k.place("US 1/1", "1310")
    k.place("NVA 304", "1209")
    with pytest.raises(RuleViolation, match="neutral Laos"):
        en.check_attack(k, ("US 1/1",), "1209", "allied")
    assert en.check_attack(k, ("US 1/1",), "1209", "allied", violate=("Laos",)) == ("NVA 304",)
    k.standing["Laos"] = "allied"
    assert en.check_attack(k, ("US 1/1",), "1209", "allied") == ("NVA 304",)


@pytest.mark.rule("NT 8.9.1", "NT 9.3")
def test_militia_abroad_and_zones():
    s = fresh()
    s.standing["Laos"] = "allied"
    s.place("SVN militia 1", "1310")
    s.place("PL reg 1", "1209")
    assert en.check_attack(s, ("SVN militia 1",), "1209", "allied")
    s2 = fresh()
    s2.standing["Laos"] = "allied"
    s2.place("SVN militia 1", "1209")
    s2.place("NVA 304", "1310")
    with pytest.raises(RuleViolation, match="outside SVN"):
        en.check_attack(s2, ("SVN militia 1",), "1310", "allied")
    g = fresh()
    g.standing["Laos"] = "allied"
    g.place("VC reg 1", "1210")                       # a Viet Cong guerrilla in Laos
    g.place("PL reg 1", "1209")                       # a Pathet Lao one at home
    g.place("US 1/1", "1310")
    with pytest.raises(RuleViolation, match="outside SVN"):
        en.check_attack(g, ("VC reg 1",), "1310", "communist")
    assert en.check_attack(g, ("PL reg 1",), "1310", "communist") == ("US 1/1",)
    z = fresh()
    z.standing["Laos"] = "allied"
    z.place("Lao inf 1", "Vientiane")
    z.place("PL reg 1", "Vientiane")
    z.place("Lao inf 2", "0104")
    assert en.check_attack(z, ("Lao inf 1",), "Vientiane", "allied") == ("PL reg 1",)
    with pytest.raises(RuleViolation, match="zone"):
        en.check_attack(z, ("Lao inf 2",), "Vientiane", "allied")
    b = en.battle_from_state(z, ("Lao inf 1",), "Vientiane")
    assert b.defender_hex.terrain == "zone" and b.defenders[0].in_zone


# ------------------------------------------------------------------------------------------------ morale
@pytest.mark.rule("NT 11.1.2", "NT 11.3")
def test_ground_support_limits():
    b = example_battle(ground_support=("NVA 304",))
    assert [u.current_morale for u in b.defenders[:2]] == [3, 3]
    with pytest.raises(RuleViolation, match="only once"):
        example_battle(ground_support=("NVA 304", "NVA 304"))
    monsoon = printed_example()
    monsoon.turn = 2                                  # May/Jun 1965
    with pytest.raises(RuleViolation, match="monsoon"):
        example_battle(monsoon)
    assert example_battle(monsoon, ground_support=()).defenders[0].current_morale == 4
    with pytest.raises(RuleViolation, match="Communist ground combat"):
        example_battle(ground_support=("NVA art 45",))
    with pytest.raises(RuleViolation, match="Communist ground combat"):
        example_battle(ground_support=("USMC 1",))
    s = printed_example()
    s.remove("NVA art 45")
    s.place("VC reg 2", QUI_NHON)      # three ground units in the hex (overstacked, for the count only)
    with pytest.raises(RuleViolation, match="two air units"):
        en.battle_from_state(s, ATTACKERS, QUI_NHON, ground_support=("NVA 304", "VC reg 1", "VC reg 2"))


@pytest.mark.rule("NT 15.2.2", "NT 16.3", "NT 28.2.1", "NT 7.3.3")
def test_militia_green_beret_and_hearts_and_minds():
    s = fresh()
    s.place("SVN militia 1", "2018")
    s.place("SVN Montagnard 1", "2017")
    s.place("US 5SFM", "2018")
    s.place("ARVN 1", "2119")
    s.place("NVA 304", QUI_NHON)
    who = ("SVN militia 1", "SVN Montagnard 1", "US 5SFM", "ARVN 1")
    b = en.battle_from_state(s, who, QUI_NHON)
    assert [u.current_morale for u in b.attackers] == [1, 2, 2, 2]
    s.place("US GB 1", "1917")                # 2018 and 2017 within 2; 2119 three away
    b = en.battle_from_state(s, who, QUI_NHON)
    assert [u.current_morale for u in b.attackers] == [2, 3, 3, 2]
    s.hearts_minds["II"] = "allied_control"
    b = en.battle_from_state(s, who, QUI_NHON)
    assert [u.current_morale for u in b.attackers] == [3, 3, 3, 2]
    s.hearts_minds["II"] = "pro_allied"
    b = en.battle_from_state(s, ("SVN militia 1",), QUI_NHON)
    assert b.attackers[0].current_morale == 2


@pytest.mark.rule("NT 25.1", "NT 25.2", "NT 25.4", "NT 25.4.1")
def test_demoralized_arvn_and_desertion():
    s = printed_example()
    s.track = PoliticalTrack(40)
    b = example_battle(s)
    assert [u.current_morale for u in b.attackers] == [4, 1, 1, 2]      # US unchanged, ARVN -1
    assert b.desertion is None                # a US ground unit is in South Vietnam: 25.3 only, no rolls
    s.remove("USMC 1")
    b = en.battle_from_state(s, ATTACKERS[1:], QUI_NHON)
    assert b.desertion == combat.Desertion(None)
    s.hearts_minds["II"] = "communist_control"
    assert en.battle_from_state(s, ATTACKERS[1:], QUI_NHON).desertion == combat.Desertion("communist")
    b = en.battle_from_state(s, ATTACKERS[1:], QUI_NHON, points_at_turn_start=50)
    assert b.desertion is None and [u.current_morale for u in b.attackers] == [2, 2, 3]


# ------------------------------------------------------------------------------------------------ fire support
@pytest.mark.rule("NT 19.2.2", "NT 13.1.1", "NT 13.2.1", "NT 14.1", "NT 14.2", "NT 19.3.8")
def test_fire_support_ranges():
    s = fresh()
    s.place("NVA 304", QUI_NHON)
    s.place("US 1/1", "2018")
    for u, at in (("US FB 1", "1917"), ("US FB 2", "1817"), ("US Fleet", "2217"),
                  ("ARVN PB 1", "2016"), ("ARVN PB 2", "2119"), ("NVA art 45", "2017"), ("NVA art 68", "2016")):
        s.place(u, at, face_up=True) if u != "NVA art 68" else None
    got = {x.id: x.distance for x in en.fire_support_in_range(s, QUI_NHON, "allied")}
    assert got == {"US FB 1": 2, "US Fleet": 1, "ARVN PB 2": 1, "NVA art 45": 1}    # FB 2 3 away, PB 1 2 away
    s.update("US Fleet", location="2220")                  # three hexes out
    assert "US Fleet" not in {x.id for x in en.fire_support_in_range(s, QUI_NHON, "allied")}
    s.place("NVA art 68", "2019")                          # two hexes: out of range
    s.update("NVA art 45", face_up=False)                  # face down: no effect (19.3.8)
    assert not [x for x in en.fire_support_in_range(s, QUI_NHON, "allied") if x.type == "artillery"]


@pytest.mark.rule("NT 13.4")
def test_out_of_supply_support_only_in_own_turn():
    s = printed_example()
    b = example_battle(s, out_of_supply=("US FB 1",))
    assert [x.supplied for x in b.support if x.id == "US FB 1"] == [False]
    with pytest.raises(RuleViolation, match="NT 13.4|phasing"):
        example_battle(s, out_of_supply=("NVA art 45",))


# ------------------------------------------------------------------------------------------------ terrain, bases
@pytest.mark.rule("NT 19.2.3")
def test_attackers_on_rivers():
    s = fresh()
    s.place("NVA 304", "2119")
    s.place("US 1/1", "2120")                         # minor river
    b = en.battle_from_state(s, ("US 1/1",), "2119")
    assert [h.features for h in b.attacker_hexes] == [frozenset({"coastal", "minor_river", "town"})]
    assert combat.terrain_bonus(b, combat.Resolution()) >= 1
    s.place("US 2/1", "2018")                         # no river: the river row goes
    b2 = en.battle_from_state(s, ("US 1/1", "US 2/1"), "2119")
    assert combat.terrain_bonus(b2, combat.Resolution()) == combat.terrain_bonus(b, combat.Resolution()) - 1


@pytest.mark.rule("NT 28.9.4", "NT 28.8", "NT 12.3")
def test_vc_base_near_and_passed_bonuses():
    s = printed_example()
    s.place("VC base 1", "2019")                      # next to 2018, an attacking hex
    assert example_battle(s).vc_base_near
    s2 = printed_example()
    s2.place("VC base 1", "1917")                     # two from every hex of the battle
    assert not example_battle(s2).vc_base_near
    b = example_battle(airmobile_near_aa=("ARVN 1",), armour_shock=True)
    assert b.airmobile_near_aa == ("ARVN 1",) and b.armour_shock


# ------------------------------------------------------------------------------------------------ losses
@pytest.mark.rule("NT 19.2.6", "NT 22.4")
def test_losses_are_the_owners_choice_and_refusals_change_nothing():
    s = printed_example()
    r = play(example_battle(s), 3, 2).result
    before = snapshot(s)
    for bad in ({"communist": ()}, {"communist": ("NVA 304", "VC reg 1")}, {"communist": ("NVA art 45",)},
                {"communist": ("VC reg 1",), "allied": ("USMC 1",)}):
        with pytest.raises(RuleViolation):
            en.apply_losses(s, r, bad)
    assert snapshot(s) == before
    # an Allied defeat: the chosen unit goes to the dead pile and costs a point; the firebase, forced to
    # retreat, is eliminated (19.3.7); the patrol boat (artillery in the battle) too (14.1.2)
    r2 = play(example_battle(s), 1, 6).result
    assert r2.winner == "communist" and r2.attacker.losses == 1
    assert en.loss_choices(r2, "allied") == [(u,) for u in ATTACKERS]
    after = en.apply_losses(s, r2, {"allied": ("ARVN 1",)})
    assert "ARVN 1" in after.dead and after.track.points == s.track.points - 1
    assert snapshot(s) == before


@pytest.mark.rule("NT 19.3.7", "NT 14.1.2", "NT 15.2.3.1", "NT 15.2.3.2", "NT 13.1", "NT 13.1.2")
def test_units_destroyed_by_a_forced_retreat():
    s = fresh()
    s.place("ARVN 1", "2018")
    s.place("US FB 1", "2018")
    s.place("US GB 1", "2018")
    s.place("SVN militia 1", "1917")                 # in the Green Beret's zone, no town: goes with it
    s.place("SVN militia 2", "1918")                 # in a town: stays
    s.place("NVA 304", QUI_NHON)
    b = en.battle_from_state(s, ("NVA 304",), "2018")
    r = play(b, 6, 2).result                          # 4 + 6 = 10 against 2 + 1 + 1 + 2 = 6: not twice
    assert (r.winner, r.double) == ("communist", False)
    assert set(r.defender.destroyed_by_retreat) == {"US FB 1", "US GB 1"}
    after = en.apply_losses(s, r, {"allied": ("ARVN 1",)})
    assert {"ARVN 1", "US FB 1", "US GB 1"} <= after.dead
    assert "SVN militia 1" not in after.pieces and "SVN militia 1" not in after.dead   # to the mix, no points
    assert "SVN militia 2" in after.pieces
    assert after.track.points == s.track.points - 3


# ------------------------------------------------------------------------------------------------ retreats
@pytest.mark.rule("NT 19.3", "NT 19.3.3", "NT 19.3.9", "NT 8.6.2")
def test_retreat_options():
    s = printed_example()
    opts = en.retreat_options(s, "NVA 304")
    assert set(opts) == {"2017"}                     # 2018/2119 Allied, the rest sea (2017 holds friends)
    assert set(en.retreat_options(s, "ARVN PB 1")) == {"2120", "2218", "2219"}   # not 2018, inland
    assert "2117" not in en.retreat_options(s, "ARVN 2")
    z = fresh()
    z.place("Lao inf 1", "0104")
    assert {"Vientiane", "Plain of Jars"} <= set(en.retreat_options(z, "Lao inf 1"))
    z.place("PL reg 1", "Vientiane")
    assert "Vientiane" not in en.retreat_options(z, "Lao inf 1")
    z.place("Lao inf 2", "Vientiane")
    assert en.retreat_options(z, "Lao inf 2") == []                      # 19.3.9
    k = fresh()
    k.place("NVA 304", "1310")
    assert "1209" in en.retreat_options(k, "NVA 304")                    # across a border (19.3.3)


@pytest.mark.rule("NT 19.3.4", "NT 8.7")
def test_retreat_to_the_fleet():
    s = fresh()
    s.place("US Fleet", "2217")
    for u, at in (("US 1/1", "2119"), ("US 2/1", "2119"), ("US 3/1", "2017"), ("US FB 1", "2017")):
        s.place(u, at)
    s.place("US 1/4", "2018")
    assert "fleet" in en.retreat_options(s, "US 1/1")
    assert "fleet" not in en.retreat_options(s, "US 1/4")                # not coastal
    assert "fleet" not in en.retreat_options(s, "US FB 1")
    s1 = en.retreat(s, "US 1/1", "fleet")
    assert s1.piece("US 1/1").location == "2217" and s1.piece("US 1/1").marked(en.ON_FLEET)
    s2 = en.retreat(s1, "US 2/1", "fleet")
    assert "fleet" not in en.retreat_options(s2, "US 3/1")               # two already
    with pytest.raises(RuleViolation):
        en.retreat(s2, "US 3/1", "fleet")
    assert s.piece("US 1/1").location == "2119"                          # input untouched


@pytest.mark.rule("NT 19.3.5")
def test_airmobile_retreat_to_a_friendly_settlement():
    s = fresh()
    s.place("US 1/1 Cav", "2018")
    s.place("US 1/1", "2016")                         # a coastal town of II Corps held by a friend
    s.place("NVA 304", "2120")                        # a town held by the enemy
    opts = en.retreat_options(s, "US 1/1 Cav")
    assert "2016" in opts and "2120" not in opts
    s.place("US 2/1", "2019")
    assert "2016" not in en.retreat_options(s, "US 2/1")                # not airmobile


@pytest.mark.rule("NT 19.3.6", "NT 19.3.8")
def test_no_retreat_eliminates_and_retreating_into_a_battle_turns_face_down():
    s = fresh()
    s.place("NVA 304", "2017")
    for u, at in (("US 1/1", "2016"), ("US 2/1", "2018"), ("US 3/1", QUI_NHON), ("US 1/4", "1917"),
                  ("US 2/4", "1918")):
        s.place(u, at)
    assert en.retreat_options(s, "NVA 304") == []
    with pytest.raises(RuleViolation):
        en.retreat(s, "NVA 304", "2016")
    gone = en.retreat(s, "NVA 304", None)
    assert "NVA 304" not in gone.pieces and gone.track.points == s.track.points + 1
    with pytest.raises(RuleViolation, match="can retreat"):
        en.retreat(s, "US 2/1", None)
    moved = en.retreat(s, "US 2/1", "2019", under_attack={"2019"})
    assert moved.piece("US 2/1").location == "2019" and not moved.piece("US 2/1").face_up
    assert en.retreat(s, "US 2/1", "2019").piece("US 2/1").face_up


@pytest.mark.rule("NT 19.3.8")
def test_face_down_units_in_the_hex_share_the_retreat():
    s = printed_example()
    s.place("VC reg 2", QUI_NHON, face_up=False)
    r = play(example_battle(s), 3, 2).result
    assert "VC reg 2" not in [u.id for u in example_battle(s).defenders]
    after = en.apply_losses(s, r, {"communist": ("NVA 304",)})
    assert en.retreating_units(after, r, "communist", QUI_NHON) == ("VC reg 1", "NVA art 45", "VC reg 2")
    assert en.retreating_units(after, r, "allied", QUI_NHON) == ()


@pytest.mark.rule("NT 19.3.2", "NT 8.10.1", "NT 8.10.1.2")
def test_overstack_after_retreat_is_the_owners_choice():
    s = fresh()
    s.place("NVA 304", "2017")
    s.place("NVA 320", "2016")
    s.place("VC reg 1", "2016")
    s.place("NVA art 45", "2017")
    s.place("NVA art 68", "2016")
    assert en.overstack_choices(s, "2017", "communist") == [()]
    s2 = en.retreat(s, "NVA 304", "2016")
    s2 = en.retreat(s2, "NVA art 45", "2016")
    choices = en.overstack_choices(s2, "2016", "communist")
    assert len(choices) == 3 * 2 and all(len(c) == 2 for c in choices)
    before = snapshot(s2)
    with pytest.raises(RuleViolation):
        en.eliminate_overstack(s2, "2016", "communist", ("NVA 304",))
    assert snapshot(s2) == before
    s3 = en.eliminate_overstack(s2, "2016", "communist", ("VC reg 1", "NVA art 68"))
    assert en.overstack_choices(s3, "2016", "communist") == [()]
    sg = fresh()
    saigon = sg.geography.label(sg.geography.place("Saigon"))
    for u in ("US 1/1", "US 2/1", "US 3/1"):
        sg.place(u, saigon)
    assert en.overstack_choices(sg, saigon, "allied") == [()]          # three allowed in Saigon
    assert en.overstack_choices(sg, saigon, "communist") == [()]


# ------------------------------------------------------------------------------------------------ advance
@pytest.mark.rule("NT 19.4")
def test_advance_after_combat():
    s = printed_example()
    s.place("SVN militia 1", "2018")
    b = en.battle_from_state(s, ATTACKERS + ("SVN militia 1",), QUI_NHON, ground_support=("NVA 304", "VC reg 1"))
    r = play(b, 6, 1).result
    assert r.winner == "allied"
    after = en.apply_losses(s, r, {"communist": ("NVA 304",)})
    assert en.advance_options(after, r, b, QUI_NHON) == ()              # enemy units are still there
    after = en.retreat(after, "VC reg 1", "2017")
    assert en.advance_options(after, r, b, QUI_NHON) == ()
    after = en.retreat(after, "NVA art 45", "2017")
    opts = en.advance_options(after, r, b, QUI_NHON)
    assert set(opts) == set(ATTACKERS)                                   # not the militia (immobile)
    before = snapshot(after)
    with pytest.raises(RuleViolation, match="overstack"):
        en.advance(after, r, b, QUI_NHON, ("USMC 1", "ARVN 1", "ARVN 2"))
    assert snapshot(after) == before
    with pytest.raises(RuleViolation):
        en.advance(after, r, b, QUI_NHON, ("SVN militia 1",))
    done = en.advance(after, r, b, QUI_NHON, ("USMC 1", "ARVN 2"))
    assert done.piece("USMC 1").location == QUI_NHON and after.piece("USMC 1").location == "2018"
    # militia with a Green Beret overseeing both hexes may advance
    after.place("US GB 1", "2019")
    assert "SVN militia 1" in en.advance_options(after, r, b, QUI_NHON)
    # the loser never advances; in a tie only a side that did not retreat
    lost = play(b, 1, 6).result
    assert en.advance_options(after, lost, b, QUI_NHON) == ()
    tie = combat.CombatResult(None, False, r.attacker, r.defender)
    assert en.advance_options(after, tie, b, QUI_NHON)
    assert en.advance_options(after, tie, b, QUI_NHON, retreated=("ARVN 1",)) == ()


@pytest.mark.rule("NT 19.1", "NT 8.7")
def test_attack_declaration_errors():
    s = printed_example()
    with pytest.raises(RuleViolation, match="at least one"):
        en.check_attack(s, (), QUI_NHON, "allied")
    with pytest.raises(RuleViolation, match="twice"):
        en.check_attack(s, ("USMC 1", "USMC 1"), QUI_NHON, "allied")
    with pytest.raises(RuleViolation, match="no communist unit"):
        en.check_attack(s, ("USMC 1",), "2019", "allied")
    with pytest.raises(RuleViolation, match="neither"):
        en.check_attack(s, ("USMC 1",), "9999", "allied")
    s.place("US 1/1", "2119")
    s.update("US 1/1", marks=frozenset({en.ON_FLEET}))
    with pytest.raises(RuleViolation, match="fleet"):
        en.check_attack(s, ("US 1/1",), QUI_NHON, "allied")


@pytest.mark.rule("NT 19.2.6", "NT 19.3.1")
def test_tie_defender_decides_first():
    s2 = fresh()
    s2.place("US 1/1", "2018")
    s2.place("NVA 304", "2017")
    b2 = en.battle_from_state(s2, ("NVA 304",), "2018")
    r = play(b2, 2, 3).result                         # 4 + 2 = 6 = 3 + 3
    assert r.winner is None
    after = en.apply_losses(s2, r, {"communist": ("NVA 304",), "allied": ("US 1/1",)})
    assert en.retreat_sequence(after, r, "2018") == []
    s3 = fresh()
    for u, at in (("US 1/1", "2018"), ("US 2/1", "2018"), ("NVA 304", "2017"), ("NVA 320", "2017")):
        s3.place(u, at)
    b3 = en.battle_from_state(s3, ("NVA 304", "NVA 320"), "2018")
    r3 = play(b3, 2, 3).result
    assert r3.winner is None
    after = en.apply_losses(s3, r3, {"communist": ("NVA 304",), "allied": ("US 1/1",)})
    assert en.retreat_sequence(after, r3, "2018") == [("allied", (), ("US 2/1",)), ("communist", (), ("NVA 320",))]


@pytest.mark.rule("NT 25.3", "NT 25.4.2")
def test_deserters_leave_without_points():
    s = printed_example()
    r = play(example_battle(s), 3, 2).result
    out = combat.SideOutcome("allied", r.attacker.total, deserted=("ARVN 1",))
    r2 = combat.CombatResult(r.winner, r.double, out, r.defender)
    after = en.apply_losses(s, r2, {"communist": ("VC reg 1",)})
    assert "ARVN 1" in after.dead and after.track.points == s.track.points + 1     # only the VC regiment scores


@pytest.mark.rule("NT 19.3.5", "NT 8.2")
def test_airmobile_range_by_weather():
    s = fresh(turn=1)                                 # Mar/Apr: clear weather
    s.place("US 1/1 Cav", "2018")
    far = s.geography.label(s.geography.place("Can Tho"))        # IV Corps, far from II
    s.place("ARVN 1", far)
    assert far not in en.retreat_options(s, "US 1/1 Cav")
    s2 = fresh(turn=2)                                # May/Jun: monsoon, nine hexes
    s2.place("US 1/1 Cav", "2018")
    s2.place("US 1/1", "2016")
    s2.place("ARVN 1", far)
    opts = en.retreat_options(s2, "US 1/1 Cav")
    assert "2016" in opts and far not in opts


@pytest.mark.rule("NT 19.3.7", "NT 15.2.3.1")
def test_firebase_and_green_beret_never_retreat():
    s = fresh()
    s.place("US FB 1", "2018")
    s.place("US GB 1", "2019")
    assert en.retreat_options(s, "US FB 1") == [] and en.retreat_options(s, "US GB 1") == []
    assert "US FB 1" in en.retreat(s, "US FB 1", None).dead


@pytest.mark.rule("NT 24.4.6")
def test_vietnamization_attack_cost():
    from dataclasses import replace
    s = printed_example()
    assert en.charge_attack(s, example_battle(s)).track.points == s.track.points      # no Vietnamization
    s.policy = replace(s.policy, vietnamization="partial")
    assert en.charge_attack(s, example_battle(s)).track.points == s.track.points - 1   # USMC 1 attacks
    arvn = en.battle_from_state(s, ("ARVN 1", "ARVN 2"), QUI_NHON)
    assert en.charge_attack(s, arvn).track.points == s.track.points
    rok = fresh()
    rok.policy = s.policy
    rok.place("ROK 1", "2018")
    rok.place("NVA 304", QUI_NHON)
    b = en.battle_from_state(rok, ("ROK 1",), QUI_NHON)
    assert en.charge_attack(rok, b).track.points == rok.track.points - 1             # SEATO counts too


@pytest.mark.rule("NT 19.1.2", "NT 17.2")
def test_reveal_inverted_units_next_to_allied_ground_units():
    s = fresh()
    s.place("US 1/1", "2018")
    s.place("VC reg 1", QUI_NHON, face_up=False)
    s.place("dummy 1", "2017", face_up=False)
    s.place("VC reg 2", "1917", face_up=False)        # two hexes away
    s.place("Cam inf 1", "0326")
    s.place("KR reg 1", "0327", face_up=False)        # behind an all-sea hexside
    s.place("US 2/1", "1310")
    s.place("PL reg 1", "1209", face_up=False)        # behind the border of neutral Laos
    before = snapshot(s)
    new = en.reveal(s)
    assert snapshot(s) == before
    assert new.piece("VC reg 1").face_up and "dummy 1" not in new.pieces and "dummy 1" not in new.dead
    assert new.track.points == s.track.points
    assert not new.piece("VC reg 2").face_up and not new.piece("KR reg 1").face_up
    assert not new.piece("PL reg 1").face_up
    fb = fresh()
    fb.place("US FB 1", "2018")                       # not a ground combat unit: reveals nothing
    fb.place("VC reg 1", QUI_NHON, face_up=False)
    assert not en.reveal(fb).piece("VC reg 1").face_up
    assert en.reveal(s, violate=("Laos",)).piece("PL reg 1").face_up


@pytest.mark.rule("NT 14.1.2", "NT 19.2.6")
def test_retreat_checked_against_the_result():
    s = fresh()
    s.place("US 1/1", "2119")
    s.place("US PB TF116", "2119")
    s.place("NVA 304", QUI_NHON)
    s.place("NVA art 45", QUI_NHON)
    b = en.battle_from_state(s, ("NVA 304",), "2119")
    rolls = next((a, d) for a in range(1, 7) for d in range(1, 7) if play(b, a, d).result.winner is None)
    r = play(b, *rolls).result
    assert r.defender.may_retreat == ("US 1/1", "US PB TF116") and "US PB TF116" in r.defender.destroyed_by_retreat
    after = en.apply_losses(s, r, {"communist": ("NVA 304",), "allied": ("US 1/1",)})
    assert "US PB TF116" in after.pieces                            # a tie: it may stay
    gone = en.retreat(after, "US PB TF116", "2120", result=r)       # retreating, it is lost to the artillery
    assert "US PB TF116" in gone.dead
    assert en.retreat(after, "US PB TF116", "2120").piece("US PB TF116").location == "2120"
    with pytest.raises(RuleViolation, match="does not retreat"):
        en.retreat(after, "NVA art 45", "2017", result=r)
