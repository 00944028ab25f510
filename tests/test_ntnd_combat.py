"""NT 19.2 combat: the printed example chain (golden), its exact odds, and one test per modifier and exception.

The modifier tests compare exact odds of the printed battle with one element changed: deleting or inverting any
modifier moves the Allied chance of winning, so each number below pins one rule.
"""
from fractions import Fraction as F

import pytest

from wargames.core import RandomDice, ScriptedDice
from wargames.core.errors import DataError, RuleViolation
from wargames.ntnd.combat import (Adjustment, Battle, Desertion, Engaged, Hex, Support, combat_odds, num,
                                  resolve)

GS = Adjustment(-1, "NT 11.1.2", "ground support")
ALLIED = (Engaged("USMC", "marine", "US", 4), Engaged("ARVN-1", "infantry", "SVN", 2),
          Engaged("ARVN-2", "infantry", "SVN", 2), Engaged("ARVN-arm", "armor", "SVN", 3))
SUPPORT = (Support("art1", "artillery", 0), Support("art2", "artillery", 1), Support("fb", "firebase", 2),
           Support("fleet", "fleet", 2), Support("pb", "patrol_boat", 1))


def example(fighters=("NVA", "VC"), support=SUPPORT, terrain="swamp", city=True, allied=ALLIED, **kw) -> Battle:
    """The 19.2 example: four Allied units attack an NVA division and a VC regiment (with stacked artillery) in a
    city on a swamp hex; firebase and fleet within 2 hexes and a patrol boat adjacent to the Communist hex."""
    nva = Engaged("NVA", "division", "NVA", 4, (GS,) if "NVA" in fighters else ())
    vc = Engaged("VC", "regiment", "VC", 3, (GS,) if "VC" in fighters else ())
    return Battle("allied", allied, (nva, vc, Engaged("art1", "artillery", "NVA", 1)), support,
                  Hex(terrain, {"city"} if city else set()), **kw)


def play(battle, *rolls):
    with ScriptedDice(list(rolls)) as d:
        return resolve(battle, d)


def step(res, rule, side=None, text=""):
    found = [s for s in res.find(rule) if (side is None or s.inputs.get("side") == side) and text in s.text]
    assert len(found) == 1, (rule, side, [s.line() for s in res.steps])
    return found[0]


@pytest.mark.rule("NT 19.2", "NT 19.2.1", "NT 19.2.2", "NT 19.2.3", "NT 19.2.4", "NT 19.2.5", "NT 19.2.6",
                  "NT 11.1.2")
def test_printed_example_chain():
    res = play(example(), 3, 2)
    allied_avg = step(res, "NT 19.2.1", "allied")
    assert allied_avg.result == F(11, 4) and "(4 + 2 + 2 + 3) / 4 = 11/4 = 2.75" in allied_avg.arithmetic
    comm = step(res, "NT 19.2.1", "communist")
    assert comm.result == F(5, 2) and "(3 + 2) / 2 = 5/2 = 2.5" in comm.arithmetic
    assert [s.result for s in res.find("NT 11.1.2")] == [3, 2]            # NVA 4 -> 3, VC 3 -> 2
    assert step(res, "NT 19.2.2", "allied").result == 3                      # 2.75 + 3 = 5.75
    assert step(res, "NT 19.2.2", "communist").result == 2                   # 2.5 + 2 = 4.5
    assert step(res, "NT 19.2.3", "communist").result == 3                   # 4.5 + 3 = 7.5
    assert step(res, "NT 19.2.4", "allied").result == 1                      # 5.75 + 1 = 6.75
    assert res.find("NT 19.2")[-1].result == {"allied": F(27, 4), "communist": F(15, 2)}
    assert F(11, 4) + 3 == F(23, 4) and F(5, 2) + 2 == F(9, 2)             # the printed 5.75 and 4.5
    a, c = (s for s in res.find("NT 19.2.6") if "rolls" in s.text)
    assert (a.inputs["roll"], a.result, a.arithmetic) == (3, F(39, 4), "6.75 + 3 = 9.75")
    assert (c.inputs["roll"], c.result, c.arithmetic) == (2, F(19, 2), "7.5 + 2 = 9.5")
    r = res.result
    assert (r.winner, r.double, r.triple) == ("allied", False, False)
    assert r.defender.losses == 1 and r.defender.eligible == ("NVA", "VC")
    assert r.defender.retreat == ("NVA", "VC", "art1") and not r.defender.destroyed_by_retreat
    assert r.attacker.losses == 0 and r.attacker.retreat == ()
    assert r.decisions == (("communist", "choose 1 ground combat unit to lose", "NT 19.2.6"),
                           ("communist", "retreat the other units one hex", "NT 19.3"))
    assert res.rules()[-1] == "NT 19.2.6"


@pytest.mark.rule("NT 19.2.6")
def test_printed_example_exact_odds():
    odds = combat_odds(example())
    assert odds[("allied", False)] == F(15, 36)
    assert odds[("communist", False)] == F(21, 36)
    assert (None, False) not in odds and ("allied", True) not in odds and ("communist", True) not in odds


def allied_wins(battle):
    return combat_odds(battle)[("allied", False)] + combat_odds(battle)[("allied", True)]


@pytest.mark.rule("NT 11.1.2", "NT 19.2.2", "NT 19.2.3", "NT 19.2.4")
@pytest.mark.parametrize("change, expected", [
    ({"fighters": ()}, F(10, 36)),                                     # no ground support: 8.5 - 6.75
    ({"fighters": ("NVA",)}, F(10, 36)),                               # one fighter: 8 - 6.75
    ({"support": SUPPORT[1:]}, F(21, 36)),                             # no stacked artillery: 6.5
    ({"support": SUPPORT[:1] + SUPPORT[2:]}, F(21, 36)),               # no adjacent artillery
    ({"support": SUPPORT[:2] + SUPPORT[3:]}, F(10, 36)),               # no firebase: 5.75 - 7.5... 1.75
    ({"support": SUPPORT[:3] + SUPPORT[4:]}, F(10, 36)),               # no fleet
    ({"support": SUPPORT[:4]}, F(10, 36)),                             # no patrol boat
    ({"city": False}, F(26, 36)),                                      # swamp only: 5.5
    ({"terrain": "clear"}, F(21, 36)),                                 # city only: 6.5
    ({"terrain": "jungle"}, F(15, 36)),                                # jungle counts as swamp
    ({"terrain": "mountain"}, F(10, 36)),                              # city on mountain: 8.5
    ({"allied": ALLIED[:1] + ALLIED[2:]}, F(10, 36)),                  # 3 v 2: no bonus, average 3: 6 v 7.5
])
def test_each_modifier_moves_the_odds(change, expected):
    assert allied_wins(example(**change)) == expected


@pytest.mark.rule("NT 19.2.1")
def test_fire_support_units_are_not_averaged():
    # The stacked artillery is engaged (it retreats) but its morale is not in the average (19.2.1).
    res = play(example(), 3, 2)
    assert step(res, "NT 19.2.1", "communist").inputs["count"] == 2


@pytest.mark.rule("NT 19.2.6")
def test_tie_each_side_loses_one_and_the_defender_decides_first():
    b = Battle("allied", (Engaged("a1", "infantry", "US", 3), Engaged("a2", "infantry", "US", 3)),
               (Engaged("c1", "regiment", "VC", 3), Engaged("c2", "regiment", "VC", 3)))
    r = play(b, 4, 4).result
    assert r.winner is None and not r.double
    assert r.attacker.losses == 1 == r.defender.losses
    assert r.defender.may_retreat == ("c1", "c2") and r.defender.retreat == ()
    assert r.decisions == (("communist", "choose 1 ground combat unit to lose", "NT 19.2.6"),
                           ("allied", "choose 1 ground combat unit to lose", "NT 19.2.6"),
                           ("communist", "retreat one hex or stay", "NT 19.2.6"),      # the defender first
                           ("allied", "retreat one hex or stay", "NT 19.2.6"))
    assert combat_odds(b)[(None, False)] == F(6, 36)


@pytest.mark.rule("NT 19.2.4", "NT 19.2.6")
def test_double_result_with_three_to_one_against_a_single_unit():
    b = Battle("allied", tuple(Engaged(f"a{i}", "infantry", "US", 3) for i in range(3)),
               (Engaged("cadre", "cadre", "VC", 1), Engaged("sup", "supply", "VC", 0)))
    res = play(b, 3, 3)                      # 3 + 2 + 3 = 8 against 1 + 3 = 4: exactly twice
    assert step(res, "NT 19.2.4", "allied").result == 2
    r = res.result
    assert (r.winner, r.double) == ("allied", True)
    assert r.defender.losses == 1 and r.defender.eligible == ("cadre",)     # two called for, one to lose
    assert r.defender.retreat == ("cadre", "sup")
    assert play(b, 2, 3).result.double is False                              # 7 < 8
    b2 = Battle("allied", b.attackers[:2], b.defenders)                     # 2:1 gives +1 only
    assert step(play(b2, 3, 3), "NT 19.2.4", "allied").result == 1


@pytest.mark.rule("NT 19.2.6")
def test_double_result_costs_two_units():
    b = Battle("communist", (Engaged("n1", "division", "NVA", 4), Engaged("n2", "division", "NVA", 4)),
               (Engaged("m1", "militia", "SVN", 1), Engaged("m2", "militia", "SVN", 1)))
    r = play(b, 6, 1).result                 # 10 against 2
    assert (r.winner, r.double, r.defender.losses) == ("communist", True, 2)


@pytest.mark.rule("NT 13.2.1", "NT 19.2.1")
def test_lone_artillery_defends_with_morale_one_and_its_own_support():
    b = Battle("allied", (Engaged("a1", "infantry", "US", 3),), (Engaged("art", "artillery", "NVA", 1),),
               (Support("art", "artillery", 0),))
    res = play(b, 2, 4)
    assert step(res, "NT 13.2.1", "communist").result == 1
    assert not res.find("NT 19.2.4")                                         # one unit each: no bonus
    r = res.result
    assert r.winner == "communist" and r.attacker.losses == 1               # 5 < 1 + 1 + 4 = 6
    r = play(b, 5, 1).result
    assert r.winner == "allied" and r.defender.losses == 0 and r.defender.retreat == ("art",)


@pytest.mark.rule("NT 13.1.3", "NT 19.3.7", "NT 13.1")
def test_lone_firebase_is_eliminated_if_forced_to_retreat():
    b = Battle("communist", (Engaged("r", "regiment", "VC", 3),), (Engaged("fb", "firebase", "US", 1),),
               (Support("fb", "firebase", 0),))
    res = play(b, 6, 1)
    assert step(res, "NT 13.1.3", "allied").result == 1
    r = res.result
    assert r.winner == "communist" and r.defender.destroyed_by_retreat == ("fb",)


@pytest.mark.rule("NT 14.1.1", "NT 14.1.2")
def test_lone_patrol_boat():
    boat = Engaged("pb", "patrol_boat", "US", 3)
    b = Battle("communist", (Engaged("r", "regiment", "VC", 3),), (boat,), (Support("pb", "patrol_boat", 0),))
    assert step(play(b, 1, 1), "NT 14.1.1", "allied").result == 3
    assert play(b, 6, 1).result.defender.destroyed_by_retreat == ()          # loses to infantry: retreats
    tie = play(b, 2, 1).result                                               # 5 = 3 + 1 + 1
    assert tie.winner is None and tie.defender.retreat == ("pb",) and tie.attacker.losses == 1
    svn = Battle("communist", b.attackers, (Engaged("pb", "patrol_boat", "SVN", 2),), b.support)
    assert step(play(svn, 1, 1), "NT 14.1.1", "allied").result == 2
    tank = Battle("communist", (Engaged("t", "tank", "NVA", 3),), (boat,), b.support)
    assert play(tank, 6, 1).result.defender.destroyed_by_retreat == ("pb",)


@pytest.mark.rule("NT 19.3.9")
def test_units_in_zones_never_retreat():
    b = Battle("allied", (Engaged("a", "infantry", "US", 4),),
               (Engaged("n", "division", "NVA", 2, in_zone=True), Engaged("n2", "division", "NVA", 2, in_zone=True)),
               defender_hex=Hex("zone"))
    r = play(b, 6, 1).result
    assert r.winner == "allied" and r.defender.retreat == () and r.defender.stay == ("n", "n2")


@pytest.mark.rule("NT 28.9.4", "NT 28.9.5", "NT 28.9.6")
def test_vc_base():
    base = Engaged("base", "vc_base", "VC", 1)
    b = Battle("allied", (Engaged("a", "infantry", "US", 3),), (Engaged("r", "regiment", "VC", 2), base),
               defender_hex=Hex("jungle"))
    res = play(b, 6, 1)                       # 9 against 2 + 1 + 1 + 1 = 5: a win, not three times
    assert step(res, "NT 28.9.4").result == 1
    r = res.result
    assert r.winner == "allied" and not r.triple and r.defender.losses == 1
    assert r.defender.stay == ("r",) and r.defender.retreat == ()           # the base holds them (28.9.5)
    strong = Battle("allied", tuple(Engaged(f"a{i}", "marine", "US", 4) for i in range(3)), b.defenders)
    r = play(strong, 6, 1).result             # 4 + 2 + 6 = 12 against 2 + 1 + 1 = 4: three times
    assert r.triple and r.defender.eliminated == ("r", "base") and r.defender.losses == 0
    assert not play(strong, 5, 1).result.triple                              # 11 < 12: twice, not three times
    alone = Battle("allied", (Engaged("a", "infantry", "US", 3),), (base,))
    assert not play(alone, 1, 1).find("NT 28.9.4")                          # no +1 defending alone
    near = Battle("allied", b.attackers, (Engaged("r", "regiment", "VC", 2),), vc_base_near=True)
    assert step(play(near, 1, 1), "NT 28.9.4").result == 1
    with pytest.raises(RuleViolation, match="28.9.5"):
        play(Battle("communist", (base,), (Engaged("a", "infantry", "US", 3),)), 1, 1)


@pytest.mark.rule("NT 28.7.2", "NT 19.2.3")
def test_sapper_cancels_the_terrain_bonus():
    defenders = (Engaged("a", "infantry", "US", 3),)
    hexes = Hex("mountain", {"city"})
    plain = Battle("communist", (Engaged("r", "regiment", "VC", 3),), defenders, defender_hex=hexes)
    assert step(play(plain, 1, 1), "NT 19.2.3").result == 4
    sapper = Battle("communist", (Engaged("s", "sapper", "VC", 3),), defenders, defender_hex=hexes)
    res = play(sapper, 1, 1)
    assert not res.find("NT 19.2.3") and step(res, "NT 28.7.2").result == 0
    assert res.result.winner is None                                         # 4 = 4
    # A sapper defending changes nothing (28.7.2's last sentence).
    d = Battle("allied", defenders, (Engaged("s", "sapper", "VC", 3),), defender_hex=hexes)
    assert step(play(d, 1, 1), "NT 19.2.3").result == 4


@pytest.mark.rule("NT 19.2.3")
def test_river_rows_need_every_attacker_on_the_river():
    kw = dict(attacker="communist", attackers=(Engaged("r1", "regiment", "VC", 3), Engaged("r2", "regiment", "VC", 3)),
              defenders=(Engaged("a", "infantry", "US", 3),))
    minor, major, dry = Hex("clear", {"minor_river"}), Hex("clear", {"major_river"}), Hex("clear")
    assert step(play(Battle(**kw, attacker_hexes=(minor, major)), 1, 1), "NT 19.2.3").result == 1
    assert step(play(Battle(**kw, attacker_hexes=(major, major)), 1, 1), "NT 19.2.3").result == 2
    assert not play(Battle(**kw, attacker_hexes=(minor, dry)), 1, 1).find("NT 19.2.3")


@pytest.mark.rule("NT 28.8", "NT 12.3")
def test_armour_shock_and_airmobile_aa():
    kw = dict(attackers=(Engaged("t", "tank", "NVA", 3),), defenders=(Engaged("a", "airmobile", "US", 3),))
    assert play(Battle("communist", **kw, armour_shock=True), 1, 1).result.winner == "communist"   # 5 > 4
    assert play(Battle("communist", **kw), 1, 1).result.winner is None
    no_tank = Battle("communist", (Engaged("r", "regiment", "VC", 3),), kw["defenders"], armour_shock=True)
    assert not play(no_tank, 1, 1).find("NT 28.8")
    aa = Battle("communist", (Engaged("r", "regiment", "VC", 3),), kw["defenders"], airmobile_near_aa=("a",))
    assert step(play(aa, 1, 1), "NT 12.3").result == 1 and play(aa, 1, 1).result.winner == "communist"
    with pytest.raises(DataError):
        play(Battle("communist", kw["attackers"], kw["defenders"], airmobile_near_aa=("t",)), 1, 1)


@pytest.mark.rule("NT 15.2.2", "NT 25.2", "NT 19.2.1")
def test_morale_adjustments_count_and_are_checked():
    gb = Adjustment(+1, "NT 15.2.2", "Green Beret zone")
    b = Battle("communist", (Engaged("r", "regiment", "VC", 3),), (Engaged("m", "militia", "SVN", 1, (gb,)),))
    res = play(b, 1, 1)
    assert step(res, "NT 19.2.1", "allied").result == 2 and res.result.winner == "communist"
    demoralized = Adjustment(-1, "NT 25.2", "ARVN demoralized")
    b = Battle("communist", (Engaged("r", "regiment", "VC", 3),), (Engaged("d", "infantry", "SVN", 2, (demoralized,)),))
    assert step(play(b, 1, 1), "NT 19.2.1", "allied").result == 1
    with pytest.raises(RuleViolation, match="15.2.2"):
        play(Battle("communist", b.attackers, (Engaged("i", "infantry", "SVN", 2, (gb,)),)), 1, 1)
    with pytest.raises(RuleViolation, match="25.2"):
        play(Battle("allied", (Engaged("u", "infantry", "US", 3, (demoralized,)),), b.attackers), 1, 1)
    with pytest.raises(RuleViolation, match="11.1.2"):
        play(example(fighters=()).__class__("allied", ALLIED, (Engaged("n", "division", "NVA", 4, (GS, GS)),)), 1, 1)
    with pytest.raises(RuleViolation, match="11.1.2"):
        play(Battle("communist", b.attackers, (Engaged("u", "infantry", "US", 3, (GS,)),)), 1, 1)


@pytest.mark.rule("NT 19.2.2", "NT 13.4")
def test_fire_support_range_and_supply():
    with pytest.raises(RuleViolation, match="19.2.2"):
        play(example(support=(Support("art2", "artillery", 2),)), 3, 2)
    with pytest.raises(RuleViolation, match="19.2.2"):
        play(example(support=(Support("pb", "patrol_boat", 2),)), 3, 2)
    for kind in ("firebase", "fleet"):
        with pytest.raises(RuleViolation, match="19.2.2"):
            play(example(support=(Support(kind, kind, 3),)), 3, 2)
    with pytest.raises(DataError):
        play(example(support=(Support("x", "sam", 0),)), 3, 2)
    unsupplied = SUPPORT[:1] + (Support("art2", "artillery", 1, supplied=False),) + SUPPORT[2:]
    res = play(example(support=unsupplied), 3, 2)
    assert step(res, "NT 19.2.2", "communist").result == 1 and res.find("NT 13.4")


@pytest.mark.rule("NT 25.4.1")
def test_desertion_is_rolled_before_the_battle():
    b = example(desertion=Desertion(area_control="communist"))
    # ARVN attacking -1, ARVN outnumbers -1, Communist area +1: a roll above printed morale + 1 deserts.
    res = play(b, 4, 3, 4, 3, 2)             # ARVN-1 deserts (4-1=3 > 2), ARVN-2 (3-1=2) and armour (4-1=3) stay
    assert [s.result for s in res.find("NT 25.4.1")] == [True, False, False]
    assert step(res, "NT 19.2.1", "allied").result == F(9, 3)                # (4 + 2 + 3) / 3
    assert res.result.attacker.deserted == ("ARVN-1",)
    assert not res.find("NT 19.2.4")                                         # 3 against 2: no bonus
    odds = combat_odds(b)
    assert sum(odds.values()) == 1 and odds[("allied", False)] < F(15, 36)
    assert not play(example(), 3, 2).find("NT 25.4.1")
    # Defending, outnumbered 2 to 1 in a neutral area: +1. The lone division deserts on a 2: no battle.
    lone = Battle("communist", (Engaged("r1", "regiment", "VC", 3), Engaged("r2", "regiment", "VC", 3)),
                  (Engaged("d", "infantry", "SVN", 2),), desertion=Desertion())
    r = play(lone, 2).result
    assert not r.fought and r.winner is None and r.defender.deserted == ("d",)
    assert play(lone, 1, 1, 1).result.fought
    # In an Allied-controlled area the +1 and -1 cancel: a 2 stays; in a Communist area a 1 deserts (1 + 2 > 2).
    held = Battle("communist", lone.attackers, lone.defenders, desertion=Desertion("allied"))
    assert play(held, 2, 1, 1).result.fought and not play(held, 2, 1, 1).result.defender.deserted
    lost = Battle("communist", lone.attackers, lone.defenders, desertion=Desertion("communist"))
    assert play(lost, 1).result.defender.deserted == ("d",)
    assert play(lone, 1, 1, 1).result.defender.deserted == ()


@pytest.mark.rule("NT 13.3")
def test_sams_alone_are_eliminated():
    r = play(Battle("allied", (Engaged("a", "infantry", "US", 3),), (Engaged("s", "sam", "NVA", 0),))).result
    assert r.defender.eliminated == ("s",) and r.winner == "allied" and not r.fought


@pytest.mark.rule("NT 15.2.3.1")
def test_green_beret_forced_to_retreat_is_eliminated():
    b = Battle("communist", (Engaged("n", "division", "NVA", 4), Engaged("n2", "division", "NVA", 4)),
               (Engaged("gb", "green_beret", "US", 3), Engaged("m", "militia", "SVN", 2)))
    r = play(b, 1, 1).result                  # 5 against 3.5
    assert r.defender.losses == 1 and r.defender.destroyed_by_retreat == ("gb",)


def test_bad_descriptions():
    with pytest.raises(DataError):
        Engaged("x", "artillery", "NVA", 1, ground_combat=True)
    with pytest.raises(DataError):
        Engaged("x", "interceptor", "NVA", 1)
    with pytest.raises(DataError):
        play(Battle("allied", (Engaged("a", "infantry", "NVA", 3),), (Engaged("c", "cadre", "VC", 1),)), 1, 1)
    with pytest.raises(DataError):
        Hex("desert")


def test_random_dice_run_the_same_procedure():
    r = resolve(example(), RandomDice(7)).result
    assert r.winner in ("allied", "communist")


def test_numbers_print_as_the_rulebook_does():
    assert [num(F(11, 4)), num(F(5, 2)), num(F(3)), num(F(10, 3))] == ["2.75", "2.5", "3", "10/3"]


@pytest.mark.rule("NT 19.2.3")
def test_terrain_comes_from_the_charts_in_use(tmp_path):
    """The battle reads the Terrain Effects Chart it is given: a town is +1 on ours (reconstructed), and an
    owner's chart with another value changes the combat."""
    from wargames.ntnd.charts import DATA, load_charts
    kw = dict(attacker="communist", attackers=(Engaged("r1", "regiment", "VC", 3),),
              defenders=(Engaged("a", "infantry", "US", 3),), defender_hex=Hex("clear", {"town"}))
    assert step(play(Battle(**kw), 1, 1), "NT 19.2.3").result == 1
    folder = tmp_path / "charts"
    folder.mkdir()
    text = (DATA / "terrain_effects.yaml").read_text(encoding="utf-8")
    town = "  town:\n    cost: 0\n    defence: 1\n"
    assert town in text
    (folder / "terrain_effects.yaml").write_text(text.replace(town, town.replace("defence: 1", "defence: 3")),
                                                 encoding="utf-8")
    owner = load_charts(folder)
    assert step(play(Battle(**kw, charts=owner), 1, 1), "NT 19.2.3").result == 3
