"""NT 19.2 combat: the corners of each modifier and result that `make mutate` showed the other tests missing.

Each test pins one rulebook fact at its boundary (a modified roll exactly at the printed morale, a double result
with more units than it costs, a three-times total with no VC Base), so that changing the rule's number, its
condition or its exception in wargames/ntnd/combat.py fails here.
"""
from fractions import Fraction as F

import pytest

from wargames.core import ScriptedDice
from wargames.ntnd.combat import (Battle, Desertion, Engaged, Hex, Support, combat_odds, outnumbering, resolve)
from wargames.core import Resolution


def play(battle, *rolls):
    with ScriptedDice(list(rolls)) as d:
        return resolve(battle, d)


def texts(res, rule):
    return [s.text for s in res.find(rule)]


VC2 = (Engaged("r1", "regiment", "VC", 3), Engaged("r2", "regiment", "VC", 3))
ARVN = Engaged("d", "infantry", "SVN", 2)


@pytest.mark.rule("NT 25.4.1")
def test_desertion_in_an_allied_area_at_the_boundary():
    # Defending, outnumbered 2 to 1 (+1) in an ARVN-controlled area (-1): a natural 3 is 3 > 2 and deserts,
    # a natural 2 stays.
    held = Battle("communist", VC2, (ARVN,), desertion=Desertion("allied"))
    assert play(held, 3).result.defender.deserted == ("d",)
    assert play(held, 2, 1, 1).result.defender.deserted == ()


@pytest.mark.rule("NT 25.4.1")
def test_desertion_odds_over_one_die():
    # Morale 2, +1 for the Communist numerical advantage: every natural roll but 1 deserts (5 in 6).
    lone = Battle("communist", VC2, (ARVN,), desertion=Desertion())
    assert combat_odds(lone, summary=lambda r: r.fought) == {False: F(5, 6), True: F(1, 6)}


@pytest.mark.rule("NT 25.4.1")
def test_only_army_units_roll_for_desertion():
    # Our reading: "ARVN unit" is the South Vietnamese army, so an engaged SVN patrol boat (a white-dot unit)
    # does not roll; only the infantry does.
    b = Battle("communist", VC2, (ARVN, Engaged("pb", "patrol_boat", "SVN", 2)),
               (Support("pb", "patrol_boat", 0),), desertion=Desertion())
    res = play(b, 1, 1, 1)
    assert [s.inputs["unit"] for s in res.find("NT 25.4.1")] == ["d"]


@pytest.mark.rule("NT 25.4.1")
def test_desertion_narration_names_the_modifiers():
    res = play(Battle("communist", VC2, (ARVN,), desertion=Desertion("communist")), 1)    # 1 + 2 > 2
    assert "+1 the Communist side has more units, +1 a Communist-controlled area" in texts(res, "NT 25.4.1")[0]
    even = Battle("communist", VC2[:1], (ARVN,), desertion=Desertion())
    assert "(no modifier)" in texts(play(even, 1, 1, 1), "NT 25.4.1")[0]


@pytest.mark.rule("NT 13.4", "NT 19.2.2")
def test_only_the_unsupplied_unit_is_reported_silent():
    b = Battle("allied", (Engaged("a", "infantry", "US", 3),), VC2,
               (Support("art1", "artillery", 0), Support("art2", "artillery", 1, supplied=False),
                Support("fb", "firebase", 2), Support("fleet", "fleet", 1)))
    res = play(b, 1, 1)
    assert [s.inputs["unit"] for s in res.find("NT 13.4")] == ["art2"]
    allied, = (s for s in res.find("NT 19.2.2") if s.inputs["side"] == "allied")
    assert allied.text == "Allied fire support: fb (firebase, 2 hexes away), fleet (1 hex away)"
    communist, = (s for s in res.find("NT 19.2.2") if s.inputs["side"] == "communist")
    assert communist.text == "Communist fire support: art1 (artillery, stacked)" and communist.result == 1


@pytest.mark.rule("NT 28.7.2", "NT 19.2.3")
def test_sapper_against_clear_terrain_has_nothing_to_cancel():
    b = Battle("communist", (Engaged("s", "sapper", "VC", 3),), (Engaged("a", "infantry", "US", 3),))
    res = play(b, 2, 1)
    assert not res.find("NT 28.7.2") and not res.find("NT 19.2.3") and res.result.winner == "communist"


@pytest.mark.rule("NT 19.2.4")
def test_outnumbering_needs_a_side_with_more_units():
    assert outnumbering({"allied": 0, "communist": 0}, Resolution()) == {"allied": 0, "communist": 0}
    assert outnumbering({"allied": 3, "communist": 1}, Resolution()) == {"allied": 2, "communist": 0}
    assert outnumbering({"allied": 2, "communist": 5}, Resolution()) == {"allied": 0, "communist": 1}


@pytest.mark.rule("NT 14.1.2", "NT 19.2.6")
def test_lone_patrol_boat_in_a_tie_against_armour_is_lost():
    boat = Engaged("pb", "patrol_boat", "US", 3)
    b = Battle("communist", (Engaged("t", "tank", "NVA", 3),), (boat,), (Support("pb", "patrol_boat", 0),))
    res = play(b, 2, 1)                       # 3 + 2 = 5 against 3 + 1 + 1 = 5
    r = res.result
    assert r.winner is None and r.defender.retreat == ("pb",) and r.defender.destroyed_by_retreat == ("pb",)
    assert r.defender.may_retreat == () and len(res.find("NT 14.1.2")) == 1
    plain = Battle("communist", VC2, (Engaged("a", "infantry", "US", 3), Engaged("b", "infantry", "US", 3)))
    assert play(plain, 1, 1).result.winner is None and not play(plain, 1, 1).find("NT 14.1.2")


@pytest.mark.rule("NT 28.9.6", "NT 19.2.6")
def test_three_times_without_a_vc_base_is_an_ordinary_double():
    b = Battle("allied", tuple(Engaged(f"m{i}", "marine", "US", 4) for i in range(3)),
               (Engaged("r", "regiment", "VC", 2),))
    r = play(b, 6, 1).result                  # 4 + 2 + 6 = 12 against 2 + 1 = 3
    assert (r.winner, r.double, r.triple) == ("allied", True, False)
    assert r.defender.losses == 1 and r.defender.eliminated == () and r.defender.retreat == ("r",)


@pytest.mark.rule("NT 28.9.6")
def test_a_vc_base_falls_only_to_allied_ground_units():
    # A US patrol boat attacking alone (morale 3, its own support +1) against a lone base (morale 1, no
    # 28.9.4 bonus alone): 3 + 1 + 6 = 10 against 1 + 1 = 2, five times, but no ground unit attacks.
    base = Engaged("base", "vc_base", "VC", 1)
    b = Battle("allied", (Engaged("pb", "patrol_boat", "US", 3),), (base,), (Support("pb", "patrol_boat", 1),))
    r = play(b, 6, 1).result
    assert (r.winner, r.double, r.triple) == ("allied", True, False)
    assert r.defender.eliminated == () and r.defender.losses == 0 and r.defender.retreat == ()


@pytest.mark.rule("NT 19.2.6")
def test_a_double_result_costs_two_units_not_more():
    b = Battle("communist", tuple(Engaged(f"n{i}", "division", "NVA", 4) for i in range(3)),
               tuple(Engaged(f"m{i}", "militia", "SVN", 1) for i in range(3)))
    res = play(b, 6, 1)                       # 10 against 2
    r = res.result
    assert (r.double, r.defender.losses, len(r.defender.eligible)) == (True, 2, 3)
    assert not [t for t in texts(res, "NT 19.2.6") if "has only" in t]


@pytest.mark.rule("NT 19.2.6")
def test_a_double_against_one_unit_says_it_has_only_one():
    b = Battle("allied", tuple(Engaged(f"a{i}", "infantry", "US", 3) for i in range(3)),
               (Engaged("cadre", "cadre", "VC", 1),))
    res = play(b, 3, 3)                       # 3 + 2 + 3 = 8 against 1 + 3 = 4
    assert res.result.defender.losses == 1
    assert [t for t in texts(res, "NT 19.2.6") if "has only" in t] == ["Communist has only 1 ground combat unit to lose"]


@pytest.mark.rule("NT 28.9.5", "NT 19.3.9")
def test_who_keeps_units_in_place_is_named():
    base = Engaged("base", "vc_base", "VC", 1)
    held = Battle("allied", (Engaged("a", "infantry", "US", 3),), (Engaged("r", "regiment", "VC", 2), base))
    res = play(held, 6, 1)
    assert res.result.defender.stay == ("r",) and not res.find("NT 19.3.9")
    assert texts(res, "NT 28.9.5") == ["r do not retreat: a VC Base holds them (28.9.5)"]
    # An Allied attack out of a zone on a VC Base hex that fails: the attacker stays because of its zone.
    zone = Battle("allied", (Engaged("a", "infantry", "US", 1, in_zone=True),), held.defenders)
    res = play(zone, 1, 6)
    assert res.result.attacker.stay == ("a",) and not res.find("NT 28.9.5")
    assert texts(res, "NT 19.3.9") == ["a do not retreat: they are in a zone (19.3.9)"]
    nva = Battle("allied", (Engaged("a", "infantry", "US", 4),),
                 (Engaged("n", "division", "NVA", 2, in_zone=True),), defender_hex=Hex("zone"))
    res = play(nva, 6, 1)
    assert res.result.defender.stay == ("n",) and not res.find("NT 28.9.5")
    assert texts(res, "NT 19.3.9") == ["n do not retreat: they are in a zone (19.3.9)"]


@pytest.mark.rule("NT 13.3")
def test_sams_are_eliminated_only_when_attacked_alone():
    r = play(Battle("allied", (Engaged("a", "infantry", "US", 3),), (Engaged("s", "sam", "NVA", 0),))).result
    assert (r.winner, r.double, r.fought) == ("allied", False, False)
    assert r.attacker.total == 0 == r.defender.total and r.defender.eliminated == ("s",)
    # SAMs "attacking" alone have no morale to fight with: no battle, and nothing is eliminated.
    r = play(Battle("communist", (Engaged("s", "sam", "NVA", 0),), (Engaged("a", "infantry", "US", 3),))).result
    assert (r.winner, r.fought, r.attacker.eliminated, r.defender.eliminated) == (None, False, (), ())


@pytest.mark.rule("NT 19.2.1", "NT 18.6.1")
def test_no_battle_without_a_unit_that_can_fight():
    # A supply unit attacked alone has no morale and no defence: it is eliminated without a roll (18.6.1).
    res = play(Battle("allied", (Engaged("a", "infantry", "US", 3),), (Engaged("x", "supply", "VC", 0),)))
    r = res.result
    assert (r.winner, r.double, r.fought, r.defender.eliminated) == ("allied", False, False, ("x",))
    assert r.attacker.total == 0 == r.defender.total and texts(res, "NT 18.6.1") and not texts(res, "NT 13.3")
    # a dummy alone is neither: no battle, and nothing is eliminated by the combat procedure
    res = play(Battle("allied", (Engaged("a", "infantry", "US", 3),), (Engaged("d", "dummy", "VC", 0),)))
    assert res.result.winner is None and res.result.defender.eliminated == ()
    # SAMs attacking alone have no unit that can fight: no battle at all
    res = play(Battle("communist", (Engaged("s", "sam", "NVA", 0),), (Engaged("a", "infantry", "US", 3),)))
    assert res.result.winner is None and res.result.defender.eliminated == ()
    assert "no unit that can fight" in texts(res, "NT 19.2.1")[-1]
    res = play(Battle("communist", VC2, (ARVN,), desertion=Desertion()), 2)
    assert "every unit deserted" in texts(res, "NT 19.2.1")[-1]
    assert res.result.double is False and res.result.attacker.total == 0 == res.result.defender.total


@pytest.mark.rule("NT 28.7.2", "NT 19.2.3")
def test_the_chart_reading_with_a_sapper_records_a_zero_bonus():
    from wargames.ntnd.charts import defence_modifier
    res = Resolution()
    assert defence_modifier("mountain", {"city"}, sapper=True, res=res) == 0      # mountain 2 + city 2, cancelled
    step, = res.steps
    assert (step.rule, step.result) == ("NT 28.7.2", 0) and "would be +4" in step.text


@pytest.mark.rule("NT 11.1.2")
def test_ground_support_lowers_one_ground_combat_unit_by_exactly_one():
    from wargames.core.errors import RuleViolation
    from wargames.ntnd.combat import Adjustment
    ally = (Engaged("a", "infantry", "US", 3),)
    for bad in (Engaged("n", "division", "NVA", 4, (Adjustment(-2, "NT 11.1.2", "ground support"),)),
                Engaged("art", "artillery", "NVA", 1, (Adjustment(-1, "NT 11.1.2", "ground support"),))):
        with pytest.raises(RuleViolation, match="11.1.2"):
            play(Battle("allied", ally, (bad,)), 1, 1)


@pytest.mark.rule("NT 19.1", "NT 19.1.3", "NT 19.2.2")
def test_a_battle_is_described_sensibly():
    from wargames.core.errors import DataError, RuleViolation
    a, c = Engaged("a", "infantry", "US", 3), Engaged("c", "regiment", "VC", 3)
    with pytest.raises(RuleViolation, match="19.1"):
        play(Battle("allied", (), (c,)))                       # no attacker
    with pytest.raises(RuleViolation, match="19.1"):
        play(Battle("allied", (a,), ()))                       # no defender
    with pytest.raises(DataError, match="twice"):               # a unit fights once in a battle (19.1.3)
        play(Battle("allied", (a, a), (c,)), 1, 1)
    with pytest.raises(DataError, match="twice"):
        play(Battle("allied", (a,), (c, Engaged("a", "regiment", "VC", 3))), 1, 1)
    with pytest.raises(RuleViolation, match="19.2.2"):         # a distance is never negative
        play(Battle("allied", (a,), (c,), (Support("fb", "firebase", -1),)), 1, 1)
